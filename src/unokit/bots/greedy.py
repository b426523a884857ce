"""The greedy bot: a fixed ranking of the legal plays, no memory, no look-ahead.

Among the playable cards it prefers, in order: a non-wild over a wild (wilds last), a
card that matches the colour in force over one that matches only by number or symbol,
then the card worth the most points (action cards, then high numbers).  It names the
colour it holds most of, always calls and catches UNO, never challenges a Wild Draw
Four, and plays a playable card it has just drawn.
"""

from __future__ import annotations

import random

from unokit.cards import CARD_COLOR, IS_WILD, WILD_COLOR, card_points
from unokit.engine.actions import ACCEPT, CATCH, COLOR, DRAW, PLAY, UNO, Action
from unokit.engine.view import View

_POINTS = tuple(card_points(c) for c in range(len(CARD_COLOR)))


def colour_counts(hand: tuple[int, ...] | list[int], skip: int = -1) -> list[int]:
    """How many cards of each colour ``hand`` holds, leaving out one copy of ``skip``."""
    counts = [0, 0, 0, 0]
    skipped = False
    for c in hand:
        if c == skip and not skipped:
            skipped = True
            continue
        col = CARD_COLOR[c]
        if col != WILD_COLOR:
            counts[col] += 1
    return counts


class GreedyBot:
    """Sheds the most valuable matching card; wilds last; never challenges."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        legal = view.legal
        plays = [a for a in legal if a.kind == PLAY]
        if plays:
            return self._best_play(view, plays)
        colours = [a for a in legal if a.kind == COLOR]
        if colours:
            want = self._colour(view.hand, -1)
            return next((a for a in colours if a.color == want), colours[0])
        for kind in (ACCEPT, DRAW):  # never challenge; draw when nothing fits
            for a in legal:
                if a.kind == kind:
                    return a
        turn = [a for a in legal if a.kind not in (CATCH, UNO)]
        return (turn or list(legal))[0]

    def react(self, view: View) -> Action | None:
        for a in view.legal:
            if a.kind in (CATCH, UNO):
                return a
        return None

    # ------------------------------------------------------------------ helpers ----
    def _colour(self, hand: tuple[int, ...], played: int) -> int:
        counts = colour_counts(hand, played)
        best = max(counts)
        ties = [c for c in range(4) if counts[c] == best]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    def _best_play(self, view: View, plays: list[Action]) -> Action:
        colour = view.color

        def key(a: Action) -> tuple[int, int, int]:
            card = a.card
            return (
                0 if IS_WILD[card] else 1,
                1 if CARD_COLOR[card] == colour else 0,
                _POINTS[card],
            )

        best = max(plays, key=key)
        card = best.card
        uno = any(a.uno for a in plays if a.card == card)
        wanted = self._colour(view.hand, card) if IS_WILD[card] else -1
        for a in plays:
            if a.card == card and a.color == wanted and a.uno == uno:
                return a
        return best  # unreachable: every colour of a legal wild is offered
