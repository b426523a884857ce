"""The master: every change a room takes passes here, whoever asks for it.

boardgame.io's master is the model.  A person's message (``submit``) and the room's own
clock (``due``: a bot's move, the turn timer, the autopilot, the next round) go the same
way: the room is still here, the store is up, the room's lock is held, the change is
checked against the room as it is, its entry is stored (``Committer``: alone or in the
group commit), then applied, then every connection of the room is sent its own view
and events (``Server.broadcast``).  A refusal raises with nothing changed; the caller
tells the sender only.

Nothing here knows a socket: a connection is a queue of messages (``Conn``), so the
master runs, and is tested by name, with no network (tests/test_master.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from typing import TYPE_CHECKING, Any

from unokit.engine.state import StaleVersion
from unokit.server import messages as m
from unokit.server import ops
from unokit.server.conns import Conn, err
from unokit.server.options import check_room_options
from unokit.server.room import Room, RoomChanged, RoomError, action_from_wire

if TYPE_CHECKING:
    from unokit.server.app import Server

# what the room's own clock may do (``Driver.due`` says which is due)
DUE = ("bot", "autopilot", "timer", "next_round")


class Master:
    """The one way a room changes on this server (``Server.master``)."""

    def __init__(self, server: Server) -> None:
        self.server = server

    async def submit(self, conn: Conn, msg: Any) -> None:
        """A change asked by ``conn``'s person (a move, the lobby's start, kick...),
        made and sent to everyone, or refused (``RoomError``, ``UnoError``,
        ``StoreError``) with nothing changed.  Messages that change no room (ping,
        chat) are the session's."""
        server = self.server
        room = conn.room
        if server.rooms.get(room.code) is not room:
            raise RoomError("this room is gone", code="no_room")
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
                await self._change(room, conn.seat, msg)
                if isinstance(msg, (m.Start, m.Rematch)):
                    server.leases.want(room)  # this server drives the game it started
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

    async def join(
        self, room: Room, name: str, profile: tuple[str, str] | None = None
    ) -> tuple[Room, int, str]:
        """A person takes the room's first free seat (``POST /api/rooms/CODE/join``):
        stored, then everyone told; the room (maybe read again), the seat and its
        token.  Another server seating someone meanwhile: read the room, try again."""
        server = self.server
        server.check_store()
        async with server.locks[room.code]:
            for attempt in range(3):
                room = server.rooms.get(room.code, room)
                names = [s.name for s in room.seats if s is not None]
                refusal = m.name_refusal(name, names)
                if refusal is not None:
                    raise RoomError(refusal[1], code=refusal[0])
                try:
                    sit = functools.partial(Room.join, name=name, profile=profile)
                    seat, token = await server.commits.change(room, sit)
                    break
                except RoomChanged:
                    server.conflicts += 1
                    room = await server.refresh(room)
                    if attempt == 2:
                        raise
        server.broadcast(room)
        return room, seat, token

    async def due(self, room: Room, what: str, seat: int) -> bool:
        """What the room's own clock found due (``DUE``), with the room's lock held:
        made, stored under this server's lease in a cluster, and sent; False if there
        was nothing to do after all (a bot that let a chance go)."""
        server = self.server
        commits = server.commits
        if what == "bot":
            decided = room.bot_decide()
            if isinstance(decided, bool):
                acted = decided
            else:
                await commits.commit(room, *decided, None, driven=True)
                acted = True
        elif what == "autopilot":
            room.set_autopilot(seat, True)
            acted = True
        elif what == "timer":
            action = room.autopilot_decide(seat)
            if action is not None:
                await commits.commit(room, seat, action, None, driven=True)
            acted = action is not None
        elif what == "next_round":
            await commits.next_round(room, room.host, driven=True)
            acted = True
        else:
            raise ValueError(f"nothing called {what!r} is ever due")
        if acted:
            server.accepted += what != "autopilot"
            if what != "autopilot":
                ops.ACTIONS.inc()
            if server.rooms.get(room.code) is room:  # else read again and sent
                server.broadcast(room)
        return acted

    async def _change(self, room: Room, seat: int | None, msg: Any) -> None:
        server = self.server
        commits = server.commits
        if isinstance(msg, m.Act):
            began = time.perf_counter()
            await commits.mend(room)  # not checked against a half-applied copy
            action = action_from_wire(room.match.game if room.match else None, msg.action)
            room.prepare(seat, action, msg.version)
            assert seat is not None  # prepare refuses spectators
            await commits.commit(room, seat, action, msg.version, person=True)
            server.accepted += 1
            ops.ACTIONS.inc()
            if server.rooms.get(room.code) is room:  # else read again: everyone was sent it
                server.broadcast(room)
            ops.TURN_SECONDS.observe(time.perf_counter() - began)
            return
        if isinstance(msg, m.Start):
            await commits.change(room, lambda r: r.start(seat))
        elif isinstance(msg, m.AddBot):
            await commits.change(room, lambda r: r.add_bot(seat, msg.seat, msg.level))
        elif isinstance(msg, m.Kick):
            await commits.change(room, lambda r: r.kick(seat, msg.seat))
            for c in list(server.conns.get(room.code, ())):
                if c.seat == msg.seat:
                    c.send(err("kicked", "the host gave your seat to a bot"))
                    c.closed = True
                    with contextlib.suppress(asyncio.QueueFull):
                        c.queue.put_nowait(None)
        elif isinstance(msg, m.End):
            await commits.change(room, lambda r: r.end(seat))
        elif isinstance(msg, m.NextRound):
            await commits.next_round(room, seat)
        elif isinstance(msg, m.Rematch):
            await commits.change(room, lambda r: r.rematch(seat))
        elif isinstance(msg, m.SetRules):
            check_room_options(msg.preset, msg.options)
            rules = (msg.preset, msg.options, msg.timer)
            await commits.change(room, lambda r: r.set_rules(seat, *rules))
        elif isinstance(msg, m.WatchChat):
            await commits.change(room, lambda r: r.set_watch_chat(seat, msg.on))
        elif isinstance(msg, m.Ready):
            await commits.change(room, lambda r: r.set_ready(seat, msg.on))
        elif isinstance(msg, m.SetPublic):
            await commits.change(room, lambda r: r.set_public(seat, msg.on))
        else:
            raise RoomError("not a message this server understands", code="bad_message")
        if room.stale:  # made, but another server changed the row first: read it again
            room.stale = False
            await server.reload(room)
            return
        server.broadcast(room)
