"""``uno_v1``: a PettingZoo AEC environment for UNO under any unokit rule set.

    from unokit.rl import uno_v1

    env = uno_v1.env(num_players=4, preset="party", render_mode="ansi")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (the seat numbers).  Observations are
``{"observation": uint8[k], "action_mask": int8[m]}``; actions index the fixed table of
the game the rules play (``unokit.obs.tables``, docs/rl.md): classic UNO 330 and 343,
UNO Flip! 1,599 and 251, No Mercy 430 and 267.  Out-of-turn decisions (catching a player who
did not call UNO, a late UNO call, a jump-in) are offered one seat at a time before
each turn decision, with a PASS action; see ``Table.select``.

``env()`` returns the raw environment: it already refuses actions out of order,
out of bounds or masked out (``illegal_action``), which PettingZoo's usual wrappers
would add at a cost per step.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from unokit.engine import view_of
from unokit.obs.core import IllegalTableAction
from unokit.obs.tables import GameTables, tables_for
from unokit.rules import RuleSet, from_preset

ILLEGAL_MODES = ("raise", "terminate")
RENDER_MODES = ("ansi", "human")


def make_rules(
    preset: str = "classic",
    options: Mapping[str, Any] | None = None,
    rules: RuleSet | None = None,
) -> RuleSet:
    """A rule set from a preset and options, or the one given."""
    return rules if rules is not None else from_preset(preset, options)


def observation_space(tables: GameTables | None = None) -> spaces.Dict:
    """The observation space of a game's tables (classic's by default)."""
    t = tables if tables is not None else tables_for(RuleSet())
    low, high = t.bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low=low, high=high, dtype=np.uint8),
            "action_mask": spaces.Box(low=0, high=1, shape=(t.num_actions,), dtype=np.int8),
        }
    )


class _AgentIter:
    """What ``agent_iter`` returns: each ``for`` loop over it starts afresh."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: UnoAECEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        left = self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class UnoAECEnv(AECEnv):  # type: ignore[misc]
    """UNO for 2-10 agents, one decision per step (PettingZoo AEC API)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "uno_v1",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 2,
        preset: str = "classic",
        options: Mapping[str, Any] | None = None,
        *,
        rules: RuleSet | None = None,
        reward: str = "win",
        episode: str = "round",
        illegal_action: str = "raise",
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        """``reward``: "win" (+1 round winner or winning team, -1 the others) or "score"
        (points, see docs/rl.md).  ``episode``: "round" (one round) or "game" (rounds
        until the game is over, rewards after each).  ``illegal_action``: "raise" a
        ValueError, or "terminate" the episode with -1 for the offender.  ``max_steps``:
        truncate every agent after this many decisions in an episode (a round can go on
        for ever when nobody will play; docs/rl.md)."""
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}")
        rule_set = make_rules(preset, options, rules)
        self.tables = tables = tables_for(rule_set)  # the game's action and observation tables
        self.table = tables.make_table(rule_set, num_players, reward=reward, episode=episode)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1, or None")
        self.max_steps = max_steps
        self.steps = 0  # decisions taken in this episode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents: list[str] = []
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space(tables)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        act_space = spaces.Discrete(tables.num_actions)
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.np_random = np.random.default_rng()
        self._dirty = False  # rewards hold a round's rewards that the next step clears

    # ------------------------------------------------------------------- spaces ----
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -------------------------------------------------------------------- reset ----
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        self.table.new_game(int(self.np_random.integers(2**62)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._dirty = False
        self._ended = False
        self._slow = False
        self.steps = 0
        self.agent_selection = self.possible_agents[self.table.select()]

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIter:
        """As ``AECEnv.agent_iter`` (a re-iterable), with a generator for an iterator:
        resuming one costs less than a Python ``__next__`` call, on every step."""
        return _AgentIter(self, max_iter)

    # ------------------------------------------------------------------ observe ----
    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        o, m = self.table.observe_with_mask(self._seat[agent])
        return {"observation": o, "action_mask": m}

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray[Any, Any]] | None, float, bool, bool, dict[str, Any]]:
        # AECEnv.last, with observe() inlined: it runs once per step.  It reads the
        # status dicts every time (no shortcut on _slow): PettingZoo's wrappers, such as
        # TerminateIllegalWrapper, write them directly.
        agent = self.agent_selection
        obs = None
        if observe:
            o, m = self.table.observe_with_mask(self._seat[agent])
            obs = {"observation": o, "action_mask": m}
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def action_mask(self, agent: str) -> np.ndarray[Any, Any]:
        return self.table.mask_array(self._seat[agent])

    # --------------------------------------------------------------------- step ----
    def step(self, action: Any) -> None:
        # Written for speed: one flag (_slow) stands for every uncommon case, so that a
        # plain decision costs a handful of lines beyond the table's own step.
        if self._slow and self._slow_step(action):
            return
        agent = self.agent_selection
        if type(action) is not int:  # numpy integers and the like
            if action is None:
                raise ValueError(f"{agent} must act: None is only for terminated agents")
            action = int(action)
        try:
            nxt = self.table.step(self._seat[agent], action)
        except IllegalTableAction:
            if self.illegal_action == "raise":
                raise
            for a in self.agents:
                self.rewards[a] = -1.0 if a == agent else 0.0
                self._cumulative_rewards[a] += self.rewards[a]
                self.terminations[a] = True
                self.infos[a] = {"illegal_action": agent}
            self._ended = self._dirty = self._slow = True
            return
        if nxt < 0:  # the round is over
            self._after_round()
            return
        self.steps += 1
        if self.steps == self.max_steps:
            self._truncate()
            return
        self.agent_selection = self.possible_agents[nxt]

    def _slow_step(self, action: Any) -> bool:
        """The uncommon cases at the start of a step; True if the step is over."""
        if not self.agents:
            raise RuntimeError("step() after the episode is over: call reset()")
        agent = self.agent_selection
        if self._ended and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            return True
        if action is None:
            raise ValueError(f"{agent} must act: None is only for terminated agents")
        if self._dirty:
            self._clear_rewards()
            self._dirty = False
        self._cumulative_rewards[agent] = 0.0  # it has seen them (last()) and acts
        self._slow = self._ended or any(self._cumulative_rewards.values())
        return False

    def _truncate(self) -> None:
        for a in self.agents:
            self.truncations[a] = True
        self._ended = self._slow = True  # every agent is truncated; each steps None once

    def _after_round(self) -> None:
        """The step that ended a round: rewards, and the next round under episode="game"."""
        self._slow = True  # rewards to clear at the next step
        if self._end_round():
            return  # every agent is terminated; each steps None once
        self.steps += 1
        if self.steps == self.max_steps:
            self._truncate()
            return
        self.agent_selection = self.possible_agents[self.table.select()]
        if self._newly_dead:
            self._newly_dead = False
            self._deads_step_first()

    _newly_dead = False
    _ended = False  # some agent is terminated or truncated: step() checks who
    # step() must look at _ended, _dirty and the cumulative rewards first (and, before
    # the first reset(), refuse).
    _slow = True

    def _end_round(self) -> bool:
        """Hand out the round's rewards; True if the episode is over."""
        table = self.table
        game = table.game
        rewards = table.round_rewards()
        for a in self.agents:
            r = rewards[self._seat[a]]
            self.rewards[a] = r
            self._cumulative_rewards[a] += r
        self._dirty = True
        if table.episode == "round" or game.game_over:
            for a in self.agents:
                self.terminations[a] = True
                self._ended = True
            return True
        # Looked at once the next round is dealt: a seat out of the *game* (R-SCORE-ELIM)
        # stays out, a seat knocked out of one No Mercy hand plays the next (NM-END-4).
        table.next_round()
        live = view_of(game, None).live
        for a in self.agents:  # an eliminated seat's episode is over
            if not live[self._seat[a]]:
                self.terminations[a] = True
                self._ended = True
                self._newly_dead = True
        return False

    # ------------------------------------------------------------------- render ----
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        text = self.table.render(self.possible_agents)
        if self.render_mode == "human":
            print(text, end="")
        return text

    def close(self) -> None:
        pass


raw_env = UnoAECEnv


def env(**kwargs: Any) -> UnoAECEnv:
    """The ``uno_v1`` environment (keyword arguments as for ``UnoAECEnv``)."""
    return UnoAECEnv(**kwargs)
