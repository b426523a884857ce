"""Faults in a real cluster (issue 35 item 7): ``unokit serve`` processes on a throwaway
PostgreSQL and redis-server behind nginx (scripts/cluster.py), all on 127.0.0.1.

* Two processes race for one version of a room: exactly one action is stored, the other
  client is refused (``room_changed`` or ``stale_version``) and sent a fresh view, and
  every server then serves the game the store's log replays to.
* A process killed with ``kill -9`` mid-game: its player reconnects with the same token
  through the proxy to another process and resumes the seat; the room's bots, which
  the dead process drove, move again once its lease lapses (within 10 s).
* PostgreSQL stopped: moves are refused with ``storage_unavailable``, nothing
  acknowledged is lost, and once it is back play resumes by itself.
* Redis killed: no connection is ever sent a wrong view (its versions never go back,
  every view is the store's replay at that version) and all are brought up to date
  when Redis returns.

In every test every state frame of every client is checked against the store's log:
its view is exactly the view its seat has of the game the log replays to at that
version, and the same as the view of that game with every card the seat cannot see
dealt again (``helpers.hidden_cards_dealt_again``): a client on one server is never
sent another seat's hand.  benchmarks/chaos_cluster.py runs the same clients for longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers import hidden_cards_dealt_again
from server_helpers import choose
from test_server import check_frames
from unokit.engine.view import view_of
from unokit.server.room import Room
from unokit.server.store import MemoryStore, RoomRow

ROOT = Path(__file__).resolve().parent.parent
# bots quick but not instant; a game long enough that no test reaches its end
TIMING = {"bot_delay": 0.05, "catch_window": 0.05, "autopilot_after": 30.0, "next_round": 0.2}
REFUSED_FAIRLY = ("stale_version", "room_changed")  # a race lost: a fresh view follows
OVER = ("round_over", "game_over")


def cluster_module() -> Any:
    """scripts/cluster.py, imported by path (as benchmarks/loadtest.py does)."""
    name = "unokit_cluster"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts/cluster.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def services_missing() -> str | None:
    cl = cluster_module()
    try:
        cl.pg_binaries()
        cl.program("redis-server")
        cl.program("nginx")
    except cl.ClusterError as e:
        return str(e)
    return None


# ------------------------------------------------------------------ the store -----
def pg_query(c: Any, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(c.pg.url, autocommit=True, connect_timeout=5) as conn:
        return list(conn.execute(sql, args).fetchall())  # type: ignore[arg-type]


def store_log(c: Any, code: str, game: int = 1) -> list[dict[str, Any]]:
    rows = pg_query(
        c, "SELECT entry FROM log WHERE code = %s AND game = %s ORDER BY idx", (code, game)
    )
    return [r[0] for r in rows]


def store_room(c: Any, code: str) -> dict[str, Any]:
    return dict(pg_query(c, "SELECT data FROM rooms WHERE code = %s", (code,))[0][0])


def store_version(entries: list[dict[str, Any]]) -> int:
    return sum(1 for e in entries if e["t"] in ("round", "act"))


class _Replaying(MemoryStore):
    """A store that has one room and a prefix of its log."""

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        super().__init__()
        self.entries = entries

    def log(self, code: str, game: int) -> list[dict[str, Any]]:
        return list(self.entries)


class Replay:
    """The store's log of one game played again: every seat's (and a spectator's) view
    at every version, and the game there (for the hidden cards dealt again)."""

    def __init__(self, code: str, data: dict[str, Any], entries: list[dict[str, Any]]) -> None:
        first = next(i for i, e in enumerate(entries) if e["t"] == "round")
        row = RoomRow(code, {**data, "status": "playing"})
        store = _Replaying(entries[: first + 1])
        store.save_room(row)
        room = Room.restore(row, store)
        assert room.match is not None
        self.n = room.match.game.n
        self.views: dict[int, list[dict[int | None, Any]]] = {}
        self.games: dict[int, Any] = {}
        self._keep(room)
        for e in entries[first + 1 :]:
            room.catch_up([e])
            self._keep(room)
        self.version = room.match.version

    def _keep(self, room: Room) -> None:
        assert room.match is not None
        game = room.match.game
        v = room.match.version
        seen = {s: view_of(game, s).to_json() for s in [None, *range(self.n)]}
        self.views.setdefault(v, []).append(seen)
        self.games[v] = game.copy()

    def check(self, frame: dict[str, Any], seat: int | None, rng: random.Random) -> str | None:
        """None if ``frame`` (a state message for ``seat``) is right, else why not."""
        v = frame["version"]
        if v not in self.views:
            return f"version {v} is not in the store's log (it has {self.version})"
        if not any(frame["view"] == seen[seat] for seen in self.views[v]):
            return f"the view of seat {seat} at version {v} is not the store's"
        game = self.games[v]
        if not game.round_over:  # a finished round shows every hand (R-SCORE-1)
            other = hidden_cards_dealt_again(game, seat, rng)
            if view_of(other, seat).to_json() != frame["view"]:
                return f"the view of seat {seat} at version {v} depends on hidden cards"
        return None


def replay_of(c: Any, code: str, game: int = 1) -> Replay:
    return Replay(code, store_room(c, code), store_log(c, code, game))


# ------------------------------------------------------------------ clients -------
@dataclass
class Ack:
    code: str
    game: int
    version: int  # the version it made
    action: dict[str, Any]  # the log's form, with the seat


@dataclass
class Player:
    """A scripted client that reconnects by itself as the web client does (its token,
    its last sequence number; 0.3 s, then doubling up to 5 s) and keeps every frame.

    ``urls``: where it connects, the first time and every time after (a server, or the
    proxy).  An action is acknowledged when no error came before the pong of the ping
    sent right after it: the server handled the act before the ping, so the state of
    the version it made (which includes it) was sent before the pong too.
    """

    urls: list[str]
    code: str
    seat: int | None
    token: str | None
    acks: list[Ack] = field(default_factory=list)
    plays: bool = True
    local: str | None = None  # source address (127.0.0.N: one per player, as people)
    think: float = 0.0
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[tuple[float, str]] = field(default_factory=list)
    state: dict[str, Any] | None = None
    last_seq: int | None = None
    game: int | None = None
    connects: int = 0
    lost: list[float] = field(default_factory=list)  # when a connection ended
    seated: list[float] = field(default_factory=list)  # first state after each welcome
    welcomed: list[int | None] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # client-side exceptions
    stop: bool = False
    paused: bool = False
    tries: int = 0
    ws: Any = None

    @property
    def version(self) -> int:
        return self.state["version"] if self.state else 0

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        while not self.stop:
            url = self.urls[min(self.connects, len(self.urls) - 1)]
            self.connects += 1
            kw: dict[str, Any] = {"open_timeout": 5, "max_size": 2**22}
            if self.local:
                kw["local_addr"] = (self.local, 0)
            try:
                async with connect(f"{url}/{self.code}", **kw) as ws:
                    self.ws = ws
                    hello: dict[str, Any] = {"type": "hello"}
                    if self.token:
                        hello["token"] = self.token
                    if self.last_seq is not None:
                        hello.update(last_seq=self.last_seq, game=self.game)
                    await ws.send(json.dumps(hello))
                    await self.play(ws)
            except (TimeoutError, OSError):
                pass
            except Exception as e:
                if (
                    "ConnectionClosed" not in type(e).__name__
                    and "InvalidStatus" not in type(e).__name__
                ):
                    self.failures.append(repr(e))
            finally:
                if self.ws is not None:
                    self.lost.append(time.monotonic())
                self.ws = None
            if not self.stop:
                await asyncio.sleep(min(5.0, 0.3 * 2**self.tries))
                self.tries += 1

    async def play(self, ws: Any) -> None:
        sent: tuple[int, int, dict[str, Any], float] | None = None
        refused = False
        welcomed = False
        retry_at = 0.0
        while not self.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.3)
            except TimeoutError:
                raw = None
            now = time.monotonic()
            if raw is not None:
                msg = json.loads(raw)
                self.frames.append(msg)
                t = msg["type"]
                if t == "welcome":
                    welcomed = True
                    self.tries = 0
                    self.welcomed.append(msg["seat"])
                elif t == "state":
                    if welcomed:
                        self.seated.append(now)
                        welcomed = False
                    self.state = msg
                    self.last_seq, self.game = msg["seq"], msg["game"]
                elif t == "error":
                    self.errors.append((now, msg["code"]))
                    refused = True
                    if msg["code"] not in REFUSED_FAIRLY:  # try again in a moment
                        retry_at = now + 0.5
                elif t == "pong" and sent is not None:
                    if not refused:
                        game, version, action, _ = sent
                        self.acks.append(
                            Ack(self.code, game, version + 1, {**action, "seat": self.seat})
                        )
                    sent = None
            if sent is not None and now - sent[3] > 5.0:
                sent = None  # no pong: the connection is going; never counted
            if (
                sent is None
                and self.plays
                and not self.paused
                and self.state is not None
                and now >= retry_at
            ):
                st = self.state
                action = choose(st["view"]) if st["view"]["phase"] not in OVER else None
                if action is not None and not st["outcome"]["round_over"]:
                    if self.think:
                        await asyncio.sleep(self.think * random.random())
                        if self.paused:  # paused while it thought: nothing is sent
                            continue
                    sent = (st["game"], st["version"], action, time.monotonic())
                    refused = False
                    await ws.send(
                        json.dumps({"type": "act", "version": st["version"], "action": action})
                    )
                    await ws.send('{"type":"ping"}')


def check_acks(entries: list[dict[str, Any]], acks: list[Ack]) -> list[str]:
    """Every acknowledged action is in the log (``entries``: one game's), at the
    version it made."""
    ordered = [e for e in entries if e["t"] in ("round", "act")]
    lost = []
    for a in acks:
        i = a.version - 1
        if i >= len(ordered) or ordered[i] != {"t": "act", "a": a.action}:
            lost.append(f"{a} is not in the log")
    return lost


def check_views(p: Player, replay: Replay, rng: random.Random, game: int = 1) -> list[str]:
    """What ``p`` was sent, against the store: no other seat's hand, no wrong view,
    no version going back."""
    bad: list[str] = []
    last = -1
    for f in p.frames:
        if f["type"] != "state" or f["game"] != game:
            continue
        if f["version"] < last:
            bad.append(f"seat {p.seat}: version {f['version']} after {last}")
        last = max(last, f["version"])
        why = replay.check(f, p.seat, rng)
        if why:
            bad.append(why)
    if any(f["type"] == "state" for f in p.frames):
        check_frames(p)  # type: ignore[arg-type]  # seat, hand sizes, private events
    return bad


async def servers_agree(c: Any, code: str, timeout: float = 10.0) -> None:
    """A spectator on every server, each told the store's last version and its view:
    every server holds the game the store's log replays to."""
    rng = random.Random(7)
    watchers = [Player([a.url.replace("http", "ws") + "/ws"], code, None, None, plays=False)
                for a in c.apps]  # fmt: skip
    tasks = [asyncio.create_task(w.run()) for w in watchers]
    try:
        end = time.monotonic() + timeout
        while True:
            replay = await asyncio.to_thread(replay_of, c, code)
            if all(w.version == replay.version for w in watchers):
                break
            if time.monotonic() > end:
                raise AssertionError(
                    f"servers at versions {[w.version for w in watchers]}, "
                    f"the store at {replay.version}"
                )
            await asyncio.sleep(0.2)
        for i, w in enumerate(watchers):
            assert w.state is not None
            assert w.state["view"] == replay.views[replay.version][-1][None], f"server {i}"
            assert check_views(w, replay, rng) == []
    finally:
        for w in watchers:
            w.stop = True
        await asyncio.gather(*tasks)


async def make_room(
    base: str, seats: int, bots: list[str | None], people: int, local: str | None = None
) -> tuple[str, list[str]]:
    """A room created through ``base`` (host in seat 0) and ``people - 1`` more joined;
    the game to 5,000 points, so no test reaches its end."""
    transport = httpx.AsyncHTTPTransport(local_address=local) if local else None
    async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as http:
        body = {"name": "P0", "seats": seats, "bots": bots, "options": {"target_score": 5000}}
        r = await http.post("/api/rooms", json=body)
        assert r.status_code == 200, r.text
        code, tokens = r.json()["code"], [r.json()["token"]]
        for i in range(1, people):
            j = await http.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})
            assert j.status_code == 200, j.text
            tokens.append(j.json()["token"])
    return code, tokens


async def wait_for(cond: Any, timeout: float, what: str) -> float:
    """Until ``cond()``; the seconds it took."""
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        await asyncio.sleep(0.05)
    return time.monotonic() - t0


def ws_of(app: Any) -> str:
    return f"ws://127.0.0.1:{app.port}/ws"


@contextlib.asynccontextmanager
async def live_cluster(n: int = 3) -> Any:
    cl = cluster_module()
    c = await asyncio.to_thread(cl.start, n, None, {"UNOKIT_TIMING": json.dumps(TIMING)}, False)
    try:
        yield c
    finally:
        await asyncio.to_thread(c.stop)
        assert c.running() == []


def tracebacks(c: Any) -> str:
    out = []
    for a in c.apps:
        text = Path(a.log).read_text(errors="replace") if Path(a.log).exists() else ""
        if "Traceback" in text:
            out.append(f"{a.name}:\n{text[-3000:]}")
    return "\n".join(out)


async def start_game(players: list[Player]) -> list[asyncio.Task[None]]:
    tasks = [asyncio.create_task(p.run()) for p in players]
    host = players[0]
    await wait_for(lambda: host.ws is not None and host.welcomed, 10, "the host's welcome")
    await host.ws.send('{"type":"start"}')
    await wait_for(lambda: all(p.state is not None for p in players), 10, "every first view")
    return tasks


async def finish(players: list[Player], tasks: list[asyncio.Task[None]]) -> None:
    for p in players:
        p.stop = True
    await asyncio.wait_for(asyncio.gather(*tasks), 15)


# services: make test installs PostgreSQL, redis-server and nginx (scripts/machine.sh),
# so a machine without them fails here saying what to install; it never skips
pytestmark = [pytest.mark.asyncio, pytest.mark.services]


@pytest.fixture(autouse=True)
def _services() -> None:
    missing = services_missing()
    if missing is not None:
        pytest.fail(f"{missing} (make test installs them: scripts/machine.sh)")


# ------------------------------------------------------------------ the tests -----
async def test_two_processes_racing_for_one_version_store_exactly_one() -> None:
    """Seat 0 holds two tabs, one on server 0 and one on server 1; at each of its turns
    both send a different move for the same version at once.  Exactly one is stored
    each time; the other tab is refused (``stale_version``: its server lost at the
    store, or the winner's entry reached it first) and then sent the
    version that includes the winner's move; every server ends with the store's game."""
    rng = random.Random(1)
    async with live_cluster(3) as c:
        code, (t0, t1) = await make_room(c.apps[0].url, 2, [], 2)
        tab_a = Player([ws_of(c.apps[0])], code, 0, t0, plays=False)
        tab_b = Player([ws_of(c.apps[1])], code, 0, t0, plays=False)
        ben = Player([ws_of(c.apps[2])], code, 1, t1, think=0.01)
        tasks = await start_game([tab_a, tab_b, ben])
        races: list[tuple[int, int, int]] = []  # version, errors of tab a, of tab b
        conflicts = 0
        end = time.monotonic() + 25
        while len(races) < 12 and time.monotonic() < end:
            v = max(tab_a.version, tab_b.version, ben.version)
            await wait_for(lambda v=v: tab_a.version == tab_b.version == v, 10, "both tabs")
            view = tab_a.state["view"]  # type: ignore[index]
            if view["current"] != 0 or view["phase"] in OVER:
                await next_version(tab_a, v)
                continue
            legal = [a for a in view["legal"] if "catch" not in a]
            first, second = legal[0], legal[-1]
            ea, eb = len(tab_a.errors), len(tab_b.errors)
            await asyncio.gather(
                tab_a.ws.send(json.dumps({"type": "act", "version": v, "action": first})),
                tab_b.ws.send(json.dumps({"type": "act", "version": v, "action": second})),
            )
            await wait_for(
                lambda v=v: tab_a.version > v and tab_b.version > v, 10, "the race's result"
            )
            await asyncio.sleep(0.1)  # a refusal, if any, has arrived
            new_a = [e for _, e in tab_a.errors[ea:]]
            new_b = [e for _, e in tab_b.errors[eb:]]
            entries = await asyncio.to_thread(store_log, c, code)
            ordered = [e for e in entries if e["t"] in ("round", "act")]
            stored = ordered[v]["a"]
            assert stored["seat"] == 0
            wire = {k: x for k, x in stored.items() if k != "seat"}
            assert wire in (first, second), (stored, first, second)
            if first != second:  # the refused one is not in the log, the winner is
                loser_errors = new_b if wire == first else new_a
                winner_errors = new_a if wire == first else new_b
                assert winner_errors == [], (new_a, new_b)
                assert len(loser_errors) == 1 and loser_errors[0] in REFUSED_FAIRLY, (new_a, new_b)
            else:  # the same move from both: one stored, one refused
                both = new_a + new_b
                assert len(both) == 1 and both[0] in REFUSED_FAIRLY, (new_a, new_b)
            conflicts += "room_changed" in new_a + new_b
            races.append((v, len(new_a), len(new_b)))
        assert len(races) >= 8, races
        ben.paused = True
        await asyncio.sleep(0.5)
        await servers_agree(c, code)
        replay = await asyncio.to_thread(replay_of, c, code)
        for p in (tab_a, tab_b, ben):
            assert check_views(p, replay, rng) == []
        assert check_acks(await asyncio.to_thread(store_log, c, code), ben.acks) == []
        await finish([tab_a, tab_b, ben], tasks)
        assert tracebacks(c) == ""
        print(f"races {len(races)}, lost at the store (room_changed) {conflicts}")


async def next_version(p: Player, v: int) -> None:
    """Until ``p`` is past version ``v`` (another seat's turn, or a round's end)."""
    await wait_for(lambda: p.version > v, 10, "the next version")


async def test_a_process_killed_mid_game_its_player_resumes_elsewhere_and_its_bots_move_again() -> (
    None
):
    """Ana and two bots play on server 0 alone (it holds the room's lease: its bots are
    driven there).  kill -9 of server 0: Ana reconnects through the proxy with her
    token to another process and is back in seat 0 within 5 s; the bots move again
    within 10 s (the lease, 5 s, lapses and another process takes the room); nothing
    Ana saw acknowledged is lost, and every view she was sent is the store's."""
    rng = random.Random(2)
    async with live_cluster(3) as c:
        code, (token,) = await make_room(c.apps[0].url, 3, ["normal", "normal"], 1)
        ana = Player([ws_of(c.apps[0]), c.ws], code, 0, token, think=0.02)
        tasks = await start_game([ana])
        await wait_for(lambda: ana.version >= 20, 20, "20 versions before the kill")
        before = await asyncio.to_thread(store_log, c, code)
        assert any(e["t"] == "act" and e["a"]["seat"] != 0 for e in before)  # bots move
        holder = await asyncio.to_thread(
            pg_query, c, "SELECT holder, token FROM leases WHERE code = %s", (code,)
        )
        killed = time.monotonic()
        await asyncio.to_thread(c.apps[0].kill)
        # counted after the kill: server 0's bots may have moved since ``before`` was read
        n = len(await asyncio.to_thread(store_log, c, code))

        def bots_moved() -> bool:
            entries = store_log(c, code)
            return any(e["t"] == "act" and e["a"]["seat"] != 0 for e in entries[n:])

        back = await wait_for(lambda: len(ana.seated) >= 2, 10, "Ana back in her seat")
        assert ana.welcomed[-1] == 0  # the same seat, through the proxy, on another process
        bots_s = 0.0
        while not await asyncio.to_thread(bots_moved):
            bots_s = time.monotonic() - killed
            assert bots_s <= 10, "the bots did not move again within 10 s"
            await asyncio.sleep(0.1)
        bots_s = time.monotonic() - killed
        after = await asyncio.to_thread(
            pg_query, c, "SELECT holder, token FROM leases WHERE code = %s", (code,)
        )
        assert after and after[0][0] != holder[0][0]  # another process holds the lease
        v = ana.version
        await wait_for(lambda: ana.version >= v + 10, 20, "play goes on")
        acks_after = [a for a in ana.acks if a.version > v]
        assert acks_after  # her seat is hers: her moves are accepted
        await asyncio.to_thread(c.restart, 0)
        ana.paused = True
        await asyncio.sleep(0.5)
        await servers_agree(c, code)
        entries = await asyncio.to_thread(store_log, c, code)
        assert check_acks(entries, ana.acks) == []
        assert check_views(ana, replay_of(c, code), rng) == []
        assert [e for _, e in ana.errors if e not in REFUSED_FAIRLY] == []
        await finish([ana], tasks)
        print(f"back in seat {back:.2f} s after the kill; bots moved again after {bots_s:.2f} s")


async def test_postgresql_stopped_moves_are_refused_nothing_acknowledged_is_lost() -> None:
    """Ana (server 0), Ben (server 1) and a bot.  PostgreSQL stops for 3 s: moves are
    refused with ``storage_unavailable`` and none is acknowledged; every action
    acknowledged before is in the log afterwards; when PostgreSQL is back, play
    resumes without anyone reconnecting or doing anything."""
    rng = random.Random(3)
    async with live_cluster(2) as c:
        code, (t0, t1) = await make_room(c.apps[0].url, 3, [None, "normal"], 2)
        ana = Player([ws_of(c.apps[0])], code, 0, t0, think=0.02)
        ben = Player([ws_of(c.apps[1])], code, 1, t1, think=0.02)
        tasks = await start_game([ana, ben])
        await wait_for(lambda: ana.version >= 15, 20, "15 versions")
        # stop it on Ana's turn (a bot does not move without the store: its server
        # holds no lease then), so that she has a move to make during the outage
        ana.paused = True

        def anas_turn() -> bool:
            return (
                ana.state is not None
                and ana.state["view"]["current"] == 0
                and ana.state["view"]["phase"] not in OVER
            )

        while True:  # her turn, and no move of hers in flight (sent just before the pause)
            await wait_for(anas_turn, 20, "Ana's turn")
            v = ana.version
            await asyncio.sleep(0.5)
            if ana.version == v and anas_turn():
                break
        acked = len(ana.acks) + len(ben.acks)
        await asyncio.to_thread(c.pg.stop, "fast")
        down_at = time.monotonic()
        ana.paused = False
        # her move is refused at once (within about a second: the store waits
        # UNREACHABLE_WAIT for a connection once PostgreSQL is known to be away)
        refused_in = await wait_for(
            lambda: any(
                e == "storage_unavailable" and t > down_at for p in (ana, ben) for t, e in p.errors
            ),
            4.0,
            "a refusal",
        )
        await asyncio.sleep(max(0.0, 3.0 - (time.monotonic() - down_at)))
        during = len(ana.acks) + len(ben.acks)
        refused = [e for p in (ana, ben) for t, e in p.errors if t > down_at]
        await asyncio.to_thread(c.pg.start)
        up_at = time.monotonic()
        # acknowledged in the outage: only what was in flight as it began (a commit
        # PostgreSQL made before it stopped); nothing after its first refusal
        first_refusal = min(
            (t for p in (ana, ben) for t, e in p.errors if e == "storage_unavailable"),
            default=None,
        )
        assert first_refusal is not None, refused
        assert "storage_unavailable" in refused
        late = [a for p in (ana, ben) for a in p.acks[:]]  # checked against the log below
        v = max(ana.version, ben.version)
        resumed = await wait_for(
            lambda: min(ana.version, ben.version) >= v + 6, 20, "play resumes by itself"
        )
        assert ana.connects == ben.connects == 1  # nobody had to reconnect
        ana.paused = ben.paused = True
        await asyncio.sleep(0.5)
        entries = await asyncio.to_thread(store_log, c, code)
        assert check_acks(entries, late) == []
        replay = await asyncio.to_thread(replay_of, c, code)
        for p in (ana, ben):
            assert check_views(p, replay, rng) == []
            assert [
                e for _, e in p.errors if e not in (*REFUSED_FAIRLY, "storage_unavailable")
            ] == []
        await servers_agree(c, code)
        await finish([ana, ben], tasks)
        print(
            f"acknowledged before {acked}, during the outage {during - acked}; first refusal "
            f"{refused_in:.2f} s after the stop; refusals "
            f"{sorted(set(refused))}; play resumed {resumed:.2f} s after PostgreSQL "
            f"({up_at - down_at:.1f} s down)"
        )


async def test_redis_killed_no_wrong_view_and_connections_resync_when_it_returns() -> None:
    """Ana (server 0), Ben (server 1), two bots and a spectator (server 2).  Redis is
    killed for 3 s while they play: the servers order the room through the store and
    catch up on conflicts, so no client is ever sent a wrong view or a version that
    goes back; when Redis returns every connection is brought to the store's version."""
    rng = random.Random(4)
    async with live_cluster(3) as c:
        code, (t0, t1) = await make_room(c.apps[0].url, 4, [None, "normal", "normal"], 2)
        ana = Player([ws_of(c.apps[0])], code, 0, t0, think=0.02)
        ben = Player([ws_of(c.apps[1])], code, 1, t1, think=0.02)
        spy = Player([ws_of(c.apps[2])], code, None, None, plays=False)
        tasks = await start_game([ana, ben, spy])
        await wait_for(lambda: spy.version >= 15, 20, "15 versions")
        assert c.redis is not None
        await asyncio.to_thread(c.redis.kill)
        await asyncio.sleep(3.0)
        frames_during = len(ana.frames) + len(ben.frames)
        await asyncio.to_thread(c.redis.start)
        cl = cluster_module()
        await wait_for(lambda: cl._redis_ok(c.redis.port), 10, "redis back")
        v = max(ana.version, ben.version, spy.version)
        await wait_for(lambda: min(ana.version, ben.version) >= v + 5, 20, "play after redis")
        ana.paused = ben.paused = True
        await asyncio.sleep(0.5)  # the bots play up to a person's turn

        def synced() -> bool:
            final = store_version(store_log(c, code))
            return ana.version == ben.version == spy.version == final

        took = 0.0
        t = time.monotonic()
        while not await asyncio.to_thread(synced):
            took = time.monotonic() - t
            assert took < 10, [ana.version, ben.version, spy.version]
            await asyncio.sleep(0.2)
        replay = await asyncio.to_thread(replay_of, c, code)
        for p in (ana, ben, spy):
            assert check_views(p, replay, rng) == []
            assert [e for _, e in p.errors if e not in REFUSED_FAIRLY] == []
        assert check_acks(await asyncio.to_thread(store_log, c, code), ana.acks + ben.acks) == []
        await servers_agree(c, code)
        await finish([ana, ben, spy], tasks)
        assert tracebacks(c) == ""
        print(f"frames during the outage {frames_during}; all in sync {took:.2f} s after")
