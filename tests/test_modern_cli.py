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


def test_the_compiled_engine_refuses_the_modern_games_bots_clearly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The compiled engine plays both games (issue 50) with the fast players only: a bot
    is refused in one line that names the way out."""
    pytest.importorskip("numba")
    for preset in ("flip", "no-mercy"):
        code = main(["sim", "--rules", preset, "--engine", "compiled", "--games", "2",
                     "--bots", "greedy,random"])  # fmt: skip
        assert code == 2
        err = capsys.readouterr().err
        assert "reference engine" in err and "--engine python" in err
        assert "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize("preset", ["flip", "no-mercy"])
def test_sim_plays_the_modern_games(
    preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`unokit sim` on the Python engine: games to their end, with each game's own
    numbers (No Mercy's knock-outs and NM-END-3 hands, Flip's flips)."""
    path = tmp_path / "s.json"
    argv = ["sim", "--rules", preset, "--players", "4", "--games", "40", "--workers", "1",
            "--bots", "heuristic,random,greedy,careless", "--json", str(path)]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    doc = json.loads(path.read_text())["runs"][0]
    assert doc["games"] == 40 and doc["stalled_games"] == 0 and doc["game"] == preset
    assert sum(r["wins"] for r in doc["win_rate_by_seat"]) == 40
    assert doc["turns_per_game"]["mean"] > 10
    if preset == "no-mercy":
        assert "knock-outs per game" in out and doc["knockouts_per_game"]["total"] > 0
        assert doc["rounds_per_game"]["mean"] == 1  # NM-SCORE-1: first out wins the game
    else:
        assert "flips per game" in out and doc["flips_per_game"]["total"] > 0
        assert doc["rounds_per_game"]["mean"] > 1  # FLIP-SCORE: rounds to 500 points


def test_tournament_plays_the_modern_games(capsys: pytest.CaptureFixture[str]) -> None:
    """`unokit tournament` seats every bot at UNO Flip! and No Mercy tables."""
    for preset in ("flip", "no-mercy"):
        argv = ["tournament", "--bots", "random", "greedy", "heuristic",
                "ismcts:iterations=4", "--players", "3", "--rules", preset,
                "--games", "12", "--workers", "1"]  # fmt: skip
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert preset in out and "ismcts:iterations=4" in out and "left out" not in out
