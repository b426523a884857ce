"""The lobby (issue 36 item 10): the host changes the next game's rules there, with the
create form's controls, and everyone sees them; and a graceful restart of the server
(its ``restarting`` notice) shows "reconnecting", never an error toast."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_table import (
    IMG,
    Player,
    create_room,
    join_room,
    run_server,
    server_process,
    shot,
)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def dealt(p: Player, game: int) -> int:
    """How many cards the page was told it was dealt in the first round of ``game``."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for f in p.frames:
            if f.get("type") == "state" and f.get("game") == game:
                for e in f["events"]:
                    if e["kind"] == "deal" and e["seat"] == p.seat and e.get("cards"):
                        return int(e["count"])
        p.page.wait_for_timeout(50)
    raise AssertionError(f"{p.name} was dealt nothing in game {game}")


def no_toast(p: Player) -> bool:
    return "show" not in (p.page.get_attribute("#toast", "class") or "")


def save_rules(host: Player, preset: str, options: dict[str, Any], timer: int) -> None:
    """The host fills the lobby's form (the preset first: it resets the house rules)
    and saves it."""
    page = host.page
    page.select_option("#lobby-preset", preset)
    if options and not page.locator("#lobby-rules-form details.house[open]").count():
        page.click("#lobby-rules-form .house summary")
    for k, v in options.items():
        sel = f"#lobby-opt-{k}"
        if isinstance(v, bool):
            page.set_checked(sel, v)
        else:
            page.fill(sel, str(v))
    page.select_option("#lobby-timer", str(timer))
    page.click("#rules-save")


def test_the_host_changes_the_rules_in_the_lobby_and_the_next_game_is_dealt_by_them(
    browser: Any, tmp_path: Any
) -> None:
    with run_server(tmp_path) as url:
        ana, ben = Player.open(browser, "Ana", **DESKTOP), Player.open(browser, "Ben", **DESKTOP)
        try:
            code = create_room(ana, url, players=2, seats=[""])
            join_room(ben, url, code)
            a, b = ana.page, ben.page
            a.on("dialog", lambda d: d.accept())  # End game asks first

            # before the first game: the host's form holds the room's rules; Ben has none
            a.wait_for_selector("#lobby-rules-form")
            assert a.input_value("#lobby-preset") == "classic"
            assert a.input_value("#lobby-timer") == "0"
            assert b.locator("#lobby-rules-form, #rules-save").count() == 0
            summary = "Rules: classic (no house rules). Turn timer: off."
            assert b.inner_text("#lobby-rules") == summary

            # rules that cannot be: refused, said in the form (no toast), nothing changes
            save_rules(ana, "classic", {"hand_size": 99}, 0)
            a.wait_for_selector("#lobby-rules-error:has-text('hand_size')")
            assert "Not saved" in a.inner_text("#lobby-rules-error")
            assert no_toast(ana)
            assert b.inner_text("#lobby-rules") == summary

            # party, five cards each, a 30 s timer: Ben's page says so at once
            save_rules(ana, "party", {"hand_size": 5}, 30)
            want = "Rules: party, with hand size 5. Turn timer: 30 s."
            b.wait_for_function(
                "w => document.getElementById('lobby-rules').textContent === w", arg=want
            )
            assert a.inner_text("#lobby-rules") == want
            a.wait_for_selector("#lobby-rules-note:has-text('Saved')")
            assert b.locator("#lobby-rules-form").count() == 0
            # the host's lobby, the form's house rules open
            IMG.mkdir(parents=True, exist_ok=True)
            a.locator(".waiting").screenshot(
                path=str(IMG / "lobby-rules.png"), animations="disabled"
            )
            a.set_viewport_size({"width": 390, "height": 844})
            a.locator("#lobby-rules-form").scroll_into_view_if_needed()
            shot(a, "lobby-rules-phone-390.png")
            a.set_viewport_size({"width": 1280, "height": 800})

            a.click("#start-btn")
            b.wait_for_selector(".table .hand .card")
            assert dealt(ben, 1) == 5 and dealt(ana, 1) == 5
            b.wait_for_selector("#log li:has-text('You were dealt 5 cards.')")

            # the host ends the game and takes the room back to the lobby: the form is
            # prefilled with the rules of the game just played
            a.click("#end-btn")
            a.click("#summary #lobby-btn")
            a.wait_for_selector("#lobby-rules-form")
            b.wait_for_selector(".waiting")
            assert a.input_value("#lobby-preset") == "party"
            assert a.input_value("#lobby-opt-hand_size") == "5"
            assert a.is_checked("#lobby-opt-jump_in")
            assert a.input_value("#lobby-timer") == "30"
            assert b.locator("#lobby-rules-form").count() == 0

            # what the host types stays while the room changes (Ben reloads: he goes and
            # comes back, and each time the room is sent again)
            a.select_option("#lobby-preset", "classic")
            a.click("#lobby-rules-form .house summary")
            a.fill("#lobby-opt-hand_size", "4")
            rooms = sum(1 for f in ana.frames if f.get("type") == "room")
            b.reload()
            b.wait_for_selector(".waiting")
            deadline = time.monotonic() + 5
            while sum(1 for f in ana.frames if f.get("type") == "room") < rooms + 1:
                assert time.monotonic() < deadline, "no room message came"
                a.wait_for_timeout(50)
            a.wait_for_timeout(200)
            assert a.input_value("#lobby-preset") == "classic"
            assert a.input_value("#lobby-opt-hand_size") == "4"
            assert "Not saved yet" in a.inner_text("#lobby-rules-note")
            a.select_option("#lobby-timer", "0")
            a.click("#rules-save")
            want = "Rules: classic, with hand size 4. Turn timer: off."
            b.wait_for_function(
                "w => document.getElementById('lobby-rules').textContent === w", arg=want
            )
            a.click("#start-btn")
            b.wait_for_selector(".table .hand .card")
            assert dealt(ben, 2) == 4 and dealt(ana, 2) == 4
            for p in (ana, ben):
                assert not p.errors and not p.console, (p.name, p.errors, p.console)
        finally:
            ana.close()
            ben.close()


@pytest.mark.server_down
def test_a_graceful_restart_shows_reconnecting_and_no_toast(browser: Any, tmp_path: Any) -> None:
    """The real ``unokit serve`` stopped with SIGTERM says goodbye first (its
    ``Server.farewell``: ``{"type": "error", "code": "restarting"}`` to every page),
    then closes; started again on the same port and database, the page comes back."""
    with server_process(tmp_path) as server:
        ana = Player.open(browser, "Ana", **DESKTOP)
        try:
            create_room(ana, server.url, players=2, seats=["normal"])
            a = ana.page
            a.click("#start-btn")
            a.wait_for_selector(".table .hand .card")
            a.wait_for_selector("#netstatus.open")
            # every toast and every connection status from now on
            a.evaluate(
                """() => {
                  window.seen = { toasts: [], status: [] };
                  const t = document.getElementById('toast');
                  new MutationObserver(() => {
                    if (t.classList.contains('show')) window.seen.toasts.push(t.textContent);
                  }).observe(t, { attributes: true, childList: true, subtree: true });
                  const n = document.getElementById('netstatus');
                  new MutationObserver(() => window.seen.status.push(n.className))
                    .observe(n, { attributes: true });
                }"""
            )
            server.stop()  # SIGTERM: the farewell, then the sockets close
            a.wait_for_selector("#netstatus.reconnecting")
            assert "reconnecting" in a.inner_text("#netstatus")
            notices = [f for f in ana.frames if f.get("code") == "restarting"]
            assert notices and notices[0]["type"] == "error", "the server said no goodbye"
            a.wait_for_timeout(500)
            assert no_toast(ana)
            server.restart()
            a.wait_for_selector("#netstatus.open", timeout=15000)
            a.wait_for_selector(".table .hand .card")
            seen = a.evaluate("() => window.seen")
            assert seen["toasts"] == [], seen
            assert any("reconnecting" in s for s in seen["status"]), seen
            assert sorted(ana.hand_in_dom()) == sorted(ana.view()["hand"])
            # the browser logs each refused connection while the server is down; nothing else
            others = [c for c in ana.console if "WebSocket connection" not in c]
            assert not ana.errors and not others, (ana.errors, others)
        finally:
            ana.close()
