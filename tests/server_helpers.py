"""A real server on 127.0.0.1 (in this process or as a subprocess) and websocket clients.

Clients keep every frame they received, so tests can check what a connection was
told, not only what the last view says.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Self

import httpx
import uvicorn
import websockets

from unokit.engine.actions import Action
from unokit.match import Timing
from unokit.server.app import Server, create_app
from unokit.server.limits import Limits
from unokit.server.room import Room
from unokit.server.runtime import UVICORN_OPTIONS
from unokit.server.store import MemoryStore, Store


def bare_server(store: Store | None = None) -> Server:
    """The server without a network: its one commit path (``Server.commits``) and its
    driver's decisions (``Server.driver``), on an in-memory store, each commit on its
    own (no group-commit task to run), for tests that play rooms move by move.  Rooms
    are not added to it, so no driver task plays them meanwhile."""
    return Server(store or MemoryStore(), None, Limits(), commit="each")


async def self_step(server: Server, room: Room) -> bool:
    """One decision the room makes by itself, through the master as its driver makes
    them: the next round, or a bot's or the autopilot's move; False if none."""
    assert room.match is not None
    if room.match.game.round_over and room.status == "playing":
        return await server.master.due(room, "next_round", -1)
    return await server.master.due(room, "bot", -1)


async def act(server: Server, room: Room, seat: int, action: Action) -> None:
    """A person's move through the server: checked, stored, then applied."""
    assert room.match is not None
    version = room.match.version
    room.prepare(seat, action, version)
    await server.commits.commit(room, seat, action, version, person=True)


FAST = Timing(
    bot_delay=0.0, catch_window=0.05, turn_timer=None, autopilot_after=30.0, next_round=0.05
)


class Harness:
    def __init__(self, app: Any, port: int) -> None:
        self.app = app
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"

    @property
    def server(self) -> Any:
        return self.app.state.server

    async def post(self, path: str, body: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.base) as c:
            return await c.post(path, json=body)

    async def get(self, path: str) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.base) as c:
            return await c.get(path)

    async def room(
        self, seats: int = 3, bots: list[str | None] | None = None, **kw: Any
    ) -> dict[str, Any]:
        body = {"name": "Ana", "seats": seats, "bots": bots or [], **kw}
        r = await self.post("/api/rooms", body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def join(self, code: str, name: str) -> dict[str, Any]:
        r = await self.post(f"/api/rooms/{code}/join", {"name": name})
        assert r.status_code == 200, r.text
        return dict(r.json())


@contextlib.asynccontextmanager
async def running(
    store: Store | None = None,
    timing: Timing = FAST,
    limits: Limits | None = None,
    options: dict[str, Any] | None = None,
    **app_kw: Any,
) -> AsyncIterator[Harness]:
    """The app served by uvicorn inside this event loop, on a free port.

    ``options``: uvicorn's options (``serve_options``, as ``unokit serve`` runs it);
    ``app_kw`` goes to ``create_app``."""
    # full-speed test games send more than a person could: lift the per-connection rate
    limits = limits or Limits(messages_per_second=10_000)
    app = create_app(store or MemoryStore(), timing=timing, limits=limits, **app_kw)
    uv = options or {"log_level": "warning", "ws": "websockets-sansio"}
    config = uvicorn.Config(app, host="127.0.0.1", port=0, **uv)
    srv = uvicorn.Server(config)
    task = asyncio.create_task(srv.serve())
    for _ in range(500):
        if srv.started:
            break
        await asyncio.sleep(0.01)
    port = srv.servers[0].sockets[0].getsockname()[1]
    try:
        yield Harness(app, port)
    finally:
        srv.should_exit = True
        await asyncio.wait_for(task, 10)


class Client:
    """One websocket connection, reading in the background."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url = url
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.seat: int | None = None
        self._ws: Any = None
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    async def connect(self, **hello: Any) -> Client:
        self._ws = await websockets.connect(self.url, max_size=2**22)
        msg: dict[str, Any] = {"type": "hello", **hello}
        if self.token is not None:
            msg["token"] = self.token
        await self._ws.send(json.dumps(msg))
        self._task = asyncio.create_task(self._read())
        await self.wait(lambda: any(f["type"] in ("welcome", "error") for f in self.frames))
        return self

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self._ws:
                msg = json.loads(raw)
                self.frames.append(msg)
                t = msg["type"]
                if t == "state":
                    self.state = msg
                elif t == "room":
                    self.room = msg
                elif t == "welcome":
                    self.seat = msg["seat"]
                elif t == "error":
                    self.errors.append(msg)
                self._changed.set()
        self._changed.set()

    async def wait(self, cond: Callable[[], bool], timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not cond():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("condition not met in time")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(left, 0.2))

    async def send(self, msg: Any) -> None:
        await self._ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    async def act(self, action: dict[str, Any], version: int | None = None) -> None:
        assert self.state is not None
        v = self.state["version"] if version is None else version
        await self.send({"type": "act", "version": v, "action": action})

    @property
    def closed(self) -> bool:
        return self._task is not None and self._task.done()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await self._task


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    """A simple legal policy for a seated client: call UNO, play, else draw/keep/accept."""
    legal = view["legal"]
    if view["current"] != view["seat"]:
        return None
    turn = [a for a in legal if "catch" not in a and list(a) != ["uno"]]
    plays = [a for a in turn if "play" in a or "cards" in a]
    with_uno = [a for a in plays if a.get("uno")]
    if with_uno:
        return with_uno[0]
    if plays:
        return plays[0]
    return turn[0] if turn else None


async def play_out(clients: list[Client], done: Any, limit: float = 60.0) -> None:
    """Every client plays ``choose``'s move whenever it is its turn, until ``done()``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    sent: dict[int, int] = {}
    while not done():
        if loop.time() > end:
            raise TimeoutError("the game did not finish")
        for c in clients:
            st = c.state
            if st is None or c.seat is None or st["view"]["phase"] in ("round_over", "game_over"):
                continue
            a = choose(st["view"])
            if a is not None and sent.get(c.seat) != st["version"]:
                sent[c.seat] = st["version"]
                await c.act(a)
        await asyncio.sleep(0.005)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Live:
    """The app on a real TCP port in a thread of this process, with the websocket
    implementation and options ``unokit serve`` runs with, so a test can look inside."""

    def __init__(self, store: Store | None, limits: Limits, timing: Timing) -> None:
        self.port = free_port()
        self.app = create_app(store, timing=timing, limits=limits)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, **UVICORN_OPTIONS)
        self.uv = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uv.run, daemon=True)
        self.tokens: dict[tuple[str, int], str] = {}

    @property
    def server(self) -> Any:
        return self.app.state.server

    def __enter__(self) -> Self:
        self.thread.start()
        wait_port(self.port)
        return self

    def __exit__(self, *exc: object) -> None:
        self.uv.should_exit = True
        self.thread.join(15)


def wait_port(port: int, timeout: float = 30.0) -> None:
    """Until something listens on 127.0.0.1:``port`` (RuntimeError after ``timeout``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


class Subprocess:
    """``unokit serve`` as a real process, to be killed with SIGKILL."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        env["UNOKIT_TIMING"] = json.dumps(
            {"bot_delay": 0.0, "catch_window": 0.05, "autopilot_after": 30.0, "next_round": 0.05}
        )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "unokit.cli",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=0.5)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no shutdown handlers run
        self.proc.wait(10)

    def stop(self) -> str:
        if self.proc is None:
            return ""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        err = self.proc.stderr.read().decode() if self.proc.stderr else ""
        return err
