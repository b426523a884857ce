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
means on the second half: true, as sampled, and as weighed.  With more than two
players each opponent's hands are fitted by its seat relative to seat 0 in the
direction of play (next, in between, just before: the rows of ``TILT_MANY``), and
the fit on every deal is printed last, to paste into ``TILT_MANY``.

    python benchmarks/research/ismcts_tilt.py --players 2 --games 600 --first 7000
    python benchmarks/research/ismcts_tilt.py --players 4 --games 3000 --first 20000
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from unokit import compiled  # noqa: E402
from unokit.bots.heuristic import HeuristicBot  # noqa: E402
from unokit.bots.ismcts import TILT, TILT_MANY, ISMCTSBot  # noqa: E402
from unokit.bots.runner import step  # noqa: E402
from unokit.compiled import search  # noqa: E402
from unokit.engine import Game, view_of  # noqa: E402
from unokit.engine.view import View  # noqa: E402
from unokit.rules import RuleSet  # noqa: E402

NAMES = ("Skip/Rev/+2 cards", "holds colour", "holds top rank", "cards of colour", "wilds")
ROWS = ("next seat", "seats in between", "seat just before")


def features(game: Game, seat: int) -> list[float]:
    f = np.zeros(search.TILT_FEATURES)
    search.hand_features(compiled.state_from_game(game), seat, f)
    return f.tolist()


def row(players: int, direction: int, seat: int) -> int:
    """The ``TILT_MANY`` row of ``seat`` seen from seat 0 (``search.tilt_weight``'s)."""
    j = (seat * direction) % players
    return 0 if j == 1 else (2 if j == players - 1 else 1)


def decisions(players: int, games: int, first: int) -> Iterator[tuple[Game, View, ISMCTSBot]]:
    """Every play decision of seat 0 in ``heuristic`` games (seeds ``first`` on), with
    a reader ``ISMCTSBot`` that has seen seat 0's view and events so far, so that its
    sampler deals the worlds the bot would deal there."""
    for seed in range(first, first + games):
        g = Game(RuleSet(), players, seed=seed, events=True)
        bots = [HeuristicBot(s) for s in range(players)]
        reader = ISMCTSBot(seed=seed, iterations=1)
        mark = 0
        while not g.round_over:
            if g.current == 0 and g.phase == 0 and g.color >= 0:
                view = view_of(g, 0)
                reader._remember(view)
                yield g, view, reader
            reader._remember(view_of(g, 0))
            step(g, bots)
            events = g.events_for(0, mark)
            mark = len(g.events or [])
            reader.observe(events)


def collect(
    players: int, games: int, first: int, worlds: int
) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For each row: the true hands' features and those of ``worlds`` sampled hands."""
    true: dict[int, list[list[float]]] = {0: [], 1: [], 2: []}
    sampled: dict[int, list[list[list[float]]]] = {0: [], 1: [], 2: []}
    for g, view, reader in decisions(players, games, first):
        dealt = [reader._sample(view) for _ in range(worlds)]
        for s in range(1, players):
            r = row(players, g.direction, s)  # two players: always row 0
            true[r].append(features(g, s))
            sampled[r].append([features(w, s) for w in dealt])
    return {r: (np.array(true[r]), np.array(sampled[r])) for r in true if true[r]}


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


def report(true: np.ndarray, sampled: np.ndarray, current: np.ndarray) -> np.ndarray:
    """Fit on the first half, print the held-out means; return the fit on all."""
    half = len(true) // 2
    theta = fit(true[:half], sampled[:half])
    print(f"{len(true)} hands; theta fitted on the first {half}: {np.round(theta, 3).tolist()}")
    t, s = true[half:], sampled[half:]
    print("held-out half: mean of each feature")
    print(f"{'feature':18s} {'true':>6s} {'sampled':>8s} {'weighed':>8s} {'current':>8s}")
    w_fit = weights(s, theta)
    w_cur = weights(s, current)
    for i, name in enumerate(NAMES):
        print(
            f"{name:18s} {t[:, i].mean():6.3f} {s[:, :, i].mean():8.3f} "
            f"{np.einsum('nk,nk->n', w_fit, s[:, :, i]).mean():8.3f} "
            f"{np.einsum('nk,nk->n', w_cur, s[:, :, i]).mean():8.3f}"
        )
    ess = (1.0 / (w_cur**2).sum(axis=1)).mean() / s.shape[1]
    print(f"effective share of the worlds under the current weights: {ess:.3f}")
    return fit(true, sampled)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=800)
    p.add_argument("--first", type=int, default=7000)
    p.add_argument("--worlds", type=int, default=20)
    args = p.parse_args()
    data = collect(args.players, args.games, args.first, args.worlds)
    fitted = []
    for r, (true, sampled) in sorted(data.items()):
        if args.players == 2:
            print(f"current: TILT in unokit.bots.ismcts = {list(TILT)}")
            current = np.array(TILT)
        else:
            print(f"\n{ROWS[r]}; current: TILT_MANY[{r}] = {list(TILT_MANY[r])}")
            current = np.array(TILT_MANY[r])
        fitted.append(np.round(report(true, sampled, current), 3).tolist())
    print(f"\nfitted on every hand, row by row: {fitted}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
