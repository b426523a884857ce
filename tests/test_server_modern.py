"""UNO Flip! and No Mercy on the server (issue 38 item 4): rooms play them, the log
replays them, the lobby lists them, and a connection is told only its own seat's view.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from test_modern_properties import _flip_hidden_dealt_again
from unokit.engine import FlipGame
from unokit.engine.errors import ActionParseError
from unokit.server.app import rules_json
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
    for _ in range(steps):
        if room.status == "over":
            return
        assert room.match is not None
        if room.match.game.round_over:
            room.next_round(0)
            continue
        assert room.bot_step()


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
            room.next_round(0)
            continue
        assert room.bot_step()
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
