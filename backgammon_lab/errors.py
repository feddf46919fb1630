"""The exception hierarchy of backgammon_lab.

Every error the library raises for bad input is a subclass of :class:`BackgammonError`, which is
itself a :class:`ValueError`, so ``except ValueError`` keeps working for callers who do not care
about the detail. Messages quote the offending input.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "show",
    "BackgammonError",
    "VariantError",
    "PositionError",
    "NotationError",
    "DiceError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "GameError",
    "OutputError",
    "plain_message",
]


class BackgammonError(ValueError):
    """Base class of every error raised by backgammon_lab for bad input."""


class VariantError(BackgammonError):
    """An unknown variant name or a bad variant option."""


class PositionError(BackgammonError):
    """A position that cannot exist: wrong checker counts, both colours on a point, ..."""


class NotationError(BackgammonError):
    """Text (a position string, a Position ID, JSON, a move) that cannot be parsed."""


class DiceError(BackgammonError):
    """Dice out of range or malformed."""


class IllegalMoveError(BackgammonError):
    """A step or play that the rules forbid.

    ``reason`` is a short machine-readable code (see :mod:`backgammon_lab.rules`) and
    ``explanation`` the sentence that names the rule.
    """

    def __init__(self, message: str, reason: str = "illegal", explanation: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.explanation = explanation or message


class AmbiguousMoveError(IllegalMoveError):
    """A move text that matches more than one legal play."""


class GameError(BackgammonError):
    """An action that does not fit the game's current state (e.g. playing when a roll is due)."""


class RenderError(BackgammonError):
    """Options of a picture that cannot be drawn: an unknown theme, a point off the board, ..."""


class AnalysisError(BackgammonError):
    """Bad arguments to the analysis (odds, rollouts, hints, the solver, nets): a count that is not
    positive, a decision asked of the wrong variant or phase, a table of another game."""


class TableMissingError(AnalysisError):
    """A solved table or trained net that is needed is not on this machine; the message says how
    to make it (``backgammon-lab solve minigam``)."""


class OutputError(BackgammonError):
    """A file that cannot be written where the user asked: a folder given for a file, a folder that
    does not exist, no permission. The command line exits with status 1 for it (a failure, not bad
    input: the same path may work on another machine)."""


_DIGITS = re.compile(r"\((\d+) digits\) for integer string conversion(?:: value has (\d+) digits)?")


def plain_message(exc: BaseException) -> str:
    """The message of an exception in the user's words: Python's advice about
    ``sys.set_int_max_str_digits()`` for a number too long to read becomes "a number of N digits,
    longer than the 4300 read"; other messages are unchanged.

    >>> try:
    ...     int("1" * 5000)
    ... except ValueError as e:
    ...     print(plain_message(e))
    a number of 5000 digits, too long to read (at most 4300)
    """
    text = str(exc)
    m = _DIGITS.search(text)
    if m is None:
        return text
    if m.group(2):  # reading text
        return f"a number of {m.group(2)} digits, too long to read (at most {m.group(1)})"
    return f"a number of more than {m.group(1)} digits, too long to write out"


def show(value: Any, limit: int = 200) -> str:
    """``repr(value)`` for an error message: shortened in the middle when long, and safe for
    numbers too long to write in decimal (Python refuses more than 4300 digits)."""
    try:
        text = repr(value)
    except ValueError:
        return f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 45] + " ... " + text[-35:]
