"""The search bot: legal under every rule set, and it never peeks at hidden cards."""

from __future__ import annotations

import random

import pytest

from test_properties import assert_no_leak
from unokit.bots import ISMCTSBot, RandomBot
from unokit.bots.heuristic import MANY_WEIGHTS, HeuristicBot, Weights
from unokit.bots.ismcts import RANK_VOID, _banned, rollout
from unokit.bots.runner import play_round, step
from unokit.engine import Game, view_of
from unokit.engine.position import position
from unokit.rules import PRESETS, RuleSet, from_preset

# numba: one xdist worker compiles the kernels once for every test here (loadgroup)
pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]


def quick(seed: int) -> ISMCTSBot:
    return ISMCTSBot(seed=seed, iterations=24)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ismcts_plays_legally_under_every_preset(preset: str) -> None:
    rules = from_preset(preset, {"target_score": 1})
    n = 4 if preset != "my-first-uno" else 3
    g = Game(rules, n, seed=len(preset))
    bots = [quick(1), RandomBot(2), quick(3), RandomBot(4)][:n]
    play_round(g, bots)  # every action goes through the checked apply
    assert g.round_over


def test_ismcts_decides_from_the_view_alone() -> None:
    """Same view, different hidden cards: the same decision, for many positions."""
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        g = Game(RuleSet(), 3, seed=seed, events=False)
        for _ in range(rng.randrange(0, 12)):
            if g.round_over:
                break
            step(g, [RandomBot(1), RandomBot(2), RandomBot(3)])
        if g.round_over:
            continue
        seat = g.current
        other = g.copy()
        assert_no_leak(g, seat, rng)  # the scrambled copy shows the same view
        hidden = [c for s, h in enumerate(other.hands) if s != seat for c in h] + other.pile
        rng.shuffle(hidden)
        it = iter(hidden)
        for s in range(g.n):
            if s != seat:
                other.hands[s] = [next(it) for _ in other.hands[s]]
        other.pile = list(it)
        a = ISMCTSBot(seed=9, iterations=30).act(view_of(g, seat))
        b = ISMCTSBot(seed=9, iterations=30).act(view_of(other, seat))
        assert a == b
        checked += 1
    assert checked >= 6


def test_ismcts_beats_random() -> None:
    wins = 0
    games = 40
    for i in range(games):
        g = Game(RuleSet(), 2, seed=100 + i)
        me = i % 2
        bots = [RandomBot(i), RandomBot(i)]
        bots[me] = ISMCTSBot(seed=i, iterations=60)  # type: ignore[call-overload]
        play_round(g, bots)
        wins += g.round_winner == me
    assert wins / games > 0.6


@pytest.mark.parametrize(
    "options", [{"paired": False}, {"policy": 0}, {"horizon": 10, "judge": 0}, {"colors": True}]
)
def test_ismcts_variants_play_legally(options: dict[str, int]) -> None:
    """The unpaired search, greedy rollouts, cut-off rollouts and searched colours stay legal."""
    for preset in ("classic", "party", "seed-001-house"):
        g = Game(from_preset(preset, {"target_score": 1}), 3, seed=7)
        bots = [ISMCTSBot(seed=1, iterations=24, **options), RandomBot(2), RandomBot(3)]
        play_round(g, bots)
        assert g.round_over


def test_rule_based_rollouts_finish_the_round() -> None:
    """Full-length rollouts with the rule-based policy end with a winner, 0 or 1."""
    rng = random.Random(3)
    for seed in range(30):
        g = Game(RuleSet(), 2 + seed % 3, seed=seed, events=False)
        value = rollout(g.copy(), g.current, rng, 5000, policy=1)
        assert value in (0.0, 1.0)


def test_paired_search_keeps_the_prior_without_strong_evidence() -> None:
    """With an impossible margin the search never overrules the heuristic's choice."""
    for seed in range(6):
        g = Game(RuleSet(), 2, seed=seed)
        seat = g.current
        view = view_of(g, seat)
        bot = ISMCTSBot(seed=seed, iterations=60, margin=1e9)
        prior = HeuristicBot(seed=seed).act(view)
        assert bot.act(view) == prior


# ----------------------------------------------------------- budget and compiled rollouts
def test_the_time_budget_is_cpu_time_not_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wall clock racing ahead (a loaded machine) does not cut the search short."""
    import time as time_mod

    cpu = [0.0]

    def thread_time() -> float:
        cpu[0] += 0.001  # one CPU millisecond per look at the clock
        return cpu[0]

    wall = [0.0]

    def perf_counter() -> float:
        wall[0] += 1000.0
        return wall[0]

    monkeypatch.setattr(time_mod, "thread_time", thread_time)
    monkeypatch.setattr(time_mod, "perf_counter", perf_counter)
    g = Game(RuleSet(), 2, seed=3)
    bot = ISMCTSBot(seed=1, time_budget=0.05)
    for _ in range(30):  # find a searched decision
        seat = g.current
        if seat == 0:
            bot.act(view_of(g, seat))
        if bot.searches:
            break
        step(g, [RandomBot(1), RandomBot(2)])
    assert bot.searches == 1
    assert bot.rollouts >= 40  # about 50 worlds' worth of clock looks, not 2


def _searched_view(seed: int = 3) -> tuple[Game, int]:
    """A two-player position whose seat to move has several sensible actions."""
    g = Game(RuleSet(), 2, seed=seed)
    for _ in range(40):
        seat = g.current
        probe = ISMCTSBot(seed=1, iterations=4)
        probe.act(view_of(g, seat))
        if probe.searches:
            return g, seat
        step(g, [RandomBot(1), RandomBot(2)])
    raise AssertionError("no searched decision found")


def test_the_time_bank_gives_unspent_time_to_the_next_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Time left by earlier decisions buys a later search more worlds, up to the cap."""
    import time as time_mod

    g, seat = _searched_view()
    cpu = [0.0]

    def thread_time() -> float:
        cpu[0] += 0.001  # one CPU millisecond per look at the clock
        return cpu[0]

    monkeypatch.setattr(time_mod, "thread_time", thread_time)
    flat = ISMCTSBot(seed=1, time_budget=0.05, bank=0, settle=0)
    flat._bank = 0.1  # ignored without a bank
    flat.act(view_of(g, seat))
    banked = ISMCTSBot(seed=1, time_budget=0.05, bank=3, settle=0)
    banked._bank = 0.1  # as if two forced decisions had spent nothing
    banked.act(view_of(g, seat))
    assert flat._allow == 0.05
    assert 0.14 < banked._allow <= 0.15  # credit + bank, capped at 3 budgets
    assert banked.rollouts >= 2 * flat.rollouts
    # what it spent came out of the bank: never more than was credited, but for the
    # clock looks after the deadline (the last batch, the bookkeeping)
    assert banked._bank >= -0.005
    capped = ISMCTSBot(seed=1, time_budget=0.05, bank=3, settle=0)
    capped._bank = 10.0
    capped.act(view_of(g, seat))
    assert capped._allow <= 0.15


def test_the_time_bank_keeps_the_mean_cpu_time_within_the_budget() -> None:
    """Real clock, whole rounds: the mean CPU time per decision stays near the budget
    however the bank moved it between decisions (forced ones spend almost nothing)."""
    warm = ISMCTSBot(seed=0, time_budget=0.002)
    play_round(Game(RuleSet(), 2, seed=1), [warm, HeuristicBot(1)])  # load the kernels
    bot = ISMCTSBot(seed=1, time_budget=0.004)
    for seed in range(4):
        play_round(Game(RuleSet(), 2, seed=10 + seed), [bot, HeuristicBot(seed)])
    s = bot.stats()
    assert s["searches"] > 0
    assert s["cpu_ms_per_decision"] <= 4.0 * 1.15
    assert bot.cpu <= 0.004 * bot.decisions + 0.002


def test_a_search_settles_when_every_rival_trails_the_prior() -> None:
    from unokit.bots.ismcts import _settled

    worlds = 100
    # rival 1 trails by mean -0.2 with sd about 0.4 (se 0.04): settled at z=2
    sums, sq = [0.0, -20.0, 0.0], [0.0, 20.0, 0.0]
    assert _settled(0, sums, sq, worlds, 2.0)
    # a rival ahead of the prior, or only a little behind, is not settled
    assert not _settled(0, [0.0, 1.0], [0.0, 20.0], worlds, 2.0)
    assert not _settled(0, [0.0, -2.0], [0.0, 20.0], worlds, 2.0)
    # the prior is any index; a rival identical to it (no differences) is settled
    assert _settled(2, [-20.0, 0.0, 0.0], [20.0, 0.0, 0.0], worlds, 2.0)


def test_settled_searches_stop_early_and_bank_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clear decision stops short of its budget with ``settle``; without, it does not.

    The CPU clock is one millisecond per look, as in the test above: with the real
    clock the two searches ran at different moments, and this machine's speed drifts
    by up to half between them, so the full search sometimes bought fewer rollouts."""
    import time as time_mod

    cpu = [0.0]

    def thread_time() -> float:
        cpu[0] += 0.001
        return cpu[0]

    monkeypatch.setattr(time_mod, "thread_time", thread_time)
    warm = ISMCTSBot(seed=0, time_budget=0.002)
    play_round(Game(RuleSet(), 2, seed=1), [warm, HeuristicBot(1)])  # load the kernels
    g = Game(RuleSet(), 2, seed=5)
    heuristics = [HeuristicBot(1), HeuristicBot(2)]
    found = 0
    while not g.round_over and found < 2:
        view = view_of(g, g.current)
        bot = ISMCTSBot(seed=1, time_budget=0.03, bank=0, settle=2)
        bot.act(view)
        if bot.settled:
            found += 1
            full = ISMCTSBot(seed=1, time_budget=0.03, bank=0, settle=0)
            full.act(view)
            assert full.settled == 0 and full.cpu >= 0.03
            assert bot.rollouts < full.rollouts and bot.cpu < full.cpu  # stopped early
        step(g, heuristics)
    assert found


def test_stats_report_rollouts_per_decision() -> None:
    bot = ISMCTSBot(seed=2, iterations=40)
    g = Game(RuleSet(), 2, seed=4)
    play_round(g, [bot, RandomBot(5)])
    s = bot.stats()
    assert s["decisions"] >= s["searches"] > 0
    assert s["rollouts"] >= 40 * s["searches"]
    assert s["rollouts_per_decision"] == s["rollouts"] / s["decisions"]


def _compiled() -> object:
    return pytest.importorskip("unokit.compiled.kernel")


def test_a_sampled_world_converts_to_the_compiled_state_exactly() -> None:
    _compiled()
    from unokit import compiled

    for seed in range(8):
        rules = from_preset(("classic", "party", "mattel-2018", "seed-001-house")[seed % 4])
        g = Game(rules, 2 + seed % 4, seed=seed, events=False)
        for _ in range(seed * 3):
            if g.round_over:
                break
            step(g, [RandomBot(i) for i in range(g.n)])
        assert compiled.state_json(compiled.state_from_game(g), rules) == g.state_json()


@pytest.mark.parametrize("players", [2, 4])
def test_compiled_rollouts_play_like_python_rollouts(players: int) -> None:
    """Same world, same rule-based policy: the win rates agree within 99% intervals."""
    _compiled()
    import math

    import numpy as np

    from unokit import compiled
    from unokit.engine.actions import DRAW

    kern = compiled.load_kernel()
    rules = RuleSet()
    r_arr = compiled.rules_array(rules, players, rounds_only=True, reactive=False)
    for seed in (1, 2):
        g = Game(rules, players, seed=seed, events=False)
        seat = g.current
        st = compiled.state_from_game(g)
        acts = np.array([[DRAW, -1, -1, -1, 0]], dtype=np.int64)
        out = np.zeros(1)
        n = 1500
        fast = []
        for i in range(n):
            kern.search_world(st, r_arr, np.uint64(i * 7919 + seed), seat, acts, 2000, 0, out)
            fast.append(out[0])
        rng = random.Random(seed)
        slow = []
        for i in range(n):
            c = g.copy(rng=random.Random(i))
            c.draw(seat)
            slow.append(rollout(c, seat, rng, 2000, policy=1))
        a, b = sum(fast) / n, sum(slow) / n
        assert abs(a - b) <= 2.576 * math.sqrt(a * (1 - a) / n + b * (1 - b) / n) + 1e-9


@pytest.mark.parametrize("compiled_rollouts", [False, True])
def test_ismcts_with_either_rollouts_plays_legally(compiled_rollouts: bool) -> None:
    if compiled_rollouts:
        _compiled()
    for preset in ("classic", "two-player", "my-first-uno", "attack"):
        n = 3
        g = Game(from_preset(preset, {"target_score": 1}), n, seed=11)
        bot = ISMCTSBot(seed=1, iterations=30, compiled=compiled_rollouts)
        play_round(g, [bot, RandomBot(2), HeuristicBot(seed=3)])
        assert g.round_over and bot.rollouts > 0


@pytest.mark.parametrize("layered", [False, True])
def test_compiled_deals_match_the_python_sampler(layered: bool) -> None:
    """The compiled sampler deals what ``_sample`` deals: sizes, known cards, voids, and
    the same colour counts per seat on average; with ``layered_voids`` a void bars
    only the cards drawn before it, by default every card but the free ones."""
    _compiled()
    import numpy as np

    from unokit import compiled
    from unokit.cards import CARD_COLOR
    from unokit.compiled import kernel as k
    from unokit.compiled import search

    g = Game(RuleSet(), 3, seed=21)
    seat = g.current
    view = view_of(g, seat)
    bot = ISMCTSBot(seed=4, layered_voids=layered)
    bot._remember(view)
    a, b = (seat + 1) % 3, (seat + 2) % 3
    hidden_a = g.hands[a]
    bot.known[a] = __import__("collections").Counter(hidden_a[:2])  # two known cards
    # b held no red (1 drawn since), no yellow and no 7
    bot.voids[b] = {0: 1, 1: 0, RANK_VOID + 7: 0}
    world, pool, need, banned, free, vseats = bot._sample_spec(view)
    st0 = compiled.state_from_game(world)
    rng = np.zeros(search.RNG_SIZE, dtype=np.int64)
    rng[-1] = 12345
    base = st0.copy()
    work = np.empty(len(pool), dtype=np.int64)
    hidden = sorted(pool + list(hidden_a[:2]))
    tally_c = np.zeros((3, 5))
    tally_p = np.zeros((3, 5))
    reds = {"compiled": 0, "python": 0}
    trials = 400
    for _ in range(trials):
        search.deal_world(base, st0, rng, np.array(pool, dtype=np.int64), work,
                          np.array(need, dtype=np.int64), banned,
                          np.array(free, dtype=np.int64),
                          np.array(vseats, dtype=np.int64))  # fmt: skip
        hands = [
            list(base[k.O_HANDS + s * k.HCAP : k.O_HANDS + s * k.HCAP + base[k.O_HS + s]])
            for s in range(3)
        ]
        pile = list(base[k.O_PILE : k.O_PILE + base[k.S_NPILE]])
        assert [len(h) for h in hands] == list(view.hand_sizes)
        assert hands[seat] == list(view.hand)
        assert sorted(hands[a] + hands[b] + pile) == hidden
        assert all(hands[a].count(c) >= hidden_a[:2].count(c) for c in hidden_a[:2])
        assert sum(CARD_COLOR[c] in (0, 1) or c % 13 == 7 for c in hands[b] if c < 52) <= 1
        reds["compiled"] += any(CARD_COLOR[c] == 0 for c in hands[b])
        for s in range(3):
            for c in hands[s]:
                tally_c[s, CARD_COLOR[c]] += 1
        w = bot._sample(view)
        assert sum(CARD_COLOR[c] in (0, 1) or c % 13 == 7 for c in w.hands[b] if c < 52) <= 1
        reds["python"] += any(CARD_COLOR[c] == 0 for c in w.hands[b])
        for s in range(3):
            for c in w.hands[s]:
                tally_p[s, CARD_COLOR[c]] += 1
    assert np.abs(tally_c - tally_p).max() / trials < 0.35
    if layered:  # the card b drew after its red void may be red, in both samplers
        assert reds["compiled"] > trials / 20 and reds["python"] > trials / 20
        assert abs(reds["compiled"] - reds["python"]) < trials / 10
    else:  # barred, as yellow is, from the whole hand
        assert reds["compiled"] == reds["python"] == 0


@pytest.mark.parametrize("policy", [1, 2])
def test_compiled_search_policies_play_legally(policy: int) -> None:
    _compiled()
    for preset in ("classic", "two-player", "attack"):
        for n in (2, 4):
            g = Game(from_preset(preset, {"target_score": 1}), n, seed=n + 3)
            bot = ISMCTSBot(seed=1, iterations=40, policy=policy)
            play_round(g, [bot, *(HeuristicBot(seed=s) for s in range(n - 1))])
            assert g.round_over and bot.rollouts > 0


def _wd4(victim: list[str], bluff: bool = True) -> Game:
    """Seat 0 (8 cards, red among them when ``bluff``) has just played a W+4 on seat 1."""
    from test_bots import position
    from unokit.cards import parse_card

    first = "R1" if bluff else "Y1"
    game = position([[first, "G1", "G2", "G3", "G4", "B5", "B6", "B7", "W+4"], victim], "R5")
    game.play(0, parse_card("W+4"), color=2)
    return game


def test_ismcts_challenges_a_wd4_only_when_a_bluff_is_likely() -> None:
    """R-ACT-WD4, R-ACT-CHALLENGE with ``bluff_far``: a sensible player bluffs a W+4 only
    to stop a hand about to go out, so against a longer hand the bot accepts where the
    heuristic's even prior challenges; at 2 cards, or once that player was caught
    bluffing a longer hand, it challenges as the heuristic does.  By default
    (``bluff_far=None``) it answers as the heuristic."""
    from unokit.engine.actions import ACCEPT, CHALLENGE
    from unokit.engine.game import Event

    def answers(victim: list[str], bot: ISMCTSBot | None = None) -> tuple[int, int]:
        view = view_of(_wd4(victim), 1)
        bot = bot or ISMCTSBot(seed=1, iterations=40, bluff_far=0.02)
        return HeuristicBot(seed=1).act(view).kind, bot.act(view).kind

    assert answers(["B1", "B2", "Y3", "Y4", "G5"]) == (CHALLENGE, ACCEPT)
    plain = ISMCTSBot(seed=1, iterations=40)
    assert answers(["B1", "B2", "Y3", "Y4", "G5"], plain) == (CHALLENGE, CHALLENGE)
    assert answers(["B1", "B2"]) == (CHALLENGE, CHALLENGE)
    caught = ISMCTSBot(seed=1, iterations=40, bluff_far=0.02)
    caught.observe([Event("deal", 1, amount=6), Event("challenge", 1, target=0, amount=1)])
    assert answers(["B1", "B2", "Y3", "Y4", "G5"], caught) == (CHALLENGE, CHALLENGE)
    close = ISMCTSBot(seed=1, iterations=40, bluff_far=0.02)  # a bluff at 2 cards: no news
    close.observe([Event("deal", 1, amount=2), Event("challenge", 1, target=0, amount=1)])
    assert answers(["B1", "B2", "Y3", "Y4", "G5"], close) == (CHALLENGE, ACCEPT)


@pytest.mark.parametrize("bluff", [True, False])
@pytest.mark.parametrize("chal", [1, 0])
def test_heuristic_rollouts_challenge_exactly_the_bluffs(bluff: bool, chal: int) -> None:
    """A rollout that never challenged would make a bluffed W+4 free for the search
    (``rollout_challenges=False`` keeps that, for comparison)."""
    _compiled()

    from unokit import compiled
    from unokit.cards import build_deck
    from unokit.compiled import kernel, search

    rules = RuleSet()
    game = _wd4(["B1", "B2", "Y3", "Y4", "G5"], bluff=bluff)
    st = compiled.state_from_game(game)
    r_arr = compiled.rules_array(rules, 2, rounds_only=True, reactive=False)
    args = search.rollout_scratch(search.deck_colours(build_deck(rules.deck)))
    search.heur_rollout(st, r_arr, 1, 1, *args, chal)  # one step: seat 1 answers
    player, victim = int(st[kernel.O_HS]), int(st[kernel.O_HS + 1])
    assert (player, victim) == ((12, 5) if bluff and chal else (8, 9))


def test_rollouts_can_answer_a_wd4_as_the_heuristic_does() -> None:
    """``rollout_challenges=2``: a rollout player answers a W+4 by the heuristic's own
    rule, which challenges most legal ones too (it lets sensible opponents be as
    challenge-happy in the search as they are at the table).  R-ACT-CHALLENGE: in
    heuristic games, wherever the answering bot had read no void of the W+4 player in
    the replaced colour, the compiled rule gives the heuristic's answer."""
    _compiled()

    from unokit import compiled
    from unokit.cards import build_deck
    from unokit.compiled import search
    from unokit.engine.actions import CHALLENGE, Action
    from unokit.engine.game import P_CHALLENGE
    from unokit.engine.view import View

    _, _, deck_col, cnt, unseen, _ = search.rollout_scratch(
        search.deck_colours(build_deck(RuleSet().deck))
    )
    seen: list[tuple[bool, bool]] = []

    class Answerer(HeuristicBot):
        game: Game

        def act(self, view: View) -> Action:
            a = super().act(view)
            if view.phase == P_CHALLENGE and self.lack[view.wd4_by][view.prev_color] == 0:
                st = compiled.state_from_game(self.game)
                cnt[search.C_DN] = -1  # another game's pile may be counted there
                rule = search.heur_challenges(st, view.seat, deck_col, cnt, unseen)
                seen.append((bool(rule), a.kind == CHALLENGE))
            return a

    for players in (2, 4):
        for d in range(30):
            game = Game(RuleSet(), players, seed=7000 + d, events=False)
            bots = [Answerer(seed=d * 8 + s) for s in range(players)]
            for b in bots:
                b.game = game
            play_round(game, bots)
    assert len(seen) >= 20
    assert {h for _, h in seen} == {True, False}  # both answers occur
    assert [r for r, _ in seen] == [h for _, h in seen]


@pytest.mark.parametrize("players", [2, 4])
def test_a_rollout_ends_the_same_however_its_counts_are_kept(players: int) -> None:
    """Compiled rollouts keep the discard pile's colour counts from turn to turn and copy
    only the live parts of a state (issue 16, ninth pass: 1.3 to 1.8 times the rollouts
    a CPU second).  So a rollout played in one call (counts kept) must end exactly as
    the same rollout played one turn a call (each call counts afresh) from a copy whose
    unused parts are garbage: the same final state and value, through reshuffles
    (R-DRAW-RESHUFFLE), under the classic rules and under ``wd4_guilty="retract"``
    (R-ACT-CHALLENGE), whose caught W+4 leaves the discard pile."""
    _compiled()
    import numpy as np

    from unokit import compiled
    from unokit.cards import build_deck
    from unokit.compiled import kernel, search

    def live(st: np.ndarray) -> list[int]:
        out = np.zeros_like(st)
        search.copy_live(out, st)
        return list(out.tolist())

    deck_col = search.deck_colours(build_deck(RuleSet().deck))
    reshuffles = 0
    for rules in (RuleSet(), RuleSet(wd4_guilty="retract")):
        r_arr = compiled.rules_array(rules, players, rounds_only=True, reactive=False)
        shared = search.rollout_scratch(deck_col)
        for seed in range(12):
            g = Game(rules, players, seed=seed, events=False)
            for _ in range(seed % 5):
                step(g, [HeuristicBot(s) for s in range(players)])
            if seed % 2:  # a short draw pile: the rest under the discard pile's top
                g.discard[:-1] += g.pile[: -4 - seed]
                del g.pile[: -4 - seed]
            st0 = compiled.state_from_game(g)
            st0[kernel.S_LOGON] = 0
            for r in range(5):
                st0[kernel.S_RNG] = 1 + 977 * r + seed
                whole = st0.copy()  # its scratch is shared, as the search shares it
                value = search.heur_rollout(whole, r_arr, 0, 100_000, *shared, 2)
                turns = np.full_like(st0, -7)
                search.copy_live(turns, st0)
                args = search.rollout_scratch(deck_col)
                value_t = -1.0
                for _ in range(100_000):
                    if turns[kernel.S_PHASE] >= kernel.P_ROUND_OVER:
                        break
                    value_t = search.heur_rollout(turns, r_arr, 0, 1, *args, 2)
                assert value_t == value and live(turns) == live(whole), (seed, r)
                reshuffles += int(whole[kernel.S_RESH] > st0[kernel.S_RESH])
    assert reshuffles >= 5


def test_worlds_are_weighed_by_how_likely_they_make_the_opponents_last_play() -> None:
    """Seat 1, with 2 cards, played R5 on R3.  A world where it also held R+2 (R+2 then
    R5 would have won at once) makes that play unlikely; one where its other card was
    B9 (R5 its only sensible play) makes it likely.  The bot rebuilds the moment from
    its own events."""
    _compiled()
    import numpy as np

    from unokit import compiled
    from unokit.cards import build_deck, parse_card
    from unokit.compiled import search
    from unokit.engine.actions import Action

    game = position(RuleSet(), hands=[["G1", "G2", "Y3"], ["R5", "B9"]], discard=["R3"],
                    current=1, seed=1)  # fmt: skip
    bot = ISMCTSBot(seed=1, iterations=40, infer=0.1)
    bot._remember(view_of(game, 0))
    mark = len(game.events or [])
    game.apply(1, Action.play(parse_card("R5"), uno=True))
    bot.observe(game.events_for(0, mark))
    view = view_of(game, 0)
    inf = bot._inference(view)
    r5, red = parse_card("R5"), 0
    assert inf == [1, 1, r5, red, 1, 1, 1, r5, 3, 2]

    rules = compiled.rules_array(RuleSet(), 2, rounds_only=True, reactive=False)
    scratch = search.rollout_scratch(search.deck_colours(build_deck(RuleSet().deck)))

    def weight(other: str) -> float:
        world = game.copy()
        world.hands[1] = [parse_card(other)]
        st = compiled.state_from_game(world)
        buf, _, deck_col, cnt, unseen, sc = scratch
        return float(
            search.world_weight(
                st, rules, np.array(inf, dtype=np.int64), 0.1, 0.25, st.copy(),
                buf, deck_col, cnt, unseen, sc,
            )
        )  # fmt: skip

    assert weight("B9") > 0.9
    assert weight("R+2") < 0.3


@pytest.mark.parametrize("players", [2, 4])
def test_sure_voids_hold_against_sensible_players(players: int) -> None:
    """Every void the bot reads with no card drawn since (a turn draw; a W+4 against a
    hand of more than 2 cards) is really absent from that hand in ``heuristic`` games
    whenever the bot decides,
    and the drawn-card count of every void bounds the cards of that colour; the fourth
    pass's reading (``sure_voids=False``) left one card open after every turn draw."""
    from unokit.cards import CARD_COLOR

    sure = {True: 0, False: 0}
    for seed in range(10):
        g = Game(RuleSet(), players, seed=seed, events=True)
        bots = [HeuristicBot(s) for s in range(players)]
        readers = {v: ISMCTSBot(seed=0, iterations=1, sure_voids=v) for v in (True, False)}
        mark = 0
        while not g.round_over:
            for b in readers.values():
                b._remember(view_of(g, 0))
            step(g, bots)
            events = g.events_for(0, mark)
            mark = len(g.events or [])
            for v, b in readers.items():
                b.observe(events)
                if g.current != 0:
                    continue  # checked where seat 0 samples: at its own decisions
                for seat, voids in b.voids.items():
                    for col, since in voids.items():
                        if col < 5:
                            held = sum(CARD_COLOR[c] == col for c in g.hands[seat])
                        else:  # a rank: RANK_VOID + rank
                            held = sum(c < 52 and c % 13 == col - 5 for c in g.hands[seat])
                        assert held <= since, (seed, seat, col, since, g.hands[seat])
                        sure[v] += since == 0
    assert sure[True] > 2 * sure[False] > 0


def _dealable(hand: list[int], voids: dict[int, int]) -> bool:
    """Whether the samplers can deal ``hand`` under ``voids``: a card barred by a void
    with ``since`` cards drawn after it must be among the ``since`` newest cards, so
    for every ``k`` at most ``k`` cards may be barred by voids with ``since <= k``."""
    from unokit.cards import CARD_COLOR

    def cap(c: int) -> int:
        keys = [CARD_COLOR[c]] + ([RANK_VOID + c % 13] if c < 52 else [])
        return min([voids[k] for k in keys if k in voids], default=len(hand))

    return all(c >= i + 1 for i, c in enumerate(sorted(cap(c) for c in hand)))


@pytest.mark.parametrize("players", [2, 4])
def test_layered_voids_can_deal_the_real_hands(players: int) -> None:
    """With ``layered_voids`` the samplers bar a void's colour or rank only from the
    cards drawn before it, so every real hand of a ``heuristic`` player is one they
    can deal when the bot decides, and every hand they deal obeys the same rule.  By
    default every void bars all but the fewest cards drawn since any of them, which
    leaves real hands out (measured stronger all the same, docs/bots.md)."""
    _compiled()
    out_before = real = dealt_out = 0
    for seed in range(10):
        g = Game(RuleSet(), players, seed=seed, events=True)
        bots = [HeuristicBot(s) for s in range(players)]
        bot = ISMCTSBot(seed=seed, iterations=1, layered_voids=True)
        mark = 0
        while not g.round_over:
            bot._remember(view_of(g, 0))
            step(g, bots)
            events = g.events_for(0, mark)
            mark = len(g.events or [])
            bot.observe(events)
            if g.current != 0 or g.round_over:
                continue
            view = view_of(g, 0)
            bot._remember(view)
            world = bot._sample(view)
            for seat, voids in bot.voids.items():
                if seat == 0 or not voids:
                    continue
                real += 1
                assert _dealable(g.hands[seat], voids), (seed, seat, voids, g.hands[seat])
                assert _dealable(world.hands[seat], voids), (seed, seat, voids)
                # the fifth pass: every void with fewer cards drawn since than the
                # hand holds barred all but its ``free`` cards
                bars = {k for k, since in voids.items() if since < len(g.hands[seat])}
                free = min(voids.values())

                def old_rule_bars(hand: list[int]) -> bool:
                    return sum(_banned(c, bars) for c in hand) > free  # noqa: B023

                if old_rule_bars(g.hands[seat]):
                    out_before += 1
                    worlds = [bot._sample(view).hands[seat] for _ in range(5)]
                    dealt_out += sum(old_rule_bars(h) for h in worlds)
    assert real > 100 and out_before > real / 20
    assert dealt_out > out_before  # more than one in five of the worlds, where it matters


def test_tilt_weighs_a_world_by_its_opponents_hands() -> None:
    """A sampled world's weight is exp(TILT . features) of the other seats' hands:
    Skip/Reverse/Draw Two cards, the colour in force held, the top's rank held in
    another colour, cards of the colour in force, wilds (the fifth pass's fit)."""
    _compiled()
    import math

    import numpy as np

    from unokit import compiled
    from unokit.bots.ismcts import TILT
    from unokit.compiled import search

    tilt = np.array([TILT] * 3, dtype=np.float64)
    f = np.zeros(search.TILT_FEATURES)

    def weight(other: list[str]) -> float:
        # red in force, a 3 on top
        game = position(RuleSet(), hands=[["G1"], other], discard=["R3"], events=False)
        st = compiled.state_from_game(game)
        return float(search.tilt_weight(st, 0, tilt, f))

    assert weight(["G5"]) == pytest.approx(1.0)  # nothing the fit weighs
    # R+2: an action card, the colour in force held once; B3: the top's rank; W: a wild
    expected = math.exp(TILT[0] + TILT[1] + TILT[3] + TILT[2] + TILT[4])
    assert weight(["R+2", "B3", "W", "G5"]) == pytest.approx(expected)
    assert weight(["R+2", "B3", "W", "G5"]) < weight(["G5", "G6", "Y7", "B8"]) == 1.0


def test_tilt_rows_follow_the_direction_of_play() -> None:
    """With more than two live players each other hand is weighed by its own row:
    the next seat to play, the seats in between, the seat that played just before
    (who set the colour in force); a Reverse swaps the next and the previous seat,
    and an eliminated seat is skipped."""
    _compiled()
    import math

    import numpy as np

    from unokit import compiled
    from unokit.compiled import search

    # only "holds the colour in force" counts, by a different weight in each row
    tilt = np.zeros((3, search.TILT_FEATURES))
    tilt[:, 1] = (1.0, 10.0, 100.0)
    f = np.zeros(search.TILT_FEATURES)
    out_rules = RuleSet(scoring="elimination")

    def log_weight(direction: int, red: set[int], out: int = -1) -> float:
        # seat 0 is the bot, a red 3 on top; seats in ``red`` hold red, the others green
        others = [[] if s == out else ["R5" if s in red else "G5"] for s in (1, 2, 3)]
        game = position(
            out_rules if out >= 0 else RuleSet(),
            hands=[["G1"], *others],
            discard=["R3"],
            direction=direction,
            live=[s != out for s in range(4)] if out >= 0 else None,
            events=False,
        )
        st = compiled.state_from_game(game)
        return math.log(float(search.tilt_weight(st, 0, tilt, f)))

    assert log_weight(1, {1}) == pytest.approx(1.0)  # seat 1 plays next
    assert log_weight(1, {3}) == pytest.approx(100.0)  # seat 3 played just before
    assert log_weight(-1, {1}) == pytest.approx(100.0)  # reversed: seat 1 played before
    assert log_weight(-1, {2, 3}) == pytest.approx(11.0)
    # seat 1 is out: seat 2 plays next (not "in between"), seat 3 played just before
    assert log_weight(1, {2}, out=1) == pytest.approx(1.0)
    assert log_weight(1, {2, 3}, out=1) == pytest.approx(101.0)


def test_tilt_with_more_than_two_players_only_when_asked() -> None:
    """``TILT`` is fitted on two-player games and used there; ``TILT_MANY``, fitted on
    four-player ones, measured no better there, so the default four-player bot plays
    exactly as ``tilt=False`` (the same rounds, move for move) and ``tilt_many=True``
    plays differently somewhere."""
    _compiled()
    from unokit.bots.ismcts import TILT_MANY

    assert any(any(row) for row in TILT_MANY)

    def moves(players: int, seed: int, tilt: bool, **options: bool) -> list[object]:
        g = Game(RuleSet(), players, seed=seed, events=True)
        bots: list[object] = [ISMCTSBot(seed=3, iterations=120, tilt=tilt, **options)]
        bots += [HeuristicBot(s) for s in range(1, players)]
        play_round(g, bots)  # type: ignore[arg-type]
        return list(g.events or [])

    assert all(moves(4, s, True) == moves(4, s, False) for s in range(2))
    assert any(moves(4, s, True, tilt_many=True) != moves(4, s, False) for s in range(8))
    assert any(moves(2, s, True) != moves(2, s, False) for s in range(6))


def _round_events(players: int, seed: int, **options: float) -> list[object]:
    """The events of a round with one ``ismcts`` (120 rollouts a decision, ``options``)
    in seat 0 and ``heuristic`` bots in the others: equal lists, the same play."""
    g = Game(RuleSet(), players, seed=seed, events=True)
    bots: list[object] = [ISMCTSBot(seed=3, iterations=120, **options)]
    bots += [HeuristicBot(s) for s in range(1, players)]
    play_round(g, bots)  # type: ignore[arg-type]
    return list(g.events or [])


def test_margin_many_is_the_margin_with_three_or_more_live_players() -> None:
    """``margin_many`` replaces ``margin`` when more than two players are live (the
    seventh pass measured four-player tables with a lower margin) and only then: a
    two-player round ignores it, a four-player round ignores ``margin`` once it is
    set, and a four-player round plays differently when it changes."""
    _compiled()
    moves = _round_events
    assert all(moves(2, s, margin_many=0.2) == moves(2, s, margin_many=5.0) for s in range(2))
    assert all(
        moves(4, s, margin=0.2, margin_many=1.0) == moves(4, s, margin=5.0, margin_many=1.0)
        for s in range(2)
    )
    assert any(moves(4, s, margin_many=0.2) != moves(4, s, margin_many=5.0) for s in range(6))


def test_prior_many_changes_the_prior_with_three_or_more_live_players_only() -> None:
    """``prior_many`` (the default) gives the prior the four-player weights
    (``MANY_WEIGHTS``) when more than two players are live, and only then: two-player
    rounds play the same events with it on or off, four-player rounds play differently,
    and the prior holds the four-player weights at a four-player decision and its own
    at a two-player one. (The readings of other players' W+4s use the heuristic's
    ``bluff_when``, which ``MANY_WEIGHTS`` leaves as it is, so no game can show which
    one they read.)"""
    _compiled()
    moves = _round_events
    assert all(moves(2, s, prior_many=False) == moves(2, s) for s in range(2))
    assert any(moves(4, s, prior_many=False) != moves(4, s) for s in range(4))
    g = Game(RuleSet(), 4, seed=5)
    bot = ISMCTSBot(seed=3, iterations=60)  # on by default (docs/bots.md, twelfth pass)
    bot.act(view_of(g, g.current))
    assert bot.prior.w == MANY_WEIGHTS != Weights()
    assert bot._w_two == Weights()
    g2 = Game(RuleSet(), 2, seed=5)
    bot.act(view_of(g2, g2.current))
    assert bot.prior.w == Weights()


def test_many_weights_beat_the_heuristic_at_four_player_tables() -> None:
    """The four-player weights, as a player of their own, win more than a quarter of
    four-player tables against three default heuristics (27.1% over 12,000 games in
    docs/bots.md); 60 deals in every seat rotation are enough to see more than 25%
    here, since the default weights win exactly a quarter of any set of deals."""
    from unokit.tournament import deal_seed

    wins = 0
    for deal in range(60):
        s = deal_seed(7, 20000 + deal)
        for hero in range(4):
            bots = [
                HeuristicBot(seed=0, weights=MANY_WEIGHTS) if i == hero else HeuristicBot(seed=i)
                for i in range(4)
            ]
            g = Game(RuleSet(), 4, seed=s, events=False)
            play_round(g, bots)  # type: ignore[arg-type]
            wins += g.round_winner == hero
    assert wins > 60


def test_named_weight_counts_the_named_colour() -> None:
    """A world's weight is exp(named_w * the cards of its named colour) over every
    seat that named one; a seat with no named colour (-1) is not weighed."""
    _compiled()
    import math

    import numpy as np

    from unokit import compiled
    from unokit.compiled import search

    game = position(
        RuleSet(), hands=[["G1"], ["B1", "B+2", "R4", "W"], ["B5", "B6", "B7"]],
        discard=["G3"], events=False,
    )  # fmt: skip
    st = compiled.state_from_game(game)

    def log_weight(named: list[int]) -> float:
        return math.log(float(search.named_weight(st, np.array(named, dtype=np.int64), 0.5)))

    blue = 3
    assert log_weight([-1, -1, -1]) == pytest.approx(0.0)
    assert log_weight([-1, blue, -1]) == pytest.approx(1.0)  # B1, B+2; not the wild
    assert log_weight([-1, blue, blue]) == pytest.approx(2.5)
    assert log_weight([-1, 0, -1]) == pytest.approx(0.5)  # red: R4


def test_named_colours_make_the_worlds_look_like_real_hands() -> None:
    """``heuristic`` names the colour it holds most, so a player who named a colour
    with a wild and has not drawn since holds more of it than the sampler deals; the
    bot remembers each such colour (and forgets it when that player draws), and
    weighing the worlds by ``named`` brings their mean count of it near the real one
    (docs/bots.md, seventh pass)."""
    _compiled()
    import numpy as np

    from unokit import compiled
    from unokit.cards import CARD_COLOR
    from unokit.compiled import search

    true: list[int] = []
    sampled: list[float] = []
    weighed: list[float] = []
    for seed in range(12):
        g = Game(RuleSet(), 4, seed=seed, events=True)
        bots = [HeuristicBot(s) for s in range(4)]
        bot = ISMCTSBot(seed=seed, iterations=1, named=1.07)
        mark = 0
        while not g.round_over:
            bot._remember(view_of(g, 0))
            before = [len(h) for h in g.hands]
            step(g, bots)
            events = g.events_for(0, mark)
            mark = len(g.events or [])
            bot.observe(events)
            for s, n in enumerate(before):
                if len(g.hands[s]) > n:  # drew: its named colour is forgotten
                    assert s not in bot.named
            if g.current != 0 or g.round_over or not bot.named:
                continue
            view = view_of(g, 0)
            bot._remember(view)
            named = np.full(4, -1, dtype=np.int64)
            for s, col in bot.named.items():
                named[s] = col
            worlds = [bot._sample(view) for _ in range(20)]
            w = np.array(
                [search.named_weight(compiled.state_from_game(x), named, 1.07) for x in worlds]
            )
            for s, col in bot.named.items():
                true.append(sum(CARD_COLOR[c] == col for c in g.hands[s]))
                counts = np.array([sum(CARD_COLOR[c] == col for c in x.hands[s]) for x in worlds])
                sampled.append(float(counts.mean()))
                weighed.append(float((w * counts).sum() / w.sum()))
    assert len(true) > 50
    gap_before = abs(np.mean(sampled) - np.mean(true))
    gap_after = abs(np.mean(weighed) - np.mean(true))
    assert np.mean(sampled) < np.mean(true) - 0.2  # the sampler alone deals too few
    assert gap_after < gap_before / 2


def test_warm_up_compiles_the_search_a_front_end_would_wait_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``unokit play`` warms a cold bot in a thread so its first move does not freeze
    the screen: after ``warm_up`` the bot's search is compiled and no longer cold."""
    _compiled()
    from unokit.bots import ismcts

    monkeypatch.setattr(ismcts, "_WARM", set())  # as in a process that has not searched
    bot = ISMCTSBot(seed=3)
    assert bot.cold(RuleSet())
    assert not ISMCTSBot(seed=3, compiled=False).cold(RuleSet())  # Python rollouts: no
    bot.warm_up(RuleSet(), 4)
    assert sorted(ismcts._WARM) == [2] and not bot.cold(RuleSet())
    g = Game(RuleSet(), ["A", "B", "C", "D"], seed=8)
    play_round(g, [bot, RandomBot(seed=1), RandomBot(seed=2), RandomBot(seed=3)])
    assert bot.stats()["jit_s"] == 0.0  # the real game compiled nothing more


# ------------------------------------------------ the learned prior (issue 50) -----
def test_a_learned_base_is_the_answer_the_search_starts_from() -> None:
    """With ``learned`` the search starts from (and, unless overruled, answers) the PPO
    policy's favourite; with ``keep=1`` only actions of a card and target the policy
    weighs at least as much (a wild's colours summed) may rival it: on these seeded
    deals none ever overrules it."""
    from unokit.bots.learned import LearnedBot

    rules = RuleSet()
    checked = differ = 0
    for seed in range(8):
        g = Game(rules, 2, seed=seed, events=False)
        bot = ISMCTSBot(seed=seed, iterations=40, learned=True, keep=1.0)
        policy = LearnedBot(seed=seed)
        heur = HeuristicBot(seed=seed)
        table = [RandomBot(seed), RandomBot(seed + 1)]
        for _ in range(30):
            if g.round_over:
                break
            s = g.current
            v = view_of(g, s)
            if v.phase not in (0, 1):  # play or a drawn card: the policy decides
                step(g, table)
                continue
            want = policy.act(v)
            assert bot.act(v) == want
            differ += want != heur.act(v)
            checked += 1
            step(g, table)
    assert checked > 100
    assert differ > 0  # the policy's answers are not the heuristic's


def test_a_learned_prior_plays_whole_rounds_legally() -> None:
    rules = RuleSet()
    for seed in range(3):
        g = Game(rules, 3, seed=seed, events=True)
        bots = [ISMCTSBot(seed=seed, iterations=60, learned=True, keep=0.05),
                RandomBot(seed), RandomBot(seed + 1)]  # fmt: skip
        play_round(g, bots)
        assert g.round_over and g.round_winner >= 0
