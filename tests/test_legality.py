"""One definition of legal (R-TURN-3, R-UNO-3, R-ACT-WD4): what is offered is accepted,
and the seat to act is always offered something."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import game_after, scenario
from unokit.bots.base import BotBase, RandomBot
from unokit.cards import CARD_CODE, WILD_DRAW4
from unokit.engine import Action, Game, IllegalAction
from unokit.engine.actions import KEEP, PLAY, UNO
from unokit.engine.phases import P_DRAWN
from unokit.engine.view import View, view_of
from unokit.errors import UnoError
from unokit.match import Match
from unokit.rules import from_preset

NO_BLUFF = {"wd4_bluffing": False, "false_uno_penalty": 2, "force_play_drawn": True}


def drawn_wd4_then_false_uno() -> Game:
    """Ana (no red) draws a Wild Draw Four on a red 5, then calls UNO with 3 cards: the
    two penalty cards are red, so the W+4 is no longer allowed (no bluffing)."""
    record = scenario(
        [["B1", "B2"], ["G1", "G2"]],
        "R5",
        [
            {"seat": 1, "draw": True},  # Ben (left of the dealer) draws G3: no match
            {"seat": 0, "draw": True},  # Ana draws the W+4: playable, she holds no red
            {"seat": 0, "uno": True},  # a false call: R1 R2 are her penalty
        ],
        then=["G3", "W+4", "R1", "R2", "Y9"],
        options=NO_BLUFF,
    )
    return game_after(record)


def test_a_drawn_wd4_made_unplayable_by_a_false_uno_call_can_be_kept() -> None:
    """R-TURN-3 + R-UNO-3: force_play_drawn forces a *playable* drawn card; once the
    penalty brought the colour in force, the W+4 is not offered and keep is."""
    g = drawn_wd4_then_false_uno()
    assert g.phase == P_DRAWN and g.current == 0
    assert sorted(CARD_CODE[c] for c in g.hands[0]) == ["B1", "B2", "R1", "R2", "W+4"]
    legal = g.legal_actions(0)
    assert legal == [Action(KEEP)]
    g.apply(0, Action(KEEP))
    assert g.current == 1


def test_the_unplayable_drawn_wd4_is_refused_with_the_reason() -> None:
    g = drawn_wd4_then_false_uno()
    with pytest.raises(IllegalAction) as e:
        g.apply(0, Action(PLAY, WILD_DRAW4, 2))
    assert e.value.code == "wd4_not_allowed"


def test_a_bot_at_that_table_always_finds_an_accepted_action() -> None:
    """Match.bot_step(fallback=True) used to raise IllegalAction here (issue 33)."""
    g = drawn_wd4_then_false_uno()
    m = Match(g, [RandomBot(1), RandomBot(2)])
    for _ in range(200):
        if g.round_over:
            break
        assert m.bot_step(fallback=True)
    assert g.round_over


class BadBot(BotBase):
    """Returns an Action whose fields are not numbers: str() and repr() of it raise."""

    def __init__(self, action: Any) -> None:
        self.action = action

    def act(self, view: View) -> Action:
        return self.action  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "bad",
    [Action("play", "R7"), Action(0, None), "R7", None, 7],  # type: ignore[arg-type]
)
@pytest.mark.parametrize("preset", ["classic", "flip", "no-mercy"])
def test_an_ill_typed_bot_action_gets_the_fallback_and_a_clear_error(bad: Any, preset: str) -> None:
    # (Flip and No Mercy: their action_text raised AttributeError on a non-Action, found
    # by review once the error line used the game's codes)
    g = Game(from_preset(preset), 2, seed=3)
    m = Match(g, [BadBot(bad), BadBot(bad)])
    told: list[tuple[int, str]] = []
    m.on_bot_error = lambda seat, msg: told.append((seat, msg))
    before = m.version
    assert m.bot_step(fallback=True)
    assert m.version == before + 1  # the fallback action was taken
    assert told and told[0][0] in (0, 1)
    assert told[0][1].startswith(("tried", "gave no action", "failed"))
    # without the fallback (tests, tournaments) the error is the engine's, not a crash
    # in the message that describes the bad action
    strict = Match(Game(None, 2, seed=3), [BadBot(bad), BadBot(bad)])
    with pytest.raises((UnoError, RuntimeError)):
        strict.bot_step(fallback=False)


def test_an_uno_call_is_allowed_any_time_but_not_listed() -> None:
    g = Game(None, 3, seed=5)
    seat = (g.current + 1) % 3
    assert Action(UNO) not in g.legal_actions(seat)
    g.check(seat, Action(UNO))  # allowed: R-UNO-3 (a false call costs cards)


def test_the_rl_mask_offers_keep_for_the_unplayable_drawn_wd4() -> None:
    """The RL table's fast mask agrees with legal_actions there (it offered nothing)."""
    from unokit.obs.core import Table, mask_of_view
    from unokit.obs.spec import NUM_ACTIONS

    g = drawn_wd4_then_false_uno()
    table = Table(g.rules, 2)
    table.set_game(g)
    fast = [i for i in range(NUM_ACTIONS) if table.mask(0)[i]]
    reference = [i for i in range(NUM_ACTIONS) if mask_of_view(view_of(g, 0))[i]]
    assert fast == reference and fast
