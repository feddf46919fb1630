"""A slow, plain numpy statement of the analysis search (backgammon_lab.analysis.search), for tests:
the plays from rules.legal_boards, the values from Net.values_after / Net.evaluate (the numpy
forward pass), the look-ahead written out as recursion over Positions. The compiled search must
give the same values (within 1e-9) and the same choices."""

from __future__ import annotations

from typing import Any

import numpy as np

from backgammon_lab import Position
from backgammon_lab.analysis.nets import Net, flip
from backgammon_lab.engine import ALL_ROLLS
from backgammon_lab.rules import legal_boards, legal_plays


def opp_off(p: Position) -> int:
    return int(p.off[1 if p.turn == "white" else 0])


def equity(row: np.ndarray) -> float:
    e = 2.0 * float(row[0]) - 1.0
    if row.shape[-1] == 5:
        e += float(row[1] + row[2] - row[3] - row[4])
    return e


def _first_max(rows: list[np.ndarray]) -> int:
    eqs = [equity(r) for r in rows]
    return eqs.index(max(eqs))


def rows(net: Net, p: Position, dice: tuple[int, int], named: bool = False, look: bool = True
         ) -> tuple[list[tuple[int, ...]], np.ndarray, str]:
    """Every play's board, its 0-ply values (after a Mexican, with look, the naming looked up) and
    what follows the plays."""
    v = p.variant
    boards = legal_boards(p, dice)
    used = legal_plays(p, dice).length
    kind = v.after_play(dice, named, used) if used else "end_turn"
    vals = net.values_after(boards, opp_off(p), same_side=[kind != "end_turn"] * len(boards))
    if kind == "name" and look:
        for i, b in enumerate(boards):
            if b[0] != v.checkers:
                vals[i] = name0(net, _after(p, b))[1]
    return boards, vals, kind


def _after(p: Position, board: tuple[int, ...]) -> Position:
    return Position.from_board(p.variant, p.turn, tuple(board), opp_off(p))


def name0(net: Net, p: Position) -> tuple[int, np.ndarray]:
    """After a Mexican: the doubles whose best play is worth most at 0-ply, and that play's values."""
    cands = [best(net, p, (k, k), True)[1] for k in range(1, 7)]
    k = _first_max(cands)
    return k + 1, cands[k]


def best(net: Net, p: Position, dice: tuple[int, int], named: bool = False, look: bool = True,
         shortlist: int | None = None, inner: bool = False) -> tuple[int, np.ndarray, tuple[int, ...], str]:
    """The search's play of ``dice`` (chosen at 0-ply): index, 0-ply values, board, what follows.
    ``inner``: a choice inside the look-ahead, among the plays the net's pruning net keeps (the
    best ``net.keep`` by its values, in their order; the index is into them)."""
    boards, cheap, kind = rows(net, p, dice, named, look=False)
    if inner and net.prune is not None and len(boards) > net.keep:
        pruned = rows(net.prune, p, dice, named, look=False)[1]
        top = sorted(range(len(boards)), key=lambda j: (-equity(pruned[j]), j))[:net.keep]
        boards, cheap = [boards[j] for j in top], cheap[top]
    if kind == "name" and look:
        order = sorted(range(len(boards)), key=lambda j: (-equity(cheap[j]), j))[:shortlist]
        full = [cheap[j] if boards[j][0] == p.variant.checkers else name0(net, _after(p, boards[j]))[1] for j in order]
        k = _first_max(full)
        return order[k], full[k], boards[order[k]], kind
    i = _first_max(list(cheap))
    return i, cheap[i], boards[i], kind


def dice_value(net: Net, p: Position, dice: tuple[int, int], ply: int, named: bool = False, look: bool = True,
               shortlist: int | None = None, inner: bool = False) -> np.ndarray:
    i, row, board, kind = best(net, p, dice, named, look, shortlist, inner)
    return row if ply == 0 else after_value(net, p, board, kind, ply, look, shortlist)


def after_value(net: Net, p: Position, board: tuple[int, ...], kind: str, ply: int, look: bool = True,
                shortlist: int | None = None) -> np.ndarray:
    """The mover's values at ``ply`` after playing to ``board`` (mover's eye), followed by ``kind``."""
    v = p.variant
    if board[0] == v.checkers:
        return net.outcome_rows(np.asarray([board]), np.asarray([opp_off(p)]))[0]
    if kind == "name":
        after = _after(p, board)
        k = name0(net, after)[0]
        _i, _row, board, kind = best(net, after, (k, k), True)
    after = _after(p, board)
    if board[0] == v.checkers:
        return net.outcome_rows(np.asarray([board]), np.asarray([opp_off(p)]))[0]
    if kind != "end_turn":
        return roll_value(net, after, ply, look, shortlist)
    other = "black" if p.turn == "white" else "white"
    return flip(roll_value(net, after.with_turn(other), ply, look, shortlist))


def roll_value(net: Net, p: Position, ply: int, look: bool = True, shortlist: int | None = None) -> Any:
    """The side to act's values before it rolls, at ``ply``."""
    if ply == 0:
        return net.evaluate_position(p)
    return sum(pr * dice_value(net, p, r.dice, ply - 1, False, look, shortlist, inner=True) for r, pr in ALL_ROLLS)
