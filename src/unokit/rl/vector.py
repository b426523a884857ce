"""``unokit.rl.vector``: many UNO games in arrays, stepped by compiled code.

    from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv

    env = UnoVectorEnv(num_envs=1024, num_players=4, preset="party")   # self-play
    batch = env.reset(seed=0)           # batch.obs, batch.mask, batch.agent (the seat)
    batch = env.step(actions)           # + batch.rewards[N, players], terminated, truncated

    genv = UnoVectorGymEnv(num_envs=1024, num_players=2, opponents="heuristic")
    obs, info = genv.reset(seed=0)      # a Gymnasium VectorEnv: one learner per game
    obs, reward, terminated, truncated, info = genv.step(actions)

The AEC environment (``uno_v1``) steps one game in Python, about 5 µs a decision;
training wants millions.  Here ``num_envs`` games live in one ``int64`` array (the
compiled engine's state, ``unokit.compiled.kernel``, one row a game) and a batch of
actions is one numba call: the kernel's trusted moves, ``who_acts`` for whose decision
comes next (the engine's ``seat_to_ask``: the same single rule as every other loop),
and ``uno_v1``'s observation and mask tables of the game (``unokit.obs.tables``)
written by compiled code: classic UNO's kernel ``unokit.rl.vector_kernel``, UNO Flip!'s
``vector_flip_kernel``, No Mercy's ``vector_nm_kernel``, each plugged in as a
``VectorGame`` (``VECTOR_GAMES``).  A game whose episode ended starts the next one in
the same step (automatic reset), so every row always holds a decision to take.

Equal to the AEC environment: ``tests/test_rl_vector.py`` steps both with the same
deals and the same actions and compares every observation, mask, reward and end, for
every preset and 2-10 seats (``test_rl_vector_flip.py`` and ``test_rl_vector_nm.py``
likewise for the modern games' options).  The deals are the vector environment's own: its games
draw from the compiled engine's generator (SplitMix64, seeded from ``(seed, game
index)`` as in ``unokit sim --engine compiled``), so ``reset(seed=s)`` does *not*
deal what ``uno_v1.env().reset(seed=s)`` deals.  The test gives the AEC environment
the vector environment's deck, reshuffles and launcher presses through the record the
kernel writes (``record=True``), the way ``unokit sim --check`` replays compiled games.

Needs numba (``pip install 'unokit[fast]'``).  One round per episode; refused with
``VectorUnsupported`` (a ``ValueError``) naming the reason: a game without a vector
kernel, ``episode="game"``, a deal that leaves no start card, and
``opponents="heuristic"`` under rules its compiled player does not cover (stacking,
seven-zero, multi-play, the 112-card decks, UNO Flip! and No Mercy).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from unokit import compiled
from unokit.cards import build_deck, plain_deck
from unokit.engine import game_class
from unokit.obs.core import EPISODE_MODES, REWARD_MODES, IllegalTableAction
from unokit.obs.spec import MAX_SEATS
from unokit.obs.tables import tables_for
from unokit.rl.uno_v1 import make_rules
from unokit.rules import RuleSet

OPPONENTS = ("random", "heuristic")
# The decks the compiled engine was written for (unokit.compiled.kernel): any other game
# (a new deck in unokit.cards) is refused until the kernel learns it.
KERNEL_DECKS = ("classic", "mattel-2018-swap", "mattel-2018-shuffle", "my-first-uno")
OBSERVATION_MODES = ("dict", "array")
LOG_WORDS = 1 << 16  # a game's log under record=True (a round of random play: ~10,000),
# twice over (the episode so far, the last ended one): 1 MB a game
BOT_DECISIONS = 100_000  # as UnoGymEnv: opponents stuck in a forced loop end the episode

U8 = npt.NDArray[np.uint8]
I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


class VectorUnsupported(ValueError):
    """A configuration the vector environment does not play; the message says why."""


def _kernel(module: str = "unokit.rl.vector_kernel") -> ModuleType:
    """A game's compiled half (imports numba); ``VectorUnsupported`` without numba."""
    if not compiled.available():
        raise VectorUnsupported(
            "unokit.rl.vector runs compiled code and needs numba: pip install 'unokit[fast]'"
        )
    # the first reset and step on a machine compile for a minute or two: say so
    compiled.announce_compiling()
    return importlib.import_module(module)


class VectorGame:
    """One game's half of the vector environment: its compiled kernel module and the
    arrays it reads.  ``_Games`` and both interfaces are the same for every game; a
    kernel module offers the same entry points (``ma_reset``, ``ma_step``,
    ``sa_reset``, ``sa_step``, ``seed_all``, ``first_illegal``) and the same control
    and settings layout (``C_*``, ``V_*``), with its game's own ``scratch`` arrays
    passed between the games' arrays and the actions.  This one is classic UNO's.
    """

    kernel_module = "unokit.rl.vector_kernel"
    opponents: tuple[str, ...] = OPPONENTS

    def unsupported(self, rules: RuleSet, num_players: int, opponents: str | None) -> str | None:
        """Why the kernel cannot play this, or None (``opponents`` None: self-play)."""
        if rules.deck not in KERNEL_DECKS:
            return (
                f"deck={rules.deck!r}: the compiled engine plays the UNO decks only "
                f"({', '.join(KERNEL_DECKS)}); use unokit.rl.uno_v1"
            )
        why = compiled.unsupported(["random"] * num_players, rules)
        if why:
            return why
        if opponents == "heuristic" and not compiled.rollouts_cover(rules):
            named = []
            if rules.stacking != "off":
                named.append(f"stacking={rules.stacking}")
            if rules.seven_zero:
                named.append("seven_zero")
            if rules.multi_play:
                named.append("multi_play")
            if not plain_deck(rules.deck):
                named.append(f"deck={rules.deck}")
            return (
                f"opponents='heuristic' plays the plain classic path only; these rules have "
                f"{', '.join(named)}: use opponents='random', or UnoGymEnv's Python bots"
            )
        return None

    def arrays(
        self, rules: RuleSet, num_players: int
    ) -> tuple[I64, F64, int, tuple[npt.NDArray[Any], ...]]:
        """The rules array, the players array, a game state's size and the scratch."""
        from unokit.compiled import search

        k = compiled.load_kernel()
        R = compiled.rules_array(rules, num_players, rounds_only=True, reactive=False)
        P = compiled.players_array(["random"] * num_players)
        deck_col = search.deck_colours(build_deck(rules.deck, rules.custom_cards))
        buf, _lg, deck_col, cnt, unseen, sc = search.rollout_scratch(deck_col)
        return R, P, int(k.STATE_SIZE), (buf, deck_col, cnt, unseen, sc)

    def record(self, rules: RuleSet, num_players: int, log: I64) -> dict[str, Any]:
        return compiled.record_from_log(rules, num_players, log)


# Each game's half, by game name (module, attribute): imported when a game is played.
VECTOR_GAMES: dict[str, tuple[str, str]] = {
    "classic": ("unokit.rl.vector", "CLASSIC"),
    "flip": ("unokit.rl.vector_flip", "FLIP"),
    "no-mercy": ("unokit.rl.vector_nm", "NOMERCY"),
}
CLASSIC = VectorGame()


def vector_game(rules: RuleSet) -> VectorGame | None:
    """The vector half of the game ``rules`` play, or None if it has none."""
    where = VECTOR_GAMES.get(game_class(rules).NAME)
    if where is None:
        return None
    game: VectorGame = getattr(importlib.import_module(where[0]), where[1])
    return game


def unsupported(
    rules: RuleSet, num_players: int, episode: str, opponents: str | None
) -> str | None:
    """Why the vector environment cannot play this, or None if it can.

    ``opponents`` None: every seat is a learner (``UnoVectorEnv``).  Multi-play needs no
    refusal: the tables offer single-card plays only (docs/rl.md), and so do the
    compiled opponents.
    """
    game = vector_game(rules)
    if game is None:
        return (
            f"deck={rules.deck!r}: the vector environment has no compiled kernel for "
            f"{game_class(rules).NAME!r} yet; use unokit.rl.uno_v1"
        )
    if episode != "round":
        return (
            f"episode={episode!r}: the vector environment plays one round per episode "
            "(use unokit.rl.uno_v1 for whole games)"
        )
    if opponents is not None and opponents not in game.opponents:
        return (
            f"opponents={opponents!r}: the compiled opponents of {game_class(rules).NAME!r} "
            f"are {', '.join(map(repr, game.opponents))}; or use UnoGymEnv's Python bots"
        )
    return game.unsupported(rules, num_players, opponents)


class Batch(NamedTuple):
    """One step of every game (``UnoVectorEnv``); all arrays are new on every call."""

    obs: U8  # (num_envs, obs size): the observation of the seat to decide next
    mask: I8  # (num_envs, number of actions): its legal actions
    agent: I64  # (num_envs,): that seat
    rewards: F64  # (num_envs, num_players): every seat's reward for what just ended
    terminated: Bools  # (num_envs,): the round ended at this step (then reset)
    truncated: Bools  # (num_envs,): max_steps reached at this step (then reset)


class _Games:
    """The arrays of ``num_envs`` games and the settings both interfaces share."""

    def __init__(
        self,
        num_envs: int,
        num_players: int,
        rules: RuleSet,
        *,
        reward: str,
        episode: str,
        max_steps: int | None,
        record: bool,
        opponents: str | None,
        seat: int | None,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if not 2 <= num_players <= MAX_SEATS:
            raise ValueError(f"num_players must be 2 to {MAX_SEATS}, not {num_players}")
        rules.check_players(num_players)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, not {reward!r}")
        if episode not in EPISODE_MODES:
            raise ValueError(f"episode must be one of {EPISODE_MODES}, not {episode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1, or None")
        why = unsupported(rules, num_players, episode, opponents)
        if why:
            raise VectorUnsupported(why)
        game = vector_game(rules)
        assert game is not None  # unsupported() said so otherwise
        self.game = game
        self.vk = vk = _kernel(game.kernel_module)
        self.tables = tables = tables_for(rules)
        self.rules = rules
        self.num_envs = num_envs
        self.num_players = n = num_players
        self.R, self.P, state_size, self.scratch = game.arrays(rules, n)
        self.buf = self.scratch[0]
        feats = tables.rule_features(rules, n)
        v = np.zeros(vk.V_FEATS + len(feats), dtype=np.int64)
        v[vk.V_MAXSTEPS] = max_steps or 0
        v[vk.V_REWARD] = REWARD_MODES.index(reward)
        v[vk.V_OPPONENT] = game.opponents.index(opponents) if opponents else 0
        v[vk.V_SEAT] = -1 if seat is None else seat
        v[vk.V_BOTDEC] = BOT_DECISIONS
        v[vk.V_FEATS :] = feats
        self.V = v
        self.ST = np.zeros((num_envs, state_size), dtype=np.int64)
        self.CT = np.zeros((num_envs, vk.C_SIZE), dtype=np.int64)
        self.recording = record
        words = LOG_WORDS if record else 1
        self.LG = np.zeros((num_envs, words), dtype=np.int64)
        self.LAST = np.zeros((num_envs, words + 1), dtype=np.int64)
        if record:
            self.ST[:, vk.S_LOGON] = 1
        self.obs_size = tables.obs_size
        self.num_actions = tables.num_actions
        self.mask = np.zeros((num_envs, tables.num_actions), dtype=np.int8)  # the current masks
        self.seeded = False

    def seed(self, seed: int | Sequence[int] | None) -> None:
        """Game ``i``'s generator from ``(seed, i)``; a list seeds each game alone
        (``(seed[i], 0)``); None keeps the generators going (a fresh entropy seed the
        first time)."""
        if seed is None:
            if self.seeded:
                return
            seed = int(np.random.SeedSequence().entropy) % 2**63  # type: ignore[arg-type]
        if isinstance(seed, int | np.integer):
            self.vk.seed_all(self.ST, compiled.base_seed(int(seed)))
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give {self.num_envs} seeds (one per game), not {len(seeds)}")
            for i, s in enumerate(seeds):
                self.vk.seed_all(self.ST[i : i + 1], compiled.base_seed(int(s)))
        self.seeded = True

    def check(self, actions: Any) -> I64:
        """The actions as int64, or ``IllegalTableAction`` naming the first game whose
        mask does not allow its action (nothing is applied then)."""
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        if a.shape[0] != self.num_envs:
            raise ValueError(f"give {self.num_envs} actions (one per game), not {a.shape[0]}")
        bad = self.vk.first_illegal(self.mask, a)
        if bad >= 0:
            x = int(a[bad])
            name = self.tables.action_name(x) if 0 <= x < self.num_actions else "no such action"
            raise IllegalTableAction(
                f"game {bad}: action {x} ({name}) is not allowed for seat "
                f"{int(self.CT[bad, self.vk.C_AGENT])} now; nothing was applied"
            )
        return a

    def _record(self, log: I64) -> dict[str, Any]:
        return self.game.record(self.rules, self.num_players, log)

    def record(self, i: int) -> dict[str, Any]:
        """The record (RECORD.md) of game ``i``'s episode so far (``record=True``)."""
        self._need_record()
        if self.ST[i, self.vk.S_LOGOVF]:
            raise RuntimeError(f"game {i}'s log ran out of room ({LOG_WORDS} words)")
        return self._record(self.LG[i, : self.ST[i, self.vk.S_LOGPOS]])

    def last_record(self, i: int) -> dict[str, Any]:
        """The record of game ``i``'s last ended episode (``record=True``)."""
        self._need_record()
        k = int(self.LAST[i, 0])
        if k < 0:
            raise RuntimeError(f"game {i}'s last log ran out of room ({LOG_WORDS} words)")
        return self._record(self.LAST[i, 1 : 1 + k])

    def _need_record(self) -> None:
        if not self.recording:
            raise RuntimeError("records need record=True")

    def episodes(self) -> int:
        """Episodes ended so far, over every game."""
        return int(self.CT[:, self.vk.C_EPISODES].sum())


class UnoVectorEnv:
    """``num_envs`` games in which every seat is the learner (self-play): each step,
    every game's seat to decide takes one action.

    The same decisions as ``uno_v1``'s AEC loop, in the same order: out-of-turn chances
    (a catch, a late UNO call, a jump-in) one seat at a time with PASS, then the seat
    to act.  ``step`` returns a ``Batch``; ``rewards[i]`` holds every seat's reward when
    game ``i``'s round ended at this step (``terminated[i]``), zeros otherwise, and
    ``obs[i]`` is then already the new episode's first decision.  ``max_steps``
    truncates an episode after that many decisions (set it for deterministic policies,
    docs/rl.md).  ``record=True`` keeps each game's log for ``record(i)`` and
    ``last_record(i)`` (for tests and bug reports: 1 MB a game).
    """

    def __init__(
        self,
        num_envs: int = 1,
        num_players: int = 2,
        preset: str = "classic",
        options: Mapping[str, Any] | None = None,
        *,
        rules: RuleSet | None = None,
        reward: str = "win",
        episode: str = "round",
        max_steps: int | None = None,
        record: bool = False,
    ) -> None:
        self.games = _Games(
            num_envs,
            num_players,
            make_rules(preset, options, rules),
            reward=reward,
            episode=episode,
            max_steps=max_steps,
            record=record,
            opponents=None,
            seat=None,
        )
        self.num_envs = num_envs
        self.num_players = num_players
        self.rules = self.games.rules
        self._started = False

    def reset(self, seed: int | Sequence[int] | None = None) -> Batch:
        """A new episode in every game; ``seed`` as ``_Games.seed``."""
        g = self.games
        g.seed(seed)
        n = self.num_envs
        obs = np.empty((n, g.obs_size), dtype=np.uint8)
        mask = np.empty((n, g.num_actions), dtype=np.int8)
        g.vk.ma_reset(g.ST, g.CT, g.R, g.V, g.LG, g.buf, obs, mask)
        g.mask = mask
        self._started = True
        zeros = np.zeros(n, dtype=np.bool_)
        return Batch(
            obs,
            mask,
            g.CT[:, g.vk.C_AGENT].copy(),
            np.zeros((n, self.num_players)),
            zeros,
            zeros.copy(),
        )

    def step(self, actions: Any) -> Batch:
        """Every game's selected seat takes ``actions[i]`` (an index of the table);
        ``IllegalTableAction`` if a mask forbids one, and then no game moves."""
        if not self._started:
            raise RuntimeError("step() before reset()")
        g = self.games
        a = g.check(actions)
        n = self.num_envs
        obs = np.empty((n, g.obs_size), dtype=np.uint8)
        mask = np.empty((n, g.num_actions), dtype=np.int8)
        rew = np.empty((n, self.num_players))
        term = np.empty(n, dtype=np.bool_)
        trunc = np.empty(n, dtype=np.bool_)
        g.vk.ma_step(g.ST, g.CT, g.R, g.V, g.LG, g.LAST, g.buf, a, obs, mask, rew, term, trunc)
        g.mask = mask
        return Batch(obs, mask, g.CT[:, g.vk.C_AGENT].copy(), rew, term, trunc)

    def record(self, i: int) -> dict[str, Any]:
        return self.games.record(i)

    def last_record(self, i: int) -> dict[str, Any]:
        return self.games.last_record(i)


class ActionSampler:
    """Uniformly random allowed actions for every row of a mask, in compiled code: a
    random baseline's policy, and the benchmark's.  One generator per row (SplitMix64,
    as the games'), kept between calls, so a call allocates only its result."""

    def __init__(self, num_envs: int, seed: int | None = None) -> None:
        self.vk = _kernel()
        rng = np.random.default_rng(seed)
        self.seeds = np.zeros((num_envs, 21), dtype=np.int64)  # a state's S_RNG slot
        self.seeds[:, 20] = rng.integers(-(2**63), 2**63 - 1, size=num_envs, dtype=np.int64)

    def __call__(self, mask: npt.NDArray[Any]) -> I64:
        m = np.ascontiguousarray(mask, dtype=np.int8)
        out = np.empty(m.shape[0], dtype=np.int64)
        self.vk.sample_masked(m, self.seeds[: m.shape[0]], out)
        return out


def sample_actions(mask: npt.NDArray[Any], rng: np.random.Generator) -> I64:
    """A uniformly random allowed action for each row of ``mask`` (``ActionSampler``
    seeded from ``rng``, for one call)."""
    return ActionSampler(len(mask), int(rng.integers(2**63)))(mask)


class UnoVectorGymEnv(VectorEnv[Any, Any, Any]):
    """A Gymnasium ``VectorEnv``: ``num_envs`` games, one learning seat in each, the
    other seats played by compiled opponents.

    ``opponents``: ``"random"`` (the simulator's fast random player: a random playable
    card, else a draw; a playable drawn card is played; a random colour and target;
    UNO called with the play, or after a card that may change its hand when next
    asked; a Wild Draw Four challenged half the time; any catchable seat caught) or
    ``"heuristic"`` (``HeuristicBot``'s plays, exactly, through the compiled
    ``heur_choose``, with the search rollouts' rules for the rest: the drawn card
    played, the colour held most, its own challenge rule, every catch; classic rules
    only).  ``seat``: the learner's seat, None for a random one each episode
    (``info["seat"]``).  The learner is asked exactly when ``uno_v1`` would select it,
    out-of-turn chances (with PASS) included, as in ``UnoGymEnv``.

    Automatic reset in the same step (``AutoresetMode.SAME_STEP``): where an episode
    ended, the returned observation is the next episode's, and ``info["final_obs"]``
    (with ``info["_final_obs"]``) holds the ended one's last; ``info["round_winner"]``
    its winner (-1: not ended or truncated), ``info["stalled"]`` opponents stuck in a
    loop the rules force (truncated).  ``max_steps`` counts the learner's decisions.
    ``action_masks()`` serves MaskablePPO-style code; with ``observation="dict"`` the
    mask is also in the observation.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        num_players: int = 2,
        preset: str = "classic",
        options: Mapping[str, Any] | None = None,
        *,
        rules: RuleSet | None = None,
        seat: int | None = 0,
        opponents: str = "random",
        reward: str = "win",
        episode: str = "round",
        observation: str = "dict",
        max_steps: int | None = None,
        record: bool = False,
    ) -> None:
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {OPPONENTS}, not {opponents!r}")
        if observation not in OBSERVATION_MODES:
            raise ValueError(f"observation must be one of {OBSERVATION_MODES}")
        if seat is not None and not 0 <= seat < num_players:
            raise ValueError(f"seat must be 0 to {num_players - 1} or None, not {seat}")
        self.games = _Games(
            num_envs,
            num_players,
            make_rules(preset, options, rules),
            reward=reward,
            episode=episode,
            max_steps=max_steps,
            record=record,
            opponents=opponents,
            seat=seat,
        )
        self.num_envs = num_envs
        self.num_players = num_players
        self.observation_mode = observation
        tables = self.games.tables
        low, high = tables.bounds()
        box = spaces.Box(low=low, high=high, dtype=np.uint8)
        single: spaces.Space[Any]
        if observation == "dict":
            single = spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(0, 1, shape=(tables.num_actions,), dtype=np.int8),
                }
            )
        else:
            single = box
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(tables.num_actions)
        self.observation_space = batch_space(single, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._started = False

    def _obs(self, obs: U8, mask: I8) -> Any:
        if self.observation_mode == "dict":
            return {"observation": obs, "action_mask": mask}
        return obs

    @property
    def seats(self) -> I64:
        """Each game's learner seat in the current episode."""
        return self.games.CT[:, self.games.vk.C_SEAT].copy()

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        g = self.games
        g.seed(seed)
        n = self.num_envs
        obs = np.empty((n, g.obs_size), dtype=np.uint8)
        mask = np.empty((n, g.num_actions), dtype=np.int8)
        g.vk.sa_reset(g.ST, g.CT, g.R, g.V, g.P, g.LG, *g.scratch, obs, mask)
        g.mask = mask
        self._started = True
        return self._obs(obs, mask), {"seat": self.seats}

    def step(self, actions: Any) -> tuple[Any, F64, Bools, Bools, dict[str, Any]]:
        """The learners' actions (``IllegalTableAction`` if a mask forbids one: no game
        moves then), the opponents until each learner decides again."""
        if not self._started:
            raise RuntimeError("step() before reset()")
        g = self.games
        a = g.check(actions)
        n = self.num_envs
        obs = np.empty((n, g.obs_size), dtype=np.uint8)
        mask = np.empty((n, g.num_actions), dtype=np.int8)
        rew = np.empty(n)
        term = np.empty(n, dtype=np.bool_)
        trunc = np.empty(n, dtype=np.bool_)
        stall = np.empty(n, dtype=np.bool_)
        final = np.empty((n, g.obs_size), dtype=np.uint8)
        fmask = np.empty((n, g.num_actions), dtype=np.int8)
        winner = np.empty(n, dtype=np.int64)
        g.vk.sa_step(g.ST, g.CT, g.R, g.V, g.P, g.LG, g.LAST, *g.scratch, a, obs, mask, rew,
                     term, trunc, stall, final, fmask, winner)  # fmt: skip
        g.mask = mask
        info: dict[str, Any] = {"seat": self.seats}
        ended = term | trunc
        if ended.any():
            info["final_obs"] = self._obs(final, fmask)
            info["_final_obs"] = ended
            info["round_winner"] = winner
            info["stalled"] = stall
        return self._obs(obs, mask), rew, term, trunc, info

    def action_masks(self) -> Bools:
        """Every game's legal actions now, as booleans (num_envs, the table's size)."""
        return self.games.mask.astype(bool)

    def record(self, i: int) -> dict[str, Any]:
        return self.games.record(i)

    def last_record(self, i: int) -> dict[str, Any]:
        return self.games.last_record(i)

    def close_extras(self, **kwargs: Any) -> None:
        pass


__all__ = [
    "KERNEL_DECKS",
    "OPPONENTS",
    "VECTOR_GAMES",
    "ActionSampler",
    "Batch",
    "UnoVectorEnv",
    "UnoVectorGymEnv",
    "VectorGame",
    "VectorUnsupported",
    "sample_actions",
    "unsupported",
    "vector_game",
]
