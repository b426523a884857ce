"""The match loop: one place that decides who acts next, for every front end.

A ``Match`` owns a ``Game`` and its seats.  It is what boardgame.io calls the master,
without the network: the terminal game, the bot runner (and so tournaments), the
simulator's bot path and the web server all drive a game through it, so they agree on

* **who may act** (``actors``) and **who is asked next** (``next_to_ask``): out-of-turn
  chances first (a catch, a late UNO call, a jump-in), asked clockwise from the seat
  after the one to act (``reaction_order``), then the seat that must decide;
* **who has passed** on the current out-of-turn chance: a seat that let a moment go is
  not asked again until the game changes;
* **the state version**: it rises by one with every accepted action, and an action
  made on an older version is refused (``StaleVersion``), never applied;
* **what each seat must learn**: its view and the events it may see since it last
  looked (per-seat cursors; ``None`` is a spectator, who sees only public events).

The match is pure like the engine: no clock, no I/O.  Timing (how long bots wait so
people can follow and catch them) is a ``Timing`` value that front ends with a clock
read; the bot runner ignores it.

Bots in the same process are trusted code: a bot receives views and events only, but
Python cannot stop code in the same process from walking to the ``Game`` (through
the garbage collector or stack frames).  Untrusted bots need a process boundary; the
server runs only unokit's own bots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from unokit.engine.actions import CATCH, UNO, Action
from unokit.engine.game import P_ROUND_OVER, Event, Game
from unokit.engine.view import View, view_of
from unokit.errors import UnoError

if TYPE_CHECKING:  # bots import the match loop through their runner
    from unokit.bots.base import Bot


class SeatKind(StrEnum):
    """Who decides for a seat."""

    HUMAN = "human"  # a person at this process (the terminal game)
    REMOTE = "remote"  # a person over the network (the web server)
    BOT = "bot"  # one of unokit's bots
    AUTOPILOT = "autopilot"  # a bot standing in for an absent person, until they return


class StaleVersion(UnoError):
    """An action made on an older state than the match's; nothing was applied."""

    code = "stale_version"


@dataclass(frozen=True, slots=True)
class Timing:
    """How long a front end with a clock lets moments last (seconds).

    ``bot_delay``: a bot's decision waits this long, so people can follow the play.
    ``catch_window``: while a seat can be caught (R-UNO-2: until the next player
    begins), a bot's turn waits at least this long, so people can press catch.
    ``turn_timer``: a person who has not acted after this long gets the autopilot for
    that decision (None: wait for ever).  ``autopilot_after``: a disconnected person's
    seat is played by the autopilot after this long.  ``next_round``: a finished
    round's summary stays this long before the next round starts by itself.
    """

    bot_delay: float = 0.9
    catch_window: float = 2.5
    turn_timer: float | None = None
    autopilot_after: float = 45.0
    next_round: float = 30.0

    @staticmethod
    def instant() -> Timing:
        return Timing(0.0, 0.0, None, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Update:
    """What one seat (``None``: a spectator) must learn after a change."""

    seat: int | None
    version: int
    view: View
    events: tuple[Event, ...]


def reaction_order(game: Game) -> list[int]:
    """The seats that may act out of turn now, in the order they are asked.

    Clockwise (seat numbers rising) from the seat after the one to act; the seat to
    act is not in it: its own out-of-turn chances come with its turn decision.  While a
    seat is catchable (R-UNO-2) every other live seat may catch it and the seat itself
    may still call; under R-VAR-JUMPIN, a seat holding the top card's twin may jump in.
    This is the one rule every front end's seat order comes from (RL and the
    simulator's fast path included: a test plays random games of every preset through
    both and compares).
    """
    if game.phase >= P_ROUND_OVER:
        return []
    n = game.n
    cur = game.current
    live = game.live
    catchable = game.vulnerable >= 0
    if not catchable and not game.rules.jump_in:
        return []
    out: list[int] = []
    for k in range(1, n):
        s = (cur + k) % n
        if live[s] and (catchable or game.jump_ins(s)):
            out.append(s)
    return out


class Match:
    """A game with seats, a version, per-seat event cursors and the pass set."""

    def __init__(
        self,
        game: Game,
        bots: Sequence[Bot | None] | None = None,
        kinds: Sequence[SeatKind] | None = None,
        timing: Timing | None = None,
    ) -> None:
        n = game.n
        self.game = game
        self.bots: list[Bot | None] = list(bots) if bots is not None else [None] * n
        if len(self.bots) != n:
            raise ValueError(f"one bot entry per seat ({n}), not {len(self.bots)}")
        if kinds is None:
            kinds = [SeatKind.HUMAN if b is None else SeatKind.BOT for b in self.bots]
        self.kinds: list[SeatKind] = list(kinds)
        if len(self.kinds) != n:
            raise ValueError(f"one seat kind per seat ({n}), not {len(self.kinds)}")
        self.timing = timing or Timing()
        self.version = 0
        self.passed: set[int] = set()
        # per seat (and None, the spectators' shared cursor) the index into
        # game.events up to which that seat has been told
        self._cursors: dict[int | None, int] = {}
        self._observed = [0] * n  # bots: events handed to observe() so far
        # told when bot_step(fallback=True) replaces a failing bot's decision
        self.on_bot_error: Callable[[int, str], None] | None = None

    # ---------------------------------------------------------------- queries ----
    @property
    def n(self) -> int:
        return self.game.n

    def check_seat(self, seat: int | None) -> None:
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.game.n
        ):
            raise UnoError(f"there is no seat {seat!r} at this table", code="bad_seat")

    def view(self, seat: int | None) -> View:
        """``seat``'s view (``None``: the public view a spectator gets)."""
        return view_of(self.game, seat)

    def actors(self) -> list[int]:
        """Every seat with a legal action now, its turn or not."""
        return self.game.actors()

    def next_to_ask(self) -> int | None:
        """The seat whose decision the match waits for next; None once the round is over.

        First any bot in ``reaction_order`` that has not passed, then the seat to act.
        People are never waited for on an out-of-turn chance: they may take it any
        time until the next decision lands (for a catch, R-UNO-2: until the next
        player begins), and front ends with a clock give them ``Timing.catch_window``.
        """
        g = self.game
        if g.phase >= P_ROUND_OVER:
            return None
        passed = self.passed
        bots = self.bots
        for s in reaction_order(g):
            if s not in passed and bots[s] is not None:
                return s
        return g.current

    def is_reaction(self, seat: int) -> bool:
        """Whether ``seat`` is asked now only for an out-of-turn chance."""
        return seat != self.game.current

    # ---------------------------------------------------------------- acting -----
    def submit(
        self, seat: int, action: Action, version: int | None = None, checked: bool = False
    ) -> None:
        """Check and apply ``seat``'s action.

        ``version``: the state version the action was made on; if it is not the
        current one, ``StaleVersion`` (the sender needs a fresh view).  Refused
        actions (``UnoError``) change nothing, the version included.  ``checked``:
        the caller has just checked the action against this very state (the server
        does, before logging it), so it is not checked twice.
        """
        self.check_seat(seat)
        if version is not None and version != self.version:
            raise StaleVersion(
                f"this action was made on state {version}, the game is at {self.version}"
            )
        if checked:
            self.game.apply_trusted(seat, action)
        else:
            self.game.apply(seat, action)
        self.version += 1
        self.passed.clear()

    def pass_(self, seat: int) -> None:
        """``seat`` lets the current out-of-turn chance go by (not a game action)."""
        self.check_seat(seat)
        self.passed.add(seat)

    def next_round(self) -> None:
        self.game.start_round()
        self.version += 1
        self.passed.clear()

    # ---------------------------------------------------------------- telling ----
    def events_for(self, seat: int | None) -> list[Event]:
        """The events ``seat`` may see that it has not been given yet (moves its cursor)."""
        self.check_seat(seat)
        g = self.game
        if g.events is None:
            return []
        start = self._cursors.get(seat, 0)
        out = g.events_for(seat, start)
        self._cursors[seat] = len(g.events)
        return out

    def update(self, seat: int | None) -> Update:
        """``seat``'s view and its new events."""
        events = tuple(self.events_for(seat))
        return Update(seat, self.version, self.view(seat), events)

    def inform(self, seat: int) -> None:
        """Hand a bot the events of its seat since it last observed."""
        bot = self.bots[seat]
        g = self.game
        # bots written before ``observe`` joined the protocol still play
        observe = getattr(bot, "observe", None)
        if observe is None or g.events is None:
            return
        start = self._observed[seat]
        self._observed[seat] = len(g.events)
        observe(g.events_for(seat, start))

    # ---------------------------------------------------------------- bots -------
    def bot_decision(self, seat: int) -> Action | None:
        """Ask ``seat``'s bot: ``react`` for an out-of-turn chance, else ``act``.

        The seat to act may also catch before it begins (R-UNO-2): while someone is
        catchable its bot is offered ``react`` first, then ``act``.  None is a pass.
        """
        bot = self.bots[seat]
        if bot is None:
            return None
        self.inform(seat)
        view = view_of(self.game, seat)
        if self.is_reaction(seat):
            return bot.react(view)
        if self.game.vulnerable >= 0:
            reaction = bot.react(view)
            if reaction is not None:
                return reaction
        return bot.act(view)

    def bot_step(self, fallback: bool = False) -> bool:
        """One decision if the seat asked next is a bot (or the autopilot); False if not.

        Reactions that are None are passes.  ``fallback``: a bot that raises or whose
        turn action is illegal is replaced by the first legal turn action (for front
        ends with people waiting); without it the error propagates (tests, tournaments).
        """
        while True:
            seat = self.next_to_ask()
            if seat is None or self.bots[seat] is None:
                return False
            reaction = self.is_reaction(seat)
            try:
                action = self.bot_decision(seat)
            except Exception as e:
                if not fallback:
                    raise
                self._tell_error(seat, f"failed: {e}")
                action = None
            if action is None:
                if reaction:
                    self.pass_(seat)
                    continue
                if not fallback:
                    raise RuntimeError(f"the bot of seat {seat} gave no action")
                self._tell_error(seat, "gave no action on its turn")
                self._fallback(seat)
                return True
            try:
                self.submit(seat, action)
            except UnoError as e:
                if not fallback:
                    raise
                self._tell_error(seat, f"tried {action}: {e.message}")
                if reaction:
                    self.pass_(seat)
                    continue
                self._fallback(seat)
            return True

    def _tell_error(self, seat: int, message: str) -> None:
        if self.on_bot_error is not None:
            self.on_bot_error(seat, message)

    def _fallback(self, seat: int) -> None:
        view = view_of(self.game, seat)
        turn = [a for a in view.legal if a.kind not in (CATCH, UNO)]
        self.submit(seat, turn[0] if turn else view.legal[0])

    def delay(self) -> float:
        """How long a front end with a clock waits before the next bot decision."""
        t = self.timing
        g = self.game
        if g.vulnerable >= 0 and any(
            k in (SeatKind.HUMAN, SeatKind.REMOTE) and s != g.vulnerable
            for s, k in enumerate(self.kinds)
        ):
            return max(t.bot_delay, t.catch_window)
        return t.bot_delay
