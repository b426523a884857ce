"""Fit the ``named`` weight of ``ismcts``: a named colour says what a hand holds.

``heuristic`` names the colour it holds most when it plays a wild, so until that
player draws again its hand holds more of that colour than the bot's sampler deals
(the sampler knows only the voids).  This script plays ``heuristic`` against
``heuristic`` and at each play decision of seat 0 records, for every seat whose
named colour the bot remembers (``ISMCTSBot.named``), the cards of that colour in
its true hand and in ``--worlds`` hands dealt by the bot's own sampler.  It fits the
weight ``theta`` of ``exp(theta * cards of the named colour)`` (a conditional logit,
as ``ismcts_tilt.py`` does) on the first half of the hands and prints the means on
the second half: true, as sampled, and as weighed; then the fit on every hand.

    python benchmarks/research/ismcts_named.py --players 4 --games 300 --first 60000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))
sys.path.insert(0, str(HERE))

from ismcts_tilt import decisions, fit, weights  # noqa: E402
from unokit.cards import CARD_COLOR  # noqa: E402


def count(hand: list[int], colour: int) -> float:
    return float(sum(CARD_COLOR[c] == colour for c in hand))


def collect(players: int, games: int, first: int, worlds: int) -> tuple[np.ndarray, np.ndarray]:
    """The true hands' counts of their named colour, and ``worlds`` sampled ones each."""
    true: list[list[float]] = []
    sampled: list[list[list[float]]] = []
    for g, view, reader in decisions(players, games, first):
        if not reader.named:
            continue
        dealt = [reader._sample(view) for _ in range(worlds)]
        for s, colour in reader.named.items():
            true.append([count(g.hands[s], colour)])
            sampled.append([[count(w.hands[s], colour)] for w in dealt])
    return np.array(true), np.array(sampled)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--first", type=int, default=60000)
    p.add_argument("--worlds", type=int, default=20)
    args = p.parse_args()
    true, sampled = collect(args.players, args.games, args.first, args.worlds)
    half = len(true) // 2
    theta = fit(true[:half], sampled[:half])
    w = weights(sampled[half:], theta)
    held_true = true[half:, 0].mean()
    held_sampled = sampled[half:, :, 0].mean()
    held_weighed = np.einsum("nk,nk->n", w, sampled[half:, :, 0]).mean()
    ess = (1.0 / (w**2).sum(axis=1)).mean() / sampled.shape[1]
    print(f"{len(true)} hands with a named colour; theta on the first {half}: {theta[0]:.3f}")
    print(f"held-out half, cards of the named colour: true {held_true:.3f}, "
          f"sampled {held_sampled:.3f}, weighed {held_weighed:.3f}; "
          f"effective share of the worlds {ess:.3f}")  # fmt: skip
    print(f"fitted on every hand: {fit(true, sampled)[0]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
