"""Dealing: the first dealer's draw, shuffles, the deck's order and the deal (R-SETUP-*).

These are pure functions of an RNG and plain lists, so they stand alone: nothing here
knows ``Game``, and ``Game`` imports this module, never the other way round.  Starting
a round (resetting the state, the record's log, the events, turning the start card
with its effects, R-START-*) changes the game's state, so it stays with the other
transitions in ``game.py`` and calls these for the parts that need no state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from unokit.cards import CARD_RANK, IS_NUMBER, is_submultiset
from unokit.engine.actions import Action
from unokit.engine.errors import ShuffleError


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle in place, uniformly, fast: sort by 64-bit random keys made in one C call.

    ``random.shuffle`` costs a Python-level call per card, which made dealing the most
    expensive step of a simulated round.  Ties between keys are astronomically rare and
    broken by the stable sort, so the order stays a pure function of the RNG.
    """
    m = len(cards)
    if m < 2:
        return
    keys = memoryview(rng.randbytes(8 * m)).cast("Q")
    order = sorted(range(m), key=keys.__getitem__)
    cards[:] = [cards[i] for i in order]


@dataclass
class RoundLog:
    """What a record needs to replay one round exactly (RECORD.md)."""

    dealer: int
    deck: list[int]  # top of the draw pile before dealing first
    seed: int
    shuffles: list[list[int]] = field(default_factory=list)  # each top first
    launches: list[int] = field(default_factory=list)
    actions: list[tuple[int, Action]] = field(default_factory=list)


def choose_dealer(
    rng: random.Random, deck: Sequence[int], n: int
) -> tuple[int, list[tuple[int, int]]]:
    """R-SETUP-2: each draws a card; the highest number deals; ties and non-numbers redraw.

    The cards come from a fresh copy of ``deck``, shuffled with ``rng``, that goes back
    before the deal, so this only decides a seat.  Returns the dealer and every draw
    as ``(seat, card)`` in the order made, for the game to announce.
    """
    deck = list(deck)
    contenders = list(range(n))
    made: list[tuple[int, int]] = []
    while True:
        shuffle(rng, deck)
        it = iter(deck)
        draws: dict[int, int] = {}
        for seat in contenders:
            card = next(it)
            while not IS_NUMBER[card]:  # action and wild cards do not count
                card = next(it)
            draws[seat] = card
            made.append((seat, card))
        best = max(CARD_RANK[c] for c in draws.values())
        contenders = [s for s, c in draws.items() if CARD_RANK[c] == best]
        if len(contenders) == 1:
            return contenders[0], made


def deck_order(rng: random.Random, full: Sequence[int], top: Sequence[int] | None) -> list[int]:
    """The round's deck, top first: ``full`` shuffled, or ``top`` then the rest shuffled.

    ``top`` (from a record, possibly only the top part of the deck) must be cards that
    ``full`` holds (ShuffleError); the rest follow in a shuffled canonical order, so
    the same RNG gives the same deck.
    """
    if top is None:
        order = list(full)
        shuffle(rng, order)
        return order
    prefix = list(top)
    if not is_submultiset(prefix, full):
        raise ShuffleError("the deck holds cards that the rule set's deck does not have")
    rest = Counter(full)
    rest.subtract(prefix)
    remaining = sorted(rest.elements())
    shuffle(rng, remaining)
    return prefix + remaining


def deal(
    order: list[int], dealer: int, live: Sequence[bool], size: int
) -> tuple[list[int], list[list[int]], list[int]]:
    """R-SETUP-3: ``size`` cards each, one at a time from the dealer's left.

    Returns the seats in deal order (the live ones), every seat's hand (the eliminated
    get an empty one) and the draw pile (top at the end).
    """
    n = len(live)
    # the j-th seat in deal order gets every k-th card from position j of ``order``
    seats = [(dealer + j) % n for j in range(1, n + 1)]
    k = n
    if not all(live):
        seats = [s for s in seats if live[s]]
        k = len(seats)
    dealt = k * size
    hands: list[list[int]] = [[]] * n  # replaced below: no two seats share a list
    for j, seat in enumerate(seats):
        hands[seat] = order[j:dealt:k]
    if k < n:
        for seat in range(n):
            if not live[seat]:
                hands[seat] = []
    return seats, hands, order[: dealt - 1 : -1]
