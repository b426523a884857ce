"""The compiled half of ``unokit.rl.vector`` for UNO Show 'Em No Mercy.

The same entry points, control columns and settings as classic's
``unokit.rl.vector_kernel`` (``C_*``, ``V_*``, ``ma_reset``, ``ma_step``, ``sa_reset``,
``sa_step``, ``seed_all``, ``first_illegal``), over the No Mercy kernel's state
(``unokit.compiled.nm_kernel``, one row of ``ST`` a game) and its rules array.  What is
new here is only what an RL environment adds on top of that kernel's moves:

* ``observe``: ``ViewTable``'s observation (``unokit.obs.nomercy.encode_view``) and mask
  (``GameTables.mask_of_view``) of one seat, from what the seat's view holds: its own
  hand, the face-up discards (``discard[face_down:]``: cards face down under the pile
  are not counted), the number of set-aside cards.  The mask's plays are the kernel's
  own list (``nm_kernel.list_plays``, the port of ``NoMercyGame._plays`` the fast
  players choose from) mapped through ``obs.nomercy.action_index``; the rest is
  ``NoMercyGame.legal_actions``.  The differential test (``tests/test_rl_vector_nm.py``)
  holds both to the AEC environment step by step.
* ``apply_index``: a table index applied with the kernel's trusted moves.
* who decides next is ``nm_kernel.who_acts`` (the engine's ``seat_to_ask``); a seat
  knocked out of the hand (the Mercy rule) is never asked.
* ``bot_act``: the ``random`` opponent of the single-agent case: the simulator's fast
  ``random`` player (``nm_kernel.fast_turn``, what ``play_round`` decides), catching
  any catchable seat and calling its own UNO when asked, as classic's opponents do.
* ``ma_step`` / ``sa_step``: a whole batch, with rewards, ends and automatic reset.

Nothing here is imported unless numba is installed (``unokit.rl.vector`` checks).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unokit.compiled.kernel import (
    O_LIVE,
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
    below,
    unowned,
)

# ``unokit.rl.vector`` switches the log on with it (it reads this module's S_LOG*)
from unokit.compiled.kernel import S_LOGON as S_LOGON
from unokit.compiled.nm_kernel import (
    HC,
    KNOCKOUT_POINTS,
    NM_W,
    O_DISC,
    O_HANDS,
    O_HS,
    P_ANSWER,
    P_DRAWN,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    R_N,
    R_SCORING,
    R_TARGET,
    S_FACEDOWN,
    S_NASIDE,
    SC_FIRSTOUT,
    absorb,
    call_uno,
    catch,
    draw,
    fast_turn,
    hand_points,
    list_plays,
    new_game,
    play,
    roulette,
    start_round,
    who_acts,
)
from unokit.obs.nomercy import (
    A_ACCEPT,
    A_CATCH,
    A_COLOR,
    A_DRAW,
    A_PASS,
    A_PLAY_SEVEN,
    A_PLAY_WILD,
    A_UNO,
    A_UNO_PLAYS,
    CAP,
    LAYOUT,
    NUM_PLAYS,
    OFFSETS,
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
V_FEATS = 8  # the rule features of the observation (``obs.nomercy.rule_features``)
NFEATS = len(RULE_FEATURES)
V_SIZE = V_FEATS + NFEATS
# nm_voluntary_draw is not in the kernel's rules array (its players never draw with a
# playable card): the mask reads it from the observation's rule features
V_VOLDRAW = V_FEATS + RULE_FEATURES.index("nm_voluntary_draw")

OPP_RANDOM = 0

# sa_step's statuses of a game after the opponents moved
LEARNER = 0
ROUND_OVER = 1
STALLED = 2

# the observation's blocks (``obs.nomercy.LAYOUT``)
OB_HAND = LAYOUT["hand"]
OB_DISCARD = LAYOUT["discard"]
OB_TOP = LAYOUT["top"]
OB_COLOR = LAYOUT["color"]
OB_DRAWN = LAYOUT["drawn"]
OB_PENDING = LAYOUT["pending"]
OB_PHASE = LAYOUT["phase"]
OB_TO_ACT = LAYOUT["to_act"]
OB_HAND_SIZE = LAYOUT["hand_size"]
OB_ONE_CARD = LAYOUT["one_card"]
OB_VULNERABLE = LAYOUT["vulnerable"]
OB_LIVE = LAYOUT["live"]
OB_DIRECTION = LAYOUT["direction"]
OB_DRAW_PILE = LAYOUT["draw_pile"]
OB_ASIDE = LAYOUT["aside"]
OB_PENDING_TOTAL = LAYOUT["pending_total"]
OB_SCORES = LAYOUT["scores"]
OB_RULES = LAYOUT["rules"]

WILD_SLOTS = 5  # a wild's colour slots in the action table: none, R, Y, G, B


# ================================================================ observation ======
@njit(cache=True, _nrt=False, inline="always")
def play_index(seat: int, n: int, card: int, color: int, target: int) -> int:
    """``obs.nomercy.action_index`` of a play without the UNO call."""
    if card >= NM_W:
        return A_PLAY_WILD + (card - NM_W) * WILD_SLOTS + color + 1
    if target >= 0:
        return A_PLAY_SEVEN + (card >> 4) * OFFSETS + rel(target, seat, n) - 1
    return card


@njit(cache=True, _nrt=False)
def plays_of(st: np.ndarray, R: np.ndarray, seat: int, buf: np.ndarray) -> int:
    """``nm_kernel.list_plays`` compiled once here (it is inlined into its callers)."""
    return list_plays(st, R, seat, buf)


@njit(cache=True, _nrt=False)
def legal_mask(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, seat: int, buf: np.ndarray, m: np.ndarray
) -> None:  # fmt: skip
    """The mask of ``seat`` (``m`` all zero on entry): ``NoMercyGame.legal_actions``
    through ``obs.nomercy.action_index``, and PASS for a live seat not to act
    (``GameTables.mask_of_view``)."""
    if st[S_PHASE] >= P_ROUND_OVER or st[O_LIVE + seat] == 0:
        return
    n = st[S_N]
    if seat == st[S_CUR]:
        phase = st[S_PHASE]
        if phase == P_START_COLOR:  # the Roulette's victim names the colour
            for col in range(4):
                m[A_COLOR + col] = 1
        else:
            k = plays_of(st, R, seat, buf)
            for j in range(k):
                i = play_index(seat, n, buf[4 * j], buf[4 * j + 1], buf[4 * j + 2])
                m[i] = 1
                if buf[4 * j + 3]:  # it leaves one card: the same play calling UNO
                    m[i + A_UNO_PLAYS] = 1
            if phase == P_ANSWER:
                m[A_ACCEPT] = 1
            elif phase == P_PLAY and (k == 0 or V[V_VOLDRAW] != 0):
                m[A_DRAW] = 1
    else:
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
    """``seat``'s observation into ``o`` and its mask into ``m`` (``encode_view`` and
    ``mask_of_view`` of ``view_of(game, seat)``): only what that view holds."""
    o[:] = 0
    m[:] = 0
    n = st[S_N]
    base = O_HANDS + seat * HC
    for i in range(st[O_HS + seat]):
        o[OB_HAND + st[base + i]] += 1
    nd = st[S_NDISC]
    for i in range(st[S_FACEDOWN], nd):  # the face-up discards
        o[OB_DISCARD + st[O_DISC + i]] += 1
    o[OB_TOP + st[O_DISC + nd - 1]] = 1
    color = st[S_COLOR]
    if color >= 0:
        o[OB_COLOR + color] = 1
    phase = st[S_PHASE]
    cur = st[S_CUR]
    if phase < P_ROUND_OVER:
        o[OB_PHASE + phase] = 1
        o[OB_TO_ACT + rel(cur, seat, n)] = 1
        if phase == P_DRAWN:
            if cur == seat:
                o[OB_DRAWN + st[S_DRAWN]] = 1
        elif phase == P_ANSWER:
            o[OB_PENDING + st[S_PEND]] = 1
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
        raw = st[O_SCORES + s]
        if raw:
            o[OB_SCORES + j] = min(CAP, raw * 100 // target)
        s += 1
        if s == n:
            s = 0
    if st[S_DIR] == 1:
        o[OB_DIRECTION] = 1
    o[OB_DRAW_PILE] = min(st[S_NPILE], CAP)
    o[OB_ASIDE] = min(st[S_NASIDE], CAP)
    for i in range(NFEATS):
        o[OB_RULES + i] = V[V_FEATS + i]
    legal_mask(st, R, V, seat, buf, m)


# ================================================================ acting ===========
# ``nm_kernel.play`` is inlined into its callers; called through this, it is compiled
# once here instead of at every call site.
@njit(cache=True, _nrt=False)
def do_play(
    st: np.ndarray, R: np.ndarray, seat: int, card: int, color: int, target: int, uno: int,
    lg: np.ndarray,
) -> None:  # fmt: skip
    play(st, R, seat, card, color, target, uno, lg)


@njit(cache=True, _nrt=False)
def apply_index(st: np.ndarray, R: np.ndarray, seat: int, a: int, lg: np.ndarray) -> bool:
    """Table index ``a`` for ``seat`` with the kernel's trusted moves (the mask allowed
    it); False for PASS, which changes nothing but the pass set."""
    n = st[S_N]
    if a < 2 * NUM_PLAYS:
        uno = 0
        i = a
        if a >= A_UNO_PLAYS:
            uno = 1
            i = a - A_UNO_PLAYS
        color = -1
        target = -1
        if i < A_PLAY_WILD:
            card = i
        elif i < A_PLAY_SEVEN:
            card = NM_W + (i - A_PLAY_WILD) // WILD_SLOTS
            color = (i - A_PLAY_WILD) % WILD_SLOTS - 1
        else:
            card = ((i - A_PLAY_SEVEN) // OFFSETS) * 16 + 7
            target = seat + (i - A_PLAY_SEVEN) % OFFSETS + 1
            if target >= n:
                target -= n
        do_play(st, R, seat, card, color, target, uno, lg)
    elif a == A_DRAW:
        draw(st, R, seat, lg)
    elif a == A_ACCEPT:
        absorb(st, R, seat, lg)
    elif a == A_UNO:
        call_uno(st, seat, lg)
    elif a < A_COLOR:
        catch(st, R, seat, (seat + a - A_CATCH + 1) % n, lg)
    elif a < A_PASS:
        roulette(st, R, seat, a - A_COLOR, lg)
    else:
        return False
    return True


@njit(cache=True, _nrt=False)
def round_rewards(st: np.ndarray, R: np.ndarray, V: np.ndarray, out: np.ndarray) -> None:
    """``ViewTable.round_rewards``: each seat's reward for the hand just over, in ``out``
    (the same float operations in the same order, so the values are identical): +1 the
    winner, -1 the others, under ``reward="win"`` or first-out scoring; else each other
    seat loses what it owes the winner / 100 (``NoMercyGame.points_owed``: its hand's
    points, 250 when knocked out) and the winner gains their sum."""
    n = st[S_N]
    w = st[S_RWIN]
    if w < 0:
        for s in range(n):
            out[s] = 0.0
        return
    if V[V_REWARD] == 0 or R[R_SCORING] == SC_FIRSTOUT:
        for s in range(n):
            out[s] = 1.0 if s == w else -1.0
        return
    gained = 0.0
    for s in range(n):
        if s != w:
            gained += owed(st, R, s) / 100
    for s in range(n):
        out[s] = gained if s == w else -(owed(st, R, s) / 100)


@njit(cache=True, _nrt=False)
def owed(st: np.ndarray, R: np.ndarray, s: int) -> int:
    """``NoMercyGame.points_owed``: a hand's points, or 250 for a knocked-out seat."""
    return KNOCKOUT_POINTS if st[O_LIVE + s] == 0 else hand_points(st, R, s)


@njit(cache=True, _nrt=False)
def new_episode(st: np.ndarray, R: np.ndarray, ct: np.ndarray, lg: np.ndarray) -> None:
    """A new game and its first hand (the dealer drawn at random), the table's state
    cleared; the game's random generator goes on."""
    st[S_LOGPOS] = 0
    st[S_LOGOVF] = 0
    new_game(st, R)
    start_round(st, R, below(st, R[R_N]), lg)
    ct[C_PASSED] = 0
    ct[C_STEPS] = 0


# ================================================================ opponents ========
@njit(cache=True, _nrt=False)
def bot_act(
    st: np.ndarray, R: np.ndarray, P: np.ndarray, s: int, buf: np.ndarray, lg: np.ndarray
) -> bool:  # fmt: skip
    """The ``random`` opponent in seat ``s``, asked by ``who_acts``: True if it acted,
    False if it let an out-of-turn chance go by.  It catches a catchable seat whenever
    asked (before its own turn too) and calls its own UNO when asked while catchable
    (a one-card hand received from a 7 or a 0); as the seat to act it decides as the
    simulator's fast ``random`` player (``nm_kernel.fast_turn``)."""
    v = st[S_VULN]
    if v >= 0:
        if v != s:
            catch(st, R, s, v, lg)
        else:
            call_uno(st, s, lg)
        return True
    if s != st[S_CUR]:
        return False
    fast_turn(st, R, P, s, buf, lg)
    return True


@njit(cache=True, _nrt=False)
def run_bots(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray, ct: np.ndarray,
    buf: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """The opponents decide, in ``who_acts``' order, until the learner must
    (``LEARNER``), the hand is over (``ROUND_OVER``) or ``V_BOTDEC`` decisions went by
    (``STALLED``: a loop the rules force, docs/rl.md).  A learner knocked out of the
    hand is never asked: the opponents play the hand out."""
    learner = ct[C_SEAT]
    passed = ct[C_PASSED]
    for _ in range(V[V_BOTDEC]):
        s = who_acts(st, passed)
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
    """New episodes until the opponents leave the learner a decision (a hand that ends
    before the learner's first one is dealt again, as ``UnoGymEnv.reset`` does)."""
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
        s = who_acts(st, 0)
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
        nxt = who_acts(st, ct[C_PASSED])
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
            nxt = who_acts(st, 0)
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
    LG: np.ndarray, LAST: np.ndarray, buf: np.ndarray, fb: np.ndarray,
    actions: np.ndarray, OBS: np.ndarray, MASK: np.ndarray, REW: np.ndarray,
    TERM: np.ndarray, TRUNC: np.ndarray, STALL: np.ndarray, FINAL: np.ndarray,
    FMASK: np.ndarray, WINNER: np.ndarray,
) -> None:  # fmt: skip
    """The learner's actions (masks checked by the caller), the opponents until the
    learner's next decision; its reward, the ends (``FINAL``/``FMASK``: the last
    observation of an ended episode, ``WINNER`` its hand's winner or -1), a new
    episode where one ended, and the learner's next observation and mask."""
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
# Called from Python.  The arrays go down as views without their reference counts
# (``kernel.unowned``), so that no count is taken on the way down: the functions above
# are compiled without numba's runtime.  The caller's arrays outlive the call.  The
# scratch is ``NoMercyVector.arrays``': ``buf`` (``nm_kernel.BUF_SIZE`` words, the
# plays ``list_plays`` writes) and ``fb`` (a hand's rewards, every seat's).
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
    LG: np.ndarray, LAST: np.ndarray, buf: np.ndarray, fb: np.ndarray,
    actions: np.ndarray, OBS: np.ndarray, MASK: np.ndarray, REW: np.ndarray,
    TERM: np.ndarray, TRUNC: np.ndarray, STALL: np.ndarray, FINAL: np.ndarray,
    FMASK: np.ndarray, WINNER: np.ndarray,
) -> None:  # fmt: skip
    sa_step_in(unowned(ST), unowned(CT), unowned(R), unowned(V), unowned(P),
               unowned(LG), unowned(LAST), unowned(buf), unowned(fb), unowned(actions),
               unowned(OBS), unowned(MASK), unowned(REW), unowned(TERM),
               unowned(TRUNC), unowned(STALL), unowned(FINAL), unowned(FMASK),
               unowned(WINNER))  # fmt: skip
