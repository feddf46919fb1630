"""Neural evaluators in numpy: input encodings, an MLP of one or two hidden layers, batched evaluation, files.

What a net's value means
    A net looks at a position **before a roll** and gives the chances of **the side to act**, the
    player who rolls next. Positions are handed over as mover's-eye boards
    (:meth:`Position.board() <backgammon_lab.position.Position.board>`:
    ``(off, p1..pN, bar, opponent_bar)``, the side to act positive) plus the opponent's count of
    checkers borne off. With ``gammons`` (standard) a net has five outputs (:data:`OUTPUTS_5`): the
    chance to win, to win a gammon or more, to win a backgammon, to lose a gammon or more, to lose a
    backgammon; otherwise (Mexican, Mini-Gam) one output, the winning chance.

    After a play the mover is *not* the side to act (unless it rolls again), so
    :meth:`Net.values_after` turns the opponent's values round (:func:`flip`).

Encodings (chosen from the variant's facts, never from its name; :func:`encoding_for`)
    ``td24`` (24 points, standard and Mexican): TD-Gammon's 24-point encoding. For each point and
    each side four units: at least 1, at least 2, at least 3 checkers, and ``(n - 3) / 2`` beyond
    three; then each side's bar / 2 and off / checkers, and each side's pip count / 100 (in place
    of TD-Gammon's two "whose turn" units, which are constant here: the net always sees the side
    to act). 198 inputs.

    ``td24x`` (24 points): ``td24`` followed by 12 hand-made features, six for each side (the side
    to act first), each in its own numbering (:func:`features`): the chance that the other side
    hits at least one of its blots with its next roll (direct and combined shots, blocks ignored),
    its blots / 5, its points made in its home board / 6, its longest run of made points / 6, its
    checkers in the other side's home board or on the bar / checkers, and whether the two sides
    are still in contact (not a pure race). 210 inputs. Its first 198 inputs are ``td24``'s, so a
    ``td24`` net grows into a ``td24x`` one without forgetting (:meth:`Net.with_encoding`: the new
    inputs start with zero weights).

    ``td24e`` (24 points): ``td24x`` followed by 20 expert features, ten for each side
    (:func:`expert_features`, after Berliner's and gnubg's contact inputs): escapes, containment,
    pip loss to hits, double shots, mobility, anchors, the chance of not entering, and the contact
    left to break. 230 inputs; a ``td24x`` net grows into it the same way.

    ``td24m`` (24 points, variants played lower die first: Mexican): ``td24e`` followed by six
    features, three for each side (:func:`low_die_features`): the chance of not entering from the
    bar when the lower die enters first, the chance of losing the whole turn at its first step, and
    the points holding the cap. 236 inputs; a ``td24e`` net grows into it the same way.

    ``td24t`` (24 points): ``td24e`` followed by eight features, four for each side
    (:func:`timing_features`): its timing (the pips it can play before it must break its home board
    or its anchors back), its builders for a new point in its home board, its timing again when it
    holds two points or more in the other side's home board (a back game), and its checkers behind
    a prime of four points or more. 238 inputs; a ``td24e`` net grows into it the same way.

    ``strip`` (short boards such as Mini-Gam's six points): a thermometer per point and side
    (``n >= 1 .. n >= checkers``), the same for the bar and for the checkers borne off, and each
    side's pip count / (checkers * (points + 1)). For Mini-Gam, 130 inputs.

    Both are vectorised over a batch of boards (no Python loop over points).

Files
    :meth:`Net.save` writes a ``.npz``: the four weight arrays (six with a second hidden layer:
    ``wh`` and ``bh`` too) and a JSON text of metadata (variant,
    options, encoding, hidden size, games trained, seed, time, training commands, the trainer's
    random state); a race net (:meth:`Net.with_race`), a crashed net (:meth:`Net.with_crashed`)
    and a pruning net (:meth:`Net.with_prune`) travel in the same file, their arrays prefixed
    ``race_``, ``crashed_`` and ``prune_``, their metadata under ``"race"``, ``"crashed"`` and
    ``"prune"``. :func:`load_net` reads it back. Shipped nets live in
    ``backgammon_lab/data/nets/<variant>.npz``; :func:`shipped_net` loads the one for a variant.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import whole_number
from ..position import OFF
from ..variants import Variant, find_variant
from .encodings import (
    ENCODINGS,
    EXPERT,
    FEATURES,
    LOW_DIE,
    TIMING,
    NetError,
    _check_encoding,
    _rolls_reaching,
    encoding_for,
    input_size,
)

__all__ = [
    "Net",
    "NetError",
    "OUTPUTS_1",
    "OUTPUTS_5",
    "encoding_for",
    "expert_features",
    "low_die_features",
    "timing_features",
    "encode",
    "features",
    "ENCODINGS",
    "FEATURES",
    "EXPERT",
    "LOW_DIE",
    "TIMING",
    "input_size",
    "swap_boards",
    "flip",
    "equity",
    "join_nets",
    "load_net",
    "shipped_net",
    "shipped_path",
    "FORMAT_VERSION",
]

FORMAT_VERSION = 1
#: The five outputs of a net for a variant with gammons, for the side to act.
OUTPUTS_5 = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
#: The one output of a net for a variant without gammons.
OUTPUTS_1 = ("win",)

# flip: the values of the other side; flipped = const + sign * values[:, perm]
_FLIP = {
    1: (np.array([0]), np.array([-1.0]), np.array([1.0])),
    5: (np.array([0, 3, 4, 1, 2]), np.array([-1.0, 1.0, 1.0, 1.0, 1.0]), np.array([1.0, 0.0, 0.0, 0.0, 0.0])),
}


def _as_boards(boards: Any, opp_off: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    b = np.asarray(boards, dtype=np.int64)
    if b.ndim == 1:
        b = b[None, :]
    if b.ndim != 2 or b.shape[1] != n + 3:
        raise NetError(f"boards must be rows of {n + 3} ints (off, p1..p{n}, bar, opponent bar), "
                       f"not an array of shape {b.shape}")
    o = np.broadcast_to(np.asarray(opp_off, dtype=np.int64), (b.shape[0],))
    return b, o


def _both_sides(boards: Any, opp_off: Any, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Both sides' checkers, each in its own numbering, for the hand-made features: ``mine`` and
    ``theirs`` (shape ``(2B, n)``, column q - 1 the side's point q) and the bar counts ``bar_mine``
    and ``bar_theirs`` (shape ``(2B,)``); rows 0..B-1 are the side to act, rows B..2B-1 its
    opponent."""
    b, _ = _as_boards(boards, opp_off, n)
    pts = b[:, 1:n + 1]
    me = np.maximum(pts, 0)
    op = np.maximum(-pts, 0)[:, ::-1]  # in the opponent's own numbering
    on_bar, opp_bar = b[:, n + 1], b[:, n + 2]
    return (np.concatenate([me, op]), np.concatenate([op, me]),
            np.concatenate([on_bar, opp_bar]), np.concatenate([opp_bar, on_bar]))


#: TD-Gammon's four units of a point holding n checkers (n = 0..15).
_TD_UNITS = np.array([[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2.0] for n in range(16)])
_THERMS: dict[int, np.ndarray] = {}


def _thermometer(c: int) -> np.ndarray:
    """Row n: the units ``n >= 1 .. n >= c`` (n = 0..c)."""
    t = _THERMS.get(c)
    if t is None:
        t = _THERMS[c] = (np.arange(c + 1)[:, None] >= np.arange(1, c + 1)[None, :]).astype(np.float64)
    return t


_ROLL_COUNTS = np.array([1 if a == b else 2 for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
_SHOT_TABLES: dict[int, np.ndarray] = {}
_POWERS = 2.0 ** np.arange(53)


def _shot_table(n: int) -> np.ndarray:
    """Row ``(s - 1) * n + t - 1``: the rolls (of the 21) with which a checker on point s (1..n,
    n + 1 the bar) reaches point t (1..n); shape ``((n + 1) * n, 21)``."""
    m = _SHOT_TABLES.get(n)
    if m is None:
        reach = _rolls_reaching(n + 1)
        m = np.zeros((n + 1, n, 21))
        for src in range(1, n + 2):
            for t in range(1, min(src, n + 1)):
                m[src - 1, t - 1] = reach[src - t]
        m = _SHOT_TABLES[n] = m.reshape((n + 1) * n, 21)
    return m


def _shots(attack: np.ndarray, attack_bar: np.ndarray, blots: np.ndarray) -> np.ndarray:
    """The chance that ``attack`` (checkers per point 1..n, in the attacker's numbering, moving down)
    hits at least one of ``blots`` (bool per point, the same numbering) with one roll."""
    k, n = attack.shape
    occ = np.empty((k, n + 1), dtype=bool)
    occ[:, :n] = attack > 0
    occ[:, n] = attack_bar > 0
    pairs = (occ[:, :, None] & blots[:, None, :]).reshape(k, (n + 1) * n)  # (source, blot) pairs
    hit = (pairs.astype(np.float64) @ _shot_table(n)) > 0  # (k, 21): some pair is reached by that roll
    return (hit.astype(np.int64) @ _ROLL_COUNTS) / 36.0  # integers: exact for any batch


def _runs_upto6(made: np.ndarray) -> np.ndarray:
    """The longest run of true values in each row, counted up to 6."""
    x = (made @ _POWERS[:made.shape[1]]).astype(np.int64)  # a bit mask (exact: fewer than 53 points)
    run = np.zeros(made.shape[0])
    for _ in range(6):
        run += x != 0
        x &= x >> 1
    return run


def features(variant: Variant, boards: Any, opp_off: Any) -> np.ndarray:
    """The hand-made features of ``td24x`` (:data:`FEATURES`, the side to act's six, then the
    opponent's), shape ``(B, 12)``; see the module docstring."""
    n, bar, c, home = variant.points, variant.bar, variant.checkers, variant.home
    mine, theirs, bar_mine, bar_theirs = _both_sides(boards, opp_off, n)
    k = mine.shape[0] // 2
    has = mine > 0
    back = np.where(bar_mine > 0, bar, np.where(has.any(1), n - np.argmax(has[:, ::-1], axis=1), 0))
    contact = (back[:k] + back[k:] > bar).astype(np.float64)
    blots = mine == 1
    made = mine >= 2
    f = np.empty((2 * k, len(FEATURES)))
    f[:, 0] = _shots(theirs, bar_theirs, blots[:, ::-1])  # the other side's numbering is this one's reversed
    f[:, 1] = np.minimum(blots.sum(1), 5) / 5.0
    f[:, 2] = made[:, :home].sum(1) / home
    f[:, 3] = _runs_upto6(made) / 6.0
    f[:, 4] = (mine[:, n - home:].sum(1) + bar_mine) / c
    f[:, 5] = np.concatenate([contact, contact])
    return np.concatenate([f[:k], f[k:]], axis=1)


def _escapes(blocked: np.ndarray) -> np.ndarray:
    """Column p (1..n + 1, n + 1 the bar): the rolls (of 36) with which a checker on point p moves
    its whole roll (both dice; two of a doubles) past ``blocked`` (bool per point 1..n, the mover's
    numbering): the landing point open and at least one of the two intermediate points open; points
    below 1 are open. Column 0 is zero (no checker)."""
    k, n = blocked.shape
    pad = np.zeros((k, n + 14), dtype=bool)  # column i: point i - 12
    pad[:, 13:13 + n] = blocked
    p = np.arange(1, n + 2)
    esc = np.zeros((k, n + 2), dtype=np.int64)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            ok = ~pad[:, 12 + p - d1 - d2] & ~(pad[:, 12 + p - d1] & pad[:, 12 + p - d2])
            esc[:, 1:] += ok
    return esc


def expert_features(variant: Variant, boards: Any, opp_off: Any) -> np.ndarray:
    """The expert features ``td24e`` adds to ``td24x`` (:data:`EXPERT`, the side to act's ten, then
    the opponent's), shape ``(B, 20)``, each side in its own numbering (the bar is point 25).

    After Berliner's and gnubg's contact inputs, written from their definitions. "Escapes" of a
    checker are the rolls (of 36) with which it can move its whole roll past the other side's
    points (two or more checkers): the landing point and one intermediate point open.

    escape: the escapes of the side's rearmost checker / 36. contain: 1 - the fewest escapes of a
    checker of the other side on any of its points 13..24 (this side's home and outer boards) / 36.
    contain_back: the same from its point 13 to its rearmost checker (0 when that is nearer home).
    pip_loss: the pips this side expects to lose to the other side's next roll (for each roll the
    farthest-travelled blot it reaches, direct or combined, blocks ignored, as ``shots_against``)
    / 12. double_shots: the chance that one roll reaches two or more of its blots. mobility: over
    its checkers outside its home board, escapes times the distance from home, / 3600.
    back_anchor: its rearmost point of two or more checkers / 24 (0: none). forward_anchor: its
    point of two or more checkers nearest the other side's home among its points 13..24, as the
    other side's point number / 6 (2 when none). enter_fail: the chance that one checker on the bar
    does not enter, (the other side's home points / 6) squared. break_contact: the pips its
    checkers must travel to pass the other side's rearmost checker / 152 (1 at the start).
    """
    n, bar, home = variant.points, variant.bar, variant.home
    mine, theirs, bar_mine, bar_theirs = _both_sides(boards, opp_off, n)
    k = mine.shape[0] // 2
    cnt = np.concatenate([mine, bar_mine[:, None]], axis=1)  # points 1..bar
    att = np.concatenate([theirs, bar_theirs[:, None]], axis=1)
    rows = np.arange(2 * k)
    pnum = np.arange(1, bar + 1)
    occ = cnt > 0
    back = np.where(occ.any(1), (occ * pnum).max(1), 0)
    back_other = np.concatenate([back[k:], back[:k]])
    esc = _escapes((theirs >= 2)[:, ::-1])  # this side's checkers past the other side's points
    esc_other = np.concatenate([esc[k:], esc[:k]])  # the other side's past this side's (its numbering)
    lo = bar - 2 * home
    f = np.zeros((2 * k, len(EXPERT)))
    f[:, 0] = esc[rows, back] / 36.0
    window = esc_other[:, lo:bar]
    f[:, 1] = 1.0 - window.min(1) / 36.0
    behind = np.where(np.arange(lo, bar)[None, :] <= back_other[:, None], window, 36).min(1)
    f[:, 2] = np.where(back_other >= lo, 1.0 - behind / 36.0, 0.0)
    # the other side's shots: per blot (its numbering t, which is also the pips the blot loses)
    blots_t = (mine == 1)[:, ::-1]
    reach = ((att > 0).astype(np.float64) @ _shot_table(n).reshape(n + 1, n * 21)).reshape(2 * k, n, 21) > 0
    hit = reach & blots_t[:, :, None]
    loss = (hit * np.arange(1, n + 1)[None, :, None]).max(1)
    f[:, 3] = (loss @ _ROLL_COUNTS) / 432.0
    f[:, 4] = ((hit.sum(1) >= 2).astype(np.int64) @ _ROLL_COUNTS) / 36.0
    outside = pnum > home
    f[:, 5] = (cnt[:, outside] * esc[:, 1:][:, outside] * (pnum[outside] - home)).sum(1) / 3600.0
    made = mine >= 2
    f[:, 6] = np.where(made.any(1), (made * pnum[:n]).max(1), 0) / n
    far = made[:, lo - 1:]
    first = lo + np.argmax(far, axis=1)
    f[:, 7] = np.where(far.any(1), (bar - first) / home, 2.0)
    other_home = np.concatenate([made[k:], made[:k]])[:, :home].sum(1)
    f[:, 8] = (other_home / home) ** 2
    edge = (bar - back_other)[:, None]
    f[:, 9] = (cnt * np.maximum(pnum[None, :] - edge, 0)).sum(1) / 152.0
    return np.concatenate([f[:k], f[k:]], axis=1)


#: The rolls (of 36) whose lower die is l (l = 1..6): one doubles and 2 (6 - l) others.
_LOW_ROLLS = 13 - 2 * np.arange(1, 7)


def low_die_features(variant: Variant, boards: Any, opp_off: Any) -> np.ndarray:
    """The features ``td24m`` adds to ``td24e`` for a variant played lower die first (:data:`LOW_DIE`,
    the side to act's three, then the opponent's), shape ``(B, 6)``, each side in its own numbering.

    A point is *closed* to a side when the other side holds it (two or more checkers) or this side
    already has the variant's cap of checkers there (Mexican: five). A roll whose lower die is l
    (13 - 2l of the 36 rolls, doubles included) must first move some checker l pips; when no
    checker can, the whole turn is lost.

    enter_low: the chance that a checker on the bar does not enter with the next roll, the entry
    point of the lower die closed (whether or not the side has a checker on the bar). turn_lost: the
    chance that the next roll is lost at its first step: with checkers on the bar the lower die's
    entry point is closed; otherwise no checker moves the lower die to an open point, nor bears off
    with it (all checkers home: from point l when bear-off is exact, else from point l or from the
    highest point below l). capped: its points holding the cap / (checkers // cap), 0 without a cap.
    """
    n, home, c = variant.points, variant.home, variant.checkers
    cap = variant.stacking_cap or c + 1
    mine, theirs, bar_mine, _ = _both_sides(boards, opp_off, n)
    k = mine.shape[0] // 2
    on_bar = bar_mine > 0
    closed = (theirs[:, ::-1] >= 2) | (mine >= cap)  # column q - 1: this side's point q
    low = np.arange(1, 7)
    enter_closed = closed[:, n - low]  # the entry point of die l is bar - l
    can = np.zeros((2 * k, 6), dtype=bool)
    has = mine > 0
    for d in low:
        can[:, d - 1] = (has[:, d:] & ~closed[:, :n - d]).any(1)
    home_only = ~has[:, home:].any(1) & ~on_bar
    top = np.where(has[:, :home].any(1), home - np.argmax(has[:, home - 1::-1], axis=1), 0)  # highest point
    for d in low[low <= home]:
        off = has[:, d - 1] if variant.exact_bear_off else has[:, d - 1] | ((top > 0) & (top < d))
        can[:, d - 1] |= home_only & off
    can = np.where(on_bar[:, None], ~enter_closed, can)
    f = np.zeros((2 * k, len(LOW_DIE)))
    f[:, 0] = (enter_closed @ _LOW_ROLLS) / 36.0
    f[:, 1] = (~can @ _LOW_ROLLS) / 36.0
    if variant.stacking_cap:
        f[:, 2] = (mine >= cap).sum(1) / max(1, c // cap)
    return np.concatenate([f[:k], f[k:]], axis=1)


def timing_features(variant: Variant, boards: Any, opp_off: Any) -> np.ndarray:
    """The features ``td24t`` adds to ``td24e`` (:data:`TIMING`, the side to act's four, then the
    opponent's), shape ``(B, 8)``, each side in its own numbering (the bar is point ``points + 1``).

    After the timing, builders and back-game inputs of gnubg's contact net, in definitions of our
    own. A checker is *free* when moving it breaks nothing: on a home-board point, a blot or a
    checker beyond the point's two; outside the home board, any checker except the two that hold
    a point in the other side's home board (an anchor).

    timing: the pips of the free checkers, each to point ``home + 1`` when it is outside the home
    board (the bar counts as point ``points + 1``) and to point 1 inside it, / 100: what the side
    can play before it must break its board or an anchor. builders: the checkers beyond a point's
    two, and blots, on the points from q to q + 6 of some point q in 2..home + 1 that neither side
    holds (one more checker would make it), / 6. backgame: timing when the side holds two or
    more points in the other side's home board, else 0. trapped: its checkers (the bar's too) on the
    points above the top of the lowest run of four or more points the other side holds, / checkers.
    """
    n, bar, home, c = variant.points, variant.bar, variant.home, variant.checkers
    mine, theirs, bar_mine, _ = _both_sides(boards, opp_off, n)
    k = mine.shape[0] // 2
    pnum = np.arange(1, n + 1)
    inner = pnum <= home
    back = pnum > n - home
    spare = np.where(mine >= 3, mine - 2, (mine == 1).astype(np.int64))
    free = np.where(inner, spare, np.where(back & (mine >= 2), mine - 2, mine))
    dist = np.where(inner, pnum - 1, pnum - home)
    timing = ((free * dist).sum(1) + bar_mine * (bar - home)) / 100.0
    held = theirs[:, ::-1] >= 2  # the other side's points, in this side's numbering
    top = min(home + 1, n)
    makeable = (mine[:, 1:top] < 2) & ~held[:, 1:top]  # points 2..top
    near = np.zeros_like(mine, dtype=bool)
    for q in range(2, top + 1):
        span = (pnum >= q) & (pnum <= q + 6)
        near |= makeable[:, q - 2:q - 1] & span[None, :]
    builders = (spare * near).sum(1) / 6.0
    anchors_back = ((mine >= 2) & back).sum(1)
    run = np.zeros(2 * k, dtype=np.int64)
    lowest = np.full(2 * k, n + 1)
    for p in range(1, n + 1):
        run = np.where(held[:, p - 1], run + 1, 0)
        ends = (run >= 4) & (~held[:, p] if p < n else True)
        lowest = np.where(ends & (lowest > n), p, lowest)
    behind = (mine * (pnum[None, :] > lowest[:, None])).sum(1) + bar_mine
    f = np.zeros((2 * k, len(TIMING)))
    f[:, 0] = timing
    f[:, 1] = builders
    f[:, 2] = np.where(anchors_back >= 2, timing, 0.0)
    f[:, 3] = np.where(lowest <= n, behind, 0) / c
    return np.concatenate([f[:k], f[k:]], axis=1)


def encode(variant: Variant, boards: Any, opp_off: Any, encoding: str | None = None) -> np.ndarray:
    """The input rows of a batch of mover's-eye boards (side to act positive), shape ``(B, inputs)``.

    ``opp_off`` is the opponent's checkers borne off, one per board (or one for all).
    """
    enc = encoding or encoding_for(variant)
    _check_encoding(variant, enc)
    if enc == "td24x":
        return np.concatenate([encode(variant, boards, opp_off, "td24"), features(variant, boards, opp_off)], axis=1)
    if enc == "td24e":
        return np.concatenate([encode(variant, boards, opp_off, "td24x"), expert_features(variant, boards, opp_off)],
                              axis=1)
    if enc == "td24m":
        return np.concatenate([encode(variant, boards, opp_off, "td24e"), low_die_features(variant, boards, opp_off)],
                              axis=1)
    if enc == "td24t":
        return np.concatenate([encode(variant, boards, opp_off, "td24e"), timing_features(variant, boards, opp_off)],
                              axis=1)
    n, bar, c = variant.points, variant.bar, variant.checkers
    b, o = _as_boards(boards, opp_off, n)
    pts = b[:, 1:bar]
    me = np.maximum(pts, 0)
    op = np.maximum(-pts, 0)[:, ::-1]  # the opponent's checkers in its own numbering
    ranks = np.arange(1, bar)
    me_pips = (me * ranks).sum(1) + bar * b[:, bar]
    op_pips = (op * ranks).sum(1) + bar * b[:, bar + 1]
    k = b.shape[0]
    if enc == "td24":
        counts = np.minimum(np.concatenate([me, op], axis=1), 15)
        extra = np.stack([b[:, bar] / 2.0, b[:, bar + 1] / 2.0, b[:, OFF] / c, o / c,
                          me_pips / 100.0, op_pips / 100.0], axis=1)
        return np.concatenate([_TD_UNITS[counts].reshape(k, -1), extra], axis=1)
    counts = np.concatenate([me, op, b[:, bar:bar + 2], b[:, OFF:OFF + 1], o[:, None]], axis=1)
    scale = float(c * bar)
    pips = np.stack([me_pips / scale, op_pips / scale], axis=1)
    return np.concatenate([_thermometer(c)[counts].reshape(k, -1), pips], axis=1)


def swap_boards(boards: np.ndarray, opp_off: np.ndarray, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """The same positions of ``variant`` seen by the opponent: its mover's-eye boards and the first
    side's off."""
    n, bar = variant.points, variant.bar
    s = np.empty_like(boards)
    s[:, OFF] = opp_off
    s[:, 1:bar] = -boards[:, n:0:-1]  # the opponent's point p is this side's point flip(p) = bar - p
    s[:, bar] = boards[:, bar + 1]
    s[:, bar + 1] = boards[:, bar]
    return s, boards[:, OFF].copy()


def flip(values: np.ndarray) -> np.ndarray:
    """Values of one side turned into the other side's (rows of 1 or 5 outputs)."""
    perm, sign, const = _FLIP[values.shape[-1]]
    return const + sign * values[..., perm]


def equity(values: np.ndarray) -> np.ndarray:
    """Cubeless equity in points per game of rows of values: ``2 win - 1`` (+ gammons and backgammons
    with five outputs)."""
    v = np.asarray(values, dtype=np.float64)
    e = 2.0 * v[..., 0] - 1.0
    if v.shape[-1] == 5:
        e = e + v[..., 1] + v[..., 2] - v[..., 3] - v[..., 4]
    return e


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic function, written with tanh (no overflow for any z)."""
    return 0.5 + 0.5 * np.tanh(0.5 * z)


def _one_board(boards: Any, n: int) -> np.ndarray | None:
    """The one board of a batch of one (an integer row of ``n + 3``), else None."""
    if isinstance(boards, np.ndarray):
        if boards.shape == (1, n + 3) and boards.dtype.kind in "iu":
            return boards[0]
        return None
    if isinstance(boards, (list, tuple)) and len(boards) == 1:
        row = np.asarray(boards[0])
        if row.shape == (n + 3,) and row.dtype.kind in "iu":
            return row
    return None


_ONE: dict[tuple[Variant, str], Any] = {}


def _evaluate_kernel(variant: Variant, encoding: str) -> Any:
    """The variant's selfplay kernel for ``encoding`` (its ``evaluate_one`` and ``evaluate_many``
    value boards compiled), or None when the kernels run uncompiled (numba missing or disabled:
    numpy is then the faster path)."""
    key = (variant, encoding)
    got = _ONE.get(key, False)
    if got is False:
        from ..kernels import compiled

        got = None
        if compiled():
            from .selfplay import kernel

            got = kernel(variant, encoding)
        _ONE[key] = got
    return got


# ---------------------------------------------------------------------------------------------
# the second hidden layer's reach: which first-layer units each of its units reads


def _reads(wh: np.ndarray) -> np.ndarray:
    """``(hidden2, 2)``: for each second-layer unit the first and one past the last first-layer
    unit with a weight other than zero (``(0, 0)``: none). A net joined by :func:`join_nets` has a
    block-diagonal second layer, each unit reading its own member's units only; the kernels sum over
    this span alone, and the fits keep the weights outside it at zero (:meth:`Net.layer2_mask`), so
    the span stays true while a net learns."""
    nz = wh != 0
    anyz = nz.any(axis=1)
    lo = np.where(anyz, nz.argmax(axis=1), 0)
    hi = np.where(anyz, wh.shape[1] - nz[:, ::-1].argmax(axis=1), 0)
    return np.stack([lo, hi], axis=1).astype(np.int64)


def _group_reads(reads: np.ndarray) -> np.ndarray:
    """The spans as the kernel reads them: it sums four second-layer units at a time (the last
    ``hidden2 % 4`` one at a time), so each unit of a four gets the four's joint span."""
    out = reads.copy()
    for j in range(0, len(reads) - len(reads) % 4, 4):
        part = reads[j:j + 4]
        used = part[part[:, 1] > part[:, 0]]
        out[j:j + 4] = (used[:, 0].min(), used[:, 1].max()) if len(used) else (0, 0)
    return out


# ---------------------------------------------------------------------------------------------
# the net


class Net:
    """A perceptron with sigmoid units: ``inputs -> hidden -> outputs``, or with a second hidden
    layer, ``inputs -> hidden -> hidden2 -> outputs``.

    ``w1`` has shape ``(hidden, inputs)``, ``b1`` ``(hidden,)``; with a second layer (``layer2=(wh,
    bh)``) ``wh`` has shape ``(hidden2, hidden)`` and ``bh`` ``(hidden2,)``, with ``1 <= hidden2 <=
    hidden``; ``w2`` has shape ``(outputs, hidden2 or hidden)``, ``b2`` ``(outputs,)``. ``meta`` is a
    JSON-ready dict (see the module docstring). A net with two hidden layers keeps ``wh`` and ``w2``
    (and ``bh`` and ``b2``) as views of one packed array, the form the compiled kernels take
    (:meth:`kernel_weights`); such a net is made by :func:`~backgammon_lab.analysis.refine.distil`
    and refined by :func:`~backgammon_lab.analysis.refine.refine`, not trained by self-play.
    ``race`` is the net's race net (:meth:`with_race`), ``crashed`` its crashed net
    (:meth:`with_crashed`), ``prune`` its pruning net and ``keep`` the plays that one keeps
    (:meth:`with_prune`); None and 0 when it has none.

    >>> from backgammon_lab import find_variant, Position
    >>> net = Net.create(find_variant("minigam"), hidden=8, seed=1)
    >>> p = Position.start("minigam")
    >>> v = net.evaluate([p.board()], [0])
    >>> v.shape, bool(0 < v[0, 0] < 1)
    ((1, 1), True)
    """

    def __init__(self, variant: Variant, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                 *, encoding: str | None = None, meta: dict[str, Any] | None = None,
                 layer2: tuple[np.ndarray, np.ndarray] | None = None, race: Net | None = None,
                 prune: Net | None = None, keep: int = 0, crashed: Net | None = None) -> None:
        self.variant = variant
        self.encoding = encoding or encoding_for(variant)
        # the first layer is held transposed, an input's weights contiguous (as the kernels read
        # it); ``w1`` is the (hidden, inputs) view of it, so writes through either are one array
        self._w1t = np.array(np.asarray(w1, dtype=np.float64).T, order="C")
        self.b1 = np.ascontiguousarray(b1, dtype=np.float64)
        w2 = np.asarray(w2, dtype=np.float64)
        b2 = np.asarray(b2, dtype=np.float64)
        shapes = [self.w1.shape, self.b1.shape, w2.shape, b2.shape]
        h, i = self.w1.shape if self.w1.ndim == 2 else (-1, -1)
        k = w2.shape[0] if w2.ndim == 2 else -1
        last = h
        wh = bh = None
        if layer2 is not None:
            wh, bh = (np.asarray(a, dtype=np.float64) for a in layer2)
            shapes[2:2] = [wh.shape, bh.shape]
            last = wh.shape[0] if wh.ndim == 2 else -1
        if i != input_size(variant, self.encoding) or self.b1.shape != (h,) or w2.shape != (k, last) \
                or b2.shape != (k,) or k not in _FLIP \
                or (wh is not None and (wh.shape != (last, h) or bh is None or bh.shape != (last,)
                                        or not 1 <= last <= h)):
            raise NetError(f"inconsistent weight shapes {', '.join(map(str, shapes))} for {variant!r} with "
                           f"encoding {self.encoding!r}" + (" (a second hidden layer has 1 to hidden units)"
                                                            if wh is not None else ""))
        self._reads: np.ndarray | None = None
        if wh is None or bh is None:
            self.wh: np.ndarray | None = None
            self.bh: np.ndarray | None = None
            self.w2 = np.ascontiguousarray(w2)
            self.b2 = np.ascontiguousarray(b2)
            self._packed = (self.w2, self.b2)
        else:  # one array for the second layer and the output layer, as the kernels take them,
            # in float32: the kernel's sums over the second layer run twice as wide and read half
            # the bytes (the 256-64 net's 2-ply hint 157 -> 127 ms median), at a rounding of 1e-6 in the values
            packed = np.zeros((last + k, h), dtype=np.float32)
            packed[:last] = wh
            packed[last:, :last] = w2
            self._reads = _reads(packed[:last])
            # after the biases, the first-layer units each second-layer row reads (see _reads)
            packed_b = np.concatenate([bh, b2, _group_reads(self._reads).ravel()]).astype(np.float32)
            self.wh, self.bh = packed[:last], packed_b[:last]
            self.w2, self.b2 = packed[last:, :last], packed_b[last:last + k]
            self._packed = (packed, packed_b)
        self.meta: dict[str, Any] = dict(meta or {})
        self.race: Net | None = None
        if race is not None:
            self._check_race(race)
            self.race = race
        self.prune: Net | None = None
        self.keep = 0
        if prune is not None:
            self.keep = self._check_prune(prune, keep)
            self.prune = prune
        self.crashed: Net | None = None
        if crashed is not None:
            self._check_crashed(crashed)
            self.crashed = self._searching(crashed)

    def _searching(self, crashed: Net) -> Net:
        """``crashed`` with this net's pruning net: the crashed net searches with it (one pruning
        net a file)."""
        return Net(crashed.variant, crashed.w1, crashed.b1, crashed.w2, crashed.b2, encoding=crashed.encoding,
                   meta=crashed.meta, layer2=crashed._layer2(), prune=self.prune, keep=self.keep)

    def _check_race(self, race: Any) -> None:
        """Raise :class:`NetError` unless ``race`` can be this net's race net."""
        if not isinstance(race, Net):
            raise NetError(f"a race net is a Net, not {race!r:.200}")
        if race.variant != self.variant or race.outputs != self.outputs:
            raise NetError(f"the race net {race!r} does not fit {self!r}: the same variant and outputs are needed")
        if race.race is not None or race.crashed is not None:
            raise NetError(f"the race net {race!r} has a race or crashed net of its own")

    def _check_crashed(self, crashed: Any) -> None:
        """Raise :class:`NetError` unless ``crashed`` can be this net's crashed net."""
        if not isinstance(crashed, Net):
            raise NetError(f"a crashed net is a Net, not {crashed!r:.200}")
        if (crashed.variant, crashed.encoding, crashed.outputs) != (self.variant, self.encoding, self.outputs):
            raise NetError(f"the crashed net {crashed!r} does not fit {self!r}: the same variant, encoding and "
                           "outputs are needed")
        if crashed.race is not None or crashed.crashed is not None:
            raise NetError(f"the crashed net {crashed!r} has a race or crashed net of its own")

    def _check_prune(self, prune: Any, keep: Any) -> int:
        """Raise :class:`NetError` unless ``prune`` can be this net's pruning net keeping ``keep``
        plays; the count of plays."""
        if not isinstance(prune, Net):
            raise NetError(f"a pruning net is a Net, not {prune!r:.200}")
        if (prune.variant, prune.encoding, prune.outputs) != (self.variant, self.encoding, self.outputs):
            raise NetError(f"the pruning net {prune!r} does not fit {self!r}: the same variant, encoding and outputs "
                           "are needed")
        if prune.wh is not None or prune.race is not None or prune.prune is not None or prune.crashed is not None:
            raise NetError(f"a pruning net has one hidden layer and no race or pruning net of its own, not {prune!r}")
        try:
            return whole_number(keep, "keep", 1, 1000, NetError)
        except NetError:
            raise NetError(f"a pruning net keeps a whole number of plays from 1, not {keep!r}") from None

    def with_prune(self, prune: Net | None, keep: int = 4) -> Net:
        """A copy of this net with ``prune`` (a copy of it) as its **pruning net**, or none: a small
        net of one hidden layer, of this net's variant, encoding and outputs, that makes the choices
        *inside* the search's look-ahead cheap, as GNU Backgammon's pruning nets do. Where the search
        chooses a play within its look-ahead (a reply, one's own next play), the pruning net values
        every play and this net only the best ``keep`` of them; the search's root, the 0-ply choice
        of a bot, and rollouts stay with this net alone. Saved in the same file. Raises
        :class:`NetError` for a net that does not fit or a ``keep`` below 1."""
        keep = self._check_prune(prune, keep) if prune is not None else 0
        out = self.copy()
        out.prune = prune.copy() if prune is not None else None
        out.keep = keep
        if out.crashed is not None:  # the crashed net searches with the same pruning net
            out.crashed = out._searching(out.crashed)
        return out

    def with_race(self, race: Net | None) -> Net:
        """A copy of this net with ``race`` (a copy of it) as its **race net**, or none: the net the
        search values a race by (no contact left, the position searched from; see
        :class:`~backgammon_lab.analysis.search.Evaluator`), saved in the same file. Raises
        :class:`NetError` for a net of another variant or other outputs, or one with a race net of
        its own."""
        if race is not None:
            self._check_race(race)
        out = self.copy()
        out.race = race.copy() if race is not None else None
        return out

    def with_crashed(self, crashed: Net | None) -> Net:
        """A copy of this net with ``crashed`` (a copy of it) as its **crashed net**, or none: the
        net the search values by when the position searched from is crashed (in contact, and a side
        has at most :data:`~backgammon_lab.analysis.strategy.CRASHED_CHECKERS` checkers still in
        play: :func:`~backgammon_lab.analysis.strategy.crashed`; see
        :class:`~backgammon_lab.analysis.search.Evaluator`), as GNU Backgammon keeps a net for
        crashed positions. It searches with this net's pruning net and is saved in the same file.
        Raises :class:`NetError` for a net of another variant, encoding or outputs, or one with a
        race or crashed net of its own.

        >>> a, b = Net.create("minigam", hidden=4, seed=1), Net.create("minigam", hidden=6, seed=2)
        >>> a.with_crashed(b)
        <Net minigam strip 130-4-1 games=0 crashed=6>
        """
        if crashed is not None:
            self._check_crashed(crashed)
        out = self.copy()
        out.crashed = out._searching(crashed.copy()) if crashed is not None else None
        return out

    @property
    def w1(self) -> np.ndarray:
        """The first layer's weights, ``(hidden, inputs)``: a view of the array the net holds
        transposed (an input's weights contiguous), writable in place."""
        return self._w1t.T

    @w1.setter
    def w1(self, value: np.ndarray) -> None:
        self._w1t = np.array(np.asarray(value, dtype=np.float64).T, order="C")

    @classmethod
    def create(cls, variant: str | Variant, *, hidden: int = 80, seed: int = 0,
               rng: np.random.Generator | None = None, encoding: str | None = None, hidden2: int = 0) -> Net:
        """A fresh net with small random weights (outputs near 0.5) for ``variant`` (``encoding``
        default :func:`encoding_for`), with a second hidden layer of ``hidden2`` units when it is
        not 0 (at most ``hidden``)."""
        v = find_variant(variant)
        enc = encoding or encoding_for(v)
        try:
            hidden = whole_number(hidden, "hidden", 1, 4096, NetError)
        except NetError:
            raise NetError(f"hidden units are a whole number from 1 to 4096, not {hidden!r}") from None
        try:
            hidden2 = whole_number(hidden2, "hidden2", 0, hidden, NetError)
        except NetError:
            raise NetError(f"a second hidden layer has a whole number of units from 0 (none) to hidden "
                           f"({hidden}), not {hidden2!r}") from None
        g = rng if rng is not None else np.random.default_rng(seed)
        n_in = input_size(v, enc)
        k = 5 if v.gammons else 1
        w1 = g.normal(0.0, 1.0 / np.sqrt(n_in), size=(hidden, n_in))
        layer2 = None
        if hidden2:
            layer2 = (g.normal(0.0, 1.0 / np.sqrt(hidden), size=(hidden2, hidden)), np.zeros(hidden2))
        last = hidden2 or hidden
        w2 = g.normal(0.0, 0.1 / np.sqrt(last), size=(k, last))
        meta = {"variant": v.name, "options": v.option_values, "hidden": hidden, "seed": seed, "games": 0,
                "seconds": 0.0}
        if hidden2:
            meta["hidden2"] = hidden2
        return cls(v, w1, np.zeros(hidden), w2, np.zeros(k), encoding=enc, meta=meta, layer2=layer2)

    # -- shape -----------------------------------------------------------------------------------
    @property
    def hidden(self) -> int:
        """Hidden units."""
        return int(self.w1.shape[0])

    @property
    def hidden2(self) -> int:
        """Units of the second hidden layer (0: the net has one hidden layer)."""
        return 0 if self.wh is None else int(self.wh.shape[0])

    def layer2_mask(self) -> np.ndarray | None:
        """``(hidden2, hidden)`` booleans: the second layer's weights a fit may change, those
        within each unit's span of first-layer units (None for a net of one hidden layer). The
        span is taken when the net is made: from the first to the last weight other than zero of
        each unit. Every weight of a dense net is inside it; in a net made by :func:`join_nets`
        each unit of the second layer reads its own member's units only, and the fits of
        :mod:`~backgammon_lab.analysis.refine` keep it so, which is what lets the kernels skip the
        zeros between the members.

        >>> a = Net.create("minigam", hidden=4, hidden2=2, seed=1)
        >>> join_nets([a, a]).layer2_mask().astype(int)
        array([[1, 1, 1, 1, 0, 0, 0, 0],
               [1, 1, 1, 1, 0, 0, 0, 0],
               [0, 0, 0, 0, 1, 1, 1, 1],
               [0, 0, 0, 0, 1, 1, 1, 1]])
        """
        if self._reads is None:
            return None
        cols = np.arange(self.hidden)[None, :]
        return (cols >= self._reads[:, :1]) & (cols < self._reads[:, 1:])  # type: ignore[no-any-return]

    def _layer2(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Copies of the second hidden layer's weights and biases, or None."""
        return None if self.wh is None or self.bh is None else (self.wh.copy(), self.bh.copy())

    def kernel_weights(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Copies of the weights as the compiled search and rollouts take them: the first layer
        transposed, ``(inputs, hidden)``, its biases, then the output layer's weights and biases,
        or with a second hidden layer that layer's packed above them (``(hidden2 + outputs,
        hidden)`` and ``(hidden2 + outputs + 2 hidden2,)``: after the biases, each second-layer
        unit's span of first-layer units, see :meth:`layer2_mask`; the kernel of
        :func:`selfplay.kernel(variant, encoding) <backgammon_lab.analysis.selfplay.kernel>`
        reads them so, and the second layer's size from them)."""
        return (self._w1t.copy(), self.b1.copy(), self._packed[0].copy(), self._packed[1].copy())

    def search_weights(self) -> tuple[Any, ...]:
        """The weights the compiled search takes: :meth:`kernel_weights`, then the pruning net's
        (its first layer transposed, its biases, its output layer's weights and biases; arrays of
        one hidden unit when there is none) and how many plays it keeps (0: none)."""
        if self.prune is None:
            p = (np.zeros((self.inputs, 1)), np.zeros(1), np.zeros((len(self.outputs), 1)), np.zeros(len(self.outputs)))
        else:
            p = self.prune.kernel_weights()
        return (*self.kernel_weights(), *p, self.keep)

    @property
    def inputs(self) -> int:
        """Input units."""
        return int(self.w1.shape[1])

    @property
    def outputs(self) -> tuple[str, ...]:
        """Names of the outputs (:data:`OUTPUTS_5` or :data:`OUTPUTS_1`)."""
        return OUTPUTS_5 if self.w2.shape[0] == 5 else OUTPUTS_1

    @property
    def games(self) -> int:
        """Self-play games trained."""
        return int(self.meta.get("games", 0))

    def with_encoding(self, encoding: str) -> Net:
        """This net grown to ``encoding``, an encoding that extends its own (:data:`ENCODINGS`): the
        new inputs get zero weights, so every value stays as it was until training uses them."""
        _check_encoding(self.variant, encoding)
        if encoding == self.encoding:
            return self.copy()
        if ENCODINGS[encoding] != self.encoding:
            raise NetError(f"encoding {encoding!r} does not extend this net's {self.encoding!r}")
        extra = input_size(self.variant, encoding) - self.inputs
        w1 = np.concatenate([self.w1, np.zeros((self.hidden, extra))], axis=1)
        meta = json.loads(json.dumps(self.meta))
        meta.setdefault("grown", []).append({"from": self.encoding, "to": encoding, "games": self.games})
        prune = self.prune.with_encoding(encoding) if self.prune is not None else None
        crashed = self.crashed.with_prune(None).with_encoding(encoding) if self.crashed is not None else None
        return Net(self.variant, w1, self.b1.copy(), self.w2.copy(), self.b2.copy(), encoding=encoding, meta=meta,
                   layer2=self._layer2(), race=self.race, prune=prune, keep=self.keep, crashed=crashed)

    def with_hidden(self, hidden: int, *, seed: int = 0) -> Net:
        """This net with its hidden layer widened to ``hidden`` units (at least its own). The new
        units get random input weights drawn as :meth:`create` draws them (a generator seeded with
        ``seed``, the net's games and both sizes), a zero bias and **zero output weights**, so every
        value stays as it was; training then moves their output weights, and through them their
        input weights. Recorded in ``meta["grown"]``."""
        try:
            hidden = whole_number(hidden, "hidden", self.hidden, 4096, NetError)
        except NetError:
            raise NetError(f"a net's hidden layer can only grow: {hidden!r} is not a whole number from "
                           f"{self.hidden} (this net's) to 4096") from None
        if hidden == self.hidden:
            return self.copy()
        if self.wh is not None:
            raise NetError(f"{self!r} has two hidden layers: only a one-layer net widens (distil a new one instead)")
        extra = hidden - self.hidden
        g = np.random.default_rng([int(seed), self.games, self.hidden, hidden])
        w1 = np.concatenate([self.w1, g.normal(0.0, 1.0 / np.sqrt(self.inputs), size=(extra, self.inputs))])
        w2 = np.concatenate([self.w2, np.zeros((self.w2.shape[0], extra))], axis=1)
        meta = json.loads(json.dumps(self.meta))
        meta["hidden"] = hidden
        meta.setdefault("grown", []).append({"hidden_from": self.hidden, "hidden_to": hidden, "seed": int(seed),
                                             "games": self.games})
        return Net(self.variant, w1, np.concatenate([self.b1, np.zeros(extra)]), w2, self.b2.copy(),
                   encoding=self.encoding, meta=meta, race=self.race, prune=self.prune, keep=self.keep,
                   crashed=self.crashed)

    def copy(self) -> Net:
        """An independent copy (weights and metadata)."""
        return Net(self.variant, self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy(),
                   encoding=self.encoding, meta=json.loads(json.dumps(self.meta)), layer2=self._layer2(),
                   race=self.race.copy() if self.race is not None else None,
                   prune=self.prune.copy() if self.prune is not None else None, keep=self.keep,
                   crashed=self.crashed.copy() if self.crashed is not None else None)

    # -- evaluation ------------------------------------------------------------------------------
    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations (of the last hidden layer) and outputs of input rows ``x`` (shape
        ``(B, inputs)``)."""
        h = _sigmoid(x @ self.w1.T + self.b1)
        if self.wh is not None:
            h = _sigmoid(h @ self.wh.T + self.bh)
        return h, _sigmoid(h @ self.w2.T + self.b2)

    def evaluate(self, boards: Any, opp_off: Any) -> np.ndarray:
        """Values for the side to act of a batch of mover's-eye boards: shape ``(B, outputs)``.

        The boards are valued in the compiled kernel, one at a time (the same values as the numpy
        forward pass within 1e-9, several times faster; within 1e-6 for a net of two hidden layers,
        whose second layer the kernel sums in float32); uncompiled (numba absent or disabled), one
        batched numpy call for the whole batch, encoding included.
        """
        k = _evaluate_kernel(self.variant, self.encoding)
        row = _one_board(boards, self.variant.points) if k is not None else None
        if row is not None:
            off = opp_off[0] if hasattr(opp_off, "__len__") else opp_off
            got = k.evaluate_one(row, int(off), self._w1t, self.b1, *self._packed)
            if not got.shape[0]:
                self._too_many(row)
            return got[None, :]  # type: ignore[no-any-return]
        b, o = _as_boards(boards, opp_off, self.variant.points)
        if k is None:
            if b.size and (b.max() > self.variant.checkers or b.min() < -self.variant.checkers):
                self._too_many(b)
            return self.forward(encode(self.variant, b, o, self.encoding))[1]
        out = np.empty((b.shape[0], len(self.outputs)))
        bad = k.evaluate_many(b, np.ascontiguousarray(o), self._w1t, self.b1, *self._packed, out)
        if bad >= 0:
            self._too_many(b[bad])
        return out

    def _too_many(self, boards: np.ndarray) -> None:
        c = self.variant.checkers
        raise NetError(f"a point holds at most {c} checkers of a side, not as in the board {boards.tolist()!r}")

    def evaluate_position(self, position: Any) -> np.ndarray:
        """Values (one row) of a :class:`~backgammon_lab.position.Position` for ``position.turn``,
        who is about to roll."""
        self.check_variant(position.variant)
        k = _evaluate_kernel(self.variant, self.encoding)
        if k is not None:
            return k.evaluate_one(np.array(position.board()), position.opponent_off,  # type: ignore[no-any-return]
                                  self._w1t, self.b1, *self._packed)
        return self.evaluate([position.board()], [position.opponent_off])[0]

    def values_after(self, boards: Any, opp_off: Any, *, same_side: Sequence[bool] | np.ndarray | None = None
                     ) -> np.ndarray:
        """Values **for the mover** of boards it has just played to (mover's eye), in one batch.

        By default the opponent acts next, so its values are flipped. Rows where ``same_side`` is
        true are positions where the mover itself rolls again (Mexican doubles): its own values.
        Boards where the mover has borne off every checker get the game's result (1 or 5 outputs).
        """
        return self.after_detail(boards, opp_off, same_side=same_side)[0]

    def after_detail(self, boards: Any, opp_off: Any, *, same_side: Sequence[bool] | np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`values_after` with what it computed on the way: ``(values, boards of the side to act
        next, their opponent's off counts, input rows, hidden activations)`` (the trainer reuses
        them for the position it goes on to learn from)."""
        n = self.variant.points
        b, o = _as_boards(boards, opp_off, n)
        sb, so = swap_boards(b, o, self.variant)
        same = np.zeros(b.shape[0], dtype=bool) if same_side is None else np.asarray(same_side, dtype=bool)
        if same.any():
            sb[same] = b[same]
            so[same] = o[same]
        x = encode(self.variant, sb, so, self.encoding)
        h, vals = self.forward(x)
        vals = np.where(same[:, None], vals, flip(vals))
        done = b[:, 0] == self.variant.checkers
        if done.any():
            vals[done] = self.outcome_rows(b[done], o[done])
        return vals, sb, so, x, h

    def outcome_rows(self, boards: np.ndarray, opp_off: np.ndarray) -> np.ndarray:
        """The exact values of boards where the mover has borne off every checker (it won)."""
        k = self.w2.shape[0]
        out = np.zeros((boards.shape[0], k))
        out[:, 0] = 1.0
        if k == 5:
            v = self.variant
            gammon = opp_off == 0
            deep = (boards[:, v.bar + 1] > 0) | (np.minimum(boards[:, 1:v.home + 1], 0).sum(1) < 0)
            out[:, 1] = gammon
            out[:, 2] = gammon & deep
        return out

    def score(self, values: np.ndarray) -> np.ndarray:
        """The number plays are ranked by: equity with five outputs, else the winning chance."""
        return equity(values) if values.shape[-1] == 5 else values[..., 0]

    def check_variant(self, variant: Variant) -> None:
        """Raise :class:`NetError` unless this net was trained for ``variant``."""
        if variant is not self.variant and variant != self.variant:
            raise NetError(f"this net evaluates {self.variant!r}, not {variant!r}")

    # -- files -------------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the net to ``path`` (``.npz``) atomically: a temporary file, then :func:`os.replace`."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        meta = dict(self.meta)
        meta.pop("race", None)  # the race, crashed and pruning nets' own, written below when there is one
        meta.pop("prune", None)
        meta.pop("crashed", None)
        meta.update(variant=self.variant.name, options=self.variant.option_values, encoding=self.encoding,
                    hidden=self.hidden, outputs=list(self.outputs), format=FORMAT_VERSION)
        arrays: dict[str, Any] = dict(self._arrays())
        if self.wh is not None:
            meta["hidden2"] = self.hidden2
        if self.race is not None:
            arrays.update({f"race_{k}": a for k, a in self.race._arrays().items()})
            race = self.race
            meta["race"] = {**race.meta, "encoding": race.encoding, "hidden": race.hidden,
                            **({"hidden2": race.hidden2} if race.wh is not None else {})}
        if self.crashed is not None:
            arrays.update({f"crashed_{k}": a for k, a in self.crashed._arrays().items()})
            crashed = self.crashed
            own = {k: v for k, v in crashed.meta.items() if k not in ("race", "prune", "crashed")}
            meta["crashed"] = {**own, "encoding": crashed.encoding, "hidden": crashed.hidden,
                               **({"hidden2": crashed.hidden2} if crashed.wh is not None else {})}
        if self.prune is not None:
            arrays.update({f"prune_{k}": a for k, a in self.prune._arrays().items()})
            meta["prune"] = {**self.prune.meta, "encoding": self.prune.encoding, "hidden": self.prune.hidden,
                             "keep": self.keep}
        meta["saved"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays, meta=np.array(json.dumps(meta, sort_keys=True)))
        os.replace(tmp, target)
        return target

    def _arrays(self) -> dict[str, np.ndarray]:
        """The weight arrays by their names in a file."""
        arrays = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}
        if self.wh is not None and self.bh is not None:
            arrays.update(wh=self.wh, bh=self.bh)
        return arrays

    def __repr__(self) -> str:
        sizes = [self.inputs, self.hidden] + ([self.hidden2] if self.wh is not None else []) + [len(self.outputs)]
        race = "" if self.race is None else f" race={self.race.encoding}-{self.race.hidden}"
        prune = "" if self.prune is None else f" prune={self.prune.hidden}:{self.keep}"
        crashed = "" if self.crashed is None else \
            f" crashed={'-'.join(map(str, [self.crashed.hidden] + ([self.crashed.hidden2] if self.crashed.wh is not None else [])))}"
        return (f"<Net {self.variant.name} {self.encoding} {'-'.join(map(str, sizes))} games={self.games}{race}"
                f"{crashed}{prune}>")


def join_nets(nets: Sequence[Net]) -> Net:
    """One net whose output logits are the mean of the logits of ``nets``: an **ensemble** that the
    kernels evaluate as one net. The hidden units stand side by side; with two hidden layers the
    second layer is block-diagonal (each net's second layer reads only its own first layer): the
    kernels sum each of its units over its own net's units alone, so that layer costs what the
    nets' second layers cost together, and the fits keep it block-diagonal
    (:meth:`Net.layer2_mask`). The
    output weights are divided by the number of nets. All must be of one variant, encoding and
    output count, and all of one hidden layer or all of two (grow an encoding first with
    :meth:`Net.with_encoding`). The joined net keeps the first net's race net, crashed net, pruning net and metadata, with
    ``meta["joined"]`` listing each net's sizes and games. Raises :class:`NetError` otherwise.

    >>> a = Net.create("minigam", hidden=4, seed=1)
    >>> b = Net.create("minigam", hidden=6, seed=2)
    >>> j = join_nets([a, b])
    >>> j.hidden
    10
    """
    nets = list(nets)
    if not nets or not all(isinstance(n, Net) for n in nets):
        raise NetError(f"join_nets takes one or more nets, not {nets!r:.200}")
    first = nets[0]
    for n in nets[1:]:
        if (n.variant, n.encoding, n.outputs, n.wh is None) != (first.variant, first.encoding, first.outputs,
                                                                 first.wh is None):
            raise NetError(f"cannot join {n!r} with {first!r}: one variant, encoding, output count and number "
                           "of hidden layers is needed")
    k = len(nets)
    w1 = np.vstack([n.w1 for n in nets])
    b1 = np.concatenate([n.b1 for n in nets])
    layer2 = None
    if first.wh is not None:
        wh = np.zeros((sum(n.hidden2 for n in nets), len(b1)))
        r = c = 0
        for n in nets:
            wh[r:r + n.hidden2, c:c + n.hidden] = n.wh
            r, c = r + n.hidden2, c + n.hidden
        layer2 = (wh, np.concatenate([np.asarray(n.bh, dtype=np.float64) for n in nets]))
    w2 = np.hstack([np.asarray(n.w2, dtype=np.float64) for n in nets]) / k
    b2 = np.sum([np.asarray(n.b2, dtype=np.float64) for n in nets], axis=0) / k
    meta = json.loads(json.dumps(first.meta))
    meta["hidden"] = len(b1)
    if layer2 is not None:
        meta["hidden2"] = int(layer2[0].shape[0])
    meta["joined"] = [{"hidden": n.hidden, "hidden2": n.hidden2, "games": n.games,
                       **({"rank_fits": len(n.meta["rank_fits"])} if "rank_fits" in n.meta else {})} for n in nets]
    return Net(first.variant, w1, b1, w2, b2, encoding=first.encoding, meta=meta, layer2=layer2, race=first.race,
               prune=first.prune, keep=first.keep, crashed=first.crashed)


def load_net(path: str | os.PathLike[str]) -> Net:
    """Read a net written by :meth:`Net.save`; raises :class:`NetError` for a file that is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            parts = {prefix: ([data[prefix + k] for k in ("w1", "b1", "w2", "b2")],
                              (data[prefix + "wh"], data[prefix + "bh"]) if prefix + "wh" in data.files else None)
                     for prefix in ("", "race_", "crashed_", "prune_") if prefix + "w1" in data.files}
            arrays, layer2 = parts[""]
    except (OSError, KeyError, ValueError) as e:
        raise NetError(f"cannot read a net from {str(path)!r}: {e}") from None
    if meta.get("format") != FORMAT_VERSION:
        raise NetError(f"{str(path)!r}: net format {meta.get('format')!r}, this version reads {FORMAT_VERSION}")
    variant = find_variant(meta["variant"], **meta.get("options", {}))
    race = None
    if "race_" in parts:
        race_meta = meta.get("race", {})
        race = Net(variant, *parts["race_"][0], encoding=race_meta.get("encoding"), meta=race_meta,
                   layer2=parts["race_"][1])
    prune, keep = None, 0
    if "prune_" in parts:
        prune_meta = meta.get("prune", {})
        prune = Net(variant, *parts["prune_"][0], encoding=prune_meta.get("encoding"), meta=prune_meta)
        keep = prune_meta.get("keep", 0)
    crashed = None
    if "crashed_" in parts:
        crashed_meta = meta.get("crashed", {})
        crashed = Net(variant, *parts["crashed_"][0], encoding=crashed_meta.get("encoding"), meta=crashed_meta,
                      layer2=parts["crashed_"][1])
    return Net(variant, *arrays, encoding=meta.get("encoding"), meta=meta, layer2=layer2, race=race, prune=prune,
               keep=keep, crashed=crashed)


def shipped_path(variant: str | Variant) -> Path:
    """Where the shipped net of ``variant`` lives (``backgammon_lab/data/nets/<name>.npz``)."""
    v = find_variant(variant)
    return Path(str(resources.files("backgammon_lab"))) / "data" / "nets" / f"{v.name}.npz"


_SHIPPED: dict[Variant, Net | None] = {}


def shipped_net(variant: str | Variant) -> Net | None:
    """The net shipped for ``variant`` (loaded once), or None when there is none or it was trained
    for other options of the variant (e.g. a Mini-Gam with fewer checkers)."""
    v = find_variant(variant)
    if v not in _SHIPPED:
        p = shipped_path(v)
        net = load_net(p) if p.is_file() else None
        _SHIPPED[v] = net if net is not None and net.variant == v else None
    return _SHIPPED[v]


# ---------------------------------------------------------------------------------------------
# plays as boards (the look-ahead over them is analysis.search.Evaluator, in the compiled kernel)


def play_board(play: Any) -> tuple[int, ...]:
    """The mover's-eye board a :class:`~backgammon_lab.position.Play` leads to (read from the move
    generator's raw result when it has one, as :mod:`backgammon_lab.rules` itself does)."""
    src = getattr(play, "_src", None)
    return src[2] if src is not None else play.position.board()
