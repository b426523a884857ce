"""UNO Flip! and UNO Show 'Em No Mercy at the browser table (issue 38 item 4).

A person (Ana) and two bots play through the page, by clicks only, to the end of a
round: in Flip her first card is a Flip, so the flip is announced over the piles and the
dark side is drawn (dark faces in her hand, the other faces of the bots' cards and of
the draw pile's top, never her own other faces); in No Mercy her first card is a 7,
which asks with whom to swap hands.  UNOKIT_SEED makes those first deals; the server
runs with quick bots (UNOKIT_TIMING).
"""

from __future__ import annotations

import time
from typing import Any

from browser_table import (
    Player,
    axe_each_state,
    create_room,
    find_seed,
    run_server,
    serious,
    shot,
)

from unokit.engine import PLAY
from unokit.engine.modern.base import ModernGame

QUICK = {"bot_delay": 0.05, "catch_window": 0.3, "next_round": 60.0}
DARK = set("PTOV")
# the opponents' cards in UNO Flip! whose faces another card covers (more than 2 px)
OVERLAPS = """() => {
  const out = [];
  for (const fan of document.querySelectorAll('.opp .other-fan')) {
    const r = [...fan.querySelectorAll('.card')].map((c) => c.getBoundingClientRect());
    for (let i = 0; i < r.length; i++)
      for (let j = i + 1; j < r.length; j++) {
        const w = Math.min(r[i].right, r[j].right) - Math.max(r[i].left, r[j].left);
        const h = Math.min(r[i].bottom, r[j].bottom) - Math.max(r[i].top, r[j].top);
        if (w > 2 && h > 2) out.push([i, j, Math.round(w)]);
      }
  }
  return out;
}"""


def _first_play_ends_with(suffix: str, target: bool = False) -> Any:
    def good(g: Any) -> bool:
        assert isinstance(g, ModernGame)
        if g.current != 0 or g.phase != 0:
            return False
        return any(
            a.kind == PLAY
            and g.face_code(a.card).endswith(suffix)
            and (a.target >= 0 if target else True)
            for a in g.legal_actions(0)
        )

    return good


def play_through(
    p: Player, limit: float = 240.0, prefer: str = "", axed: dict[str, list[str]] | None = None
) -> dict[str, int]:
    """Ana plays whatever the page offers (clicks only) until the round's summary; with
    ``axed``, axe checks each kind of state she meets (``axe_each_state``)."""
    page = p.page
    seen = {"play": 0, "draw": 0, "color": 0, "target": 0, "accept": 0, "challenge": 0}

    end = time.monotonic() + limit
    while not p.visible("#summary"):
        assert time.monotonic() < end, "the round did not end"
        assert not p.errors, p.errors
        if axed is not None:
            axe_each_state(p, axed)
        if p.visible(".prompt .color-pick"):
            p.press(".prompt .color-pick .colorbtn >> nth=0")
            seen["color"] += 1
        elif p.visible(".target-pick"):
            p.press(".target-pick .btn >> nth=0")
            seen["target"] += 1
        elif p.visible(".prompt .choice-row .btn[data-key^='seq:']"):
            p.press(".prompt .choice-row .btn >> nth=0")
        elif p.visible("#play-drawn-btn"):
            p.press("#play-drawn-btn")
            seen["play"] += 1
        elif p.visible("#keep-btn"):
            p.press("#keep-btn")
        elif p.visible("#challenge-btn"):
            p.press("#accept-btn")
            seen["challenge"] += 1
        elif page.locator(".table-wrap.my-turn").count():
            v = p.view()
            playable = page.locator(".hand .card.playable")
            two = len(v["hand"] or []) == 2 and playable.count()
            if two and page.locator("#uno-btn[aria-pressed='false']").count():
                p.press("#uno-btn")  # armed: the call goes with the play
            if prefer and page.locator(f".hand .card.playable[data-card$='{prefer}']").count():
                p.press(f".hand .card.playable[data-card$='{prefer}'] >> nth=0")
                seen["play"] += 1
            elif playable.count():
                p.press(".hand .card.playable >> nth=0")
                seen["play"] += 1
            elif p.visible("#accept-btn"):
                p.press("#accept-btn")
                seen["accept"] += 1
            elif page.locator("#draw-btn:not([aria-disabled='true'])").count():
                p.press("#draw-btn")
                seen["draw"] += 1
            else:
                page.wait_for_timeout(50)
                continue
        else:
            page.wait_for_timeout(50)
            continue
        p.settle()
    return seen


def test_uno_flip_through_the_page(browser: Any, tmp_path: Any) -> None:
    seed = find_seed("flip", {}, 3, _first_play_ends_with("F"))
    with run_server(tmp_path, seed=seed, timing=QUICK) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 860})
        try:
            page = ana.page
            create_room(ana, url, preset="flip", players=3, seats=["easy", "easy"])
            assert "Rules: Flip" in page.locator("#lobby-rules").inner_text()  # named, not an id
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap.my-turn")
            v = ana.view()
            assert v["game"] == "flip" and v["side"] == "light"
            assert page.locator("#side-up").inner_text().lower().startswith("light side")
            # the bots' cards and the draw pile's top show their dark faces to Ana
            others = page.locator(".opp .other-fan .card.other-face")
            assert others.count() == sum(len(o) for o in v["others"]) > 0
            assert all(c[0] in DARK or c == "W+C" or c == "W" for o in v["others"] for c in o)
            assert page.locator("#draw-pile .card.other-face.dark").count() == 1
            assert v["others"][0] == []  # never her own other faces
            # each of those faces can be read: no card covers another (issue 49, M2)
            assert not page.evaluate(OVERLAPS), page.evaluate(OVERLAPS)
            shot(page, "table-flip.png")
            flips = page.locator(".hand .card.playable[data-card$='F']")
            flips.first.click()
            if ana.visible(".prompt .color-pick"):  # a wild came on top: Ana names it
                page.locator(".prompt .color-pick .colorbtn").first.click()
            page.wait_for_selector("#flip-note")
            assert "dark side is up" in page.locator("#flip-note").inner_text()
            page.wait_for_function(
                "() => [...document.querySelectorAll('#log li')]"
                ".some(li => li.textContent.startsWith('Flip! Every card turns over'))"
            )
            assert page.locator(".table-wrap.side-dark").count() == 1
            v = ana.view()
            assert v["side"] == "dark"
            hand = page.locator(".hand .card")
            assert hand.count() == len(v["hand"]) > 0
            assert hand.evaluate_all("els => els.every(e => e.classList.contains('dark'))")
            assert all(c[0] in DARK or c in ("W", "W+C") for c in v["hand"])
            # the opponents' cards now show their light faces, the other side
            assert all(c[0] in "RYGB" or c in ("W", "W+2") for o in v["others"] for c in o)
            shot(page, "table-flip-dark.png")
            assert not serious(page), serious(page)  # the dark side reads as well
            # on a 390 px phone: the dark side fits, nothing scrolls sideways
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(200)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert not page.evaluate(OVERLAPS), page.evaluate(OVERLAPS)  # on a phone too
            shot(page, "table-flip-phone-390.png")
            page.set_viewport_size({"width": 1280, "height": 860})
            axed: dict[str, list[str]] = {}
            seen = play_through(ana, axed=axed)
            axe_each_state(ana, axed)  # the summary
            assert len(axed) >= 3 and not any(axed.values()), {k: v for k, v in axed.items() if v}
            st = ana.last_state()
            assert st is not None and st["view"]["phase"] in ("round_over", "game_over")
            assert st["hands"] and len(st["points"]) == 3
            assert seen["play"] >= 1
            shot(page, "table-flip-summary.png")
            flipped = [e for e in ana.events() if e["kind"] == "flip"]
            assert flipped and flipped[0]["seat"] == 0 and flipped[0]["side"] == 1
            # no frame Ana received holds the other faces of her own cards
            for s in ana.states():
                assert s["view"]["others"][0] == []
            assert not ana.errors
            assert not [c for c in ana.console if "Content Security Policy" in c]
        finally:
            ana.close()


def test_no_mercy_through_the_page(browser: Any, tmp_path: Any) -> None:
    seed = find_seed("no-mercy", {}, 3, _first_play_ends_with("7", target=True))
    with run_server(tmp_path, seed=seed, timing=QUICK) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 860})
        try:
            page = ana.page
            page.goto(url + "/")
            page.select_option("#preset", "no-mercy")
            # No Mercy seats 2 to 6, and takes its own options, not classic stacking
            assert page.locator("#seats option[value='7']").is_disabled()
            assert page.locator("#opt-mercy_limit").count() == 1
            assert not page.locator("#opt-stacking").is_visible()
            page.click(".house summary")
            assert page.locator("#opt-mercy_limit").is_visible()
            create_room(ana, url, preset="no-mercy", players=3, seats=["easy", "easy"])
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap.my-turn")
            assert page.locator("#draw-btn").inner_text().startswith("Draw until playable")
            v = ana.view()
            assert v["game"] == "no-mercy" and v["side"] is None
            assert page.locator("#side-up").count() == 0
            sevens = page.locator(".hand .card.playable[data-card$='7']")
            sevens.first.click()
            page.wait_for_selector(".target-pick")
            assert "Swap hands with whom?" in page.locator("#prompt").inner_text()
            shot(page, "table-nomercy-swap.png")
            axed: dict[str, list[str]] = {}
            axe_each_state(ana, axed)  # whom to swap with: a prompt of its own
            page.keyboard.press("1")
            page.wait_for_function(
                "() => [...document.querySelectorAll('#log li')]"
                ".some(li => li.textContent.includes('swapping hands with'))"
            )
            shot(page, "table-nomercy.png")
            # on a 390 px phone: nothing scrolls sideways (issue 49: every game on a phone)
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(200)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            shot(page, "table-nomercy-phone-390.png")
            page.set_viewport_size({"width": 1280, "height": 860})
            play_through(ana, limit=300, axed=axed)
            axe_each_state(ana, axed)  # the summary
            assert len(axed) >= 3 and not any(axed.values()), {k: v for k, v in axed.items() if v}
            st = ana.last_state()
            assert st is not None and st["view"]["phase"] in ("round_over", "game_over")
            shot(page, "table-nomercy-summary.png")
            kinds = {e["kind"] for e in ana.events()}
            assert "swap" in kinds or "hand" in kinds
            if "knockout" in kinds:  # the Mercy rule, when luck brings it, is said
                assert page.locator("#log li", has_text="knocked out by the Mercy rule").count()
            assert not ana.errors
        finally:
            ana.close()
