"""The websocket side of the table: one session per client, from its hello (the
room, its seat's token, a resume point) to its last message; each message is read
within its limits and handed to the server, and refusals go back to the sender only.

An action's way through: ``Sessions.serve`` (rate, size, parse) -> ``handle`` (ping
and chat stay here) -> ``Master.submit`` (the room's lock, the change checked, stored,
applied, and each connection sent its own view)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from unokit.errors import UnoError
from unokit.server import messages as m
from unokit.server import ops
from unokit.server.conns import STORE_DOWN, Conn, TooBig, err, frame_text, pump, refuse
from unokit.server.limits import Bucket, Window
from unokit.server.room import CODE_LENGTH, Room, RoomError
from unokit.server.store import StoreError
from unokit.server.web import address

if TYPE_CHECKING:
    from unokit.server.app import Server

log = logging.getLogger("unokit.server")


def normal_origin(url: str) -> str | None:
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
    out = {normal_origin(f"http://{f'[{host}]' if ':' in host else host}:{port}")}
    if host in ("::1", "localhost") or host.startswith("127."):
        out.add(normal_origin(f"http://localhost:{port}"))
    return {o for o in out if o is not None}


def origin_allowed(origin: str | None, server: Any, allowed: frozenset[str]) -> bool:
    """No cross-site websocket hijacking: the page must come from this server's own
    address (``own_origins``) or an origin given with ``--origin``; scheme, host and
    port all count."""
    if origin is None:
        return True  # not a browser (a script or a test client): tokens still apply
    norm = normal_origin(origin)
    return norm is not None and (norm in allowed or norm in own_origins(server))


def behind(room: Room, hello: m.Hello) -> bool:
    """Whether a reconnecting client has seen a later game, or more of this game's
    events, than ``room`` holds."""
    game = hello.game if hello.game is not None else room.game_no
    if game != room.game_no:
        return game > room.game_no
    events = room.match.game.events if room.match is not None else None
    return (hello.last_seq or 0) > len(events or [])


class Sessions:
    """The websocket sessions of one server (``install`` adds their route)."""

    def __init__(self, server: Server, allowed_origins: tuple[str, ...] = ()) -> None:
        self.server = server
        self.origins = frozenset(o for o in map(normal_origin, allowed_origins) if o is not None)
        self.chat_window = Window(server.limits.chat_per_minute, 60)
        self.react_window = Window(server.limits.reactions_per_minute, 60)
        self.react_burst = Window(server.limits.reactions_per_10_seconds, 10)
        # the ready check: each toggle is a stored save and a room message to everyone
        self.ready_window = Window(server.limits.ready_per_10_seconds, 10)

    def install(self, app: FastAPI) -> None:
        app.add_api_websocket_route("/ws/{code}", self.ws)

    async def ws(self, websocket: WebSocket, code: str) -> None:
        addr = address(websocket.client)
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.scope.get("server"), self.origins
        ):
            await websocket.close(code=1008, reason="cross-site websocket refused")
            return
        if self.server.flood_window.full(addr):
            await websocket.close(code=1008, reason="too many messages from here; wait a minute")
            return
        if self.server.per_address[addr] >= self.server.limits.connections_per_address:
            await websocket.close(code=1013, reason="too many connections from here")
            return
        self.server.per_address[addr] += 1
        try:
            await self.session(websocket, code, addr)
        finally:
            self.server.per_address[addr] -= 1
            if self.server.per_address[addr] <= 0:
                del self.server.per_address[addr]

    async def read_again(self, websocket: WebSocket, room: Room) -> Room | None:
        """``room`` brought up to what the store has, before a hello is answered; None
        (and the client told why) if the store is away or the room is gone."""
        try:
            async with self.server.locks[room.code]:
                room = await self.server.refresh(self.server.rooms.get(room.code, room))
        except StoreError:
            await refuse(websocket, "storage_unavailable", STORE_DOWN)
            return None
        if self.server.rooms.get(room.code) is not room:
            await refuse(websocket, "no_room", f"there is no room {room.code}")
            return None
        return room

    async def session(self, websocket: WebSocket, code: str, addr: str) -> None:
        await websocket.accept()
        if self.server.lookup_window.full(addr):
            await refuse(websocket, "rate_limited", "too many rooms not found; wait a minute")
            return
        try:
            room = await self.server.find(code) if len(code) <= CODE_LENGTH else None
        except StoreError:
            await refuse(websocket, "storage_unavailable", STORE_DOWN)
            return
        if room is None:
            self.server.lookup_window.allow(addr)
            await refuse(websocket, "no_room", f"there is no room {code[:10]!r}")
            return
        try:
            first = await asyncio.wait_for(
                websocket.receive(), timeout=self.server.limits.hello_timeout
            )
            hello = m.CLIENT.validate_json(frame_text(first, self.server.limits.message_bytes))
        except (TimeoutError, ValidationError, ValueError, KeyError):
            await refuse(websocket, "bad_hello", 'the first message must be {"type": "hello"}')
            return
        if not isinstance(hello, m.Hello):
            await refuse(websocket, "bad_hello", 'the first message must be {"type": "hello"}')
            return
        # the room as this server has it now: while the hello was awaited it may have
        # been read again from the store (replaced) or have left memory
        current = self.server.rooms.get(room.code)
        if current is None:
            await refuse(websocket, "no_room", f"there is no room {room.code}")
            return
        room = current
        seat: int | None = None
        if hello.token is not None:
            if not self.server.join_window.allow(addr):
                await refuse(websocket, "rate_limited", "too many attempts; wait a minute")
                return
            seat = room.seat_of(hello.token)
            if seat is None and self.server.cluster:
                # joined through another server a moment ago, whose news has not come
                # yet: the store knows (a token's look-up is counted by join_window)
                again = await self.read_again(websocket, room)
                if again is None:
                    return
                room = again
                seat = room.seat_of(hello.token)
            if seat is None:
                await refuse(websocket, "bad_token", "this seat token is not valid here")
                return
        if (
            self.server.cluster
            and seat is not None
            and hello.last_seq is not None
            and behind(room, hello)
        ):
            # a player (a checked token, counted by join_window) saw more of this room
            # (on a server that just died) than this server has applied yet: read it
            # from the store first, so their view never goes back
            again = await self.read_again(websocket, room)
            if again is None:
                return
            room = again
        conn = Conn(websocket, room, seat, addr, queue=asyncio.Queue(self.server.limits.send_queue))
        conn.bucket = Bucket(self.server.limits.messages_per_second)
        if hello.last_seq is not None:
            ops.RECONNECTS.inc()
        if room.match is not None and hello.last_seq is not None and hello.game == room.game_no:
            conn.game = room.game_no
            conn.seq = hello.last_seq  # resume: only what was missed
        if seat is None and hello.name:
            taken = [x.name for x in room.seats if x is not None]
            taken += [c.name for c in self.server.conns.get(room.code, ()) if c.name]
            refusal = m.name_refusal(hello.name, taken)
            if refusal is None:
                conn.name = hello.name.strip()
        self.server.conns[room.code].add(conn)
        ops.CONNECTIONS.inc()
        sender = asyncio.get_running_loop().create_task(pump(conn))
        try:
            conn.send({"type": "welcome", "seat": seat, "code": room.code, "protocol": 1})
            if seat is not None:
                room.connected(seat, +1)
                self.server.peers.my_presence(room)
                self.server.leases.want(room)  # a player's server drives the room, if free
                if hello.last_seq is None:  # a page resuming may race its old connection
                    self.seat_tabs(room.code, seat)
            self.server.broadcast(room)
            if seat is None:
                self.server.peers.watchers(room.code)
                self.server.peers.my_presence(room)  # the cluster's other servers list them too
                if hello.name and not conn.name:
                    conn.send(err("name_taken", "that name is taken here; you watch unnamed"))
            await self.serve(conn)
        finally:
            self.server.conns[room.code].discard(conn)
            if seat is None:
                self.server.peers.watchers(conn.room.code)
                self.server.peers.my_presence(conn.room)
            ops.CONNECTIONS.dec()
            conn.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            room = conn.room  # the room read again from the store, in a cluster
            if seat is not None and room.seats[seat] is not None:
                room.connected(seat, -1)
                self.server.peers.my_presence(room)
                if self.server.rooms.get(room.code) is room:
                    self.server.broadcast(room)
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender

    def seat_tabs(self, code: str, seat: int) -> None:
        """A seat open twice on this server (a second tab, another window): each of its
        connections is told, so nobody wonders why the hand moves by itself (issue 49:
        "one seat open in two tabs says nothing").  Either may play; the versions keep
        them apart.  Tabs on different servers of a cluster are not counted."""
        same = [c for c in self.server.conns.get(code, ()) if c.seat == seat and not c.closed]
        if len(same) > 1:
            for c in same:
                c.send({"type": "notice", "code": "seat_elsewhere", "count": len(same)})

    async def serve(self, conn: Conn) -> None:
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
            limits = self.server.limits
            if owe:  # over the rate: costs next to nothing, and a flood ends the connection
                if owe > limits.flood_close_after:
                    self.server.floods += 1
                    self.server.flood_window.allow(conn.address)
                    conn.closed = True
                    with contextlib.suppress(Exception):
                        await ws_.close(code=1008, reason="too many messages")
                    return
                # the first few answered, then silence until the client has been quiet
                # for a while: counted, not read off ``owe``, which the bucket's refill
                # lowers again while a slow server reads a flood (5 answers, not 3, on
                # a loaded machine)
                if conn.rate_replied < limits.rate_replies:
                    conn.rate_replied += 1
                    conn.send(err("rate_limited", "too many messages; slow down"))
                continue
            if conn.bucket.tokens >= conn.bucket.rate:
                # half its burst back: the client sent nothing for about a second, not a
                # flood the server read slowly (a pause of the loop refills a little)
                conn.rate_replied = 0
            try:
                msg = m.CLIENT.validate_json(frame_text(frame, self.server.limits.message_bytes))
            except TooBig:
                conn.send(
                    err(
                        "too_big", f"a message has at most {self.server.limits.message_bytes} bytes"
                    )
                )
                continue
            except (ValidationError, ValueError):
                conn.send(err("bad_message", "not a message this server understands"))
                continue
            try:
                await self.handle(conn, msg)
            except RoomError as e:
                ops.refused(e.code)
                conn.send(err(e.code, e.message))
                if e.code == "room_changed":
                    self.server.tell(conn)  # the room as the store has it
            except UnoError as e:
                ops.refused(e.code)
                conn.send(err(e.code, e.message))
                match = conn.room.match
                if e.code == "stale_version" and match is not None:
                    # a resync: the fresh view follows the refusal, once per version (a
                    # client sending stale actions again was already sent that view)
                    now = (conn.room.game_no, match.version)
                    if conn.resynced != now:
                        conn.resynced = now
                        self.server.tell(conn)
            except StoreError as e:
                if time.monotonic() >= self.server.store_down_until:
                    self.server.store_failed(e)
                ops.refused("storage_unavailable")
                conn.send(err("storage_unavailable", STORE_DOWN))
            except Exception:
                self.server.errors += 1
                log.exception("room %s: a message failed", conn.room.code)
                conn.send(err("internal", "something went wrong on the server"))

    async def handle(self, conn: Conn, msg: Any) -> None:
        room = conn.room
        if self.server.rooms.get(room.code) is not room:
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
            if chat:
                allowed = self.chat_window.allow(who)
            else:  # both of a reaction's limits, counted only when it goes out
                allowed = not self.react_burst.full(who) and self.react_window.allow(who)
                if allowed:
                    self.react_burst.allow(who)
            if not allowed:
                raise RoomError("too many messages; wait a little", code="rate_limited")
            s = room.seats[seat] if seat is not None else None
            name = s.name if s else conn.name
            line: dict[str, Any] = (
                {"type": "chat", "seat": seat, "name": name, "text": msg.text}
                if isinstance(msg, m.Chat)
                else {"type": "react", "seat": seat, "name": name, "emote": msg.emote}
            )
            self.server.chat(room.code, line)
            if self.server.cluster:
                self.server.bus.publish({"t": "chat", "code": room.code, "line": line})
            return
        if isinstance(msg, m.Ready) and not self.ready_window.allow(f"{room.code}:{seat}"):
            raise RoomError("too many messages; wait a little", code="rate_limited")
        await self.server.master.submit(conn, msg)
