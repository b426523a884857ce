"""Sounds (issue 36 item 17): the table makes its sounds with Web Audio (nothing
fetched: the page's requests are checked), a mute toggle that survives a reload, off by
default when the system asks for reduced motion, and silent while the page is in the
background.  Audio output cannot be heard here: sounds.js counts each sound it makes in
``<html data-sounds>``, which the test reads."""

from __future__ import annotations

import time
from typing import Any

from browser_table import Player, create_room, run_server

TIMING = {"bot_delay": 0.2, "catch_window": 0.3, "next_round": 60.0}


def sounds(p: Player) -> list[str]:
    got = p.page.evaluate("() => document.documentElement.dataset.sounds || ''")
    return [s for s in str(got).split(",") if s]


def act(p: Player) -> None:
    """One move of Ana's when it is her turn: a playable card (a colour if asked) or a draw;
    none when the round ends first (a bot went out: the summary, not her turn, comes)."""
    page = p.page
    page.wait_for_selector(".table-wrap.my-turn, #summary", timeout=20_000)
    if p.visible("#summary"):
        return
    before = p.drawn_version()
    if p.visible("#keep-btn"):
        page.click("#keep-btn")
    elif page.locator(".hand .card.playable").count():
        page.locator(".hand .card.playable").first.click()
        if p.visible(".prompt .color-pick"):
            page.locator(".prompt .color-pick .colorbtn").first.click()
    elif p.visible("#accept-btn"):
        page.click("#accept-btn")
    else:
        page.click("#draw-btn")
    p.settle(before)


def play_until_sound(p: Player, want: int, limit: float = 40.0) -> None:
    end = time.monotonic() + limit
    while len(sounds(p)) < want:
        assert time.monotonic() < end, sounds(p)
        if p.visible("#summary"):
            return
        act(p)


def test_sounds_a_mute_that_persists_reduced_motion_and_background(
    browser: Any, tmp_path: Any
) -> None:
    with run_server(tmp_path, timing=TIMING) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        requests: list[str] = []
        ana.page.on("request", lambda r: requests.append(r.url))
        try:
            page = ana.page
            create_room(ana, url, players=2, seats=["easy"])
            assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
            page.click("#start-btn")
            play_until_sound(ana, 4)
            made = sounds(ana)
            assert set(made) <= {"play", "draw", "uno", "turn", "win", "flip"} and made
            # her turn coming, and a card played or drawn (which message makes which
            # sound, UNO and a round won too: tests/js/sounds.test.mjs)
            assert "turn" in made and {"play", "draw"} & set(made), made
            assert all(u.startswith(url) for u in requests)  # nothing fetched elsewhere
            # muted: no sound while playing on, and still muted after a reload
            page.click("#sound-btn")
            assert page.locator("#sound-btn").get_attribute("aria-pressed") == "false"
            page.reload()
            page.wait_for_selector(".table-wrap")
            assert page.locator("#sound-btn").get_attribute("aria-pressed") == "false"
            for _ in range(3):
                if ana.visible("#summary"):
                    break
                act(ana)
            assert sounds(ana) == []
            # on again, but the page in the background: silent.  The page goes to the
            # background first: a bot's move between the two steps made its sound while
            # the page was still in view (the flake hunt at b59e980, run 1)
            page.evaluate(
                "() => { Object.defineProperty(document, 'visibilityState', "
                "{ configurable: true, get: () => 'hidden' }); "
                "document.dispatchEvent(new Event('visibilitychange')); }"
            )
            page.click("#sound-btn")
            assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
            for _ in range(3):
                if ana.visible("#summary"):
                    break
                act(ana)
            assert sounds(ana) == []
            assert not ana.errors, ana.errors
        finally:
            ana.close()
        # a system that asks for reduced motion: sounds start off
        calm = Player.open(browser, "Cy", reduced_motion="reduce")
        try:
            calm.page.goto(f"{url}/")
            create_room(calm, url, players=2, seats=["easy"])
            assert calm.page.locator("#sound-btn").get_attribute("aria-pressed") == "false"
        finally:
            calm.close()
