"""What a room refuses: the errors its jobs raise (lobby, play, log), kept apart so
that each of them can raise them without importing the room."""

from __future__ import annotations

from unokit.errors import UnoError


class RoomError(UnoError):
    """A request the room refuses; nothing changed."""


class RoomChanged(RoomError):
    """Another server changed this room first (its log index or its ``rev`` was taken):
    nothing of this request was kept; the room is brought up to date and the client
    gets a fresh view."""

    code = "room_changed"

    def __init__(self, message: str = "the room changed meanwhile; try again") -> None:
        super().__init__(message, code="room_changed")
