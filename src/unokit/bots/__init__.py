"""Bots: players that see only their own seat's view."""

from unokit.bots.base import Bot, RandomBot
from unokit.bots.runner import play_game, play_round

BOTS = {"random": RandomBot}

__all__ = ["BOTS", "Bot", "RandomBot", "play_game", "play_round"]
