"""A room's seats and the host's choices: joining, bots, kicks, the rules, ready,
public, spectators' chat, the autopilot of an away player.  Functions of a
``RoomState``; they call ``roomlog`` to store, never ``play`` (``room.Room`` hands its
methods to them)."""

from __future__ import annotations

import dataclasses
import hmac
from typing import Any

from unokit.match import SeatKind
from unokit.rules import from_preset
from unokit.server import roomlog
from unokit.server.clock import now as clock_now
from unokit.server.messages import looks_like
from unokit.server.roomerrors import RoomError
from unokit.server.roomstate import RoomState
from unokit.server.seats import Seat, bot_base, bot_name, make_bot, new_token, token_hash


def seat_of(room: RoomState, token: str | None) -> int | None:
    """The seat ``token`` holds here, comparing hashes in constant time."""
    if not token:
        return None
    h = token_hash(token)
    found = None
    for i, s in enumerate(room.seats):
        if s is not None and s.token_hash and hmac.compare_digest(s.token_hash, h):
            found = i
    return found


def join(room: RoomState, name: str, profile: tuple[str, str] | None = None) -> tuple[int, str]:
    """Take the first empty seat (lobby only); returns the seat and its token.
    ``profile``: the person's profile (id, colour), whose stats the game counts for."""
    if room.status != "lobby":
        raise RoomError("the game has started: you can watch", code="room_started")
    if any(s is not None and s.name.lower() == name.lower() for s in room.seats):
        raise RoomError(f"someone here is already called {name}", code="name_taken")
    if profile and any(s is not None and s.profile == profile[0] for s in room.seats):
        raise RoomError("this profile already has a seat here", code="profile_seated")
    for i, s in enumerate(room.seats):
        if s is None:
            token = new_token()
            with roomlog.all_or_nothing(room):
                sat = Seat(name, "person", token_hash=token_hash(token))
                if profile:
                    sat.profile, sat.color = profile
                room.seats[i] = sat
                # a bot was named before this person came: "Ben" (or "Bén") beside
                # "Ben (bot)" reads as one person twice in the log, so the bot takes
                # another name
                for j, b in enumerate(room.seats):
                    bot = b is not None and b.kind == "bot"
                    if b is not None and bot and looks_like(name, bot_base(b.name)):
                        b.name = bot_name(room.seats, j)
                roomlog.save(room)
            room.touch()
            return i, token
    raise RoomError("the room is full: you can watch", code="room_full")


def add_bot(room: RoomState, by: int | None, seat: int, level: str) -> None:
    host_only(room, by)
    if room.status != "lobby":
        raise RoomError("bots are added before the game starts", code="room_started")
    if not 0 <= seat < len(room.seats):
        raise RoomError(f"there is no seat {seat}", code="bad_seat")
    if room.seats[seat] is not None:
        raise RoomError(f"seat {seat} is taken", code="seat_taken")
    with roomlog.all_or_nothing(room):
        room.seats[seat] = Seat(bot_name(room.seats, seat), "bot", level)
        roomlog.save(room)
    room.touch()


def kick(room: RoomState, by: int | None, seat: int) -> None:
    """The host removes a seat's occupant; in a game a bot takes the seat over."""
    host_only(room, by)
    if not 0 <= seat < len(room.seats) or room.seats[seat] is None:
        raise RoomError(f"seat {seat} is empty", code="bad_seat")
    if seat == room.host:
        raise RoomError("the host cannot kick themself", code="bad_seat")
    if room.status == "lobby":
        with roomlog.all_or_nothing(room):
            room.seats[seat] = None
            roomlog.save(room)
        room.touch()
        return
    s = room.seats[seat]
    assert s is not None
    roomlog.log_entry(room, {"t": "seat", "seat": seat, "kind": "bot"})  # refused: nothing changed
    # the kick is made once its entry is stored (a room read again from the log
    # applies it): a failed save of the row after it does not undo it
    s.kind = "bot"
    s.token_hash = ""
    room.autopilot.discard(seat)
    set_seat_kind(room, seat, "bot")
    roomlog.save_after_entry(room)
    room.touch()


def host_only(room: RoomState, by: int | None) -> None:
    if by != room.host:
        raise RoomError("only the host may do that", code="not_host")


def set_seat_kind(room: RoomState, seat: int, kind: str) -> None:
    s = room.seats[seat]
    assert s is not None
    s.kind = kind
    if kind == "bot":  # the person's profile leaves with them: the bot's games are not theirs
        s.profile = s.color = ""
    if room.match is None:
        return
    if kind == "bot":
        bot = room._bots.get(seat) or make_bot(s.level, room.game_seed + seat, room.rules)
        room._bots[seat] = bot
        room.match.set_bot(seat, bot, SeatKind.BOT)


def connected(room: RoomState, seat: int, delta: int) -> None:
    s = room.seats[seat]
    if s is None:
        return
    s.connected = max(0, s.connected + delta)
    if s.connected == 0:
        s.away_since = clock_now()
    else:
        s.away_since = None
        set_autopilot(room, seat, False)
    room.touch()


def set_autopilot(room: RoomState, seat: int, on: bool) -> None:
    """A person's seat is played by the heuristic bot while they are away."""
    s = room.seats[seat]
    if s is None or s.kind != "person" or room.match is None:
        return
    if on and seat not in room.autopilot:
        room.autopilot.add(seat)
        bot = room._bots.get(seat) or make_bot("hard", room.game_seed + seat, room.rules)
        room._bots[seat] = bot
        room.match.set_bot(seat, bot, SeatKind.AUTOPILOT)
        room.touch()  # the room message shows it
    elif not on and seat in room.autopilot:
        room.autopilot.discard(seat)
        room.match.set_bot(seat, None, SeatKind.REMOTE)
        room.touch()


def set_rules(
    room: RoomState, by: int | None, preset: str, options: dict[str, Any], timer: int
) -> None:
    """The host changes the rules and the turn timer in the lobby (before the first
    game, or back from a finished one); ``RulesError`` for rules that cannot be, or
    that do not allow this many seats."""
    host_only(room, by)
    if room.status != "lobby":
        raise RoomError("the rules change in the lobby only", code="room_started")
    rules = from_preset(preset, options)
    rules.check_players(len(room.seats))
    before = (room.preset, room.options, room.rules, room.timer, room.timing)
    room.preset, room.options, room.rules, room.timer = preset, dict(options), rules, timer
    room.timing = dataclasses.replace(room.timing, turn_timer=float(timer) if timer else None)
    try:
        roomlog.save(room)
    except BaseException:
        room.preset, room.options, room.rules, room.timer, room.timing = before
        raise
    room.touch()


def set_ready(room: RoomState, by: int | None, on: bool) -> None:
    """A person seated in the lobby says they are ready to start, or not yet: the
    host sees who is before pressing Start (issue 49 item 3)."""
    if by is None:
        raise RoomError("only a player seated here can be ready", code="no_seat")
    if room.status != "lobby":
        raise RoomError("the game has started", code="room_started")
    seat = room.seats[by]
    assert seat is not None  # a seat with a token is taken
    with roomlog.all_or_nothing(room):
        seat.ready = on
        roomlog.save(room)
    room.touch()


def set_public(room: RoomState, by: int | None, on: bool) -> None:
    """The host lists the room on the home page, or takes it off (issue 49)."""
    host_only(room, by)
    before = room.is_public
    room.is_public = on
    try:
        roomlog.save(room)
    except BaseException:
        room.is_public = before
        raise
    room.touch()


def set_watch_chat(room: RoomState, by: int | None, on: bool) -> None:
    """The host lets spectators chat, or not (issue 36 item 16)."""
    host_only(room, by)
    before = room.watch_chat
    room.watch_chat = on
    try:
        roomlog.save(room)
    except BaseException:
        room.watch_chat = before
        raise
    room.touch()


def to_lobby(room: RoomState, by: int | None) -> None:
    """The host takes a finished game's room back to the lobby: the seats stay as
    they are, and the host may remove a bot (a player whose seat went to a bot can
    then take a seat again), add bots, and start the next game.  The finished
    game's record stays downloadable."""
    host_only(room, by)
    if room.status != "over":
        raise RoomError("the game is not over", code="round_not_over")
    roomlog.save_finished(room)  # the finished game's record before the lobby
    with roomlog.all_or_nothing(room):
        room.status = "lobby"
        room.autopilot = set()
        roomlog.save(room)
    room.touch()
