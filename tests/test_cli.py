"""The ``unokit`` command as a newcomer meets it (issue 15): help, errors, output files."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import unokit
from unokit import tournament
from unokit.cli import build_parser, main
from unokit.files import check_output_dir, free_path, write_text_atomic
from unokit.record import loads, replay
from unokit.rules import PRESET_PLAYERS, RuleSet, from_preset, parse_option

SRC = str(Path(unokit.__file__).parent.parent)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def one_line_error(capsys: pytest.CaptureFixture[str], command: str) -> str:
    err = capsys.readouterr().err
    assert err.startswith(f"unokit {command}: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


# ------------------------------------------------------------------ help, version ----
@pytest.mark.parametrize("argv", [[], *([c] for c in sorted(subcommands()))])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_for_the_program_and_every_command(
    argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*argv, flag])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: unokit")


def test_every_option_has_help_and_shows_its_default() -> None:
    for name, sp in subcommands().items():
        for action in sp._actions:
            if action.option_strings and action.dest != "help":
                assert action.help, f"unokit {name} {action.option_strings[0]} has no help"
    text = subcommands()["play"].format_help()
    assert "(default: normal)" in text and "(default: 0.6)" in text
    assert "15%" in text  # --level says how often the bots forget UNO
    sim = subcommands()["sim"].format_help()
    assert "95% CI" in sim or "statistics" in sim
    assert "(default: local)" in sim and "gives up after 5 s" in " ".join(sim.split())
    full = " ".join(subcommands()["tournament"].format_help().split())
    assert "--full-games each game is a whole game" in full


def test_version_and_python_m_unokit(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"unokit {unokit.__version__}"
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run(
        [sys.executable, "-m", "unokit", "--version"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0 and done.stdout.strip() == f"unokit {unokit.__version__}"


# ------------------------------------------------------------------ output paths -----
def test_tournament_checks_its_json_path_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_play(*a: Any, **k: Any) -> Any:
        raise AssertionError("the tournament must not start")

    monkeypatch.setattr(tournament, "run", no_play)
    argv = ["tournament", "--bots", "random", "greedy", "--games", "4", "--workers", "1"]
    assert main([*argv, "--json", "/nonexistent/t.json"]) == 2
    assert "the folder /nonexistent does not exist" in one_line_error(capsys, "tournament")


def test_tournament_json_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    argv = ["tournament", "--bots", "random", "greedy", "--games", "4", "--workers", "1"]
    assert main([*argv, "--json", str(path)]) == 0
    assert json.loads(path.read_text())["players"] == 2
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]  # no temporary file left


@pytest.mark.parametrize(
    ("where", "message"),
    [("/nonexistent/x.json", "the folder /nonexistent does not exist"), ("DIR", "is a folder")],
)
def test_demo_and_play_check_the_record_path_first(
    where: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(tmp_path) if where == "DIR" else where
    assert main(["demo", "--record", path]) == 2
    assert message in one_line_error(capsys, "demo")
    import unokit.tui.app

    def no_game(*a: Any) -> int:
        raise AssertionError("the game must not open")

    monkeypatch.setattr(unokit.tui.app, "run_play", no_game)
    assert main(["play", "--record", path]) == 2
    assert message in one_line_error(capsys, "play")


def test_output_helpers(tmp_path: Path) -> None:
    p = tmp_path / "a.json"
    write_text_atomic(p, "one")
    write_text_atomic(p, "two")
    assert p.read_text() == "two"
    with pytest.raises(FileExistsError):
        write_text_atomic(p, "three", overwrite=False)
    assert p.read_text() == "two" and [q.name for q in tmp_path.iterdir()] == ["a.json"]
    assert free_path(p) == tmp_path / "a-2.json"
    assert free_path(tmp_path / "b.json") == tmp_path / "b.json"
    assert check_output_dir(str(tmp_path / "new" / "dir"), "--plot") == tmp_path / "new" / "dir"
    assert (tmp_path / "new" / "dir").is_dir()


# ------------------------------------------------------------------ replay -----------
def replay_failure(
    argv: list[str], capsys: pytest.CaptureFixture[str], contains: str
) -> dict[str, Any]:
    assert main(["replay", *argv]) == 2
    out, err = capsys.readouterr()
    doc: dict[str, Any] = json.loads(out)
    assert doc["ok"] is False and contains in doc["error"]["message"]
    assert err.startswith("unokit replay: ") and err.count("\n") == 1
    assert "Errno" not in err and "codec" not in err  # no raw Python error text
    return doc


def test_replay_errors_are_json_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay_failure([str(tmp_path / "missing.json")], capsys, "no such file")
    replay_failure([str(tmp_path)], capsys, "it is a folder")
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"players": ["Jos\xe9"]}')
    replay_failure([str(bad)], capsys, "is not UTF-8 text")
    rec = {
        "format": "uno-record/1",
        "rules": {"preset": "classic"},
        "players": ["a", "b"],
        "rounds": [{"dealer": 0, "seed": 1, "actions": [{"seat": 0, "foo": 1}]}],
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    doc = replay_failure([str(path)], capsys, 'action {"seat": 0, "foo": 1}')
    assert "{'seat'" not in doc["error"]["message"]  # JSON, not a Python dict


# ------------------------------------------------------------------ rules ------------
def test_rules_lists_the_values_of_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for key in RuleSet().options():
        assert f"  {key} " in out
    assert out.count("values:") == len(RuleSet().options())
    for rule in ("none", "next_draws_3", "others_draw_2", "extra_turn", "discard_color"):
        assert rule in out
    # every listed choice is accepted
    for line in out.splitlines():
        if "values:" in line and "whole number" not in line and "true or false" not in line:
            key = out.splitlines()[out.splitlines().index(line) - 1].split()[0]
            values = line.split("values:")[1].split(";")[0]
            if key == "launcher_weights":
                continue
            for v in values.split(","):
                parse_option(f"{key}={v.strip()}")


def test_two_player_preset_seats_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert PRESET_PLAYERS["two-player"] == 2
    path = tmp_path / "d.json"
    assert main(["demo", "--rules", "two-player", "--record", str(path)]) == 0
    assert len(loads(path.read_text()).players) == 2
    capsys.readouterr()
    seen: list[int] = []
    import unokit.tui.app

    monkeypatch.setattr(unokit.tui.app, "run_play", lambda a, r: seen.append(a.players) or 0)
    assert main(["play", "--rules", "two-player"]) == 0 and seen == [2]
    assert main(["play"]) == 0 and seen == [2, 4]
    assert main(["play", "--rules", "two-player", "--players", "4"]) == 2
    assert "the two-player preset is for 2 players" in one_line_error(capsys, "play")
    assert from_preset("two-player") == from_preset("classic")
    argv = ["tournament", "--bots", "random", "--rules", "two-player", "--players", "3"]
    assert main(argv) == 2
    assert "the two-player preset is for 2 players" in one_line_error(capsys, "tournament")


def test_demo_counts_rounds_from_one_and_replay_indexes_from_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "d.json"
    assert main(["demo", "--seed", "7", "--record", str(path)]) == 0
    err = capsys.readouterr().err
    rec = loads(path.read_text())
    result = replay(rec)
    assert result.ok
    rounds = len(rec.rounds)
    assert f"after {rounds} rounds" in err or (rounds == 1 and "after 1 round;" in err)
    assert result.to_json()["round"] == rounds - 1  # JSON: the last round's 0-based index


def test_cli_catches_only_the_packages_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    import unokit.cli

    def broken(args: argparse.Namespace) -> int:
        raise ValueError("a bug, not bad input")

    monkeypatch.setattr(unokit.cli, "cmd_rules", broken)
    with pytest.raises(ValueError, match="a bug"):
        main(["rules"])
