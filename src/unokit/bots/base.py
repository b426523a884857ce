"""The bot protocol: a bot sees only its seat's view and answers with an action.

A bot is asked in two ways.  ``act`` when the seat must decide (its turn, a colour to
name, a Wild Draw Four to answer); it must return one of ``view.legal``.  ``react``
whenever the seat *may* act out of turn (catch a player who did not call UNO, call its
own UNO late); it returns an action or ``None`` to let the moment pass.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from unokit.engine.actions import CATCH, PLAY, UNO, Action
from unokit.engine.view import View


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, view: View) -> Action: ...

    def react(self, view: View) -> Action | None: ...


class RandomBot:
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
