"""The wire protocol (docs/protocol.md): its examples, its tables, and the round trips.

Every example block of docs/protocol.md is checked here against the engine and the
server's models; every event kind and error code is documented; every legal action of
random games under random rule sets round-trips through its text and JSON forms.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from test_properties import players_for, rule_sets
from unokit.cards import build_deck
from unokit.engine import Action, Game, IllegalAction, view_of
from unokit.engine.events import FIELDS, EventKind
from unokit.errors import CODES, UnoError
from unokit.rules import PRESETS, RuleSet, from_preset
from unokit.server.codes import ALL_CODES, SERVER_CODES
from unokit.server.messages import CLIENT

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text("utf-8")


def blocks(kind: str) -> list[Any]:
    found = re.findall(rf"```json {kind}\n(.*?)```", DOC, flags=re.S)
    assert found, f"docs/protocol.md has no {kind} example"
    return [json.loads(b) for b in found]


def test_view_example_has_exactly_the_fields_a_view_sends() -> None:
    g = Game(RuleSet(), ["Ana", "Ben", "Cy"], seed=3)
    real = view_of(g, g.current).to_json()
    (example,) = blocks("view")
    assert example == real  # the example is this very game's view
    for field in real:
        assert re.search(rf"^\| [^|]*`{field}`", DOC, flags=re.M), field


def test_action_examples_round_trip() -> None:
    for obj in blocks("action"):
        a = Action.from_wire(obj)
        assert a.to_wire() == obj
        assert Action.parse(str(a)) == a


def test_event_examples_name_their_fields() -> None:
    for obj in blocks("event"):
        kind = EventKind(obj["kind"])
        names = {n for n, *_ in FIELDS[kind]}
        assert set(obj) - {"kind", "seq"} <= names, obj


def test_client_message_examples_are_accepted_by_the_server_models() -> None:
    for obj in blocks("client"):
        CLIENT.validate_python(obj)


def test_error_and_server_examples_use_registered_codes() -> None:
    for obj in blocks("error"):
        assert obj["type"] == "error" and obj["code"] in ALL_CODES
    types = {obj["type"] for obj in blocks("server")}
    assert types == {"state", "room"}


def test_every_event_kind_and_error_code_is_documented() -> None:
    events = DOC[DOC.index("| kind | fields |") :]
    for kind, fields in FIELDS.items():
        row = next(line for line in events.splitlines() if line.startswith(f"| `{kind.value}` |"))
        for name, *_ in fields:
            assert f"`{name}`" in row, (kind, name)
    assert set(FIELDS) == set(EventKind)
    for code in ALL_CODES:
        assert f"| `{code}` |" in DOC, code


def _codes_in(path: Path) -> set[str]:
    text = path.read_text("utf-8")
    used: set[str] = set()
    used |= set(re.findall(r'code="([a-z_0-9]+)"', text))
    used |= set(re.findall(r'\n    code = "([a-z_0-9]+)"', text))
    used |= set(re.findall(r'_err\("([a-z_0-9]+)"', text))
    used |= set(re.findall(r'_refuse\(\s*\w+, "([a-z_0-9]+)"', text))
    used |= set(re.findall(r'error\(\d+, "([a-z_0-9]+)"', text))
    used |= set(re.findall(r'return "([a-z_0-9]+)", f?"', text))  # (code, message) pairs
    return used


def test_every_code_the_package_raises_is_registered_in_its_layer() -> None:
    """The core raises only core codes; the server its own or the core's."""
    src = ROOT / "src" / "unokit"
    core: set[str] = set()
    server: set[str] = set()
    for path in src.rglob("*.py"):
        (server if "server" in path.parts else core).update(_codes_in(path))
    assert core and server, "the scan found no codes"
    assert core - set(CODES) == set()
    assert server - set(ALL_CODES) == set()
    assert not set(CODES) & set(SERVER_CODES), "a code registered in two layers"


def test_one_error_root() -> None:
    from unokit.cards import CardError
    from unokit.engine.errors import ActionParseError, ShuffleError
    from unokit.record import RecordError
    from unokit.rules import RulesError

    for cls in (CardError, ActionParseError, ShuffleError, RecordError, RulesError, IllegalAction):
        assert issubclass(cls, UnoError)
        assert cls.code in CODES


# ----------------------------------------------------------------- spectators ----
def test_spectator_view_and_events_hold_no_private_card() -> None:
    g = Game(RuleSet(), 3, seed=5)
    v = view_of(g, None)
    assert v.hand == () and v.legal == () and v.seat == -1
    j = v.to_json()
    assert j["hand"] is None and j["seat"] is None and j["legal"] == []
    public = g.events_for(None)
    assert public and all(e.only < 0 for e in public)
    assert not any(e.kind in ("deal", "draw") and e.cards for e in public)
    assert sum(e.kind == "deal" for e in public) == 3  # one redacted deal per seat


@pytest.mark.parametrize("seat", [-1, 3, 99, True, "0", 1.0])
def test_a_seat_that_is_not_a_seat_is_refused(seat: Any) -> None:
    g = Game(RuleSet(), 3, seed=5)
    with pytest.raises(UnoError) as e:
        view_of(g, seat)
    assert e.value.code == "bad_seat"
    with pytest.raises(UnoError) as e:
        g.events_for(seat)
    assert e.value.code == "bad_seat"


def test_outcome_replaces_minus_one_markers() -> None:
    g = Game(from_preset("my-first-uno"), 2, seed=1)
    o = g.outcome()
    assert (o.round_over, o.round_winner, o.game_winner) == (False, None, None)
    from unokit.bots import RandomBot, play_game

    play_game(g, [RandomBot(1), RandomBot(2)])
    o = g.outcome()
    assert o.game_over and o.game_winner == g.game_winner and o.winning_seats == (o.game_winner,)


# ----------------------------------------------------------------- round trips ---
def check_round_trips(g: Game) -> None:
    for seat in range(g.n):
        for a in g.legal_actions(seat):
            assert Action.parse(str(a)) == a, str(a)
            assert Action.from_json(a.to_json(seat)) == (seat, a)
            assert Action.from_wire(a.to_wire()) == a


def test_swap_hands_start_colour_round_trips() -> None:
    """R-START-SWAP: the start card's colour and target survive both forms."""
    a = Action.parse("color B 2")
    assert (a.color, a.target) == (3, 2)
    assert str(a) == "color B 2"
    assert Action.from_json(a.to_json(0)) == (0, a)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=rule_sets(), seed=st.integers(0, 2**32))
def test_every_legal_action_round_trips_under_random_rules(
    data: st.DataObject, rules: RuleSet, seed: int
) -> None:
    n = players_for(data.draw, rules)
    deck = len(build_deck(rules.deck, rules.custom_cards))
    assume(n * rules.deal_size <= deck - 12)  # leave a start card that can be kept
    g = Game(rules, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(150):
        if g.game_over:
            break
        if g.round_over:
            g.start_round()
            continue
        check_round_trips(g)
        for e in g.events or []:
            e.to_json()  # every kind the engine emits has a wire form
        actors = g.actors()
        seat = rng.choice(actors)
        legal = g.legal_actions(seat)
        g.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_emits_only_documented_events(preset: str) -> None:
    from unokit.bots import RandomBot, play_game

    rules = from_preset(preset)
    n = 4
    g = Game(rules, n, seed=11)
    play_game(g, [RandomBot(i) for i in range(n)])
    kinds = {e.kind for e in g.events or []}
    assert kinds <= {k.value for k in EventKind}
    for e in g.events or []:
        j = e.to_json()
        assert j["kind"] == e.kind


def test_catch_refusal_reads_well() -> None:
    """R-UNO-2: a catch of a seat without exactly one card says why, in plain English."""
    g = Game(RuleSet(), ["Ana", "Ben", "Cy"], seed=5)
    with pytest.raises(IllegalAction) as e:
        g.apply(0, Action.parse("catch 1"))
    assert "Ben cannot be caught: they do not have exactly one card" in e.value.message


def test_events_are_read_as_typed_records_not_by_kind_strings() -> None:
    """Events as values (issue 34): every kind has a typed record whose fields are the
    wire form's, and no consumer outside the events module compares kind strings."""
    from unokit.engine.events import RECORDS, event_json

    assert set(RECORDS) == set(EventKind)
    rename = {"with": "other", "count": "n"}
    for kind, fields in FIELDS.items():
        names = tuple(rename.get(name, name) for name, *_ in fields)
        assert RECORDS[kind]._fields == names, kind
    g = Game(RuleSet(stacking="progressive", seven_zero=True, jump_in=True), 4, seed=3)
    rng = random.Random(2)
    while not g.round_over:
        s = rng.choice(g.actors())
        g.apply(s, rng.choice(g.legal_actions(s)))
    assert g.events
    for e in g.events:
        data = e.data
        assert isinstance(data, RECORDS[e.kind])
        wire = event_json(e)
        for (name, *_), value in zip(FIELDS[e.kind], data, strict=True):
            if name in wire and name not in ("card", "cards", "color", "target", "guilty"):
                assert wire[name] == value, (e.kind, name)
    kinds = "|".join(k.value for k in EventKind)
    pattern = re.compile(rf'kind\s*(==|!=|in)\s*[(\[{{]?\s*"({kinds})"')
    for path in (ROOT / "src" / "unokit").rglob("*.py"):
        if path.name == "events.py":
            continue
        text = path.read_text("utf-8")
        assert not pattern.search(text), f"{path}: compares an event kind as a string"
