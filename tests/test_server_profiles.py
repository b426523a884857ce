"""Profiles, stats and ratings (issue 49 item 4).

A profile is a secret token in the browser; the server keeps its hash.  Two people with
profiles who meet through Quick play and finish a game both see it counted and rated,
and so does the leaderboard, after the server restarts on the same database.  A name or
an id gives nothing; a wrong token is refused and changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server_helpers import Client, Harness, play_out, running
from unokit.server import profiles
from unokit.server.store import MemoryStore, SQLiteStore

pytestmark = pytest.mark.asyncio

ONE_ROUND = {"target_score": 1, "hand_size": 3}  # the first round decides the game


async def new_profile(h: Harness, name: str, **kw: Any) -> dict[str, Any]:
    r = await h.post("/api/profiles", {"name": name, **kw})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def play_a_game(h: Harness, a: dict[str, Any], b: dict[str, Any]) -> str:
    """Ana opens a public two-seat room with her profile; Ben, with his, finds it by
    Quick play; they finish a game of one round."""
    body = {"name": "Ana", "seats": 2, "public": True, "profile": a["token"], "options": ONE_ROUND}
    ana = (await h.post("/api/rooms", body)).json()
    ben = (await h.post("/api/quickplay", {"name": "Ben", "profile": b["token"]})).json()
    assert ben["code"] == ana["code"], (ana, ben)
    code = ana["code"]
    url = f"{h.ws}/{code}"
    host = await Client(url, ana["token"]).connect()
    guest = await Client(url, ben["token"]).connect()
    await host.send({"type": "start"})
    clients = [host, guest]
    await play_out(
        clients,
        lambda: host.room is not None and host.room["status"] == "over",
        limit=120,
    )
    for c in clients:
        await c.close()
    return str(code)


async def test_a_profile_is_made_and_read_by_its_id_without_its_token() -> None:
    async with running() as h:
        made = await new_profile(h, "Ana", color="teal", listed=True)
        token, mine = made["token"], made["profile"]
        assert len(token) >= 22 and mine["name"] == "Ana" and mine["color"] == "teal"
        assert mine["games"] == 0 and mine["rating"] == 0.0  # 25 - 3 x 25/3
        seen = (await h.get(f"/api/profiles/{mine['id']}")).json()
        assert seen == mine
        assert token not in json.dumps(seen)
        me = (await h.post("/api/profiles/me", {"token": token})).json()["profile"]
        assert me["id"] == mine["id"]
        # a token the server does not know: an answer (the page forgets it), not an error
        r = await h.post("/api/profiles/me", {"token": "y" * 32})
        assert r.status_code == 200 and r.json() == {"profile": None}
        # changed by its token only
        me = (
            await h.post("/api/profiles/me", {"token": token, "name": "Ana B", "color": "gold"})
        ).json()["profile"]
        assert (me["name"], me["color"]) == ("Ana B", "gold")
        assert token not in json.dumps(h.server.store.profiles[mine["id"]])  # only its hash


async def test_a_wrong_token_or_bad_input_is_refused_and_changes_nothing() -> None:
    async with running() as h:
        made = await new_profile(h, "Ana")
        before = json.dumps(h.server.store.profiles, sort_keys=True)
        for path, body, status, code in [
            ("/api/profiles/me", {"token": "x" * 32, "name": "Mallory"}, 400, "bad_profile"),
            ("/api/profiles/me", {"token": made["token"], "color": "plaid"}, 400, "bad_request"),
            (
                "/api/profiles/me",
                {"token": made["token"], "name": "Eve (bot)"},
                400,
                "name_reserved",
            ),
            ("/api/profiles", {"name": "Ana", "color": "<script>"}, 400, "bad_request"),
            ("/api/profiles", {"name": ""}, 400, "bad_request"),
            ("/api/profiles", {"name": "Ana", "token": "t"}, 400, "bad_request"),
            ("/api/rooms", {"name": "Ana", "profile": "x" * 32}, 400, "bad_profile"),
            ("/api/quickplay", {"name": "Ana", "profile": "x" * 32}, 400, "bad_profile"),
        ]:
            r = await h.post(path, body)
            assert (r.status_code, r.json()["code"]) == (status, code), (path, body, r.text)
        assert json.dumps(h.server.store.profiles, sort_keys=True) == before
        assert len(h.server.store.load_rooms()) == 0  # no room made with a lost profile
        r = await h.get("/api/profiles/NOSUCHID22")
        assert r.status_code == 404 and r.json()["code"] == "no_profile"
        # one profile, one seat: the same profile cannot sit twice in a room
        room = (await h.post("/api/rooms", {"name": "Ana", "profile": made["token"]})).json()
        r = await h.post(
            f"/api/rooms/{room['code']}/join", {"name": "Ana2", "profile": made["token"]}
        )
        assert r.status_code == 400 and r.json()["code"] == "profile_seated"
        assert h.server.errors == 0


async def test_strangers_play_a_rated_game_shown_on_profiles_and_leaderboard_after_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "uno.db"
    store = SQLiteStore(db)
    async with running(store) as h:
        a = await new_profile(h, "Ana", color="red", listed=True)
        b = await new_profile(h, "Ben", color="blue", listed=True)
        hidden = await new_profile(h, "Cy", listed=False)
        code = await play_a_game(h, a, b)
    store.close()
    store = SQLiteStore(db)  # a restart: the same database, a new server
    async with running(store) as h:
        pa = (await h.get(f"/api/profiles/{a['profile']['id']}")).json()
        pb = (await h.get(f"/api/profiles/{b['profile']['id']}")).json()
        for p in (pa, pb):
            assert (p["games"], p["rated"]) == (1, 1)
            # anyone sees the game, not its room: a code lets whoever has it in
            assert [(g.get("code"), g["game"], g["rated"], g["players"]) for g in p["history"]] == [
                (None, 1, True, 2)
            ]
            assert code not in json.dumps(p)
        # its holder sees the room too
        mine = (await h.post("/api/profiles/me", {"token": a["token"]})).json()["profile"]
        assert mine["history"][0]["code"] == code
        winner, loser = (pa, pb) if pa["wins"] else (pb, pa)
        assert (winner["wins"], loser["wins"]) == (1, 0)
        assert winner["points"] > 0 and winner["history"][0]["won"] is True
        assert winner["rating"] > 0.0 > loser["rating"]  # from 0 each, apart by the result
        assert winner["sigma"] < profiles.SIGMA  # more certain after a game
        board = (await h.get("/api/leaderboard")).json()["profiles"]
        assert [p["id"] for p in board] == [winner["id"], loser["id"]]
        assert hidden["profile"]["id"] not in json.dumps(board)  # not rated, not listed
        text = json.dumps(board)
        for secret in (a["token"], b["token"]):
            assert secret not in text
        # counted once: saving the same game's end again changes nothing
        assert not h.server.store.count_game(code, 1, [{"profile": a["profile"]["id"]}])
    store.close()


async def test_a_game_with_one_profile_counts_but_is_not_rated_and_bots_are_never_rated() -> None:
    store = MemoryStore()
    async with running(store) as h:
        a = await new_profile(h, "Ana", listed=True)
        made = await h.room(seats=2, bots=["easy"], options=ONE_ROUND, profile=a["token"])
        host = await Client(f"{h.ws}/{made['code']}", made["token"]).connect()
        await host.send({"type": "start"})
        await play_out([host], lambda: host.room is not None and host.room["status"] == "over", 120)
        await host.close()
        p = (await h.get(f"/api/profiles/{a['profile']['id']}")).json()
        assert (p["games"], p["rated"], p["rating"]) == (1, 0, 0.0)
        assert (await h.get("/api/leaderboard")).json()["profiles"] == []  # nobody rated yet


async def test_the_room_shows_whose_profile_a_seat_is_and_never_its_token() -> None:
    async with running() as h:
        a = await new_profile(h, "Ana", color="purple")
        made = await h.room(seats=2, profile=a["token"])
        info = (await h.get(f"/api/rooms/{made['code']}")).json()
        assert info["seats"][0]["profile"] == a["profile"]["id"]
        assert info["seats"][0]["color"] == "purple"
        assert a["token"] not in json.dumps(info)
        assert a["token"] not in json.dumps(h.server.store.load_rooms()[0].data)


async def test_the_rating_follows_openskill_and_ties_the_losers() -> None:
    before = {
        "A": (profiles.MU, profiles.SIGMA),
        "B": (profiles.MU, profiles.SIGMA),
        "C": (30.0, 2.0),
    }
    after = profiles.new_ratings(
        before,
        [
            {"profile": "A", "won": True},
            {"profile": "B", "won": False},
            {"profile": "C", "won": False},
        ],
    )
    assert after["A"][0] > profiles.MU > after["B"][0]
    assert after["C"][0] < 30.0  # a strong player who lost drops, if only a little
    assert 30.0 - after["C"][0] < profiles.MU - after["B"][0]
    rows = {k: profiles.new_row(k, k, "red", True, 0.0) for k in "AB"}
    out = profiles.after_game(
        rows,
        [
            {"profile": "A", "won": True, "points": 40},
            {"profile": "B", "won": False, "points": 0},
            {"profile": "gone", "won": False, "points": 3},
        ],
    )
    assert (out["A"]["games"], out["A"]["wins"], out["A"]["points"], out["A"]["rated"]) == (
        1,
        1,
        40,
        1,
    )
    assert (out["B"]["games"], out["B"]["wins"], out["B"]["rated"]) == (1, 0, 1)
    assert "gone" not in out


async def test_each_seat_counts_its_points_and_a_kicked_person_takes_their_profile() -> None:
    """Seat 2's points are seat 2's (the classic game names a side for every seat even
    without teams: ``team_of`` is not a seat's score index then)."""
    async with running() as h:
        ana, ben = await new_profile(h, "Ana"), await new_profile(h, "Ben")
        body = {"name": "Ana", "seats": 3, "bots": ["easy", None], "profile": ana["token"]}
        made = (await h.post("/api/rooms", {**body, "options": ONE_ROUND})).json()
        code = made["code"]
        joined = (
            await h.post(f"/api/rooms/{code}/join", {"name": "Ben", "profile": ben["token"]})
        ).json()
        assert joined["seat"] == 2
        host = await Client(f"{h.ws}/{code}", made["token"]).connect()
        guest = await Client(f"{h.ws}/{code}", joined["token"]).connect()
        await host.send({"type": "start"})
        await play_out(
            [host, guest], lambda: host.room is not None and host.room["status"] == "over", 120
        )
        await host.wait(
            lambda: host.state is not None and host.state["view"]["phase"] == "game_over"
        )
        assert host.state is not None
        scores = host.state["view"]["scores"]
        for p, seat in ((ana, 0), (ben, 2)):
            got = (await h.post("/api/profiles/me", {"token": p["token"]})).json()["profile"]
            assert (got["history"][0]["seat"], got["points"]) == (seat, scores[seat]), (scores, got)
        # back in the lobby, a new game: the host kicks Ben; his seat's bot is not his
        await host.send({"type": "end"})
        await host.wait(lambda: host.room is not None and host.room["status"] == "lobby")
        await host.send({"type": "start"})
        await host.wait(lambda: host.room is not None and host.room["status"] == "playing")
        await host.send({"type": "kick", "seat": 2})
        await host.wait(lambda: host.room is not None and host.room["seats"][2]["kind"] == "bot")
        assert host.room is not None and host.room["seats"][2]["profile"] is None
        row = next(r for r in h.server.store.load_rooms() if r.code == code)
        assert "profile" not in row.data["seats"][2]
        for c in (host, guest):
            await c.close()


async def test_a_finished_game_saved_later_still_counts() -> None:
    """The winning move's record could not be saved; the next save of the room (any:
    here the host's Public switch) saves it and counts the game."""
    from unokit.engine.view import view_of
    from unokit.server.room import Room, token_hash
    from unokit.server.store import StoreError

    class Flaky(MemoryStore):
        fail = 0

        def save_record(self, code: str, game: int, text: str) -> None:
            if self.fail:
                self.fail -= 1
                raise StoreError("storage failed: disk full")
            super().save_record(code, game, text)

    store = Flaky()
    for pid in ("PAAAAAAAAA", "PBBBBBBBBB"):
        store.create_profile(token_hash(pid), profiles.new_row(pid, pid[:2], "red", True, 0.0))
    room, _ = Room.create(
        store, "Ana", "classic", ONE_ROUND, 2, [], 0, profile=("PAAAAAAAAA", "red")
    )
    room.join("Ben", profile=("PBBBBBBBBB", "blue"))
    room.start(0)
    assert room.match is not None
    g = room.match.game
    # the finished game's record is the first one saved: it fails.  (Not "the move of
    # a seat with one card": a last Wild Draw Four ends the round on its victim's
    # answer, which the flake hunt at 5d0539c met.)
    store.fail = 1
    while not g.game_over:  # as the server commits: the entry stored, then applied
        seat = g.current
        legal = view_of(g, seat).legal
        action = next((a for a in legal if a.kind == 0), legal[0])
        store.append(room.code, room.game_no, room.prepare(seat, action, room.match.version))
        room.commit(seat, action, room.match.version)
    assert room.status == "over" and room.finish_pending and not store.results
    room.set_public(0, True)  # any save of the room
    assert not room.finish_pending
    assert [store.profiles[p]["games"] for p in ("PAAAAAAAAA", "PBBBBBBBBB")] == [1, 1]
