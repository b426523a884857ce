"""Two diagnostics of ``ismcts`` against ``heuristic`` that win rates are too noisy for.

``beliefs``: at every decision where the bot can weigh its sampled worlds by the
opponent's recent plays (``infer``), deal 300 worlds as the search does and compare,
weighted and unweighted, how close they come to the opponent's real hand: the squared
error of the expected cards of each colour, and the log-likelihood of which colours
it holds.  The real hand is read from the game by this script only, never by the bot.

``wd4``: count Wild Draw Four plays, bluffs and answers (challenged or accepted, legal
or guilty) on both sides.

``wd4-oracle``: what ``ismcts``'s answer to a W+4 (``bluff_far``) is worth.  Two
``heuristic`` bots play; wherever the W+4 answer with ``bluff_far`` differs from the
heuristic's own, both answers are played out ``--playouts`` times from the true
position by fresh ``heuristic`` bots (the same draw pile order for both), and the
difference in the answering seat's wins is summed: points per 100 seat-games.

    python benchmarks/research/ismcts_diag.py beliefs --first 8000 --deals 10
    python benchmarks/research/ismcts_diag.py wd4 --first 5000 --deals 60 [--players 4] \
        --options bluff_far=0.02,rollout_challenges=true,infer=0.1
    python benchmarks/research/ismcts_diag.py wd4-oracle --first 9100 --deals 300 --playouts 30
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

import numpy as np  # noqa: E402

from unokit import tournament  # noqa: E402
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
        from unokit import compiled as fast
        from unokit.compiled import kernel, search

        inf = self._inference(view)
        if inf is None:
            return
        rules = fast.rules_array(view.rules, view.n, rounds_only=True, reactive=False)
        deck = rules[kernel.O_DECK : kernel.O_DECK + rules[kernel.R_DECKSIZE]]
        buf, _, deck_col, cnt, unseen, sc = search.rollout_scratch(search.deck_colours(deck))
        who = inf[1]
        truth = np.zeros(5)
        for c in TABLE["game"].hands[who]:
            truth[CARD_COLOR[c]] += 1
        infa = np.array(inf, dtype=np.int64)
        weights, counts = [], []
        for _ in range(300):
            world = self._sample(view)
            st = fast.state_from_game(world)
            w = search.world_weight(
                st, rules, infa, self.infer, self.infer_floor, st.copy(),
                buf, deck_col, cnt, unseen, sc,
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


ORACLE: list[float] = []  # per changed answer: the new answer's mean gain in wins


class Answerer(HeuristicBot):
    """A heuristic bot that plays its own W+4 answers and scores ``bluff_far``'s."""

    playouts = 30
    bluff_far = 0.02

    def act(self, view: View) -> Action:
        a = super().act(view)
        if view.phase != P_CHALLENGE:
            return a
        COUNT["answers"] += 1
        w = self.w
        near = view.hand_sizes[view.seat] <= w.bluff_when
        ratio = w.prior_bluff if near else self.bluff_far
        if (self._p_bluff(view, ratio) > w.challenge_at) == (a.kind == CHALLENGE):
            return a
        other = next(x for x in view.legal if (x.kind == CHALLENGE) != (a.kind == CHALLENGE))
        gain = 0.0
        for k in range(self.playouts):
            for answer, sign in ((other, 1), (a, -1)):
                game = TABLE["game"].copy(rng=random.Random(k * 7919 + COUNT["answers"]))
                game.apply(view.seat, answer)
                bots = [HeuristicBot(seed=k * 2 + s) for s in range(game.n)]
                play_round(Match(game, bots, timing=Timing.instant()), max_steps=100_000)
                gain += sign * (game.round_winner == view.seat)
        ORACLE.append(gain / self.playouts)
        return a


def oracle(first: int, deals: int, playouts: int) -> None:
    Answerer.playouts = playouts
    for d in range(first, first + deals):
        game = Game(RuleSet(), ["P0", "P1"], seed=d, events=False)
        TABLE["game"] = game
        bots = [Answerer(d * 2), Answerer(d * 2 + 1)]
        play_round(Match(game, bots, timing=Timing.instant()), max_steps=100_000)
    games = 2 * deals  # each deal is a game for each of its two seats
    n = len(ORACLE)
    mean = sum(ORACLE) / games * 100
    sd = statistics.pstdev(ORACLE) if n > 1 else 0.0
    se = sd * math.sqrt(n) / games * 100
    print(f"{deals} deals, {COUNT['answers']} W+4 answers, {n} changed by bluff_far")
    print(f"  gain: {mean:+.2f} wins per 100 seat-games (se {se:.2f}); "
          f"{100 * sum(ORACLE) / max(n, 1):+.1f} points per changed answer")  # fmt: skip


class Opponent(HeuristicBot):
    def act(self, view: View) -> Action:
        a = super().act(view)
        wd4_tally("heuristic", view, a)
        return a


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("what", choices=["beliefs", "wd4", "wd4-oracle"])
    p.add_argument("--first", type=int, default=8000)
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--playouts", type=int, default=30)
    p.add_argument("--options", default="", help="ismcts options, as in `unokit tournament`")
    p.add_argument("--players", type=int, default=2, help="table size for beliefs and wd4")
    args = p.parse_args()
    options = dict(tournament.parse_entrant(f"ismcts:{args.options}").options)
    if args.what == "beliefs":
        options.setdefault("infer", 0.1)  # the bot keeps the plays to weigh by only then
    if args.what == "wd4-oracle":
        oracle(args.first, args.deals, args.playouts)
        return 0
    Hero.mode = args.what
    wins = games = 0
    n = args.players
    for d in range(args.first, args.first + args.deals):
        for hero in range(n):
            opts: dict[str, Any] = {"iterations": 60} if args.what == "beliefs" else {}
            opts.update(options)
            bots: list[Any] = [Opponent(d * 16 + 1 + s) for s in range(n)]
            bots[hero] = Hero(d * 16, **opts)
            game = Game(RuleSet(), [f"P{s}" for s in range(n)], seed=d, events=True)
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
