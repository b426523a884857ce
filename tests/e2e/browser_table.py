"""Helpers for the browser tests: the real server as a subprocess, Chromium, and a
player who acts only through the page (clicks and keys) while the test keeps every
websocket frame the page received, to check what the page was told.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from unokit.engine.game import Game
from unokit.rules import from_preset

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("UNOKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# where the tests' screenshots go: a folder of their own, so that make test leaves the
# checkout as it found it; make screenshots writes them over docs/img for the docs
IMG = ROOT / (os.environ.get("UNOKIT_SHOTS") or "build/screenshots")  # from the checkout
# every Player opened in this process: conftest's autouse fixture checks after each test
# that none of their pages logged a console error or threw while the test ran
OPENED: list[Player] = []


SERVER_START_BOUND = 180.0  # seconds: a last resort (a loaded 2-core start takes a few)


def free_port() -> int:
    """A free port below Linux's ephemeral range (where other programs' bind(0) land)."""
    for _ in range(100):
        port = random.randint(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port")


def _start(
    tmp: Path, env: dict[str, str], port: int | None = None
) -> tuple[subprocess.Popen[bytes], str, Any]:
    """Start ``unokit serve`` on a free port (or ``port`` again, with its database)."""
    port = port or free_port()
    log = open(tmp / f"server-{port}.log", "a")  # noqa: SIM115
    start_of_this_run = log.tell()  # a restart appends to the same log
    proc = subprocess.Popen(
        [sys.executable, "-m", "unokit.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(tmp / f"e2e-{port}.sqlite3")],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=str(ROOT),
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    # Ready means: our server printed its address, /healthz answers, and ours still runs
    # a moment later.  Another program may have taken the port between free_port() and
    # the bind, and answered: ours then exits with "address already in use" once it
    # tries to bind, which is after it prints its address, and the caller tries another
    # port.  (Timing the answer instead failed on an idle machine, where ours is up in
    # half a second; going on after a fixed 20 s without an answer failed on a loaded
    # one, where the pages then met a refused connection.)  The bound is a last resort,
    # far above a loaded start, and says what did not happen.
    printed = f"the table is at {url} ".encode()
    deadline = time.monotonic() + SERVER_START_BOUND
    answered = False
    while proc.poll() is None and not answered:
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            log.flush()
            tail = Path(log.name).read_text(errors="replace")[-2000:]
            raise RuntimeError(
                f"unokit serve on {url} did not answer /healthz within "
                f"{SERVER_START_BOUND:.0f} s; its log ends:\n{tail}"
            )
        if printed in Path(log.name).read_bytes()[start_of_this_run:]:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=5) as r:
                    answered = r.status == 200
            except OSError:
                pass
        if not answered:
            time.sleep(0.05)
    time.sleep(0.5)
    return proc, url, log


class ServerProcess:
    """A running ``unokit serve`` that a test may kill -9 and start again on the same
    port and database (what an operator's restart does)."""

    def __init__(self, tmp: Path, env: dict[str, str]) -> None:
        self.tmp, self.env = tmp, env
        for _ in range(5):
            self.proc, self.url, self.log = _start(tmp, env)
            if self.proc.poll() is None:
                break
            self.log.close()
        else:
            raise RuntimeError(f"the server did not start: {self.log.name}")
        self.port = int(self.url.rsplit(":", 1)[1])

    def kill9(self) -> None:
        self.proc.kill()  # SIGKILL: no shutdown, no flush, nothing
        self.proc.wait()
        self.log.close()

    def restart(self) -> None:
        self.proc, _, self.log = _start(self.tmp, self.env, port=self.port)
        if self.proc.poll() is not None:
            raise RuntimeError(f"the server did not start again: {self.log.name}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def server_env(seed: int | None = None, timing: dict[str, float] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("UNOKIT_SEED", None)
    env.pop("UNOKIT_TIMING", None)
    if seed is not None:
        env["UNOKIT_SEED"] = str(seed)
    if timing is not None:  # the room clock (Timing's fields), e.g. slower bots
        env["UNOKIT_TIMING"] = json.dumps(timing)
    return env


@contextlib.contextmanager
def server_process(
    tmp: Path, seed: int | None = None, timing: dict[str, float] | None = None
) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp, server_env(seed, timing))
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def run_server(
    tmp: Path, seed: int | None = None, timing: dict[str, float] | None = None
) -> Iterator[str]:
    """``unokit serve`` on 127.0.0.1 with a fresh database; yields its base URL."""
    with server_process(tmp, seed, timing) as server:
        yield server.url


def first_deal(
    seed: int, preset: str, options: dict[str, Any], seats: int, events: bool = False
) -> Game:
    """The first round's deal a server started with UNOKIT_SEED=seed makes for its first
    room (seats.randbits: the game seed, then the round seed, from one random.Random)."""
    rng = random.Random(seed)
    game_seed = rng.getrandbits(63)
    names = [f"P{i}" for i in range(seats)]
    game = Game(from_preset(preset, options), names, seed=game_seed, events=events, start=False)
    dealer = game.choose_dealer()
    game.start_round(dealer, seed=rng.getrandbits(48))
    return game


def host_plays_first(g: Game) -> bool:
    """A first deal where the host (seat 0) plays first, on a card: nothing moves on the
    table until she acts (no Wild start for her to name, no bot before her)."""
    return g.current == 0 and g.phase == 0


def find_seed(
    preset: str,
    options: dict[str, Any],
    seats: int,
    good: Callable[[Game], bool],
    events: bool = False,
) -> int:
    for seed in range(1, 5000):
        if good(first_deal(seed, preset, options, seats, events)):
            return seed
    raise AssertionError("no seed gives the deal this test needs")


def launch(pw: Any) -> Browser:
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


# the page asks something of its own before it sends anything (a wild's colour, a
# target, which cards go together): only those prompts have a Cancel (``Player.settle``)
LOCAL_PROMPTS = ("#prompt .btn.ghost",)


# the table's parts a prompt must leave in sight: what a stack, a challenge or a colour
# is answered by (issue 49, M4: the prompts covered them on desktop)
COVERED = """() => {
  const p = document.querySelector('#prompt.active');
  if (!p) return [];
  const a = p.getBoundingClientRect();
  return ['#draw-pile', '#discard', '#color-in-force', '#draw-btn'].filter((sel) => {
    const e = document.querySelector(sel);
    if (!e) return false;
    const b = e.getBoundingClientRect();
    return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
      && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  });
}"""


@dataclass
class Player:
    """One browser context (a person) and what its page received."""

    name: str
    context: BrowserContext
    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None
    errors: list[str] = field(default_factory=list)  # uncaught exceptions in the page
    console: list[str] = field(default_factory=list)  # console errors (CSP refusals too)
    acted_at: tuple[int, int] = (-1, -1)  # the state the last press was made on
    acted_errors: int = 0  # error frames received before it
    pressed: str = ""  # what it pressed

    @staticmethod
    def open(browser: Browser, name: str, **ctx: Any) -> Player:
        context = browser.new_context(accept_downloads=True, **ctx)
        page = context.new_page()
        p = Player(name, context, page)
        OPENED.append(p)
        page.on("websocket", p._watch)
        # the error and where it was thrown (the stack's first lines: which render function)
        page.on(
            "pageerror", lambda e: p.errors.append(" | ".join(str(e.stack or e).splitlines()[:4]))
        )
        page.on("console", lambda m: p.console.append(m.text) if m.type == "error" else None)
        return p

    def _watch(self, ws: WebSocket) -> None:
        def got(payload: str | bytes) -> None:
            with contextlib.suppress(ValueError):
                self.frames.append(json.loads(payload))

        ws.on("framereceived", got)

    # ---- what the page was told ------------------------------------------------------
    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]

    def last_state(self) -> dict[str, Any] | None:
        s = self.states()
        return s[-1] if s else None

    @property
    def version(self) -> int:
        s = self.last_state()
        return -1 if s is None else int(s["version"])

    def view(self) -> dict[str, Any]:
        s = self.last_state()
        assert s is not None, f"{self.name} has no state"
        return s["view"]  # type: ignore[no-any-return]

    def events(self) -> list[dict[str, Any]]:
        seen: dict[int, dict[str, Any]] = {}
        for s in self.states():
            for e in s["events"]:
                seen[e["seq"]] = e
        return [seen[k] for k in sorted(seen)]

    def wait_version_above(self, version: int, timeout: float = 8.0) -> bool:
        deadline = time.monotonic() + timeout
        while self.version <= version:
            if time.monotonic() > deadline:
                return False
            self.page.wait_for_timeout(50)
        return True

    def drawn_version(self) -> tuple[int, int]:
        """(game, version) of the state the page has drawn (``#main``'s data): versions
        start again with each game, so the game comes first."""
        got = self.page.evaluate(
            "() => { const d = document.getElementById('main')?.dataset || {};"
            " return [Number(d.game ?? -1), Number(d.version ?? -1)]; }"
        )
        return int(got[0]), int(got[1])

    def note(self) -> None:
        """Note the state shown now as the one an action is about to be made on."""
        self.acted_at = self.drawn_version()
        self.acted_errors = sum(1 for f in self.frames if f.get("type") == "error")

    def press(self, selector: str) -> None:
        """Click ``selector`` and note the state the page showed at the click, which
        ``settle`` waits to see answered.  Noted here, not when a loop began to read
        the page: a page that drew a new state in between (a bot's move made it this
        player's turn) was taken for the answer to the click, and the next click waited
        30 s on a button the real answer had taken away (CI: Draw, Accept)."""
        self.note()
        self.pressed = selector
        try:
            self.page.click(selector)
        except PlaywrightTimeout as e:
            raise AssertionError(f"{self.name} could not click {selector}: {self.where()}") from e

    def settle(self, before: tuple[int, int] | None = None, bound: float = 60.0) -> str:
        """Wait for the page's answer to what was just clicked, and say which came:
        "state" (it drew a state after ``before``: the server took it, or the game
        moved on), "local" (it asks something of its own first: a wild's colour, a
        target, which cards go together) or "error" (the server refused it).  Only
        then may the page be read again: a loop that went on after a fixed wait
        clicked the old page's buttons while the new state was being drawn (a flake
        hunt run beside CPU burners: the challenge's Accept detached mid-click, and
        the click waited 30 s for a button that was gone).  ``bound`` is a last
        resort, with a message naming what did not happen.  ``before`` defaults to
        the state of the last ``press``."""
        if before is None:
            before, errors = self.acted_at, self.acted_errors
        else:
            errors = sum(1 for f in self.frames if f.get("type") == "error")
        deadline = time.monotonic() + bound
        while self.drawn_version() <= before:
            if any(self.visible(s) for s in LOCAL_PROMPTS):
                return "local"
            if sum(1 for f in self.frames if f.get("type") == "error") > errors:
                return "error"
            assert time.monotonic() < deadline, (
                f"{self.name}'s page drew no state after {before} in {bound:.0f} s "
                f"(frames received up to version {self.version}) after pressing "
                f"{self.pressed!r}: {self.where()}"
            )
            self.page.wait_for_timeout(30)
        return "state"

    def where(self) -> str:
        """What the page shows and was last told, for a failure's message."""
        page = self.page.evaluate(
            """() => ({
                drawn: document.getElementById('main')?.dataset.version,
                myTurn: !!document.querySelector('.table-wrap.my-turn'),
                prompt: document.querySelector('#prompt')?.innerText.slice(0, 200),
                buttons: [...document.querySelectorAll('.my-buttons .btn, #prompt .btn')]
                  .map(b => b.id + (b.getAttribute('aria-disabled') === 'true' ? ' (off)' : '')),
                playable: document.querySelectorAll('.hand .card.playable').length,
                summary: !!document.querySelector('#summary'),
            })"""
        )
        told = [
            (
                f.get("type"),
                f.get("version"),
                f.get("code"),
                (f.get("view") or {}).get("phase"),
                (f.get("view") or {}).get("current"),
                len((f.get("view") or {}).get("legal") or []),
                [e.get("kind") for e in f.get("events") or []],
            )
            for f in self.frames[-16:]
            if f.get("type") != "pong"
        ]
        views = [
            {k: f["view"].get(k) for k in ("legal", "hand", "vulnerable", "top", "color", "phase")}
            for f in self.states()[-2:]
        ]
        return (
            f"page {page}; last frames (type, version, code, phase, current, legal, events) "
            f"{told}; "
            f"the last two views {views}"
        )

    def visible(self, selector: str) -> bool:
        loc = self.page.locator(selector)
        return loc.count() > 0 and loc.first.is_visible()

    def hand_in_dom(self) -> list[str]:
        return self.page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")

    def cards_in_dom(self) -> list[tuple[str, str]]:
        """Every card face in the page and the part of the page it sits in.

        Found and placed in one synchronous script: ``eval_on_selector_all`` queries
        first and runs the function later, and a card the page redrew in between was
        reported as detached, with no parent (seen in CI, a played card's fly-in)."""
        return self.page.evaluate(
            """() => [...document.querySelectorAll('[data-card]')].map(e => {
                const where = e.closest('.hand') ? 'hand' : e.closest('#discard') ? 'discard'
                  : e.closest('.reveal') ? 'reveal' : e.closest('#summary') ? 'summary'
                  : e.closest('.prompt') ? 'prompt' : e.closest('.opponents') ? 'opponents'
                  : 'elsewhere';
                if (where !== 'elsewhere') return [e.dataset.card, where];
                // where exactly, for the failure's message
                const path = [];
                for (let n = e.parentElement; n && n !== document.body; n = n.parentElement)
                  path.push(n.tagName.toLowerCase() + (n.id ? '#' + n.id : '')
                            + (n.className ? '.' + String(n.className).split(' ').join('.') : ''));
                const what = 'parent ' + (e.parentElement ? e.parentElement.tagName : 'none')
                  + ', connected ' + e.isConnected + ', ' + e.outerHTML.slice(0, 160);
                return [e.dataset.card, 'elsewhere (' + path.join(' < ') + '; ' + what + ')'];
            })""",
        )

    def close(self) -> None:
        self.context.close()


def create_room(
    host: Player,
    url: str,
    *,
    preset: str = "classic",
    options: dict[str, Any] | None = None,
    players: int = 3,
    seats: list[str] | None = None,
    timer: int = 0,
    public: bool = False,
) -> str:
    """The host makes a room through the home page's form; returns the code."""
    page = host.page
    page.goto(url + "/")
    page.fill("#name", host.name)
    page.select_option("#preset", preset)
    if options:
        page.click(".house summary")
        for k, v in options.items():
            sel = f"#opt-{k}"
            if isinstance(v, bool):
                page.set_checked(sel, v)
            elif page.locator(sel).evaluate("e => e.tagName") == "SELECT":
                page.select_option(sel, str(v))
            else:
                page.fill(sel, str(v))
    page.select_option("#seats", str(players))
    for i, choice in enumerate(seats or [], start=1):
        page.select_option(f"#seat-{i}", choice)
    if timer:
        page.select_option("#timer", str(timer))
    page.set_checked("#public", public)
    page.click("#create-btn")
    page.wait_for_selector(".waiting")
    host.seat = 0
    return page.url.rstrip("/").rsplit("/", 1)[1]


def join_room(p: Player, url: str, code: str, by_code: bool = False) -> None:
    """Take a seat through the room link, or by typing the code on the home page."""
    if by_code:
        p.page.goto(url + "/")
        p.page.fill("#join-code", code.lower())
        p.page.click(".join button[type=submit]")
        p.page.wait_for_url(f"**/r/{code}")
    else:
        p.page.goto(f"{url}/r/{code}")
    p.page.fill("#join-name", p.name)
    p.page.click("#join-btn")
    p.page.wait_for_selector(".waiting")
    p.page.wait_for_function("() => document.querySelector('.seat-row .tag.you') !== null")
    p.seat = int(p.page.locator(".seat-row:has(.tag.you)").get_attribute("data-seat") or "-1")


def watch_room(p: Player, url: str, code: str) -> None:
    p.page.goto(f"{url}/r/{code}")
    p.page.click("#watch-btn")


def turn(p: Player) -> bool:
    """If it is p's turn, draw (or keep, or accept) through the page; True if it acted."""
    page = p.page
    if p.visible("#keep-btn"):
        p.press("#keep-btn")
    elif p.visible(".prompt .color-pick"):
        p.press(".prompt .cb-R")
    elif p.visible("#accept-btn"):
        p.press("#accept-btn")
    elif page.locator(".table-wrap.my-turn").count() and p.visible("#draw-btn"):
        p.note()
        page.keyboard.press("d")  # the keyboard shortcut
    else:
        return False
    answer = p.settle()
    assert answer != "error", f"{p.name}'s action was refused: {p.frames[-1]}"
    return True


def shot(page: Page, name: str) -> Path:
    IMG.mkdir(parents=True, exist_ok=True)
    path = IMG / name
    page.screenshot(path=str(path), animations="disabled")
    return path


# Every finite CSS animation jumped to its end: axe measures colour contrast with the
# opacity of the moment, so a note fading in (``.flip-note``, 0.6 s from opacity 0) read
# as unreadable when axe ran mid-fade (a chance failure, issue 51); what a player reads
# is the end state.  An endless one (a spinner) cannot finish and is left running.
FINISH_ANIMATIONS = """() => document.getAnimations().forEach((a) => {
    if (a.effect && a.effect.getComputedTiming().endTime !== Infinity) a.finish();
})"""


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is when its
    animations have ended (axe is vendored in axe-playwright-python, a dev dependency:
    nothing is fetched)."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(FINISH_ANIMATIONS)
    out = []
    for v in Axe().run(page).response["violations"]:
        if v["impact"] in ("serious", "critical"):
            where = [n["target"] for n in v["nodes"]][:3]
            out.append(f"{v['id']} ({v['impact']}): {v['help']} at {where}")
    return out


# What makes one table state look unlike another to axe: the game's side, the prompt
# and its buttons, a seat knocked out or out, the summary, whose turn it is, a catch.
STATE_KIND = """() => JSON.stringify([
    (document.querySelector('.table-wrap')?.className || '').split(' ')
      .filter(c => c.startsWith('side-')),
    [...document.querySelectorAll('#prompt button, #prompt .color-pick')]
      .map(b => b.id || b.className.split(' ').find(c => c.endsWith('-pick')) || '')
      .filter(Boolean).sort(),
    !!document.querySelector('.opp.knocked, .opp.out'), !!document.querySelector('#summary'),
    !!document.querySelector('.table-wrap.my-turn'), !!document.querySelector('.btn.catch'),
])"""


def axe_each_state(p: Player, seen: dict[str, list[str]]) -> None:
    """axe on the page if it shows a kind of state not checked yet (``STATE_KIND``), at
    the player's width and on a 390 px phone (issue 49: axe clean on every state of
    every game, desktop and phone, every prompt); what it finds goes in ``seen``."""
    kind = p.page.evaluate(STATE_KIND)
    if kind in seen:
        return
    found = [f"desktop: {v}" for v in serious(p.page)]
    size = p.page.viewport_size
    p.page.set_viewport_size({"width": 390, "height": 844})
    try:
        found += [f"phone: {v}" for v in serious(p.page)]
    finally:
        if size:
            p.page.set_viewport_size(size)
    seen[kind] = found


# The selects narrower than their longest choice, whose text is then cut ("open: a
# friend joi"): each measured against a copy of itself at its own width.
CUT_SELECTS = """sel => [...document.querySelectorAll(sel)].filter((s) => {
    const c = s.cloneNode(true);
    c.removeAttribute("id");
    c.style.cssText = "position: absolute; visibility: hidden; width: auto; flex: none";
    s.parentElement.append(c);
    const need = c.getBoundingClientRect().width;
    c.remove();
    return s.getBoundingClientRect().width < need - 0.5;
}).map((s) => s.id)"""
