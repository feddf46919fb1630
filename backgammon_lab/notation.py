"""The position's text forms in one place: the JSON form, the position string, GNU Backgammon
Position IDs and the text diagram.

This module is the top of the core's layers and only gathers: the position forms are read and
written by :mod:`backgammon_lab.textforms` and built by :class:`~backgammon_lab.position.Position`
(``Position.from_string`` and the functions here are the same code). Move notation
(``24/18 13/11*``, ``bar/22``, ``6/off``, ``8/5(2)``) has its own owners: it is read by
:mod:`backgammon_lab.moves` (``parse_steps``, ``coerce_step``), written by
:func:`~backgammon_lab.position.format_play` and judged by :mod:`backgammon_lab.rules`
(``parse_play``, ``explain_play``). See ``docs/notation.md``.

The position string, ``VARIANT/TURN/WHITE/BLACK`` (``standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5``
is the standard start), is described in full in :mod:`backgammon_lab.textforms`, which reads and
writes it.
"""

from __future__ import annotations

from typing import Any

from .position import WHITE, Player, Position
from .variants import Variant

__all__ = [
    "position_from_json",
    "position_from_string",
    "position_to_string",
    "position_to_id",
    "position_from_id",
    "parse_position",
    "diagram",
]


def position_from_json(data: str | bytes | dict[str, Any]) -> Position:
    """Parse the JSON form (dict, text or UTF-8 bytes); raise :class:`NotationError`/:class:`PositionError`."""
    return Position.from_json(data)


def position_to_string(pos: Position) -> str:
    """The compact position string of ``pos`` (see :mod:`backgammon_lab.textforms`)."""
    return pos.to_string()


def position_from_string(text: str) -> Position:
    """Parse a position string (see :mod:`backgammon_lab.textforms`)."""
    return Position.from_string(text)


def position_to_id(pos: Position) -> str:
    """GNU Backgammon's Position ID of ``pos`` (24-point variants: standard, Mexican)."""
    return pos.position_id()


def position_from_id(pid: str, variant: str | Variant = "standard", turn: Player = WHITE) -> Position:
    """Parse a Position ID; ``turn`` names the player on roll (the ID does not record colours)."""
    return Position.from_position_id(pid, variant, turn)


def parse_position(text: str, variant: str | Variant | None = None) -> Position:
    """Read a position from JSON text, a file holding it, a position string, or a Position ID.

    A Position ID needs ``variant`` (the ID does not name one); White is taken as on roll unless
    the text is written ``ID:black``. A file is read once: its content is never taken as the name
    of another file.
    """
    return Position.parse(text, variant)


def diagram(pos: Position) -> str:
    """A plain-text picture of the board: ``O`` is White, ``X`` is Black, White's numbering."""
    return pos.diagram()
