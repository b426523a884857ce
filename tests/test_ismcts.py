"""The search bot: legal under every rule set, and it never peeks at hidden cards."""

from __future__ import annotations

import random

import pytest

from test_properties import assert_no_leak
from unokit.bots import ISMCTSBot, RandomBot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import rollout
from unokit.bots.runner import play_round, step
from unokit.engine import Game, view_of
from unokit.rules import PRESETS, RuleSet, from_preset


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
