"""The game: its state and every transition between states, kept together.

Split by job: what changes the state (a play, a draw, starting a round and turning its
start card, ending a round) lives here, in one class, where it may use the state's
private parts and the hot path stays a few attribute reads.  What can stand alone does,
behind public functions that take plain data or a public interface and never import
this module: wording a refusal (``checks``, through its ``Position`` protocol), the
deal's order and the first dealer's draw (``dealing``), the scoring arithmetic
(``scoring``), events (``events``), phases (``phases``).  Imports point one way, from
here down, so the engine has no circle and no module reaches into another's private
names.  ``Game`` keeps a method for each, so callers see one object.

One mutable ``Game`` holds a whole game of rounds.  It is pure in the sense that
matters: no I/O, no clock, no global random; every shuffle comes from the game's own
``random.Random`` (or from a record's ``shuffles`` and ``launches``), so rules + seed +
actions reproduce a game exactly.

Two ways in:

* ``apply(seat, action)`` checks everything first and raises ``IllegalAction`` with the
  game untouched; people, servers and replays use it.
* ``play``/``draw``/``keep``/``accept``/... are the trusted fast path for bots and
  simulation: no checks, no allocation beyond what the rules need.

State leaves only through ``view(seat)`` and ``events_for(seat)``; the draw pile's
order and the RNG never do.

Every variant of RULES.md §7-§8 is played here too.  The classic hot path (a number
card, a draw) pays for them only with a few precomputed flags.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, ClassVar

from unokit.cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_RANK,
    COLOR_CODES,
    DRAW2,
    IS_NUMBER,
    NUM_RANKS,
    PLAYABLE_MASK,
    REVERSE,
    SKIP,
    TOP_RANKS,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_SHUFFLE,
    WILD_SWAP,
    CardError,
    build_deck,
    parse_card,
    parse_color,
    points_table,
)
from unokit.engine import dealing, scoring, serial
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
from unokit.engine.checks import check_action
from unokit.engine.dealing import RoundLog, shuffle
from unokit.engine.errors import IllegalAction, ShuffleError
from unokit.engine.events import Event, EventKind, event_json
from unokit.engine.family import Game, register
from unokit.engine.phases import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_GAME_OVER,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    PHASE_NAMES,
)
from unokit.engine.scoring import team_of
from unokit.engine.view import View
from unokit.rules import DEFAULT_LAUNCHER_WEIGHTS, GAME_DECKS, GAME_SCORINGS, RuleSet

_DRAW = Action(DRAW)
_KEEP = Action(KEEP)  # shared: an Action is immutable


def holds_color(hand: Sequence[int], color: int) -> bool:
    """Whether ``hand`` holds a card of ``color`` (a Wild Draw Four's condition, R-ACT-WD4)."""
    for c in hand:  # noqa: SIM110 (a plain loop: any() with a generator costs more)
        if CARD_COLOR[c] == color:
            return True
    return False


@register
class ClassicGame(Game):
    """A game of classic UNO in rounds, for 2 to 10 players, every variant of RULES.md."""

    NAME = "classic"
    TITLE = "UNO"

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
        if isinstance(players, int):
            names = [f"Player {i}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        # the player count, and a deal that always leaves a start card that can be kept
        # (so turning the start card ends: R-START-WD4, R-START-NUMBER)
        self._check_rules(rules)
        rules.check_players(len(names))
        self._deck = build_deck(rules.deck, rules.custom_cards)
        self.names: list[str] = names
        self.n = n = len(names)
        self.rng = random.Random(seed)
        self.round_rng = self.rng  # each round seeds its own in start_round
        self.points = points_table(rules.wild_points)
        self.teams = rules.scoring == "teams"
        self.scores = [0] * (2 if self.teams else n)
        self.live = [True] * n  # False once eliminated (R-SCORE-ELIM)
        self.n_live = n
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
        self.pend_card = -1  # P_ANSWER: the card to answer
        self.pend_total = 0  # P_ANSWER: cards drawn on accepting
        self.round_winner = -1
        self.game_winner = -1
        self.round_index = -1
        self.dealer = -1
        self.reshuffles = 0  # draw piles rebuilt from the discards, over the whole game
        self.rounds: list[RoundLog] = []
        self.events: list[Event] | None = [] if events else None
        self.recording = record
        # variant flags, read on hot paths
        self._stack = rules.stacking != "off"
        self._pass = rules.stacking == "pass"
        self._launcher = rules.attack_launcher
        self._weights = list(rules.launcher_weights or DEFAULT_LAUNCHER_WEIGHTS)
        self._no_bluff = not rules.wd4_bluffing
        # a turn draw without events, the until-playable loop or the launcher
        self._fast_draw = not (rules.draw_until_playable or rules.attack_launcher or events)
        self._seven_zero = rules.seven_zero
        self._plain = False
        self._forced: list[list[int]] = []  # shuffles given by a record, next last
        self._forced_launches: list[int] = []
        self._log: RoundLog | None = None
        if start:
            first = dealer if dealer is not None else self.choose_dealer()
            self.start_round(first)

    # ------------------------------------------------------------------ set-up -----
    def choose_dealer(self) -> int:
        """R-SETUP-2: the seat that deals first (the draw itself: engine/dealing.py)."""
        dealer, draws = dealing.choose_dealer(self.rng, self._deck, self.n)
        ev = self.events
        if ev is not None:
            for seat, card in draws:
                ev.append(Event(EventKind.DEALER_DRAW, seat, (card,)))
        return dealer

    def full_deck(self) -> list[int]:
        return list(self._deck)

    def unused_record_entries(self) -> str | None:
        """What the record gave this round (shuffles, launches) and the round never used.

        A record lists exactly the shuffles and launches that happened; one left over once
        its round is replayed is damage (it would otherwise replay "ok" and hide it), so
        ``replay`` refuses it.  None when everything was used.
        """
        parts = [
            f"{k} {what!r} entr{'y' if k == 1 else 'ies'}"
            for what, k in (
                ("shuffles", len(self._forced)),
                ("launches", len(self._forced_launches)),
            )
            if k
        ]
        return " and ".join(parts) + " never used" if parts else None

    def start_round(
        self,
        dealer: int | None = None,
        deck: Sequence[int] | None = None,
        seed: int | None = None,
        shuffles: Iterable[Sequence[int]] | None = None,
        launches: Iterable[int] | None = None,
    ) -> None:
        """Deal a new round (R-SETUP-3) and turn the start card (R-SETUP-4).

        ``deck`` (top first, possibly only the top part), ``shuffles`` and ``launches``
        come from a record; without them the round's own RNG decides everything.  The
        deck's order and the deal are engine/dealing.py's.
        """
        if self.phase == P_GAME_OVER:
            raise IllegalAction("the game is over", code="game_over")
        if self.phase != P_ROUND_OVER:
            raise IllegalAction("the round is not over yet", code="round_not_over")
        n = self.n
        if dealer is None:
            dealer = self._clockwise(self.dealer) if self.dealer >= 0 else 0
        if not 0 <= dealer < n:
            raise IllegalAction(f"there is no seat {dealer} to deal", code="bad_seat")
        if not self.live[dealer]:
            raise IllegalAction(f"{self.names[dealer]} is out of the game", code="eliminated")
        if seed is None:
            seed = self.rng.getrandbits(48)
        rng = random.Random(seed)
        order = dealing.deck_order(rng, self._deck, deck)
        self.round_rng = rng
        self._forced = [list(s) for s in shuffles] if shuffles is not None else []
        self._forced.reverse()  # pop() takes the next
        self._forced_launches = list(launches) if launches is not None else []
        self._forced_launches.reverse()
        if self.recording:
            self._log = RoundLog(dealer=dealer, deck=list(order), seed=seed)
            self.rounds.append(self._log)
        else:
            self._log = None
        self.round_index += 1
        self.dealer = dealer
        seats, hands, pile = dealing.deal(order, dealer, self.live, self.rules.deal_size)
        self.hands = hands
        self.pile = pile
        self.discard = []
        self.direction = 1
        self.drawn = -1
        self.vulnerable = -1
        self.round_winner = -1
        self.wd4_by = -1
        self.pend_card = -1
        self.pend_total = 0
        self.refresh_flags()  # per round: seats are only eliminated between rounds
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.ROUND_START, dealer, amount=self.round_index))
            for seat in seats:
                ev.append(
                    Event(EventKind.DEAL, seat, tuple(hands[seat]), len(hands[seat]), only=seat)
                )
                ev.append(Event(EventKind.DEAL, seat, (), len(hands[seat]), hide=seat))
        self._turn_start_card(dealer, seats[0])

    def _turn_start_card(self, dealer: int, first: int) -> None:
        """R-SETUP-4: turn the start card and apply what it does (R-START-*)."""
        pile = self.pile
        number_start = self.rules.deck == "my-first-uno"  # R-START-NUMBER
        top = pile.pop()
        while top == WILD_DRAW4 or (number_start and not IS_NUMBER[top]):
            pile.append(top)  # R-START-WD4: back in the pile, reshuffle, turn again
            self._emit(Event(EventKind.START_CARD, dealer, (top,)))
            self._emit(Event(EventKind.START_RETURN, dealer, (top,)))
            self._shuffle_pile(pile)
            top = pile.pop()
        self.discard.append(top)
        self._emit(Event(EventKind.START_CARD, dealer, (top,)))
        self.phase = P_PLAY
        rank = CARD_RANK[top]
        self.color = CARD_COLOR[top]
        if top >= WILD:  # R-START-WILD, -SWAP, -SHUF, -CUST
            self.color = -1
            self.current = first
            self.phase = P_START_COLOR
        elif rank == SKIP:  # R-START-SKIP
            if self._pass:
                self._hit(first, top, 0)
            else:
                self._emit(Event(EventKind.SKIP, first))
                self.current = self._step(dealer, 2)
        elif rank == REVERSE:  # R-START-REVERSE
            self.direction = -1
            self._emit(Event(EventKind.REVERSE, dealer))
            self.current = dealer
        elif rank == DRAW2:  # R-START-DRAW2
            if self._stack:
                self._hit(first, top, 2)
            else:
                self._draw(first, 2)
                self._emit(Event(EventKind.SKIP, first))
                self.current = self._step(dealer, 2)
        else:
            self.current = first

    def refresh_flags(self) -> None:
        """Work out again what the trusted path reads from the seats and the rules.

        ``start_round`` does it; a position set up field by field (``world_from_view``)
        calls it once its seats are in place.  With classic effects and every seat
        live, ``play`` takes its inline path.
        """
        self._plain = not (self._stack or self._seven_zero) and self.n_live == self.n

    # ------------------------------------------------------------------ seats ------
    def _step(self, seat: int, steps: int) -> int:
        """The seat ``steps`` places on in the current direction, skipping the eliminated."""
        n = self.n
        d = self.direction
        if self.n_live == n:
            return (seat + steps * d) % n
        live = self.live
        for _ in range(steps):
            seat = (seat + d) % n
            while not live[seat]:
                seat = (seat + d) % n
        return seat

    def _clockwise(self, seat: int) -> int:
        n = self.n
        seat = (seat + 1) % n
        while not self.live[seat]:
            seat = (seat + 1) % n
        return seat

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return self._step(seat, steps)

    def team_of(self, seat: int) -> int:
        """R-SCORE-TEAM: partners sit opposite, so a team is every other seat."""
        return team_of(seat)

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
        self._emit(Event(EventKind.RESHUFFLE, -1, amount=len(pile)))

    def _refill(self) -> bool:
        """R-TURN-6: rebuild the draw pile from the discards; False if there is nothing.

        The top card stays.  While a Wild Draw Four that a guilty verdict would take back
        waits for its challenge (``wd4_guilty="retract"``), the card under it stays too:
        it is the card in force again after a retraction, so the discard pile is never
        left empty.
        """
        discard = self.discard
        keep = 2 if self.wd4_by >= 0 and self.rules.wd4_guilty == "retract" else 1
        if len(discard) <= keep:
            return False
        pile = self.pile
        pile.extend(discard[:-keep])
        del discard[:-keep]
        self._shuffle_pile(pile)
        self.reshuffles += 1
        return True

    def _launch(self) -> int:
        """R-VAR-ATTACK: one press of the launcher; how many cards it fires."""
        if self._forced_launches:
            k = self._forced_launches.pop()
        else:
            k = self.round_rng.choices(range(13), self._weights)[0]
        if self._log is not None:
            self._log.launches.append(k)
        return k

    def _draw(self, seat: int, count: int) -> list[int]:
        """Move up to ``count`` cards to ``seat``'s hand, reshuffling when the pile runs out.

        Under UNO Attack each of the ``count`` draws is a press of the launcher.
        """
        if self._launcher:
            presses = count
            count = sum(self._launch() for _ in range(presses))
            self._emit(Event(EventKind.LAUNCH, seat, amount=count, target=presses))
        pile = self.pile
        got: list[int] = []
        for _ in range(count):
            if not pile and not self._refill():
                break
            got.append(pile.pop())
        self.hands[seat].extend(got)
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.DRAW, seat, tuple(got), len(got), only=seat))
            ev.append(Event(EventKind.DRAW, seat, (), len(got), hide=seat))
        return got

    def _hit(self, victim: int, card: int, total: int) -> None:
        """Stacking: ``victim`` must answer ``card`` or accept (R-VAR-ANSWER)."""
        self.phase = P_ANSWER
        self.current = victim
        self.pend_card = card
        self.pend_total = total
        self._emit(Event(EventKind.HIT, victim, (card,), total))

    # ------------------------------------------------------------------ queries ----
    def can_play(self, hand: list[int], card: int) -> bool:
        """Whether ``card`` matches now (R-TURN-1) and, without bluffing, W+4 is allowed.

        ``hand`` is the hand it would come from; no phase or turn checks."""
        discard = self.discard
        if not PLAYABLE_MASK[self.color * TOP_RANKS + CARD_RANK[discard[-1]]] >> card & 1:
            return False
        if card == WILD_DRAW4 and self._no_bluff:
            return not holds_color(hand, self.color)
        return True

    def answers(self, seat: int) -> list[int]:
        """R-VAR-STACK/-PROGRESSIVE: the distinct cards ``seat`` may answer a hit with."""
        hand = self.hands[seat]
        pend = self.pend_card
        progressive = not self._pass
        out: set[int] = set()
        for c in hand:
            rank = CARD_RANK[c]
            if pend == WILD_DRAW4:
                if (progressive and c == WILD_DRAW4) or (
                    not progressive and rank == DRAW2 and CARD_COLOR[c] == self.color
                ):
                    out.add(c)
            elif CARD_RANK[pend] == DRAW2:
                if (rank == DRAW2 and c < WILD) or (
                    progressive and c == WILD_DRAW4 and self.rules.stack_draw4_on_draw2
                ):
                    out.add(c)
            elif c < WILD and rank == CARD_RANK[pend]:  # Skip on Skip, Reverse on Reverse
                out.add(c)
        if WILD_DRAW4 in out and not self.rules.wd4_bluffing and holds_color(hand, self.color):
            out.discard(WILD_DRAW4)
        return sorted(out)

    def playable(self, seat: int | None = None) -> list[int]:
        """The distinct cards ``seat`` (default: the seat to act) may play now, in turn.

        In the drawn-card phase only the drawn card; when answering a hit, the answers.
        """
        if seat is None:
            seat = self.current
        if seat != self.current:
            return []
        phase = self.phase
        if phase == P_DRAWN:
            return [self.drawn] if self.drawn_playable() else []
        if phase == P_ANSWER:
            return self.answers(seat)
        if phase != P_PLAY:
            return []
        hand = self.hands[seat]
        mask = PLAYABLE_MASK[self.color * TOP_RANKS + CARD_RANK[self.discard[-1]]]
        out = [c for c in set(hand) if mask >> c & 1]
        if WILD_DRAW4 in out and not self.rules.wd4_bluffing and holds_color(hand, self.color):
            out.remove(WILD_DRAW4)
        out.sort()
        return out

    def drawn_playable(self) -> bool:
        """Whether the card just drawn may still be played (R-TURN-3).

        It can stop being playable before it is played: without bluffing, a false UNO
        call's penalty cards may bring the colour in force into the hand, and a Wild
        Draw Four is then not allowed.  ``force_play_drawn`` forces only a *playable*
        drawn card, so the seat may keep it: the round never deadlocks.
        """
        return self.drawn >= 0 and self.can_play(self.hands[self.current], self.drawn)

    def playable_cards(self, seat: int) -> list[int]:
        """Trusted fast path: ``seat``'s playable cards in the play phase, repeats kept.

        No phase or turn checks; use ``playable`` unless you are a simulation loop that
        already knows it is ``seat``'s play phase.
        """
        hand = self.hands[seat]
        mask = PLAYABLE_MASK[self.color * TOP_RANKS + CARD_RANK[self.discard[-1]]]
        out = [c for c in hand if mask >> c & 1]
        if self._no_bluff and WILD_DRAW4 in out and not self.can_play(hand, WILD_DRAW4):
            out = [c for c in out if c != WILD_DRAW4]
        return out

    def jump_ins(self, seat: int) -> bool:
        """R-VAR-JUMPIN: may ``seat`` play out of turn now (holds the top card's twin)?"""
        if not self.rules.jump_in or self.phase != P_PLAY or seat == self.current:
            return False
        top = self.discard[-1]
        return top < WILD and self.live[seat] and top in self.hands[seat]

    def actors(self) -> list[int]:
        """Every seat that has at least one legal action now."""
        if self.phase >= P_ROUND_OVER:
            return []
        if self.vulnerable >= 0:
            return [s for s in range(self.n) if self.live[s]]
        if self.rules.jump_in:
            return sorted({self.current, *(s for s in range(self.n) if self.jump_ins(s))})
        return [self.current]

    def _targets(self, seat: int) -> list[int]:
        return [t for t in range(self.n) if t != seat and self.live[t]]

    def needs_target(self, seat: int, cards: Sequence[int]) -> bool:
        """A Wild Swap Hands, or a 7 under seven-zero, names a seat unless it goes out."""
        if len(self.hands[seat]) == len(cards):
            return False  # R-ACT-LASTWILD; a last 7 ends the round as well
        top = cards[-1]
        return top == WILD_SWAP or (self._seven_zero and top < WILD and CARD_RANK[top] == 7)

    def _own_after(self, seat: int, cards: Sequence[int], color: int, target: int) -> int:
        """Cards ``seat`` will hold after this play and its effect; -1 if it is chance."""
        hand = self.hands[seat]
        left = len(hand) - len(cards)
        if left == 0:
            return 0
        top = cards[-1]
        if target >= 0:
            return len(self.hands[target])
        if top == WILD_SHUFFLE:
            return -1
        if self._seven_zero and top < WILD and CARD_RANK[top] == 0:
            return len(self.hands[self._from_behind(seat)])
        if top == WILD_CUSTOM and self.rules.custom_rule == "discard_color":
            rest = Counter(hand)
            rest.subtract(cards)
            return left - sum(k for c, k in rest.items() if CARD_COLOR[c] == color)
        return left

    def _from_behind(self, seat: int) -> int:
        """The seat whose hand passes to ``seat`` under a seven-zero 0."""
        n = self.n
        d = -self.direction
        s = (seat + d) % n
        while not self.live[s]:
            s = (s + d) % n
        return s

    def _play_actions(self, seat: int, cards: tuple[int, ...], out: list[Action]) -> None:
        first, extra, top = cards[0], cards[1:], cards[-1]
        colors: Iterable[int] = range(4) if top >= WILD else (-1,)
        targets = self._targets(seat) if self.needs_target(seat, cards) else [-1]
        for color in colors:
            for t in targets:
                out.append(Action(PLAY, first, color, t, False, extra))
                if self._own_after(seat, cards, color, t) == 1:
                    out.append(Action(PLAY, first, color, t, True, extra))

    def _multi_plays(self, seat: int, first: int) -> list[tuple[int, ...]]:
        """R-VAR-MULTI: more cards of ``first``'s number after it, the last one on top."""
        rest = list(self.hands[seat])
        rest.remove(first)
        same = sorted(c for c in rest if c < WILD and CARD_RANK[c] == CARD_RANK[first])
        seqs: set[tuple[int, ...]] = set()
        for size in range(1, len(same) + 1):
            for combo in combinations(same, size):
                for i in range(len(combo)):
                    last = combo[i]
                    middle = combo[:i] + combo[i + 1 :]
                    seqs.add((first, *middle, last))
        return sorted(seqs)

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now, its turn or not (a catch, a call, a jump-in)."""
        phase = self.phase
        if phase >= P_ROUND_OVER or not self.live[seat]:
            return []
        out: list[Action] = []
        multi = self.rules.multi_play
        if seat == self.current:
            if phase in (P_PLAY, P_DRAWN, P_ANSWER):
                for card in self.playable(seat):
                    self._play_actions(seat, (card,), out)
                    if multi and phase == P_PLAY and IS_NUMBER[card]:
                        for seq in self._multi_plays(seat, card):
                            self._play_actions(seat, seq, out)
                if phase == P_PLAY:
                    out.append(Action(DRAW))
                elif phase == P_DRAWN:
                    if not self.rules.force_play_drawn or not self.drawn_playable():
                        out.append(Action(KEEP))
                else:
                    if self.pend_card == WILD_DRAW4:
                        out.append(Action(CHALLENGE))
                    out.append(Action(ACCEPT))
            elif phase == P_START_COLOR:
                if self.discard[-1] == WILD_SWAP:
                    out.extend(
                        Action(COLOR, color=c, target=t)
                        for c in range(4)
                        for t in self._targets(seat)
                    )
                else:
                    out.extend(Action(COLOR, color=c) for c in range(4))
            elif phase == P_CHALLENGE:
                out.append(Action(CHALLENGE))
                out.append(Action(ACCEPT))
        elif self.jump_ins(seat):
            top = self.discard[-1]
            self._play_actions(seat, (top,), out)
            if multi and IS_NUMBER[top]:
                for seq in self._multi_plays(seat, top):
                    self._play_actions(seat, seq, out)
        v = self.vulnerable
        if v >= 0:
            out.append(Action(UNO) if seat == v else Action(CATCH, target=v))
        return out

    # ------------------------------------------------------------- action codes ----
    # The game's codec (``ActionCodec``): the modern games override these with their own
    # codes; ``Action.parse(text, game)`` and ``action.text(game)`` ask them.
    def parse_action(self, text: str) -> Action:
        """The short text form in this game's codes (ActionParseError if it is none)."""
        return Action.parse_classic(text)

    def action_text(self, action: Action) -> str:
        """The short text of an action in this game's codes; never fails."""
        return str(action)

    def action_json(self, action: Action, seat: int) -> dict[str, Any]:
        """RECORD.md's action object in this game's codes."""
        return action.to_json(seat)

    def action_from_json(self, obj: Any) -> tuple[int, Action]:
        """The inverse of ``action_json``; ActionParseError says what is wrong."""
        return Action.from_json(obj)

    def action_from_wire(self, obj: Any) -> Action:
        return Action.from_wire(obj)

    # ------------------------------------------------------------------ codec ------
    def code_of(self, card: int) -> str:
        return CARD_CODE[card]

    def cards_from_codes(self, codes: Sequence[str], where: str) -> list[int]:
        """Card codes to ids; CardError names the first bad one."""
        out = []
        for i, code in enumerate(codes):
            if not isinstance(code, str):
                raise CardError(f"{where}[{i}] must be a card code, not {code!r}")
            try:
                out.append(parse_card(code))
            except CardError as e:
                raise CardError(f"{where}[{i}]: {e}") from None
        return out

    def face_code(self, face: int) -> str:
        return CARD_CODE[face]  # a classic card has one face: its id

    def shown_faces(self, cards: Sequence[int]) -> tuple[int, ...]:
        return tuple(cards)

    def color_code(self, color: int) -> str:
        return COLOR_CODES[color]

    def parse_color(self, text: str) -> int:
        return parse_color(text)

    def event_json(self, event: Event) -> dict[str, Any]:
        return event_json(event)

    @classmethod
    def _describe(cls) -> dict[str, Any]:
        return {
            "decks": list(GAME_DECKS[cls.NAME]),
            "colors": list(COLOR_CODES),
            "cards": list(CARD_CODE),
            "sides": [],
            "scorings": list(GAME_SCORINGS[cls.NAME]),
            "phases": list(PHASE_NAMES),
            # what the page words differently per game (docs/protocol.md, "Games"): a
            # Wild turned up at the start asks its colour; a Wild Draw Four is challenged;
            # a draw is one card; a seat out of the game was eliminated by its score
            "prompts": {"start_color": "start_wild", "challenge": "wild_draw_four"},
            "draw": "one",
            "out": "eliminated",
        }

    # ------------------------------------------------------------------ checked ----
    def check(self, seat: int, action: Action) -> None:
        """Raise IllegalAction if ``seat`` may not take ``action`` now; change nothing."""
        check_action(self, seat, action)

    def apply(self, seat: int, action: Action) -> None:
        """Check, then apply.  On IllegalAction nothing has changed."""
        self.check(seat, action)
        self.apply_trusted(seat, action)

    def apply_trusted(self, seat: int, action: Action) -> None:
        """Apply without checking: for bots that picked from ``legal_actions``."""
        kind = action.kind
        if kind == PLAY:
            self.play(seat, action.card, action.color, action.uno, action.target, action.extra)
        elif kind == DRAW:
            if self.phase in (P_CHALLENGE, P_ANSWER):
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
            self.choose_color(seat, action.color, action.target)

    # ------------------------------------------------------------------ trusted ----
    def _log_action(self, seat: int, action: Action) -> None:
        log = self._log
        if log is not None:
            log.actions.append((seat, action))

    def play(
        self,
        seat: int,
        card: int,
        color: int = -1,
        uno: bool = False,
        target: int = -1,
        extra: tuple[int, ...] = (),
    ) -> None:
        """Play ``card`` (then ``extra``) from ``seat``'s hand; trusted: no checks."""
        log = self._log
        if log is not None:
            log.actions.append((seat, Action(PLAY, card, color, target, uno, extra)))
        self.vulnerable = -1
        hand = self.hands[seat]
        hand.remove(card)
        discard = self.discard
        discard.append(card)
        top = card
        if extra:
            for c in extra:
                hand.remove(c)
                discard.append(c)
            top = extra[-1]
        prev_color = self.color
        answering = self.pend_card >= 0  # only set while a hit waits for its answer
        self.phase = P_PLAY
        self.drawn = -1
        self.color = color if top >= WILD else CARD_COLOR[top]
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.PLAY, seat, (card, *extra), color=self.color, target=target))
        left = own = len(hand)
        rank = CARD_RANK[top]
        special = False  # a Wild Customizable may empty other hands
        if self._plain:
            # Classic effects inline: this is the path every simulation runs.  ``_effect``
            # holds the general versions (stacking, eliminated seats, the new wilds).
            n = self.n
            d = self.direction
            if rank < 10 or top == WILD:
                self.current = (seat + d) % n
            elif rank == SKIP:
                if ev is not None:
                    ev.append(Event(EventKind.SKIP, (seat + d) % n))
                self.current = (seat + 2 * d) % n
            elif rank == REVERSE:
                self.direction = d = -d
                if ev is not None:
                    ev.append(Event(EventKind.REVERSE, seat))
                self.current = seat if n == 2 else (seat + d) % n
            elif rank == DRAW2:
                victim = (seat + d) % n
                self._draw(victim, 2)
                if ev is not None:
                    ev.append(Event(EventKind.SKIP, victim))
                self.current = (seat + 2 * d) % n
            else:
                self._effect(seat, top, rank, left, color, target, prev_color, answering)
                own = len(self.hands[seat])  # after the effect: a swap may change it
                special = top == WILD_CUSTOM
        else:
            if rank < 10 or top == WILD:
                if self._seven_zero and left and rank < 10:
                    if rank == 7:
                        self._swap(seat, target)
                    elif rank == 0:
                        self._rotate()
                self.current = self._step(seat, 1)
            else:
                self._effect(seat, top, rank, left, color, target, prev_color, answering)
                special = top == WILD_CUSTOM
            own = len(self.hands[seat])
        if answering and self.phase != P_ANSWER:
            self.pend_card = -1
            if self.phase != P_CHALLENGE:  # a last W+4 in a stack keeps its total
                self.pend_total = 0
        if own == 1:
            if uno:
                if ev is not None:
                    ev.append(Event(EventKind.UNO, seat))
            else:
                self.vulnerable = seat
        elif own == 0:  # R-END-1 (a W+4 waits for its challenge: R-END-3)
            if self.phase != P_CHALLENGE:
                self._end_round(seat)
            return
        elif uno:
            self._false_uno(seat)
        if special and self.rules.custom_rule == "others_discard_wilds":
            self._end_if_empty(seat)  # R-END-1: a player left with no wild goes out

    def _effect(
        self,
        seat: int,
        top: int,
        rank: int,
        left: int,
        color: int,
        target: int,
        prev_color: int,
        answering: bool,
    ) -> None:
        """The effect of an action card or special wild just played by ``seat`` (R-ACT-*)."""
        ev = self.events
        if rank == SKIP:
            victim = self._step(seat, 1)
            if self._pass and left:
                self._hit(victim, top, 0)
            else:
                if ev is not None:
                    ev.append(Event(EventKind.SKIP, victim))
                self.current = self._step(seat, 2)
        elif rank == REVERSE:
            self.direction = -self.direction
            if ev is not None:
                ev.append(Event(EventKind.REVERSE, seat))
            if self.n_live == 2:  # R-2P-REVERSE
                if self._pass and left:
                    self._hit(self._step(seat, 1), top, 0)
                else:
                    self.current = seat
            else:
                self.current = self._step(seat, 1)
        elif rank == DRAW2:
            victim = self._step(seat, 1)
            if self._stack and left:
                total = self.pend_total + 2 if answering and not self._pass else 2
                self.wd4_by = -1
                self._hit(victim, top, total)
            else:
                # R-END-2: a last Draw Two is drawn at once; under progressive stacking
                # with the whole stack it answered (R-VAR-PROGRESSIVE)
                total = self.pend_total + 2 if answering and not self._pass else 2
                self._draw(victim, total)
                if ev is not None:
                    ev.append(Event(EventKind.SKIP, victim))
                self.current = self._step(seat, 2)
        elif top == WILD_DRAW4:
            victim = self._step(seat, 1)
            self.wd4_by = seat
            self.wd4_prev_color = prev_color
            self.wd4_guilty = holds_color(self.hands[seat], prev_color)
            if self._stack and left:
                total = self.pend_total + 4 if answering else 4
                self._hit(victim, top, total)
            else:
                self.current = victim
                self.phase = P_CHALLENGE
                # R-END-3: even on a last card, the challenge is answered first.  A last
                # W+4 that answered a stack costs the whole stack (R-VAR-PROGRESSIVE,
                # R-END-2): ``pend_total`` keeps it through the challenge phase.
                if answering:
                    self.pend_total += 4
        elif top == WILD_SWAP:
            if left:
                self._swap(seat, target)
            self.current = self._step(seat, 1)
        elif top == WILD_SHUFFLE:
            if left:
                self._shuffle_hands(seat)
            self.current = self._step(seat, 1)
        else:
            self._custom(seat, color)

    def _end_if_empty(self, seat: int) -> None:
        """A player emptied by someone else's effect goes out (R-END-1), in turn order."""
        s = seat
        for _ in range(self.n):
            s = self._step(s, 1)
            if self.live[s] and not self.hands[s]:
                self._end_round(s)
                return

    def _swap(self, seat: int, target: int) -> None:
        """R-ACT-SWAP, R-VAR-SEVENZERO: the two seats exchange hands; only they see them."""
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.SWAP, seat, target=target))
            for s in (seat, target):
                ev.append(Event(EventKind.HAND, s, tuple(hands[s]), len(hands[s]), only=s))

    def _rotate(self) -> None:
        """R-VAR-SEVENZERO: every hand passes to the next player in the direction of play."""
        hands = self.hands
        old = list(hands)
        for s in range(self.n):
            if self.live[s]:
                hands[self._step(s, 1)] = old[s]
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.ROTATE, -1, amount=self.direction))
            for s in range(self.n):
                if self.live[s]:
                    ev.append(Event(EventKind.HAND, s, tuple(hands[s]), len(hands[s]), only=s))

    def _shuffle_hands(self, seat: int) -> None:
        """R-ACT-SHUF: collect every hand, shuffle, deal one by one from the player's left."""
        hands = self.hands
        collected: list[int] = []
        for s in range(self.n):
            collected.extend(hands[s])
            hands[s] = []
        self._shuffle_pile(collected)  # top at the end, like the draw pile
        s = seat
        while collected:
            s = self._clockwise(s)
            hands[s].append(collected.pop())
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.SHUFFLE_HANDS, seat))
            for s in range(self.n):
                if self.live[s]:
                    ev.append(Event(EventKind.HAND, s, tuple(hands[s]), len(hands[s]), only=s))
                    ev.append(Event(EventKind.HAND, s, (), len(hands[s]), hide=s))

    def _custom(self, seat: int, color: int) -> None:
        """R-ACT-CUST: the agreed house rule of the Wild Customizable card."""
        rule = self.rules.custom_rule
        nxt = self._step(seat, 1)
        self.current = nxt
        ev = self.events
        if rule == "next_draws_3":
            self._draw(nxt, 3)
        elif rule == "others_draw_2":
            s = seat
            for _ in range(self.n_live - 1):
                s = self._step(s, 1)
                self._draw(s, 2)
        elif rule == "others_discard_wilds":
            discard = self.discard
            s = seat
            for _ in range(self.n_live - 1):
                s = self._step(s, 1)
                hand = self.hands[s]
                wilds = [c for c in hand if c >= WILD]
                if wilds:
                    self.hands[s] = [c for c in hand if c < WILD]
                    discard[-1:-1] = wilds  # under the card that made them go
                    if ev is not None:
                        ev.append(Event(EventKind.DISCARD, s, tuple(wilds), len(wilds)))
        elif rule == "extra_turn":
            self.current = seat
        elif rule == "discard_color":
            hand = self.hands[seat]
            gone = [c for c in hand if CARD_COLOR[c] == color]
            if gone:
                self.hands[seat] = [c for c in hand if CARD_COLOR[c] != color]
                self.discard[-1:-1] = gone
                if ev is not None:
                    ev.append(Event(EventKind.DISCARD, seat, tuple(gone), len(gone)))

    def _false_uno(self, seat: int) -> None:
        """R-UNO-3: calling UNO without exactly one card costs ``false_uno_penalty``."""
        penalty = self.rules.false_uno_penalty
        if self.events is not None:
            self.events.append(Event(EventKind.FALSE_UNO, seat, amount=penalty))
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
        if self._fast_draw and pile:
            card = pile.pop()  # the common case, without the general machinery
            hand.append(card)
            if self.can_play(hand, card):
                self.phase = P_DRAWN
                self.drawn = card
            else:
                n = self.n
                self.current = (
                    (seat + self.direction) % n if self.n_live == n else self._step(seat, 1)
                )
            return
        if self._launcher:  # R-VAR-ATTACK: one press, and the turn is over
            self._draw(seat, 1)
            self.current = self._step(seat, 1)
            return
        until = self.rules.draw_until_playable
        while True:
            got = self._draw(seat, 1)
            if not got:
                break
            card = got[0]
            if self.can_play(hand, card):
                self.phase = P_DRAWN
                self.drawn = card
                return
            if not until:
                break
        self.current = self._step(seat, 1)

    def keep(self, seat: int) -> None:
        log = self._log
        if log is not None:
            log.actions.append((seat, _KEEP))
        self.vulnerable = -1
        if self.events is not None:
            self.events.append(Event(EventKind.KEEP, seat))
        self.phase = P_PLAY
        self.drawn = -1
        self.current = self._step(seat, 1)

    def choose_color(self, seat: int, color: int, target: int = -1) -> None:
        """The first player names a Wild start card's colour (and swaps, for Swap Hands)."""
        self._log_action(seat, Action(COLOR, color=color, target=target))
        self.vulnerable = -1
        self.color = color
        self._emit(Event(EventKind.COLOR, seat, color=color, target=target))
        if target >= 0:
            self._swap(seat, target)
        self.phase = P_PLAY

    def call_uno(self, seat: int) -> None:
        """A call made after the play (RECORD.md ``{"uno": true}`` alone)."""
        self._log_action(seat, Action(UNO))
        if seat == self.vulnerable:
            self.vulnerable = -1
            self._emit(Event(EventKind.UNO, seat))
        elif len(self.hands[seat]) == 1:
            self._emit(Event(EventKind.UNO, seat))
        else:
            self._false_uno(seat)

    def catch(self, seat: int, target: int) -> None:
        """R-UNO-2: ``target`` did not call UNO in time and draws ``uno_penalty``."""
        self._log_action(seat, Action(CATCH, target=target))
        self.vulnerable = -1
        self._emit(Event(EventKind.CATCH, seat, target=target, amount=self.rules.uno_penalty))
        self._draw(target, self.rules.uno_penalty)

    def challenge(self, seat: int) -> None:
        """R-ACT-CHALLENGE: the challenger alone sees the challenged hand."""
        self._log_action(seat, Action(CHALLENGE))
        self.vulnerable = -1
        by = self.wd4_by
        total = self.pend_total or 4  # a stacked total, or a lone W+4's 4
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.CHALLENGE, seat, target=by, amount=int(self.wd4_guilty)))
            ev.append(
                Event(EventKind.REVEAL, by, tuple(self.hands[by]), len(self.hands[by]), only=seat)
            )
        self.pend_card = -1
        self.pend_total = 0
        self.phase = P_PLAY
        if self.wd4_guilty:
            if self.rules.wd4_guilty == "retract":
                self.hands[by].append(self.discard.pop())
                self.color = self.wd4_prev_color
                self._emit(Event(EventKind.RETRACT, by, (WILD_DRAW4,), color=self.color))
            self._draw(by, total)
            self.current = seat
        else:
            self._draw(seat, total + 2)
            self._emit(Event(EventKind.SKIP, seat))
            self.current = self._step(seat, 1)
        self._after_wd4(by)

    def accept(self, seat: int) -> None:
        """Take the hit: draw what it says (4 for a W+4) and lose the turn."""
        self._log_action(seat, Action(ACCEPT))
        self.vulnerable = -1
        if self.phase == P_ANSWER:
            total = self.pend_total
            by = self.wd4_by if self.pend_card == WILD_DRAW4 else -1
        else:
            total = self.pend_total or 4  # a stacked total, or a lone W+4's 4
            by = self.wd4_by
        if total:
            self._draw(seat, total)
        self._emit(Event(EventKind.SKIP, seat))
        self.pend_card = -1
        self.pend_total = 0
        self.phase = P_PLAY
        self.current = self._step(seat, 1)
        if by >= 0:
            self._after_wd4(by)

    def _after_wd4(self, by: int) -> None:
        self.wd4_by = -1
        if not self.hands[by]:
            self._end_round(by)

    # ------------------------------------------------------------------ scoring ----
    def round_points(self, winner: int) -> int:
        """R-SCORE-1: what ``winner`` scores for the other hands (engine/scoring.py)."""
        return scoring.round_points(self.points, self.hands, winner, self.teams)

    def hand_points(self, seat: int) -> int:
        return scoring.hand_points(self.points, self.hands[seat])

    def _end_round(self, winner: int) -> None:
        """R-END-1: ``winner`` went out; score the round (engine/scoring.py) and say so."""
        self.vulnerable = -1
        self.round_winner = winner
        self.pend_card = -1
        self.pend_total = 0
        self.wd4_by = -1
        scores = self.scores
        result = scoring.score_round(self.rules, self.points, self.hands, scores, self.live, winner)
        self._emit(Event(EventKind.ROUND_OVER, winner, amount=result.gained))
        if result.eliminated:
            for s in result.eliminated:
                self.live[s] = False
                self._emit(Event(EventKind.ELIMINATED, s, amount=scores[s]))
            self.n_live = sum(self.live)
        gw = result.game_winner
        if gw >= 0:
            self.game_winner = gw
            self.phase = P_GAME_OVER
            self._emit(Event(EventKind.GAME_OVER, gw, amount=scores[gw]))
        else:
            self.phase = P_ROUND_OVER

    # ------------------------------------------------------------------ output -----
    def copy(self, rng: random.Random | None = None) -> ClassicGame:
        """A deep-enough copy for search: lists copied, rules shared, events off.

        ``rng``: the copy draws every random number from this generator, left as it
        is, instead of from copies of the original's.  A search that plays many copies
        from one position can share one generator (set to one state before each copy)
        rather than build a Mersenne Twister per copy.
        """
        g: ClassicGame = object.__new__(ClassicGame)
        g.__dict__.update(self.__dict__)
        g.hands = [list(h) for h in self.hands]
        g.pile = list(self.pile)
        g.discard = list(self.discard)
        g.scores = list(self.scores)
        g.live = list(self.live)
        g.events = None
        rules = self.rules
        g._fast_draw = not (rules.draw_until_playable or rules.attack_launcher)
        g._log = None
        g.rounds = []
        g._forced = []
        g._forced_launches = []
        if rng is not None:
            g.rng = g.round_rng = rng
            return g
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())  # the copy must not disturb the original
        g.round_rng = random.Random()
        g.round_rng.setstate(self.round_rng.getstate())
        return g

    def view(self, seat: int | None) -> View:
        return classic_view(self, seat)

    # The fields that change during play, by name; everything else follows from the
    # rules and the names (``__init__`` rebuilds it).
    _FIELDS: ClassVar[tuple[str, ...]] = (
        "scores", "live", "n_live", "hands", "pile", "discard", "color", "direction",
        "current", "phase", "drawn", "vulnerable", "wd4_by", "wd4_prev_color", "wd4_guilty",
        "pend_card", "pend_total", "round_winner", "game_winner", "round_index", "dealer",
        "reshuffles", "_plain", "_forced", "_forced_launches",
    )  # fmt: skip

    def to_json_obj(self) -> dict[str, Any]:
        """Everything this game is, as JSON values (the ``game`` of ``uno-match/1``)."""
        d = self.__dict__
        out: dict[str, Any] = {
            "rules": self.rules.to_spec(),
            "names": list(self.names),
            "recording": self.recording,
            "rng": serial.rng_json(self.rng),
            "round_rng": None if self.round_rng is self.rng else serial.rng_json(self.round_rng),
            "rounds": [serial.round_log_json(r) for r in self.rounds],
            "log": self.rounds.index(self._log) if self._log is not None else None,
            "events": None if self.events is None else [list(e) for e in self.events],
        }
        for name in self._FIELDS:
            v = d[name]
            out[name] = [list(x) for x in v] if name in ("hands", "_forced") else (
                list(v) if isinstance(v, list) else v
            )  # fmt: skip
        return out

    @classmethod
    def _from_json_obj(cls, obj: dict[str, Any]) -> ClassicGame:
        from unokit.rules import from_preset

        spec = obj["rules"]
        events = obj["events"]
        g = cls(from_preset(spec["preset"], spec["options"]), obj["names"], seed=0,
                events=events is not None, record=obj["recording"], start=False)  # fmt: skip
        d = g.__dict__
        for name in cls._FIELDS:
            v = obj[name]
            d[name] = [list(x) for x in v] if name in ("hands", "_forced") else (
                list(v) if isinstance(v, list) else v
            )  # fmt: skip
        g.rng = serial.rng_from(obj["rng"])
        g.round_rng = g.rng if obj["round_rng"] is None else serial.rng_from(obj["round_rng"])
        g.rounds = [serial.round_log_from(r) for r in obj["rounds"]]
        g._log = g.rounds[obj["log"]] if obj["log"] is not None else None
        if events is not None:
            g.events = serial.events_from(events)
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


def classic_view(game: ClassicGame, seat: int | None) -> View:
    """A classic game's view (``ClassicGame.view``; the seat is checked by the caller)."""
    mine = seat is not None and game.current == seat
    # a Wild Draw Four waits for its answer (with stacking on, inside an answer phase)
    wd4 = game.phase == P_CHALLENGE or (game.phase == P_ANSWER and game.pend_card == WILD_DRAW4)
    return View(
        seat=seat if seat is not None else -1,
        names=tuple(game.names),
        rules=game.rules,
        hand=tuple(sorted(game.hands[seat])) if seat is not None else (),
        hand_sizes=tuple(len(h) for h in game.hands),
        discard=tuple(game.discard),
        draw_pile=len(game.pile),
        color=game.color,
        direction=game.direction,
        current=game.current,
        phase=game.phase,
        dealer=game.dealer,
        round_index=game.round_index,
        scores=tuple(game.scores),
        vulnerable=game.vulnerable,
        drawn=game.drawn if mine and game.phase == P_DRAWN else -1,
        wd4_by=game.wd4_by if wd4 else -1,
        prev_color=game.wd4_prev_color if wd4 else -1,
        pending=game.pend_card if game.phase == P_ANSWER else -1,
        pending_total=game.pend_total
        if game.phase == P_ANSWER
        else (game.pend_total or 4)  # a stacked total, or a lone W+4's 4
        if game.phase == P_CHALLENGE
        else 0,
        live=tuple(game.live),
        round_winner=game.round_winner,
        game_winner=game.game_winner,
        legal=tuple(game.legal_actions(seat)) if seat is not None else (),
    )


def world_from_view(
    view: View, hands: list[list[int]], pile: list[int], seed: int = 0
) -> ClassicGame:
    """A whole game consistent with ``view``, with the hidden cards as the caller says.

    This is how a searching bot imagines the cards it cannot see (a determinization):
    ``hands`` gives every seat's hand (the viewer's own as in the view) and ``pile``
    the draw pile, top last.  Everything public comes from the view.  The result has
    no events and no record; play it on the trusted path.
    """
    g = ClassicGame(view.rules, list(view.names), seed=seed, events=False, record=False,
                    start=False)  # fmt: skip
    g.hands = hands
    g.pile = pile
    g.discard = list(view.discard)
    g.color = view.color
    g.direction = view.direction
    g.current = view.current
    g.phase = view.phase
    g.dealer = view.dealer
    g.round_index = view.round_index
    g.scores = list(view.scores)
    g.live = list(view.live)
    g.n_live = sum(view.live)
    g.vulnerable = view.vulnerable
    g.round_winner = view.round_winner
    g.game_winner = view.game_winner
    g.pend_card = view.pending
    g.pend_total = view.pending_total
    g.wd4_by = view.wd4_by
    g.wd4_prev_color = view.prev_color
    if view.wd4_by >= 0:
        g.wd4_guilty = holds_color(hands[view.wd4_by], view.prev_color)
    if view.phase == P_DRAWN:
        if view.drawn >= 0:
            g.drawn = view.drawn
        else:  # someone else drew: imagine the drawn card is the last of their hand
            g.drawn = hands[view.current][-1] if hands[view.current] else -1
            if g.drawn < 0 or not g.can_play(hands[view.current], g.drawn):
                g.phase = 0
                g.current = g.next_seat(view.current)
    g.round_rng = g.rng
    g.refresh_flags()
    return g


__all__ = [
    "NUM_RANKS",
    "PHASE_NAMES",
    "P_ANSWER",
    "P_CHALLENGE",
    "P_DRAWN",
    "P_GAME_OVER",
    "P_PLAY",
    "P_ROUND_OVER",
    "P_START_COLOR",
    "ClassicGame",
    "Event",
    "Game",
    "RoundLog",
    "classic_view",
    "shuffle",
    "world_from_view",
]
