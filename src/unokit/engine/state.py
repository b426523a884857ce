"""The match as a value: ``MatchState``, ``to_ask`` and a pure ``advance``.

Every front end (the terminal game, the bot runner and tournaments, the simulator's
reference driver, the RL environments, the web server) needs the same three answers:
who may act now, whose decision the table waits for, and what a decision leads to.
They used to keep their own loops, pass sets and versions, and the copies drifted
apart.  Here they are one value and two functions, as in boardgame.io's master or
pgx's state: a ``MatchState`` holds the game (cards, piles, scores, RNG state, the
record so far), the version, the seats that let the current out-of-turn chance go
by and the seats whose out-of-turn chances the table waits for; ``to_ask`` reads it,
``advance`` makes the next one.

``advance`` is pure: it copies the game, applies, and returns the new state and the
events the decision caused; no clock, no I/O, no global random.  Front ends that
hold one live match (``unokit.match.Match``) use ``advance_in_place`` instead, the
same transition without the copy, because copying a whole game for every decision
would cost a simulation more than the decision itself.

A state serializes to JSON (``to_json``/``from_json``, ``dumps``/``loads``) and back
to the identical match: any process can store it, load it and go on.  The format is
documented in docs/architecture.md and versioned by ``FORMAT``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Final

from unokit.cards import NUM_CARDS, build_deck
from unokit.engine.actions import CATCH, UNO, Action
from unokit.engine.errors import IllegalAction
from unokit.engine.events import Event, EventKind
from unokit.engine.game import Game
from unokit.engine.modern.base import ModernGame
from unokit.engine.phases import P_ROUND_OVER, PHASE_NAMES
from unokit.errors import UnoError
from unokit.rules import RulesError, RuleSet, from_preset

FORMAT: Final = "uno-match/1"


class StaleVersion(UnoError):
    """An action made on an older state than the match's; nothing was applied."""

    code = "stale_version"


class StateError(UnoError):
    """A serialized match that is not of this format's shape."""

    code = "bad_state"


@dataclass(frozen=True, slots=True)
class Pass:
    """Letting the current out-of-turn chance go by: a decision like any other.

    A seat that passed is not asked again until the game changes.  Only a seat asked
    for a reaction may pass; the seat to act must decide.
    """

    def __str__(self) -> str:
        return "pass"


PASS: Final = Pass()
Move = Action | Pass


@dataclass(frozen=True, slots=True)
class Ask:
    """The decision the table waits for next: ``seat``, and whether it is a reaction.

    ``reaction``: only an out-of-turn chance (a catch, a late UNO call, a jump-in); the
    seat may ``PASS``.  Otherwise it is the seat to act, which must decide.
    """

    seat: int
    reaction: bool


@dataclass(frozen=True, slots=True)
class MatchState:
    """One match at one moment: what every front end drives.

    ``waits``: the seats whose out-of-turn chances the table asks for and waits on
    (bots, RL agents).  People are never waited for on such a chance: they may take it
    any time until the next decision lands, and a front end with a clock gives them
    ``Timing.catch_window``.  ``game`` belongs to the state: nothing may change it but
    ``advance_in_place`` on the state's owner.
    """

    game: Game
    version: int = 0
    passed: frozenset[int] = frozenset()
    waits: frozenset[int] = field(default_factory=frozenset)

    @property
    def n(self) -> int:
        return self.game.n

    @property
    def round_over(self) -> bool:
        return self.game.phase >= P_ROUND_OVER


def new_match(game: Game, waits: frozenset[int] | set[int] | None = None) -> MatchState:
    """A state at version 0 around ``game``; by default the table waits on every seat."""
    if waits is None:
        waits = frozenset(range(game.n))
    return MatchState(game, 0, frozenset(), frozenset(waits))


# --------------------------------------------------------------------- who acts ----
def reaction_order(game: Game) -> list[int]:
    """The seats that may act out of turn now, in the order they are asked.

    Clockwise (seat numbers rising) from the seat after the one to act; the seat to
    act is not in it: its own out-of-turn chances come with its turn decision.  While a
    seat is catchable (R-UNO-2) every other live seat may catch it and the seat itself
    may still call; under R-VAR-JUMPIN, a seat holding the top card's twin may jump in.
    """
    if game.phase >= P_ROUND_OVER:
        return []
    n = game.n
    cur = game.current
    live = game.live
    catchable = game.vulnerable >= 0
    if not catchable and not game.rules.jump_in:
        return []
    out: list[int] = []
    for k in range(1, n):
        s = (cur + k) % n
        if live[s] and (catchable or game.jump_ins(s)):
            out.append(s)
    return out


def to_ask(state: MatchState) -> Ask | None:
    """The one place that decides whose decision comes next; None once the round is over.

    First every seat the table waits on that may act out of turn and has not passed,
    in ``reaction_order``; then the seat to act.
    """
    seat = seat_to_ask(state.game, state.passed, state.waits)
    if seat < 0:
        return None
    return Ask(seat, seat != state.game.current)


def seat_to_ask(game: Game, passed: AbstractSet[int], waits: AbstractSet[int] | None) -> int:
    """``to_ask`` on its parts, for loops that keep them apart for speed (the RL table
    asks every seat: ``waits`` None); -1 once the round is over."""
    if game.phase >= P_ROUND_OVER:
        return -1
    cur = game.current
    if game.vulnerable < 0 and not game.rules.jump_in:
        return cur
    for s in reaction_order(game):
        if (waits is None or s in waits) and s not in passed:
            return s
    return cur


def actors(state: MatchState) -> list[int]:
    """Every seat that may act now, its turn or not (people on a catch included)."""
    return state.game.actors()


def legal(state: MatchState, seat: int) -> list[Action]:
    """What ``seat`` may do now (``Game.legal_actions``); a reaction may also ``PASS``."""
    return state.game.legal_actions(seat)


# --------------------------------------------------------------------- advancing ---
def check(state: MatchState, seat: int, move: Move, version: int | None = None) -> None:
    """Raise (``IllegalAction``, ``StaleVersion``) unless ``advance`` would accept ``move``."""
    g = state.game
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
        raise IllegalAction(f"there is no seat {seat!r} at this table", code="bad_seat")
    if version is not None and version != state.version:
        raise StaleVersion(
            f"this action was made on state {version}, the game is at {state.version}"
        )
    if isinstance(move, Pass):
        if seat == g.current and g.phase < P_ROUND_OVER:
            raise IllegalAction("it is your turn: decide, you cannot pass it", code="not_now")
        if seat not in reaction_order(g):
            raise IllegalAction("there is nothing to let go by now", code="not_now")
        return
    g.check(seat, move)


def advance_in_place(
    state: MatchState,
    seat: int,
    move: Move,
    *,
    version: int | None = None,
    trusted: bool = False,
) -> MatchState:
    """The transition: apply ``move`` to ``state.game`` itself and return the next state.

    ``trusted``: skip the checks (bots that chose from ``legal``, simulation).  A
    refused move raises and changes nothing.  The old state's game *is* the new one's:
    only the owner of a live match calls this.
    """
    if not trusted:
        check(state, seat, move, version)
    if isinstance(move, Pass):
        return MatchState(state.game, state.version, state.passed | {seat}, state.waits)
    state.game.apply_trusted(seat, move)
    return MatchState(state.game, state.version + 1, frozenset(), state.waits)


def advance(
    state: MatchState,
    seat: int,
    move: Move,
    *,
    version: int | None = None,
    trusted: bool = False,
) -> tuple[MatchState, list[Event]]:
    """Pure: the state after ``seat``'s ``move`` and the events it caused (every seat's;
    filter with ``Event.visible_to``).  ``state`` is left as it was."""
    if not trusted:
        check(state, seat, move, version)
    g = clone(state.game)
    start = len(g.events) if g.events is not None else 0
    nxt = advance_in_place(MatchState(g, state.version, state.passed, state.waits), seat, move,
                           trusted=True)  # fmt: skip
    events = g.events[start:] if g.events is not None else []
    return nxt, events


def next_round(state: MatchState, dealer: int | None = None, seed: int | None = None) -> MatchState:
    """Pure: the state with the next round dealt (the round is over); the version rises.
    ``dealer`` and ``seed`` as ``Game.start_round`` takes them (a server's own seeds)."""
    copy = MatchState(clone(state.game), state.version, state.passed, state.waits)
    return next_round_in_place(copy, dealer, seed)


def next_round_in_place(
    state: MatchState, dealer: int | None = None, seed: int | None = None
) -> MatchState:
    """``next_round`` on the state's own game, for the owner of a live match."""
    state.game.start_round(dealer, seed=seed)
    return MatchState(state.game, state.version + 1, frozenset(), state.waits)


def with_waits(state: MatchState, waits: frozenset[int] | set[int]) -> MatchState:
    """The same moment with other seats waited on (a person left; a bot took over)."""
    return MatchState(state.game, state.version, state.passed, frozenset(waits))


def bot_fallback(state: MatchState, seat: int) -> Action:
    """The decision put in place of a failing bot's: its first legal turn action."""
    offered = state.game.legal_actions(seat)
    turn = [a for a in offered if a.kind not in (CATCH, UNO)]
    return turn[0] if turn else offered[0]


# ------------------------------------------------------------------ serializing ----
def clone(game: Game) -> Game:
    """A full, independent copy: events, records and RNG states included."""
    return game_from_json(game_to_json(game))


def game_to_json(game: Game) -> dict[str, Any]:
    """Everything a game is, as JSON values (ints, lists, strings): its own form."""
    return game.to_json_obj()


def game_from_json(obj: dict[str, Any]) -> Game:
    """The game ``game_to_json`` described, of the class its rules name."""
    return Game.from_json_obj(obj)


def to_json(state: MatchState) -> dict[str, Any]:
    """The state as one JSON object (docs/architecture.md, "The match as a value")."""
    return {
        "format": FORMAT,
        "version": state.version,
        "passed": sorted(state.passed),
        "waits": sorted(state.waits),
        "game": game_to_json(state.game),
    }


def from_json(obj: Any) -> MatchState:
    """The state ``to_json`` wrote; ``StateError`` for anything else.

    Everything is checked before a game is built: types, ranges, that every card of the
    deck is in exactly one place, and that the RNG states are Mersenne Twister states,
    so a damaged or forged state is refused, never loaded as a wrong game.
    """
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise StateError(f"not a match state of format {FORMAT!r}")
    try:
        version = _int(obj.get("version"), "version", 0, 2**62)
        game_obj = obj.get("game")
        if not isinstance(game_obj, dict):
            raise StateError("a damaged match state: 'game' must be an object")
        rules = _rules(game_obj.get("rules"))
        names = game_obj.get("names")
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise StateError("a damaged match state: 'names' must be a list of names")
        try:
            rules.check_players(len(names))
        except RulesError as e:
            raise StateError(f"a damaged match state: {e}") from None
        n = len(names)
        if rules.modern:
            _check_modern(game_obj, n)
        else:
            _check_game(game_obj, rules, n)
        passed = frozenset(_int(x, "passed", 0, n - 1) for x in _list(obj.get("passed"), "passed"))
        waits = frozenset(_int(x, "waits", 0, n - 1) for x in _list(obj.get("waits"), "waits"))
        game = game_from_json(game_obj)
        if isinstance(game, ModernGame) and Counter(
            game.pile + game.discard + game._aside() + [c for h in game.hands for c in h]
        ) != Counter(game.full_deck()):
            raise _fail("the hands and piles do not hold the rules' deck, each card once")
    except StateError:
        raise
    except Exception as e:  # anything the checks above did not foresee is damage too
        raise StateError(f"a damaged match state: {type(e).__name__}: {e}") from None
    return MatchState(game, version, passed, waits)


def _fail(what: str) -> StateError:
    return StateError(f"a damaged match state: {what}")


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _fail(f"{what} must be a whole number from {lo} to {hi}, not {v!r:.40}")
    return v


def _list(v: Any, what: str, size: int | None = None) -> list[Any]:
    if not isinstance(v, list) or (size is not None and len(v) != size):
        want = f"a list of {size}" if size is not None else "a list"
        raise _fail(f"{what} must be {want}")
    return v


def _cards(v: Any, what: str) -> list[int]:
    return [_int(c, what, 0, NUM_CARDS - 1) for c in _list(v, what)]


def _rules(spec: Any) -> RuleSet:
    if (
        not isinstance(spec, dict)
        or not isinstance(spec.get("preset"), str)
        or not isinstance(spec.get("options"), dict)
    ):
        raise _fail("'rules' must be {'preset': name, 'options': {...}}")
    try:
        return from_preset(spec["preset"], spec["options"])
    except (RulesError, TypeError, ValueError) as e:
        raise _fail(f"bad rules: {e}") from None


def _rng(v: Any, what: str) -> None:
    """A ``random.Random`` state: version 3, 624 words and a position, gauss or null."""
    items = _list(v, what, 3)
    internal = _list(items[1], what, 625)
    if items[0] != 3 or not (items[2] is None or isinstance(items[2], float)):
        raise _fail(f"{what} is not a random generator's state")
    for w in internal[:624]:
        _int(w, what, 0, 2**32 - 1)
    _int(internal[624], what, 0, 624)


def _check_game(g: dict[str, Any], rules: RuleSet, n: int) -> None:
    """What ``game_from_json`` builds from must describe a possible game (see from_json)."""
    hands = [_cards(h, "a hand") for h in _list(g.get("hands"), "hands", n)]
    pile = _cards(g.get("pile"), "the draw pile")
    discard = _cards(g.get("discard"), "the discard pile")
    placed = Counter(pile + discard + [c for h in hands for c in h])
    if placed != Counter(build_deck(rules.deck, rules.custom_cards)):
        raise _fail("the hands and piles do not hold the rules' deck, each card once")
    live = _list(g.get("live"), "live", n)
    if not all(isinstance(x, bool) for x in live):
        raise _fail("live must be true or false for each seat")
    _int(g.get("n_live"), "n_live", sum(live), sum(live))
    teams = rules.scoring == "teams"
    for x in _list(g.get("scores"), "scores", 2 if teams else n):
        _int(x, "a score", 0, 2**62)
    phase = _int(g.get("phase"), "phase", 0, len(PHASE_NAMES) - 1)
    if phase < P_ROUND_OVER and not discard:
        raise _fail("a round in play needs a discard pile")
    current = _int(g.get("current"), "current", 0, n - 1)
    _int(g.get("color"), "color", -1, 3)
    if g.get("direction") not in (1, -1) or isinstance(g.get("direction"), bool):
        raise _fail("direction must be 1 or -1")
    drawn = _int(g.get("drawn"), "drawn", -1, NUM_CARDS - 1)
    if drawn >= 0 and drawn not in hands[current]:
        raise _fail("the drawn card is not in the hand of the seat to act")
    for name in ("vulnerable", "wd4_by", "round_winner", "dealer"):
        _int(g.get(name), name, -1, n - 1)
    _int(g.get("game_winner"), "game_winner", -1, (2 if teams else n) - 1)
    _int(g.get("wd4_prev_color"), "wd4_prev_color", -1, 3)
    _int(g.get("pend_card"), "pend_card", -1, NUM_CARDS - 1)
    _int(g.get("pend_total"), "pend_total", 0, 2**31)
    _int(g.get("round_index"), "round_index", -1, 2**31)
    _int(g.get("reshuffles"), "reshuffles", 0, 2**62)
    for name in ("wd4_guilty", "_plain", "recording"):
        if not isinstance(g.get(name), bool):
            raise _fail(f"{name} must be true or false")
    for sh in _list(g.get("_forced"), "forced shuffles"):
        _cards(sh, "a forced shuffle")
    for k in _list(g.get("_forced_launches"), "forced launches"):
        _int(k, "a launch", 0, 12)
    _rng(g.get("rng"), "rng")
    if g.get("round_rng") is not None:
        _rng(g.get("round_rng"), "round_rng")
    rounds = _list(g.get("rounds"), "rounds")
    for r in rounds:
        if not isinstance(r, dict):
            raise _fail("a round must be an object")
        _int(r.get("dealer"), "a round's dealer", 0, n - 1)
        _cards(r.get("deck"), "a round's deck")
        _int(r.get("seed"), "a round's seed", 0, 2**64)
        for sh in _list(r.get("shuffles"), "a round's shuffles"):
            _cards(sh, "a round's shuffle")
        for k in _list(r.get("launches"), "a round's launches"):
            _int(k, "a launch", 0, 12)
        for a in _list(r.get("actions"), "a round's actions"):
            seat, fields, extra = _list(a, "an action", 3)
            _int(seat, "an action's seat", 0, n - 1)
            kind, card, color, target, uno = _list(fields, "an action", 5)
            _int(kind, "an action's kind", 0, 7)
            _int(card, "an action's card", -1, NUM_CARDS - 1)
            _int(color, "an action's colour", -1, 3)
            _int(target, "an action's target", -1, n - 1)
            if not isinstance(uno, bool):
                raise _fail("an action's uno must be true or false")
            _cards(extra, "an action's extra cards")
    log = g.get("log")
    if log is not None:
        _int(log, "log", 0, len(rounds) - 1)
    events = g.get("events")
    if events is not None:
        kinds = {k.value for k in EventKind}
        for e in _list(events, "events"):
            kind, seat, cards, *rest = _list(e, "an event", 8)
            if kind not in kinds:
                raise _fail(f"no event kind {kind!r:.40}")
            _int(seat, "an event's seat", -1, n - 1)
            _cards(cards, "an event's cards")
            for x in rest:
                _int(x, "an event's field", -(2**31), 2**31)


def _check_modern(g: dict[str, Any], n: int) -> None:
    """The shape checks of a modern game's fields; the cards are checked once it is built."""
    for name in ("hands", "live", "scores"):
        _list(g.get(name), name, n)
    for name in ("pile", "discard"):
        for c in _list(g.get(name), name):
            _int(c, name, 0, 255)
    for h in g["hands"]:
        for c in _list(h, "a hand"):
            _int(c, "a card", 0, 255)
    _int(g.get("phase"), "phase", 0, len(PHASE_NAMES) - 1)
    _int(g.get("current"), "current", 0, n - 1)
    if g.get("direction") not in (1, -1) or isinstance(g.get("direction"), bool):
        raise _fail("direction must be 1 or -1")
    if not all(isinstance(x, bool) for x in g["live"]):
        raise _fail("live must be true or false for each seat")
    _int(g.get("n_live"), "n_live", sum(g["live"]), sum(g["live"]))
    for x in g["scores"]:
        _int(x, "a score", 0, 2**62)
    _int(g.get("color"), "color", -1, 7)
    for name in ("vulnerable", "wd4_by", "round_winner", "game_winner", "dealer"):
        _int(g.get(name), name, -1, n - 1)
    for name in ("drawn", "pend_card"):
        _int(g.get(name), name, -1, 255)
    for name in ("pend_total", "reshuffles", "round_index"):
        _int(g.get(name), name, -1, 2**62)
    if not isinstance(g.get("wd4_guilty"), bool):
        raise _fail("wd4_guilty must be true or false")
    if "side" in g:  # UNO Flip!
        _int(g.get("side"), "side", 0, 1)
        _int(g.get("choose"), "choose", 0, 1)
        if not isinstance(g.get("_after_color"), bool):
            raise _fail("_after_color must be true or false")
    if "aside" in g:  # No Mercy
        for c in _list(g.get("aside"), "aside"):
            _int(c, "aside", 0, 255)
        _int(g.get("knockouts"), "knockouts", 0, n)
        _int(g.get("roulette_by"), "roulette_by", -1, n - 1)
        _int(g.get("face_down"), "face_down", 0, len(g["discard"]))
    for r in _list(g.get("rounds"), "rounds"):
        if not isinstance(r, dict):
            raise _fail("a round must be an object")
        for a in _list(r.get("actions"), "a round's actions"):
            # [seat, [kind, card, colour, target, uno], extra]; states stored before the
            # extra cards were kept have no third item
            if not isinstance(a, list) or len(a) not in (2, 3):
                raise _fail("an action must be [seat, fields, extra cards]")
            _int(a[0], "an action's seat", 0, n - 1)
            kind, card, color, target, uno = _list(a[1], "an action", 5)
            _int(kind, "an action's kind", 0, 7)
            _int(card, "an action's card", -1, 255)
            _int(color, "an action's colour", -1, 7)
            _int(target, "an action's target", -1, n - 1)
            if not isinstance(uno, bool):
                raise _fail("an action's uno must be true or false")
            for c in _list(a[2] if len(a) == 3 else [], "an action's extra cards"):
                _int(c, "an action's extra card", 0, 255)
    _rng(g.get("rng"), "rng")
    if g.get("round_rng") is not None:
        _rng(g.get("round_rng"), "round_rng")


def dumps(state: MatchState) -> str:
    return json.dumps(to_json(state), separators=(",", ":"))


def loads(text: str | bytes) -> MatchState:
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise StateError(f"a match state must be JSON: {e}") from None
    return from_json(obj)
