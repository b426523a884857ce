"""Running bots at a table: who is asked, in which order.

Out-of-turn seats are asked first (a catch or a jump-in must come before the next
player begins), in seat order from the one after the current seat (the current seat
last, since it may catch before it begins its turn), then the seat that must decide.

Bots only ever receive views, and, if they have an ``observe`` method, the events their
own seat may see (``game.events_for(seat)``): what the rules show that seat, such as a
challenged hand, and nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from weakref import WeakKeyDictionary

from unokit.bots.base import Bot
from unokit.engine.game import Game
from unokit.engine.view import view_of

_cursors: WeakKeyDictionary[Game, list[int]] = WeakKeyDictionary()


def _inform(game: Game, seat: int, bot: Bot) -> None:
    """Give an observing bot the events of its seat since it was last asked."""
    observe = getattr(bot, "observe", None)
    if observe is None or game.events is None:
        return
    cursors = _cursors.setdefault(game, [0] * game.n)
    observe(game.events_for(seat, cursors[seat]))
    cursors[seat] = len(game.events)


def step(game: Game, bots: Sequence[Bot]) -> None:
    """One decision at the table: a reaction if any bot wants one, else the turn."""
    n = game.n
    cur = game.current
    actors = game.actors()
    if len(actors) > 1 or actors[0] != cur:  # a catch, a late UNO call, a jump-in
        for k in range(1, n + 1):
            seat = (cur + k) % n
            if seat not in actors:
                continue
            _inform(game, seat, bots[seat])
            view = view_of(game, seat)
            reaction = bots[seat].react(view)
            if reaction is not None:
                game.apply(seat, reaction)
                return
    _inform(game, cur, bots[cur])
    game.apply(cur, bots[cur].act(view_of(game, cur)))


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


def play_round(game: Game, bots: Sequence[Bot], max_steps: int = 100_000) -> None:
    """Play until the round is over; ``RoundStalled`` after ``max_steps`` decisions."""
    for _ in range(max_steps):
        if game.round_over:
            return
        step(game, bots)
    if not game.round_over:
        raise RoundStalled(game, max_steps)


def play_game(game: Game, bots: Sequence[Bot]) -> None:
    while True:
        play_round(game, bots)
        if game.game_over:
            return
        game.start_round()
