"""What a simulation runs: rules, seats, games, seed; and the players that fill the seats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unokit.bots import BOTS
from unokit.engine.family import plays
from unokit.rules import RulesError, RuleSet, from_preset, parse_option
from unokit.simbase import FAST_PLAYERS, SimError

ENGINES = ("python", "compiled")  # the reference engine, and unokit.compiled
# Options that --reference adds (the rules of the published check, docs/simulations.md).
REFERENCE_OPTIONS: tuple[tuple[str, Any], ...] = (("wd4_bluffing", False), ("uno_penalty", 0))

# the games the compiled engine plays (unokit.compiled), declared
COMPILED_GAMES = frozenset({"classic", "flip", "no-mercy"})


def player_names() -> list[str]:
    """Every name ``--bots`` accepts."""
    return [*FAST_PLAYERS, *(n for n in BOTS if n not in FAST_PLAYERS), *(f"bot:{n}" for n in BOTS)]


def check_player(name: str) -> None:
    if name in FAST_PLAYERS or name in BOTS or (name.startswith("bot:") and name[4:] in BOTS):
        return
    raise SimError(f"unknown player {name!r}; choose from {', '.join(player_names())}")


def parse_seats(text: str | None, players: int | None) -> tuple[str, ...]:
    """``--bots`` (one name for every seat, or one per seat) and ``--players`` -> seats."""
    names = [s.strip() for s in (text or "random").split(",")]
    if any(not s for s in names):
        raise SimError(f"--bots {text!r} has an empty name")
    for name in names:
        check_player(name)
    if len(names) == 1:
        return tuple(names * (players if players is not None else 2))
    if players is not None and players != len(names):
        raise SimError(f"--bots names {len(names)} seats but --players is {players}")
    return tuple(names)


def parse_rules_spec(spec: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """``PRESET`` or ``PRESET:KEY=VALUE:KEY=VALUE`` (for ``--compare``)."""
    preset, *opts = spec.split(":")
    return preset.strip(), tuple(parse_option(o) for o in opts)


@dataclass(frozen=True)
class SimConfig:
    """One simulation: N games of one rule set with the same seats.

    ``rounds_only``: each game is one round, won by the first player out; otherwise a
    game runs to the rules' end (``target_score`` and the scoring rule).  ``dealer``:
    the first dealer's seat, or None for a uniformly random seat per game.
    """

    preset: str = "classic"
    options: tuple[tuple[str, Any], ...] = ()
    seats: tuple[str, ...] = ("random", "random")
    games: int = 10_000
    seed: int = 0
    rounds_only: bool = False
    dealer: int | None = None
    label: str = field(default="")
    engine: str = "python"
    check: int = 0  # compiled engine: replay every check-th game through the reference

    def __post_init__(self) -> None:
        if self.games < 1:
            raise SimError(f"--games must be at least 1, not {self.games}")
        if self.engine not in ENGINES:
            raise SimError(f"unknown engine {self.engine!r}; choose one of {', '.join(ENGINES)}")
        if self.check < 0:
            raise SimError(f"--check must be a positive number of games, not {self.check}")
        if self.check and self.engine != "compiled":
            raise SimError("--check replays compiled games: it needs --engine compiled")
        for name in self.seats:
            check_player(name)
        rules = self.rules()  # raises RulesError for a bad preset or option
        if self.engine == "compiled" and not plays(COMPILED_GAMES, rules):
            raise SimError(
                f"the compiled engine does not play deck={rules.deck!r}: use --engine python"
            )
        rules.check_players(len(self.seats))
        if self.dealer is not None and not 0 <= self.dealer < len(self.seats):
            raise SimError(f"--dealer must be a seat from 0 to {len(self.seats) - 1}")
        if not self.label:
            object.__setattr__(self, "label", self.default_label())
        if self.engine == "compiled":
            from unokit import compiled

            if not compiled.available():
                raise SimError(compiled.INSTALL_HINT)
            why = compiled.unsupported(self.seats, rules)
            if why:
                raise SimError(why)

    @property
    def players(self) -> int:
        return len(self.seats)

    def rules(self) -> RuleSet:
        try:
            return from_preset(self.preset, dict(self.options))
        except TypeError as e:  # pragma: no cover - from_preset validates types
            raise RulesError(str(e)) from None

    def default_label(self) -> str:
        extra = ":".join(f"{k}={_text(v)}" for k, v in self.options)
        return self.preset + (f":{extra}" if extra else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "preset": self.preset,
            "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.options},
            "rules": self.rules().options(),
            "players": self.players,
            "seats": list(self.seats),
            "games": self.games,
            "seed": self.seed,
            "mode": "rounds" if self.rounds_only else "games",
            "dealer": "random" if self.dealer is None else self.dealer,
            "engine": self.engine,
        }


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    return str(v)
