"""One match, five front ends (issue 34): the same rules, deals and bots played through
the bot runner, a tournament, the simulator's reference driver, the RL environment and
a server room give byte-identical records.

Each front end seeds its deals its own documented way (a tournament from the deal
number, the simulator from ``derive_seed``, the RL environment from its ``np_random``,
a room from fresh secrets); the test builds the same game each one builds and plays it
with the bot runner (``Match``), so what is compared is who is asked, in which order,
what each bot is told, and what is applied.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from server_helpers import bare_server, self_step
from unokit.bots import BOTS, Bot
from unokit.bots.base import RandomBot
from unokit.bots.runner import play_round
from unokit.engine import Game
from unokit.engine.actions import PLAY, Action
from unokit.engine.view import View
from unokit.match import Match, Timing, ask_bot
from unokit.obs.spec import A_PASS, action_index
from unokit.record import dumps
from unokit.rl.uno_v1 import UnoAECEnv
from unokit.rules import PRESET_PLAYERS, PRESETS, RuleSet, from_preset
from unokit.server.room import Room, make_bot
from unokit.server.store import MemoryStore
from unokit.sim import SimConfig, Table, Tally
from unokit.simbase import derive_seed
from unokit.tournament import Entrant, Spec, play_table

NAMES = ("heuristic", "jumper", "random")
TARGET = {"target_score": 120}


class JumpBot(RandomBot):
    """Jumps in whenever it may (R-VAR-JUMPIN), so out-of-turn plays are compared too."""

    def react(self, view: View) -> Action | None:
        for a in view.legal:
            if a.kind == PLAY and view.current != view.seat:
                return a
        return super().react(view)


@pytest.fixture(autouse=True)
def _jumper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "jumper", JumpBot)


def players(preset: str) -> int:
    return PRESET_PLAYERS.get(preset, 4 if preset == "teams" else 3)


def rules_of(preset: str) -> RuleSet:
    return from_preset(preset, TARGET)


def bots(n: int, seed_of: Callable[[int], int]) -> list[Bot]:
    return [BOTS[NAMES[s % len(NAMES)]](seed=seed_of(s)) for s in range(n)]  # type: ignore[call-arg]


def reference(game: Game, table: list[Bot], next_round: Callable[[Match], None]) -> str:
    """The bot runner's loop: rounds through ``Match`` until the game is over."""
    match = Match(game, table, timing=Timing.instant())
    while True:
        play_round(match)
        if game.game_over:
            return dumps(game)
        next_round(match)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_tournament_plays_what_the_runner_plays(preset: str) -> None:
    n = players(preset)
    rules = rules_of(preset)
    entrants = tuple(Entrant(name, name) for name in NAMES)
    spec = Spec(entrants, n, rules, seed=0, full_games=True)
    lineup = tuple(s % len(NAMES) for s in range(n))
    from unokit.tournament import Tally as TTally

    s = 4242
    game = play_table(spec, lineup, s, 0, TTally(len(NAMES), n))
    assert game.game_over
    ref = Game(rules, [f"P{i}" for i in range(n)], seed=s)
    expected = reference(ref, bots(n, lambda k: s * 16 + k), lambda m: m.next_round())
    assert dumps(game) == expected


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_simulator_plays_what_the_runner_plays(preset: str) -> None:
    n = players(preset)
    seats = tuple(n_ if n_ != "random" else "bot:random" for n_ in (NAMES * 4)[:n])
    cfg = SimConfig(preset=preset, options=tuple(TARGET.items()), seats=seats, games=1,
                    seed=9)  # fmt: skip
    game = Table(cfg).play(0, Tally(n), record=True)
    assert game.game_over
    grng = random.Random(derive_seed(cfg.seed, 0))
    dealer = grng.randrange(n)
    ref = Game(rules_of(preset), n, start=False)
    ref.start_round(dealer, seed=grng.getrandbits(48))
    table = bots(n, lambda k: grng.getrandbits(63))
    expected = reference(ref, table, lambda m: m.start_round(seed=grng.getrandbits(48)))
    assert dumps(game) == expected


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if not from_preset(p).multi_play))
def test_the_rl_environment_plays_what_the_runner_plays(preset: str) -> None:
    """Every agent played by a bot through the AEC environment's action indices."""
    n = players(preset)
    env = UnoAECEnv(n, rules=rules_of(preset), episode="game")
    env.table.record = True
    table = bots(n, lambda k: 77 + k)
    env.reset(seed=5)
    game = env.table.game
    observed = [0] * n
    from unokit.match import inform

    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        g = env.table.game
        observed[seat] = inform(table[seat], g, seat, observed[seat])
        action = ask_bot(table[seat], g, seat)
        index = A_PASS if action is None else action_index(seat, n, action)
        assert index >= 0, action
        env.step(index)
    assert game.game_over
    seed = int(np.random.default_rng(5).integers(2**62))
    ref = Game(rules_of(preset), n, seed=seed)
    expected = reference(ref, bots(n, lambda k: 77 + k), lambda m: m.next_round())
    assert dumps(game) == expected


@pytest.mark.asyncio
@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_a_server_room_plays_what_the_runner_plays(preset: str) -> None:
    """A room of bots (the host's seat on the autopilot) against the runner on the
    room's own seeds: the game seed, each round's seed and dealer.  Every move and
    every next round goes through the server's one commit path (``Server.commits``:
    stored, then applied), as the driver of a live room makes them."""
    n = players(preset)
    levels = ["hard", "normal", "easy", "hard", "normal"][: n - 1]
    store = MemoryStore()
    server = bare_server(store)
    room, _ = Room.create(store, "Ana", preset, TARGET, n, list(levels), 0)
    room.start(0)
    room.set_autopilot(0, True)
    assert room.match is not None
    game = room.match.game
    for _ in range(200_000):
        if room.status == "over":
            break
        assert await self_step(server, room)
    assert game.game_over
    names = list(game.names)
    ref = Game(room.rules, names, seed=room.game_seed, events=True, start=False)
    ref.choose_dealer()
    first = room.rounds[0]
    ref.start_round(first.dealer, seed=first.seed)
    seeds = iter(room.rounds[1:])
    table: list[Bot] = [make_bot("hard", room.game_seed)]
    table += [make_bot(levels[i - 1], room.game_seed + i) for i in range(1, n)]

    def next_round(m: Match) -> None:
        rs = next(seeds)
        m.start_round(rs.dealer, seed=rs.seed)

    assert dumps(game) == reference(ref, table, next_round)
    assert len(store.log(room.code, room.game_no)) == room.log_len  # each move stored
