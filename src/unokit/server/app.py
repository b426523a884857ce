"""The web server: HTTP for rooms and records, one websocket per client for play.

This module is the assembly: ``Server`` holds the rooms in memory, their connections
and locks, and the store; ``create_app`` puts it together with the jobs, one module
each (docs/architecture.md, "The server"):

* ``session.Sessions``: a websocket from its hello to its last message; every message
  is read within its limits (``limits``, ``conns``) and handed on, refusals go back to
  the sender only, with a stable code; a refused message changes nothing.
* ``web.HttpRoutes``: the pages, the room API, records and replays.
* ``master.Master``: every change of a room, a person's (``submit``) or the room's own
  clock's (``due``), one way.
* ``committer.Committer``: every change's entry stored first (``commit.GroupCommit``),
  then applied, then sent (``Server.broadcast``: each connection its own view).
* ``driver.Driver``: a room's own clock (bots, the turn timer, autopilot, next round).
* ``leases.Leases`` and ``peers.Peers``: a cluster's leases, bus news and presence.
* ``upkeep.Upkeep``: idle rooms leave memory; the timed full collection.
* ``runtime``: uvicorn, the graceful stop, the collector's thresholds.

Everything runs on one asyncio event loop, so a room's handlers never interleave
between the check and the apply; a per-room lock makes that explicit for the few
paths that await.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from unokit.match import Timing
from unokit.server import ops
from unokit.server.bus import Bus, LocalBus
from unokit.server.commit import COMMITS, GroupCommit
from unokit.server.committer import Committer
from unokit.server.conns import (
    Conn,
    encode,
    err,
)
from unokit.server.driver import Driver
from unokit.server.leases import LEASE_SECONDS, Leases
from unokit.server.limits import Limits, Window
from unokit.server.master import Master
from unokit.server.peers import Peers
from unokit.server.room import (
    Room,
    RoomError,
)
from unokit.server.session import Sessions
from unokit.server.store import MemoryStore, RoomRow, SQLiteStore, Store, StoreError
from unokit.server.upkeep import Upkeep
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
        self.commits = Committer(self)
        self.master = Master(self)
        self.upkeep = Upkeep(self)
        self.stopping = False  # ``farewell`` said: leases handed over, clients told
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
        self.peers.forget(code)
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
        own = [t for t in (self.upkeep.reaper, self.upkeep.collector) if t is not None]
        own += self.commits.repairs.values()
        for task in [*self.drivers.values(), *own]:
            task.cancel()
        for task in [*self.drivers.values(), *own]:
            with contextlib.suppress(BaseException):
                await task
        self.drivers.clear()
        if self.group is not None:  # a driver cancelled mid-commit waited for it
            await self.group.close()
        await self.bus.close()  # last: it sends what the others must still hear


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
    serve`` does, with ``tune_gc()``'s thresholds; see ``Upkeep.collect_every``).
    ``commit``: how actions are committed (``COMMITS``)."""
    limits = limits or Limits()
    server = Server(store or MemoryStore(), timing, limits, commit, bus, lease_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.restore()
        if server.group is not None:
            server.group.start()
        loop = asyncio.get_running_loop()
        server.upkeep.reaper = loop.create_task(server.upkeep.reap())
        if server.cluster:
            await server.bus.start(server.peers.on_bus, server.peers.on_bus_back)
            server._cluster_tasks = [
                loop.create_task(server.leases.run()),
                loop.create_task(server.peers.heartbeat()),
                loop.create_task(server.peers.read_while_deaf()),
            ]
        if full_collection_seconds:
            server.upkeep.collector = loop.create_task(
                server.upkeep.collect_every(full_collection_seconds)
            )
        yield
        await server.close()
        server.store.close()

    app = FastAPI(
        title="unokit", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.server = server

    app.state.routes = HttpRoutes(server)
    app.state.routes.install(app)
    Sessions(server, allowed_origins).install(app)

    return app


def sqlite_app(db: str | Path, sync: str = "normal", **kw: Any) -> FastAPI:
    return create_app(SQLiteStore(db, sync=sync), **kw)
