"""Simulations (issue 6): determinism, counts, confidence intervals, outputs, backends, CLI."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from unokit.cards import CARD_RANK, NUM_CARDS
from unokit.cli import main
from unokit.engine import Game
from unokit.sim import SimConfig, SimError, Table, Tally, simulate, summarize
from unokit.sim.config import REFERENCE_OPTIONS, parse_rules_spec
from unokit.sim.report import CSV_FIELDS
from unokit.simbase import N_TYPES
from unokit.stats import Hist, mean_ci, wilson

REF = SimConfig(
    seats=("reference", "reference"), options=REFERENCE_OPTIONS, rounds_only=True, games=10
)


def _deterministic(summary: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in summary.items() if k != "timing"}, sort_keys=True)


# --------------------------------------------------------------------- statistics ---
def test_wilson_interval_known_cases() -> None:
    lo, hi = wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(10, 10)
    assert round(lo, 4) == 0.7225 and hi == 1.0
    lo, hi = wilson(5050, 10_000)  # the published 50.5% with 10,000 games
    assert round(lo, 4) == 0.4952 and round(hi, 4) == 0.5148
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_mean_interval_known_case() -> None:
    xs = [1, 2, 3, 4, 5]  # mean 3, sample sd sqrt(2.5)
    mean, lo, hi = mean_ci(len(xs), sum(xs), sum(x * x for x in xs))
    half = 1.959963984540054 * math.sqrt(2.5 / 5)
    assert mean == 3 and lo == pytest.approx(3 - half) and hi == pytest.approx(3 + half)
    assert Hist.of(xs).mean_ci() == (mean, lo, hi)


def test_histogram_quantiles_match_numpy() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(3)
    xs = [int(rng.expovariate(1 / 40)) for _ in range(2001)]
    h = Hist.of(xs)
    for q in (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0):
        assert h.quantile(q) == pytest.approx(float(np.percentile(xs, q * 100)))
    assert h.n == len(xs) and h.total == sum(xs) and h.max == max(xs)
    assert Hist.from_json(json.loads(json.dumps(h.to_json()))) == h


# -------------------------------------------------------------------- determinism ---
def test_same_seed_same_result_whatever_the_workers() -> None:
    configs = [
        SimConfig(seats=("random",) * 3, games=60, seed=7),
        SimConfig(preset="party", seats=("random", "greedy", "reference", "random"), games=16),
    ]
    one = simulate(configs, workers=1)
    two = simulate(configs, workers=2)
    for a, b in zip(one, two, strict=True):
        assert a.tally == b.tally
        assert _deterministic(summarize(a)) == _deterministic(summarize(b))
    other = simulate([SimConfig(seats=("random",) * 3, games=60, seed=8)], workers=1)
    assert other[0].tally != one[0].tally


def test_counts_are_consistent() -> None:
    cfg = SimConfig(preset="seed-001-house", seats=("random",) * 3, games=40, seed=1)
    [r] = simulate([cfg], workers=1)
    t = r.tally
    assert sum(t.wins_by_seat) == sum(t.wins_by_position) == t.games == 40
    assert t.turns.n == t.rounds_per_game.n == t.reshuffles.n == t.games
    assert t.round_turns.n == t.round_points.n == t.rounds == t.rounds_per_game.total
    assert t.round_turns.total == t.turns.total
    assert sum(t.plays_by_type()) == sum(t.plays_by_card) == t.plays > 0
    s = summarize(r)
    assert sum(x["count"] for x in s["plays_by_type"]) == s["plays"]
    assert sum(x["share"] for x in s["plays_by_type"]) == pytest.approx(1.0)
    assert sum(x["wins"] for x in s["win_rate_by_player"]) == t.games
    ch = s["challenges"]
    assert ch["won"] + ch["lost"] == ch["total"] == t.challenges.total
    assert [x["seat"] for x in s["win_rate_by_position"]] == [
        "left of dealer",
        "2 left of dealer",
        "dealer",
    ]
    merged = Tally(3)
    merged.merge(t)
    merged.merge(t)
    assert merged.games == 80 and merged.turns.n == 80
    assert Tally.from_json(json.loads(json.dumps(t.to_json()))) == t


def _refills(events: list[Any]) -> int:
    """Draw-pile rebuilds among the engine's reshuffle events (not start-card returns
    nor Wild Shuffle Hands)."""
    n = 0
    for i, e in enumerate(events):
        if e.kind != "reshuffle":
            continue
        before = events[i - 1].kind if i else ""
        after = events[i + 1].kind if i + 1 < len(events) else ""
        if before != "start_return" and after != "shuffle_hands":
            n += 1
    return n


@pytest.mark.parametrize(
    ("spec", "seats", "rounds_only"),
    [
        ("classic", ("reference",) * 2, True),
        ("classic", ("random",) * 4, False),
        ("party", ("random",) * 4, False),
        ("seed-001-house", ("careless", "greedy", "random"), False),
        ("classic", ("careless", "reference", "careless"), True),
        ("mattel-2018", ("random",) * 5, True),
        ("mattel-2018:deck=mattel-2018-shuffle:custom_rule=discard_color", ("careless",) * 4, True),
        ("my-first-uno:draw_until_playable=true", ("random",) * 3, True),
        ("attack", ("random",) * 3, True),
        ("teams", ("random",) * 4, True),
    ],
)
def test_fast_counts_match_the_engine_events(
    spec: str, seats: tuple[str, ...], rounds_only: bool
) -> None:
    """The driver counts with events off; the same games with events on agree, count by count."""
    preset, opts = parse_rules_spec(spec)
    if seats[0] == "reference":
        opts = REFERENCE_OPTIONS
    cfg = SimConfig(preset=preset, options=opts, seats=seats, rounds_only=rounds_only, games=1)
    table = Table(cfg)
    fast, slow = Tally(cfg.players), Tally(cfg.players)
    games = 25 if rounds_only else 3
    for i in range(games):
        table.play(i, fast)
        one = Tally(cfg.players)
        game = table.play(i, one, events=True)
        slow.merge(one)
        ev = game.events
        assert ev is not None
        plays = [0] * NUM_CARDS
        for e in ev:
            if e.kind == "play":
                for c in e.cards:
                    plays[c] += 1
        assert plays == one.plays_by_card
        assert _refills(ev) == one.reshuffles.total
        challenges = [e for e in ev if e.kind == "challenge"]
        assert len(challenges) == one.challenges.total
        assert sum(e.amount for e in challenges) == one.challenges_won
        assert sum(e.kind == "catch" for e in ev) == one.catches.total
        winners = [e.seat for e in ev if e.kind == "round_over"]
        assert len(winners) == one.rounds
        by_round = rounds_only or preset == "teams"
        assert one.wins_by_seat[winners[-1] if by_round else game.game_winner] == 1
        if seats[0] == "reference":
            assert _turns_from_events(ev) == one.turns.total
        sq = [0] * N_TYPES
        for c, k in enumerate(plays):
            sq[CARD_RANK[c]] += k
        assert [k * k for k in sq] == one.type_sq
    assert fast == slow  # events on or off, a copied game or a new one: the same games


def _turns_from_events(ev: list[Any]) -> int:
    """Turns of reference players in classic rules, counted from the events.

    A turn is a play, or a draw on one's turn that the player does not follow by
    playing the drawn card.  Penalty draws (Draw Two, an accepted W+4) are followed by
    a skip; turn draws are not.
    """
    mine = [e for e in ev if e.hide < 0]  # one of each private pair
    turns = 0
    for i, e in enumerate(mine):
        nxt = mine[i + 1] if i + 1 < len(mine) else None
        if e.kind == "play":
            turns += 1
        elif e.kind == "draw":
            penalty = nxt is not None and nxt.kind == "skip"
            drawn_played = nxt is not None and nxt.kind == "play" and nxt.seat == e.seat
            turns += not (penalty or drawn_played)
    return turns


def test_a_copied_game_plays_like_a_new_one() -> None:
    """The fast path copies a pristine game; the result must equal Game(...) itself."""
    cfg = SimConfig(seats=("random",) * 3, games=1)
    table = Table(cfg)
    for seed, dealer in ((11, 0), (12, 2)):
        fresh = Game(cfg.rules(), 3, events=False, record=False, start=False)
        fresh.start_round(dealer, seed=seed)
        copied = table.new_game(seed, dealer, events=False)
        assert copied.state_json() == fresh.state_json()
        assert copied.hands == fresh.hands and copied.pile == fresh.pile


def test_reference_configuration() -> None:
    """--reference is exactly the published check's rules and players."""
    rules = REF.rules()
    assert rules.wd4_bluffing is False and rules.uno_penalty == 0
    assert rules.deck == "classic" and rules.stacking == "off"
    [r] = simulate([dataclasses.replace(REF, games=400)], workers=1)
    s = summarize(r)
    assert s["challenges"]["total"] == 0 and s["uno_catches"]["total"] == 0
    assert s["rounds"] == 400
    assert 30 < s["turns_per_game"]["mean"] < 65


# ------------------------------------------------------------------------ outputs ---
def test_cli_writes_json_csv_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "plots"
    code = main(
        ["sim", "--games", "30", "--players", "3", "--workers", "1", "--seed", "5",
         "--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "r.csv"),
         "--plot", str(out)]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "win rate by seat" in printed and "left of dealer" in printed
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["format"] == "unokit-sim" and len(doc["runs"]) == 1
    run = doc["runs"][0]
    assert run["games"] == 30 and run["config"]["seats"] == ["random"] * 3
    assert sum(x["wins"] for x in run["win_rate_by_position"]) == 30
    with (tmp_path / "r.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == CSV_FIELDS
    metrics = {(r["section"], r["metric"]) for r in rows}
    assert ("win rate by seat", "left of dealer") in metrics
    assert ("game length", "turns per game: median") in metrics
    for r in rows:
        if r["value"]:
            float(r["value"])
    pngs = sorted(p.name for p in out.iterdir())
    assert pngs == ["game_length.png", "win_rate_by_seat.png"]
    import matplotlib.image

    for name in pngs:
        assert matplotlib.image.imread(out / name).shape[0] > 100


def test_compare_gives_one_column_and_run_per_rule_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    specs = ["classic", "party", "seed-001-house", "classic:stacking=progressive"]
    code = main(
        ["sim", "--compare", *specs, "--games", "12", "--players", "3", "--rounds-only",
         "--workers", "2", "--json", str(tmp_path / "c.json"), "--csv", str(tmp_path / "c.csv"),
         "--plot", str(tmp_path)]
    )  # fmt: skip
    assert code == 0
    header = next(line for line in capsys.readouterr().out.splitlines() if "party" in line)
    for spec in specs:
        assert spec in header
    runs = json.loads((tmp_path / "c.json").read_text())["runs"]
    assert [r["config"]["label"] for r in runs] == specs
    assert runs[3]["config"]["rules"]["stacking"] == "progressive"
    with (tmp_path / "c.csv").open() as f:
        labels = {r["rules"] for r in csv.DictReader(f)}
    assert labels == set(specs)
    assert (tmp_path / "compare.png").stat().st_size > 1000


def test_progress_bar_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "20", "--workers", "1", "--progress", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "games/s" in err


# ------------------------------------------------------------------------ backends --
@pytest.mark.slow
def test_ray_backend_matches_local(capsys: pytest.CaptureFixture[str]) -> None:
    ray = pytest.importorskip("ray")
    cfg = SimConfig(seats=("random",) * 3, games=120, seed=4)
    local = simulate([cfg], workers=1)[0]
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        remote = simulate([cfg], backend="ray")[0]
        assert remote.tally == local.tally
        assert _deterministic(summarize(remote)) == _deterministic(summarize(local))
        assert main(["sim", "--games", "20", "--backend", "ray", "--quiet"]) == 0
    finally:
        ray.shutdown()
    assert not ray.is_initialized()


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def fake(name: str, *a: Any) -> Any:
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real(name, *a)

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(SimError, match=r"pip install 'unokit\[ray\]'"):
        simulate([SimConfig(games=2)], backend="ray")


# ----------------------------------------------------------------------------- CLI --
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "nosuch"], "unknown preset 'nosuch'"),
        (["--compare", "classic", "nosuch"], "unknown preset 'nosuch'"),
        (["--bots", "random,wizard"], "unknown player 'wizard'"),
        (["--bots", "random,random,random", "--players", "2"], "names 3 seats"),
        (["--option", "stacking=sideways"], "stacking cannot be 'sideways'"),
        (["--option", "nosuch=1"], "unknown option 'nosuch'"),
        (["--players", "11"], "--players must be from 2 to 10"),
        (["--games", "0"], "--games must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--address", "127.0.0.1:1"], "--address needs --backend ray"),
        (["--reference", "--bots", "greedy"], "drop --bots"),
        (["--rules", "teams", "--players", "3"], "teams need 4, 6 or 8 players"),
        (["--json", "/nonexistent/dir/x.json"], "does not exist"),
    ],
)
def test_cli_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sim", "--games", "5", "--workers", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("unokit sim: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_reference_flag_runs_the_published_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ref.json"
    assert main(["sim", "--reference", "--games", "200", "--workers", "1", "--quiet",
                 "--json", str(path)]) == 0  # fmt: skip
    cfg = json.loads(path.read_text())["runs"][0]["config"]
    assert cfg["seats"] == ["reference", "reference"] and cfg["mode"] == "rounds"
    assert cfg["rules"]["wd4_bluffing"] is False and cfg["rules"]["uno_penalty"] == 0


def test_a_game_past_the_decision_cap_is_left_out_and_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A round the rules keep going for ever must not stop a long simulation."""
    from unokit.sim import driver
    from unokit.sim.summary import rows

    monkeypatch.setattr(driver, "MAX_DECISIONS", 6)  # some 2-card rounds end by then
    cfg = SimConfig(
        seats=("random", "random"), options=(("hand_size", 2),), games=40, seed=5, rounds_only=True
    )
    (result,) = simulate([cfg], workers=1)
    t = result.tally
    assert t.stalled > 0 and t.games > 0 and t.games + t.stalled == 40
    assert sum(t.wins_by_seat) == t.games  # the stalled games have no winner
    summary = summarize(result)
    assert summary["stalled_games"] == t.stalled
    stalled = [r for r in rows(summary) if r.metric == "games stalled"]
    assert [r.value for r in stalled] == [t.stalled]


# ------------------------------------------------------- output paths, Ray address --
def test_output_paths_are_checked_before_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import unokit.sim.cli

    def no_games(*a: Any, **k: Any) -> Any:
        raise AssertionError("the simulation must not start")

    monkeypatch.setattr(unokit.sim.cli, "simulate", no_games)
    a_file = tmp_path / "taken"
    a_file.write_text("")
    for argv, message in (
        (["--plot", str(a_file)], "that is a file, not a folder"),
        (["--csv", str(tmp_path)], "that is a folder"),
        (["--json", str(tmp_path / "no" / "r.json")], "does not exist"),
    ):
        assert main(["sim", "--games", "5", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("unokit sim: ") and message in err and err.count("\n") == 1


def test_plot_folder_is_created_for_the_csv_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the docs' example, in a fresh folder
    argv = ["sim", "--compare", "classic", "party", "--players", "3", "--games", "6",
            "--workers", "1", "--quiet", "--plot", "out/", "--csv", "out/c.csv"]  # fmt: skip
    assert main(argv) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "c.csv",
        "compare.png",
        "game_length.png",
        "win_rate_by_seat.png",
    ]


def test_an_unreachable_ray_address_fails_fast_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    from unokit.sim import runner

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SimError, match=f"no Ray cluster answers at 127.0.0.1:{port}"):
        runner.check_ray_address(f"127.0.0.1:{port}", timeout=1)
    runner.check_ray_address("auto")  # left to Ray
    pytest.importorskip("ray")
    called: list[Any] = []
    import ray

    monkeypatch.setattr(ray, "init", lambda **k: called.append(k))
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    argv = ["sim", "--games", "5", "--backend", "ray", "--address", f"127.0.0.1:{port}"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("unokit sim: no Ray cluster answers") and err.count("\n") == 1
    assert called == []  # Ray was never asked to connect

    class Refused(Exception):
        pass

    def fake_init(**kwargs: Any) -> None:
        called.append(kwargs)
        raise Refused("no")

    monkeypatch.setattr(ray, "init", fake_init)
    assert main(["sim", "--games", "5", "--backend", "ray"]) == 2
    assert "cannot start or reach Ray" in capsys.readouterr().err
    import logging

    # Ray's own log lines and warnings stay out of the output
    assert called[0]["logging_level"] == logging.ERROR and called[0]["log_to_driver"] is False


def test_bots_that_remember_are_told_their_seats_events_in_the_simulator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot with memory (ismcts) gets the same observe stream in ``unokit sim`` as in a
    tournament or at the web table: exactly its seat's events, once, in order."""
    from collections.abc import Sequence

    import unokit.sim.config as config
    import unokit.sim.driver as driver
    from unokit.bots.base import RandomBot
    from unokit.engine import Event

    seen: dict[int, list[Event]] = {}

    class Spy(RandomBot):
        def __init__(self, seed: int | None = None) -> None:
            super().__init__(seed)
            self.key = len(seen)
            seen[self.key] = []

        def observe(self, events: Sequence[Event]) -> None:
            seen[self.key].extend(events)

    monkeypatch.setitem(driver.BOTS, "spy", Spy)
    monkeypatch.setitem(config.BOTS, "spy", Spy)
    cfg = SimConfig(seats=("spy", "random", "spy"), games=1, seed=3, rounds_only=True)
    table = Table(cfg)
    game = table.play(0, Tally(3))
    assert set(seen) == {0, 1}
    # seat 0's spy was made first; everything it was told is what seat 0 may see
    told = seen[0]
    assert told and told == game.events_for(0)[: len(told)]
    assert any(e.kind == "deal" and e.seat == 0 and e.cards for e in told)
