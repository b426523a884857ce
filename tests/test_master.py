"""The master (``server/master.py``) by name, with no network: a server on an
in-memory store, connections that are only their queues of messages (issue 48 item 1).

What a player relies on: a move is stored before anyone is told of it; each
connection is told only its own seat's view; a refused move changes nothing and only
its sender hears of it; a bot's move (the room's own clock) takes the same way.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from unokit.engine.errors import IllegalAction
from unokit.engine.state import StaleVersion
from unokit.server import messages as m
from unokit.server.app import Server
from unokit.server.clock import frozen
from unokit.server.conns import Conn
from unokit.server.limits import Limits
from unokit.server.room import Room, RoomError
from unokit.server.store import MemoryStore

pytestmark = pytest.mark.asyncio


def conn(room: Room, seat: int | None) -> Conn:
    """A connection without a socket: what the server sends it waits in its queue."""
    return Conn(None, room, seat, f"10.0.0.{seat}")  # type: ignore[arg-type]


def told(c: Conn) -> list[dict[str, Any]]:
    """Everything sent to ``c`` since last asked."""
    out = []
    while not c.queue.empty():
        text = c.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


class Watching(MemoryStore):
    """A store that notes, at each write, how many messages the connections had been
    sent since they were last read: a move must be stored before anyone is told."""

    def __init__(self) -> None:
        super().__init__()
        self.conns: list[Conn] = []
        self.told_at_write: list[int] = []

    def append_at(self, rows: Any, holders: Any = ()) -> Any:
        self.told_at_write.append(sum(c.queue.qsize() for c in self.conns))
        return super().append_at(rows, holders)


async def table(bots: list[str | None]) -> tuple[Server, Room, list[Conn], Watching]:
    """A started room of Ana (seat 0, the host), Ben (seat 1, unless a bot) and the
    given bots, with a connection per person and one spectator's.  The room is in the
    server's memory but no driver task runs for it: the test asks the master itself."""
    store = Watching()
    server = Server(store, None, Limits(), commit="each")
    room, _ = Room.create(store, "Ana", "classic", {}, 1 + len(bots), bots, 0)
    if bots[0] is None:
        room.join("Ben")
    server.rooms[room.code] = room
    people = [0, 1] if bots[0] is None else [0]
    conns = [conn(room, s) for s in people] + [conn(room, None)]
    server.conns[room.code].update(conns)
    await server.master.submit(conns[0], m.Start(type="start"))
    for c in conns:
        told(c)
    store.conns = conns
    store.told_at_write.clear()
    return server, room, conns, store


def act(room: Room, seat: int, k: int = 0) -> m.Act:
    """``seat``'s ``k``-th legal action as the page sends it."""
    assert room.match is not None
    view = room.state_for(seat, 0)[0]["view"]
    return m.Act(type="act", version=room.match.version, action=view["legal"][k])


async def test_a_move_is_stored_then_each_connection_is_sent_its_own_view_only() -> None:
    server, room, (ana, ben, spec), store = await table([None])
    try:
        assert room.match is not None
        seat = room.match.next_to_ask()
        mover = ana if seat == 0 else ben
        before = len(store.log(room.code, 1))
        await server.master.submit(mover, act(room, seat))
        assert len(store.log(room.code, 1)) == before + 1 == room.log_len
        assert store.told_at_write == [0]  # stored before anyone was told
        game = room.match.game
        for c in (ana, ben, spec):
            states = [x for x in told(c) if x["type"] == "state"]
            assert states, f"seat {c.seat} was not told"
            view = states[-1]["view"]
            assert states[-1]["version"] == room.match.version
            if c.seat is None:
                assert not view["hand"]  # a spectator sees no hand
            else:
                assert sorted(view["hand"]) == sorted(game.face_code(f) for f in game.hands[c.seat])
            # the others' hands are counts, never cards
            assert view["hand_sizes"] == [len(h) for h in game.hands]
            assert "hands" not in states[-1]  # the round is not over
    finally:
        await server.close()


async def test_a_refused_move_changes_nothing_and_nobody_is_told() -> None:
    server, room, (ana, ben, spec), store = await table([None])
    try:
        assert room.match is not None
        seat = room.match.next_to_ask()
        assert seat is not None
        mover, other = (ana, ben) if seat == 0 else (ben, ana)
        version, log_len = room.match.version, len(store.log(room.code, 1))
        state = json.dumps(room.state_for(None, 0)[0], sort_keys=True)
        stale = act(room, seat)
        stale = m.Act(type="act", version=version + 1, action=stale.action)
        with pytest.raises(StaleVersion):
            await server.master.submit(mover, stale)
        not_yours = m.Act(type="act", version=version, action={"draw": True})
        with pytest.raises((IllegalAction, RoomError)):
            await server.master.submit(other, not_yours)
        with pytest.raises(RoomError):  # a spectator has no seat to act from
            await server.master.submit(spec, act(room, seat))
        assert room.match.version == version
        assert len(store.log(room.code, 1)) == log_len
        assert json.dumps(room.state_for(None, 0)[0], sort_keys=True) == state
        assert not any(told(c) for c in (ana, ben, spec))
    finally:
        await server.close()


async def test_the_rooms_own_clock_takes_the_same_way() -> None:
    """A bot's move, asked of the master as the driver asks it: stored, applied, and
    the person told, as a person's move is."""
    server, room, (ana, _), store = await table(["normal"])
    try:
        assert room.match is not None
        for _ in range(20):  # Ana plays until it is the bot's turn
            seat = room.match.next_to_ask()
            if seat == 1:
                break
            await server.master.submit(ana, act(room, 0))
        assert room.match.next_to_ask() == 1
        told(ana)
        before = len(store.log(room.code, 1))
        assert await server.master.due(room, "bot", 1)
        assert len(store.log(room.code, 1)) == before + 1 == room.log_len
        assert [x for x in told(ana) if x["type"] == "state"]
        if room.match.next_to_ask() == 0:  # Ana's turn now: no bot is due, nothing moves
            assert await server.master.due(room, "bot", 1) is False
            assert len(store.log(room.code, 1)) == before + 1
        with pytest.raises(ValueError):
            await server.master.due(room, "cheat", 1)
    finally:
        await server.close()


async def test_the_turn_timer_is_due_at_its_end_and_the_master_plays_the_turn() -> None:
    """The room's clock stopped (``clock.frozen``) and moved by hand: a person's turn
    timer of 15 s is due at 15 s, not a hundredth before; then the master plays that
    turn for them (stored like any move) and the next decision gets a fresh 15 s."""
    with frozen() as t:
        store = MemoryStore()
        server = Server(store, None, Limits(), commit="each")
        room, _ = Room.create(store, "Ana", "classic", {}, 2, [None], 15)
        room.join("Ben")
        room.start(0)  # not added to the server: no driver task runs, the test asks
        assert room.match is not None
        delay, what, seat = server.driver.due(room)
        assert what == "timer" and seat == room.match.next_to_ask()
        assert delay == pytest.approx(15.0)
        t.advance(14.99)
        assert server.driver.due(room)[0] == pytest.approx(0.01)
        assert room.clock() == {"seat": seat, "left": 0.0}
        t.advance(0.01)
        delay, what, due_seat = server.driver.due(room)
        assert delay == pytest.approx(0.0, abs=1e-9) and (what, due_seat) == ("timer", seat)
        before = len(store.log(room.code, 1))
        assert await server.master.due(room, "timer", seat)
        assert len(store.log(room.code, 1)) == before + 1 == room.log_len
        delay, what, nxt = server.driver.due(room)
        if not room.match.game.round_over:  # a one-card hand can end the round
            assert what == "timer" and delay == pytest.approx(15.0)
            assert nxt == room.match.next_to_ask()


async def test_a_store_call_that_hangs_holds_up_its_own_room_only() -> None:
    """Issue 48 item 3: with a store whose calls wait (PostgreSQL, or SQLite with
    fsyncs), every store call runs off the event loop.  Room X's start hangs inside the
    store (a database that stopped answering); meanwhile a move in room Y is stored,
    applied and sent, and X's start completes once the store answers."""

    class Hangs(MemoryStore):
        sync = "full"  # its calls wait: the server makes them in worker threads

        def __init__(self) -> None:
            super().__init__()
            self.code = ""
            self.entered = threading.Event()
            self.release = threading.Event()

        def put_room(self, row: Any, expect: int | None) -> bool:
            if row.code == self.code:
                self.entered.set()
                self.release.wait(30)
            return bool(super().put_room(row, expect))

    store = Hangs()
    server = Server(store, None, Limits(), commit="each")
    try:
        x, _ = Room.create(store, "Ana", "classic", {}, 2, [None], 0)
        x.join("Ben")
        y, _ = Room.create(store, "Cy", "classic", {}, 2, [None], 0)
        y.join("Di")
        y.start(0)
        for room in (x, y):
            server.add(room)
        ana, cy, di = conn(x, 0), conn(y, 0), conn(y, 1)
        server.conns[x.code].add(ana)
        server.conns[y.code].update((cy, di))
        store.code = x.code
        start = asyncio.create_task(server.master.submit(ana, m.Start(type="start")))
        assert await asyncio.to_thread(store.entered.wait, 10), "X's start never reached the store"
        assert y.match is not None
        seat = y.match.next_to_ask()
        assert seat is not None
        before = y.log_len
        await asyncio.wait_for(server.master.submit(cy if seat == 0 else di, act(y, seat)), 10)
        assert y.log_len == before + 1 and not start.done()  # Y moved while X waits
        assert [x_ for x_ in told(di) if x_["type"] == "state"]
        store.release.set()
        await asyncio.wait_for(start, 10)
        assert x.status == "playing"
    finally:
        store.release.set()
        await server.close()


async def test_a_join_takes_a_free_seat_and_a_taken_name_changes_nothing() -> None:
    store = MemoryStore()
    server = Server(store, None, Limits(), commit="each")
    room, _ = Room.create(store, "Ana", "classic", {}, 3, [None, None], 0)
    server.rooms[room.code] = room
    ana = conn(room, 0)
    server.conns[room.code].add(ana)
    room, seat, token = await server.master.join(room, "Ben")
    assert seat == 1 and room.seat_of(token) == 1
    assert any(x["type"] == "room" for x in told(ana))  # Ana sees Ben sit down
    row = json.dumps(store.load_room(room.code).data, sort_keys=True)  # type: ignore[union-attr]
    with pytest.raises(RoomError):
        await server.master.join(room, "ben")  # the same name, another case
    assert json.dumps(store.load_room(room.code).data, sort_keys=True) == row  # type: ignore[union-attr]
    assert room.seats[2] is None and not told(ana)
