"""UNO Flip! as RULES-MODERN.md Part A says it, scenario by scenario (Part D1, F1-F15).

Each test is named after the rule IDs it checks and builds its position with
``modern_position`` (every card of the game's deck exactly once), then plays it through
``apply``, the checked path people and servers use.
"""

from __future__ import annotations

import pytest

from unokit.engine import Action, FlipGame, IllegalAction, view_of
from unokit.engine.actions import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW
from unokit.engine.events import EventKind
from unokit.engine.modern.position import modern_position
from unokit.engine.modern.view import ModernView
from unokit.engine.phases import P_CHALLENGE, P_PLAY, P_START_COLOR
from unokit.engine.state import Ask, new_match, to_ask
from unokit.modern_cards import (
    DARK,
    FACE_CODE,
    FACE_COLOR,
    LIGHT,
    parse_face,
    parse_flip_color,
)
from unokit.rules import RulesError, RuleSet, from_preset

FLIP = from_preset("flip")
TEAL, ORANGE, PINK, GREEN, BLUE, RED = (parse_flip_color(c) for c in "TOPGBR")


def codes(game: FlipGame, cards: list[int]) -> list[str]:
    return [game.code_of(c) for c in cards]


def faces(game: FlipGame, cards: list[int]) -> list[str]:
    return [FACE_CODE[game.face(c)] for c in cards]


def play(game: FlipGame, seat: int, text: str) -> None:
    game.apply(seat, game.parse_action(text))


def flip_game(**kw: object) -> FlipGame:
    g = modern_position(FLIP, **kw)  # type: ignore[arg-type]
    assert isinstance(g, FlipGame)
    return g


# ------------------------------------------------------------------- the deck ----
def test_flip_deck_1_2_112_two_faced_cards_with_codes_that_round_trip() -> None:
    """FLIP-DECK-1, -2, -3: 112 cards; each side 72 numbers, 32 actions, 8 wilds; no zero."""
    g = FlipGame(FLIP, 3, seed=4)
    assert len(g.pairs) == 112
    for side in (LIGHT, DARK):
        fs = [p[side] for p in g.pairs]
        assert sum(1 for f in fs if FACE_CODE[f][1:].isdigit()) == 72
        assert sum(1 for f in fs if FACE_CODE[f].startswith("W")) == 8
        assert not any(FACE_CODE[f].endswith("0") for f in fs)
    every = [g.code_of(c) for c in range(112)]
    assert sorted(g.cards_from_codes(every, "deck")) == list(range(112))
    assert [g.code_of(c) for c in g.cards_from_codes(every, "deck")] == every
    assert FlipGame(FLIP, 3, seed=4).pairs == g.pairs  # the pairing follows the seed
    assert FlipGame(FLIP, 3, seed=5).pairs != g.pairs


# ------------------------------------------------------------------- the flip ----
def test_flip_flip_1_2_F1_the_whole_discard_pile_turns_over() -> None:
    """F1: light; discard bottom->top B2|O8, B5, B7; p0 plays BF."""
    g = flip_game(hands=[["BF", "R3"], ["G4"], ["Y5"], ["R6"]], discard=["B2|O8", "B5", "B7"])
    before = list(g.discard)
    flip_card = g.hands[0][0]
    play(g, 0, "BF")
    assert g.side == DARK
    assert g.discard == [flip_card, before[2], before[1], before[0]]  # bottom -> top
    assert g.pairs[flip_card][LIGHT] == parse_face("BF")
    assert codes(g, g.discard[-1:]) == ["B2|O8"]
    assert FACE_CODE[g.face(g.discard[-1])] == "O8" and g.color == ORANGE
    assert g.current == 1 and g.phase == P_PLAY


def test_flip_flip_1_F2_the_draw_pile_turns_over() -> None:
    """F2: the draw pile c1..cN becomes cN..c1; p1's next draw is cN."""
    g = flip_game(hands=[["BF", "R3"], ["G4"], ["Y5"], ["R6"]], discard=["B2|O8", "B5", "B7"])
    top_first = g.pile[::-1]
    play(g, 0, "BF")
    assert g.pile[::-1] == top_first[::-1]
    cn = top_first[-1]
    g.apply(1, Action(DRAW))
    assert g.hands[1][-1] == cn


def test_flip_flip_4_F3_an_exposed_action_does_not_happen() -> None:
    """F3: the bottom card B4|T+5 comes up as T+5: nobody draws, p1 is not skipped."""
    g = flip_game(hands=[["BF", "R3"], ["G4"], ["Y5"], ["R6"]], discard=["B4|T+5", "B7"])
    sizes = [len(h) for h in g.hands]
    play(g, 0, "BF")
    assert FACE_CODE[g.face(g.discard[-1])] == "T+5" and g.color == TEAL
    assert [len(h) for h in g.hands] == [sizes[0] - 1, *sizes[1:]]
    assert g.current == 1 and g.phase == P_PLAY


def test_flip_exposed_action_option_makes_the_exposed_card_act() -> None:
    """FLIP-FLIP-4's option flip_exposed_action=true: the exposed Draw Five hits p1."""
    rules = RuleSet(deck="flip", flip_exposed_action=True, preset="flip")
    g = modern_position(rules, hands=[["BF", "R3"], ["G4"], ["Y5"], ["R6"]],
                        discard=["B4|T+5", "B7"])  # fmt: skip
    assert isinstance(g, FlipGame)
    play(g, 0, "BF")
    assert len(g.hands[1]) == 6 and g.current == 2


def test_flip_flip_5_F4_the_flipper_names_the_colour_of_an_exposed_wild() -> None:
    """F4: the bottom card BR|W comes up wild: p0 names a dark colour before p1 acts."""
    g = flip_game(hands=[["BF", "R3"], ["G4", "G5"], ["Y5"], ["R6"]], discard=["BR|W", "B7"])
    play(g, 0, "BF")
    assert g.phase == P_START_COLOR and g.current == 0
    for seat, action in ((1, Action.play(parse_face("G4"))), (1, Action(COLOR, color=TEAL))):
        with pytest.raises(IllegalAction):
            g.apply(seat, action)
    with pytest.raises(IllegalAction) as e:
        g.apply(0, Action(COLOR, color=BLUE))  # a light colour on the dark side
    assert "dark side" in e.value.message
    g.apply(0, Action(COLOR, color=TEAL))
    assert g.color == TEAL and g.current == 1 and g.phase == P_PLAY


def test_flip_wild_color_next_player_option() -> None:
    """FLIP-FLIP-5's option flip_wild_color=next_player: p1 names the colour, then plays."""
    rules = RuleSet(deck="flip", flip_wild_color="next_player", preset="flip")
    g = modern_position(rules, hands=[["BF", "R3"], ["G4"], ["Y5"], ["R6"]],
                        discard=["BR|W", "B7"])  # fmt: skip
    play(g, 0, "BF")
    assert g.phase == P_START_COLOR and g.current == 1
    g.apply(1, Action(COLOR, color=ORANGE))
    assert g.current == 1 and g.phase == P_PLAY


def test_flip_flip_3_F5_a_named_colour_no_longer_applies() -> None:
    """F5: top W named blue, bottom G3|P7: after the flip the colour is pink, not blue."""
    g = flip_game(hands=[["BF", "R3"], ["G4"], ["Y5"], ["R6"]], discard=["G3|P7", "W"],
                  color="B")  # fmt: skip
    play(g, 0, "BF")
    assert FACE_CODE[g.face(g.discard[-1])] == "P7" and g.color == PINK


def test_flip_inverts_discard_option_shows_the_flip_cards_own_back() -> None:
    """FLIP-FLIP-2's option flip_inverts_discard=false: the Flip card's dark face is on top."""
    rules = RuleSet(deck="flip", flip_inverts_discard=False, preset="flip")
    g = modern_position(rules, hands=[["BF|O2", "R3"], ["G4"], ["Y5"], ["R6"]],
                        discard=["G3|P7", "B7"])  # fmt: skip
    play(g, 0, "BF")
    assert FACE_CODE[g.face(g.discard[-1])] == "O2" and g.color == ORANGE


# ------------------------------------------------------------------- dark actions -
def test_flip_act_skipall_F6_skip_everyone_plays_again() -> None:
    """F6: dark, top teal; p0 plays TSE and plays again; p1-p3 get no turn."""
    g = flip_game(hands=[["TSE", "T3", "O9"], ["O4"], ["O5"], ["O6"]], discard=["T7"], side=DARK)
    play(g, 0, "TSE")
    assert g.current == 0 and g.phase == P_PLAY
    for s in (1, 2, 3):
        assert not [a for a in g.legal_actions(s) if a.kind != 4]  # nothing but a catch
    play(g, 0, "T3 uno")
    assert g.current == 1


def _wdc_game() -> FlipGame:
    return flip_game(
        hands=[["W+C", "O9", "T2"], ["O4", "V1"], ["O5"], ["O6"]],
        discard=["P4"],
        draw=["O3", "W", "T5", "P2", "V3", "V4"],
        side=DARK,
    )


def test_flip_act_wdc_F7_wild_draw_colour_draws_until_the_colour() -> None:
    """F7 (FLIP-ACT-WDC, -WDC-1): p1 gains O3, W, T5; the wild does not stop it."""
    g = _wdc_game()
    g.apply(0, Action.play(parse_face("W+C"), TEAL))
    assert g.phase == P_CHALLENGE and g.current == 1
    g.apply(1, Action(ACCEPT))
    assert faces(g, g.hands[1][2:]) == ["O3", "W", "T5"]
    assert g.color == TEAL and g.current == 2


def test_flip_chal_wdc_F8_a_failed_challenge_draws_until_the_colour_then_two() -> None:
    """F8 (FLIP-CHAL-WDC, FLIP-VIEW-4): p1 sees p0's hand, draws O3, W, T5, P2, V3."""
    g = _wdc_game()
    g.apply(0, Action.play(parse_face("W+C"), TEAL))
    start = len(g.events or [])
    g.apply(1, Action(CHALLENGE))
    assert faces(g, g.hands[1][2:]) == ["O3", "W", "T5", "P2", "V3"]
    assert g.current == 2
    shown = [e for e in (g.events or [])[start:] if e.kind == EventKind.REVEAL]
    assert [e.only for e in shown] == [1]
    assert sorted(FACE_CODE[f] for f in shown[0].cards) == ["O9", "T2"]
    assert g.events_for(2, start) and not any(e.kind == EventKind.REVEAL
                                               for e in g.events_for(2, start))  # fmt: skip


def test_flip_chal_wd2_F9_a_guilty_wild_draw_two() -> None:
    """F9: p0 held R4 when playing W+2 on red: p0 draws 2, p1 plays on in green."""
    g = flip_game(hands=[["R4", "W+2", "Y1"], ["G4", "B1"], ["Y5"], ["Y6"]], discard=["R8"])
    g.apply(0, Action.play(parse_face("W+2"), GREEN))
    g.apply(1, Action(CHALLENGE))
    assert len(g.hands[0]) == 4 and len(g.hands[1]) == 2
    assert g.current == 1 and g.color == GREEN and g.phase == P_PLAY
    play(g, 1, "G4")


def test_flip_chal_wd2_not_guilty_costs_four() -> None:
    """FLIP-CHAL-WD2: an honest W+2 challenged: the challenger draws 4 and loses the turn."""
    g = flip_game(hands=[["B4", "W+2", "Y1"], ["G4", "B1"], ["Y5"], ["Y6"]], discard=["R8"])
    g.apply(0, Action.play(parse_face("W+2"), GREEN))
    g.apply(1, Action(CHALLENGE))
    assert len(g.hands[1]) == 6 and g.current == 2


def test_flip_chal_2_without_bluffing_a_wild_draw_needs_no_card_of_the_colour() -> None:
    """FLIP-CHAL-2: wd4_bluffing=false refuses the W+2 while holding the colour in force."""
    rules = RuleSet(deck="flip", wd4_bluffing=False, preset="flip")
    g = modern_position(rules, hands=[["R4", "W+2"], ["G4"], ["Y5"], ["Y6"]], discard=["R8"])
    with pytest.raises(IllegalAction) as e:
        g.apply(0, Action.play(parse_face("W+2"), GREEN))
    assert "colour in force" in e.value.message


# ------------------------------------------------------------------- start card ---
def _dealt(first_start: str, then: str, flip_start: str = "redraw") -> FlipGame:
    """A round dealt from a given deck: ``first_start`` turned first, ``then`` after the
    reshuffle (as a record gives it)."""
    rules = RuleSet(deck="flip", flip_start=flip_start, preset="flip")
    g = FlipGame(rules, 3, seed=1, start=False)
    deck = list(range(112))
    a = next(c for c in deck if FACE_CODE[g.pairs[c][LIGHT]] == first_start)
    b = next(c for c in deck if FACE_CODE[g.pairs[c][LIGHT]] == then)
    rest = [c for c in deck if c not in (a, b)]
    order = [*rest[:21], a, b, *rest[21:]]
    pile_after = [b, a, *rest[21:]]  # the reshuffle puts ``then`` on top
    g.start_round(0, order, seed=1, shuffles=[pile_after])
    return g


def test_flip_start_wd2_and_d1_F10() -> None:
    """F10: a start W+2 goes back and the pile is reshuffled; a start R+1: p1 draws 1, p2 starts."""
    g = _dealt("W+2", "R+1")
    assert g.rounds[-1].shuffles  # the reshuffle is in the record
    assert FACE_CODE[g.face(g.discard[-1])] == "R+1"
    assert [len(h) for h in g.hands] == [7, 8, 7] and g.current == 2


def test_flip_start_flip_F11_redrawn_by_default() -> None:
    """F11: a start GF is returned and another card turned; the side stays light."""
    g = _dealt("GF", "G5")
    assert g.side == LIGHT and FACE_CODE[g.face(g.discard[-1])] == "G5" and g.current == 1


def test_flip_start_flip_option_flips_at_once() -> None:
    """FLIP-START-FLIP, flip_start=flip: the round flips before anyone plays; no action."""
    g = _dealt("GF", "G5", flip_start="flip")
    assert g.side == DARK and len(g.discard) == 1
    assert g.face(g.discard[-1]) == g.pairs[g.discard[-1]][DARK]
    assert [len(h) for h in g.hands] == [7, 7, 7]
    assert g.current == 1 or g.phase == P_START_COLOR


def test_flip_start_reverse_and_skip() -> None:
    """FLIP-START-REVERSE: the dealer starts, counter-clockwise; -SKIP: p1 is skipped."""
    g = _dealt("W+2", "RR")
    assert g.current == 0 and g.direction == -1
    g = _dealt("W+2", "RS")
    assert g.current == 2


# ------------------------------------------------------------------- end, score ---
def test_flip_score_1_F12_scored_on_the_side_the_round_ends_on() -> None:
    """F12: the round ends on dark; p1's R7|T+5, B2|W+C count 20 + 60 = 80."""
    g = flip_game(hands=[["O3"], ["R7|T+5", "B2|W+C"]], discard=["O8"], side=DARK)
    play(g, 0, "O3")
    assert g.round_winner == 0 and g.scores == [80, 0]


def test_flip_end_2_F13_a_last_draw_five_still_draws() -> None:
    """F13: p0 goes out on O+5: p1 draws 5, and those 5 count in p0's score."""
    g = flip_game(hands=[["O+5"], ["O1"], ["O2"]], discard=["O8"], side=DARK)
    play(g, 0, "O+5")
    assert len(g.hands[1]) == 6 and g.round_winner == 0
    assert g.scores[0] == g.hand_points(1) + g.hand_points(2)
    assert g.scores[0] >= 1 + 2 + 5  # the O1, the O2 and at least 5 more cards


def test_flip_end_3_a_last_flip_card_flips_and_scores_the_new_side() -> None:
    """FLIP-END-3, flip_last_card=flip: the round is scored on the side after the flip."""
    g = flip_game(hands=[["BF"], ["R7|T+5"]], discard=["B1"])
    play(g, 0, "BF")
    assert g.side == DARK and g.scores == [20, 0]
    rules = RuleSet(deck="flip", flip_last_card="no_flip", preset="flip")
    h = modern_position(rules, hands=[["BF"], ["R7|T+5"]], discard=["B1"])
    play(h, 0, "BF")  # type: ignore[arg-type]
    assert h.scores == [7, 0]


def test_flip_score_3_low_scoring() -> None:
    """FLIP-SCORE-3: scoring=low adds each player's own hand to their total."""
    rules = RuleSet(deck="flip", scoring="low", preset="flip")
    g = modern_position(rules, hands=[["R3"], ["R7", "B2"]], discard=["R8"])
    play(g, 0, "R3")  # type: ignore[arg-type]
    assert g.scores == [0, 9] and g.round_over


def test_flip_score_3_a_low_score_tie_follows_classic_r_score_low() -> None:
    """FLIP-SCORE-3 (R-SCORE-LOW's tie rule, docs/rules.md): a tie for the fewest points
    goes to the round's winner if tied, else to the lowest seat (it went to the lowest
    seat even when the round's winner was tied)."""
    rules = RuleSet(deck="flip", scoring="low", preset="flip")
    g = modern_position(rules, hands=[["R5"], ["Y5"], ["R3"]], discard=["R8"], current=2)
    g.scores = [495, 485, 490]
    play(g, 2, "R3")  # type: ignore[arg-type]
    assert g.scores == [500, 490, 490] and g.game_over and g.game_winner == 2
    h = modern_position(rules, hands=[["R5"], ["Y5"], ["R3"], ["Y6"]], discard=["R8"], current=2)
    h.scores = [495, 485, 480, 484]
    play(h, 2, "R3")  # type: ignore[arg-type]
    assert h.scores == [500, 490, 480, 490] and h.game_winner == 2
    k = modern_position(rules, hands=[["R5"], ["Y5"], ["R3"], ["Y6"]], discard=["R8"], current=2)
    k.scores = [495, 480, 495, 479]
    play(k, 2, "R3")  # type: ignore[arg-type]
    assert k.scores == [500, 485, 495, 485] and k.game_winner == 1  # the lowest tied seat


# ------------------------------------------------------------------- views --------
def test_flip_view_1_3_F14_each_seat_sees_the_faces_it_may() -> None:
    """F14: p1 sees T+5 of p0's R7|T+5, not R7; p0 sees R7 only; both see the pile top's
    dark face."""
    g = flip_game(hands=[["R7|T+5", "Y1"], ["G4"], ["Y5"], ["Y6"]], discard=["R8"])
    v0, v1 = view_of(g, 0), view_of(g, 1)
    assert isinstance(v0, ModernView) and isinstance(v1, ModernView)
    assert [FACE_CODE[f] for f in v1.others[0]] == ["T+5", g.face_code(g.back(g.hands[0][1]))]
    assert "R7" not in [FACE_CODE[f] for f in v1.others[0]]
    assert sorted(FACE_CODE[f] for f in v0.hand) == ["R7", "Y1"]
    assert v0.others[0] == () and "T+5" not in [FACE_CODE[f] for h in v0.others for f in h]
    pile_top = g.pairs[g.pile[-1]][DARK]
    assert v0.pile_top == v1.pile_top == pile_top
    j = v1.to_json()
    assert j["others"][0][0] == "T+5" and j["side"] == "light" and j["pile_top"]


def test_flip_2p_1_F15_a_reverse_with_two_players_plays_again() -> None:
    """F15: 2 players, light: p0 plays GR and plays again."""
    g = flip_game(hands=[["GR", "G3"], ["Y5"]], discard=["G8"])
    play(g, 0, "GR")
    assert g.current == 0 and g.direction == 1


def test_flip_2p_1_draw_one_returns_to_the_player() -> None:
    """FLIP-2P-1: with two players, after a Draw One play returns to its player."""
    g = flip_game(hands=[["G+1", "G3"], ["Y5"]], discard=["G8"])
    play(g, 0, "G+1")
    assert len(g.hands[1]) == 2 and g.current == 0


# ------------------------------------------------------------------- options ------
def test_flip_opt_1_preset_and_refused_classic_options() -> None:
    """FLIP-OPT-1: the preset is deck=flip; classic options it does not play are refused
    with a reason, and Flip options on another deck too."""
    assert FLIP.deck == "flip" and FLIP.to_spec() == {"preset": "flip", "options": {}}
    with pytest.raises(RulesError, match="stacking"):
        from_preset("flip", {"stacking": "progressive"})
    with pytest.raises(RulesError, match="seven_zero"):
        from_preset("flip", {"seven_zero": True})
    with pytest.raises(RulesError, match="belongs to deck='flip'"):
        RuleSet(flip_start="flip")
    with pytest.raises(RulesError, match="physical"):
        from_preset("flip", {"flip_pairing": "physical"})


def test_flip_draw_until_playable_option() -> None:
    """FLIP-OPT-1: draw_until_playable works unchanged: draw until a playable card."""
    rules = RuleSet(deck="flip", draw_until_playable=True, preset="flip")
    g = modern_position(rules, hands=[["Y3"], ["Y5"]], discard=["R8"],
                        draw=["B1", "G2", "R4", "Y7"])  # fmt: skip
    g.apply(0, Action(DRAW))
    assert [FACE_CODE[g.face(c)] for c in g.hands[0]] == ["Y3", "B1", "G2", "R4"]  # type: ignore[attr-defined]
    assert g.phase == 1


def test_flip_uno_1_a_flipper_naming_a_colour_can_still_be_caught() -> None:
    """FLIP-UNO-1, FLIP-FLIP-5: down to one card by a Flip without calling, the player
    stays catchable while naming the exposed wild's colour, until the next player acts."""
    g = flip_game(hands=[["BF", "R3"], ["G4", "G5"], ["Y5"], ["R6"]], discard=["BR|W", "B7"])
    play(g, 0, "BF")
    g.apply(0, Action(COLOR, color=TEAL))
    assert g.vulnerable == 0
    g.apply(2, Action(CATCH, target=0))
    assert len(g.hands[0]) == 3 and g.vulnerable == -1


def test_flip_exposed_action_an_exposed_wild_draw_hits_once_its_colour_is_named() -> None:
    """flip_exposed_action=true (FLIP-FLIP-4, -5): a Wild Draw Colour exposed by a flip
    makes the next player draw until the colour the flipper names; no challenge."""
    rules = RuleSet(deck="flip", flip_exposed_action=True, preset="flip")
    g = modern_position(rules, hands=[["BF", "R3"], ["G4"], ["Y5"], ["R6"]],
                        discard=["B4|W+C", "B7"], draw=["O1", "T2", "P3"])  # fmt: skip
    assert isinstance(g, FlipGame)
    expect = []  # the draw pile is turned over: its old bottom card is drawn first
    for c in g.pile:
        expect.append(c)
        if FACE_COLOR[g.pairs[c][DARK]] == PINK:
            break
    play(g, 0, "BF")
    assert g.phase == P_START_COLOR and g.current == 0
    g.apply(0, Action(COLOR, color=PINK))
    assert g.hands[1][1:] == expect and g.current == 2 and g.color == PINK


def test_flip_start_flip_a_wild_dark_face_is_named_by_the_first_player() -> None:
    """FLIP-START-FLIP, flip_start=flip: a start Flip whose dark face is a Wild: the
    round flips, and the first player names a dark colour, then plays."""
    rules = RuleSet(deck="flip", flip_start="flip", preset="flip")
    g = FlipGame(rules, 3, seed=1, start=False)
    a = next(c for c in range(112) if FACE_CODE[g.pairs[c][LIGHT]] == "GF")
    w = next(c for c in range(112) if FACE_CODE[g.pairs[c][DARK]] == "W" and c != a)
    pairs = list(g.pairs)
    pairs[a], pairs[w] = (pairs[a][0], pairs[w][1]), (pairs[w][0], pairs[a][1])
    g.pairs = pairs
    rest = [c for c in range(112) if c != a]
    g.start_round(0, [*rest[:21], a, *rest[21:]], seed=1)
    assert g.side == DARK and g.phase == P_START_COLOR and g.current == 1
    with pytest.raises(IllegalAction):
        g.apply(1, Action(COLOR, color=GREEN))
    g.apply(1, Action(COLOR, color=ORANGE))
    assert g.current == 1 and g.phase == P_PLAY and g.color == ORANGE


def test_flip_opt_1_jump_in_with_the_top_cards_face() -> None:
    """FLIP-OPT-1, R-VAR-JUMPIN: a seat holding a card showing the top card's face plays
    it out of turn; play continues from it (p0, whose turn it was, is passed over)."""
    rules = RuleSet(deck="flip", jump_in=True, preset="flip")
    g = modern_position(rules, hands=[["G1", "B2"], ["Y3", "Y4"], ["R5", "Y6"]],
                        discard=["R5"])  # fmt: skip
    state = new_match(g)
    assert to_ask(state) == Ask(2, True)  # the jump-in is offered before p0 decides
    assert Action.play(parse_face("R5")) in g.legal_actions(2)
    assert g.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        g.apply(1, Action.play(parse_face("Y3")))
    g.apply(2, Action.play(parse_face("R5")))
    assert g.current == 0 and [len(h) for h in g.hands] == [2, 2, 1]
    g2 = modern_position(rules, hands=[["G1", "B2"], ["Y3"], ["R5", "Y6"]], discard=["W"],
                         color="R")  # fmt: skip
    assert g2.legal_actions(2) == []  # a wild has no twin to jump in with


def test_flip_opt_1_multi_play_of_one_number() -> None:
    """FLIP-OPT-1, R-VAR-MULTI: several cards of one number, the first matching, the last
    on top sets the colour; with jump_in, more of the number may follow a jump-in."""
    rules = RuleSet(deck="flip", multi_play=True, jump_in=True, preset="flip")
    g = modern_position(rules, hands=[["R5", "B5", "G5", "Y1"], ["Y3", "Y4"], ["R8", "B8"]],
                        discard=["R8"])  # fmt: skip
    legal = g.legal_actions(0)
    r5, g5, b5 = (parse_face(x) for x in ("R5", "G5", "B5"))
    assert Action.play(r5, extra=(b5, g5)) in legal and Action.play(b5, extra=(r5,)) not in legal
    assert g.parse_action("R5/B5/G5") == Action.play(r5, extra=(b5, g5))
    assert Action.play(parse_face("R8"), extra=(parse_face("B8"),)) in g.legal_actions(2)
    g.apply(0, g.parse_action("R5/G5"))
    assert FACE_CODE[g.face(g.discard[-1])] == "G5" and g.color == GREEN
    assert sorted(FACE_CODE[g.face(c)] for c in g.hands[0]) == ["B5", "Y1"]
    assert g.current == 1
