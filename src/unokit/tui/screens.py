"""Dialogs: colour chooser, Wild Draw Four answer, revealed hand, scores, quitting, help."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from unokit.rules import RuleSet
from unokit.tui.table import CLASSIC_LOOK, CLASSIC_SWATCHES, Look, Swatch, rules_lines


def recent_text(lines: Sequence[Text]) -> Text:
    """The last lines of the log, for a dialog that covers it."""
    t = Text("Just now:\n", style="bold dim")
    for line in lines:
        t.append("  ")
        t.append_text(line)
        t.append("\n")
    t.rstrip()
    return t


DIALOG_CSS = """
{name} {{
    align: center middle;
    background: $background 60%;
}}
{name} > Vertical {{
    width: 64;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: thick $accent;
    background: $surface;
    padding: 0 1;
}}
{name} .title {{
    text-style: bold;
    width: 100%;
    content-align: center middle;
}}
{name} .body {{
    width: 100%;
    margin: 1 0;
}}
{name} .hint {{
    width: 100%;
    content-align: center middle;
    color: $text-muted;
}}
{name} .recent {{
    width: 100%;
    margin: 1 0 0 0;
}}
{name} VerticalScroll {{
    height: auto;
    max-height: 1fr;
}}
{name} Horizontal {{
    height: auto;
    align: center middle;
}}
{name} Button {{
    margin: 0 1;
    min-width: 10;
}}
"""


def _css(name: str) -> str:
    return DIALOG_CSS.format(name=name)


class ColorScreen(ModalScreen[int | None]):
    """Choose a colour by its letter (R Y G B; Flip's dark side P T O V) or 1-4;
    Escape cancels when allowed."""

    AUTO_FOCUS = ""  # a stray Enter must not pick a colour

    DEFAULT_CSS = _css("ColorScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        # The dialog says "Press R, Y, G or B": with Shift or Caps Lock too.
        *(
            Binding(f"{k},{k.upper()}", f"letter('{k}')", show=False)
            for k in ("r", "y", "g", "b", "p", "t", "o", "v")
        ),
        *(Binding(str(i + 1), f"pick_index({i})", show=False) for i in range(4)),
        Binding("escape", "cancel", "Cancel"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(
        self, title: str, cancellable: bool = True, choices: Sequence[Swatch] | None = None
    ) -> None:
        super().__init__()
        self.title_text = title
        self.cancellable = cancellable
        self.choices = list(choices) if choices else list(CLASSIC_SWATCHES)

    def compose(self) -> ComposeResult:
        letters = [c.letter for c in self.choices]
        keys = ", ".join(letters[:-1]) + f" or {letters[-1]}" if len(letters) > 1 else letters[0]
        with Vertical():
            yield Static(self.title_text, classes="title")
            hint = "Escape: back" if self.cancellable else "The colour must be chosen now"
            yield Static(f"Press {keys}, or click a colour.  {hint}", classes="body")
            with Horizontal():
                for sw in self.choices:
                    button = Button(f"{sw.letter} {sw.name.capitalize()}", id=f"color-{sw.color}")
                    button.styles.background = sw.bg
                    button.styles.color = sw.fg
                    yield button

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("color-"):
            self.dismiss(int(event.button.id[6:]))

    def action_letter(self, letter: str) -> None:
        for sw in self.choices:
            if sw.letter.lower() == letter:
                self.dismiss(sw.color)
                return
        self.notify(f"{letter.upper()} is not a colour you may name now", severity="warning")

    def action_pick_index(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self.dismiss(self.choices[index].color)

    def action_cancel(self) -> None:
        if self.cancellable:
            self.dismiss(None)


class TargetScreen(ModalScreen[int | None]):
    """Choose a player (for a Wild Swap Hands or a seven): 1-9 or a click; Escape cancels."""

    DEFAULT_CSS = (
        _css("TargetScreen")
        + """
    TargetScreen Button { width: 100%; margin: 0 0 0 0; height: 1; }
    """
    )
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(k % 10), f"pick({k - 1})", show=False) for k in range(1, 11)),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, title: str, choices: Sequence[tuple[int, str, int]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)  # (seat, name, cards)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="title")
            yield Static("Press the number, or click.  Escape: back", classes="body")
            for i, (seat, name, cards) in enumerate(self.choices):
                label = f"{(i + 1) % 10}  {name} ({cards} card{'s' if cards != 1 else ''})"
                yield Button(label, id=f"seat-{seat}", compact=True)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("seat-"):
            self.dismiss(int(event.button.id[5:]))

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self.dismiss(self.choices[index][0])

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChallengeScreen(ModalScreen[str | None]):
    """Hit by a Wild Draw Four: Challenge (c) or Accept (a)."""

    AUTO_FOCUS = ""  # a stray Enter (meant to play a card) must not answer

    DEFAULT_CSS = _css("ChallengeScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "answer('challenge')", "Challenge"),
        Binding("a", "answer('accept')", "Accept"),
        Binding("escape", "answer('')", "Later"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(
        self,
        by: str,
        prev_color: int,
        recent: Sequence[Text] = (),
        look: Look = CLASSIC_LOOK,
        card: int = -1,
        named: int = -1,
    ) -> None:
        super().__init__()
        self.by = by
        self.prev_color = prev_color
        self.recent = list(recent)
        self.look = look
        self.card = card  # the card played (-1: a Wild Draw Four)
        self.named = named  # the colour it named

    def costs(self) -> tuple[str, str, str]:
        """(what the player draws if guilty, what you draw if not, what accepting costs)."""
        name = self.look.long_name(self.card) if self.card >= 0 else "Wild Draw Four"
        if name == "Wild Draw Two":  # UNO Flip! (FLIP-CHAL-WD2)
            return "draws 2", "you draw 4", "draw 2"
        if name == "Wild Draw Colour":  # FLIP-CHAL-WDC
            colour = self.look.color_text(self.named).plain if self.named >= 0 else "that"
            until = f"until a {colour} card comes"
            return f"draws {until}", f"you draw {until}, and 2 more", f"draw {until}"
        return "draws 4", "you draw 6", "draw 4"

    def compose(self) -> ComposeResult:
        name = self.look.long_name(self.card) if self.card >= 0 else "Wild Draw Four"
        guilty, innocent, accept = self.costs()
        body = Text()
        body.append(f"{self.by} played a {name} on you.\n\n")
        body.append("Challenge (c): ", style="bold")
        if self.prev_color >= 0:
            body.append(f"if {self.by} held a ")
            body.append_text(self.look.color_text(self.prev_color))
            body.append(" card, ")
        else:
            body.append(f"if {self.by} held a card of the colour in force, ")
        body.append(f"{self.by} {guilty}; if not, {innocent}.  You see their hand.\n")
        body.append("Accept (a): ", style="bold")
        body.append(f"{accept} and lose your turn.")
        with Vertical():
            yield Static(f"{name}!", classes="title")
            if self.recent:
                yield Static(recent_text(self.recent), classes="recent")
            yield Static(body, classes="body")
            with Horizontal():
                yield Button("Challenge (c)", id="challenge", variant="warning")
                yield Button("Accept (a)", id="accept", variant="primary")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer or None)


class RevealScreen(ModalScreen[None]):
    """The challenged hand, shown only to the challenger."""

    DEFAULT_CSS = _css("RevealScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,space", "close", "OK"),
    ]

    def __init__(
        self,
        name: str,
        cards: Sequence[int],
        guilty: bool,
        human: bool,
        recent: Sequence[Text] = (),
        look: Look = CLASSIC_LOOK,
        card_name: str = "Wild Draw Four",
    ) -> None:
        super().__init__()
        self.recent = list(recent)
        self.look = look
        self.card_name = card_name
        self.owner = name
        self.cards = list(cards)
        self.guilty = guilty
        self.human = human

    def compose(self) -> ComposeResult:
        body = Text()
        body.append(f"{self.owner}'s hand:  ")
        for c in self.cards:
            body.append_text(self.look.text(c))
            body.append(" ")
        body.append("\n\n")
        if self.guilty:
            body.append("Guilty! ", style="bold")
            body.append(f"{self.owner} held a card of the colour in force and draws instead.")
        else:
            body.append("Not guilty. ", style="bold")
            body.append(f"The {self.card_name} was legal: you draw its cards and 2 more.")
        with Vertical():
            yield Static("Challenge", classes="title")
            if self.recent:
                yield Static(recent_text(self.recent), classes="recent")
            yield Static(body, classes="body")
            with Horizontal():
                yield Button("OK", id="ok", variant="primary")

    @on(Button.Pressed)
    def _pressed(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class RoundScreen(ModalScreen[str]):
    """Scores after a round; at the end of the game, the summary and Play again."""

    DEFAULT_CSS = _css("RoundScreen")

    def __init__(
        self, title: str, table: Text, game_over: bool, recent: Sequence[Text] = ()
    ) -> None:
        super().__init__()
        self.title_text = title
        self.table = table
        self.game_over = game_over
        self.recent = list(recent)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="title")
            with VerticalScroll():
                if self.recent:
                    yield Static(recent_text(self.recent), classes="recent")
                yield Static(self.table, classes="body")
            with Horizontal():
                if self.game_over:
                    yield Button("Play again (n)", id="again", variant="primary")
                    yield Button("Quit (q)", id="quit")
                else:
                    yield Button("Next round (Enter)", id="next", variant="primary")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose('')", "Continue"),
        Binding("n", "choose('again')", "Play again", show=False),
        Binding("q", "choose('quit')", "Quit", show=False),
    ]

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "next")

    async def action_choose(self, choice: str) -> None:
        if not choice:
            choice = "again" if self.game_over else "next"
        if choice == "again" and not self.game_over:
            return
        if choice == "quit" and not self.game_over:
            await self.app.run_action("request_quit")
            return
        self.dismiss(choice)


class QuitScreen(ModalScreen[str]):
    """Quit?  Save the record (s), quit (y/q) or go back (n, Escape)."""

    DEFAULT_CSS = _css("QuitScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('save')", "Save & quit"),
        Binding("y,q", "choose('quit')", "Quit"),
        Binding("n,escape", "choose('cancel')", "Cancel"),
        Binding("ctrl+c", "choose('quit')", "Quit", show=False, priority=True),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, record_to: str) -> None:
        super().__init__()
        self.record_to = record_to

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Quit the game?", classes="title")
            yield Static(
                f"s: save the game record to {self.record_to} and quit\n"
                "y: quit without saving    n / Escape: keep playing",
                classes="body",
            )
            with Horizontal():
                yield Button("Save & quit (s)", id="save", variant="primary")
                yield Button("Quit (y)", id="quit", variant="error")
                yield Button("Cancel (n)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "cancel")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


HELP = f"""\
Your cards are at the bottom; those you may play now stand one line higher.
A card shows its colour (R Y G B) and its number or symbol:
  {CLASSIC_LOOK.legend}

 ← → ↑ ↓  choose a card           Enter, click  play it
 d        draw a card             k / p         keep / play the drawn card
 u        call UNO: press it before playing your last but one card (the
          button lights up), or just after, before anybody catches you
 c        catch a player who has one card and did not call UNO
 a        accept a draw card that hits you (stacking rules)
 /        type a move: R7, W G, W+4 B uno, R7/Y7, draw, keep, catch 2
          (codes: YS is Y⊘, GR is G⇄, WCUST is W★; names work too)
 r        the rules of this game       ?  this help
 q        quit (Ctrl+C too); you may save the game record first

A Wild asks for a colour (R Y G B).  Hit by a Wild Draw Four you may
challenge (c) or accept (a).  A Wild Swap or a seven asks whom to swap with.
Bots forget to call UNO now and then (easy often, hard rarely): catch them!\
"""
CLOSE_HINT = "Escape, Enter or {key} closes this."


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = _css("HelpScreen").replace("width: 64;", "width: 80;")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,f1,space", "close", "Close"),
    ]

    def __init__(self, text: str = HELP) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Keys", classes="title")
            yield Static(CLOSE_HINT.format(key="?"), classes="hint")
            with VerticalScroll():
                yield Static(self.text, classes="body", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[None]):
    """Every rule option in force, and what the Wild Customizable does."""

    DEFAULT_CSS = (
        _css("RulesScreen").replace("width: 64;", "width: 100;")
        + """
    RulesScreen .body { text-wrap: nowrap; text-overflow: ellipsis; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,r,space", "close", "Close"),
    ]

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Rules of this game", classes="title")
            yield Static(CLOSE_HINT.format(key="r"), classes="hint")
            with VerticalScroll():
                yield Static("\n".join(rules_lines(self.rules)), classes="body", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)
