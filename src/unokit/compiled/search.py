"""Compiled determinizations for ``unokit.bots.ismcts``: sample, roll out, accumulate.

``ISMCTSBot`` used to sample each world in Python (a ``Game`` built from the view,
then converted to the kernel's state), which had become most of a search's time once
the rollouts were compiled.  Here the whole loop runs in numba: per world, the hidden
cards are shuffled and dealt the way ``ISMCTSBot._sample`` deals them (known cards are
already in the template's hands; seats with void colours get cards of other colours
first, as far as their ``free`` draws allow; every other seat takes cards from the end
of the shuffled pool; what is left is the draw pile, top last), then
``kernel.search_world`` plays every root action in its own copy with common random
numbers, and the paired differences against the prior's action are summed.

Nothing here sees the real hidden cards: the caller passes the pool of unseen cards,
the number each seat still needs, and the void colours it learned from its seat's
events, all of which depend on the view and the events only.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from unokit.compiled.kernel import (
    DRAW2,
    HCAP,
    NMAX,
    O_DECK,
    O_DISC,
    O_HANDS,
    O_HS,
    O_LIVE,
    O_PILE,
    P_CHALLENGE,
    P_DRAWN,
    P_PLAY,
    P_START_COLOR,
    R_BLUFF,
    R_DECKSIZE,
    R_SCORING,
    REVERSE,
    S_COLOR,
    S_CUR,
    S_DIR,
    S_DRAWN,
    S_GUILTY,
    S_LOGON,
    S_N,
    S_NDISC,
    S_NLIVE,
    S_NPILE,
    S_PHASE,
    S_RESH,
    S_RNG,
    S_RWIN,
    S_WD4BY,
    S_WD4PREV,
    SC_TEAMS,
    SKIP,
    WILD,
    WILD_DRAW4,
    accept,
    apply_root,
    below,
    best_color,
    ccolor,
    challenge,
    choose_color,
    draw,
    play,
    playable_cards,
    rnext,
    rollout_turn,
    search_world,
    size_value,
    step,
)

RNG_SIZE = 21  # the sampler's generator lives at index S_RNG (20), as in a state


@njit(cache=True)
def copy_live(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src`` for what a classic rollout reads: the header, each hand, the
    draw and discard piles up to their sizes.  The rest of a state (the cards past
    each pile's size, the swap and deal scratch) is never read before written, and
    copying all 2,650 words of it cost about a tenth of the four-player rollouts."""
    dst[:O_HANDS] = src[:O_HANDS]
    for s in range(src[S_N]):
        b = O_HANDS + s * HCAP
        dst[b : b + src[O_HS + s]] = src[b : b + src[O_HS + s]]
    dst[O_PILE : O_PILE + src[S_NPILE]] = src[O_PILE : O_PILE + src[S_NPILE]]
    dst[O_DISC : O_DISC + src[S_NDISC]] = src[O_DISC : O_DISC + src[S_NDISC]]


@njit(cache=True)
def deal_world(
    base: np.ndarray, st0: np.ndarray, rng: np.ndarray, pool: np.ndarray, work: np.ndarray,
    need: np.ndarray, banned: np.ndarray, free: np.ndarray, vseats: np.ndarray,
) -> None:  # fmt: skip
    """Write one sampled deal of ``pool`` into ``base`` (a copy of ``st0``'s hands)."""
    n = st0[S_N]
    m = pool.shape[0]
    for i in range(m):
        work[i] = pool[i]
    for i in range(m - 1, 0, -1):  # Fisher-Yates
        j = below(rng, i + 1)
        t = work[i]
        work[i] = work[j]
        work[j] = t
    left = np.empty(n, dtype=np.int64)
    for s in range(n):
        base[O_HS + s] = st0[O_HS + s]
        left[s] = need[s]
    cnt = m
    for vi in range(vseats.shape[0]):  # ``ISMCTSBot._sample``'s order and rule
        s = vseats[vi]
        hb = O_HANDS + s * HCAP
        # with every entry 1 (the default) a card once barred stays barred, so each
        # scan goes on from where the last one stopped; layered entries rescan
        strict = True
        for key in range(banned.shape[1]):
            if banned[s, key] > 1:
                strict = False
        lo = 0
        while left[s] > free[s]:
            # the card ``j`` places from the newest: barred by the voids whose
            # ``banned`` entry is 1 to ``j`` (1 + the cards drawn since with
            # ``layered_voids``; else 1, barring every card but the free ones)
            j = left[s]
            at = -1
            for i in range(lo, cnt):
                c = work[i]
                b = banned[s, ccolor(c)]
                if b > 0 and b <= j:
                    continue
                if c < WILD:
                    b = banned[s, 5 + c % 13]  # 5: ismcts.RANK_VOID
                    if b > 0 and b <= j:
                        continue
                at = i
                break
            if at < 0:
                break
            base[hb + base[O_HS + s]] = work[at]
            base[O_HS + s] += 1
            left[s] -= 1
            for i in range(at, cnt - 1):
                work[i] = work[i + 1]
            cnt -= 1
            if strict:
                lo = at
    for s in range(n):
        k = left[s]
        if k > 0:
            hb = O_HANDS + s * HCAP
            for i in range(cnt - k, cnt):
                base[hb + base[O_HS + s]] = work[i]
                base[O_HS + s] += 1
            cnt -= k
    for i in range(cnt):
        base[O_PILE + i] = work[i]
    base[S_NPILE] = cnt


@njit(cache=True)
def search_worlds(
    st0: np.ndarray, R: np.ndarray, rng: np.ndarray, seat: int, acts: np.ndarray,
    pool: np.ndarray, need: np.ndarray, banned: np.ndarray, free: np.ndarray,
    vseats: np.ndarray, worlds: int, max_steps: int, judge: int, p: int,
    sums: np.ndarray, sq: np.ndarray,
) -> None:  # fmt: skip
    """``worlds`` sampled deals, every root action rolled out in each; ``sums[j]`` and
    ``sq[j]`` gain the paired difference ``value(j) - value(p)`` and its square."""
    k = acts.shape[0]
    base = st0.copy()
    work = np.empty(max(pool.shape[0], 1), dtype=np.int64)
    out = np.zeros(k, dtype=np.float64)
    for _ in range(worlds):
        deal_world(base, st0, rng, pool, work, need, banned, free, vseats)
        seed = rnext(rng)
        search_world(base, R, seed, seat, acts, max_steps, judge, out)
        b = out[p]
        for j in range(k):
            d = out[j] - b
            sums[j] += d
            sq[j] += d * d


# ================================================================ heuristic rollouts ==
# ``policy=2``: rollout players that choose a play exactly as ``HeuristicBot`` does
# (``_choose_play``: ``_root_value``, ``_play_value``, ``_chain_value`` and
# ``_end_value`` with its default weights, the same sums in the same order, the same
# node budget for the two-player chains and the same order of candidates, so ties
# break the same way), from what that player knows: its own hand, the hand sizes, the
# discard pile, and its memory (``SC_MEM``: the voids it read, per seat and colour, and
# each seat's rate of challenging its W+4s).  A rollout player's memory is a new bot's
# (no voids, every rate 1/2: ``fresh_memory``).  In a rollout a W+4 is never challenged
# by default; ``chal`` 1 challenges exactly the bluffs, ``chal`` 2 by the heuristic's
# rule under its prior 1/2 (``heur_challenges``).  ``tests/test_compiled_heuristic.py``
# holds ``heur_choose`` to ``HeuristicBot`` decision by decision.
#
# The heuristic's scoring (``heur_choose``, ``heur_challenges`` and everything they call)
# is also the RL environments' heuristic opponent, called from ``rl.vector_kernel``'s
# code compiled without numba's runtime: it allocates nothing and says so
# (``_nrt=False``).  Left unmarked, a function takes its caller's setting when it is
# first compiled, so the same function came out with or without the runtime depending
# on which caller compiled it first, and one that allocates compiled or not the same way
# (issue 45).  Only the entry points (``search_worlds``, ``search_worlds_h``) and
# helpers reached from them alone allocate.

WIN_VALUE = 1000.0  # heuristic._WIN
NEVER = -1e9  # heuristic._NEVER
SEARCH_NODES = 400  # Weights.search_nodes
CHAIN_DEPTH = 6  # _chain_value searches no deeper
LEVELS = CHAIN_DEPTH + 2  # frames of the chain search (depth 0 .. 6, and one spare)


@njit(cache=True, _nrt=False)
def urgency(cards: int) -> float:
    if cards <= 1:
        return 4.0
    if cards == 2:
        return 2.5
    if cards == 3:
        return 1.6
    return 1.0


@njit(cache=True, _nrt=False)
def p_none(unseen: int, of_colour: int, h: int) -> float:
    """P(a hand of ``h`` cards drawn from ``unseen`` cards has none of ``of_colour``)
    (``heuristic.p_none``, the same products)."""
    p = 1.0
    rest = unseen - of_colour
    for i in range(h):
        if rest - i <= 0 or unseen - i <= 0:
            return 0.0
        p *= (rest - i) / (unseen - i)
    return p


# ``cnt``, the integer scratch the heuristic's scoring passes around: the hand's count of
# each card code, then running totals that spare the scoring a pass over 54 codes per
# candidate and over the discard pile per decision (the hot loop of policy-2 rollouts),
# then the chain search's bookkeeping
C_HAND = 60  # 60..64: the hand's cards per colour (wilds at 64)
C_ACTS = 65  # the hand's Skip, Reverse and Draw Two cards
C_DISC = 66  # 66..70: the discard pile's cards per colour, counted up to C_DN
C_DN = 71  # discards counted so far; -1: count again (the pile was not only added to)
C_DRESH = 72  # the reshuffle count when they were counted
C_NODES = 73  # the chain search's nodes this decision (HeuristicBot._nodes)
C_ROOT = 80  # 80..136: the whole hand's count of each card code
C_OCC = C_ROOT + 57  # per place in the hand: copies of its card in the places before
C_FR = C_OCC + HCAP  # the chain search's frames, F_SIZE words a level
F_CARD, F_COL, F_POS, F_PEND, F_WILD, F_MODE = range(6)
F_SIZE = 6
CNT_SIZE = C_FR + F_SIZE * LEVELS

# ``sc``, the float scratch: candidates' cards, colours and values (rows 0-2),
# ``end_value``'s memo (row 3), the chain search's frames (row 4), the memory (row 5)
SC_MEMO = 3
SC_FRAME = 4
G_BONUS, G_Q, G_CAUGHT, G_TERM, G_BEST = range(5)
G_SIZE = 5
SC_MEM = 5  # lack of seat s in colour c at 4 * s + c; seat s's challenge rate at M_RATE + s
M_RATE = 4 * NMAX
SC_ROWS = 6


def deck_colours(cards: Iterable[int]) -> np.ndarray:
    """A deck's cards per colour (wilds at 4): where the heuristic's unseen counts start."""
    out = np.zeros(5, dtype=np.int64)
    for c in cards:
        out[ccolor(c)] += 1
    return out


@njit(cache=True)
def fresh_memory(sc: np.ndarray) -> None:
    """A new ``HeuristicBot``'s memory in ``sc[SC_MEM]``: no voids read, and every seat's
    challenge rate (challenges + 1) / (answers + 2) at 1/2."""
    mem = sc[SC_MEM]
    for i in range(M_RATE):
        mem[i] = 0.0
    for s in range(NMAX):
        mem[M_RATE + s] = 0.5


def set_memory(sc: np.ndarray, lack: list[list[float]], challenges: list[list[int]]) -> None:
    """A ``HeuristicBot``'s memory (its ``lack`` and ``challenges``) into ``sc[SC_MEM]``."""
    fresh_memory(sc)
    mem = sc[SC_MEM]
    for s, row in enumerate(lack):
        for c in range(4):
            mem[4 * s + c] = row[c]
    for s, (chal, answered) in enumerate(challenges):
        mem[M_RATE + s] = (chal + 1) / (answered + 2)


def rollout_scratch(deck_col: np.ndarray) -> tuple[np.ndarray, ...]:
    """``heur_rollout``'s arguments after its first four (``buf``, ``lg``, ``deck_col``,
    ``cnt``, ``unseen``, ``sc`` with a new bot's memory; ``world_weight`` takes them but
    ``lg``), for callers outside the search such as tests and diagnostics."""
    i64 = np.int64
    sc = np.zeros((SC_ROWS, HCAP + 1))
    fresh_memory(sc)
    return (
        np.empty(HCAP, dtype=i64), np.zeros(1, dtype=i64), deck_col,
        np.zeros(CNT_SIZE, dtype=i64), np.zeros(5, dtype=i64), sc,
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def take(cnt: np.ndarray, card: int, k: int) -> None:
    """Add ``k`` (negative: remove) copies of ``card`` to the hand in ``cnt``, totals too."""
    cnt[card] += k
    cnt[C_HAND + ccolor(card)] += k
    if card < WILD and card % 13 >= SKIP:
        cnt[C_ACTS] += k


@njit(cache=True, _nrt=False)
def count_hand(st: np.ndarray, s: int, cnt: np.ndarray) -> None:
    """Seat ``s``'s hand into ``cnt`` (codes and totals)."""
    cnt[:C_DISC] = 0
    base = O_HANDS + s * HCAP
    for i in range(st[O_HS + s]):
        take(cnt, st[base + i], 1)


@njit(cache=True, _nrt=False)
def count_discards(st: np.ndarray, cnt: np.ndarray) -> None:
    """The discard pile per colour in ``cnt[C_DISC:]``, counting only the cards added
    since the last call unless the pile was reshuffled or ``cnt[C_DN]`` was set to -1
    (callers do so whenever the pile may have changed other than by plays on top: a
    new rollout, a retracted W+4, a rewound state)."""
    nd = st[S_NDISC]
    start = cnt[C_DN]
    if start < 0 or start > nd or cnt[C_DRESH] != st[S_RESH]:
        for c in range(5):
            cnt[C_DISC + c] = 0
        start = 0
    for i in range(start, nd):
        cnt[C_DISC + ccolor(st[O_DISC + i])] += 1
    cnt[C_DN] = nd
    cnt[C_DRESH] = st[S_RESH]


@njit(cache=True, _nrt=False)
def end_value(
    cnt: np.ndarray, size: int, colour: int, nxt: int, me: int, named: bool,
    hurry: bool, two: bool, unseen: np.ndarray, sc: np.ndarray, st: np.ndarray,
) -> float:  # fmt: skip
    """``HeuristicBot._end_value``: my turn ends with hand ``cnt`` (its totals: see
    ``CNT_SIZE``) and ``colour`` in force.  The memo (``sc[SC_MEMO]``) keeps the
    denial term by colour and next seat for one decision (``heur_values`` clears it)."""
    if size == 0:
        return WIN_VALUE
    wilds = cnt[C_HAND + 4]
    mine = cnt[C_HAND + colour] if 0 <= colour < 4 else 0
    f = 0.35 if named else 0.0  # follow + follow_wild, or follow
    score = f * min(mine, 3) + 0.01 * mine
    if nxt != me and 0 <= colour < 4:
        key = colour * NMAX + nxt
        deny = sc[SC_MEMO, key]
        if deny < 0.0:  # the same in every candidate of one decision
            h = st[O_HS + nxt]
            p0 = p_none(unseen[4], unseen[colour], h)
            p0 = 1 - (1 - p0) * (1 - sc[SC_MEM, 4 * nxt + colour])
            deny = 0.6 * urgency(h) * p0
            sc[SC_MEMO, key] = deny
        score += deny
    value = -1.0 * size + score
    coloured = size - wilds
    if coloured > 0:
        c0, c1, c2, c3 = cnt[C_HAND], cnt[C_HAND + 1], cnt[C_HAND + 2], cnt[C_HAND + 3]
        sq = c0 * c0 + c1 * c1 + c2 * c2
        sq += c3 * c3
        value += 2.0 * sq / (coloured * coloured)
    if not hurry:
        value += 2.0 * wilds
    if two:
        value += 0.4 * cnt[C_ACTS]
    return value


@njit(cache=True, _nrt=False)
def step_dir(st: np.ndarray, seat: int, steps: int, d: int) -> int:
    """``heuristic.next_live``: ``steps`` live seats on in direction ``d``."""
    n = st[S_N]
    for _ in range(steps):
        seat = (seat + d) % n
        for _ in range(n):
            if st[O_LIVE + seat]:
                break
            seat = (seat + d) % n
    return seat


@njit(cache=True, _nrt=False)
def chain_next(st: np.ndarray, cnt: np.ndarray, L: int, me: int, bluffing: bool) -> int:
    """The next play ``_chain_value`` tries at level ``L`` (its card; its colour in the
    frame's ``F_WILD``/``F_PEND``), or -1: the distinct cards of the hand left, in the
    order of their first copy in it, that follow; a wild once per colour."""
    fr = C_FR + F_SIZE * L
    pend = cnt[fr + F_PEND]
    if pend > 0:
        cnt[fr + F_PEND] = pend - 1
        return cnt[fr + F_WILD]
    colour = cnt[fr + F_COL]
    top = cnt[fr + F_CARD]
    hb = O_HANDS + me * HCAP
    hs = st[O_HS + me]
    no_wd4 = not bluffing and cnt[C_HAND + colour] > 0
    i = cnt[fr + F_POS]
    while i < hs:
        c = st[hb + i]
        i += 1
        # the first copy left in ``rest`` (list.remove took the first copies)
        if cnt[C_OCC + i - 1] != cnt[C_ROOT + c] - cnt[c]:
            continue
        if c < WILD:
            if c // 13 != colour and (top >= WILD or c % 13 != top % 13):
                continue
        elif c > WILD_DRAW4 or (c == WILD_DRAW4 and no_wd4):
            continue  # special wilds are judged only as a first play
        cnt[fr + F_POS] = i
        if c >= WILD:
            cnt[fr + F_WILD] = c
            cnt[fr + F_PEND] = 3
        return c
    cnt[fr + F_POS] = i
    return -1


@njit(cache=True, _nrt=False)
def play_value(
    cnt: np.ndarray, card0: int, chosen0: int, colour0: int, me: int,
    hurry: bool, two: bool, bluffing: bool, unseen: np.ndarray, sc: np.ndarray, st: np.ndarray,
) -> float:  # fmt: skip
    """``HeuristicBot._play_value(view, view.hand, (card0,), chosen0, colour0, 0)`` with
    its ``_chain_value`` search, for hand ``cnt`` (restored on return).

    The recursion runs on an explicit stack (numba cannot cache recursive functions):
    level ``L`` is the play at depth ``L``, its frame in ``cnt[C_FR:]`` and
    ``sc[SC_FRAME]``; the node count ``cnt[C_NODES]`` goes on across one decision."""
    hs = st[O_HS + me]
    d = st[S_DIR]
    fv = sc[SC_FRAME]
    L = 0
    card = card0
    chosen = chosen0
    colour = colour0
    entering = True
    result = 0.0
    while True:
        if entering:
            # _play_value at depth L: play ``card`` naming ``chosen``, ``colour`` in force
            size = hs - L - 1  # cards left after it
            if size == 0 and L == 0:
                return WIN_VALUE  # _root_value's own answer: no node counted
            cnt[C_NODES] += 1
            fr = C_FR + F_SIZE * L
            g = G_SIZE * L
            entering = False
            if size == 0:
                result = WIN_VALUE
            else:
                new_colour = chosen if card >= WILD else card // 13
                rank = card % 13 if card < WILD else -1
                bonus = 0.0
                nxt = step_dir(st, me, 1, d)
                victim = nxt
                mode = 0
                if rank == SKIP:
                    victim = nxt
                    nxt = me if two else step_dir(st, me, 2, d)
                    bonus += 0.35 * urgency(st[O_HS + victim])
                elif rank == REVERSE:
                    if two:
                        nxt = me
                        bonus += 0.35 * urgency(st[O_HS + step_dir(st, me, 1, d)])
                    else:
                        nxt = step_dir(st, me, 1, -d)
                elif rank == DRAW2:
                    victim = nxt
                    nxt = me if two else step_dir(st, me, 2, d)
                    bonus += 0.35 * 3 * urgency(st[O_HS + victim])
                elif card == WILD_DRAW4:
                    victim = nxt
                    nxt = me if two else step_dir(st, me, 2, d)
                    q = sc[SC_MEM, M_RATE + victim] if bluffing else 0.0
                    u = urgency(st[O_HS + victim])
                    if 0 <= colour < 4 and cnt[C_HAND + colour] > 0:  # a bluff
                        if st[O_HS + victim] > 2:
                            result = NEVER  # a bluff pays only to stop a player about to go out
                            mode = -1
                        else:
                            mode = 1
                            fv[g + G_Q] = q
                            fv[g + G_TERM] = 0.35 * 5 * u
                    else:
                        bonus += 0.35 * (5 + 2 * q) * u
                if mode >= 0:
                    named = card >= WILD
                    take(cnt, card, -1)
                    cnt[fr + F_CARD] = card
                    cnt[fr + F_COL] = new_colour
                    cnt[fr + F_MODE] = mode
                    fv[g + G_BONUS] = bonus
                    if mode == 1:
                        # challenged: I draw 4 and the victim plays on
                        caught = end_value(cnt, size, new_colour, victim, me, True, hurry, two,
                                           unseen, sc, st)  # fmt: skip
                        fv[g + G_CAUGHT] = caught - 4 * 1.0
                    # _chain_value(rest, new_colour, card, nxt, L, named)
                    if nxt != me:
                        cv = end_value(cnt, size, new_colour, nxt, me, named, hurry, two,
                                       unseen, sc, st)  # fmt: skip
                    else:
                        opp = step_dir(st, me, 1, d)
                        stop = end_value(cnt, size, new_colour, opp, me, named, hurry, two,
                                         unseen, sc, st)  # fmt: skip
                        best = stop - 1.0 - 0.6
                        if cnt[C_NODES] > SEARCH_NODES or L >= CHAIN_DEPTH:
                            cv = max(best, stop - 0.5)
                        else:
                            fv[g + G_BEST] = best
                            cnt[fr + F_POS] = 0
                            cnt[fr + F_PEND] = 0
                            c = chain_next(st, cnt, L, me, bluffing)
                            if c >= 0:
                                card = c
                                chosen = 0 if c >= WILD else -1
                                colour = new_colour
                                L += 1
                                entering = True
                                continue
                            cv = best
                    result = _finish(cnt, fv, L, cv)
        # ``result`` is the value of the play at level L: the chain at L - 1 takes it
        if L == 0:
            return result
        L -= 1
        g = G_SIZE * L
        if result > fv[g + G_BEST]:
            fv[g + G_BEST] = result
        c = chain_next(st, cnt, L, me, bluffing)
        if c >= 0:
            fr = C_FR + F_SIZE * L
            card = c
            chosen = 3 - cnt[fr + F_PEND] if c >= WILD else -1
            colour = cnt[fr + F_COL]
            L += 1
            entering = True
            continue
        result = _finish(cnt, fv, L, fv[g + G_BEST])


@njit(cache=True, _nrt=False)
def _finish(cnt: np.ndarray, fv: np.ndarray, L: int, cv: float) -> float:
    """The end of ``_play_value`` at level ``L`` once its chain is worth ``cv``: the
    card goes back into the hand."""
    fr = C_FR + F_SIZE * L
    g = G_SIZE * L
    take(cnt, cnt[fr + F_CARD], 1)
    if cnt[fr + F_MODE] == 1:
        q = fv[g + G_Q]
        return q * fv[g + G_CAUGHT] + (1 - q) * (cv + fv[g + G_TERM])
    return fv[g + G_BONUS] + cv


@njit(cache=True, _nrt=False)
def count_unseen(
    st: np.ndarray, s: int, deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray
) -> None:
    """Player ``s``'s hand into ``cnt`` (``count_hand``), the discard pile brought up to
    date (``count_discards``), and what ``s`` has not seen, as the heuristic counts it:
    the deck less that hand and the pile, per colour in ``unseen[:4]`` and in all in
    ``unseen[4]``.  The one place both the rollout's plays and its W+4 answers get it."""
    count_hand(st, s, cnt)
    count_discards(st, cnt)
    for c in range(5):
        unseen[c] = deck_col[c] - cnt[C_HAND + c] - cnt[C_DISC + c]
    unseen[4] = unseen[0] + unseen[1] + unseen[2] + unseen[3] + unseen[4]


@njit(cache=True, _nrt=False)
def heur_values(
    st: np.ndarray, R: np.ndarray, s: int, buf: np.ndarray, k: int,
    deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray, cards: np.ndarray,
    cols: np.ndarray, vals: np.ndarray, sc: np.ndarray,
) -> int:  # fmt: skip
    """The heuristic's value of each distinct play among ``buf[:k]`` in the order of
    ``Game.legal_actions`` (by card; a wild with its best colour, the first of equals),
    then drawing (card -1) last: ``cards``, ``cols``, ``vals`` hold them; returns how
    many.  ``sc`` holds the memory and is scratch for the rest."""
    sc[SC_MEMO, : 4 * NMAX] = -1.0
    n = st[S_N]
    hs = st[O_HS + s]
    count_unseen(st, s, deck_col, cnt, unseen)
    hb = O_HANDS + s * HCAP
    cnt[C_ROOT : C_ROOT + 57] = 0
    for i in range(hs):
        c = st[hb + i]
        cnt[C_OCC + i] = cnt[C_ROOT + c]
        cnt[C_ROOT + c] += 1
    cnt[C_NODES] = 0
    others = 99
    for t in range(n):
        if t != s and st[O_LIVE + t] and st[O_HS + t] < others:
            others = st[O_HS + t]
    hurry = others <= 1 or hs <= 3
    two = st[S_NLIVE] == 2
    bluffing = R[R_BLUFF] != 0
    colour = st[S_COLOR]
    playable = 0  # the distinct playable cards, as a bit mask: ascending, as legal lists them
    for i in range(k):
        playable |= 1 << buf[i]
    m = 0
    for c in range(57):
        if not (playable >> c) & 1:
            continue
        if c >= WILD:
            best_v = -1e18
            best_col = -1
            for col in range(4):
                v = play_value(cnt, c, col, colour, s, hurry, two, bluffing, unseen, sc, st)
                if v > best_v:
                    best_v = v
                    best_col = col
            cards[m] = c
            cols[m] = best_col
            vals[m] = best_v
        else:
            cards[m] = c
            cols[m] = -1
            vals[m] = play_value(cnt, c, -1, colour, s, hurry, two, bluffing, unseen, sc, st)
        m += 1
    nxt = step_dir(st, s, 1, st[S_DIR])
    cards[m] = -1
    cols[m] = -1
    vals[m] = end_value(cnt, hs, colour, nxt, s, False, hurry, two, unseen, sc, st) - 1.0 - 0.6
    return m + 1


@njit(cache=True, _nrt=False)
def heur_choose(
    st: np.ndarray, R: np.ndarray, s: int, buf: np.ndarray, k: int,
    deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray, sc: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """``HeuristicBot``'s play among ``buf[:k]`` (card, colour), or (-1, -1) to draw,
    for a bot whose memory is ``sc[SC_MEM]``.  ``sc``: ``SC_ROWS`` rows of ``HCAP + 1``."""
    cards = sc[0]
    cols = sc[1]
    vals = sc[2]
    m = heur_values(st, R, s, buf, k, deck_col, cnt, unseen, cards, cols, vals, sc)
    best = 0
    for i in range(1, m):  # the first best play; drawing only if strictly better
        if vals[i] > vals[best]:
            best = i
    return np.int64(cards[best]), np.int64(cols[best])


@njit(cache=True)
def play_likelihood(
    st: np.ndarray, R: np.ndarray, s: int, card: int, temp: float, buf: np.ndarray,
    deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray, sc: np.ndarray,
) -> float:  # fmt: skip
    """P(player ``s`` plays ``card`` now), if it chose by the heuristic's values with
    softmax noise of temperature ``temp``."""
    k = playable_cards(st, R, s, buf)
    cards = sc[0]
    cols = sc[1]
    vals = sc[2]
    m = heur_values(st, R, s, buf, k, deck_col, cnt, unseen, cards, cols, vals, sc)
    top = -1e18
    for i in range(m):
        if vals[i] > top:
            top = vals[i]
    total = 0.0
    mine = 0.0
    for i in range(m):
        e = np.exp((vals[i] - top) / temp)
        total += e
        if cards[i] == card:
            mine = e
    return mine / total


@njit(cache=True)
def world_weight(
    world: np.ndarray, R: np.ndarray, inf: np.ndarray, temp: float, floor: float,
    sc_st: np.ndarray, buf: np.ndarray, deck_col: np.ndarray, cnt: np.ndarray,
    unseen: np.ndarray, sc: np.ndarray,
) -> float:  # fmt: skip
    """How likely a dealt world makes the opponents' plays since each last drew.

    ``inf`` = [records, then per record: seat, card, colour before, discard size
    before, direction before, m, the m cards that seat has played since (that card
    first), hand sizes before...].  For each record the world is rewound to that
    moment in ``sc_st`` (the cards back in the hand, the later discards off the pile)
    and the play scored by ``play_likelihood``; the weight is the product over the
    records, each factor kept above ``floor`` so that a world the model finds
    unlikely stays alive."""
    n = world[S_N]
    w = 1.0
    i = 1
    for _ in range(inf[0]):
        o = inf[i]
        card = inf[i + 1]
        m = inf[i + 5]
        sc_st[:] = world
        hs = sc_st[O_HS + o]
        base = O_HANDS + o * HCAP
        for j in range(m):
            sc_st[base + hs + j] = inf[i + 6 + j]
        sc_st[S_COLOR] = inf[i + 2]
        sc_st[S_NDISC] = inf[i + 3]
        sc_st[S_DIR] = inf[i + 4]
        i += 6 + m
        for t in range(n):
            sc_st[O_HS + t] = inf[i + t]
        i += n
        sc_st[S_CUR] = o
        sc_st[S_PHASE] = P_PLAY
        cnt[C_DN] = -1  # a rewound discard pile
        p = play_likelihood(sc_st, R, o, card, temp, buf, deck_col, cnt, unseen, sc)
        w *= floor + (1.0 - floor) * p
    return w


@njit(cache=True, _nrt=False)
def heur_challenges(
    st: np.ndarray, s: int, deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray
) -> bool:
    """``HeuristicBot``'s answer to the W+4 just played on ``s``: challenge when
    P(bluff) is above 1/3 under its prior that a holder of the replaced colour plays
    a W+4 half as often as a non-holder, that is when the player holds that colour
    with probability above 1/2, judged from ``s``'s hand and the discard pile (not
    from the heuristic's reading of voids, which rollouts leave out)."""
    by = st[S_WD4BY]
    prev = st[S_WD4PREV]
    if by < 0 or prev < 0 or prev > 3:
        return False
    count_unseen(st, s, deck_col, cnt, unseen)
    holds = 1.0 - p_none(unseen[4], unseen[prev], st[O_HS + by])
    denom = 0.5 * holds + (1.0 - holds)
    return denom > 0.0 and 0.5 * holds / denom > 1.0 / 3.0


@njit(cache=True)
def heur_rollout(
    st: np.ndarray, R: np.ndarray, seat: int, max_steps: int, buf: np.ndarray,
    lg: np.ndarray, deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray,
    sc: np.ndarray, chal: int,
) -> float:  # fmt: skip
    """``kernel.rollout_value`` with heuristic-scored plays: 1 if ``seat`` (or its team)
    wins the round, a straight-line judgement of hand sizes if cut off."""
    steps = 0
    cnt[C_DN] = -1  # a new rollout: its discard pile is not the last one's
    while True:
        s = rollout_turn(st, R, lg)
        if s < 0 or steps >= max_steps:
            break
        steps += 1
        phase = st[S_PHASE]
        if phase == P_PLAY:
            k = playable_cards(st, R, s, buf)
            if k == 0:
                draw(st, R, s, lg)
            else:
                card, col = heur_choose(st, R, s, buf, k, deck_col, cnt, unseen, sc)
                if card < 0:
                    draw(st, R, s, lg)
                else:
                    play(st, R, s, card, col, st[O_HS + s] == 2, np.int64(-1), lg)
        elif phase == P_DRAWN:
            card = st[S_DRAWN]
            color = best_color(st, s) if card >= WILD else -1
            play(st, R, s, card, color, st[O_HS + s] == 2, np.int64(-1), lg)
        elif phase == P_CHALLENGE:
            # ``chal`` 1: sensible players catch nearly every bluff and let a legal W+4
            # pass (the heuristic caught 19 of 19 ismcts bluffs); 2: the heuristic's
            # own rule, which also challenges most legal ones (138 of 181 in 120
            # four-player games); 0: never, which makes bluffing free
            if chal == 2:
                if heur_challenges(st, s, deck_col, cnt, unseen):
                    challenge(st, R, s, lg)
                else:
                    accept(st, R, s, lg)
            elif chal and st[S_GUILTY]:
                challenge(st, R, s, lg)
            else:
                accept(st, R, s, lg)
            cnt[C_DN] = -1  # a caught W+4 may go back to its player's hand
        elif phase == P_START_COLOR:
            choose_color(st, s, best_color(st, s), np.int64(-1), lg)
        else:
            return -1.0
    winner = st[S_RWIN]
    teams = R[R_SCORING] == SC_TEAMS
    if winner < 0:
        return size_value(st, seat)
    if teams:
        return 1.0 if winner % 2 == seat % 2 else 0.0
    return 1.0 if winner == seat else 0.0


TILT_FEATURES = 5  # hand_features' length


@njit(cache=True)
def hand_features(st: np.ndarray, t: int, out: np.ndarray) -> None:
    """What the sampler gets wrong about a sensible player's hand (docs/bots.md, fifth
    pass): its Skip/Reverse/Draw Two cards, whether it holds the colour in force,
    whether it holds the top card's rank in another colour, how many of the colour
    in force, its wilds."""
    colour = st[S_COLOR]
    top = st[O_DISC + st[S_NDISC] - 1] if st[S_NDISC] > 0 else WILD
    base = O_HANDS + t * HCAP
    acts = 0
    same = 0
    rank = 0
    wilds = 0
    for i in range(st[O_HS + t]):
        c = st[base + i]
        if c >= WILD:
            wilds += 1
            continue
        if c % 13 >= SKIP:
            acts += 1
        if c // 13 == colour:
            same += 1
        elif top < WILD and c % 13 == top % 13:
            rank = 1
    out[0] = acts
    out[1] = 1.0 if same > 0 else 0.0
    out[2] = rank
    out[3] = same
    out[4] = wilds


@njit(cache=True)
def tilt_weight(st: np.ndarray, seat: int, tilt: np.ndarray, f: np.ndarray) -> float:
    """exp(tilt[row] . features) over the other live seats' hands: the sampler's worlds
    reweighed toward what sensible players' hands look like.  ``tilt`` has a row for
    the next seat to play after ``seat``, one for the seats in between and one for
    the seat that plays just before it (whose last play set the colour in force); the
    rows are read in the direction of play, over live seats."""
    live = st[S_NLIVE]
    t = seat
    z = 0.0
    for j in range(1, live):
        t = step(st, t, 1)
        row = 0 if j == 1 else (2 if j == live - 1 else 1)
        hand_features(st, t, f)
        for i in range(TILT_FEATURES):
            z += tilt[row, i] * f[i]
    return np.exp(z)


@njit(cache=True)
def named_weight(st: np.ndarray, named: np.ndarray, named_w: float) -> float:
    """exp(named_w * the cards of its named colour in each hand of ``named``): a
    sensible player names the colour it holds most, which a uniform deal does not
    know (docs/bots.md, seventh pass)."""
    z = 0.0
    for t in range(named.shape[0]):
        col = named[t]
        if col < 0:
            continue
        base = O_HANDS + t * HCAP
        for i in range(st[O_HS + t]):
            if ccolor(st[base + i]) == col:
                z += named_w
    return np.exp(z)


@njit(cache=True)
def search_worlds_h(
    st0: np.ndarray, R: np.ndarray, rng: np.ndarray, seat: int, acts: np.ndarray,
    pool: np.ndarray, need: np.ndarray, banned: np.ndarray, free: np.ndarray,
    vseats: np.ndarray, worlds: int, max_steps: int, p: int,
    sums: np.ndarray, sq: np.ndarray, inf: np.ndarray, temp: float, floor: float,
    wacc: np.ndarray, chal: int, tilt: np.ndarray, named: np.ndarray, named_w: float,
) -> None:  # fmt: skip
    """``search_worlds`` with the heuristic-scored rollout players (``heur_rollout``).

    With ``inf[0] > 0`` each world's paired differences are weighted by
    ``world_weight`` (the likelihood of the opponents' recent plays in that world);
    ``wacc`` sums the weights and their squares.  Otherwise every weight is 1.  A
    nonzero ``tilt`` multiplies each world's weight by ``tilt_weight``, and a nonzero
    ``named_w`` by ``named_weight`` (``named[t]``: the colour seat ``t`` named, or -1)."""
    k = acts.shape[0]
    base = st0.copy()
    st = st0.copy()
    sc_st = st0.copy()
    work = np.empty(max(pool.shape[0], 1), dtype=np.int64)
    out = np.zeros(k, dtype=np.float64)
    buf = np.empty(HCAP, dtype=np.int64)
    lg = np.zeros(1, dtype=np.int64)
    cnt = np.zeros(CNT_SIZE, dtype=np.int64)
    unseen = np.zeros(5, dtype=np.int64)
    sc = np.zeros((SC_ROWS, HCAP + 1), dtype=np.float64)
    fresh_memory(sc)  # every rollout player is a new heuristic bot
    deck_col = np.zeros(5, dtype=np.int64)
    for i in range(R[R_DECKSIZE]):
        deck_col[ccolor(R[O_DECK + i])] += 1
    tilted = False
    for r in range(tilt.shape[0]):
        for i in range(tilt.shape[1]):
            if tilt[r, i] != 0.0:
                tilted = True
    feats = np.zeros(TILT_FEATURES, dtype=np.float64)
    for _ in range(worlds):
        deal_world(base, st0, rng, pool, work, need, banned, free, vseats)
        w = 1.0
        if inf[0] > 0:
            w = world_weight(base, R, inf, temp, floor, sc_st, buf, deck_col, cnt, unseen, sc)
        if tilted:
            w *= tilt_weight(base, seat, tilt, feats)
        if named_w != 0.0:
            w *= named_weight(base, named, named_w)
        wacc[0] += w
        wacc[1] += w * w
        seed = rnext(rng)
        for j in range(k):
            copy_live(st, base)
            st[S_RNG] = np.int64(seed)
            st[S_LOGON] = 0
            apply_root(st, R, seat, acts[j, 0], acts[j, 1], acts[j, 2], acts[j, 3],
                       acts[j, 4], lg)  # fmt: skip
            out[j] = heur_rollout(st, R, seat, max_steps, buf, lg, deck_col, cnt, unseen, sc,
                                  chal)  # fmt: skip
        b = out[p]
        for j in range(k):
            d = out[j] - b
            sums[j] += w * d
            sq[j] += w * d * d
