"""The settings of one training run (``unokit train``): the command line's fields, and
what ``learned.json`` records beside the weights.  A module of its own so the trainer
(``ppo.py``, which needs torch) and the command (``train.py``, which must not) share it
without importing each other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Config:
    preset: str = "classic"  # the game and rules trained on (flip, no-mercy: their tables)
    steps: int = 12_000_000  # learner decisions to train on (about an hour on one core)
    seed: int = 1
    heuristic_envs: int = 128
    random_envs: int = 64
    league_envs: int = 64
    four_envs: int = 16
    horizon: int = 64  # env steps per rollout
    epochs: int = 4
    minibatch: int = 2048
    lr: float = 1e-3  # decays linearly to 5% of it over `steps`
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    snapshot_every: int = 10
    league_size: int = 20
    latest_share: float = 0.5  # how often the league game's opponent is the current policy
    eval_every: int = 10
    eval_rounds: int = 2000
    max_steps: int = 500  # truncate an episode after this many learner decisions
