"""The tournament harness: reproducibility, seat rotation, statistics, CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from unokit import tournament as t
from unokit.cli import main
from unokit.rules import RuleSet


def spec(bots: list[str], players: int, **kw: object) -> t.Spec:
    return t.Spec(tuple(t.parse_entrants(bots)), players, RuleSet(), seed=3, **kw)  # type: ignore[arg-type]


def test_same_results_with_one_and_two_workers() -> None:
    sp = spec(["random", "greedy", "heuristic"], 3)
    one, _ = t.run(sp, 90, workers=1)
    two, _ = t.run(sp, 90, workers=2)
    assert one.counts() == two.counts()
    assert one.tables == 90


def test_full_games_reproduce_too() -> None:
    sp = spec(["random", "greedy"], 2, full_games=True)
    a, _ = t.run(sp, 6, workers=1)
    b, _ = t.run(sp, 6, workers=1)
    assert a.counts() == b.counts()
    assert all(r > g for r, g in zip(a.rounds, a.games, strict=True))  # several rounds


@pytest.mark.parametrize(
    ("bots", "players"),
    [(["random", "greedy"], 2), (["random", "greedy", "heuristic"], 3), (["random", "greedy"], 4)],
)
def test_rotation_gives_every_bot_every_seat_equally(bots: list[str], players: int) -> None:
    tally, _ = t.run(spec(bots, players), 8 * players, workers=1)
    per_bot = players // len(bots)  # seats a bot holds at each table
    for seats in tally.seat_games:
        assert seats == [8 * per_bot] * players
    assert sum(tally.wins) == tally.tables  # one winner per single round


def test_each_deal_is_replayed_in_every_rotation(monkeypatch: pytest.MonkeyPatch) -> None:
    games: list[tuple[int, object]] = []
    builds: list[tuple[str, int]] = []
    real_game, real_build = t.new_game, t.Entrant.build

    def game(*args: object, seed: int, **kw: object) -> object:
        games.append((seed, None))
        return real_game(*args, seed=seed, **kw)  # type: ignore[arg-type]

    def build(self: t.Entrant, seed: int) -> object:
        builds.append((self.label, seed))
        return real_build(self, seed)

    monkeypatch.setattr(t, "new_game", game)
    monkeypatch.setattr(t.Entrant, "build", build)
    sp = spec(["random", "greedy", "heuristic"], 3)
    t.play_chunk((0, sp, 0, 2))
    seeds = [s for s, _ in games]
    assert seeds == [t.deal_seed(3, 0)] * 3 + [t.deal_seed(3, 1)] * 3  # same cards x3
    # each bot keeps its seed (it follows the slot, not the seat) in every rotation
    first = builds[:9]
    for label in ("random", "greedy", "heuristic"):
        assert len({s for lab, s in first if lab == label}) == 1


def test_more_bots_than_seats_cycle_through_lineups() -> None:
    assert t.lineups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert t.lineups(2, 4) == [(0, 1, 0, 1)]
    tally, _ = t.run(spec(["random", "greedy", "heuristic"], 2), 10, workers=1)
    assert tally.tables == 12  # 5 deals, rounded up to 2 cycles of 3 line-ups, x 2 seats
    assert tally.games == [8, 8, 8]
    assert tally.beat[0][1] + tally.beat[1][0] == 4


def test_wilson_known_values() -> None:
    lo, hi = t.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = t.wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.2775, abs=1e-4)
    assert t.wilson(0, 0) == (0.0, 1.0)


def test_elo_known_values() -> None:
    # two bots, 76 wins to 24: a gap of 400 log10(76/24) = 200.2, around a mean of 1500
    a, b = t.elo_ratings([[0, 76], [24, 0]], prior=0)
    assert a - b == pytest.approx(400 * math.log10(76 / 24), abs=1e-6)
    assert (a + b) / 2 == pytest.approx(1500)
    # a consistent Bradley-Terry set (strengths 9 : 3 : 1) is fitted exactly
    r = t.elo_ratings([[0, 75, 90], [25, 0, 75], [10, 25, 0]], prior=0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r[1] - r[2] == pytest.approx(400 * math.log10(3), abs=1e-6)
    # the prior keeps an unbeaten bot finite; a bot that met no one stays at 1500
    r = t.elo_ratings([[0, 10, 0], [0, 0, 0], [0, 0, 0]])
    assert r[0] - r[1] == pytest.approx(400 * math.log10(10.5 / 0.5), abs=1e-6)
    assert r[2] == 1500


def test_parse_entrants() -> None:
    e = t.parse_entrant("ismcts:iterations=200,time_budget=0.05")
    assert e.bot == "ismcts" and dict(e.options) == {"iterations": 200, "time_budget": 0.05}
    labels = [x.label for x in t.parse_entrants(["greedy", "greedy"])]
    assert labels == ["greedy", "greedy#2"]
    with pytest.raises(t.TournamentError, match="unknown bot"):
        t.parse_entrant("nope")
    with pytest.raises(t.TournamentError, match="no option"):
        t.parse_entrant("random:iterations=3")


@pytest.mark.parametrize(
    "argv",
    [
        ["--bots", "random", "nope"],
        ["--bots", "ismcts:depth=3"],
        ["--bots", "ismcts:iterations=lots"],
        ["--bots", "random", "--option", "nope=1"],
        ["--bots", "random", "--rules", "nope"],
        ["--bots", "random", "--games", "0"],
        ["--bots", "random", "--workers", "0"],
    ],
)
def test_cli_errors_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("unokit tournament: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_cli_small_real_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "t.json"
    argv = ["tournament", "--bots", "random", "greedy", "--games", "40", "--seed", "1"]
    assert main([*argv, "--workers", "1", "--json", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI (Wilson)" in out and "Elo" in out
    assert out.count("\nrandom ") == 1 and out.count("\ngreedy ") == 1
    doc = json.loads(out_file.read_text("utf-8"))
    assert [b["games"] for b in doc["bots"]] == [40, 40]
    assert sum(b["wins"] for b in doc["bots"]) == 40
    assert doc["rating"].startswith("Elo")
    for b in doc["bots"]:
        lo, hi = b["ci95_wilson"]
        assert lo <= b["win_rate"] <= hi
        assert b["ms_per_decision"] > 0


def test_a_round_past_the_decision_cap_is_left_out_and_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deal whose round never ends (a loop the rules force) counts for no one."""
    monkeypatch.setattr(t, "MAX_DECISIONS", 3)  # no round of 7 cards ends in 3 decisions
    sp = spec(["random", "greedy"], 2)
    tally, wall = t.run(sp, 4, workers=1)
    assert tally.stalled == 4 and tally.tables == 0
    assert tally.games == [0, 0] and tally.wins == [0, 0]
    doc = t.report(sp, tally, wall, 1)
    assert doc["stalled"] == 4
    assert "4 tables left out: a round had no winner after 3 decisions" in t.format_table(doc)


def test_a_no_mercy_stall_without_the_mercy_rule_is_called_a_drift_not_a_forced_loop() -> None:
    """`--rules no-mercy --option mercy_limit=0 --bots random`: hands grow without end
    under random play; the report called that "a loop the rules force" (issue 46)."""
    nm = RuleSet(deck="no-mercy", scoring="first-out", mercy_limit=0, preset="no-mercy")
    cause = t.stall_cause(nm.options() | {"preset": "no-mercy"})
    assert "mercy_limit=0" in cause and "not a loop the rules force" in cause
    assert "a loop the rules force" in t.stall_cause(RuleSet().options())
