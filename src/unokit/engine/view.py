"""What one seat may know: the only way state leaves the engine for players and bots.

A view holds the seat's own hand, everyone's hand size, the public piles, the colour
and direction, scores, and the seat's legal actions.  It never holds another hand, the
draw pile's order or the RNG; cards the rules reveal to a seat (a challenged hand) come
to it as events.  Bots receive views, never a ``Game``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unokit.cards import CARD_CODE, COLOR_CODES
from unokit.engine.actions import Action
from unokit.engine.errors import IllegalAction
from unokit.engine.family import Game
from unokit.engine.phases import P_ROUND_OVER, PHASE_NAMES
from unokit.engine.scoring import team_of
from unokit.errors import UnoError
from unokit.rules import RuleSet

PROTOCOL_VERSION = 1  # rises when a field of the wire form changes meaning or goes away


@dataclass(frozen=True, slots=True)
class View:
    seat: int  # -1: a spectator's public view (no hand, no legal actions)
    names: tuple[str, ...]
    rules: RuleSet
    hand: tuple[int, ...]  # own cards, sorted
    hand_sizes: tuple[int, ...]
    discard: tuple[int, ...]  # bottom first; every card in it is public
    draw_pile: int  # how many cards, never which
    color: int  # colour in force, -1 before a Wild start card's colour is named
    direction: int
    current: int
    phase: int
    dealer: int
    round_index: int
    scores: tuple[int, ...]
    vulnerable: int  # a seat with one card that may be caught, or -1
    drawn: int  # the card this seat just drew, if it may play it; else -1
    wd4_by: int  # who played the Wild Draw Four being answered, or -1
    prev_color: int  # the colour in force before that Wild Draw Four (public), or -1
    pending: int  # stacking: the card the current seat must answer, or -1
    pending_total: int  # cards the current seat draws on accepting (stacking, challenge)
    live: tuple[bool, ...]  # False for seats eliminated (R-SCORE-ELIM)
    round_winner: int
    game_winner: int
    legal: tuple[Action, ...]

    @property
    def top(self) -> int:
        return self.discard[-1] if self.discard else -1

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat and self.phase < P_ROUND_OVER

    @property
    def round_over(self) -> bool:
        return self.phase >= P_ROUND_OVER

    @property
    def spectator(self) -> bool:
        return self.seat < 0

    def team_of(self, seat: int) -> int:
        """The team ``seat`` plays for under team scoring (R-SCORE-TEAM)."""
        return team_of(seat)

    def to_json(self) -> dict[str, Any]:
        """What a client receives (docs/protocol.md, "The view"): codes, not ids.

        ``legal`` holds action objects a client can send back unchanged.  A spectator's
        view has ``seat`` and ``hand`` null and no legal actions.
        """
        spectator = self.seat < 0
        return {
            "protocol": PROTOCOL_VERSION,
            "seat": None if spectator else self.seat,
            "names": list(self.names),
            "hand": None if spectator else [CARD_CODE[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "top": CARD_CODE[self.top] if self.discard else None,
            "discard": [CARD_CODE[c] for c in self.discard],
            "draw_pile": self.draw_pile,
            "color": COLOR_CODES[self.color] if self.color >= 0 else None,
            "direction": self.direction,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "dealer": self.dealer,
            "round": self.round_index,
            "scores": list(self.scores),
            "vulnerable": self.vulnerable if self.vulnerable >= 0 else None,
            "drawn": CARD_CODE[self.drawn] if self.drawn >= 0 else None,
            "wd4_by": self.wd4_by if self.wd4_by >= 0 else None,
            "prev_color": COLOR_CODES[self.prev_color] if self.prev_color >= 0 else None,
            "pending": CARD_CODE[self.pending] if self.pending >= 0 else None,
            "pending_total": self.pending_total,
            "live": list(self.live),
            "round_winner": self.round_winner if self.round_winner >= 0 else None,
            "game_winner": self.game_winner if self.game_winner >= 0 else None,
            "legal": [a.to_wire() for a in self.legal],
        }


def check_seat(game: Game, seat: int | None) -> None:
    """Refuse anything that is not a seat of this game (``None``: a spectator).

    A negative number must never reach a list index: ``hands[-1]`` is the last seat's
    hand.
    """
    if seat is None:
        return
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise UnoError(f"there is no seat {seat!r} at this table", code="bad_seat")


def view_of(game: Game, seat: int | None) -> View:
    """The view of ``seat``; ``None`` for the public view a spectator gets.

    Everything here is public or ``seat``'s own.  UnoError ``bad_seat`` for a number
    that is not a seat.  Each game builds its own (``Game.view``).
    """
    check_seat(game, seat)
    got: View = game.view(seat)
    return got


def shown_hands(game: Game) -> list[tuple[int, ...]]:
    """Every hand once the round is over, in hand order: they are laid down to be counted
    (R-SCORE-1), so every seat and spectator may see them; ``IllegalAction`` before.

    Front ends show the end of a round from this, never from the game's own lists.
    """
    if game.phase < P_ROUND_OVER:
        raise IllegalAction("hands are shown only when the round is over", code="not_now")
    return [game.shown_faces(h) for h in game.hands]  # a Flip hand holds two-faced cards
