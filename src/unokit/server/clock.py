"""The clock of the rooms and their drivers: monotonic seconds from one source.

A room's turn timer, its bots' pauses, the autopilot of a player who left and the
next round all count from here (``Room``, ``Driver.due``), so a test can stop time
(``frozen``) and move it by hand: what is due, and when, is then checked to the
hundredth of a second without waiting for it, and a loaded machine cannot make the
answer late.  The server's waits (``asyncio``) still run on the loop's own clock: a
driver task running meanwhile wakes on real time and acts, so a test that stops the
clock runs no driver (its rooms are not added to the server) and asks ``Driver.due``
and ``Master.due`` itself.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

_source: Callable[[], float] = time.monotonic


def now() -> float:
    """Monotonic seconds (the fake clock's while ``frozen``)."""
    return _source()


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@contextlib.contextmanager
def frozen(start: float = 1_000.0) -> Iterator[FakeClock]:
    """Rooms and drivers read ``FakeClock`` inside the block (tests only)."""
    global _source
    fake, old = FakeClock(start), _source
    _source = fake
    try:
        yield fake
    finally:
        _source = old
