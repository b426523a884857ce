"""The compiled engine: the simulator's games and the search bot's rollouts in numba.

The compiled engine (``kernel``) is a port of the reference engine
(``unokit.engine.game``) together with the simulation's fast players (``random``,
``careless``, ``reference``).  It plays different random streams from the reference
driver, so single games differ, but every game it plays can be written as a record
(RECORD.md) and replayed through the reference engine: ``check_game`` does that and
demands the identical final state, and ``--check N`` does it for every N-th game of a
run.  The statistics of both engines agree within their intervals
(``tests/test_compiled.py``).

numba is an optional extra (``pip install 'unokit[fast]'``); without it every entry
point raises ``SimError`` with one line saying how to install it.  A configuration the
compiled engine does not cover (bots that need views) is refused, naming the
reference engine, never simulated wrongly.

``unokit sim --engine compiled`` runs it, and ``ISMCTSBot`` searches with it
(``search``).  It sits below both: it imports neither ``unokit.sim`` nor
``unokit.bots``, only the engine, the rules and ``unokit.simbase``; a simulation's
configuration reaches it as any value with a ``SimConfig``'s fields (``Config``).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from unokit import simbase
from unokit.cards import CARD_CODE, COLOR_CODES, build_deck, plain_deck, points_table
from unokit.compiled.common import base_seed, hist, players_array
from unokit.engine.actions import PLAY, Action
from unokit.rules import CUSTOM_RULES, DEFAULT_LAUNCHER_WEIGHTS, SCORINGS, RuleSet, game_of_deck
from unokit.simbase import FAST_PLAYERS, SimError, Tally

INSTALL_HINT = (
    "the compiled engine needs numba, an optional extra: pip install 'unokit[fast]' "
    "(or run the reference engine: --engine python)"
)
STACKINGS = ("off", "pass", "progressive")


class Config(Protocol):
    """What the compiled engine reads of a simulation (``unokit.sim.SimConfig``)."""

    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int: ...
    @property
    def rounds_only(self) -> bool: ...
    @property
    def dealer(self) -> int | None: ...
    @property
    def check(self) -> int: ...
    @property
    def players(self) -> int: ...
    def rules(self) -> RuleSet: ...


def available() -> bool:
    """Whether numba can be imported (the compiled engine can run)."""
    try:
        importlib.import_module("numba")
    except ImportError:
        return False
    return True


# ------------------------------------------------------------------ compiling ------
# numba compiles the engine the first time it runs on a machine (a minute or two of CPU,
# measured in docs/benchmarks.md) and keeps the result in its cache (``__pycache__``
# beside the sources, or ``NUMBA_CACHE_DIR``); later runs load it in about a second.
# Without a word, a first run looked hung, and its speed counted the compilation.
COMPILE_NOTICE = (
    "unokit: compiling the compiled engine for this machine, once (about a minute; "
    "numba keeps it in its cache for later runs)"
)


class _CompileWatch:
    """Listens to numba's compile events: says ``COMPILE_NOTICE`` on stderr at the first
    one of the process and adds up the seconds spent compiling.

    A compilation happens only when numba's cache has no copy (loading one is not an
    event), so a warm cache prints nothing.  Nested events (the callees an entry point
    compiles) count once, in the outermost; numba compiles under one global lock, so
    the events come one at a time.
    """

    def __init__(self) -> None:
        self.said = False
        self.depth = 0
        self.start = 0.0
        self.seconds = 0.0

    def on_start(self) -> None:
        if self.depth == 0:
            self.start = time.perf_counter()
            if not self.said:
                self.said = True
                print(COMPILE_NOTICE, file=sys.stderr, flush=True)
        self.depth += 1

    def on_end(self) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.perf_counter() - self.start


_watch: _CompileWatch | None = None


def announce_compiling() -> None:
    """From now on in this process, say on stderr when compiled code starts compiling.

    Called by the front ends that run compiled code for a user who waits on it (``unokit
    sim --engine compiled``, the RL vector environments), not by the library as a whole:
    a search bot warms up in the background of ``unokit play``, whose screen a line on
    stderr would break.  Idempotent; nothing without numba.
    """
    global _watch
    if _watch is not None or not available():
        return
    from numba.core import event

    watch = _CompileWatch()

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            watch.on_start()

        def on_end(self, ev: Any) -> None:
            watch.on_end()

    event.register("numba:compile", Listener())  # type: ignore[no-untyped-call]
    _watch = watch


def compile_seconds() -> float:
    """Seconds this process has spent compiling since ``announce_compiling`` (not loading
    from the cache)."""
    return _watch.seconds if _watch is not None else 0.0


def load_kernel() -> ModuleType:
    """The compiled kernel module; ``SimError`` with the install line without numba."""
    try:
        return importlib.import_module("unokit.compiled.kernel")
    except ImportError as e:
        if "numba" in str(e) or "llvmlite" in str(e):
            raise SimError(INSTALL_HINT) from None
        raise


def unsupported(seats: Sequence[str], rules: RuleSet) -> str | None:
    """Why the compiled engine cannot run this configuration, or None if it can.

    Every rule of RULES.md is covered for the fast players (they never jump in nor
    play several cards at once, so ``jump_in`` and ``multi_play`` change nothing for
    them, exactly as on the reference engine).  Bots decide from views and run only on
    the reference engine.
    """
    others = [s for s in seats if s not in FAST_PLAYERS]
    if others:
        names = ", ".join(sorted(set(others)))
        return (
            f"the compiled engine plays only the fast players "
            f"({', '.join(FAST_PLAYERS)}); {names} decide from views and run on the "
            "reference engine: drop --engine compiled (or use --engine python)"
        )
    twin = _twin(game_of_deck(rules.deck))
    if twin is not None:
        why: str | None = twin.unsupported(rules)
        return why
    if len(seats) * rules.deal_size >= len(build_deck(rules.deck, rules.custom_cards)):
        # the reference engine refuses these too (unokit.engine.game.Game), in these words
        return f"{len(seats)} hands of {rules.deal_size} leave no card to start the round"
    return None


# The compiled twins of the modern games, by the game's registry name (a declaration,
# as ``games`` is for a component that plays some games): each module has the same
# functions (unsupported, rules_array, run_chunk, play_logged, record, state_json,
# warm).  Classic UNO's kernel is driven by this module itself.
TWINS: dict[str, str] = {"flip": "unokit.compiled.flip", "no-mercy": "unokit.compiled.nomercy"}


def _twin(game: str) -> ModuleType | None:
    """The compiled twin of ``game``; None for classic UNO."""
    name = TWINS.get(game)
    return importlib.import_module(name) if name else None


# ------------------------------------------------------------------ arrays ---------
def rules_array(rules: RuleSet, players: int, rounds_only: bool, reactive: bool) -> np.ndarray:
    """The flat rules array the kernel reads (``kernel.R_*``)."""
    k = load_kernel()
    deck = build_deck(rules.deck, rules.custom_cards)
    weights = rules.launcher_weights or DEFAULT_LAUNCHER_WEIGHTS
    r = np.zeros(k.RULES_SIZE, dtype=np.int64)
    r[k.R_N] = players
    r[k.R_DECKSIZE] = len(deck)
    r[k.R_HAND] = rules.deal_size
    r[k.R_TARGET] = rules.target_score
    r[k.R_SCORING] = SCORINGS.index(rules.scoring)
    r[k.R_UNOPEN] = rules.uno_penalty
    r[k.R_FALSEPEN] = rules.false_uno_penalty
    r[k.R_BLUFF] = int(rules.wd4_bluffing)
    r[k.R_RETRACT] = int(rules.wd4_guilty == "retract")
    r[k.R_UNTIL] = int(rules.draw_until_playable)
    r[k.R_FORCE] = int(rules.force_play_drawn)
    r[k.R_STACK] = STACKINGS.index(rules.stacking)
    r[k.R_S4ON2] = int(rules.stack_draw4_on_draw2)
    r[k.R_SEVENZERO] = int(rules.seven_zero)
    r[k.R_CUSTOM] = CUSTOM_RULES.index(rules.custom_rule)
    r[k.R_LAUNCHER] = int(rules.attack_launcher)
    r[k.R_NUMSTART] = int(rules.numbers_start)
    r[k.R_ROUNDS_ONLY] = int(rounds_only)
    r[k.R_REACTIVE] = int(reactive)
    r[k.R_WSUM] = sum(weights)
    r[k.R_MAXDEC] = simbase.MAX_DECISIONS  # read now: tests lower it
    r[k.R_JUMPIN] = int(rules.jump_in)
    r[k.O_WEIGHTS : k.O_WEIGHTS + 13] = weights
    r[k.O_POINTS : k.O_POINTS + 57] = points_table(rules.wild_points)
    r[k.O_DECK : k.O_DECK + len(deck)] = deck
    return r


@dataclass(frozen=True)
class Setup:
    """What every game of a configuration shares, as the kernel's arrays."""

    rules: RuleSet
    R: np.ndarray
    P: np.ndarray
    base: np.uint64
    dealer: int
    game: str = "classic"  # which kernel plays it: classic (kernel), flip, no-mercy (nm_kernel)

    @classmethod
    def of(cls, cfg: Config) -> Setup:
        rules = cfg.rules()
        why = unsupported(cfg.seats, rules)
        if why:
            raise SimError(why)
        game = game_of_deck(rules.deck)
        twin = _twin(game)
        if twin is not None:
            R = twin.rules_array(rules, cfg.players, cfg.rounds_only)
        else:
            reactive = any(s == "careless" for s in cfg.seats)
            R = rules_array(rules, cfg.players, cfg.rounds_only, reactive)
        return cls(
            rules,
            R,
            players_array(cfg.seats),
            base_seed(cfg.seed),
            -1 if cfg.dealer is None else cfg.dealer,
            game,
        )


# ------------------------------------------------------------------ simulation -----
def run_chunk(cfg: Config, start: int, size: int) -> Tally:
    """Games ``start`` .. ``start + size - 1`` on the compiled engine, as a ``Tally``.

    With ``cfg.check`` every game whose index is a multiple of it is also replayed
    through the reference engine (``check_game``), which must agree.
    """
    k = load_kernel()
    setup = Setup.of(cfg)
    if cfg.check:
        for index in range(start, start + size):
            if index % cfg.check == 0:
                check_game(cfg, index, setup)
    twin = _twin(setup.game)
    if twin is not None:
        modern: Tally = twin.run_chunk(
            setup.R, setup.P, setup.base, setup.dealer, cfg.players, start, size
        )
        return modern
    games, rounds, pc, sq, nr = k.run_games(setup.R, setup.P, setup.base, start, size, setup.dealer)
    n = cfg.players
    ok = games[:, k.G_STALLED] == 0
    good = games[ok]
    tally = Tally(n)
    tally.games = int(ok.sum())
    tally.stalled = int(size - tally.games)
    tally.rounds = int(good[:, k.G_ROUNDS].sum())
    tally.wins_by_seat = np.bincount(good[:, k.G_WINNER], minlength=n).tolist()
    tally.wins_by_position = np.bincount(good[:, k.G_POS], minlength=n).tolist()
    tally.turns = hist(good[:, k.G_TURNS])
    tally.rounds_per_game = hist(good[:, k.G_ROUNDS])
    tally.round_turns = hist(rounds[:nr, 0])
    tally.round_points = hist(rounds[:nr, 1])
    tally.plays_by_card = [int(x) for x in pc]
    tally.type_sq = [int(x) for x in sq]
    tally.draw_turns = int(good[:, k.G_DRAWTURNS].sum())
    tally.reshuffles = hist(good[:, k.G_RESH])
    tally.challenges = hist(good[:, k.G_CHAL])
    tally.challenges_won = int(good[:, k.G_CHALWON].sum())
    tally.catches = hist(good[:, k.G_CATCH])
    return tally


def warm(check: bool, games: Sequence[str] = ("classic",)) -> None:
    """Compile, or load from numba's cache, what a simulation of ``games`` runs:
    ``run_games`` and, for ``--check``, ``play_game_entry``, by playing one two-player
    game of each.

    The simulator calls it in the parent before any worker starts (one compilation
    instead of one per worker, written to the cache that the workers then load) and in
    every worker before its first chunk, so that no chunk's CPU time, the speed the
    report gives, counts compiling or loading.
    """
    k = load_kernel()
    for game in games:
        twin = _twin(game)
        if twin is not None:
            twin.warm(check)
    if "classic" not in games:
        return
    R = rules_array(RuleSet(), 2, rounds_only=True, reactive=False)
    P = players_array(["random", "random"])
    k.run_games(R, P, base_seed(0), 0, 1, -1)
    if check:
        st = np.zeros(k.STATE_SIZE, dtype=np.int64)
        i64 = np.int64
        k.play_game_entry(st, R, P, base_seed(0), 0, -1, np.zeros(k.G_SIZE, dtype=i64),
                          np.zeros(57, dtype=i64), np.zeros(18, dtype=i64),
                          np.zeros((1, 2), dtype=i64), np.zeros(1, dtype=i64))  # fmt: skip


def prepare(check: bool, games: Sequence[str] = ("classic",)) -> float:
    """``warm`` in a process that a user waits on: a line on stderr before compiling and
    one after with the time; returns the seconds spent compiling (0.0 from the cache)."""
    announce_compiling()
    before = compile_seconds()
    warm(check, games)
    spent = compile_seconds() - before
    if spent > 0:
        print(
            f"unokit: compiled in {spent:.0f} s (not counted in the speed; later runs load "
            "it from numba's cache)",
            file=sys.stderr,
            flush=True,
        )
    return spent


# ------------------------------------------------------------------ records --------
@dataclass
class PlayedGame:
    """One compiled game with its log: its record and its final state."""

    record: dict[str, Any]
    state: dict[str, Any]
    stalled: bool


def play_logged(cfg: Config, index: int, setup: Setup | None = None) -> PlayedGame:
    """Play game ``index`` of ``cfg`` on the compiled engine, writing its record.

    The same game as in a run (``run_chunk``): the kernel seeds it from the index.
    """
    k = load_kernel()
    setup = setup or Setup.of(cfg)
    twin = _twin(setup.game)
    if twin is not None:
        st, log, stalled = twin.play_logged(setup.R, setup.P, setup.base, setup.dealer, index)
        return PlayedGame(
            twin.record(setup.rules, cfg.players, log), twin.state_json(st, setup.rules), stalled
        )
    size = 1 << 16
    while True:
        st = np.zeros(k.STATE_SIZE, dtype=np.int64)
        st[k.S_LOGON] = 1
        lg = np.zeros(size, dtype=np.int64)
        cnt = np.zeros(k.G_SIZE, dtype=np.int64)
        pc = np.zeros(57, dtype=np.int64)
        tc = np.zeros(18, dtype=np.int64)
        rounds = np.zeros((1, 2), dtype=np.int64)
        k.play_game_entry(st, setup.R, setup.P, setup.base, index, setup.dealer, cnt, pc, tc,
                          rounds, lg)  # fmt: skip
        if not st[k.S_LOGOVF]:
            break
        size *= 4  # the log overflowed: the same game again, with more room
    record = _record(setup.rules, cfg.players, lg[: st[k.S_LOGPOS]])
    return PlayedGame(record, state_json(st, setup.rules), bool(cnt[k.G_STALLED]))


def _codes(cards: Any) -> list[str]:
    return [CARD_CODE[int(c)] for c in cards]


def _record(rules: RuleSet, players: int, log: np.ndarray) -> dict[str, Any]:
    """RECORD.md's JSON from the kernel's log (``kernel`` docstring: the tags)."""
    rounds: list[dict[str, Any]] = []
    cur: dict[str, Any] = {}
    pos = 0
    words = log.tolist()
    while pos < len(words):
        tag = words[pos]
        if tag == 4:
            dealer, m = words[pos + 1], words[pos + 2]
            cur = {"dealer": dealer, "deck": _codes(words[pos + 3 : pos + 3 + m]), "seed": 0,
                   "shuffles": [], "launches": [], "actions": []}  # fmt: skip
            rounds.append(cur)
            pos += 3 + m
        elif tag == 1:
            seat, kind, card, color, target, uno = words[pos + 1 : pos + 7]
            if kind == PLAY:
                action = Action(PLAY, card, color, target, bool(uno))
            else:
                action = Action(kind, card, color, target)
            cur["actions"].append(action.to_json(seat))
            pos += 7
        elif tag == 2:
            m = words[pos + 1]
            cur["shuffles"].append(_codes(words[pos + 2 : pos + 2 + m]))
            pos += 2 + m
        elif tag == 3:
            cur["launches"].append(words[pos + 1])
            pos += 2
        else:  # pragma: no cover - the kernel writes only these tags
            raise SimError(f"corrupt compiled-engine log: tag {tag} at {pos}")
    for r in rounds:
        for key in ("shuffles", "launches"):
            if not r[key]:
                del r[key]
    return {
        "format": "uno-record/1",
        "rules": rules.to_spec(),
        "players": [f"Player {i}" for i in range(players)],
        "rounds": rounds,
    }


def record_from_log(rules: RuleSet, players: int, log: np.ndarray) -> dict[str, Any]:
    """RECORD.md's JSON of a game the kernel logged (``st[S_LOGON]``), for callers that
    run the kernel's moves themselves (``unokit.rl.vector``) and replay them elsewhere."""
    return _record(rules, players, log)


def state_json(st: np.ndarray, rules: RuleSet) -> dict[str, Any]:
    """The compiled state as ``Game.state_json`` shows it."""
    k = load_kernel()
    n = int(st[k.S_N])
    hands = []
    for s in range(n):
        base = k.O_HANDS + s * k.HCAP
        hands.append(_codes(st[base : base + st[k.O_HS + s]]))
    nd = int(st[k.S_NDISC])
    color = int(st[k.S_COLOR])
    phase = int(st[k.S_PHASE])
    rw = int(st[k.S_RWIN])
    gw = int(st[k.S_GWIN])
    scores = st[k.O_SCORES : k.O_SCORES + (2 if rules.scoring == "teams" else n)]
    return {
        "hands": hands,
        "top": CARD_CODE[int(st[k.O_DISC + nd - 1])] if nd else None,
        "color": COLOR_CODES[color] if color >= 0 else None,
        "current": int(st[k.S_CUR]),
        "direction": int(st[k.S_DIR]),
        "draw_pile": int(st[k.S_NPILE]),
        "discard_pile": nd,
        "round_over": phase >= k.P_ROUND_OVER,
        "round_winner": rw if rw >= 0 else None,
        "scores": [int(x) for x in scores],
        "game_over": phase == k.P_GAME_OVER,
        "game_winner": gw if gw >= 0 else None,
    }


# ------------------------------------------------------------------ search ---------
def state_from_game(g: Any) -> np.ndarray:
    """A reference ``Game``'s state as the kernel's array (the inverse of ``state_json``).

    For search: a sampled world goes to compiled rollouts.  Hands keep their order and
    the draw pile its order (``Game.pile`` has its top at the end, as the kernel does).
    """
    k = load_kernel()
    st = np.zeros(k.STATE_SIZE, dtype=np.int64)
    n = g.n
    st[k.S_COLOR] = g.color
    st[k.S_DIR] = g.direction
    st[k.S_CUR] = g.current
    st[k.S_PHASE] = g.phase
    st[k.S_DRAWN] = g.drawn
    st[k.S_VULN] = g.vulnerable
    st[k.S_WD4BY] = g.wd4_by
    st[k.S_WD4PREV] = g.wd4_prev_color
    st[k.S_GUILTY] = int(g.wd4_guilty)
    st[k.S_PEND] = g.pend_card
    st[k.S_PENDTOT] = g.pend_total
    st[k.S_RWIN] = g.round_winner
    st[k.S_GWIN] = g.game_winner
    st[k.S_RIDX] = g.round_index
    st[k.S_DEALER] = g.dealer
    st[k.S_RESH] = g.reshuffles
    st[k.S_N] = n
    st[k.S_NLIVE] = g.n_live
    st[k.S_NPILE] = len(g.pile)
    st[k.S_NDISC] = len(g.discard)
    st[k.O_SCORES : k.O_SCORES + len(g.scores)] = g.scores
    st[k.O_LIVE : k.O_LIVE + n] = g.live
    for s, hand in enumerate(g.hands):
        st[k.O_HS + s] = len(hand)
        base = k.O_HANDS + s * k.HCAP
        st[base : base + len(hand)] = hand
    st[k.O_PILE : k.O_PILE + len(g.pile)] = g.pile
    st[k.O_DISC : k.O_DISC + len(g.discard)] = g.discard
    return st


def rollouts_cover(rules: RuleSet) -> bool:
    """Whether compiled rollouts play these rules exactly like ``ismcts.rollout``.

    Its rule-based policy runs on the plain classic path only (no stacking, no
    seven-zero, no multi-play; the engine's ``Game._plain``), and plays a Wild Swap
    Hands without a target, which only the reference engine interprets: those decks
    stay with the Python rollouts.
    """
    return (
        rules.stacking == "off"
        and not rules.seven_zero
        and not rules.multi_play
        and plain_deck(rules.deck)
    )


class CheckError(SimError):
    """A compiled game that the reference engine does not replay to the same state."""


def check_game(cfg: Config, index: int, setup: Setup | None = None) -> PlayedGame:
    """Replay compiled game ``index`` through the reference engine; ``CheckError`` if not equal.

    The record goes through RECORD.md's JSON text (``unokit.record.loads``) and every
    action through the reference engine's checks; the final states must be identical.
    On a mismatch the record is written to a file named in the error.
    """
    from unokit.record import RecordError, loads, replay

    played = play_logged(cfg, index, setup)
    text = json.dumps(played.record)
    problem = None
    try:
        result = replay(loads(text))
    except RecordError as e:
        problem = f"the record is refused: {e}"
    else:
        if not result.ok:
            problem = (
                f"action {result.error_action} of round {result.error_round} is illegal: "
                f"{result.message}"
            )
        else:
            assert result.game is not None
            ref = result.game.state_json()
            if ref != played.state:
                diff = [key for key in ref if ref[key] != played.state.get(key)]
                problem = f"the final states differ in {', '.join(diff)}"
    if problem:
        fd, path = tempfile.mkstemp(prefix=f"unokit-check-{index}-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        raise CheckError(
            f"--check: game {index} of the compiled engine does not replay through the "
            f"reference engine: {problem} (record: {path})"
        )
    return played


__all__ = [
    "INSTALL_HINT",
    "CheckError",
    "Config",
    "PlayedGame",
    "Setup",
    "announce_compiling",
    "available",
    "base_seed",
    "check_game",
    "compile_seconds",
    "load_kernel",
    "play_logged",
    "players_array",
    "prepare",
    "record_from_log",
    "rollouts_cover",
    "run_chunk",
    "state_from_game",
    "state_json",
    "unsupported",
    "warm",
]
