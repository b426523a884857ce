"""The table behind the terminal game: seats, bots, pacing decisions and the readable log.

Nothing here knows about Textual, so it is tested without a screen.  The human's seat
sees the game only through ``view_of(game, human)`` and ``game.events_for(human, ...)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.text import Text

from unokit.bots import Bot
from unokit.bots.roster import BOT_NAMES
from unokit.cards import (
    CARD_COLOR,
    CARD_RANK,
    COLOR_CODES,
    COLOR_NAMES,
    DRAW2,
    IS_WILD,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_SHUFFLE,
    WILD_SWAP,
    card_points,
    deck_has,
)
from unokit.engine import (
    DRAW,
    KEEP,
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_ROUND_OVER,
    P_START_COLOR,
    PLAY,
    Action,
    Event,
    Game,
    View,
    view_of,
)
from unokit.engine.events import (
    Catch,
    Challenge,
    Color,
    Deal,
    DealerDraw,
    Discard,
    Draw,
    Eliminated,
    FalseUno,
    Flip,
    GameOver,
    Hand,
    Hit,
    Keep,
    Knockout,
    Launch,
    Play,
    Reshuffle,
    Retract,
    Reveal,
    Reverse,
    Rotate,
    RoundOver,
    RoundStart,
    ShuffleHands,
    Skip,
    StartCard,
    StartReturn,
    Swap,
    Uno,
)
from unokit.engine.view import shown_hands
from unokit.match import Match, SeatKind
from unokit.rules import (
    CUSTOM_RULE_TEXT,
    GAME_OPTIONS,
    MODERN_OPTION_HELP,
    RuleSet,
    default_hand_size,
    from_preset,
)

# Card colours for the terminal: (foreground, background).  The label always names the
# colour too, so nothing depends on seeing colour.
CARD_FG = ("bold white", "bold black", "bold white", "bold white", "bold white")
CARD_BG = ("#c62828", "#f9a825", "#2e7d32", "#1565c0", "#424242")
TEXT_COLOR = ("bold #ef5350", "bold #fdd835", "bold #66bb6a", "bold #42a5f5", "bold")


def card_style(card: int) -> str:
    """The rich style of a card face."""
    c = CARD_COLOR[card]
    return f"{CARD_FG[c]} on {CARD_BG[c]}"


def color_style(color: int) -> str:
    """The rich style of a colour swatch (``-1``: no colour yet)."""
    if not 0 <= color < 4:
        return "bold"
    return f"{CARD_FG[color]} on {CARD_BG[color]}"


# What a card shows: its colour's initial and its number or a symbol (the codes R7, YS,
# WCUST are only for typing).  At most 4 cells, so a hand of 15 fits in 80 columns.
SYMBOLS = {SKIP: "⊘", REVERSE: "⇄", DRAW2: "+2"}
WILD_LABELS = {
    WILD: "Wild",
    WILD_DRAW4: "W+4",
    WILD_SWAP: "Swap",
    WILD_SHUFFLE: "Shuf",
    WILD_CUSTOM: "W★",
}
# Names under the label on the pile (9 cells).
FACE_NAMES = {SKIP: "skip", REVERSE: "reverse", DRAW2: "draw two"}
WILD_FACE_NAMES = {
    WILD: "wild",
    WILD_DRAW4: "draw four",
    WILD_SWAP: "swap hand",
    WILD_SHUFFLE: "shuffle",
    WILD_CUSTOM: "custom",
}
FLIP_MARK = "↕"  # a Flip card's symbol, and the log's mark for a flip
LEGEND = "⊘ skip  ⇄ reverse  +2 draw two  W+4 wild draw four  W★ custom wild"


def card_label(card: int) -> str:
    """The short face of a card: ``R7``, ``G⇄``, ``Y⊘``, ``B+2``, ``Wild``, ``W+4``, ``W★``."""
    if card >= WILD:
        return WILD_LABELS[card]
    rank = CARD_RANK[card]
    return COLOR_CODES[CARD_COLOR[card]] + SYMBOLS.get(rank, str(rank))


def card_face_name(card: int) -> str:
    """The word under a card's label on the pile: ``skip``, ``wild``, ``red`` for numbers."""
    if card >= WILD:
        return WILD_FACE_NAMES[card]
    rank = CARD_RANK[card]
    return FACE_NAMES.get(rank, COLOR_NAMES[CARD_COLOR[card]])


def card_text(card: int) -> Text:
    """A card's label coloured like its card, for the log and dialogs."""
    return Text(card_label(card), style=TEXT_COLOR[CARD_COLOR[card]])


def cards_text(cards: Sequence[int]) -> Text:
    """Card codes, coloured, separated by spaces."""
    t = Text()
    for i, c in enumerate(cards):
        if i:
            t.append(" ")
        t.append_text(card_text(c))
    return t


def color_text(color: int) -> Text:
    if not 0 <= color < 4:
        return Text("none yet")
    return Text(COLOR_NAMES[color].capitalize(), style=TEXT_COLOR[color])


class Swatch(NamedTuple):
    """A colour a player may name: its id, key letter, name and card colours."""

    color: int
    letter: str
    name: str
    bg: str
    fg: str


CLASSIC_SWATCHES = tuple(
    Swatch(c, COLOR_CODES[c], COLOR_NAMES[c], CARD_BG[c], CARD_FG[c].split()[-1]) for c in range(4)
)


class Look:
    """How one game's cards look in the terminal; this one draws the classic cards.

    The modern games (``unokit.tui.modern``) draw their own faces through the same
    methods, so the widgets, dialogs and log never ask which game is played.
    """

    title = "UNO"
    legend = LEGEND
    # a Reverse event with two players is a Skip (R-2P-REVERSE); the modern games send
    # a Skip event for that instead, and Reverse only when the direction turns
    two_player_reverse_event = True
    typing = "R7, W G, W+4 B uno, R7/Y7, draw, keep, catch 2 (YS is Y⊘, GR is G⇄, WCUST is W★)"

    # No Mercy: a seat out of the hand was knocked out (NM-MERCY), not eliminated
    knocks_out = False

    def __init__(self, rules: RuleSet | None = None) -> None:
        self.rules = rules or RuleSet()

    # what a game's view adds, asked of the look so the widgets never probe a view
    def side(self, view: View) -> int:
        """The side up (Flip: 0 light, 1 dark); -1 for a game without sides."""
        return -1

    def pile_top(self, view: View) -> int:
        """The face of the draw pile's top card everyone sees, or -1."""
        return -1

    def aside(self, view: View) -> int:
        """Cards set aside out of play (No Mercy's knocked-out hands)."""
        return 0

    def others(self, view: View) -> tuple[tuple[int, ...], ...]:
        """What the seat sees of each opponent's cards (Flip's other faces), or ()."""
        return ()

    def help(self) -> str | None:
        """The game's own help screen text; None for the classic one."""
        return None

    def label(self, card: int) -> str:
        return card_label(card)

    def face_name(self, card: int) -> str:
        return card_face_name(card)

    def style(self, card: int) -> str:
        return card_style(card)

    def card_color(self, card: int) -> int:
        """The colour a card sets when played (-1: a wild, named by its player)."""
        return -1 if IS_WILD[card] else CARD_COLOR[card]

    def text(self, card: int) -> Text:
        return card_text(card)

    def cards_text(self, cards: Sequence[int]) -> Text:
        t = Text()
        for i, c in enumerate(cards):
            if i:
                t.append(" ")
            t.append_text(self.text(c))
        return t

    def is_wild(self, card: int) -> bool:
        return IS_WILD[card]

    def long_name(self, card: int) -> str:
        """A card's name in a sentence: ``Wild Draw Four``."""
        return "Wild Draw Four" if card == WILD_DRAW4 else self.label(card)

    def challengeable(self, card: int) -> bool:
        """Whether the next player may challenge this card (a Wild Draw Four)."""
        return card == WILD_DRAW4

    def points(self, card: int) -> int:
        return card_points(card, self.rules.wild_points)

    def swatches(self) -> tuple[Swatch, ...]:
        """Every colour of the game (Flip: both sides)."""
        return CLASSIC_SWATCHES

    def swatch(self, color: int) -> Swatch | None:
        return next((s for s in self.swatches() if s.color == color), None)

    def color_style(self, color: int) -> str:
        sw = self.swatch(color)
        return f"bold {sw.fg} on {sw.bg}" if sw is not None else "bold"

    def color_text(self, color: int) -> Text:
        return color_text(color)

    def parse(self, text: str) -> Action:
        """A typed move in this game's codes (ActionParseError if it is not one)."""
        return Action.parse(text)

    def played_card(self, cards: Sequence[int]) -> int:
        """The card of a play that acts (the last of a multi-play, on top)."""
        return cards[-1]

    def color_prompt(self, view: View) -> str:
        """What a colour to name now is for (``P_START_COLOR``)."""
        return "The start card is a Wild: choose the colour."

    def start_note(self, card: int) -> str:
        """What the log adds to a start card (No Mercy turns another over an action)."""
        return ""

    def play_text(self, cards: Sequence[int]) -> Text:
        """The cards of a play, for the log."""
        return self.cards_text(cards)

    def names_color(self, card: int) -> bool:
        """Whether the player of this wild names the colour (always, in classic UNO)."""
        return True

    def color_note(self, yours: bool) -> Text:
        """What follows a colour named outside a play, in the log."""
        return Text()


CLASSIC_LOOK = Look()


# --------------------------------------------------------------------- rules --------
def goal_text(rules: RuleSet) -> str:
    """How this game is won, in a few words (the header's)."""
    t = rules.target_score
    return {
        "first-out": "first out wins",
        "low": f"ends at {t} pts, lowest wins",
        "elimination": f"out at {t} pts",
        "teams": f"teams to {t} pts",
    }.get(rules.scoring, f"to {t} pts")


def custom_text(rules: RuleSet) -> str | None:
    """What the Wild Customizable (W★) does in this game, or None without one."""
    if rules.custom_rule == "none" and not deck_has(rules.deck, WILD_CUSTOM):
        return None
    if rules.custom_cards == 0:
        return None
    return CUSTOM_RULE_TEXT[rules.custom_rule]


# games whose header lists the options changed from their preset (the classic header
# words each house rule)
_OWN_PRESETS = frozenset({"flip", "no-mercy"})


def rules_summary(rules: RuleSet) -> str:
    """One line: the preset and what differs from the official rules (the header's)."""
    if rules.game in _OWN_PRESETS:  # UNO Flip!, No Mercy: changed from the preset's
        base = from_preset(rules.preset).options()
        changed = [f"{k}={_shown(v)}" for k, v in rules.options().items() if base.get(k, v) != v]
        return " · ".join([rules.preset, *changed])
    parts = [rules.preset]
    if rules.attack_launcher:
        parts.append("launcher instead of drawing")
    if rules.stacking != "off":
        parts.append(f"{rules.stacking} stacking")
    for key, word in (
        ("jump_in", "jump-in"),
        ("seven_zero", "seven-zero"),
        ("multi_play", "multi-play"),
        ("draw_until_playable", "draw until playable"),
        ("force_play_drawn", "must play drawn card"),
    ):
        if getattr(rules, key):
            parts.append(word)
    if not rules.wd4_bluffing:
        parts.append("no W+4 bluffing")
    if rules.wd4_guilty == "retract":
        parts.append("a guilty W+4 is taken back")
    if rules.false_uno_penalty:
        parts.append(f"false UNO +{rules.false_uno_penalty}")
    if rules.hand_size != default_hand_size(rules.deck):
        parts.append(f"{rules.hand_size} cards dealt")
    custom = custom_text(rules)
    if custom is not None:
        parts.append(f"W★: {custom}")
    return " · ".join(parts)


def rules_lines(rules: RuleSet) -> list[str]:
    """Every option in force with what it means, for the rules screen."""
    from unokit.rules import OPTION_HELP

    lines = [f"Preset: {rules.preset}   ({goal_text(rules)})"]
    custom = custom_text(rules)
    if custom is not None:
        lines.append(f"Wild Customizable (W★) in this game: {custom}")
    lines.append("")
    plays = {"deck", *GAME_OPTIONS[rules.game]}
    for key, value in rules.options().items():
        if key not in plays:
            continue  # an option this game does not play
        helps = OPTION_HELP.get(key) or MODERN_OPTION_HELP.get(key, "")
        lines.append(f"{key:<21} {_shown(value):<17} {helps}")
    return lines


def _shown(value: object) -> str:
    """An option's value as the rules screen writes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


# --------------------------------------------------------------------- names --------
def seat_names(human: str, count: int) -> list[str]:
    """The human's name first, then ``count`` bot names that differ from it."""
    human = " ".join(human.split())[:16] or "You"
    others = [n for n in BOT_NAMES if n.lower() != human.lower()]
    while len(others) < count:
        others.append(f"Bot{len(others) + 1}")
    return [human, *others[:count]]


# --------------------------------------------------------------------- table --------
class Table:
    """One game with one human seat and a bot for every other seat, through a ``Match``.

    Who is asked next, the version and the pass set are the match's (the same rule as
    the bot runner and the server), and so is the human's event cursor; the table adds
    the notes about bots that misbehaved.
    """

    def __init__(self, game: Game, bots: Sequence[Bot | None], human: int = 0) -> None:
        if len(bots) != game.n:
            raise ValueError("one bot entry per seat (None for the human)")
        seat_bots = [None if i == human else b for i, b in enumerate(bots)]
        kinds = [SeatKind.HUMAN if b is None else SeatKind.BOT for b in seat_bots]
        self.match = Match(game, seat_bots, kinds)
        self.match.on_bot_error = self._note
        self.game = game
        self.bots = list(bots)
        self.human = human
        self.notes: list[str] = []  # bot mishaps to show in the log
        self.notices: list[str] = []  # news for the log and a notice (a bot replaced)

    @property
    def version(self) -> int:
        """Rises with every applied action (the match's state version)."""
        return self.match.version

    def _note(self, seat: int, message: str) -> None:
        self.notes.append(f"{self.game.names[seat]}'s bot {message}")

    # --- what the human may know -----------------------------------------------
    def view(self) -> View:
        return view_of(self.game, self.human)

    def new_events(self) -> list[Event]:
        """Events the human may see that were not returned before (the match's cursor)."""
        return self.match.events_for(self.human)

    # --- acting -------------------------------------------------------------------
    def apply_human(self, action: Action) -> None:
        """Apply the human's action; IllegalAction (nothing changed) if not allowed."""
        self.match.submit(self.human, action)

    def next_round(self) -> None:
        self.match.next_round()

    def final_hands(self) -> list[tuple[int, ...]]:
        """Every hand once the round is over: they are laid down to be counted (R-SCORE)."""
        return [tuple(sorted(h)) for h in shown_hands(self.game)]

    def bots_pending(self) -> bool:
        """Whether a bot has something to do now (a turn, or a chance to react)."""
        seat = self.match.next_to_ask()
        return seat is not None and self.match.bots[seat] is not None

    def bot_step(self) -> bool:
        """One bot decision, in the match's order; False if none was made.

        Reactions first (from the seat after the current one round); bots that let a
        moment pass are not asked again until something changes.  A bot that fails
        is replaced for that decision by a legal turn action, with a note in the log.
        """
        return self.match.bot_step(fallback=True)


# --------------------------------------------------------------------- the log ------
class Narrator:
    """Turns events into lines of the log, from the human's point of view."""

    def __init__(self, names: Sequence[str], human: int, look: Look | None = None) -> None:
        self.names = list(names)
        self.human = human
        self.look = look or CLASSIC_LOOK
        self.color_reason = "start"  # why a colour is asked: "start", "flip" (UNO Flip!)
        self.color = -1  # colour in force as the events tell it
        self.wd4_prev_color = -1  # the colour before the last Wild Draw Four
        self.wild_draw = WILD_DRAW4  # the last card that may be challenged
        self.last_challenge: Event | None = None
        self.live: tuple[bool, ...] = (True,) * len(self.names)  # set by the app

    def who(self, seat: int) -> str:
        return "You" if seat == self.human else self.names[seat]

    def whom(self, seat: int) -> str:
        return "you" if seat == self.human else self.names[seat]

    def describe(self, e: Event) -> Text | None:
        """One log line for ``e``, or None for events not worth a line."""
        t = Text()
        look = self.look
        match e.data:
            case RoundStart(dealer=dealer, round=index):
                self.color = -1
                deals = "you deal" if dealer == self.human else f"{self.names[dealer]} deals"
                t.append(f"── Round {index + 1}: {deals} ──", style="bold")
            case Deal(n=n, cards=cards):
                if not cards:
                    return None
                t.append(f"You were dealt {n} card{'s' if n != 1 else ''}")
            case DealerDraw():
                return None
            case StartCard(card=card):
                self.color = look.card_color(card)
                self.color_reason = "start"
                t.append("Start card: ")
                t.append_text(look.text(card))
                t.append(look.start_note(card))
            case StartReturn(card=card):
                t.append_text(look.text(card))
                t.append(" goes back into the pile, which is reshuffled")
            case Reshuffle(pile=pile):
                t.append(f"The draw pile is shuffled ({pile} cards)")
            case Play(seat=seat, cards=cards, color=color, target=target):
                card = look.played_card(cards)
                if look.challengeable(card):
                    self.wd4_prev_color = self.color
                    self.wild_draw = card
                self.color = color
                t.append(f"{self.who(seat)} played ")
                t.append_text(look.play_text(cards))
                if look.is_wild(card) and color >= 0 and look.names_color(card):
                    t.append(" and named ")
                    t.append_text(look.color_text(color))
                if target >= 0:
                    t.append(f" → {self.whom(target)}")
            case Draw(seat=seat, n=n, cards=cards):
                if cards:
                    t.append(f"{self.who(seat)} drew ")
                    t.append_text(look.cards_text(cards))
                elif n == 0:
                    t.append(f"{self.who(seat)}: no card left to draw")
                else:
                    t.append(f"{self.who(seat)} drew {n} card{'s' if n != 1 else ''}")
            case Keep(seat=seat):
                t.append(f"{self.who(seat)} kept the drawn card")
            case Color(seat=seat, color=color, target=target):
                self.color = color
                t.append(f"{self.who(seat)} named ")
                t.append_text(look.color_text(color))
                t.append_text(look.color_note(seat == self.human))
                if target >= 0:
                    t.append(f" → {self.whom(target)}")
            case Uno(seat=seat):
                t.append(f"{self.who(seat)} called UNO!", style="bold")
            case FalseUno(seat=seat, penalty=penalty):
                t.append(f"{self.who(seat)} called UNO without one card")
                if penalty:
                    t.append(f": +{penalty} cards")
            case Catch(seat=seat, caught=caught, penalty=penalty):
                t.append(f"{self.who(seat)} caught {self.whom(caught)}: +{penalty} cards", "bold")
            case Challenge(seat=seat, challenged=challenged, guilty=guilty):
                self.last_challenge = e
                whose = "your" if challenged == self.human else f"{self.names[challenged]}'s"
                t.append(f"{self.who(seat)} challenged {whose} {look.long_name(self.wild_draw)}: ")
                t.append("guilty" if guilty else "not guilty", style="bold")
            case Reveal(seat=seat, cards=cards):
                t.append(f"{self.names[seat]}'s hand was: ")
                t.append_text(look.cards_text(cards))
            case Retract(seat=seat, color=color):
                self.color = color
                t.append(f"{self.who(seat)} took the Wild Draw Four back")
            case Skip(seat=seat):
                t.append(f"{self.who(seat)} {'were' if seat == self.human else 'was'} skipped")
            case Reverse(seat=seat):
                others = [s for s, up in enumerate(self.live) if up and s != seat]
                if len(others) == 1 and look.two_player_reverse_event:  # R-2P-REVERSE
                    other = others[0]
                    skipped = "you are" if other == self.human else f"{self.names[other]} is"
                    again = "you play" if seat == self.human else f"{self.names[seat]} plays"
                    t.append(f"Reverse with two players: {skipped} skipped, {again} again")
                else:
                    t.append(f"{self.who(seat)} reversed the direction")
            case RoundOver(winner=winner, points=points):
                if points:
                    t.append(f"{self.who(winner)} won the round: +{points} points", style="bold")
                else:
                    t.append(f"{self.who(winner)} won the round", style="bold")
            case GameOver(winner=winner, score=score):
                if score:
                    t.append(f"{self.who(winner)} won the game with {score} points!", "bold")
                else:
                    t.append(f"{self.who(winner)} won the game!", style="bold")
            case Hit(seat=seat, card=card, total=total):
                t.append_text(look.text(card) if card >= 0 else Text("A draw card"))
                t.append(f" hits {self.whom(seat)}: stack or draw {total}")
            case Hand(seat=seat, cards=cards):
                if not cards or seat != self.human:
                    return None
                t.append("Your hand is now: ")
                t.append_text(look.cards_text(cards))
            case Swap(seat=seat, other=other):
                t.append(f"{self.who(seat)} swapped hands with {self.whom(other)}")
            case Rotate():
                t.append("Every hand passes on to the next player")
            case ShuffleHands(seat=seat):
                t.append(f"{self.who(seat)} shuffled all hands and dealt them out again")
            case Discard(seat=seat, cards=cards):
                t.append(f"{self.who(seat)} discarded ")
                t.append_text(look.cards_text(cards))
            case Launch(seat=seat, fired=n):
                t.append(f"The launcher fires {n} card{'s' if n != 1 else ''} at {self.whom(seat)}")
            case Flip(seat=seat, side=side, card=top):
                face = int(top) if top is not None else -1  # the face id (events.py)
                self.color = look.card_color(face) if face >= 0 else -1
                self.color_reason = "flip"
                t.append(f" {FLIP_MARK} FLIP! ", style="bold reverse")
                t.append(f" {self.who(seat)} flipped every card: the ")
                t.append(f"{('light', 'dark')[side].upper()} side", style="bold")
                t.append(" is up; top card ")
                if face >= 0:
                    t.append_text(look.text(face))
            case Knockout(seat=seat, n=n):
                you = seat == self.human
                t.append(f"{self.who(seat)} {'are' if you else 'is'} OUT", style="bold reverse")
                t.append(
                    f": {'you' if you else 'they'} reached {n} cards (the Mercy rule); "
                    f"{'your' if you else 'the'} cards are set aside until the hand ends"
                )
            case Eliminated(seat=seat):
                t.append(f"{self.who(seat)} {'are' if seat == self.human else 'is'} out!")
            case _:  # a kind this narrator does not know yet: say its name
                t.append(str(e.kind))
        return t


def action_hint(view: View, look: Look | None = None) -> str:
    """A short prompt saying what the human may do now."""
    look = look or CLASSIC_LOOK
    if view.phase >= P_ROUND_OVER:
        return "The round is over."
    if not view.live[view.seat]:
        if look.knocks_out:
            return "You are knocked out of this hand (the Mercy rule); the others play on."
        return "You are out of this game; the others play on."
    if view.current != view.seat:
        if any(a.kind == PLAY for a in view.legal):
            return f"{view.names[view.current]} to play… you may jump in with the raised card!"
        return f"{view.names[view.current]} to play…"
    if view.phase == P_START_COLOR:
        return look.color_prompt(view)
    if view.phase == P_CHALLENGE:
        card = look.long_name(view.pending if view.pending >= 0 else WILD_DRAW4)
        return f"{view.names[view.wd4_by]} hit you with a {card}: challenge or accept."
    attack = view.rules.attack_launcher
    if view.phase == P_ANSWER:
        hit = look.label(view.pending) if view.pending >= 0 else "a draw card"
        stack = any(a.kind == PLAY for a in view.legal)
        how = "stack a raised card or accept" if stack else "accept"
        take = "take the launcher's cards" if attack else f"draw {view.pending_total}"
        return f"{hit} hits you: {how} (a) and {take}."
    if view.phase == P_DRAWN:
        drawn = look.label(view.drawn)
        if any(a.kind == KEEP for a in view.legal):
            return f"You drew {drawn}: play it (Enter/p) or keep it (k)."
        return f"You drew {drawn}, which must be played: Enter or p."
    playable = {a.card for a in view.legal if a.kind == PLAY}
    draw = "press the launcher (d)" if attack else "draw (d)"
    if not playable:
        return f"Nothing matches: {draw}."
    if not any(a.kind == DRAW for a in view.legal):
        return "Your turn: play a raised card (←→ Enter, click, or type /); you may not draw."
    return f"Your turn: play a raised card (←→ Enter, click, or type /) or {draw}."


def colour_code(color: int) -> str:
    return COLOR_CODES[color] if 0 <= color < 4 else "-"
