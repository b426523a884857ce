"""Scoring: points in hand, a round's end and a game's end (R-SCORE-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from unokit.engine.events import Event
from unokit.engine.phases import P_GAME_OVER, P_ROUND_OVER

if TYPE_CHECKING:
    from unokit.engine.game import Game


def round_points(game: Game, winner: int) -> int:
    """R-SCORE-1: the winner scores every card left in the opponents' hands.

    Under R-SCORE-TEAM, only the other team's hands count.
    """
    pts = game.points
    if game.teams:
        team = winner % 2
        return sum(pts[c] for s, h in enumerate(game.hands) if s % 2 != team for c in h)
    return sum(pts[c] for s, h in enumerate(game.hands) if s != winner for c in h)


def hand_points(game: Game, seat: int) -> int:
    pts = game.points
    return sum(pts[c] for c in game.hands[seat])


def lowest(game: Game, seats: list[int], winner: int) -> int:
    """Fewest points wins; a tie goes to the round's winner, else the lowest seat."""
    best = min(game.scores[s] for s in seats)
    tied = [s for s in seats if game.scores[s] == best]
    return winner if winner in tied else tied[0]


def end_round(game: Game, winner: int) -> None:
    game.vulnerable = -1
    game.round_winner = winner
    game.pend_card = -1
    game.pend_total = 0
    game.wd4_by = -1
    scoring = game.rules.scoring
    target = game.rules.target_score
    scores = game.scores
    over = False
    if scoring == "standard" or scoring == "teams":
        gained = game.round_points(winner)
        side = winner % 2 if game.teams else winner
        scores[side] += gained
        game._emit(Event("round_over", winner, amount=gained))
        if scores[side] >= target:
            over = True
            game.game_winner = side
    elif scoring == "first-out":  # R-SCORE-FIRSTOUT
        game._emit(Event("round_over", winner, amount=0))
        over = True
        game.game_winner = winner
    else:  # R-SCORE-LOW and R-SCORE-ELIM: everyone adds their own hand
        was_live = [s for s in range(game.n) if game.live[s]]
        for s in was_live:
            scores[s] += game.hand_points(s)
        game._emit(Event("round_over", winner, amount=0))
        if scoring == "low":
            if max(scores) >= target:
                over = True
                game.game_winner = game._lowest(was_live, winner)
        else:
            for s in was_live:
                if scores[s] >= target:
                    game.live[s] = False
                    game._emit(Event("eliminated", s, amount=scores[s]))
            left = [s for s in was_live if game.live[s]]
            game.n_live = len(left)
            if len(left) == 1:
                over = True
                game.game_winner = left[0]
            elif not left:
                over = True
                game.game_winner = game._lowest(was_live, winner)
    if over:
        game.phase = P_GAME_OVER
        game._emit(Event("game_over", game.game_winner, amount=scores[game.game_winner]))
    else:
        game.phase = P_ROUND_OVER
