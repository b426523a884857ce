"""Golden records of UNO Flip! and No Mercy: whole games pinned byte for byte.

If the engine's behaviour or its use of the RNG changes, these fail: either the change
is a bug, or it is deliberate and the files are made again, in a commit that says why:

    unokit demo --rules flip --players 3 --seed 7 --record tests/golden/flip-3p-seed7.json
    unokit demo --rules no-mercy --option scoring=standard --option target_score=600 \\
        --players 4 --seed 7 --record tests/golden/no-mercy-4p-seed7.json

(each with ``unokit replay FILE > FILE.replay.json`` beside it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unokit.cli import main
from unokit.record import replay_text

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "flip-3p-seed7": ["--rules", "flip", "--players", "3", "--seed", "7"],
    "no-mercy-4p-seed7": ["--rules", "no-mercy", "--option", "scoring=standard", "--option",
                          "target_score=600", "--players", "4", "--seed", "7"],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_modern_record_replays_to_the_pinned_state(name: str) -> None:
    status, out = replay_text((GOLDEN / f"{name}.json").read_text())
    assert status == 0
    assert out == json.loads((GOLDEN / f"{name}.replay.json").read_text())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_same_seed_writes_the_same_modern_record(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "again.json"
    assert main(["demo", *GAMES[name], "--record", str(target)]) == 0
    capsys.readouterr()
    assert target.read_text() == (GOLDEN / f"{name}.json").read_text()
