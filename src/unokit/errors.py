"""One root for every error unokit raises on bad input, with stable codes.

Front ends (the terminal, the server, ``unokit replay``) show ``str(err)`` to a person
and switch on ``err.code``.  Every code is registered with what it means, so a client
can rely on it: the core's (cards, rules, records, the engine, a live match) here in
``CODES``, the server's in ``unokit.server.codes``; docs/protocol.md lists them and a
test checks that every code the package raises is registered in its layer's table.
Catch ``UnoError`` (not ``ValueError``) to handle bad input: anything else escaping is
a bug and must not be disguised as one.
"""

from __future__ import annotations

# code -> what it means to a client.  Codes never change meaning once released.
CODES: dict[str, str] = {
    "error": "unspecified bad input",
    # cards and actions
    "bad_card": "not a card code, or a card the deck does not have",
    "bad_action": "text or JSON that does not describe an action",
    # rule sets
    "bad_rules": "a rule set that cannot be built",
    "bot_unsupported": "a bot that does not play these rules (the learned bot: the UNO decks only)",
    "bad_option": "an unknown option, or a value it does not take",
    "bad_preset": "an unknown preset",
    "bad_player_count": "too few or too many players for the rules",
    "bad_hand_size": "the deal leaves no start card that can be kept",
    # records
    "bad_record": "a record that is not valid JSON or not of RECORD.md's shape",
    "bad_shuffle": "a shuffle in a record that is not a reordering of the pile it replaces",
    "bad_state": "a stored match state that is not of its format (docs/architecture.md)",
    "bad_position": "a position no game of the rules can be in (engine.position)",
    # seats
    "bad_seat": "a seat number outside 0..n-1",
    # illegal actions (the game is unchanged)
    "illegal_action": "an action the rules do not allow now",
    "game_over": "the game is over",
    "round_over": "the round is over; the next one has not started",
    "round_not_over": "the round is not over yet",
    "eliminated": "the seat is out of the game",
    "not_your_turn": "another seat must act",
    "bad_target": "the named seat cannot be the target",
    "target_required": "the card needs a seat to swap with",
    "no_catch": "nobody can be caught",
    "not_challenged": "there is nothing for this seat to challenge or accept",
    "must_choose_color": "the start card is a Wild: name its colour first",
    "must_answer_challenge": "a Wild Draw Four waits: challenge or accept",
    "must_answer": "a stacked card waits: answer it or accept",
    "bad_color": "a colour where none is taken, or not R, Y, G or B",
    "color_required": "a wild card needs a colour",
    "not_now": "this kind of action is not possible now",
    "already_drew": "the seat already drew this turn",
    "nothing_to_keep": "there is no drawn card to keep",
    "must_play_drawn": "the rules force the drawn card to be played",
    "one_card": "one card per play here",
    "not_same_number": "cards played together must be the same number",
    "only_drawn_card": "after drawing only the drawn card may be played",
    "card_not_held": "the seat does not hold that card",
    "card_does_not_match": "the card does not match the top card or the colour in force",
    "wd4_not_allowed": "Wild Draw Four only without a card of the colour in force",
    "bad_answer": "that card cannot answer the stacked card",
    # a live match (engine/state.py)
    "stale_version": "the action was made on an older state; a fresh view follows",
}


class UnoError(ValueError):
    """Base of every error unokit raises on purpose for bad input.

    A ``ValueError`` so that code written before the root existed keeps working.
    """

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def to_json(self) -> dict[str, str]:
        """The wire form: ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}
