"""The compiled half of ``unokit.rl.vector``: many games stepped in one numba call.

Each game is the compiled engine's flat state (``unokit.compiled.kernel``, one row of
``ST``); the rules are the kernel's ``R``.  What is new here is only what an RL
environment adds on top of the kernel's moves:

* ``observe``: ``uno_v1``'s observation and action mask (``unokit.obs.spec``) of one
  seat, written into two rows.  It is a port of ``rl.core.Table.observe_with_mask`` and
  of ``Game.legal_actions`` mapped through ``spec.action_index``; the differential test
  (``tests/test_rl_vector.py``) holds both to the AEC environment step by step.
* ``apply_index``: a table index applied with the kernel's trusted moves.
* who decides next is ``kernel.who_acts`` (the engine's ``seat_to_ask``), never a copy;
  the only state added per game is the AEC table's: the seats that passed (a bit mask),
  the decisions of the episode and, in the single-agent case, the learner's seat.
* ``bot_act``: the compiled opponents of the single-agent case, ``random`` (the
  simulator's fast ``random`` player, ``kernel.play_round``'s decisions) and
  ``heuristic`` (the search rollouts' heuristic player: ``search.heur_choose`` for
  its plays, which chooses exactly as ``HeuristicBot``, and the rollouts' rules for
  everything else).
* ``ma_step`` / ``sa_step``: a whole batch, with rewards, ends and automatic reset.

Nothing here is imported unless numba is installed (``unokit.rl.vector`` checks).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unokit.compiled.kernel import (
    CU_DISCCOLOR,
    EVERY_SEAT,
    HCAP,
    NMAX,
    O_DISC,
    O_HANDS,
    O_HS,
    O_LIVE,
    O_SCORES,
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    R_CUSTOM,
    R_FORCE,
    R_JUMPIN,
    R_N,
    R_SCORING,
    R_SEVENZERO,
    R_TARGET,
    S_COLOR,
    S_CUR,
    S_DIR,
    S_DRAWN,
    S_LOGON,
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
    SC_ELIM,
    SC_FIRSTOUT,
    SC_LOW,
    SC_TEAMS,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_SHUFFLE,
    WILD_SWAP,
    accept,
    answers,
    below,
    best_color,
    call_uno,
    can_play,
    catch,
    ccolor,
    challenge,
    choose_color,
    crank,
    draw,
    hand_points,
    is_special,
    keep,
    new_game,
    play,
    playable_cards,
    rand,
    random_other,
    seed_game,
    start_round,
    unowned,
    who_acts,
)
from unokit.compiled.search import C_DN, heur_challenges, heur_choose
from unokit.obs.spec import (
    A_ACCEPT,
    A_CATCH,
    A_CHALLENGE,
    A_COLOR,
    A_COLOR_SWAP,
    A_DRAW,
    A_KEEP,
    A_PASS,
    A_PLAY_SEVEN,
    A_PLAY_SWAP,
    A_PLAY_WILD,
    A_UNO,
    A_UNO_PLAYS,
    MAX_COUNT,
    NUM_PLAYS,
    O_COLOR,
    O_DIRECTION,
    O_DRAW_PILE,
    O_DRAWN,
    O_HAND,
    O_HAND_SIZE,
    O_ONE_CARD,
    O_PENDING,
    O_PHASE,
    O_RULES,
    O_SEEN,
    O_TO_ACT,
    O_TOP,
    O_VULNERABLE,
    O_WD4_BY,
    OFFSETS,
    SCORE_CAP,
)
from unokit.obs.spec import O_LIVE as OB_LIVE
from unokit.obs.spec import O_SCORES as OB_SCORES

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
V_OPPONENT = 2  # 0 random, 1 heuristic
V_SEAT = 3  # the learner's seat, -1: a random seat each episode
V_BOTDEC = 4  # opponent decisions per learner step before the episode counts as stalled
V_FEATS = 8  # the 20 rule features of the observation
V_SIZE = V_FEATS + 20

OPP_RANDOM = 0
OPP_HEURISTIC = 1

# sa_step's statuses of a game after the opponents moved
LEARNER = 0
ROUND_OVER = 1
STALLED = 2


# ================================================================ observation ======
@njit(cache=True, _nrt=False, inline="always")
def rel(s: int, seat: int, n: int) -> int:
    """The seat ``s`` as an offset clockwise from ``seat`` (``(s - seat) % n``)."""
    d = s - seat
    return d + n if d < 0 else d


@njit(cache=True, _nrt=False)
def own_after(st: np.ndarray, R: np.ndarray, seat: int, card: int, color: int) -> int:
    """``Game._own_after`` for a one-card play without a target: the cards ``seat``
    holds after it and its effect, -1 if chance decides (a Wild Shuffle Hands)."""
    left = st[O_HS + seat] - 1
    if left == 0:
        return 0
    if card == WILD_SHUFFLE:
        return -1
    if R[R_SEVENZERO] != 0 and card < WILD and crank(card) == 0:
        # the hand from behind: the previous live seat against the direction of play
        n = st[S_N]
        d = -st[S_DIR]
        s = (seat + d) % n
        while st[O_LIVE + s] == 0:
            s = (s + d) % n
        return int(st[O_HS + s])
    if card == WILD_CUSTOM and R[R_CUSTOM] == CU_DISCCOLOR:
        base = O_HANDS + seat * HCAP
        k = 0
        for i in range(st[O_HS + seat]):
            if ccolor(st[base + i]) == color:
                k += 1
        return int(left - k)
    return int(left)


@njit(cache=True, _nrt=False)
def play_actions(st: np.ndarray, R: np.ndarray, seat: int, card: int, m: np.ndarray) -> None:
    """``Game._play_actions`` for one card, as table indices set in ``m``: every colour
    of a wild, every target of a Swap Hands or a seven-zero 7 (unless it is the last
    card), and the same play calling UNO when it leaves exactly one card."""
    n = st[S_N]
    hs = st[O_HS + seat]
    seven = R[R_SEVENZERO] != 0 and card < WILD and crank(card) == 7
    if hs > 1 and (card == WILD_SWAP or seven):
        for k in range(1, n):
            t = seat + k
            if t >= n:
                t -= n
            if st[O_LIVE + t] == 0:
                continue
            uno = st[O_HS + t] == 1
            if seven:
                i = A_PLAY_SEVEN + (card // 13) * OFFSETS + k - 1
                m[i] = 1
                if uno:
                    m[i + A_UNO_PLAYS] = 1
            else:
                for col in range(4):
                    i = A_PLAY_SWAP + col * OFFSETS + k - 1
                    m[i] = 1
                    if uno:
                        m[i + A_UNO_PLAYS] = 1
        return
    # own_after can be 1 only with two cards in hand, or after a seven-zero 0 or a
    # Wild Customizable's discard_color
    rare = (R[R_SEVENZERO] != 0 and card < WILD and crank(card) == 0) or (
        card == WILD_CUSTOM and R[R_CUSTOM] == CU_DISCCOLOR
    )
    if card < WILD:
        m[card] = 1
        if (hs == 2 or rare) and own_after(st, R, seat, card, -1) == 1:
            m[card + A_UNO_PLAYS] = 1
        return
    for col in range(4):
        i = A_PLAY_WILD + (card - WILD) * 4 + col
        m[i] = 1
        if (hs == 2 or rare) and own_after(st, R, seat, card, col) == 1:
            m[i + A_UNO_PLAYS] = 1


@njit(cache=True, _nrt=False)
def legal_mask(st: np.ndarray, R: np.ndarray, seat: int, buf: np.ndarray, m: np.ndarray) -> None:
    """The mask of ``seat`` (``m`` all zero on entry): ``Game.legal_actions`` of one
    card each, through ``spec.action_index``, and PASS for an out-of-turn chance
    (``Table.observe_with_mask``, ``_other_mask``, ``_legal_mask``)."""
    phase = st[S_PHASE]
    if phase >= P_ROUND_OVER or st[O_LIVE + seat] == 0:
        return
    cur = st[S_CUR]
    n = st[S_N]
    if seat == cur:
        if phase == P_PLAY:
            done = 0  # the playable cards offered so far, as a bit mask (each once)
            k = playable_cards(st, R, seat, buf)
            for i in range(k):
                c = buf[i]
                if not (done >> c) & 1:
                    done |= 1 << c
                    play_actions(st, R, seat, c, m)
            m[A_DRAW] = 1
        elif phase == P_DRAWN:
            c = st[S_DRAWN]
            playable = c >= 0 and can_play(st, R, seat, c)
            if playable:
                play_actions(st, R, seat, c, m)
            if R[R_FORCE] == 0 or not playable:
                m[A_KEEP] = 1
        elif phase == P_ANSWER:
            k = answers(st, R, seat, buf)
            for i in range(k):
                play_actions(st, R, seat, buf[i], m)
            if st[S_PEND] == WILD_DRAW4:
                m[A_CHALLENGE] = 1
            m[A_ACCEPT] = 1
        elif phase == P_START_COLOR:
            if st[O_DISC + st[S_NDISC] - 1] == WILD_SWAP:
                for k in range(1, n):
                    t = seat + k
                    if t >= n:
                        t -= n
                    if st[O_LIVE + t]:
                        for col in range(4):
                            m[A_COLOR_SWAP + col * OFFSETS + k - 1] = 1
            else:
                for col in range(4):
                    m[A_COLOR + col] = 1
        else:  # P_CHALLENGE
            m[A_CHALLENGE] = 1
            m[A_ACCEPT] = 1
    else:
        if R[R_JUMPIN] != 0 and phase == P_PLAY:  # ``Game.jump_ins``
            top = st[O_DISC + st[S_NDISC] - 1]
            if top < WILD:
                base = O_HANDS + seat * HCAP
                for i in range(st[O_HS + seat]):
                    if st[base + i] == top:
                        play_actions(st, R, seat, top, m)
                        break
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
    """``seat``'s observation into ``o`` and its mask into ``m`` (``spec.OBS_SLICES``,
    ``Table.observe_with_mask``): only what ``view_of(game, seat)`` holds."""
    o[:] = 0
    m[:] = 0
    n = st[S_N]
    base = O_HANDS + seat * HCAP
    for i in range(st[O_HS + seat]):
        o[O_HAND + st[base + i]] += 1
    nd = st[S_NDISC]
    for i in range(nd):
        o[O_SEEN + st[O_DISC + i]] += 1
    o[O_TOP + st[O_DISC + nd - 1]] = 1
    color = st[S_COLOR]
    if color >= 0:
        o[O_COLOR + color] = 1
    phase = st[S_PHASE]
    cur = st[S_CUR]
    if phase < P_ROUND_OVER:
        o[O_PHASE + phase] = 1
        o[O_TO_ACT + rel(cur, seat, n)] = 1
        by = st[S_WD4BY]
        if phase == P_DRAWN:
            if cur == seat:
                o[O_DRAWN + st[S_DRAWN]] = 1
        elif phase == P_CHALLENGE:
            if by >= 0:
                o[O_WD4_BY + rel(by, seat, n)] = 1
            total = st[S_PENDTOT]
            o[O_PENDING] = min(total if total else 4, MAX_COUNT)
        elif phase == P_ANSWER:
            if st[S_PEND] == WILD_DRAW4 and by >= 0:
                o[O_WD4_BY + rel(by, seat, n)] = 1
            o[O_PENDING] = min(st[S_PENDTOT], MAX_COUNT)
    v = st[S_VULN]
    if v >= 0:
        o[O_VULNERABLE + rel(v, seat, n)] = 1
    teams = R[R_SCORING] == SC_TEAMS
    target = R[R_TARGET]
    s = seat
    for j in range(n):
        k = st[O_HS + s]
        o[O_HAND_SIZE + j] = k
        if k == 1:
            o[O_ONE_CARD + j] = 1
        o[OB_LIVE + j] = st[O_LIVE + s]
        raw = st[O_SCORES + (s % 2 if teams else s)]
        if raw:
            o[OB_SCORES + j] = min(SCORE_CAP, raw * 100 // target)
        s += 1
        if s == n:
            s = 0
    if st[S_DIR] == 1:
        o[O_DIRECTION] = 1
    o[O_DRAW_PILE] = st[S_NPILE]
    for i in range(20):
        o[O_RULES + i] = V[V_FEATS + i]
    legal_mask(st, R, seat, buf, m)


# ================================================================ acting ===========
# ``kernel.play`` and ``kernel.draw`` are inlined into their callers; called through
# these two, they are compiled once here instead of at every call site (the first
# compilation of this module takes a third of the time).
@njit(cache=True, _nrt=False)
def do_play(
    st: np.ndarray, R: np.ndarray, seat: int, card: int, color: int, uno: bool,
    target: int, lg: np.ndarray,
) -> None:  # fmt: skip
    play(st, R, seat, card, color, uno, target, lg)


@njit(cache=True, _nrt=False)
def do_draw(st: np.ndarray, R: np.ndarray, seat: int, lg: np.ndarray) -> None:
    draw(st, R, seat, lg)


@njit(cache=True, _nrt=False)
def apply_index(st: np.ndarray, R: np.ndarray, seat: int, a: int, lg: np.ndarray) -> bool:
    """Table index ``a`` for ``seat`` with the kernel's trusted moves (the mask allowed
    it); False for PASS, which changes nothing but the pass set."""
    n = st[S_N]
    if a < 2 * NUM_PLAYS:
        uno = a >= A_UNO_PLAYS
        i = a - A_UNO_PLAYS if uno else a
        color = -1
        target = -1
        if i < A_PLAY_WILD:
            card = i
        elif i < A_PLAY_SEVEN:
            card = WILD + (i - A_PLAY_WILD) // 4
            color = (i - A_PLAY_WILD) % 4
        elif i < A_PLAY_SWAP:
            card = ((i - A_PLAY_SEVEN) // OFFSETS) * 13 + 7
            target = (seat + (i - A_PLAY_SEVEN) % OFFSETS + 1) % n
        else:
            card = WILD_SWAP
            color = (i - A_PLAY_SWAP) // OFFSETS
            target = (seat + (i - A_PLAY_SWAP) % OFFSETS + 1) % n
        do_play(st, R, seat, card, color, uno, target, lg)
    elif a == A_DRAW:
        do_draw(st, R, seat, lg)
    elif a == A_KEEP:
        keep(st, seat, lg)
    elif a == A_ACCEPT:
        accept(st, R, seat, lg)
    elif a == A_CHALLENGE:
        challenge(st, R, seat, lg)
    elif a == A_UNO:
        call_uno(st, R, seat, lg)
    elif a < A_COLOR:
        catch(st, R, seat, (seat + a - A_CATCH + 1) % n, lg)
    elif a < A_COLOR_SWAP:
        choose_color(st, seat, a - A_COLOR, np.int64(-1), lg)
    elif a < A_PASS:
        choose_color(st, seat, (a - A_COLOR_SWAP) // OFFSETS,
                     (seat + (a - A_COLOR_SWAP) % OFFSETS + 1) % n, lg)  # fmt: skip
    else:
        return False
    return True


@njit(cache=True, _nrt=False)
def round_rewards(st: np.ndarray, R: np.ndarray, V: np.ndarray, out: np.ndarray) -> None:
    """``Table.round_rewards``: each seat's reward for the round just over, in ``out``
    (the same float operations in the same order, so the values are identical)."""
    n = st[S_N]
    w = st[S_RWIN]
    if w < 0:
        for s in range(n):
            out[s] = 0.0
        return
    scoring = R[R_SCORING]
    teams = scoring == SC_TEAMS
    if V[V_REWARD] == 0 or scoring == SC_FIRSTOUT:
        for s in range(n):
            won = s % 2 == w % 2 if teams else s == w
            out[s] = 1.0 if won else -1.0
        return
    if scoring == SC_LOW or scoring == SC_ELIM:  # noqa: SIM109 (numba: plain comparisons)
        for s in range(n):
            out[s] = -(hand_points(st, R, s) / 100)
        return
    gained = 0.0
    for s in range(n):
        won = s % 2 == w % 2 if teams else s == w
        if not won:
            gained += hand_points(st, R, s) / 100
    for s in range(n):
        won = s % 2 == w % 2 if teams else s == w
        out[s] = gained if won else -(hand_points(st, R, s) / 100)


@njit(cache=True, _nrt=False)
def new_episode(st: np.ndarray, R: np.ndarray, ct: np.ndarray, lg: np.ndarray) -> None:
    """A new game and its first round (the dealer drawn at random), the table's state
    cleared; the game's random generator goes on."""
    st[S_LOGPOS] = 0
    st[S_LOGOVF] = 0
    new_game(st, R)
    start_round(st, R, below(st, R[R_N]), lg)
    ct[C_PASSED] = 0
    ct[C_STEPS] = 0


# ================================================================ opponents ========
@njit(cache=True, _nrt=False)
def random_play(st: np.ndarray, R: np.ndarray, s: int, card: int, lg: np.ndarray) -> None:
    """The fast ``random`` player's play of ``card`` (``kernel.play_round``): a random
    colour for a wild, a random target, UNO called with the play; after a card whose
    effect may change the hand, called when ``who_acts`` next asks this seat."""
    color = below(st, np.int64(4)) if card >= WILD else -1
    if is_special(R, card):
        target = -1
        if st[O_HS + s] > 1 and (
            card == WILD_SWAP or (R[R_SEVENZERO] != 0 and card < WILD and crank(card) == 7)
        ):
            target = random_other(st, s)
        do_play(st, R, s, card, color, False, target, lg)
    else:
        do_play(st, R, s, card, color, st[O_HS + s] == 2, np.int64(-1), lg)


@njit(cache=True, _nrt=False)
def bot_act(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray, s: int, buf: np.ndarray,
    deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray, sc: np.ndarray,
    lg: np.ndarray,
) -> bool:  # fmt: skip
    """The opponent in seat ``s``, asked by ``who_acts``: True if it acted, False if it
    let an out-of-turn chance go by.  Both opponents catch a catchable seat whenever
    asked (before their own turn too), call UNO when asked while catchable themselves
    (after a card that may change the hand: ``random_play``), and never jump in."""
    v = st[S_VULN]
    if v >= 0:
        if v != s:
            catch(st, R, s, v, lg)
        else:
            call_uno(st, R, s, lg)
        return True
    if s != st[S_CUR]:
        return False
    phase = st[S_PHASE]
    heuristic = V[V_OPPONENT] == OPP_HEURISTIC
    if phase == P_PLAY:
        k = playable_cards(st, R, s, buf)
        if k == 0:
            do_draw(st, R, s, lg)
        elif heuristic:
            cnt[C_DN] = -1  # the scratch is shared by every game
            card, col = heur_choose(st, R, s, buf, k, deck_col, cnt, unseen, sc)
            if card < 0:
                do_draw(st, R, s, lg)
            else:
                do_play(st, R, s, card, col, st[O_HS + s] == 2, np.int64(-1), lg)
        else:
            random_play(st, R, s, buf[below(st, k)], lg)
    elif phase == P_DRAWN:
        card = st[S_DRAWN]
        if not can_play(st, R, s, card):  # a false call's penalty may have changed that
            keep(st, s, lg)
        elif heuristic:
            color = best_color(st, s) if card >= WILD else -1
            do_play(st, R, s, card, color, st[O_HS + s] == 2, np.int64(-1), lg)
        else:
            random_play(st, R, s, card, lg)
    elif phase == P_CHALLENGE:
        if heuristic:
            cnt[C_DN] = -1
            go = heur_challenges(st, s, deck_col, cnt, unseen)
        else:
            p = P[3 * s]
            go = p != 0.0 and rand(st) < p
        if go:
            challenge(st, R, s, lg)
        else:
            accept(st, R, s, lg)
    elif phase == P_START_COLOR:
        if heuristic:
            choose_color(st, s, best_color(st, s), np.int64(-1), lg)
        else:
            target = -1
            if st[O_DISC + st[S_NDISC] - 1] == WILD_SWAP:
                target = random_other(st, s)
            choose_color(st, s, below(st, np.int64(4)), target, lg)
    else:  # P_ANSWER (stacking: random opponents only)
        k = answers(st, R, s, buf)
        p = P[3 * s]
        if k:
            random_play(st, R, s, buf[below(st, k)], lg)
        elif st[S_PEND] == WILD_DRAW4 and p != 0.0 and rand(st) < p:
            challenge(st, R, s, lg)
        else:
            accept(st, R, s, lg)
    return True


@njit(cache=True, _nrt=False)
def run_bots(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray, ct: np.ndarray,
    buf: np.ndarray, deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray,
    sc: np.ndarray, lg: np.ndarray,
) -> int:  # fmt: skip
    """The opponents decide, in ``who_acts``' order, until the learner must
    (``LEARNER``), the round is over (``ROUND_OVER``) or ``V_BOTDEC`` decisions went by
    (``STALLED``: a loop the rules force, docs/rl.md)."""
    learner = ct[C_SEAT]
    passed = ct[C_PASSED]
    for _ in range(V[V_BOTDEC]):
        s = who_acts(st, R, passed, EVERY_SEAT)
        if s < 0:
            return ROUND_OVER
        if s == learner:
            ct[C_PASSED] = passed
            return LEARNER
        if bot_act(st, R, V, P, s, buf, deck_col, cnt, unseen, sc, lg):
            passed = 0
        else:
            passed |= 1 << s
    return STALLED


@njit(cache=True, _nrt=False)
def first_learner_decision(
    st: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray, ct: np.ndarray,
    buf: np.ndarray, deck_col: np.ndarray, cnt: np.ndarray, unseen: np.ndarray,
    sc: np.ndarray, lg: np.ndarray,
) -> None:  # fmt: skip
    """New episodes until the opponents leave the learner a decision (a round that
    ends before the learner's first one is dealt again, as ``UnoGymEnv.reset`` does)."""
    while True:
        new_episode(st, R, ct, lg)
        seat = V[V_SEAT]
        ct[C_SEAT] = seat if seat >= 0 else below(st, R[R_N])
        if run_bots(st, R, V, P, ct, buf, deck_col, cnt, unseen, sc, lg) == LEARNER:
            return


# ================================================================ batches ==========
@njit(cache=True)
def seed_all(ST: np.ndarray, base: np.uint64) -> None:
    """Game ``i``'s generator from the run's base seed and ``i`` (``kernel.seed_game``)."""
    for i in range(ST.shape[0]):
        seed_game(ST[i], base, i)


@njit(cache=True)
def first_illegal(mask: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action its mask does not allow, or -1 (any game's table:
    the mask's width is its number of actions)."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= mask.shape[1] or mask[i, a] == 0:
            return i
    return -1


@njit(cache=True, _nrt=False)
def keep_last(st: np.ndarray, lg: np.ndarray, last: np.ndarray) -> None:
    """An ended episode's log into ``last`` (its length first; -1: it ran out of room)."""
    if st[S_LOGON]:
        k = st[S_LOGPOS]
        last[0] = -1 if st[S_LOGOVF] else k
        for j in range(k):
            last[1 + j] = lg[j]


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
        s = who_acts(st, R, 0, EVERY_SEAT)
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
        nxt = who_acts(st, R, ct[C_PASSED], EVERY_SEAT)
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
            nxt = who_acts(st, R, 0, EVERY_SEAT)
        ct[C_AGENT] = nxt
        observe(st, R, V, nxt, buf, OBS[i], MASK[i])


@njit(cache=True, _nrt=False)
def sa_reset_in(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray,
    LG: np.ndarray, buf: np.ndarray, deck_col: np.ndarray, cnt: np.ndarray,
    unseen: np.ndarray, sc: np.ndarray, OBS: np.ndarray, MASK: np.ndarray,
) -> None:  # fmt: skip
    """Every game anew, played by the opponents up to the learner's first decision."""
    for i in range(ST.shape[0]):
        st = ST[i]
        ct = CT[i]
        first_learner_decision(st, R, V, P, ct, buf, deck_col, cnt, unseen, sc, LG[i])
        ct[C_AGENT] = ct[C_SEAT]
        observe(st, R, V, ct[C_SEAT], buf, OBS[i], MASK[i])


@njit(cache=True, _nrt=False)
def sa_step_in(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray,
    LG: np.ndarray, LAST: np.ndarray, buf: np.ndarray, deck_col: np.ndarray,
    cnt: np.ndarray, unseen: np.ndarray, sc: np.ndarray, actions: np.ndarray,
    OBS: np.ndarray, MASK: np.ndarray, REW: np.ndarray, TERM: np.ndarray,
    TRUNC: np.ndarray, STALL: np.ndarray, FINAL: np.ndarray, FMASK: np.ndarray,
    WINNER: np.ndarray, fb: np.ndarray,
) -> None:  # fmt: skip
    """The learner's actions (masks checked by the caller), the opponents until the
    learner's next decision; its reward, the ends (``FINAL``/``FMASK``: the last
    observation of an ended episode, ``WINNER`` its round winner or -1), a new episode
    where one ended, and the learner's next observation and mask."""
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
        status = run_bots(st, R, V, P, ct, buf, deck_col, cnt, unseen, sc, lg)
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
            first_learner_decision(st, R, V, P, ct, buf, deck_col, cnt, unseen, sc, lg)
        ct[C_AGENT] = ct[C_SEAT]
        observe(st, R, V, ct[C_SEAT], buf, OBS[i], MASK[i])


@njit(cache=True, _nrt=False)
def sample_masked_in(MASK: np.ndarray, seeds: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random allowed action per row of ``MASK`` (for baselines and the
    benchmark); ``seeds[i]`` is a generator as in a kernel state (SplitMix64 at
    ``S_RNG``), which moves on."""
    for i in range(MASK.shape[0]):
        k = 0
        row = MASK[i]
        for a in range(row.shape[0]):
            k += row[a]
        j = below(seeds[i], k)
        a = 0
        while True:
            j -= row[a]
            if j < 0:
                break
            a += 1
        out[i] = a


# ================================================================ entry points =====
# Called from Python.  The arrays go down as views without their reference counts
# (``kernel.unowned``, as the kernel's own entry points do), so that no count is taken
# on the way down: the functions above are compiled without numba's runtime.  The
# caller's arrays outlive the call.
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
    LG: np.ndarray, buf: np.ndarray, deck_col: np.ndarray, cnt: np.ndarray,
    unseen: np.ndarray, sc: np.ndarray, OBS: np.ndarray, MASK: np.ndarray,
) -> None:  # fmt: skip
    sa_reset_in(unowned(ST), unowned(CT), unowned(R), unowned(V), unowned(P),
                unowned(LG), unowned(buf), unowned(deck_col), unowned(cnt),
                unowned(unseen), unowned(sc), unowned(OBS), unowned(MASK))  # fmt: skip


@njit(cache=True)
def sa_step(
    ST: np.ndarray, CT: np.ndarray, R: np.ndarray, V: np.ndarray, P: np.ndarray,
    LG: np.ndarray, LAST: np.ndarray, buf: np.ndarray, deck_col: np.ndarray,
    cnt: np.ndarray, unseen: np.ndarray, sc: np.ndarray, actions: np.ndarray,
    OBS: np.ndarray, MASK: np.ndarray, REW: np.ndarray, TERM: np.ndarray,
    TRUNC: np.ndarray, STALL: np.ndarray, FINAL: np.ndarray, FMASK: np.ndarray,
    WINNER: np.ndarray,
) -> float:  # fmt: skip
    fb = np.zeros(NMAX)  # a round's rewards, every seat's
    sa_step_in(unowned(ST), unowned(CT), unowned(R), unowned(V), unowned(P),
               unowned(LG), unowned(LAST), unowned(buf), unowned(deck_col),
               unowned(cnt), unowned(unseen), unowned(sc), unowned(actions),
               unowned(OBS), unowned(MASK), unowned(REW), unowned(TERM),
               unowned(TRUNC), unowned(STALL), unowned(FINAL), unowned(FMASK),
               unowned(WINNER), unowned(fb))  # fmt: skip
    return 0.0 * fb[0]  # the owner of the view above lives to here


@njit(cache=True)
def sample_masked(MASK: np.ndarray, seeds: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random allowed action per row of ``MASK`` (``sample_masked_in``)."""
    sample_masked_in(unowned(MASK), unowned(seeds), unowned(out))
