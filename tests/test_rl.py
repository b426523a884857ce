"""The RL environments (issue 7): PettingZoo and Gymnasium API checks, the fixed action
table, observations built only from a seat's view (no leak), masks that are exactly
the legal single-card actions."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from helpers import hidden_cards_dealt_again
from unokit.engine import P_PLAY, view_of
from unokit.rl import (
    NUM_ACTIONS,
    OBS_SIZE,
    IllegalTableAction,
    Table,
    UnoGymEnv,
    action_index,
    action_name,
    encode_view,
    mask_of_view,
    spec,
    uno_v1,
)
from unokit.rules import PRESETS, RuleSet, from_preset

API_PRESETS = ("classic", "party", "mattel-2018", "seed-001-house")
API_PLAYERS = (2, 4, 7)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # The API checkers warn about dict observations and the like: not failures.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _tables() -> list[tuple[str, int]]:
    out = []
    for preset in PRESETS:
        for n in (2, 3, 4, 6):
            try:
                from_preset(preset).check_players(n)
            except ValueError:
                continue
            out.append((preset, n))
    return out


def _random_states(table: Table, seed: int, steps: int) -> Iterator[int]:
    """Play masked random actions through ``table``; yield the seat to decide each time."""
    rng = random.Random(seed)
    table.new_game(seed)
    for _ in range(steps):
        if table.round_over:
            if table.game.game_over:
                table.new_game(rng.randrange(1 << 30))
            else:
                table.next_round()
            continue
        seat = table.select()
        yield seat
        mask = table.mask(seat)
        choices = [i for i in range(NUM_ACTIONS) if mask[i]]
        table.step(seat, rng.choice(choices))


# ------------------------------------------------------------------ PettingZoo -------
@pytest.mark.parametrize("preset", API_PRESETS)
@pytest.mark.parametrize("players", API_PLAYERS)
def test_pettingzoo_api_and_seed(preset: str, players: int) -> None:
    env = uno_v1.env(num_players=players, preset=preset, render_mode="ansi")
    api_test(env, num_cycles=200)
    seed_test(lambda: uno_v1.env(num_players=players, preset=preset), num_cycles=200)


@pytest.mark.parametrize(
    ("preset", "players", "kwargs"),
    [
        ("classic", 3, {"options": {"scoring": "elimination", "target_score": 60}}),
        ("teams", 4, {"reward": "score"}),
        ("my-first-uno", 3, {}),
        ("classic", 2, {"options": {"target_score": 100}, "reward": "score"}),
    ],
)
def test_pettingzoo_whole_game_episodes(preset: str, players: int, kwargs: dict) -> None:
    env = uno_v1.env(num_players=players, preset=preset, episode="game", **kwargs)
    api_test(env, num_cycles=3000)
    # A whole game ends with the game over, every agent done.
    env.reset(seed=5)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.table.game.game_over


def test_max_steps_truncates_every_agent() -> None:
    env = uno_v1.env(num_players=3, max_steps=25)
    api_test(env, num_cycles=100)
    env.reset(seed=2)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
        else:
            decisions += 1
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))  # draws, never ends
    assert decisions == 25 and not env.agents
    gym = UnoGymEnv(max_steps=3)
    gym.reset(seed=0)
    results = [gym.step(spec.A_DRAW if gym.action_masks()[spec.A_DRAW] else spec.A_KEEP)]
    while not (results[-1][2] or results[-1][3]):
        m = gym.action_masks()
        results.append(gym.step(spec.A_DRAW if m[spec.A_DRAW] else int(np.flatnonzero(m)[-1])))
    assert len(results) == 3 and results[-1][3] and not results[-1][2]


def test_render_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    env = uno_v1.env(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text and "top" in text
    human = uno_v1.env(num_players=3, render_mode="human")
    human.reset(seed=1)
    human.render()
    assert capsys.readouterr().out == text


def test_illegal_action_raises_or_terminates() -> None:
    env = uno_v1.env(num_players=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)  # before reset()
    env.reset(seed=0)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalTableAction):
        env.step(bad)
    with pytest.raises(ValueError):
        env.step(NUM_ACTIONS + 5)
    env = uno_v1.env(num_players=2, illegal_action="terminate")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(bad)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0


def test_pettingzoo_terminate_illegal_wrapper() -> None:
    """Wrapped in PettingZoo's own TerminateIllegalWrapper (which writes the env's status
    dicts directly), an illegal move ends the episode as every agent sees it in last()."""
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper

    env = TerminateIllegalWrapper(uno_v1.env(num_players=3), illegal_reward=-1)
    env.reset(seed=0)
    obs, *_ = env.last()
    offender = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    seen = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, _truncated, _info = env.last()
        seen[agent] = (reward, terminated)
        env.step(None)
    assert set(seen) == {"player_0", "player_1", "player_2"}
    assert all(terminated for _r, terminated in seen.values())
    assert seen[offender][0] == -1


def test_round_rewards_win_and_score() -> None:
    for reward in ("win", "score"):
        env = uno_v1.env(num_players=3, reward=reward)
        env.reset(seed=3)
        rng = np.random.default_rng(0)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, r, terminated, truncated, _ = env.last()
            totals[agent] += r
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        game = env.table.game
        winner = f"player_{game.round_winner}"
        assert totals[winner] > 0
        assert all(v < 0 or a == winner for a, v in totals.items())
        if reward == "win":
            assert totals[winner] == 1.0
        else:
            assert totals[winner] == pytest.approx(game.scores[game.round_winner] / 100)


# ------------------------------------------------------------------- Gymnasium -------
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"num_players": 4, "preset": "party", "observation": "array"},
        {"num_players": 3, "preset": "mattel-2018", "opponents": "heuristic", "seat": None},
        {"num_players": 3, "preset": "seed-001-house", "reward": "score", "episode": "game"},
    ],
)
def test_gymnasium_check_env(kwargs: dict) -> None:
    check_env(UnoGymEnv(**kwargs), skip_render_check=True)


def test_gymnasium_episode_and_masks() -> None:
    env = UnoGymEnv(num_players=4, opponents=["random", "greedy", "heuristic"])
    obs, info = env.reset(seed=7)
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(5000):
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        obs, reward, terminated, _, info = env.step(rng.choice(np.flatnonzero(mask)))
        total += reward
        if terminated:
            break
    assert terminated and total in (1.0, -1.0)
    assert (total == 1.0) == (info["round_winner"] == env.seat)


def test_gymnasium_illegal_action_penalized() -> None:
    env = UnoGymEnv(illegal_penalty=-0.5)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, _, info = env.step(bad)
    assert reward == -0.5 and not terminated and info["illegal_action"]
    assert np.array_equal(obs["observation"], obs2["observation"])
    strict = UnoGymEnv(illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalTableAction):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


# ------------------------------------------------------------- the action table ------
@pytest.mark.parametrize("n", [2, 3, 7, 10])
def test_action_table_round_trips(n: int) -> None:
    for seat in range(n):
        table = spec.decode_table(seat, n)
        assert len(table) == NUM_ACTIONS
        for index, action in enumerate(table):
            if action is None:
                continue
            assert action_index(seat, n, action) == index, (seat, index, action)
            assert action_name(index)
    assert action_name(spec.A_PASS) == "pass"
    assert action_name(spec.A_DRAW) == "draw"
    assert action_name(spec.A_UNO_PLAYS + 52 + 4 + 2) == "play W+4 G uno"


def test_observation_layout_is_contiguous() -> None:
    stop = 0
    for _, start, end, meaning in spec.OBS_SLICES:
        assert start == stop and end > start and meaning
        stop = end
    assert stop == OBS_SIZE


# -------------------------------------------- observations from the view only -------
@pytest.mark.parametrize(("preset", "players"), _tables())
def test_fast_path_equals_view_path(preset: str, players: int) -> None:
    """The fast encoder and mask read only what view_of exposes: same arrays."""
    table = Table(from_preset(preset), players, episode="game")
    for seat_to_act in _random_states(table, seed=players, steps=600):
        for seat in {seat_to_act, (seat_to_act + 1) % players}:
            view = view_of(table.game, seat)
            obs, mask = table.observe_with_mask(seat)
            assert np.array_equal(obs, encode_view(view)), (preset, players, seat)
            assert np.array_equal(mask, mask_of_view(view)), (preset, players, seat)
            assert np.array_equal(table.observe(seat), obs)


@pytest.mark.parametrize(("preset", "players"), _tables())
def test_engine_actions_keep_observations_exact(preset: str, players: int) -> None:
    """Bots act through Table.apply with any engine action, multi-plays, swaps and
    shuffles included: every seat's observation still equals the one built from its
    View (the table keeps hand counts and lengths between actions, not recounted)."""
    table = Table(from_preset(preset), players, episode="game")
    table.new_game(players)
    rng = random.Random(players)
    applied = 0
    for _ in range(500):
        game = table.game
        if table.round_over:
            if game.game_over:
                table.new_game(rng.randrange(1 << 30))
            else:
                table.next_round()
            continue
        seat = rng.choice(game.actors())
        actions = game.legal_actions(seat)
        multi = [a for a in actions if a.extra]
        action = rng.choice(multi if multi and rng.random() < 0.5 else actions)
        table.apply(seat, action)
        applied += 1
        for s in range(players):
            assert np.array_equal(table.observe(s), encode_view(view_of(game, s))), (
                preset,
                players,
                s,
                action,
            )
    assert applied >= 400


@pytest.mark.parametrize("preset", ["classic", "party", "mattel-2018", "seed-001-house"])
def test_no_leak_hidden_cards_change_nothing(preset: str) -> None:
    rules = from_preset(preset)
    players = 4
    table = Table(rules, players)
    rng = random.Random(11)
    a, b = Table(rules, players), Table(rules, players)
    checked = 0
    for _ in _random_states(table, seed=3, steps=400):
        for seat in range(players):
            a.set_game(table.game.copy())
            b.set_game(hidden_cards_dealt_again(table.game, seat, rng))
            oa, ma = a.observe_with_mask(seat)
            ob, mb = b.observe_with_mask(seat)
            assert np.array_equal(oa, ob), (preset, seat)
            assert np.array_equal(ma, mb), (preset, seat)
            checked += 1
    assert checked >= 400


def test_masked_actions_are_always_legal() -> None:
    """Every action a mask allows passes the engine's own check, on every preset."""
    for preset, players in _tables():
        table = Table(from_preset(preset), players, episode="game")
        for seat in _random_states(table, seed=17, steps=300):
            game = table.game
            mask = table.mask(seat)
            allowed = [i for i in range(NUM_ACTIONS) if mask[i]]
            assert allowed, (preset, players, game)
            for index in allowed:
                if index == spec.A_PASS:
                    assert seat != game.current
                    continue
                action = table.decode[seat][index]
                assert action is not None
                game.check(seat, action)  # raises IllegalAction if not legal


def test_out_of_turn_window_asks_others_before_the_turn() -> None:
    """A seat left with one card without calling UNO may be caught before the next turn."""
    rules = RuleSet()
    table = Table(rules, 3)
    for seat in _random_states(table, seed=1, steps=5000):
        game = table.game
        if game.vulnerable >= 0 and game.phase == P_PLAY:
            assert seat != game.current or all(
                s in table.passed for s in range(3) if s != game.current
            )
            mask = table.mask(seat)
            if seat != game.current:
                assert mask[spec.A_PASS]
                if seat == game.vulnerable:
                    assert mask[spec.A_UNO]
                else:
                    assert mask[spec.A_CATCH + (game.vulnerable - seat) % 3 - 1]
            break
    else:
        pytest.fail("no catchable seat in 5000 random steps")


def test_bots_in_a_forced_loop_truncate_the_episode(monkeypatch: pytest.MonkeyPatch) -> None:
    """The learner is not left waiting for ever while bots play a loop out."""
    from unokit.rl import gym_env

    env = UnoGymEnv(num_players=4, seat=0)
    env.reset(seed=3)
    monkeypatch.setattr(gym_env, "BOT_DECISIONS", 1)  # as if the bots never got through
    m = env.action_masks()
    _, _, terminated, truncated, info = env.step(int(np.flatnonzero(m)[0]))
    assert truncated and not terminated and info.get("stalled") is True
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_gym_opponents_that_remember_are_told_their_seats_events() -> None:
    """An opponent with memory (ismcts) gets the observe stream it gets everywhere else:
    exactly its seat's events, once, in order (it got none as a gym opponent)."""
    from collections.abc import Sequence

    from unokit.bots.base import RandomBot
    from unokit.engine import Event

    class Spy(RandomBot):
        def __init__(self) -> None:
            super().__init__(5)
            self.told: list[Event] = []

        def observe(self, events: Sequence[Event]) -> None:
            self.told.extend(events)

    spy = Spy()
    env = UnoGymEnv(num_players=3, opponents=[spy, "random"], seat=0)
    env.reset(seed=11)
    for _ in range(30):
        mask = env.action_masks()
        _, _, done, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        if done or truncated:
            break
    game = env.table.game
    assert spy.told and spy.told == game.events_for(1)[: len(spy.told)]
    assert any(e.kind == "deal" and e.seat == 1 and e.cards for e in spy.told)
