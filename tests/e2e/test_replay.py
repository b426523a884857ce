"""The replay viewer (issue 36 item 13): a game record opened from a file (the file
input, or dropped on the page) or by a finished room's link, stepped forward and back,
a round jumped to, played at a chosen speed, seen from a seat, a spectator or with
every hand open, by the live table's renderer (the server turns the record into the
table's state messages)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_table import Player, create_room, run_server, shot

from unokit.bots import RandomBot, play_game
from unokit.engine import Game
from unokit.record import dumps
from unokit.rules import from_preset

axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright")


def _record(tmp: Path, preset: str, name: str, seed: int) -> tuple[Path, dict[str, Any]]:
    game = Game(from_preset(preset, {"target_score": 200}), ["Ana", "Ben", "Cy"], seed=seed)
    play_game(game, [RandomBot(seed=i) for i in range(3)])
    path = tmp / name
    path.write_text(dumps(game))
    return path, json.loads(path.read_text())


def where(page: Any) -> str:
    return str(page.locator("#rp-where").inner_text())


def test_a_record_file_stepped_jumped_played_and_seen_from_every_view(
    browser: Any, tmp_path: Any
) -> None:
    path, record = _record(tmp_path, "classic", "game.json", 11)
    assert len(record["rounds"]) >= 2
    with run_server(tmp_path) as url:
        p = Player.open(browser, "Viewer", viewport={"width": 1280, "height": 860})
        try:
            page = p.page
            page.goto(url + "/")
            page.click("#replay-home")
            page.wait_for_selector("#replay-file")
            page.set_input_files("#replay-file", str(path))
            page.wait_for_selector("#replay-bar")
            assert where(page) == f"Round 1 of {len(record['rounds'])}: the deal"
            assert page.locator(".opponents .opp").count() == 3  # a spectator's view
            assert page.locator("#log li").count() >= 2  # "Round 1: ... deals", the first card
            page.click("#rp-next")
            assert re.match(r"Round 1 of \d+: move 1 of \d+$", where(page))
            first = record["rounds"][0]["actions"][0]
            lines = page.locator("#log li").all_inner_texts()
            assert any(record["players"][first["seat"]] in line for line in lines[-2:]), lines
            page.keyboard.press("ArrowRight")
            assert ": move 2 of" in where(page)
            page.click("#rp-back")
            page.click("#rp-back")
            assert where(page).endswith("the deal")
            # jump to round 2, and back with Home
            page.select_option("#rp-round", "1")
            assert where(page).startswith("Round 2 of")
            assert page.locator("#turn").count() == 1
            page.keyboard.press("Home")
            assert where(page).endswith("the deal") and where(page).startswith("Round 1")
            # play at 8x: the moves go by themselves until paused
            page.select_option("#rp-speed", "8")
            page.click("#rp-play")
            page.wait_for_function(
                "() => /move ([5-9]|\\d\\d)/.test(document.querySelector('#rp-where').textContent)"
            )
            page.click("#rp-play")  # pause
            assert page.locator("#rp-play").inner_text() == "Play"
            paused = where(page)
            page.wait_for_timeout(400)
            assert where(page) == paused
            # Ben's view: his hand, as he held it; the others' hands stay hidden
            page.select_option("#rp-view", "1")
            page.wait_for_selector(".hand .card")
            assert where(page) == paused  # the same moment of the game
            st = p.page.evaluate("() => document.querySelectorAll('.hand .card').length")
            assert st > 0 and page.locator(".opp .open-fan").count() == 0
            assert page.locator(".me-name").inner_text() == "Ben"
            # every hand open: the others' cards face up
            page.select_option("#rp-view", "open")
            page.wait_for_selector(".opp .open-fan .card")
            assert page.locator(".opp").count() == 3
            shot(page, "replay.png")
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(200)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            shot(page, "replay-phone-390.png")
            assert not serious(page), serious(page)
            page.set_viewport_size({"width": 1280, "height": 860})
            assert not serious(page), serious(page)
            # the end: the game's summary, with the winner
            page.keyboard.press("End")
            page.wait_for_selector("#summary")
            assert "won the game" in page.locator("#summary-h").inner_text()
            assert page.locator("#rematch-btn, #next-round-btn, #record-link").count() == 0
            shot(page, "replay-end.png")
            assert not p.errors, p.errors
        finally:
            p.close()


def serious(page: Any) -> list[str]:
    results = axe_mod.Axe().run(page)
    return [
        f"{v['id']}: {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_a_dropped_flip_record_and_a_finished_rooms_link(browser: Any, tmp_path: Any) -> None:
    path, _ = _record(tmp_path, "flip", "flip.json", 4)
    with run_server(tmp_path) as url:
        p = Player.open(browser, "Ana", viewport={"width": 1280, "height": 860})
        try:
            page = p.page
            page.goto(url + "/replay")
            page.wait_for_selector("#replay-drop")
            page.evaluate(
                """(text) => {
                    const dt = new DataTransfer();
                    dt.items.add(new File([text], "flip.json", { type: "application/json" }));
                    const drop = { dataTransfer: dt, bubbles: true, cancelable: true };
                    document.body.dispatchEvent(new DragEvent("drop", drop));
                }""",
                path.read_text(),
            )
            page.wait_for_selector("#replay-bar")
            assert page.locator("#side-up").count() == 1  # UNO Flip!, drawn as at the table
            assert page.locator(".opp .other-fan .card").count() > 0
            # not a record (not even JSON): said in the page, nothing sent, nothing shown
            page.goto(url + "/replay")
            page.set_input_files(
                "#replay-file",
                files=[{"name": "x.json", "mimeType": "application/json", "buffer": b"{oops"}],
            )
            page.wait_for_function(
                "() => document.querySelector('#replay-error')?"
                ".textContent.includes('cannot be replayed')"
            )
            assert "not JSON" in page.locator("#replay-error").inner_text()
            # a finished room's game, by the link its summary gives
            create_room(p, url, players=2, seats=["easy"])
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap")
            page.on("dialog", lambda d: d.accept())
            page.click("#end-btn")
            page.wait_for_selector("#replay-link")
            page.click("#replay-link")
            page.wait_for_selector("#replay-bar")
            assert page.locator(".rp-title").inner_text().startswith("Replay: room ")
            page.keyboard.press("End")
            assert not p.errors, p.errors
        finally:
            p.close()
