"""The ``state`` message (docs/protocol.md): one builder for the live table
(``Room.state_for``) and the replay viewer (``replay.frames_of``), so a frame of a
replay is drawn by the page exactly as the same moment was drawn live."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unokit.engine.game import Game
from unokit.engine.view import shown_hands, view_of


def codes(game: Game, cards: Sequence[int]) -> list[str]:
    """Cards in the game's own codes (its codec: UNO Flip!'s faces are pairs)."""
    return [game.face_code(f) for f in cards]


def state_message(
    game: Game, seat: int | None, since: int, game_no: int, version: int, totals: list[list[int]]
) -> tuple[dict[str, Any], int]:
    """``seat``'s state message (None: a spectator's): its view, the events from
    ``since`` on that it may see, and, once the round is over, every hand (R-SCORE-1
    counts them), the round's points and the totals after each round.  Returns the
    message and the event sequence number to go on from."""
    events = game.events or []
    out = []
    for i in range(max(0, min(since, len(events))), len(events)):
        e = events[i]
        if e.visible_to(seat):
            ev = game.event_json(e)
            ev["seq"] = i
            out.append(ev)
    msg: dict[str, Any] = {
        "type": "state",
        "game": game_no,
        "version": version,
        "seq": len(events),
        "view": view_of(game, seat).to_json(),
        "events": out,
    }
    if game.round_over:
        msg["hands"] = [codes(game, h) for h in shown_hands(game)]
        msg["points"] = [game.hand_points(s) for s in range(game.n)]
        msg["totals"] = [list(t) for t in totals]
    return msg, len(events)
