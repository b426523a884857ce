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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from helpers import FLIP_OPTIONS
from unokit.engine import new_game
from unokit.obs.core import IllegalTableAction
from unokit.obs.flip import A_PASS, LAYOUT, NUM_ACTIONS, NUM_PLAYS, OBS_SIZE, action_index
from unokit.record import loads, replay, start_recorded_round
from unokit.rl import uno_v1
from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv, VectorUnsupported, sample_actions
from unokit.rules import RuleSet, from_preset

# numba: one xdist worker compiles the kernels once for every test here (loadgroup)
pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]

SEATS = (2, 3, 4, 6, 10)
PHASE = LAYOUT["phase"]


def option_sets(k: int, seed: int) -> list[dict[str, Any]]:
    """``k`` option sets, each option's value drawn from ``FLIP_OPTIONS``."""
    rng = random.Random(seed)
    return [{name: rng.choice(values) for name, values in FLIP_OPTIONS.items()} for _ in range(k)]


@dataclass
class Episode:
    """One vector game's episode: its record and, per decision, what the env gave."""

    record: dict[str, Any]
    steps: list[tuple[Any, ...]] = field(default_factory=list)


def choose(mask: np.ndarray, rng: np.random.Generator, eager: float) -> np.ndarray:
    """Per row: with chance ``eager`` a random allowed play (if any), else a random
    allowed action."""
    out = sample_actions(mask, rng)
    plays = mask[:, : 2 * NUM_PLAYS]
    for i in np.flatnonzero(plays.any(axis=1) & (rng.random(len(mask)) < eager)):
        out[i] = rng.choice(np.flatnonzero(plays[i]))
    return out


def run_vector(
    rules: RuleSet, n: int, *, envs: int, steps: int, seed: int, reward: str, max_steps: int | None
) -> list[Episode]:
    """Step a recording vector env ``steps`` times, and on until a round has ended (up
    to five times as long); every episode (ended or cut at the end) with its decisions."""
    env = UnoVectorEnv(envs, n, rules=rules, reward=reward, max_steps=max_steps, record=True)
    rng = np.random.default_rng(seed)
    batch = env.reset(seed=seed)
    open_: list[list[tuple[Any, ...]]] = [[] for _ in range(envs)]
    done: list[Episode] = []
    ended = False
    for t in range(5 * steps):
        if t >= steps and ended:
            break
        actions = choose(batch.mask, rng, 0.9)
        nxt = env.step(actions)
        for i in range(envs):
            open_[i].append(
                (int(batch.agent[i]), batch.obs[i], batch.mask[i], int(actions[i]),
                 nxt.rewards[i], bool(nxt.terminated[i]), bool(nxt.truncated[i]))
            )  # fmt: skip
            ended |= bool(nxt.terminated[i])
            if nxt.terminated[i] or nxt.truncated[i]:
                done.append(Episode(env.last_record(i), open_[i]))
                open_[i] = []
        batch = nxt
    done.extend(Episode(env.record(i), open_[i]) for i in range(envs) if open_[i])
    return done


def aec_on(rules: RuleSet, n: int, record: dict[str, Any], **kwargs: Any) -> Any:
    """``uno_v1`` playing the recorded deal (and pairing), its reshuffles forced."""
    env = uno_v1.env(num_players=n, rules=rules, **kwargs)
    env.reset(seed=0)
    spec = loads(json.dumps(record)).rounds[0]
    game = new_game(rules, n, seed=0, events=False, record=False, start=False)
    start_recorded_round(game, spec, 0)
    env.table.set_game(game)
    env.agent_selection = env.possible_agents[env.table.select()]
    return env


def replay_in_aec(rules: RuleSet, n: int, ep: Episode, reward: str, max_steps: int | None) -> int:
    assert replay(loads(json.dumps(ep.record))).ok  # the reference engine accepts every move
    env = aec_on(rules, n, ep.record, reward=reward, max_steps=max_steps)
    agents = env.possible_agents
    for k, (agent, obs, mask, action, rewards, term, trunc) in enumerate(ep.steps):
        where = f"decision {k} of an episode of {len(ep.steps)}"
        assert env.agent_selection == agents[agent], where
        o, _r, te, tr, _info = env.last()
        assert not (te or tr), where
        if not np.array_equal(o["observation"], obs):
            diff = np.flatnonzero(o["observation"] != obs)
            pytest.fail(f"{where}: observations differ at {diff.tolist()}")
        if not np.array_equal(o["action_mask"], mask):
            diff = np.flatnonzero(o["action_mask"] != mask)
            pytest.fail(f"{where}: masks differ at {diff.tolist()}")
        env.step(action)
        assert [env.rewards[a] for a in agents] == rewards.tolist(), where
        assert all(env.terminations[a] == term for a in agents), where
        assert all(env.truncations[a] == trunc for a in agents), where
    return len(ep.steps)


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
def replay_single_in_aec(
    rules: RuleSet, n: int, record: dict[str, Any], seat: int, steps: list[tuple[Any, ...]],
    final: tuple[np.ndarray, np.ndarray], reward: str,
) -> None:  # fmt: skip
    """The learner's decisions against the AEC env, the opponents' taken from the
    record (a selected opponent whose next recorded action is not its own passed); the
    ended episode's last observation and mask (``info["final_obs"]``) as the AEC env's."""
    env = aec_on(rules, n, record, reward=reward)
    agents = env.possible_agents
    logged = [(s, action_index(s, n, a)) for s, a in loads(json.dumps(record)).rounds[0].actions]
    assert all(i >= 0 for _s, i in logged), "an opponent played what the table cannot"
    pos = 0
    k = 0
    while True:
        s = agents.index(env.agent_selection)
        _o, _r, te, tr, _info = env.last()
        if te or tr:
            break
        if s != seat:
            if pos < len(logged) and logged[pos][0] == s:
                env.step(logged[pos][1])
                pos += 1
            else:
                env.step(A_PASS)
            continue
        if k == len(steps):
            break  # the episode was cut here
        obs, mask, action, _reward, _term = steps[k]
        o = env.last()[0]
        assert np.array_equal(o["observation"], obs), f"learner decision {k}"
        assert np.array_equal(o["action_mask"], mask), f"learner decision {k}"
        if action != A_PASS:
            assert logged[pos] == (seat, action), f"learner decision {k}"
            pos += 1
        env.step(action)
        k += 1
    assert k == len(steps)
    assert pos == len(logged)
    last = env.observe(agents[seat])
    assert np.array_equal(last["observation"], final[0]), "the final observation"
    assert np.array_equal(last["action_mask"], final[1]), "the final mask"
    _action, got, term = steps[-1][2:]
    if term:  # the round ended after the learner's last decision, the opponents' moves
        assert env.terminations[agents[seat]]
        assert env.rewards[agents[seat]] == got


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
    envs = 3
    env = UnoVectorGymEnv(envs, n, rules=rules, seat=None, reward=reward, record=True)
    rng = np.random.default_rng(n)
    obs, info = env.reset(seed=5)
    open_: list[list[tuple[Any, ...]]] = [[] for _ in range(envs)]
    checked = 0
    for _ in range(150):
        seats = info["seat"]
        actions = choose(obs["action_mask"], rng, 0.9)
        nxt, rew, term, trunc, info2 = env.step(actions)
        for i in range(envs):
            open_[i].append((obs["observation"][i], obs["action_mask"][i], int(actions[i]),
                             float(rew[i]), bool(term[i])))  # fmt: skip
            if term[i] or trunc[i]:
                last = info2["final_obs"]["observation"][i]
                assert last[PHASE : PHASE + 5].any() == bool(trunc[i])  # none once over
                final = (last, info2["final_obs"]["action_mask"][i])
                replay_single_in_aec(
                    rules, n, env.last_record(i), int(seats[i]), open_[i], final, reward
                )
                checked += 1
                open_[i] = []
        obs, info = nxt, info2
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
