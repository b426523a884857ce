"""What keeps a long-running server small: rooms nobody uses leave memory (and, after
long enough, the store), and a timed full garbage collection bounds what the tuned
collector leaves behind."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import TYPE_CHECKING

from unokit.server.clock import now as clock_now
from unokit.server.room import Room
from unokit.server.store import StoreError

if TYPE_CHECKING:
    from unokit.server.app import Server

log = logging.getLogger("unokit.server")


def record_text(room: Room) -> str:
    from unokit.record import dumps

    assert room.match is not None
    return dumps(room.match.game)


class Upkeep:
    """The reaper and the timed collection of one server."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.reaper: asyncio.Task[None] | None = None
        self.collector: asyncio.Task[None] | None = None
        self.full_collections = 0  # timed full collections (``collect_every``)
        self.full_collection_max = 0.0  # the longest one, seconds
        self.full_collection_total = 0.0  # all of them, seconds

    async def collect_every(self, seconds: float) -> None:
        """A full cyclic collection every ``seconds``, under the tuned thresholds.

        The tuned thresholds collect the oldest generation so rarely that any reference
        cycle reaching it stays for hours (closed connections' transports did, until
        ``release_closed_transports``; the server grew by ~0.3 MB a minute).  One timed
        full collection bounds such garbage to what ``seconds`` make, at the cost of
        one pause per period (its length is kept in ``full_collection_max``).
        """
        while True:
            await asyncio.sleep(seconds)
            t = time.perf_counter()
            gc.collect()
            took = time.perf_counter() - t
            self.full_collections += 1
            self.full_collection_total += took
            self.full_collection_max = max(self.full_collection_max, took)

    async def reap(self) -> None:
        """Rooms with nobody connected and no change for a long time leave memory."""
        while True:
            await asyncio.sleep(60)
            try:
                await self.reap_once(clock_now())  # the rooms' clock (last_active)
            except Exception:  # the next sweep tries again: reaping never stops
                self.server.errors += 1
                log.exception("the idle-room sweep failed")

    async def reap_once(self, now: float) -> None:
        for code, room in list(self.server.rooms.items()):
            if self.server.conns.get(code) or self.server.rooms.get(code) is not room:
                continue
            if time.monotonic() < self.server.store_down_until:
                return  # the store is failing: every call would wait; next minute
            if now - room.last_active > self.server.limits.room_idle_seconds and not room.broken:
                seen = (room.last_active, room.rev, room.game_no, room.log_len)
                try:
                    # its store calls off the loop when they wait (PostgreSQL), with
                    # its lock held: no move or bus message changes it meanwhile
                    async with self.server.locks[code]:
                        if (
                            self.server.rooms.get(code) is not room
                            or self.server.conns.get(code)
                            or (room.last_active, room.rev, room.game_no, room.log_len) != seen
                        ):
                            continue  # changed, or someone came, while this waited
                        changed = await self.server.io(self.expire_stored, room)
                except StoreError as e:  # kept in memory; tried again next minute
                    log.warning("room %s could not be expired: %s", code, e)
                    self.server.store_failed(e)  # the rest wait: each call would wait too
                    return
                if not self.server.conns.get(code):
                    self.server.unload(room, changed)
                elif not changed:  # came during the store's calls: it is gone
                    self.server.drop(room)
                # (else another server changed it and someone came here: it stays)
                # one room's store calls at a time: the loop serves the others between
                # them (a thousand rooms idle at once stalled it for all of them)
                await asyncio.sleep(0)

    def expire(self, room: Room) -> None:
        """Store an idle room as expired, then let it leave memory (``StoreError``: the
        store failed and the room stays as it was)."""
        self.server.unload(room, self.expire_stored(room))

    def expire_stored(self, room: Room) -> bool:
        """The store's part of ``expire``; True when another server changed the room
        (then only this server's copy leaves)."""
        code = room.code
        row = room.to_row()
        if self.server.cluster and self.server.store.log_since(code, room.game_no, room.log_len):
            changed = True  # played elsewhere: only this server's copy is idle
        else:
            if room.status == "playing" and room.match is not None:
                # an abandoned game: keep its record downloadable
                self.server.store.save_record(code, room.game_no, record_text(room))
            row.data["status"] = "expired"
            row.data["rev"] = room.rev + 1
            changed = not self.server.store.put_room(row, room.rev if room.stored else None)
        return changed
