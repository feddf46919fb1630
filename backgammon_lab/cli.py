"""The ``backgammon-lab`` command line (also ``python -m backgammon_lab``).

Subcommands: ``plays``, ``show``, ``render`` (pictures), and the analysis commands ``value``,
``hint`` and ``solve`` when :mod:`backgammon_lab.analysis` provides them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .errors import BackgammonError
from .notation import parse_position
from .position import Position, Roll
from .rules import legal_boards

__all__ = ["main", "plays_json"]


def plays_json(position: Position, dice: Any) -> list[dict[str, Any]]:
    """The distinct positions reachable by playing one roll, in the JSON form, ``turn`` unchanged."""
    v, turn = position.variant, position.turn
    opp_off = position.off[1 if turn == "white" else 0]
    return [Position.from_board(v, turn, b, opp_off).to_json() for b in legal_boards(position, dice)]


def _dump(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj, separators=(",", ":")) + "\n")


def _cmd_plays(args: argparse.Namespace) -> int:
    if args.batch:
        for lineno, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                pos = Position.from_json(item["position"])
                _dump(plays_json(pos, tuple(item["dice"])), sys.stdout)
            except (BackgammonError, KeyError, TypeError, json.JSONDecodeError) as e:
                raise BackgammonError(f"--batch line {lineno} {line.strip()!r}: {e}") from None
        return 0
    if args.position is None or args.dice is None:
        raise BackgammonError("plays needs POSITION and --dice A-B (or --batch)")
    pos = parse_position(args.position, args.variant)
    _dump(plays_json(pos, Roll.parse(args.dice)), sys.stdout)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    pos = parse_position(args.position, args.variant)
    print(pos)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``backgammon-lab``."""
    p = argparse.ArgumentParser(prog="backgammon-lab", description="Backgammon variants: rules, pictures, analysis.")
    sub = p.add_subparsers(dest="command", required=True)

    pl = sub.add_parser("plays", help="distinct positions after playing one roll, as a JSON array")
    pl.add_argument("position", nargs="?", help="JSON, a file, a position string, or a Position ID (with --variant)")
    pl.add_argument("--dice", help="the roll, e.g. 6-5")
    pl.add_argument("--variant", help="variant of a Position ID (standard, mexican)")
    pl.add_argument("--batch", action="store_true",
                    help='read JSON lines {"position": ..., "dice": [a, b]} on stdin; one JSON array line each')
    pl.set_defaults(func=_cmd_plays)

    sh = sub.add_parser("show", help="print the text diagram of a position")
    sh.add_argument("position")
    sh.add_argument("--variant")
    sh.set_defaults(func=_cmd_show)

    try:
        from . import svg
    except ImportError:  # pragma: no cover - svgwrite missing
        svg = None  # type: ignore[assignment]
    if svg is not None and hasattr(svg, "add_render_arguments"):
        rd = sub.add_parser("render", help="draw a position as SVG")
        svg.add_render_arguments(rd)
        rd.set_defaults(func=svg.render_command)

    try:
        from .analysis import cli as acli
    except ImportError:
        acli = None  # type: ignore[assignment]
    if acli is not None:
        acli.add_subcommands(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for bad input, with the message on stderr)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BackgammonError as e:
        print(f"backgammon-lab: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
