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

**Distillation** (:func:`distil`, ``backgammon-lab distil``) is the same fit from a fresh start: a
new net, which may have a second hidden layer, learns a teacher net's search values on positions
from the teacher's self-play. Self-play trains nets of one hidden layer; a one-layer net's 0-ply
values stop improving where its single layer cannot follow its own look-ahead (on Mini-Gam, a
fit to the 2-ply values reached 0.0043 of them and no closer, at 256 or 512 units), and a student
with two layers follows the look-ahead further.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import AnalysisError, whole_number
from ..position import Position
from .nets import Net, _sigmoid, encode
from .options import check_ply

__all__ = ["RefineRound", "search_targets", "fit", "adam_step", "refine", "distil"]


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


def _boards(net: Net, positions: Sequence[Position]) -> tuple[np.ndarray, np.ndarray]:
    for p in positions:
        net.check_variant(p.variant)
    return (np.array([p.board() for p in positions], dtype=np.int8).reshape(len(positions), -1),
            np.array([p.opponent_off for p in positions], dtype=np.int64))


def _inputs(net: Net, positions: Sequence[Position]) -> np.ndarray:
    boards, offs = _boards(net, positions)
    return encode(net.variant, boards, offs, net.encoding)


def _positive(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise AnalysisError(f"{name} is a positive number, not {value!r}")
    return float(value)


def fit(net: Net, x: np.ndarray, targets: np.ndarray, *, epochs: int = 10, lr: float = 1e-3, batch: int = 128,
        seed: int = 0, held_out: float = 0.1, lr_end: float | None = None, loss: str = "squared"
        ) -> tuple[Net, float, float]:
    """A copy of ``net`` fitted to ``targets`` (rows of outputs) for the encoded inputs ``x``.

    Minibatch gradient descent on half the squared error of the outputs (``loss="entropy"``: on
    their cross-entropy, whose gradient does not fade where an output nears 0 or 1), with Adam's step sizes
    (``lr``, betas 0.9 and 0.999), ``epochs`` passes over the positions not held out, in an order
    drawn from ``seed``. With ``lr_end`` the step size falls from ``lr`` to ``lr_end`` along half a
    cosine over the passes (else it stays ``lr``). A net with two hidden layers is fitted through
    both. Returns the new net and the mean absolute error of its outputs on the held-out share
    (``held_out`` of the rows, chosen by ``seed``) before and after.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or x.shape[1] != net.inputs:
        t = np.asarray(targets)
        raise AnalysisError(f"inputs of shape {x.shape} and targets of shape {t.shape} do not fit a net of "
                            f"{net.inputs} inputs and {len(net.outputs)} outputs")
    return _fit(net, lambda rows: x[rows], len(x), targets, epochs=epochs, lr=lr, batch=batch, seed=seed,
                held_out=held_out, lr_end=lr_end, loss=loss)


def _fit(net: Net, rows_of: Callable[[np.ndarray], np.ndarray], n: int, targets: np.ndarray, *, epochs: int,
         lr: float, batch: int, seed: int, held_out: float, lr_end: float | None, loss: str = "squared"
         ) -> tuple[Net, float, float]:
    """:func:`fit` with the input rows given by ``rows_of(indices)`` (``n`` rows in all), so that
    many positions need not be encoded at once."""
    epochs = whole_number(epochs, "epochs", 1, error=AnalysisError)
    batch = whole_number(batch, "batch", 1, error=AnalysisError)
    lr = _check_fit(lr, lr_end, loss)
    if isinstance(held_out, bool) or not isinstance(held_out, (int, float)) or not 0 <= held_out < 1:
        raise AnalysisError(f"held_out is a share from 0 to below 1, not {held_out!r}")
    entropy = loss == "entropy"
    t = np.asarray(targets, dtype=np.float64)
    if t.shape != (n, len(net.outputs)):
        raise AnalysisError(f"inputs of {n} rows and targets of shape {t.shape} do not fit a net of "
                            f"{net.inputs} inputs and {len(net.outputs)} outputs")
    out = net.copy()
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    n_hold = int(n * held_out)
    hold, train = order[:n_hold], order[n_hold:]
    check = np.sort(hold if n_hold else train)

    def error() -> float:
        if not len(check):
            return 0.0
        tot = 0.0
        for k in range(0, len(check), 8192):
            rows = check[k:k + 8192]
            tot += float(np.abs(out.forward(rows_of(rows))[1] - t[rows]).sum())
        return tot / (len(check) * t.shape[1])

    before = error()
    w: list[np.ndarray] = [out.w1, out.b1]
    if out.wh is not None and out.bh is not None:
        w += [out.wh, out.bh]
    deep = len(w) == 4
    mask = out.layer2_mask()
    w += [out.w2, out.b2]
    m = [np.zeros_like(a) for a in w]
    v = [np.zeros_like(a) for a in w]
    step = 0
    total = epochs * ((len(train) + batch - 1) // batch)
    for _ in range(epochs):
        rng.shuffle(train)
        for k in range(0, len(train), batch):
            rows = train[k:k + batch]
            xb, tb = rows_of(rows), t[rows]
            h1 = _sigmoid(xb @ out.w1.T + out.b1)
            h = _sigmoid(h1 @ out.wh.T + out.bh) if deep else h1  # type: ignore[union-attr]
            y = _sigmoid(h @ out.w2.T + out.b2)
            dz2 = (y - tb) / len(rows) if entropy else (y - tb) * y * (1.0 - y) / len(rows)
            dzh = (dz2 @ out.w2) * h * (1.0 - h)  # at the last hidden layer's pre-activations
            grads: tuple[np.ndarray, ...] = (dz2.T @ h, dz2.sum(axis=0))
            if deep:  # the second layer's weights outside each unit's span stay zero (Net.layer2_mask)
                dz1 = (dzh @ out.wh) * h1 * (1.0 - h1)  # type: ignore[operator]
                grads = (dz1.T @ xb, dz1.sum(axis=0), (dzh.T @ h1) * mask, dzh.sum(axis=0), *grads)
            else:
                grads = (dzh.T @ xb, dzh.sum(axis=0), *grads)
            step += 1
            rate = lr if lr_end is None else lr_end + 0.5 * (lr - lr_end) * (1.0 + np.cos(np.pi * step / total))
            adam_step(w, grads, m, v, step, rate)
    return out, before, error()


def adam_step(weights: Sequence[np.ndarray], grads: Sequence[np.ndarray], m: Sequence[np.ndarray],
              v: Sequence[np.ndarray], step: int, rate: float, b1: float = 0.9, b2: float = 0.999,
              eps: float = 1e-8) -> None:
    """One step of Adam (Kingma and Ba) in place: ``weights`` moved by ``grads``, with the moment
    estimates ``m`` and ``v`` (arrays shaped like the weights) updated; ``step`` counts from 1."""
    c1, c2 = 1.0 - b1 ** step, 1.0 - b2 ** step
    for a, g, mm, vv in zip(weights, grads, m, v, strict=True):
        mm *= b1
        mm += (1.0 - b1) * g
        vv *= b2
        vv += (1.0 - b2) * g * g
        a -= rate * (mm / c1) / (np.sqrt(vv / c2) + eps)


LOSSES = ("squared", "entropy")


def _check_fit(lr: Any, lr_end: Any, loss: Any) -> float:
    """Check a fit's step sizes and loss (before any work is done); returns ``lr`` as a float."""
    if lr_end is not None:
        _positive(lr_end, "lr_end")
    if loss not in LOSSES:
        raise AnalysisError(f"loss is one of {', '.join(map(repr, LOSSES))}, not {loss!r}")
    return _positive(lr, "lr")


def _encoder(net: Net, boards: np.ndarray, offs: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """Input rows of the positions ``boards``/``offs`` by index, encoded when asked for."""
    return lambda rows: encode(net.variant, boards[rows], offs[rows], net.encoding)


def refine(net: Net, *, rounds: int = 1, positions: int = 200_000, ply: int = 1, epochs: int = 10,
           lr: float = 1e-3, batch: int = 128, explore: float = 0.1, seed: int = 0,
           report: Callable[[int, RefineRound], None] | None = None,
           lr_end: float | None = None, loss: str = "squared") -> tuple[Net, list[RefineRound]]:
    """``rounds`` rounds of refinement of ``net`` toward its own search at ``ply`` (see the module
    docstring): each round samples ``positions`` positions by self-play of the current net (seed
    ``seed + round``, a share ``explore`` of random actions), labels them with
    :func:`search_targets` and :func:`fit`\\ s the net for ``epochs`` passes (the step size ``lr``,
    falling to ``lr_end`` when given; ``loss`` as :func:`fit`'s). Returns the refined
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
    _check_fit(lr, lr_end, loss)
    cur = net.copy()
    done: list[RefineRound] = []
    for r in range(rounds):
        t0 = time.perf_counter()
        pos = sample_positions(cur.variant, positions, NetBot(cur), seed=seed + r, explore=explore)
        targets = search_targets(cur, pos, ply)
        boards, offs = _boards(cur, pos)
        cur, before, after = _fit(cur, _encoder(cur, boards, offs), len(pos), targets, epochs=epochs, lr=lr,
                                  batch=batch, seed=seed + r, held_out=0.1, lr_end=lr_end, loss=loss)
        one = RefineRound(len(pos), ply, before, after, time.perf_counter() - t0)
        cur.meta.setdefault("refined", []).append(
            {**one.to_json(), "seed": seed + r, "epochs": epochs, "lr": lr, "batch": batch, "explore": explore,
             **({"lr_end": lr_end} if lr_end is not None else {}), **({"loss": loss} if loss != "squared" else {})})
        done.append(one)
        if report is not None:
            report(r, one)
    return cur, done


def distil(teacher: Net, *, hidden: int, hidden2: int = 0, positions: int = 200_000, ply: int = 1,
           epochs: int = 10, lr: float = 1e-3, lr_end: float | None = None, batch: int = 128,
           explore: float = 0.1, seed: int = 0, loss: str = "squared") -> tuple[Net, RefineRound]:
    """A new net of ``hidden`` units (and a second hidden layer of ``hidden2``, when not 0) fitted
    to ``teacher``'s search at ``ply`` (0: the teacher's own values).

    ``positions`` positions before a roll come from seeded self-play of the teacher's 0-ply bot (a
    share ``explore`` of random actions, seed ``seed``), are labelled by :func:`search_targets`, and
    a fresh net (:meth:`Net.create <backgammon_lab.analysis.nets.Net.create>` with ``seed``, the
    teacher's encoding) is :func:`fit` to them for ``epochs`` passes, the step size ``lr`` falling
    to ``lr_end`` when given, on the ``loss`` of :func:`fit`; the positions are encoded a minibatch
    at a time. Returns the student
    (its metadata's ``distilled`` entry says from what and how, ``games`` is the teacher's) and the
    round's figures (``before``/``after``: the held-out mean absolute difference from the labels).
    Deterministic for a seed; the teacher is not changed.
    """
    from .netbot import NetBot
    from .rollout import sample_positions

    positions = whole_number(positions, "positions", 10, error=AnalysisError)
    ply = check_ply(ply)
    epochs = whole_number(epochs, "epochs", 1, error=AnalysisError)
    _check_fit(lr, lr_end, loss)
    # a bad size raises NetError (an AnalysisError) quoting it, before any work
    student = Net.create(teacher.variant, hidden=hidden, hidden2=hidden2, seed=seed, encoding=teacher.encoding)
    t0 = time.perf_counter()
    pos = sample_positions(teacher.variant, positions, NetBot(teacher), seed=seed, explore=explore)
    targets = search_targets(teacher, pos, ply) if ply else teacher.forward(_inputs(teacher, pos))[1]
    boards, offs = _boards(student, pos)
    out, before, after = _fit(student, _encoder(student, boards, offs), len(pos), targets, epochs=epochs, lr=lr,
                              batch=batch, seed=seed, held_out=0.1, lr_end=lr_end, loss=loss)
    one = RefineRound(len(pos), ply, before, after, time.perf_counter() - t0)
    out.meta["games"] = teacher.games
    out.meta["distilled"] = {**one.to_json(), "teacher": repr(teacher), "teacher_games": teacher.games,
                             "seed": seed, "epochs": epochs, "lr": lr, "batch": batch, "explore": explore,
                             "loss": loss, **({"lr_end": lr_end} if lr_end is not None else {})}
    return out, one
