"""``unokit.rl.vector`` held equal to the AEC environment (issue 37 item 2).

The vector environment's games are the compiled engine's, dealt from its own
generator; the AEC environment's are the reference engine's.  To compare them on the
same deals, every vector game keeps its log (``record=True``) and each episode is
played again in ``uno_v1``: its game is dealt from the record's deck, and the record's
reshuffles and launcher presses are forced on it (``Game.start_round``'s record
arguments, as ``unokit replay`` and ``unokit sim --check`` use them).  A reshuffle the
record lacks would fall back to the engine's own generator and show as a difference.
Then the AEC environment takes the same actions, and at every decision the selected
seat, the observation, the mask, every reward and both ends must be identical.

The actions are random legal ones, most of the time a play when one is allowed (so
rounds end often), and some runs truncate with ``max_steps``.  The first run compiles
the vector kernel (numba, cached afterwards).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from gymnasium.vector import AutoresetMode

from unokit.engine import Game, game_class
from unokit.obs.core import IllegalTableAction
from unokit.obs.spec import A_PASS, NUM_PLAYS, O_PHASE, action_index
from unokit.record import loads, replay
from unokit.rl import uno_v1
from unokit.rl.vector import (
    KERNEL_DECKS,
    VECTOR_GAMES,
    UnoVectorEnv,
    UnoVectorGymEnv,
    VectorUnsupported,
    sample_actions,
)
from unokit.rules import PRESETS, RulesError, RuleSet, from_preset

# numba: one xdist worker compiles the kernels once for every test here (loadgroup)
pytestmark = [pytest.mark.numba, pytest.mark.xdist_group("numba")]

SEATS = range(2, 11)


def supported_presets() -> list[str]:
    """Every preset whose deck the compiled engine plays (the others are refused)."""
    return [p for p in PRESETS if from_preset(p).deck in KERNEL_DECKS]


def configs() -> list[tuple[str, int]]:
    out = []
    for preset in supported_presets():
        rules = from_preset(preset)
        for n in SEATS:
            try:
                rules.check_players(n)
            except RulesError:
                continue
            out.append((preset, n))
    return out


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
    """``uno_v1`` playing the recorded deal, its reshuffles and launches forced."""
    env = uno_v1.env(num_players=n, rules=rules, **kwargs)
    env.reset(seed=0)
    spec = loads(json.dumps(record)).rounds[0]
    game = Game(rules, n, seed=0, events=False, record=False, start=False)
    game.start_round(spec.dealer, spec.deck, spec.seed, spec.shuffles, spec.launches)
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


@pytest.mark.parametrize(("preset", "n"), configs())
def test_same_as_aec(preset: str, n: int) -> None:
    rules = from_preset(preset)
    reward = "score" if n % 2 else "win"
    max_steps = 150 if n in (3, 8) else None
    episodes = run_vector(
        rules, n, envs=3, steps=250, seed=n * 7919 + len(preset), reward=reward,
        max_steps=max_steps,
    )  # fmt: skip
    decisions = sum(replay_in_aec(rules, n, ep, reward, max_steps) for ep in episodes)
    assert decisions >= 3 * 250
    assert any(ep.steps[-1][5] for ep in episodes), "no round ended: the rewards untested"


# Option families the presets leave out, at a few table sizes (rewards by score).
FAMILIES: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {"stacking": "progressive", "stack_draw4_on_draw2": True}, 3),
    ("classic", {"jump_in": True}, 4),
    ("classic", {"draw_until_playable": True, "force_play_drawn": True}, 3),
    ("classic", {"wd4_bluffing": True, "false_uno_penalty": 2}, 5),
    ("classic", {"scoring": "elimination"}, 6),
    ("classic", {"deck": "mattel-2018-shuffle", "custom_rule": "discard_color"}, 4),
    ("classic", {"deck": "mattel-2018-swap", "custom_rule": "others_discard_wilds"}, 3),
    ("classic", {"deck": "mattel-2018-swap", "custom_rule": "extra_turn"}, 2),
    ("classic", {"deck": "mattel-2018-swap", "custom_rule": "next_draws_3"}, 7),
    ("party", {"stacking": "pass"}, 5),
    ("teams", {}, 8),  # team rewards by score
    ("classic", {"hand_size": 3, "wild_points": 40, "uno_penalty": 4}, 10),
]


@pytest.mark.parametrize(("preset", "options", "n"), FAMILIES)
def test_option_families_same_as_aec(preset: str, options: dict[str, Any], n: int) -> None:
    rules = from_preset(preset, options)
    episodes = run_vector(rules, n, envs=3, steps=250, seed=n, reward="score", max_steps=None)
    for ep in episodes:
        replay_in_aec(rules, n, ep, "score", None)


# ---------------------------------------------------------------- single agent ------
def replay_single_in_aec(
    rules: RuleSet, n: int, record: dict[str, Any], seat: int, steps: list[tuple[Any, ...]]
) -> None:
    """The learner's decisions against the AEC env, the opponents' taken from the
    record (a selected opponent whose next recorded action is not its own passed)."""
    env = aec_on(rules, n, record)
    agents = env.possible_agents
    logged = [(s, action_index(s, n, a)) for s, a in loads(json.dumps(record)).rounds[0].actions]
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
    _action, reward, term = steps[-1][2:]
    if term:  # the round ended after the learner's last decision, the opponents' moves
        assert env.terminations[agents[seat]]
        assert env.rewards[agents[seat]] == reward


@pytest.mark.parametrize(
    ("preset", "n", "opponents"),
    [("classic", 2, "heuristic"), ("classic", 4, "heuristic"), ("party", 3, "random"),
     ("mattel-2018", 5, "random"), ("attack", 2, "random")],
)  # fmt: skip
def test_single_agent_same_as_aec(preset: str, n: int, opponents: str) -> None:
    rules = from_preset(preset)
    envs = 3
    env = UnoVectorGymEnv(envs, n, rules=rules, seat=None, opponents=opponents, record=True)
    rng = np.random.default_rng(n)
    obs, info = env.reset(seed=5)
    open_: list[list[tuple[Any, ...]]] = [[] for _ in range(envs)]
    checked = 0
    for _ in range(200):
        seats = info["seat"]
        actions = choose(obs["action_mask"], rng, 0.9)
        nxt, reward, term, trunc, info2 = env.step(actions)
        for i in range(envs):
            open_[i].append((obs["observation"][i], obs["action_mask"][i], int(actions[i]),
                             float(reward[i]), bool(term[i])))  # fmt: skip
            if term[i] or trunc[i]:
                last = info2["final_obs"]["observation"][i]
                assert last[O_PHASE : O_PHASE + 5].any() == bool(trunc[i])  # none once over
                replay_single_in_aec(rules, n, env.last_record(i), int(seats[i]), open_[i])
                checked += 1
                open_[i] = []
        obs, info = nxt, info2
    assert checked


# ---------------------------------------------------------------- refusals ---------
def test_refusals_name_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(VectorUnsupported, match=r"stacking=progressive.*seven_zero"):
        UnoVectorGymEnv(2, 3, "party", opponents="heuristic")
    with pytest.raises(VectorUnsupported, match="multi_play"):
        UnoVectorGymEnv(2, 3, "seed-001-house", opponents="heuristic")
    with pytest.raises(VectorUnsupported, match="deck=mattel-2018-swap"):
        UnoVectorGymEnv(2, 3, "mattel-2018", opponents="heuristic")
    with pytest.raises(VectorUnsupported, match="episode='game'"):
        UnoVectorEnv(2, 3, episode="game")
    # a game without a vector kernel (another deck) is refused: each game's kernel
    # taken away in turn (both have one: tests/test_rl_vector_flip.py, _nm.py)
    for deck in ("flip", "no-mercy"):
        try:
            rules = from_preset("classic", {"deck": deck})
        except RulesError:  # pragma: no cover - a build without that game
            continue
        monkeypatch.delitem(VECTOR_GAMES, game_class(rules).NAME, raising=False)
        with pytest.raises(VectorUnsupported, match=f"deck='{deck}'"):
            UnoVectorEnv(2, 2, rules=rules)
        with pytest.raises(VectorUnsupported, match=f"deck='{deck}'"):
            UnoVectorGymEnv(2, 2, rules=rules)


def test_an_illegal_action_moves_no_game() -> None:
    env = UnoVectorEnv(4, 3)
    batch = env.reset(seed=3)
    before = env.games.ST.copy()
    actions = sample_actions(batch.mask, np.random.default_rng(0))
    bad = int(np.flatnonzero(batch.mask[2] == 0)[0])
    actions[2] = bad
    with pytest.raises(IllegalTableAction, match="game 2"):
        env.step(actions)
    assert np.array_equal(env.games.ST, before)
    with pytest.raises(ValueError, match="give 4 actions"):
        env.step(actions[:3])


def test_seeds_reproduce() -> None:
    a = UnoVectorEnv(8, 4, "party")
    b = UnoVectorEnv(8, 4, "party")
    ra = a.reset(seed=11)
    rb = b.reset(seed=11)
    rng_a = np.random.default_rng(1)
    rng_b = np.random.default_rng(1)
    for _ in range(300):
        assert np.array_equal(ra.obs, rb.obs)
        ra = a.step(sample_actions(ra.mask, rng_a))
        rb = b.step(sample_actions(rb.mask, rng_b))
        assert np.array_equal(ra.rewards, rb.rewards)


def test_gymnasium_vector_interface() -> None:
    env = UnoVectorGymEnv(4, 3, seat=None, max_steps=5)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["seat"].shape == (4,)
    rng = np.random.default_rng(0)
    steps = np.zeros(4, dtype=np.int64)
    for _ in range(12):
        obs, reward, term, trunc, info = env.step(sample_actions(env.action_masks(), rng))
        steps += 1
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        ended = term | trunc
        stalled = info.get("stalled", np.zeros(4, dtype=bool))
        assert np.array_equal(trunc & ~stalled, (steps == 5) & ~term)  # max_steps=5
        assert not (reward[~term] != 0).any()
        if ended.any():
            assert np.array_equal(info["_final_obs"], ended)
            assert (info["round_winner"][term] >= 0).all()
        steps[ended] = 0
    array_env = UnoVectorGymEnv(2, 2, observation="array")
    obs, _info = array_env.reset(seed=1)
    assert obs.shape == (2, 330) and array_env.observation_space.contains(obs)


def test_a_list_of_seeds_seeds_each_game_alone() -> None:
    both = UnoVectorEnv(2, 3).reset(seed=[5, 9])
    for i, s in enumerate((5, 9)):
        alone = UnoVectorEnv(1, 3).reset(seed=s)
        assert np.array_equal(both.obs[i], alone.obs[0])
        assert np.array_equal(both.mask[i], alone.mask[0])
