"""Classic fast path and checked path, for comparing two checkouts (issue 47's "speed
within 5%" when the games became siblings under ``engine.family.Game``).

Whole 4-player classic rounds of uniformly random legal moves; prints decisions per
CPU second.  ``fast`` applies on the trusted path (``apply_trusted``, events and record
off, as bots and simulations run); ``checked`` through ``apply`` with events and record
on (as the server and replays run).  Run it against two trees in turn with
``farm-bench`` so the ratio is taken pair by pair::

    cd benchmarks/research
    farm-bench -n 12 --pin 1 --timeout 900 \\
      --vs "sh -c 'PYTHONPATH=/path/to/old/src exec python family_speed.py fast 1500'" \\
      -- sh -c 'PYTHONPATH=../../src exec python family_speed.py fast 1500'

(the same with ``checked 600``).  Results: the note of issue 47 and
docs/benchmarks.md.
"""

from __future__ import annotations

import random
import sys
import time

from unokit.engine import Game
from unokit.rules import RuleSet


def run(checked: bool, rounds: int) -> float:
    """Decisions per CPU second over ``rounds`` rounds (seeded: the same work each run)."""
    rng = random.Random(7)
    rules = RuleSet()
    t0 = time.process_time()
    decisions = 0
    for i in range(rounds):
        g = Game(rules, 4, seed=i, events=checked, record=checked)
        while not g.round_over:
            seats = g.actors()
            if not seats:
                break
            s = g.current if g.current in seats else seats[0]
            acts = g.legal_actions(s)
            a = acts[rng.randrange(len(acts))]
            (g.apply if checked else g.apply_trusted)(s, a)
            decisions += 1
    return decisions / (time.process_time() - t0)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "fast"
    print(f"{run(mode == 'checked', int(sys.argv[2]) if len(sys.argv) > 2 else 1500):.0f}")
