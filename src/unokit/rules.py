"""The rule set: one frozen value with every option of RULES.md §9, and the presets of §10.

A preset is only a named set of options, so a record can say ``{"preset": "party",
"options": {...}}`` and the same ``RuleSet`` comes back.  Validation happens here, at
construction, so a bad combination is refused before a game starts, never mid-game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from unokit.cards import DECKS, IS_NUMBER, WILD_DRAW4, build_deck
from unokit.errors import UnoError


class RulesError(UnoError):
    """A rule set that cannot be built: unknown option, bad value, bad combination."""

    code = "bad_rules"


CUSTOM_RULES = (
    "none",
    "next_draws_3",
    "others_draw_2",
    "others_discard_wilds",
    "extra_turn",
    "discard_color",
)
# What each Wild Customizable house rule does, for `unokit rules` and the terminal game.
CUSTOM_RULE_TEXT: dict[str, str] = {
    "none": "no extra effect (a plain Wild)",
    "next_draws_3": "the next player draws 3 and keeps their turn",
    "others_draw_2": "every other player draws 2",
    "others_discard_wilds": "the other players put their wilds under it",
    "extra_turn": "the player plays again",
    "discard_color": "the player also discards every card of the named colour",
}
SCORINGS = ("standard", "low", "elimination", "teams", "first-out")
STACKINGS = ("off", "pass", "progressive")
# UNO Attack's launcher when no weights are given: mostly nothing, sometimes a burst.
DEFAULT_LAUNCHER_WEIGHTS = (40, 20, 12, 8, 6, 4, 3, 2, 1, 1, 1, 1, 1)
MAX_LAUNCHER_WEIGHT = 1_000_000  # relative weights; larger ones only risk float overflow
WD4_GUILTY = ("draw4", "retract")
# The modern games (RULES-MODERN.md): their decks are not classic card ids, so they are
# kept apart from ``unokit.cards.DECKS`` (which every classic path may build).
MODERN_DECKS = ("flip", "no-mercy")
FLIP_OPTIONS = (
    "flip_pairing", "flip_start", "flip_inverts_discard", "flip_exposed_action",
    "flip_wild_color", "flip_last_card",
)  # fmt: skip
NM_OPTIONS = (
    "nm_deck", "nm_voluntary_draw", "nm_stack_threshold", "nm_stack_match_color",
    "nm_stack_deflect", "mercy_limit", "nm_knockout_cards", "nm_last_card_effect",
    "nm_roulette_color",
)  # fmt: skip
# the values of the modern games' choice options (RULES-MODERN.md A12, B11)
MODERN_CHOICES: dict[str, tuple[str, ...]] = {
    "flip_pairing": ("random",),
    "flip_start": ("redraw", "flip"),
    "flip_wild_color": ("flipper", "next_player"),
    "flip_last_card": ("flip", "no_flip"),
    "nm_deck": ("wiki", "alt38", "alt37"),
    "nm_stack_threshold": ("last", "total"),
    "nm_knockout_cards": ("set_aside", "discard_bottom"),
    "nm_roulette_color": ("victim", "player"),
}
# The family of games (engine/family.py): each game by the decks it plays and the options
# it reads.  A game refuses any other option set away from its default with a clear
# error; it never ignores one (a Flip room asked for seven_zero is refused, not dealt
# without it).  Data, not branches: a new game adds a row here.
GAME_DECKS: dict[str, tuple[str, ...]] = {
    "classic": DECKS,
    "flip": ("flip",),
    "no-mercy": ("no-mercy",),
}
_CLASSIC_OPTIONS = (
    "deck", "custom_rule", "custom_cards", "hand_size", "target_score", "scoring",
    "wild_points", "uno_penalty", "false_uno_penalty", "wd4_bluffing", "wd4_guilty",
    "draw_until_playable", "force_play_drawn", "stacking", "stack_draw4_on_draw2",
    "multi_play", "jump_in", "seven_zero", "attack_launcher", "launcher_weights",
)  # fmt: skip
GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    "classic": _CLASSIC_OPTIONS,
    "flip": (
        "hand_size", "target_score", "scoring", "uno_penalty", "wd4_bluffing",
        "draw_until_playable", "force_play_drawn", "multi_play", "jump_in", *FLIP_OPTIONS,
    ),
    "no-mercy": ("hand_size", "target_score", "scoring", "uno_penalty", *NM_OPTIONS),
}  # fmt: skip
GAME_SCORINGS: dict[str, tuple[str, ...]] = {
    "classic": SCORINGS,
    "flip": ("standard", "low", "first-out"),
    "no-mercy": ("standard", "first-out"),
}
# Classic options a game refuses (RULES-MODERN.md FLIP-OPT-1, NM-OPT-1): the rest of
# the classic options it does not play are accepted and IGNORED, as NM-OPT-1 says and
# as records, stored matches and rooms written before kept them.  New rooms are refused
# any option outside ``GAME_OPTIONS`` by the server (``server.options.check_room_options``)
# and the page offers only those.
GAME_REFUSED: dict[str, tuple[str, ...]] = {
    "classic": (),
    "flip": (
        "stacking", "stack_draw4_on_draw2", "seven_zero", "attack_launcher",
        "false_uno_penalty", "wd4_guilty", "custom_rule",
    ),
    "no-mercy": (
        "multi_play", "jump_in", "attack_launcher", "false_uno_penalty", "wd4_guilty",
        "custom_rule",
    ),
}  # fmt: skip
_GAME_OF_DECK = {deck: game for game, decks in GAME_DECKS.items() for deck in decks}


def default_hand_size(deck: str) -> int:
    """Cards dealt when ``hand_size`` is not given: 5 for My First UNO, else 7."""
    return 5 if deck == "my-first-uno" else 7


def game_of_deck(deck: str) -> str:
    """The name of the game that plays ``deck`` (``classic`` for every classic deck)."""
    try:
        return _GAME_OF_DECK[deck]
    except KeyError:
        raise RulesError(f"there is no deck {deck!r}", code="bad_option") from None


def options_of_game(game: str) -> tuple[str, ...]:
    """The options ``game`` plays with (RULES.md §9, RULES-MODERN.md A12, B11)."""
    return GAME_OPTIONS[game]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every option of RULES.md §9; the defaults are the official Mattel rules."""

    deck: str = "classic"
    custom_rule: str = "none"
    custom_cards: int = 3
    hand_size: int | None = None
    target_score: int = 500
    scoring: str = "standard"
    wild_points: int = 50
    uno_penalty: int = 2
    false_uno_penalty: int = 0
    wd4_bluffing: bool = True
    wd4_guilty: str = "draw4"
    draw_until_playable: bool = False
    force_play_drawn: bool = False
    stacking: str = "off"
    stack_draw4_on_draw2: bool = False
    multi_play: bool = False
    jump_in: bool = False
    seven_zero: bool = False
    attack_launcher: bool = False
    launcher_weights: tuple[int, ...] | None = None
    # UNO Flip! (RULES-MODERN.md A12)
    flip_pairing: str = "random"
    flip_start: str = "redraw"
    flip_inverts_discard: bool = True
    flip_exposed_action: bool = False
    flip_wild_color: str = "flipper"
    flip_last_card: str = "flip"
    # UNO Show 'Em No Mercy (RULES-MODERN.md B11)
    nm_deck: str = "wiki"
    nm_voluntary_draw: bool = True
    nm_stack_threshold: str = "last"
    nm_stack_match_color: bool = False
    nm_stack_deflect: bool = False
    mercy_limit: int = 25
    nm_knockout_cards: str = "set_aside"
    nm_last_card_effect: bool = False
    nm_roulette_color: str = "victim"
    preset: str = field(default="classic", compare=False)

    def __post_init__(self) -> None:
        _check_choice("deck", self.deck, DECKS + MODERN_DECKS)
        mine = (
            self.flip_pairing, self.flip_start, self.flip_inverts_discard,
            self.flip_exposed_action, self.flip_wild_color, self.flip_last_card, self.nm_deck,
            self.nm_voluntary_draw, self.nm_stack_threshold, self.nm_stack_match_color,
            self.nm_stack_deflect, self.mercy_limit, self.nm_knockout_cards,
            self.nm_last_card_effect, self.nm_roulette_color,
        )  # fmt: skip
        # classic rules with the modern options untouched (every simulated game builds
        # one) skip their checks: a tuple compare, types included (1 is not True)
        if (
            self.deck in MODERN_DECKS
            or mine != _MODERN_DEFAULTS
            or tuple(map(type, mine)) != _MODERN_TYPES
        ):
            self._check_modern_options()
        _check_choice("custom_rule", self.custom_rule, CUSTOM_RULES)
        _check_choice("scoring", self.scoring, SCORINGS)
        _check_choice("stacking", self.stacking, STACKINGS)
        _check_choice("wd4_guilty", self.wd4_guilty, WD4_GUILTY)
        for name in (
            "wd4_bluffing",
            "draw_until_playable",
            "force_play_drawn",
            "stack_draw4_on_draw2",
            "multi_play",
            "jump_in",
            "seven_zero",
            "attack_launcher",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name} must be true or false")
        _check_int("custom_cards", self.custom_cards, 0, 3)
        _check_int("target_score", self.target_score, 1, 1_000_000)
        _check_int("wild_points", self.wild_points, 0, 1000)
        _check_int("uno_penalty", self.uno_penalty, 0, 20)
        _check_int("false_uno_penalty", self.false_uno_penalty, 0, 20)
        if self.hand_size is None:
            object.__setattr__(self, "hand_size", default_hand_size(self.deck))
        _check_int("hand_size", self.hand_size, 1, 20)
        if self.launcher_weights is not None:
            w = self.launcher_weights
            if isinstance(w, list):
                w = tuple(w)
                object.__setattr__(self, "launcher_weights", w)
            if (
                not isinstance(w, tuple)
                or len(w) != 13
                or not all(
                    isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_LAUNCHER_WEIGHT
                    for x in w
                )
                or sum(w[1:]) == 0
            ):
                raise RulesError(
                    f"launcher_weights must be 13 whole numbers from 0 to {MAX_LAUNCHER_WEIGHT:,} "
                    "(for 0..12 cards), and the launcher must be able to fire a card: a "
                    "weight after the first above 0 (else a player who cannot play is stuck)",
                    code="bad_option",
                )
        if self.stack_draw4_on_draw2 and self.stacking != "progressive":
            raise RulesError("stack_draw4_on_draw2 needs stacking='progressive'")
        if self.custom_rule != "none" and not self.deck.startswith("mattel-2018"):
            raise RulesError(
                f"custom_rule={self.custom_rule!r} needs a deck with Wild Customizable cards "
                "(mattel-2018-swap or mattel-2018-shuffle)"
            )
        if self.attack_launcher and self.draw_until_playable:
            raise RulesError(
                "attack_launcher and draw_until_playable cannot be combined: the launcher "
                "replaces drawing"
            )
        if self.launcher_weights is not None and not self.attack_launcher:
            raise RulesError("launcher_weights needs attack_launcher=true")
        lo = max(self._base_range()[0], 4 if self.scoring == "teams" else 2)
        if self.max_players_dealt() < lo:
            raise RulesError(
                f"hand_size={self.hand_size} is too large for the {self.deck} deck: "
                f"{self._deal_problem(lo)}",
                code="bad_hand_size",
            )

    def _check_modern_options(self) -> None:
        """The modern games' options: their values, and where they apply."""
        if self.flip_pairing == "physical":
            raise RulesError(
                "flip_pairing='physical' needs a verified table of the printed deck's "
                "light/dark pairs, which unokit does not have yet (RULES-MODERN.md §C 1); "
                "use 'random'",
                code="bad_option",
            )
        for name, allowed in MODERN_CHOICES.items():
            _check_choice(name, getattr(self, name), allowed)
        for name in (
            "flip_inverts_discard", "flip_exposed_action", "nm_voluntary_draw",
            "nm_stack_match_color", "nm_stack_deflect", "nm_last_card_effect",
        ):  # fmt: skip
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name} must be true or false")
        _check_int("mercy_limit", self.mercy_limit, 0, 200)
        self._check_modern()

    def _check_modern(self) -> None:
        """Options the rules' game refuses, with the reason: another game's own options,
        and the classic options of ``GAME_REFUSED`` (the others it ignores: NM-OPT-1)."""
        default = RuleSet.__dataclass_fields__
        game = game_of_deck(self.deck)
        own = GAME_OPTIONS[game]
        theirs = {n for g, names in GAME_OPTIONS.items() if g != game for n in names}
        refused = (theirs - set(_CLASSIC_OPTIONS)) | set(GAME_REFUSED[game])
        for name in default:
            if name in own or name not in refused:
                continue
            if getattr(self, name) == default[name].default:
                continue
            owner = next((g for g in ("flip", "no-mercy") if name in GAME_OPTIONS[g]
                          and name not in _CLASSIC_OPTIONS), None)  # fmt: skip
            if owner is not None:
                raise RulesError(
                    f"option {name} belongs to deck={owner!r} (RULES-MODERN.md), "
                    f"not deck={self.deck!r}",
                    code="bad_option",
                )
            raise RulesError(
                f"option {name} is not played with deck={self.deck!r} (RULES-MODERN.md "
                "FLIP-OPT-1, NM-OPT-1; docs/rules.md)",
                code="bad_option",
            )
        if "mercy_limit" in own and 0 < self.mercy_limit <= (self.hand_size or 7):
            raise RulesError(
                f"mercy_limit={self.mercy_limit} would knock players out with the cards "
                f"dealt; use 0 (no Mercy rule) or more than hand_size",
                code="bad_option",
            )
        allowed = GAME_SCORINGS[game]
        if self.scoring not in allowed:
            raise RulesError(
                f"deck={self.deck!r} scores with {', '.join(allowed)}, not {self.scoring!r}",
                code="bad_option",
            )

    @property
    def numbers_start(self) -> bool:
        """Only a number card may start a round (My First UNO's R-START rule)."""
        return self.deck == "my-first-uno"

    @property
    def game(self) -> str:
        """The name of the game these rules are played by (``engine.family``'s registry)."""
        return _GAME_OF_DECK[self.deck]

    @property
    def modern(self) -> bool:
        """UNO Flip! or No Mercy: played by ``unokit.engine.modern``, not the classic code."""
        return self.deck in MODERN_DECKS

    @property
    def deal_size(self) -> int:
        """Cards dealt to each player (hand_size after its deck-dependent default)."""
        assert self.hand_size is not None
        return self.hand_size

    def _base_range(self) -> tuple[int, int]:
        if self.deck == "my-first-uno":
            return (2, 4)
        if self.deck == "no-mercy":
            return (2, 6)  # NM-SETUP-1
        if self.scoring == "teams":
            return (4, 8)
        return (2, 10)

    def start_cards(self) -> tuple[int, int]:
        """``(cards in the deck, cards that can never start a round)``.

        A Wild Draw Four turned as the start card goes back (R-START-WD4); in My First
        UNO every card but a number does (R-START-NUMBER).
        """
        if self.deck == "flip":  # FLIP-START-WD2 (and FLIP-START-FLIP when redrawn)
            return (112, 4 + (8 if self.flip_start == "redraw" else 0))
        if self.deck == "no-mercy":  # NM-START-1: only a number card can start
            from unokit.modern_cards import NM_RANK, nm_deck

            deck = nm_deck(self.nm_deck)
            return (len(deck), sum(1 for c in deck if NM_RANK[c] > 9))
        return _start_cards(self.deck, self.custom_cards)

    def max_players_dealt(self) -> int:
        """The most players that can be dealt ``hand_size`` cards (R-SETUP-3, -4).

        The cards left after the deal must hold at least one card that can start the
        round, whatever the shuffle: more than the cards that can never start one.
        Otherwise turning the start card could go on for ever.
        """
        size, never = self.start_cards()
        return (size - never - 1) // self.deal_size

    def _deal_problem(self, n: int) -> str:
        size, never = self.start_cards()
        left = size - n * self.deal_size
        kind = (
            "a number card (R-START-NUMBER)"
            if self.deck in ("my-first-uno", "no-mercy")
            else "anything but a Wild Draw Four (R-START-WD4)"
        )
        most = self.max_players_dealt()
        if most < 2:
            so = f"not even 2 players can be dealt {self.deal_size} cards each"
        else:
            so = f"at most {most} players can be dealt {self.deal_size} cards"
        return (
            f"{n} hands of {self.deal_size} leave {max(left, 0)} of the {size} cards, and "
            f"{never} cards can never start a round: the start card must be {kind}, so {so}"
        )

    def player_range(self) -> tuple[int, int]:
        """How many players these rules allow (R-SETUP-1, R-SCORE-TEAM, the deal)."""
        lo, hi = self._base_range()
        return lo, min(hi, self.max_players_dealt())

    def check_players(self, n: int) -> None:
        """Refuse a player count the rules or the deal do not allow (``RulesError``)."""
        lo, hi = self._base_range()
        if self.scoring == "teams" and n not in (4, 6, 8):
            raise RulesError(
                f"teams need 4, 6 or 8 players (two teams, partners alternating), not {n}",
                code="bad_player_count",
            )
        if not lo <= n <= hi:
            raise RulesError(
                f"these rules need {lo} to {hi} players, not {n}", code="bad_player_count"
            )
        if n > self.max_players_dealt():
            raise RulesError(self._deal_problem(n), code="bad_hand_size")

    # --- (de)serialisation --------------------------------------------------------
    def options(self) -> dict[str, Any]:
        """Every option by its RULES.md §9 name, as JSON values; a modern game's own
        options (RULES-MODERN.md) only for its deck, so classic rules read as before."""
        out: dict[str, Any] = {}
        skip = {"preset"}
        if self.deck != "flip":
            skip.update(FLIP_OPTIONS)
        if self.deck != "no-mercy":
            skip.update(NM_OPTIONS)
        for f in dataclasses.fields(self):
            if f.name in skip:
                continue
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    def to_spec(self) -> dict[str, Any]:
        """``{"preset", "options"}`` as a record carries it: only what differs from the preset."""
        base = from_preset(self.preset).options()
        mine = self.options()
        fields = RuleSet.__dataclass_fields__
        opts = {k: v for k, v in mine.items() if base.get(k, fields[k].default) != v}
        if from_preset(self.preset, opts) != self:  # hand_size's default follows the deck
            opts["hand_size"] = self.hand_size
        return {"preset": self.preset, "options": opts}

    def describe(self) -> str:
        spec = self.to_spec()
        extra = ", ".join(f"{k}={v}" for k, v in spec["options"].items())
        return self.preset + (f" ({extra})" if extra else "")


_MODERN_DEFAULTS: tuple[Any, ...] = tuple(
    RuleSet.__dataclass_fields__[name].default for name in FLIP_OPTIONS + NM_OPTIONS
)
_MODERN_TYPES: tuple[type, ...] = tuple(map(type, _MODERN_DEFAULTS))


@lru_cache(maxsize=32)
def _start_cards(deck_name: str, custom_cards: int) -> tuple[int, int]:
    deck = build_deck(deck_name, custom_cards)
    if deck_name == "my-first-uno":
        never = sum(1 for c in deck if not IS_NUMBER[c])
    else:
        never = deck.count(WILD_DRAW4)
    return len(deck), never


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(f"option {name} cannot be {value!r}; choose one of {', '.join(allowed)}")


def _check_int(name: str, value: object, lo: int, hi: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RulesError(f"option {name} must be a whole number from {lo} to {hi}, not {value!r}")


PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("the official Mattel rules, 108 cards", {}),
    "mattel-2018": (
        "112 cards with Wild Swap Hands and Wild Customizable ('everyone else draws 2')",
        {"deck": "mattel-2018-swap", "custom_rule": "others_draw_2"},
    ),
    "two-player": (
        "the classic rules at a table of two (a Reverse acts as a Skip); seats 2 players",
        {},
    ),
    "teams": ("two partnerships of two, partners opposite", {"scoring": "teams"}),
    "seed-001-house": (
        "pass-on stacking, multi-play, false-UNO penalty, retracted guilty W+4, low score to 200",
        {
            "stacking": "pass",
            "multi_play": True,
            "false_uno_penalty": 2,
            "wd4_guilty": "retract",
            "scoring": "low",
            "target_score": 200,
        },
    ),
    "my-first-uno": (
        "the 36-card children's deck, 5 cards each, first out wins",
        {"deck": "my-first-uno", "scoring": "first-out"},
    ),
    "attack": ("UNO Attack: a card launcher instead of the draw pile", {"attack_launcher": True}),
    "party": (
        "progressive stacking, jump-in and seven-zero",
        {"stacking": "progressive", "jump_in": True, "seven_zero": True},
    ),
}

# The modern games' presets: listed by `unokit rules`, built by ``from_preset``, and kept
# out of ``PRESETS`` because every classic front end (bots, RL, the web lobby) iterates
# that one and plays only classic cards so far.
MODERN_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "flip": (
        "UNO Flip!: 112 two-faced cards, a light and a dark side, the Flip card turns "
        "everything over",
        {"deck": "flip"},
    ),
    "no-mercy": (
        "UNO Show 'Em No Mercy: 168 cards, draw until playable, stacking by value, "
        "7-swap and 0-pass, the Mercy rule at 25 cards; 2-6 players",
        {"deck": "no-mercy", "scoring": "first-out", "target_score": 1000},
    ),
}


def preset_description(name: str) -> tuple[str, dict[str, Any]]:
    """A preset's text and options, classic or modern."""
    return PRESETS[name] if name in PRESETS else MODERN_PRESETS[name]


# Presets made for a number of players: the command line seats that many by default.
PRESET_PLAYERS: dict[str, int] = {"two-player": 2}

OPTION_HELP: dict[str, str] = {
    # (plain words: the page shows them to players; ``unokit rules`` lists the values)
    "deck": "which deck: the classic one, a 2018 edition (with Swap Hands or Shuffle Hands "
    "cards) or My First UNO; Flip and No Mercy are games of their own",
    "custom_rule": "the house rule of Wild Customizable cards",
    "custom_cards": "how many Wild Customizable cards are in a 112-card deck (0-3)",
    "hand_size": "cards dealt to each player (7; 5 with My First UNO)",
    "target_score": "points that end the game",
    "scoring": "standard, low, elimination, teams or first-out",
    "wild_points": "points of a plain Wild left in hand",
    "uno_penalty": "cards drawn when caught not calling UNO",
    "false_uno_penalty": "cards drawn for calling UNO without one card (0 = none)",
    "wd4_bluffing": "may a Wild Draw Four be played while holding the colour in force",
    "wd4_guilty": "what a guilty Wild Draw Four costs: four cards, or those and the card "
    "taken back",
    "draw_until_playable": "keep drawing until a playable card comes",
    "force_play_drawn": "a playable drawn card must be played",
    "stacking": "off, pass (pass the penalty on) or progressive (penalties add up)",
    "stack_draw4_on_draw2": "progressive stacking: a W+4 may answer a Draw Two",
    "multi_play": "play several cards of the same number at once",
    "jump_in": "play an identical card out of turn",
    "seven_zero": "a 7 swaps hands with a chosen player, a 0 passes all hands on",
    "attack_launcher": "UNO Attack's launcher fires 0-12 cards instead of a draw",
    "launcher_weights": "13 weights: how likely the launcher fires 0..12 cards",
}

# The modern games' options, apart: the classic front ends (the web lobby) list
# OPTION_HELP and play only classic cards so far; `unokit rules` lists both.
MODERN_OPTION_HELP: dict[str, str] = {
    "flip_pairing": "flip: how light faces pair with dark faces (a seeded random pairing)",
    "flip_start": "flip: a Flip start card is redrawn, or flips the round at once",
    "flip_inverts_discard": "flip: a flip turns the whole discard pile over (the sheet)",
    "flip_exposed_action": "flip: the action of a face a flip exposes happens",
    "flip_wild_color": "flip: who names the colour of a wild a flip exposes: the flipper or the "
    "next player",
    "flip_last_card": "flip: a Flip played as the last card still flips, or not",
    "nm_deck": "no-mercy: which of the published card counts the deck has",
    "nm_voluntary_draw": "no-mercy: a player with a playable card may draw instead",
    "nm_stack_threshold": "no-mercy: a stack answer must reach the last card or the total",
    "nm_stack_match_color": "no-mercy: a stack answer must also match colour or symbol",
    "nm_stack_deflect": "no-mercy: a Skip or Reverse passes a pending stack on",
    "mercy_limit": "no-mercy: cards that knock a player out (0 = no Mercy rule)",
    "nm_knockout_cards": "no-mercy: a knocked-out hand is set aside or put under the discard pile",
    "nm_last_card_effect": "no-mercy: a final card's effect still happens",
    "nm_roulette_color": "no-mercy: after a Roulette, the victim's or the player's colour",
}


def _coerce(name: str, value: Any) -> Any:
    if name == "launcher_weights" and isinstance(value, list):
        return tuple(value)
    return value


def from_preset(preset: str = "classic", options: Mapping[str, Any] | None = None) -> RuleSet:
    """Build a RuleSet from a preset name and option overrides (RECORD.md ``rules``)."""
    if preset not in PRESETS and preset not in MODERN_PRESETS:
        raise RulesError(
            f"unknown preset {preset!r}; choose one of {', '.join([*PRESETS, *MODERN_PRESETS])}",
            code="bad_preset",
        )
    merged: dict[str, Any] = dict(preset_description(preset)[1])
    valid = {f.name for f in dataclasses.fields(RuleSet)} - {"preset"}
    for key, value in (options or {}).items():
        if key not in valid:
            raise RulesError(f"unknown option {key!r}", code="bad_option")
        merged[key] = _coerce(key, value)
    return RuleSet(preset=preset, **merged)


def parse_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from the command line, with the value typed by the option."""
    if "=" not in text:
        raise RulesError(f"option {text!r} must look like KEY=VALUE")
    key, raw = (s.strip() for s in text.split("=", 1))
    names = {f.name for f in dataclasses.fields(RuleSet)} - {"preset"}
    if key not in names:
        raise RulesError(f"unknown option {key!r}; `unokit rules` lists them", code="bad_option")
    default = getattr(RuleSet(), key)
    value: Any
    if isinstance(default, bool):
        low = raw.lower()
        if low in ("1", "true", "yes", "on"):
            value = True
        elif low in ("0", "false", "no", "off"):
            value = False
        else:
            raise RulesError(f"option {key} must be true or false, not {raw!r}")
    elif isinstance(default, int) or key == "hand_size":
        try:
            value = int(raw)
        except ValueError:
            raise RulesError(f"option {key} must be a whole number, not {raw!r}") from None
    elif key == "launcher_weights":
        try:
            value = tuple(int(x) for x in raw.split(","))
        except ValueError:
            raise RulesError("launcher_weights must be 13 comma-separated numbers") from None
    else:
        value = raw
    return key, value
