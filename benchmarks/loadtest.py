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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
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

    import uvicorn

    from unokit.match import Timing
    from unokit.server import app as server_app
    from unokit.server.app import UVICORN_OPTIONS, Limits, create_app
    from unokit.server.store import SQLiteStore

    timing = Timing.instant() if args.timing == "instant" else None
    full_every = None
    if args.gc == "serve":  # as ``unokit serve`` runs: fewer cyclic collections
        from unokit.server.app import FULL_COLLECTION_SECONDS, tune_gc

        tune_gc()
        full_every = args.full_every if args.full_every is not None else FULL_COLLECTION_SECONDS
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
    app: Any = create_app(
        SQLiteStore(args.db, sync=args.sync),
        timing=timing,
        limits=limits,
        full_collection_seconds=full_every or None,
        commit=args.commit,
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
                Path(args.collections).write_text(json.dumps(collection_stats(server)))

        threading.Thread(target=report, daemon=True).start()
    uvicorn.run(app, host="127.0.0.1", port=args.port, backlog=4096, **options)


def collection_stats(server: Any) -> dict[str, Any]:
    """The server's timed full collections: how many, their mean and longest pause."""
    n = server.full_collections
    group = server.group
    return {
        "commit_mode": server.commit_mode,
        "commits": group.commits if group is not None else None,
        "committed_entries": group.entries if group is not None else None,
        "largest_commit": group.largest if group is not None else None,
        "full_collections": n,
        "full_collection_mean_ms": round(1000 * server.full_collection_total / n, 1) if n else None,
        "full_collection_max_ms": round(1000 * server.full_collection_max, 1),
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
) -> ServerProc:
    port = port or free_port()
    log = log or Path(tempfile.mkstemp(prefix="unokit-server-", suffix=".log")[1])
    cmd = [PY, str(HERE / "loadtest.py"), "serve", "--port", str(port), "--db", db]
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


REFUSALS = {"stale_version", "illegal", "not_your_turn", "round_not_over", "game_over"}


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
    ) -> None:
        self.base = base
        self.code = code
        self.stats = stats
        self.pace = pace
        self.rng = rng
        self.keep_acks = keep_acks
        self.clients = [Client(self, seat, token) for seat, token in seats]
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

        url = self.room.base.replace("http", "ws") + f"/ws/{self.room.code}"
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
    http: Any, n_clients: int, preset: str = "classic", options: dict[str, Any] | None = None
) -> tuple[str, list[tuple[int, str]]]:
    bots: list[str | None] = [None] * (n_clients - 1) + ["normal"] * (4 - n_clients)
    body = {"name": "P0", "preset": preset, "seats": 4, "bots": bots, "options": options or {}}
    r = await http.post("/api/rooms", json=body)
    r.raise_for_status()
    d = r.json()
    seats = [(0, d["token"])]
    for i in range(1, n_clients):
        j = await http.post(f"/api/rooms/{d['code']}/join", json={"name": f"P{i}"})
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
) -> Stats:
    import httpx

    rng = random.Random(seed)
    stats = Stats()
    rooms: list[RoomPlay] = []
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        sem = asyncio.Semaphore(20)

        async def make(i: int) -> None:
            async with sem:
                try:
                    code, seats = await create_app_room(http, n_clients)
                except Exception as e:
                    stats.error(f"create:{type(e).__name__}")
                    return
            room = RoomPlay(base, code, seats, stats, pace, random.Random(rng.random()))
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


def _worker(args: tuple[Any, ...], out: Any, ready: Any, go: Any) -> None:
    stats = asyncio.run(run_worker(*args, ready, go))
    out.put(stats)


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return xs[k]


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
) -> dict[str, Any]:
    import psutil

    db_dir = tempfile.mkdtemp(prefix="unokit-load-")
    db = str(Path(db_dir) / "load.sqlite3")
    coll = Path(db_dir) / "collections.json"
    server = start_server(
        db,
        timing="instant" if pace == "full" else "default",
        sync=sync,
        profile=profile,
        gc=gc,
        collections=str(coll),
        commit=commit,
        loop=loop,
    )
    proc = psutil.Process(server.proc.pid)
    rss0 = proc.memory_info().rss
    ramp = min(30.0, rooms / 40) if pace == "human" else min(10.0, rooms / 50)
    warmup = 10.0 if pace == "human" else 3.0
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    ready = ctx.Queue()
    go = ctx.Event()
    per = [rooms // workers + (1 if i < rooms % workers else 0) for i in range(workers)]
    procs = [
        ctx.Process(
            target=_worker,
            args=(
                (server.url, per[i], clients, pace, seconds, warmup, seed + i, ramp),
                q,
                ready,
                go,
            ),
        )
        for i in range(workers)
    ]
    for p in procs:
        p.start()
    opened = max(ready.get(timeout=600) for _ in procs)
    print(f"  {rooms} rooms open in {opened:.1f} s; warming up {warmup:.0f} s", flush=True)
    rss_open = proc.memory_info().rss
    go.set()
    time.sleep(warmup)
    gens = [psutil.Process(p.pid) for p in procs]
    gen0 = sum(sum(g.cpu_times()[:2]) for g in gens)
    load0 = os.getloadavg()[0]
    cpu0 = proc.cpu_times()
    t0 = time.monotonic()
    rss_samples = []
    while time.monotonic() - t0 < seconds:
        time.sleep(1.0)
        rss_samples.append(proc.memory_info().rss)
    cpu1 = proc.cpu_times()
    wall = time.monotonic() - t0
    gen_cores = (sum(sum(g.cpu_times()[:2]) for g in gens) - gen0) / wall
    load1 = os.getloadavg()[0]
    results: list[Stats] = [q.get(timeout=seconds + warmup + 300) for _ in procs]
    for p in procs:
        p.join(60)
    stop_server(server)
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
    collections = json.loads(coll.read_text()) if coll.exists() else {}
    tracebacks = log_errors(server.log)
    if tracebacks:
        total.errors["server_tracebacks"] = tracebacks
    cores = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / wall
    rss = max(rss_samples) if rss_samples else proc_rss_fallback(rss0)
    return {
        "phase": pace,
        "commit": commit,
        "sync": sync,
        "loop": loop,
        "rooms": rooms,
        "clients_per_room": clients,
        "seconds": seconds,
        "rooms_held": total.rooms_held,
        "accepted_per_s": total.versions / seconds,
        "client_actions_per_s": total.sent / seconds,
        "latency_samples": len(total.latencies),
        **collections,
        "p50_ms": percentile(total.latencies, 50) * 1000,
        "p95_ms": percentile(total.latencies, 95) * 1000,
        "p99_ms": percentile(total.latencies, 99) * 1000,
        "max_ms": (max(total.latencies) * 1000) if total.latencies else float("nan"),
        "server_cores": cores,
        "loadgen_cores": gen_cores,
        "loadavg": [load0, load1],
        "server_rss_mb": rss / 2**20,
        "rss_per_room_kb": (rss - rss0) / max(1, rooms) / 1024,
        "rss_open_mb": rss_open / 2**20,
        "open_seconds": opened,
        "games_finished": total.games_finished,
        "errors": sum(total.errors.values()),
        "error_kinds": total.errors,
        "refused": total.refused,
        "db_mb": Path(db).stat().st_size / 2**20 if Path(db).exists() else 0.0,
        "server_log": str(server.log),
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
        "| phase | rooms (held) | clients/room | accepted actions/s | p50 / p95 / p99 ms "
        "| server CPU (cores) | server RSS (per room) | errors | refusals "
        "| timed full collections (mean / max ms) |"
    )
    out = [head, "|" + "---|" * 10]
    for r in rows:
        refusals = ", ".join(f"{k} {v}" for k, v in sorted(r["refused"].items())) or "0"
        errs = str(r["errors"])
        if r["error_kinds"]:
            errs += " (" + ", ".join(f"{k} {v}" for k, v in sorted(r["error_kinds"].items())) + ")"
        out.append(
            f"| {r['phase']} ({r.get('commit_mode', r['commit'])}, {r['loop']}, sync {r['sync']}) "
            f"| {r['rooms']} ({r['rooms_held']}) | {r['clients_per_room']} "
            f"| {r['accepted_per_s']:.0f} | {r['p50_ms']:.1f} / {r['p95_ms']:.1f} / "
            f"{r['p99_ms']:.1f} | {r['server_cores']:.2f} | {r['server_rss_mb']:.0f} MB "
            f"({r['rss_per_room_kb']:.0f} kB) | {errs} | {refusals} "
            f"| {r.get('full_collections')} ({r.get('full_collection_mean_ms')} / "
            f"{r.get('full_collection_max_ms')}) |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd")
    s = sub.add_parser("serve")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--db", required=True)
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
    rows = []
    phases = ["human", "full"] if args.phase == "both" else [args.phase]
    for phase in phases:
        rooms = args.rooms or (1000 if phase == "human" else 200)
        clients = args.clients or (4 if phase == "human" else 2)
        seconds = args.seconds or (60.0 if phase == "human" else 30.0)
        print(f"{phase}: {rooms} rooms x {clients} clients, {seconds:.0f} s ...", flush=True)
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
        )
        print(json.dumps(row, indent=1), flush=True)
        rows.append(row)
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
