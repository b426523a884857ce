"""What UNO Flip! and No Mercy share: rounds, the draw pile, UNO calls, checks, records.

``ModernGame`` is a member of the family (``engine/family.py``), a sibling of the
classic game, not a kind of it: it keeps the fields every game keeps with the same
meaning, so ``MatchState``, ``to_ask`` and ``advance`` drive it unchanged, and answers
the whole contract for itself.  The rules of each game are in ``flip.py`` and
``nomercy.py``.

Legal actions have one definition per game (``_turn_actions`` plus the UNO call and
catch here); ``check`` accepts exactly what it lists and only words the refusal.
``apply_trusted`` is the fast path: it applies without looking.
"""

from __future__ import annotations

import json
import random
from abc import abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from unokit.cards import CardError
from unokit.engine import serial
from unokit.engine.actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    KEEP,
    PLAY,
    UNO,
    Action,
)
from unokit.engine.checks import check_shape
from unokit.engine.dealing import RoundLog, shuffle
from unokit.engine.errors import ActionParseError, IllegalAction, ShuffleError
from unokit.engine.events import FIELDS, Event, EventKind
from unokit.engine.family import Game
from unokit.engine.phases import P_GAME_OVER, P_ROUND_OVER, PHASE_NAMES
from unokit.rules import GAME_DECKS, GAME_SCORINGS, RuleSet, from_preset

if TYPE_CHECKING:
    from typing import Self

    from unokit.engine.view import View

_SIMPLE = {"draw": DRAW, "keep": KEEP, "challenge": CHALLENGE, "accept": ACCEPT}


class WorldError(ValueError):
    """A view that no deal of its game can match (never a legal game's view)."""


class ModernGame(Game):
    """A game of UNO Flip! or No Mercy in rounds (hands): the parts both share."""

    DECK: ClassVar[str] = ""
    # what an action may name: card (face) ids 0..ACTION_CARDS-1, colours by these codes
    ACTION_CARDS: ClassVar[int] = 0
    COLOR_CODES: ClassVar[tuple[str, ...]] = ()

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
    ) -> None:
        self.rules = rules = rules or from_preset(self.DECK)
        self._check_rules(rules)
        names = [f"Player {i}" for i in range(players)] if isinstance(players, int) else [
            str(p) for p in players]  # fmt: skip
        rules.check_players(len(names))
        self.names = names
        self.n = n = len(names)
        self.rng = random.Random(seed)
        self.round_rng = self.rng
        self.points = ()
        self.teams = False
        self.scores = [0] * n
        self.live = [True] * n
        self.n_live = n
        self.hands = [[] for _ in range(n)]
        self.pile = []  # top at the end
        self.discard = []  # top at the end
        self.color = -1
        self.direction = 1
        self.current = 0
        self.phase = P_ROUND_OVER
        self.drawn = -1
        self.vulnerable = -1
        self.wd4_by = -1
        self.wd4_prev_color = -1
        self.wd4_guilty = False
        self.pend_card = -1
        self.pend_total = 0
        self.round_winner = -1
        self.game_winner = -1
        self.round_index = -1
        self.dealer = -1
        self.reshuffles = 0
        self.rounds: list[RoundLog] = []
        self.events = [] if events else None
        self.recording = record
        self._forced: list[list[int]] = []  # shuffles given by a record, next last
        self._log: RoundLog | None = None
        self._init_game()
        if start:
            self.start_round(dealer if dealer is not None else self.choose_dealer())

    # ------------------------------------------------------ what each game says ----
    FACE_CODES: ClassVar[tuple[str, ...]] = ()  # what actions and views name, by id
    NO_PHASES: ClassVar[tuple[str, ...]] = ()  # phases this game never enters
    SIDES: ClassVar[tuple[str, ...]] = ()
    # what the page words differently per game (docs/protocol.md, "Games"): why the
    # start_color phase asks a colour, which card the challenge phase challenges (None:
    # the game has no challenge), what a draw does, what a seat out of the game is
    START_COLOR: ClassVar[str] = "start_wild"
    CHALLENGE: ClassVar[str | None] = None
    DRAW: ClassVar[str] = "one"
    OUT: ClassVar[str] = "eliminated"

    @classmethod
    def _describe(cls) -> dict[str, Any]:
        return {
            "decks": list(GAME_DECKS[cls.NAME]),
            "colors": list(cls.COLOR_CODES),
            "cards": list(cls.FACE_CODES),
            "sides": list(cls.SIDES),
            "scorings": list(GAME_SCORINGS[cls.NAME]),
            "phases": [p for p in PHASE_NAMES if p not in cls.NO_PHASES],
            "prompts": {"start_color": cls.START_COLOR, "challenge": cls.CHALLENGE},
            "draw": cls.DRAW,
            "out": cls.OUT,
        }

    def _init_game(self) -> None:
        """Per-game fields, set before the first round."""

    # full_deck, code_of, cards_from_codes, face_code, color_code, parse_color: each
    # game's own (the family's abstract methods)
    @abstractmethod
    def parse_face(self, text: str) -> int:
        """A face from its code (what actions and views name)."""

    @classmethod
    def _world_base(cls, view: View, seed: int) -> Self:
        """A game of this class with everything public taken from ``view``."""
        g = cls(view.rules, list(view.names), seed=seed, events=False, record=False, start=False)
        g.color = view.color
        g.direction = view.direction
        g.current = view.current
        g.phase = view.phase
        g.vulnerable = view.vulnerable
        g.live = list(view.live)
        g.n_live = sum(view.live)
        g.scores = list(view.scores)
        g.round_index = view.round_index
        g.dealer = view.dealer
        g.round_winner = view.round_winner
        g.game_winner = view.game_winner
        g.pend_card = view.pending
        g.pend_total = view.pending_total
        g.wd4_by = view.wd4_by
        g.round_rng = random.Random(seed)
        return g

    @classmethod
    @abstractmethod
    def sample_world(cls, view: View, rng: random.Random, bluff: float = 0.25) -> Self:
        """A whole game consistent with ``view``: every card the seat cannot see dealt
        again at random (a determinization, for search).  ``bluff``: the chance that a
        Wild Draw waiting for its challenge is a bluff.  ``WorldError`` for a view that
        no deal matches."""

    def side_up(self) -> int:
        """The side in force (UNO Flip!: 0 light, 1 dark); -1 in a game without sides."""
        return -1

    def knocked_out(self) -> int:
        """Seats knocked out of this hand (No Mercy's Mercy rule); 0 where none can be."""
        return 0

    @abstractmethod
    def held_most(self, seat: int) -> int:
        """The colour ``seat`` holds most now (of the side up), ties by order."""

    @abstractmethod
    def is_wild(self, face: int) -> bool:
        """Whether a face (what actions name) is a wild."""

    def team_of(self, seat: int) -> int:
        return seat  # no team scoring in the modern games: each seat is its own side

    def unused_record_entries(self) -> str | None:
        """Shuffles a replayed record gave that the round never used (damage, refused)."""
        k = len(self._forced)
        return f"{k} 'shuffles' entr{'y' if k == 1 else 'ies'} never used" if k else None

    @abstractmethod
    def _dealer_value(self, card: int) -> int | None:
        """The value of a card drawn to choose the first dealer (None: draw another)."""

    @abstractmethod
    def _start(self, dealer: int, first: int) -> None:
        """Turn the start card and apply its rule."""

    @abstractmethod
    def _turn_actions(self, seat: int) -> list[Action]:
        """What the seat to act may do now (without the UNO call and catches)."""

    @abstractmethod
    def _do(self, seat: int, action: Action) -> None:
        """Apply a turn action the caller knows is legal."""

    def _why(self, seat: int, action: Action) -> str:
        """Why a turn action of the seat to act is refused, in a player's words."""
        return f"{self.action_text(action)} is not allowed now"

    @abstractmethod
    def _score(self, winner: int) -> None:
        """Score the hand ``winner`` won and decide whether the game is over."""

    def _give_one(self, seat: int) -> int:
        """One card from the draw pile into ``seat``'s hand (-1: none left); the id."""
        if not self.pile and not self._refill():
            return -1
        c = self.pile.pop()
        self.hands[seat].append(c)
        return c

    # ------------------------------------------------------------- set-up ---------
    def choose_dealer(self) -> int:
        """FLIP-SETUP-2 / NM-SETUP-2 (R-SETUP-2): the highest card drawn deals; ties draw again."""
        deck = self.full_deck()
        contenders = list(range(self.n))
        while True:
            shuffle(self.rng, deck)
            it = iter(deck)
            draws: dict[int, int] = {}
            for seat in contenders:
                v = self._dealer_value(next(it))
                while v is None:
                    v = self._dealer_value(next(it))
                draws[seat] = v
            best = max(draws.values())
            contenders = [s for s, v in draws.items() if v == best]
            if len(contenders) == 1:
                return contenders[0]

    def start_round(
        self,
        dealer: int | None = None,
        deck: Sequence[int] | None = None,
        seed: int | None = None,
        shuffles: Iterable[Sequence[int]] | None = None,
        launches: Iterable[int] | None = None,
    ) -> None:
        """Deal a new round (hand): 7 each from the dealer's left, then the start card.

        ``deck`` (the whole deck, top first) and ``shuffles`` come from a record.
        """
        if self.phase == P_GAME_OVER:
            raise IllegalAction("the game is over", code="game_over")
        if self.phase != P_ROUND_OVER:
            raise IllegalAction("the round is not over yet", code="round_not_over")
        n = self.n
        if dealer is None:
            dealer = (self.dealer + 1) % n if self.dealer >= 0 else 0
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise IllegalAction(f"there is no seat {dealer} to deal", code="bad_seat")
        if launches:
            raise ShuffleError("this game has no card launcher")
        if seed is None:
            seed = self.rng.getrandbits(48)
        rng = random.Random(seed)
        full = self.full_deck()
        if deck is None:
            order = list(full)
            shuffle(rng, order)
        else:
            order = list(deck)
            if Counter(order) != Counter(full):
                raise ShuffleError("the deck must list every card of the game's deck once")
        self.round_rng = rng
        self._forced = [list(s) for s in shuffles] if shuffles is not None else []
        self._forced.reverse()
        if self.recording:
            self._log = RoundLog(dealer=dealer, deck=list(order), seed=seed)
            self.rounds.append(self._log)
        else:
            self._log = None
        self.round_index += 1
        self.dealer = dealer
        self.live = [True] * n  # NM-END-4: everyone plays each hand
        self.n_live = n
        size = self.rules.deal_size
        seats = [(dealer + j) % n for j in range(1, n + 1)]
        self.hands = [[] for _ in range(n)]
        for j, seat in enumerate(seats):
            self.hands[seat] = order[j : n * size : n]
        self.pile = order[n * size :][::-1]
        self.discard = []
        self.direction = 1
        self.drawn = -1
        self.vulnerable = -1
        self.round_winner = -1
        self.wd4_by = -1
        self.pend_card = -1
        self.pend_total = 0
        self._reset_round()
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.ROUND_START, dealer, amount=self.round_index))
            for seat in seats:
                h = self.hands[seat]
                ev.append(Event(EventKind.DEAL, seat, self._faces(h), len(h), only=seat))
                ev.append(Event(EventKind.DEAL, seat, (), len(h), hide=seat))
        self._start(dealer, seats[0])

    def _reset_round(self) -> None:
        """Per-round fields of each game."""

    def _faces(self, cards: Iterable[int]) -> tuple[int, ...]:
        """What the holder sees of these cards (their active faces)."""
        return tuple(cards)

    def shown_faces(self, cards: Sequence[int]) -> tuple[int, ...]:
        """The faces in force of these cards, as a hand laid down shows them."""
        return self._faces(cards)

    # --------------------------------------------------------------- piles --------
    def _shuffle_pile(self, pile: list[int]) -> None:
        """Shuffle ``pile`` in place, from the record if it says how, else from the RNG."""
        if self._forced:
            given = self._reorder(self._forced.pop(), pile)
            if given is None:
                raise ShuffleError(
                    f"a shuffle of round {self.round_index} is not a reordering of the "
                    f"{len(pile)} cards it replaces"
                )
            pile[:] = given[::-1]
        else:
            shuffle(self.round_rng, pile)
        if self._log is not None:
            self._log.shuffles.append(pile[::-1])
        self._emit(Event(EventKind.RESHUFFLE, -1, amount=len(pile)))

    def _reorder(self, given: list[int], pile: list[int]) -> list[int] | None:
        """A record's shuffle as this pile's cards, or None if it is not a reordering."""
        return given if sorted(given) == sorted(pile) else None

    def _refill_cards(self) -> list[int]:
        """The cards a reshuffle takes (the discards under the top card)."""
        cards = self.discard[:-1]
        del self.discard[:-1]
        return cards

    def _refill(self) -> bool:
        """R-TURN-6: a new draw pile from the discards; False when there is nothing."""
        cards = self._refill_cards()
        if not cards:
            return False
        self.pile[:0] = cards
        self._shuffle_pile(self.pile)
        self.reshuffles += 1
        return True

    # -------------------------------------------------------------- seats ---------
    def _next(self, seat: int, steps: int = 1) -> int:
        """The ``steps``-th live seat after ``seat`` in the direction of play (``seat``
        itself may be out: a knocked-out player's turn passes on, NM-MERCY-3)."""
        n, d, live = self.n, self.direction, self.live
        s = seat
        for _ in range(steps):
            s = (s + d) % n
            while not live[s]:
                s = (s + d) % n
        return s

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return self._next(seat, steps)

    # -------------------------------------------------------------- legality ------
    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now: the one definition ``check`` accepts."""
        if self.phase >= P_ROUND_OVER or not 0 <= seat < self.n or not self.live[seat]:
            return []
        if seat == self.current:
            out = self._turn_actions(seat)
        else:
            out = self._jump_actions(seat) if self.rules.jump_in else []
        v = self.vulnerable
        if v >= 0:
            out.append(Action(UNO) if seat == v else Action(CATCH, target=v))
        return out

    def actors(self) -> list[int]:
        return [s for s in range(self.n) if self.legal_actions(s)]

    def jump_ins(self, seat: int) -> bool:
        """R-VAR-JUMPIN: may ``seat`` play out of turn now?  (``reaction_order`` asks.)"""
        return bool(self._jump_actions(seat)) if self.rules.jump_in else False

    def _jump_actions(self, seat: int) -> list[Action]:
        """The out-of-turn plays ``seat`` may make now (none unless the game has them)."""
        return []

    def check(self, seat: int, action: Action) -> None:
        """Raise ``IllegalAction`` (nothing changes) unless ``action`` is legal for ``seat``."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise IllegalAction(f"there is no seat {seat!r} at this table", code="bad_seat")
        # the shape first, as the classic check does: a float, bool or string equal to
        # a listed int would pass the membership test below and half-apply
        check_shape(action, self.n, self.ACTION_CARDS, self.COLOR_CODES)
        if action in self.legal_actions(seat):
            return
        name = self.names[seat]
        if self.phase == P_GAME_OVER:
            raise IllegalAction("the game is over", code="game_over")
        if self.phase >= P_ROUND_OVER:
            raise IllegalAction("the round is over", code="round_over")
        if not self.live[seat]:
            raise IllegalAction(f"{name} is out of this hand", code="eliminated")
        k = action.kind
        if k == UNO:
            raise IllegalAction(f"{name} has nothing to call UNO for now", code="not_now")
        if k == CATCH:
            raise IllegalAction(
                f"seat {action.target} cannot be caught now (only a player who went down "
                "to one card without calling UNO, until the next player begins)",
                code="not_now",
            )
        if seat != self.current:
            raise IllegalAction(
                f"it is {self.names[self.current]}'s turn, not {name}'s", code="not_your_turn"
            )
        raise IllegalAction(self._why(seat, action))

    def apply(self, seat: int, action: Action) -> None:
        """Checked: ``IllegalAction`` leaves the game unchanged."""
        self.check(seat, action)
        self.apply_trusted(seat, action)

    def apply_trusted(self, seat: int, action: Action) -> None:
        """The fast path: apply a legal action without checking it."""
        if self._log is not None:
            self._log.actions.append((seat, action))
        k = action.kind
        if k == UNO:
            self.vulnerable = -1
            self._emit(Event(EventKind.UNO, seat))
            return
        if k == CATCH:
            self._catch(seat, action.target)
            return
        if k != COLOR or seat != self.vulnerable:
            # the next decision began: too late to catch (R-UNO-2); a colour the
            # catchable player names for the card just played is still that play
            self.vulnerable = -1
        self._do(seat, action)

    # The classic fast-path methods, routed through this game's own rules, so that a
    # caller written for the classic ``Game`` never runs classic code on these cards.
    def play(
        self,
        seat: int,
        card: int,
        color: int = -1,
        uno: bool = False,
        target: int = -1,
        extra: tuple[int, ...] = (),
    ) -> None:
        self.apply_trusted(seat, Action(PLAY, card, color, target, uno, extra))

    def draw(self, seat: int) -> None:
        self.apply_trusted(seat, Action(DRAW))

    def keep(self, seat: int) -> None:
        self.apply_trusted(seat, Action(KEEP))

    def choose_color(self, seat: int, color: int, target: int = -1) -> None:
        self.apply_trusted(seat, Action(COLOR, color=color, target=target))

    def call_uno(self, seat: int) -> None:
        self.apply_trusted(seat, Action(UNO))

    def catch(self, seat: int, target: int) -> None:
        self.apply_trusted(seat, Action(CATCH, target=target))

    def challenge(self, seat: int) -> None:
        self.apply_trusted(seat, Action(CHALLENGE))

    def accept(self, seat: int) -> None:
        self.apply_trusted(seat, Action(ACCEPT))

    def _catch(self, seat: int, target: int) -> None:
        self.vulnerable = -1
        pen = self.rules.uno_penalty
        self._emit(Event(EventKind.CATCH, seat, amount=pen, target=target))
        self._give(target, pen)

    def _give(self, seat: int, count: int) -> int:
        """``seat`` draws ``count`` cards one at a time; how many it got."""
        got: list[int] = []
        for _ in range(count):
            c = self._give_one(seat)
            if c < 0:
                break
            got.append(c)
        self._emit_draw(seat, got)
        return len(got)

    def _emit_draw(self, seat: int, got: Sequence[int]) -> None:
        ev = self.events
        if ev is not None and got:
            ev.append(Event(EventKind.DRAW, seat, self._faces(got), len(got), only=seat))
            ev.append(Event(EventKind.DRAW, seat, (), len(got), hide=seat))

    def _uno_after(self, seat: int, uno: bool) -> None:
        """R-UNO-1: one card left without the call makes the seat catchable."""
        if len(self.hands[seat]) == 1:
            if uno:
                self._emit(Event(EventKind.UNO, seat))
            else:
                self.vulnerable = seat

    def _end_round(self, winner: int) -> None:
        self.vulnerable = -1
        self.round_winner = winner
        self.pend_card = -1
        self.pend_total = 0
        self.wd4_by = -1
        self.drawn = -1
        self._score(winner)

    def _finish(self, winner: int, gained: int, game_winner: int) -> None:
        self._emit(Event(EventKind.ROUND_OVER, winner, amount=gained))
        if game_winner >= 0:
            self.game_winner = game_winner
            self.phase = P_GAME_OVER
            self._emit(Event(EventKind.GAME_OVER, game_winner, amount=self.scores[game_winner]))
        else:
            self.phase = P_ROUND_OVER

    # ------------------------------------------------------------ actions as text --
    def action_json(self, action: Action, seat: int) -> dict[str, Any]:
        """RECORD.md's action object with this game's codes."""
        out: dict[str, Any] = {"seat": seat}
        k = action.kind
        if k == PLAY:
            if action.extra:  # multi-play (R-VAR-MULTI): every card, the last on top
                out["cards"] = [self.face_code(f) for f in action.cards]
            else:
                out["play"] = self.face_code(action.card)
            if action.color >= 0:
                out["color"] = self.color_code(action.color)
            if action.target >= 0:
                out["target"] = action.target
            if action.uno:
                out["uno"] = True
        elif k == COLOR:
            out["color"] = self.color_code(action.color)
        elif k == CATCH:
            out["catch"] = action.target
        elif k == UNO:
            out["uno"] = True
        else:
            out[{DRAW: "draw", KEEP: "keep", CHALLENGE: "challenge", ACCEPT: "accept"}[k]] = True
        return out

    def action_from_json(self, obj: Any) -> tuple[int, Action]:
        """The inverse of ``action_json``; ActionParseError says what is wrong."""
        q = _quote(obj)
        if not isinstance(obj, dict):
            raise ActionParseError(f"an action must be an object, not {q}")
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ActionParseError(f"action {q} has no whole-number 'seat'")
        unknown = set(obj) - {"seat", "play", "cards", "color", "target", "uno", "catch", *_SIMPLE}
        if unknown:
            raise ActionParseError(f"action {q} has unknown keys: {', '.join(sorted(unknown))}")
        mains = [k for k in ("play", "cards", "catch", *_SIMPLE) if k in obj]
        if len(mains) > 1:
            raise ActionParseError(f"action {q} mixes {' and '.join(mains)}")
        color = -1
        try:
            if "color" in obj:
                color = self.parse_color(obj["color"])
            if mains == ["play"]:
                card = self.parse_face(obj["play"])
            extra: tuple[int, ...] = ()
            if mains == ["cards"]:
                codes = obj["cards"]
                if not isinstance(codes, list) or len(codes) < 2:
                    raise ActionParseError(f"in action {q}, 'cards' must list 2 or more cards")
                first, *more = (self.parse_face(c) for c in codes)
                card, extra = first, tuple(more)
        except CardError as e:
            raise ActionParseError(f"in action {q}: {e}") from None
        target = obj.get("target", -1)
        if not isinstance(target, int) or isinstance(target, bool):
            raise ActionParseError(f"in action {q}, 'target' must be a seat number")
        uno = obj.get("uno", False)
        if uno not in (True, False) or ("uno" in obj and uno is not True):
            raise ActionParseError(f"in action {q}, 'uno' must be true")
        if mains in (["play"], ["cards"]):
            return seat, Action(PLAY, card, color, target, bool(uno), extra)
        if mains and (color >= 0 or "target" in obj or uno):
            raise ActionParseError(f"action {q}: only a play takes color, target or uno")
        if mains == ["catch"]:
            t = obj["catch"]
            if not isinstance(t, int) or isinstance(t, bool):
                raise ActionParseError(f"in action {q}, 'catch' must be a seat number")
            return seat, Action(CATCH, target=t)
        if mains:
            if obj[mains[0]] is not True:
                raise ActionParseError(f"in action {q}, {mains[0]!r} must be true")
            return seat, Action(_SIMPLE[mains[0]])
        if color >= 0 and "target" not in obj and not uno:
            return seat, Action(COLOR, color=color)
        if uno and color < 0 and "target" not in obj:
            return seat, Action(UNO)
        raise ActionParseError(f"action {q} says nothing to do")

    def parse_action(self, text: str) -> Action:
        """The short text form (``T+5``, ``W+C O uno``, ``R7 2``, ``draw``, ``color T``)."""
        words = text.replace(",", " ").split()
        if not words:
            raise ActionParseError("empty action: type a card code, or 'draw'")
        head, rest = words[0].lower(), words[1:]
        simple = {"draw": DRAW, "keep": KEEP, "uno": UNO, "challenge": CHALLENGE,
                  "accept": ACCEPT, "absorb": ACCEPT}  # fmt: skip
        try:
            if head in simple and not rest:
                return Action(simple[head])
            if head == "catch" and len(rest) == 1 and rest[0].isdigit():
                return Action(CATCH, target=int(rest[0]))
            if head == "color" and len(rest) == 1:
                return Action(COLOR, color=self.parse_color(rest[0]))
            card, *more = (self.parse_face(w) for w in words[0].split("/"))
            color, target, uno = -1, -1, False
            for w in rest:
                if w.lower() == "uno":
                    uno = True
                elif w.isdigit():
                    target = int(w)
                else:
                    color = self.parse_color(w)
            return Action(PLAY, card, color, target, uno, tuple(more))
        except CardError as e:
            raise ActionParseError(f"{text!r}: {e}") from None

    def action_text(self, action: Action) -> str:
        """The short text of an action; never fails (it words refusals of bad input)."""
        try:
            return self._action_text(action)
        except (TypeError, IndexError, KeyError, ValueError, AttributeError):
            # a bot's answer that is no Action at all (review: AttributeError escaped)
            if isinstance(action, tuple):
                return "Action(" + ", ".join(repr(x)[:20] for x in action) + ")"
            return repr(action)[:60]

    def _action_text(self, action: Action) -> str:
        k = action.kind
        if k == PLAY:
            parts = ["/".join(self.face_code(f) for f in action.cards)]
            if action.color >= 0:
                parts.append(self.color_code(action.color))
            if action.target >= 0:
                parts.append(str(action.target))
            if action.uno:
                parts.append("uno")
            return " ".join(parts)
        if k == COLOR:
            return f"color {self.color_code(action.color)}"
        if k == CATCH:
            return f"catch {action.target}"
        return ("play", "draw", "keep", "uno", "catch", "challenge", "accept", "color")[k]

    # -------------------------------------------------------------- output --------
    def event_json(self, event: Event) -> dict[str, Any]:
        """An event's wire form with this game's codes (``Event.to_json`` knows only the
        classic cards): the fields of docs/protocol.md, cards as the faces they showed."""
        kind = EventKind(event.kind)
        out: dict[str, Any] = {"kind": kind.value}
        for name, slot, conv, _ in FIELDS[kind]:
            value = getattr(event, slot)
            if slot == "cards":
                if name == "cards":
                    if not value:
                        continue  # redacted: the count says how many
                    out[name] = [self.face_code(f) for f in value]
                else:
                    out[name] = self.face_code(value[0]) if value else None
            elif slot == "color":
                out[name] = self.color_code(value) if value >= 0 else None
            else:  # seats, counts, flags: the same as for the classic game
                out[name] = conv(value)
        return out

    def card_count(self) -> int:
        return (
            len(self.pile)
            + len(self.discard)
            + sum(len(h) for h in self.hands)
            + len(self._aside())
        )

    def _aside(self) -> list[int]:
        return []

    def round_points(self, winner: int) -> int:
        """The points in the other hands, valued by this game (FLIP-SCORE-1, NM-SCORE-2's
        card values; knocked-out hands are empty): what tournaments report per round."""
        return sum(self.hand_points(s) for s in range(self.n) if s != winner)

    def copy(self, rng: random.Random | None = None) -> Game:
        g = type(self)._from_json_obj(self.to_json_obj())
        g.events = None
        g.rounds = []
        g._log = None
        if rng is not None:
            g.rng = g.round_rng = rng
        return g

    def state_json(self) -> dict[str, Any]:
        """The full state as `unokit replay` prints it (faces as each card now shows)."""
        seen = self._faces
        return {
            "game": self.DECK,
            "hands": [[self.face_code(f) for f in seen(h)] for h in self.hands],
            "top": self.face_code(seen(self.discard[-1:])[0]) if self.discard else None,
            "color": self.color_code(self.color) if self.color >= 0 else None,
            "current": self.current,
            "direction": self.direction,
            "draw_pile": len(self.pile),
            "discard_pile": len(self.discard),
            "round_over": self.phase >= P_ROUND_OVER,
            "round_winner": self.round_winner if self.round_winner >= 0 else None,
            "scores": list(self.scores),
            "game_over": self.phase == P_GAME_OVER,
            "game_winner": self.game_winner if self.game_winner >= 0 else None,
            **self._extra_state(),
        }

    def _extra_state(self) -> dict[str, Any]:
        return {}

    # ----------------------------------------------------------- uno-match/1 ------
    _FIELDS: ClassVar[tuple[str, ...]] = (
        "scores", "live", "n_live", "hands", "pile", "discard", "color", "direction",
        "current", "phase", "drawn", "vulnerable", "wd4_by", "wd4_prev_color", "wd4_guilty",
        "pend_card", "pend_total", "round_winner", "game_winner", "round_index", "dealer",
        "reshuffles", "_forced",
    )  # fmt: skip

    def to_json_obj(self) -> dict[str, Any]:
        """Everything this game is, as JSON values (the ``game`` of ``uno-match/1``)."""
        out: dict[str, Any] = {
            "rules": self.rules.to_spec(),
            "names": list(self.names),
            "recording": self.recording,
            "rng": list(serial.rng_json(self.rng)),
            "round_rng": None if self.round_rng is self.rng else serial.rng_json(self.round_rng),
            "rounds": [
                {
                    "dealer": r.dealer,
                    "deck": list(r.deck),
                    "seed": r.seed,
                    "shuffles": [list(s) for s in r.shuffles],
                    # the classic form: a multi-play's extra cards are the third item
                    # (they were dropped once, and a loaded or advanced match then wrote
                    # records that replayed to another end)
                    "actions": [[s, list(a[:5]), list(a.extra)] for s, a in r.actions],
                }
                for r in self.rounds
            ],
            "log": self.rounds.index(self._log) if self._log is not None else None,
            "events": None if self.events is None else [list(e) for e in self.events],
        }
        d = self.__dict__
        for name in self._FIELDS:
            out[name] = json.loads(json.dumps(d[name]))
        return out

    @classmethod
    def _from_json_obj(cls, obj: dict[str, Any]) -> ModernGame:
        spec = obj["rules"]
        rules = from_preset(spec["preset"], spec["options"])
        g = cls(rules, obj["names"], seed=0, events=obj["events"] is not None,
                     record=obj["recording"], start=False)  # fmt: skip
        d = g.__dict__
        for name in g._FIELDS:
            v = obj[name]
            d[name] = [list(x) if isinstance(x, list) else x for x in v] if isinstance(
                v, list) else v  # fmt: skip
        g.rng = serial.rng_from(obj["rng"])
        g.round_rng = g.rng if obj["round_rng"] is None else serial.rng_from(obj["round_rng"])
        g.rounds = [
            RoundLog(
                dealer=r["dealer"], deck=list(r["deck"]), seed=r["seed"],
                shuffles=[list(s) for s in r["shuffles"]], launches=[],
                actions=[serial.logged_action(x) for x in r["actions"]],
            )
            for r in obj["rounds"]
        ]  # fmt: skip
        g._log = g.rounds[obj["log"]] if obj["log"] is not None else None
        if obj["events"] is not None:
            g.events = [
                Event(EventKind(k), s, tuple(c), a, col, t, only, hide)
                for k, s, c, a, col, t, only, hide in obj["events"]
            ]
        return g


def _quote(obj: Any) -> str:
    try:
        text = json.dumps(obj, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError):
        text = repr(obj)
    return text if len(text) <= 200 else text[:197] + "..."


__all__ = ["ModernGame", "WorldError"]
