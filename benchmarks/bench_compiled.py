"""The compiled engine's speed, side by side with the pure-Python engine, in one run.

Every system plays the simulator's games (``unokit sim``'s fast ``random`` players: a
uniformly random playable card, else draw and play a playable drawn card; always call
UNO, catch, challenge a Wild Draw Four half of the time) under the full official rules,
and the same counting, in this process, alternating (``--repeats``):

* ``python``: today's ``unokit sim`` (``--engine python``): ``unokit.sim.driver``'s
  chunk runner on the reference engine;
* ``compiled``: ``unokit sim --engine compiled``: the same chunk runner dispatched to
  ``unokit.compiled`` (numba);
* ``bare``: a bare numba loop (``kernel.bare_rounds``): random play on a 108-card deck
  with the classic start and action effects, but no UNO calls, catches, challenges,
  scoring or counting: the floor for a compiled round.
* ``rlcard-raw`` (with ``--reference-python``): RLCard 1.2.0's raw ``UnoGame`` loop,
  timed by ``rlcard_ref.py`` in its own interpreter (single rounds only).

Speeds are games per CPU-second of this process (``time.process_time``), so other jobs
on a shared machine slow the wall clock, not the figure.  ``--cold-start`` also times
the JIT: a child interpreter with an empty numba cache, then one with the cache filled.

    python benchmarks/bench_compiled.py [--seconds 3] [--repeats 2] [--cold-start]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from unokit import compiled  # noqa: E402
from unokit.sim.config import SimConfig  # noqa: E402
from unokit.sim.driver import ChunkTask, run_chunk  # noqa: E402


def measure_sim(engine: str, players: int, rounds_only: bool, seconds: float, seed: int
                ) -> dict[str, Any]:  # fmt: skip
    """Chunks of ``unokit sim`` games on one engine for about ``seconds`` of CPU time."""
    chunk = 2000 if engine == "compiled" else (200 if rounds_only else 20)
    cfg = SimConfig(seats=("random",) * players, games=10**9, seed=seed, rounds_only=rounds_only,
                    engine=engine)  # fmt: skip
    run_chunk(ChunkTask(cfg, 0, 2))  # warm up (and load the compiled kernel)
    games = rounds = 0
    start = 10
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        tally = run_chunk(ChunkTask(cfg, start, chunk))
        start += chunk
        games += tally.games
        rounds += tally.rounds
    cpu = time.process_time() - t0
    return {"system": engine, "players": players, "mode": "rounds" if rounds_only else "games",
            "games": games, "rounds": rounds, "cpu_s": round(cpu, 3),
            "games_per_s": round(games / cpu, 1)}  # fmt: skip


def measure_bare(players: int, seconds: float, seed: int) -> dict[str, Any]:
    import numpy as np

    k = compiled.load_kernel()
    k.bare_rounds(np.uint64(seed + 1), players, 10)
    games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        k.bare_rounds(np.uint64(seed + games + 1), players, 20_000)
        games += 20_000
    cpu = time.process_time() - t0
    return {"system": "bare", "players": players, "mode": "rounds", "games": games,
            "cpu_s": round(cpu, 3), "games_per_s": round(games / cpu, 1)}  # fmt: skip


def kernel_only(players: int, games: int, repeats: int) -> float:
    """``kernel.run_games`` alone (no chunk merging, no Python per chunk): best games/s."""
    k = compiled.load_kernel()
    cfg = SimConfig(seats=("random",) * players, games=10, rounds_only=True, engine="compiled")
    setup = compiled.Setup.of(cfg)
    k.run_games(setup.R, setup.P, setup.base, 0, 10, -1)
    best = 0.0
    for _ in range(repeats):
        t0 = time.process_time()
        k.run_games(setup.R, setup.P, setup.base, 0, games, -1)
        best = max(best, games / (time.process_time() - t0))
    return best


def measure_rlcard(python: str, seconds: float, seed: int) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [python, str(HERE / "rlcard_ref.py"), "--seconds", str(seconds), "--seed", str(seed)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        sys.exit(f"reference benchmark failed ({proc.returncode}): {proc.stderr.strip()}")
    rows: list[dict[str, Any]] = json.loads(proc.stdout)["results"]
    out = []
    for r in rows:
        if r.get("system") == "rlcard-raw":
            out.append({"system": "rlcard-raw", "players": r["players"], "mode": "rounds",
                        "games": r["games"], "games_per_s": r["games_per_s"]})  # fmt: skip
    return out


COLD = """
import time
t0 = time.perf_counter()
from unokit import compiled
from unokit.sim.config import SimConfig
cfg = SimConfig(games=10, engine="compiled", rounds_only=True)
compiled.run_chunk(cfg, 0, 10)
t1 = time.perf_counter()
compiled.check_game(cfg, 0)
print(round(t1 - t0, 2), round(time.perf_counter() - t1, 2))
"""


def cold_start() -> dict[str, float]:
    """First call of ``run_games`` (and of ``--check``'s logged game): cold, then cached."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(HERE.parent / "src")}
        for label in ("cold", "cached"):
            proc = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True,
                                  env=env, check=True)  # fmt: skip
            run_s, check_s = (float(x) for x in proc.stdout.split())
            out[f"{label}_run_s"] = run_s
            out[f"{label}_check_s"] = check_s
    return out


def best(rows: list[dict[str, Any]], system: str, players: int, mode: str) -> float | None:
    mine = [r["games_per_s"] for r in rows
            if (r["system"], r["players"], r["mode"]) == (system, players, mode)]  # fmt: skip
    return max(mine) if mine else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU time per measurement")
    p.add_argument("--repeats", type=int, default=2, help="alternations of the systems")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reference-python", help="python with rlcard==1.2.0 (omit to skip)")
    p.add_argument("--cold-start", action="store_true", help="also time the JIT, cold and cached")
    p.add_argument("--json", type=Path, help="write every measurement to this file")
    p.add_argument(
        "--kernel-only",
        action="store_true",
        help="only the compiled kernel's single rounds (best of --repeats x 30,000 games)",
    )
    args = p.parse_args()
    if not compiled.available():
        sys.exit(compiled.INSTALL_HINT)
    if args.kernel_only:
        for players in (2, 4):
            gps = kernel_only(players, 30_000, args.repeats)
            print(f"compiled kernel, {players} players, single rounds: {gps:,.0f} games/s (CPU)")
        return 0
    rows: list[dict[str, Any]] = []
    for rep in range(args.repeats):
        seed = args.seed + rep
        for players in (2, 4):
            for rounds_only in (True, False):
                for engine in ("python", "compiled"):
                    rows.append(measure_sim(engine, players, rounds_only, args.seconds, seed))
                    print(rows[-1], file=sys.stderr)
            rows.append(measure_bare(players, args.seconds, seed))
            print(rows[-1], file=sys.stderr)
        if args.reference_python:
            rows.extend(measure_rlcard(args.reference_python, args.seconds, seed))
    print(f"\n{'system':<11} {'players':>7} {'mode':<7} {'games/s (CPU)':>14}")
    for mode in ("rounds", "games"):
        for players in (2, 4):
            for system in ("python", "compiled", "bare", "rlcard-raw"):
                v = best(rows, system, players, mode)
                if v is not None:
                    print(f"{system:<11} {players:>7} {mode:<7} {v:>14,.0f}")
    print("\nratios (best of each, same run):")
    ratios: dict[str, float] = {}
    for mode in ("rounds", "games"):
        for players in (2, 4):
            c = best(rows, "compiled", players, mode)
            for other in ("python", "bare", "rlcard-raw"):
                o = best(rows, other, players, mode)
                if c and o:
                    key = f"compiled/{other} {players}p {mode}"
                    ratios[key] = round(c / o, 2)
                    print(f"  {key}: {ratios[key]}x")
    cold = cold_start() if args.cold_start else {}
    if cold:
        print(
            f"\nJIT: first run {cold['cold_run_s']} s cold, {cold['cached_run_s']} s cached; "
            f"first --check {cold['cold_check_s']} s cold, {cold['cached_check_s']} s cached"
        )
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ratios": ratios, "jit": cold}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
