"""Playing simulated games and counting what happens, on the engine's trusted fast path.

Fast players (``random``, ``careless``, ``reference``) decide from the game itself
with the trusted calls (``playable_cards``, ``play``, ``draw``, ...), like
``benchmarks/bench_engine.py``;
bots get views and their actions go through the checked ``apply``.  Everything is
counted in this loop, with events off: the only thing the loop cannot see, a rebuilt
draw pile, is counted by a subclass hook on the engine's refill.  The test suite checks
every count against the engine's own events on the same games.

What is counted (docs/simulations.md has the definitions):

* a **turn** is one player's go: playing a card, or drawing on their turn (a draw
  followed by playing the drawn card is one turn; answering a stacked hit with a card is
  a turn).  Being skipped, drawing a penalty, accepting a hit and naming a Wild start
  card's colour are not turns;
* a **play** is one card put on the discard pile (a multi-play of three cards is three);
* a **reshuffle** is one rebuild of the draw pile from the discards (R-TURN-6);
* a **challenge** is won by the challenger when the Wild Draw Four was guilty.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from unokit.bots import BOTS, Bot
from unokit.bots.base import BotBase
from unokit.cards import CARD_RANK, NUM_CARDS, WILD, WILD_DRAW4, WILD_SWAP
from unokit.engine.actions import CATCH, CHALLENGE, DRAW, PLAY, Action
from unokit.engine.family import plays
from unokit.engine.game import (
    P_CHALLENGE,
    P_DRAWN,
    P_PLAY,
    P_ROUND_OVER,
    P_START_COLOR,
    ClassicGame,
)
from unokit.engine.state import seat_to_ask
from unokit.match import Match, Timing
from unokit.sim.config import SimConfig
from unokit.simbase import (
    FAST_PLAYERS,
    MAX_DECISIONS,
    N_TYPES,
    SimError,
    Tally,
    derive_seed,
)

# the games this module's tables play (the others: sim/modern.py), declared
CLASSIC_TABLE_GAMES = frozenset({"classic"})


class ChunkTask(NamedTuple):
    """Games ``start`` .. ``start + size - 1`` of ``config``: one unit of parallel work."""

    config: SimConfig
    start: int
    size: int


def run_chunk(task: ChunkTask) -> Tally:
    """Play a chunk of games and return their tally (runs in a worker process)."""
    cfg = task.config
    if cfg.engine == "compiled":
        from unokit import compiled

        tally: Tally = compiled.run_chunk(cfg, task.start, task.size)
        return tally
    tally = Tally(cfg.players)
    if not plays(CLASSIC_TABLE_GAMES, cfg.rules()):  # UNO Flip!, No Mercy: sim/modern.py
        from unokit.sim.modern import ModernTable

        modern = ModernTable(cfg)
        for index in range(task.start, task.start + task.size):
            modern.play(index, tally)
        return tally
    table = Table(cfg)
    for index in range(task.start, task.start + task.size):
        table.play(index, tally)
    return tally


class Table:
    """What every game of a configuration shares: rules, seats, a pristine game to copy."""

    def __init__(self, cfg: SimConfig) -> None:
        self.cfg = cfg
        self.rules = rules = cfg.rules()
        n = cfg.players
        # ClassicGame() rebuilds the deck and the points table each time; copying a pristine
        # game (the engine's own copy()) is several times cheaper and plays the same.
        self.template = ClassicGame(rules, n, seed=0, events=False, record=False, start=False)
        self.challenge_p: list[float] = []
        self.catches: list[bool] = []
        self.forget_p: list[float] = []  # chance of not calling UNO on the last-but-one card
        self.classes: list[Callable[..., Bot] | None] = []
        for name in cfg.seats:
            if name in FAST_PLAYERS:
                self.challenge_p.append(0.0 if name == "reference" else 0.5)
                self.catches.append(name != "reference")
                self.forget_p.append(0.5 if name == "careless" else 0.0)
                self.classes.append(None)
            else:
                cls = BOTS.get(name.removeprefix("bot:"))
                if cls is None:
                    raise SimError(f"unknown player {name!r}")
                self.challenge_p.append(0.0)
                self.catches.append(False)
                self.forget_p.append(0.0)
                self.classes.append(cls)
        self.has_bots = any(cls is not None for cls in self.classes)
        # bots that remember what they saw (ismcts) get the events, as everywhere else
        self.observing = any(
            cls is not None and getattr(cls, "observe", BotBase.observe) is not BotBase.observe
            for cls in self.classes
        )
        self._match: Match | None = None
        # Someone may fail to call UNO, so the others may catch them: ask after each move.
        self.reactive = self.has_bots or any(self.forget_p)
        self.reuse = cfg.rounds_only and not self.has_bots
        self._last: ClassicGame | None = None
        self._counts = [0, 0, 0, 0, 0]
        # Cards whose effect may change the player's own hand size: UNO is called after.
        sz = rules.seven_zero
        self.special = [c >= WILD_SWAP or (sz and c < WILD and CARD_RANK[c] in (0, 7))
                        for c in range(NUM_CARDS)]  # fmt: skip

    def new_game(self, seed: int, dealer: int, events: bool, record: bool = False) -> ClassicGame:
        """A new game whose first round is dealt by ``dealer`` from ``seed``.

        Every round's seed is given explicitly, so the game's own RNG is never used and
        a copy of the pristine template (the engine's ``copy()``) plays exactly like a
        new ``Game``.  Single rounds between fast players go faster still: the last
        game deals its next round, which is the same as a new game's first round while
        no seat is eliminated and the game is not over (scores and the round number
        change, but no fast player looks at them).  With ``events`` a new game is built,
        since copies have none; the tests compare the two ways.
        """
        last = self._last
        if events or record:
            game = ClassicGame(self.rules, self.cfg.players, events=events, record=record,
                        start=False)  # fmt: skip
        elif last is not None and last.phase == P_ROUND_OVER and last.n_live == last.n:
            game = last
            game.reshuffles = 0
        else:
            game = self.template.copy()
            if self.reuse:
                self._last = game
        game.start_round(dealer, seed=seed)
        return game

    def play(
        self, index: int, tally: Tally, *, events: bool = False, record: bool = False
    ) -> ClassicGame:
        """Play game ``index`` and add its counts to ``tally``; return the finished game.

        Everything random comes from ``derive_seed(cfg.seed, index)``: the dealer, each
        round's seed, the bots' seeds and the fast players' choices.  ``events`` turns
        the engine's events on (slower, same game): the tests count from them;
        ``record`` keeps the game's record (the cross-front-end test compares them).
        """
        cfg = self.cfg
        n = cfg.players
        grng = random.Random(derive_seed(cfg.seed, index))
        rand = grng.random
        getrandbits = grng.getrandbits
        first_dealer = cfg.dealer if cfg.dealer is not None else grng.randrange(n)
        game = self.new_game(getrandbits(48), first_dealer, events or self.observing, record)
        bots: list[Bot | None] = [
            cls(seed=getrandbits(63)) if cls is not None else None for cls in self.classes
        ]
        # bots are asked, told and checked by the match (unokit.match), as in every
        # front end; the fast players below decide on the engine's trusted calls
        self._match = Match(game, bots, timing=Timing.instant()) if self.has_bots else None
        has_bots = self.has_bots
        reactive = self.reactive
        forget = self.forget_p
        challenge_p = self.challenge_p
        seven_zero = self.rules.seven_zero
        jump_in = self.rules.jump_in and has_bots  # fast players never jump in
        special = self.special
        rank = CARD_RANK
        pc = tally.plays_by_card
        tc = [0] * N_TYPES
        # [turns, draw turns, challenges, challenges won, catches]: the bot helpers add here
        c = self._counts = [0, 0, 0, 0, 0]
        turns = rounds = 0
        live = game.live

        def play_special(seat: int, card: int) -> None:
            hand = game.hands[seat]
            color = int(rand() * 4) if card >= WILD else -1
            target = -1
            if len(hand) > 1 and (
                card == WILD_SWAP or (seven_zero and card < WILD and rank[card] == 7)
            ):
                others = [s for s in range(n) if s != seat and live[s]]
                target = others[int(rand() * len(others))]
            game.play(seat, card, color, False, target)
            if game.vulnerable == seat and not (forget[seat] and rand() < forget[seat]):
                game.call_uno(seat)

        while True:
            rt = 0  # this round's turns by fast players
            for _ in range(MAX_DECISIONS):
                phase = game.phase
                if phase >= P_ROUND_OVER:
                    break
                seat = game.current
                if reactive:
                    if (game.vulnerable >= 0 or jump_in) and self._react(game, bots, pc, tc):
                        continue
                    bot = bots[seat] if has_bots else None
                    if bot is not None:
                        self._act(game, seat, bot, pc, tc)
                        continue
                if phase <= P_DRAWN:  # P_PLAY (0) or P_DRAWN (1)
                    if phase == P_PLAY:
                        rt += 1
                        options = game.playable_cards(seat)
                        if not options:
                            c[1] += 1
                            game.draw(seat)
                            continue
                        card = options[int(rand() * len(options))]
                    else:
                        card = game.drawn
                    pc[card] += 1
                    tc[rank[card]] += 1
                    if special[card]:
                        play_special(seat, card)
                    else:
                        uno = len(game.hands[seat]) == 2
                        if uno and forget[seat] and rand() < forget[seat]:
                            uno = False
                        game.play(seat, card, int(rand() * 4) if card >= WILD else -1, uno)
                elif phase == P_CHALLENGE:
                    p = challenge_p[seat]
                    if p and rand() < p:
                        c[2] += 1
                        c[3] += game.wd4_guilty
                        game.challenge(seat)
                    else:
                        game.accept(seat)
                elif phase == P_START_COLOR:
                    target = -1
                    if game.discard[-1] == WILD_SWAP:
                        others = [s for s in range(n) if s != seat and live[s]]
                        target = others[int(rand() * len(others))]
                    game.choose_color(seat, int(rand() * 4), target)
                else:  # P_ANSWER (stacking): answer with a card if possible
                    options = game.playable(seat)
                    p = challenge_p[seat]
                    if options:
                        rt += 1
                        card = options[int(rand() * len(options))]
                        pc[card] += 1
                        tc[rank[card]] += 1
                        uno = len(game.hands[seat]) == 2
                        if uno and forget[seat] and rand() < forget[seat]:
                            uno = False
                        game.play(seat, card, int(rand() * 4) if card >= WILD else -1, uno)
                    elif game.pend_card == WILD_DRAW4 and p and rand() < p:
                        c[2] += 1
                        c[3] += game.wd4_guilty
                        game.challenge(seat)
                    else:
                        game.accept(seat)
            else:  # a loop the rules force (docs/rules.md): the game counts for no one
                tally.stalled += 1
                self._last = None  # never deal the next game from this one
                return game
            rounds += 1
            rt += c[0]  # turns taken by bots this round
            c[0] = 0
            turns += rt
            tally.round_turns.add(rt)
            winner = game.round_winner
            tally.round_points.add(game.round_points(winner))
            if cfg.rounds_only or game.game_over:
                break
            game.start_round(seed=getrandbits(48))  # bots keep their memory across rounds

        if cfg.rounds_only or self.rules.scoring == "teams":
            winner = game.round_winner  # under teams: the partner who went out last
        else:
            winner = game.game_winner
        tally.add_game(winner, (winner - first_dealer) % n, turns, rounds, game.reshuffles, c)
        sq = tally.type_sq
        for t, k in enumerate(tc):
            if k:
                sq[t] += k * k
        return game

    # ------------------------------------------------------------------ bots -------
    def _count_action(
        self, game: ClassicGame, action: Action, pc: list[int], tc: list[int]
    ) -> None:
        c = self._counts
        kind = action.kind
        if kind == PLAY:
            if game.phase != P_DRAWN:  # a play after drawing belongs to the drawing turn
                c[0] += 1
            for card in (action.card, *action.extra):
                pc[card] += 1
                tc[CARD_RANK[card]] += 1
        elif kind == DRAW and game.phase == P_PLAY:
            c[0] += 1
            c[1] += 1
        elif kind == CHALLENGE:
            c[2] += 1
            c[3] += game.wd4_guilty
        elif kind == CATCH:
            c[4] += 1

    def _act(self, game: ClassicGame, seat: int, bot: Bot, pc: list[int], tc: list[int]) -> None:
        """A bot's turn, through the match: told its events, asked on its view (a catch
        first while someone is catchable, then its turn), checked."""
        match = self._match
        assert match is not None
        action = match.bot_decision(seat)
        if action is None:
            raise RuntimeError(f"the bot of seat {seat} gave no action")
        self._count_action(game, action, pc, tc)
        match.submit(seat, action)

    def _react(
        self, game: ClassicGame, bots: list[Bot | None], pc: list[int], tc: list[int]
    ) -> bool:
        """Someone may be caught, or jump in: out-of-turn seats first, in ``to_ask``'s order.

        Bots are asked through the match; a fast ``random`` or ``careless`` seat
        catches; a ``reference`` seat lets the moment pass, and so does a careless
        player who forgot their own call.  A bot whose turn it is decides in ``_act``
        (a catch first, then its turn).  True if someone acted.
        """
        v = game.vulnerable
        match = self._match
        cur = game.current
        passed: set[int] = set()  # seats asked that let this moment go, as to_ask keeps
        while True:
            s = seat_to_ask(game, passed, None)  # every seat is waited on here
            if s == cur:
                break
            passed.add(s)
            bot = bots[s]
            if bot is not None:
                assert match is not None
                action = match.bot_decision(s)
                if action is not None:
                    self._count_action(game, action, pc, tc)
                    match.submit(s, action)
                    return True
            elif self.catches[s] and v >= 0 and s != v:
                self._counts[4] += 1
                game.catch(s, v)
                return True
        # the seat to act: a bot decides in _act (a catch first); a fast player catches
        if bots[cur] is None and self.catches[cur] and v >= 0 and cur != v:
            self._counts[4] += 1
            game.catch(cur, v)
            return True
        return False
