"""UNO Flip!'s half of the vector environment (``unokit.rl.vector``).

    from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv

    env = UnoVectorEnv(num_envs=1024, num_players=4, preset="flip")
    genv = UnoVectorGymEnv(num_envs=1024, num_players=2, preset="flip", opponents="random")

The games are the compiled Flip engine's (``unokit.compiled.flip_kernel``, the twin
``unokit sim --engine compiled --check`` holds to ``FlipGame``); the observations and
masks are Flip's tables (``unokit.obs.flip``), written by ``vector_flip_kernel``.
Every Flip option is played.  ``multi_play`` needs no refusal: the action table has no
multi-play index (it plays single cards), and the ``random`` opponent then plays
single cards too: its turns are the simulator's fast random player's single-card pick
(``flip_kernel.play_round`` without its multi-play branch).  The only opponent is
``random``: there is no compiled Flip heuristic yet.

``tests/test_rl_vector_flip.py`` replays every episode's record in ``uno_v1`` and
compares each decision (seat, observation, mask, rewards, ends).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from unokit import compiled
from unokit.obs.flip import face_slot
from unokit.rl.vector import F64, I64, VectorGame
from unokit.rules import RuleSet


class FlipVector(VectorGame):
    """UNO Flip! in ``unokit.rl.vector``: the kernel module, its arrays and records."""

    kernel_module = "unokit.rl.vector_flip_kernel"
    opponents: tuple[str, ...] = ("random",)

    def unsupported(self, rules: RuleSet, num_players: int, opponents: str | None) -> str | None:
        from unokit.compiled import flip

        return flip.unsupported(rules)  # the compiled engine plays every Flip option

    def arrays(
        self, rules: RuleSet, num_players: int
    ) -> tuple[I64, F64, int, tuple[np.ndarray[Any, Any], ...]]:
        """The rules array (the Flip kernel's, then the observation slot of each card's
        light face: ``vector_flip_kernel.R_LSLOT``), the random players' array, a game's
        row size (the Flip kernel's state, then its dark faces' slots) and the scratch
        (``buf``: the kernel's playable faces; ``fb``: a round's rewards)."""
        from unokit.compiled import flip
        from unokit.compiled import flip_kernel as fk
        from unokit.compiled import kernel as k
        from unokit.rl import vector_flip_kernel as vk

        R = np.zeros(vk.R_SIZE, dtype=np.int64)
        R[: fk.RULES_SIZE] = flip.rules_array(rules, num_players, rounds_only=True)
        R[vk.R_LSLOT : vk.R_LSLOT + fk.NDECK] = [face_slot(f) for f in flip.LIGHTS]
        P = compiled.players_array(["random"] * num_players)
        buf = np.zeros(3 * k.HCAP, dtype=np.int64)
        fb = np.zeros(k.NMAX, dtype=np.float64)
        return R, P, int(vk.ROW_SIZE), (buf, fb)

    def record(self, rules: RuleSet, num_players: int, log: I64) -> dict[str, Any]:
        from unokit.compiled import flip

        return flip.record(rules, num_players, log)


FLIP = FlipVector()

__all__ = ["FLIP", "FlipVector"]
