"""Scenario records in tests/scenarios/, replayed exactly as `unokit replay FILE` does.

Each file is a record (RECORD.md) plus ``description`` and ``expect``; the replay
ignores both.  ``expect.state`` lists only the fields the scenario is about; hands are
compared as multisets.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def _norm(key: str, value: Any) -> Any:
    if key == "hands":
        return [sorted(h) for h in value]
    return value


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    expect = json.loads(path.read_text())["expect"]
    proc = subprocess.run(
        [sys.executable, "-m", "unokit.cli", "replay", str(path), "--compact"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == expect["exit"], proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    out = json.loads(proc.stdout)
    if expect["exit"] == 2:
        assert out["ok"] is False and out["error"]["message"]
        return
    for key, value in expect.get("state", {}).items():
        assert _norm(key, out["state"][key]) == _norm(key, value), key
    if "error" in expect:
        for key, value in expect["error"].items():
            assert out["error"][key] == value, key


def test_there_are_scenarios_for_the_official_rules() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"r-start-reverse", "r-act-challenge-guilty", "r-uno-2-catch"} <= names
