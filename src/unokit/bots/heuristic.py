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
  cards, a hand concentrated in few colours, wilds kept in reserve, a colour the next
  player probably lacks.  With two players a Skip, Reverse, Draw Two or Wild Draw Four
  gives another turn, so it searches its chains of such plays (a chain that empties
  the hand wins at once).  Draw Two, Skip and Wild Draw Four weigh more when the
  victim is close to going out; wilds are held unless needed, or an opponent is about
  to go out, or the hand is nearly empty.  A wild names the colour it holds most of,
  weighed with what the next player probably lacks.
* **Wild Draw Four.**  It challenges when the estimated chance of a bluff is above
  1/3 (a wrong challenge costs 2 more cards, a right one saves 4).  It bluffs a Wild
  Draw Four itself only when the next player is about to go out, and weighs the bluff
  by how often that opponent has challenged so far.
* **UNO.**  It always calls UNO and always catches a player who did not.

Variant rules (stacking, seven-zero, the 2018 wilds, multi-play, elimination) are
played legally with rough estimates; the weights were tuned on the classic rules.
UNO Flip! and No Mercy are played by ``bots/modern.py``'s ``ModernHeuristic``, from
the view alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from unokit.bots.base import BotBase
from unokit.bots.modern import MODERN_PLAY, ModernHeuristic
from unokit.cards import (
    CARD_COLOR,
    CARD_RANK,
    DRAW2,
    PLAYABLE_MASK,
    REVERSE,
    SKIP,
    TOP_RANKS,
    WILD,
    WILD_COLOR,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_SHUFFLE,
    WILD_SWAP,
    build_deck,
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
from unokit.engine.game import P_ANSWER, P_CHALLENGE, P_START_COLOR
from unokit.engine.view import View
from unokit.rules import RuleSet

_WIN = 1000.0  # value of emptying the hand
_NEVER = -1e9  # value of a play the bot will not make unless it must
_AGAIN_RANKS = (SKIP, REVERSE, DRAW2)

# (colour in force, discard length, top card, hand sizes, seat to play) after a decision
Snapshot = tuple[int, int, int, tuple[int, ...], int]


@dataclass(frozen=True)
class Weights:
    """The tuned constants (docs/bots.md says how they were chosen)."""

    card: float = 1.0  # each card in my hand
    follow: float = 0.0  # each of my cards in the colour I leave in force...
    follow_wild: float = 0.35  # ... when a wild named that colour
    follow_cap: int = 3  # ... counted up to this many
    conc: float = 2.0  # concentration of my hand's colours (sum of squared shares)
    deny: float = 0.6  # the next player probably lacks the colour I leave
    opp_card: float = 0.35  # each card the victim must draw
    wild_hold: float = 2.0  # each wild kept in hand (a sure play later)
    action_hold: float = 0.4  # each Skip/Reverse/Draw Two kept (two players)
    hurry_opp: int = 1  # stop holding wilds when an opponent has this many cards or fewer
    hurry_me: int = 3  # ... or when I have this many or fewer
    draw_cost: float = 0.6  # drawing instead of playing, beyond the card itself
    keep_drawn: bool = False  # may keep a playable drawn card
    challenge_at: float = 1 / 3  # challenge a W+4 when P(bluff) is above this
    prior_bluff: float = 0.5  # P(W+4 | holds the colour) / P(W+4 | does not)
    bluff_when: int = 2  # bluff a W+4 only when the victim has this many or fewer
    search_nodes: int = 400  # node budget of the chain search


# The weights ``ismcts:prior_many=true`` gives its prior with three or more live
# players, tuned on four-player tables against three default ``heuristic`` bots
# (benchmarks/research/tune_prior.py; docs/bots.md, eleventh pass): as a player of its own it
# won 27.1% [26.3, 27.9] of 12,000 such tables on deals not used to tune it.
MANY_WEIGHTS = Weights(follow=0.4, deny=1.2, wild_hold=3.0, prior_bluff=0.1)


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


def deck_colours(rules: RuleSet) -> tuple[int, ...]:
    """Cards of each colour in the rule set's deck, then the deck's size."""
    key = (rules.deck, rules.custom_cards)
    got = _DECKS.get(key)
    if got is None:
        counts = [0] * 5
        for c in build_deck(rules.deck, rules.custom_cards):
            counts[CARD_COLOR[c]] += 1
        got = _DECKS[key] = (*counts[:4], sum(counts))
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


def next_live(view: View, seat: int, steps: int = 1, direction: int = 0) -> int:
    """The seat ``steps`` places on (in ``direction``, default the view's), skipping
    eliminated seats, as the engine counts."""
    n = view.n
    d = direction or view.direction
    live = view.live
    for _ in range(steps):
        seat = (seat + d) % n
        for _ in range(n):
            if live[seat]:
                break
            seat = (seat + d) % n
    return seat


class HeuristicBot(BotBase):
    """Card tracking, opponent reading, chain search with two players, W+4 odds."""

    games = frozenset({"classic", "flip", "no-mercy"})  # each with its own play (bots/modern.py)

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)  # the bot is deterministic; kept for the protocol
        self._seed = seed
        self._modern: ModernHeuristic | None = None  # plays UNO Flip! and No Mercy
        self.w = weights or Weights()
        self._round = -1
        self._n = 0
        # lack[s][c]: belief (0..1) that seat s holds no card of colour c.
        self.lack: list[list[float]] = []
        # challenges[s] = [times s challenged my W+4, times s answered one].
        self.challenges: list[list[int]] = []
        self._after: Snapshot | None = None  # the table right after my last decision
        self._last: Snapshot | None = None  # the same, kept while deciding
        self._my_wd4: tuple[int, bool, tuple[int, ...]] | None = None
        self._unseen: list[int] = [0, 0, 0, 0]
        self._unseen_total = 0
        self._nodes = 0
        self._two = False  # two live players: action cards give another turn
        self._hurry = False

    # ------------------------------------------------------------------ protocol ---
    def react(self, view: View) -> Action | None:
        for a in view.legal:
            if a.kind in (CATCH, UNO):
                return a
        return None

    def act(self, view: View) -> Action:
        if view.rules.game in MODERN_PLAY:  # UNO Flip!, No Mercy: bots/modern.py
            if self._modern is None:
                self._modern = ModernHeuristic(self._seed)
            return self._modern.act(view)
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
        after = self._last = self._after
        self._after = None
        deck = deck_colours(view.rules)
        unseen = list(deck[:4])
        for c in view.hand:
            col = CARD_COLOR[c]
            if col != WILD_COLOR:
                unseen[col] -= 1
        for c in view.discard:
            col = CARD_COLOR[c]
            if col != WILD_COLOR:
                unseen[col] -= 1
        total = deck[4] - len(view.hand) - len(view.discard)
        self._unseen = unseen
        self._unseen_total = total
        live = [s for s in range(n) if view.live[s]]
        self._two = len(live) == 2 and view.rules.stacking == "off"
        sizes = view.hand_sizes
        me = view.seat
        if self._my_wd4 is not None:
            victim, guilty, before = self._my_wd4
            self._my_wd4 = None
            grew = sizes[victim] - before[victim]
            mine = sizes[me] - before[me]
            challenged = (guilty and mine >= 4) or (not guilty and grew >= 6)
            if challenged or grew >= 4:
                rec = self.challenges[victim]
                rec[1] += 1
                rec[0] += int(challenged)
        if after is None or len(live) != 2 or me not in live:
            return  # reading the opponent is done for two players only
        opp = live[0] if live[1] == me else live[1]
        colour, top_len, top, before_sizes, _ = after
        disc = view.discard
        if len(disc) < top_len or disc[top_len - 1] != top:
            return  # the pile was reshuffled (or cards went under the top): no reading
        new = disc[top_len:]
        lack = self.lack[opp]
        for c in new:
            if c in (WILD_SWAP, WILD_SHUFFLE) or (view.rules.seven_zero and CARD_RANK[c] in (0, 7)):
                for row in self.lack:
                    row[:] = [0.0] * 4
                return  # hands changed owners: what I knew is void
        plays = len(new)
        draws = sizes[opp] - before_sizes[opp] + plays
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
        if 0 <= seen < 4 and (draws == 1 or view.rules.draw_until_playable):
            lack[seen] = 1.0

    def _remember(self, view: View, action: Action) -> None:
        """What the table looks like right after ``action`` (for the next reading)."""
        self._after = None
        me = view.seat
        kind = action.kind
        if not view.discard:
            return
        nxt = next_live(view, me)
        if kind == PLAY:
            cards = (action.card, *action.extra)
            top = cards[-1]
            if top in (WILD_SWAP, WILD_SHUFFLE) or (
                view.rules.seven_zero and CARD_RANK[top] in (0, 7)
            ):
                for row in self.lack:
                    row[:] = [0.0] * 4
                return
            if top == WILD_DRAW4 and view.color >= 0 and view.phase != P_ANSWER:
                rest = list(view.hand)
                for c in cards:
                    rest.remove(c)
                guilty = any(CARD_COLOR[c] == view.color for c in rest)
                sizes = list(view.hand_sizes)
                sizes[me] -= len(cards)
                self._my_wd4 = (nxt, guilty, tuple(sizes))
            colour = action.color if top >= WILD else CARD_COLOR[top]
            self._after = (colour, len(view.discard) + len(cards), top, view.hand_sizes, nxt)
        elif kind in (DRAW, KEEP, ACCEPT, CHALLENGE):
            # A draw may reshuffle the pile; the check on the top card catches that.
            self._after = (view.color, len(view.discard), view.top, view.hand_sizes, nxt)

    # ------------------------------------------------------------------ deciding ---
    def _decide(self, view: View) -> Action:
        legal = view.legal
        turn = [a for a in legal if a.kind not in (CATCH, UNO)]
        if not turn:
            return legal[0]
        me = view.seat
        others = [s for i, s in enumerate(view.hand_sizes) if i != me and view.live[i]]
        self._hurry = (
            min(others, default=99) <= self.w.hurry_opp or len(view.hand) <= self.w.hurry_me
        )
        phase = view.phase
        if phase == P_START_COLOR:
            # the first player names the colour (and a swap target), then plays
            return max(turn, key=lambda a: self._start_choice(view, a))
        if phase == P_CHALLENGE:
            return self._answer_wd4(view, turn)
        plays = [a for a in turn if a.kind == PLAY]
        if phase == P_ANSWER and not plays:
            return self._answer_wd4(view, turn)
        if not plays:
            return next((a for a in turn if a.kind == DRAW), turn[0])
        return self._choose_play(view, plays, turn)

    def _start_choice(self, view: View, a: Action) -> float:
        if a.kind != COLOR:
            return _NEVER
        score = self._colour_score(view, view.hand, a.color, view.seat, True)
        if a.target >= 0:
            score -= self.w.card * view.hand_sizes[a.target]
        return score

    def _answer_wd4(self, view: View, turn: list[Action]) -> Action:
        challenge = next((a for a in turn if a.kind == CHALLENGE), None)
        if challenge is not None and self._p_bluff(view) > self.w.challenge_at:
            return challenge
        return next((a for a in turn if a.kind in (ACCEPT, DRAW)), turn[0])

    def _p_bluff(self, view: View, ratio: float | None = None) -> float:
        """P(the Wild Draw Four just played on me was a bluff).

        ``ratio`` is P(W+4 | holds the colour) / P(W+4 | does not); the weights'
        ``prior_bluff`` when None.
        """
        by = view.wd4_by
        disc = view.discard
        if by < 0 or len(disc) < 2:
            return 0.0
        under = disc[-2]
        if view.prev_color >= 0:
            prev = view.prev_color  # the view says which colour the W+4 replaced
        elif under < WILD:
            prev = CARD_COLOR[under]
        elif self._last is not None and self._last[1] == len(disc) - 1:
            prev = self._last[0]  # my own wild, right under the W+4
        else:
            prev = -1
        h = view.hand_sizes[by]
        total = self._unseen_total
        if prev < 0:  # the colour is unknown: average over the four
            holds = sum(1 - p_none(total, self._unseen[c], h) for c in range(4)) / 4
        else:
            holds = 1 - p_none(total, self._unseen[prev], h)
            holds *= 1 - self.lack[by][prev]
        b = self.w.prior_bluff if ratio is None else ratio
        denom = holds * b + (1 - holds)
        return holds * b / denom if denom > 0 else 0.0

    def _challenge_rate(self, seat: int) -> float:
        chal, answered = self.challenges[seat]
        return (chal + 1) / (answered + 2)

    # ------------------------------------------------------------------ evaluation -
    def _colour_score(
        self, view: View, hand: tuple[int, ...], colour: int, nxt: int, named: bool
    ) -> float:
        """How good it is to leave ``colour`` in force with ``hand``, ``nxt`` to play."""
        w = self.w
        mine = 0
        for c in hand:
            if CARD_COLOR[c] == colour:
                mine += 1
        f = w.follow + w.follow_wild if named else w.follow
        score = f * min(mine, w.follow_cap) + 0.01 * mine
        if nxt != view.seat and 0 <= colour < 4:
            h = view.hand_sizes[nxt]
            p0 = p_none(self._unseen_total, self._unseen[colour], h)
            p0 = 1 - (1 - p0) * (1 - self.lack[nxt][colour])
            score += w.deny * urgency(h) * p0
        return score

    def _end_value(
        self, view: View, hand: tuple[int, ...], colour: int, nxt: int, named: bool
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
        coloured = len(hand) - wilds
        if coloured:
            sq = (
                counts[0] * counts[0]
                + counts[1] * counts[1]
                + counts[2] * counts[2]
                + counts[3] * counts[3]
            )
            value += w.conc * sq / (coloured * coloured)
        if not self._hurry:
            value += w.wild_hold * wilds
        if self._two:
            value += w.action_hold * actions
        return value

    def _unknown_value(self, size: int) -> float:
        """A hand of ``size`` cards I have not seen (after a swap or a shuffle)."""
        return _WIN if size == 0 else -self.w.card * size + 0.5

    def _choose_play(self, view: View, plays: list[Action], turn: list[Action]) -> Action:
        self._nodes = 0
        best: Action | None = None
        best_v = -1e18
        seen: set[tuple[int, int, int, tuple[int, ...]]] = set()
        for a in plays:
            key = (a.card, a.color, a.target, a.extra)
            if key in seen:
                continue
            seen.add(key)
            v = self._root_value(view, a)
            if v > best_v:
                best_v = v
                best = a
        assert best is not None
        # Not playing: draw, keep the drawn card, or accept a hit.
        me = view.seat
        nxt = next_live(view, me)
        other: Action | None = None
        other_v = -1e18
        for a in turn:
            if a.kind == DRAW and view.phase != P_ANSWER:
                other = a
                base = self._end_value(view, view.hand, view.color, nxt, False)
                other_v = base - self.w.card - self.w.draw_cost
            elif a.kind == KEEP and (self.w.keep_drawn or best_v <= _NEVER):
                other = a
                other_v = self._end_value(view, view.hand, view.color, nxt, False)
            elif a.kind in (ACCEPT, DRAW) and view.phase == P_ANSWER:
                other = a
                base = self._end_value(view, view.hand, view.color, nxt, False)
                other_v = base - self.w.card * view.pending_total - self.w.draw_cost
        if other is not None and other_v > best_v:
            return other
        twin = best._replace(uno=True)  # always call UNO
        return twin if twin in view.legal else best

    def _root_value(self, view: View, a: Action) -> float:
        """Value of a legal play, with the effects that only the first play can have."""
        cards = (a.card, *a.extra)
        top = cards[-1]
        rules = view.rules
        rest_l = list(view.hand)
        for c in cards:
            rest_l.remove(c)
        if not rest_l:
            return _WIN
        me = view.seat
        sizes = view.hand_sizes
        if a.target >= 0:  # swap hands (Wild Swap Hands, a seven-zero 7)
            return self._unknown_value(sizes[a.target])
        if rules.seven_zero and top < WILD and CARD_RANK[top] == 0:
            return self._unknown_value(sizes[next_live(view, me, 1, -view.direction)])
        if top == WILD_SHUFFLE:
            live = sum(1 for s in range(view.n) if view.live[s])
            return self._unknown_value(round((sum(sizes) - len(cards)) / max(1, live)))
        if top == WILD_CUSTOM:
            return self._custom_value(view, tuple(rest_l), a.color)
        return self._play_value(view, view.hand, cards, a.color, view.color, 0)

    def _custom_value(self, view: View, rest: tuple[int, ...], colour: int) -> float:
        w = self.w
        me = view.seat
        nxt = next_live(view, me)
        rule = view.rules.custom_rule
        sizes = view.hand_sizes
        if rule == "discard_color":
            rest = tuple(c for c in rest if CARD_COLOR[c] != colour)
            return self._end_value(view, rest, colour, nxt, True)
        value = self._end_value(view, rest, colour, nxt, True)
        if rule == "extra_turn":
            return value + w.card  # about one more card shed
        if rule == "next_draws_3":
            return value + w.opp_card * 3 * urgency(sizes[nxt])
        if rule == "others_draw_2":
            return value + sum(
                w.opp_card * 2 * urgency(sizes[s])
                for s in range(view.n)
                if s != me and view.live[s]
            )
        if rule == "others_discard_wilds":
            return value + 0.5
        return value

    def _play_value(
        self,
        view: View,
        hand: tuple[int, ...],
        cards: tuple[int, ...],
        chosen: int,
        colour: int,
        depth: int,
    ) -> float:
        """Value of playing ``cards`` (the last on top; ``chosen`` names a wild's colour)."""
        self._nodes += 1
        w = self.w
        me = view.seat
        d = view.direction
        rest_l = list(hand)
        for c in cards:
            rest_l.remove(c)
        rest = tuple(rest_l)
        card = cards[-1]
        if not rest:
            return _WIN
        new_colour = chosen if card >= WILD else CARD_COLOR[card]
        rank = CARD_RANK[card]
        sizes = view.hand_sizes
        bonus = 0.0
        nxt = next_live(view, me)
        if rank == SKIP:
            victim = nxt
            nxt = me if self._two else next_live(view, me, 2)
            bonus += w.opp_card * urgency(sizes[victim])  # a lost turn ~ a card
        elif rank == REVERSE:
            if self._two:
                nxt = me
                bonus += w.opp_card * urgency(sizes[next_live(view, me)])
            else:
                nxt = next_live(view, me, 1, -d)
        elif rank == DRAW2:
            victim = nxt
            nxt = me if self._two else next_live(view, me, 2)
            bonus += w.opp_card * 3 * urgency(sizes[victim])
        elif card == WILD_DRAW4:
            victim = nxt
            nxt = me if self._two else next_live(view, me, 2)
            stacking = view.rules.stacking != "off"
            q = self._challenge_rate(victim) if view.rules.wd4_bluffing else 0.0
            u = urgency(sizes[victim])
            bluff = colour >= 0 and any(CARD_COLOR[c] == colour for c in rest)
            if bluff and not stacking:
                if sizes[victim] > w.bluff_when:
                    return _NEVER  # a bluff pays only to stop a player about to go out
                # challenged (q): I draw 4 and the victim plays on; else a legal W+4
                caught = self._end_value(view, rest, new_colour, victim, True) - 4 * w.card
                ok = self._chain_value(view, rest, new_colour, card, nxt, depth, True)
                return q * caught + (1 - q) * (ok + w.opp_card * 5 * u)
            bonus += w.opp_card * (5 + 2 * q) * u
        named = card >= WILD
        return bonus + self._chain_value(view, rest, new_colour, card, nxt, depth, named)

    def _chain_value(
        self,
        view: View,
        rest: tuple[int, ...],
        colour: int,
        top: int,
        nxt: int,
        depth: int,
        named: bool,
    ) -> float:
        """Value after a play: my turn ends, or (``nxt`` is me) I choose again."""
        me = view.seat
        if nxt != me:
            return self._end_value(view, rest, colour, nxt, named)
        # Two players and an again-card: play on (the best continuation) or draw.
        opp = next_live(view, me)
        stop = self._end_value(view, rest, colour, opp, named)
        best = stop - self.w.card - self.w.draw_cost
        if self._nodes > self.w.search_nodes or depth >= 6:
            return max(best, stop - 0.5)
        mask = PLAYABLE_MASK[colour * TOP_RANKS + CARD_RANK[top]] if colour >= 0 else 0
        no_wd4 = not view.rules.wd4_bluffing and any(CARD_COLOR[c] == colour for c in rest)
        tried: set[int] = set()
        for c in rest:
            if c in tried or not mask >> c & 1:
                continue
            tried.add(c)
            if (c == WILD_DRAW4 and no_wd4) or c in (WILD_SWAP, WILD_SHUFFLE, WILD_CUSTOM):
                continue  # special wilds are judged only as a first play
            if view.rules.seven_zero and CARD_RANK[c] in (0, 7):
                continue
            for col in range(4) if c >= WILD else (-1,):
                v = self._play_value(view, rest, (c,), col, colour, depth + 1)
                if v > best:
                    best = v
        return best
