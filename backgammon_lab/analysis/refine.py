"""Supervised refinement of a net toward its own look-ahead (issue 19, "supervised refinement").

A net trained by TD(lambda) values a position at 0-ply. Its search, one or two rolls deeper
(:meth:`Evaluator.roll_row <backgammon_lab.analysis.search.Evaluator.roll_row>`), is nearer the
truth: on Mini-Gam, where the exact table tells, a TD-trained net's values were 0.0140 off the table
on average at 0-ply, 0.0098 at 1-ply and 0.0066 at 2-ply (1,000 positions from play). Refinement
teaches the net its own deeper values, round after round:

1. positions before a roll from seeded self-play of the net's bot (:class:`NetBot
   <backgammon_lab.analysis.netbot.NetBot>` at 0-ply), with a share ``explore`` of random actions
   for variety (:func:`~backgammon_lab.analysis.rollout.sample_positions`);
2. their values at ``ply`` by the net's search (the targets; a pure bear-off race is valued by the
   exact bear-off database there, as in every search);
3. the net fitted to the targets by minibatch gradient descent on the squared error of its outputs,
   with Adam's step sizes (Kingma and Ba), a tenth of the positions held out to report the fit.

Nothing outside the net and the rules enters: the Mini-Gam table only measures the result. The
next round labels new positions with the refined net's search, so the values climb toward what
the search would say of them. Deterministic for a seed (the positions, the order of the
minibatches); the net given is not changed. The command line is ``backgammon-lab refine``
(:mod:`backgammon_lab.cli.train`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import AnalysisError, whole_number
from ..position import Position
from .nets import Net, encode
from .options import check_ply

__all__ = ["RefineRound", "search_targets", "fit", "refine"]


@dataclass
class RefineRound:
    """What one round did: positions labelled, the look-ahead, and the mean absolute difference
    between the net's outputs and the targets on the held-out tenth, before and after the fit."""

    positions: int
    ply: int
    before: float
    after: float
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The round as a dict of plain values (for the net's metadata)."""
        return {"positions": self.positions, "ply": self.ply, "before": round(self.before, 6),
                "after": round(self.after, 6), "seconds": round(self.seconds, 1)}


def search_targets(net: Net, positions: Sequence[Position], ply: int = 1) -> np.ndarray:
    """The values of ``positions`` (each before its side to act rolls) by ``net``'s search at
    ``ply`` rolls ahead: one row of outputs each, shape ``(len(positions), outputs)``."""
    from .search import Evaluator

    ply = check_ply(ply)
    ev = Evaluator(net)
    rows = [ev.roll_row(p, ply) for p in positions]
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(net.outputs))


def _inputs(net: Net, positions: Sequence[Position]) -> np.ndarray:
    for p in positions:
        net.check_variant(p.variant)
    boards = np.array([p.board() for p in positions])
    offs = np.array([p.opponent_off for p in positions])
    return encode(net.variant, boards, offs, net.encoding)


def _positive(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise AnalysisError(f"{name} is a positive number, not {value!r}")
    return float(value)


def fit(net: Net, x: np.ndarray, targets: np.ndarray, *, epochs: int = 10, lr: float = 1e-3, batch: int = 128,
        seed: int = 0, held_out: float = 0.1) -> tuple[Net, float, float]:
    """A copy of ``net`` fitted to ``targets`` (rows of outputs) for the encoded inputs ``x``.

    Minibatch gradient descent on half the squared error of the outputs, with Adam's step sizes
    (``lr``, betas 0.9 and 0.999), ``epochs`` passes over the positions not held out, in an order
    drawn from ``seed``. Returns the new net and the mean absolute error of its outputs on the
    held-out share (``held_out`` of the rows, chosen by ``seed``) before and after.
    """
    epochs = whole_number(epochs, "epochs", 1, error=AnalysisError)
    batch = whole_number(batch, "batch", 1, error=AnalysisError)
    lr = _positive(lr, "lr")
    if isinstance(held_out, bool) or not isinstance(held_out, (int, float)) or not 0 <= held_out < 1:
        raise AnalysisError(f"held_out is a share from 0 to below 1, not {held_out!r}")
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(targets, dtype=np.float64)
    if x.ndim != 2 or x.shape[1] != net.inputs or t.shape != (len(x), len(net.outputs)):
        raise AnalysisError(f"inputs of shape {x.shape} and targets of shape {t.shape} do not fit a net of "
                            f"{net.inputs} inputs and {len(net.outputs)} outputs")
    out = net.copy()
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    n_hold = int(len(x) * held_out)
    hold, train = order[:n_hold], order[n_hold:]
    check = hold if n_hold else train

    def error() -> float:
        return float(np.abs(out.forward(x[check])[1] - t[check]).mean()) if len(check) else 0.0

    before = error()
    w = [out.w1, out.b1, out.w2, out.b2]
    m = [np.zeros_like(a) for a in w]
    v = [np.zeros_like(a) for a in w]
    b1, b2, eps, step = 0.9, 0.999, 1e-8, 0
    for _ in range(epochs):
        rng.shuffle(train)
        for k in range(0, len(train), batch):
            rows = train[k:k + batch]
            xb, tb = x[rows], t[rows]
            h, y = out.forward(xb)
            dz2 = (y - tb) * y * (1.0 - y) / len(rows)
            dz1 = (dz2 @ out.w2) * h * (1.0 - h)
            grads = (dz1.T @ xb, dz1.sum(axis=0), dz2.T @ h, dz2.sum(axis=0))
            step += 1
            c1, c2 = 1.0 - b1 ** step, 1.0 - b2 ** step
            for a, g, mm, vv in zip(w, grads, m, v, strict=True):
                mm *= b1
                mm += (1.0 - b1) * g
                vv *= b2
                vv += (1.0 - b2) * g * g
                a -= lr * (mm / c1) / (np.sqrt(vv / c2) + eps)
    return out, before, error()


def refine(net: Net, *, rounds: int = 1, positions: int = 200_000, ply: int = 1, epochs: int = 10,
           lr: float = 1e-3, batch: int = 128, explore: float = 0.1, seed: int = 0,
           report: Callable[[int, RefineRound], None] | None = None) -> tuple[Net, list[RefineRound]]:
    """``rounds`` rounds of refinement of ``net`` toward its own search at ``ply`` (see the module
    docstring): each round samples ``positions`` positions by self-play of the current net (seed
    ``seed + round``, a share ``explore`` of random actions), labels them with
    :func:`search_targets` and :func:`fit`\\ s the net for ``epochs`` passes. Returns the refined
    net (its metadata's ``refined`` list records each round) and the rounds; ``report(i, round)``
    is called after each."""
    from .netbot import NetBot
    from .rollout import sample_positions

    rounds = whole_number(rounds, "rounds", 1, error=AnalysisError)
    positions = whole_number(positions, "positions", 10, error=AnalysisError)
    ply = check_ply(ply)
    if ply == 0:
        raise AnalysisError("ply 0 is the net itself: refinement looks at least 1 roll ahead")
    epochs = whole_number(epochs, "epochs", 1, error=AnalysisError)
    _positive(lr, "lr")
    cur = net.copy()
    done: list[RefineRound] = []
    for r in range(rounds):
        t0 = time.perf_counter()
        pos = sample_positions(cur.variant, positions, NetBot(cur), seed=seed + r, explore=explore)
        targets = search_targets(cur, pos, ply)
        cur, before, after = fit(cur, _inputs(cur, pos), targets, epochs=epochs, lr=lr, batch=batch,
                                 seed=seed + r)
        one = RefineRound(len(pos), ply, before, after, time.perf_counter() - t0)
        cur.meta.setdefault("refined", []).append(
            {**one.to_json(), "seed": seed + r, "epochs": epochs, "lr": lr, "batch": batch, "explore": explore})
        done.append(one)
        if report is not None:
            report(r, one)
    return cur, done
