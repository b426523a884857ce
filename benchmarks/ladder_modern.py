"""The ladder of UNO Flip! and No Mercy (issue 50 item 5): every pair of bots over
duplicated deals with seats rotated (``unokit tournament``), at 2 and 4 players.

    python benchmarks/ladder_modern.py --games 4000 --search-games 1000 --out /tmp/ladder

Each pair is one ``unokit tournament --bots A B --players P --rules GAME --seed S``
(single rounds: the tournament's default), its JSON kept in ``--out``; the table at the
end gives A's win rate with its 95% Wilson interval.  Pairs with ``ismcts`` play
``--search-games`` games (its search costs about 60 ms of CPU a decision).  Pairs run
in the order listed (``--pairs`` to choose), so a run cut short has the cheap ones.
``--verdict GAME:A:B:P:GOAL`` adds the verdict of docs/bots.md's rule for that pair:
met when the interval's lower end reaches GOAL, met on the point estimate only when the
estimate does, not met otherwise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BOTS = ("random", "greedy", "heuristic", "learned", "ismcts")


def pairs(bots: tuple[str, ...]) -> list[tuple[str, str]]:
    """The stronger-named bot first: each pair once, cheap pairs before search pairs."""
    out = [(b, a) for i, a in enumerate(bots) for b in bots[i + 1 :]]
    return sorted(out, key=lambda p: ("ismcts" in p, bots.index(p[0]), bots.index(p[1])))


def play(game: str, a: str, b: str, players: int, games: int, seed: int, out: Path,
         workers: int) -> dict[str, Any]:  # fmt: skip
    path = out / f"{game}-{a}-{b}-{players}p.json"
    if not path.exists():
        cmd = [sys.executable, "-m", "unokit", "tournament", "--bots", a, b,
               "--players", str(players), "--rules", game, "--games", str(games),
               "--seed", str(seed), "--workers", str(workers), "--json", str(path)]  # fmt: skip
        print(" ".join(cmd[2:]), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc


def row(doc: dict[str, Any]) -> dict[str, Any]:
    first = doc["bots"][0]
    return {
        "bot": first["bot"],
        "vs": doc["bots"][1]["bot"],
        "games": first["games"],
        "wins": first["wins"],
        "rate": first["win_rate"],
        "lo": first["ci95_wilson"][0],
        "hi": first["ci95_wilson"][1],
        "ms": [b.get("ms_per_decision") for b in doc["bots"]],
    }


def verdict(r: dict[str, Any], goal: float) -> str:
    if r["lo"] >= goal:
        return "met"
    if r["rate"] >= goal:
        return "met on the point estimate only"
    return "not met"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--search-games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=50)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, default=Path("runs/ladder"))
    p.add_argument("--games-of", nargs="+", default=["flip", "no-mercy"], dest="rules")
    p.add_argument("--players", type=int, nargs="+", default=[2, 4])
    p.add_argument("--pairs", nargs="*", help="A:B pairs to play (default: every pair)")
    p.add_argument("--verdict", nargs="*", default=[], help="GAME:A:B:PLAYERS:GOAL")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chosen = [tuple(x.split(":")) for x in args.pairs] if args.pairs else pairs(BOTS)
    goals = {tuple(v.split(":")[:4]): float(v.split(":")[4]) for v in args.verdict}
    head = ("game", "players", "bot", "vs", "games", "win rate", "95% CI (Wilson)",
            "ms/decision", "verdict")  # fmt: skip
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for game in args.rules:
        for players in args.players:
            for a, b in chosen:
                n = args.search_games if "ismcts" in (a, b) else args.games
                r = row(play(game, a, b, players, n, args.seed, args.out, args.workers))
                goal = goals.get((game, a, b, str(players)))
                v = f"{verdict(r, goal)} (goal {goal:.0%})" if goal is not None else ""
                ms = " / ".join(f"{m:.2f}" if m is not None else "-" for m in r["ms"])
                print(
                    f"| {game} | {players} | {r['bot']} | {r['vs']} | {r['games']:,} | "
                    f"{r['rate']:.1%} | [{r['lo']:.1%}, {r['hi']:.1%}] | {ms} | {v} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
