"""Diagnostic: how much would ``ismcts`` gain from seeing every hand?

The default bot and the same bot shown the other seats' real hands before each
decision (its ``known`` cards set to them, so the sampler deals only the draw pile)
each play every seat rotation of the same deals against ``heuristic`` bots.  The gap
says how much strength is in the bot's picture of the hidden hands rather than in
its search (docs/bots.md, fifth and sixth passes).  The shown bot is a diagnostic
only: no front end offers it.

    python benchmarks/research/ismcts_seer.py --players 4 --deals 50 --first 40000

``--show next`` hands it only the hand of the seat that plays after it, ``--show
voids`` only which colours (wilds counted as a colour) each other seat holds none of,
on top of what it reads itself; ``--no-default`` skips the default bot (when its
games on those deals are already counted).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from unokit.bots.heuristic import HeuristicBot  # noqa: E402
from unokit.bots.ismcts import ISMCTSBot  # noqa: E402
from unokit.bots.runner import play_round  # noqa: E402
from unokit.cards import CARD_COLOR  # noqa: E402
from unokit.engine import Game  # noqa: E402
from unokit.engine.view import View  # noqa: E402
from unokit.rules import RuleSet  # noqa: E402


class Seer(ISMCTSBot):
    """``ISMCTSBot`` that is handed the real hands of the game it plays."""

    def __init__(self, game: Game, seed: int, show: str = "all") -> None:
        super().__init__(seed=seed)
        self.game = game
        self.show = show

    def _remember(self, view: View) -> None:
        super()._remember(view)
        hands = self.game.hands
        others = [s for s in range(view.n) if s != view.seat and view.live[s]]
        if self.show == "all":
            self.known = {s: Counter(hands[s]) for s in others}
            self.voids = {}
        elif self.show == "next":
            nxt = self.game.next_seat(view.seat)
            self.known = {nxt: Counter(hands[nxt])}  # replaces what it had read
            self.voids.pop(nxt, None)
        else:  # voids: the colours each seat holds none of, on top of its own reading
            for s in others:
                held = {CARD_COLOR[c] for c in hands[s]}
                self.voids.setdefault(s, {}).update({c: 0 for c in range(5) if c not in held})


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--first", type=int, default=40000)
    p.add_argument("--show", choices=["all", "next", "voids"], default="all")
    p.add_argument("--no-default", action="store_true")
    args = p.parse_args()
    shown = {"all": "shown the hands", "next": "shown the next hand", "voids": "shown voids"}
    wins = {"default": 0} if not args.no_default else {}
    wins[shown[args.show]] = 0
    games = 0
    for seed in range(args.first, args.first + args.deals):
        for hero in range(args.players):
            for kind in wins:
                g = Game(RuleSet(), args.players, seed=seed, events=True)
                bot = ISMCTSBot(seed=seed * 10 + hero) if kind == "default" else None
                bots: list[object] = [HeuristicBot(seed * 10 + s) for s in range(args.players)]
                bots[hero] = bot or Seer(g, seed * 10 + hero, args.show)
                play_round(g, bots)  # type: ignore[arg-type]
                wins[kind] += g.round_winner == hero
            games += 1
    print(json.dumps({"players": args.players, "first": args.first, "games": games, **wins}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
