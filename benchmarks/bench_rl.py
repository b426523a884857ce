"""RL environment speed: unokit's ``uno_v1`` AEC env beside RLCard 1.2.0's UNO env.

Both sides play whole episodes (one round) with uniformly random *legal* actions and
build every observation, as an RL user's loop does:

* unokit: ``for agent in env.agent_iter(): obs, ... = env.last(); env.step(a)`` with
  ``a`` drawn uniformly from ``obs["action_mask"]`` (``pick``).  One step is one decision of one
  agent: a turn decision or an out-of-turn one (catch, late UNO call, pass), under the
  full official rules.  Terminated agents' ``step(None)`` calls are not counted.
* RLCard: ``env.run()`` with ``RandomAgent``s (``benchmarks/rlcard_ref.py``), its
  decisions per second.  RLCard's env is two players only.

Uniform random legal actions draw and keep often, so unokit's random rounds are long
(about a thousand decisions, big hands); the rate per decision is what is compared.
The machine is shared and noisy: the systems alternate (``--repeats``) and the ratio
is taken from the best of each in the same run.  Usage:

    python benchmarks/bench_rl.py --reference-python .bench-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from unokit.rl import uno_v1

HERE = Path(__file__).resolve().parent

CONFIGS = (("classic", 2), ("classic", 4), ("party", 4), ("seed-001-house", 4))


def pick(mask: Any, u: float) -> int:
    """A uniformly random legal action: the ``int(u * k)``-th of the ``k`` ones in ``mask``.

    Plain ``bytes`` searches instead of ``mask.nonzero()``: a handful of legal actions
    among 343 is found faster this way, and the action is a Python int.  (``tobytes()``
    copies the array's memory in one go; ``bytes(mask)`` goes through the buffer
    protocol and costs three times as much.)
    """
    bits = mask.tobytes()
    k = int(u * bits.count(1))
    i = bits.index(1)
    while k:
        i = bits.index(1, i + 1)
        k -= 1
    return i


def measure_unokit(preset: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Random masked actions in the AEC loop for ``seconds``; steps per second."""
    env = uno_v1.env(num_players=players, preset=preset)
    rand = random.Random(seed).random
    steps = episodes = 0
    clock = time.perf_counter
    env.reset(seed=seed)
    start = clock()
    deadline = start + seconds
    while True:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(pick(obs["action_mask"], rand()))
            steps += 1
        episodes += 1
        if clock() > deadline:
            break
        env.reset()
    elapsed = clock() - start
    return {
        "system": f"unokit-aec/{preset}",
        "players": players,
        "episodes": episodes,
        "seconds": round(elapsed, 3),
        "steps": steps,
        "steps_per_episode": round(steps / episodes, 1),
        "steps_per_s": round(steps / elapsed, 1),
        "us_per_step": round(elapsed / steps * 1e6, 3),
    }


def measure_reference(python: str, seconds: float, seed: int) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [
            python,
            str(HERE / "rlcard_ref.py"),
            "--seconds",
            str(seconds),
            "--seed",
            str(seed),
            "--players",
            "2",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.exit(f"reference benchmark failed ({proc.returncode}): {proc.stderr.strip()}")
    rows: list[dict[str, Any]] = []
    for r in json.loads(proc.stdout)["results"]:
        if r.get("system") in ("rlcard-env", "rlcard-env-step"):
            rows.append(
                {
                    "system": r["system"],
                    "players": r["players"],
                    "episodes": r["games"],
                    "seconds": r["seconds"],
                    "steps": r["decisions"],
                    "steps_per_episode": r["decisions_per_game"],
                    "steps_per_s": r["decisions_per_s"],
                    "us_per_step": r["us_per_decision"],
                }
            )
    return rows


def best(rows: list[dict[str, Any]], system: str, players: int) -> dict[str, Any] | None:
    mine = [r for r in rows if r["system"] == system and r["players"] == players]
    return max(mine, key=lambda r: r["steps_per_s"]) if mine else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reference-python", help="python with rlcard==1.2.0 (omit to skip)")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--repeats", type=int, default=2, help="alternations of the systems")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, help="write all measurements to this file")
    args = p.parse_args()

    rows: list[dict[str, Any]] = []
    for rep in range(args.repeats):
        for preset, players in CONFIGS:
            rows.append(measure_unokit(preset, players, args.seconds, args.seed + rep))
            r = rows[-1]
            print(f"{r['system']} {players}p: {r['us_per_step']} µs/step", file=sys.stderr)
        if args.reference_python:
            rows.extend(measure_reference(args.reference_python, args.seconds, args.seed + rep))
            for r in rows[-2:]:
                print(f"{r['system']} 2p: {r['us_per_step']} µs/step", file=sys.stderr)

    print(f"\n{'system':<30} {'players':>7} {'steps/s':>10} {'µs/step':>9} {'steps/episode':>14}")
    systems = [f"unokit-aec/{preset}" for preset, _ in CONFIGS]
    systems += ["rlcard-env", "rlcard-env-step"]
    for system in dict.fromkeys(systems):
        for players in (2, 4):
            r = best(rows, system, players)
            if r:
                print(
                    f"{system:<30} {players:>7} {r['steps_per_s']:>10,.0f} "
                    f"{r['us_per_step']:>9.2f} {r['steps_per_episode']:>14.1f}"
                )
    ours = best(rows, "unokit-aec/classic", 2)
    ratios: dict[str, float] = {}
    print()
    for ref, what in (
        ("rlcard-env", "env.run with RandomAgents, the issue's reference"),
        ("rlcard-env-step", "env.step in the user's loop, like for like"),
    ):
        theirs = best(rows, ref, 2)
        if ours and theirs:
            ratios[ref] = round(ours["steps_per_s"] / theirs["steps_per_s"], 2)
            print(
                f"unokit-aec/classic 2p steps/s ÷ {ref} 2p steps/s ({what}; best of each,"
                f" same run): {ratios[ref]}x (goal: 5x)"
            )
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
