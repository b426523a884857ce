"""Finding a game without a link (issue 49 item 3): public rooms on the home page and
Quick play, in the browser.

Two people who never shared a link meet: Ana presses Quick play and gets a new public
room; Ben sees it in the home page's list and Quick play seats him in it; Ana starts
and both are at the table.  A host takes a room off the list with the lobby's switch.
Ben says he is ready (the lobby's ready check).  The lobby shows the room's link as a
QR code the server drew.
"""

from __future__ import annotations

from typing import Any

from browser_table import Player, create_room, run_server, serious, shot

QUICK = {"bot_delay": 0.05, "catch_window": 0.3, "next_round": 60.0}


def listed(p: Player) -> list[str]:
    """The room codes the home page lists, once the list has loaded."""
    page = p.page
    page.wait_for_selector(".public-list, #public-none")
    return [
        c or ""
        for c in page.locator(".public-room").evaluate_all("els => els.map((e) => e.dataset.code)")
    ]


def refreshed_until(p: Player, want: int, tries: int = 40) -> list[str]:
    """Refresh pressed until ``want`` rooms show: a server reads the list from the
    store at most once a second, so a change shows within that."""
    for _ in range(tries):
        codes = listed(p)
        if len(codes) == want:
            return codes
        p.page.wait_for_timeout(250)
        p.page.click("#public-refresh")
    raise AssertionError(f"the list shows {listed(p)}, not {want} rooms")


def qr_drawn(p: Player) -> bool:
    return bool(p.page.locator("img.qr").evaluate("(img) => img.complete && img.naturalWidth > 0"))


def test_two_strangers_meet_through_quick_play(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path, timing=QUICK) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 900})
        ben = Player.open(browser, "Ben", viewport={"width": 390, "height": 844})
        try:
            ana.page.goto(url + "/")
            assert listed(ana) == []
            assert ana.page.locator("#public-none").is_visible()
            ana.page.fill("#name", "Ana")
            ana.page.click("#quick-btn")
            ana.page.wait_for_selector(".waiting #start-btn")
            code = ana.page.url.rstrip("/").rsplit("/", 1)[1]
            assert ana.page.is_checked("#public-switch")  # Quick play's room is public
            ana.page.locator("img.qr").wait_for()
            ana.page.wait_for_function("() => document.querySelector('img.qr').naturalWidth > 0")
            assert qr_drawn(ana)
            assert not serious(ana.page)
            shot(ana.page, "lobby-public.png")

            ben.page.goto(url + "/")
            assert refreshed_until(ben, 1) == [code]
            row = ben.page.locator(f".public-room[data-code='{code}']").inner_text()
            assert "Ana" in row and "3 of 4 seats free" in row and "English" in row
            assert not serious(ben.page)
            shot(ben.page, "home-public-phone.png")
            ben.page.fill("#name", "Ben")
            ben.page.click("#quick-btn")
            ben.page.wait_for_url(f"**/r/{code}")
            ben.page.wait_for_selector(".seat-row .tag.you")
            ana.page.locator(".seat-row.person").nth(1).wait_for()
            assert "Ben" in ana.page.locator(".seats").inner_text()
            # the ready check: Ben says he is ready, Ana sees it before she starts
            ben.page.click("#ready-btn")
            ana.page.wait_for_selector(".seat-row.person .tag.ready")
            assert ana.page.locator("#ready-count").inner_text() == "Ready: 1 of 2 players."
            assert ben.page.get_attribute("#ready-btn", "aria-pressed") == "true"
            ana.page.click("#start-btn")
            for p in (ana, ben):
                p.page.wait_for_selector(".table-wrap")
                assert p.view()["names"][:2] == ["Ana", "Ben"]
            # a game under way is not offered to strangers
            ben.page.goto(url + "/")
            assert refreshed_until(ben, 0) == []
            for p in (ana, ben):
                assert not p.errors, p.errors
        finally:
            ana.close()
            ben.close()


def test_a_host_takes_a_public_room_off_the_list(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path, timing=QUICK) as url:
        host = Player.open(browser, "Ana", viewport={"width": 1280, "height": 900})
        other = Player.open(browser, "Cy", viewport={"width": 1280, "height": 900})
        try:
            code = create_room(host, url, players=3, public=True)  # the create form's switch
            other.page.goto(url + "/")
            assert refreshed_until(other, 1) == [code]
            shot(other.page, "home-public.png")
            host.page.uncheck("#public-switch")
            refreshed_until(other, 0)
            # a player who is not the host sees the room is public, and has no switch
            host.page.check("#public-switch")
            refreshed_until(other, 1)
            other.page.click(f".public-room[data-code='{code}'] button")
            other.page.wait_for_url(f"**/r/{code}")
            other.page.fill("#join-name", "Cy")
            other.page.click("#join-btn")
            other.page.wait_for_selector("#public-note")
            assert other.page.locator("#public-switch").count() == 0
        finally:
            host.close()
            other.close()
