"""The checker layer: every checker of a position on its point, bar half or tray, and the counts
of tall stacks (returned apart, since they are written over everything else)."""

from __future__ import annotations

from ..position import BLACK, WHITE, Position
from ._geometry import Layout, point_stack
from ._theme import THEMES, Theme, checker_colours
from ._xml import Builder, El, fmt, inner_xml


def count_label(b: Builder, cx: float, cy: float, cnt: int, colour: str) -> El:
    """The number of checkers written on the top checker of a stack."""
    return b.el("text", {"x": fmt(cx), "y": fmt(cy + 5), "font-size": "15", "font-weight": "bold",
                         "fill": colour, "text-anchor": "middle", "class": "count"}, str(cnt))


def checker_layer(b: Builder, lay: Layout, th: Theme, position: Position) -> tuple[list[El], list[El]]:
    """``(checkers, counts)``: the checkers (circles; slabs in the trays) and the count labels."""
    n, v = lay.n, position.variant
    checkers: list[El] = []
    counts: list[El] = []
    for p in range(1, n + 1):
        c = position.points[p - 1]
        if not c:
            continue
        who = WHITE if c > 0 else BLACK
        cnt = abs(c)
        stack = point_stack(lay, p, who)
        fill, stroke, tcol = checker_colours(th, who)
        base = {"class": "checker", "data-color": who, "data-point": str(p),
                "data-point-black": str(v.flip(p)), "r": fmt(stack.r), "fill": fill,
                "stroke": stroke, "stroke-width": "1.5"}
        for i in range(cnt):
            cx, cy = stack.centre(i, cnt)
            checkers.append(b.el("circle", {**base, "cx": fmt(cx), "cy": fmt(cy)}))
        if cnt > stack.cap:
            cx, cy = stack.centre(cnt - 1, cnt)
            counts.append(count_label(b, cx, cy, cnt, tcol))
    for i_who, who in enumerate((WHITE, BLACK)):
        fill, stroke, tcol = checker_colours(th, who)
        cnt = position.bar[i_who]
        if cnt:
            stack = lay.bars[who][1]
            base = {"class": "checker", "data-color": who, "data-bar": who, "r": fmt(stack.r),
                    "fill": fill, "stroke": stroke, "stroke-width": "1.5"}
            for i in range(cnt):
                cx, cy = stack.centre(i, cnt)
                checkers.append(b.el("circle", {**base, "cx": fmt(cx), "cy": fmt(cy)}))
            if cnt > 1:
                cx, cy = stack.centre(cnt - 1, cnt)
                counts.append(count_label(b, cx, cy, cnt, tcol))
        cnt = position.off[i_who]
        if cnt:
            tray = lay.trays[who][1]
            base = {"class": "checker", "data-color": who, "data-off": who, "x": fmt(tray.x),
                    "width": fmt(tray.w), "rx": "2", "fill": fill, "stroke": stroke,
                    "stroke-width": "1"}
            for i in range(cnt):
                y, h, _p = tray.slab(i, cnt)
                checkers.append(b.el("rect", {**base, "y": fmt(y), "height": fmt(h)}))
            y, h, _p = tray.slab(cnt, cnt + 1)
            ty = y + h - 1 if tray.dy < 0 else y + 10
            counts.append(b.el("text", {"x": fmt(tray.x + tray.w / 2), "y": fmt(ty), "font-size": "12",
                                        "font-weight": "bold", "fill": th.text,
                                        "text-anchor": "middle"}, str(cnt)))
    return checkers, counts


#: The checker layer's XML and count labels by layout, theme and position (a click that selects a
#: checker redraws the same checkers with new marks: they are written once).
CHECKER_CACHE: dict[tuple[object, ...], tuple[str, list[El]]] = {}


def checker_layer_xml(b: Builder, lay: Layout, th: Theme, position: Position,
                      numbers: bool) -> tuple[str, list[El]]:
    """``(xml, counts)``: :func:`checker_layer` with the checkers serialized (the inside of their
    ``<g>``), cached."""
    key = (lay.n, lay.viewer, numbers, th.name if THEMES.get(th.name) is th else repr(th), position)
    got = CHECKER_CACHE.get(key)
    if got is None:
        checkers, counts = checker_layer(b, lay, th, position)
        got = (inner_xml(b, checkers), counts)
        if len(CHECKER_CACHE) > 256:
            CHECKER_CACHE.clear()
        CHECKER_CACHE[key] = got
    return got
