"""Scenario tests for the variants: RULES.md §1 (other decks), §4 (new wilds), §7, §8.

Every test is a hand-built record replayed as `unokit replay` does it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import game_after, run, scenario, sorted_hands, state
from unokit.cards import CARD_CODE, build_deck, parse_card
from unokit.engine import Action, Game, view_of
from unokit.rules import RuleSet, from_preset

SWAP = {"deck": "mattel-2018-swap"}
SHUF = {"deck": "mattel-2018-shuffle"}


def codes(cards: list[int]) -> list[str]:
    return [CARD_CODE[c] for c in cards]


# ---------------------------------------------------------------- decks -----------
def test_r_deck_2_112_card_decks() -> None:
    for deck, extra in (("mattel-2018-swap", "WSWAP"), ("mattel-2018-shuffle", "WSHUF")):
        counts = Counter(codes(build_deck(deck)))
        assert sum(counts.values()) == 112
        assert counts[extra] == 1 and counts["WCUST"] == 3
    assert len(build_deck("mattel-2018-swap", custom_cards=1)) == 110
    assert len(build_deck("mattel-2018-swap", custom_cards=0)) == 109


def test_r_deck_3_my_first_uno_deck() -> None:
    counts = Counter(codes(build_deck("my-first-uno")))
    assert sum(counts.values()) == 36
    assert counts["W"] == 4 and sum(v for k, v in counts.items() if k.endswith("+2")) == 4
    assert {k[1:] for k in counts if k[0] in "RYGB" and not k.endswith("+2")} == set("1234567")


def test_r_setup_1_my_first_uno_two_to_four_players() -> None:
    Game(from_preset("my-first-uno"), 4)
    with pytest.raises(ValueError, match="2 to 4"):
        Game(from_preset("my-first-uno"), 5)
    g = Game(from_preset("my-first-uno"), 3, seed=1)
    assert all(e.amount == 5 for e in g.events_for(0) if e.kind == "deal")


# ---------------------------------------------------------------- new wilds -------
H_SWAP = [["R1", "G2", "B3"], ["WSWAP", "Y5", "B6"], ["G7", "Y8", "B9"]]


def test_r_act_swap_hands() -> None:
    acts = [{"seat": 1, "play": "WSWAP", "color": "G", "target": 2}]
    st = state(scenario(H_SWAP, "R5", acts, options=SWAP))
    assert sorted_hands(st) == [["B3", "G2", "R1"], ["B9", "G7", "Y8"], ["B6", "Y5"]]
    assert st["current"] == 2 and st["color"] == "G"


def test_r_act_swap_hands_revealed_only_to_the_two() -> None:
    acts = [{"seat": 1, "play": "WSWAP", "color": "G", "target": 2}]
    g = game_after(scenario(H_SWAP, "R5", acts, options=SWAP))
    for seat in range(3):
        shown = [e for e in g.events_for(seat) if e.kind == "hand" and e.cards]
        assert all(e.seat == seat for e in shown)
        assert bool(shown) == (seat in (1, 2))


def test_r_act_swap_needs_a_target() -> None:
    status, out = run(scenario(H_SWAP, "R5", [{"seat": 1, "play": "WSWAP", "color": "G"}],
                               options=SWAP))  # fmt: skip
    assert status == 1 and "swap hands with" in out["error"]["message"]


def test_r_act_lastwild_swap_as_last_card_ends_the_round() -> None:
    hands = [["R1"], ["WSWAP"], ["G7"]]
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "WSWAP", "color": "G"}], options=SWAP))
    assert st["round_over"] and st["round_winner"] == 1 and st["hands"][2] == ["G7"]
    status, _ = run(scenario(hands, "R5", [{"seat": 1, "play": "WSWAP", "color": "G",
                                            "target": 2}], options=SWAP))  # fmt: skip
    assert status == 1


def test_r_act_lastwild_shuffle_as_last_card_ends_the_round() -> None:
    hands = [["R1"], ["WSHUF"], ["G7"]]
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "WSHUF", "color": "G"}], options=SHUF))
    assert st["round_over"] and st["hands"] == [["R1"], [], ["G7"]]


def test_r_act_shuf_deals_from_the_players_left() -> None:
    hands = [["R1", "G2", "B3"], ["WSHUF", "Y5", "B6"], ["G7", "Y8", "B9"]]
    order = ["R1", "G2", "B3", "Y5", "B6", "G7", "Y8", "B9"]
    rec = scenario(hands, "R5", [{"seat": 1, "play": "WSHUF", "color": "Y"}], options=SHUF,
                   shuffles=[order])  # fmt: skip
    st = state(rec)
    # dealt one by one from Cy (left of Ben), clockwise: Cy, Ana, Ben, Cy, ...
    assert st["hands"] == [["G2", "B6", "B9"], ["B3", "G7"], ["R1", "Y5", "Y8"]]
    assert st["current"] == 2 and st["color"] == "Y"


def test_r_act_shuf_each_owner_alone_sees_the_new_hand() -> None:
    hands = [["R1", "G2", "B3"], ["WSHUF", "Y5", "B6"], ["G7", "Y8", "B9"]]
    g = game_after(scenario(hands, "R5", [{"seat": 1, "play": "WSHUF", "color": "Y"}],
                            options=SHUF))  # fmt: skip
    for seat in range(3):
        for e in g.events_for(seat):
            if e.kind == "hand" and e.cards:
                assert e.seat == seat


def test_r_start_swap_first_player_colours_swaps_then_plays() -> None:
    acts = [{"seat": 1, "color": "B", "target": 0}, {"seat": 1, "play": "B3"}]
    st = state(scenario([["R1", "G2", "B3"], ["R4", "Y5", "B6"], ["G7", "Y8", "B9"]], "WSWAP",
                        acts, options=SWAP))  # fmt: skip
    assert sorted_hands(st)[0] == ["B6", "R4", "Y5"] and sorted(st["hands"][1]) == ["G2", "R1"]
    assert st["top"] == "B3" and st["current"] == 2


@pytest.mark.parametrize(("start", "deck"), [("WSHUF", SHUF), ("WCUST", SWAP)])
def test_r_start_shuf_and_cust_act_as_a_plain_wild(start: str, deck: dict[str, str]) -> None:
    hands = [["R1", "G2", "B3"], ["R4", "Y5", "B6"], ["G7", "Y8", "B9"]]
    st = state(scenario(hands, start, [{"seat": 1, "color": "Y"}], options=deck))
    assert st["color"] == "Y" and st["current"] == 1 and sorted(st["hands"][1]) == [
        "B6", "R4", "Y5",
    ]  # fmt: skip
    status, _ = run(scenario(hands, start, [{"seat": 1, "color": "Y", "target": 0}],
                             options=deck))  # fmt: skip
    assert status == 1


H_CUST = [["W", "R1", "G2"], ["WCUST", "B5", "B6"], ["W+4", "G7", "Y8"]]
CUST_PLAY = [{"seat": 1, "play": "WCUST", "color": "B"}]


def cust(rule: str, then: list[str] | None = None) -> dict[str, object]:
    return state(scenario(H_CUST, "R5", CUST_PLAY, options={**SWAP, "custom_rule": rule},
                          then=then))  # fmt: skip


def test_r_act_cust_none_is_a_plain_wild() -> None:
    st = cust("none")
    assert st["current"] == 2 and st["color"] == "B" and len(st["hands"][2]) == 3


def test_r_act_cust_next_draws_3() -> None:
    st = cust("next_draws_3", then=["Y1", "Y2", "Y3"])
    assert sorted(st["hands"][2]) == ["G7", "W+4", "Y1", "Y2", "Y3", "Y8"]
    assert st["current"] == 2, "drawing 3 does not cost the turn"


def test_r_act_cust_others_draw_2() -> None:
    st = cust("others_draw_2", then=["Y1", "Y2", "Y3", "Y4"])
    assert sorted(st["hands"][2]) == ["G7", "W+4", "Y1", "Y2", "Y8"]
    assert sorted(st["hands"][0]) == ["G2", "R1", "W", "Y3", "Y4"]
    assert len(st["hands"][1]) == 2 and st["current"] == 2


def test_r_act_cust_others_discard_wilds() -> None:
    st = cust("others_discard_wilds")
    assert sorted_hands(st) == [["G2", "R1"], ["B5", "B6"], ["G7", "Y8"]]
    assert st["top"] == "WCUST" and st["color"] == "B" and st["discard_pile"] == 4


def test_r_act_cust_extra_turn() -> None:
    st = cust("extra_turn")
    assert st["current"] == 1


def test_r_act_cust_discard_color() -> None:
    st = cust("discard_color")
    assert st["hands"][1] == [] and st["round_over"] and st["round_winner"] == 1


def test_r_act_cust_custom_cards_in_use() -> None:
    assert Counter(codes(build_deck("mattel-2018-swap", 2)))["WCUST"] == 2
    g = Game(RuleSet(deck="mattel-2018-swap", custom_cards=1), 2, seed=1)
    assert g.card_count() == 110


# ---------------------------------------------------------------- my first uno ----
def test_r_start_number_only_a_number_starts() -> None:
    for seed in range(40):
        g = Game(from_preset("my-first-uno"), 2, seed=seed)
        assert g.top % 13 <= 9 and g.top < 52
    rec = scenario([["R1", "G2"], ["R4", "Y5"]], "W", [], preset="my-first-uno", then=["R3"])
    g = game_after(rec)
    assert any(e.kind == "start_return" for e in g.events or [])
    assert CARD_CODE[g.top] != "W"


def test_r_score_firstout_first_out_wins_the_game() -> None:
    hands = [["R1", "G2"], ["R4", "R6"]]
    acts = [{"seat": 1, "play": "R4", "uno": True}, {"seat": 0, "play": "R1", "uno": True},
            {"seat": 1, "play": "R6"}]  # fmt: skip
    st = state(scenario(hands, "R5", acts, preset="my-first-uno"))
    assert st["game_over"] and st["game_winner"] == 1 and st["scores"] == [0, 0]


# ---------------------------------------------------------------- scoring ---------
ROUND = [["R1", "G2"], ["R4", "R6"], ["W", "Y8"]]
ROUND_ACTS = [{"seat": 1, "play": "R4", "uno": True}, {"seat": 2, "draw": True},
              {"seat": 0, "play": "R1", "uno": True}, {"seat": 1, "play": "R6"}]  # fmt: skip


def test_r_score_low_each_adds_own_hand() -> None:
    st = state(scenario(ROUND, "R5", ROUND_ACTS, then=["B1"], options={"scoring": "low"}))
    assert st["scores"] == [2, 0, 59] and not st["game_over"]


def test_r_score_low_fewest_points_wins_at_target() -> None:
    st = state(scenario(ROUND, "R5", ROUND_ACTS, then=["B1"],
                        options={"scoring": "low", "target_score": 50}))  # fmt: skip
    assert st["game_over"] and st["game_winner"] == 1


def test_r_score_elim_down_to_two_then_the_last_one_standing() -> None:
    rec = scenario(ROUND, "R5", ROUND_ACTS, then=["B1"],
                   options={"scoring": "elimination", "target_score": 50})  # fmt: skip
    g = game_after(rec)
    assert g.live == [True, True, False] and not g.game_over
    # round 2: only Ana and Ben are dealt; two-player rules; Ben deals (left of Ana)
    rec["rounds"].append({
        "dealer": 1, "deck": ["R1", "Y2", "R3", "Y4", "R5"], "seed": 3,
        "actions": [{"seat": 0, "play": "R1"}],
    })  # fmt: skip
    st = state(rec)
    assert st["hands"][2] == [] and sorted(st["hands"][0]) == ["R3"]
    assert st["current"] == 1, "the eliminated seat is passed over"
    status, out = run({**rec, "rounds": [*rec["rounds"][:1], {**rec["rounds"][1], "actions": [
        {"seat": 2, "draw": True}]}]})  # fmt: skip
    assert status == 1 and "out of the game" in out["error"]["message"]


def test_r_score_elim_reaching_the_target_in_the_final_loses() -> None:
    rules = RuleSet(scoring="elimination", target_score=60)
    g = Game(rules, 3, seed=5)
    from unokit.bots import RandomBot, play_game

    play_game(g, [RandomBot(i) for i in range(3)])
    losers = [s for s in range(3) if not g.live[s]]
    assert len(losers) == 2 and g.live[g.game_winner]
    assert all(g.scores[s] >= 60 for s in losers)


def test_r_score_team_partners_score_together() -> None:
    hands = [["R1", "G2"], ["R4", "R6"], ["W", "Y8"], ["B2", "B3"]]
    acts = [{"seat": 1, "play": "R4", "uno": True}, {"seat": 2, "draw": True},
            {"seat": 3, "draw": True}, {"seat": 0, "play": "R1", "uno": True},
            {"seat": 1, "play": "R6"}]  # fmt: skip
    st = state(scenario(hands, "R5", acts, then=["B1", "B7"], preset="teams"))
    # team 1 (seats 1 and 3) scores seats 0 and 2: G2 + W Y8 B1 = 2 + 50 + 8 + 1
    assert st["scores"] == [0, 61] and not st["game_over"]
    st = state(scenario(hands, "R5", acts, then=["B1", "B7"], preset="teams",
                        options={"target_score": 61}))  # fmt: skip
    assert st["game_over"] and st["game_winner"] == 1


def test_r_score_team_six_and_eight_players() -> None:
    for n in (6, 8):
        g = Game(from_preset("teams"), n, seed=n)
        assert len(g.scores) == 2


# ---------------------------------------------------------------- stacking --------
PASS = {"stacking": "pass"}
PROG = {"stacking": "progressive"}
H_STACK = [["R1", "G+2", "B3"], ["R+2", "RS", "W+4"], ["G+2", "YS", "B9"]]


def test_r_var_stack_draw2_passed_on() -> None:
    acts = [{"seat": 1, "play": "R+2"}, {"seat": 2, "play": "G+2"}]
    g = game_after(scenario(H_STACK, "R5", acts, options=PASS))
    assert g.current == 0 and view_of(g, 0).pending == parse_card("G+2")
    st = state(scenario(H_STACK, "R5", [*acts, {"seat": 0, "draw": True}], options=PASS,
                        then=["Y1", "Y2"]))  # fmt: skip
    assert len(st["hands"][0]) == 5 and st["current"] == 1, "penalties do not add up"


def test_r_var_stack_draw2_answers_wd4_in_the_named_colour() -> None:
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, "play": "G+2"},
            {"seat": 0, "play": "G+2"}, {"seat": 1, "accept": True}]  # fmt: skip
    st = state(scenario(H_STACK, "R5", acts, options=PASS, then=["Y1", "Y2"]))
    assert len(st["hands"][1]) == 4 and st["current"] == 2
    bad = [{"seat": 1, "play": "W+4", "color": "B"}, {"seat": 2, "play": "G+2"}]
    status, out = run(scenario(H_STACK, "R5", bad, options=PASS))
    assert status == 1 and "cannot answer" in out["error"]["message"]


def test_r_var_stack_skip_passed_on() -> None:
    acts = [{"seat": 1, "play": "RS"}, {"seat": 2, "play": "YS"}, {"seat": 0, "accept": True}]
    st = state(scenario(H_STACK, "R5", acts, options=PASS))
    assert st["current"] == 1 and st["top"] == "YS"


def test_r_var_stack_reverse_answered_in_two_player() -> None:
    hands = [["GR", "G1"], ["RR", "R1"]]
    acts = [{"seat": 1, "play": "RR"}, {"seat": 0, "play": "GR"}, {"seat": 1, "accept": True}]
    st = state(scenario(hands, "R5", acts, options=PASS))
    assert st["current"] == 0 and st["top"] == "GR"


def test_r_var_answer_decide_even_with_nothing_to_answer() -> None:
    hands = [["R1", "G2", "B3"], ["R+2", "Y5", "B6"], ["G7", "R8", "B9"]]
    g = game_after(scenario(hands, "R5", [{"seat": 1, "play": "R+2"}], options=PASS))
    assert g.current == 2 and view_of(g, 2).legal == (Action.parse("accept"),)
    status, out = run(scenario(hands, "R5", [{"seat": 1, "play": "R+2"},
                                             {"seat": 2, "play": "R8"}], options=PASS))  # fmt: skip
    assert status == 1 and "cannot answer" in out["error"]["message"]
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "R+2"}, {"seat": 2, "accept": True}],
                        options=PASS, then=["Y1", "Y2"]))  # fmt: skip
    assert len(st["hands"][2]) == 5 and st["current"] == 0


def test_r_var_answer_wd4_challenge_under_stacking() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, "challenge": True}]
    st = state(scenario(hands, "R5", acts, options=PASS, then=["Y1", "Y2", "Y3", "Y4"]))
    assert len(st["hands"][1]) == 6 and st["current"] == 2


def test_r_var_progressive_penalties_add_up() -> None:
    acts = [{"seat": 1, "play": "R+2"}, {"seat": 2, "play": "G+2"}, {"seat": 0, "play": "G+2"},
            {"seat": 1, "draw": True}]  # fmt: skip
    st = state(scenario(H_STACK, "R5", acts, options=PROG))
    assert len(st["hands"][1]) == 2 + 6 and st["current"] == 2


def test_r_var_progressive_draw4_on_draw2_option() -> None:
    acts = [{"seat": 0, "play": "G+2"}, {"seat": 1, "play": "W+4", "color": "Y"}]
    rec = scenario(H_STACK, "G5", acts, options=PROG, dealer=2)
    status, _ = run(rec)
    assert status == 1, "off by default"
    rec = scenario(H_STACK, "G5", [*acts, {"seat": 2, "accept": True}],
                   options={**PROG, "stack_draw4_on_draw2": True}, dealer=2)  # fmt: skip
    st = state(rec)
    assert len(st["hands"][2]) == 3 + 6 and st["current"] == 0


def test_r_var_progressive_wd4_on_wd4() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "Y5", "B6"], ["W+4", "Y8", "B9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, "play": "W+4", "color": "B"},
            {"seat": 0, "accept": True}]  # fmt: skip
    st = state(scenario(hands, "R5", acts, options=PROG))
    assert len(st["hands"][0]) == 3 + 8 and st["current"] == 1 and st["color"] == "B"


# ---------------------------------------------------------------- multi, jump -----
def test_r_var_multi_same_number_last_on_top() -> None:
    hands = [["R1", "G2", "B3", "Y1"], ["R4", "G4", "B4", "Y9"], ["G7", "Y8", "B9", "R9"]]
    acts = [{"seat": 1, "cards": ["R4", "G4", "B4"]}]
    st = state(scenario(hands, "R5", acts, options={"multi_play": True}))
    assert st["top"] == "B4" and st["color"] == "B" and st["hands"][1] == ["Y9"]
    assert st["discard_pile"] == 4 and st["current"] == 2
    g = game_after(scenario(hands, "R5", [], options={"multi_play": True}))
    assert Action.parse("R4/G4/B4") in view_of(g, 1).legal
    for bad, msg in ((["G4", "R4"], "does not match"), (["R4", "Y9"], "same value")):
        status, out = run(scenario(hands, "R5", [{"seat": 1, "cards": bad}],
                                   options={"multi_play": True}))  # fmt: skip
        assert status == 1 and msg in out["error"]["message"]
    status, out = run(scenario(hands, "R5", acts))
    assert status == 1 and "multi-play is off" in out["error"]["message"]


def test_r_var_jumpin_identical_card_out_of_turn() -> None:
    hands = [["R1", "G2", "B3"], ["R4", "Y5", "B6"], ["R5", "Y8", "B9"]]
    st = state(scenario(hands, "R5", [{"seat": 2, "play": "R5"}], options={"jump_in": True}))
    assert st["current"] == 0 and st["top"] == "R5" and len(st["hands"][2]) == 2
    status, out = run(scenario(hands, "R5", [{"seat": 2, "play": "R5"}]))
    assert status == 1 and out["error"]["message"] == "it is Ben's turn"
    status, out = run(scenario(hands, "R5", [{"seat": 2, "play": "Y8"}],
                               options={"jump_in": True}))  # fmt: skip
    assert status == 1 and "identical" in out["error"]["message"]
    g = game_after(scenario(hands, "R5", [], options={"jump_in": True}))
    assert sorted(g.actors()) == [1, 2]


def test_r_var_jumpin_with_multi_play() -> None:
    hands = [["R1", "G2", "B3"], ["R4", "Y5", "B6"], ["R5", "G5", "B9"]]
    st = state(scenario(hands, "R5", [{"seat": 2, "cards": ["R5", "G5"]}],
                        options={"jump_in": True, "multi_play": True}))  # fmt: skip
    assert st["top"] == "G5" and st["hands"][2] == ["B9"] and st["current"] == 0


# ---------------------------------------------------------------- seven-zero ------
SZ = {"seven_zero": True}
H_SZ = [["R1", "G2", "B3"], ["R7", "R0", "B6"], ["G7", "Y8", "B9"]]


def test_r_var_sevenzero_seven_swaps_with_chosen_player() -> None:
    st = state(scenario(H_SZ, "R5", [{"seat": 1, "play": "R7", "target": 0}], options=SZ))
    assert sorted_hands(st) == [["B6", "R0"], ["B3", "G2", "R1"], ["B9", "G7", "Y8"]]
    assert st["current"] == 2
    status, _ = run(scenario(H_SZ, "R5", [{"seat": 1, "play": "R7"}], options=SZ))
    assert status == 1


def test_r_var_sevenzero_zero_passes_hands_in_direction_of_play() -> None:
    st = state(scenario(H_SZ, "R5", [{"seat": 1, "play": "R0"}], options=SZ))
    # clockwise: Ana's hand goes to Ben, Ben's to Cy, Cy's to Ana
    assert sorted_hands(st) == [["B9", "G7", "Y8"], ["B3", "G2", "R1"], ["B6", "R7"]]


# ---------------------------------------------------------------- launcher --------
ATTACK = {"attack_launcher": True}


def test_r_var_attack_press_the_launcher() -> None:
    hands = [["R1", "G2", "B3"], ["R+2", "Y5", "B6"], ["G7", "Y8", "B9"]]
    rec = scenario(hands, "R5", [{"seat": 1, "draw": True}], options=ATTACK,
                   then=["Y1", "Y2", "Y3"])  # fmt: skip
    rec["rounds"][0]["launches"] = [3]
    st = state(rec)
    assert sorted(st["hands"][1]) == ["B6", "R+2", "Y1", "Y2", "Y3", "Y5"]
    assert st["current"] == 2, "pressing the launcher ends the turn"


def test_r_var_attack_draw_two_is_two_presses() -> None:
    hands = [["R1", "G2", "B3"], ["R+2", "Y5", "B6"], ["G7", "Y8", "B9"]]
    rec = scenario(hands, "R5", [{"seat": 1, "play": "R+2"}], options=ATTACK,
                   then=["Y1", "Y2", "Y3"])  # fmt: skip
    rec["rounds"][0]["launches"] = [0, 2]
    st = state(rec)
    assert len(st["hands"][2]) == 5 and st["current"] == 0


def test_r_var_attack_weights_and_written_launches_replay() -> None:
    from unokit.bots import RandomBot, play_game
    from unokit.record import dumps, loads, replay

    rules = RuleSet(attack_launcher=True, launcher_weights=(0,) * 12 + (1,), target_score=100)
    g = Game(rules, 3, seed=2)
    play_game(g, [RandomBot(i) for i in range(3)])
    assert all(k == 12 for r in g.rounds for k in r.launches)
    result = replay(loads(dumps(g)))
    assert result.ok and result.game is not None
    assert result.game.state_json() == g.state_json()


# ---------------------------------------------------------------- challenge option
def test_r_act_challenge_retract_option() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, "challenge": True}]
    st = state(scenario(hands, "R5", acts, options={"wd4_guilty": "retract"},
                        then=["Y1", "Y2", "Y3", "Y4"]))  # fmt: skip
    assert "W+4" in st["hands"][1] and len(st["hands"][1]) == 7
    assert st["top"] == "R5" and st["color"] == "R" and st["current"] == 2


def test_presets_play_whole_games() -> None:
    from unokit.bots import RandomBot, play_game
    from unokit.rules import PRESETS

    for name in PRESETS:
        rules = from_preset(name, {"target_score": 150})
        n = 4
        g = Game(rules, n, seed=len(name))
        play_game(g, [RandomBot(i) for i in range(n)])
        assert g.game_over, name
