"""``unokit.rl.vector`` plays UNO Show 'Em No Mercy, held equal to the AEC environment
(issue 50 item 2).

The method of ``test_rl_vector.py``: every vector game keeps its log (``record=True``),
and each episode is played again in ``uno_v1`` (``ViewTable`` over ``NoMercyGame``),
dealt from the record's deck with the record's reshuffles forced on it
(``unokit.record.start_recorded_round``, as ``unokit replay`` and ``sim --check`` do).
Then the AEC environment takes the same actions, and at every decision the selected
seat, the observation, the mask, every reward and both ends must be identical.

The option sets go through every value of every No Mercy option (``helpers.NM_OPTIONS``)
at 2, 3, 4 and 6 seats, under both rewards, some with ``max_steps`` truncations.  The
first run compiles the vector kernel (numba, cached afterwards).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from helpers import NM_OPTIONS
from unokit.obs.core import IllegalTableAction
from unokit.obs.nomercy import LAYOUT, NUM_ACTIONS, OBS_SIZE
from unokit.record import loads, replay
from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv, VectorUnsupported, sample_actions
from unokit.rules import RulesError, from_preset
from vector_helpers import replay_in_aec, replay_single_in_aec, run_vector, single_episodes

# numba: one xdist worker compiles the kernels once for every test here (loadgroup)
pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]

EAGER = 0.8  # the random actions' chance of a play, where one is allowed (``choose``)


def option_sets() -> list[tuple[dict[str, Any], int, str, int | None]]:
    """Six option sets that take every value of every option at least once (set ``k``
    takes value ``k + j`` of option ``j``, wrapping), each at its table size, reward
    and cut.  Rewards by score where the scoring is standard (the even sets); the hands
    without the Mercy rule (sets 2 and 5) go on for thousands of random decisions, so
    they are cut by ``max_steps``, as are some of set 1's."""
    seats = (2, 3, 4, 6, 3, 2)
    out = []
    for k in range(6):
        opts = {name: values[(k + j) % len(values)] for j, (name, values) in
                enumerate(NM_OPTIONS.items())}  # fmt: skip
        reward = "score" if opts["scoring"] == "standard" else "win"
        max_steps = {1: 40, 2: 150, 5: 150}.get(k)
        out.append((opts, seats[k], reward, max_steps))
    return out


@pytest.mark.parametrize(("options", "n", "reward", "max_steps"), option_sets())
def test_same_as_aec(options: dict[str, Any], n: int, reward: str, max_steps: int | None) -> None:
    rules = from_preset("no-mercy", options)
    episodes = run_vector(
        rules, n, envs=3, steps=200, seed=n * 7919 + len(json.dumps(options)), reward=reward,
        max_steps=max_steps, eager=EAGER,
    )  # fmt: skip
    decisions = sum(replay_in_aec(rules, n, ep, reward, max_steps) for ep in episodes)
    assert decisions >= 3 * 200
    if rules.mercy_limit:
        assert any(ep.steps[-1][5] for ep in episodes), "no hand ended: the rewards untested"
    if max_steps:
        assert any(ep.steps[-1][6] for ep in episodes), "no episode was cut"


def test_knocked_out_seats_are_never_asked() -> None:
    """A low Mercy limit knocks seats out often: the hands go on without them, and the
    AEC environment agrees at every decision."""
    rules = from_preset("no-mercy", {"mercy_limit": 12, "nm_knockout_cards": "discard_bottom"})
    episodes = run_vector(
        rules, 4, envs=4, steps=200, seed=3, reward="score", max_steps=None, eager=EAGER
    )
    live = LAYOUT["live"]
    out = 0
    for ep in episodes:
        replay_in_aec(rules, 4, ep, "score", None)
        for _agent, obs, *_ in ep.steps:
            assert obs[live] == 1  # the seat asked is in the hand (offset 0 is itself)
            out = max(out, 4 - int(obs[live : live + 4].sum()))
    assert out >= 1, "no seat was knocked out: the Mercy rule untested"


# ---------------------------------------------------------------- single agent ------
@pytest.mark.parametrize(
    ("options", "n"),
    [({}, 2), ({"mercy_limit": 12, "nm_stack_deflect": True}, 4),
     ({"scoring": "standard", "nm_roulette_color": "player", "nm_last_card_effect": True}, 3),
     ({"nm_deck": "alt37", "nm_voluntary_draw": False, "nm_stack_threshold": "total"}, 6)],
)  # fmt: skip
def test_single_agent_same_as_aec(options: dict[str, Any], n: int) -> None:
    rules = from_preset("no-mercy", options)
    reward = "score" if rules.scoring == "standard" else "win"
    env = UnoVectorGymEnv(3, n, rules=rules, seat=None, reward=reward, record=True)
    checked = 0
    for ep in single_episodes(env, np.random.default_rng(n), steps=150, eager=EAGER):
        assert replay(loads(json.dumps(ep.record))).ok
        # every recorded move is replayed, and an ended hand's last observation of the
        # learner is the AEC env's
        final = ep.final_obs if ep.terminated else None
        replay_single_in_aec(rules, n, ep, whole_log=True, final_obs=final, reward=reward)
        checked += 1
    assert checked


def test_gym_episodes() -> None:
    """Random learners against random opponents: shapes, spaces, rewards and ends."""
    env = UnoVectorGymEnv(8, 4, "no-mercy", seat=None, max_steps=30)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (8, OBS_SIZE)
    assert env.single_action_space.n == NUM_ACTIONS  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    steps = np.zeros(8, dtype=np.int64)
    for _ in range(300):
        obs, reward, term, trunc, info = env.step(sample_actions(env.action_masks(), rng))
        steps += 1
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        stalled = info.get("stalled", np.zeros(8, dtype=bool))
        assert np.array_equal(trunc & ~stalled, (steps == 30) & ~term)
        assert set(reward[term].tolist()) <= {-1.0, 1.0}
        assert not (reward[~term] != 0).any()
        if (term | trunc).any():
            assert (info["round_winner"][term] >= 0).all()
        steps[term | trunc] = 0
    assert env.games.episodes() > 8


# ---------------------------------------------------------------- refusals ---------
def test_refusals() -> None:
    with pytest.raises(VectorUnsupported, match=r"opponents='heuristic'.*'random'"):
        UnoVectorGymEnv(2, 3, "no-mercy", opponents="heuristic")
    with pytest.raises(VectorUnsupported, match="episode='game'"):
        UnoVectorEnv(2, 3, "no-mercy", episode="game")
    with pytest.raises(RulesError):
        UnoVectorEnv(2, 7, "no-mercy")  # No Mercy seats 2 to 6


def test_an_illegal_action_moves_no_game() -> None:
    env = UnoVectorEnv(4, 3, "no-mercy")
    batch = env.reset(seed=3)
    before = env.games.ST.copy()
    actions = sample_actions(batch.mask, np.random.default_rng(0))
    bad = int(np.flatnonzero(batch.mask[2] == 0)[0])
    actions[2] = bad
    with pytest.raises(IllegalTableAction, match="game 2"):
        env.step(actions)
    assert np.array_equal(env.games.ST, before)
    actions[2] = NUM_ACTIONS  # out of the table
    with pytest.raises(IllegalTableAction, match="no such action"):
        env.step(actions)
    assert np.array_equal(env.games.ST, before)


def test_seeds_reproduce() -> None:
    a = UnoVectorEnv(8, 4, "no-mercy")
    b = UnoVectorEnv(8, 4, "no-mercy")
    ra = a.reset(seed=11)
    rb = b.reset(seed=11)
    rng_a = np.random.default_rng(1)
    rng_b = np.random.default_rng(1)
    for _ in range(200):
        assert np.array_equal(ra.obs, rb.obs)
        ra = a.step(sample_actions(ra.mask, rng_a))
        rb = b.step(sample_actions(rb.mask, rng_b))
        assert np.array_equal(ra.rewards, rb.rewards)
