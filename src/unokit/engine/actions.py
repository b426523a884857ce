"""Actions: a small tuple of ints with a text form and a record (JSON) form.

The text form is what a player types in the terminal (``W+4 B uno``, ``draw``,
``catch 2``); the JSON form is RECORD.md's action object.  Both round-trip, and
``repr`` rebuilds the action.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, Protocol

from unokit.cards import (
    CARD_CODE,
    COLOR_CODES,
    IS_WILD,
    CardError,
    parse_card,
    parse_color,
)
from unokit.engine.errors import ActionParseError

PLAY, DRAW, KEEP, UNO, CATCH, CHALLENGE, ACCEPT, COLOR = range(8)
KIND_NAMES = ("play", "draw", "keep", "uno", "catch", "challenge", "accept", "color")


class ActionCodec(Protocol):
    """One game's parser and printer of action codes (every ``Game`` is one).

    A card id means a different card in each deck (classic ``B7`` is No Mercy's ``GSE``),
    so an action's text is only meaningful with its game: ``Action.parse(text, game)``
    and ``action.text(game)`` ask the game, and a code means the same card in the
    terminal, the logs and the records.  Without a game they read and write classic codes.
    """

    def parse_action(self, text: str) -> Action: ...

    def action_text(self, action: Action) -> str: ...


class Action(NamedTuple):
    """One decision of one seat.  ``-1`` means "not given"."""

    kind: int
    card: int = -1
    color: int = -1
    target: int = -1
    uno: bool = False
    extra: tuple[int, ...] = ()  # multi-play: the cards played after ``card``, in order

    # --- constructors --------------------------------------------------------------
    @staticmethod
    def play(
        card: int, color: int = -1, uno: bool = False, target: int = -1,
        extra: tuple[int, ...] = (),
    ) -> Action:  # fmt: skip
        return Action(PLAY, card, color, target, uno, extra)

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card a play puts down, in order (one unless multi-play)."""
        return (self.card, *self.extra)

    @staticmethod
    def parse(text: str, codec: ActionCodec | None = None) -> Action:
        """Parse the text form: ``R7``, ``R7 uno``, ``W G``, ``draw``, ``catch 2``...

        ``codec``: the game the action is for, which reads its own codes (UNO Flip!'s
        faces, No Mercy's cards); without one, classic codes.
        """
        if codec is not None:
            return codec.parse_action(text)
        return Action.parse_classic(text)

    def text(self, codec: ActionCodec | None = None) -> str:
        """The text form in ``codec``'s codes (the game's); ``str`` gives classic codes."""
        return codec.action_text(self) if codec is not None else str(self)

    @staticmethod
    def parse_classic(text: str) -> Action:
        """The classic decks' parser (``Game.parse_action`` of a classic game)."""
        words = text.replace(",", " ").split()
        if not words:
            raise ActionParseError("empty action: type a card code like R7, or 'draw'")
        head = words[0].lower()
        rest = words[1:]
        simple = {
            "draw": DRAW,
            "d": DRAW,
            "keep": KEEP,
            "pass": KEEP,
            "k": KEEP,
            "uno": UNO,
            "u": UNO,
            "challenge": CHALLENGE,
            "accept": ACCEPT,
        }
        if head in simple and not rest:
            return Action(simple[head])
        if head in ("catch", "c") and len(rest) == 1 and rest[0].isdigit():
            return Action(CATCH, target=int(rest[0]))
        if head == "color" and len(rest) in (1, 2):
            if len(rest) == 2 and not rest[1].isdigit():
                raise ActionParseError(
                    f"{text!r}: after the colour a start Wild Swap Hands takes a seat number"
                )
            try:
                color = parse_color(rest[0])
            except CardError as e:
                raise ActionParseError(str(e)) from None
            return Action(COLOR, color=color, target=int(rest[1]) if len(rest) == 2 else -1)
        # A play: card code, then optional colour, optional 'uno', optional target.
        uno = False
        if rest and rest[-1].lower() == "uno":
            uno = True
            rest = rest[:-1]
        extra: tuple[int, ...] = ()
        try:
            if "/" in words[0]:
                first, *more = (parse_card(w) for w in words[0].split("/"))
                card, extra = first, tuple(more)
            else:
                card = parse_card(words[0])
        except CardError:
            if "/" in words[0]:
                raise ActionParseError(
                    f"{words[0]!r}: a multi-play is card codes joined by /"
                ) from None
            # long names such as "wild draw four blue" or "red 7"
            card, rest = _parse_long(words, uno)
        color = -1
        target = -1
        for w in rest:
            if w.isdigit() and target == -1:
                target = int(w)
                continue
            try:
                color = parse_color(w)
            except CardError:
                raise ActionParseError(
                    f"don't understand {w!r} in {text!r}: after a card give a colour "
                    "(R, Y, G, B), a seat number, or 'uno'"
                ) from None
        return Action(PLAY, card, color, target, uno, extra)

    @staticmethod
    def from_json(obj: Any) -> tuple[int, Action]:
        """RECORD.md's action object to ``(seat, action)``; ActionParseError if malformed."""
        if not isinstance(obj, dict):
            raise ActionParseError(f"an action must be an object, not {_quote(obj)}")
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ActionParseError(f"action {_quote(obj)} has no whole-number 'seat'")
        known = {
            "seat",
            "play",
            "cards",
            "color",
            "target",
            "uno",
            "draw",
            "keep",
            "catch",
            "challenge",
            "accept",
        }
        unknown = set(obj) - known
        if unknown:
            raise ActionParseError(
                f"action {_quote(obj)} has unknown keys: {', '.join(sorted(unknown))}"
            )

        def flag(key: str) -> bool:
            v = obj.get(key)
            if v is None:
                return False
            if v is not True:
                raise ActionParseError(f"in action {_quote(obj)}, {key!r} must be true")
            return True

        color = -1
        if "color" in obj:
            if not isinstance(obj["color"], str):
                raise ActionParseError(f"in action {_quote(obj)}, 'color' must be R, Y, G or B")
            try:
                color = parse_color(obj["color"])
            except CardError as e:
                raise ActionParseError(f"in action {_quote(obj)}: {e}") from None
        target = -1
        if "target" in obj:
            t = obj["target"]
            if not isinstance(t, int) or isinstance(t, bool):
                raise ActionParseError(f"in action {_quote(obj)}, 'target' must be a seat number")
            target = t
        uno = flag("uno")
        mains = [
            k for k in ("play", "cards", "draw", "keep", "catch", "challenge", "accept") if k in obj
        ]
        if len(mains) > 1:
            raise ActionParseError(f"action {_quote(obj)} mixes {' and '.join(mains)}")
        if not mains:
            if color >= 0:
                return seat, Action(COLOR, color=color, target=target)
            if uno:
                return seat, Action(UNO)
            raise ActionParseError(f"action {_quote(obj)} says nothing to do")
        main = mains[0]
        if main == "play":
            code = obj["play"]
            if not isinstance(code, str):
                raise ActionParseError(f"in action {_quote(obj)}, 'play' must be a card code")
            try:
                card = parse_card(code)
            except CardError as e:
                raise ActionParseError(f"in action {_quote(obj)}: {e}") from None
            return seat, Action(PLAY, card, color, target, uno)
        if main == "cards":
            codes_ = obj["cards"]
            if (
                not isinstance(codes_, list)
                or not codes_
                or not all(isinstance(c, str) for c in codes_)
            ):
                raise ActionParseError(
                    f"in action {_quote(obj)}, 'cards' must be a list of card codes"
                )
            try:
                ids = [parse_card(c) for c in codes_]
            except CardError as e:
                raise ActionParseError(f"in action {_quote(obj)}: {e}") from None
            return seat, Action(PLAY, ids[0], color, target, uno, tuple(ids[1:]))
        if color >= 0 or target >= 0 or uno:
            raise ActionParseError(f"action {_quote(obj)}: only a play takes color, target or uno")
        if main == "catch":
            t = obj["catch"]
            if not isinstance(t, int) or isinstance(t, bool):
                raise ActionParseError(f"in action {_quote(obj)}, 'catch' must be a seat number")
            return seat, Action(CATCH, target=t)
        flag(main)
        return seat, Action(
            {"draw": DRAW, "keep": KEEP, "challenge": CHALLENGE, "accept": ACCEPT}[main]
        )

    # --- output ----------------------------------------------------------------------
    def to_json(self, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": seat}
        k = self.kind
        if k == PLAY:
            if self.extra:
                out["cards"] = [CARD_CODE[c] for c in self.cards]
            else:
                out["play"] = CARD_CODE[self.card]
            if self.color >= 0:
                out["color"] = COLOR_CODES[self.color]
            if self.target >= 0:
                out["target"] = self.target
            if self.uno:
                out["uno"] = True
        elif k == COLOR:
            out["color"] = COLOR_CODES[self.color]
            if self.target >= 0:
                out["target"] = self.target
        elif k == CATCH:
            out["catch"] = self.target
        else:
            out[KIND_NAMES[k]] = True
        return out

    def to_wire(self) -> dict[str, Any]:
        """The JSON form without the seat: what a client sends (the server knows the seat)."""
        out = self.to_json(0)
        del out["seat"]
        return out

    @staticmethod
    def from_wire(obj: Any) -> Action:
        """A client's action object (``to_wire``'s form); ActionParseError if malformed."""
        if not isinstance(obj, dict):
            raise ActionParseError("an action must be a JSON object")
        if "seat" in obj:
            raise ActionParseError("an action does not name its seat: the connection does")
        return Action.from_json({**obj, "seat": 0})[1]

    def __str__(self) -> str:
        """The classic text form (an ``Action`` does not know its game: for a modern
        game's codes use ``action.text(game)`` or ``game.action_text(action)``)."""
        try:
            return self._text()
        except (TypeError, IndexError, KeyError, ValueError):
            # an Action built with fields no text can hold (a bot's bug): say what it
            # holds, since error messages about it must never fail themselves
            return "Action(" + ", ".join(_short(x) for x in self) + ")"

    def _text(self) -> str:
        k = self.kind
        if k == PLAY:
            parts = ["/".join(CARD_CODE[c] for c in self.cards)]
            if self.color >= 0:
                parts.append(COLOR_CODES[self.color])
            if self.target >= 0:
                parts.append(str(self.target))
            if self.uno:
                parts.append("uno")
            return " ".join(parts)
        if k == COLOR:
            if self.target >= 0:
                return f"color {COLOR_CODES[self.color]} {self.target}"
            return f"color {COLOR_CODES[self.color]}"
        if k == CATCH:
            return f"catch {self.target}"
        return KIND_NAMES[k]

    def __repr__(self) -> str:
        try:
            return f"Action.parse({self._text()!r})"
        except (TypeError, IndexError, KeyError, ValueError):
            return str(self)

    @property
    def is_wild_play(self) -> bool:
        return self.kind == PLAY and IS_WILD[self.card]


def _short(x: object) -> str:
    """``repr`` that never fails and never floods a message."""
    try:
        text = repr(x)
    except Exception:  # a repr that raises: a hostile or broken object
        text = f"<{type(x).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def _quote(obj: Any) -> str:
    """An action as JSON for error messages (people read JSON, not Python dicts)."""
    try:
        text = json.dumps(obj, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError):
        text = repr(obj)
    return text if len(text) <= 200 else text[:197] + "..."


def _parse_long(words: list[str], uno: bool) -> tuple[int, list[str]]:
    """Long card names take several words; try the longest prefix that is a card."""
    body = words[:-1] if uno else words
    for cut in range(len(body), 0, -1):
        try:
            return parse_card(" ".join(body[:cut])), body[cut:]
        except CardError:
            continue
    raise ActionParseError(
        f"{' '.join(words)!r} is not an action: type a card code (R7, YS, G+2, W B), "
        "'draw', 'keep', 'uno', 'catch SEAT', 'challenge' or 'accept'"
    )
