"""Simulations: run many games, count everything, report it with confidence intervals.

    from unokit.sim import SimConfig, simulate, summarize
    [result] = simulate([SimConfig(seats=("random",) * 4, games=10_000)])
    print(summarize(result)["win_rate_by_position"])

The same seed gives the same numbers whatever the number of workers or the backend
(local processes or Ray).  ``unokit sim`` is the command-line front; docs/simulations.md
explains the definitions and checks the simulator against published numbers.
"""

from unokit.sim.config import REFERENCE_OPTIONS, SimConfig
from unokit.sim.driver import Table
from unokit.sim.runner import SimResult, simulate
from unokit.sim.summary import summarize
from unokit.simbase import CARD_TYPES, FAST_PLAYERS, SimError, Tally, derive_seed
from unokit.stats import Hist, mean_ci, wilson

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
