"""The table's log says what happened, in the words of the rules.

A manual check once showed a Wild Draw Four turned up as the first card, sent back
and the draw pile shuffled (R-START-WD4), logged as "The discards are shuffled into a
new draw pile": at the start of a round there are no discards.  UNOKIT_SEED picks a
first deal that turns up a Wild Draw Four first.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_table import Player, create_room, find_seed, run_server

from unokit.cards import WILD_DRAW4


def wd4_first(g: Any) -> bool:
    return any(e.kind == "start_return" and e.cards == (WILD_DRAW4,) for e in g.events)


def test_a_wild_draw_four_turned_up_first_is_logged_as_sent_back(
    browser: Any, tmp_path: pytest.TempPathFactory
) -> None:
    seed = find_seed("classic", {}, 2, wd4_first, events=True)
    with run_server(tmp_path, seed=seed) as url:  # type: ignore[arg-type]
        ana = Player.open(browser, "Ana")
        try:
            create_room(ana, url, players=2, seats=["normal"])
            ana.page.click("#start-btn")
            ana.page.wait_for_selector("#log li")
            lines = ana.page.locator("#log li").all_inner_texts()
            i = lines.index("Wild Draw Four cannot start a round: it goes back into the pile.")
            assert lines[i - 1] == "The first card is Wild Draw Four."
            assert lines[i + 1].startswith("The draw pile is shuffled (")
            assert not any("discards" in line for line in lines[: i + 2]), lines
        finally:
            ana.close()
