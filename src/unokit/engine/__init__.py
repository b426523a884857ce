"""The rules engine: state, actions, legal actions, apply, events, views and scoring."""

from unokit.engine.actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    KEEP,
    PLAY,
    UNO,
    Action,
)
from unokit.engine.errors import ActionParseError, IllegalAction, ShuffleError
from unokit.engine.family import GAMES, Game, find_game, game_class, new_game, plays, register
from unokit.engine.game import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_GAME_OVER,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    PHASE_NAMES,
    ClassicGame,
    Event,
    RoundLog,
    world_from_view,
)

# the modern games register themselves with the family
from unokit.engine.modern import FlipGame, ModernGame, ModernView, NoMercyGame
from unokit.engine.position import PositionError, position
from unokit.engine.view import View, view_of
from unokit.errors import UnoError

__all__ = [
    "ACCEPT",
    "CATCH",
    "CHALLENGE",
    "COLOR",
    "DRAW",
    "GAMES",
    "KEEP",
    "PHASE_NAMES",
    "PLAY",
    "P_ANSWER",
    "P_CHALLENGE",
    "P_DRAWN",
    "P_GAME_OVER",
    "P_PLAY",
    "P_ROUND_OVER",
    "P_START_COLOR",
    "UNO",
    "Action",
    "ActionParseError",
    "ClassicGame",
    "Event",
    "FlipGame",
    "Game",
    "IllegalAction",
    "ModernGame",
    "ModernView",
    "NoMercyGame",
    "PositionError",
    "RoundLog",
    "ShuffleError",
    "UnoError",
    "View",
    "find_game",
    "game_class",
    "new_game",
    "plays",
    "position",
    "register",
    "view_of",
    "world_from_view",
]
