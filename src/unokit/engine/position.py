"""A game at a given moment, built from what a person would say about it.

Tests, puzzles ("seat 0 to play: win in two") and bug reports need a game in one
particular position: these hands, this top card, this seat to act.  Dealing from a
record gets there only for positions a deal and a few moves reach, and setting a
``Game``'s fields one by one gets there unchecked: a card twice, a card the deck does
not have, a Wild on top with no colour named all look like a game until something
breaks far from the cause, and the test then proves nothing about the rules.  So a
position is built here, in one call that checks everything first and raises
``PositionError`` (code ``bad_position``) with what is wrong; nothing is built until
every check has passed.

``position`` names its fields as ``View`` does (``pending``, ``prev_color``...), takes
cards as ids or codes (``"R7"``, ``"W+4"``) and colours as numbers or letters, and puts
the cards of the deck it was not told about where ``rest`` says, so a position names
only what matters.  The game it returns is a ``Game`` like any other: play it with
``apply``, give it to a ``Match`` or an ``advance``, store it with
``engine.state.to_json``.  It has no record of its round (it was not dealt from a deck,
so no record could replay it); its events start empty.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from unokit.cards import (
    CARD_CODE,
    CARD_COLOR,
    NUM_CARDS,
    WILD,
    WILD_DRAW4,
    CardError,
    build_deck,
    parse_card,
    parse_color,
)
from unokit.engine.dealing import shuffle
from unokit.engine.game import ClassicGame, holds_color
from unokit.engine.phases import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_GAME_OVER,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    PHASE_NAMES,
)
from unokit.errors import UnoError
from unokit.rules import RulesError, RuleSet

Card = int | str
Color = int | str


class PositionError(UnoError):
    """A position that no game of these rules can be in; nothing was built."""

    code = "bad_position"


def position(
    rules: RuleSet | None = None,
    *,
    hands: Sequence[Sequence[Card]],
    discard: Sequence[Card],
    draw: Sequence[Card] = (),
    rest: Literal["draw", "discard"] | None = "draw",
    names: Sequence[str] | None = None,
    current: int = 0,
    direction: int = 1,
    color: Color | None = None,
    phase: int | str = P_PLAY,
    drawn: Card | None = None,
    vulnerable: int = -1,
    pending: Card | None = None,
    pending_total: int = 0,
    wd4_by: int = -1,
    prev_color: Color | None = None,
    scores: Sequence[int] | None = None,
    live: Sequence[bool] | None = None,
    dealer: int | None = None,
    round_index: int = 0,
    round_winner: int = -1,
    game_winner: int = -1,
    seed: int = 0,
    events: bool = True,
) -> ClassicGame:
    """The game in the position described; ``PositionError`` if there is none.

    Cards are ids or codes.  ``hands``: one hand per seat (the seat count).
    ``discard`` and ``draw``: the piles, bottom first and top last, as ``Game`` and
    ``View`` hold them (``draw[-1]`` is drawn next).  ``rest``: where the deck's other
    cards go, in an order from ``seed``: under the given draw pile (``"draw"``), under
    the given discard pile (``"discard"``, for a position with a short draw pile), or
    nowhere (``None``: every card of the deck must be placed).

    ``color``: the colour in force, by default the top card's; a Wild on top needs
    one, except in the ``start_color`` phase, where it is not named yet.  ``phase`` (a
    number or a name from ``PHASE_NAMES``) says what the seat to act, ``current``,
    decides, and with it what else must be given:

    * ``drawn``: the card just drawn (phase ``drawn``), in ``current``'s hand;
    * ``wd4_by`` and ``prev_color``: who played the Wild Draw Four on top and the
      colour in force before it (phase ``challenge``, or ``answer`` to a Wild Draw
      Four); whether the play was a bluff follows from that seat's hand;
    * ``pending``: the card to answer (phase ``answer``, stacking on; the top card);
      ``pending_total``: what accepting draws (0 in phase ``challenge`` for a lone
      Wild Draw Four, which draws 4);
    * ``round_winner`` (phase ``round_over``) and ``game_winner`` (``game_over``).

    ``vulnerable``: a seat on one card that did not call UNO and may be caught.
    ``scores``: per seat (per team under team scoring).  ``live``: False for seats
    eliminated (elimination scoring; they hold no cards).  ``dealer`` defaults to the
    seat before ``current``, as if ``current`` were the round's first player.
    """
    rules = rules or RuleSet()
    if rules.modern:
        raise PositionError(
            f"position builds classic games; a deck={rules.deck!r} position comes from "
            "unokit.engine.modern.position.modern_position"
        )
    n = len(hands)
    if names is None:
        names = [f"Player {i}" for i in range(n)]
    elif len(names) != n:
        raise _bad(f"{len(names)} names for {n} hands: one hand per seat")
    try:
        rules.check_players(n)
    except RulesError as e:
        raise _bad(f"{n} seats: {e}") from None

    placed_hands = [[_card(c, f"seat {s}'s hand") for c in h] for s, h in enumerate(hands)]
    pile = [_card(c, "the draw pile") for c in draw]
    disc = [_card(c, "the discard pile") for c in discard]
    deck = build_deck(rules.deck, rules.custom_cards)
    missing = Counter(deck)
    missing.subtract(pile + disc + [c for h in placed_hands for c in h])
    extra = sorted(c for c, k in missing.items() if k < 0)
    if extra:
        have = Counter(deck)
        said = ", ".join(
            f"{CARD_CODE[c]} {have[c] - missing[c]} times (the deck has {have[c]})"
            if have[c]
            else f"{CARD_CODE[c]} (not in the {rules.deck} deck)"
            for c in extra
        )
        raise _bad(f"more cards than the deck holds: {said}")
    if rest not in ("draw", "discard", None):
        raise _bad(f"rest must be 'draw', 'discard' or None, not {rest!r}")
    left = sorted(c for c, k in missing.items() for _ in range(k))
    if left and rest is None:
        shown = " ".join(CARD_CODE[c] for c in left[:8]) + (" ..." if len(left) > 8 else "")
        raise _bad(f"{len(left)} cards of the deck are nowhere (rest=None): {shown}")

    ph = _phase(phase)
    over = ph >= P_ROUND_OVER
    current = _seat(current, "current", n)
    if direction not in (1, -1) or isinstance(direction, bool):
        raise _bad(f"direction must be 1 (clockwise) or -1, not {direction!r}")
    alive = [True] * n if live is None else list(live)
    if len(alive) != n or not all(isinstance(x, bool) for x in alive):
        raise _bad(f"live must be {n} true/false values, one per seat")
    if not all(alive) and rules.scoring != "elimination":
        raise _bad("seats are eliminated only under elimination scoring")
    if not over:  # once it is, the seats just eliminated still show their cards
        if sum(alive) < 2:
            raise _bad("at least two seats must still be in the game")
        for s in range(n):
            if not alive[s] and placed_hands[s]:
                raise _bad(f"seat {s} is out of the game but holds cards")
        if not alive[current]:
            raise _bad(f"the seat to act, {current}, is out of the game")
    if dealer is None:
        dealer = (current - direction) % n
        for _ in range(n):
            if alive[dealer]:
                break
            dealer = (dealer - direction) % n
    dealer = _seat(dealer, "dealer", n)
    if not over and not alive[dealer]:
        raise _bad(f"the dealer, {dealer}, is out of the game")
    teams = rules.scoring == "teams"
    points = [0] * (2 if teams else n) if scores is None else list(scores)
    if len(points) != (2 if teams else n):
        raise _bad(f"scores: one per {'team (2)' if teams else f'seat ({n})'}, not {len(points)}")
    for x in points:
        if not isinstance(x, int) or isinstance(x, bool) or x < 0:
            raise _bad(f"a score must be a whole number from 0, not {x!r}")
    if not isinstance(round_index, int) or isinstance(round_index, bool) or round_index < 0:
        raise _bad(f"round_index must be a whole number from 0, not {round_index!r}")

    if not disc and not over:
        raise _bad("a round in play needs a top card: the discard pile is empty")
    top = disc[-1] if disc else -1
    in_force = -1 if color is None else _color(color, "color")
    if ph == P_START_COLOR:
        if top < WILD or top == WILD_DRAW4:
            raise _bad(f"phase start_color needs a Wild start card on top, not {CARD_CODE[top]}")
        if in_force >= 0:
            raise _bad("phase start_color: the Wild's colour is not named yet (color=None)")
    elif top >= WILD and in_force < 0 and not over:
        raise _bad(f"{CARD_CODE[top]} is on top: say which colour is in force (color=...)")
    elif in_force < 0 and 0 <= top < WILD:
        in_force = CARD_COLOR[top]

    card_drawn = -1 if drawn is None else _card(drawn, "drawn")
    if (ph == P_DRAWN) != (card_drawn >= 0):
        raise _bad("phase drawn and drawn=... go together: the card just drawn")
    if card_drawn >= 0 and card_drawn not in placed_hands[current]:
        raise _bad(f"the drawn card {CARD_CODE[card_drawn]} is not in seat {current}'s hand")

    pend = -1 if pending is None else _card(pending, "pending")
    if not isinstance(pending_total, int) or isinstance(pending_total, bool) or pending_total < 0:
        raise _bad(f"pending_total must be a whole number from 0, not {pending_total!r}")
    if ph == P_ANSWER:
        if rules.stacking == "off":
            raise _bad("phase answer needs stacking (rules.stacking is 'off')")
        if pend != top:
            raise _bad("phase answer: pending must be the card on top, the one to answer")
    elif pend >= 0:
        raise _bad("pending is the card to answer: only in phase answer")
    elif pending_total and ph != P_CHALLENGE:
        raise _bad("pending_total is what accepting draws: only in phase answer or challenge")
    elif pending_total and rules.stacking == "off":
        raise _bad("pending_total in phase challenge is a stacked total: stacking is 'off'")

    wd4 = ph == P_CHALLENGE or (ph == P_ANSWER and pend == WILD_DRAW4)
    before = -1 if prev_color is None else _color(prev_color, "prev_color")
    if wd4:
        if top != WILD_DRAW4:
            raise _bad(f"phase {PHASE_NAMES[ph]}: a Wild Draw Four must be on top")
        wd4_by = _seat(wd4_by, "wd4_by (who played the Wild Draw Four)", n)
        if wd4_by == current or not alive[wd4_by]:
            raise _bad(f"wd4_by: seat {wd4_by} cannot have hit the seat to act")
        if before < 0:
            raise _bad("prev_color: the colour in force before the Wild Draw Four is needed")
    elif wd4_by != -1 or before >= 0:
        raise _bad("wd4_by and prev_color belong to a Wild Draw Four waiting for its answer")

    if vulnerable != -1:
        vulnerable = _seat(vulnerable, "vulnerable", n)
        if over or not alive[vulnerable] or len(placed_hands[vulnerable]) != 1:
            raise _bad(f"vulnerable: seat {vulnerable} must be in a round in play on one card")
    if over:
        round_winner = _seat(round_winner, "round_winner", n)
        if placed_hands[round_winner]:
            raise _bad(f"round_winner: seat {round_winner} went out, so holds no cards")
        if ph == P_GAME_OVER:
            game_winner = _seat(game_winner, "game_winner", 2 if teams else n)
        elif game_winner != -1:
            raise _bad("game_winner: only in phase game_over")
    else:
        if round_winner != -1 or game_winner != -1:
            raise _bad("round_winner and game_winner: only once the round is over")
        for s in range(n):
            # a last Wild Draw Four waits for its challenge first (R-END-3)
            if alive[s] and not placed_hands[s] and not (wd4 and s == wd4_by):
                raise _bad(f"seat {s} holds no cards: the round would be over")

    g = ClassicGame(rules, list(names), seed=seed, events=events, record=False, start=False)
    shuffle(g.rng, left)
    if rest == "discard":
        disc = left + disc
    else:
        pile = left + pile
    g.hands = placed_hands
    g.pile = pile
    g.discard = disc
    g.color = in_force
    g.direction = direction
    g.current = current
    g.phase = ph
    g.drawn = card_drawn
    g.vulnerable = vulnerable
    g.pend_card = pend
    g.pend_total = pending_total
    g.wd4_by = wd4_by
    g.wd4_prev_color = before
    g.wd4_guilty = wd4 and holds_color(placed_hands[wd4_by], before)
    g.scores = points
    g.live = alive
    g.n_live = sum(alive)
    g.dealer = dealer
    g.round_index = round_index
    g.round_winner = round_winner
    g.game_winner = game_winner
    g.refresh_flags()
    return g


def _bad(what: str) -> PositionError:
    return PositionError(f"not a possible position: {what}")


def _card(c: Card, where: str) -> int:
    if isinstance(c, str):
        try:
            return parse_card(c)
        except CardError as e:
            raise _bad(f"in {where}: {e}") from None
    if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < NUM_CARDS:
        raise _bad(f"in {where}: {c!r} is not a card (an id from 0 to {NUM_CARDS - 1} or a code)")
    return c


def _color(c: Color, what: str) -> int:
    if isinstance(c, str):
        try:
            return parse_color(c)
        except CardError as e:
            raise _bad(f"{what}: {e}") from None
    if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c <= 3:
        raise _bad(f"{what} must be a colour (0-3, or R, Y, G, B), not {c!r}")
    return c


def _seat(s: int, what: str, n: int) -> int:
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n:
        raise _bad(f"{what} must be a number from 0 to {n - 1}, not {s!r}")
    return s


def _phase(p: int | str) -> int:
    if isinstance(p, str) and p in PHASE_NAMES:
        return PHASE_NAMES.index(p)
    if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(PHASE_NAMES):
        return p
    raise _bad(f"phase must be one of {', '.join(PHASE_NAMES)} (or 0-6), not {p!r}")


__all__ = ["PositionError", "position"]
