"""Faces and cards of UNO Flip! and UNO Show 'Em No Mercy (RULES-MODERN.md A1, B1).

Both games keep the classic engine's idea: a card is a small int with a canonical code
that round-trips, and every property the rules ask about is a table look-up.  The id
spaces are their own (a Flip face is not a classic card), so nothing here is mixed up
with ``unokit.cards``.

UNO Flip!: a *face* is ``side * 64 + colour * 16 + rank`` for a coloured face (``side``
0 light, 1 dark; ``colour`` 0..3 within the side), and ``WILD_F`` (``W``, on either
side), ``WILD_D2`` (``W+2``) or ``WILD_DC`` (``W+C``) for a wild face.  A colour in
force is a *global* colour ``side * 4 + colour``: R Y G B are 0..3, P T O V are 4..7,
so naming a light colour on the dark side is simply not among the legal actions.  A
physical card is a (light, dark) pair, written ``R7|T+5`` (FLIP-DECK-2).

No Mercy: a card is ``colour * 16 + rank`` (ranks 0..9, then S R +2 +4 SE DA) or one
of the wilds ``NM_W`` (alt37 only), ``WR+4``, ``W+6``, ``W+10``, ``WCR``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from unokit.cards import CardError

# ---------------------------------------------------------------- UNO Flip! ----
LIGHT, DARK = 0, 1
SIDE_NAMES = ("light", "dark")
FLIP_COLOR_CODES = ("R", "Y", "G", "B", "P", "T", "O", "V")
FLIP_COLOR_NAMES = ("red", "yellow", "green", "blue", "pink", "teal", "orange", "purple")
# coloured ranks: 1..9 numbers, then these (the same slot means the card's symbol on
# each side: Draw One / Draw Five, Reverse, Skip / Skip Everyone, Flip)
F_DRAW, F_REVERSE, F_SKIP, F_FLIP = 10, 11, 12, 13
WILD_F = 128  # Wild, on either side
WILD_D2 = 129  # Wild Draw Two (light)
WILD_DC = 130  # Wild Draw Colour (dark)
NUM_FACES = 131
_FLIP_RANK_CODES = {
    LIGHT: {F_DRAW: "+1", F_REVERSE: "R", F_SKIP: "S", F_FLIP: "F"},
    DARK: {F_DRAW: "+5", F_REVERSE: "R", F_SKIP: "SE", F_FLIP: "F"},
}
_FLIP_RANK_NAMES = {
    LIGHT: {F_DRAW: "draw one", F_REVERSE: "reverse", F_SKIP: "skip", F_FLIP: "flip"},
    DARK: {F_DRAW: "draw five", F_REVERSE: "reverse", F_SKIP: "skip everyone", F_FLIP: "flip"},
}


def face_id(side: int, color: int, rank: int) -> int:
    """The id of a coloured face; ``color`` is 0..3 within ``side``."""
    return side * 64 + color * 16 + rank


def _face_tables() -> tuple[list[str], list[int], list[int], list[int]]:
    code = [""] * NUM_FACES
    side = [-1] * NUM_FACES
    color = [-1] * NUM_FACES  # the global colour (0..7), -1 for a wild
    rank = [-1] * NUM_FACES  # 1..13 for coloured faces, 16+ for wilds (never match)
    for s in (LIGHT, DARK):
        for c in range(4):
            for r in range(1, 14):
                f = face_id(s, c, r)
                rc = str(r) if r <= 9 else _FLIP_RANK_CODES[s][r]
                code[f] = FLIP_COLOR_CODES[s * 4 + c] + rc
                side[f], color[f], rank[f] = s, s * 4 + c, r
    wilds: tuple[tuple[int, str, int, int], ...] = (
        (WILD_F, "W", -1, 16),
        (WILD_D2, "W+2", LIGHT, 17),
        (WILD_DC, "W+C", DARK, 18),
    )
    for wf, wc, ws, wr in wilds:
        code[wf], side[wf], rank[wf] = wc, ws, wr
    return code, side, color, rank


_FC, _FS, _FCOL, _FR = _face_tables()
FACE_CODE: tuple[str, ...] = tuple(_FC)
FACE_SIDE: tuple[int, ...] = tuple(_FS)  # -1: the plain Wild, on either side
FACE_COLOR: tuple[int, ...] = tuple(_FCOL)
FACE_RANK: tuple[int, ...] = tuple(_FR)
FACE_WILD: tuple[bool, ...] = tuple(f >= WILD_F for f in range(NUM_FACES))
FACE_NUMBER: tuple[bool, ...] = tuple(0 < r <= 9 and f < WILD_F for f, r in enumerate(_FR))
_FACE_OF_CODE = {c: f for f, c in enumerate(FACE_CODE) if c}


def face_points(face: int) -> int:
    """FLIP-SCORE-1: numbers face value; Draw One 10; Draw Five, Reverse, Skip, Flip 20;
    Skip Everyone 30; Wild 40; Wild Draw Two 50; Wild Draw Colour 60."""
    if face == WILD_F:
        return 40
    if face == WILD_D2:
        return 50
    if face == WILD_DC:
        return 60
    r = FACE_RANK[face]
    if r <= 9:
        return r
    if r == F_DRAW:
        return 10 if FACE_SIDE[face] == LIGHT else 20
    if r == F_SKIP and FACE_SIDE[face] == DARK:
        return 30
    return 20


FACE_POINTS: tuple[int, ...] = tuple(
    face_points(f) if FACE_CODE[f] else 0 for f in range(NUM_FACES)
)


def face_name(face: int) -> str:
    if face == WILD_F:
        return "wild"
    if face == WILD_D2:
        return "wild draw two"
    if face == WILD_DC:
        return "wild draw colour"
    r, s = FACE_RANK[face], FACE_SIDE[face]
    return f"{FLIP_COLOR_NAMES[FACE_COLOR[face]]} {r if r <= 9 else _FLIP_RANK_NAMES[s][r]}"


def parse_face(text: str) -> int:
    """A face code of either side (``R7``, ``T+5``, ``PSE``, ``W``, ``W+C``)."""
    if isinstance(text, str):
        f = _FACE_OF_CODE.get(text.strip().upper())
        if f is not None:
            return f
    raise CardError(
        f"{text!r} is not a UNO Flip! face (light: R7, Y+1, GR, BS, RF, W, W+2; "
        "dark: P7, T+5, OR, VSE, PF, W, W+C)"
    )


def parse_flip_color(text: str) -> int:
    """A colour of either side: R Y G B (light), P T O V (dark), or their names."""
    if isinstance(text, str):
        t = text.strip().upper()
        if t in FLIP_COLOR_CODES:
            return FLIP_COLOR_CODES.index(t)
        low = text.strip().lower()
        if low in FLIP_COLOR_NAMES:
            return FLIP_COLOR_NAMES.index(low)
    raise CardError(f"{text!r} is not a colour (light R, Y, G, B; dark P, T, O, V)")


def side_faces(side: int) -> list[int]:
    """The 112 faces of one side, in id order (FLIP-DECK-1)."""
    out: list[int] = []
    for c in range(4):
        for r in range(1, 14):
            out.extend([face_id(side, c, r)] * 2)
    out.extend([WILD_F] * 4 + [WILD_D2 if side == LIGHT else WILD_DC] * 4)
    return out


def pair_code(light: int, dark: int) -> str:
    """``R7|T+5``: a physical card, light face first (FLIP-DECK-2)."""
    return f"{FACE_CODE[light]}|{FACE_CODE[dark]}"


def parse_pair(text: str) -> tuple[int, int]:
    """The (light, dark) faces of a two-faced card code; CardError if it is not one."""
    if not isinstance(text, str) or text.count("|") != 1:
        raise CardError(f"{text!r} is not a two-faced card (write it light|dark, as R7|T+5)")
    a, b = text.split("|")
    light, dark = parse_face(a), parse_face(b)
    if FACE_SIDE[light] == DARK or light == WILD_DC:
        raise CardError(f"{text!r}: {a.strip()!r} is not a light face")
    if FACE_SIDE[dark] == LIGHT or dark == WILD_D2:
        raise CardError(f"{text!r}: {b.strip()!r} is not a dark face")
    return light, dark


# ------------------------------------------------------------- No Mercy -----------
NM_COLOR_CODES = ("R", "Y", "G", "B")
NM_COLOR_NAMES = ("red", "yellow", "green", "blue")
N_SKIP, N_REVERSE, N_D2, N_D4, N_SKIPALL, N_DISCARDALL = 10, 11, 12, 13, 14, 15
NM_W, NM_WR4, NM_W6, NM_W10, NM_WCR = 64, 65, 66, 67, 68
NM_NUM_CARDS = 69
_NM_RANK_CODES = (
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "S",
    "R",
    "+2",
    "+4",
    "SE",
    "DA",
)
_NM_RANK_NAMES = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw 2", "draw 4",
    "skip everyone", "discard all",
)  # fmt: skip
_NM_WILDS = {NM_W: "W", NM_WR4: "WR+4", NM_W6: "W+6", NM_W10: "W+10", NM_WCR: "WCR"}
_NM_WILD_NAMES = {
    NM_W: "wild",
    NM_WR4: "wild reverse draw 4",
    NM_W6: "wild draw 6",
    NM_W10: "wild draw 10",
    NM_WCR: "wild colour roulette",
}
NM_CODE: tuple[str, ...] = tuple(
    [NM_COLOR_CODES[i // 16] + _NM_RANK_CODES[i % 16] for i in range(64)]
    + [_NM_WILDS[i] for i in range(64, NM_NUM_CARDS)]
)
NM_COLOR: tuple[int, ...] = tuple([i // 16 for i in range(64)] + [-1] * 5)
NM_RANK: tuple[int, ...] = tuple([i % 16 for i in range(64)] + [16, 17, 18, 19, 20])
NM_WILD: tuple[bool, ...] = tuple(i >= 64 for i in range(NM_NUM_CARDS))
# NM-DECK-3: the draw value of draw cards (0: not a draw card)
NM_DRAW: tuple[int, ...] = tuple(
    [{N_D2: 2, N_D4: 4}.get(i % 16, 0) for i in range(64)] + [0, 4, 6, 10, 0]
)
NM_POINTS: tuple[int, ...] = tuple(
    [i % 16 if i % 16 <= 9 else 20 for i in range(64)] + [50] * 5
)  # NM-SCORE-2
_NM_OF_CODE = {c: i for i, c in enumerate(NM_CODE)}
NM_DECKS = ("wiki", "alt38", "alt37")


def nm_card(color: int, rank: int) -> int:
    return color * 16 + rank


def nm_name(card: int) -> str:
    if card >= 64:
        return _NM_WILD_NAMES[card]
    return f"{NM_COLOR_NAMES[card // 16]} {_NM_RANK_NAMES[card % 16]}"


def parse_nm_card(text: str) -> int:
    """A No Mercy card code (``R7``, ``B+4``, ``GSE``, ``YDA``, ``WR+4``, ``W+10``, ``WCR``)."""
    if isinstance(text, str):
        c = _NM_OF_CODE.get(text.strip().upper())
        if c is not None:
            return c
    raise CardError(
        f"{text!r} is not a No Mercy card (try R7, B+2, G+4, YS, RR, BSE, GDA, WR+4, "
        "W+6, W+10, WCR)"
    )


def parse_nm_color(text: str) -> int:
    if isinstance(text, str):
        t = text.strip().upper()
        if t in NM_COLOR_CODES:
            return NM_COLOR_CODES.index(t)
        low = text.strip().lower()
        if low in NM_COLOR_NAMES:
            return NM_COLOR_NAMES.index(low)
    raise CardError(f"{text!r} is not a colour (use R, Y, G or B)")


@lru_cache(maxsize=4)
def _nm_deck(kind: str) -> tuple[int, ...]:
    if kind not in NM_DECKS:
        raise CardError(f"unknown No Mercy deck {kind!r}; choose one of {', '.join(NM_DECKS)}")
    per: dict[int, int] = {N_D2: 3, N_D4: 2, N_SKIP: 3, N_SKIPALL: 2, N_REVERSE: 3, N_DISCARDALL: 3}
    wilds = {NM_WR4: 8, NM_W6: 4, NM_W10: 4, NM_WCR: 8}
    zeros = 2
    if kind == "alt38":
        per[N_D4] = per[N_SKIPALL] = 3
        wilds = {NM_WR4: 4, NM_W6: 4, NM_W10: 4, NM_WCR: 4}
    elif kind == "alt37":
        zeros = 1
        per[N_D4] = per[N_SKIPALL] = 3
        wilds = {NM_W: 4, NM_WR4: 4, NM_W6: 4, NM_W10: 4, NM_WCR: 4}
    cards: list[int] = []
    for c in range(4):
        cards.extend([nm_card(c, 0)] * zeros)
        for r in range(1, 10):
            cards.extend([nm_card(c, r)] * 2)
        for r, k in per.items():
            cards.extend([nm_card(c, r)] * k)
    for w, k in wilds.items():
        cards.extend([w] * k)
    return tuple(sorted(cards))


def nm_deck(kind: str = "wiki") -> list[int]:
    """The 168 cards of a No Mercy deck (NM-DECK-1, -2), sorted by id."""
    return list(_nm_deck(kind))


def nm_codes(cards: Sequence[int]) -> list[str]:
    return [NM_CODE[c] for c in cards]
