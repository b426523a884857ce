"""Hostile input against the server: every message a client can send, broken every way.

The server must answer each message without a server error (no 500, no unexpected
exception: ``Server.errors`` stays 0), change nothing when it refuses a message (the
room's row, the game's record and its version compared before and after), send no
connection a card it may not know, and the game in progress must still play to its
end afterwards.  ``make fuzz`` (benchmarks/fuzz.py) runs the same harness over
100,000+ messages; these tests run a few thousand so ``make test`` stays quick.

Structure-aware: Hypothesis strategies build messages of every type with wrong types,
missing and extra fields, huge numbers and strings, deep nesting; random byte
mutations of real captured traffic give invalid UTF-8, truncations and splices; real
actions are replayed on the wrong connection (another seat, another room, a finished
game) and with stale and future versions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from test_pgstore import pg, pg_url  # noqa: F401  (the throwaway PostgreSQL's fixtures)
from unokit.match import Timing
from unokit.record import dumps
from unokit.server.app import create_app
from unokit.server.limits import Limits
from unokit.server.store import MemoryStore

TYPES = ["hello", "act", "chat", "start", "add_bot", "kick", "end", "next_round", "rematch"]
ACTION_KEYS = ["play", "cards", "color", "target", "uno", "draw", "keep", "catch", "challenge",
               "accept", "seat"]  # fmt: skip
CARD_WORDS = ["R7", "G+2", "W", "W+4", "BS", "YR", "X9", "r7", "", "R" * 50, "W+4 B"]
# no clock-driven change: rounds start when the harness says, nobody is autopiloted,
# so a state change during a refusal can only come from the refused message
FUZZ_TIMING = Timing(bot_delay=0.0, catch_window=0.0, autopilot_after=1e9, next_round=1e9)
FUZZ_LIMITS = Limits(
    messages_per_second=1e9,
    chat_per_minute=10**9,
    joins_per_address_per_minute=10**9,
    rooms_per_address_per_hour=10**9,
    connections_per_address=10**6,
)


# ----------------------------------------------------------------------- harness ----
@dataclass
class Link:
    """One websocket of the harness; ``seat`` None is a spectator."""

    ws: Any
    seat: int | None
    code: str
    received: list[dict[str, Any]] = field(default_factory=list)
    last_state: dict[str, Any] | None = None

    def exchange(self, raw: str | bytes) -> list[dict[str, Any]]:
        """Send ``raw``, then a ping; everything the server answered before the pong."""
        if isinstance(raw, bytes):
            self.ws.send_bytes(raw)
        else:
            self.ws.send_text(raw)
        return self.sync(pongs=1 + is_ping(raw))

    def sync(self, pongs: int = 1) -> list[dict[str, Any]]:
        self.ws.send_text('{"type":"ping"}')
        out = []
        while True:
            msg = self.ws.receive_json()
            if msg.get("type") == "pong":
                pongs -= 1
                if pongs == 0:
                    break
                continue
            out.append(msg)
            if msg.get("type") == "state":
                self.last_state = msg
        self.received += out
        return out


def is_ping(raw: str | bytes) -> bool:
    """Whether the server takes ``raw`` for a ping (then two pongs come back)."""
    from unokit.server import messages as m

    try:
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
        return size <= m.MAX_MESSAGE and isinstance(m.CLIENT.validate_json(raw), m.Ping)
    except ValueError:
        return False


class Harness:
    """An in-process server (memory store, no bots, no timers) and its clients."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.server = client.app.state.server  # type: ignore[attr-defined]
        self.leaks: list[str] = []
        self.changed_on_refusal: list[str] = []
        self.messages = 0

    def room(
        self, seats: int = 2, preset: str = "classic", options: dict[str, Any] | None = None
    ) -> tuple[str, list[str]]:
        body = {"name": "Host", "seats": seats, "preset": preset, "bots": [], "options": options}
        r = self.client.post("/api/rooms", json={k: v for k, v in body.items() if v is not None})
        assert r.status_code == 200, r.text
        code = r.json()["code"]
        tokens = [r.json()["token"]]
        for i in range(1, seats):
            j = self.client.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})
            assert j.status_code == 200, j.text
            tokens.append(j.json()["token"])
        return code, tokens

    @contextmanager
    def link(self, code: str, token: str | None, seat: int | None) -> Iterator[Link]:
        with self.client.websocket_connect(f"/ws/{code}") as ws:
            hello: dict[str, Any] = {"type": "hello"}
            if token is not None:
                hello["token"] = token
            ws.send_text(json.dumps(hello))
            link = Link(ws, seat, code)
            link.sync()
            yield link

    def snapshot(self, code: str) -> tuple[Any, ...]:
        room = self.server.rooms[code]
        match = room.match
        return (
            json.dumps(room.to_row().data, sort_keys=True),
            None if match is None else match.version,
            None if match is None else dumps(match.game),
            None if match is None else sorted(match.passed),
        )

    def check_leaks(self, link: Link, msgs: list[dict[str, Any]]) -> None:
        room = self.server.rooms.get(link.code)
        for msg in msgs:
            if msg.get("type") != "state":
                continue
            view = msg["view"]
            if view["seat"] != link.seat:
                self.leaks.append(f"seat {link.seat} got the view of seat {view['seat']}")
            if link.seat is None and (view["hand"] is not None or view["legal"]):
                self.leaks.append("a spectator got a hand or legal actions")
            for ev in msg["events"]:
                if ev["kind"] in ("deal", "draw") and "cards" in ev and ev["seat"] != link.seat:
                    self.leaks.append(f"seat {link.seat} saw the cards of seat {ev['seat']}")
            if "hands" in msg and not msg["outcome"]["round_over"]:
                self.leaks.append("every hand was sent before the round ended")
        # the latest view of a seat holds exactly that seat's hand (nothing moved since)
        if room is not None and room.match is not None and link.last_state is not None:
            state = link.last_state
            if link.seat is not None and state["version"] == room.match.version:
                from unokit.cards import CARD_CODE

                true = sorted(CARD_CODE[c] for c in room.match.game.hands[link.seat])
                if sorted(state["view"]["hand"]) != true:
                    self.leaks.append(f"seat {link.seat}'s view holds another hand")

    def hostile(
        self, link: Link, raw: str | bytes, others: list[Link] = ()
    ) -> list[dict[str, Any]]:  # type: ignore[assignment]
        """Send one hostile message; a refusal must change nothing."""
        before = self.snapshot(link.code)
        answers = link.exchange(raw)
        self.messages += 1
        refused = any(a.get("type") == "error" for a in answers)
        accepted = any(a.get("type") == "state" and a["version"] != before[1] for a in answers)
        if refused and not accepted:
            after = self.snapshot(link.code)
            if after != before:
                diff = [i for i in range(len(after)) if after[i] != before[i]]
                self.changed_on_refusal.append(
                    f"{raw!r:.200} seat {link.seat} answers {answers!r:.300} changed {diff}"
                )
        self.check_leaks(link, answers)
        return answers


@pytest.fixture
def harness() -> Iterator[Harness]:
    app = create_app(MemoryStore(), timing=FUZZ_TIMING, limits=FUZZ_LIMITS)
    with TestClient(app) as client:
        yield Harness(client)


# ----------------------------------------------------------------------- messages ---
def json_values(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.text(max_size=30)
        | st.sampled_from(CARD_WORDS)
    )
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(ACTION_KEYS + TYPES + ["x"]), inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


def actions() -> st.SearchStrategy[Any]:
    return st.dictionaries(st.sampled_from(ACTION_KEYS), json_values(3), max_size=4) | json_values()


def messages() -> st.SearchStrategy[dict[str, Any]]:
    """Message-shaped objects of every type, with wrong, missing and extra fields."""
    fields = {
        "token": json_values(2),
        "last_seq": st.integers(-(2**64), 2**64) | json_values(2),
        "game": st.integers(-(2**64), 2**64) | json_values(2),
        "version": st.integers(-(2**64), 2**64) | json_values(2),
        "action": actions(),
        "text": st.text(max_size=300) | json_values(2),
        "seat": st.integers(-(2**40), 2**40) | json_values(2),
        "level": st.sampled_from(["easy", "normal", "hard", "godlike", ""]) | json_values(2),
        "extra": json_values(2),
    }
    return st.builds(
        lambda t, fs: {"type": t, **fs},
        st.sampled_from([*TYPES, "ping", "", "ACT", "act "]) | json_values(1),
        st.fixed_dictionaries({}, optional=fields),
    )


def deep(n: int) -> str:
    return "[" * n + "]" * n


SPECIAL: list[str | bytes] = [
    "",
    "null",
    "[]",
    "{}",
    '"act"',
    "1e999999",
    "-" + "9" * 4000,
    deep(500),
    deep(3000),
    '{"type":"act","version":1,"action":' + deep(1000) + "}",
    '{"type":"chat","text":"' + "x" * 5000 + '"}',
    '{"type":"chat","text":"' + "é" * 2100 + '"}',
    '{"type":"act","version":0,"action":{"play":"R7"},"type":"chat"}',
    '{"type":"chat","text":"<script>alert(1)</script>"}',
    '{"type":"chat","text":"\\u0000\\u001b[2J"}',
    '{"type":"hello","token":"x"}',
    '{"type":"act","version":1e400,"action":{}}',
    '{"type":"act","version":true,"action":{"draw":true}}',
    '{"type":"act","version":"1","action":{"draw":true}}',
    '{"type":"kick","seat":-1}',
    '{"type":"add_bot","seat":0,"level":"hard"}',
    b"\xff\xfe\xfd",
    b'{"type":"chat","text":"\xc3\x28"}',
    b"\x00" * 100,
    b"{" * 4097,
    "\ud800".encode("utf-8", "surrogatepass"),
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """A random byte-level mutation of captured traffic."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:  # flip a bit
            j = min(i, len(b) - 1)
            b[j] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert random bytes
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2 and b:  # delete a slice
            del b[i : i + rng.randint(1, 8)]
        elif op == 3:  # truncate
            del b[i:]
        elif op == 4 and b:  # duplicate a chunk
            j = rng.randrange(len(b))
            b[i:i] = b[j : j + rng.randint(1, 40)]
        elif op == 5:  # an interesting number or token
            b[i:i] = rng.choice([b"-1", b"99999999999999999999", b"1e308", b"null", b'"', b"\\u"])
        elif op == 6 and b:  # replace a byte with a JSON structural character
            j = min(i, len(b) - 1)
            b[j] = rng.choice(b'{}[]:,"\\')
    return bytes(b)


def send_raw(link: Link, data: bytes, rng: random.Random) -> str | bytes:
    """Text when the bytes are UTF-8 (mostly), else a binary frame."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return text if rng.random() < 0.8 else data


# ----------------------------------------------------------------------- the run ----
@dataclass
class FuzzReport:
    messages: int = 0
    server_errors: int = 0
    http_500: int = 0
    leaks: list[str] = field(default_factory=list)
    changed_on_refusal: list[str] = field(default_factory=list)
    games_finished: int = 0
    games: int = 0


def legal_act(link: Link) -> dict[str, Any] | None:
    state = link.last_state
    if state is None or not state["view"]["legal"]:
        return None
    legal = state["view"]["legal"]
    plays = [a for a in legal if "play" in a or "cards" in a]
    action = (plays or legal)[0]
    return {"type": "act", "version": state["version"], "action": action}


def play_out(h: Harness, links: list[Link], max_steps: int = 5000) -> bool:
    """Play legal moves (and the next rounds) until the game is over."""
    host = links[0]
    room = h.server.rooms[host.code]
    for _ in range(max_steps):
        if room.status == "over":
            return True
        game = room.match.game
        if game.round_over:
            host.exchange('{"type":"next_round"}')
            for link in links[1:]:
                link.sync()
            continue
        seat = room.match.next_to_ask()
        link = next(x for x in links if x.seat == seat)
        link.sync()
        msg = legal_act(link)
        if msg is None:
            from unokit.engine.view import view_of

            true = view_of(room.match.game, seat)
            raise AssertionError(
                f"seat {seat} is asked but its view has no legal action: {link.last_state!r:.600}"
                f" / the server's view of it: legal {true.legal}, phase {true.phase}, "
                f"current {true.current}, passed {room.match.passed}, status {room.status}, "
                f"version {room.match.version}"
            )
        answers = link.exchange(json.dumps(msg))
        assert not any(a.get("type") == "error" for a in answers), answers
        for other in links:
            if other is not link:
                h.check_leaks(other, other.sync())
    return room.status == "over"


def run_fuzz(
    h: Harness,
    n: int,
    seed: int,
    preset: str = "classic",
    seats: int = 3,
    target_score: int = 100,
) -> FuzzReport:
    """``n`` hostile messages against a game in progress, then the game plays to its end.

    Includes: random messages (Hypothesis strategies, drawn with ``example``-free
    sampling), mutations of captured traffic, the special cases above, another seat's
    and another room's real actions, stale and future versions, a spectator acting and
    chatting, and messages for a finished game.
    """
    rng = random.Random(seed)
    code, tokens = h.room(seats, preset, {"target_score": target_score})
    code2, tokens2 = h.room(2, "classic")
    report = FuzzReport()
    with (
        h.link(code, tokens[0], 0) as host,
        h.link(code2, tokens2[0], 0) as other_host,
        h.link(code, None, None) as spectator,
    ):
        with h.link(code2, tokens2[1], 1) as other_guest:
            other_host.exchange('{"type":"start"}')
            other_guest.sync()
            # a finished game to send things to
            other_host.exchange('{"type":"end"}')
            other_guest.sync()
        with h.link(code, tokens[1], 1) as p1:
            extra = [h.link(code, tokens[i], i) for i in range(2, seats)]
            links = [host, p1] + [cm.__enter__() for cm in extra]
            try:
                host.exchange('{"type":"start"}')
                for link in [*links[1:], spectator]:
                    link.sync()
                captured: list[bytes] = []
                for _i in range(n):
                    # the host could end the game or kick a guest for real (an accepted
                    # change, not an attack): it sends only the refusable kinds below
                    link = rng.choice([*links[1:], spectator, other_host])
                    kind = rng.random()
                    target = rng.choice(links)
                    if rng.random() < 0.1:
                        target.sync()
                    real = legal_act(target)
                    if real is not None:
                        captured.append(json.dumps(real).encode())
                    if kind < 0.3:
                        raw: str | bytes = json.dumps(random_message(rng), default=str)
                    elif kind < 0.55 and captured:
                        raw = send_raw(link, mutate(rng.choice(captured), rng), rng)
                    elif kind < 0.62:
                        raw = rng.choice(SPECIAL)
                    elif kind < 0.85 and real is not None:
                        # a real action: replayed on another connection, or with a
                        # stale or future version, or sent by its own seat (accepted)
                        msg = dict(real)
                        r = rng.random()
                        if r < 0.15:
                            link = target  # its own seat: may be accepted, fine
                        elif r < 0.45:
                            msg["version"] = msg["version"] + rng.choice([-2, -1, 1, 2, 10**6])
                            link = target
                        raw = json.dumps(msg)
                    elif kind < 0.9:
                        link = rng.choice([host, *links[1:], spectator])
                        raw = json.dumps(
                            rng.choice(
                                [
                                    {"type": "chat", "text": "hi " * rng.randint(1, 80)},
                                    {"type": "kick", "seat": rng.choice([-1, 0, seats, 10, 12])},
                                    {"type": "add_bot", "seat": rng.randint(0, 9)},
                                    {"type": "next_round"},
                                    {"type": "rematch"},
                                    {"type": "start"},
                                    {"type": "hello", "token": rng.choice(tokens)},
                                ]
                            )
                        )
                    else:
                        raw = rng.choice(captured) if captured else "{}"
                    h.hostile(link, raw)
                    if link is not spectator and rng.random() < 0.05:
                        h.check_leaks(spectator, spectator.sync())
                    if rng.random() < 0.02:  # keep the game moving between attacks
                        play_some(h, links, rng.randint(1, 6))
                    report.messages += 1
                report.games += 1
                report.games_finished += play_out(h, links)
                for link in [*links, spectator]:
                    h.check_leaks(link, link.sync())
            finally:
                for cm in extra:
                    cm.__exit__(None, None, None)
    report.server_errors = h.server.errors
    report.leaks = h.leaks
    report.changed_on_refusal = h.changed_on_refusal
    return report


def play_some(h: Harness, links: list[Link], steps: int) -> None:
    room = h.server.rooms[links[0].code]
    for _ in range(steps):
        if room.status != "playing" or room.match.game.round_over:
            return
        seat = room.match.next_to_ask()
        link = next(x for x in links if x.seat == seat)
        link.sync()
        msg = legal_act(link)
        if msg is None:
            return
        link.exchange(json.dumps(msg))


def random_json(rng: random.Random, depth: int = 3) -> Any:
    """A random JSON-ish value (the loop's cheap twin of ``json_values``)."""
    r = rng.random()
    if depth <= 0 or r < 0.55:
        return rng.choice(
            [
                None,
                True,
                False,
                0,
                -1,
                rng.randint(-(2**70), 2**70),
                rng.random() * 10 ** rng.randint(-5, 300),
                float("nan"),
                float("inf"),
                rng.choice(CARD_WORDS),
                "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 12))),
            ]
        )
    if r < 0.75:
        return [random_json(rng, depth - 1) for _ in range(rng.randint(0, 4))]
    keys = ACTION_KEYS + TYPES + ["x"]
    return {rng.choice(keys): random_json(rng, depth - 1) for _ in range(rng.randint(0, 4))}


def random_message(rng: random.Random) -> dict[str, Any]:
    """A message-shaped object (the loop's cheap twin of ``messages``)."""
    msg: dict[str, Any] = {"type": rng.choice([*TYPES, "ping", "", "ACT", 3, None])}
    for key in ["token", "last_seq", "game", "version", "action", "text", "seat", "level", "x"]:
        if rng.random() < 0.3:
            if key == "action" and rng.random() < 0.7:
                msg[key] = {rng.choice(ACTION_KEYS): random_json(rng, 1) for _ in range(3)}
            elif key in ("version", "seat", "last_seq", "game") and rng.random() < 0.6:
                msg[key] = rng.choice([-1, 0, 1, 2, 9, 10**8, 2**63, -(2**64)])
            else:
                msg[key] = random_json(rng, 2)
    if rng.random() < 0.2:
        msg.pop("type", None)
    return msg


def fuzz_http(h: Harness, n: int, seed: int) -> int:
    """Random bodies and paths for every HTTP endpoint; returns the count of 500s."""
    rng = random.Random(seed)
    code, _ = h.room(2)
    bad = 0
    for _ in range(n):
        body = random_json(rng, 4) if rng.random() < 0.6 else {
            "name": rng.choice(["", "x" * 30, "A\u0000", "ok", 5, None, "<b>x</b>"]),
            "preset": rng.choice(["classic", "nope", 7, "x" * 50]),
            "options": rng.choice([{}, {"stacking": True}, {"x": 1}, {"draw_until": 10**9}, []]),
            "seats": rng.choice([2, 4, 10, 11, 1, 0, -1, 10**12, "4", 4.5]),
            "bots": rng.choice([[], ["easy"], ["godlike"], [None] * 20, "x"]),
            "timer": rng.choice([0, 15, 7, "15"]),
        }  # fmt: skip
        path = rng.choice(
            [
                "/api/rooms",
                f"/api/rooms/{code}/join",
                f"/api/rooms/{code}",
                "/api/rooms/ZZZZZZ/join",
                f"/api/rooms/{code}/record",
                f"/api/rooms/{code}/record?game=-1",
                "/api/rooms/%00%ff/join",
                "/api/rooms/" + "A" * 300,
            ]
        )
        if rng.random() < 0.7:
            r = h.client.post(path, content=json.dumps(body, default=str))
        else:
            r = h.client.get(path)
        bad += r.status_code >= 500
    return bad


# ----------------------------------------------------------------------- tests ------
def test_hostile_websocket_messages(harness: Harness) -> None:
    report = run_fuzz(harness, 1500, seed=1)
    assert report.messages == 1500
    assert report.server_errors == 0
    assert report.changed_on_refusal == []
    assert report.leaks == []
    assert report.games_finished == report.games == 1


@pytest.mark.parametrize("preset", ["seed-001-house", "party"])
def test_hostile_messages_other_presets(harness: Harness, preset: str) -> None:
    report = run_fuzz(harness, 300, seed=2, preset=preset, seats=4)
    assert report.server_errors == 0
    assert report.changed_on_refusal == []
    assert report.leaks == []
    assert report.games_finished == 1


def test_hostile_http_requests(harness: Harness) -> None:
    assert fuzz_http(harness, 250, seed=3) == 0
    assert harness.server.errors == 0


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(msg=messages())
def test_any_message_shape_is_answered(msg: dict[str, Any]) -> None:
    """Hypothesis, shrinking: whatever the shape, an answer and no server error."""
    h = _shared()
    link = h.shared_link  # type: ignore[attr-defined]
    answers = h.hostile(link, json.dumps(msg, default=str))
    assert h.server.errors == 0, msg
    assert h.changed_on_refusal == [], msg
    assert h.leaks == []
    assert answers or msg.get("type") in ("chat", "ping", "start", "next_round", "act"), msg


_SHARED: dict[str, Any] = {}


def _shared() -> Harness:
    """One server for all Hypothesis examples (a fresh one each would be slow)."""
    if "h" not in _SHARED:
        app = create_app(MemoryStore(), timing=FUZZ_TIMING, limits=FUZZ_LIMITS)
        client = TestClient(app)
        client.__enter__()
        h = Harness(client)
        code, tokens = h.room(2)
        cm = h.link(code, tokens[1], 1)  # a guest: cannot start or end the game
        link = cm.__enter__()
        host_cm = h.link(code, tokens[0], 0)
        host = host_cm.__enter__()
        host.exchange('{"type":"start"}')
        link.sync()
        h.shared_link = link  # type: ignore[attr-defined]
        _SHARED.update(h=h, cms=[cm, host_cm], client=client)
    h = _SHARED["h"]
    assert isinstance(h, Harness)
    return h


@pytest.fixture(scope="module", autouse=True)
def _close_shared() -> Iterator[None]:
    yield
    if "h" in _SHARED:
        for cm in reversed(_SHARED["cms"]):
            cm.__exit__(None, None, None)
        _SHARED["client"].__exit__(None, None, None)
        _SHARED.clear()


# ----------------------------------------------------------------------- auth, limits --
def tight_app(**limits: Any) -> TestClient:
    base = {**FUZZ_LIMITS.__dict__, **limits}
    return TestClient(create_app(MemoryStore(), timing=FUZZ_TIMING, limits=Limits(**base)))


def first(ws: Any) -> dict[str, Any]:
    msg = ws.receive_json()
    assert isinstance(msg, dict)
    return msg


def test_guessing_tokens_and_room_codes_is_rate_limited() -> None:
    with tight_app(joins_per_address_per_minute=5) as client:
        code = client.post("/api/rooms", json={"name": "Host", "seats": 4}).json()["code"]
        answers = []
        for i in range(8):  # token guesses over websockets count with joins
            with client.websocket_connect(f"/ws/{code}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": f"guess{i}"}))
                answers.append(first(ws)["code"])
        assert answers[:5] == ["bad_token"] * 5
        assert set(answers[5:]) == {"rate_limited"}
        r = client.post(f"/api/rooms/{code}/join", json={"name": "X"})
        assert r.status_code == 429
        assert client.get("/api/rooms/ZZZZZZ").status_code == 404  # codes reveal nothing


def test_a_token_works_only_for_its_seat_in_its_room(harness: Harness) -> None:
    code1, tokens1 = harness.room(2)
    code2, _ = harness.room(2)
    with harness.client.websocket_connect(f"/ws/{code2}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": tokens1[0]}))
        assert first(ws)["code"] == "bad_token"  # room 1's host token in room 2
    with harness.link(code1, tokens1[1], 1) as guest:
        assert guest.received[0] == {"type": "welcome", "seat": 1, "code": code1, "protocol": 1}
        answers = guest.exchange('{"type":"start"}')  # seat 1 is not the host
        assert answers[0]["code"] == "not_host"


def test_spectators_cannot_act_or_chat(harness: Harness) -> None:
    code, tokens = harness.room(2)
    with harness.link(code, tokens[0], 0) as host, harness.link(code, None, None) as spec:
        host.exchange('{"type":"start"}')
        spec.sync()
        assert spec.last_state is not None, spec.received
        state = spec.last_state
        assert state["view"]["hand"] is None and state["view"]["legal"] == []
        from unokit.engine.view import view_of

        match = harness.server.rooms[code].match
        seat = match.next_to_ask()
        legal = view_of(match.game, seat).legal[0].to_wire()  # the seat to act's real move
        real = {"type": "act", "version": match.version, "action": legal}
        for raw in [json.dumps(real), '{"type":"chat","text":"I am the host"}',
                    '{"type":"next_round"}', '{"type":"start"}']:  # fmt: skip
            answers = harness.hostile(spec, raw)
            assert answers and answers[0]["type"] == "error", raw
        assert harness.changed_on_refusal == []
        host.sync()
        assert not any(m.get("type") == "chat" for m in host.received)


def test_cross_site_websockets_are_refused() -> None:
    with tight_app() as client:
        code = client.post("/api/rooms", json={"name": "Host", "seats": 2}).json()["code"]
        from starlette.websockets import WebSocketDisconnect

        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(
                f"/ws/{code}", headers={"origin": "https://evil.example"}
            ) as ws,
        ):
            ws.receive_json()
        assert refused.value.code == 1008
        # the page's own origin is accepted
        with client.websocket_connect(f"/ws/{code}", headers={"origin": "http://testserver"}) as ws:
            ws.send_text('{"type":"hello"}')
            assert first(ws)["type"] == "welcome"


def test_limits_on_size_rate_connections_rooms_chat_and_names() -> None:
    with tight_app(
        messages_per_second=5.0,
        connections_per_address=3,
        rooms_per_address_per_hour=2,
        chat_per_minute=3,
    ) as client:
        r1 = client.post("/api/rooms", json={"name": "Host", "seats": 2})
        assert r1.status_code == 200
        assert client.post("/api/rooms", json={"name": "Host", "seats": 2}).status_code == 200
        assert client.post("/api/rooms", json={"name": "Host", "seats": 2}).status_code == 429
        code, token = r1.json()["code"], r1.json()["token"]
        for name in ["x" * 21, "a\u0007b", "", "   "]:
            r = client.post(f"/api/rooms/{code}/join", json={"name": name})
            assert r.status_code == 400, name
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            first(ws)
            ws.send_text('{"type":"chat","text":"' + "x" * 5000 + '"}')
            codes = []
            for _ in range(12):  # a burst over 2 x 5 messages: the bucket refuses some
                ws.send_text('{"type":"chat","text":"hi"}')
            seen = 0
            while seen < 13:
                msg = first(ws)
                if msg["type"] in ("error", "chat"):
                    seen += 1
                    codes.append(msg.get("code", "chat"))
            assert codes[0] == "too_big"
            assert "rate_limited" in codes
            assert codes.count("chat") <= 3  # chat lines per minute
            with client.websocket_connect(f"/ws/{code}"), client.websocket_connect(f"/ws/{code}"):
                from starlette.websockets import WebSocketDisconnect

                with (
                    pytest.raises(WebSocketDisconnect) as refused,
                    client.websocket_connect(f"/ws/{code}") as ws4,
                ):
                    ws4.receive_json()
                assert refused.value.code == 1013  # connections per address


def test_security_headers_and_no_secret_in_urls(harness: Harness) -> None:
    r = harness.client.get("/")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    made = harness.client.post("/api/rooms", json={"name": "Host", "seats": 2}).json()
    assert made["token"] not in made["link"]  # the link to share holds the code only
    assert (
        harness.client.post("/api/rooms", json={"name": "Host"}).headers["x-content-type-options"]
        == "nosniff"
    )


@pytest.mark.services
def test_hostile_websocket_messages_on_postgresql_and_redis(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """The same hostile traffic against a cluster's server: its store PostgreSQL
    (shared, as `unokit serve --bus` opens it) and its bus Redis (issue 35 item 7).
    Refusals change nothing (the room's row, record, version and pass set, compared
    before and after each), no server error, no leak, and the game still ends."""
    from test_bus import RedisServer
    from unokit.server.bus import RedisBus
    from unokit.server.pgstore import PostgresStore

    url: str = request.getfixturevalue("pg_url")  # (test_pgstore's fixtures, imported)
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    try:
        store = PostgresStore(url, shared=True)
        app = create_app(
            store, timing=FUZZ_TIMING, limits=FUZZ_LIMITS, bus=RedisBus(redis_server.url)
        )
        with TestClient(app) as client:
            report = run_fuzz(Harness(client), 400, seed=4)
        assert report.messages == 400
        assert report.server_errors == 0
        assert report.changed_on_refusal == []
        assert report.leaks == []
        assert report.games_finished == report.games == 1
    finally:
        redis_server.stop()
