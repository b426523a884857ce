"""Fixed workloads for counting instructions with callgrind (load-independent).

    valgrind --tool=callgrind python benchmarks/research/callgrind_paths.py engine 300
    valgrind --tool=callgrind python benchmarks/research/callgrind_paths.py rl 40

Run each once with N=0 to measure the import cost and subtract it; point PYTHONPATH at
another checkout's ``src`` to compare two versions (docs/benchmarks.md).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench_engine, bench_rl

from bench_engine import random_round
from bench_rl import pick
from unokit.engine import Game
from unokit.rules import RuleSet


def engine(n: int) -> int:
    """``n`` rounds at 2 and at 4 players on the engine's fast path."""
    rng = random.Random(1)
    decisions = 0
    for players in (2, 4):
        for i in range(n):
            g = Game(RuleSet(), players, seed=i, events=False, record=False)
            decisions += random_round(g, rng)
    return decisions


def rl(n: int) -> int:
    """``n`` episodes of the AEC env with random masked actions; the steps taken."""
    from unokit.rl import uno_v1

    env = uno_v1.env(num_players=2, preset="classic")
    rand = random.Random(1).random
    steps = 0
    env.reset(seed=1)
    for _ in range(n):
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(pick(obs["action_mask"], rand()))
            steps += 1
        env.reset()
    return steps


if __name__ == "__main__":
    which, count = sys.argv[1], int(sys.argv[2])
    print({"engine": engine, "rl": rl}[which](count))
