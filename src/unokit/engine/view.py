"""What one seat may know: the only way state leaves the engine for players and bots.

A view holds the seat's own hand, everyone's hand size, the public piles, the colour
and direction, scores, and the seat's legal actions.  It never holds another hand, the
draw pile's order or the RNG; cards the rules reveal to a seat (a challenged hand) come
to it as events.  Bots receive views, never a ``Game``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unokit.cards import CARD_CODE, COLOR_CODES, WILD_DRAW4
from unokit.engine.actions import Action
from unokit.engine.errors import IllegalAction
from unokit.engine.game import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_ROUND_OVER,
    PHASE_NAMES,
    Game,
    holds_color,
    team_of,
)
from unokit.errors import UnoError
from unokit.rules import RuleSet

PROTOCOL_VERSION = 1  # rises when a field of the wire form changes meaning or goes away


@dataclass(frozen=True, slots=True)
class View:
    seat: int  # -1: a spectator's public view (no hand, no legal actions)
    names: tuple[str, ...]
    rules: RuleSet
    hand: tuple[int, ...]  # own cards, sorted
    hand_sizes: tuple[int, ...]
    discard: tuple[int, ...]  # bottom first; every card in it is public
    draw_pile: int  # how many cards, never which
    color: int  # colour in force, -1 before a Wild start card's colour is named
    direction: int
    current: int
    phase: int
    dealer: int
    round_index: int
    scores: tuple[int, ...]
    vulnerable: int  # a seat with one card that may be caught, or -1
    drawn: int  # the card this seat just drew, if it may play it; else -1
    wd4_by: int  # who played the Wild Draw Four being answered, or -1
    prev_color: int  # the colour in force before that Wild Draw Four (public), or -1
    pending: int  # stacking: the card the current seat must answer, or -1
    pending_total: int  # cards the current seat draws on accepting (stacking, challenge)
    live: tuple[bool, ...]  # False for seats eliminated (R-SCORE-ELIM)
    round_winner: int
    game_winner: int
    legal: tuple[Action, ...]

    @property
    def top(self) -> int:
        return self.discard[-1] if self.discard else -1

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat and self.phase < P_ROUND_OVER

    @property
    def round_over(self) -> bool:
        return self.phase >= P_ROUND_OVER

    @property
    def spectator(self) -> bool:
        return self.seat < 0

    def team_of(self, seat: int) -> int:
        """The team ``seat`` plays for under team scoring (R-SCORE-TEAM)."""
        return team_of(seat)

    def to_json(self) -> dict[str, Any]:
        """What a client receives (docs/protocol.md, "The view"): codes, not ids.

        ``legal`` holds action objects a client can send back unchanged.  A spectator's
        view has ``seat`` and ``hand`` null and no legal actions.
        """
        spectator = self.seat < 0
        return {
            "protocol": PROTOCOL_VERSION,
            "seat": None if spectator else self.seat,
            "names": list(self.names),
            "hand": None if spectator else [CARD_CODE[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "top": CARD_CODE[self.top] if self.discard else None,
            "discard": [CARD_CODE[c] for c in self.discard],
            "draw_pile": self.draw_pile,
            "color": COLOR_CODES[self.color] if self.color >= 0 else None,
            "direction": self.direction,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "dealer": self.dealer,
            "round": self.round_index,
            "scores": list(self.scores),
            "vulnerable": self.vulnerable if self.vulnerable >= 0 else None,
            "drawn": CARD_CODE[self.drawn] if self.drawn >= 0 else None,
            "wd4_by": self.wd4_by if self.wd4_by >= 0 else None,
            "prev_color": COLOR_CODES[self.prev_color] if self.prev_color >= 0 else None,
            "pending": CARD_CODE[self.pending] if self.pending >= 0 else None,
            "pending_total": self.pending_total,
            "live": list(self.live),
            "round_winner": self.round_winner if self.round_winner >= 0 else None,
            "game_winner": self.game_winner if self.game_winner >= 0 else None,
            "legal": [a.to_wire() for a in self.legal],
        }


def check_seat(game: Game, seat: int | None) -> None:
    """Refuse anything that is not a seat of this game (``None``: a spectator).

    A negative number must never reach a list index: ``hands[-1]`` is the last seat's
    hand.
    """
    if seat is None:
        return
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise UnoError(f"there is no seat {seat!r} at this table", code="bad_seat")


def view_of(game: Game, seat: int | None) -> View:
    """The view of ``seat``; ``None`` for the public view a spectator gets.

    Everything here is public or ``seat``'s own.  UnoError ``bad_seat`` for a number
    that is not a seat.
    """
    check_seat(game, seat)
    if game.MODERN:  # UNO Flip!, No Mercy: their own faces and fields (engine/modern)
        got: View = game.modern_view(seat)
        return got
    mine = seat is not None and game.current == seat
    # a Wild Draw Four waits for its answer (with stacking on, inside an answer phase)
    wd4 = game.phase == P_CHALLENGE or (game.phase == P_ANSWER and game.pend_card == WILD_DRAW4)
    return View(
        seat=seat if seat is not None else -1,
        names=tuple(game.names),
        rules=game.rules,
        hand=tuple(sorted(game.hands[seat])) if seat is not None else (),
        hand_sizes=tuple(len(h) for h in game.hands),
        discard=tuple(game.discard),
        draw_pile=len(game.pile),
        color=game.color,
        direction=game.direction,
        current=game.current,
        phase=game.phase,
        dealer=game.dealer,
        round_index=game.round_index,
        scores=tuple(game.scores),
        vulnerable=game.vulnerable,
        drawn=game.drawn if mine and game.phase == P_DRAWN else -1,
        wd4_by=game.wd4_by if wd4 else -1,
        prev_color=game.wd4_prev_color if wd4 else -1,
        pending=game.pend_card if game.phase == P_ANSWER else -1,
        pending_total=game.pend_total
        if game.phase == P_ANSWER
        else (game.pend_total or 4)  # a stacked total, or a lone W+4's 4
        if game.phase == P_CHALLENGE
        else 0,
        live=tuple(game.live),
        round_winner=game.round_winner,
        game_winner=game.game_winner,
        legal=tuple(game.legal_actions(seat)) if seat is not None else (),
    )


def shown_hands(game: Game) -> list[tuple[int, ...]]:
    """Every hand once the round is over, in hand order: they are laid down to be counted
    (R-SCORE-1), so every seat and spectator may see them; ``IllegalAction`` before.

    Front ends show the end of a round from this, never from the game's own lists.
    """
    if game.phase < P_ROUND_OVER:
        raise IllegalAction("hands are shown only when the round is over", code="not_now")
    if game.MODERN:  # the faces the cards show (a Flip hand holds physical cards)
        return [game.shown_faces(h) for h in game.hands]
    return [tuple(h) for h in game.hands]


def world_from_view(view: View, hands: list[list[int]], pile: list[int], seed: int = 0) -> Game:
    """A whole game consistent with ``view``, with the hidden cards as the caller says.

    This is how a searching bot imagines the cards it cannot see (a determinization):
    ``hands`` gives every seat's hand (the viewer's own as in the view) and ``pile``
    the draw pile, top last.  Everything public comes from the view.  The result has
    no events and no record; play it on the trusted path.
    """
    g = Game(view.rules, list(view.names), seed=seed, events=False, record=False, start=False)
    g.hands = hands
    g.pile = pile
    g.discard = list(view.discard)
    g.color = view.color
    g.direction = view.direction
    g.current = view.current
    g.phase = view.phase
    g.dealer = view.dealer
    g.round_index = view.round_index
    g.scores = list(view.scores)
    g.live = list(view.live)
    g.n_live = sum(view.live)
    g.vulnerable = view.vulnerable
    g.round_winner = view.round_winner
    g.game_winner = view.game_winner
    g.pend_card = view.pending
    g.pend_total = view.pending_total
    g.wd4_by = view.wd4_by
    g.wd4_prev_color = view.prev_color
    if view.wd4_by >= 0:
        g.wd4_guilty = holds_color(hands[view.wd4_by], view.prev_color)
    if view.phase == P_DRAWN:
        if view.drawn >= 0:
            g.drawn = view.drawn
        else:  # someone else drew: imagine the drawn card is the last of their hand
            g.drawn = hands[view.current][-1] if hands[view.current] else -1
            if g.drawn < 0 or not g.can_play(hands[view.current], g.drawn):
                g.phase = 0
                g.current = g.next_seat(view.current)
    g.round_rng = g.rng
    g.refresh_flags()
    return g
