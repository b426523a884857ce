"""UNO Flip! on the compiled engine, side by side with the Python engine and a bare loop.

Issue 50's goal for the compiled Flip: at least 30 times the Python engine's games/s and
at least 0.8 of a bare numba loop of the same game, at 2 and 4 players.  Every system
plays the simulator's fast ``random`` players under the default Flip rules, in this
process, alternating (``--repeats``):

* ``python``: ``unokit sim --rules flip`` (``unokit.sim.modern``, the reference engine);
* ``compiled``: ``unokit sim --rules flip --engine compiled`` (``unokit.compiled.flip``);
* ``bare`` (single rounds): ``bare_flip_rounds`` below, written for this benchmark: the
  112 two-faced cards with a random pairing per round, the sim's random player (a
  uniformly random play among the distinct playable faces, a wild once per colour;
  else draw one and play it if it plays), every card's effect (Draw One and Five, Reverse,
  Skip and Skip Everyone, the Flip turning both piles and the hands, Wild Draw Two and
  Wild Draw Colour without a challenge), but no UNO calls, catches, challenges,
  scoring, records or counting: the floor for a compiled round of Flip.

Speeds are games per CPU-second of this process (``time.process_time``).

    python benchmarks/bench_compiled_flip.py [--seconds 3] [--repeats 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from unokit import compiled  # noqa: E402
from unokit.compiled.kernel import below  # noqa: E402
from unokit.sim.config import SimConfig  # noqa: E402
from unokit.sim.driver import ChunkTask, run_chunk  # noqa: E402

RNG = 20  # kernel.S_RNG: where ``below`` keeps the generator


@njit(cache=True)
def _draw_one(
    st: np.ndarray, pile: np.ndarray, disc: np.ndarray, npd: np.ndarray,
) -> int:  # fmt: skip
    """The top of the draw pile (refilled from the discards under the top card, shuffled);
    -1 when nothing is left.  ``npd`` = [draw pile size, discard pile size]."""
    if npd[0] == 0:
        nd = npd[1]
        for i in range(nd - 1):
            pile[i] = disc[i]
        npd[0] = nd - 1
        disc[0] = disc[nd - 1]
        npd[1] = 1
        for i in range(npd[0] - 1, 0, -1):
            j = below(st, i + 1)
            t = pile[i]
            pile[i] = pile[j]
            pile[j] = t
        if npd[0] == 0:
            return -1
    npd[0] -= 1
    return pile[npd[0]]


@njit(cache=True)
def bare_flip_rounds(seed: np.uint64, players: int, count: int) -> int:
    """``count`` single rounds of UNO Flip! with random play; returns the decisions."""
    st = np.zeros(RNG + 1, dtype=np.int64)
    st[RNG] = np.int64(seed)
    light = np.empty(112, dtype=np.int64)
    dark = np.empty(112, dtype=np.int64)
    k = 0
    for c in range(4):
        for r in range(1, 14):
            for _ in range(2):
                light[k] = c * 16 + r
                dark[k] = 64 + c * 16 + r
                k += 1
    for _ in range(4):
        light[k] = 128
        dark[k] = 128
        light[k + 4] = 129
        dark[k + 4] = 130
        k += 1
    deck = np.empty(112, dtype=np.int64)
    hands = np.empty((players, 112), dtype=np.int64)
    hs = np.zeros(players, dtype=np.int64)
    pile = np.empty(112, dtype=np.int64)
    disc = np.empty(112, dtype=np.int64)
    npd = np.zeros(2, dtype=np.int64)
    opts = np.empty(112, dtype=np.int64)
    decisions = 0
    for _ in range(count):
        for i in range(111, 0, -1):  # the pairing
            j = below(st, i + 1)
            t = dark[i]
            dark[i] = dark[j]
            dark[j] = t
        for i in range(112):
            deck[i] = i
        for i in range(111, 0, -1):
            j = below(st, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for s in range(players):
            for i in range(7):
                hands[s, i] = deck[s * 7 + i]
            hs[s] = 7
        np_ = 0
        for i in range(players * 7, 112):
            pile[np_] = deck[i]
            np_ += 1
        np_ -= 1
        disc[0] = pile[np_]
        npd[0] = np_
        npd[1] = 1
        side = 0
        f = light[disc[0]]
        color = f >> 4 if f < 128 else below(st, np.int64(4))
        cur = 0
        d = 1
        while True:
            decisions += 1
            top = disc[npd[1] - 1]
            tf = light[top] if side == 0 else dark[top]
            trank = tf & 15 if tf < 128 else -1
            m = 0  # the distinct playable faces, a wild once per colour (the sim's player)
            w = 0
            seen0 = np.int64(0)
            seen1 = np.int64(0)
            seen2 = np.int64(0)
            for i in range(hs[cur]):
                g = light[hands[cur, i]] if side == 0 else dark[hands[cur, i]]
                if not (g >= 128 or g >> 4 == color or (g & 15) == trank):
                    continue
                bit = np.int64(1) << (g & 63)
                if g < 64:
                    if seen0 & bit:
                        continue
                    seen0 |= bit
                elif g < 128:
                    if seen1 & bit:
                        continue
                    seen1 |= bit
                else:
                    if seen2 & bit:
                        continue
                    seen2 |= bit
                opts[m] = i
                m += 1
                w += g >= 128
            if m == 0:
                c = _draw_one(st, pile, disc, npd)
                if c < 0:
                    cur = (cur + d) % players
                    continue
                hands[cur, hs[cur]] = c
                hs[cur] += 1
                g = light[c] if side == 0 else dark[c]
                if not (g >= 128 or g >> 4 == color or (g & 15) == trank):
                    cur = (cur + d) % players
                    continue
                i = hs[cur] - 1
            else:
                j = below(st, m + 3 * w)
                i = -1
                for a in range(m):
                    g = light[hands[cur, opts[a]]] if side == 0 else dark[hands[cur, opts[a]]]
                    span = 4 if g >= 128 else 1
                    if j < span:
                        i = opts[a]
                        break
                    j -= span
            c = hands[cur, i]
            hs[cur] -= 1
            hands[cur, i] = hands[cur, hs[cur]]
            nd = npd[1]
            disc[nd] = c
            npd[1] = nd + 1
            g = light[c] if side == 0 else dark[c]
            color = g >> 4 if g < 128 else side * 4 + below(st, np.int64(4))
            if hs[cur] == 0:
                break
            r = g & 15 if g < 128 else g
            victim = (cur + d) % players
            if r == 10 or r == 129:  # Draw One / Five, Wild Draw Two
                for _ in range(2 if r == 129 else (1 if side == 0 else 5)):
                    c2 = _draw_one(st, pile, disc, npd)
                    if c2 < 0:
                        break
                    hands[victim, hs[victim]] = c2
                    hs[victim] += 1
                cur = (victim + d) % players
            elif r == 130:  # Wild Draw Colour: until the named colour
                while True:
                    c2 = _draw_one(st, pile, disc, npd)
                    if c2 < 0:
                        break
                    hands[victim, hs[victim]] = c2
                    hs[victim] += 1
                    if dark[c2] < 128 and dark[c2] >> 4 == color:
                        break
                cur = (victim + d) % players
            elif r == 11:  # Reverse
                d = -d
                cur = cur if players == 2 else (cur + d) % players
            elif r == 12:  # Skip; Skip Everyone: the player again
                cur = (victim + d) % players if side == 0 else cur
            elif r == 13:  # Flip: the discard pile, the draw pile, the hands
                nd = npd[1]
                for a in range(nd // 2):
                    t = disc[a]
                    disc[a] = disc[nd - 1 - a]
                    disc[nd - 1 - a] = t
                n0 = npd[0]
                for a in range(n0 // 2):
                    t = pile[a]
                    pile[a] = pile[n0 - 1 - a]
                    pile[n0 - 1 - a] = t
                side = 1 - side
                tf = light[disc[nd - 1]] if side == 0 else dark[disc[nd - 1]]
                color = tf >> 4 if tf < 128 else side * 4 + below(st, np.int64(4))
                cur = victim
            else:
                cur = victim
    return decisions


def measure_sim(engine: str, players: int, rounds_only: bool, seconds: float, seed: int
                ) -> dict[str, Any]:  # fmt: skip
    """Chunks of ``unokit sim --rules flip`` games for about ``seconds`` of CPU time."""
    chunk = 2000 if engine == "compiled" else (50 if rounds_only else 5)
    cfg = SimConfig(preset="flip", seats=("random",) * players, games=10**9, seed=seed,
                    rounds_only=rounds_only, engine=engine)  # fmt: skip
    run_chunk(ChunkTask(cfg, 0, 2))  # warm up (and load the compiled kernel)
    games = 0
    start = 10
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        tally = run_chunk(ChunkTask(cfg, start, chunk))
        start += chunk
        games += tally.games
    cpu = time.process_time() - t0
    mode = "rounds" if rounds_only else "games"
    return {"system": engine, "players": players, "mode": mode, "games": games,
            "cpu_s": round(cpu, 3), "games_per_s": round(games / cpu, 1)}  # fmt: skip


def measure_bare(players: int, seconds: float, seed: int) -> dict[str, Any]:
    bare_flip_rounds(np.uint64(seed + 1), players, 10)
    games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        bare_flip_rounds(np.uint64(seed + games + 1), players, 20_000)
        games += 20_000
    cpu = time.process_time() - t0
    return {"system": "bare", "players": players, "mode": "rounds", "games": games,
            "cpu_s": round(cpu, 3), "games_per_s": round(games / cpu, 1)}  # fmt: skip


def best(rows: list[dict[str, Any]], system: str, players: int, mode: str) -> float | None:
    mine = [r["games_per_s"] for r in rows
            if (r["system"], r["players"], r["mode"]) == (system, players, mode)]  # fmt: skip
    return max(mine) if mine else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU time per measurement")
    p.add_argument("--repeats", type=int, default=2, help="alternations of the systems")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, help="write every measurement to this file")
    args = p.parse_args()
    if not compiled.available():
        sys.exit(compiled.INSTALL_HINT)
    rows: list[dict[str, Any]] = []
    for rep in range(args.repeats):
        seed = args.seed + rep
        for players in (2, 4):
            for rounds_only in (True, False):
                for engine in ("python", "compiled"):
                    rows.append(measure_sim(engine, players, rounds_only, args.seconds, seed))
                    print(rows[-1], file=sys.stderr)
            rows.append(measure_bare(players, args.seconds, seed))
            print(rows[-1], file=sys.stderr)
    print(f"\nUNO Flip!\n{'system':<9} {'players':>7} {'mode':<7} {'games/s (CPU)':>14}")
    for mode in ("rounds", "games"):
        for players in (2, 4):
            for system in ("python", "compiled", "bare"):
                v = best(rows, system, players, mode)
                if v is not None:
                    print(f"{system:<9} {players:>7} {mode:<7} {v:>14,.0f}")
    print("\nratios (best of each, same run):")
    ratios: dict[str, float] = {}
    for mode in ("rounds", "games"):
        for players in (2, 4):
            c = best(rows, "compiled", players, mode)
            for other in ("python", "bare"):
                o = best(rows, other, players, mode)
                if c and o:
                    key = f"compiled/{other} {players}p {mode}"
                    ratios[key] = round(c / o, 2)
                    print(f"  {key}: {ratios[key]}x")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
