"""A room's own clock: when it must act by itself next (a bot's move, the autopilot
of a player who left, the turn timer, the next round) and the task that does it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from unokit.server.clock import now as clock_now
from unokit.server.commit import LeaseLost
from unokit.server.room import Room, RoomChanged
from unokit.server.store import StoreError

if TYPE_CHECKING:
    from unokit.server.app import Server

log = logging.getLogger("unokit.server")


class Driver:
    """Drives the rooms this server may drive (all of them alone; in a cluster, those
    whose lease it holds)."""

    def __init__(self, server: Server) -> None:
        self.server = server

    # ------------------------------------------------------------------ driving ---
    def due(self, room: Room) -> tuple[float | None, str, int]:
        """When the room must act by itself next, and what: (delay or None, what, seat)."""
        match = room.match
        if room.status != "playing" or match is None:
            return None, "", -1
        if self.server.cluster and (
            room.code not in self.server.leases.held
            or time.monotonic() > self.server.leases.held_until
        ):
            return None, "", -1  # another server drives it, or may since the last renewal
        now = clock_now()  # the rooms' clock (``clock.frozen`` in tests)
        game = match.game
        if game.round_over:
            anyone = any(s is not None and s.kind == "person" and s.connected for s in room.seats)
            wait = room.timing.next_round if anyone else 1.0
            return max(0.0, room.changed_at + wait - now), "next_round", -1
        seat = match.next_to_ask()
        if seat is None:
            return None, "", -1
        if match.bots[seat] is not None:
            return max(0.0, room.changed_at + match.delay() - now), "bot", seat
        s = room.seats[seat]
        waits: list[tuple[float, str]] = []
        if s is not None and s.away_since is not None and seat not in room.elsewhere:
            waits.append((s.away_since + room.timing.autopilot_after - now, "autopilot"))
        if room.timing.turn_timer:
            waits.append((room.turn_at + room.timing.turn_timer - now, "timer"))
        if not waits:
            return None, "", -1
        delay, what = min(waits)
        return max(0.0, delay), what, seat

    async def drive(self, room: Room) -> None:
        """The room's own clock: bots, the autopilot, the turn timer, the next round."""
        code = room.code
        wake = self.server.wake[code]
        while self.server.rooms.get(code) is room:
            try:
                delay, what, seat = self.due(room)
                if delay is None:
                    await wake.wait()
                    wake.clear()
                    continue
                if delay > 0:
                    wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), timeout=delay)
                        wake.clear()
                        continue  # something changed: decide again
                if time.monotonic() < self.server.store_down_until:
                    await asyncio.sleep(self.server.store_down_until - time.monotonic())
                    continue
                lock = self.server.locks[code]
                busy = lock.locked()  # a free asyncio lock is taken without yielding
                async with lock:
                    if self.server.rooms.get(code) is not room:
                        break  # read again from the store meanwhile: its new driver runs
                    if room.broken:  # half-applied (``append``): decide on the store's
                        await self.server.reload(room)
                        break
                    if busy:  # others ran while this waited: is it still due?
                        again, what2, seat2 = self.due(room)
                        if again is None or again > 0.001 or (what2, seat2) != (what, seat):
                            continue
                    await self.server.master.due(room, what, seat)
            except asyncio.CancelledError:
                raise
            except LeaseLost:  # the lease ran out before the write: drive no more for now
                self.server.fenced += 1
                self.server.leases.held.discard(code)  # the lease loop takes it again if it is free
                log.warning("room %s: a %s was not stored: this server's lease of the room "
                            "ran out first", code, what)  # fmt: skip
                with contextlib.suppress(StoreError):
                    async with self.server.locks[code]:
                        await self.server.refresh(room)
            except RoomChanged:  # another server got there first: catch up, decide again
                self.server.conflicts += 1
                with contextlib.suppress(StoreError):
                    async with self.server.locks[code]:
                        await self.server.refresh(room)
            except StoreError as e:  # nothing was told; try again a little later
                self.server.store_failed(e)
                await asyncio.sleep(self.server.limits.store_retry)
            except Exception:
                self.server.errors += 1
                log.exception("room %s: the driver failed", code)
                await asyncio.sleep(1.0)
