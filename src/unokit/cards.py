"""Cards as small ints, with canonical text codes that round-trip (RULES.md §1).

A card id names a card *kind* (``R7``), not a physical card: a deck is a list of ids
with repeats.  Coloured cards are ``colour * 13 + rank`` (0..51), the wild kinds follow
(52..56).  Every property the engine asks about a card is a table look-up, so the hot
paths never branch on strings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from unokit.errors import UnoError

# Colours.  WILD_COLOR is the "colour" of an uncoloured card.
RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
WILD_COLOR = 4
COLORS = (RED, YELLOW, GREEN, BLUE)
COLOR_CODES = ("R", "Y", "G", "B")
COLOR_NAMES = ("red", "yellow", "green", "blue")

# Ranks of coloured cards: 0..9 are numbers.
SKIP, REVERSE, DRAW2 = 10, 11, 12
NUM_RANKS = 13
RANK_CODES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
RANK_NAMES = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw two",
)  # fmt: skip

# Wild kinds.  Their "rank" is 13 + index so that a wild never matches by symbol.
WILD = 52
WILD_DRAW4 = 53
WILD_SWAP = 54
WILD_SHUFFLE = 55
WILD_CUSTOM = 56
NUM_CARDS = 57
WILD_CODES = ("W", "W+4", "WSWAP", "WSHUF", "WCUST")
WILD_NAMES = (
    "wild",
    "wild draw four",
    "wild swap hands",
    "wild shuffle hands",
    "wild customizable",
)


def card_id(color: int, rank: int) -> int:
    """The id of a coloured card."""
    return color * NUM_RANKS + rank


CARD_COLOR: tuple[int, ...] = tuple([c // NUM_RANKS for c in range(52)] + [WILD_COLOR] * 5)
CARD_RANK: tuple[int, ...] = tuple([c % NUM_RANKS for c in range(52)] + list(range(13, 18)))
CARD_CODE: tuple[str, ...] = tuple(
    [COLOR_CODES[c // NUM_RANKS] + RANK_CODES[c % NUM_RANKS] for c in range(52)] + list(WILD_CODES)
)
CARD_NAME: tuple[str, ...] = tuple(
    [f"{COLOR_NAMES[c // NUM_RANKS]} {RANK_NAMES[c % NUM_RANKS]}" for c in range(52)]
    + list(WILD_NAMES)
)
IS_WILD: tuple[bool, ...] = tuple(c >= WILD for c in range(NUM_CARDS))
IS_NUMBER: tuple[bool, ...] = tuple(c < WILD and c % NUM_RANKS <= 9 for c in range(NUM_CARDS))


def card_points(card: int, wild_points: int = 50) -> int:
    """Points a card left in hand is worth (RULES.md §1)."""
    if card < WILD:
        rank = card % NUM_RANKS
        return rank if rank <= 9 else 20
    if card == WILD:
        return wild_points
    if card == WILD_DRAW4:
        return 50
    return 40


@lru_cache(maxsize=64)
def points_table(wild_points: int = 50) -> tuple[int, ...]:
    """All card points at once, for scoring without a function call per card."""
    return tuple(card_points(c, wild_points) for c in range(NUM_CARDS))


# --- Matching -------------------------------------------------------------------------
# PLAYABLE_MASK[color * 18 + rank] is a bitmask over card ids of the cards that may be
# played on a top card of that rank with that colour in force.  Rank 13..17 are wilds
# on top: only the colour in force (and any wild) matches.
TOP_RANKS = 18


def _playable_mask(color: int, rank: int) -> int:
    mask = 0
    for c in range(NUM_CARDS):
        if c >= WILD or CARD_COLOR[c] == color or (rank < NUM_RANKS and CARD_RANK[c] == rank):
            mask |= 1 << c
    return mask


PLAYABLE_MASK: tuple[int, ...] = tuple(
    _playable_mask(color, rank) for color in range(5) for rank in range(TOP_RANKS)
)


def match_key(color: int, top: int) -> int:
    """Index into PLAYABLE_MASK for the colour in force and the top card."""
    return color * TOP_RANKS + CARD_RANK[top]


def matches(card: int, color: int, top: int) -> bool:
    """Whether ``card`` may be played on ``top`` with ``color`` in force (R-TURN-1)."""
    return bool(PLAYABLE_MASK[color * TOP_RANKS + CARD_RANK[top]] >> card & 1)


# --- Text ---------------------------------------------------------------------------
class CardError(UnoError):
    """A card code that names no card."""

    code = "bad_card"


_LONG_RANKS = {
    "skip": SKIP,
    "reverse": REVERSE,
    "draw two": DRAW2,
    "draw 2": DRAW2,
    "drawtwo": DRAW2,
    "+2": DRAW2,
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_LONG_WILDS = {
    "wild": WILD,
    "wild draw four": WILD_DRAW4,
    "wild draw 4": WILD_DRAW4,
    "wild +4": WILD_DRAW4,
    "wild swap hands": WILD_SWAP,
    "wild swap": WILD_SWAP,
    "wild shuffle hands": WILD_SHUFFLE,
    "wild shuffle": WILD_SHUFFLE,
    "wild customizable": WILD_CUSTOM,
    "wild custom": WILD_CUSTOM,
}
_CODE_TO_ID = {code: i for i, code in enumerate(CARD_CODE)}
_COLOR_WORDS = {
    "r": RED, "red": RED, "y": YELLOW, "yellow": YELLOW,
    "g": GREEN, "green": GREEN, "b": BLUE, "blue": BLUE,
}  # fmt: skip


def parse_card(text: str) -> int:
    """Parse a card code (``r7``, ``W+4``) or long name (``red 7``, ``wild draw four``)."""
    if not isinstance(text, str):
        raise CardError(f"a card code must be text, not {text!r}")
    t = " ".join(text.strip().split())
    up = t.upper()
    if up in _CODE_TO_ID:
        return _CODE_TO_ID[up]
    low = t.lower()
    if low in _LONG_WILDS:
        return _LONG_WILDS[low]
    parts = low.split(" ", 1)
    if len(parts) == 2 and parts[0] in _COLOR_WORDS:
        rest = parts[1]
        rank = _LONG_RANKS.get(rest)
        if rank is None and rest.isdigit() and len(rest) == 1:
            rank = int(rest)
        if rank is not None:
            return card_id(_COLOR_WORDS[parts[0]], rank)
    raise CardError(f"{text!r} is not a card (try codes like R7, YS, G+2, BR, W, W+4)")


def parse_color(text: str) -> int:
    """Parse a colour: ``R``/``red`` and so on, any case."""
    if isinstance(text, str):
        c = _COLOR_WORDS.get(text.strip().lower())
        if c is not None:
            return c
    raise CardError(f"{text!r} is not a colour (use R, Y, G or B)")


def card_code(card: int) -> str:
    return CARD_CODE[card]


def color_code(color: int) -> str:
    return COLOR_CODES[color]


# --- Decks --------------------------------------------------------------------------
DECKS = ("classic", "mattel-2018-swap", "mattel-2018-shuffle", "my-first-uno")


def build_deck(deck: str = "classic", custom_cards: int = 3) -> list[int]:
    """The deck's cards in a canonical order (sorted by id); a fresh list each call."""
    return list(_deck(deck, custom_cards))


@lru_cache(maxsize=32)
def _deck(deck: str, custom_cards: int) -> tuple[int, ...]:
    cards: list[int] = []
    if deck == "my-first-uno":
        for color in COLORS:
            cards.extend(card_id(color, r) for r in range(1, 8))
            cards.append(card_id(color, DRAW2))
        cards.extend([WILD] * 4)
        return tuple(sorted(cards))
    if deck not in DECKS:
        raise CardError(f"unknown deck {deck!r}")
    for color in COLORS:
        cards.append(card_id(color, 0))
        for rank in range(1, 13):
            cards.extend([card_id(color, rank)] * 2)
    cards.extend([WILD] * 4 + [WILD_DRAW4] * 4)
    if deck == "mattel-2018-swap":
        cards.append(WILD_SWAP)
        cards.extend([WILD_CUSTOM] * custom_cards)
    elif deck == "mattel-2018-shuffle":
        cards.append(WILD_SHUFFLE)
        cards.extend([WILD_CUSTOM] * custom_cards)
    return tuple(sorted(cards))


def deck_has(deck: str, card: int) -> bool:
    """Whether a classic deck holds that card (front ends ask this, not the deck's name)."""
    return card in _deck(deck, 3)


def plain_deck(deck: str) -> bool:
    """A deck of the official cards only: no Wild Swap Hands, Shuffle Hands or
    Customizable (what the compiled engine and the vector environment play)."""
    held = _deck(deck, 3)
    return WILD_SWAP not in held and WILD_SHUFFLE not in held and WILD_CUSTOM not in held


def is_submultiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    """Whether every card of ``part`` is in ``whole``, counting repeats."""
    need = Counter(part)
    have = Counter(whole)
    return all(have[c] >= n for c, n in need.items())


def codes(cards: Iterable[int]) -> list[str]:
    return [CARD_CODE[c] for c in cards]
