"""Dealing: the first dealer, shuffles, the deal and the start card (R-SETUP-*, R-START-*)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from unokit.cards import (
    CARD_COLOR,
    CARD_RANK,
    DRAW2,
    IS_NUMBER,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW4,
    is_submultiset,
)
from unokit.engine.actions import Action
from unokit.engine.errors import IllegalAction, ShuffleError
from unokit.engine.events import Event
from unokit.engine.phases import P_GAME_OVER, P_PLAY, P_ROUND_OVER, P_START_COLOR

if TYPE_CHECKING:
    from unokit.engine.game import Game


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


def choose_dealer(game: Game) -> int:
    """R-SETUP-2: each draws a card; the highest number deals; ties and non-numbers redraw.

    The cards come from a fresh shuffled deck that goes back before the deal, so
    this only decides a seat.
    """
    deck = list(game._deck)
    contenders = list(range(game.n))
    while True:
        shuffle(game.rng, deck)
        it = iter(deck)
        draws: dict[int, int] = {}
        for seat in contenders:
            card = next(it)
            while not IS_NUMBER[card]:  # action and wild cards do not count
                card = next(it)
            draws[seat] = card
            game._emit(Event("dealer_draw", seat, (card,)))
        best = max(CARD_RANK[c] for c in draws.values())
        contenders = [s for s, c in draws.items() if CARD_RANK[c] == best]
        if len(contenders) == 1:
            return contenders[0]


def start_round(
    game: Game,
    dealer: int | None = None,
    deck: Sequence[int] | None = None,
    seed: int | None = None,
    shuffles: Iterable[Sequence[int]] | None = None,
    launches: Iterable[int] | None = None,
) -> None:
    """Deal a new round (R-SETUP-3) and turn the start card (R-SETUP-4).

    ``deck`` (top first, possibly only the top part), ``shuffles`` and ``launches``
    come from a record; without them the round's own RNG decides everything.
    """
    if game.phase == P_GAME_OVER:
        raise IllegalAction("the game is over", code="game_over")
    if game.phase != P_ROUND_OVER:
        raise IllegalAction("the round is not over yet", code="round_not_over")
    n = game.n
    live = game.live
    if dealer is None:
        dealer = game._clockwise(game.dealer) if game.dealer >= 0 else 0
    if not 0 <= dealer < n:
        raise IllegalAction(f"there is no seat {dealer} to deal", code="bad_seat")
    if not live[dealer]:
        raise IllegalAction(f"{game.names[dealer]} is out of the game", code="eliminated")
    if seed is None:
        seed = game.rng.getrandbits(48)
    rng = random.Random(seed)
    full = list(game._deck)
    if deck is None:
        order = full
        shuffle(rng, order)
    else:
        prefix = list(deck)
        if not is_submultiset(prefix, full):
            raise ShuffleError("the deck holds cards that the rule set's deck does not have")
        rest = Counter(full)
        rest.subtract(prefix)
        remaining = sorted(rest.elements())
        shuffle(rng, remaining)
        order = prefix + remaining
    game.round_rng = rng
    game._forced = [list(s) for s in shuffles] if shuffles is not None else []
    game._forced.reverse()  # pop() takes the next
    game._forced_launches = list(launches) if launches is not None else []
    game._forced_launches.reverse()
    if game.recording:
        game._log = RoundLog(dealer=dealer, deck=list(order), seed=seed)
        game.rounds.append(game._log)
    else:
        game._log = None
    game.round_index += 1
    game.dealer = dealer
    # R-SETUP-3, one card at a time from the dealer's left: the j-th seat in deal
    # order gets every k-th card from position j of the top-first order.
    if game.n_live == n:
        seats = [(dealer + j) % n for j in range(1, n + 1)]
    else:
        seats = [s for s in ((dealer + j) % n for j in range(1, n + 1)) if live[s]]
    k = len(seats)
    dealt = k * game.rules.deal_size
    hands: list[list[int]] = [[]] * n  # the eliminated keep an (unshared) empty hand
    for j, seat in enumerate(seats):
        hands[seat] = order[j:dealt:k]
    if k < n:
        for seat in range(n):
            if not live[seat]:
                hands[seat] = []
    game.hands = hands
    game.pile = pile = order[: dealt - 1 : -1]
    game.discard = []
    game.direction = 1
    game.drawn = -1
    game.vulnerable = -1
    game.round_winner = -1
    game.wd4_by = -1
    game.pend_card = -1
    game.pend_total = 0
    # classic effects can take the inline path in ``play`` (set per round: seats
    # are only eliminated between rounds)
    game._plain = not (game._stack or game._seven_zero) and game.n_live == n
    ev = game.events
    if ev is not None:
        ev.append(Event("round_start", dealer, amount=game.round_index))
        for seat in seats:
            ev.append(Event("deal", seat, tuple(hands[seat]), len(hands[seat]), only=seat))
            ev.append(Event("deal", seat, (), len(hands[seat]), hide=seat))
    number_start = game.rules.deck == "my-first-uno"  # R-START-NUMBER
    top = pile.pop()
    while top == WILD_DRAW4 or (number_start and not IS_NUMBER[top]):
        pile.append(top)  # R-START-WD4: back in the pile, reshuffle, turn again
        game._emit(Event("start_card", dealer, (top,)))
        game._emit(Event("start_return", dealer, (top,)))
        game._shuffle_pile(pile)
        top = pile.pop()
    game.discard.append(top)
    game._emit(Event("start_card", dealer, (top,)))
    first = seats[0]
    game.phase = P_PLAY
    rank = CARD_RANK[top]
    game.color = CARD_COLOR[top]
    if top >= WILD:  # R-START-WILD, -SWAP, -SHUF, -CUST
        game.color = -1
        game.current = first
        game.phase = P_START_COLOR
    elif rank == SKIP:  # R-START-SKIP
        if game._pass:
            game._hit(first, top, 0)
        else:
            game._emit(Event("skip", first))
            game.current = game._step(dealer, 2)
    elif rank == REVERSE:  # R-START-REVERSE
        game.direction = -1
        game._emit(Event("reverse", dealer))
        game.current = dealer
    elif rank == DRAW2:  # R-START-DRAW2
        if game._stack:
            game._hit(first, top, 2)
        else:
            game._draw(first, 2)
            game._emit(Event("skip", first))
            game.current = game._step(dealer, 2)
    else:
        game.current = first
