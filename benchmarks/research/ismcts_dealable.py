"""How many real hands can the bot's default samplers not deal?

At each decision of seat 0 in ``heuristic`` games, for every opponent with voids
(colours or ranks it has shown it lacks, each with the cards it drew since): the
default samplers bar every void from all but the ``free`` newest cards (``free``: the
fewest cards drawn since any void), so a real hand holding more barred cards than
that is never dealt.  With ``layered_voids`` a void bars only the cards drawn before
it; ``tests/test_ismcts.py`` checks that every real hand is dealable then.  (The
default stays, being measured stronger: docs/bots.md, sixth pass.)

    python benchmarks/research/ismcts_dealable.py --players 2 --games 300
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from unokit.bots.heuristic import HeuristicBot  # noqa: E402
from unokit.bots.ismcts import ISMCTSBot, _banned  # noqa: E402
from unokit.bots.runner import step  # noqa: E402
from unokit.engine import Game, view_of  # noqa: E402
from unokit.rules import RuleSet  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--first", type=int, default=9000)
    args = p.parse_args()
    hands = out = 0
    for seed in range(args.first, args.first + args.games):
        g = Game(RuleSet(), args.players, seed=seed, events=True)
        bots = [HeuristicBot(s) for s in range(args.players)]
        reader = ISMCTSBot(seed=seed, iterations=1)
        mark = 0
        while not g.round_over:
            if g.current == 0 and g.phase == 0 and g.color >= 0:
                reader._remember(view_of(g, 0))
                for s in range(1, args.players):
                    voids = reader.voids.get(s, {})
                    bars = {k for k, since in voids.items() if since < len(g.hands[s])}
                    if not bars:
                        continue
                    hands += 1
                    free = min(voids[k] for k in bars)
                    out += sum(_banned(c, bars) for c in g.hands[s]) > free
            reader._remember(view_of(g, 0))
            step(g, bots)
            events = g.events_for(0, mark)
            mark = len(g.events or [])
            reader.observe(events)
    print(
        f"{args.players} players, {args.games} games: {hands} opponent hands with voids at "
        f"seat 0's play decisions; the default samplers cannot deal "
        f"{out} of them ({100 * out / max(hands, 1):.1f}%)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
