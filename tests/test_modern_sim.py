"""The simulator's counts for UNO Flip! and No Mercy (sim/modern.py), held to the engine.

Each count the simulator keeps without events (knock-outs, hands won by the Mercy
rule, flips, rounds, winners) is checked against the engine's own events on the same
games; the same seed gives the same tally whatever the chunks.
"""

from __future__ import annotations

import pytest

from unokit.engine.events import EventKind
from unokit.engine.modern.nomercy import NoMercyGame
from unokit.sim.config import SimConfig
from unokit.sim.modern import ModernTable
from unokit.sim.runner import simulate
from unokit.simbase import SimError, Tally


@pytest.mark.parametrize(
    ("preset", "seats"),
    [
        ("no-mercy", ("random", "careless", "reference", "random")),
        ("no-mercy", ("heuristic", "random", "greedy")),
        ("flip", ("random", "careless", "reference")),
        ("flip", ("heuristic", "greedy")),
    ],
)
def test_counts_match_the_engines_events(preset: str, seats: tuple[str, ...]) -> None:
    """NM-MERCY-1 (knock-outs), NM-END-3 (hands won by knock-outs), FLIP-FLIP-1 (flips)."""
    cfg = SimConfig(preset=preset, seats=seats, games=25, seed=3)
    table = ModernTable(cfg)
    tally = Tally(cfg.players)
    knockouts = flips = mercy = rounds = 0
    for i in range(cfg.games):
        g = table.play(i, tally, events=True)
        assert g.events is not None and g.game_over
        kinds = [e.kind for e in g.events]
        knockouts += kinds.count(EventKind.KNOCKOUT)
        flips += kinds.count(EventKind.FLIP)
        rounds += kinds.count(EventKind.ROUND_OVER)
        if isinstance(g, NoMercyGame) and g.n_live == 1 and g.n > 1:
            mercy += 1  # a first-out game is one hand: its last hand tells
    assert tally.games == cfg.games and tally.stalled == 0
    assert tally.knockouts.total == knockouts and tally.flips.total == flips
    assert tally.rounds == rounds == tally.rounds_per_game.total
    assert sum(tally.wins_by_seat) == sum(tally.wins_by_position) == cfg.games
    if preset == "no-mercy":
        assert tally.mercy_rounds == mercy and knockouts > 0
        assert tally.round_turns.total == tally.turns.total > 0
    else:
        assert flips > 0 and tally.mercy_rounds == 0


def test_the_same_seed_gives_the_same_tally_whatever_the_workers() -> None:
    cfg = SimConfig(preset="no-mercy", seats=("random",) * 3, games=60, seed=8)
    one = simulate([cfg], workers=1)[0].tally
    two = simulate([cfg], workers=2)[0].tally
    assert one.to_json() == two.to_json()
    assert Tally.from_json(one.to_json()).to_json() == one.to_json()


def test_the_compiled_engine_plays_the_modern_games_but_not_their_bots() -> None:
    """Issue 50: the compiled twins (tests/test_compiled_modern.py holds them to this
    engine); bots decide from views and stay on this one."""
    pytest.importorskip("numba")
    for preset in ("flip", "no-mercy"):
        assert SimConfig(preset=preset, engine="compiled", games=1).engine == "compiled"
        with pytest.raises(SimError, match=r"reference engine.*--engine python"):
            SimConfig(preset=preset, engine="compiled", seats=("heuristic", "random"))
