"""Running simulations in chunks: in this process, on all local cores, or on Ray.

The games of a configuration are cut into chunks (a fixed function of the number of
games); each game's randomness comes from (seed, game index) alone, and the chunks'
integer tallies are merged in chunk order.  So the result is the same for the same seed
whatever the backend and the number of workers; only the timings differ.
"""

from __future__ import annotations

import bisect
import importlib
import itertools
import logging
import math
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from unokit.progress import progress_bar
from unokit.sim.config import SimConfig
from unokit.sim.driver import ChunkTask, run_chunk
from unokit.simbase import SimError, Tally
from unokit.workers import run_pool

BACKENDS = ("local", "ray")
# How long ``--address HOST:PORT`` may take to answer before unokit gives up.
RAY_CONNECT_SECONDS = 5.0
# The most games one run takes: 10^12 games are about two months of one core's work
# even on the compiled engine (~200,000 games/s).  The chunks are made as they are
# handed out, so memory does not grow with the count; this bound only refuses a typo.
MAX_GAMES = 10**12
# Ray: chunks submitted ahead of the results, per worker (the rest wait their turn).
RAY_AHEAD = 4


@dataclass
class SimResult:
    """A configuration, its merged tally, and how the run went (timings vary; counts don't)."""

    config: SimConfig
    tally: Tally
    cpu_seconds: float  # CPU time spent playing, summed over chunks (one core's work)
    wall_seconds: float  # the whole run (all configurations of a comparison together)
    workers: int
    backend: str
    # compiling the compiled engine before the games (a first run on this machine), not
    # in ``cpu_seconds``: the speed is the games' alone
    compile_seconds: float = 0.0

    @property
    def games_per_core_s(self) -> float:
        return self.tally.games / self.cpu_seconds if self.cpu_seconds > 0 else math.nan


def chunk_size(games: int) -> int:
    """Games per chunk: about 64 chunks, each of 10 to 2,000 games."""
    return max(10, min(2000, math.ceil(games / 64)))


def chunk_count(games: int) -> int:
    return -(-games // chunk_size(games))


def chunks(config: SimConfig) -> Iterator[ChunkTask]:
    """The chunks of ``config``, in order, made one at a time."""
    size = chunk_size(config.games)
    for start in range(0, config.games, size):
        yield ChunkTask(config, start, min(size, config.games - start))


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def load_compiled(check: bool, games: tuple[str, ...] = ("classic",)) -> None:
    """A worker's start with the compiled engine: load it from numba's cache, which the
    parent filled (``prepare_compiled``), so that its first chunk's CPU time, and so the
    reported speed, does not count the loading."""
    from unokit import compiled

    compiled.warm(check, games)


def compiled_games(configs: Sequence[SimConfig]) -> tuple[str, ...]:
    """The games the compiled configurations play (each has its own kernel to warm)."""
    from unokit.rules import game_of_deck

    return tuple(sorted({game_of_deck(c.rules().deck) for c in configs if c.engine == "compiled"}))


def compiled_check(configs: Sequence[SimConfig]) -> bool | None:
    """None if no configuration runs the compiled engine, else whether one checks games."""
    fast = [c for c in configs if c.engine == "compiled"]
    return any(c.check for c in fast) if fast else None


def prepare_compiled(configs: Sequence[SimConfig]) -> float:
    """Compile the compiled engine in this process before any worker starts (saying so
    on stderr on a first run); the seconds it took, 0.0 if numba's cache had it.

    Once here, not once per worker: workers started together on an empty cache would
    each compile the same code, for minutes of every core.
    """
    check = compiled_check(configs)
    if check is None:
        return 0.0
    from unokit import compiled

    return compiled.prepare(check, compiled_games(configs))


def _timed_chunk(job: tuple[int, ChunkTask]) -> tuple[int, Tally, float]:
    i, task = job
    t0 = time.process_time()  # CPU time: fair per-core speed on a shared machine
    tally = run_chunk(task)
    return i, tally, time.process_time() - t0


Done = Callable[[int, Tally, float], None]


Jobs = Iterator[tuple[int, ChunkTask]]


def _run_local(
    jobs: Jobs,
    n_jobs: int,
    workers: int,
    done: Done,
    check: bool | None = None,
    games: tuple[str, ...] = ("classic",),
) -> None:
    if workers <= 1 or n_jobs <= 1:
        for job in jobs:
            done(*_timed_chunk(job))
        return
    # takes jobs as workers free; Ctrl-C at any moment ends it (unokit.workers)
    setup = None if check is None else load_compiled
    args = (check, games)
    run_pool(_timed_chunk, jobs, min(workers, n_jobs), lambda out: done(*out), setup, args)


def import_ray() -> Any:
    """Ray, imported only when asked for; a clear error if it is not installed."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SimError(
            "the ray backend needs Ray, an optional extra: pip install 'unokit[ray]'"
        ) from None


def check_ray_address(address: str, timeout: float = RAY_CONNECT_SECONDS) -> None:
    """Refuse quickly a ``HOST:PORT`` where nothing listens (Ray itself retries for minutes).

    ``auto`` and addresses without a port are left to Ray, which answers those at once.
    """
    if address == "auto":
        return
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout):
            pass
    except OSError as e:
        why = f"no answer in {timeout:g} s" if isinstance(e, TimeoutError) else e.strerror or e
        raise SimError(f"no Ray cluster answers at {address} ({why})") from None


def _run_ray(jobs: Jobs, workers: int | None, address: str | None, done: Done) -> None:
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        if address:
            check_ray_address(address)
            kwargs["address"] = address
        else:
            kwargs["include_dashboard"] = False
            if workers:
                kwargs["num_cpus"] = workers
        try:
            ray.init(**kwargs)
        except Exception as e:  # ConnectionError and Ray's own errors alike
            raise SimError(f"cannot start or reach Ray ({address or 'local'}): {e}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1)(_timed_chunk)
        ahead = RAY_AHEAD * max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = [remote.remote(job) for job in itertools.islice(jobs, ahead)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            pending += [remote.remote(job) for job in itertools.islice(jobs, len(ready))]
            for ref in ready:
                done(*ray.get(ref))
    finally:
        if started:
            ray.shutdown()


def simulate(
    configs: Sequence[SimConfig],
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
) -> list[SimResult]:
    """Run every configuration; one result per configuration, in the same order."""
    if backend not in BACKENDS:
        raise SimError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise SimError(f"--workers must be at least 1, not {workers}")
    if address and backend != "ray":
        raise SimError("--address needs --backend ray")
    for cfg in configs:
        check_games(cfg.games)
    # Job i belongs to the configuration whose range of job indices holds it.
    starts = list(itertools.accumulate((chunk_count(c.games) for c in configs), initial=0))
    n_jobs = starts[-1]
    jobs = enumerate(task for cfg in configs for task in chunks(cfg))
    merged = [Tally(c.players) for c in configs]
    waiting: dict[int, Tally] = {}  # done out of order, until the chunks before are in
    cpu = [0.0] * len(configs)
    total = sum(c.games for c in configs)
    n_workers = workers or default_workers()
    # before the clock of the run starts: the wall time, like the speed, is the games'
    # (a Ray cluster named by --address compiles on its own machines: not here)
    compiling = prepare_compiled(configs) if backend == "local" or not address else 0.0
    label = "simulating" if len(configs) == 1 else f"{len(configs)} rule sets"
    t0 = time.perf_counter()
    following = 0  # the next job index to merge: tallies are merged in chunk order
    with progress_bar(total, progress, label, rate="games/s") as advance:

        def done(i: int, tally: Tally, seconds: float) -> None:
            nonlocal following
            cpu[bisect.bisect_right(starts, i) - 1] += seconds
            waiting[i] = tally
            while following in waiting:
                merged[bisect.bisect_right(starts, following) - 1].merge(waiting.pop(following))
                following += 1
            advance(tally.games + tally.stalled)

        if backend == "ray":
            _run_ray(jobs, workers, address, done)
        else:
            _run_local(
                jobs, n_jobs, n_workers, done, compiled_check(configs), compiled_games(configs)
            )
    if following != n_jobs:  # pragma: no cover - every job reports or raises
        raise SimError("a chunk of the simulation did not report")
    wall = time.perf_counter() - t0
    return [
        SimResult(cfg, merged[ci], cpu[ci], wall, n_workers, backend, compiling)
        for ci, cfg in enumerate(configs)
    ]


def check_games(games: int) -> None:
    """Refuse a game count no run could finish (``MAX_GAMES``), before any work."""
    if games > MAX_GAMES:
        raise SimError(
            f"--games {games:,} is more than one run plays (at most {MAX_GAMES:,}, about "
            "two months of one core on the compiled engine); run fewer games, or several "
            "runs with different --seed"
        )
