"""The ``learned`` bot: a policy trained by PPO on the vector environment, played with
numpy alone (no torch at play time).

Its weights ship beside this file (``learned.npz``, with ``learned.json`` recording the
command, seed and commit that trained them: ``unokit train``, ``unokit.rl.train``,
docs/rl.md).  A decision encodes the seat's view with ``uno_v1``'s observation table
(``unokit.obs.core.encode_view``, the reference encoder), masks the table's actions to
the legal ones (``mask_of_view``) and runs the network: 330 inputs, two hidden layers
of ``HIDDEN`` ReLU units, one logit per action of the table.  It plays the legal
action with the highest logit (``sample=True``: draws one from their softmax with the
bot's seeded generator instead), among the legal actions left by ``prune``: a play
that could call UNO always calls it, as in training.

It plays the UNO decks (any preset and options, 2-10 seats); UNO Flip! and Show 'Em
No Mercy have other cards and are refused with ``LearnedUnsupported``.  It was trained
on single two-player and four-player classic rounds: other tables and rules are
played, but off the training distribution.  Scores are left out of its input (it saw
only first rounds), so whole games are played round by round the same way.  Out of
turn it always catches and calls its own UNO when it may, like every unokit bot.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.bots.base import BotBase
from unokit.engine.actions import CATCH, UNO, Action
from unokit.engine.view import View

HIDDEN = 256
WEIGHTS = Path(__file__).with_name("learned.npz")
# The decks of the observation table (docs/rl.md); others have cards it cannot encode.
DECKS = ("classic", "mattel-2018-swap", "mattel-2018-shuffle", "my-first-uno")

F32 = npt.NDArray[np.float32]


class LearnedUnsupported(ValueError):
    """A game the learned bot cannot play (the message says why)."""

    code = "bot_unsupported"


def obs_scale() -> F32:
    """What each observation feature is multiplied by before the network (training too).

    Counts of a card kind (at most 4) by 1/4, card counts by 1/16, the scores by 0 (the
    policy saw single rounds only), the number of players by 1/10, one-hots by 1.
    """
    from unokit.cards import NUM_CARDS
    from unokit.obs import spec

    s = np.ones(spec.OBS_SIZE, np.float32)
    s[spec.O_HAND : spec.O_HAND + NUM_CARDS] = 0.25
    s[spec.O_SEEN : spec.O_SEEN + NUM_CARDS] = 0.25
    s[spec.O_HAND_SIZE : spec.O_HAND_SIZE + spec.MAX_SEATS] = 1 / 16
    s[spec.O_DRAW_PILE] = 1 / 16
    s[spec.O_PENDING] = 1 / 16
    s[spec.O_SCORES : spec.O_SCORES + spec.MAX_SEATS] = 0.0
    s[spec.O_RULES + 13] = 0.1
    return s


def prune(mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """The mask without dominated actions (in place; one mask or a batch), in training
    and in play: a play without the UNO call where the same play calling UNO is allowed
    (the call only avoids a penalty), and PASS where a catch or a late UNO call is
    allowed (out of turn, where both are free).  Returns ``mask``."""
    from unokit.obs.spec import A_CATCH, A_PASS, A_UNO, A_UNO_PLAYS, NUM_PLAYS, OFFSETS

    if mask.ndim == 1:  # one decision (the bot): the same, without the batch's reshapes
        mask[:NUM_PLAYS] &= 1 - mask[A_UNO_PLAYS : A_UNO_PLAYS + NUM_PLAYS]
        if mask[A_UNO] or mask[A_CATCH : A_CATCH + OFFSETS].any():
            mask[A_PASS] = 0
        return mask
    m = mask.reshape(-1, mask.shape[-1])
    m[:, :NUM_PLAYS] &= 1 - m[:, A_UNO_PLAYS : A_UNO_PLAYS + NUM_PLAYS]
    free = (m[:, A_UNO] | m[:, A_CATCH : A_CATCH + OFFSETS].max(axis=1)).astype(np.int8)
    m[:, A_PASS] &= 1 - free
    return mask


class Network:
    """The policy's layers as numpy arrays, from a ``.npz`` that ``unokit train`` wrote."""

    def __init__(self, path: Path | str = WEIGHTS) -> None:
        with np.load(path, allow_pickle=False) as z:
            self.w0 = z["w0"].astype(np.float32)
            self.b0 = z["b0"].astype(np.float32)
            self.w1 = z["w1"].astype(np.float32)
            self.b1 = z["b1"].astype(np.float32)
            self.wpi = z["wpi"].astype(np.float32)
            self.bpi = z["bpi"].astype(np.float32)
            self.meta = str(z["meta"]) if "meta" in z else "{}"
        self.scale = obs_scale()

    def logits(self, obs: npt.NDArray[Any]) -> F32:
        """The action logits of one observation or a batch (unmasked)."""
        x = obs.astype(np.float32) * self.scale
        h = np.maximum(x @ self.w0 + self.b0, 0.0)
        h = np.maximum(h @ self.w1 + self.b1, 0.0)
        out: F32 = h @ self.wpi + self.bpi
        return out


@lru_cache(maxsize=4)
def network(path: str = str(WEIGHTS)) -> Network:
    """The network of a weights file, loaded once per process."""
    return Network(path)


@lru_cache(maxsize=1)
def _encoder() -> tuple[Callable[[View], Any], Callable[[View], Any], int]:
    """``uno_v1``'s encoder, imported when first needed (``unokit.bots`` stays light)."""
    from unokit.obs.core import encode_view, mask_of_view
    from unokit.obs.spec import A_PASS

    return encode_view, mask_of_view, A_PASS


@lru_cache(maxsize=64)
def _table(seat: int, n: int) -> tuple[Action | None, ...]:
    from unokit.obs.spec import decode_table

    return decode_table(seat, n)


class LearnedBot(BotBase):
    """The PPO policy of ``learned.npz``; deterministic given the seed."""

    games = frozenset({"classic"})  # the policy knows the classic cards only

    name = "learned"

    def __init__(
        self, seed: int | None = None, sample: bool = False, weights: str | None = None
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.sample = sample
        self.net = network(weights or str(WEIGHTS))

    def _choose(self, view: View, may_pass: bool) -> int:
        encode_view, mask_of_view, A_PASS = _encoder()
        deck = view.rules.deck
        if deck not in DECKS:
            raise LearnedUnsupported(
                f"the learned bot plays the UNO decks only ({', '.join(DECKS)}), not deck={deck!r}"
            )
        mask = mask_of_view(view)
        mask[A_PASS] = 1 if may_pass else 0
        prune(mask)
        legal = np.flatnonzero(mask)
        logits = self.net.logits(encode_view(view))[legal]
        if not self.sample:
            return int(legal[np.argmax(logits)])
        p = np.exp(logits - logits.max())
        return int(self.rng.choice(legal, p=p / p.sum()))

    def act(self, view: View) -> Action:
        i = self._choose(view, may_pass=False)
        action = _table(view.seat, view.n)[i]
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
        return _table(view.seat, view.n)[self._choose(view, may_pass=True)]
