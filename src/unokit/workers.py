"""Worker processes for ``unokit sim`` and ``unokit tournament``, and Ctrl-C among them.

Ctrl-C in a terminal sends SIGINT to every process of the foreground group at once:
this one, multiprocessing's fork server (while it starts) and every worker (while it
starts, imports, or plays).  Two rules make that end the command quietly at any moment
(issue 51):

* The children are born with SIGINT blocked: the fork server is started while this
  thread blocks it, the mask survives ``exec``, and the workers forked from the server
  inherit it.  Before, a Ctrl-C while the server imported printed its traceback, and one
  while a worker started could kill that worker with another.
* While the pool runs, SIGINT here only raises a flag; the loop below notices it at a
  point where it holds no lock and ends the pool.  A ``KeyboardInterrupt`` raised
  anywhere (inside ``Pool()`` with half the workers started and not yet known to it,
  inside a ``Condition``'s ``__enter__`` with its lock taken) could leave a worker
  behind, or a lock that the pool's own threads then wait on forever.

``stage`` is a test's handle on each of those moments (tests/test_cli_hardening.py).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any, TypeVar

J = TypeVar("J")
R = TypeVar("R")

# How often the waiting loop looks at the Ctrl-C flag: a Ctrl-C ends the pool this soon.
POLL_SECONDS = 0.05

PAUSE_ENV = "UNOKIT_TEST_PAUSE"  # "STAGE:FOLDER", for tests only
PAUSE_GUARD_SECONDS = 120.0  # a test that died leaves no process paused for ever
_paused: set[str] = set()


def stage(name: str) -> None:
    """Pause at ``name`` when a test asks, so that it can press Ctrl-C at exactly this moment.

    With ``UNOKIT_TEST_PAUSE=NAME:FOLDER`` the first time a process reaches ``NAME`` it
    creates ``FOLDER/NAME.PID`` and waits until ``FOLDER/go`` exists.  A test waits for the
    first file, signals, then creates ``go``: the signal has arrived while the process
    stood here.  Without the variable this is one dictionary look-up.
    """
    spec = os.environ.get(PAUSE_ENV)
    if not spec:
        return
    want, _, folder = spec.partition(":")
    if want != name or name in _paused:
        return
    _paused.add(name)
    where = Path(folder)
    (where / f"{name}.{os.getpid()}").touch()
    go = where / "go"
    deadline = time.monotonic() + PAUSE_GUARD_SECONDS
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.005)


def _in_a_starting_child() -> bool:
    return bool(getattr(mp.current_process(), "_inheriting", False))


if _in_a_starting_child():  # a worker unpickling its start: this import is part of it
    stage("worker-import")


def quiet_worker(setup: Callable[..., None] | None = None, args: tuple[Any, ...] = ()) -> None:
    """A worker's start: Ctrl-C is the parent's to handle (it ends the pool).

    The blocked mask already keeps SIGINT out; this also covers a fork server that
    someone else started without it (a program that used the pool before, in-process).
    ``setup(*args)`` then prepares the worker before its first job (the simulator loads
    the compiled engine here, so that no timed chunk counts the loading).
    """
    global _setup_failed
    stage("worker-start")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        try:
            setup(*args)
        except BaseException as e:
            # An initializer that raises kills its worker, and the pool starts another
            # in its place, for ever: the command hung (found by review).  The error is
            # kept and raised by the worker's first job instead, so it reaches the
            # parent through the results like any job's error.
            _setup_failed = e


_setup_failed: BaseException | None = None


def _call(job: tuple[Callable[[Any], Any], Any]) -> Any:
    if _setup_failed is not None:
        raise _setup_failed
    fn, arg = job
    stage("worker-playing")
    return fn(arg)


def _hand_out(fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[Callable[[J], R], J]]:
    """The jobs as the pool's task thread takes them (a chunk is made as it is handed out)."""
    for job in jobs:
        stage("handing-out")
        yield fn, job


class _Flag:
    """Set by SIGINT; read by the loop.  No lock: the handler must never wait on one."""

    def __init__(self) -> None:
        self.up = False

    def raise_(self, signum: int, frame: Any) -> None:
        self.up = True


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread; a Ctrl-C meanwhile is delivered when it ends.

    Every process started in between (the fork server, hence every worker) and every
    thread (the pool's) inherits the block.
    """
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _start_pool(workers: int, setup: Callable[..., None] | None, args: tuple[Any, ...]) -> Any:
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    # The resource tracker, as it starts, unblocks SIGINT in the thread that starts it
    # (it blocks it around its own start): started inside the block below, during the
    # pool's first lock, it undid the block before the fork server began (found by
    # test_ctrl_c_while_the_fork_server_starts).  Once it runs, it is left alone.
    if ctx.get_start_method() == "forkserver":
        resource_tracker.ensure_running()
    with _sigint_blocked():
        stage("pool-start")
        pool = ctx.Pool(workers, initializer=quiet_worker, initargs=(setup, args))
        stage("pool-started")
    return pool


def run_pool(
    fn: Callable[[J], R],
    jobs: Iterable[J],
    workers: int,
    done: Callable[[R], None],
    setup: Callable[..., None] | None = None,
    args: tuple[Any, ...] = (),
) -> None:
    """``done(fn(job))`` for every job, ``fn`` in ``workers`` processes, ``done`` here.

    Results come in the order they are finished.  A Ctrl-C ends the workers and raises
    ``KeyboardInterrupt`` here, within about ``POLL_SECONDS``.
    """
    flag = _Flag()
    ours = threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )
    previous = signal.signal(signal.SIGINT, flag.raise_) if ours else None
    try:
        _run(fn, jobs, workers, done, flag, setup, args)
    finally:
        if ours:
            signal.signal(signal.SIGINT, previous)
    if flag.up:
        raise KeyboardInterrupt


def _run(
    fn: Callable[[J], R],
    jobs: Iterable[J],
    workers: int,
    done: Callable[[R], None],
    flag: _Flag,
    setup: Callable[..., None] | None,
    args: tuple[Any, ...],
) -> None:
    pool = _start_pool(workers, setup, args)
    try:
        results = pool.imap_unordered(_call, _hand_out(fn, jobs))
        while not flag.up:
            stage("waiting")
            try:
                out = results.next(timeout=POLL_SECONDS)
            except mp.TimeoutError:
                continue
            except StopIteration:
                break
            stage("merging")
            done(out)
    finally:
        pool.terminate()  # what ``with Pool()`` did; the workers are done or must stop
