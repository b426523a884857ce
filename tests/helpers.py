"""Build scenario records by hand: say who holds what, get the deck that deals it."""

from __future__ import annotations

import json
import random
from typing import Any

from unokit.engine import Game, view_of
from unokit.engine import position as build_position
from unokit.record import loads, replay, replay_text


def deck_for(
    hands: list[list[str]], start: str, dealer: int = 0, then: list[str] | None = None
) -> list[str]:
    """The top-first deck that deals ``hands`` (R-SETUP-3), turns ``start``, then ``then``."""
    n = len(hands)
    size = len(hands[0])
    assert all(len(h) == size for h in hands), "scenario hands must be the same size"
    deck: list[str] = []
    for i in range(size):
        for k in range(1, n + 1):
            deck.append(hands[(dealer + k) % n][i])
    return [*deck, start, *(then or [])]


def scenario(
    hands: list[list[str]],
    start: str,
    actions: list[dict[str, Any]],
    *,
    dealer: int = 0,
    then: list[str] | None = None,
    options: dict[str, Any] | None = None,
    preset: str = "classic",
    shuffles: list[list[str]] | None = None,
    names: list[str] | None = None,
) -> dict[str, Any]:
    """A one-round record; ``hand_size`` follows the hands given."""
    opts = {"hand_size": len(hands[0]), **(options or {})}
    rnd: dict[str, Any] = {
        "dealer": dealer,
        "deck": deck_for(hands, start, dealer, then),
        "seed": 1,
        "actions": actions,
    }
    if shuffles is not None:
        rnd["shuffles"] = shuffles
    return {
        "format": "uno-record/1",
        "rules": {"preset": preset, "options": opts},
        "players": names
        or ["Ana", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"][: len(hands)],
        "rounds": [rnd],
    }


def run(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Replay as `unokit replay` does: (exit status, JSON result)."""
    status, out = replay_text(json.dumps(record))
    assert isinstance(out, dict), out
    return status, out


def game_after(record: dict[str, Any]) -> Game:
    """The game after replaying ``record``, which must be legal throughout."""
    result = replay(loads(json.dumps(record)))
    assert result.ok, result.message
    assert result.game is not None
    return result.game


def state(record: dict[str, Any]) -> dict[str, Any]:
    status, out = run(record)
    assert status == 0, out
    st: dict[str, Any] = out["state"]
    return st


def sorted_hands(st: dict[str, Any]) -> list[list[str]]:
    return [sorted(h) for h in st["hands"]]


def position(g: Game) -> tuple[Any, ...]:
    """Everything that decides what happens next in a round (the RNG aside)."""
    return (
        tuple(tuple(sorted(h)) for h in g.hands),
        tuple(g.pile),
        tuple(g.discard),
        g.current,
        g.phase,
        g.color,
        g.direction,
        g.drawn,
        g.vulnerable,
    )


def hidden_cards_dealt_again(g: Game, seat: int | None, rng: random.Random) -> Game:
    """``g`` with every card ``seat`` cannot see dealt again at random (``None``: a
    spectator, who sees no hand): the same public position, other hidden cards.

    The no-leak tests compare what a seat is told in both games.  The new game is built
    by ``engine.position`` from the public fields (a spectator's view) and the new hands
    and draw pile, so every state those tests reach is also a position the constructor
    must accept.  Whether a Wild Draw Four waiting for its challenge was a bluff follows
    from the new hands: it is hidden state too.  A drawn card the seat cannot see is
    the drawer's last card.  The events are ``g``'s own (each seat's are filtered).
    """
    v = view_of(g, None)
    hands = [list(h) for h in g.hands]
    hidden = [s for s in range(g.n) if s != seat]
    pool = list(g.pile) + [c for s in hidden for c in hands[s]]
    rng.shuffle(pool)
    it = iter(pool)
    for s in hidden:
        hands[s] = [next(it) for _ in hands[s]]
    drawn = -1
    if g.drawn >= 0:  # the drawn card is the drawer's secret
        drawn = g.drawn if g.current == seat else hands[g.current][-1]
    other = build_position(
        g.rules,
        names=v.names,
        hands=hands,
        discard=v.discard,
        draw=list(it),
        rest=None,
        current=v.current,
        direction=v.direction,
        color=v.color if v.color >= 0 else None,
        phase=v.phase,
        drawn=drawn if drawn >= 0 else None,
        vulnerable=v.vulnerable,
        pending=v.pending if v.pending >= 0 else None,
        pending_total=g.pend_total,
        wd4_by=v.wd4_by,
        prev_color=v.prev_color if v.prev_color >= 0 else None,
        scores=v.scores,
        live=v.live,
        dealer=v.dealer,
        round_index=v.round_index,
        round_winner=v.round_winner,
        game_winner=v.game_winner,
        events=g.events is not None,
    )
    other.events = g.events
    return other


def assert_forced_loop(g: Game, steps: int = 2_000) -> None:
    """A round that did not end is stuck in a loop the rules force on everyone.

    Each of the next decisions is the only legal action at the table, and a position
    comes round again: no player (or bot) could have ended the round by choosing
    differently from here.  Used where a test caps a round (docs/rules.md, "Rounds that
    can go on and on").
    """
    seen: set[tuple[Any, ...]] = set()
    for _ in range(steps):
        assert not g.round_over
        key = position(g)
        if key in seen:
            return
        seen.add(key)
        offered = [(s, a) for s in range(g.n) for a in g.legal_actions(s)]
        assert len(offered) == 1, f"a stalled round still offers a choice: {offered}"
        g.apply(*offered[0])
    raise AssertionError(f"no position came round again in {steps} forced decisions")


# Every option of the two modern games with the values worth trying: the property tests
# (test_modern_properties) and the audit (test_modern_audit) draw rule sets from them.
FLIP_OPTIONS: dict[str, list[Any]] = {
    "flip_start": ["redraw", "flip"], "flip_inverts_discard": [True, False],
    "flip_exposed_action": [False, True], "flip_wild_color": ["flipper", "next_player"],
    "flip_last_card": ["flip", "no_flip"], "wd4_bluffing": [True, False],
    "draw_until_playable": [False, True], "force_play_drawn": [False, True],
    "jump_in": [False, True], "multi_play": [False, True],
    "scoring": ["standard", "low", "first-out"], "target_score": [60, 200, 500],
}  # fmt: skip
NM_OPTIONS: dict[str, list[Any]] = {
    "nm_deck": ["wiki", "alt38", "alt37"], "nm_voluntary_draw": [True, False],
    "nm_stack_threshold": ["last", "total"], "nm_stack_match_color": [False, True],
    "nm_stack_deflect": [False, True], "mercy_limit": [25, 0, 12],
    "nm_knockout_cards": ["set_aside", "discard_bottom"],
    "nm_last_card_effect": [False, True], "nm_roulette_color": ["victim", "player"],
    "scoring": ["first-out", "standard"], "target_score": [300, 1000],
}  # fmt: skip
