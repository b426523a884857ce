"""The vector environment's speed on UNO Show 'Em No Mercy beside classic UNO's.

Agent steps per second at ``num_envs`` 1,024 (``--sizes``), in one process (one core),
as ``bench_vector.py`` measures classic: ``UnoVectorEnv.step`` with uniformly random
legal actions drawn by ``ActionSampler`` (its time counted), 2 and 4 players; and
``UnoVectorGymEnv.step`` against random opponents (learner steps; the opponents'
decisions in between are the env's work).  The games alternate (``--repeats``) and
the best of each is reported, with the ratio of No Mercy to classic (issue 50's goal:
at least 1,000,000 agent steps/s/core).

    python benchmarks/bench_vector_nm.py --seconds 3 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_vector import GOAL_STEPS, best, measure_gym, measure_selfplay  # noqa: E402

GAMES = ("classic", "no-mercy")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    p.add_argument("--repeats", type=int, default=2, help="alternations of the games")
    p.add_argument("--sizes", type=int, nargs="+", default=[1024], help="num_envs values")
    p.add_argument("--no-gym", action="store_true", help="self-play only")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, help="write all measurements to this file")
    args = p.parse_args()

    rows: list[dict[str, Any]] = []
    for rep in range(args.repeats):
        seed = args.seed + rep
        for size in args.sizes:
            for players in (2, 4):
                for game in GAMES:
                    rows.append(measure_selfplay(game, players, size, args.seconds, seed))
                    r = rows[-1]
                    print(f"{r['system']} {players}p num_envs={size}: "
                          f"{r['steps_per_s']:,.0f} steps/s", file=sys.stderr)  # fmt: skip
            if not args.no_gym:
                for game in GAMES:
                    rows.append(measure_gym(game, 2, "random", size, args.seconds, seed))
                    r = rows[-1]
                    print(f"{r['system']} 2p num_envs={size}: "
                          f"{r['steps_per_s']:,.0f} steps/s", file=sys.stderr)  # fmt: skip

    print(f"\n{'system':<34} {'players':>7} {'num_envs':>8} {'steps/s':>12} {'µs/step':>8} "
          f"{'steps/CPU-s':>12} {'episodes':>9} {'÷ classic':>9}")  # fmt: skip
    seen = set()
    for r in rows:
        key = (r["system"], r["players"], r["num_envs"])
        if key in seen:
            continue
        seen.add(key)
        b = best(rows, system=r["system"], players=r["players"], num_envs=r["num_envs"])
        assert b is not None
        ratio = ""
        if "no-mercy" in b["system"]:
            c = best(rows, system=b["system"].replace("no-mercy", "classic"),
                     players=b["players"], num_envs=b["num_envs"])  # fmt: skip
            if c:
                ratio = f"{b['steps_per_s'] / c['steps_per_s']:.2f}"
        print(
            f"{b['system']:<34} {b['players']:>7} {b['num_envs']:>8} {b['steps_per_s']:>12,.0f} "
            f"{b['us_per_step']:>8.3f} {b['steps_per_cpu_s']:>12,.0f} {b['episodes']:>9} "
            f"{ratio:>9}"
        )
    print()
    for players in (2, 4):
        nm = best(rows, system="vector-selfplay/no-mercy", players=players)
        if nm:
            met = "met" if nm["steps_per_s"] >= GOAL_STEPS else "NOT met"
            print(
                f"vector-selfplay/no-mercy {players}p, one process: {nm['steps_per_s']:,.0f} "
                f"agent steps/s at num_envs={nm['num_envs']} (goal {GOAL_STEPS:,}: {met})"
            )
    if args.json:
        args.json.write_text(json.dumps({"rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
