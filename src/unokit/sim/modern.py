"""Simulated games of UNO Flip! and No Mercy (RULES-MODERN.md), on the Python engine.

The classic driver (``sim/driver.py``) reads the classic card ids on its fast path;
the modern games have their own (``modern_cards.py``), so they play here.  The same
``Tally`` is filled, with the same definitions (docs/simulations.md), plus what only
these games have:

* a **turn** is one player's go: a play or a draw on their turn (a draw and the play
  of the drawn card are one turn; No Mercy's draw until playable is one turn), an
  answer to a stack with a card, a jump-in; being skipped, absorbing a stack,
  accepting a hit and naming a colour are not turns;
* **knock-outs** (No Mercy, NM-MERCY-1): players knocked out, per game;
* a hand **decided by the Mercy rule** is one won because every other player was
  knocked out (NM-END-3), not by going out;
* **flips** (UNO Flip!, FLIP-FLIP-1): Flip cards played, per game.

Fast players (``random``, ``careless``, ``reference``) decide on the engine's legal
actions without views: a uniformly random play when there is one (the UNO call
included, unless a careless player forgets it), else the draw, the absorb or the
accept; random colours and 7-swap targets; random and careless players challenge a
Wild Draw Two or Colour half of the time and catch a missed UNO; the reference player
does neither.  Bots get views and their actions are checked by the match, as in
every front end.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from unokit.bots import BOTS, Bot
from unokit.bots.base import BotBase
from unokit.engine.actions import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, KEEP, PLAY, UNO, Action
from unokit.engine.family import new_game
from unokit.engine.game import Game
from unokit.engine.modern.base import ModernGame
from unokit.engine.phases import P_DRAWN, P_PLAY, P_ROUND_OVER
from unokit.engine.state import seat_to_ask
from unokit.match import Match, Timing
from unokit.sim.config import SimConfig
from unokit.simbase import FAST_PLAYERS, MAX_DECISIONS, SimError, Tally, derive_seed


class ModernTable:
    """What every game of a modern configuration shares: rules and seats."""

    def __init__(self, cfg: SimConfig) -> None:
        self.cfg = cfg
        self.rules = cfg.rules()
        self.classes: list[Callable[..., Bot] | None] = []
        self.challenge_p: list[float] = []
        self.catches: list[bool] = []
        self.forget_p: list[float] = []
        for name in cfg.seats:
            if name in FAST_PLAYERS:
                self.classes.append(None)
                self.challenge_p.append(0.0 if name == "reference" else 0.5)
                self.catches.append(name != "reference")
                self.forget_p.append(0.5 if name == "careless" else 0.0)
            else:
                cls = BOTS.get(name.removeprefix("bot:"))
                if cls is None:
                    raise SimError(f"unknown player {name!r}")
                self.classes.append(cls)
                self.challenge_p.append(0.0)
                self.catches.append(False)
                self.forget_p.append(0.0)
        self.has_bots = any(c is not None for c in self.classes)
        self.observing = any(
            c is not None and getattr(c, "observe", BotBase.observe) is not BotBase.observe
            for c in self.classes
        )

    def play(self, index: int, tally: Tally, *, events: bool = False) -> Game:
        """Play game ``index`` (seeded by ``derive_seed(cfg.seed, index)``) into ``tally``."""
        cfg = self.cfg
        n = cfg.players
        grng = random.Random(derive_seed(cfg.seed, index))
        rand = grng.random
        first_dealer = cfg.dealer if cfg.dealer is not None else grng.randrange(n)
        game = new_game(self.rules, n, seed=grng.getrandbits(48), dealer=first_dealer,
                    events=events or self.observing, record=False)  # fmt: skip
        game = ModernGame.of(game)  # this table plays the modern games (driver.py)
        bots: list[Bot | None] = [
            cls(seed=grng.getrandbits(63)) if cls is not None else None for cls in self.classes
        ]
        match = Match(game, bots, timing=Timing.instant()) if self.has_bots else None
        counts = [0, 0, 0, 0, 0, 0]  # turns, draw turns, challenges, won, catches, flips
        turns = rounds = knockouts = 0

        def count(seat: int, a: Action) -> None:
            k = a.kind
            if k == PLAY:
                if game.phase != P_DRAWN:
                    counts[0] += 1
            elif k == DRAW and game.phase == P_PLAY:
                counts[0] += 1
                counts[1] += 1
            elif k == CHALLENGE:
                counts[2] += 1
                counts[3] += bool(game.wd4_guilty)
            elif k == CATCH:
                counts[4] += 1

        def fast(seat: int) -> Action | None:
            """A fast player's decision (None: it lets an out-of-turn moment pass)."""
            legal = game.legal_actions(seat)
            if seat != game.current:
                v = game.vulnerable
                if seat == v and not (self.forget_p[seat] and rand() < self.forget_p[seat]):
                    return Action(UNO)
                if self.catches[seat] and v >= 0 and seat != v:
                    return Action(CATCH, target=v)
                return None
            v = game.vulnerable
            if self.catches[seat] and v >= 0 and v != seat:
                return Action(CATCH, target=v)
            plays = [a for a in legal if a.kind == PLAY]
            if plays:
                calls = [a for a in plays if a.uno]
                forget = self.forget_p[seat] and rand() < self.forget_p[seat]
                pick = [a for a in plays if not a.uno] if forget or not calls else calls
                pick = pick or plays
                return pick[int(rand() * len(pick))]
            colours = [a for a in legal if a.kind == COLOR]
            if colours:
                return colours[int(rand() * len(colours))]
            if any(a.kind == CHALLENGE for a in legal):
                p = self.challenge_p[seat]
                return Action(CHALLENGE) if p and rand() < p else Action(ACCEPT)
            for kind in (ACCEPT, KEEP, DRAW):
                for a in legal:
                    if a.kind == kind:
                        return a
            return legal[0]

        while True:
            rt = 0
            side = game.side_up()
            passed: set[int] = set()
            for _ in range(MAX_DECISIONS):
                if game.phase >= P_ROUND_OVER:
                    break
                seat = seat_to_ask(game, passed, None)
                bot = bots[seat]
                if bot is not None:
                    assert match is not None
                    action = match.bot_decision(seat)
                else:
                    action = fast(seat)
                if action is None:
                    if seat == game.current:
                        raise SimError(f"seat {seat} gave no action on its turn")
                    passed.add(seat)
                    continue
                count(seat, action)
                if bot is not None:
                    assert match is not None
                    match.submit(seat, action)
                else:
                    game.apply_trusted(seat, action)
                passed = set()
                if game.side_up() != side:
                    counts[5] += 1
                    side = game.side_up()
            else:  # a loop the rules force (docs/rules.md): the game counts for no one
                tally.stalled += 1
                return game
            rounds += 1
            rt = counts[0]
            counts[0] = 0
            turns += rt
            tally.round_turns.add(rt)
            winner = game.round_winner
            tally.round_points.add(game.round_points(winner))
            out = game.knocked_out()
            knockouts += out
            if out and game.n_live == 1:  # NM-END-3: everyone else was knocked out
                tally.mercy_rounds += 1
            if cfg.rounds_only or game.game_over:
                break
            if match is not None:
                match.next_round()
            else:
                game.start_round()
        winner = game.round_winner if cfg.rounds_only else game.game_winner
        tally.add_game(winner, (winner - first_dealer) % n, turns, rounds, game.reshuffles, counts)
        tally.knockouts.add(knockouts)
        tally.flips.add(counts[5])
        return game


__all__ = ["ModernTable"]
