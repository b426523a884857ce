"""UNO Show 'Em No Mercy's half of the vector environment (``unokit.rl.vector``).

    from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv

    env = UnoVectorEnv(num_envs=1024, num_players=4, preset="no-mercy")
    genv = UnoVectorGymEnv(num_envs=1024, num_players=2, preset="no-mercy")

The games are the compiled No Mercy engine's (``unokit.compiled.nm_kernel``, every
option of the game), observed and masked as ``uno_v1`` does through ``ViewTable``
(``unokit.obs.nomercy``'s tables), by ``unokit.rl.vector_nm_kernel``.  An episode is
one hand; a seat knocked out of it by the Mercy rule is never asked again.  The
single-agent opponents are ``"random"``: the simulator's fast random player.

Equal to the AEC environment: ``tests/test_rl_vector_nm.py`` replays every episode's
record (``record=True``: the kernel's log, ``unokit.compiled.nomercy.record``) in
``uno_v1`` and compares every decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from unokit import compiled
from unokit.rl.vector import F64, I64, VectorGame
from unokit.rules import RuleSet


class NoMercyVector(VectorGame):
    """The vector environment's No Mercy: its kernel module and arrays."""

    kernel_module = "unokit.rl.vector_nm_kernel"
    opponents: tuple[str, ...] = ("random",)

    def unsupported(self, rules: RuleSet, num_players: int, opponents: str | None) -> str | None:
        """Never: the compiled No Mercy engine plays every option of the game."""
        from unokit.compiled import nomercy

        return nomercy.unsupported(rules)

    def arrays(
        self, rules: RuleSet, num_players: int
    ) -> tuple[I64, F64, int, tuple[npt.NDArray[Any], ...]]:
        """The rules array, the players array (every seat the fast ``random`` player),
        a game state's size and the scratch: ``buf`` (the plays ``list_plays`` lists)
        and ``fb`` (a hand's rewards, every seat's)."""
        from unokit.compiled import kernel, nomercy
        from unokit.compiled import nm_kernel as nk

        R = nomercy.rules_array(rules, num_players, rounds_only=True)
        P = compiled.players_array(["random"] * num_players)
        buf = np.zeros(nk.BUF_SIZE, dtype=np.int64)
        fb = np.zeros(kernel.NMAX, dtype=np.float64)
        return R, P, int(nk.STATE_SIZE), (buf, fb)

    def record(self, rules: RuleSet, num_players: int, log: I64) -> dict[str, Any]:
        from unokit.compiled import nomercy

        return nomercy.record(rules, num_players, log)


NOMERCY = NoMercyVector()

__all__ = ["NOMERCY", "NoMercyVector"]
