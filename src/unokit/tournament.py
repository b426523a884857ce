"""Tournaments between bots: duplicated deals, rotated seats, win rates and ratings.

**Tables.** Each *deal* (one ``Game`` seed, ``seed * 1_000_003 + deal``) seats a
*line-up* of ``players`` bots.  With as many bots as seats the line-up is every bot;
with fewer bots they repeat (``A B A B``); with more, the line-ups cycle through the
combinations of ``players`` bots in order.  The deal is then played once per rotation of
the line-up over the seats (slot ``k`` sits in seat ``(k + r) % players`` in rotation
``r``), so every bot of the line-up takes every seat with the same cards.  Bot seeds
follow the slot, not the seat (``deal seed * 16 + slot``), as in the strength benchmark.

**Reproducibility.** The deals are cut into chunks (a fixed function of their number),
each chunk depends only on the seed and its deal indices, and the chunks' integer
tallies are merged in chunk order, so the results are the same whatever the number of
workers.  Only the timings differ, and a search bot with a ``time_budget`` (rather than
``iterations``) depends on the machine's speed.

**Statistics.** Per bot: games (seats taken), wins, win rate with a 95% Wilson interval
against the ``1/players`` baseline, the winner's round points averaged over every round
the bot played (0 for a round it did not win), and milliseconds per decision (wall time
inside its ``act``/``react``).

**Rating.** A Bradley-Terry (logistic Elo) fit to the pairwise results: every table
counts as "the winner beats each other bot at the table" (for 2 players, plain win/loss;
for more, a multiplayer Elo over finishing order where only first place is known).  The
maximum-likelihood strengths come from the MM (Zermelo) iteration, with half a win added
to each side of every pair that met, so that a bot that never won or never lost still
gets a finite rating.  Ratings are ``1500 + 400 * log10(strength)``, anchored so their
mean is 1500; a 200-point gap means the stronger bot beats the other about 76% of the time.
"""

from __future__ import annotations

import inspect
import itertools
import math
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from unokit.bots import BOTS
from unokit.bots.base import Bot, observes
from unokit.bots.runner import RoundStalled, play_round
from unokit.engine.actions import Action
from unokit.engine.family import new_game
from unokit.engine.game import Event, Game
from unokit.engine.view import View
from unokit.match import Match, Timing
from unokit.progress import progress_bar
from unokit.rules import GAME_OPTIONS, RuleSet, game_of_deck
from unokit.workers import run_pool


class TournamentError(ValueError):
    """A tournament that cannot run: unknown bot, bad bot option, bad numbers."""


# ----------------------------------------------------------------------- entrants ----
@dataclass(frozen=True)
class Entrant:
    """A bot by name with keyword options, e.g. ``ismcts:iterations=200``."""

    label: str
    bot: str
    options: tuple[tuple[str, Any], ...] = ()

    def build(self, seed: int) -> Bot:
        return BOTS[self.bot](seed=seed, **dict(self.options))


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise TournamentError(f"bad bot option value {text!r}: expected a number") from None
    if not math.isfinite(value):
        raise TournamentError(f"bad bot option value {text!r}: expected a finite number")
    return value


# Bounds of the bot options; every other number option must be from 0 (no bot option
# means anything below 0) to ``NUMBER_MAX`` (a number past 2^63 overflowed the
# compiled search with a traceback: found by review).
NUMBER_MAX = 10**9
OPTION_BOUNDS: dict[str, tuple[float, float]] = {
    "iterations": (1, 10**7),
    "time_budget": (0, 3600),
    "policy": (0, 2),
    "judge": (0, 1),
    "rollout_challenges": (0, 2),
    "infer_floor": (0, 1),
}
POSITIVE_OPTIONS = ("time_budget",)  # more than 0


def _option_kind(param: inspect.Parameter) -> type | None:
    """What an option takes: bool, int or float, from its annotation; None: not settable."""
    ann = param.annotation
    text = ann if isinstance(ann, str) else getattr(ann, "__name__", str(ann))
    parts = {p.strip() for p in text.split("|")}
    for kind in (bool, int, float):
        if kind.__name__ in parts:
            return kind
    return None


def check_option(bot: str, key: str, value: Any, param: inspect.Parameter) -> Any:
    """Refuse, in one line, a bot option value of the wrong type or out of its range."""
    kind = _option_kind(param)
    where = f"{bot}:{key}={value}"
    if kind is None:
        raise TournamentError(f"{where}: {key} cannot be set from the command line")
    if kind is bool:
        if not isinstance(value, bool):
            raise TournamentError(f"{where}: {key} is true or false")
        return value
    if isinstance(value, bool):
        raise TournamentError(f"{where}: {key} is a number, not true or false")
    if kind is int and not isinstance(value, int):
        raise TournamentError(f"{where}: {key} is a whole number")
    lo, hi = OPTION_BOUNDS.get(key, (0, NUMBER_MAX))
    if key in POSITIVE_OPTIONS and value <= 0:
        raise TournamentError(f"{where}: {key} must be more than 0")
    if not lo <= value <= hi:
        span = f"at least {lo:g}" if hi == math.inf else f"from {lo:g} to {hi:g}"
        raise TournamentError(f"{where}: {key} must be {span}")
    return float(value) if kind is float else value


def parse_entrant(spec: str) -> Entrant:
    """``NAME`` or ``NAME:KEY=VALUE[,KEY=VALUE...]``; checks the name and option keys."""
    name, _, rest = spec.strip().partition(":")
    if name not in BOTS:
        raise TournamentError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    params = inspect.signature(BOTS[name]).parameters
    allowed = [p for p in params if p not in ("self", "seed")]
    options: list[tuple[str, Any]] = []
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, sep, raw = (s.strip() for s in item.partition("="))
        if not sep:
            raise TournamentError(f"bad bot option {item!r} in {spec!r}: use KEY=VALUE")
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise TournamentError(f"bot {name!r} has no option {key!r} (options: {known})")
        options.append((key, check_option(name, key, _value(raw), params[key])))
    return Entrant(spec.strip(), name, tuple(options))


def parse_entrants(specs: Sequence[str]) -> list[Entrant]:
    """Several entrants; a repeated spec gets ``#2``, ``#3``... so labels stay unique."""
    out: list[Entrant] = []
    seen: dict[str, int] = {}
    for spec in specs:
        e = parse_entrant(spec)
        seen[e.label] = seen.get(e.label, 0) + 1
        if seen[e.label] > 1:
            e = Entrant(f"{e.label}#{seen[e.label]}", e.bot, e.options)
        out.append(e)
    if not out:
        raise TournamentError("--bots needs at least one bot")
    return out


def lineups(n_bots: int, players: int) -> list[tuple[int, ...]]:
    """The line-ups (bot indices by slot) that the deals cycle through."""
    if n_bots <= players:
        return [tuple(k % n_bots for k in range(players))]
    return list(itertools.combinations(range(n_bots), players))


# ------------------------------------------------------------------------ playing ----
class Timed:
    """Wraps a bot and counts the time spent in its decisions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.ns = 0
        self.calls = 0
        self.observes = observes(bot)

    def observe(self, events: Sequence[Event]) -> None:
        self.bot.observe(events)

    def act(self, view: View) -> Action:
        t = time.perf_counter_ns()
        a = self.bot.act(view)
        self.ns += time.perf_counter_ns() - t
        self.calls += 1
        return a

    def react(self, view: View) -> Action | None:
        t = time.perf_counter_ns()
        a = self.bot.react(view)
        self.ns += time.perf_counter_ns() - t
        self.calls += 1
        return a


def deal_seed(seed: int, deal: int) -> int:
    return seed * 1_000_003 + deal


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play its deals."""

    entrants: tuple[Entrant, ...]
    players: int
    rules: RuleSet
    seed: int
    full_games: bool = False


@dataclass
class Tally:
    """Integer counts (exact, merged in chunk order) plus timings (which vary)."""

    n: int
    players: int
    games: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    seat_games: list[list[int]] = field(default_factory=list)  # [bot][seat]
    beat: list[list[int]] = field(default_factory=list)  # [winner][loser]
    calls: list[int] = field(default_factory=list)
    ns: list[int] = field(default_factory=list)
    tables: int = 0
    stalled: int = 0  # deals left out: a round with no winner after the decision cap

    def __post_init__(self) -> None:
        n, p = self.n, self.players
        for name in ("games", "wins", "rounds", "points", "calls", "ns"):
            if not getattr(self, name):
                setattr(self, name, [0] * n)
        if not self.seat_games:
            self.seat_games = [[0] * p for _ in range(n)]
        if not self.beat:
            self.beat = [[0] * n for _ in range(n)]

    def merge(self, o: Tally) -> None:
        self.tables += o.tables
        self.stalled += o.stalled
        for name in ("games", "wins", "rounds", "points", "calls", "ns"):
            mine, theirs = getattr(self, name), getattr(o, name)
            for i in range(self.n):
                mine[i] += theirs[i]
        for i in range(self.n):
            for s in range(self.players):
                self.seat_games[i][s] += o.seat_games[i][s]
            for j in range(self.n):
                self.beat[i][j] += o.beat[i][j]

    def counts(self) -> dict[str, Any]:
        """The exact part: equal for equal seeds whatever the workers."""
        return {
            "tables": self.tables,
            "stalled": self.stalled,
            "games": self.games,
            "wins": self.wins,
            "rounds": self.rounds,
            "points": self.points,
            "seat_games": self.seat_games,
            "beat": self.beat,
            "decisions": self.calls,
        }


MAX_DECISIONS = 100_000  # per round; past it the deal is left out (RoundStalled)


def play_table(spec: Spec, lineup: Sequence[int], s: int, rotation: int, out: Tally) -> Game:
    """One deal in one rotation: slot ``k`` of the line-up sits in seat ``(k + r) % n``.

    Returns the game played (the cross-front-end test compares its record).
    """
    n = spec.players
    slot_of_seat = [(seat - rotation) % n for seat in range(n)]
    bot_of_seat = [lineup[k] for k in slot_of_seat]
    bots = [Timed(spec.entrants[bot_of_seat[i]].build(s * 16 + slot_of_seat[i])) for i in range(n)]
    events = any(b.observes for b in bots)
    game = new_game(spec.rules, [f"P{i}" for i in range(n)], seed=s, events=events)
    match = Match(game, bots, timing=Timing.instant())
    rounds = 0
    points = [0] * n
    while True:
        try:
            play_round(match, max_steps=MAX_DECISIONS)
        except RoundStalled:
            out.stalled += 1  # the rules forced a loop; the deal counts for no one
            return game
        rounds += 1
        end = game.outcome()
        assert end.round_winner is not None  # play_round returns once the round is over
        w = end.round_winner
        points[w] += game.round_points(w)
        if not spec.full_games or end.game_over:
            break
        match.next_round()
    winners = list(end.winning_seats) if spec.full_games else [w]
    out.tables += 1
    for seat in range(n):
        b = bot_of_seat[seat]
        out.games[b] += 1
        out.seat_games[b][seat] += 1
        out.rounds[b] += rounds
        out.points[b] += points[seat]
        out.calls[b] += bots[seat].calls
        out.ns[b] += bots[seat].ns
        if seat in winners:
            out.wins[b] += 1
            for other in range(n):
                loser = bot_of_seat[other]
                if other not in winners and loser != b:
                    out.beat[b][loser] += 1
    return game


def play_chunk(job: tuple[int, Spec, int, int]) -> tuple[int, Tally]:
    """Deals ``first`` .. ``last - 1``, each once per rotation."""
    index, spec, first, last = job
    ups = lineups(len(spec.entrants), spec.players)
    out = Tally(len(spec.entrants), spec.players)
    for deal in range(first, last):
        s = deal_seed(spec.seed, deal)
        for r in range(spec.players):
            play_table(spec, ups[deal % len(ups)], s, r, out)
    return index, out


def chunk_bounds(deals: int) -> Iterator[tuple[int, int]]:
    """About 64 chunks of 1 to 500 deals: a function of the number of deals only.

    Made one at a time, as the workers take them, so memory does not grow with ``deals``.
    """
    size = chunk_deals(deals)
    return ((a, min(a + size, deals)) for a in range(0, deals, size))


def chunk_deals(deals: int) -> int:
    return max(1, min(500, math.ceil(deals / 64)))


# The most games a tournament plays: 10^10 games of random bots are a year of one
# core's work.  Only a typo gets there; the chunks are made as they are handed out.
MAX_GAMES = 10**10


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run(
    spec: Spec, games: int, workers: int | None = None, progress: bool = False
) -> tuple[Tally, float]:
    """Play at least ``games`` games, rounded up to whole deals and line-up cycles.

    Returns the merged tally and the wall time in seconds.
    """
    if games < 1:
        raise TournamentError(f"--games must be at least 1, not {games}")
    if games > MAX_GAMES:
        raise TournamentError(
            f"--games {games:,} is more than a tournament plays (at most {MAX_GAMES:,}, "
            "about a year of one core's work even for random bots); ask for fewer"
        )
    if workers is not None and workers < 1:
        raise TournamentError(f"--workers must be at least 1, not {workers}")
    spec.rules.check_players(spec.players)
    for e in spec.entrants:  # fail here, in one line, rather than in a worker
        try:
            e.build(0)
        except (TypeError, ValueError) as err:
            raise TournamentError(f"cannot build bot {e.label!r}: {err}") from None
    cycle = len(lineups(len(spec.entrants), spec.players))  # deals: whole line-up cycles
    deals = cycle * max(1, math.ceil(games / spec.players / cycle))
    jobs = ((i, spec, a, b) for i, (a, b) in enumerate(chunk_bounds(deals)))
    n_jobs = -(-deals // chunk_deals(deals))
    n_workers = min(workers or default_workers(), n_jobs)
    total = Tally(len(spec.entrants), spec.players)
    waiting: dict[int, Tally] = {}  # done out of order, until the chunks before are in
    following = 0  # the next chunk to merge: tallies are merged in chunk order
    t0 = time.perf_counter()
    with progress_bar(deals * spec.players, progress, "tournament") as advance:

        def done(i: int, part: Tally) -> None:
            nonlocal following
            waiting[i] = part
            while following in waiting:
                total.merge(waiting.pop(following))
                following += 1
            advance(part.tables + part.stalled)

        if n_workers <= 1:
            for out in map(play_chunk, jobs):
                done(*out)
        else:
            # Ctrl-C at any moment ends it (unokit.workers)
            run_pool(play_chunk, jobs, n_workers, lambda out: done(*out))
    assert following == n_jobs, "every chunk reports or raises"
    return total, time.perf_counter() - t0


# --------------------------------------------------------------------- statistics ----
def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% for z = 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (mid - half, mid + half)


def elo_ratings(
    beat: Sequence[Sequence[float]], prior: float = 0.5, iterations: int = 10_000
) -> list[float]:
    """Bradley-Terry ratings on the Elo scale (mean 1500) from ``beat[i][j]`` wins of i over j.

    ``prior`` wins are added to each side of every pair that met.  A bot that met no one
    gets 1500.
    """
    n = len(beat)
    w = [[beat[i][j] + (prior if beat[i][j] + beat[j][i] > 0 else 0.0) for j in range(n)]
         for i in range(n)]  # fmt: skip
    games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    total_wins = [sum(row) for row in w]
    active = [i for i in range(n) if sum(games[i]) > 0]
    p = [1.0] * n
    for _ in range(iterations):
        new = list(p)
        for i in active:
            denom = sum(games[i][j] / (p[i] + p[j]) for j in active if games[i][j] > 0)
            new[i] = max(total_wins[i], 1e-12) / denom
        logs = [math.log(new[i]) for i in active]
        g = math.exp(sum(logs) / len(logs)) if logs else 1.0
        new = [x / g for x in new]
        delta = max((abs(math.log(new[i] / p[i])) for i in active), default=0.0)
        p = new
        if delta < 1e-12:
            break
    ratings = [400 * math.log10(x) for x in p]
    mean = sum(ratings[i] for i in active) / len(active) if active else 0.0
    return [1500 + (r - mean) if i in active else 1500.0 for i, r in enumerate(ratings)]


def report(spec: Spec, tally: Tally, wall: float, workers: int) -> dict[str, Any]:
    """The results as a JSON-ready dict."""
    base = 0.5 if spec.full_games and spec.rules.scoring == "teams" else 1 / spec.players
    elo = elo_ratings(tally.beat)
    bots = []
    for i, e in enumerate(spec.entrants):
        g, won = tally.games[i], tally.wins[i]
        lo, hi = wilson(won, g)
        bots.append(
            {
                "bot": e.label,
                "games": g,
                "wins": won,
                "win_rate": won / g if g else 0.0,
                "ci95_wilson": [lo, hi],
                "baseline": base,
                "points_per_round": tally.points[i] / tally.rounds[i] if tally.rounds[i] else 0.0,
                "rounds": tally.rounds[i],
                "ms_per_decision": tally.ns[i] / tally.calls[i] / 1e6 if tally.calls[i] else 0.0,
                "decisions": tally.calls[i],
                "elo": elo[i],
                "seat_games": tally.seat_games[i],
            }
        )
    return {
        "players": spec.players,
        "rules": spec.rules.options() | {"preset": spec.rules.preset},
        "mode": "full games" if spec.full_games else "single rounds",
        "seed": spec.seed,
        "tables": tally.tables,
        "stalled": tally.stalled,
        "workers": workers,
        "wall_seconds": wall,
        "rating": "Elo (Bradley-Terry fit)"
        if spec.players == 2
        else "multiplayer Elo (Bradley-Terry fit; the winner beats each other bot at its table)",
        "bots": bots,
        "beat": tally.beat,
    }


def stall_cause(rules: dict[str, Any]) -> str:
    """Why a round may outlast the decision cap under these rules, as far as they say.

    The cap cannot tell a loop from a drift by itself; the rules can: No Mercy without
    the Mercy rule gives out more cards than turns shed, so bots' hands grow without end
    (a drift of the players' choices, not a loop the rules force on everyone).
    """
    game = game_of_deck(str(rules.get("deck", "classic")))
    if "mercy_limit" in GAME_OPTIONS[game] and rules.get("mercy_limit") == 0:
        return (
            "No Mercy with mercy_limit=0 hands out more cards than play sheds: the hands"
            " grew without end, a drift of the bots' play, not a loop the rules force"
        )
    return "a loop the rules force, or rules that hand out cards faster than play sheds them"


def format_table(doc: dict[str, Any]) -> str:
    base = doc["bots"][0]["baseline"] if doc["bots"] else 0.0
    head = (
        f"{'bot':<24}{'games':>8}{'wins':>8}{'win rate':>10}{'95% CI (Wilson)':>18}"
        f"{'vs base':>9}{'pts/round':>11}{'ms/dec':>9}{'Elo':>7}"
    )
    lines = [
        f"{doc['tables']} tables of {doc['players']} ({doc['mode']}, {doc['rules']['preset']}),"
        f" seed {doc['seed']}, {doc['workers']} worker{'' if doc['workers'] == 1 else 's'},"
        f" {doc['wall_seconds']:.1f} s;"
        f" baseline {base:.1%}",
        head,
        "-" * len(head),
    ]
    for b in doc["bots"]:
        lo, hi = b["ci95_wilson"]
        lines.append(
            f"{b['bot']:<24}{b['games']:>8}{b['wins']:>8}{b['win_rate']:>10.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>18}{(b['win_rate'] - base) * 100:>+9.1f}"
            f"{b['points_per_round']:>11.1f}{b['ms_per_decision']:>9.3f}{b['elo']:>7.0f}"
        )
    if doc["stalled"]:
        lines.append(
            f"{doc['stalled']} tables left out: a round had no winner after"
            f" {MAX_DECISIONS:,} decisions ({stall_cause(doc['rules'])};"
            ' see docs/rules.md, "Rounds that can go on and on")'
        )
    lines.append(f"rating: {doc['rating']}")
    return "\n".join(lines)
