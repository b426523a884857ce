"""The terminal game, ``unokit play`` (Textual)."""

from unokit.tui.app import UnoApp, run_play

__all__ = ["UnoApp", "run_play"]
