"""A live match with seats: the ``MatchState`` of ``unokit.engine.state`` plus bots.

``Match`` is what boardgame.io calls the master, without the network.  The rules of
who acts live in the engine (``to_ask``, ``advance``); a ``Match`` owns one state, the
bots that decide for some seats, and what is told to whom:

* **who is asked next** is ``to_ask(state)``: out-of-turn chances of the seats the
  table waits on (the bots) first, clockwise from the seat after the one to act, then
  the seat that must decide; a seat that passed is not asked again until the game
  changes.  The RL tables and the simulator's bot path ask ``seat_to_ask`` too; only
  the compiled kernel and the search's rollouts keep their own loops, for speed, held to
  the same order by tests (docs/architecture.md);
* **the state version** rises by one with every accepted action; an action made on an
  older version is refused (``StaleVersion``), never applied;
* **what each seat must learn**: its view and the events it may see since it last
  looked (per-seat cursors; ``None`` is a spectator, who sees only public events), and
  each bot the same ``observe`` stream in every front end.

No clock and no I/O here: timing (how long bots wait so people can follow and catch
them) is a ``Timing`` value that front ends with a clock read; the bot runner ignores
it.

Bots in the same process are trusted code: a bot receives views and events only, but
Python cannot stop code in the same process from walking to the ``Game`` (through
the garbage collector or stack frames).  Untrusted bots need a process boundary; the
server runs only unokit's own bots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from unokit.engine.actions import Action
from unokit.engine.game import Event, Game
from unokit.engine.state import (
    PASS,
    MatchState,
    StaleVersion,
    advance_in_place,
    bot_fallback,
    next_round_in_place,
    reaction_order,
    to_ask,
    with_waits,
)
from unokit.engine.view import View, view_of
from unokit.errors import UnoError


class Bot(Protocol):
    """What the match needs of a bot (``unokit.bots.base.Bot`` is the full protocol,
    ``observe`` included, which the match finds with ``getattr``): declared here so
    the match does not import the layer above it."""

    def act(self, view: View) -> Action: ...

    def react(self, view: View) -> Action | None: ...


class SeatKind(StrEnum):
    """Who decides for a seat."""

    HUMAN = "human"  # a person at this process (the terminal game)
    REMOTE = "remote"  # a person over the network (the web server)
    BOT = "bot"  # one of unokit's bots
    AUTOPILOT = "autopilot"  # a bot standing in for an absent person, until they return


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


def inform(bot: object, game: Game, seat: int, since: int) -> int:
    """Hand ``bot`` the events ``seat`` may see from index ``since`` on; the new index.

    Every front end tells its bots through this, so each bot gets the same stream
    wherever it plays: exactly its seat's events, once, in order.
    """
    observe = getattr(bot, "observe", None)  # bots older than observe() still play
    events = game.events
    if observe is None or events is None:
        return since
    observe(game.events_for(seat, since))
    return len(events)


def ask_bot(bot: Bot, game: Game, seat: int) -> Action | None:
    """The one way a bot is asked: ``react`` for an out-of-turn chance, else ``act``.

    The seat to act may also catch before it begins (R-UNO-2): while someone is
    catchable its bot is offered ``react`` first, then ``act``.  None is a pass.
    """
    view = view_of(game, seat)
    if seat != game.current:
        return bot.react(view)
    if game.vulnerable >= 0:
        reaction = bot.react(view)
        if reaction is not None:
            return reaction
    return bot.act(view)


class Match:
    """A match state with seats: bots, seat kinds, timing and per-seat event cursors."""

    def __init__(
        self,
        game: Game,
        bots: Sequence[Bot | None] | None = None,
        kinds: Sequence[SeatKind] | None = None,
        timing: Timing | None = None,
        version: int = 0,
    ) -> None:
        n = game.n
        self.bots: list[Bot | None] = list(bots) if bots is not None else [None] * n
        if len(self.bots) != n:
            raise ValueError(f"one bot entry per seat ({n}), not {len(self.bots)}")
        if kinds is None:
            kinds = [SeatKind.HUMAN if b is None else SeatKind.BOT for b in self.bots]
        self.kinds: list[SeatKind] = list(kinds)
        if len(self.kinds) != n:
            raise ValueError(f"one seat kind per seat ({n}), not {len(self.kinds)}")
        self.timing = timing or Timing()
        waits = frozenset(s for s, b in enumerate(self.bots) if b is not None)
        self.state = MatchState(game, version, frozenset(), waits)
        # per seat (and None, the spectators' shared cursor) the index into
        # game.events up to which that seat has been told
        self._cursors: dict[int | None, int] = {}
        self._observed = [0] * n  # bots: events handed to observe() so far
        # told when bot_step(fallback=True) replaces a failing bot's decision
        self.on_bot_error: Callable[[int, str], None] | None = None

    # ---------------------------------------------------------------- queries ----
    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def passed(self) -> frozenset[int]:
        return self.state.passed

    @property
    def n(self) -> int:
        return self.state.game.n

    def check_seat(self, seat: int | None) -> None:
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n
        ):
            raise UnoError(f"there is no seat {seat!r} at this table", code="bad_seat")

    def view(self, seat: int | None) -> View:
        """``seat``'s view (``None``: the public view a spectator gets)."""
        return view_of(self.game, seat)

    def actors(self) -> list[int]:
        """Every seat with a legal action now, its turn or not."""
        return self.game.actors()

    def next_to_ask(self) -> int | None:
        """The seat whose decision the match waits for next (``to_ask``); None once the
        round is over."""
        ask = to_ask(self.state)
        return None if ask is None else ask.seat

    def is_reaction(self, seat: int) -> bool:
        """Whether ``seat`` is asked now only for an out-of-turn chance."""
        return seat != self.game.current

    def set_bot(self, seat: int, bot: Bot | None, kind: SeatKind) -> None:
        """Another decider for ``seat`` (a person left or came back, the autopilot)."""
        self.check_seat(seat)
        self.bots[seat] = bot
        self.kinds[seat] = kind
        waits = frozenset(s for s, b in enumerate(self.bots) if b is not None)
        self.state = with_waits(self.state, waits)

    # ---------------------------------------------------------------- acting -----
    def submit(
        self, seat: int, action: Action, version: int | None = None, checked: bool = False
    ) -> None:
        """Check and apply ``seat``'s action (``advance_in_place``).

        ``version``: the state version the action was made on; if it is not the
        current one, ``StaleVersion`` (the sender needs a fresh view).  Refused
        actions (``UnoError``) change nothing, the version included.  ``checked``:
        the caller has just checked the action against this very state (the server
        does, before logging it), so it is not checked twice.
        """
        self.check_seat(seat)
        if checked and version is not None and version != self.state.version:
            raise StaleVersion(
                f"this action was made on state {version}, the game is at {self.version}"
            )
        self.state = advance_in_place(self.state, seat, action, version=version, trusted=checked)

    def pass_(self, seat: int) -> None:
        """``seat`` lets the current out-of-turn chance go by."""
        self.check_seat(seat)
        self.state = advance_in_place(self.state, seat, PASS)

    def start_round(self, dealer: int | None = None, seed: int | None = None) -> None:
        """Deal the next round; the version rises."""
        self.state = next_round_in_place(self.state, dealer, seed)

    def next_round(self) -> None:
        self.start_round()

    def resume_at(self, version: int) -> None:
        """Set the version of a match rebuilt from its log (the server after a restart)."""
        st = self.state
        self.state = MatchState(st.game, version, frozenset(), st.waits)

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
        self._observed[seat] = inform(self.bots[seat], self.game, seat, self._observed[seat])

    def bot_decision(self, seat: int) -> Action | None:
        """Ask ``seat``'s bot (``ask_bot``), after telling it what it has not seen."""
        bot = self.bots[seat]
        if bot is None:
            return None
        self.inform(seat)
        return ask_bot(bot, self.game, seat)

    def decide_for(self, seat: int, bot: Bot) -> Action:
        """One decision by ``bot`` for ``seat``, which it does not hold (a person's turn
        timer ran out): told the seat's events, asked as every bot is (``ask_bot``: a
        catch first while someone is catchable), checked; ``bot_fallback`` if it fails."""
        self._observed[seat] = inform(bot, self.game, seat, self._observed[seat])
        try:
            action = ask_bot(bot, self.game, seat)
            if action is not None:
                self.game.check(seat, action)
                return action
        except Exception as e:  # a broken bot must not stop the table
            self._tell_error(seat, f"failed: {e}")
        return bot_fallback(self.state, seat)

    def bot_decide(self, fallback: bool = False) -> tuple[int, Action] | bool:
        """The next bot decision, checked, for the caller to apply; or whether bots passed.

        Bots' reactions that are None (or refused, with ``fallback``) are passes and
        are taken here: True says some were.  False: no bot is asked now.  With
        ``fallback``, a bot that raises or whose turn action is refused is replaced by
        ``bot_fallback`` and ``on_bot_error`` is told (front ends with people waiting);
        without it the error propagates (tests, tournaments).  The server logs the
        decision before it applies it; ``bot_step`` applies it at once.
        """
        passed = False
        while True:
            ask = to_ask(self.state)
            if ask is None or self.bots[ask.seat] is None:
                return passed
            seat, reaction = ask.seat, ask.reaction
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
                    passed = True
                    continue
                if not fallback:
                    raise RuntimeError(f"the bot of seat {seat} gave no action")
                self._tell_error(seat, "gave no action on its turn")
                return seat, bot_fallback(self.state, seat)
            try:
                self.game.check(seat, action)
            except UnoError as e:
                if not fallback:
                    raise
                self._tell_error(seat, f"tried {self.game.action_text(action)}: {e.message}")
                if reaction:
                    self.pass_(seat)
                    passed = True
                    continue
                return seat, bot_fallback(self.state, seat)
            return seat, action

    def bot_step(self, fallback: bool = False) -> bool:
        """One decision if the seat asked next is a bot (or the autopilot); False if not."""
        decided = self.bot_decide(fallback)
        if isinstance(decided, bool):
            return False  # no bot decides now (bots may have passed on a reaction)
        seat, action = decided
        self.submit(seat, action, checked=True)
        return True

    def _tell_error(self, seat: int, message: str) -> None:
        if self.on_bot_error is not None:
            self.on_bot_error(seat, message)

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


__all__ = [
    "Match",
    "SeatKind",
    "StaleVersion",
    "Timing",
    "Update",
    "ask_bot",
    "inform",
    "reaction_order",
]
