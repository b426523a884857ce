"""Who acts in the modern search's rollouts (``bots/modern_search.py``, issue 47).

The rollouts ask ``seat_to_ask`` like the classic ones (``ismcts._rollout_turn``): a
seat that went down to one card without calling UNO is caught by the first other seat
asked, and a jump-in is offered (and let go, unless the rollout is told to take it).
"""

from __future__ import annotations

import random

from unokit.bots.modern_search import rollout, rollout_pick, rollout_turn
from unokit.engine import FlipGame, ModernGame, NoMercyGame
from unokit.engine.actions import PLAY, Action
from unokit.engine.events import EventKind
from unokit.engine.modern.position import modern_position
from unokit.modern_cards import parse_face, parse_nm_card
from unokit.rules import RuleSet, from_preset

FLIP_JUMP = RuleSet(deck="flip", jump_in=True, preset="flip")


def _flip(
    hands: list[list[str]], discard: list[str], rules: RuleSet | None = None, seed: int = 0
) -> FlipGame:
    g = modern_position(rules or from_preset("flip"), hands=hands, discard=discard, seed=seed)
    assert isinstance(g, FlipGame)
    return g


def _nm(hands: list[list[str]], discard: list[str]) -> NoMercyGame:
    g = modern_position(from_preset("no-mercy"), hands=hands, discard=discard)
    assert isinstance(g, NoMercyGame)
    return g


def _catches(g: ModernGame) -> list[tuple[int, int]]:
    """(catcher, caught) for every catch in the game's events."""
    assert g.events is not None
    return [(e.seat, e.target) for e in g.events if e.kind == EventKind.CATCH]


def test_flip_uno_1_a_rollout_catches_a_missed_uno_call() -> None:
    """FLIP-UNO-1, R-UNO-2: p2 holds one card and did not call; p1, the first seat asked
    after the seat to act, catches it before p0 plays."""
    g = _flip([["G1", "B2", "Y7"], ["Y3", "Y4", "B9"], ["R6"]], ["R5"])
    g.vulnerable = 2
    assert rollout_turn(g, random.Random(1)) == 0
    assert _catches(g) == [(1, 2)]
    assert len(g.hands[2]) == 3 and g.vulnerable == -1 and g.current == 0


def test_nm_uno_2_the_seat_to_act_catches_first_on_its_turn() -> None:
    """NM-UNO-2, R-UNO-2: two players, p1 went down to one card without calling; it is
    asked first and lets its own late call go, then p0 catches it before playing."""
    g = _nm([["G1", "B2", "Y7"], ["R6"]], ["R5"])
    g.vulnerable = 1
    assert rollout_turn(g, random.Random(1)) == 0
    assert _catches(g) == [(0, 1)]
    assert len(g.hands[1]) == 3 and g.vulnerable == -1


def test_nm_uno_2_a_seat_caught_on_its_own_turn() -> None:
    """NM-UNO-2: the seat to act may itself be catchable (a swap handed it one card);
    another seat catches it before it plays."""
    g = _nm([["R6"], ["G1", "B2", "Y7"], ["B1", "B3", "G7"]], ["R5"])
    g.vulnerable = 0
    assert rollout_turn(g, random.Random(1)) == 0
    assert _catches(g) == [(1, 0)]
    assert len(g.hands[0]) == 3


def test_r_uno_2_rollouts_from_a_missed_call_catch_it() -> None:
    """R-UNO-2 in whole rollouts of both games: a catch happens in each."""
    for g in (
        _flip([["G1", "B2", "Y7"], ["Y3", "Y4", "B9"], ["R6"]], ["R5"]),
        _nm([["G1", "B2", "Y7"], ["Y3", "Y4", "B9"], ["R6"]], ["R5"]),
    ):
        g.vulnerable = 2
        rollout(g, 0, random.Random(3))
        assert _catches(g)[:1] == [(1, 2)]


def test_flip_uno_1_a_missed_call_costs_the_seat_in_its_rollouts() -> None:
    """FLIP-UNO-1: the same deals and random numbers, played on after p0's second-to-
    last card with the call and without it: without it p0 is caught (two cards), so it
    wins fewer rollouts.  (When nobody caught in a rollout, the two were equal.)"""
    hands = [["R7", "G9"], ["R3", "R4", "B9", "B6"], ["R1", "B2", "R8", "B4"]]
    r7 = parse_face("R7")
    called = missed = 0.0
    for seed in range(60):
        for uno in (True, False):
            g = _flip(hands, ["R5"], seed=seed)
            g.apply(0, Action(PLAY, r7, uno=uno))
            value = rollout(g, 0, random.Random(seed + 1))
            if uno:
                called += value
            else:
                missed += value
    assert 0 < called < 60 and missed < called


def test_flip_opt_1_a_rollout_offers_a_jump_in_and_lets_it_go() -> None:
    """FLIP-OPT-1, R-VAR-JUMPIN: p2 holds the top card's face; the rollout players let a
    jump-in go, as in the classic rollouts and as the bots' ``react`` does."""
    g = _flip([["G1", "B2"], ["Y3", "Y4"], ["R5", "Y6"]], ["R5"], FLIP_JUMP)
    assert g.jump_ins(2)
    assert rollout_turn(g, random.Random(1)) == 0
    assert [len(h) for h in g.hands] == [2, 2, 2] and g.current == 0


def test_flip_opt_1_a_rollout_told_to_jump_in_does() -> None:
    """FLIP-OPT-1, R-VAR-JUMPIN: with ``jump_ins`` the asked seat plays its twin out of
    turn and play continues from it (p0, whose turn it was, is passed over)."""
    g = _flip([["G1", "B2"], ["Y3", "Y4"], ["R5", "Y6"]], ["R5"], FLIP_JUMP)
    assert rollout_turn(g, random.Random(1), jump_ins=True) == 0
    assert [len(h) for h in g.hands] == [2, 2, 1]
    assert g.face(g.discard[-1]) == parse_face("R5") and g.current == 0
    g = _flip([["G1", "B2"], ["Y3", "Y4"], ["R5", "Y6"]], ["R5"], FLIP_JUMP)
    rollout(g, 0, random.Random(1), jump_ins=True)
    assert g.events is not None
    first = next(e for e in g.events if e.kind == EventKind.PLAY)
    assert first.seat == 2


def test_nm_uno_1_rollout_players_call_uno_on_a_discard_all_to_one_card() -> None:
    """NM-UNO-1, NM-ACT-DISCARDALL: a Discard All that leaves one card is called, as a
    second-to-last card is (the bots always call; a rollout now catches a miss)."""
    g = _nm([["RDA", "R3", "B2"], ["Y3", "Y4", "B9"]], ["GDA"])
    a = rollout_pick(g, 0, random.Random(1))
    assert a.kind == PLAY and a.card == parse_nm_card("RDA") and a.uno
