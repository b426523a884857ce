"""Reactions, the spectator list and spectators' chat at the table (issue 36 item 16):
a player's reaction shows beside their seat on a spectator's page, a named spectator is
listed on the players' pages and reacts and chats, and the host can turn spectators'
chat off."""

from __future__ import annotations

import time
from typing import Any

from browser_table import Player, create_room, join_room, run_server, shot

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
            first_click = time.monotonic()
            ana.page.click(".reactions [data-emote='gg']")
            dee.page.wait_for_selector(".opp[data-seat='0'] .react-bubble")
            assert dee.page.locator(".opp[data-seat='0'] .react-bubble").inner_text() == (
                "Good game!"
            )
            assert dee.page.locator("#log li", has_text="Ana: Good game!").count() == 1
            # issue 49, M5: a burst of clicks puts 3 lines in the others' logs, not 20
            # (the first click above was one of them; 3 in any 10 s, so on a machine slow
            # enough to spread the clicks over more than 10 s, up to 3 more may go out)
            for _ in range(12):
                ana.page.click(".reactions [data-emote='gg']")
            spread = time.monotonic() - first_click

            def refused() -> int:
                return sum(f.get("code") == "rate_limited" for f in ana.frames)

            def went() -> int:
                return sum(f.get("type") == "react" for f in ana.frames)

            deadline = time.monotonic() + 30
            while refused() + went() < 13:  # the server answered every click
                assert time.monotonic() < deadline, f"{refused()} refused, {went()} sent"
                ana.page.wait_for_timeout(50)
            assert went() == 3 if spread < 9.5 else 3 <= went() <= 6, (went(), spread)
            # and repeats count on one line ("Ana: Good game! ×3", issue 49 item 2), unless
            # a game line came between them
            counted = """n => [...document.querySelectorAll('#log li')]
                .filter(li => li.textContent.includes('Ana: Good game!'))
                .map((li) => li.textContent.match(/×(\\d+)/))
                .reduce((sum, m) => sum + (m ? Number(m[1]) : 1), 0) >= n"""
            dee.page.wait_for_function(counted, arg=went())
            lines = dee.page.locator("#log li", has_text="Ana: Good game!").all_inner_texts()
            times = [int(x.rsplit("×", 1)[1]) if "×" in x else 1 for x in lines]
            assert sum(times) == went(), lines
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


INSIDE = """() => [...document.querySelectorAll('.opp')].flatMap(o => {
    const box = o.getBoundingClientRect();
    return [...o.querySelectorAll('.react-bubble, .card, .opp-count')].filter(e => {
        const r = e.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5;
    }).map(e => o.dataset.seat + ': ' + e.className);
})"""


def test_on_a_phone_a_reaction_and_the_other_faces_stay_in_the_seat(
    browser: Any, tmp_path: Any
) -> None:
    """Issue 49 (minor): on a 390 px phone at a Flip table, a reaction hung out of its
    seat and past the screen's edge, and the other faces of a seat's cards ran out of
    its box, hiding its count."""
    with run_server(tmp_path, seed=3, timing=TIMING) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        phone = {"width": 390, "height": 844}
        ben = Player.open(browser, "Benjamin", viewport=phone, is_mobile=True, has_touch=True)
        try:
            code = create_room(ana, url, preset="flip", players=4, seats=["", "easy", "easy"])
            join_room(ben, url, code)
            ana.page.click("#start-btn")
            ben.page.wait_for_selector(".table-wrap")
            ana.page.click(".reactions [data-emote='gg']")
            ben.page.wait_for_selector(".opp[data-seat='0'] .react-bubble")
            assert ben.page.evaluate(INSIDE) == []
            assert ben.page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            ana.close()
            ben.close()
