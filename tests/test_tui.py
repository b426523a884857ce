"""The terminal game (`unokit play`), driven headless through Textual's pilot.

Situations are built as records (helpers.scenario) so every deal is known; opponents
are scripted bots, and bots move with ``speed=0`` unless a test is about pacing.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RichLog

from helpers import game_after, scenario
from unokit.bots import BOTS, RandomBot
from unokit.bots.roster import ForgetfulBot, bot_kind, make_bots
from unokit.cards import CARD_CODE, parse_card
from unokit.engine import CATCH, PLAY, UNO, Action, Game, View
from unokit.record import loads, replay
from unokit.rules import RuleSet
from unokit.tui.app import UnoApp, run_play
from unokit.tui.screens import (
    ChallengeScreen,
    ColorScreen,
    QuitScreen,
    RevealScreen,
    RoundScreen,
    TargetScreen,
)
from unokit.tui.table import (
    Narrator,
    Table,
    card_label,
    seat_names,
)
from unokit.tui.widgets import HandView

SIZE = (80, 24)


class ScriptBot:
    """Plays the moves it is given (text form), then the first legal move; never reacts."""

    name = "script"

    def __init__(self, moves: list[str] | None = None) -> None:
        self.moves = list(moves or [])

    def act(self, view: View) -> Action:
        if self.moves:
            return Action.parse(self.moves.pop(0))
        plays = [a for a in view.legal if a.kind == PLAY and not a.uno]
        others = [a for a in view.legal if a.kind not in (CATCH, UNO)]
        return (plays or others)[0]

    def react(self, view: View) -> Action | None:
        return None


def make_app(
    hands: list[list[str]],
    start: str,
    bot_moves: list[list[str]] | None = None,
    *,
    dealer: int = 1,
    then: list[str] | None = None,
    options: dict[str, Any] | None = None,
    speed: float = 0.0,
    record: str | None = None,
    new_table: Any = None,
) -> UnoApp:
    names = ["You", "Ben", "Cy", "Di"][: len(hands)]
    game = game_after(
        scenario(hands, start, [], dealer=dealer, then=then, options=options, names=names)
    )
    moves = bot_moves or [[] for _ in hands[1:]]
    bots: list[Any] = [None, *(ScriptBot(m) for m in moves)]
    return UnoApp(Table(game, bots, human=0), speed=speed, record=record, new_table=new_table)


async def settle(pilot: Pilot[int], app: UnoApp) -> None:
    """Let bots move until the human must act (or a dialog is up)."""
    for _ in range(400):
        await pilot.pause()
        if len(app.screen_stack) > 1 or app.waiting_for_human:
            return
    raise AssertionError("the table never waited for the human")


def log_text(app: UnoApp) -> str:
    """The log as written (one line per event)."""
    return "\n".join(app.history)


def rendered_log(app: UnoApp) -> str:
    """The log as drawn, scrolled-out lines included."""
    return "\n".join(line.text for line in app.query_one(RichLog).lines)


def screen_text(app: UnoApp) -> str:
    """Every line of every screen on the stack, as the terminal would show it."""
    out: list[str] = []
    for screen in app.screen_stack:
        out.extend(strip.text for strip in screen._compositor.render_strips())
    return "\n".join(out)


async def drawn_footer(pilot: Pilot[int], app: UnoApp) -> str:
    """The footer's line as drawn.  The footer draws its keys a frame or more after the
    table (the flake hunt caught it blank on a loaded machine), so this waits for it to
    be drawn, not for a time."""
    for _ in range(400):
        footer = screen_text(app).splitlines()[-1]
        if footer.strip():
            return footer
        await pilot.pause()
    raise AssertionError("the footer was never drawn")


def hand_codes(app: UnoApp) -> list[str]:
    return [CARD_CODE[c] for c in app.table.view().hand]


# ------------------------------------------------------------------ playing cards -----
@pytest.mark.asyncio
async def test_play_a_card_with_the_keyboard() -> None:
    app = make_app([["R1", "G2", "B3"], ["R4", "Y5", "B6"]], "R5", [["R4"]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        hand = app.query_one(HandView)
        assert hand.playable == {parse_card("R1")}  # raised: only R1 matches R5
        assert CARD_CODE[hand.selected] == "R1"  # the cursor starts on a playable card
        await pilot.press("enter")
        await settle(pilot, app)
        assert hand_codes(app) == ["G2", "B3"]
        assert "You played R1" in log_text(app)
        assert "Ben played R4" in log_text(app)
        assert app.table.view().current == 0
        # an unplayable card: the engine's message, nothing changes
        await pilot.press("right")
        assert CARD_CODE[hand.selected] == "B3"
        await pilot.press("enter")
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert "B3 does not match R4" in status
        assert hand_codes(app) == ["G2", "B3"]


@pytest.mark.asyncio
async def test_click_a_card_and_type_a_card() -> None:
    app = make_app([["R1", "R2", "B3"], ["R4", "R6", "B6"]], "R5", [["R4", "R6"]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        hand = app.query_one(HandView)
        # cards are 6 wide with a gap, after one column of padding; R2 is the 2nd card
        await pilot.click(HandView, offset=(1 + 7 + 2, 1))
        await settle(pilot, app)
        assert hand.cards == tuple(parse_card(c) for c in ("R1", "B3"))
        assert "You played R2" in log_text(app)
        # type a code into the input
        await pilot.press("slash", "r", "1", "enter")
        await settle(pilot, app)
        assert hand_codes(app) == ["B3"]
        assert "You played R1" in log_text(app)
        await pilot.press("slash", "z", "z", "enter")
        await pilot.pause()
        assert "not an action" in str(app.query_one("#status").render())
        await pilot.press("escape")
        assert hand.has_focus


@pytest.mark.asyncio
async def test_wild_asks_for_a_colour() -> None:
    app = make_app([["W", "G2", "B3"], ["R4", "Y5", "G6"]], "R5", [["G6"]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert CARD_CODE[app.query_one(HandView).selected] == "W"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ColorScreen)
        await pilot.press("g")
        await settle(pilot, app)
        assert "You played Wild and named Green" in log_text(app)
        assert "Ben played G6" in log_text(app)
        assert app.table.view().color == 2


@pytest.mark.asyncio
async def test_wild_start_card_colour_is_asked() -> None:
    app = make_app([["R1", "G2"], ["R4", "Y5"]], "W")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ColorScreen)
        await pilot.press("escape")  # not allowed to skip
        assert isinstance(app.screen, ColorScreen)
        await pilot.press("B")  # the dialog shows capitals: Shift or Caps Lock works too
        await pilot.pause()
        assert "You named Blue" in log_text(app)
        assert app.table.view().color == 3


@pytest.mark.asyncio
async def test_drawn_card_play_or_keep() -> None:
    app = make_app([["G2", "B3"], ["G4", "Y5"]], "R5", then=["R9", "R7"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("d")
        await settle(pilot, app)
        view = app.table.view()
        assert view.phase == 1 and CARD_CODE[view.drawn] == "R9"
        assert app.query_one("#b-keep").display and app.query_one("#b-play").display
        assert "You drew R9" in str(app.query_one("#status").render())
        await pilot.press("k")
        await settle(pilot, app)
        assert "You kept the drawn card" in log_text(app)
        assert sorted(hand_codes(app)) == ["B3", "G2", "R9"]
        assert app.table.view().current == 0


@pytest.mark.asyncio
async def test_bots_are_paced_by_speed() -> None:
    """The bot's move waits on a timer of ``--speed`` seconds.  The timer is held by the
    test and fired by hand, so a loaded machine cannot make "not yet" false (it did:
    a pause of over 1.5 s between two key presses let Ben move first)."""
    app = make_app([["R1", "G2", "B3"], ["R4", "Y5", "B6"]], "R5", [["R4"]], speed=1.5)
    held: list[tuple[float, Any]] = []

    class Held:
        def stop(self) -> None:
            return None

    async with app.run_test(size=SIZE) as pilot:
        real = app.set_timer

        def set_timer(delay: float, callback: Any = None, **kw: Any) -> Any:
            if delay == 1.5:
                held.append((delay, callback))
                return Held()
            return real(delay, callback, **kw)

        app.set_timer = set_timer  # type: ignore[method-assign]
        await pilot.pause()
        await pilot.press("enter")
        for _ in range(400):  # until the bot's move is scheduled (a guard, not a clock)
            await pilot.pause()
            if held:
                break
        assert [d for d, _ in held] == [1.5]  # the move waits on --speed
        assert app.table.view().current == 1  # Ben has not moved yet
        held[0][1]()  # the timer fires
        await settle(pilot, app)
        assert app.table.view().current == 0
        assert "Ben played R4" in log_text(app)


@pytest.mark.asyncio
async def test_search_bots_compile_in_the_background_and_then_move(monkeypatch: Any) -> None:
    """A cold ismcts compiles for a minute or more: the screen must not freeze on it.

    The warm-up is held until the test lets it go; meanwhile the bot does not move, the
    status line says why, and the app answers keys (the help screen opens and closes).
    """
    import threading

    from unokit.bots.ismcts import ISMCTSBot
    from unokit.tui.app import WARMING

    go = threading.Event()
    warmed: list[int] = []

    def warm_up(self: ISMCTSBot, rules: RuleSet, players: int) -> None:
        go.wait(10)
        warmed.append(players)

    monkeypatch.setattr(ISMCTSBot, "cold", lambda self, rules: True)
    monkeypatch.setattr(ISMCTSBot, "warm_up", warm_up)
    game = game_after(scenario([["R1", "G2", "B3"], ["R4", "Y5", "B6"]], "R5", [], dealer=0))
    bot = ForgetfulBot(ISMCTSBot(seed=1, iterations=20, compiled=False))  # as make_bots
    app = UnoApp(Table(game, [None, bot], human=0), speed=0)
    async with app.run_test(size=(120, 30)) as pilot:
        for _ in range(5):
            await pilot.pause(0.05)
        assert app.table.view().current == 1 and app.table.version == 0  # Ben waits
        assert WARMING[:30] in screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert len(app.screen_stack) == 2  # the help screen: keys still work
        await pilot.press("escape")
        await pilot.pause()
        go.set()
        for _ in range(100):
            await pilot.pause(0.05)
            if app.table.view().current == 0:
                break
        assert warmed == [2]
        assert app.table.view().current == 0  # Ben moved once the warm-up was done
        assert WARMING[:30] not in screen_text(app)


# ------------------------------------------------------------------ UNO --------------
@pytest.mark.asyncio
async def test_call_uno_with_the_play() -> None:
    app = make_app([["R1", "R2"], ["Y4", "Y5"]], "R5")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert "press u" in str(app.query_one("#status").render()).lower()
        await pilot.press("u")
        assert app.uno_armed
        await pilot.press("enter")
        await settle(pilot, app)
        assert "You called UNO!" in log_text(app)
        assert app.table.game.vulnerable == -1
        assert not app.uno_armed


@pytest.mark.asyncio
async def test_late_uno_call_and_the_button() -> None:
    # a slow table: the bot waits, so there is time to call after the play
    app = make_app([["R1", "R2"], ["Y4", "Y5"]], "R5", speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.table.game.vulnerable == 0  # forgot: catchable
        await pilot.click("#b-uno")
        await pilot.pause()
        assert "You called UNO!" in log_text(app)
        assert app.table.game.vulnerable == -1


@pytest.mark.asyncio
async def test_catch_a_bot_that_forgot_uno() -> None:
    # Ben (seat 1) goes first and plays his last but one card without calling UNO
    app = make_app([["G2", "B3"], ["R4", "Y5"]], "R5", [["R4"]], dealer=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.table.game.vulnerable == 1
        catch = app.query_one("#b-catch")
        assert catch.display and "Catch Ben" in str(catch.render())
        await pilot.press("c")
        await settle(pilot, app)
        assert "You caught Ben: +2 cards" in log_text(app)
        assert app.table.view().hand_sizes[1] == 3
        assert not app.query_one("#b-catch").display


@pytest.mark.asyncio
async def test_bots_catch_a_human_who_forgot() -> None:
    names = ["You", "Ben"]
    game = game_after(scenario([["R1", "R2"], ["Y4", "Y5"]], "R5", [], dealer=1, names=names))
    app = UnoApp(Table(game, [None, RandomBot(seed=1)], human=0), speed=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert "Ben caught you: +2 cards" in log_text(app)


# ------------------------------------------------------------------ Wild Draw Four ----
@pytest.mark.asyncio
async def test_challenge_a_wild_draw_four_and_see_the_hand() -> None:
    # Ben holds R4 while red is in force: his Wild Draw Four is a bluff
    app = make_app([["G2", "B3", "G7"], ["W+4", "R4", "Y5"]], "R5", [["W+4 B"]], dealer=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ChallengeScreen)
        top = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "Just now:" in top and "Ben played W+4 and named Blue" in top
        await pilot.press("enter")  # a stray Enter decides nothing
        assert isinstance(app.screen, ChallengeScreen)
        await pilot.press("c")
        await settle(pilot, app)
        assert isinstance(app.screen, RevealScreen)
        shown = screen_text(app)
        assert "Ben's hand:" in shown and "R4" in shown and "Y5" in shown
        assert "Guilty" in shown
        top = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "Just now:" in top and "Ben played W+4" in top  # the log it covers
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.table.view().hand_sizes == (3, 6)
        assert "challenged Ben's Wild Draw Four: guilty" in log_text(app)


@pytest.mark.asyncio
async def test_accept_a_wild_draw_four() -> None:
    app = make_app([["G2", "B3", "G7"], ["W+4", "B4", "Y5"]], "R5", [["W+4 B"]], dealer=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ChallengeScreen)
        await pilot.press("a")
        await settle(pilot, app)
        assert app.table.view().hand_sizes[0] == 7
        assert "You drew" in log_text(app) and "You were skipped" in log_text(app)


# ------------------------------------------------------------------ variants --------
@pytest.mark.asyncio
async def test_seven_zero_asks_whom_to_swap_with() -> None:
    hands = [["R7", "G2", "B3"], ["R4", "Y5", "B6"], ["G9", "Y9", "B9"]]
    app = make_app(hands, "R5", dealer=2, options={"seven_zero": True}, speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TargetScreen)
        assert "Cy (3 cards)" in screen_text(app)
        await pilot.press("2")  # the second choice: Cy
        await pilot.pause()
        assert sorted(hand_codes(app)) == ["B9", "G9", "Y9"]  # Cy's hand is now ours
        assert "You swapped hands with Cy" in log_text(app)
        assert "Your hand is now: G9 Y9 B9" in log_text(app)


@pytest.mark.asyncio
async def test_stacking_answer_or_accept() -> None:
    app = make_app(
        [["G+2", "B3", "G7"], ["R+2", "Y5", "B6"]],
        "R5",
        [["R+2"]],
        dealer=0,
        options={"stacking": "progressive"},
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        hand = app.query_one(HandView)
        assert hand.playable == {parse_card("G+2")}
        assert "R+2 hits you" in str(app.query_one("#status").render())
        assert app.query_one("#b-accept").display
        await pilot.press("a")
        await settle(pilot, app)
        assert app.table.view().hand_sizes[0] == 5
        assert "You drew" in log_text(app)


# ------------------------------------------------------------------ rounds, games -----
@pytest.mark.asyncio
async def test_round_is_scored_then_next_round() -> None:
    app = make_app([["R1"], ["Y5"]], "R5")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, RoundScreen)
        shown = screen_text(app)
        assert "You win the round!" in shown and "You went out: +5 points" in shown
        assert re.search(r"Ben\s+1\s+0", shown)
        await pilot.press("enter")
        await settle(pilot, app)
        view = app.table.view()
        assert view.round_index == 1 and view.scores == (5, 0)
        assert "Round 2" in log_text(app)


@pytest.mark.asyncio
async def test_game_over_saves_record_and_plays_again(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    asked: list[int] = []

    def next_table(game_no: int) -> Table:
        # A known second deal (the human leads), so the check below cannot race a bot.
        asked.append(game_no)
        deal = scenario([["G1", "G2"], ["Y7", "Y8"]], "G5", [], dealer=1, names=["You", "Ben"])
        return Table(game_after(deal), [None, ScriptBot()], human=0)

    app = make_app(
        [["R1"], ["Y5"]],
        "R5",
        options={"target_score": 5},
        record=str(path),
        new_table=next_table,
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        shown = screen_text(app)
        assert "You win the game!" in shown and "Play again" in shown
        assert "Record saved to" in shown and "game.json" in shown
        result = replay(loads(path.read_text()))
        assert result.ok and result.game is not None and result.game.game_over
        await pilot.press("n")
        await settle(pilot, app)
        assert app.game_no == 1 and asked == [1]
        view = app.table.view()
        assert view.scores == (0, 0) and view.round_index == 0
        assert sorted(hand_codes(app)) == ["G1", "G2"] and app.waiting_for_human
        assert "You win the game!" not in screen_text(app)
        assert app.record_path() == str(tmp_path / "game-2.json")


# ------------------------------------------------------------------ quitting ----------
@pytest.mark.asyncio
async def test_quit_asks_and_saves_the_record(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    app = make_app([["R1", "G2"], ["Y4", "Y5"]], "R5", record=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+c")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("s")
        await pilot.pause()
    assert app.return_code == 0
    rec = json.loads(path.read_text())
    assert rec["players"] == ["You", "Ben"]


@pytest.mark.asyncio
async def test_a_lost_terminal_saves_the_game_and_ends_the_app(tmp_path: Path) -> None:
    """A closed window or a dropped ssh: no dialog can be answered, so the game is saved
    where the quit dialog would have put it and the app ends (Textual would otherwise
    spin on the dead terminal forever)."""
    path = tmp_path / "lost.json"
    app = make_app([["R1", "G2", "B3"], ["Y4", "Y5", "B6"]], "R5", record=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # R1
        await settle(pilot, app)
        app._check_terminal()  # the terminal is still there: nothing happens
        await pilot.pause()
        assert not path.exists() and app.return_code is None
        app._terminal_ok = lambda: False
        app._check_terminal()
        await pilot.pause()
    assert app.return_code == 0
    result = replay(loads(path.read_text()))
    assert result.ok and result.game is not None
    assert result.game.state_json() == app.table.game.state_json()  # every move kept


# ------------------------------------------------------------------ secrecy -----------
TOKEN = re.compile(
    r"(?<![A-Za-z0-9+])(W\+4|[RYGB]\+2|[RYGB][0-9⊘⇄]|Wild|Swap|Shuf|W★)(?![A-Za-z0-9+])"
)


def leaked(app: UnoApp) -> set[str]:
    """Card labels on screen (or in the whole log) that only an opponent's hand explains.

    Once the round is over the hands are laid down to be counted: nothing is secret.
    """
    g = app.table.game
    me = app.table.human
    if g.round_over:
        return set()
    seen = {card_label(c) for e in g.events_for(me) for c in e.cards}
    seen |= {card_label(c) for c in g.hands[me]} | {card_label(c) for c in g.discard}
    secret = {card_label(c) for s, h in enumerate(g.hands) if s != me for c in h} - seen
    shown = set(TOKEN.findall(screen_text(app) + "\n" + rendered_log(app)))
    return shown & secret


@pytest.mark.asyncio
async def test_screen_never_shows_opponents_cards() -> None:
    # opponents hold cards nobody else has, none of them ever played here
    app = make_app([["R1", "R2", "G2"], ["B9", "Y8", "W+4"], ["G9", "BS", "Y+2"]], "R5", dealer=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert leaked(app) == set()
        assert {"B9", "Y8", "W+4", "G9", "B⊘", "Y+2"}.isdisjoint(TOKEN.findall(screen_text(app)))
    # and through a whole seeded game against random bots, at every decision
    game = Game(RuleSet(target_score=1), ["You", "Ana", "Ben", "Cy"], seed=7)
    bots: list[Any] = [None, *(RandomBot(seed=s) for s in (1, 2, 3))]
    app = UnoApp(Table(game, bots, human=0), speed=0)
    async with app.run_test(size=SIZE) as pilot:
        checks = 0
        for _ in range(80):
            await settle(pilot, app)
            assert leaked(app) == set()
            checks += 1
            screen = app.screen
            if isinstance(screen, RoundScreen):
                if screen.game_over:
                    break
                await pilot.press("enter")
            elif isinstance(screen, ColorScreen):
                await pilot.press("r")
            elif isinstance(screen, ChallengeScreen):
                await pilot.press("c")
            elif isinstance(screen, RevealScreen):
                await pilot.press("enter")
            else:
                view = app.table.view()
                if view.phase == 1:
                    await pilot.press("p")
                elif any(a.kind == PLAY for a in view.legal):
                    hand = app.query_one(HandView)
                    target = next(i for i, c in enumerate(hand.cards) if c in hand.playable)
                    keys = ["right"] * ((target - hand.cursor) % len(hand.cards))
                    if len(view.hand) == 2:
                        keys.append("u")  # arm UNO with the play
                    await pilot.press(*keys, "enter")
                else:
                    await pilot.press("d")
        assert checks > 10 and app.table.game.game_over


# ------------------------------------------------------------------ layout -----------
@pytest.mark.asyncio
async def test_fits_80x24_with_ten_players() -> None:
    game = Game(RuleSet(), seat_names("You", 9), seed=3)
    bots: list[Any] = [None, *make_bots("random", "normal", 9, 3)]
    app = UnoApp(Table(game, bots, human=0), speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for wid in ("#topbar", "#players", "#log", "#status", "#hand", "#actions"):
            region = app.query_one(wid).region
            assert region.height > 0 and region.bottom <= 23, wid
        shown = screen_text(app)
        for card in app.table.view().hand:
            assert card_label(card) in shown


# ------------------------------------------------------------------ plain parts ------
def test_levels_choose_bots_and_easy_bots_forget() -> None:
    assert bot_kind("easy", BOTS) == "random"
    assert bot_kind("hard", {"random": 1, "greedy": 2}) == "greedy"
    assert bot_kind("normal", {"random": 1}) == "random"
    bots = make_bots(None, "easy", 3, seed=1)
    assert len(bots) == 3 and all(isinstance(b, ForgetfulBot) for b in bots)
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bots("nosuch", "normal", 1, seed=1)
    forgetful = ForgetfulBot(RandomBot(seed=1), seed=1, forget=1.0, skip=1.0)
    g = game_after(scenario([["R1", "R2"], ["Y4", "Y5"]], "R5", [], dealer=1))
    from unokit.engine import view_of

    act = forgetful.act(view_of(g, 0))
    assert act.kind == PLAY and not act.uno
    g.apply(0, act)
    assert forgetful.react(view_of(g, 1)) is None
    assert seat_names("Ben", 3) == ["Ben", "Ana", "Cy", "Di"]


def test_narrator_lines() -> None:
    g = game_after(
        scenario(
            [["R1", "R2"], ["Y4", "Y5"]],
            "R5",
            [{"seat": 0, "play": "R1"}],
            dealer=1,
            names=["You", "Ben"],
        )
    )
    n = Narrator(g.names, 0)
    lines = [str(t) for e in g.events_for(0) if (t := n.describe(e)) is not None]
    assert lines[0] == "── Round 1: Ben deals ──"
    assert "Start card: R5" in lines and "You played R1" in lines


def test_run_play_refuses_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(
        players=3, seed=1, name="You", bots="nosuch", level="normal", speed=0, record=None
    )
    assert run_play(args, RuleSet()) == 2
    assert "unknown bot kind" in capsys.readouterr().err


# ------------------------------------------------------------------ issue 15 ---------
def status_text(app: UnoApp) -> str:
    return str(app.query_one("#status").render())


@pytest.mark.asyncio
async def test_cards_show_colour_and_symbol_and_codes_still_type() -> None:
    hands = [["GR", "YS", "B+2", "W", "WCUST"], ["R4", "Y5", "B6", "G1", "G2"]]
    options = {"deck": "mattel-2018-swap", "custom_rule": "others_draw_2"}
    app = make_app(hands, "Y5", options=options, speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hand = str(app.query_one(HandView).render())
        for label in ("G⇄", "Y⊘", "B+2", "Wild", "W★"):
            assert label in hand
        for code in ("GR", "YS", "WCUST"):
            assert code not in screen_text(app)
        await pilot.press("slash", "y", "s", "enter")  # the code still works when typed
        await pilot.pause()
        assert "You played Y⊘" in log_text(app)


@pytest.mark.asyncio
async def test_header_shows_the_rules_and_r_lists_them_all() -> None:
    options = {"deck": "mattel-2018-swap", "custom_rule": "others_draw_2"}
    app = make_app([["R1", "G2"], ["Y4", "Y5"]], "R5", options=options, speed=30)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        header = str(app.query_one("#rulesbar").render())
        assert "W★: every other player draws 2" in header and "r: all rules" in header
        await pilot.press("r")
        await pilot.pause()
        shown = screen_text(app)
        assert "Rules of this game" in shown and "Escape, Enter or r closes this" in shown
        assert "Wild Customizable (W★) in this game: every other player draws 2" in shown
        assert re.search(r"custom_rule\s+others_draw_2", shown)
        await pilot.press("r")
        await pilot.pause()
        assert len(app.screen_stack) == 1
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Escape, Enter or ? closes this" in screen_text(app)
        assert "⊘ skip" in screen_text(app)  # the legend of the symbols
        await pilot.press("question_mark")
        await pilot.pause()
        assert len(app.screen_stack) == 1


@pytest.mark.asyncio
async def test_my_first_uno_header_says_first_out_wins() -> None:
    options = {"deck": "my-first-uno", "scoring": "first-out"}
    app = make_app([["R1", "G2"], ["Y4", "Y5"]], "R5", options=options, speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        top = str(app.query_one("#topbar").render())
        assert "first out wins" in top and "pts" not in top


@pytest.mark.asyncio
async def test_attack_says_launcher_not_draw() -> None:
    app = make_app([["G2", "B3"], ["G4", "Y5"]], "R5", options={"attack_launcher": True})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert "press the launcher (d)" in status_text(app)
        assert "Launcher" in str(app.query_one("#b-draw").render())
        assert "launcher" in str(app.query_one("#pile").render())
        assert "draw" not in str(app.query_one("#pile").render())
        footer = await drawn_footer(pilot, app)
        assert "Launcher" in footer and "Draw" not in footer


@pytest.mark.asyncio
async def test_two_player_reverse_is_told_as_a_skip() -> None:
    app = make_app([["RR", "G2"], ["Y4", "Y5"]], "R5", speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert "Reverse with two players: Ben is skipped, you play again" in log_text(app)
        assert "reversed the direction" not in log_text(app)


@pytest.mark.asyncio
async def test_round_summary_lists_every_hand_and_keeps_the_log_in_view() -> None:
    app = make_app([["R1"], ["Y5"], ["G+2"]], "R5", dealer=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, RoundScreen)
        shown = screen_text(app)
        assert re.search(r"Ben\s+5\s+0\s+Y5", shown)
        assert re.search(r"Cy\s+20\s+0\s+G\+2", shown)
        assert "You went out: +25 points" in shown
        # the dialog repeats what just happened, which it covers
        top = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "Just now:" in top and "You played R1" in top


@pytest.mark.asyncio
async def test_c_with_nobody_to_catch_says_so() -> None:
    app = make_app([["R1", "G2", "B3"], ["R4", "Y5", "B6"]], "R5", speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert "Nobody to catch now" in status_text(app)


def test_bots_forget_uno_at_every_level() -> None:
    from unokit.bots.roster import LEVEL_FORGET

    for level in ("easy", "normal", "hard"):
        bots = make_bots(None, level, 2, seed=1)
        assert all(isinstance(b, ForgetfulBot) for b in bots)
        assert all(b.forget == LEVEL_FORGET[level][0] > 0 for b in bots)  # type: ignore[attr-defined]
    assert LEVEL_FORGET["easy"][0] > LEVEL_FORGET["normal"][0] > LEVEL_FORGET["hard"][0]


@pytest.mark.asyncio
async def test_catch_tag_and_long_status_fit_80_columns() -> None:
    # Ben forgets UNO: his row carries the tag, the status line says more than 80 columns
    app = make_app([["R2", "B3"], ["R4", "Y5"]], "R5", [["R4"]], dealer=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.table.game.vulnerable == 1
        region = app.query_one("#players").region
        rows = screen_text(app).splitlines()[region.y : region.y + 4]
        column = [line[region.x : region.right].rstrip() for line in rows]
        assert column[2].split()[:2] == ["Ben", "1"] and column[2].endswith("catch")
        assert column[3] == ""  # nothing wrapped onto a line of its own
        hint = status_text(app)
        assert len(hint) > 80 and "catch (c)" in hint
        shown = " ".join(screen_text(app).split())
        assert " ".join(hint.split()) in shown  # all of it on screen, over two lines


@pytest.mark.asyncio
async def test_a_big_hand_stays_in_one_row_at_80_columns() -> None:
    twelve = ["R1", "R2", "R3", "R4", "R6", "R7", "R8", "R9", "G1", "G2", "G3", "G4"]
    other = ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8", "Y9", "B1", "B2", "B3", "B4"]
    app = make_app([twelve, other], "R5", speed=30)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hand = app.query_one(HandView)
        assert hand.rows(hand.content_region.width) == 1
        lines = str(hand.render()).splitlines()
        assert len(lines) == 4  # one row: raised line, face, face, base
        # 24 cards need two rows, with a blank line between them
        hand.set_hand([*(parse_card(c) for c in twelve + other)], hand.playable)
        await pilot.pause()
        lines = str(hand.render()).splitlines()
        assert hand.rows(hand.content_region.width) == 2 and len(lines) == 9
        assert lines[4].strip() == ""


@pytest.mark.asyncio
async def test_after_a_typed_move_keys_act_again() -> None:
    app = make_app([["B5", "G2", "B3"], ["R4", "B6", "Y8"]], "R5", [["B6"]], then=["Y9"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", "b", "5", "enter")
        await settle(pilot, app)
        assert "You played B5" in log_text(app)
        assert app.query_one(HandView).has_focus
        await pilot.press("d")  # draws, rather than typing a "d"
        await settle(pilot, app)
        assert "You drew Y9" in status_text(app) or "You drew Y9" in log_text(app)
        assert app.query_one("#entry", Input).value == ""


@pytest.mark.asyncio
async def test_records_are_never_written_over_another_file(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    mine.write_text("an earlier game")
    (tmp_path / "mine-2.json").write_text("another one")
    app = make_app([["R1"], ["Y5"]], "R5", options={"target_score": 5}, record=str(mine))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # out: the game is over and saved
        await settle(pilot, app)
        assert "Record saved to" in screen_text(app) and "mine-3.json" in screen_text(app)
        # saving this game again (quit and save) updates its own file, nothing else
        assert app.record_path() == str(tmp_path / "mine-3.json")
        assert "mine-3.json" in app.save_record(app.record_path())
    assert mine.read_text() == "an earlier game"
    assert (tmp_path / "mine-2.json").read_text() == "another one"
    assert loads((tmp_path / "mine-3.json").read_text()).players == ["You", "Ben"]
    assert app.saved == [str(tmp_path / "mine-3.json")]
    # quitting mid-game with --record mine.json again: the next free name, said first
    app = make_app([["R1", "G2"], ["Y4", "Y5"]], "R5", record=str(mine))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen) and "mine-4.json" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
    assert mine.read_text() == "an earlier game"
    names = sorted(p.name for p in tmp_path.iterdir())  # no temporary files left behind
    assert names == ["mine-2.json", "mine-3.json", "mine-4.json", "mine.json"]


def test_default_record_goes_to_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    app = make_app([["R1"], ["Y5"]], "R5")
    path = Path(app.record_path())
    assert path.parent == tmp_path / "unokit" / "games"
    assert path.name.startswith("unokit-game-") and path.suffix == ".json"
    assert "Record saved" in app.save_record(str(path))
    assert path.exists()
    # the default name is ignored by git, in case a data folder is inside a checkout
    ignore = (Path(__file__).parent.parent / ".gitignore").read_text().split()
    assert "unokit-game-*.json" in ignore


def test_a_forgotten_uno_stays_catchable_as_long_as_on_the_web() -> None:
    """R-UNO-2: the terminal waits ``Timing.catch_window`` before bots move on a
    catchable seat, the same window the web table gives (it had its own 1.2 s)."""
    from unokit.match import Timing

    app = make_app([["G2", "B3"], ["R4", "Y5"]], "R5", [["R4"]], dealer=0, speed=0.5)
    game = app.table.game
    assert app._delay() == 0.5  # nobody catchable: the bots' pace
    app.table.match.bot_step()  # Ben plays R4 and forgets UNO
    assert game.vulnerable == 1
    assert app._delay() == Timing().catch_window
