"""UNO Flip!'s action table and observation layout for the RL environments (docs/rl.md).

Fixed for every Flip option and every player count (2 to 10), as classic's tables are
(``spec``).  Faces, not cards: a seat sees the active faces of its own cards and the
inactive faces of everyone else's (FLIP-VIEW-1..3), so the observation is built from
faces, in one face index space of 107 slots:

* a coloured face ``side * 52 + colour * 13 + rank - 1`` (``colour`` 0..3 within its
  side, ``rank`` 1..13: the numbers, then Draw One/Five, Reverse, Skip/Skip Everyone,
  Flip), light faces 0..51, dark faces 52..103;
* 104 Wild, 105 Wild Draw Two, 106 Wild Draw Colour.

A wild's colour and a start colour are named *within the side in play* (slot 0..3 is R
Y G B on the light side, P T O V on the dark side): a seat can name only colours of the
side up, so the four slots are all the choice there is.  Multi-plays (``multi_play``)
have no index, as in the classic table: the table plays single cards.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import numpy.typing as npt

from unokit.engine.actions import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, KEEP, PLAY, UNO, Action
from unokit.engine.modern.view import ModernView
from unokit.engine.phases import P_ROUND_OVER
from unokit.engine.view import View
from unokit.modern_cards import (
    FACE_CODE,
    FACE_WILD,
    FLIP_COLOR_CODES,
    WILD_D2,
    WILD_DC,
    WILD_F,
)
from unokit.obs.layout import Layout
from unokit.rules import RuleSet

MAX_SEATS = 10
OFFSETS = MAX_SEATS - 1
NUM_FACE_SLOTS = 107
_WILD_SLOT = {WILD_F: 104, WILD_D2: 105, WILD_DC: 106}
WILD_KINDS = (WILD_F, WILD_D2, WILD_DC)


def face_slot(face: int) -> int:
    """The observation slot of a face (module docstring)."""
    w = _WILD_SLOT.get(face)
    if w is not None:
        return w
    return (face // 64) * 52 + (face % 64 // 16) * 13 + face % 16 - 1


SLOT_FACE: tuple[int, ...] = tuple(
    [s * 64 + c * 16 + r for s in range(2) for c in range(4) for r in range(1, 14)]
    + list(WILD_KINDS)
)
assert all(face_slot(f) == i for i, f in enumerate(SLOT_FACE))

# ---------------------------------------------------------------- actions ----------
A_PLAY = 0  # a coloured face: its slot (0..103)
A_PLAY_WILD = 104  # W, W+2, W+C naming colour c of the side in play: 104 + kind * 4 + c
NUM_PLAYS = 116
A_UNO_PLAYS = NUM_PLAYS  # + any play index: the same play, calling UNO with it
A_DRAW = 2 * NUM_PLAYS  # 232
A_KEEP = A_DRAW + 1  # keep the card just drawn
A_ACCEPT = A_DRAW + 2  # take a Wild Draw Two / Draw Colour without challenging
A_CHALLENGE = A_DRAW + 3  # challenge it
A_UNO = A_DRAW + 4  # call UNO on its own (late, while still catchable)
A_CATCH = A_DRAW + 5  # catch the seat at offset k: A_CATCH + k - 1 (237..245)
A_COLOR = A_CATCH + OFFSETS  # name colour c of the side in play (a start Wild): 246..249
A_PASS = A_COLOR + 4  # 250: let an out-of-turn chance go by
NUM_ACTIONS = A_PASS + 1  # 251


def action_index(seat: int, n: int, action: Action) -> int:
    """The table index of an engine action for ``seat`` at an ``n``-seat table; -1 for a
    multi-play, which the table does not offer."""
    kind = action.kind
    if kind == PLAY:
        if action.extra:
            return -1
        f = action.card
        if FACE_WILD[f]:
            i = A_PLAY_WILD + WILD_KINDS.index(f) * 4 + action.color % 4
        else:
            i = face_slot(f)
        return i + A_UNO_PLAYS if action.uno else i
    if kind == CATCH:
        return A_CATCH + (action.target - seat) % n - 1
    if kind == COLOR:
        return A_COLOR + action.color % 4
    return _SIMPLE[kind]


_SIMPLE = {DRAW: A_DRAW, KEEP: A_KEEP, ACCEPT: A_ACCEPT, CHALLENGE: A_CHALLENGE, UNO: A_UNO}


def _two(slot: int) -> str:
    return "/".join(FLIP_COLOR_CODES[s * 4 + slot] for s in range(2))


def action_name(index: int) -> str:
    """A readable name for a table index (``+k``: the seat k places clockwise)."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"there is no action {index} (the table has {NUM_ACTIONS})")
    if index < 2 * NUM_PLAYS:
        suffix = " uno" if index >= A_UNO_PLAYS else ""
        i = index % NUM_PLAYS
        if i < A_PLAY_WILD:
            return f"play {FACE_CODE[SLOT_FACE[i]]}{suffix}"
        kind, col = divmod(i - A_PLAY_WILD, 4)
        return f"play {FACE_CODE[WILD_KINDS[kind]]} {_two(col)}{suffix}"
    names = {A_DRAW: "draw", A_KEEP: "keep", A_ACCEPT: "accept", A_CHALLENGE: "challenge"}
    if index in names:
        return names[index]
    if index == A_UNO:
        return "uno"
    if index < A_COLOR:
        return f"catch +{index - A_CATCH + 1}"
    if index < A_PASS:
        return f"color {_two(index - A_COLOR)}"
    return "pass"


# ------------------------------------------------------------ observation ----------
RULE_FEATURES = (
    "flip_start=flip",
    "flip_inverts_discard",
    "flip_exposed_action",
    "flip_wild_color=next_player",
    "flip_last_card=no_flip",
    "wd4_bluffing",
    "draw_until_playable",
    "force_play_drawn",
    "multi_play",
    "jump_in",
    "scoring=low",
    "scoring=first-out",
    "number of players (2..10)",
)
NF = NUM_FACE_SLOTS
LAYOUT = Layout(
    [
        ("hand", NF, 4, "own hand: count of each active face (face slots)"),
        (
            "others",
            OFFSETS * NF,
            4,
            "the inactive faces of the seat k places clockwise (k = 1..9, 107 slots each), counts",
        ),
        ("top", NF, 1, "active face of the discard pile's top card, one-hot"),
        ("pile_top", NF, 1, "inactive face of the draw pile's top card, one-hot"),
        ("color", 8, 1, "colour in force R,Y,G,B,P,T,O,V one-hot (0 before a start Wild's)"),
        ("side", 1, 1, "1 while the dark side is up"),
        ("drawn", NF, 1, "face just drawn that may be played now, one-hot"),
        ("pending", NF, 1, "the Wild Draw Two / Draw Colour being answered, one-hot"),
        ("phase", 5, 1, "play, drawn, start_color, challenge, answer one-hot"),
        ("to_act", MAX_SEATS, 1, "seat whose turn it is, relative one-hot"),
        ("hand_size", MAX_SEATS, 255, "cards held by each relative seat"),
        ("one_card", MAX_SEATS, 1, "1 if that relative seat holds exactly one card"),
        ("vulnerable", MAX_SEATS, 1, "seat that may be caught (did not call UNO)"),
        ("wd4_by", MAX_SEATS, 1, "seat whose Wild Draw Two / Draw Colour is answered"),
        ("live", MAX_SEATS, 1, "1 for each seat still in the game"),
        ("direction", 1, 1, "1 clockwise, 0 counter-clockwise"),
        ("draw_pile", 1, 255, "cards in the draw pile"),
        ("discard_size", 1, 255, "cards in the discard pile (cap 255)"),
        ("pending_total", 1, 255, "cards the seat to act draws on accepting (cap 255)"),
        ("scores", MAX_SEATS, 255, "score in % of target_score per relative seat (cap 255)"),
        ("rules", len(RULE_FEATURES), MAX_SEATS, "rule-set features: " + ", ".join(RULE_FEATURES)),
    ],
    scales={
        "hand": 0.25,
        "others": 0.25,
        "hand_size": 1 / 16,
        "draw_pile": 1 / 16,
        "discard_size": 1 / 16,
        "pending_total": 1 / 16,
        "scores": 0.0,
        "rules": [1.0] * (len(RULE_FEATURES) - 1) + [0.1],
    },
)
OBS_SIZE = LAYOUT.size
OBS_SLICES = LAYOUT.slices


def rule_features(rules: RuleSet, n: int) -> list[int]:
    """The constant rule-set block (``RULE_FEATURES``)."""
    feats = [
        rules.flip_start == "flip",
        rules.flip_inverts_discard,
        rules.flip_exposed_action,
        rules.flip_wild_color == "next_player",
        rules.flip_last_card == "no_flip",
        rules.wd4_bluffing,
        rules.draw_until_playable,
        rules.force_play_drawn,
        rules.multi_play,
        rules.jump_in,
        rules.scoring == "low",
        rules.scoring == "first-out",
    ]
    return [*map(int, feats), n]


def _scaled(raw: int, target: int) -> int:
    return min(255, raw * 100 // target)


def encode_view(view: View) -> npt.NDArray[np.uint8]:
    """The observation of ``view.seat`` from its view alone: a Flip ``ModernView``
    (``tables.TABLES`` hands this encoder Flip's views only)."""
    return _encode(cast(ModernView, view))


def _encode(view: ModernView) -> npt.NDArray[np.uint8]:
    L = LAYOUT
    n, seat = view.n, view.seat
    o = np.zeros(OBS_SIZE, np.uint8)
    for f in view.hand:
        o[L["hand"] + face_slot(f)] += 1
    others = view.others
    for k in range(1, n):
        base = L["others"] + (k - 1) * NF
        for f in others[(seat + k) % n]:
            o[base + face_slot(f)] += 1
    if view.discard:
        o[L["top"] + face_slot(view.top)] = 1
    if view.pile_top >= 0:
        o[L["pile_top"] + face_slot(view.pile_top)] = 1
    if view.color >= 0:
        o[L["color"] + view.color] = 1
    o[L["side"]] = view.side == 1
    if view.phase < P_ROUND_OVER:
        o[L["phase"] + view.phase] = 1
        o[L["to_act"] + (view.current - seat) % n] = 1
        if view.drawn >= 0:
            o[L["drawn"] + face_slot(view.drawn)] = 1
        if view.pending >= 0:
            o[L["pending"] + face_slot(view.pending)] = 1
        if view.wd4_by >= 0:
            o[L["wd4_by"] + (view.wd4_by - seat) % n] = 1
        o[L["pending_total"]] = min(view.pending_total, 255)
    if view.vulnerable >= 0:
        o[L["vulnerable"] + (view.vulnerable - seat) % n] = 1
    rules = view.rules
    for j in range(n):
        s = (seat + j) % n
        size = view.hand_sizes[s]
        o[L["hand_size"] + j] = min(size, 255)
        o[L["one_card"] + j] = size == 1
        o[L["live"] + j] = view.live[s]
        o[L["scores"] + j] = _scaled(view.scores[s], rules.target_score)
    o[L["direction"]] = view.direction == 1
    o[L["draw_pile"]] = min(view.draw_pile, 255)
    o[L["discard_size"]] = min(view.discard_size, 255)
    feats = rule_features(rules, n)
    o[L["rules"] : L["rules"] + len(feats)] = feats
    return o
