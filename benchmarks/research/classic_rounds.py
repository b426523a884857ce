"""Play N classic single rounds with the speed benchmark's policy: a fixed workload.

Run it under ``valgrind --tool=callgrind`` against two checkouts (``PYTHONPATH=.../src``)
to compare the engines by instructions, which, unlike wall time on a shared machine, do
not move between runs (docs/benchmarks.md).  Usage: ``classic_rounds.py ROUNDS [PLAYERS]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench_engine

from bench_engine import random_round
from unokit.engine import Game
from unokit.rules import RuleSet


def main() -> int:
    rounds = int(sys.argv[1])
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    game = Game(RuleSet(target_score=10**6), players, seed=0, dealer=0, events=False,
                record=False)  # fmt: skip
    rng = random.Random(0)
    decisions = 0
    for _ in range(rounds):
        decisions += random_round(game, rng)
        game.start_round()
    print(decisions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
