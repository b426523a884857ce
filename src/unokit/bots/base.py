"""The bot protocol: a bot sees only its seat's view and answers with an action.

A bot is asked in two ways.  ``act`` when the seat must decide (its turn, a colour to
name, a Wild Draw Four to answer); it must return one of ``view.legal``.  ``react``
whenever the seat *may* act out of turn (catch a player who did not call UNO, call its
own UNO late); it returns an action or ``None`` to let the moment pass.  Before it is
asked, ``observe`` hands it the events its seat may see since it was last asked (what
the rules show that seat, such as a challenged hand), so bots never diff views.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Protocol, runtime_checkable

from unokit.engine.actions import CATCH, PLAY, UNO, Action
from unokit.engine.game import Event
from unokit.engine.view import View


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, view: View) -> Action: ...

    def react(self, view: View) -> Action | None: ...

    def observe(self, events: Sequence[Event]) -> None: ...


class BotBase:
    """For bots that need no events: ``observe`` does nothing, and says so.

    Front ends switch events off for speed when no seat's bot reads them
    (``observes``).  ``games``: the games (``engine.family`` names) the bot plays,
    declared, so a front end seats it only there and never finds out by running it;
    None for a bot that plays any legal action of any game.
    """

    games: ClassVar[frozenset[str] | None] = None

    def observe(self, events: Sequence[Event]) -> None:
        return None


def bot_games(bot: object) -> frozenset[str] | None:
    """The games a bot (or a bot class) declared it plays; None: every game."""
    games = getattr(bot, "games", None)
    if games is None:
        return None
    if isinstance(games, (set, frozenset, tuple, list)) and all(isinstance(g, str) for g in games):
        return frozenset(games)
    raise TypeError(f"a bot's games must be a set of game names, not {games!r}")


def observes(bot: object) -> bool:
    """Whether ``bot`` reads events (a wrapper says so through its own ``observes``)."""
    flag = getattr(bot, "observes", None)
    if isinstance(flag, bool):
        return flag
    method = getattr(type(bot), "observe", None)
    return method is not None and method is not BotBase.observe


class RandomBot(BotBase):
    """A uniformly random legal decision; always calls and catches UNO.

    This is the benchmark's policy too: random playable card if any, else draw, and
    a playable drawn card is played (the only legal actions then are that card or keep;
    playing is what RLCard's random agent effectively does).
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        legal = view.legal
        # Always call UNO: among plays, prefer the calling variant when one exists.
        plays = [a for a in legal if a.kind == PLAY and (a.uno or not _has_uno_twin(a, legal))]
        if plays:
            return self.rng.choice(plays)
        turn = [a for a in legal if a.kind not in (CATCH, UNO)]
        return self.rng.choice(turn or list(legal))

    def react(self, view: View) -> Action | None:
        for a in view.legal:
            if a.kind in (CATCH, UNO):
                return a
        return None


def _has_uno_twin(a: Action, legal: tuple[Action, ...]) -> bool:
    return not a.uno and Action(a.kind, a.card, a.color, a.target, True) in legal
