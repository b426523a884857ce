"""UNO Show 'Em No Mercy (RULES-MODERN.md Part B): stacking by value, the Mercy rule.

A card is a kind (``modern_cards.py``), as in the classic engine.  A turn is a
play or a draw; a draw goes on until a playable card comes (NM-TURN-3), which must
then be played (``P_DRAWN`` offers only its plays).  A pending stack is ``P_ANSWER``:
``pend_total`` cards, ``pend_card`` the last draw card (NM-STACK-*).  A Roulette's
victim names the colour in ``P_START_COLOR``.  Every card that enters a hand is
Mercy-checked at once (NM-MERCY-1); a knocked-out seat is ``live[seat] = False`` for
the rest of the hand, its cards set aside (``aside``) until the next reshuffle.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from unokit.cards import CardError
from unokit.engine.actions import ACCEPT, COLOR, DRAW, PLAY, Action
from unokit.engine.events import Event, EventKind
from unokit.engine.family import register
from unokit.engine.modern.base import ModernGame, WorldError
from unokit.engine.modern.view import ModernView, common_fields
from unokit.engine.phases import P_ANSWER, P_DRAWN, P_PLAY, P_ROUND_OVER, P_START_COLOR
from unokit.engine.view import View, check_seat
from unokit.modern_cards import (
    N_DISCARDALL,
    N_REVERSE,
    N_SKIP,
    N_SKIPALL,
    NM_CODE,
    NM_COLOR,
    NM_COLOR_CODES,
    NM_DRAW,
    NM_NUM_CARDS,
    NM_POINTS,
    NM_RANK,
    NM_WCR,
    NM_WILD,
    NM_WR4,
    nm_deck,
    parse_nm_card,
    parse_nm_color,
)

KNOCKOUT_POINTS = 250  # NM-SCORE-2


@register
class NoMercyGame(ModernGame):
    """UNO Show 'Em No Mercy in hands, for 2 to 6 players."""

    DECK = "no-mercy"
    NAME = "no-mercy"
    FACE_CODES = NM_CODE
    NO_PHASES = ("challenge",)  # "there is no challenge in No Mercy" (NM-TURN-2)
    TITLE = "UNO Show 'Em No Mercy"
    ACTION_CARDS = NM_NUM_CARDS
    COLOR_CODES = NM_COLOR_CODES
    # a colour is named for the Colour Roulette; nothing is challenged; a draw goes on
    # until a playable card comes (NM-TURN-3); the Mercy rule knocks players out (NM-MERCY-1)
    START_COLOR = "roulette"
    CHALLENGE = None
    DRAW = "until_playable"
    OUT = "knocked_out"

    def _init_game(self) -> None:
        self.aside: list[int] = []  # NM-MERCY-2: knocked-out hands, until a reshuffle
        self.knockouts = 0  # knocked out this hand (NM-SCORE-2)
        self.roulette_by = -1  # the player of a Roulette whose victim names a colour
        self.face_down = 0  # discard_bottom: knocked-out cards face down under the pile

    def _reset_round(self) -> None:
        self.aside = []
        self.knockouts = 0
        self.roulette_by = -1
        self.face_down = 0

    # ------------------------------------------------------------ cards -----------
    def full_deck(self) -> list[int]:
        return nm_deck(self.rules.nm_deck)

    def code_of(self, card: int) -> str:
        return NM_CODE[card]

    def cards_from_codes(self, codes: Sequence[str], where: str) -> list[int]:
        out = []
        for i, code in enumerate(codes):
            try:
                out.append(parse_nm_card(code))
            except CardError as e:
                raise CardError(f"{where}[{i}]: {e}") from None
        return out

    def face_code(self, face: int) -> str:
        return NM_CODE[face]

    def parse_face(self, text: str) -> int:
        return parse_nm_card(text)

    def color_code(self, color: int) -> str:
        return NM_COLOR_CODES[color]

    def parse_color(self, text: str) -> int:
        return parse_nm_color(text)

    def _dealer_value(self, card: int) -> int | None:
        return NM_RANK[card] if NM_RANK[card] <= 9 else None

    def _aside(self) -> list[int]:
        return self.aside

    # ------------------------------------------------------------ start -----------
    def _start(self, dealer: int, first: int) -> None:
        """NM-START-1: action cards are ignored and stay under the first number card."""
        pile = self.pile
        top = pile.pop()
        self._emit(Event(EventKind.START_CARD, dealer, (top,)))
        while NM_RANK[top] > 9:
            self.discard.append(top)
            top = pile.pop()
            self._emit(Event(EventKind.START_CARD, dealer, (top,)))
        self.discard.append(top)
        self.color = NM_COLOR[top]
        self.phase = P_PLAY
        self.current = first  # NM-START-2

    def _refill_cards(self) -> list[int]:
        """NM-TURN-6: the discards under the top card and every set-aside hand."""
        cards = super()._refill_cards() + self.aside
        self.aside = []
        self.face_down = 0
        return cards

    # ------------------------------------------------------------ legality --------
    def _matches(self, c: int) -> bool:
        """NM-TURN-2, NM-DECK-4: colour in force, number or symbol, or any wild."""
        if NM_WILD[c] or NM_COLOR[c] == self.color:
            return True
        top = self.discard[-1]
        return not NM_WILD[top] and NM_RANK[c] == NM_RANK[top]

    def _answers(self, c: int) -> bool:
        """NM-STACK-2, -3, -5: what may be played onto a pending stack."""
        v = NM_DRAW[c]
        rules = self.rules
        if not v:
            return rules.nm_stack_deflect and NM_RANK[c] in (N_SKIP, N_REVERSE) and self._matches(c)
        need = NM_DRAW[self.pend_card] if rules.nm_stack_threshold == "last" else self.pend_total
        if v < need:
            return False
        return not rules.nm_stack_match_color or self._matches(c)

    def _left_after(self, seat: int, c: int) -> int:
        hand = self.hands[seat]
        if NM_RANK[c] == N_DISCARDALL:
            col = NM_COLOR[c]
            return sum(1 for x in hand if NM_COLOR[x] != col)
        return len(hand) - 1

    def _plays(self, seat: int, c: int, out: list[Action]) -> None:
        left = self._left_after(seat, c)
        rules = self.rules
        colors = [-1]
        if NM_WILD[c] and (c != NM_WCR or rules.nm_roulette_color == "player"):
            colors = [0, 1, 2, 3]
        targets = [-1]
        swaps = left > 0 and self.phase != P_ANSWER  # NM-END-2: a final 7 or 0 swaps nothing
        if NM_RANK[c] == 7 and swaps:
            targets = [s for s in range(self.n) if s != seat and self.live[s]]  # NM-ACT-7
        elif NM_RANK[c] == 0 and swaps:
            left = len(self.hands[self._prev(seat)])  # NM-ACT-0: the hand received
        for col in colors:
            for t in targets:
                mine = left
                if t >= 0:
                    mine = len(self.hands[t])
                out.append(Action(PLAY, c, col, t))
                if mine == 1:
                    out.append(Action(PLAY, c, col, t, True))

    def _prev(self, seat: int) -> int:
        """The live seat whose next player is ``seat``."""
        d, n = self.direction, self.n
        s = (seat - d) % n
        while not self.live[s]:
            s = (s - d) % n
        return s

    def _turn_actions(self, seat: int) -> list[Action]:
        ph = self.phase
        out: list[Action] = []
        if ph == P_START_COLOR:  # NM-ACT-ROULETTE: the victim names the colour
            return [Action(COLOR, color=c) for c in range(4)]
        hand = self.hands[seat]
        if ph == P_DRAWN:  # NM-TURN-3: the drawn card must be played
            self._plays(seat, self.drawn, out)
            return out
        seen: set[int] = set()
        if ph == P_ANSWER:
            for c in hand:
                if c not in seen:
                    seen.add(c)
                    if self._answers(c):
                        self._plays(seat, c, out)
            out.append(Action(ACCEPT))
            return out
        for c in hand:
            if c not in seen:
                seen.add(c)
                if self._matches(c):
                    self._plays(seat, c, out)
        if not out or self.rules.nm_voluntary_draw:  # NM-TURN-3, -4
            out.append(Action(DRAW))
        return out

    def _why(self, seat: int, action: Action) -> str:
        k, ph = action.kind, self.phase
        name = self.names[seat]
        if ph == P_START_COLOR:
            return f"{name} must first name the Roulette's colour (R, Y, G or B)"
        if ph == P_ANSWER:
            if k == PLAY and 0 <= action.card < len(NM_CODE) and action.card in self.hands[seat]:
                need = NM_DRAW[self.pend_card]
                if self.rules.nm_stack_threshold == "total":
                    need = self.pend_total
                return (
                    f"{name} faces +{self.pend_total}: answer with a draw card of +{need} or "
                    f"more, or absorb; {NM_CODE[action.card]} cannot answer (NM-STACK-2, -5)"
                )
            return f"{name} faces +{self.pend_total}: answer with a draw card or absorb"
        if ph == P_DRAWN and (k != PLAY or action.card != self.drawn):
            return f"{name} must play the card drawn, {NM_CODE[self.drawn]} (NM-TURN-3)"
        if k == DRAW:
            return f"{name} holds a playable card and must play one (nm_voluntary_draw=false)"
        if k != PLAY:
            return f"{self.action_text(action)} is not allowed now"
        c = action.card
        if not 0 <= c < len(NM_CODE):
            return f"{c} is not a card"
        if c not in self.hands[seat]:
            return f"{name} holds no {NM_CODE[c]}"
        if not self._matches(c):
            col = NM_COLOR_CODES[self.color] if self.color >= 0 else "none"
            top = NM_CODE[self.discard[-1]]
            return f"{NM_CODE[c]} does not match the top card ({top}, colour {col})"
        if NM_RANK[c] == 7 and action.target < 0:
            return "a 7 must name the player to swap hands with (NM-ACT-7)"
        if action.target >= 0 and (
            action.target == seat or not 0 <= action.target < self.n or not self.live[action.target]
        ):
            return f"seat {action.target} cannot be swapped with"
        if NM_WILD[c] and c != NM_WCR and action.color < 0:
            return f"{NM_CODE[c]} names a colour (R, Y, G or B)"
        return f"{self.action_text(action)} is not allowed now"

    # ------------------------------------------------------------ applying --------
    def _do(self, seat: int, action: Action) -> None:
        k = action.kind
        if k == PLAY:
            self._play(seat, action)
        elif k == DRAW:
            self._draw_turn(seat)
        elif k == ACCEPT:
            self._absorb(seat)
        elif k == COLOR:
            self._roulette(seat, action.color)

    def _take(
        self, seat: int, count: int, until: int = -1, playable: bool = False, shown: bool = False
    ) -> bool:
        """``seat`` draws one card at a time: ``count`` cards, or until a card of colour
        ``until`` (wilds do not count), or until a playable card.  Mercy-checked after
        each card (NM-MERCY-1); False if the seat was knocked out.  ``shown``: the cards
        are turned up for the table (a Roulette's reveal), one public event."""
        got: list[int] = []
        limit = self.rules.mercy_limit
        hand = self.hands[seat]
        alive = True
        while count > 0 or until >= 0 or playable:
            c = self._give_one(seat)
            if c < 0:  # nothing left anywhere (NM-TURN-6: R-TURN-6 fallback)
                break
            got.append(c)
            count -= 1
            if limit and len(hand) >= limit:
                alive = False
                break
            if until >= 0 and NM_COLOR[c] == until:
                break
            if playable and self._matches(c):
                break
        if shown:
            if got:
                self._emit(Event(EventKind.DRAW, seat, tuple(got), len(got)))
        else:
            self._emit_draw(seat, got)
        if not alive:
            self._knock_out(seat)
        return alive

    def _knock_out(self, seat: int) -> None:
        """NM-MERCY-1..4: out of this hand; its cards set aside (or under the discards)."""
        hand = self.hands[seat]
        count = len(hand)
        if self.rules.nm_knockout_cards == "set_aside":
            self.aside.extend(hand)
        else:  # face down, so nobody sees them (the view leaves them out)
            self.discard[0:0] = hand
            self.face_down += count
        self.hands[seat] = []
        self.live[seat] = False
        self.n_live -= 1
        self.knockouts += 1
        if self.vulnerable == seat:
            self.vulnerable = -1
        self._emit(Event(EventKind.KNOCKOUT, seat, amount=count))
        if self.n_live == 1:  # NM-END-3
            self._end_round(self.live.index(True))
            return
        if self.current == seat:  # NM-MERCY-3: play passes on
            self.phase = P_PLAY
            self.drawn = -1
            self.pend_card = -1
            self.pend_total = 0
            self.current = self._next(seat)

    def _give(self, seat: int, count: int) -> int:
        """An UNO penalty (NM-UNO-2), Mercy-checked."""
        before = len(self.hands[seat])
        self._take(seat, count)
        return max(len(self.hands[seat]) - before, 0)

    def _draw_turn(self, seat: int) -> None:
        """NM-TURN-3, -4: draw until a playable card comes; it must then be played."""
        alive = self._take(seat, 0, playable=True)
        if not alive or self.phase >= P_ROUND_OVER:
            return
        hand = self.hands[seat]
        if hand and self._matches(hand[-1]):
            self.drawn = hand[-1]
            self.phase = P_DRAWN
        else:  # nothing playable left to draw (R-TURN-6): the turn passes
            self.current = self._next(seat)

    def _absorb(self, seat: int) -> None:
        """NM-STACK-4: draw the whole total and lose the turn."""
        total = self.pend_total
        self._emit(Event(EventKind.SKIP, seat))
        self.pend_card = -1
        self.pend_total = 0
        self.phase = P_PLAY
        if self._take(seat, total):
            self.current = self._next(seat)

    def _final_stack(self, seat: int, target: int) -> None:
        """A last card that opened or sent on a stack (nm_last_card_effect): ``target``
        draws it with no answer, and ``seat``, out of cards, wins the hand."""
        self._take(target, self.pend_total)
        self.pend_total = 0
        self.pend_card = -1
        if self.phase < P_ROUND_OVER:
            self._end_round(seat)

    def _roulette(self, seat: int, color: int) -> None:
        """NM-ACT-ROULETTE: reveal until the colour, keep them all, lose the turn.

        "They reveal cards one at a time": the cards are turned up for the table, so the
        draw is one public event (every seat sees which cards the victim took); the
        views are unchanged (no view lists another seat's cards)."""
        self._emit(Event(EventKind.COLOR, seat, color=color))
        self.roulette_by = -1
        self.phase = P_PLAY
        if self.rules.nm_roulette_color == "victim":  # NM-ROULETTE-1
            self.color = color
        self._emit(Event(EventKind.SKIP, seat))
        if self._take(seat, 0, until=color, shown=True):
            self.current = self._next(seat)

    def _play(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        c = action.card
        answering = self.phase == P_ANSWER
        hand.remove(c)
        self.drawn = -1
        self.phase = P_PLAY
        r = NM_RANK[c]
        buried: list[int] = []
        if r == N_DISCARDALL:  # NM-ACT-DISCARDALL: the colour's other cards go under it
            col = NM_COLOR[c]
            buried = [x for x in hand if NM_COLOR[x] == col]
            hand[:] = [x for x in hand if NM_COLOR[x] != col]
            self.discard.extend(buried)
        self.discard.append(c)
        if NM_WILD[c]:
            if action.color >= 0:
                self.color = action.color
        else:
            self.color = NM_COLOR[c]
        self._emit(
            Event(EventKind.PLAY, seat, (c, *buried), color=self.color, target=action.target)
        )
        if r not in (0, 7) or answering:
            self._uno_after(seat, action.uno)
        effect = self.rules.nm_last_card_effect
        if not hand and not effect:  # NM-END-1, -2, NM-STACK-8
            self._end_round(seat)
            return
        v = NM_DRAW[c]
        if v:  # NM-STACK-1 (NM-ACT-D2, -D4, -WRD4, -WD6, -WD10)
            self.pend_total += v
            self.pend_card = c
            if c == NM_WR4:
                self.direction = -self.direction
                self._emit(Event(EventKind.REVERSE, seat))
            # NM-2P-WRD4: with two players a WR+4 makes its own player the target; but
            # a WR+4 that answers a stack targets the opponent (the book's "answer with
            # a draw card of value >= 4 (it targets the opponent)": an answer that sent
            # the stack back to its own player would be an absorb with 4 more cards),
            # and a final card cannot (the player has gone out)
            own = c == NM_WR4 and self.n_live == 2 and bool(hand) and not answering
            target = seat if own else self._next(seat)
            if not hand:  # nm_last_card_effect: the target draws, the hand ends
                self._final_stack(seat, target)
                return
            self.phase = P_ANSWER
            self.current = target
            self._emit(Event(EventKind.HIT, target, (c,), self.pend_total))
            return
        if answering:  # nm_stack_deflect: a Skip or Reverse passes the stack on
            if r == N_REVERSE:  # back the other way (to the opponent with two players)
                self.direction = -self.direction
                target = self._next(seat)
            else:  # over the next player (to the opponent with two players)
                target = self._next(seat, 1 if self.n_live == 2 else 2)
            if not hand:  # NM-END-1 under nm_last_card_effect: the deflected stack is
                # drawn by its new target with no answer (as a final draw card's), and
                # the player who went out wins the hand
                self._final_stack(seat, target)
                return
            self.phase = P_ANSWER
            self.current = target
            self._emit(Event(EventKind.HIT, target, (self.pend_card,), self.pend_total))
            return
        if not hand:  # nm_last_card_effect with a card that draws nobody: done
            self._end_round(seat)
            return
        if r == 7:  # NM-ACT-7
            t = action.target
            self.hands[seat], self.hands[t] = self.hands[t], self.hands[seat]
            self._emit(Event(EventKind.SWAP, seat, target=t))
            self._emit_hands((seat, t))
            self._uno_after(seat, action.uno)
            self._uno_received(seat, (t,))
            self.current = self._next(seat)
        elif r == 0:  # NM-ACT-0
            live = [s for s in range(self.n) if self.live[s]]
            old = {s: self.hands[s] for s in live}
            for s in live:
                self.hands[self._next(s)] = old[s]
            self._emit(Event(EventKind.ROTATE, seat, amount=self.direction))
            self._emit_hands(live)
            self._uno_after(seat, action.uno)
            self._uno_received(seat, live)
            self.current = self._next(seat)
        elif r == N_SKIP:  # NM-ACT-SKIP
            victim = self._next(seat)
            self._emit(Event(EventKind.SKIP, victim))
            self.current = self._next(victim)
        elif r == N_REVERSE:  # NM-ACT-REVERSE, NM-2P
            if self.n_live == 2:
                self._emit(Event(EventKind.SKIP, self._next(seat)))
                self.current = seat
            else:
                self.direction = -self.direction
                self._emit(Event(EventKind.REVERSE, seat))
                self.current = self._next(seat)
        elif r == N_SKIPALL:  # NM-ACT-SKIPALL: a full turn again
            for s in range(self.n):
                if s != seat and self.live[s]:
                    self._emit(Event(EventKind.SKIP, s))
            self.current = seat
        elif c == NM_WCR:  # NM-ACT-ROULETTE: the next player names a colour
            victim = self._next(seat)
            self.roulette_by = seat
            self.phase = P_START_COLOR
            self.current = victim
        else:
            self.current = self._next(seat)

    def _emit_hands(self, seats: Sequence[int]) -> None:
        ev = self.events
        if ev is None:
            return
        for s in seats:
            h = self.hands[s]
            ev.append(Event(EventKind.HAND, s, tuple(h), len(h), only=s))
            ev.append(Event(EventKind.HAND, s, (), len(h), hide=s))

    def _uno_received(self, seat: int, seats: Sequence[int]) -> None:
        """NM-UNO-1 (§C 23): a one-card hand received by a swap or pass must be called."""
        if self.vulnerable >= 0:
            return
        n = self.n
        for k in range(1, n):  # the first in seat order from the player
            s = (seat + k) % n
            if s in seats and len(self.hands[s]) == 1:
                self.vulnerable = s
                return

    # ------------------------------------------------------------ scoring ---------
    @classmethod
    def sample_world(cls, view: View, rng: random.Random, bluff: float = 0.25) -> NoMercyGame:
        """The hand, every face-up discard, hand sizes, live seats, the pending stack, the
        colour and the direction kept; the cards the seat cannot see (the deck minus its
        hand and the face-up discards) dealt to the other hands, the set-aside hands, any
        face-down cards under the discard pile and the draw pile, by their sizes."""
        assert isinstance(view, ModernView)
        unseen = Counter(nm_deck(view.rules.nm_deck))
        unseen.subtract(view.hand)
        unseen.subtract(view.discard)
        if any(k < 0 for k in unseen.values()):
            raise WorldError("the view shows more of a card than the deck holds")
        pool = list(unseen.elements())
        rng.shuffle(pool)
        g = cls._world_base(view, rng.getrandbits(32))
        hands: list[list[int]] = []
        for s in range(view.n):
            if s == view.seat:
                hands.append(list(view.hand))
            else:
                k = view.hand_sizes[s]
                hands.append(pool[:k])
                del pool[:k]
        aside = view.aside
        face_down = view.discard_size - len(view.discard)
        if len(pool) != aside + face_down + view.draw_pile:
            raise WorldError("the view's card counts do not add up to the deck")
        g.aside = pool[:aside]
        g.discard = pool[aside : aside + face_down] + list(view.discard)
        g.face_down = face_down
        g.pile = pool[aside + face_down :]
        g.hands = hands
        g.knockouts = sum(1 for alive in view.live if not alive)
        if view.phase == P_DRAWN and view.drawn >= 0:
            g.drawn = view.drawn
        return g

    def knocked_out(self) -> int:
        return self.knockouts

    def held_most(self, seat: int) -> int:
        counts = [0] * 4
        for c in self.hands[seat]:
            if not NM_WILD[c]:
                counts[NM_COLOR[c]] += 1
        return max(range(4), key=lambda c: counts[c])

    def is_wild(self, face: int) -> bool:
        return NM_WILD[face]

    def hand_points(self, seat: int) -> int:
        return sum(NM_POINTS[c] for c in self.hands[seat])

    def points_owed(self, seat: int) -> int:
        """NM-SCORE-2: a hand's points, or 250 for a seat knocked out of the hand."""
        return KNOCKOUT_POINTS if not self.live[seat] else self.hand_points(seat)

    def _score(self, winner: int) -> None:
        """NM-SCORE-1, -2: first out wins; or points, 250 per knockout, to the target."""
        rules = self.rules
        gw = -1
        gained = 0
        if rules.scoring == "standard":
            gained = (
                sum(self.hand_points(s) for s in range(self.n) if s != winner and self.live[s])
                + KNOCKOUT_POINTS * self.knockouts
            )
            self.scores[winner] += gained
            if self.scores[winner] >= rules.target_score:
                gw = winner
        else:
            gw = winner
        self._finish(winner, gained, gw)

    # ------------------------------------------------------------ views -----------
    def view(self, seat: int | None) -> ModernView:
        """What one seat may see: every card played is public (NM deck), hands are not."""
        check_seat(self, seat)
        c = common_fields(self, seat)
        mine = c.pop("mine")
        answer = self.phase == P_ANSWER
        return ModernView(
            **c,
            hand=tuple(sorted(self.hands[seat])) if seat is not None else (),
            discard=tuple(self.discard[self.face_down :]),
            drawn=self.drawn if mine and self.phase == P_DRAWN else -1,
            pending=self.pend_card if answer else -1,
            pending_total=self.pend_total if answer else 0,
            aside=len(self.aside),
        )

    def _extra_state(self) -> dict[str, Any]:
        return {
            "live": list(self.live),
            "aside": len(self.aside),
            "pending_total": self.pend_total,
            "discard": [NM_CODE[c] for c in self.discard],
        }

    _FIELDS = (*ModernGame._FIELDS, "aside", "knockouts", "roulette_by", "face_down")


__all__ = ["NoMercyGame"]
