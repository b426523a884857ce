"""Properties of UNO Flip! and No Mercy over random option sets (issue 38 item 5).

Random games under random rule sets of both modern games, played through the checked
path: no hang, no crash, every listed action accepted, every refused action changes
nothing, cards conserved across flips, reshuffles and knock-outs, no live hand at the
Mercy limit.  Then the match as a value (stored and restored mid-game plays on
identically), records (written, replayed to the same state; damaged ones refused) and
views (dealing the hidden faces and cards again changes no seat's view: FLIP-VIEW-*).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import FLIP_OPTIONS, NM_OPTIONS
from unokit.bots import RandomBot, play_game
from unokit.engine import (
    PLAY,
    Action,
    FlipGame,
    Game,
    IllegalAction,
    ModernGame,
    NoMercyGame,
    view_of,
)
from unokit.engine.state import advance, clone, dumps, loads, new_match, to_ask
from unokit.modern_cards import DARK, LIGHT
from unokit.record import dumps as record_dumps
from unokit.record import replay_text
from unokit.rules import RuleSet, from_preset

FAST = settings(max_examples=20, deadline=None)


@st.composite
def modern_rules(draw: st.DrawFn) -> RuleSet:
    """Any option set of either modern game that RuleSet accepts."""
    game = draw(st.sampled_from(["flip", "no-mercy"]))
    opts: dict[str, Any] = {"hand_size": draw(st.integers(2, 9))}
    opts["uno_penalty"] = draw(st.sampled_from([0, 2, 4]))
    choices = FLIP_OPTIONS if game == "flip" else NM_OPTIONS
    for key, values in choices.items():
        if draw(st.booleans()):
            opts[key] = draw(st.sampled_from(values))
    if opts.get("mercy_limit", 25) and opts["hand_size"] >= opts.get("mercy_limit", 25):
        opts["mercy_limit"] = 25
    return from_preset(game, opts)


def choose(rng: random.Random, legal: list[Action]) -> Action:
    """A random decision, mostly a play (pure random drawing makes rounds very long)."""
    plays = [a for a in legal if a.kind == PLAY]
    return rng.choice(plays if plays and rng.random() < 0.85 else legal)


def invariants(g: ModernGame, total: int) -> None:
    assert g.card_count() == total
    if isinstance(g, NoMercyGame) and g.rules.mercy_limit and not g.round_over:
        for s in range(g.n):
            assert not g.live[s] or len(g.hands[s]) < g.rules.mercy_limit  # NM-MERCY-5
            assert g.live[s] or not g.hands[s]
    if isinstance(g, FlipGame):
        assert sorted(p[LIGHT] for p in g.pairs) == sorted(p[LIGHT] for p in sorted(g.pairs))
        assert g.side in (LIGHT, DARK)


def play_through(g: ModernGame, rng: random.Random, max_steps: int = 30_000) -> int:
    """Play to the end checking everything at every step; the steps taken.

    Without the Mercy rule (``mercy_limit=0``) a No Mercy hand gives out more cards than
    turns shed and random play drifts for a very long time, every card in hands (as the
    classic card-giving rule sets do, docs/rules.md "Rounds that can go on and on"):
    such a hand is accepted as stalled after 3,000 decisions, its invariants checked.
    """
    total = g.card_count()
    steps = 0
    in_round = 0
    drifts = isinstance(g, NoMercyGame) and g.rules.mercy_limit == 0
    while not g.game_over:
        assert steps < max_steps, "the game does not end"
        if drifts and in_round >= 3_000:
            return steps
        if g.round_over:
            g.start_round()
            in_round = 0
            assert g.card_count() == total
            continue
        in_round += 1
        actors = g.actors()
        assert g.current in actors  # the seat to act always has something to do
        seat = rng.choice(actors)
        legal = g.legal_actions(seat)
        for a in legal:
            g.check(seat, a)  # every listed action is accepted
            # ... and its record form and its text both read back as itself
            assert g.action_from_json(g.action_json(a, seat)) == (seat, a)
            assert g.parse_action(g.action_text(a)) == a
        bad = Action(PLAY, rng.randrange(131), rng.randrange(-1, 8), rng.randrange(-1, g.n))
        if bad not in legal and rng.random() < 0.05:
            before = json.dumps(g.to_json_obj())
            try:
                g.apply(seat, bad)
            except IllegalAction as e:
                assert e.message and json.dumps(g.to_json_obj()) == before
            else:
                raise AssertionError(f"{bad} was accepted but not listed")
        g.apply(seat, choose(rng, legal))
        steps += 1
        invariants(g, total)
    return steps


@pytest.mark.slow
@FAST
@given(rules=modern_rules(), seed=st.integers(0, 2**32), data=st.data())
def test_random_games_under_random_modern_rules_keep_every_invariant(
    rules: RuleSet, seed: int, data: st.DataObject
) -> None:
    lo, hi = rules.player_range()
    n = data.draw(st.integers(lo, min(hi, 6)))
    g = Game(rules, n, seed=seed)
    assert isinstance(g, ModernGame)
    play_through(g, random.Random(seed))
    assert g.game_over or g.rules.mercy_limit == 0


@FAST
@given(rules=modern_rules(), seed=st.integers(0, 2**32))
def test_records_replay_to_the_same_state(rules: RuleSet, seed: int) -> None:
    """A played game's record replays (exit 0) to exactly the game's final state."""
    n = min(rules.player_range()[1], 2 + seed % 4)
    g = Game(rules, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(50, 600)):
        if g.game_over:
            break
        if g.round_over:
            g.start_round()
            continue
        s = rng.choice(g.actors())
        g.apply(s, choose(rng, g.legal_actions(s)))
    text = record_dumps(g)
    status, out = replay_text(text)
    assert status == 0, out
    assert isinstance(out, dict) and out["state"] == g.state_json()
    assert json.loads(text)["rounds"][0]["deck"][0].count("|") == (rules.deck == "flip")


@pytest.mark.slow
@FAST
@given(rules=modern_rules(), seed=st.integers(0, 2**32))
def test_a_stored_match_plays_on_exactly_as_the_original(rules: RuleSet, seed: int) -> None:
    """uno-match/1 holds a modern game: restored mid-game, both play on identically;
    ``advance`` leaves the old state as it was."""
    n = min(rules.player_range()[1], 2 + seed % 5)
    state = new_match(Game(rules, n, seed=seed))
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 200)):
        ask = to_ask(state)
        if ask is None:
            break
        state, _ = advance(state, ask.seat, choose(rng, state.game.legal_actions(ask.seat)))
    text = dumps(state)
    other = loads(text)
    assert dumps(other) == text
    for _ in range(150):
        ask = to_ask(state)
        if ask is None:
            break
        assert to_ask(other) == ask
        a = choose(rng, state.game.legal_actions(ask.seat))
        before = dumps(state)
        state2, ev = advance(state, ask.seat, a)
        assert dumps(state) == before  # pure
        other, ev2 = advance(other, ask.seat, a)
        assert ev == ev2
        state = state2
    assert dumps(state) == dumps(other)


def _flip_hidden_dealt_again(g: FlipGame, seat: int, rng: random.Random) -> FlipGame:
    """The same game with every face ``seat`` may not see dealt again: the other faces
    of its own cards, the seen-side faces of opponents' cards (their backs in order),
    the draw pile below its top card, the discard pile under its top card."""
    h = clone(g)
    assert isinstance(h, FlipGame)
    pairs = [list(p) for p in h.pairs]
    side = h.side

    def permute(cards: list[int], face_side: int) -> None:
        got = [pairs[c][face_side] for c in cards]
        rng.shuffle(got)
        for c, f in zip(cards, got, strict=True):
            pairs[c][face_side] = f

    permute(h.hands[seat], 1 - side)  # FLIP-VIEW-1
    for s in range(h.n):
        if s != seat:
            permute(h.hands[s], side)  # FLIP-VIEW-2
    if h.pile:
        permute(h.pile, side)  # FLIP-VIEW-3: only the top's inactive face shows
        below = h.pile[:-1]
        rng.shuffle(below)
        h.pile[:-1] = below
    under = h.discard[:-1]
    rng.shuffle(under)
    h.discard[:-1] = under
    h.pairs = [(a, b) for a, b in pairs]
    return h


def _nm_hidden_dealt_again(g: NoMercyGame, seat: int, rng: random.Random) -> NoMercyGame:
    """Other hands' cards exchanged among them (sizes kept), the hidden piles dealt again."""
    h = clone(g)
    assert isinstance(h, NoMercyGame)
    others = [s for s in range(h.n) if s != seat]
    cards = [c for s in others for c in h.hands[s]]
    rng.shuffle(cards)
    for s in others:
        k = len(h.hands[s])
        h.hands[s], cards = cards[:k], cards[k:]
    # the draw pile, the set-aside hands and cards face down under the discard pile
    # (discard_bottom) are all hidden: deal them again among the three, sizes kept
    k, a = h.face_down, len(h.aside)
    hidden = h.discard[:k] + h.aside + h.pile
    rng.shuffle(hidden)
    h.discard[:k], h.aside, h.pile = hidden[:k], hidden[k : k + a], hidden[k + a :]
    return h


def _hidden_changes_no_view(g: ModernGame, rng: random.Random) -> int:
    compared = 0
    for seat in range(g.n):
        mine = view_of(g, seat).to_json()
        for _ in range(3):
            if isinstance(g, FlipGame):
                h: ModernGame = _flip_hidden_dealt_again(g, seat, rng)
            else:
                assert isinstance(g, NoMercyGame)
                h = _nm_hidden_dealt_again(g, seat, rng)
            assert view_of(h, seat).to_json() == mine, seat
            compared += 1
    return compared


@FAST
@given(rules=modern_rules(), seed=st.integers(0, 2**32))
def test_no_leak_hidden_faces_and_cards_dealt_again_change_no_view(
    rules: RuleSet, seed: int
) -> None:
    """FLIP-VIEW-1..3 and No Mercy's hidden hands: a seat's view is a function of what
    it may see, so permuting everything else leaves it identical."""
    n = min(rules.player_range()[1], 2 + seed % 4)
    g = Game(rules, n, seed=seed)
    assert isinstance(g, ModernGame)
    rng = random.Random(seed)
    compared = 0
    for _ in range(rng.randrange(20, 200)):
        if g.round_over:
            break
        if rng.random() < 0.15:
            compared += _hidden_changes_no_view(g, rng)
        s = rng.choice(g.actors())
        g.apply(s, choose(rng, g.legal_actions(s)))
    compared += _hidden_changes_no_view(g, rng) if not g.round_over else 0
    assert compared or g.round_over


def test_no_leak_the_view_does_change_with_what_a_seat_sees() -> None:
    """The no-leak test can fail: an opponent's other face, or one's own active face,
    changed, changes the view."""
    g = Game(from_preset("flip"), 3, seed=5)
    assert isinstance(g, FlipGame)
    before = view_of(g, 0).to_json()
    h = clone(g)
    assert isinstance(h, FlipGame)
    a, b = (
        h.hands[1][0],
        next(c for c in h.pile if h.pairs[c][DARK] != h.pairs[h.hands[1][0]][DARK]),
    )
    pairs = list(h.pairs)
    pairs[a], pairs[b] = (pairs[a][0], pairs[b][1]), (pairs[b][0], pairs[a][1])
    h.pairs = pairs
    assert view_of(h, 0).to_json()["others"] != before["others"]


def test_damaged_records_are_refused_and_change_nothing() -> None:
    """A wrong card, a deck that is not the game's, an illegal action: clear errors."""
    g = Game(from_preset("flip"), 3, seed=2)
    rng = random.Random(2)
    for _ in range(30):
        s = rng.choice(g.actors())
        g.apply(s, choose(rng, g.legal_actions(s)))
    rec = json.loads(record_dumps(g))
    bad = json.loads(json.dumps(rec))
    bad["rounds"][0]["deck"][0] = "R0|T+5"
    status, msg = replay_text(json.dumps(bad))
    assert status == 2 and isinstance(msg, str) and "R0" in msg
    bad = json.loads(json.dumps(rec))
    bad["rounds"][0]["deck"] = bad["rounds"][0]["deck"][1:]
    status, msg = replay_text(json.dumps(bad))
    assert status == 2 and isinstance(msg, str) and "deck" in msg
    bad = json.loads(json.dumps(rec))
    bad["rounds"][0]["actions"][0] = {"seat": 0, "play": "Q9"}
    status, msg = replay_text(json.dumps(bad))
    assert status == 2 and isinstance(msg, str) and "Q9" in msg
    bad = json.loads(json.dumps(rec))
    first = bad["rounds"][0]["actions"][0]
    bad["rounds"][0]["actions"].insert(0, {"seat": (first["seat"] + 1) % 3, "draw": True})
    status, out = replay_text(json.dumps(bad))
    assert status == 1 and isinstance(out, dict)
    assert out["error"]["action"] == 0 and "turn" in out["error"]["message"]


def test_random_bots_play_both_games_through_the_generic_action_list() -> None:
    """The random bot needs nothing but ``view.legal``: it plays whole games of both."""
    for preset, n in (("flip", 4), ("no-mercy", 5)):
        rules = from_preset(preset, {"target_score": 100} if preset == "flip" else None)
        g = Game(rules, n, seed=3)
        play_game(g, [RandomBot(i) for i in range(n)])
        assert g.game_over
        status, _ = replay_text(record_dumps(g))  # every decision was legal
        assert status == 0


def test_a_dealt_flip_round_starts_on_the_light_side_each_round() -> None:
    """FLIP-SETUP-5, FLIP-SCORE-4: every round starts on the light side."""
    g = Game(from_preset("flip", {"target_score": 2000}), 2, seed=8)
    assert isinstance(g, FlipGame)
    rng = random.Random(1)
    rounds = 0
    while rounds < 3:
        if g.round_over:
            g.start_round()
            rounds += 1
            assert g.side == LIGHT
            continue
        s = rng.choice(g.actors())
        g.apply(s, choose(rng, g.legal_actions(s)))


def test_rl_environments_refuse_the_modern_games_clearly() -> None:
    """The RL tables have no observation or action table for these games: a clear
    refusal (``bad_rules``), not an error from deep inside."""
    from unokit.obs.core import Table
    from unokit.rules import RulesError

    for preset in ("flip", "no-mercy"):
        try:
            Table(from_preset(preset), 3)
        except RulesError as e:
            assert e.code == "bad_rules" and "classic decks only" in e.message
        else:
            raise AssertionError(f"the RL table took {preset}")


def test_events_of_the_modern_games_have_a_wire_form_with_their_codes() -> None:
    """Every event a modern game emits words itself with that game's codes
    (``ModernGame.event_json``): a flip names the new side and top face, a knock-out
    the seat and count, a private draw is redacted for the others."""
    for preset, n in (("flip", 3), ("no-mercy", 5)):
        g = Game(from_preset(preset), n, seed=6)
        assert isinstance(g, ModernGame)
        play_game(g, [RandomBot(i) for i in range(n)])
        kinds = set()
        for e in g.events or []:
            j = g.event_json(e)
            kinds.add(j["kind"])
            for v in j.values():
                assert v is None or isinstance(v, (str, int, list))
            if j["kind"] == "draw" and e.hide >= 0:
                assert "cards" not in j
        assert ("flip" if preset == "flip" else "knockout") in kinds, kinds


def test_a_classic_position_of_a_modern_game_is_refused() -> None:
    """engine.position builds classic games only; it names the modern builder."""
    from unokit.engine import PositionError, position

    try:
        position(from_preset("flip"), hands=[["R1"], ["R2"]], discard=["R5"])
    except PositionError as e:
        assert "modern_position" in e.message
    else:
        raise AssertionError("a Flip game built as a classic position")


def test_a_damaged_modern_match_state_is_refused() -> None:
    """uno-match/1 of a modern game: a card twice, a pairing that is not the deck's, a
    wrong type: ``StateError``, never a wrong game."""
    from unokit.engine.state import StateError, to_json

    for preset in ("flip", "no-mercy"):
        state = new_match(Game(from_preset(preset), 3, seed=1))
        good = to_json(state)
        assert loads(json.dumps(good)).game.card_count() == state.game.card_count()
        twice = json.loads(json.dumps(good))
        twice["game"]["hands"][0][0] = twice["game"]["hands"][1][0]
        wrong_type = json.loads(json.dumps(good))
        wrong_type["game"]["current"] = "1"
        damaged = [twice, wrong_type]
        field = "side" if preset == "flip" else "face_down"
        out_of_range = json.loads(json.dumps(good))
        out_of_range["game"][field] = 7
        damaged.append(out_of_range)
        if preset == "flip":
            pairs = json.loads(json.dumps(good))
            pairs["game"]["pairs"][0] = [pairs["game"]["pairs"][1][0], 0]
            damaged.append(pairs)
        for obj in damaged:
            try:
                loads(json.dumps(obj))
            except StateError as e:
                assert e.code == "bad_state"
            else:
                raise AssertionError(f"a damaged {preset} state was loaded")


def test_the_classic_fast_path_methods_play_the_modern_rules() -> None:
    """``game.play``/``draw``/``accept``... (the classic trusted path) on a modern game
    do what ``apply_trusted`` does with the same action, never classic code."""
    for preset in ("flip", "no-mercy"):
        a = Game(from_preset(preset), 3, seed=9)
        b = Game(from_preset(preset), 3, seed=9)
        assert isinstance(a, ModernGame) and isinstance(b, ModernGame)
        rng = random.Random(9)
        methods = {0: "play", 1: "draw", 2: "keep", 3: "call_uno", 4: "catch",
                   5: "challenge", 6: "accept", 7: "choose_color"}  # fmt: skip
        for _ in range(300):
            if a.round_over:
                break
            s = rng.choice(a.actors())
            act = choose(rng, a.legal_actions(s))
            a.apply_trusted(s, act)
            name = methods[act.kind]
            if name == "play":
                b.play(s, act.card, act.color, act.uno, act.target)
            elif name == "catch":
                b.catch(s, act.target)
            elif name == "choose_color":
                b.choose_color(s, act.color)
            else:
                getattr(b, name)(s)
            assert json.dumps(a.to_json_obj()) == json.dumps(b.to_json_obj())


def test_hands_shown_at_the_end_of_a_flip_round_are_faces_of_the_side_in_force() -> None:
    """FLIP-SCORE-1: hands are laid down and counted on the side the round ended on;
    ``shown_hands`` gives those faces, never physical cards."""
    from unokit.engine.modern.position import modern_position
    from unokit.engine.view import shown_hands

    g = modern_position(from_preset("flip"), hands=[["O3"], ["R7|T+5", "B2|W+C"]],
                        discard=["O8"], side=DARK)  # fmt: skip
    g.apply(0, g.parse_action("O3"))
    assert [sorted(g.face_code(f) for f in h) for h in shown_hands(g)] == [[], ["T+5", "W+C"]]


def test_many_random_rounds_under_random_option_sets_end_and_conserve_cards() -> None:
    """Beside Hypothesis's examples, 60 option sets drawn by a plain RNG, one round each
    to its end (a mercy-off No Mercy hand may drift: capped as above), every invariant
    checked at every decision."""
    ended = 0
    for seed in range(60):
        rng = random.Random(seed)
        rules = _random_rules(rng)
        lo, hi = rules.player_range()
        g = Game(rules, rng.randint(lo, min(hi, 6)), seed=seed)
        assert isinstance(g, ModernGame)
        total = g.card_count()
        for _ in range(3_000):
            if g.round_over:
                ended += 1
                break
            s = rng.choice(g.actors())
            g.apply(s, choose(rng, g.legal_actions(s)))
            invariants(g, total)
        else:
            assert isinstance(g, NoMercyGame) and g.rules.mercy_limit == 0
    assert ended >= 50


def _random_rules(rng: random.Random) -> RuleSet:
    game = rng.choice(["flip", "no-mercy"])
    opts: dict[str, Any] = {"hand_size": rng.randint(2, 9), "uno_penalty": rng.choice([0, 2, 4])}
    flip: dict[str, list[Any]] = {
        "flip_start": ["redraw", "flip"], "flip_inverts_discard": [True, False],
        "flip_exposed_action": [False, True], "flip_wild_color": ["flipper", "next_player"],
        "flip_last_card": ["flip", "no_flip"], "wd4_bluffing": [True, False],
        "draw_until_playable": [False, True], "force_play_drawn": [False, True],
        "jump_in": [False, True], "multi_play": [False, True],
    }  # fmt: skip
    nm: dict[str, list[Any]] = {
        "nm_deck": ["wiki", "alt38", "alt37"], "nm_voluntary_draw": [True, False],
        "nm_stack_threshold": ["last", "total"], "nm_stack_match_color": [False, True],
        "nm_stack_deflect": [False, True], "mercy_limit": [25, 0, 12],
        "nm_knockout_cards": ["set_aside", "discard_bottom"],
        "nm_last_card_effect": [False, True], "nm_roulette_color": ["victim", "player"],
    }  # fmt: skip
    for key, values in (flip if game == "flip" else nm).items():
        if rng.random() < 0.5:
            opts[key] = rng.choice(values)
    if opts.get("mercy_limit", 25) and opts["hand_size"] >= opts.get("mercy_limit", 25):
        opts["mercy_limit"] = 25
    return from_preset(game, opts)


def test_a_flip_shuffle_in_a_record_is_matched_by_faces_not_card_ids() -> None:
    """Two cards with the same two faces are one code in a record: replaying a reshuffle
    takes the pile's own twin (found by random games: a reshuffle with one twin in a
    hand and the other in the discards was refused as 'not a reordering')."""
    g = Game(from_preset("flip"), 3, seed=20, start=False)
    assert isinstance(g, FlipGame)
    twins = [(a, b) for a in range(112) for b in range(a + 1, 112) if g.pairs[a] == g.pairs[b]]
    assert twins  # a random pairing of 112 cards nearly always has some
    a, b = twins[0]
    x = next(c for c in range(112) if g.pairs[c] != g.pairs[a])
    assert g._reorder([a, x], [x, b]) == [b, x]
    assert g._reorder([x, x], [x, b]) is None


def test_long_flip_games_replay_from_their_records() -> None:
    """Whole Flip games under random options, written and replayed (reshuffles, twins,
    flips of both piles): the replay ends in the same state."""
    for seed in range(12):
        rng = random.Random(1000 + seed)
        rules = from_preset("flip", {"target_score": 300, "jump_in": seed % 2 == 0,
                                     "multi_play": seed % 3 == 0})  # fmt: skip
        g = Game(rules, rng.randint(2, 6), seed=seed)
        for _ in range(3_000):
            if g.game_over:
                break
            if g.round_over:
                g.start_round()
                continue
            s = rng.choice(g.actors())
            g.apply(s, choose(rng, g.legal_actions(s)))
        status, out = replay_text(record_dumps(g))
        assert status == 0, out
        assert isinstance(out, dict) and out["state"] == g.state_json()
