"""Every message a client may send, as pydantic models: unknown fields are refused.

The action itself (``act.action``) is the engine's wire form (docs/protocol.md,
"Actions"); it is checked by ``Action.from_wire``, which also refuses unknown keys.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

MAX_MESSAGE = 4096  # bytes of one websocket message
MAX_CHAT = 200  # characters of one chat line
MAX_NAME = 20  # characters of a display name
LEVELS = ("easy", "normal", "hard")
TIMERS = (0, 15, 30, 60)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def clean_name(value: str) -> str:
    """A display name: whitespace collapsed, 1-20 characters, no control characters."""
    if not isinstance(value, str):
        raise ValueError("a name must be text")
    name = " ".join(value.split())
    if not name:
        raise ValueError("a name cannot be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("a name cannot contain control characters")
    return name


class Hello(Strict):
    """The first message on a websocket: a seat token to take a seat, none to watch."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=100)] | None = None
    last_seq: Annotated[int, Field(ge=0, le=10_000_000)] | None = None
    game: Annotated[int, Field(ge=0, le=1_000_000)] | None = None


class Act(Strict):
    type: Literal["act"]
    version: Annotated[int, Field(ge=0, le=100_000_000)]
    action: dict[str, Any]


class Chat(Strict):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        v = "".join(ch for ch in v if not unicodedata.category(ch).startswith("C")).strip()
        if not v:
            raise ValueError("an empty chat line")
        return v


class Start(Strict):
    type: Literal["start"]


class AddBot(Strict):
    type: Literal["add_bot"]
    seat: Annotated[int, Field(ge=0, le=9)]
    level: Literal["easy", "normal", "hard"] = "normal"


class Kick(Strict):
    """Host: a seated player leaves; in a game their seat goes to a bot."""

    type: Literal["kick"]
    seat: Annotated[int, Field(ge=0, le=9)]


class End(Strict):
    type: Literal["end"]


class NextRound(Strict):
    type: Literal["next_round"]


class Rematch(Strict):
    type: Literal["rematch"]


class Ping(Strict):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | Act | Chat | Start | AddBot | Kick | End | NextRound | Rematch | Ping,
    Field(discriminator="type"),
]
CLIENT = TypeAdapter(ClientMessage)


# ------------------------------------------------------------------- HTTP bodies ----
class CreateRoom(Strict):
    name: str
    preset: Annotated[str, Field(max_length=40)] = "classic"
    options: dict[str, bool | int | str | list[int]] = Field(default_factory=dict)
    seats: Annotated[int, Field(ge=2, le=10)] = 4
    bots: list[Literal["easy", "normal", "hard"] | None] = Field(default_factory=list)
    timer: Literal[0, 15, 30, 60] = 0

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v)

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        if len(v) > 30:
            raise ValueError("too many options")
        for value in v.values():
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**6:
                raise ValueError("an option value is out of range")
            if isinstance(value, list) and (len(value) > 20 or any(abs(x) > 10**6 for x in value)):
                raise ValueError("an option list is out of range")
        return v


class JoinRoom(Strict):
    name: str

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v)
