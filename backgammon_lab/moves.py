"""Reading move text: ``24/18 13/11*``, ``bar/22``, ``6/off``, ``8/5(2)`` and step values.

This module only reads: it turns text, tuples and :class:`~backgammon_lab.position.Step` values
into steps in the mover's numbering (bar = N+1, off = 0) and knows nothing of legality; the rules
(:mod:`backgammon_lab.rules`) judge what it reads. Writing plays is
:func:`backgammon_lab.position.format_play`.

Digits: move text accepts any Unicode decimal digit (category Nd: ``٢٤/١٨`` is ``24/18``), as
Python's ``int`` does; dice text follows the same rule (:meth:`Roll.parse`). Digit-like characters
that are not decimal digits (``²``, ``①``) are refused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .errors import IllegalMoveError, NotationError, show, whole_number
from .position import OFF, Position, Step, place_number

__all__ = ["parse_steps", "coerce_step", "MAX_REPEAT"]

#: The largest repeat count ``(n)`` a move may carry: four moves of doubles.
MAX_REPEAT = 4

_TOKEN = re.compile(r"^((?:bar|\d{1,3})(?:/(?:off|\d{1,3})\*?)+)(?:\((\d{1,3})\))?$")


def parse_steps(text: str, points: int) -> list[tuple[int, int]]:
    """Split move text into (start, end) segments in the mover's numbering (bar = N+1, off = 0).

    Raises :class:`NotationError` quoting the text for anything that is not move notation, a point
    off the board, or a repeat count outside 1..4 (no roll moves more than four times).
    """
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {show(text)}")
    t = text.strip().lower()
    if t in ("", "-", "no move", "pass"):
        return []
    segs: list[tuple[int, int]] = []
    for tok in t.replace(",", " ").split():
        m = _TOKEN.match(tok)
        if not m:
            shown = tok if len(tok) <= 40 else tok[:40] + "..."
            raise NotationError(f"cannot read {shown!r} in move {_quote(text)}; write moves like '24/18 13/11*', "
                                "'bar/22', '6/off', '8/5(2)'")
        names = m.group(1).replace("*", "").split("/")
        nums = [place_number(x, points) for x in names]
        for x, name in zip(nums, names, strict=True):
            if name not in ("bar", "off") and not 1 <= x <= points:
                raise NotationError(f"point {x} in move {_quote(text)} is not on a {points}-point board")
        rep = int(m.group(2) or 1)
        if not 1 <= rep <= MAX_REPEAT:
            raise NotationError(f"repeat count ({rep}) in move {_quote(text)} must be 1 to {MAX_REPEAT}: "
                                "a roll gives at most four moves")
        for _ in range(rep):
            segs.extend(zip(nums[:-1], nums[1:], strict=True))
        if len(segs) > 4 * MAX_REPEAT:
            raise NotationError(f"move {_quote(text)} has more steps than any roll allows")
    return segs


def _quote(text: str) -> str:
    """``repr`` of input text, shortened in the middle when very long."""
    return repr(text) if len(text) <= 200 else repr(text[:120] + " ... " + text[-40:])


def coerce_step(position: Position, step: Any, dice_left: Sequence[int] | None = None) -> Step:
    """Turn a :class:`Step`, a ``(start, end[, die])`` tuple or text like ``"bar/22"`` into a Step.

    When the die is not given it is ``start - end``, or for a bear-off the smallest die left that
    reaches off. Raises :class:`NotationError` for anything that is not a step and
    :class:`IllegalMoveError` (reason ``bad_point``) for a point off the board.
    """
    n, bar = position.variant.points, position.variant.bar
    if isinstance(step, Step):
        start, end, die = step.start, step.end, step.die
    elif isinstance(step, str):
        segs = parse_steps(step, n)
        if len(segs) != 1:
            raise NotationError(f"{show(step)} is not a single step (one checker, one die)")
        start, end = segs[0]
        die = None
    else:
        try:
            start, end, *rest = step
        except (TypeError, ValueError):
            raise NotationError(f"a step is (start, end) or text like '13/7', not {show(step)}") from None
        if len(rest) > 1:
            raise NotationError(f"a step is (start, end) or (start, end, die), not {show(step)}")
        die = rest[0] if rest else None
        if start is None or end is None:
            if not all(x is None or type(x) is int for x in (start, end, die)):
                raise NotationError(f"a step's points and die are integers, not {show(step)}")
            raise NotationError(f"a step's points are integers, not {show(step)}")
    if not isinstance(step, str):
        try:
            start, end = whole_number(start, "", error=NotationError), whole_number(end, "", error=NotationError)
            die = None if die is None else whole_number(die, "", error=NotationError)
        except NotationError:
            raise NotationError(f"a step's points and die are integers, not {show(step)}") from None
    if not (1 <= start <= bar and OFF <= end <= n):
        raise IllegalMoveError(f"step {show(step)} leaves the {n}-point board", "bad_point",
                               f"There is no such point on a {n}-point board: {show(step)}.")
    if isinstance(step, Step):  # numpy's integers, say, become ints
        return step if all(type(x) is int for x in (step.start, step.end, step.die)) else Step(start, end, step.die if die is None else die, step.hit)
    if die is None:
        dist = start - end
        die = dist
        if end == 0 and dice_left:
            bigger = sorted(d for d in dice_left if d >= dist)
            if dist not in dice_left and bigger:
                die = bigger[0]
    return Step(start, end, die, False)
