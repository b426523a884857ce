"""Typed engine errors with stable codes (the root and the registry are in unokit.errors).

Front ends show ``str(err)`` to a person and switch on ``err.code``; both are part of the
public interface, so codes never change meaning once released.
"""

from __future__ import annotations

from unokit.errors import UnoError


class IllegalAction(UnoError):
    """An action the rules do not allow now.  The game is unchanged (R-TURN-7)."""

    code = "illegal_action"


class ActionParseError(UnoError):
    """Text or JSON that does not describe an action at all."""

    code = "bad_action"


class ShuffleError(UnoError):
    """A shuffle given by a record is not a reordering of the pile it replaces."""

    code = "bad_shuffle"
