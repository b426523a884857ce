"""PPO with masked logits on the vector environment: the torch half of ``unokit train``
(``unokit.rl.train`` has the settings and the command; docs/rl.md)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from unokit.bots.learned import HIDDEN, obs_scale, prune
from unokit.engine import game_class
from unokit.obs.tables import GameTables, tables_for
from unokit.rl.train_config import Config
from unokit.rl.vector import UnoVectorEnv, UnoVectorGymEnv, unsupported, vector_game
from unokit.rules import from_preset

F32 = npt.NDArray[np.float32]
NEG = -1e9


class Policy:
    """The network, without subclassing ``nn.Module`` (its type is Any without torch)."""

    def __init__(self, tables: GameTables) -> None:
        self.body = nn.Sequential(
            nn.Linear(tables.obs_size, HIDDEN),
            nn.ReLU(),
            nn.Linear(HIDDEN, HIDDEN),
            nn.ReLU(),
        )
        self.pi = nn.Linear(HIDDEN, tables.num_actions)
        self.v = nn.Linear(HIDDEN, 1)
        self.modules = nn.ModuleList([self.body, self.pi, self.v])
        with torch.no_grad():
            self.pi.weight.mul_(0.01)
            self.pi.bias.zero_()
        self.scale = torch.from_numpy(obs_scale(tables.game))

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and values of a batch (obs uint8, mask int8 or bool)."""
        h = self.body(obs.float() * self.scale)
        logits = self.pi(h).masked_fill(mask == 0, NEG)
        return logits, self.v(h).squeeze(-1)

    def act(self, obs: npt.NDArray[Any], mask: npt.NDArray[Any], greedy: bool = False) -> Any:
        """Actions, log-probabilities and values of a batch (numpy in, numpy out)."""
        with torch.no_grad():
            logits, value = self.forward(torch.from_numpy(obs), torch.from_numpy(mask))
            if greedy:
                return logits.argmax(-1).numpy(), None, None
            logp = torch.log_softmax(logits, -1)
            a = torch.multinomial(logp.exp(), 1)
            return a.squeeze(1).numpy(), logp.gather(1, a).squeeze(1).numpy(), value.numpy()

    def state(self) -> dict[str, Any]:
        return {k: v.detach().clone() for k, v in self.modules.state_dict().items()}

    def load(self, state: dict[str, Any]) -> None:
        self.modules.load_state_dict(state)

    def export(self, path: Path, meta: dict[str, Any]) -> None:
        """The weights in the ``learned`` bot's numpy format (float32, (in, out))."""
        s = self.modules.state_dict()

        def w(key: str) -> F32:
            out: F32 = s[key].detach().numpy().astype(np.float32)
            return out

        np.savez_compressed(
            path,
            w0=w("0.0.weight").T.copy(),
            b0=w("0.0.bias"),
            w1=w("0.2.weight").T.copy(),
            b1=w("0.2.bias"),
            wpi=w("1.weight").T.copy(),
            bpi=w("1.bias"),
            wv=w("2.weight").T.copy(),
            bv=w("2.bias"),
            meta=np.array(json.dumps(meta)),
        )


# ------------------------------------------------------------------ rollouts ---------
class Group:
    """Games of one kind and their rollout storage, ``(horizon, num_envs)`` arrays."""

    def __init__(self, name: str, n: int, horizon: int, tables: GameTables) -> None:
        self.name = name
        self.n = n
        obs_size, num_actions = tables.obs_size, tables.num_actions
        self.obs = np.zeros((horizon, n, obs_size), np.uint8)
        self.mask = np.zeros((horizon, n, num_actions), np.int8)
        self.act = np.zeros((horizon, n), np.int64)
        self.logp = np.zeros((horizon, n), np.float32)
        self.val = np.zeros((horizon, n), np.float32)
        self.learner = np.ones((horizon, n), np.bool_)
        self.rew = np.zeros((horizon, n), np.float32)
        self.done = np.zeros((horizon, n), np.bool_)
        self.cur_obs: npt.NDArray[np.uint8] = np.zeros((n, obs_size), np.uint8)
        self.cur_mask: npt.NDArray[np.int8] = np.zeros((n, num_actions), np.int8)
        self.cur_learner = np.ones(n, np.bool_)
        self.seat = np.arange(n) % 2  # the learner's seat in a league game
        self.wins = 0
        self.episodes = 0


def gae(g: Group, last_val: F32, gamma: float, lam: float) -> tuple[F32, F32]:
    """Advantages and returns over the learner's rows only.

    A round can end on an opponent's move: its reward goes to the learner's last
    transition before it.  At the rollout's end the learner's next value is
    ``last_val`` where the next row is the learner's, else its last value (no
    bootstrap error for a few transitions an update).
    """
    horizon, n = g.act.shape
    adv = np.zeros((horizon, n), np.float32)
    carry_val = last_val.astype(np.float32).copy()
    carry_adv = np.zeros(n, np.float32)
    pend_r = np.zeros(n, np.float32)
    pend_t = np.zeros(n, np.bool_)
    have = g.cur_learner.copy()  # the carried value is a real next value
    for t in range(horizon - 1, -1, -1):
        d = g.done[t]
        pend_r = np.where(d, g.rew[t], pend_r)
        pend_t = pend_t | d
        lrow = g.learner[t]
        nonterm = (~pend_t).astype(np.float32)
        nv = np.where(have | pend_t, carry_val, g.val[t])
        delta = pend_r + gamma * nv * nonterm - g.val[t]
        a = delta + gamma * lam * nonterm * carry_adv * have
        adv[t] = np.where(lrow, a, 0.0)
        carry_val = np.where(lrow, g.val[t], carry_val)
        carry_adv = np.where(lrow, a, carry_adv)
        have = have | lrow
        pend_r = np.where(lrow, 0.0, pend_r).astype(np.float32)
        pend_t = np.where(lrow, False, pend_t)
    return adv, adv + g.val


class Trainer:
    def __init__(self, cfg: Config, out: Path) -> None:
        self.cfg = cfg
        self.out = out
        torch.manual_seed(cfg.seed)
        self.rng = np.random.default_rng(cfg.seed)
        self.rules = rules = from_preset(cfg.preset)
        self.tables = tables = tables_for(rules)
        self.game = game = game_class(rules).NAME
        vg = vector_game(rules)
        # the compiled opponents these rules can have (UNO Flip! and No Mercy, or classic
        # rules off the heuristic's path such as stacking: random only), the strongest
        # playing the "heuristic" groups
        self.opponents = tuple(
            o
            for o in (vg.opponents if vg is not None else ("random",))
            if unsupported(rules, 2, "round", o) is None
        )
        strong = "heuristic" if "heuristic" in self.opponents else "random"
        self.policy = Policy(tables)
        self.opponent = Policy(tables)
        self.opt = torch.optim.Adam(self.policy.modules.parameters(), lr=cfg.lr, eps=1e-5)
        self.league: list[dict[str, Any]] = []
        h = cfg.horizon
        self.envs: list[tuple[Group, Any]] = []
        seeds = iter(range(cfg.seed * 100 + 1, cfg.seed * 100 + 100))
        # the groups are named by their settings' names; where the game has no compiled
        # heuristic, the "heuristic" groups play its strongest opponent (recorded in
        # learned.json's "groups")
        self.groups: dict[str, str] = {}
        for name, n, players, opp in (
            ("heuristic", cfg.heuristic_envs, 2, strong),
            ("random", cfg.random_envs, 2, "random"),
            ("league", cfg.league_envs, 2, None),
            ("heuristic4", cfg.four_envs, 4, strong),
        ):
            if n <= 0:
                continue
            g = Group(name, n, h, tables)
            self.groups[name] = f"{players} players, {opp or 'league'} x{n}"
            env: Any
            if opp is None:
                env = UnoVectorEnv(
                    num_envs=n, num_players=players, rules=rules, max_steps=4 * cfg.max_steps
                )
                b = env.reset(seed=next(seeds))
                g.cur_obs, g.cur_mask = b.obs, prune(b.mask, game)
                g.cur_learner = b.agent == g.seat
            else:
                env = UnoVectorGymEnv(
                    num_envs=n,
                    num_players=players,
                    rules=rules,
                    seat=None,
                    opponents=opp,
                    observation="array",
                    max_steps=cfg.max_steps,
                )
                obs, _info = env.reset(seed=next(seeds))
                g.cur_obs, g.cur_mask = obs, prune(env.games.mask.copy(), game)
            self.envs.append((g, env))
        self.steps = 0
        self.updates = 0
        self.curve: list[dict[str, Any]] = []
        self.t0 = time.time()
        self.cpu0 = time.process_time()

    def pick_opponent(self) -> None:
        if not self.league or self.rng.random() < self.cfg.latest_share:
            self.opponent.load(self.policy.state())
        else:
            self.opponent.load(self.league[int(self.rng.integers(len(self.league)))])

    def rollout(self) -> None:
        self.pick_opponent()
        for t in range(self.cfg.horizon):
            for g, env in self.envs:
                a, logp, val = self.policy.act(g.cur_obs, g.cur_mask)
                g.obs[t], g.mask[t], g.learner[t] = g.cur_obs, g.cur_mask, g.cur_learner
                if g.name == "league":
                    if not g.cur_learner.all():
                        oa, _, _ = self.opponent.act(g.cur_obs, g.cur_mask)
                        a = np.where(g.cur_learner, a, oa)
                    g.act[t], g.logp[t], g.val[t] = a, logp, val
                    b = env.step(a)
                    seat = g.seat
                    done = b.terminated | b.truncated
                    r = b.rewards[np.arange(g.n), seat].astype(np.float32)
                    g.rew[t], g.done[t] = r, done
                    g.cur_obs, g.cur_mask = b.obs, prune(b.mask, self.game)
                    g.cur_learner = b.agent == seat
                    g.wins += int((r > 0).sum())
                    g.episodes += int(done.sum())
                else:
                    g.act[t], g.logp[t], g.val[t] = a, logp, val
                    obs, r, term, trunc, _info = env.step(a)
                    done = term | trunc
                    g.rew[t], g.done[t] = r, done
                    g.cur_obs, g.cur_mask = obs, prune(env.games.mask.copy(), self.game)
                    g.wins += int((r > 0).sum())
                    g.episodes += int(done.sum())

    def update(self) -> dict[str, float]:
        cfg = self.cfg
        parts: list[tuple[Any, ...]] = []
        for g, _env in self.envs:
            _a, _lp, last_val = self.policy.act(g.cur_obs, g.cur_mask)
            adv, ret = gae(g, last_val, cfg.gamma, cfg.lam)
            sel = g.learner
            parts.append(
                (g.obs[sel], g.mask[sel], g.act[sel], g.logp[sel], adv[sel], ret[sel], g.val[sel])
            )
        obs, mask, act, logp, adv, ret, _val = (np.concatenate(x) for x in zip(*parts, strict=True))
        n = len(act)
        self.steps += n
        frac = max(0.0, 1.0 - self.steps / cfg.steps)
        for group in self.opt.param_groups:
            group["lr"] = cfg.lr * max(frac, 0.05)
        t_obs = torch.from_numpy(obs)
        t_mask = torch.from_numpy(mask)
        t_act = torch.from_numpy(act)
        t_logp = torch.from_numpy(logp)
        t_adv = torch.from_numpy((adv - adv.mean()) / (adv.std() + 1e-8))
        t_ret = torch.from_numpy(ret)
        stats = {"pg": 0.0, "vf": 0.0, "ent": 0.0, "kl": 0.0}
        count = 0
        params = list(self.policy.modules.parameters())
        for _ in range(cfg.epochs):
            order = torch.from_numpy(self.rng.permutation(n))
            for i in range(0, n, cfg.minibatch):
                j = order[i : i + cfg.minibatch]
                logits, v = self.policy.forward(t_obs[j], t_mask[j])
                logsm = torch.log_softmax(logits, -1)
                new = logsm.gather(1, t_act[j].unsqueeze(1)).squeeze(1)
                ratio = torch.exp(new - t_logp[j])
                a = t_adv[j]
                pg = -torch.min(ratio * a, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * a)
                probs = logsm.exp()
                ent = -(probs * torch.where(t_mask[j] != 0, logsm, 0.0)).sum(-1)
                vf = (v - t_ret[j]) ** 2
                loss = pg.mean() + cfg.vf_coef * 0.5 * vf.mean() - cfg.ent_coef * ent.mean()
                self.opt.zero_grad()
                torch.autograd.backward(loss)
                nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                self.opt.step()
                with torch.no_grad():
                    stats["pg"] += float(pg.mean())
                    stats["vf"] += float(vf.mean())
                    stats["ent"] += float(ent.mean())
                    stats["kl"] += float((t_logp[j] - new).mean())
                count += 1
        self.updates += 1
        if self.updates % cfg.snapshot_every == 0:
            self.league.append(self.policy.state())
            del self.league[: -cfg.league_size]
        return {k: v / max(count, 1) for k, v in stats.items()}

    def evaluate(self, opponent: str, rounds: int, seed: int) -> float:
        """The greedy policy's win rate in ``rounds`` two-player rounds (one a game)."""
        env = UnoVectorGymEnv(
            num_envs=rounds,
            num_players=2,
            rules=self.rules,
            seat=None,
            opponents=opponent,
            observation="array",
            max_steps=self.cfg.max_steps,
        )
        obs, _ = env.reset(seed=seed)
        result = np.full(rounds, -1, np.int64)
        while (result < 0).any():
            a, _, _ = self.policy.act(obs, prune(env.games.mask.copy(), self.game), greedy=True)
            obs, r, term, trunc, _info = env.step(a)
            ended = (term | trunc) & (result < 0)
            result[ended] = r[ended] > 0
        return float(result.mean())

    def log_eval(self, stats: dict[str, float]) -> dict[str, Any]:
        cfg = self.cfg
        row: dict[str, Any] = {
            "update": self.updates,
            "steps": self.steps,
            "wall_s": round(time.time() - self.t0, 1),
            "cpu_s": round(time.process_time() - self.cpu0, 1),
            "vs_random": self.evaluate("random", cfg.eval_rounds, 10_001),
        }
        if "heuristic" in self.opponents:
            row["vs_heuristic"] = self.evaluate("heuristic", cfg.eval_rounds, 10_002)
        for g, _env in self.envs:
            row[f"train_{g.name}"] = round(g.wins / max(g.episodes, 1), 4)
            g.wins = g.episodes = 0
        row.update({k: round(v, 5) for k, v in stats.items()})
        self.curve.append(row)
        return row

    def save(self, meta: dict[str, Any]) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "curve.json").write_text(json.dumps(self.curve, indent=1) + "\n")
        meta = {**meta, "updates": self.updates, "steps": self.steps}
        self.policy.export(self.out / "weights.npz", meta)
        torch.save(
            {"policy": self.policy.state(), "opt": self.opt.state_dict()}, self.out / "last.pt"
        )


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.strip()


def train(cfg: Config, out: Path, threads: int = 1) -> list[dict[str, Any]]:
    torch.set_num_threads(threads)
    trainer = Trainer(cfg, out)
    meta = {
        "command": " ".join(["unokit", "train", *sys.argv[2:]])
        if sys.argv[1:2] == ["train"]
        else " ".join(sys.argv),
        "config": asdict(cfg),
        "commit": commit(),
        "torch": torch.__version__,
        "hidden": HIDDEN,
        "game": trainer.game,
        "groups": trainer.groups,
    }
    print(json.dumps(trainer.log_eval({})), flush=True)
    while trainer.steps < cfg.steps:
        trainer.rollout()
        stats = trainer.update()
        if trainer.updates % cfg.eval_every == 0 or trainer.steps >= cfg.steps:
            print(json.dumps(trainer.log_eval(stats)), flush=True)
            trainer.save(meta)
    trainer.save(meta)
    return trainer.curve
