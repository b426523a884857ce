"""The opponents a front end seats: bots by level, their names, and forgetting by level.

The terminal game and the web server both seat their bots from here, so a level means
the same bots everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from unokit.bots import BOTS, Bot
from unokit.bots.base import bot_games, observes
from unokit.engine import PLAY, Action, Event, View
from unokit.engine.family import plays

BOT_NAMES = ("Ana", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim")

# How often the bots of each level forget to call UNO, and let a forgotten UNO of
# yours pass (documented in `unokit play --help`).  Even hard bots forget now and then,
# so catching is part of every game.
LEVEL_FORGET: dict[str, tuple[float, float]] = {
    "easy": (0.4, 0.5),
    "normal": (0.15, 0.25),
    "hard": (0.05, 0.0),
}


class ForgetfulBot:
    """A bot that sometimes forgets to call UNO and lets catches pass (by level)."""

    def __init__(
        self, inner: Bot, seed: int | None = None, forget: float = 0.4, skip: float = 0.5
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.games = bot_games(inner)
        self.rng = random.Random(seed)
        self.forget = forget
        self.skip = skip
        self.observes = observes(inner)

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)

    def act(self, view: View) -> Action:
        action = self.inner.act(view)
        if action.kind == PLAY and action.uno and self.rng.random() < self.forget:
            action = action._replace(uno=False)
        return action

    def react(self, view: View) -> Action | None:
        action = self.inner.react(view)
        if action is not None and self.rng.random() < self.skip:
            return None
        return action


class UnoDecksOnly:
    """A bot of some games (``learned``: those it has weights for) with a stand-in for
    the games it refuses, so a level plays every game."""

    def __init__(self, inner: Bot, stand_in: Bot) -> None:
        self.inner = inner
        self.stand_in = stand_in
        self.name = inner.name
        self.games = bot_games(stand_in)
        self.observes = observes(inner) or observes(stand_in)

    def _bot(self, view: View) -> Bot:
        return self.inner if plays(bot_games(self.inner), view.rules) else self.stand_in

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)
        self.stand_in.observe(events)

    def act(self, view: View) -> Action:
        return self._bot(view).act(view)

    def react(self, view: View) -> Action | None:
        return self._bot(view).react(view)


def bot_kind(level: str, kinds: Mapping[str, object]) -> str:
    """The bot kind a level means when ``--bots`` is not given (the best one installed)."""
    wanted = {
        "easy": ("random",),
        "normal": ("greedy", "random"),
        # learned beats heuristic 56% and random 74% (docs/bots.md)
        "hard": ("learned", "heuristic", "greedy", "random"),
    }.get(level, ("random",))
    for kind in wanted:
        if kind in kinds:
            return kind
    return next(iter(kinds))


def make_bots(kind: str | None, level: str, count: int, seed: int | None) -> list[Bot]:
    """``count`` opponents of ``kind`` (or the level's kind), forgetting by LEVEL_FORGET.

    Raises ValueError for a kind that is not installed.
    """
    kinds: dict[str, Callable[..., Bot]] = dict(BOTS)
    if not kinds:
        raise ValueError("no bots are installed")
    if kind is None:
        kind = bot_kind(level, kinds)
    elif kind not in kinds:
        raise ValueError(f"unknown bot kind {kind!r}; choose one of {', '.join(sorted(kinds))}")
    rng = random.Random(seed)
    bots: list[Bot] = []
    for i in range(count):
        s = seed * 100 + i + 1 if seed is not None else rng.getrandbits(32)
        bot: Bot = kinds[kind](seed=s)
        if kind == "learned" and "heuristic" in kinds:  # the games it has weights for
            bot = UnoDecksOnly(bot, kinds["heuristic"](seed=s))
        forget, skip = LEVEL_FORGET.get(level, LEVEL_FORGET["normal"])
        bot = ForgetfulBot(bot, seed=s + 7, forget=forget, skip=skip)
        bots.append(bot)
    return bots
