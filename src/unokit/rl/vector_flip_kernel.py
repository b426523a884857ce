"""UNO Flip!'s compiled half of ``unokit.rl.vector``: many games in one numba call.

The twin of ``unokit.rl.vector_kernel`` (classic) for Flip: the same entry points,
control columns (``C_*``) and settings (``V_*``), on the compiled Flip engine's state
(``unokit.compiled.flip_kernel``, one row of ``ST`` a game) and rules array (``R``).
What is new here is only what an RL environment adds on top of that kernel's moves:

* ``observe``: the observation and mask of one seat in Flip's tables
  (``unokit.obs.flip``): a port of ``obs.flip.encode_view`` and of
  ``GameTables.mask_of_view`` (``FlipGame.legal_actions`` through ``action_index``,
  multi-plays left out, PASS for a live seat not to act), reading only what the
  seat's ``view`` holds: the active faces of its own cards, the inactive faces of the
  others' and of the draw pile's top card, the top card's active face.
* ``apply_index``: a table index applied with the Flip kernel's trusted moves (a
  jump-in makes the jumper the seat to act first, as ``FlipGame._do`` does).
* who decides next is ``flip_kernel.who_acts`` (``seat_to_ask``), never a copy; the
  only state added per game is the AEC table's (``C_*``: the seats that passed, the
  decisions of the episode, the learner's seat) and, after the Flip kernel's state in
  each row, the observation slots of the pairing's dark faces (``X_DSLOT``).
* ``bot_act``: the ``random`` opponent of the single-agent case: the decisions of the
  simulator's fast random player (``flip_kernel.play_round``), one *single* face a
  play even under ``multi_play`` (the table offers no multi-play, and neither do its
  opponents), with ``vector_kernel.bot_act``'s reactions: a catchable seat is caught
  whenever asked, a late UNO called, never a jump-in.
* ``ma_step`` / ``sa_step``: a whole batch, with rewards, ends and automatic reset.

The differential test (``tests/test_rl_vector_flip.py``) holds it to the AEC
environment (``uno_v1``'s ``ViewTable``) decision by decision.  Everything below the
entry points is compiled without numba's runtime (``_nrt=False``): it takes views
without reference counts (``unowned``) and allocates nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unokit.compiled.flip_kernel import (
    NDECK,
    O_DARK,
    O_FACE,
    P_CHALLENGE,
    P_DRAWN,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    R_FORCE,
    R_JUMPIN,
    R_N,
    R_SCORING,
    R_TARGET,
    RULES_SIZE,
    S_SIDE,
    SC_FIRSTOUT,
    SC_LOW,
    STATE_SIZE,
    WILD_F,
    accept,
    call_uno,
    catch,
    challenge,
    choose_color,
    draw,
    hand_points,
    jump_ins,
    new_game,
    play,
    playable_faces,
    start_round,
    wants_uno,
    who_acts,
)
from unokit.compiled.kernel import (
    HCAP,
    O_DISC,
    O_HANDS,
    O_HS,
    O_LIVE,
    O_PILE,
    O_SCORES,
    S_COLOR,
    S_CUR,
    S_DIR,
    S_DRAWN,
    S_LOGOVF,
    S_LOGPOS,
    S_N,
    S_NDISC,
    S_NPILE,
    S_PEND,
    S_PENDTOT,
    S_PHASE,
    S_RWIN,
    S_VULN,
    S_WD4BY,
    below,
    keep,
    rand,
    unowned,
)

# ``unokit.rl.vector`` switches the log on with it (it reads this module's S_LOG*)
from unokit.compiled.kernel import S_LOGON as S_LOGON
from unokit.obs.flip import (
    A_ACCEPT,
    A_CATCH,
    A_CHALLENGE,
    A_COLOR,
    A_DRAW,
    A_KEEP,
    A_PASS,
    A_PLAY_WILD,
    A_UNO,
    A_UNO_PLAYS,
    LAYOUT,
    NF,
    NUM_PLAYS,
    RULE_FEATURES,
)

# classic's kernel's game-independent helpers, one copy for every game (``seed_all`` and
# ``first_illegal`` are entry points ``unokit.rl.vector`` calls on this module)
from unokit.rl.vector_kernel import first_illegal as first_illegal
from unokit.rl.vector_kernel import keep_last, rel
from unokit.rl.vector_kernel import seed_all as seed_all

# ---------------------------------------------------------------- per-game control --
C_AGENT = 0  # the seat whose decision the row's observation is for
C_PASSED = 1  # seats that let the current out-of-turn chance go by (bit mask)
C_STEPS = 2  # decisions of this episode (the learner's, in the single-agent case)
C_SEAT = 3  # the learner's seat (single-agent)
C_EPISODES = 4  # episodes finished by this game (both ends)
C_SIZE = 8

# ---------------------------------------------------------------- settings (V) ------
V_MAXSTEPS = 0  # 0: no truncation
V_REWARD = 1  # 0 "win", 1 "score"
V_OPPONENT = 2  # 0 random (the only one)
V_SEAT = 3  # the learner's seat, -1: a random seat each episode
V_BOTDEC = 4  # opponent decisions per learner step before the episode counts as stalled
V_FEATS = 8  # the rule features of the observation (obs.flip.RULE_FEATURES)
NFEATS = len(RULE_FEATURES)
V_SIZE = V_FEATS + NFEATS

# sa_step's statuses of a game after the opponents moved
LEARNER = 0
ROUND_OVER = 1
STALLED = 2

# the observation's blocks (obs.flip.LAYOUT), as constants numba folds in
OB_HAND = LAYOUT["hand"]
OB_OTHERS = LAYOUT["others"]
OB_TOP = LAYOUT["top"]
OB_PILE_TOP = LAYOUT["pile_top"]
OB_COLOR = LAYOUT["color"]
OB_SIDE = LAYOUT["side"]
OB_DRAWN = LAYOUT["drawn"]
OB_PENDING = LAYOUT["pending"]
OB_PHASE = LAYOUT["phase"]
OB_TO_ACT = LAYOUT["to_act"]
OB_HAND_SIZE = LAYOUT["hand_size"]
OB_ONE_CARD = LAYOUT["one_card"]
OB_VULNERABLE = LAYOUT["vulnerable"]
OB_WD4_BY = LAYOUT["wd4_by"]
OB_LIVE = LAYOUT["live"]
OB_DIRECTION = LAYOUT["direction"]
OB_DRAW_PILE = LAYOUT["draw_pile"]
OB_DISCARD_SIZE = LAYOUT["discard_size"]
OB_PENDING_TOTAL = LAYOUT["pending_total"]
OB_SCORES = LAYOUT["scores"]
OB_RULES = LAYOUT["rules"]
CAP = 255  # a count's cap in the observation (uint8)

# What this module adds to the Flip kernel's arrays, for the observation's hot loop
# (every card in every hand, face by face): the observation slot of each card's light
# face after the rules (``R``, the same in every game, ``FlipVector.arrays``), and of its
# dark face after each game's state (the game's pairing, written by ``new_episode``).
# Against the face looked up and its slot computed, this halved ``observe``'s time at
# four seats (measured); the light side's table is shared by every game (in cache).
R_LSLOT = RULES_SIZE
R_SIZE = R_LSLOT + NDECK
X_DSLOT = STATE_SIZE
ROW_SIZE = X_DSLOT + NDECK


# ================================================================ faces ============
@njit(cache=True, _nrt=False, inline="always")
def slot(f: int) -> int:
    """``obs.flip.face_slot``: ``side * 52 + colour * 13 + rank - 1``, wilds 104..106."""
    if f >= WILD_F:
        return 104 + f - WILD_F
    return (f >> 6) * 52 + ((f >> 4) & 3) * 13 + (f & 15) - 1


@njit(cache=True, _nrt=False, inline="always")
def slot_face(i: int) -> int:
    """``obs.flip.SLOT_FACE`` of a coloured slot (0..103): the face it stands for."""
    side = i // 52
    r = i - side * 52
    col = r // 13
    return side * 64 + col * 16 + r - col * 13 + 1


# ================================================================ observation ======
@njit(cache=True, _nrt=False, inline="always")
def plays_of(m: np.ndarray, f: int, left: int) -> None:
    """``FlipGame._plays`` of face ``f`` as table indices: every colour of the side
    for a wild, and the same play calling UNO when it leaves one card."""
    if f >= WILD_F:
        i0 = A_PLAY_WILD + (f - WILD_F) * 4
        for c in range(4):
            m[i0 + c] = 1
            if left == 1:
                m[i0 + c + A_UNO_PLAYS] = 1
    else:
        i = slot(f)
        m[i] = 1
        if left == 1:
            m[i + A_UNO_PLAYS] = 1


@njit(cache=True, _nrt=False)
def legal_mask(st: np.ndarray, R: np.ndarray, seat: int, buf: np.ndarray, m: np.ndarray) -> None:
    """The mask of ``seat`` (``m`` all zero on entry): ``FlipGame.legal_actions``
    (``_turn_actions``, ``_jump_actions``, the UNO call and the catch) of one face
    each through ``obs.flip.action_index``, and PASS (``GameTables.mask_of_view``)."""
    phase = st[S_PHASE]
    if phase >= P_ROUND_OVER or st[O_LIVE + seat] == 0:
        return
    cur = st[S_CUR]
    n = st[S_N]
    left = st[O_HS + seat] - 1
    faces = O_FACE + st[S_SIDE] * NDECK
    if seat == cur:
        if phase == P_PLAY:
            k = playable_faces(st, R, seat, buf)  # each face once
            for i in range(k):
                plays_of(m, buf[i], left)
            m[A_DRAW] = 1
        elif phase == P_DRAWN:
            plays_of(m, st[faces + st[S_DRAWN]], left)
            if R[R_FORCE] == 0:
                m[A_KEEP] = 1
        elif phase == P_START_COLOR:
            for c in range(4):
                m[A_COLOR + c] = 1
        else:  # P_CHALLENGE (Flip has no answer phase)
            m[A_CHALLENGE] = 1
            m[A_ACCEPT] = 1
    else:
        if R[R_JUMPIN] != 0 and jump_ins(st, seat):
            plays_of(m, st[faces + st[O_DISC + st[S_NDISC] - 1]], left)
        m[A_PASS] = 1
    v = st[S_VULN]
    if v >= 0:
        if v == seat:
            m[A_UNO] = 1
        else:
            m[A_CATCH + rel(v, seat, n) - 1] = 1


@njit(cache=True, _nrt=False)
def observe(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, seat: int, buf: np.ndarray,
    o: np.ndarray, m: np.ndarray,
) -> None:  # fmt: skip
    """``seat``'s observation into ``o`` and its mask into ``m``: ``obs.flip.
    encode_view`` of ``FlipGame.view(seat)``, which shows the seat only the active
    faces of its own cards, the inactive faces of every other hand and of the draw
    pile's top card, and the discard pile's top active face."""
    o[:] = 0
    m[:] = 0
    n = st[S_N]
    side = st[S_SIDE]
    # the slot of a card's active face is own[lo + card], of its inactive face
    # other[ho + card]: the light side's in R, the dark side's in the game's state
    if side == 0:
        own, lo, other, ho = R, R_LSLOT, st, X_DSLOT
    else:
        own, lo, other, ho = st, X_DSLOT, R, R_LSLOT
    base = O_HANDS + seat * HCAP
    for i in range(st[O_HS + seat]):
        o[OB_HAND + own[lo + st[base + i]]] += 1
    s = seat
    for k in range(1, n):
        s += 1
        if s == n:
            s = 0
        b = O_HANDS + s * HCAP
        ob = OB_OTHERS + (k - 1) * NF
        for i in range(st[O_HS + s]):
            o[ob + other[ho + st[b + i]]] += 1
    nd = st[S_NDISC]
    if nd > 0:
        o[OB_TOP + own[lo + st[O_DISC + nd - 1]]] = 1
    npile = st[S_NPILE]
    if npile > 0:
        o[OB_PILE_TOP + other[ho + st[O_PILE + npile - 1]]] = 1
    color = st[S_COLOR]
    if color >= 0:
        o[OB_COLOR + color] = 1
    o[OB_SIDE] = side
    phase = st[S_PHASE]
    if phase < P_ROUND_OVER:
        cur = st[S_CUR]
        o[OB_PHASE + phase] = 1
        o[OB_TO_ACT + rel(cur, seat, n)] = 1
        if phase == P_DRAWN:
            if cur == seat:  # the view shows the card drawn to the drawer only
                o[OB_DRAWN + own[lo + st[S_DRAWN]]] = 1
        elif phase == P_CHALLENGE:
            pend = st[S_PEND]
            if pend >= 0:
                o[OB_PENDING + slot(pend)] = 1
            by = st[S_WD4BY]
            if by >= 0:
                o[OB_WD4_BY + rel(by, seat, n)] = 1
            o[OB_PENDING_TOTAL] = min(st[S_PENDTOT], CAP)
    v = st[S_VULN]
    if v >= 0:
        o[OB_VULNERABLE + rel(v, seat, n)] = 1
    target = R[R_TARGET]
    s = seat
    for j in range(n):
        k = st[O_HS + s]
        o[OB_HAND_SIZE + j] = min(k, CAP)
        if k == 1:
            o[OB_ONE_CARD + j] = 1
        o[OB_LIVE + j] = st[O_LIVE + s]
        o[OB_SCORES + j] = min(CAP, st[O_SCORES + s] * 100 // target)
        s += 1
        if s == n:
            s = 0
    if st[S_DIR] == 1:
        o[OB_DIRECTION] = 1
    o[OB_DRAW_PILE] = min(npile, CAP)
    o[OB_DISCARD_SIZE] = min(nd, CAP)
    for i in range(NFEATS):
        o[OB_RULES + i] = V[V_FEATS + i]
    legal_mask(st, R, seat, buf, m)


# ================================================================ acting ===========
# ``flip_kernel.play`` and ``draw`` are inlined into their callers; called through these
# two, they are compiled once here instead of at every call site.
@njit(cache=True, _nrt=False)
def do_play(
    st: np.ndarray, R: np.ndarray, seat: int, f: int, color: int, uno: int, at: int,
    lg: np.ndarray,
) -> None:  # fmt: skip
    play(st, R, seat, f, color, uno, at, lg)


@njit(cache=True, _nrt=False)
def do_draw(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    draw(st, R, seat, lg)


@njit(cache=True, _nrt=False)
def showing(st: np.ndarray, seat: int, f: int) -> int:
    """``FlipGame._showing``: the hand index of the first card showing face ``f``."""
    faces = O_FACE + st[S_SIDE] * NDECK
    base = O_HANDS + seat * HCAP
    for i in range(st[O_HS + seat]):
        if st[faces + st[base + i]] == f:
            return i
    return -1  # never: the mask offered only faces the hand shows


@njit(cache=True, _nrt=False)
def apply_index(st: np.ndarray, R: np.ndarray, seat: int, a: int, lg: np.ndarray) -> bool:
    """Table index ``a`` for ``seat`` with the kernel's trusted moves (the mask allowed
    it); False for PASS, which changes nothing but the pass set."""
    n = st[S_N]
    side = st[S_SIDE]
    if a < 2 * NUM_PLAYS:
        uno = a >= A_UNO_PLAYS
        i = a - A_UNO_PLAYS if uno else a
        if i < A_PLAY_WILD:
            f = slot_face(i)
            color = -1
        else:
            f = WILD_F + (i - A_PLAY_WILD) // 4
            color = side * 4 + (i - A_PLAY_WILD) % 4  # a colour of the side in play
        at = 0
        if st[S_PHASE] != P_DRAWN:  # the card drawn is found by ``play`` itself
            at = showing(st, seat, f)
        if seat != st[S_CUR]:  # a jump-in: play goes on from the jumper (FlipGame._do)
            st[S_CUR] = seat
        do_play(st, R, seat, f, color, np.int64(1 if uno else 0), at, lg)
    elif a == A_DRAW:
        do_draw(st, R, seat, lg)
    elif a == A_KEEP:
        keep(st, seat, lg)  # the classic kernel's: the layouts agree
    elif a == A_ACCEPT:
        accept(st, R, seat, lg)
    elif a == A_CHALLENGE:
        challenge(st, R, seat, lg)
    elif a == A_UNO:
        call_uno(st, seat, lg)
    elif a < A_COLOR:
        catch(st, R, seat, (seat + a - A_CATCH + 1) % n, lg)
    elif a < A_PASS:
        choose_color(st, R, seat, side * 4 + a - A_COLOR, lg)
    else:
        return False
    return True


@njit(cache=True, _nrt=False)
def round_rewards(st: np.ndarray, R: np.ndarray, V: np.ndarray, out: np.ndarray) -> None:
    """``ViewTable.round_rewards``: each seat's reward for the round just over, in
    ``out`` (the same float operations in the same order, so the values are identical):
    +1/-1 under "win" and first-out scoring; under "score" the winner gains the others'
    hand points / 100 and each other seat loses its own / 100 (low scoring: every seat
    loses its own)."""
    n = st[S_N]
    w = st[S_RWIN]
    if w < 0:
        for s in range(n):
            out[s] = 0.0
        return
    scoring = R[R_SCORING]
    if V[V_REWARD] == 0 or scoring == SC_FIRSTOUT:
        for s in range(n):
            out[s] = 1.0 if s == w else -1.0
        return
    if scoring == SC_LOW:
        for s in range(n):
            out[s] = -(hand_points(st, R, s) / 100)
        return
    gained = 0.0
    for s in range(n):
        if s != w:
            gained += hand_points(st, R, s) / 100
    for s in range(n):
        out[s] = gained if s == w else -(hand_points(st, R, s) / 100)


@njit(cache=True, _nrt=False)
def new_episode(st: np.ndarray, R: np.ndarray, ct: np.ndarray, lg: np.ndarray) -> None:
    """A new game (its pairing) and its first round (the dealer drawn at random), the
    table's state cleared; the game's random generator goes on."""
    st[S_LOGPOS] = 0
    st[S_LOGOVF] = 0
    new_game(st, R, lg)
    for c in range(NDECK):  # the observation's table of the pairing's dark faces
        st[X_DSLOT + c] = slot(st[O_DARK + c])
    start_round(st, R, below(st, R[R_N]), lg)
    ct[C_PASSED] = 0
    ct[C_STEPS] = 0


# ================================================================ opponents ========
@njit(cache=True, _nrt=False)
def bot_act(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, s: int, buf: np.ndarray, lg: np.ndarray
) -> bool:
    """The ``random`` opponent in seat ``s``, asked by ``who_acts``: True if it acted,
    False if it let an out-of-turn chance go by.

    Its turns are ``flip_kernel.play_round``'s fast random player, the same random
    numbers in the same order: a uniformly random single play (a wild once per colour
    of the side), UNO called with it, else the draw; the card drawn played if it plays;
    a random colour of the side; a challenge with the seat's chance.  Under
    ``multi_play`` it plays single faces only, as the table does.  As
    ``vector_kernel.bot_act``: it catches a catchable seat whenever asked (before its
    own turn too), calls UNO when asked while catchable itself, never jumps in."""
    v = st[S_VULN]
    if v >= 0:
        if v != s:
            catch(st, R, s, v, lg)
        else:
            call_uno(st, s, lg)
        return True
    cur = st[S_CUR]
    if s != cur:
        return False
    side = st[S_SIDE]
    phase = st[S_PHASE]
    hs = st[O_HS + s]
    if phase == P_PLAY:
        k = playable_faces(st, R, s, buf)
        if k == 0:
            do_draw(st, R, s, lg)
            return True
        wilds = 0
        for i in range(k):
            if buf[i] >= WILD_F:
                wilds += 1
        pick = below(st, k + 3 * wilds)  # a wild face is one play per colour
        uno = hs == 2 and wants_uno(st, P, s)
        for i in range(k):
            w = 4 if buf[i] >= WILD_F else 1
            if pick < w:
                color = side * 4 + pick if w == 4 else -1
                do_play(st, R, s, buf[i], color, np.int64(1 if uno else 0), buf[HCAP + i], lg)
                break
            pick -= w
    elif phase == P_DRAWN:
        f = st[O_FACE + side * NDECK + st[S_DRAWN]]
        color = side * 4 + below(st, np.int64(4)) if f >= WILD_F else -1
        uno = hs == 2 and wants_uno(st, P, s)
        do_play(st, R, s, f, color, np.int64(1 if uno else 0), hs, lg)
    elif phase == P_START_COLOR:
        choose_color(st, R, s, side * 4 + below(st, np.int64(4)), lg)
    else:  # P_CHALLENGE
        p = P[3 * s]
        if p != 0.0 and rand(st) < p:
            challenge(st, R, s, lg)
        else:
            accept(st, R, s, lg)
    return True


@njit(cache=True, _nrt=False)
def run_bots(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray, ct: np.ndarray,
    buf: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """The opponents decide, in ``who_acts``' order, until the learner must
    (``LEARNER``), the round is over (``ROUND_OVER``) or ``V_BOTDEC`` decisions went by
    (``STALLED``: a loop the rules force, docs/rl.md)."""
    learner = ct[C_SEAT]
    passed = ct[C_PASSED]
    for _ in range(V[V_BOTDEC]):
        s = who_acts(st, R, passed)
        if s < 0:
            return ROUND_OVER
        if s == learner:
            ct[C_PASSED] = passed
            return LEARNER
        if bot_act(st, R, P, s, buf, lg):
            passed = 0
        else:
            passed |= 1 << s
    return STALLED


@njit(cache=True, _nrt=False)
def first_learner_decision(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray, ct: np.ndarray,
    buf: np.ndarray, lg: np.ndarray,
) -> None:  # fmt: skip
    """New episodes until the opponents leave the learner a decision (a round that
    ends before the learner's first one is dealt again, as ``UnoGymEnv.reset`` does)."""
    while True:
        new_episode(st, R, ct, lg)
        seat = V[V_SEAT]
        ct[C_SEAT] = seat if seat >= 0 else below(st, R[R_N])
        if run_bots(st, R, V, P, ct, buf, lg) == LEARNER:
            return


# ================================================================ batches ==========
@njit(cache=True, _nrt=False)
def ma_reset_in(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, LG: np.ndarray,
    buf: np.ndarray, OBS: np.ndarray, MASK: np.ndarray,
) -> None:  # fmt: skip
    """Every game anew (its generator seeded by the caller); the first decisions."""
    for i in range(ST.shape[0]):
        st = ST[i]
        ct = CT[i]
        new_episode(st, R, ct, LG[i])
        s = who_acts(st, R, 0)
        ct[C_AGENT] = s
        observe(st, R, V, s, buf, OBS[i], MASK[i])


@njit(cache=True, _nrt=False)
def ma_step_in(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, LG: np.ndarray,
    LAST: np.ndarray, buf: np.ndarray, actions: np.ndarray, OBS: np.ndarray,
    MASK: np.ndarray, REW: np.ndarray, TERM: np.ndarray, TRUNC: np.ndarray,
) -> None:  # fmt: skip
    """Every game's selected seat takes its action (masks checked by the caller); the
    rewards of every seat, the ends, a new episode where one ended, and the next
    decision's observation and mask.  ``LAST[i]``: an ended episode's log (records)."""
    for i in range(ST.shape[0]):
        st = ST[i]
        ct = CT[i]
        lg = LG[i]
        seat = ct[C_AGENT]
        rw = REW[i]
        rw[:] = 0.0
        TERM[i] = False
        TRUNC[i] = False
        if apply_index(st, R, seat, actions[i], lg):
            ct[C_PASSED] = 0
        else:
            ct[C_PASSED] |= 1 << seat
        nxt = who_acts(st, R, ct[C_PASSED])
        ended = False
        if nxt < 0:
            round_rewards(st, R, V, rw)
            TERM[i] = True
            ended = True
        else:
            ct[C_STEPS] += 1
            if ct[C_STEPS] == V[V_MAXSTEPS]:
                TRUNC[i] = True
                ended = True
        if ended:
            ct[C_EPISODES] += 1
            keep_last(st, lg, LAST[i])
            new_episode(st, R, ct, lg)
            nxt = who_acts(st, R, 0)
        ct[C_AGENT] = nxt
        observe(st, R, V, nxt, buf, OBS[i], MASK[i])


@njit(cache=True, _nrt=False)
def sa_reset_in(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray,
    LG: np.ndarray, buf: np.ndarray, OBS: np.ndarray, MASK: np.ndarray,
) -> None:  # fmt: skip
    """Every game anew, played by the opponents up to the learner's first decision."""
    for i in range(ST.shape[0]):
        st = ST[i]
        ct = CT[i]
        first_learner_decision(st, R, V, P, ct, buf, LG[i])
        ct[C_AGENT] = ct[C_SEAT]
        observe(st, R, V, ct[C_SEAT], buf, OBS[i], MASK[i])


@njit(cache=True, _nrt=False)
def sa_step_in(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray,
    LG: np.ndarray, LAST: np.ndarray, buf: np.ndarray, fb: np.ndarray, actions: np.ndarray,
    OBS: np.ndarray, MASK: np.ndarray, REW: np.ndarray, TERM: np.ndarray, TRUNC: np.ndarray,
    STALL: np.ndarray, FINAL: np.ndarray, FMASK: np.ndarray, WINNER: np.ndarray,
) -> None:  # fmt: skip
    """The learner's actions (masks checked by the caller), the opponents until the
    learner's next decision; its reward, the ends (``FINAL``/``FMASK``: the last
    observation of an ended episode, ``WINNER`` its round winner or -1), a new episode
    where one ended, and the learner's next observation and mask.  ``fb``: scratch for
    a round's rewards, every seat's."""
    for i in range(ST.shape[0]):
        st = ST[i]
        ct = CT[i]
        lg = LG[i]
        seat = ct[C_SEAT]
        TERM[i] = False
        TRUNC[i] = False
        STALL[i] = False
        REW[i] = 0.0
        WINNER[i] = -1
        if apply_index(st, R, seat, actions[i], lg):
            ct[C_PASSED] = 0
        else:
            ct[C_PASSED] |= 1 << seat
        ct[C_STEPS] += 1
        status = run_bots(st, R, V, P, ct, buf, lg)
        ended = True
        if status == ROUND_OVER:
            round_rewards(st, R, V, fb)
            REW[i] = fb[seat]
            TERM[i] = True
            WINNER[i] = st[S_RWIN]
        elif status == STALLED:
            TRUNC[i] = True
            STALL[i] = True
        elif ct[C_STEPS] == V[V_MAXSTEPS]:
            TRUNC[i] = True
        else:
            ended = False
        if ended:
            ct[C_EPISODES] += 1
            observe(st, R, V, seat, buf, FINAL[i], FMASK[i])
            keep_last(st, lg, LAST[i])
            first_learner_decision(st, R, V, P, ct, buf, lg)
        ct[C_AGENT] = ct[C_SEAT]
        observe(st, R, V, ct[C_SEAT], buf, OBS[i], MASK[i])


# ================================================================ entry points =====
# Called from Python (``unokit.rl.vector``; the scratch is ``FlipVector.arrays``'
# ``(buf, fb)``).  The arrays go down as views without their reference counts
# (``kernel.unowned``), so that no count is taken on the way down: the functions above
# are compiled without numba's runtime.  The caller's arrays outlive the call.
@njit(cache=True)
def ma_reset(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, LG: np.ndarray,
    buf: np.ndarray, OBS: np.ndarray, MASK: np.ndarray,
) -> None:  # fmt: skip
    ma_reset_in(unowned(ST), unowned(CT), unowned(R), unowned(V), unowned(LG),
                unowned(buf), unowned(OBS), unowned(MASK))  # fmt: skip


@njit(cache=True)
def ma_step(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, LG: np.ndarray,
    LAST: np.ndarray, buf: np.ndarray, actions: np.ndarray, OBS: np.ndarray,
    MASK: np.ndarray, REW: np.ndarray, TERM: np.ndarray, TRUNC: np.ndarray,
) -> None:  # fmt: skip
    ma_step_in(unowned(ST), unowned(CT), unowned(R), unowned(V), unowned(LG),
               unowned(LAST), unowned(buf), unowned(actions), unowned(OBS),
               unowned(MASK), unowned(REW), unowned(TERM), unowned(TRUNC))  # fmt: skip


@njit(cache=True)
def sa_reset(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray,
    LG: np.ndarray, buf: np.ndarray, fb: np.ndarray, OBS: np.ndarray, MASK: np.ndarray,
) -> None:  # fmt: skip
    sa_reset_in(unowned(ST), unowned(CT), unowned(R), unowned(V), unowned(P),
                unowned(LG), unowned(buf), unowned(OBS), unowned(MASK))  # fmt: skip


@njit(cache=True)
def sa_step(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray,
    LG: np.ndarray, LAST: np.ndarray, buf: np.ndarray, fb: np.ndarray, actions: np.ndarray,
    OBS: np.ndarray, MASK: np.ndarray, REW: np.ndarray, TERM: np.ndarray, TRUNC: np.ndarray,
    STALL: np.ndarray, FINAL: np.ndarray, FMASK: np.ndarray, WINNER: np.ndarray,
) -> None:  # fmt: skip
    sa_step_in(unowned(ST), unowned(CT), unowned(R), unowned(V), unowned(P),
               unowned(LG), unowned(LAST), unowned(buf), unowned(fb), unowned(actions),
               unowned(OBS), unowned(MASK), unowned(REW), unowned(TERM), unowned(TRUNC),
               unowned(STALL), unowned(FINAL), unowned(FMASK), unowned(WINNER))  # fmt: skip
