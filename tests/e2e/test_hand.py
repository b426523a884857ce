"""A hand the player arranges (issue 49 item 1), in the browser: sorted by colour, by
number or in the order its cards came (the newest last; the choice remembered in this
browser), and any card moved by dragging it or with Shift+Left/Right from the keyboard,
said to a screen reader.

The seed makes a first deal where Ana plays first: nothing moves on the table while
her hand is arranged, so the server's view of her hand is the page's."""

from __future__ import annotations

from typing import Any

from browser_table import Player, create_room, find_seed, host_plays_first, run_server, serious

QUICK = {"bot_delay": 0.05, "catch_window": 0.3, "next_round": 60.0}
COLOURS = "RYGB"


def shown(p: Player) -> list[str]:
    return p.hand_in_dom()


def colour_rank(code: str) -> int:
    return COLOURS.index(code[0]) if code[0] in COLOURS else len(COLOURS)


def test_the_hand_sorts_three_ways_and_moves_by_drag_and_by_keys(
    browser: Any, tmp_path: Any
) -> None:
    seed = find_seed("classic", {}, 2, host_plays_first)
    with run_server(tmp_path, seed=seed, timing=QUICK) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 860})
        try:
            page = ana.page
            create_room(ana, url, players=2, seats=["easy"])
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap.my-turn")
            dealt = ana.view()["hand"]
            assert sorted(shown(ana)) == sorted(dealt) and len(dealt) == 7
            # by colour first (the default): red, yellow, green, blue, then the wilds
            assert page.locator("#sort-btn").inner_text() == "Sort: colour"
            ranks = [colour_rank(c) for c in shown(ana)]
            assert ranks == sorted(ranks), shown(ana)
            page.click("#sort-btn")
            assert page.locator("#sort-btn").inner_text() == "Sort: number"
            page.click("#sort-btn")
            assert page.locator("#sort-btn").inner_text() == "Sort: newest last"
            assert shown(ana) == dealt  # the deal as the server sends it
            # remembered in this browser
            page.reload()
            page.wait_for_selector(".table-wrap.my-turn")
            assert page.locator("#sort-btn").inner_text() == "Sort: newest last"
            assert shown(ana) == dealt

            # Shift+Right moves the focused card one place on, and says so
            page.locator(".hand .card").first.focus()
            page.keyboard.press("Shift+ArrowRight")
            moved = [dealt[1], dealt[0], *dealt[2:]]
            assert shown(ana) == moved
            assert page.evaluate("() => document.activeElement.dataset.card") == dealt[0]
            said = page.locator("#announce").inner_text()
            assert said.endswith(f"moved to place 2 of {len(dealt)}"), said
            page.keyboard.press("?")  # a redraw for another reason: the move stays said
            page.keyboard.press("Escape")
            assert page.locator("#announce").inner_text() == said
            page.locator(f".hand .card[data-card='{dealt[0]}']").first.focus()
            assert page.locator("#sort-btn").inner_text() == "Sort: my order"
            page.keyboard.press("Shift+ArrowLeft")
            assert shown(ana) == dealt
            page.keyboard.press("Shift+ArrowLeft")  # at the left end: nothing moves
            assert shown(ana) == dealt

            # a card dragged onto the last one takes its place
            page.drag_and_drop(".hand .card >> nth=0", ".hand .card >> nth=-1")
            assert shown(ana) == [*dealt[1:], dealt[0]]
            assert not serious(page)
            # a file dropped on the hand moves nothing (found by review: it moved the
            # first card)
            page.evaluate(
                """() => {
                    const dt = new DataTransfer();
                    dt.items.add(new File(["x"], "x.txt", { type: "text/plain" }));
                    const card = document.querySelectorAll('.hand .card')[3];
                    for (const type of ['dragover', 'drop']) {
                        const e = new DragEvent(type, { dataTransfer: dt, bubbles: true });
                        card.dispatchEvent(e);
                    }
                }"""
            )
            assert shown(ana) == [*dealt[1:], dealt[0]]

            # played from my order: the rest keep it
            playable = page.locator(".hand .card.playable")
            if playable.count():
                before = ana.drawn_version()
                code = playable.first.get_attribute("data-card")
                playable.first.click()
                if ana.settle(before) == "local":  # a Wild: its colour first
                    page.locator(".prompt .color-pick .colorbtn").first.click()
                    assert ana.settle(before) == "state"
                rest = [*dealt[1:], dealt[0]]
                rest.remove(code)
                # (a card the bot makes her draw since comes after them)
                assert shown(ana)[: len(rest)] == rest, (shown(ana), rest)
            # Sort goes back to the way chosen before: the cards in the order they came,
            # the newest last
            page.click("#sort-btn")
            assert page.locator("#sort-btn").inner_text() == "Sort: newest last"
            held = shown(ana)
            page.wait_for_selector(".table-wrap.my-turn")  # her turn again: she draws
            held = shown(ana)
            before = ana.view()["hand"]
            ana.press("#draw-btn")
            ana.settle()
            new = list(ana.view()["hand"])
            for code in before:
                new.remove(code)
            assert new and shown(ana)[: len(held)] == held, (shown(ana), held)
            assert sorted(shown(ana)[len(held) :]) == sorted(new)
        finally:
            ana.close()
