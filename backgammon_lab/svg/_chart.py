"""The chart of a game: a chance (0 to 1) over the actions of the game, with marked decisions.

It draws plain numbers it is given (the caller's analysis turns a game into them): the line's
points, the marks (decision number, severity, whose, a label) and an optional current point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import svgwrite

from ..errors import RenderError
from ._xml import Builder, clean, drawing_text, fmt

#: The marks a chart draws, mildest first, with their colours (the tutor's and gnubg's words).
MARK_COLOURS: dict[str, str] = {"doubtful": "#e08a00", "bad": "#c62828", "very bad": "#7b1fa2"}


@dataclass(frozen=True)
class ChartMark:
    """One marked decision: its action ``number``, ``mark`` (a key of :data:`MARK_COLOURS`), the
    ``player`` who made it (``"white"``/``"black"``: a circle or a square) and a ``label`` (shown
    as the dot's tooltip)."""

    number: int
    mark: str
    player: str = "white"
    label: str = ""


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise RenderError(f"{what}: expected a number, not {value!r:.100}")
    return float(value)


def _marks(marks: Sequence[Any]) -> list[ChartMark]:
    out = []
    for m in marks:
        if not isinstance(m, ChartMark):
            if isinstance(m, (str, bytes)) or not isinstance(m, Sequence) or not 2 <= len(m) <= 4:
                raise RenderError(f"marks: each mark is (number, mark[, player[, label]]), not {m!r:.100}")
            m = ChartMark(*m)
        if m.mark not in MARK_COLOURS:
            raise RenderError(f"marks: the mark is one of {', '.join(MARK_COLOURS)}, not {m.mark!r:.100}")
        if m.player not in ("white", "black"):
            raise RenderError(f"marks: the player is 'white' or 'black', not {m.player!r:.100}")
        _number(m.number, "marks: number")
        out.append(m)
    return out


def _height_at(points: Sequence[tuple[float, float]], n: float) -> float:
    """The line's height at ``n`` (on the segment joining the points either side)."""
    if not points:
        return 0.5
    prev = points[0]
    for x, y in points:
        if x >= n:
            if x == prev[0]:
                return y
            return prev[1] + (y - prev[1]) * (n - prev[0]) / (x - prev[0])
        prev = (x, y)
    return prev[1]


def win_chart(points: Sequence[tuple[float, float]], *, marks: Sequence[Any] = (), title: str = "",
              current: float | None = None, width: int = 640, height: int = 260,
              x_label: str = "action in the game record") -> str:
    """A line chart of ``points`` (x: the action number, y: a chance 0 to 1, such as White's
    winning chance before each roll), drawn with svgwrite.

    ``marks`` are :class:`ChartMark`\\ s or tuples ``(number, mark[, player[, label]])``: a dot on
    the line at that action, coloured by the mark (:data:`MARK_COLOURS`), a circle for White's
    decisions and a square for Black's, each with ``data-number`` and ``data-mark`` attributes
    and the label as its tooltip. ``current`` draws a vertical line at that action. The same
    input gives the same bytes (no generated id). Bad input raises
    :class:`~backgammon_lab.errors.RenderError` quoting it.
    """
    pts = []
    for x, y in points:
        y = _number(y, "points: y")
        if not -1e-6 <= y <= 1.0 + 1e-6:  # a computed chance may be off by its rounding
            raise RenderError(f"points: y is a chance from 0 to 1, not {y!r}")
        pts.append((_number(x, "points: x"), min(max(y, 0.0), 1.0)))
    got = _marks(marks)
    for value, what in ((width, "width"), (height, "height")):
        if isinstance(value, bool) or not isinstance(value, int) or not 120 <= value <= 10000:
            raise RenderError(f"{what}: expected a whole number of pixels from 120 to 10000, not {value!r:.100}")
    if current is not None:
        current = _number(current, "current")
    left, right, top, bottom = 44, 12, 28, 30
    w, h = width - left - right, height - top - bottom
    xs = [x for x, _ in pts] or [0.0]
    x0, x1 = min(xs), max(xs)
    span = max(1.0, x1 - x0)

    def px(x: float) -> str:
        return fmt(left + w * (min(max(x, x0), x0 + span) - x0) / span)

    def py(y: float) -> str:
        return fmt(top + h * (1.0 - y))

    dwg = svgwrite.Drawing(size=(str(width), str(height)), debug=False, viewBox=f"0 0 {width} {height}",
                           **{"class": "backgammon-chart", "font-family": "DejaVu Sans, Verdana, Arial, sans-serif"})
    dwg.set_desc(title=clean(title or "winning chance", 200))
    b = Builder(dwg)
    grey = {"fill": "#444444", "font-size": "11"}
    dwg.add(b.el("rect", {"width": "100%", "height": "100%", "fill": "#ffffff"}))
    for k in range(5):
        y = k / 4
        dwg.add(b.el("line", {"x1": fmt(left), "y1": py(y), "x2": fmt(left + w), "y2": py(y),
                              "stroke": "#999999" if k == 2 else "#dddddd", "stroke-width": "1",
                              **({"stroke-dasharray": "4,3"} if k == 2 else {})}))
        dwg.add(b.el("text", {"x": fmt(left - 6), "y": fmt(float(py(y)) + 4), "text-anchor": "end", **grey},
                     f"{int(y * 100)}%"))
    dwg.add(b.el("path", {"d": f"M{left},{top} V{fmt(top + h)} H{fmt(left + w)}", "fill": "none",
                          "stroke": "#444444", "stroke-width": "1"}))
    if title:
        dwg.add(b.el("text", {"x": fmt(left), "y": "17", "font-size": "13", "fill": "#222222"}, clean(title, 200)))
    dwg.add(b.el("text", {"x": fmt(left + w / 2), "y": fmt(height - 8), "text-anchor": "middle", **grey},
                 clean(x_label, 100)))
    for x in sorted({x0, x1}):
        dwg.add(b.el("text", {"x": px(x), "y": fmt(top + h + 14), "text-anchor": "middle", "fill": "#444444",
                              "font-size": "10"}, fmt(x)))
    if current is not None:
        dwg.add(b.el("line", {"x1": px(current), "y1": fmt(top), "x2": px(current), "y2": fmt(top + h),
                              "stroke": "#d55e00", "stroke-width": "1.5", "data-role": "current"}))
    if pts:
        dwg.add(b.el("polyline", {"points": " ".join(f"{px(x)},{py(y)}" for x, y in pts), "fill": "none",
                                  "stroke": "#1f5fa8", "stroke-width": "2", "data-role": "line"}))
    for m in got:
        colour = MARK_COLOURS[m.mark]
        cx, cy = px(m.number), py(_height_at(pts, m.number))
        attrs = {"fill": colour, "stroke": "#ffffff", "stroke-width": "1", "data-number": fmt(m.number),
                 "data-mark": m.mark, "data-player": m.player}
        if m.player == "white":
            dot = b.el("circle", {"cx": cx, "cy": cy, "r": "4.5", **attrs})
        else:
            dot = b.el("rect", {"x": fmt(float(cx) - 4), "y": fmt(float(cy) - 4), "width": "8", "height": "8",
                                **attrs})
        if m.label:
            dot.elements.append(b.el("title", {}, clean(m.label, 200)))
        dwg.add(dot)
    return drawing_text(dwg)
