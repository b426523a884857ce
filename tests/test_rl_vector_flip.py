"""``unokit.rl.vector`` plays UNO Flip!, held equal to the AEC environment (issue 50 item 2).

The method of ``tests/test_rl_vector.py``: every vector game keeps its log
(``record=True``) and each episode is played again in ``uno_v1`` (whose Flip table,
``ViewTable``, builds every observation and mask from the seat's view): its game is
dealt from the record (the deck's two-faced codes carry the game's light/dark pairing,
FLIP-DECK-3) with the record's reshuffles forced, as ``unokit replay`` and ``unokit
sim --check`` do.  Then the AEC environment takes the same actions, and at every
decision the selected seat, the observation, the mask, every reward and both ends must
be identical.  The option sets cycle through every value of every Flip option
(``helpers.FLIP_OPTIONS``), at 2 to 10 seats, rewards by win and by score, some runs
truncated by ``max_steps``.  The first run compiles the Flip vector kernel (numba,
cached afterwards).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from helpers import FLIP_OPTIONS
from unokit.obs.core import IllegalTableAction
from unokit.obs.flip import NUM_ACTIONS, OBS_SIZE
from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv, VectorUnsupported, sample_actions
from unokit.rules import from_preset
from vector_helpers import replay_in_aec, replay_single_in_aec, run_vector, single_episodes

# numba: one xdist worker compiles the kernels once for every test here (loadgroup)
pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]

SEATS = (2, 3, 4, 6, 10)


def option_sets(k: int, seed: int) -> list[dict[str, Any]]:
    """``k`` option sets, each option's value drawn from ``FLIP_OPTIONS``."""
    rng = random.Random(seed)
    return [{name: rng.choice(values) for name, values in FLIP_OPTIONS.items()} for _ in range(k)]


# (options, seats, reward, max_steps): every table size named three times, rewards by
# win and by score, a quarter of the runs truncated
CONFIGS: list[tuple[dict[str, Any], int, str, int | None]] = [
    (opts, SEATS[i % len(SEATS)], ("win", "score")[i % 2], 90 if i % 4 == 3 else None)
    for i, opts in enumerate(option_sets(15, 50))
]


def test_the_option_sets_take_every_value() -> None:
    for name, values in FLIP_OPTIONS.items():
        assert {repr(opts[name]) for opts, *_ in CONFIGS} == set(map(repr, values)), name


@pytest.mark.parametrize(("options", "n", "reward", "max_steps"), CONFIGS)
def test_same_as_aec(options: dict[str, Any], n: int, reward: str, max_steps: int | None) -> None:
    rules = from_preset("flip", options)
    episodes = run_vector(
        rules, n, envs=3, steps=150, seed=n * 7919 + len(json.dumps(options)), reward=reward,
        max_steps=max_steps,
    )  # fmt: skip
    decisions = sum(replay_in_aec(rules, n, ep, reward, max_steps) for ep in episodes)
    assert decisions >= 3 * 150
    assert any(ep.steps[-1][5] for ep in episodes), "no round ended: the rewards untested"


@pytest.mark.parametrize("n", SEATS)
def test_preset_same_as_aec(n: int) -> None:
    """The ``flip`` preset as it comes, rewards by score, at every table size named."""
    rules = from_preset("flip")
    episodes = run_vector(rules, n, envs=2, steps=150, seed=n, reward="score", max_steps=None)
    for ep in episodes:
        replay_in_aec(rules, n, ep, "score", None)
    assert any(ep.steps[-1][5] for ep in episodes), "no round ended: the rewards untested"


# ---------------------------------------------------------------- single agent ------
# the learner's game against its ``random`` opponents: under multi_play too, where they
# play single cards as the table does (an opponent's multi-play would have no index)
SINGLE: list[tuple[dict[str, Any], int, str]] = [
    ({}, 2, "win"),
    ({"multi_play": True, "jump_in": True, "scoring": "low"}, 3, "score"),
    ({"flip_exposed_action": True, "flip_wild_color": "next_player", "wd4_bluffing": True}, 4,
     "score"),
    ({"multi_play": True, "draw_until_playable": True, "force_play_drawn": True,
      "flip_start": "flip", "flip_inverts_discard": False}, 6, "win"),
    ({"jump_in": True, "flip_last_card": "no_flip", "scoring": "first-out"}, 10, "score"),
]  # fmt: skip


@pytest.mark.parametrize(("options", "n", "reward"), SINGLE)
def test_single_agent_same_as_aec(options: dict[str, Any], n: int, reward: str) -> None:
    """``UnoVectorGymEnv`` (a random seat each episode) held to the AEC env."""
    rules = from_preset("flip", options)
    env = UnoVectorGymEnv(3, n, rules=rules, seat=None, reward=reward, record=True)
    checked = 0
    for ep in single_episodes(env, np.random.default_rng(n), steps=150):
        # every opponent's move has an index, all are replayed, and the ended episode's
        # last observation and mask (``info["final_obs"]``) are the AEC env's
        replay_single_in_aec(
            rules, n, ep, indexed=True, whole_log=True, final_obs=ep.final_obs,
            final_mask=ep.final_mask, reward=reward,
        )  # fmt: skip
        checked += 1
    assert checked


# ---------------------------------------------------------------- the interfaces ----
def test_refusals_name_the_reason() -> None:
    with pytest.raises(VectorUnsupported, match=r"opponents='heuristic'.*'random'"):
        UnoVectorGymEnv(2, 3, "flip", opponents="heuristic")
    with pytest.raises(VectorUnsupported, match="episode='game'"):
        UnoVectorEnv(2, 3, "flip", episode="game")
    with pytest.raises(VectorUnsupported, match="episode='game'"):
        UnoVectorGymEnv(2, 3, "flip", episode="game")


def test_an_illegal_action_moves_no_game() -> None:
    env = UnoVectorEnv(4, 3, "flip")
    batch = env.reset(seed=3)
    before = env.games.ST.copy()
    ct = env.games.CT.copy()
    actions = sample_actions(batch.mask, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(batch.mask[2] == 0)[0])
    with pytest.raises(IllegalTableAction, match="game 2"):
        env.step(actions)
    actions[2] = NUM_ACTIONS  # out of the table
    with pytest.raises(IllegalTableAction, match="no such action"):
        env.step(actions)
    assert np.array_equal(env.games.ST, before)
    assert np.array_equal(env.games.CT, ct)
    genv = UnoVectorGymEnv(2, 2, "flip")
    obs, _info = genv.reset(seed=3)
    before = genv.games.ST.copy()
    actions = sample_actions(obs["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalTableAction, match="game 1"):
        genv.step(actions)
    assert np.array_equal(genv.games.ST, before)


def test_seeds_reproduce_and_spaces_hold() -> None:
    a = UnoVectorEnv(6, 4, "flip", {"jump_in": True})
    b = UnoVectorEnv(6, 4, "flip", {"jump_in": True})
    ra, rb = a.reset(seed=11), b.reset(seed=11)
    assert ra.obs.shape == (6, OBS_SIZE) and ra.mask.shape == (6, NUM_ACTIONS)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(200):
        assert np.array_equal(ra.obs, rb.obs) and np.array_equal(ra.mask, rb.mask)
        ra = a.step(sample_actions(ra.mask, rng_a))
        rb = b.step(sample_actions(rb.mask, rng_b))
        assert np.array_equal(ra.rewards, rb.rewards)
    env = UnoVectorGymEnv(4, 3, "flip", seat=None, max_steps=5)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, reward, term, trunc, info = env.step(sample_actions(env.action_masks(), rng))
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        assert not (reward[~term] != 0).any()
        if (term | trunc).any():
            assert (info["round_winner"][term] >= 0).all()
