"""House rules in the page: under seven-zero (the party preset) a 7 asks with whom to
swap hands, and the swap happens.  UNOKIT_SEED makes the first deal one where Ana
plays first and may play a 7."""

from __future__ import annotations

from typing import Any

from browser_table import (
    Player,
    axe_each_state,
    create_room,
    find_seed,
    join_room,
    run_server,
    shot,
)

from unokit.cards import CARD_CODE


def seven_first(g: Any) -> bool:
    return g.current == 0 and g.phase == 0 and any(a.target >= 0 for a in g.legal_actions(0))


def test_seven_zero_asks_whom_to_swap_with(browser: Any, tmp_path: Any) -> None:
    seed = find_seed("party", {}, 3, seven_first)
    with run_server(tmp_path, seed=seed) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        try:
            page = ana.page
            create_room(ana, url, preset="party", players=3, seats=["normal", "normal"])
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap.my-turn")
            sevens = [a["play"] for a in ana.view()["legal"] if a.get("target") is not None]
            assert sevens, ana.view()["legal"]
            code = sevens[0]
            assert code in CARD_CODE and code[1:] == "7"
            before = ana.view()["hand"]
            page.locator(f'.hand .card.playable[data-card="{code}"]').first.click()
            page.wait_for_selector(".target-pick")
            shot(page, "table-swap.png")
            axed: dict[str, list[str]] = {}
            axe_each_state(ana, axed)  # every prompt: axe at 1280 and 390 px (issue 49)
            assert not any(axed.values()), axed
            targets = page.locator(".target-pick .btn")
            assert targets.count() == 2
            page.keyboard.press("2")  # the second player, by its number
            page.wait_for_function(
                "() => [...document.querySelectorAll('#log li')]"
                ".some(li => li.textContent.includes('swapping hands with'))"
            )
            play = next(e for e in ana.events() if e["kind"] == "play" and e["seat"] == 0)
            assert play["cards"] == [code] and play["target"] in (1, 2)
            assert sorted(ana.view()["hand"]) != sorted(before)  # Ana has the other hand
            assert not ana.errors
        finally:
            ana.close()


def draw_two_first(g: Any) -> bool:
    plays = [a for a in g.legal_actions(0) if a.kind == 0]
    return (
        g.current == 0
        and g.phase == 0
        and g.direction == 1
        and any(CARD_CODE[a.card].endswith("+2") for a in plays)
    )


def test_stacking_offers_the_answer_or_accept(browser: Any, tmp_path: Any) -> None:
    """Progressive stacking (party): a Draw Two on a person asks them to answer it with
    a raised card or accept the total, and Accept draws it."""
    seed = find_seed("party", {}, 3, draw_two_first)
    with run_server(tmp_path, seed=seed) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        max_ = Player.open(browser, "Max", viewport={"width": 1280, "height": 800})
        try:
            code = create_room(ana, url, preset="party", players=3, seats=["", "normal"])
            join_room(max_, url, code)
            ana.page.click("#start-btn")
            ana.page.wait_for_selector(".table-wrap.my-turn")
            ana.page.locator('.hand .card.playable[data-card$="+2"]').first.click()
            max_.page.wait_for_selector("#accept-btn")
            assert "answer" in max_.page.locator("#turn").inner_text()
            assert max_.view()["phase"] == "answer" and max_.view()["pending_total"] == 2
            shot(max_.page, "table-stacking.png")
            axed: dict[str, list[str]] = {}
            axe_each_state(max_, axed)  # every prompt: axe at 1280 and 390 px (issue 49)
            assert not any(axed.values()), axed
            raised = max_.page.locator(".hand .card.playable").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            assert all(c.endswith("+2") or c == "W+4" for c in raised), raised
            before = len(max_.view()["hand"])
            max_.page.click("#accept-btn")
            max_.page.wait_for_function(
                "() => [...document.querySelectorAll('#log li')]"
                ".some(li => li.textContent.includes('You drew'))"
            )
            assert len(max_.view()["hand"]) >= before + 2 or max_.view()["phase"] != "answer"
            assert not ana.errors and not max_.errors
        finally:
            ana.close()
            max_.close()


def multi_first(g: Any) -> bool:
    """Ana plays first and holds two cards of one number that she may play together
    (not Wild Draw Fours: the plain multi-play path, no colour to pick)."""
    return (
        g.current == 0
        and g.phase == 0
        and any(len(a.to_wire().get("cards", [])) == 2 for a in g.legal_actions(0))
    )


def test_multi_play_offers_the_cards_together(browser: Any, tmp_path: Any) -> None:
    """Under multi-play (seed-001-house) a card that has a twin in the hand asks whether
    to play them together; the chosen pair leaves the hand in one move."""
    seed = find_seed("seed-001-house", {}, 3, multi_first)
    with run_server(tmp_path, seed=seed) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        try:
            page = ana.page
            create_room(ana, url, preset="seed-001-house", players=3, seats=["normal", "normal"])
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap.my-turn")
            pairs = [a["cards"] for a in ana.view()["legal"] if len(a.get("cards", [])) == 2]
            assert pairs, ana.view()["legal"]
            first, second = pairs[0]
            before = ana.view()["hand"]
            page.locator(f'.hand .card.playable[data-card="{first}"]').first.click()
            page.wait_for_selector(".prompt .choice-row")
            options = page.locator(".prompt .choice-row .btn")
            assert options.count() >= 2  # the card alone, or with its twin(s)
            shot(page, "table-multi.png")
            axed: dict[str, list[str]] = {}
            axe_each_state(ana, axed)  # every prompt: axe at 1280 and 390 px (issue 49)
            assert not any(axed.values()), axed
            page.locator(f'.prompt .choice-row .btn[data-key="seq:{first}/{second}"]').click()
            page.wait_for_function(
                "n => document.querySelectorAll('.hand .card').length === n", arg=len(before) - 2
            )
            play = next(e for e in ana.events() if e["kind"] == "play" and e["seat"] == 0)
            assert play["cards"] == [first, second]
            assert len(ana.view()["hand"]) == len(before) - 2
            assert not ana.errors
        finally:
            ana.close()


def jump_in_first(g: Any) -> bool:
    """A bot is to play the first turn, and Ana holds the very card on the pile (a
    number other than 7 and 0, so no seven-zero effect): she may jump in."""
    top = CARD_CODE[g.discard[-1]]
    return (
        g.current != 0
        and g.phase == 0
        and top[1:].isdigit()
        and top[1:] not in ("7", "0")
        and any(a.kind == 0 for a in g.legal_actions(0))
    )


def test_jump_in_out_of_turn(browser: Any, tmp_path: Any) -> None:
    """Under jump-in (party) the page says so when Ana holds the card on the pile on a
    bot's turn; clicking it plays out of turn and play goes on from her."""
    seed = find_seed("party", {}, 3, jump_in_first)
    # bots wait 20 s before their move: the chance to jump in stays open for the test
    with run_server(tmp_path, seed=seed, timing={"bot_delay": 20.0}) as url:
        ana = Player.open(browser, "Ana", viewport={"width": 1280, "height": 800})
        try:
            page = ana.page
            create_room(ana, url, preset="party", players=3, seats=["normal", "normal"])
            page.click("#start-btn")
            page.wait_for_selector(".hand .card.playable")
            view = ana.view()
            assert view["current"] != 0
            top = view["discard"][-1]
            assert "Jump in" in page.locator("#turn").inner_text()
            shot(page, "table-jump-in.png")
            axed: dict[str, list[str]] = {}
            axe_each_state(ana, axed)  # every prompt: axe at 1280 and 390 px (issue 49)
            assert not any(axed.values()), axed
            before = ana.version
            page.locator(f'.hand .card.playable[data-card="{top}"]').first.click()
            assert ana.wait_version_above(before)
            play = next(e for e in ana.events() if e["kind"] == "play" and e["seat"] == 0)
            assert play["cards"] == [top]
            assert ana.view()["current"] == 1  # play goes on from the jumper, clockwise
            assert not ana.errors
        finally:
            ana.close()
