"""Faults: the server killed under load, clients that misbehave, a store that fails.

* ``kill -9`` of a real server process while rooms play at full speed, then a restart
  on the same database: every action a client saw acknowledged is in the log at its
  version (0 lost), every room resumes and plays to the end of its game.
* Clients that vanish mid-frame (TCP reset), resume with old or impossible sequence
  numbers, hold one seat in two tabs, or never read: the room carries on and every
  other client stays in sync; the reader that stalls is dropped, and may resume.
* The database locked by another process, or full: moves are refused with
  ``storage_unavailable`` and nothing changes; when the cause goes away play resumes.

Servers bind to 127.0.0.1 only.  benchmarks/chaos.py runs the kill test for longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

import server_helpers
from server_helpers import act, bare_server, free_port, wait_port
from unokit.match import Timing
from unokit.server.limits import Limits
from unokit.server.store import MemoryStore, RoomRow, SQLiteStore, StoreError

SRC = Path(__file__).resolve().parent.parent / "src"
BIG = Limits(
    messages_per_second=1e6,
    connections_per_address=10**4,
    rooms_per_address_per_hour=10**6,
    joins_per_address_per_minute=10**6,
    chat_per_minute=10**6,
)
FAST = Timing(bot_delay=0.002, catch_window=0.002, autopilot_after=600.0, next_round=0.02)

SERVER = """
import sys, uvicorn
from unokit.match import Timing
from unokit.server.app import create_app
from unokit.server.limits import Limits
from unokit.server.runtime import UVICORN_OPTIONS
from unokit.server.store import SQLiteStore
db, port = sys.argv[1], int(sys.argv[2])
timing = Timing(bot_delay=0.002, catch_window=0.002, autopilot_after=600.0, next_round=0.02)
limits = Limits(messages_per_second=1e6, connections_per_address=10**4,
                rooms_per_address_per_hour=10**6, joins_per_address_per_minute=10**6)
app = create_app(SQLiteStore(db), timing=timing, limits=limits)
uvicorn.run(app, host="127.0.0.1", port=port, **UVICORN_OPTIONS)
"""


def start_process(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(db), str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wait_port(port)
    return proc


def post(port: int, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    import httpx

    r = httpx.post(f"http://127.0.0.1:{port}{path}", json=body, timeout=10)
    return r.status_code, r.json()


def make_room(port: int, people: int, seats: int = 4, target: int = 100) -> tuple[str, list[str]]:
    bots: list[str | None] = [None] * (people - 1) + ["normal"] * (seats - people)
    body = {"name": "P0", "seats": seats, "bots": bots, "options": {"target_score": target}}
    status, d = post(port, "/api/rooms", body)
    assert status == 200, d
    tokens = [d["token"]]
    for i in range(1, people):
        status, j = post(port, f"/api/rooms/{d['code']}/join", {"name": f"P{i}"})
        assert status == 200, j
        tokens.append(j["token"])
    return d["code"], tokens


def pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
    plays = [a for a in legal if "play" in a or "cards" in a]
    for a in legal:
        if "catch" in a:
            return a
    return ([a for a in plays if a.get("uno")] or plays or legal)[0]


def log_entries(db: Path, code: str, game: int) -> list[dict[str, Any]]:
    with contextlib.closing(sqlite3.connect(str(db), timeout=10)) as c:
        rows = c.execute(
            "SELECT entry FROM log WHERE code = ? AND game = ? ORDER BY idx", (code, game)
        ).fetchall()
    return [json.loads(r[0]) for r in rows]


# --------------------------------------------------------------- kill -9 under load --
@dataclass
class Ack:
    code: str
    game: int
    version: int  # the version the action made (the one it was sent on, plus one)
    action: dict[str, Any]  # the record form, with the seat


@dataclass
class Player:
    """A scripted client that keeps the list of its acknowledged actions.

    After an ``act`` it sends a ping: the pong comes after the server has handled the
    act, so no error before the pong means the action was accepted, and its state
    (version + 1) came before the pong: the client saw it acknowledged.
    """

    port: int
    code: str
    seat: int
    token: str
    acks: list[Ack]
    last_seq: int | None = None
    game: int | None = None
    state: dict[str, Any] | None = None
    over: bool = False
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)

    async def run(self, deadline: float) -> None:
        from websockets.asyncio.client import connect as aconnect

        while not self.over and time.monotonic() < deadline:
            try:
                async with aconnect(
                    f"ws://127.0.0.1:{self.port}/ws/{self.code}", open_timeout=5
                ) as ws:
                    hello: dict[str, Any] = {"type": "hello", "token": self.token}
                    if self.last_seq is not None:
                        hello.update(last_seq=self.last_seq, game=self.game)
                    await ws.send(json.dumps(hello))
                    await self.play(ws, deadline)
            except (TimeoutError, OSError) as e:
                del e
            except Exception as e:  # the server went away mid-message
                if "ConnectionClosed" not in type(e).__name__:
                    self.errors.append(repr(e))
            if not self.over:
                self.reconnects += 1
                await asyncio.sleep(0.05)

    async def play(self, ws: Any, deadline: float) -> None:
        sent: tuple[int, int, dict[str, Any]] | None = None
        refused = False
        while time.monotonic() < deadline:
            msg = json.loads(
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
            )
            t = msg["type"]
            if t == "state":
                self.state = msg
                self.last_seq = msg["seq"]
                self.game = msg["game"]
            elif t == "room":
                if msg["status"] == "over":
                    self.over = True
                    return
            elif t == "error":
                if msg["code"] not in ("stale_version", "illegal", "not_your_turn"):
                    self.errors.append(msg["code"])
                refused = True
            elif t == "pong" and sent is not None:
                if not refused:
                    game, version, action = sent
                    self.acks.append(
                        Ack(self.code, game, version + 1, {**action, "seat": self.seat})
                    )
                sent = None
            if sent is None and self.state is not None:
                st = self.state
                legal = st["view"]["legal"]
                if legal and not st["outcome"]["round_over"]:
                    action = pick(legal)
                    sent = (st["game"], st["version"], action)
                    refused = False
                    await ws.send(
                        json.dumps({"type": "act", "version": st["version"], "action": action})
                    )
                    await ws.send('{"type":"ping"}')


def check_acks(db: Path, acks: list[Ack]) -> list[str]:
    """Every acknowledged action is in the log, at the version it made."""
    lost = []
    cache: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for a in acks:
        key = (a.code, a.game)
        if key not in cache:
            cache[key] = [e for e in log_entries(db, *key) if e["t"] in ("round", "act")]
        entries = cache[key]
        i = a.version - 1
        if i >= len(entries) or entries[i] != {"t": "act", "a": a.action}:
            lost.append(f"{a} not in the log (it has {len(entries)} entries)")
    return lost


async def kill_and_resume(
    tmp: Path,
    rooms: int,
    people: int,
    before_kill: float,
    kills: int,
    deadline_s: float,
    target: int = 300,
    every_acks: int = 0,
) -> dict[str, Any]:
    """Kill after ``before_kill`` seconds of play, or (``every_acks``) once that many
    more actions were acknowledged: a count does not depend on the machine's speed."""
    db = tmp / "chaos.sqlite3"
    port = free_port()
    proc = start_process(db, port)
    made = [make_room(port, people, target=target) for _ in range(rooms)]
    acks: list[Ack] = []
    players = [
        Player(port, code, seat, token, acks)
        for code, tokens in made
        for seat, token in enumerate(tokens)
    ]
    from websockets.asyncio.client import connect as aconnect

    for code, tokens in made:  # the hosts start their games
        async with aconnect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            await ws.send('{"type":"start"}')
            await ws.send('{"type":"ping"}')
            while json.loads(await ws.recv())["type"] != "pong":
                pass
    started = time.monotonic()
    deadline = started + deadline_s
    tasks = [asyncio.get_running_loop().create_task(p.run(deadline)) for p in players]
    acks_at_kill = []
    lost: list[str] = []
    try:
        for k in range(kills):
            if every_acks:
                while len(acks) < (k + 1) * every_acks and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
            else:
                await asyncio.sleep(before_kill)
            proc.send_signal(signal.SIGKILL)  # kill -9 in the middle of play
            proc.wait()
            acks_at_kill.append(len(acks))
            lost += check_acks(db, list(acks))  # what was acknowledged is on disk
            await asyncio.sleep(0.2)
            proc = start_process(db, port)  # the same database: rooms replay their logs
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=deadline_s + 5)
    finally:
        for t in tasks:
            t.cancel()
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    lost += check_acks(db, acks)
    return {
        "acks": len(acks),
        "seconds": time.monotonic() - started,
        "acks_at_kill": acks_at_kill,
        "lost": lost,
        "rooms_over": sum(1 for p in players if p.over and p.seat == 0),
        "rooms": rooms,
        "client_errors": [e for p in players for e in p.errors],
        "reconnects": sum(p.reconnects for p in players),
        "tracebacks": err.decode(errors="replace").count("Traceback"),
    }


@pytest.mark.services
def test_kill_9_under_load_loses_no_acknowledged_action(tmp_path: Path) -> None:
    r = asyncio.run(
        kill_and_resume(
            tmp_path,
            rooms=3,
            people=2,
            before_kill=0.0,
            kills=2,
            deadline_s=120,
            target=500,
            every_acks=100,
        )
    )
    # the kills came while the games were on: acknowledged actions before, between, after
    assert 0 < r["acks_at_kill"][0] < r["acks_at_kill"][1] < r["acks"], r
    assert r["reconnects"] > 0, r
    assert r["lost"] == [], r
    assert r["rooms_over"] == r["rooms"], r  # every game plays to its end after restarts
    assert r["client_errors"] == [], r
    assert r["tracebacks"] == 0, r


# --------------------------------------------------------------- in-process server --
class Live(server_helpers.Live):
    """The in-process server with this file's limits and timing by default."""

    def __init__(self, store: Any = None, limits: Limits = BIG, timing: Timing = FAST) -> None:
        super().__init__(store, limits, timing)


class Tab:
    """A synchronous websocket client."""

    def __init__(self, port: int, code: str, token: str | None, **hello: Any) -> None:
        # entered by hand: the tab outlives any one block, and close() ends it
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=5
        ).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token, **hello}))
        self.state: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.notices: list[dict[str, Any]] = []
        self.sync()

    def sync(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        self.ws.send('{"type":"ping"}')
        out = []
        while True:
            msg = json.loads(self.ws.recv(timeout=timeout))
            if msg["type"] == "pong":
                return out
            out.append(msg)
            if msg["type"] == "state":
                self.state = msg
            elif msg["type"] == "room":
                self.room = msg
            elif msg["type"] == "error":
                self.errors.append(msg["code"])
            elif msg["type"] == "notice":
                self.notices.append(msg)

    def act(self, action: dict[str, Any] | None = None, version: int | None = None) -> list[str]:
        assert self.state is not None
        st = self.state
        if action is None:
            action = pick(st["view"]["legal"])
        v = st["version"] if version is None else version
        before = len(self.errors)
        self.ws.send(json.dumps({"type": "act", "version": v, "action": action}))
        self.sync()
        return self.errors[before:]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def play_steps(server: Any, code: str, tabs: dict[int, Tab], steps: int) -> int:
    """Let the seats with tabs act (bots act by themselves); returns actions accepted."""
    room = server.rooms[code]
    done = 0
    end = time.monotonic() + 30
    while done < steps and time.monotonic() < end and room.status == "playing":
        for tab in tabs.values():
            tab.sync()
        seat = room.match.next_to_ask() if not room.match.game.round_over else None
        tab = tabs.get(seat) if seat is not None else None
        if tab is None or tab.state is None or not tab.state["view"]["legal"]:
            time.sleep(0.005)
            continue
        if tab.state["version"] != room.match.version:
            continue
        if not tab.act():
            done += 1
    return done


def in_sync(server: Any, code: str, tabs: list[Tab]) -> None:
    room = server.rooms[code]
    for tab in tabs:
        tab.sync()
    for tab in tabs:
        assert tab.state is not None
        assert tab.state["version"] == room.match.version, (
            tab.state["version"],
            room.match.version,
        )


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    with Live(SQLiteStore(tmp_path / "live.sqlite3")) as lv:
        yield lv


def start_room(live: Live, people: int = 2, seats: int = 2) -> tuple[str, dict[int, Tab]]:
    # a target no game reaches: these tests count on the game lasting as many actions
    # as they ask for, and a game to 500 ended after 63 (1 of 250 tries) and once
    # after 134 in CI, which failed a test that asks for 150
    code, tokens = make_room(live.port, people, seats=seats, target=1_000_000)
    for i, t in enumerate(tokens):
        live.tokens[(code, i)] = t
    tabs = {i: Tab(live.port, code, t) for i, t in enumerate(tokens)}
    tabs[0].ws.send('{"type":"start"}')
    for t in tabs.values():
        t.sync()
    return code, tabs


def raw_ws(port: int, code: str, rcvbuf: int | None = None) -> socket.socket:
    """A websocket opened by hand (to misbehave at the TCP level)."""
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    s.sendall(
        (
            f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return s


def frame(text: str) -> bytes:
    """A masked client text frame."""
    data = text.encode()
    mask = b"\x01\x02\x03\x04"
    n = len(data)
    head = bytes([0x81]) + (
        bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    )
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_tcp_reset_mid_message_leaves_the_room_playing(live: Live) -> None:
    code, tabs = start_room(live)
    for _ in range(3):
        s = raw_ws(live.port, code)
        whole = frame(json.dumps({"type": "hello", "token": "x"}))  # a stranger, mid-hello
        s.sendall(whole[: len(whole) // 2])  # half a frame, then a TCP reset
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()
    # a seated client vanishing mid-frame, after it said hello
    room = live.server.rooms[code]
    s = raw_ws(live.port, code)
    s.sendall(frame('{"type":"hello"}'))  # a spectator
    act = frame(
        json.dumps({"type": "act", "version": room.match.version, "action": {"draw": True}})
    )
    s.sendall(act[:7])
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()
    assert play_steps(live.server, code, tabs, 20) == 20
    in_sync(live.server, code, list(tabs.values()))
    assert live.server.errors == 0


def test_resume_with_old_future_and_foreign_sequence_numbers(live: Live) -> None:
    code, tabs = start_room(live)
    play_steps(live.server, code, tabs, 10)
    room = live.server.rooms[code]
    # seat 1 reconnects claiming various sequence numbers; each gets a consistent view
    for last_seq, game in [(0, 1), (3, 1), (10**6, 1), (5, 99), (0, 0)]:
        tab = Tab(live.port, code, _token(live, code, 1), last_seq=last_seq, game=game)
        assert tab.state is not None, (last_seq, game)
        assert tab.state["version"] == room.match.version
        assert tab.state["view"]["seat"] == 1
        assert tab.errors == []
        tab.close()
    assert play_steps(live.server, code, tabs, 10) == 10
    in_sync(live.server, code, list(tabs.values()))
    assert live.server.errors == 0


def _token(live: Live, code: str, seat: int) -> str:
    return live.tokens[(code, seat)]


def test_two_tabs_on_one_seat_stay_in_sync(live: Live) -> None:
    code, tabs = start_room(live)
    second = Tab(live.port, code, _token(live, code, 0))
    # each tab of the seat is told it is open twice (issue 49), nobody else is
    tabs[0].sync()
    tabs[1].sync()
    told = {"type": "notice", "code": "seat_elsewhere", "count": 2}
    assert tabs[0].notices == [told] and second.notices == [told] and tabs[1].notices == []
    # a page that resumes (it says what it saw last) is the same tab back, not another:
    # its old connection may not be noticed gone yet (found by review)
    seen = second.state["seq"] if second.state else 0
    again = Tab(live.port, code, _token(live, code, 0), last_seq=seen, game=1)
    assert again.notices == []
    again.close()
    room = live.server.rooms[code]
    for _ in range(10):
        seat = room.match.next_to_ask()
        if seat != 0:
            play_steps(live.server, code, {1: tabs[1]}, 1)
            continue
        tabs[0].sync()
        second.sync()
        v = room.match.version
        assert tabs[0].state is not None and second.state is not None
        assert tabs[0].state["version"] == second.state["version"] == v
        action = pick(second.state["view"]["legal"])
        assert tabs[0].act(action) == []  # the first tab acts...
        assert second.act(action, version=v) == ["stale_version"]  # ...the second is late
        assert second.state is not None and second.state["version"] == room.match.version
    in_sync(live.server, code, [*tabs.values(), second])
    assert room.seats[0].connected == 2
    second.close()
    assert live.server.errors == 0


def test_a_client_that_never_reads_is_dropped_and_the_room_carries_on(tmp_path: Path) -> None:
    limits = Limits(**{**BIG.__dict__, "send_queue": 8})
    with Live(SQLiteStore(tmp_path / "slow.sqlite3"), limits=limits) as live:
        code, tabs = start_room(live)
        # a spectator with a tiny receive buffer that never reads a byte
        slow = raw_ws(live.port, code, rcvbuf=1024)
        slow.sendall(frame('{"type":"hello"}'))
        tabs[0].sync()
        # loopback buffers hold megabytes: make the server's side of this one socket
        # small, as a phone on a bad network would be, so the test fills it quickly
        (conn,) = [c for c in live.server.conns[code] if c.seat is None]
        proto = conn.ws._receive.__self__  # uvicorn's protocol behind the ASGI websocket
        sock = proto.transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        done = threading.Event()

        def shrink() -> None:
            proto.transport.set_write_buffer_limits(high=4096)
            done.set()

        proto.loop.call_soon_threadsafe(shrink)
        assert done.wait(5)
        for _ in range(40):  # chat lines fill every connection's queue fast
            tabs[0].ws.send(json.dumps({"type": "chat", "text": "x" * 190}))
        played = play_steps(live.server, code, tabs, 150)
        assert played == 150, (played, live.server.rooms[code].status)
        in_sync(live.server, code, list(tabs.values()))
        conns = live.server.conns[code]
        assert len(conns) == 2, "the reader that stalled was dropped"
        assert all(c.queue.qsize() <= limits.send_queue for c in conns)
        slow.close()
        # it may come back: a new connection gets a full view
        again = Tab(live.port, code, None)
        assert (
            again.state is not None
            and again.state["version"] == live.server.rooms[code].match.version
        )
        again.close()
        assert live.server.errors == 0


# --------------------------------------------------------------- the store fails ----
def snapshot(server: Any, code: str) -> tuple[Any, ...]:
    from unokit.record import dumps

    room = server.rooms[code]
    return (
        room.match.version,
        dumps(room.match.game),
        json.dumps(room.to_row().data, sort_keys=True),
    )


def test_database_locked_by_another_process_refuses_moves_then_recovers(
    live: Live, tmp_path: Path
) -> None:
    code, tabs = start_room(live)
    play_steps(live.server, code, tabs, 4)
    db = tmp_path / "live.sqlite3"
    locker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True)\n"
            "sys.stdin.readline(); c.execute('ROLLBACK')\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == b"locked"
        room = live.server.rooms[code]
        seat = room.match.next_to_ask()
        tab = tabs[seat]
        tab.sync()
        before = snapshot(live.server, code)
        t0 = time.monotonic()
        assert tab.act() == ["storage_unavailable"]
        assert time.monotonic() - t0 < 1.5  # the event loop waited a short busy timeout
        assert tab.act() == ["storage_unavailable"]  # refused at once while down
        assert snapshot(live.server, code) == before
        status, body = post(live.port, f"/api/rooms/{code}/join", {"name": "Late"})
        assert status == 503 and body["code"] == "storage_unavailable"
        # chat and pings do not need the store
        tab.ws.send('{"type":"chat","text":"still here"}')
        assert "storage_unavailable" not in [m.get("code") for m in tab.sync()]
    finally:
        assert locker.stdin is not None
        locker.stdin.write(b"\n")
        locker.stdin.flush()
        locker.wait(10)
    time.sleep(live.server.limits.store_retry + 0.1)
    assert play_steps(live.server, code, tabs, 6) == 6  # it recovered
    in_sync(live.server, code, list(tabs.values()))
    assert live.server.errors == 0
    assert live.server.store_failures >= 1


def test_disk_full_refuses_moves_then_recovers(live: Live) -> None:
    code, tabs = start_room(live)
    play_steps(live.server, code, tabs, 4)
    store = live.server.store
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    with store._lock:  # SQLite's page cap: writes fail with "database or disk is full"
        store._db.execute(f"PRAGMA max_page_count = {pages}")
    room = live.server.rooms[code]
    before = snapshot(live.server, code)
    refused = 0
    for _ in range(400):  # fill the last free pages, until a write does not fit
        seat = room.match.next_to_ask()
        if seat is None:  # the round is over: the next one is a write too
            tabs[0].ws.send('{"type":"next_round"}')
            before_n = len(tabs[0].errors)
            tabs[0].sync()
            errs = tabs[0].errors[before_n:]
        else:
            tab = tabs[seat]
            tab.sync()
            errs = tab.act()
        if errs == ["storage_unavailable"]:
            refused += 1
            break
        before = snapshot(live.server, code)
    assert refused, "the capped database never filled"
    assert snapshot(live.server, code) == before  # the refused move changed nothing
    with store._lock:
        store._db.execute("PRAGMA max_page_count = 1073741823")
    time.sleep(live.server.limits.store_retry + 0.1)
    assert play_steps(live.server, code, tabs, 6) == 6
    in_sync(live.server, code, list(tabs.values()))
    # nothing acknowledged was lost: the log replays to the room's state
    from unokit.server.room import Room

    restored = Room.restore(room.to_row(), store, FAST)
    assert restored.match is not None
    assert restored.match.version == room.match.version
    assert live.server.errors == 0


def test_join_while_the_store_fails_takes_no_seat(live: Live) -> None:
    """A join the store could not keep must not hold the seat (the token never left)."""
    status, made = post(live.port, "/api/rooms", {"name": "Host", "seats": 3, "bots": []})
    code = made["code"]
    room = live.server.rooms[code]
    before = json.dumps(room.to_row().data, sort_keys=True)
    store = live.server.store
    store.close()  # every write fails from now on ("Cannot operate on a closed database")
    live.server.store_down_until = 0.0
    original = room.store
    room.store = store
    status, body = post(live.port, f"/api/rooms/{code}/join", {"name": "Late"})
    assert (status, body["code"]) == (503, "storage_unavailable")
    assert original is store
    assert json.dumps(room.to_row().data, sort_keys=True) == before, "the refused join took a seat"


def test_start_while_the_store_fails_changes_nothing(live: Live) -> None:
    """A start the store could not keep must leave the room in its lobby."""
    code, tokens = make_room(live.port, 1, seats=2, target=500)
    host = Tab(live.port, code, tokens[0])
    room = live.server.rooms[code]
    before = (room.status, room.game_no)
    live.server.store.close()
    host.ws.send('{"type":"start"}')
    host.sync()
    assert host.errors == ["storage_unavailable"]
    assert (room.status, room.game_no) == before, "the refused start left the room half-started"


@pytest.mark.slow
def test_bots_do_not_wait_for_ever_on_a_persons_catch_chance() -> None:
    """One person who plays their turns but never catches, three bots that forget UNO."""
    from unokit.server.store import MemoryStore

    with Live(MemoryStore()) as live:
        for _ in range(6):  # the deals are random: a stall comes within a room or two
            code, tokens = make_room(live.port, 1, seats=4, target=500)
            room = live.server.rooms[code]
            for s in room.seats[1:]:
                s.level = "easy"  # easy bots forget to call UNO
            tab = Tab(live.port, code, tokens[0])
            tab.ws.send('{"type":"start"}')
            tab.sync()
            end = time.monotonic() + 6
            last, since = -1, time.monotonic()
            while time.monotonic() < end and room.status == "playing":
                tab.sync()
                st = tab.state
                if st and st["view"]["legal"] and st["view"]["current"] == 0:
                    tab.act()  # plays its own turns; never presses catch
                if room.match.version != last:
                    last, since = room.match.version, time.monotonic()
                waited = time.monotonic() - since
                g = room.match.game
                assert waited < 2.0 or g.round_over, (
                    f"stalled {waited:.1f} s: seat {g.current} (a bot) to play, seat "
                    f"{g.vulnerable} catchable, next_to_ask {room.match.next_to_ask()}"
                )
                time.sleep(0.01)
            tab.close()


def test_a_game_that_ended_just_before_a_crash_is_over_after_the_restart() -> None:
    """The last action is in the log, the crash came before the room's row said "over"."""
    from unokit.server.store import MemoryStore

    store = MemoryStore()
    with Live(store) as live:
        code, tokens = make_room(live.port, 1, seats=2, target=30)
        tab = Tab(live.port, code, tokens[0])
        tab.ws.send('{"type":"start"}')
        tab.sync()
        room = live.server.rooms[code]
        end = time.monotonic() + 60
        while room.status != "over" and time.monotonic() < end:
            tab.sync()
            if room.match.game.round_over:
                tab.ws.send('{"type":"next_round"}')
            elif (
                tab.state
                and tab.state["view"]["legal"]
                and tab.state["version"] == room.match.version
            ):
                tab.act()
            time.sleep(0.002)
        assert room.status == "over"
        tab.close()
    store.rooms[code]["status"] = "playing"  # as the row was when the process died
    with Live(store) as again:
        time.sleep(1.5)
        assert again.server.rooms[code].status == "over"
        assert again.server.errors == 0


def test_sigterm_tells_every_player_the_server_is_restarting_then_closes_1012(
    tmp_path: Path,
) -> None:
    """A rolling restart: ``unokit serve`` gets SIGTERM while a player and a spectator
    are connected.  Each is told ``restarting`` (the page says "reconnecting" rather
    than showing a dropped connection) and then the websocket closes with 1012
    (service restart); the process ends cleanly and what was played is kept."""
    from websockets.exceptions import ConnectionClosed

    proc = server_helpers.Subprocess(tmp_path / "games.sqlite3")
    proc.start()
    try:
        code, tokens = make_room(proc.port, people=1, seats=2)
        base = f"ws://127.0.0.1:{proc.port}/ws/{code}"
        with connect(base) as player, connect(base) as spectator:
            player.send(json.dumps({"type": "hello", "token": tokens[0]}))
            spectator.send(json.dumps({"type": "hello"}))
            for ws in (player, spectator):  # both welcomed before the stop
                while json.loads(ws.recv(timeout=10))["type"] != "welcome":
                    pass
            assert proc.proc is not None
            proc.proc.send_signal(signal.SIGTERM)
            for ws in (player, spectator):
                told = []
                with contextlib.suppress(ConnectionClosed):
                    while True:
                        told.append(json.loads(ws.recv(timeout=10)))
                assert {"type": "error", "code": "restarting"}.items() <= told[-1].items(), told
                assert ws.close_code == 1012
        proc.proc.wait(20)
        err = proc.stop()
        assert proc.proc.returncode in (0, -signal.SIGTERM), (proc.proc.returncode, err)
        assert "Traceback" not in err, err
    finally:
        proc.stop()


@contextlib.asynccontextmanager
async def a_game_played_out(store: Any) -> AsyncIterator[tuple[Any, str, Any, Any]]:
    """Ana (the host) and Ben on one server over ``store``, a game to 1 point played
    to its end (the room's status no longer "playing"): the harness, the room's code
    and the two clients."""
    from server_helpers import FAST, Client, play_out, running

    async with running(store, timing=FAST) as h:
        r = await h.room(seats=2, bots=[None], options={"target_score": 1})
        code = r["code"]
        ben = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        bc = await Client(f"{h.ws}/{code}", ben["token"]).connect()
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None)
        room = h.server.rooms[code]
        await play_out([ana, bc], lambda: room.status != "playing", limit=30)
        yield h, code, ana, bc


def test_a_game_whose_end_cannot_be_saved_still_ends_for_everyone() -> None:
    """The winning move is committed, then saving the finished game fails (the store
    hiccups at that moment): the move is not refused (it happened), both players are
    sent the game's end, and the record is saved when the room is read again."""
    import asyncio

    from server_helpers import FAST
    from unokit.server.store import MemoryStore, StoreError

    class FailsOnceAtTheEnd(MemoryStore):
        failed = False

        def save_record(self, code: str, game: int, text: str) -> None:
            if not self.failed:
                self.failed = True
                raise StoreError("storage failed: connection lost")
            super().save_record(code, game, text)

    async def run() -> None:
        store = FailsOnceAtTheEnd()
        async with a_game_played_out(store) as (h, code, ana, bc):
            room = h.server.rooms[code]
            for c in (ana, bc):
                await c.wait(lambda c=c: c.state["view"]["phase"] == "game_over")
                assert "storage_unavailable" not in [e["code"] for e in c.errors]
            assert store.failed and store.record(code, 1) is None  # not saved yet
            restored = type(room).restore(store.load_room(code), store, FAST)  # type: ignore[arg-type]
            assert restored.status == "over" and store.record(code, 1) is not None
            await ana.close()
            await bc.close()

    asyncio.run(run())


def test_a_host_end_in_the_log_ends_the_game_when_read_again_and_when_caught_up() -> None:
    """The host's end is logged and the server dies before saving the room (or another
    server reads the log meanwhile): a room read again from the store is over, with its
    record saved, and no move is stored after the end; a server catching up on the
    log's new entries takes the game as over too."""
    from unokit.engine.actions import Action
    from unokit.server.room import Room, RoomError
    from unokit.server.store import MemoryStore

    store = MemoryStore()
    room, _ = Room.create(store, "Ana", "classic", {}, 2, [None, "normal"], 0)
    room.start(0)
    other = Room.restore(store.load_room(room.code), store)  # another server's copy
    room._log({"t": "end"})  # the crash comes before _finish saves the row
    assert store.load_room(room.code).data["status"] == "playing"
    again = Room.restore(store.load_room(room.code), store)
    assert again.status == "over" and store.record(room.code, 1) is not None
    assert again.autopilot_decide(0) is None  # the turn timer, say: nothing to play
    server = bare_server(store)
    assert asyncio.run(server.master.due(again, "bot", -1)) is False  # no bot is to act
    with pytest.raises(RoomError):
        asyncio.run(act(server, again, 0, Action.from_wire({"draw": True})))
    assert [e["t"] for e in store.log(room.code, 1)][-1] == "end"
    other.catch_up(store.log_since(room.code, 1, other.log_len))
    assert other.status == "over" and other.log_len == len(store.log(room.code, 1))


def test_a_finished_game_that_could_not_be_saved_keeps_its_record_through_a_rematch() -> None:
    """The winning move's finished game could not be saved; the host then asks for a
    rematch: the first game's record is saved before the second game starts (it was
    lost: the room row still said playing and the rematch saved over it)."""
    import asyncio

    from unokit.server.store import MemoryStore, StoreError

    class FailsOnceAtTheEnd(MemoryStore):
        failed = False

        def save_record(self, code: str, game: int, text: str) -> None:
            if not self.failed:
                self.failed = True
                raise StoreError("storage failed: connection lost")
            super().save_record(code, game, text)

    async def run() -> None:
        store = FailsOnceAtTheEnd()
        async with a_game_played_out(store) as (h, code, ana, bc):
            assert store.failed and store.record(code, 1) is None
            await ana.send({"type": "rematch"})
            await ana.wait(lambda: h.server.rooms[code].game_no == 2)
            assert store.record(code, 1) is not None
            await ana.close()
            await bc.close()

    asyncio.run(run())


def test_a_move_whose_entry_is_stored_is_acknowledged_whatever_fails_after() -> None:
    """Review finding A, at the pipeline: once a move's entry is in the store's log the
    move is made, so whatever fails while this server applies it (here the room's own
    follow-up raises ``RoomChanged``, as a lost save of the row did) its player is not
    told it was refused; the room is read again from the store, and everyone is sent
    the view with the move in it."""
    import asyncio

    from server_helpers import FAST, Client, running
    from test_server import choose
    from unokit.server.room import RoomChanged
    from unokit.server.store import MemoryStore

    async def run() -> None:
        store = MemoryStore()
        async with running(store, timing=FAST) as h:
            r = await h.room(seats=2, bots=[None])
            code = r["code"]
            ben = await h.join(code, "Ben")
            ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
            bc = await Client(f"{h.ws}/{code}", ben["token"]).connect()
            await ana.send({"type": "start"})
            await ana.wait(lambda: ana.state is not None and bc.state is not None)
            room = h.server.rooms[code]
            mover = next(c for c in (ana, bc) if c.seat == room.match.game.current)
            action = choose(mover.state["view"])
            real = room.commit

            def fails_after(*args: object, **kw: object) -> None:
                real(*args, **kw)  # type: ignore[arg-type]
                raise RoomChanged()

            room.commit = fails_after  # type: ignore[method-assign]
            version = room.match.version
            await mover.act(action)
            await mover.wait(lambda: mover.state["version"] > version)
            await asyncio.sleep(0.1)
            assert not mover.errors, mover.errors
            assert len(store.log(code, 1)) == 2  # the deal and the move
            fresh = h.server.rooms[code]
            assert fresh is not room and fresh.match.version == version + 1  # read again
            other = bc if mover is ana else ana
            await other.wait(lambda: other.state["version"] == version + 1)
            assert h.server.accepted >= 1
            await ana.close()
            await bc.close()

    asyncio.run(run())


class Hangs(MemoryStore):
    """A store whose row saves of one room hang until let go (PostgreSQL not
    answering), then fail or not."""

    sync = "full"  # its calls wait: the server makes them in worker threads

    def __init__(self) -> None:
        super().__init__()
        self.stuck: str | None = None  # the room whose row saves hang
        self.go = threading.Event()
        self.fail = False
        self.waiting = threading.Event()

    def put_room(self, row: RoomRow, expect: int | None) -> bool:
        if row.code == self.stuck:
            self.waiting.set()
            self.go.wait(5)
            if self.fail:
                raise StoreError("storage failed: connection timed out")
        return super().put_room(row, expect)


def test_a_room_change_stuck_in_the_store_stops_no_other_room_and_shows_nothing() -> None:
    """Review finding B: a join and a start whose store call hangs (PostgreSQL not
    answering) run in a worker thread, so the server goes on serving other rooms
    meanwhile; the room's change is seen by nobody (the lobby's look-up, a new
    websocket) until the store has it, and a call that then fails changes nothing."""
    import asyncio

    from server_helpers import FAST, Client, play_out, running

    async def run() -> None:
        store = Hangs()
        async with running(store, timing=FAST, limits=Limits(messages_per_second=1e4)) as h:
            other = await h.room(seats=2, bots=["normal"])
            ana = await Client(f"{h.ws}/{other['code']}", other["token"]).connect()
            await ana.send({"type": "start"})
            await ana.wait(lambda: ana.state is not None)
            r = await h.room(seats=3, bots=[])
            code = r["code"]
            host = await Client(f"{h.ws}/{code}", r["token"]).connect()
            await host.wait(lambda: host.room is not None)

            async def served_meanwhile() -> None:
                """The other room plays on, and this room looks as before its change."""
                await asyncio.to_thread(store.waiting.wait, 5)
                moves = ana.state["version"]
                await play_out([ana], lambda: ana.state["version"] >= moves + 3, limit=5)
                info = (await h.get(f"/api/rooms/{code}")).json()
                watcher = await Client(f"{h.ws}/{code}").connect()
                await watcher.wait(lambda: watcher.room is not None)
                for seen in (info, watcher.room):
                    assert seen["status"] == "lobby" and seen["seats"][1] is None
                await watcher.close()

            # a join whose row save hangs, then fails: refused, the seat still free
            store.stuck = code
            store.fail = True
            joining = asyncio.create_task(h.post(f"/api/rooms/{code}/join", {"name": "Ben"}))
            await served_meanwhile()
            assert not joining.done()  # still waiting for the store
            store.go.set()
            resp = await joining
            assert resp.status_code == 503 and resp.json()["code"] == "storage_unavailable"
            room = h.server.rooms[code]
            assert room.seats[1] is None and room.status == "lobby"
            assert store.rooms[code]["seats"][1] is None
            h.server.store_down_until = 0.0  # the next try goes to the store

            # a start whose row save hangs, then succeeds: seen only once stored
            store.go.clear()
            store.waiting.clear()
            store.fail = False
            await host.send({"type": "start"})
            await served_meanwhile()
            assert host.state is None and h.server.rooms[code].status == "lobby"
            store.go.set()
            await host.wait(lambda: host.state is not None)
            assert h.server.rooms[code].status == "playing"
            assert store.rooms[code]["status"] == "playing"
            assert h.server.errors == 0
            store.stuck = None
            await ana.close()
            await host.close()

    asyncio.run(run())


def test_a_move_sent_while_the_host_kicks_that_seat_is_not_played() -> None:
    """A kick's store call runs in a worker thread with the room's lock held; a move the
    kicked player sent meanwhile waits for that lock, and must not then be played on
    the seat that is now a bot's (review of 2026-12-05: it was, on their turn)."""
    import asyncio

    from server_helpers import Client, running
    from unokit.engine import view_of

    # the bot that takes the seat waits 1 s before its move: a move within it is Ben's
    slow_bot = Timing(
        bot_delay=1.0, catch_window=0.05, turn_timer=None, autopilot_after=30.0, next_round=0.05
    )

    async def run() -> None:
        store = Hangs()
        async with running(store, timing=slow_bot) as h:
            r = await h.room(seats=2, bots=[])
            code = r["code"]
            b = await h.join(code, "Ben")
            ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
            ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
            await ana.send({"type": "start"})
            await ben.wait(lambda: ben.state is not None)
            room = h.server.rooms[code]
            g = room.match.game
            for _ in range(20):  # people only: nothing moves until one of them does
                if g.current == 1 and g.phase == 0 and g.vulnerable < 0:
                    break
                who = (ana, ben)[g.current]
                v0 = room.match.version
                await who.wait(lambda who=who, v0=v0: who.state["version"] == v0)
                await who.act(view_of(g, g.current).legal[0].to_wire())
                await who.wait(lambda who=who, v0=v0: who.state["version"] > v0)
            assert g.current == 1 and g.phase == 0
            v = room.match.version
            await ben.wait(lambda: ben.state["version"] == v)
            store.stuck = code
            await ana.send({"type": "kick", "seat": 1})
            await asyncio.to_thread(store.waiting.wait, 5)
            await ben.act(view_of(g, 1).legal[0].to_wire())
            await asyncio.sleep(0.2)  # Ben's move is waiting for the room's lock
            store.go.set()
            await ben.wait(lambda: any(e["code"] == "kicked" for e in ben.errors))
            await asyncio.sleep(0.3)  # within the bot's pause: only Ben could have moved
            assert h.server.rooms[code].match.version == v
            await ana.close()
            await ben.close()

    asyncio.run(run())


def test_a_move_stored_then_not_applied_while_the_store_goes_away_is_not_refused() -> None:
    """A double fault (review of 2026-12-05): Ana's move is stored, applying it on the
    server fails, and reading the room again fails too, since the store went away at
    that moment.  The move is made (it is in the log), so Ana is not told it was
    refused.  The half-applied copy is shown to nobody and decides nothing: while the
    store is away a move is refused with nothing stored.  Once it is back, the room is
    read again by itself and everyone gets the store's view, her move in it."""
    import asyncio

    from server_helpers import FAST, Client, choose, running
    from unokit.server.store import MemoryStore, StoreError

    class GoesAway(MemoryStore):
        down = False

        def load_room(self, code: str) -> Any:
            if self.down:
                raise StoreError("storage failed: connection lost")
            return super().load_room(code)

        def append_at(self, rows: Any, holders: Any = ()) -> Any:
            if self.down:
                raise StoreError("storage failed: connection lost")
            return super().append_at(rows, holders)

    async def run() -> None:
        store = GoesAway()
        async with running(store, timing=FAST) as h:
            r = await h.room(seats=2, bots=[None])
            code = r["code"]
            ben = await h.join(code, "Ben")
            ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
            bc = await Client(f"{h.ws}/{code}", ben["token"]).connect()
            await ana.send({"type": "start"})
            await ana.wait(lambda: ana.state is not None and bc.state is not None)
            mover = next(c for c in (ana, bc) if choose(c.state["view"]) is not None)
            room = h.server.rooms[code]

            def fails(*args: Any, **kwargs: Any) -> None:
                store.down = True  # the store goes away as the move is applied
                raise RuntimeError("applying the entry failed")

            room.commit = fails  # type: ignore[method-assign]
            logged = len(store.log(code, 1))
            seen = mover.state["version"]
            await mover.act(choose(mover.state["view"]))
            await asyncio.sleep(0.3)
            assert len(store.log(code, 1)) == logged + 1  # stored: the move is made
            assert [e["code"] for e in mover.errors] == []  # so it is not refused
            assert room.broken and h.server.rooms[code] is room
            assert ana.state["version"] == bc.state["version"] == seen  # shown to nobody
            # the store still away: the next move is refused, nothing stored
            await mover.act({"draw": True}, version=seen)
            await mover.wait(lambda: [e["code"] for e in mover.errors] == ["storage_unavailable"])
            assert len(store.log(code, 1)) == logged + 1
            # back: the room is read again by itself (nobody acts), and everyone is
            # sent the store's room, the move in it
            store.down = False
            h.server.store_down_until = 0.0
            for c in (ana, bc):
                await c.wait(lambda c=c: c.state["version"] > seen)
            again = h.server.rooms[code]
            assert again is not room and not again.broken
            assert again.log_len == logged + 1
            assert ana.state["version"] == bc.state["version"] == again.match.version
            late = await Client(f"{h.ws}/{code}").connect()  # a newcomer sees the table
            await late.wait(lambda: late.state is not None)
            await late.close()
            await ana.close()
            await bc.close()

    asyncio.run(run())


def test_a_rematch_whose_start_failed_leaves_the_room_as_stored_and_the_host_starts_again() -> None:
    """A double fault (review of 2026-12-05): the host's rematch stores part of itself
    (the room's row moves on), then the new game's deal cannot be logged: the rematch
    is refused with nothing of the new game kept, and the room is in the lobby, as its
    row now says.  This server's copy is read again at once, so the host's start is
    not refused with `room_changed` (the copy was left behind the row its own failed
    try wrote)."""
    import asyncio

    from unokit.server.store import MemoryStore, StoreError

    class DealFailsOnce(MemoryStore):
        armed = False

        def append_at(self, rows: Any, holders: Any = ()) -> Any:
            if self.armed and any(r[3].get("t") == "round" for r in rows):
                self.armed = False
                raise StoreError("storage failed: connection lost")
            return super().append_at(rows, holders)

    async def run() -> None:
        store = DealFailsOnce()
        async with a_game_played_out(store) as (h, code, ana, bc):
            await ana.wait(lambda: ana.state["view"]["phase"] == "game_over")
            store.armed = True
            await ana.send({"type": "rematch"})
            await ana.wait(lambda: [e["code"] for e in ana.errors] == ["storage_unavailable"])
            here, row = h.server.rooms[code], store.load_room(code)
            assert here.game_no == 1  # nothing of game 2 kept
            # this server's copy is the row its own failed try left: the lobby, as the
            # start that failed saved it again, at the row's revision
            assert (
                (here.status, here.rev)
                == (row.data["status"], row.data["rev"])
                == ("lobby", row.data["rev"])
            )
            await ana.wait(lambda: ana.room is not None and ana.room["status"] == "lobby")
            h.server.store_down_until = 0.0
            await ana.send({"type": "start"})  # the page shows the lobby: its Start button
            await ana.wait(lambda: h.server.rooms[code].game_no == 2, timeout=5)
            assert [e["code"] for e in ana.errors] == ["storage_unavailable"]  # no room_changed
            await ana.close()
            await bc.close()

    asyncio.run(run())
