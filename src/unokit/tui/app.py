"""``unokit play``: UNO in the terminal against bots, built with Textual.

The screen shows only what the human seat may know: its view (``view_of``) and the
events it may see (``game.events_for``).  Bots move on Textual timers, ``--speed``
seconds apart, so the interface never blocks.  UNO Flip! and No Mercy play here too:
a ``Look`` (``unokit.tui.modern``) draws their faces, and the widgets show what their
views add (the side up, the other faces of opponents' cards, knock-outs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Button, Footer, Input, RichLog, Static

from unokit.bots.roster import ForgetfulBot, make_bots
from unokit.engine import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    KEEP,
    P_ANSWER,
    P_CHALLENGE,
    P_DRAWN,
    P_GAME_OVER,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    PLAY,
    UNO,
    Action,
    ActionParseError,
    IllegalAction,
    View,
)
from unokit.engine.events import Challenge, EventKind, Reveal, RoundOver
from unokit.engine.family import new_game
from unokit.files import free_path, write_text_atomic
from unokit.match import Timing
from unokit.record import dumps
from unokit.rules import RuleSet
from unokit.tui.modern import (
    FallbackBot,
    look_for,
    modern_bot_kind,
    modern_bots,
    side_of,
    side_text,
)
from unokit.tui.screens import (
    ChallengeScreen,
    ColorScreen,
    HelpScreen,
    QuitScreen,
    RevealScreen,
    RoundScreen,
    RulesScreen,
    TargetScreen,
)
from unokit.tui.table import (
    Narrator,
    Table,
    action_hint,
    goal_text,
    rules_summary,
    seat_names,
)
from unokit.tui.widgets import HandView, OthersView, PileView, PlayersView

WARMING = "Compiling the ismcts bots' search (first run only, a minute or two)…"
MESSAGE_SECONDS = 6.0  # how long a message replaces the hint in the status line
RECENT_LINES = 4  # lines of the log repeated in dialogs, so they never hide what happened


def data_dir() -> Path:
    """Where game records go without ``--record``: ``$XDG_DATA_HOME/unokit/games``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "unokit" / "games"


class UnoApp(App[int]):
    """One human seat against bots, round after round, game after game."""

    TITLE = "unokit"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    /* notices (a flip, a knock-out) go over the log's top, never over the hand or the
       pile: the log starts 43 columns in, so a notice is at most 36 wide */
    ToastRack { dock: top; align: right top; margin: 2 0 0 0; }
    Toast { max-width: 36; }
    #topbar { height: 1; background: $panel; padding: 0 1; }
    #rulesbar { height: 1; background: $panel; padding: 0 1; color: $text-muted; }
    #topbar, #rulesbar { text-wrap: nowrap; text-overflow: ellipsis; }
    #middle { height: 1fr; min-height: 4; }
    #players { width: 30; height: 100%; padding: 0 0 0 1; overflow-y: auto; }
    #pile { width: 12; height: 100%; }
    #log {
        width: 1fr; height: 100%; padding: 0 1;
        border-left: vkey $panel; background: $surface; scrollbar-size-vertical: 1;
    }
    #status { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    #status.error { color: $text-error; }
    #hand { max-height: 12; }
    #actions { height: 1; padding: 0 1; }
    #actions Button { height: 1; min-width: 0; width: auto; margin: 0 1 0 0; border: none; }
    #b-uno.armed { background: $warning; color: $text; text-style: bold reverse; }
    #entry { width: 1fr; min-width: 12; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "Draw"),
        Binding("d", "launch", "Launcher"),  # UNO Attack: the same key, named for it
        Binding("u", "uno", "UNO"),
        Binding("c", "catch", "Catch"),
        Binding("k", "keep", "Keep"),
        Binding("a", "accept", "Accept"),
        Binding("p", "play_drawn", "Play drawn", show=False),
        Binding("slash", "type", "Type"),
        Binding("r", "rules", "Rules"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "request_quit", "Quit"),
        Binding("ctrl+c", "request_quit", "Quit", show=False, priority=True),
        Binding("escape", "focus_hand", show=False),
    ]

    def __init__(
        self,
        table: Table,
        *,
        speed: float = 0.6,
        record: str | None = None,
        new_table: Callable[[int], Table] | None = None,
    ) -> None:
        super().__init__()
        self.table = table
        self.speed = max(0.0, speed)
        self.record = record
        self._new_table = new_table
        self.game_no = 0
        self.look = look_for(table.game.rules)  # how this game's cards look
        self.narrator = Narrator(table.game.names, table.human, self.look)
        self.uno_armed = False
        self.message: Text | None = None
        self.message_error = False
        self.message_version = -1
        self.saved: list[str] = []  # record files written
        self._game_paths: dict[int, str] = {}  # game number -> the file its record went to
        self._default_name = ""  # the record's file name without --record, once chosen
        self.history: list[str] = []  # the log's lines as plain text
        self.recent: list[Text] = []  # the last lines of the log, for dialogs
        self.announcements: list[str] = []  # flips and knock-outs notified (for tests)
        self._noticed: set[str] = set()
        self._timer: Timer | None = None
        self._tick_gen = 0  # ticks of an older generation were cancelled
        self._tick_pending = False
        self._prompted = -1  # version for which a dialog was opened by itself
        self._round_shown = (-1, -1)
        self._reveal: list[tuple[int, tuple[int, ...], bool]] = []
        self._challenged_name = "Wild Draw Four"  # the card of the last challenge asked
        self._last_gain = 0
        self._crash_note = ""
        self._warming = False  # the search bots' code is being compiled (``_warm_up``)
        self._terminal_ok: Callable[[], bool] = lambda: True
        self._lost = False  # the terminal went away: the game was saved, the app ends

    # ------------------------------------------------------------------ layout --------
    def compose(self) -> ComposeResult:
        yield Static(id="topbar")
        yield Static(id="rulesbar")
        with Horizontal(id="middle"):
            yield PlayersView(id="players")
            yield PileView(id="pile")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20, max_lines=2000)
        yield OthersView(id="others")
        yield Static(id="status")
        yield HandView(id="hand")
        with Horizontal(id="actions"):
            for bid, label in (
                ("b-draw", "Draw d"),
                ("b-uno", "UNO u"),
                ("b-catch", "Catch c"),
                ("b-play", "Play p"),
                ("b-keep", "Keep k"),
                ("b-challenge", "Challenge"),
                ("b-accept", "Accept"),
                ("b-color", "Colour"),
            ):
                button = Button(label, id=bid, compact=True)
                button.can_focus = False  # clicks must not take the keys from the hand
                yield button
            yield Input(placeholder="type a move (/), ? for help", id="entry", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HandView).look = self.look
        self.query_one(HandView).focus()
        self._warm_up()
        self._watch_terminal()
        self._after_change()

    # ------------------------------------------------------------ the terminal -------
    def _watch_terminal(self) -> None:
        """Notice when the terminal goes away (window closed, ssh dropped).

        Textual's input thread then reads end-of-file forever at full CPU and the app
        never ends (Textualize/textual#6690; seen here: a closed tmux window left
        ``unokit play`` burning 60% of a core for an hour). A hang-up signal does not
        always arrive (not under ``make``), so the terminal is also checked each second.
        """
        try:
            fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
        except (ValueError, OSError):
            return
        if fd < 0 or not os.isatty(fd):
            return  # not a terminal (a test, a pipe): nothing to watch
        self._terminal_ok = lambda: os.isatty(fd)
        self.set_interval(1.0, self._check_terminal)
        # no SIGHUP (Windows: NotImplementedError) or not the main thread (RuntimeError,
        # ValueError): the per-second check above still ends the app
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._terminal_lost)

    def _check_terminal(self) -> None:
        if not self._terminal_ok():
            self._terminal_lost()

    def _terminal_lost(self) -> None:
        """Save the game where the quit dialog would have, then stop: no move is lost."""
        if self._lost:
            return
        self._lost = True
        self.save_record(self.record_path())
        self.exit(0)

    def _warm_up(self) -> None:
        """Compile the search bots' code in a thread before their first move.

        ``ismcts`` compiles its search on its first move (a minute or more of CPU when
        numba's cache is cold); asked for that move on the event loop, it would freeze
        the screen, keys and all. Until the thread is done the bots wait and the status
        line says why; the human may still look around, play a turn or quit.
        """
        from unokit.bots.ismcts import ISMCTSBot

        rules = self.table.game.rules
        seated = [b.primary if isinstance(b, FallbackBot) else b for b in self.table.bots]
        bots = [b.inner if isinstance(b, ForgetfulBot) else b for b in seated]
        try:
            cold = [b for b in bots if isinstance(b, ISMCTSBot) and b.cold(rules)]
        except Exception:  # a game the compiled search does not know: nothing to compile
            cold = []
        if not cold:
            return
        self._warming = True
        players = len(self.table.game.names)

        def work() -> None:
            # the compiled code is shared by all; if this fails, the first move compiles
            # instead, as it did before there was a warm-up
            with contextlib.suppress(Exception):
                cold[0].warm_up(rules, players)
            with contextlib.suppress(RuntimeError):  # the app was closed meanwhile
                self.call_from_thread(self._warmed)

        # a daemon thread, not a Textual worker: quitting must not wait for the compiler
        threading.Thread(target=work, name="unokit-warm-up", daemon=True).start()

    def _warmed(self) -> None:
        self._warming = False
        self._after_change()

    # ------------------------------------------------------------------ state ---------
    @property
    def human(self) -> int:
        return self.table.human

    def view(self) -> View:
        return self.table.view()

    def _dialog_open(self) -> bool:
        return len(self.screen_stack) > 1

    def _after_change(self) -> None:
        """Log new events, redraw, then let bots move or wait for the human."""
        self._pump_events()
        self._refresh_ui()
        self._schedule()

    def _write_log(self, line: Text) -> None:
        self.query_one(RichLog).write(line)
        self.history.append(line.plain)
        self.recent = [*self.recent[-(RECENT_LINES - 1) :], line]

    def _pump_events(self) -> None:
        self.narrator.live = self.view().live
        for e in self.table.new_events():
            match e.data:
                case Reveal(seat=seat, cards=cards) if e.only == self.human:
                    last = self.narrator.last_challenge
                    guilty = (
                        last is not None and isinstance(last.data, Challenge) and (last.data.guilty)
                    )
                    self._reveal.append((seat, cards, guilty))
                case RoundOver(points=points):
                    self._last_gain = points
            line = self.narrator.describe(e)
            if line is not None:
                self._write_log(line)
                if e.kind in (EventKind.FLIP, EventKind.KNOCKOUT):
                    self._announce(e.kind, line)
        for note in self.table.notes:
            self._write_log(Text(note, style="dim italic"))
        self.table.notes.clear()
        for notice in self.table.notices:
            if notice in self._noticed:
                continue  # every seat's bot says the same
            self._noticed.add(notice)
            self._write_log(Text(notice, style="bold italic"))
            self.notify(notice, title="Bots", severity="warning", timeout=10)
        self.table.notices.clear()

    def _announce(self, kind: EventKind, line: Text) -> None:
        """A flip or a knock-out, in a notice over the table as well as in the log."""
        if kind == EventKind.FLIP:
            side = side_of(self.view())
            title = f"FLIP! The {('light', 'dark')[max(side, 0)].upper()} side is up"
            body = line.plain.split("FLIP!", 1)[-1].strip()
            self.notify(body, title=title, timeout=5)
        else:
            self.notify(line.plain, title="Knocked out (Mercy rule)", severity="warning", timeout=8)
        self.announcements.append(line.plain)

    def _refresh_ui(self) -> None:
        view = self.view()
        mine = view.current == self.human and view.phase < P_ROUND_OVER
        if not self._can_arm(view):
            self.uno_armed = False
        if self.message is not None and self.message_version != self.table.version:
            self.message = None
        turn = (
            "round over"
            if view.phase >= P_ROUND_OVER
            else ("your turn" if mine else f"{view.names[view.current]}'s turn")
        )
        top = Text(no_wrap=True, overflow="ellipsis")
        side = side_of(view)
        if side >= 0:  # UNO Flip!: the side up, in its colours
            top.append_text(side_text(side))
            top.append(" ")
        top.append(
            f"{self.look.title} · round {view.round_index + 1} · {goal_text(view.rules)}"
            f" · {turn} · play goes {'↓' if view.direction > 0 else '↑'}"
        )
        self.query_one("#topbar", Static).update(top)
        self.query_one("#rulesbar", Static).update(
            Text(
                f"Rules: {rules_summary(view.rules)}  (r: all rules)",
                no_wrap=True,
                overflow="ellipsis",
            )
        )
        self.query_one(PlayersView).show(view, self.look)
        self.query_one(PileView).show(view, self.look)
        self.query_one(OthersView).show(view, self.look)
        playable = frozenset(a.card for a in view.legal if a.kind == PLAY)  # jump-ins too
        self.query_one(HandView).set_hand(view.hand, playable, view.drawn)
        status = self.query_one("#status", Static)
        if self.message is not None:
            status.update(self.message)
        elif self._warming and not mine:
            status.update(Text(WARMING, no_wrap=True, overflow="ellipsis"))
        else:
            hint = Text(action_hint(view, self.look))
            if any(a.kind == PLAY and a.uno for a in view.legal):
                last = (
                    "Last but one card! "
                    if len(view.hand) == 2
                    else "A play can leave you one card! "
                )
                hint = Text(last, style="bold")
                hint.append(
                    "UNO armed: it is called with your play"
                    if self.uno_armed
                    else "Press u to call UNO with your play, then play."
                )
            catch = next((a for a in view.legal if a.kind == CATCH), None)
            if catch is not None:
                forgot = Text(f"{view.names[catch.target]} did not call UNO: catch (c)! ", "bold")
                hint = forgot + hint
            status.update(hint)
        status.set_class(self.message is not None and self.message_error, "error")
        self._refresh_buttons(view, mine)
        self.refresh_bindings()

    @staticmethod
    def _can_arm(view: View) -> bool:
        """Whether UNO may be armed: two cards, or a legal play that leaves one."""
        if view.phase >= P_ROUND_OVER:
            return False
        return len(view.hand) == 2 or any(a.kind == PLAY and a.uno for a in view.legal)

    def _refresh_buttons(self, view: View, mine: bool) -> None:
        kinds = {a.kind for a in view.legal}
        catch = next((a for a in view.legal if a.kind == CATCH), None)
        shown = {
            "b-draw": True,
            "b-uno": True,
            "b-catch": catch is not None,
            "b-play": mine and view.phase == P_DRAWN,
            "b-keep": mine and view.phase == P_DRAWN and KEEP in kinds,
            "b-challenge": CHALLENGE in kinds,
            "b-accept": ACCEPT in kinds,
            "b-color": mine and view.phase == P_START_COLOR,
        }
        for bid, show in shown.items():
            self.query_one(f"#{bid}", Button).display = show
        draw = self.query_one("#b-draw", Button)
        draw.disabled = not (mine and view.phase == P_PLAY)
        draw.label = "Launcher d" if view.rules.attack_launcher else "Draw d"
        total = view.pending_total if view.phase == P_ANSWER else 4
        if view.phase == P_CHALLENGE and view.pending >= 0:  # UNO Flip!'s wild draw cards
            total = view.pending_total
        self.query_one("#b-accept", Button).label = f"Accept +{total} a" if total else "Accept a"
        if catch is not None:
            self.query_one("#b-catch", Button).label = f"Catch {view.names[catch.target]} c"
        if view.phase == P_DRAWN and view.drawn >= 0:
            self.query_one("#b-play", Button).label = f"Play {self.look.label(view.drawn)} p"
        uno = self.query_one("#b-uno", Button)
        uno.label = "UNO armed" if self.uno_armed else "UNO u"
        uno.set_class(self.uno_armed, "armed")
        wants = view.vulnerable == self.human or any(a.kind == PLAY and a.uno for a in view.legal)
        uno.variant = "warning" if wants and not self.uno_armed else "default"

    def say(self, text: str | Text, error: bool = False) -> None:
        """A message in the status line until the game moves on."""
        msg = Text(text) if isinstance(text, str) else text
        self.message = msg
        self.message_error = error
        self.message_version = self.table.version
        self._refresh_ui()

        def expire() -> None:
            if self.message is msg:
                self.message = None
                self._refresh_ui()

        self.set_timer(MESSAGE_SECONDS, expire)

    # ------------------------------------------------------------------ pacing --------
    def _delay(self) -> float:
        """The match's pacing (``Match.delay``: a forgotten UNO stays catchable for
        ``Timing.catch_window``, as on the web), with ``--speed`` as the bots' delay."""
        if self.speed <= 0:
            return 0.0
        match = self.table.match
        if match.timing.bot_delay != self.speed:
            match.timing = Timing(bot_delay=self.speed)
        return match.delay()

    def _schedule(self) -> None:
        if self._dialog_open():
            return  # a dialog is up: everything waits for it
        if self._reveal:
            seat, cards, guilty = self._reveal.pop(0)
            name = self.table.game.names[seat]
            reveal = RevealScreen(
                name, cards, guilty, True, self.recent, self.look, self._challenged_name
            )
            self.push_screen(reveal, self._dialog_closed)
            return
        view = self.view()
        if view.round_over:
            key = (self.game_no, view.round_index)
            if self._round_shown != key:
                self._round_shown = key
                self._show_round()
            return
        if self.table.bots_pending():
            if self._warming:
                return  # ``_warmed`` schedules the bots
            if not self._tick_pending:
                self._tick_pending = True
                gen = self._tick_gen
                delay = self._delay()
                if delay <= 0:
                    self.call_later(self._tick, gen)  # after pending input and redraws
                else:
                    self._timer = self.set_timer(delay, partial(self._tick, gen))
            return
        if view.current == self.human and self._prompted != self.table.version:
            if view.phase == P_CHALLENGE:
                self._prompted = self.table.version
                self._ask_challenge(view)
            elif view.phase == P_START_COLOR:
                self._prompted = self.table.version
                self._ask_start_color()

    def _tick(self, gen: int) -> None:
        if gen != self._tick_gen:
            return  # cancelled
        self._timer = None
        self._tick_pending = False
        if self._dialog_open():
            return
        self.table.bot_step()
        self._after_change()

    def _stop_timer(self) -> None:
        self._tick_gen += 1
        self._tick_pending = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _dialog_closed(self, _result: object = None) -> None:
        self._after_change()

    @property
    def waiting_for_human(self) -> bool:
        """True when nothing will happen until the human acts (for tests and tools)."""
        return not self._tick_pending and not self.table.bots_pending()

    # ------------------------------------------------------------------ acting --------
    def act(self, action: Action) -> bool:
        """Apply the human's action; an illegal one shows the engine's message."""
        try:
            self.table.apply_human(action)
        except IllegalAction as e:
            self.say(e.message, error=True)
            return False
        if action.kind == PLAY:
            self.uno_armed = False
        self._stop_timer()
        self._after_change()
        return True

    def play_card(
        self,
        card: int,
        color: int = -1,
        uno: bool | None = None,
        base: Action | None = None,
        target: int = -1,
    ) -> None:
        """Play ``card``; a wild asks for a colour, a swap or a seven for a player.

        ``uno=None`` calls UNO if it is armed; ``base`` is a typed play whose other
        fields (a target, more cards) are kept.
        """
        view = self.view()
        if view.current == self.human and view.phase == P_START_COLOR:
            self._ask_start_color()
            return
        if view.current == self.human and view.phase == P_CHALLENGE:
            self._ask_challenge(view)
            return
        plays = [a for a in view.legal if a.kind == PLAY and a.card == card]
        if base is not None:
            plays = [a for a in plays if a.cards == base.cards]
        else:
            plays = [a for a in plays if len(a.cards) == 1]
        look = self.look
        if look.is_wild(card) and color < 0 and (not plays or any(a.color >= 0 for a in plays)):
            if not plays:
                colors = [sw.color for sw in look.swatches()]  # the engine says why not
                self.act(Action.play(card, colors[4 * max(side_of(view), 0)]))
                return

            def chosen(c: int | None) -> None:
                if c is not None:
                    self.play_card(card, c, uno, base, target)
                else:
                    self._after_change()

            named = sorted({a.color for a in plays if a.color >= 0})
            choices = [sw for sw in look.swatches() if sw.color in named]
            title = f"Choose a colour for your {look.label(card)}"
            self.push_screen(ColorScreen(title, choices=choices), chosen)
            return
        if base is not None and base.target >= 0:
            target = base.target
        targets = sorted({a.target for a in plays if a.color == color})
        if target < 0 and len(targets) == 1 and targets[0] >= 0:
            target = targets[0]  # one player to choose: no question
        if target < 0 and targets and all(t >= 0 for t in targets):

            def picked(t: int | None) -> None:
                if t is not None:
                    self.play_card(card, color, uno, base, t)
                else:
                    self._after_change()

            title = f"Your {self.look.label(card)}: swap hands with whom?"
            self._ask_target(view, targets, title, picked)
            return
        action = Action.play(card, color, target=target) if base is None else base
        action = action._replace(color=color, target=target, uno=False)
        call = self.uno_armed if uno is None else uno
        if uno is None and call and action._replace(uno=True) not in view.legal:
            call = False
        self.act(action._replace(uno=call))

    def _ask_target(
        self, view: View, targets: list[int], title: str, then: Callable[[int | None], None]
    ) -> None:
        choices = [(t, view.names[t], view.hand_sizes[t]) for t in targets]
        self.push_screen(TargetScreen(title, choices), then)

    def _ask_start_color(self) -> None:
        view = self.view()
        swap = [a.target for a in view.legal if a.kind == COLOR and a.target >= 0]

        def chosen(c: int | None) -> None:
            if c is None:
                self._after_change()
            elif swap:

                def picked(t: int | None) -> None:
                    if t is not None:
                        self.act(Action(COLOR, color=c, target=t))
                    else:
                        self._ask_start_color()

                targets = sorted(set(swap))
                self._ask_target(self.view(), targets, "Swap hands with whom?", picked)
            else:
                self.act(Action(COLOR, color=c))

        named = sorted({a.color for a in view.legal if a.kind == COLOR})
        choices = [sw for sw in self.look.swatches() if sw.color in named]
        title = self.look.color_prompt(view)
        if self.narrator.color_reason == "flip" and self.look.side(view) >= 0:
            title = "The flip turned up a Wild: " + title.split(": ", 1)[-1]
        self.push_screen(ColorScreen(title, cancellable=False, choices=choices), chosen)

    def _ask_challenge(self, view: View) -> None:
        def answered(answer: str | None) -> None:
            if answer == "challenge":
                self.act(Action(CHALLENGE))
            elif answer == "accept":
                self.act(Action(ACCEPT))
            else:
                self._after_change()

        by = view.names[view.wd4_by] if view.wd4_by >= 0 else "Someone"
        self._challenged_name = (
            self.look.long_name(view.pending) if view.pending >= 0 else "Wild Draw Four"
        )
        screen = ChallengeScreen(
            by, self.narrator.wd4_prev_color, self.recent, self.look, view.pending, view.color
        )
        self.push_screen(screen, answered)

    @on(HandView.Chosen)
    def _hand_chosen(self, event: HandView.Chosen) -> None:
        self.play_card(event.card)

    # --- keys and buttons -------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # "catch" is always allowed: with nobody to catch, c says so.
        if action in ("draw", "launch"):
            return self.view().rules.attack_launcher == (action == "launch")
        if action in ("keep", "play_drawn", "accept"):
            view = self.view()
            if action == "accept":
                return any(a.kind == ACCEPT for a in view.legal)
            if action == "keep" and not any(a.kind == KEEP for a in view.legal):
                return False  # the drawn card must be played (No Mercy, draw-to-match)
            return view.current == self.human and view.phase == P_DRAWN
        return True

    def action_draw(self) -> None:
        view = self.view()
        if view.current == self.human and view.phase == P_CHALLENGE:
            self._ask_challenge(view)
            return
        self.act(Action(DRAW))

    def action_launch(self) -> None:
        self.action_draw()

    def action_accept(self) -> None:
        self.act(Action(ACCEPT))

    def action_uno(self) -> None:
        view = self.view()
        if view.vulnerable == self.human:
            self.act(Action(UNO))
            return
        if self._can_arm(view):
            self.uno_armed = not self.uno_armed
            self.say(
                "UNO armed: your next play calls UNO." if self.uno_armed else "UNO call cancelled."
            )
            return
        if len(view.hand) == 1:
            self.say("You already called UNO.")
            return
        self.say(
            f"Call UNO as you play your last but one card (you hold {len(view.hand)}).",
            error=True,
        )

    def action_catch(self) -> None:
        view = self.view()
        catch = next((a for a in view.legal if a.kind == CATCH), None)
        if catch is None:
            self.say(
                "Nobody to catch now: c catches a player who has one card and did not "
                "call UNO, before the next move.",
                error=True,
            )
            return
        self.act(catch)

    def action_keep(self) -> None:
        self.act(Action(KEEP))

    def action_play_drawn(self) -> None:
        view = self.view()
        if view.phase == P_DRAWN and view.drawn >= 0 and view.current == self.human:
            self.play_card(view.drawn)
        else:
            self.say("You can play a drawn card right after drawing it.", error=True)

    def action_type(self) -> None:
        self.query_one("#entry", Input).focus()

    def action_help(self) -> None:
        text = self.look.help()
        screen = HelpScreen(text) if text is not None else HelpScreen()
        self.push_screen(screen, self._dialog_closed)

    def action_rules(self) -> None:
        self.push_screen(RulesScreen(self.view().rules), self._dialog_closed)

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        bid = event.button.id
        view = self.view()
        if bid == "b-draw":
            self.action_draw()
        elif bid == "b-uno":
            self.action_uno()
        elif bid == "b-catch":
            self.action_catch()
        elif bid == "b-play":
            self.action_play_drawn()
        elif bid == "b-keep":
            self.action_keep()
        elif bid in ("b-challenge", "b-accept"):
            self.act(Action(CHALLENGE if bid == "b-challenge" else ACCEPT))
        elif bid == "b-color" and view.phase == P_START_COLOR:
            self._ask_start_color()

    @on(Input.Submitted, "#entry")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip().lstrip("/").strip()  # "/" also opens the input
        event.input.value = ""
        if not text:
            self.query_one(HandView).focus()
            return
        low = text.lower()
        if low in ("uno", "u"):
            self.query_one(HandView).focus()
            self.action_uno()
            return
        if low in ("catch", "c"):
            self.query_one(HandView).focus()
            self.action_catch()
            return
        if low in ("help", "?"):
            self.action_help()
            return
        try:
            action = self.look.parse(text)
        except ActionParseError as e:
            self.say(e.message, error=True)
            return  # the input keeps the keys, to type it again
        self.query_one(HandView).focus()  # d, u, c work again at once
        if action.kind == PLAY:
            self.play_card(action.card, action.color, True if action.uno else None, action)
        else:
            self.act(action)

    def action_focus_hand(self) -> None:
        self.query_one(HandView).focus()

    # ------------------------------------------------------------------ rounds --------
    def _show_round(self) -> None:
        view = self.view()
        scoring = view.rules.scoring
        target = view.rules.target_score
        teams = scoring == "teams"
        g_over = view.phase == P_GAME_OVER
        w = view.round_winner
        names = view.names
        if g_over:
            gw = view.game_winner
            if teams:
                mates = [names[s] for s in range(view.n) if view.team_of(s) == gw]
                won = gw == view.team_of(self.human)
                title = "Your team wins the game!" if won else f"{' & '.join(mates)} win the game!"
            else:
                title = "You win the game!" if gw == self.human else f"{names[gw]} wins the game!"
        else:
            title = "You win the round!" if w == self.human else f"{names[w]} wins the round!"
        out = "You went out" if w == self.human else f"{names[w]} went out"
        hands = self.table.final_hands()  # laid down to be counted
        mercy = self.look.knocks_out
        if mercy and hands[w]:  # NM-END-3: everyone else was knocked out
            out = (
                "You are the last one left"
                if w == self.human
                else f"{names[w]} is the last one left"
            )
        t = Text()
        if scoring in ("standard", "teams"):
            t.append(f"{out}: +{self._last_gain} points{' for the team' if teams else ''}.\n\n")
        elif scoring == "first-out":
            t.append(f"{out}{'' if mercy and hands[w] else ' first'}.\n\n")
        else:
            t.append(f"{out}; the others add the points left in their hands.\n\n")
        counted = scoring != "first-out"
        t.append(f"{'Player':<14}{'points':>7}{'score':>7}  cards left\n", style="bold")

        def score(s: int) -> int:
            return view.scores[view.team_of(s)] if teams else view.scores[s]

        look = self.look
        low = scoring in ("low", "elimination")
        order = list(range(view.n))
        if g_over:
            order.sort(key=lambda s: score(s) if low else -score(s))
        for s in order:
            name = names[s]
            if s == self.human and name.lower() != "you":
                name += " (you)"
            if teams:
                name += " " + "AB"[view.team_of(s)]
            points = sum(look.points(c) for c in hands[s])
            shown_points = str(points) if counted else "-"
            shown_score = str(score(s)) if counted else "-"
            line = f"{name[:14]:<14}{shown_points:>7}{shown_score:>7}  "
            t.append(line, style="bold" if s == w else "")
            if not view.live[s]:
                t.append("knocked out (Mercy rule)" if mercy else "out")
            elif hands[s]:
                t.append_text(look.cards_text(hands[s]))
            else:
                t.append("none", style="bold" if s == w else "")
            t.append("\n")
        goal = {
            "low": f"At {target} points the game ends; the lowest score wins.",
            "elimination": f"At {target} points a player is out; the last one left wins.",
            "first-out": "The first player out wins."
            if not mercy
            else "The first player out, or the last one left (the Mercy rule), wins.",
        }.get(scoring, f"First to {target} point{'s' if target != 1 else ''} wins.")
        t.append("\n" + goal)
        if g_over:
            rounds = view.round_index + 1
            t.append(f"  {rounds} round{'s' if rounds != 1 else ''} played.")
            if self.record:
                t.append("\n" + self.save_record(self.record_path()))
        self.push_screen(RoundScreen(title, t, g_over, self.recent), self._round_done)

    def _round_done(self, choice: str | None) -> None:
        if choice == "next":
            self.table.next_round()
            self._after_change()
        elif choice == "again":
            self.new_game()
        elif choice == "quit":
            self.exit(0)
        else:
            self._after_change()

    def new_game(self) -> None:
        self._stop_timer()
        self.game_no += 1
        old = self.table
        if self._new_table is not None:
            self.table = self._new_table(self.game_no)
        else:
            g = old.game
            self.table = Table(new_game(g.rules, g.names, seed=None), old.bots, old.human)
        self.look = look_for(self.table.game.rules)
        self.query_one(HandView).look = self.look
        self.narrator = Narrator(self.table.game.names, self.table.human, self.look)
        self.uno_armed = False
        self.message = None
        self._prompted = -1
        self._reveal.clear()
        self.recent = []
        self.query_one(RichLog).clear()
        self._after_change()

    # ------------------------------------------------------------------ records -------
    def record_path(self) -> str:
        """Where this game's record goes, never onto a file this game did not write.

        ``--record FILE`` (game 2 on: FILE-2.json, ...), else a new file in the data
        folder (``data_dir()``).  A name that is taken gets the next free ``-2``,
        ``-3``... so an existing file is never overwritten.
        """
        own = self._game_paths.get(self.game_no)
        if own is not None:
            return own  # this game's own file, saved before: updated in place
        if self.record:
            p = Path(self.record)
            if self.game_no > 0:
                p = p.with_name(f"{p.stem}-{self.game_no + 1}{p.suffix}")
        else:
            if not self._default_name:
                self._default_name = time.strftime("unokit-game-%Y%m%d-%H%M%S")
            suffix = f"-{self.game_no + 1}" if self.game_no > 0 else ""
            p = data_dir() / f"{self._default_name}{suffix}.json"
        return str(free_path(p))

    def save_record(self, path: str) -> str:
        """Write the record atomically, never over another file; the result as a sentence."""
        own = self._game_paths.get(self.game_no) == path
        try:
            if not self.record:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            text = dumps(self.table.game)
            try:
                write_text_atomic(path, text, overwrite=own)
            except FileExistsError:  # appeared since the name was chosen
                path = str(free_path(path))
                write_text_atomic(path, text, overwrite=False)
        except OSError as e:
            return f"Could not save the record to {path}: {e.strerror or e}"
        self._game_paths[self.game_no] = path
        if path not in self.saved:
            self.saved.append(path)
        return f"Record saved to {path}"

    def action_request_quit(self) -> None:
        if any(isinstance(s, QuitScreen) for s in self.screen_stack):
            return

        def answered(choice: str | None) -> None:
            if choice == "save":
                msg = self.save_record(target)
                if msg.startswith("Could not"):
                    self.say(msg, error=True)
                    self._after_change()
                    return
                self.exit(0)
            elif choice == "quit":
                self.exit(0)
            else:
                self._after_change()

        target = self.record_path()
        self.push_screen(QuitScreen(target), answered)

    # ------------------------------------------------------------------ crashes -------
    def _handle_exception(self, error: Exception) -> None:
        """No traceback on the terminal: it goes to a file, with the game record."""
        try:
            fd, path = tempfile.mkstemp(prefix="unokit-crash-", suffix=".txt")
            with open(fd, "w", encoding="utf-8") as f:
                f.write("".join(traceback.format_exception(error)))
                f.write("\n--- game record ---\n")
                f.write(dumps(self.table.game))
            self._crash_note = (
                f"unokit play: an internal error stopped the game ({error}); "
                f"details and the game record are in {path}"
            )
        except Exception:
            self._crash_note = f"unokit play: an internal error stopped the game ({error})"
        super()._handle_exception(error)

    def _fatal_error(self) -> None:
        self.bell()
        self.panic(Text(self._crash_note or "unokit play: an internal error stopped the game"))


# ---------------------------------------------------------------------- entry ---------
def run_play(args: argparse.Namespace, rules: RuleSet) -> int:
    """``unokit play``: build the table from the command line and run the app."""
    players: int = args.players
    seed: int | None = args.seed
    names = seat_names(args.name, players - 1)
    kind: str | None = args.bots
    level: str = args.level
    speed: float = args.speed
    if speed < 0:
        print("unokit play: --speed must be 0 or more seconds", file=sys.stderr)
        return 2
    try:
        make_bots(kind, level, 0, seed)  # checks the kind before the screen opens
    except ValueError as e:
        print(f"unokit play: {e}", file=sys.stderr)
        return 2
    # bots that play this game (they declare it), or stand-ins with a note
    kind, note = modern_bot_kind(kind, level, rules)

    def new_table(game_no: int) -> Table:
        s = seed + game_no if seed is not None else random.randrange(2**31)
        game = new_game(rules, names, seed=s)
        bots = modern_bots(kind, level, players - 1, s, rules)
        table = Table(game, [None, *bots], human=0)
        for bot in bots:
            bot.on_switch = table.notices.append
        if note:
            table.notices.append(note)
        return table

    table = new_table(0)  # a RulesError here is reported by the CLI
    app = UnoApp(table, speed=speed, record=args.record, new_table=new_table)
    app.run()
    with contextlib.suppress(OSError):  # the terminal may be gone (``_terminal_lost``)
        for path in app.saved:
            print(f"Game record saved to {path}", flush=True)
    code = app.return_code
    return code if code is not None else 0
