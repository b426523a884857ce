"""UNO Flip! and UNO Show 'Em No Mercy (RULES-MODERN.md): the modern games' engine.

Importing this package registers both games with ``Game``, so ``Game(rules, ...)``
builds a ``FlipGame`` for ``deck="flip"`` and a ``NoMercyGame`` for ``deck="no-mercy"``;
``MatchState``, ``to_ask`` and ``advance`` drive them like the classic game.
"""

from unokit.engine.modern.base import ModernGame
from unokit.engine.modern.flip import FlipGame
from unokit.engine.modern.nomercy import NoMercyGame
from unokit.engine.modern.view import ModernView

__all__ = ["FlipGame", "ModernGame", "ModernView", "NoMercyGame"]
