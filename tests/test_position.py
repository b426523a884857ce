"""``engine.position``: a game built from a described position, checked first.

* it builds what it is told: every seat's view says so;
* it round-trips through the stored form (``engine.state.to_json``/``from_json``);
* it refuses every impossible position with ``PositionError`` (``bad_position``) and a
  message that names the problem;
* a built position plays on legally: the seat to act has legal actions, and every one
  of them applies.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unokit.cards import build_deck, parse_card
from unokit.engine import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_GAME_OVER,
    P_PLAY,
    P_START_COLOR,
    PHASE_NAMES,
    Action,
    Game,
    PositionError,
    position,
    view_of,
)
from unokit.engine.state import dumps, from_json, game_to_json, loads, new_match, to_json
from unokit.errors import UnoError
from unokit.rules import RuleSet, from_preset

STACKING = RuleSet(stacking="progressive")


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


# Positions of every phase, each as the keyword arguments of ``position``.
POSITIONS: dict[str, dict[str, Any]] = {
    "play": {"hands": [["R1", "G2", "W"], ["B3", "Y4"], ["R9"]], "discard": ["G7", "R5"],
             "current": 1, "direction": -1, "vulnerable": 2, "scores": [10, 0, 32]},
    "drawn": {"hands": [["R1", "G2", "R8"], ["B3", "Y4"]], "discard": ["R5"], "phase": "drawn",
              "drawn": "R8", "draw": ["Y9"]},
    "start_color": {"hands": [["R1", "G2"], ["B3", "Y4"]], "discard": ["W"],
                    "phase": P_START_COLOR, "current": 1},
    "challenge": {"hands": [["R1", "G2"], ["B3", "Y4"]], "discard": ["R5", "W+4"], "color": "B",
                  "phase": "challenge", "wd4_by": 0, "prev_color": "R", "current": 1},
    "answer": {"rules": STACKING, "hands": [["R1", "G+2"], ["B3", "Y+2", "Y4"]],
               "discard": ["G5", "R+2"], "phase": "answer", "pending": "R+2",
               "pending_total": 2},
    "answer_wd4": {"rules": STACKING, "hands": [["R1", "W+4"], ["B3", "Y4"], ["G1"]],
                   "discard": ["G5", "W+4"], "color": "Y", "phase": P_ANSWER,
                   "pending": "W+4", "pending_total": 4, "wd4_by": 2, "prev_color": "G"},
    "eliminated": {"rules": RuleSet(scoring="elimination"),
                   "hands": [["R1", "G2"], [], ["B3", "Y4"]], "discard": ["R5"],
                   "live": [True, False, True], "scores": [20, 510, 40], "current": 2},
    "teams": {"rules": RuleSet(scoring="teams"), "hands": [["R1"], ["G2"], ["B3"], ["Y4"]],
              "discard": ["B5"], "current": 2, "scores": [100, 50]},
    "eliminated_at_round_over": {"rules": RuleSet(scoring="elimination"),
                                 "hands": [[], ["B3"], ["G2", "Y4"]], "discard": ["R5"],
                                 "phase": "round_over", "round_winner": 0, "current": 2,
                                 "live": [True, True, False], "scores": [0, 80, 520]},
    "round_over": {"hands": [[], ["B3", "Y4"]], "discard": ["R5", "R6"], "phase": "round_over",
                   "round_winner": 0, "scores": [9, 0], "round_index": 3},
    "game_over": {"hands": [["B3"], []], "discard": ["W"], "color": 2, "phase": P_GAME_OVER,
                  "round_winner": 1, "game_winner": 1, "scores": [0, 512]},
}  # fmt: skip


def build(name: str) -> Game:
    return position(**POSITIONS[name])


# ------------------------------------------------------------- what it builds ----
@pytest.mark.parametrize("name", POSITIONS)
def test_it_builds_what_it_is_told(name: str) -> None:
    spec = POSITIONS[name]
    g = build(name)
    hands = [cards(*h) for h in spec["hands"]]
    n = len(hands)
    phase = spec.get("phase", P_PLAY)
    phase = phase if isinstance(phase, int) else PHASE_NAMES.index(phase)
    rules = spec.get("rules", RuleSet())
    deck = build_deck(rules.deck, rules.custom_cards)
    for seat in [None, *range(n)]:
        v = view_of(g, seat)
        assert v.hand == (tuple(sorted(hands[seat])) if seat is not None else ())
        assert v.hand_sizes == tuple(len(h) for h in hands)
        assert v.discard[-len(spec["discard"]) :] == tuple(cards(*spec["discard"]))
        assert v.draw_pile == len(deck) - sum(map(len, hands)) - len(spec["discard"])
        assert v.current == spec.get("current", 0)
        assert v.direction == spec.get("direction", 1)
        assert v.phase == phase
        assert v.scores == tuple(spec.get("scores", [0] * len(v.scores)))
        assert v.vulnerable == spec.get("vulnerable", -1)
        assert v.live == tuple(spec.get("live", [True] * n))
        assert v.round_index == spec.get("round_index", 0)
        assert v.round_winner == spec.get("round_winner", -1)
        assert v.game_winner == spec.get("game_winner", -1)
        mine = seat == v.current
        assert v.drawn == (parse_card(spec["drawn"]) if "drawn" in spec and mine else -1)
        if phase == P_ANSWER:
            assert v.pending == parse_card(spec["pending"])
            assert v.pending_total == spec["pending_total"]
        if phase in (P_CHALLENGE, P_ANSWER):
            assert v.wd4_by == spec.get("wd4_by", -1)
    # every card of the deck is somewhere, once
    placed = [c for h in g.hands for c in h] + g.pile + g.discard
    assert Counter(placed) == Counter(deck)


def test_the_colour_in_force_is_the_top_cards_unless_named() -> None:
    assert view_of(build("play"), 0).color == parse_card("R5") // 13
    assert view_of(build("challenge"), 0).color == 3  # blue, named with the W+4
    assert view_of(build("start_color"), 0).color == -1  # not named yet


def test_the_draw_pile_given_is_on_top_and_the_rest_under_it() -> None:
    g = position(hands=[["R1"], ["G2"]], discard=["R5"], draw=["Y9", "B1"])
    assert g.pile[-2:] == cards("Y9", "B1")  # B1 is drawn next
    g.apply(0, Action.parse("draw"))
    assert parse_card("B1") in view_of(g, 0).hand


def test_the_rest_goes_where_it_is_told_in_an_order_from_the_seed() -> None:
    a = position(hands=[["R1"], ["G2"]], discard=["R5"], seed=1)
    b = position(hands=[["R1"], ["G2"]], discard=["R5"], seed=1)
    c = position(hands=[["R1"], ["G2"]], discard=["R5"], seed=2)
    assert a.pile == b.pile != c.pile
    short = position(hands=[["R1"], ["G2"]], discard=["R5"], draw=["B7"], rest="discard")
    assert short.pile == cards("B7") and short.discard[-1] == parse_card("R5")
    assert len(short.discard) == 108 - 2 - 1


def test_every_card_placed_needs_no_rest() -> None:
    deck = build_deck()
    top, rest = deck[0], deck[1:]
    g = position(hands=[rest[:50], rest[50:]], discard=[top], rest=None)
    assert g.pile == [] and len(view_of(g, 0).hand) == 50


def test_ids_and_codes_are_the_same_cards() -> None:
    a = position(hands=[["R1", "W"], ["G2"]], discard=["R5"], color="G")
    b = position(hands=[cards("R1", "W"), cards("G2")], discard=cards("R5"), color=2)
    assert game_to_json(a) == game_to_json(b)


def test_the_bluff_of_a_wild_draw_four_follows_from_the_hand() -> None:
    """Seat 0 still holds red, the colour before the W+4: a challenge finds it guilty."""
    g = build("challenge")
    g.apply(1, Action.parse("challenge"))
    assert view_of(g, 0).hand_sizes == (2 + 4, 2)  # the guilty seat draws 4
    assert g.current == 1


def test_the_caller_keeps_its_lists() -> None:
    hand = ["R1", "G2"]
    g = position(hands=[hand, ["B3"]], discard=["R5"])
    g.apply(0, Action.parse("R1"))
    assert hand == ["R1", "G2"]


# ------------------------------------------------------------ the stored form ----
@pytest.mark.parametrize("name", POSITIONS)
def test_it_round_trips_through_the_stored_form(name: str) -> None:
    state = new_match(build(name))
    again = from_json(to_json(state))
    assert game_to_json(again.game) == game_to_json(state.game)
    assert to_json(loads(dumps(state))) == to_json(state)
    for seat in range(state.n):
        assert view_of(again.game, seat) == view_of(state.game, seat)


# --------------------------------------------------------------- playing on ------
@pytest.mark.parametrize("name", POSITIONS)
def test_a_built_position_plays_on_legally(name: str) -> None:
    g = build(name)
    if g.round_over:
        assert g.legal_actions(g.current) == []
        return
    offered = g.legal_actions(g.current)
    assert offered
    for action in offered:
        state = new_match(build(name))
        other = state.game
        other.apply(other.current, action)  # checked: it must be legal
        assert other.card_count() == g.card_count()


def test_a_built_position_plays_to_the_end_of_its_round() -> None:
    g = build("play")
    for _ in range(2_000):
        if g.round_over:
            break
        seat = g.current
        g.apply(seat, g.legal_actions(seat)[0])
    assert g.round_over and g.card_count() == 108


# ---------------------------------------------------------------- refusals -------
GOOD: dict[str, Any] = {"hands": [["R1", "G2"], ["B3", "Y4"]], "discard": ["R5"]}

BAD: list[tuple[str, dict[str, Any], str]] = [
    ("a card more often than the deck has it", {"hands": [["R0", "R0"], ["B3"]]},
     "R0 2 times (the deck has 1)"),
    ("a card in two places", {"discard": ["R0"], "draw": ["R0"]}, "R0 2 times"),
    ("a card not in the rules' deck", {"hands": [["WSWAP"], ["B3"]]},
     "WSWAP (not in the classic deck)"),
    ("a card code that is no card", {"hands": [["R1", "Q7"], ["B3"]]}, "seat 0's hand"),
    ("a card id that is no card", {"discard": [57]}, "57 is not a card"),
    ("one seat", {"hands": [["R1"]]}, "1 seats"),
    ("eleven seats", {"hands": [["R1"]] * 11}, "11 seats"),
    ("teams of three seats", {"rules": RuleSet(scoring="teams"),
                              "hands": [["R1"], ["R2"], ["R3"]]}, "teams need 4, 6 or 8"),
    ("names for other seats", {"names": ["Ana"]}, "1 names for 2 hands"),
    ("every card placed, some missing", {"rest": None}, "are nowhere"),
    ("rest somewhere else", {"rest": "hands"}, "rest must be"),
    ("no top card", {"discard": []}, "the discard pile is empty"),
    ("a Wild on top without a colour", {"discard": ["R5", "W"]}, "say which colour"),
    ("a colour that is none", {"color": "P"}, "not a colour"),
    ("a colour number that is none", {"color": 4}, "must be a colour"),
    ("a seat to act that is none", {"current": 2}, "current must be a number from 0 to 1"),
    ("a seat to act that is -1", {"current": -1}, "current must be"),
    ("a direction that is none", {"direction": 0}, "direction must be 1"),
    ("a phase that is none", {"phase": "dancing"}, "phase must be one of"),
    ("a drawn card without the phase", {"drawn": "R1"}, "phase drawn and drawn"),
    ("the phase without a drawn card", {"phase": P_DRAWN}, "phase drawn and drawn"),
    ("a drawn card not in the hand", {"phase": "drawn", "drawn": "B3"},
     "not in seat 0's hand"),
    ("a start colour phase without a Wild", {"phase": "start_color"}, "Wild start card"),
    ("a start colour already named", {"phase": "start_color", "discard": ["W"], "color": "R"},
     "not named yet"),
    ("a challenge without a Wild Draw Four", {"phase": "challenge", "wd4_by": 1,
                                             "prev_color": "R"}, "must be on top"),
    ("a challenge without who played it", {"phase": "challenge", "discard": ["W+4"],
                                          "color": "G", "prev_color": "R"}, "wd4_by"),
    ("a challenge by the seat to act", {"phase": "challenge", "discard": ["W+4"],
                                       "color": "G", "wd4_by": 0, "prev_color": "R"},
     "cannot have hit"),
    ("a challenge without the colour before", {"phase": "challenge", "discard": ["W+4"],
                                              "color": "G", "wd4_by": 1}, "prev_color"),
    ("wd4_by outside a challenge", {"wd4_by": 1}, "belong to a Wild Draw Four"),
    ("an answer without stacking", {"phase": "answer", "pending": "R5"}, "needs stacking"),
    ("an answer to a card not on top", {"rules": STACKING, "phase": "answer",
                                        "pending": "R+2"}, "the card on top"),
    ("a pending card outside an answer", {"pending": "R5"}, "only in phase answer"),
    ("a pending total in plain play", {"pending_total": 2}, "only in phase answer"),
    ("a stacked challenge without stacking", {"phase": "challenge", "discard": ["W+4"],
                                             "color": "G", "wd4_by": 1, "prev_color": "R",
                                             "pending_total": 6}, "stacking is 'off'"),
    ("a negative pending total", {"pending_total": -1}, "pending_total must be"),
    ("a catchable seat on two cards", {"vulnerable": 1}, "on one card"),
    ("an empty hand in play", {"hands": [["R1"], []]}, "seat 1 holds no cards"),
    ("a winner in play", {"round_winner": 0}, "only once the round is over"),
    ("a round over without a winner", {"phase": "round_over", "hands": [[], ["B3"]]},
     "round_winner must be"),
    ("a winner who holds cards", {"phase": "round_over", "round_winner": 0}, "holds no cards"),
    ("a game winner before the game is over", {"phase": "round_over", "hands": [[], ["B3"]],
                                               "round_winner": 0, "game_winner": 0},
     "only in phase game_over"),
    ("scores for other seats", {"scores": [1, 2, 3]}, "scores: one per seat"),
    ("a negative score", {"scores": [0, -5]}, "a score must be"),
    ("eliminated seats without elimination", {"live": [True, False]},
     "only under elimination"),
    ("an eliminated seat holding cards", {"rules": RuleSet(scoring="elimination"),
                                          "hands": [["R1"], ["B3"], ["G2"]],
                                          "live": [True, False, True]}, "holds cards"),
    ("an eliminated seat to act", {"rules": RuleSet(scoring="elimination"),
                                   "hands": [["R1"], [], ["G2"]],
                                   "live": [True, False, True], "current": 1},
     "out of the game"),
    ("one seat left", {"rules": RuleSet(scoring="elimination"), "hands": [["R1"], []],
                       "live": [True, False]}, "at least two seats"),
    ("live for other seats", {"live": [True]}, "one per seat"),
    ("a dealer who is not a seat", {"dealer": 5}, "dealer must be"),
    ("a negative round", {"round_index": -1}, "round_index must be"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "change", "says"), BAD, ids=[b[0] for b in BAD])
def test_it_refuses_an_impossible_position(case: str, change: dict[str, Any], says: str) -> None:
    with pytest.raises(PositionError) as e:
        position(**{**GOOD, **change})
    assert isinstance(e.value, UnoError) and e.value.code == "bad_position"
    assert str(e.value).startswith("not a possible position: ")
    assert says in str(e.value), str(e.value)


def test_a_refusal_builds_nothing_and_keeps_the_callers_lists() -> None:
    hands = [["R1", "R1", "R1"], ["B3"]]
    with pytest.raises(PositionError):
        position(hands=hands, discard=["R5"])
    assert hands == [["R1", "R1", "R1"], ["B3"]]


def test_every_preset_builds_positions() -> None:
    for preset in ("classic", "party", "mattel-2018", "my-first-uno", "seed-001-house"):
        rules = from_preset(preset)
        deck = build_deck(rules.deck, rules.custom_cards)
        top = next(c for c in deck if c < 52)
        g = position(rules, hands=[deck[-3:], deck[-6:-3]], discard=[top])
        assert g.legal_actions(0)
        assert from_json(to_json(new_match(g))).game.card_count() == len(deck)
        assert g.phase == P_PLAY and not g.round_over
