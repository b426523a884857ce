"""axe-core (vendored in the axe-playwright-python package, nothing fetched) finds no
serious or critical violation on the home page, the room lobby or the table; the table
can be played with the keyboard alone."""

from __future__ import annotations

from typing import Any

import pytest
from browser_table import CUT_SELECTS, Player, create_room, find_seed, run_server, serious, shot

from unokit.engine.phases import P_START_COLOR

# Two first deals, both with Ana (seat 0) to act first: a card she can play on, or a
# Wild turned up so she names its colour (R-START-WILD).  An unseeded deal once let the
# Wild start's colour picker (or the bot) come first, and the keyboard step below then
# pressed D when no draw was legal: CI failed on it.
START = {
    "card": lambda g: g.current == 0 and g.phase == 0 and any(a.play for a in g.legal_actions(0)),
    "wild": lambda g: g.current == 0 and g.phase == P_START_COLOR,
}


@pytest.mark.parametrize("start", sorted(START))
def test_no_serious_accessibility_violations_and_keyboard_play(
    browser: Any, tmp_path: Any, start: str
) -> None:
    seed = find_seed("classic", {}, 2, START[start])
    with run_server(tmp_path, seed=seed) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        try:
            page = ana.page
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")
            shot(page, "home.png")
            assert serious(page) == []
            # every seat's choice is read whole, with up to 10 players
            assert page.evaluate(CUT_SELECTS, ".seat-choice select") == []
            page.select_option("#seats", "10")
            assert page.locator(".seat-choice select").count() == 9
            assert page.evaluate(CUT_SELECTS, ".seat-choice select") == []
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
            # keyboard only: focus the hand, walk it with the arrows, then play with Enter
            # (choosing a Wild's colour with a letter), or name the start colour with B
            before = ana.version
            page.locator(".hand .card").first.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            if start == "wild":
                assert page.locator(".prompt .color-pick").count() == 1
                page.keyboard.press("b")
            else:
                page.locator(".hand .card.playable").first.focus()
                page.keyboard.press("Enter")
                if page.locator(".prompt .color-pick").count():
                    page.keyboard.press("b")
            assert ana.wait_version_above(before)
            if start == "wild":
                assert ana.frames[-1]["view"]["color"] == "B"
            assert serious(page) == []
            # the help lists the keys
            page.keyboard.press("?")
            assert page.locator("#help").is_visible()
            assert not ana.errors and not ana.console
        finally:
            ana.close()


def test_a_knocked_out_no_mercy_seat_reads_as_well_as_the_others(
    browser: Any, tmp_path: Any
) -> None:
    """Issue 49, M3: a seat the Mercy rule knocked out was dimmed whole, its name and
    badge too, the trial's only axe violation (color-contrast, serious).  A No Mercy
    game whose round ended with three seats knocked out, opened in the replay viewer at
    its last move: axe finds nothing serious, and the knocked-out seats are there."""
    from unokit.bots import RandomBot, play_game
    from unokit.engine.family import new_game
    from unokit.record import dumps
    from unokit.rules import from_preset

    game = new_game(from_preset("no-mercy", {"target_score": 200}), ["Ana", "Ben", "Cy", "Di"],
                    seed=1)  # fmt: skip
    play_game(game, [RandomBot(seed=i) for i in range(4)])
    assert not all(game.live), "the seed no longer knocks anyone out: choose another"
    path = tmp_path / "knocked.json"
    path.write_text(dumps(game))
    with run_server(tmp_path) as url:
        p = Player.open(browser, "Viewer", viewport={"width": 1280, "height": 860})
        try:
            p.page.goto(f"{url}/replay")
            p.page.wait_for_selector("#replay-file")
            p.page.set_input_files("#replay-file", str(path))
            p.page.wait_for_selector("#replay-bar")
            p.page.click("#rp-last")
            p.page.wait_for_selector(".opp.knocked")
            p.page.click("#hide-summary")  # the table behind the summary
            assert p.page.locator(".opp.knocked").count() >= 2
            shot(p.page, "table-knocked-out.png")
            assert not serious(p.page), serious(p.page)
        finally:
            p.close()
