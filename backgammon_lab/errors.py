"""The exception hierarchy of backgammon_lab.

Every error the library raises for bad input is a subclass of :class:`BackgammonError`, which is
itself a :class:`ValueError`, so ``except ValueError`` keeps working for callers who do not care
about the detail. Messages quote the offending input.
"""

from __future__ import annotations

import operator
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
    "whole_number",
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


_WHOLE_TEXT = re.compile(r"([+-]?)0*([0-9]+)")
#: Most digits of a number given as text that is converted when no bound limits it (Python's own limit).
_MOST_DIGITS = 4300


def whole_number(value: Any, what: str, lo: int | None = None, hi: int | None = None,
                 error: type[BackgammonError] = BackgammonError, *, text: bool = False) -> int:
    """``value`` as a whole number from ``lo`` to ``hi`` (either end left open with ``None``): the one
    check of a count, an index or a size that a caller or the command line gives.

    An ``int`` (or any integer type, such as numpy's) is taken as it is; ``True``, ``2.0`` and the
    rest are refused. With ``text`` (the command line) text is read too when it is a sign and the
    digits 0-9, spaces around allowed (so ``'²'``, ``'٣'`` and ``'1e3'`` are refused); without it
    text is refused like any other value that is no number. Text longer than a bound needs is
    refused without being converted, so thousands of digits cost nothing. Bad input raises ``error`` (a
    :class:`BackgammonError`), its message starting with ``what`` (the argument's name; empty for a
    message without it, as argparse adds the option itself) and quoting the value: the bound
    broken ("expected a whole number of at least 1", "is too large: at most 6"), or the whole
    range for what is no whole number ("expected a whole number from 1 to 6").

    >>> whole_number(" +07", "--size", 1, 100, text=True)
    7
    >>> whole_number(3, "games", 1)
    3
    >>> whole_number("0", "--top", 1, text=True)
    Traceback (most recent call last):
      ...
    backgammon_lab.errors.BackgammonError: --top: expected a whole number of at least 1, not '0'
    """
    if type(value) is int and (lo is None or value >= lo) and (hi is None or value <= hi):
        return value  # the common case, before any message is written
    head = f"{what}: " if what else ""
    number: int | None = None
    if isinstance(value, str):
        m = _WHOLE_TEXT.fullmatch(value.strip()) if text else None
        if m is not None:
            sign, digits = m.groups()
            bound = lo if sign == "-" else hi
            if bound is not None and len(digits) > len(str(abs(bound))) + 1:  # past the bound: not converted
                number = bound - 1 if sign == "-" else bound + 1
            elif len(digits) > _MOST_DIGITS:
                raise error(f"{head}a number of {len(digits)} digits, too long to read (at most {_MOST_DIGITS})")
            else:
                number = -int(digits) if sign == "-" else int(digits)
    elif not isinstance(value, (bool, float, complex)):
        try:
            number = operator.index(value)
        except TypeError:
            number = None
    if number is None:
        if lo is not None and hi is not None:
            span = f" from {lo:,} to {hi:,}"
        else:
            span = f" of at least {lo:,}" if lo is not None else (f" of at most {hi:,}" if hi is not None else "")
        raise error(f"{head}expected a whole number{span}, not {show(value)}")
    if lo is not None and number < lo:
        raise error(f"{head}expected a whole number of at least {lo:,}, not {show(value)}")
    if hi is not None and number > hi:
        raise error(f"{head}{show(value)} is too large: at most {hi:,}")
    return number
