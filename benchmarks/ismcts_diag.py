"""Two diagnostics of ``ismcts`` against ``heuristic`` that win rates are too noisy for.

``beliefs``: at every decision where the bot can weigh its sampled worlds by the
opponent's recent plays (``infer``), deal 300 worlds as the search does and compare,
weighted and unweighted, how close they come to the opponent's real hand: the squared
error of the expected cards of each colour, and the log-likelihood of which colours
it holds.  The real hand is read from the game by this script only, never by the bot.

``wd4``: count Wild Draw Four plays, bluffs and answers (challenged or accepted, legal
or guilty) on both sides.

    python benchmarks/ismcts_diag.py beliefs --first 8000 --deals 10
    python benchmarks/ismcts_diag.py wd4 --first 5000 --deals 60
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import numpy as np  # noqa: E402

from unokit.bots.heuristic import HeuristicBot  # noqa: E402
from unokit.bots.ismcts import ISMCTSBot  # noqa: E402
from unokit.bots.runner import play_round  # noqa: E402
from unokit.cards import CARD_COLOR, WILD_DRAW4  # noqa: E402
from unokit.engine.actions import CHALLENGE, PLAY, Action  # noqa: E402
from unokit.engine.game import P_CHALLENGE, P_PLAY, Game  # noqa: E402
from unokit.engine.view import View  # noqa: E402
from unokit.match import Match, Timing  # noqa: E402
from unokit.rules import RuleSet  # noqa: E402

TABLE: dict[str, Game] = {}
COUNT: collections.Counter[str] = collections.Counter()
SUMS: dict[str, float] = collections.defaultdict(float)


def holds(game: Game, seat: int, colour: int) -> bool:
    return any(CARD_COLOR[c] == colour for c in game.hands[seat])


def wd4_tally(side: str, view: View, a: Action) -> None:
    game = TABLE["game"]
    if a.kind == PLAY and a.card == WILD_DRAW4:
        COUNT[f"{side} W+4 played"] += 1
        if holds(game, view.seat, view.color):
            COUNT[f"{side} W+4 bluffs"] += 1
    if view.phase == P_CHALLENGE:
        guilty = "bluff" if holds(game, view.wd4_by, view.prev_color) else "legal"
        answer = "challenged" if a.kind == CHALLENGE else "accepted"
        COUNT[f"{side} answered a {guilty} W+4: {answer}"] += 1


class Hero(ISMCTSBot):
    def act(self, view: View) -> Action:
        if self.mode == "beliefs" and view.phase == P_PLAY:
            self._remember(view)
            self.weigh(view)
        a = super().act(view)
        wd4_tally("ismcts", view, a)
        return a

    mode = "wd4"

    def weigh(self, view: View) -> None:
        from unokit.sim import compiled as fast
        from unokit.sim.compiled import kernel, search

        inf = self._inference(view)
        if inf is None:
            return
        rules = fast.rules_array(view.rules, view.n, rounds_only=True, reactive=False)
        deck_col = np.zeros(5, dtype=np.int64)
        for i in range(rules[kernel.R_DECKSIZE]):
            deck_col[kernel.ccolor(rules[kernel.O_DECK + i])] += 1
        who = inf[1]
        truth = np.zeros(5)
        for c in TABLE["game"].hands[who]:
            truth[CARD_COLOR[c]] += 1
        infa = np.array(inf, dtype=np.int64)
        i64 = np.int64
        weights, counts = [], []
        for _ in range(300):
            world = self._sample(view)
            st = fast.state_from_game(world)
            w = search.world_weight(
                st, rules, infa, self.infer, self.infer_floor, st.copy(),
                np.empty(kernel.HCAP, dtype=i64), deck_col, np.zeros(57, dtype=i64),
                np.zeros(5, dtype=i64), np.zeros((3, kernel.HCAP + 1)),
            )  # fmt: skip
            cc = np.zeros(5)
            for c in world.hands[who]:
                cc[CARD_COLOR[c]] += 1
            weights.append(w)
            counts.append(cc)
        ws, cs = np.array(weights), np.array(counts)
        has = truth > 0
        for tag, wt in (("uniform", np.ones_like(ws)), ("weighted", ws)):
            mean = (wt[:, None] * cs).sum(0) / wt.sum()
            p = np.clip(((cs > 0) * wt[:, None]).sum(0) / wt.sum(), 1e-3, 1 - 1e-3)
            SUMS[f"{tag} sq err"] += float(((mean - truth) ** 2).sum())
            SUMS[f"{tag} loglik"] += float(np.where(has, np.log(p), np.log(1 - p)).sum())
        SUMS["ess share"] += float(ws.sum() ** 2 / (ws**2).sum() / len(ws))
        COUNT["cases"] += 1


class Opponent(HeuristicBot):
    def act(self, view: View) -> Action:
        a = super().act(view)
        wd4_tally("heuristic", view, a)
        return a


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("what", choices=["beliefs", "wd4"])
    p.add_argument("--first", type=int, default=8000)
    p.add_argument("--deals", type=int, default=10)
    args = p.parse_args()
    Hero.mode = args.what
    wins = games = 0
    for d in range(args.first, args.first + args.deals):
        for hero in range(2):
            opts: dict[str, Any] = {"iterations": 60} if args.what == "beliefs" else {}
            bots: list[Any] = [None, None]
            bots[hero] = Hero(d * 16, **opts)
            bots[1 - hero] = Opponent(d * 16 + 1)
            game = Game(RuleSet(), ["P0", "P1"], seed=d, events=True)
            TABLE["game"] = game
            play_round(Match(game, bots, timing=Timing.instant()), max_steps=100_000)
            games += 1
            wins += game.round_winner == hero
    print(f"{games} games, ismcts won {wins}")
    n = COUNT.pop("cases", 0)
    if n:
        print(f"{n} decisions with worlds to weigh")
        for key in ("uniform sq err", "weighted sq err", "uniform loglik", "weighted loglik",
                    "ess share"):  # fmt: skip
            print(f"  {key}: {SUMS[key] / n:.4f}")
    for key, v in sorted(COUNT.items()):
        print(f"  {key}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
