"""UNO Flip! on the compiled engine (issue 50 item 1): records replayed by the reference
engine for every option family, statistics that agree with ``sim/modern.py``, refusals,
and ``unokit sim --engine compiled --rules flip --check``.

As for classic UNO (``tests/test_compiled.py``), the reference engine
(``unokit.engine.modern.flip``) is the source of truth: every compiled game below is
written as a record (its pairing of faces in the deck's codes, FLIP-DECK-3), read back
from its JSON text and replayed with every action checked; the final state (hands as
they show, both piles card by card with both faces, side, colour, turn, direction,
scores, winners) must be identical.  The statistics of both engines must agree figure
by figure within 99% intervals of their difference.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from unokit import compiled
from unokit.cli import main
from unokit.compiled import CheckError
from unokit.compiled import flip as cflip
from unokit.rules import from_preset
from unokit.sim import SimConfig, SimError, simulate
from unokit.simbase import Tally

pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]

Z99 = 2.5758293035489004

Opts = tuple[tuple[str, Any], ...]
# every option of RULES-MODERN.md A12 and the classic options Flip plays (FLIP-OPT-1)
FAMILIES: list[Opts] = [
    (),
    (("flip_start", "flip"),),  # FLIP-START-FLIP
    (("flip_inverts_discard", False),),  # FLIP-FLIP-2's simplification
    (("flip_exposed_action", True),),  # FLIP-FLIP-4
    (("flip_exposed_action", True), ("flip_wild_color", "next_player")),  # FLIP-FLIP-5
    (("flip_wild_color", "next_player"),),
    (("flip_last_card", "no_flip"),),  # FLIP-END-3
    (("wd4_bluffing", False),),  # FLIP-CHAL-2
    (("draw_until_playable", True), ("force_play_drawn", True)),
    (("jump_in", True),),
    (("multi_play", True),),  # R-VAR-MULTI (FLIP-OPT-1): several number faces at once
    (("multi_play", True), ("draw_until_playable", True), ("flip_exposed_action", True)),
    (("scoring", "low"), ("target_score", 300)),  # FLIP-SCORE-3
    (("scoring", "first-out"),),
    (("uno_penalty", 4), ("hand_size", 9)),
    (
        ("flip_start", "flip"),
        ("flip_exposed_action", True),
        ("flip_inverts_discard", False),
        ("draw_until_playable", True),
    ),
]


def _label(opts: Opts) -> str:
    return "flip" + "".join(f":{k}={v}" for k, v in opts)


@pytest.mark.parametrize("opts", FAMILIES, ids=_label)
def test_compiled_flip_games_replay_identically_through_the_reference_engine(opts: Opts) -> None:
    """--check's work for every option family: whole games and single rounds, 2, 3, 5
    and 10 seats, careless players (missed calls, catches, late calls) beside random and
    reference ones (challenges of Wild Draw Two and Wild Draw Colour, FLIP-CHAL)."""
    multis = 0
    for n in (2, 3, 5, 10):
        if n * dict(opts).get("hand_size", 7) >= 111:
            continue
        for seats in (("random",) * n, ("careless", "reference", *("random",) * (n - 2))):
            for rounds_only in (False, True):
                cfg = SimConfig(preset="flip", options=opts, seats=seats, games=3, seed=n,
                                engine="compiled", rounds_only=rounds_only)  # fmt: skip
                for index in range(3 if rounds_only else 1):
                    played = compiled.check_game(cfg, index)  # raises CheckError if not equal
                    assert played.state["round_over"] and played.state["game"] == "flip"
                    rounds = played.record["rounds"]
                    if not rounds_only:
                        assert played.state["game_over"]
                        assert len(rounds) >= 1
                    # the pairing travels in the codes (FLIP-DECK-2, -3)
                    assert all("|" in code for code in rounds[0]["deck"])
                    if dict(opts).get("multi_play"):
                        multis += sum("cards" in a for r in rounds for a in r["actions"])
    if dict(opts).get("multi_play"):
        assert multis > 0  # the fast players played several cards at once


def test_a_flip_game_that_differs_is_reported_with_its_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = cflip.state_json

    def off_by_one_side(st: Any, rules: Any) -> dict[str, Any]:
        out = real(st, rules)
        out["side"] = "dark" if out["side"] == "light" else "light"
        return out

    monkeypatch.setattr(cflip, "state_json", off_by_one_side)
    cfg = SimConfig(preset="flip", games=1, engine="compiled", rounds_only=True)
    with pytest.raises(CheckError, match=r"final states differ in side \(record: .*\.json\)"):
        compiled.check_game(cfg, 0)


# ------------------------------------------------------------------ statistics -------
def _figures(t: Tally) -> dict[str, tuple[float, float]]:
    """Each figure as (estimate, variance of the estimate), over independent games."""
    out: dict[str, tuple[float, float]] = {}
    g = t.games
    for p, wins in enumerate(t.wins_by_position):
        r = wins / g
        out[f"win rate, {p} left of dealer"] = (r, r * (1 - r) / g)
    for name in ("turns", "rounds_per_game", "round_turns", "round_points", "reshuffles",
                 "challenges", "catches", "flips"):  # fmt: skip
        h = getattr(t, name)
        mean = h.total / h.n
        var = (h.total_sq - h.total * h.total / h.n) / (h.n - 1)
        out[f"mean {name}"] = (mean, var / h.n)
    return out


STAT_CASES = [
    ((), ("random",) * 2, 3000, True),
    ((), ("careless", "random", "reference"), 2500, True),
    ((("flip_exposed_action", True), ("draw_until_playable", True)), ("random",) * 4, 2000, True),
    ((("flip_start", "flip"), ("flip_wild_color", "next_player")), ("careless",) * 3, 300, False),
    ((("multi_play", True),), ("careless", "random", "random"), 2500, True),
]


@pytest.mark.parametrize("case", STAT_CASES, ids=lambda c: f"{_label(c[0])}-{len(c[1])}p")
def test_both_engines_agree_on_every_flip_figure_within_99_percent(case: Any) -> None:
    opts, seats, games, rounds_only = case
    kw = dict(preset="flip", options=opts, seats=seats, games=games, seed=50,
              rounds_only=rounds_only)  # fmt: skip
    ref = simulate([SimConfig(**kw)], workers=1)[0].tally
    fast = simulate([SimConfig(**kw, engine="compiled")], workers=1)[0].tally
    assert fast.games == ref.games == games
    fa, fr = _figures(fast), _figures(ref)
    bad = []
    for key, (ma, va) in fa.items():
        mb, vb = fr[key]
        se = math.sqrt(va + vb)
        if (se == 0 and ma != mb) or abs(ma - mb) > Z99 * se:
            bad.append(f"{key}: compiled {ma:.4f} vs reference {mb:.4f} (se {se:.4f})")
    assert bad == []
    assert fast.flips.total > 0 and fast.challenges.total > 0


def test_same_seed_same_flip_numbers_whatever_the_chunks() -> None:
    cfg = SimConfig(preset="flip", seats=("careless",) * 3, games=200, seed=4, engine="compiled")
    whole = compiled.run_chunk(cfg, 0, 200)
    parts = compiled.run_chunk(cfg, 0, 70)
    parts.merge(compiled.run_chunk(cfg, 70, 130))
    assert whole == parts


# ------------------------------------------------------------------ refusals, CLI ----
def test_what_the_compiled_engine_does_not_play_is_refused_naming_the_python_engine() -> None:
    with pytest.raises(SimError, match=r"No Mercy.*--engine python"):
        SimConfig(preset="no-mercy", engine="compiled")
    with pytest.raises(SimError, match="run on the reference engine"):
        SimConfig(preset="flip", seats=("heuristic", "random"), engine="compiled")
    for opts in FAMILIES:  # every Flip option: none is refused
        assert compiled.unsupported(("random", "random"), from_preset("flip", dict(opts))) is None


def test_cli_sim_compiled_flip_with_check(tmp_path: Path) -> None:
    out = tmp_path / "f.json"
    code = main(["sim", "--engine", "compiled", "--rules", "flip", "--check", "25",
                 "--games", "300", "--players", "3", "--bots", "careless", "--workers", "2",
                 "--quiet", "--json", str(out)])  # fmt: skip
    assert code == 0
    (run,) = json.loads(out.read_text())["runs"]
    assert run["config"]["engine"] == "compiled" and run["games"] == 300
    assert run["flips_per_game"]["mean"] > 0
