"""No rule set, deal, action or record can crash or hang the engine (issue 11).

Scenario tests named after the rule they were found under, then property tests over
random rule sets whose deal leaves almost nothing in the draw pile, and a test that
the checked path (``Game.apply``) and the trusted fast path play the same games.
"""

from __future__ import annotations

import dataclasses
import json
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from helpers import assert_forced_loop, game_after, scenario, state
from test_properties import rule_sets, snapshot
from unokit.cards import IS_NUMBER, NUM_CARDS, WILD_DRAW4, build_deck
from unokit.engine import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    KEEP,
    PLAY,
    UNO,
    Action,
    Game,
    IllegalAction,
)
from unokit.engine.game import P_ANSWER, P_CHALLENGE, P_DRAWN, P_PLAY, P_START_COLOR
from unokit.errors import UnoError
from unokit.record import RecordError, dumps, loads, replay, replay_text
from unokit.rules import RulesError, RuleSet, from_preset


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the suite) if the block takes longer than ``seconds``."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ------------------------------------------------------------ R-END-1 -------------
CUST_DISCARD = {"deck": "mattel-2018-swap", "custom_rule": "others_discard_wilds"}


@pytest.mark.parametrize("kept", [1, 2])
def test_r_end_1_others_discard_wilds_empties_a_hand_the_player_goes_out(kept: int) -> None:
    """R-END-1, R-ACT-CUST: a player whose only cards were wilds goes out at once.

    On main this failed when the card's player kept exactly one card: the emptied
    player was left holding nothing while play went on.
    """
    mine = ["WCUST", "B6", "B7"][: kept + 1]
    filler = ["R1", "G2", "R3"][: kept + 1]
    wilds = ["W", "W+4", "W"][: kept + 1]
    hands = [filler, mine, wilds]
    acts = [{"seat": 1, "play": "WCUST", "color": "B", "uno": True}]
    st_ = state(scenario(hands, "R5", acts, options=CUST_DISCARD))
    assert st_["round_over"] and st_["round_winner"] == 2
    assert st_["hands"][2] == [] and len(st_["hands"][1]) == kept


def test_r_end_1_others_discard_wilds_uncalled_last_but_one_card() -> None:
    """The same, when the player forgets UNO: the round still ends (nobody to catch)."""
    hands = [["R1", "G2"], ["WCUST", "B6"], ["W", "W+4"]]
    acts = [{"seat": 1, "play": "WCUST", "color": "B"}]
    g = game_after(scenario(hands, "R5", acts, options=CUST_DISCARD))
    assert g.round_over and g.round_winner == 2 and g.vulnerable == -1


# ------------------------------------------------------------ R-VAR-PROGRESSIVE ---
PROG = {"stacking": "progressive"}


def test_r_var_progressive_r_end_2_last_draw_two_draws_the_whole_stack() -> None:
    """R-VAR-PROGRESSIVE + R-END-2: answering a stack with a last Draw Two passes it all."""
    hands = [["R1"], ["G+2"], ["Y9"]]  # the start R+2 hits Ben, who answers with his last card
    acts = [{"seat": 1, "play": "G+2"}]
    st_ = state(scenario(hands, "R+2", acts, options=PROG, then=["Y1", "Y2", "Y3", "Y4"]))
    assert st_["round_over"] and st_["round_winner"] == 1
    assert len(st_["hands"][2]) == 1 + 4  # 2 + 2, not the last card's 2


def test_r_var_stack_pass_last_draw_two_draws_two() -> None:
    """R-VAR-STACK (pass): penalties do not add up, on a last card either."""
    hands = [["R1"], ["G+2"], ["Y9"]]
    acts = [{"seat": 1, "play": "G+2"}]
    st_ = state(scenario(hands, "R+2", acts, options={"stacking": "pass"}))
    assert st_["round_over"] and len(st_["hands"][2]) == 1 + 2


@pytest.mark.parametrize(
    ("answer", "drawn"), [({"accept": True}, 2 + 4), ({"challenge": True}, 2 + 4 + 2)]
)
def test_r_var_progressive_r_end_2_last_wd4_costs_the_whole_stack(
    answer: dict[str, Any], drawn: int
) -> None:
    """A last W+4 on a stack: accepting draws the total, an (innocent) challenge total + 2."""
    hands = [["R1"], ["W+4"], ["Y9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}, {"seat": 2, **answer}]
    opts = {**PROG, "stack_draw4_on_draw2": True}
    rec = scenario(hands, "R+2", acts, options=opts, then=["Y1", "Y2", "Y3", "Y4"])
    g = game_after(rec)
    assert g.round_over and g.round_winner == 1
    assert len(g.hands[2]) == 1 + drawn


def test_r_var_progressive_the_challenged_seat_sees_what_accepting_costs() -> None:
    """A last W+4 on a stack waits for the challenge (R-END-3); the view tells the
    victim the whole stack (6), and a lone W+4's challenge says 4."""
    from unokit.engine.view import view_of

    hands = [["R1"], ["W+4"], ["Y9"]]
    acts = [{"seat": 1, "play": "W+4", "color": "G"}]
    opts = {**PROG, "stack_draw4_on_draw2": True}
    g = game_after(scenario(hands, "R+2", acts, options=opts, then=["Y1", "Y2", "Y3", "Y4"]))
    assert g.phase == P_CHALLENGE and g.current == 2
    assert view_of(g, 2).pending_total == 6
    assert view_of(g, None).pending_total == 6
    hands = [["R1", "R2"], ["W+4", "B6"], ["Y9", "Y8"]]
    g = game_after(scenario(hands, "R5", [{"seat": 1, "play": "W+4", "color": "G"}]))
    assert g.phase == P_CHALLENGE and view_of(g, 2).pending_total == 4


def test_r_var_progressive_r_end_2_last_wd4_on_wd4() -> None:
    """Cy answers Ben's W+4 with her last card, a W+4: Ana draws 8."""
    hands = [["Y2", "G2"], ["W+4", "B6"], ["Y8", "W+4"]]
    acts = [
        {"seat": 2, "play": "Y8", "uno": True},
        {"seat": 0, "play": "Y2", "uno": True},
        {"seat": 1, "play": "W+4", "color": "G", "uno": True},
        {"seat": 2, "play": "W+4", "color": "B"},
        {"seat": 0, "draw": True},
    ]
    rec = scenario(hands, "Y1", acts, options=PROG, dealer=1)
    g = game_after(rec)
    assert g.round_over and g.round_winner == 2
    assert len(g.hands[0]) == 1 + 8


# ------------------------------------------------------------ R-ACT-CHALLENGE -----
RETRACT = {"wd4_guilty": "retract", "false_uno_penalty": 20}


def test_r_act_challenge_retract_after_the_pile_was_rebuilt() -> None:
    """``wd4_guilty="retract"`` after false UNO calls drew the whole pile while the W+4 waited.

    On main the rebuilt pile took the card under the W+4; retracting it left the
    discard pile empty and the next turn raised IndexError.
    """
    hands = [["R1", "G2", "B3"], ["W+4", "R7", "B6"], ["G7", "Y8", "B9"]]
    acts: list[dict[str, Any]] = [{"seat": 1, "play": "W+4", "color": "G"}]
    acts += [{"seat": 0, "uno": True}] * 5  # 100 cards: the draw pile runs out
    acts += [{"seat": 2, "challenge": True}]
    g = game_after(scenario(hands, "R5", acts, options=RETRACT))
    assert g.discard == [g.discard[0]] and g.top != WILD_DRAW4
    assert WILD_DRAW4 in g.hands[1] and g.current == 2 and g.phase == P_PLAY
    assert g.legal_actions(2)  # a bot can ask what to do
    # the round goes on: Cy draws (nothing left to draw), then Ana plays on R5
    g.apply(2, Action(DRAW))
    assert g.current == 0
    g.apply(0, Action.parse("R1"))
    assert g.card_count() == 108


def test_r_act_challenge_retract_after_catching_the_wd4_player_on_an_empty_pile() -> None:
    """The same when a catch of the W+4's player rebuilt the pile."""
    hands = [["R1", "G2"], ["W+4", "R7"], ["G7", "Y8"]]
    acts: list[dict[str, Any]] = [{"seat": 0, "uno": True}] * 6  # the draw pile is empty
    acts += [
        {"seat": 1, "play": "W+4", "color": "G"},
        {"seat": 2, "catch": 1},  # Ben did not call: he draws 2, the pile is rebuilt
        {"seat": 2, "challenge": True},  # he held R7: guilty, takes the W+4 back
    ]
    g = game_after(scenario(hands, "R5", acts, options=RETRACT))
    assert g.discard and g.top != WILD_DRAW4 and WILD_DRAW4 in g.hands[1]
    assert g.current == 2 and g.legal_actions(2)


def test_r_turn_6_seed_001_house_careless_sim_keeps_a_discard_pile() -> None:
    """`unokit sim --rules seed-001-house --bots careless --players 6 --seed 1` died here."""
    from unokit.sim import SimConfig, simulate

    cfg = SimConfig(preset="seed-001-house", seats=("careless",) * 6, games=600, seed=1)
    (result,) = simulate([cfg], workers=1)
    assert result.tally.games + result.tally.stalled == 600


def test_r_turn_6_seed_001_house_random_play_keeps_a_discard_pile() -> None:
    rules = from_preset("seed-001-house")
    rng = random.Random(1)
    for i in range(60):
        play_randomly(Game(rules, 6, seed=i, events=False), rng, 3_000, careless=True)


# ------------------------------------------------------------ R-START -------------
@pytest.mark.parametrize(
    ("preset", "options", "players"),
    [
        ("my-first-uno", {"hand_size": 8}, 4),  # `unokit demo ... hand_size=8 --seed 74`
        ("classic", {"hand_size": 13}, 8),
        ("mattel-2018", {"custom_cards": 0, "hand_size": 12}, 9),  # 109 cards, 1 left: W+4?
        ("my-first-uno", {"hand_size": 10}, 3),
    ],
)
def test_r_start_wd4_and_number_a_deal_that_may_leave_no_start_card_is_refused(
    preset: str, options: dict[str, Any], players: int
) -> None:
    """R-START-WD4, R-START-NUMBER: refused when made, with the reason and the limit."""
    rules = from_preset(preset, options)
    with pytest.raises(RulesError, match="can never start a round") as err:
        Game(rules, players, seed=74)
    assert err.value.code == "bad_hand_size"
    assert rules.player_range()[1] < players
    Game(rules, rules.player_range()[1], seed=74)  # one player fewer is fine


def test_r_start_number_hand_sizes_that_no_player_count_can_deal_are_refused() -> None:
    with pytest.raises(RulesError, match="too large") as err:
        from_preset("my-first-uno", {"hand_size": 17})
    assert err.value.code == "bad_hand_size"
    # teams need 4 players, and 36 cards deal 4 hands of 6 at most
    from_preset("teams", {"hand_size": 6, "deck": "my-first-uno"}).check_players(4)
    with pytest.raises(RulesError) as err:
        from_preset("teams", {"hand_size": 7, "deck": "my-first-uno"})
    assert err.value.code == "bad_hand_size"


def test_r_start_the_largest_deal_of_every_deck_always_starts() -> None:
    """Every hand size at its largest player count: ``Game(...)`` returns, for many seeds."""
    with deadline(60):
        for deck in ("classic", "mattel-2018-swap", "mattel-2018-shuffle", "my-first-uno"):
            for custom in (0, 3) if deck.startswith("mattel") else (3,):
                for hand in range(1, 21):
                    try:
                        rules = RuleSet(deck=deck, custom_cards=custom, hand_size=hand)
                    except RulesError:
                        continue
                    n = rules.player_range()[1]
                    for seed in range(40):
                        g = Game(rules, n, seed=seed, events=False, record=False)
                        assert g.discard and g.top != WILD_DRAW4
                        assert IS_NUMBER[g.top] or deck != "my-first-uno"
                        assert g.card_count() == len(build_deck(deck, custom))


def test_r_start_records_of_impossible_deals_are_malformed() -> None:
    rec = scenario([["R1"]] * 2, "R5", [], preset="my-first-uno")
    rec["rules"]["options"]["hand_size"] = 17
    status, out = replay_text(json.dumps(rec))
    assert status == 2 and "too large" in str(out)


# ------------------------------------------------------------ R-TURN-7 ------------
def fresh() -> Game:
    return Game(RuleSet(), 3, seed=5)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Action(8), "bad_action"),
        (Action(-1), "bad_action"),
        (Action(99, 3), "bad_action"),
        (Action(DRAW, card=3), "bad_action"),
        (Action(KEEP, card=0), "bad_action"),
        (Action(UNO, card=5), "bad_action"),
        (Action(CHALLENGE, card=5), "bad_action"),
        (Action(ACCEPT, extra=(1,)), "bad_action"),
        (Action(DRAW, uno=True), "bad_action"),
        (Action(DRAW, color=2), "bad_color"),
        (Action(CATCH, target=1, color=0), "bad_color"),
        (Action(DRAW, target=1), "bad_target"),
        (Action(PLAY, NUM_CARDS), "bad_card"),
        (Action(PLAY, -1), "bad_card"),
        (Action(PLAY, -5), "bad_card"),
        (Action(PLAY, 10**30), "bad_card"),
        (Action(PLAY, 3, extra=(NUM_CARDS,)), "bad_card"),
        (Action(PLAY, 52, color=-2), "bad_color"),
        (Action(PLAY, 52, color=4), "bad_color"),
        (Action(PLAY, 52, color=0, target=-2), "bad_target"),
        (Action(PLAY, 52, color=0, target=3), "bad_target"),
        (Action(PLAY, 52, color=0, target=10**30), "bad_target"),
        (Action(COLOR, color=-3), "bad_color"),
        (Action(COLOR, color=1, target=-7), "bad_target"),
        (Action(CATCH, target=-2), "bad_target"),
        (Action(PLAY, "R7"), "bad_action"),  # type: ignore[arg-type]
        (Action(PLAY, 3, uno=1), "bad_action"),  # type: ignore[arg-type]
        (Action(PLAY, 3, extra=[4]), "bad_action"),  # type: ignore[arg-type]
        (Action(PLAY, True), "bad_action"),
        ((PLAY, 3, -1, -1, False, ()), "bad_action"),
    ],
)
def test_r_turn_7_malformed_actions_are_refused_and_change_nothing(action: Any, code: str) -> None:
    """An ``Action`` no text or record could describe is refused before the rules."""
    for seat in range(3):
        g = fresh()
        before = snapshot(g)
        events = len(g.events or [])
        with pytest.raises(IllegalAction) as err:
            g.apply(seat, action)
        assert err.value.code == code, err.value
        assert snapshot(g) == before and len(g.events or []) == events
        assert len(g.rounds[-1].actions) == 0


def test_r_turn_7_bad_seats_are_refused() -> None:
    g = fresh()
    for seat in (-1, 3, True, "0", 10**30):
        with pytest.raises(IllegalAction) as err:
            g.apply(seat, Action(DRAW))  # type: ignore[arg-type]
        assert err.value.code == "bad_seat"


def test_r_var_attack_astronomical_launcher_weights_are_refused() -> None:
    for weights in (
        [10**400, *[1] * 12],
        [1] * 12 + [10**7],
        [-1, *[1] * 12],
        [1.5] + [1] * 12,
        [44] + [0] * 12,  # never fires: nobody who cannot play would ever get a card
    ):
        with pytest.raises(RulesError) as err:
            from_preset("attack", {"launcher_weights": weights})
        assert err.value.code == "bad_option"
    rules = from_preset("attack", {"launcher_weights": [1_000_000] * 13})
    g = Game(rules, 3, seed=1)
    play_randomly(g, random.Random(1), decisions=500)


# ------------------------------------------------------------ records -------------
def test_records_nested_a_thousand_deep_are_malformed() -> None:
    for text in (
        "[" * 1000 + "]" * 1000,
        '{"rounds": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"players": ["a", "b"], "rounds": [{"dealer": 0, "seed": 1, "actions": [{"seat": 0,'
        ' "play": ' + "[" * 990 + "]" * 990 + "}]}]}",
    ):
        with pytest.raises(RecordError):
            loads(text)
        status, out = replay_text(text)
        assert status == 2 and isinstance(out, str)


def test_records_with_numbers_of_thousands_of_digits_are_malformed() -> None:
    big = "9" * 5000
    base = {"players": ["a", "b"], "rounds": [{"dealer": 0, "seed": 1, "actions": []}]}
    for text in (
        json.dumps(base).replace('"seed": 1', f'"seed": {big}'),
        json.dumps(base).replace('"dealer": 0', f'"dealer": {big}'),
        json.dumps(base).replace("[]", f'[{{"seat": {big}, "draw": true}}]'),
        big,
    ):
        with pytest.raises(RecordError) as err:
            loads(text)
        assert type(err.value) is RecordError and err.value.code == "bad_record"
        status, out = replay_text(text)
        assert status == 2 and "malformed record" in str(out)


def test_records_with_huge_but_readable_numbers_are_refused_or_replayed() -> None:
    big = 10**4000
    rec = scenario([["R1", "G2"], ["B3", "Y4"]], "R5", [{"seat": 1, "catch": big}])
    status, out = replay_text(json.dumps(rec))
    assert status == 1 and isinstance(out, dict) and "no seat" in out["error"]["message"]
    rec = scenario([["R1", "G2"], ["B3", "Y4"]], "R5", [{"seat": big, "draw": True}])
    status, out = replay_text(json.dumps(rec))
    assert status == 1
    rec["rounds"][0]["actions"] = []
    rec["rounds"][0]["seed"] = big
    assert replay_text(json.dumps(rec))[0] == 0
    rec["rules"]["options"]["hand_size"] = big
    assert replay_text(json.dumps(rec))[0] == 2


@pytest.mark.parametrize(
    "options",
    [
        {"launcher_weights": [10**300] * 13, "attack_launcher": True},
        {"hand_size": 1e308},
        {"hand_size": float("nan")},
        {"deck": ["classic"]},
        {"deck": {"x": 1}},
        {"launcher_weights": "1,2,3"},
        {"target_score": None},
    ],
)
def test_records_with_rule_options_of_wild_values_are_malformed(options: dict[str, Any]) -> None:
    rec = scenario([["R1", "G2"], ["B3", "Y4"]], "R5", [])
    rec["rules"]["options"].update(options)
    with pytest.raises(RecordError):
        loads(json.dumps(rec))


def test_a_records_rules_with_a_key_it_does_not_know_are_refused_by_name() -> None:
    """Issue 49: "rules": {"preset": ..., "zzz": 1} replayed as if "zzz" were not
    there, in the viewer and in ``unokit replay``; a misspelt "option" is a changed
    game, so it is refused, and the message names the key."""
    rec = scenario([["R1", "G2"], ["B3", "Y4"]], "R5", [])
    rec["rules"]["zzz"] = 1
    with pytest.raises(RecordError) as err:
        loads(json.dumps(rec))
    assert "unknown keys: zzz" in str(err.value)


# ------------------------------------------------------------ random play ---------
def play_randomly(
    g: Game, rng: random.Random, decisions: int = 30_000, careless: bool = False
) -> str:
    """Random legal play with the round invariants checked after every action.

    Returns how the game stopped: ``"over"``, ``"budget"`` (``decisions`` used up), or,
    for a round still going after ``ROUND_CAP`` decisions, ``"forced loop"`` (every
    decision from there is forced and a position comes round again) or ``"stalled"``:
    reported, as every program that runs rounds reports it (docs/rules.md, "Rounds
    that can go on and on"), since random play under rules that hand out many cards
    (others_draw_2 with five players, a launcher, 20-card hands) can drift for very long.
    """
    size = len(build_deck(g.rules.deck, g.rules.custom_cards))
    steps = 0
    since_round = 0
    while not g.game_over and steps < decisions:
        if g.round_over:
            g.start_round()
            since_round = 0
        assert_round_invariants(g, size)
        seat = rng.choice(g.actors())
        legal = g.legal_actions(seat)
        assert legal, f"{seat} was offered nothing"
        if seat != g.current and not careless and rng.random() < 0.5:
            continue
        plays = [a for a in legal if a.kind == PLAY]
        action = rng.choice(plays if plays and rng.random() < 0.95 else legal)
        g.apply(seat, action)
        steps += 1
        since_round += 1
        if since_round >= ROUND_CAP and not g.round_over:
            assert_round_invariants(g, size)
            try:
                assert_forced_loop(g.copy())
            except AssertionError:
                return "stalled"
            return "forced loop"
    assert_round_invariants(g, size)
    return "over" if g.game_over else "budget"


ROUND_CAP = 2_000  # decisions in one round before it is reported stalled


def assert_round_invariants(g: Game, size: int) -> None:
    assert g.card_count() == size, "every card is somewhere"
    if g.round_over:
        return
    assert g.discard, "a round in play always has a discard pile"
    assert g.top != WILD_DRAW4 or len(g.discard) > 1 or g.phase != P_START_COLOR
    for s in range(g.n):
        if g.live[s] and not g.hands[s]:
            # only the player of a last Wild Draw Four, while it waits (R-END-3)
            assert s == g.wd4_by and g.phase in (P_CHALLENGE, P_ANSWER), (
                f"seat {s} has no cards while the round goes on ({g!r})"
            )
    if g.phase == P_DRAWN:
        assert g.drawn in g.hands[g.current]
    assert g.actors(), "someone can always act"


@st.composite
def crowded(draw: st.DrawFn) -> tuple[RuleSet, int]:
    """Random rules dealt as many cards as the deck allows, so the piles run dry."""
    rules = draw(rule_sets())
    lo, hi = rules._base_range()
    if rules.custom_rule == "others_draw_2" or rules.attack_launcher:
        hi = min(hi, 6)  # see test_properties.players_for
    counts = [k for k in range(lo, hi + 1) if rules.scoring != "teams" or k in (4, 6, 8)]
    n = draw(st.sampled_from(counts))
    size, never = rules.start_cards()
    most = (size - never - 1) // n
    hand = min(20, max(1, most - draw(st.integers(0, 2))))
    try:
        rules = dataclasses.replace(rules, hand_size=hand)
    except RulesError:
        assume(False)
    assume(n <= rules.player_range()[1])
    return rules, n


@pytest.mark.slow
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(table=crowded(), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_crowded_random_rule_sets_keep_every_round_invariant(
    table: tuple[RuleSet, int], seed: int, policy: int
) -> None:
    """Card conservation, a discard pile, no empty live hand, rounds that end or stall."""
    rules, n = table
    with deadline(60):
        g = Game(rules, n, seed=seed)  # always returns: the deal leaves a start card
        event(play_randomly(g, random.Random(policy), decisions=6_000))
        result = replay(loads(dumps(g)))
    assert result.ok, result.message
    assert result.game is not None and result.game.state_json() == g.state_json()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_random_actions_never_raise_anything_but_illegal_action(
    data: st.DataObject, seed: int
) -> None:
    """Any ``Action`` at all, at any moment: refused with IllegalAction or applied."""
    rules, n = data.draw(crowded())
    g = Game(rules, n, seed=seed)
    rng = random.Random(seed)
    ints = [-(10**20), -2, -1, 0, 1, 2, 3, 4, 7, 9, 52, 53, 56, 57, 10**20]
    for _ in range(300):
        if g.round_over:
            if g.game_over:
                break
            g.start_round()
        seat = rng.choice([*g.actors(), rng.choice(ints)])
        if rng.random() < 0.5:
            action = Action(*(rng.choice(ints) for _ in range(4)), rng.random() < 0.2)
            action = action._replace(kind=rng.choice([*range(8), *ints]))
        else:
            legal = g.legal_actions(g.actors()[0])
            action = rng.choice(legal)
            seat = g.actors()[0] if action in g.legal_actions(g.actors()[0]) else seat
        before = snapshot(g)
        try:
            g.apply(seat, action)
        except IllegalAction:
            assert snapshot(g) == before
        except UnoError as e:  # pragma: no cover - would be a wrong error type
            raise AssertionError(f"{type(e).__name__} for {action!r}") from e
        assert_round_invariants(g, len(build_deck(rules.deck, rules.custom_cards)))


# ------------------------------------------------------------ checked vs trusted --
def trusted_step(g: Game, seat: int, a: Action) -> None:
    """The fast path as the simulator and RL call it: the methods, not ``apply``."""
    k = a.kind
    if k == PLAY:
        g.play(seat, a.card, a.color, a.uno, a.target, a.extra)
    elif k == DRAW:
        if g.phase in (P_CHALLENGE, P_ANSWER):
            g.accept(seat)
        else:
            g.draw(seat)
    elif k == KEEP:
        g.keep(seat)
    elif k == UNO:
        g.call_uno(seat)
    elif k == CATCH:
        g.catch(seat, a.target)
    elif k == CHALLENGE:
        g.challenge(seat)
    elif k == ACCEPT:
        g.accept(seat)
    else:
        g.choose_color(seat, a.color, a.target)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_checked_and_trusted_paths_play_the_same_games(
    data: st.DataObject, seed: int, policy: int
) -> None:
    """The same random games through ``apply``, ``apply_trusted`` and the fast methods.

    The checked game keeps events and a record; the fast ones keep neither (so the fast
    draw path is taken).  After every move the states must be equal.
    """
    crowd = data.draw(st.booleans())
    if crowd:
        rules, n = data.draw(crowded())
    else:
        rules = data.draw(rule_sets())
        lo, hi = rules.player_range()
        n = data.draw(st.integers(lo, min(hi, 6)))
        assume(rules.scoring != "teams" or n in (4, 6))
    checked = Game(rules, n, seed=seed)
    trusted = Game(rules, n, seed=seed, events=False, record=False)
    fast = Game(rules, n, seed=seed, events=False, record=False)
    games = (checked, trusted, fast)
    rng = random.Random(policy)
    for step in range(1_500):
        if checked.game_over:
            break
        if step == 40:  # a search's copy plays on the fast path like the original
            games = (checked, trusted, fast := checked.copy())
        if checked.round_over:
            for g in games:
                g.start_round()
        seat = rng.choice(checked.actors())
        legal = checked.legal_actions(seat)
        assert trusted.legal_actions(seat) == legal == fast.legal_actions(seat)
        if checked.phase == P_PLAY and seat == checked.current:
            assert sorted(set(fast.playable_cards(seat))) == checked.playable(seat)
        plays = [a for a in legal if a.kind == PLAY]
        a = rng.choice(plays if plays and rng.random() < 0.9 else legal)
        checked.apply(seat, a)
        trusted.apply_trusted(seat, a)
        trusted_step(fast, seat, a)
        want = checked.state_json()
        for g in (trusted, fast):
            assert g.state_json() == want
            assert g.hands == checked.hands and g.pile == checked.pile
            assert (g.phase, g.drawn, g.vulnerable, g.wd4_by, g.pend_total) == (
                checked.phase, checked.drawn, checked.vulnerable, checked.wd4_by,
                checked.pend_total,
            )  # fmt: skip
        assert trusted.round_rng.getstate() == checked.round_rng.getstate()
