"""Events as a protocol: a kind from one enum and named fields, in a JSON form.

Inside the engine an ``Event`` is a small tuple whose ``seat``/``cards``/``amount``/
``color``/``target`` slots mean different things for different kinds (that keeps the
hot path cheap).  Nothing outside should read those slots by position: consumers
switch on ``EventKind`` and read the named fields of ``event_json``, which this module
defines once for every kind.  docs/protocol.md has the same table, and a test checks
that every kind the engine emits is here and in the docs.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, NamedTuple, TypeAlias

from unokit.cards import CARD_CODE, COLOR_CODES


class Event(NamedTuple):
    """Something that happened.  ``only``/``hide`` say who may see it (-1: nobody special).

    A private fact comes as a pair: the full event for ``only=seat`` and a redacted one
    (cards removed) with ``hide=seat`` for everybody else.  Read it through ``data``
    (a typed record per kind, with named fields) or ``to_json``; the slots below are
    the engine's compact storage, whose meaning depends on the kind.
    """

    kind: EventKind
    seat: int
    cards: tuple[int, ...] = ()
    amount: int = 0
    color: int = -1
    target: int = -1
    only: int = -1
    hide: int = -1

    def visible_to(self, seat: int | None) -> bool:
        """``None``: a spectator, who sees every public event and every redacted copy."""
        if seat is None:
            return self.only < 0
        return (self.only < 0 or self.only == seat) and self.hide != seat

    def to_json(self) -> dict[str, Any]:
        """The wire form (docs/protocol.md): the kind and its named fields."""
        return event_json(self)

    @property
    def data(self) -> EventData:
        """The event as its kind's typed record (``Play``, ``Catch``...): match on it."""
        cls, slots = _TYPED[self.kind]
        return cls(*[conv(self[i]) for i, conv in slots])


class EventKind(StrEnum):
    DEALER_DRAW = "dealer_draw"
    ROUND_START = "round_start"
    DEAL = "deal"
    START_CARD = "start_card"
    START_RETURN = "start_return"
    RESHUFFLE = "reshuffle"
    PLAY = "play"
    DRAW = "draw"
    KEEP = "keep"
    COLOR = "color"
    UNO = "uno"
    FALSE_UNO = "false_uno"
    CATCH = "catch"
    CHALLENGE = "challenge"
    REVEAL = "reveal"
    RETRACT = "retract"
    SKIP = "skip"
    REVERSE = "reverse"
    HIT = "hit"
    HAND = "hand"
    SWAP = "swap"
    ROTATE = "rotate"
    SHUFFLE_HANDS = "shuffle_hands"
    DISCARD = "discard"
    LAUNCH = "launch"
    ROUND_OVER = "round_over"
    ELIMINATED = "eliminated"
    GAME_OVER = "game_over"
    FLIP = "flip"
    KNOCKOUT = "knockout"


def _seat(v: int) -> int | None:
    return v if v >= 0 else None


def _color(v: int) -> str | None:
    return COLOR_CODES[v] if 0 <= v < 4 else None


def _cards(v: tuple[int, ...]) -> list[str]:
    return [CARD_CODE[c] for c in v]


def _card(v: tuple[int, ...]) -> str | None:
    return CARD_CODE[v[0]] if v else None


def _int(v: int) -> int:
    return v


def _bool(v: int) -> bool:
    return bool(v)


_Conv = Callable[[Any], Any]

# kind -> [(json field, Event slot, converter, meaning)].  The meaning column is what
# docs/protocol.md prints; ``cards`` fields are present only when the receiver may see
# them (a redacted copy has none: the field is then omitted, the count stays).
FIELDS: dict[EventKind, list[tuple[str, str, _Conv, str]]] = {
    EventKind.DEALER_DRAW: [
        ("seat", "seat", _int, "who drew to choose the dealer"),
        ("card", "cards", _card, "the card drawn (public)"),
    ],
    EventKind.ROUND_START: [
        ("dealer", "seat", _int, "the dealer"),
        ("round", "amount", _int, "round index, 0-based"),
    ],
    EventKind.DEAL: [
        ("seat", "seat", _int, "who was dealt"),
        ("count", "amount", _int, "how many cards"),
        ("cards", "cards", _cards, "the cards (only to that seat)"),
    ],
    EventKind.START_CARD: [
        ("dealer", "seat", _int, "the dealer"),
        ("card", "cards", _card, "the start card turned up"),
    ],
    EventKind.START_RETURN: [
        ("dealer", "seat", _int, "the dealer"),
        ("card", "cards", _card, "the start card put back (R-START-WD4)"),
    ],
    EventKind.RESHUFFLE: [
        ("pile", "amount", _int, "cards in the draw pile after the shuffle"),
    ],
    EventKind.PLAY: [
        ("seat", "seat", _int, "who played"),
        ("cards", "cards", _cards, "the cards played, the last one on top"),
        ("color", "color", _color, "the colour in force after the play"),
        ("target", "target", _seat, "the seat named (Swap Hands, a seven-zero 7), or null"),
    ],
    EventKind.DRAW: [
        ("seat", "seat", _int, "who drew"),
        ("count", "amount", _int, "how many cards"),
        ("cards", "cards", _cards, "the cards (only to that seat)"),
    ],
    EventKind.KEEP: [("seat", "seat", _int, "who kept the drawn card")],
    EventKind.COLOR: [
        ("seat", "seat", _int, "who named the start card's colour"),
        ("color", "color", _color, "the colour named"),
        ("target", "target", _seat, "the seat swapped with (Swap Hands start), or null"),
    ],
    EventKind.UNO: [("seat", "seat", _int, "who called UNO")],
    EventKind.FALSE_UNO: [
        ("seat", "seat", _int, "who called UNO without one card"),
        ("penalty", "amount", _int, "cards drawn for it"),
    ],
    EventKind.CATCH: [
        ("seat", "seat", _int, "who caught"),
        ("caught", "target", _int, "who was caught"),
        ("penalty", "amount", _int, "cards the caught seat draws"),
    ],
    EventKind.CHALLENGE: [
        ("seat", "seat", _int, "who challenged"),
        ("challenged", "target", _int, "who played the Wild Draw Four"),
        ("guilty", "amount", _bool, "whether the play was illegal"),
    ],
    EventKind.REVEAL: [
        ("seat", "seat", _int, "whose hand is shown"),
        ("count", "amount", _int, "how many cards"),
        ("cards", "cards", _cards, "the hand (only to the challenger)"),
    ],
    EventKind.RETRACT: [
        ("seat", "seat", _int, "who takes the Wild Draw Four back"),
        ("card", "cards", _card, "the card taken back"),
        ("color", "color", _color, "the colour in force again"),
    ],
    EventKind.SKIP: [("seat", "seat", _int, "who loses a turn")],
    EventKind.REVERSE: [("seat", "seat", _int, "who reversed the direction")],
    EventKind.HIT: [
        ("seat", "seat", _int, "who must answer or accept (stacking)"),
        ("card", "cards", _card, "the card to answer"),
        ("total", "amount", _int, "cards drawn on accepting"),
    ],
    EventKind.HAND: [
        ("seat", "seat", _int, "whose hand changed as a whole (swap, rotate, shuffle)"),
        ("count", "amount", _int, "its size now"),
        ("cards", "cards", _cards, "the new hand (only to that seat)"),
    ],
    EventKind.SWAP: [
        ("seat", "seat", _int, "who swapped"),
        ("with", "target", _int, "the seat swapped with"),
    ],
    EventKind.ROTATE: [("direction", "amount", _int, "hands pass this way: 1 or -1")],
    EventKind.SHUFFLE_HANDS: [("seat", "seat", _int, "who played Wild Shuffle Hands")],
    EventKind.DISCARD: [
        ("seat", "seat", _int, "whose cards go to the discard pile (Customizable)"),
        ("count", "amount", _int, "how many"),
        ("cards", "cards", _cards, "the cards (public)"),
    ],
    EventKind.LAUNCH: [
        ("seat", "seat", _int, "who pressed the launcher"),
        ("fired", "amount", _int, "cards it fired"),
        ("presses", "target", _int, "how many presses"),
    ],
    EventKind.ROUND_OVER: [
        ("winner", "seat", _int, "who went out"),
        ("points", "amount", _int, "points scored (0 where the winner scores none)"),
    ],
    EventKind.ELIMINATED: [
        ("seat", "seat", _int, "who is out of the game (R-SCORE-ELIM)"),
        ("score", "amount", _int, "their score"),
    ],
    EventKind.FLIP: [
        ("seat", "seat", _int, "who played the Flip card (UNO Flip!, FLIP-FLIP-1)"),
        ("side", "amount", _int, "the side now in force: 0 light, 1 dark"),
        ("card", "cards", _card, "the new top face of the discard pile"),
    ],
    EventKind.KNOCKOUT: [
        ("seat", "seat", _int, "who is out of this hand (No Mercy, NM-MERCY-1)"),
        ("count", "amount", _int, "the cards of the hand set aside"),
    ],
    EventKind.GAME_OVER: [
        ("winner", "seat", _int, "the winning seat (or team)"),
        ("score", "amount", _int, "the winner's score"),
    ],
}


def event_json(event: Event) -> dict[str, Any]:
    """``{"kind": ..., <named fields>}``; card lists only when the receiver may see them."""
    kind = EventKind(event.kind)
    out: dict[str, Any] = {"kind": kind.value}
    for name, slot, conv, _ in FIELDS[kind]:
        value = getattr(event, slot)
        if slot == "cards" and conv is _cards and not value:
            continue  # redacted: the count says how many
        out[name] = conv(value)
    return out


# ---------------------------------------------------------------- typed records ----
# One record per kind, its fields named as in the wire form (but ``with`` is ``other``,
# a Python keyword, and ``count`` is ``n``, a tuple's method); cards are card ids, an
# absent card, colour or seat is -1, and a redacted card list is empty.  Consumers
# match on them:
#     match event.data:
#         case Catch(seat=catcher, caught=victim, penalty=k): ...


class DealerDraw(NamedTuple):
    seat: int
    card: int


class RoundStart(NamedTuple):
    dealer: int
    round: int


class Deal(NamedTuple):
    seat: int
    n: int
    cards: tuple[int, ...]


class StartCard(NamedTuple):
    dealer: int
    card: int


class StartReturn(NamedTuple):
    dealer: int
    card: int


class Reshuffle(NamedTuple):
    pile: int


class Play(NamedTuple):
    seat: int
    cards: tuple[int, ...]
    color: int
    target: int


class Draw(NamedTuple):
    seat: int
    n: int
    cards: tuple[int, ...]


class Keep(NamedTuple):
    seat: int


class Color(NamedTuple):
    seat: int
    color: int
    target: int


class Uno(NamedTuple):
    seat: int


class FalseUno(NamedTuple):
    seat: int
    penalty: int


class Catch(NamedTuple):
    seat: int
    caught: int
    penalty: int


class Challenge(NamedTuple):
    seat: int
    challenged: int
    guilty: bool


class Reveal(NamedTuple):
    seat: int
    n: int
    cards: tuple[int, ...]


class Retract(NamedTuple):
    seat: int
    card: int
    color: int


class Skip(NamedTuple):
    seat: int


class Reverse(NamedTuple):
    seat: int


class Hit(NamedTuple):
    seat: int
    card: int
    total: int


class Hand(NamedTuple):
    seat: int
    n: int
    cards: tuple[int, ...]


class Swap(NamedTuple):
    seat: int
    other: int


class Rotate(NamedTuple):
    direction: int


class ShuffleHands(NamedTuple):
    seat: int


class Discard(NamedTuple):
    seat: int
    n: int
    cards: tuple[int, ...]


class Launch(NamedTuple):
    seat: int
    fired: int
    presses: int


class RoundOver(NamedTuple):
    winner: int
    points: int


class Eliminated(NamedTuple):
    seat: int
    score: int


class Flip(NamedTuple):
    seat: int
    side: int
    card: str | None


class Knockout(NamedTuple):
    seat: int
    n: int


class GameOver(NamedTuple):
    winner: int
    score: int


EventData: TypeAlias = (
    DealerDraw | RoundStart | Deal | StartCard | StartReturn | Reshuffle | Play | Draw
    | Keep | Color | Uno | FalseUno | Catch | Challenge | Reveal | Retract | Skip
    | Reverse | Hit | Hand | Swap | Rotate | ShuffleHands | Discard | Launch | RoundOver
    | Eliminated | GameOver | Flip | Knockout
)  # fmt: skip

RECORDS: dict[EventKind, type[EventData]] = {
    EventKind.DEALER_DRAW: DealerDraw, EventKind.ROUND_START: RoundStart,
    EventKind.DEAL: Deal, EventKind.START_CARD: StartCard,
    EventKind.START_RETURN: StartReturn, EventKind.RESHUFFLE: Reshuffle,
    EventKind.PLAY: Play, EventKind.DRAW: Draw, EventKind.KEEP: Keep,
    EventKind.COLOR: Color, EventKind.UNO: Uno, EventKind.FALSE_UNO: FalseUno,
    EventKind.CATCH: Catch, EventKind.CHALLENGE: Challenge, EventKind.REVEAL: Reveal,
    EventKind.RETRACT: Retract, EventKind.SKIP: Skip, EventKind.REVERSE: Reverse,
    EventKind.HIT: Hit, EventKind.HAND: Hand, EventKind.SWAP: Swap,
    EventKind.ROTATE: Rotate, EventKind.SHUFFLE_HANDS: ShuffleHands,
    EventKind.DISCARD: Discard, EventKind.LAUNCH: Launch,
    EventKind.ROUND_OVER: RoundOver, EventKind.ELIMINATED: Eliminated,
    EventKind.GAME_OVER: GameOver, EventKind.FLIP: Flip, EventKind.KNOCKOUT: Knockout,
}  # fmt: skip

_SLOT = {name: i for i, name in enumerate(Event._fields)}


def _first(v: tuple[int, ...]) -> int:
    return v[0] if v else -1


def _same(v: Any) -> Any:
    return v


def _typed_slots(kind: EventKind) -> list[tuple[int, Callable[[Any], Any]]]:
    """Where each field of ``kind``'s record lives in an ``Event`` (from ``FIELDS``)."""
    out: list[tuple[int, Callable[[Any], Any]]] = []
    for _, slot, conv, _ in FIELDS[kind]:
        if conv is _card:
            out.append((_SLOT[slot], _first))
        elif conv is _bool:
            out.append((_SLOT[slot], bool))
        else:
            out.append((_SLOT[slot], _same))
    return out


_TYPED: dict[str, tuple[type[EventData], list[tuple[int, Callable[[Any], Any]]]]] = {
    kind: (RECORDS[kind], _typed_slots(kind)) for kind in EventKind
}
