"""The replay viewer (issue 36 item 13): a game record opened from a file (the file
input, or dropped on the page: one written by ``unokit demo``, one downloaded from a
game) or by a finished room's link, stepped forward and back, a round jumped to, played
at a chosen speed, seen from a seat, a spectator or with every hand open, by the live
table's renderer (the server turns the record into the table's state messages)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from browser_table import ROOT, Player, create_room, run_server, shot, turn

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


def last_move(record: dict[str, Any]) -> str:
    """Where the viewer's last frame of ``record`` is: its last round's last move."""
    n, moves = len(record["rounds"]), len(record["rounds"][-1]["actions"])
    return f"Round {n} of {n}: " + (f"move {moves} of {moves}" if moves else "the deal")


def open_file(page: Any, path: Path) -> None:
    """The record ``path`` chosen with the replay page's file input."""
    page.wait_for_selector("#replay-file")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("#replay-bar")


def test_a_record_written_by_unokit_demo(browser: Any, tmp_path: Any) -> None:
    """The output of ``unokit demo`` (the CLI itself, as ``make demo`` runs it) opens in
    the viewer at its deal and ends with the winner the CLI printed."""
    path = tmp_path / "demo.json"
    said = subprocess.run(
        [sys.executable, "-m", "unokit.cli", "demo", "--players", "3", "--seed", "1",
         "--record", str(path)],
        capture_output=True, text=True, check=True, cwd=str(ROOT), timeout=60,
    ).stderr  # fmt: skip
    # with --record, stdout stays empty and the outcome goes to stderr
    winner = re.search(r"^(\S+) wins after \d+ rounds", said, re.M)
    assert winner, said
    record = json.loads(path.read_text())
    assert record["format"] == "uno-record/1" and len(record["rounds"]) >= 2
    with run_server(tmp_path) as url:
        p = Player.open(browser, "Viewer", viewport={"width": 1280, "height": 860})
        try:
            page = p.page
            page.goto(url + "/replay")
            open_file(page, path)
            assert "demo.json" in page.locator(".rp-title").inner_text()
            # the first frame: round 1's deal, the players the CLI named
            assert where(page) == f"Round 1 of {len(record['rounds'])}: the deal"
            names = page.locator(".opponents .opp").all_inner_texts()
            assert all(any(n in o for o in names) for n in record["players"]), names
            page.click("#rp-next")
            assert where(page).startswith(f"Round 1 of {len(record['rounds'])}: move 1 of ")
            # the last frame: the last move of the last round, and the game's summary
            page.click("#rp-last")
            page.wait_for_selector("#summary")
            assert where(page) == last_move(record)
            assert page.locator("#summary-h").inner_text() == f"{winner[1]} won the game!"
            page.keyboard.press("Home")
            assert where(page).endswith("the deal") and where(page).startswith("Round 1 ")
            assert not p.errors, p.errors
        finally:
            p.close()


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
            # JSON but not a record: said in the page too, before any request (the
            # server's 400 would be a console error); checked by no_console_errors
            posted: list[str] = []
            page.on("request", lambda r: posted.append(r.url) if "/api/replay" in r.url else None)
            page.goto(url + "/replay")
            page.set_input_files(
                "#replay-file",
                files=[{"name": "scores.json", "mimeType": "application/json",
                        "buffer": b'{"players": "Ana, Ben", "scores": [500, 120]}'}],
            )  # fmt: skip
            page.wait_for_function(
                "() => document.querySelector('#replay-error')?"
                ".textContent.includes('not a game record')"
            )
            said = page.locator("#replay-error").inner_text()
            assert said.startswith("This record cannot be replayed: it is JSON, but not a"), said
            assert page.locator("#replay-bar").count() == 0 and posted == [], posted
            # a finished room's game, by the link its summary gives
            create_room(p, url, players=2, seats=["easy"])
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap")
            moved, deadline = 0, time.monotonic() + 30
            while moved < 2 and time.monotonic() < deadline:  # a few moves to replay
                if turn(p):
                    moved += 1
                else:
                    page.wait_for_timeout(100)
            page.on("dialog", lambda d: d.accept())
            page.click("#end-btn")
            page.wait_for_selector("#replay-link")
            # the record downloaded from the summary, kept for the file input below
            with page.expect_download() as dl:
                page.click("#record-link")
            downloaded = tmp_path / "downloaded.json"
            dl.value.save_as(downloaded)
            record = json.loads(downloaded.read_text())
            assert record["players"][0] == "Ana" and record["rounds"][0]["actions"]
            page.click("#replay-link")
            page.wait_for_selector("#replay-bar")
            assert page.locator(".rp-title").inner_text().startswith("Replay: room ")
            page.keyboard.press("End")
            assert where(page) == last_move(record)
            # the downloaded record, opened with the file input: the same game
            page.goto(url + "/replay")
            open_file(page, downloaded)
            assert where(page) == "Round 1 of 1: the deal"
            assert record["players"][1] in page.locator(".opponents-ring").inner_text()
            page.click("#rp-last")
            assert where(page) == last_move(record)
            assert posted and all("/api/replay?view=spectator" in u for u in posted), posted
            assert not p.errors, p.errors
        finally:
            p.close()
