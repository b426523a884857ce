"""The command line and the modern games: listed, played by demo, replayed, refused
clearly where a front end does not play them yet (issue 38)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unokit.cli import main
from unokit.rules import RuleSet, from_preset, parse_option


def test_rules_lists_both_games_and_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for text in ("flip ", "no-mercy ", "flip_start", "mercy_limit", "nm_deck", "redraw, flip"):
        assert text in out, text
    lines = out.splitlines()
    checked = 0
    for i, line in enumerate(lines):  # every listed choice is accepted by its game
        if "choices:" in line and "whole number" not in line:
            key = lines[i - 1].split()[0]
            game = "flip" if key.startswith("flip") else "no-mercy"
            listed = line.split("choices:")[1].split(";")[0]
            values = ["true", "false"] if "true or false" in listed else listed.split(",")
            for v in values:
                k, value = parse_option(f"{key}={v.strip()}")
                assert from_preset(game, {k: value}).options()[key] == value
                checked += 1
    assert checked >= 25
    assert "flip_start" not in RuleSet().options()  # classic rules read as before


@pytest.mark.parametrize("preset", ["flip", "no-mercy"])
def test_demo_writes_a_record_that_replays(
    preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert main(["demo", "--rules", preset, "--players", "3", "--seed", "4",
                 "--record", str(path)]) == 0  # fmt: skip
    capsys.readouterr()
    rec = json.loads(path.read_text())
    assert rec["format"] == "uno-record/1" and rec["rules"]["preset"] == preset
    assert main(["replay", str(path), "--compact"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["state"]["game"] == preset and out["state"]["game_over"]


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "--rules", "no-mercy", "--games", "2"],
        ["tournament", "--bots", "random", "greedy", "--rules", "flip", "--games", "2"],
    ],
)
def test_front_ends_that_do_not_play_them_yet_say_so(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "classic decks only" in err and "Traceback" not in err and err.count("\n") == 1
