"""JSON forms every game's ``to_json_obj`` shares: RNG states, round logs, events.

Kept apart so that each game writes its own fields while the pieces they share are
written one way (a stored match of any game reads the same RNG and log forms).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from unokit.engine.actions import Action
from unokit.engine.dealing import RoundLog
from unokit.engine.events import Event, EventKind


def rng_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from(obj: Any) -> random.Random:
    rng = random.Random()
    version, internal, gauss = obj
    rng.setstate((version, tuple(internal), gauss))
    return rng


def logged_action(obj: Sequence[Any]) -> tuple[int, Action]:
    """A logged ``[seat, [kind, card, colour, target, uno], extra]``; states stored before
    the extra cards were kept have no third item (their multi-plays are lost for good)."""
    seat, a, *rest = obj
    extra = tuple(rest[0]) if rest else ()
    return seat, Action(a[0], a[1], a[2], a[3], bool(a[4]), extra)


def round_log_json(r: RoundLog, launches: bool = True) -> dict[str, Any]:
    """A round's log; ``launches`` only where the game has a launcher (the classic one),
    so each game's stored form stays what it was."""
    out: dict[str, Any] = {
        "dealer": r.dealer,
        "deck": list(r.deck),
        "seed": r.seed,
        "shuffles": [list(s) for s in r.shuffles],
    }
    if launches:
        out["launches"] = list(r.launches)
    out["actions"] = [[seat, list(a[:5]), list(a.extra)] for seat, a in r.actions]
    return out


def round_log_from(obj: dict[str, Any]) -> RoundLog:
    return RoundLog(
        dealer=obj["dealer"],
        deck=list(obj["deck"]),
        seed=obj["seed"],
        shuffles=[list(s) for s in obj["shuffles"]],
        launches=list(obj.get("launches", ())),
        actions=[logged_action(x) for x in obj["actions"]],
    )


def events_from(obj: Sequence[Sequence[Any]]) -> list[Event]:
    return [
        Event(EventKind(kind), seat, tuple(cards), amount, color, target, only, hide)
        for kind, seat, cards, amount, color, target, only, hide in obj
    ]


__all__ = ["events_from", "logged_action", "rng_from", "rng_json", "round_log_from",
           "round_log_json"]  # fmt: skip
