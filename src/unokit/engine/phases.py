"""Phases: what the seat to act must decide now."""

P_PLAY = 0  # play a card or draw
P_DRAWN = 1  # the drawn card is playable: play it or keep it
P_START_COLOR = 2  # a Wild start card: the first player names the colour
P_CHALLENGE = 3  # hit by a Wild Draw Four (no stacking): challenge or accept
P_ANSWER = 4  # stacking on: hit by a card that may be answered (R-VAR-ANSWER)
P_ROUND_OVER = 5
P_GAME_OVER = 6
PHASE_NAMES = (
    "play", "drawn", "start_color", "challenge", "answer", "round_over", "game_over",
)  # fmt: skip
