"""ismcts strength with its rollouts per decision, on the tournament's own harness.

``unokit tournament`` (duplicated deals, every seat rotation, Wilson intervals) plays
the games; this script adds what the tournament table does not show: how many
rollouts each ``ismcts`` entrant played per decision and per searched decision, and
the CPU time its ``act`` calls took per decision (``ISMCTSBot.stats()``: with the time
bank the mean must stay within the budget).  It runs in one process (the bots are
counted as they are built), so give it one core:

    python benchmarks/bench_ismcts.py --bots ismcts heuristic --players 2 --games 200
    python benchmarks/bench_ismcts.py --bots ismcts ismcts:compiled=false --games 200
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from unokit import tournament  # noqa: E402
from unokit.bots.ismcts import ISMCTSBot  # noqa: E402
from unokit.rules import from_preset  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--bots", nargs="+", required=True)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", default="classic")
    p.add_argument("--json", type=Path)
    args = p.parse_args()
    entrants = tournament.parse_entrants(args.bots)
    built: dict[str, list[Any]] = {e.label: [] for e in entrants}
    for e in entrants:
        real = e.build

        def build(seed: int, _e: Any = e, _real: Any = real) -> Any:
            bot = _real(seed)
            built[_e.label].append(bot)
            return bot

        object.__setattr__(e, "build", build)
    spec = tournament.Spec(tuple(entrants), args.players, from_preset(args.rules), args.seed)
    tally, wall = tournament.run(spec, args.games, workers=1)
    doc = tournament.report(spec, tally, wall, 1)
    print(tournament.format_table(doc))
    print("\nrollouts (ISMCTSBot.stats(), summed over the games):")
    extra: dict[str, Any] = {}
    for label, bots in built.items():
        searchers = [b for b in bots if isinstance(b, ISMCTSBot)]
        if not searchers:
            continue
        dec = sum(b.decisions for b in searchers)
        srch = sum(b.searches for b in searchers)
        roll = sum(b.rollouts for b in searchers)
        cpu = sum(b.cpu for b in searchers)
        settled = sum(b.settled for b in searchers)
        extra[label] = {
            "decisions": dec,
            "searches": srch,
            "rollouts": roll,
            "cpu_s": cpu,
            "settled": settled,
        }
        ms = 1000 * cpu / max(dec, 1)
        print(f"  {label}: {roll / max(dec, 1):,.0f} per decision, "
              f"{roll / max(srch, 1):,.0f} per searched decision ({dec:,} decisions, "
              f"{srch:,} searched, {settled:,} settled early); "
              f"CPU {ms:.1f} ms per decision")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps({"tournament": doc, "rollouts": extra}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
