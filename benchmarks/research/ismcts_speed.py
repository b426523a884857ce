"""Rollouts per CPU second of the search bot, and whether it still plays the same moves.

Plays a few rounds of one ``ismcts`` (a fixed rollout count, so the moves do not
depend on speed) against ``heuristic`` bots, with two and four players, and prints a
hash of each round's events and the rollouts per CPU second of the bot's searches.
With ``--against OTHER/src`` it runs this tree and another source tree at the same
time, one on each core, for ``--pairs`` rounds of runs, and prints the ratio of each
pair: this machine's speed drifts by up to half between minutes, so only runs made at
the same time compare.  Equal hashes say the two trees' bots choose alike.

    python benchmarks/research/ismcts_speed.py
    python benchmarks/research/ismcts_speed.py --against /path/to/old/checkout/src --pairs 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"


def measure(games: int, iterations: int) -> dict[str, Any]:
    """Hash and speed for 2 and 4 players, from the ``unokit`` first on ``sys.path``."""
    from unokit.bots.heuristic import HeuristicBot
    from unokit.bots.ismcts import ISMCTSBot
    from unokit.bots.runner import play_round
    from unokit.engine import Game
    from unokit.rules import RuleSet

    out: dict[str, Any] = {}
    for players in (2, 4):
        h = hashlib.sha256()
        cpu = 0.0
        rollouts = 0
        for d in range(4000, 4000 + games):
            g = Game(RuleSet(), players, seed=d, events=True)
            bot = ISMCTSBot(seed=d, iterations=iterations)
            play_round(g, [bot] + [HeuristicBot(d + s) for s in range(1, players)])
            h.update(repr([(e.kind, e.seat, e.cards, e.color) for e in g.events or []]).encode())
            st = bot.stats()
            cpu += st["cpu_ms_per_decision"] * st["decisions"] / 1000
            rollouts += int(st["rollouts"])
        out[str(players)] = {
            "hash": h.hexdigest()[:16],
            "rollouts": rollouts,
            "per_cpu_s": rollouts / cpu if cpu else 0.0,
        }
    return out


def worker(src: str, core: int, games: int, iterations: int) -> subprocess.Popen[str]:
    cmd = [sys.executable, __file__, "--worker", src, "--games", str(games)]
    cmd += ["--iterations", str(iterations)]
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        cmd = ["taskset", "-c", str(core), *cmd]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--games", type=int, default=4, help="rounds of each size (default 4)")
    p.add_argument("--iterations", type=int, default=1500, help="rollouts a decision")
    p.add_argument("--against", help="another checkout's src directory to compare with")
    p.add_argument("--pairs", type=int, default=3, help="runs of each tree with --against")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        sys.path.insert(0, args.worker)
        print(json.dumps(measure(args.games, args.iterations)))
        return 0
    if not args.against:
        sys.path.insert(0, str(SRC))
        for players, r in measure(args.games, args.iterations).items():
            print(f"{players} players: events {r['hash']}, {r['per_cpu_s']:,.0f} rollouts/CPU s")
        return 0
    if not Path(args.against, "unokit").is_dir():
        p.error(f"--against {args.against}: no unokit package there")
    print("players | this tree (hash, rollouts/CPU s) | --against | ratio")
    for _ in range(args.pairs):
        procs = [worker(str(SRC), 0, args.games, args.iterations)]
        procs.append(worker(args.against, 1, args.games, args.iterations))
        mine, theirs = (json.loads(pr.communicate()[0]) for pr in procs)
        for players in mine:
            a, b = mine[players], theirs[players]
            ratio = a["per_cpu_s"] / b["per_cpu_s"] if b["per_cpu_s"] else 0.0
            print(
                f"{players} | {a['hash']} {a['per_cpu_s']:,.0f} | "
                f"{b['hash']} {b['per_cpu_s']:,.0f} | {ratio:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
