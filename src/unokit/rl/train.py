"""``unokit train``: PPO with action masks on the vector environment (issue 37).

    pip install 'unokit[rl,fast,train]'      # torch==2.13.0, CPU
    unokit train --out runs/learned        # the shipped weights' settings (docs/rl.md)

One learner, one network (an MLP: 330 -> 256 -> 256, a policy head over the 343
actions of ``uno_v1``'s table and a value head), trained by PPO on ``num_envs`` games
of ``unokit.rl.vector`` at once.  Illegal actions never get probability: their logits
are set to -1e9 before the softmax (masked logits), in the rollouts and in the loss.
Two kinds of dominated actions are masked too (``unokit.bots.learned.prune``, the same
in play): a play without the UNO call where the same play with it is allowed, and
PASS where a free catch or late UNO call is allowed.

The learner's opponents, every rollout, in four groups of games:

* two-player games against the compiled ``heuristic`` player (``UnoVectorGymEnv``),
* two-player games against the compiled ``random`` player,
* two-player games against a league: the current policy or one of its past snapshots
  (one taken every ``snapshot_every`` updates, the last ``league_size`` kept), played
  through the self-play ``UnoVectorEnv`` with the learner in seat ``i % 2`` of game
  ``i``; only the learner's rows are trained on,
* four-player games against three ``heuristic`` players (so the policy has seen more
  than two seats).

Rewards are ``uno_v1``'s ``"win"`` (the round's winner +1, the others -1), one round
an episode.  Every ``eval_every`` updates the greedy policy (argmax over the legal
actions) plays ``eval_rounds`` two-player rounds against each compiled opponent, one
round per game with the learner's seat random; the curve is written to
``curve.json`` and the weights to ``weights.npz``, the numpy format the ``learned``
bot reads (``unokit.bots.learned``).

Needs torch (the ``train`` extra); the rest of unokit never imports this module.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path

from unokit.rl.train_config import Config

TORCH = "torch==2.13.0"  # the train extra's pin (a CPU wheel: pip install 'unokit[train]')


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = Config()
    for key, value in asdict(d).items():
        p.add_argument(f"--{key.replace('_', '-')}", type=type(value), default=value)
    p.add_argument("--out", type=Path, default=Path("runs/learned"), help="where to write")
    p.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")


def run(args: argparse.Namespace) -> int:
    """``unokit train``: 0 when trained, 2 without torch (a message says what to install)."""
    try:
        import torch  # noqa: F401
    except ImportError:
        # on stderr, as every other refusal of a missing extra (sim, serve)
        need = f"unokit train needs PyTorch: pip install 'unokit[rl,fast,train]' ({TORCH})"
        print(need, file=sys.stderr)
        return 2
    from unokit.rl.ppo import train

    keys = asdict(Config()).keys()
    cfg = Config(**{k: getattr(args, k) for k in keys})
    train(cfg, args.out, args.threads)
    print(f"weights: {args.out / 'weights.npz'}  curve: {args.out / 'curve.json'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="unokit train",
        description="PPO with action masks on the vector env; writes weights.npz and curve.json.",
    )
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
