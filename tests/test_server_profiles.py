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
            assert [(g["code"], g["game"], g["rated"], g["players"]) for g in p["history"]] == [
                (code, 1, True, 2)
            ]
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
