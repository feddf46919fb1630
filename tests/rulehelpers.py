"""Small helpers shared by the rule tests (positions from strings, end positions, reason codes)."""

from __future__ import annotations

from typing import Any

from backgammon_lab import Position, explain_step, legal_plays
from backgammon_lab.game import Game


def P(text: str) -> Position:
    """A position from its position string."""
    return Position.from_string(text)


def ends(text: str, dice: tuple[int, int]) -> set[Position]:
    """The distinct positions reachable by playing ``dice`` (turn unchanged)."""
    return {p.position for p in legal_plays(P(text), dice)}


def ps(*texts: str) -> set[Position]:
    """A set of positions from position strings."""
    return {P(t) for t in texts}


def code(text: str, dice: tuple[int, int], step: Any, done: Any = ()) -> str:
    """The reason code ``explain_step`` gives for ``step`` after the steps ``done``."""
    return explain_step(P(text), dice, list(done), step).code


def game_at(text: str) -> Game:
    """A game of the position's variant that starts with its side to roll."""
    return Game(position=P(text))
