"""UNO Flip!'s compiled twin: ``unokit.engine.modern.flip`` and the fast players, in numba.

A port of ``FlipGame`` (and the parts of ``ModernGame`` it uses) restricted to what the
simulation's fast players (``random``, ``careless``, ``reference``) do, with their
decisions as ``unokit.sim.modern.ModernTable`` makes them, in the same loop.  Each
function mirrors the method of the same name; the reference engine stays the source
of truth: ``unokit.compiled.check_game`` replays every checked game through it.

The state shares the classic kernel's layout for what both keep (``kernel.S_*`` up to
``S_LOGON``, scores, seats, hands, the piles), so the classic kernel's random numbers,
log, seats and hands serve here unchanged.  A card is a *physical* id 0..111: its light
face is ``R[O_LIGHT + id]`` (the 112 light faces in id order, the same in every game)
and its dark face ``st[O_DARK + id]`` (the game's pairing, FLIP-DECK-3: the dark faces
shuffled when the game starts, fixed for the game).  Faces are ``modern_cards``' ids,
read by arithmetic: a coloured face is ``side * 64 + colour * 16 + rank`` (its global
colour ``face >> 4``, its rank ``face & 15``), a wild is 128 or more.

The log is the classic kernel's (tags 1 action, 2 shuffle, 4 round) plus

    tag 5  pairing:  the 112 dark faces, by physical id (written when a game starts)
    tag 6  multi-play: seat, uno, count, then the faces played, the last on top

An action's ``card`` is the face it names, as in a record.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unokit.compiled.kernel import (
    HCAP,
    NMAX,
    O_DISC,
    O_HANDS,
    O_HS,
    O_LIVE,
    O_PILE,
    O_SCORES,
    S_COLOR,
    S_CUR,
    S_DEALER,
    S_DIR,
    S_DRAWN,
    S_GUILTY,
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
    S_WD4PREV,
    below,
    hand_append,
    log_action,
    log_room,
    rand,
    seed_game,
    shuffle_seg,
    step,
    unowned,
)
from unokit.compiled.kernel import new_game as classic_new_game

# ---------------------------------------------------------------- faces ---------
LIGHT, DARK = 0, 1
F_DRAW, F_REVERSE, F_SKIP, F_FLIP = 10, 11, 12, 13
WILD_F = 128
WILD_D2 = 129
WILD_DC = 130
NUM_FACES = 131

# ---------------------------------------------------------------- actions -------
A_PLAY, A_DRAW, A_KEEP, A_UNO, A_CATCH, A_CHALLENGE, A_ACCEPT, A_COLOR = range(8)

# ---------------------------------------------------------------- phases --------
P_PLAY, P_DRAWN, P_START_COLOR, P_CHALLENGE, P_ANSWER, P_ROUND_OVER, P_GAME_OVER = range(7)
CHOOSE_START, CHOOSE_FLIP = 0, 1

# ---------------------------------------------------------------- state layout --
# S_* and O_* up to O_DISC: the classic kernel's (imported above)
S_SIDE = 24
S_CHOOSE = 25
S_AFTER = 26  # an exposed Wild Draw face acts once its colour is named
S_RPTS = 27  # the points in the other hands when the round ended (the simulator's figure)
NDECK = 112
O_FACE = O_DISC + HCAP  # the light face of each physical id, then the dark face:
O_DARK = O_FACE + NDECK  # st[O_FACE + side * NDECK + id] is its face on ``side``
O_ORDER = O_DARK + NDECK  # scratch for start_round: the shuffled deck, the seats
STATE_SIZE = O_ORDER + HCAP + NMAX

# ---------------------------------------------------------------- rules layout --
R_N = 0
R_HAND = 1
R_TARGET = 2
R_SCORING = 3  # 0 standard, 1 low, 2 first-out
R_UNOPEN = 4
R_BLUFF = 5
R_UNTIL = 6
R_FORCE = 7
R_FSTART = 8  # 0 redraw, 1 flip
R_FINVERT = 9
R_FEXPOSED = 10
R_FWILDCOL = 11  # 0 flipper, 1 next_player
R_FLAST = 12  # 0 flip, 1 no_flip
R_ROUNDS_ONLY = 13
R_MAXDEC = 14
R_MULTI = 15  # R-VAR-MULTI (FLIP-OPT-1): number faces of one number played at once
R_JUMPIN = 16  # R-VAR-JUMPIN (FLIP-OPT-1): seats showing the top face are asked out of turn
O_LIGHT = 24  # the light face of each physical id
O_DARKS = O_LIGHT + NDECK  # the 112 dark faces, in id order (shuffled into a pairing)
O_POINTS = O_DARKS + NDECK  # points of each face (FLIP-SCORE-1)
RULES_SIZE = O_POINTS + NUM_FACES

SC_STANDARD, SC_LOW, SC_FIRSTOUT = range(3)

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
G_FLIPS = 11
G_SIZE = 12


# ================================================================ faces ==========
@njit(cache=True, _nrt=False, inline="always")
def fcolor(f: int) -> int:
    """The global colour of a face (0..7), -1 for a wild (``FACE_COLOR``)."""
    return f >> 4 if f < WILD_F else -1


@njit(cache=True, _nrt=False, inline="always")
def frank(f: int) -> int:
    """The rank of a face: 1..13 coloured, 16.. for wilds (``FACE_RANK``)."""
    return f & 15 if f < WILD_F else f - 112


@njit(cache=True, _nrt=False, inline="always")
def face(st: np.ndarray, R: np.ndarray, c: int) -> int:
    """``FlipGame.face``: the active face of a physical card."""
    return st[O_FACE + st[S_SIDE] * NDECK + c]


@njit(cache=True, _nrt=False, inline="always")
def top_face(st: np.ndarray, R: np.ndarray) -> int:
    return face(st, R, st[O_DISC + st[S_NDISC] - 1])


# ================================================================ piles ==========
@njit(cache=True, _nrt=False)
def refill(st: np.ndarray, lg: np.ndarray) -> bool:
    """``ModernGame._refill`` (FLIP-TURN-5): the discards under the top card become the
    draw pile (it is empty when this runs), shuffled."""
    nd = st[S_NDISC]
    if nd <= 1:
        return False
    m = nd - 1
    for i in range(m):
        st[O_PILE + i] = st[O_DISC + i]
    st[S_NPILE] = m
    st[O_DISC] = st[O_DISC + m]
    st[S_NDISC] = 1
    shuffle_seg(st, np.int64(O_PILE), m, lg)
    st[S_RESH] += 1
    return True


@njit(cache=True, _nrt=False, inline="always")
def give_one(st: np.ndarray, seat: int, lg: np.ndarray) -> int:
    """``_give_one``: one card from the draw pile into the hand; -1 when none is left."""
    if st[S_NPILE] == 0 and not refill(st, lg):
        return -1
    k = st[S_NPILE] - 1
    st[S_NPILE] = k
    c = st[O_PILE + k]
    hand_append(st, seat, c)
    return c


@njit(cache=True, _nrt=False, inline="always")
def give(st: np.ndarray, seat: int, count: int, lg: np.ndarray) -> None:
    for _ in range(count):
        if give_one(st, seat, lg) < 0:
            break


@njit(cache=True, _nrt=False)
def draw_until(
    st: np.ndarray, R: np.ndarray, seat: int, color: int, more: int, lg: np.ndarray,
) -> None:  # fmt: skip
    """FLIP-ACT-WDC: until a card of ``color`` (a wild face is none, -WDC-1), stopping
    when nothing is left (-WDC-2); then ``more`` cards."""
    while True:
        c = give_one(st, seat, lg)
        if c < 0 or fcolor(face(st, R, c)) == color:
            break
    give(st, seat, more, lg)


@njit(cache=True, _nrt=False)
def reverse_seg(st: np.ndarray, start: int, m: int) -> None:
    i = start
    j = start + m - 1
    while i < j:
        t = st[i]
        st[i] = st[j]
        st[j] = t
        i += 1
        j -= 1


# ================================================================ queries ========
@njit(cache=True, _nrt=False, inline="always")
def holds(st: np.ndarray, R: np.ndarray, seat: int, color: int) -> bool:
    """``_holds``: a card whose active face has ``color`` (a wild's is -1, as there)."""
    base = O_HANDS + seat * HCAP
    for i in range(st[O_HS + seat]):  # noqa: SIM110 (numba: plain loops and comparisons)
        if fcolor(face(st, R, st[base + i])) == color:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def matches(st: np.ndarray, R: np.ndarray, f: int) -> bool:
    """FLIP-TURN-1: the colour in force, the number or symbol, or any wild."""
    if f >= WILD_F or fcolor(f) == st[S_COLOR]:
        return True
    top = top_face(st, R)
    return top < WILD_F and frank(f) == frank(top)


@njit(cache=True, _nrt=False, inline="always")
def wild_ok(st: np.ndarray, R: np.ndarray, seat: int, f: int) -> bool:
    """FLIP-ACT-WD2, -WDC-3, FLIP-CHAL-2."""
    if (f != WILD_D2 and f != WILD_DC) or R[R_BLUFF] != 0:
        return True
    return not holds(st, R, seat, st[S_COLOR])


@njit(cache=True, _nrt=False, inline="always")
def playable_faces(st: np.ndarray, R: np.ndarray, seat: int, out: np.ndarray) -> int:
    """The faces ``_turn_actions`` plays in ``P_PLAY``, each once, in hand order, at
    ``out[:k]``; at ``out[HCAP:HCAP + k]`` the hand index of the first card showing each
    (the card that goes, ``_showing``).  Faces seen are bits of three words (131 faces)."""
    base = O_HANDS + seat * HCAP
    faces = O_FACE + st[S_SIDE] * NDECK
    color = st[S_COLOR]
    top = st[faces + st[O_DISC + st[S_NDISC] - 1]]
    trank = top & 15 if top < WILD_F else -1  # a wild on top matches by colour only
    k = 0
    seen0 = np.int64(0)
    seen1 = np.int64(0)
    seen2 = np.int64(0)
    one = np.int64(1)
    for i in range(st[O_HS + seat]):
        f = st[faces + st[base + i]]
        w = f >> 6
        bit = one << (f & 63)
        if w == 0:
            if seen0 & bit:
                continue
            seen0 |= bit
        elif w == 1:
            if seen1 & bit:
                continue
            seen1 |= bit
        else:
            if seen2 & bit:
                continue
            seen2 |= bit
        if (f >= WILD_F or f >> 4 == color or f & 15 == trank) and wild_ok(st, R, seat, f):
            out[k] = f
            out[HCAP + k] = i
            k += 1
    return k


@njit(cache=True, _nrt=False)
def hand_points(st: np.ndarray, R: np.ndarray, seat: int) -> int:
    """FLIP-SCORE-1: valued on the side in force."""
    base = O_HANDS + seat * HCAP
    t = 0
    for i in range(st[O_HS + seat]):
        t += R[O_POINTS + face(st, R, st[base + i])]
    return t


@njit(cache=True, _nrt=False)
def round_points(st: np.ndarray, R: np.ndarray, winner: int) -> int:
    t = 0
    for s in range(st[S_N]):
        if s != winner:
            t += hand_points(st, R, s)
    return t


# ================================================================ rounds =========
@njit(cache=True, _nrt=False)
def end_round(st: np.ndarray, R: np.ndarray, winner: int) -> None:
    """``_end_round`` and ``_score`` (FLIP-SCORE-1..3), then ``_finish``."""
    st[S_VULN] = -1
    st[S_RWIN] = winner
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_WD4BY] = -1
    st[S_DRAWN] = -1
    n = st[S_N]
    gw = -1
    others = 0
    if R[R_SCORING] == SC_LOW:
        top = 0
        for s in range(n):
            pts = hand_points(st, R, s)
            if s != winner:
                others += pts
            st[O_SCORES + s] += pts
            top = max(top, st[O_SCORES + s])
        if top >= R[R_TARGET]:  # engine.scoring.lowest: a tie to the winner, else the lowest seat
            best = st[O_SCORES]
            for s in range(1, n):
                best = min(best, st[O_SCORES + s])
            if st[O_SCORES + winner] == best:
                gw = winner
            else:
                for s in range(n):
                    if st[O_SCORES + s] == best:
                        gw = s
                        break
    else:
        others = round_points(st, R, winner)
        st[O_SCORES + winner] += others
        if R[R_SCORING] == SC_FIRSTOUT or st[O_SCORES + winner] >= R[R_TARGET]:
            gw = winner
    st[S_RPTS] = others
    if gw >= 0:
        st[S_GWIN] = gw
        st[S_PHASE] = P_GAME_OVER
    else:
        st[S_PHASE] = P_ROUND_OVER


@njit(cache=True, _nrt=False)
def new_game(st: np.ndarray, R: np.ndarray, lg: np.ndarray) -> None:
    """A fresh game before its first round (the classic kernel's ``new_game``: the
    layouts agree there), with its pairing (FLIP-DECK-3, logged)."""
    classic_new_game(st, R)
    for i in range(NDECK):
        st[O_FACE + i] = R[O_LIGHT + i]
        st[O_DARK + i] = R[O_DARKS + i]
    for i in range(NDECK - 1, 0, -1):
        j = below(st, i + 1)
        t = st[O_DARK + i]
        st[O_DARK + i] = st[O_DARK + j]
        st[O_DARK + j] = t
    if log_room(st, lg, NDECK + 1):
        p = st[S_LOGPOS]
        lg[p] = 5
        for i in range(NDECK):
            lg[p + 1 + i] = st[O_DARK + i]
        st[S_LOGPOS] = p + 1 + NDECK


@njit(cache=True, _nrt=False)
def turn_over(st: np.ndarray, R: np.ndarray) -> None:
    """``_turn_over`` (FLIP-FLIP-1..3): the discard pile as one stack, the draw pile,
    the hands; the colour of the new top card (none for a wild)."""
    if R[R_FINVERT]:
        reverse_seg(st, np.int64(O_DISC), st[S_NDISC])
    reverse_seg(st, np.int64(O_PILE), st[S_NPILE])
    st[S_SIDE] = 1 - st[S_SIDE]
    st[S_COLOR] = fcolor(top_face(st, R))


@njit(cache=True, _nrt=False)
def start_round(st: np.ndarray, R: np.ndarray, dealer: int, lg: np.ndarray) -> None:
    """``ModernGame.start_round`` and ``FlipGame._start`` (FLIP-SETUP, FLIP-START)."""
    n = st[S_N]
    if dealer < 0:
        dealer = (st[S_DEALER] + 1) % n if st[S_DEALER] >= 0 else 0
    o = O_ORDER
    for i in range(NDECK):
        st[o + i] = i
    for i in range(NDECK - 1, 0, -1):
        j = below(st, i + 1)
        t = st[o + i]
        st[o + i] = st[o + j]
        st[o + j] = t
    if log_room(st, lg, NDECK + 3):
        p = st[S_LOGPOS]
        lg[p] = 4
        lg[p + 1] = dealer
        lg[p + 2] = NDECK
        for i in range(NDECK):
            lg[p + 3 + i] = st[o + i]
        st[S_LOGPOS] = p + 3 + NDECK
    st[S_RIDX] += 1
    st[S_DEALER] = dealer
    for s in range(n):
        st[O_LIVE + s] = 1
        st[O_HS + s] = 0
    st[S_NLIVE] = n
    hand = R[R_HAND]
    dealt = n * hand
    for j in range(n):
        s = (dealer + 1 + j) % n
        for i in range(j, dealt, n):
            hand_append(st, s, st[o + i])
    m = NDECK - dealt
    for i in range(m):
        st[O_PILE + i] = st[o + NDECK - 1 - i]
    st[S_NPILE] = m
    st[S_NDISC] = 0
    st[S_DIR] = 1
    st[S_DRAWN] = -1
    st[S_VULN] = -1
    st[S_RWIN] = -1
    st[S_WD4BY] = -1
    st[S_PEND] = -1
    st[S_PENDTOT] = 0
    st[S_SIDE] = LIGHT
    st[S_CHOOSE] = CHOOSE_START
    st[S_AFTER] = 0
    # the start card (FLIP-START-WD2, and FLIP-START-FLIP when redrawn)
    first = (dealer + 1) % n
    m -= 1
    top = st[O_PILE + m]
    f = face(st, R, top)
    while f == WILD_D2 or (f < WILD_F and frank(f) == F_FLIP and R[R_FSTART] == 0):
        shuffle_seg(st, np.int64(O_PILE), m + 1, lg)
        top = st[O_PILE + m]
        f = face(st, R, top)
    st[S_NPILE] = m
    st[O_DISC] = top
    st[S_NDISC] = 1
    st[S_PHASE] = P_PLAY
    st[S_CUR] = first
    st[S_COLOR] = fcolor(f)
    r = frank(f)
    if f >= WILD_F:  # FLIP-START-WILD
        st[S_PHASE] = P_START_COLOR
    elif r == F_FLIP:  # FLIP-START-FLIP, flip_start="flip": revealed, no action
        turn_over(st, R)
        if top_face(st, R) >= WILD_F:
            st[S_COLOR] = -1
            st[S_PHASE] = P_START_COLOR
    elif r == F_DRAW:  # FLIP-START-D1
        give(st, first, np.int64(1), lg)
        st[S_CUR] = step(st, first, np.int64(1))
    elif r == F_SKIP:  # FLIP-START-SKIP
        st[S_CUR] = step(st, first, np.int64(1))
    elif r == F_REVERSE:  # FLIP-START-REVERSE, FLIP-2P-3
        st[S_DIR] = -1
        st[S_CUR] = dealer


# ================================================================ moves ==========
@njit(cache=True, _nrt=False, inline="always")
def begin(st: np.ndarray, seat: int, kind: int) -> None:
    """``apply_trusted``: the next decision began, too late to catch (R-UNO-2), unless
    the catchable player names the colour for the card just played."""
    if kind != A_COLOR or seat != st[S_VULN]:
        st[S_VULN] = -1


@njit(cache=True, _nrt=False)
def call_uno(st: np.ndarray, seat: int, lg: np.ndarray) -> None:
    log_action(st, lg, seat, np.int64(A_UNO), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    st[S_VULN] = -1


@njit(cache=True, _nrt=False)
def catch(st: np.ndarray, R: np.ndarray, seat: int, target: int, lg: np.ndarray) -> None:
    log_action(st, lg, seat, np.int64(A_CATCH), np.int64(-1), np.int64(-1), target, np.int64(0))
    st[S_VULN] = -1
    give(st, target, R[R_UNOPEN], lg)


@njit(cache=True, _nrt=False)
def exposed_draw(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``_exposed_draw``: an exposed Wild Draw Two / Colour hits the next player."""
    top = top_face(st, R)
    victim = step(st, seat, np.int64(1))
    if top == WILD_D2:
        give(st, victim, np.int64(2), lg)
    else:
        draw_until(st, R, victim, st[S_COLOR], np.int64(0), lg)
    st[S_CUR] = step(st, victim, np.int64(1))


@njit(cache=True, _nrt=False)
def choose_color(st: np.ndarray, R: np.ndarray, seat: int, color: int, lg: np.ndarray) -> None:
    """``_named`` (FLIP-START-WILD, FLIP-FLIP-5)."""
    log_action(st, lg, seat, np.int64(A_COLOR), np.int64(-1), color, np.int64(-1), np.int64(0))
    begin(st, seat, np.int64(A_COLOR))
    st[S_COLOR] = color
    st[S_PHASE] = P_PLAY
    if st[S_CHOOSE] == CHOOSE_FLIP:
        st[S_CUR] = step(st, seat, np.int64(1))
        if st[S_AFTER]:
            st[S_AFTER] = 0
            exposed_draw(st, R, seat, lg)


@njit(cache=True, _nrt=False)
def flip(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``_flip``: turn everything over, then the revealed top card's rule (FLIP-FLIP-4, -5)."""
    turn_over(st, R)
    top = top_face(st, R)
    nxt = step(st, seat, np.int64(1))
    st[S_CUR] = nxt
    if top >= WILD_F:
        st[S_PHASE] = P_START_COLOR
        flipper = R[R_FWILDCOL] == 0
        st[S_CHOOSE] = CHOOSE_FLIP if flipper else CHOOSE_START
        if flipper:
            st[S_CUR] = seat
        drawing = top >= WILD_D2  # Wild Draw Two or Wild Draw Colour
        st[S_AFTER] = int(R[R_FEXPOSED] != 0 and drawing and flipper)
        return
    if R[R_FEXPOSED] == 0:
        return
    r = frank(top)
    if r == F_DRAW:
        give(st, nxt, np.int64(1 if st[S_SIDE] == LIGHT else 5), lg)
        st[S_CUR] = step(st, nxt, np.int64(1))
    elif r == F_REVERSE:
        if st[S_NLIVE] == 2:
            st[S_CUR] = seat
        else:
            st[S_DIR] = -st[S_DIR]
            st[S_CUR] = step(st, seat, np.int64(1))
    elif r == F_SKIP:
        st[S_CUR] = step(st, nxt, np.int64(1)) if st[S_SIDE] == LIGHT else seat


@njit(cache=True, _nrt=False, inline="always")
def play(
    st: np.ndarray, R: np.ndarray, seat: int, f: int, color: int, uno: int, at: int,
    lg: np.ndarray,
) -> None:  # fmt: skip
    """``_play`` of face ``f`` (FLIP-ACT-*; FLIP-END-1..3): the card drawn (``P_DRAWN``),
    else the one at hand index ``at``, the first showing ``f`` (``playable_faces``)."""
    log_action(st, lg, seat, np.int64(A_PLAY), f, color, np.int64(-1), np.int64(uno))
    begin(st, seat, np.int64(A_PLAY))
    base = O_HANDS + seat * HCAP
    k = st[O_HS + seat]
    if st[S_PHASE] == P_DRAWN:
        card = st[S_DRAWN]
        at = 0
        while st[base + at] != card:
            at += 1
    else:
        card = st[base + at]
    for i in range(at + 1, k):  # ``list.remove``: the rest keep their order
        st[base + i - 1] = st[base + i]
    st[O_HS + seat] = k - 1
    st[S_DRAWN] = -1
    st[S_PHASE] = P_PLAY
    nd = st[S_NDISC]
    st[O_DISC + nd] = card
    st[S_NDISC] = nd + 1
    prev = st[S_COLOR]
    st[S_COLOR] = color if f >= WILD_F else fcolor(f)
    if st[O_HS + seat] == 1 and uno == 0:  # R-UNO-1
        st[S_VULN] = seat
    out = st[O_HS + seat] == 0
    r = frank(f)
    if f >= WILD_D2:  # Wild Draw Two or Colour: the next player may challenge (FLIP-CHAL)
        st[S_WD4BY] = seat
        st[S_WD4PREV] = prev
        st[S_GUILTY] = int(holds(st, R, seat, prev))
        st[S_PEND] = f
        st[S_PENDTOT] = 2 if f == WILD_D2 else 0
        st[S_PHASE] = P_CHALLENGE
        st[S_CUR] = step(st, seat, np.int64(1))
        return
    if f >= WILD_F:
        st[S_CUR] = step(st, seat, np.int64(1))
    elif r == F_DRAW:  # FLIP-ACT-D1, -D5 (FLIP-END-2: also as the last card)
        victim = step(st, seat, np.int64(1))
        give(st, victim, np.int64(1 if st[S_SIDE] == LIGHT else 5), lg)
        st[S_CUR] = step(st, victim, np.int64(1))
    elif r == F_FLIP:  # FLIP-FLIP-1 (FLIP-END-3)
        if out and R[R_FLAST] == 1:
            end_round(st, R, seat)
            return
        flip(st, R, seat, lg)
    elif out:
        pass
    elif r == F_REVERSE:  # FLIP-ACT-REVERSE, FLIP-2P-1
        if st[S_NLIVE] == 2:
            st[S_CUR] = seat
        else:
            st[S_DIR] = -st[S_DIR]
            st[S_CUR] = step(st, seat, np.int64(1))
    elif r == F_SKIP and st[S_SIDE] == LIGHT:  # FLIP-ACT-SKIP
        st[S_CUR] = step(st, seat, np.int64(2))
    elif r == F_SKIP:  # FLIP-ACT-SKIPALL, FLIP-2P-2: the player plays again
        st[S_CUR] = seat
    else:
        st[S_CUR] = step(st, seat, np.int64(1))
    if out and st[S_PHASE] < P_ROUND_OVER:  # FLIP-END-1
        end_round(st, R, seat)


@njit(cache=True, _nrt=False, inline="always")
def draw(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``_draw_turn`` (FLIP-TURN-2; draw_until_playable)."""
    log_action(st, lg, seat, np.int64(A_DRAW), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    begin(st, seat, np.int64(A_DRAW))
    last = -1
    while True:
        c = give_one(st, seat, lg)
        if c < 0:
            break
        last = c
        if R[R_UNTIL] == 0 or matches(st, R, face(st, R, c)):
            break
    if last >= 0 and matches(st, R, face(st, R, last)) and wild_ok(st, R, seat, face(st, R, last)):
        st[S_DRAWN] = last
        st[S_PHASE] = P_DRAWN
    else:
        st[S_CUR] = step(st, seat, np.int64(1))


@njit(cache=True, _nrt=False)
def clear_hit(st: np.ndarray) -> None:
    st[S_PHASE] = P_PLAY
    st[S_WD4BY] = -1
    st[S_PEND] = -1
    st[S_PENDTOT] = 0


@njit(cache=True, _nrt=False)
def challenge(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``_challenge`` (FLIP-CHAL-WD2, -WDC)."""
    log_action(st, lg, seat, np.int64(A_CHALLENGE), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    begin(st, seat, np.int64(A_CHALLENGE))
    by = st[S_WD4BY]
    f = st[S_PEND]
    guilty = st[S_GUILTY] != 0
    clear_hit(st)
    if guilty:
        if f == WILD_D2:
            give(st, by, np.int64(2), lg)
        else:
            draw_until(st, R, by, st[S_COLOR], np.int64(0), lg)
        st[S_CUR] = seat
    else:
        if f == WILD_D2:
            give(st, seat, np.int64(4), lg)
        else:
            draw_until(st, R, seat, st[S_COLOR], np.int64(2), lg)
        st[S_CUR] = step(st, seat, np.int64(1))
    if st[O_HS + by] == 0:
        end_round(st, R, by)


@njit(cache=True, _nrt=False)
def accept(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    """``_accept``: draw 2, or until the named colour, and lose the turn (FLIP-END-2)."""
    log_action(st, lg, seat, np.int64(A_ACCEPT), np.int64(-1), np.int64(-1), np.int64(-1),
               np.int64(0))  # fmt: skip
    begin(st, seat, np.int64(A_ACCEPT))
    by = st[S_WD4BY]
    f = st[S_PEND]
    clear_hit(st)
    if f == WILD_D2:
        give(st, seat, np.int64(2), lg)
    else:
        draw_until(st, R, seat, st[S_COLOR], np.int64(0), lg)
    st[S_CUR] = step(st, seat, np.int64(1))
    if st[O_HS + by] == 0:
        end_round(st, R, by)


# ================================================================ multi-play =====
# R-VAR-MULTI (FLIP-OPT-1, ``FlipGame._multi_faces``): after a playable number face
# ``first``, any non-empty sub-multiset S of the other number faces of its number in the
# hand, one face of S on top (the rest before it in face order): one play per distinct
# (S, top).  The fast players pick uniformly among every play, so the plays are counted
# and the chosen one decoded in the same order; nothing is listed.  ``m[x]`` is how many
# of colour x's face of that number the hand holds besides ``first``.


@njit(cache=True, _nrt=False)
def same_number(st: np.ndarray, seat: int, first: int, m: np.ndarray) -> int:
    """Fill ``m[0:4]``; the number of sub-multisets (the product of ``m[x] + 1``)."""
    rank = first & 15
    for x in range(4):
        m[x] = 0
    base = O_HANDS + seat * HCAP
    faces = O_FACE + st[S_SIDE] * NDECK
    for i in range(st[O_HS + seat]):
        g = st[faces + st[base + i]]
        if g < WILD_F and g & 15 == rank:
            m[(g >> 4) & 3] += 1
    m[(first >> 4) & 3] -= 1
    return (m[0] + 1) * (m[1] + 1) * (m[2] + 1) * (m[3] + 1)


@njit(cache=True, _nrt=False)
def multi_count(st: np.ndarray, seat: int, first: int, size: int, m: np.ndarray) -> int:
    """The multi-plays after ``first`` with ``size`` extra faces (``size`` < 0: any)."""
    combos = same_number(st, seat, first, m)
    t = 0
    for idx in range(1, combos):
        q = idx
        supp = 0
        tot = 0
        for x in range(4):
            a = q % (m[x] + 1)
            q //= m[x] + 1
            tot += a
            supp += a > 0
        if size < 0 or tot == size:
            t += supp
    return t


@njit(cache=True, _nrt=False)
def multi_decode(
    st: np.ndarray, seat: int, first: int, size: int, j: int, m: np.ndarray, out: np.ndarray,
) -> int:  # fmt: skip
    """The ``j``-th multi-play of ``multi_count``'s order: its extra faces at ``out``
    (the top last); returns how many."""
    combos = same_number(st, seat, first, m)
    side_rank = (first >> 6) * 64 + (first & 15)
    for idx in range(1, combos):
        q = idx
        supp = 0
        tot = 0
        for x in range(4):
            a = q % (m[x] + 1)
            q //= m[x] + 1
            tot += a
            supp += a > 0
        if size >= 0 and tot != size:
            continue
        if j >= supp:
            j -= supp
            continue
        q = idx
        k = 0
        top = -1
        for x in range(4):  # the j-th colour present goes on top, the rest in face order
            a = q % (m[x] + 1)
            q //= m[x] + 1
            g = side_rank + x * 16
            if a > 0 and top < 0:
                if j == 0:
                    top = g
                    a -= 1
                j -= 1
            for _ in range(a):
                out[k] = g
                k += 1
        out[k] = top
        return k + 1
    return 0


@njit(cache=True, _nrt=False)
def play_multi(
    st: np.ndarray, R: np.ndarray, seat: int, first: int, at: int, extra: np.ndarray, k: int,
    uno: int, lg: np.ndarray,
) -> None:  # fmt: skip
    """``_play`` of ``first`` (at hand index ``at``) and the ``k`` number faces ``extra``
    after it, each the first card showing it; the last on top acts (a number: none)."""
    if log_room(st, lg, k + 5):
        p = st[S_LOGPOS]
        lg[p] = 6
        lg[p + 1] = seat
        lg[p + 2] = uno
        lg[p + 3] = k + 1
        lg[p + 4] = first
        for i in range(k):
            lg[p + 5 + i] = extra[i]
        st[S_LOGPOS] = p + 5 + k
    begin(st, seat, np.int64(A_PLAY))
    base = O_HANDS + seat * HCAP
    faces = O_FACE + st[S_SIDE] * NDECK
    f = first
    for n in range(k + 1):
        if n > 0:
            f = extra[n - 1]
            at = 0
            while st[faces + st[base + at]] != f:
                at += 1
        card = st[base + at]
        hs = st[O_HS + seat]
        for i in range(at + 1, hs):
            st[base + i - 1] = st[base + i]
        st[O_HS + seat] = hs - 1
        nd = st[S_NDISC]
        st[O_DISC + nd] = card
        st[S_NDISC] = nd + 1
    st[S_DRAWN] = -1
    st[S_PHASE] = P_PLAY
    st[S_COLOR] = fcolor(f)
    if st[O_HS + seat] == 1 and uno == 0:  # R-UNO-1
        st[S_VULN] = seat
    if st[O_HS + seat] == 0:  # FLIP-END-1 (the turn stays, as for a single card)
        end_round(st, R, seat)
    else:
        st[S_CUR] = step(st, seat, np.int64(1))


# ================================================================ the players ====
@njit(cache=True, _nrt=False)
def jump_ins(st: np.ndarray, seat: int) -> bool:
    """``FlipGame._jump_actions`` is not empty: R-VAR-JUMPIN, ``seat`` shows the top card's
    coloured face while the player to act has not begun (``P_PLAY``)."""
    if st[S_PHASE] != P_PLAY or seat == st[S_CUR] or st[O_LIVE + seat] == 0:
        return False
    faces = O_FACE + st[S_SIDE] * NDECK
    top = st[faces + st[O_DISC + st[S_NDISC] - 1]]
    if top >= WILD_F:
        return False
    base = O_HANDS + seat * HCAP
    for i in range(st[O_HS + seat]):  # noqa: SIM110 (numba: plain loops and comparisons)
        if st[faces + st[base + i]] == top:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def who_acts(st: np.ndarray, R: np.ndarray, passed: int) -> int:
    """``engine.state.seat_to_ask``: clockwise from the seat after the one to act, every
    other live seat while one is catchable, else (``jump_in``) those that may jump in,
    not in ``passed``; then the seat to act.  The fast players let a jump-in go by, but
    each chance is a decision of the driver's, counted against ``MAX_DECISIONS``."""
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
        if st[O_LIVE + s] != 0 and not (passed >> s) & 1 and (catchable or jump_ins(st, s)):
            return s
    return cur


@njit(cache=True, _nrt=False, inline="always")
def wants_uno(st: np.ndarray, P: np.ndarray, seat: int) -> bool:
    f = P[3 * seat + 2]
    return not (f != 0.0 and rand(st) < f)


@njit(cache=True, _nrt=False)
def multi_turn(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, seat: int, buf: np.ndarray, k: int,
    lg: np.ndarray,
) -> int:  # fmt: skip
    """The fast player's play under R-VAR-MULTI (``ModernTable``'s pick): uniformly among
    the plays that call UNO (those leaving one card) when there are some and the player
    does not forget, else among every play without the call: single faces (a wild once
    per colour) and multi-plays.  A multi-play is played here (-1); a single play is
    returned as ``2 * j + uno`` for the caller, ``j`` its index among the single plays.
    ``buf[2 * HCAP:]`` is scratch."""
    hs = st[O_HS + seat]
    m = buf[2 * HCAP : 2 * HCAP + 4]
    out = buf[2 * HCAP + 8 : 2 * HCAP + 24]
    singles = 0
    multis = 0
    calls = 0
    for i in range(k):
        f = buf[i]
        singles += 4 if f >= WILD_F else 1
        if f < WILD_F and f & 15 <= 9:
            multis += multi_count(st, seat, f, np.int64(-1), m)
            if hs >= 3:
                calls += multi_count(st, seat, f, hs - 2, m)
    if hs == 2:
        calls = singles  # every single play leaves one card (a multi-play leaves none)
    if calls > 0 and wants_uno(st, P, seat):
        j = below(st, calls)
        if hs == 2:
            return 2 * j + 1
        size = hs - 2
        uno = 1
    else:
        j = below(st, singles + multis)
        if j < singles:
            return 2 * j
        j -= singles
        size = -1
        uno = 0
    for i in range(k):
        f = buf[i]
        if f >= WILD_F or f & 15 > 9:
            continue
        c = multi_count(st, seat, f, size, m)
        if j < c:
            n = multi_decode(st, seat, f, size, j, m, out)
            play_multi(st, R, seat, f, buf[HCAP + i], out, n, np.int64(uno), lg)
            return -1
        j -= c
    return -1  # never: ``j`` is below the plays counted


@njit(cache=True, _nrt=False)
def play_round(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, cnt: np.ndarray, buf: np.ndarray,
    lg: np.ndarray,
) -> int:  # fmt: skip
    """``ModernTable.play``'s loop for one round; its turns, or -1 if it stalled.

    The fast players as there: a uniformly random legal play (a wild face once per
    colour of the side), calling UNO unless a careless player forgets; else the draw,
    then the drawn card if it plays; random colours; a challenge with the seat's
    chance; a catch of a missed call; a late call when asked out of turn."""
    rt = 0
    passed = 0
    for _ in range(R[R_MAXDEC]):
        seat = who_acts(st, R, passed)
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
        side = st[S_SIDE]
        phase = st[S_PHASE]
        if phase <= P_DRAWN:
            at = -1  # a play of face ``f`` (the card at hand index ``at``), or none
            if phase == P_PLAY:
                rt += 1
                k = playable_faces(st, R, seat, buf)
                pick = -1
                uno = False
                if k == 0:
                    cnt[G_DRAWTURNS] += 1
                    draw(st, R, seat, lg)
                elif R[R_MULTI] != 0:
                    pick = multi_turn(st, R, P, seat, buf, k, lg)
                    uno = pick >= 0 and pick & 1 == 1
                    pick >>= 1
                else:
                    wilds = 0
                    for i in range(k):
                        wilds += buf[i] >= WILD_F
                    pick = below(st, k + 3 * wilds)  # a wild face is one play per colour
                    uno = st[O_HS + seat] == 2 and wants_uno(st, P, seat)
                f = -1
                color = -1
                for i in range(k if pick >= 0 else 0):  # the pick-th single play
                    w = 4 if buf[i] >= WILD_F else 1
                    if pick < w:
                        f = buf[i]
                        at = buf[HCAP + i]
                        if w == 4:
                            color = side * 4 + pick
                        break
                    pick -= w
            else:
                f = face(st, R, st[S_DRAWN])
                color = side * 4 + below(st, np.int64(4)) if f >= WILD_F else -1
                uno = st[O_HS + seat] == 2 and wants_uno(st, P, seat)
                at = st[O_HS + seat]  # not an index: play() finds the card drawn
            if at >= 0:
                play(st, R, seat, f, color, np.int64(uno), at, lg)
        elif phase == P_START_COLOR:
            choose_color(st, R, seat, side * 4 + below(st, np.int64(4)), lg)
        else:  # P_CHALLENGE
            p = P[3 * seat]
            if p != 0.0 and rand(st) < p:
                cnt[G_CHAL] += 1
                cnt[G_CHALWON] += st[S_GUILTY]
                challenge(st, R, seat, lg)
            else:
                accept(st, R, seat, lg)
        if st[S_SIDE] != side:
            cnt[G_FLIPS] += 1
    return -1  # as the driver's for-else: no winner within MAX_DECISIONS


@njit(cache=True, _nrt=False)
def play_game(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, base: np.uint64, index: int,
    fixed_dealer: int, cnt: np.ndarray, rounds: np.ndarray, buf: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """Game ``index`` from start to end (``ModernTable.play``); the number of rounds,
    which may exceed ``rounds``' length (then only the first rows are written)."""
    n = R[R_N]
    seed_game(st, base, index)
    cnt[:] = 0
    first_dealer = fixed_dealer if fixed_dealer >= 0 else below(st, n)
    cnt[G_FIRSTDEALER] = first_dealer
    new_game(st, R, lg)
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
    buf = np.empty(3 * HCAP, dtype=np.int64)
    nr = play_game(
        unowned(st), unowned(R), unowned(P), base, index, fixed_dealer, unowned(cnt),
        unowned(rounds), unowned(buf), unowned(lg),
    )  # fmt: skip
    return nr + 0 * buf[0]  # the owner of the view above lives to here


@njit(cache=True)
def run_games(
    R_: np.ndarray, P_: np.ndarray, base: np.uint64, start: int, size: int, fixed_dealer: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """Games ``start`` .. ``start + size - 1``: ``(games[size, G_SIZE], rounds[nr, 2], nr)``,
    rows of (turns, points) per round; a stalled game has ``G_STALLED`` set and adds
    only its finished rounds (as the driver does)."""
    R = unowned(R_)
    P = unowned(P_)
    own = np.zeros(STATE_SIZE + 1 + G_SIZE + 3 * HCAP, dtype=np.int64)
    st = unowned(own[:STATE_SIZE])
    lg = unowned(own[STATE_SIZE : STATE_SIZE + 1])
    o = STATE_SIZE + 1
    cnt = unowned(own[o : o + G_SIZE])
    buf = unowned(own[o + G_SIZE : o + G_SIZE + 3 * HCAP])
    games = np.zeros((size, G_SIZE), dtype=np.int64)
    allr = np.zeros((max(16, size * 2), 2), dtype=np.int64)
    nr_all = 0
    rbuf_own = np.zeros((64, 2), dtype=np.int64)
    rbuf = unowned(rbuf_own)
    for g in range(size):
        nr = play_game(st, R, P, base, start + g, fixed_dealer, cnt, rbuf, buf, lg)
        while nr > rbuf.shape[0]:  # a long game: again, with room for every round
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
    keep = own[0] + rbuf_own[0, 0] + R_[0] + np.int64(P_[0])  # the owners live to here
    return games, allr, nr_all + 0 * keep
