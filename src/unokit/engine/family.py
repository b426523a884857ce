"""The family of games: the contract every game of unokit keeps, and the registry.

python-chess can subclass its standard board for each variant because every variant
shares its squares and pieces.  UNO Flip! and No Mercy share no card table with classic
UNO, so here the games are siblings under one abstract ``Game`` (as OpenSpiel's games
are under ``Game``/``State``): ``ClassicGame`` (``engine/game.py``), ``FlipGame`` and
``NoMercyGame`` (``engine/modern/``).  Each answers every question of the contract for
itself; nothing is inherited that answers for another game.

Front ends (the terminal, the server, records, the simulator, bots, the RL layer) hold a
``Game`` and ask it: its legal actions, its checked and trusted apply, each seat's view
and events, its codec (actions and events to and from text and JSON, card codes, faces),
its JSON form, and its ``descriptor`` (cards, colours, options, phases and the prompts
they need).  They never ask which game it is.  A component that plays only some games
declares them by name (``games = frozenset({"classic"})``) and asks ``plays(game)``.

``Game(rules, players, seed)`` and ``new_game`` build the registered class that plays
``rules``' deck, so every caller keeps one constructor.  A new game registers itself
with ``@register`` and gets the conformance suite (``tests/test_family.py``) for free.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, TypeVar

from unokit.engine.actions import Action
from unokit.engine.dealing import RoundLog
from unokit.engine.errors import ActionParseError, IllegalAction
from unokit.engine.events import Event
from unokit.engine.outcome import Outcome
from unokit.engine.phases import P_GAME_OVER, P_ROUND_OVER, PHASE_NAMES
from unokit.errors import UnoError
from unokit.rules import GAME_DECKS, RulesError, RuleSet, game_of_deck, options_of_game

G = TypeVar("G", bound="Game")


class Game(ABC):
    """A game of one of unokit's games in rounds: what every game answers.

    The fields below are kept by every game with the same meaning, so ``MatchState``,
    ``to_ask`` and ``advance`` drive any game unchanged.  Everything else a game keeps
    is its own business.
    """

    # who the game is: its registry name, its title for people, the decks it plays
    NAME: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    # card codes name the same cards in every deal (so a record's cards can be read
    # before it is replayed); False where a deal decides (UNO Flip!'s pairing)
    FIXED_CODES: ClassVar[bool] = True

    rules: RuleSet
    names: list[str]
    n: int
    rng: random.Random
    round_rng: random.Random
    scores: list[int]
    live: list[bool]  # False once out of the game (eliminated, knocked out)
    n_live: int
    hands: list[list[int]]
    pile: list[int]  # the draw pile, top at the end
    discard: list[int]  # top at the end
    color: int
    direction: int
    current: int  # the seat whose turn it is
    phase: int
    drawn: int
    vulnerable: int  # a seat with one card that did not call UNO, catchable; or -1
    round_winner: int
    game_winner: int
    round_index: int
    dealer: int
    reshuffles: int
    events: list[Event] | None
    recording: bool
    teams: bool  # seats score as two teams (R-SCORE-TEAM)
    rounds: list[RoundLog]  # each round's log, for records

    def __new__(cls, rules: RuleSet | None = None, *args: Any, **kwargs: Any) -> Game:
        """``Game(rules, ...)`` builds the registered game that plays ``rules``' deck."""
        if cls is Game:
            cls = game_class(rules if rules is not None else RuleSet())
        return object.__new__(cls)

    @abstractmethod
    def __init__(
        self,
        rules: RuleSet | None = None,
        players: int | Sequence[str] = 2,
        seed: int | None = 0,
        *,
        dealer: int | None = None,
        events: bool = True,
        record: bool = True,
        start: bool = True,
    ) -> None: ...

    # ------------------------------------------------------------- who it is -------
    @classmethod
    def descriptor(cls) -> dict[str, Any]:
        """What a front end needs to show this game without knowing it (JSON values).

        The server sends it to the page; the terminal and the docs read it too.  Each
        game adds its own keys (``_describe``); these are common to all.
        """
        return {
            "name": cls.NAME,
            "title": cls.TITLE,
            "options": list(options_of_game(cls.NAME)),
            **cls._describe(),
        }

    @classmethod
    @abstractmethod
    def _describe(cls) -> dict[str, Any]:
        """The game's own part of its descriptor: cards, colours, sides, prompts."""

    @classmethod
    def codec(cls) -> Game:
        """One unstarted game of this class, kept, for actions' codes only (parsing a
        typed move, wording an action), which depend on the game, not on a deal.  Card
        codes may depend on the deal (``FIXED_CODES`` False: UNO Flip!'s pairing): never
        read or write card codes with it, and never play it."""
        got = _CODECS.get(cls)
        if got is None:
            got = _CODECS[cls] = cls(None, 2, start=False, events=False, record=False)
        return got

    @classmethod
    def _check_rules(cls, rules: RuleSet) -> None:
        """Refuse rules of another game (``new_game`` builds the right class)."""
        if rules.game != cls.NAME:
            raise RulesError(
                f"{cls.TITLE} plays {', '.join(GAME_DECKS[cls.NAME])}, not deck={rules.deck!r}"
                " (new_game builds the game the rules name)",
                code="bad_rules",
            )

    @classmethod
    def of(cls: type[G], game: Game) -> G:
        """``game`` as this class, for a component that declared it plays only this
        game (``games = {...}``); a clear error, not an AttributeError, otherwise."""
        if not isinstance(game, cls):
            raise UnoError(
                f"this needs a game of {cls.TITLE or cls.__name__}, not {game.TITLE}",
                code="bad_rules",
            )
        return game

    # ------------------------------------------------------------- set-up -----------
    @abstractmethod
    def choose_dealer(self) -> int: ...

    @abstractmethod
    def start_round(
        self,
        dealer: int | None = None,
        deck: Sequence[int] | None = None,
        seed: int | None = None,
        shuffles: Iterable[Sequence[int]] | None = None,
        launches: Iterable[int] | None = None,
    ) -> None:
        """Deal a round (``deck``/``seed``/``shuffles``/``launches``: a record's)."""

    @abstractmethod
    def unused_record_entries(self) -> str | None:
        """What a replayed record gave that the game never used (None: nothing)."""

    # ------------------------------------------------------------- queries ----------
    @property
    def top(self) -> int:
        return self.discard[-1] if self.discard else -1

    @property
    def round_over(self) -> bool:
        return self.phase >= P_ROUND_OVER

    @property
    def game_over(self) -> bool:
        return self.phase == P_GAME_OVER

    def outcome(self) -> Outcome:
        """The round's and the game's winners so far (None: not yet)."""
        gw = self.game_winner
        seats: tuple[int, ...] = ()
        if gw >= 0:
            seats = tuple(s for s in range(self.n) if s % 2 == gw) if self.teams else (gw,)
        return Outcome(
            round_over=self.phase >= P_ROUND_OVER,
            round_winner=self.round_winner if self.round_winner >= 0 else None,
            game_over=self.phase == P_GAME_OVER,
            game_winner=gw if gw >= 0 else None,
            winning_seats=seats,
            scores=tuple(self.scores),
        )

    @abstractmethod
    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the direction of play."""

    @abstractmethod
    def team_of(self, seat: int) -> int:
        """The side ``seat`` scores for (its own seat when there are no teams)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now; empty when it may do nothing."""

    @abstractmethod
    def actors(self) -> list[int]:
        """Every seat that has at least one legal action now."""

    @abstractmethod
    def jump_ins(self, seat: int) -> bool:
        """May ``seat`` play out of turn now?"""

    @abstractmethod
    def round_points(self, winner: int) -> int: ...

    @abstractmethod
    def hand_points(self, seat: int) -> int: ...

    def points_owed(self, seat: int) -> int:
        """What ``seat`` hands the round's winner under points scoring: its hand's
        points, valued by this game (a game whose players pay otherwise says so)."""
        return self.hand_points(seat)

    @abstractmethod
    def card_count(self) -> int:
        """Cards in hands and piles (and set aside): always the deck's size."""

    @abstractmethod
    def full_deck(self) -> list[int]:
        """Every card id of the deck the rules give, once per copy."""

    # ------------------------------------------------------------- changes ----------
    @abstractmethod
    def check(self, seat: int, action: Action) -> None:
        """Raise ``IllegalAction`` (stable code, a player's words) unless legal.

        It accepts every action ``legal_actions`` lists.  The classic game also accepts
        the other spellings of a listed action that ``engine/checks.py`` documents (an
        UNO call at any time, R-UNO-3; ``draw`` for accepting a penalty; a multi-play's
        cards in another order): a person may type them, a bot never needs them, and
        the conformance suite allows exactly those."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Check, then apply; a refused action changes nothing."""

    @abstractmethod
    def apply_trusted(self, seat: int, action: Action) -> None:
        """Apply without checking: bots, search and simulation."""

    @abstractmethod
    def copy(self, rng: random.Random | None = None) -> Game:
        """A copy for search: lists copied, rules shared, events off."""

    # ------------------------------------------------------------- output -----------
    @abstractmethod
    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: a spectator); the only way state leaves."""

    def events_for(self, seat: int | None, start: int = 0) -> list[Event]:
        """The events from index ``start`` on that ``seat`` may see (``None``: public).

        IllegalAction ``bad_seat`` for a number that is not a seat (never read as a
        negative index).
        """
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n
        ):
            raise IllegalAction(f"there is no seat {seat!r} at this table", code="bad_seat")
        if self.events is None:
            return []
        return [e for e in self.events[start:] if e.visible_to(seat)]

    def _emit(self, event: Event) -> None:
        if self.events is not None:
            self.events.append(event)

    @abstractmethod
    def state_json(self) -> dict[str, Any]:
        """The full state as RECORD.md's replay output shows it (not for players)."""

    @abstractmethod
    def to_json_obj(self) -> dict[str, Any]:
        """Everything the game is, as JSON values (``from_json_obj`` rebuilds it)."""

    @classmethod
    def from_json_obj(cls, obj: dict[str, Any]) -> Game:
        """The game ``to_json_obj`` wrote, of the class its rules name."""
        from unokit.rules import from_preset

        spec = obj["rules"]
        return game_class(from_preset(spec["preset"], spec["options"]))._from_json_obj(obj)

    @classmethod
    @abstractmethod
    def _from_json_obj(cls, obj: dict[str, Any]) -> Game: ...

    # ------------------------------------------------------------- codec ------------
    @abstractmethod
    def code_of(self, card: int) -> str:
        """A card's code (RECORD.md), as records and people write it."""

    @abstractmethod
    def cards_from_codes(self, codes: Sequence[str], where: str) -> list[int]:
        """Card ids from their codes (``where`` names the input in the error)."""

    @abstractmethod
    def face_code(self, face: int) -> str:
        """The code of what an action or a view names (a card, or a Flip face)."""

    @abstractmethod
    def shown_faces(self, cards: Sequence[int]) -> tuple[int, ...]:
        """What these cards show face up, as the ids a view and an action name."""

    @abstractmethod
    def color_code(self, color: int) -> str: ...

    @abstractmethod
    def parse_color(self, text: str) -> int: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """An action from its text code; ``ActionParseError`` otherwise."""

    @abstractmethod
    def action_text(self, action: Action) -> str:
        """The text code of an action (``parse_action`` reads it back)."""

    @abstractmethod
    def action_json(self, action: Action, seat: int) -> dict[str, Any]:
        """An action as RECORD.md's JSON object for ``seat``."""

    @abstractmethod
    def action_from_json(self, obj: Any) -> tuple[int, Action]:
        """``(seat, action)`` from RECORD.md's JSON object; ``RecordError``-style
        ``UnoError`` otherwise."""

    def action_from_wire(self, obj: Any) -> Action:
        """A client's action object: RECORD.md's without the seat (the connection says
        it); ``ActionParseError`` if malformed."""
        if not isinstance(obj, dict):
            raise ActionParseError("an action must be a JSON object")
        if "seat" in obj:
            raise ActionParseError("an action does not name its seat: the connection does")
        return self.action_from_json({**obj, "seat": 0})[1]

    @abstractmethod
    def event_json(self, event: Event) -> dict[str, Any]:
        """An event as JSON, cards by their codes."""

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.n} players, round {self.round_index}, "
            f"{PHASE_NAMES[self.phase]}, current {self.current}>"
        )


# ----------------------------------------------------------------- the registry -----
GAMES: dict[str, type[Game]] = {}
_CODECS: dict[type[Game], Game] = {}


def register(cls: type[G]) -> type[G]:
    """Add a game to the family (a class decorator); its ``NAME`` must be new."""
    if not cls.NAME or cls.NAME in GAMES:
        raise ValueError(f"a game needs a new NAME, not {cls.NAME!r}")
    GAMES[cls.NAME] = cls
    return cls


def find_game(name: str) -> type[Game]:
    """The registered game called ``name``; ``UnoError`` ``bad_rules`` otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES))
        raise UnoError(f"there is no game {name!r} (games: {known})", code="bad_rules") from None


def game_class(rules: RuleSet) -> type[Game]:
    """The registered game that plays ``rules``' deck."""
    return find_game(game_of_deck(rules.deck))


def new_game(
    rules: RuleSet | None = None, players: int | Sequence[str] = 2, seed: int | None = 0,
    **kwargs: Any,
) -> Game:  # fmt: skip
    """A new game of whichever family member plays ``rules``' deck."""
    rules = rules or RuleSet()
    return game_class(rules)(rules, players, seed, **kwargs)


def plays(games: Iterable[str] | None, game: Game | type[Game] | RuleSet) -> bool:
    """Does a component that declared ``games`` (None: every game) play this game?"""
    if games is None:
        return True
    name = game_of_deck(game.deck) if isinstance(game, RuleSet) else game.NAME
    return name in games


def descriptors() -> dict[str, dict[str, Any]]:
    """Every registered game's descriptor, by name."""
    return {name: cls.descriptor() for name, cls in GAMES.items()}
