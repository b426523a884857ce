"""The bots' play of UNO Flip! and No Mercy (RULES-MODERN.md), from a seat's view only.

The classic bots hand a modern view to this module (``MODERN_PLAY``): their own
card tables (``unokit.cards``) know nothing of two-faced cards or of No Mercy's deck.
Everything here reads the ``ModernView``: the active faces of the seat's own cards,
the other faces of the opponents' cards in Flip (FLIP-VIEW-2), hand sizes, the top
card, the pending stack.  Nothing is remembered between decisions, so a decision is a
function of the view (and of the bot's seed): the no-peek tests deal every hidden card
again and expect the same decision.

* ``greedy_modern``: the greedy bot's ranking (a non-wild before a wild, more cards
  at once, the colour in force, the most points), the colour it holds most, never a
  challenge, never a voluntary draw.
* ``ModernHeuristic``: each legal play is scored by the position it leaves (cards
  left, a colour to follow, wilds kept for later) plus what its effect is worth
  against the seat it hits: Draw One/Five and the No Mercy draw cards weigh more when
  the victim is close to going out, or close to the Mercy limit (a knock-out); Skip,
  Skip Everyone and (two players) Reverse are worth another turn; Discard All by the
  cards it sheds; a 7 swaps with the smallest hand and a 0 is judged by the hand it
  passes in; a Flip by both sides of the table: the seat's own hand now against an
  average hand of the other side (its own other faces are unseen), and the
  opponents' other faces (what they will hold after it, which every seat sees)
  against an average hand, the more the nearer they are to going out.  In Flip a play
  on the colour in force counts more than in No Mercy (measured: greedy's habit of
  keeping the colour beat switching it by number or symbol), and a run of plays that
  goes out this turn (Skip Everyone; with two players every card that gives another
  turn) is played whatever the scores say.  A stack is answered with the smallest draw card
  that may answer it (the big ones are kept to end a stack later), unless the next
  player is about to go out; it is absorbed only when nothing answers.  A Wild Draw
  Two or Wild Draw Colour is challenged when the odds of a bluff pay for the risk.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import cast

from unokit.engine.actions import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, KEEP, PLAY, UNO, Action
from unokit.engine.modern.view import ModernView
from unokit.engine.phases import P_ANSWER, P_CHALLENGE
from unokit.engine.view import View
from unokit.modern_cards import (
    F_DRAW,
    F_FLIP,
    F_REVERSE,
    F_SKIP,
    FACE_COLOR,
    FACE_POINTS,
    FACE_RANK,
    FACE_SIDE,
    FACE_WILD,
    LIGHT,
    N_D2,
    N_D4,
    N_DISCARDALL,
    N_REVERSE,
    N_SKIP,
    N_SKIPALL,
    NM_COLOR,
    NM_DRAW,
    NM_POINTS,
    NM_RANK,
    NM_WCR,
    NM_WILD,
    NM_WR4,
    NUM_FACES,
    WILD_D2,
    WILD_DC,
    nm_deck,
)

# What a card does, in both games (a face of Flip, a card of No Mercy).
K_NUMBER, K_DRAW, K_SKIP, K_SKIPALL, K_REVERSE, K_FLIP = 0, 1, 2, 3, 4, 5
K_WILD, K_WILD_DRAW, K_DISCARDALL, K_ROULETTE, K_SWAP, K_PASS = 6, 7, 8, 9, 10, 11
# cards a Wild Draw Colour makes the victim draw, on average (a dark colour is 26 of
# the 112 dark faces: about 1 in 4.3)
WDC_DRAWS = 4


@dataclass(frozen=True)
class Table:
    """One game's card properties, by the ids its views use."""

    game: str
    color: tuple[int, ...]  # global colour (Flip 0..7), -1 for a wild
    rank: tuple[int, ...]
    kind: tuple[int, ...]
    draws: tuple[int, ...]  # cards the victim draws
    points: tuple[int, ...]
    wild: tuple[bool, ...]
    # what the game's rules make matter (its own rules, as data: never a name compared)
    sided: bool = False  # a wild names a colour of the side up (UNO Flip!)
    bluffs: bool = False  # a Wild Draw may be challenged as a bluff (FLIP-CHAL)
    stacks: bool = False  # a draw card may be answered by stacking (NM-STACK)
    mercy: bool = False  # a hand that reaches mercy_limit is knocked out (NM-MERCY)


# The games this module plays (engine.family names): the bots that play several games
# hand these to it, by table, never by asking which game a view is of.
MODERN_PLAY: frozenset[str] = frozenset({"flip", "no-mercy"})


def _flip_table() -> Table:
    kind, draws = [K_NUMBER] * NUM_FACES, [0] * NUM_FACES
    for f in range(NUM_FACES):
        r = FACE_RANK[f]
        if f in (WILD_D2, WILD_DC):
            kind[f], draws[f] = K_WILD_DRAW, 2 if f == WILD_D2 else WDC_DRAWS
        elif FACE_WILD[f]:
            kind[f] = K_WILD
        elif r == F_DRAW:
            kind[f], draws[f] = K_DRAW, 1 if FACE_SIDE[f] == LIGHT else 5
        elif r == F_SKIP:
            kind[f] = K_SKIP if FACE_SIDE[f] == LIGHT else K_SKIPALL
        elif r == F_REVERSE:
            kind[f] = K_REVERSE
        elif r == F_FLIP:
            kind[f] = K_FLIP
    return Table(
        "flip", FACE_COLOR, FACE_RANK, tuple(kind), tuple(draws), FACE_POINTS, FACE_WILD,
        sided=True, bluffs=True,
    )  # fmt: skip


def _nm_table() -> Table:
    n = len(NM_RANK)
    kind = [K_NUMBER] * n
    for c in range(n):
        r = NM_RANK[c]
        if c == NM_WCR:
            kind[c] = K_ROULETTE
        elif NM_WILD[c]:
            kind[c] = K_WILD_DRAW if NM_DRAW[c] else K_WILD
        elif r in (N_D2, N_D4):
            kind[c] = K_DRAW
        elif r == N_SKIP:
            kind[c] = K_SKIP
        elif r == N_SKIPALL:
            kind[c] = K_SKIPALL
        elif r == N_REVERSE:
            kind[c] = K_REVERSE
        elif r == N_DISCARDALL:
            kind[c] = K_DISCARDALL
        elif r == 7:
            kind[c] = K_SWAP
        elif r == 0:
            kind[c] = K_PASS
    return Table(
        "no-mercy", NM_COLOR, NM_RANK, tuple(kind), NM_DRAW, NM_POINTS, NM_WILD,
        stacks=True, mercy=True,
    )  # fmt: skip


TABLES = {"flip": _flip_table(), "no-mercy": _nm_table()}


def table_of(view: View) -> Table:
    return TABLES[view.rules.game]


def modern_view(view: View) -> ModernView:
    """The views this module is handed are the modern games' (``MODERN_PLAY``)."""
    return cast(ModernView, view)


def side_colors(view: View) -> range:
    """The colours a wild may name now (Flip: the active side's four)."""
    side = modern_view(view).side
    base = 4 * side if table_of(view).sided and side >= 0 else 0
    return range(base, base + 4)


def next_live(view: View, seat: int, steps: int = 1) -> int:
    n, d, live = view.n, view.direction, view.live
    s = seat
    for _ in range(steps):
        s = (s + d) % n
        while not live[s]:
            s = (s + d) % n
    return s


def prev_live(view: View, seat: int) -> int:
    n, d, live = view.n, view.direction, view.live
    s = (seat - d) % n
    while not live[s]:
        s = (s - d) % n
    return s


def rest_after(view: View, a: Action, t: Table) -> list[int]:
    """The seat's own cards left after play ``a`` (before a swap or pass)."""
    rest = list(view.hand)
    for c in a.cards:
        if c in rest:
            rest.remove(c)
    if t.kind[a.card] == K_DISCARDALL:
        col = t.color[a.card]
        rest = [c for c in rest if t.color[c] != col]
    return rest


def cards_left(view: View, a: Action, t: Table, rest: Sequence[int]) -> int:
    """How many cards the seat holds after ``a``, swaps and passes included."""
    if not rest:
        return 0
    k = t.kind[a.card]
    if k == K_SWAP and a.target >= 0:
        return view.hand_sizes[a.target]
    if k == K_PASS and view.phase != P_ANSWER:
        return view.hand_sizes[prev_live(view, view.seat)]
    return len(rest)


def most_held(view: View, cards: Sequence[int], t: Table, rng: random.Random | None) -> int:
    """The colour of the active side held most among ``cards`` (ties: random, or the
    first)."""
    cols = side_colors(view)
    counts = {c: 0 for c in cols}
    for c in cards:
        col = t.color[c]
        if col in counts:
            counts[col] += 1
    best = max(counts.values())
    ties = [c for c in cols if counts[c] == best]
    return ties[0] if rng is None or len(ties) == 1 else rng.choice(ties)


def _size(view: View, target: int) -> int:
    return view.hand_sizes[target] if target >= 0 else 0


def catch_or_call(view: View) -> Action | None:
    for a in view.legal:
        if a.kind in (CATCH, UNO):
            return a
    return None


# ----------------------------------------------------------------------- greedy ----
def greedy_modern(view: View, rng: random.Random) -> Action:
    """The greedy bot on a modern view (see the module's docstring)."""
    legal = view.legal
    t = table_of(view)
    plays = [a for a in legal if a.kind == PLAY]
    if plays:
        colour = view.color
        hand = view.hand

        def key(a: Action) -> tuple[int, int, int, int]:
            top = a.extra[-1] if a.extra else a.card
            shed = len(a.extra)
            if t.kind[a.card] == K_DISCARDALL:
                shed = sum(1 for c in hand if t.color[c] == t.color[a.card]) - 1
            return (
                0 if t.wild[a.card] else 1,  # wilds last
                shed,  # more cards at once (multi-play, Discard All)
                1 if t.color[top] == colour else 0,  # colour before number
                t.points[a.card],  # action cards, then high numbers
            )

        best = max(plays, key=key)
        same = [a for a in plays if a.card == best.card and a.extra == best.extra]
        wanted = most_held(view, rest_after(view, best, t), t, rng)
        return max(same, key=lambda a: (a.color == wanted, -_size(view, a.target), a.uno))
    colours = [a for a in legal if a.kind == COLOR]
    if colours:
        want = most_held(view, view.hand, t, rng)
        return max(colours, key=lambda a: a.color == want)
    for kind in (ACCEPT, KEEP, DRAW):  # never challenge; draw when nothing fits
        for a in legal:
            if a.kind == kind:
                return a
    turn = [a for a in legal if a.kind not in (CATCH, UNO)]
    return (turn or list(legal))[0]


# -------------------------------------------------------------------- heuristic ----
@dataclass(frozen=True)
class ModernWeights:
    """The heuristic's constants (hand-set; docs/bots.md reports their strength)."""

    left: float = 10.0  # a card still in hand
    wild_hold: float = 30.0  # playing a wild while it could be kept
    follow: float = 2.0  # each card (up to 3) of the colour in force after the play
    stuck: float = 5.0  # no card left of the colour in force after the play
    draw: float = 2.5  # a card the victim draws, scaled by the victim's urgency
    skip: float = 6.0  # a skipped player, scaled likewise
    again: float = 7.0  # another turn for this seat
    knockout: float = 25.0  # a draw that may knock the victim out (No Mercy)
    flip: float = 4.0  # a Flip, per unit of ``_flip_gain`` (Flip's weights below)
    mercy: float = 1.2  # each card past 15 in hand: stacks and swaps matter more
    bluff_near: int = 2  # bluff a wild draw only against a seat with this many cards
    points: float = 0.0  # each point the card is worth (shed the costly ones first)
    same_colour: float = 3.0  # a play on the colour in force, not on number or symbol
    bluffs: float = 0.25  # how often a player holding the colour in force plays a wild draw
    # UNO Flip! only (a ``sided`` table; issue 50, tuned against greedy on seeds 11-12):
    flip_same_colour: float = 8.0  # replaces ``same_colour``: keep the colour in force
    flip_me: float = 1.0  # a Flip: the seat's own hand now against an average one
    flip_urg: float = 2.0  # a Flip: an opponent's other faces weigh more near going out
    q_action: float = 1.0  # worth of a coloured action face to its holder
    q_dark: float = 0.5  # more for a dark Draw Five or Skip Everyone
    q_wild: float = 3.0  # worth of a Wild face
    q_wdraw: float = 3.5  # worth of a Wild Draw Two or Wild Draw Colour face
    flip_lose: float = 40.0  # a Flip that leaves an opponent one wild face (it goes out)
    chain: int = 6  # look for a run of plays that goes out, with this many cards or fewer


def urgency(cards: int) -> float:
    """How close a seat with ``cards`` cards is to going out: 1 at one card, 0 from 5."""
    return max(0.0, (5 - cards) / 4)


class ModernHeuristic:
    """The heuristic bot's play of the modern games (see the module's docstring)."""

    def __init__(self, seed: int | None = None, weights: ModernWeights | None = None) -> None:
        self.rng = random.Random(seed)
        self.w = weights or ModernWeights()
        self.wf = replace(self.w, same_colour=self.w.flip_same_colour)  # a Flip table's

    def act(self, view: View) -> Action:
        legal = view.legal
        turn = [a for a in legal if a.kind not in (CATCH, UNO)]
        if not turn:
            return legal[0]
        if len(turn) == 1:
            return turn[0]
        t = table_of(view)
        if view.phase == P_CHALLENGE:
            return self._answer_wild(view, turn)
        colours = [a for a in turn if a.kind == COLOR]
        if colours:
            return self._colour(view, colours, t)
        plays = [a for a in turn if a.kind == PLAY]
        if plays:
            out = self._going_out(view, plays, t)
            if out is not None:
                return out
            best = max(plays, key=lambda a: (self.play_value(view, a, t), a.uno))
            keep = [a for a in turn if a.kind == KEEP]
            if keep and self.play_value(view, best, t) < self._keep_value(view, t):
                return keep[0]
            return best
        for kind in (ACCEPT, KEEP, DRAW):
            for a in turn:
                if a.kind == kind:
                    return a
        return turn[0]

    def ranked(self, view: View) -> list[Action]:
        """The turn's actions, best first (the search bot's candidates)."""
        turn = [a for a in view.legal if a.kind not in (CATCH, UNO)]
        t = table_of(view)
        first = self.act(view)

        def key(a: Action) -> tuple[float, bool]:
            if a.kind != PLAY:
                return (0.0, True)
            return (-self.play_value(view, a, t), not a.uno)

        rest = sorted((a for a in turn if a != first), key=key)
        return [first, *rest]

    # ---------------------------------------------------------------- deciding ----
    def _colour(self, view: View, colours: list[Action], t: Table) -> Action:
        """A colour to name: a Roulette's victim names the colour that comes soonest
        (most of the cards it cannot see); otherwise the colour held most."""
        if view.discard and t.kind[view.top] == K_ROULETTE:
            unseen = [0, 0, 0, 0]
            counts = nm_deck(view.rules.nm_deck)
            seen = list(view.hand) + list(view.discard)
            for c in counts:
                if NM_COLOR[c] >= 0:
                    unseen[NM_COLOR[c]] += 1
            for c in seen:
                if NM_COLOR[c] >= 0:
                    unseen[NM_COLOR[c]] -= 1
            mine = [0, 0, 0, 0]
            for c in view.hand:
                if NM_COLOR[c] >= 0:
                    mine[NM_COLOR[c]] += 1
            return max(colours, key=lambda a: (unseen[a.color], mine[a.color]))
        want = most_held(view, view.hand, t, None)
        return max(colours, key=lambda a: a.color == want)

    def _answer_wild(self, view: View, turn: list[Action]) -> Action:
        """FLIP-CHAL-*: challenge when a bluff is likely enough to pay.

        Accepting costs the hit (2 cards, or drawing until the colour); a wrong
        challenge costs 2 more; a right one moves the hit to its player.  The chance
        that the player held a card of the colour in force before, from its hand size
        (each card of the active side is of a given colour about 1 time in 4.3),
        quartered: most players do not bluff.
        """
        challenge = [a for a in turn if a.kind == CHALLENGE]
        accept = [a for a in turn if a.kind == ACCEPT]
        if not challenge or not accept:
            return turn[0]
        by = view.wd4_by
        h = view.hand_sizes[by] if by >= 0 else 7
        p_hold = 1 - (1 - 26 / 112) ** h
        p = self.w.bluffs * p_hold
        hit = 2 if view.pending == WILD_D2 else WDC_DRAWS
        gain = p * 2 * hit - (1 - p) * 2
        return challenge[0] if gain > 0 else accept[0]

    def _going_out(self, view: View, plays: list[Action], t: Table) -> Action | None:
        """Flip: the first play of a run that empties the hand this turn, if one exists.

        Every card of the run but the last must give this seat another turn: Skip
        Everyone (FLIP-ACT-SKIPALL); with two players also Skip, Reverse, Draw One,
        Draw Five and an honest Wild Draw Two or Colour (FLIP-2P-1, -2).  A Wild Draw is
        used only without a card of the colour in force (no bluff that a challenge
        could undo, FLIP-CHAL-*); a wild names any colour of the side up.  Only hands
        of ``chain`` cards or fewer are searched (the runs grow as a factorial)."""
        hand = list(view.hand)
        if not t.sided or len(hand) > self.w.chain or len(hand) < 2:
            return None
        two = sum(view.live) == 2
        colours = list(side_colors(view))

        def again(f: int) -> bool:
            k = t.kind[f]
            return k == K_SKIPALL or (two and k in (K_SKIP, K_REVERSE, K_DRAW, K_WILD_DRAW))

        def playable(f: int, rest: list[int], colour: int, rank: int) -> bool:
            if t.kind[f] == K_WILD_DRAW:
                return not any(t.color[c] == colour for c in rest)
            return t.wild[f] or t.color[f] == colour or (rank >= 0 and t.rank[f] == rank)

        def runs(cards: list[int], colour: int, rank: int) -> bool:
            for i, f in enumerate(cards):
                rest = cards[:i] + cards[i + 1 :]
                if f in cards[:i] or not playable(f, rest, colour, rank):
                    continue
                if not rest:
                    return True
                if not again(f):
                    continue
                if t.wild[f]:
                    if any(runs(rest, c, -1) for c in colours):
                        return True
                elif runs(rest, t.color[f], t.rank[f]):
                    return True
            return False

        top_rank = -1 if t.wild[view.top] else t.rank[view.top]
        for a in plays:
            f = a.card
            if a.extra or not again(f):
                continue
            rest = list(hand)
            rest.remove(f)
            if not playable(f, rest, view.color, top_rank):
                continue
            colour = a.color if t.wild[f] else t.color[f]
            if runs(rest, colour, -1 if t.wild[f] else t.rank[f]):
                same = [b for b in plays if b.card == f and not b.extra and b.color == a.color]
                return max(same, key=lambda b: b.uno)
        return None

    def _keep_value(self, view: View, t: Table) -> float:
        """Keeping the drawn card: as if it stayed in hand (one card more than playing)."""
        return -self.w.left * len(view.hand) - self.w.stuck

    def play_value(self, view: View, a: Action, t: Table) -> float:
        """The score of play ``a``: the position it leaves and what its effect is worth."""
        w = self.w
        rest = rest_after(view, a, t)
        left = cards_left(view, a, t, rest)
        if not rest:
            return 1e6  # goes out: wins the round (NM-END-1, FLIP-END-1)
        if t.sided:
            w = self.wf
        card = a.card
        k = t.kind[card]
        n_live = sum(view.live)
        me = view.seat
        nxt = next_live(view, me)
        mercy = view.rules.mercy_limit if t.mercy else 0
        v = -w.left * left + w.points * t.points[card]
        if t.color[card] == view.color:
            v += w.same_colour
        if mercy and len(view.hand) > 15:
            v -= w.mercy * (left - len(rest))  # a big hand: swaps and passes weigh more
        top = a.extra[-1] if a.extra else card
        colour = a.color if t.wild[top] else t.color[top]
        if (k in (K_SWAP, K_PASS) and left != len(rest)) or k == K_FLIP:
            follow = 1  # a new hand (a Flip: on a new top card): anyone's guess
        else:
            follow = sum(1 for c in rest if t.color[c] == colour or t.rank[c] == t.rank[top])
        v += w.follow * min(follow, 3) - (w.stuck if follow == 0 else 0.0)
        danger = min(view.hand_sizes[s] for s in range(view.n) if s != me and view.live[s])
        if t.wild[card] and len(rest) > 1 and danger > 2:
            v -= w.wild_hold
        if k == K_WILD_DRAW and t.bluffs:
            guilty = any(t.color[c] == view.color for c in view.hand)
            if guilty and view.hand_sizes[nxt] > w.bluff_near:
                v -= 3 * w.wild_hold  # a bluff only against a seat about to go out
        two = n_live == 2
        if k in (K_DRAW, K_WILD_DRAW):
            victim = nxt
            if card == NM_WR4 and two:  # NM-2P-WRD4: its own player is the target
                return v - w.draw * (4 + view.pending_total) * 1.5
            d = t.draws[card] + (view.pending_total if view.phase == P_ANSWER else 0)
            vs = view.hand_sizes[victim]
            hit = w.draw * d * (0.5 + urgency(vs))
            if t.stacks:
                hit *= 0.6  # the victim may answer the stack
                if mercy and vs + d >= mercy:
                    hit += w.knockout
                if view.phase == P_ANSWER:  # answering: keep the big cards for later
                    hit += w.left * 2 - t.draws[card] * (1.0 if urgency(vs) == 0 else -0.5)
            v += hit
            if two:
                v += w.again
        elif k == K_SKIP:
            v += w.skip * (0.5 + urgency(view.hand_sizes[nxt]))
            if two:
                v += w.again
        elif k == K_SKIPALL:
            v += w.again + w.skip * 0.3 * (n_live - 1)
        elif k == K_REVERSE:
            if two:
                v += w.again
            else:
                prv = prev_live(view, me)
                v += w.skip * (urgency(view.hand_sizes[nxt]) - urgency(view.hand_sizes[prv]))
        elif k == K_ROULETTE:
            v += w.draw * 3 * (0.5 + urgency(view.hand_sizes[nxt]))
            if two:
                v += w.again
        elif k == K_FLIP:
            v += w.flip * self._flip_gain(view, t, rest)
        return v

    def _face_worth(self, f: int, t: Table) -> float:
        """How much a Flip face helps the seat holding it (0 for a number)."""
        w = self.w
        k = t.kind[f]
        if k == K_WILD_DRAW:
            return w.q_wdraw
        if t.wild[f]:
            return w.q_wild
        if k == K_NUMBER:
            return 0.0
        dark = FACE_SIDE[f] != LIGHT and k in (K_DRAW, K_SKIPALL)
        return w.q_action + (w.q_dark if dark else 0.0)

    def _side_mean(self, side: int) -> float:
        """The mean ``_face_worth`` of a face of ``side`` (FLIP-DECK-1: of 112 faces, 32
        coloured actions, Flips included, 8 of them Draw Five and 8 Skip Everyone on the
        dark side, 4 Wild, 4 Wild Draw)."""
        w = self.w
        actions = 32 * w.q_action + (16 * w.q_dark if side != LIGHT else 0.0)
        return (actions + 4 * w.q_wild + 4 * w.q_wdraw) / 112

    def _flip_gain(self, view: View, t: Table, rest: Sequence[int]) -> float:
        """What a Flip is worth to this seat, in ``_face_worth`` units.

        After it this seat holds the other faces of its own cards, which it cannot see
        (FLIP-VIEW-1): an average hand of the other side, against the faces it holds
        now.  Each opponent holds the faces this seat sees now (FLIP-VIEW-2), against
        the average hand of the side up it holds now (unseen), weighted by its
        closeness to going out; an opponent left with one wild face would go out."""
        w = self.w
        side = modern_view(view).side
        now, then = self._side_mean(side), self._side_mean(1 - side)
        gain = w.flip_me * (len(rest) * then - sum(self._face_worth(f, t) for f in rest))
        for s, backs in enumerate(modern_view(view).others):
            if s == view.seat or not backs or not view.live[s]:
                continue
            n = len(backs)
            if n == 1 and t.wild[backs[0]]:
                gain -= w.flip_lose
            theirs = n * now - sum(self._face_worth(f, t) for f in backs)
            gain += (1 + w.flip_urg * urgency(n)) * theirs
        return gain


__all__ = [
    "ModernHeuristic",
    "ModernWeights",
    "Table",
    "catch_or_call",
    "greedy_modern",
    "table_of",
]
