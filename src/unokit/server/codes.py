"""The server's error codes: its own registry, above the core's (``unokit.errors``).

One root (``UnoError``) for every error; one registry per layer, so the engine's codes
never name a network idea and the server can add codes without touching the core.
Clients see the union (``ALL_CODES``); docs/protocol.md lists every one.
"""

from __future__ import annotations

from unokit.errors import CODES

# code -> what it means to a client.  Codes never change meaning once released.
SERVER_CODES: dict[str, str] = {
    "no_seat": "this connection holds no seat that may act (a spectator)",
    "no_room": "there is no room with that code",
    "room_started": "the game has started: join as a spectator",
    "room_full": "every seat is taken: join as a spectator",
    "name_taken": "someone in the room already has that name",
    "seat_taken": "that seat is taken",
    "not_host": "only the host may do that",
    "not_started": "the game has not started",
    "bad_request": "an HTTP body that does not fit its model",
    "bad_message": "a websocket message that is not JSON or fits no message model",
    "bad_hello": 'the first websocket message must be {"type": "hello"}',
    "bad_token": "the seat token is not valid in this room",
    "too_big": "the message is over the size limit",
    "rate_limited": "too many requests or messages; wait and try again",
    "kicked": "the host gave this seat to a bot",
    "game_in_progress": "the record can be downloaded when the game ends",
    "no_record": "no such game in this room",
    "storage_unavailable": "the server cannot store the action now; nothing was applied",
    "internal": "a bug on the server (logged); reload to resync",
    "name_reserved": 'names with the bots\' mark "(bot)" are kept for the bots',
    "room_changed": "another server of the cluster changed the room first; nothing was "
    "applied, a fresh view follows: try again",
    "bad_profile": "this profile token is not known here: the profile it held is lost",
    "no_profile": "there is no profile with that id",
    "profile_seated": "this profile already has a seat in the room",
    "restarting": "the server is stopping (a restart or an upgrade): reconnect, to it or "
    "to another server",
}

ALL_CODES: dict[str, str] = {**CODES, **SERVER_CODES}
