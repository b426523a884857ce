"""Every message a client may send, as pydantic models: unknown fields are refused.

The action itself (``act.action``) is the engine's wire form (docs/protocol.md,
"Actions"); it is checked by ``Action.from_wire``, which also refuses unknown keys.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, field_validator

MAX_MESSAGE = 4096  # bytes of one websocket message
MAX_CHAT = 200  # characters of one chat line
MAX_NAME = 20  # characters of a display name
LEVELS = ("easy", "normal", "hard")
# the page's languages (src/unokit/web/locales): a room says which its host speaks
Lang = Literal["en", "de", "es", "fr"]
# a profile's secret token (issue 49 item 4), as a seat token: sent in bodies, never URLs
ProfileToken = Annotated[str, Field(min_length=1, max_length=100)]
ProfileColor = Literal["red", "orange", "gold", "green", "teal", "blue", "purple", "pink"]
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
    if not "".join(ch for ch in name if not _invisible(ch)).strip():
        raise ValueError("a name cannot be empty")  # only blank "fillers"
    return name


# Characters drawn as nothing (Unicode's Default_Ignorable_Code_Point that are not
# format characters, and the blank "fillers"): "Ana" with one of these added looks
# like "Ana" (found by review), so names are compared without them.  Not refused: an
# emoji's variation selector (U+FE0F in "❤️") is one of them.
_INVISIBLE_RANGES = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)  # fmt: skip


def _invisible(ch: str) -> bool:
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in _INVISIBLE_RANGES)


# Look-alike letters (homoglyphs): the Cyrillic and Greek letters that are drawn like a
# Latin one in common fonts, and the digits and signs drawn like a letter.  A subset of
# Unicode's confusables (UTS #39, confusables.txt) for the scripts people mix up by
# accident or on purpose; names are compared by their ``name_keys``.  Kept here as a
# table: the PyPI packages that ship the full list were last released in 2021-2024.
HOMOGLYPHS: dict[str, str] = {
    # Cyrillic capitals
    "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M",
    "\u041d": "H", "\u041e": "O", "\u0420": "P", "\u0421": "C", "\u0422": "T",
    "\u0425": "X", "\u0423": "Y", "\u04ae": "Y", "\u0405": "S", "\u0406": "I",
    "\u0408": "J", "\u051a": "Q", "\u051c": "W", "\u04c0": "I", "\u0417": "3",
    # Cyrillic small letters
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c",
    "\u0443": "y", "\u0445": "x", "\u0455": "s", "\u0456": "i", "\u0458": "j",
    "\u051b": "q", "\u051d": "w", "\u04bb": "h", "\u04cf": "l", "\u0501": "d",
    "\u043a": "k",
    # Greek capitals
    "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H",
    "\u0399": "I", "\u039a": "K", "\u039c": "M", "\u039d": "N", "\u039f": "O",
    "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
    # Greek small letters
    "\u03bf": "o", "\u03b1": "a", "\u03bd": "v", "\u03b9": "i", "\u03ba": "k",
    "\u03c1": "p", "\u03c5": "u", "\u03c7": "x", "\u03b3": "y", "\u03f2": "c",
    "\u03f3": "j",
    # Latin look-alikes
    "\u0131": "i", "\u0269": "i", "\u0251": "a", "\u0261": "g", "\u01c0": "l",
    "0": "O",
    # Latin small capitals
    "\u1d00": "A", "\u0299": "B", "\u1d04": "C", "\u1d05": "D", "\u1d07": "E",
    "\u0262": "G", "\u029c": "H", "\u026a": "I", "\u1d0a": "J", "\u1d0b": "K",
    "\u029f": "L", "\u1d0d": "M", "\u0274": "N", "\u1d0f": "O", "\u1d18": "P",
    "\u0280": "R", "\ua731": "S", "\u1d1b": "T", "\u1d1c": "U", "\u1d20": "V",
    "\u1d21": "W", "\u028f": "Y", "\u1d22": "Z",
    # Cherokee
    "\u13aa": "A", "\u13f4": "B", "\u13df": "C", "\u13ac": "E", "\u13bb": "H",
    "\u13ab": "J", "\u13e6": "K", "\u13de": "L", "\u13b7": "M", "\u13e2": "P",
    "\u13da": "S", "\u13a2": "T", "\u13d9": "V", "\u13b3": "W", "\u13a9": "Y",
    "\u13c3": "Z", "\u13be": "O",
    # Lisu
    "\ua4ee": "A", "\ua4d0": "B", "\ua4da": "C", "\ua4d3": "D", "\ua4f0": "E",
    "\ua4dd": "F", "\ua4d6": "G", "\ua4e7": "H", "\ua4f2": "I", "\ua4d9": "J",
    "\ua4d7": "K", "\ua4e1": "L", "\ua4df": "M", "\ua4e0": "N", "\ua4f3": "O",
    "\ua4d1": "P", "\ua4e3": "R", "\ua4e2": "S", "\ua4d4": "T", "\ua4f4": "U",
    "\ua4e6": "V", "\ua4ea": "W", "\ua4eb": "X", "\ua4ec": "Y", "\ua4dc": "Z",
    # Armenian
    "\u0555": "O", "\u0585": "o", "\u057d": "u", "\u0581": "g", "\u0570": "h",
    "\u0578": "n", "\u0566": "q", "\u0575": "j",
}  # fmt: skip
# drawn as a small l in many fonts: compared as one (before case is folded, so a
# capital I matches an l, as it looks; a small i does not)
LIKE_L = str.maketrans({"I": "l", "1": "l", "|": "l"})
GLYPHS = str.maketrans(HOMOGLYPHS)
BOT_MARK = "(bot)"  # reserved: the server names its bots "Ben (bot)"


def name_keys(name: str) -> set[str]:
    """What a name looks like, as comparison keys (a confusables "skeleton").

    NFKC first (full-width letters, ligatures, compatibility forms), then each letter's
    accents apart (NFD) and, on Latin, Greek and Cyrillic letters, dropped: "Bén" reads
    as "Ben" at a glance across a table (issue 49), and a look-alike letter with an
    accent maps as well (in Indic and Thai scripts the marks are vowels: "राजू" is not
    "राज", found by review); then the ``HOMOGLYPHS``, then case folded.  Two keys: with
    a capital I drawn as an l ("Ian" looks like "lan") and with the case folded first
    ("IAN" is "ian").  Two names look the same when their keys meet.
    """
    seen = "".join(ch for ch in name if not _invisible(ch))
    base = _without_accents(unicodedata.normalize("NFD", unicodedata.normalize("NFKC", seen)))
    glyphs = base.translate(GLYPHS)
    shown = glyphs.translate(LIKE_L).casefold()
    folded = base.casefold().translate(GLYPHS).translate(LIKE_L).casefold()
    return {unicodedata.normalize("NFC", k) for k in (shown, folded)}


ACCENTED = ("LATIN", "GREEK", "CYRILLIC")  # scripts whose combining marks are accents


def _without_accents(text: str) -> str:
    """``text`` (NFD) without the combining marks that sit on a Latin, Greek or Cyrillic
    letter; marks on other scripts' letters stay."""
    out = []
    accented = False
    for ch in text:
        if unicodedata.category(ch) == "Mn":
            if accented:
                continue
        else:
            accented = unicodedata.name(ch, "").startswith(ACCENTED)
        out.append(ch)
    return "".join(out)


def looks_like(name: str, other: str) -> bool:
    """Whether two display names look the same (``name_keys``)."""
    return name.lower() == other.lower() or bool(name_keys(name) & name_keys(other))


def _brackets(key: str) -> str:
    """``key`` with every opening bracket read as "(", every closing one as ")" and no
    spaces: "Ben ❨bot❩" and "Ben ( bot )" carry the bots' mark too (found by review)."""
    out = []
    for ch in key:
        cat = unicodedata.category(ch)
        if cat == "Ps":
            out.append("(")
        elif cat == "Pe":
            out.append(")")
        elif not ch.isspace():
            out.append(ch)
    return "".join(out)


def name_refusal(name: str, taken: list[str]) -> tuple[str, str] | None:
    """Why a (clean) display name cannot be used beside ``taken``: (code, message),
    or None.  ``name_reserved``: it carries the bots' mark; ``name_taken``: it is, or
    looks like, a name already in the room."""
    keys = name_keys(name)
    if any(BOT_MARK in _brackets(k) for k in keys):
        return "name_reserved", f"names with {BOT_MARK!r} in them are kept for the bots"
    for other in taken:
        if other.lower() == name.lower() or keys & name_keys(other):  # (looks_like)
            return "name_taken", f"someone here is already called {other} (or looks it)"
    return None


class Hello(Strict):
    """The first message on a websocket: a seat token to take a seat, none to watch
    (``name``: a spectator's, for the spectator list and their chat, issue 36)."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=100)] | None = None
    last_seq: Annotated[int, Field(ge=0, le=10_000_000)] | None = None
    game: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    name: Annotated[str, Field(max_length=40)] | None = None


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


# quick reactions (issue 36 item 16): words, so no emoji font is needed
EMOTES = ("nice", "gg", "oops", "wow", "hurry", "thanks")
Emote = Literal["nice", "gg", "oops", "wow", "hurry", "thanks"]


class React(Strict):
    """A quick reaction from a player or a spectator, shown beside them."""

    type: Literal["react"]
    emote: Emote


class WatchChat(Strict):
    """Host: whether spectators may chat (on by default)."""

    type: Literal["watch_chat"]
    on: bool


class SetPublic(Strict):
    """Host: list the room on the home page for strangers to join, or not (issue 49)."""

    type: Literal["public"]
    on: bool


class Ready(Strict):
    """A seated person in the lobby: ready to start, or not yet (issue 49)."""

    type: Literal["ready"]
    on: bool


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


class SetRules(Strict):
    """Host, in the lobby: new rules and turn timer for the next game (issue 36)."""

    type: Literal["rules"]
    preset: Annotated[str, Field(max_length=40)] = "classic"
    options: dict[str, bool | int | str | list[int]] = Field(default_factory=dict)
    timer: Literal[0, 15, 30, 60] = 0

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        return check_options(v)


ClientMessage = Annotated[
    Hello
    | Act
    | Chat
    | React
    | WatchChat
    | SetPublic
    | Ready
    | Start
    | AddBot
    | Kick
    | End
    | NextRound
    | Rematch
    | SetRules
    | Ping,
    Field(discriminator="type"),
]
CLIENT = TypeAdapter(ClientMessage)


# ------------------------------------------------------------------- HTTP bodies ----
# a display name in an HTTP body (create, join, Quick play, a profile): ``clean_name``'s
Name = Annotated[str, AfterValidator(clean_name)]


class CreateRoom(Strict):
    name: Name
    preset: Annotated[str, Field(max_length=40)] = "classic"
    options: dict[str, bool | int | str | list[int]] = Field(default_factory=dict)
    seats: Annotated[int, Field(ge=2, le=10)] = 4
    bots: list[Literal["easy", "normal", "hard"] | None] = Field(default_factory=list)
    timer: Literal[0, 15, 30, 60] = 0
    public: bool = False
    lang: Lang = "en"
    profile: ProfileToken | None = None

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        return check_options(v)


def check_options(v: dict[str, Any]) -> dict[str, Any]:
    """House rule values within bounds (the rules themselves check their names)."""
    if len(v) > 30:
        raise ValueError("too many options")
    for value in v.values():
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**6:
            raise ValueError("an option value is out of range")
        if isinstance(value, list) and (len(value) > 20 or any(abs(x) > 10**6 for x in value)):
            raise ValueError("an option list is out of range")
    return v


class JoinRoom(Strict):
    name: Name
    profile: ProfileToken | None = None


class QuickPlay(Strict):
    """``POST /api/quickplay``: a seat in the best open public room of this game, or a
    new public room that others can join (issue 49 item 3)."""

    name: Name
    preset: Annotated[str, Field(max_length=40)] = "classic"
    lang: Lang = "en"
    profile: ProfileToken | None = None


class NewProfile(Strict):
    """``POST /api/profiles``: a profile for this browser (issue 49 item 4)."""

    name: Name
    color: ProfileColor = "blue"
    listed: bool = False  # on the leaderboard


class MyProfile(Strict):
    """``POST /api/profiles/me``: the profile this token holds, changed if asked."""

    token: ProfileToken
    name: Name | None = None
    color: ProfileColor | None = None
    listed: bool | None = None
