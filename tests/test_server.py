"""The multiplayer server over real websockets on 127.0.0.1 (issue: `unokit serve`).

Protocol refusals each check that nothing changed; whole games end with a downloaded
record that replays to the server's final state; the kill -9 test restarts a real
server process from its SQLite log.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_helpers import (
    Client,
    Harness,
    Subprocess,
    act,
    bare_server,
    choose,
    play_out,
    running,
    self_step,
)
from unokit.cards import CARD_CODE
from unokit.engine.view import view_of
from unokit.match import Timing
from unokit.record import loads, replay
from unokit.server.room import CODE_ALPHABET
from unokit.server.store import SQLiteStore

pytestmark = pytest.mark.asyncio

FAST_TIMER = Timing(
    bot_delay=0.0, catch_window=0.05, turn_timer=0.2, autopilot_after=0.3, next_round=0.05
)


def snapshot(h: Harness, code: str) -> Any:
    room = h.server.rooms[code]
    g = room.match.game if room.match else None
    return (
        room.status,
        room.match.version if room.match else None,
        json.dumps(g.state_json(), sort_keys=True) if g else None,
        [(s.name, s.kind) if s else None for s in room.seats],
    )


async def test_code_and_token_shape() -> None:
    async with running() as h:
        r = await h.room()
        assert len(r["code"]) == 6 and all(ch in CODE_ALPHABET for ch in r["code"])
        assert len(r["token"]) >= 22  # token_urlsafe(24): 192 bits
        room = h.server.rooms[r["code"]]
        assert r["token"] not in json.dumps(room.to_row().data)  # only its hash is kept
        info = (await h.get(f"/api/rooms/{r['code']}")).json()
        assert "token" not in json.dumps(info)


async def test_two_people_and_a_bot_play_a_whole_game_and_the_record_replays() -> None:
    async with running() as h:
        r = await h.room(seats=3, bots=["normal"], preset="my-first-uno")
        code = r["code"]
        b = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
        watcher = await Client(f"{h.ws}/{code}").connect()
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None)
        room = h.server.rooms[code]
        await play_out([ana, ben], lambda: room.status == "over")
        for c in (ana, ben, watcher):
            await c.wait(lambda c=c: c.state is not None and c.state["outcome"]["game_over"])
        text = (await h.get(f"/api/rooms/{code}/record")).text
        result = replay(loads(text))
        assert result.ok
        assert result.game is not None and result.game.state_json() == room.match.game.state_json()
        # the seeds committed at each round start are revealed and match
        import hashlib

        for rs in ana.room["rounds"]:
            digest = hashlib.sha256(f"{rs['salt']}:{rs['seed']}".encode()).hexdigest()
            assert digest == rs["commitment"]
        assert [rd["seed"] for rd in json.loads(text)["rounds"]] == [
            rs["seed"] for rs in ana.room["rounds"]
        ]
        for c in (ana, ben, watcher):
            await c.close()


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("classic", {"target_score": 40}),
        ("party", {"target_score": 40}),
        ("seed-001-house", {"target_score": 40}),
        ("mattel-2018", {"target_score": 40}),
    ],
)
async def test_whole_games_under_presets_replay_to_the_servers_state(
    preset: str, options: dict[str, Any]
) -> None:
    async with running() as h:
        r = await h.room(seats=4, bots=["easy", None, "hard"], preset=preset, options=options)
        code = r["code"]
        b = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
        await ana.send({"type": "start"})
        room = h.server.rooms[code]
        await play_out([ana, ben], lambda: room.status == "over", limit=120)
        text = (await h.get(f"/api/rooms/{code}/record")).text
        result = replay(loads(text))
        assert result.ok, result.message
        assert result.game is not None and result.game.state_json() == room.match.game.state_json()
        assert room.match.game.game_over
        await ana.close()
        await ben.close()


async def test_refusals_change_nothing() -> None:
    async with running() as h:
        r = await h.room(seats=3, bots=["normal"])
        code = r["code"]
        b = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
        spy = await Client(f"{h.ws}/{code}").connect()
        # not the host
        await ben.send({"type": "start"})
        await ben.wait(lambda: any(e["code"] == "not_host" for e in ben.errors))
        assert h.server.rooms[code].status == "lobby"
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None and ben.state is not None)
        room = h.server.rooms[code]

        async def refused(c: Client, msg: Any, code_: str) -> None:
            await c.wait(lambda: c.state is not None)
            before = snapshot(h, code)
            n = len(c.errors)
            await c.send(msg)
            await c.wait(lambda: len(c.errors) > n)
            assert c.errors[-1]["code"] == code_, c.errors[-1]
            assert snapshot(h, code) == before

        # wait until a person must play: nothing moves until they do (no bot may react);
        # a Wild start card's colour is named first
        g = room.match.game
        for _ in range(20):
            await ana.wait(lambda: g.current in (0, 2) and g.vulnerable < 0)
            if g.phase == 0:
                break
            who = ana if g.current == 0 else ben
            v0 = room.match.version
            await who.wait(lambda who=who, v0=v0: who.state["version"] == v0)
            await who.act(view_of(g, g.current).legal[0].to_wire())
            await who.wait(lambda who=who, v0=v0: who.state["version"] > v0)
            await asyncio.sleep(0.05)
        assert g.phase == 0
        cur = ana if room.match.game.current == 0 else ben
        other = ben if cur is ana else ana
        v = room.match.version
        legal = view_of(room.match.game, cur.seat).legal
        good = legal[0].to_wire()

        def act(action: dict[str, Any], version: int = v) -> dict[str, Any]:
            return {"type": "act", "version": version, "action": action}

        await refused(
            other, {"type": "act", "version": v, "action": {"draw": True}}, "not_your_turn"
        )
        await refused(cur, act(good, v - 1), "stale_version")
        assert cur.frames[-1]["type"] == "state"  # the resync follows the refusal
        await refused(spy, {"type": "act", "version": v, "action": good}, "no_seat")
        await refused(spy, {"type": "chat", "text": "hi"}, "no_seat")
        await refused(cur, "{not json", "bad_message")
        await refused(cur, {"type": "act", "version": v, "action": good, "x": 1}, "bad_message")
        await refused(
            cur, {"type": "act", "version": v, "action": {**good, "seat": 1}}, "bad_action"
        )
        await refused(cur, {"type": "act", "version": v, "action": {"play": "ZZ"}}, "bad_action")
        await refused(cur, {"type": "act", "version": v, "action": {"catch": -1}}, "bad_target")
        await refused(cur, "x" * 10_000, "too_big")
        await refused(cur, {"type": "nonsense"}, "bad_message")
        await refused(cur, {"type": "act", "version": "1", "action": good}, "bad_message")
        held = {CARD_CODE[c] for c in room.match.game.hands[cur.seat]}
        missing = next(c for c in ("R0", "Y0", "G0", "B0", "W") if c not in held)
        await refused(
            cur,
            {
                "type": "act",
                "version": v,
                "action": {"play": missing, **({"color": "R"} if missing == "W" else {})},
            },
            "card_not_held",
        )
        await refused(ben, {"type": "kick", "seat": 1}, "not_host")
        # a bad token never gets a connection
        bad = await Client(f"{h.ws}/{code}", "not-a-token").connect()
        assert bad.errors and bad.errors[0]["code"] == "bad_token"
        # the game is over: actions are refused
        await ana.send({"type": "end"})
        await ana.wait(lambda: ana.room is not None and ana.room["status"] == "over")
        await refused(
            cur, {"type": "act", "version": room.match.version, "action": good}, "game_over"
        )
        assert h.server.errors == 0
        for c in (ana, ben, spy):
            await c.close()


async def test_no_message_holds_a_card_its_connection_may_not_know() -> None:
    """Every frame to every connection, over several games, against what the rules show.

    A seat may see its own cards (deal, draw, its hand), the public piles, cards played
    or discarded, and a challenged hand when it challenged; every hand once a round is
    over.  A spectator sees no hand at all before that.
    """
    async with running() as h:
        for preset, options in (("classic", {"target_score": 30}), ("party", {"target_score": 30})):
            r = await h.room(seats=4, bots=["hard", None, "normal"], preset=preset, options=options)
            code = r["code"]
            b = await h.join(code, "Ben")
            ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
            ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
            spy = await Client(f"{h.ws}/{code}").connect()
            await ana.send({"type": "start"})
            room = h.server.rooms[code]
            await play_out([ana, ben], lambda room=room: room.status == "over", limit=120)
            await asyncio.sleep(0.1)
            for c in (ana, ben, spy):
                check_frames(c)
                await c.close()


PRIVATE = {"deal", "draw", "hand"}


def check_frames(c: Client) -> None:
    seat = c.seat
    states = [f for f in c.frames if f["type"] == "state"]
    assert states
    for f in states:
        view = f["view"]
        if seat is None:
            assert view["hand"] is None and view["seat"] is None and view["legal"] == []
        else:
            assert view["seat"] == seat and len(view["hand"]) == view["hand_sizes"][seat]
        for e in f["events"]:
            if "cards" not in e:
                continue
            k = e["kind"]
            if k in PRIVATE:
                assert e["seat"] == seat, (seat, e)
            elif k == "reveal":
                assert seat is not None and seat != e["seat"], (seat, e)
        if "hands" in f:
            assert f["outcome"]["round_over"]
        text = json.dumps(f)
        assert '"hands"' not in text or f["outcome"]["round_over"]


async def test_simultaneous_catches_exactly_one_applies() -> None:
    async with running() as h:
        r = await h.room(seats=3)
        code = r["code"]
        b = await h.join(code, "Ben")
        c3 = await h.join(code, "Cy")
        clients = [await Client(f"{h.ws}/{code}", t["token"]).connect() for t in (r, b, c3)]
        await clients[0].send({"type": "start"})
        await clients[0].wait(lambda: all(c.state is not None for c in clients))
        room = h.server.rooms[code]
        g = room.match.game
        # Arrange a catchable seat: seat 2 holds one card and did not call UNO.
        if g.phase != 0:  # a Wild start card: its colour is named first
            chooser = clients[g.current]
            await chooser.act(view_of(g, g.current).legal[0].to_wire())
            await chooser.wait(lambda: g.phase == 0)
        g.hands[2] = g.hands[2][:1]
        g.vulnerable = 2
        room.match.resume_at(room.match.version + 1)
        h.server.broadcast(room)
        await clients[0].wait(lambda: clients[0].state["view"]["vulnerable"] == 2)
        await clients[1].wait(lambda: clients[1].state["view"]["vulnerable"] == 2)
        v = room.match.version
        await asyncio.gather(clients[0].act({"catch": 2}, v), clients[1].act({"catch": 2}, v))
        await clients[0].wait(lambda: len(g.hands[2]) == 3)
        await asyncio.sleep(0.1)
        catches = [e for e in (g.events or []) if e.kind == "catch"]
        assert len(catches) == 1
        refusals = [
            e for c in clients[:2] for e in c.errors if e["code"] in ("stale_version", "no_catch")
        ]
        assert len(refusals) == 1
        for c in clients:
            await c.close()


async def test_reconnect_resumes_with_what_was_missed() -> None:
    async with running() as h:
        r = await h.room(seats=3, bots=["normal", "normal"])
        code = r["code"]
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None)
        room = h.server.rooms[code]
        seen = ana.state["seq"]
        game_no = ana.state["game"]
        await ana.close()
        await asyncio.sleep(0.05)
        assert ana.room is not None
        # while away, the others see "reconnecting"; bots carry on if it is their turn
        info = (await h.get(f"/api/rooms/{code}")).json()
        assert info["seats"][0]["connected"] is False
        back = await Client(f"{h.ws}/{code}", r["token"]).connect(last_seq=seen, game=game_no)
        await back.wait(lambda: back.state is not None)
        seqs = [e["seq"] for e in back.state["events"]]
        assert all(s >= seen for s in seqs)
        assert back.state["view"]["hand"] == sorted_codes(room.match.game.hands[0])
        assert back.room["seats"][0]["connected"] is True
        await back.close()


def sorted_codes(hand: list[int]) -> list[str]:
    return [CARD_CODE[c] for c in sorted(hand)]


@pytest.mark.services
async def test_kill_9_restores_every_room_from_the_log(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc = Subprocess(db)
    proc.start()
    try:
        h = Harness(None, proc.port)
        r = await h.room(seats=3, bots=["normal"])
        code = r["code"]
        b = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None and ben.state is not None)
        acked: list[int] = []
        # play a few of our own moves, remembering every version we saw acknowledged
        for _ in range(12):
            for c in (ana, ben):
                st = c.state
                a = choose(st["view"]) if st else None
                if a is not None:
                    v = st["version"]
                    await c.act(a)
                    await c.wait(lambda c=c, v=v: c.state["version"] > v or bool(c.errors))
                    acked.append(c.state["version"])
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        last_ana = ana.state
        last_ben = ben.state
        proc.kill()
        await ana.wait(lambda: ana.closed)
        proc.start()
        ana2 = await Client(f"{h.ws}/{code}", r["token"]).connect(
            last_seq=last_ana["seq"], game=last_ana["game"]
        )
        ben2 = await Client(f"{h.ws}/{code}", b["token"]).connect()
        await ana2.wait(lambda: ana2.state is not None and ben2.state is not None)
        # every acknowledged action survived: same version, hands, turn and scores
        assert ana2.state["version"] == last_ana["version"] >= max(acked)
        for old, new in ((last_ana, ana2.state), (last_ben, ben2.state)):
            for key in ("hand", "hand_sizes", "top", "color", "current", "scores", "discard"):
                assert new["view"][key] == old["view"][key], key
        # and play carries on to the end of the game
        await ana2.send({"type": "end"})
        await ana2.wait(lambda: ana2.room is not None and ana2.room["status"] == "over")
        for c in (ana, ben, ana2, ben2):
            await c.close()
    finally:
        err = proc.stop()
    assert "Traceback" not in err, err
    store = SQLiteStore(db)
    assert store.record(code, 1) is not None
    store.close()


async def test_a_person_who_joins_with_a_bots_name_is_not_shown_twice() -> None:
    """The bot took "Ben (bot)" before Ben came; once Ben joins it takes another name,
    and the names the room shows (lobby, then the game) stay distinct."""
    async with running() as h:
        r = await h.room(seats=4, bots=["normal", "normal"])
        code = r["code"]
        info = (await h.get(f"/api/rooms/{code}")).json()
        assert "Ben (bot)" in [s["name"] for s in info["seats"] if s]
        await h.join(code, "ben")
        names = [s["name"] for s in (await h.get(f"/api/rooms/{code}")).json()["seats"] if s]
        assert len(names) == 4 and "ben" in names
        bases = [n.removesuffix(" (bot)").lower() for n in names]
        assert len(set(bases)) == 4, names
        (row,) = [x for x in h.server.store.load_rooms() if x.code == code]
        assert [s["name"] for s in row.data["seats"] if s] == names  # the new name was saved
        # a look-alike of a bot's name renames the bot too: "Cý" beside "Cy (bot)"
        # (issue 49: "Bén" sat beside "Ben (bot)")
        r = await h.room(seats=4, bots=["normal", "normal"])
        await h.join(r["code"], "C\u00fd")
        names = [s["name"] for s in (await h.get(f"/api/rooms/{r['code']}")).json()["seats"] if s]
        assert "Cy (bot)" not in names and "C\u00fd" in names, names


async def test_http_refusals_are_clear() -> None:
    async with running() as h:
        r = await h.post("/api/rooms", {"name": "Ana", "seats": 11})
        assert r.status_code == 400 and r.json()["code"] == "bad_request"
        r = await h.post("/api/rooms", {"name": "A\x07na"})
        assert r.status_code == 400
        r = await h.post("/api/rooms", {"name": "Ana", "preset": "nope"})
        assert r.status_code == 400 and r.json()["code"] == "bad_preset"
        r = await h.post("/api/rooms", {"name": "Ana", "options": {"uno_penalty": "x"}})
        assert r.status_code == 400
        r = await h.post("/api/rooms", {"name": "Ana", "surprise": 1})
        assert r.status_code == 400
        r = await h.post("/api/rooms/ZZZZZZ/join", {"name": "Ben"})
        assert r.status_code == 404 and r.json()["code"] == "no_room"
        r = await h.get("/api/rooms/../../etc")
        assert r.status_code == 404
        ok = await h.room(seats=2)
        r = await h.post(f"/api/rooms/{ok['code']}/join", {"name": "Ana"})
        assert r.json()["code"] == "name_taken"
        await h.join(ok["code"], "Ben")
        r = await h.post(f"/api/rooms/{ok['code']}/join", {"name": "Cy"})
        assert r.json()["code"] == "room_full"
        r = await h.get(f"/api/rooms/{ok['code']}/record")
        assert r.status_code == 404
        page = await h.get("/")
        for header in ("content-security-policy", "x-content-type-options", "referrer-policy"):
            assert header in page.headers
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert h.server.errors == 0


async def test_host_fills_seats_kicks_to_a_bot_and_the_kicked_token_stops_working() -> None:
    async with running() as h:
        r = await h.room(seats=3)
        code = r["code"]
        b = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
        await ana.send({"type": "add_bot", "seat": 1, "level": "hard"})
        await ana.wait(lambda: ana.errors != [] or (ana.room or {}).get("seats", [None])[2])
        assert ana.errors and ana.errors[-1]["code"] == "seat_taken"  # Ben took seat 1
        await ana.send({"type": "add_bot", "seat": 2, "level": "hard"})
        await ana.wait(lambda: ana.room["seats"][2] is not None)
        assert ana.room["seats"][2]["kind"] == "bot" and ana.room["seats"][2]["level"] == "hard"
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None)
        await ana.send({"type": "kick", "seat": 1})
        await ben.wait(lambda: any(e["code"] == "kicked" for e in ben.errors))
        await ana.wait(lambda: ana.room["seats"][1]["kind"] == "bot")
        again = await Client(f"{h.ws}/{code}", b["token"]).connect()
        assert again.errors and again.errors[0]["code"] == "bad_token"
        # the bot now plays seat 1: the game goes on without Ben
        room = h.server.rooms[code]
        await play_out([ana], lambda: room.match.game.round_over, limit=60)
        for c in (ana, ben, again):
            await c.close()


async def test_turn_timer_and_absent_players_get_the_autopilot() -> None:
    timing = FAST_TIMER
    async with running(timing=timing) as h:
        r = await h.room(seats=2, bots=["normal"], timer=15)
        code = r["code"]
        room = h.server.rooms[code]
        assert room.timing.turn_timer == 15.0  # the room's own timer setting
        room.timing = timing  # short, for the test: 0.2 s turns, 0.3 s away
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None)
        # Ana never acts: the timer plays for her, and the round goes on
        v0 = room.match.version
        await ana.wait(lambda: room.match.version > v0 + 4, timeout=20)
        await ana.close()
        # away longer than autopilot_after: her seat is on autopilot, shown to all
        for _ in range(100):
            info = (await h.get(f"/api/rooms/{code}")).json()
            if info["seats"][0]["autopilot"] or room.match.game.round_over:
                break
            await asyncio.sleep(0.05)
        assert info["seats"][0]["connected"] is False
        assert info["seats"][0]["autopilot"] or room.match.game.round_over
        back = await Client(f"{h.ws}/{code}", r["token"]).connect()
        await back.wait(lambda: back.room is not None and not back.room["seats"][0]["autopilot"])
        await back.close()


async def test_the_timed_full_collection_frees_cycles_the_tuned_thresholds_keep() -> None:
    """``unokit serve`` raises the collector's thresholds (latency) and runs a full
    collection on a timer instead; an old cycle, like a closed connection's transport,
    is freed by that timer and not left to the thresholds."""
    import gc
    import weakref

    from unokit.server.app import create_app
    from unokit.server.runtime import GC_THRESHOLDS
    from unokit.server.store import MemoryStore

    class Node:
        me: Any = None

    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        app = create_app(MemoryStore(), full_collection_seconds=0.2)
        server = app.state.server
        node = Node()
        node.me = node  # a cycle, only the cyclic collector frees it
        gone = weakref.ref(node)
        gc.collect()  # node survives: now in the oldest generation
        del node
        async with app.router.lifespan_context(app):
            await asyncio.sleep(0.1)
            assert gone() is not None and server.upkeep.full_collections == 0
            for _ in range(50):
                if gone() is None:
                    break
                await asyncio.sleep(0.05)
            assert gone() is None
            assert server.upkeep.full_collections >= 1 and server.upkeep.full_collection_max > 0
        assert server.upkeep.collector.done()  # stopped with the server
    finally:
        gc.set_threshold(*before)


def _scrambled(game: Any, seat: int | None, rng: Any) -> Any:
    """``game`` with every card ``seat`` cannot see (other hands, the draw pile) dealt
    again at random: the same public state, other hidden cards."""
    other = game.copy()
    other.events = game.events  # history: filtered per seat (checked card by card above)
    others = [s for s in range(game.n) if s != seat]
    pool = list(game.pile) + [c for s in others for c in game.hands[s]]
    rng.shuffle(pool)
    it = iter(pool)
    for s in others:
        other.hands[s] = [next(it) for _ in game.hands[s]]
    other.pile = list(it)
    if game.drawn >= 0 and game.current != seat:  # the drawn card is the drawer's secret
        other.drawn = other.hands[game.current][-1]
    return other


@pytest.mark.parametrize("preset", ["classic", "party", "seed-001-house"])
async def test_a_seats_messages_are_the_same_whatever_the_hidden_cards(preset: str) -> None:
    """The state message a connection gets (view, legal actions, outcome; events are
    checked card by card above) is built from what its seat may know: permuting the
    cards it cannot see, at random points of whole games, changes not one byte."""
    import random

    from unokit.server.room import Room
    from unokit.server.store import MemoryStore

    rng = random.Random(5)
    room, _ = Room.create(MemoryStore(), "Ana", preset, {"target_score": 300}, 4,
                          ["hard", "normal", "easy"], 0)  # fmt: skip
    room.start(0)
    server = bare_server(room.store)
    room.set_autopilot(0, True)  # the host's seat is played too
    assert room.match is not None
    checked = steps = 0
    while checked < 150 and steps < 20_000:  # game after game: their length is luck
        if room.status == "over":
            room.rematch(0)
            room.set_autopilot(0, True)
        game = room.match.game
        if game.round_over:
            await self_step(server, room)
            continue
        assert await self_step(server, room)
        steps += 1
        if steps % 3 or game.round_over:  # a finished round shows every hand (R-SCORE-1)
            continue
        for seat in [None, *range(game.n)]:
            real = json.dumps(room.state_for(seat, 0)[0], sort_keys=True)
            state = room.match.state
            room.match.state = dataclasses.replace(state, game=_scrambled(game, seat, rng))
            try:
                again = json.dumps(room.state_for(seat, 0)[0], sort_keys=True)
            finally:
                room.match.state = state
            assert again == real, (preset, seat, steps)
            checked += 1
    assert checked >= 150


async def test_closed_connections_are_freed_without_the_cyclic_collector() -> None:
    """``unokit serve`` collects the oldest generation rarely, so a closed connection
    must not need the collector: its transport is freed when the connection is lost
    (``release_closed_transports``, CPython gh-100348's fix on 3.11)."""
    import gc
    import weakref

    from unokit.server.runtime import release_closed_transports

    release_closed_transports()
    made: list[weakref.ref[Any]] = []

    class Echo(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            made.append(weakref.ref(transport))

    loop = asyncio.get_running_loop()
    server = await loop.create_server(Echo, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    gc.collect()
    gc.disable()
    try:
        for _ in range(20):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            await writer.wait_closed()
        for _ in range(100):
            if len(made) == 20 and all(r() is None for r in made):
                break
            await asyncio.sleep(0.01)
        assert len(made) == 20
        assert [r() for r in made] == [None] * 20  # freed by reference counting alone
    finally:
        gc.enable()
        server.close()
        await server.wait_closed()


async def test_the_store_numbers_each_games_log_and_keeps_one_counter_a_room(
    tmp_path: Path,
) -> None:
    """A room plays game after game for as long as the server runs: each game's log is
    numbered from 0, a reopened store goes on where the file ends, and the store's
    cache holds one counter a room, not one a game."""
    store = SQLiteStore(tmp_path / "s.sqlite3")
    for game in range(1, 51):
        for code in ("AAAAAA", "BBBBBB"):
            assert [store.append(code, game, {"i": i}) for i in range(3)] == [0, 1, 2]
    assert len(store._next) == 2
    assert store.log("AAAAAA", 7) == [{"i": 0}, {"i": 1}, {"i": 2}]
    store.close()
    again = SQLiteStore(tmp_path / "s.sqlite3")
    assert again.append("AAAAAA", 50, {"i": 3}) == 3  # after what the file holds
    assert again.append("AAAAAA", 51, {"i": 0}) == 0
    again.delete_room("AAAAAA")
    assert "AAAAAA" not in again._next and again.log("AAAAAA", 50) == []
    again.close()


class _RecordingStore(SQLiteStore):
    """A SQLite store that counts its transactions and can be told to fail."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.batches: list[int] = []
        self.fail = False

    def append_at(
        self, rows: list[tuple[str, int, int, dict[str, Any]]], holders: Any = ()
    ) -> list[bool | None]:
        from unokit.server.store import StoreError

        if self.fail:
            raise StoreError("storage failed: database or disk is full")
        self.batches.append(len(rows))
        return super().append_at(rows, holders)


@pytest.mark.parametrize("threaded", [True, False])
async def test_group_commit_shares_one_transaction_and_applies_only_what_it_stored(
    tmp_path: Path, threaded: bool
) -> None:
    """Actions of several rooms queued while a commit is due are committed in one
    transaction, and each is applied (``then``) only after it is in the file; when
    the store fails, every waiting room gets the error and nothing is applied; an
    entry whose index another server took is refused to its room alone."""
    from unokit.server.commit import GroupCommit
    from unokit.server.room import RoomChanged
    from unokit.server.store import StoreError

    store = _RecordingStore(tmp_path / "g.sqlite3")
    group = GroupCommit(store, threaded=threaded)
    group.start()
    applied: list[str] = []

    def then(code: str) -> Any:
        def apply() -> None:
            assert store.log(code, 1), "applied before its entry was stored"
            applied.append(code)

        return apply

    codes = [f"ROOM{i:02d}" for i in range(8)]
    await asyncio.gather(*(group.append(c, 1, 0, {"t": "act", "i": i}, then(c))
                           for i, c in enumerate(codes)))  # fmt: skip
    assert sorted(applied) == codes
    assert store.batches == [8] and group.commits == 1 and group.entries == 8
    assert [store.log(c, 1) for c in codes] == [[{"t": "act", "i": i}] for i in range(8)]

    store.fail = True
    results = await asyncio.gather(
        *(group.append(c, 1, 1, {"t": "act", "i": 99}, then(c)) for c in codes[:3]),
        return_exceptions=True,
    )
    assert all(isinstance(r, StoreError) for r in results)
    assert sorted(applied) == codes  # nothing more applied
    assert [len(store.log(c, 1)) for c in codes] == [1] * 8  # and nothing stored

    store.fail = False  # the cause went away: the committer goes on
    await group.append("ROOM00", 1, 1, {"t": "act", "i": 100}, then("ROOM00"))
    assert store.log("ROOM00", 1)[-1] == {"t": "act", "i": 100}

    # index 1 of ROOM00 is taken (another server): refused to ROOM00 only, in a batch
    taken, fresh = await asyncio.gather(
        group.append("ROOM00", 1, 1, {"t": "act", "i": 101}, then("ROOM00")),
        group.append("ROOM01", 1, 1, {"t": "act", "i": 102}, then("ROOM01")),
        return_exceptions=True,
    )
    assert isinstance(taken, RoomChanged) and taken.code == "room_changed" and fresh is None
    assert store.log("ROOM00", 1)[-1] == {"t": "act", "i": 100}
    assert store.log("ROOM01", 1)[-1] == {"t": "act", "i": 102}
    await group.close()
    store.close()


async def test_a_plain_action_does_not_resend_the_room_message_but_a_round_end_does() -> None:
    """The room message (seats, rounds and their seeds) goes out when it changes: not
    after every card, but when a round ends (its seed is revealed) or a seat is
    handed to the autopilot."""
    timing = Timing(bot_delay=0.0, catch_window=0.05, next_round=60.0)  # the round stays over
    async with running(timing=timing) as h:
        r = await h.room(seats=2, bots=["normal"])
        code = r["code"]
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        await ana.send({"type": "start"})
        await ana.wait(lambda: ana.state is not None)
        room = h.server.rooms[code]
        meta = h.server.meta[code]
        seen_rooms = len([m for m in ana.frames if m["type"] == "room"])
        done = lambda: room.match.game.round_over  # noqa: E731
        await play_out([ana], done)
        await ana.wait(lambda: ana.room is not None and "seed" in ana.room["rounds"][0])
        assert room.match.version > 4  # several actions were played
        rooms_after = [m for m in ana.frames if m["type"] == "room"]
        # the round's end changed the room message; the actions before it did not
        assert 1 <= len(rooms_after) - seen_rooms <= 2, len(rooms_after) - seen_rooms
        assert h.server.meta[code] - meta <= 2
        room.set_autopilot(0, True)
        h.server.broadcast(room)
        await ana.wait(lambda: ana.room["seats"][0]["autopilot"])
        await ana.close()


async def test_the_default_group_commit_uses_a_thread_only_when_commits_wait_for_the_disk(
    tmp_path: Path,
) -> None:
    """With ``--sync full`` a commit waits for an fsync, so it runs in a worker thread
    while the loop goes on; without, handing it to a thread costs more than it saves."""
    from unokit.server.app import Server
    from unokit.server.limits import Limits

    normal = Server(SQLiteStore(tmp_path / "n.sqlite3"), None, Limits())
    full = Server(SQLiteStore(tmp_path / "f.sqlite3", sync="full"), None, Limits())
    assert normal.commit_mode == "group-inline" and normal.group is not None
    assert not normal.group.threaded
    assert full.commit_mode == "group-thread" and full.group is not None and full.group.threaded
    assert Server(SQLiteStore(tmp_path / "e.sqlite3"), None, Limits(), "each").group is None
    with pytest.raises(ValueError):
        Server(SQLiteStore(tmp_path / "x.sqlite3"), None, Limits(), "sometimes")


async def test_an_idle_room_the_store_cannot_expire_stays_and_is_tried_again() -> None:
    """A failing store while an idle room is expired: the room stays in memory, nothing
    is lost, and the next try (the reaper's next minute) expires it (found by review:
    the reaper's task died on the first StoreError)."""
    from unokit.server.app import Server
    from unokit.server.limits import Limits
    from unokit.server.room import Room
    from unokit.server.store import MemoryStore, StoreError

    class Flaky(MemoryStore):
        broken = True

        def save_room(self, row: Any) -> None:
            if self.broken:
                raise StoreError("disk gone")
            super().save_room(row)

    store = Flaky()
    server = Server(store, None, Limits())
    store.broken = False
    room, _ = Room.create(store, "Ana", "classic", {}, 2, ["normal"], 0)
    server.rooms[room.code] = room
    store.broken = True
    with pytest.raises(StoreError):
        server.upkeep.expire(room)
    assert room.code in server.rooms
    store.broken = False
    server.upkeep.expire(room)
    assert room.code not in server.rooms
    assert [r.data["status"] for r in store.load_rooms()] == ["expired"]


async def test_end_on_a_finished_game_goes_back_to_the_lobby_and_clocks_are_told() -> None:
    """Issue 36: ``state`` tells the turn timer's seat and seconds left (a person's own
    decision only, not a bot's nor the autopilot's) and, after a round, the seconds
    before the next one and the scores after each round; ``end`` on a game already
    over takes the room back to the lobby, where a player whose seat went to a bot can
    sit again."""
    from unokit.server.room import Room, RoomError
    from unokit.server.store import MemoryStore

    room, _ = Room.create(MemoryStore(), "Ana", "classic", {}, 3, [None, "normal"], 30)
    assert room.join("Ben")[0] == 1
    room.start(0)
    server = bare_server(room.store)
    room.kick(0, 1)  # Ben left for good: a bot plays his seat
    ana = room.seats[0]
    assert room.match is not None and ana is not None
    ana.connected = 1
    with pytest.raises(RoomError):
        room.to_lobby(0)  # the game is on
    told_clock = False
    while not room.match.game.round_over:
        seat = room.match.next_to_ask()
        msg = room.state_for(None, 0)[0]
        if seat == 0 and 0 not in room.autopilot:
            assert msg["clock"]["seat"] == 0 and 29 <= msg["clock"]["left"] <= 30
            told_clock = True
            room.set_autopilot(0, True)  # from now on the autopilot decides for Ana
            continue
        assert "clock" not in msg, (seat, msg.get("clock"))  # a bot's decision
        await self_step(server, room)
    assert told_clock
    msg = room.state_for(0, 0)[0]
    assert 29 <= msg["next_round_in"] <= 30
    assert msg["totals"] == [list(room.match.game.scores)]  # the scores by round
    assert room.store is not None  # a room read again from its log has them too
    assert Room.restore(room.to_row(), room.store).totals == msg["totals"]
    room.end(0)  # the host ends the game
    assert room.status == "over" and "next_round_in" not in room.state_for(0, 0)[0]
    with pytest.raises(RoomError):
        room.end(1)  # only the host
    room.end(0)  # once over: back to the lobby, seats as they were
    assert room.status == "lobby"
    assert [s.kind if s else None for s in room.seats] == ["person", "bot", "bot"]
    room.kick(0, 1)  # the host removes the bot...
    assert room.join("Ben")[0] == 1  # ...and Ben sits again
    room.start(0)
    assert room.status == "playing" and room.game_no == 2


async def test_the_host_changes_the_rules_in_the_lobby_only() -> None:
    """Issue 36: back in the lobby the host may change the rules and the timer for the
    next game (``Room.set_rules``, and its message ``messages.SetRules``)."""
    from unokit.rules import RulesError
    from unokit.server.messages import SetRules
    from unokit.server.room import Room, RoomError
    from unokit.server.store import MemoryStore

    room, _ = Room.create(MemoryStore(), "Ana", "classic", {}, 3, [None, "normal"], 0)
    with pytest.raises(RoomError):
        room.set_rules(1, "party", {}, 15)  # not the host
    msg = SetRules.model_validate(
        {"type": "rules", "preset": "party", "options": {"hand_size": 5}, "timer": 15}
    )
    room.set_rules(0, msg.preset, msg.options, msg.timer)
    public = room.public(0)
    assert (
        public["rules"] == {"preset": "party", "options": {"hand_size": 5}}
        and public["timer"] == 15
    )
    assert room.timing.turn_timer == 15.0 and room.rules.hand_size == 5
    with pytest.raises(RulesError):
        room.set_rules(0, "classic", {"custom_rule": "extra_turn"}, 0)  # needs a 2018 deck
    with pytest.raises(RulesError):
        room.set_rules(0, "classic", {"no_such_rule": True}, 0)
    assert room.preset == "party" and room.timer == 15  # a refusal changes nothing
    room.start(0)
    assert room.match is not None and all(len(h) == 5 for h in room.match.game.hands)
    with pytest.raises(RoomError):
        room.set_rules(0, "classic", {}, 0)  # the game is on


async def test_the_host_sets_the_next_games_rules_over_the_websocket() -> None:
    """``{"type": "rules"}`` from the host in the lobby: everyone is sent the room with
    the new rules and the next game deals by them; from anyone else, or with rules that
    cannot be, it is refused and changes nothing."""
    async with running() as h:
        r = await h.room(seats=2, bots=[None])
        code = r["code"]
        ben_seat = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        ben = await Client(f"{h.ws}/{code}", ben_seat["token"]).connect()
        await ben.send({"type": "rules", "preset": "party", "options": {}, "timer": 30})
        await ben.wait(lambda: bool(ben.errors))
        assert ben.errors[-1]["code"] == "not_host"
        await ana.send({"type": "rules", "preset": "classic", "options": {"hand_size": 99}})
        await ana.wait(lambda: bool(ana.errors))
        assert ana.errors[-1]["code"] == "bad_rules"
        assert h.server.rooms[code].preset == "classic"
        await ana.send(
            {"type": "rules", "preset": "classic", "options": {"hand_size": 5}, "timer": 30}
        )
        await ben.wait(
            lambda: ben.room is not None and ben.room["rules"]["options"] == {"hand_size": 5}
        )
        await ana.send({"type": "start"})
        await ben.wait(lambda: ben.state is not None)
        # five cards each (a Draw Two turned up first gives one of them two more)
        assert min(len(hand) for hand in h.server.rooms[code].match.game.hands) == 5
        assert len(ben.state["view"]["hand"]) in (5, 7)
        await ana.close()
        await ben.close()


async def test_a_catch_by_another_seat_does_not_restart_the_turn_clock() -> None:
    """R-UNO-CATCH meets the turn timer: the seat to play keeps its clock when someone
    else catches a player (the catch is not its decision), and gets a fresh one for
    its own next decision."""
    from unokit.engine import position
    from unokit.engine.actions import CATCH, PLAY
    from unokit.match import Match
    from unokit.server.room import Room
    from unokit.server.store import MemoryStore

    room, _ = Room.create(MemoryStore(), "Ana", "classic", {}, 3, [None, None, None], 15)
    room.join("Ben")
    room.join("Cy")
    room.start(0)
    server = bare_server(room.store)
    # seat 0 to play; seat 2 holds one card and did not call UNO: catchable
    g = position(hands=[["R1", "G2", "B3"], ["Y4", "Y5"], ["G9"]], discard=["R5"], vulnerable=2)
    room.match = Match(g, timing=room.match.timing if room.match else None)
    room.turn_moved(None)
    await asyncio.sleep(0.35)
    before = room.clock()
    assert before is not None and before["seat"] == 0 and before["left"] <= 14.7
    catch = next(a for a in room.match.view(1).legal if a.kind == CATCH)
    await act(server, room, 1, catch)
    after = room.clock()
    assert after is not None and after["seat"] == 0
    assert after["left"] <= before["left"]  # the same clock, still running
    play = next(a for a in room.match.view(0).legal if a.kind == PLAY)
    await act(server, room, 0, play)
    await asyncio.sleep(0)
    nxt = room.clock()
    assert nxt is not None and nxt["seat"] != 0 and nxt["left"] >= 14.9  # a new decision


async def test_the_reaper_lets_the_loop_serve_between_idle_rooms() -> None:
    """Rooms idle long enough leave memory, stored as expired; the reaper stores one at
    a time and lets the event loop run between them, so many rooms idle at once do not
    stall every other room for the whole sweep."""
    from unokit.server.app import Server
    from unokit.server.limits import Limits
    from unokit.server.room import Room
    from unokit.server.store import MemoryStore

    ticks = 0
    seen: list[int] = []

    class Watched(MemoryStore):
        def put_room(self, row: Any, expect: int | None) -> bool:
            if row.data.get("status") == "expired":
                seen.append(ticks)
            return bool(super().put_room(row, expect))

    store = Watched()
    server = Server(store, None, Limits(room_idle_seconds=1))
    for _ in range(3):
        room, _ = Room.create(store, "Ana", "classic", {}, 2, ["normal"], 0)
        server.rooms[room.code] = room

    async def other_rooms() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.get_running_loop().create_task(other_rooms())
    await asyncio.sleep(0)
    await server.upkeep.reap_once(time.monotonic() + 10)
    task.cancel()
    assert not server.rooms
    assert len(seen) == 3 and seen[0] < seen[1] < seen[2]  # the loop ran in between
    assert [r.data["status"] for r in store.load_rooms()] == ["expired"] * 3


async def test_the_reapers_and_a_single_commits_store_calls_leave_the_loop_free() -> None:
    """A store whose calls wait (PostgreSQL: ``sync == "full"``): expiring an idle room
    and ``--commit each``'s one write per action run in a worker thread, so the other
    rooms are served meanwhile (they ran on the loop, which stood still for each call's
    round trip)."""
    import threading

    from unokit.server.app import Server
    from unokit.server.limits import Limits
    from unokit.server.room import Room
    from unokit.server.store import MemoryStore

    main = threading.get_ident()
    where: dict[str, bool] = {}

    class Waits(MemoryStore):
        sync = "full"

        def put_room(self, row: Any, expect: int | None) -> bool:
            if row.data.get("status") == "expired":
                where["expire"] = threading.get_ident() == main
            return bool(super().put_room(row, expect))

        def append_at(self, rows: Any, holders: Any = ()) -> Any:
            where["append"] = threading.get_ident() == main
            return super().append_at(rows, holders)

    store = Waits()
    server = Server(store, None, Limits(room_idle_seconds=1), "each")
    room, _ = Room.create(store, "Ana", "classic", {}, 2, ["normal"], 0)
    server.add(room)
    await server.commits.change(room, lambda r: r.start(0))
    now = server.rooms[room.code]
    if not await server.master.due(now, "bot", -1):  # Ana's turn, not the bot's
        await server.commits.commit(now, 0, now.match.view(0).legal[0], None)
    await server.upkeep.reap_once(time.monotonic() + 10)
    assert where == {"append": False, "expire": False}  # neither on the loop's thread
    assert not server.rooms
    assert [r.data["status"] for r in store.load_rooms()] == ["expired"]


async def test_the_reaper_does_not_expire_a_room_that_moved_while_it_waited() -> None:
    """The reaper found a room idle, then waited for its lock (a join, a move heard from
    another server): what happened meanwhile keeps the room (review of the reaper's
    lock: a player was given a seat in a room then stored as expired)."""
    from unokit.server.app import Server
    from unokit.server.limits import Limits
    from unokit.server.room import Room
    from unokit.server.store import MemoryStore

    store = MemoryStore()
    server = Server(store, None, Limits(room_idle_seconds=1))
    room, _ = Room.create(store, "Ana", "classic", {}, 3, [None, "normal"], 0)
    server.rooms[room.code] = room
    lock = server.locks[room.code]
    await lock.acquire()  # a join under way
    sweep = asyncio.get_running_loop().create_task(server.upkeep.reap_once(time.monotonic() + 10))
    await asyncio.sleep(0.05)
    room.join("Ben")
    room.touch()
    lock.release()
    await sweep
    assert server.rooms.get(room.code) is room
    assert store.load_room(room.code).data["status"] == "lobby"


async def test_the_reaper_stops_at_the_first_store_failure() -> None:
    """A store that fails (PostgreSQL unreachable: each call waits for a connection)
    is tried once a sweep, not once a room: the other idle rooms stay in memory until a
    later sweep, and moves are refused at once meanwhile, as after any failed write."""
    from unokit.server.app import Server
    from unokit.server.limits import Limits
    from unokit.server.room import Room
    from unokit.server.store import MemoryStore, StoreError

    calls = 0

    class Down(MemoryStore):
        broken = False

        def put_room(self, row: Any, expect: int | None) -> bool:
            nonlocal calls
            if self.broken:
                calls += 1
                raise StoreError("connection timed out")
            return bool(super().put_room(row, expect))

    store = Down()
    server = Server(store, None, Limits(room_idle_seconds=1))
    for _ in range(3):
        room, _ = Room.create(store, "Ana", "classic", {}, 2, ["normal"], 0)
        server.rooms[room.code] = room
    store.broken = True
    await server.upkeep.reap_once(time.monotonic() + 10)
    assert calls == 1 and len(server.rooms) == 3
    with pytest.raises(StoreError):
        server.check_store()
    await server.upkeep.reap_once(time.monotonic() + 10)
    assert calls == 1  # still within the retry pause: not tried again


async def test_the_pages_refusals_come_as_answers_and_everyone_elses_keep_their_status() -> None:
    """Issue 49: a refused room code or name logged "Failed to load resource" in the
    browser's console. The page's requests (X-Unokit-Soft: 1) get a refusal as a 200
    that carries its status in X-Unokit-Status and the same body; other clients get the
    status itself. A server fault (5xx) is never softened."""
    async with running() as h, httpx.AsyncClient(base_url=h.base) as c:
        plain = await c.get("/api/rooms/ZZZZZZ")
        soft = await c.get("/api/rooms/ZZZZZZ", headers={"X-Unokit-Soft": "1"})
        assert plain.status_code == 404 and "x-unokit-status" not in plain.headers
        assert soft.status_code == 200 and soft.headers["x-unokit-status"] == "404"
        assert soft.json() == plain.json() and plain.json()["code"] == "no_room"
        bad = await c.post("/api/rooms", json={"name": "Ana (bot)"}, headers={"X-Unokit-Soft": "1"})
        assert bad.status_code == 200 and bad.headers["x-unokit-status"] == "400"
        assert bad.json()["code"] == "name_reserved"
        ok = await c.post("/api/rooms", json={"name": "Ana"}, headers={"X-Unokit-Soft": "1"})
        assert ok.status_code == 200 and "x-unokit-status" not in ok.headers
