"""TD(lambda) self-play training of the nets of :mod:`backgammon_lab.analysis.nets` (Tesauro's method).

The game flow is the turn engine's (:func:`backgammon_lab.engine.advance`); the trainer only draws
the dice and makes the decisions:

* ``play``: the legal play (``state.plays``) the net rates best at 0-ply, all candidates in one
  batched call (:meth:`~backgammon_lab.analysis.nets.Net.after_detail`). After a Mexican the
  candidates are valued as if the mover rolled again (a cheap stand-in for naming doubles; the
  net's bot looks the naming up in full);
* ``choice`` (Mexican opening, M2): keep the dice when the best play of them is worth at least the
  average over the 21 rolls of the best play;
* ``name`` (Mexican, M8): the doubles whose best play the net rates highest.

Learning
    The states learned are the positions before a roll, for the side to roll (the net's
    "side to act"). The temporal differences are taken in one fixed frame, White's: a state's
    values are turned round (:func:`~backgammon_lab.analysis.nets.flip`) when Black rolls, so a
    chain in which the same player rolls again (doubles, a Mexican's named doubles) needs no
    special case, and the last difference is against the game's result. Eligibility traces are
    kept per output: ``e <- lambda e + grad F_t``, ``w <- w + alpha sum_j (F_{t+1,j} - F_{t,j}) e_j``.
    With ``exact_races=True`` (standard and Mexican), ``F_{t+1}`` is the exact value from the
    bear-off database (:mod:`~backgammon_lab.analysis.bearoff`) when the state is a pure bear-off
    race, so the positions that lead into a race learn from exact values rather than from the
    net's; the race states themselves still learn as before (the game is played to its end).

Weight averaging
    With ``average=G`` the trainer also keeps an exponential moving average of the weights, with a
    time constant of ``G`` games (after each game ``a <- a + (w - a) / G``), started from the
    weights at the game where averaging began. Self-play at a fixed learning rate leaves the
    weights wandering around the values they tend to; the average is a steadier net (Polyak's
    averaging). It is written beside each checkpoint (:func:`average_path`) and resumed with it;
    it never feeds back into the training.

Compiled
    :meth:`Trainer.train` plays and learns inside the variant's compiled self-play kernel
    (:mod:`backgammon_lab.analysis.selfplay`): the same decisions and the same TD(lambda) steps as
    :meth:`Trainer.play_game`, the Python reference that drives the turn engine (a test checks that
    both give the same weights, to rounding, for the same seed).

Determinism and checkpoints
    A numpy :class:`~numpy.random.Generator` seeded with ``seed`` draws the first weights; the
    kernel's 62-bit generator (:func:`~backgammon_lab.analysis.selfplay.dice_seed`) seeded with
    ``seed`` draws every die (a checkpoint of the earlier pure-Python trainer resumes with new dice
    seeded from its seed and game count). Checkpoints are written between
    games (traces are empty then) with the weights, the games done, the seconds spent and the dice
    generator's state, atomically (a temporary file, then :func:`os.replace`); resuming from one
    continues exactly as the uninterrupted run would.

The command line, ``backgammon-lab train``, is :mod:`backgammon_lab.cli.train`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import KEEP, REROLL, MakePlay, NameDoubles, Phase, TurnState, play, start_state
from ..errors import AnalysisError, whole_number
from ..position import WHITE, Roll
from ..variants import Variant, find_variant
from .bearoff import has_database, kernel_database, race_values
from .nets import (
    _FLIP,
    Net,
    _sigmoid,
    encode,
    play_board,
)
from .search import keep_or_reroll_values, name_values
from .selfplay import dice_seed, dice_stream, kernel, start_board, workspace

__all__ = ["Trainer", "TrainStats", "default_out", "average_path"]

DEFAULT_ALPHA = 0.1
DEFAULT_LAMBDA = 0.7
#: The number type of the first layer's eligibility trace (the other traces and every weight are
#: float64). A learning step reads the trace rows of every input touched in the game (with 230
#: inputs, 5 outputs and 160 hidden units, 1.5 MB in float64): the step is bound by moving them
#: through memory, and float32 halves that (``benchmarks/selfplay_split.py --float32``: the
#: trainer 22% faster). Each trace entry is rounded to 24 bits once a step, far below what the
#: step size and the TD error resolve.
TRACE_DTYPE = np.float32
_CHUNK = 50  # games per call of the compiled kernel (time limits and progress are checked between calls)


@dataclass
class TrainStats:
    """What one call of :meth:`Trainer.train` did."""

    games: int = 0
    plies: int = 0
    seconds: float = 0.0
    white_wins: int = 0

    @property
    def games_per_second(self) -> float:
        """Self-play games per second."""
        return self.games / self.seconds if self.seconds > 0 else 0.0


class Trainer:
    """TD(lambda) self-play for one net (see the module docstring).

    >>> t = Trainer(Net.create("minigam", hidden=8, seed=3), seed=3)
    >>> t.train(2).games, t.games
    (2, 2)
    """

    def __init__(self, net: Net, *, alpha: float = DEFAULT_ALPHA, lam: float = DEFAULT_LAMBDA, seed: int = 0,
                 rng_state: Any = None, average: int = 0, averaged: Net | None = None,
                 exact_races: bool = False) -> None:
        for name, x, lo, hi in (("alpha", alpha, 0.0, 10.0), ("lambda", lam, 0.0, 1.0)):
            if not isinstance(x, (int, float)) or isinstance(x, bool) or not lo <= x <= hi or (name == "alpha" and x == 0):
                raise AnalysisError(f"{name} must be a number in ({lo}, {hi}], not {x!r}" if name == "alpha"
                                      else f"{name} must be a number in [{lo}, {hi}], not {x!r}")
        try:
            average = whole_number(average, "average", 0, error=AnalysisError)
        except AnalysisError:
            raise AnalysisError(f"average is a number of games (0: no averaging), not {average!r}") from None
        if not isinstance(exact_races, bool):
            raise AnalysisError(f"exact_races is True or False, not {exact_races!r}")
        if exact_races and not has_database(net.variant):
            raise AnalysisError(f"exact_races: {net.variant.name} has no bear-off database (its races are "
                                "in its exact table)")
        if net.hidden2:
            raise AnalysisError(f"{net!r} has two hidden layers: self-play trains nets of one; a net of two "
                                "learns from one by distillation (backgammon-lab distil)")
        if averaged is not None and (averaged.variant != net.variant or averaged.w1.shape != net.w1.shape
                                     or averaged.encoding != net.encoding):
            raise AnalysisError(f"the averaged net {averaged!r} does not match the trained net {net!r}")
        self.net = net
        self.average = average
        #: The moving average of the weights (None until the first game with ``average``).
        self.averaged: Net | None = averaged if average else None
        self.variant: Variant = net.variant
        self.alpha = float(alpha)
        self.lam = float(lam)
        #: Whether a pure bear-off race is a target of the bear-off database's exact values (the
        #: state before it learns towards them, not towards the net's values there).
        self.exact_races = exact_races
        self.seed = seed
        #: The dice generator's state: the compiled kernel's 62-bit generator (a one-element array,
        #: advanced in place by the kernel and by :meth:`_roll` alike).
        self.dice = dice_seed(seed)
        if isinstance(rng_state, int):
            self.dice[0] = rng_state
        elif rng_state is not None:  # a checkpoint of the pure-Python trainer: new dice, from its game count
            self.dice = dice_seed(seed * 1_000_003 + net.games)
        k = len(net.outputs)
        self._k = k
        self._perm, self._sign, _ = _FLIP[k]
        self._ident = np.arange(k)
        self._ones = np.ones(k)
        h, i = net.w1.shape
        self._ew1 = np.zeros((k, h, i), dtype=TRACE_DTYPE)
        self._eb1 = np.zeros((k, h))
        self._ew2 = np.zeros((k, k, h))
        self._eb2 = np.zeros((k, k))
        self._scale = 1.0  # the eligibility trace of w1 is self._scale * self._ew1
        self._prev: np.ndarray | None = None
        self._cache: tuple[tuple[int, ...], int, np.ndarray, np.ndarray] | None = None
        self._kbuf: tuple[tuple[np.ndarray, ...], np.ndarray] | None = None

    # -- bookkeeping -----------------------------------------------------------------------------
    @property
    def games(self) -> int:
        """Games trained so far (over every run of this net)."""
        return self.net.games

    def state(self) -> dict[str, Any]:
        """The trainer's state for a checkpoint (JSON-ready)."""
        st = {"alpha": self.alpha, "lambda": self.lam, "seed": self.seed, "dice": int(self.dice[0]),
              "average": self.average}
        if self.exact_races:
            st["exact_races"] = True
        return st

    def checkpoint(self, path: str | os.PathLike[str]) -> Path:
        """Write the net with the trainer's state (atomically), and the averaged net beside it
        (:func:`average_path`) when there is one."""
        self.net.meta["trainer"] = self.state()
        if self.averaged is not None:
            since = self.averaged.meta.get("average", {}).get("since", self.games)
            self.averaged.meta = json.loads(json.dumps(self.net.meta))
            self.averaged.meta["average"] = {"games": self.average, "since": since}
            self.averaged.save(average_path(path))
        return self.net.save(path)

    def _average_step(self) -> None:
        """Move the averaged weights one game's way towards the net's (or start them)."""
        net, avg = self.net, self.averaged
        if avg is None:
            self.averaged = avg = net.copy()
            avg.meta["average"] = {"games": self.average, "since": self.games}
            return
        k = 1.0 / self.average
        for a, w in ((avg.w1, net.w1), (avg.b1, net.b1), (avg.w2, net.w2), (avg.b2, net.b2)):
            a += k * (w - a)

    @classmethod
    def resume(cls, net: Net, *, alpha: float | None = None, lam: float | None = None, average: int | None = None,
               averaged: Net | None = None, exact_races: bool | None = None) -> Trainer:
        """A trainer continuing from a checkpointed net (its alpha, lambda, averaging, exact races and
        dice state unless given); ``averaged`` is the averaged net written with that checkpoint, if any (one of
        another game count or shape, e.g. from before the net grew, is ignored, and the averaging
        starts again)."""
        st = net.meta.get("trainer") or {}
        avg = int(st.get("average", 0)) if average is None else average
        if averaged is not None and (averaged.games != net.games or averaged.encoding != net.encoding
                                     or averaged.w1.shape != net.w1.shape):
            averaged = None
        exact = bool(st.get("exact_races", False)) if exact_races is None else exact_races
        if not st:
            seed = int(net.meta.get("seed", 0))
            return cls(net, alpha=alpha or DEFAULT_ALPHA, lam=DEFAULT_LAMBDA if lam is None else lam, seed=seed,
                       average=avg, averaged=averaged, exact_races=exact)
        return cls(net, alpha=st["alpha"] if alpha is None else alpha, lam=st["lambda"] if lam is None else lam,
                   seed=int(st["seed"]), rng_state=st.get("dice", st.get("rng")), average=avg, averaged=averaged,
                   exact_races=exact)

    # -- TD(lambda) -----------------------------------------------------------------------------
    def _reset(self) -> None:
        self._ew1.fill(0.0)
        self._scale = 1.0
        self._eb1.fill(0.0)
        self._ew2.fill(0.0)
        self._eb2.fill(0.0)
        self._prev = None
        self._cache = None

    def _update(self, delta: np.ndarray) -> None:
        a = self.alpha
        net = self.net
        net.w1 += ((a * self._scale) * delta @ self._ew1.reshape(self._k, -1)).reshape(net.w1.shape)
        net.b1 += a * (delta @ self._eb1)
        net.w2 += (a * delta @ self._ew2.reshape(self._k, -1)).reshape(net.w2.shape)
        net.b2 += a * (delta @ self._eb2)

    def _learn_state(self, state: TurnState) -> None:
        """One TD step at a state before a roll."""
        net = self.net
        pos = state.position
        white = pos.turn == WHITE
        opp = pos.opponent_off
        board = pos.board()
        cached = self._cache
        self._cache = None
        if cached is not None and cached[0] == board and cached[1] == opp:
            x, h = cached[2], cached[3]  # the chosen play's evaluation, with the same weights
            o = _sigmoid(h @ net.w2.T + net.b2)
        else:
            x = encode(net.variant, [board], [opp], net.encoding)[0]
            h, o = net.forward(x[None, :])
            h, o = h[0], o[0]
        if white:
            perm, sign, fixed = self._ident, self._ones, o
        else:
            perm, sign, fixed = self._perm, self._sign, _flip1(o, self._k)
        if self._prev is not None:
            exact = race_values(pos) if self.exact_races else None
            if exact is None:
                self._update(fixed - self._prev)
            else:  # the bear-off database's values of this race, in White's frame
                self._update((exact if white else _flip1(exact, self._k)) - self._prev)
        g2 = o * (1.0 - o)
        g1 = (g2[:, None] * net.w2) * (h * (1.0 - h))[None, :]  # dV_k / d(hidden input), (K, H)
        sg2 = sign * g2[perm]
        g1f = g1 if white else g1[perm] * sign[:, None]
        lam = self.lam
        # the big trace is kept as scale * E: decaying it is one multiplication, and adding the
        # gradient touches only the inputs that are not zero
        if lam == 0.0:
            self._ew1.fill(0.0)
            self._scale = 1.0
        else:
            self._scale *= lam
            if self._scale < 1e-30:
                self._ew1 *= self._scale
                self._scale = 1.0
        nz = np.flatnonzero(x)
        self._ew1[:, :, nz] += g1f[:, :, None] * (x[nz] / self._scale)[None, None, :]
        self._eb1 *= lam
        self._eb1 += g1f
        self._ew2 *= lam
        self._ew2[self._ident, perm] += sg2[:, None] * h[None, :]
        self._eb2 *= lam
        self._eb2[self._ident, perm] += sg2
        self._prev = fixed

    def _choose(self, s: TurnState) -> int:
        """The index of the play the net rates best; remembers its evaluation for the next state."""
        net = self.net
        plays = s.plays
        assert plays is not None and s.roll is not None
        boards = [play_board(p) for p in plays]
        pos = s.position
        kind = self.variant.after_play(s.roll.dice, s.named, plays.length)
        opp = pos.opponent_off
        vals, sb, so, x, h = net.after_detail(boards, opp, same_side=np.full(len(boards), kind != "end_turn"))
        i = int(np.argmax(net.score(vals)))
        self._cache = (tuple(int(v) for v in sb[i]), int(so[i]), x[i], h[i])
        return i

    def _learn_result(self, state: TurnState) -> None:
        """The last TD step: against the result, in White's frame."""
        if self._prev is None:
            return
        res = np.zeros(self._k)
        white_won = state.winner == WHITE
        if self._k == 1:
            res[0] = 1.0 if white_won else 0.0
        else:
            base = 0 if white_won else 2
            res[0] = 1.0 if white_won else 0.0
            res[base + 1] = float(state.points >= 2)
            res[base + 2] = float(state.points >= 3)
        self._update(res - self._prev)

    # -- self-play ------------------------------------------------------------------------------
    def _roll(self) -> Roll:
        r, self.dice[0] = dice_stream(int(self.dice[0]))
        return Roll(r // 6 + 1, r % 6 + 1)

    def play_game(self, learn: bool = True) -> TurnState:
        """One self-play game from the start (learning from it unless ``learn`` is false); returns the
        final state."""
        net = self.net
        self._reset()
        plies = 0

        def dice(st: TurnState) -> tuple[int, int]:
            if learn and st.phase is Phase.ROLL:
                self._learn_state(st)
            r = self._roll()
            return r.first, r.second

        def decide(st: TurnState) -> Any:
            nonlocal plies
            ph = st.phase
            if ph is Phase.PLAY:
                plays = st.plays
                assert plays is not None and st.roll is not None
                plies += 1
                return MakePlay(plays[0] if len(plays) == 1 else plays[self._choose(st)])
            if ph is Phase.CHOICE:
                assert st.roll is not None
                keep, fresh = keep_or_reroll_values(net, st.position, st.roll.dice, lookahead=False,
                                                   exact_races=False)
                return KEEP if net.score(keep) >= net.score(fresh) else REROLL
            vals = name_values(net, st.position, lookahead=False, exact_races=False)  # the net's own, as the kernel
            return NameDoubles(int(np.argmax(net.score(vals))) + 1)

        s = start_state(self.variant)
        for new, _action, _events in play(s, decide, dice):
            s = new
        if learn:
            self._learn_result(s)
        self._plies = plies
        return s

    def train(self, games: int, *, checkpoint_every: int = 0, path: str | os.PathLike[str] | None = None,
              seconds: float | None = None, progress: bool = False,
              on_checkpoint: Callable[[Trainer], None] | None = None,
              before_save: Callable[[Trainer], None] | None = None) -> TrainStats:
        """Play and learn from ``games`` self-play games (or fewer if ``seconds`` run out first; the
        run stops between games). With ``path``, a checkpoint is written every ``checkpoint_every``
        games and at the end; ``before_save`` is called before each checkpoint is written and
        ``on_checkpoint`` after."""
        stats = TrainStats()
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=games, desc=f"train {self.variant.name}", unit="game")
        t0 = time.perf_counter()
        last = t0
        net = self.net
        kern = kernel(self.variant, net.encoding)
        if self._kbuf is None:
            self._kbuf = (workspace(self.variant), start_board(self.variant))
        ws, start = self._kbuf
        ew = (np.zeros((net.inputs, self._k, net.hidden), dtype=TRACE_DTYPE), np.zeros((self._k, net.hidden)),
              np.zeros((self._k, self._k, net.hidden)), np.zeros((self._k, self._k)))
        if self.average and self.averaged is None:
            avg, avg_on = net.copy(), np.zeros(1, np.int64)
            avg.meta["average"] = {"games": self.average, "since": self.games}
        else:
            avg, avg_on = (self.averaged or net), np.ones(1, np.int64)
        # the kernel holds the first layer transposed (an input's weights contiguous)
        w1t = net.w1.T.copy()
        a1t = avg.w1.T.copy()
        counts = np.zeros(3, np.int64)
        db = kernel_database(self.variant, exact=self.exact_races)
        try:
            while stats.games < games:
                if seconds is not None and time.perf_counter() - t0 >= seconds:
                    break
                n = min(games - stats.games, _CHUNK)
                if path is not None and checkpoint_every:
                    n = min(n, checkpoint_every - stats.games % checkpoint_every)
                counts[:] = 0
                kern.train(start, self.dice, n, w1t, net.b1, net.w2, net.b2, *ew, self.alpha, self.lam, ws,
                           self.average, a1t, avg.b1, avg.w2, avg.b2, avg_on, counts, self.exact_races, db)
                net.w1[:] = w1t.T
                if self.average and avg_on[0]:
                    avg.w1[:] = a1t.T
                    self.averaged = avg
                stats.games += int(counts[0])
                stats.plies += int(counts[1])
                stats.white_wins += int(counts[2])
                now = time.perf_counter()
                net.meta["games"] = self.games + int(counts[0])
                net.meta["seconds"] = float(net.meta.get("seconds", 0.0)) + (now - last)
                last = now
                if bar is not None:
                    bar.update(int(counts[0]))
                if path is not None and checkpoint_every and stats.games % checkpoint_every == 0:
                    if before_save is not None:
                        before_save(self)
                    self.checkpoint(path)
                    if on_checkpoint is not None:
                        on_checkpoint(self)
        finally:
            if bar is not None:
                bar.close()
        stats.seconds = time.perf_counter() - t0
        if path is not None:
            if before_save is not None:
                before_save(self)
            self.checkpoint(path)
        return stats


def _flip1(o: np.ndarray, k: int) -> np.ndarray:
    perm, sign, const = _FLIP[k]
    return const + sign * o[perm]


# ---------------------------------------------------------------------------------------------
# Files


def average_path(path: str | os.PathLike[str]) -> Path:
    """Where the averaged net of the checkpoint ``path`` goes: ``NAME.avg.npz`` beside ``NAME.npz``."""
    p = Path(path)
    return p.with_name((p.name[:-4] if p.name.endswith(".npz") else p.name) + ".avg.npz")


def default_out(variant: Variant) -> Path:
    """Where ``backgammon-lab train`` writes by default: ``<cache>/nets/<variant>.npz``."""
    from .solve import cache_dir

    return cache_dir() / "nets" / f"{variant.name}.npz"


def warm(variants: tuple[str, ...] = ("standard", "mexican", "minigam")) -> dict[str, float]:
    """Compile (or load from the on-disk cache) every kernel the package calls, for ``variants``:
    the search, random self-play and training with each shipped encoding. Returns the seconds each
    took (a cold cache: numba compiles; a warm one: it loads)."""
    import time

    from ..kernels import move_kernel
    from .nets import Net, encoding_for, load_net, shipped_path
    from .selfplay import random_games, start_board

    out: dict[str, float] = {}
    for name in variants:
        v = find_variant(name)
        t = time.perf_counter()
        mg = move_kernel(v)
        mg.search(start_board(v), 3, 1, *mg.workspace())
        mg.search(start_board(v), 2, 2, *mg.workspace())
        out[f"{name} search"] = time.perf_counter() - t
        t = time.perf_counter()
        random_games(v, 1)
        out[f"{name} random games"] = time.perf_counter() - t
        shipped = shipped_path(v)
        encs = {encoding_for(v), "td24x"} if v.points == 24 else {encoding_for(v)}
        if shipped.is_file():
            encs.add(load_net(shipped).encoding)
        for enc in sorted(encs):
            t = time.perf_counter()
            net = Net.create(v, hidden=2, seed=0, encoding=enc)
            Trainer(net, seed=0).train(1)
            net.evaluate([tuple(int(x) for x in start_board(v))], [0])  # the single-position evaluation
            out[f"{name} train {enc}"] = time.perf_counter() - t
    return out


if __name__ == "__main__":  # python -m backgammon_lab.analysis.train: warm the kernels' cache
    import json

    times = warm()
    print(json.dumps({k: round(v, 1) for k, v in times.items()} | {"total": round(sum(times.values()), 1)}))
