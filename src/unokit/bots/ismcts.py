"""A searching bot: determinized Monte Carlo search over what it cannot see.

Each iteration imagines one complete deal consistent with everything this seat knows
(a *determinization*), picks a root action by UCB1, plays the rest of the round out
with a fast greedy policy, and credits the action with the result.  Sampling a fresh
world every iteration is what makes this Information Set MCTS at the root rather than
a search that peeks: the real hidden cards are never used.

What it knows, from its views and its seat's events (``observe``):

* **unseen cards** = the deck minus its own hand and the discard pile;
* **known cards**: a hand shown to it by a challenge, the hand it gave away in a swap
  or a seven-zero pass; forgotten when Wild Shuffle Hands deals anew, and spent as
  the owner plays them;
* **void colours**: a player who drew on their own turn with colour X in force held
  no X then; only the cards drawn since may be X.

The sampler deals known cards first, then fills each hand with unseen cards that
respect its voids as far as the counts allow, and the rest becomes the draw pile.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from unokit.cards import CARD_COLOR, WILD, WILD_DRAW4, build_deck
from unokit.engine.actions import ACCEPT, CATCH, PLAY, UNO, Action
from unokit.engine.game import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    Event,
    Game,
    shuffle,
)
from unokit.engine.view import View, world_from_view

_PENALTIES = {"catch", "false_uno", "launch", "hit", "challenge"}


class ISMCTSBot:
    """Determinized UCB search at the root with greedy rollouts."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float = 0.08,
        iterations: int | None = None,
        exploration: float = 0.7,
        prior_visits: int = 12,
        horizon: int = 10,
        margin: float = 1.0,
    ) -> None:
        from unokit.bots.heuristic import HeuristicBot  # the prior; imported late

        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.iterations = iterations
        self.c = exploration
        self.prior_visits = prior_visits
        self.horizon = horizon  # rollout plies before judging by hand sizes; 0: to the end
        self.margin = margin
        self.prior = HeuristicBot(seed=seed)
        self._reset()

    # ------------------------------------------------------------ memory -------
    def _reset(self) -> None:
        self.known: dict[int, Counter[int]] = {}
        self.voids: dict[int, dict[int, int]] = {}  # seat -> colour -> cards drawn since
        self.color = -1
        self.my_hand: list[int] = []
        self.seat = -1
        self.direction = 1
        self.n = 0
        self._last = ""

    def observe(self, events: Sequence[Event]) -> None:
        """Learn from this seat's events: reveals, swaps, who could not follow a colour."""
        for e in events:
            kind = e.kind
            prev, self._last = self._last, kind
            if kind == "round_start":
                self._reset()
            elif kind == "start_card" or kind == "retract":
                self.color = CARD_COLOR[e.cards[0]] if e.cards[0] < WILD else -1
                if kind == "retract":
                    self.color = e.color
            elif kind == "color":
                self.color = e.color
            elif kind == "play":
                self.color = e.color
                k = self.known.get(e.seat)
                if k:
                    for c in e.cards:
                        if k[c] > 0:
                            k[c] -= 1
            elif kind == "discard":
                k = self.known.get(e.seat)
                if k:
                    for c in e.cards:
                        if k[c] > 0:
                            k[c] -= 1
            elif kind == "reverse":
                self.direction = -self.direction
            elif kind == "draw" and e.only < 0:
                self._on_draw(e.seat, e.amount)
                if e.amount == 1 and prev not in _PENALTIES and self.color >= 0:
                    # a turn draw: they held no card of the colour in force (a player may
                    # draw anyway, so the sampler treats this as a preference)
                    self.voids.setdefault(e.seat, {})[self.color] = 1
            elif kind == "reveal" and e.cards is not None and e.only >= 0:
                self.known[e.seat] = Counter(e.cards)
            elif kind == "swap" and self.seat in (e.seat, e.target):
                other = e.target if e.seat == self.seat else e.seat
                self.known[other] = Counter(self.my_hand)
                self.voids.pop(other, None)
            elif kind == "rotate" and self.n:
                self.known = {}
                self.voids = {}
                nxt = (self.seat + e.amount) % self.n
                self.known[nxt] = Counter(self.my_hand)
            elif kind == "shuffle_hands":
                self.known = {}
                self.voids = {}
            elif kind == "hand" and e.seat == self.seat:
                self.my_hand = list(e.cards)

    def _on_draw(self, seat: int, amount: int) -> None:
        v = self.voids.get(seat)
        if v:
            for col in v:
                v[col] += amount

    def _remember(self, view: View) -> None:
        self.seat = view.seat
        self.n = view.n
        self.my_hand = list(view.hand)
        self.direction = view.direction
        if view.color >= 0:
            self.color = view.color

    # ------------------------------------------------------------ sampling -----
    def _sample(self, view: View) -> Game:
        """One world consistent with what this seat knows."""
        rng = self.rng
        unseen = Counter(_deck(view.rules.deck, view.rules.custom_cards))
        unseen.subtract(view.hand)
        unseen.subtract(view.discard)
        hands: list[list[int]] = [[] for _ in range(view.n)]
        hands[view.seat] = list(view.hand)
        need = list(view.hand_sizes)
        need[view.seat] = 0
        for s, cards in self.known.items():
            if s == view.seat or not view.live[s]:
                continue
            for c, k in cards.items():
                take = min(k, unseen[c], need[s])
                if take > 0:
                    hands[s].extend([c] * take)
                    unseen[c] -= take
                    need[s] -= take
        pool = list(unseen.elements())
        shuffle(rng, pool)
        # seats with voids first, filled with cards of other colours where possible
        for s, voids in self.voids.items():
            if s == view.seat or need[s] <= 0 or not view.live[s]:
                continue
            banned = {col for col, since in voids.items() if since < need[s]}
            if not banned:
                continue
            free = min(voids[col] for col in banned)
            keep: list[int] = []
            for c in pool:
                if need[s] > free and CARD_COLOR[c] not in banned:
                    hands[s].append(c)
                    need[s] -= 1
                else:
                    keep.append(c)
            pool = keep
        for s in range(view.n):
            if need[s] > 0:
                hands[s].extend(pool[-need[s] :])
                del pool[-need[s] :]
        return world_from_view(view, hands, pool, seed=rng.getrandbits(32))

    # ------------------------------------------------------------ deciding -----
    def react(self, view: View) -> Action | None:
        self._remember(view)
        for a in view.legal:
            if a.kind in (CATCH, UNO):
                return a
        return None

    def act(self, view: View) -> Action:
        """Search the sensible actions, starting from the heuristic bot's choice.

        The heuristic's pick gets ``prior_visits`` virtual visits at a win rate a little
        above the rest, so the search overrules it only when the samples say so.  A
        wild's colour is not searched: the heuristic's colour (or the colour held most)
        is used, which keeps the number of root actions small.
        """
        self._remember(view)
        prior = self.prior.act(view)
        legal = [a for a in view.legal if a.kind not in (CATCH, UNO)]
        # always call UNO: drop the forgetting twin of a calling play
        calling = {a._replace(uno=False) for a in legal if a.kind == PLAY and a.uno}
        legal = [a for a in legal if not (a.kind == PLAY and not a.uno and a in calling)]
        colour = _best_color(list(view.hand), self.rng)
        seen: set[tuple[int, ...]] = set()
        actions: list[Action] = []
        for a in legal:
            if a.kind == PLAY and a.cards[-1] >= WILD:
                want = prior.color if prior.kind == PLAY and prior.card == a.card else colour
                if a.color != want:
                    continue
            key = (a.kind, *a.cards, a.target, int(a.uno))
            if key not in seen:
                seen.add(key)
                actions.append(a)
        if prior in legal and prior not in actions:
            actions.append(prior)
        if len(actions) <= 1:
            return actions[0] if actions else prior
        return self._search(view, actions, prior)

    def _search(self, view: View, actions: list[Action], prior: Action) -> Action:
        """UCB1 over root actions, a fresh world each iteration; the prior wins ties.

        The heuristic's pick starts with virtual visits (for selection only) and stays
        the answer unless another action's measured win rate beats it by more than
        ``margin`` standard errors: a few hundred noisy rollouts should not overrule
        a good rule of thumb by chance.
        """
        seat = view.seat
        k = len(actions)
        wins = [0.0] * k
        visits = [0] * k
        p = actions.index(prior) if prior in actions else -1
        bonus_n = [0] * k
        bonus_w = [0.0] * k
        if p >= 0:
            bonus_n[p] = self.prior_visits
            bonus_w[p] = 0.6 * self.prior_visits
        deadline = time.perf_counter() + self.time_budget
        limit = self.iterations
        total = 0
        c = self.c
        while True:
            if limit is not None:
                if total >= limit:
                    break
            elif total % 8 == 0 and time.perf_counter() > deadline and total >= k:
                break
            if total < k:
                i = total
            else:
                log_t = math.log(total + self.prior_visits)
                i = max(
                    range(k),
                    key=lambda j: (
                        (wins[j] + bonus_w[j]) / (visits[j] + bonus_n[j])
                        + c * math.sqrt(log_t / (visits[j] + bonus_n[j]))
                    ),
                )
            world = self._sample(view)
            world.apply_trusted(seat, actions[i])
            wins[i] += rollout(world, seat, self.rng, self.horizon or 2000)
            visits[i] += 1
            total += 1
        means = [wins[j] / visits[j] if visits[j] else 0.0 for j in range(k)]
        best = max(range(k), key=lambda j: (means[j], visits[j]))
        if p < 0 or best == p:
            return actions[best]

        def var(j: int) -> float:
            m = means[j]
            return max(m * (1 - m), 0.05) / max(visits[j], 1)

        if means[best] - means[p] > self.margin * math.sqrt(var(best) + var(p)):
            return actions[best]
        return actions[p]


@lru_cache(maxsize=16)
def _deck(deck: str, custom_cards: int) -> tuple[int, ...]:
    return tuple(build_deck(deck, custom_cards))


def _best_color(hand: list[int], rng: random.Random) -> int:
    counts = [0, 0, 0, 0]
    for c in hand:
        col = CARD_COLOR[c]
        if col < 4:
            counts[col] += 1
    top = max(counts)
    return counts.index(top) if top else rng.randrange(4)


def rollout(g: Game, seat: int, rng: random.Random, max_steps: int = 2000) -> float:
    """Play the round out with a quick greedy policy; 1 if ``seat`` (or its team) wins."""
    fast = g._plain and not g.rules.multi_play
    steps = 0
    while g.phase < P_ROUND_OVER and steps < max_steps:
        steps += 1
        s = g.current
        phase = g.phase
        if fast and phase == P_PLAY:
            hand = g.hands[s]
            cards = g.playable_cards(s)
            if cards:
                plain = [c for c in cards if c < WILD]
                card = rng.choice(plain) if plain else rng.choice(cards)
                color = _best_color(hand, rng) if card >= WILD else -1
                g.play(s, card, color, len(hand) == 2)
            else:
                g.draw(s)
        elif fast and phase == P_DRAWN:
            card = g.drawn
            g.play(s, card, _best_color(g.hands[s], rng) if card >= WILD else -1,
                   len(g.hands[s]) == 2)  # fmt: skip
        elif phase == P_CHALLENGE:
            g.accept(s)
        elif fast and phase == P_START_COLOR:
            g.choose_color(s, _best_color(g.hands[s], rng))
        else:
            legal = [a for a in g.legal_actions(s) if a.kind not in (CATCH, UNO)]
            if phase == P_ANSWER:
                answers = [a for a in legal if a.kind == PLAY]
                legal = answers or [a for a in legal if a.kind == ACCEPT]
            plays = [a for a in legal if a.kind == PLAY and (a.uno or len(g.hands[s]) != 2)]
            choice = rng.choice(plays or legal)
            if choice.kind == PLAY and choice.card >= WILD and choice.card != WILD_DRAW4:
                choice = choice._replace(color=_best_color(g.hands[s], rng))
            g.apply_trusted(s, choice)
        if g.vulnerable >= 0:  # bots in a rollout always catch
            catcher = g.next_seat(g.vulnerable)
            g.catch(catcher, g.vulnerable)
    winner = g.round_winner
    if winner < 0:  # cut off: judge by who is closer to going out
        mine = len(g.hands[seat])
        best_other = min(
            (len(h) for s, h in enumerate(g.hands) if s != seat and g.live[s]), default=mine
        )
        return min(1.0, max(0.0, 0.5 + 0.08 * (best_other - mine)))
    if g.teams:
        return 1.0 if winner % 2 == seat % 2 else 0.0
    return 1.0 if winner == seat else 0.0


__all__ = ["ISMCTSBot", "rollout"]
