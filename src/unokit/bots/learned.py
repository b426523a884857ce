"""The ``learned`` bot: a policy trained by PPO on the vector environment, played with
numpy alone (no torch at play time).

Each game's weights ship beside this file (``WEIGHT_FILES``: ``learned.npz`` for classic
UNO, ``learned-flip.npz``, ``learned-no-mercy.npz``), each with a ``.json`` recording
the command, seed and commit that trained them (``unokit train``, ``unokit.rl.train``,
docs/rl.md).  A decision encodes the seat's view with its game's observation table
(``unokit.obs.tables``: classic 330 features, UNO Flip! 1,599, No Mercy 430), masks the
table's actions to the legal ones and runs the network: two hidden layers of ``HIDDEN``
ReLU units, one logit per action of the table.  It plays the legal action with the
highest logit (``sample=True``: draws one from their softmax with the bot's seeded
generator instead), among the legal actions left by ``prune``: a play that could call
UNO always calls it, as in training.

It plays the games it has weights for (``LearnedBot.games``); another game is refused
with ``LearnedUnsupported``.  It was trained on single two-player and four-player
rounds: other tables and rules are played, but off the training distribution.  Scores
are left out of its input, so whole games are played round by round the same way.  Out
of turn it always catches and calls its own UNO when it may, like every unokit bot.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.bots.base import BotBase
from unokit.engine.actions import CATCH, UNO, Action
from unokit.engine.view import View

HIDDEN = 256
WEIGHTS = Path(__file__).with_name("learned.npz")  # classic UNO's
# Each game's weights, shipped beside this file with their provenance (the same name,
# .json): a game without its file is refused (``LearnedUnsupported``).
WEIGHT_FILES: dict[str, str] = {
    "classic": "learned.npz",
    "flip": "learned-flip.npz",
    "no-mercy": "learned-no-mercy.npz",
}
F32 = npt.NDArray[np.float32]


class LearnedUnsupported(ValueError):
    """A game the learned bot cannot play (the message says why)."""

    code = "bot_unsupported"


def weights_path(game: str) -> Path | None:
    """The shipped weights of ``game``, or None if it has none."""
    name = WEIGHT_FILES.get(game)
    path = Path(__file__).with_name(name) if name else None
    return path if path is not None and path.exists() else None


def shipped_games() -> frozenset[str]:
    """The games whose weights ship with unokit."""
    return frozenset(g for g in WEIGHT_FILES if weights_path(g) is not None)


def obs_scale(game: str = "classic") -> F32:
    """What each observation feature of ``game``'s table is multiplied by before the
    network (in training too): card-kind counts by 1/4, card counts by 1/16, scores
    by 0 (the policy sees single rounds), the number of players by 1/10."""
    from unokit.obs.tables import TABLES

    return TABLES[game].network_scale()


def prune(mask: npt.NDArray[np.int8], game: str = "classic") -> npt.NDArray[np.int8]:
    """The mask without dominated actions (in place; one mask or a batch), in training
    and in play: a play without the UNO call where the same play calling UNO is allowed
    (the call only avoids a penalty), and PASS where a catch or a late UNO call is
    allowed (out of turn, where both are free).  Every game's table has that shape
    (``GameTables``).  Returns ``mask``."""
    from unokit.obs.spec import OFFSETS
    from unokit.obs.tables import TABLES

    t = TABLES[game]
    plays, uno, catch, pass_ = t.num_plays, t.a_uno, t.a_catch, t.a_pass
    if mask.ndim == 1:  # one decision (the bot): the same, without the batch's reshapes
        mask[:plays] &= 1 - mask[plays : 2 * plays]
        if mask[uno] or mask[catch : catch + OFFSETS].any():
            mask[pass_] = 0
        return mask
    m = mask.reshape(-1, mask.shape[-1])
    m[:, :plays] &= 1 - m[:, plays : 2 * plays]
    free = (m[:, uno] | m[:, catch : catch + OFFSETS].max(axis=1)).astype(np.int8)
    m[:, pass_] &= 1 - free
    return mask


class Network:
    """The policy's layers as numpy arrays, from a ``.npz`` that ``unokit train`` wrote
    for ``game``'s table."""

    def __init__(self, path: Path | str = WEIGHTS, game: str = "classic") -> None:
        with np.load(path, allow_pickle=False) as z:
            self.w0 = z["w0"].astype(np.float32)
            self.b0 = z["b0"].astype(np.float32)
            self.w1 = z["w1"].astype(np.float32)
            self.b1 = z["b1"].astype(np.float32)
            self.wpi = z["wpi"].astype(np.float32)
            self.bpi = z["bpi"].astype(np.float32)
            self.meta = str(z["meta"]) if "meta" in z else "{}"
        self.scale = obs_scale(game)
        if self.w0.shape[0] != self.scale.shape[0]:
            raise LearnedUnsupported(
                f"{path} has {self.w0.shape[0]} inputs; {game}'s observation has "
                f"{self.scale.shape[0]}: these weights were trained for another game"
            )

    def logits(self, obs: npt.NDArray[Any]) -> F32:
        """The action logits of one observation or a batch (unmasked)."""
        x = obs.astype(np.float32) * self.scale
        h = np.maximum(x @ self.w0 + self.b0, 0.0)
        h = np.maximum(h @ self.w1 + self.b1, 0.0)
        out: F32 = h @ self.wpi + self.bpi
        return out


@lru_cache(maxsize=8)
def network(path: str = str(WEIGHTS), game: str = "classic") -> Network:
    """The network of a weights file, loaded once per process."""
    return Network(path, game)


class LearnedBot(BotBase):
    """The PPO policy of the game's shipped weights; deterministic given the seed."""

    games = shipped_games()  # the games it has weights for

    name = "learned"

    def __init__(
        self, seed: int | None = None, sample: bool = False, weights: str | None = None
    ) -> None:
        """``weights``: a weights file to play instead of the shipped ones (any game
        whose table it was trained on)."""
        self.rng = np.random.default_rng(seed)
        self.sample = sample
        self.weights = weights
        self._last: Network | None = None  # the network of the last decision
        if weights is not None:
            # this bot plays the one game those weights were trained on (an instance's
            # own ``games``, which ``bot_games`` reads before the class's)
            setattr(self, "games", frozenset({_game_of_weights(weights)}))  # noqa: B010

    @property
    def net(self) -> Network:
        """The network of the last decision (classic UNO's before the first)."""
        return self._last or self._net("classic")

    def _net(self, game: str) -> Network:
        path = self.weights or weights_path(game)
        if path is None:
            raise LearnedUnsupported(
                f"the learned bot has no weights for {game!r} (it plays "
                f"{', '.join(sorted(self.games))})"
            )
        self._last = net = network(str(path), game)
        return net

    def _logits(self, view: View, may_pass: bool) -> tuple[npt.NDArray[np.intp], F32]:
        """The allowed table indices (pruned) and their logits."""
        from unokit.engine import game_class
        from unokit.obs.tables import TABLES

        game = game_class(view.rules).NAME
        t = TABLES[game]
        net = self._net(game)
        mask = t.mask_of_view(view)
        mask[t.a_pass] = 1 if may_pass else 0
        prune(mask, game)
        legal = np.flatnonzero(mask)
        return legal, net.logits(t.encode_view(view))[legal]

    def _choose(self, view: View, may_pass: bool) -> int:
        legal, logits = self._logits(view, may_pass)
        if not self.sample:
            return int(legal[np.argmax(logits)])
        p = np.exp(logits - logits.max())
        return int(self.rng.choice(legal, p=p / p.sum()))

    def policy(self, view: View) -> list[tuple[Action, float]]:
        """The policy on the seat's turn: each allowed action with its probability, the
        most likely first (for a search that uses it as its prior)."""
        legal, logits = self._logits(view, may_pass=False)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        out = []
        for j in np.argsort(-p, kind="stable"):
            a = _action(view, int(legal[j]))
            if a is not None:
                out.append((a, float(p[j])))
        return out

    def act(self, view: View) -> Action:
        action = _action(view, self._choose(view, may_pass=False))
        assert action is not None
        return action

    def react(self, view: View) -> Action | None:
        """Out of turn: a catch or its own late UNO call is always taken (as every unokit
        bot does: neither can hurt), anything else (a jump-in) is the policy's."""
        for a in view.legal:
            if a.kind in (CATCH, UNO):
                return a
        if not view.legal:
            return None
        return _action(view, self._choose(view, may_pass=True))


def _game_of_weights(path: str) -> str:
    """The game a weights file was trained for: its meta's ``game``, else the game
    whose observation has as many features as the file has inputs."""
    import json

    from unokit.obs.tables import TABLES

    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"])) if "meta" in z else {}
        inputs = int(z["w0"].shape[0])
    game = meta.get("game")
    if isinstance(game, str) and game in TABLES:
        return game
    for name, t in TABLES.items():
        if t.obs_size == inputs:
            return name
    raise LearnedUnsupported(f"{path} has {inputs} inputs: no game's observation has that many")


def _action(view: View, index: int) -> Action | None:
    """The legal action of ``view`` at table ``index`` (None: PASS)."""
    from unokit.engine import game_class
    from unokit.obs.tables import TABLES

    index_of = TABLES[game_class(view.rules).NAME].action_index
    for a in view.legal:
        if index_of(view.seat, view.n, a) == index:
            return a
    return None
