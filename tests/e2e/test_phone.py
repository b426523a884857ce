"""The phone layout (360x740, touch): make a room, call UNO, play a Wild, pick a colour;
axe-core finds no serious or critical violation on the phone's home page, lobby, table
and colour picker.

UNOKIT_SEED makes the first deal one where Ana, dealt two cards, holds a Wild and plays
first, so one turn covers all three.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_table import Player, create_room, find_seed, run_server, serious, shot

from unokit.cards import WILD, WILD_DRAW4

OPTIONS = {"hand_size": 2}
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def good(g: Any) -> bool:
    return g.current == 0 and g.phase == 0 and bool({WILD, WILD_DRAW4} & set(g.hands[0]))


def test_phone_can_play_a_card_call_uno_and_pick_a_colour(
    browser: Any, tmp_path: pytest.TempPathFactory
) -> None:
    seed = find_seed("classic", OPTIONS, 2, good)
    with run_server(tmp_path, seed=seed) as url:  # type: ignore[arg-type]
        ana = Player.open(browser, "Ana", **PHONE)
        try:
            page = ana.page
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")  # the form, not "Loading..."
            shot(page, "home-phone.png")
            assert serious(page) == []
            create_room(ana, url, options=OPTIONS, players=2, seats=["normal"])
            assert serious(page) == []  # the lobby
            page.locator("#start-btn").tap()
            page.wait_for_selector(".table-wrap.my-turn")
            # nothing wider than the phone: the page never scrolls sideways
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, width
            # a finger has no keys: the buttons do not show them (issue 49, minor)
            assert page.locator("#draw-btn").inner_text().strip() == "Draw"
            assert page.locator("#draw-btn .key-hint").count() == 1  # there, for keyboards
            shot(page, "table-phone.png")
            assert serious(page) == []
            uno = page.locator("#uno-btn")
            uno.tap()
            assert uno.get_attribute("aria-pressed") == "true"
            wild = page.locator('.hand .card.playable[data-card^="W"]').first
            box = wild.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44
            wild.tap()
            page.wait_for_selector(".prompt .color-pick")
            shot(page, "colour-phone.png")
            assert serious(page) == []
            for b in page.locator(".colorbtn").all():
                bb = b.bounding_box()
                assert bb is not None and bb["height"] >= 44 and bb["x"] + bb["width"] <= 360
            page.locator(".colorbtn.cb-G").tap()
            page.wait_for_function(
                "() => [...document.querySelectorAll('#log li')]"
                ".some(li => li.textContent.includes('You called UNO'))"
            )
            events = ana.events()
            play = next(e for e in events if e["kind"] == "play" and e["seat"] == 0)
            assert play["cards"][0] in ("W", "W+4") and play["color"] == "G"
            assert any(e["kind"] == "uno" and e["seat"] == 0 for e in events)
            assert not ana.errors
        finally:
            ana.close()
