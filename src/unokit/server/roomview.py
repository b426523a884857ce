"""What a room tells: the room message (seats, status, rules, commitments), each
seat's state message and the clocks a live table shows.  Functions of a ``RoomState``."""

from __future__ import annotations

from typing import Any

from unokit.server.clock import now as clock_now
from unokit.server.roomstate import RoomState
from unokit.server.statemsg import state_message

HISTORY = 60  # events a newcomer without a sequence number gets for the log


def public(room: RoomState, you: int | None) -> dict[str, Any]:
    """The room message: seats, status, rules, commitments (no secrets)."""
    now = clock_now()
    return {
        "type": "room",
        "code": room.code,
        "status": room.status,
        "host": room.host,
        "you": you,
        "game": room.game_no,
        "rules": {"preset": room.preset, "options": room.options},
        "timer": room.timer,
        "watch_chat": room.watch_chat,
        "public": room.is_public,
        "lang": room.lang,
        "seats": [
            None
            if s is None
            else {
                "seat": i,
                "name": s.name,
                "kind": s.kind,
                "level": s.level if s.kind == "bot" else None,
                "connected": s.kind == "bot" or s.connected > 0 or i in room.elsewhere,
                "away": round(now - s.away_since, 1)
                if s.kind == "person" and s.away_since is not None
                else None,
                "autopilot": i in room.autopilot,
                "ready": s.ready,
                "profile": s.profile or None,
                "color": s.color or None,
                "team": room.match.game.team_of(i)
                if room.match is not None and room.match.game.teams
                else None,
            }
            for i, s in enumerate(room.seats)
        ],
        "rounds": [rs.public(i) for i, rs in enumerate(room.rounds)],
    }


def state_for(room: RoomState, seat: int | None, since: int) -> tuple[dict[str, Any], int]:
    """The state message for ``seat``: its view and its events from ``since`` on
    (``statemsg.state_message``, as the replay viewer's frames), what the game's
    outcome is, and the clocks a live table shows.

    Returns the message and the sequence number to continue from.
    """
    match = room.match
    assert match is not None
    game = match.game
    msg, seq = state_message(game, seat, since, room.game_no, match.version, room.totals)
    msg["outcome"] = game.outcome().to_json()
    timer = clock(room)
    if timer is not None:
        msg["clock"] = timer
    if game.round_over and room.status == "playing":
        msg["next_round_in"] = next_round_in(room)
    return msg, seq


def clock(room: RoomState) -> dict[str, Any] | None:
    """The turn timer of the decision the room waits for, if a person (not a bot,
    not the autopilot) makes it: ``{"seat", "left"}``, seconds left as the server's
    driver counts them (``Driver.due``: from when that seat was asked)."""
    match = room.match
    timer = room.timing.turn_timer
    if not timer or match is None or room.status != "playing" or match.game.round_over:
        return None
    seat = match.next_to_ask()
    if seat is None or match.bots[seat] is not None:
        return None
    left = max(0.0, room.turn_at + timer - clock_now())
    return {"seat": seat, "left": round(left, 1)}


def next_round_in(room: RoomState) -> float:
    """Seconds before a finished round's next one starts by itself (``Driver.due``:
    ``timing.next_round`` while a person is connected, else 1 s)."""
    anyone = any(s is not None and s.kind == "person" and s.connected for s in room.seats)
    wait = room.timing.next_round if anyone else 1.0
    return round(max(0.0, room.changed_at + wait - clock_now()), 1)


def history_start(room: RoomState) -> int:
    events = room.match.game.events if room.match else None
    return max(0, len(events or []) - HISTORY)
