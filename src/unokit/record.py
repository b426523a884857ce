"""Game records (shared/RECORD.md): write any game, read one, replay it checking every action.

A record is the project's common language: bug reports, scenario tests, puzzles and
saved games are all records.  Reading validates the *shape* (``RecordError``, exit 2);
replaying validates the *play* (the first illegal action stops it, exit 1).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from unokit.cards import CardError
from unokit.engine.actions import Action
from unokit.engine.errors import ActionParseError, IllegalAction, ShuffleError
from unokit.engine.family import new_game
from unokit.engine.game import Game, RoundLog
from unokit.errors import UnoError
from unokit.rules import RulesError, RuleSet, from_preset

FORMAT = "uno-record/1"


class RecordError(UnoError):
    """A record that is not valid JSON or not of RECORD.md's shape (exit status 2)."""

    code = "bad_record"


@dataclass
class RoundSpec:
    dealer: int
    deck: list[int] | None
    seed: int
    shuffles: list[list[int]] | None
    actions: list[tuple[int, Action]]
    launches: list[int] | None = None
    # the codes as written; the game turns them into its cards at replay (a Flip
    # deck's codes also carry the light/dark pairing, FLIP-DECK-3); ``deck`` and
    # ``shuffles`` are for records built in code with card ids
    deck_codes: list[str] | None = None
    shuffle_codes: list[list[str]] | None = None


@dataclass
class Record:
    rules: RuleSet
    players: list[str]
    rounds: list[RoundSpec] = field(default_factory=list)


# --------------------------------------------------------------------- writing -----
def record_of(game: Game) -> dict[str, Any]:
    """The record of everything ``game`` has played so far, replayable anywhere."""
    return {
        "format": FORMAT,
        "rules": game.rules.to_spec(),
        "players": list(game.names),
        "rounds": [_round_json(game, r) for r in game.rounds],
    }


def _round_json(game: Game, r: RoundLog) -> dict[str, Any]:
    """A round in the game's own codes (its codec: cards, actions)."""
    code = game.code_of
    out: dict[str, Any] = {"dealer": r.dealer, "deck": [code(c) for c in r.deck], "seed": r.seed}
    if r.shuffles:
        out["shuffles"] = [[code(c) for c in s] for s in r.shuffles]
    if r.launches:
        out["launches"] = list(r.launches)
    out["actions"] = [game.action_json(a, seat) for seat, a in r.actions]
    return out


def dumps(game: Game) -> str:
    """A record as text: one action per line, so diffs of records read well."""
    rec = record_of(game)
    rounds_txt = []
    for r in rec["rounds"]:
        head = {k: v for k, v in r.items() if k != "actions"}
        head_txt = json.dumps(head)[:-1]
        acts = ",\n        ".join(json.dumps(a) for a in r["actions"])
        rounds_txt.append(f'{head_txt}, "actions": [\n        {acts}\n      ]}}')
    rounds_joined = ",\n    ".join(rounds_txt)
    return (
        "{\n"
        f'  "format": {json.dumps(rec["format"])},\n'
        f'  "rules": {json.dumps(rec["rules"])},\n'
        f'  "players": {json.dumps(rec["players"])},\n'
        f'  "rounds": [\n    {rounds_joined}\n  ]\n'
        "}\n"
    )


# --------------------------------------------------------------------- reading -----
def loads(text: str) -> Record:
    """Parse a record; RecordError says what is wrong with its shape."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        if e.msg.startswith("Unexpected UTF-8 BOM"):  # Python's words: "use utf-8-sig"
            raise RecordError(
                "the file starts with a byte-order mark (BOM); save it as UTF-8 without one"
            ) from None
        raise RecordError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None
    except ValueError as e:  # a number of more digits than Python converts, or worse
        if "digits" in str(e):  # Python's words: "use sys.set_int_max_str_digits()"
            most = sys.get_int_max_str_digits()
            raise RecordError(f"not a record: a number has more than {most:,} digits") from None
        raise RecordError(f"not a record: {e}") from None
    try:
        return parse(obj)
    except RecursionError:  # a deeply nested value inside an otherwise valid document
        raise RecordError("not a record: a value is nested too deeply") from None


def parse(obj: Any) -> Record:
    if not isinstance(obj, dict):
        raise RecordError("a record must be a JSON object")
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unknown format {fmt!r}; expected {FORMAT!r}")
    rules_obj = obj.get("rules", {})
    if not isinstance(rules_obj, dict):
        raise RecordError("'rules' must be an object with 'preset' and 'options'")
    extra = sorted(set(rules_obj) - {"preset", "options"})
    if extra:  # read as if absent, a typo changed the game without a word (issue 49)
        raise RecordError(
            f"'rules' has unknown keys: {', '.join(map(str, extra))}"
            " (it takes 'preset' and 'options')"
        )
    preset = rules_obj.get("preset", "classic")
    options = rules_obj.get("options", {})
    if not isinstance(preset, str) or not isinstance(options, dict):
        raise RecordError("'rules' needs a preset name and an 'options' object")
    try:
        rules = from_preset(preset, options)
    except RulesError as e:
        raise RecordError(f"bad rules: {e}") from None
    except TypeError as e:  # a value of the wrong JSON type slipped past
        raise RecordError(f"bad rules: {e}") from None
    players = obj.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names, one per seat")
    try:
        rules.check_players(len(players))
    except RulesError as e:
        raise RecordError(str(e)) from None
    rounds = obj.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("'rounds' must be a list")
    # a game of the record's kind knows its codes (a Flip deck's codes also carry the
    # light/dark pairing, FLIP-DECK-3, so its cards are known only once a round deals)
    codec = new_game(rules, players, seed=0, start=False, events=False, record=False)
    specs = [_parse_round(r, i, len(players), codec) for i, r in enumerate(rounds)]
    return Record(rules=rules, players=list(players), rounds=specs)


def _codes(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"{where} must be a list of card codes")
    return list(value)


def _parse_round(r: Any, i: int, n: int, codec: Game) -> RoundSpec:
    where = f"round {i}"
    if not isinstance(r, dict):
        raise RecordError(f"{where} must be an object")
    dealer = r.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise RecordError(f"{where}: 'dealer' must be a seat from 0 to {n - 1}")
    seed = r.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"{where}: 'seed' must be a whole number")
    if "deck" not in r and "seed" not in r:
        raise RecordError(f"{where} needs a 'deck', a 'seed', or both")
    deck = _codes(r["deck"], f"{where} deck") if "deck" in r else None
    shuffles = None
    if "shuffles" in r:
        if not isinstance(r["shuffles"], list):
            raise RecordError(f"{where}: 'shuffles' must be a list of card lists")
        shuffles = [_codes(s, f"{where} shuffles[{k}]") for k, s in enumerate(r["shuffles"])]
    launches = None
    if "launches" in r:
        if not codec.rules.attack_launcher:
            raise RecordError(f"{where}: 'launches' needs the attack_launcher rule")
        ls = r["launches"]
        if not isinstance(ls, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 12 for x in ls
        ):
            raise RecordError(f"{where}: 'launches' must be a list of numbers from 0 to 12")
        launches = list(ls)
    acts = r.get("actions", [])
    if not isinstance(acts, list):
        raise RecordError(f"{where}: 'actions' must be a list")
    actions = []
    for k, a in enumerate(acts):
        try:
            actions.append(codec.action_from_json(a))
        except ActionParseError as e:
            raise RecordError(f"{where} action {k}: {e}") from None
    cards = shuffled = None
    if codec.FIXED_CODES:  # the cards are known now: a bad code is refused at once
        try:
            if deck is not None:
                cards = codec.cards_from_codes(deck, f"{where} deck")
            if shuffles is not None:
                shuffled = [
                    codec.cards_from_codes(s, f"{where} shuffles[{k}]")
                    for k, s in enumerate(shuffles)
                ]
        except CardError as e:
            raise RecordError(str(e)) from None
        return RoundSpec(dealer, cards, seed, shuffled, actions, launches)
    return RoundSpec(dealer, None, seed, None, actions, launches, deck, shuffles)


# --------------------------------------------------------------------- replay ------
@dataclass
class ReplayResult:
    ok: bool
    game: Game | None
    round: int
    error_action: int | None = None
    error_round: int | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        err = None
        if not self.ok:
            err = {"action": self.error_action, "round": self.error_round, "message": self.message}
        return {
            "ok": self.ok,
            "error": err,
            "round": self.round,
            "state": self.game.state_json() if self.game is not None else None,
        }


def replay(record: Record) -> ReplayResult:
    """Apply every action of every round with full checks.

    Raises RecordError for a record whose cards do not fit its rules (a deck that is
    not part of the rule set's deck, a shuffle that is not a reordering).
    """
    try:
        game = new_game(record.rules, record.players, seed=0, start=False)
    except RulesError as e:
        raise RecordError(f"bad rules: {e}") from None
    if any(r.launches for r in record.rounds) and not record.rules.attack_launcher:
        raise RecordError("'launches' needs the attack_launcher rule")
    for ri, spec in enumerate(record.rounds):
        if ri > 0 and not game.round_over:
            return ReplayResult(
                False,
                game,
                ri - 1,
                len(record.rounds[ri - 1].actions),
                ri - 1,
                f"round {ri - 1} is not over, but the record starts round {ri}",
            )
        if game.game_over:
            raise RecordError(f"the game ended in round {ri - 1}, yet the record has round {ri}")
        try:
            try:
                start_recorded_round(game, spec, ri)
            except IllegalAction as e:
                raise RecordError(f"round {ri}: {e}") from None
            for ai, (seat, action) in enumerate(spec.actions):
                try:
                    game.check(seat, action)
                except IllegalAction as e:
                    return ReplayResult(False, game, ri, ai, ri, e.message)
                game.apply_trusted(seat, action)
            left = game.unused_record_entries()
            if left is not None:
                raise RecordError(f"round {ri}: {left} (the round needed no more)")
        except ShuffleError as e:
            raise RecordError(f"round {ri}: {e}") from None
    return ReplayResult(True, game, max(game.round_index, 0))


def start_recorded_round(game: Game, spec: RoundSpec, ri: int) -> None:
    """Start a round from its codes (RecordError for a card the game lacks)."""
    try:
        deck = spec.deck
        if spec.deck_codes is not None:
            deck = game.cards_from_codes(spec.deck_codes, f"round {ri} deck")
        shuffles = spec.shuffles
        if spec.shuffle_codes is not None:
            shuffles = [
                game.cards_from_codes(s, f"round {ri} shuffles[{k}]")
                for k, s in enumerate(spec.shuffle_codes)
            ]
    except CardError as e:
        raise RecordError(str(e)) from None
    game.start_round(spec.dealer, deck, spec.seed, shuffles, spec.launches)


def replay_text(text: str) -> tuple[int, dict[str, Any] | str]:
    """``unokit replay``'s whole job: (exit status, JSON result or error message)."""
    try:
        rec = loads(text)
        result = replay(rec)
    except RecordError as e:
        return 2, f"malformed record: {e}"
    return (0 if result.ok else 1), result.to_json()
