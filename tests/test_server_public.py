"""Finding a game (issue 49 item 3): public rooms listed on the home page, Quick play
that seats strangers together, and a room's link as a QR code.

The list is read from the store (every server of a cluster lists the same rooms; the
PostgreSQL query is tested in test_pgstore.py) and shows names and rules only: nothing
of a game, no token.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from server_helpers import Client, Harness, running
from unokit.server.clock import frozen
from unokit.server.limits import Limits
from unokit.server.store import MemoryStore, RoomRow

pytestmark = pytest.mark.asyncio

LISTED = {
    "code",
    "preset",
    "options",
    "timer",
    "lang",
    "host",
    "seats",
    "free",
    "people",
    "bots",
    "created",
}


def fresh(h: Harness) -> Harness:
    h.app.state.routes.fresh = 0.0  # every list read from the store again
    return h


async def listed(h: Harness) -> list[dict[str, Any]]:
    r = await h.get("/api/public")
    assert r.status_code == 200, r.text
    return list(r.json()["rooms"])


async def test_quick_play_seats_two_strangers_in_one_public_room() -> None:
    async with running() as h:
        ana = (await h.post("/api/quickplay", {"name": "Ana", "lang": "de"})).json()
        assert ana["created"] is True and ana["seat"] == 0 and ana["token"]
        ben = (await h.post("/api/quickplay", {"name": "Ben"})).json()
        assert ben["created"] is False and ben["code"] == ana["code"] and ben["seat"] == 1
        (room,) = await listed(fresh(h))
        assert set(room) == LISTED
        assert room["people"] == ["Ana", "Ben"] and room["free"] == 2 and room["lang"] == "de"
        # Ana is the host: she starts, the empty seats get bots, the room leaves the list
        host = await Client(f"{h.ws}/{ana['code']}", ana["token"]).connect()
        await host.send({"type": "start"})
        await host.wait(lambda: host.state is not None)
        assert await listed(h) == []
        # the next stranger is not seated in a game under way: a new public room
        cy = (await h.post("/api/quickplay", {"name": "Cy"})).json()
        assert cy["created"] is True and cy["code"] != ana["code"]
        await host.close()


async def test_the_list_shows_open_public_rooms_only_and_nothing_of_a_game() -> None:
    async with running() as h:
        fresh(h)
        private = await h.room(seats=2)
        full = await h.room(seats=2, public=True)
        await h.join(full["code"], "Ben")
        open_ = await h.room(seats=3, bots=["hard"], public=True, lang="fr", timer=30)
        rooms = await listed(h)
        assert [r["code"] for r in rooms] == [open_["code"]]
        (room,) = rooms
        assert room["host"] == "Ana" and room["people"] == ["Ana"] and room["bots"] == 1
        assert (room["seats"], room["free"], room["timer"], room["lang"]) == (3, 1, 30, "fr")
        text = json.dumps(rooms)
        for secret in (private["code"], full["token"], open_["token"], "token"):
            assert secret not in text
        # a room's own message says whether it is public (the lobby's switch shows it)
        info = (await h.get(f"/api/rooms/{open_['code']}")).json()
        assert info["public"] is True and info["lang"] == "fr"
        assert (await h.get(f"/api/rooms/{private['code']}")).json()["public"] is False


async def test_only_the_host_makes_a_room_public_and_a_refusal_changes_nothing() -> None:
    async with running() as h:
        fresh(h)
        made = await h.room(seats=3)
        ben = await h.join(made["code"], "Ben")
        guest = await Client(f"{h.ws}/{made['code']}", ben["token"]).connect()
        await guest.send({"type": "public", "on": True})
        await guest.wait(lambda: bool(guest.errors))
        assert guest.errors[-1]["code"] == "not_host"
        assert await listed(h) == []
        for bad in (
            {"type": "public", "on": "yes"},
            {"type": "public"},
            {"type": "public", "on": True, "x": 1},
        ):
            await guest.send(bad)
        await guest.wait(lambda: len(guest.errors) == 4)
        assert {e["code"] for e in guest.errors[1:]} == {"bad_message"}
        host = await Client(f"{h.ws}/{made['code']}", made["token"]).connect()
        await host.send({"type": "public", "on": True})
        await host.wait(lambda: host.room is not None and host.room["public"] is True)
        assert [r["code"] for r in await listed(h)] == [made["code"]]
        (row,) = [r for r in h.server.store.load_rooms() if r.code == made["code"]]
        assert row.data["public"] is True  # stored: the list survives a restart
        await host.send({"type": "public", "on": False})
        await host.wait(lambda: host.room is not None and host.room["public"] is False)
        assert await listed(h) == []
        await guest.close()
        await host.close()


async def test_quick_play_picks_the_fullest_room_of_the_game_in_the_players_language() -> None:
    async with running() as h:
        fresh(h)
        flip = await h.room(seats=4, public=True, preset="flip")
        lone_en = await h.room(seats=4, public=True)
        two_en = await h.room(seats=4, public=True)
        await h.join(two_en["code"], "Ben")
        two_es = await h.room(seats=4, public=True, lang="es")
        await h.join(two_es["code"], "Bea")
        dan = (await h.post("/api/quickplay", {"name": "Dan"})).json()
        assert dan["code"] == two_en["code"]
        eva = (await h.post("/api/quickplay", {"name": "Eva", "lang": "es"})).json()
        assert eva["code"] == two_es["code"]
        fay = (await h.post("/api/quickplay", {"name": "Fay", "preset": "flip"})).json()
        assert fay["code"] == flip["code"]
        # someone of that name sits in the best room: the next one
        ben = (await h.post("/api/quickplay", {"name": "ben"})).json()
        assert ben["code"] == lone_en["code"]


async def test_quick_play_refuses_bad_input_and_makes_nothing() -> None:
    async with running() as h:
        before = len(h.server.store.load_rooms())
        for body, code in [
            ({"name": "Ana", "preset": "nope"}, "bad_preset"),
            ({"name": "Ana", "lang": "xx"}, "bad_request"),
            ({"name": "Ana (bot)"}, "name_reserved"),
            ({"name": ""}, "bad_request"),
            ({"name": "Ana", "seats": 3}, "bad_request"),
            ([1, 2], "bad_request"),
        ]:
            r = await h.post("/api/quickplay", body)
            assert r.status_code == 400 and r.json()["code"] == code, (body, r.text)
        assert len(h.server.store.load_rooms()) == before
        assert h.server.errors == 0


class Counting(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def public_rooms(self, limit: int = 200) -> list[RoomRow]:
        self.reads += 1
        return super().public_rooms(limit)


async def test_the_list_cannot_be_flooded() -> None:
    """One address: a few lists a minute; every address together: one store read a
    second (LIST_FRESH), however many pages ask.  The rooms' clock stands still, so the
    six requests fall within one second however slowly a loaded machine serves them
    (they took more than a second once beside the flake hunt: two reads)."""
    store = Counting()
    limits = Limits(messages_per_second=10_000, lists_per_address_per_minute=5)
    with frozen():
        async with running(store, limits=limits) as h:
            for _ in range(5):
                assert (await h.get("/api/public")).status_code == 200
            r = await h.get("/api/public")
            assert r.status_code == 429 and r.json()["code"] == "rate_limited"
            assert store.reads == 1  # five answers within the second, one read


async def test_a_rooms_link_as_a_qr_code() -> None:
    async with running() as h:
        made = await h.room()
        r = await h.get(f"/api/rooms/{made['code']}/qr.svg")
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
        assert r.text.startswith("<svg") and 'class="qr"' in r.text
        r = await h.get("/api/rooms/ZZZZZZ/qr.svg")
        assert r.status_code == 404 and r.json()["code"] == "no_room"


async def test_the_ready_check_shows_who_is_ready_and_asks_again_each_game() -> None:
    async with running() as h:
        made = await h.room(seats=3)
        ben = await h.join(made["code"], "Ben")
        url = f"{h.ws}/{made['code']}"
        host = await Client(url, made["token"]).connect()
        guest = await Client(url, ben["token"]).connect()
        watcher = await Client(url).connect()

        def ready(c: Client) -> list[bool]:
            assert c.room is not None
            return [bool(s and s["ready"]) for s in c.room["seats"]]

        await guest.send({"type": "ready", "on": True})
        await host.wait(lambda: ready(host) == [False, True, False])
        await watcher.wait(lambda: ready(watcher) == [False, True, False])
        # a spectator has no seat to be ready in: refused, nothing changed
        await watcher.send({"type": "ready", "on": True})
        await watcher.wait(lambda: bool(watcher.errors))
        assert watcher.errors[-1]["code"] == "no_seat"
        (row,) = [r for r in h.server.store.load_rooms() if r.code == made["code"]]
        assert [bool(s and s.get("ready")) for s in row.data["seats"]] == [False, True, False]
        await host.send({"type": "ready", "on": True})
        await host.wait(lambda: ready(host) == [True, True, False])
        await host.send({"type": "start"})
        await host.wait(lambda: host.room is not None and host.room["status"] == "playing")
        assert ready(host) == [False, False, False]  # asked again before the next game
        await guest.send({"type": "ready", "on": True})
        await guest.wait(lambda: bool(guest.errors))
        assert guest.errors[-1]["code"] == "room_started"
        for c in (host, guest, watcher):
            await c.close()


async def test_quick_play_passes_over_a_lobby_whose_host_left() -> None:
    async with running() as h:
        fresh(h)
        gone = (await h.post("/api/quickplay", {"name": "Ana"})).json()
        host = await Client(f"{h.ws}/{gone['code']}", gone["token"]).connect()
        await host.close()  # the host closed the tab: only the host can start it
        await host_left(h, gone["code"])
        assert await listed(h) == []
        ben = (await h.post("/api/quickplay", {"name": "Ben"})).json()
        assert ben["created"] is True and ben["code"] != gone["code"]


async def host_left(h: Harness, code: str) -> None:
    room = h.server.rooms[code]
    for _ in range(1000):  # a guard only: a loaded machine may take a moment
        if room.seats[room.host].connected == 0 and room.seats[room.host].away_since is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the server did not see the host's connection close")


async def test_ready_toggles_are_rate_limited_and_a_bad_preset_uses_no_quota() -> None:
    limits = Limits(
        messages_per_second=10_000, ready_per_10_seconds=4, joins_per_address_per_minute=2
    )
    async with running(limits=limits) as h:
        for _ in range(3):  # refused before any allowance is counted
            r = await h.post("/api/quickplay", {"name": "Ana", "preset": "nope"})
            assert r.status_code == 400 and r.json()["code"] == "bad_preset"
        made = (await h.post("/api/quickplay", {"name": "Ana"})).json()
        host = await Client(f"{h.ws}/{made['code']}", made["token"]).connect()
        room = h.server.rooms[made["code"]]
        rev = room.rev  # one more for each stored save of the room
        for i in range(8):
            await host.send({"type": "ready", "on": i % 2 == 0})
        # a connection's messages are taken in order: the fifth is refused once the
        # first four are stored, and so are the rest
        await host.wait(lambda: any(e["code"] == "rate_limited" for e in host.errors))
        assert room.rev - rev == 4, room.rev - rev
        await host.close()
