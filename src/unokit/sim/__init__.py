"""Simulations: run many games, count everything, report it with confidence intervals.

    from unokit.sim import SimConfig, simulate, summarize
    [result] = simulate([SimConfig(seats=("random",) * 4, games=10_000)])
    print(summarize(result)["win_rate_by_position"])

The same seed gives the same numbers whatever the number of workers or the backend
(local processes or Ray).  ``unokit sim`` is the command-line front; docs/simulations.md
explains the definitions and checks the simulator against published numbers.
"""

from unokit.sim.config import FAST_PLAYERS, REFERENCE_OPTIONS, SimConfig, SimError, derive_seed
from unokit.sim.driver import CARD_TYPES, Table, Tally
from unokit.sim.runner import SimResult, simulate
from unokit.sim.stats import Hist, mean_ci, wilson
from unokit.sim.summary import summarize

__all__ = [
    "CARD_TYPES",
    "FAST_PLAYERS",
    "REFERENCE_OPTIONS",
    "Hist",
    "SimConfig",
    "SimError",
    "SimResult",
    "Table",
    "Tally",
    "derive_seed",
    "mean_ci",
    "simulate",
    "summarize",
    "wilson",
]
