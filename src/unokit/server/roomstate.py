"""A room's state: what it holds (seats, rules, the game's match, its log position,
the cluster's bookkeeping), its private copy for a change made off the event loop
(``twin``, ``publish``), and ``touch``.  The room's jobs (``roomlog``, ``lobby``,
``play``, ``roomview``) are functions of this state; ``room.Room`` adds a method for
each, so that nothing below ``room.py`` needs to know the room object."""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

from unokit.bots.base import Bot
from unokit.match import Match, Timing
from unokit.rules import RuleSet
from unokit.server.clock import now as clock_now
from unokit.server.seats import RoundSeed, Seat
from unokit.server.store import Store


@dataclass
class RoomState:
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

    def twin(self) -> Self:
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

    def publish(self, twin: RoomState) -> None:
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

    def touch(self, meta: bool = True) -> None:
        """The room changed: its driver must look again, and (``meta``) what the room
        message shows changed too.  A plain action changes only the game, and building
        the room message again after every one was 4% of the server's time at full
        speed, so actions pass ``meta=False`` unless they end a round."""
        self.last_active = clock_now()
        if self.on_change is not None:
            self.on_change(meta)
