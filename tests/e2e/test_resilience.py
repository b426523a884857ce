"""A reload keeps the seat; a dropped network shows "reconnecting" and resumes."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from browser_table import (
    Player,
    create_room,
    join_room,
    run_server,
    server_process,
    shot,
    turn,
)


def hand_matches(p: Player, timeout: float = 5.0) -> bool:
    """The page's hand shows what the last view the page received holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sorted(p.hand_in_dom()) == sorted(p.view()["hand"]):
            return True
        p.page.wait_for_timeout(50)
    return False


def act_once(p: Player, other: Player, timeout: float = 30.0) -> None:
    """Play on (the other person too) until p has acted once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if turn(p):
            return
        if not turn(other):
            p.page.wait_for_timeout(100)
    p.page.screenshot(path=f"/tmp/fail-{p.name}.png")
    raise AssertionError(f"{p.name} never got a turn")


@pytest.mark.server_down
def test_reload_keeps_the_seat_and_a_drop_resumes(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path) as url:
        ana, ben = Player.open(browser, "Ana"), Player.open(browser, "Max")
        try:
            code = create_room(ana, url, players=3, seats=["", "normal"])
            join_room(ben, url, code, by_code=True)
            ana.page.click("#start-btn")
            ben.page.wait_for_selector(".table .hand .card")
            act_once(ben, ana)

            # a reload: the same seat, the same hand, the log is back
            hand = ben.view()["hand"]
            ben.page.reload()
            ben.page.wait_for_selector(".table .hand .card")
            assert ben.page.locator(".me .me-name").inner_text() == "Max"
            assert ben.view()["seat"] == 1
            assert hand_matches(ben)
            assert len(ben.view()["hand"]) >= len(hand) - 1
            assert ben.page.locator("#log li").count() > 0
            act_once(ben, ana)

            # the network goes: the page says so; it comes back: the page resumes alone
            welcomes = sum(1 for f in ben.frames if f.get("type") == "welcome")
            ben.context.set_offline(True)
            ben.page.wait_for_selector("#netstatus.reconnecting")
            assert "reconnecting" in ben.page.locator("#netstatus").inner_text()
            ben.page.wait_for_timeout(1500)
            ben.context.set_offline(False)
            ben.page.wait_for_selector("#netstatus.open", timeout=15000)
            assert sum(1 for f in ben.frames if f.get("type") == "welcome") == welcomes + 1
            assert ben.view()["seat"] == 1
            act_once(ben, ana)
            assert hand_matches(ben)
            assert not ana.errors and not ben.errors
        finally:
            ana.close()
            ben.close()


def test_a_late_visitor_can_watch_and_the_timer_counts(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path) as url:
        ana, eve = Player.open(browser, "Ana"), Player.open(browser, "Eve")
        try:
            code = create_room(ana, url, players=2, seats=["normal"], timer=60)
            ana.page.click("#start-btn")
            # with a turn timer the banner counts down
            ana.page.wait_for_selector("#turn-timer")
            assert re.fullmatch(r"\d+\s+s", ana.page.locator("#turn-timer").inner_text())
            eve.page.goto(f"{url}/r/{code}")
            assert eve.page.locator("#join-btn").count() == 0  # the game has started
            eve.page.click("#watch-btn")
            eve.page.wait_for_selector(".table .me.spectator")
            assert eve.page.locator(".hand").count() == 0
            assert eve.view()["hand"] is None
        finally:
            ana.close()
            eve.close()


def test_two_windows_of_one_browser_are_two_players(browser: Any, tmp_path: Any) -> None:
    """The newcomer's way: two windows of one browser (one cookie jar, one storage)."""
    with run_server(tmp_path) as url:
        ana = Player.open(browser, "Ana")
        try:
            code = create_room(ana, url, players=3, seats=["", "normal"])
            second = ana.context.new_page()  # same browser profile, another window
            second.goto(f"{url}/r/{code}")
            second.wait_for_selector("#join-btn")
            assert "Continue as Ana" in second.locator("#resume-btn").inner_text()
            second.fill("#join-name", "Max")
            second.click("#join-btn")
            second.wait_for_selector(".seat-row[data-seat='1'] .tag.you")
            ana.page.wait_for_selector(".seat-row[data-seat='1'] .who:text('Max')")
            ana.page.click("#start-btn")
            second.wait_for_selector(".table .me .me-name:text('Max')")
            ana.page.wait_for_selector(".table .me .me-name:text('Ana')")
            second.reload()  # still Max after a reload of that window
            second.wait_for_selector(".table .me .me-name:text('Max')")
        finally:
            ana.close()


def test_the_host_gives_a_players_seat_to_a_bot_and_play_goes_on(
    browser: Any, tmp_path: Any
) -> None:
    """Someone leaves for good: the host hands the seat to a bot from the table; the
    player is told and can watch; the bot plays the seat from then on."""
    with run_server(tmp_path) as url:
        ana, ben = Player.open(browser, "Ana"), Player.open(browser, "Max")
        try:
            code = create_room(ana, url, players=3, seats=["", "normal"])
            join_room(ben, url, code, by_code=True)
            ana.page.click("#start-btn")
            ben.page.wait_for_selector(".table .hand .card")
            ana.page.click("#host-tools summary")  # the host's seat controls, by the log
            ana.page.wait_for_selector("#host-tools .to-bot[data-key='to-bot:1']")
            assert ben.page.locator(".to-bot").count() == 0  # only the host has it
            shot(ana.page, "host-table.png")
            ana.page.once("dialog", lambda d: d.accept())
            ana.page.click("#host-tools .to-bot[data-key='to-bot:1']")
            ana.page.wait_for_selector(".opp[data-seat='1'] .badge.bot")
            ben.page.wait_for_selector("#watch-btn")  # the room's page, without a seat
            assert "gave your seat to a bot" in ben.page.locator("#toast").inner_text()
            ben.page.click("#watch-btn")
            ben.page.wait_for_selector(".table .me.spectator")
            assert ben.view()["hand"] is None
            # the bot now plays Max's seat: Ana drawing each turn, the table moves on
            before = ana.version
            deadline = time.monotonic() + 30
            while ana.version < before + 6 and time.monotonic() < deadline:
                turn(ana)
                ana.page.wait_for_timeout(100)
            assert ana.version >= before + 6
            assert not ana.errors and not ben.errors
        finally:
            ana.close()
            ben.close()


@pytest.mark.server_down
def test_a_server_killed_mid_game_comes_back_and_the_pages_resume(
    browser: Any, tmp_path: Any
) -> None:
    """kill -9 of the server in the middle of a game, then a restart on the same port
    and database: both pages say they are reconnecting, come back by themselves to the
    same seats, hands and version (no acknowledged move lost), and play goes on."""
    with server_process(tmp_path) as server:
        url = server.url
        ana, ben = Player.open(browser, "Ana"), Player.open(browser, "Max")
        try:
            code = create_room(ana, url, players=2)  # no bot: nothing moves unless they do
            join_room(ben, url, code, by_code=True)
            ana.page.click("#start-btn")
            ben.page.wait_for_selector(".table .hand .card")
            act_once(ben, ana)
            act_once(ana, ben)
            ana.page.wait_for_timeout(1000)  # both pages hold the last move's view
            seen = {p.name: (p.version, sorted(p.view()["hand"])) for p in (ana, ben)}

            server.kill9()
            for p in (ana, ben):
                p.page.wait_for_selector("#netstatus.reconnecting", timeout=15000)
            server.restart()
            for p in (ana, ben):
                p.page.wait_for_selector("#netstatus.open", timeout=20000)
                p.page.wait_for_selector(".table .hand .card")
            for p in (ana, ben):  # every move either saw is back (no version lost)
                version, hand = seen[p.name]
                assert p.version >= version, (p.name, p.version, version)
                if p.version == version:  # nothing moved since: the very same hand
                    assert sorted(p.view()["hand"]) == hand, p.name
                assert hand_matches(p)
            assert ben.view()["seat"] == 1 and ana.view()["seat"] == 0
            act_once(ben, ana)
            act_once(ana, ben)
            assert not ana.errors and not ben.errors
        finally:
            ana.close()
            ben.close()
