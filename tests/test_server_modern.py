"""UNO Flip! and No Mercy on the server (issue 38 item 4): rooms play them, the log
replays them, the lobby lists them, and a connection is told only its own seat's view.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from pathlib import Path

import pytest

from server_helpers import Client, bare_server, running, self_step
from test_modern_properties import _flip_hidden_dealt_again
from unokit.engine import FlipGame
from unokit.engine.errors import ActionParseError
from unokit.server.app import Server
from unokit.server.options import rules_json
from unokit.server.room import Room, action_from_wire
from unokit.server.store import MemoryStore


def _room(preset: str, seats: int = 4) -> tuple[Room, MemoryStore]:
    store = MemoryStore()
    bots = ["hard", "normal", "easy", "easy", "easy"][: seats - 1]
    room, _ = Room.create(store, "Ana", preset, {}, seats, list(bots), 0)
    room.start(0)
    room.set_autopilot(0, True)  # the host's seat is played too
    return room, store


def _play(room: Room, steps: int) -> None:
    """``steps`` of the room's own decisions (bots, the autopilot, next rounds) through
    the server's commit path, each stored before it is applied."""
    assert room.store is not None
    asyncio.run(_steps(bare_server(room.store), room, steps))


async def _steps(server: Server, room: Room, steps: int) -> None:
    for _ in range(steps):
        if room.status == "over":
            return
        assert await self_step(server, room)


@pytest.mark.parametrize("preset", ["flip", "no-mercy"])
def test_a_modern_room_plays_and_its_log_rebuilds_the_same_game(preset: str) -> None:
    """Bots play a modern game through the room (log entries in the game's own codes);
    a room read back from the store (a restart) holds the same game, and plays on."""
    room, store = _room(preset)
    _play(room, 400)
    assert room.match is not None
    game = room.match.game
    assert game.round_index >= 0 and room.log_len > 10
    row = store.load_room(room.code)
    assert row is not None
    again = Room.restore(row, store)
    assert again.match is not None
    assert json.dumps(again.match.game.state_json()) == json.dumps(game.state_json())
    assert again.match.version == room.match.version
    view = room.state_for(1, 0)[0]["view"]
    assert view["game"] == preset
    again.set_autopilot(0, True)
    _play(again, 50)


def test_a_client_names_flip_faces_and_nothing_else() -> None:
    """The action a client sends is read with the room's game's codes; a classic code
    the deck lacks, a seat in the action, or junk is refused (ActionParseError)."""
    room, _ = _room("flip")
    assert room.match is not None
    game = room.match.game
    assert action_from_wire(game, {"play": "T+5"}) is not None  # a dark face
    assert action_from_wire(game, {"play": "W+C", "color": "P"}) is not None
    for bad in ({"play": "W+4"}, {"play": "R7", "seat": 1}, {"play": "R7", "color": "Q"}, [1]):
        with pytest.raises(ActionParseError):
            action_from_wire(game, bad)


def test_the_lobby_lists_both_modern_games_and_their_options() -> None:
    r = rules_json()
    games = {p["name"]: p for p in r["presets"]}
    assert games["flip"]["game"] == "flip" and games["no-mercy"]["players"] == [2, 6]
    opts = {o["name"]: o for o in r["options"]}
    assert opts["flip_start"]["choices"] == ["redraw", "flip"]
    assert opts["flip_start"]["games"] == ["flip"]
    assert opts["mercy_limit"]["games"] == ["no-mercy"]
    assert "no-mercy" not in opts["stacking"]["games"]  # No Mercy stacks its own way
    assert opts["uno_penalty"]["games"] == ["classic", "flip", "no-mercy"]


def test_a_flip_connection_gets_the_same_bytes_whatever_it_cannot_see() -> None:
    """The state message of each seat (view, legal actions, outcome) is built from what
    that seat may see (FLIP-VIEW-1..3): the other faces of its own cards, the seen
    faces of opponents' cards, the draw pile below its top and the discard pile under
    its top are dealt again at random, at points of a whole game, and not one byte
    changes.  Each seat's message differs from the others' (it is its own view)."""
    rng = random.Random(7)
    room, _ = _room("flip")
    assert room.match is not None
    checked = steps = 0
    while checked < 120 and steps < 20_000:
        if room.status == "over":
            room.rematch(0)
            room.set_autopilot(0, True)
        game = room.match.game
        if game.round_over:
            _play(room, 1)  # the next round
            continue
        _play(room, 1)
        steps += 1
        if steps % 3 or game.round_over:  # a finished round shows every hand
            continue
        assert isinstance(game, FlipGame)
        frames = []
        for seat in range(game.n):
            real = json.dumps(room.state_for(seat, 0)[0], sort_keys=True)
            frames.append(real)
            state = room.match.state
            other = _flip_hidden_dealt_again(game, seat, rng)
            other.events = game.events
            room.match.state = dataclasses.replace(state, game=other)
            try:
                again = json.dumps(room.state_for(seat, 0)[0], sort_keys=True)
            finally:
                room.match.state = state
            assert again == real, (seat, steps)
            checked += 1
        assert len(set(frames)) == game.n


def test_the_flip_no_leak_check_can_fail() -> None:
    """Changing what a seat does see (an opponent's seen face) changes its message."""
    room, _ = _room("flip")
    assert room.match is not None
    _play(room, 3)
    game = room.match.game
    assert isinstance(game, FlipGame)
    before = json.dumps(room.state_for(0, 0)[0], sort_keys=True)
    other = _flip_hidden_dealt_again(game, 0, random.Random(1))
    other.events = game.events
    seen = 1 - other.side  # seat 0 sees the inactive faces of seat 1's cards
    card = other.hands[1][0]
    pair = list(other.pairs[card])
    pair[seen] = next(f for f in (other.pairs[c][seen] for c in other.pile) if f != pair[seen])
    other.pairs[card] = (pair[0], pair[1])
    state = room.match.state
    room.match.state = dataclasses.replace(state, game=other)
    try:
        after = json.dumps(room.state_for(0, 0)[0], sort_keys=True)
    finally:
        room.match.state = state
    assert after != before


# ----------------------------------------------- each game's options (issue 47) ----
def test_the_lobby_sends_each_games_descriptor_and_the_options_it_plays() -> None:
    """``/api/rules`` carries every game's descriptor (``games``): the page's form offers
    a game's ``options`` and nothing else, and its table reads the game's words there
    instead of comparing game names; each option's ``games`` agrees with them."""
    r = rules_json()
    games = r["games"]
    assert set(games) == {"classic", "flip", "no-mercy"}
    assert "seven_zero" in games["classic"]["options"]
    assert "stacking" in games["classic"]["options"]
    for name in ("seven_zero", "stacking", "stack_draw4_on_draw2", "deck"):
        assert name not in games["flip"]["options"]
    assert "flip_start" in games["flip"]["options"]
    for o in r["options"]:
        assert o["games"] == [g for g, d in games.items() if o["name"] in d["options"]]
    assert games["classic"]["prompts"] == {
        "start_color": "start_wild",
        "challenge": "wild_draw_four",
    }
    assert games["flip"]["prompts"] == {"start_color": "top_wild", "challenge": "wild_draw"}
    assert games["no-mercy"]["prompts"] == {"start_color": "roulette", "challenge": None}
    assert [games[g]["draw"] for g in games] == ["one", "one", "until_playable"]
    assert [games[g]["out"] for g in games] == ["eliminated", "eliminated", "knocked_out"]


def test_the_pages_test_descriptors_are_the_servers() -> None:
    """tests/js/games.json, the descriptors the page's unit tests render with, is what
    the server sends (the keys the page reads), so those tests test the real words."""
    fixture = json.loads((Path(__file__).parent / "js" / "games.json").read_text())
    games = rules_json()["games"]
    assert set(fixture) == set(games)
    for name, d in fixture.items():
        assert d == {k: games[name][k] for k in d}, name


@pytest.mark.asyncio
async def test_a_flip_room_with_seven_zero_is_refused_and_nothing_is_created() -> None:
    """A Flip room asked for seven-zero and progressive stacking (classic house rules
    Flip does not play) is refused with an error that names the game and both options;
    no room is made or stored.  It used to be made as "flip (no house rules)" by a page
    that dropped them.  The same rules sent by a host in the lobby change nothing."""
    store = MemoryStore()
    async with running(store) as h:
        body = {
            "name": "Ana", "seats": 3, "bots": ["normal", "normal"], "preset": "flip",
            "options": {"seven_zero": True, "stacking": "progressive"},
        }  # fmt: skip
        r = await h.post("/api/rooms", body)
        assert r.status_code == 400, r.text
        err = r.json()
        assert err["code"] == "bad_option"
        assert "UNO Flip! does not play these house rules: seven_zero, stacking" in err["message"]
        assert h.server.rooms == {} and store.load_rooms() == []
        # an option at its default asks for nothing; Flip's own options are taken
        ok = await h.room(preset="flip", options={"seven_zero": False, "flip_start": "flip"})
        room = h.server.rooms[ok["code"]]
        assert room.rules.flip_start == "flip" and not room.rules.seven_zero
        # the host of a classic room asks for Flip with seven-zero: refused, unchanged
        classic = await h.room(seats=2, bots=[None], options={"seven_zero": True})
        ana = await Client(f"{h.ws}/{classic['code']}", classic["token"]).connect()
        await ana.send({"type": "rules", "preset": "flip", "options": {"seven_zero": True}})
        await ana.wait(lambda: bool(ana.errors))
        assert ana.errors[-1]["code"] == "bad_option"
        assert "UNO Flip! does not play this house rule: seven_zero" in ana.errors[-1]["message"]
        mine = h.server.rooms[classic["code"]]
        assert (mine.preset, mine.options) == ("classic", {"seven_zero": True})
        await ana.close()
