"""A room: seats, tokens, the game through a ``Match``, its log and its recovery.

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
import copy
import dataclasses
import hashlib
import hmac
import logging
import os
import random
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from unokit.bots.base import Bot, bot_games
from unokit.bots.roster import BOT_NAMES, make_bots
from unokit.engine.actions import Action
from unokit.engine.family import Game, new_game, plays
from unokit.engine.state import check
from unokit.errors import UnoError
from unokit.match import Match, SeatKind, Timing
from unokit.record import dumps
from unokit.rules import RuleSet, from_preset
from unokit.server.clock import now as clock_now
from unokit.server.messages import looks_like
from unokit.server.statemsg import state_message
from unokit.server.store import RoomRow, Store, StoreError

log = logging.getLogger("unokit.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 6
HISTORY = 60  # events a newcomer without a sequence number gets for the log


class RoomError(UnoError):
    """A request the room refuses; nothing changed."""


class RoomChanged(RoomError):
    """Another server changed this room first (its log index or its ``rev`` was taken):
    nothing of this request was kept; the room is brought up to date and the client
    gets a fresh view."""

    code = "room_changed"

    def __init__(self, message: str = "the room changed meanwhile; try again") -> None:
        super().__init__(message, code="room_changed")


# Tests only (the browser tests): UNOKIT_SEED=N draws game and round seeds from
# random.Random(N), so a test knows the deal.  Never set it for a real server.
_SEED = os.environ.get("UNOKIT_SEED")
_TEST_RNG = random.Random(int(_SEED)) if _SEED else None


def _randbits(k: int) -> int:
    return _TEST_RNG.getrandbits(k) if _TEST_RNG is not None else secrets.randbits(k)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def room_timing(base: Timing | None, timer: int) -> Timing:
    """The server's timing with this room's turn timer (0: off)."""
    return dataclasses.replace(base or Timing(), turn_timer=float(timer) if timer else None)


def make_bot(level: str, seed: int, rules: RuleSet | None = None) -> Bot:
    """A bot of a level, as the terminal game seats them (bots.roster.make_bots).

    A level whose bot does not play the room's game (bots declare their games) seats
    the random bot instead, which plays every legal action of any view: a room never
    stalls on a bot."""
    bot = make_bots(None, level, 1, seed)[0]
    if rules is not None and not plays(bot_games(bot), rules):
        return make_bots("random", level, 1, seed)[0]
    return bot


@dataclass
class Seat:
    name: str
    kind: str  # "person" or "bot"
    level: str = "normal"
    token_hash: str = ""
    connected: int = 0  # open connections holding this seat
    away_since: float | None = None  # monotonic time the last connection closed
    # the lobby's ready check: a person says they are ready to start (issue 49); each
    # start clears it, so it asks again before the next game
    ready: bool = False
    # the person's profile (its public id and avatar colour), if they came with one:
    # the room's finished games count for it (issue 49 item 4)
    profile: str = ""
    color: str = ""

    def to_row(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "token": self.token_hash,
        }
        if self.ready:
            row["ready"] = True
        if self.profile:
            row["profile"], row["color"] = self.profile, self.color
        return row

    @staticmethod
    def from_row(d: dict[str, Any]) -> Seat:
        seat = Seat(d["name"], d["kind"], d.get("level", "normal"), d.get("token", ""))
        seat.ready = bool(d.get("ready", False))
        seat.profile, seat.color = d.get("profile", ""), d.get("color", "")
        return seat


@dataclass
class RoundSeed:
    seed: int
    salt: str
    dealer: int
    revealed: bool = False
    # computed once: every room message lists every round's commitment, and hashing
    # them again for each message was 3% of the server's time under load
    commitment: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.commitment = commitment(self.seed, self.salt)

    def public(self, index: int) -> dict[str, Any]:
        out: dict[str, Any] = {"round": index, "commitment": self.commitment}
        if self.revealed:
            out["seed"] = self.seed
            out["salt"] = self.salt
        return out


@dataclass
class Room:
    code: str
    preset: str
    options: dict[str, Any]
    rules: RuleSet
    seats: list[Seat | None]
    timer: int = 0
    host: int = 0
    status: str = "lobby"  # lobby, playing, over
    watch_chat: bool = True  # spectators may chat (the host's choice)
    # listed on the home page while in the lobby with a seat free (issue 49 item 3):
    # strangers may join it there or through Quick play
    is_public: bool = False
    lang: str = "en"  # the host's page language when it was made, shown in the list
    game_no: int = 0
    game_seed: int = 0
    dealer: int = -1
    rounds: list[RoundSeed] = field(default_factory=list)
    match: Match | None = None
    timing: Timing = field(default_factory=Timing)
    store: Store | None = None
    created: float = field(default_factory=time.time)
    last_active: float = field(default_factory=clock_now)
    changed_at: float = field(default_factory=clock_now)  # monotonic, last version
    # the turn timer's start: the moment the seat it waits for was asked (``turn_moved``)
    turn_at: float = field(default_factory=clock_now)
    turn_seat: int | None = None
    finish_pending: bool = False  # a finished game whose record or row is not saved yet
    ended: bool = False  # the host's end is in the game's log
    autopilot: set[int] = field(default_factory=set)  # person seats played by the bot
    # the scores after each finished round of the current game (the table's scores by
    # round); kept as rounds end, and again when a game is rebuilt from its log
    totals: list[list[int]] = field(default_factory=list)
    # the stored room's revision (``put_room``: a save must find the one it read) and
    # how many entries the current game's log has (an entry is stored at that index)
    rev: int = 0
    log_len: int = 0
    stored: bool = False  # the store has this room (a save must find its ``rev``)
    # a change is in the store's log, but the save of the room's row after it lost a
    # race (another server changed the row first): the server reads the room again
    stale: bool = False
    # an entry was stored and applying it here failed, and reading the room again
    # failed too (the store went away at that moment): this copy may be half-applied,
    # so nothing is decided on it until it is read again (``Committer.append``)
    broken: bool = False
    # a finished game's record and row are saved by the server after the winning move
    # (off the event loop), not by ``_after_change`` inside the commit's callback
    defer_finish: bool = False
    # ``changed_at`` is when this server read the last change from the store (reading
    # the room, or entries no bus message brought), not when it was made
    changed_unseen: bool = False
    # a twin's (``twin``): the autopilot seats, bots and seat kinds it was made from
    _base: tuple[set[int], list[Any], list[Any]] | None = field(
        default=None, repr=False, compare=False
    )
    # entries stored since the cluster's other servers were last told (``Peers.announce``)
    unsent: list[dict[str, Any]] = field(default_factory=list)
    # open connections per seat on other servers of a cluster (``Peers.presence``)
    elsewhere: dict[int, int] = field(default_factory=dict)
    _bots: dict[int, Bot] = field(default_factory=dict)
    on_change: Callable[[bool], None] | None = None

    # ----------------------------------------------------------------- twins -------
    def twin(self) -> Room:
        """A private copy of the room for a change to be made and stored on (in a worker
        thread) before anyone sees it: ``publish`` then puts it in this room at once.

        It shares nothing the change can alter: seats, rounds, lists and sets are
        copied, and a game in progress gets its own seat kinds and bots (a kick gives a
        seat to a bot).  The game itself is shared, read only: no change made this way
        plays a move (moves go through the group commit)."""
        t = copy.copy(self)
        t.seats = [dataclasses.replace(s) if s else None for s in self.seats]
        t.options = dict(self.options)
        t.rounds = [dataclasses.replace(rs) for rs in self.rounds]
        t.autopilot = set(self.autopilot)
        t.totals = [list(x) for x in self.totals]
        t._bots = dict(self._bots)
        t.unsent = []
        t.elsewhere = dict(self.elsewhere)
        t.on_change = None
        if self.match is not None:
            mt = copy.copy(self.match)
            mt.bots, mt.kinds = list(self.match.bots), list(self.match.kinds)
            t.match = mt
            t._base = (set(self.autopilot), list(mt.bots), list(mt.kinds))
        else:
            t._base = (set(self.autopilot), [], [])
        return t

    _KEEP = frozenset({"last_active", "elsewhere", "on_change", "unsent", "match",
                       "autopilot", "_base"})  # fmt: skip

    def publish(self, twin: Room) -> None:
        """Make ``twin``'s stored change this room's, in one step on the event loop.

        What changed here meanwhile without the room's lock stays: connections per seat
        and the seats' time away, other servers' connections, and the autopilot of a
        game that goes on (a player came back or left)."""
        assert twin._base is not None
        auto_before, bots_before, kinds_before = twin._base
        for i, s in enumerate(twin.seats):
            cur = self.seats[i] if i < len(self.seats) else None
            if s is not None and cur is not None:
                s.connected, s.away_since = cur.connected, cur.away_since
        same = (
            self.match is not None and twin.match is not None and twin.match.game is self.match.game
        )
        if same:
            assert self.match is not None and twin.match is not None
            for i, (bot, kind) in enumerate(zip(twin.match.bots, twin.match.kinds, strict=True)):
                if bot is not bots_before[i] or kind != kinds_before[i]:
                    self.match.set_bot(i, bot, kind)  # a seat the change gave to a bot
            gone, came = auto_before - twin.autopilot, twin.autopilot - auto_before
            self.autopilot = (self.autopilot - gone) | came
        else:  # a new game (or none): the twin's
            self.match = twin.match
            self.autopilot = twin.autopilot
        for f in dataclasses.fields(self):
            if f.name not in self._KEEP:
                setattr(self, f.name, getattr(twin, f.name))
        self.unsent = self.unsent + twin.unsent

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
                seat_list[i] = Seat(_bot_name(seat_list, i), "bot", level)
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

    # ----------------------------------------------------------------- storage -----
    def to_row(self) -> RoomRow:
        return RoomRow(
            self.code,
            {
                "preset": self.preset,
                "options": self.options,
                "seats": [s.to_row() if s else None for s in self.seats],
                "timer": self.timer,
                "host": self.host,
                "status": self.status,
                "watch_chat": self.watch_chat,
                "public": self.is_public,
                "lang": self.lang,
                "game": self.game_no,
                "game_seed": self.game_seed,
                "created": self.created,
                "rev": self.rev,
            },
        )

    def save(self) -> None:
        """Store the room's metadata, if nobody else changed it since this server read
        it (``RoomChanged`` otherwise: the caller's ``_all_or_nothing`` undoes it)."""
        if self.store is None:
            return
        if self.finish_pending and self.status == "over" and self.match is not None:
            self.store.save_record(self.code, self.game_no, dumps(self.match.game))
            self._count_game()  # a finished game counts whichever save gets it stored
            self.finish_pending = False
        row = self.to_row()
        row.data["rev"] = self.rev + 1
        if not self.store.put_room(row, self.rev if self.stored else None):
            raise RoomChanged()
        self.rev += 1
        self.stored = True

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
                room._rebuild(log)
                game = room.match.game if room.match is not None else None
                if room.status == "playing" and game is not None and (game.game_over or room.ended):
                    # the crash came between logging the last action and saving the
                    # finished game: finish it now (status, record), or later if the
                    # store cannot save it now (the room is read all the same)
                    room._finish_or_later()
        return room

    def _rebuild(self, log: list[dict[str, Any]]) -> None:
        game = self._new_game(self.game_seed)
        moves = 0  # the entries that made a version, up to an end
        for entry in log:
            moves += entry["t"] in ("round", "act")
            kind = entry["t"]
            if kind == "round":
                rs = RoundSeed(entry["seed"], entry["salt"], entry["dealer"])
                self.rounds.append(rs)
                game.start_round(rs.dealer, seed=rs.seed)
            elif kind == "act":
                seat, action = action_from_entry(game, entry["a"])
                game.apply(seat, action)
                self._count_round()
            elif kind == "seat":  # a seat changed hands during the game (a kick)
                s = self.seats[entry["seat"]]
                if s is not None and entry["kind"] == "bot":
                    s.token_hash = ""  # the row may still hold it (its save failed)
                self._set_seat_kind(entry["seat"], entry["kind"])
            elif kind == "end":  # the host ended it: nothing after counts
                self.ended = True
                break
        for rs in self.rounds[:-1]:
            rs.revealed = True
        if self.rounds and game.round_over:
            self.rounds[-1].revealed = True
        self.log_len = len(log)
        assert self.match is not None
        self.match.resume_at(moves)

    def catch_up(self, entries: list[dict[str, Any]]) -> None:
        """Apply log entries another server stored (in a cluster), in order, as this
        server would have applied them itself.  Raises (``UnoError``) if one does not
        apply to the game as this server has it; the caller then rebuilds the room."""
        match = self.match
        if match is None or self.status not in ("playing", "over"):
            raise RoomChanged("the room is not in play here")
        for entry in entries:
            kind = entry["t"]
            if kind == "round":
                rs = RoundSeed(entry["seed"], entry["salt"], entry["dealer"])
                self.rounds.append(rs)
                match.start_round(rs.dealer, seed=rs.seed)
                self.turn_moved(None)
            elif kind == "act":
                seat, action = action_from_entry(match.game, entry["a"])
                if seat in self.autopilot:  # the seat's player acted on another server
                    self.set_autopilot(seat, False)
                match.submit(seat, action)
                self.turn_moved(seat)
            elif kind == "end":  # the host ended it on another server
                self.ended = True
                self.status = "over"
                for rs in self.rounds:
                    rs.revealed = True
                self.log_len += 1
                break
            elif kind == "seat":
                s = self.seats[entry["seat"]]
                if s is not None and entry["kind"] == "bot":
                    s.token_hash = ""
                    self.autopilot.discard(entry["seat"])
                self._set_seat_kind(entry["seat"], entry["kind"])
            self.log_len += 1
            self._count_round()
            game = match.game
            if game.round_over and self.rounds:
                self.rounds[-1].revealed = True
            if game.game_over:
                self.status = "over"  # the server that ended it saved that; reveal here
                for rs in self.rounds:
                    rs.revealed = True
        self.changed_at = clock_now()
        self.touch(meta=True)

    @contextlib.contextmanager
    def _all_or_nothing(self) -> Iterator[None]:
        """Undo every change to the room if the block raises (the store failed, say).

        A join, a start or a kick the store could not keep must leave the room as it
        was: the seat free, the lobby open, the player seated.
        """
        saved = (
            [dataclasses.replace(s) if s else None for s in self.seats],
            self.status,
            self.game_no,
            self.game_seed,
            self.dealer,
            self.match,
            list(self.rounds),
            set(self.autopilot),
            dict(self._bots),
            self.log_len,
            [list(t) for t in self.totals],
        )
        kinds = (list(self.match.kinds), list(self.match.bots)) if self.match else None
        try:
            yield
        except BaseException:
            self.unsent.clear()
            (
                seats, self.status, self.game_no, self.game_seed, self.dealer,
                self.match, self.rounds, self.autopilot, self._bots, self.log_len,
                self.totals,
            ) = saved  # fmt: skip
            for i, old in enumerate(seats):  # keep connection counts, restore the rest
                cur = self.seats[i] if i < len(self.seats) else None
                if old is not None and cur is not None:
                    old.connected, old.away_since = cur.connected, cur.away_since
            self.seats = seats
            if self.match is not None and kinds is not None:
                self.match.kinds, self.match.bots = kinds
            raise

    # ----------------------------------------------------------------- seats -------
    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` holds here, comparing hashes in constant time."""
        if not token:
            return None
        h = token_hash(token)
        found = None
        for i, s in enumerate(self.seats):
            if s is not None and s.token_hash and hmac.compare_digest(s.token_hash, h):
                found = i
        return found

    def join(self, name: str, profile: tuple[str, str] | None = None) -> tuple[int, str]:
        """Take the first empty seat (lobby only); returns the seat and its token.
        ``profile``: the person's profile (id, colour), whose stats the game counts for."""
        if self.status != "lobby":
            raise RoomError("the game has started: you can watch", code="room_started")
        if any(s is not None and s.name.lower() == name.lower() for s in self.seats):
            raise RoomError(f"someone here is already called {name}", code="name_taken")
        if profile and any(s is not None and s.profile == profile[0] for s in self.seats):
            raise RoomError("this profile already has a seat here", code="profile_seated")
        for i, s in enumerate(self.seats):
            if s is None:
                token = new_token()
                with self._all_or_nothing():
                    sat = Seat(name, "person", token_hash=token_hash(token))
                    if profile:
                        sat.profile, sat.color = profile
                    self.seats[i] = sat
                    # a bot was named before this person came: "Ben" (or "Bén") beside
                    # "Ben (bot)" reads as one person twice in the log, so the bot takes
                    # another name
                    for j, b in enumerate(self.seats):
                        bot = b is not None and b.kind == "bot"
                        if b is not None and bot and looks_like(name, _bot_base(b.name)):
                            b.name = _bot_name(self.seats, j)
                    self.save()
                self.touch()
                return i, token
        raise RoomError("the room is full: you can watch", code="room_full")

    def add_bot(self, by: int | None, seat: int, level: str) -> None:
        self._host_only(by)
        if self.status != "lobby":
            raise RoomError("bots are added before the game starts", code="room_started")
        if not 0 <= seat < len(self.seats):
            raise RoomError(f"there is no seat {seat}", code="bad_seat")
        if self.seats[seat] is not None:
            raise RoomError(f"seat {seat} is taken", code="seat_taken")
        with self._all_or_nothing():
            self.seats[seat] = Seat(_bot_name(self.seats, seat), "bot", level)
            self.save()
        self.touch()

    def kick(self, by: int | None, seat: int) -> None:
        """The host removes a seat's occupant; in a game a bot takes the seat over."""
        self._host_only(by)
        if not 0 <= seat < len(self.seats) or self.seats[seat] is None:
            raise RoomError(f"seat {seat} is empty", code="bad_seat")
        if seat == self.host:
            raise RoomError("the host cannot kick themself", code="bad_seat")
        if self.status == "lobby":
            with self._all_or_nothing():
                self.seats[seat] = None
                self.save()
            self.touch()
            return
        s = self.seats[seat]
        assert s is not None
        self._log({"t": "seat", "seat": seat, "kind": "bot"})  # refused: nothing changed
        # the kick is made once its entry is stored (a room read again from the log
        # applies it): a failed save of the row after it does not undo it
        s.kind = "bot"
        s.token_hash = ""
        self.autopilot.discard(seat)
        self._set_seat_kind(seat, "bot")
        self.save_after_entry()
        self.touch()

    def save_after_entry(self) -> None:
        """Save the row after a change whose log entry is already stored: the change
        stands whatever happens here.  A lost race (another server changed the row)
        marks the room ``stale`` (the server reads it again, log included); a store
        failure leaves the row behind until the room's next save (the log has it)."""
        try:
            self.save()
        except RoomChanged:
            self.stale = True
        except StoreError as e:
            log.warning("room %s: the row could not be saved after its change: %s", self.code, e)

    def _host_only(self, by: int | None) -> None:
        if by != self.host:
            raise RoomError("only the host may do that", code="not_host")

    def _set_seat_kind(self, seat: int, kind: str) -> None:
        s = self.seats[seat]
        assert s is not None
        s.kind = kind
        if kind == "bot":  # the person's profile leaves with them: the bot's games are not theirs
            s.profile = s.color = ""
        if self.match is None:
            return
        if kind == "bot":
            bot = self._bots.get(seat) or make_bot(s.level, self.game_seed + seat, self.rules)
            self._bots[seat] = bot
            self.match.set_bot(seat, bot, SeatKind.BOT)

    def connected(self, seat: int, delta: int) -> None:
        s = self.seats[seat]
        if s is None:
            return
        s.connected = max(0, s.connected + delta)
        if s.connected == 0:
            s.away_since = clock_now()
        else:
            s.away_since = None
            self.set_autopilot(seat, False)
        self.touch()

    def set_autopilot(self, seat: int, on: bool) -> None:
        """A person's seat is played by the heuristic bot while they are away."""
        s = self.seats[seat]
        if s is None or s.kind != "person" or self.match is None:
            return
        if on and seat not in self.autopilot:
            self.autopilot.add(seat)
            bot = self._bots.get(seat) or make_bot("hard", self.game_seed + seat, self.rules)
            self._bots[seat] = bot
            self.match.set_bot(seat, bot, SeatKind.AUTOPILOT)
            self.touch()  # the room message shows it
        elif not on and seat in self.autopilot:
            self.autopilot.discard(seat)
            self.match.set_bot(seat, None, SeatKind.REMOTE)
            self.touch()

    def touch(self, meta: bool = True) -> None:
        """The room changed: its driver must look again, and (``meta``) what the room
        message shows changed too.  A plain action changes only the game, and building
        the room message again after every one was 4% of the server's time at full
        speed, so actions pass ``meta=False`` unless they end a round."""
        self.last_active = clock_now()
        if self.on_change is not None:
            self.on_change(meta)

    # ----------------------------------------------------------------- the game ----
    def _new_game(self, seed: int) -> Game:
        names = [s.name if s else f"Seat {i}" for i, s in enumerate(self.seats)]
        game = new_game(self.rules, names, seed=seed, events=True, start=False)
        self.dealer = game.choose_dealer()
        self._bots = {}
        bots: list[Bot | None] = []
        kinds: list[SeatKind] = []
        for i, s in enumerate(self.seats):
            if s is not None and s.kind == "bot":
                bot = make_bot(s.level, seed + i, self.rules)
                self._bots[i] = bot
                bots.append(bot)
                kinds.append(SeatKind.BOT)
            else:
                bots.append(None)
                kinds.append(SeatKind.REMOTE)
        self.match = Match(game, bots, kinds, self.timing)
        self.log_len = 0
        self.rounds = []
        self.totals = []
        self.autopilot = set()
        return game

    def start(self, by: int | None) -> None:
        """The host starts the game; empty seats are filled with bots first."""
        self._host_only(by)
        if self.status == "playing":
            raise RoomError("the game is already on", code="room_started")
        try:
            with self._all_or_nothing():
                for i, s in enumerate(self.seats):
                    if s is None:
                        self.seats[i] = Seat(_bot_name(self.seats, i), "bot", "normal")
                    else:
                        s.ready = False  # asked again before the next game
                self.game_no += 1
                self.game_seed = _randbits(63)
                self.status = "playing"
                self._new_game(self.game_seed)
                self.save()
                self._start_round(self.dealer)
        except BaseException:
            with contextlib.suppress(Exception):
                self.save()  # the room is the lobby again: the store should say so too
            raise
        self.touch()

    def _start_round(self, dealer: int) -> None:
        entry, rs = self._round_entry(dealer)
        self._log(entry)
        self._begin_round(rs)

    @staticmethod
    def _round_entry(dealer: int) -> tuple[dict[str, Any], RoundSeed]:
        rs = RoundSeed(_randbits(48), secrets.token_hex(16), dealer)
        return {"t": "round", "seed": rs.seed, "salt": rs.salt, "dealer": dealer}, rs

    def _begin_round(self, rs: RoundSeed) -> None:
        """The round whose entry is stored starts."""
        assert self.match is not None
        dealer = rs.dealer
        self.rounds.append(rs)
        self.match.start_round(dealer, seed=rs.seed)
        self.changed_at = clock_now()
        self.changed_unseen = False
        self.turn_moved(None)

    def next_round_entry(self, by: int | None) -> tuple[dict[str, Any], Callable[[], None]]:
        """The next round's log entry, checked, and what starts the round once the entry
        is stored (``Committer.next_round``)."""
        if by is None:
            raise RoomError("spectators cannot start the next round", code="no_seat")
        game = self._game()
        if not game.round_over or game.game_over:
            raise RoomError("the round is not over", code="round_not_over")
        dealer = game.next_seat(game.dealer) if game.n_live == game.n else -1
        if dealer < 0:
            dealer = game.dealer
            for _ in range(game.n):
                dealer = (dealer + 1) % game.n
                if game.live[dealer]:
                    break
        entry, rs = self._round_entry(dealer)

        def then() -> None:
            self.stored_entry(entry)
            self._begin_round(rs)
            self.touch()

        return entry, then

    def rematch(self, by: int | None) -> None:
        self._host_only(by)
        if self.status != "over":
            raise RoomError("the game is not over", code="round_not_over")
        self.save_finished()  # the finished game's record before the next game
        self.status = "lobby"
        self.start(by)

    def end(self, by: int | None) -> None:
        """The host ends the game; the record stays downloadable.  On a game already
        over, the room goes back to the lobby (``to_lobby``)."""
        self._host_only(by)
        if self.status == "over":
            self.to_lobby(by)
            return
        if self.status != "playing":
            raise RoomError("there is no game to end", code="game_over")
        with self._all_or_nothing():
            # in the log first: a server of the cluster that has not heard of the end
            # cannot store a move after it (its index is taken: ``RoomChanged``), and
            # a room read from the log is over (``_rebuild``, ``catch_up``)
            self._log({"t": "end"})
        self._finish_or_later()

    def set_rules(self, by: int | None, preset: str, options: dict[str, Any], timer: int) -> None:
        """The host changes the rules and the turn timer in the lobby (before the first
        game, or back from a finished one); ``RulesError`` for rules that cannot be, or
        that do not allow this many seats."""
        self._host_only(by)
        if self.status != "lobby":
            raise RoomError("the rules change in the lobby only", code="room_started")
        rules = from_preset(preset, options)
        rules.check_players(len(self.seats))
        before = (self.preset, self.options, self.rules, self.timer, self.timing)
        self.preset, self.options, self.rules, self.timer = preset, dict(options), rules, timer
        self.timing = dataclasses.replace(self.timing, turn_timer=float(timer) if timer else None)
        try:
            self.save()
        except BaseException:
            self.preset, self.options, self.rules, self.timer, self.timing = before
            raise
        self.touch()

    def set_ready(self, by: int | None, on: bool) -> None:
        """A person seated in the lobby says they are ready to start, or not yet: the
        host sees who is before pressing Start (issue 49 item 3)."""
        if by is None:
            raise RoomError("only a player seated here can be ready", code="no_seat")
        if self.status != "lobby":
            raise RoomError("the game has started", code="room_started")
        seat = self.seats[by]
        assert seat is not None  # a seat with a token is taken
        with self._all_or_nothing():
            seat.ready = on
            self.save()
        self.touch()

    def set_public(self, by: int | None, on: bool) -> None:
        """The host lists the room on the home page, or takes it off (issue 49)."""
        self._host_only(by)
        before = self.is_public
        self.is_public = on
        try:
            self.save()
        except BaseException:
            self.is_public = before
            raise
        self.touch()

    def listing(self) -> dict[str, Any] | None:
        """This room in the home page's list of public rooms, or None (``listing``)."""
        row = self.to_row()
        return listing(row.code, row.data)

    def set_watch_chat(self, by: int | None, on: bool) -> None:
        """The host lets spectators chat, or not (issue 36 item 16)."""
        self._host_only(by)
        before = self.watch_chat
        self.watch_chat = on
        try:
            self.save()
        except BaseException:
            self.watch_chat = before
            raise
        self.touch()

    def to_lobby(self, by: int | None) -> None:
        """The host takes a finished game's room back to the lobby: the seats stay as
        they are, and the host may remove a bot (a player whose seat went to a bot can
        then take a seat again), add bots, and start the next game.  The finished
        game's record stays downloadable."""
        self._host_only(by)
        if self.status != "over":
            raise RoomError("the game is not over", code="round_not_over")
        self.save_finished()  # the finished game's record before the lobby
        with self._all_or_nothing():
            self.status = "lobby"
            self.autopilot = set()
            self.save()
        self.touch()

    def _finish_or_later(self) -> None:
        """Finish a game whose end is committed (its last move, or the host's end entry):
        over whatever the store says now.  If its record or row cannot be saved, it is
        saved later (``finish_pending``: before the room's next save, by the lease loop,
        or when a room is read again from the log)."""
        try:
            self._finish()
            self.finish_pending = False
        except (StoreError, RoomChanged) as e:
            log.warning("room %s: the finished game could not be saved yet: %s", self.code, e)
            self._over_unsaved()

    def _over_unsaved(self) -> None:
        """The game's end is committed: it is over here, its record and row saved later
        (``save_finished``)."""
        self.status = "over"
        for rs in self.rounds:
            rs.revealed = True
        self.finish_pending = True
        self.touch()

    def save_finished(self) -> None:
        """Save a finished game that could not be saved when it ended (``StoreError``
        or ``RoomChanged`` if it still cannot)."""
        if not self.finish_pending:
            return
        if self.store is not None and self.match is not None:
            self.store.save_record(self.code, self.game_no, dumps(self.match.game))
            self._count_game()
        row_saved = False
        if self.store is not None:
            row = self.to_row()
            row.data["rev"] = self.rev + 1
            row_saved = self.store.put_room(row, self.rev if self.stored else None)
            if not row_saved:
                raise RoomChanged()
            self.rev += 1
            self.stored = True
        self.finish_pending = False

    def _finish(self) -> None:
        self.status = "over"
        for rs in self.rounds:
            rs.revealed = True
        if self.store is not None and self.match is not None:
            self.store.save_record(self.code, self.game_no, dumps(self.match.game))
            self._count_game()
        self.save()
        self.touch()

    def _count_game(self) -> None:
        """Count a game played to its end for the profiles that played it, and rate it
        when two or more did (``Store.count_game``: once, whoever saves it)."""
        assert self.store is not None and self.match is not None
        g = self.match.game
        if not g.game_over:
            return  # ended by the host, no winner: it counts nowhere
        out = g.outcome()
        results: list[dict[str, Any]] = []
        seen: set[str] = set()
        for i, s in enumerate(self.seats):
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
            r.update(rated=len(results) >= 2, players=len(self.seats), at=at)
        self.store.count_game(self.code, self.game_no, results)

    def _game(self) -> Game:
        if self.match is None or self.status == "lobby":
            raise RoomError("the game has not started", code="not_started")
        if self.status == "over":
            raise RoomError("the game is over", code="game_over")
        return self.match.game

    def _log(self, entry: dict[str, Any]) -> None:
        """Store ``entry`` at the game log's next index (``RoomChanged`` if another
        server stored one there first)."""
        self._store_entry(entry)
        self.stored_entry(entry)

    def _store_entry(self, entry: dict[str, Any]) -> None:
        stored = (
            self.store is None
            or self.store.append_at([(self.code, self.game_no, self.log_len, entry)])[0]
        )
        if not stored:
            raise RoomChanged()

    def stored_entry(self, entry: dict[str, Any]) -> None:
        """``entry`` is in the store at index ``log_len``: count it, and keep it for the
        cluster's other servers."""
        self.log_len += 1
        self.unsent.append(entry)

    def prepare(self, seat: int | None, action: Action, version: int) -> dict[str, Any]:
        """Check ``seat``'s action and return its log entry; raises with nothing changed.

        The server stores the entry (``Committer.commit``: alone, or with other rooms'
        entries in a group commit) and only then calls ``commit``.
        """
        self._game()
        if seat is None:
            raise RoomError("spectators cannot act", code="no_seat")
        match = self.match
        assert match is not None
        # check first (game and version unchanged on refusal), log, then apply
        match.check_seat(seat)
        check(match.state, seat, action, version)
        return act_entry(seat, action, match.game)

    def commit(
        self, seat: int | None, action: Action, version: int | None, person: bool = False
    ) -> None:
        """Apply an action, checked by ``prepare`` or ``bot_decide`` on this state, whose
        entry the store now holds (``person``: the seat's player made it, so the
        autopilot, if on, hands the seat back)."""
        assert self.match is not None and seat is not None
        if person and seat in self.autopilot:
            self.set_autopilot(seat, False)  # they are back
        self.match.submit(seat, action, version, checked=True)
        self._after_change(seat)

    def bot_decide(self) -> tuple[int, Action] | bool:
        """The next bot decision to log and ``commit``, checked; or whether it passed.

        A bot that lets an out-of-turn chance go passes at once (a pass is not
        logged: it changes nothing a replay needs), and True says so; False: no bot
        is to act.
        """
        if self.status != "playing" or self.match is None:
            return False
        decided = self.match.bot_decide(fallback=True)
        if decided is True:  # a pass: maybe another seat is asked now
            self.turn_moved(-1)
        return decided

    def autopilot_decide(self, seat: int) -> Action | None:
        """The decision the heuristic bot makes for ``seat`` when its turn timer ran
        out, checked (None: no game in play), to log and ``commit``."""
        match = self.match
        if match is None or self.status != "playing":
            return None
        bot = self._bots.get(seat) or make_bot("hard", self.game_seed + seat, self.rules)
        self._bots[seat] = bot
        return match.decide_for(seat, bot)

    def _count_round(self) -> None:
        """Keep the scores once a round has ended (once per round)."""
        game = self.match.game if self.match is not None else None
        if game is not None and game.round_over and len(self.totals) == game.round_index:
            self.totals.append(list(game.scores))

    def turn_moved(self, actor: int | None) -> None:
        """Start the turn timer again if a new decision is asked: of another seat, or
        of the seat that just acted (``actor``; None: a round began).  A move by someone
        else that leaves the same seat to decide (a catch, an UNO call) does not restart
        that seat's clock, so catching a player cannot buy the player to act more time."""
        seat = self.match.next_to_ask() if self.match is not None else None
        if actor is None or seat != self.turn_seat or actor == seat:
            self.turn_at = clock_now()
        self.turn_seat = seat

    def _after_change(self, actor: int | None) -> None:
        assert self.match is not None
        self._count_round()
        self.changed_at = clock_now()
        self.changed_unseen = False
        self.turn_moved(actor)
        game = self.match.game
        if game.round_over and self.rounds:
            self.rounds[-1].revealed = True
        if game.game_over:
            if self.defer_finish:  # the server saves it next, off the event loop
                self._over_unsaved()
            else:
                self._finish_or_later()
            return
        self.touch(meta=game.round_over)  # the round's seed is revealed

    def pause_passed(self) -> None:
        """This server takes the room's bots over (their driver died, or let the lease
        go) and read their turn from the store: the turn began before that, when the
        previous driver stored it (after a death, seconds ago: a driver stops
        ``LEASE_MARGIN`` before its lease can lapse, and the lease runs its time).  So
        the bot's pause counts as passed, instead of starting now: a dead
        server's bots move again when its lease lapses, not a pause (up to the catch
        window, 2.5 s) later.  A round's summary (``next_round``) is not cut short."""
        match = self.match
        if not self.changed_unseen or match is None or match.game.round_over:
            return
        self.changed_at = min(self.changed_at, clock_now() - match.delay())

    # ----------------------------------------------------------------- telling -----
    def public(self, you: int | None) -> dict[str, Any]:
        """The room message: seats, status, rules, commitments (no secrets)."""
        now = clock_now()
        return {
            "type": "room",
            "code": self.code,
            "status": self.status,
            "host": self.host,
            "you": you,
            "game": self.game_no,
            "rules": {"preset": self.preset, "options": self.options},
            "timer": self.timer,
            "watch_chat": self.watch_chat,
            "public": self.is_public,
            "lang": self.lang,
            "seats": [
                None
                if s is None
                else {
                    "seat": i,
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level if s.kind == "bot" else None,
                    "connected": s.kind == "bot" or s.connected > 0 or i in self.elsewhere,
                    "away": round(now - s.away_since, 1)
                    if s.kind == "person" and s.away_since is not None
                    else None,
                    "autopilot": i in self.autopilot,
                    "ready": s.ready,
                    "profile": s.profile or None,
                    "color": s.color or None,
                    "team": self.match.game.team_of(i)
                    if self.match is not None and self.match.game.teams
                    else None,
                }
                for i, s in enumerate(self.seats)
            ],
            "rounds": [rs.public(i) for i, rs in enumerate(self.rounds)],
        }

    def state_for(self, seat: int | None, since: int) -> tuple[dict[str, Any], int]:
        """The state message for ``seat``: its view and its events from ``since`` on
        (``statemsg.state_message``, as the replay viewer's frames), what the game's
        outcome is, and the clocks a live table shows.

        Returns the message and the sequence number to continue from.
        """
        match = self.match
        assert match is not None
        game = match.game
        msg, seq = state_message(game, seat, since, self.game_no, match.version, self.totals)
        msg["outcome"] = game.outcome().to_json()
        clock = self.clock()
        if clock is not None:
            msg["clock"] = clock
        if game.round_over and self.status == "playing":
            msg["next_round_in"] = self.next_round_in()
        return msg, seq

    def clock(self) -> dict[str, Any] | None:
        """The turn timer of the decision the room waits for, if a person (not a bot,
        not the autopilot) makes it: ``{"seat", "left"}``, seconds left as the server's
        driver counts them (``Driver.due``: from when that seat was asked)."""
        match = self.match
        timer = self.timing.turn_timer
        if not timer or match is None or self.status != "playing" or match.game.round_over:
            return None
        seat = match.next_to_ask()
        if seat is None or match.bots[seat] is not None:
            return None
        left = max(0.0, self.turn_at + timer - clock_now())
        return {"seat": seat, "left": round(left, 1)}

    def next_round_in(self) -> float:
        """Seconds before a finished round's next one starts by itself (``Driver.due``:
        ``timing.next_round`` while a person is connected, else 1 s)."""
        anyone = any(s is not None and s.kind == "person" and s.connected for s in self.seats)
        wait = self.timing.next_round if anyone else 1.0
        return round(max(0.0, self.changed_at + wait - clock_now()), 1)

    def history_start(self) -> int:
        events = self.match.game.events if self.match else None
        return max(0, len(events or []) - HISTORY)


def act_entry(seat: int, action: Action, game: Game | None = None) -> dict[str, Any]:
    """An action's log entry (what ``Room._rebuild`` replays), in the game's codes."""
    return {"t": "act", "a": game.action_json(action, seat) if game else action.to_json(seat)}


def action_from_entry(game: Game, obj: Any) -> tuple[int, Action]:
    """A log entry's (or a record's) action object for ``game``: the seat and action."""
    return game.action_from_json(obj)


def action_from_wire(game: Game | None, obj: Any) -> Action:
    """A client's action object (no seat: the connection says it), read with the
    codes of the room's game; ActionParseError if malformed."""
    return Action.from_wire(obj) if game is None else game.action_from_wire(obj)


def _bot_base(name: str) -> str:
    """A bot's name without the bots' mark: "Ben (bot)" -> "Ben"."""
    return name.removesuffix(" (bot)")


def _bot_name(seats: list[Seat | None], seat: int) -> str:
    """A name for a new bot that looks like nobody's at the table, bot or person."""
    taken = [_bot_base(s.name) for i, s in enumerate(seats) if s is not None and i != seat]
    for name in BOT_NAMES[1:]:
        if not any(looks_like(name, other) for other in taken):
            return f"{name} (bot)"
    return f"Bot {seat}"


def listing(code: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """What the home page's list of public rooms shows of a stored room: its game,
    rules and who sits there (names only, nothing of a game), or None when it is not
    open to strangers (private, started or full).  Built from the stored row, so a
    server lists the rooms of the whole cluster without replaying any game."""
    if not data.get("public") or data.get("status") != "lobby":
        return None
    seats = data.get("seats") or []
    free = sum(s is None for s in seats)
    if free == 0:
        return None
    host_index = data.get("host", 0)
    host = seats[host_index] if 0 <= host_index < len(seats) else None
    return {
        "code": code,
        "preset": data.get("preset", "classic"),
        "options": data.get("options", {}),
        "timer": data.get("timer", 0),
        "lang": data.get("lang", "en"),
        "host": host["name"] if host else None,
        "seats": len(seats),
        "free": free,
        "people": [s["name"] for s in seats if s is not None and s.get("kind") == "person"],
        "bots": sum(s is not None and s.get("kind") == "bot" for s in seats),
        "created": data.get("created", 0.0),
    }
