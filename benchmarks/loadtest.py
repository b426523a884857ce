"""Load test of ``unokit serve``: many rooms of scripted websocket clients, one server.

    python benchmarks/loadtest.py                      # both phases (make loadtest)
    python benchmarks/loadtest.py --phase human --rooms 1000 --seconds 60
    python benchmarks/loadtest.py --phase full --rooms 200 --seconds 30

Each phase starts its own server process (``loadtest.py serve``: the real app, SQLite
store in WAL mode, uvicorn, 127.0.0.1 only), creates the rooms over HTTP, connects the
scripted clients over websockets and plays, then stops everything by itself.  Every
room has 4 seats: ``--clients`` scripted clients (2-4) and bots in the others.

* ``human``: the server keeps its default timing (bots wait 0.9 s, 2.5 s when a person
  could catch them); the clients think 1-3 s before a turn and 0.3-1 s before a catch.
* ``full``: the server's bots act at once (``Timing.instant()``) and the clients answer
  every state message as soon as it arrives.

Figures (one line per phase): rooms held, accepted actions per second (every version
step of every room: the clients' actions and the bots'), latency from a client sending
an action to every client of the room having a view of the resulting version
(p50/p95/p99), the server's CPU (cores) and memory (RSS, per room), and errors
(internal errors, storage errors, lost connections, stalled rooms, server log
tracebacks).  Refusals that a fair race produces (two clients catching at once, an
action crossing a bot's move: ``stale_version``) are counted apart, as refusals.

The load generator runs in ``--workers`` processes; every room lives in one worker,
so a room's latency is measured on one clock.

Stores and clusters (``--topology``, ``Topology``): each phase runs once per topology
listed, against SQLite (``sqlite-normal``, ``sqlite-full``), one server on a throwaway
PostgreSQL (``pg``: scripts/cluster.py's ``Postgres``, fsync on), or N servers on
PostgreSQL and redis-server (``pg+redis:N``).  A cluster's clients connect directly to
the servers' ports (no proxy): each room's clients on different servers
(``--spread seats``) or on one (``--spread rooms``).  A second table gives the CPU
each accepted action cost the servers, PostgreSQL (every backend) and Redis, and the
machine's load (the load generator and everything else).  ``make loadtest-cluster``
(``--plan cluster``) is the comparison of docs/reliability.md:

    python benchmarks/loadtest.py --plan cluster --json /tmp/lt-cluster.json
    python benchmarks/loadtest.py --phase full --topology pg,pg+redis:2 --repeat 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
# unokit.server.app.COMMITS (not imported: the load generator's processes do not load
# the server)
COMMITS = ("group", "group-thread", "group-inline", "each")


# ---------------------------------------------------------------------- the server ---
def serve(args: argparse.Namespace) -> None:
    """The server process: the real app with limits raised for one load address."""
    sys.path.insert(0, str(ROOT / "src"))
    import dataclasses
    import logging

    import uvicorn

    from unokit.match import Timing
    from unokit.server.app import create_app
    from unokit.server.store import SQLiteStore, Store

    try:
        from unokit.server import runtime as server_app
        from unokit.server.limits import Limits
    except ImportError:  # a checkout from before the server's split (old against new)
        from unokit.server import app as server_app  # type: ignore[no-redef]
        from unokit.server.app import Limits  # type: ignore[no-redef,attr-defined]
    UVICORN_OPTIONS = server_app.UVICORN_OPTIONS

    # the server's own warnings (store, bus, leases) with their level, in its log
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    timing = Timing.instant() if args.timing == "instant" else None
    full_every = None
    if args.gc == "serve":  # as ``unokit serve`` runs: fewer cyclic collections
        server_app.tune_gc()
        full_every = (
            args.full_every if args.full_every is not None else server_app.FULL_COLLECTION_SECONDS
        )
    if args.gc == "off":  # an experiment: are the latency tails the cyclic GC's pauses?
        import gc

        gc.disable()
    raised = {  # every client comes from 127.0.0.1: per-address limits raised
        "connections_per_address": 100_000,
        "rooms_per_address_per_hour": 1_000_000,
        "joins_per_address_per_minute": 1_000_000,
        "lookups_per_address_per_minute": 1_000_000,
        "http_connections_per_address": 100_000,
        "messages_per_second": args.rate,
        "floods_per_address_per_minute": 1_000_000 if args.flood_ban == "off" else None,
    }
    known = {f.name for f in dataclasses.fields(Limits)}  # older servers lack some
    limits = Limits(**{k: v for k, v in raised.items() if k in known and v is not None})
    store: Store
    if args.store:  # PostgreSQL, as ``unokit serve --store URL [--bus URL]`` opens it
        from unokit.server.pgstore import PostgresStore

        store = PostgresStore(args.store, shared=args.bus is not None)
    else:
        store = SQLiteStore(args.db, sync=args.sync)
    extra: dict[str, Any] = {}
    if args.bus:
        from unokit.server.bus import open_bus

        extra["bus"] = open_bus(args.bus)
    app: Any = create_app(
        store,
        timing=timing,
        limits=limits,
        full_collection_seconds=full_every or None,
        commit=args.commit,
        **extra,
    )
    server = app.state.server
    # as unokit serve runs uvicorn (serve_options: the guarded HTTP protocol, frame size)
    serve_options = getattr(server_app, "serve_options", None)
    base = serve_options(limits) if serve_options is not None else UVICORN_OPTIONS
    options = {**base, "loop": args.loop}
    if args.stats:
        app = with_stats(app, args.stats, args.stats_every)
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
        prof.enable()
        try:
            uvicorn.run(app, host="127.0.0.1", port=args.port, backlog=4096, **options)
        except KeyboardInterrupt:
            pass
        finally:
            prof.disable()
            prof.dump_stats(args.profile)
        return
    if args.collections:  # a side file, rewritten every 2 s: the process may be killed

        def report() -> None:
            while True:
                time.sleep(2.0)
                # whole or not at all: the reader may come at any moment
                part = Path(args.collections + ".part")
                part.write_text(json.dumps(collection_stats(server)))
                os.replace(part, args.collections)

        threading.Thread(target=report, daemon=True).start()
    uvicorn.run(app, host="127.0.0.1", port=args.port, backlog=4096, **options)


def collection_stats(server: Any) -> dict[str, Any]:
    """The server's timed full collections: how many, their mean and longest pause."""
    upkeep = getattr(server, "upkeep", server)  # a checkout from before the split: Server's
    n = upkeep.full_collections
    group = server.group
    return {
        "commit_mode": server.commit_mode,
        "commits": group.commits if group is not None else None,
        "committed_entries": group.entries if group is not None else None,
        "largest_commit": group.largest if group is not None else None,
        "full_collections": n,
        "full_collection_mean_ms": round(1000 * upkeep.full_collection_total / n, 1) if n else None,
        "full_collection_max_ms": round(1000 * upkeep.full_collection_max, 1),
        # a cluster's: actions this server committed, rooms read again from the store,
        # writes another server got to first, leases held, bus messages
        "server_accepted": getattr(server, "accepted", None),
        "server_errors": getattr(server, "errors", None),
        "rooms_in_memory": len(getattr(server, "rooms", ())),
        "refreshes": getattr(server, "refreshes", None),
        "conflicts": getattr(server, "conflicts", None),
        "leases_held": len(
            getattr(getattr(server, "leases", None), "held", None) or getattr(server, "held", ())
        ),
        "bus_published": getattr(getattr(server, "bus", None), "published", None),
        "bus_skipped": getattr(getattr(server, "bus", None), "skipped", None),
        "bus_received": getattr(getattr(server, "bus", None), "received", None),
        "bus_dropped": getattr(getattr(server, "bus", None), "dropped", None),
    }


def with_stats(app: Any, path: str, every: float) -> Any:
    """Wrap ``app`` so a thread writes the server's task and connection counts to
    ``path`` (one JSON line every ``every`` seconds): the soak test's leak check."""

    server = app.state.server
    seen: dict[str, Any] = {}
    trace = os.environ.get("UNOKIT_TRACEMALLOC")  # a file: where memory grows, by line
    if trace:
        import tracemalloc

        tracemalloc.start(8)
    census = os.environ.get("UNOKIT_GC_CENSUS")  # a file: what the cyclic GC collects
    if census:
        import gc

        gc.set_debug(gc.DEBUG_SAVEALL)  # collected cycles land in gc.garbage, to count

    async def wrapper(scope: Any, receive: Any, send: Any) -> None:
        seen.setdefault("loop", asyncio.get_running_loop())
        await app(scope, receive, send)

    async def sample() -> dict[str, Any]:
        import gc
        from collections import Counter

        if census:  # every object in a cycle since the last sample, by type
            gc.collect()
            kinds = Counter(type(o).__qualname__ for o in gc.garbage)
            with open(census, "a") as f:
                f.write(json.dumps({"t": time.time(), "objects": len(gc.garbage),
                                    "top": kinds.most_common(25)}) + "\n")  # fmt: skip
            gc.set_debug(0)  # free them for good: saved again, they would count twice
            gc.garbage.clear()
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)
        return {
            "t": time.time(),
            "tasks": len(asyncio.all_tasks()),
            "conns": sum(len(c) for c in server.conns.values()),
            "rooms": len(server.rooms),
            "drivers": len(server.drivers),
            "locks": len(server.locks),
            "gc_objects": len(gc.get_objects()),
            "errors": server.errors,
            "accepted": server.accepted,
            **collection_stats(server),
        }

    def loop() -> None:
        while True:
            time.sleep(every)
            lp = seen.get("loop")
            if lp is None:
                continue
            try:
                row = asyncio.run_coroutine_threadsafe(sample(), lp).result(30)
            except Exception:
                return
            with open(path, "a") as f:
                f.write(json.dumps(row) + "\n")
            if trace:
                import tracemalloc

                snap = tracemalloc.take_snapshot()
                first = seen.setdefault("snap", snap)
                top = snap.compare_to(first, "traceback")[:12]
                with open(trace, "a") as f:
                    f.write(f"--- {time.time():.0f}\n")
                    for st in top:
                        f.write(f"{st.size_diff / 1024:10.0f} kB {st.count_diff:8d}\n")
                        f.write("\n".join("      " + ln for ln in st.traceback.format()[-8:]))
                        f.write("\n")

    threading.Thread(target=loop, daemon=True).start()
    return wrapper


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProc:
    port: int
    db: str
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def start_server(
    db: str,
    timing: str = "default",
    sync: str = "normal",
    port: int | None = None,
    profile: str | None = None,
    log: Path | None = None,
    stats: str | None = None,
    stats_every: float = 60.0,
    gc: str = "serve",
    full_every: float | None = None,
    collections: str | None = None,
    commit: str = "group",
    loop: str = "auto",
    rate: float = 1000.0,
    flood_ban: str = "on",
    store: str | None = None,
    bus: str | None = None,
) -> ServerProc:
    """``store``: a PostgreSQL URL instead of the SQLite file ``db``; ``bus``: a Redis
    URL (one of several servers on that store)."""
    port = port or free_port()
    log = log or Path(tempfile.mkstemp(prefix="unokit-server-", suffix=".log")[1])
    cmd = [PY, str(HERE / "loadtest.py"), "serve", "--port", str(port), "--db", db]
    if store:
        cmd += ["--store", store]
    if bus:
        cmd += ["--bus", bus]
    cmd += ["--timing", timing, "--sync", sync, "--commit", commit, "--loop", loop]
    cmd += ["--rate", str(rate), "--flood-ban", flood_ban]
    if profile:
        cmd += ["--profile", profile]
    if stats:
        cmd += ["--stats", stats, "--stats-every", str(stats_every)]
    cmd += ["--gc", gc]
    if full_every is not None:
        cmd += ["--full-every", str(full_every)]
    if collections:
        cmd += ["--collections", collections]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with open(log, "ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    wait_port(port, proc)
    return ServerProc(port, db, proc, log)


def wait_port(port: int, proc: subprocess.Popen[bytes] | None = None, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def stop_server(s: ServerProc, sig: int = signal.SIGTERM) -> None:
    if s.proc.poll() is None:
        s.proc.send_signal(sig)
        try:
            s.proc.wait(20)
        except subprocess.TimeoutExpired:
            s.proc.kill()
            s.proc.wait()


def log_errors(path: Path) -> int:
    """Tracebacks and ERROR lines the server wrote (each one is a bug or a failure)."""
    text = path.read_text(errors="replace") if path.exists() else ""
    return text.count("Traceback")


# ---------------------------------------------------------------------- the clients --
def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A scripted player: catch or call UNO when it can, play a card (saying UNO) if
    it can, else whatever is legal (draw, keep, accept...)."""
    for a in legal:
        if "catch" in a:
            return a
    plays = [a for a in legal if "play" in a or "cards" in a]
    if plays:
        unos = [a for a in plays if a.get("uno")]
        return rng.choice(unos or plays)
    for a in legal:
        if "uno" in a and len(a) == 1:
            return a
    return rng.choice(legal)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    versions: int = 0  # version steps seen (all rooms, all actors) in the window
    games_finished: int = 0
    rooms_held: int = 0
    acked: list[tuple[str, int, int, dict[str, Any]]] = field(default_factory=list)
    stalled: list[dict[str, Any]] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def refuse(self, what: str) -> None:
        self.refused[what] = self.refused.get(what, 0) + 1


# room_changed: another server of a cluster stored that version first (the loser resyncs)
REFUSALS = {
    "stale_version",
    "room_changed",
    "illegal",
    "not_your_turn",
    "round_not_over",
    "game_over",
}


class RoomPlay:
    """One room: its scripted clients and the latency of their actions."""

    def __init__(
        self,
        base: str,
        code: str,
        seats: list[tuple[int, str]],
        stats: Stats,
        pace: str,
        rng: random.Random,
        keep_acks: bool = False,
        bases: list[str] | None = None,
    ) -> None:
        """``bases``: the servers of a cluster, client ``i`` connecting to
        ``bases[i % len(bases)]`` (default: every client to ``base``)."""
        self.base = base
        self.code = code
        self.stats = stats
        self.pace = pace
        self.rng = rng
        self.keep_acks = keep_acks
        self.clients = [Client(self, seat, token) for seat, token in seats]
        for i, c in enumerate(self.clients):
            c.base = bases[i % len(bases)] if bases else base
        # seat -> ((game, version) acted on, time sent, seats not yet told)
        self.pending: dict[int, tuple[tuple[int, int], float, set[int]]] = {}
        self.version = (0, 0)  # the highest (game, version) seen by any client
        self.measuring = False
        self.changed = time.monotonic()
        self.game = 0

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "version": self.version, "clients": []}
        for c in self.clients:
            st = c.state or {}
            v = st.get("view", {})
            out["clients"].append(
                {
                    "seat": c.seat,
                    "status": c.status,
                    "version": st.get("version"),
                    "current": v.get("current"),
                    "phase": v.get("phase"),
                    "vulnerable": v.get("vulnerable"),
                    "legal": v.get("legal"),
                    "outcome": st.get("outcome"),
                    "outstanding": c.outstanding,
                }
            )
        return out

    def saw(self, client: Client, game: int, version: int) -> None:
        now = time.monotonic()
        key = (game, version)
        if key > self.version:
            if self.measuring and self.version[0]:
                # a new game starts again from version 1
                step = version - self.version[1] if game == self.version[0] else version
                self.stats.versions += max(0, step)
            self.version = key
            self.changed = now
        for seat, (v, t, waiting) in list(self.pending.items()):
            if key > v:
                waiting.discard(client.seat)
                if not waiting:
                    del self.pending[seat]
                    if self.measuring:
                        self.stats.latencies.append(now - t)

    def sent(self, client: Client, key: tuple[int, int]) -> None:
        self.pending[client.seat] = (key, time.monotonic(), {c.seat for c in self.clients})

    def refused(self, client: Client) -> None:
        self.pending.pop(client.seat, None)


class Client:
    def __init__(self, room: RoomPlay, seat: int, token: str) -> None:
        self.room = room
        self.seat = seat
        self.token = token
        self.base = room.base  # the server this client talks to
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.last_seq: int | None = None
        self.game: int | None = None
        self.task: asyncio.Task[None] | None = None
        self.think: asyncio.Task[None] | None = None
        self.outstanding: tuple[int, int] | None = None
        self.closed = False
        self.status = "lobby"

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        url = self.base.replace("http", "ws") + f"/ws/{self.room.code}"
        self.ws = await connect(url, max_size=2**22, open_timeout=60, ping_interval=None)
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.last_seq is not None and self.game is not None:
            hello["last_seq"] = self.last_seq
            hello["game"] = self.game
        await self.ws.send(json.dumps(hello))

    async def run(self) -> None:
        room = self.room
        stats = room.stats
        try:
            async for text in self.ws:
                msg = json.loads(text)
                t = msg.get("type")
                if t == "state":
                    self.state = msg
                    self.last_seq = msg["seq"]
                    self.game = msg["game"]
                    room.game = max(room.game, msg["game"])
                    room.saw(self, msg["game"], msg["version"])
                    if self.outstanding is not None and self.key() != self.outstanding:
                        self.outstanding = None
                    self.decide()
                elif t == "room":
                    self.status = msg["status"]
                    if msg["status"] == "over" and self.seat == 0 and msg["game"] == room.game:
                        stats.games_finished += room.measuring
                        self.later(self.rng_delay(0.5, 1.5), {"type": "rematch"})
                elif t == "error":
                    code = msg.get("code", "?")
                    if code in REFUSALS or code in ("rate_limited",):
                        stats.refuse(code)
                    else:
                        stats.error(f"error:{code}")
                    room.refused(self)
                    self.outstanding = None
        except Exception as e:  # a lost connection is an error of the run
            if not self.closed:
                stats.error(f"lost:{type(e).__name__}")
        else:
            if not self.closed:
                stats.error("closed_by_server")

    def rng_delay(self, a: float, b: float) -> float:
        return 0.0 if self.room.pace == "full" else self.room.rng.uniform(a, b)

    def key(self) -> tuple[int, int] | None:
        st = self.state
        return None if st is None else (st["game"], st["version"])

    def later(
        self, delay: float, msg: dict[str, Any], version: tuple[int, int] | None = None
    ) -> None:
        if self.think is not None and not self.think.done():
            self.think.cancel()

        async def go() -> None:
            if delay:
                await asyncio.sleep(delay)
            if self.closed:
                return
            if version is not None:
                if self.key() != version:
                    return  # the table moved on while thinking
                self.outstanding = version
                self.room.sent(self, version)
                self.room.stats.sent += self.room.measuring
            with contextlib.suppress(Exception):
                await self.ws.send(json.dumps(msg))

        self.think = asyncio.get_running_loop().create_task(go())

    def decide(self) -> None:
        state = self.state
        if state is None or self.outstanding is not None or self.closed:
            return
        view = state["view"]
        if view["phase"] == "round_over" or state["outcome"]["round_over"]:
            if self.seat == 0 and not state["outcome"]["game_over"] and self.room.pace != "full":
                self.later(self.rng_delay(1.0, 2.0), {"type": "next_round"})
            return
        legal = view["legal"]
        if not legal:
            return
        action = pick(legal, self.room.rng)
        mine = view["current"] == self.seat
        delay = self.rng_delay(1.0, 3.0) if mine else self.rng_delay(0.3, 1.0)
        msg = {"type": "act", "version": state["version"], "action": action}
        self.later(delay, msg, version=self.key())

    async def close(self) -> None:
        self.closed = True
        if self.think is not None:
            self.think.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


async def create_app_room(
    http: Any,
    n_clients: int,
    preset: str = "classic",
    options: dict[str, Any] | None = None,
    bases: list[str] | None = None,
) -> tuple[str, list[tuple[int, str]]]:
    """A room of 4 seats, ``n_clients`` people and bots.  ``bases``: the servers of a
    cluster; the room is created on the first and person ``i`` joins through
    ``bases[i % len(bases)]`` (default: all through ``http``'s base URL)."""
    at = (lambda i: bases[i % len(bases)]) if bases else (lambda i: "")
    bots: list[str | None] = [None] * (n_clients - 1) + ["normal"] * (4 - n_clients)
    body = {"name": "P0", "preset": preset, "seats": 4, "bots": bots, "options": options or {}}
    r = await http.post(at(0) + "/api/rooms", json=body)
    r.raise_for_status()
    d = r.json()
    seats = [(0, d["token"])]
    for i in range(1, n_clients):
        j = await http.post(at(i) + f"/api/rooms/{d['code']}/join", json={"name": f"P{i}"})
        j.raise_for_status()
        seats.append((j.json()["seat"], j.json()["token"]))
    return d["code"], seats


async def run_worker(
    base: str,
    n_rooms: int,
    n_clients: int,
    pace: str,
    seconds: float,
    warmup: float,
    seed: int,
    ramp: float,
    ready: Any,
    go: Any,
    bases: list[str] | None = None,
    offset: int = 0,
    spread: str = "seats",
) -> Stats:
    """``bases``: the servers of a cluster.  Room ``offset + i`` is created on
    ``bases[(offset + i) % n]`` and its clients take the next servers in turn, so the
    clients of a room sit on different servers (as many as there are clients or
    servers, whichever is fewer) and every server gets the same share."""
    import httpx

    rng = random.Random(seed)
    stats = Stats()
    rooms: list[RoomPlay] = []
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        sem = asyncio.Semaphore(20)

        async def make(i: int) -> None:
            turn = None
            if bases and len(bases) > 1:
                k = (offset + i) % len(bases)
                # seats: a room's clients on different servers; rooms: on one
                turn = bases[k:] + bases[:k] if spread == "seats" else [bases[k]]
            async with sem:
                try:
                    code, seats = await create_app_room(http, n_clients, bases=turn)
                except Exception as e:
                    stats.error(f"create:{type(e).__name__}")
                    return
            room = RoomPlay(base, code, seats, stats, pace, random.Random(rng.random()), bases=turn)
            rooms.append(room)

        await asyncio.gather(*(make(i) for i in range(n_rooms)))
        # connect and start, spread over ``ramp`` seconds (a room's clients together)
        start_at = time.monotonic()

        async def open_room(room: RoomPlay) -> None:
            async def one(c: Client) -> None:
                try:
                    await c.connect()
                except Exception as e:
                    stats.error(f"connect:{type(e).__name__}")
                    return
                c.task = asyncio.get_running_loop().create_task(c.run())

            await asyncio.gather(*(one(c) for c in room.clients))
            host = room.clients[0]
            if host.ws is not None:
                with contextlib.suppress(Exception):
                    await host.ws.send(json.dumps({"type": "start"}))

        opening = []
        for i, room in enumerate(rooms):
            delay = start_at + ramp * i / max(1, len(rooms)) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            opening.append(asyncio.get_running_loop().create_task(open_room(room)))
        await asyncio.gather(*opening)
        ready.put(time.monotonic() - start_at)
        while not go.is_set():  # every worker has its rooms open: measure together
            await asyncio.sleep(0.05)
        await asyncio.sleep(warmup)
        for room in rooms:
            room.measuring = True
            room.pending.clear()
        t0 = time.monotonic()
        await asyncio.sleep(seconds)
        for room in rooms:
            room.measuring = False
        elapsed = time.monotonic() - t0
        now = time.monotonic()
        stall = 20.0 if pace == "human" else 5.0
        for room in rooms:
            if all(c.ws is not None and not c.closed for c in room.clients):
                stats.rooms_held += 1
            if now - room.changed > stall:
                stats.error("stalled_room")
                stats.stalled.append(room.describe())
        for room in rooms:
            for c in room.clients:
                await c.close()
        for room in rooms:
            for c in room.clients:
                if c.task is not None:
                    c.task.cancel()
                    with contextlib.suppress(BaseException):
                        await c.task
    stats.versions = int(stats.versions)
    stats.refused["_elapsed"] = int(elapsed * 1000)
    return stats


def _worker(
    args: tuple[Any, ...], out: Any, ready: Any, go: Any, extra: dict[str, Any] | None = None
) -> None:
    stats = asyncio.run(run_worker(*args, ready, go, **(extra or {})))
    out.put(stats)


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return xs[k]


# ------------------------------------------------------------------ the topologies --
@dataclass
class Topology:
    """What a phase runs against (``--topology``):

    * ``sqlite`` (``--sync`` decides), ``sqlite-normal``, ``sqlite-full``: one server on
      an SQLite file (WAL; ``synchronous=NORMAL`` or ``FULL``);
    * ``pg``: one server on a throwaway PostgreSQL, no bus (``--store postgresql://``);
    * ``pg+redis:N``: N servers on one PostgreSQL and one redis-server
      (``--store postgresql://... --bus redis://...``); each room's clients connect
      directly to different servers' ports (no proxy, no sticky sessions: see
      ``run_worker``).
    """

    store: str  # "sqlite" or "pg"
    servers: int = 1
    bus: bool = False
    sync: str = "normal"  # SQLite's

    @property
    def label(self) -> str:
        if self.store == "sqlite":
            return f"sqlite {self.sync}"
        return f"pg+redis x{self.servers}" if self.bus else "pg"


def parse_topology(text: str, sync: str = "normal") -> Topology:
    t = text.strip()
    if t == "sqlite":
        return Topology("sqlite", sync=sync)
    if t in ("sqlite-normal", "sqlite-full"):
        return Topology("sqlite", sync=t.split("-")[1])
    if t == "pg":
        return Topology("pg")
    if t.startswith("pg+redis"):
        n = int(t.split(":", 1)[1]) if ":" in t else 2
        if not 1 <= n <= 8:
            raise ValueError(f"{t}: 1 to 8 servers")
        return Topology("pg", servers=n, bus=True)
    raise ValueError(f"{t!r}: a topology is sqlite, sqlite-normal, sqlite-full, pg or pg+redis:N")


def _cluster_module() -> Any:
    """scripts/cluster.py (its Postgres, redis-server and helpers), imported by path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("unokit_cluster", ROOT / "scripts/cluster.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("unokit_cluster", mod)
    spec.loader.exec_module(mod)
    return mod


def tree_cpu(proc: Any) -> float:
    """CPU-seconds of ``proc`` and every live descendant, plus what its reaped children
    used (so a backend that exits between two readings is still counted)."""
    import psutil

    try:
        t = proc.cpu_times()
        total = t.user + t.system + t.children_user + t.children_system
        kids = proc.children(recursive=True)
    except psutil.Error:
        return 0.0
    for k in kids:
        with contextlib.suppress(psutil.Error):
            kt = k.cpu_times()
            total += kt.user + kt.system
    return float(total)


def proc_cpu(proc: Any) -> float:
    import psutil

    try:
        t = proc.cpu_times()
    except psutil.Error:
        return 0.0
    return float(t.user + t.system)


class Backend:
    """The servers of one phase and what they stand on (PostgreSQL, redis-server), all
    on 127.0.0.1 in one temporary folder that ``stop`` removes; PostgreSQL with fsync
    on (a commit is on disk before it is acknowledged)."""

    def __init__(self, topo: Topology, folder: Path, **server_kw: Any) -> None:
        import psutil

        self.topo = topo
        self.folder = folder
        self.servers: list[ServerProc] = []
        self.pg: Any = None
        self.redis: Any = None
        self.colls: list[Path] = []
        cl = _cluster_module() if topo.store == "pg" else None
        try:
            store = bus = None
            if cl is not None:
                folder.chmod(0o755)  # PostgreSQL's user (as root: postgres) reaches it
                self.pg = cl.Postgres(
                    str(cl.pg_binaries()), str(folder / "pg"), free_port(), cl.pg_user(), True
                )
                self.pg.init()
                store = self.pg.url
                if topo.bus:
                    rport = free_port()
                    (folder / "redis").mkdir()
                    cmd = [cl.program("redis-server"), "--bind", "127.0.0.1", "--port",
                           str(rport), "--save", "", "--appendonly", "no", "--dir",
                           str(folder / "redis"), "--daemonize", "no"]  # fmt: skip
                    self.redis = cl.Proc(
                        "redis", cmd, rport, str(folder / "redis.log"), marker=f":{rport}"
                    )
                    self.redis.start()
                    cl._wait(
                        "redis-server",
                        lambda: cl._redis_ok(rport),
                        Path(self.redis.log),
                        self.redis.pid,
                    )
                    bus = f"redis://127.0.0.1:{rport}/0"
            for i in range(topo.servers):
                coll = folder / f"collections-{i}.json"
                self.colls.append(coll)
                self.servers.append(
                    start_server(
                        str(folder / "load.sqlite3"),
                        sync=topo.sync,
                        log=folder / f"server-{i}.log",
                        collections=str(coll),
                        store=store,
                        bus=bus,
                        **server_kw,
                    )
                )
        except BaseException:
            self.stop()
            raise
        self.procs = [psutil.Process(s.proc.pid) for s in self.servers]
        self.pg_proc = psutil.Process(self.pg.pid()) if self.pg is not None else None
        self.redis_proc = psutil.Process(self.redis.pid) if self.redis is not None else None

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    def cpu(self) -> dict[str, float]:
        """CPU-seconds so far: the unokit servers, PostgreSQL (every backend), Redis."""
        return {
            "servers": sum(proc_cpu(p) for p in self.procs),
            "postgres": tree_cpu(self.pg_proc) if self.pg_proc is not None else 0.0,
            "redis": proc_cpu(self.redis_proc) if self.redis_proc is not None else 0.0,
        }

    def rss(self) -> int:
        import psutil

        total = 0
        for p in self.procs:
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total

    def stop(self) -> None:
        for s in self.servers:
            stop_server(s)
        if self.redis is not None:
            self.redis.terminate()
        if self.pg is not None and self.pg.pid() is not None:
            with contextlib.suppress(Exception):
                self.pg.stop("fast")
            pid = self.pg.pid()
            if pid is not None:
                _cluster_module()._stop_pid(pid, "postgres")

    def logs(self) -> tuple[int, list[str]]:
        """Tracebacks in the servers' logs, and their first warning or error lines."""
        tracebacks = 0
        lines: list[str] = []
        for i, s in enumerate(self.servers):
            tracebacks += log_errors(s.log)
            text = s.log.read_text(errors="replace") if s.log.exists() else ""
            for ln in text.splitlines():
                if len(lines) < 20 and ("WARNING" in ln or "ERROR" in ln or "Traceback" in ln):
                    lines.append(f"server {i}: {ln[:300]}")
        return tracebacks, lines


def run_phase(
    pace: str,
    rooms: int,
    clients: int,
    seconds: float,
    workers: int,
    sync: str,
    profile: str | None,
    seed: int,
    gc: str = "serve",
    commit: str = "group",
    loop: str = "auto",
    topology: Topology | None = None,
    keep: bool = False,
    spread: str = "seats",
) -> dict[str, Any]:
    topo = topology or Topology("sqlite", sync=sync)
    db_dir = Path(tempfile.mkdtemp(prefix="unokit-load-"))
    db = db_dir / "load.sqlite3"
    try:
        backend = Backend(
            topo,
            db_dir,
            timing="instant" if pace == "full" else "default",
            profile=profile,
            gc=gc,
            commit=commit,
            loop=loop,
        )
    except BaseException:
        if not keep:
            shutil.rmtree(db_dir, ignore_errors=True)
        raise
    try:
        row = _measure_phase(backend, pace, rooms, clients, seconds, workers, seed, spread)
    finally:
        backend.stop()
        tracebacks, warnings = backend.logs()
        db_mb = db.stat().st_size / 2**20 if db.exists() else 0.0
        if not keep:
            shutil.rmtree(db_dir, ignore_errors=True)
    if tracebacks:
        row["errors"] += tracebacks
        row["error_kinds"]["server_tracebacks"] = tracebacks
    return {
        "phase": pace,
        "topology": topo.label
        + (" (rooms on one server)" if spread == "rooms" and topo.servers > 1 else ""),
        "servers": topo.servers,
        "commit": commit,
        "sync": topo.sync if topo.store == "sqlite" else "pg",
        "loop": loop,
        "rooms": rooms,
        "clients_per_room": clients,
        "seconds": seconds,
        **row,
        "db_mb": db_mb,
        "server_log": str(backend.servers[0].log) if keep and backend.servers else None,
        "server_log_warnings": warnings,
    }


def _measure_phase(
    backend: Backend,
    pace: str,
    rooms: int,
    clients: int,
    seconds: float,
    workers: int,
    seed: int,
    spread: str = "seats",
) -> dict[str, Any]:
    import psutil

    rss0 = backend.rss()
    ramp = min(30.0, rooms / 40) if pace == "human" else min(10.0, rooms / 50)
    warmup = 10.0 if pace == "human" else 3.0
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    ready = ctx.Queue()
    go = ctx.Event()
    per = [rooms // workers + (1 if i < rooms % workers else 0) for i in range(workers)]
    urls = backend.urls
    procs = [
        ctx.Process(
            target=_worker,
            args=(
                (urls[0], per[i], clients, pace, seconds, warmup, seed + i, ramp),
                q,
                ready,
                go,
                {"bases": urls, "offset": sum(per[:i]), "spread": spread}
                if len(urls) > 1
                else None,
            ),
        )
        for i in range(workers)
    ]
    for p in procs:
        p.start()
    try:
        opened = max(ready.get(timeout=600) for _ in procs)
        print(f"  {rooms} rooms open in {opened:.1f} s; warming up {warmup:.0f} s", flush=True)
        rss_open = backend.rss()
        go.set()
        time.sleep(warmup)
        gens = [psutil.Process(p.pid) for p in procs]
        gen0 = sum(sum(g.cpu_times()[:2]) for g in gens)
        load0 = os.getloadavg()[0]
        machine0 = psutil.cpu_times()
        cpu0 = backend.cpu()
        t0 = time.monotonic()
        rss_samples = []
        while time.monotonic() - t0 < seconds:
            time.sleep(1.0)
            rss_samples.append(backend.rss())
        cpu1 = backend.cpu()
        machine1 = psutil.cpu_times()
        wall = time.monotonic() - t0
        gen_cores = (sum(sum(g.cpu_times()[:2]) for g in gens) - gen0) / wall
        load1 = os.getloadavg()[0]
        results: list[Stats] = [q.get(timeout=seconds + warmup + 300) for _ in procs]
        for p in procs:
            p.join(60)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
                p.join(10)
    total = Stats()
    for s in results:
        total.latencies += s.latencies
        total.sent += s.sent
        total.versions += s.versions
        total.games_finished += s.games_finished
        total.rooms_held += s.rooms_held
        total.stalled += s.stalled
        for k, v in s.errors.items():
            total.errors[k] = total.errors.get(k, 0) + v
        for k, v in s.refused.items():
            if k != "_elapsed":
                total.refused[k] = total.refused.get(k, 0) + v
    per_server = [json.loads(c.read_text()) if c.exists() else {} for c in backend.colls]
    collections = per_server[0] if per_server else {}
    used = {k: cpu1[k] - cpu0[k] for k in cpu1}
    busy = sum(machine1) - sum(machine0) - (machine1.idle - machine0.idle)
    busy -= getattr(machine1, "iowait", 0.0) - getattr(machine0, "iowait", 0.0)
    cores = used["servers"] / wall
    actions = total.versions  # every version step of every room, in the window
    rss = max(rss_samples) if rss_samples else rss0
    return {
        "rooms_held": total.rooms_held,
        "accepted_per_s": total.versions / seconds,
        "client_actions_per_s": total.sent / seconds,
        "latency_samples": len(total.latencies),
        **collections,
        "per_server": per_server,
        "p50_ms": percentile(total.latencies, 50) * 1000,
        "p95_ms": percentile(total.latencies, 95) * 1000,
        "p99_ms": percentile(total.latencies, 99) * 1000,
        "max_ms": (max(total.latencies) * 1000) if total.latencies else float("nan"),
        "server_cores": cores,
        "server_cpu_s": used["servers"],
        "postgres_cores": used["postgres"] / wall,
        "redis_cores": used["redis"] / wall,
        # CPU cost per accepted action, in CPU-milliseconds
        "server_cpu_ms_per_action": 1000 * used["servers"] / max(1, actions),
        "postgres_cpu_ms_per_action": 1000 * used["postgres"] / max(1, actions),
        "redis_cpu_ms_per_action": 1000 * used["redis"] / max(1, actions),
        "actions_per_server_cpu_s": actions / used["servers"] if used["servers"] else 0.0,
        "loadgen_cores": gen_cores,
        "machine_busy_cores": busy / wall,
        "machine_others_cores": busy / wall - gen_cores - sum(used.values()) / wall,
        "loadavg": [load0, load1],
        "server_rss_mb": rss / 2**20,
        "rss_per_room_kb": (rss - rss0) / max(1, rooms) / 1024,
        "rss_open_mb": rss_open / 2**20,
        "open_seconds": opened,
        "games_finished": total.games_finished,
        "errors": sum(total.errors.values()),
        "error_kinds": total.errors,
        "refused": total.refused,
        "stalled": total.stalled[:5],
    }


# ---------------------------------------------------------------------- the flood ---
# One room is flooded by ``--flooders`` connections (the seats' own tokens) sending as
# fast as they can: stale actions, bad JSON, messages over 4 KiB, pings; each one closed
# by the server connects again.  Another room, two scripted people and no bots, plays
# one action at a time; its latency (an action sent -> both clients hold the new
# version) is measured first alone, then under the flood.  The server runs with the
# default per-connection rate (20 messages a second).
FLOOD_MESSAGES = [
    '{"type":"act","version":0,"action":{"draw":true}}',  # stale (and not everyone's turn)
    "{not json",
    '{"type":"chat","text":"' + "x" * 5000 + '"}',  # over the 4 KiB message limit
    '{"type":"ping"}',
]


async def _flood_room(http: Any) -> tuple[str, list[str]]:
    r = (await http.post("/api/rooms", json={"name": "F0", "seats": 2})).json()
    j = (await http.post(f"/api/rooms/{r['code']}/join", json={"name": "F1"})).json()
    return r["code"], [r["token"], j["token"]]


async def _flooder(url: str, token: str, until: float, counts: dict[str, int]) -> None:
    import websockets

    while time.monotonic() < until:
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=5) as ws:
                counts["connections"] += 1
                await ws.send(json.dumps({"type": "hello", "token": token}))
                i = 0
                while time.monotonic() < until:
                    await ws.send(FLOOD_MESSAGES[i % len(FLOOD_MESSAGES)])
                    counts["sent"] += 1
                    i += 1
                    if i % 64 == 0:
                        await asyncio.sleep(0)  # let the reader see the close
        except websockets.InvalidStatus:
            counts["refused"] += 1  # the address is barred for a while
            await asyncio.sleep(0.05)
        except (OSError, websockets.ConnectionClosed, TimeoutError):
            counts["closed"] += 1
        except Exception:
            counts["other"] += 1
            await asyncio.sleep(0.05)


def _flood_process(url: str, tokens: list[str], n: int, seconds: float, out: Any) -> None:
    counts = {"connections": 0, "sent": 0, "closed": 0, "refused": 0, "other": 0}

    async def main() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(_flooder(url, tokens[i % 2], until, counts) for i in range(n)))

    asyncio.run(main())
    out.put(counts)


async def _measure(base: str, seconds: float, flood: Any = None) -> list[float]:
    """Latencies (ms) in a quiet room: one action at a time, 20 ms apart.  ``flood``:
    called once the room's clients are connected (the flood may bar new websockets
    from this address), and measuring starts 2 s later."""
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=base) as http:
        r = (await http.post("/api/rooms", json={"name": "Q0", "seats": 2})).json()
        j = (await http.post(f"/api/rooms/{r['code']}/join", json={"name": "Q1"})).json()
    url = base.replace("http://", "ws://") + f"/ws/{r['code']}"
    wss = [await websockets.connect(url, max_size=2**22) for _ in range(2)]
    states: list[dict[str, Any] | None] = [None, None]
    changed = asyncio.Event()

    async def read(i: int) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in wss[i]:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    states[i] = msg
                    changed.set()

    for ws, token in zip(wss, [r["token"], j["token"]], strict=True):
        await ws.send(json.dumps({"type": "hello", "token": token}))
    readers = [asyncio.create_task(read(i)) for i in range(2)]
    await wss[0].send('{"type":"start"}')
    rng = random.Random(1)
    out: list[float] = []

    async def until(cond: Any, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while not cond():
            changed.clear()
            await asyncio.wait_for(changed.wait(), max(0.001, end - time.monotonic()))

    await until(lambda: all(s is not None for s in states))
    if flood is not None:
        flood()
        await asyncio.sleep(2.0)  # the flood is on
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        a, b = states
        assert a is not None and b is not None
        version = max(a["version"], b["version"])
        mover = next(
            (i for i, s in enumerate(states) if s and s["version"] == version and s["view"]["legal"]
             and s["view"]["current"] == s["view"]["seat"]),
            None,
        )  # fmt: skip
        if a["view"].get("round_over") or mover is None:
            await wss[0].send('{"type":"next_round"}')
            with contextlib.suppress(TimeoutError):
                await until(lambda v=version: all(s and s["version"] > v for s in states), 2.0)
            continue
        view = states[mover]["view"]  # type: ignore[index]
        action = pick(view["legal"], rng)
        t0 = time.perf_counter()
        await wss[mover].send(json.dumps({"type": "act", "version": version, "action": action}))
        try:
            await until(lambda v=version: all(s and s["version"] > v for s in states))
        except TimeoutError:
            continue
        out.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(0.02)
    for ws in wss:
        await ws.close()
    for t in readers:
        t.cancel()
    return out


def _lat(xs: list[float]) -> dict[str, float]:
    return {
        "n": len(xs),
        "p50": round(percentile(xs, 50), 2),
        "p99": round(percentile(xs, 99), 2),
        "max": round(max(xs), 2) if xs else 0.0,
    }


def run_flood(seconds: float, flooders: int, flood_ban: str, loop: str) -> dict[str, Any]:
    """Another room's latency, alone and while one room is flooded (``FLOOD_MESSAGES``)."""
    import httpx
    import psutil

    db_dir = tempfile.mkdtemp(prefix="unokit-flood-")
    server = start_server(
        str(Path(db_dir) / "flood.sqlite3"), rate=20.0, flood_ban=flood_ban, loop=loop
    )
    proc = psutil.Process(server.proc.pid)
    try:
        alone = asyncio.run(_measure(server.url, seconds))

        async def room() -> tuple[str, list[str]]:
            async with httpx.AsyncClient(base_url=server.url) as http:
                return await _flood_room(http)

        code, tokens = asyncio.run(room())
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        url = server.url.replace("http://", "ws://") + f"/ws/{code}"
        flood = ctx.Process(target=_flood_process, args=(url, tokens, flooders, seconds + 3.0, out))
        cpu0 = sum(proc.cpu_times()[:2])
        under = asyncio.run(_measure(server.url, seconds, flood.start))
        cpu = sum(proc.cpu_times()[:2]) - cpu0
        counts = out.get(timeout=60)
        flood.join(30)
        rss = proc.memory_info().rss
    finally:
        stop_server(server)
    errors = log_errors(server.log)
    return {
        "seconds": seconds,
        "flooders": flooders,
        "flood_ban": flood_ban,
        "alone_ms": _lat(alone),
        "flooded_ms": _lat(under),
        "flood": counts,
        "server_cpu_cores_during_flood": round(cpu / (seconds + 2.0), 2),
        "server_rss_mb": round(rss / 2**20, 1),
        "server_tracebacks": errors,
    }


def flood_table(r: dict[str, Any]) -> str:
    a, f, c = r["alone_ms"], r["flooded_ms"], r["flood"]
    return (
        "| another room | actions | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|\n"
        f"| alone | {a['n']} | {a['p50']} | {a['p99']} | {a['max']} |\n"
        f"| while {r['flooders']} connections flood one room | {f['n']} | {f['p50']} | "
        f"{f['p99']} | {f['max']} |\n\n"
        f"flood: {c['sent']:,} messages sent over {c['connections']:,} connections "
        f"({c['closed']:,} closed by the server, {c['refused']:,} reconnects refused); "
        f"server CPU {r['server_cpu_cores_during_flood']} cores; "
        f"tracebacks {r['server_tracebacks']}"
    )


def proc_rss_fallback(rss0: int) -> int:
    return rss0


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| phase | store/topology | rooms (held) | clients/room | accepted actions/s "
        "| p50 / p95 / p99 ms | server CPU (cores) | server RSS (per room) | errors "
        "| refusals | timed full collections (mean / max ms) |"
    )
    out = [head, "|" + "---|" * 11]
    for r in rows:
        refusals = ", ".join(f"{k} {v}" for k, v in sorted(r["refused"].items())) or "0"
        errs = str(r["errors"])
        if r["error_kinds"]:
            errs += " (" + ", ".join(f"{k} {v}" for k, v in sorted(r["error_kinds"].items())) + ")"
        out.append(
            f"| {r['phase']} ({r.get('commit_mode', r['commit'])}, {r['loop']}, sync {r['sync']}) "
            f"| {r.get('topology', 'sqlite ' + r['sync'])} "
            f"| {r['rooms']} ({r['rooms_held']}) | {r['clients_per_room']} "
            f"| {r['accepted_per_s']:.0f} | {r['p50_ms']:.1f} / {r['p95_ms']:.1f} / "
            f"{r['p99_ms']:.1f} | {r['server_cores']:.2f} | {r['server_rss_mb']:.0f} MB "
            f"({r['rss_per_room_kb']:.0f} kB) | {errs} | {refusals} "
            f"| {r.get('full_collections')} ({r.get('full_collection_mean_ms')} / "
            f"{r.get('full_collection_max_ms')}) |"
        )
    return "\n".join(out)


def cost_table(rows: list[dict[str, Any]]) -> str:
    """What each accepted action cost, by process, and the machine's load meanwhile."""
    out = [
        "| phase | store/topology | accepted actions/s | CPU ms per action: servers "
        "/ PostgreSQL / Redis | actions per server CPU-second | cores: servers / "
        "PostgreSQL / Redis / load generator / others | load average (start, end) |",
        "|" + "---|" * 7,
    ]
    for r in rows:
        out.append(
            f"| {r['phase']} | {r.get('topology', 'sqlite ' + r['sync'])} "
            f"| {r['accepted_per_s']:.0f} "
            f"| {r['server_cpu_ms_per_action']:.3f} / {r['postgres_cpu_ms_per_action']:.3f} / "
            f"{r['redis_cpu_ms_per_action']:.3f} | {r['actions_per_server_cpu_s']:.0f} "
            f"| {r['server_cores']:.2f} / {r['postgres_cores']:.2f} / {r['redis_cores']:.2f} / "
            f"{r['loadgen_cores']:.2f} / {max(0.0, r['machine_others_cores']):.2f} "
            f"| {r['loadavg'][0]:.1f}, {r['loadavg'][1]:.1f} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd")
    s = sub.add_parser("serve")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--db", default="", help="the SQLite file (without --store)")
    s.add_argument("--store", default=None, help="a PostgreSQL URL instead of --db")
    s.add_argument("--bus", default=None, help="a Redis URL: one of several servers")
    s.add_argument("--timing", choices=("default", "instant"), default="default")
    s.add_argument("--sync", choices=("normal", "full"), default="normal")
    s.add_argument("--commit", choices=COMMITS, default="group")
    s.add_argument("--loop", choices=("auto", "asyncio", "uvloop"), default="auto")
    s.add_argument("--profile", default=None)
    s.add_argument("--stats", default=None)
    s.add_argument("--gc", choices=("serve", "python", "off"), default="serve")
    s.add_argument("--stats-every", type=float, default=60.0)
    s.add_argument(
        "--collections", default=None, help="write the timed full collections' figures to this file"
    )
    s.add_argument("--rate", type=float, default=1000.0,
                   help="messages a second a connection (Limits.messages_per_second)")  # fmt: skip
    s.add_argument("--flood-ban", choices=("on", "off"), default="on")
    s.add_argument("--full-every", type=float, default=None,
                   help="seconds between timed full collections under --gc serve "
                        "(default: unokit serve's; 0: none, the old behaviour)")  # fmt: skip
    p.add_argument("--phase", choices=("human", "full", "both", "flood"), default="both",
                   help="flood: another room's latency while one room is flooded (run apart, "
                        "not part of both)")  # fmt: skip
    p.add_argument("--flooders", type=int, default=25, help="flood: flooding connections")
    p.add_argument("--flood-ban", choices=("on", "off"), default="on",
                   help="flood: on: the server's default (an address closed 3 times a minute "
                        "for flooding opens no websocket); off: flooders may always "
                        "reconnect, as if each came from its own address")  # fmt: skip
    p.add_argument("--rooms", type=int, default=None, help="rooms (human 1000, full 200)")
    p.add_argument("--clients", type=int, default=None, help="scripted clients a room (2-4)")
    p.add_argument("--seconds", type=float, default=None, help="measured time (human 60, full 30)")
    p.add_argument("--workers", type=int, default=2, help="load generator processes")
    p.add_argument("--sync", choices=("normal", "full"), default="normal")
    p.add_argument("--commit", choices=COMMITS, default="group",
                   help="how the server commits actions: group (the default: a group "
                        "commit, in a worker thread under --sync full, else on the event "
                        "loop), group-thread, group-inline, each (one transaction per "
                        "action)")  # fmt: skip
    p.add_argument("--loop", choices=("auto", "asyncio", "uvloop"), default="auto",
                   help="the server's event loop (auto: uvloop when installed, as unokit "
                        "serve runs)")  # fmt: skip
    p.add_argument("--profile", default=None, help="cProfile the server into this file")
    p.add_argument("--json", default=None, help="also write the figures here")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--server-gc", choices=("serve", "python", "off"), default="serve",
                   help="serve: the collector tuned as unokit serve runs it; python: Python's "
                        "defaults; off: no cyclic GC (an experiment)")  # fmt: skip
    p.add_argument("--topology", default=None,
                   help="what each phase runs against, comma-separated (each phase once per "
                        "topology): sqlite (--sync decides), sqlite-normal, sqlite-full, pg "
                        "(one server on a throwaway PostgreSQL), pg+redis:N (N servers on "
                        "PostgreSQL and redis-server, each room's clients on different "
                        "servers, connecting directly to their ports); default sqlite")  # fmt: skip
    p.add_argument("--repeat", type=int, default=None,
                   help="run the list this many times (default 1; --plan cluster: 2)")  # fmt: skip
    p.add_argument("--plan", choices=("cluster",), default=None,
                   help="cluster: full speed on sqlite-normal, sqlite-full, pg, pg+redis:1 "
                        "and pg+redis:N (--cluster), twice (--repeat), then human pace "
                        "across the cluster (--cluster-human, --human-rooms); make "
                        "loadtest-cluster")  # fmt: skip
    p.add_argument("--cluster", type=int, default=2, help="--plan cluster: servers (N)")
    p.add_argument("--cluster-human", default="2",
                   help="--plan cluster: human pace server counts, 2,3 (0: none)")  # fmt: skip
    p.add_argument("--human-rooms", type=int, default=1000, help="--plan cluster: human rooms")
    p.add_argument("--human-seconds", type=float, default=60.0,
                   help="--plan cluster: human pace's measured seconds")  # fmt: skip
    p.add_argument("--spread", choices=("seats", "rooms"), default="seats",
                   help="a cluster's clients: seats (each room's clients on different "
                        "servers, the default) or rooms (each room's clients on one server, "
                        "rooms spread over the servers)")  # fmt: skip
    p.add_argument("--keep", action="store_true",
                   help="keep each phase's temporary folder (database, server logs)")  # fmt: skip
    args = p.parse_args(argv)
    if args.cmd == "serve":
        serve(args)
        return 0
    if args.phase == "flood":
        seconds = args.seconds or 20.0
        result = run_flood(seconds, args.flooders, args.flood_ban, args.loop)
        print(json.dumps(result, indent=1), flush=True)
        print(flood_table(result))
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=1))
        return 0
    rows: list[dict[str, Any]] = []
    # (phase, topology, rooms, clients, seconds), in the order they run
    runs: list[tuple[str, Topology, int, int, float]] = []
    if args.plan == "cluster":
        # the cluster comparison (make loadtest-cluster): full speed on every store, one
        # server and a cluster, ``--repeat`` rounds; then human pace across the cluster
        tops = args.topology or f"sqlite-normal,sqlite-full,pg,pg+redis:1,pg+redis:{args.cluster}"
        for _ in range(args.repeat or 2):
            for t in tops.split(","):
                runs.append(("full", parse_topology(t, args.sync), args.rooms or 200,
                             args.clients or 2, args.seconds or 30.0))  # fmt: skip
        for n in str(args.cluster_human).split(","):
            if n.strip() and int(n) > 0:
                runs.append(("human", parse_topology(f"pg+redis:{int(n)}"), args.human_rooms,
                             4, args.human_seconds))  # fmt: skip
    else:
        phases = ["human", "full"] if args.phase == "both" else [args.phase]
        tops = args.topology or "sqlite"
        for _ in range(args.repeat or 1):
            for phase in phases:
                for t in tops.split(","):
                    runs.append((phase, parse_topology(t, args.sync),
                                 args.rooms or (1000 if phase == "human" else 200),
                                 args.clients or (4 if phase == "human" else 2),
                                 args.seconds or (60.0 if phase == "human" else 30.0)))  # fmt: skip
    began = time.monotonic()
    for phase, topo, rooms, clients, seconds in runs:
        print(f"{phase} on {topo.label}: {rooms} rooms x {clients} clients, {seconds:.0f} s "
              f"({time.monotonic() - began:.0f} s into the run) ...", flush=True)  # fmt: skip
        row = run_phase(
            phase,
            rooms,
            clients,
            seconds,
            args.workers,
            args.sync,
            args.profile,
            args.seed,
            args.server_gc,
            args.commit,
            args.loop,
            topology=topo,
            keep=args.keep,
            spread=args.spread,
        )
        print(json.dumps(row, indent=1), flush=True)
        rows.append(row)
        if args.json:  # after every phase: a long run that fails keeps what it measured
            Path(args.json).write_text(json.dumps(rows, indent=1))
    print(table(rows))
    print()
    print(cost_table(rows))
    print(f"\nwhole run: {time.monotonic() - began:.0f} s; {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
