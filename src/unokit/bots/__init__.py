"""Bots: players that see only their own seat's view."""

from unokit.bots.base import Bot, RandomBot
from unokit.bots.greedy import GreedyBot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.runner import play_game, play_round

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
}

__all__ = ["BOTS", "Bot", "GreedyBot", "HeuristicBot", "RandomBot", "play_game", "play_round"]
