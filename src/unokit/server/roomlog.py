"""A room's storage and its game's log: the row, log entries stored at the next index,
all-or-nothing changes, and the finished game's record.  The bottom of the room's jobs:
functions of a ``RoomState`` that call no other job (``lobby`` and ``play`` call them;
``room.Room`` hands its methods to them)."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import Iterator
from typing import Any

from unokit.engine.actions import Action
from unokit.engine.family import Game
from unokit.match import Timing
from unokit.record import dumps
from unokit.server.roomerrors import RoomChanged
from unokit.server.roomstate import RoomState
from unokit.server.store import RoomRow, StoreError

log = logging.getLogger("unokit.server")


def room_timing(base: Timing | None, timer: int) -> Timing:
    """The server's timing with this room's turn timer (0: off)."""
    return dataclasses.replace(base or Timing(), turn_timer=float(timer) if timer else None)


def act_entry(seat: int, action: Action, game: Game | None = None) -> dict[str, Any]:
    """An action's log entry (what ``play.rebuild`` replays), in the game's codes."""
    return {"t": "act", "a": game.action_json(action, seat) if game else action.to_json(seat)}


def action_from_entry(game: Game, obj: Any) -> tuple[int, Action]:
    """A log entry's (or a record's) action object for ``game``: the seat and action."""
    return game.action_from_json(obj)


def action_from_wire(game: Game | None, obj: Any) -> Action:
    """A client's action object (no seat: the connection says it), read with the
    codes of the room's game; ActionParseError if malformed."""
    return Action.from_wire(obj) if game is None else game.action_from_wire(obj)


def to_row(room: RoomState) -> RoomRow:
    return RoomRow(
        room.code,
        {
            "preset": room.preset,
            "options": room.options,
            "seats": [s.to_row() if s else None for s in room.seats],
            "timer": room.timer,
            "host": room.host,
            "status": room.status,
            "watch_chat": room.watch_chat,
            "public": room.is_public,
            "lang": room.lang,
            "game": room.game_no,
            "game_seed": room.game_seed,
            "created": room.created,
            "rev": room.rev,
        },
    )


def save(room: RoomState) -> None:
    """Store the room's metadata, if nobody else changed it since this server read
    it (``RoomChanged`` otherwise: the caller's ``_all_or_nothing`` undoes it)."""
    if room.store is None:
        return
    if room.finish_pending and room.status == "over" and room.match is not None:
        room.store.save_record(room.code, room.game_no, dumps(room.match.game))
        count_game(room)  # a finished game counts whichever save gets it stored
        room.finish_pending = False
    row = to_row(room)
    row.data["rev"] = room.rev + 1
    if not room.store.put_room(row, room.rev if room.stored else None):
        raise RoomChanged()
    room.rev += 1
    room.stored = True


@contextlib.contextmanager
def all_or_nothing(room: RoomState) -> Iterator[None]:
    """Undo every change to the room if the block raises (the store failed, say).

    A join, a start or a kick the store could not keep must leave the room as it
    was: the seat free, the lobby open, the player seated.
    """
    saved = (
        [dataclasses.replace(s) if s else None for s in room.seats],
        room.status,
        room.game_no,
        room.game_seed,
        room.dealer,
        room.match,
        list(room.rounds),
        set(room.autopilot),
        dict(room._bots),
        room.log_len,
        [list(t) for t in room.totals],
    )
    kinds = (list(room.match.kinds), list(room.match.bots)) if room.match else None
    try:
        yield
    except BaseException:
        room.unsent.clear()
        (
            seats, room.status, room.game_no, room.game_seed, room.dealer,
            room.match, room.rounds, room.autopilot, room._bots, room.log_len,
            room.totals,
        ) = saved  # fmt: skip
        for i, old in enumerate(seats):  # keep connection counts, restore the rest
            cur = room.seats[i] if i < len(room.seats) else None
            if old is not None and cur is not None:
                old.connected, old.away_since = cur.connected, cur.away_since
        room.seats = seats
        if room.match is not None and kinds is not None:
            room.match.kinds, room.match.bots = kinds
        raise


def save_after_entry(room: RoomState) -> None:
    """Save the row after a change whose log entry is already stored: the change
    stands whatever happens here.  A lost race (another server changed the row)
    marks the room ``stale`` (the server reads it again, log included); a store
    failure leaves the row behind until the room's next save (the log has it)."""
    try:
        save(room)
    except RoomChanged:
        room.stale = True
    except StoreError as e:
        log.warning("room %s: the row could not be saved after its change: %s", room.code, e)


def finish_or_later(room: RoomState) -> None:
    """Finish a game whose end is committed (its last move, or the host's end entry):
    over whatever the store says now.  If its record or row cannot be saved, it is
    saved later (``finish_pending``: before the room's next save, by the lease loop,
    or when a room is read again from the log)."""
    try:
        finish(room)
        room.finish_pending = False
    except (StoreError, RoomChanged) as e:
        log.warning("room %s: the finished game could not be saved yet: %s", room.code, e)
        over_unsaved(room)


def over_unsaved(room: RoomState) -> None:
    """The game's end is committed: it is over here, its record and row saved later
    (``save_finished``)."""
    room.status = "over"
    for rs in room.rounds:
        rs.revealed = True
    room.finish_pending = True
    room.touch()


def save_finished(room: RoomState) -> None:
    """Save a finished game that could not be saved when it ended (``StoreError``
    or ``RoomChanged`` if it still cannot)."""
    if not room.finish_pending:
        return
    if room.store is not None and room.match is not None:
        room.store.save_record(room.code, room.game_no, dumps(room.match.game))
        count_game(room)
    row_saved = False
    if room.store is not None:
        row = to_row(room)
        row.data["rev"] = room.rev + 1
        row_saved = room.store.put_room(row, room.rev if room.stored else None)
        if not row_saved:
            raise RoomChanged()
        room.rev += 1
        room.stored = True
    room.finish_pending = False


def finish(room: RoomState) -> None:
    room.status = "over"
    for rs in room.rounds:
        rs.revealed = True
    if room.store is not None and room.match is not None:
        room.store.save_record(room.code, room.game_no, dumps(room.match.game))
        count_game(room)
    save(room)
    room.touch()


def count_game(room: RoomState) -> None:
    """Count a game played to its end for the profiles that played it, and rate it
    when two or more did (``Store.count_game``: once, whoever saves it)."""
    assert room.store is not None and room.match is not None
    g = room.match.game
    if not g.game_over:
        return  # ended by the host, no winner: it counts nowhere
    out = g.outcome()
    results: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, s in enumerate(room.seats):
        if s is None or s.kind != "person" or not s.profile or s.profile in seen:
            continue
        seen.add(s.profile)
        # a team's under team scoring (``team_of`` names a side even without teams)
        points = out.scores[g.team_of(i) if g.teams else i]
        results.append(
            {"profile": s.profile, "seat": i, "won": i in out.winning_seats, "points": points}
        )
    if not results:
        return
    at = time.time()
    for r in results:
        r.update(rated=len(results) >= 2, players=len(room.seats), at=at)
    room.store.count_game(room.code, room.game_no, results)


def log_entry(room: RoomState, entry: dict[str, Any]) -> None:
    """Store ``entry`` at the game log's next index (``RoomChanged`` if another
    server stored one there first)."""
    store_entry(room, entry)
    stored_entry(room, entry)


def store_entry(room: RoomState, entry: dict[str, Any]) -> None:
    stored = (
        room.store is None
        or room.store.append_at([(room.code, room.game_no, room.log_len, entry)])[0]
    )
    if not stored:
        raise RoomChanged()


def stored_entry(room: RoomState, entry: dict[str, Any]) -> None:
    """``entry`` is in the store at index ``log_len``: count it, and keep it for the
    cluster's other servers."""
    room.log_len += 1
    room.unsent.append(entry)
