"""The search bot's play of UNO Flip! and No Mercy: determinized rollouts from the view.

Each iteration deals a *world*: every card the seat cannot see, dealt again at random
but consistent with its view (``flip_world``, ``nm_world``), then plays each candidate
action in its own copy of that world followed by a rollout to the end of the hand in
the Python engine (``unokit.engine.modern``), all candidates with the same random
numbers.  The modern heuristic's choice (``bots/modern.py``) stays the answer unless
another candidate wins more often by ``margin`` standard errors of the paired
difference, as in the classic search (``bots/ismcts.py``).

What a world keeps from the view, and only that:

* **No Mercy**: the seat's hand, every face-up discard, hand sizes, live seats, the
  pending stack, the colour, the direction; the cards it cannot see (the deck minus
  its hand and the face-up discards) are dealt to the other hands, the set-aside
  hands, any face-down cards under the discard pile and the draw pile, by their sizes.
* **UNO Flip!**: the active faces of the seat's cards (their other faces dealt from
  the unseen faces of the inactive side), the other faces of each opponent's cards in
  hand order (their active faces dealt from the unseen faces of the active side), the
  top card's active face, the draw pile top's inactive face (FLIP-VIEW-1..3); every
  face nobody shows is dealt again, so each world is a whole 112-card deck with its
  own pairing.  A Wild Draw Two or Colour waiting for its challenge is a bluff in a
  world with probability ``BLUFF_PRIOR`` (the colour in force before it is not in the
  view).

The rollouts play a fast rule of thumb on the engine's legal actions (a non-wild
before a wild, UNO always called, colours held most, a stack answered when it can
be, never a challenge).  Who acts is asked of ``seat_to_ask`` (``rollout_turn``), as
in the classic rollouts, so that a missed UNO call costs in a rollout what it costs at
the table: the first other seat asked catches it; jump-ins are offered and let go, as
the bots that play these games let them go.  A rollout scores 1 if the seat wins the
hand, else 0; one cut at ``MAX_ROLLOUT`` decisions scores the seat's share by hand
sizes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Set as AbstractSet

from unokit.bots.modern import ModernHeuristic
from unokit.engine.actions import ACCEPT, CATCH, COLOR, DRAW, KEEP, PLAY, Action
from unokit.engine.modern.base import ModernGame, WorldError
from unokit.engine.modern.flip import FlipGame
from unokit.engine.modern.nomercy import NoMercyGame
from unokit.engine.phases import P_ROUND_OVER
from unokit.engine.state import seat_to_ask
from unokit.engine.view import View

BLUFF_PRIOR = 0.25  # the chance a world's waiting Wild Draw Two/Colour is a bluff
MAX_ROLLOUT = 1000  # decisions in one rollout before it is judged by hand sizes
MAX_CANDIDATES = 6  # actions searched: the heuristic's best ones


# ------------------------------------------------------------------ worlds ----
SearchError = WorldError  # the name this module's callers know


def nm_world(view: View, rng: random.Random) -> NoMercyGame:
    """A No Mercy game consistent with ``view`` (``NoMercyGame.sample_world``)."""
    return NoMercyGame.sample_world(view, rng, BLUFF_PRIOR)


def flip_world(view: View, rng: random.Random) -> FlipGame:
    """A UNO Flip! game consistent with ``view`` (``FlipGame.sample_world``)."""
    return FlipGame.sample_world(view, rng, BLUFF_PRIOR)


# each game this search plays, by its name in the family (a declaration, as a bot's
# ``games``): how it deals a world
WORLDS = {"flip": flip_world, "no-mercy": nm_world}


def world(view: View, rng: random.Random) -> ModernGame:
    return WORLDS[view.rules.game](view, rng)


# ---------------------------------------------------------------- rollouts ----
def _colors(g: ModernGame, seat: int) -> int:
    """The colour ``seat`` holds most now (Flip: of the active side), ties by order."""
    return g.held_most(seat)


def _wild(g: ModernGame, face: int) -> bool:
    return g.is_wild(face)


def rollout_pick(g: ModernGame, seat: int, rng: random.Random) -> Action:
    """The rollouts' rule of thumb on the engine's legal actions."""
    legal = g.legal_actions(seat)
    plays = [a for a in legal if a.kind == PLAY]
    if plays:
        plain = [a for a in plays if not _wild(g, a.card)]
        pick = plain or plays
        if len(g.hands[seat]) == 2:
            pick = [a for a in pick if a.uno] or pick
        i = int(rng.random() * len(pick))
        a = pick[i]
        if a.color >= 0:
            want = _colors(g, seat)
            for j, b in enumerate(pick):
                if b.card == a.card and b.color == want and b.target == a.target:
                    i, a = j, b
                    break
        if not a.uno and i + 1 < len(pick) and pick[i + 1].uno:
            # any play that leaves one card is called (a Discard All, a swap, several
            # cards at once), as the bots call: a rollout catches a miss.  The engines
            # list a play's called twin right after it.
            called = a._replace(uno=True)
            if pick[i + 1] == called:
                return called
        return a
    for a in legal:
        if a.kind == COLOR:
            return Action(COLOR, color=_colors(g, seat))
    for kind in (ACCEPT, KEEP, DRAW):
        for a in legal:
            if a.kind == kind:
                return a
    return legal[0]


_NOBODY: frozenset[int] = frozenset()


def rollout_turn(g: ModernGame, rng: random.Random, jump_ins: bool = False) -> int:
    """The seat to act next in a rollout, or -1 once the hand is over, after the
    out-of-turn chances in ``seat_to_ask``'s order (every seat waited on), as in the
    classic rollouts (``ismcts._rollout_turn``): a rollout player asked while a seat is
    catchable catches it (on its turn too, first); it lets any other chance go (its
    own late call, a jump-in) unless ``jump_ins``, when it jumps in whenever it may,
    with the rule of thumb's pick among its jump-in plays."""
    passed: AbstractSet[int] = _NOBODY
    while True:
        s = seat_to_ask(g, passed, None)
        v = g.vulnerable
        if v >= 0 and s >= 0 and s != v:
            g.apply_trusted(s, Action(CATCH, target=v))
            passed = _NOBODY
        elif s == g.current or s < 0:
            return s
        elif jump_ins and g.jump_ins(s):
            g.apply_trusted(s, rollout_pick(g, s, rng))
            passed = _NOBODY
        else:
            passed = passed | {s}


def rollout(g: ModernGame, seat: int, rng: random.Random, jump_ins: bool = False) -> float:
    """Play ``g`` to the end of the hand; 1 if ``seat`` wins it, else 0.

    Who acts comes from ``rollout_turn`` (``seat_to_ask``), so a missed UNO call is
    caught in a rollout as at the table; ``jump_ins`` is ``rollout_turn``'s."""
    for _ in range(MAX_ROLLOUT):
        s = rollout_turn(g, rng, jump_ins)
        if s < 0:
            return 1.0 if g.round_winner == seat else 0.0
        g.apply_trusted(s, rollout_pick(g, s, rng))
    if g.phase >= P_ROUND_OVER:
        return 1.0 if g.round_winner == seat else 0.0
    if not g.live[seat]:
        return 0.0
    sizes = [len(h) for s, h in enumerate(g.hands) if g.live[s]]
    return 1.0 / len(sizes) if len(g.hands[seat]) <= min(sizes) else 0.0


# ------------------------------------------------------------------ search ----
class ModernSearch:
    """Determinized paired rollouts from a modern view (the ISMCTS bot's modern play)."""

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float = 0.06,
        iterations: int | None = None,
        margin: float = 1.5,
    ) -> None:
        self.rng = random.Random(seed)
        self.prior = ModernHeuristic(seed)
        self.time_budget = time_budget
        self.iterations = iterations
        self.margin = margin
        self.rollouts = 0
        self.worlds = 0

    def act(self, view: View) -> Action:
        first = self.prior.act(view)
        candidates = self._candidates(view, first)
        if len(candidates) <= 1:
            return first
        return self._search(view, candidates)

    def _candidates(self, view: View, first: Action) -> list[Action]:
        """The heuristic's choice first, then its next best, one per card (and target)
        with the colour it would name and the UNO call when there is one."""
        out = [first]
        seen = {(first.kind, first.card, first.target, first.extra)}
        for a in self.prior.ranked(view)[1:]:
            key = (a.kind, a.card, a.target, a.extra)
            if a.kind == COLOR:
                key = (a.kind, a.color, -1, ())
            if key in seen:
                continue
            if a.kind == PLAY and a.color >= 0:
                same = [b for b in view.legal if (b.kind, b.card, b.target, b.extra) == key]
                a = max(same, key=lambda b: (b.color == first.color, b.uno))
            seen.add(key)
            out.append(a)
            if len(out) >= MAX_CANDIDATES:
                break
        return out

    def _search(self, view: View, actions: list[Action]) -> Action:
        k = len(actions)
        sums = [0.0] * k
        sq = [0.0] * k  # of the paired difference against actions[0]
        worlds = 0
        clock = time.thread_time
        t0 = clock()
        me = view.seat
        while True:
            if self.iterations is not None:
                if worlds * k >= self.iterations:
                    break
            elif worlds and clock() - t0 >= self.time_budget:
                break
            wseed = self.rng.getrandbits(32)
            seed = self.rng.getrandbits(32)
            scores = []
            for a in actions:  # the same world again for each (cheaper than a copy)
                g = world(view, random.Random(wseed))
                g.round_rng = random.Random(seed)
                g.apply_trusted(me, a)
                scores.append(rollout(g, me, random.Random(seed + 1)))
            for j in range(k):
                sums[j] += scores[j]
                d = scores[j] - scores[0]
                sq[j] += d * d
            worlds += 1
        self.rollouts += worlds * k
        self.worlds += worlds
        best = 0
        for j in range(1, k):
            diff = (sums[j] - sums[0]) / worlds
            var = max(sq[j] / worlds - diff * diff, 0.0)
            se = math.sqrt(var / worlds) if worlds > 1 else math.inf
            if diff > self.margin * se and sums[j] > sums[best]:
                best = j
        return actions[best]


__all__ = [
    "ModernSearch",
    "SearchError",
    "flip_world",
    "nm_world",
    "rollout",
    "rollout_turn",
    "world",
]
