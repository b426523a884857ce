"""Build scenario records by hand: say who holds what, get the deck that deals it."""

from __future__ import annotations

import json
from typing import Any

from unokit.engine import Game
from unokit.record import loads, replay, replay_text


def deck_for(
    hands: list[list[str]], start: str, dealer: int = 0, then: list[str] | None = None
) -> list[str]:
    """The top-first deck that deals ``hands`` (R-SETUP-3), turns ``start``, then ``then``."""
    n = len(hands)
    size = len(hands[0])
    assert all(len(h) == size for h in hands), "scenario hands must be the same size"
    deck: list[str] = []
    for i in range(size):
        for k in range(1, n + 1):
            deck.append(hands[(dealer + k) % n][i])
    return [*deck, start, *(then or [])]


def scenario(
    hands: list[list[str]],
    start: str,
    actions: list[dict[str, Any]],
    *,
    dealer: int = 0,
    then: list[str] | None = None,
    options: dict[str, Any] | None = None,
    preset: str = "classic",
    shuffles: list[list[str]] | None = None,
    names: list[str] | None = None,
) -> dict[str, Any]:
    """A one-round record; ``hand_size`` follows the hands given."""
    opts = {"hand_size": len(hands[0]), **(options or {})}
    rnd: dict[str, Any] = {
        "dealer": dealer,
        "deck": deck_for(hands, start, dealer, then),
        "seed": 1,
        "actions": actions,
    }
    if shuffles is not None:
        rnd["shuffles"] = shuffles
    return {
        "format": "uno-record/1",
        "rules": {"preset": preset, "options": opts},
        "players": names
        or ["Ana", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"][: len(hands)],
        "rounds": [rnd],
    }


def run(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Replay as `unokit replay` does: (exit status, JSON result)."""
    status, out = replay_text(json.dumps(record))
    assert isinstance(out, dict), out
    return status, out


def game_after(record: dict[str, Any]) -> Game:
    """The game after replaying ``record``, which must be legal throughout."""
    result = replay(loads(json.dumps(record)))
    assert result.ok, result.message
    assert result.game is not None
    return result.game


def state(record: dict[str, Any]) -> dict[str, Any]:
    status, out = run(record)
    assert status == 0, out
    st: dict[str, Any] = out["state"]
    return st


def sorted_hands(st: dict[str, Any]) -> list[list[str]]:
    return [sorted(h) for h in st["hands"]]
