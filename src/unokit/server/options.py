"""The rules a room may be given: the options the lobby offers (``GET /api/rules``)
and the check that refuses options a room's game does not play."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from unokit.cards import DECKS
from unokit.engine.family import descriptors, find_game
from unokit.errors import UnoError
from unokit.rules import (
    CUSTOM_RULES,
    MODERN_CHOICES,
    MODERN_OPTION_HELP,
    MODERN_PRESETS,
    OPTION_HELP,
    PRESETS,
    SCORINGS,
    STACKINGS,
    WD4_GUILTY,
    RulesError,
    RuleSet,
    from_preset,
    game_of_deck,
)
from unokit.server import messages as m

# the allowed values of the options that are words (for the lobby's menus)
CHOICES: dict[str, list[str]] = {
    "deck": list(DECKS),
    "custom_rule": list(CUSTOM_RULES),
    "scoring": list(SCORINGS),
    "stacking": list(STACKINGS),
    "wd4_guilty": list(WD4_GUILTY),
}


def _game_of(preset_options: dict[str, Any]) -> str:
    """The game a preset plays: "classic" (every classic deck), "flip" or "no-mercy"."""
    return game_of_deck(preset_options.get("deck", "classic"))


def _option_games(name: str) -> list[str]:
    """The games that play an option (their descriptors' ``options``; RULES-MODERN.md
    FLIP-OPT-1, NM-OPT-1: a modern game's own options, and the classic ones it plays)."""
    return [g for g, d in descriptors().items() if name in d["options"]]


def check_room_options(preset: str, options: Mapping[str, Any]) -> None:
    """Refuse rules with options their game does not play, naming every one and the
    game, before anything is created or changed (issue 47).

    The page offers only the game's options (its descriptor's), so this answers a page
    of another version or a hand-made request; an option is never dropped silently (a
    Flip room asked for seven-zero came out with no house rules).  Like ``RuleSet``, an
    option sent at its default value asks for nothing and passes; a preset or deck that
    does not exist is left to ``from_preset`` to refuse.
    """
    spec = PRESETS.get(preset) or MODERN_PRESETS.get(preset)
    deck = options.get("deck", spec[1].get("deck", "classic") if spec else None)
    try:
        game = find_game(game_of_deck(deck)) if isinstance(deck, str) else None
    except UnoError:
        game = None
    if game is None:
        return
    plays = set(game.descriptor()["options"])
    fields = RuleSet.__dataclass_fields__
    foreign = [
        k
        for k, v in options.items()
        if k in fields and k not in plays and k not in ("preset", "deck") and v != fields[k].default
    ]
    if foreign:
        one = len(foreign) == 1
        raise RulesError(
            f"{game.TITLE} does not play {'this house rule' if one else 'these house rules'}: "
            f"{', '.join(foreign)}; nothing was changed: leave {'it' if one else 'them'} "
            "out, or choose a game that plays it",
            code="bad_option",
        )


def _modern_choices(name: str) -> list[str] | None:
    return list(MODERN_CHOICES[name]) if name in MODERN_CHOICES else None


@functools.cache
def rules_json() -> dict[str, Any]:
    """``GET /api/rules``: every preset (classic and modern, with the game it plays and
    its player range), every option (with the games it applies to), and each game's
    descriptor (``games``: the options the form offers, the words the table uses)."""
    defaults = RuleSet().options()
    presets = []
    for k, (d, o) in [*PRESETS.items(), *MODERN_PRESETS.items()]:
        lo, hi = from_preset(k).player_range()
        presets.append(
            {"name": k, "description": d, "options": o, "game": _game_of(o), "players": [lo, hi]}
        )
    helps = {**OPTION_HELP, **MODERN_OPTION_HELP}
    return {
        "presets": presets,
        "options": [
            {
                "name": k,
                "help": h,
                "default": defaults[k] if k in defaults else getattr(RuleSet(), k),
                "choices": CHOICES.get(k) or _modern_choices(k),
                "games": _option_games(k),
            }
            for k, h in helps.items()
        ],
        "levels": list(m.LEVELS),
        "timers": list(m.TIMERS),
        "games": descriptors(),
    }
