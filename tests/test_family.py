"""The family's conformance suite: every registered game passes the same tests.

OpenSpiel runs one random-simulation test over every game it knows; here every game in
``engine.family.GAMES`` meets the contract of ``family.Game`` under random option sets of
its own (drawn from the rules tables ``GAME_OPTIONS`` and the choice tables beside it)
and 2 to its most players.  A new game is tested by registering it:

- R-TURN-7: random games go to the end through the checked ``apply``; every listed
  action is accepted, and at each probed decision actions that are not listed (random
  ints, another seat's actions, other cards, seats that do not exist) are refused with a
  ``UnoError`` and change nothing.
- records and stored matches: a game's record replays to its final state; a
  ``uno-match/1`` state stored mid-game loads and plays on identically.
- FLIP-VIEW-1..3 and the no-leak rule (STYLE.md, 5): every card a seat cannot see dealt
  again changes neither its view nor its events.
- the codec: every legal action reads back from its text and its JSON; every event has a
  JSON form.
- FLIP-OPT-1, NM-OPT-1: the descriptor names exactly the options the rules accept for
  the game; another game's option, or one of ``GAME_REFUSED``, is refused (``bad_option``).

The rules tables and the registry must name the same games
(``test_every_game_of_the_rules_tables_is_registered``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from unokit.cards import CARD_CODE, COLOR_CODES, parse_card, parse_color
from unokit.engine import ACCEPT, DRAW, PLAY, UNO, Action, Game, family
from unokit.engine.state import from_json, new_match, next_round_in_place, to_json
from unokit.errors import UnoError
from unokit.record import dumps as record_dumps
from unokit.record import loads as record_loads
from unokit.record import replay
from unokit.rules import (
    CUSTOM_RULES,
    DEFAULT_LAUNCHER_WEIGHTS,
    GAME_DECKS,
    GAME_OPTIONS,
    GAME_REFUSED,
    GAME_SCORINGS,
    MODERN_CHOICES,
    STACKINGS,
    WD4_GUILTY,
    RulesError,
    RuleSet,
    from_preset,
    options_of_game,
)

# the games under test: every registered game
NAMES = sorted(family.GAMES)

# A few decisions per game are probed with refused actions and dealt-again views; the
# rest is plain random play, so that whole games fit the budget (the file runs in well
# under a minute of CPU; the long runs are test_properties and test_modern_properties).
EXAMPLES = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
ROUND_CAP = 2_000  # decisions in one round before a drifting rule set counts as stalled

MAX_PROBED = 25  # decisions probed with refused actions in one game
FIELDS = RuleSet.__dataclass_fields__


# ---------------------------------------------------------------- the contract -------
# thin names for the contract's calls, so each test reads as what it checks
def _new(rules: RuleSet, players: int, seed: int) -> Game:
    return family.new_game(rules, players, seed)


def _to_obj(g: Game) -> dict[str, Any]:
    return g.to_json_obj()


def _from_obj(g: Game, obj: dict[str, Any]) -> Game:
    return Game.from_json_obj(obj)


def _view_json(g: Game, seat: int | None) -> Any:
    return g.view(seat).to_json()


def _event_json(g: Game, e: Any) -> dict[str, Any]:
    return g.event_json(e)


def _descriptor(name: str, g: Game) -> dict[str, Any]:
    return type(g).descriptor()


def _state(g: Game) -> str:
    return json.dumps(_to_obj(g), sort_keys=True)


# ---------------------------------------------------------------- random rules -------
def _values(game: str, option: str) -> st.SearchStrategy[Any]:
    """The values worth drawing for ``option`` of ``game`` (small numbers keep the
    games short; choice options take every value of their table)."""
    if option == "deck":
        return st.sampled_from(GAME_DECKS[game])
    if option == "scoring":
        return st.sampled_from(GAME_SCORINGS[game])
    if option in MODERN_CHOICES:
        return st.sampled_from(MODERN_CHOICES[option])
    tables: dict[str, st.SearchStrategy[Any]] = {
        "custom_rule": st.sampled_from(CUSTOM_RULES),
        "custom_cards": st.integers(0, 3),
        "hand_size": st.integers(1, 8),
        "target_score": st.sampled_from([1, 40, 120, 250]),
        "wild_points": st.sampled_from([0, 20, 50]),
        "uno_penalty": st.integers(0, 4),
        "false_uno_penalty": st.integers(0, 2),
        "wd4_guilty": st.sampled_from(WD4_GUILTY),
        "stacking": st.sampled_from(STACKINGS),
        "mercy_limit": st.sampled_from([0, 12, 25, 40]),
        # a launcher that fires many cards a press makes rounds drift: lean to few
        "launcher_weights": st.builds(
            lambda first, tail: (first, *tail),
            st.integers(20, 60),
            st.lists(st.integers(0, 2), min_size=12, max_size=12),
        ),
    }
    if option in tables:
        return tables[option]
    if isinstance(FIELDS[option].default, bool):
        return st.booleans()
    raise AssertionError(f"option {option!r} of {game!r} has no values to draw in test_family")


@st.composite
def game_rules(draw: st.DrawFn, game: str) -> RuleSet:
    """A random option set of ``game`` that the rules accept (others are skipped)."""
    # target_score always: whole games to 500 points are many rounds (the long runs
    # are test_properties' and test_modern_properties')
    options = {
        opt: draw(_values(game, opt))
        for opt in options_of_game(game)
        if opt == "target_score" or draw(st.booleans())
    }
    try:
        rules = from_preset(game if game in GAME_OPTIONS else "classic", options)
    except RulesError:
        assume(False)
        raise
    return rules


def _drifts(rules: RuleSet) -> bool:
    """Rule sets that hand out more cards than turns shed: random rounds may go on for
    a very long time (docs/rules.md, "Rounds that can go on and on")."""
    return (
        rules.custom_rule == "others_draw_2"
        or rules.attack_launcher
        or (rules.deck == "no-mercy" and rules.mercy_limit == 0)
    )


def _players(data: st.DataObject, rules: RuleSet) -> int:
    lo, hi = rules.player_range()
    if _drifts(rules):
        hi = min(hi, 6)
    counts = [k for k in range(lo, hi + 1) if rules.scoring != "teams" or k in (4, 6, 8)]
    assume(counts)
    return data.draw(st.sampled_from(counts), label="players")


def _start(game: str, data: st.DataObject) -> tuple[Game, random.Random]:
    rules = data.draw(game_rules(game), label="rules")
    n = _players(data, rules)
    seed = data.draw(st.integers(0, 2**32), label="seed")
    return _new(rules, n, seed), random.Random(seed)


def _choose(rng: random.Random, legal: list[Action]) -> Action:
    """Mostly a play, so that random rounds end in reasonable time."""
    plays = [a for a in legal if a.kind == PLAY]
    return rng.choice(plays if plays and rng.random() < 0.9 else legal)


def _next_round(g: Game) -> None:
    """Deal the next round as a match does (the next dealer, the round's own RNG)."""
    next_round_in_place(new_match(g))


def _step(g: Game, rng: random.Random) -> tuple[int, Action] | None:
    """One random decision (``None`` when the game is over); a new round is dealt."""
    if g.game_over:
        return None
    if g.round_over:
        _next_round(g)
    seat = rng.choice(g.actors())
    return seat, _choose(rng, g.legal_actions(seat))


# ---------------------------------------------------------------- a: the checks ------
def _probes(g: Game, seat: int, rng: random.Random) -> list[tuple[Any, Action]]:
    """Decisions that ``seat`` may not take: random ints, another seat's actions, other
    cards in listed actions, and listed actions from seats that do not exist."""
    legal = g.legal_actions(seat)
    size = g.card_count()  # the deck's size
    out: list[tuple[Any, Action]] = []
    for _ in range(3):
        out.append((seat, Action(
            rng.randrange(8), rng.randrange(-1, size + 2), rng.randrange(-2, 6),
            rng.randrange(-2, g.n + 2), rng.random() < 0.3,
        )))  # fmt: skip
    for other in range(g.n):
        if other != seat:
            out.extend((seat, a) for a in g.legal_actions(other)[:3])
    for a in legal[:4]:
        if a.card >= 0:
            out.append((seat, a._replace(card=rng.randrange(size))))
            out.append((seat, a._replace(card=size + rng.randrange(50))))
        out.append((rng.choice([-1, g.n, g.n + 3, None, "0", True]), a))
    return [(s, a) for s, a in out if not (s == seat and a in legal)]


def _spelling(action: Action, legal: list[Action]) -> bool:
    """Another spelling of a listed decision, which the classic checks accept
    (``engine.checks.canonical``): an UNO call at any time (R-UNO-3), a play's UNO flag,
    ``draw`` while a hit waits (``accept``), a multi-play's middle cards in any order."""
    if action.kind == UNO:
        return True
    if action.kind == DRAW:
        return Action(ACCEPT) in legal
    key = (action.kind, action.card, action.color, action.target, sorted(action.extra))
    return any((b.kind, b.card, b.color, b.target, sorted(b.extra)) == key for b in legal)


def _assert_refused(g: Game, probes: list[tuple[Any, Action]]) -> None:
    """Each probe is refused with a message and changes nothing.  They are tried on a
    copy, so that one accepted by mistake cannot change the game played on."""
    copy, before = None, ""
    for seat, action in probes:
        if copy is None:
            copy = _from_obj(g, _to_obj(g))
            before = _state(copy)
        try:
            copy.apply(seat, action)
        except UnoError as e:
            assert e.message, f"{action} refused with no message"
            assert _state(copy) == before, f"refusing {action} for seat {seat!r} changed it"
            continue
        if not (isinstance(seat, int) and _spelling(action, g.legal_actions(seat))):
            raise AssertionError(f"{action} was accepted for seat {seat!r} but not listed: {g!r}")
        event(f"{type(g).__name__} accepts an unlisted spelling of a listed decision")
        copy = None


def _play_to_the_end(g: Game, rng: random.Random, probe: float) -> int:
    """Play through the checked ``apply``; every listed action passes ``check``, a
    share ``probe`` of the decisions are probed with refused actions.  The decisions."""
    steps = in_round = probed = 0
    total = g.card_count()
    while not g.game_over:
        if g.round_over:
            _next_round(g)
            in_round = 0
        if in_round >= ROUND_CAP:
            assert _drifts(g.rules), f"a round of {g.rules.describe()} did not end"
            event("a drifting round stalled")
            return steps
        actors = g.actors()
        assert g.current in actors, "the seat whose turn it is always has something to do"
        assert sorted(s for s in range(g.n) if g.legal_actions(s)) == sorted(actors)
        seat = rng.choice(actors)
        legal = g.legal_actions(seat)
        for a in legal:
            g.check(seat, a)
        if probed < MAX_PROBED and rng.random() < probe:
            probes = _probes(g, seat, rng)
            _assert_refused(g, rng.sample(probes, min(len(probes), 8)))
            probed += 1
        g.apply(seat, _choose(rng, legal))
        steps += 1
        in_round += 1
        assert g.card_count() == total
    return steps


@pytest.mark.parametrize("name", NAMES)
@EXAMPLES
@given(data=st.data())
def test_r_turn_7_random_games_end_every_listed_action_is_accepted_others_refused(
    name: str, data: st.DataObject
) -> None:
    g, rng = _start(name, data)
    _play_to_the_end(g, rng, probe=0.1)
    assert g.game_over or _drifts(g.rules)
    if g.game_over:
        assert g.actors() == [] and all(g.legal_actions(s) == [] for s in range(g.n))


# ---------------------------------------------------------------- b: records ---------
def _play_some(g: Game, rng: random.Random, steps: int) -> list[tuple[int, Action]]:
    done = []
    for _ in range(steps):
        got = _step(g, rng)
        if got is None:
            break
        g.apply(*got)
        done.append(got)
    return done


@pytest.mark.parametrize("name", NAMES)
@EXAMPLES
@given(data=st.data())
def test_records_replay_and_stored_matches_play_on_identically(
    name: str, data: st.DataObject
) -> None:
    g, rng = _start(name, data)
    _play_some(g, rng, data.draw(st.integers(0, 150), label="steps"))
    # a stored match, loaded mid-game, plays on as the original does
    stored = json.dumps(to_json(new_match(g)))
    other = from_json(json.loads(stored)).game
    assert type(other) is type(g)
    assert _state(other) == _state(g)
    for _ in range(150):
        got = _step(g, rng)
        if got is None:
            break
        if other.round_over:
            _next_round(other)
        g.apply(*got)
        other.apply(*got)
    assert _state(other) == _state(g)
    # its record replays, every action checked, to the same state
    result = replay(record_loads(record_dumps(g)))
    assert result.ok, result.message
    assert result.game is not None
    assert result.game.state_json() == g.state_json()
    code_of = getattr(g, "code_of", CARD_CODE.__getitem__)  # Flip's twins: by code
    assert [sorted(map(code_of, h)) for h in result.game.hands] == [
        sorted(map(code_of, h)) for h in g.hands
    ]


# ---------------------------------------------------------------- c: no leak ---------
def _hidden_places(
    name: str, obj: dict[str, Any], seat: int | None
) -> list[tuple[list[int], range]]:
    """Where the cards ``seat`` cannot see lie in ``obj`` (a game's JSON form): the
    other hands and the draw pile, and the places a game hides of its own."""
    places = [(h, range(len(h))) for s, h in enumerate(obj["hands"]) if s != seat]
    places.append((obj["pile"], range(len(obj["pile"]))))
    if name == "no-mercy":  # knocked-out hands set aside, cards face down under the discard
        places.append((obj["aside"], range(len(obj["aside"]))))
        places.append((obj["discard"], range(obj["face_down"])))
    return places


def _dealt_again(name: str, g: Game, seat: int | None, rng: random.Random) -> Game:
    """``g`` with every card ``seat`` cannot see dealt again among the hidden places
    (sizes kept), through the game's JSON form.  A card keeps what the seat sees of it:
    under UNO Flip! a card changes place only with cards of the same inactive face
    (FLIP-VIEW-2, -3), and the inactive faces of the seat's own cards are exchanged
    among them (FLIP-VIEW-1).  A drawn card the seat cannot see follows its place."""
    obj = json.loads(json.dumps(_to_obj(g)))
    places = _hidden_places(name, obj, seat)
    key: Callable[[int], Any] = lambda c: None  # noqa: E731
    if name == "flip":
        pairs, side = obj["pairs"], obj["side"]
        key = lambda c: pairs[c][1 - side]  # noqa: E731
        if seat is not None:
            mine = obj["hands"][seat]
            faces = [pairs[c][1 - side] for c in mine]
            rng.shuffle(faces)
            for c, f in zip(mine, faces, strict=True):
                pairs[c][1 - side] = f
    slots = [(lst, i) for lst, idx in places for i in idx]
    at = -1  # the drawer's drawn card, when the seat is not the drawer
    drawer = obj["hands"][obj["current"]]
    if obj["drawn"] >= 0 and obj["current"] != seat and obj["drawn"] in drawer:
        i = len(drawer) - 1 - drawer[::-1].index(obj["drawn"])
        at = next(k for k, (lst, j) in enumerate(slots) if lst is drawer and j == i)
    groups: dict[Any, list[int]] = {}
    for k, (lst, i) in enumerate(slots):
        groups.setdefault(key(lst[i]), []).append(k)
    for ks in groups.values():
        cards = [slots[k][0][slots[k][1]] for k in ks]
        rng.shuffle(cards)
        for k, c in zip(ks, cards, strict=True):
            slots[k][0][slots[k][1]] = c
    if name == "flip" and len(obj["pile"]) > 1:  # only the top card's face shows
        below = obj["pile"][:-1]
        rng.shuffle(below)
        obj["pile"][:-1] = below
    if at >= 0:
        obj["drawn"] = slots[at][0][slots[at][1]]
    return _from_obj(g, obj)


def _seen(g: Game, seat: int | None) -> tuple[Any, list[dict[str, Any]]]:
    return _view_json(g, seat), [_event_json(g, e) for e in g.events_for(seat)]


@pytest.mark.parametrize("name", NAMES)
@EXAMPLES
@given(data=st.data())
def test_flip_view_1_3_no_leak_hidden_cards_dealt_again_change_no_view_or_event(
    name: str, data: st.DataObject
) -> None:
    g, rng = _start(name, data)
    compared = 0
    for _ in range(data.draw(st.integers(1, 200), label="steps")):
        got = _step(g, rng)
        if got is None:
            break
        if rng.random() < 0.1:
            seat = rng.choice([None, *range(g.n)])
            mine = _seen(g, seat)
            for _ in range(2):
                assert _seen(_dealt_again(name, g, seat, rng), seat) == mine, seat
                compared += 1
        if not g.round_over:
            g.apply(*got)
    event(f"compared {min(compared, 10)}+ views")


# ---------------------------------------------------------------- d: the codec -------
@pytest.mark.parametrize("name", NAMES)
@EXAMPLES
@given(data=st.data())
def test_the_codec_reads_back_every_legal_action_and_writes_every_event(
    name: str, data: st.DataObject
) -> None:
    g, rng = _start(name, data)
    for _ in range(400):
        if g.game_over:
            break
        if g.round_over:
            _next_round(g)
        for seat in range(g.n):
            for a in g.legal_actions(seat):
                text = g.action_text(a)
                assert g.parse_action(text) == a, text
                obj = g.action_json(a, seat)
                assert g.action_from_json(json.loads(json.dumps(obj))) == (seat, a), obj
        code_of = getattr(g, "code_of", CARD_CODE.__getitem__)
        cards_from_codes = getattr(g, "cards_from_codes", lambda c, _: list(map(parse_card, c)))
        for c in {*g.hands[g.current], *g.discard[-1:]}:
            code = code_of(c)  # a Flip card's twin has its code: codes, not ids, agree
            assert code_of(cards_from_codes([code], "test")[0]) == code
        for face in g.shown_faces(g.discard[-1:]):
            assert isinstance(getattr(g, "face_code", code_of)(face), str)
        if g.color >= 0:
            color_code = getattr(g, "color_code", COLOR_CODES.__getitem__)
            assert getattr(g, "parse_color", parse_color)(color_code(g.color)) == g.color
        seat = rng.choice(g.actors())
        g.apply_trusted(seat, _choose(rng, g.legal_actions(seat)))
    for seat in [None, *range(g.n)]:
        for e in g.events_for(seat):
            json.dumps(_event_json(g, e))


# ---------------------------------------------------------------- e: the descriptor --
def _other_value(game: str, option: str) -> Any:
    """A value of ``option`` away from its default that the rules could accept."""
    default = FIELDS[option].default
    if isinstance(default, bool):
        return not default
    choices: dict[str, tuple[Any, ...]] = {
        **MODERN_CHOICES, "custom_rule": CUSTOM_RULES, "stacking": STACKINGS,
        "wd4_guilty": WD4_GUILTY, "scoring": GAME_SCORINGS.get(game, ()),
        "launcher_weights": (None, DEFAULT_LAUNCHER_WEIGHTS),
        "hand_size": (None, 5), "mercy_limit": (25, 40), "deck": GAME_DECKS.get(game, ()),
    }  # fmt: skip
    if option in choices:
        return next((v for v in choices[option] if v != default), default)
    assert isinstance(default, int), option
    return default + 1


@pytest.mark.parametrize("name", NAMES)
def test_flip_opt_1_nm_opt_1_the_descriptor_names_exactly_the_options_the_rules_accept(
    name: str,
) -> None:
    g = _new(from_preset(name if name in GAME_OPTIONS else "classic"), 2, 0)
    d = _descriptor(name, g)
    assert d["name"] == name == getattr(type(g), "NAME", name)
    options = d["options"]
    assert sorted(options) == sorted(options_of_game(name))
    assert set(options) <= set(FIELDS)
    for option in sorted(set(FIELDS) - {"preset"}):
        value = _other_value(name, option)
        if value == FIELDS[option].default and option not in options:
            continue  # no other value to try (a one-value choice)
        # an option outside the descriptor: another game's own, or one the game refuses
        # (GAME_REFUSED), is refused as not this game's; the rest of the classic options
        # are accepted and ignored (NM-OPT-1: what stored matches and records kept)
        theirs = {n for g, names in GAME_OPTIONS.items() if g != name for n in names}
        refused = (theirs - set(GAME_OPTIONS["classic"])) | set(GAME_REFUSED[name])
        try:
            from_preset(name, {option: value})
        except RulesError as e:
            if option in options:
                # its own options may need another option (stack_draw4_on_draw2 needs
                # progressive stacking), but are never refused as not this game's
                assert e.code != "bad_option", (option, value, e.message)
            elif option in refused:
                assert e.code == "bad_option", (option, value, e.message)
        else:
            assert option not in refused, f"{name} took {option}={value!r}"
    for key, table in (("decks", GAME_DECKS), ("scorings", GAME_SCORINGS)):
        if key in d:
            assert list(d[key]) == list(table[name]), key
    _views_within_descriptor(g, d)


def _views_within_descriptor(g: Game, d: dict[str, Any]) -> None:
    """Every phase, colour, side and card code a view shows is one the descriptor lists
    (a front end that knows only the descriptor can show every view)."""
    tables = {
        key: _names(d[key]) - {""}
        for key in ("phases", "colors", "sides", "cards")
        if d.get(key) is not None
    }
    if "colours" in d:
        tables["colors"] = _names(d["colours"])
    if not tables:
        return
    fields = {"phase": "phases", "color": "colors", "prev_color": "colors", "side": "sides"}
    cards = ("hand", "discard", "top", "others", "pile_top", "drawn", "pending")
    rng = random.Random(1)
    for _ in range(300):
        got = _step(g, rng)
        if got is None:
            break
        for seat in [None, *range(g.n)]:
            v = _view_json(g, seat)
            assert isinstance(v, dict)
            for field, key in fields.items():
                if key in tables and v.get(field) is not None:
                    assert v[field] in tables[key], (field, v[field])
            if "cards" in tables:
                shown = _flat([v.get(f) for f in cards])
                assert shown <= tables["cards"], shown - tables["cards"]
        if not g.round_over:
            g.apply(*got)


def _flat(x: Any) -> set[str]:
    if isinstance(x, str):
        return {x}
    if isinstance(x, list):
        return set().union(*map(_flat, x)) if x else set()
    return set()


def _names(table: Any) -> set[Any]:
    """The names a descriptor's table lists (a list of names, of objects, or a dict)."""
    if isinstance(table, dict):
        return set(table)
    out: set[Any] = set()
    for x in table:
        if isinstance(x, dict):
            out.update(v for k, v in x.items() if k in ("name", "code", "id"))
        else:
            out.add(x)
    return out


def test_every_game_of_the_rules_tables_is_registered() -> None:
    """GAME_OPTIONS names the games the rules accept; each plays as a registered game."""
    assert sorted(family.GAMES) == sorted(GAME_OPTIONS)
    for name, cls in family.GAMES.items():
        assert name == cls.NAME
        assert family.find_game(name) is cls
        for deck in GAME_DECKS[name]:
            assert family.game_class(from_preset(name, {"deck": deck})) is cls


@pytest.mark.parametrize("name", NAMES)
def test_a_game_class_refuses_another_games_rules(name: str) -> None:
    """``FlipGame(classic rules)`` is a clear ``bad_rules`` refusal, not a KeyError or
    an unknown-deck error from deep inside; ``new_game`` builds the right class."""
    cls = family.find_game(name)
    for other in sorted(GAME_OPTIONS):
        rules = from_preset(other if other != "classic" else "classic")
        if other == name:
            assert type(family.new_game(rules, 2, seed=1)) is cls
            continue
        with pytest.raises(RulesError) as got:
            cls(rules, 2, seed=1)
        assert got.value.code == "bad_rules" and cls.TITLE in got.value.message
