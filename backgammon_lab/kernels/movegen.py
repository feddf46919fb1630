"""The whole-turn search and the single-step rules, compiled once for every variant.

A variant's facts reach these functions as one int64 row, its *rule row* (:func:`rule_row`): the
board's size, the home board, the cap, the step rules its
:meth:`~backgammon_lab.variants.Variant.step_checks` table switches on, in the table's order, and
its :meth:`~backgammon_lab.variants.Variant.dice_orders`. Each single-step rule is one small
function below (:func:`no_checker` .. :func:`bear_off_higher`); the step generator
(:func:`steps`) and the judge that names the rule refusing a step (:func:`judge`, read by
:func:`backgammon_lab.rules.explain_step`) both call them, so a rule is written once. The search
(:func:`search`) is the only one in the package: the Python engine (:mod:`backgammon_lab.rules`),
self-play, the trainer and the bear-off solver call it.

Boards are int8 rows of ``W = N + 3`` entries in the mover's eye: ``b[0]`` borne off, ``b[1..N]``
the points (the mover's checkers positive), ``b[N + 1]`` the mover's bar, ``b[N + 2]`` the
opponent's (see :mod:`backgammon_lab.kernels.layout`). A search writes each distinct resulting
board once, in the order it is first reached, with one path of ``(start, end, die, hit)`` steps to
it. The code is plain Python over numpy arrays in the subset numba compiles; it runs uncompiled
when numba is absent or disabled.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._jit import njit
from .layout import bar_of, opp_bar_of, width_of

# -- the rule row ------------------------------------------------------------------------------
#: Each step rule the kernels know, by its code in a variant's step table (StepCheck.code).
STEP_CODES = ("no_checker", "bar_first", "blocked", "stack_cap", "bar_not_empty", "not_home",
              "bear_off_exact", "bear_off_higher")
NO_CHECKER, BAR_FIRST, BLOCKED, STACK_CAP, BAR_NOT_EMPTY, NOT_HOME, BEAR_OFF_EXACT, BEAR_OFF_HIGHER = range(8)
# the row's fields: the board's numbers, then a flag per step rule (1 on), the cap, the table's
# order, and the dice orders
R_N, R_HOME, R_CAP, R_LOW_FIRST, R_MIDGAME_OK, R_NCHECKS = range(6)
R_FLAGS = 6  # R[R_FLAGS + code]: 1 when the variant's table holds the rule
R_CHECKS = R_FLAGS + len(STEP_CODES)  # R[R_CHECKS + i]: the code of the table's i-th rule
R_ORDERS = R_CHECKS + len(STEP_CODES)  # ORDERS[a, b, k, j] at R_ORDERS + ((a * 7 + b) * 2 + k) * 2 + j
R_NORDERS = R_ORDERS + 7 * 7 * 2 * 2  # NORDERS[a, b] (1 or 2 orders; doubles 1) at R_NORDERS + a * 7 + b
R_SIZE = R_NORDERS + 7 * 7

MAXPLAYS = 4096
TABLE = 8192
MAXSEEN = 16384
SEENTABLE = 32768
MASK = (1 << 40) - 1
MAX_W = 32  # the widest board row a hash multiplier is kept for (standard: 27, and a key entry)


def _multipliers() -> np.ndarray:
    """row_hash's multipliers, one per entry of a row: numbers below 2**31 from a fixed seed
    (splitmix64's steps)."""
    x = 0x2545F4914F6CDD1D
    out = []
    for _ in range(MAX_W + 1):
        x = (x + 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & ((1 << 64) - 1)
        out.append((z ^ (z >> 31)) >> 33)
    return np.array(out, dtype=np.int64)


HASH_MUL = _multipliers()


def rule_row(variant: Any) -> np.ndarray:
    """The int64 rule row of ``variant`` that every kernel takes (see the module docstring).

    Raises ValueError for a step rule no kernel implements, or dice orders the search cannot play.
    """
    checks = tuple(variant.step_checks())
    codes = [c.code for c in checks]
    unknown = [c for c in codes if c not in STEP_CODES]
    if unknown:
        raise ValueError(f"{variant!r}: no kernel implements the step rule {unknown[0]!r}")
    if codes[:1] != ["no_checker"] or codes.count("no_checker") != 1:
        raise ValueError(f"{variant!r}: the first step rule, and the only one of its kind, is no_checker")
    r = np.zeros(R_SIZE, dtype=np.int64)
    r[R_N] = variant.points
    r[R_HOME] = variant.home
    r[R_CAP] = variant.stacking_cap or 0
    r[R_LOW_FIRST] = bool(variant.low_die_first)
    # the two-dice shortcut holds when a step can neither open nor close a point for another: the
    # only landing rule is the block, and no rule of moving but bar-first (kept out by the
    # shortcut's own condition, an empty bar)
    r[R_MIDGAME_OK] = "blocked" in codes and "stack_cap" not in codes
    r[R_NCHECKS] = len(codes)
    for i, code in enumerate(codes):
        r[R_FLAGS + STEP_CODES.index(code)] = 1
        r[R_CHECKS + i] = STEP_CODES.index(code)
    for a in range(1, 7):
        for c in range(1, 7):
            got = variant.dice_orders((a, c))
            if a != c and (not 1 <= len(got) <= 2 or any(len(o) != 2 for o in got)):
                raise ValueError(f"{variant!r}: dice_orders({(a, c)}) must give one or two orders of two dice")
            r[R_NORDERS + a * 7 + c] = len(got)
            if a != c:
                for k, order in enumerate(got):
                    for j in range(2):
                        r[R_ORDERS + ((a * 7 + c) * 2 + k) * 2 + j] = order[j]
    return r


# -- the single-step rules: each written once, read by steps() and judge() -----------------------
@njit
def no_checker(b, s):
    """no_checker: the start holds none of the mover's checkers."""
    return b[s] <= 0


@njit
def bar_first(b, s, bar):
    """bar_first: a checker is on the bar and the step does not start there."""
    return b[bar] > 0 and s != bar


@njit
def blocked(x):
    """blocked: the landing point holds two or more opposing checkers."""
    return x <= -2


@njit
def stack_cap(x, cap):
    """stack_cap: the landing point already holds the cap of the mover's checkers."""
    return x >= cap


@njit
def bar_not_empty(b, bar):
    """bar_not_empty: no bearing off while a checker is on the bar."""
    return b[bar] > 0


@njit
def not_home(hi, home):
    """not_home: no bearing off while a checker stands above the home board."""
    return hi > home


@njit
def bear_off_exact(t):
    """bear_off_exact: a checker bears off with the exact number only."""
    return t < 0


@njit
def bear_off_higher(s, t, hi):
    """bear_off_higher: a larger number bears off from the highest point only."""
    return t < 0 and s != hi


@njit
def top_checker(b):
    """The highest point (bar = N + 1) holding one of the mover's checkers; 0 if none."""
    for s in range(b.shape[0] - 2, 0, -1):
        if not no_checker(b, s):
            return s
    return 0


@njit
def flags_of(R):
    """The rule row's step rules as bits (bit ``code`` set when the table holds the rule): the
    search reads them once and passes them down in a register."""
    fl = 0
    for code in range(len(STEP_CODES)):
        if R[R_FLAGS + code] == 1:
            fl |= 1 << code
    return fl


@njit
def _land_refused(fl, cap, x):
    """A landing on a point holding x (the mover's checkers positive) is refused."""
    if (fl >> BLOCKED) & 1 and blocked(x):
        return True
    return (fl >> STACK_CAP) & 1 == 1 and stack_cap(x, cap)


@njit
def judge(R, b, s, d):
    """The step rule refusing a step from s with die d on b: ``(i, t, x, hi)`` with ``i`` the
    rule's place in the variant's table (-1: the step is allowed), ``t = s - d``, ``x = b[t]``
    (0 for a bear-off) and ``hi`` the highest point holding a checker of the mover's."""
    bar = b.shape[0] - 2
    hi = top_checker(b)
    t = s - d
    x = b[t] if t > 0 else 0
    for i in range(R[R_NCHECKS]):
        code = R[R_CHECKS + i]
        if code == NO_CHECKER:
            hit = no_checker(b, s)
        elif code == BAR_FIRST:
            hit = bar_first(b, s, bar)
        elif code == BLOCKED:
            hit = t > 0 and blocked(x)
        elif code == STACK_CAP:
            hit = t > 0 and stack_cap(x, R[R_CAP])
        elif code == BAR_NOT_EMPTY:
            hit = t <= 0 and bar_not_empty(b, bar)
        elif code == NOT_HOME:
            hit = t <= 0 and not_home(hi, R[R_HOME])
        elif code == BEAR_OFF_EXACT:
            hit = t <= 0 and bear_off_exact(t)
        else:
            hit = t <= 0 and bear_off_higher(s, t, hi)
        if hit:
            return i, t, x, hi
    return -1, t, x, hi


@njit
def steps(fl, cap, home, b, d, ss, ts, hs):
    """The single steps with die d from board b, written to ss (start), ts (end, 0 off), hs (hit);
    returns how many. The order: start points from the highest down. ``fl`` is the rule row's
    :func:`flags_of`, ``cap`` and ``home`` its cap and home board."""
    hi = top_checker(b)
    k = 0
    if hi == 0:
        return 0
    bar = b.shape[0] - 2
    gate = (fl >> BAR_FIRST) & 1 == 1 and b[bar] > 0
    closed = ((fl >> BAR_NOT_EMPTY) & 1 == 1 and bar_not_empty(b, bar)) or (
        (fl >> NOT_HOME) & 1 == 1 and not_home(hi, home))
    exact = (fl >> BEAR_OFF_EXACT) & 1 == 1
    higher = (fl >> BEAR_OFF_HIGHER) & 1 == 1
    for s in range(hi, 0, -1):
        if no_checker(b, s):
            continue
        if gate and bar_first(b, s, bar):
            continue
        t = s - d
        if t > 0:
            x = b[t]
            if _land_refused(fl, cap, x):
                continue
            ss[k] = s
            ts[k] = t
            hs[k] = 1 if x == -1 else 0
            k += 1
        elif not closed and not ((exact and bear_off_exact(t)) or (higher and bear_off_higher(s, t, hi))):
            ss[k] = s
            ts[k] = 0
            hs[k] = 0
            k += 1
    return k


@njit
def apply_step(b, s, t, out):
    """out = b after moving one checker from s to t (t = 0: off); returns 1 for a hit."""
    w = b.shape[0]
    for i in range(w):
        out[i] = b[i]
    out[s] -= 1
    if t <= 0:
        out[0] += 1
        return 0
    if out[t] == -1:
        out[t] = 1
        out[w - 1] += 1
        return 1
    out[t] += 1
    return 0


@njit
def step_boards(R, b, d, ss, ts, hs, out):
    """:func:`steps`, with the board each step leads to in ``out[i]``; returns how many."""
    k = steps(flags_of(R), R[R_CAP], R[R_HOME], b, d, ss, ts, hs)
    for i in range(k):
        apply_step(b, ss[i], ts[i], out[i])
    return k


@njit
def row_hash(row, w):
    """A hash of row[:w] for the tables below: a sum of products with fixed random numbers below
    2**31 (independent products, so the loop is short; no sum overflows), then mixed. The results
    depend on equal rows only, whatever the hash."""
    h = np.int64(0)
    for i in range(w):
        h += (np.int64(row[i]) + 17) * HASH_MUL[i]
    h &= MASK
    h ^= h >> 19
    h = (h * 2654435) & MASK
    h ^= h >> 23
    return h


@njit
def _same_row(a, b, w):
    """a[:w] == b[:w], entry by entry."""
    for i in range(w):
        if a[i] != b[i]:
            return False
    return True


@njit
def table_add(keys, count, row, w, tab, stamp, gen, size):
    """Find row among keys[:count] through the hash table (tab, stamp valid for generation gen);
    add it at index count if absent. Returns the index, and whether it was added."""
    h = row_hash(row, w) & (size - 1)
    while True:
        if stamp[h] != gen:
            stamp[h] = gen
            tab[h] = count
            for i in range(w):
                keys[count, i] = row[i]
            return count, True
        j = int(tab[h])
        if _same_row(keys[j], row, w):
            return j, False
        h = (h + 1) & (size - 1)


@njit
def _record(ws_b, ws_p, cnt, board, path, depth, tab, stamp, gen):
    """Add board with path[:depth] to the results unless present; returns the new count."""
    if cnt >= MAXPLAYS:
        raise ValueError("more distinct plays than the kernel holds")
    j, added = table_add(ws_b, cnt, board, board.shape[0], tab, stamp, gen, TABLE)
    if added:
        for i in range(depth):
            for c in range(4):
                ws_p[cnt, i, c] = path[i, c]
        return cnt + 1
    return cnt


@njit
def _midgame(fl, cap, home, b0, d1, d2, ws_b, ws_p, tab, stamp, gen, scr):
    """Both orders of a non-double when a step can neither open nor close a point for another
    (see rule_row: R_MIDGAME_OK, the bar empty, two checkers outside the home board)."""
    w = b0.shape[0]
    fs = np.empty(16, np.int64)
    ft = np.empty(16, np.int64)
    fh = np.empty(16, np.int64)
    gs = np.empty(16, np.int64)
    gt = np.empty(16, np.int64)
    gh = np.empty(16, np.int64)
    nf = steps(fl, cap, home, b0, d1, fs, ft, fh)
    ng = steps(fl, cap, home, b0, d2, gs, gt, gh)
    fb = np.empty((16, w), np.int8)
    gb = np.empty((16, w), np.int8)
    for i in range(nf):
        apply_step(b0, fs[i], ft[i], fb[i])
    for i in range(ng):
        apply_step(b0, gs[i], gt[i], gb[i])
    path = np.zeros((4, 4), np.int64)
    out = scr[0]
    cnt = 0
    for i in range(nf):
        b = fb[i]
        for j in range(ng):
            s = gs[j]
            if no_checker(b, s):
                continue
            hit = apply_step(b, s, gt[j], out)
            path[0, 0] = fs[i]
            path[0, 1] = ft[i]
            path[0, 2] = d1
            path[0, 3] = fh[i]
            path[1, 0] = s
            path[1, 1] = gt[j]
            path[1, 2] = d2
            path[1, 3] = hit
            cnt = _record(ws_b, ws_p, cnt, out, path, 2, tab, stamp, gen)
    for rnd in range(2):
        if rnd == 0:
            dfirst = d1
            d = d2
            k = nf
        else:
            dfirst = d2
            d = d1
            k = ng
        for i in range(k):
            if rnd == 0:
                s1 = fs[i]
                s = ft[i]
                hit1 = fh[i]
                b = fb[i]
            else:
                s1 = gs[i]
                s = gt[i]
                hit1 = gh[i]
                b = gb[i]
            t = s - d
            if t > 0:
                x = b[t]
                if _land_refused(fl, cap, x):
                    continue
                hit = apply_step(b, s, t, out)
                path[0, 0] = s1
                path[0, 1] = s
                path[0, 2] = dfirst
                path[0, 3] = hit1
                path[1, 0] = s
                path[1, 1] = t
                path[1, 2] = d
                path[1, 3] = hit
                cnt = _record(ws_b, ws_p, cnt, out, path, 2, tab, stamp, gen)
    return cnt


@njit
def _two_dice(R, b0, a, c, ws_b, ws_p, tab, stamp, gen, scr):
    """A non-double: (count, steps per play). Plays using both dice in every allowed order; else
    the one-die plays; else the empty play."""
    w = b0.shape[0]
    fl = flags_of(R)
    cap = R[R_CAP]
    home = R[R_HOME]
    no = R[R_NORDERS + a * 7 + c]
    base = R_ORDERS + (a * 7 + c) * 4
    if no == 2 and R[R_MIDGAME_OK] == 1 and b0[w - 2] == 0:
        outside = 0
        for p in range(home + 1, w - 2):
            if b0[p] > 0:
                outside += b0[p]
        if outside >= 2:
            cnt = _midgame(fl, cap, home, b0, R[base], R[base + 1], ws_b, ws_p, tab, stamp, gen, scr)
            if cnt > 0:
                return cnt, 2
            gen += 1
    ss = np.empty(16, np.int64)
    ts = np.empty(16, np.int64)
    hs = np.empty(16, np.int64)
    s2 = np.empty(16, np.int64)
    t2 = np.empty(16, np.int64)
    h2 = np.empty(16, np.int64)
    path = np.zeros((4, 4), np.int64)
    nb = scr[0]
    nb2 = scr[1]
    one_b = np.empty((32, w), np.int8)
    one_p = np.empty((32, 4), np.int64)
    n_one = 0
    cnt = 0
    for o in range(no):
        d1 = R[base + 2 * o]
        d2 = R[base + 2 * o + 1]
        k1 = steps(fl, cap, home, b0, d1, ss, ts, hs)
        for i in range(k1):
            apply_step(b0, ss[i], ts[i], nb)
            k2 = steps(fl, cap, home, nb, d2, s2, t2, h2)
            if k2 > 0:
                path[0, 0] = ss[i]
                path[0, 1] = ts[i]
                path[0, 2] = d1
                path[0, 3] = hs[i]
                for j in range(k2):
                    hit = apply_step(nb, s2[j], t2[j], nb2)
                    path[1, 0] = s2[j]
                    path[1, 1] = t2[j]
                    path[1, 2] = d2
                    path[1, 3] = hit
                    cnt = _record(ws_b, ws_p, cnt, nb2, path, 2, tab, stamp, gen)
            elif cnt == 0:
                seen = False
                for q in range(n_one):
                    if _same_row(one_b[q], nb, w):
                        seen = True
                        break
                if not seen:
                    for x in range(w):
                        one_b[n_one, x] = nb[x]
                    one_p[n_one, 0] = ss[i]
                    one_p[n_one, 1] = ts[i]
                    one_p[n_one, 2] = d1
                    one_p[n_one, 3] = hs[i]
                    n_one += 1
    if cnt > 0:
        return cnt, 2
    if n_one > 0:
        if R[R_LOW_FIRST] == 0:
            # only one die can be played: the larger one when it can (standard, G5)
            hi = max(a, c)
            k = steps(fl, cap, home, b0, hi, ss, ts, hs)
            if k > 0:
                for i in range(k):
                    apply_step(b0, ss[i], ts[i], ws_b[i])
                    ws_p[i, 0, 0] = ss[i]
                    ws_p[i, 0, 1] = ts[i]
                    ws_p[i, 0, 2] = hi
                    ws_p[i, 0, 3] = hs[i]
                return k, 1
        for q in range(n_one):
            for x in range(w):
                ws_b[q, x] = one_b[q, x]
            for c4 in range(4):
                ws_p[q, 0, c4] = one_p[q, c4]
        return n_one, 1
    for x in range(w):
        ws_b[0, x] = b0[x]
    return 1, 0


@njit
def _doubles(R, b0, d, ws_b, ws_p, tab, stamp, gen, seen_k, seen_tab, seen_stamp, scr):
    """Doubles: a depth-first search over up to four steps of d. Without a cap the steps are
    taken with non-increasing start points (any order of same-die steps can be rearranged so);
    with a cap a seen-set of (board, steps left) prunes repeated boards instead (before the last
    step: a board after four steps is a play, which the results' table holds once)."""
    w = b0.shape[0]
    fl = flags_of(R)
    cap = R[R_CAP]
    home = R[R_HOME]
    capped = (fl >> STACK_CAP) & 1 == 1
    lvl_s = np.empty((5, 16), np.int64)
    lvl_t = np.empty((5, 16), np.int64)
    lvl_h = np.empty((5, 16), np.int64)
    lvl_k = np.zeros(5, np.int64)
    lvl_i = np.zeros(5, np.int64)
    moved = np.zeros(5, np.int64)
    top = np.zeros(5, np.int64)
    path = np.zeros((4, 4), np.int64)
    boards = scr
    key = np.empty(w + 1, np.int8)
    for x in range(w):
        boards[0, x] = b0[x]
    top[0] = w - 2
    lvl_k[0] = steps(fl, cap, home, boards[0], d, lvl_s[0], lvl_t[0], lvl_h[0])
    lvl_i[0] = 0
    moved[0] = 0
    maxlen = 0
    cnt = 0
    n_seen = 0
    sgen = gen  # the seen-set's generation stays; the results' advances with each longer play
    L = 0
    while True:
        record = False
        if L == 4:
            record = True
        else:
            advanced = False
            while lvl_i[L] < lvl_k[L]:
                j = lvl_i[L]
                lvl_i[L] += 1
                s = lvl_s[L, j]
                if not capped and s > top[L]:
                    continue
                hit = apply_step(boards[L], s, lvl_t[L, j], boards[L + 1])
                if capped and L < 3:  # a board after the last step is a play: _record finds it again
                    for x in range(w):
                        key[x] = boards[L + 1, x]
                    key[w] = 4 - L
                    if n_seen >= MAXSEEN:
                        raise ValueError("more boards than the kernel's seen-set holds")
                    _j, added = table_add(seen_k, n_seen, key, w + 1, seen_tab, seen_stamp, sgen, SEENTABLE)
                    if not added:
                        continue
                    n_seen += 1
                moved[L] = 1
                path[L, 0] = s
                path[L, 1] = lvl_t[L, j]
                path[L, 2] = d
                path[L, 3] = hit
                top[L + 1] = s
                L += 1
                if L < 4:
                    lvl_k[L] = steps(fl, cap, home, boards[L], d, lvl_s[L], lvl_t[L], lvl_h[L])
                    lvl_i[L] = 0
                    moved[L] = 0
                advanced = True
                break
            if advanced:
                continue
            if moved[L] == 0 and (capped or lvl_k[L] == 0):
                record = True
            elif L == 0:
                break
            else:
                L -= 1
                continue
        if record:
            if L > maxlen:
                maxlen = L
                gen += 1  # a longer play: forget the shorter ones
                cnt = 0
            if L == maxlen:
                cnt = _record(ws_b, ws_p, cnt, boards[L], path, L, tab, stamp, gen)
            if L == 0:
                break
            L -= 1
    return cnt, maxlen, gen


@njit
def search(R, b0, a, c, ws_b, ws_p, tab, stamp, gen_box, seen_k, seen_tab, seen_stamp, scr):
    """The legal plays of the roll a-c from board b0 under the rule row R: (count, steps per
    play). Results in ws_b[:count] (boards) and ws_p[:count, :steps] (paths). gen_box[0] is the
    hash tables' generation, advanced by every search so the tables need no clearing."""
    gen = gen_box[0] + 1
    if gen > 2000000000:
        stamp[:] = 0
        seen_stamp[:] = 0
        gen = 1
    if a != c:
        cnt, maxlen = _two_dice(R, b0, a, c, ws_b, ws_p, tab, stamp, gen, scr)
        gen_box[0] = gen + 1
        return cnt, maxlen
    cnt, maxlen, gen = _doubles(R, b0, a, ws_b, ws_p, tab, stamp, gen, seen_k, seen_tab, seen_stamp, scr)
    if cnt == 0:
        for x in range(b0.shape[0]):
            ws_b[0, x] = b0[x]
        cnt = 1
    gen_box[0] = gen
    return cnt, maxlen


def workspace(points: int) -> tuple[np.ndarray, ...]:
    """Fresh buffers for :func:`search` on boards of ``points`` points (one set per thread)."""
    w = width_of(points)
    return (np.zeros((MAXPLAYS, w), np.int8), np.zeros((MAXPLAYS, 4, 4), np.int8),
            np.zeros(TABLE, np.int32), np.zeros(TABLE, np.int32), np.zeros(1, np.int64),
            np.zeros((MAXSEEN, w + 1), np.int8), np.zeros(SEENTABLE, np.int32), np.zeros(SEENTABLE, np.int32),
            np.zeros((6, w), np.int8))


__all__ = ["STEP_CODES", "rule_row", "judge", "steps", "step_boards", "apply_step", "top_checker", "search",
           "workspace", "bar_of", "opp_bar_of", "width_of", "no_checker", "bar_first", "blocked", "stack_cap",
           "bar_not_empty", "not_home", "bear_off_exact", "bear_off_higher"]
