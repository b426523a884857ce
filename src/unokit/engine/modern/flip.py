"""UNO Flip! (RULES-MODERN.md Part A): two-faced cards, a light and a dark side.

Hands and piles hold *physical* cards: ids 0..111 into ``pairs``, the game's fixed
(light, dark) pairing (FLIP-DECK-3, a seeded random pairing made when the game is
built).  Which face counts is ``side``; actions and views name faces, never physical
ids, so nothing a seat receives tells it the other face of its own cards
(FLIP-VIEW-1).  A play names the active face; of two cards showing the same face the
first in hand order goes (the player cannot tell them apart either).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from unokit.cards import CardError
from unokit.engine.actions import ACCEPT, CHALLENGE, COLOR, DRAW, KEEP, PLAY, Action
from unokit.engine.dealing import shuffle
from unokit.engine.errors import ShuffleError
from unokit.engine.events import Event, EventKind
from unokit.engine.family import register
from unokit.engine.modern.base import ModernGame, WorldError
from unokit.engine.modern.view import ModernView, common_fields
from unokit.engine.phases import (
    P_CHALLENGE,
    P_DRAWN,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
)
from unokit.engine.scoring import lowest
from unokit.engine.view import View, check_seat
from unokit.modern_cards import (
    DARK,
    F_DRAW,
    F_FLIP,
    F_REVERSE,
    F_SKIP,
    FACE_CODE,
    FACE_COLOR,
    FACE_NUMBER,
    FACE_POINTS,
    FACE_RANK,
    FACE_WILD,
    FLIP_COLOR_CODES,
    LIGHT,
    NUM_FACES,
    SIDE_NAMES,
    WILD_D2,
    WILD_DC,
    pair_code,
    parse_face,
    parse_flip_color,
    parse_pair,
    side_faces,
)

# why a colour is asked for (P_START_COLOR)
CHOOSE_START, CHOOSE_FLIP = 0, 1


@register
class FlipGame(ModernGame):
    """UNO Flip! in rounds, for 2 to 10 players."""

    DECK = "flip"
    NAME = "flip"
    NO_PHASES = ("answer",)  # no stacking of draw cards (FLIP-TURN-6)
    FIXED_CODES = False  # the codes carry the light/dark pairing (FLIP-DECK-3)
    FACE_CODES = FACE_CODE
    SIDES = SIDE_NAMES
    TITLE = "UNO Flip!"
    ACTION_CARDS = NUM_FACES  # actions name faces
    COLOR_CODES = FLIP_COLOR_CODES
    # a colour is asked for the wild on top (at the start, or exposed by a flip); the
    # Wild Draw Two and Wild Draw Colour on top are challenged (FLIP-CHAL)
    START_COLOR = "top_wild"
    CHALLENGE = "wild_draw"

    def _init_game(self) -> None:
        lights, darks = side_faces(LIGHT), side_faces(DARK)
        shuffle(self.rng, darks)  # FLIP-DECK-3: flip_pairing="random", fixed for the game
        self.pairs: list[tuple[int, int]] = sorted(zip(lights, darks, strict=True))
        self.side = LIGHT
        self.choose = CHOOSE_START
        self._after_color = False  # an exposed wild draw face acts once its colour is named

    def _reset_round(self) -> None:
        self.side = LIGHT  # FLIP-SETUP-5, FLIP-SCORE-4
        self.choose = CHOOSE_START
        self._after_color = False

    # ------------------------------------------------------------ cards -----------
    def full_deck(self) -> list[int]:
        return list(range(len(self.pairs)))

    def face(self, card: int) -> int:
        """The active face of a physical card."""
        return self.pairs[card][self.side]

    def back(self, card: int) -> int:
        """The inactive face: what everyone else sees of it (FLIP-VIEW-2, -3)."""
        return self.pairs[card][1 - self.side]

    def _faces(self, cards: Iterable[int]) -> tuple[int, ...]:
        pairs, side = self.pairs, self.side
        return tuple(pairs[c][side] for c in cards)

    def code_of(self, card: int) -> str:
        return pair_code(*self.pairs[card])

    def cards_from_codes(self, codes: Sequence[str], where: str) -> list[int]:
        """Two-faced codes to physical ids.  The first round's whole deck sets the
        pairing (FLIP-DECK-3: records store it through the codes)."""
        got: list[tuple[int, int]] = []
        for i, code in enumerate(codes):
            if not isinstance(code, str):
                raise CardError(f"{where}[{i}] must be a card code, not {code!r}")
            try:
                got.append(parse_pair(code))
            except CardError as e:
                raise CardError(f"{where}[{i}]: {e}") from None
        if self.round_index < 0 and not self.rounds and len(got) == len(self.pairs):
            if sorted(a for a, _ in got) != sorted(side_faces(LIGHT)) or sorted(
                b for _, b in got
            ) != sorted(side_faces(DARK)):
                raise CardError(f"{where} is not the 112 cards of UNO Flip!, each once")
            self.pairs = sorted(got)
        index: dict[tuple[int, int], list[int]] = {}
        for pid, p in enumerate(self.pairs):
            index.setdefault(p, []).append(pid)
        out: list[int] = []
        used: Counter[tuple[int, int]] = Counter()
        for i, p in enumerate(got):
            ids = index.get(p, [])
            if used[p] >= len(ids):
                raise CardError(f"{where}[{i}]: {codes[i]} is not a card of this game's deck")
            out.append(ids[used[p]])
            used[p] += 1
        return out

    def _reorder(self, given: list[int], pile: list[int]) -> list[int] | None:
        """Two cards with the same two faces are the same card to a record (its codes
        name faces): a shuffle is matched to the pile by faces, not by card id."""
        twins: dict[tuple[int, int], list[int]] = {}
        for c in pile:
            twins.setdefault(self.pairs[c], []).append(c)
        out: list[int] = []
        for c in given:
            same = twins.get(self.pairs[c])
            if not same:
                return None
            out.append(same.pop())
        return out if len(out) == len(pile) else None

    def face_code(self, face: int) -> str:
        return FACE_CODE[face]

    def parse_face(self, text: str) -> int:
        return parse_face(text)

    def color_code(self, color: int) -> str:
        return FLIP_COLOR_CODES[color]

    def parse_color(self, text: str) -> int:
        return parse_flip_color(text)

    def _dealer_value(self, card: int) -> int | None:
        f = self.pairs[card][LIGHT]  # FLIP-SETUP-2: a symbol counts as zero
        return FACE_RANK[f] if FACE_NUMBER[f] else 0

    # ------------------------------------------------------------ start -----------
    def _never_starts(self, face: int) -> bool:
        return face == WILD_D2 or (FACE_RANK[face] == F_FLIP and self.rules.flip_start == "redraw")

    def _start(self, dealer: int, first: int) -> None:
        """FLIP-START-*: turn the start card (light face up) and apply its rule."""
        pile = self.pile
        top = pile.pop()
        while self._never_starts(self.face(top)):  # FLIP-START-WD2 (and -FLIP, redraw)
            pile.append(top)
            self._emit(Event(EventKind.START_CARD, dealer, (self.face(top),)))
            self._emit(Event(EventKind.START_RETURN, dealer, (self.face(top),)))
            self._shuffle_pile(pile)
            top = pile.pop()
        self.discard.append(top)
        f = self.face(top)
        self._emit(Event(EventKind.START_CARD, dealer, (f,)))
        self.phase = P_PLAY
        self.current = first
        self.color = FACE_COLOR[f]
        r = FACE_RANK[f]
        if FACE_WILD[f]:  # FLIP-START-WILD
            self.color = -1
            self.phase = P_START_COLOR
            self.choose = CHOOSE_START
        elif r == F_FLIP:  # FLIP-START-FLIP, flip_start="flip": revealed, no action
            self._turn_over(dealer)
            g = self.face(self.discard[-1])
            if FACE_WILD[g]:
                self.color = -1
                self.phase = P_START_COLOR
                self.choose = CHOOSE_START
        elif r == F_DRAW:  # FLIP-START-D1
            self._give(first, 1)
            self._emit(Event(EventKind.SKIP, first))
            self.current = self._next(first)
        elif r == F_SKIP:  # FLIP-START-SKIP
            self._emit(Event(EventKind.SKIP, first))
            self.current = self._next(first)
        elif r == F_REVERSE:  # FLIP-START-REVERSE, FLIP-2P-3
            self.direction = -1
            self._emit(Event(EventKind.REVERSE, dealer))
            self.current = dealer

    # ------------------------------------------------------------ legality --------
    def _matches(self, f: int) -> bool:
        """FLIP-TURN-1: colour in force, number or symbol, or any wild."""
        if FACE_WILD[f] or FACE_COLOR[f] == self.color:
            return True
        top = self.face(self.discard[-1])
        return not FACE_WILD[top] and FACE_RANK[f] == FACE_RANK[top]

    def _wild_ok(self, seat: int, f: int) -> bool:
        """FLIP-ACT-WD2, -WDC-3, FLIP-CHAL-2: without bluffing, no card of the colour in force."""
        if f not in (WILD_D2, WILD_DC) or self.rules.wd4_bluffing:
            return True
        return not self._holds(seat, self.color)

    def _holds(self, seat: int, color: int) -> bool:
        pairs, side = self.pairs, self.side
        return any(FACE_COLOR[pairs[c][side]] == color for c in self.hands[seat])

    def _plays(self, seat: int, f: int, left: int, out: list[Action]) -> None:
        colors = [self.side * 4 + c for c in range(4)] if FACE_WILD[f] else [-1]
        for col in colors:
            out.append(Action(PLAY, f, col))
            if left == 1:
                out.append(Action(PLAY, f, col, -1, True))

    def _turn_actions(self, seat: int) -> list[Action]:
        ph = self.phase
        out: list[Action] = []
        if ph == P_START_COLOR:
            return [Action(COLOR, color=self.side * 4 + c) for c in range(4)]
        if ph == P_CHALLENGE:
            return [Action(CHALLENGE), Action(ACCEPT)]
        hand = self.hands[seat]
        left = len(hand) - 1
        if ph == P_DRAWN:
            f = self.face(self.drawn)
            self._plays(seat, f, left, out)
            if not self.rules.force_play_drawn:
                out.append(Action(KEEP))
            return out
        seen: set[int] = set()
        for c in hand:
            f = self.face(c)
            if f not in seen:
                seen.add(f)
                if self._matches(f) and self._wild_ok(seat, f):
                    self._plays(seat, f, left, out)
                    self._multi_faces(seat, f, left, out)
        out.append(Action(DRAW))
        return out

    def _multi_faces(self, seat: int, first: int, left: int, out: list[Action]) -> None:
        """R-VAR-MULTI (FLIP-OPT-1): more number faces of ``first``'s number after it,
        the last one on top; no colour to name, no effect."""
        if not self.rules.multi_play or not FACE_NUMBER[first]:
            return
        rest = list(self._faces(self.hands[seat]))
        rest.remove(first)
        same = sorted(f for f in rest if FACE_NUMBER[f] and FACE_RANK[f] == FACE_RANK[first])
        seqs: set[tuple[int, ...]] = set()
        for size in range(1, len(same) + 1):
            for combo in combinations(same, size):
                for i in range(len(combo)):
                    seqs.add((*combo[:i], *combo[i + 1 :], combo[i]))
        for seq in sorted(seqs):
            out.append(Action(PLAY, first, -1, -1, False, seq))
            if left - len(seq) == 1:
                out.append(Action(PLAY, first, -1, -1, True, seq))

    def _jump_actions(self, seat: int) -> list[Action]:
        """R-VAR-JUMPIN (FLIP-OPT-1): a card showing the top card's coloured face, while
        the player to act has not begun (``P_PLAY``)."""
        if self.phase != P_PLAY or seat == self.current or not self.live[seat]:
            return []
        top = self.face(self.discard[-1])
        hand = self.hands[seat]
        if FACE_WILD[top] or top not in self._faces(hand):
            return []
        out: list[Action] = []
        self._plays(seat, top, len(hand) - 1, out)
        self._multi_faces(seat, top, len(hand) - 1, out)
        return out

    def _why(self, seat: int, action: Action) -> str:
        k, ph = action.kind, self.phase
        if ph == P_START_COLOR:
            side = SIDE_NAMES[self.side]
            return (
                f"{self.names[seat]} must first name a colour of the {side} side "
                f"({', '.join(FLIP_COLOR_CODES[self.side * 4 : self.side * 4 + 4])})"
            )
        if ph == P_CHALLENGE:
            return "challenge or accept the wild draw card first"
        if k != PLAY:
            return f"{self.action_text(action)} is not allowed now"
        f = action.card
        if not 0 <= f < len(FACE_CODE) or not FACE_CODE[f]:
            return f"{action.card} is not a card"
        faces = self._faces(self.hands[seat])
        if ph == P_DRAWN and f != self.face(self.drawn):
            return "after drawing you may play only the card drawn, or keep it"
        if f not in faces:
            return f"{self.names[seat]} holds no {FACE_CODE[f]} on the {SIDE_NAMES[self.side]} side"
        if not self._matches(f):
            return f"{FACE_CODE[f]} does not match the top card ({self.top_text()})"
        if not self._wild_ok(seat, f):
            return f"{FACE_CODE[f]} may be played only without a card of the colour in force"
        if FACE_WILD[f] and not self.side * 4 <= action.color < self.side * 4 + 4:
            return f"name a colour of the {SIDE_NAMES[self.side]} side for {FACE_CODE[f]}"
        if not FACE_WILD[f] and action.color >= 0:
            return "only a wild card takes a colour"
        return f"{self.action_text(action)} is not allowed now"

    def top_text(self) -> str:
        f = self.face(self.discard[-1])
        col = FLIP_COLOR_CODES[self.color] if self.color >= 0 else "no colour yet"
        return f"{FACE_CODE[f]}, colour {col}"

    # ------------------------------------------------------------ applying --------
    def _do(self, seat: int, action: Action) -> None:
        k = action.kind
        if k == PLAY:
            if seat != self.current:  # a jump-in: play continues from the jumper
                self.current = seat
            self._play(seat, action)
        elif k == DRAW:
            self._draw_turn(seat)
        elif k == KEEP:
            self._emit(Event(EventKind.KEEP, seat))
            self.drawn = -1
            self.phase = P_PLAY
            self.current = self._next(seat)
        elif k == COLOR:
            self._named(seat, action.color)
        elif k == CHALLENGE:
            self._challenge(seat)
        elif k == ACCEPT:
            self._accept(seat)

    def _named(self, seat: int, color: int) -> None:
        self.color = color
        self._emit(Event(EventKind.COLOR, seat, color=color))
        self.phase = P_PLAY
        if self.choose == CHOOSE_FLIP:  # FLIP-FLIP-5: the flipper named it; the turn passes
            self.current = self._next(seat)
            if self._after_color:  # flip_exposed_action: an exposed wild draw face acts
                self._after_color = False
                self._exposed_draw(seat)
        # CHOOSE_START: the same player now plays (FLIP-START-WILD)

    def _draw_turn(self, seat: int) -> None:
        """FLIP-TURN-2 (and draw_until_playable, force_play_drawn)."""
        got: list[int] = []
        while True:
            c = self._give_one(seat)
            if c < 0:
                break
            got.append(c)
            if not self.rules.draw_until_playable or self._matches(self.face(c)):
                break
        self._emit_draw(seat, got)
        if got and self._matches(self.face(got[-1])) and self._wild_ok(seat, self.face(got[-1])):
            self.drawn = got[-1]
            self.phase = P_DRAWN
        else:
            self.current = self._next(seat)

    def _showing(self, hand: list[int], face: int) -> int:
        """The first card of ``hand`` showing ``face`` (the player cannot tell apart two
        cards showing the same face, so which one goes is not a choice)."""
        pairs, side = self.pairs, self.side
        return next(c for c in hand if pairs[c][side] == face)

    def _play(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        f = action.card
        card = self.drawn if self.phase == P_DRAWN else self._showing(hand, f)
        hand.remove(card)
        self.drawn = -1
        self.phase = P_PLAY
        self.discard.append(card)
        for g in action.extra:  # multi-play: number cards after it, the last on top
            more = self._showing(hand, g)
            hand.remove(more)
            self.discard.append(more)
            f = g
        prev = self.color
        self.color = action.color if FACE_WILD[f] else FACE_COLOR[f]
        self._emit(Event(EventKind.PLAY, seat, action.cards, color=self.color))
        self._uno_after(seat, action.uno)
        out = not hand
        r = FACE_RANK[f]
        if f in (WILD_D2, WILD_DC):  # FLIP-ACT-WD2, -WDC: the next player may challenge
            self.wd4_by = seat
            self.wd4_prev_color = prev
            self.wd4_guilty = self._holds(seat, prev)
            self.pend_card = f
            self.pend_total = 2 if f == WILD_D2 else 0
            self.phase = P_CHALLENGE
            self.current = self._next(seat)
            return
        if FACE_WILD[f]:
            self.current = self._next(seat)
        elif r == F_DRAW:  # FLIP-ACT-D1, -D5 (FLIP-END-2: also as the last card)
            victim = self._next(seat)
            self._give(victim, 1 if self.side == LIGHT else 5)
            self._emit(Event(EventKind.SKIP, victim))
            self.current = self._next(victim)
        elif r == F_FLIP:  # FLIP-FLIP-1 (FLIP-END-3)
            if out and self.rules.flip_last_card == "no_flip":
                self._end_round(seat)
                return
            self._flip(seat)
        elif out:
            pass
        elif r == F_REVERSE:  # FLIP-ACT-REVERSE, FLIP-2P-1
            if self.n_live == 2:
                self._emit(Event(EventKind.SKIP, self._next(seat)))
                self.current = seat
            else:
                self.direction = -self.direction
                self._emit(Event(EventKind.REVERSE, seat))
                self.current = self._next(seat)
        elif r == F_SKIP and self.side == LIGHT:  # FLIP-ACT-SKIP
            victim = self._next(seat)
            self._emit(Event(EventKind.SKIP, victim))
            self.current = self._next(victim)
        elif r == F_SKIP:  # FLIP-ACT-SKIPALL, FLIP-2P-2: the player plays again
            for s in range(self.n):
                if s != seat:
                    self._emit(Event(EventKind.SKIP, s))
            self.current = seat
        else:
            self.current = self._next(seat)
        if out and self.phase < P_ROUND_OVER:  # FLIP-END-1
            self._end_round(seat)

    def _turn_over(self, seat: int) -> None:
        """FLIP-FLIP-1: the discard pile as one stack, then the draw pile, then hands."""
        if self.rules.flip_inverts_discard:
            self.discard.reverse()
        self.pile.reverse()
        self.side = 1 - self.side
        top = self.face(self.discard[-1])
        self.color = -1 if FACE_WILD[top] else FACE_COLOR[top]  # FLIP-FLIP-2, -3
        self._emit(Event(EventKind.FLIP, seat, (top,), amount=self.side))

    def _flip(self, seat: int) -> None:
        """A Flip card played: turn everything over, then the revealed top card's rule."""
        self._turn_over(seat)
        top = self.face(self.discard[-1])
        nxt = self._next(seat)
        self.current = nxt
        if FACE_WILD[top]:  # FLIP-FLIP-5
            self.phase = P_START_COLOR
            self.choose = CHOOSE_FLIP if self.rules.flip_wild_color == "flipper" else CHOOSE_START
            if self.choose == CHOOSE_FLIP:
                self.current = seat
            self._after_color = (
                self.rules.flip_exposed_action
                and top in (WILD_D2, WILD_DC)
                and self.choose == CHOOSE_FLIP
            )
            return
        if not self.rules.flip_exposed_action:  # FLIP-FLIP-4: revealed, not played
            return
        r = FACE_RANK[top]
        if r == F_DRAW:
            self._give(nxt, 1 if self.side == LIGHT else 5)
            self._emit(Event(EventKind.SKIP, nxt))
            self.current = self._next(nxt)
        elif r == F_REVERSE:
            if self.n_live == 2:
                self.current = seat
            else:
                self.direction = -self.direction
                self.current = self._next(seat)
        elif r == F_SKIP:
            self.current = self._next(nxt) if self.side == LIGHT else seat
        # an exposed Flip does not flip again (it was not played)

    def _exposed_draw(self, seat: int) -> None:
        """flip_exposed_action: an exposed Wild Draw Two / Colour hits the next player."""
        top = self.face(self.discard[-1])
        victim = self._next(seat)
        if top == WILD_D2:
            self._give(victim, 2)
        else:
            self._draw_until(victim, self.color, 0)
        self._emit(Event(EventKind.SKIP, victim))
        self.current = self._next(victim)

    def _draw_until(self, seat: int, color: int, more: int) -> None:
        """FLIP-ACT-WDC: draw until a card of ``color`` (wild faces do not count,
        FLIP-ACT-WDC-1); stop when nothing is left (-WDC-2); then ``more`` cards."""
        got: list[int] = []
        while True:
            c = self._give_one(seat)
            if c < 0:
                break
            got.append(c)
            if FACE_COLOR[self.face(c)] == color:
                break
        for _ in range(more):
            c = self._give_one(seat)
            if c < 0:
                break
            got.append(c)
        self._emit_draw(seat, got)

    def _challenge(self, seat: int) -> None:
        """FLIP-CHAL-WD2, -WDC (FLIP-VIEW-4: the hand is shown to the challenger only)."""
        by, f = self.wd4_by, self.pend_card
        guilty = self.wd4_guilty
        ev = self.events
        if ev is not None:
            ev.append(Event(EventKind.CHALLENGE, seat, target=by, amount=int(guilty)))
            h = self.hands[by]
            ev.append(Event(EventKind.REVEAL, by, self._faces(h), len(h), only=seat))
        self._clear_hit()
        if guilty:
            if f == WILD_D2:
                self._give(by, 2)
            else:
                self._draw_until(by, self.color, 0)
            self.current = seat
        else:
            if f == WILD_D2:
                self._give(seat, 4)
            else:
                self._draw_until(seat, self.color, 2)
            self._emit(Event(EventKind.SKIP, seat))
            self.current = self._next(seat)
        if not self.hands[by]:
            self._end_round(by)

    def _accept(self, seat: int) -> None:
        by, f = self.wd4_by, self.pend_card
        self._clear_hit()
        if f == WILD_D2:
            self._give(seat, 2)
        else:
            self._draw_until(seat, self.color, 0)
        self._emit(Event(EventKind.SKIP, seat))
        self.current = self._next(seat)
        if not self.hands[by]:  # FLIP-END-2
            self._end_round(by)

    def _clear_hit(self) -> None:
        self.phase = P_PLAY
        self.wd4_by = -1
        self.pend_card = -1
        self.pend_total = 0

    # ------------------------------------------------------------ scoring ---------
    @classmethod
    def sample_world(cls, view: View, rng: random.Random, bluff: float = 0.25) -> FlipGame:
        """The active faces of the seat's cards (their other faces dealt from the unseen
        faces of the inactive side), the other faces of each opponent's cards in hand order
        (their active faces dealt from the unseen faces of the active side), the top card's
        active face, the draw pile top's inactive face (FLIP-VIEW-1..3) kept; every face
        nobody shows dealt again, so each world is a whole deck with its own pairing."""
        assert isinstance(view, ModernView)
        side = view.side
        others = view.others
        pile_top = view.pile_top
        discard_size = view.discard_size
        fronts = Counter(side_faces(side))
        backs = Counter(side_faces(1 - side))
        fronts.subtract(view.hand)
        top = view.discard[-1] if view.discard else -1
        if top >= 0:
            fronts[top] -= 1
        for s, faces in enumerate(others):
            if s != view.seat:
                backs.subtract(faces)
        if pile_top >= 0:
            backs[pile_top] -= 1
        if any(k < 0 for k in fronts.values()) or any(k < 0 for k in backs.values()):
            raise WorldError("the view shows more of a face than the deck holds")
        fr = list(fronts.elements())
        bk = list(backs.elements())
        rng.shuffle(fr)
        rng.shuffle(bk)
        pairs: list[tuple[int, int]] = []

        def card(front: int, back: int) -> int:
            pairs.append((front, back) if side == LIGHT else (back, front))
            return len(pairs) - 1

        try:
            hands: list[list[int]] = []
            for s in range(view.n):
                if s == view.seat:
                    hands.append([card(f, bk.pop()) for f in view.hand])
                else:
                    hands.append([card(fr.pop(), b) for b in others[s]])
            discard = [card(fr.pop(), bk.pop()) for _ in range(discard_size - 1)]
            if top >= 0:
                discard.append(card(top, bk.pop()))
            pile: list[int] = []
            if view.draw_pile:
                pile = [card(fr.pop(), bk.pop()) for _ in range(view.draw_pile - 1)]
                pile.append(card(fr.pop(), pile_top))
        except IndexError:
            raise WorldError("the view's card counts do not add up to the deck") from None
        if fr or bk:
            raise WorldError("the view's card counts do not add up to the deck")
        g = cls._world_base(view, rng.getrandbits(32))
        g.pairs = pairs
        g.side = side
        g.hands = hands
        g.discard = discard
        g.pile = pile
        if view.phase == P_DRAWN and view.drawn >= 0:
            mine = hands[view.seat]
            g.drawn = next(c for c in reversed(mine) if pairs[c][side] == view.drawn)
        if view.phase == P_START_COLOR:
            start = discard_size == 1 and (side == LIGHT or view.rules.flip_start == "flip")
            flipper = view.rules.flip_wild_color == "flipper" and not start
            g.choose = CHOOSE_FLIP if flipper else CHOOSE_START
            g._after_color = (
                flipper and view.rules.flip_exposed_action and top in (WILD_D2, WILD_DC)
            )
        if view.phase == P_CHALLENGE:
            g.wd4_guilty = rng.random() < bluff
            g.wd4_prev_color = -1
        return g

    def side_up(self) -> int:
        return self.side

    def held_most(self, seat: int) -> int:
        side, pairs = self.side, self.pairs
        counts = [0] * 8
        for c in self.hands[seat]:
            f = pairs[c][side]
            if not FACE_WILD[f]:
                counts[FACE_COLOR[f]] += 1
        base = 4 * side
        return max(range(base, base + 4), key=lambda c: counts[c])

    def is_wild(self, face: int) -> bool:
        return FACE_WILD[face]

    def hand_points(self, seat: int) -> int:
        """FLIP-SCORE-1: valued on the side in force."""
        pts, side, pairs = FACE_POINTS, self.side, self.pairs
        return sum(pts[pairs[c][side]] for c in self.hands[seat])

    def _score(self, winner: int) -> None:
        rules, scores = self.rules, self.scores
        gained = 0
        gw = -1
        if rules.scoring == "low":  # FLIP-SCORE-3
            for s in range(self.n):
                scores[s] += self.hand_points(s)
            if max(scores) >= rules.target_score:
                # fewest points wins; a tie as classic's R-SCORE-LOW (docs/rules.md): to
                # the round's winner if tied, else the lowest seat
                gw = lowest(scores, range(self.n), winner)
        else:
            gained = sum(self.hand_points(s) for s in range(self.n) if s != winner)
            scores[winner] += gained
            if rules.scoring == "first-out" or scores[winner] >= rules.target_score:
                gw = winner
        self._finish(winner, gained, gw)

    # ------------------------------------------------------------ views -----------
    def view(self, seat: int | None) -> ModernView:
        """FLIP-VIEW-1..3 (FLIP-VIEW-4, a challenged hand, comes as an event)."""
        check_seat(self, seat)
        c = common_fields(self, seat)
        mine = c.pop("mine")
        hand = tuple(sorted(self._faces(self.hands[seat]))) if seat is not None else ()
        others = tuple(
            () if s == seat else tuple(self.back(x) for x in self.hands[s]) for s in range(self.n)
        )
        top = self.face(self.discard[-1]) if self.discard else -1
        return ModernView(
            **c,
            hand=hand,
            discard=(top,) if top >= 0 else (),
            drawn=self.face(self.drawn) if mine and self.phase == P_DRAWN else -1,
            pending=self.pend_card if self.phase == P_CHALLENGE else -1,
            pending_total=self.pend_total if self.phase == P_CHALLENGE else 0,
            side=self.side,
            others=others,
            pile_top=self.back(self.pile[-1]) if self.pile else -1,
        )

    def _extra_state(self) -> dict[str, Any]:
        return {
            "side": SIDE_NAMES[self.side],
            "discard": [self.code_of(c) for c in self.discard],
            "pile": [self.code_of(c) for c in reversed(self.pile)],
        }

    _FIELDS = (*ModernGame._FIELDS, "pairs", "side", "choose", "_after_color")

    def to_json_obj(self) -> dict[str, Any]:
        out = super().to_json_obj()
        out["pairs"] = [list(p) for p in self.pairs]
        return out

    @classmethod
    def _from_json_obj(cls, obj: dict[str, Any]) -> ModernGame:
        g = super()._from_json_obj(obj)
        assert isinstance(g, FlipGame)
        g.pairs = [(a, b) for a, b in obj["pairs"]]
        if sorted(a for a, _ in g.pairs) != sorted(side_faces(LIGHT)) or sorted(
            b for _, b in g.pairs
        ) != sorted(side_faces(DARK)):
            raise ShuffleError("the pairing is not UNO Flip!'s 112 cards")
        return g


__all__ = ["FlipGame"]
