"""UNO Show 'Em No Mercy's compiled twin: ``unokit.engine.modern.nomercy`` and the fast
players, in numba.

A port of ``NoMercyGame`` (and the parts of ``ModernGame`` it uses) restricted to what
the simulation's fast players (``random``, ``careless``, ``reference``) do, with their
decisions as ``unokit.sim.modern.ModernTable`` makes them.  Each function mirrors the
method of the same name; the reference engine stays the source of truth:
``unokit.compiled.check_game`` replays every checked game through it.

The state keeps the classic kernel's slots for what both keep (``kernel.S_*`` up to
``S_LOGON``, scores, seats), so its random numbers, log and seats serve here; hands
and piles are laid out for 168 cards (with the Mercy rule off a hand may hold more
than any classic deck).  Cards are ``modern_cards``' ids: a coloured card is
``colour * 16 + rank``, a wild 64 or more; their ranks, draw values and points are
tables in the rules array.  The log is the classic kernel's (tags 1 action, 2 shuffle,
4 round).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unokit.compiled.kernel import (
    NMAX,
    O_LIVE,
    O_SCORES,
    S_COLOR,
    S_CUR,
    S_DEALER,
    S_DIR,
    S_DRAWN,
    S_GWIN,
    S_LOGPOS,
    S_N,
    S_NDISC,
    S_NLIVE,
    S_NPILE,
    S_PEND,
    S_PENDTOT,
    S_PHASE,
    S_RESH,
    S_RIDX,
    S_RWIN,
    S_VULN,
    S_WD4BY,
    below,
    log_action,
    log_room,
    rand,
    seed_game,
    shuffle_seg,
    step,
    unowned,
)
from unokit.compiled.kernel import new_game as classic_new_game

# ---------------------------------------------------------------- cards ---------
N_SKIP, N_REVERSE, N_D2, N_D4, N_SKIPALL, N_DISCARDALL = 10, 11, 12, 13, 14, 15
NM_W, NM_WR4, NM_W6, NM_W10, NM_WCR = 64, 65, 66, 67, 68
NCARDS = 69
KNOCKOUT_POINTS = 250  # NM-SCORE-2

# ---------------------------------------------------------------- actions -------
A_PLAY, A_DRAW, A_KEEP, A_UNO, A_CATCH, A_CHALLENGE, A_ACCEPT, A_COLOR = range(8)

# ---------------------------------------------------------------- phases --------
P_PLAY, P_DRAWN, P_START_COLOR, P_CHALLENGE, P_ANSWER, P_ROUND_OVER, P_GAME_OVER = range(7)

# ---------------------------------------------------------------- state layout --
S_KNOCK = 24  # knocked out this hand (NM-SCORE-2)
S_ROULBY = 25  # the player of a Roulette whose victim names a colour
S_FACEDOWN = 26  # discard_bottom: knocked-out cards face down under the discard pile
S_NASIDE = 27  # set-aside cards (NM-MERCY-2)
S_RPTS = 28  # the points in the other hands when the hand ended (the simulator's figure)
O_HS = 52  # hand sizes (the classic kernel's place)
HC = 168  # a hand's room: the whole deck
O_HANDS = 64
O_PILE = O_HANDS + NMAX * HC
O_DISC = O_PILE + HC
O_ASIDE = O_DISC + HC
O_TMP = O_ASIDE + HC  # scratch: the hands a 0 passes on
O_ORDER = O_TMP + NMAX * HC  # scratch for start_round: the shuffled deck
STATE_SIZE = O_ORDER + HC

# ---------------------------------------------------------------- rules layout --
R_N = 0
R_HAND = 1
R_TARGET = 2
R_SCORING = 3  # 0 first-out, 1 standard
R_UNOPEN = 4
R_THRESH = 5  # 0 last, 1 total
R_MATCHCOL = 6
R_DEFLECT = 7
R_MERCY = 8  # the Mercy limit, 0: off
R_KOCARDS = 9  # 0 set_aside, 1 discard_bottom
R_LASTEFF = 10
R_ROULCOL = 11  # 0 victim, 1 player
R_ROUNDS_ONLY = 12
R_MAXDEC = 13
R_DECKSIZE = 14
O_RANK = 16  # NM_RANK of each card
O_DRAW = O_RANK + NCARDS  # NM_DRAW
O_POINTS = O_DRAW + NCARDS  # NM_POINTS
O_DECK = O_POINTS + NCARDS  # the deck, by id
RULES_SIZE = O_DECK + HC

SC_FIRSTOUT, SC_STANDARD = range(2)

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
G_KNOCKOUTS = 11
G_MERCY = 12  # hands won because every other player was knocked out (NM-END-3)
G_SIZE = 13

# the fast player's plays, 4 words each (card, colour, target, leaves one card)
MAX_PLAYS = 512
BUF_SIZE = 4 * MAX_PLAYS


# ================================================================ cards ==========
@njit(cache=True, _nrt=False, inline="always")
def ccolor(c: int) -> int:
    return c >> 4 if c < NM_W else -1


@njit(cache=True, _nrt=False, inline="always")
def top_card(st: np.ndarray) -> int:
    return st[O_DISC + st[S_NDISC] - 1]


@njit(cache=True, _nrt=False, inline="always")
def matches(st: np.ndarray, R: np.ndarray, c: int) -> bool:
    """``_matches`` (NM-TURN-2, NM-DECK-4): colour in force, number or symbol, any wild."""
    if c >= NM_W or c >> 4 == st[S_COLOR]:
        return True
    top = top_card(st)
    return top < NM_W and c & 15 == top & 15  # both coloured: the rank is ``& 15``


@njit(cache=True, _nrt=False)
def answers(st: np.ndarray, R: np.ndarray, c: int) -> bool:
    """``_answers`` (NM-STACK-2, -3, -5): what may be played onto a pending stack."""
    v = R[O_DRAW + c]
    if v == 0:
        r = R[O_RANK + c]
        return R[R_DEFLECT] != 0 and (r == N_SKIP or r == N_REVERSE) and matches(st, R, c)  # noqa: SIM109
    need = R[O_DRAW + st[S_PEND]] if R[R_THRESH] == 0 else st[S_PENDTOT]
    if v < need:
        return False
    return R[R_MATCHCOL] == 0 or matches(st, R, c)


# ================================================================ hands ==========
@njit(cache=True, _nrt=False, inline="always")
def hand_append(st: np.ndarray, seat: int, card: int) -> None:
    k = st[O_HS + seat]
    st[O_HANDS + seat * HC + k] = card
    st[O_HS + seat] = k + 1


@njit(cache=True, _nrt=False)
def hand_remove(st: np.ndarray, seat: int, card: int) -> None:
    """``list.remove``: the first copy goes, the order of the rest stays."""
    base = O_HANDS + seat * HC
    k = st[O_HS + seat]
    gone = 0
    for i in range(k):
        c = st[base + i]
        st[base + i - gone] = c
        gone |= c == card
    st[O_HS + seat] = k - 1


@njit(cache=True, _nrt=False)
def hand_points(st: np.ndarray, R: np.ndarray, seat: int) -> int:
    base = O_HANDS + seat * HC
    t = 0
    for i in range(st[O_HS + seat]):
        t += R[O_POINTS + st[base + i]]
    return t


@njit(cache=True, _nrt=False)
def prev_live(st: np.ndarray, seat: int) -> int:
    """``_prev``: the live seat whose next player is ``seat``."""
    n = st[S_N]
    d = st[S_DIR]
    s = (seat - d) % n
    while st[O_LIVE + s] == 0:
        s = (s - d) % n
    return s


# ================================================================ piles ==========
@njit(cache=True, _nrt=False)
def refill(st: np.ndarray, lg: np.ndarray) -> bool:
    """``_refill`` with ``_refill_cards`` (NM-TURN-6): the discards under the top card and
    every set-aside hand become the draw pile (empty when this runs), shuffled."""
    nd = st[S_NDISC]
    m = nd - 1
    na = st[S_NASIDE]
    if m + na <= 0:
        return False
    for i in range(m):
        st[O_PILE + i] = st[O_DISC + i]
    for i in range(na):
        st[O_PILE + m + i] = st[O_ASIDE + i]
    st[S_NASIDE] = 0
    st[S_FACEDOWN] = 0
    st[O_DISC] = st[O_DISC + m]
    st[S_NDISC] = 1
    st[S_NPILE] = m + na
    shuffle_seg(st, np.int64(O_PILE), m + na, lg)
    st[S_RESH] += 1
    return True


@njit(cache=True, _nrt=False, inline="always")
def give_one(st: np.ndarray, seat: int, lg: np.ndarray) -> int:
    if st[S_NPILE] == 0 and not refill(st, lg):
        return -1
    k = st[S_NPILE] - 1
    st[S_NPILE] = k
    c = st[O_PILE + k]
    hand_append(st, seat, c)
    return c


# ================================================================ rounds =========
@njit(cache=True, _nrt=False)
def end_round(st: np.ndarray, R: np.ndarray, winner: int) -> None:
    """``_end_round`` and ``_score`` (NM-SCORE-1, -2), then ``_finish``."""
    st[S_VULN] = -1
    st[S_RWIN] = winner
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_WD4BY] = -1
    st[S_DRAWN] = -1
    others = 0
    for s in range(st[S_N]):
        if s != winner:
            others += hand_points(st, R, s)  # a knocked-out hand is empty
    st[S_RPTS] = others
    gw = winner
    if R[R_SCORING] == SC_STANDARD:
        st[O_SCORES + winner] += others + KNOCKOUT_POINTS * st[S_KNOCK]
        if st[O_SCORES + winner] < R[R_TARGET]:
            gw = -1
    if gw >= 0:
        st[S_GWIN] = gw
        st[S_PHASE] = P_GAME_OVER
    else:
        st[S_PHASE] = P_ROUND_OVER


@njit(cache=True, _nrt=False)
def knock_out(st: np.ndarray, R: np.ndarray, seat: int) -> None:
    """``_knock_out`` (NM-MERCY-1..4): out of this hand, its cards set aside (or face down
    under the discards); the last one standing wins (NM-END-3)."""
    base = O_HANDS + seat * HC
    k = st[O_HS + seat]
    if R[R_KOCARDS] == 0:
        na = st[S_NASIDE]
        for i in range(k):
            st[O_ASIDE + na + i] = st[base + i]
        st[S_NASIDE] = na + k
    else:
        nd = st[S_NDISC]
        for i in range(nd - 1, -1, -1):
            st[O_DISC + k + i] = st[O_DISC + i]
        for i in range(k):
            st[O_DISC + i] = st[base + i]
        st[S_NDISC] = nd + k
        st[S_FACEDOWN] += k
    st[O_HS + seat] = 0
    st[O_LIVE + seat] = 0
    st[S_NLIVE] -= 1
    st[S_KNOCK] += 1
    if st[S_VULN] == seat:
        st[S_VULN] = -1
    if st[S_NLIVE] == 1:
        for s in range(st[S_N]):
            if st[O_LIVE + s]:
                end_round(st, R, s)
                return
    if st[S_CUR] == seat:  # NM-MERCY-3: play passes on
        st[S_PHASE] = P_PLAY
        st[S_DRAWN] = -1
        st[S_PEND] = -1
        st[S_PENDTOT] = 0
        st[S_CUR] = step(st, seat, np.int64(1))


@njit(cache=True, _nrt=False)
def take(
    st: np.ndarray, R: np.ndarray, seat: int, count: int, until: int, playable: bool,
    lg: np.ndarray,
) -> bool:  # fmt: skip
    """``_take``: one card at a time, ``count`` cards, or until a card of colour ``until``
    (wilds do not count), or until a playable card; Mercy-checked after each card
    (NM-MERCY-1).  False if the seat was knocked out."""
    limit = R[R_MERCY]
    while count > 0 or until >= 0 or playable:
        c = give_one(st, seat, lg)
        if c < 0:
            break
        count -= 1
        if limit and st[O_HS + seat] >= limit:
            knock_out(st, R, seat)
            return False
        if until >= 0 and ccolor(c) == until:
            break
        if playable and matches(st, R, c):
            break
    return True


@njit(cache=True, _nrt=False)
def new_game(st: np.ndarray, R: np.ndarray) -> None:
    """A fresh game before its first hand (the classic kernel's ``new_game``: the layouts
    agree there)."""
    classic_new_game(st, R)
    st[S_ROULBY] = -1


@njit(cache=True, _nrt=False)
def start_round(st: np.ndarray, R: np.ndarray, dealer: int, lg: np.ndarray) -> None:
    """``ModernGame.start_round`` and ``NoMercyGame._start`` (NM-SETUP, NM-START)."""
    n = st[S_N]
    if dealer < 0:
        dealer = (st[S_DEALER] + 1) % n if st[S_DEALER] >= 0 else 0
    size = R[R_DECKSIZE]
    o = O_ORDER
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
    for s in range(n):
        st[O_LIVE + s] = 1
        st[O_HS + s] = 0
    st[S_NLIVE] = n
    dealt = n * R[R_HAND]
    for j in range(n):
        s = (dealer + 1 + j) % n
        for i in range(j, dealt, n):
            hand_append(st, s, st[o + i])
    m = size - dealt
    for i in range(m):
        st[O_PILE + i] = st[o + size - 1 - i]
    st[S_NDISC] = 0
    st[S_DIR] = 1
    st[S_DRAWN] = -1
    st[S_VULN] = -1
    st[S_RWIN] = -1
    st[S_WD4BY] = -1
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_NASIDE] = 0
    st[S_KNOCK] = 0
    st[S_ROULBY] = -1
    st[S_FACEDOWN] = 0
    # NM-START-1: action cards are ignored and stay under the first number card
    m -= 1
    top = st[O_PILE + m]
    while R[O_RANK + top] > 9:
        st[O_DISC + st[S_NDISC]] = top
        st[S_NDISC] += 1
        m -= 1
        top = st[O_PILE + m]
    st[O_DISC + st[S_NDISC]] = top
    st[S_NDISC] += 1
    st[S_NPILE] = m
    st[S_COLOR] = ccolor(top)
    st[S_PHASE] = P_PLAY
    st[S_CUR] = (dealer + 1) % n  # NM-START-2


# ================================================================ moves ==========
@njit(cache=True, _nrt=False, inline="always")
def begin(st: np.ndarray, seat: int, kind: int) -> None:
    """``apply_trusted``: too late to catch now (R-UNO-2), unless the catchable player
    names a colour."""
    if kind != A_COLOR or seat != st[S_VULN]:
        st[S_VULN] = -1


@njit(cache=True, _nrt=False)
def call_uno(st: np.ndarray, seat: int, lg: np.ndarray) -> None:
    log_action(st, lg, seat, np.int64(A_UNO), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    st[S_VULN] = -1


@njit(cache=True, _nrt=False)
def catch(st: np.ndarray, R: np.ndarray, seat: int, target: int, lg: np.ndarray) -> None:
    """``_catch``: the penalty, Mercy-checked (NM-UNO-2)."""
    log_action(st, lg, seat, np.int64(A_CATCH), np.int64(-1), np.int64(-1), target, np.int64(0))
    st[S_VULN] = -1
    take(st, R, target, R[R_UNOPEN], np.int64(-1), False, lg)


@njit(cache=True, _nrt=False)
def draw(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``_draw_turn`` (NM-TURN-3, -4): until a playable card comes; it must be played."""
    log_action(st, lg, seat, np.int64(A_DRAW), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    begin(st, seat, np.int64(A_DRAW))
    if not take(st, R, seat, np.int64(0), np.int64(-1), True, lg):
        return
    if st[S_PHASE] >= P_ROUND_OVER:
        return
    k = st[O_HS + seat]
    last = st[O_HANDS + seat * HC + k - 1] if k else -1
    if k and matches(st, R, last):
        st[S_DRAWN] = last
        st[S_PHASE] = P_DRAWN
    else:
        st[S_CUR] = step(st, seat, np.int64(1))


@njit(cache=True, _nrt=False)
def absorb(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``_absorb`` (NM-STACK-4): draw the whole total and lose the turn."""
    log_action(st, lg, seat, np.int64(A_ACCEPT), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    begin(st, seat, np.int64(A_ACCEPT))
    total = st[S_PENDTOT]
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_PHASE] = P_PLAY
    if take(st, R, seat, total, np.int64(-1), False, lg):
        st[S_CUR] = step(st, seat, np.int64(1))


@njit(cache=True, _nrt=False)
def roulette(st: np.ndarray, R: np.ndarray, seat: int, color: int, lg: np.ndarray) -> None:
    """``_roulette`` (NM-ACT-ROULETTE): reveal until the colour, keep them, lose the turn."""
    log_action(st, lg, seat, np.int64(A_COLOR), np.int64(-1), color, np.int64(-1), np.int64(0))
    begin(st, seat, np.int64(A_COLOR))
    st[S_ROULBY] = -1
    st[S_PHASE] = P_PLAY
    if R[R_ROULCOL] == 0:  # NM-ROULETTE-1
        st[S_COLOR] = color
    if take(st, R, seat, np.int64(0), color, False, lg):
        st[S_CUR] = step(st, seat, np.int64(1))


@njit(cache=True, _nrt=False)
def uno_after(st: np.ndarray, seat: int, uno: int) -> None:
    """R-UNO-1: one card left without the call makes the seat catchable."""
    if st[O_HS + seat] == 1 and uno == 0:
        st[S_VULN] = seat


@njit(cache=True, _nrt=False)
def uno_received(st: np.ndarray, seat: int, target: int) -> None:
    """``_uno_received`` (NM-UNO-1): a one-card hand received by a swap (``target``) or a
    pass (``target`` -1: every live seat) must be called, the first from the player."""
    if st[S_VULN] >= 0:
        return
    n = st[S_N]
    for k in range(1, n):
        s = (seat + k) % n
        if (s == target or (target < 0 and st[O_LIVE + s] != 0)) and st[O_HS + s] == 1:
            st[S_VULN] = s
            return


@njit(cache=True, _nrt=False)
def final_stack(st: np.ndarray, R: np.ndarray, seat: int, target: int, lg: np.ndarray) -> None:
    """``_final_stack`` (nm_last_card_effect): the target draws, the hand ends."""
    take(st, R, target, st[S_PENDTOT], np.int64(-1), False, lg)
    st[S_PENDTOT] = 0
    st[S_PEND] = -1
    if st[S_PHASE] < P_ROUND_OVER:
        end_round(st, R, seat)


@njit(cache=True, _nrt=False)
def swap_hands(st: np.ndarray, a: int, b: int) -> None:
    ka = st[O_HS + a]
    kb = st[O_HS + b]
    ba = O_HANDS + a * HC
    bb = O_HANDS + b * HC
    for i in range(max(ka, kb)):
        t = st[ba + i]
        st[ba + i] = st[bb + i]
        st[bb + i] = t
    st[O_HS + a] = kb
    st[O_HS + b] = ka


@njit(cache=True, _nrt=False)
def pass_hands(st: np.ndarray) -> None:
    """NM-ACT-0: every live hand to the next live seat in the direction of play."""
    n = st[S_N]
    for s in range(n):
        k = st[O_HS + s]
        for i in range(k):
            st[O_TMP + s * HC + i] = st[O_HANDS + s * HC + i]
        st[O_TMP + s * HC + HC - 1] = k
    for s in range(n):
        if st[O_LIVE + s]:
            t = step(st, s, np.int64(1))
            k = st[O_TMP + s * HC + HC - 1]
            for i in range(k):
                st[O_HANDS + t * HC + i] = st[O_TMP + s * HC + i]
            st[O_HS + t] = k


@njit(cache=True, _nrt=False, inline="always")
def play(
    st: np.ndarray, R: np.ndarray, seat: int, c: int, color: int, target: int, uno: int,
    lg: np.ndarray,
) -> None:  # fmt: skip
    """``_play`` (NM-ACT-*, NM-STACK-*, NM-END-1, -2)."""
    log_action(st, lg, seat, np.int64(A_PLAY), c, color, target, np.int64(uno))
    begin(st, seat, np.int64(A_PLAY))
    answering = st[S_PHASE] == P_ANSWER
    hand_remove(st, seat, c)
    st[S_DRAWN] = -1
    st[S_PHASE] = P_PLAY
    r = R[O_RANK + c]
    base = O_HANDS + seat * HC
    if r == N_DISCARDALL:  # the colour's other cards go under it (NM-ACT-DISCARDALL)
        col = c >> 4
        k = st[O_HS + seat]
        nd = st[S_NDISC]
        kept = 0
        for i in range(k):
            x = st[base + i]
            if ccolor(x) == col:
                st[O_DISC + nd] = x
                nd += 1
            else:
                st[base + kept] = x
                kept += 1
        st[S_NDISC] = nd
        st[O_HS + seat] = kept
    nd = st[S_NDISC]
    st[O_DISC + nd] = c
    st[S_NDISC] = nd + 1
    if c >= NM_W:
        if color >= 0:
            st[S_COLOR] = color
    else:
        st[S_COLOR] = c >> 4
    if (r != 0 and r != 7) or answering:
        uno_after(st, seat, uno)
    empty = st[O_HS + seat] == 0
    if empty and R[R_LASTEFF] == 0:  # NM-END-1, -2, NM-STACK-8
        end_round(st, R, seat)
        return
    v = R[O_DRAW + c]
    if v:  # NM-STACK-1
        st[S_PENDTOT] += v
        st[S_PEND] = c
        if c == NM_WR4:
            st[S_DIR] = -st[S_DIR]
        own = c == NM_WR4 and st[S_NLIVE] == 2 and not empty and not answering  # NM-2P-WRD4
        tgt = seat if own else step(st, seat, np.int64(1))
        if empty:
            final_stack(st, R, seat, tgt, lg)
            return
        st[S_PHASE] = P_ANSWER
        st[S_CUR] = tgt
        return
    if answering:  # nm_stack_deflect: a Skip or Reverse passes the stack on
        if r == N_REVERSE:
            st[S_DIR] = -st[S_DIR]
            tgt = step(st, seat, np.int64(1))
        else:
            tgt = step(st, seat, np.int64(1 if st[S_NLIVE] == 2 else 2))
        if empty:
            final_stack(st, R, seat, tgt, lg)
            return
        st[S_PHASE] = P_ANSWER
        st[S_CUR] = tgt
        return
    if empty:
        end_round(st, R, seat)
        return
    if r == 7:  # NM-ACT-7
        swap_hands(st, seat, target)
        uno_after(st, seat, uno)
        uno_received(st, seat, target)
        st[S_CUR] = step(st, seat, np.int64(1))
    elif r == 0:  # NM-ACT-0
        pass_hands(st)
        uno_after(st, seat, uno)
        uno_received(st, seat, np.int64(-1))
        st[S_CUR] = step(st, seat, np.int64(1))
    elif r == N_SKIP:
        st[S_CUR] = step(st, seat, np.int64(2))
    elif r == N_REVERSE:
        if st[S_NLIVE] == 2:
            st[S_CUR] = seat
        else:
            st[S_DIR] = -st[S_DIR]
            st[S_CUR] = step(st, seat, np.int64(1))
    elif r == N_SKIPALL:
        st[S_CUR] = seat
    elif c == NM_WCR:  # the next player names a colour
        st[S_ROULBY] = seat
        st[S_PHASE] = P_START_COLOR
        st[S_CUR] = step(st, seat, np.int64(1))
    else:
        st[S_CUR] = step(st, seat, np.int64(1))


# ================================================================ the players ====
@njit(cache=True, _nrt=False, inline="always")
def list_plays(st: np.ndarray, R: np.ndarray, seat: int, buf: np.ndarray) -> int:
    """Every play ``_turn_actions`` lists now (``_plays`` of each distinct playable card),
    4 words each in ``buf``: card, colour, target, 1 if it leaves one card (a call of UNO
    goes with it).  The number of plays."""
    phase = st[S_PHASE]
    base = O_HANDS + seat * HC
    k = st[O_HS + seat]
    n = 0
    if phase == P_DRAWN:
        first = k - 1  # the card drawn, the last one (NM-TURN-3)
        while st[base + first] != st[S_DRAWN]:
            first -= 1
        last = first + 1
    else:
        first = 0
        last = k
    seen0 = np.int64(0)
    seen1 = np.int64(0)
    one = np.int64(1)
    for i in range(first, last):
        c = st[base + i]
        bit = one << (c & 63)
        if c < 64:
            if seen0 & bit:
                continue
            seen0 |= bit
        else:
            if seen1 & bit:
                continue
            seen1 |= bit
        if phase == P_ANSWER:
            if not answers(st, R, c):
                continue
        elif phase == P_PLAY and not matches(st, R, c):
            continue
        # ``_plays``
        r = R[O_RANK + c]
        if r == N_DISCARDALL:
            left = 0
            for x in range(k):
                left += ccolor(st[base + x]) != c >> 4
        else:
            left = k - 1
        ncol = 4 if c >= NM_W and (c != NM_WCR or R[R_ROULCOL] == 1) else 1
        swaps = left > 0 and phase != P_ANSWER
        for col in range(ncol):
            colour = col if ncol == 4 else -1
            if r == 7 and swaps:
                for t in range(st[S_N]):
                    if t != seat and st[O_LIVE + t] != 0 and n < MAX_PLAYS:
                        buf[4 * n] = c
                        buf[4 * n + 1] = colour
                        buf[4 * n + 2] = t
                        buf[4 * n + 3] = st[O_HS + t] == 1
                        n += 1
            elif n < MAX_PLAYS:
                mine = left
                if r == 0 and swaps:
                    mine = st[O_HS + prev_live(st, seat)]
                buf[4 * n] = c
                buf[4 * n + 1] = colour
                buf[4 * n + 2] = -1
                buf[4 * n + 3] = mine == 1
                n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def who_acts(st: np.ndarray, passed: int) -> int:
    """``engine.state.seat_to_ask`` for these players (No Mercy has no jump-in)."""
    if st[S_PHASE] >= P_ROUND_OVER:
        return -1
    cur = st[S_CUR]
    if st[S_VULN] < 0:
        return cur
    n = st[S_N]
    for k in range(1, n):
        s = cur + k
        if s >= n:
            s -= n
        if st[O_LIVE + s] != 0 and not (passed >> s) & 1:
            return s
    return cur


@njit(cache=True, _nrt=False, inline="always")
def wants_uno(st: np.ndarray, P: np.ndarray, seat: int) -> bool:
    f = P[3 * seat + 2]
    return not (f != 0.0 and rand(st) < f)


# what ``fast_turn`` decided, as ``play_round`` counts turns
TURN_NONE = 0  # no turn of its own: the Roulette's colour, an absorb, a drawn card's play
TURN_PLAY = 1
TURN_DRAW = 2


@njit(cache=True, _nrt=False, inline="always")
def fast_turn(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, seat: int, buf: np.ndarray, lg: np.ndarray
) -> int:  # fmt: skip
    """The fast players' decision as the seat to act (nobody to catch first): a
    uniformly random legal play (each colour of a wild and each target of a 7 counts),
    among those that call UNO when some would leave one card and the player does not
    forget; else the draw or the absorb; the Roulette's colour at random.  What it was,
    as ``play_round`` counts turns (``TURN_*``); the vector environment's ``random``
    opponent is this function too (``unokit.rl.vector_nm_kernel``)."""
    phase = st[S_PHASE]
    if phase == P_START_COLOR:
        roulette(st, R, seat, below(st, np.int64(4)), lg)
        return TURN_NONE
    n = list_plays(st, R, seat, buf)
    if n == 0:
        if phase == P_ANSWER:
            absorb(st, R, seat, lg)
            return TURN_NONE
        draw(st, R, seat, lg)
        return TURN_DRAW
    calls = 0
    for i in range(n):
        calls += buf[4 * i + 3]
    call = calls > 0 and wants_uno(st, P, seat)
    if call:
        j = below(st, calls)
        i = 0
        while True:
            if buf[4 * i + 3]:
                if j == 0:
                    break
                j -= 1
            i += 1
    else:
        i = below(st, n)
    play(st, R, seat, buf[4 * i], buf[4 * i + 1], buf[4 * i + 2], np.int64(call), lg)
    return TURN_NONE if phase == P_DRAWN else TURN_PLAY


@njit(cache=True, _nrt=False)
def play_round(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, cnt: np.ndarray, buf: np.ndarray,
    lg: np.ndarray,
) -> int:  # fmt: skip
    """``ModernTable.play``'s loop for one hand; its turns, or -1 if it stalled.

    The fast players as there: their turn decisions (``fast_turn``), a catch of a missed
    call, a late call when asked out of turn."""
    rt = 0
    passed = 0
    for _ in range(R[R_MAXDEC]):
        seat = who_acts(st, passed)
        if seat < 0:
            return rt
        cur = st[S_CUR]
        v = st[S_VULN]
        if seat != cur:
            if seat == v:
                if wants_uno(st, P, seat):
                    call_uno(st, seat, lg)
                    passed = 0
                else:
                    passed |= 1 << seat
            elif v >= 0 and P[3 * seat + 1] != 0.0:
                cnt[G_CATCH] += 1
                catch(st, R, seat, v, lg)
                passed = 0
            else:
                passed |= 1 << seat
            continue
        passed = 0
        if v >= 0 and v != seat and P[3 * seat + 1] != 0.0:
            cnt[G_CATCH] += 1
            catch(st, R, seat, v, lg)
            continue
        k = fast_turn(st, R, P, seat, buf, lg)
        if k != TURN_NONE:
            rt += 1
            if k == TURN_DRAW:
                cnt[G_DRAWTURNS] += 1
    return -1  # as the driver's for-else: no winner within MAX_DECISIONS


@njit(cache=True, _nrt=False)
def play_game(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, base: np.uint64, index: int,
    fixed_dealer: int, cnt: np.ndarray, rounds: np.ndarray, buf: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """Game ``index`` from start to end (``ModernTable.play``); the number of hands."""
    n = R[R_N]
    seed_game(st, base, index)
    cnt[:] = 0
    first_dealer = fixed_dealer if fixed_dealer >= 0 else below(st, n)
    cnt[G_FIRSTDEALER] = first_dealer
    new_game(st, R)
    start_round(st, R, first_dealer, lg)
    nr = 0
    turns = 0
    while True:
        rt = play_round(st, R, P, cnt, buf, lg)
        if rt < 0:
            cnt[G_STALLED] = 1
            return nr
        if nr < rounds.shape[0]:
            rounds[nr, 0] = rt
            rounds[nr, 1] = st[S_RPTS]
        nr += 1
        turns += rt
        cnt[G_KNOCKOUTS] += st[S_KNOCK]
        if st[S_KNOCK] and st[S_NLIVE] == 1:  # NM-END-3
            cnt[G_MERCY] += 1
        if R[R_ROUNDS_ONLY] or st[S_PHASE] == P_GAME_OVER:
            break
        start_round(st, R, np.int64(-1), lg)
    winner = st[S_RWIN] if R[R_ROUNDS_ONLY] else st[S_GWIN]
    cnt[G_WINNER] = winner
    cnt[G_POS] = (winner - first_dealer) % n
    cnt[G_TURNS] = turns
    cnt[G_ROUNDS] = nr
    cnt[G_RESH] = st[S_RESH]
    return nr


@njit(cache=True)
def play_game_entry(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, base: np.uint64, index: int,
    fixed_dealer: int, cnt: np.ndarray, rounds: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """``play_game`` called from Python: the arrays are the caller's, kept alive by it."""
    buf = np.empty(BUF_SIZE, dtype=np.int64)
    nr = play_game(
        unowned(st), unowned(R), unowned(P), base, index, fixed_dealer, unowned(cnt),
        unowned(rounds), unowned(buf), unowned(lg),
    )  # fmt: skip
    return nr + 0 * buf[0]  # the owner of the view above lives to here


@njit(cache=True)
def run_games(
    R_: np.ndarray, P_: np.ndarray, base: np.uint64, start: int, size: int, fixed_dealer: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """Games ``start`` .. ``start + size - 1``: ``(games[size, G_SIZE], rounds[nr, 2], nr)``."""
    R = unowned(R_)
    P = unowned(P_)
    own = np.zeros(STATE_SIZE + 1 + G_SIZE + BUF_SIZE, dtype=np.int64)
    st = unowned(own[:STATE_SIZE])
    lg = unowned(own[STATE_SIZE : STATE_SIZE + 1])
    o = STATE_SIZE + 1
    cnt = unowned(own[o : o + G_SIZE])
    buf = unowned(own[o + G_SIZE : o + G_SIZE + BUF_SIZE])
    games = np.zeros((size, G_SIZE), dtype=np.int64)
    allr = np.zeros((max(16, size * 2), 2), dtype=np.int64)
    nr_all = 0
    rbuf_own = np.zeros((64, 2), dtype=np.int64)
    rbuf = unowned(rbuf_own)
    for g in range(size):
        nr = play_game(st, R, P, base, start + g, fixed_dealer, cnt, rbuf, buf, lg)
        while nr > rbuf.shape[0]:
            rbuf_own = np.zeros((nr * 2, 2), dtype=np.int64)
            rbuf = unowned(rbuf_own)
            nr = play_game(st, R, P, base, start + g, fixed_dealer, cnt, rbuf, buf, lg)
        games[g, :] = cnt
        if nr_all + nr > allr.shape[0]:
            bigger = np.zeros(((nr_all + nr) * 2, 2), dtype=np.int64)
            bigger[:nr_all] = allr[:nr_all]
            allr = bigger
        allr[nr_all : nr_all + nr] = rbuf[:nr]
        nr_all += nr
    keep = own[0] + rbuf_own[0, 0] + R_[0] + np.int64(P_[0])
    return games, allr, nr_all + 0 * keep
