"""Tune the heuristic's weights as a prior for tables of three or more players.

The heuristic's weights (``unokit.bots.heuristic.Weights``) were tuned in two-player
games against ``random`` (docs/bots.md, "How the weights were chosen").  ``ismcts``
follows its prior at about nine decisions in ten with four players, so a prior that
plays four-player tables better is a stronger bot.  Each candidate here is a
``HeuristicBot`` with some weights changed, in one seat against default ``heuristic``
bots in the others, on the same deals for every candidate, every seat rotation of
each deal (seeds follow the role, as in ``bench_bots.py``).  The default weights read
exactly ``1/players`` on any set of deals (all seats play alike), so a candidate's
gain is its per-deal share minus that, with a paired standard error over deals.

    python benchmarks/research/tune_prior.py --players 4 --deals 3000 --first 0 \\
        "" "conc=1.5" "conc=3" "wild_hold=1,hurry_me=2"
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))
sys.path.insert(0, str(HERE.parent))  # bench_bots

from bench_bots import deal_rotations  # noqa: E402
from unokit.bots.heuristic import HeuristicBot, Weights  # noqa: E402
from unokit.tournament import deal_seed, wilson  # noqa: E402


def parse_weights(spec: str) -> Weights:
    """``"conc=1.5,hurry_me=2"`` on top of the default weights; a clear error if not."""
    fields = {f.name: f.type for f in dataclasses.fields(Weights)}
    changes: dict[str, Any] = {}
    for item in filter(None, (s.strip() for s in spec.split(","))):
        key, sep, raw = (s.strip() for s in item.partition("="))
        if not sep or key not in fields:
            raise SystemExit(f"bad weight {item!r}; known: {', '.join(fields)}")
        kind = fields[key]
        if kind in (bool, "bool"):
            changes[key] = raw.lower() in ("1", "true", "yes", "on")
        else:
            changes[key] = int(raw) if kind in (int, "int") else float(raw)
    return dataclasses.replace(Weights(), **changes)


def play_deals(job: tuple[str, int, int, int, int]) -> tuple[str, list[int]]:
    """Wins of the hero over every seat rotation, one entry per deal."""
    spec, players, seed, first, last = job
    w = parse_weights(spec)
    out = []
    for deal in range(first, last):
        rounds = deal_rotations(
            deal_seed(seed, deal),
            players,
            lambda sd: HeuristicBot(seed=sd, weights=w),
            lambda sd: HeuristicBot(seed=sd),
        )
        out.append(sum(game.round_winner == hero for hero, game, _ in rounds))
    return spec, out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("candidates", nargs="+", help='weights, e.g. "conc=1.5,hurry_me=2"')
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=3000)
    p.add_argument("--first", type=int, default=0, help="the first deal's index")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", type=Path)
    args = p.parse_args()
    for c in args.candidates:
        parse_weights(c)  # refuse a bad spec before any game
    step = max(1, args.deals // 8)
    jobs = [
        (c, args.players, args.seed, a, min(a + step, args.first + args.deals))
        for c in args.candidates
        for a in range(args.first, args.first + args.deals, step)
    ]
    per: dict[str, list[int]] = {c: [] for c in args.candidates}
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for spec, wins in pool.imap(play_deals, jobs):
            per[spec].extend(wins)
    wall = time.perf_counter() - t0
    n = args.players
    rows = []
    print(f"{args.deals} deals x {n} seats, seed {args.seed}, first {args.first}; {wall:.0f} s")
    print(f"{'weights':40} {'wins':>6} {'rate':>7} {'95% CI':>17} {'gain (se), points':>18}")
    for c in args.candidates:
        wins = per[c]
        games = len(wins) * n
        total = sum(wins)
        lo, hi = wilson(total, games)
        shares = [x / n - 1 / n for x in wins]
        mean = sum(shares) / len(shares)
        var = sum((x - mean) ** 2 for x in shares) / max(len(shares) - 1, 1)
        se = math.sqrt(var / len(shares))
        rows.append(
            {"weights": c, "games": games, "wins": total, "ci95": [lo, hi], "gain": mean, "se": se}
        )
        print(
            f"{c or '(default)':40} {total:6d} {100 * total / games:6.2f}% "
            f"[{100 * lo:5.2f}, {100 * hi:5.2f}] {100 * mean:+8.2f} ({100 * se:.2f})"
        )
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": None}, "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
