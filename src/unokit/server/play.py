"""A room's game: starting it, its rounds, checking and applying a move (stored
first: ``server.committer``), bots' and the autopilot's decisions, the turn timer's
start, the game's end, and a game rebuilt from its log or caught up with entries
another server stored.  Functions of a ``RoomState``; they call ``lobby`` and
``roomlog`` (``room.Room`` hands its methods to them)."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from unokit.bots.base import Bot
from unokit.engine.actions import Action
from unokit.engine.family import Game, new_game
from unokit.engine.state import check
from unokit.match import Match, SeatKind
from unokit.server import lobby, roomlog
from unokit.server.clock import now as clock_now
from unokit.server.roomerrors import RoomChanged, RoomError
from unokit.server.roomlog import act_entry, action_from_entry
from unokit.server.roomstate import RoomState
from unokit.server.seats import RoundSeed, Seat, bot_name, make_bot, randbits


def new_match(room: RoomState, seed: int) -> Game:
    names = [s.name if s else f"Seat {i}" for i, s in enumerate(room.seats)]
    game = new_game(room.rules, names, seed=seed, events=True, start=False)
    room.dealer = game.choose_dealer()
    room._bots = {}
    bots: list[Bot | None] = []
    kinds: list[SeatKind] = []
    for i, s in enumerate(room.seats):
        if s is not None and s.kind == "bot":
            bot = make_bot(s.level, seed + i, room.rules)
            room._bots[i] = bot
            bots.append(bot)
            kinds.append(SeatKind.BOT)
        else:
            bots.append(None)
            kinds.append(SeatKind.REMOTE)
    room.match = Match(game, bots, kinds, room.timing)
    room.log_len = 0
    room.rounds = []
    room.totals = []
    room.autopilot = set()
    return game


def start(room: RoomState, by: int | None) -> None:
    """The host starts the game; empty seats are filled with bots first."""
    lobby.host_only(room, by)
    if room.status == "playing":
        raise RoomError("the game is already on", code="room_started")
    try:
        with roomlog.all_or_nothing(room):
            for i, s in enumerate(room.seats):
                if s is None:
                    room.seats[i] = Seat(bot_name(room.seats, i), "bot", "normal")
                else:
                    s.ready = False  # asked again before the next game
            room.game_no += 1
            room.game_seed = randbits(63)
            room.status = "playing"
            new_match(room, room.game_seed)
            roomlog.save(room)
            start_round(room, room.dealer)
    except BaseException:
        with contextlib.suppress(Exception):
            roomlog.save(room)  # the room is the lobby again: the store should say so too
        raise
    room.touch()


def start_round(room: RoomState, dealer: int) -> None:
    entry, rs = round_entry(dealer)
    roomlog.log_entry(room, entry)
    begin_round(room, rs)


def round_entry(dealer: int) -> tuple[dict[str, Any], RoundSeed]:
    rs = RoundSeed(randbits(48), secrets.token_hex(16), dealer)
    return {"t": "round", "seed": rs.seed, "salt": rs.salt, "dealer": dealer}, rs


def begin_round(room: RoomState, rs: RoundSeed) -> None:
    """The round whose entry is stored starts."""
    assert room.match is not None
    dealer = rs.dealer
    room.rounds.append(rs)
    room.match.start_round(dealer, seed=rs.seed)
    room.changed_at = clock_now()
    room.changed_unseen = False
    turn_moved(room, None)


def next_round_entry(room: RoomState, by: int | None) -> tuple[dict[str, Any], Callable[[], None]]:
    """The next round's log entry, checked, and what starts the round once the entry
    is stored (``Committer.next_round``)."""
    if by is None:
        raise RoomError("spectators cannot start the next round", code="no_seat")
    game = game_in_play(room)
    if not game.round_over or game.game_over:
        raise RoomError("the round is not over", code="round_not_over")
    dealer = game.next_seat(game.dealer) if game.n_live == game.n else -1
    if dealer < 0:
        dealer = game.dealer
        for _ in range(game.n):
            dealer = (dealer + 1) % game.n
            if game.live[dealer]:
                break
    entry, rs = round_entry(dealer)

    def then() -> None:
        roomlog.stored_entry(room, entry)
        begin_round(room, rs)
        room.touch()

    return entry, then


def rematch(room: RoomState, by: int | None) -> None:
    lobby.host_only(room, by)
    if room.status != "over":
        raise RoomError("the game is not over", code="round_not_over")
    roomlog.save_finished(room)  # the finished game's record before the next game
    room.status = "lobby"
    start(room, by)


def end(room: RoomState, by: int | None) -> None:
    """The host ends the game; the record stays downloadable.  On a game already
    over, the room goes back to the lobby (``to_lobby``)."""
    lobby.host_only(room, by)
    if room.status == "over":
        lobby.to_lobby(room, by)
        return
    if room.status != "playing":
        raise RoomError("there is no game to end", code="game_over")
    with roomlog.all_or_nothing(room):
        # in the log first: a server of the cluster that has not heard of the end
        # cannot store a move after it (its index is taken: ``RoomChanged``), and
        # a room read from the log is over (``rebuild``, ``catch_up``)
        roomlog.log_entry(room, {"t": "end"})
    roomlog.finish_or_later(room)


def game_in_play(room: RoomState) -> Game:
    if room.match is None or room.status == "lobby":
        raise RoomError("the game has not started", code="not_started")
    if room.status == "over":
        raise RoomError("the game is over", code="game_over")
    return room.match.game


def prepare(room: RoomState, seat: int | None, action: Action, version: int) -> dict[str, Any]:
    """Check ``seat``'s action and return its log entry; raises with nothing changed.

    The server stores the entry (``Committer.commit``: alone, or with other rooms'
    entries in a group commit) and only then calls ``commit``.
    """
    game_in_play(room)
    if seat is None:
        raise RoomError("spectators cannot act", code="no_seat")
    match = room.match
    assert match is not None
    # check first (game and version unchanged on refusal), log, then apply
    match.check_seat(seat)
    check(match.state, seat, action, version)
    return act_entry(seat, action, match.game)


def commit(
    room: RoomState, seat: int | None, action: Action, version: int | None, person: bool = False
) -> None:
    """Apply an action, checked by ``prepare`` or ``bot_decide`` on this state, whose
    entry the store now holds (``person``: the seat's player made it, so the
    autopilot, if on, hands the seat back)."""
    assert room.match is not None and seat is not None
    if person and seat in room.autopilot:
        lobby.set_autopilot(room, seat, False)  # they are back
    room.match.submit(seat, action, version, checked=True)
    after_change(room, seat)


def bot_decide(room: RoomState) -> tuple[int, Action] | bool:
    """The next bot decision to log and ``commit``, checked; or whether it passed.

    A bot that lets an out-of-turn chance go passes at once (a pass is not
    logged: it changes nothing a replay needs), and True says so; False: no bot
    is to act.
    """
    if room.status != "playing" or room.match is None:
        return False
    decided = room.match.bot_decide(fallback=True)
    if decided is True:  # a pass: maybe another seat is asked now
        turn_moved(room, -1)
    return decided


def autopilot_decide(room: RoomState, seat: int) -> Action | None:
    """The decision the heuristic bot makes for ``seat`` when its turn timer ran
    out, checked (None: no game in play), to log and ``commit``."""
    match = room.match
    if match is None or room.status != "playing":
        return None
    bot = room._bots.get(seat) or make_bot("hard", room.game_seed + seat, room.rules)
    room._bots[seat] = bot
    return match.decide_for(seat, bot)


def count_round(room: RoomState) -> None:
    """Keep the scores once a round has ended (once per round)."""
    game = room.match.game if room.match is not None else None
    if game is not None and game.round_over and len(room.totals) == game.round_index:
        room.totals.append(list(game.scores))


def turn_moved(room: RoomState, actor: int | None) -> None:
    """Start the turn timer again if a new decision is asked: of another seat, or
    of the seat that just acted (``actor``; None: a round began).  A move by someone
    else that leaves the same seat to decide (a catch, an UNO call) does not restart
    that seat's clock, so catching a player cannot buy the player to act more time."""
    seat = room.match.next_to_ask() if room.match is not None else None
    if actor is None or seat != room.turn_seat or actor == seat:
        room.turn_at = clock_now()
    room.turn_seat = seat


def after_change(room: RoomState, actor: int | None) -> None:
    assert room.match is not None
    count_round(room)
    room.changed_at = clock_now()
    room.changed_unseen = False
    turn_moved(room, actor)
    game = room.match.game
    if game.round_over and room.rounds:
        room.rounds[-1].revealed = True
    if game.game_over:
        if room.defer_finish:  # the server saves it next, off the event loop
            roomlog.over_unsaved(room)
        else:
            roomlog.finish_or_later(room)
        return
    room.touch(meta=game.round_over)  # the round's seed is revealed


def pause_passed(room: RoomState) -> None:
    """This server takes the room's bots over (their driver died, or let the lease
    go) and read their turn from the store: the turn began before that, when the
    previous driver stored it (after a death, seconds ago: a driver stops
    ``LEASE_MARGIN`` before its lease can lapse, and the lease runs its time).  So
    the bot's pause counts as passed, instead of starting now: a dead
    server's bots move again when its lease lapses, not a pause (up to the catch
    window, 2.5 s) later.  A round's summary (``next_round``) is not cut short."""
    match = room.match
    if not room.changed_unseen or match is None or match.game.round_over:
        return
    room.changed_at = min(room.changed_at, clock_now() - match.delay())


def rebuild(room: RoomState, log: list[dict[str, Any]]) -> None:
    game = new_match(room, room.game_seed)
    moves = 0  # the entries that made a version, up to an end
    for entry in log:
        moves += entry["t"] in ("round", "act")
        kind = entry["t"]
        if kind == "round":
            rs = RoundSeed(entry["seed"], entry["salt"], entry["dealer"])
            room.rounds.append(rs)
            game.start_round(rs.dealer, seed=rs.seed)
        elif kind == "act":
            seat, action = action_from_entry(game, entry["a"])
            game.apply(seat, action)
            count_round(room)
        elif kind == "seat":  # a seat changed hands during the game (a kick)
            s = room.seats[entry["seat"]]
            if s is not None and entry["kind"] == "bot":
                s.token_hash = ""  # the row may still hold it (its save failed)
            lobby.set_seat_kind(room, entry["seat"], entry["kind"])
        elif kind == "end":  # the host ended it: nothing after counts
            room.ended = True
            break
    for rs in room.rounds[:-1]:
        rs.revealed = True
    if room.rounds and game.round_over:
        room.rounds[-1].revealed = True
    room.log_len = len(log)
    assert room.match is not None
    room.match.resume_at(moves)


def catch_up(room: RoomState, entries: list[dict[str, Any]]) -> None:
    """Apply log entries another server stored (in a cluster), in order, as this
    server would have applied them itself.  Raises (``UnoError``) if one does not
    apply to the game as this server has it; the caller then rebuilds the room."""
    match = room.match
    if match is None or room.status not in ("playing", "over"):
        raise RoomChanged("the room is not in play here")
    for entry in entries:
        kind = entry["t"]
        if kind == "round":
            rs = RoundSeed(entry["seed"], entry["salt"], entry["dealer"])
            room.rounds.append(rs)
            match.start_round(rs.dealer, seed=rs.seed)
            turn_moved(room, None)
        elif kind == "act":
            seat, action = action_from_entry(match.game, entry["a"])
            if seat in room.autopilot:  # the seat's player acted on another server
                lobby.set_autopilot(room, seat, False)
            match.submit(seat, action)
            turn_moved(room, seat)
        elif kind == "end":  # the host ended it on another server
            room.ended = True
            room.status = "over"
            for rs in room.rounds:
                rs.revealed = True
            room.log_len += 1
            break
        elif kind == "seat":
            s = room.seats[entry["seat"]]
            if s is not None and entry["kind"] == "bot":
                s.token_hash = ""
                room.autopilot.discard(entry["seat"])
            lobby.set_seat_kind(room, entry["seat"], entry["kind"])
        room.log_len += 1
        count_round(room)
        game = match.game
        if game.round_over and room.rounds:
            room.rounds[-1].revealed = True
        if game.game_over:
            room.status = "over"  # the server that ended it saved that; reveal here
            for rs in room.rounds:
                rs.revealed = True
    room.changed_at = clock_now()
    room.touch(meta=True)
