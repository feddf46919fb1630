"""Mini-Gam solved exactly: the winning chance with perfect play of every position.

The state
    A position *for the side to move, before it rolls* is a pair of configurations: the mover's
    checkers over (off, points 1..6, bar) in its own numbering, and the opponent's in the
    opponent's own numbering, with no point held by both. With 8 checkers a side has
    C(15, 7) = 6435 configurations; 3,910,437 pairs are compatible, of which 3,897,568 are
    positions where neither side has borne off all 8 (the rest are finished games; the table
    holds them too, valued 1 or 0, so every index is a real pair).

The index
    States are grouped by the off counts (m, o) of mover and opponent; inside a group, by the
    opponent's configuration, then by the mover's. :class:`MiniGamIndex` turns a pair into its
    index with three small tables (no search), so a lookup is a few array reads.

The equations
    ``V(s)`` is the mover's winning chance at ``s``. After a play ending in ``y`` (mover's view,
    turn not yet passed) the mover's chance is ``W(y) = 1`` if it has borne off all its checkers,
    else ``1 - V(swap(y))``. Then ``V(s) = sum over the 21 rolls r of p(r) * max over the legal
    plays of r of W(end of play)``. Legal plays follow the engine (:mod:`backgammon_lab.rules`):
    as many dice as possible, the larger die when only one of two can be played, free bar entry
    (G4), bear-off with a larger die from the highest point (G6).

    Instead of listing whole plays (hundreds per state, too many to store), the maximum is taken
    step by step: for a die ``d`` let ``S_d(x)`` be the states one step of ``d`` away from ``x``
    (at most 7: one per occupied source), and

    * ``M1_d(x) = max over y in S_d(x) of W(y)``, ``M(k+1)_d(x) = max over y in S_d(x) of Mk_d(y)``
      (``-inf`` when no step exists);
    * doubles d-d: ``M4_d(s)`` if finite, else ``M3_d(s)``, ``M2_d(s)``, ``M1_d(s)``, else ``W(s)``
      (no move: the turn passes);
    * a-b: ``max(max over S_a(s) of M1_b, max over S_b(s) of M1_a)`` if finite (both dice), else
      ``M1_hi(s)`` if finite, else ``M1_lo(s)``, else ``W(s)``.

    This is exactly the engine's rule set, and the tests check it against
    :func:`backgammon_lab.rules.legal_boards` on many positions.

The solve
    The values are a fixed point: hits send checkers back, so positions recur. But checkers once
    borne off stay off, so the pair of off counts never goes down. The groups ``{(m, o), (o, m)}``
    are solved one after another, from the most checkers off to none; inside a group the values
    are iterated (Gauss-Seidel: every state is updated in place, and the second orientation sees
    the first one's new values) until no value moves by more than ``tol`` (default 1e-12).

    The sweeps are compiled loops (:mod:`backgammon_lab.analysis.solve_kernels`, uncompiled when
    numba is disabled). Each state keeps a record of its ``W`` and ``M1..M3`` of the six dice, and
    the states are swept in an order where every single step's state comes before the states that
    step to it, so one pass updates the whole chain ``W, M1, M2, M3, V`` of a state from fresh
    values. The steps are not stored: :func:`~backgammon_lab.analysis.solve_kernels.step` computes
    each from the per-configuration step tables (:func:`_config_steps`, :func:`_opponent_tables`)
    and the index, the same function :func:`successor_tables` fills its arrays with for the tests.

Files
    :func:`solve` returns a :class:`MiniGamTable`; :meth:`MiniGamTable.save` writes a ``.npz``
    (float64 values, about 31 MB for 8 checkers) and :func:`load_table` reads it back in tens of
    milliseconds. The default place is :func:`default_table_path`, in ``$XDG_CACHE_HOME`` or
    ``~/.cache/backgammon_lab/``.
"""

from __future__ import annotations

import os
import time
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import AnalysisError, TableMissingError, whole_number
from ..position import OFF, WHITE, Position, Roll, other
from ..rules import legal_boards
from ..variants import Variant, find_variant

__all__ = [
    "MiniGamIndex",
    "MiniGamTable",
    "SolveStats",
    "solve",
    "load_table",
    "get_table",
    "cache_dir",
    "default_table_path",
    "start_values",
    "FORMAT_VERSION",
]

FORMAT_VERSION = 1
NEG = -np.inf
#: The largest checker count :func:`solve` accepts (8 checkers already takes ~0.85 GB while solving).
MAX_CHECKERS = 8


def cache_dir() -> Path:
    """The user's cache directory for backgammon_lab: ``$XDG_CACHE_HOME/backgammon_lab`` or
    ``~/.cache/backgammon_lab``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "backgammon_lab"


def default_table_path(checkers: int = 8, bar_first: bool = False) -> Path:
    """Where ``backgammon-lab solve minigam`` puts the table by default."""
    suffix = "-barfirst" if bar_first else ""
    return cache_dir() / f"minigam-{checkers}{suffix}.npz"


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every tuple of ``parts`` non-negative ints summing to ``total``."""
    if parts == 1:
        return [(total,)]
    out = []
    for x in range(total + 1):
        for rest in _compositions(total - x, parts - 1):
            out.append((x, *rest))
    return out


def solvable(variant: Variant) -> bool:
    """True for the games this solver handles, judged by the variant's facts: a 6-point strip that
    is all home board, every checker starting on the bar, no stacking cap, no Mexican re-rolls or
    naming, a larger die bearing off from the highest point, one point a game (Mini-Gam, with
    either reading of G4 and 1 to 8 checkers)."""
    v = variant
    return (v.points == 6 and v.home == v.points and v.start == {v.bar: v.checkers}
            and v.stacking_cap is None and not v.exact_bear_off and not v.low_die_first
            and not v.doubles_roll_again and not v.mexican and not v.gammons and not v.opening_choice
            and 1 <= v.checkers <= MAX_CHECKERS)


class MiniGamIndex:
    """The numbering of Mini-Gam states (see the module docstring).

    A *configuration* is one side's checkers as ``(off, p1, ..., p6, bar)`` in its own numbering
    (entry :data:`~backgammon_lab.position.OFF` is the tray, ``variant.bar`` the bar);
    configurations are numbered by off count, then lexicographically. A *state* is a compatible
    pair (mover configuration, opponent configuration); :meth:`index` numbers them.
    """

    def __init__(self, checkers: int = 8) -> None:
        #: Mini-Gam with these checkers: the geometry (``points``, ``bar``, ``flip``) of the configurations
        self.variant = find_variant("minigam", checkers=checkers)
        k, p = checkers, self.variant.points
        self.checkers = k
        self.points = p
        configs = sorted(_compositions(k, p + 2), key=lambda c: (c[0], c))
        self.configs: list[tuple[int, ...]] = configs
        self.config_id: dict[tuple[int, ...], int] = {c: i for i, c in enumerate(configs)}
        cfg = np.array(configs, dtype=np.int64)
        self.cfg = cfg
        c = len(configs)
        self.offc = cfg[:, 0].copy()
        occ = cfg[:, 1:p + 1] > 0
        weights = 1 << np.arange(p)
        #: occupied points as a bit mask in the side's own numbering (bit i-1 for point i) ...
        self.mask = (occ * weights).sum(1)
        #: ... and as seen by the other side (its point q is this side's point p+1-q)
        self.omask = (occ[:, ::-1] * weights).sum(1)
        masks = np.arange(1 << p)
        compat = (self.omask[None, :] & masks[:, None]) == 0  # [mask of the other side, config]
        rank = np.full((1 << p, c), -1, dtype=np.int64)
        cnt = np.zeros((1 << p, k + 1), dtype=np.int64)
        for o in range(k + 1):
            sel = self.offc == o
            sub = compat[:, sel]
            rank[:, sel] = np.where(sub, np.cumsum(sub, axis=1) - 1, -1)
            cnt[:, o] = sub.sum(1)
        off2 = np.zeros((c, k + 1), dtype=np.int64)
        size = np.zeros((k + 1, k + 1), dtype=np.int64)
        for m in range(k + 1):
            sel = np.nonzero(self.offc == m)[0]
            counts = cnt[self.mask[sel]]
            off2[sel] = np.cumsum(counts, axis=0) - counts
            size[m] = counts.sum(0)
        self._compat = compat
        self._rank = rank
        self._cnt = cnt
        self._off2 = off2
        #: size[m, o]: states with the mover m off and the opponent o off
        self.size = size
        #: base[m, o]: the first index of that slice
        self.base = (np.cumsum(size.ravel()) - size.ravel()).reshape(k + 1, k + 1)
        self.n_states = int(size.sum())

    # -- numbering ----------------------------------------------------------------------------
    def index(self, a: Any, b: Any) -> Any:
        """The state index of mover configuration ``a`` and opponent configuration ``b`` (ids;
        scalars or numpy arrays). Slices by (mover off, opponent off), then opponent, then mover."""
        m = self.offc[a]
        o = self.offc[b]
        return self.base[m, o] + self._off2[b, m] + self._rank[self.mask[b], a]

    def slice(self, mover_off: int, opponent_off: int) -> tuple[int, int]:
        """The index range ``[lo, hi)`` of the states with these off counts."""
        lo = int(self.base[mover_off, opponent_off])
        return lo, lo + int(self.size[mover_off, opponent_off])

    def blocks(self, mover_off: int, opponent_off: int) -> tuple[np.ndarray, np.ndarray]:
        """The slice's blocks of states with one opponent configuration, as arrays ``(starts, ends)``
        of index ranges, in the order of the configurations."""
        bsel = np.nonzero(self.offc == opponent_off)[0]
        starts = self.base[mover_off, opponent_off] + self._off2[bsel, mover_off]
        return starts, starts + self._cnt[self.mask[bsel], mover_off]

    def state_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Arrays ``(A, B)``: the mover and opponent configuration ids of every state, in order."""
        k, p = self.checkers, self.points
        a_all = np.empty(self.n_states, dtype=np.int16)
        b_all = np.empty(self.n_states, dtype=np.int16)
        for m in range(k + 1):
            asel = np.nonzero(self.offc == m)[0]
            alists = [asel[self._compat[mm, asel]] for mm in range(1 << p)]
            for o in range(k + 1):
                bsel = np.nonzero(self.offc == o)[0]
                lo, hi = self.slice(m, o)
                b_all[lo:hi] = np.repeat(bsel, self._cnt[self.mask[bsel], m])
                a_all[lo:hi] = np.concatenate([alists[self.mask[b]] for b in bsel])
        return a_all, b_all

    def configs_of_board(self, board: Sequence[int], opponent_off: int) -> tuple[int, int]:
        """Configuration ids (mover, opponent) of a mover's-eye board ``(off, p1..pN, bar, opp_bar)``."""
        v = self.variant
        bar = v.bar
        a = (board[OFF], *(x if x > 0 else 0 for x in board[1:bar]), board[bar])
        b = (opponent_off, *(-board[v.flip(q)] if board[v.flip(q)] < 0 else 0 for q in range(1, bar)),
             board[bar + 1])
        return self.config_id[a], self.config_id[b]

    def index_board(self, board: Sequence[int], opponent_off: int) -> int:
        """The state index of a mover's-eye board and the opponent's borne-off count."""
        a, b = self.configs_of_board(board, opponent_off)
        return int(self.index(a, b))

    def index_position(self, position: Position) -> int:
        """The state index of ``position`` for its side to move."""
        return self.index_board(position.board(), position.opponent_off)

    def position(self, index: int, variant: Variant | str | None = None, turn: str = WHITE) -> Position:
        """The position of state ``index`` with ``turn`` (the mover) to move."""
        v = find_variant(variant or "minigam", checkers=self.checkers) if not isinstance(variant, Variant) \
            else variant
        a_all, b_all = self._ab_cache()
        a = self.configs[int(a_all[index])]
        b = self.configs[int(b_all[index])]
        g = self.variant
        board = (a[OFF], *(a[i] - b[g.flip(i)] for i in range(1, g.bar)), a[g.bar], b[g.bar])
        return Position.from_board(v, turn, board, b[OFF])  # type: ignore[arg-type]

    def _ab_cache(self) -> tuple[np.ndarray, np.ndarray]:
        ab = getattr(self, "_ab", None)
        if ab is None:
            ab = self.state_arrays()
            self._ab = ab
        return ab


# ---------------------------------------------------------------------------------------------
# successor tables


def _config_steps(ix: MiniGamIndex, bar_first: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per configuration, die and source: the configuration after one step and its target point.

    ``nxt[c, d, j]`` (source ``s = bar - j``: the bar first, then points N..1) is -1 when no
    step exists whatever the opponent holds; ``tgt`` is the target point (``OFF`` when borne off).
    """
    p, bar = ix.points, ix.variant.bar
    nconf = len(ix.configs)
    nxt = np.full((nconf, 7, bar), -1, dtype=np.int64)
    tgt = np.zeros((nconf, 7, bar), dtype=np.int64)
    cid = ix.config_id
    for i, c in enumerate(ix.configs):
        hi = max((q for q in range(1, p + 1) if c[q] > 0), default=0)
        for d in range(1, 7):
            for j in range(bar):
                s = bar - j
                if c[s] == 0 or (bar_first and c[bar] > 0 and s != bar):
                    continue
                t = s - d
                lst = list(c)
                lst[s] -= 1
                if t >= 1:
                    lst[t] += 1
                else:
                    # bear-off: nothing on the bar (the whole strip is home), exact or from the top
                    if c[bar] > 0 or (t < 0 and s != hi):
                        continue
                    lst[OFF] += 1
                    t = OFF
                nxt[i, d, j] = cid[tuple(lst)]
                tgt[i, d, j] = t
    return nxt, tgt


def _opponent_tables(ix: MiniGamIndex) -> tuple[np.ndarray, np.ndarray]:
    """``cnt[b, t]``: opponent checkers on the mover's point t; ``hit[b, t]``: b after a hit there."""
    v = ix.variant
    nconf = len(ix.configs)
    cnt = np.zeros((nconf, v.bar), dtype=np.int64)
    hit = np.tile(np.arange(nconf)[:, None], (1, v.bar))
    for i, c in enumerate(ix.configs):
        for t in range(1, v.bar):
            q = v.flip(t)
            cnt[i, t] = c[q]
            if c[q] == 1:
                lst = list(c)
                lst[q] = 0
                lst[v.bar] += 1
                hit[i, t] = ix.config_id[tuple(lst)]
    return cnt, hit


def _tables(ix: MiniGamIndex, bar_first: bool) -> tuple[np.ndarray, ...]:
    """The arrays the kernels read (:mod:`backgammon_lab.analysis.solve_kernels`): the index's
    numbering tables, the per-configuration steps and opponent tables, the states' configurations."""
    nxt, tgt = _config_steps(ix, bar_first)
    ocnt, ohit = _opponent_tables(ix)
    sa, sb = ix._ab_cache()
    # the order matters to numba's speed: with the int16 state arrays last, step() ran 80 times slower
    parts = (nxt, tgt, ocnt, ohit, ix.offc, ix.mask, ix.base, ix._off2, ix._rank)
    return (sa, sb, *(np.ascontiguousarray(x, dtype=np.int64) for x in parts))


def successor_tables(ix: MiniGamIndex, bar_first: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(S, swap)``: ``S[d-1, j, s]`` is the state one step of die d from source j away from
    state s (``n_states`` when there is none); ``swap[s]`` is s seen by the opponent.

    The solve computes the same steps on the fly (:func:`~backgammon_lab.analysis.solve_kernels.step`,
    the one source of both); these arrays are for checking them (6 x 7 x 4 bytes a state).
    """
    from . import solve_kernels

    n = ix.n_states
    succ = np.empty((6, ix.variant.bar, n), dtype=np.int32)  # sources: the bar and points N..1
    swap = np.empty(n, dtype=np.int32)
    solve_kernels.fill_successors(_tables(ix, bar_first), succ, swap)
    return succ, swap


# ---------------------------------------------------------------------------------------------
# the solver


@dataclass
class SolveStats:
    """What a solve did: time, sweeps per group, the final residual."""

    checkers: int
    bar_first: bool
    n_states: int
    seconds: float = 0.0
    build_seconds: float = 0.0
    sweeps: dict[tuple[int, int], int] = field(default_factory=dict)
    residual: float = 0.0
    tol: float = 0.0

    @property
    def state_sweeps(self) -> int:
        """Total state updates (sum over groups of states times sweeps)."""
        return sum(self.sweeps.values())


def _groups(k: int) -> list[tuple[int, int]]:
    """The off-count groups {(m, o), (o, m)}, m >= o, from the most checkers off to none."""
    out = []
    for tot in range(2 * k - 2, -1, -1):
        for m in range(min(tot, k - 1), -1, -1):
            o = tot - m
            if o <= m:
                out.append((m, o))
    return out


def solve(checkers: int = 8, *, bar_first: bool = False, tol: float = 1e-12, chunk: int = 1 << 16,
          threads: int = 2, progress: bool = True, max_sweeps: int = 10000) -> MiniGamTable:
    """Solve Mini-Gam with ``checkers`` a side (1..8) exactly; returns the :class:`MiniGamTable`.

    ``tol`` is the largest change of any value in the last sweep of each group. The sweeps run
    compiled on one thread (:mod:`backgammon_lab.analysis.solve_kernels`): ``threads`` (1 or 2)
    and ``chunk``, the work split of the former numpy solver, are still accepted and change
    nothing. ``progress`` shows a tqdm bar over the groups.
    """
    checkers = whole_number(checkers, "the solver's checkers a side", 1, MAX_CHECKERS, error=AnalysisError)
    if threads not in (1, 2):
        raise AnalysisError(f"the solver runs on 1 or 2 threads, not {threads!r}")
    from . import solve_kernels as sk

    t0 = time.perf_counter()
    ix = MiniGamIndex(checkers)
    tables = _tables(ix, bar_first)
    n, k, nsrc = ix.n_states, checkers, ix.variant.bar  # sources: the bar and points N..1
    values = np.full(n, 0.5)
    rec = np.full((n, sk.RECORD), NEG)
    for o in range(k + 1):  # the mover has borne everything off: won
        values[slice(*ix.slice(k, o))] = 1.0
    for m in range(k + 1):  # the opponent has: lost
        values[slice(*ix.slice(m, k))] = 0.0
    for o in range(k + 1):
        for lo, hi in (ix.slice(k, o), ix.slice(o, k)):
            sk.update_w(lo, hi, values, rec, tables)
    stats = SolveStats(checkers, bar_first, n, tol=tol)
    stats.build_seconds = time.perf_counter() - t0
    groups = _groups(checkers)
    sizes = [int(ix.size[m, o] + (ix.size[o, m] if o != m else 0)) for m, o in groups]
    bar = _progress(sum(sizes), progress, desc=f"solving Mini-Gam ({checkers} checkers)")
    try:
        for (m, o), size in zip(groups, sizes, strict=True):
            parts = []
            for blocks in [ix.blocks(m, o)] + ([ix.blocks(o, m)] if o != m else []):
                stream = np.empty(sk.list_steps(*blocks, nsrc, tables, np.empty(0, np.int32)), np.int32)
                sk.list_steps(*blocks, nsrc, tables, stream)
                parts.append((*blocks, stream))
            sweeps = 0
            while True:
                res = max(sk.sweep(starts, ends, values, rec, stream) for starts, ends, stream in parts)
                sweeps += 1
                if res < tol or sweeps >= max_sweeps:
                    break
            if res >= tol:
                warnings.warn(f"Mini-Gam group ({m}, {o}) stopped after {max_sweeps} sweeps with a change of "
                              f"{res:.1e} (tol {tol:.0e})", RuntimeWarning, stacklevel=2)
            stats.sweeps[m, o] = sweeps * size
            stats.residual = max(stats.residual, res)
            if bar is not None:
                bar.set_postfix(off=f"{m},{o}", sweeps=sweeps, refresh=False)
                bar.update(size)
    finally:
        if bar is not None:
            bar.close()
    stats.seconds = time.perf_counter() - t0
    return MiniGamTable(values, ix, bar_first=bar_first, stats=stats)


def _progress(total: int, enabled: bool, desc: str) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="state", unit_scale=True)


# ---------------------------------------------------------------------------------------------
# the table


class MiniGamTable:
    """The solved values: ``value(position)`` is the winning chance of the side to move.

    >>> table = load_table()                       # doctest: +SKIP
    >>> table.value(Position.start("minigam"))     # doctest: +SKIP
    0.5...
    """

    def __init__(self, values: np.ndarray, index: MiniGamIndex | None = None, *, bar_first: bool = False,
                 stats: SolveStats | None = None) -> None:
        self.values = values
        self.index = index if index is not None else _index_for_size(len(values))
        if len(values) != self.index.n_states:
            raise AnalysisError(f"a Mini-Gam table for {self.index.checkers} checkers has "
                             f"{self.index.n_states} values, not {len(values)}")
        self.checkers = self.index.checkers
        self.bar_first = bar_first
        self.variant = find_variant("minigam", checkers=self.checkers, bar_first=bar_first)
        self.stats = stats
        #: the file it was loaded from or saved to, if any
        self.path: Path | None = None

    def __repr__(self) -> str:
        return f"<MiniGamTable checkers={self.checkers} bar_first={self.bar_first} states={len(self.values)}>"

    def _check(self, position: Position) -> None:
        if position.variant != self.variant:
            raise AnalysisError(f"this table solves {self.variant!r}, not {position.variant!r}")

    def value(self, position: Position) -> float:
        """The winning chance of ``position.turn``, to roll, with perfect play on both sides.

        A finished game gives 1.0 or 0.0.
        """
        self._check(position)
        return float(self.values[self.index.index_position(position)])

    def value_after(self, position: Position) -> float:
        """The winning chance of ``position.turn`` after it has played (the opponent rolls next)."""
        self._check(position)
        if position.count(position.turn, OFF) == self.checkers:
            return 1.0
        return 1.0 - self.value(position.with_turn(other(position.turn)))

    def value_board_after(self, board: Sequence[int], opponent_off: int) -> float:
        """:meth:`value_after` for a mover's-eye board (the fast path of the engine)."""
        if board[OFF] == self.checkers:
            return 1.0
        a, b = self.index.configs_of_board(board, opponent_off)
        return 1.0 - float(self.values[self.index.index(b, a)])

    def roll_value(self, position: Position, dice: Any) -> float:
        """The mover's chance after rolling ``dice``: the best play's :meth:`value_after`."""
        self._check(position)
        opp_off = position.opponent_off
        return max(self.value_board_after(b, opp_off) for b in legal_boards(position, dice))

    def bellman(self, position: Position) -> float:
        """The right side of the Bellman equation at ``position``, computed with the engine's
        move generator: the average over the 21 rolls of the best play's value."""
        from ..game import ALL_ROLLS

        return sum(p * self.roll_value(position, r) for r, p in ALL_ROLLS)

    # -- files --------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the table (``.npz``, float64 values); default :func:`default_table_path`."""
        target = Path(path) if path is not None else default_table_path(self.checkers, self.bar_first)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, values=self.values, checkers=np.int64(self.checkers),
                     bar_first=np.bool_(self.bar_first), format=np.int64(FORMAT_VERSION))
        os.replace(tmp, target)
        self.path = target
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MiniGamTable:
        """Read a table written by :meth:`save`; a file that is not one raises :class:`AnalysisError`
        saying what it is (not a NumPy archive, a net file, an archive without a table's arrays)."""
        try:
            data = np.load(path, allow_pickle=False)
        except OSError as e:
            raise AnalysisError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
        except (ValueError, EOFError, zipfile.BadZipFile):  # numpy reads text it does not know as a pickle, and refuses it
            raise AnalysisError(f"{str(path)!r} is not a solved table: not a NumPy .npz archive") from None
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise AnalysisError(f"{str(path)!r} is not a solved table: a single NumPy array, not an .npz archive")
        with data:
            keys = set(data.files)
            if {"w1", "w2", "meta"} <= keys:
                raise AnalysisError(f"{str(path)!r} is a net file (backgammon-lab train writes those), "
                                    "not a solved table (backgammon-lab solve minigam writes those)")
            missing = {"format", "checkers", "values", "bar_first"} - keys
            if missing:
                raise AnalysisError(f"{str(path)!r} is not a solved table: it has no {', '.join(sorted(missing))}")
            fmt = int(data["format"])
            if fmt != FORMAT_VERSION:
                raise AnalysisError(f"{path}: table format {fmt}, this version reads {FORMAT_VERSION}; "
                                 "rebuild it with `backgammon-lab solve minigam`")
            k = int(data["checkers"])
            table = cls(data["values"], _index_for(k), bar_first=bool(data["bar_first"]))
        table.path = Path(path)
        return table


_INDEX_CACHE: dict[int, MiniGamIndex] = {}


def _index_for(checkers: int) -> MiniGamIndex:
    ix = _INDEX_CACHE.get(checkers)
    if ix is None:
        ix = _INDEX_CACHE[checkers] = MiniGamIndex(checkers)
    return ix


def _index_for_size(n: int) -> MiniGamIndex:
    for k in range(1, MAX_CHECKERS + 1):
        ix = _index_for(k)
        if ix.n_states == n:
            return ix
    raise AnalysisError(f"no Mini-Gam checker count gives {n} states")


_TABLE_CACHE: dict[tuple[int, bool, str], MiniGamTable] = {}


def load_table(path: str | os.PathLike[str] | None = None, *, checkers: int = 8,
               bar_first: bool = False) -> MiniGamTable:
    """Load a solved table from ``path`` or the default cache path; raises TableMissingError."""
    p = Path(path) if path is not None else default_table_path(checkers, bar_first)
    key = (checkers, bar_first, str(p.resolve()))
    t = _TABLE_CACHE.get(key)
    if t is None:
        if not p.is_file():
            raise TableMissingError(f"no Mini-Gam table at {p}; build it with `backgammon-lab solve minigam`")
        t = _TABLE_CACHE[key] = MiniGamTable.load(p)
    return t


def get_table(variant: Variant | None = None, *, build: bool = False, path: str | os.PathLike[str] | None = None,
              progress: bool = False) -> MiniGamTable | None:
    """The table for a Mini-Gam ``variant`` if it is cached (or, with ``build``, after solving and
    caching it); None otherwise. Small boards (fewer than 8 checkers) solve in seconds."""
    v = variant if variant is not None else find_variant("minigam")
    if not solvable(v):
        return None
    k, bf = v.checkers, bool(v.bar_first)
    try:
        return load_table(path, checkers=k, bar_first=bf)
    except TableMissingError:
        if not build:
            return None
    table = solve(k, bar_first=bf, progress=progress)
    p = table.save(path)
    _TABLE_CACHE[(k, bf, str(Path(p).resolve()))] = table
    return table


def start_values(table: MiniGamTable) -> dict[str, Any]:
    """The start of Mini-Gam: the chance of each opening roll's mover, their average (the first
    mover's chance), the value to roll from the start, and the chance before the opening roll."""
    v = table.variant
    start = Position.start(v, WHITE)
    per_roll = {}
    for hi in range(2, 7):
        for lo in range(1, hi):
            per_roll[f"{hi}-{lo}"] = table.roll_value(start, Roll(hi, lo))
    first = sum(per_roll.values()) / len(per_roll)
    return {
        "opening_rolls": per_roll,
        "first_mover": first,
        "before_opening": 0.5 * first + 0.5 * (1.0 - first),
        "to_roll_from_start": table.value(start),
    }
