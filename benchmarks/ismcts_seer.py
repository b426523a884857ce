"""Diagnostic: how much would ``ismcts`` gain from seeing every hand?

The default bot and the same bot shown the other seats' real hands before each
decision (its ``known`` cards set to them, so the sampler deals only the draw pile)
each play every seat rotation of the same deals against ``heuristic`` bots.  The gap
says how much strength is in the bot's picture of the hidden hands rather than in
its search (docs/bots.md, fifth and sixth passes).  The shown bot is a diagnostic
only: no front end offers it.

    python benchmarks/ismcts_seer.py --players 4 --deals 50 --first 40000
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from unokit.bots.heuristic import HeuristicBot  # noqa: E402
from unokit.bots.ismcts import ISMCTSBot  # noqa: E402
from unokit.bots.runner import play_round  # noqa: E402
from unokit.engine import Game  # noqa: E402
from unokit.engine.view import View  # noqa: E402
from unokit.rules import RuleSet  # noqa: E402


class Seer(ISMCTSBot):
    """``ISMCTSBot`` that is handed the real hands of the game it plays."""

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(seed=seed)
        self.game = game

    def _remember(self, view: View) -> None:
        super()._remember(view)
        hands = self.game.hands
        self.known = {s: Counter(hands[s]) for s in range(view.n) if s != view.seat}
        self.voids = {}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--first", type=int, default=40000)
    args = p.parse_args()
    wins = {"default": 0, "shown the hands": 0}
    games = 0
    for seed in range(args.first, args.first + args.deals):
        for hero in range(args.players):
            for kind in wins:
                g = Game(RuleSet(), args.players, seed=seed, events=True)
                bot = ISMCTSBot(seed=seed * 10 + hero) if kind == "default" else None
                bots: list[object] = [HeuristicBot(seed * 10 + s) for s in range(args.players)]
                bots[hero] = bot or Seer(g, seed * 10 + hero)
                play_round(g, bots)  # type: ignore[arg-type]
                wins[kind] += g.round_winner == hero
            games += 1
    print(json.dumps({"players": args.players, "first": args.first, "games": games, **wins}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
