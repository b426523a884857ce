"""Speed of UNO Flip! and No Mercy next to the classic game, on the same generic loop.

Each round is played to its end by a random legal-move player on the trusted path:
``legal_actions`` for the seat to act, a random play if there is one (else a random
turn action: draw, keep, accept, a colour...), ``apply_trusted``.  The classic game
runs the same loop, so the ratio is the price of the new rules, not of the loop
(``bench_engine.py`` times the classic engine's own fast path).  Usage:

    python benchmarks/bench_modern.py --seconds 4
"""

from __future__ import annotations

import argparse
import random
import time

from unokit.engine import CATCH, PLAY, UNO, Game
from unokit.rules import RuleSet, from_preset


def measure(rules: RuleSet, players: int, seconds: float, seed: int) -> tuple[float, float, float]:
    """(rounds per second, microseconds per decision, decisions per round)."""
    rng = random.Random(seed)
    rounds = decisions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = Game(rules, players, seed=seed + rounds, events=False, record=False)
        while not g.round_over:
            seat = g.current
            legal = g.legal_actions(seat)
            plays = [a for a in legal if a.kind == PLAY]
            turn = [a for a in legal if a.kind not in (CATCH, UNO)]
            g.apply_trusted(seat, rng.choice(plays or turn))
            decisions += 1
        rounds += 1
    elapsed = time.perf_counter() - t0
    return rounds / elapsed, elapsed / decisions * 1e6, decisions / rounds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=4.0, help="time per measurement")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    head = ("rules", "players", "rounds/s", "µs/decision", "decisions/round")
    print(f"{head[0]:<10} {head[1]:>7} {head[2]:>9} {head[3]:>12} {head[4]:>16}")
    for name in ("classic", "flip", "no-mercy"):
        for players in (2, 4):
            r, us, d = measure(from_preset(name), players, args.seconds, args.seed)
            print(f"{name:<10} {players:>7} {r:>9.0f} {us:>12.1f} {d:>16.1f}")


if __name__ == "__main__":
    main()
