"""The HTTP side of the table: the pages, the room API (create, look up, join), game
records and the replay viewer, with their errors as ``{"code", "message"}`` JSON."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint

from unokit.errors import UnoError
from unokit.record import RecordError
from unokit.rules import from_preset
from unokit.server import messages as m
from unokit.server import ops, profiles
from unokit.server.clock import now as clock_now
from unokit.server.conns import STORE_DOWN, plain
from unokit.server.limits import Window
from unokit.server.options import check_room_options, rules_json
from unokit.server.replay import frames_of
from unokit.server.room import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Room,
    RoomChanged,
    RoomError,
    listing,
    new_code,
)
from unokit.server.seats import new_token, token_hash
from unokit.server.store import StoreError

if TYPE_CHECKING:
    from unokit.server.app import Server

log = logging.getLogger("unokit.server")

# the home page's list of public rooms: at most this many, read from the store at
# most once a LIST_FRESH seconds by each server however many pages ask
LIST_LENGTH = 50
LIST_FRESH = 1.0

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def web_dir() -> Path:
    return Path(str(resources.files("unokit") / "web"))


def address(client: Any) -> str:
    return str(client.host) if client is not None else "unknown"


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": plain(message)}, status_code=status)


def room_code(code: str) -> str:
    code = code.upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise RoomError(f"{code[:10]!r} is not a room code", code="no_room")
    return code


def replay_body(text: str, view: str | None) -> bytes:
    return json.dumps(frames_of(text, view).to_json(), separators=(",", ":")).encode()


class Headers(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        response = await call_next(request)
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        return response


SOFT = (b"x-unokit-soft", b"1")


class SoftRefusals:
    """A refusal (a 4xx) to the page's own requests, which send ``X-Unokit-Soft: 1``,
    goes out as a 200 with its status in ``X-Unokit-Status`` and its body unchanged.

    Why: Chromium logs every 4xx a page fetches as "Failed to load resource" in the
    console, and a room code that does not exist or a name already taken is an answer
    the page shows in words, not a fault (issue 49). Every other client (curl, the
    tests, a bot author's script) gets the status as it is: the API keeps its codes."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or SOFT not in scope.get("headers", ()):
            await self.app(scope, receive, send)
            return

        async def soft(message: Any) -> None:
            if message["type"] == "http.response.start" and 400 <= message["status"] < 500:
                status = str(message["status"]).encode()
                headers = [*message.get("headers", ()), (b"x-unokit-status", status)]
                message = {**message, "status": 200, "headers": headers}
            await send(message)

        await self.app(scope, receive, soft)


class HttpRoutes:
    """The HTTP routes of one server (``install`` adds them to its app)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        # the replay viewer (issue 36 item 13): a record as the table's state messages
        self.replay_window = Window(server.limits.replays_per_address_per_minute, 60)
        self.list_window = Window(server.limits.lists_per_address_per_minute, 60)
        self.fresh = LIST_FRESH  # tests: 0, every list read again
        self.listed: tuple[float, list[dict[str, Any]]] = (-LIST_FRESH, [])
        self.profile_window = Window(server.limits.profiles_per_address_per_hour, 3600)

    def install(self, app: FastAPI) -> None:
        app.add_middleware(Headers)
        app.add_middleware(SoftRefusals)
        app.add_exception_handler(RequestValidationError, self.bad_request)
        app.add_exception_handler(UnoError, self.refused)
        app.add_exception_handler(StoreError, self.store_failed)
        app.add_exception_handler(Exception, self.internal)
        app.add_api_route("/", self.index, methods=["GET"], include_in_schema=False)
        app.add_api_route("/r/{code}", self.room_page, methods=["GET"], include_in_schema=False)
        app.add_api_route("/replay", self.replay_page, methods=["GET"], include_in_schema=False)
        app.add_api_route("/healthz", self.health, methods=["GET"])
        # /metrics and /readyz (the store and the bus answer); /healthz is liveness
        app.include_router(
            ops.ops_router(ops.readiness(store=self.store_probe, bus=self.bus_probe))
        )
        app.add_api_route("/api/rules", self.rules, methods=["GET"])
        app.add_api_route("/api/rooms", self.create_room, methods=["POST"])
        app.add_api_route("/api/public", self.public_rooms, methods=["GET"])
        app.add_api_route("/api/quickplay", self.quick_play, methods=["POST"])
        app.add_api_route("/api/rooms/{code}/qr.svg", self.qr_code, methods=["GET"])
        app.add_api_route("/api/profiles", self.new_profile, methods=["POST"])
        app.add_api_route("/api/profiles/me", self.my_profile, methods=["POST"])
        app.add_api_route("/api/profiles/{pid}", self.profile_page, methods=["GET"])
        app.add_api_route("/api/leaderboard", self.leaderboard, methods=["GET"])
        app.add_api_route("/p/{pid}", self.index_too, methods=["GET"], include_in_schema=False)
        app.add_api_route("/leaderboard", self.index, methods=["GET"], include_in_schema=False)
        app.add_api_route("/api/rooms/{code}", self.room_info, methods=["GET"])
        app.add_api_route("/api/rooms/{code}/join", self.join, methods=["POST"])
        app.add_api_route("/api/rooms/{code}/record", self.record, methods=["GET"])
        app.add_api_route("/api/replay", self.replay_record, methods=["POST"])
        app.add_api_route("/api/rooms/{code}/replay", self.replay_room_game, methods=["GET"])
        static = web_dir()
        if static.is_dir():
            app.mount("/static", StaticFiles(directory=str(static)), name="static")

    async def bad_request(self, request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)  # registered for it
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        return error(400, "bad_request", f"{where}: {first.get('msg', 'invalid')}".strip(": "))

    async def refused(self, request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, UnoError)  # registered for it
        ops.refused(exc.code)
        status = {"no_room": 404, "no_profile": 404, "rate_limited": 429}.get(exc.code, 400)
        return error(status, exc.code, exc.message)

    async def store_failed(self, request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StoreError)  # registered for it
        if time.monotonic() >= self.server.store_down_until:
            self.server.store_failed(exc)
        return error(503, "storage_unavailable", STORE_DOWN)

    async def internal(self, request: Request, exc: Exception) -> JSONResponse:
        self.server.errors += 1
        log.exception("unexpected error")
        return error(500, "internal", "something went wrong on the server")

    # ------------------------------------------------------------------ HTTP -------
    async def index(self) -> FileResponse:
        return FileResponse(web_dir() / "index.html")

    async def index_too(self, pid: str) -> FileResponse:
        return FileResponse(web_dir() / "index.html")

    async def room_page(self, code: str) -> FileResponse:
        return FileResponse(web_dir() / "index.html")

    async def replay_page(self) -> FileResponse:
        return FileResponse(web_dir() / "index.html")

    async def health(self) -> dict[str, Any]:
        return {"ok": True, "rooms": len(self.server.rooms)}

    async def store_probe(self) -> object:
        return await self.server.io(self.server.store.load_room, "-")

    async def bus_probe(self) -> bool:
        return self.server.bus.healthy()

    async def rules(self) -> dict[str, Any]:
        return rules_json()

    async def create_room(self, body: m.CreateRoom, request: Request) -> dict[str, Any]:
        refusal = m.name_refusal(body.name, [])
        if refusal is not None:
            raise RoomError(refusal[1], code=refusal[0])
        check_room_options(body.preset, body.options)
        self.server.check_store()
        addr = address(request.client)
        if not self.server.room_window.allow(addr):
            return error(429, "rate_limited", "too many rooms from here; wait a while")  # type: ignore[return-value]
        profile = await self.profile_of(body.profile, addr)
        room, token = await self.new_room(body, profile)
        return {"code": room.code, "seat": 0, "token": token, "link": f"/r/{room.code}"}

    async def new_room(
        self, body: m.CreateRoom, profile: tuple[str, str] | None = None
    ) -> tuple[Room, str]:
        """A room made and held by this server, its host seated; the host's token."""
        for _ in range(5):  # a code taken (in memory or in the store): astronomically rare
            code = new_code()
            if code in self.server.rooms:
                continue
            try:
                room, token = await self.server.io(
                    lambda c=code: Room.create(
                        self.server.store,
                        body.name,
                        body.preset,
                        body.options,
                        body.seats,
                        list(body.bots),
                        body.timer,
                        self.server.timing,
                        code=c,
                        public=body.public,
                        lang=body.lang,
                        profile=profile,
                    )
                )
            except RoomChanged:
                continue
            break
        else:
            raise RoomError("no free room code; try again", code="room_changed")
        await self.server.bus.watch(room.code)  # no other server has it yet: nothing missed
        self.server.add(room)
        return room, token

    async def open_rooms(self) -> list[dict[str, Any]]:
        """The public rooms strangers may join, most recently made first, as the store
        has them (every server of a cluster lists the same), read at most once a
        ``LIST_FRESH`` seconds."""
        at, rooms = self.listed
        now = clock_now()  # the rooms' clock: a test stops it (``clock.frozen``)
        if 0 <= now - at < self.fresh:  # (a list read before a test froze it is old)
            return rooms
        self.server.check_store()
        rows = await self.server.io(self.server.store.public_rooms, 4 * LIST_LENGTH)
        rooms = [x for x in (listing(r.code, r.data) for r in rows) if x is not None]
        # a lobby whose host left never starts: not offered (known for this server's rooms)
        here = self.server.rooms
        rooms = [x for x in rooms if x["code"] not in here or not host_gone(here[x["code"]])]
        self.listed = (now, rooms[:LIST_LENGTH])
        return self.listed[1]

    async def public_rooms(self, request: Request) -> dict[str, Any]:
        if not self.list_window.allow(address(request.client)):
            raise RoomError("too many requests; wait a minute", code="rate_limited")
        return {"rooms": await self.open_rooms()}

    async def quick_play(self, body: m.QuickPlay, request: Request) -> dict[str, Any]:
        """A seat for someone who just wants to play: the open public room of this game
        with the most people waiting (in their language first, then the oldest), or,
        when there is none, a new public room of it, theirs to start with bots in the
        empty seats or to wait in for others (issue 49 item 3)."""
        addr = address(request.client)
        refusal = m.name_refusal(body.name, [])
        if refusal is not None:
            raise RoomError(refusal[1], code=refusal[0])
        check_room_options(body.preset, {})
        from_preset(body.preset, {})  # an unknown preset: bad_preset, before any quota
        if not self.server.join_window.allow(addr):
            raise RoomError("too many attempts; wait a minute", code="rate_limited")
        profile = await self.profile_of(body.profile, addr)
        self.listed = (-LIST_FRESH, [])  # a seat taken a moment ago must not be offered
        rooms = [r for r in await self.open_rooms() if r["preset"] == body.preset]
        rooms.sort(key=lambda r: (r["lang"] != body.lang, r["free"], r["created"]))
        for listed in rooms[:5]:
            room = await self.server.find(listed["code"])
            if room is None or not room.is_public or host_gone(room):
                continue
            try:
                room, seat, token = await self.server.master.join(room, body.name, profile)
            except RoomError as e:
                if e.code in ("room_full", "room_started", "name_taken", "profile_seated"):
                    continue  # taken meanwhile, or someone of that name sits there
                raise
            return {
                "code": room.code,
                "seat": seat,
                "token": token,
                "link": f"/r/{room.code}",
                "created": False,
            }
        if not self.server.room_window.allow(addr):
            raise RoomError("too many rooms from here; wait a while", code="rate_limited")
        new = m.CreateRoom(name=body.name, preset=body.preset, public=True, lang=body.lang)
        room, token = await self.new_room(new, profile)
        return {
            "code": room.code,
            "seat": 0,
            "token": token,
            "link": f"/r/{room.code}",
            "created": True,
        }

    # ------------------------------------------------------------ profiles ---
    async def profile_of(self, token: str | None, addr: str) -> tuple[str, str] | None:
        """The (id, colour) of the profile ``token`` holds; None without a token;
        ``bad_profile`` for a token the store does not know (the profile is lost)."""
        if token is None:
            return None
        row = await self.server.io(self.server.store.profile_by_token, token_hash(token))
        if row is None:
            self.server.join_window.allow(addr)  # a wrong token counts, as a guess
            raise RoomError("this browser's profile is not known here", code="bad_profile")
        return row["id"], row["color"]

    async def new_profile(self, body: m.NewProfile, request: Request) -> dict[str, Any]:
        refusal = m.name_refusal(body.name, [])
        if refusal is not None:
            raise RoomError(refusal[1], code=refusal[0])
        self.server.check_store()
        if not self.profile_window.allow(address(request.client)):
            raise RoomError("too many profiles from here; wait a while", code="rate_limited")
        token = new_token()
        for _ in range(5):  # an id taken: astronomically rare
            row = profiles.new_row(
                profiles.new_profile_id(), body.name, body.color, body.listed, time.time()
            )
            if await self.server.io(self.server.store.create_profile, token_hash(token), row):
                return {"token": token, "profile": profiles.public(row)}
        raise RoomError("no free profile id; try again", code="room_changed")

    async def my_profile(self, body: m.MyProfile, request: Request) -> dict[str, Any]:
        """``{"profile": ...}``, the profile a token holds, changed if the body says how;
        ``{"profile": null}`` when the server does not know the token (the page asks
        this at each visit: a lost profile is an answer, not an error, so nothing is
        logged as failed), ``bad_profile`` when a change was asked with it."""
        addr = address(request.client)
        if self.server.join_window.full(addr):
            raise RoomError("too many attempts; wait a minute", code="rate_limited")
        changes = {
            k: v
            for k, v in (("name", body.name), ("color", body.color), ("listed", body.listed))
            if v is not None
        }
        row = await self.server.io(self.server.store.profile_by_token, token_hash(body.token))
        if row is None:
            self.server.join_window.allow(addr)  # a wrong token counts, as a guess
            if changes:
                raise RoomError("this browser's profile is not known here", code="bad_profile")
            return {"profile": None}
        pid = row["id"]
        if "name" in changes:
            refusal = m.name_refusal(str(changes["name"]), [])
            if refusal is not None:
                raise RoomError(refusal[1], code=refusal[0])
        if changes:
            await self.server.io(self.server.store.update_profile, pid, changes)
        row = await self.server.io(self.server.store.load_profile, pid)
        return {"profile": None if row is None else profiles.public(row, own=True)}

    async def profile_page(self, pid: str, request: Request) -> dict[str, Any]:
        addr = address(request.client)
        self.probing(addr)
        row = None
        if len(pid) <= 20 and pid.isalnum():
            row = await self.server.io(self.server.store.load_profile, pid.upper())
        if row is None:
            self.server.lookup_window.allow(addr)
            raise RoomError("there is no such profile", code="no_profile")
        return profiles.public(row)

    async def leaderboard(self, request: Request) -> dict[str, Any]:
        if not self.list_window.allow(address(request.client)):
            raise RoomError("too many requests; wait a minute", code="rate_limited")
        rows = await self.server.io(self.server.store.leaderboard, 50)
        return {"profiles": [{**profiles.public(r), "history": None} for r in rows]}

    async def qr_code(self, code: str, request: Request) -> Response:
        """The room's link as a QR code (SVG, drawn here: the page fetches nothing from
        elsewhere), for a friend's phone across the table."""
        room = await self.look_up(code, address(request.client))
        link = str(request.base_url).rstrip("/") + f"/r/{room.code}"
        return Response(qr_svg(link), media_type="image/svg+xml")

    def probing(self, addr: str) -> None:
        """Refuse every look-up from an address that looked up too many codes that do
        not exist (guessing codes), whether the code exists or not."""
        if self.server.lookup_window.full(addr):
            raise RoomError("too many rooms not found; wait a minute", code="rate_limited")

    async def look_up(self, code: str, addr: str) -> Room:
        """The room of ``code``; a code that does not exist counts for its address."""
        self.probing(addr)
        try:
            room = await self.server.find(room_code(code))
        except RoomError:
            room = None
        if room is None:
            self.server.lookup_window.allow(addr)
            raise RoomError(f"there is no room {code.upper()[:10]}", code="no_room")
        return room

    async def room_info(self, code: str, request: Request) -> dict[str, Any]:
        return (await self.look_up(code, address(request.client))).public(None)

    async def join(self, code: str, body: m.JoinRoom, request: Request) -> dict[str, Any]:
        addr = address(request.client)
        if not self.server.join_window.allow(addr):
            return error(429, "rate_limited", "too many attempts; wait a minute")  # type: ignore[return-value]
        room = await self.look_up(code, addr)
        profile = await self.profile_of(body.profile, addr)
        room, seat, token = await self.server.master.join(room, body.name, profile)
        return {"code": room.code, "seat": seat, "token": token, "link": f"/r/{room.code}"}

    async def record(
        self, code: str, request: Request, game: Annotated[int | None, Query(ge=0, le=10**9)] = None
    ) -> Response:
        addr = address(request.client)
        self.probing(addr)
        code = room_code(code)
        room = self.server.rooms.get(code)
        if game is None:
            game = room.game_no if room is not None else 1
        text = await self.server.io(self.server.store.record, code, game)  # off the loop
        if text is None:
            return await self.no_record(code, game, addr, "record")
        return PlainTextResponse(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="uno-{code}-{game}.json"'},
        )

    async def replayed(self, text: str, view: str | None, addr: str) -> Response:
        if not self.replay_window.allow(addr):
            raise RoomError("too many replays from here; wait a minute", code="rate_limited")
        # the replay and its encoding (tens of MB for a long game with every hand open)
        # both run in a worker thread: the loop goes on serving the rooms meanwhile
        body = await asyncio.to_thread(replay_body, text, view)
        return Response(body, media_type="application/json")

    async def replay_record(
        self, request: Request, view: Annotated[str | None, Query(max_length=12)] = None
    ) -> Response:
        """A record sent by the page (a downloaded game, a file dropped on it)."""
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.server.limits.record_bytes:
                return error(413, "too_big", "the record is too big to replay here")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("the record is not UTF-8 text") from None
        return await self.replayed(text, view, address(request.client))

    async def replay_room_game(
        self,
        code: str,
        request: Request,
        game: Annotated[int, Query(ge=0, le=10**9)] = 1,
        view: Annotated[str | None, Query(max_length=12)] = None,
    ) -> Response:
        """A finished game of a room, by its link (``/replay?room=CODE&game=N``)."""
        addr = address(request.client)
        self.probing(addr)
        code = room_code(code)
        text = await self.server.io(self.server.store.record, code, game)  # off the loop
        if text is None:
            return await self.no_record(code, game, addr, "replay")
        return await self.replayed(text, view, addr)

    async def no_record(self, code: str, game: int, addr: str, what: str) -> Response:
        """Why a room's game has no record: still being played, no such game, or no such
        room at all (issue 49: a code never made was answered "no such game in this
        room"); a guess at codes counts against the address's lookups."""
        room = self.server.rooms.get(code)
        if room is not None and room.status == "playing" and game == room.game_no:
            return error(409, "game_in_progress", f"the {what} is ready when the game ends")
        if room is None:
            self.server.lookup_window.allow(addr)
            if await self.server.io(self.server.store.load_room, code) is None:
                return error(404, "no_room", f"there is no room {code}")
        return error(404, "no_record", "no such game in this room")


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code in SVG (segno), dark on white with its quiet zone, so it
    reads on either theme of the page."""
    import io

    import segno

    out = io.BytesIO()
    segno.make_qr(text, error="m").save(
        out,
        kind="svg",
        scale=4,
        border=4,
        dark="#111",
        light="#fff",
        xmldecl=False,
        svgclass="qr",
        title="Room link",
    )
    return out.getvalue()


HOST_GRACE = 30.0  # seconds a new room's host has to open its page


def host_gone(room: Room) -> bool:
    """Whether a lobby's host has left (only the host starts it): no connection to
    their seat here or on another server, after they had one or after the grace a
    new room's host has to open its page."""
    seat = room.seats[room.host]
    if seat is None or seat.connected > 0 or room.host in room.elsewhere:
        return False
    return seat.away_since is not None or time.time() - room.created > HOST_GRACE
