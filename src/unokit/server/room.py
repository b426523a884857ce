"""A room: seats, tokens, the game through a ``Match``, its log and its recovery.

``Room`` is the one object the server's other parts call.  What it holds is
``roomstate.RoomState``; its jobs live in modules of their own, each a set of functions
of that state: ``roomlog`` (the row, log entries, all or nothing, a finished game's
record), ``lobby`` (seats and the host's choices), ``play`` (the game, a move checked
then applied once stored, a game rebuilt from its log) and ``roomview`` (what the room
tells each connection); ``seats`` holds who sits there and the rounds' commitments.
Besides ``create`` and ``restore``, the methods below hand each call to its job.

Nothing here knows about websockets: the master (``server.master``) turns messages
into calls on a ``Room`` and tells each connection its own view.  Every action goes
through the master's order: the seat may act, the version matches, the action is
legal (``Room.prepare``, or ``Room.bot_decide`` for a bot), its log entry is stored
(``server.committer``, many rooms' entries together: ``server.commit.GroupCommit``),
then it is applied (``Room.commit``), and only then is anybody told.

Fair shuffles: a game's seat draw uses a seed from ``secrets``; each round's deal
comes from its own 48-bit seed, also from ``secrets``.  When a round starts the room
publishes ``sha256(salt:seed)``; when it ends it reveals the seed and salt, which are
also in the downloadable record, so anyone can check the deal was fixed in advance.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from unokit.engine.actions import Action
from unokit.engine.family import Game
from unokit.match import Timing
from unokit.rules import from_preset
from unokit.server import lobby, play, roomlog, roomview
from unokit.server.roomerrors import RoomChanged as RoomChanged
from unokit.server.roomerrors import RoomError as RoomError
from unokit.server.roomlog import act_entry as act_entry
from unokit.server.roomlog import action_from_entry as action_from_entry
from unokit.server.roomlog import action_from_wire as action_from_wire
from unokit.server.roomlog import room_timing
from unokit.server.roomstate import RoomState
from unokit.server.seats import Seat, bot_name, new_token, token_hash
from unokit.server.seats import listing as listing
from unokit.server.seats import make_bot as make_bot
from unokit.server.store import RoomRow, Store

log = logging.getLogger("unokit.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Room(RoomState):
    """A room as the server's other parts call it: its state (``RoomState``) and one
    method for each thing it does, handed to the job that does it."""

    # ----------------------------------------------------------------- creating ----
    @staticmethod
    def create(
        store: Store,
        host_name: str,
        preset: str,
        options: dict[str, Any],
        seats: int,
        bots: list[str | None],
        timer: int,
        timing: Timing | None = None,
        code: str | None = None,
        public: bool = False,
        lang: str = "en",
        profile: tuple[str, str] | None = None,
    ) -> tuple[Room, str]:
        """A new room with the host in seat 0; returns it and the host's seat token."""
        rules = from_preset(preset, options)
        rules.check_players(seats)
        token = new_token()
        seat_list: list[Seat | None] = [None] * seats
        host = Seat(host_name, "person", token_hash=token_hash(token))
        if profile:
            host.profile, host.color = profile
        seat_list[0] = host
        for i, level in enumerate(bots[: seats - 1], start=1):
            if level is not None:
                seat_list[i] = Seat(bot_name(seat_list, i), "bot", level)
        room = Room(
            code=code or new_code(),
            preset=preset,
            options=dict(options),
            rules=rules,
            seats=seat_list,
            timer=timer,
            timing=room_timing(timing, timer),
            store=store,
            is_public=public,
            lang=lang,
        )
        room.save()
        return room, token

    # ------------------------------------- the jobs: roomlog, lobby, play, roomview --
    def to_row(self) -> RoomRow:
        return roomlog.to_row(self)

    def save(self) -> None:
        roomlog.save(self)

    @staticmethod
    def restore(row: RoomRow, store: Store, timing: Timing | None = None) -> Room:
        """A room as the store has it; a game in progress is rebuilt from its log.

        Replaying the log gives the same hands, turn and scores, because the game is a
        pure function of its seeds and its actions.
        """
        d = row.data
        rules = from_preset(d["preset"], d["options"])
        timer = int(d.get("timer", 0))
        room = Room(
            code=row.code,
            preset=d["preset"],
            options=d["options"],
            rules=rules,
            seats=[Seat.from_row(s) if s else None for s in d["seats"]],
            timer=timer,
            host=d.get("host", 0),
            status=d["status"],
            watch_chat=bool(d.get("watch_chat", True)),
            is_public=bool(d.get("public", False)),
            lang=str(d.get("lang", "en")),
            game_no=d.get("game", 0),
            game_seed=d.get("game_seed", 0),
            timing=room_timing(timing, timer),
            store=store,
            created=d.get("created", time.time()),
            rev=int(d.get("rev", 0)),
            stored=True,
            changed_unseen=True,
        )
        if room.status in ("playing", "over") and room.game_no > 0:
            log = store.log(room.code, room.game_no)
            if not any(e["t"] == "round" for e in log):
                # the store failed between saving the start and logging its deal
                room.status = "lobby"
                room.game_no -= 1
            else:
                play.rebuild(room, log)
                game = room.match.game if room.match is not None else None
                if room.status == "playing" and game is not None and (game.game_over or room.ended):
                    # the crash came between logging the last action and saving the
                    # finished game: finish it now (status, record), or later if the
                    # store cannot save it now (the room is read all the same)
                    room._finish_or_later()
        return room

    def catch_up(self, entries: list[dict[str, Any]]) -> None:
        play.catch_up(self, entries)

    def _all_or_nothing(self) -> contextlib.AbstractContextManager[None]:
        return roomlog.all_or_nothing(self)

    def seat_of(self, token: str | None) -> int | None:
        return lobby.seat_of(self, token)

    def join(self, name: str, profile: tuple[str, str] | None = None) -> tuple[int, str]:
        return lobby.join(self, name, profile)

    def add_bot(self, by: int | None, seat: int, level: str) -> None:
        lobby.add_bot(self, by, seat, level)

    def kick(self, by: int | None, seat: int) -> None:
        lobby.kick(self, by, seat)

    def save_after_entry(self) -> None:
        roomlog.save_after_entry(self)

    def _host_only(self, by: int | None) -> None:
        lobby.host_only(self, by)

    def _set_seat_kind(self, seat: int, kind: str) -> None:
        lobby.set_seat_kind(self, seat, kind)

    def connected(self, seat: int, delta: int) -> None:
        lobby.connected(self, seat, delta)

    def set_autopilot(self, seat: int, on: bool) -> None:
        lobby.set_autopilot(self, seat, on)

    def _new_game(self, seed: int) -> Game:
        return play.new_match(self, seed)

    def start(self, by: int | None) -> None:
        play.start(self, by)

    def next_round_entry(self, by: int | None) -> tuple[dict[str, Any], Callable[[], None]]:
        return play.next_round_entry(self, by)

    def rematch(self, by: int | None) -> None:
        play.rematch(self, by)

    def end(self, by: int | None) -> None:
        play.end(self, by)

    def set_rules(self, by: int | None, preset: str, options: dict[str, Any], timer: int) -> None:
        lobby.set_rules(self, by, preset, options, timer)

    def set_ready(self, by: int | None, on: bool) -> None:
        lobby.set_ready(self, by, on)

    def set_public(self, by: int | None, on: bool) -> None:
        lobby.set_public(self, by, on)

    def set_watch_chat(self, by: int | None, on: bool) -> None:
        lobby.set_watch_chat(self, by, on)

    def to_lobby(self, by: int | None) -> None:
        lobby.to_lobby(self, by)

    def _finish_or_later(self) -> None:
        roomlog.finish_or_later(self)

    def _over_unsaved(self) -> None:
        roomlog.over_unsaved(self)

    def save_finished(self) -> None:
        roomlog.save_finished(self)

    def _finish(self) -> None:
        roomlog.finish(self)

    def _log(self, entry: dict[str, Any]) -> None:
        roomlog.log_entry(self, entry)

    def stored_entry(self, entry: dict[str, Any]) -> None:
        roomlog.stored_entry(self, entry)

    def prepare(self, seat: int | None, action: Action, version: int) -> dict[str, Any]:
        return play.prepare(self, seat, action, version)

    def commit(
        self, seat: int | None, action: Action, version: int | None, person: bool = False
    ) -> None:
        play.commit(self, seat, action, version, person)

    def bot_decide(self) -> tuple[int, Action] | bool:
        return play.bot_decide(self)

    def autopilot_decide(self, seat: int) -> Action | None:
        return play.autopilot_decide(self, seat)

    def _count_round(self) -> None:
        play.count_round(self)

    def turn_moved(self, actor: int | None) -> None:
        play.turn_moved(self, actor)

    def _after_change(self, actor: int | None) -> None:
        play.after_change(self, actor)

    def pause_passed(self) -> None:
        play.pause_passed(self)

    def public(self, you: int | None) -> dict[str, Any]:
        return roomview.public(self, you)

    def state_for(self, seat: int | None, since: int) -> tuple[dict[str, Any], int]:
        return roomview.state_for(self, seat, since)

    def clock(self) -> dict[str, Any] | None:
        return roomview.clock(self)

    def history_start(self) -> int:
        return roomview.history_start(self)
