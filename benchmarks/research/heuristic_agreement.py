"""How often the compiled heuristic (the search rollouts' policy) plays as HeuristicBot.

At each play decision of ``heuristic`` bots in single classic rounds, ask
``search.heur_choose`` on the same position with the deciding bot's memory (the voids
it read, its challenge counts: ``search.set_memory``) and count: the same play, a play
the compiled values rate equal (a tie broken another way), or another play, with how
much worse the heuristic's play is rated.  ``tests/test_compiled_heuristic.py`` demands
the same play every time, over more rule sets and whole games.  Usage:
``heuristic_agreement.py [GAMES_PER_TABLE_SIZE]`` (docs/architecture.md).
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from unokit import compiled
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.runner import play_round
from unokit.cards import WILD, build_deck
from unokit.compiled import kernel, search
from unokit.engine import DRAW, Action, Game, View
from unokit.engine.game import P_PLAY
from unokit.rules import RuleSet


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    deck_col = search.deck_colours(build_deck(RuleSet().deck))
    buf, _lg, _, cnt, unseen, sc = search.rollout_scratch(deck_col)
    same = ties = 0
    worse: list[float] = []

    class Player(HeuristicBot):
        game: Game
        rules: Any

        def _decide(self, view: View) -> Action:
            nonlocal same, ties
            a = super()._decide(view)
            if view.phase != P_PLAY or view.current != view.seat:
                return a
            st = compiled.state_from_game(self.game)
            search.set_memory(sc, self.lack, self.challenges)
            cnt[search.C_DN] = -1
            k = kernel.playable_cards(st, self.rules, view.seat, buf)
            if k == 0:
                return a
            card, col = search.heur_choose(
                st, self.rules, view.seat, buf, k, deck_col, cnt, unseen, sc
            )
            cards, cols, vals = sc[0], sc[1], sc[2]
            m = search.heur_values(
                st, self.rules, view.seat, buf, k, deck_col, cnt, unseen, cards, cols, vals, sc
            )
            value = {
                (int(cards[i]), int(cols[i]) if cards[i] >= WILD else -1): float(vals[i])
                for i in range(m)
            }
            mine = (-1, -1) if a.kind == DRAW else (a.card, a.color if a.card >= WILD else -1)
            theirs = (int(card), int(col) if card >= WILD else -1)
            if mine == theirs:
                same += 1
            elif value.get(mine) == max(value.values()):
                ties += 1
            else:
                worse.append(round(max(value.values()) - value.get(mine, float("nan")), 3))
            return a

    for players in (2, 3, 4):
        rules = compiled.rules_array(RuleSet(), players, rounds_only=True, reactive=False)
        for d in range(games):
            g = Game(RuleSet(), players, seed=9000 + d, events=False)
            bots = [Player(seed=d * 8 + s) for s in range(players)]
            for b in bots:
                b.game = g
                b.rules = rules
            play_round(g, bots)
    total = same + ties + len(worse)
    print(f"{total} decisions: {same} the same play, {ties} a tie, {len(worse)} another play")
    print("value short of the best, for the others:", sorted(collections.Counter(worse).items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
