"""The ``backgammon-lab`` program: its parser (every subcommand added), ``main`` with its one guard
that turns any failure into one line and an exit status, and the core commands ``plays`` and ``show``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from .. import __version__
from ..errors import BackgammonError, NotationError
from ..position import Position
from ..rules import legal_boards
from .analysis import add_subcommands as add_analysis_subcommands
from .common import (
    DEBUG_ENV,
    POSITION_HELP,
    PROG,
    VARIANT_HELP,
    Terminated,
    _error,
    _one_line,
    add_progress_argument,
    batch_position,
    describe_error,
    load_json_line,
    quote,
    read_dice,
    read_position,
    run_batch,
    show_progress,
)
from .render import add_render_subcommand
from .train import add_train_subcommand

__all__ = ["main", "build_parser", "plays_json", "version"]


def plays_json(position: Position, dice: Any) -> list[dict[str, Any]]:
    """The distinct positions reachable by playing one roll, in the JSON form, ``turn`` unchanged."""
    v, turn, opp_off = position.variant, position.turn, position.opponent_off
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
    return __version__


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

    add_render_subcommand(sub)
    add_analysis_subcommands(sub)
    add_train_subcommand(sub)
    names = list(sub.choices)  # every command, whichever modules added them
    sub.help = f"{', '.join(names[:-1])} or {names[-1]} ('COMMAND --help' for each)"
    return p


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace | int:
    try:
        return parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error (already printed, one line)
        code = e.code
        return code if isinstance(code, int) else (0 if code is None else 2)


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


if __name__ == "__main__":  # pragma: no cover - python -m backgammon_lab.cli.app
    sys.exit(main())
