"""Bots: players that see only their own seat's view."""

from typing import Protocol

from unokit.bots.base import Bot, RandomBot
from unokit.bots.greedy import GreedyBot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import ISMCTSBot
from unokit.bots.learned import LearnedBot
from unokit.bots.runner import RoundStalled, play_game, play_round


class BotFactory(Protocol):
    """A bot class: ``Cls(seed)`` builds a bot, deterministic given the seed."""

    def __call__(self, seed: int | None = None) -> Bot: ...


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
    "learned": LearnedBot,  # numpy only: the PPO policy of learned.npz (docs/rl.md)
}

__all__ = [
    "BOTS",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "HeuristicBot",
    "ISMCTSBot",
    "RandomBot",
    "RoundStalled",
    "play_game",
    "play_round",
]
