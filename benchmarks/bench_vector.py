"""The vector environment's speed (``unokit.rl.vector``) beside the AEC env and RLCard.

Agent steps per second, observations and masks included, for ``num_envs`` 1 to 4,096:

* ``vector-selfplay``: ``UnoVectorEnv.step`` (every seat a learner); one step of one
  game is one decision of one agent, as in the AEC loop, so these rates compare
  directly with ``unokit-aec`` and RLCard's.  Each batch step's actions are uniformly
  random legal ones drawn from the masks (``ActionSampler``, compiled), and the time
  of that draw is counted, as the AEC and RLCard loops count their random pick.
* ``vector-gym/<opponent>``: ``UnoVectorGymEnv.step``: one learner step per game; the
  opponents' decisions in between are not counted as steps (they are the env's work).
* ``unokit-aec``: ``uno_v1`` in its standard loop (``bench_rl.measure_unokit``).
* ``rlcard-env-step``/``rlcard-env``: RLCard 1.2.0's UNO (two players only), through
  the reference interpreter (``bench_rl.measure_reference``); ``rlcard-env-step/
  cpu-timed``: the same ``env.step`` loop timed by its process's CPU time too.

``--games flip no-mercy`` adds UNO Flip! and No Mercy's self-play (issue 50: at least
1,000,000 agent steps/s on one core at ``num_envs`` 1,024, 2 and 4 players) and their
Gymnasium env against ``random`` (2 players), each beside classic's in turn in the same
run; ``--only-games`` skips the rest.

``--processes 2`` also runs the self-play measurement in two processes at once (one
batch each, summed): on a machine with two cores shared with other work, expect less
than twice.  The systems alternate (``--repeats``); the best of each is reported, by
wall clock (as ``bench_rl.py`` compares), with the vector env's steps per CPU-second of
its process beside it (less sensitive to other work on a shared machine).

    python benchmarks/bench_vector.py --reference-python .bench-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_rl  # noqa: E402 (the AEC and RLCard measurements, shared)
from unokit.rl.vector import ActionSampler, UnoVectorEnv, UnoVectorGymEnv  # noqa: E402

SIZES = (1, 4, 16, 64, 256, 1024, 4096)
GOAL_STEPS = 1_000_000
GOAL_RATIO = 25.0


def measure_selfplay(
    preset: str, players: int, num_envs: int, seconds: float, seed: int
) -> dict[str, Any]:
    """Batches of random legal actions for ``seconds``: decisions per second."""
    env = UnoVectorEnv(num_envs, players, preset)
    pick = ActionSampler(num_envs, seed)
    batch = env.reset(seed=seed)
    batch = env.step(pick(batch.mask))  # warm: compiled code loaded
    clock = time.perf_counter
    start = clock()
    cpu = time.process_time()
    deadline = start + seconds
    calls = 0
    while True:
        for _ in range(8):
            batch = env.step(pick(batch.mask))
        calls += 8
        if clock() > deadline:
            break
    elapsed = clock() - start
    cpu = time.process_time() - cpu
    steps = calls * num_envs
    return {
        "system": f"vector-selfplay/{preset}",
        "players": players,
        "num_envs": num_envs,
        "seconds": round(elapsed, 3),
        "steps": steps,
        "episodes": env.games.episodes(),
        "steps_per_s": round(steps / elapsed, 1),
        "steps_per_cpu_s": round(steps / cpu, 1),
        "us_per_step": round(elapsed / steps * 1e6, 4),
    }


def measure_gym(
    preset: str, players: int, opponents: str, num_envs: int, seconds: float, seed: int
) -> dict[str, Any]:
    """The single-agent VectorEnv with random legal learner actions: learner steps/s."""
    env = UnoVectorGymEnv(num_envs, players, preset, opponents=opponents, observation="array")
    pick = ActionSampler(num_envs, seed)
    env.reset(seed=seed)
    env.step(pick(env.games.mask))
    clock = time.perf_counter
    start = clock()
    cpu = time.process_time()
    deadline = start + seconds
    calls = 0
    while True:
        for _ in range(8):
            env.step(pick(env.games.mask))
        calls += 8
        if clock() > deadline:
            break
    elapsed = clock() - start
    cpu = time.process_time() - cpu
    steps = calls * num_envs
    return {
        "system": f"vector-gym/{opponents}/{preset}",
        "players": players,
        "num_envs": num_envs,
        "seconds": round(elapsed, 3),
        "steps": steps,
        "episodes": env.games.episodes(),
        "steps_per_s": round(steps / elapsed, 1),
        "steps_per_cpu_s": round(steps / cpu, 1),
        "us_per_step": round(elapsed / steps * 1e6, 4),
    }


def _worker(args: tuple[str, int, int, float, int]) -> dict[str, Any]:
    return measure_selfplay(*args)


def measure_processes(
    preset: str, players: int, num_envs: int, seconds: float, seed: int, procs: int
) -> dict[str, Any]:
    """``procs`` processes at once, each its own batch of ``num_envs``: summed rate."""
    ctx = mp.get_context("spawn")
    with ctx.Pool(procs) as pool:
        pool.map(_worker, [(preset, players, 1, 0.2, seed + i) for i in range(procs)])  # load
        rows = pool.map(
            _worker, [(preset, players, num_envs, seconds, seed + i) for i in range(procs)]
        )
    total = sum(r["steps_per_s"] for r in rows)
    cpu_total = sum(r["steps_per_cpu_s"] for r in rows)
    return {
        "system": f"vector-selfplay/{preset}",
        "players": players,
        "num_envs": num_envs,
        "processes": procs,
        "seconds": max(r["seconds"] for r in rows),
        "steps": sum(r["steps"] for r in rows),
        "steps_per_s": round(total, 1),
        "steps_per_cpu_s": round(cpu_total, 1),
        "us_per_step": round(1e6 / total, 4),
    }


RLCARD_CPU = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import rlcard_ref
run = rlcard_ref.make_step_runner(2, int(sys.argv[3]))
for _ in range(20):
    run()
decisions = 0
cpu, start = time.process_time(), time.perf_counter()
while time.perf_counter() - start < float(sys.argv[2]):
    try:
        decisions += run()
    except (IndexError, ValueError):  # as rlcard_ref.measure: an aborted game
        pass
print(json.dumps({"decisions": decisions, "cpu": time.process_time() - cpu,
                  "wall": time.perf_counter() - start}))
"""


def measure_rlcard_cpu(python: str, seconds: float, seed: int) -> dict[str, Any]:
    """RLCard's ``env.step`` loop (``rlcard_ref.make_step_runner``) timed by the CPU
    time of its process too, for a comparison per CPU-second on a loaded machine."""
    proc = subprocess.run(
        [python, "-c", RLCARD_CPU, str(HERE), str(seconds), str(seed)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.exit(f"reference benchmark failed ({proc.returncode}): {proc.stderr.strip()}")
    r = json.loads(proc.stdout)
    return {
        "system": "rlcard-env-step/cpu-timed",
        "players": 2,
        "num_envs": 1,
        "seconds": round(r["wall"], 3),
        "steps": r["decisions"],
        "steps_per_s": round(r["decisions"] / r["wall"], 1),
        "steps_per_cpu_s": round(r["decisions"] / r["cpu"], 1),
        "us_per_step": round(r["wall"] / r["decisions"] * 1e6, 4),
    }


def best(rows: list[dict[str, Any]], **match: Any) -> dict[str, Any] | None:
    mine = [r for r in rows if all(r.get(k) == v for k, v in match.items())]
    return max(mine, key=lambda r: r["steps_per_s"]) if mine else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reference-python", help="python with rlcard==1.2.0 (omit to skip)")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    p.add_argument("--repeats", type=int, default=2, help="alternations of the systems")
    p.add_argument("--processes", type=int, default=2, help="also run N processes (0: skip)")
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="num_envs values")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, help="write all measurements to this file")
    p.add_argument(
        "--games", nargs="+", default=[], choices=("flip", "no-mercy"),
        help="also measure these modern games' self-play at num_envs=1024",
    )  # fmt: skip
    p.add_argument(
        "--only-games", action="store_true",
        help="with --games: only those, beside classic's at num_envs=1024",
    )  # fmt: skip
    args = p.parse_args()

    say = lambda r: print(  # noqa: E731
        f"{r['system']} {r['players']}p num_envs={r.get('num_envs', 1)}"
        f"{' x' + str(r['processes']) + ' processes' if r.get('processes') else ''}: "
        f"{r['steps_per_s']:,.0f} steps/s",
        file=sys.stderr,
    )
    rows: list[dict[str, Any]] = []
    for rep in range(args.repeats):
        seed = args.seed + rep
        for game in args.games:  # beside classic's at the same size, in turn
            for players in (2, 4):
                for preset in ("classic", game):
                    rows.append(measure_selfplay(preset, players, 1024, args.seconds, seed))
                    say(rows[-1])
            for preset in ("classic", game):  # the Gymnasium env against random
                rows.append(measure_gym(preset, 2, "random", 1024, args.seconds, seed))
                say(rows[-1])
        if args.only_games:
            continue
        for players in (2, 4):
            for size in args.sizes:
                rows.append(measure_selfplay("classic", players, size, args.seconds, seed))
                say(rows[-1])
        for size in (1024,):
            rows.append(measure_selfplay("party", 4, size, args.seconds, seed))
            say(rows[-1])
            for opp in ("random", "heuristic"):
                rows.append(measure_gym("classic", 2, opp, size, args.seconds, seed))
                say(rows[-1])
        if args.processes > 1:
            rows.append(measure_processes("classic", 2, 1024, args.seconds, seed, args.processes))
            say(rows[-1])
        cpu = time.process_time()
        aec = bench_rl.measure_unokit("classic", 2, args.seconds, seed)
        aec["steps_per_cpu_s"] = round(aec["steps"] / (time.process_time() - cpu), 1)
        aec["num_envs"] = 1
        rows.append(aec)
        say(rows[-1])
        if args.reference_python:
            for r in bench_rl.measure_reference(args.reference_python, args.seconds, seed):
                r["num_envs"] = 1
                rows.append(r)
                say(r)
            rows.append(measure_rlcard_cpu(args.reference_python, args.seconds, seed))
            say(rows[-1])

    print(f"\n{'system':<34} {'players':>7} {'num_envs':>8} {'procs':>5} {'steps/s':>12} "
          f"{'µs/step':>8} {'steps/CPU-s':>12}")  # fmt: skip
    seen = []
    for r in rows:
        key = (r["system"], r["players"], r.get("num_envs"), r.get("processes", 1))
        if key in seen:
            continue
        seen.append(key)
        b = best(rows, system=r["system"], players=r["players"], num_envs=r.get("num_envs"),
                 processes=r.get("processes"))  # fmt: skip
        assert b is not None
        print(
            f"{b['system']:<34} {b['players']:>7} {b.get('num_envs', 1):>8} "
            f"{b.get('processes', 1):>5} {b['steps_per_s']:>12,.0f} {b['us_per_step']:>8.3f} "
            + (f"{b['steps_per_cpu_s']:>12,.0f}" if "steps_per_cpu_s" in b else f"{'-':>12}")
        )

    one_core = [
        r for r in rows
        if r["system"] == "vector-selfplay/classic" and r["players"] == 2
        and r["num_envs"] >= 1024 and not r.get("processes")
    ]  # fmt: skip
    ratios: dict[str, float] = {}
    print()
    if one_core:
        top = max(one_core, key=lambda r: r["steps_per_s"])
        met = "met" if top["steps_per_s"] >= GOAL_STEPS else "NOT met"
        print(
            f"vector-selfplay/classic 2p, one process, num_envs >= 1024: "
            f"{top['steps_per_s']:,.0f} agent steps/s at num_envs={top['num_envs']} "
            f"(goal {GOAL_STEPS:,}: {met}); {top['steps_per_cpu_s']:,.0f} per CPU-second"
        )
        for ref in ("unokit-aec/classic", "rlcard-env-step", "rlcard-env"):
            theirs = best(rows, system=ref, players=2)
            if theirs:
                ratios[ref] = round(top["steps_per_s"] / theirs["steps_per_s"], 1)
                goal = ""
                if ref == "rlcard-env-step":
                    ok = ratios[ref] >= GOAL_RATIO
                    goal = f" (goal {GOAL_RATIO:g}x like for like: {'met' if ok else 'NOT met'})"
                print(f"  ÷ {ref} 2p (best, same run): {ratios[ref]}x{goal}")
        aec = best(rows, system="unokit-aec/classic", players=2)
        if aec:
            cpu_best = max(r["steps_per_cpu_s"] for r in one_core)
            aec_cpu = max(r["steps_per_cpu_s"] for r in rows if r["system"] == "unokit-aec/classic")
            ratios["unokit-aec/classic per CPU-second"] = round(cpu_best / aec_cpu, 1)
            print(f"  ÷ unokit-aec/classic 2p per CPU-second: {round(cpu_best / aec_cpu, 1)}x")
        timed = [r for r in rows if r["system"] == "rlcard-env-step/cpu-timed"]
        if timed:
            cpu_best = max(r["steps_per_cpu_s"] for r in one_core)
            ref_cpu = max(r["steps_per_cpu_s"] for r in timed)
            ratios["rlcard-env-step per CPU-second"] = round(cpu_best / ref_cpu, 1)
            ok = cpu_best / ref_cpu >= GOAL_RATIO
            print(
                f"  ÷ rlcard-env-step 2p per CPU-second: {round(cpu_best / ref_cpu, 1)}x "
                f"(goal {GOAL_RATIO:g}x: {'met' if ok else 'NOT met'})"
            )
    for game in args.games:
        for players in (2, 4):
            mine = best(rows, system=f"vector-selfplay/{game}", players=players, num_envs=1024)
            ref = best(rows, system="vector-selfplay/classic", players=players, num_envs=1024)
            if mine is None:
                continue
            met = "met" if mine["steps_per_s"] >= GOAL_STEPS else "NOT met"
            ratio = f"; {mine['steps_per_s'] / ref['steps_per_s']:.2f}x classic's" if ref else ""
            ratios[f"{game} {players}p / classic"] = (
                round(mine["steps_per_s"] / ref["steps_per_s"], 3) if ref else 0.0
            )
            print(
                f"vector-selfplay/{game} {players}p, num_envs=1024: "
                f"{mine['steps_per_s']:,.0f} agent steps/s (goal {GOAL_STEPS:,}: {met}); "
                f"{mine['steps_per_cpu_s']:,.0f} per CPU-second{ratio} (same run)"
            )
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
