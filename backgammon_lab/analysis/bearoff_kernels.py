"""The bear-off solver's kernel: every configuration of a home board solved by the one search.

:func:`backgammon_lab.analysis.bearoff.build_database` calls :func:`solve` with the variant's rule
row and ``after_play`` table; the plays come from the whole-turn search
(:func:`backgammon_lab.kernels.movegen.search`), so nothing here states a rule. It runs uncompiled
when numba is absent or disabled.
"""

from __future__ import annotations

import numpy as np

from ..kernels._jit import njit
from ..kernels.movegen import R_HOME, search

ROLLS = np.array([[a, b] for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)


@njit
def _row(board, skeys, order, home):
    key = 0
    for p in range(home, 0, -1):
        key = key * 16 + board[p]
    return order[np.searchsorted(skeys, key)]


@njit
def _fill(board, configs, i, off, home):
    """board = configuration i of the home board, with ``off`` checkers borne off."""
    board[:] = 0
    board[0] = off
    for q in range(home):
        board[q + 1] = configs[i, q]


@njit
def _done(board, checkers, mode):
    return board[0] == checkers if mode == 0 else board[0] > 0


@njit
def _cand_mean(kind, row, mean):
    if kind == 0:
        return 1.0
    if kind == 1:
        return 1.0 + mean[row]
    return mean[row]


@njit
def _best(after, home, ends, cnt, a, b, named, used, checkers, mode, skeys, order, mean, name):
    """The best play among ends[:cnt]: (kind, row, its mean); kind 0 finished in this turn, 1 the
    turn ends at row, 2 the same turn goes on at row (a doubles chain). After a Mexican played in
    full the value of each end is its best naming, ``name[row]`` (kind, row, mean)."""
    for k in range(cnt):
        if _done(ends[k], checkers, mode):
            return 0, 0, 1.0
    follow = after[a, b, 1 if named else 0, used]
    bk, br, bm = 1, 0, np.inf
    for k in range(cnt):
        row = _row(ends[k], skeys, order, home)
        if follow == 2:
            kind, row2, m = int(name[row, 0]), int(name[row, 1]), name[row, 2]
        else:
            kind, row2 = (2 if follow == 1 else 1), row
            m = _cand_mean(kind, row, mean)
        if m < bm - 1e-15:
            bk, br, bm = kind, row2, m
    return bk, br, bm


@njit
def solve(rules, after, configs, skeys, order, checkers, mode, turns, dist, mean, name, ws):
    """Fill dist (P, T) and mean (P) for every configuration in pip order: mode 0 the turns to bear
    off every checker, mode 1 the turns to the first checker off (configurations with all
    ``checkers`` on the board only). ``turns`` is T. ``name[i]`` (P, 3) receives the best naming
    of doubles from configuration i (kind, row, mean), for a Mexican that ends there. ``rules`` is
    the variant's rule row (:func:`~backgammon_lab.kernels.movegen.rule_row`), ``after`` its
    ``after_play`` table (:func:`~backgammon_lab.analysis.selfplay.after_table`), ``ws`` the
    search's workspace."""
    home = rules[R_HOME]
    naming = (after == 2).any()  # a Mexican names doubles in this variant
    board = np.zeros(ws[0].shape[1], np.int8)
    acc = np.zeros(turns)
    for i in range(configs.shape[0]):
        on = 0
        for p in range(home):
            on += configs[i, p]
        if mode == 0 and on == 0:
            dist[i, 0] = 1.0
            continue
        if mode == 1 and on != checkers:
            continue
        acc[:] = 0.0
        accm = 0.0
        stuck = 0.0
        for r in range(21):
            a, b = ROLLS[r, 0], ROLLS[r, 1]
            p = 1.0 / 36.0 if a == b else 2.0 / 36.0
            _fill(board, configs, i, checkers - on, home)
            cnt, used = search(rules, board, a, b, ws[0], ws[1], ws[2], ws[3], ws[4], ws[5], ws[6], ws[7], ws[8])
            if used == 0:
                stuck += p
                continue
            ends = ws[0][:cnt].copy()
            kind, row, m = _best(after, home, ends, cnt, a, b, False, used, checkers, mode, skeys, order, mean, name)
            accm += p * m
            if kind == 0:
                acc[1] += p
            elif kind == 1:
                for t in range(1, turns):
                    acc[t] += p * dist[row, t - 1]
            else:
                for t in range(turns):
                    acc[t] += p * dist[row, t]
        # D = acc + stuck * shift(D): a roll that cannot move passes the turn back to this position
        dist[i, 0] = acc[0]
        for t in range(1, turns):
            dist[i, t] = acc[t] + stuck * dist[i, t - 1]
        mean[i] = (accm + stuck) / (1.0 - stuck)
        if naming:  # the best doubles to name when a Mexican ends here (solved once per position)
            name[i, 0], name[i, 1], name[i, 2] = 1, i, 1.0 + mean[i]
            for d in range(1, 7):
                _fill(board, configs, i, checkers - on, home)
                c2, u2 = search(rules, board, d, d, ws[0], ws[1], ws[2], ws[3], ws[4], ws[5], ws[6], ws[7], ws[8])
                if u2 == 0:
                    continue
                e2 = ws[0][:c2].copy()
                kind, row, m = _best(after, home, e2, c2, d, d, True, u2, checkers, mode, skeys, order, mean, name)
                if m < name[i, 2] - 1e-15:
                    name[i, 0], name[i, 1], name[i, 2] = kind, row, m
