"""The board row's layout, the one place that numbers its slots.

A board row (:meth:`backgammon_lab.Position.board`, and the kernels' int8 rows) holds ``N + 3``
entries in the mover's eye: the mover's borne-off checkers, the points 1..N, the mover's bar and
the opponent's bar. These functions name the slots; nothing else computes them.

>>> width_of(24), bar_of(24), opp_bar_of(24), OFF
(27, 25, 26, 0)
"""

from __future__ import annotations

__all__ = ["OFF", "width_of", "bar_of", "opp_bar_of"]

#: The slot of the mover's borne-off checkers.
OFF = 0


def width_of(points: int) -> int:
    """The number of entries of a board row of ``points`` points."""
    return points + 3


def bar_of(points: int) -> int:
    """The slot of the mover's bar (also a step's start when a checker enters)."""
    return points + 1


def opp_bar_of(points: int) -> int:
    """The slot of the opponent's bar (the opponent's checkers on it counted positive)."""
    return points + 2
