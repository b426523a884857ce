"""One client's connection: what it is sent and how (an ordered queue per client,
pumped to its socket, so one slow reader never holds up the others), and the frames it
sends read within their limits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import WebSocket

from unokit.server.limits import Bucket
from unokit.server.room import Room

STORE_DOWN = "the server cannot store moves right now, so nothing was changed; try again soon"


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
    rate_replied: int = 0  # rate_limited answers since the client was last within its rate
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
            abort(self.ws)


def encode(msg: dict[str, Any]) -> str:
    """A message's JSON text: orjson, because encoding with the standard library's
    ``json`` was the server's largest cost under load (10% of its time; orjson is ten
    times faster on a state message and gives the same text)."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


class TooBig(ValueError):
    pass


def frame_text(frame: Any, limit: int) -> str | bytes:
    """The message's text, refused when over ``limit`` bytes or not UTF-8."""
    if frame.get("type") != "websocket.receive":
        raise ValueError("not a message")
    data = frame.get("text")
    if data is None:
        raw = frame.get("bytes") or b""
        if len(raw) > limit:
            raise TooBig()
        return raw.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if len(data) > limit or len(data.encode("utf-8", "surrogatepass")) > limit:
        raise TooBig()
    return str(data)


def abort(ws: WebSocket) -> None:
    """Drop a connection at once, at the TCP level: its pump may be stuck sending to a
    client that does not read, and its reader waiting for a message that never comes;
    a reset ends both, and the session cleans up as for any disconnect."""
    protocol = getattr(getattr(ws, "_receive", None), "__self__", None)
    transport = getattr(protocol, "transport", None)
    if transport is not None:
        with contextlib.suppress(Exception):
            transport.abort()


# A reference for developers in a message ("(RULES-MODERN.md FLIP-OPT-1; docs/rules.md)"):
# the engine's messages carry them for the CLI, a player has no such files (issue 49)
_GROUP = re.compile(r"\(([^()]*)\)")
_REFERENCE = re.compile(r"\.md\b|§|\b[A-Z]+-[A-Z0-9]+-\d")
MESSAGE_CHARS = 500  # a refusal may quote what was sent: what a player reads is short


def plain(message: str) -> str:
    """``message`` as a player reads it: at most ``MESSAGE_CHARS`` characters, without
    references to the project's files.  Linear in the message's length (a pattern with
    a leading run of spaces took 10 s on 80 kB of them, on the event loop: review)."""
    message = message[:MESSAGE_CHARS]
    out, at = [], 0
    for m in _GROUP.finditer(message):
        if _REFERENCE.search(m.group(1)):
            out.append(message[at : m.start()].rstrip())
            at = m.end()
    out.append(message[at:])
    return "".join(out)


def err(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": plain(message)}


async def refuse(ws: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(err(code, message)))
        await ws.close(code=1008)


async def pump(conn: Conn) -> None:
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
