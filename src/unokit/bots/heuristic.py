"""The heuristic bot: a tuned rule-based player that reasons only from its views.

What it knows comes from the view in hand and from the views it received before (it
keeps a small memory between calls, never anything else):

* **Card tracking.**  Every card not in its own hand and not in the discard pile is
  *unseen* (in the draw pile or an opponent's hand).  From the unseen counts per
  colour it estimates how likely an opponent with ``h`` cards holds none of a colour
  (hypergeometric).
* **Opponent reading (two players).**  Comparing the discard pile and the hand sizes
  with the view of its previous decision, it notices when the opponent drew on their
  own turn, and which colour was in force then: that opponent probably holds no card
  of that colour.  The belief fades as the opponent draws more cards.  It also counts
  how often each opponent challenged its Wild Draw Fours.
* **Choosing a play.**  Each legal play is scored by the position it leaves: fewer
  cards, cards of the colour left in force, a colour the next player probably lacks,
  wilds kept in reserve.  With two players a Skip, Reverse, Draw Two or Wild Draw Four
  gives another turn, so it searches its chains of such plays (a chain that empties
  the hand wins at once).  Draw Two, Skip and Wild Draw Four weigh more when the next
  player is close to going out; wilds are held unless needed, or an opponent is close
  to going out, or the hand is nearly empty.
* **Wild Draw Four.**  It challenges when the estimated chance of a bluff is above
  1/3 (a wrong challenge costs 2 more cards, a right one saves 4).  It bluffs a Wild
  Draw Four itself only when the next player is about to go out and that opponent has
  not been challenging much.
* **UNO.**  It always calls UNO and always catches a player who did not.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from unokit.cards import (
    CARD_COLOR,
    CARD_RANK,
    DRAW2,
    NUM_CARDS,
    PLAYABLE_MASK,
    REVERSE,
    SKIP,
    WILD,
    WILD_COLOR,
    WILD_DRAW4,
    build_deck,
)
from unokit.engine.actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    DRAW,
    KEEP,
    PLAY,
    UNO,
    Action,
)
from unokit.engine.game import P_CHALLENGE, P_DRAWN, P_START_COLOR
from unokit.engine.view import View
from unokit.rules import RuleSet

_TOP_RANKS = 18  # as in cards.PLAYABLE_MASK
_WIN = 1000.0  # value of emptying the hand
_AGAIN_RANKS = (SKIP, REVERSE, DRAW2)


@dataclass(frozen=True)
class Weights:
    """The tuned constants (see docs/bots.md for how they were chosen)."""

    card: float = 1.0  # each card in my hand
    follow: float = 0.35  # each of my cards in the colour I leave in force
    follow_cap: int = 3  # ... counted up to this many
    deny: float = 0.6  # the next player probably lacks the colour I leave
    opp_card: float = 0.35  # each card the next player must draw
    wild_hold: float = 0.8  # each wild kept in hand (a sure play later)
    action_hold: float = 0.15  # each Skip/Reverse/Draw Two kept (two players)
    draw_cost: float = 0.6  # drawing instead of playing, beyond the card itself
    challenge_at: float = 1 / 3  # challenge a W+4 when P(bluff) is above this
    prior_bluff: float = 0.5  # how much likelier a W+4 is without the colour in force
    bluff_when: int = 2  # bluff a W+4 only when the next player has this many or fewer
    search_nodes: int = 400  # node budget of the chain search
    high: float = 0.0  # per rank point of number cards kept (shed high numbers first)
    keep_drawn: bool = True  # may keep a playable drawn card
    follow_wild: float = 0.0  # extra follow weight for the colour a wild names
    conc: float = 0.0  # sum of squared colour counts (a concentrated hand)


def urgency(cards: int) -> float:
    """How much it matters to hold back a player with ``cards`` cards."""
    if cards <= 1:
        return 4.0
    if cards == 2:
        return 2.5
    if cards == 3:
        return 1.6
    return 1.0


_DECKS: dict[tuple[str, int], tuple[int, ...]] = {}


def deck_counts(rules: RuleSet) -> tuple[int, ...]:
    """How many of each card kind the rule set's deck holds."""
    key = (rules.deck, rules.custom_cards)
    got = _DECKS.get(key)
    if got is None:
        counts = [0] * NUM_CARDS
        for c in build_deck(rules.deck, rules.custom_cards):
            counts[c] += 1
        got = _DECKS[key] = tuple(counts)
    return got


def p_none(unseen: int, of_colour: int, h: int) -> float:
    """P(a hand of ``h`` cards drawn from ``unseen`` cards has none of ``of_colour``)."""
    p = 1.0
    rest = unseen - of_colour
    for i in range(h):
        if rest - i <= 0 or unseen - i <= 0:
            return 0.0
        p *= (rest - i) / (unseen - i)
    return p


class HeuristicBot:
    """Card tracking, opponent reading, chain search with two players, W+4 odds."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)
        self.w = weights or Weights()
        self._round = -1
        self._n = 0
        # lack[s][c]: belief that seat s holds no card of colour c.
        self.lack: list[list[float]] = []
        # challenges[s] = (times s challenged my W+4, times s answered one).
        self.challenges: list[list[int]] = []
        # What I left behind after my last decision (for the next comparison).
        self._after: tuple[int, int, int, tuple[int, ...], int] | None = None
        self._my_wd4: tuple[int, bool, tuple[int, ...]] | None = None
        self._unseen: list[int] = [0, 0, 0, 0]
        self._unseen_total = 0
        self._nodes = 0

    # ------------------------------------------------------------------ protocol ---
    def react(self, view: View) -> Action | None:
        for a in view.legal:
            if a.kind in (CATCH, UNO):
                return a
        return None

    def act(self, view: View) -> Action:
        self._observe(view)
        action = self._decide(view)
        self._remember(view, action)
        return action

    # ------------------------------------------------------------------ memory -----
    def _observe(self, view: View) -> None:
        """Update beliefs from what changed since the previous decision."""
        n = view.n
        if view.round_index != self._round or n != self._n:
            self._round = view.round_index
            self._n = n
            self.lack = [[0.0] * 4 for _ in range(n)]
            if len(self.challenges) != n:
                self.challenges = [[0, 0] for _ in range(n)]
            self._after = None
            self._my_wd4 = None
        counts = list(deck_counts(view.rules))
        for c in view.hand:
            counts[c] -= 1
        for c in view.discard:
            counts[c] -= 1
        unseen = [0, 0, 0, 0]
        total = 0
        for c in range(NUM_CARDS):
            k = counts[c]
            if k > 0:
                total += k
                col = CARD_COLOR[c]
                if col != WILD_COLOR:
                    unseen[col] += k
        self._unseen = unseen
        self._unseen_total = total
        sizes = view.hand_sizes
        me = view.seat
        if self._my_wd4 is not None:
            victim, guilty, before = self._my_wd4
            self._my_wd4 = None
            grew = sizes[victim] - before[victim]
            mine = sizes[me] - before[me]
            challenged = (guilty and mine >= 4) or (not guilty and grew >= 6)
            answered = challenged or grew >= 4
            if answered:
                rec = self.challenges[victim]
                rec[1] += 1
                rec[0] += int(challenged)
        if self._after is None or n != 2:
            self._after = None
            return
        colour, top_len, top, before_sizes, opp = self._after
        self._after = None
        disc = view.discard
        if len(disc) < top_len or disc[top_len - 1] != top:
            return  # the pile was reshuffled in between: no reading
        new = disc[top_len:]
        plays = len(new)
        draws = sizes[opp] - before_sizes[opp] + plays
        lack = self.lack[opp]
        if draws <= 0:
            return
        if plays == 0 or CARD_RANK[new[-1]] in _AGAIN_RANKS:
            # drew (and kept) at the end of their turn, with the colour now in force
            seen = view.color
        elif plays == 1:
            seen = colour  # drew first, then played the drawn card
        else:
            prev = new[-2]
            seen = CARD_COLOR[prev] if prev < WILD else -1
        fade = 0.75 ** max(0, draws - 1)
        for c in range(4):
            lack[c] *= fade
        if seen >= 0 and (draws == 1 or view.rules.draw_until_playable):
            lack[seen] = 1.0

    def _remember(self, view: View, action: Action) -> None:
        """What the table looks like right after ``action`` (for the next reading)."""
        self._after = None
        me = view.seat
        n = view.n
        kind = action.kind
        if kind == PLAY and action.card == WILD_DRAW4 and view.color >= 0:
            victim = (me + view.direction) % n
            guilty = any(CARD_COLOR[c] == view.color for c in view.hand)
            sizes = list(view.hand_sizes)
            sizes[me] -= 1
            self._my_wd4 = (victim, guilty, tuple(sizes))
        if n != 2:
            return
        opp = 1 - me
        if kind == PLAY:
            card = action.card
            if CARD_RANK[card] in _AGAIN_RANKS or card == WILD_DRAW4:
                return  # the turn comes back to me: nothing to read
            colour = action.color if card >= WILD else CARD_COLOR[card]
            disc_len = len(view.discard) + 1
            self._after = (colour, disc_len, card, view.hand_sizes, opp)
        elif kind in (DRAW, KEEP) and view.phase != P_CHALLENGE:
            # A draw may reshuffle the pile; the check on the top card catches that.
            if view.discard:
                self._after = (view.color, len(view.discard), view.top, view.hand_sizes, opp)

    # ------------------------------------------------------------------ deciding ---
    def _decide(self, view: View) -> Action:
        legal = view.legal
        turn = [a for a in legal if a.kind not in (CATCH, UNO)]
        if not turn:
            return legal[0]
        phase = view.phase
        if phase == P_START_COLOR:
            nxt = view.current  # the first player names the colour, then plays
            best = max(range(4), key=lambda c: self._colour_score(view, view.hand, c, nxt))
            return next((a for a in turn if a.color == best), turn[0])
        if phase == P_CHALLENGE:
            want = CHALLENGE if self._p_bluff(view) > self.w.challenge_at else ACCEPT
            return next((a for a in turn if a.kind == want), turn[0])
        plays = [a for a in turn if a.kind == PLAY]
        if not plays:
            return turn[0]  # draw (or keep)
        return self._choose_play(view, plays, turn, phase == P_DRAWN)

    def _p_bluff(self, view: View) -> float:
        """P(the Wild Draw Four just played on me was a bluff)."""
        by = view.wd4_by
        disc = view.discard
        if by < 0 or len(disc) < 2:
            return 0.0
        under = disc[-2]
        if under < WILD:
            prev = CARD_COLOR[under]
        elif self._after is not None and self._after[1] == len(disc) - 1:
            prev = self._after[0]  # my own wild, right under the W+4
        else:
            prev = -1
        h = view.hand_sizes[by]
        if prev < 0:
            # colour unknown: average over the colours
            holds = sum(1 - p_none(self._unseen_total, self._unseen[c], h) for c in range(4)) / 4
            known_lack = 0.0
        else:
            holds = 1 - p_none(self._unseen_total, self._unseen[prev], h)
            known_lack = self.lack[by][prev] if by < len(self.lack) else 0.0
        holds *= 1 - known_lack
        b = self.w.prior_bluff
        denom = holds * b + (1 - holds)
        return holds * b / denom if denom > 0 else 0.0

    def _challenge_rate(self, seat: int) -> float:
        chal, answered = self.challenges[seat] if seat < len(self.challenges) else (0, 0)
        return (chal + 1) / (answered + 2)

    # ------------------------------------------------------------------ evaluation -
    def _colour_score(
        self, view: View, hand: tuple[int, ...], colour: int, nxt: int, named: bool = True
    ) -> float:
        """How good it is to leave ``colour`` in force with ``hand``, ``nxt`` to play."""
        w = self.w
        mine = 0
        for c in hand:
            if CARD_COLOR[c] == colour:
                mine += 1
        f = w.follow + w.follow_wild if named else w.follow
        score = f * min(mine, w.follow_cap) + 0.01 * mine
        if nxt != view.seat:
            h = view.hand_sizes[nxt]
            p0 = p_none(self._unseen_total, self._unseen[colour], h)
            if nxt < len(self.lack):
                lk = self.lack[nxt][colour]
                p0 = 1 - (1 - p0) * (1 - lk)
            score += w.deny * urgency(h) * p0
        return score

    def _end_value(
        self,
        view: View,
        hand: tuple[int, ...],
        colour: int,
        nxt: int,
        hurry: bool,
        named: bool = False,
    ) -> float:
        """The position when my turn ends with ``hand`` and ``colour`` in force."""
        w = self.w
        if not hand:
            return _WIN
        wilds = 0
        actions = 0
        counts = [0, 0, 0, 0, 0]
        for c in hand:
            counts[CARD_COLOR[c]] += 1
            if c >= WILD:
                wilds += 1
            elif CARD_RANK[c] >= SKIP:
                actions += 1
        value = -w.card * len(hand) + self._colour_score(view, hand, colour, nxt, named)
        if w.conc:
            value += w.conc * (
                counts[0] * counts[0]
                + counts[1] * counts[1]
                + counts[2] * counts[2]
                + counts[3] * counts[3]
            )
        if w.high:
            value -= w.high * sum(CARD_RANK[c] for c in hand if CARD_RANK[c] <= 9)
        if not hurry:
            value += w.wild_hold * wilds
        if view.n == 2:
            value += w.action_hold * actions
        return value

    def _choose_play(
        self, view: View, plays: list[Action], turn: list[Action], drawn: bool
    ) -> Action:
        me = view.seat
        n = view.n
        sizes = view.hand_sizes
        hurry = min(s for i, s in enumerate(sizes) if i != me) <= 2 or len(view.hand) <= 3
        self._nodes = 0
        best: Action | None = None
        best_v = -1e18
        seen: set[tuple[int, int]] = set()
        for a in plays:
            key = (a.card, a.color)
            if key in seen:
                continue
            seen.add(key)
            v = self._play_value(view, view.hand, a.card, a.color, view.color, view.top, hurry, 0)
            if v > best_v:
                best_v = v
                best = a
        # Not playing: draw (on the turn) or keep the drawn card.
        other = next((a for a in turn if a.kind in (DRAW, KEEP)), None)
        if other is not None and (self.w.keep_drawn or not drawn):
            nxt = (me + view.direction) % n
            if drawn:
                v = self._end_value(view, view.hand, view.color, nxt, hurry)
            else:
                v = (
                    self._end_value(view, view.hand, view.color, nxt, hurry)
                    - self.w.card
                    - self.w.draw_cost
                )
            if best is None or v > best_v:
                return other
        assert best is not None
        if len(view.hand) == 2:  # always call UNO
            calling = best._replace(uno=True)
            if calling in plays:
                return calling
        return best

    def _play_value(
        self,
        view: View,
        hand: tuple[int, ...],
        card: int,
        chosen: int,
        colour: int,
        top: int,
        hurry: bool,
        depth: int,
    ) -> float:
        """Value of playing ``card`` (naming ``chosen`` if wild) from ``hand``."""
        self._nodes += 1
        w = self.w
        me = view.seat
        n = view.n
        d = view.direction
        rest_l = list(hand)
        rest_l.remove(card)
        rest = tuple(rest_l)
        new_colour = chosen if card >= WILD else CARD_COLOR[card]
        rank = CARD_RANK[card]
        if not rest:
            return _WIN
        bonus = 0.0
        bluff = False
        if card == WILD_DRAW4:
            bluff = colour >= 0 and any(CARD_COLOR[c] == colour for c in rest)
        # Who plays next, and what it costs them.
        if rank == SKIP:
            victim = (me + d) % n
            nxt = (me + 2 * d) % n
            bonus += w.opp_card * urgency(view.hand_sizes[victim])  # a lost turn ~ a card
        elif rank == REVERSE:
            nxt = me if n == 2 else (me - d) % n
            if n == 2:
                bonus += w.opp_card * urgency(view.hand_sizes[1 - me])
        elif rank == DRAW2:
            victim = (me + d) % n
            nxt = (me + 2 * d) % n
            bonus += w.opp_card * 3 * urgency(view.hand_sizes[victim])
        elif card == WILD_DRAW4:
            victim = (me + d) % n
            nxt = (me + 2 * d) % n
            q = self._challenge_rate(victim) if view.rules.wd4_bluffing else 0.0
            u = urgency(view.hand_sizes[victim])
            if bluff:
                if view.hand_sizes[victim] > w.bluff_when:
                    return -1e9  # a bluff pays only to stop a player about to go out
                # challenged (q): I draw 4 and the victim plays on; else as a legal W+4
                after = self._end_value(view, rest, new_colour, victim, hurry, True) - 4 * w.card
                ok = self._chain_value(view, rest, new_colour, card, nxt, hurry, depth, True)
                return q * after + (1 - q) * (ok + w.opp_card * 5 * u)
            bonus += w.opp_card * (5 + 2 * q) * u
        else:
            nxt = (me + d) % n
        named = card >= WILD
        return bonus + self._chain_value(view, rest, new_colour, card, nxt, hurry, depth, named)

    def _chain_value(
        self,
        view: View,
        rest: tuple[int, ...],
        colour: int,
        top: int,
        nxt: int,
        hurry: bool,
        depth: int,
        named: bool,
    ) -> float:
        """Value after a play: my turn ends, or (``nxt`` is me) I choose again."""
        me = view.seat
        if nxt != me:
            return self._end_value(view, rest, colour, nxt, hurry, named)
        # Two players, an again-card: play on (best continuation) or draw.
        opp = 1 - me
        best = self._end_value(view, rest, colour, opp, hurry) - self.w.card - self.w.draw_cost
        if self._nodes > self.w.search_nodes or depth >= 6:
            return max(best, self._end_value(view, rest, colour, opp, hurry) - 0.5)
        mask = PLAYABLE_MASK[colour * _TOP_RANKS + CARD_RANK[top]]
        no_wd4 = not view.rules.wd4_bluffing and any(CARD_COLOR[c] == colour for c in rest)
        tried: set[int] = set()
        for c in rest:
            if c in tried or not mask >> c & 1:
                continue
            tried.add(c)
            if c == WILD_DRAW4 and no_wd4:
                continue
            if c >= WILD:
                for col in range(4):
                    v = self._play_value(view, rest, c, col, colour, top, hurry, depth + 1)
                    if v > best:
                        best = v
            else:
                v = self._play_value(view, rest, c, -1, colour, top, hurry, depth + 1)
                if v > best:
                    best = v
        return best
