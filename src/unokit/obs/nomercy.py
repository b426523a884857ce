"""UNO Show 'Em No Mercy's action table and observation layout for the RL environments.

Fixed for every No Mercy option and every player count (2 to 6 seats are playable;
the per-seat blocks keep 10 slots, as every unokit table does, so one network shape
fits every game's seat blocks).  Cards are the game's own ids (``modern_cards``):
``colour * 16 + rank`` for the 64 coloured kinds (ranks 0..9, Skip, Reverse, Draw Two,
Draw Four, Skip Everyone, Discard All), then W, WR+4, W+6, W+10, WCR (64..68).

A wild's colour slot 0 is "no colour" (a Colour Roulette whose victim names it,
``nm_roulette_color="victim"``), 1..4 are R Y G B.  A 7 names the seat it swaps with;
a 7 with nobody to swap with (the last card, or played as an answer) is a plain play.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

import numpy as np
import numpy.typing as npt

from unokit.engine.actions import ACCEPT, CATCH, COLOR, DRAW, PLAY, UNO, Action
from unokit.engine.modern.view import ModernView
from unokit.engine.phases import P_ROUND_OVER
from unokit.engine.view import View
from unokit.modern_cards import NM_CODE, NM_COLOR_CODES, NM_DECKS, NM_NUM_CARDS, nm_deck
from unokit.obs.layout import Layout
from unokit.rules import RuleSet

MAX_SEATS = 10
OFFSETS = MAX_SEATS - 1
NC = NM_NUM_CARDS  # 69
SEVEN = 7

# ---------------------------------------------------------------- actions ----------
A_PLAY = 0  # a coloured card without a target: its id (0..63)
A_PLAY_WILD = 64  # wild w (W, WR+4, W+6, W+10, WCR) naming slot c: 64 + w * 5 + c
A_PLAY_SEVEN = 89  # a 7 of colour c swapped with offset k: 89 + c * 9 + k - 1
NUM_PLAYS = 125
A_UNO_PLAYS = NUM_PLAYS  # + any play index: the same play, calling UNO with it
A_DRAW = 2 * NUM_PLAYS  # 250
A_ACCEPT = A_DRAW + 1  # take the stacked draw and lose the turn
A_UNO = A_DRAW + 2  # call UNO on its own (late, while still catchable)
A_CATCH = A_DRAW + 3  # catch the seat at offset k: A_CATCH + k - 1 (253..261)
A_COLOR = A_CATCH + OFFSETS  # the Roulette's victim names colour c: 262..265
A_PASS = A_COLOR + 4  # 266: let an out-of-turn chance go by
NUM_ACTIONS = A_PASS + 1  # 267


def action_index(seat: int, n: int, action: Action) -> int:
    """The table index of an engine action for ``seat`` at an ``n``-seat table."""
    kind = action.kind
    if kind == PLAY:
        if action.extra:
            return -1
        c = action.card
        if c >= 64:
            i = A_PLAY_WILD + (c - 64) * 5 + action.color + 1
        elif action.target >= 0:
            i = A_PLAY_SEVEN + (c // 16) * OFFSETS + (action.target - seat) % n - 1
        else:
            i = c
        return i + A_UNO_PLAYS if action.uno else i
    if kind == CATCH:
        return A_CATCH + (action.target - seat) % n - 1
    if kind == COLOR:
        return A_COLOR + action.color
    return _SIMPLE.get(kind, -1)


_SIMPLE = {DRAW: A_DRAW, ACCEPT: A_ACCEPT, UNO: A_UNO}


def action_name(index: int) -> str:
    """A readable name for a table index (``+k``: the seat k places clockwise)."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"there is no action {index} (the table has {NUM_ACTIONS})")
    if index < 2 * NUM_PLAYS:
        suffix = " uno" if index >= A_UNO_PLAYS else ""
        i = index % NUM_PLAYS
        if i < A_PLAY_WILD:
            return f"play {NM_CODE[i]}{suffix}"
        if i < A_PLAY_SEVEN:
            w, slot = divmod(i - A_PLAY_WILD, 5)
            named = f" {NM_COLOR_CODES[slot - 1]}" if slot else ""
            return f"play {NM_CODE[64 + w]}{named}{suffix}"
        col, k = divmod(i - A_PLAY_SEVEN, OFFSETS)
        return f"play {NM_COLOR_CODES[col]}7 +{k + 1}{suffix}"
    if index == A_DRAW:
        return "draw"
    if index == A_ACCEPT:
        return "accept"
    if index == A_UNO:
        return "uno"
    if index < A_COLOR:
        return f"catch +{index - A_CATCH + 1}"
    if index < A_PASS:
        return f"color {NM_COLOR_CODES[index - A_COLOR]}"
    return "pass"


# ------------------------------------------------------------ observation ----------
RULE_FEATURES = (
    "nm_deck=alt38",
    "nm_deck=alt37",
    "nm_voluntary_draw",
    "nm_stack_threshold=total",
    "nm_stack_match_color",
    "nm_stack_deflect",
    "nm_knockout_cards=discard_bottom",
    "nm_last_card_effect",
    "nm_roulette_color=player",
    "scoring=first-out",
    "mercy_limit (0: none; cap 255)",
    "number of players (2..6)",
)
# the most copies of one card kind in any No Mercy deck
MAX_COPIES = max(max(Counter(nm_deck(d)).values()) for d in NM_DECKS)
CAP = 255
LAYOUT = Layout(
    [
        ("hand", NC, MAX_COPIES, "own hand: count of each card kind"),
        ("discard", NC, MAX_COPIES, "discard pile (face up): count of each card kind"),
        ("top", NC, 1, "top card of the discard pile, one-hot"),
        ("color", 4, 1, "colour in force R,Y,G,B one-hot"),
        ("drawn", NC, 1, "card just drawn that must be played now, one-hot"),
        ("pending", NC, 1, "the draw card to answer (stacking), one-hot"),
        ("phase", 5, 1, "play, drawn, start_color, challenge, answer one-hot"),
        ("to_act", MAX_SEATS, 1, "seat whose turn it is, relative one-hot"),
        ("hand_size", MAX_SEATS, CAP, "cards held by each relative seat (cap 255)"),
        ("one_card", MAX_SEATS, 1, "1 if that relative seat holds exactly one card"),
        ("vulnerable", MAX_SEATS, 1, "seat that may be caught (did not call UNO)"),
        ("live", MAX_SEATS, 1, "1 for each seat still in the hand (not knocked out)"),
        ("direction", 1, 1, "1 clockwise, 0 counter-clockwise"),
        ("draw_pile", 1, CAP, "cards in the draw pile (cap 255)"),
        ("aside", 1, CAP, "cards of knocked-out hands set aside (cap 255)"),
        ("pending_total", 1, CAP, "cards the seat to act draws on accepting (cap 255)"),
        ("scores", MAX_SEATS, CAP, "score in % of target_score per relative seat (cap 255)"),
        ("rules", len(RULE_FEATURES), CAP, "rule-set features: " + ", ".join(RULE_FEATURES)),
    ],
    scales={
        "hand": 0.25,
        "discard": 0.25,
        "hand_size": 1 / 16,
        "draw_pile": 1 / 16,
        "aside": 1 / 16,
        "pending_total": 1 / 16,
        "scores": 0.0,
        "rules": [1.0] * (len(RULE_FEATURES) - 2) + [1 / 25, 0.1],
    },
)
OBS_SIZE = LAYOUT.size
OBS_SLICES = LAYOUT.slices


def rule_features(rules: RuleSet, n: int) -> list[int]:
    """The constant rule-set block (``RULE_FEATURES``)."""
    pack = NM_DECKS.index(rules.nm_deck)  # 0 wiki, 1 alt38, 2 alt37
    feats = [
        pack == 1,
        pack == 2,
        rules.nm_voluntary_draw,
        rules.nm_stack_threshold == "total",
        rules.nm_stack_match_color,
        rules.nm_stack_deflect,
        rules.nm_knockout_cards == "discard_bottom",
        rules.nm_last_card_effect,
        rules.nm_roulette_color == "player",
        rules.scoring == "first-out",
    ]
    return [*map(int, feats), min(rules.mercy_limit, CAP), n]


def encode_view(view: View) -> npt.NDArray[np.uint8]:
    """The observation of ``view.seat`` from its view alone: a No Mercy ``ModernView``
    (``tables.TABLES`` hands this encoder No Mercy's views only)."""
    return _encode(cast(ModernView, view))


def _encode(view: ModernView) -> npt.NDArray[np.uint8]:
    L = LAYOUT
    n, seat = view.n, view.seat
    o = np.zeros(OBS_SIZE, np.uint8)
    o[L["hand"] : L["hand"] + NC] = np.bincount(np.asarray(view.hand, np.int64), minlength=NC)
    o[L["discard"] : L["discard"] + NC] = np.bincount(
        np.asarray(view.discard, np.int64), minlength=NC
    )
    if view.discard:
        o[L["top"] + view.top] = 1
    if view.color >= 0:
        o[L["color"] + view.color] = 1
    if view.phase < P_ROUND_OVER:
        o[L["phase"] + view.phase] = 1
        o[L["to_act"] + (view.current - seat) % n] = 1
        if view.drawn >= 0:
            o[L["drawn"] + view.drawn] = 1
        if view.pending >= 0:
            o[L["pending"] + view.pending] = 1
        o[L["pending_total"]] = min(view.pending_total, CAP)
    if view.vulnerable >= 0:
        o[L["vulnerable"] + (view.vulnerable - seat) % n] = 1
    target = view.rules.target_score
    for j in range(n):
        s = (seat + j) % n
        size = view.hand_sizes[s]
        o[L["hand_size"] + j] = min(size, CAP)
        o[L["one_card"] + j] = size == 1
        o[L["live"] + j] = view.live[s]
        o[L["scores"] + j] = min(CAP, view.scores[s] * 100 // target)
    o[L["direction"]] = view.direction == 1
    o[L["draw_pile"]] = min(view.draw_pile, CAP)
    o[L["aside"]] = min(view.aside, CAP)
    feats = rule_features(view.rules, n)
    o[L["rules"] : L["rules"] + len(feats)] = feats
    return o
