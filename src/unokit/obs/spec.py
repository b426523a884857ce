"""The fixed action table and observation layout shared by every unokit RL environment.

Both are the same for every rule set and every player count (2 to 10), so one policy
network fits any table.  Seats are *relative*: offset ``k`` means the seat ``k`` places
clockwise from the observing seat (``(seat + k) % n``); offsets ``>= n`` never occur.
``docs/rl.md`` documents both tables; ``action_name`` and ``OBS_SLICES`` are the same
documentation in code.
"""

from __future__ import annotations

from unokit.cards import CARD_CODE, COLOR_CODES, NUM_CARDS, WILD, WILD_SWAP
from unokit.engine.actions import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, KEEP, PLAY, UNO, Action
from unokit.rules import CUSTOM_RULES

MAX_SEATS = 10
OFFSETS = MAX_SEATS - 1  # relative target seats 1..9

# ---------------------------------------------------------------- actions ----------
# Plays without a UNO call occupy [0, NUM_PLAYS); the same plays *with* the call
# ("play and say UNO") are the next NUM_PLAYS indices.
A_PLAY = 0  # 52 coloured cards, no target: index = card id (0..51)
A_PLAY_WILD = 52  # 5 wild kinds x 4 colours: 52 + (card - 52) * 4 + colour
A_PLAY_SEVEN = 72  # seven-zero: a 7 of colour c given to target offset k: 72 + c*9 + k-1
A_PLAY_SWAP = 108  # Wild Swap Hands naming colour c and target offset k: 108 + c*9 + k-1
NUM_PLAYS = 144
A_UNO_PLAYS = NUM_PLAYS  # + any play index: the same play, calling UNO with it
A_DRAW = 2 * NUM_PLAYS  # 288
A_KEEP = A_DRAW + 1  # keep the card just drawn (end the turn)
A_ACCEPT = A_DRAW + 2  # take the hit: draw 4 / the stacked total, lose the turn
A_CHALLENGE = A_DRAW + 3  # challenge a Wild Draw Four
A_UNO = A_DRAW + 4  # call UNO on its own (late, while still catchable)
A_CATCH = A_DRAW + 5  # catch the seat at offset k: A_CATCH + k-1  (293..301)
A_COLOR = A_CATCH + OFFSETS  # Wild start card: name colour c: A_COLOR + c  (302..305)
A_COLOR_SWAP = A_COLOR + 4  # Swap start card: colour c, target offset k (306..341)
A_PASS = A_COLOR_SWAP + 4 * OFFSETS  # 342: let an out-of-turn chance go by
NUM_ACTIONS = A_PASS + 1  # 343

SEVEN = 7


def action_index(seat: int, n: int, action: Action) -> int:
    """The table index of an engine action for ``seat`` at an ``n``-seat table.

    -1 for a multi-play (several cards at once), which the table does not offer.
    """
    kind = action.kind
    if kind == PLAY:
        if action.extra:
            return -1
        card = action.card
        target = action.target
        if target >= 0:
            off = (target - seat) % n - 1
            if card == WILD_SWAP:
                i = A_PLAY_SWAP + action.color * OFFSETS + off
            else:  # a 7 under seven-zero
                i = A_PLAY_SEVEN + (card // 13) * OFFSETS + off
        elif card >= WILD:
            i = A_PLAY_WILD + (card - WILD) * 4 + action.color
        else:
            i = card
        return i + A_UNO_PLAYS if action.uno else i
    if kind == DRAW:
        return A_DRAW
    if kind == KEEP:
        return A_KEEP
    if kind == ACCEPT:
        return A_ACCEPT
    if kind == CHALLENGE:
        return A_CHALLENGE
    if kind == UNO:
        return A_UNO
    if kind == CATCH:
        return A_CATCH + (action.target - seat) % n - 1
    # COLOR
    if action.target >= 0:
        return A_COLOR_SWAP + action.color * OFFSETS + (action.target - seat) % n - 1
    return A_COLOR + action.color


def decode_table(seat: int, n: int) -> tuple[Action | None, ...]:
    """Every table index as an engine action for ``seat`` (None: a target seat that
    does not exist at an ``n``-seat table, or PASS, which is not an engine action)."""
    out: list[Action | None] = [None] * NUM_ACTIONS

    def seat_at(k: int) -> int:
        return (seat + k) % n

    for uno in (False, True):
        base = A_UNO_PLAYS if uno else 0
        for card in range(WILD):
            out[base + card] = Action(PLAY, card, -1, -1, uno)
        for w in range(5):
            for col in range(4):
                out[base + A_PLAY_WILD + w * 4 + col] = Action(PLAY, WILD + w, col, -1, uno)
        for col in range(4):
            for k in range(1, n):
                seven = col * 13 + SEVEN
                out[base + A_PLAY_SEVEN + col * OFFSETS + k - 1] = Action(
                    PLAY, seven, -1, seat_at(k), uno
                )
                out[base + A_PLAY_SWAP + col * OFFSETS + k - 1] = Action(
                    PLAY, WILD_SWAP, col, seat_at(k), uno
                )
    out[A_DRAW] = Action(DRAW)
    out[A_KEEP] = Action(KEEP)
    out[A_ACCEPT] = Action(ACCEPT)
    out[A_CHALLENGE] = Action(CHALLENGE)
    out[A_UNO] = Action(UNO)
    for k in range(1, n):
        out[A_CATCH + k - 1] = Action(CATCH, target=seat_at(k))
    for col in range(4):
        out[A_COLOR + col] = Action(COLOR, color=col)
        for k in range(1, n):
            out[A_COLOR_SWAP + col * OFFSETS + k - 1] = Action(COLOR, color=col, target=seat_at(k))
    return tuple(out)


def action_name(index: int) -> str:
    """A readable name for a table index, with relative targets (``+k``: k seats clockwise)."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"there is no action {index} (the table has {NUM_ACTIONS})")
    if index < 2 * NUM_PLAYS:
        suffix = " uno" if index >= A_UNO_PLAYS else ""
        i = index % NUM_PLAYS
        if i < A_PLAY_WILD:
            return f"play {CARD_CODE[i]}{suffix}"
        if i < A_PLAY_SEVEN:
            w, col = divmod(i - A_PLAY_WILD, 4)
            return f"play {CARD_CODE[WILD + w]} {COLOR_CODES[col]}{suffix}"
        if i < A_PLAY_SWAP:
            col, k = divmod(i - A_PLAY_SEVEN, OFFSETS)
            return f"play {COLOR_CODES[col]}7 +{k + 1}{suffix}"
        col, k = divmod(i - A_PLAY_SWAP, OFFSETS)
        return f"play WSWAP {COLOR_CODES[col]} +{k + 1}{suffix}"
    if index == A_DRAW:
        return "draw"
    if index == A_KEEP:
        return "keep"
    if index == A_ACCEPT:
        return "accept"
    if index == A_CHALLENGE:
        return "challenge"
    if index == A_UNO:
        return "uno"
    if index < A_COLOR:
        return f"catch +{index - A_CATCH + 1}"
    if index < A_COLOR_SWAP:
        return f"color {COLOR_CODES[index - A_COLOR]}"
    if index < A_PASS:
        col, k = divmod(index - A_COLOR_SWAP, OFFSETS)
        return f"color {COLOR_CODES[col]} +{k + 1}"
    return "pass"


# ------------------------------------------------------------ observation ----------
# Offsets of the observation vector (uint8: every feature is a small whole number).
# Per-seat blocks have MAX_SEATS slots, slot j = the seat j places clockwise from the
# observer (slot 0 = the observer); slots >= n stay 0.
O_HAND = 0  # 57: own hand, count of each card kind
O_TOP = O_HAND + NUM_CARDS  # 57: top card of the discard pile, one-hot
O_COLOR = O_TOP + NUM_CARDS  # 4: colour in force, one-hot (all 0 before a start Wild's)
O_SEEN = O_COLOR + 4  # 57: discard pile (every card played since the last reshuffle), counts
O_DRAWN = O_SEEN + NUM_CARDS  # 57: the card just drawn that may be played now, one-hot
O_PHASE = O_DRAWN + NUM_CARDS  # 5: play, drawn, start_color, challenge, answer, one-hot
O_TO_ACT = O_PHASE + 5  # 10: the seat whose turn it is, one-hot relative
O_HAND_SIZE = O_TO_ACT + MAX_SEATS  # 10: cards held by each seat
O_ONE_CARD = O_HAND_SIZE + MAX_SEATS  # 10: 1 if that seat holds exactly one card
O_VULNERABLE = O_ONE_CARD + MAX_SEATS  # 10: the seat that may be caught (no UNO call)
O_WD4_BY = O_VULNERABLE + MAX_SEATS  # 10: who played the Wild Draw Four being answered
O_LIVE = O_WD4_BY + MAX_SEATS  # 10: 1 for a seat in the game (not eliminated)
O_DIRECTION = O_LIVE + MAX_SEATS  # 1: 1 = clockwise, 0 = counter-clockwise
O_DRAW_PILE = O_DIRECTION + 1  # 1: cards in the draw pile
O_PENDING = O_DRAW_PILE + 1  # 1: cards the seat to act draws if it accepts (a stack, a W+4)
O_SCORES = O_PENDING + 1  # 10: score in % of target_score, capped at 255 (teams: the team's)
O_RULES = O_SCORES + MAX_SEATS  # 20: the rule set (constant for an environment)
NUM_RULE_FEATURES = 20
OBS_SIZE = O_RULES + NUM_RULE_FEATURES  # 330

CUSTOM_RULE_NAMES = CUSTOM_RULES  # one observation flag each, in the rule book's order
RULE_FEATURES = (
    "stacking=pass",
    "stacking=progressive",
    "stack_draw4_on_draw2",
    "jump_in",
    "seven_zero",
    "multi_play",
    "wd4_bluffing",
    "force_play_drawn",
    "draw_until_playable",
    "attack_launcher",
    "scoring low or elimination",
    "scoring=teams",
    "scoring=first-out",
    "number of players (2..10)",
    *(f"custom_rule={name}" for name in CUSTOM_RULE_NAMES),
)
assert len(RULE_FEATURES) == NUM_RULE_FEATURES

# (name, start, stop, meaning): the table docs/rl.md shows.
OBS_SLICES: tuple[tuple[str, int, int, str], ...] = (
    ("hand", O_HAND, O_TOP, "own hand: count of each card kind (card id order)"),
    ("top", O_TOP, O_COLOR, "top card of the discard pile, one-hot"),
    ("color", O_COLOR, O_SEEN, "colour in force R,Y,G,B one-hot (0 before a start Wild's)"),
    ("seen", O_SEEN, O_DRAWN, "discard pile: count of each card kind played since reshuffle"),
    ("drawn", O_DRAWN, O_PHASE, "card just drawn that may be played now, one-hot"),
    ("phase", O_PHASE, O_TO_ACT, "play, drawn, start_color, challenge, answer one-hot"),
    ("to_act", O_TO_ACT, O_HAND_SIZE, "seat whose turn it is, relative one-hot"),
    ("hand_size", O_HAND_SIZE, O_ONE_CARD, "cards held by each relative seat"),
    ("one_card", O_ONE_CARD, O_VULNERABLE, "1 if that relative seat holds exactly one card"),
    ("vulnerable", O_VULNERABLE, O_WD4_BY, "seat that may be caught (did not call UNO)"),
    ("wd4_by", O_WD4_BY, O_LIVE, "seat whose Wild Draw Four is being answered"),
    ("live", O_LIVE, O_DIRECTION, "1 for each seat still in the game"),
    ("direction", O_DIRECTION, O_DRAW_PILE, "1 clockwise, 0 counter-clockwise"),
    ("draw_pile", O_DRAW_PILE, O_PENDING, "cards in the draw pile"),
    ("pending", O_PENDING, O_SCORES, "cards the seat to act draws on accepting (a stack, a W+4)"),
    ("scores", O_SCORES, O_RULES, "score in % of target_score per relative seat (cap 255)"),
    ("rules", O_RULES, OBS_SIZE, "rule-set features: " + ", ".join(RULE_FEATURES)),
)

MAX_COUNT = 112  # no pile or hand can hold more cards than the largest deck
SCORE_CAP = 255  # scores are % of target_score, capped to fit a byte
