"""Which server of a cluster drives a room's bots, turn timer, autopilot and next
round: the one holding the room's lease in the store, taken by the server its players
are connected to and renewed while they play; a dead server's leases lapse and its
rooms are taken over."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from unokit.server.room import Room
from unokit.server.store import StoreError

if TYPE_CHECKING:
    from unokit.server.app import Server

import logging

log = logging.getLogger("unokit.server")

# A cluster's leases: a room's bots and clocks move again at most this long (plus a
# third of it, the renewal period) after their server died.
LEASE_SECONDS = 5.0
PATIENCE = 1.5  # an unheld room with no player here waits this long for its players' server
LEASE_MARGIN = 1.0  # seconds: a lease is given up this long before it could lapse
ORPHANS_A_TICK = 20  # rooms a lease loop's turn reads from the store to take them over


class Leases:
    """This server's leases and the loop that takes, renews and gives them up."""

    def __init__(self, server: Server, seconds: float = LEASE_SECONDS) -> None:
        self.server = server
        self.seconds = seconds
        self.held: set[str] = set()  # rooms whose lease this server holds (a cluster)
        self.kick = asyncio.Event()  # run the lease loop now (``want``)
        self.asked: set[str] = set()  # rooms that woke it this tick
        self.calls: set[asyncio.Future[Any]] = set()  # in their threads now
        # the leases in ``held`` run at least until then (from before the renewal's
        # request went out, less a margin): past it, drive nothing until renewed
        self.held_until = -math.inf

    def want(self, room: Room) -> None:
        """Ask the lease loop to run now for a room in play here that no one here drives:
        it just started here, a player of it sat down here, or its driver let it go
        (never on every change: a room whose lease another server holds would keep the
        loop asking the store).  So the server of the room's players drives it, not
        whoever looked first."""
        code = room.code
        if (
            self.server.cluster
            and room.status == "playing"
            and code not in self.held
            and code not in self.asked
        ):
            self.asked.add(code)
            self.kick.set()

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A lease call in its worker thread, which ``farewell`` waits for: cancelling
        the lease loop leaves the thread running, and a renewal landing after the
        farewell's release would take the rooms back."""
        task = asyncio.ensure_future(self.server.io(fn, *args))
        self.calls.add(task)
        task.add_done_callback(self.calls.discard)
        return await asyncio.shield(task)

    def players_away(self, room: Room) -> bool:
        """No player of ``room`` is connected here, and one is on another server."""
        here = any(s is not None and s.connected for s in room.seats)
        return not here and any(n > 0 for n in room.elsewhere.values())

    async def run(self) -> None:
        """Take or renew the lease of every room in play here, and pick up rooms whose
        server died (their lease lapsed): only the holder runs a room's bots, autopilot,
        turn timer and next round.  A server that cannot reach the store holds none.

        Which server takes a room: the one its players are connected to, at once (a room
        that starts here, or whose player reconnects here, wakes this loop); a room with
        no player here only when it is still unheld a moment later (``PATIENCE``), so
        leases follow the players instead of piling onto whichever server looks first.
        The loop wakes when another server's lease lapses, so a dead server's rooms move
        again within about the lease time of its last renewal."""
        patient: dict[str, float] = {}  # orphan -> when first seen without players here
        asked = time.monotonic()
        refused: dict[str, float] = {}  # orphan this server failed to read -> retry after
        while True:
            self.asked.clear()
            now = time.monotonic()
            more = False  # orphans left to read
            want = [
                c
                for c, r in self.server.rooms.items()
                if r.status == "playing" and (c in self.held or self.server.conns.get(c))
            ]
            # a room driven here whose players are all on other servers now (they came
            # back through the proxy elsewhere): handed to them, so leases do not pile
            # up on the servers that outlived the others
            away = [c for c in want if c in self.held and self.players_away(self.server.rooms[c])]
            want = [c for c in want if c not in away]
            lapse: float | None = None
            try:
                if away:
                    await self.call(self.server.store.release_leases, self.server.origin, away)
                    for code in away:
                        self.held.discard(code)
                        self.server.bus.publish({"t": "lease", "code": code})
                # when the next lease of another server lapses, asked before taking any:
                # a lease that lapses between the two is taken now (asked after, it
                # missed the wake-up, and was taken 5/3 s late, when a player's
                # reconnect woke this loop a moment before the lapse)
                asked = time.monotonic()
                lapse = await self.server.io(self.server.store.soonest_lapse, self.server.origin)
                # its own rooms first: taking over others' must not let these lapse
                held = await self.call(self.server.store.take_leases, self.server.origin, want,
                                     self.seconds)  # fmt: skip
                orphans = await self.server.io(self.server.store.orphans, 200)
                late = []
                for code in orphans:
                    if code in want or refused.get(code, 0.0) > now:
                        continue
                    if (
                        self.server.conns.get(code)
                        or now - patient.setdefault(code, now) >= PATIENCE
                    ):
                        late.append(code)
                for code in [c for c in patient if c not in orphans]:
                    del patient[code]  # someone took it
                for code in [c for c, until in refused.items() if until <= now]:
                    del refused[code]
                loaded = []
                reads = 0
                for code in late:
                    if code not in self.server.rooms:  # read from the store: a few a turn
                        if reads >= ORPHANS_A_TICK:
                            more = True  # the next turn comes at once
                            continue
                        reads += 1
                        try:
                            room = await self.server.find(code)
                        except StoreError:
                            raise
                        except Exception:  # one room this server cannot read stops no other
                            self.server.errors += 1
                            refused[code] = now + 30.0
                            log.exception("room %s: cannot be read to take it over", code)
                            continue
                        if room is None:
                            continue
                    loaded.append(code)
                if loaded:
                    held |= await self.call(
                        self.server.store.take_leases, self.server.origin, loaded, self.seconds
                    )
                for code in held:
                    patient.pop(code, None)
            except StoreError as e:
                # the leases taken at the last renewal run until then (counted from
                # before that request was sent, so never past the store's own expiry;
                # ``due`` stops driving at ``held_until`` even while a call hangs):
                # one failed turn does not give them up and read every room again
                if time.monotonic() < self.held_until:
                    held = set(self.held)
                else:
                    if self.held:
                        log.warning("leases: cannot reach the store, holding none: %s", e)
                    held = set()
            except Exception:
                self.server.errors += 1
                log.exception("leases failed")
                held = set()
            else:
                margin = min(LEASE_MARGIN, self.seconds / 4)
                if time.monotonic() > self.held_until:
                    # the drivers stopped at ``held_until`` (renewals failed) and wait
                    # for a change: the rooms kept are driven again now
                    for code in held & self.held:
                        ev = self.server.wake.get(code)
                        if ev is not None:
                            ev.set()
                self.held_until = now + self.seconds - margin
            gained = held - self.held
            self.held = held
            for code in gained:
                room = self.server.rooms.get(code)
                if room is None:
                    continue
                try:
                    async with self.server.locks[code]:
                        room = await self.server.refresh(self.server.rooms.get(code, room))
                        # a bot's pause counts from its turn's start, not from now
                        room.pause_passed()
                except StoreError:
                    self.held.discard(code)
                    continue
                ev = self.server.wake.get(code)
                if ev is not None:
                    ev.set()
            await self.server.commits.save_finished_games()
            wait = self.seconds / 3
            if lapse is not None:  # be there when another server's lease lapses
                # (``lapse`` counts from when it was asked: a wake-up a moment early finds
                # it not lapsed yet, and asks again first)
                wait = min(wait, max(0.01, lapse + 0.01 - (time.monotonic() - asked)))
            if more:
                wait = 0.0
            if patient:
                wait = min(wait, PATIENCE)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.kick.wait(), wait)
            self.kick.clear()
