"""From a tally to the numbers people ask for, each with its 95% confidence interval.

``summarize`` gives one JSON-ready dict per configuration; ``rows`` flattens it into
(section, metric, value, ci_low, ci_high) rows, the common source of the terminal
table and the CSV file.

Intervals: a win rate is a binomial proportion over games (Wilson score interval); a
per-game or per-round mean uses the normal approximation with the sample variance.
Games are independent, so these are exact in the limit; rates over plays or
challenges treat those as independent, which they are not quite (they cluster in
games): read those intervals as indicative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from unokit.sim.runner import SimResult
from unokit.simbase import CARD_TYPES, N_TYPES
from unokit.stats import Hist, mean_ci, wilson

# the cards a challenge answers, by game (the classic game: the Wild Draw Four)
CHALLENGED = {"flip": "W+2/W+C"}
# the tallies of a game's own rules that its table shows (every summary carries them all)
GAME_SECTIONS: dict[str, tuple[str, ...]] = {"flip": ("flips",), "no-mercy": ("mercy",)}


def position_label(position: int, players: int) -> str:
    """Seats are named by where they sit relative to the (first) dealer."""
    if position == 0:
        return "dealer"
    if position == 1:
        return "left of dealer"
    return f"{position} left of dealer"


def play_order(players: int) -> list[int]:
    """Positions in the order they play when the start card has no effect."""
    return [*range(1, players), 0]


def _rate(k: int, n: int, scale: int = 1) -> dict[str, float]:
    lo, hi = wilson(k, n)
    return {"rate": k / n / scale if n else math.nan, "ci_low": lo / scale, "ci_high": hi / scale}


def _mean(h: Hist) -> dict[str, float]:
    mean, lo, hi = h.mean_ci()
    return {"mean": mean, "ci_low": lo, "ci_high": hi}


def summarize(result: SimResult) -> dict[str, Any]:
    """Everything the issue asks for, for one configuration, as plain JSON values."""
    cfg = result.config
    t = result.tally
    n = cfg.players
    games = t.games
    by_position = [
        {"position": p, "seat": position_label(p, n), "wins": t.wins_by_position[p]}
        | _rate(t.wins_by_position[p], games)
        for p in play_order(n)
    ]
    by_seat = [
        {"seat": s, "player": cfg.seats[s], "wins": t.wins_by_seat[s]}
        | _rate(t.wins_by_seat[s], games)
        for s in range(n)
    ]
    by_player: list[dict[str, Any]] = []
    for name in dict.fromkeys(cfg.seats):
        seats = [s for s in range(n) if cfg.seats[s] == name]
        wins = sum(t.wins_by_seat[s] for s in seats)
        # One winner per game: P(one of k seats wins) is binomial; per seat it is /k.
        by_player.append(
            {"player": name, "seats": len(seats), "wins": wins}
            | _rate(wins, games, scale=len(seats))
        )
    plays = t.plays
    per_type = t.plays_by_type()
    types = []
    for i in range(N_TYPES):
        k = per_type[i]
        mean, lo, hi = mean_ci(games, k, t.type_sq[i])
        types.append(
            {
                "type": CARD_TYPES[i],
                "count": k,
                "share": k / plays if plays else math.nan,
                "per_game": mean,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    reshuffled = games - t.reshuffles.counts.get(0, 0)
    knocked = t.knockouts.n - t.knockouts.counts.get(0, 0)
    n_ch = t.challenges.total
    turns = t.turns.total
    return {
        "config": cfg.to_json(),
        "games": games,
        "rounds": t.rounds,
        "win_rate_by_position": by_position,
        "win_rate_by_seat": by_seat,
        "win_rate_by_player": by_player,
        "turns_per_game": t.turns.summary(),
        "rounds_per_game": t.rounds_per_game.summary(),
        "turns_per_round": t.round_turns.summary(),
        "points_per_round": t.round_points.summary(),
        "plays": plays,
        "plays_by_type": types,
        "draw_turns": {"count": t.draw_turns} | _rate(t.draw_turns, turns),
        "reshuffles_per_game": _mean(t.reshuffles) | {"total": t.reshuffles.total},
        "games_with_reshuffle": {"count": reshuffled} | _rate(reshuffled, games),
        "challenges": {
            "total": n_ch,
            "won": t.challenges_won,
            "lost": n_ch - t.challenges_won,
            "won_rate": _rate(t.challenges_won, n_ch),
            "per_game": _mean(t.challenges),
        },
        "uno_catches": {"total": t.catches.total, "per_game": _mean(t.catches)},
        "game": cfg.rules().deck,  # the deck (its game: rules.game_of_deck)
        # No Mercy (NM-MERCY-*, NM-END-3) and UNO Flip! (FLIP-FLIP-1): zero elsewhere
        "knockouts_per_game": _mean(t.knockouts) | {"total": t.knockouts.total},
        "games_with_knockout": {"count": knocked} | _rate(knocked, games),
        "hands_won_by_mercy": {"count": t.mercy_rounds} | _rate(t.mercy_rounds, t.rounds),
        "flips_per_game": _mean(t.flips) | {"total": t.flips.total},
        "stalled_games": t.stalled,
        "timing": {
            "backend": result.backend,
            "workers": result.workers,
            "cpu_seconds": round(result.cpu_seconds, 3),
            "wall_seconds": round(result.wall_seconds, 3),
            "compile_seconds": round(result.compile_seconds, 3),
            "games_per_core_s": round(result.games_per_core_s, 1),
        },
        "counts": t.to_json(),
    }


@dataclass(frozen=True)
class Row:
    section: str
    metric: str
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan
    kind: str = "num"  # num, pct, int
    note: str = ""  # shown after the value in the table only


def rows(summary: dict[str, Any], shares: bool = True) -> list[Row]:
    """The summary as rows, in reading order.  ``shares=False`` (the table) shows each
    card type's share of plays next to its per-game count instead of in its own section.
    """
    out: list[Row] = []
    rounds_only = summary["config"]["mode"] == "rounds"
    sec = "win rate by seat"
    for r in summary["win_rate_by_position"]:
        out.append(Row(sec, r["seat"], r["rate"], r["ci_low"], r["ci_high"], "pct"))
    if len(summary["win_rate_by_player"]) > 1:
        sec = "win rate by player (per seat)"
        for r in summary["win_rate_by_player"]:
            out.append(Row(sec, r["player"], r["rate"], r["ci_low"], r["ci_high"], "pct"))
    sec = "game length"
    what = ("turns per game", "rounds per game", "turns per round")
    for key, label in zip(
        ("turns_per_game", "rounds_per_game", "turns_per_round"), what, strict=True
    ):
        if rounds_only and key != "turns_per_game":
            continue
        h = summary[key]
        out.append(Row(sec, f"{label}: mean", h["mean"], h["ci_low"], h["ci_high"]))
        for q in ("median", "p5", "p25", "p75", "p95", "max"):
            if key == "turns_per_game" or q in ("median", "p95"):
                out.append(Row(sec, f"{label}: {q}", h[q], kind="int"))
    sec = "points per round"
    h = summary["points_per_round"]
    out.append(Row(sec, "mean", h["mean"], h["ci_low"], h["ci_high"]))
    out.append(Row(sec, "median", h["median"], kind="int"))
    out.append(Row(sec, "p95", h["p95"], kind="int"))
    sec = "cards played per game" if shares else "cards played per game (share of plays)"
    for r in summary["plays_by_type"]:
        if r["count"]:
            note = "" if shares else f"({r['share']:.1%})"
            out.append(Row(sec, r["type"], r["per_game"], r["ci_low"], r["ci_high"], note=note))
    if shares:
        sec = "cards played (share of plays)"
        for r in summary["plays_by_type"]:
            if r["count"]:
                out.append(Row(sec, r["type"], r["share"], kind="pct"))
    sec = "events"
    r = summary["draw_turns"]
    out.append(Row(sec, "turns spent drawing", r["rate"], r["ci_low"], r["ci_high"], "pct"))
    r = summary["reshuffles_per_game"]
    out.append(Row(sec, "reshuffles per game", r["mean"], r["ci_low"], r["ci_high"]))
    r = summary["games_with_reshuffle"]
    out.append(Row(sec, "games with a reshuffle", r["rate"], r["ci_low"], r["ci_high"], "pct"))
    ch = summary["challenges"]
    r = ch["per_game"]
    wild = CHALLENGED.get(str(summary.get("game")), "W+4")
    out.append(Row(sec, f"{wild} challenges per game", r["mean"], r["ci_low"], r["ci_high"]))
    out.append(Row(sec, "challenges won", ch["won"], kind="int"))
    out.append(Row(sec, "challenges lost", ch["lost"], kind="int"))
    r = ch["won_rate"]
    out.append(Row(sec, "challenges won (rate)", r["rate"], r["ci_low"], r["ci_high"], "pct"))
    r = summary["uno_catches"]["per_game"]
    out.append(Row(sec, "UNO catches per game", r["mean"], r["ci_low"], r["ci_high"]))
    out.append(Row(sec, "UNO catches", summary["uno_catches"]["total"], kind="int"))
    own = GAME_SECTIONS.get(str(summary.get("game")), ())
    if "mercy" in own:  # No Mercy's tallies
        sec = "the Mercy rule (NM-MERCY)"
        r = summary["knockouts_per_game"]
        out.append(Row(sec, "knock-outs per game", r["mean"], r["ci_low"], r["ci_high"]))
        r = summary["games_with_knockout"]
        out.append(Row(sec, "games with a knock-out", r["rate"], r["ci_low"], r["ci_high"], "pct"))
        r = summary["hands_won_by_mercy"]
        label = "hands won by knock-outs (NM-END-3)"
        out.append(Row(sec, label, r["rate"], r["ci_low"], r["ci_high"], "pct"))
    if "flips" in own:  # UNO Flip!'s
        r = summary["flips_per_game"]
        out.append(Row("flips (FLIP-FLIP)", "flips per game", r["mean"], r["ci_low"], r["ci_high"]))
    if summary["stalled_games"]:
        note = "(no winner in a round; left out)"
        out.append(Row(sec, "games stalled", summary["stalled_games"], kind="int", note=note))
    return out


def fmt(row: Row) -> str:
    """A row's value for people: 50.8% [50.1, 51.5], 46.4 ±0.3, 37."""
    v = row.value
    if isinstance(v, float) and math.isnan(v):
        return "-"
    if row.kind == "int":
        v = round(float(v), 1)
        return f"{v:,.0f}" if v.is_integer() else f"{v:,.1f}"
    has_ci = not (math.isnan(row.ci_low) or math.isnan(row.ci_high))
    if row.kind == "pct":
        text = f"{v:.1%}"
        if has_ci:
            text += f" [{row.ci_low * 100:.1f}, {row.ci_high * 100:.1f}]"
        return text
    digits = 3 if abs(v) < 1 else (2 if abs(v) < 10 else 1)
    text = f"{v:,.{digits}f}"
    if has_ci:
        text += f" ±{(row.ci_high - row.ci_low) / 2:.{digits}f}"
    return f"{text} {row.note}" if row.note else text
