"""The game: state, legal actions, checked and trusted apply, events, scoring.

One mutable ``Game`` holds a whole game of rounds.  It is pure in the sense that
matters: no I/O, no clock, no global random; every shuffle comes from the game's own
``random.Random`` (or from a record's ``shuffles``), so rules + seed + actions
reproduce a game exactly.

Two ways in:

* ``apply(seat, action)`` checks everything first and raises ``IllegalAction`` with the
  game untouched; people, servers and replays use it.
* ``play``/``draw``/``keep``/``accept``/... are the trusted fast path for bots and
  simulation: no checks, no allocation beyond what the rules need.

State leaves only through ``view(seat)`` and ``events_for(seat)``; the draw pile's
order and the RNG never do.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from unokit.cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_RANK,
    COLOR_CODES,
    DRAW2,
    NUM_RANKS,
    PLAYABLE_MASK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW4,
    build_deck,
    is_submultiset,
    points_table,
)
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
from unokit.engine.errors import IllegalAction, ShuffleError
from unokit.rules import RulesError, RuleSet, unsupported_options

# Phases: what the seat in ``current`` must decide.
P_PLAY = 0  # play a card or draw
P_DRAWN = 1  # the drawn card is playable: play it or keep it
P_START_COLOR = 2  # a Wild start card: the first player names the colour
P_CHALLENGE = 3  # hit by a Wild Draw Four: challenge or accept
P_ROUND_OVER = 4
P_GAME_OVER = 5
PHASE_NAMES = ("play", "drawn", "start_color", "challenge", "round_over", "game_over")

_TOP_RANKS = 18  # must match cards._TOP_RANKS


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle in place, uniformly, fast: sort by 64-bit random keys made in one C call.

    ``random.shuffle`` costs a Python-level call per card, which made dealing the most
    expensive step of a simulated round.  Ties between keys are astronomically rare and
    broken by the stable sort, so the order stays a pure function of the RNG.
    """
    m = len(cards)
    if m < 2:
        return
    keys = memoryview(rng.randbytes(8 * m)).cast("Q")
    order = sorted(range(m), key=keys.__getitem__)
    cards[:] = [cards[i] for i in order]


class Event(NamedTuple):
    """Something that happened.  ``only``/``hide`` say who may see it (-1: nobody special).

    A private fact comes as a pair: the full event for ``only=seat`` and a redacted one
    (cards removed) with ``hide=seat`` for everybody else.
    """

    kind: str
    seat: int
    cards: tuple[int, ...] = ()
    amount: int = 0
    color: int = -1
    target: int = -1
    only: int = -1
    hide: int = -1

    def visible_to(self, seat: int) -> bool:
        return (self.only < 0 or self.only == seat) and self.hide != seat


@dataclass
class RoundLog:
    """What a record needs to replay one round exactly (RECORD.md)."""

    dealer: int
    deck: list[int]  # top of the draw pile before dealing first
    seed: int
    shuffles: list[list[int]] = field(default_factory=list)  # each top first
    actions: list[tuple[int, Action]] = field(default_factory=list)


_DRAW = Action(DRAW)


class Game:
    """A game of UNO in rounds, for 2 to 10 players."""

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
        self.rules = rules = rules or RuleSet()
        bad = unsupported_options(rules)
        if bad:
            raise RulesError(
                "this engine does not play these options yet: " + ", ".join(bad),
                code="unsupported_option",
            )
        if isinstance(players, int):
            names = [f"Player {i}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        rules.check_players(len(names))
        if len(names) * rules.deal_size >= len(build_deck(rules.deck, rules.custom_cards)):
            raise RulesError(
                f"{len(names)} hands of {rules.deal_size} leave no card to start the round",
                code="bad_hand_size",
            )
        self.names: list[str] = names
        self.n = n = len(names)
        self.rng = random.Random(seed)
        self.points = points_table(rules.wild_points)
        self.scores = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.pile: list[int] = []  # draw pile, top at the END
        self.discard: list[int] = []  # top at the end
        self.color = -1
        self.direction = 1
        self.current = 0
        self.phase = P_ROUND_OVER
        self.drawn = -1
        self.vulnerable = -1  # seat with one card that did not call UNO, catchable
        self.wd4_by = -1
        self.wd4_prev_color = -1
        self.wd4_guilty = False
        self.round_winner = -1
        self.game_winner = -1
        self.round_index = -1
        self.dealer = -1
        self.rounds: list[RoundLog] = []
        self.events: list[Event] | None = [] if events else None
        self.recording = record
        self._deck = build_deck(rules.deck, rules.custom_cards)
        self._forced: list[list[int]] = []  # shuffles given by a record, next first
        self._log: RoundLog | None = None
        if start:
            first = dealer if dealer is not None else self.choose_dealer()
            self.start_round(first)

    # ------------------------------------------------------------------ set-up -----
    def choose_dealer(self) -> int:
        """R-SETUP-2: each draws a card; the highest number deals; ties and non-numbers redraw.

        The cards come from a fresh shuffled deck that goes back before the deal, so
        this only decides a seat.
        """
        deck = build_deck(self.rules.deck, self.rules.custom_cards)
        contenders = list(range(self.n))
        while True:
            shuffle(self.rng, deck)
            it = iter(deck)
            draws: dict[int, int] = {}
            for seat in contenders:
                card = next(it)
                while CARD_RANK[card] > 9:  # action and wild cards do not count
                    card = next(it)
                draws[seat] = card
                self._emit(Event("dealer_draw", seat, (card,)))
            best = max(CARD_RANK[c] for c in draws.values())
            contenders = [s for s, c in draws.items() if CARD_RANK[c] == best]
            if len(contenders) == 1:
                return contenders[0]

    def start_round(
        self,
        dealer: int | None = None,
        deck: Sequence[int] | None = None,
        seed: int | None = None,
        shuffles: Iterable[Sequence[int]] | None = None,
    ) -> None:
        """Deal a new round (R-SETUP-3) and turn the start card (R-SETUP-4).

        ``deck`` (top first, possibly only the top part) and ``shuffles`` come from a
        record; without them the round's own RNG orders everything.
        """
        if self.phase == P_GAME_OVER:
            raise IllegalAction("the game is over", code="game_over")
        if self.phase != P_ROUND_OVER:
            raise IllegalAction("the round is not over yet", code="round_not_over")
        n = self.n
        if dealer is None:
            dealer = (self.dealer + 1) % n if self.dealer >= 0 else 0
        if not 0 <= dealer < n:
            raise IllegalAction(f"there is no seat {dealer} to deal", code="bad_seat")
        if seed is None:
            seed = self.rng.getrandbits(48)
        rng = random.Random(seed)
        full = list(self._deck)
        if deck is None:
            order = full
            shuffle(rng, order)
        else:
            prefix = list(deck)
            if not is_submultiset(prefix, full):
                raise ShuffleError("the deck holds cards that the rule set's deck does not have")
            rest = Counter(full)
            rest.subtract(prefix)
            remaining = sorted(rest.elements())
            shuffle(rng, remaining)
            order = prefix + remaining
        self.round_rng = rng
        self._forced = [list(s) for s in shuffles] if shuffles is not None else []
        self._forced.reverse()  # pop() takes the next
        if self.recording:
            self._log = RoundLog(dealer=dealer, deck=list(order), seed=seed)
            self.rounds.append(self._log)
        else:
            self._log = None
        self.round_index += 1
        self.dealer = dealer
        # R-SETUP-3, one card at a time from the dealer's left: seat dealer+1+j gets
        # every n-th card from position j of the top-first order.
        dealt = n * self.rules.deal_size
        hands: list[list[int]] = [[] for _ in range(n)]
        for j in range(n):
            hands[(dealer + 1 + j) % n] = order[j:dealt:n]
        self.hands = hands
        self.pile = pile = order[: dealt - 1 : -1] if dealt < len(order) else []
        self.discard = []
        self.direction = 1
        self.drawn = -1
        self.vulnerable = -1
        self.round_winner = -1
        self.wd4_by = -1
        ev = self.events
        if ev is not None:
            ev.append(Event("round_start", dealer, amount=self.round_index))
            for seat in range(n):
                ev.append(Event("deal", seat, tuple(hands[seat]), len(hands[seat]), only=seat))
                ev.append(Event("deal", seat, (), len(hands[seat]), hide=seat))
        top = pile.pop()
        while top == WILD_DRAW4:  # R-START-WD4: back in the pile, reshuffle, turn again
            pile.append(top)
            self._emit(Event("start_card", dealer, (top,)))
            self._emit(Event("start_return", dealer, (top,)))
            self._shuffle_pile(pile)
            top = pile.pop()
        self.discard.append(top)
        self._emit(Event("start_card", dealer, (top,)))
        first = (dealer + 1) % n
        self.phase = P_PLAY
        rank = CARD_RANK[top]
        self.color = CARD_COLOR[top]
        if top >= WILD:  # R-START-WILD (and the other plain-acting wilds)
            self.color = -1
            self.current = first
            self.phase = P_START_COLOR
        elif rank == SKIP:  # R-START-SKIP
            self._emit(Event("skip", first))
            self.current = (dealer + 2) % n
        elif rank == REVERSE:  # R-START-REVERSE
            self.direction = -1
            self._emit(Event("reverse", dealer))
            self.current = dealer
        elif rank == DRAW2:  # R-START-DRAW2
            self._draw(first, 2)
            self._emit(Event("skip", first))
            self.current = (dealer + 2) % n
        else:
            self.current = first

    # ------------------------------------------------------------------ drawing ----
    def _shuffle_pile(self, pile: list[int]) -> None:
        """Shuffle ``pile`` in place, from the record if it says how, else from the RNG."""
        if self._forced:
            given = self._forced.pop()
            if sorted(given) != sorted(pile):
                raise ShuffleError(
                    f"shuffle {len(self._log.shuffles) if self._log else 0} of round "
                    f"{self.round_index} is not a reordering of the {len(pile)} cards "
                    "it replaces"
                )
            pile[:] = given[::-1]
        else:
            shuffle(self.round_rng, pile)
        if self._log is not None:
            self._log.shuffles.append(pile[::-1])
        self._emit(Event("reshuffle", -1, amount=len(pile)))

    def _refill(self) -> bool:
        """R-TURN-6: rebuild the draw pile from the discards; False if there is nothing."""
        discard = self.discard
        if len(discard) <= 1:
            return False
        top = discard.pop()
        pile = self.pile
        pile.extend(discard)
        discard.clear()
        discard.append(top)
        self._shuffle_pile(pile)
        return True

    def _draw(self, seat: int, count: int) -> list[int]:
        """Move up to ``count`` cards to ``seat``'s hand, reshuffling when the pile runs out."""
        pile = self.pile
        got: list[int] = []
        for _ in range(count):
            if not pile and not self._refill():
                break
            got.append(pile.pop())
        self.hands[seat].extend(got)
        ev = self.events
        if ev is not None:
            ev.append(Event("draw", seat, tuple(got), len(got), only=seat))
            ev.append(Event("draw", seat, (), len(got), hide=seat))
        return got

    def _emit(self, event: Event) -> None:
        if self.events is not None:
            self.events.append(event)

    # ------------------------------------------------------------------ queries ----
    @property
    def top(self) -> int:
        return self.discard[-1] if self.discard else -1

    @property
    def round_over(self) -> bool:
        return self.phase >= P_ROUND_OVER

    @property
    def game_over(self) -> bool:
        return self.phase == P_GAME_OVER

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.n

    def _can_play(self, hand: list[int], card: int) -> bool:
        """Whether ``card`` matches now (R-TURN-1) and, without bluffing, W+4 is allowed."""
        discard = self.discard
        if not PLAYABLE_MASK[self.color * _TOP_RANKS + CARD_RANK[discard[-1]]] >> card & 1:
            return False
        if card == WILD_DRAW4 and not self.rules.wd4_bluffing:
            color = self.color
            for c in hand:
                if CARD_COLOR[c] == color:
                    return False
        return True

    def playable(self, seat: int | None = None) -> list[int]:
        """The distinct cards ``seat`` (default: the seat to act) may play now.

        In the drawn-card phase only the drawn card; empty when the seat may not play.
        """
        if seat is None:
            seat = self.current
        if seat != self.current:
            return []
        if self.phase == P_DRAWN:
            return [self.drawn]
        if self.phase != P_PLAY:
            return []
        hand = self.hands[seat]
        mask = PLAYABLE_MASK[self.color * _TOP_RANKS + CARD_RANK[self.discard[-1]]]
        out = [c for c in set(hand) if mask >> c & 1]
        if WILD_DRAW4 in out and not self.rules.wd4_bluffing:
            color = self.color
            if any(CARD_COLOR[c] == color for c in hand):
                out.remove(WILD_DRAW4)
        out.sort()
        return out

    def playable_cards(self, seat: int) -> list[int]:
        """Trusted fast path: ``seat``'s playable cards in the play phase, repeats kept.

        No phase or turn checks and no W+4 restriction under ``wd4_bluffing=False``
        beyond what ``_can_play`` adds; use ``playable`` unless you are a simulation
        loop that already knows it is ``seat``'s play phase.
        """
        hand = self.hands[seat]
        mask = PLAYABLE_MASK[self.color * _TOP_RANKS + CARD_RANK[self.discard[-1]]]
        out = [c for c in hand if mask >> c & 1]
        if (
            not self.rules.wd4_bluffing
            and WILD_DRAW4 in out
            and not self._can_play(hand, WILD_DRAW4)
        ):
            out = [c for c in out if c != WILD_DRAW4]
        return out

    def actors(self) -> list[int]:
        """Every seat that has at least one legal action now."""
        if self.phase >= P_ROUND_OVER:
            return []
        if self.vulnerable >= 0:
            return list(range(self.n))
        return [self.current]

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now, its turn or not (a catch, a UNO call)."""
        phase = self.phase
        if phase >= P_ROUND_OVER:
            return []
        out: list[Action] = []
        if seat == self.current:
            if phase in (P_PLAY, P_DRAWN):
                left = len(self.hands[seat]) - 1
                for card in self.playable(seat):
                    colors: Iterable[int] = range(4) if card >= WILD else (-1,)
                    for color in colors:
                        out.append(Action(PLAY, card, color, -1, False))
                        if left == 1:
                            out.append(Action(PLAY, card, color, -1, True))
                if phase == P_PLAY:
                    out.append(Action(DRAW))
                elif not self.rules.force_play_drawn:
                    out.append(Action(KEEP))
            elif phase == P_START_COLOR:
                out.extend(Action(COLOR, color=c) for c in range(4))
            elif phase == P_CHALLENGE:
                out.append(Action(CHALLENGE))
                out.append(Action(ACCEPT))
        v = self.vulnerable
        if v >= 0:
            out.append(Action(UNO) if seat == v else Action(CATCH, target=v))
        return out

    # ------------------------------------------------------------------ checked ----
    def check(self, seat: int, action: Action) -> None:
        """Raise IllegalAction if ``seat`` may not take ``action`` now; change nothing."""
        n = self.n
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise IllegalAction(f"there is no seat {seat} at this table", code="bad_seat")
        phase = self.phase
        if phase == P_GAME_OVER:
            raise IllegalAction("the game is over", code="game_over")
        if phase == P_ROUND_OVER:
            raise IllegalAction("the round is over", code="round_over")
        kind = action.kind
        name = self.names
        if kind == UNO:
            return
        if kind == CATCH:
            t = action.target
            if not 0 <= t < n:
                raise IllegalAction(f"there is no seat {t} to catch", code="bad_target")
            if t == seat:
                raise IllegalAction("you cannot catch yourself", code="no_catch")
            if t != self.vulnerable:
                why = (
                    "does not have exactly one card"
                    if len(self.hands[t]) != 1
                    else "called UNO or can no longer be caught"
                )
                raise IllegalAction(f"{name[t]} cannot be caught: they {why}", code="no_catch")
            return
        cur = self.current
        if seat != cur:
            if phase == P_CHALLENGE and kind in (CHALLENGE, ACCEPT):
                raise IllegalAction(
                    f"only {name[cur]}, who must draw 4, may answer the Wild Draw Four",
                    code="not_challenged",
                )
            raise IllegalAction(f"it is {name[cur]}'s turn", code="not_your_turn")
        if phase == P_START_COLOR:
            if kind != COLOR:
                raise IllegalAction(
                    "the start card is a Wild: choose its colour first", code="must_choose_color"
                )
            if not 0 <= action.color < 4:
                raise IllegalAction("choose a colour: R, Y, G or B", code="bad_color")
            if action.target >= 0:
                raise IllegalAction("this start card takes no target", code="bad_target")
            return
        if phase == P_CHALLENGE:
            if kind in (CHALLENGE, ACCEPT) or kind == DRAW:
                return
            raise IllegalAction(
                "you were hit by a Wild Draw Four: challenge it or accept (draw 4)",
                code="must_answer_challenge",
            )
        if kind == COLOR:
            raise IllegalAction("a colour is chosen with the wild card you play", code="not_now")
        if kind in (CHALLENGE, ACCEPT):
            raise IllegalAction("there is no Wild Draw Four to answer", code="not_challenged")
        if kind == DRAW:
            if phase == P_DRAWN:
                raise IllegalAction(
                    f"you already drew: play {CARD_CODE[self.drawn]} or keep it",
                    code="already_drew",
                )
            return
        if kind == KEEP:
            if phase != P_DRAWN:
                raise IllegalAction(
                    "you can only keep a card you just drew", code="nothing_to_keep"
                )
            if self.rules.force_play_drawn:
                raise IllegalAction(
                    f"the drawn card must be played: play {CARD_CODE[self.drawn]}",
                    code="must_play_drawn",
                )
            return
        # kind == PLAY
        card = action.card
        if not 0 <= card < len(CARD_CODE):
            raise IllegalAction(f"there is no card {card}", code="bad_card")
        code = CARD_CODE[card]
        hand = self.hands[seat]
        if phase == P_DRAWN and card != self.drawn:
            raise IllegalAction(
                f"after drawing you may play only the drawn card, {CARD_CODE[self.drawn]}",
                code="only_drawn_card",
            )
        if card not in hand:
            raise IllegalAction(f"you don't hold {code}", code="card_not_held")
        if card >= WILD:
            if not 0 <= action.color < 4:
                name_ = "Wild Draw Four" if card == WILD_DRAW4 else "Wild"
                raise IllegalAction(f"{name_} needs a colour: R, Y, G or B", code="color_required")
        elif action.color >= 0:
            raise IllegalAction(f"{code} is not a wild card; it takes no colour", code="bad_color")
        if action.target >= 0:
            raise IllegalAction(f"{code} takes no target", code="bad_target")
        top = self.discard[-1]
        if not PLAYABLE_MASK[self.color * _TOP_RANKS + CARD_RANK[top]] >> card & 1:
            raise IllegalAction(
                f"{code} does not match {CARD_CODE[top]} with {COLOR_CODES[self.color]} in force",
                code="card_does_not_match",
            )
        if card == WILD_DRAW4 and not self._can_play(hand, card):
            raise IllegalAction(
                f"Wild Draw Four is only allowed when you hold no {COLOR_CODES[self.color]} card",
                code="wd4_not_allowed",
            )

    def apply(self, seat: int, action: Action) -> None:
        """Check, then apply.  On IllegalAction nothing has changed."""
        self.check(seat, action)
        self.apply_trusted(seat, action)

    def apply_trusted(self, seat: int, action: Action) -> None:
        """Apply without checking: for bots that picked from ``legal_actions``."""
        kind = action.kind
        if kind == PLAY:
            self.play(seat, action.card, action.color, action.uno)
        elif kind == DRAW:
            if self.phase == P_CHALLENGE:
                self.accept(seat)
            else:
                self.draw(seat)
        elif kind == KEEP:
            self.keep(seat)
        elif kind == UNO:
            self.call_uno(seat)
        elif kind == CATCH:
            self.catch(seat, action.target)
        elif kind == CHALLENGE:
            self.challenge(seat)
        elif kind == ACCEPT:
            self.accept(seat)
        else:
            self.choose_color(seat, action.color)

    # ------------------------------------------------------------------ trusted ----
    def _log_action(self, seat: int, action: Action) -> None:
        log = self._log
        if log is not None:
            log.actions.append((seat, action))

    def play(self, seat: int, card: int, color: int = -1, uno: bool = False) -> None:
        """Play ``card`` from ``seat``'s hand (trusted: the caller checked legality)."""
        log = self._log
        if log is not None:
            log.actions.append((seat, Action(PLAY, card, color, -1, uno)))
        self.vulnerable = -1
        hand = self.hands[seat]
        hand.remove(card)
        prev_color = self.color
        self.discard.append(card)
        n = self.n
        d = self.direction
        ev = self.events
        if card >= WILD:
            self.color = color
        else:
            self.color = CARD_COLOR[card]
        if ev is not None:
            ev.append(Event("play", seat, (card,), color=self.color))
        left = len(hand)
        if left == 1:
            if uno:
                if ev is not None:
                    ev.append(Event("uno", seat))
            else:
                self.vulnerable = seat
        elif uno and left > 1:
            self._false_uno(seat)
        self.phase = P_PLAY
        self.drawn = -1
        rank = CARD_RANK[card]
        if rank < 10 or card == WILD:
            self.current = (seat + d) % n
        elif rank == SKIP:
            skipped = (seat + d) % n
            if ev is not None:
                ev.append(Event("skip", skipped))
            self.current = (seat + 2 * d) % n
        elif rank == REVERSE:
            self.direction = d = -d
            if ev is not None:
                ev.append(Event("reverse", seat))
            self.current = seat if n == 2 else (seat + d) % n
        elif rank == DRAW2:
            victim = (seat + d) % n
            self._draw(victim, 2)
            if ev is not None:
                ev.append(Event("skip", victim))
            self.current = (seat + 2 * d) % n
        else:  # Wild Draw Four: the victim answers before anything else happens
            victim = (seat + d) % n
            self.wd4_by = seat
            self.wd4_prev_color = prev_color
            guilty = False
            for c in hand:
                if CARD_COLOR[c] == prev_color:
                    guilty = True
                    break
            self.wd4_guilty = guilty
            self.current = victim
            self.phase = P_CHALLENGE
            return  # R-END-3: even on a last card, the challenge is answered first
        if left == 0:
            self._end_round(seat)

    def _false_uno(self, seat: int) -> None:
        """R-UNO-3: calling UNO without exactly one card costs ``false_uno_penalty``."""
        penalty = self.rules.false_uno_penalty
        if self.events is not None:
            self.events.append(Event("false_uno", seat, amount=penalty))
        if penalty:
            self._draw(seat, penalty)

    def draw(self, seat: int) -> None:
        """Draw on your turn (R-TURN-2/3); with ``draw_until_playable``, until one fits."""
        log = self._log
        if log is not None:
            log.actions.append((seat, _DRAW))
        self.vulnerable = -1
        hand = self.hands[seat]
        pile = self.pile
        if pile and self.events is None and not self.rules.draw_until_playable:
            card = pile.pop()  # the common case, without the general machinery
            hand.append(card)
            if self._can_play(hand, card):
                self.phase = P_DRAWN
                self.drawn = card
            else:
                self.current = (seat + self.direction) % self.n
            return
        until = self.rules.draw_until_playable
        while True:
            got = self._draw(seat, 1)
            if not got:
                break
            card = got[0]
            if self._can_play(hand, card):
                self.phase = P_DRAWN
                self.drawn = card
                return
            if not until:
                break
        self.current = (seat + self.direction) % self.n

    def keep(self, seat: int) -> None:
        self._log_action(seat, Action(KEEP))
        self.vulnerable = -1
        self._emit(Event("keep", seat))
        self.phase = P_PLAY
        self.drawn = -1
        self.current = (seat + self.direction) % self.n

    def choose_color(self, seat: int, color: int) -> None:
        self._log_action(seat, Action(COLOR, color=color))
        self.vulnerable = -1
        self.color = color
        self._emit(Event("color", seat, color=color))
        self.phase = P_PLAY

    def call_uno(self, seat: int) -> None:
        """A call made after the play (RECORD.md ``{"uno": true}`` alone)."""
        self._log_action(seat, Action(UNO))
        if seat == self.vulnerable:
            self.vulnerable = -1
            self._emit(Event("uno", seat))
        elif len(self.hands[seat]) == 1:
            self._emit(Event("uno", seat))
        else:
            self._false_uno(seat)

    def catch(self, seat: int, target: int) -> None:
        """R-UNO-2: ``target`` did not call UNO in time and draws ``uno_penalty``."""
        self._log_action(seat, Action(CATCH, target=target))
        self.vulnerable = -1
        self._emit(Event("catch", seat, target=target, amount=self.rules.uno_penalty))
        self._draw(target, self.rules.uno_penalty)

    def challenge(self, seat: int) -> None:
        """R-ACT-CHALLENGE: the challenger alone sees the challenged hand."""
        self._log_action(seat, Action(CHALLENGE))
        self.vulnerable = -1
        by = self.wd4_by
        ev = self.events
        if ev is not None:
            ev.append(Event("challenge", seat, target=by, amount=int(self.wd4_guilty)))
            ev.append(Event("reveal", by, tuple(self.hands[by]), len(self.hands[by]), only=seat))
        if self.wd4_guilty:
            if self.rules.wd4_guilty == "retract":
                self.hands[by].append(self.discard.pop())
                self.color = self.wd4_prev_color
                self._emit(Event("retract", by, (WILD_DRAW4,), color=self.color))
            self._draw(by, 4)
            self.phase = P_PLAY
            self.current = seat
        else:
            self._draw(seat, 6)
            self._emit(Event("skip", seat))
            self.phase = P_PLAY
            self.current = (seat + self.direction) % self.n
        self._after_wd4(by)

    def accept(self, seat: int) -> None:
        """Take the Wild Draw Four: draw 4 and lose the turn."""
        self._log_action(seat, Action(ACCEPT))
        self.vulnerable = -1
        self._draw(seat, 4)
        self._emit(Event("skip", seat))
        self.phase = P_PLAY
        self.current = (seat + self.direction) % self.n
        self._after_wd4(self.wd4_by)

    def _after_wd4(self, by: int) -> None:
        self.wd4_by = -1
        if not self.hands[by]:
            self._end_round(by)

    # ------------------------------------------------------------------ scoring ----
    def round_points(self, winner: int) -> int:
        """R-SCORE-1: the winner scores every card left in the opponents' hands."""
        pts = self.points
        return sum(pts[c] for s, h in enumerate(self.hands) if s != winner for c in h)

    def _end_round(self, winner: int) -> None:
        self.vulnerable = -1
        self.round_winner = winner
        gained = self.round_points(winner)
        self.scores[winner] += gained
        self._emit(Event("round_over", winner, amount=gained))
        if self.scores[winner] >= self.rules.target_score:
            self.game_winner = winner
            self.phase = P_GAME_OVER
            self._emit(Event("game_over", winner, amount=self.scores[winner]))
        else:
            self.phase = P_ROUND_OVER

    # ------------------------------------------------------------------ output -----
    def events_for(self, seat: int, start: int = 0) -> list[Event]:
        """The events from index ``start`` on that ``seat`` may see."""
        if self.events is None:
            return []
        return [e for e in self.events[start:] if e.visible_to(seat)]

    def copy(self) -> Game:
        """A deep-enough copy for search: lists copied, rules shared, events off."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.hands = [list(h) for h in self.hands]
        g.pile = list(self.pile)
        g.discard = list(self.discard)
        g.scores = list(self.scores)
        g.events = None
        g._log = None
        g.rounds = []
        g._forced = []
        g.rng = random.Random(self.rng.random())
        g.round_rng = random.Random(self.rng.random())
        return g

    def state_json(self) -> dict[str, Any]:
        """The full state as RECORD.md's replay output shows it (not for players)."""
        return {
            "hands": [[CARD_CODE[c] for c in h] for h in self.hands],
            "top": CARD_CODE[self.discard[-1]] if self.discard else None,
            "color": COLOR_CODES[self.color] if self.color >= 0 else None,
            "current": self.current,
            "direction": self.direction,
            "draw_pile": len(self.pile),
            "discard_pile": len(self.discard),
            "round_over": self.phase >= P_ROUND_OVER,
            "round_winner": self.round_winner if self.round_winner >= 0 else None,
            "scores": list(self.scores),
            "game_over": self.phase == P_GAME_OVER,
            "game_winner": self.game_winner if self.game_winner >= 0 else None,
        }

    def card_count(self) -> int:
        """Cards in hands and piles: always the deck's size (a property test checks)."""
        return len(self.pile) + len(self.discard) + sum(len(h) for h in self.hands)

    def __repr__(self) -> str:
        return (
            f"<Game {self.n} players, round {self.round_index}, "
            f"{PHASE_NAMES[self.phase]}, current {self.current}>"
        )


__all__ = [
    "NUM_RANKS",
    "PHASE_NAMES",
    "P_CHALLENGE",
    "P_DRAWN",
    "P_GAME_OVER",
    "P_PLAY",
    "P_ROUND_OVER",
    "P_START_COLOR",
    "Event",
    "Game",
    "RoundLog",
]
