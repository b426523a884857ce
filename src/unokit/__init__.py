"""unokit: a faithful, fast UNO engine with replayable game records."""

from unokit.engine import Action, Game, IllegalAction, UnoError, View
from unokit.rules import RulesError, RuleSet, from_preset

__version__ = "0.1.0"
__all__ = [
    "Action",
    "Game",
    "IllegalAction",
    "RuleSet",
    "RulesError",
    "UnoError",
    "View",
    "from_preset",
]
