"""The web server: HTTP for rooms and records, one websocket per client for play.

The master pipeline for every websocket message, in order (boardgame.io's master is
the model): size limit and parse (pydantic, unknown fields refused), the connection's
seat (authenticated once by its token in ``hello``), the room exists and its game is
not over, the seat may act now, the version matches, the action checked, its log entry
committed (with other rooms' entries: ``GroupCommit``), the action applied, and only
then each connection is sent its own view and events.  Errors go
back to the sender only, with a stable code; a refused message changes nothing.

Everything runs on one asyncio event loop, so a room's handlers never interleave
between the check and the apply; a per-room lock makes that explicit for the few
paths that await.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from unokit.engine.actions import Action
from unokit.match import Timing
from unokit.server import ops
from unokit.server.bus import Bus, LocalBus
from unokit.server.commit import COMMITS, Applied, GroupCommit, LeaseLost, Then
from unokit.server.conns import (
    Conn,
    encode,
    err,
)
from unokit.server.driver import Driver
from unokit.server.leases import LEASE_SECONDS, Leases
from unokit.server.limits import Limits, Window
from unokit.server.peers import Peers
from unokit.server.room import (
    Room,
    RoomChanged,
    RoomError,
    act_entry,
)
from unokit.server.session import Sessions
from unokit.server.store import MemoryStore, RoomRow, SQLiteStore, Store, StoreError
from unokit.server.web import HttpRoutes

log = logging.getLogger("unokit.server")


class Server:
    """The rooms in memory, their connections and drivers, and the store."""

    def __init__(
        self,
        store: Store,
        timing: Timing | None,
        limits: Limits,
        commit: str = "group",
        bus: Bus | None = None,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        if commit not in COMMITS:
            raise ValueError(f"commit must be one of {', '.join(COMMITS)}")
        self.store = store
        # a cluster (``--bus``): several servers on one store; rooms load on demand,
        # changes are announced on the bus, one server at a time drives a room's bots
        # and clocks (the lease holder)
        self.bus: Bus = bus if bus is not None else LocalBus()
        self.cluster = self.bus.cluster
        self.origin = self.bus.origin
        self.leases = Leases(self, lease_seconds)
        self.peers = Peers(self)
        self.driver = Driver(self)
        self.stopping = False  # ``farewell`` said: leases handed over, clients told
        self._repairs: dict[str, asyncio.Task[None]] = {}  # broken rooms read again
        self.refreshes = 0  # rooms read again from the store (a cluster)
        self.conflicts = 0  # writes another server got to first
        self.fenced = 0  # driver writes refused: the lease had run out (``LeaseLost``)
        self._cluster_tasks: list[asyncio.Task[None]] = []
        # actions' entries: group-committed (the default), or one commit each
        if commit == "group":  # a worker thread only when commits wait for the disk
            commit = "group-thread" if getattr(store, "sync", "") == "full" else "group-inline"
        self.commit_mode = commit
        self.group: GroupCommit | None = (
            GroupCommit(store, threaded=commit == "group-thread") if commit != "each" else None
        )
        self.timing = timing
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        self.conns: dict[str, set[Conn]] = defaultdict(set)
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.wake: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.meta: dict[str, int] = defaultdict(int)
        self.public_text: dict[str, str] = {}  # the room message (spectator's) last sent
        self.public_meta: dict[str, int] = {}  # the meta counter that text was made at
        self.per_address: dict[str, int] = defaultdict(int)
        self.room_window = Window(limits.rooms_per_address_per_hour, 3600)
        self.join_window = Window(limits.joins_per_address_per_minute, 60)
        self.lookup_window = Window(limits.lookups_per_address_per_minute, 60)
        self.flood_window = Window(limits.floods_per_address_per_minute, 60)
        self.floods = 0  # connections closed for flooding
        self.errors = 0  # unexpected exceptions (bugs), for tests and the load test
        self.accepted = 0
        self.store_failures = 0
        self.store_down_until = 0.0  # monotonic: refuse moves until then
        self._reaper: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
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

    # ------------------------------------------------------------------ rooms -----
    def restore(self) -> None:
        if self.cluster:  # rooms load when a player asks (``find``) or their lease lapses
            return
        for row in self.store.load_rooms():
            if row.data.get("status") == "expired":
                continue
            try:
                room = Room.restore(row, self.store, self.timing)
            except Exception:
                log.exception("room %s could not be restored", row.code)
                self.errors += 1
                continue
            self.add(room)

    def add(self, room: Room) -> None:
        room.defer_finish = True  # a finished game is saved off the loop (``append``)
        self.rooms[room.code] = room
        ops.ROOMS.set(len(self.rooms))
        code = room.code

        def changed(meta: bool) -> None:
            if meta:
                self.meta[code] += 1
            ev = self.wake.get(code)
            if ev is not None:
                ev.set()

        room.on_change = changed
        self.wake[code] = asyncio.Event()
        self.drivers[code] = asyncio.get_running_loop().create_task(self.driver.drive(room))

    def room(self, code: str) -> Room:
        code = code.upper()
        room = self.rooms.get(code)
        if room is None:
            raise RoomError(f"there is no room {code}", code="no_room")
        return room

    async def io(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call the store: in a worker thread when its calls wait (PostgreSQL, or
        SQLite with fsyncs), so the loop goes on serving other rooms."""
        if getattr(self.store, "sync", "") == "full":
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    async def find(self, code: str) -> Room | None:
        """The room of ``code``: in memory, or, in a cluster, as the store has it (a
        player may reach any server)."""
        code = code.upper()
        room = self.rooms.get(code)
        if room is not None or not self.cluster:
            return room
        async with self.locks[code]:
            room = self.rooms.get(code)
            if room is not None:
                return room
            # its channel first, then the store: a change another server stores after
            # this read is heard (one stored before it is in what is read)
            try:
                await self.bus.watch(code)
                row = await self.io(self.store.load_room, code)
                if row is None or row.data.get("status") == "expired":
                    self.locks.pop(code, None)  # no lock kept for every code someone tried
                    self.bus.unwatch(code)
                    return None
                found: Room = await self.io(Room.restore, row, self.store, self.timing)
            except BaseException:
                self.bus.unwatch(code)
                raise
            self.add(found)
            return found

    def replace(self, old: Room, new: Room) -> None:
        """``new`` (the store's) takes ``old``'s place: its connections, their counts,
        its driver."""
        code = old.code
        for i, s in enumerate(new.seats):
            o = old.seats[i] if i < len(old.seats) else None
            if s is not None and o is not None:
                s.connected, s.away_since = o.connected, o.away_since
        new.elsewhere = dict(old.elsewhere)
        for conn in self.conns.get(code, ()):
            object.__setattr__(conn, "room", new)
        task = self.drivers.pop(code, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self.meta[code] += 1
        self.add(new)

    async def refresh(self, room: Room) -> Room:
        """Bring ``room`` to what the store has (with its lock held): the new entries of
        its game, or, if its metadata or game changed, the room read again."""
        code = room.code
        room = self.rooms.get(code, room)  # the current copy, if it was replaced
        self.refreshes += 1
        row = await self.io(self.store.load_room, code)
        if row is None or row.data.get("status") == "expired":
            self.drop(room)
            return room
        if int(row.data.get("rev", 0)) == room.rev and row.data.get("game") == room.game_no:
            if room.match is None:
                return room
            entries = await self.io(self.store.log_since, code, room.game_no, room.log_len)
            if not entries:
                return room
            try:
                room.catch_up(entries)
                room.changed_unseen = True  # read from the store, made some time ago
                self.broadcast(room, local=False)
                self.peers.announce(room)  # others who missed the same news catch up too
                return room
            except Exception:
                log.warning("room %s: its stored entries did not apply; reading it again", code)
        return await self.reload(room, row)

    async def reload(self, room: Room, row: RoomRow | None = None) -> Room:
        """Read ``room`` again from the store, whole (with its lock held), and send its
        connections what it now is."""
        code = room.code
        room = self.rooms.get(code, room)
        if row is None:
            self.refreshes += 1
            row = await self.io(self.store.load_room, code)
            if row is None or row.data.get("status") == "expired":
                self.drop(room)
                return room
        new: Room = await self.io(Room.restore, row, self.store, self.timing)
        self.replace(room, new)
        self.broadcast(new, local=False)
        # a server that died between its commit and its message left every other server
        # behind; whoever finds out tells them (each reads the store once, then ignores)
        self.peers.announce(new)
        return new

    def drop(self, room: Room) -> None:
        """The room left the store (expired): it leaves memory, its players are told."""
        code = room.code
        self.rooms.pop(code, None)
        ops.ROOMS.set(len(self.rooms))
        task = self.drivers.pop(code, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        for conn in list(self.conns.get(code, ())):
            conn.send(err("no_room", "this room is gone"))
        self.forget(code)

    def chat(self, code: str, line: dict[str, Any]) -> None:
        for c in list(self.conns.get(code, ())):
            c.send(line)

    async def save_finished_games(self) -> None:
        """Save the finished games whose record or row could not be saved when they
        ended (``Room.finish_pending``); one that lost a race to another server is read
        again (its log's end finishes it there)."""
        for code, room in list(self.rooms.items()):
            if not room.finish_pending or room.broken:
                continue
            try:
                async with self.locks[code]:
                    await self.io(room.save_finished)
            except RoomChanged:
                with contextlib.suppress(StoreError):
                    async with self.locks[code]:
                        await self.refresh(self.rooms.get(code, room))
            except StoreError:
                return  # the store is still away: next turn

    # ------------------------------------------------------------------ storage ---
    def store_failed(self, e: StoreError) -> None:
        """The store refused a write (disk full, database locked...): for a moment every
        move is refused at once, without touching the store, then the next one tries."""
        self.store_failures += 1
        self.store_down_until = time.monotonic() + self.limits.store_retry
        log.error("storage failed; moves are refused for %.1f s: %s", self.limits.store_retry, e)

    def check_store(self) -> None:
        if time.monotonic() < self.store_down_until:
            raise StoreError("the store failed a moment ago")

    # ------------------------------------------------------------------ telling ---
    def broadcast(self, room: Room, meta: bool = True, local: bool = True) -> None:
        """Send every connection of ``room`` what it must now learn (``local``: this
        server changed it, so the cluster's other servers are told too).

        The room message goes out only when its text changed: every action marks the
        room changed, but most change nothing it shows (seats, status, commitments),
        and sending it again cost a third of the server's time under load.
        """
        if room.broken:  # half-applied: nobody is shown it (it is read again first)
            return
        code = room.code
        if local:
            self.peers.announce(room)
        elif self.cluster:
            self.peers.evict(room)
        conns = list(self.conns.get(code, ()))
        sent_at = self.public_meta.get(code)
        if meta and self.meta[code] != sent_at:
            text = encode(room.public(None))
            if text == self.public_text.get(code):
                for conn in conns:  # up to date with the last text: nothing to send
                    if conn.meta == sent_at:
                        conn.meta = self.meta[code]
            self.public_text[code] = text
            self.public_meta[code] = self.meta[code]
        for conn in conns:
            self.tell(conn, meta)

    def tell(self, conn: Conn, meta: bool = True) -> None:
        room = conn.room
        if meta and conn.meta != self.meta[room.code]:
            conn.meta = self.meta[room.code]
            conn.send(room.public(conn.seat))
        if room.match is None or room.game_no == 0:
            return
        if conn.game != room.game_no:
            conn.game = room.game_no
            conn.seq = room.history_start()
        msg, conn.seq = room.state_for(conn.seat, conn.seq)
        conn.send(msg)

    async def change(self, room: Room, op: Callable[[Room], Any]) -> Any:
        """Run ``op`` (a change of the room that the store keeps: a join, the start, a
        kick...) on a private twin of ``room``, in a worker thread when the store's calls
        wait (PostgreSQL), then publish the twin in ``room`` on the loop: the change is
        seen only once it is stored, by the readers that do not take the room's lock
        too (a websocket's hello, the lobby), and a change the store refused or failed
        is never seen.  Returns what ``op`` returns.  Call it with the room's lock held."""
        await self.mend(room)
        twin = room.twin()
        try:
            result = await self.io(op, twin)
        except BaseException as e:
            if twin.rev != room.rev and twin.status == room.status:
                # the change undid itself in the store too (a start whose deal could not
                # be logged saves the lobby again): the row is the room as it was
                room.rev, room.stored = twin.rev, twin.stored
            elif twin.rev != room.rev and isinstance(e, Exception):
                # part of it was stored and this copy no longer matches the row (a
                # rematch saved the finished game, then its start failed): read it again
                # now, so the next try does not cross this server's own row
                try:
                    await self.reload(room)
                except Exception as again:  # the original error is the one raised
                    if not isinstance(again, StoreError):
                        self.errors += 1
                        log.exception("room %s: reading it again failed", room.code)
                    self.mark_broken(room)  # read again before anything is decided on it
            raise
        room.publish(twin)
        room.touch()
        return result

    def mark_broken(self, room: Room) -> None:
        """``room``'s copy is half-applied and could not be read again: nobody is shown
        it and nothing is decided on it (``mend``), and it is read again every
        ``store_retry`` seconds until that works (then everyone is sent the store's
        room), so a room nobody acts in is not left blank for those who come."""
        room.broken = True
        code = room.code
        if self.stopping or code in self._repairs:
            return  # shutting down (the next start reads it), or already being repaired

        async def repair() -> None:
            wait = self.limits.store_retry
            while self.rooms.get(code) is room and room.broken:
                await asyncio.sleep(wait)
                wait = min(wait * 2, 60.0)  # a room that never reads back is not spun on
                if self.rooms.get(code) is not room:
                    break
                try:
                    async with self.locks[code]:
                        if self.rooms.get(code) is room and room.broken:
                            await self.reload(room)
                except StoreError:
                    continue
                except Exception:
                    self.errors += 1
                    log.exception("room %s: reading it again failed", code)

        task = asyncio.get_running_loop().create_task(repair())
        self._repairs[code] = task
        task.add_done_callback(lambda _: self._repairs.pop(code, None))

    async def mend(self, room: Room) -> None:
        """A copy left half-applied (``Room.broken``: an entry stored, applying it failed
        and reading the room again failed too) decides nothing: it is read again first,
        and the request is answered as one that crossed another server's change
        (``RoomChanged``: a fresh view follows); while the store is still away, the
        ``StoreError`` refuses it with nothing stored."""
        if room.broken:
            await self.reload(room)
            raise RoomChanged()

    async def next_round(self, room: Room, by: int | None, driven: bool = False) -> None:
        entry, then = room.next_round_entry(by)
        await self.append(room, entry, then, driven)

    async def commit(
        self,
        room: Room,
        seat: int,
        action: Action,
        version: int | None,
        person: bool = False,
        driven: bool = False,
    ) -> None:
        """Log ``action`` (checked by the room), then apply it: the way a person's or
        a bot's action reaches a game on the server.  ``driven``: the room's driver
        decided it (a bot, the turn timer), so it needs this server's lease."""
        entry = act_entry(seat, action, room.match.game if room.match else None)

        def then() -> None:
            room.stored_entry(entry)
            room.commit(seat, action, version, person)

        await self.append(room, entry, then, driven)

    async def append(
        self, room: Room, entry: dict[str, Any], then: Then, driven: bool = False
    ) -> None:
        """Store ``entry`` at the room's next log index, then run ``then`` (which applies
        it): in the group commit, or alone (``--commit each``).  A game the entry ended
        is saved next (its record and row), off the loop.  In a cluster, an entry the
        room's driver decided is stored only under this server's lease (``LeaseLost``:
        it was not), checked in the store's transaction: the driver's own check
        (``due``) comes before a pause that may outlast the lease (issue 48, D2)."""
        await self.mend(room)
        idx = room.log_len
        holder = self.origin if driven and self.cluster else None
        try:
            if self.group is None:  # off the loop when the store waits (its lock held)
                row = (room.code, room.game_no, idx, entry)
                args: tuple[Any, ...] = ([row], [holder]) if holder else ([row],)
                ok = (await self.io(self.store.append_at, *args))[0]
                if not ok:
                    raise RoomChanged() if ok is False else LeaseLost()
                try:
                    then()
                except Exception as e:
                    raise Applied(e) from e
                return
            began = time.perf_counter()
            await self.group.append(room.code, room.game_no, idx, entry, then, holder)
            ops.COMMIT_SECONDS.observe(time.perf_counter() - began)
        except Applied as e:
            # the entry is stored, so the action is made: acknowledged, never refused
            # (its player would be told it was not, then shown it made); this copy of
            # the room is read again from the store and everyone is sent it
            if not isinstance(e.cause, RoomChanged):
                self.errors += 1
            log.warning("room %s: an entry stored, then not applied here; reading the room "
                        "again: %r", room.code, e.cause)  # fmt: skip
            try:
                await self.reload(room)
            except Exception as again:
                # still made (it is in the log): not refused; the next action on this
                # copy reads the room first (and is refused while the store is away)
                self.mark_broken(room)
                if isinstance(again, StoreError):
                    self.store_failed(again)
                else:
                    self.errors += 1
                    log.exception("room %s: reading it again failed", room.code)
            return
        if room.finish_pending and room.status == "over":
            await self.save_finished(room)

    async def save_finished(self, room: Room) -> None:
        """Save a finished game's record and row (``Room.save_finished``) off the loop; if
        it fails it stays pending (the lease loop, the room's next save or its next
        reading from the store saves it), and a lost race reads the room again."""
        try:
            await self.io(room.save_finished)
        except RoomChanged:
            self.conflicts += 1
            with contextlib.suppress(StoreError, RoomChanged):
                await self.reload(room)
        except StoreError as e:
            log.warning("room %s: the finished game could not be saved yet: %s", room.code, e)

    async def reap(self) -> None:
        """Rooms with nobody connected and no change for a long time leave memory."""
        while True:
            await asyncio.sleep(60)
            try:
                await self.reap_once(time.monotonic())
            except Exception:  # the next sweep tries again: reaping never stops
                self.errors += 1
                log.exception("the idle-room sweep failed")

    async def reap_once(self, now: float) -> None:
        for code, room in list(self.rooms.items()):
            if self.conns.get(code) or self.rooms.get(code) is not room:
                continue
            if time.monotonic() < self.store_down_until:
                return  # the store is failing: every call would wait; next minute
            if now - room.last_active > self.limits.room_idle_seconds and not room.broken:
                seen = (room.last_active, room.rev, room.game_no, room.log_len)
                try:
                    # its store calls off the loop when they wait (PostgreSQL), with
                    # its lock held: no move or bus message changes it meanwhile
                    async with self.locks[code]:
                        if (
                            self.rooms.get(code) is not room
                            or self.conns.get(code)
                            or (room.last_active, room.rev, room.game_no, room.log_len) != seen
                        ):
                            continue  # changed, or someone came, while this waited
                        changed = await self.io(self.expire_stored, room)
                except StoreError as e:  # kept in memory; tried again next minute
                    log.warning("room %s could not be expired: %s", code, e)
                    self.store_failed(e)  # the rest wait: each call would wait too
                    return
                if not self.conns.get(code):
                    self.unload(room, changed)
                elif not changed:  # came during the store's calls: it is gone
                    self.drop(room)
                # (else another server changed it and someone came here: it stays)
                # one room's store calls at a time: the loop serves the others between
                # them (a thousand rooms idle at once stalled it for all of them)
                await asyncio.sleep(0)

    def expire(self, room: Room) -> None:
        """Store an idle room as expired, then let it leave memory (``StoreError``: the
        store failed and the room stays as it was)."""
        self.unload(room, self.expire_stored(room))

    def expire_stored(self, room: Room) -> bool:
        """The store's part of ``expire``; True when another server changed the room
        (then only this server's copy leaves)."""
        code = room.code
        row = room.to_row()
        if self.cluster and self.store.log_since(code, room.game_no, room.log_len):
            changed = True  # played elsewhere: only this server's copy is idle
        else:
            if room.status == "playing" and room.match is not None:
                # an abandoned game: keep its record downloadable
                self.store.save_record(code, room.game_no, _dump(room))
            row.data["status"] = "expired"
            row.data["rev"] = room.rev + 1
            changed = not self.store.put_room(row, room.rev if room.stored else None)
        return changed

    def unload(self, room: Room, changed: bool) -> None:
        code = room.code
        if changed:  # another server changed it: it leaves this server's memory only
            log.info("room %s: idle here, in use elsewhere; dropped from memory", code)
        self.rooms.pop(code, None)
        ops.ROOMS.set(len(self.rooms))
        task = self.drivers.pop(code, None)
        if task is not None:
            task.cancel()
        self.forget(code)

    def forget(self, code: str) -> None:
        """What this server kept beside a room that left its memory: nothing of it
        stays (a server that saw many rooms come and go grew by each), nor its
        channel on the bus."""
        if code not in self.rooms:
            self.bus.unwatch(code)
        self.public_text.pop(code, None)
        self.public_meta.pop(code, None)
        self.wake.pop(code, None)
        self.meta.pop(code, None)
        self.peers.presence.pop(code, None)
        self.peers.watching.pop(code, None)
        if not self.conns.get(code):
            self.conns.pop(code, None)
        lock = self.locks.get(code)
        # a lock just released may still have a waiter about to run: it stays then
        if lock is not None and not lock.locked() and not getattr(lock, "_waiters", None):
            del self.locks[code]

    async def farewell(self, drain: float = 1.0) -> None:
        """The first step of a graceful stop (SIGTERM, ``serve``), before the server
        closes its websockets (uvicorn closes them with 1012, service restart, before
        the app's own shutdown runs): hand the leases over, so another server drives the
        rooms at once, and tell every client the server is restarting, waiting up to
        ``drain`` seconds for those notices to leave."""
        self.stopping = True
        tasks = list(self._cluster_tasks)
        for task in tasks:  # no lease loop takes them back meanwhile
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await asyncio.gather(*self.leases.calls, return_exceptions=True)
        playing = {c for c, r in self.rooms.items() if r.status == "playing"}
        if self.cluster and (self.leases.held or playing):
            # every room in play here: a lease the cancelled loop had just taken is not
            # in ``held`` yet (a release deletes only this server's own leases)
            released = sorted(self.leases.held | playing)
            self.leases.held.clear()
            with contextlib.suppress(Exception):
                await self.io(self.store.release_leases, self.origin, released)
            for code in released:  # their players' servers take them now
                self.bus.publish({"t": "lease", "code": code})
        conns = [c for cs in self.conns.values() for c in cs if not c.closed]
        for conn in conns:
            conn.send({"type": "error", "code": "restarting",
                       "message": "the server is restarting; reconnecting"})  # fmt: skip
        end = time.monotonic() + drain
        while time.monotonic() < end and any(not c.queue.empty() for c in conns):
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        """Stop: the farewell if ``serve`` did not already say it, then every task."""
        if not self.stopping:
            await self.farewell(drain=0.0)
        for conns in self.conns.values():
            for conn in list(conns):
                conn.closed = True
                with contextlib.suppress(asyncio.QueueFull):
                    conn.queue.put_nowait(None)
        own = [t for t in (self._reaper, self._collector) if t is not None]
        own += self._repairs.values()
        for task in [*self.drivers.values(), *own]:
            task.cancel()
        for task in [*self.drivers.values(), *own]:
            with contextlib.suppress(BaseException):
                await task
        self.drivers.clear()
        if self.group is not None:  # a driver cancelled mid-commit waited for it
            await self.group.close()
        await self.bus.close()  # last: it sends what the others must still hear


def _dump(room: Room) -> str:
    from unokit.record import dumps

    assert room.match is not None
    return dumps(room.match.game)


def web_dir() -> Path:
    return Path(str(resources.files("unokit") / "web"))


def create_app(
    store: Store | None = None,
    *,
    timing: Timing | None = None,
    limits: Limits | None = None,
    allowed_origins: tuple[str, ...] = (),
    full_collection_seconds: float | None = None,
    commit: str = "group",
    bus: Bus | None = None,
    lease_seconds: float = LEASE_SECONDS,
) -> FastAPI:
    """The app; ``store`` defaults to memory (``unokit serve`` passes SQLite).

    ``full_collection_seconds``: run a full cyclic collection that often (``unokit
    serve`` does, with ``tune_gc()``'s thresholds; see ``Server.collect_every``).
    ``commit``: how actions are committed (``COMMITS``)."""
    limits = limits or Limits()
    server = Server(store or MemoryStore(), timing, limits, commit, bus, lease_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.restore()
        if server.group is not None:
            server.group.start()
        loop = asyncio.get_running_loop()
        server._reaper = loop.create_task(server.reap())
        if server.cluster:
            await server.bus.start(server.peers.on_bus, server.peers.on_bus_back)
            server._cluster_tasks = [
                loop.create_task(server.leases.run()),
                loop.create_task(server.peers.heartbeat()),
                loop.create_task(server.peers.read_while_deaf()),
            ]
        if full_collection_seconds:
            server._collector = loop.create_task(server.collect_every(full_collection_seconds))
        yield
        await server.close()
        server.store.close()

    app = FastAPI(
        title="unokit", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.server = server

    HttpRoutes(server).install(app)
    Sessions(server, allowed_origins).install(app)

    return app


def sqlite_app(db: str | Path, sync: str = "normal", **kw: Any) -> FastAPI:
    return create_app(SQLiteStore(db, sync=sync), **kw)
