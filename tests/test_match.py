"""The one match loop (unokit.match): who is asked, versions, passes, what bots learn."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from unokit.bots import RandomBot
from unokit.bots.base import BotBase
from unokit.bots.runner import play_round
from unokit.engine import PLAY, Action, Event, Game, IllegalAction, View, position, view_of
from unokit.match import Match, StaleVersion, Timing, reaction_order
from unokit.obs.core import Table
from unokit.rules import PRESETS, RuleSet, from_preset


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rl_table_asks_seats_in_the_match_order(preset: str) -> None:
    """RL keeps its inline loop for speed; its seat order must be the match's rule."""
    rules = from_preset(preset, {"jump_in": True} if preset == "classic" else None)
    lo, hi = rules.player_range()
    rng = random.Random(7)
    checked = 0
    for n in sorted({lo, min(hi, 4)}):
        table = Table(rules, n)
        for seed in range(6):
            table.new_game(seed)
            for _ in range(400):
                g = table.game
                if g.round_over:
                    break
                want = reaction_order(g)
                asked = []
                s = table.select()
                while s != g.current:
                    asked.append(s)
                    table.pass_(s)
                    s = table.select()
                assert asked == want, (preset, n, seed)
                checked += len(want)
                actors = g.actors()
                seat = rng.choice(actors)
                table.apply(seat, rng.choice(g.legal_actions(seat)))
    assert checked > 0  # out-of-turn chances came up (catches at least)


def test_version_rises_with_accepted_actions_only() -> None:
    g = Game(RuleSet(), 3, seed=2)
    m = Match(g)
    before = g.state_json()
    cur = g.current
    other = (cur + 1) % 3
    with pytest.raises(IllegalAction):
        m.submit(other, Action.parse("draw"), 0)
    assert m.version == 0 and g.state_json() == before
    with pytest.raises(StaleVersion) as e:
        m.submit(cur, Action.parse("draw"), 5)
    assert e.value.code == "stale_version"
    assert m.version == 0 and g.state_json() == before
    m.submit(cur, Action.parse("draw"), 0)
    assert m.version == 1
    with pytest.raises(StaleVersion):
        m.submit(g.current, view_of(g, g.current).legal[0], 0)


class Recorder(BotBase):
    """Random decisions; keeps every event it is handed."""

    name = "recorder"

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.seen: list[Event] = []

    def observe(self, events: Sequence[Event]) -> None:
        self.seen.extend(events)

    def act(self, view: View) -> Action:
        return self.inner.act(view)

    def react(self, view: View) -> Action | None:
        return self.inner.react(view)


def test_bots_observe_exactly_their_seats_events_once_in_order() -> None:
    g = Game(from_preset("party"), 4, seed=9)
    bots = [Recorder(i) for i in range(4)]
    m = Match(g, bots, timing=Timing.instant())
    play_round(m)
    for seat, bot in enumerate(bots):
        mine = g.events_for(seat)
        assert bot.seen == mine[: len(bot.seen)]
        assert len(bot.seen) > len(mine) // 2
        assert all(e.visible_to(seat) for e in bot.seen)


class JumpBot(RandomBot):
    """Jumps in whenever it may (R-VAR-JUMPIN)."""

    jumps = 0

    def react(self, view: View) -> Action | None:
        for a in view.legal:
            if a.kind == PLAY:
                JumpBot.jumps += 1
                return a
        return super().react(view)


def test_a_bot_offering_a_jump_in_is_heard() -> None:
    """R-VAR-JUMPIN: the runner (and so tournaments) ask out-of-turn bots first."""
    JumpBot.jumps = 0
    jumped = 0
    for seed in range(30):
        g = Game(from_preset("party"), 4, seed=seed)
        m = Match(g, [JumpBot(seed * 4 + i) for i in range(4)], timing=Timing.instant())
        while not g.round_over:
            cur = g.current
            n_before = len(g.events or [])
            m.bot_step()
            plays = [e for e in (g.events or [])[n_before:] if e.kind == "play"]
            jumped += any(e.seat != cur for e in plays)
    assert JumpBot.jumps > 0 and jumped == JumpBot.jumps


def test_a_seat_that_passed_is_not_asked_again_until_the_game_changes() -> None:
    # seat 2 just played down to one card without calling UNO: catchable; seat 0 to act
    hands = [["R1", "G2", "B3"], ["Y4", "G5", "B6"], ["R9"]]
    g = position(hands=hands, discard=["R5", "R7"], current=0, vulnerable=2, seed=4)
    m = Match(g, [RandomBot(1), RandomBot(2), RandomBot(3)], timing=Timing.instant())
    order = reaction_order(g)
    assert set(order) == {0, 1, 2} - {g.current}
    first = m.next_to_ask()
    assert first == order[0]
    m.pass_(first)
    assert m.next_to_ask() == order[1]
    m.pass_(order[1])
    assert m.next_to_ask() == g.current
    m.submit(g.current, Action.parse("draw"))
    assert not m.passed


def test_spectator_updates_hold_no_hand() -> None:
    g = Game(RuleSet(), 3, seed=4)
    m = Match(g)
    u = m.update(None)
    assert u.seat is None and u.view.hand == () and u.view.legal == ()
    assert all(not e.cards for e in u.events if e.kind in ("deal", "draw"))
    assert m.update(None).events == ()  # the cursor moved: nothing new
    with pytest.raises(Exception) as e:
        m.update(-1)
    assert getattr(e.value, "code", "") == "bad_seat"


def test_a_turn_timer_decision_is_asked_and_told_like_any_bot() -> None:
    """The server's turn timer decides for a person through ``Match.decide_for``: the
    bot is told the seat's events first and offered a catch before the turn (R-UNO-2),
    as every bot is (review: it called ``act`` directly, untold)."""

    from unokit.bots.base import RandomBot
    from unokit.engine.actions import CATCH

    class Spy(RandomBot):
        def __init__(self) -> None:
            super().__init__(1)
            self.told: list[Event] = []
            self.asked: list[str] = []

        def observe(self, events: Sequence[Event]) -> None:
            self.told.extend(events)

        def react(self, view: View) -> Action | None:
            self.asked.append("react")
            return super().react(view)

        def act(self, view: View) -> Action:
            self.asked.append("act")
            return super().act(view)

    class Forgetful(RandomBot):
        """Never calls UNO, so it can be caught."""

        def act(self, view: View) -> Action:
            return super().act(view)._replace(uno=False)

        def react(self, view: View) -> Action | None:
            return None

    for seed in range(200):
        g = Game(RuleSet(), 3, seed=seed)
        m = Match(g, [None, Forgetful(2), Forgetful(3)], timing=Timing.instant())
        for _ in range(300):
            if g.round_over:
                break
            if g.current == 0 and g.vulnerable not in (-1, 0):
                spy = Spy()
                action = m.decide_for(0, spy)
                assert spy.told == g.events_for(0)
                assert spy.asked[0] == "react" and action.kind == CATCH
                return
            if not m.bot_step():
                m.submit(0, g.legal_actions(0)[0])
    raise AssertionError("no position with a catchable seat on seat 0's turn")
