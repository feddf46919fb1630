"""Time :func:`backgammon_lab.svg.board` beside python-chess's ``chess.svg.board``, in one run.

    python benchmarks/render.py [--runs 1000]

Both renderers are called alternately (so load on the machine hits both alike) and the median of
each is printed with their ratio. Goal: ratio <= 1.0, our typical 24-point board no slower than
``chess.svg.board(chess.Board())``.

Rows:
  * ``board(midgame, dice)``: a typical 24-point midgame with the dice on it (the goal's row);
  * ``... + arrows, names, caption``: the same with a play's arrows, names and a caption;
  * ``Mini-Gam start``: the strip geometry;
  * ``uncached static layer``: the midgame with the cache of the unchanging board (frame, points,
    numbers, hit areas) emptied before every call, i.e. the cost of a new geometry or theme.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess  # noqa: E402
import chess.svg  # noqa: E402

from backgammon_lab import Position, legal_plays  # noqa: E402
from backgammon_lab import svg as bsvg  # noqa: E402
from backgammon_lab.svg import _board  # noqa: E402

MIDGAME = "standard/w/24,13x4,8x3,7x2,6x4,4/24,20,13x4,8x2,6x4,5x2"


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - t0) / 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=1000, help="timed calls of each renderer (default 1000)")
    args = ap.parse_args(argv)

    pos = Position.from_string(MIDGAME)
    play = legal_plays(pos, (3, 1)).find("8/5 6/5")
    mini = Position.start("minigam")
    cboard = chess.Board()

    def uncached() -> object:
        _board.STATIC_CACHE.clear()
        return bsvg.board(pos, dice=(3, 1))

    cases: list[tuple[str, Callable[[], object]]] = [
        ("chess.svg.board(chess.Board())", lambda: chess.svg.board(cboard)),
        ("board(midgame, dice)", lambda: bsvg.board(pos, dice=(3, 1))),
        ("... + arrows, names, caption", lambda: bsvg.board(pos, dice=(3, 1), arrows=[play],
                                                             names={"white": "Ada", "black": "Ben"},
                                                             caption="3-1: make the 5-point")),
        ("Mini-Gam start", lambda: bsvg.board(mini, dice=(3, 1))),
        ("midgame, uncached static layer", uncached),
    ]
    first = timed(uncached)  # a cold first picture of this geometry and theme
    times: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(20):  # warm-up
        for _name, fn in cases:
            fn()
    for _ in range(args.runs):
        for name, fn in cases:
            times[name].append(timed(fn))
    med = {name: statistics.median(ts) for name, ts in times.items()}
    ref = med[cases[0][0]]
    print(f"median of {args.runs} alternating calls (ms); ratio = ours / chess.svg.board")
    for name, _fn in cases:
        ratio = "" if name == cases[0][0] else f"   ratio {med[name] / ref:.2f}"
        print(f"  {name:<34} {med[name]:7.3f} ms{ratio}")
    print(f"  {'first call (cold cache)':<34} {first:7.3f} ms")
    goal = med["board(midgame, dice)"] / ref
    print(f"goal ratio <= 1.0: {'met' if goal <= 1.0 else 'NOT met'} ({goal:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
