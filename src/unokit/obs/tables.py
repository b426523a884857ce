"""Each game's RL tables, by game name, and the table that plays a modern game.

The environments (``uno_v1``, ``UnoGymEnv``) ask ``tables_for(rules)`` for the action
table, the observation layout and the ``Table`` class of the game ``rules`` play, and
never which game it is.  Classic UNO keeps its hand-tuned ``core.Table``; UNO Flip! and
No Mercy are played by ``ViewTable``, which builds every observation and mask from the
seat's ``View`` (the engine's answer to "what may this seat see"), so hidden cards
cannot leak by construction: it never reads the game for a seat's observation.  It
costs a view per decision (tens of microseconds); the vector environment is the fast
path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from unokit.engine import (
    P_ROUND_OVER,
    PHASE_NAMES,
    Action,
    Game,
    View,
    game_class,
    new_game,
    view_of,
)
from unokit.engine.state import seat_to_ask
from unokit.obs import core, flip, nomercy, spec
from unokit.obs.core import EPISODE_MODES, REWARD_MODES, IllegalTableAction
from unokit.rules import RuleSet

ByteArray = npt.NDArray[np.uint8]
MaskArray = npt.NDArray[np.int8]


class TableLike(Protocol):
    """What the environments use of a table (``core.Table`` and ``ViewTable``)."""

    game: Any
    n: int
    rules: RuleSet
    episode: str
    events: bool
    record: bool

    def new_game(self, seed: int) -> None: ...
    def set_game(self, game: Any) -> None: ...
    def next_round(self) -> None: ...
    @property
    def round_over(self) -> bool: ...
    def select(self) -> int: ...
    def step(self, seat: int, index: int) -> int: ...
    def apply(self, seat: int, action: Action) -> None: ...
    def pass_(self, seat: int) -> None: ...
    def round_rewards(self) -> list[float]: ...
    def observe(self, seat: int) -> ByteArray: ...
    def observe_with_mask(self, seat: int) -> tuple[ByteArray, MaskArray]: ...
    def mask_array(self, seat: int) -> MaskArray: ...
    def render(self, agent_names: Sequence[str] | None = None) -> str: ...


@dataclass(frozen=True)
class GameTables:
    """One game's action table and observation layout (docs/rl.md)."""

    game: str
    num_actions: int
    obs_size: int
    obs_slices: tuple[tuple[str, int, int, str], ...]
    a_pass: int
    num_plays: int  # plays fill [0, num_plays), the same calling UNO the next num_plays
    a_uno: int
    a_catch: int  # + offset - 1: catch the seat that many places clockwise
    action_index: Callable[[int, int, Action], int]
    action_name: Callable[[int], str]
    encode_view: Callable[[View], ByteArray]
    rule_features: Callable[[RuleSet, int], list[int]]
    bounds: Callable[[], tuple[ByteArray, ByteArray]]
    network_scale: Callable[[], npt.NDArray[np.float32]]
    make_table: Callable[..., TableLike]

    def mask_of_view(self, view: View) -> MaskArray:
        """The action mask of ``view.seat`` from ``view.legal`` (the reference mask):
        multi-plays left out (no index), PASS for a live seat that is not to act."""
        m = np.zeros(self.num_actions, np.int8)
        for a in view.legal:
            i = self.action_index(view.seat, view.n, a)
            if i >= 0:
                m[i] = 1
        if view.phase < P_ROUND_OVER and view.current != view.seat and view.live[view.seat]:
            m[self.a_pass] = 1
        return m


def _modern(game: str, mod: ModuleType) -> GameTables:
    return GameTables(
        game=game,
        num_actions=mod.NUM_ACTIONS,
        obs_size=mod.OBS_SIZE,
        obs_slices=mod.OBS_SLICES,
        a_pass=mod.A_PASS,
        num_plays=mod.NUM_PLAYS,
        a_uno=mod.A_UNO,
        a_catch=mod.A_CATCH,
        action_index=mod.action_index,
        action_name=mod.action_name,
        encode_view=mod.encode_view,
        rule_features=mod.rule_features,
        bounds=mod.LAYOUT.bounds,
        network_scale=mod.LAYOUT.network_scale,
        make_table=lambda rules, n, **kw: ViewTable(rules, n, TABLES[game], **kw),
    )


TABLES: dict[str, GameTables] = {
    "classic": GameTables(
        game="classic",
        num_actions=spec.NUM_ACTIONS,
        obs_size=spec.OBS_SIZE,
        obs_slices=spec.OBS_SLICES,
        a_pass=spec.A_PASS,
        num_plays=spec.NUM_PLAYS,
        a_uno=spec.A_UNO,
        a_catch=spec.A_CATCH,
        action_index=spec.action_index,
        action_name=spec.action_name,
        encode_view=core.encode_view,
        rule_features=core.rule_features,
        bounds=core.observation_bounds,
        network_scale=core.network_scale,
        make_table=core.Table,
    ),
    "flip": _modern("flip", flip),
    "no-mercy": _modern("no-mercy", nomercy),
}


def tables_for(rules: RuleSet) -> GameTables:
    """The tables of the game ``rules`` play."""
    return TABLES[game_class(rules).NAME]


def make_table(rules: RuleSet, num_players: int, **kw: Any) -> TableLike:
    """The table that plays ``rules`` at ``num_players`` seats (``reward``, ``episode``)."""
    return tables_for(rules).make_table(rules, num_players, **kw)


class ViewTable:
    """One game of any unokit game, observed through views; ``core.Table``'s interface.

    Who decides next is the engine's ``seat_to_ask`` (out-of-turn chances first, each
    may PASS, then the seat to act), as for every other front end.
    """

    def __init__(
        self,
        rules: RuleSet,
        num_players: int,
        tables: GameTables,
        *,
        reward: str = "win",
        episode: str = "round",
    ) -> None:
        if not 2 <= num_players <= spec.MAX_SEATS:
            raise ValueError(f"num_players must be 2 to {spec.MAX_SEATS}, not {num_players}")
        rules.check_players(num_players)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, not {reward!r}")
        if episode not in EPISODE_MODES:
            raise ValueError(f"episode must be one of {EPISODE_MODES}, not {episode!r}")
        self.rules = rules
        self.n = num_players
        self.tables = tables
        self.reward_mode = reward
        self.episode = episode
        self.events = False
        self.record = False
        self.passed: set[int] = set()
        self.game: Game = new_game(rules, num_players, seed=0, events=False, record=False)
        # the legal actions last masked, by index, for one seat (-1: none)
        self._seat = -1
        self._by_index: dict[int, Action] = {}
        self._mask = np.zeros(tables.num_actions, np.int8)
        self._obs = np.zeros(tables.obs_size, np.uint8)

    # ---------------------------------------------------------------- lifecycle ----
    def new_game(self, seed: int) -> None:
        self.set_game(
            new_game(self.rules, self.n, seed=seed, events=self.events, record=self.record)
        )

    def set_game(self, game: Game) -> None:
        self.game = game
        self._changed()

    def next_round(self) -> None:
        self.game.start_round()
        self._changed()

    def _changed(self) -> None:
        self._seat = -1
        self.passed.clear()

    @property
    def round_over(self) -> bool:
        return self.game.phase >= P_ROUND_OVER

    # ---------------------------------------------------------------- deciding -----
    def select(self) -> int:
        """The seat that decides next; -1 once the round is over."""
        return seat_to_ask(self.game, self.passed, None)

    def _look(self, seat: int) -> None:
        if self._seat == seat:
            return
        view = view_of(self.game, seat)
        t = self.tables
        self._obs = t.encode_view(view)
        self._mask = t.mask_of_view(view)
        by: dict[int, Action] = {}
        for a in view.legal:
            i = t.action_index(seat, self.n, a)
            if i >= 0:
                by[i] = a
        self._by_index = by
        self._seat = seat

    def step(self, seat: int, index: int) -> int:
        """Apply table action ``index`` for ``seat``; IllegalTableAction if masked out.
        Returns the seat that decides next, -1 once the round is over."""
        self._look(seat)
        if not 0 <= index < self.tables.num_actions or not self._mask[index]:
            raise IllegalTableAction(f"action {index} is not allowed for seat {seat} now")
        if index == self.tables.a_pass:
            self.pass_(seat)
            return self.select()
        self.game.apply_trusted(seat, self._by_index[index])
        self._changed()
        return self.select()

    def apply(self, seat: int, action: Action) -> None:
        """Apply an engine action (a bot's), checked by the engine."""
        self.game.apply(seat, action)
        self._changed()

    def pass_(self, seat: int) -> None:
        self.passed.add(seat)
        self._seat = -1

    def round_rewards(self) -> list[float]:
        """Each seat's reward for the round just over (docs/rl.md): +1/-1 under
        ``reward="win"`` (and first-out scoring); under ``"score"`` each other seat loses
        what it hands the winner (``points_owed``: its hand's points; No Mercy's
        knocked-out seats 250) / 100 and the winner gains their sum (low scoring:
        everyone loses its own hand's points / 100)."""
        g = self.game
        n = self.n
        w = g.round_winner
        if w < 0:
            return [0.0] * n
        won = [s % 2 == w % 2 if g.teams else s == w for s in range(n)]
        scoring = self.rules.scoring
        if self.reward_mode == "win" or scoring == "first-out":
            return [1.0 if x else -1.0 for x in won]
        if scoring in ("low", "elimination"):
            return [-(g.hand_points(s) / 100) for s in range(n)]
        owed = [g.points_owed(s) / 100 for s in range(n)]
        gained = sum(owed[s] for s in range(n) if not won[s])
        return [gained if won[s] else -owed[s] for s in range(n)]

    # ------------------------------------------------------------- observation -----
    def observe(self, seat: int) -> ByteArray:
        return self.observe_with_mask(seat)[0]

    def observe_with_mask(self, seat: int) -> tuple[ByteArray, MaskArray]:
        """New arrays each call: callers may keep or change them."""
        self._look(seat)
        return self._obs.copy(), self._mask.copy()

    def mask_array(self, seat: int) -> MaskArray:
        self._look(seat)
        return self._mask.copy()

    def render(self, agent_names: Sequence[str] | None = None) -> str:
        """A text picture of the table for spectators (every hand shown), from views."""
        g = self.game
        pub = view_of(g, None)
        names = list(agent_names) if agent_names is not None else list(pub.names)
        color = pub.color_code(pub.color) if pub.color >= 0 else "-"  # type: ignore[attr-defined]
        top = pub.code(pub.top) if pub.discard else "-"  # type: ignore[attr-defined]
        lines = [
            f"round {pub.round_index} · {self.rules.describe()} · phase "
            f"{PHASE_NAMES[pub.phase]} · direction "
            f"{'clockwise' if pub.direction == 1 else 'counter-clockwise'}",
            f"top {top} · colour {color} · draw pile {pub.draw_pile} · scores {list(pub.scores)}",
        ]
        for s in range(self.n):
            mine = view_of(g, s)
            mark = ">" if s == pub.current and not pub.round_over else " "
            flags = []
            if not pub.live[s]:
                flags.append("out")
            if s == pub.vulnerable:
                flags.append("catchable")
            if s == pub.round_winner:
                flags.append("won the round")
            hand = " ".join(mine.code(c) for c in mine.hand)  # type: ignore[attr-defined]
            extra = f"  [{', '.join(flags)}]" if flags else ""
            lines.append(f"{mark} {names[s]} ({pub.hand_sizes[s]}): {hand}{extra}")
        return "\n".join(lines) + "\n"
