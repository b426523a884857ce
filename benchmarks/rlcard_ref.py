# requirements: rlcard==1.2.0 numpy==2.4.6 termcolor==3.3.0
#   (rlcard 1.2.0 needs no old numpy: it uses none of the removed np.int/np.bool aliases.
#    Checked on Python 3.11.7. Install: pip install rlcard==1.2.0 numpy==2.4.6)
"""Reference side of unokit's speed benchmark: time RLCard 1.2.0's UNO.

This script exists so that unokit's speed can be compared with a well-known reference
engine *in the same run, on the same machine*. Numbers from different machines or
different days are not comparable; numbers from one run are. It runs in its own
Python environment (one with ``rlcard==1.2.0`` installed, see the pins above) and
prints one JSON object on stdout; anything else (notes, warnings) goes to stderr.

Two systems are timed, each for ``--seconds`` of wall-clock time, playing whole
games with uniformly random legal moves:

* ``rlcard-env``: the RL environment, ``rlcard.make("uno")`` with ``RandomAgent``s and
  ``env.run(is_training=False)`` per game. This includes RLCard's observation
  encoding (numpy planes) and trajectory recording, i.e. what an RL user pays.
* ``rlcard-env-step``: the same environment stepped as an RL user's own loop does:
  ``env.reset()``, then ``env.step(a)`` with ``a`` a uniformly random key of
  ``state["legal_actions"]`` (Python's ``random.choice``) until ``env.is_over()``. Every
  step still builds the next player's observation; what ``env.run`` adds (trajectory
  recording, ``RandomAgent``'s ``np.random.choice``, final states) is left out. This is
  the like-for-like counterpart of unokit's AEC loop with its cheap random pick.
* ``rlcard-raw``: the bare game loop on ``rlcard.games.uno.game.UnoGame``:
  ``get_legal_actions()``, a uniformly random choice (Python's ``random``),
  ``step(action)``, until ``is_over()``.

A *decision* is one ``step`` call: one turn of one player, which is either playing a
card (wilds carry their chosen colour in the action) or ``"draw"``. In RLCard a draw is
a single decision: the drawn card is played automatically if it can be, otherwise kept
and the turn passes. Decisions with only one legal action (e.g. a forced draw) count.

The environment always has 2 players: RLCard 1.2.0 ignores ``game_num_players`` for UNO.
``UnoGame(num_players=4)`` does play, but its payoffs are wrong for more than two
players, so the 4-player raw result is reported with that caveat.

Exit status: 0 on success, 2 on bad arguments, 3 if rlcard (or numpy) is not importable.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

try:
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.games.uno.game import UnoGame
except ImportError as exc:  # pragma: no cover - depends on the interpreter used
    missing = exc.name or "rlcard"
    print(
        f"rlcard_ref: cannot import {missing!r} ({exc}); run with a Python that has "
        "rlcard==1.2.0 and numpy installed (see the requirements line at the top of this file)",
        file=sys.stderr,
    )
    sys.exit(3)

EXPECTED_RLCARD_VERSION = "1.2.0"
WARMUP_GAMES = 20

# One game: plays it to the end and returns the number of decisions taken.
GameRunner = Callable[[], int]


def _seed_globals(seed: int) -> None:
    """Seed the global generators (RandomAgent and the env's action decoding use np.random)."""
    random.seed(seed)
    np.random.seed(seed)


def make_env_runner(players: int, seed: int) -> GameRunner:
    """Return a runner for one game of the RLCard environment with random agents."""
    env = rlcard.make("uno", config={"seed": seed, "game_num_players": players})
    if env.num_players != players:
        raise ValueError(f"rlcard-env plays {env.num_players} players, not {players}")
    env.set_agents([RandomAgent(num_actions=env.num_actions)] * env.num_players)

    def run_one() -> int:
        trajectories, _payoffs = env.run(is_training=False)
        # Each player's trajectory is state, action, state, action, ..., final state.
        return sum(len(t) // 2 for t in trajectories)

    return run_one


def make_step_runner(players: int, seed: int) -> GameRunner:
    """Return a runner for one episode of the RLCard environment stepped by hand."""
    env = rlcard.make("uno", config={"seed": seed, "game_num_players": players})
    if env.num_players != players:
        raise ValueError(f"rlcard-env plays {env.num_players} players, not {players}")
    choose = random.choice

    def run_one() -> int:
        state, _player = env.reset()
        decisions = 0
        while not env.is_over():
            state, _player = env.step(choose(list(state["legal_actions"])))
            decisions += 1
        return decisions

    return run_one


def make_raw_runner(players: int, seed: int) -> GameRunner:
    """Return a runner for one game on the bare UnoGame object with a random policy."""
    game = UnoGame(num_players=players)
    # UnoGame has no seed argument; its generator is the public np_random attribute,
    # which is what rlcard's own Env.seed() sets. Dealer and Round take it at init_game().
    game.np_random = np.random.RandomState(seed)
    choose = random.choice

    def run_one() -> int:
        game.init_game()
        decisions = 0
        while not game.is_over():
            game.step(choose(game.get_legal_actions()))
            decisions += 1
        return decisions

    return run_one


def measure(system: str, players: int, runner: GameRunner, budget_s: float) -> dict[str, Any]:
    """Play whole games until the time budget is used; return the counts and rates."""
    for _ in range(WARMUP_GAMES):
        runner()
    games = 0
    decisions = 0
    errors = 0
    clock = time.perf_counter
    start = clock()
    elapsed = 0.0
    while elapsed < budget_s:
        try:
            decisions += runner()
            games += 1
        except (IndexError, ValueError) as exc:  # e.g. drawing from an empty deck
            errors += 1
            print(f"rlcard_ref: {system} game aborted: {exc!r}", file=sys.stderr)
        elapsed = clock() - start
    result: dict[str, Any] = {
        "system": system,
        "players": players,
        "games": games,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed, 2),
        "decisions": decisions,
        "decisions_per_game": round(decisions / games, 2) if games else None,
        "us_per_decision": round(elapsed * 1e6 / decisions, 3) if decisions else None,
        "decisions_per_s": round(decisions / elapsed, 1),
        "aborted_games": errors,
    }
    return result


def env_players_supported(players: int) -> bool:
    """Whether rlcard.make('uno') honours game_num_players=players."""
    env = rlcard.make("uno", config={"seed": 0, "game_num_players": players})
    return bool(env.num_players == players)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="time budget per measurement (default 5)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for random, numpy and RLCard")
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=[2, 4],
        help="player counts to try (default: 2 4); the env only supports 2",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.seed < 0:
        parser.error("--seed must be non-negative (RLCard requires it)")
    if any(n < 2 or n > 10 for n in args.players):
        parser.error("--players must be between 2 and 10")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    version = getattr(rlcard, "__version__", "unknown")
    if version != EXPECTED_RLCARD_VERSION:
        print(
            f"rlcard_ref: note: rlcard {version} installed, this script targets "
            f"{EXPECTED_RLCARD_VERSION}",
            file=sys.stderr,
        )

    results: list[dict[str, Any]] = []
    unsupported: list[dict[str, Any]] = []
    # Keep stdout for the JSON alone, whatever the library might print.
    with contextlib.redirect_stdout(sys.stderr):
        for players in args.players:
            if env_players_supported(players):
                _seed_globals(args.seed)
                runner = make_env_runner(players, args.seed)
                results.append(measure("rlcard-env", players, runner, args.seconds))
                _seed_globals(args.seed)
                runner = make_step_runner(players, args.seed)
                results.append(measure("rlcard-env-step", players, runner, args.seconds))
            else:
                unsupported.append(
                    {
                        "system": "rlcard-env",
                        "players": players,
                        "reason": "rlcard.make('uno') ignores game_num_players; always 2",
                    }
                )
            _seed_globals(args.seed)
            runner = make_raw_runner(players, args.seed)
            result = measure("rlcard-raw", players, runner, args.seconds)
            if players != 2:
                result["note"] = "UnoGame(num_players>2) plays, but get_payoffs() is 2-player only"
            results.append(result)

    report = {
        "rlcard_version": version,
        "numpy_version": np.__version__,
        "python": platform.python_version(),
        "seed": args.seed,
        "seconds_budget": args.seconds,
        "warmup_games": WARMUP_GAMES,
        "results": results,
        "unsupported": unsupported,
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
