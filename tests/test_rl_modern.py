"""UNO Flip! and No Mercy in the RL environments (issue 50, item 2): their action tables
(``obs.flip``, ``obs.nomercy``) cover every single-card legal action, masks are exactly
the legal actions, observations are a function of the seat's view (hidden cards dealt
again change nothing), and the PettingZoo and Gymnasium checkers pass."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from helpers import FLIP_OPTIONS, NM_OPTIONS
from test_modern_properties import _flip_hidden_dealt_again, _nm_hidden_dealt_again
from unokit.engine import FlipGame, Game, NoMercyGame, view_of
from unokit.obs.tables import TABLES, ViewTable, make_table, tables_for
from unokit.rl import IllegalTableAction, UnoGymEnv, uno_v1
from unokit.rules import RuleSet, from_preset

GAMES = ("flip", "no-mercy")
OPTIONS = {"flip": FLIP_OPTIONS, "no-mercy": NM_OPTIONS}


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checkers warn about dict observations
        yield


def _rules(game: str, rng: random.Random) -> RuleSet:
    """A rule set of ``game`` with each option drawn from the values worth trying."""
    opts = {k: rng.choice(v) for k, v in OPTIONS[game].items()}
    return from_preset(game, opts)


def _seats(rules: RuleSet, k: int) -> int:
    lo, hi = rules.player_range()
    return max(lo, min(hi, k))


def _random_states(table: ViewTable, rng: random.Random, steps: int) -> Iterator[int]:
    """Masked random actions through ``table``; yields the seat to decide each time."""
    table.new_game(rng.randrange(1 << 30))
    for _ in range(steps):
        if table.round_over:
            if table.game.game_over:
                table.new_game(rng.randrange(1 << 30))
            else:
                table.next_round()
            continue
        seat = table.select()
        yield seat
        mask = table.mask_array(seat)
        table.step(seat, int(rng.choice(np.flatnonzero(mask))))


# ---------------------------------------------------------------- the tables -------
@pytest.mark.parametrize("game", GAMES)
def test_every_single_card_legal_action_has_one_index_and_back(game: str) -> None:
    """Each legal action of every seat (out-of-turn ones too) has its own index, named
    by ``action_name``; only multi-plays (R-VAR-MULTI) have none."""
    rng = random.Random(f"index-{game}")
    seen: set[int] = set()
    multi = 0
    for k in range(12):
        rules = _rules(game, rng)
        t = tables_for(rules)
        n = _seats(rules, 2 + k % 5)
        table = ViewTable(rules, n, t)
        for _ in _random_states(table, rng, 300):
            g = table.game
            for s in range(n):
                legal = g.legal_actions(s)
                got = [t.action_index(s, n, a) for a in legal]
                multi += sum(1 for a, i in zip(legal, got, strict=True) if i < 0 and a.extra)
                assert all(i >= 0 for a, i in zip(legal, got, strict=True) if not a.extra)
                real = [i for i in got if i >= 0]
                assert len(real) == len(set(real)), (game, s, legal)  # one index each
                assert all(0 <= i < t.a_pass for i in real)
                seen.update(real)
    assert len(seen) > 60, len(seen)  # many kinds of actions were reached
    assert all(t.action_name(i) for i in range(t.num_actions))
    with pytest.raises(ValueError, match="no action"):
        t.action_name(t.num_actions)
    if game == "flip":
        assert multi > 0  # multi-play came up and was left out, as documented


@pytest.mark.parametrize("game", GAMES)
def test_masks_are_the_legal_actions_and_observations_fit_the_box(game: str) -> None:
    rng = random.Random(f"mask-{game}")
    for k in range(8):
        rules = _rules(game, rng)
        t = tables_for(rules)
        n = _seats(rules, 2 + k % 4)
        table = make_table(rules, n)
        low, high = t.bounds()
        assert isinstance(table, ViewTable)
        for seat in _random_states(table, rng, 250):
            for s in {seat, rng.randrange(n)}:
                obs, mask = table.observe_with_mask(s)
                assert obs.shape == (t.obs_size,) and mask.shape == (t.num_actions,)
                assert (obs >= low).all() and (obs <= high).all()
                view = view_of(table.game, s)
                want = {t.action_index(s, n, a) for a in view.legal} - {-1}
                got = set(np.flatnonzero(mask).tolist()) - {t.a_pass}
                assert got == want
                may_pass = not table.round_over and view.current != s and view.live[s]
                assert bool(mask[t.a_pass]) == may_pass


def _dealt_again(g: Game, seat: int, rng: random.Random) -> Game:
    if isinstance(g, FlipGame):
        return _flip_hidden_dealt_again(g, seat, rng)
    assert isinstance(g, NoMercyGame)
    return _nm_hidden_dealt_again(g, seat, rng)


@pytest.mark.parametrize("game", GAMES)
def test_no_leak_hidden_cards_dealt_again_change_no_observation(game: str) -> None:
    """FLIP-VIEW-1..3 and No Mercy's hidden hands: every card or face a seat may not see
    dealt again, its observation and mask are the same."""
    rng = random.Random(f"leak-{game}")
    checked = 0
    for k in range(6):
        rules = _rules(game, rng)
        n = _seats(rules, 3 + k % 3)
        table = make_table(rules, n)
        a, b = make_table(rules, n), make_table(rules, n)
        for i, _ in enumerate(_random_states(table, rng, 200)):  # type: ignore[arg-type]
            if i % 7:
                continue
            for seat in range(n):
                a.set_game(table.game.copy())
                b.set_game(_dealt_again(table.game, seat, rng))
                oa, ma = a.observe_with_mask(seat)
                ob, mb = b.observe_with_mask(seat)
                assert np.array_equal(oa, ob) and np.array_equal(ma, mb), (game, seat)
                checked += 1
    assert checked >= 150


def test_flip_observation_shows_opponents_backs_and_the_pile_top() -> None:
    """FLIP-VIEW-2, -3: the observation carries what a Flip player sees of others'
    cards (their inactive faces, counted per opponent seat) and of the draw pile."""
    from unokit.obs import flip

    g = Game(from_preset("flip"), 3, seed=4)
    table = make_table(g.rules, 3)
    table.set_game(g)
    o = table.observe(0)
    L = flip.LAYOUT
    view = view_of(g, 0)
    for k in (1, 2):
        block = o[L["others"] + (k - 1) * flip.NF : L["others"] + k * flip.NF]
        assert block.sum() == len(view.others[k])  # type: ignore[attr-defined]
        for f in view.others[k]:  # type: ignore[attr-defined]
            assert block[flip.face_slot(f)] >= 1
    assert o[L["pile_top"] + flip.face_slot(view.pile_top)] == 1  # type: ignore[attr-defined]
    assert o[L["others"] + 2 * flip.NF : L["top"]].sum() == 0  # seats beyond the table


def test_a_refused_action_changes_nothing() -> None:
    for game in GAMES:
        table = make_table(from_preset(game), 3)
        table.new_game(5)
        seat = table.select()
        before = table.game.to_json_obj()
        mask = table.mask_array(seat)
        bad = int(np.flatnonzero(mask == 0)[0])
        for index in (bad, -1, TABLES[game].num_actions):
            with pytest.raises(IllegalTableAction):
                table.step(seat, index)
        assert table.game.to_json_obj() == before


# ---------------------------------------------------------- the environments ------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed(game: str, players: int) -> None:
    api_test(uno_v1.env(num_players=players, preset=game, render_mode="ansi"), num_cycles=200)
    seed_test(lambda: uno_v1.env(num_players=players, preset=game), num_cycles=50)


@pytest.mark.parametrize(
    ("game", "options"),
    [("flip", {"scoring": "standard", "target_score": 1500}),
     ("no-mercy", {"scoring": "standard", "target_score": 3000})],
)  # fmt: skip
def test_whole_game_episodes_end_when_the_game_does(game: str, options: dict[str, Any]) -> None:
    """episode="game": rounds follow each other until the game is won; a seat knocked
    out of one No Mercy hand plays the next (NM-END-4), so it is not terminated."""
    env = uno_v1.env(num_players=4, preset=game, options=options, episode="game")
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    rounds = 0  # the last round index seen
    out: set[str] = set()  # agents seen knocked out of the round being played
    came_back = 0  # decisions of agents that were out of the round before
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(2_000_000):
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        g = env.table.game
        if g.round_index > rounds:
            rounds = g.round_index
            came_back_from, out = out, set()
        elif g.round_index == 0:
            came_back_from = set()
        live = view_of(g, None).live
        out |= {a for a in env.agents if not live[int(a.split("_")[1])]}
        came_back += agent in came_back_from
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.table.game.game_over
    assert rounds >= 1  # more than one round was played in the episode
    if game == "no-mercy":
        assert came_back  # NM-END-4: knocked out of one hand, dealt into the next
    winner = env.table.game.game_winner
    assert winner >= 0 and env.table.game.scores[winner] >= options["target_score"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_gymnasium_env_against_bots(game: str, opponents: str) -> None:
    env = UnoGymEnv(3, preset=game, opponents=opponents)
    check_env(env, skip_render_check=True)
    t = TABLES[game]
    assert env.observation_space["observation"].shape == (t.obs_size,)  # type: ignore[index]
    assert env.action_space.n == t.num_actions  # type: ignore[attr-defined]
    rng = np.random.default_rng(1)
    ends = 0
    for ep in range(6):
        obs, _ = env.reset(seed=ep)
        done = False
        while not done:
            assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
            obs, reward, term, trunc, info = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            done = term or trunc
        ends += term
        assert reward in (-1.0, 1.0) and info["round_winner"] >= 0
    assert ends == 6
    assert "won the round" in env.table.render()


# ------------------------------------------------------------ the learned bot -----
def _random_weights(path: Any, game: str, seed: int) -> None:
    """A weights file of ``game``'s table shapes (as ``unokit train`` writes them)."""
    t = TABLES[game]
    rng = np.random.default_rng(seed)
    h = 256
    np.savez(
        path,
        w0=rng.normal(0, 0.1, (t.obs_size, h)).astype(np.float32),
        b0=np.zeros(h, np.float32),
        w1=rng.normal(0, 0.1, (h, h)).astype(np.float32),
        b1=np.zeros(h, np.float32),
        wpi=rng.normal(0, 0.1, (h, t.num_actions)).astype(np.float32),
        bpi=np.zeros(t.num_actions, np.float32),
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_learned_bot_plays_a_game_with_weights_of_its_table(game: str, tmp_path: Any) -> None:
    """The learned bot reads any game's table: with weights of that table's shape it
    plays whole rounds through the engine's checks, on its turn and out of turn."""
    from test_learned import Checked
    from unokit.bots import RandomBot, play_round
    from unokit.bots.learned import LearnedBot

    path = tmp_path / f"{game}.npz"
    _random_weights(path, game, 1)
    assert LearnedBot(weights=str(path)).games == {game}  # what the weights were for
    for seed in range(3):
        g = Game(from_preset(game), 3, seed=seed, events=False)
        bots = [Checked(LearnedBot(seed=seed, weights=str(path))), RandomBot(1), RandomBot(2)]
        play_round(g, bots)
        assert g.round_winner >= 0


def test_the_learned_bot_refuses_weights_of_another_table(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unokit.bots import learned
    from unokit.bots.learned import LearnedBot, LearnedUnsupported

    path = tmp_path / "classic.npz"
    _random_weights(path, "classic", 2)
    view = view_of(Game(from_preset("flip"), 2, seed=1), 0)
    with pytest.raises(LearnedUnsupported, match="trained for another game"):
        LearnedBot(weights=str(path)).act(view)
    for game in GAMES:  # a game whose weights are not there is refused by name
        monkeypatch.setitem(learned.WEIGHT_FILES, game, "not-shipped.npz")
        view = view_of(Game(from_preset(game), 2, seed=1), 0)
        with pytest.raises(LearnedUnsupported, match="no weights for"):
            LearnedBot().act(view)


def test_no_mercy_score_rewards_pay_what_the_winner_scores() -> None:
    """reward="score" under standard scoring: the winner gains what the game scores it
    (the other hands' points and 250 per knock-out, NM-SCORE-2) / 100, and each other
    seat loses its share: a knocked-out seat 2.5, a seat still in its hand's points."""
    rules = from_preset("no-mercy", {"scoring": "standard", "target_score": 100_000})
    table = make_table(rules, 4, reward="score")
    rng = random.Random(5)
    knocked = 0
    for seed in range(30):
        table.new_game(seed)
        while not table.round_over:
            s = table.select()
            table.step(s, int(rng.choice(np.flatnonzero(table.mask_array(s)))))
        g = table.game
        r = table.round_rewards()
        w = g.round_winner
        assert r[w] == pytest.approx(g.scores[w] / 100)
        for s in range(4):
            if s != w:
                want = 2.5 if not g.live[s] else g.hand_points(s) / 100
                assert r[s] == pytest.approx(-want)
                knocked += not g.live[s]
    assert knocked > 0  # the Mercy rule came up
