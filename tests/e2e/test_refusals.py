"""What the page says when it cannot do what was asked (issue 49, the trial's minor
defects): a room that does not exist says so once and offers a way on; a replay link to
a room that does not exist, or to something that is no room code, says which; a seat
opened in a second tab says it is open twice."""

from __future__ import annotations

from typing import Any

from browser_table import Player, create_room, run_server


def test_a_room_or_a_replay_that_does_not_exist_says_so_once(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path) as url:
        p = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        try:
            page = p.page
            page.goto(f"{url}/r/ZZZZZZ")
            page.wait_for_selector("main h1")
            title = page.locator("main h1").inner_text()
            said = page.locator("main .panel p").inner_text()
            assert title == "There is no room ZZZZZZ"
            assert "no room" not in said.lower() and "check the code" in said.lower(), said
            # a replay link to a room no one made names the room, not "no such game"
            page.goto(f"{url}/replay?room=ZZZZZZ&game=1")
            page.wait_for_selector("#replay-error:not(:empty)")
            said = page.locator("#replay-error").inner_text()
            assert "there is no room ZZZZZZ" in said, said
            # and what cannot be a room code is said, not passed over in silence
            page.goto(f"{url}/replay?room=ZZZ")
            page.wait_for_selector("#replay-error:not(:empty)")
            said = page.locator("#replay-error").inner_text()
            assert said.startswith('"ZZZ" is not a room code'), said
            assert not p.errors
        finally:
            p.close()


def test_a_seat_open_in_a_second_tab_says_so_in_both(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        try:
            create_room(ana, url, players=2, seats=["easy"])
            link = ana.page.url
            second = ana.context.new_page()  # the same browser: the same seat's token
            second.goto(link)
            second.click("#resume-btn")  # "Continue as Ana": this browser sat here
            second.wait_for_selector(".waiting")
            told = "Your seat is open in another tab or window too"
            for page in (ana.page, second):
                page.wait_for_function(
                    "t => document.querySelector('.toast.show')?.textContent.startsWith(t)",
                    arg=told,
                )
        finally:
            ana.close()
