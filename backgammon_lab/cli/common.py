"""What the commands of ``backgammon-lab`` share: reading a position, dice or a ``--batch`` line,
the argument types, checking an output file, the one-line messages and the exit status of an
error (:func:`describe_error`), progress bars, and :class:`Terminated`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from ..errors import (
    BackgammonError,
    DiceError,
    NotationError,
    OutputError,
    VariantError,
    plain_message,
    whole_number,
)
from ..matchfiles.xgid import is_xgid, position_from_xgid
from ..notation import parse_position
from ..position import Position, Roll
from ..variants import find_variant

__all__ = [
    "read_position", "read_dice", "batch_position", "run_batch", "load_json_line", "positive_int", "seed_int",
    "number_type", "describe_error", "show_progress", "add_progress_argument", "note", "quote",
    "check_output_path", "Terminated", "POSITION_HELP", "VARIANT_HELP", "LARGEST",
]

PROG = "backgammon-lab"
#: Longest quote of an input in a message; longer inputs are cut with an ellipsis.
QUOTE_LIMIT = 80
#: Longest file name quoted whole (a file name is worth showing in full: a user must find it).
PATH_QUOTE_LIMIT = 400
#: Longest message printed; a longer one is cut.
MESSAGE_LIMIT = 600
#: Largest position file read (a position is a few hundred bytes).
FILE_LIMIT = 1 << 20
#: Set this environment variable to 1 to see the traceback of an internal error.
DEBUG_ENV = "BACKGAMMON_LAB_DEBUG"

_PATHLIKE = re.compile(r"(?:\.{0,2}/|~).*|.*\.[A-Za-z][A-Za-z0-9]{0,5}")
_IDLIKE = re.compile(r"(?=.*[0-9+/])([A-Za-z0-9+/]{8,24})(?::(?:white|black))?")


# -- messages ----------------------------------------------------------------------------------
def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters (with ``…``) for long inputs."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote_path(value: Any) -> str:
    """``repr`` of a file name for an error message: whole up to :data:`PATH_QUOTE_LIMIT` characters."""
    return quote(value, PATH_QUOTE_LIMIT)


def _one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    text = " ".join(str(message).split("\n")).strip() or "unknown error"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_error(exc: BaseException) -> tuple[int, str]:
    """The exit status and the one-line message for an exception that stopped a command.

    2 for bad input (the project's errors, other ``ValueError``\\ s, input nested too deeply),
    1 for failures (files that cannot be read or written, internal errors).
    """
    if isinstance(exc, OutputError):
        return 1, _one_line(str(exc))
    if isinstance(exc, BackgammonError):
        return 2, _one_line(plain_message(exc))
    if isinstance(exc, UnicodeDecodeError):
        return 2, f"the input is not UTF-8 text ({exc.reason} at byte {exc.start})"
    if isinstance(exc, RecursionError):
        return 2, "the input is nested too deeply to read"
    if isinstance(exc, (ValueError, OverflowError)):
        return 2, _one_line(plain_message(exc) or type(exc).__name__)
    if isinstance(exc, OSError):
        what = exc.strerror or str(exc) or type(exc).__name__
        if exc.filename is not None:
            return 1, _one_line(f"{quote_path(os.fsdecode(exc.filename))}: {what}")
        return 1, _one_line(what)
    if isinstance(exc, MemoryError):
        return 1, "out of memory"
    return 1, _one_line(f"internal error ({type(exc).__name__}: {exc}); set {DEBUG_ENV}=1 to see the traceback")


def _error(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def note(message: str) -> None:
    """A one-line note on stderr (e.g. that an estimate is not exact)."""
    print(f"{PROG}: note: {message}", file=sys.stderr)


# -- argument types ----------------------------------------------------------------------------
#: The largest count or seed the command line takes (2**63 - 1, the largest a seed can be).
LARGEST = 2**63 - 1


def _count(text: str, lo: int) -> int:
    """An argparse type's whole number from ``lo`` to :data:`LARGEST` (:func:`~backgammon_lab.errors.whole_number`;
    argparse names the option in the message)."""
    try:
        return whole_number(text, "", lo, LARGEST, text=True)
    except BackgammonError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (``--games``, ``--top``, ``--candidates``)."""
    return _count(text, 1)


def seed_int(text: str) -> int:
    """An argparse type: a seed, a whole number from 0 to 2**63 - 1."""
    return _count(text, 0)


def number_type(low: float, high: float, *, what: str, whole: bool = False, low_open: bool = False,
                high_open: bool = False) -> Callable[[str], Any]:
    """An argparse type: a number from ``low`` to ``high`` (either end left out with ``low_open`` /
    ``high_open``; ``whole`` for whole numbers), refused with "expected WHAT, not 'TEXT'".

    >>> number_type(0, 1, what="a number from 0 to 1")("0.25")
    0.25
    """
    def parse(text: str) -> Any:
        x: float
        if whole:
            try:
                x = whole_number(text, "", -LARGEST - 1, LARGEST, text=True)
            except BackgammonError:
                x = math.nan
        else:
            try:
                x = float(text)
            except ValueError:
                x = math.nan
        ok = math.isfinite(x) and (low < x if low_open else low <= x) and (x < high if high_open else x <= high)
        if not ok:
            raise argparse.ArgumentTypeError(f"expected {what}, not {quote(text)}")
        return x

    return parse


def show_progress(args: argparse.Namespace) -> bool:
    """Whether to draw progress bars: ``--progress``/``--no-progress``, else when stderr is a terminal."""
    chosen = getattr(args, "progress", None)
    if chosen is not None:
        return bool(chosen)
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):
        return False


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--progress``/``--no-progress`` (default: on when stderr is a terminal)."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bars on stderr (default: on when stderr is a terminal)")


# -- output files ------------------------------------------------------------------------------
def check_output_path(text: str, option: str, example: str, *, make_folders: bool = False) -> Path:
    """The file an option names for writing, checked before any work is done: refused with
    :class:`~backgammon_lab.errors.BackgammonError` when empty, with
    :class:`~backgammon_lab.errors.OutputError` (exit status 1) when it is a folder, when its folder
    does not exist (unless ``make_folders``: then the nearest existing one must be a folder) or
    cannot be written. Messages quote ``option`` and the path as the user wrote it; ``example`` is
    a file name to suggest (``board.svg``). Nothing is created."""
    if not text.strip():
        raise BackgammonError(f"{option} {quote_path(text)}: give a file name, like {quote_path(example)}")
    p = Path(text)
    if p.is_dir():
        raise OutputError(f"{option} {quote_path(text)} is a folder: give a file name, like {quote_path(str(p / example))}")
    if p.exists() and not p.is_file():
        raise OutputError(f"{option} {quote_path(text)} is not a regular file")
    folder = p.parent
    while not folder.exists() and make_folders and folder != folder.parent:
        folder = folder.parent
    if not folder.exists():
        raise OutputError(f"{option} {quote_path(text)}: there is no folder {quote_path(str(p.parent))}")
    if not folder.is_dir():
        raise OutputError(f"{option} {quote_path(text)}: {quote_path(str(folder))} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise OutputError(f"{option} {quote_path(text)}: permission denied")
    return p


# -- reading inputs ----------------------------------------------------------------------------
def _existing_path(text: str) -> Path | None:
    t = text.strip()
    if not t or len(t) >= 4096 or "\n" in t or "\x00" in t:
        return None
    try:
        p = Path(t)
        return p if p.exists() else None
    except (OSError, ValueError):
        return None


def _read_file(path: Path, name: str) -> str:
    if path.is_dir():
        raise NotationError(f"{quote_path(name)} is a folder, not a position or a file holding one")
    try:
        with path.open("rb") as f:
            data = f.read(FILE_LIMIT + 1)
    except OSError as e:
        raise NotationError(f"cannot read the file {quote_path(name)}: {e.strerror or e}") from None
    if len(data) > FILE_LIMIT:
        raise NotationError(f"the file {quote_path(name)} is larger than {FILE_LIMIT} bytes: not a position")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotationError(f"the file {quote_path(name)} is not UTF-8 text (byte {e.start})") from None


def _check_variant(pos: Position, variant: str | None, text: Any) -> Position:
    if variant is not None:
        want = find_variant(variant)
        if type(want) is not type(pos.variant):
            raise VariantError(f"{quote(text)} is a {pos.variant.name} position, but --variant says {variant!r}")
    return pos


def read_position(text: str, variant: str | None = None) -> Position:
    """A position from a command-line argument: JSON, a file holding a position, a position
    string, a Position ID (with ``variant``) or an XGID (``XGID=...``).

    Errors name the argument (for a file, the file's name, not its content); a path-looking
    argument that does not exist is "no such file"; ``variant`` must agree with a position that
    names its own variant.
    """
    if not isinstance(text, str):
        raise NotationError(f"a position must be given as text, not {quote(text)}")
    if variant is not None:
        find_variant(variant)  # an unknown --variant is refused first, whatever the position
    if is_xgid(text):  # eXtreme Gammon's XGID: a standard position unless --variant says otherwise
        return position_from_xgid(text, variant or "standard")
    path = _existing_path(text)
    if path is not None:
        content = _read_file(path, text)
        if _existing_path(content) is not None:
            raise NotationError(f"the file {quote_path(text)} holds a file name, not a position")
        try:
            pos = parse_position(content, variant)
        except BackgammonError as e:
            raise NotationError(f"the file {quote_path(text)} holds no position: {_one_line(str(e), 300)}") from None
        except (ValueError, RecursionError, OverflowError) as e:
            raise NotationError(f"the file {quote_path(text)} holds no position: {describe_error(e)[1]}") from None
        return _check_variant(pos, variant, text)
    try:
        pos = parse_position(text, variant)
    except (BackgammonError, ValueError, RecursionError, OverflowError) as e:
        t = text.strip()
        m = _IDLIKE.fullmatch(t)
        if t and t[0] not in "{[\"" and t.count("/") != 3 and _PATHLIKE.fullmatch(t) and not m:
            raise NotationError(f"no such file: {quote_path(text)} (nor is it a position)") from None
        if m and len(m.group(1)) != 14 and t.count("/") != 3:
            raise NotationError(f"{quote(text)} is not a Position ID: an ID has 14 characters, "
                                f"this one {len(m.group(1))}") from None
        if isinstance(e, BackgammonError):
            raise
        raise NotationError(f"cannot read a position from {quote(text)}: {describe_error(e)[1]}") from None
    return _check_variant(pos, variant, text)


def read_dice(value: Any, what: str = "--dice") -> Roll:
    """A roll from text like ``6-5`` or a pair ``[6, 5]``; errors name ``what`` and the value."""
    if isinstance(value, str) and any(c.isdigit() and c not in "0123456789" for c in value):
        raise DiceError(f"{what} {quote(value)}: write the dice with the digits 1 to 6, like '6-5'")
    if isinstance(value, list):
        if len(value) != 2 or not all(type(x) is int for x in value):
            raise DiceError(f"{what} {quote(value)}: expected two dice like [6, 5]")
        value = tuple(value)
    elif not isinstance(value, (str, tuple)):
        raise DiceError(f"{what} {quote(value)}: expected dice like '6-5' or [6, 5]")
    try:
        return Roll.parse(value)
    except BackgammonError as e:
        raise DiceError(f"{what}: {e}") from None
    except (ValueError, TypeError, OverflowError):
        raise DiceError(f"{what} {quote(value)}: write the dice like '6-5'") from None


def load_json_line(line: str) -> Any:
    """One JSON value from a ``--batch`` line; the project's error for anything else."""
    line = line.rstrip("\r\n")  # the line's end is not part of it: an error there is at its last column
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        what = e.msg.removesuffix(" at")  # "Unterminated string starting at", "Invalid control character at"
        where = f"column {e.colno}"
        if what.startswith("Unterminated string"):
            where += ", and the line ends before it is closed"
        elif e.pos >= len(line.rstrip()):
            where += ", the end of the line"
        raise NotationError(f"not JSON ({what} at {where}): {quote(line.strip())}") from None
    except RecursionError:
        raise NotationError("JSON nested too deeply to read") from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise NotationError(f"cannot read the JSON: {_one_line(plain_message(e), 200)}") from None


def batch_position(item: Any, variant: str | None = None) -> Position:
    """The position of one ``--batch`` item: the JSON form (a dict, optionally with ``"options"``
    for a variant with options, e.g. ``{"checkers": 3}``), a string (anything a POSITION argument
    accepts), or ``{"position": either, "variant": name}`` (``variant`` for a Position ID)."""
    if isinstance(item, dict) and "position" in item:
        v = item.get("variant", variant)
        if v is not None and not isinstance(v, str):
            raise VariantError(f'"variant" must be a variant name, not {quote(v)}')
        variant, item = v, item["position"]
    if isinstance(item, str):
        return read_position(item, variant)
    if isinstance(item, dict):
        if "options" in item:  # a variant with options
            opts, rest = item["options"], {k: x for k, x in item.items() if k != "options"}
            if not isinstance(opts, dict) or not isinstance(rest.get("variant"), str):
                raise NotationError(f'"options" must be an object of variant options, not {quote(opts)}')
            try:
                v = find_variant(rest["variant"], **opts)
                pos = Position(v, rest["points"], rest["bar"], rest["off"], rest["turn"])
                pos.check_reachable(f"in {quote(item)}")
            except KeyError as e:
                raise NotationError(f"the JSON form needs {e.args[0]!r}: {quote(item)}") from None
            except (TypeError, ValueError) as e:
                if isinstance(e, BackgammonError):
                    raise
                raise NotationError(f"cannot read the JSON form {quote(item)}: {e}") from None
            return _check_variant(pos, variant, item)
        try:
            pos = Position.from_json(item)
        except BackgammonError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise NotationError(f"cannot read the JSON form {quote(item)}: {type(e).__name__} {e}") from None
        return _check_variant(pos, variant, item)
    raise NotationError(f"expected a position (a JSON object or a string), not {quote(item)}")


def _stdin_lines() -> Iterable[str | bytes]:
    buf = getattr(sys.stdin, "buffer", None)
    return buf if buf is not None else sys.stdin


def run_batch(answer: Callable[[str], Any], *, progress: bool = False, out: TextIO | None = None,
              compact: bool = True) -> int:
    """Read stdin a line at a time and write ``answer(line)`` as one JSON line each, in order.

    A blank line is answered by a blank line. A line that fails gets ``{"error": message,
    "line": N}`` (N counts from 1) and the same message on stderr; the run goes on. Returns the
    exit status: 0 if every line was answered, else that of the worst line (2 bad input, 1
    failure). ``compact`` drops the spaces after ``,`` and ``:`` in the JSON written.
    """
    seps = (",", ":") if compact else (", ", ": ")
    worst = 0
    lines: Iterable[str | bytes] = _stdin_lines()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(desc="batch", unit="line", leave=False, file=sys.stderr)
    try:
        for lineno, raw in enumerate(lines, 1):
            out_ = out if out is not None else sys.stdout
            try:
                line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
                result = answer(line) if line.strip() else None
            except Exception as e:  # noqa: BLE001 - every failure becomes this line's error object
                code, msg = describe_error(e)
                worst = max(worst, code)
                out_.write(json.dumps({"error": msg, "line": lineno}, separators=seps) + "\n")
                _error(f"--batch line {lineno}: {msg}")
            else:
                out_.write("\n" if result is None else json.dumps(result, separators=seps) + "\n")
            out_.flush()
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return worst


POSITION_HELP = ("a position: its JSON form, a file holding one, a position string like "
                 "'standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5', or a Position ID like '4HPwATDgc/ABMA' "
                 "(with --variant)")
VARIANT_HELP = ("the variant of a Position ID (standard, mexican); for a position that names its "
                "variant it must agree")


class Terminated(BaseException):
    """SIGTERM, raised where the program is (as Ctrl-C raises :class:`KeyboardInterrupt`), so that
    every ``finally`` runs: rollouts end their worker processes, training saves its checkpoint.
    A :class:`BaseException`, so that no ``except Exception`` (a batch line's) swallows it."""
