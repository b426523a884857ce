"""Languages (issue 36 item 18): the page speaks the browser's language (German for a
de-DE browser), the switch in the top bar changes it at once and for the next visit,
a game played in Spanish shows Spanish turn text and log lines, and no key or
{placeholder} ever reaches the page; axe-core finds nothing serious on the German table.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_table import CUT_SELECTS, Player, create_room, run_server

axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright")

# a key of the tables (locales/*.js) or a placeholder left unfilled
LEAK = re.compile(
    r"\{\w+\}|\b(?:page|top|common|net|home|rules|room|join|lobby|table|turn|opp|host|me|"
    r"prompt|side|chat|react|watchers|summary|scores|rulesPanel|rule|preset|option|choice|"
    r"keys|replay|colors|colorName|cards|log|errors|levels)\.[a-zA-Z][\w.+-]*[a-zA-Z]"
)

# every text the page shows: its text, and the labels and titles a screen reader says
PAGE_TEXT = """() => {
  const out = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]'))
    for (const a of ['aria-label', 'title', 'placeholder'])
      if (el.hasAttribute(a)) out.push(el.getAttribute(a));
  for (const o of document.querySelectorAll('option')) out.push(o.textContent);
  return out.join('\\n');
}"""

# Every turn line a classic table can show (the locales' "turn.*"): the game goes on
# while the test reads it, so a bot that just drew and is deciding is as likely as a
# turn (the German check failed on "Ben (bot) hat gezogen und überlegt" in make test)
SPANISH_TURN = (
    r"Te toca|Le toca a|Fin de la|se ha quedado|Cuélate|está eligiendo|decide:"
    r"|debe responder|está pensando|dice un color"
)
GERMAN_TURN = (
    r"Du bist dran|ist dran|vorbei|ist raus|Reinwerfen|wählt|entscheidet|muss kontern"
    r"|überlegt|nennt"
)


def leaks(page: Any) -> list[str]:
    return LEAK.findall(page.evaluate(PAGE_TEXT))


def serious(page: Any) -> list[str]:
    results = axe_mod.Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_the_browser_language_then_the_switch_which_is_remembered(
    browser: Any, tmp_path: Any
) -> None:
    with run_server(tmp_path) as url:
        ana = Player.open(browser, "Ana", locale="de-DE", viewport={"width": 1280, "height": 800})
        try:
            page = ana.page
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")
            assert page.evaluate("document.documentElement.lang") == "de"
            assert page.inner_text("h1") == "UNO mit Freunden spielen"
            assert page.inner_text("#create-btn") == "Raum erstellen"
            assert page.inner_text("#join-h") == "Einem Raum beitreten"
            assert page.locator("label[for=lang]").inner_text() == "Sprache"
            assert page.locator("#lang").input_value() == "de"
            assert page.title() == "unokit: UNO mit Freunden"
            # the server's rules come in German too (the preset's description, the options)
            assert "die offiziellen Mattel-Regeln" in page.inner_text("#preset-help")
            assert leaks(page) == []

            page.select_option("#lang", "es")
            page.wait_for_function(
                "() => document.querySelector('h1')?.textContent === 'Juega al UNO con tus amigos'"
            )
            assert page.evaluate("document.documentElement.lang") == "es"
            assert page.inner_text("#create-btn") == "Crear la sala"
            assert page.locator("label[for=lang]").inner_text() == "Idioma"
            assert leaks(page) == []

            page.reload()
            page.wait_for_selector("#create-btn")
            assert page.evaluate("document.documentElement.lang") == "es"
            assert page.inner_text("#create-btn") == "Crear la sala"
            assert page.locator("#lang").input_value() == "es"

            # what was typed stays through a switch
            page.fill("#name", "Ana")
            page.select_option("#lang", "en")
            page.wait_for_function(
                "() => document.querySelector('h1')?.textContent === 'Play UNO with friends'"
            )
            assert page.input_value("#name") == "Ana"
            assert ana.errors == [] and ana.console == []
        finally:
            ana.close()


def my_move(p: Player) -> bool:
    """One move through the page if it is Ana's turn; True if she moved."""
    page = p.page
    if page.locator(".prompt .color-pick").count():
        p.press(".prompt .color-pick .btn")
        return True
    if not page.locator(".table-wrap.my-turn").count() or page.locator("#summary").count():
        return False
    for sel in ("#play-drawn-btn", "#keep-btn", "#accept-btn"):
        if page.locator(sel).count():
            p.press(sel)
            if page.locator(".prompt .color-pick").count():
                p.press(".prompt .color-pick .btn")
            return True
    playable = page.locator(".hand .card.playable")
    if playable.count():
        p.press(".hand .card.playable >> nth=0")
        if page.locator(".prompt .color-pick").count():
            p.press(".prompt .color-pick .btn")
    else:
        p.press("#draw-btn")
    return True


def test_a_game_in_spanish_then_german_with_no_key_showing(browser: Any, tmp_path: Any) -> None:
    with run_server(tmp_path, seed=7) as url:
        ana = Player.open(browser, "Ana", locale="es-ES", viewport={"width": 1280, "height": 800})
        try:
            page = ana.page
            create_room(ana, url, players=2, seats=["normal"])
            assert page.inner_text("#start-btn") == "Empezar la partida"
            assert page.inner_text("#lobby-rules").startswith("Reglas: clásico")
            assert leaks(page) == []
            page.click("#start-btn")
            page.wait_for_selector(".table-wrap", timeout=20000)
            moves = 0
            for _ in range(200):
                if moves >= 4 or page.locator("#summary").count():
                    break
                if my_move(ana):
                    moves += 1
                    ana.settle()
                else:
                    page.wait_for_timeout(100)
            assert moves >= 2, "Ana played through the page"
            turn = page.inner_text("#turn")
            assert re.search(SPANISH_TURN, turn), turn
            log = page.inner_text("#log")
            assert "Ronda 1:" in log and "Te han repartido 7 cartas." in log, log
            assert re.search(r"Has jugado|Has robado|ha jugado|ha robado", log), log
            assert "played" not in log and "drew" not in log
            assert page.locator("#draw-btn").inner_text() == "Robar (D)"
            assert page.locator("#uno-btn").get_attribute("aria-label", timeout=2000) is not None
            assert leaks(page) == []

            # the switch redraws the table and the log in German
            page.select_option("#lang", "de")
            page.wait_for_function("() => document.documentElement.lang === 'de'")
            page.wait_for_function(
                "() => document.getElementById('log').innerText.includes('Runde 1:')"
            )
            log = page.inner_text("#log")
            assert "Du hast 7 Karten bekommen." in log and "Ronda" not in log, log
            assert page.locator("#draw-btn").inner_text() == "Ziehen (D)"
            assert re.search(GERMAN_TURN, page.inner_text("#turn"))
            labels = page.eval_on_selector_all(
                ".hand .card", "els => els.map(e => e.getAttribute('aria-label'))"
            )
            assert labels and all(re.search(r"spielbar", x) for x in labels), labels
            # the help and the rules panel speak German too
            page.keyboard.press("?")
            page.wait_for_selector("#help")
            assert page.inner_text("#help-h") == "Tasten"
            page.click("#rules-btn")
            page.wait_for_selector("#rules")
            assert page.inner_text("#rules-h") == "Regeln: klassisch"
            assert leaks(page) == []
            assert serious(page) == []
            assert ana.errors == [] and ana.console == []
        finally:
            ana.close()


def test_the_top_bar_fits_a_phone_in_every_language(browser: Any, tmp_path: Any) -> None:
    """At 360 px the host's top bar (room code, Copy link, Rules, Sound, End, the
    switch) fits in every language: the page never scrolls sideways."""
    with run_server(tmp_path) as url:
        ana = Player.open(
            browser, "Ana", viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
        )
        try:
            page = ana.page
            create_room(ana, url, players=2, seats=["normal"])
            page.click("#start-btn")
            page.wait_for_selector("#end-btn")
            for lang in page.eval_on_selector_all("#lang option", "os => os.map(o => o.value)"):
                page.select_option("#lang", lang)
                page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 360, (lang, width)
                right = page.evaluate(
                    "document.getElementById('lang').getBoundingClientRect().right"
                )
                assert right <= 360, (lang, right)
                assert leaks(page) == [], lang
            assert ana.errors == [] and ana.console == []
        finally:
            ana.close()


def test_the_seat_choices_are_read_whole_on_a_phone_in_every_language(
    browser: Any, tmp_path: Any
) -> None:
    """Issue 49 (minor): at 390 px the German seat choice "frei: ein Freund kommt dazu"
    was cut; every seat's select is as wide as its longest choice, in every language."""
    with run_server(tmp_path) as url:
        ana = Player.open(
            browser, "Ana", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        )
        try:
            page = ana.page
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")
            page.select_option("#seats", "4")
            for lang in page.eval_on_selector_all("#lang option", "os => os.map(o => o.value)"):
                page.select_option("#lang", lang)
                page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
                page.select_option("#seats", "4")
                assert page.locator(".seat-choice select").count() == 3
                assert page.evaluate(CUT_SELECTS, ".seat-choice select") == [], lang
        finally:
            ana.close()
