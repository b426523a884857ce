"""A Gymnasium single-agent UNO environment: the learner in one seat against bots.

    from unokit.rl import UnoGymEnv

    env = UnoGymEnv(num_players=4, preset="classic", opponents="random")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(action)

Observations, actions and the out-of-turn window are those of the ``uno_v1`` AEC
environment (docs/rl.md): the learner is asked exactly when the AEC environment would
select its agent, including the out-of-turn chances where it may PASS.  The other
seats are unokit bots (``unokit.bots.BOTS``), which see only their own views: asked in
a window they ``react`` (``None`` is a pass), on their turn they ``act``.

``action_masks()`` returns the current mask, as sb3-contrib's MaskablePPO expects;
``observation="array"`` gives the bare observation array instead of the dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from unokit.bots import BOTS, Bot
from unokit.bots.base import observes
from unokit.engine import view_of
from unokit.match import ask_bot, inform
from unokit.obs.core import IllegalTableAction
from unokit.obs.tables import tables_for
from unokit.rules import RuleSet, from_preset

OBSERVATION_MODES = ("dict", "array")
ILLEGAL_MODES = ("penalize", "raise")
BOT_DECISIONS = 100_000  # per step: past it the bots are in a forced loop (docs/rules.md)


class UnoGymEnv(gymnasium.Env[Any, np.int64]):
    """One learning seat at an UNO table of bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        num_players: int = 2,
        preset: str = "classic",
        options: Mapping[str, Any] | None = None,
        *,
        rules: RuleSet | None = None,
        seat: int | None = 0,
        opponents: str | Sequence[str | Bot] = "random",
        reward: str = "win",
        episode: str = "round",
        observation: str = "dict",
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        """``seat``: the learner's seat, or None for a random seat each episode.
        ``opponents``: a bot name for every other seat, or one name or Bot per other
        seat in seat order.  ``reward``/``episode`` as for ``uno_v1``.  An action the
        mask forbids raises (``illegal_action="raise"``) or changes nothing and earns
        ``illegal_penalty`` (``"penalize"``, the default, so that unmasked agents and
        ``check_env`` can call ``step`` with any action).  ``max_steps``: truncate the
        episode after this many learner decisions (a round can go on for ever when
        nobody will play; docs/rl.md)."""
        super().__init__()
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        if observation not in OBSERVATION_MODES:
            raise ValueError(f"observation must be one of {OBSERVATION_MODES}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}")
        rule_set = rules if rules is not None else from_preset(preset, options)
        self.tables = tables = tables_for(rule_set)  # the game's action and observation tables
        self.table = tables.make_table(rule_set, num_players, reward=reward, episode=episode)
        n = num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1} or None, not {seat}")
        if isinstance(opponents, str):
            specs: list[str | Bot] = [opponents] * (n - 1)
        else:
            specs = list(opponents)
            if len(specs) != n - 1:
                raise ValueError(f"give {n - 1} opponents (one per other seat), not {len(specs)}")
        for spec in specs:
            if isinstance(spec, str) and spec not in BOTS:
                raise ValueError(f"unknown bot {spec!r}; choose from {', '.join(BOTS)}")
        self._specs = specs
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.observation_mode = observation
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1, or None")
        self.max_steps = max_steps
        self.steps = 0
        self.render_mode = render_mode
        low, high = tables.bounds()
        box = spaces.Box(low=low, high=high, dtype=np.uint8)
        self.observation_space: spaces.Space[Any]
        if observation == "dict":
            self.observation_space = spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(0, 1, shape=(tables.num_actions,), dtype=np.int8),
                }
            )
        else:
            self.observation_space = box
        self.action_space = spaces.Discrete(tables.num_actions)
        self.bots: list[Bot | None] = [None] * n
        self._observed = [0] * n  # events handed to each bot's observe() so far
        self._done = True
        self._stalled = False  # the bots were stopped in a forced loop (BOT_DECISIONS)

    # ------------------------------------------------------------------ helpers -----
    def _make_bots(self, rng: np.random.Generator) -> None:
        others = [s for s in range(self.table.n) if s != self.seat]
        self.bots = [None] * self.table.n
        for s, spec in zip(others, self._specs, strict=True):
            if isinstance(spec, str):
                cls = cast(Any, BOTS[spec])
                self.bots[s] = cast(Bot, cls(seed=int(rng.integers(2**31))))
            else:
                self.bots[s] = spec
        self.table.events = any(observes(b) for b in self.bots if b is not None)
        self._observed = [0] * self.table.n

    def _obs(self) -> Any:
        o, m = self.table.observe_with_mask(self.seat)
        if self.observation_mode == "dict":
            return {"observation": o, "action_mask": m}
        return o

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions now, as booleans (sb3-contrib's MaskablePPO)."""
        return self.table.mask_array(self.seat).astype(bool)

    def _run_bots(self) -> float:
        """Let the bots decide until the learner must, or the episode ends.

        Returns the learner's reward from rounds that ended on the way.  Bots caught in
        a loop the rules force (docs/rules.md) stop after ``BOT_DECISIONS`` decisions:
        the episode is then truncated, with ``info["stalled"]``.
        """
        table = self.table
        game = table.game
        reward = 0.0
        for _ in range(BOT_DECISIONS):
            if table.round_over:
                reward += table.round_rewards()[self.seat]
                if table.episode == "round" or game.game_over:
                    self._done = True
                    return reward
                # looked at once the next round is dealt: out of the game (R-SCORE-ELIM)
                # ends the episode, out of one No Mercy hand does not (NM-END-4)
                table.next_round()
                if not view_of(game, self.seat).live[self.seat]:
                    self._done = True
                    return reward
                continue
            s = table.select()
            if s == self.seat:
                return reward
            bot = self.bots[s]
            assert bot is not None
            # told and asked as in every front end (unokit.match): its events, then a
            # catch before its turn while someone is catchable, then the turn
            self._observed[s] = inform(bot, game, s, self._observed[s])
            action = ask_bot(bot, game, s)
            if action is None:
                if view_of(game, s).my_turn:
                    raise RuntimeError(f"the {type(bot).__name__} of seat {s} gave no action")
                table.pass_(s)
            else:
                table.apply(s, action)
        self._done = self._stalled = True
        return reward

    # ---------------------------------------------------------------------- API -----
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.table.n))
        self._make_bots(rng)
        self._done = self._stalled = False
        self.steps = 0
        # Rounds are played until the learner has a decision; a round that ends
        # first is dealt again (it cannot end before the first turn, so this is rare).
        while True:
            self.table.new_game(int(rng.integers(2**62)))
            self._observed = [0] * self.table.n
            self._run_bots()
            if not self._done:
                break
            self._done = self._stalled = False
        return self._obs(), {"seat": self.seat}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("step() after the episode is over: call reset()")
        info: dict[str, Any] = {}
        self.steps += 1
        try:
            self.table.step(self.seat, int(action))
        except IllegalTableAction:
            if self.illegal_action == "raise":
                raise
            info["illegal_action"] = True
            truncated = self.steps == self.max_steps
            self._done = truncated
            return self._obs(), self.illegal_penalty, False, truncated, info
        reward = self._run_bots()
        truncated = not self._done and self.steps == self.max_steps
        if self._stalled:
            truncated = True
            info["stalled"] = True
        elif self._done:
            end = view_of(self.table.game, None)
            info["round_winner"] = end.round_winner
            info["scores"] = list(end.scores)
        elif truncated:
            self._done = True
        return self._obs(), reward, self._done and not truncated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        names = [("learner" if s == self.seat else f"bot {s}") for s in range(self.table.n)]
        text = self.table.render(names)
        if self.render_mode == "human":
            print(text, end="")
        return text

    def close(self) -> None:
        pass
