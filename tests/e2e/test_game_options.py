"""Each game's house rules (issue 47): the home page's form offers only the options of
the game the preset plays (the server's descriptor's, /api/rules ``games``), so a Flip
room is never offered seven-zero or stacking and nothing ticked is dropped; a classic
room still offers them; and rules the server refuses are said in the form.

It used to show every game's options (the CSS grid of ``.opt`` overrode ``hidden``) and
drop the ones the game does not play: a Flip room made with seven-zero and progressive
stacking ticked came out as "flip (no house rules)".
"""

from __future__ import annotations

import json
from typing import Any

from browser_table import Player, run_server, shot

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
NOT_FLIP = ("seven_zero", "stacking", "stack_draw4_on_draw2", "deck", "attack_launcher")


def shown_options(page: Any) -> list[str]:
    """The house rules the form shows (visible rows), by option name."""
    return list(
        page.locator(".create .house .opt").evaluate_all(
            "rows => rows.filter(r => r.offsetParent !== null)"
            ".map(r => r.querySelector('input, select').name)"
        )
    )


def test_the_flip_form_offers_only_flips_house_rules_and_keeps_them(
    browser: Any, tmp_path: Any
) -> None:
    with run_server(tmp_path) as url:
        ana = Player.open(browser, "Ana", **DESKTOP)
        try:
            page = ana.page
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")
            games = page.evaluate("() => fetch('/api/rules').then(r => r.json())")["games"]
            page.fill("#name", "Ana")
            page.click(".create .house summary")

            # classic: seven-zero and stacking are on offer
            assert page.input_value("#preset") == "classic"
            classic = shown_options(page)
            assert "seven_zero" in classic and "stacking" in classic
            assert set(classic) <= set(games["classic"]["options"])

            # Flip: only Flip's options, none of the classic ones it does not play
            page.select_option("#preset", "flip")
            flip = shown_options(page)
            assert flip and set(flip) <= set(games["flip"]["options"]), flip
            assert "flip_start" in flip and "jump_in" in flip
            for name in NOT_FLIP:
                assert page.locator(f"#opt-{name}").count() == 0, name
            # and only the ways of scoring Flip plays
            scorings = page.locator("#opt-scoring option:not([disabled])").evaluate_all(
                "os => os.map(o => o.value)"
            )
            assert scorings == games["flip"]["scorings"], scorings
            page.locator(".create .house").scroll_into_view_if_needed()
            shot(page, "home-flip-rules.png")

            # what is ticked is what the room plays
            page.set_checked("#opt-jump_in", True)
            page.select_option("#opt-flip_start", "flip")
            page.select_option("#seats", "3")
            page.click("#create-btn")
            page.wait_for_selector(".waiting")
            code = page.url.rstrip("/").rsplit("/", 1)[1]
            info = page.evaluate(f"() => fetch('/api/rooms/{code}').then(r => r.json())")
            assert info["rules"] == {
                "preset": "flip",
                "options": {"jump_in": True, "flip_start": "flip"},
            }

            # back home, classic again: seven-zero is offered once more
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")
            page.click(".create .house summary")
            page.select_option("#preset", "flip")
            page.select_option("#preset", "classic")
            assert {"seven_zero", "stacking"} <= set(shown_options(page))
            assert page.locator("#opt-scoring option:not([disabled])").count() == len(
                games["classic"]["scorings"]
            )
        finally:
            ana.close()


def test_rules_the_server_refuses_are_said_in_the_form(browser: Any, tmp_path: Any) -> None:
    """A page that offers Flip an option it does not play (here: /api/rules answered as
    if Flip played seven-zero, as a page of another version might think) sends it, and
    the server's refusal naming the game and the option is shown in the form; no room
    is made."""
    with run_server(tmp_path) as url:
        ana = Player.open(browser, "Ana", **DESKTOP)
        try:
            page = ana.page

            def wrong_rules(route: Any) -> None:
                got = route.fetch()
                body = got.json()
                body["games"]["flip"]["options"].append("seven_zero")
                route.fulfill(response=got, body=json.dumps(body))

            page.route("**/api/rules", wrong_rules)
            page.goto(url + "/")
            page.wait_for_selector("#create-btn")
            page.fill("#name", "Ana")
            page.select_option("#preset", "flip")
            page.click(".create .house summary")
            page.set_checked("#opt-seven_zero", True)
            page.click("#create-btn")
            error = page.locator(".create .form-error")
            error.filter(has_text="seven_zero").wait_for()
            assert "UNO Flip! does not play this house rule: seven_zero" in error.inner_text()
            assert page.url.rstrip("/") == url  # still home: no room
            # the refusal came as an answer (X-Unokit-Soft): nothing in the console (issue 49)
            assert ana.console == []
        finally:
            ana.close()
