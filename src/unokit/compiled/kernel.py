"""The compiled engine: unokit's rules and the fast players, in numba ``njit`` code.

This module is a port of ``unokit.engine.game`` (the reference engine) restricted to
what the simulation's fast players (``random``, ``careless``, ``reference``) do, with
the players' decisions of ``unokit.sim.driver`` in the same loop.  Every function here
mirrors a method of ``Game`` of the same name; where they differ in shape (arrays
instead of lists), the comments say so.  The reference engine stays the source of
truth: ``unokit.compiled.check_game`` replays the compiled engine's games through it.

State is one flat ``int64`` array (``st``) with the layout below, so a game is copied
with ``st.copy()``.  Rules are another flat array (``R``), the players' parameters a
``float64`` array (``P``); the random generator (SplitMix64) lives in the state
(``S_RNG``).  A game may write a log of everything a record needs (``lg``; its place
in ``st[S_LOGPOS]``, on when ``st[S_LOGON]``):

    tag 1  action:   seat, kind, card, color, target, uno
    tag 2  shuffle:  length, then the cards top first (RECORD.md's ``shuffles``)
    tag 3  launch:   cards fired
    tag 4  round:    dealer, deck length, then the deck top first

Nothing here is imported unless numba is installed (``unokit.compiled``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import cgutils
from numba.extending import intrinsic

# ---------------------------------------------------------------- cards ---------
WILD = 52
WILD_DRAW4 = 53
WILD_SWAP = 54
WILD_SHUFFLE = 55
WILD_CUSTOM = 56
NCARDS = 57
SKIP = 10
REVERSE = 11
DRAW2 = 12

# ---------------------------------------------------------------- actions -------
A_PLAY, A_DRAW, A_KEEP, A_UNO, A_CATCH, A_CHALLENGE, A_ACCEPT, A_COLOR = range(8)

# ---------------------------------------------------------------- phases --------
P_PLAY, P_DRAWN, P_START_COLOR, P_CHALLENGE, P_ANSWER, P_ROUND_OVER, P_GAME_OVER = range(7)

# ---------------------------------------------------------------- state layout --
NMAX = 10
HCAP = 112  # the largest deck: a hand can never hold more
S_COLOR = 0
S_DIR = 1
S_CUR = 2
S_PHASE = 3
S_DRAWN = 4
S_VULN = 5
S_WD4BY = 6
S_WD4PREV = 7
S_GUILTY = 8
S_PEND = 9
S_PENDTOT = 10
S_RWIN = 11
S_GWIN = 12
S_RIDX = 13
S_DEALER = 14
S_RESH = 15
S_N = 16
S_NLIVE = 17
S_NPILE = 18
S_NDISC = 19
S_RNG = 20  # the SplitMix64 state, as int64 bits
S_LOGPOS = 21  # words of the log written
S_LOGOVF = 22  # 1 if the log ran out of room
S_LOGON = 23  # 1 to write the log
O_SCORES = 32
O_LIVE = O_SCORES + NMAX
O_HS = O_LIVE + NMAX
O_HANDS = 64
O_PILE = O_HANDS + NMAX * HCAP
O_DISC = O_PILE + HCAP
O_TMP = O_DISC + HCAP  # scratch: a hand being swapped, hands being passed
O_ORDER = O_TMP + NMAX * HCAP  # scratch for start_round: the shuffled deck, the seats
STATE_SIZE = O_ORDER + HCAP + NMAX

# ---------------------------------------------------------------- rules layout --
R_N = 0
R_DECKSIZE = 1
R_HAND = 2
R_TARGET = 3
R_SCORING = 4  # 0 standard, 1 low, 2 elimination, 3 teams, 4 first-out
R_UNOPEN = 5
R_FALSEPEN = 6
R_BLUFF = 7
R_RETRACT = 8
R_UNTIL = 9
R_FORCE = 10
R_STACK = 11  # 0 off, 1 pass, 2 progressive
R_S4ON2 = 12
R_SEVENZERO = 13
R_CUSTOM = 14  # index in unokit.rules.CUSTOM_RULES
R_LAUNCHER = 15
R_NUMSTART = 16
R_ROUNDS_ONLY = 17
R_REACTIVE = 18  # some seat may forget UNO (the kernel asks ``who_acts`` either way)
R_WSUM = 19
O_WEIGHTS = 20  # 13 launcher weights
R_MAXDEC = 35  # decisions per round before a game counts as stalled (MAX_DECISIONS)
R_JUMPIN = 36  # R-VAR-JUMPIN: seats holding the top card's twin are asked out of turn
O_POINTS = 40  # 57 card points
O_DECK = 100  # the deck, canonical order
RULES_SIZE = O_DECK + HCAP

SC_STANDARD, SC_LOW, SC_ELIM, SC_TEAMS, SC_FIRSTOUT = range(5)
CU_NONE, CU_NEXT3, CU_OTHERS2, CU_DISCWILDS, CU_EXTRA, CU_DISCCOLOR = range(6)

# ---------------------------------------------------------------- players -------
# P[3 * seat + 0]: chance of challenging a W+4; +1: catches (1.0/0.0); +2: chance of
# forgetting UNO
MAX_DECISIONS = 200_000

# ---------------------------------------------------------------- game results --
G_WINNER = 0
G_POS = 1
G_TURNS = 2
G_ROUNDS = 3
G_RESH = 4
G_CHAL = 5
G_CHALWON = 6
G_CATCH = 7
G_DRAWTURNS = 8
G_STALLED = 9
G_FIRSTDEALER = 10
G_SIZE = 11


# Card colour and rank by arithmetic, not by table: a global array costs a reference
# count on every use in numba, and these are on every hot path.
@njit(cache=True, _nrt=False)
def ccolor(c: int) -> int:
    return c // 13 if c < WILD else 4


@njit(cache=True, _nrt=False)
def crank(c: int) -> int:
    return c % 13 if c < WILD else c - 39


# ================================================================ arrays =========
# numba counts references to an array every time it passes between functions (a call
# to its runtime, NRT, per array per call, even for a view that owns nothing), and on
# this engine's hot paths that cost more than the rules.  So every function that
# allocates nothing is compiled without the runtime (numba's ``_nrt=False``, an
# option with a leading underscore: not in numba's documentation, tested with numba
# 0.68; without it the kernel computes the same, more slowly): arrays pass between
# them as plain pointers.  Only the entry points (``run_games``,
# ``play_game_entry``, ``search_world``, ``bare_rounds``) and the search's helpers
# allocate; they own the arrays and keep them alive until they return.  The small
# helpers of every turn (the random numbers, the log's check, seats, hands, what is
# playable) and the two moves of most turns (``play``, ``draw``) are inlined into
# their callers (``inline="always"``): a numba call passes each array as seven words.
#
# A function without ``_nrt`` takes its caller's setting when first compiled (numba's
# flags inherit), so whatever compiled code without the runtime calls is marked
# ``_nrt=False`` itself and allocates nothing: then an allocation there fails on every
# first compilation instead of on some (an empty numba cache, issue 45).
# ``tests/test_compiled_cold.py`` compiles every entry point on an empty cache.


@intrinsic
def unowned(typingctx, arr):  # type: ignore[no-untyped-def]
    """A view of ``arr`` without its reference count (numba's meminfo).

    The entry points hand these views to everything below them and keep the owning
    arrays alive until they return, so that no count is taken on the way down.
    """

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        ary = context.make_array(sig.args[0])(context, builder, value=args[0])
        out = context.make_array(sig.return_type)(context, builder)
        out.meminfo = cgutils.get_null_value(ary.meminfo.type)
        out.parent = cgutils.get_null_value(ary.parent.type)
        out.nitems = ary.nitems
        out.itemsize = ary.itemsize
        out.data = ary.data
        out.shape = ary.shape
        out.strides = ary.strides
        return out._getvalue()

    return arr(arr), codegen


# ================================================================ random =========
@njit(cache=True, _nrt=False, inline="always")
def rnext(st: np.ndarray) -> np.uint64:
    """SplitMix64: the next 64 random bits."""
    z = np.uint64(st[S_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    st[S_RNG] = np.int64(z)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False, inline="always")
def rand(st: np.ndarray) -> float:
    """A float in [0, 1), 53 random bits."""
    return float(rnext(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False, inline="always")
def below(st: np.ndarray, k: int) -> int:
    return int(rand(st) * k)


@njit(cache=True, _nrt=False)
def seed_game(st: np.ndarray, base: np.uint64, index: int) -> None:
    """The generator of game ``index``: a function of the run's base seed and the index."""
    st[S_RNG] = np.int64(base ^ (np.uint64(index) * np.uint64(0xD1342543DE82EF95)))
    rnext(st)
    rnext(st)


# ================================================================ log ============
@njit(cache=True, _nrt=False, inline="always")
def log_room(st: np.ndarray, lg: np.ndarray, k: int) -> bool:
    """Whether logging is on and ``k`` more words fit; marks an overflow otherwise."""
    if st[S_LOGON] == 0:
        return False
    if st[S_LOGPOS] + k > lg.shape[0]:
        st[S_LOGOVF] = 1
        return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def log_action(
    st: np.ndarray, lg: np.ndarray, seat: int, kind: int, card: int, color: int, target: int,
    uno: int,
) -> None:  # fmt: skip
    if log_room(st, lg, np.int64(7)):
        p = st[S_LOGPOS]
        lg[p] = 1
        lg[p + 1] = seat
        lg[p + 2] = kind
        lg[p + 3] = card
        lg[p + 4] = color
        lg[p + 5] = target
        lg[p + 6] = uno
        st[S_LOGPOS] = p + 7


# ================================================================ seats ==========
@njit(cache=True, _nrt=False, inline="always")
def step(st: np.ndarray, seat: int, steps: int) -> int:
    n = st[S_N]
    d = st[S_DIR]
    if st[S_NLIVE] == n:
        seat += steps * d  # then into 0 .. n - 1 as ``% n`` would, without a division
        while seat >= n:
            seat -= n
        while seat < 0:
            seat += n
        return seat
    for _ in range(steps):
        seat = (seat + d) % n
        while st[O_LIVE + seat] == 0:
            seat = (seat + d) % n
    return seat


@njit(cache=True, _nrt=False)
def clockwise(st: np.ndarray, seat: int) -> int:
    n = st[S_N]
    seat = (seat + 1) % n
    while st[O_LIVE + seat] == 0:
        seat = (seat + 1) % n
    return seat


# ================================================================ hands ==========
@njit(cache=True, _nrt=False, inline="always")
def hand_append(st: np.ndarray, seat: int, card: int) -> None:
    k = st[O_HS + seat]
    st[O_HANDS + seat * HCAP + k] = card
    st[O_HS + seat] = k + 1


@njit(cache=True, _nrt=False, inline="always")
def hand_remove(st: np.ndarray, seat: int, card: int) -> None:
    """``list.remove``: the first copy goes, the order of the rest stays."""
    base = O_HANDS + seat * HCAP
    k = st[O_HS + seat]
    gone = 0  # 1 from the first copy of ``card`` on: the cards after it move down one
    for i in range(k):
        c = st[base + i]
        st[base + i - gone] = c
        gone |= c == card
    st[O_HS + seat] = k - 1


@njit(cache=True, _nrt=False, inline="always")
def holds_color(st: np.ndarray, seat: int, color: int) -> bool:
    base = O_HANDS + seat * HCAP
    for i in range(st[O_HS + seat]):  # noqa: SIM110 (numba: plain loops and comparisons)
        if ccolor(st[base + i]) == color:
            return True
    return False


@njit(cache=True, _nrt=False)
def hand_points(st: np.ndarray, R: np.ndarray, seat: int) -> int:
    base = O_HANDS + seat * HCAP
    t = 0
    for i in range(st[O_HS + seat]):
        t += R[O_POINTS + st[base + i]]
    return t


# ================================================================ drawing ========
@njit(cache=True, _nrt=False)
def shuffle_seg(st: np.ndarray, start: int, m: int, lg: np.ndarray) -> None:
    """Shuffle ``st[start:start+m]`` (top at the end) and log it top first."""
    for i in range(m - 1, 0, -1):
        j = below(st, i + 1)
        t = st[start + i]
        st[start + i] = st[start + j]
        st[start + j] = t
    if log_room(st, lg, m + 2):
        p = st[S_LOGPOS]
        lg[p] = 2
        lg[p + 1] = m
        for i in range(m):
            lg[p + 2 + i] = st[start + m - 1 - i]
        st[S_LOGPOS] = p + 2 + m


@njit(cache=True, _nrt=False)
def refill(st: np.ndarray, R: np.ndarray, lg: np.ndarray) -> bool:
    """R-TURN-6 (``Game._refill``): the discards but the top become the draw pile.

    While a Wild Draw Four that a guilty verdict would take back waits for its
    challenge (``wd4_guilty="retract"``), the card under it stays too.
    """
    nd = st[S_NDISC]
    keep = 2 if st[S_WD4BY] >= 0 and R[R_RETRACT] else 1
    if nd <= keep:
        return False
    m = nd - keep
    np_ = st[S_NPILE]
    for i in range(m):
        st[O_PILE + np_ + i] = st[O_DISC + i]
    np_ += m
    st[S_NPILE] = np_
    for i in range(keep):
        st[O_DISC + i] = st[O_DISC + m + i]
    st[S_NDISC] = keep
    shuffle_seg(st, np.int64(O_PILE), np_, lg)
    st[S_RESH] += 1
    return True


@njit(cache=True, _nrt=False)
def launch(st: np.ndarray, R: np.ndarray, lg: np.ndarray) -> int:
    """R-VAR-ATTACK: one press of the launcher."""
    x = rand(st) * R[R_WSUM]
    k = 0
    acc = R[O_WEIGHTS]
    while k < 12 and x >= acc:  # random.choices: the first cumulative weight above x
        k += 1
        acc += R[O_WEIGHTS + k]
    if log_room(st, lg, np.int64(2)):
        p = st[S_LOGPOS]
        lg[p] = 3
        lg[p + 1] = k
        st[S_LOGPOS] = p + 2
    return k


@njit(cache=True, _nrt=False)
def draw_cards(
    st: np.ndarray, R: np.ndarray, seat: int, count: int, lg: np.ndarray,
) -> int:  # fmt: skip
    """``Game._draw``: up to ``count`` cards to ``seat``; how many came."""
    if R[R_LAUNCHER]:
        presses = count
        count = 0
        for _ in range(presses):
            count += launch(st, R, lg)
    got = 0
    for _ in range(count):
        if st[S_NPILE] == 0 and not refill(st, R, lg):
            break
        np_ = st[S_NPILE] - 1
        st[S_NPILE] = np_
        hand_append(st, seat, st[O_PILE + np_])
        got += 1
    return got


@njit(cache=True, _nrt=False, inline="always")
def hit(st: np.ndarray, victim: int, card: int, total: int) -> None:
    st[S_PHASE] = P_ANSWER
    st[S_CUR] = victim
    st[S_PEND] = card
    st[S_PENDTOT] = total


# ================================================================ queries ========
@njit(cache=True, _nrt=False, inline="always")
def matches(st: np.ndarray, card: int) -> bool:
    if card >= WILD:
        return True
    if ccolor(card) == st[S_COLOR]:
        return True
    trank = crank(st[O_DISC + st[S_NDISC] - 1])
    return trank < 13 and crank(card) == trank


@njit(cache=True, _nrt=False, inline="always")
def can_play(st: np.ndarray, R: np.ndarray, seat: int, card: int) -> bool:
    if not matches(st, card):
        return False
    if card == WILD_DRAW4 and R[R_BLUFF] == 0:
        return not holds_color(st, seat, st[S_COLOR])
    return True


# Card sets as bit masks (card ids are below 64): a card is playable when its bit is
# in the mask of what the top card and the colour accept.
WILD_BITS = ((1 << NCARDS) - 1) ^ ((1 << WILD) - 1)  # the wild cards, 52..56
COLOR_BITS = (1 << 13) - 1  # one colour's 13 cards, shifted by 13 * colour
RANK_BITS = 1 | (1 << 13) | (1 << 26) | (1 << 39)  # one rank in the four colours


@njit(cache=True, inline="always", _nrt=False)
def accepted(st: np.ndarray) -> int:
    """The cards that ``matches`` accepts now, as a bit mask of card ids."""
    ok = WILD_BITS
    color = st[S_COLOR]
    if color >= 0:
        ok |= COLOR_BITS << (13 * color)
    top = st[O_DISC + st[S_NDISC] - 1]
    if top < WILD:
        ok |= RANK_BITS << (top % 13)
    return ok


@njit(cache=True, _nrt=False, inline="always")
def playable_cards(st: np.ndarray, R: np.ndarray, seat: int, out: np.ndarray) -> int:
    """``Game.playable_cards``: playable cards in hand order, repeats kept; the count."""
    base = O_HANDS + seat * HCAP
    ok = accepted(st)
    k = 0
    held = 0  # the cards in the hand, as a bit mask
    for i in range(st[O_HS + seat]):
        c = st[base + i]
        out[k] = c  # kept only if playable: no branch on the card
        k += (ok >> c) & 1
        held |= 1 << c
    color = st[S_COLOR]
    if (
        R[R_BLUFF] == 0
        and (held >> WILD_DRAW4) & 1
        and color >= 0
        and held & (COLOR_BITS << (13 * color))
    ):
        j = 0
        for i in range(k):
            if out[i] != WILD_DRAW4:
                out[j] = out[i]
                j += 1
        k = j
    return k


@njit(cache=True, _nrt=False)
def answers(st: np.ndarray, R: np.ndarray, seat: int, out: np.ndarray) -> int:
    """``Game.answers``: the distinct cards that answer a hit, sorted; the count."""
    base = O_HANDS + seat * HCAP
    pend = st[S_PEND]
    progressive = R[R_STACK] == 2
    seen = 0  # the answering cards, as a bit mask of card ids
    for i in range(st[O_HS + seat]):
        c = st[base + i]
        rank = crank(c)
        ok = False
        if pend == WILD_DRAW4:
            ok = (progressive and c == WILD_DRAW4) or (
                not progressive and rank == DRAW2 and ccolor(c) == st[S_COLOR]
            )
        elif crank(pend) == DRAW2:
            ok = (rank == DRAW2 and c < WILD) or (
                progressive and c == WILD_DRAW4 and R[R_S4ON2] != 0
            )
        elif c < WILD and rank == crank(pend):
            ok = True
        if ok:
            seen |= 1 << c
    if (seen >> WILD_DRAW4) & 1 and R[R_BLUFF] == 0 and holds_color(st, seat, st[S_COLOR]):
        seen ^= 1 << WILD_DRAW4
    k = 0
    for c in range(NCARDS):
        if (seen >> c) & 1:
            out[k] = c
            k += 1
    return k


# ================================================================ effects ========
@njit(cache=True, _nrt=False)
def swap(st: np.ndarray, a: int, b: int) -> None:
    """R-ACT-SWAP, R-VAR-SEVENZERO: two seats exchange hands."""
    ba = O_HANDS + a * HCAP
    bb = O_HANDS + b * HCAP
    ka = st[O_HS + a]
    kb = st[O_HS + b]
    for i in range(ka):
        st[O_TMP + i] = st[ba + i]
    for i in range(kb):
        st[ba + i] = st[bb + i]
    for i in range(ka):
        st[bb + i] = st[O_TMP + i]
    st[O_HS + a] = kb
    st[O_HS + b] = ka


@njit(cache=True, _nrt=False)
def rotate(st: np.ndarray) -> None:
    """R-VAR-SEVENZERO: every hand passes to the next player in the direction of play."""
    n = st[S_N]
    sizes = O_ORDER  # the hands' sizes, at st[sizes:sizes + n] (start_round's scratch)
    for s in range(n):
        st[sizes + s] = st[O_HS + s]
        for i in range(st[sizes + s]):
            st[O_TMP + s * HCAP + i] = st[O_HANDS + s * HCAP + i]
    for s in range(n):
        if st[O_LIVE + s]:
            t = step(st, s, np.int64(1))
            for i in range(st[sizes + s]):
                st[O_HANDS + t * HCAP + i] = st[O_TMP + s * HCAP + i]
            st[O_HS + t] = st[sizes + s]


@njit(cache=True, _nrt=False)
def shuffle_hands(st: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """R-ACT-SHUF: collect every hand, shuffle, deal one by one from the player's left."""
    n = st[S_N]
    m = 0
    for s in range(n):
        for i in range(st[O_HS + s]):
            st[O_TMP + m] = st[O_HANDS + s * HCAP + i]
            m += 1
        st[O_HS + s] = 0
    shuffle_seg(st, np.int64(O_TMP), m, lg)
    s = seat
    while m > 0:
        s = clockwise(st, s)
        m -= 1
        hand_append(st, s, st[O_TMP + m])


@njit(cache=True, _nrt=False)
def under_top(st: np.ndarray, card: int) -> None:
    """Put ``card`` into the discard pile just under its top card."""
    nd = st[S_NDISC]
    top = st[O_DISC + nd - 1]
    st[O_DISC + nd - 1] = card
    st[O_DISC + nd] = top
    st[S_NDISC] = nd + 1


@njit(cache=True, _nrt=False)
def custom(
    st: np.ndarray, R: np.ndarray, seat: int, color: int, lg: np.ndarray,
) -> None:  # fmt: skip
    """R-ACT-CUST: the agreed house rule of the Wild Customizable card."""
    rule = R[R_CUSTOM]
    nxt = step(st, seat, np.int64(1))
    st[S_CUR] = nxt
    if rule == CU_NEXT3:
        draw_cards(st, R, nxt, np.int64(3), lg)
    elif rule == CU_OTHERS2:
        s = seat
        for _ in range(st[S_NLIVE] - 1):
            s = step(st, s, np.int64(1))
            draw_cards(st, R, s, np.int64(2), lg)
    elif rule == CU_DISCWILDS:
        s = seat
        for _ in range(st[S_NLIVE] - 1):
            s = step(st, s, np.int64(1))
            base = O_HANDS + s * HCAP
            k = st[O_HS + s]
            j = 0
            for i in range(k):
                c = st[base + i]
                if c >= WILD:
                    under_top(st, c)
                else:
                    st[base + j] = c
                    j += 1
            st[O_HS + s] = j
    elif rule == CU_EXTRA:
        st[S_CUR] = seat
    elif rule == CU_DISCCOLOR:
        base = O_HANDS + seat * HCAP
        k = st[O_HS + seat]
        j = 0
        for i in range(k):
            c = st[base + i]
            if ccolor(c) == color:
                under_top(st, c)
            else:
                st[base + j] = c
                j += 1
        st[O_HS + seat] = j


# ================================================================ scoring ========
@njit(cache=True, _nrt=False)
def round_points(st: np.ndarray, R: np.ndarray, winner: int) -> int:
    n = st[S_N]
    t = 0
    if R[R_SCORING] == SC_TEAMS:
        team = winner % 2
        for s in range(n):
            if s % 2 != team:
                t += hand_points(st, R, s)
        return t
    for s in range(n):
        if s != winner:
            t += hand_points(st, R, s)
    return t


@njit(cache=True, _nrt=False)
def lowest(st: np.ndarray, was_live: int, winner: int) -> int:
    """The live seat (``was_live``: a bit per seat) with the lowest score, the winner first."""
    n = st[S_N]
    best = -1
    for s in range(n):
        if (was_live >> s) & 1 and (best < 0 or st[O_SCORES + s] < best):
            best = st[O_SCORES + s]
    if (was_live >> winner) & 1 and st[O_SCORES + winner] == best:
        return winner
    for s in range(n):
        if (was_live >> s) & 1 and st[O_SCORES + s] == best:
            return s
    return winner


@njit(cache=True, _nrt=False)
def end_round(st: np.ndarray, R: np.ndarray, winner: int) -> None:
    """``Game._end_round``: score the round; the game may be over."""
    st[S_VULN] = -1
    st[S_RWIN] = winner
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_WD4BY] = -1
    scoring = R[R_SCORING]
    target = R[R_TARGET]
    n = st[S_N]
    over = False
    if scoring == SC_STANDARD or scoring == SC_TEAMS:  # noqa: SIM109 (numba: plain loops and comparisons)
        gained = round_points(st, R, winner)
        side = winner % 2 if scoring == SC_TEAMS else winner
        st[O_SCORES + side] += gained
        if st[O_SCORES + side] >= target:
            over = True
            st[S_GWIN] = side
    elif scoring == SC_FIRSTOUT:
        over = True
        st[S_GWIN] = winner
    else:
        was_live = 0  # a bit per seat
        for s in range(n):
            if st[O_LIVE + s]:
                was_live |= 1 << s
                st[O_SCORES + s] += hand_points(st, R, s)
        if scoring == SC_LOW:
            top = 0
            for s in range(n):
                top = max(top, st[O_SCORES + s])
            if top >= target:
                over = True
                st[S_GWIN] = lowest(st, was_live, winner)
        else:
            left = 0
            last = -1
            for s in range(n):
                if (was_live >> s) & 1:
                    if st[O_SCORES + s] >= target:
                        st[O_LIVE + s] = 0
                    else:
                        left += 1
                        last = s
            st[S_NLIVE] = left
            if left == 1:
                over = True
                st[S_GWIN] = last
            elif left == 0:
                over = True
                st[S_GWIN] = lowest(st, was_live, winner)
    st[S_PHASE] = P_GAME_OVER if over else P_ROUND_OVER


# ================================================================ set-up =========
@njit(cache=True, _nrt=False)
def new_game(st: np.ndarray, R: np.ndarray) -> None:
    """A fresh game before its first round (``Game(..., start=False)``).

    The random state and the log's place survive; the hands need no clearing (their
    sizes are zero).
    """
    keep_rng = st[S_RNG]
    keep_log = st[S_LOGPOS]
    keep_ovf = st[S_LOGOVF]
    keep_on = st[S_LOGON]
    st[:O_HANDS] = 0
    st[S_RNG] = keep_rng
    st[S_LOGPOS] = keep_log
    st[S_LOGOVF] = keep_ovf
    st[S_LOGON] = keep_on
    n = R[R_N]
    st[S_N] = n
    st[S_NLIVE] = n
    for s in range(n):
        st[O_LIVE + s] = 1
    st[S_COLOR] = -1
    st[S_DIR] = 1
    st[S_PHASE] = P_ROUND_OVER
    st[S_DRAWN] = -1
    st[S_VULN] = -1
    st[S_WD4BY] = -1
    st[S_WD4PREV] = -1
    st[S_PEND] = -1
    st[S_RWIN] = -1
    st[S_GWIN] = -1
    st[S_RIDX] = -1
    st[S_DEALER] = -1


@njit(cache=True, _nrt=False)
def start_round(
    st: np.ndarray, R: np.ndarray, dealer: int, lg: np.ndarray,
) -> None:  # fmt: skip
    """``Game.start_round``: shuffle, deal (R-SETUP-3), turn the start card (R-SETUP-4)."""
    n = st[S_N]
    if dealer < 0:
        dealer = clockwise(st, st[S_DEALER]) if st[S_DEALER] >= 0 else 0
    size = R[R_DECKSIZE]
    o = O_ORDER  # the shuffled deck, top first, at st[o:o + size]
    for i in range(size):
        st[o + i] = R[O_DECK + i]
    for i in range(size - 1, 0, -1):
        j = below(st, i + 1)
        t = st[o + i]
        st[o + i] = st[o + j]
        st[o + j] = t
    if log_room(st, lg, size + 3):
        p = st[S_LOGPOS]
        lg[p] = 4
        lg[p + 1] = dealer
        lg[p + 2] = size
        for i in range(size):
            lg[p + 3 + i] = st[o + i]
        st[S_LOGPOS] = p + 3 + size
    st[S_RIDX] += 1
    st[S_DEALER] = dealer
    seats = O_ORDER + HCAP  # the live seats in deal order, at st[seats:seats + k]
    k = 0
    for j in range(1, n + 1):
        s = (dealer + j) % n
        if st[O_LIVE + s]:
            st[seats + k] = s
            k += 1
    hand = R[R_HAND]
    dealt = k * hand
    for s in range(n):
        st[O_HS + s] = 0
    for j in range(k):
        s = st[seats + j]
        for i in range(j, dealt, k):
            hand_append(st, s, st[o + i])
    m = size - dealt
    for i in range(m):
        st[O_PILE + i] = st[o + size - 1 - i]
    st[S_NPILE] = m
    st[S_NDISC] = 0
    st[S_DIR] = 1
    st[S_DRAWN] = -1
    st[S_VULN] = -1
    st[S_RWIN] = -1
    st[S_WD4BY] = -1
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    # the start card (R-START-WD4, R-START-NUMBER: back into the pile, reshuffle)
    m -= 1
    top = st[O_PILE + m]
    while top == WILD_DRAW4 or (R[R_NUMSTART] != 0 and not (top < WILD and crank(top) <= 9)):
        shuffle_seg(st, np.int64(O_PILE), m + 1, lg)
        top = st[O_PILE + m]
    st[S_NPILE] = m
    st[O_DISC] = top
    st[S_NDISC] = 1
    first = st[seats + 0]
    st[S_PHASE] = P_PLAY
    rank = crank(top)
    st[S_COLOR] = ccolor(top)
    if top >= WILD:
        st[S_COLOR] = -1
        st[S_CUR] = first
        st[S_PHASE] = P_START_COLOR
    elif rank == SKIP:
        if R[R_STACK] == 1:
            hit(st, first, top, np.int64(0))
        else:
            st[S_CUR] = step(st, dealer, np.int64(2))
    elif rank == REVERSE:
        st[S_DIR] = -1
        st[S_CUR] = dealer
    elif rank == DRAW2:
        if R[R_STACK] != 0:
            hit(st, first, top, np.int64(2))
        else:
            draw_cards(st, R, first, np.int64(2), lg)
            st[S_CUR] = step(st, dealer, np.int64(2))
    else:
        st[S_CUR] = first


# ================================================================ trusted moves ==
@njit(cache=True, _nrt=False)
def false_uno(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    if R[R_FALSEPEN]:
        draw_cards(st, R, seat, R[R_FALSEPEN], lg)


@njit(cache=True, _nrt=False)
def end_if_empty(st: np.ndarray, R: np.ndarray, seat: int) -> None:
    s = seat
    for _ in range(st[S_N]):
        s = step(st, s, np.int64(1))
        if st[O_LIVE + s] and st[O_HS + s] == 0:
            end_round(st, R, s)
            return


@njit(cache=True, _nrt=False)
def effect(
    st: np.ndarray, R: np.ndarray, seat: int, top: int, rank: int,
    left: int, color: int, target: int, prev_color: int, answering: bool, lg: np.ndarray,
) -> None:  # fmt: skip
    """``Game._effect``: an action card or special wild just played (R-ACT-*)."""
    stack = R[R_STACK]
    if rank == SKIP:
        victim = step(st, seat, np.int64(1))
        if stack == 1 and left:
            hit(st, victim, top, np.int64(0))
        else:
            st[S_CUR] = step(st, seat, np.int64(2))
    elif rank == REVERSE:
        st[S_DIR] = -st[S_DIR]
        if st[S_NLIVE] == 2:
            if stack == 1 and left:
                hit(st, step(st, seat, np.int64(1)), top, 0)
            else:
                st[S_CUR] = seat
        else:
            st[S_CUR] = step(st, seat, np.int64(1))
    elif rank == DRAW2:
        victim = step(st, seat, np.int64(1))
        if stack != 0 and left:
            total = st[S_PENDTOT] + 2 if answering and stack != 1 else 2
            st[S_WD4BY] = -1
            hit(st, victim, top, total)
        else:
            # R-END-2 with R-VAR-PROGRESSIVE: a last Draw Two answering a stack
            total = st[S_PENDTOT] + 2 if answering and stack != 1 else 2
            draw_cards(st, R, victim, total, lg)
            st[S_CUR] = step(st, seat, np.int64(2))
    elif top == WILD_DRAW4:
        victim = step(st, seat, np.int64(1))
        st[S_WD4BY] = seat
        st[S_WD4PREV] = prev_color
        st[S_GUILTY] = 1 if holds_color(st, seat, prev_color) else 0
        if stack != 0 and left:
            total = st[S_PENDTOT] + 4 if answering else 4
            hit(st, victim, top, total)
        else:
            st[S_CUR] = victim
            st[S_PHASE] = P_CHALLENGE
            if answering:  # a last W+4 in a stack keeps the whole stack to pay
                st[S_PENDTOT] += 4
    elif top == WILD_SWAP:
        if left:
            swap(st, seat, target)
        st[S_CUR] = step(st, seat, np.int64(1))
    elif top == WILD_SHUFFLE:
        if left:
            shuffle_hands(st, seat, lg)
        st[S_CUR] = step(st, seat, np.int64(1))
    else:
        custom(st, R, seat, color, lg)


@njit(cache=True, _nrt=False, inline="always")
def play(
    st: np.ndarray, R: np.ndarray, seat: int, card: int, color: int,
    uno: bool, target: int, lg: np.ndarray,
) -> None:  # fmt: skip
    """``Game.play`` (one card): trusted, no checks."""
    log_action(st, lg, seat, np.int64(A_PLAY), card, color, target, 1 if uno else 0)
    st[S_VULN] = -1
    hand_remove(st, seat, card)
    nd = st[S_NDISC]
    st[O_DISC + nd] = card
    st[S_NDISC] = nd + 1
    top = card
    prev_color = st[S_COLOR]
    answering = st[S_PEND] >= 0
    st[S_PHASE] = P_PLAY
    st[S_DRAWN] = -1
    st[S_COLOR] = color if top >= WILD else ccolor(top)
    left = st[O_HS + seat]
    rank = crank(top)
    special = False
    if rank < 10 or top == WILD:
        if R[R_SEVENZERO] and left and rank < 10:
            if rank == 7:
                swap(st, seat, target)
            elif rank == 0:
                rotate(st)
        st[S_CUR] = step(st, seat, np.int64(1))
    else:
        effect(st, R, seat, top, rank, left, color, target, prev_color, answering, lg)
        special = top == WILD_CUSTOM
    own = st[O_HS + seat]
    if answering and st[S_PHASE] != P_ANSWER:
        st[S_PEND] = -1
        if st[S_PHASE] != P_CHALLENGE:  # a last W+4 in a stack keeps its total
            st[S_PENDTOT] = 0
    if own == 1:
        if not uno:
            st[S_VULN] = seat
    elif own == 0:
        if st[S_PHASE] != P_CHALLENGE:
            end_round(st, R, seat)
        return
    elif uno:
        false_uno(st, R, seat, lg)
    if special and R[R_CUSTOM] == CU_DISCWILDS:
        end_if_empty(st, R, seat)  # R-END-1: a player left with no wild goes out


@njit(cache=True, _nrt=False, inline="always")
def draw(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``Game.draw``: draw on your turn (R-TURN-2/3), until playable if the rules say so."""
    log_action(
        st, lg, seat, np.int64(A_DRAW), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(0)
    )
    st[S_VULN] = -1
    if R[R_LAUNCHER]:
        draw_cards(st, R, seat, np.int64(1), lg)
        st[S_CUR] = step(st, seat, np.int64(1))
        return
    while True:
        got = draw_cards(st, R, seat, np.int64(1), lg)
        if got == 0:
            break
        card = st[O_HANDS + seat * HCAP + st[O_HS + seat] - 1]
        if can_play(st, R, seat, card):
            st[S_PHASE] = P_DRAWN
            st[S_DRAWN] = card
            return
        if R[R_UNTIL] == 0:
            break
    st[S_CUR] = step(st, seat, np.int64(1))


@njit(cache=True, _nrt=False)
def choose_color(st: np.ndarray, seat: int, color: int, target: int, lg: np.ndarray) -> None:
    log_action(st, lg, seat, np.int64(A_COLOR), np.int64(-1), color, target, np.int64(0))
    st[S_VULN] = -1
    st[S_COLOR] = color
    if target >= 0:
        swap(st, seat, target)
    st[S_PHASE] = P_PLAY


@njit(cache=True, _nrt=False)
def call_uno(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    log_action(st, lg, seat, np.int64(A_UNO), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(0))
    if seat == st[S_VULN]:
        st[S_VULN] = -1
    elif st[O_HS + seat] != 1:
        false_uno(st, R, seat, lg)


@njit(cache=True, _nrt=False)
def catch(
    st: np.ndarray, R: np.ndarray, seat: int, target: int, lg: np.ndarray,
) -> None:  # fmt: skip
    log_action(st, lg, seat, np.int64(A_CATCH), np.int64(-1), np.int64(-1), target, np.int64(0))
    st[S_VULN] = -1
    draw_cards(st, R, target, R[R_UNOPEN], lg)


@njit(cache=True, _nrt=False)
def after_wd4(st: np.ndarray, R: np.ndarray, by: int) -> None:
    st[S_WD4BY] = -1
    if st[O_HS + by] == 0:
        end_round(st, R, by)


@njit(cache=True, _nrt=False)
def challenge(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """R-ACT-CHALLENGE (``Game.challenge``)."""
    log_action(
        st, lg, seat, np.int64(A_CHALLENGE), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(0)
    )
    st[S_VULN] = -1
    by = st[S_WD4BY]
    total = st[S_PENDTOT] if st[S_PENDTOT] else 4  # a stacked total, or a W+4's 4
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_PHASE] = P_PLAY
    if st[S_GUILTY]:
        if R[R_RETRACT]:
            nd = st[S_NDISC] - 1
            st[S_NDISC] = nd
            hand_append(st, by, st[O_DISC + nd])
            st[S_COLOR] = st[S_WD4PREV]
        draw_cards(st, R, by, total, lg)
        st[S_CUR] = seat
    else:
        draw_cards(st, R, seat, total + 2, lg)
        st[S_CUR] = step(st, seat, np.int64(1))
    after_wd4(st, R, by)


@njit(cache=True, _nrt=False)
def accept(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """Take the hit (``Game.accept``)."""
    log_action(
        st, lg, seat, np.int64(A_ACCEPT), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(0)
    )
    st[S_VULN] = -1
    if st[S_PHASE] == P_ANSWER:
        total = st[S_PENDTOT]
        by = st[S_WD4BY] if st[S_PEND] == WILD_DRAW4 else -1
    else:
        total = st[S_PENDTOT] if st[S_PENDTOT] else 4  # a stacked total, or a W+4's 4
        by = st[S_WD4BY]
    if total:
        draw_cards(st, R, seat, total, lg)
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_PHASE] = P_PLAY
    st[S_CUR] = step(st, seat, np.int64(1))
    if by >= 0:
        after_wd4(st, R, by)


# ================================================================ players ========
@njit(cache=True, _nrt=False, inline="always")
def is_special(R: np.ndarray, card: int) -> bool:
    """Cards whose effect may change the player's own hand: UNO is called after them."""
    return card >= WILD_SWAP or (
        R[R_SEVENZERO] != 0 and card < WILD and (crank(card) == 0 or crank(card) == 7)
    )


@njit(cache=True, _nrt=False)
def random_other(st: np.ndarray, seat: int) -> int:
    n = st[S_N]
    k = 0
    for s in range(n):
        if s != seat and st[O_LIVE + s]:
            k += 1
    j = below(st, k)
    for s in range(n):
        if s != seat and st[O_LIVE + s]:
            if j == 0:
                return s
            j -= 1
    return -1


# ================================================================ who acts =======
EVERY_SEAT = -1  # ``who_acts``' ``waits`` when the table waits on every seat (bit mask)


@njit(cache=True, _nrt=False, inline="always")
def jump_ins(st: np.ndarray, R: np.ndarray, seat: int) -> bool:
    """``Game.jump_ins``: R-VAR-JUMPIN, may ``seat`` play out of turn now (it holds the
    top card's twin)?"""
    if R[R_JUMPIN] == 0 or st[S_PHASE] != P_PLAY or seat == st[S_CUR]:
        return False
    top = st[O_DISC + st[S_NDISC] - 1]
    if top >= WILD or st[O_LIVE + seat] == 0:
        return False
    base = O_HANDS + seat * HCAP
    for i in range(st[O_HS + seat]):  # noqa: SIM110 (numba: plain loops and comparisons)
        if st[base + i] == top:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def who_acts(st: np.ndarray, R: np.ndarray, passed: int, waits: int) -> int:
    """``engine.state.seat_to_ask`` on the kernel's state: the one rule of who acts in
    every compiled loop (the simulator's rounds, both rollouts); -1 once the round is over.

    Out-of-turn chances first (a catch or a late call while a seat is catchable, a
    jump-in): clockwise from the seat after the one to act, every live seat while one is
    catchable, else the seats that may jump in, among ``waits`` and not in ``passed``
    (bit masks of seats; ``EVERY_SEAT``: every seat is waited on); then the seat to act.
    ``tests/test_compiled.py`` holds it to ``seat_to_ask`` on random positions."""
    if st[S_PHASE] >= P_ROUND_OVER:
        return -1
    cur = st[S_CUR]
    catchable = st[S_VULN] >= 0
    if not catchable and R[R_JUMPIN] == 0:
        return cur
    n = st[S_N]
    for k in range(1, n):
        s = cur + k
        if s >= n:
            s -= n
        if (
            st[O_LIVE + s] != 0
            and (catchable or jump_ins(st, R, s))
            and (waits >> s) & 1
            and not (passed >> s) & 1
        ):
            return s
    return cur


@njit(cache=True, _nrt=False, inline="always")
def fast_turn(st: np.ndarray, R: np.ndarray, P: np.ndarray) -> int:
    """Who decides next among the fast players (``Table._react``, then the seat to act):
    the seats ``who_acts`` asks let every chance go (they never jump in nor call late)
    until one that catches (``P``) may catch; else the seat to act."""
    passed = 0
    while True:
        s = who_acts(st, R, passed, EVERY_SEAT)
        v = st[S_VULN]
        if s < 0 or s == st[S_CUR] or (v >= 0 and s != v and P[3 * s + 1] != 0.0):
            return s
        passed |= 1 << s


@njit(cache=True, _nrt=False, inline="always")
def rollout_turn(st: np.ndarray, R: np.ndarray, lg: np.ndarray) -> int:
    """The seat to act next in a search rollout, or -1 once the round is over, after the
    out-of-turn chances in ``who_acts``' order (every seat waited on): a rollout player
    asked while a seat is catchable catches it (on its own turn too, first); it lets any
    other chance go (its own late call, a jump-in).  ``ismcts._rollout_turn`` in Python."""
    passed = 0
    while True:
        s = who_acts(st, R, passed, EVERY_SEAT)
        v = st[S_VULN]
        if v >= 0 and s >= 0 and s != v:
            catch(st, R, s, v, lg)
            passed = 0
        elif s < 0 or s == st[S_CUR]:
            return s
        else:
            passed |= 1 << s


@njit(cache=True, _nrt=False, inline="always")
def wants_uno(st: np.ndarray, P: np.ndarray, seat: int) -> bool:
    f = P[3 * seat + 2]
    return not (f != 0.0 and rand(st) < f)


@njit(cache=True, _nrt=False)
def play_round(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, cnt: np.ndarray,
    pc: np.ndarray, tc: np.ndarray, buf: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """The driver's loop for one round (``Table.play``); its turns, or -1 if it stalled."""
    rt = 0
    for _ in range(R[R_MAXDEC]):
        seat = fast_turn(st, R, P)
        if seat < 0:
            return rt
        v = st[S_VULN]
        if v >= 0 and seat != v and P[3 * seat + 1] != 0.0:
            cnt[G_CATCH] += 1  # the first catcher in ``who_acts``' order
            catch(st, R, seat, v, lg)
            continue
        phase = st[S_PHASE]
        if phase <= P_DRAWN:
            if phase == P_PLAY:
                rt += 1
                k = playable_cards(st, R, seat, buf)
                if k == 0:
                    cnt[G_DRAWTURNS] += 1
                    draw(st, R, seat, lg)
                    continue
                card = buf[below(st, k)]
            else:
                card = st[S_DRAWN]
            pc[card] += 1
            tc[crank(card)] += 1
            if is_special(R, card):
                color = below(st, np.int64(4)) if card >= WILD else -1
                target = -1
                if st[O_HS + seat] > 1 and (
                    card == WILD_SWAP or (R[R_SEVENZERO] != 0 and card < WILD and crank(card) == 7)
                ):
                    target = random_other(st, seat)
                play(st, R, seat, card, color, np.bool_(False), target, lg)
                if st[S_VULN] == seat and wants_uno(st, P, seat):
                    call_uno(st, R, seat, lg)
            else:
                uno = st[O_HS + seat] == 2
                if uno and not wants_uno(st, P, seat):
                    uno = False
                color = below(st, np.int64(4)) if card >= WILD else -1
                play(st, R, seat, card, color, uno, np.int64(-1), lg)
        elif phase == P_CHALLENGE:
            p = P[3 * seat]
            if p != 0.0 and rand(st) < p:
                cnt[G_CHAL] += 1
                cnt[G_CHALWON] += st[S_GUILTY]
                challenge(st, R, seat, lg)
            else:
                accept(st, R, seat, lg)
        elif phase == P_START_COLOR:
            target = -1
            if st[O_DISC + st[S_NDISC] - 1] == WILD_SWAP:
                target = random_other(st, seat)
            choose_color(st, seat, below(st, np.int64(4)), target, lg)
        else:  # P_ANSWER
            k = answers(st, R, seat, buf)
            p = P[3 * seat]
            if k:
                rt += 1
                card = buf[below(st, k)]
                pc[card] += 1
                tc[crank(card)] += 1
                uno = st[O_HS + seat] == 2
                if uno and not wants_uno(st, P, seat):
                    uno = False
                color = below(st, np.int64(4)) if card >= WILD else -1
                play(st, R, seat, card, color, uno, np.int64(-1), lg)
            elif st[S_PEND] == WILD_DRAW4 and p != 0.0 and rand(st) < p:
                cnt[G_CHAL] += 1
                cnt[G_CHALWON] += st[S_GUILTY]
                challenge(st, R, seat, lg)
            else:
                accept(st, R, seat, lg)
    return -1  # as the driver's for-else: no winner within MAX_DECISIONS


@njit(cache=True, _nrt=False)
def play_game(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, base: np.uint64,
    index: int, fixed_dealer: int, cnt: np.ndarray, pc: np.ndarray, tc: np.ndarray,
    rounds: np.ndarray, buf: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """Game ``index`` from start to end (``Table.play``).

    ``cnt`` gets the game's counts (``G_*``), ``pc``/``tc`` its plays by card and by
    type, ``rounds`` one row (turns, points) per round; returns the number of rounds,
    which may exceed ``rounds``' length (then only the first rows are written).
    ``buf`` (``HCAP`` words) is scratch for the cards a player may play.
    """
    n = R[R_N]
    seed_game(st, base, index)
    cnt[:] = 0
    pc[:] = 0
    tc[:] = 0
    first_dealer = fixed_dealer if fixed_dealer >= 0 else below(st, n)
    cnt[G_FIRSTDEALER] = first_dealer
    new_game(st, R)
    start_round(st, R, first_dealer, lg)
    nr = 0
    turns = 0
    while True:
        rt = play_round(st, R, P, cnt, pc, tc, buf, lg)
        if rt < 0:
            cnt[G_STALLED] = 1
            return nr
        if nr < rounds.shape[0]:
            rounds[nr, 0] = rt
            rounds[nr, 1] = round_points(st, R, st[S_RWIN])
        nr += 1
        turns += rt
        if R[R_ROUNDS_ONLY] or st[S_PHASE] == P_GAME_OVER:
            break
        start_round(st, R, np.int64(-1), lg)
    if R[R_ROUNDS_ONLY] or R[R_SCORING] == SC_TEAMS:  # noqa: SIM108 (numba: plain loops and comparisons)
        winner = st[S_RWIN]
    else:
        winner = st[S_GWIN]
    cnt[G_WINNER] = winner
    cnt[G_POS] = (winner - first_dealer) % n
    cnt[G_TURNS] = turns
    cnt[G_ROUNDS] = nr
    cnt[G_RESH] = st[S_RESH]
    return nr


@njit(cache=True)
def play_game_entry(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, base: np.uint64,
    index: int, fixed_dealer: int, cnt: np.ndarray, pc: np.ndarray, tc: np.ndarray,
    rounds: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """``play_game`` called from Python: the arrays are the caller's, kept alive by it."""
    buf = np.empty(HCAP, dtype=np.int64)
    nr = play_game(
        unowned(st), unowned(R), unowned(P), base, index, fixed_dealer,
        unowned(cnt), unowned(pc), unowned(tc), unowned(rounds), unowned(buf), unowned(lg),
    )  # fmt: skip
    return nr + 0 * buf[0]  # the owner of the view above lives to here


@njit(cache=True)
def run_games(
    R_: np.ndarray, P_: np.ndarray, base: np.uint64, start: int, size: int, fixed_dealer: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Games ``start`` .. ``start + size - 1``: per-game counts, per-round rows, plays.

    Returns ``(games[size, G_SIZE], rounds[nr, 2], plays_by_card[57], type_sq[18], nr)``;
    a stalled game has ``G_STALLED`` set and adds only its plays and its finished
    rounds (as the driver does).
    """
    R = unowned(R_)
    P = unowned(P_)
    own = np.zeros(STATE_SIZE + 1 + G_SIZE + NCARDS + 18 + HCAP, dtype=np.int64)
    st = unowned(own[:STATE_SIZE])
    o = STATE_SIZE + 1
    cnt = unowned(own[o : o + G_SIZE])
    pc = unowned(own[o + G_SIZE : o + G_SIZE + NCARDS])
    tc = unowned(own[o + G_SIZE + NCARDS : o + G_SIZE + NCARDS + 18])
    buf = unowned(own[o + G_SIZE + NCARDS + 18 : o + G_SIZE + NCARDS + 18 + HCAP])
    lg = unowned(own[STATE_SIZE : STATE_SIZE + 1])
    games = np.zeros((size, G_SIZE), dtype=np.int64)
    allr = np.zeros((max(16, size * 2), 2), dtype=np.int64)
    nr_all = 0
    rbuf_own = np.zeros((64, 2), dtype=np.int64)
    rbuf = unowned(rbuf_own)
    pc_all = np.zeros(NCARDS, dtype=np.int64)
    sq = np.zeros(18, dtype=np.int64)
    for g in range(size):
        nr = play_game(st, R, P, base, start + g, fixed_dealer, cnt, pc, tc, rbuf, buf, lg)
        while nr > rbuf.shape[0]:  # a long game: again, with room for every round
            rbuf_own = np.zeros((nr * 2, 2), dtype=np.int64)
            rbuf = unowned(rbuf_own)
            nr = play_game(st, R, P, base, start + g, fixed_dealer, cnt, pc, tc, rbuf, buf, lg)
        for c in range(NCARDS):
            pc_all[c] += pc[c]
        games[g, :] = cnt
        # the rounds finished before a stall count, as in the driver's loop
        if nr_all + nr > allr.shape[0]:
            bigger = np.zeros(((nr_all + nr) * 2, 2), dtype=np.int64)
            bigger[:nr_all] = allr[:nr_all]
            allr = bigger
        allr[nr_all : nr_all + nr] = rbuf[:nr]
        nr_all += nr
        if cnt[G_STALLED]:
            continue
        for t in range(18):
            sq[t] += tc[t] * tc[t]
    # the owners of the views above live to here
    keep = own[0] + rbuf_own[0, 0] + R_[0] + np.int64(P_[0])
    return games, allr, pc_all, sq, nr_all + 0 * keep


@njit(cache=True)
def bare_rounds(seed: np.uint64, players: int, count: int) -> int:
    """The benchmark's bare loop: classic start effects, random play, no UNO, no challenge.

    A lower bound on the cost of a round (the issue's "physical limit"): one 108-card
    deck, hands as arrays, a random playable card or a draw (a playable drawn card is
    played); no UNO calls, catches, challenges or scoring.  Returns the decisions.
    """
    st = np.zeros(S_RNG + 1, dtype=np.int64)  # only the random state
    st[S_RNG] = np.int64(seed)
    deck = np.empty(108, dtype=np.int64)
    k = 0
    for color in range(4):
        deck[k] = color * 13
        k += 1
        for rank in range(1, 13):
            deck[k] = color * 13 + rank
            deck[k + 1] = color * 13 + rank
            k += 2
    for _ in range(4):
        deck[k] = WILD
        deck[k + 1] = WILD_DRAW4
        k += 2
    hands = np.empty((players, 108), dtype=np.int64)
    hs = np.zeros(players, dtype=np.int64)
    pile = np.empty(108, dtype=np.int64)
    disc = np.empty(108, dtype=np.int64)
    opts = np.empty(108, dtype=np.int64)
    decisions = 0
    for _ in range(count):
        for i in range(107, 0, -1):
            j = below(st, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for s in range(players):
            for i in range(7):
                hands[s, i] = deck[s * 7 + i]
            hs[s] = 7
        np_ = 0
        for i in range(players * 7, 108):
            pile[np_] = deck[i]
            np_ += 1
        top = pile[np_ - 1]
        np_ -= 1
        disc[0] = top
        nd = 1
        color = ccolor(top) if top < WILD else below(st, np.int64(4))
        cur = 0
        d = 1
        while True:
            decisions += 1
            trank = crank(disc[nd - 1])
            m = 0
            for i in range(hs[cur]):
                c = hands[cur, i]
                if c >= WILD or ccolor(c) == color or (trank < 13 and crank(c) == trank):
                    opts[m] = i
                    m += 1
            if m == 0:
                if np_ == 0:
                    for i in range(nd - 1):
                        pile[i] = disc[i]
                    np_ = nd - 1
                    disc[0] = disc[nd - 1]
                    nd = 1
                    for i in range(np_ - 1, 0, -1):
                        j = below(st, i + 1)
                        t = pile[i]
                        pile[i] = pile[j]
                        pile[j] = t
                if np_ == 0:
                    cur = (cur + d) % players
                    continue
                np_ -= 1
                c = pile[np_]
                hands[cur, hs[cur]] = c
                hs[cur] += 1
                if not (c >= WILD or ccolor(c) == color or (trank < 13 and crank(c) == trank)):
                    cur = (cur + d) % players
                    continue
                i = hs[cur] - 1
            else:
                i = opts[below(st, m)]
            c = hands[cur, i]
            hs[cur] -= 1
            hands[cur, i] = hands[cur, hs[cur]]
            disc[nd] = c
            nd += 1
            color = ccolor(c) if c < WILD else below(st, np.int64(4))
            if hs[cur] == 0:
                break
            r = crank(c)
            victim = (cur + d) % players
            if r == SKIP:
                cur = (cur + 2 * d) % players
            elif r == REVERSE:
                d = -d
                cur = cur if players == 2 else (cur + d) % players
            elif r == DRAW2 or c == WILD_DRAW4:
                for _ in range(2 if r == DRAW2 else 4):
                    if np_ == 0:
                        break
                    np_ -= 1
                    hands[victim, hs[victim]] = pile[np_]
                    hs[victim] += 1
                cur = (cur + 2 * d) % players
            else:
                cur = victim
    return decisions


# ================================================================ search rollouts ==
# ``unokit.bots.ismcts``'s rollouts (``rollout`` with ``policy=1``, the rule-based
# ``_smart_play``) on the plain classic path, for its compiled search.


@njit(cache=True, _nrt=False)
def keep(st: np.ndarray, seat: int, lg: np.ndarray) -> None:
    log_action(st, lg, seat, np.int64(A_KEEP), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    st[S_VULN] = -1
    st[S_PHASE] = P_PLAY
    st[S_DRAWN] = -1
    st[S_CUR] = step(st, seat, np.int64(1))


# The colours of a hand, for the rollout players and the RL opponents.  These are called
# from code compiled without numba's runtime (``unokit.rl.vector_kernel.bot_act``), which
# cannot allocate: a ``np.zeros(5)`` of counts here compiled only when some other caller
# had compiled it first, and failed on an empty numba cache (issue 45).  So the counts
# are one word, 8 bits a colour (a hand holds at most ``HCAP`` = 112 cards).
COUNT_BITS = 8
COUNT_MASK = (1 << COUNT_BITS) - 1


@njit(cache=True, _nrt=False, inline="always")
def colour_counts(st: np.ndarray, seat: int) -> int:
    """``seat``'s cards per colour (wilds as colour 4), packed: ``colour_count`` reads one."""
    base = O_HANDS + seat * HCAP
    packed = 0
    for i in range(st[O_HS + seat]):
        packed += 1 << (COUNT_BITS * ccolor(st[base + i]))
    return packed


@njit(cache=True, _nrt=False, inline="always")
def colour_count(packed: int, colour: int) -> int:
    return (packed >> (COUNT_BITS * colour)) & COUNT_MASK


@njit(cache=True, _nrt=False)
def best_color(st: np.ndarray, seat: int) -> int:
    """``ismcts._best_color``: the colour held most (the first of a tie), else random."""
    counts = colour_counts(st, seat)
    top = 0
    best = 0
    for c in range(4):
        k = colour_count(counts, c)
        if k > top:
            top = k
            best = c
    if top == 0:
        return below(st, np.int64(4))
    return best


@njit(cache=True)
def smart_play(
    st: np.ndarray, R: np.ndarray, s: int, buf: np.ndarray, lg: np.ndarray,
) -> None:  # fmt: skip
    """``ismcts._smart_play``: hold wilds, follow the colour held most, hit a short hand."""
    k = playable_cards(st, R, s, buf)
    if k == 0:
        draw(st, R, s, lg)
        return
    hs = st[O_HS + s]
    if k == 1:
        best = buf[0]
    else:
        n = st[S_N]
        danger = st[O_HS + (s + st[S_DIR]) % n] <= 2
        short = hs <= 2
        counts = colour_counts(st, s)
        best = -1
        best_score = -1e9
        for i in range(k):
            c = buf[i]
            if c >= WILD:
                score = -20.0
                if danger and c == WILD_DRAW4:
                    score = -5.0
                if short:
                    score += 25.0
            else:
                score = float(colour_count(counts, ccolor(c)))
                if danger:
                    rank = crank(c)
                    if rank >= SKIP and (rank != REVERSE or n == 2):
                        score += 11.0 if rank == DRAW2 else 10.0
            if score > best_score or (score == best_score and rand(st) < 0.5):
                best_score = score
                best = c
    color = best_color(st, s) if best >= WILD else -1
    play(st, R, s, best, color, hs == 2, np.int64(-1), lg)


@njit(cache=True)
def rollout_value(
    st: np.ndarray, R: np.ndarray, seat: int, max_steps: int, judge: int,
    buf: np.ndarray, lg: np.ndarray,
) -> float:  # fmt: skip
    """``ismcts.rollout`` (rule-based policy): 1 if ``seat`` (or its team) wins the round."""
    steps = 0
    while True:
        s = rollout_turn(st, R, lg)
        if s < 0 or steps >= max_steps:
            break
        steps += 1
        phase = st[S_PHASE]
        if phase == P_PLAY:
            smart_play(st, R, s, buf, lg)
        elif phase == P_DRAWN:
            card = st[S_DRAWN]
            color = best_color(st, s) if card >= WILD else -1
            play(st, R, s, card, color, st[O_HS + s] == 2, np.int64(-1), lg)
        elif phase == P_CHALLENGE:
            accept(st, R, s, lg)
        elif phase == P_START_COLOR:
            choose_color(st, s, best_color(st, s), np.int64(-1), lg)
        else:
            return -1.0  # not a plain position: the caller should not have come here
    n = st[S_N]
    winner = st[S_RWIN]
    teams = R[R_SCORING] == SC_TEAMS
    if winner < 0:
        if judge == 1:
            total = 0.0
            mine = 0.0
            for s in range(n):
                if st[O_LIVE + s] == 0:
                    continue
                w = 1.0 / np.sqrt(max(st[O_HS + s], 1))
                if s == st[S_CUR]:
                    w *= 1.083
                total += w
                if s == seat or (teams and s % 2 == seat % 2):
                    mine += w
            return mine / total if total > 0 else 0.5
        return size_value(st, seat)
    if teams:
        return 1.0 if winner % 2 == seat % 2 else 0.0
    return 1.0 if winner == seat else 0.0


@njit(cache=True)
def size_value(st: np.ndarray, seat: int) -> float:
    """A rollout cut before the round ended: 0.5 plus 0.08 a card that ``seat`` is
    ahead of the best other live hand (search_world's and search.py's default judge)."""
    mine_k = st[O_HS + seat]
    best_other = -1
    for s in range(st[S_N]):
        if s != seat and st[O_LIVE + s] and (best_other < 0 or st[O_HS + s] < best_other):
            best_other = st[O_HS + s]
    if best_other < 0:
        best_other = mine_k
    return min(1.0, max(0.0, 0.5 + 0.08 * (best_other - mine_k)))


@njit(cache=True)
def apply_root(
    st: np.ndarray, R: np.ndarray, seat: int, kind: int, card: int,
    color: int, target: int, uno: int, lg: np.ndarray,
) -> None:  # fmt: skip
    """``Game.apply_trusted`` for the root actions a search tries (one card per play)."""
    if kind == A_PLAY:
        play(st, R, seat, card, color, uno != 0, target, lg)
    elif kind == A_DRAW:
        if st[S_PHASE] == P_CHALLENGE or st[S_PHASE] == P_ANSWER:
            accept(st, R, seat, lg)
        else:
            draw(st, R, seat, lg)
    elif kind == A_KEEP:
        keep(st, seat, lg)
    elif kind == A_CHALLENGE:
        challenge(st, R, seat, lg)
    elif kind == A_ACCEPT:
        accept(st, R, seat, lg)
    elif kind == A_COLOR:
        choose_color(st, seat, color, target, lg)


@njit(cache=True)
def search_world(
    st0_: np.ndarray, R_: np.ndarray, seed: np.uint64, seat: int, acts_: np.ndarray,
    max_steps: int, judge: int, out_: np.ndarray,
) -> None:  # fmt: skip
    """Each root action ``acts[j]`` (kind, card, color, target, uno) in its own copy of
    the sampled world ``st0``, then a rollout; ``out[j]`` is its value.  Every copy
    starts from the same random state (common random numbers)."""
    st0 = unowned(st0_)
    R = unowned(R_)
    acts = unowned(acts_)
    out = unowned(out_)
    own = np.empty(STATE_SIZE + HCAP + 1, dtype=np.int64)
    st = unowned(own[:STATE_SIZE])
    buf = unowned(own[STATE_SIZE : STATE_SIZE + HCAP])
    lg = unowned(own[STATE_SIZE + HCAP : STATE_SIZE + HCAP + 1])
    for j in range(acts.shape[0]):
        st[:] = st0
        st[S_RNG] = np.int64(seed)
        st[S_LOGON] = 0
        apply_root(st, R, seat, acts[j, 0], acts[j, 1], acts[j, 2], acts[j, 3],
                   acts[j, 4], lg)  # fmt: skip
        out[j] = rollout_value(st, R, seat, max_steps, judge, buf, lg)
    own[0] += 0 * own[1]  # the owner lives to here
