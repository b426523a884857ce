"""The table behind both RL environments: a game, whose decision it is, observations.

``Table`` owns one ``Game`` and answers three questions fast:

* ``select()``: which seat decides next, including the out-of-turn window (a catch, a
  late UNO call, a jump-in) that opens before a turn decision (docs/rl.md);
* ``observe(seat)`` / ``mask(seat)``: the observation vector and the action mask of
  ``spec``'s fixed tables;
* ``step(seat, index)``: apply one table action.

Information hygiene.  Observations and masks hold only what ``view_of(game, seat)``
holds: the seat's own hand, hand sizes, the public piles, colour, direction, phase,
scores, the catchable seat, the seat's own drawn card and legal actions.  Building a
``View`` costs more than the whole step budget, so the fast path reads exactly those
fields from the game instead; ``encode_view`` and ``mask_of_view`` build the same
arrays from a real ``View`` and the tests check that both paths agree on random
states of every preset, and that scrambling the hidden cards changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from unokit.cards import (
    CARD_CODE,
    CARD_RANK,
    COLOR_CODES,
    NUM_CARDS,
    PLAYABLE_MASK,
    TOP_RANKS,
    WILD,
    WILD_DRAW4,
    WILD_SWAP,
    build_deck,
    card_points,
)
from unokit.engine import (
    COLOR,
    DRAW,
    KEEP,
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_ROUND_OVER,
    P_START_COLOR,
    PHASE_NAMES,
    PLAY,
    Action,
    ClassicGame,
    View,
    view_of,
)
from unokit.engine.family import plays
from unokit.engine.state import seat_to_ask
from unokit.obs.spec import (
    A_ACCEPT,
    A_CATCH,
    A_CHALLENGE,
    A_COLOR,
    A_COLOR_SWAP,
    A_DRAW,
    A_KEEP,
    A_PASS,
    A_PLAY_WILD,
    A_UNO,
    A_UNO_PLAYS,
    CUSTOM_RULE_NAMES,
    MAX_COUNT,
    MAX_SEATS,
    NUM_ACTIONS,
    O_COLOR,
    O_DIRECTION,
    O_DRAW_PILE,
    O_DRAWN,
    O_HAND,
    O_HAND_SIZE,
    O_LIVE,
    O_ONE_CARD,
    O_PENDING,
    O_PHASE,
    O_RULES,
    O_SCORES,
    O_SEEN,
    O_TO_ACT,
    O_TOP,
    O_VULNERABLE,
    O_WD4_BY,
    OBS_SIZE,
    OFFSETS,
    SCORE_CAP,
    action_index,
    decode_table,
)
from unokit.rules import RulesError, RuleSet

ByteArray = npt.NDArray[np.uint8]
MaskArray = npt.NDArray[np.int8]

REWARD_MODES = ("win", "score")
EPISODE_MODES = ("round", "game")

_ONE = bytes(1 if i == 1 else 0 for i in range(256))  # bytes.translate: 1 where count == 1
_FOUR = b"\x01\x01\x01\x01"
# For each PLAYABLE_MASK key, the bytes of the cards that do *not* match: deleting them
# from a hand (bytes.translate) leaves its playable cards, at C speed.
_UNPLAYABLE = tuple(
    bytes(c for c in range(NUM_CARDS) if not bits >> c & 1) for bits in PLAYABLE_MASK
)
_U8 = np.dtype(np.uint8)  # dtype objects: np.frombuffer parses a type on every call
_I8 = np.dtype(np.int8)
_ndarray = np.ndarray  # the constructor takes positional arguments faster than frombuffer
_OBS_SHAPE = (OBS_SIZE,)
_MASK_SHAPE = (NUM_ACTIONS,)
_M = OBS_SIZE  # where the mask starts in the combined observation + mask buffer
_R = O_HAND + NUM_CARDS  # where Table._rest starts in that buffer (after the own hand)
_R_SEEN = O_SEEN - _R
_M_DRAW = _M + A_DRAW
_M_KEEP = _M + A_KEEP
_M_WILD = _M + A_PLAY_WILD
_M_UNO_PLAYS = _M + A_UNO_PLAYS

# the games the RL tables encode so far, declared
TABLE_GAMES = frozenset({"classic"})


class IllegalTableAction(ValueError):
    """An action index that the mask does not allow now."""


# --------------------------------------------------------------- bounds --------------
def observation_bounds() -> tuple[ByteArray, ByteArray]:
    """``low`` and ``high`` of the observation Box."""
    low = np.zeros(OBS_SIZE, np.uint8)
    high = np.ones(OBS_SIZE, np.uint8)
    high[O_HAND : O_HAND + NUM_CARDS] = 4
    high[O_SEEN : O_SEEN + NUM_CARDS] = 4
    high[O_HAND_SIZE : O_HAND_SIZE + MAX_SEATS] = MAX_COUNT
    high[O_DRAW_PILE] = MAX_COUNT
    high[O_PENDING] = MAX_COUNT
    high[O_SCORES : O_SCORES + MAX_SEATS] = SCORE_CAP
    high[O_RULES + 13] = MAX_SEATS
    return low, high


def network_scale() -> npt.NDArray[np.float32]:
    """What each observation feature is multiplied by before a network (``unokit
    train`` and the ``learned`` bot): counts of a card kind (at most 4) by 1/4, card
    counts by 1/16, the scores by 0 (the policy sees single rounds), the number of
    players by 1/10, one-hots by 1."""
    s = np.ones(OBS_SIZE, np.float32)
    s[O_HAND : O_HAND + NUM_CARDS] = 0.25
    s[O_SEEN : O_SEEN + NUM_CARDS] = 0.25
    s[O_HAND_SIZE : O_HAND_SIZE + MAX_SEATS] = 1 / 16
    s[O_DRAW_PILE] = 1 / 16
    s[O_PENDING] = 1 / 16
    s[O_SCORES : O_SCORES + MAX_SEATS] = 0.0
    s[O_RULES + 13] = 0.1
    return s


def rule_features(rules: RuleSet, n: int) -> list[int]:
    """The constant rule-set block of the observation (spec.RULE_FEATURES)."""
    feats = [
        rules.stacking == "pass",
        rules.stacking == "progressive",
        rules.stack_draw4_on_draw2,
        rules.jump_in,
        rules.seven_zero,
        rules.multi_play,
        rules.wd4_bluffing,
        rules.force_play_drawn,
        rules.draw_until_playable,
        rules.attack_launcher,
        rules.scoring in ("low", "elimination"),
        rules.scoring == "teams",
        rules.scoring == "first-out",
    ]
    out = [int(f) for f in feats]
    out.append(n)
    out.extend(int(rules.custom_rule == name) for name in CUSTOM_RULE_NAMES)
    return out


def _scaled_scores(scores: Sequence[int], seat: int, n: int, teams: bool, target: int) -> bytes:
    """Each relative seat's score (its team's, under teams) in % of the target, capped."""
    out = []
    for j in range(n):
        s = (seat + j) % n
        raw = scores[s % 2] if teams else scores[s]
        out.append(min(SCORE_CAP, raw * 100 // target))
    return bytes(out)


# ------------------------------------------------------ reference (from a View) ------
def encode_view(view: View) -> ByteArray:
    """The observation of ``view.seat``, from a ``View`` alone (the reference encoder)."""
    n = view.n
    seat = view.seat
    o = np.zeros(OBS_SIZE, np.uint8)
    o[O_HAND : O_HAND + NUM_CARDS] = np.bincount(
        np.asarray(view.hand, np.int64), minlength=NUM_CARDS
    )
    o[O_SEEN : O_SEEN + NUM_CARDS] = np.bincount(
        np.asarray(view.discard, np.int64), minlength=NUM_CARDS
    )
    o[O_TOP + view.top] = 1
    if view.color >= 0:
        o[O_COLOR + view.color] = 1
    rel = [(seat + j) % n for j in range(n)]
    if view.phase < P_ROUND_OVER:
        o[O_PHASE + view.phase] = 1
        o[O_TO_ACT + (view.current - seat) % n] = 1
        if view.drawn >= 0:
            o[O_DRAWN + view.drawn] = 1
        if view.wd4_by >= 0:
            o[O_WD4_BY + (view.wd4_by - seat) % n] = 1
        o[O_PENDING] = min(view.pending_total, MAX_COUNT)
    if view.vulnerable >= 0:
        o[O_VULNERABLE + (view.vulnerable - seat) % n] = 1
    for j, s in enumerate(rel):
        size = view.hand_sizes[s]
        o[O_HAND_SIZE + j] = size
        o[O_ONE_CARD + j] = size == 1
        o[O_LIVE + j] = view.live[s]
    o[O_DIRECTION] = view.direction == 1
    o[O_DRAW_PILE] = view.draw_pile
    rules = view.rules
    o[O_SCORES : O_SCORES + n] = np.frombuffer(
        _scaled_scores(view.scores, seat, n, rules.scoring == "teams", rules.target_score),
        np.uint8,
    )
    o[O_RULES : O_RULES + len(rule_features(rules, n))] = rule_features(rules, n)
    return o


def mask_of_view(view: View) -> MaskArray:
    """The action mask of ``view.seat`` from ``view.legal`` (the reference mask).

    Multi-plays are left out (the table has no index for them); PASS is allowed to
    every live seat that is not the seat to act, while the round is on.
    """
    m = np.zeros(NUM_ACTIONS, np.int8)
    for a in view.legal:
        i = action_index(view.seat, view.n, a)
        if i >= 0:
            m[i] = 1
    if view.phase < P_ROUND_OVER and view.current != view.seat and view.live[view.seat]:
        m[A_PASS] = 1
    return m


# ------------------------------------------------------------------ table ------------
class Table:
    """One game plus the out-of-turn window and the fast observation path."""

    def __init__(
        self,
        rules: RuleSet,
        num_players: int,
        *,
        reward: str = "win",
        episode: str = "round",
    ) -> None:
        if not 2 <= num_players <= MAX_SEATS:
            raise ValueError(f"num_players must be 2 to {MAX_SEATS}, not {num_players}")
        if not plays(TABLE_GAMES, rules):
            raise RulesError(
                f"the RL environments play the classic decks only: deck={rules.deck!r} "
                "(UNO Flip!, No Mercy) has no observation and action table yet "
                "(docs/rules.md, issue 38)",
                code="bad_rules",
            )
        rules.check_players(num_players)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, not {reward!r}")
        if episode not in EPISODE_MODES:
            raise ValueError(f"episode must be one of {EPISODE_MODES}, not {episode!r}")
        self.rules = rules
        self.n = n = num_players
        self.reward_mode = reward
        self.episode = episode
        self._jump_in = rules.jump_in
        self._seven_zero = rules.seven_zero
        self._bluff = rules.wd4_bluffing
        self._force = rules.force_play_drawn
        self._teams = rules.scoring == "teams"
        self._points = tuple(card_points(c, rules.wild_points) for c in range(NUM_CARDS))
        # The observation after the own hand, then room for the mask: the rule features,
        # the live seats and the discard counts (public, the same for every seat; kept
        # current by step()).  An observation is a seat's hand counts + this.
        rest = bytearray(OBS_SIZE + NUM_ACTIONS - _R)
        for j in range(n):
            rest[O_LIVE - _R + j] = 1
        feats = rule_features(rules, n)
        rest[O_RULES - _R : O_RULES - _R + len(feats)] = bytes(feats)
        self._rest = rest
        self.decode = [decode_table(s, n) for s in range(n)]
        self.game = ClassicGame(rules, n, seed=0, events=False, record=False)
        self.passed: set[int] = set()  # seats that let the current window go by
        self.events = False  # new games keep events (for opponents that observe)
        self.record = False  # and their record (tests compare it with other front ends)
        # The mask last built, for _mask_seat; -1 once the game has changed since.
        self._mask_seat = -1
        self._mask = bytearray(NUM_ACTIONS)
        # Cards whose play the fast mask leaves to the general path (legal_actions), and
        # which may move cards between hands (see _track_hands): seven-zero 7s and 0s,
        # Swap, Shuffle and Customizable wilds.  As ids, and as a flag per card id.
        sz = self._seven_zero
        in_deck = set(build_deck(rules.deck, rules.custom_cards))
        special = [
            c
            for c in sorted(in_deck)
            if c >= WILD_SWAP or (sz and c < WILD and CARD_RANK[c] in (0, 7))
        ]
        self._special = bytes(special)
        self._moves_hands = bytes(c in special for c in range(NUM_CARDS))
        # Each seat's hand as counts per card id (None: count afresh at the next look)
        # and every hand's length, kept current by _track_hands: recounting a hand on
        # every observation was the largest single cost of a step.
        self._counts: list[bytearray | None] = [None] * n
        self._lens = bytearray(n)
        self._seen_len = -1  # cards of the discard pile counted in _rest; -1: recount
        self._scores_key = (-1, False)
        self._scores: dict[int, bytes] = {}

    # ---------------------------------------------------------------- lifecycle ----
    def new_game(self, seed: int) -> None:
        """A new game; with events (bots that remember) or a record only when asked."""
        self.set_game(
            ClassicGame(self.rules, self.n, seed=seed, events=self.events, record=self.record)
        )

    def set_game(self, game: ClassicGame) -> None:
        """Play on ``game`` (same rules and seats).  A game must change only through the
        table's ``step``/``apply``/``next_round`` afterwards, or be set again."""
        self.game = game
        self._seen_len = -1
        self._scores_key = (-1, False)
        self._resync_hands()
        self._changed()

    def next_round(self) -> None:
        self.game.start_round()
        self._seen_len = -1
        self._resync_hands()
        self._changed()

    def _changed(self) -> None:
        self._mask_seat = -1
        self.passed.clear()

    @property
    def round_over(self) -> bool:
        return self.game.phase >= P_ROUND_OVER

    # ---------------------------------------------------------------- selection ----
    def select(self) -> int:
        """The seat that decides next; -1 once the round is over.

        The engine's ``seat_to_ask`` (the rule ``to_ask`` applies) with every seat an
        agent: out-of-turn chances first, each may PASS, then the seat to act.
        """
        return seat_to_ask(self.game, self.passed, None)

    # ------------------------------------------------------------------- acting ----
    def step(self, seat: int, index: int) -> int:
        """Apply table action ``index`` for ``seat``; IllegalTableAction if masked out.

        Returns the seat that decides next (``select()``), -1 once the round is over.
        """
        if self._mask_seat != seat:
            self.mask(seat)
        try:
            if index < 0 or not self._mask[index]:
                raise IndexError
        except IndexError:
            raise IllegalTableAction(f"action {index} is not allowed for seat {seat} now") from None
        if index == A_PASS:
            self.passed.add(seat)
            self._mask_seat = -1
            return self.select()
        action = self.decode[seat][index]  # not None: the mask allows only real actions
        kind, card, color, target, uno, extra = action  # type: ignore[misc]
        g = self.game
        before = len(g.discard)
        if kind == PLAY:  # the engine's trusted fast path, without apply_trusted's dispatch
            g.play(seat, card, color, uno, target)
            # Keep the discard counts current (see _track_discard), inline for speed: the
            # table offers no multi-play, so one more card is the card played.
            if self._seen_len == before:
                if len(g.discard) == before + 1:
                    self._rest[_R_SEEN + card] += 1
                    self._seen_len = before + 1
                else:
                    self._seen_len = -1
            # Keep the hand counts current (see _track_hands), inline for speed.
            if extra or self._moves_hands[card]:
                self._resync_hands()
            else:
                cnt = self._counts[seat]
                if cnt is not None:
                    cnt[card] -= 1
                lens = self._lens
                lens[seat] -= 1
                now = bytes(map(len, g.hands))
                if now != lens:  # a Draw Two's victim, a false UNO call: cards were drawn
                    self._drawn_into(now)
        else:
            if kind == DRAW:  # the table offers DRAW only in the play phase
                g.draw(seat)  # cards go to the end of this seat's hand, and nowhere else
                hand = g.hands[seat]
                lens = self._lens
                k = len(hand) - lens[seat]
                if k:
                    cnt = self._counts[seat]
                    if cnt is not None:
                        for c in hand[-k:]:
                            cnt[c] += 1
                    lens[seat] += k
            elif kind == KEEP:
                g.keep(seat)
            else:
                g.apply_trusted(seat, action)  # type: ignore[arg-type]
                self._track_hands(seat, action)  # type: ignore[arg-type]
            if len(g.discard) != before:  # a reshuffle or a retracted W+4
                self._seen_len = -1
        self._mask_seat = -1
        if self.passed:
            self.passed.clear()
        return seat_to_ask(g, self.passed, None)  # the one rule (engine.state.to_ask)

    def apply(self, seat: int, action: Action) -> None:
        """Apply an engine action (a bot's), checked by the engine."""
        before = len(self.game.discard)
        self.game.apply(seat, action)
        self._track_discard(before, action)
        self._track_hands(seat, action)
        self._changed()

    def pass_(self, seat: int) -> None:
        self.passed.add(seat)
        self._mask_seat = -1

    def _track_discard(self, before: int, action: Action) -> None:
        """Keep the discard counts current after ``action`` (the pile had ``before``).

        The discard pile only grows by plays and shrinks by reshuffles and retracted
        Wild Draw Fours, and a reshuffle leaves one card: so an unchanged length after
        a non-play means an unchanged pile, and one more card after a one-card play
        means that card on top.  Anything else (a reshuffle, a multi-play, discarded
        wilds) is counted afresh at the next look.  The tests check the counts
        against a fresh count on random states of every preset.
        """
        if self._seen_len != before:
            self._seen_len = -1
            return
        discard = self.game.discard
        after = len(discard)
        if action.kind == PLAY:
            if after == before + 1 and not action.extra and discard[-1] == action.card:
                self._rest[_R_SEEN + action.card] += 1
                self._seen_len = after
                return
        elif after == before:
            return
        self._seen_len = -1

    def _track_hands(self, seat: int, action: Action) -> None:
        """Keep the hand counts and lengths current after ``seat``'s ``action``.

        Apart from the plays that move cards between hands (a seven-zero 7 or 0, Swap,
        Shuffle and Customizable wilds, a Swap Hands start card's colour) and
        multi-plays, which mark every hand for a fresh count, an action changes hands
        in two ways only: the card played leaves the player's hand, and drawn cards
        (a draw, a penalty, an accepted hit, a challenge, a guilty Wild Draw Four taken
        back) go to the end of a hand.  So the new cards of a longer hand are its last
        ones.  The tests check the counts against the hands on random states of every
        preset.
        """
        kind = action.kind
        if kind == PLAY:
            card = action.card
            if action.extra or self._moves_hands[card]:
                self._resync_hands()
                return
            cnt = self._counts[seat]
            if cnt is not None:
                cnt[card] -= 1
            self._lens[seat] -= 1
        elif kind == COLOR and action.target >= 0:
            self._resync_hands()
            return
        now = bytes(map(len, self.game.hands))
        if now != self._lens:
            self._drawn_into(now)

    def _drawn_into(self, now: bytes) -> None:
        """Hands are ``now`` long: count the cards drawn onto their ends."""
        hands = self.game.hands
        lens = self._lens
        counts = self._counts
        for j, k in enumerate(now):
            old = lens[j]
            if k == old:
                continue
            cnt = counts[j]
            if k < old:  # cannot happen (see _track_hands); count afresh if it does
                counts[j] = None
            elif cnt is not None:
                for c in hands[j][old:]:
                    cnt[c] += 1
        lens[:] = now

    def _resync_hands(self) -> None:
        """Every hand is counted afresh at its next look."""
        self._counts = [None] * self.n
        self._lens[:] = bytes(map(len, self.game.hands))

    def _hand_counts(self, seat: int) -> bytearray:
        """``seat``'s hand as counts per card id (cached, see _track_hands)."""
        cnt = self._counts[seat]
        if cnt is None:
            cnt = bytearray(NUM_CARDS)
            for c in self.game.hands[seat]:
                cnt[c] += 1
            self._counts[seat] = cnt
        return cnt

    # ------------------------------------------------------------------ rewards ----
    def round_rewards(self) -> list[float]:
        """Each seat's reward for the round just over (see docs/rl.md)."""
        g = self.game
        n = self.n
        w = g.round_winner
        scoring = self.rules.scoring
        if w < 0:
            return [0.0] * n
        won = [s % 2 == w % 2 if self._teams else s == w for s in range(n)]
        if self.reward_mode == "win" or scoring == "first-out":
            return [1.0 if x else -1.0 for x in won]
        pts = self._points
        own = [sum(pts[c] for c in h) / 100 for h in g.hands]
        if scoring in ("low", "elimination"):
            return [-x for x in own]
        gained = sum(own[s] for s in range(n) if not won[s])
        return [gained if won[s] else -own[s] for s in range(n)]

    # -------------------------------------------------------------- observation ----
    def observe(self, seat: int) -> ByteArray:
        """The observation of ``seat``: a new uint8 array (spec.OBS_SLICES)."""
        return self.observe_with_mask(seat)[0]

    def observe_with_mask(self, seat: int) -> tuple[ByteArray, MaskArray]:
        """The observation and the action mask of ``seat``, both new arrays (views of
        one new buffer).

        This runs once per environment step, so it is written for speed: one buffer
        made of the seat's kept hand counts and the kept template of the rest, the
        features set in place, and the mask of the common decision (a turn in the play
        phase) built inline.
        """
        g = self.game
        discard = g.discard
        if self._seen_len != len(discard):
            self._rest[_R_SEEN : _R_SEEN + NUM_CARDS] = (
                np.bincount(discard, minlength=NUM_CARDS).astype(np.uint8).tobytes()
            )
            self._seen_len = len(discard)
        cnt = self._counts[seat]
        if cnt is None:
            cnt = self._hand_counts(seat)
        ba = cnt + self._rest  # the observation, then room for the mask
        hand = g.hands[seat]
        top = discard[-1]
        ba[O_TOP + top] = 1
        color = g.color
        if color >= 0:
            ba[O_COLOR + color] = 1
        phase = g.phase
        cur = g.current
        n = self.n
        if phase < P_ROUND_OVER:
            ba[O_PHASE + phase] = 1
            ba[O_TO_ACT + (cur - seat) % n] = 1
            if not phase:  # P_PLAY, the common case: nothing more
                pass
            elif phase == P_DRAWN:
                if cur == seat:
                    ba[O_DRAWN + g.drawn] = 1
            elif phase == P_CHALLENGE:
                if g.wd4_by >= 0:
                    ba[O_WD4_BY + (g.wd4_by - seat) % n] = 1
                ba[O_PENDING] = min(g.pend_total or 4, MAX_COUNT)  # a stack, or a lone 4
            elif phase == P_ANSWER:
                if g.pend_card == WILD_DRAW4 and g.wd4_by >= 0:
                    ba[O_WD4_BY + (g.wd4_by - seat) % n] = 1
                ba[O_PENDING] = min(g.pend_total, MAX_COUNT)
        v = g.vulnerable
        if v >= 0:
            ba[O_VULNERABLE + (v - seat) % n] = 1
        sizes = self._lens
        if seat:
            sizes = sizes[seat:] + sizes[:seat]
        ba[O_HAND_SIZE : O_HAND_SIZE + n] = sizes
        if 1 in sizes:
            ba[O_ONE_CARD : O_ONE_CARD + n] = sizes.translate(_ONE)
        if g.n_live != n:
            live = g.live
            for j in range(n):
                ba[O_LIVE + j] = live[(seat + j) % n]
        if g.direction == 1:
            ba[O_DIRECTION] = 1
        ba[O_DRAW_PILE] = len(g.pile)
        if g.round_index or phase >= P_ROUND_OVER:  # scores are all 0 before that
            ba[O_SCORES : O_SCORES + n] = self._score_row(seat)
        # The mask, into ba[_M:] (all zero there so far).
        if seat != cur or phase >= P_ROUND_OVER:
            ba[_M:] = self._other_mask(g, seat)
        elif phase:
            if not self._turn_mask(g, seat, ba):
                ba[_M:] = self._legal_mask(g, seat)
        else:  # a turn in the play phase: the playable cards, the others deleted at C speed
            cards = bytes(hand).translate(None, _UNPLAYABLE[color * TOP_RANKS + CARD_RANK[top]])
            special = self._special
            if special and len(cards.translate(None, special)) != len(cards):
                ba[_M:] = self._legal_mask(g, seat)  # seven-zero, swap, shuffle, custom
            else:
                ba[_M_DRAW] = 1
                for c in cards:
                    if c < WILD:
                        ba[_M + c] = 1
                    elif c == WILD:
                        ba[_M_WILD : _M_WILD + 4] = _FOUR
                    elif self._bluff or not any(x < WILD and x // 13 == color for x in hand):
                        ba[_M_WILD + 4 : _M_WILD + 8] = _FOUR  # W+4: held no card of `color`
                if len(hand) == 2:  # a play leaves one card: each may call UNO with it
                    ba[_M_UNO_PLAYS : _M_UNO_PLAYS + A_UNO_PLAYS] = ba[_M:_M_UNO_PLAYS]
                if v >= 0:
                    ba[_M + (A_UNO if v == seat else A_CATCH + (v - seat) % n - 1)] = 1
        self._mask = ba[_M:]
        self._mask_seat = seat
        return _ndarray(_OBS_SHAPE, _U8, ba), _ndarray(_MASK_SHAPE, _I8, ba, _M)

    def _score_row(self, seat: int) -> bytes:
        """``seat``'s row of scores (relative seats); they change only when a round
        ends, so each seat's row is cached."""
        g = self.game
        key = (g.round_index, g.phase >= P_ROUND_OVER)
        if key != self._scores_key:
            self._scores_key = key
            self._scores.clear()
        row = self._scores.get(seat)
        if row is None:
            row = _scaled_scores(g.scores, seat, self.n, self._teams, self.rules.target_score)
            self._scores[seat] = row
        return row

    # --------------------------------------------------------------------- mask ----
    def mask(self, seat: int) -> bytearray:
        """The action mask of ``seat`` as bytes (cached until the game changes)."""
        if self._mask_seat != seat:
            self.observe_with_mask(seat)
        return self._mask

    def mask_array(self, seat: int) -> MaskArray:
        """The action mask of ``seat`` as a new int8 array."""
        return np.frombuffer(bytearray(self.mask(seat)), np.int8)

    def _other_mask(self, g: ClassicGame, seat: int) -> bytearray:
        """The mask of a seat that is not to act: its out-of-turn options and PASS (none
        once the round is over or for an eliminated seat)."""
        m = bytearray(NUM_ACTIONS)
        if g.phase < P_ROUND_OVER and g.live[seat]:
            if self._jump_in and g.jump_ins(seat):
                m = self._legal_mask(g, seat)
            v = g.vulnerable
            if v >= 0:
                m[A_UNO if v == seat else A_CATCH + (v - seat) % self.n - 1] = 1
            m[A_PASS] = 1
        return m

    def _legal_mask(self, g: ClassicGame, seat: int) -> bytearray:
        """The general path: every single-card legal action of the engine."""
        m = bytearray(NUM_ACTIONS)
        n = self.n
        for a in g.legal_actions(seat):
            i = action_index(seat, n, a)
            if i >= 0:
                m[i] = 1
        return m

    def _turn_mask(self, g: ClassicGame, seat: int, m: bytearray) -> bool:
        """The seat to act, outside the play phase (``observe_with_mask`` does that one):
        its mask into ``m[_M:]`` (all zero there on entry); False when the general path
        (``legal_actions``) is needed.

        It covers a drawn card that is not a seven-zero 7 or 0 nor a Swap, Shuffle or
        Customizable wild, a Wild Draw Four to answer and a start colour; stacking
        answers take the general path.  The tests check it against ``legal_actions`` on
        random states.
        """
        phase = g.phase
        if phase == P_DRAWN:
            c = g.drawn
            hand = g.hands[seat]
            if c in self._special:
                return False
            if c < WILD:
                m[_M + c] = 1
                playable = True
            elif c == WILD:
                m[_M_WILD : _M_WILD + 4] = _FOUR
                playable = True
            else:
                playable = self._bluff or not any(x < WILD and x // 13 == g.color for x in hand)
                if playable:
                    m[_M_WILD + 4 : _M_WILD + 8] = _FOUR
            if not self._force or not playable:  # ClassicGame.drawn_playable: R-TURN-3
                m[_M_KEEP] = 1
            if len(hand) == 2:  # a play leaves one card: it may call UNO with it
                m[_M_UNO_PLAYS : _M_UNO_PLAYS + A_UNO_PLAYS] = m[_M:_M_UNO_PLAYS]
        elif phase == P_CHALLENGE:
            m[_M + A_CHALLENGE] = 1
            m[_M + A_ACCEPT] = 1
        elif phase == P_START_COLOR:
            if g.discard[-1] == WILD_SWAP:
                live = g.live
                n = self.n
                for k in range(1, n):
                    if live[(seat + k) % n]:
                        for col in range(4):
                            m[_M + A_COLOR_SWAP + col * OFFSETS + k - 1] = 1
            else:
                m[_M + A_COLOR : _M + A_COLOR + 4] = _FOUR
        else:
            return False
        v = g.vulnerable
        if v >= 0:
            m[_M + (A_UNO if v == seat else A_CATCH + (v - seat) % self.n - 1)] = 1
        return True

    # ------------------------------------------------------------------ render -----
    def render(self, agent_names: Sequence[str] | None = None) -> str:
        """A text picture of the table for spectators (every hand shown).

        Read from views, like every front end: the public one, and each seat's own for
        its hand.  Not on the hot path, so it can afford a view per seat.
        """
        g = self.game
        pub = view_of(g, None)
        names = list(agent_names) if agent_names is not None else list(pub.names)
        top = CARD_CODE[pub.top] if pub.discard else "-"
        color = COLOR_CODES[pub.color] if pub.color >= 0 else "-"
        lines = [
            f"round {pub.round_index} · {self.rules.describe()} · phase {PHASE_NAMES[pub.phase]} · "
            f"direction {'clockwise' if pub.direction == 1 else 'counter-clockwise'}",
            f"top {top} · colour {color} · draw pile {pub.draw_pile} · scores {list(pub.scores)}",
        ]
        for s in range(self.n):
            mark = ">" if s == pub.current and not pub.round_over else " "
            flags = []
            if not pub.live[s]:
                flags.append("out")
            if s == pub.vulnerable:
                flags.append("catchable")
            if s == pub.round_winner:
                flags.append("won the round")
            hand = " ".join(CARD_CODE[c] for c in view_of(g, s).hand)
            extra = f"  [{', '.join(flags)}]" if flags else ""
            lines.append(f"{mark} {names[s]} ({pub.hand_sizes[s]}): {hand}{extra}")
        return "\n".join(lines) + "\n"
