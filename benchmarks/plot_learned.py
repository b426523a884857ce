"""The learned bot's learning curve, and shipping a run's weights (issue 37, docs/rl.md).

    python benchmarks/plot_learned.py runs/learned --png docs/img/learned-curve.png --ship

Reads ``curve.json`` and ``weights.npz`` of a ``unokit train`` run: draws the greedy
policy's win rate against the compiled ``random`` and ``heuristic`` players (two
players, one round a game, the learner's seat random) over training time and learner
decisions; ``--ship`` copies the weights into the package (``unokit/bots/learned.npz``,
or the game's file of ``learned.WEIGHT_FILES`` for a run of ``--preset flip`` or
``no-mercy``) and writes its ``.json`` beside them: the command, seed and commit that trained
them, the training time in core-hours and the last evaluation.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from unokit.bots.learned import WEIGHT_FILES

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "unokit" / "bots"


def wilson_half(p: float, n: int) -> float:
    return 1.96 * float(np.sqrt(max(p * (1 - p), 1e-9) / n))


def plot(curve: list[dict[str, Any]], rounds: int, png: Path, game: str = "classic") -> None:
    hours = [r["cpu_s"] / 3600 for r in curve]
    steps = [r["steps"] / 1e6 for r in curve]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), dpi=110)
    for ax, x, label in ((axes[0], hours, "training CPU time (core-hours)"),
                         (axes[1], steps, "learner decisions trained on (millions)")):  # fmt: skip
        for key, name, colour in (
            ("vs_random", "against random", "tab:blue"),
            ("vs_heuristic", "against heuristic", "tab:red"),
        ):
            if key not in curve[0]:  # a game without a compiled heuristic
                continue
            y = np.array([r[key] for r in curve])
            half = np.array([wilson_half(v, rounds) for v in y])
            ax.plot(x, 100 * y, color=colour, label=name)
            ax.fill_between(x, 100 * (y - half), 100 * (y + half), color=colour, alpha=0.15)
        ax.axhline(50, color="grey", lw=0.8, ls=":")
        ax.axhline(72, color="tab:blue", lw=0.8, ls="--")
        ax.set_xlabel(label)
        ax.set_ylabel("greedy policy's win rate (%)")
        ax.set_ylim(0, 100)
        ax.grid(alpha=0.3)
    axes[0].legend(loc="lower right")
    fig.suptitle(
        f"unokit train ({game}): two-player rounds, {rounds} per point (95% band); "
        "dashed: classic heuristic's level against random"
    )
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)


def ship(run: Path, curve: list[dict[str, Any]]) -> dict[str, Any]:
    with np.load(run / "weights.npz", allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
    game = meta.get("game", "classic")
    last = curve[-1]
    info = {
        "command": meta["command"],
        "seed": meta["config"]["seed"],
        "commit": meta["commit"],
        "torch": meta["torch"],
        "config": meta["config"],
        "updates": meta["updates"],
        "learner_decisions": meta["steps"],
        "wall_hours": round(last["wall_s"] / 3600, 3),
        "cpu_seconds": last["cpu_s"],
        "core_hours": round(last["cpu_s"] / 3600, 3),
        "last_eval": {k: last[k] for k in ("vs_random", "vs_heuristic") if k in last},
        "eval": f"greedy policy, two-player {game} rounds against the compiled players, "
        f"{meta['config']['eval_rounds']} rounds each (unokit.rl.ppo.Trainer.evaluate)",
        "game": game,
        "groups": meta.get("groups", {}),
    }
    name = WEIGHT_FILES[game]
    shutil.copyfile(run / "weights.npz", PACKAGE / name)
    (PACKAGE / name.replace(".npz", ".json")).write_text(json.dumps(info, indent=1) + "\n")
    return info


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run", type=Path, help="a unokit train --out directory")
    p.add_argument("--png", type=Path, default=Path("docs/img/learned-curve.png"))
    p.add_argument("--ship", action="store_true", help="copy the weights into the package")
    a = p.parse_args()
    curve = json.loads((a.run / "curve.json").read_text())
    with np.load(a.run / "weights.npz", allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
    plot(curve, meta["config"]["eval_rounds"], a.png, meta.get("game", "classic"))
    print(f"wrote {a.png}")
    if a.ship:
        print(json.dumps(ship(a.run, curve), indent=1))


if __name__ == "__main__":
    main()
