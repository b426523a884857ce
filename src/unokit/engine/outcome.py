"""How a round and a game stand, as a small frozen value instead of ``-1`` markers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """``round_winner``/``game_winner`` are None until there is one.

    Under team scoring (R-SCORE-TEAM) ``game_winner`` is a team (0 or 1), and
    ``winning_seats`` lists its seats.
    """

    round_over: bool
    round_winner: int | None
    game_over: bool
    game_winner: int | None
    winning_seats: tuple[int, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round_over": self.round_over,
            "round_winner": self.round_winner,
            "game_over": self.game_over,
            "game_winner": self.game_winner,
            "winning_seats": list(self.winning_seats),
            "scores": list(self.scores),
        }
