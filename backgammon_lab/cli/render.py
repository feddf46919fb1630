"""``backgammon-lab render``: draw a position as SVG from the command line.

The options mirror the keywords of :func:`backgammon_lab.svg.board`. Bad input prints one line,
``backgammon-lab render: error: ...``, and exits with status 2; a file that cannot be written exits
with status 1. Neither prints a traceback.
"""

from __future__ import annotations

import argparse
import re
import sys

from ..errors import BackgammonError, OutputError, whole_number
from ..notation import parse_position
from ..svg import THEMES, board
from ..svg._options import MAX_SIZE, quote
from .common import check_output_path

__all__ = ["add_render_arguments", "render_command", "add_render_subcommand"]


def _optional(text: str | None, what: str) -> int | None:
    return None if text is None else whole_number(text, what, text=True)


def add_render_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``backgammon-lab render POSITION -o board.svg`` to ``parser``."""
    parser.add_argument("position", metavar="POSITION",
                        help="JSON, a file, a position string, or a Position ID (with --variant)")
    parser.add_argument("-o", "--output", default="-",
                        help="the SVG file to write ('-', the default, writes to stdout)")
    parser.add_argument("--variant", default=None, help="the variant of a Position ID")
    parser.add_argument("--orientation", choices=("white", "black"), default="white",
                        help="the player at the bottom of the picture")
    parser.add_argument("--theme", choices=sorted(THEMES), default="light")
    parser.add_argument("--size", default="480", help=f"width in pixels (1 to {MAX_SIZE})")
    parser.add_argument("--caption", default=None, help="text under the board")
    parser.add_argument("--dice", default=None, help="the roll, like 6-5")
    parser.add_argument("--dice-left", default=None,
                        help="the dice still to play, like 5 or 4,4 (others are drawn as used)")
    parser.add_argument("--named-double", default=None,
                        help="the doubles named after the roll of --dice (1-6)")
    parser.add_argument("--reroll", action="store_true", help="show that a re-roll is due")
    parser.add_argument("--arrows", default=None,
                        help="move text drawn as arrows, in the mover's numbering: '13/7 8/7'")
    parser.add_argument("--lastmove", default=None,
                        help="the last play as move text, in the numbering of the player who made it")
    parser.add_argument("--selected", default=None,
                        help="the mover's point whose checker is selected (N+1 = bar)")
    parser.add_argument("--targets", default=None, help="destinations to mark, like 7,5,0")
    parser.add_argument("--highlight", default=None, help="points to tint, like 4,5,6")
    parser.add_argument("--white-name", default=None)
    parser.add_argument("--black-name", default=None)
    parser.add_argument("--no-pips", action="store_true", help="hide the pip counts")
    parser.add_argument("--no-numbers", action="store_true", help="hide the point numbers")
    parser.add_argument("--id-prefix", default=None, help="id of the root element")


def _int_list(text: str | None, what: str) -> tuple[int, ...]:
    """``"7,5,0"`` or ``"7 5 0"`` as numbers."""
    if not text:
        return ()
    try:
        return tuple(whole_number(t, what, text=True) for t in text.replace(",", " ").split())
    except BackgammonError:
        raise BackgammonError(f"{what}: expected numbers like '7,5,0', not {quote(text)}") from None


#: The keywords of :func:`backgammon_lab.svg.board` that messages may start with, and their options.
_OPTIONS = {"dice_left": "--dice-left", "named_double": "--named-double", "id_prefix": "--id-prefix",
            "targets": "--targets", "highlight": "--highlight", "selected": "--selected", "arrows": "--arrows",
            "lastmove": "--lastmove", "size": "--size", "theme": "--theme", "orientation": "--orientation"}


def _option_words(message: str, args: argparse.Namespace) -> str:
    """A message of :func:`~backgammon_lab.svg.board` in the command line's words: the option, not
    the keyword (``--dice-left '9'``, not ``dice_left=(9,)``)."""
    if message.startswith("dice_left=["):  # "dice_left=[4] is not part of the roll 6-5"
        return re.sub(r"^dice_left=\[[^\]]*\]", lambda _: f"--dice-left {quote(args.dice_left)}", message)
    for keyword, option in _OPTIONS.items():
        if message.startswith((keyword + ":", keyword + " ")):
            return option + message[len(keyword):]
    return message


def _check_dice_options(args: argparse.Namespace) -> None:
    """--dice-left and --named-double describe the roll of --dice: refused without it."""
    if args.dice is None:
        if args.dice_left is not None:
            raise BackgammonError(f"--dice-left {quote(args.dice_left)} needs --dice: the dice left are part of "
                                  "a roll (like --dice 6-5 --dice-left 5)")
        if args.named_double is not None:
            raise BackgammonError(f"--named-double {quote(args.named_double)} needs --dice: the roll the doubles "
                                  "were named after (like --dice 1-2 --named-double 4)")


def _fail(message: str, status: int) -> int:
    print(f"backgammon-lab render: error: {message}", file=sys.stderr)
    return status


def render_command(args: argparse.Namespace) -> int:
    """Run ``backgammon-lab render`` with parsed ``args``; returns the exit status (0, 2 for bad
    input, 1 when the file cannot be written)."""
    try:
        if args.output != "-":  # checked first: an empty name or a folder is refused before any drawing
            check_output_path(args.output, "-o", "board.svg")
        _check_dice_options(args)
        pos = parse_position(args.position, args.variant)
        names = {k: v for k, v in (("white", args.white_name), ("black", args.black_name)) if v}
        pic = board(
            pos, orientation=args.orientation, size=whole_number(args.size, "--size", 1, MAX_SIZE, text=True),
            theme=args.theme,
            dice=args.dice, dice_left=(_int_list(args.dice_left, "--dice-left")
                                       if args.dice_left is not None else None),
            named_double=(None if args.named_double is None else whole_number(args.named_double, "--named-double", 1, 6, text=True)),
            reroll_due=args.reroll,
            selected=_optional(args.selected, "--selected"), targets=_int_list(args.targets, "--targets"),
            highlight=_int_list(args.highlight, "--highlight"),
            arrows=(args.arrows,) if args.arrows else (),
            lastmove=(args.lastmove,) if args.lastmove else None,
            show_pips=not args.no_pips, names=names or None, caption=args.caption,
            id_prefix=args.id_prefix, numbers=not args.no_numbers,
        )
    except OutputError as e:
        return _fail(str(e), 1)
    except (BackgammonError, ValueError) as e:
        return _fail(_option_words(str(e), args), 2)
    if args.output == "-":
        sys.stdout.write(str(pic) + "\n")
        return 0
    try:
        pic.save(args.output)
    except OSError as e:
        return _fail(f"cannot write {quote(args.output)}: {e.strerror or e}", 1)
    return 0


def add_render_subcommand(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``render`` on the subcommands ``sub`` of the ``backgammon-lab`` parser."""
    rd = sub.add_parser("render", help="draw a position as SVG")
    add_render_arguments(rd)
    rd.set_defaults(func=render_command)
