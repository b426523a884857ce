"""Engine speed, measured side by side with RLCard 1.2.0's UNO in the same run.

Both sides play whole single rounds (RLCard's "game" is one round: first out wins)
between random-legal-move players: play a uniformly random playable card if any, else
draw; a playable drawn card is played; always call UNO; never challenge.  unokit runs
the full official rules (UNO calls and catch windows, Wild Draw Four challenges offered,
scoring) on its trusted fast path, the one bots and simulations use.

Machines here are shared and noisy, so the two systems alternate (``--repeats``) and
the ratio is taken from the same run.  Usage (``make bench`` does this):

    python benchmarks/bench_engine.py --reference-python .bench-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from unokit.engine import P_CHALLENGE, P_DRAWN, P_PLAY, P_ROUND_OVER, P_START_COLOR, Game
from unokit.rules import RuleSet

HERE = Path(__file__).resolve().parent


def random_round(game: Game, rng: random.Random) -> int:
    """Play one round with the benchmark policy on the fast path; return decisions."""
    decisions = 0
    rand = rng.random
    while game.phase < P_ROUND_OVER:
        seat = game.current
        phase = game.phase
        if phase == P_PLAY:
            options = game.playable_cards(seat)
            if options:
                card = options[int(rand() * len(options))]
                game.play(seat, card, int(rand() * 4) if card >= 52 else -1,
                          len(game.hands[seat]) == 2)  # fmt: skip
            else:
                game.draw(seat)
        elif phase == P_DRAWN:
            card = game.drawn
            game.play(seat, card, int(rand() * 4) if card >= 52 else -1,
                      len(game.hands[seat]) == 2)  # fmt: skip
        elif phase == P_CHALLENGE:
            game.accept(seat)
        elif phase == P_START_COLOR:
            game.choose_color(seat, int(rand() * 4))
        decisions += 1
    return decisions


def measure_unokit(players: int, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    rules = RuleSet(target_score=10**6)
    game = Game(rules, players, seed=seed, dealer=0, events=False, record=False)
    games = decisions = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        decisions += random_round(game, rng)
        games += 1
        if games % 50 == 0 and time.perf_counter() > deadline:
            break
        if game.game_over:  # a million points: start another game
            game = Game(rules, players, seed=seed + games, dealer=0, events=False, record=False)
        else:
            game.start_round()
    elapsed = time.perf_counter() - t0
    return {
        "system": "unokit",
        "players": players,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions": decisions,
        "decisions_per_game": round(decisions / games, 2),
        "us_per_decision": round(elapsed / decisions * 1e6, 3),
    }


def measure_reference(python: str, seconds: float, seed: int) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [python, str(HERE / "rlcard_ref.py"), "--seconds", str(seconds), "--seed", str(seed)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.exit(f"reference benchmark failed ({proc.returncode}): {proc.stderr.strip()}")
    results: list[dict[str, Any]] = json.loads(proc.stdout)["results"]
    return results


def measure_baseline(src: Path, seconds: float, seed: int) -> list[dict[str, Any]]:
    """The same loop against another checkout of unokit, in a child interpreter."""
    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    proc = subprocess.run(
        [sys.executable, __file__, "--emit-json", "--seconds", str(seconds), "--seed", str(seed)],
        capture_output=True, text=True, check=False, env=env,
    )  # fmt: skip
    if proc.returncode != 0:
        sys.exit(f"baseline benchmark failed: {proc.stderr.strip()}")
    rows: list[dict[str, Any]] = json.loads(proc.stdout)
    for r in rows:
        r["system"] = "baseline"
    return rows


def best(rows: list[dict[str, Any]], system: str, players: int) -> dict[str, Any] | None:
    mine = [r for r in rows if r.get("system") == system and r.get("players") == players]
    return max(mine, key=lambda r: r["games_per_s"]) if mine else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reference-python", help="python with rlcard==1.2.0 (omit to skip)")
    p.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    p.add_argument("--repeats", type=int, default=2, help="alternations of the two systems")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, help="write all measurements to this file")
    p.add_argument(
        "--baseline-src",
        type=Path,
        help="another checkout's src/ (e.g. the classic-only engine) to time in the same run",
    )
    p.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.emit_json:  # used for --baseline-src: time this interpreter's unokit only
        out = [measure_unokit(k, args.seconds, args.seed) for k in (2, 4)]
        print(json.dumps(out))
        return 0

    rows: list[dict[str, Any]] = []
    for rep in range(args.repeats):
        for players in (2, 4):
            rows.append(measure_unokit(players, args.seconds, args.seed + rep))
            print(f"unokit {players}p: {rows[-1]['games_per_s']} games/s", file=sys.stderr)
        if args.reference_python:
            rows.extend(measure_reference(args.reference_python, args.seconds, args.seed + rep))
            print(f"rlcard: {[r.get('games_per_s') for r in rows[-3:]]}", file=sys.stderr)
        if args.baseline_src:
            rows.extend(measure_baseline(args.baseline_src, args.seconds, args.seed + rep))
            print(f"baseline: {[r.get('games_per_s') for r in rows[-2:]]}", file=sys.stderr)

    print(f"\n{'system':<12} {'players':>7} {'games/s':>10} {'µs/decision':>12} "
          f"{'decisions/game':>15}")  # fmt: skip
    for system in ("unokit", "baseline", "rlcard-env", "rlcard-raw"):
        for players in (2, 4):
            r = best(rows, system, players)
            if r:
                gps, us, dpg = r["games_per_s"], r["us_per_decision"], r["decisions_per_game"]
                print(f"{system:<12} {players:>7} {gps:>10.0f} {us:>12.2f} {dpg:>15.1f}")
    ratios: dict[str, float] = {}
    for system in ("rlcard-env", "rlcard-raw", "baseline"):
        for players in (2, 4):
            ours, theirs = best(rows, "unokit", players), best(rows, system, players)
            if ours and theirs:
                ratios[f"{system}/{players}p"] = round(
                    ours["games_per_s"] / theirs["games_per_s"], 2
                )
    if ratios:
        print("\nunokit games/s ÷ reference games/s (best of each, same run):")
        for key, value in ratios.items():
            print(f"  vs {key}: {value}x")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
