"""Train a masked PPO agent (sb3-contrib's MaskablePPO) on unokit's Gymnasium env.

The learner sits in seat 0 of a two-player classic table against unokit's ``random``
bot, one round per episode, reward +1 for winning the round and -1 for losing it.
Before and after a fixed training budget it plays ``--eval-rounds`` rounds against
``random`` and against ``heuristic`` and prints its win rate (the policy's most
likely legal action, masked).

Not part of CI.  Needs, besides unokit[rl]: ``pip install torch sb3-contrib``
(CPU torch is enough).  Usage:

    python examples/train_maskable_ppo.py --timesteps 200000 --eval-rounds 500
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.vec_env import DummyVecEnv

from unokit.bots import BOTS
from unokit.rl import UnoGymEnv


def make_env(opponent: str, seed: int, num_players: int, preset: str) -> ActionMasker:
    env = UnoGymEnv(
        num_players=num_players,
        preset=preset,
        opponents=opponent,
        observation="array",
        illegal_action="raise",
    )
    env.reset(seed=seed)
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


MAX_DECISIONS = 3000  # per evaluation round: a round past this counts as not won


def win_rate(
    model: MaskablePPO | None,
    opponent: str,
    rounds: int,
    seed: int,
    num_players: int,
    preset: str,
) -> tuple[float, int]:
    """Share of ``rounds`` the learner wins (``model=None``: uniformly random legal
    actions), and how many rounds were cut off at MAX_DECISIONS learner decisions."""
    env = UnoGymEnv(
        num_players=num_players,
        preset=preset,
        opponents=opponent,
        observation="array",
        illegal_action="raise",
    )
    rng = np.random.default_rng(seed)
    wins = cut = 0
    for i in range(rounds):
        obs, _ = env.reset(seed=seed + i)
        done = False
        reward = 0.0
        for _ in range(MAX_DECISIONS):
            if done:
                break
            mask = env.action_masks()
            action: Any
            if model is None:
                action = rng.choice(np.flatnonzero(mask))
            else:
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, reward, done, _, _ = env.step(int(action))
        cut += not done
        wins += done and reward > 0
    return wins / rounds, cut


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--timesteps", type=int, default=200_000, help="training budget (steps)")
    p.add_argument("--eval-rounds", type=int, default=500, help="rounds per evaluation")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--preset", default="classic")
    p.add_argument("--envs", type=int, default=8, help="environments stepped together")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", help="save the trained model to this path")
    args = p.parse_args()

    torch.set_num_threads(args.threads)
    opponents = [name for name in ("random", "heuristic") if name in BOTS]

    def factory(i: int) -> Any:
        return lambda: make_env("random", args.seed * 1000 + i, args.players, args.preset)

    env = DummyVecEnv([factory(i) for i in range(args.envs)])
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=3e-4,
        n_steps=2048 // args.envs,
        batch_size=256,
        gamma=0.99,
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
    )

    def report(label: str, m: MaskablePPO | None) -> None:
        for opp in opponents:
            t0 = time.perf_counter()
            rate, cut = win_rate(
                m, opp, args.eval_rounds, 10_000 + args.seed, args.players, args.preset
            )
            print(
                f"{label:<28} vs {opp:<10} win rate {rate:6.1%}  ({args.eval_rounds} rounds, "
                f"{cut} cut off, {time.perf_counter() - t0:.0f} s)",
                flush=True,
            )

    report("uniform random (reference)", None)
    report("before training", model)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    elapsed = time.perf_counter() - start
    print(
        f"trained {args.timesteps} steps in {elapsed:.0f} s "
        f"({args.timesteps / elapsed:.0f} steps/s, learner decisions)",
        flush=True,
    )
    if args.save:
        model.save(args.save)
    report("after training", model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
