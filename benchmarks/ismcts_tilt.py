"""Fit ``ismcts.TILT``: how sampled worlds should be weighed to look like real hands.

``ISMCTSBot`` samples the hidden cards uniformly, within what its seat knows (voids,
known cards).  Sensible players' hands are not uniform: they shed Skip/Reverse/Draw
Two cards early (another turn with two players), and the colour they leave in force
is often their last card of it.  This script plays ``heuristic`` against ``heuristic``,
and at each play decision of seat 0 records the features of every opponent's true hand
(``search.hand_features``) and of ``--worlds`` hands dealt by the bot's own sampler
from seat 0's view and events.  It then fits the weights ``theta`` of a conditional
logit, so that worlds weighed by ``exp(theta . features)`` match the true hands'
features on average (maximum entropy), on the first half of the deals, and prints the
means on the second half: true, as sampled, and as weighed.

    python benchmarks/ismcts_tilt.py --players 2 --games 800 --first 7000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from unokit.bots.heuristic import HeuristicBot  # noqa: E402
from unokit.bots.ismcts import TILT, ISMCTSBot  # noqa: E402
from unokit.bots.runner import step  # noqa: E402
from unokit.engine import Game, view_of  # noqa: E402
from unokit.rules import RuleSet  # noqa: E402
from unokit.sim import compiled  # noqa: E402
from unokit.sim.compiled import search  # noqa: E402

NAMES = ("Skip/Rev/+2 cards", "holds colour", "holds top rank", "cards of colour", "wilds")


def features(game: Game, seat: int) -> list[float]:
    f = np.zeros(search.TILT_FEATURES)
    search.hand_features(compiled.state_from_game(game), seat, f)
    return f.tolist()


def collect(players: int, games: int, first: int, worlds: int) -> tuple[np.ndarray, np.ndarray]:
    true: list[list[float]] = []
    sampled: list[list[list[float]]] = []
    for seed in range(first, first + games):
        g = Game(RuleSet(), players, seed=seed, events=True)
        bots = [HeuristicBot(s) for s in range(players)]
        reader = ISMCTSBot(seed=seed, iterations=1)
        mark = 0
        while not g.round_over:
            if g.current == 0 and g.phase == 0 and g.color >= 0:
                view = view_of(g, 0)
                reader._remember(view)
                dealt = [reader._sample(view) for _ in range(worlds)]
                for s in range(1, players):
                    true.append(features(g, s))
                    sampled.append([features(w, s) for w in dealt])
            reader._remember(view_of(g, 0))
            step(g, bots)
            events = g.events_for(0, mark)
            mark = len(g.events or [])
            reader.observe(events)
    return np.array(true), np.array(sampled)


def weights(sampled: np.ndarray, theta: np.ndarray) -> np.ndarray:
    z = sampled @ theta
    z -= z.max(axis=1, keepdims=True)
    w = np.exp(z)
    return w / w.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def fit(true: np.ndarray, sampled: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Newton's method on the conditional logit's log-likelihood (concave)."""
    n, _, f = sampled.shape
    theta = np.zeros(f)
    for _ in range(60):
        w = weights(sampled, theta)
        mean = np.einsum("nk,nkf->nf", w, sampled)
        grad = (true - mean).sum(axis=0) - l2 * n * theta
        d = sampled - mean[:, None, :]
        hess = -np.einsum("nk,nki,nkj->ij", w, d, d) - l2 * n * np.eye(f)
        stepv = np.linalg.solve(hess, grad)
        theta -= stepv
        if np.abs(stepv).max() < 1e-7:
            break
    return theta


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=800)
    p.add_argument("--first", type=int, default=7000)
    p.add_argument("--worlds", type=int, default=20)
    args = p.parse_args()
    true, sampled = collect(args.players, args.games, args.first, args.worlds)
    half = len(true) // 2
    theta = fit(true[:half], sampled[:half])
    print(f"{len(true)} hands; theta fitted on the first {half}: {np.round(theta, 3).tolist()}")
    print(f"TILT in unokit.bots.ismcts: {list(TILT)}")
    t, s = true[half:], sampled[half:]
    print("\nheld-out half: mean of each feature")
    print(f"{'feature':18s} {'true':>6s} {'sampled':>8s} {'weighed':>8s} {'by TILT':>8s}")
    w_fit = weights(s, theta)
    w_cur = weights(s, np.array(TILT))
    for i, name in enumerate(NAMES):
        print(
            f"{name:18s} {t[:, i].mean():6.3f} {s[:, :, i].mean():8.3f} "
            f"{np.einsum('nk,nk->n', w_fit, s[:, :, i]).mean():8.3f} "
            f"{np.einsum('nk,nk->n', w_cur, s[:, :, i]).mean():8.3f}"
        )
    ess = (1.0 / (w_cur**2).sum(axis=1)).mean() / s.shape[1]
    print(f"\neffective share of the worlds under TILT: {ess:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
