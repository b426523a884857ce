"""UNO Show 'Em No Mercy as RULES-MODERN.md Part B says it (Part D2, N1-N17).

Positions come from ``modern_position`` (each card of the 168 once); actions go through
``apply``, the checked path, so every refusal below is one a player would get.
"""

from __future__ import annotations

from collections import Counter

import pytest

from unokit.engine import Action, IllegalAction, NoMercyGame, view_of
from unokit.engine.actions import ACCEPT, CATCH, COLOR, DRAW, PLAY
from unokit.engine.events import EventKind
from unokit.engine.modern.position import modern_position
from unokit.engine.phases import P_ANSWER, P_DRAWN, P_PLAY, P_START_COLOR
from unokit.modern_cards import NM_CODE, nm_deck, parse_nm_card
from unokit.rules import RulesError, RuleSet, from_preset

NM = from_preset("no-mercy")
R, Y, G, B = range(4)


def nm(rules: RuleSet = NM, **kw: object) -> NoMercyGame:
    g = modern_position(rules, **kw)  # type: ignore[arg-type]
    assert isinstance(g, NoMercyGame)
    return g


def c(code: str) -> int:
    return parse_nm_card(code)


def hand(g: NoMercyGame, seat: int) -> list[str]:
    return sorted(NM_CODE[x] for x in g.hands[seat])


def filler(k: int, avoid: str = "") -> list[str]:
    """``k`` number cards that match nothing in these tests (yellow 1-6, 8, 9)."""
    pool = [f"Y{r}" for r in (1, 2, 3, 4, 5, 6, 8, 9)] * 2
    return [x for x in pool if x != avoid][:k]


# ------------------------------------------------------------------- the deck ----
def test_nm_deck_1_2_168_cards_in_each_breakdown() -> None:
    """NM-DECK-1, -2: 168 cards; the wiki breakdown has 36 per colour, 24 wilds, no Wild."""
    for kind in ("wiki", "alt38", "alt37"):
        assert len(nm_deck(kind)) == 168
    counts = Counter(NM_CODE[x] for x in nm_deck("wiki"))
    assert counts["R0"] == 2 and counts["R+4"] == 2 and counts["RDA"] == 3
    assert counts["WR+4"] == 8 and counts["W+6"] == 4 and counts["W+10"] == 4
    assert counts["WCR"] == 8 and "W" not in counts
    assert sum(v for k, v in counts.items() if k[0] == "B") == 36
    assert Counter(NM_CODE[x] for x in nm_deck("alt37"))["W"] == 4


def test_nm_opt_1_preset_players_and_options() -> None:
    """NM-OPT-1, NM-SETUP-1: the preset, 2-6 players, options refused on other decks."""
    assert NM.deck == "no-mercy" and NM.scoring == "first-out" and NM.target_score == 1000
    assert NM.player_range() == (2, 6)
    with pytest.raises(RulesError):
        NoMercyGame(NM, 7)
    with pytest.raises(RulesError, match="belongs to deck='no-mercy'"):
        RuleSet(mercy_limit=30)
    with pytest.raises(RulesError, match="jump_in"):
        from_preset("no-mercy", {"jump_in": True})


# ------------------------------------------------------------------- stacking -----
def test_nm_stack_2_N1_an_answer_must_reach_the_last_value() -> None:
    """N1: facing B+4, p1 may answer W+6 or absorb; R+2 and B7 are refused."""
    g = nm(hands=[["R1", "R2"], ["R+2", "W+6", "B7"], ["G1"], ["G2"]], discard=["B+4"],
           current=1, pending=["B+4"])  # fmt: skip
    assert g.phase == P_ANSWER and g.pend_total == 4
    legal = g.legal_actions(1)
    assert {a.card for a in legal if a.kind == PLAY} == {c("W+6")}
    assert Action(ACCEPT) in legal
    for bad in (Action.play(c("R+2")), Action.play(c("B7"))):
        with pytest.raises(IllegalAction) as e:
            g.apply(1, bad)
        assert "+4 or more" in e.value.message


def test_nm_stack_1_4_N2_the_target_who_cannot_answer_absorbs_the_total() -> None:
    """N2: Y+2, G+4, W+10 (red) make 16; p3 absorbs 16, loses the turn; p0 plays."""
    g = nm(hands=[["Y+2", "Y1"], ["G+4", "G5"], ["W+10", "R5"], ["B1", "B2"]],
           discard=["Y7"])  # fmt: skip
    g.apply(0, Action.play(c("Y+2")))
    g.apply(1, Action.play(c("G+4")))
    g.apply(2, Action.play(c("W+10"), R))
    assert g.current == 3 and g.pend_total == 16 and g.phase == P_ANSWER
    assert [a for a in g.legal_actions(3) if a.kind != CATCH] == [Action(ACCEPT)]
    g.apply(3, Action(ACCEPT))
    assert len(g.hands[3]) == 18 and g.color == R and g.current == 0 and g.phase == P_PLAY


def test_nm_stack_2_N3_equal_value_answers() -> None:
    """N3: R+4 then W+6 (10); p2 answers W+6 (6 >= 6): 16 against p3."""
    g = nm(hands=[["R+4", "R1"], ["W+6", "G5"], ["W+6", "R5"], ["B1", "B2"]], discard=["R7"])
    g.apply(0, Action.play(c("R+4")))
    g.apply(1, Action.play(c("W+6"), B))
    g.apply(2, Action.play(c("W+6"), G))
    assert g.current == 3 and g.pend_total == 16


def test_nm_stack_threshold_total_option() -> None:
    """NM-STACK-2's option nm_stack_threshold=total: the answer must reach the total."""
    rules = RuleSet(deck="no-mercy", scoring="first-out", nm_stack_threshold="total",
                    preset="no-mercy")  # fmt: skip
    g = nm(rules, hands=[["R+4", "R1"], ["W+6", "G5"], ["W+6", "R5"], ["B1", "B2"]],
           discard=["R7"])  # fmt: skip
    g.apply(0, Action.play(c("R+4")))
    g.apply(1, Action.play(c("W+6"), B))
    with pytest.raises(IllegalAction):
        g.apply(2, Action.play(c("W+6"), G))  # 6 < 10


def test_nm_act_wrd4_N4_the_reverse_sends_the_stack_back() -> None:
    """N4: p0 R+2 on p1; p1 WR+4 (blue): counter-clockwise, p0 faces 6."""
    g = nm(hands=[["R+2", "R1", "W+6"], ["WR+4", "G5"], ["G1"], ["B1", "B2"]], discard=["R7"])
    g.apply(0, Action.play(c("R+2")))
    g.apply(1, Action.play(c("WR+4"), B))
    assert g.direction == -1 and g.current == 0 and g.pend_total == 6 and g.color == B
    assert {a.card for a in g.legal_actions(0) if a.kind == PLAY} == {c("W+6")}


def test_nm_2p_wrd4_N5_with_two_players_you_draw_your_own_four() -> None:
    """N5: 2 players; p0 plays WR+4 (green): p0 is its target; W+6 sends 10 to p1."""
    g = nm(hands=[["WR+4", "W+6", "R1"], ["B1", "B2"]], discard=["R7"])
    g.apply(0, Action.play(c("WR+4"), G))
    assert g.current == 0 and g.pend_total == 4 and g.phase == P_ANSWER
    assert Action(ACCEPT) in g.legal_actions(0)
    g.apply(0, Action.play(c("W+6"), Y))
    assert g.current == 1 and g.pend_total == 10
    h = nm(hands=[["WR+4", "W+6", "R1"], ["B1", "B2"]], discard=["R7"])
    h.apply(0, Action.play(c("WR+4"), G))
    h.apply(0, Action(ACCEPT))
    assert len(h.hands[0]) == 6 and h.current == 1


# ------------------------------------------------------------------- mercy --------
def test_nm_mercy_1_3_N6_knocked_out_at_25_the_rest_is_not_drawn() -> None:
    """N6: p1 holds 20; absorbing W+6, the 5th card makes 25: out; p2 plays next."""
    numbers = [f"{col}{r}" for col in "BG" for r in (1, 2, 3, 4, 5, 6, 8, 9)]
    twenty = [*numbers, "B1", "B2", "B3", "B4"]
    g = nm(hands=[["W+6", "R1"], twenty, ["G1", "G2"], ["Y1", "Y2"]], discard=["R7"])
    pile_before = len(g.pile)
    g.apply(0, Action.play(c("W+6"), R))
    start = len(g.events or [])
    g.apply(1, Action(ACCEPT))
    assert not g.live[1] and g.hands[1] == [] and len(g.aside) == 25
    assert len(g.pile) == pile_before - 5  # the 6th card stays in the pile
    assert g.current == 2 and g.phase == P_PLAY
    assert [e.amount for e in (g.events or [])[start:] if e.kind == EventKind.KNOCKOUT] == [25]
    assert g.legal_actions(1) == [] and 1 not in g.actors()


def test_nm_mercy_2_N7_set_aside_hands_join_the_reshuffle() -> None:
    """N7: draw pile empty, 10 discards, 25 set aside: the new pile is 9 + 25 cards."""
    aside = [f"{col}{r}" for col in "BG" for r in (1, 2, 3, 4, 5, 6, 8, 9)] + [
        "B1", "B2", "B3", "B4", "B5", "B6", "B8", "B9", "G1"]  # fmt: skip
    g = nm(hands=[["Y1"], ["Y2"], ["Y3"]], discard=["R1", "R2", "R3", "R4", "R5", "R6",
           "R8", "R9", "R1", "R7"], aside=aside)  # fmt: skip
    # the rest of the deck is in the draw pile: give it to p2 to empty the pile
    g.hands[2].extend(g.pile)
    g.pile.clear()
    total = g.card_count()
    g.apply(0, Action(DRAW))
    assert g.reshuffles == 1 and g.aside == []
    assert g.discard[-1] == c("R7") and len(g.discard) == 1
    assert len(g.pile) + len(g.hands[0]) - 1 == 34
    assert g.card_count() == total


def test_nm_end_3_score_2_N8_the_last_player_standing_scores_250_a_knockout() -> None:
    """N8: 3 players, p1 out earlier; p2 knocked out absorbing: p0 wins, scoring 500."""
    rules = RuleSet(deck="no-mercy", scoring="standard", target_score=1000, preset="no-mercy")
    numbers = [f"{col}{r}" for col in "BG" for r in (1, 2, 3, 4, 5, 6, 8, 9)]
    big = [*numbers, "B1", "B2", "B3", "B4", "B5"]
    g = nm(rules, hands=[["W+6", "R1"], [], big], discard=["R7"],
           live=[True, False, True])  # fmt: skip
    g.knockouts = 1  # p1 went out earlier in this hand
    g.apply(0, Action.play(c("W+6"), R))
    assert g.current == 2
    g.apply(2, Action(ACCEPT))
    assert g.round_over and g.round_winner == 0 and g.scores == [500, 0, 0]


def test_nm_knockout_cards_discard_bottom_option() -> None:
    """NM-MERCY-2's option nm_knockout_cards=discard_bottom: under the discard pile."""
    rules = RuleSet(deck="no-mercy", scoring="first-out", nm_knockout_cards="discard_bottom",
                    preset="no-mercy")  # fmt: skip
    numbers = [f"{col}{r}" for col in "BG" for r in (1, 2, 3, 4, 5, 6, 8, 9)]
    big = [*numbers, "B1", "B2", "B3", "B4"]
    g = nm(rules, hands=[["W+6", "R1"], big, ["G1"], ["Y1"]], discard=["R7"])
    g.apply(0, Action.play(c("W+6"), R))
    g.apply(1, Action(ACCEPT))
    assert not g.live[1] and g.aside == [] and len(g.discard) == 27
    v = view_of(g, 2)
    assert v.discard == tuple(g.discard[25:]) and v.discard_size == 27  # face down


# ------------------------------------------------------------------- turns --------
def test_nm_turn_3_N9_draw_until_playable_then_play_it() -> None:
    """N9: top B5, p0 holds nothing playable: draws R1, G2, B9 and must play B9."""
    g = nm(hands=[["Y1", "R3"], ["G1"], ["G2"], ["G3"]], discard=["B5"],
           draw=["R1", "G2", "B9", "Y3"])  # fmt: skip
    g.apply(0, Action(DRAW))
    assert hand(g, 0) == sorted(["Y1", "R3", "R1", "G2", "B9"])
    assert g.phase == P_DRAWN
    assert {a.card for a in g.legal_actions(0) if a.kind == PLAY} == {c("B9")}
    assert all(a.kind == PLAY for a in g.legal_actions(0))  # no keeping it
    assert g.pile[-1] == c("Y3")
    g.apply(0, Action.play(c("B9")))
    assert g.current == 1


def test_nm_turn_4_voluntary_draw_option() -> None:
    """NM-TURN-4: with a playable card one may draw (default); nm_voluntary_draw=false
    refuses it."""
    g = nm(hands=[["B1", "R3"], ["G1"]], discard=["B5"])
    assert Action(DRAW) in g.legal_actions(0)
    rules = RuleSet(deck="no-mercy", scoring="first-out", nm_voluntary_draw=False,
                    preset="no-mercy")  # fmt: skip
    h = nm(rules, hands=[["B1", "R3"], ["G1"]], discard=["B5"])
    with pytest.raises(IllegalAction, match="must play"):
        h.apply(0, Action(DRAW))


def test_nm_act_7_N10_seven_swaps_with_a_chosen_player() -> None:
    """N10: p0 plays R7 on p2: p0 holds p2's 9 cards, p2 holds G2; a 7 needs a target."""
    nine = ["B1", "B2", "B3", "B4", "B5", "B6", "B8", "B9", "B1"]
    g = nm(hands=[["R7", "G2"], ["Y1"], nine, ["Y2"]], discard=["R4"])
    with pytest.raises(IllegalAction, match="swap"):
        g.apply(0, Action.play(c("R7")))
    g.apply(0, Action.play(c("R7"), target=2))
    assert hand(g, 0) == sorted(nine) and hand(g, 2) == ["G2"] and g.current == 1


def test_nm_act_0_N11_zero_passes_every_hand_on() -> None:
    """N11: p0 plays Y0: p1 holds p0's hand, p2 p1's, p3 p2's, p0 p3's; p1 plays."""
    hands = [["Y0", "R1", "R2"], ["G1", "G2"], ["B1"], ["G3", "G4", "G5", "G6"]]
    g = nm(hands=hands, discard=["Y4"])
    g.apply(0, Action.play(c("Y0")))
    assert hand(g, 1) == ["R1", "R2"] and hand(g, 2) == ["G1", "G2"]
    assert hand(g, 3) == ["B1"] and hand(g, 0) == ["G3", "G4", "G5", "G6"]
    assert g.current == 1
    assert g.vulnerable == 3  # NM-UNO-1 (§C 23): a one-card hand received must be called


def test_nm_act_discardall_N12_the_colour_goes_under_it() -> None:
    """N12: p0 plays RDA: R3, R7 go under it; p0 keeps B2, W+6; no swap from the 7."""
    g = nm(hands=[["RDA", "R3", "R7", "B2", "W+6"], ["G1"], ["G2"], ["G3"]], discard=["R5"])
    g.apply(0, Action.play(c("RDA")))
    assert [NM_CODE[x] for x in g.discard[-3:]] == ["R3", "R7", "RDA"]
    assert hand(g, 0) == ["B2", "W+6"] and g.color == R and g.current == 1
    assert [len(h) for h in g.hands[1:]] == [1, 1, 1]


def test_nm_act_roulette_N13_the_victim_reveals_until_its_colour() -> None:
    """N13: p0 plays WCR; p1 names green and gains R1, W+6, G4; p2 plays; green."""
    g = nm(hands=[["WCR", "R9"], ["B1"], ["B2"], ["B3"]], discard=["R5"],
           draw=["R1", "W+6", "G4", "B2"])  # fmt: skip
    g.apply(0, Action.play(c("WCR")))
    assert g.phase == P_START_COLOR and g.current == 1
    with pytest.raises(IllegalAction):
        g.apply(0, Action(COLOR, color=G))
    g.apply(1, Action(COLOR, color=G))
    assert hand(g, 1) == sorted(["B1", "R1", "W+6", "G4"]) and g.color == G and g.current == 2


def test_nm_stack_5_N14_nothing_but_a_draw_card_answers_a_stack() -> None:
    """N14: facing +2 with RS and WCR, p1 may only absorb."""
    g = nm(hands=[["R1"], ["RS", "WCR"], ["G1"], ["G2"]], discard=["R+2"], current=1,
           pending=["R+2"])  # fmt: skip
    with pytest.raises(IllegalAction):
        g.apply(1, Action.play(c("RS")))
    assert g.legal_actions(1) == [Action(ACCEPT)]


def test_nm_stack_deflect_option() -> None:
    """NM-STACK-5's option nm_stack_deflect=true: a Skip passes the stack on."""
    rules = RuleSet(deck="no-mercy", scoring="first-out", nm_stack_deflect=True,
                    preset="no-mercy")  # fmt: skip
    g = nm(rules, hands=[["R1"], ["RS", "B1"], ["G1"], ["G2"]], discard=["R+2"], current=1,
           pending=["R+2"])  # fmt: skip
    g.apply(1, Action.play(c("RS")))
    assert g.current == 3 and g.pend_total == 2
    h = nm(rules, hands=[["R1", "G7"], ["RR", "B1"]], discard=["R+2"], current=1,
           pending=["R+2"])  # fmt: skip
    h.apply(1, Action.play(c("RR")))  # two players: back to the opponent
    assert h.current == 0 and h.phase == P_ANSWER and h.pend_total == 2


def test_nm_end_2_N15_a_final_seven_wins_without_a_swap() -> None:
    """N15: p0's last card is G7: p0 wins; no swap happens."""
    g = nm(hands=[["G7"], ["Y1", "Y2"], ["B1"]], discard=["G5"])
    assert g.legal_actions(0)[0] == Action.play(c("G7"))  # no target asked
    g.apply(0, Action.play(c("G7")))
    assert g.round_winner == 0 and g.game_over and hand(g, 1) == ["Y1", "Y2"]


def test_nm_stack_8_a_final_draw_card_draws_nobody() -> None:
    """NM-STACK-8, NM-END-2: answering with the last card wins; nobody draws."""
    g = nm(hands=[["R1"], ["W+6"], ["G1"], ["G2"]], discard=["R+2"], current=1,
           pending=["R+2"])  # fmt: skip
    g.apply(1, Action.play(c("W+6"), R))
    assert g.round_winner == 1 and [len(h) for h in g.hands] == [1, 0, 1, 1]


def test_nm_start_1_N16_action_start_cards_are_ignored() -> None:
    """N16: W+10, R+2, B5 turned: B5 shows (blue) over the two; p1 starts; nobody draws."""
    g = NoMercyGame(NM, 4, seed=3, start=False)
    deck = list(nm_deck("wiki"))
    for code in ("W+10", "R+2", "B5"):
        deck.remove(c(code))
    order = [*deck[:28], c("W+10"), c("R+2"), c("B5"), *deck[28:]]
    g.start_round(0, order, seed=1)
    assert [NM_CODE[x] for x in g.discard] == ["W+10", "R+2", "B5"]
    assert g.color == B and g.current == 1 and [len(h) for h in g.hands] == [7] * 4


def test_nm_act_skipall_N17_skip_everyone_is_a_full_turn_again() -> None:
    """N17: p0 plays GSE with 3 cards left and takes a full turn (play, or draw)."""
    g = nm(hands=[["GSE", "Y1", "Y2", "G4"], ["B1"], ["B2"], ["B3"]], discard=["G5"])
    g.apply(0, Action.play(c("GSE")))
    assert g.current == 0 and g.phase == P_PLAY
    assert Action(DRAW) in g.legal_actions(0) and Action.play(c("G4")) in g.legal_actions(0)


# ------------------------------------------------------------------- more rules ---
def test_nm_2p_skip_reverse_and_roulette_give_the_player_another_turn() -> None:
    """NM-2P: Skip, Reverse, Skip Everyone: you play again; after a Roulette too."""
    for card in ("RS", "RR", "RSE"):
        g = nm(hands=[[card, "R1"], ["B1"]], discard=["R5"])
        g.apply(0, Action.play(c(card)))
        assert g.current == 0, card
    g = nm(hands=[["WCR", "R1"], ["B1"]], discard=["R5"], draw=["G4"])
    g.apply(0, Action.play(c("WCR")))
    g.apply(1, Action(COLOR, color=G))
    assert g.current == 0


def test_nm_deck_4_a_coloured_four_is_not_a_wild_reverse_four() -> None:
    """NM-DECK-4 (§C 21): outside a stack, R+4 on WR+4 needs the named colour."""
    g = nm(hands=[["R+4", "Y3"], ["B1"]], discard=["WR+4"], color="B")
    with pytest.raises(IllegalAction, match="does not match"):
        g.apply(0, Action.play(c("R+4")))


def test_nm_uno_2_a_caught_player_draws_two_mercy_checked() -> None:
    """NM-UNO-1, -2: one card left without the call: caught, draws 2."""
    g = nm(hands=[["R1", "R2"], ["B1", "R5"], ["G1"]], discard=["R5"])
    g.apply(0, Action.play(c("R1")))
    assert g.vulnerable == 0
    g.apply(2, Action(CATCH, target=0))
    assert len(g.hands[0]) == 3 and g.vulnerable == -1


def test_nm_view_shows_the_stack_and_knockouts() -> None:
    """The view says what a seat faces (pending, pending_total) and who is out."""
    g = nm(hands=[["R1"], ["RS", "WCR"], ["G1"], ["G2"]], discard=["R+2"], current=1,
           pending=["R+2"], live=[True, True, False, True])  # fmt: skip
    j = view_of(g, 1).to_json()
    assert j["game"] == "no-mercy" and j["pending"] == "R+2" and j["pending_total"] == 2
    assert j["live"] == [True, True, False, True] and j["hand"] == ["RS", "WCR"]
    assert j["legal"] == [{"accept": True}]


def test_nm_last_card_effect_a_final_draw_card_makes_the_next_player_draw() -> None:
    """NM-END-2's option nm_last_card_effect=true: a final W+6 makes the next player draw
    6 (no answer), then the hand ends; a final WR+4 with two players hits the opponent."""
    rules = RuleSet(deck="no-mercy", scoring="first-out", nm_last_card_effect=True,
                    preset="no-mercy")  # fmt: skip
    g = nm(rules, hands=[["W+6"], ["W+10", "B1"], ["G1"]], discard=["R7"])
    g.apply(0, Action.play(c("W+6"), R))
    assert g.round_winner == 0 and len(g.hands[1]) == 8
    h = nm(rules, hands=[["WR+4"], ["B1"]], discard=["R7"])
    h.apply(0, Action.play(c("WR+4"), R))
    assert h.round_winner == 0 and h.hands[0] == [] and len(h.hands[1]) == 5


def test_nm_end_1_a_final_skip_or_reverse_that_deflects_a_stack_wins() -> None:
    """NM-END-1 ("wins at once") with nm_last_card_effect and nm_stack_deflect: a last
    card that deflects a pending stack wins the hand; its new target draws the stack (no
    answer, as after a final draw card).  The hand used to go on with that player at 0
    cards, offered only ``draw`` (issue 46)."""
    rules = from_preset("no-mercy", {"nm_last_card_effect": True, "nm_stack_deflect": True})
    g = nm(rules, hands=[["R1", "R2"], ["RS"], ["Y2", "Y3"], ["G4", "G5"]],
           discard=["R5", "R+2"], current=1, pending=["R+2"])  # fmt: skip
    g.apply(1, g.parse_action("RS"))
    assert g.round_over and g.round_winner == 1
    assert [len(h) for h in g.hands] == [2, 0, 2, 4]  # over seat 2: seat 3 drew the 2
    h = nm(rules, hands=[["R1", "R2"], ["RR"], ["Y2", "Y3"], ["G4", "G5"]],
           discard=["R5", "R+2"], current=1, pending=["R+2"])  # fmt: skip
    h.apply(1, h.parse_action("RR"))
    assert h.round_winner == 1 and [len(x) for x in h.hands] == [4, 0, 2, 2]  # sent back
    k = nm(rules, hands=[["R1", "R2"], ["RS"]], discard=["R5", "R+4"], current=1,
           pending=["R+4"])  # fmt: skip
    k.apply(1, k.parse_action("RS"))  # two players: to the opponent
    assert k.round_winner == 1 and [len(x) for x in k.hands] == [6, 0]
    # without nm_last_card_effect the final card wins at once and nobody draws
    m = nm(from_preset("no-mercy", {"nm_stack_deflect": True}),
           hands=[["R1", "R2"], ["RS"], ["Y2"]], discard=["R5", "R+2"], current=1,
           pending=["R+2"])  # fmt: skip
    m.apply(1, m.parse_action("RS"))
    assert m.round_winner == 1 and [len(x) for x in m.hands] == [2, 0, 1]


def test_nm_2p_wrd4_a_wrd4_that_answers_a_stack_targets_the_opponent() -> None:
    """NM-2P-WRD4: "answer with a draw card of value >= 4 (it targets the opponent)"; a
    WR+4 played as that answer sent the stack back to its own player (who then faced the
    total + 4), so answering was absorbing with more cards.  Opening a stack, a WR+4 still
    makes its own player the target (N5)."""
    g = nm(hands=[["R1", "R+4"], ["WR+4", "G5"]], discard=["R7"])
    g.apply(0, g.parse_action("R+4"))
    assert g.current == 1 and g.phase == P_ANSWER
    g.apply(1, g.parse_action("WR+4 B"))
    assert g.current == 0 and g.phase == P_ANSWER and g.pend_total == 8
    h = nm(hands=[["WR+4", "R1"], ["WR+4", "G5"]], discard=["R7"])
    h.apply(0, h.parse_action("WR+4 G"))
    assert h.current == 0 and h.pend_total == 4  # its own player (N5)
    with pytest.raises(IllegalAction):
        h.apply(0, h.parse_action("R1"))


def test_nm_act_roulette_the_revealed_cards_are_shown_to_the_table() -> None:
    """NM-ACT-ROULETTE: the victim "reveal[s] cards one at a time": every seat sees the
    cards taken (one public draw event), and nothing else about any hand changes in
    anyone's view (each view still shows only its own hand)."""
    g = nm(hands=[["WCR", "R9"], ["B1"], ["B2"], ["B3"]], discard=["R5"],
           draw=["R1", "W+6", "G4", "B2"])  # fmt: skip
    g.apply(0, Action.play(c("WCR")))
    start = len(g.events or [])
    g.apply(1, Action(COLOR, color=G))
    new = (g.events or [])[start:]
    draws = [e for e in new if e.kind == EventKind.DRAW]
    assert len(draws) == 1 and draws[0].seat == 1
    for seat in range(4):
        seen = [e for e in draws if e.visible_to(seat)]
        assert [NM_CODE[x] for x in seen[0].cards] == ["R1", "W+6", "G4"]
        assert g.event_json(seen[0])["cards"] == ["R1", "W+6", "G4"]
    v2 = view_of(g, 2)
    assert v2.hand == (c("B2"),) and v2.hand_sizes[1] == 4
