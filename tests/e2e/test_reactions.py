"""Reactions, the spectator list and spectators' chat at the table (issue 36 item 16):
a player's reaction shows beside their seat on a spectator's page, a named spectator is
listed on the players' pages and reacts and chats, and the host can turn spectators'
chat off."""

from __future__ import annotations

import time
from typing import Any

from browser_table import Player, create_room, run_server, shot

TIMING = {"bot_delay": 1.5, "catch_window": 0.5, "next_round": 60.0}


def test_reactions_spectators_and_their_chat(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path, timing=TIMING) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        dee = Player.open(browser, "Dee", viewport={"width": 1280, "height": 800})
        try:
            code = create_room(ana, url, players=2, seats=["easy"])
            ana.page.click("#start-btn")
            ana.page.wait_for_selector(".table-wrap")
            dee.page.goto(f"{url}/r/{code}")
            dee.page.fill("#watch-name", "Dee")
            dee.page.click("#watch-btn")
            dee.page.wait_for_selector(".table-wrap")
            # Ana sees who watches
            ana.page.wait_for_selector("#watchers li")
            assert ana.page.locator("#watchers h2").inner_text() == "Watching (1)"
            assert ana.page.locator("#watchers li").first.inner_text() == "Dee"
            # Ana reacts: on Dee's page, beside Ana's seat, and in the log
            ana.page.click(".reactions [data-emote='gg']")
            dee.page.wait_for_selector(".opp[data-seat='0'] .react-bubble")
            assert dee.page.locator(".opp[data-seat='0'] .react-bubble").inner_text() == (
                "Good game!"
            )
            assert dee.page.locator("#log li", has_text="Ana: Good game!").count() == 1
            # issue 49, M5: a burst of clicks puts 3 lines in the others' logs, not 20
            # (the first click above was one of them)
            for _ in range(24):
                ana.page.click(".reactions [data-emote='gg']")

            def refused() -> int:
                return sum(f.get("code") == "rate_limited" for f in ana.frames)

            deadline = time.monotonic() + 30
            while refused() < 22:  # the server read every click: 2 went out, 22 refused
                assert time.monotonic() < deadline, f"{refused()} of 22 clicks refused"
                ana.page.wait_for_timeout(50)
            dee.page.wait_for_function(
                "() => [...document.querySelectorAll('#log li')]"
                ".filter(li => li.textContent.includes('Ana: Good game!')).length >= 3"
            )
            assert dee.page.locator("#log li", has_text="Ana: Good game!").count() == 3
            # Dee reacts and chats: beside her name in Ana's spectator list, and logged
            dee.page.click(".reactions [data-emote='wow']")
            ana.page.wait_for_selector("#watchers .react-bubble")
            shot(ana.page, "table-reactions.png")
            dee.page.fill("#chat-input", "go Ana")
            dee.page.press("#chat-input", "Enter")
            ana.page.wait_for_function(
                "() => [...document.querySelectorAll('#log li')]"
                ".some(li => li.textContent === 'Dee (watching): go Ana')"
            )
            # sent, the focus is back on the table, and Esc leaves the chat unsent: the
            # table's keys are keys again (issue 49: "N" for the next round became chat)
            focused = "() => document.activeElement && document.activeElement.id"
            assert dee.page.evaluate(focused) != "chat-input"
            ana.page.click("#chat-input")
            ana.page.keyboard.type("n")
            ana.page.keyboard.press("Escape")
            assert ana.page.evaluate(focused) != "chat-input"
            ana.page.keyboard.press("?")  # a table key: the Keys panel opens
            ana.page.wait_for_selector("#help")
            ana.page.keyboard.press("?")
            # the host turns spectators' chat off: Dee's page says so, reactions stay
            ana.page.uncheck("#watch-chat")
            dee.page.wait_for_selector("#watch-chat-off")
            assert dee.page.locator("#chat-input").count() == 0
            assert dee.page.locator(".reactions .btn").count() == 6
            assert not ana.errors and not dee.errors, (ana.errors, dee.errors)
        finally:
            ana.close()
            dee.close()
