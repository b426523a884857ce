"""How an action's log entry reaches the store before the action is applied: the
group commit, and what a commit can answer besides "stored"."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from unokit.server.room import RoomChanged
from unokit.server.store import Store, StoreError

log = logging.getLogger("unokit.server")

# How actions' log entries are committed: "group" (the default: ``GroupCommit``, in a
# worker thread when the store's commits wait for an fsync, ``--sync full``, else on
# the event loop's thread), "group-thread" and "group-inline" (either way, always),
# "each" (one transaction per action, inside its room's lock: the server before group
# commits).  docs/reliability.md compares them.
COMMITS = ("group", "group-thread", "group-inline", "each")


Then = Callable[[], None]


class Applied(Exception):
    """An entry is in the store's log, but applying it to this server's copy of the
    room failed (``cause``): the action is made all the same (the log is the truth), so
    it is acknowledged, and the room is read again from the store."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"stored, then applying it failed: {cause!r}")
        self.cause = cause


class LeaseLost(RoomChanged):
    """A driver's write (a bot move, the turn timer, the next round) was refused: this
    server's lease of the room ran out before it reached the store (it was paused for
    longer than the lease, or its renewals failed) and the room may be another
    server's to drive now (issue 48, D2).  Nothing was stored."""


class GroupCommit:
    """The log entries of every room, committed together: a group commit.

    A room queues its action's entry and waits, holding its lock; one task commits
    every entry queued since its last commit in one transaction (``append_many``),
    then runs each entry's ``then`` (which applies the action) and wakes the rooms,
    which broadcast.  So an action is durable before it changes the game or anyone is
    told, as with a commit per action, while a commit (with ``--sync full``, an
    fsync) serves every room that acted meanwhile.  ``threaded``: commit in a worker
    thread, so the loop goes on serving (and queueing) while SQLite waits for the disk
    (it releases the GIL).  Worth it only when a commit waits for an fsync: without
    one, handing each commit to a thread and back cost more CPU than the commit (at
    human pace, 0.67 cores against 0.55 inline, and twice the median latency).
    """

    def __init__(self, store: Store, threaded: bool = True) -> None:
        self.store = store
        self.threaded = threaded
        self.pending: list[
            tuple[str, int, int, dict[str, Any], str | None, Then, asyncio.Future[None]]
        ] = []
        self.wake = asyncio.Event()
        self.commits = 0  # transactions
        self.entries = 0  # entries committed
        self.largest = 0  # the most entries in one transaction
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def append(
        self,
        code: str,
        game: int,
        idx: int,
        entry: dict[str, Any],
        then: Then,
        holder: str | None = None,
    ) -> None:
        """Return once ``entry`` is durable at index ``idx`` of the game's log and
        ``then`` has run; ``StoreError`` if the store refused it, ``RoomChanged`` if
        another server stored an entry at that index first, ``LeaseLost`` if it needs
        ``holder``'s lease of the room and that lease no longer runs (then nothing
        ran).  Call it with the room's lock held: the entry was checked against the room
        as it is, and must be applied to it."""
        if self.task is None or self.task.done():
            raise StoreError("the store's committer is not running")
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((code, game, idx, entry, holder, then, fut))
        self.wake.set()
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            # the caller's lock must stay held until the entry is settled and applied,
            # or another action could be checked against the room without it
            with contextlib.suppress(BaseException):
                await fut
            raise

    async def run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.pending = self.pending, []
            if not batch:
                continue
            rows = [(code, game, idx, entry) for code, game, idx, entry, *_ in batch]
            holders = [h for *_, h, _, _ in batch]
            args: tuple[Any, ...] = (rows, holders) if any(holders) else (rows,)
            try:
                if self.threaded:
                    stored = await asyncio.to_thread(self.store.append_at, *args)
                else:
                    stored = self.store.append_at(*args)
            except asyncio.CancelledError:
                for *_, fut in batch:
                    fut.cancel()
                raise
            except Exception as e:
                err = e if isinstance(e, StoreError) else StoreError(f"storage failed: {e}")
                for *_, fut in batch:
                    if not fut.done():
                        fut.set_exception(err)
                continue
            self.commits += 1
            self.entries += len(batch)
            self.largest = max(self.largest, len(batch))
            for ok, (*_, then, fut) in zip(stored, batch, strict=True):
                if not ok:  # another server has this index: the room must catch up
                    if not fut.done():  # (None: the lease it needed is gone)
                        fut.set_exception(RoomChanged() if ok is False else LeaseLost())
                    continue
                try:
                    then()
                except Exception as e:  # stored: made, whatever failed here (``Applied``)
                    if not isinstance(e, RoomChanged):
                        log.exception("an action failed after its entry was committed")
                    if not fut.done():
                        fut.set_exception(Applied(e))
                    continue
                if not fut.done():
                    fut.set_result(None)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
