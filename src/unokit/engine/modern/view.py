"""What one seat may see of a UNO Flip! or No Mercy game (FLIP-VIEW-*, Part B).

The view is a ``View`` (so everything typed on views takes it) whose card fields hold
*faces* of the game's own table (``modern_cards.py``), plus what the modern
games add.  In Flip it follows how the cards are held (FLIP-VIEW-1..3): a seat sees
the active faces of its own cards and never their other faces; the inactive faces of
every opponent's cards, in hand order; the inactive face of the draw pile's top card;
and of the discard pile only the top card's active face (the cards under it were
public when played, but their other faces are not shown).  Nothing here depends on a
card a seat may not see: the no-leak tests deal those again and compare views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unokit.engine.family import find_game
from unokit.engine.modern.base import ModernGame
from unokit.engine.phases import P_CHALLENGE, PHASE_NAMES
from unokit.engine.view import PROTOCOL_VERSION, View
from unokit.modern_cards import (
    FACE_CODE,
    FLIP_COLOR_CODES,
    NM_CODE,
    NM_COLOR_CODES,
    SIDE_NAMES,
)


@dataclass(frozen=True, slots=True)
class ModernView(View):
    """A seat's view of a modern game; card fields are faces of ``game``'s table.

    ``discard`` holds what the seat may see of the discard pile (Flip: its top face
    only; No Mercy: every card, all public), ``discard_size`` how many cards it has.
    """

    game: str = ""  # "flip" or "no-mercy"
    side: int = -1  # Flip: 0 light, 1 dark; -1 in No Mercy
    others: tuple[tuple[int, ...], ...] = ()  # Flip: each opponent's inactive faces
    pile_top: int = -1  # Flip: the inactive face of the draw pile's top card, or -1
    discard_size: int = 0
    aside: int = 0  # No Mercy: cards of knocked-out hands set aside

    def code(self, face: int) -> str:
        return (FACE_CODE if self.game == "flip" else NM_CODE)[face]

    def color_code(self, color: int) -> str:
        return (FLIP_COLOR_CODES if self.game == "flip" else NM_COLOR_CODES)[color]

    def to_json(self) -> dict[str, Any]:
        """The wire form: as ``View.to_json`` with this game's codes, and its own fields."""
        code, spectator = self.code, self.seat < 0
        act = find_game(self.game).codec()
        return {
            "protocol": PROTOCOL_VERSION,
            "game": self.game,
            "seat": None if spectator else self.seat,
            "names": list(self.names),
            "hand": None if spectator else [code(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "side": SIDE_NAMES[self.side] if self.side >= 0 else None,
            "others": [[code(c) for c in h] for h in self.others],
            "pile_top": code(self.pile_top) if self.pile_top >= 0 else None,
            "top": code(self.top) if self.discard else None,
            "discard": [code(c) for c in self.discard],
            "discard_size": self.discard_size,
            "draw_pile": self.draw_pile,
            "aside": self.aside,
            "color": self.color_code(self.color) if self.color >= 0 else None,
            "direction": self.direction,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "dealer": self.dealer,
            "round": self.round_index,
            "scores": list(self.scores),
            "vulnerable": self.vulnerable if self.vulnerable >= 0 else None,
            "drawn": code(self.drawn) if self.drawn >= 0 else None,
            "wd4_by": self.wd4_by if self.wd4_by >= 0 else None,
            "pending": code(self.pending) if self.pending >= 0 else None,
            "pending_total": self.pending_total,
            "live": list(self.live),
            "round_winner": self.round_winner if self.round_winner >= 0 else None,
            "game_winner": self.game_winner if self.game_winner >= 0 else None,
            "legal": [
                {k: v for k, v in act.action_json(a, 0).items() if k != "seat"} for a in self.legal
            ],
        }


def common_fields(game: ModernGame, seat: int | None) -> dict[str, Any]:
    mine = seat is not None and game.current == seat
    ph = game.phase
    return {
        "seat": seat if seat is not None else -1,
        "names": tuple(game.names),
        "rules": game.rules,
        "hand_sizes": tuple(len(h) for h in game.hands),
        "draw_pile": len(game.pile),
        "color": game.color,
        "direction": game.direction,
        "current": game.current,
        "phase": ph,
        "dealer": game.dealer,
        "round_index": game.round_index,
        "scores": tuple(game.scores),
        "vulnerable": game.vulnerable,
        "wd4_by": game.wd4_by if ph == P_CHALLENGE else -1,
        "prev_color": -1,
        "live": tuple(game.live),
        "round_winner": game.round_winner,
        "game_winner": game.game_winner,
        "legal": tuple(game.legal_actions(seat)) if seat is not None else (),
        "discard_size": len(game.discard),
        "game": game.DECK,
        "mine": mine,
    }


__all__ = ["ModernView", "common_fields"]
