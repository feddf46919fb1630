"""The compiled loops of the Mini-Gam solve (:mod:`backgammon_lab.analysis.solve`).

Plain Python over integer and float arrays in the subset numba compiles (:func:`~backgammon_lab.kernels._jit.njit`);
with numba disabled (``NUMBA_DISABLE_JIT=1`` or ``BACKGAMMON_LAB_JIT=0``) the same source runs
uncompiled, slowly but with the same values. :mod:`~backgammon_lab.analysis.solve` imports this
module on the first solve, never at import time.

``tables`` is the tuple :func:`backgammon_lab.analysis.solve._tables` builds from the index and the
per-configuration step tables (the engine-consistent ones, built once in Python):
``(sa, sb, nxt, tgt, ocnt, ohit, offc, mask, base, off2, rank)``. :func:`step` is the one place a
state's successor is computed: the successor tables the tests check against the engine and the
sweeps of the solve both call it.

A state's *record* ``rec[s]`` holds its values as an intermediate state of a turn (mover's view, the
turn not passed): column 0 ``W(s)``, columns ``d`` (1..6) ``M1_d(s)``, ``6 + d`` ``M2_d(s)``,
``12 + d`` ``M3_d(s)``; ``-inf`` means that no such sequence of steps exists.
"""

from __future__ import annotations

import numpy as np

from ..kernels._jit import njit

NEG = -np.inf
#: columns of a record: W, M1 (6 dice), M2 (6), M3 (6)
RECORD = 19


@njit
def state_index(a: int, b: int, offc: np.ndarray, mask: np.ndarray, base: np.ndarray, off2: np.ndarray,
                rank: np.ndarray) -> int:
    """The index of the state with mover configuration ``a`` and opponent configuration ``b``."""
    m = offc[a]
    return base[m, offc[b]] + off2[b, m] + rank[mask[b], a]


@njit
def step(s: int, d: int, j: int, tables: tuple) -> int:
    """The state one step of die ``d`` (1..6) from source ``j`` (0 the bar, then points N..1) away
    from state ``s``, or -1 when there is none (no checker there, a blocked or refused target)."""
    sa, sb, nxt, tgt, ocnt, ohit, offc, mask, base, off2, rank = tables
    a = sa[s]
    a2 = nxt[a, d, j]
    if a2 < 0:
        return -1
    b = sb[s]
    t = tgt[a, d, j]
    if ocnt[b, t] >= 2:
        return -1
    return state_index(a2, ohit[b, t], offc, mask, base, off2, rank)


@njit
def swap(s: int, tables: tuple) -> int:
    """State ``s`` seen by the opponent (the turn passed)."""
    sa, sb, nxt, tgt, ocnt, ohit, offc, mask, base, off2, rank = tables
    return state_index(sb[s], sa[s], offc, mask, base, off2, rank)


@njit
def fill_successors(tables: tuple, succ: np.ndarray, swaps: np.ndarray) -> None:
    """``succ[d - 1, j, s] = step(s, d, j)`` (``n`` for none) and ``swaps[s] = swap(s)``."""
    n = swaps.shape[0]
    nsrc = succ.shape[1]
    for s in range(n):
        swaps[s] = swap(s, tables)
        for d in range(1, 7):
            for j in range(nsrc):
                y = step(s, d, j, tables)
                succ[d - 1, j, s] = y if y >= 0 else n


@njit
def update_w(lo: int, hi: int, values: np.ndarray, rec: np.ndarray, tables: tuple) -> None:
    """``W(s) = 1 - V(swap(s))`` on ``[lo, hi)``."""
    for s in range(lo, hi):
        rec[s, 0] = 1.0 - values[swap(s, tables)]


@njit
def list_steps(starts: np.ndarray, ends: np.ndarray, nsrc: int, tables: tuple, out: np.ndarray) -> int:
    """The steps of the states of the blocks ``[starts[i], ends[i])``, in the order :func:`sweep`
    visits them, as one stream: per state its :func:`swap`, then per die the number of steps and
    their states. Writes ``out`` (when it is not empty) and returns the stream's length."""
    fill = out.shape[0] > 0
    p = 0
    for i in range(starts.shape[0]):
        for s in range(ends[i] - 1, starts[i] - 1, -1):
            if fill:
                out[p] = swap(s, tables)
            p += 1
            for d in range(1, 7):
                head = p
                p += 1
                for j in range(nsrc):
                    y = step(s, d, j, tables)
                    if y >= 0:
                        if fill:
                            out[p] = y
                        p += 1
                if fill:
                    out[head] = p - head - 1
    return p


@njit
def sweep(starts: np.ndarray, ends: np.ndarray, values: np.ndarray, rec: np.ndarray, stream: np.ndarray) -> float:
    """One Gauss-Seidel sweep over the blocks ``[starts[i], ends[i])`` of one slice, with their
    steps from :func:`list_steps`: each state's W, M1..M3 and then its value, in place; returns the
    largest change of a value.

    The blocks are the opponent's configurations in ascending order and are swept in that order,
    each from its last state down: a step that hits sends the opponent's checker to the bar, an
    earlier configuration, and a step that does not moves the mover's checker down, a later mover
    configuration in the same block. So every step's state is updated before the states that step
    to it, and one sweep brings the whole chain W, M1, M2, M3, V up to date.

    A double d-d is worth ``M4_d(s)`` if some play uses four dice, else ``M3_d(s)``, ``M2_d(s)``,
    ``M1_d(s)``, else ``W(s)`` (no move: the turn passes). A non-double a-b is worth the best of
    ``M1_b`` after a step of a and ``M1_a`` after a step of b, else (one die only) ``M1`` of the
    larger die, else of the smaller, else ``W(s)``.
    """
    g = np.empty((7, 7))
    m4 = np.empty(7)
    res = 0.0
    p = 0
    for i in range(starts.shape[0]):
        for s in range(ends[i] - 1, starts[i] - 1, -1):
            w = 1.0 - values[stream[p]]
            rec[s, 0] = w
            p += 1
            for d in range(1, 7):
                b1 = NEG
                b2 = NEG
                b3 = NEG
                b4 = NEG
                for e in range(1, 7):
                    g[d, e] = NEG
                count = stream[p]
                for q in range(p + 1, p + 1 + count):
                    y = stream[q]
                    b1 = max(b1, rec[y, 0])
                    b2 = max(b2, rec[y, d])
                    b3 = max(b3, rec[y, 6 + d])
                    b4 = max(b4, rec[y, 12 + d])
                    for e in range(1, 7):
                        g[d, e] = max(g[d, e], rec[y, e])
                p += 1 + count
                rec[s, d] = b1
                rec[s, 6 + d] = b2
                rec[s, 12 + d] = b3
                m4[d] = b4
            acc = 0.0
            for d in range(1, 7):  # doubles: as many of the four steps as possible
                v = m4[d]
                if v == NEG:
                    v = rec[s, 12 + d]
                if v == NEG:
                    v = rec[s, 6 + d]
                if v == NEG:
                    v = rec[s, d]
                if v == NEG:
                    v = w
                acc += v
            for a in range(1, 7):  # a < b: both dice, else the larger, else the smaller, else pass
                for b in range(a + 1, 7):
                    t = max(g[a, b], g[b, a])
                    if t == NEG:
                        t = rec[s, b]
                    if t == NEG:
                        t = rec[s, a]
                    if t == NEG:
                        t = w
                    acc += 2.0 * t
            new = acc / 36.0
            change = abs(new - values[s])
            if change > res:
                res = change
            values[s] = new
    return res
