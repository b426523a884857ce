"""Scoring: points in hand, and what a round's end does to the scores (R-SCORE-*).

This is arithmetic on plain data (the points table, hands, scores, who is still in),
so it stands alone: it knows nothing of ``Game``, and ``Game`` imports it, never the
other way round.  Ending the round itself (the phase, the events, who is eliminated)
is a transition of the game's state and stays in ``game.py``, which applies the
``RoundScore`` this module works out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from unokit.rules import RuleSet


class RoundScore(NamedTuple):
    """What a round's end decides, for ``Game`` to apply and announce."""

    gained: int  # what the round's winner (or team) scored; 0 when each adds their own
    eliminated: tuple[int, ...]  # seats out of the game from now on (R-SCORE-ELIM)
    game_winner: int  # a seat, or a team under R-SCORE-TEAM; -1 while the game goes on


def team_of(seat: int) -> int:
    """R-SCORE-TEAM: partners sit opposite, so a team is every other seat (team 0 holds
    seats 0, 2, ...); the one place front ends learn it from."""
    return seat % 2


def hand_points(points: Sequence[int], hand: Sequence[int]) -> int:
    """What the cards of ``hand`` are worth (``points`` by card id)."""
    return sum(points[c] for c in hand)


def round_points(
    points: Sequence[int], hands: Sequence[Sequence[int]], winner: int, teams: bool
) -> int:
    """R-SCORE-1: the winner scores every card left in the opponents' hands.

    Under R-SCORE-TEAM, only the other team's hands count.
    """
    if teams:
        team = winner % 2
        return sum(points[c] for s, h in enumerate(hands) if s % 2 != team for c in h)
    return sum(points[c] for s, h in enumerate(hands) if s != winner for c in h)


def lowest(scores: Sequence[int], seats: Sequence[int], winner: int) -> int:
    """Fewest points wins; a tie goes to the round's winner, else the lowest seat."""
    best = min(scores[s] for s in seats)
    tied = [s for s in seats if scores[s] == best]
    return winner if winner in tied else tied[0]


def score_round(
    rules: RuleSet,
    points: Sequence[int],
    hands: Sequence[Sequence[int]],
    scores: list[int],
    live: Sequence[bool],
    winner: int,
) -> RoundScore:
    """Add the round won by ``winner`` to ``scores`` (in place) and say what follows.

    ``scores`` has one entry per team under R-SCORE-TEAM, else one per seat; ``live``
    says who played the round.
    """
    scoring = rules.scoring
    target = rules.target_score
    if scoring == "standard" or scoring == "teams":
        teams = scoring == "teams"
        gained = round_points(points, hands, winner, teams)
        side = winner % 2 if teams else winner
        scores[side] += gained
        return RoundScore(gained, (), side if scores[side] >= target else -1)
    if scoring == "first-out":  # R-SCORE-FIRSTOUT
        return RoundScore(0, (), winner)
    # R-SCORE-LOW and R-SCORE-ELIM: everyone adds their own hand
    was_live = [s for s in range(len(live)) if live[s]]
    for s in was_live:
        scores[s] += hand_points(points, hands[s])
    if scoring == "low":
        over = max(scores) >= target
        return RoundScore(0, (), lowest(scores, was_live, winner) if over else -1)
    out = tuple(s for s in was_live if scores[s] >= target)
    left = [s for s in was_live if s not in out]
    if len(left) == 1:
        return RoundScore(0, out, left[0])
    if not left:
        return RoundScore(0, out, lowest(scores, was_live, winner))
    return RoundScore(0, out, -1)
