"""A game record as the frames of the replay viewer (issue 36 item 13).

The browser's replay viewer draws a game with the live table's renderer, from the same
``state`` messages the table gets: this turns a record (docs/records.md) into one such
frame for the deal of each round and one after each action, seen from one seat, as a
spectator, or with every hand open.  The engine plays the record with full checks, as
``unokit replay`` does (``record.replay``): the page holds no copy of the rules.

A record is the history of a finished game (the server hands one out only when its
game has ended), so its hands may all be shown; a record that stops at an illegal
action gives the frames up to it and says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unokit.engine.errors import IllegalAction, ShuffleError
from unokit.engine.family import new_game
from unokit.engine.view import view_of
from unokit.record import Record, RecordError, loads, start_recorded_round
from unokit.rules import RulesError
from unokit.server.conns import plain
from unokit.server.statemsg import state_message

MAX_FRAMES = 20_000  # a record longer than this is refused (a game has a few thousand)
OPEN = "open"  # every hand face up
VIEWS = ("spectator", OPEN)


@dataclass(frozen=True)
class Replay:
    """The frames of a record from one point of view, and where each round begins."""

    players: list[str]
    rules: dict[str, Any]
    frames: list[dict[str, Any]]
    rounds: list[int]  # the index of each round's first frame
    ok: bool
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rules": self.rules,
            "frames": self.frames,
            "rounds": self.rounds,
            "ok": self.ok,
            "message": plain(self.message),  # for the page: no references to our files
        }


def parse_view(text: str | None, n: int) -> int | str:
    """``?view=``: a seat number, ``spectator`` or ``open`` (RecordError otherwise)."""
    if text is None or text == "spectator":
        return "spectator"
    if text == OPEN:
        return OPEN
    if text.isdigit() and int(text) < n:
        return int(text)
    raise RecordError(f"view {text[:20]!r} is not a seat (0 to {n - 1}), spectator or open")


def frames_of(text: str, view: str | None) -> Replay:
    """The frames of the record ``text`` from ``view`` (RecordError: not a record)."""
    record = loads(text)
    return _frames(record, parse_view(view, len(record.players)))


def _frames(record: Record, view: int | str) -> Replay:
    try:
        game = new_game(record.rules, record.players, seed=0, start=False, events=True)
    except RulesError as e:
        raise RecordError(f"bad rules: {e}") from None
    seat = view if isinstance(view, int) else None
    frames: list[dict[str, Any]] = []
    rounds: list[int] = []
    totals: list[list[int]] = []
    told = 0  # events told so far

    def frame(ri: int, ai: int) -> None:
        nonlocal told
        if len(frames) >= MAX_FRAMES:
            raise RecordError(
                f"the record is too long to replay here (more than {MAX_FRAMES} moves);"
                " `unokit replay` reads it whole"
            )
        if game.round_over and len(totals) <= game.round_index:
            totals.append(list(game.scores))
        msg, told = state_message(game, seat, told, 1, len(frames), totals)
        msg["view"]["legal"] = []  # nobody acts in a replay
        msg["round"], msg["action"] = ri, ai
        if view == OPEN and not game.round_over:  # every hand face up, as each sees it
            msg["open"] = [
                view_of(game, s).to_json()["hand"] if game.live[s] else [] for s in range(game.n)
            ]
        frames.append(msg)

    ok, message = True, ""
    for ri, spec in enumerate(record.rounds):
        if ri > 0 and not game.round_over:
            ok, message = False, f"round {ri} starts before round {ri - 1} is over"
            break
        if game.game_over:
            ok, message = False, f"the game ended in round {ri - 1}, yet the record goes on"
            break
        try:
            start_recorded_round(game, spec, ri)
        except (IllegalAction, ShuffleError) as e:
            raise RecordError(f"round {ri}: {e}") from None
        rounds.append(len(frames))
        frame(ri, -1)
        for ai, (s, action) in enumerate(spec.actions):
            try:
                game.apply(s, action)
            except IllegalAction as e:
                ok, message = False, f"round {ri + 1}, move {ai + 1}: {e.message}"
                break
            except ShuffleError as e:
                raise RecordError(f"round {ri}: {e}") from None
            frame(ri, ai)
        if not ok:
            break
        left = game.unused_record_entries()  # as unokit replay refuses it (record.py)
        if left is not None:
            raise RecordError(f"round {ri}: {left} (the round needed no more)")
    return Replay(list(record.players), record.rules.to_spec(), frames, rounds, ok, message)


__all__ = ["MAX_FRAMES", "Replay", "frames_of", "parse_view"]
