"""Checking an action before it is applied: its shape, then the rules (R-TURN-7).

Run far less than the trusted path, and it changes nothing, so it stands apart from
the state and its transitions; ``Game.check`` and ``Game.apply`` call it.  It reads a
game only through ``Position``, a protocol of ``Game``'s public fields and queries
defined here, below ``game.py``: this module never imports ``Game``, so the engine's
imports run one way and no module here depends on another's private names.  What is
legal is ``Game.legal_actions``'s to say; this module checks the shape and words the
refusal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from unokit.cards import (
    CARD_CODE,
    CARD_RANK,
    COLOR_CODES,
    IS_NUMBER,
    NUM_CARDS,
    PLAYABLE_MASK,
    TOP_RANKS,
    WILD,
    WILD_DRAW4,
    WILD_SWAP,
)
from unokit.engine.actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    KEEP,
    KIND_NAMES,
    PLAY,
    UNO,
    Action,
)
from unokit.engine.errors import IllegalAction
from unokit.engine.phases import (
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_GAME_OVER,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
)
from unokit.rules import RuleSet


class Position(Protocol):
    """What checking reads of a game: ``Game``'s public fields and queries, read only."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def n(self) -> int: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def live(self) -> list[bool]: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def discard(self) -> list[int]: ...
    @property
    def phase(self) -> int: ...
    @property
    def current(self) -> int: ...
    @property
    def color(self) -> int: ...
    @property
    def drawn(self) -> int: ...
    @property
    def vulnerable(self) -> int: ...
    @property
    def pend_card(self) -> int: ...

    def legal_actions(self, seat: int) -> list[Action]: ...
    def jump_ins(self, seat: int) -> bool: ...
    def drawn_playable(self) -> bool: ...
    def answers(self, seat: int) -> list[int]: ...
    def needs_target(self, seat: int, cards: Sequence[int]) -> bool: ...
    def can_play(self, hand: list[int], card: int) -> bool: ...


# What each kind of action carries besides its kind: (card, colour, target, uno).
_TAKES = {
    PLAY: (True, True, True, True),
    DRAW: (False, False, False, False),
    KEEP: (False, False, False, False),
    UNO: (False, False, False, False),
    CATCH: (False, False, True, False),
    CHALLENGE: (False, False, False, False),
    ACCEPT: (False, False, False, False),
    COLOR: (False, True, True, False),
}


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_shape(
    action: object,
    n: int,
    cards: int = NUM_CARDS,
    colors: tuple[str, ...] = ("R", "Y", "G", "B"),
) -> None:
    """Refuse an ``Action`` that no text or record could describe (IllegalAction).

    The kind must exist; a card, colour, target, UNO flag or extra cards only where
    the kind takes them; every number a whole number (``int``, not ``bool`` or a float
    equal to one: an ``Action`` compares equal to a listed one with ``3.0`` for ``3``,
    and the fast path would then half-apply it) and in range.  The rules are checked
    afterwards.  ``cards`` and ``colors`` are the game's own: every game (the modern
    ones with their card ids and colour codes) refuses the same shapes with the same
    codes.
    """
    if not isinstance(action, Action):
        raise IllegalAction(f"{action!r} is not an Action", code="bad_action")
    kind, card, color, target, uno, extra = action
    if not _is_int(kind) or kind not in _TAKES:
        raise IllegalAction(
            f"there is no action of kind {kind!r} (0 to {len(KIND_NAMES) - 1})",
            code="bad_action",
        )
    name = KIND_NAMES[kind]
    takes_card, takes_color, takes_target, takes_uno = _TAKES[kind]
    if not all(_is_int(x) for x in (card, color, target)) or not isinstance(uno, bool):
        raise IllegalAction(
            f"a {name} action needs whole numbers for card, colour and target and true or "
            f"false for uno, not {action[1:5]!r}",
            code="bad_action",
        )
    if not isinstance(extra, tuple) or not all(_is_int(c) for c in extra):
        raise IllegalAction(
            f"extra cards must be a tuple of card ids, not {extra!r}", code="bad_action"
        )
    if takes_card:
        for c in (card, *extra):
            if not 0 <= c < cards:
                raise IllegalAction(f"there is no card {c} (0 to {cards - 1})", code="bad_card")
    elif card != -1 or extra:
        raise IllegalAction(f"a {name} action takes no card", code="bad_action")
    if color != -1 and not (takes_color and 0 <= color < len(colors)):
        if takes_color:
            raise IllegalAction(
                f"there is no colour {color}: choose {', '.join(colors[:-1])} or {colors[-1]}",
                code="bad_color",
            )
        raise IllegalAction(f"a {name} action takes no colour", code="bad_color")
    if target != -1 and not (takes_target and 0 <= target < n):
        if takes_target:
            raise IllegalAction(f"there is no seat {target} at this table", code="bad_target")
        raise IllegalAction(f"a {name} action takes no seat", code="bad_target")
    if uno and not takes_uno:
        raise IllegalAction(
            f"a {name} action takes no UNO call: call it alone ('uno')", code="bad_action"
        )


def canonical(game: Position, seat: int, action: Action) -> Action:
    """The form of ``action`` that ``legal_actions`` lists, for a membership test.

    Three spellings mean the same decision: ``draw`` when a hit waits is ``accept``; a
    play's UNO flag is the player's own business (a wrong call is accepted and costs
    ``false_uno_penalty``, R-UNO-3); multi-play's middle cards may come in any order
    (only the first and the last card have effects, R-VAR-MULTI).
    """
    kind = action.kind
    if kind == DRAW and seat == game.current and game.phase in (P_CHALLENGE, P_ANSWER):
        return Action(ACCEPT)
    if kind == PLAY:
        extra = action.extra
        if len(extra) > 1:
            extra = (*sorted(extra[:-1]), extra[-1])
        return Action(PLAY, action.card, action.color, action.target, False, extra)
    return action


def allowed(game: Position, seat: int, action: Action) -> bool:
    """Whether ``seat`` may take ``action`` now: the one definition of legal.

    ``legal_actions`` lists every decision; an UNO call is allowed besides at any time
    of a round to any live seat (a call without exactly one card is penalised, R-UNO-3,
    so it is a legal if costly action, not listed to keep bots' choices meaningful).
    ``action`` must have passed the shape check.
    """
    if game.phase >= P_ROUND_OVER or not game.live[seat]:
        return False
    if action.kind == UNO:
        return True
    return canonical(game, seat, action) in game.legal_actions(seat)


def check_action(game: Position, seat: int, action: Action) -> None:
    """Raise IllegalAction if ``seat`` may not take ``action`` now; change nothing.

    Legal means ``allowed`` (so ``legal_actions``); the rest of this module only finds
    the words and the code that say *why* an action is refused.
    """
    n = game.n
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise IllegalAction(f"there is no seat {seat!r} at this table", code="bad_seat")
    check_shape(action, n)
    if allowed(game, seat, action):
        return
    explain(game, seat, action)
    raise IllegalAction(f"{action} is not allowed now", code="illegal_action")


def explain(game: Position, seat: int, action: Action) -> None:
    """Raise the IllegalAction that says why ``action`` is refused, if a rule names it."""
    n = game.n
    phase = game.phase
    if phase == P_GAME_OVER:
        raise IllegalAction("the game is over", code="game_over")
    if phase == P_ROUND_OVER:
        raise IllegalAction("the round is over", code="round_over")
    name = game.names
    if not game.live[seat]:
        raise IllegalAction(f"{name[seat]} is out of the game", code="eliminated")
    kind = action.kind
    if kind == UNO:
        return
    if kind == CATCH:
        t = action.target
        if not 0 <= t < n:
            raise IllegalAction(f"there is no seat {t} to catch", code="bad_target")
        if t == seat:
            raise IllegalAction("you cannot catch yourself", code="no_catch")
        if t != game.vulnerable:
            why = (
                "do not have exactly one card"
                if len(game.hands[t]) != 1
                else "called UNO or can no longer be caught"
            )
            raise IllegalAction(f"{name[t]} cannot be caught: they {why}", code="no_catch")
        return
    cur = game.current
    if seat != cur:
        if kind == PLAY and game.jump_ins(seat) and action.card == game.discard[-1]:
            check_play(game, seat, action, jump=True)
            return
        if phase in (P_CHALLENGE, P_ANSWER) and kind in (CHALLENGE, ACCEPT):
            raise IllegalAction(
                f"only {name[cur]}, who was hit, may answer it", code="not_challenged"
            )
        if kind == PLAY and game.rules.jump_in:
            raise IllegalAction(
                f"it is {name[cur]}'s turn; you may jump in only with a card identical "
                "to the top card",
                code="not_your_turn",
            )
        raise IllegalAction(f"it is {name[cur]}'s turn", code="not_your_turn")
    if phase == P_START_COLOR:
        if kind != COLOR:
            raise IllegalAction(
                "the start card is a Wild: choose its colour first", code="must_choose_color"
            )
        if not 0 <= action.color < 4:
            raise IllegalAction("choose a colour: R, Y, G or B", code="bad_color")
        if game.discard[-1] == WILD_SWAP:
            check_target(game, seat, action.target)
        elif action.target >= 0:
            raise IllegalAction("this start card takes no target", code="bad_target")
        return
    if phase == P_CHALLENGE:
        if kind in (CHALLENGE, ACCEPT, DRAW):
            return
        raise IllegalAction(
            "you were hit by a Wild Draw Four: challenge it or accept (draw 4)",
            code="must_answer_challenge",
        )
    if phase == P_ANSWER:
        if kind in (ACCEPT, DRAW):
            return
        if kind == CHALLENGE:
            if game.pend_card != WILD_DRAW4:
                raise IllegalAction(
                    "only a Wild Draw Four can be challenged", code="not_challenged"
                )
            return
        if kind != PLAY:
            raise IllegalAction(
                f"answer the {CARD_CODE[game.pend_card]} with a card, or accept it",
                code="must_answer",
            )
        check_play(game, seat, action)
        return
    if kind == COLOR:
        raise IllegalAction("a colour is chosen with the wild card you play", code="not_now")
    if kind in (CHALLENGE, ACCEPT):
        raise IllegalAction("there is no Wild Draw Four to answer", code="not_challenged")
    if kind == DRAW:
        if phase == P_DRAWN:
            raise IllegalAction(
                f"you already drew: play {CARD_CODE[game.drawn]} or keep it",
                code="already_drew",
            )
        return
    if kind == KEEP:
        if phase != P_DRAWN:
            raise IllegalAction("you can only keep a card you just drew", code="nothing_to_keep")
        if game.rules.force_play_drawn and game.drawn_playable():
            raise IllegalAction(
                f"the drawn card must be played: play {CARD_CODE[game.drawn]}",
                code="must_play_drawn",
            )
        return
    check_play(game, seat, action)


def check_target(game: Position, seat: int, t: int) -> None:
    if t < 0:
        raise IllegalAction("choose a player to swap hands with", code="target_required")
    if t >= game.n or t == seat or not game.live[t]:
        raise IllegalAction(f"seat {t} cannot be chosen to swap with", code="bad_target")


def check_play(game: Position, seat: int, action: Action, jump: bool = False) -> None:
    cards = action.cards
    card = action.card
    for c in cards:
        if not 0 <= c < len(CARD_CODE):
            raise IllegalAction(f"there is no card {c}", code="bad_card")
    code = CARD_CODE[card]
    hand = game.hands[seat]
    phase = game.phase
    if len(cards) > 1:
        if not game.rules.multi_play:
            raise IllegalAction("one card per turn (multi-play is off)", code="one_card")
        if phase != P_PLAY:
            raise IllegalAction("several cards can only start a turn", code="one_card")
        if not all(IS_NUMBER[c] and CARD_RANK[c] == CARD_RANK[card] for c in cards):
            raise IllegalAction(
                "several cards at once must all be numbers of the same value",
                code="not_same_number",
            )
    if phase == P_DRAWN and card != game.drawn:
        raise IllegalAction(
            f"after drawing you may play only the drawn card, {CARD_CODE[game.drawn]}",
            code="only_drawn_card",
        )
    need = Counter(cards)
    have = Counter(hand)
    for c, k in need.items():
        if have[c] < k:
            raise IllegalAction(f"you don't hold {CARD_CODE[c]}", code="card_not_held")
    top_card = cards[-1]
    if top_card >= WILD:
        if not 0 <= action.color < 4:
            name_ = "Wild Draw Four" if top_card == WILD_DRAW4 else "Wild"
            raise IllegalAction(f"{name_} needs a colour: R, Y, G or B", code="color_required")
    elif action.color >= 0:
        raise IllegalAction(
            f"{CARD_CODE[top_card]} is not a wild card; it takes no colour", code="bad_color"
        )
    if game.needs_target(seat, cards):
        check_target(game, seat, action.target)
    elif action.target >= 0:
        raise IllegalAction(f"{CARD_CODE[top_card]} takes no target now", code="bad_target")
    if jump:
        return
    if phase == P_ANSWER:
        if card not in game.answers(seat):
            raise IllegalAction(
                f"{code} cannot answer the {CARD_CODE[game.pend_card]}; "
                "answer with a matching card or accept",
                code="bad_answer",
            )
        return
    top = game.discard[-1]
    if not PLAYABLE_MASK[game.color * TOP_RANKS + CARD_RANK[top]] >> card & 1:
        raise IllegalAction(
            f"{code} does not match {CARD_CODE[top]} with {COLOR_CODES[game.color]} in force",
            code="card_does_not_match",
        )
    if card == WILD_DRAW4 and not game.can_play(hand, card):
        raise IllegalAction(
            f"Wild Draw Four is only allowed when you hold no {COLOR_CODES[game.color]} card",
            code="wd4_not_allowed",
        )
