"""The compiled engine (issue 16): records replayed by the reference engine, statistics
that agree with it, refusals, and the ``--engine compiled`` / ``--check`` flags.

The reference engine (``unokit.engine.game``) is the source of truth.  Every compiled
game below is written as a record (RECORD.md), read back from its JSON text and
replayed through the reference engine with every action checked; the final state must
be identical (hands in order, piles, colour, turn, direction, scores, winners).  The
statistics of both engines, over the same number of games, must agree figure by figure
within 99% intervals of their difference (the engines draw different random numbers,
so single games differ).

The first test run compiles the kernel (numba, ``cache=True``: later runs load it).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from unokit import compiled, simbase
from unokit.cli import main
from unokit.rules import from_preset
from unokit.sim import SimConfig, SimError, simulate
from unokit.simbase import CARD_TYPES, Tally
from unokit.stats import Hist

# numba: one xdist worker compiles the kernels once for every test here (loadgroup)
pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]

Z99 = 2.5758293035489004  # two-sided 99% quantile of the standard normal

# Every preset, and every option family of RULES.md §9 on top of the classic rules.
FAMILIES: list[tuple[str, tuple[tuple[str, Any], ...]]] = [
    ("classic", ()),
    ("two-player", ()),
    ("mattel-2018", ()),
    ("teams", ()),
    ("seed-001-house", ()),
    ("my-first-uno", ()),
    ("attack", ()),
    ("party", ()),
    ("classic", (("stacking", "pass"),)),
    ("classic", (("stacking", "progressive"),)),
    ("classic", (("stacking", "progressive"), ("stack_draw4_on_draw2", True))),
    ("classic", (("draw_until_playable", True),)),
    ("classic", (("force_play_drawn", True),)),
    ("classic", (("draw_until_playable", True), ("force_play_drawn", True))),
    ("classic", (("multi_play", True),)),
    ("classic", (("jump_in", True),)),
    ("classic", (("seven_zero", True),)),
    ("classic", (("deck", "mattel-2018-shuffle"),)),
    ("classic", (("deck", "mattel-2018-swap"), ("custom_cards", 0))),
    ("classic", (("scoring", "low"), ("target_score", 200))),
    ("classic", (("scoring", "elimination"), ("target_score", 150))),
    ("classic", (("scoring", "first-out"),)),
    ("classic", (("wd4_guilty", "retract"),)),
    ("classic", (("wd4_bluffing", False), ("uno_penalty", 0))),
    ("classic", (("uno_penalty", 1), ("false_uno_penalty", 2), ("wild_points", 20))),
    ("classic", (("hand_size", 3), ("target_score", 100))),
    ("attack", (("launcher_weights", (0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),)),
    *[
        ("mattel-2018", (("custom_rule", rule),))
        for rule in (
            "none",
            "next_draws_3",
            "others_discard_wilds",
            "extra_turn",
            "discard_color",
        )
    ],
    ("classic", (("deck", "mattel-2018-shuffle"), ("custom_rule", "discard_color"))),
]


def _label(fam: tuple[str, tuple[tuple[str, Any], ...]]) -> str:
    preset, opts = fam
    return preset + "".join(f":{k}={v}" for k, v in opts)


def _players(preset: str) -> tuple[int, ...]:
    if preset == "teams":
        return (4,)
    if preset == "my-first-uno":
        return (2, 4)
    return (2, 3, 5)


# ------------------------------------------------------------------ records ----------
@pytest.mark.parametrize("fam", FAMILIES, ids=_label)
def test_compiled_games_replay_identically_through_the_reference_engine(
    fam: tuple[str, tuple[tuple[str, Any], ...]],
) -> None:
    """--check's work for every preset and option family: whole games and single rounds,
    every table size, careless players (UNO catches) beside random and reference ones."""
    preset, opts = fam
    for n in _players(preset):
        for seats in (("random",) * n, ("careless", "reference", *("random",) * (n - 2))):
            for rounds_only in (False, True):
                cfg = SimConfig(preset=preset, options=opts, seats=seats, games=3, seed=n,
                                engine="compiled", rounds_only=rounds_only)  # fmt: skip
                for index in range(3 if rounds_only else 2):
                    played = compiled.check_game(cfg, index)  # raises CheckError if not equal
                    assert played.state["round_over"]
                    if not rounds_only:
                        assert played.state["game_over"]


def test_the_record_is_recordmd_json_and_covers_every_round() -> None:
    cfg = SimConfig(seats=("careless",) * 3, games=1, seed=3, engine="compiled")
    played = compiled.check_game(cfg, 0)
    rec = json.loads(json.dumps(played.record))
    assert rec["format"] == "uno-record/1" and rec["players"] == ["Player 0", "Player 1",
                                                                  "Player 2"]  # fmt: skip
    assert len(rec["rounds"]) > 1  # a whole game to 500
    for r in rec["rounds"]:
        assert len(r["deck"]) == 108 and r["actions"]
    kinds = {k for r in rec["rounds"] for a in r["actions"] for k in a if k != "seat"}
    assert {"play", "draw", "color", "uno", "catch", "challenge", "accept"} <= kinds


def test_a_compiled_game_that_differs_is_reported_with_its_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check really compares: a corrupted final state fails, naming the record file."""
    real = compiled.state_json

    def wrong(st: Any, rules: Any) -> dict[str, Any]:
        out = real(st, rules)
        out["direction"] = -out["direction"]
        return out

    monkeypatch.setattr(compiled, "state_json", wrong)
    cfg = SimConfig(games=1, engine="compiled", rounds_only=True)
    with pytest.raises(compiled.CheckError, match="differ in direction") as info:
        compiled.check_game(cfg, 0)
    path = Path(str(info.value).rsplit("record: ", 1)[1].rstrip(")"))
    assert json.loads(path.read_text())["format"] == "uno-record/1"
    path.unlink()


def test_an_illegal_compiled_action_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = compiled._record

    def tampered(*a: Any) -> dict[str, Any]:
        rec = real(*a)
        actions = rec["rounds"][0]["actions"]
        first_play = next(a for a in actions if "play" in a)
        first_play["play"] = "WSWAP"  # not in the classic deck's hands
        return rec

    monkeypatch.setattr(compiled, "_record", tampered)
    cfg = SimConfig(games=1, engine="compiled", rounds_only=True)
    with pytest.raises(compiled.CheckError, match="is illegal"):
        compiled.check_game(cfg, 0)


# ------------------------------------------------------------------ statistics -------
def _mean_var(h: Hist) -> tuple[float, float, int]:
    n = h.n
    mean = h.total / n
    var = (h.total_sq - h.total * h.total / n) / (n - 1)
    return mean, var, n


def _figures(t: Tally) -> dict[str, tuple[float, float]]:
    """Each figure as (estimate, variance of the estimate), all over independent games."""
    out: dict[str, tuple[float, float]] = {}
    g = t.games
    for p, wins in enumerate(t.wins_by_position):
        r = wins / g
        out[f"win rate, {p} left of dealer"] = (r, r * (1 - r) / g)
    for name in ("turns", "rounds_per_game", "round_turns", "round_points", "reshuffles",
                 "challenges", "catches"):  # fmt: skip
        mean, var, n = _mean_var(getattr(t, name))
        out[f"mean {name}"] = (mean, var / n)
    by_type = t.plays_by_type()
    for k, name in enumerate(CARD_TYPES):
        s, sq = by_type[k], t.type_sq[k]
        mean = s / g
        var = (sq - s * s / g) / (g - 1)
        out[f"{name} plays per game"] = (mean, var / g)
    out["draw turns per game"] = (t.draw_turns / g, math.nan)  # no per-game spread kept
    return out


def _agree(a: Tally, b: Tally) -> list[str]:
    fa, fb = _figures(a), _figures(b)
    bad = []
    for key, (ma, va) in fa.items():
        mb, vb = fb[key]
        if math.isnan(va):
            continue
        se = math.sqrt(va + vb)
        if se == 0:
            if ma != mb:
                bad.append(f"{key}: {ma} vs {mb} (no spread)")
            continue
        if abs(ma - mb) > Z99 * se:
            bad.append(f"{key}: compiled {ma:.4f} vs reference {mb:.4f} (99% half-width "
                       f"{Z99 * se:.4f})")  # fmt: skip
    return bad


STAT_CASES = [
    # (preset, options, seats, games, rounds_only)
    ("classic", (), ("random",) * 2, 4000, True),
    ("classic", (), ("random",) * 4, 3000, True),
    ("classic", (("wd4_bluffing", False), ("uno_penalty", 0)), ("reference",) * 2, 3000, True),
    ("classic", (), ("careless",) * 3, 400, False),
    ("party", (), ("careless",) * 4, 2000, True),
    ("seed-001-house", (), ("careless", "random", "random"), 300, False),
    ("mattel-2018", (), ("random",) * 4, 2000, True),
    (
        "classic",
        (("deck", "mattel-2018-shuffle"), ("draw_until_playable", True)),
        ("careless",) * 3,
        2000,
        True,
    ),
    ("attack", (), ("random",) * 3, 2000, True),
    ("classic", (("scoring", "elimination"), ("target_score", 200)), ("random",) * 4, 200, False),
    ("teams", (), ("random",) * 4, 200, False),
]


@pytest.mark.parametrize("case", STAT_CASES, ids=lambda c: f"{_label(c[:2])}-{len(c[2])}p")
def test_both_engines_agree_on_every_figure_within_99_percent(case: Any) -> None:
    preset, opts, seats, games, rounds_only = case
    kw = dict(preset=preset, options=opts, seats=seats, games=games, seed=16,
              rounds_only=rounds_only)  # fmt: skip
    ref = simulate([SimConfig(**kw)], workers=1)[0].tally
    fast = simulate([SimConfig(**kw, engine="compiled")], workers=1)[0].tally
    assert fast.games == ref.games == games
    assert _agree(fast, ref) == []


def test_same_seed_same_numbers_whatever_the_chunks_and_workers() -> None:
    cfg = SimConfig(seats=("careless",) * 3, games=300, seed=4, engine="compiled")
    whole = compiled.run_chunk(cfg, 0, 300)
    parts = compiled.run_chunk(cfg, 0, 120)
    parts.merge(compiled.run_chunk(cfg, 120, 180))
    assert whole == parts
    (two,) = simulate([cfg], workers=2)
    assert two.tally == whole


def test_games_past_the_decision_cap_are_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stalled compiled game is counted as stalled and left out, like the reference's."""
    monkeypatch.setattr(simbase, "MAX_DECISIONS", 6)  # some 2-card rounds end by then
    cfg = SimConfig(seats=("random", "random"), options=(("hand_size", 2),), games=40, seed=5,
                    rounds_only=True, engine="compiled")  # fmt: skip
    (result,) = simulate([cfg], workers=1)
    t = result.tally
    assert t.stalled > 0 and t.games > 0 and t.games + t.stalled == 40
    assert sum(t.wins_by_seat) == t.games == t.turns.n
    stalled = next(i for i in range(40) if compiled.play_logged(cfg, i).stalled)
    compiled.check_game(cfg, stalled)  # its actions are legal and the states agree


# ------------------------------------------------------------------ refusals, CLI ----
def test_bots_are_refused_naming_the_reference_engine() -> None:
    with pytest.raises(SimError, match="run on the reference engine"):
        SimConfig(seats=("heuristic", "random"), engine="compiled")
    assert compiled.unsupported(("random", "random"), from_preset("party")) is None


def test_without_numba_one_line_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "available", lambda: False)
    with pytest.raises(SimError, match=r"pip install 'unokit\[fast\]'"):
        SimConfig(engine="compiled")


def test_check_needs_the_compiled_engine() -> None:
    with pytest.raises(SimError, match=r"--check .* needs --engine compiled"):
        SimConfig(check=10)


def test_cli_engine_compiled_with_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "c.json"
    code = main(["sim", "--engine", "compiled", "--check", "50", "--games", "400", "--players",
                 "4", "--compare", "classic", "party", "--workers", "1", "--quiet", "--json",
                 str(out)])  # fmt: skip
    assert code == 0
    runs = json.loads(out.read_text())["runs"]
    assert [r["config"]["engine"] for r in runs] == ["compiled", "compiled"]
    assert all(r["games"] == 400 for r in runs)
    capsys.readouterr()
    assert main(["sim", "--engine", "compiled", "--bots", "greedy", "--games", "5"]) == 2
    err = capsys.readouterr().err
    assert "reference engine" in err and err.count("\n") == 1


def test_a_deal_that_leaves_no_start_card_is_refused_like_the_reference() -> None:
    """Refused before any game, by the rules' own check or the compiled engine's."""
    from unokit.rules import RulesError

    with pytest.raises((SimError, RulesError), match="10 hands of 11 leave"):
        SimConfig(seats=("random",) * 10, options=(("hand_size", 11),), engine="compiled")


# ------------------------------------------------------------------ who acts ---------
def test_who_acts_is_seat_to_ask_on_random_positions() -> None:
    """The compiled loops (the simulator's rounds, both search rollouts) ask one function
    who acts, ``kernel.who_acts``; it must be ``engine.state.seat_to_ask`` itself.
    Random games under random rule sets (every family above), played by random legal
    actions of random actors (catches, late calls, jump-ins, forgotten UNO calls, W+4
    challenges), each position converted as the searches convert it
    (``compiled.state_from_game``) and asked with random seats passed and waited on."""
    import random

    from unokit.compiled import kernel
    from unokit.engine.actions import PLAY
    from unokit.engine.game import P_ROUND_OVER, Game
    from unokit.engine.state import seat_to_ask

    rng = random.Random(34)
    asked = reactions = jumps = 0
    for g_index in range(90):
        preset, opts = FAMILIES[g_index % len(FAMILIES)]
        rules = from_preset(preset, dict(opts))
        n = rng.choice(_players(preset))
        game = Game(rules, n, seed=g_index, events=False)
        arr = compiled.rules_array(rules, n, rounds_only=False, reactive=True)
        for _ in range(400):
            if game.phase >= P_ROUND_OVER:
                if game.game_over:
                    break
                game.start_round()
            st = compiled.state_from_game(game)
            for _ in range(3):
                waits = None if rng.random() < 0.5 else {s for s in range(n) if rng.random() < 0.7}
                passed = {s for s in range(n) if rng.random() < 0.3}
                want = seat_to_ask(game, passed, waits)
                wmask = -1 if waits is None else sum(1 << s for s in waits)
                got = kernel.who_acts(st, arr, sum(1 << s for s in passed), wmask)
                assert got == want, (preset, opts, n, passed, waits, game.state_json())
                asked += 1
                reactions += want not in (-1, game.current)
                jumps += want != game.current and game.vulnerable < 0 and want >= 0
            seat = rng.choice(game.actors())
            legal = game.legal_actions(seat)
            action = rng.choice(legal)
            if action.kind == PLAY and action.uno and rng.random() < 0.8:
                action = action._replace(uno=False)  # forget UNO: a catch window opens
            game.apply_trusted(seat, action)
    assert asked > 100_000 and reactions - jumps > 400 and jumps > 300  # catch, jump-in asks
