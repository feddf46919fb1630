"""The ``backgammon-lab`` command line (also ``python -m backgammon_lab``); see ``docs/cli.md``.

Subcommands: ``plays``, ``show``, ``render`` (pictures), and the analysis commands ``value``,
``hint``, ``analyse``, ``solve`` and ``train`` when :mod:`backgammon_lab.analysis` provides them;
the top-level ``--help`` lists every command added.

Every error is one line on stderr, ``backgammon-lab: error: ...``, naming the input; never a
traceback. Exit status: 0 done, 2 bad usage or bad input (the argument parser's convention), 1 a
failure (a file that cannot be written, an internal error), 130 interrupted. ``--batch`` modes
write one output line per input line, in order; a bad line gets ``{"error": ..., "line": N}`` and
the run goes on; the status is then that of the worst line.

The helpers here (:func:`read_position`, :func:`read_dice`, :func:`batch_position`,
:func:`run_batch`, :func:`positive_int`) are shared with :mod:`backgammon_lab.analysis.cli`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from ..errors import BackgammonError, DiceError, NotationError, OutputError, VariantError, plain_message
from ..matchfiles.xgid import is_xgid, position_from_xgid
from ..notation import parse_position
from ..position import Position, Roll
from ..rules import legal_boards
from ..variants import find_variant

__all__ = [
    "main", "build_parser", "plays_json", "read_position", "read_dice", "batch_position", "run_batch",
    "load_json_line", "positive_int", "seed_int", "describe_error", "show_progress", "add_progress_argument",
    "note", "quote", "version", "check_output_path", "Terminated",
]

PROG = "backgammon-lab"
#: Longest quote of an input in a message; longer inputs are cut with an ellipsis.
QUOTE_LIMIT = 80
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
            return 1, _one_line(f"{quote(os.fsdecode(exc.filename))}: {what}")
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


def _whole_number(text: str) -> int:
    """A whole number written with the ASCII digits ('²' is refused); one above :data:`LARGEST` is
    refused as too large, and one far below zero is read as ``-LARGEST - 1`` (for the callers'
    "at least" messages), so no number of thousands of digits is ever converted."""
    t = text.strip()
    m = re.fullmatch(r"([+-]?)0*([0-9]+)", t)
    if m is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {quote(text)}")
    digits = m.group(2)
    if len(digits) > 19 or int(digits) > LARGEST:
        if m.group(1) == "-":
            return -LARGEST - 1
        raise argparse.ArgumentTypeError(f"{quote(text)} is too large: at most {LARGEST:,}")
    return -int(digits) if m.group(1) == "-" else int(digits)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (``--games``, ``--top``, ``--candidates``)."""
    n = _whole_number(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {quote(text)}")
    return n


def seed_int(text: str) -> int:
    """An argparse type: a seed, a whole number from 0 to 2**63 - 1."""
    n = _whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number of at least 0, not {quote(text)}")
    return n


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
                x = _whole_number(text)
            except argparse.ArgumentTypeError:
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
        raise BackgammonError(f"{option} {quote(text)}: give a file name, like {quote(example)}")
    p = Path(text)
    if p.is_dir():
        raise OutputError(f"{option} {quote(text)} is a folder: give a file name, like {quote(str(p / example))}")
    if p.exists() and not p.is_file():
        raise OutputError(f"{option} {quote(text)} is not a regular file")
    folder = p.parent
    while not folder.exists() and make_folders and folder != folder.parent:
        folder = folder.parent
    if not folder.exists():
        raise OutputError(f"{option} {quote(text)}: there is no folder {quote(str(p.parent))}")
    if not folder.is_dir():
        raise OutputError(f"{option} {quote(text)}: {quote(str(folder))} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise OutputError(f"{option} {quote(text)}: permission denied")
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
        raise NotationError(f"{quote(name)} is a folder, not a position or a file holding one")
    try:
        with path.open("rb") as f:
            data = f.read(FILE_LIMIT + 1)
    except OSError as e:
        raise NotationError(f"cannot read the file {quote(name)}: {e.strerror or e}") from None
    if len(data) > FILE_LIMIT:
        raise NotationError(f"the file {quote(name)} is larger than {FILE_LIMIT} bytes: not a position")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotationError(f"the file {quote(name)} is not UTF-8 text (byte {e.start})") from None


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
            raise NotationError(f"the file {quote(text)} holds a file name, not a position")
        try:
            pos = parse_position(content, variant)
        except BackgammonError as e:
            raise NotationError(f"the file {quote(text)} holds no position: {_one_line(str(e), 300)}") from None
        except (ValueError, RecursionError, OverflowError) as e:
            raise NotationError(f"the file {quote(text)} holds no position: {describe_error(e)[1]}") from None
        return _check_variant(pos, variant, text)
    try:
        pos = parse_position(text, variant)
    except (BackgammonError, ValueError, RecursionError, OverflowError) as e:
        t = text.strip()
        m = _IDLIKE.fullmatch(t)
        if t and t[0] not in "{[\"" and t.count("/") != 3 and _PATHLIKE.fullmatch(t) and not m:
            raise NotationError(f"no such file: {quote(text)} (nor is it a position)") from None
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


# -- the commands ------------------------------------------------------------------------------
def plays_json(position: Position, dice: Any) -> list[dict[str, Any]]:
    """The distinct positions reachable by playing one roll, in the JSON form, ``turn`` unchanged."""
    v, turn = position.variant, position.turn
    opp_off = position.off[1 if turn == "white" else 0]
    return [Position.from_board(v, turn, b, opp_off).to_json() for b in legal_boards(position, dice)]


def _dump(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, separators=(",", ":")) + "\n")


def _plays_line(variant: str | None) -> Callable[[str], Any]:
    def answer(line: str) -> Any:
        item = load_json_line(line)
        if not isinstance(item, dict) or "position" not in item or "dice" not in item:
            raise NotationError('a plays --batch line is {"position": ..., "dice": [6, 5]}, '
                                f"not {quote(line.strip())}")
        pos = batch_position(item, variant)
        return plays_json(pos, read_dice(item["dice"], '"dice"'))
    return answer


def _cmd_plays(args: argparse.Namespace) -> int:
    if args.batch:
        if args.position is not None or args.dice is not None:
            raise BackgammonError("plays --batch reads its positions and dice on stdin: give no POSITION or --dice")
        return run_batch(_plays_line(args.variant), progress=show_progress(args))
    if args.position is None or args.dice is None:
        raise BackgammonError("plays needs POSITION and --dice A-B (or --batch)")
    pos = read_position(args.position, args.variant)
    _dump(plays_json(pos, read_dice(args.dice)), sys.stdout)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    pos = read_position(args.position, args.variant)
    print(pos)
    return 0


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_one_line(message)} (see '{self.prog} --help')\n")


def version() -> str:
    """The installed package's version."""
    from .. import __version__

    return __version__


POSITION_HELP = ("a position: its JSON form, a file holding one, a position string like "
                 "'standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5', or a Position ID like '4HPwATDgc/ABMA' "
                 "(with --variant)")
VARIANT_HELP = ("the variant of a Position ID (standard, mexican); for a position that names its "
                "variant it must agree")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``backgammon-lab``."""
    p = _Parser(prog=PROG, description="Backgammon variants: rules, pictures, analysis. See docs/cli.md.")
    p.add_argument("--version", action="version", version=f"{PROG} {version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           help="the command (every one is listed here once they are all added)")

    pl = sub.add_parser("plays", help="distinct positions after playing one roll, as a JSON array")
    pl.add_argument("position", nargs="?", metavar="POSITION", help=POSITION_HELP + "; none with --batch")
    pl.add_argument("--dice", help="the roll, e.g. 6-5")
    pl.add_argument("--variant", help=VARIANT_HELP)
    pl.add_argument("--batch", action="store_true",
                    help='read lines {"position": ..., "dice": [a, b]} on stdin (position: JSON form, position '
                         'string, or Position ID with "variant"); write one JSON line each, in order')
    add_progress_argument(pl)
    pl.set_defaults(func=_cmd_plays)

    sh = sub.add_parser("show", help="print the text diagram of a position")
    sh.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    sh.add_argument("--variant", help=VARIANT_HELP)
    sh.set_defaults(func=_cmd_show)

    try:
        from .render import add_render_subcommand
    except ImportError:  # pragma: no cover - svgwrite missing
        pass
    else:
        add_render_subcommand(sub)

    try:
        from ..analysis import cli as acli
    except ImportError:
        acli = None  # type: ignore[assignment]
    if acli is not None:
        acli.add_subcommands(sub)
    names = list(sub.choices)  # every command, whichever modules added them
    sub.help = f"{', '.join(names[:-1])} or {names[-1]} ('COMMAND --help' for each)"
    return p


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace | int:
    try:
        return parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error (already printed, one line)
        code = e.code
        return code if isinstance(code, int) else (0 if code is None else 2)


class Terminated(BaseException):
    """SIGTERM, raised where the program is (as Ctrl-C raises :class:`KeyboardInterrupt`), so that
    every ``finally`` runs: rollouts end their worker processes, training saves its checkpoint.
    A :class:`BaseException`, so that no ``except Exception`` (a batch line's) swallows it."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def _on_sigterm() -> Any:
    """Turn SIGTERM into :class:`Terminated` for the run; the previous handler (to restore), or
    None when no handler can be set (not the main thread)."""
    try:
        return signal.signal(signal.SIGTERM, _raise_terminated)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not the main thread
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the exit status (0 done, 2 bad usage or input, 1 failure, 130
    interrupted, 143 terminated by SIGTERM); every error is one line on stderr, never a traceback
    (unless the environment variable ``BACKGAMMON_LAB_DEBUG`` is 1)."""
    debug = os.environ.get(DEBUG_ENV) == "1"
    previous = _on_sigterm()
    try:
        return _run(argv, debug)
    except Terminated:  # arrived after the command's own handling
        _error("terminated")
        return 143
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run(argv: Sequence[str] | None, debug: bool) -> int:
    try:
        parsed = _parse(build_parser(), argv)
        if isinstance(parsed, int):
            return parsed
        rc = int(parsed.func(parsed) or 0)
        sys.stdout.flush()
        return rc
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except Terminated:
        _error("terminated")
        return 143
    except SystemExit as e:  # a command that exits by itself
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception as e:  # noqa: BLE001 - the one place where any failure becomes one line
        if debug:
            raise
        code, msg = describe_error(e)
        _error(msg)
        return code


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at the null device so that the interpreter's final
    flush does not complain."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - stdout replaced (tests)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
