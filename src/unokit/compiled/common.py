"""What the compiled engine's modules share: the players and seed arrays, and a modern
twin's games as counts and as logged games.

A module of its own so that the twins (``compiled/flip.py``, ``compiled/nomercy.py``),
which ``compiled/__init__`` loads by name, take these from a leaf module rather than
from ``compiled/__init__`` itself: no import of theirs runs back up to the module that
loads them (Python still initialises the package first, as for any submodule).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np

from unokit.simbase import Tally, derive_seed
from unokit.stats import Hist


def players_array(seats: Sequence[str]) -> np.ndarray:
    """Per seat: chance of challenging, catches (1/0), chance of forgetting UNO."""
    p = np.zeros(3 * len(seats), dtype=np.float64)
    for s, name in enumerate(seats):
        p[3 * s] = 0.0 if name == "reference" else 0.5
        p[3 * s + 1] = 0.0 if name == "reference" else 1.0
        p[3 * s + 2] = 0.5 if name == "careless" else 0.0
    return p


def base_seed(seed: int) -> np.uint64:
    """The run's 64-bit base seed; game ``i`` is seeded from (base, i) in the kernel."""
    return np.uint64(derive_seed(seed, -1))


def hist(values: np.ndarray) -> Hist:
    """The histogram of non-negative counts (turns, points, ...), by ``np.bincount``."""
    if len(values) == 0:
        return Hist()
    counts = np.bincount(values)
    seen = np.flatnonzero(counts)
    return Hist(dict(zip(seen.tolist(), counts[seen].tolist(), strict=True)))


def modern_tally(
    k: ModuleType, games: np.ndarray, rounds: np.ndarray, nr: int, players: int
) -> Tally:
    """A modern twin's games as ``ModernTable.play`` counts them: ``games`` rows of the
    twin's kernel ``k`` (the same ``G_*`` columns for every count both games keep; a
    stalled game adds only its finished rounds), ``rounds`` rows of (turns, points)."""
    ok = games[:, k.G_STALLED] == 0
    good = games[ok]
    tally = Tally(players)
    tally.games = int(ok.sum())
    tally.stalled = int(len(games) - tally.games)
    tally.rounds = int(good[:, k.G_ROUNDS].sum())
    tally.wins_by_seat = np.bincount(good[:, k.G_WINNER], minlength=players).tolist()
    tally.wins_by_position = np.bincount(good[:, k.G_POS], minlength=players).tolist()
    tally.turns = hist(good[:, k.G_TURNS])
    tally.rounds_per_game = hist(good[:, k.G_ROUNDS])
    tally.round_turns = hist(rounds[:nr, 0])
    tally.round_points = hist(rounds[:nr, 1])
    tally.draw_turns = int(good[:, k.G_DRAWTURNS].sum())
    tally.reshuffles = hist(good[:, k.G_RESH])
    tally.challenges = hist(good[:, k.G_CHAL])
    tally.challenges_won = int(good[:, k.G_CHALWON].sum())
    tally.catches = hist(good[:, k.G_CATCH])
    none = hist(np.zeros(len(good), dtype=np.int64))  # a count the game does not have
    tally.flips = none
    tally.knockouts = none
    return tally


def modern_logged(
    k: ModuleType, R: np.ndarray, P: np.ndarray, base: np.uint64, dealer: int, index: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Game ``index`` on a modern twin's kernel ``k``, with its log: ``(state, log,
    stalled)``; a log that overflows plays the same game again with more room."""
    from unokit.compiled import kernel  # the log's slots: the classic kernel's (loaded)

    size = 1 << 16
    while True:
        st = np.zeros(k.STATE_SIZE, dtype=np.int64)
        st[kernel.S_LOGON] = 1
        lg = np.zeros(size, dtype=np.int64)
        cnt = np.zeros(k.G_SIZE, dtype=np.int64)
        rounds = np.zeros((1, 2), dtype=np.int64)
        k.play_game_entry(st, R, P, base, index, dealer, cnt, rounds, lg)
        if not st[kernel.S_LOGOVF]:
            return st, lg[: st[kernel.S_LOGPOS]], bool(cnt[k.G_STALLED])
        size *= 4
