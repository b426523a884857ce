"""What a newcomer hit at the browser table (issue 36, items 1-12), and the rules in
force during play (item 14): each test checks what a player relies on, in Chromium.

Two servers for the whole module: a desktop one (its first room's deal is known, so
Ana's first turn has a playable card and one that cannot be played) and a phone one
(its first room's deal gives Ana a Wild on the first turn).  Bots move quickly
(``UNOKIT_TIMING``) so the rounds these tests play end in seconds.
"""

from __future__ import annotations

import io
import itertools
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_table import (
    Player,
    create_room,
    find_seed,
    join_room,
    run_server,
    shot,
    watch_room,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from unokit.cards import WILD, WILD_DRAW4

axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright")

TIMING = {"bot_delay": 0.2, "catch_window": 0.5}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
# the first room on the desktop server: Ana (host), Ben (a friend), a bot; house rules
FIRST_OPTIONS: dict[str, Any] = {"uno_penalty": 4, "stacking": "progressive"}
PHONE_OPTIONS = {"hand_size": 3}
# rounds that end in seconds: one card each, and eight players, so someone goes out soon
QUICK = {"hand_size": 1}
KEY_NAMES = ["Left, Right", "Shift+Left, Shift+Right", "Enter, Space", "D", "K", "P", "U",
             "C", "A", "R, Y, G, B", "1-9", "N", "Esc", "?"]  # fmt: skip


def _desk_deal(g: Any) -> bool:
    """Ana plays first and holds a card she may play and one she may not."""
    if g.current != 0 or g.phase != 0:
        return False
    playable = {a.card for a in g.legal_actions(0) if a.card >= 0}
    return bool(playable) and any(c not in playable for c in g.hands[0])


def _phone_deal(g: Any) -> bool:
    return g.current == 0 and g.phase == 0 and bool({WILD, WILD_DRAW4} & set(g.hands[0]))


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    seed = find_seed("classic", FIRST_OPTIONS, 3, _desk_deal)
    with run_server(tmp_path_factory.mktemp("desk"), seed=seed, timing=TIMING) as url:
        yield url


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    seed = find_seed("classic", PHONE_OPTIONS, 5, _phone_deal)
    with run_server(tmp_path_factory.mktemp("phone"), seed=seed, timing=TIMING) as url:
        yield url


@pytest.fixture(scope="module")
def table(browser: Any, desk: str) -> Iterator[dict[str, Any]]:
    """The desktop server's first room, in play: Ana (host), Ben, a bot, a spectator."""
    ana = Player.open(browser, "Ana", **DESKTOP)
    ben = Player.open(browser, "Ben", **DESKTOP)
    eve = Player.open(browser, "Eve", **DESKTOP)
    try:
        code = create_room(ana, desk, options=FIRST_OPTIONS,
                           players=3, seats=["", "normal"])  # fmt: skip
        join_room(ben, desk, code)
        eve.page.goto(f"{desk}/r/{code}")
        eve.page.wait_for_selector("#watch-btn")
        yield {"url": desk, "code": code, "ana": ana, "ben": ben, "eve": eve, "started": False}
        for p in (ana, ben, eve):
            assert not p.errors, (p.name, p.errors)
            assert not p.console, (p.name, p.console)
    finally:
        for p in (ana, ben, eve):
            p.close()


def started(t: dict[str, Any]) -> dict[str, Any]:
    if not t["started"]:
        t["ana"].page.click("#start-btn")
        t["ana"].page.wait_for_selector(".table-wrap.my-turn")
        t["ben"].page.wait_for_selector(".table .me")
        t["started"] = True
    return t


# ---------------------------------------------------------------- helpers ----------
def box(page: Any, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, selector
    return b  # type: ignore[no-any-return]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    x = a["x"] < b["x"] + b["width"] - 1 and b["x"] < a["x"] + a["width"] - 1
    y = a["y"] < b["y"] + b["height"] - 1 and b["y"] < a["y"] + a["height"] - 1
    return x and y


def alpha(css_color: str) -> float:
    m = re.match(r"rgba?\(([^)]*)\)", css_color)
    assert m, css_color
    parts = [x.strip() for x in m.group(1).replace("/", ",").split(",")]
    return float(parts[3]) if len(parts) > 3 else 1.0


def take_turn(p: Player) -> bool:
    """Act once through the page if it is this player's decision; True if it acted."""
    page = p.page
    if page.locator("#summary").count() or not page.locator(".table-wrap.my-turn").count():
        return False
    before = p.drawn_version()
    if p.visible(".prompt .color-pick"):
        page.click(".prompt .color-pick .cb-B")
    elif p.visible(".target-pick"):
        page.click(".target-pick .btn")
    elif p.visible("#play-drawn-btn"):
        page.click("#play-drawn-btn")
    elif p.visible("#keep-btn"):
        page.click("#keep-btn")
    elif p.visible("#accept-btn"):
        page.click("#accept-btn")
    elif page.locator(".hand .card.playable").count():
        if (
            page.locator(".hand .card").count() == 2
            and page.locator("#uno-btn[aria-pressed]").count()
        ):
            page.click("#uno-btn")
        page.locator(".hand .card.playable").first.click()
    else:
        page.click("#draw-btn")
    if p.visible(".prompt .color-pick"):
        page.click(".prompt .color-pick .cb-B")
    p.settle(before)
    return True


def play_until(players: list[Player], done: Callable[[], bool], limit: float = 30) -> None:
    end = time.monotonic() + limit
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"the game did not get there: {players[0].last_state()}")
        if not any(take_turn(p) for p in players):
            players[0].page.wait_for_timeout(60)


def serious_or(page: Any, also: tuple[str, ...] = ()) -> list[str]:
    out = []
    for v in axe_mod.Axe().run(page).response["violations"]:
        if v["impact"] in ("serious", "critical") or v["id"] in also:
            out.append(f"{v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:3]}")
    return out


# Text a page may show without a font having a symbol: letters, digits, punctuation
TEXT = re.compile(r"[\t\n\x20-\x7e\u00a0\u00b7\u2013\u2014\u2019\u2026]*")


def shown_text(page: Any) -> str:
    return str(
        page.evaluate(
            """() => {
          const out = [document.title];
          const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walk.nextNode()) {
            const n = walk.currentNode, el = n.parentElement;
            if (!el || el.closest('script, style, noscript, .visually-hidden')) continue;
            if (el.getClientRects().length) out.push(n.textContent);
          }
          return out.join(' ');
        }"""
        )
    )


# ---------------------------------------------------------------- item 8 -----------
def test_join_page_shows_house_rules_and_a_full_room_offers_only_watching(
    table: dict[str, Any],
) -> None:
    eve = table["eve"].page
    rules = eve.locator("#join-rules").inner_text()
    assert "UNO penalty 4" in rules and "stacking progressive" in rules, rules
    t = started(table)
    # Ana's browser, another tab: it sat here before, but the game has started
    tab = t["ana"].context.new_page()
    try:
        tab.goto(f"{t['url']}/r/{t['code']}")
        tab.wait_for_selector("#resume-btn")
        hint = tab.locator(".resume .hint").inner_text()
        assert "new seat" not in hint and "watch" in hint, hint
        assert tab.locator("#join-btn").count() == 0 and tab.locator("#watch-btn").count() == 1
    finally:
        tab.close()


# ---------------------------------------------------------------- item 1 -----------
def test_keys_panel_lists_the_key_names_in_the_lobby_and_beside_the_log(
    browser: Any, desk: str
) -> None:
    ana = Player.open(browser, "Ana", **DESKTOP)
    try:
        create_room(ana, desk, players=2, seats=["normal"])
        page = ana.page
        page.click("#help-btn")
        keys = page.locator("#help dt").all_inner_texts()
        assert keys == KEY_NAMES, keys
        assert "[object" not in page.locator("#help").inner_text()
        page.keyboard.press("Escape")
        assert page.locator("#help").count() == 0
        page.click("#start-btn")
        page.wait_for_selector(".table .me")
        page.keyboard.press("?")
        assert page.locator("#help dt").all_inner_texts() == KEY_NAMES
        assert not overlap(box(page, "#help"), box(page, "#log")), "the Keys panel covers the log"
        bg = page.locator("#help").evaluate("e => getComputedStyle(e).backgroundColor")
        assert alpha(bg) == 1.0, bg  # not see-through
        assert not ana.errors and not ana.console
    finally:
        ana.close()


# ---------------------------------------------------------------- items 3, 4, 11 ---
def test_keyboard_focus_is_not_the_playable_edge_and_stays_bright_on_a_dimmed_card(
    table: dict[str, Any],
) -> None:
    page = started(table)["ana"].page
    page.wait_for_selector(".hand .card.dim")
    page.locator(".hand .card").first.focus()
    page.keyboard.press("End")
    page.keyboard.press("Home")

    def look(selector: str) -> dict[str, Any]:
        page.locator(selector).first.evaluate("e => e.focus()")
        return dict(
            page.evaluate(
                """() => { const e = document.activeElement, c = getComputedStyle(e);
              return {visible: e.matches(':focus-visible'), outline: c.outlineStyle,
                      color: c.outlineColor, width: parseFloat(c.outlineWidth),
                      filter: c.filter, shadow: c.boxShadow}; }"""
            )
        )

    dim, ok = look(".hand .card.dim"), look(".hand .card.playable")
    playable_edge = page.locator(".hand .card.playable").first.evaluate(
        "e => { e.blur(); return getComputedStyle(e).boxShadow; }"
    )
    assert "rgb(255, 221, 87)" in playable_edge  # the yellow edge of a playable card
    for f in (dim, ok):
        assert f["visible"] and f["outline"] == "solid" and f["width"] >= 3, f
        assert f["color"] not in playable_edge, (f, playable_edge)  # not the same yellow
        assert f["filter"] == "none", f  # nothing dims the ring itself


def test_symbols_are_drawn_by_the_page_not_by_a_font(table: dict[str, Any]) -> None:
    page = started(table)["ana"].page
    page.wait_for_selector("#direction svg")
    text = shown_text(page)
    odd = sorted({ch for ch in text if not TEXT.fullmatch(ch)})
    assert not odd, f"characters a font must supply: {odd}"
    drawn = page.evaluate(
        """async () => {
          const m = await import('/static/cards.js');
          return ['RS', 'GR', 'WSWAP', 'WSHUF', 'WCUST'].map((c) => {
            const f = m.cardFace(c);
            return [c, !!f.querySelector('.sym svg'), f.querySelector('.sym').textContent];
          });
        }"""
    )
    assert all(svg and not txt for _, svg, txt in drawn), drawn


def test_the_host_tools_come_after_the_hand_in_the_tab_order(table: dict[str, Any]) -> None:
    page = started(table)["ana"].page
    page.wait_for_selector("#host-tools")
    page.focus("#main")
    seen = []
    for _ in range(8):
        page.keyboard.press("Tab")
        el = page.evaluate(
            "() => { const e = document.activeElement; return e.closest('.hand') ? 'card'"
            " : e.classList.contains('to-bot') ? 'to-bot' : (e.id || e.tagName); }"
        )
        seen.append(el)
        if el == "card":
            break
    assert seen[-1] == "card" and len(seen) <= 4, seen  # pile, Draw, UNO, then the hand
    page.click("#host-tools summary")
    b = box(page, ".to-bot")
    assert b["height"] <= 34, b


# ---------------------------------------------------------------- item 2 -----------
def test_axe_finds_no_heading_or_scrolling_problem_once_the_log_scrolls(
    table: dict[str, Any],
) -> None:
    t = started(table)
    page = t["ana"].page
    scrolls = (
        "() => { const l = document.getElementById('log');"
        " return l.scrollHeight > l.clientHeight + 4; }"
    )
    lines = 0
    while not page.evaluate(scrolls) and lines < 36:
        who = t["ana"] if lines % 2 == 0 else t["ben"]
        who.page.fill("#chat-input", f"line {lines}: good luck, have fun")
        who.page.press("#chat-input", "Enter")
        lines += 1
        page.wait_for_function(f"() => document.querySelectorAll('#log li.chat').length >= {lines}")
    assert page.evaluate(scrolls), "the log does not scroll yet"
    assert page.locator("h1").count() == 1
    assert serious_or(page, ("page-has-heading-one", "scrollable-region-focusable")) == []
    shot(page, "table-log.png")


# ---------------------------------------------------------------- item 14 ----------
def test_rules_in_force_are_one_click_away_each_house_rule_a_sentence(
    table: dict[str, Any],
) -> None:
    t = started(table)
    for p in (t["ana"], t["eve"]):
        page = p.page
        if p is t["eve"]:
            page.click("#watch-btn")
            page.wait_for_selector(".table .me.spectator")
        page.click("#rules-btn")
        page.wait_for_selector("#rules")
        house = {li.get_attribute("data-rule"): li.inner_text()
                 for li in page.locator("#house-rules li").all()}  # fmt: skip
        assert set(house) == {"uno_penalty", "stacking"}, house
        assert "draw 4 cards" in house["uno_penalty"]
        assert "penalties add up" in house["stacking"]
        for sentence in house.values():
            assert sentence.endswith(".") and len(sentence.split()) >= 5, sentence
        assert "target score" in page.locator("#rules").inner_text()
        assert not overlap(box(page, "#rules"), box(page, "#log"))
        if p is t["ana"]:
            shot(page, "table-rules.png")
        page.click("#rules-close")
        assert page.locator("#rules").count() == 0


# ---------------------------------------------------------------- item 5 -----------
def test_the_countdown_is_a_persons_own_not_a_bots_nor_a_spectators(
    browser: Any, desk: str
) -> None:
    ana, eve = Player.open(browser, "Ana", **DESKTOP), Player.open(browser, "Eve", **DESKTOP)
    try:
        code = create_room(ana, desk, players=2, seats=["normal"], timer=15)
        watch_room(eve, desk, code)
        eve.page.wait_for_selector(".waiting")
        ana.page.click("#start-btn")
        page = ana.page
        seen = {"bot": 0, "mine": 0}
        end = time.monotonic() + 20
        while not (seen["bot"] and seen["mine"] >= 2):
            assert time.monotonic() < end, seen
            state = page.wait_for_function(
                """() => { const bot = document.querySelector('.opp.turn');
                  const me = document.querySelector('.table-wrap.my-turn');
                  if (!bot && !me) return false;
                  return {bot: !!bot, timer: !!document.getElementById('turn-timer')}; }"""
            ).json_value()
            assert eve.page.locator("#turn-timer").count() == 0  # a spectator cannot act
            if state["bot"]:
                assert not state["timer"], "the countdown runs on the bot's turn"
                seen["bot"] += 1
                page.wait_for_timeout(100)
                continue
            assert state["timer"]
            seen["mine"] += 1
            if seen["mine"] == 1:
                # the server's clock, not the page's: a reload does not start it again
                first = int(page.locator("#turn-timer").inner_text().split()[0])
                page.wait_for_timeout(2200)
                page.reload()
                page.wait_for_selector("#turn-timer")
                again = int(page.locator("#turn-timer").inner_text().split()[0])
                assert again <= first - 2, (first, again)
                assert page.locator("#turn-timer svg").count() == 1  # drawn, not a glyph
            take_turn(ana)
        assert not ana.errors and not eve.errors
    finally:
        ana.close()
        eve.close()


# ---------------------------------------------------------------- item 9 -----------
def test_round_summary_shows_the_winner_went_out_and_counts_down(browser: Any, desk: str) -> None:
    ana = Player.open(browser, "Ana", **DESKTOP)
    try:
        create_room(ana, desk, options=QUICK, players=8, seats=["easy"] * 7)
        ana.page.click("#start-btn")
        play_until([ana], lambda: ana.page.locator("#summary").count() > 0)
        page = ana.page
        winner = page.locator("#summary tr.winner td").first.inner_text()
        assert "went out" in winner, winner
        first = page.locator("#next-round-in").inner_text()
        m = re.fullmatch(r"Next round in (\d+)\s+s", first)
        assert m and 25 <= int(m.group(1)) <= 30, first
        page.wait_for_timeout(1300)
        later = re.fullmatch(
            r"Next round in (\d+)\s+s", page.locator("#next-round-in").inner_text()
        )
        assert later and int(later.group(1)) < int(m.group(1))
        shot(page, "summary-round.png")
        assert serious_or(page) == []
        assert not ana.errors and not ana.console
    finally:
        ana.close()


# ---------------------------------------------------------------- item 15 ----------
def test_scores_by_round_table_and_chart_of_the_totals(browser: Any, desk: str) -> None:
    ana = Player.open(browser, "Ana", **DESKTOP)
    try:
        create_room(ana, desk, options=QUICK, players=8, seats=["easy"] * 7)
        page = ana.page
        page.click("#start-btn")
        for rounds in (1, 2):
            play_until([ana], lambda: page.locator("#summary #by-round").count() > 0)
            body = page.locator("#by-round tbody tr")
            assert body.count() == rounds
            cells = [[int(c) for c in r.locator("td").all_inner_texts()] for r in body.all()]
            totals = [int(c) for c in page.locator("#by-round tfoot td").all_inner_texts()]
            assert [sum(col) for col in zip(*cells, strict=True)] == totals
            scores = page.locator("#summary table.scores:not(.by-round) tbody tr td:last-child")
            assert [int(x) for x in scores.all_inner_texts()] == totals
            lines = page.locator("#totals-chart polyline")
            assert lines.count() == 8  # one per player, from 0 before the first round
            for i in range(8):
                pts = (lines.nth(i).get_attribute("points") or "").split()
                assert len(pts) == rounds + 1
                ys = [float(p.split(",")[1]) for p in pts]
                # higher total, higher point; lines of equal totals are drawn up to
                # 3 px apart each (8 tied at 0: 10.5 px either side), so none hides
                if totals[i] > 0:
                    assert ys[-1] < ys[0] - 10.5 * 2, (ys, totals)
                else:
                    assert abs(ys[-1] - ys[0]) <= 10.5 * 2, (ys, totals)
            assert page.locator("#totals-chart").get_attribute("aria-label")
            if rounds == 1:
                page.keyboard.press("n")
                page.wait_for_selector("#summary", state="detached")
        # eight players' columns fit the summary: nothing hidden in the table's scroll box
        box = page.locator("#summary .rounds-table")
        assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), box.evaluate(
            "e => [e.scrollWidth, e.clientWidth]"
        )
        page.locator("#totals-chart").scroll_into_view_if_needed()
        shot(page, "scores.png")
        assert serious_or(page) == []
        assert not ana.errors and not ana.console
    finally:
        ana.close()


# ---------------------------------------------------------------- items 7, 10 ------
def test_toasts_stay_under_the_bar_and_the_dialog_and_the_lobby_lets_a_player_back(
    browser: Any, desk: str
) -> None:
    ana, ben = Player.open(browser, "Ana", **DESKTOP), Player.open(browser, "Ben", **DESKTOP)
    try:
        code = create_room(ana, desk, options={**QUICK, "target_score": 1},
                           players=8, seats=["", *["easy"] * 6])  # fmt: skip
        join_room(ben, desk, code)
        page = ana.page

        def toast_clear_of(selector: str) -> None:
            page.click("#copy-link")
            page.wait_for_selector("#toast.show")
            page.wait_for_timeout(300)  # it slides in
            t, other = box(page, "#toast"), box(page, selector)
            if overlap(t, other):  # then the other is on top
                x = max(t["x"], other["x"]) + 4
                y = max(t["y"], other["y"]) + 4
                top = page.evaluate(
                    f"() => document.elementFromPoint({x}, {y}).closest('#toast') === null"
                )
                assert top, f"a toast covers {selector}"

        toast_clear_of(".topbar")  # (in the lobby: a round of one card can end at once)
        assert (
            box(page, "#toast")["y"] >= box(page, ".topbar")["y"] + box(page, ".topbar")["height"]
        )
        page.on("dialog", lambda d: d.accept())
        page.click("#start-btn")
        # Ben leaves for good: the host gives his seat to a bot (a game of one card each
        # may end before the host gets there: then Play again, and again)
        game = 1
        while True:
            page.wait_for_selector("#host-tools, #summary #rematch-btn")
            end_and_toast = page.evaluate(
                """() => { const e = document.getElementById('end-btn');
                  const t = document.getElementById('toast');
                  return e && [e.getBoundingClientRect().toJSON(),
                               t.getBoundingClientRect().toJSON()]; }"""
            )
            if end_and_toast:
                b, t = ({"x": r["x"], "y": r["y"], "width": r["width"], "height": r["height"]}
                        for r in end_and_toast)  # fmt: skip
                assert not overlap(t, b), "the toast covers End game"
            try:
                if not page.locator("#host-tools[open]").count():
                    page.click("#host-tools summary", timeout=1500)
                page.click(".to-bot", timeout=1500)
                break
            except PlaywrightTimeout:
                assert game < 6, "every game ended before the host could act"
                page.click("#summary #rematch-btn")
                game += 1
        ben.page.wait_for_selector("#watch-btn")
        ben.page.click("#watch-btn")
        play_until([ana], lambda: page.locator("#summary #lobby-btn").count() > 0)
        toast_clear_of("#summary")
        page.click("#lobby-btn")
        page.wait_for_selector(".waiting")
        # the finished game's record is still one click away
        assert (page.locator("#last-game a[download]").get_attribute("href") or "").endswith(
            f"game={game}"
        )
        ben.page.wait_for_selector(".waiting")
        page.click(f".seat-row[data-seat='{ben.seat}'] button:has-text('Remove')")
        ben.page.wait_for_selector("#lobby-join")
        ben.page.fill("#lobby-name", "Ben")
        ben.page.click("#lobby-join-btn")
        page.wait_for_selector(f".seat-row[data-seat='{ben.seat}'] .who:text('Ben')")
        page.click("#start-btn")
        ben.page.wait_for_selector(".table .me .me-name:text('Ben')")
        assert ben.view()["hand"], "Ben is back in the game with a hand"
        assert not ana.errors and not ben.errors
    finally:
        ana.close()
        ben.close()


# ---------------------------------------------------------------- item 12 ----------
def test_home_form_background_seat_labels_and_the_yellow_letter(browser: Any, desk: str) -> None:
    from PIL import Image

    ana = Player.open(browser, "Ana", **DESKTOP)
    try:
        page = ana.page
        page.goto(desk + "/")
        page.click(".house summary")
        page.select_option("#seats", "10")
        # the felt goes on under the whole form: no edge where the window ended
        img = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
        assert img.height > 900
        pixels = img.load()
        assert pixels is not None
        for x in (6, 1200, 1270):  # beside the panels: the page's own background
            column = [pixels[x, y] for y in range(40, img.height)]
            jump = max(max(abs(a - b) for a, b in zip(p, q, strict=True))  # type: ignore[arg-type]
                       for p, q in itertools.pairwise(column))  # fmt: skip
            assert jump <= 2, f"at x={x} the background steps by {jump} from one row to the next"
        # every seat's label stands clear of the selects beside it
        rows = page.eval_on_selector_all(
            ".seat-choice",
            "els => els.map(e => [e.querySelector('label').getBoundingClientRect().toJSON(),"
            " e.querySelector('select').getBoundingClientRect().toJSON()])",
        )
        panel = box(page, ".panel.create")
        for label, select in rows:
            assert select["left"] - label["right"] >= 6, (label, select)
            assert select["right"] <= panel["x"] + panel["width"] - 8
        selects = [s for _, s in rows]
        for label, _ in rows:
            for s in selects:
                if abs(s["top"] - label["top"]) < 20 and s["right"] <= label["left"]:
                    assert label["left"] - s["right"] >= 12, (label, s)
        # the colour letter of a yellow card reads (WCAG AA: 4.5)
        ratio = page.evaluate(
            """async () => {
              const m = await import('/static/cards.js');
              const f = m.cardFace('Y7'); document.getElementById('main').append(f);
              const lin = (x) => { x /= 255;
                return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
              const lum = (c) => { const v = c.match(/[\\d.]+/g).map(Number);
                const l = v.slice(0, 3).map(lin);
                const L = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
                return [L, v.length > 3 ? v[3] : 1, v]; };
              const letter = f.querySelector('.cletter'), inner = f.querySelector('.card-inner');
              const [, a, bg] = lum(getComputedStyle(letter).backgroundColor);
              const under = lum(getComputedStyle(inner).backgroundColor)[2];
              const mix = `rgb(${[0, 1, 2].map((i) => bg[i] * a + under[i] * (1 - a)).join(',')})`;
              const L1 = lum(getComputedStyle(letter).color)[0], L2 = lum(mix)[0];
              f.remove();
              return (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
            }"""
        )
        assert ratio >= 4.5, ratio
        assert not ana.errors and not ana.console
    finally:
        ana.close()


# ---------------------------------------------------------------- item 6 -----------
def test_phone_banner_picker_and_opponents_fit_and_follow_the_turn(
    browser: Any, phone: str
) -> None:
    ana = Player.open(browser, "Ana", **PHONE)
    try:
        page = ana.page
        create_room(ana, phone, options=PHONE_OPTIONS, players=5, seats=["normal"] * 4, timer=15)
        page.locator("#start-btn").tap()
        page.wait_for_selector(".table-wrap.my-turn #turn-timer")
        # the countdown stays whole on one line
        assert page.locator("#turn-timer").evaluate("e => e.getClientRects().length") == 1
        t, banner = box(page, "#turn-timer"), box(page, "#turn")
        assert t["y"] + t["height"] <= banner["y"] + banner["height"]
        # four opponents fit in 390 px
        opps = page.eval_on_selector_all(
            ".opp", "els => els.map(e => e.getBoundingClientRect().toJSON())"
        )
        assert len(opps) == 4 and all(o["left"] >= 0 and o["right"] <= 390 for o in opps), opps
        shot(page, "table-phone-390.png")
        assert serious_or(page) == []
        page.locator('.hand .card.playable[data-card^="W"]').first.tap()
        page.wait_for_selector(".prompt .color-pick")
        assert not overlap(box(page, ".prompt.active"), box(page, "#turn")), (
            "the picker covers the banner"
        )
        bg = page.locator(".prompt.active").evaluate("e => getComputedStyle(e).backgroundColor")
        assert alpha(bg) == 1.0, bg
        shot(page, "colour-phone-390.png")
        page.locator(".colorbtn.cb-G").tap()
        # six opponents do not fit: the row scrolls to whoever is to play
        page.goto(phone + "/")
        create_room(ana, phone, players=7, seats=["normal"] * 6)
        page.locator("#start-btn").tap()
        far = 0
        end = time.monotonic() + 12
        while far < 2 and time.monotonic() < end:
            if take_turn(ana):
                continue
            got = page.evaluate(
                """() => { const row = document.querySelector('.opponents-ring');
                  const t = row && row.querySelector('.opp.turn');
                  if (!t) return null;
                  const r = row.getBoundingClientRect(), b = t.getBoundingClientRect();
                  return {inside: b.left >= r.left - 1 && b.right <= r.right + 1,
                          far: b.right > 390 || row.scrollLeft > 0}; }"""
            )
            if got:
                assert got["inside"], "the player to play is scrolled out of view"
                far += got["far"]
            page.wait_for_timeout(80)
        assert far >= 2, "no far opponent came to play"
        assert not ana.errors and not ana.console
    finally:
        ana.close()
