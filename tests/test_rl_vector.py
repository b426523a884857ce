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
the vector kernel (numba, cached afterwards).  The method's code is shared with the
Flip and No Mercy tests (``tests/vector_helpers.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from gymnasium.vector import AutoresetMode

from unokit.engine import game_class
from unokit.obs.core import IllegalTableAction
from unokit.rl.vector import (
    KERNEL_DECKS,
    VECTOR_GAMES,
    UnoVectorEnv,
    UnoVectorGymEnv,
    VectorUnsupported,
    sample_actions,
)
from unokit.rules import PRESETS, RulesError, from_preset
from vector_helpers import replay_in_aec, replay_single_in_aec, run_vector, single_episodes

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
@pytest.mark.parametrize(
    ("preset", "n", "opponents"),
    [("classic", 2, "heuristic"), ("classic", 4, "heuristic"), ("party", 3, "random"),
     ("mattel-2018", 5, "random"), ("attack", 2, "random")],
)  # fmt: skip
def test_single_agent_same_as_aec(preset: str, n: int, opponents: str) -> None:
    rules = from_preset(preset)
    env = UnoVectorGymEnv(3, n, rules=rules, seat=None, opponents=opponents, record=True)
    checked = 0
    for ep in single_episodes(env, np.random.default_rng(n), steps=200):
        replay_single_in_aec(rules, n, ep)
        checked += 1
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
