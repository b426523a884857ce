"""The greedy bot: a fixed ranking of the legal plays, no memory, no look-ahead.

Among the playable cards it prefers, in order: a non-wild over a wild (wilds last), a
card that matches the colour in force over one that matches only by number or symbol,
then the card worth the most points (action cards, then high numbers).  It names the
colour it holds most of, always calls and catches UNO, never challenges a Wild Draw
Four, and plays a playable card it has just drawn.  UNO Flip! and No Mercy are
played by the same ranking on their own cards (``bots/modern.py``).
"""

from __future__ import annotations

import random

from unokit.bots.base import BotBase
from unokit.bots.modern import MODERN_PLAY, greedy_modern
from unokit.cards import CARD_COLOR, IS_WILD, WILD_COLOR, card_points
from unokit.engine.actions import ACCEPT, CATCH, COLOR, DRAW, PLAY, UNO, Action
from unokit.engine.view import View

_POINTS = tuple(card_points(c) for c in range(len(CARD_COLOR)))


def colour_counts(hand: tuple[int, ...] | list[int]) -> list[int]:
    """How many cards of each colour ``hand`` holds (wilds not counted)."""
    counts = [0, 0, 0, 0]
    for c in hand:
        col = CARD_COLOR[c]
        if col != WILD_COLOR:
            counts[col] += 1
    return counts


class GreedyBot(BotBase):
    """Sheds the most valuable matching card; wilds last; never challenges."""

    games = frozenset({"classic", "flip", "no-mercy"})  # each with its own play (bots/modern.py)

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        if view.rules.game in MODERN_PLAY:  # UNO Flip!, No Mercy: bots/modern.py
            return greedy_modern(view, self.rng)
        legal = view.legal
        plays = [a for a in legal if a.kind == PLAY]
        if plays:
            return self._best_play(view, plays)
        colours = [a for a in legal if a.kind == COLOR]
        if colours:  # a Wild start card (a Wild Swap Hands one names a seat too)
            want = self._colour(view.hand, ())
            return max(colours, key=lambda a: (a.color == want, -self._size(view, a.target)))
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
    def _colour(self, hand: tuple[int, ...], played: tuple[int, ...]) -> int:
        rest = list(hand)
        for c in played:
            rest.remove(c)
        counts = colour_counts(rest)
        best = max(counts)
        ties = [c for c in range(4) if counts[c] == best]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    @staticmethod
    def _size(view: View, target: int) -> int:
        return view.hand_sizes[target] if target >= 0 else 0

    def _best_play(self, view: View, plays: list[Action]) -> Action:
        colour = view.color

        def key(a: Action) -> tuple[int, int, int, int]:
            top = a.extra[-1] if a.extra else a.card
            return (
                0 if IS_WILD[a.card] else 1,  # wilds last
                len(a.extra),  # more cards at once (multi-play)
                1 if CARD_COLOR[top] == colour else 0,  # colour before number
                _POINTS[a.card],  # action cards, then high numbers
            )

        best = max(plays, key=key)
        same = [a for a in plays if a.card == best.card and a.extra == best.extra]
        top = best.extra[-1] if best.extra else best.card
        wanted = self._colour(view.hand, (best.card, *best.extra)) if IS_WILD[top] else -1
        # the colour it holds most of, the seat with the fewest cards to swap with, UNO
        return max(same, key=lambda a: (a.color == wanted, -self._size(view, a.target), a.uno))
