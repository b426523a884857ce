"""Reinforcement-learning environments for unokit (``pip install unokit[rl]``).

* ``uno_v1``: a PettingZoo AEC environment, 2-10 agents, any rule set.
* ``UnoGymEnv``: a Gymnasium environment, one learning seat against unokit bots
  (registered as ``unokit/Uno-v1``).

Both share one fixed action table and observation layout (``unokit.obs.spec``,
documented in docs/rl.md).
"""

from __future__ import annotations

from importlib.util import find_spec

from unokit.obs import spec
from unokit.obs.core import IllegalTableAction, Table, encode_view, mask_of_view
from unokit.obs.spec import NUM_ACTIONS, OBS_SIZE, action_index, action_name

GYM_ID = "unokit/Uno-v1"
# The tables and the encoder (spec, core) need numpy alone: the ``learned`` bot plays
# from them in a plain install.  The environments need the rl extra.
if find_spec("gymnasium") is not None:
    import gymnasium

    from unokit.rl import uno_v1
    from unokit.rl.gym_env import UnoGymEnv
    from unokit.rl.uno_v1 import UnoAECEnv

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="unokit.rl.gym_env:UnoGymEnv")

__all__ = [
    "GYM_ID",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "IllegalTableAction",
    "Table",
    "UnoAECEnv",
    "UnoGymEnv",
    "action_index",
    "action_name",
    "encode_view",
    "mask_of_view",
    "spec",
    "uno_v1",
]
