"""A UNO Flip! or No Mercy game in a given position, checked before it is built.

As ``engine.position`` does for the classic game: tests, puzzles and bug reports name
the hands, the piles and who is to act; every card must be a card of the game's deck,
used once; the cards not named go under the draw pile (in an order from ``seed``).
``PositionError`` (``bad_position``) says what is wrong, and nothing is built.

Flip cards are named by a two-faced code (``R7|T+5``, that exact card: the pairing is
arranged so that the game's deck has it) or by one face (``BF``, ``O8``: any card
showing that face on that face's side; ``W`` on the side given).  Piles are listed
bottom first for the discard pile and top first for the draw pile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from unokit.cards import CardError
from unokit.engine.dealing import shuffle
from unokit.engine.family import new_game
from unokit.engine.modern.base import ModernGame
from unokit.engine.modern.flip import FlipGame
from unokit.engine.modern.nomercy import NoMercyGame
from unokit.engine.phases import P_ANSWER, P_PLAY, P_ROUND_OVER
from unokit.engine.position import PositionError
from unokit.modern_cards import (
    DARK,
    FACE_SIDE,
    LIGHT,
    parse_face,
    parse_pair,
)
from unokit.rules import RulesError, RuleSet


def modern_position(
    rules: RuleSet,
    hands: Sequence[Sequence[str]],
    discard: Sequence[str],
    draw: Sequence[str] = (),
    *,
    current: int = 0,
    color: str | None = None,
    side: int = LIGHT,
    direction: int = 1,
    dealer: int = -1,
    pending: Sequence[str] = (),
    live: Sequence[bool] | None = None,
    aside: Sequence[str] = (),
    seed: int = 0,
) -> ModernGame:
    """The game in this position, ``current`` to play (``P_PLAY``).

    ``pending`` (No Mercy): the draw cards of a stack against ``current``, which then
    answers (``P_ANSWER``); they are the top cards of ``discard``, named again here for
    the total.  ``live``: who is still in the hand; ``aside``: set-aside hands.
    """
    if not rules.modern:
        raise PositionError("modern_position builds UNO Flip! and No Mercy games; use position")
    n = len(hands)
    try:
        rules.check_players(n)
    except RulesError as e:
        raise PositionError(str(e)) from None
    if not discard:
        raise PositionError("a round in play needs a discard pile")
    if not 0 <= current < n:
        raise PositionError(f"there is no seat {current} to act")
    if direction not in (1, -1):
        raise PositionError("direction must be 1 or -1")
    g = new_game(rules, n, seed=seed, record=False, start=False)
    assert isinstance(g, ModernGame)
    try:
        if isinstance(g, FlipGame):
            if side not in (LIGHT, DARK):
                raise PositionError("side must be 0 (light) or 1 (dark)")
            g.side = side
            place = _flip_cards(g, [list(h) for h in hands], list(discard), list(draw), side)
        else:
            assert isinstance(g, NoMercyGame)
            place = _nm_cards(g, [list(h) for h in hands], list(discard), list(draw),
                              list(aside))  # fmt: skip
    except CardError as e:
        raise PositionError(str(e)) from None
    hands_ids, discard_ids, draw_ids, rest, aside_ids = place
    shuffle(g.round_rng, rest)
    g.hands = hands_ids
    g.discard = discard_ids
    g.pile = rest + draw_ids[::-1]
    g.round_index = 0
    g.dealer = dealer if dealer >= 0 else (current - 1) % n
    g.direction = direction
    g.current = current
    g.phase = P_PLAY
    if live is not None:
        if len(live) != n or not live[current]:
            raise PositionError("live needs one flag per seat, and the seat to act is live")
        g.live = list(live)
        g.n_live = sum(live)
    top_face = g._faces(discard_ids[-1:])[0]
    col = -1
    if color is not None:
        try:
            col = g.parse_color(color)
        except CardError as e:
            raise PositionError(str(e)) from None
    if isinstance(g, FlipGame):
        from unokit.modern_cards import FACE_COLOR, FACE_WILD

        if FACE_WILD[top_face]:
            if col < 0 or col // 4 != side:
                raise PositionError("a wild on top needs a colour of the side in force")
        elif col >= 0 and col != FACE_COLOR[top_face]:
            raise PositionError("the colour in force is the top card's colour")
        g.color = col if col >= 0 else FACE_COLOR[top_face]
    else:
        from unokit.modern_cards import NM_COLOR, NM_DRAW, NM_WILD

        if NM_WILD[top_face]:
            if col < 0:
                raise PositionError("a wild on top needs a colour")
        elif col >= 0 and col != NM_COLOR[top_face]:
            raise PositionError("the colour in force is the top card's colour")
        g.color = col if col >= 0 else NM_COLOR[top_face]
        assert isinstance(g, NoMercyGame)
        g.aside = aside_ids
        if pending:
            g.pend_total = sum(NM_DRAW[c] for c in g.cards_from_codes(pending, "pending"))
            g.pend_card = discard_ids[-1]
            if not NM_DRAW[g.pend_card] or g.pend_total == 0:
                raise PositionError("a pending stack needs a draw card on top")
            g.phase = P_ANSWER
    if g.phase >= P_ROUND_OVER:
        raise PositionError("a round in play")
    return g


def _flip_cards(
    g: FlipGame, hands: list[list[str]], discard: list[str], draw: list[str], side: int
) -> tuple[list[list[int]], list[int], list[int], list[int], list[int]]:
    pairs = [list(p) for p in g.pairs]
    used: set[int] = set()

    def take(code: str) -> int:
        if "|" in code:
            light, dark = parse_pair(code)
            p = next((i for i, q in enumerate(pairs) if i not in used and q[0] == light), -1)
            q = next(
                (i for i, x in enumerate(pairs) if i not in used and x[1] == dark and i != p), -1
            )
            if p < 0 or (q < 0 and pairs[p][1] != dark):
                raise CardError(f"{code}: no such card left in the deck")
            if pairs[p][1] != dark:
                pairs[p][1], pairs[q][1] = pairs[q][1], pairs[p][1]
            used.add(p)
            return p
        f = parse_face(code)
        s = FACE_SIDE[f] if FACE_SIDE[f] >= 0 else side
        p = next((i for i, q in enumerate(pairs) if i not in used and q[s] == f), -1)
        if p < 0:
            raise CardError(f"{code}: no such card left in the deck")
        used.add(p)
        return p

    hands_ids = [[take(c) for c in h] for h in hands]
    discard_ids = [take(c) for c in discard]
    draw_ids = [take(c) for c in draw]
    # keep the named cards' pids with their (possibly re-paired) faces
    g.pairs = [(a, b) for a, b in pairs]
    rest = [i for i in range(len(pairs)) if i not in used]
    return hands_ids, discard_ids, draw_ids, rest, []


def _nm_cards(
    g: NoMercyGame,
    hands: list[list[str]],
    discard: list[str],
    draw: list[str],
    aside: list[str],
) -> tuple[list[list[int]], list[int], list[int], list[int], list[int]]:
    left = Counter(g.full_deck())

    def take(codes: Sequence[str], where: str) -> list[int]:
        ids = g.cards_from_codes(codes, where)
        for code, c in zip(codes, ids, strict=True):
            if left[c] <= 0:
                raise CardError(f"{where}: no {code} left in the deck")
            left[c] -= 1
        return ids

    hands_ids = [take(h, f"hand {i}") for i, h in enumerate(hands)]
    discard_ids = take(discard, "discard")
    draw_ids = take(draw, "draw")
    aside_ids = take(aside, "aside")
    return hands_ids, discard_ids, draw_ids, sorted(left.elements()), aside_ids


__all__ = ["modern_position"]
