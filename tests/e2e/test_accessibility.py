"""axe-core (vendored in the axe-playwright-python package, nothing fetched) finds no
serious or critical violation on the home page, the room lobby or the table; the table
can be played with the keyboard alone."""

from __future__ import annotations

from typing import Any

import pytest
from browser_table import Player, create_room, run_server, shot

axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright")


def serious(page: Any) -> list[str]:
    results = axe_mod.Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            where = [n["target"] for n in v["nodes"]][:3]
            out.append(f"{v['id']} ({v['impact']}): {v['help']} at {where}")
    return out


def test_no_serious_accessibility_violations_and_keyboard_play(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        try:
            page = ana.page
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")
            shot(page, "home.png")
            assert serious(page) == []
            create_room(ana, url, players=2, seats=["normal"])
            assert serious(page) == []
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap.my-turn", timeout=20000)
            # a screen reader hears whose turn it is (a live region that stays put)
            assert "Your turn" in page.locator("#announce").inner_text()
            assert serious(page) == []
            # every card in the hand is a button whose name says what it is
            labels = page.eval_on_selector_all(
                ".hand .card", "els => els.map(e => e.getAttribute('aria-label'))"
            )
            assert labels and all(("playable" in x or "cannot be played" in x) for x in labels), (
                labels
            )
            # keyboard only: focus the hand, walk it with the arrows, play with Enter
            # (or draw with D when nothing fits)
            before = ana.version
            page.locator(".hand .card").first.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            playable = page.locator(".hand .card.playable")
            if playable.count():
                playable.first.focus()
                page.keyboard.press("Enter")
                if page.locator(".prompt .color-pick").count():
                    page.keyboard.press("b")
            else:
                page.keyboard.press("d")
            assert ana.wait_version_above(before)
            assert serious(page) == []
            # the help lists the keys
            page.keyboard.press("?")
            assert page.locator("#help").is_visible()
            assert not ana.errors and not ana.console
        finally:
            ana.close()
