"""Typed errors with stable codes.

Front ends show ``str(err)`` to a person and switch on ``err.code``; both are part of the
public interface, so codes never change meaning once released.
"""

from __future__ import annotations


class UnoError(ValueError):
    """Base of every error the engine raises on purpose."""

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class IllegalAction(UnoError):
    """An action the rules do not allow now.  The game is unchanged (R-TURN-7)."""

    code = "illegal_action"


class ActionParseError(UnoError):
    """Text or JSON that does not describe an action at all."""

    code = "bad_action"


class ShuffleError(UnoError):
    """A shuffle given by a record is not a reordering of the pile it replaces."""

    code = "bad_shuffle"
