"""Running simulations in chunks: in this process, on all local cores, or on Ray.

The games of a configuration are cut into chunks (a fixed function of the number of
games); each game's randomness comes from (seed, game index) alone, and the chunks'
integer tallies are merged in chunk order.  So the result is the same for the same seed
whatever the backend and the number of workers; only the timings differ.
"""

from __future__ import annotations

import importlib
import logging
import math
import multiprocessing as mp
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from unokit.progress import progress_bar
from unokit.sim.config import SimConfig
from unokit.sim.driver import ChunkTask, run_chunk
from unokit.simbase import SimError, Tally

BACKENDS = ("local", "ray")
# How long ``--address HOST:PORT`` may take to answer before unokit gives up.
RAY_CONNECT_SECONDS = 5.0


@dataclass
class SimResult:
    """A configuration, its merged tally, and how the run went (timings vary; counts don't)."""

    config: SimConfig
    tally: Tally
    cpu_seconds: float  # CPU time spent playing, summed over chunks (one core's work)
    wall_seconds: float  # the whole run (all configurations of a comparison together)
    workers: int
    backend: str

    @property
    def games_per_core_s(self) -> float:
        return self.tally.games / self.cpu_seconds if self.cpu_seconds > 0 else math.nan


def chunk_size(games: int) -> int:
    """Games per chunk: about 64 chunks, each of 10 to 2,000 games."""
    return max(10, min(2000, math.ceil(games / 64)))


def chunks(config: SimConfig) -> list[ChunkTask]:
    size = chunk_size(config.games)
    return [
        ChunkTask(config, start, min(size, config.games - start))
        for start in range(0, config.games, size)
    ]


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _timed_chunk(job: tuple[int, ChunkTask]) -> tuple[int, Tally, float]:
    i, task = job
    t0 = time.process_time()  # CPU time: fair per-core speed on a shared machine
    tally = run_chunk(task)
    return i, tally, time.process_time() - t0


Done = Callable[[int, Tally, float], None]


def _run_local(jobs: list[tuple[int, ChunkTask]], workers: int, done: Done) -> None:
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            done(*_timed_chunk(job))
        return
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ctx.Pool(min(workers, len(jobs))) as pool:
        for out in pool.imap_unordered(_timed_chunk, jobs):
            done(*out)


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


def _run_ray(
    jobs: list[tuple[int, ChunkTask]], workers: int | None, address: str | None, done: Done
) -> None:
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
        pending = [remote.remote(job) for job in jobs]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
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
    jobs: list[tuple[int, ChunkTask]] = []
    owner: list[int] = []  # job index -> configuration index
    for ci, cfg in enumerate(configs):
        for task in chunks(cfg):
            owner.append(ci)
            jobs.append((len(jobs), task))
    parts: list[Tally | None] = [None] * len(jobs)
    cpu = [0.0] * len(configs)
    total = sum(c.games for c in configs)
    n_workers = workers or default_workers()
    label = "simulating" if len(configs) == 1 else f"{len(configs)} rule sets"
    t0 = time.perf_counter()
    with progress_bar(total, progress, label, rate="games/s") as advance:

        def done(i: int, tally: Tally, seconds: float) -> None:
            parts[i] = tally
            cpu[owner[i]] += seconds
            advance(tally.games + tally.stalled)

        if backend == "ray":
            _run_ray(jobs, workers, address, done)
        else:
            _run_local(jobs, n_workers, done)
    wall = time.perf_counter() - t0
    results: list[SimResult] = []
    for ci, cfg in enumerate(configs):
        merged = Tally(cfg.players)
        for i, part in enumerate(parts):  # in chunk order
            if owner[i] == ci:
                if part is None:  # pragma: no cover - every job reports or raises
                    raise SimError("a chunk of the simulation did not report")
                merged.merge(part)
        results.append(SimResult(cfg, merged, cpu[ci], wall, n_workers, backend))
    return results
