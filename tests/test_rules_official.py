"""Scenario tests for RULES.md §2-§6 and R-SCORE-1, one or more per rule ID.

Each test is a hand-built record (see helpers.scenario) replayed exactly as
`unokit replay` does it, so what is checked here is what the conformance suite sees.
"""

from __future__ import annotations

import pytest

from helpers import game_after, run, scenario, sorted_hands, state
from unokit.cards import build_deck, parse_card
from unokit.engine import Action, Game, IllegalAction, position, view_of
from unokit.rules import RuleSet

H3 = [["R1", "G2", "B3"], ["R4", "Y5", "B6"], ["G7", "Y8", "B9"]]


# ---------------------------------------------------------------- R-SETUP ---------
def test_r_setup_1_player_counts() -> None:
    for n in range(2, 11):
        Game(RuleSet(), n, seed=n)
    for n in (1, 11):
        with pytest.raises(ValueError, match="2 to 10 players"):
            Game(RuleSet(), n)


def test_r_setup_2_highest_number_deals() -> None:
    g = Game(RuleSet(), ["A", "B", "C", "D"], seed=11)
    draws = [e for e in g.events_for(0) if e.kind == "dealer_draw"]
    assert draws, "the dealer draw is public"
    # the last draw round decides: its highest number card is the dealer's
    last = {e.seat: e.cards[0] for e in draws[-len({e.seat for e in draws[-4:]}) :]}
    best = max(last.values(), key=lambda c: c % 13)
    assert all(c % 13 <= 9 for c in last.values()), "action cards do not count"
    assert [s for s, c in last.items() if c % 13 == best % 13] == [g.dealer]


def test_r_setup_2_dealer_passes_left() -> None:
    g = Game(RuleSet(target_score=10_000), 3, seed=2, dealer=1)
    from unokit.bots import RandomBot, play_round

    bots = [RandomBot(i) for i in range(3)]
    play_round(g, bots)
    g.start_round()
    assert g.dealer == 2
    play_round(g, bots)
    g.start_round()
    assert g.dealer == 0


def test_r_setup_3_deal_order_and_size() -> None:
    deck = [f"R{i}" for i in range(1, 10)] + ["Y1", "Y2", "Y3", "Y4", "Y5"]
    rec = scenario([["R1"]], "R1", [])  # shape only; replaced below
    rec["rules"]["options"] = {"hand_size": 3}
    rec["players"] = ["A", "B", "C"]
    rec["rounds"][0]["deck"] = deck
    st = state(rec)
    # dealer 0: deck[0] to seat 1, deck[1] to seat 2, deck[2] to seat 0, ...
    assert st["hands"] == [["R3", "R6", "R9"], ["R1", "R4", "R7"], ["R2", "R5", "R8"]]
    assert st["top"] == "Y1"
    assert st["draw_pile"] == 108 - 9 - 1


def test_r_setup_3_default_hand_is_seven() -> None:
    for seed in range(20):
        g = Game(RuleSet(), 4, seed=seed)
        deals = [e.amount for e in g.events_for(0) if e.kind == "deal"]
        assert deals == [7, 7, 7, 7]
        assert g.card_count() == 108
        assert len(g.pile) == 108 - 28 - len(g.discard) - (2 if g.top % 13 == 12 else 0)


def test_r_setup_4_left_of_dealer_starts() -> None:
    st = state(scenario(H3, "R5", [], dealer=1))
    assert st["current"] == 2 and st["direction"] == 1 and st["top"] == "R5"


# ---------------------------------------------------------------- R-START ---------
def test_r_start_skip_first_player_skipped() -> None:
    st = state(scenario(H3, "GS", []))
    assert st["current"] == 2


def test_r_start_reverse_dealer_goes_first() -> None:
    st = state(scenario(H3, "GR", [], dealer=1))
    assert st["current"] == 1 and st["direction"] == -1
    st = state(scenario(H3, "GR", [{"seat": 1, "draw": True}], dealer=1, then=["B1"]))
    assert st["current"] == 0, "play goes on counter-clockwise"


def test_r_start_reverse_two_players_dealer_plays_first() -> None:
    st = state(scenario([["R1", "G2"], ["R4", "Y5"]], "GR", [], dealer=0))
    assert st["current"] == 0


def test_r_start_draw2_first_player_draws_and_is_skipped() -> None:
    st = state(scenario(H3, "G+2", [], then=["B1", "B2"]))
    assert sorted(st["hands"][1]) == ["B1", "B2", "B6", "R4", "Y5"]
    assert st["current"] == 2


def test_r_start_wild_first_player_chooses_colour_then_plays() -> None:
    st = state(scenario(H3, "W", []))
    assert st["color"] is None and st["current"] == 1
    st = state(scenario(H3, "W", [{"seat": 1, "color": "Y"}, {"seat": 1, "play": "Y5"}]))
    assert st["top"] == "Y5" and st["current"] == 2
    status, out = run(scenario(H3, "W", [{"seat": 1, "play": "R4"}]))
    assert status == 1 and "colour" in out["error"]["message"]


def test_r_start_wd4_returned_and_reshuffled() -> None:
    # the W+4 goes back, the pile is reshuffled (the record says how), a new card turns
    rec = scenario(H3, "W+4", [], then=["R2", "B2"])
    rec["rounds"][0]["deck"] = rec["rounds"][0]["deck"][:12]  # hands, W+4, R2, B2
    g0 = game_after(rec)
    back_in = _codes(g0.pile[::-1] + g0.discard)  # the 99 cards that were shuffled
    back_in.remove("B2")
    new_order = ["B2", *back_in]
    rec["rounds"][0]["shuffles"] = [new_order]
    st = state(rec)
    assert st["top"] == "B2" and st["color"] == "B"
    assert "W+4" not in [st["top"]] and st["draw_pile"] == 108 - 9 - 1


def _codes(ids: list[int]) -> list[str]:
    from unokit.cards import CARD_CODE

    return [CARD_CODE[c] for c in ids]


# ---------------------------------------------------------------- R-TURN ----------
def test_r_turn_1_match_colour_number_symbol_or_wild() -> None:
    hands = [["R1", "G2", "B3"], ["R4", "G5", "W"], ["G7", "YS", "B9"]]
    assert state(scenario(hands, "R5", [{"seat": 1, "play": "R4"}]))["top"] == "R4"
    assert state(scenario(hands, "Y5", [{"seat": 1, "play": "G5"}]))["top"] == "G5"
    st = state(scenario(hands, "B7", [{"seat": 1, "play": "W", "color": "G"}]))
    assert st["color"] == "G"
    st = state(scenario(hands, "GS", [], dealer=2))  # start Skip: seat 0 skipped, seat 1
    assert st["current"] == 1
    hands2 = [["R1", "G2", "B3"], ["RS", "G5", "W"], ["G7", "YS", "B9"]]
    st = state(
        scenario(
            hands2,
            "B7",
            [
                {"seat": 1, "play": "W", "color": "Y"},
                {"seat": 2, "play": "YS"},
                {"seat": 1, "play": "RS"},
            ],
        )
    )
    assert st["top"] == "RS", "Skip on Skip matches by symbol"
    status, out = run(scenario(hands, "B7", [{"seat": 1, "play": "R4"}]))
    assert status == 1
    assert out["error"] == {
        "action": 0,
        "round": 0,
        "message": "R4 does not match B7 with B in force",
    }


def test_r_turn_2_may_draw_with_a_playable_card() -> None:
    st = state(scenario(H3, "R5", [{"seat": 1, "draw": True}], then=["Y1"]))
    assert "Y1" in st["hands"][1] and st["current"] == 2


def test_r_turn_3_play_the_drawn_card() -> None:
    st = state(
        scenario(H3, "R5", [{"seat": 1, "draw": True}, {"seat": 1, "play": "R9"}], then=["R9"])
    )
    assert st["top"] == "R9" and st["current"] == 2
    assert sorted(st["hands"][1]) == ["B6", "R4", "Y5"]


def test_r_turn_3_keep_the_drawn_card() -> None:
    st = state(
        scenario(H3, "R5", [{"seat": 1, "draw": True}, {"seat": 1, "keep": True}], then=["R9"])
    )
    assert st["top"] == "R5" and st["current"] == 2 and "R9" in st["hands"][1]


def test_r_turn_3_only_the_drawn_card_may_be_played() -> None:
    status, out = run(
        scenario(H3, "R5", [{"seat": 1, "draw": True}, {"seat": 1, "play": "R4"}], then=["R9"])
    )
    assert status == 1 and out["error"]["action"] == 1
    assert "only the drawn card" in out["error"]["message"]


def test_r_turn_3_unplayable_drawn_card_ends_the_turn() -> None:
    st = state(scenario(H3, "R5", [{"seat": 1, "draw": True}], then=["G9"]))
    assert st["current"] == 2 and "G9" in st["hands"][1]
    status, _ = run(
        scenario(H3, "R5", [{"seat": 1, "draw": True}, {"seat": 1, "keep": True}], then=["G9"])
    )
    assert status == 1


def test_r_turn_3_option_draw_until_playable() -> None:
    st = state(
        scenario(
            H3,
            "R5",
            [{"seat": 1, "draw": True}, {"seat": 1, "play": "R2"}],
            then=["G9", "Y1", "R2"],
            options={"draw_until_playable": True},
        )
    )
    assert st["top"] == "R2"
    assert sorted(st["hands"][1]) == ["B6", "G9", "R4", "Y1", "Y5"]


def test_r_turn_3_option_force_play_drawn() -> None:
    rec = scenario(
        H3,
        "R5",
        [{"seat": 1, "draw": True}, {"seat": 1, "keep": True}],
        then=["R9"],
        options={"force_play_drawn": True},
    )
    status, out = run(rec)
    assert status == 1 and "must be played" in out["error"]["message"]
    rec["rounds"][0]["actions"][1] = {"seat": 1, "play": "R9"}
    assert state(rec)["top"] == "R9"


def test_r_turn_4_one_card_per_turn() -> None:
    status, out = run(scenario(H3, "R5", [{"seat": 1, "play": "R4"}, {"seat": 1, "play": "B6"}]))
    assert status == 1 and out["error"]["message"] == "it is Cy's turn"


def test_r_turn_5_wild_may_name_the_current_colour() -> None:
    hands = [["R1", "G2", "B3"], ["R4", "G5", "W"], ["G7", "YS", "B9"]]
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "W", "color": "R"}]))
    assert st["color"] == "R" and st["top"] == "W"


def held_by_two(*elsewhere: str) -> list[list[int]]:
    """Two hands that hold every card of the classic deck but ``elsewhere``."""
    rest = build_deck()
    for code in elsewhere:
        rest.remove(parse_card(code))
    half = len(rest) // 2
    return [rest[:half], rest[half:]]


def test_r_turn_6_reshuffle_discards_keep_colour() -> None:
    # 2 players, one card in the draw pile, B1 and G3 under a yellow Wild; the hands
    # hold every other card
    g = position(
        hands=held_by_two("B1", "G3", "W", "R2"),
        discard=["B1", "G3", "W"],
        draw=["R2"],
        color="Y",
        rest=None,
        events=False,
    )
    before = g.card_count()
    seat = g.current
    g.apply(seat, Action.parse("draw"))
    if g.phase == 1:
        g.apply(seat, Action.parse("keep"))
    g.apply(g.current, Action.parse("draw"))  # empty pile: rebuilt from B1, G3
    assert g.discard == [parse_card("W")] and g.color == 1
    assert g.card_count() == before
    assert len(g.pile) == 1


def test_r_turn_6_nothing_to_reshuffle_turn_goes_on() -> None:
    # the draw pile is empty and the discard pile only its top card: the hands hold the rest
    g = position(hands=held_by_two("R5"), discard=["R5"], rest=None, events=False)
    seat = g.current
    size = len(g.hands[seat])
    g.apply(seat, Action.parse("draw"))
    assert len(g.hands[seat]) == size and g.current != seat


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"seat": 2, "play": "G7"}, "not_your_turn"),
        ({"seat": 1, "play": "R9"}, "card_not_held"),
        ({"seat": 1, "play": "Y6"}, "card_does_not_match"),
        ({"seat": 1, "play": "W"}, "color_required"),
        ({"seat": 1, "play": "R4", "color": "G"}, "bad_color"),
        ({"seat": 0, "catch": 1}, "no_catch"),
        ({"seat": 1, "challenge": True}, "not_challenged"),
        ({"seat": 1, "keep": True}, "nothing_to_keep"),
        ({"seat": 9, "draw": True}, "bad_seat"),
    ],
)
def test_r_turn_7_illegal_actions_refused_and_change_nothing(
    action: dict[str, object], code: str
) -> None:
    hands = [["R1", "G2", "B3"], ["R4", "Y6", "W"], ["G7", "Y8", "B9"]]
    g = game_after(scenario(hands, "R5", []))
    before = (g.state_json(), [list(h) for h in g.hands], list(g.pile))
    seat, act = Action.from_json(action)
    with pytest.raises(IllegalAction) as err:
        g.apply(seat, act)
    assert err.value.code == code
    assert (g.state_json(), g.hands, g.pile) == before
    status, out = run(scenario(hands, "R5", [action]))
    assert status == 1 and out["state"] == before[0]


def test_r_turn_7_messages_a_player_understands() -> None:
    hands = [["R1", "G2", "B3"], ["R4", "Y5", "W+4"], ["G7", "Y8", "B9"]]
    g = game_after(scenario(hands, "R5", []))
    msgs = {}
    for text in ("B7", "W+4", "G7"):
        with pytest.raises(IllegalAction) as err:
            g.apply(1 if text != "G7" else 2, Action.parse(text))
        msgs[text] = str(err.value)
    assert msgs == {
        "B7": "you don't hold B7",
        "W+4": "Wild Draw Four needs a colour: R, Y, G or B",
        "G7": "it is Ben's turn",
    }


# ---------------------------------------------------------------- R-ACT -----------
def test_r_act_skip() -> None:
    hands = [["R1", "G2", "B3"], ["RS", "Y5", "B6"], ["G7", "Y8", "B9"]]
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "RS"}]))
    assert st["current"] == 0


def test_r_act_reverse() -> None:
    hands = [["R1", "G2", "B3"], ["RR", "Y5", "B6"], ["G7", "Y8", "B9"]]
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "RR"}]))
    assert st["current"] == 0 and st["direction"] == -1
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "RR"}, {"seat": 0, "play": "R1"}]))
    assert st["current"] == 2


def test_r_act_draw2() -> None:
    hands = [["R1", "G2", "B3"], ["R+2", "Y5", "B6"], ["G7", "Y8", "B9"]]
    st = state(scenario(hands, "R5", [{"seat": 1, "play": "R+2"}], then=["Y1", "Y2"]))
    assert sorted(st["hands"][2]) == ["B9", "G7", "Y1", "Y2", "Y8"]
    assert st["current"] == 0


def test_r_act_wild_chooses_colour() -> None:
    hands = [["R1", "G2", "B3"], ["W", "Y5", "B6"], ["G7", "Y8", "B9"]]
    st = state(
        scenario(hands, "R5", [{"seat": 1, "play": "W", "color": "B"}, {"seat": 2, "play": "B9"}])
    )
    assert st["top"] == "B9" and st["current"] == 0


def test_r_act_wd4_bluff_is_allowed_and_accepting_draws_four() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, "accept": True}]
    st = state(scenario(hands, "R5", acts, then=["Y1", "Y2", "Y3", "Y4"]))
    assert len(st["hands"][2]) == 7 and st["current"] == 0 and st["color"] == "G"


def test_r_act_wd4_bluffing_off_forbids_the_bluff() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    status, out = run(
        scenario(
            hands, "R5", [{"seat": 1, "play": "W+4", "color": "G"}], options={"wd4_bluffing": False}
        )
    )
    assert status == 1 and "only allowed when you hold no R" in out["error"]["message"]
    hands[1] = ["W+4", "G7", "B6"]  # no red: legal, and matches by neither colour nor number
    st = state(
        scenario(
            hands, "R5", [{"seat": 1, "play": "W+4", "color": "G"}], options={"wd4_bluffing": False}
        )
    )
    assert st["top"] == "W+4"


def test_r_act_challenge_guilty() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, "challenge": True}]
    st = state(scenario(hands, "R5", acts, then=["Y1", "Y2", "Y3", "Y4"]))
    assert sorted(st["hands"][1]) == ["B6", "R7", "Y1", "Y2", "Y3", "Y4"]
    assert len(st["hands"][2]) == 3, "the challenger draws nothing"
    assert st["current"] == 2 and st["color"] == "G", "and plays on the named colour"


def test_r_act_challenge_not_guilty() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "G7", "Y5"], ["G8", "Y8", "B9"]]
    # holds Y5 of the same *number* as the top card: that does not make a bluff
    acts = [{"seat": 1, "play": "W+4", "color": "B"}, {"seat": 2, "challenge": True}]
    st = state(scenario(hands, "R5", acts))
    assert len(st["hands"][2]) == 9 and st["current"] == 0
    assert len(st["hands"][1]) == 2


def test_r_act_challenge_only_by_the_player_hit() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 0, "challenge": True}]
    status, out = run(scenario(hands, "R5", acts))
    assert status == 1 and "only Cy" in out["error"]["message"]
    acts[1] = {"seat": 2, "play": "G7"}
    status, out = run(scenario(hands, "R5", acts))
    assert status == 1 and "challenge it or accept" in out["error"]["message"]


def test_r_act_challenge_reveals_hand_to_challenger_alone() -> None:
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    g = game_after(
        scenario(
            hands, "R5", [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, "challenge": True}]
        )
    )
    reveals = [e for e in g.events or [] if e.kind == "reveal"]
    assert len(reveals) == 1 and reveals[0].only == 2
    assert sorted(reveals[0].cards) == sorted(parse_card(c) for c in ("R7", "B6"))
    assert not any(e.kind == "reveal" for e in g.events_for(0))


# ---------------------------------------------------------------- R-2P ------------
H2 = [["R1", "G2", "B3"], ["RR", "RS", "R+2"]]


def test_r_2p_reverse_acts_like_skip() -> None:
    st = state(scenario(H2, "R5", [{"seat": 1, "play": "RR"}]))
    assert st["current"] == 1


def test_r_2p_skip_player_plays_again() -> None:
    st = state(scenario(H2, "R5", [{"seat": 1, "play": "RS"}]))
    assert st["current"] == 1


def test_r_2p_draw_play_returns_to_player() -> None:
    st = state(scenario(H2, "R5", [{"seat": 1, "play": "R+2"}]))
    assert st["current"] == 1 and len(st["hands"][0]) == 5
    hands = [["R1", "G2", "B3"], ["W+4", "G7", "B6"]]
    st = state(
        scenario(
            hands, "R5", [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 0, "accept": True}]
        )
    )
    assert st["current"] == 1 and len(st["hands"][0]) == 7


# ---------------------------------------------------------------- R-UNO -----------
H_UNO = [["R1", "G2"], ["R4", "Y5"], ["G7", "Y8"]]


def test_r_uno_1_call_with_the_play_cannot_be_caught() -> None:
    acts = [{"seat": 1, "play": "R4", "uno": True}, {"seat": 2, "catch": 1}]
    status, out = run(scenario(H_UNO, "R5", acts))
    assert status == 1 and "cannot be caught" in out["error"]["message"]


def test_r_uno_1_call_after_the_play() -> None:
    acts = [{"seat": 1, "play": "R4"}, {"seat": 1, "uno": True}, {"seat": 0, "catch": 1}]
    status, _ = run(scenario(H_UNO, "R5", acts))
    assert status == 1


def test_r_uno_1_call_again_each_time_down_to_one() -> None:
    hands = [["R1", "G2", "B3"], ["R4", "R6", "B5"], ["G7", "Y8", "B9"]]
    acts = [
        {"seat": 1, "play": "R4"},
        {"seat": 2, "draw": True},
        {"seat": 0, "play": "R1"},  # Y1: unplayable on R1
        {"seat": 1, "play": "R6", "uno": True},  # back down to one? no: 2 left (drew? no)
    ]
    # Ben: R6, B5 left after R4; plays R6 -> one card, calls: safe
    g = game_after(scenario(hands, "R5", acts, then=["Y1"]))
    assert g.vulnerable == -1 and len(g.hands[1]) == 1
    acts[3] = {"seat": 1, "play": "R6"}
    g = game_after(scenario(hands, "R5", acts, then=["Y1"]))
    assert g.vulnerable == 1


def test_r_uno_2_any_other_player_may_catch() -> None:
    for catcher in (0, 2):
        acts = [{"seat": 1, "play": "R4"}, {"seat": catcher, "catch": 1}]
        st = state(scenario(H_UNO, "R5", acts, then=["B1", "B2"]))
        assert sorted(st["hands"][1]) == ["B1", "B2", "Y5"]
        assert st["current"] == 2


def test_r_uno_2_window_closes_when_next_player_begins() -> None:
    acts = [{"seat": 1, "play": "R4"}, {"seat": 2, "draw": True}, {"seat": 0, "catch": 1}]
    status, out = run(scenario(H_UNO, "R5", acts, then=["B1"]))
    assert status == 1 and out["error"]["action"] == 2


def test_r_uno_2_window_survives_a_skipped_player() -> None:
    # Ben plays a Skip down to one card: Cy is skipped, the window lasts until Ana begins
    hands = [["R1", "G2"], ["RS", "Y5"], ["G7", "Y8"]]
    acts = [{"seat": 1, "play": "RS"}, {"seat": 2, "catch": 1}]
    st = state(scenario(hands, "R5", acts, then=["B1", "B2"]))
    assert len(st["hands"][1]) == 3 and st["current"] == 0


def test_r_uno_2_option_uno_penalty() -> None:
    acts = [{"seat": 1, "play": "R4"}, {"seat": 0, "catch": 1}]
    st = state(scenario(H_UNO, "R5", acts, options={"uno_penalty": 1}))
    assert len(st["hands"][1]) == 2


def test_r_uno_2_catch_offered_to_every_other_seat() -> None:
    g = game_after(scenario(H_UNO, "R5", [{"seat": 1, "play": "R4"}]))
    assert Action.parse("catch 1") in view_of(g, 0).legal
    assert Action.parse("catch 1") in view_of(g, 2).legal
    assert Action.parse("uno") in view_of(g, 1).legal
    assert sorted(g.actors()) == [0, 1, 2]


def test_r_uno_3_false_uno_penalty() -> None:
    hands = [["R1", "G2", "B3"], ["R4", "Y5", "B6"], ["G7", "Y8", "B9"]]
    acts = [{"seat": 1, "play": "R4", "uno": True}]
    st = state(scenario(hands, "R5", acts, options={"false_uno_penalty": 2}))
    assert len(st["hands"][1]) == 4
    st = state(scenario(hands, "R5", acts))  # default 0: no penalty
    assert len(st["hands"][1]) == 2


# ---------------------------------------------------------------- R-END -----------
def test_r_end_1_round_ends_when_a_hand_is_empty() -> None:
    hands = [["R1", "G2"], ["R4", "Y5"], ["G7", "Y8"]]
    acts = [
        {"seat": 1, "play": "R4", "uno": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "play": "R1", "uno": True},
        {"seat": 1, "draw": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "draw": True},
    ]
    st = state(scenario(hands, "R5", acts, then=["B1", "B2", "B3", "B4"]))
    assert not st["round_over"]
    hands = [["R1", "G2"], ["R4", "R6"], ["G7", "Y8"]]
    acts = [
        {"seat": 1, "play": "R4", "uno": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "play": "R1", "uno": True},
        {"seat": 1, "play": "R6"},
    ]
    st = state(scenario(hands, "R5", acts, then=["B1"]))
    assert st["round_over"] and st["round_winner"] == 1
    status, out = run(scenario(hands, "R5", [*acts, {"seat": 2, "draw": True}], then=["B1"]))
    assert status == 1 and out["error"]["message"] == "the round is over"


def test_r_end_2_last_card_draw_two_still_draws_and_counts() -> None:
    hands = [["R1", "G2"], ["R4", "R+2"], ["G7", "Y8"]]
    acts = [
        {"seat": 1, "play": "R4", "uno": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "play": "R1", "uno": True},
        {"seat": 1, "play": "R+2"},
    ]
    st = state(scenario(hands, "R5", acts, then=["B1", "B7", "B8"]))
    assert st["round_over"] and len(st["hands"][2]) == 5
    # Ana: G2 (2); Cy: G7 Y8 B1 B7 B8 = 7+8+1+7+8
    assert st["scores"] == [0, 2 + 31, 0]


def test_r_end_3_last_card_wd4_challenge_resolved_before_scoring() -> None:
    hands = [["R1", "G2"], ["R4", "W+4"], ["G7", "Y8"]]
    base = [
        {"seat": 1, "play": "R4", "uno": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "play": "R1", "uno": True},
        {"seat": 1, "play": "W+4", "color": "Y"},
    ]
    then = ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]
    st = state(scenario(hands, "R5", base, then=then))
    assert not st["round_over"] and st["current"] == 2
    st = state(scenario(hands, "R5", [*base, {"seat": 2, "challenge": True}], then=then))
    # a last-card W+4 cannot be a bluff: the challenger draws 6, then the round is scored
    assert st["round_over"] and len(st["hands"][2]) == 9
    assert st["scores"][1] == 2 + (7 + 8 + 1) + (2 + 3 + 4 + 5 + 6 + 7)
    st = state(scenario(hands, "R5", [*base, {"seat": 2, "accept": True}], then=then))
    assert st["round_over"] and st["scores"][1] == 2 + 7 + 8 + 1 + 2 + 3 + 4 + 5


def test_r_end_3_catch_resolved_before_scoring() -> None:
    # Ben goes to one card without calling, Ana catches him; the 2 cards count for Cy
    hands = [["R1", "G2"], ["R4", "R6"], ["R7", "R8"]]
    acts = [
        {"seat": 1, "play": "R4"},
        {"seat": 0, "catch": 1},
        {"seat": 2, "play": "R8", "uno": True},
        {"seat": 0, "draw": True},
        {"seat": 1, "draw": True},
        {"seat": 2, "play": "R7"},
    ]
    st = state(scenario(hands, "R5", acts, then=["Y1", "Y2", "B3", "B4"]))
    assert st["round_winner"] == 2
    # Ana: R1 G2 B3; Ben: R6 and the caught Y1 Y2, then B4
    assert st["scores"][2] == (1 + 2 + 3) + (6 + 1 + 2 + 4)


# ---------------------------------------------------------------- R-SCORE ---------
def test_r_score_1_winner_scores_opponents_cards() -> None:
    hands = [["W", "W+4"], ["R4", "R6"], ["GS", "B+2"]]
    acts = [
        {"seat": 1, "play": "R4", "uno": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "draw": True},
        {"seat": 1, "play": "R6"},
    ]
    st = state(scenario(hands, "R5", acts, then=["G1", "Y9"]))
    # Ana: W 50 + W+4 50 + Y9 9; Cy: GS 20 + B+2 20 + G1 1
    assert st["scores"] == [0, 150, 0] and not st["game_over"]


def test_r_score_1_wild_points_option() -> None:
    hands = [["W", "W+4"], ["R4", "R6"], ["GS", "B+2"]]
    acts = [
        {"seat": 1, "play": "R4", "uno": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "draw": True},
        {"seat": 1, "play": "R6"},
    ]
    st = state(scenario(hands, "R5", acts, then=["G1", "Y9"], options={"wild_points": 20}))
    assert st["scores"] == [0, 120, 0]


def test_r_score_1_target_score_ends_the_game() -> None:
    hands = [["W", "W+4"], ["R4", "R6"], ["GS", "B+2"]]
    acts = [
        {"seat": 1, "play": "R4", "uno": True},
        {"seat": 2, "draw": True},
        {"seat": 0, "draw": True},
        {"seat": 1, "play": "R6"},
    ]
    st = state(scenario(hands, "R5", acts, then=["G1", "Y9"], options={"target_score": 150}))
    assert st["game_over"] and st["game_winner"] == 1


def test_r_score_1_scores_accumulate_over_rounds() -> None:
    g = Game(RuleSet(target_score=300), 3, seed=8)
    from unokit.bots import RandomBot, play_game

    play_game(g, [RandomBot(i) for i in range(3)])
    total = 0
    for e in g.events or []:
        if e.kind == "round_over":
            total += e.amount
    assert sum(g.scores) == total and max(g.scores) >= 300
    assert g.scores[g.game_winner] == max(g.scores)


def test_sorted_hands_helper_is_order_free() -> None:
    st = state(scenario(H3, "R5", []))
    assert sorted_hands(st)[0] == ["B3", "G2", "R1"]
