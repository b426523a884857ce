"""The compiled code on an empty numba cache, as on a fresh install (issue 45).

Every other test of the compiled engine in the checkout runs with whatever numba's
cache holds, and the order of compilation changes what compiles: a function without
``_nrt`` takes the setting of the caller that compiles it first.  The RL environments'
opponents (``rl.vector_kernel.bot_act``, compiled without numba's runtime) called
``kernel.best_color``, which allocated: on an empty cache ``UnoVectorGymEnv.reset``
failed with a TypingError, and the suite passed only because earlier test files had
compiled ``best_color`` with the runtime first.  So:

* ``test_runtime_free_code_calls_only_runtime_free_code`` here reads the sources:
  whatever code compiled without the runtime calls says ``_nrt=False`` itself (then an
  allocation there fails on every compilation, in every order);
* ``test_every_entry_point_compiles_on_an_empty_cache`` runs every public compiled
  entry point in a fresh process on an empty numba cache (one process compiling
  everything: compiling is the cost, about three CPU minutes), the environments first
  so that nothing else compiled has warmed them; then ``unokit sim --engine compiled
  --check`` on the cache that process left (it compiles the simulator's own entry
  points, which nothing before uses), which must say that it compiles and give a speed
  without the compilation; then the same run again, which must not say so.

Where that cache lives: when the checkout's own numba cache (``__pycache__`` beside the
kernels, or ``NUMBA_CACHE_DIR``) holds nothing yet, as on a fresh clone and in CI, the
fresh process compiles into it, and the other tests of the ``numba`` group, which run
after this one on the same worker (tests/conftest.py orders them), load what it left
instead of compiling it all again: one compilation for the run, not two.  They would
pass on an empty cache as well, only later.  When that cache already holds kernels (a
developer's second run), the test compiles into an empty folder of its own.  Only one
process at a time compiles into a cache: numba's index of a function is not safe
against two processes adding different signatures at once.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "unokit"
COMPILED_SOURCES = (
    SRC / "compiled" / "kernel.py",
    SRC / "compiled" / "search.py",
    SRC / "compiled" / "flip_kernel.py",
    SRC / "compiled" / "nm_kernel.py",
    SRC / "rl" / "vector_kernel.py",
    SRC / "rl" / "vector_flip_kernel.py",
    SRC / "rl" / "vector_nm_kernel.py",
)


def _njit_functions() -> dict[str, tuple[bool, set[str]]]:
    """Every ``@njit`` function of the compiled sources, as ``module.name``:
    (``_nrt=False`` given, the functions it calls, as ``module.name``).  A name called
    is the module's own function, else the one it imports (the kernels share the
    classic kernel's helpers; no two modules define a name that a third imports)."""
    found: dict[str, tuple[bool, set[str]]] = {}
    owner: dict[str, list[str]] = {}
    for path in COMPILED_SOURCES:
        mod = path.stem
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            jit = [
                d
                for d in node.decorator_list
                if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "njit"
            ]
            if not jit:
                continue
            no_runtime = any(
                kw.arg == "_nrt" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                for kw in jit[0].keywords
            )
            calls = {
                n.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
            key = f"{mod}.{node.name}"
            assert key not in found, f"two compiled functions named {key}"
            found[key] = (no_runtime, calls)
            owner.setdefault(node.name, []).append(mod)
    resolved: dict[str, tuple[bool, set[str]]] = {}
    for key, (no_runtime, calls) in found.items():
        mod = key.split(".")[0]
        targets = set()
        for name in calls:
            if f"{mod}.{name}" in found:
                targets.add(f"{mod}.{name}")
            elif name in owner:
                targets.update(f"{m}.{name}" for m in owner[name])
        resolved[key] = (no_runtime, targets)
    return resolved


def test_runtime_free_code_calls_only_runtime_free_code() -> None:
    funcs = _njit_functions()
    assert {
        "vector_kernel.bot_act",
        "kernel.best_color",
        "search.heur_choose",
        "kernel.play_round",
        "flip_kernel.play_round",
        "nm_kernel.play_round",
        "vector_flip_kernel.bot_act",
    } <= funcs.keys()
    unmarked = sorted(
        f"{caller} calls {callee}"
        for caller, (no_runtime, calls) in funcs.items()
        if no_runtime
        for callee in calls
        if callee in funcs and not funcs[callee][0]
    )
    assert unmarked == [], (
        "compiled without numba's runtime, these call functions that do not say "
        "_nrt=False (they inherit their first caller's setting; give them _nrt=False "
        "and no allocation): " + "; ".join(unmarked)
    )


# The entry points, environments first (they must compile on a cache that nothing else
# warmed), each driven far enough to run every compiled function it has.
EVERY_ENTRY_POINT = r"""
import time

import numpy as np

from unokit.bots.ismcts import ISMCTSBot
from unokit.engine.game import Game
from unokit.match import Match, Timing
from unokit.rl.vector import ActionSampler, UnoVectorEnv, UnoVectorGymEnv
from unokit.rules import RuleSet

t0 = time.perf_counter()
for opponents in ("random", "heuristic"):
    env = UnoVectorGymEnv(num_envs=8, num_players=3, opponents=opponents, record=True)
    obs, _ = env.reset(seed=1)
    sample = ActionSampler(8, seed=1)
    ended = 0
    for _ in range(300):
        obs, reward, terminated, truncated, info = env.step(sample(obs["action_mask"]))
        ended += int(terminated.sum())
    assert obs["observation"].shape[0] == 8 and obs["action_mask"].any(axis=1).all()
    assert ended > 0, "300 random decisions in 8 games and no round ended"
    print("UnoVectorGymEnv", opponents, "ok", f"{time.perf_counter() - t0:.0f} s", flush=True)

env = UnoVectorEnv(num_envs=8, num_players=3, record=True)
batch = env.reset(seed=1)
sample = ActionSampler(8, seed=2)
ended = 0
for _ in range(400):
    batch = env.step(sample(batch.mask))
    ended += int(batch.terminated.sum())
assert batch.obs.shape[0] == 8 and batch.mask.any(axis=1).all()
assert ended > 0, "400 random decisions in 8 games and no round ended"
env.record(0)
print("UnoVectorEnv ok", f"{time.perf_counter() - t0:.0f} s", flush=True)

genv = UnoVectorGymEnv(num_envs=8, num_players=3, preset="flip", record=True)
obs, _ = genv.reset(seed=1)
fenv = UnoVectorEnv(num_envs=8, num_players=3, preset="flip", record=True)
batch = fenv.reset(seed=1)
ended = 0
for _ in range(300):
    obs, reward, terminated, truncated, info = genv.step(sample(obs["action_mask"]))
    batch = fenv.step(sample(batch.mask))
    ended += int(terminated.sum() + batch.terminated.sum())
assert ended > 0, "300 random decisions in 16 Flip games and no round ended"
fenv.record(0)
print("UnoVectorEnv and UnoVectorGymEnv, flip, ok", f"{time.perf_counter() - t0:.0f} s",
      flush=True)
# No Mercy's vector kernel (rl.vector_nm_kernel), both interfaces
genv = UnoVectorGymEnv(num_envs=8, num_players=3, preset="no-mercy", record=True)
obs, _ = genv.reset(seed=1)
ended = 0
for _ in range(300):
    obs, reward, terminated, truncated, info = genv.step(sample(obs["action_mask"]))
    ended += int(terminated.sum())
assert ended > 0, "300 random decisions in 8 No Mercy games and no hand ended"
env = UnoVectorEnv(num_envs=8, num_players=4, preset="no-mercy", record=True)
batch = env.reset(seed=1)
for _ in range(400):
    batch = env.step(sample(batch.mask))
    ended += int(batch.terminated.sum())
env.record(0)
print("No Mercy vector envs ok", f"{time.perf_counter() - t0:.0f} s", flush=True)

rules = RuleSet()
for policy, fast_sample in ((1, True), (1, False), (2, True)):
    bots = [ISMCTSBot(seed=i, iterations=8, policy=policy, compiled=True,
                      fast_sample=fast_sample) for i in range(3)]
    game = Game(rules, ["A", "B", "C"], seed=policy, events=False)
    match = Match(game, bots, timing=Timing.instant())
    while not any(b.rollouts for b in bots):
        assert not game.round_over and match.bot_step()
    print("ISMCTSBot policy", policy, "fast_sample", fast_sample, "ok",
          f"{time.perf_counter() - t0:.0f} s", flush=True)
"""

NOTICE = "compiling the compiled engine for this machine"  # compiled.NOTICE's words
# a last resort against a hang: about 200 s of CPU, which took 494 s beside the rest of
# make test and passed 900 s once with the machine four times oversubscribed
COMPILE_BOUND = 1800
SIM = ("sim", "--engine", "compiled", "--games", "3000", "--players", "4", "--rounds-only",
       "--check", "1000", "--workers", "2", "--quiet",
       "--compare", "classic", "flip", "no-mercy")  # fmt: skip


def checkout_cache() -> list[Path]:
    """Where numba keeps the checkout's kernels, as numba itself says (``__pycache__``
    beside each source, ``NUMBA_CACHE_DIR``, or its user-wide folder when the sources'
    folder cannot be written), as absolute paths."""
    from unokit.compiled import kernel, search
    from unokit.rl import vector_kernel

    kernels = (kernel.run_games, search.deal_world, vector_kernel.sa_step)
    return sorted({Path(f._cache._cache_path).resolve() for f in kernels})


def _shares_the_group_cache(config: pytest.Config) -> bool:
    """Whether this test may compile into the checkout's cache for the numba group:
    only where the group runs after it, alone, in this process's order (no xdist, or
    ``--dist loadgroup``).  Under another distribution the group's tests run on other
    workers at the same time, and would both warm this test's cache and write the
    same index files at once."""
    return not os.environ.get("PYTEST_XDIST_WORKER") or bool(
        getattr(config.option, "loadgroup", False)
    )


def _run(args: list[str], cache: Path | None, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    elif env.get("NUMBA_CACHE_DIR"):  # the same folder, whatever the working directory
        env["NUMBA_CACHE_DIR"] = str(Path(env["NUMBA_CACHE_DIR"]).resolve())
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=COMPILE_BOUND,
    )


@pytest.mark.numba
@pytest.mark.slow
@pytest.mark.xdist_group("numba")
def test_every_entry_point_compiles_on_an_empty_cache(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    pytest.importorskip("numba")
    warm = any(next(d.glob("*.nbi"), None) for d in checkout_cache() if d.is_dir())
    if warm or not _shares_the_group_cache(request.config):
        cache: Path | None = tmp_path / "numba-cache"  # an empty one of our own
        cache.mkdir()
    else:
        cache = None  # the checkout's own, empty: what compiles here serves the group
    cold = _run(["-c", EVERY_ENTRY_POINT], cache, tmp_path)
    print(cold.stdout)  # the seconds each step took (pytest -s, or on a failure)
    assert cold.returncode == 0, cold.stdout + cold.stderr
    for line in ("UnoVectorGymEnv random ok", "UnoVectorGymEnv heuristic ok",
                 "UnoVectorEnv ok", "No Mercy vector envs ok",
                 "ISMCTSBot policy 2 fast_sample True ok"):  # fmt: skip
        assert line in cold.stdout
    assert cold.stderr.count(NOTICE) == 1, cold.stderr  # the environments say it

    # the simulator's entry points (run_games, play_game_entry) are its own: cold here
    first = _run(["-m", "unokit", *SIM, "--json", "first.json"], cache, tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stderr.count(NOTICE) == 1, first.stderr
    runs = json.loads((tmp_path / "first.json").read_text())["runs"]
    assert [r["games"] for r in runs] == [3000] * 3  # classic, Flip's kernel, No Mercy's
    for run in runs:
        timing = run["timing"]
        print("cold sim", timing)
        assert timing["compile_seconds"] > 1.0, timing
        # the games' CPU time (3,000 games take about 0.05 s) leaves the compilation out:
        # the workers loaded the engines from the cache the parent wrote, outside their
        # chunks
        assert timing["cpu_seconds"] < min(2.0, timing["compile_seconds"] / 2), timing

    again = _run(["-m", "unokit", *SIM, "--json", "again.json"], cache, tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "compil" not in again.stderr, again.stderr
    timing = json.loads((tmp_path / "again.json").read_text())["runs"][0]["timing"]
    assert timing["compile_seconds"] == 0.0, timing
