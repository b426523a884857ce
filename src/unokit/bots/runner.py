"""Running bots at a table, through the one match loop (``unokit.match.Match``).

Who is asked, in which order, is the match's rule: out-of-turn seats first (a catch
or a jump-in must come before the next player begins), clockwise from the seat after
the current one, then the seat that must decide (which may catch first).  Bots only
ever receive views and the events their own seat may see.
"""

from __future__ import annotations

from collections.abc import Sequence

from unokit.bots.base import Bot
from unokit.engine.game import Game
from unokit.match import Match, Timing


def step(game: Game, bots: Sequence[Bot]) -> None:
    """One decision at the table (a convenience for callers without a ``Match``)."""
    Match(game, bots, timing=Timing.instant()).bot_step()


class RoundStalled(RuntimeError):
    """A round passed its decision cap without a winner.

    The rules allow this: with every card in the players' hands, ``draw_until_playable``
    and ``force_play_drawn`` can leave each decision forced and the same position coming
    round for ever (docs/rules.md, "Rounds that can go on and on").  Callers decide what
    such a round counts as; a tournament leaves the deal out and says so.
    """

    def __init__(self, game: Game, max_steps: int) -> None:
        super().__init__(
            f"round {game.round_index + 1} had no winner after {max_steps:,} decisions"
        )
        self.game = game
        self.max_steps = max_steps


def play_round(
    game: Game | Match, bots: Sequence[Bot] | None = None, max_steps: int = 100_000
) -> None:
    """Play until the round is over; ``RoundStalled`` after ``max_steps`` decisions.

    Give a ``Match`` to keep its cursors (bots' event streams) across rounds.
    """
    if isinstance(game, Match):
        match = game
    else:
        if bots is None:
            raise ValueError("play_round needs the bots when given a Game")
        match = Match(game, bots, timing=Timing.instant())
    g = match.game
    for _ in range(max_steps):
        if g.round_over:
            return
        if not match.bot_step():
            raise RuntimeError("play_round: a seat has no bot")
    if not g.round_over:
        raise RoundStalled(g, max_steps)


def play_game(game: Game, bots: Sequence[Bot]) -> None:
    match = Match(game, bots, timing=Timing.instant())
    while True:
        play_round(match)
        if game.game_over:
            return
        match.next_round()
