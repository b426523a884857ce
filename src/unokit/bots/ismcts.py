"""A searching bot: determinized Monte Carlo search over what it cannot see.

Each iteration imagines one complete deal consistent with everything this seat knows
(a *determinization*) and plays every candidate root action in a copy of it, each
followed by a rollout to the end of the round with the same random numbers (common
random numbers).  Actions are compared by their paired differences against the
heuristic bot's choice, which stays the answer unless another action is better by
``margin`` standard errors: rollout-based improvement of a good base policy.
Sampling a fresh world every iteration is what makes this Information Set MCTS at
the root rather than a search that peeks: the real hidden cards are never used.

The rollouts play a fast rule-based policy (``_smart_play``: hold wilds, follow the
colour held most, hit a player close to going out) on the sampled ``Game``.  The
older search (independent UCB1 samples, greedy-random rollouts cut at a horizon) is
kept behind ``paired=False``, ``policy=0``, ``horizon=10``; docs/bots.md has the
measurements that chose the defaults.

What it knows, from its views and its seat's events (``observe``):

* **unseen cards** = the deck minus its own hand and the discard pile;
* **known cards**: a hand shown to it by a challenge, the hand it gave away in a swap
  or a seven-zero pass; forgotten when Wild Shuffle Hands deals anew, and spent as
  the owner plays them;
* **void colours**: a player who drew on their own turn with colour X in force held
  no X then; only the cards drawn since may be X.  Likewise (``wild_voids``) a player
  who played a wild with X in force from a hand of 4 or more, nobody else being down
  to 1 card: sensible players hold wilds for last, so they probably held no X.

The sampler deals known cards first, then fills each hand with unseen cards that
respect its voids as far as the counts allow, and the rest becomes the draw pile.

**Budget.** ``iterations`` counts rollouts; without it the search runs for
``time_budget`` seconds of this thread's CPU time (``time.thread_time``), not of the
wall clock, so a busy machine does not make the bot weaker.  The budget is a mean:
each decision credits it to a time bank and pays what it spent, so forced decisions
and searches that settle early (``settle``) leave their time to the close ones (at
most ``bank`` budgets for one decision).  ``rollouts``, ``searches``, ``settled`` and
``cpu`` count what the bot did (``stats()``: rollouts and CPU ms per decision).

**Compiled rollouts.** With numba installed (``unokit[fast]``) the rollouts of a
sampled world run in the compiled engine (``unokit.compiled.kernel.search_world``:
the same rule-based policy, common random numbers, every root action in its own copy)
whenever the rules are on its plain classic path (``compiled.rollouts_cover``);
``compiled=False`` keeps them in Python.  With compiled rollouts the worlds are
sampled in compiled code too (``unokit.compiled.search``; ``fast_sample=False``
samples them in Python as before), which buys several times the worlds per budget.
``policy=2`` plays compiled rollouts whose players score plays like the heuristic bot.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from unokit.bots.modern import MODERN_PLAY, catch_or_call
from unokit.bots.modern_search import ModernSearch
from unokit.cards import (
    CARD_COLOR,
    CARD_RANK,
    DRAW2,
    REVERSE,
    SKIP,
    WILD,
    WILD_COLOR,
    WILD_DRAW4,
    build_deck,
)
from unokit.engine.actions import ACCEPT, CATCH, CHALLENGE, DRAW, PLAY, UNO, Action
from unokit.engine.events import (
    Challenge,
    Color,
    Deal,
    Discard,
    Draw,
    EventKind,
    Hand,
    Play,
    Reshuffle,
    Retract,
    Reveal,
    Reverse,
    Rotate,
    RoundStart,
    ShuffleHands,
    StartCard,
    Swap,
)
from unokit.engine.game import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_PLAY,
    P_START_COLOR,
    ClassicGame,
    Event,
    shuffle,
    world_from_view,
)
from unokit.engine.state import seat_to_ask
from unokit.engine.view import View
from unokit.rules import RuleSet

# Weights of ``search.hand_features`` (Skip/Reverse/Draw Two cards, holds the colour in
# force, holds the top's rank in another colour, cards of the colour in force, wilds):
# fitted by ``benchmarks/research/ismcts_tilt.py --players 2`` on heuristic games (docs/bots.md,
# fifth pass).
TILT = (-0.434, -0.538, -0.055, -0.02, -0.224)
# the same with three or more live players (``tilt_many``, off by default), one row
# per seat relative to the bot in the direction of play: the next seat, the seats in
# between, the seat just before (``benchmarks/research/ismcts_tilt.py --players 4``, docs/bots.md,
# sixth pass)
TILT_MANY = (
    (-0.291, -0.285, 0.018, 0.097, -0.082),
    (-0.325, -0.287, 0.025, 0.085, -0.113),
    (-0.273, -0.509, -0.0, -0.033, -0.102),
)

RANK_VOID = 5  # a void's key for a rank: RANK_VOID + rank (colours are 0-4)


def _banned(card: int, banned: set[int]) -> bool:
    """Whether a void in ``banned`` (colours, and ``RANK_VOID`` + ranks) excludes ``card``."""
    if CARD_COLOR[card] in banned:
        return True
    return card < WILD and RANK_VOID + CARD_RANK[card] in banned


# events after which a draw is a penalty, not a turn draw (no void to read from it)
_PENALTIES = frozenset(
    {EventKind.CATCH, EventKind.FALSE_UNO, EventKind.LAUNCH, EventKind.HIT, EventKind.CHALLENGE}
)


class ISMCTSBot:
    """Determinized root search: paired rollouts that may overrule the heuristic.

    ``iterations`` counts rollouts (worlds x candidate actions); without it the
    search runs for ``time_budget`` seconds of CPU time.  ``exploration`` and ``prior_visits``
    only serve the unpaired UCB search (``paired=False``).
    """

    games = frozenset({"classic", "flip", "no-mercy"})  # each with its own play (bots/modern.py)

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float = 0.06,
        iterations: int | None = None,
        exploration: float = 0.7,
        prior_visits: int = 12,
        horizon: int = 0,
        margin: float = 1.5,
        margin_many: float | None = None,
        paired: bool = True,
        policy: int = 2,
        collapse: bool = False,
        judge: int = 0,
        colors: bool = False,
        compiled: bool | None = None,
        fast_sample: bool = True,
        wild_voids: bool = True,
        bank: float = 3.0,
        settle: float = 2.0,
        bluff_far: float | None = None,
        infer: float = 0.0,
        infer_floor: float = 0.25,
        rollout_challenges: int = 0,
        sure_voids: bool = True,
        tilt: bool = True,
        tilt_many: bool = False,
        layered_voids: bool = False,
        named: float = 0.0,
        prior_many: bool = True,
        learned: bool = False,
        keep: float = 0.0,
    ) -> None:
        from unokit.bots.heuristic import MANY_WEIGHTS, HeuristicBot, Weights  # imported late

        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.iterations = iterations
        self.c = exploration
        self.prior_visits = prior_visits
        self.horizon = horizon  # rollout plies before judging by hand sizes; 0: to the end
        self.margin = margin
        # the margin with three or more live players; None: ``margin``
        self.margin_many = margin_many
        self._margin = margin  # this decision's, set by _act
        self._live = 2  # this decision's live players, set by _act
        self.paired = paired
        self.policy = policy  # rollouts: 0 greedy-random, 1 rule-based, 2 heuristic-scored
        self.collapse = collapse  # search one number card per colour
        self.colors = colors  # search every colour a wild may name, not just one
        self.judge = judge  # cut-off rollouts: 0 linear in cards, 1 calibrated
        self.prior = HeuristicBot(seed=seed)
        # the prior's weights with three or more live players: ``MANY_WEIGHTS``, tuned
        # on four-player tables against ``heuristic`` (docs/bots.md, eleventh pass; the
        # default since the twelfth), or with ``prior_many=False`` the heuristic's own
        # (tuned on two-player games); the readings of other players' plays keep the
        # heuristic's weights
        self._w_two = Weights()
        self._w_many = MANY_WEIGHTS if prior_many else self._w_two
        self.compiled = compiled  # None: when numba is installed and the rules allow
        self.fast_sample = fast_sample  # with compiled rollouts, sample worlds there too
        self.wild_voids = wild_voids  # a wild played while holding wilds pays: a void
        self.bank_cap = bank  # a decision may spend up to this many budgets of banked time
        self.settle = settle  # stop a search once every rival trails by this many se
        # P(W+4 | holds the colour) / P(W+4 | not) when the victim is not about to go
        # out, unless that player was caught bluffing such a victim (``bluffers``);
        # None: the heuristic's answer (the default: see docs/bots.md, fourth pass)
        self.bluff_far = bluff_far
        self.infer = infer  # softmax temperature of the opponent model; 0 (default): none
        self.infer_floor = infer_floor  # the least weight a dealt world keeps
        # policy 2: 1 (True), a rollout W+4 is challenged when it is a bluff; 2, by
        # the heuristic's own rule (search.heur_challenges); 0 (default): never
        self.rollout_challenges = rollout_challenges
        # read voids as a sensible player leaves them (issue 16, fifth pass): a turn
        # draw leaves no card of the colour in force, no wild and no card of the top's
        # rank in the hand (a playable drawn card is played at once), and a W+4
        # against a hand of more than ``bluff_when`` cards is no bluff (with
        # ``wild_voids``); False: the fourth pass's reading
        self.sure_voids = sure_voids
        # policy 2, two live players: weigh each sampled world by exp(TILT . the
        # opponent's hand features), so that the worlds look like sensible players'
        # hands; with more live players only with ``tilt_many``, by ``TILT_MANY``
        # (fitted on four-player games, a row per relative seat; measured no better
        # there, docs/bots.md, sixth pass)
        self.tilt = tilt
        self.tilt_many = tilt_many
        # bar each void only from the cards drawn before it (``_sample``), so that
        # every real hand can be dealt; measured weaker (docs/bots.md, sixth pass), so
        # by default every void is barred from all but the fewest cards drawn since any
        self.layered_voids = layered_voids
        # policy 2: weigh each world by exp(named * the cards of the colour an opponent
        # named with its last play, a wild, until it draws): sensible players name
        # the colour they hold most (docs/bots.md, seventh pass); 0: not weighed
        self.named_w = named
        # the base policy the search may overrule: the heuristic's choice (it stays the
        # answer unless beaten by ``margin`` standard errors), or with ``learned`` the
        # PPO policy's most likely action (issue 50's moonshot: a learned prior); then
        # ``keep`` > 0 searches only the actions the policy gives at least ``keep``
        # times the probability of its favourite (the base is always searched)
        self.learned = learned
        self.keep = keep
        self._learned: Any = None
        self.bluffers: set[int] = set()  # kept for the whole game, across rounds
        self._bank = 0.0  # CPU seconds credited to decisions and not yet spent
        self._allow = time_budget  # this decision's CPU allowance, set by act()
        self.cpu = 0.0  # CPU seconds spent in act(), over every decision
        self.rollouts = 0  # rollouts played, over every decision
        self.searches = 0  # decisions searched (more than one sensible action)
        self.settled = 0  # searches stopped early by ``settle``
        self.weighted = 0  # searches whose worlds were weighed by an opponent's play
        self.ess = 0.0  # over those: the effective share of worlds, summed
        self.decisions = 0  # act() calls
        self.jit = 0.0  # CPU seconds spent compiling (or loading) the search, not counted
        self._jit_now = 0.0
        self._seed = seed
        self._kind: bool | None = None  # played by bots/modern.py? from the first view
        self._early: list[Event] = []  # events before that view
        self._modern: ModernSearch | None = None
        self._rules_key: Any = None
        self._rules_arr: Any = None
        self._reset()

    def cold(self, rules: RuleSet) -> bool:
        """Whether this bot's first search under ``rules`` would compile its search.

        On a machine whose numba cache is cold that takes a minute or more of CPU, and a
        front end that asks a bot for a move on its event loop would freeze meanwhile;
        it calls ``warm_up`` in a background thread first (``unokit play`` does).
        """
        if self.compiled is False or self.policy not in (1, 2) or self.policy in _WARM:
            return False
        from unokit import compiled as fast

        return fast.rollouts_cover(rules) and fast.available()

    def warm_up(self, rules: RuleSet, players: int) -> None:
        """Compile (or load from numba's cache) the compiled search before the first move.

        A throwaway round of one-rollout probes, stopped as soon as one of them has
        searched: the compiled functions depend on the rollout policy only.
        """
        from unokit.match import Match, Timing

        if not self.cold(rules):
            return
        probes = [ISMCTSBot(seed=i, iterations=1, policy=self.policy) for i in range(players)]
        game = ClassicGame(rules, [f"P{i}" for i in range(players)], seed=0, events=False)
        match = Match(game, probes, timing=Timing.instant())
        for _ in range(10_000):
            if self.policy in _WARM or game.round_over or not match.bot_step():
                return

    def stats(self) -> dict[str, float]:
        """Rollouts per decision and per searched decision, for tournaments' reports."""
        return {
            "decisions": self.decisions,
            "searches": self.searches,
            "settled": self.settled,
            "weighted": self.weighted,
            "ess_share": self.ess / self.weighted if self.weighted else 0.0,
            "rollouts": self.rollouts,
            "rollouts_per_decision": self.rollouts / self.decisions if self.decisions else 0.0,
            "rollouts_per_search": self.rollouts / self.searches if self.searches else 0.0,
            "cpu_ms_per_decision": 1000 * self.cpu / self.decisions if self.decisions else 0.0,
            "jit_s": self.jit,
        }

    def _compiled_rules(self, view: View) -> Any:
        """The kernel's rules array for compiled rollouts, or None to roll out in Python."""
        if self.compiled is False or self.policy not in (1, 2):
            return None
        key = (view.rules, view.n)
        if key == self._rules_key:
            return self._rules_arr
        arr = None
        from unokit import compiled as fast

        if fast.rollouts_cover(view.rules) and fast.available():
            arr = fast.rules_array(view.rules, view.n, rounds_only=True, reactive=False)
        elif self.compiled:
            raise ValueError(
                "compiled rollouts need numba (pip install 'unokit[fast]') and rules on "
                "the plain classic path; use compiled=False"
            )
        self._rules_key, self._rules_arr = key, arr
        return arr

    # ------------------------------------------------------------ memory -------
    def _reset(self) -> None:
        self.known: dict[int, Counter[int]] = {}
        # seat -> colour (0-4, 4: wilds) or RANK_VOID + rank -> cards drawn since
        self.voids: dict[int, dict[int, int]] = {}
        self.color = -1
        self.top = -1  # the card on the discard pile
        self.my_hand: list[int] = []
        self.seat = -1
        self.direction = 1
        self.n = 0
        self._last: EventKind | None = None
        self.sizes: dict[int, int] = {}  # hand sizes as the events tell, when known
        # seat -> its plays since it last drew, each [card, colour before, direction
        # before, hand sizes before, cards played after it]
        self.lastplay: dict[int, list[list[Any]]] = {}
        self._last_seat = -1
        # seat -> the colour it named with a wild, until it next draws
        self.named: dict[int, int] = {}

    def observe(self, events: Sequence[Event]) -> None:
        """Learn from this seat's events: reveals, swaps, who could not follow a colour.

        Until the first decision shows which game this is, the events wait (a modern
        game's cards are not the classic ids read here)."""
        if self._kind is not False:
            if self._kind is None:
                self._early.extend(events)
            return
        for e in events:
            d = e.data
            prev, self._last = self._last, e.kind
            # only read after a draw: whether the next play is the drawn card's
            prev_seat, self._last_seat = self._last_seat, d.seat if isinstance(d, Draw) else -1
            match d:
                case RoundStart():
                    self._reset()
                case StartCard(card=card):
                    self.top = card
                    self.color = CARD_COLOR[card] if card < WILD else -1
                case Retract(card=card, color=color):
                    self.top = card
                    self.color = color
                case Color(color=color):
                    self.color = color
                case Play(seat=seat, cards=cards, color=color):
                    drawn = prev == EventKind.DRAW and prev_seat == seat
                    self._on_play(seat, cards, drawn)
                    if seat != self.seat and cards[0] >= WILD and self.color >= 0:
                        self._on_wild(seat, cards[0])
                    if seat != self.seat and cards[-1] >= WILD and 0 <= color < 4:
                        self.named[seat] = color
                    if drawn and self.sure_voids and seat != self.seat:
                        self._on_draw(seat, -len(cards))  # the drawn card left again
                    if seat in self.sizes:
                        self.sizes[seat] -= len(cards)
                    self.color = color
                    self.top = cards[-1]
                    k = self.known.get(seat)
                    if k:
                        for c in cards:
                            if k[c] > 0:
                                k[c] -= 1
                case Deal(seat=seat, n=n):
                    self.sizes[seat] = n
                case Discard(seat=seat, cards=cards):
                    self.lastplay = {}
                    if seat in self.sizes:
                        self.sizes[seat] -= len(cards)
                    k = self.known.get(seat)
                    if k:
                        for c in cards:
                            if k[c] > 0:
                                k[c] -= 1
                case Reverse():
                    self.direction = -self.direction
                case Draw(seat=seat, n=n):
                    self.lastplay.pop(seat, None)  # its hand then is no longer ours to rebuild
                    self.named.pop(seat, None)
                    if seat in self.sizes:
                        self.sizes[seat] += n
                    if e.only < 0:  # another seat's draw (my own comes with its cards)
                        self._on_draw(seat, n)
                        if n == 1 and prev not in _PENALTIES and self.color >= 0:
                            # a turn draw: they held no card of the colour in force (a
                            # player may draw anyway, so the sampler treats this as a
                            # preference)
                            voids = self.voids.setdefault(seat, {})
                            if self.sure_voids:
                                # nor a wild: in 3,270 turn draws of heuristic games
                                # (seeds 0-299) the drawer never held one
                                voids[self.color] = voids[WILD_COLOR] = 0
                                if 0 <= self.top < WILD:  # nor the top card's rank
                                    voids[RANK_VOID + CARD_RANK[self.top]] = 0
                            else:
                                voids[self.color] = 1
                case Challenge(seat=seat, challenged=challenged, guilty=True) if challenged >= 0:
                    # a bluff caught: was its victim (the challenger) about to go out?
                    if self.sizes.get(seat, 99) > self._w_two.bluff_when:
                        self.bluffers.add(challenged)
                case Reshuffle():
                    self.lastplay = {}
                case Swap() | Rotate() | ShuffleHands():
                    self.lastplay = {}
                    self.named = {}
            match d:
                case Reveal(seat=seat, cards=cards) if e.only >= 0:
                    self.known[seat] = Counter(cards)
                case Swap(seat=seat, other=other) if self.seat in (seat, other):
                    them = other if seat == self.seat else seat
                    self.known[them] = Counter(self.my_hand)
                    self.voids.pop(them, None)
                    self.sizes = {}
                case Rotate(direction=direction) if self.n:
                    self.known = {}
                    self.voids = {}
                    self.sizes = {}
                    nxt = (self.seat + direction) % self.n
                    self.known[nxt] = Counter(self.my_hand)
                case ShuffleHands():
                    self.known = {}
                    self.voids = {}
                    self.sizes = {}
                case Hand(seat=seat, cards=cards) if seat == self.seat:
                    self.my_hand = list(cards)

    def _on_play(self, seat: int, cards: tuple[int, ...], drawn: bool) -> None:
        """Remember an opponent's play, for weighing sampled worlds by it (``infer``).

        Called before the play updates the colour and the hand sizes, so the record
        holds the table as the player saw it.  A card just drawn and played is not a
        choice among the hand (and its draw already cleared the seat's records); a
        multi-card play clears them.
        """
        for recs in self.lastplay.values():
            for rec in recs:
                rec[4] += len(cards)
        if seat == self.seat or not self.infer or drawn:
            return
        if len(cards) != 1 or self.color < 0 or not self.n or len(self.sizes) < self.n:
            self.lastplay.pop(seat, None)
            return
        sizes = [self.sizes.get(t, 0) for t in range(self.n)]
        recs = self.lastplay.setdefault(seat, [])
        recs.append([cards[0], self.color, self.direction, sizes, 0])
        del recs[: -self.INFER_PLAYS]

    INFER_PLAYS = 4  # an opponent's plays since it last drew that weigh a world, at most

    def _inference(self, view: View) -> list[int] | None:
        """The opponents' plays since each last drew, as ``search.world_weight`` takes
        them, or None when there are none to weigh by."""
        out: list[int] = [0]
        for seat, recs in self.lastplay.items():
            if not view.live[seat] or not recs:
                continue
            played = [rec[0] for rec in recs]
            if view.hand_sizes[seat] != recs[0][3][seat] - len(played):
                continue  # the hand changed in a way the records do not tell
            for j, rec in enumerate(recs):
                ndisc = len(view.discard) - 1 - rec[4]
                if ndisc < 1 or view.discard[ndisc] != rec[0]:
                    continue
                later = played[j:]
                out += [seat, rec[0], rec[1], ndisc, rec[2], len(later), *later, *rec[3]]
                out[0] += 1
        return out if out[0] else None

    def _on_wild(self, seat: int, card: int) -> None:
        """A wild played by ``seat`` with ``self.color`` in force.

        Sensible players hold wilds for last unless their hand is short or someone is
        about to go out (the heuristic bot's rule), so a wild from a hand of 4 or more,
        with every other hand above 1 card, says its player held no card of the colour
        in force (a preference for the sampler, like the draw voids).
        """
        if not self.wild_voids or not self.sizes or len(self.sizes) < self.n:
            return
        if self.sure_voids and card == WILD_DRAW4 and self.n:
            victim = (seat + self.direction) % self.n
            if self.sizes.get(victim, 0) > self._w_two.bluff_when:
                self.voids.setdefault(seat, {})[self.color] = 0
                return
        if self.sizes.get(seat, 0) < 4:
            return
        if any(0 < k <= 1 for s, k in self.sizes.items() if s != seat):
            return
        self.voids.setdefault(seat, {})[self.color] = 0

    def _on_draw(self, seat: int, amount: int) -> None:
        """``amount`` more cards in ``seat``'s hand that may break its voids
        (negative: a drawn card played at once)."""
        v = self.voids.get(seat)
        if v:
            for col in v:
                v[col] = max(0, v[col] + amount)

    def _remember(self, view: View) -> None:
        if self._kind is None:  # the first view says which game: the waiting events go in
            self._modern_search(view)
        self.seat = view.seat
        self.n = view.n
        self.sizes = dict(enumerate(view.hand_sizes))
        self.my_hand = list(view.hand)
        self.direction = view.direction
        if view.color >= 0:
            self.color = view.color

    # ------------------------------------------------------------ sampling -----
    def _known_hands(self, view: View) -> tuple[Counter[int], list[list[int]], list[int]]:
        """The cards this seat has not seen, each hand started with the cards known to
        be in it (a shown hand, a hand it gave away), and how many each still needs."""
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
        return unseen, hands, need

    def _sample(self, view: View) -> ClassicGame:
        """One world consistent with what this seat knows."""
        rng = self.rng
        unseen, hands, need = self._known_hands(view)
        pool = list(unseen.elements())
        shuffle(rng, pool)
        # seats with voids first, filled oldest card first with the first cards of the
        # pool that no void bars; the ``free`` newest cards (the fewest drawn since
        # any void) are anything, dealt last (below).  By default every void bars
        # all the others; with ``layered_voids`` a void with ``since`` cards drawn
        # after it bars the card ``j`` places from the newest only when ``since < j``
        for s, voids in self.voids.items():
            if s == view.seat or need[s] <= 0 or not view.live[s]:
                continue
            if not any(since < need[s] for since in voids.values()):
                continue
            free = min(voids.values())
            bars = {col for col, since in voids.items() if since < need[s]}
            lo = 0  # by default a card once barred stays barred: scan on from there
            while need[s] > free:
                if self.layered_voids:
                    bars = {col for col, since in voids.items() if since < need[s]}
                    lo = 0
                i = next((i for i in range(lo, len(pool)) if not _banned(pool[i], bars)), -1)
                if i < 0:
                    break
                hands[s].append(pool.pop(i))
                need[s] -= 1
                lo = i
        for s in range(view.n):
            if need[s] > 0:
                hands[s].extend(pool[-need[s] :])
                del pool[-need[s] :]
        return world_from_view(view, hands, pool, seed=rng.getrandbits(32))

    def _sample_spec(
        self, view: View
    ) -> tuple[ClassicGame, list[int], list[int], Any, list[int], list[int]]:
        """What ``_sample`` deals, before shuffling: for compiled sampling.

        Returns a world whose hands hold only the known cards (empty draw pile), the
        pool of other unseen cards, the cards each seat still needs, the voids per
        seat (an ``n x 18`` array indexed by ``voids``' keys, 0 for none: 1 + the
        cards drawn since with ``layered_voids``, else 1, which bars every card but
        the free ones), the newest cards of each seat that no void bars, and the
        seats with voids, in the order ``_sample`` fills them.
        """
        import numpy as np

        n = view.n
        unseen, hands, need = self._known_hands(view)
        pool = sorted(unseen.elements())
        banned = np.zeros((n, RANK_VOID + 13), dtype=np.int64)
        free = [0] * n
        vseats: list[int] = []
        for s, voids in self.voids.items():
            if s == view.seat or need[s] <= 0 or not view.live[s]:
                continue
            cols = [col for col, since in voids.items() if since < need[s]]
            if not cols:
                continue
            for col in cols:
                banned[s, col] = 1 + voids[col] if self.layered_voids else 1
            free[s] = min(voids[col] for col in cols)
            vseats.append(s)
        world = world_from_view(view, hands, [], seed=0)
        return world, pool, need, banned, free, vseats

    # ------------------------------------------------------------ deciding -----
    def react(self, view: View) -> Action | None:
        if self._modern_search(view) is not None:
            return catch_or_call(view)
        self._remember(view)
        for a in view.legal:
            if a.kind in (CATCH, UNO):
                return a
        return None

    def _modern_search(self, view: View) -> ModernSearch | None:
        """UNO Flip! and No Mercy are searched by ``bots/modern_search.py``, from the
        view alone (the events kept for the classic game are dropped)."""
        if self._kind is None:
            self._kind = view.rules.game in MODERN_PLAY
            early, self._early = self._early, []
            if not self._kind:
                self.observe(early)
        if not self._kind:
            return None
        if self._modern is None:
            self._modern = ModernSearch(self._seed, self.time_budget, self.iterations, self.margin)
        return self._modern

    def act(self, view: View) -> Action:
        """Search the sensible actions, starting from the heuristic bot's choice.

        The search overrules the heuristic's pick only when the samples say so.  A
        wild's colour is not searched unless ``colors``: the heuristic's colour (or
        the colour held most) is used, which keeps the number of root actions small.
        With ``collapse`` only one number card per colour is searched (measured
        worse: the number does matter, through what can follow it).

        **Time bank** (``bank`` > 0, time budget only): every decision credits
        ``time_budget`` of CPU time to a bank and pays what it actually spent, so the
        mean CPU time per decision stays within the budget, while the time that forced
        decisions and settled searches (``settle``) leave unused goes to the close
        ones.  One decision may spend at most ``bank`` budgets.
        """
        modern = self._modern_search(view)
        if modern is not None:
            self.decisions += 1
            t = time.thread_time()
            try:
                return modern.act(view)
            finally:
                self.cpu += time.thread_time() - t
                self.rollouts = modern.rollouts
        clock = time.thread_time
        t0 = clock()
        self.decisions += 1
        banking = self.bank_cap > 0 and self.iterations is None
        if banking:
            self._bank = min(self._bank + self.time_budget, self.bank_cap * self.time_budget)
        self._jit_now = 0.0
        try:
            return self._act(view, banking, t0)
        finally:
            spent = clock() - t0 - self._jit_now  # compiling is not thinking
            self.cpu += spent
            if banking:
                self._bank -= spent

    def _act(self, view: View, banking: bool, t0: float) -> Action:
        """``act`` without the bookkeeping of its CPU time."""
        self._remember(view)
        self._live = sum(1 for alive in view.live if alive)
        many = self._live > 2
        self._margin = self.margin_many if many and self.margin_many is not None else self.margin
        self.prior.w = self._w_many if many else self._w_two
        prior = self.prior.act(view)
        weights: dict[tuple[int, ...], float] | None = None
        if self.learned and view.phase != P_CHALLENGE:
            prior, weights = self._learned_prior(view)
        if self.paired and view.phase == P_CHALLENGE:
            # A sampled world's W+4 player holds the old colour as often as a random
            # hand does, but players rarely bluff: searching would challenge far too
            # often.  The heuristic's bluff estimate decides (with ``bluff_far``, under
            # a prior that knows when sensible players bluff).
            return self._answer_wd4(view, prior)
        legal = [a for a in view.legal if a.kind not in (CATCH, UNO)]
        # always call UNO: drop the forgetting twin of a calling play
        calling = {a._replace(uno=False) for a in legal if a.kind == PLAY and a.uno}
        legal = [a for a in legal if not (a.kind == PLAY and not a.uno and a in calling)]
        colour = _best_color(list(view.hand), self.rng)
        seen: set[tuple[int, ...]] = set()
        actions: list[Action] = []
        plain_numbers = self.collapse and not view.rules.seven_zero
        for a in ([prior] if prior in legal else []) + legal:
            if a.kind == PLAY and a.cards[-1] >= WILD and a != prior and not self.colors:
                want = prior.color if prior.kind == PLAY and prior.card == a.card else colour
                if a.color != want:
                    continue
            if plain_numbers and a.kind == PLAY and not a.extra and CARD_RANK[a.card] < 10:
                # number cards of one colour differ only in what matches them later:
                # one stands for all (the prior's, when it is one)
                key: tuple[int, ...] = (a.kind, -1, CARD_COLOR[a.card], a.target, int(a.uno))
            else:
                key = (a.kind, *a.cards, a.color, a.target, int(a.uno))
            if key not in seen:
                seen.add(key)
                # with a learned base: the policy's mass on this card and target (any
                # colour or call) must reach ``keep`` times its favourite's
                if (
                    weights is not None
                    and a != prior
                    and weights.get((a.kind, *a.cards, a.target), 0.0) < self.keep
                ):
                    continue
                actions.append(a)
        if len(actions) <= 1:
            return actions[0] if actions else prior
        self.searches += 1
        # what this search may spend: the bank (this decision's credit included) less
        # what choosing the candidates took, and never less than a tenth of a budget
        self._allow = (
            max(self._bank - (time.thread_time() - t0), 0.1 * self.time_budget)
            if banking
            else self.time_budget
        )
        if self.paired:
            return self._search_paired(view, actions, prior)
        return self._search(view, actions, prior)

    def _learned_prior(self, view: View) -> tuple[Action, dict[tuple[int, ...], float]]:
        """The learned policy's favourite action and, per (kind, cards, target), the
        probability it gives those actions relative to its favourite's."""
        if self._learned is None:
            from unokit.bots.learned import LearnedBot

            self._learned = LearnedBot(seed=self._seed)
        ranked = self._learned.policy(view)
        best = ranked[0][1]
        weights: dict[tuple[int, ...], float] = {}
        for a, p in ranked:
            key = (a.kind, *a.cards, a.target)
            weights[key] = weights.get(key, 0.0) + p / best
        return ranked[0][0], weights

    def _answer_wd4(self, view: View, prior: Action) -> Action:
        """Challenge a Wild Draw Four when a bluff is likely enough.

        The heuristic's estimate weighs a holder of the old colour as half as likely
        to play the W+4 as a non-holder (``prior_bluff``), whoever the victim.  But a
        sensible player bluffs only to stop a victim about to go out: against
        ``heuristic`` the prior's rule challenged 77 of 132 legal W+4s in 240 games,
        each wrong challenge costing 2 cards, while every one of the 10 bluffs came
        against a hand of 2 cards or fewer.  So unless this seat is that close (or
        the player was seen caught bluffing a longer hand) the ratio is ``bluff_far``.
        """
        w = self.prior.w
        if self.bluff_far is None:
            return prior
        challenge = next((a for a in view.legal if a.kind == CHALLENGE), None)
        answer = next((a for a in view.legal if a.kind in (ACCEPT, DRAW)), None)
        if challenge is None or answer is None:
            return prior
        near = view.hand_sizes[view.seat] <= w.bluff_when
        ratio = w.prior_bluff if near or view.wd4_by in self.bluffers else self.bluff_far
        return challenge if self.prior._p_bluff(view, ratio) > w.challenge_at else answer

    def _search_paired(self, view: View, actions: list[Action], prior: Action) -> Action:
        """Common random numbers: every action is scored in the same sampled worlds.

        Each iteration samples one world and one rollout seed, then plays every root
        action on its own copy of that world with the same seed.  Comparing actions by
        their paired differences cancels most of the luck of the deal and of the
        draws, which independent UCB samples do not.  The heuristic's choice stays the
        answer unless another action's mean paired gain over it exceeds ``margin``
        standard errors of that gain.
        """
        seat = view.seat
        k = len(actions)
        p = actions.index(prior) if prior in actions else 0
        sums = [0.0] * k
        sq = [0.0] * k
        clock = time.thread_time  # CPU time: the budget does not shrink on a busy machine
        deadline = clock() + self._allow
        limit = self.iterations
        steps = self.horizon or 2000
        policy = self.policy
        rng = self.rng
        shared = random.Random()  # the forks' reshuffle RNG, reset to the world's state
        play_rng = random.Random()  # the rollout policy's RNG, reseeded alike
        fast_rules = self._compiled_rules(view)
        if fast_rules is not None and all(not a.extra for a in actions):
            import numpy as np

            from unokit import compiled as fast

            kern = fast.load_kernel()
            acts = np.array(
                [[a.kind, a.card, a.color, a.target, int(a.uno)] for a in actions], dtype=np.int64
            )
            out = np.zeros(k, dtype=np.float64)
        else:
            fast_rules = None
        worlds = 0
        if fast_rules is not None and (self.fast_sample or policy == 2) and view.wd4_by < 0:
            spec = self._sample_spec(view)
            if spec[0]._plain:
                return self._search_compiled(view, actions, p, fast_rules, acts, spec)
        while True:
            if limit is not None:
                if worlds * k >= limit and worlds >= 2:
                    break
            elif worlds >= 2 and clock() > deadline:
                break
            world = self._sample(view)
            if fast_rules is not None and world._plain:
                kern.search_world(fast.state_from_game(world), fast_rules,
                                  np.uint64(rng.getrandbits(64)), seat, acts, steps,
                                  self.judge, out)  # fmt: skip
                vals = out.tolist()
            else:
                state = world.round_rng.getstate()
                seed = rng.getrandbits(32)
                vals = [0.0] * k
                for j in range(k):
                    g = _fork(world, shared, state)
                    g.apply_trusted(seat, actions[j])
                    play_rng.seed(seed)
                    vals[j] = rollout(g, seat, play_rng, steps, policy, self.judge)
            self.rollouts += k
            base = vals[p]
            for j in range(k):
                d = vals[j] - base
                sums[j] += d
                sq[j] += d * d
            worlds += 1
        return self._decide(actions, p, sums, sq, worlds)

    def _decide(self, actions: list[Action], p: int, sums: list[float], sq: list[float],
                worlds: float, w2: float | None = None) -> Action:  # fmt: skip
        """The best action by mean paired gain if it beats ``margin`` standard errors.

        With weighted worlds, ``worlds`` is the sum of the weights and ``w2`` the sum
        of their squares (the standard error of a weighted mean)."""
        k = len(actions)
        best = max(range(k), key=lambda j: sums[j])
        if best == p or sums[best] <= 0:
            return actions[p]
        m, se = _mean_se(sums[best], sq[best], worlds, w2, 1e-9)
        if m > self._margin * se:
            return actions[best]
        return actions[p]

    def _search_compiled(
        self, view: View, actions: list[Action], p: int, rules_arr: Any, acts: Any,
        spec: tuple[ClassicGame, list[int], list[int], Any, list[int], list[int]],
    ) -> Action:  # fmt: skip
        """``_search_paired`` with the worlds sampled in compiled code too.

        The sampler deals what ``_sample`` deals (``_sample_spec`` says what is fixed);
        the search runs in batches of worlds sized from the CPU time the previous ones
        took, so it stops close to the budget.
        """
        import numpy as np

        from unokit import compiled as fast
        from unokit.compiled import search

        world, pool, need, banned, free, vseats = spec
        k = len(actions)
        st0 = fast.state_from_game(world)
        rng = np.zeros(search.RNG_SIZE, dtype=np.int64)
        rng[-1] = np.int64(np.uint64(self.rng.getrandbits(64)))
        pool_a = np.array(pool, dtype=np.int64)
        need_a = np.array(need, dtype=np.int64)
        free_a = np.array(free, dtype=np.int64)
        vseats_a = np.array(vseats, dtype=np.int64)
        sums_a = np.zeros(k, dtype=np.float64)
        sq_a = np.zeros(k, dtype=np.float64)
        wacc = np.zeros(2, dtype=np.float64)  # the worlds' weights and their squares
        found = self._inference(view) if self.infer > 0 and self.policy == 2 else None
        inf = np.array(found if found is not None else [0], dtype=np.int64)
        two = self._live == 2  # counted once per decision, by _act
        rows: tuple[tuple[float, ...], ...] = ((0.0,) * len(TILT),) * 3
        if self.tilt and two:
            rows = (TILT,) * 3
        elif self.tilt and self.tilt_many:
            rows = TILT_MANY
        tilt = np.array(rows, dtype=np.float64)
        named = np.full(view.n, -1, dtype=np.int64)
        if self.named_w != 0.0:  # read by the compiled search only then
            for namer, col in self.named.items():
                if namer != view.seat and 0 <= namer < view.n and view.live[namer]:
                    named[namer] = col
        steps = self.horizon or 2000
        seat = view.seat
        worlds = 0
        limit = self.iterations
        clock = time.thread_time
        start = clock()
        deadline = start + self._allow
        # a batch lasts at most a quarter budget, so that a settled search stops early
        chunk = self.time_budget / 4 if self.settle > 0 else self._allow
        if self.policy not in _WARM:
            # the first search of a process compiles (or loads from numba's cache) the
            # compiled search: minutes or seconds that must not come out of the budget
            t = clock()
            args = (st0, rules_arr, rng.copy(), seat, acts, pool_a, need_a, banned, free_a,
                    vseats_a, 1, steps)  # fmt: skip
            junk = (np.zeros(k), np.zeros(k))
            if self.policy == 2:
                search.search_worlds_h(*args, p, *junk, inf, self.infer, self.infer_floor,
                                       np.zeros(2), int(self.rollout_challenges),
                                       tilt, named, self.named_w)  # fmt: skip
            else:
                search.search_worlds(*args, self.judge, p, *junk)
            _WARM.add(self.policy)
            jit = clock() - t
            self.jit += jit
            self._jit_now += jit
            start += jit
            deadline += jit
        batch = 2
        while True:
            if limit is not None:
                batch = max(2, -(-limit // k)) - worlds
                if batch <= 0:
                    break
            if self.policy == 2:
                search.search_worlds_h(st0, rules_arr, rng, seat, acts, pool_a, need_a,
                                       banned, free_a, vseats_a, batch, steps, p, sums_a,
                                       sq_a, inf, self.infer, self.infer_floor,
                                       wacc, int(self.rollout_challenges), tilt,
                                       named, self.named_w)  # fmt: skip
            else:
                search.search_worlds(st0, rules_arr, rng, seat, acts, pool_a, need_a,
                                     banned, free_a, vseats_a, batch, steps, self.judge, p,
                                     sums_a, sq_a)  # fmt: skip
            worlds += batch
            self.rollouts += batch * k
            if self.policy != 2:
                wacc[0] = wacc[1] = worlds  # unweighted
            if limit is not None:
                continue
            now = clock()
            if now > deadline:
                break
            early = self.settle > 0 and now - start >= self.time_budget / 3 and worlds >= 32
            if early and _settled(p, sums_a.tolist(), sq_a.tolist(), wacc[0], self.settle, wacc[1]):
                self.settled += 1
                break
            per_world = max((now - start) / worlds, 1e-6)
            batch = max(1, min(256, int(min(deadline - now, chunk) / per_world) + 1))
        if found is not None:
            self.weighted += 1
            self.ess += wacc[0] * wacc[0] / wacc[1] / worlds
        return self._decide(actions, p, sums_a.tolist(), sq_a.tolist(), wacc[0], wacc[1])

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
        clock = time.thread_time
        deadline = clock() + self._allow
        limit = self.iterations
        total = 0
        c = self.c
        while True:
            if limit is not None:
                if total >= limit:
                    break
            elif total % 8 == 0 and clock() > deadline and total >= k:
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
            wins[i] += rollout(world, seat, self.rng, self.horizon or 2000, self.policy)
            self.rollouts += 1
            visits[i] += 1
            total += 1
        means = [wins[j] / visits[j] if visits[j] else 0.0 for j in range(k)]
        best = max(range(k), key=lambda j: (means[j], visits[j]))
        if p < 0 or best == p:
            return actions[best]

        def var(j: int) -> float:
            m = means[j]
            return max(m * (1 - m), 0.05) / max(visits[j], 1)

        if means[best] - means[p] > self._margin * math.sqrt(var(best) + var(p)):
            return actions[best]
        return actions[p]


_WARM: set[int] = set()  # rollout policies whose compiled search this process has run


def _mean_se(
    total: float, sq: float, worlds: float, w2: float | None, floor: float
) -> tuple[float, float]:
    """The mean paired difference and its standard error; with weighted worlds,
    ``worlds`` is the sum of the weights and ``w2`` that of their squares."""
    m = total / worlds
    var = max(sq / worlds - m * m, floor)
    return m, math.sqrt(var * (w2 or worlds) / (worlds * worlds))


def _settled(
    p: int, sums: list[float], sq: list[float], worlds: float, z: float, w2: float | None = None
) -> bool:
    """Whether every rival of the prior (index ``p``) trails it by ``z`` standard errors.

    Then more worlds would almost surely keep the prior, so the search may stop and
    leave its time in the bank.  A rival whose results never differed from the
    prior's (zero sum of squares) cannot overrule it and counts as settled.
    """
    for j in range(len(sums)):
        if j == p or sq[j] == 0.0:
            continue
        m, se = _mean_se(sums[j], sq[j], worlds, w2, 1e-12)
        if m >= 0:
            return False
        if m + z * se >= 0:
            return False
    return True


def _fork(world: ClassicGame, shared: random.Random, state: tuple[Any, ...]) -> ClassicGame:
    """A copy of a sampled world for one rollout.

    Every fork shares one RNG reset to the world's state, so each candidate action
    meets the same reshuffles (common random numbers) without building a new Mersenne
    Twister per rollout.
    """
    shared.setstate(state)
    return world.copy(rng=shared)


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


def _smart_play(g: ClassicGame, s: int, rng: random.Random) -> None:
    """One turn of the rule-based rollout policy (plain classic play phase only).

    The rules are the heuristic bot's strongest, cheap enough for thousands of plies a
    decision: hold wilds unless nothing else fits, follow with the colour held most,
    and hit the next player with Skip / Draw Two / W+4 when they are close to going
    out.  A wild names the colour held most.  Written for speed: this is where a
    search spends most of its time.
    """
    hand = g.hands[s]
    cards = g.playable_cards(s)
    if not cards:
        g.draw(s)
        return
    counts: list[int] | None = None
    if len(cards) == 1:
        best = cards[0]
    else:
        n = g.n
        danger = len(g.hands[(s + g.direction) % n]) <= 2
        short = len(hand) <= 2
        best = -1
        best_score = -1e9
        for c in cards:
            if c >= WILD:
                score = -20.0
                if danger and c == WILD_DRAW4:
                    score = -5.0
                if short:
                    score += 25.0
            else:
                if counts is None:
                    counts = [0, 0, 0, 0, 0]
                    for h in hand:
                        counts[CARD_COLOR[h]] += 1
                score = counts[CARD_COLOR[c]]
                if danger:
                    rank = CARD_RANK[c]
                    if rank >= SKIP and (rank != REVERSE or n == 2):
                        score += 11.0 if rank == DRAW2 else 10.0
            if score > best_score or (score == best_score and rng.random() < 0.5):
                best_score = score
                best = c
    color = -1
    if best >= WILD:
        if counts is None:
            counts = [0, 0, 0, 0, 0]
            for h in hand:
                counts[CARD_COLOR[h]] += 1
        top = max(counts[:4])
        color = counts.index(top) if top else rng.randrange(4)
    g.play(s, best, color, len(hand) == 2)


def judge_position(g: ClassicGame, seat: int) -> float:
    """P(``seat`` or its team wins) from the hand sizes alone, calibrated by simulation.

    Each live seat weighs ``cards ** -0.5``, the seat to move 8% more; a seat's chance
    is its share of the weight.  With two players this is the logistic model
    ``P(mover wins) = 1 / (1 + exp(-(0.08 + 0.5 * ln(opp / mine))))``, the
    maximum-likelihood fit to 6,000 classic rounds played by the rule-based rollout
    policy (every play-phase position, hand sizes 1-15).  The straight line it
    replaces (8 points a card) was far too steep: 7 cards against 1 still wins ~30%
    of the time.
    """
    total = 0.0
    mine = 0.0
    teams = g.teams
    for s, h in enumerate(g.hands):
        if not g.live[s]:
            continue
        w = 1.0 / math.sqrt(max(len(h), 1))
        if s == g.current:
            w *= 1.083
        total += w
        if s == seat or (teams and s % 2 == seat % 2):
            mine += w
    return mine / total if total > 0 else 0.5


_NOBODY: frozenset[int] = frozenset()


def _rollout_turn(g: ClassicGame) -> int:
    """The seat to act next in a rollout, or -1 once the round is over, after the
    out-of-turn chances in ``seat_to_ask``'s order (every seat waited on): a rollout
    player asked while a seat is catchable catches it (on its turn too, first); it lets
    any other chance go (its own late call, a jump-in)."""
    passed: AbstractSet[int] = _NOBODY
    while True:
        s = seat_to_ask(g, passed, None)
        v = g.vulnerable
        if v >= 0 and s >= 0 and s != v:
            g.catch(s, v)
            passed = _NOBODY
        elif s == g.current or s < 0:
            return s
        else:
            passed = passed | {s}


def rollout(
    g: ClassicGame,
    seat: int,
    rng: random.Random,
    max_steps: int = 2000,
    policy: int = 0,
    judge: int = 0,
) -> float:
    """Play the round out with a quick policy; 1 if ``seat`` (or its team) wins.

    ``policy`` 0 plays a random non-wild card (a wild if nothing else fits); 1 plays
    the rule-based ``_smart_play``.  Both only take effect on the plain classic path;
    other phases and variants pick a random legal action.
    """
    fast = g._plain and not g.rules.multi_play
    smart = fast and policy >= 1  # policy 2 (heuristic-scored) is compiled only
    steps = 0
    while True:
        s = _rollout_turn(g)
        if s < 0 or steps >= max_steps:
            break
        steps += 1
        phase = g.phase
        if smart and phase == P_PLAY:
            _smart_play(g, s, rng)
        elif fast and phase == P_PLAY:
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
    winner = g.round_winner
    if winner < 0:  # cut off: judge by who is closer to going out
        if judge == 1:
            return judge_position(g, seat)
        mine = len(g.hands[seat])
        best_other = min(
            (len(h) for s, h in enumerate(g.hands) if s != seat and g.live[s]), default=mine
        )
        return min(1.0, max(0.0, 0.5 + 0.08 * (best_other - mine)))
    if g.teams:
        return 1.0 if winner % 2 == seat % 2 else 0.0
    return 1.0 if winner == seat else 0.0


__all__ = ["ISMCTSBot", "rollout"]
