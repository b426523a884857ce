"""Profiles, stats and ratings (issue 49 item 4).

A profile lives in the browser as a secret token, like a seat token: no password, no
e-mail.  The server keeps only the token's hash, the profile's public id, its name,
colour and whether it appears on the leaderboard, and what its games came to: games,
wins, points, and a rating for games between people.  Knowing a name or an id gives
nothing; a lost token loses the profile (the page says so).

The rating is openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation,
the model behind OpenSkill's leaderboards): each profile has a mean ``mu`` and an
uncertainty ``sigma``; the leaderboard orders by ``mu - 3 sigma`` (openskill's
``ordinal``), so a newcomer with few games does not top it on luck.  A game is rated
when at least two people with profiles played it to its end: its winners (the winning
team under team scoring) rank first, everyone else ties second.  Bots are not rated:
their strength is a setting, not a person's.  A game the host ended early, or one
abandoned, counts nowhere.
"""

from __future__ import annotations

import secrets
from typing import Any

# the colours a profile may choose (its avatar's): names the page draws, never CSS
COLORS = ("red", "orange", "gold", "green", "teal", "blue", "purple", "pink")
ID_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud safely
ID_LENGTH = 10
MU = 25.0
SIGMA = MU / 3
HISTORY = 20  # a profile's page lists its last games
# what a game's result says for one profile (``count_game``): its seat, whether it won,
# its points, whether the game was rated, how many seats played, when it ended
HISTORY_KEYS = ("seat", "won", "points", "rated", "players", "at")


def new_profile_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def ordinal(mu: float, sigma: float) -> float:
    """What the leaderboard orders by: a rating the player is very likely above."""
    return mu - 3 * sigma


def rate(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player of one game, from their ratings before it and
    their ranks in it (1 first; equal ranks tie)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    new = model.rate(teams, ranks=[float(r) for r in ranks])
    return [(float(t[0].mu), float(t[0].sigma)) for t in new]


def new_ratings(
    before: dict[str, tuple[float, float]], results: list[dict[str, Any]]
) -> dict[str, tuple[float, float]]:
    """Each profile's rating after a game between people (``results``: one per seat,
    ``profile`` and ``won``); ``before`` holds their ratings before it."""
    ids = [r["profile"] for r in results]
    ranks = [1 if r["won"] else 2 for r in results]
    after = rate([before[i] for i in ids], ranks)
    return dict(zip(ids, after, strict=True))


def public(row: dict[str, Any], own: bool = False) -> dict[str, Any]:
    """A profile as anyone may see it (its page, the leaderboard): never the token, and
    its games without their room codes, which let whoever has one into the room and its
    records (private rooms too); ``own``: as its token's holder sees it, codes included."""
    mu, sigma = row.get("mu", MU), row.get("sigma", SIGMA)
    history = [
        h if own else {k: v for k, v in h.items() if k != "code"} for h in row.get("history", [])
    ]
    return {
        "id": row["id"],
        "name": row["name"],
        "color": row["color"],
        "listed": bool(row.get("listed", False)),
        "games": row.get("games", 0),
        "wins": row.get("wins", 0),
        "points": row.get("points", 0),
        "rated": row.get("rated", 0),
        "rating": round(ordinal(mu, sigma), 2),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "history": history,
    }


def new_row(pid: str, name: str, color: str, listed: bool, now: float) -> dict[str, Any]:
    """A new profile's stored row (``data``: everything but the token's hash)."""
    return {
        "id": pid,
        "name": name,
        "color": color,
        "listed": listed,
        "mu": MU,
        "sigma": SIGMA,
        "games": 0,
        "wins": 0,
        "points": 0,
        "rated": 0,
        "created": now,
    }


def after_game(
    rows: dict[str, dict[str, Any]], results: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The profiles' rows once one game's results are counted: games, wins and points
    for each, and the rating when two or more people with profiles played it.
    ``results`` whose profile has no row (not found) are left out."""
    results = [r for r in results if r["profile"] in rows]
    out = {pid: dict(row) for pid, row in rows.items()}
    for r in results:
        row = out[r["profile"]]
        row["games"] = row.get("games", 0) + 1
        row["wins"] = row.get("wins", 0) + int(bool(r["won"]))
        row["points"] = row.get("points", 0) + int(r["points"])
    if len(results) >= 2:
        before = {
            r["profile"]: (out[r["profile"]].get("mu", MU), out[r["profile"]].get("sigma", SIGMA))
            for r in results
        }
        for pid, (mu, sigma) in new_ratings(before, results).items():
            out[pid]["mu"], out[pid]["sigma"] = mu, sigma
            out[pid]["rated"] = out[pid].get("rated", 0) + 1
    return out
