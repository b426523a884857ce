"""UNO Flip! and No Mercy in the terminal: their faces, colours, words and bots.

A ``Look`` (``table.py``) tells the widgets, dialogs and log how a game's cards look;
here are the two modern games' looks.  Every face shows a colour letter and a number
or symbol, so nothing depends on seeing colour: R Y G B on Flip's light side (as the
classic cards), P T O V on its dark side (pink, teal, orange, purple), on dark-toned
backgrounds.  The codes typed with ``/`` are the engine's (``T+5``, ``VSE``, ``W+C O``;
No Mercy ``BSE``, ``GDA``, ``WR+4 R``).

Nothing here sees more than the human's view: the faces are the view's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rich.text import Text

from unokit.bots import BOTS, Bot
from unokit.bots.base import bot_games, observes
from unokit.bots.roster import bot_kind, make_bots
from unokit.engine import Action, Event, View
from unokit.engine.family import find_game, plays
from unokit.engine.modern import ModernView
from unokit.modern_cards import (
    DARK,
    F_DRAW,
    F_FLIP,
    F_REVERSE,
    F_SKIP,
    FACE_COLOR,
    FACE_POINTS,
    FACE_RANK,
    FACE_SIDE,
    FACE_WILD,
    FLIP_COLOR_CODES,
    FLIP_COLOR_NAMES,
    LIGHT,
    N_D2,
    N_D4,
    N_DISCARDALL,
    N_REVERSE,
    N_SKIP,
    N_SKIPALL,
    NM_CODE,
    NM_COLOR,
    NM_COLOR_NAMES,
    NM_POINTS,
    NM_RANK,
    NM_W,
    NM_W6,
    NM_W10,
    NM_WCR,
    NM_WILD,
    NM_WR4,
    SIDE_NAMES,
    WILD_D2,
    WILD_DC,
    WILD_F,
)
from unokit.rules import RuleSet
from unokit.tui.table import CARD_BG, CARD_FG, FLIP_MARK, TEXT_COLOR, Look, Swatch

GAME_TITLES = {"flip": "UNO Flip!", "no-mercy": "UNO Show 'Em No Mercy"}

# Flip's dark side: pink, teal, orange, purple (letters P T O V), after the light side's
# red, yellow, green, blue.  Wild faces are near black; the dark side's are darker.
FLIP_BG = (*CARD_BG[:4], "#ad1457", "#00796b", "#e65100", "#6a1b9a")
FLIP_FG = ("white", "black", "white", "white", "white", "white", "black", "white")
FLIP_TEXT = (*TEXT_COLOR[:4], "bold #f06292", "bold #4db6ac", "bold #ffa726", "bold #ba68c8")
WILD_BG = {LIGHT: CARD_BG[4], DARK: "#1b1b1b"}
SIDE_STYLE = {LIGHT: "bold black on #fff59d", DARK: "bold white on #4a148c"}

FLIP_SYMBOLS = {
    LIGHT: {F_DRAW: "+1", F_REVERSE: "⇄", F_SKIP: "⊘", F_FLIP: FLIP_MARK},
    DARK: {F_DRAW: "+5", F_REVERSE: "⇄", F_SKIP: "⊘⊘", F_FLIP: FLIP_MARK},
}
FLIP_FACE_NAMES = {
    LIGHT: {F_DRAW: "draw one", F_REVERSE: "reverse", F_SKIP: "skip", F_FLIP: "flip"},
    DARK: {F_DRAW: "draw five", F_REVERSE: "reverse", F_SKIP: "skip all", F_FLIP: "flip"},
}
FLIP_WILDS = {WILD_F: ("Wild", "wild"), WILD_D2: ("W+2", "draw two"), WILD_DC: ("W+C", "draw col")}
FLIP_LEGEND = (
    f"⊘ skip  ⊘⊘ skip everyone  ⇄ reverse  {FLIP_MARK} flip  +1 +5 draw one, five\n"
    "  W+2 wild draw two  W+C wild draw colour (draw until that colour comes)"
)

NM_SYMBOLS = {
    N_SKIP: "⊘",
    N_REVERSE: "⇄",
    N_D2: "+2",
    N_D4: "+4",
    N_SKIPALL: "⊘⊘",
    N_DISCARDALL: "DA",
}
NM_FACE_NAMES = {
    N_SKIP: "skip",
    N_REVERSE: "reverse",
    N_D2: "draw two",
    N_D4: "draw four",
    N_SKIPALL: "skip all",
    N_DISCARDALL: "discard",
}
NM_WILDS = {
    NM_W: ("Wild", "wild", "Wild"),
    NM_WR4: ("W⇄+4", "rev. +4", "Wild Reverse Draw Four"),
    NM_W6: ("W+6", "draw six", "Wild Draw Six"),
    NM_W10: ("W+10", "draw ten", "Wild Draw Ten"),
    NM_WCR: ("WCR", "roulette", "Wild Colour Roulette"),
}
NM_BG = {NM_W: "#424242", NM_WR4: "#37474f", NM_W6: "#3e2723", NM_W10: "#b71c1c", NM_WCR: "#263238"}
NM_LEGEND = (
    "⊘ skip  ⊘⊘ skip everyone  ⇄ reverse  +2 +4 draw  DA discard all\n"
    "  W⇄+4 wild reverse draw four  W+6 W+10 wild draw  WCR colour roulette"
)


class ModernLook(Look):
    """What the modern games' views add, read where the view's type is known."""

    def _view(self, view: View) -> ModernView:
        assert isinstance(view, ModernView), "a modern game's look shows its own views"
        return view

    def side(self, view: View) -> int:
        return self._view(view).side

    def pile_top(self, view: View) -> int:
        return self._view(view).pile_top

    def aside(self, view: View) -> int:
        return self._view(view).aside

    def others(self, view: View) -> tuple[tuple[int, ...], ...]:
        return self._view(view).others

    def help(self) -> str | None:
        return modern_help(self)


class FlipLook(ModernLook):
    """UNO Flip!: faces of both sides; the side up decides only what a hand shows."""

    title = GAME_TITLES["flip"]
    legend = FLIP_LEGEND
    two_player_reverse_event = False
    typing = (
        "R7, T+5, W G, W+C O uno, R7/Y7, draw,\n"
        "          keep, catch 2 (codes: VSE is V⊘⊘, OR is O⇄, PF is P↕)"
    )

    def label(self, card: int) -> str:
        if FACE_WILD[card]:
            return FLIP_WILDS[card][0]
        side, rank = FACE_SIDE[card], FACE_RANK[card]
        code = FLIP_COLOR_CODES[FACE_COLOR[card]]
        return code + FLIP_SYMBOLS[side].get(rank, str(rank))

    def face_name(self, card: int) -> str:
        if FACE_WILD[card]:
            return FLIP_WILDS[card][1]
        side, rank = FACE_SIDE[card], FACE_RANK[card]
        return FLIP_FACE_NAMES[side].get(rank, FLIP_COLOR_NAMES[FACE_COLOR[card]])

    def style(self, card: int) -> str:
        c = FACE_COLOR[card]
        if c < 0:
            return f"bold white on {WILD_BG[DARK if card == WILD_DC else LIGHT]}"
        return f"bold {FLIP_FG[c]} on {FLIP_BG[c]}"

    def card_color(self, card: int) -> int:
        return FACE_COLOR[card]

    def text(self, card: int) -> Text:
        c = FACE_COLOR[card]
        return Text(self.label(card), style=FLIP_TEXT[c] if c >= 0 else "bold")

    def is_wild(self, card: int) -> bool:
        return FACE_WILD[card]

    def long_name(self, card: int) -> str:
        if card == WILD_D2:
            return "Wild Draw Two"
        if card == WILD_DC:
            return "Wild Draw Colour"
        return self.label(card)

    def challengeable(self, card: int) -> bool:
        return card in (WILD_D2, WILD_DC)

    def points(self, card: int) -> int:
        return FACE_POINTS[card]

    def swatches(self) -> tuple[Swatch, ...]:
        return tuple(
            Swatch(c, FLIP_COLOR_CODES[c], FLIP_COLOR_NAMES[c], FLIP_BG[c], FLIP_FG[c])
            for c in range(8)
        )

    def color_text(self, color: int) -> Text:
        if not 0 <= color < 8:
            return Text("none yet")
        return Text(FLIP_COLOR_NAMES[color].capitalize(), style=FLIP_TEXT[color])

    def parse(self, text: str) -> Action:
        return find_game("flip").codec().parse_action(text)

    def color_prompt(self, view: View) -> str:
        side = SIDE_NAMES[max(side_of(view), 0)]
        return f"A Wild is on top: name a colour of the {side} side (the letters shown)."


class NoMercyLook(ModernLook):
    """UNO Show 'Em No Mercy: one side, four colours, its own cards."""

    title = GAME_TITLES["no-mercy"]
    knocks_out = True
    legend = NM_LEGEND
    two_player_reverse_event = False
    typing = (
        "R7, B+4, W+6 G, WR+4 B, WCR, R7 2 (a 7\n"
        "          and the seat to swap with), draw, accept, catch 2\n"
        "          (codes: GSE is G⊘⊘, YS is Y⊘, RR is R⇄, WR+4 is W⇄+4)"
    )

    def label(self, card: int) -> str:
        if NM_WILD[card]:
            return NM_WILDS[card][0]
        rank = NM_RANK[card]
        return NM_CODE[card][0] + NM_SYMBOLS.get(rank, str(rank))

    def face_name(self, card: int) -> str:
        if NM_WILD[card]:
            return NM_WILDS[card][1]
        return NM_FACE_NAMES.get(NM_RANK[card], NM_COLOR_NAMES[NM_COLOR[card]])

    def style(self, card: int) -> str:
        if NM_WILD[card]:
            return f"bold white on {NM_BG[card]}"
        c = NM_COLOR[card]
        return f"{CARD_FG[c]} on {CARD_BG[c]}"

    def card_color(self, card: int) -> int:
        return NM_COLOR[card]

    def text(self, card: int) -> Text:
        c = NM_COLOR[card]
        return Text(self.label(card), style=TEXT_COLOR[c] if c >= 0 else "bold")

    def is_wild(self, card: int) -> bool:
        return NM_WILD[card]

    def long_name(self, card: int) -> str:
        if NM_WILD[card]:
            return NM_WILDS[card][2]
        return self.label(card)

    def challengeable(self, card: int) -> bool:
        return False  # NM-STACK: no challenges in No Mercy

    def points(self, card: int) -> int:
        return NM_POINTS[card]

    def parse(self, text: str) -> Action:
        return find_game("no-mercy").codec().parse_action(text)

    def start_note(self, card: int) -> str:
        if NM_RANK[card] > 9:  # NM-START-1
            return " (not a number: another card is turned over it)"
        return ""

    def played_card(self, cards: Sequence[int]) -> int:
        return cards[0]  # a Discard All comes first, the colour's other cards after it

    def play_text(self, cards: Sequence[int]) -> Text:
        t = self.text(cards[0])
        if len(cards) > 1:  # NM-ACT-DISCARDALL
            t.append(" and discarded ")
            t.append_text(self.cards_text(cards[1:]))
        return t

    def names_color(self, card: int) -> bool:
        return card != NM_WCR or self.rules.nm_roulette_color == "player"

    def color_note(self, yours: bool) -> Text:
        turn = "you turn" if yours else "they turn"
        return Text(f" for the Colour Roulette: {turn} cards over until it comes, keeping all")

    def color_prompt(self, view: View) -> str:
        return (
            "Colour Roulette! Name a colour: you turn cards over until one of it comes, "
            "and keep them all."
        )


def side_of(view: View) -> int:
    """Flip's side up (0 light, 1 dark), -1 for a game without sides."""
    return view.side if isinstance(view, ModernView) else -1


def look_for(rules: RuleSet) -> Look:
    """The look of the game ``rules`` play."""
    return LOOKS.get(rules.game, Look)(rules)


# each game's look, by its name in the family (the classic game: ``Look``)
LOOKS: dict[str, type[Look]] = {"flip": FlipLook, "no-mercy": NoMercyLook}


def side_text(side: int) -> Text:
    """``LIGHT side up`` / ``DARK side up``, in the side's colours."""
    return Text(f" {SIDE_NAMES[side].upper()} side up ", style=SIDE_STYLE[side])


# --------------------------------------------------------------------- bots --------
class FallbackBot:
    """A bot for a modern game that a random bot replaces, for good, if it refuses.

    Until every bot plays UNO Flip! and No Mercy, a bot that raises, or answers with
    an action its view does not list, hands its seat to ``backup`` and says so once
    through ``on_switch``.
    """

    def __init__(self, primary: Bot, backup: Bot, kind: str, game: str) -> None:
        self.primary = primary
        self.backup = backup
        self.kind = kind
        self.game = game
        self.name = primary.name
        self.failed = False
        self.observes = observes(primary)
        self.on_switch: Callable[[str], None] | None = None

    @property
    def bot(self) -> Bot:
        return self.backup if self.failed else self.primary

    def _text(self, action: Action) -> str:
        return find_game(self.game).codec().action_text(action)

    def _fail(self, why: str) -> None:
        if self.failed:
            return
        self.failed = True
        self.observes = observes(self.backup)
        if self.on_switch is not None:
            self.on_switch(
                f"The {self.kind} bots do not play {find_game(self.game).TITLE} "
                f"yet ({why[:80]}): random bots play instead."
            )

    def observe(self, events: Sequence[Event]) -> None:
        if not self.failed:
            try:
                self.primary.observe(events)
            except Exception as e:
                self._fail(f"{type(e).__name__}: {e}")

    def act(self, view: View) -> Action:
        if not self.failed:
            try:
                action = self.primary.act(view)
                if action in view.legal:
                    return action
                self._fail(f"it chose {self._text(action)}, which is not allowed")
            except Exception as e:
                self._fail(f"{type(e).__name__}: {e}")
        return self.backup.act(view)

    def react(self, view: View) -> Action | None:
        if not self.failed:
            try:
                action = self.primary.react(view)
                if action is None or action in view.legal:
                    return action
                self._fail(f"it chose {self._text(action)}, which is not allowed")
            except Exception as e:
                self._fail(f"{type(e).__name__}: {e}")
        return self.backup.react(view)


def plays_modern(kind: str, rules: RuleSet) -> bool:
    """Whether bots of ``kind`` play this game, as they declare (``games``); a bot is
    never run to find out."""
    return kind in BOTS and plays(bot_games(BOTS[kind]), rules)


def modern_bot_kind(kind: str | None, level: str, rules: RuleSet) -> tuple[str, str]:
    """The bot kind to seat in a modern game, and a note for the log if it is not the
    level's usual one: the kind asked for (``FallbackBot`` steps in if it refuses),
    else the level's best kind that plays this game, else random."""
    if kind is not None:
        return kind, ""
    best = bot_kind(level, BOTS)
    for candidate in dict.fromkeys((best, "heuristic", "greedy", "random")):
        if candidate in BOTS and (candidate == "random" or plays_modern(candidate, rules)):
            if candidate == best:
                return candidate, ""
            game = find_game(rules.game).TITLE
            return candidate, (
                f"The {best} bots of level {level} do not play {game} yet: "
                f"{candidate} bots play instead."
            )
    fallback = "random"  # plays every legal action of any view
    return fallback, ""


def modern_bots(
    kind: str, level: str, count: int, seed: int | None, rules: RuleSet
) -> list[FallbackBot]:
    """``count`` opponents of ``kind`` for a modern game, each with a random stand-in."""
    primary = make_bots(kind, level, count, seed)
    backup = make_bots("random", level, count, seed if seed is not None else random.getrandbits(31))
    return [FallbackBot(p, b, kind, rules.game) for p, b in zip(primary, backup, strict=True)]


__all__ = [
    "GAME_TITLES",
    "FallbackBot",
    "FlipLook",
    "NoMercyLook",
    "look_for",
    "modern_bot_kind",
    "modern_bots",
    "plays_modern",
    "side_of",
    "side_text",
]


KEYS = """\
 ← → ↑ ↓  choose a card           Enter, click  play it
 d        draw                    k / p         keep / play the drawn card
 u        call UNO: press it before playing your last but one card (the
          button lights up), or just after, before anybody catches you
 c        catch a player who has one card and did not call UNO
 a        accept what hits you
 /        type a move: {typing}
 r        the rules of this game       ?  this help
 q        quit (Ctrl+C too); you may save the game record first
"""

FLIP_HELP = """\
UNO Flip!: every card has a light side and a dark side, and the side up
counts (the header and the pile say which).  A Flip card ({flip}) turns every
card over: hands, draw pile and discard pile.  As at a real table you see
the side up of your own cards, and the other side of everyone else's cards
(the panel above your hand) and of the draw pile's top card ("its back").
The other side of your own cards stays hidden.

Every card shows its colour letter and its number or symbol:
  light side  R red  Y yellow  G green  B blue
  dark side   P pink  T teal  O orange  V violet (purple)
  {legend}

{keys}
A Wild asks for a colour of the side up.  Hit by a Wild Draw Two or a
Wild Draw Colour you may challenge (c) or accept (a).
Bots forget to call UNO now and then: catch them!\
"""

NM_HELP = """\
UNO Show 'Em No Mercy: a draw goes on until a card you can play comes, and
that card must be played.  Draw cards stack by value: hit by one, play a
raised draw card of the same value or more, or accept (a) and take the whole
stack.  A 7 asks whom to swap hands with; a 0 passes every hand on; a
Discard All takes every card of its colour with it; Skip Everyone gives you
another turn; a Colour Roulette's victim names a colour and turns cards over
until it comes, keeping them all.
The Mercy rule: whoever holds {limit} cards or more is knocked out of the hand.

Every card shows its colour letter (R Y G B) and its number or symbol:
  {legend}

{keys}
Bots forget to call UNO now and then: catch them!\
"""


def modern_help(look: Look) -> str:
    """The help screen of a modern game."""
    keys = KEYS.format(typing=look.typing)
    if isinstance(look, FlipLook):
        return FLIP_HELP.format(flip=FLIP_MARK, legend=look.legend, keys=keys)
    limit = look.rules.mercy_limit
    return NM_HELP.format(limit=limit or "(off)", legend=look.legend, keys=keys)
