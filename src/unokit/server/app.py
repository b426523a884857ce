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
import functools
import gc
import json
import logging
import math
import sys
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint

from unokit.cards import DECKS
from unokit.engine.actions import Action
from unokit.engine.family import descriptors, find_game
from unokit.engine.state import StaleVersion
from unokit.errors import UnoError
from unokit.match import Timing
from unokit.record import RecordError
from unokit.rules import (
    CUSTOM_RULES,
    MODERN_CHOICES,
    MODERN_OPTION_HELP,
    MODERN_PRESETS,
    OPTION_HELP,
    PRESETS,
    SCORINGS,
    STACKINGS,
    WD4_GUILTY,
    RulesError,
    RuleSet,
    from_preset,
    game_of_deck,
)
from unokit.server import messages as m
from unokit.server import ops
from unokit.server.bus import Bus, LocalBus
from unokit.server.replay import frames_of
from unokit.server.room import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Room,
    RoomChanged,
    RoomError,
    act_entry,
    action_from_wire,
    new_code,
)
from unokit.server.store import MemoryStore, RoomRow, SQLiteStore, Store, StoreError

log = logging.getLogger("unokit.server")

# the allowed values of the options that are words (for the lobby's menus)
CHOICES: dict[str, list[str]] = {
    "deck": list(DECKS),
    "custom_rule": list(CUSTOM_RULES),
    "scoring": list(SCORINGS),
    "stacking": list(STACKINGS),
    "wd4_guilty": list(WD4_GUILTY),
}


def _game_of(preset_options: dict[str, Any]) -> str:
    """The game a preset plays: "classic" (every classic deck), "flip" or "no-mercy"."""
    return game_of_deck(preset_options.get("deck", "classic"))


def _option_games(name: str) -> list[str]:
    """The games that play an option (their descriptors' ``options``; RULES-MODERN.md
    FLIP-OPT-1, NM-OPT-1: a modern game's own options, and the classic ones it plays)."""
    return [g for g, d in descriptors().items() if name in d["options"]]


def check_room_options(preset: str, options: Mapping[str, Any]) -> None:
    """Refuse rules with options their game does not play, naming every one and the
    game, before anything is created or changed (issue 47).

    The page offers only the game's options (its descriptor's), so this answers a page
    of another version or a hand-made request; an option is never dropped silently (a
    Flip room asked for seven-zero came out with no house rules).  Like ``RuleSet``, an
    option sent at its default value asks for nothing and passes; a preset or deck that
    does not exist is left to ``from_preset`` to refuse.
    """
    spec = PRESETS.get(preset) or MODERN_PRESETS.get(preset)
    deck = options.get("deck", spec[1].get("deck", "classic") if spec else None)
    try:
        game = find_game(game_of_deck(deck)) if isinstance(deck, str) else None
    except UnoError:
        game = None
    if game is None:
        return
    plays = set(game.descriptor()["options"])
    fields = RuleSet.__dataclass_fields__
    foreign = [
        k
        for k, v in options.items()
        if k in fields and k not in plays and k not in ("preset", "deck") and v != fields[k].default
    ]
    if foreign:
        one = len(foreign) == 1
        raise RulesError(
            f"{game.TITLE} does not play {'this house rule' if one else 'these house rules'}: "
            f"{', '.join(foreign)}; nothing was changed: leave {'it' if one else 'them'} "
            "out, or choose a game that plays it",
            code="bad_option",
        )


def _modern_choices(name: str) -> list[str] | None:
    return list(MODERN_CHOICES[name]) if name in MODERN_CHOICES else None


@functools.cache
def rules_json() -> dict[str, Any]:
    """``GET /api/rules``: every preset (classic and modern, with the game it plays and
    its player range), every option (with the games it applies to), and each game's
    descriptor (``games``: the options the form offers, the words the table uses)."""
    defaults = RuleSet().options()
    presets = []
    for k, (d, o) in [*PRESETS.items(), *MODERN_PRESETS.items()]:
        lo, hi = from_preset(k).player_range()
        presets.append(
            {"name": k, "description": d, "options": o, "game": _game_of(o), "players": [lo, hi]}
        )
    helps = {**OPTION_HELP, **MODERN_OPTION_HELP}
    return {
        "presets": presets,
        "options": [
            {
                "name": k,
                "help": h,
                "default": defaults[k] if k in defaults else getattr(RuleSet(), k),
                "choices": CHOICES.get(k) or _modern_choices(k),
                "games": _option_games(k),
            }
            for k, h in helps.items()
        ],
        "levels": list(m.LEVELS),
        "timers": list(m.TIMERS),
        "games": descriptors(),
    }


SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


@dataclass(frozen=True)
class Limits:
    """What one client may make the server spend (docs/server.md, "Limits")."""

    message_bytes: int = m.MAX_MESSAGE
    messages_per_second: float = 20.0  # per connection, with a burst of twice that
    chat_per_minute: int = 20
    reactions_per_minute: int = 20
    connections_per_address: int = 30
    rooms_per_address_per_hour: int = 30
    joins_per_address_per_minute: int = 30  # joins and token checks (guessing)
    send_queue: int = 256  # messages waiting for a slow client before it is dropped
    hello_timeout: float = 10.0
    room_idle_seconds: float = 6 * 3600.0  # nobody connected, no change: the room goes
    store_retry: float = 1.0  # after a storage failure, moves are refused this long
    # look-ups of a room code that does not exist (HTTP and websocket): past this, every
    # look-up from the address is refused (429) until the minute has passed
    lookups_per_address_per_minute: int = 30
    # the replay viewer: records turned into frames (CPU), and their size
    replays_per_address_per_minute: int = 20
    record_bytes: int = 4 * 1024 * 1024
    # a websocket frame (message) over this is refused by the websocket layer before it
    # is buffered (close 1009); between message_bytes and this it is answered too_big
    frame_bytes: int = 64 * 1024
    # messages over the rate: the first few are answered rate_limited, the next are
    # dropped unread, and a connection this many messages over is closed (1008)
    rate_replies: int = 3
    flood_close_after: int = 40
    # an address whose connections were closed for flooding this often in a minute
    # may not open websockets until the minute has passed
    floods_per_address_per_minute: int = 3
    # HTTP: open connections per address (a proxy named by --forwarded-allow-ips is
    # not counted); a request's headers and body must arrive within request_seconds
    # of the connection or of the previous response; an idle connection closes after
    # keep_alive_seconds; a request's headers have at most header_bytes.  64, not 20:
    # friends at one table often share a router's address, and a browser opens up to
    # five connections while the page's modules load (20 turned away the fifth friend)
    http_connections_per_address: int = 64
    request_seconds: float = 10.0
    keep_alive_seconds: float = 5.0
    header_bytes: int = 16 * 1024


class Window:
    """Counts events per key in a sliding time window (rate limits)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.hits: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        q = self.hits[key]
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        return True

    def full(self, key: str) -> bool:
        """Whether ``key`` has used its allowance (without counting an event)."""
        q = self.hits.get(key)
        if not q:
            return False
        now = time.monotonic()
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if not q:
            del self.hits[key]
            return False
        return len(q) >= self.limit


class Bucket:
    """A token bucket for messages per second on one connection."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = rate * 2
        self.at = time.monotonic()

    def take(self) -> bool:
        return self.owe() == 0

    def owe(self) -> int:
        """Take a token for a message; how many messages the connection is over its rate
        (0: the message is within it).  A message over the rate takes a token as well,
        so a connection that keeps sending faster than the rate owes more and more,
        and one that pauses is back within it once the tokens have come back."""
        now = time.monotonic()
        self.tokens = min(self.rate * 2, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1
        return 0 if self.tokens >= 0 else math.ceil(-self.tokens)


@dataclass(eq=False)
class Conn:
    ws: WebSocket
    room: Room
    seat: int | None
    address: str
    seq: int = 0  # index into the game's events up to which this connection was told
    game: int = 0
    meta: int = -1  # the room's meta counter last sent
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(256))
    closed: bool = False
    bucket: Bucket = field(default_factory=lambda: Bucket(20.0))
    resynced: tuple[int, int] = (-1, -1)  # (game, version) of the last stale resync
    name: str = ""  # a spectator's name, if they gave one (the spectator list, chat)

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(encode(msg))
        except asyncio.QueueFull:  # a client that stops reading is dropped (it may resume)
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            _abort(self.ws)


def encode(msg: dict[str, Any]) -> str:
    """A message's JSON text: orjson, because encoding with the standard library's
    ``json`` was the server's largest cost under load (10% of its time; orjson is ten
    times faster on a state message and gives the same text)."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


Then = Callable[[], None]


def news(room: Room, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """A bus message: ``room``'s latest ``entries`` (its log's last ones) and where it
    stands (``rev``, game, log length), so a server can apply them or read the rest."""
    return {
        "code": room.code,
        "rev": room.rev,
        "game": room.game_no,
        "start": room.log_len - len(entries),
        "entries": entries,
    }


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


# A cluster's leases: a room's bots and clocks move again at most this long (plus a
# third of it, the renewal period) after their server died.
LEASE_SECONDS = 5.0
PATIENCE = 1.5  # an unheld room with no player here waits this long for its players' server
LEASE_MARGIN = 1.0  # seconds: a lease is given up this long before it could lapse
ORPHANS_A_TICK = 20  # rooms a lease loop's turn reads from the store to take them over
PRESENCE_EVERY = 5.0  # seconds between a server's reports of who is connected to it
WATCHERS_LISTED = 50  # spectators named in the list (the count counts them all)
# While the bus is down, how often a server reads the rooms its clients are in from the
# store (``read_while_deaf``): the pace of play across servers during an outage
DEAF_READ_EVERY = 0.5  # seconds
PRESENCE_TTL = 12.0  # a server not heard from for this long has no one connected

# How actions' log entries are committed: "group" (the default: ``GroupCommit``, in a
# worker thread when the store's commits wait for an fsync, ``--sync full``, else on
# the event loop's thread), "group-thread" and "group-inline" (either way, always),
# "each" (one transaction per action, inside its room's lock: the server before group
# commits).  docs/reliability.md compares them.
COMMITS = ("group", "group-thread", "group-inline", "each")


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
        self.lease_seconds = lease_seconds
        self.held: set[str] = set()  # rooms whose lease this server holds (a cluster)
        self.stopping = False  # ``farewell`` said: leases handed over, clients told
        self.lease_kick = asyncio.Event()  # run the lease loop now (``want_lease``)
        self.lease_asked: set[str] = set()  # rooms that woke it this tick
        self._lease_calls: set[asyncio.Future[Any]] = set()  # in their threads now
        self._repairs: dict[str, asyncio.Task[None]] = {}  # broken rooms read again
        # the leases in ``held`` run at least until then (from before the renewal's
        # request went out, less a margin): past it, drive nothing until renewed
        self.held_until = -math.inf
        # code -> other server -> (when heard, seat -> open connections there)
        self.presence: dict[str, dict[str, tuple[float, dict[int, int]]]] = defaultdict(dict)
        # the spectators of a room on the cluster's other servers: origin -> (when
        # heard, their names, how many), from the same presence messages
        self.watching: dict[str, dict[str, tuple[float, list[str], int]]] = defaultdict(dict)
        self.refreshes = 0  # rooms read again from the store (a cluster)
        self.conflicts = 0  # writes another server got to first
        self.fenced = 0  # driver writes refused: the lease had run out (``LeaseLost``)
        self.deaf_reads = 0  # turns of ``read_while_deaf`` (the bus was down)
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
        self.drivers[code] = asyncio.get_running_loop().create_task(self.drive(room))

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

    # ------------------------------------------------------------------ cluster ---
    def announce(self, room: Room) -> None:
        """Tell the cluster's other servers what this one just stored for ``room``: the
        new entries (they apply them) and the room's ``rev`` (if it moved, they read
        the room again)."""
        if not self.cluster:
            room.unsent.clear()
            return
        entries, room.unsent = room.unsent, []
        self.bus.publish(news(room, entries))

    def on_bus(self, msg: dict[str, Any]) -> None:
        """A message from another server (``RedisBus``'s listener calls this)."""
        code = msg.get("code")
        if not isinstance(code, str):
            return
        if code not in self.rooms:
            lock = self.locks.get(code)
            if msg.get("t") is None and lock is not None and lock.locked():
                # being read from the store (``find``): applied once it is in memory,
                # where a change the holder made after that read is caught up
                asyncio.get_running_loop().create_task(self.remote(code, msg))
            return
        if msg.get("t") == "presence":
            self.heard_presence(code, msg)
            return
        if msg.get("t") == "watch":  # another server holds it now: what this one has
            room = self.rooms[code]
            self.bus.publish(news(room, []))  # its tip: a server behind reads the rest
            self.my_presence(room)
            return
        if msg.get("t") == "lease":  # its driver let it go: the server of its players
            self.want_lease(self.rooms[code])  # takes it now
            return
        if msg.get("t") == "chat":
            line = msg.get("line")
            if isinstance(line, dict) and line.get("type") in ("chat", "react"):
                self.chat(code, line)
            return
        asyncio.get_running_loop().create_task(self.remote(code, msg))

    async def remote(self, code: str, msg: dict[str, Any]) -> None:
        try:
            async with self.locks[code]:
                room = self.rooms.get(code)
                if room is None:
                    return
                rev, game = msg.get("rev"), msg.get("game")
                start, entries = msg.get("start"), msg.get("entries")
                if (
                    rev == room.rev
                    and game == room.game_no
                    and isinstance(start, int)
                    and isinstance(entries, list)
                ):
                    end = start + len(entries)
                    if end <= room.log_len:
                        return  # nothing new (this server's own, or seen)
                    if start <= room.log_len:
                        try:
                            room.catch_up(entries[room.log_len - start :])
                            room.changed_unseen = False  # heard as it was made
                        except Exception:
                            log.warning("room %s: entries from the bus did not apply", code)
                            await self.refresh(room)
                        self.broadcast(self.rooms.get(code, room), local=False)
                        return
                old = isinstance(rev, int) and isinstance(game, int)
                if old and (game, rev) < (room.game_no, room.rev):
                    return  # an old message
                await self.refresh(room)
        except StoreError as e:
            log.warning("room %s: cannot read it again: %s", code, e)
        except Exception:
            self.errors += 1
            log.exception("room %s: a bus message failed", code)

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
                self.announce(room)  # others who missed the same news catch up too
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
        self.announce(new)
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
            conn.send(_err("no_room", "this room is gone"))
        self.forget(code)

    def chat(self, code: str, line: dict[str, Any]) -> None:
        for c in list(self.conns.get(code, ())):
            c.send(line)

    def local_watchers(self, code: str) -> tuple[list[str], int]:
        watching = [c for c in self.conns.get(code, ()) if c.seat is None and not c.closed]
        names = sorted({c.name for c in watching if c.name}, key=str.lower)
        return names[:WATCHERS_LISTED], len(watching)

    def watchers(self, code: str) -> None:
        """Tell the room's connections here who watches it (issue 36 item 16): the names
        spectators gave, and how many watch in all, on every server of the cluster
        (the others' from their presence messages, forgotten after ``PRESENCE_TTL``)."""
        names, count = self.local_watchers(code)
        now = time.monotonic()
        others = self.watching.get(code, {})
        for origin in [o for o, (t, _, _) in others.items() if now - t > PRESENCE_TTL]:
            del others[origin]
        everyone = set(names)
        for _, their_names, n in others.values():
            everyone.update(their_names)
            count += n
        names = sorted(everyone, key=str.lower)
        self.chat(code, {"type": "watchers", "names": names, "count": count})

    def evict(self, room: Room) -> None:
        """Close the connections of seats another server gave to a bot (a kick)."""
        for c in list(self.conns.get(room.code, ())):
            s = room.seats[c.seat] if c.seat is not None else None
            if s is not None and s.kind == "bot" and not s.token_hash:
                c.send(_err("kicked", "the host gave your seat to a bot"))
                c.closed = True
                with contextlib.suppress(asyncio.QueueFull):
                    c.queue.put_nowait(None)

    async def read_while_deaf(self) -> None:
        """While the bus is down (Redis away) no server hears of another's changes, so a
        room whose players sit on different servers stood still for the whole outage:
        each player's server waited for news of the other's move (issue 48, D3: 13-14 of
        36 rooms in the history checker's runs).  Meanwhile every server reads the rooms
        its clients are in from the store every ``DEAF_READ_EVERY`` seconds (the new log
        entries; the room again only if its row moved), so play goes on at that pace;
        it stops when the bus is back (``on_bus_back`` reads everything once more)."""
        while True:
            await asyncio.sleep(DEAF_READ_EVERY)
            if self.bus.healthy() or self.stopping:
                continue
            self.deaf_reads += 1
            for code in list(self.rooms):
                room = self.rooms.get(code)
                lock = self.locks.get(code)
                if room is None or lock is None or lock.locked() or not self.conns.get(code):
                    continue  # busy: whoever holds the lock brings it up to date
                try:
                    async with lock:
                        if self.rooms.get(code) is room and not room.broken:
                            await self.refresh(room)
                except StoreError:
                    break  # the store is away too: nothing to read until the next turn
                except Exception:
                    self.errors += 1
                    log.exception("room %s: reading it while the bus is down failed", code)

    async def on_bus_back(self) -> None:
        """The bus is back after an outage: messages sent meanwhile are lost, so every
        room here is read again from the store."""
        for code in list(self.rooms):
            room = self.rooms.get(code)
            if room is None:
                continue
            try:
                async with self.locks[code]:
                    room = await self.refresh(self.rooms.get(code, room))
                    self.my_presence(room)
                    self.announce(room)  # others who missed this server's news catch up
            except StoreError as e:
                log.warning("room %s: cannot read it again: %s", code, e)
            except Exception:  # one room's fault does not stop the others' reading
                self.errors += 1
                log.exception("room %s: reading it again failed", code)

    def my_presence(self, room: Room) -> None:
        if self.cluster:
            seats = {str(i): s.connected for i, s in enumerate(room.seats) if s and s.connected}
            names, count = self.local_watchers(room.code)
            self.bus.publish(
                {
                    "t": "presence",
                    "code": room.code,
                    "seats": seats,
                    "watching": {"names": names, "count": count},
                }
            )

    def heard_presence(self, code: str, msg: dict[str, Any]) -> None:
        seats = msg.get("seats")
        origin = msg.get("origin")
        if not isinstance(seats, dict) or not isinstance(origin, str):
            return
        try:
            counts = {int(k): int(v) for k, v in seats.items()}
        except (TypeError, ValueError):
            return
        self.presence[code][origin] = (time.monotonic(), counts)
        self.count_presence(code)
        w = msg.get("watching")  # (absent from a server of an older version)
        if isinstance(w, dict) and isinstance(w.get("count"), int):
            raw = w.get("names")
            raw = raw if isinstance(raw, list) else []
            names = [n[:40] for n in raw if isinstance(n, str)][:WATCHERS_LISTED]
            before = self.watching[code].get(origin)
            self.watching[code][origin] = (time.monotonic(), names, max(0, w["count"]))
            if before is None or before[1:] != (names, max(0, w["count"])):
                self.watchers(code)

    def count_presence(self, code: str) -> None:
        """Sum the other servers' connections per seat (forgetting servers not heard
        from for ``PRESENCE_TTL``) and act on seats that came or went."""
        room = self.rooms.get(code)
        if room is None:
            self.presence.pop(code, None)
            self.watching.pop(code, None)
            return
        now = time.monotonic()
        heard = self.presence.get(code, {})
        for origin in [o for o, (t, _) in heard.items() if now - t > PRESENCE_TTL]:
            del heard[origin]
        total: dict[int, int] = defaultdict(int)
        for _, counts in heard.values():
            for seat, n in counts.items():
                if n > 0 and 0 <= seat < len(room.seats):
                    total[seat] += n
        if dict(total) == room.elsewhere:
            return
        before, room.elsewhere = room.elsewhere, dict(total)
        for i, s in enumerate(room.seats):
            if s is None or s.kind != "person" or s.connected:
                continue
            if i in room.elsewhere and i not in before:
                s.away_since = None
                room.set_autopilot(i, False)
            elif i in before and i not in room.elsewhere:
                s.away_since = now
        room.touch()
        self.broadcast(room, local=False)

    async def heartbeat(self) -> None:
        """Tell the cluster who is connected here, now and then (a server that dies
        stops, and its players count as away once ``PRESENCE_TTL`` passes)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            for code in list(self.rooms):
                room = self.rooms.get(code)
                if room is None:
                    continue
                if self.conns.get(code):
                    self.my_presence(room)
                if self.presence.get(code):
                    self.count_presence(code)
                now = time.monotonic()
                if any(now - t > PRESENCE_TTL for t, _, _ in self.watching.get(code, {}).values()):
                    self.watchers(code)  # a server gone quiet: its spectators leave the list

    def want_lease(self, room: Room) -> None:
        """Ask the lease loop to run now for a room in play here that no one here drives:
        it just started here, a player of it sat down here, or its driver let it go
        (never on every change: a room whose lease another server holds would keep the
        loop asking the store).  So the server of the room's players drives it, not
        whoever looked first."""
        code = room.code
        if (
            self.cluster
            and room.status == "playing"
            and code not in self.held
            and code not in self.lease_asked
        ):
            self.lease_asked.add(code)
            self.lease_kick.set()

    async def lease_io(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A lease call in its worker thread, which ``farewell`` waits for: cancelling
        the lease loop leaves the thread running, and a renewal landing after the
        farewell's release would take the rooms back."""
        task = asyncio.ensure_future(self.io(fn, *args))
        self._lease_calls.add(task)
        task.add_done_callback(self._lease_calls.discard)
        return await asyncio.shield(task)

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

    def players_away(self, room: Room) -> bool:
        """No player of ``room`` is connected here, and one is on another server."""
        here = any(s is not None and s.connected for s in room.seats)
        return not here and any(n > 0 for n in room.elsewhere.values())

    async def leases(self) -> None:
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
            self.lease_asked.clear()
            now = time.monotonic()
            more = False  # orphans left to read
            want = [
                c
                for c, r in self.rooms.items()
                if r.status == "playing" and (c in self.held or self.conns.get(c))
            ]
            # a room driven here whose players are all on other servers now (they came
            # back through the proxy elsewhere): handed to them, so leases do not pile
            # up on the servers that outlived the others
            away = [c for c in want if c in self.held and self.players_away(self.rooms[c])]
            want = [c for c in want if c not in away]
            lapse: float | None = None
            try:
                if away:
                    await self.lease_io(self.store.release_leases, self.origin, away)
                    for code in away:
                        self.held.discard(code)
                        self.bus.publish({"t": "lease", "code": code})
                # when the next lease of another server lapses, asked before taking any:
                # a lease that lapses between the two is taken now (asked after, it
                # missed the wake-up, and was taken 5/3 s late, when a player's
                # reconnect woke this loop a moment before the lapse)
                asked = time.monotonic()
                lapse = await self.io(self.store.soonest_lapse, self.origin)
                # its own rooms first: taking over others' must not let these lapse
                held = await self.lease_io(self.store.take_leases, self.origin, want,
                                     self.lease_seconds)  # fmt: skip
                orphans = await self.io(self.store.orphans, 200)
                late = []
                for code in orphans:
                    if code in want or refused.get(code, 0.0) > now:
                        continue
                    if self.conns.get(code) or now - patient.setdefault(code, now) >= PATIENCE:
                        late.append(code)
                for code in [c for c in patient if c not in orphans]:
                    del patient[code]  # someone took it
                for code in [c for c, until in refused.items() if until <= now]:
                    del refused[code]
                loaded = []
                reads = 0
                for code in late:
                    if code not in self.rooms:  # read from the store: a few a turn
                        if reads >= ORPHANS_A_TICK:
                            more = True  # the next turn comes at once
                            continue
                        reads += 1
                        try:
                            room = await self.find(code)
                        except StoreError:
                            raise
                        except Exception:  # one room this server cannot read stops no other
                            self.errors += 1
                            refused[code] = now + 30.0
                            log.exception("room %s: cannot be read to take it over", code)
                            continue
                        if room is None:
                            continue
                    loaded.append(code)
                if loaded:
                    held |= await self.lease_io(self.store.take_leases, self.origin, loaded,
                                          self.lease_seconds)  # fmt: skip
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
                self.errors += 1
                log.exception("leases failed")
                held = set()
            else:
                margin = min(LEASE_MARGIN, self.lease_seconds / 4)
                if time.monotonic() > self.held_until:
                    # the drivers stopped at ``held_until`` (renewals failed) and wait
                    # for a change: the rooms kept are driven again now
                    for code in held & self.held:
                        ev = self.wake.get(code)
                        if ev is not None:
                            ev.set()
                self.held_until = now + self.lease_seconds - margin
            gained = held - self.held
            self.held = held
            for code in gained:
                room = self.rooms.get(code)
                if room is None:
                    continue
                try:
                    async with self.locks[code]:
                        room = await self.refresh(self.rooms.get(code, room))
                        # a bot's pause counts from its turn's start, not from now
                        room.pause_passed()
                except StoreError:
                    self.held.discard(code)
                    continue
                ev = self.wake.get(code)
                if ev is not None:
                    ev.set()
            await self.save_finished_games()
            wait = self.lease_seconds / 3
            if lapse is not None:  # be there when another server's lease lapses
                # (``lapse`` counts from when it was asked: a wake-up a moment early finds
                # it not lapsed yet, and asks again first)
                wait = min(wait, max(0.01, lapse + 0.01 - (time.monotonic() - asked)))
            if more:
                wait = 0.0
            if patient:
                wait = min(wait, PATIENCE)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.lease_kick.wait(), wait)
            self.lease_kick.clear()

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
            self.announce(room)
        elif self.cluster:
            self.evict(room)
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

    # ------------------------------------------------------------------ driving ---
    def due(self, room: Room) -> tuple[float | None, str, int]:
        """When the room must act by itself next, and what: (delay or None, what, seat)."""
        match = room.match
        if room.status != "playing" or match is None:
            return None, "", -1
        if self.cluster and (room.code not in self.held or time.monotonic() > self.held_until):
            return None, "", -1  # another server drives it, or may since the last renewal
        now = time.monotonic()
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
        wake = self.wake[code]
        while self.rooms.get(code) is room:
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
                if time.monotonic() < self.store_down_until:
                    await asyncio.sleep(self.store_down_until - time.monotonic())
                    continue
                lock = self.locks[code]
                busy = lock.locked()  # a free asyncio lock is taken without yielding
                async with lock:
                    if self.rooms.get(code) is not room:
                        break  # read again from the store meanwhile: its new driver runs
                    if room.broken:  # half-applied (``append``): decide on the store's
                        await self.reload(room)
                        break
                    if busy:  # others ran while this waited: is it still due?
                        again, what2, seat2 = self.due(room)
                        if again is None or again > 0.001 or (what2, seat2) != (what, seat):
                            continue
                    if what == "bot":
                        acted = await self.bot_step(room)
                    elif what == "autopilot":
                        room.set_autopilot(seat, True)
                        acted = True
                    elif what == "timer":
                        decided = room.autopilot_decide(seat)
                        if decided is not None:
                            await self.commit(room, seat, decided, None, driven=True)
                        acted = decided is not None
                    else:
                        await self.next_round(room, room.host, driven=True)
                        acted = True
                    if acted:
                        self.accepted += what != "autopilot"
                        if what != "autopilot":
                            ops.ACTIONS.inc()
                        if self.rooms.get(code) is room:  # else read again and sent
                            self.broadcast(room)
            except asyncio.CancelledError:
                raise
            except LeaseLost:  # the lease ran out before the write: drive no more for now
                self.fenced += 1
                self.held.discard(code)  # the lease loop takes it again if it is free
                log.warning("room %s: a %s was not stored: this server's lease of the room "
                            "ran out first", code, what)  # fmt: skip
                with contextlib.suppress(StoreError):
                    async with self.locks[code]:
                        await self.refresh(room)
            except RoomChanged:  # another server got there first: catch up, decide again
                self.conflicts += 1
                with contextlib.suppress(StoreError):
                    async with self.locks[code]:
                        await self.refresh(room)
            except StoreError as e:  # nothing was told; try again a little later
                self.store_failed(e)
                await asyncio.sleep(self.limits.store_retry)
            except Exception:
                self.errors += 1
                log.exception("room %s: the driver failed", code)
                await asyncio.sleep(1.0)

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

    async def bot_step(self, room: Room) -> bool:
        decided = room.bot_decide()
        if isinstance(decided, bool):
            return decided
        seat, action = decided
        await self.commit(room, seat, action, None, driven=True)
        return True

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
        self.presence.pop(code, None)
        self.watching.pop(code, None)
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
        await asyncio.gather(*self._lease_calls, return_exceptions=True)
        playing = {c for c, r in self.rooms.items() if r.status == "playing"}
        if self.cluster and (self.held or playing):
            # every room in play here: a lease the cancelled loop had just taken is not
            # in ``held`` yet (a release deletes only this server's own leases)
            released = sorted(self.held | playing)
            self.held.clear()
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


def _address(client: Any) -> str:
    return str(client.host) if client is not None else "unknown"


def _origin(url: str) -> str | None:
    """An origin in one spelling (scheme and host in small letters, no default port),
    or None when ``url`` is not an http(s) origin."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    default = 80 if scheme == "http" else 443
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


def own_origins(server: Any) -> set[str]:
    """The origins of this server's own pages, from the address a connection reached
    (the ASGI scope's ``server``): http://ADDRESS:PORT, and http://localhost:PORT when
    the address is a loopback one.  Not the request's ``Host`` header: a DNS-rebinding
    page sends its own name there, and its own origin."""
    if not server:
        return set()
    host, port = str(server[0]), server[1]
    out = {_origin(f"http://{f'[{host}]' if ':' in host else host}:{port}")}
    if host in ("::1", "localhost") or host.startswith("127."):
        out.add(_origin(f"http://localhost:{port}"))
    return {o for o in out if o is not None}


def _origin_ok(origin: str | None, server: Any, allowed: frozenset[str]) -> bool:
    """No cross-site websocket hijacking: the page must come from this server's own
    address (``own_origins``) or an origin given with ``--origin``; scheme, host and
    port all count."""
    if origin is None:
        return True  # not a browser (a script or a test client): tokens still apply
    norm = _origin(origin)
    return norm is not None and (norm in allowed or norm in own_origins(server))


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
    origins = frozenset(o for o in map(_origin, allowed_origins) if o is not None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.restore()
        if server.group is not None:
            server.group.start()
        loop = asyncio.get_running_loop()
        server._reaper = loop.create_task(server.reap())
        if server.cluster:
            await server.bus.start(server.on_bus, server.on_bus_back)
            server._cluster_tasks = [
                loop.create_task(server.leases()),
                loop.create_task(server.heartbeat()),
                loop.create_task(server.read_while_deaf()),
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

    class Headers(BaseHTTPMiddleware):
        async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
            response = await call_next(request)
            for k, v in SECURITY_HEADERS.items():
                response.headers.setdefault(k, v)
            return response

    app.add_middleware(Headers)

    def error(status: int, code: str, message: str) -> JSONResponse:
        return JSONResponse({"code": code, "message": message}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        return error(400, "bad_request", f"{where}: {first.get('msg', 'invalid')}".strip(": "))

    @app.exception_handler(UnoError)
    async def refused(request: Request, exc: UnoError) -> JSONResponse:
        ops.refused(exc.code)
        status = {"no_room": 404, "rate_limited": 429}.get(exc.code, 400)
        return error(status, exc.code, exc.message)

    @app.exception_handler(StoreError)
    async def store_failed(request: Request, exc: StoreError) -> JSONResponse:
        if time.monotonic() >= server.store_down_until:
            server.store_failed(exc)
        return error(503, "storage_unavailable", STORE_DOWN)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        server.errors += 1
        log.exception("unexpected error")
        return error(500, "internal", "something went wrong on the server")

    # ------------------------------------------------------------------ HTTP -------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(web_dir() / "index.html")

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str) -> FileResponse:
        return FileResponse(web_dir() / "index.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(web_dir() / "index.html")

    @app.get("/healthz")
    async def health() -> dict[str, Any]:
        return {"ok": True, "rooms": len(server.rooms)}

    async def store_probe() -> object:
        return await server.io(server.store.load_room, "-")

    async def bus_probe() -> bool:
        return server.bus.healthy()

    # /metrics and /readyz (the store and the bus answer); /healthz is liveness
    app.include_router(ops.ops_router(ops.readiness(store=store_probe, bus=bus_probe)))

    @app.get("/api/rules")
    async def rules() -> dict[str, Any]:
        return rules_json()

    @app.post("/api/rooms")
    async def create_room(body: m.CreateRoom, request: Request) -> dict[str, Any]:
        refusal = m.name_refusal(body.name, [])
        if refusal is not None:
            raise RoomError(refusal[1], code=refusal[0])
        check_room_options(body.preset, body.options)
        server.check_store()
        addr = _address(request.client)
        if not server.room_window.allow(addr):
            return error(429, "rate_limited", "too many rooms from here; wait a while")  # type: ignore[return-value]
        for _ in range(5):  # a code taken (in memory or in the store): astronomically rare
            code = new_code()
            if code in server.rooms:
                continue
            try:
                room, token = await server.io(
                    lambda c=code: Room.create(
                        server.store,
                        body.name,
                        body.preset,
                        body.options,
                        body.seats,
                        list(body.bots),
                        body.timer,
                        server.timing,
                        code=c,
                    )
                )
            except RoomChanged:
                continue
            break
        else:
            raise RoomError("no free room code; try again", code="room_changed")
        await server.bus.watch(room.code)  # no other server has it yet: nothing missed
        server.add(room)
        return {"code": room.code, "seat": 0, "token": token, "link": f"/r/{room.code}"}

    def _code(code: str) -> str:
        code = code.upper()
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            raise RoomError(f"{code[:10]!r} is not a room code", code="no_room")
        return code

    def probing(addr: str) -> None:
        """Refuse every look-up from an address that looked up too many codes that do
        not exist (guessing codes), whether the code exists or not."""
        if server.lookup_window.full(addr):
            raise RoomError("too many rooms not found; wait a minute", code="rate_limited")

    async def look_up(code: str, addr: str) -> Room:
        """The room of ``code``; a code that does not exist counts for its address."""
        probing(addr)
        try:
            room = await server.find(_code(code))
        except RoomError:
            room = None
        if room is None:
            server.lookup_window.allow(addr)
            raise RoomError(f"there is no room {code.upper()[:10]}", code="no_room")
        return room

    @app.get("/api/rooms/{code}")
    async def room_info(code: str, request: Request) -> dict[str, Any]:
        return (await look_up(code, _address(request.client))).public(None)

    @app.post("/api/rooms/{code}/join")
    async def join(code: str, body: m.JoinRoom, request: Request) -> dict[str, Any]:
        addr = _address(request.client)
        if not server.join_window.allow(addr):
            return error(429, "rate_limited", "too many attempts; wait a minute")  # type: ignore[return-value]
        room = await look_up(code, addr)
        server.check_store()
        async with server.locks[room.code]:
            for attempt in range(3):  # another server seated someone meanwhile: again
                room = server.rooms.get(room.code, room)
                names = [s.name for s in room.seats if s is not None]
                refusal = m.name_refusal(body.name, names)
                if refusal is not None:
                    raise RoomError(refusal[1], code=refusal[0])
                try:
                    seat, token = await server.change(room, functools.partial(Room.join,
                                                              name=body.name))  # fmt: skip
                    break
                except RoomChanged:
                    server.conflicts += 1
                    room = await server.refresh(room)
                    if attempt == 2:
                        raise
        server.broadcast(room)
        return {"code": room.code, "seat": seat, "token": token, "link": f"/r/{room.code}"}

    @app.get("/api/rooms/{code}/record")
    async def record(
        code: str, request: Request, game: Annotated[int | None, Query(ge=0, le=10**9)] = None
    ) -> Response:
        addr = _address(request.client)
        probing(addr)
        code = _code(code)
        room = server.rooms.get(code)
        if game is None:
            game = room.game_no if room is not None else 1
        text = await server.io(server.store.record, code, game)  # off the loop
        if text is None:
            if room is not None and room.status == "playing" and game == room.game_no:
                return error(409, "game_in_progress", "the record is ready when the game ends")
            if room is None:
                server.lookup_window.allow(addr)
            return error(404, "no_record", "no such game in this room")
        return PlainTextResponse(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="uno-{code}-{game}.json"'},
        )

    # the replay viewer (issue 36 item 13): a record as the table's state messages
    replay_window = Window(limits.replays_per_address_per_minute, 60)

    def replay_body(text: str, view: str | None) -> bytes:
        return json.dumps(frames_of(text, view).to_json(), separators=(",", ":")).encode()

    async def replayed(text: str, view: str | None, addr: str) -> Response:
        if not replay_window.allow(addr):
            raise RoomError("too many replays from here; wait a minute", code="rate_limited")
        # the replay and its encoding (tens of MB for a long game with every hand open)
        # both run in a worker thread: the loop goes on serving the rooms meanwhile
        body = await asyncio.to_thread(replay_body, text, view)
        return Response(body, media_type="application/json")

    @app.post("/api/replay")
    async def replay_record(
        request: Request, view: Annotated[str | None, Query(max_length=12)] = None
    ) -> Response:
        """A record sent by the page (a downloaded game, a file dropped on it)."""
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limits.record_bytes:
                return error(413, "too_big", "the record is too big to replay here")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("the record is not UTF-8 text") from None
        return await replayed(text, view, _address(request.client))

    @app.get("/api/rooms/{code}/replay")
    async def replay_room_game(
        code: str,
        request: Request,
        game: Annotated[int, Query(ge=0, le=10**9)] = 1,
        view: Annotated[str | None, Query(max_length=12)] = None,
    ) -> Response:
        """A finished game of a room, by its link (``/replay?room=CODE&game=N``)."""
        addr = _address(request.client)
        probing(addr)
        code = _code(code)
        text = await server.io(server.store.record, code, game)  # off the loop
        if text is None:
            room = server.rooms.get(code)
            if room is not None and room.status == "playing" and game == room.game_no:
                return error(409, "game_in_progress", "the replay is ready when the game ends")
            if room is None:
                server.lookup_window.allow(addr)
            return error(404, "no_record", "no such game in this room")
        return await replayed(text, view, addr)

    static = web_dir()
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=str(static)), name="static")

    # ------------------------------------------------------------------ websocket --
    @app.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str) -> None:
        addr = _address(websocket.client)
        if not _origin_ok(websocket.headers.get("origin"), websocket.scope.get("server"), origins):
            await websocket.close(code=1008, reason="cross-site websocket refused")
            return
        if server.flood_window.full(addr):
            await websocket.close(code=1008, reason="too many messages from here; wait a minute")
            return
        if server.per_address[addr] >= limits.connections_per_address:
            await websocket.close(code=1013, reason="too many connections from here")
            return
        server.per_address[addr] += 1
        try:
            await session(websocket, code, addr)
        finally:
            server.per_address[addr] -= 1
            if server.per_address[addr] <= 0:
                del server.per_address[addr]

    async def session(websocket: WebSocket, code: str, addr: str) -> None:
        await websocket.accept()
        if server.lookup_window.full(addr):
            await _refuse(websocket, "rate_limited", "too many rooms not found; wait a minute")
            return
        try:
            room = await server.find(code) if len(code) <= CODE_LENGTH else None
        except StoreError:
            await _refuse(websocket, "storage_unavailable", STORE_DOWN)
            return
        if room is None:
            server.lookup_window.allow(addr)
            await _refuse(websocket, "no_room", f"there is no room {code[:10]!r}")
            return
        try:
            first = await asyncio.wait_for(websocket.receive(), timeout=limits.hello_timeout)
            hello = m.CLIENT.validate_json(_text(first, limits.message_bytes))
        except (TimeoutError, ValidationError, ValueError, KeyError):
            await _refuse(websocket, "bad_hello", 'the first message must be {"type": "hello"}')
            return
        if not isinstance(hello, m.Hello):
            await _refuse(websocket, "bad_hello", 'the first message must be {"type": "hello"}')
            return
        # the room as this server has it now: while the hello was awaited it may have
        # been read again from the store (replaced) or have left memory
        current = server.rooms.get(room.code)
        if current is None:
            await _refuse(websocket, "no_room", f"there is no room {room.code}")
            return
        room = current
        seat: int | None = None
        if hello.token is not None:
            if not server.join_window.allow(addr):
                await _refuse(websocket, "rate_limited", "too many attempts; wait a minute")
                return
            seat = room.seat_of(hello.token)
            if seat is None and server.cluster:
                # joined through another server a moment ago, whose news has not come
                # yet: the store knows (a token's look-up is counted by join_window)
                try:
                    async with server.locks[room.code]:
                        room = await server.refresh(server.rooms.get(room.code, room))
                except StoreError:
                    await _refuse(websocket, "storage_unavailable", STORE_DOWN)
                    return
                if server.rooms.get(room.code) is not room:
                    await _refuse(websocket, "no_room", f"there is no room {room.code}")
                    return
                seat = room.seat_of(hello.token)
            if seat is None:
                await _refuse(websocket, "bad_token", "this seat token is not valid here")
                return
        if (
            server.cluster
            and seat is not None
            and hello.last_seq is not None
            and behind(room, hello)
        ):
            # a player (a checked token, counted by join_window) saw more of this room
            # (on a server that just died) than this server has applied yet: read it
            # from the store first, so their view never goes back
            try:
                async with server.locks[room.code]:
                    room = await server.refresh(server.rooms.get(room.code, room))
            except StoreError:
                await _refuse(websocket, "storage_unavailable", STORE_DOWN)
                return
            if server.rooms.get(room.code) is not room:
                await _refuse(websocket, "no_room", f"there is no room {room.code}")
                return
        conn = Conn(websocket, room, seat, addr, queue=asyncio.Queue(limits.send_queue))
        conn.bucket = Bucket(limits.messages_per_second)
        if hello.last_seq is not None:
            ops.RECONNECTS.inc()
        if room.match is not None and hello.last_seq is not None and hello.game == room.game_no:
            conn.game = room.game_no
            conn.seq = hello.last_seq  # resume: only what was missed
        if seat is None and hello.name:
            taken = [x.name for x in room.seats if x is not None]
            taken += [c.name for c in server.conns.get(room.code, ()) if c.name]
            refusal = m.name_refusal(hello.name, taken)
            if refusal is None:
                conn.name = hello.name.strip()
        server.conns[room.code].add(conn)
        ops.CONNECTIONS.inc()
        sender = asyncio.get_running_loop().create_task(_pump(conn))
        try:
            conn.send({"type": "welcome", "seat": seat, "code": room.code, "protocol": 1})
            if seat is not None:
                room.connected(seat, +1)
                server.my_presence(room)
                server.want_lease(room)  # a player's server drives the room, if free
            server.broadcast(room)
            if seat is None:
                server.watchers(room.code)
                server.my_presence(room)  # the cluster's other servers list them too
                if hello.name and not conn.name:
                    conn.send(_err("name_taken", "that name is taken here; you watch unnamed"))
            await _serve(conn)
        finally:
            server.conns[room.code].discard(conn)
            if seat is None:
                server.watchers(conn.room.code)
                server.my_presence(conn.room)
            ops.CONNECTIONS.dec()
            conn.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            room = conn.room  # the room read again from the store, in a cluster
            if seat is not None and room.seats[seat] is not None:
                room.connected(seat, -1)
                server.my_presence(room)
                if server.rooms.get(room.code) is room:
                    server.broadcast(room)
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender

    async def _serve(conn: Conn) -> None:
        ws_ = conn.ws
        while not conn.closed:
            try:
                frame = await ws_.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if frame.get("type") == "websocket.disconnect":
                return
            # let the send pumps run between a client's messages: frames already
            # buffered are received without yielding, and a burst of broadcasts must
            # not fill the queues of clients that do read (only non-readers are dropped)
            await asyncio.sleep(0)
            owe = conn.bucket.owe()
            if owe:  # over the rate: costs next to nothing, and a flood ends the connection
                if owe <= limits.rate_replies:
                    conn.send(_err("rate_limited", "too many messages; slow down"))
                elif owe > limits.flood_close_after:
                    server.floods += 1
                    server.flood_window.allow(conn.address)
                    conn.closed = True
                    with contextlib.suppress(Exception):
                        await ws_.close(code=1008, reason="too many messages")
                    return
                continue
            try:
                msg = m.CLIENT.validate_json(_text(frame, limits.message_bytes))
            except _TooBig:
                conn.send(_err("too_big", f"a message has at most {limits.message_bytes} bytes"))
                continue
            except (ValidationError, ValueError):
                conn.send(_err("bad_message", "not a message this server understands"))
                continue
            try:
                await handle(conn, msg)
            except RoomError as e:
                ops.refused(e.code)
                conn.send(_err(e.code, e.message))
                if e.code == "room_changed":
                    server.tell(conn)  # the room as the store has it
            except UnoError as e:
                ops.refused(e.code)
                conn.send(_err(e.code, e.message))
                match = conn.room.match
                if e.code == "stale_version" and match is not None:
                    # a resync: the fresh view follows the refusal, once per version (a
                    # client sending stale actions again was already sent that view)
                    now = (conn.room.game_no, match.version)
                    if conn.resynced != now:
                        conn.resynced = now
                        server.tell(conn)
            except StoreError as e:
                if time.monotonic() >= server.store_down_until:
                    server.store_failed(e)
                ops.refused("storage_unavailable")
                conn.send(_err("storage_unavailable", STORE_DOWN))
            except Exception:
                server.errors += 1
                log.exception("room %s: a message failed", conn.room.code)
                conn.send(_err("internal", "something went wrong on the server"))

    async def handle(conn: Conn, msg: Any) -> None:
        room = conn.room
        if server.rooms.get(room.code) is not room:
            raise RoomError("this room is gone", code="no_room")
        seat = conn.seat
        if isinstance(msg, m.Ping):
            conn.send({"type": "pong"})
            return
        if isinstance(msg, m.Hello):
            raise RoomError("already said hello", code="bad_message")
        if isinstance(msg, (m.Chat, m.React)):
            chat = isinstance(msg, m.Chat)
            if seat is None and chat and not room.watch_chat:
                raise RoomError("the host turned spectators' chat off", code="no_seat")
            if seat is None and not conn.name:
                raise RoomError("give a name (watch again) to chat or react", code="no_seat")
            # a spectator is counted by address: a new name must not bring a new allowance
            who = f"{room.code}:{seat}" if seat is not None else f"{room.code}:w:{conn.address}"
            if not (chat_window if chat else react_window).allow(who):
                raise RoomError("too many messages; wait a little", code="rate_limited")
            s = room.seats[seat] if seat is not None else None
            name = s.name if s else conn.name
            line: dict[str, Any] = (
                {"type": "chat", "seat": seat, "name": name, "text": msg.text}
                if isinstance(msg, m.Chat)
                else {"type": "react", "seat": seat, "name": name, "emote": msg.emote}
            )
            server.chat(room.code, line)
            if server.cluster:
                server.bus.publish({"t": "chat", "code": room.code, "line": line})
            return
        server.check_store()  # refused at once while the store is failing
        async with server.locks[room.code]:
            if conn.closed:
                # kicked while this waited for the lock (the kick's store call runs in a
                # worker thread): the seat is a bot's now and was told so; not its move
                return
            room = conn.room  # read again from the store while this waited, maybe
            if server.rooms.get(room.code) is not room:
                raise RoomError("this room is gone", code="no_room")
            try:
                await _change(conn, room, seat, msg)
                if isinstance(msg, (m.Start, m.Rematch)):
                    server.want_lease(room)  # this server drives the game it started
            except RoomChanged:  # another server stored a change first
                server.conflicts += 1
                room = await server.refresh(room)
                if isinstance(msg, m.Act) and room.match is not None:
                    # to the player it is a move made on an older state, as when it
                    # crosses a bot's move on one server: the fresh view follows
                    raise StaleVersion(
                        "the game moved on meanwhile; a fresh view follows"
                    ) from None
                raise

    async def _change(conn: Conn, room: Room, seat: int | None, msg: Any) -> None:
        if isinstance(msg, m.Act):
            began = time.perf_counter()
            await server.mend(room)  # not checked against a half-applied copy
            action = action_from_wire(room.match.game if room.match else None, msg.action)
            room.prepare(seat, action, msg.version)
            assert seat is not None  # prepare refuses spectators
            await server.commit(room, seat, action, msg.version, person=True)
            server.accepted += 1
            ops.ACTIONS.inc()
            if server.rooms.get(room.code) is room:  # else read again: everyone was sent it
                server.broadcast(room)
            ops.TURN_SECONDS.observe(time.perf_counter() - began)
            return
        elif isinstance(msg, m.Start):
            await server.change(room, lambda r: r.start(seat))
        elif isinstance(msg, m.AddBot):
            await server.change(room, lambda r: r.add_bot(seat, msg.seat, msg.level))
        elif isinstance(msg, m.Kick):
            await server.change(room, lambda r: r.kick(seat, msg.seat))
            for c in list(server.conns.get(room.code, ())):
                if c.seat == msg.seat:
                    c.send(_err("kicked", "the host gave your seat to a bot"))
                    c.closed = True
                    with contextlib.suppress(asyncio.QueueFull):
                        c.queue.put_nowait(None)
        elif isinstance(msg, m.End):
            await server.change(room, lambda r: r.end(seat))
        elif isinstance(msg, m.NextRound):
            await server.next_round(room, seat)
        elif isinstance(msg, m.Rematch):
            await server.change(room, lambda r: r.rematch(seat))
        elif isinstance(msg, m.SetRules):
            check_room_options(msg.preset, msg.options)
            rules = (msg.preset, msg.options, msg.timer)
            await server.change(room, lambda r: r.set_rules(seat, *rules))
        elif isinstance(msg, m.WatchChat):
            await server.change(room, lambda r: r.set_watch_chat(seat, msg.on))
        if room.stale:  # made, but another server changed the row first: read it again
            room.stale = False
            await server.reload(room)
            return
        server.broadcast(room)

    chat_window = Window(limits.chat_per_minute, 60)
    react_window = Window(limits.reactions_per_minute, 60)

    return app


STORE_DOWN = "the server cannot store moves right now, so nothing was changed; try again soon"


class _TooBig(ValueError):
    pass


def behind(room: Room, hello: m.Hello) -> bool:
    """Whether a reconnecting client has seen a later game, or more of this game's
    events, than ``room`` holds."""
    game = hello.game if hello.game is not None else room.game_no
    if game != room.game_no:
        return game > room.game_no
    events = room.match.game.events if room.match is not None else None
    return (hello.last_seq or 0) > len(events or [])


def _text(frame: Any, limit: int) -> str | bytes:
    """The message's text, refused when over ``limit`` bytes or not UTF-8."""
    if frame.get("type") != "websocket.receive":
        raise ValueError("not a message")
    data = frame.get("text")
    if data is None:
        raw = frame.get("bytes") or b""
        if len(raw) > limit:
            raise _TooBig()
        return raw.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if len(data) > limit or len(data.encode("utf-8", "surrogatepass")) > limit:
        raise _TooBig()
    return str(data)


def _abort(ws: WebSocket) -> None:
    """Drop a connection at once, at the TCP level: its pump may be stuck sending to a
    client that does not read, and its reader waiting for a message that never comes;
    a reset ends both, and the session cleans up as for any disconnect."""
    protocol = getattr(getattr(ws, "_receive", None), "__self__", None)
    transport = getattr(protocol, "transport", None)
    if transport is not None:
        with contextlib.suppress(Exception):
            transport.abort()


def _err(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


async def _refuse(ws: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(_err(code, message)))
        await ws.close(code=1008)


async def _pump(conn: Conn) -> None:
    """Send the connection's queue in order; a None (or a dead socket) ends it."""
    ws = conn.ws
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:
        pass
    finally:
        conn.closed = True
        with contextlib.suppress(Exception):
            await ws.close()


# How ``unokit serve`` runs uvicorn (the load test runs the server the same way).
# permessage-deflate is off: messages are a few kB of JSON, and compressing each one
# cost 14% of the server's CPU under load and a zlib state (~300 kB) per connection
# (docs/reliability.md).
# The event loop is uvloop where it is installed (a dependency on Linux and macOS),
# asyncio's own elsewhere: "auto".
# Forwarded headers (X-Forwarded-For) are off: uvicorn would believe them from
# 127.0.0.1, so anyone could pick the address every limit counts; ``serve_options``
# turns them on for the proxies named by ``--forwarded-allow-ips`` only.  A websocket
# frame over ``Limits.frame_bytes`` is refused by the websocket layer before it is
# buffered (uvicorn's default is 16 MiB).
UVICORN_OPTIONS: dict[str, Any] = {
    "loop": "auto",
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    "ws_max_size": Limits.frame_bytes,
    "proxy_headers": False,
    "log_level": "warning",
    # SIGTERM: stop accepting, close websockets (1012: reconnect), finish what is in
    # flight, then the lifespan's end hands the leases over (``Server.close``)
    "timeout_graceful_shutdown": 10,
}


def serve_options(limits: Limits, forwarded_allow_ips: str | None = None) -> dict[str, Any]:
    """uvicorn's options as ``unokit serve`` runs it: ``UVICORN_OPTIONS``, the HTTP
    protocol with a per-address connection cap and a request deadline (``guard``),
    uvicorn's keep-alive and header-size limits, and forwarded headers believed only
    from ``forwarded_allow_ips`` (addresses or networks, comma-separated; None: off)."""
    from unokit.server.guard import guarded_http

    options = {
        **UVICORN_OPTIONS,
        "ws_max_size": limits.frame_bytes,
        "http": guarded_http(
            limits.http_connections_per_address, limits.request_seconds, forwarded_allow_ips
        ),
        "timeout_keep_alive": limits.keep_alive_seconds,
        "h11_max_incomplete_event_size": limits.header_bytes,
    }
    if forwarded_allow_ips is not None:
        options["proxy_headers"] = True
        options["forwarded_allow_ips"] = forwarded_allow_ips
    return options


# The cyclic garbage collector, tuned for a server that holds many long-lived rooms:
# with Python's defaults (700, 10, 10) it ran so often, walking every room and
# connection, that 1,000 rooms at human pace saw p99 latencies of 466-596 ms; with
# these thresholds the same load gives p99 6 ms.  They leave the oldest generation
# almost never collected, so what reaches it must not need the collector: closed
# connections did (``release_closed_transports``).  A full collection every
# FULL_COLLECTION_SECONDS (``Server.collect_every``) is the safety net for any other
# cycle; it costs about a quarter of a second of CPU with 1,000 rooms in memory
# (docs/reliability.md).
GC_THRESHOLDS = (100_000, 50, 100)
FULL_COLLECTION_SECONDS = 600.0


def serve(app: FastAPI, host: str, port: int, **options: Any) -> None:
    """``uvicorn.run``, with a graceful stop that says goodbye first.

    On SIGTERM uvicorn closes every websocket (1012) and only then runs the app's
    shutdown, too late to tell anyone anything: here the listeners close, then the
    server hands its leases over and tells its clients it is restarting
    (``Server.farewell``), then uvicorn goes on (in-flight commits finish within
    ``timeout_graceful_shutdown``)."""
    import uvicorn

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            for listener in self.servers:  # no new connection meanwhile
                listener.close()
            unokit: Server | None = getattr(app.state, "server", None)
            if unokit is not None:
                try:
                    await unokit.farewell()
                except Exception:  # a failed goodbye must not stop the stop
                    log.exception("the farewell failed")
            await super().shutdown(sockets)

    _Server(uvicorn.Config(app, host=host, port=port, **options)).run()


def tune_gc() -> None:
    """Set ``GC_THRESHOLDS`` for this process (``unokit serve`` does, tests do not);
    pair it with ``create_app(full_collection_seconds=FULL_COLLECTION_SECONDS)``."""
    gc.set_threshold(*GC_THRESHOLDS)
    release_closed_transports()


def release_closed_transports() -> None:
    """Backport of CPython gh-100348 (fixed in 3.12) to the 3.11 this may run on.

    On 3.11 a socket transport keeps a bound method of itself (``_read_ready_cb``)
    after its connection is lost: every closed connection leaves a reference cycle
    (the transport, its socket, dict and method) that only a full collection frees,
    which is what made a churning server's memory rise under the tuned thresholds.
    Dropping the method when the connection is lost, as 3.12's ``close()`` does, lets
    reference counting free the transport at once.
    """
    if sys.version_info >= (3, 12):
        return
    from asyncio import selector_events

    cls: Any = getattr(selector_events, "_SelectorSocketTransport")  # noqa: B009
    if getattr(cls, "_unokit_releases_cb", False):
        return
    lost = cls._call_connection_lost

    def _call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            lost(self, exc)
        finally:
            self._read_ready_cb = None

    cls._call_connection_lost = _call_connection_lost
    cls._unokit_releases_cb = True


def sqlite_app(db: str | Path, sync: str = "normal", **kw: Any) -> FastAPI:
    return create_app(SQLiteStore(db, sync=sync), **kw)
