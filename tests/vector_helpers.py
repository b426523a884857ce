"""The differential tests' shared half: ``unokit.rl.vector`` held to ``uno_v1``.

``tests/test_rl_vector.py`` (classic UNO), ``test_rl_vector_flip.py`` and
``test_rl_vector_nm.py`` check each game the same way (the method is
``test_rl_vector.py``'s docstring): a recording vector env takes random legal actions
(``run_vector``; ``single_episodes`` for ``UnoVectorGymEnv``), and each episode is played
again in ``uno_v1`` on the recorded deal (``aec_on``), decision by decision
(``replay_in_aec``; ``replay_single_in_aec``, the opponents' moves taken from the
record).  What differs between the games comes from the game's tables
(``tables_for``: its play indices, PASS, ``action_index``, the observation's phase); what
differs between the test files (how eager the random actions are to play a card, the
single-agent checks each file adds) is a parameter.  Each file keeps its configurations.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from unokit.engine import new_game
from unokit.obs.tables import tables_for
from unokit.record import loads, replay, start_recorded_round
from unokit.rl import uno_v1
from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv, sample_actions
from unokit.rules import RuleSet


@dataclass
class Episode:
    """One vector game's episode: its record and, per decision, what the env gave."""

    record: dict[str, Any]
    steps: list[tuple[Any, ...]] = field(default_factory=list)


def choose(mask: np.ndarray, rng: np.random.Generator, eager: float, num_plays: int) -> np.ndarray:
    """Per row: with chance ``eager`` a random allowed play (if any: the table's first
    ``2 * num_plays`` actions, the plays and the same calling UNO), else a random
    allowed action."""
    out = sample_actions(mask, rng)
    plays = mask[:, : 2 * num_plays]
    for i in np.flatnonzero(plays.any(axis=1) & (rng.random(len(mask)) < eager)):
        out[i] = rng.choice(np.flatnonzero(plays[i]))
    return out


def run_vector(
    rules: RuleSet, n: int, *, envs: int, steps: int, seed: int, reward: str,
    max_steps: int | None, eager: float = 0.9,
) -> list[Episode]:  # fmt: skip
    """Step a recording vector env ``steps`` times, and on until a round (a hand) has
    ended (up to five times as long); every episode (ended or cut at the end) with its
    decisions.  ``eager``: ``choose``'s chance of a play."""
    num_plays = tables_for(rules).num_plays
    env = UnoVectorEnv(envs, n, rules=rules, reward=reward, max_steps=max_steps, record=True)
    rng = np.random.default_rng(seed)
    batch = env.reset(seed=seed)
    open_: list[list[tuple[Any, ...]]] = [[] for _ in range(envs)]
    done: list[Episode] = []
    ended = False
    for t in range(5 * steps):
        if t >= steps and ended:
            break
        actions = choose(batch.mask, rng, eager, num_plays)
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
    """``uno_v1`` playing the recorded deal, its reshuffles and launches forced: the
    game dealt as ``unokit replay`` deals it (``start_recorded_round``: a classic
    record's cards as they are, a Flip deck's codes with their light/dark pairing)."""
    env = uno_v1.env(num_players=n, rules=rules, **kwargs)
    env.reset(seed=0)
    spec = loads(json.dumps(record)).rounds[0]
    game = new_game(rules, n, seed=0, events=False, record=False, start=False)
    start_recorded_round(game, spec, 0)
    env.table.set_game(game)
    env.agent_selection = env.possible_agents[env.table.select()]
    return env


def replay_in_aec(rules: RuleSet, n: int, ep: Episode, reward: str, max_steps: int | None) -> int:
    """Every decision of ``ep`` in the AEC env: the same seat selected, observation,
    mask, rewards and ends; the number of decisions."""
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


# ---------------------------------------------------------------- single agent ------
@dataclass
class Single:
    """One ended episode of a single-agent vector env: its record, the learner's seat,
    the learner's decisions (observation, mask, action, reward, terminated) and the
    episode's last observation and mask (``info["final_obs"]``)."""

    record: dict[str, Any]
    seat: int
    steps: list[tuple[Any, ...]]
    final_obs: np.ndarray
    final_mask: np.ndarray
    terminated: bool


def single_episodes(
    env: UnoVectorGymEnv, rng: np.random.Generator, *, steps: int, eager: float = 0.9
) -> Iterator[Single]:
    """Step a recording ``UnoVectorGymEnv`` (reset with seed 5) ``steps`` times, the
    actions ``choose``'s; each episode as it ends, its last observation checked to
    show no phase once the round is over (a truncated one's still does)."""
    tables = tables_for(env.games.rules)
    _name, phase, phase_end, _what = next(s for s in tables.obs_slices if s[0] == "phase")
    envs = env.num_envs
    obs, info = env.reset(seed=5)
    open_: list[list[tuple[Any, ...]]] = [[] for _ in range(envs)]
    for _ in range(steps):
        seats = info["seat"]
        actions = choose(obs["action_mask"], rng, eager, tables.num_plays)
        nxt, rew, term, trunc, info2 = env.step(actions)
        for i in range(envs):
            open_[i].append((obs["observation"][i], obs["action_mask"][i], int(actions[i]),
                             float(rew[i]), bool(term[i])))  # fmt: skip
            if term[i] or trunc[i]:
                last = info2["final_obs"]["observation"][i]
                assert last[phase:phase_end].any() == bool(trunc[i])  # none once over
                yield Single(
                    env.last_record(i), int(seats[i]), open_[i], last,
                    info2["final_obs"]["action_mask"][i], bool(term[i]),
                )  # fmt: skip
                open_[i] = []
        obs, info = nxt, info2


def replay_single_in_aec(
    rules: RuleSet, n: int, ep: Single, *, indexed: bool = False, whole_log: bool = False,
    final_obs: np.ndarray | None = None, final_mask: np.ndarray | None = None, **kwargs: Any,
) -> None:  # fmt: skip
    """The learner's decisions against the AEC env (``kwargs``: its settings), the
    opponents' taken from the record (a selected opponent whose next recorded action
    is not its own passed).  ``indexed``: every recorded action has a table index;
    ``whole_log``: the replay used every recorded action; ``final_obs``/``final_mask``:
    the learner's last observation/mask in the AEC env, where given."""
    tables = tables_for(rules)
    env = aec_on(rules, n, ep.record, **kwargs)
    agents = env.possible_agents
    logged = [
        (s, tables.action_index(s, n, a)) for s, a in loads(json.dumps(ep.record)).rounds[0].actions
    ]
    if indexed:
        assert all(i >= 0 for _s, i in logged), "an opponent played what the table cannot"
    seat, steps = ep.seat, ep.steps
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
                env.step(tables.a_pass)
            continue
        if k == len(steps):
            break  # the episode was cut here
        obs, mask, action, _reward, _term = steps[k]
        o = env.last()[0]
        assert np.array_equal(o["observation"], obs), f"learner decision {k}"
        assert np.array_equal(o["action_mask"], mask), f"learner decision {k}"
        if action != tables.a_pass:
            assert logged[pos] == (seat, action), f"learner decision {k}"
            pos += 1
        env.step(action)
        k += 1
    assert k == len(steps)
    if whole_log:
        assert pos == len(logged)
    if final_obs is not None:
        last = env.observe(agents[seat])["observation"]
        assert np.array_equal(last, final_obs), "the final observation"
    if final_mask is not None:
        last = env.observe(agents[seat])["action_mask"]
        assert np.array_equal(last, final_mask), "the final mask"
    _action, got, term = steps[-1][2:]
    if term:  # the round ended after the learner's last decision, the opponents' moves
        assert env.terminations[agents[seat]]
        assert env.rewards[agents[seat]] == got
