"""The table behind the terminal game: seats, bots, pacing decisions and the readable log.

Nothing here knows about Textual, so it is tested without a screen.  The human's seat
sees the game only through ``view_of(game, human)`` and ``game.events_for(human, ...)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from rich.text import Text

from unokit.bots import BOTS, Bot
from unokit.bots.base import observes
from unokit.cards import CARD_CODE, CARD_COLOR, COLOR_CODES, COLOR_NAMES, WILD_DRAW4
from unokit.engine import (
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
from unokit.match import Match, SeatKind

BOT_NAMES = ("Ana", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim")

# Card colours for the terminal: (foreground, background).  The code is always printed
# too, so nothing depends on seeing colour.
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


def card_text(card: int) -> Text:
    """A card code coloured like its card, for the log and dialogs."""
    return Text(CARD_CODE[card], style=TEXT_COLOR[CARD_COLOR[card]])


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


# --------------------------------------------------------------------- bots ---------
class ForgetfulBot:
    """An easy opponent: sometimes forgets to call UNO and lets catches pass."""

    def __init__(
        self, inner: Bot, seed: int | None = None, forget: float = 0.4, skip: float = 0.5
    ) -> None:
        self.inner = inner
        self.name = f"{inner.name} (easy)"
        self.rng = random.Random(seed)
        self.forget = forget
        self.skip = skip
        self.observes = observes(inner)

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)

    def act(self, view: View) -> Action:
        action = self.inner.act(view)
        if action.kind == PLAY and action.uno and self.rng.random() < self.forget:
            action = action._replace(uno=False)
        return action

    def react(self, view: View) -> Action | None:
        action = self.inner.react(view)
        if action is not None and self.rng.random() < self.skip:
            return None
        return action


def bot_kind(level: str, kinds: Mapping[str, object]) -> str:
    """The bot kind a level means when ``--bots`` is not given (the best one installed)."""
    wanted = {
        "easy": ("random",),
        "normal": ("greedy", "random"),
        "hard": ("heuristic", "greedy", "random"),
    }.get(level, ("random",))
    for kind in wanted:
        if kind in kinds:
            return kind
    return next(iter(kinds))


def make_bots(kind: str | None, level: str, count: int, seed: int | None) -> list[Bot]:
    """``count`` opponents of ``kind`` (or the level's kind); easy ones forget UNO.

    Raises ValueError for a kind that is not installed.
    """
    kinds: dict[str, Callable[..., Bot]] = dict(BOTS)
    if not kinds:
        raise ValueError("no bots are installed")
    if kind is None:
        kind = bot_kind(level, kinds)
    elif kind not in kinds:
        raise ValueError(f"unknown bot kind {kind!r}; choose one of {', '.join(sorted(kinds))}")
    rng = random.Random(seed)
    bots: list[Bot] = []
    for i in range(count):
        s = seed * 100 + i + 1 if seed is not None else rng.getrandbits(32)
        bot: Bot = kinds[kind](seed=s)
        if level == "easy":
            bot = ForgetfulBot(bot, seed=s + 7)
        bots.append(bot)
    return bots


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
    the bot runner and the server); the table adds the human's event cursor and the
    notes about bots that misbehaved.
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
        self.cursor = 0  # index into game.events already shown
        self.notes: list[str] = []  # bot mishaps to show in the log

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
        """Events the human may see that were not returned before."""
        events = self.game.events
        if events is None:
            return []
        out = self.game.events_for(self.human, self.cursor)
        self.cursor = len(events)
        return out

    # --- acting -------------------------------------------------------------------
    def apply_human(self, action: Action) -> None:
        """Apply the human's action; IllegalAction (nothing changed) if not allowed."""
        self.match.submit(self.human, action)

    def next_round(self) -> None:
        self.match.next_round()

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

    def __init__(self, names: Sequence[str], human: int) -> None:
        self.names = list(names)
        self.human = human
        self.color = -1  # colour in force as the events tell it
        self.wd4_prev_color = -1  # the colour before the last Wild Draw Four
        self.last_challenge: Event | None = None

    def who(self, seat: int) -> str:
        return "You" if seat == self.human else self.names[seat]

    def describe(self, e: Event) -> Text | None:
        """One log line for ``e``, or None for events not worth a line."""
        k = e.kind
        t = Text()
        if k == "round_start":
            self.color = -1
            dealer = "you deal" if e.seat == self.human else f"{self.names[e.seat]} deals"
            t.append(f"── Round {e.amount + 1}: {dealer} ──", style="bold")
            return t
        if k == "deal":
            if e.cards:
                n = len(e.cards)
                t.append(f"You were dealt {n} card{'s' if n != 1 else ''}")
                return t
            return None
        if k == "dealer_draw":
            return None
        if k == "start_card":
            self.color = CARD_COLOR[e.cards[0]] if e.cards and e.cards[0] < 52 else -1
            t.append("Start card: ")
            t.append_text(card_text(e.cards[0]))
            return t
        if k == "start_return":
            t.append_text(card_text(e.cards[0]))
            t.append(" goes back into the pile, which is reshuffled")
            return t
        if k == "reshuffle":
            t.append(f"The draw pile is shuffled ({e.amount} cards)")
            return t
        if k == "play":
            card = e.cards[-1]
            if card == WILD_DRAW4:
                self.wd4_prev_color = self.color
            self.color = e.color
            t.append(f"{self.who(e.seat)} played ")
            t.append_text(cards_text(e.cards))
            if card >= 52 and 0 <= e.color < 4:
                t.append(" and named ")
                t.append_text(color_text(e.color))
            if e.target >= 0:
                t.append(f" → {'you' if e.target == self.human else self.names[e.target]}")
            return t
        if k == "draw":
            if e.cards:
                t.append(f"{self.who(e.seat)} drew ")
                t.append_text(cards_text(e.cards))
                return t
            if e.amount == 0:
                t.append(f"{self.who(e.seat)}: no card left to draw")
                return t
            n = e.amount
            t.append(f"{self.who(e.seat)} drew {n} card{'s' if n != 1 else ''}")
            return t
        if k == "keep":
            t.append(f"{self.who(e.seat)} kept the drawn card")
            return t
        if k == "color":
            self.color = e.color
            t.append(f"{self.who(e.seat)} named ")
            t.append_text(color_text(e.color))
            if e.target >= 0:
                t.append(f" → {'you' if e.target == self.human else self.names[e.target]}")
            return t
        if k == "uno":
            t.append(f"{self.who(e.seat)} called UNO!", style="bold")
            return t
        if k == "false_uno":
            t.append(f"{self.who(e.seat)} called UNO without one card")
            if e.amount:
                t.append(f": +{e.amount} cards")
            return t
        if k == "catch":
            target = "you" if e.target == self.human else self.names[e.target]
            t.append(f"{self.who(e.seat)} caught {target}: +{e.amount} cards", "bold")
            return t
        if k == "challenge":
            self.last_challenge = e
            target = "your" if e.target == self.human else f"{self.names[e.target]}'s"
            verdict = "guilty" if e.amount else "not guilty"
            t.append(f"{self.who(e.seat)} challenged {target} Wild Draw Four: ")
            t.append(verdict, style="bold")
            return t
        if k == "reveal":
            t.append(f"{self.names[e.seat]}'s hand was: ")
            t.append_text(cards_text(e.cards))
            return t
        if k == "retract":
            self.color = e.color
            t.append(f"{self.who(e.seat)} took the Wild Draw Four back")
            return t
        if k == "skip":
            t.append(f"{self.who(e.seat)} {'were' if e.seat == self.human else 'was'} skipped")
            return t
        if k == "reverse":
            t.append(f"{self.who(e.seat)} reversed the direction")
            return t
        if k == "round_over":
            t.append(f"{self.who(e.seat)} won the round: +{e.amount} points", style="bold")
            return t
        if k == "game_over":
            t.append(f"{self.who(e.seat)} won the game with {e.amount} points!", style="bold")
            return t
        if k == "hit":
            target = "you" if e.seat == self.human else self.names[e.seat]
            t.append_text(card_text(e.cards[0]) if e.cards else Text("A draw card"))
            t.append(f" hits {target}: stack or draw {e.amount}")
            return t
        if k == "hand":
            if e.cards and e.seat == self.human:
                t.append("Your hand is now: ")
                t.append_text(cards_text(e.cards))
                return t
            return None
        if k == "swap":
            target = "you" if e.target == self.human else self.names[e.target]
            t.append(f"{self.who(e.seat)} swapped hands with {target}")
            return t
        if k == "rotate":
            t.append("Every hand passes on to the next player")
            return t
        if k == "shuffle_hands":
            t.append(f"{self.who(e.seat)} shuffled all hands and dealt them out again")
            return t
        if k == "discard":
            t.append(f"{self.who(e.seat)} discarded ")
            t.append_text(cards_text(e.cards))
            return t
        if k == "launch":
            target = "you" if e.seat == self.human else self.names[e.seat]
            n = e.amount
            t.append(f"The launcher fires {n} card{'s' if n != 1 else ''} at {target}")
            return t
        if k == "eliminated":
            t.append(f"{self.who(e.seat)} {'are' if e.seat == self.human else 'is'} out!")
            return t
        t.append(f"{k} ({self.who(e.seat) if e.seat >= 0 else 'table'})")
        return t


def action_hint(view: View) -> str:
    """A short prompt saying what the human may do now."""
    if view.phase >= P_ROUND_OVER:
        return "The round is over."
    if not view.live[view.seat]:
        return "You are out of this game; the others play on."
    if view.current != view.seat:
        if any(a.kind == PLAY for a in view.legal):
            return f"{view.names[view.current]} to play… you may jump in with the raised card!"
        return f"{view.names[view.current]} to play…"
    if view.phase == P_START_COLOR:
        return "The start card is a Wild: choose the colour."
    if view.phase == P_CHALLENGE:
        return f"{view.names[view.wd4_by]} hit you with a Wild Draw Four: challenge or accept."
    if view.phase == P_ANSWER:
        hit = CARD_CODE[view.pending] if view.pending >= 0 else "a draw card"
        stack = any(a.kind == PLAY for a in view.legal)
        how = "stack a raised card or accept" if stack else "accept"
        return f"{hit} hits you: {how} (a) and draw {view.pending_total}."
    if view.phase == P_DRAWN:
        return f"You drew {CARD_CODE[view.drawn]}: play it (Enter/p) or keep it (k)."
    playable = {a.card for a in view.legal if a.kind == PLAY}
    if not playable:
        return "Nothing matches: draw a card (d)."
    return "Your turn: play a raised card (←→ Enter, click, or type /) or draw (d)."


def colour_code(color: int) -> str:
    return COLOR_CODES[color] if 0 <= color < 4 else "-"
