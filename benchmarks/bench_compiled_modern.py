"""UNO Flip! and No Mercy on the compiled engine, beside the Python engine and bare loops.

Issue 50's goal for both compiled games: at least 30 times the Python engine's games/s
and at least 0.8 of a bare numba loop of the same game, at 2 and 4 players.  Every
system plays the simulator's fast ``random`` players under each game's default rules,
in this process, alternating (``--repeats``):

* ``python``: ``unokit sim --rules flip`` / ``no-mercy`` (``unokit.sim.modern``, the
  reference engine);
* ``compiled``: the same with ``--engine compiled`` (``unokit.compiled.flip``,
  ``unokit.compiled.nomercy``);
* ``bare`` (single rounds): ``bare_flip_rounds`` below, written for this benchmark: the
  112 two-faced cards with a random pairing per round, the sim's random player (a
  uniformly random play among the distinct playable faces, a wild once per colour;
  else draw one and play it if it plays), every card's effect (Draw One and Five, Reverse,
  Skip and Skip Everyone, the Flip turning both piles and the hands, Wild Draw Two and
  Wild Draw Colour without a challenge), but no UNO calls, catches, challenges,
  scoring, records or counting: the floor for a compiled round of Flip;
* ``bare`` for No Mercy: ``bare_nm_rounds``, the same idea: the 168 cards, the same
  random player (a wild once per colour, a 7 once per target), every card's effect
  (stacks by value, answered at random when the target can, else drawn; Skip, Reverse,
  Skip Everyone, Discard All, 7 swaps, 0 passes, the Roulette), the Mercy rule with its
  knock-outs and set-aside cards; no UNO calls, catches, scoring, records or counting.

Speeds are games per CPU-second of this process (``time.process_time``).

    python benchmarks/bench_compiled_modern.py [--seconds 3] [--repeats 2] [--json FILE]
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


# No Mercy's cards (modern_cards): colour * 16 + rank, ranks 0-9 then S R +2 +4 SE DA;
# wilds 65 WR+4, 66 W+6, 67 W+10, 68 WCR


@njit(cache=True)
def _nm_deck() -> np.ndarray:
    deck = np.empty(168, dtype=np.int64)
    k = 0
    per = (2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 2, 2, 3)  # 0-9, S, R, +2, +4, SE, DA
    for c in range(4):
        for r in range(16):
            for _ in range(per[r]):
                deck[k] = c * 16 + r
                k += 1
    for w, m in ((65, 8), (66, 4), (67, 4), (68, 8)):
        for _ in range(m):
            deck[k] = w
            k += 1
    return deck


@njit(cache=True)
def _nm_value(c: int) -> int:
    if c >= 64:
        return 4 if c == 65 else (6 if c == 66 else (10 if c == 67 else 0))
    r = c & 15
    return 2 if r == 12 else (4 if r == 13 else 0)


@njit(cache=True)
def _nm_give(
    st: np.ndarray, seat: int, hands: np.ndarray, hs: np.ndarray, pile: np.ndarray,
    disc: np.ndarray, aside: np.ndarray, cnt: np.ndarray, live: np.ndarray,
) -> int:  # fmt: skip
    """One card to ``seat`` (refilling from the discards and set-aside cards); -1: none
    left, -2: the seat is knocked out (25 cards, its hand set aside).  ``cnt`` = [draw
    pile, discard pile, set aside, live seats]."""
    if cnt[0] == 0:
        m = cnt[1] - 1
        for i in range(m):
            pile[i] = disc[i]
        for i in range(cnt[2]):
            pile[m + i] = aside[i]
        cnt[0] = m + cnt[2]
        cnt[2] = 0
        disc[0] = disc[cnt[1] - 1]
        cnt[1] = 1
        for i in range(cnt[0] - 1, 0, -1):
            j = below(st, i + 1)
            t = pile[i]
            pile[i] = pile[j]
            pile[j] = t
        if cnt[0] == 0:
            return -1
    cnt[0] -= 1
    c = pile[cnt[0]]
    hands[seat, hs[seat]] = c
    hs[seat] += 1
    if hs[seat] >= 25:
        for i in range(hs[seat]):
            aside[cnt[2] + i] = hands[seat, i]
        cnt[2] += hs[seat]
        hs[seat] = 0
        live[seat] = 0
        cnt[3] -= 1
        return -2
    return c


@njit(cache=True)
def _nm_next(cur: int, d: int, players: int, live: np.ndarray) -> int:
    s = (cur + d) % players
    while live[s] == 0:
        s = (s + d) % players
    return s


@njit(cache=True)
def bare_nm_rounds(seed: np.uint64, players: int, count: int) -> int:
    """``count`` single hands of No Mercy with random play; returns the decisions."""
    st = np.zeros(RNG + 1, dtype=np.int64)
    st[RNG] = np.int64(seed)
    deck = _nm_deck()
    hands = np.empty((players, 168), dtype=np.int64)
    tmp = np.empty((players, 168), dtype=np.int64)
    hs = np.zeros(players, dtype=np.int64)
    ths = np.zeros(players, dtype=np.int64)
    live = np.ones(players, dtype=np.int64)
    pile = np.empty(168, dtype=np.int64)
    disc = np.empty(168, dtype=np.int64)
    aside = np.empty(168, dtype=np.int64)
    cnt = np.zeros(4, dtype=np.int64)
    opts = np.empty(168, dtype=np.int64)
    decisions = 0
    for _ in range(count):
        for i in range(167, 0, -1):
            j = below(st, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for s in range(players):
            for i in range(7):
                hands[s, i] = deck[s * 7 + i]
            hs[s] = 7
            live[s] = 1
        np_ = 0
        for i in range(players * 7, 168):
            pile[np_] = deck[i]
            np_ += 1
        nd = 0
        while True:  # NM-START-1: action cards stay under the first number
            np_ -= 1
            disc[nd] = pile[np_]
            nd += 1
            if pile[np_] < 64 and pile[np_] & 15 <= 9:
                break
        cnt[0] = np_
        cnt[1] = nd
        cnt[2] = 0
        cnt[3] = players
        color = disc[nd - 1] >> 4
        cur = 0
        d = 1
        pend = 0  # the pending stack's total and last value
        last = 0
        while cnt[3] > 1:
            decisions += 1
            top = disc[cnt[1] - 1]
            trank = top & 15 if top < 64 else -1
            k = hs[cur]
            m = 0
            w = 0
            seen0 = np.int64(0)
            seen1 = np.int64(0)
            for i in range(k):
                c = hands[cur, i]
                if pend > 0:
                    if _nm_value(c) < last:
                        continue
                elif not (c >= 64 or c >> 4 == color or (c & 15) == trank):
                    continue
                bit = np.int64(1) << (c & 63)
                if c < 64:
                    if seen0 & bit:
                        continue
                    seen0 |= bit
                else:
                    if seen1 & bit:
                        continue
                    seen1 |= bit
                opts[m] = i
                m += 1
                if c >= 64 and c != 68:
                    w += 3
                elif c < 64 and c & 15 == 7 and pend == 0 and k > 1:
                    w += cnt[3] - 2
            if m == 0 and pend > 0:  # absorb the stack, lose the turn
                for _ in range(pend):
                    if _nm_give(st, cur, hands, hs, pile, disc, aside, cnt, live) < 0:
                        break
                pend = 0
                if cnt[3] > 1:
                    cur = _nm_next(cur, d, players, live)
                continue
            if m == 0:  # draw until a playable card comes, then play it
                got = -1
                while True:
                    got = _nm_give(st, cur, hands, hs, pile, disc, aside, cnt, live)
                    if got < 0:
                        break
                    if got >= 64 or got >> 4 == color or (got & 15) == trank:
                        break
                if got == -2:
                    if cnt[3] > 1:
                        cur = _nm_next(cur, d, players, live)
                    continue
                if got < 0:
                    cur = _nm_next(cur, d, players, live)
                    continue
                i = hs[cur] - 1
            else:
                j = below(st, m + w)
                i = -1
                for a in range(m):
                    c = hands[cur, opts[a]]
                    span = 1
                    if c >= 64 and c != 68:
                        span = 4
                    elif c < 64 and c & 15 == 7 and pend == 0 and k > 1:
                        span = cnt[3] - 1
                    if j < span:
                        i = opts[a]
                        break
                    j -= span
            c = hands[cur, i]
            for a in range(i + 1, hs[cur]):
                hands[cur, a - 1] = hands[cur, a]
            hs[cur] -= 1
            r = c & 15 if c < 64 else c
            if r == 15:  # Discard All: the colour's other cards under it
                kept = 0
                for a in range(hs[cur]):
                    x = hands[cur, a]
                    if x < 64 and x >> 4 == c >> 4:
                        disc[cnt[1]] = x
                        cnt[1] += 1
                    else:
                        hands[cur, kept] = x
                        kept += 1
                hs[cur] = kept
            disc[cnt[1]] = c
            cnt[1] += 1
            color = c >> 4 if c < 64 else (below(st, np.int64(4)) if c != 68 else color)
            if hs[cur] == 0:
                break
            v = _nm_value(c)
            if v > 0:
                pend += v
                last = v
                if c == 65:
                    d = -d
                cur = _nm_next(cur, d, players, live)
            elif r == 7:
                t = _nm_next(cur, 1, players, live)
                for _ in range(below(st, cnt[3] - 1)):
                    t = _nm_next(t, 1, players, live)
                if t == cur:
                    t = _nm_next(t, 1, players, live)
                for a in range(max(hs[cur], hs[t])):
                    x = hands[cur, a]
                    hands[cur, a] = hands[t, a]
                    hands[t, a] = x
                x = hs[cur]
                hs[cur] = hs[t]
                hs[t] = x
                cur = _nm_next(cur, d, players, live)
            elif r == 0:
                for s in range(players):
                    ths[s] = hs[s]
                    for a in range(hs[s]):
                        tmp[s, a] = hands[s, a]
                for s in range(players):
                    if live[s]:
                        t = _nm_next(s, d, players, live)
                        hs[t] = ths[s]
                        for a in range(ths[s]):
                            hands[t, a] = tmp[s, a]
                cur = _nm_next(cur, d, players, live)
            elif r == 10:
                cur = _nm_next(_nm_next(cur, d, players, live), d, players, live)
            elif r == 11:
                if cnt[3] == 2:
                    continue
                d = -d
                cur = _nm_next(cur, d, players, live)
            elif r == 14:
                continue
            elif c == 68:  # the Roulette: the victim names a colour, reveals until it
                victim = _nm_next(cur, d, players, live)
                color = below(st, np.int64(4))
                while True:
                    got = _nm_give(st, victim, hands, hs, pile, disc, aside, cnt, live)
                    if got < 0 or (got < 64 and got >> 4 == color):
                        break
                if cnt[3] > 1:
                    cur = _nm_next(victim, d, players, live)
            else:
                cur = _nm_next(cur, d, players, live)
    return decisions


def measure_sim(game: str, engine: str, players: int, rounds_only: bool, seconds: float,
                seed: int) -> dict[str, Any]:  # fmt: skip
    """Chunks of ``unokit sim --rules GAME`` games for about ``seconds`` of CPU time."""
    chunk = 2000 if engine == "compiled" else (50 if rounds_only else 5)
    cfg = SimConfig(preset=game, seats=("random",) * players, games=10**9, seed=seed,
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
    return {"game": game, "system": engine, "players": players, "mode": mode, "games": games,
            "cpu_s": round(cpu, 3), "games_per_s": round(games / cpu, 1)}  # fmt: skip


def measure_bare(game: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    loop = bare_flip_rounds if game == "flip" else bare_nm_rounds
    loop(np.uint64(seed + 1), players, 10)
    games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        loop(np.uint64(seed + games + 1), players, 20_000)
        games += 20_000
    cpu = time.process_time() - t0
    gps = round(games / cpu, 1)
    return {"game": game, "system": "bare", "players": players, "mode": "rounds",
            "games": games, "cpu_s": round(cpu, 3), "games_per_s": gps}  # fmt: skip


def best(rows: list[dict[str, Any]], game: str, system: str, players: int, mode: str
         ) -> float | None:  # fmt: skip
    key = (game, system, players, mode)
    mine = [r["games_per_s"] for r in rows
            if (r["game"], r["system"], r["players"], r["mode"]) == key]  # fmt: skip
    return max(mine) if mine else None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU time per measurement")
    p.add_argument("--repeats", type=int, default=2, help="alternations of the systems")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path, help="write every measurement to this file")
    p.add_argument("--game", choices=("flip", "no-mercy", "both"), default="both")
    args = p.parse_args()
    if not compiled.available():
        sys.exit(compiled.INSTALL_HINT)
    games_ = [g for g in ("flip", "no-mercy") if args.game in (g, "both")]
    rows: list[dict[str, Any]] = []
    for rep in range(args.repeats):
        seed = args.seed + rep
        for game in games_:
            for players in (2, 4):
                for rounds_only in (True, False):
                    for engine in ("python", "compiled"):
                        rows.append(
                            measure_sim(game, engine, players, rounds_only, args.seconds, seed)
                        )
                        print(rows[-1], file=sys.stderr)
                rows.append(measure_bare(game, players, args.seconds, seed))
                print(rows[-1], file=sys.stderr)
    ratios: dict[str, float] = {}
    for game in games_:
        print(f"\n{game}\n{'system':<9} {'players':>7} {'mode':<7} {'games/s (CPU)':>14}")
        for mode in ("rounds", "games"):
            for players in (2, 4):
                for system in ("python", "compiled", "bare"):
                    v = best(rows, game, system, players, mode)
                    if v is not None:
                        print(f"{system:<9} {players:>7} {mode:<7} {v:>14,.0f}")
        print("ratios (best of each, same run):")
        for mode in ("rounds", "games"):
            for players in (2, 4):
                c = best(rows, game, "compiled", players, mode)
                for other in ("python", "bare"):
                    o = best(rows, game, other, players, mode)
                    if c and o:
                        key = f"{game} compiled/{other} {players}p {mode}"
                        ratios[key] = round(c / o, 2)
                        print(f"  {key}: {ratios[key]}x")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
