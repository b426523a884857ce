"""Decision-quality oracle for the search bot: where a variant overrules the heuristic,
which of the two moves is better?  (docs/bots.md, "How the configuration was chosen".)

Tournaments of a few hundred games cannot tell variants a few points apart, so this
compares them on the only decisions where a search built on the heuristic can gain or
lose: those where it disagrees with the heuristic.  Both seats are played by
``heuristic``; at every decision of the hero (seat ``seed % players``) each variant
observes its events and decides, but the heuristic's move is played.  Wherever a
variant's move differs from the heuristic's, both moves are played out ``--playouts``
times from the *true* position (the oracle may peek: it judges, it does not play) by
heuristic bots, with the draw pile reshuffled per playout and the same shuffles for
both moves.  The gain is the sum of the win-probability differences per 100 games:
roughly the win-rate points the variant's overrides add against ``heuristic``.

    .venv/bin/python benchmarks/research/ismcts_oracle.py --games 150 --first 100 --playouts 100 \\
        "iterations=1000,margin=1.5" "iterations=1000,margin=1"
"""

from __future__ import annotations

import argparse
import ast
import copy
import math
import random
import time
from typing import Any

from unokit.bots import ISMCTSBot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.runner import play_round, step
from unokit.engine import Action, Game, view_of
from unokit.rules import RuleSet


def parse_variant(text: str) -> dict[str, Any]:
    """``"iterations=1000,margin=1.5"`` -> ``{"iterations": 1000, "margin": 1.5}``."""
    out: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"ismcts_oracle: {item!r} is not KEY=VALUE")
        out[key.strip()] = ast.literal_eval(value.strip())
    return out


def value(g: Game, seat: int, act: Action, seed: int, table: list[Any] | None = None) -> float:
    """1 if ``seat`` wins one heuristic playout of ``act`` from the true position.

    With ``table`` the playout's bots are copies of the table's heuristic bots, memory
    included (``--memory``); otherwise fresh bots that start the playout knowing
    nothing of the round so far."""
    w = g.copy()
    random.Random(seed).shuffle(w.pile)
    w.round_rng.seed(seed)
    w.apply(seat, act)
    if table is None:
        bots = [HeuristicBot(seed + i) for i in range(w.n)]
    else:
        bots = copy.deepcopy(table)
        for i, b in enumerate(bots):
            b.__dict__.pop("act", None)  # the oracle's wrapper of a searcher's prior
            b.rng = random.Random(seed + i)
    play_round(w, bots)
    return 1.0 if w.round_winner == seat else 0.0


def run(
    games: int, first: int, playouts: int, players: int, variants: list[str],
    memory: bool = False,
) -> None:  # fmt: skip
    configs = [(name, parse_variant(name)) for name in variants]
    gain: dict[str, list[float]] = {name: [] for name, _ in configs}
    searched = 0
    t0 = time.time()
    for gi in range(first, first + games):
        g = Game(RuleSet(), players, seed=gi)
        hero = gi % players
        bots = [HeuristicBot(gi * 10 + i) for i in range(players)]
        searchers = [(name, ISMCTSBot(seed=gi, **kw)) for name, kw in configs]
        priors: dict[str, Action] = {}
        for name, b in searchers:  # record each searcher's prior (the heuristic's move)
            orig = b.prior.act

            def wrap(
                view: Any, orig: Any = orig, name: str = name, seen: dict[str, Action] = priors
            ) -> Action:
                a: Action = orig(view)
                seen[name] = a
                return a

            b.prior.act = wrap  # type: ignore[method-assign]
        cursor = 0
        while not g.round_over:
            cur = g.current
            actors = g.actors()
            if cur != hero or len(actors) != 1 or actors[0] != cur:
                step(g, bots)
                continue
            events = g.events_for(hero, cursor)
            assert g.events is not None  # a new Game records its events
            cursor = len(g.events)
            view = view_of(g, hero)
            choices: dict[str, Action] = {}
            for name, b in searchers:
                b.observe(events)
                choices[name] = b.act(view)
            prior = priors[searchers[0][0]]
            values: dict[Action, float] = {}
            overruled = [name for name in choices if choices[name] != priors[name]]
            if overruled:
                base = random.Random(gi * 7919 + len(g.discard)).getrandbits(30)
                seeds = [base + k for k in range(playouts)]
                table = None
                if memory:  # the hero's heuristic memory lives in a searcher's prior
                    table = list(bots)
                    table[hero] = searchers[0][1].prior
                for name in overruled:
                    for a in (choices[name], priors[name]):
                        if a not in values:
                            values[a] = sum(value(g, hero, a, s, table) for s in seeds) / playouts
                    gain[name].append(values[choices[name]] - values[priors[name]])
            searched += 1
            g.apply(hero, prior)
    for name, x in gain.items():
        n = len(x)
        total = sum(x)
        sd = math.sqrt(sum((v - total / max(n, 1)) ** 2 for v in x)) if n > 1 else 0.0
        print(
            f"{name:45s} games={games} decisions={searched} overrides={n} "
            f"gain/100games={100 * total / games:+.2f} (se {100 * sd / games:.2f})",
            flush=True,
        )
    print(f"time {time.time() - t0:.0f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=150, help="deals (default 150)")
    p.add_argument("--first", type=int, default=100, help="first game seed (default 100)")
    p.add_argument("--playouts", type=int, default=100, help="playouts per move (default 100)")
    p.add_argument("--players", type=int, default=2)
    p.add_argument(
        "--memory",
        action="store_true",
        help="playouts by copies of the table's heuristic bots, memory included "
        "(default: fresh bots that know nothing of the round so far)",
    )
    p.add_argument("variants", nargs="+", help='ISMCTSBot options, e.g. "iterations=1000"')
    a = p.parse_args()
    run(a.games, a.first, a.playouts, a.players, a.variants, a.memory)


if __name__ == "__main__":
    main()
