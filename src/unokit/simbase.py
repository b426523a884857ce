"""What every simulated game shares, below the simulator and its compiled engine.

The reference simulator (``unokit.sim``) and the compiled engine (``unokit.compiled``)
play the same fast players, seed game ``i`` of a run the same way, stop a round at the
same decision cap and count into the same ``Tally``; the bots' compiled search sits on
the compiled engine too.  Keeping these here lets the compiled engine sit below both
the bots and the simulator, importing neither.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from unokit.cards import CARD_RANK, NUM_CARDS
from unokit.stats import Hist


class SimError(ValueError):
    """A simulation that cannot run as asked: a bad seat list, a bad count, no Ray."""


# Players on the engine's trusted fast path (no views): name -> what they do.
FAST_PLAYERS: dict[str, str] = {
    "random": (
        "uniformly random playable card (each card in hand counts), else draw and play the "
        "drawn card if playable; random colours and targets; always calls UNO, catches "
        "a missed call, challenges a Wild Draw Four half of the time"
    ),
    "careless": ("like random, but forgets to call UNO half of the time (so UNO catches happen)"),
    "reference": (
        "the published-numbers player: like random, but never challenges and never "
        "catches (pair it with wd4_bluffing=false and uno_penalty=0)"
    ),
}


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index``: a hash of (seed, index), the same on every machine."""
    digest = hashlib.blake2b(f"unokit-sim:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


CARD_TYPES = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw2",
    "wild", "wild_draw4", "wild_swap", "wild_shuffle", "wild_custom",
)  # fmt: skip
N_TYPES = len(CARD_TYPES)  # a card's type is its CARD_RANK
MAX_DECISIONS = 200_000  # per round; past it the game is left out and counted (stalled)


@dataclass
class Tally:
    """Integer counts over a set of games; ``merge`` adds another tally's counts."""

    players: int
    games: int = 0
    rounds: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_position: list[int] = field(default_factory=list)  # index: seats after dealer
    turns: Hist = field(default_factory=Hist)  # per game
    rounds_per_game: Hist = field(default_factory=Hist)
    round_turns: Hist = field(default_factory=Hist)  # per round
    round_points: Hist = field(default_factory=Hist)  # per round: points in other hands
    plays_by_card: list[int] = field(default_factory=list)  # by card id
    type_sq: list[int] = field(default_factory=list)  # Σ over games of (plays of type)²
    draw_turns: int = 0
    reshuffles: Hist = field(default_factory=Hist)  # per game
    challenges: Hist = field(default_factory=Hist)  # per game
    challenges_won: int = 0  # by the challenger: the Wild Draw Four was guilty
    catches: Hist = field(default_factory=Hist)  # per game
    stalled: int = 0  # games left out: a round had no winner after MAX_DECISIONS
    # the modern games (sim/modern.py): No Mercy's knock-outs per game, hands won because
    # every other player was knocked out (NM-END-3), UNO Flip!'s flips per game
    knockouts: Hist = field(default_factory=Hist)
    mercy_rounds: int = 0
    flips: Hist = field(default_factory=Hist)

    def __post_init__(self) -> None:
        n = self.players
        self.wins_by_seat = self.wins_by_seat or [0] * n
        self.wins_by_position = self.wins_by_position or [0] * n
        self.plays_by_card = self.plays_by_card or [0] * NUM_CARDS
        self.type_sq = self.type_sq or [0] * N_TYPES

    def add_game(
        self,
        winner: int,
        position: int,
        turns: int,
        rounds: int,
        reshuffles: int,
        counts: Sequence[int],
    ) -> None:
        """One finished game (both engines' drivers): ``position`` is the winner's seat
        counted from the first dealer, ``counts`` the driver's per-game counters (index 1
        draw turns, 2 challenges, 3 challenges won, 4 catches)."""  # fmt: skip
        self.games += 1
        self.rounds += rounds
        self.wins_by_seat[winner] += 1
        self.wins_by_position[position] += 1
        self.turns.add(turns)
        self.rounds_per_game.add(rounds)
        self.draw_turns += counts[1]
        self.reshuffles.add(reshuffles)
        self.challenges.add(counts[2])
        self.challenges_won += counts[3]
        self.catches.add(counts[4])

    def merge(self, o: Tally) -> None:
        if o.players != self.players:
            raise ValueError("cannot merge tallies of different table sizes")
        self.games += o.games
        self.rounds += o.rounds
        for mine, theirs in (
            (self.wins_by_seat, o.wins_by_seat),
            (self.wins_by_position, o.wins_by_position),
            (self.plays_by_card, o.plays_by_card),
            (self.type_sq, o.type_sq),
        ):
            for i, v in enumerate(theirs):
                mine[i] += v
        for h, oh in (
            (self.turns, o.turns),
            (self.rounds_per_game, o.rounds_per_game),
            (self.round_turns, o.round_turns),
            (self.round_points, o.round_points),
            (self.reshuffles, o.reshuffles),
            (self.challenges, o.challenges),
            (self.catches, o.catches),
            (self.knockouts, o.knockouts),
            (self.flips, o.flips),
        ):
            h.merge(oh)
        self.draw_turns += o.draw_turns
        self.challenges_won += o.challenges_won
        self.stalled += o.stalled
        self.mercy_rounds += o.mercy_rounds

    @property
    def plays(self) -> int:
        return sum(self.plays_by_card)

    def plays_by_type(self) -> list[int]:
        out = [0] * N_TYPES
        for card, k in enumerate(self.plays_by_card):
            out[CARD_RANK[card]] += k
        return out

    _HISTS = (
        "turns", "rounds_per_game", "round_turns", "round_points",
        "reshuffles", "challenges", "catches", "knockouts", "flips",
    )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            v = getattr(self, name)
            out[name] = v.to_json() if isinstance(v, Hist) else v
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        kw: dict[str, Any] = {
            k: (Hist.from_json(v) if k in cls._HISTS else v) for k, v in data.items()
        }
        return cls(**kw)
