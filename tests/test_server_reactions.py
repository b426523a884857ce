"""Reactions, the spectator list and spectators' chat (issue 36 item 16) on the server:
a reaction reaches everyone, rate-limited like chat; a named spectator is listed,
may react and chat unless the host turns their chat off; hostile messages get a clear
error and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from server_helpers import Client, running
from unokit.server.limits import Limits

pytestmark = pytest.mark.asyncio


def of(c: Client, kind: str) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == kind]


async def test_reactions_watchers_and_spectator_chat() -> None:
    limits = Limits(messages_per_second=10_000, reactions_per_minute=3, chat_per_minute=5)
    async with running(limits=limits) as h:
        r = await h.room(seats=2, bots=["easy"])
        code = r["code"]
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        dee = await Client(f"{h.ws}/{code}").connect(name="Dee")
        anon = await Client(f"{h.ws}/{code}").connect()
        await ana.wait(lambda: any(w["count"] == 2 for w in of(ana, "watchers")))
        assert of(ana, "watchers")[-1]["names"] == ["Dee"]
        # a player's reaction reaches everyone, with the seat and the name
        await ana.send({"type": "react", "emote": "gg"})
        await dee.wait(lambda: bool(of(dee, "react")))
        assert of(dee, "react")[0] == {"type": "react", "seat": 0, "name": "Ana", "emote": "gg"}
        # a named spectator reacts and chats; an unnamed one may not
        await dee.send({"type": "react", "emote": "wow"})
        await dee.send({"type": "chat", "text": "go Ana"})
        await ana.wait(lambda: len(of(ana, "react")) == 2 and bool(of(ana, "chat")))
        assert of(ana, "react")[1]["seat"] is None and of(ana, "react")[1]["name"] == "Dee"
        assert of(ana, "chat")[0]["name"] == "Dee" and of(ana, "chat")[0]["seat"] is None
        await anon.send({"type": "react", "emote": "nice"})
        await anon.wait(lambda: bool(anon.errors))
        assert anon.errors[-1]["code"] == "no_seat"
        # hostile: an emote that does not exist, a spectator switching chat off
        before = h.server.rooms[code].watch_chat
        await dee.send({"type": "react", "emote": "<img src=x>"})
        await dee.send({"type": "watch_chat", "on": False})
        await dee.wait(lambda: len(dee.errors) >= 2)
        assert [e["code"] for e in dee.errors[-2:]] == ["bad_message", "not_host"]
        assert h.server.rooms[code].watch_chat is before is True
        # the host turns spectators' chat off: said in the room message, refused after
        await ana.send({"type": "watch_chat", "on": False})
        await dee.wait(lambda: dee.room is not None and dee.room["watch_chat"] is False)
        await dee.send({"type": "chat", "text": "hello?"})
        await dee.wait(lambda: len(dee.errors) >= 3)
        assert "turned spectators' chat off" in dee.errors[-1]["message"]
        # rate-limited like chat: the fourth reaction in a minute is refused
        for _ in range(3):
            await ana.send({"type": "react", "emote": "oops"})
        await ana.wait(lambda: bool(ana.errors))
        assert ana.errors[-1]["code"] == "rate_limited"
        # a spectator's allowance is by address: watching again under a new name
        # does not bring a fresh one (the review found names reset it)
        for _ in range(10):
            await dee.send({"type": "react", "emote": "wow"})
        await dee.wait(lambda: dee.errors[-1]["code"] == "rate_limited")
        eve = await Client(f"{h.ws}/{code}").connect(name="Eve")
        await eve.send({"type": "react", "emote": "wow"})
        await eve.wait(lambda: bool(eve.errors))
        assert eve.errors[-1]["code"] == "rate_limited"
        await eve._ws.close()
        # a spectator who leaves leaves the list
        await anon._ws.close()
        await ana.wait(lambda: of(ana, "watchers")[-1]["count"] == 1)
        # a taken name: watched unnamed, told why
        ben = await Client(f"{h.ws}/{code}").connect(name="ana")
        await ben.wait(lambda: bool(ben.errors))
        assert ben.errors[0]["code"] == "name_taken"


@pytest.mark.asyncio
async def test_a_burst_of_one_reaction_puts_three_lines_in_the_others_logs() -> None:
    """Issue 49, M5: 25 quick clicks on a reaction put 20 identical lines in everyone's
    log before the per-minute limit, and the game's lines scrolled away.  At most 3
    reactions in any 10 s go out (``reactions_per_10_seconds``); the clicker is told
    the rest were refused, nobody else hears of them."""
    async with running(limits=Limits(messages_per_second=10_000)) as h:
        r = await h.room(seats=2)
        code = r["code"]
        b = await h.join(code, "Ben")
        ana = await Client(f"{h.ws}/{code}", r["token"]).connect()
        ben = await Client(f"{h.ws}/{code}", b["token"]).connect()
        for _ in range(25):
            await ana.send({"type": "react", "emote": "gg"})
        await ana.wait(lambda: len(ana.errors) == 22, 10)
        await ana.send({"type": "ping"})  # sent after the last reaction: once its pong
        await ana.wait(lambda: any(f["type"] == "pong" for f in ana.frames), 10)
        await ben.send({"type": "ping"})  # ... and Ben's, every reaction he will get came
        await ben.wait(lambda: any(f["type"] == "pong" for f in ben.frames), 10)
        assert len(of(ben, "react")) == 3
        assert {e["code"] for e in ana.errors} == {"rate_limited"}
        await ana.close()
        await ben.close()
