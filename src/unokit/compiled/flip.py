"""UNO Flip! on the compiled engine: the arrays its kernel (``flip_kernel``) reads, its
games as ``Tally`` counts, and each game as a record and a final state.

The twin of ``unokit.sim.modern.ModernTable`` for Flip: the same fast players, the same
counts (turns, draw turns, challenges, catches, flips), other random streams.  Every
game it plays can be written as a record (RECORD.md, the pairing in the deck's codes)
and replayed through the reference engine (``unokit.compiled.check_game``).

Every option of Flip is covered, ``multi_play`` included (the fast players play
several cards at once there, as in ``sim/modern.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from unokit import simbase
from unokit.modern_cards import (
    DARK,
    FACE_CODE,
    FACE_POINTS,
    FLIP_COLOR_CODES,
    LIGHT,
    SIDE_NAMES,
    pair_code,
    side_faces,
)
from unokit.rules import RuleSet, from_preset
from unokit.simbase import Tally

SCORINGS = ("standard", "low", "first-out")
LIGHTS = tuple(side_faces(LIGHT))
DARKS = tuple(side_faces(DARK))


def unsupported(rules: RuleSet) -> str | None:
    """Why the compiled engine cannot play these Flip rules, or None: it plays them all
    (``flip_pairing`` has one value, the seeded random pairing)."""
    return None


def rules_array(rules: RuleSet, players: int, rounds_only: bool) -> np.ndarray:
    """The flat rules array the kernel reads (``flip_kernel.R_*``)."""
    from unokit.compiled import flip_kernel as fk

    r = np.zeros(fk.RULES_SIZE, dtype=np.int64)
    r[fk.R_N] = players
    r[fk.R_HAND] = rules.deal_size
    r[fk.R_TARGET] = rules.target_score
    r[fk.R_SCORING] = SCORINGS.index(rules.scoring)
    r[fk.R_UNOPEN] = rules.uno_penalty
    r[fk.R_BLUFF] = int(rules.wd4_bluffing)
    r[fk.R_UNTIL] = int(rules.draw_until_playable)
    r[fk.R_FORCE] = int(rules.force_play_drawn)
    r[fk.R_FSTART] = ("redraw", "flip").index(rules.flip_start)
    r[fk.R_FINVERT] = int(rules.flip_inverts_discard)
    r[fk.R_FEXPOSED] = int(rules.flip_exposed_action)
    r[fk.R_FWILDCOL] = ("flipper", "next_player").index(rules.flip_wild_color)
    r[fk.R_FLAST] = ("flip", "no_flip").index(rules.flip_last_card)
    r[fk.R_ROUNDS_ONLY] = int(rounds_only)
    r[fk.R_MAXDEC] = simbase.MAX_DECISIONS  # read now: tests lower it
    r[fk.R_MULTI] = int(rules.multi_play)
    r[fk.R_JUMPIN] = int(rules.jump_in)
    r[fk.O_LIGHT : fk.O_LIGHT + fk.NDECK] = LIGHTS
    r[fk.O_DARKS : fk.O_DARKS + fk.NDECK] = DARKS
    r[fk.O_POINTS : fk.O_POINTS + fk.NUM_FACES] = FACE_POINTS
    return r


def run_chunk(
    R: np.ndarray, P: np.ndarray, base: np.uint64, dealer: int, players: int, start: int,
    size: int,
) -> Tally:  # fmt: skip
    """Games ``start`` .. ``start + size - 1`` as a ``Tally`` (``ModernTable.play``'s counts)."""
    from unokit.compiled import flip_kernel as fk
    from unokit.compiled.common import hist, modern_tally

    games, rounds, nr = fk.run_games(R, P, base, start, size, dealer)
    tally = modern_tally(fk, games, rounds, nr, players)
    tally.flips = hist(games[games[:, fk.G_STALLED] == 0][:, fk.G_FLIPS])
    return tally


def play_logged(
    R: np.ndarray, P: np.ndarray, base: np.uint64, dealer: int, index: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Game ``index`` with its log: ``(state, log, stalled)``."""
    from unokit.compiled import flip_kernel as fk
    from unokit.compiled.common import modern_logged

    return modern_logged(fk, R, P, base, dealer, index)


def record(rules: RuleSet, players: int, log: np.ndarray) -> dict[str, Any]:
    """RECORD.md's JSON from the kernel's log (``flip_kernel``'s docstring: the tags)."""
    from unokit.engine.actions import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, KEEP, PLAY, UNO

    rounds: list[dict[str, Any]] = []
    cur: dict[str, Any] = {}
    darks: list[int] = list(DARKS)
    pos = 0
    words = log.tolist()

    def codes(cards: Sequence[int]) -> list[str]:
        return [pair_code(LIGHTS[c], darks[c]) for c in cards]

    simple = {DRAW: "draw", KEEP: "keep", CHALLENGE: "challenge", ACCEPT: "accept"}
    while pos < len(words):
        tag = words[pos]
        if tag == 5:
            darks = words[pos + 1 : pos + 1 + len(LIGHTS)]
            pos += 1 + len(LIGHTS)
        elif tag == 4:
            dealer, m = words[pos + 1], words[pos + 2]
            cur = {"dealer": dealer, "deck": codes(words[pos + 3 : pos + 3 + m]), "seed": 0,
                   "shuffles": [], "actions": []}  # fmt: skip
            rounds.append(cur)
            pos += 3 + m
        elif tag == 1:
            seat, kind, card, color, target, uno = words[pos + 1 : pos + 7]
            act: dict[str, Any] = {"seat": seat}
            if kind == PLAY:
                act["play"] = FACE_CODE[card]
                if color >= 0:
                    act["color"] = FLIP_COLOR_CODES[color]
                if uno:
                    act["uno"] = True
            elif kind == COLOR:
                act["color"] = FLIP_COLOR_CODES[color]
            elif kind == CATCH:
                act["catch"] = target
            elif kind == UNO:
                act["uno"] = True
            else:
                act[simple[kind]] = True
            cur["actions"].append(act)
            pos += 7
        elif tag == 6:
            seat, uno, m = words[pos + 1 : pos + 4]
            act = {"seat": seat, "cards": [FACE_CODE[f] for f in words[pos + 4 : pos + 4 + m]]}
            if uno:
                act["uno"] = True
            cur["actions"].append(act)
            pos += 4 + m
        elif tag == 2:
            m = words[pos + 1]
            cur["shuffles"].append(codes(words[pos + 2 : pos + 2 + m]))
            pos += 2 + m
        else:  # pragma: no cover - the kernel writes only these tags
            raise simbase.SimError(f"corrupt compiled-engine log: tag {tag} at {pos}")
    for r in rounds:
        if not r["shuffles"]:
            del r["shuffles"]
    return {
        "format": "uno-record/1",
        "rules": rules.to_spec(),
        "players": [f"Player {i}" for i in range(players)],
        "rounds": rounds,
    }


def state_json(st: np.ndarray, rules: RuleSet) -> dict[str, Any]:
    """The compiled state as ``FlipGame.state_json`` shows it."""
    from unokit.compiled import flip_kernel as fk
    from unokit.compiled import kernel as k

    n = int(st[k.S_N])
    side = int(st[fk.S_SIDE])
    darks = st[fk.O_DARK : fk.O_DARK + fk.NDECK].tolist()

    def face(c: int) -> int:
        return LIGHTS[c] if side == LIGHT else darks[c]

    def code(c: int) -> str:
        return pair_code(LIGHTS[c], darks[c])

    hands = []
    for s in range(n):
        b = k.O_HANDS + s * k.HCAP
        hands.append([FACE_CODE[face(c)] for c in st[b : b + st[k.O_HS + s]].tolist()])
    nd = int(st[k.S_NDISC])
    npile = int(st[k.S_NPILE])
    disc = st[k.O_DISC : k.O_DISC + nd].tolist()
    pile = st[k.O_PILE : k.O_PILE + npile].tolist()
    color = int(st[k.S_COLOR])
    phase = int(st[k.S_PHASE])
    rw = int(st[k.S_RWIN])
    gw = int(st[k.S_GWIN])
    return {
        "game": "flip",
        "hands": hands,
        "top": FACE_CODE[face(disc[-1])] if nd else None,
        "color": FLIP_COLOR_CODES[color] if color >= 0 else None,
        "current": int(st[k.S_CUR]),
        "direction": int(st[k.S_DIR]),
        "draw_pile": npile,
        "discard_pile": nd,
        "round_over": phase >= fk.P_ROUND_OVER,
        "round_winner": rw if rw >= 0 else None,
        "scores": [int(x) for x in st[k.O_SCORES : k.O_SCORES + n]],
        "game_over": phase == fk.P_GAME_OVER,
        "game_winner": gw if gw >= 0 else None,
        "side": SIDE_NAMES[side],
        "discard": [code(c) for c in disc],
        "pile": [code(c) for c in reversed(pile)],
    }


def warm(check: bool) -> None:
    """Compile, or load from numba's cache, what a Flip simulation runs."""
    from unokit.compiled import flip_kernel as fk
    from unokit.compiled.common import base_seed, players_array

    R = rules_array(from_preset("flip"), 2, rounds_only=True)
    P = players_array(["random", "random"])
    fk.run_games(R, P, base_seed(0), 0, 1, -1)
    if check:
        play_logged(R, P, base_seed(0), -1, 0)


__all__ = ["play_logged", "record", "rules_array", "run_chunk", "state_json", "unsupported", "warm"]
