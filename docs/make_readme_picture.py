"""Draw the board picture of README.md ("What it looks like") into ``docs/pictures/readme_board.svg``.

    python docs/make_readme_picture.py           # write the picture
    python docs/make_readme_picture.py --check   # exit 1 if the checked-in picture is stale

``tests/test_docs.py`` fails while the checked-in picture differs from what this script draws.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "pictures" / "readme_board.svg"
sys.path.insert(0, str(HERE.parent))

from backgammon_lab import Position, legal_plays  # noqa: E402
from backgammon_lab.svg import board  # noqa: E402

#: The position, roll and play shown (README.md repeats them in its example).
POSITION = "mexican/w/24x2,13x5,8x3,6x5/24x2,20,15x2,13x5,8x3,6x2"
DICE = (4, 3)
PLAY = "13/9 8/5*"
CAPTION = ("Mexican Backgammon, White to play 4-3: the lower die first, 8/5* hitting the blot, "
           "then 13/9; point 10 is closed")


def picture() -> str:
    """The SVG text written to ``docs/pictures/readme_board.svg``."""
    pos = Position.from_string(POSITION)
    play = legal_plays(pos, DICE).find(PLAY)
    svg = board(pos, dice=DICE, arrows=[play], caption=CAPTION, size=600)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + str(svg) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw docs/pictures/readme_board.svg.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the picture is stale; write nothing")
    args = parser.parse_args(argv)
    text = picture()
    old = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
    if args.check:
        if text != old:
            print(f"{OUT.name} is stale: run python docs/make_readme_picture.py", file=sys.stderr)
            return 1
        return 0
    if text != old:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
