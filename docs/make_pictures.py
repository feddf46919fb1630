"""Generate the example pictures of ``docs/rendering.md`` into ``docs/pictures/``.

Run ``python docs/make_pictures.py`` after changing the renderer; ``tests/test_svg.py`` fails while
the checked-in pictures differ from what this script draws.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "pictures"
sys.path.insert(0, str(HERE.parent))

from backgammon_lab import Position, legal_plays  # noqa: E402
from backgammon_lab.svg import SvgBoard, board  # noqa: E402


def _start_3_1() -> SvgBoard:
    pos = Position.start("standard")
    play = legal_plays(pos, (3, 1)).find("8/5 6/5")
    return board(pos, dice=(3, 1), arrows=[play], caption="Standard start, 3-1: make the 5-point (8/5 6/5)")


def _black_dark() -> SvgBoard:
    pos = Position.from_string("standard/b/24,13x4,8x3,7x2,6x4,4/24,20,13x4,8x2,6x4,5x2")
    return board(pos, orientation="black", theme="dark", dice=(6, 4), dice_left=[4],
                 arrows=["24/18"], names={"white": "Ada", "black": "Ben"},
                 caption="Dark theme, seen from Black: Black's numbering, the 6 already played")


def _bar_and_trays() -> SvgBoard:
    pos = Position("standard", [-2, 0, 1, 2, 2, 9, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -3], bar=(1, 2), off=(0, 4))
    return board(pos, dice=(4, 4), dice_left=[4, 4, 4], selected=25, targets=[21],
                 lastmove="13/9 6/2", caption="On the bar with 4-4: the bar checker is selected, "
                 "its entry point marked; Black's last play dashed")


def _mexican_named() -> SvgBoard:
    pos = Position("mexican", [-1, 0, 0, 0, 2, 5, 0, 3, 0, 0, 0, 0,
                               5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, -5], off=(0, 1))
    return board(pos, dice=(1, 2), named_double=5, dice_left=[5, 5, 5], reroll_due=True,
                 caption="Mexican Backgammon: a Mexican (1-2) played, 5-5 named, one 5 used; "
                 "a re-roll follows")


def _minigam_start() -> SvgBoard:
    pos = Position.start("minigam")
    return board(pos, dice=(3, 1), selected=7, targets=[6, 4],
                 caption="Mini-Gam start: every checker on the bar; White's bar checker selected")


def _minigam_mid() -> SvgBoard:
    pos = Position("minigam", [2, -1, 3, 0, -3, 1], bar=(1, 2), off=(1, 2), turn="black")
    play = legal_plays(pos, (5, 2))[0]
    return board(pos, dice=(5, 2), arrows=[play],
                 caption=f"Mini-Gam, Black to play 5-2: {play} (Black moves left to right)")


def _minigam_black_dark() -> SvgBoard:
    pos = Position("minigam", [2, -1, 3, 0, -3, 1], bar=(1, 2), off=(1, 2), turn="black")
    return board(pos, orientation="black", theme="dark", dice=(6, 6), dice_left=[6],
                 reroll_due=True, caption="Seen from Black, dark theme: doubles shown as four")


PICTURES: dict[str, Callable[[], SvgBoard]] = {
    "standard_start": _start_3_1,
    "standard_black_dark": _black_dark,
    "bar_and_trays": _bar_and_trays,
    "mexican_named_doubles": _mexican_named,
    "minigam_start": _minigam_start,
    "minigam_midgame": _minigam_mid,
    "minigam_black_dark": _minigam_black_dark,
}


def file_text(pic: SvgBoard) -> str:
    """The exact text :meth:`SvgBoard.save` writes."""
    return '<?xml version="1.0" encoding="utf-8"?>\n' + str(pic) + "\n"


def main() -> int:
    """Write every picture; print the names of those that changed."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in PICTURES.items():
        path = OUT / f"{name}.svg"
        text = file_text(make())
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
