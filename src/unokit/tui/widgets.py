"""Widgets of the table: the hand, the players list, the discard pile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from unokit.engine import P_ROUND_OVER, View
from unokit.modern_cards import SIDE_NAMES
from unokit.tui.modern import SIDE_STYLE
from unokit.tui.table import CLASSIC_LOOK, Look

CARD_H = 3  # lines of a card face
ROW_H = CARD_H + 2  # a playable card is raised by one line; a blank line between rows
CARD_WIDTHS = (6, 5, 4)  # narrower cards before a second row


class HandView(Widget, can_focus=True):
    """Your cards, side by side; playable ones stand one line higher.

    Left/right (and up/down between rows) move the cursor, Enter or a click plays.
    """

    DEFAULT_CSS = """
    HandView {
        height: auto;
        padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Select", show=False),
        Binding("right", "move(1)", "Select", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("enter", "play", "Play card", priority=False),
        Binding("space", "play", "Play", show=False),
    ]

    class Chosen(Message):
        """The player chose the card at ``index`` (by Enter or a click)."""

        def __init__(self, index: int, card: int) -> None:
            super().__init__()
            self.index = index
            self.card = card

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[int, ...] = ()
        self.playable: frozenset[int] = frozenset()
        self.cursor = 0
        self.look: Look = CLASSIC_LOOK  # the game's faces (``unokit.tui.modern``)
        self._first_row = 0  # the first row drawn (a hand taller than the widget)

    # --- data ----------------------------------------------------------------------
    def set_hand(
        self, cards: Sequence[int], playable: frozenset[int], focus_card: int = -1
    ) -> None:
        """Show ``cards``; keep the cursor on the same card, or move it to ``focus_card``.

        When cards become playable (your turn begins) and the cursor is on one that is
        not, it moves to the nearest playable card.
        """
        old = self.selected
        was_playable = self.playable
        self.cards = tuple(cards)
        self.playable = playable
        if focus_card >= 0 and focus_card in self.cards:
            self.cursor = self.cards.index(focus_card)
        elif old >= 0 and old in self.cards and self.cards[self.cursor : self.cursor + 1] != (old,):
            self.cursor = self.cards.index(old)
        self.cursor = max(0, min(self.cursor, len(self.cards) - 1))
        if playable and not was_playable and self.selected not in playable:
            nearest = sorted(
                (i for i, c in enumerate(self.cards) if c in playable),
                key=lambda i: abs(i - self.cursor),
            )
            self.cursor = nearest[0]
        self.refresh(layout=True)

    @property
    def selected(self) -> int:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else -1

    # --- geometry ------------------------------------------------------------------
    def _geometry(self, width: int) -> tuple[int, int]:
        """(card width, cards per row) for a content ``width``.

        One row while the cards fit, narrowing them first: in a second row a raised
        card is harder to tell from the row above.
        """
        n = max(1, len(self.cards))
        for card_w in CARD_WIDTHS:
            per_row = max(1, (width + 1) // (card_w + 1))
            if n <= per_row:
                return card_w, per_row
        card_w = CARD_WIDTHS[-1]
        return card_w, max(1, (width + 1) // (card_w + 1))

    def rows(self, width: int) -> int:
        _, per_row = self._geometry(width)
        return max(1, -(-len(self.cards) // per_row))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.rows(width) * ROW_H - 1  # no blank line after the last row

    # --- drawing -------------------------------------------------------------------
    def render(self) -> Text:
        width = self.content_region.width or self.size.width
        if not self.cards:
            return Text("\n(no cards)")
        card_w, per_row = self._geometry(width)
        lines: list[Text] = []
        focused = self.has_focus
        # a hand taller than the widget (No Mercy without the Mercy rule: 60 cards and
        # more) shows the rows around the cursor's, and says how many are out of sight
        rows = -(-len(self.cards) // per_row)
        fit = max(1, (self.size.height + 1) // ROW_H) if self.size.height else rows
        first = 0
        if rows > fit:
            fit = max(1, (self.size.height + 1 - 1) // ROW_H)  # a line for the note
            first = max(0, min(self.cursor // per_row - fit // 2, rows - fit))
        self._first_row = first
        for start in range(first * per_row, min(len(self.cards), (first + fit) * per_row), per_row):
            row = list(enumerate(self.cards))[start : start + per_row]
            out = [Text() for _ in range(ROW_H)]
            for i, card in row:
                raised = card in self.playable
                top = 0 if raised else 1
                style = self.look.style(card)
                code = self.look.label(card)[:card_w]
                is_cursor = i == self.cursor
                code_style = style + (" reverse" if is_cursor else "")
                for y in range(CARD_H + 1):
                    if top <= y < top + CARD_H:
                        if y == top + 1:
                            pad = card_w - len(code)
                            left = pad // 2
                            out[y].append(" " * left, style)
                            out[y].append(code, code_style)
                            out[y].append(" " * (pad - left), style)
                        else:
                            out[y].append(" " * card_w, style)
                    elif is_cursor:
                        mark = "▲" if raised else "▼"
                        pad = card_w - 1
                        out[y].append(" " * (pad // 2))
                        out[y].append(mark, "bold" if focused else "dim")
                        out[y].append(" " * (pad - pad // 2))
                    else:
                        out[y].append(" " * card_w)
                    out[y].append(" ")
            lines.extend(out[: CARD_H + 1])  # out[-1] stays blank: the gap between rows
            lines.append(out[-1])
        if rows > fit:
            above, below = first * per_row, max(0, len(self.cards) - (first + fit) * per_row)
            lines[-1] = Text(
                f"{len(self.cards)} cards: {above} before, {below} after these (↑ ↓ to see)",
                style="dim",
            )
            return Text("\n").join(lines)
        return Text("\n").join(lines[:-1])

    def on_resize(self, event: events.Resize) -> None:
        self.refresh(layout=True)

    # --- input ---------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def action_row(self, step: int) -> None:
        if self.cards:
            _, per_row = self._geometry(self.content_region.width)
            self.cursor = max(0, min(len(self.cards) - 1, self.cursor + step * per_row))
            self.refresh()

    def action_jump(self, where: int) -> None:
        if self.cards:
            self.cursor = where % len(self.cards)
            self.refresh()

    def action_play(self) -> None:
        if self.cards:
            self.post_message(self.Chosen(self.cursor, self.cards[self.cursor]))

    def index_at(self, x: int, y: int) -> int:
        """The card under content offset (x, y), or -1."""
        card_w, per_row = self._geometry(self.content_region.width)
        col, gap = divmod(x, card_w + 1)
        if gap == card_w or col >= per_row or x < 0 or y < 0:
            return -1
        index = (y // ROW_H + self._first_row) * per_row + col
        return index if index < len(self.cards) else -1

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.index_at(offset.x, offset.y)
        if index >= 0:
            self.cursor = index
            self.refresh()
            self.post_message(self.Chosen(index, self.cards[index]))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def players_text(view: View, human_label: str = "you", look: Look = CLASSIC_LOOK) -> Text:
    """The players in seat order: turn marker, name, cards, score; order of play by arrow."""
    t = Text()
    arrow = "↓" if view.direction > 0 else "↑"
    t.append(f"  {'Players ' + arrow:<9}{'cards':>6}{'score':>6}\n", style="bold")
    t.no_wrap = True
    t.overflow = "ellipsis"
    mercy = look.knocks_out
    for seat, name in enumerate(view.names):
        now = seat == view.current and view.phase < P_ROUND_OVER
        mark = "▶ " if now else "  "
        label = name
        if seat == view.seat and name.lower() != human_label:
            label = f"{name} ({human_label})"
        size = view.hand_sizes[seat]
        teams = view.rules.scoring == "teams"
        score = view.scores[view.team_of(seat)] if teams else view.scores[seat]
        if teams:
            label = f"{label[:7]} {'AB'[view.team_of(seat)]}"
        knocked = mercy and not view.live[seat]  # No Mercy: out of this hand (NM-MERCY)
        shown = "out" if knocked else str(size)
        line = Text(f"{mark}{label[:9]:<9}{shown:>6}{score:>6}")
        if now:
            line.stylize("bold reverse")
        if not view.live[seat]:
            line.stylize("dim")
        t.append_text(line)
        if knocked:
            t.append(" Mercy", style="bold red")
        elif not view.live[seat]:
            t.append(" out", style="dim")
        elif size == 1:
            t.append(" UNO" if seat != view.vulnerable else " catch", style="bold yellow")
        if seat != len(view.names) - 1:
            t.append("\n")
    return t


def pile_text(view: View, look: Look = CLASSIC_LOOK) -> Text:
    """The discard pile's top card, large, named, and the colour in force.

    UNO Flip!: the side up, and the face everyone sees on the draw pile's top card
    (its inactive face, FLIP-VIEW-3).  No Mercy: the cards set aside by knock-outs.
    """
    t = Text()
    top = view.top
    w = 9
    side = look.side(view)
    if side >= 0:
        t.append(" ")
        t.append(f"{SIDE_NAMES[side].upper():^9}", style=SIDE_STYLE[side])
        t.append("\n")
    if top < 0:
        t.append("(no card)\n")
    else:
        style = look.style(top)
        code = look.label(top)
        rows = [code.ljust(w), "", look.face_name(top).center(w), "", code.rjust(w)]
        for r in rows:
            t.append(" ")
            t.append(r.ljust(w), style)
            t.append("\n")
    t.append(" ")
    t.append("  ", style=look.color_style(view.color))
    t.append(" ")
    t.append_text(look.color_text(view.color))
    if view.rules.attack_launcher:
        t.append(f"\n launcher\n {view.draw_pile:>3} cards")
    else:
        t.append(f"\n draw {view.draw_pile:>3}")
    pile_top = look.pile_top(view)
    if pile_top >= 0:
        t.append("\n its back: ")  # the draw pile's top card, as everyone sees it
        t.append("\n ")
        t.append(f"{look.label(pile_top):^9}", style=look.style(pile_top))
    aside = look.aside(view)
    if aside > 0:
        t.append(f"\n aside {aside:>3}")
    return t


def others_text(view: View, look: Look, width: int, rows: int = 99) -> Text:
    """UNO Flip!: the other face of each opponent's cards (FLIP-VIEW-2), which the
    human sees as everyone does, in their hand order; never the human's own."""
    others = look.others(view)
    side = look.side(view)
    t = Text(no_wrap=True, overflow="ellipsis")
    if not others or side < 0:
        return t
    other = SIDE_NAMES[1 - side]
    t.append(f"Their cards' {other} side, which you see (you never see your own): ", "bold")
    # in seat order, as the players list; on a short screen the players next in the
    # order of play are the ones kept
    n = len(others)
    order = [(view.seat + k * view.direction) % n for k in range(1, n)]
    kept = order if len(order) <= rows - 1 else order[: max(1, rows - 2)]
    shown = [s for s in range(n) if s in kept]
    for seat in shown:
        faces = others[seat]
        t.append("\n")
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(f"{view.names[seat][:9]:<9} ")
        for f in faces:
            line.append(f"{look.label(f):^4}", style=look.style(f))
            line.append(" ")
        line.truncate(max(width, 20), overflow="ellipsis")
        t.append_text(line)
    hidden = [view.names[s] for s in order if s not in shown]
    if hidden:
        more = Text(f"… and {', '.join(hidden)} (a taller terminal shows them)", "dim")
        more.truncate(max(width, 20), overflow="ellipsis")
        t.append("\n")
        t.append_text(more)
    return t


class PlayersView(Static):
    def show(self, view: View, look: Look = CLASSIC_LOOK) -> None:
        self.update(players_text(view, look=look))


class PileView(Static):
    def show(self, view: View, look: Look = CLASSIC_LOOK) -> None:
        self.update(pile_text(view, look))


class OthersView(Static):
    """UNO Flip!: the faces of the opponents' cards that the human sees."""

    DEFAULT_CSS = """
    OthersView { height: auto; padding: 0 1; display: none; }
    """

    def show(self, view: View, look: Look) -> None:
        width = self.content_region.width or self.size.width or 80
        rows = max(3, (self.app.size.height - 12) // 2)  # the table keeps the rest
        text = others_text(view, look, width, rows)
        self.display = bool(text.plain)
        self.update(text)
