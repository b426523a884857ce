"""Strength benchmark: how often one bot beats another over single rounds.

Each pair ``A:B`` plays ``--games`` single rounds under the official classic rules
(``RuleSet()``).  Games come in duplicate sets: one deal (one ``Game`` seed) is played
once per seat the hero ``A`` can take, with the other seats held by ``B``, so luck of
the deal cancels out (2 players: the same deal with the seats swapped).  The win rate
is ``A``'s share of the rounds it won, with a 95% Wilson interval that treats the
games as independent; the JSON also holds a per-deal (paired) normal interval, which
accounts for the duplication (in practice the two agree closely).  Bot seeds follow the
role, not the seat: each bot keeps its random stream in every seating of a deal.

Timing is per decision: the wall time inside each bot's ``act`` and ``react`` calls
(the table's ``view_of`` is not counted), divided by the number of calls.

    .venv/bin/python benchmarks/bench_bots.py --games 10000 --seed 1 \\
        --pairs heuristic:random,greedy:random,heuristic:greedy --json bench.json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from unokit.bots import BOTS
from unokit.bots.base import Bot
from unokit.bots.runner import play_round
from unokit.engine.game import Game
from unokit.rules import RuleSet
from unokit.tournament import Timed, deal_seed, wilson


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    deal_scores: list[float] = field(default_factory=list)  # A's share per deal
    ns: dict[str, int] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.deal_scores.extend(other.deal_scores)
        for k, v in other.ns.items():
            self.ns[k] = self.ns.get(k, 0) + v
        for k, v in other.calls.items():
            self.calls[k] = self.calls.get(k, 0) + v


def deal_rotations(
    s: int, players: int, hero: Callable[[int], Bot], other: Callable[[int], Bot]
) -> Iterator[tuple[int, Game, list[Bot]]]:
    """Play the deal of seed ``s`` once per seat of the hero; yield each finished round.

    Seeds follow the role, not the seat: the hero's RNG is the same in every seating of
    a deal, and so are the opponents' (in seat order after the hero), so the seatings
    differ only in who sits where and the luck of the deal cancels out.
    """
    rules = RuleSet()
    names = [f"P{i}" for i in range(players)]
    for hero_seat in range(players):
        bots = [
            hero(s * 16) if i == hero_seat else other(s * 16 + 1 + (i - hero_seat) % players)
            for i in range(players)
        ]
        game = Game(rules, names, seed=s, events=False)
        play_round(game, bots)
        yield hero_seat, game, bots


def play_deals(job: tuple[str, str, int, int, int, int]) -> Tally:
    """Play deals ``first`` .. ``last - 1``; each once per seat of the hero."""
    hero, other, players, seed, first, last = job
    out = Tally()
    for deal in range(first, last):
        won = 0
        for hero_seat, game, bots in deal_rotations(
            deal_seed(seed, deal),
            players,
            lambda sd: Timed(BOTS[hero](seed=sd)),
            lambda sd: Timed(BOTS[other](seed=sd)),
        ):
            out.games += 1
            if game.round_winner == hero_seat:
                won += 1
            for i, b in enumerate(bots):
                assert isinstance(b, Timed)
                key = "A" if i == hero_seat else "B"
                out.ns[key] = out.ns.get(key, 0) + b.ns
                out.calls[key] = out.calls.get(key, 0) + b.calls
        out.wins += won
        out.deal_scores.append(won / players)
    return out


def paired_normal(scores: list[float], z: float = 1.96) -> tuple[float, float]:
    m = len(scores)
    if m < 2:
        return (0.0, 1.0)
    mean = sum(scores) / m
    var = sum((x - mean) ** 2 for x in scores) / (m - 1)
    half = z * math.sqrt(var / m)
    return (mean - half, mean + half)


def run_pair(
    hero: str, other: str, games: int, seed: int, players: int, workers: int
) -> dict[str, Any]:
    deals = max(1, games // players)
    chunks = max(1, workers * 8)
    step = -(-deals // chunks)
    jobs = [(hero, other, players, seed, a, min(a + step, deals)) for a in range(0, deals, step)]
    total = Tally()
    t0 = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            for part in pool.imap_unordered(play_deals, jobs):
                total.add(part)
    else:
        for job in jobs:
            total.add(play_deals(job))
    wall = time.perf_counter() - t0
    lo, hi = wilson(total.wins, total.games)
    plo, phi = paired_normal(total.deal_scores)
    return {
        "pair": f"{hero}:{other}",
        "hero": hero,
        "opponent": other,
        "players": players,
        "games": total.games,
        "deals": len(total.deal_scores),
        "wins": total.wins,
        "win_rate": total.wins / total.games,
        "ci95_wilson": [lo, hi],
        "ci95_paired": [plo, phi],
        "baseline": 1 / players,
        "us_per_decision": {
            "hero": total.ns.get("A", 0) / max(1, total.calls.get("A", 0)) / 1000,
            "opponent": total.ns.get("B", 0) / max(1, total.calls.get("B", 0)) / 1000,
        },
        "decisions": {"hero": total.calls.get("A", 0), "opponent": total.calls.get("B", 0)},
        "wall_seconds": wall,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=2000, help="games per pair (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--pairs",
        default="heuristic:random,greedy:random,heuristic:greedy",
        help="comma-separated HERO:OPPONENT pairs",
    )
    ap.add_argument(
        "--players", type=int, default=2, help="seats: the hero plus players-1 opponents"
    )
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)
    pairs: list[tuple[str, str]] = []
    for item in args.pairs.split(","):
        a, sep, b = item.strip().partition(":")
        if not sep or a not in BOTS or b not in BOTS:
            ap.error(f"bad pair {item!r}: use NAME:NAME with names from {', '.join(BOTS)}")
        pairs.append((a, b))
    if not 2 <= args.players <= 10:
        ap.error("--players must be 2..10")
    results = []
    header = (
        f"{'pair':<22}{'players':>8}{'games':>8}{'win rate':>10}{'95% CI (Wilson)':>20}"
        f"{'us/dec hero':>13}{'us/dec opp':>12}"
    )
    print(header)
    print("-" * len(header))
    for hero, other in pairs:
        r = run_pair(hero, other, args.games, args.seed, args.players, args.workers)
        results.append(r)
        lo, hi = r["ci95_wilson"]
        us = r["us_per_decision"]
        print(
            f"{r['pair']:<22}{r['players']:>8}{r['games']:>8}{r['win_rate']:>10.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>20}{us['hero']:>13.1f}{us['opponent']:>12.1f}",
            flush=True,
        )
    if args.json:
        doc = {
            "command": " ".join(sys.argv),
            "rules": "classic (RuleSet()), single rounds",
            "seed": args.seed,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "workers": args.workers,
            "results": results,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
