"""The compiled heuristic (the search rollouts' players, ``compiled.search.heur_choose``)
chooses exactly as ``HeuristicBot`` does.

At every turn of ``heuristic`` bots with a card to play, in whole games (the bots keep
their memory from round to round: the voids they read, how often each seat challenged
their Wild Draw Fours), the position goes to the compiled kernel
(``compiled.state_from_game``, as the searches and the record-replay tests convert it)
with the deciding bot's memory (``search.set_memory``), and ``heur_choose`` must name
the very play the bot made, a wild with the same colour, or a draw when the bot drew:
no tie broken another way, no difference at all.  Every rule set the compiled rollouts
play (``compiled.rollouts_cover``), two to five players.

The first run compiles the kernel (numba, ``cache=True``: later runs load it).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numba")

from unokit import compiled
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.runner import play_game
from unokit.cards import WILD, build_deck
from unokit.compiled import kernel, search
from unokit.engine import DRAW, Action, Game, View
from unokit.engine.game import P_PLAY
from unokit.rules import RuleSet, from_preset

# numba: one xdist worker compiles the kernels once for every test here (loadgroup)
pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]

# Every preset and option family the compiled rollouts play (``rollouts_cover``).
FAMILIES: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("two-player", {}),
    ("teams", {}),
    ("my-first-uno", {}),
    ("attack", {}),
    ("classic", {"wd4_bluffing": False}),
    ("classic", {"wd4_guilty": "retract"}),
    ("classic", {"draw_until_playable": True, "force_play_drawn": True}),
    ("classic", {"jump_in": True}),
    ("classic", {"scoring": "elimination", "target_score": 150}),
    ("classic", {"scoring": "low", "target_score": 150}),
    ("classic", {"hand_size": 3, "uno_penalty": 4}),
]


def _players(preset: str) -> tuple[int, ...]:
    if preset == "teams":
        return (4,)
    if preset == "two-player":
        return (2,)
    if preset == "my-first-uno":
        return (2, 3, 4)
    return (2, 3, 4, 5)


class Tally:
    def __init__(self) -> None:
        self.decisions = 0
        self.differ: list[str] = []
        self.with_voids = 0  # decisions where the bot had read a void
        self.with_rates = 0  # ... where some seat had answered its W+4
        self.wilds = 0  # ... where it played a wild (the colour had to agree too)
        self.memory_counts = 0  # ... where a new bot's memory would have chosen otherwise


class Checked(HeuristicBot):
    """A heuristic bot that asks the compiled heuristic at each of its turns."""

    def __init__(self, seed: int, game: Game, rules: Any, tally: Tally) -> None:
        super().__init__(seed=seed)
        self.game = game
        self.rules_arr = rules
        self.tally = tally
        deck_col = search.deck_colours(build_deck(game.rules.deck, game.rules.custom_cards))
        self.scratch = search.rollout_scratch(deck_col)

    def _decide(self, view: View) -> Action:
        a = super()._decide(view)
        if view.phase != P_PLAY or view.current != view.seat:
            return a
        buf, _, deck_col, cnt, unseen, sc = self.scratch
        st = compiled.state_from_game(self.game)
        k = kernel.playable_cards(st, self.rules_arr, view.seat, buf)
        if k == 0:
            return a  # nothing to play: both draw
        search.set_memory(sc, self.lack, self.challenges)
        cnt[search.C_DN] = -1  # another game's pile may be counted there
        card, col = search.heur_choose(st, self.rules_arr, view.seat, buf, k, deck_col, cnt,
                                       unseen, sc)  # fmt: skip
        mine = (-1, -1) if a.kind == DRAW else (a.card, a.color if a.card >= WILD else -1)
        t = self.tally
        t.decisions += 1
        t.with_voids += any(any(row) for row in self.lack)
        t.with_rates += any(answered for _, answered in self.challenges)
        t.wilds += mine[0] >= WILD
        if (int(card), int(col)) != mine:
            t.differ.append(f"{view.rules.to_spec()} seat {view.seat}: {a} vs {card}/{col}")
        search.fresh_memory(sc)
        cnt[search.C_DN] = -1
        fresh = search.heur_choose(st, self.rules_arr, view.seat, buf, k, deck_col, cnt, unseen, sc)
        t.memory_counts += (int(fresh[0]), int(fresh[1])) != mine
        return a


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f[0] + "".join(f":{k}" for k in f[1]))
def test_the_compiled_heuristic_chooses_as_heuristicbot(fam: tuple[str, dict[str, Any]]) -> None:
    preset, opts = fam
    rules = from_preset(preset, opts)
    assert compiled.rollouts_cover(rules)
    tally = Tally()
    for n in _players(preset):
        arr = compiled.rules_array(rules, n, rounds_only=False, reactive=False)
        start = tally.decisions
        d = 0
        while tally.decisions - start < 250:  # whole games, at least 250 turns a table size
            game = Game(rules, n, seed=3400 + 100 * n + d, events=False)
            play_game(game, [Checked(d * 16 + s, game, arr, tally) for s in range(n)])
            d += 1
    assert tally.differ == []


def test_the_test_sees_memory_and_wilds() -> None:
    """Over the classic rules the decisions include turns after a void was read and
    after W+4s were answered, turns where a new bot's memory would have chosen another
    play (so the memory given is used), and wilds (whose colour must agree too)."""
    rules = RuleSet()
    tally = Tally()
    for n in (2, 3, 4):
        arr = compiled.rules_array(rules, n, rounds_only=False, reactive=False)
        for d in range(4):
            game = Game(rules, n, seed=3500 + 10 * n + d, events=False)
            play_game(game, [Checked(d * 16 + s, game, arr, tally) for s in range(n)])
    assert tally.differ == []
    assert tally.decisions > 2000
    assert tally.with_voids > 200 and tally.with_rates > 200
    assert tally.memory_counts > 10
    assert tally.wilds > 100
