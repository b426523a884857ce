"""UNO Show 'Em No Mercy on the compiled engine: the arrays its kernel (``nm_kernel``)
reads, its games as ``Tally`` counts, and each game as a record and a final state.

The twin of ``unokit.sim.modern.ModernTable`` for No Mercy: the same fast players, the
same counts (turns, draw turns, catches, knock-outs, hands won by the Mercy rule), other
random streams.  Every option of No Mercy is covered (RULES-MODERN.md B11); every game
it plays can be written as a record and replayed through the reference engine
(``unokit.compiled.check_game``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from unokit import simbase
from unokit.modern_cards import NM_CODE, NM_COLOR_CODES, NM_DRAW, NM_POINTS, NM_RANK, nm_deck
from unokit.rules import RuleSet, from_preset
from unokit.simbase import Tally


def unsupported(rules: RuleSet) -> str | None:
    """Why the compiled engine cannot play these No Mercy rules: never (None)."""
    return None


def rules_array(rules: RuleSet, players: int, rounds_only: bool) -> np.ndarray:
    """The flat rules array the kernel reads (``nm_kernel.R_*``)."""
    from unokit.compiled import nm_kernel as nk

    deck = nm_deck(rules.nm_deck)
    r = np.zeros(nk.RULES_SIZE, dtype=np.int64)
    r[nk.R_N] = players
    r[nk.R_HAND] = rules.deal_size
    r[nk.R_TARGET] = rules.target_score
    r[nk.R_SCORING] = ("first-out", "standard").index(rules.scoring)
    r[nk.R_UNOPEN] = rules.uno_penalty
    r[nk.R_THRESH] = ("last", "total").index(rules.nm_stack_threshold)
    r[nk.R_MATCHCOL] = int(rules.nm_stack_match_color)
    r[nk.R_DEFLECT] = int(rules.nm_stack_deflect)
    r[nk.R_MERCY] = rules.mercy_limit
    r[nk.R_KOCARDS] = ("set_aside", "discard_bottom").index(rules.nm_knockout_cards)
    r[nk.R_LASTEFF] = int(rules.nm_last_card_effect)
    r[nk.R_ROULCOL] = ("victim", "player").index(rules.nm_roulette_color)
    r[nk.R_ROUNDS_ONLY] = int(rounds_only)
    r[nk.R_MAXDEC] = simbase.MAX_DECISIONS  # read now: tests lower it
    r[nk.R_DECKSIZE] = len(deck)
    r[nk.O_RANK : nk.O_RANK + nk.NCARDS] = NM_RANK
    r[nk.O_DRAW : nk.O_DRAW + nk.NCARDS] = NM_DRAW
    r[nk.O_POINTS : nk.O_POINTS + nk.NCARDS] = NM_POINTS
    r[nk.O_DECK : nk.O_DECK + len(deck)] = deck
    return r


def run_chunk(
    R: np.ndarray, P: np.ndarray, base: np.uint64, dealer: int, players: int, start: int,
    size: int,
) -> Tally:  # fmt: skip
    """Games ``start`` .. ``start + size - 1`` as a ``Tally`` (``ModernTable.play``'s counts)."""
    from unokit.compiled import nm_kernel as nk
    from unokit.compiled.common import hist, modern_tally

    games, rounds, nr = nk.run_games(R, P, base, start, size, dealer)
    tally = modern_tally(nk, games, rounds, nr, players)
    tally.knockouts = hist(games[games[:, nk.G_STALLED] == 0][:, nk.G_KNOCKOUTS])
    # the hands won by the Mercy rule before a stall count, as in the driver
    tally.mercy_rounds = int(games[:, nk.G_MERCY].sum())
    return tally


def play_logged(
    R: np.ndarray, P: np.ndarray, base: np.uint64, dealer: int, index: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Game ``index`` with its log: ``(state, log, stalled)``."""
    from unokit.compiled import nm_kernel as nk
    from unokit.compiled.common import modern_logged

    return modern_logged(nk, R, P, base, dealer, index)


def record(rules: RuleSet, players: int, log: np.ndarray) -> dict[str, Any]:
    """RECORD.md's JSON from the kernel's log (tags 1 action, 2 shuffle, 4 round)."""
    from unokit.engine.actions import ACCEPT, CATCH, COLOR, DRAW, KEEP, PLAY, UNO

    rounds: list[dict[str, Any]] = []
    cur: dict[str, Any] = {}
    pos = 0
    words = log.tolist()
    simple = {DRAW: "draw", KEEP: "keep", ACCEPT: "accept"}
    while pos < len(words):
        tag = words[pos]
        if tag == 4:
            dealer, m = words[pos + 1], words[pos + 2]
            cur = {"dealer": dealer, "deck": [NM_CODE[c] for c in words[pos + 3 : pos + 3 + m]],
                   "seed": 0, "shuffles": [], "actions": []}  # fmt: skip
            rounds.append(cur)
            pos += 3 + m
        elif tag == 1:
            seat, kind, card, color, target, uno = words[pos + 1 : pos + 7]
            act: dict[str, Any] = {"seat": seat}
            if kind == PLAY:
                act["play"] = NM_CODE[card]
                if color >= 0:
                    act["color"] = NM_COLOR_CODES[color]
                if target >= 0:
                    act["target"] = target
                if uno:
                    act["uno"] = True
            elif kind == COLOR:
                act["color"] = NM_COLOR_CODES[color]
            elif kind == CATCH:
                act["catch"] = target
            elif kind == UNO:
                act["uno"] = True
            else:
                act[simple[kind]] = True
            cur["actions"].append(act)
            pos += 7
        elif tag == 2:
            m = words[pos + 1]
            cur["shuffles"].append([NM_CODE[c] for c in words[pos + 2 : pos + 2 + m]])
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
    """The compiled state as ``NoMercyGame.state_json`` shows it."""
    from unokit.compiled import kernel as k
    from unokit.compiled import nm_kernel as nk

    n = int(st[k.S_N])
    hands = []
    for s in range(n):
        b = nk.O_HANDS + s * nk.HC
        hands.append([NM_CODE[c] for c in st[b : b + st[nk.O_HS + s]].tolist()])
    nd = int(st[k.S_NDISC])
    disc = st[nk.O_DISC : nk.O_DISC + nd].tolist()
    color = int(st[k.S_COLOR])
    phase = int(st[k.S_PHASE])
    rw = int(st[k.S_RWIN])
    gw = int(st[k.S_GWIN])
    return {
        "game": "no-mercy",
        "hands": hands,
        "top": NM_CODE[disc[-1]] if nd else None,
        "color": NM_COLOR_CODES[color] if color >= 0 else None,
        "current": int(st[k.S_CUR]),
        "direction": int(st[k.S_DIR]),
        "draw_pile": int(st[k.S_NPILE]),
        "discard_pile": nd,
        "round_over": phase >= nk.P_ROUND_OVER,
        "round_winner": rw if rw >= 0 else None,
        "scores": [int(x) for x in st[k.O_SCORES : k.O_SCORES + n]],
        "game_over": phase == nk.P_GAME_OVER,
        "game_winner": gw if gw >= 0 else None,
        "live": [bool(x) for x in st[k.O_LIVE : k.O_LIVE + n]],
        "aside": int(st[nk.S_NASIDE]),
        "pending_total": int(st[k.S_PENDTOT]),
        "discard": [NM_CODE[c] for c in disc],
    }


def warm(check: bool) -> None:
    """Compile, or load from numba's cache, what a No Mercy simulation runs."""
    from unokit.compiled import nm_kernel as nk
    from unokit.compiled.common import base_seed, players_array

    R = rules_array(from_preset("no-mercy"), 2, rounds_only=True)
    P = players_array(["random", "random"])
    nk.run_games(R, P, base_seed(0), 0, 1, -1)
    if check:
        play_logged(R, P, base_seed(0), -1, 0)


__all__ = [
    "play_logged",
    "record",
    "rules_array",
    "run_chunk",
    "state_json",
    "unsupported",
    "warm",
]
