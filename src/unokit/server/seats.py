"""Who sits in a room and what the room commits to: seats and their tokens, bots and
their names, each round's seed commitment, and a room's entry in the public list."""

from __future__ import annotations

import hashlib
import os
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from unokit.bots.base import Bot, bot_games
from unokit.bots.roster import BOT_NAMES, make_bots
from unokit.engine.family import plays
from unokit.rules import RuleSet
from unokit.server.messages import looks_like

# Tests only (the browser tests): UNOKIT_SEED=N draws game and round seeds from
# random.Random(N), so a test knows the deal.  Never set it for a real server.
_SEED = os.environ.get("UNOKIT_SEED")
_TEST_RNG = random.Random(int(_SEED)) if _SEED else None


def randbits(k: int) -> int:
    return _TEST_RNG.getrandbits(k) if _TEST_RNG is not None else secrets.randbits(k)


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def make_bot(level: str, seed: int, rules: RuleSet | None = None) -> Bot:
    """A bot of a level, as the terminal game seats them (bots.roster.make_bots).

    A level whose bot does not play the room's game (bots declare their games) seats
    the random bot instead, which plays every legal action of any view: a room never
    stalls on a bot."""
    bot = make_bots(None, level, 1, seed)[0]
    if rules is not None and not plays(bot_games(bot), rules):
        return make_bots("random", level, 1, seed)[0]
    return bot


@dataclass
class Seat:
    name: str
    kind: str  # "person" or "bot"
    level: str = "normal"
    token_hash: str = ""
    connected: int = 0  # open connections holding this seat
    away_since: float | None = None  # monotonic time the last connection closed
    # the lobby's ready check: a person says they are ready to start (issue 49); each
    # start clears it, so it asks again before the next game
    ready: bool = False
    # the person's profile (its public id and avatar colour), if they came with one:
    # the room's finished games count for it (issue 49 item 4)
    profile: str = ""
    color: str = ""

    def to_row(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "token": self.token_hash,
        }
        if self.ready:
            row["ready"] = True
        if self.profile:
            row["profile"], row["color"] = self.profile, self.color
        return row

    @staticmethod
    def from_row(d: dict[str, Any]) -> Seat:
        seat = Seat(d["name"], d["kind"], d.get("level", "normal"), d.get("token", ""))
        seat.ready = bool(d.get("ready", False))
        seat.profile, seat.color = d.get("profile", ""), d.get("color", "")
        return seat


@dataclass
class RoundSeed:
    seed: int
    salt: str
    dealer: int
    revealed: bool = False
    # computed once: every room message lists every round's commitment, and hashing
    # them again for each message was 3% of the server's time under load
    commitment: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.commitment = commitment(self.seed, self.salt)

    def public(self, index: int) -> dict[str, Any]:
        out: dict[str, Any] = {"round": index, "commitment": self.commitment}
        if self.revealed:
            out["seed"] = self.seed
            out["salt"] = self.salt
        return out


def bot_base(name: str) -> str:
    """A bot's name without the bots' mark: "Ben (bot)" -> "Ben"."""
    return name.removesuffix(" (bot)")


def bot_name(seats: list[Seat | None], seat: int) -> str:
    """A name for a new bot that looks like nobody's at the table, bot or person."""
    taken = [bot_base(s.name) for i, s in enumerate(seats) if s is not None and i != seat]
    for name in BOT_NAMES[1:]:
        if not any(looks_like(name, other) for other in taken):
            return f"{name} (bot)"
    return f"Bot {seat}"


def listing(code: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """What the home page's list of public rooms shows of a stored room: its game,
    rules and who sits there (names only, nothing of a game), or None when it is not
    open to strangers (private, started or full).  Built from the stored row, so a
    server lists the rooms of the whole cluster without replaying any game."""
    if not data.get("public") or data.get("status") != "lobby":
        return None
    seats = data.get("seats") or []
    free = sum(s is None for s in seats)
    if free == 0:
        return None
    host_index = data.get("host", 0)
    host = seats[host_index] if 0 <= host_index < len(seats) else None
    return {
        "code": code,
        "preset": data.get("preset", "classic"),
        "options": data.get("options", {}),
        "timer": data.get("timer", 0),
        "lang": data.get("lang", "en"),
        "host": host["name"] if host else None,
        "seats": len(seats),
        "free": free,
        "people": [s["name"] for s in seats if s is not None and s.get("kind") == "person"],
        "bots": sum(s is not None and s.get("kind") == "bot" for s in seats),
        "created": data.get("created", 0.0),
    }
