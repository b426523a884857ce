"""Golden records: a whole game pinned byte for byte.

If the engine's behaviour or its use of the RNG changes, these fail: then either the
change is a bug, or it is deliberate and the golden files are regenerated with
`unokit demo --players 4 --seed 7 --record tests/golden/demo-4p-seed7.json` (and the
replay output beside it) in a commit that says why.
"""

from __future__ import annotations

import json
from pathlib import Path

from unokit.cli import main
from unokit.record import replay_text

GOLDEN = Path(__file__).parent / "golden"


def test_golden_record_replays_to_the_pinned_state() -> None:
    status, out = replay_text((GOLDEN / "demo-4p-seed7.json").read_text())
    assert status == 0
    assert out == json.loads((GOLDEN / "demo-4p-seed7.replay.json").read_text())


def test_same_seed_writes_the_same_record(tmp_path: Path) -> None:
    target = tmp_path / "again.json"
    assert main(["demo", "--players", "4", "--seed", "7", "--record", str(target)]) == 0
    assert target.read_text() == (GOLDEN / "demo-4p-seed7.json").read_text()
