"""The board layer: frame, felt, points, numbers, route icons and the transparent hit areas that
carry the data attributes of clicks. It depends only on the geometry, the theme and whether numbers
are written, so its XML is built once per such triple and reused."""

from __future__ import annotations

from typing import Any

import svgwrite

from ..position import BLACK, WHITE, Player
from ._geometry import Layout
from ._theme import THEMES, Theme, checker_colours
from ._xml import Builder, El, fmt, inner_xml, points_text


def _route(b: Builder, th: Theme, op: tuple[Any, ...]) -> list[El]:
    """A route icon: the way one player's checkers travel, in miniature."""
    _, x, y, w, h, bottom, who = op
    # Bottom player: from the top right, left along the top, down, right along the bottom.
    if bottom:
        d = f"M{fmt(x + w)} {fmt(y + 2)}H{fmt(x + 2)}V{fmt(y + h - 2)}H{fmt(x + w - 4)}"
        head = ((x + w, y + h - 2), (x + w - 6, y + h - 6), (x + w - 6, y + h + 2))
    else:
        d = f"M{fmt(x + w)} {fmt(y + h - 2)}H{fmt(x + 2)}V{fmt(y + 2)}H{fmt(x + w - 4)}"
        head = ((x + w, y + 2), (x + w - 6, y - 2), (x + w - 6, y + 6))
    fill, stroke = checker_colours(th, who)[:2]
    return [b.el("path", {"d": d, "fill": "none", "stroke": th.text, "stroke-width": "2"}),
            b.el("polygon", {"points": points_text(head), "fill": th.text}),
            b.el("circle", {"cx": fmt(x + w), "cy": fmt(y + 2 if bottom else y + h - 2), "r": "4",
                            "fill": fill, "stroke": stroke, "stroke-width": "1.2"})]


def _direction(b: Builder, th: Theme, op: tuple[Any, ...]) -> list[El]:
    """A strip's direction arrow: from the player's bar (a checker of its colour) to its exit."""
    _, x0, x1, y, who = op
    sgn = 1 if x1 > x0 else -1
    fill, stroke = checker_colours(th, who)[:2]
    head = ((x1, y), (x1 - sgn * 10, y - 5), (x1 - sgn * 10, y + 5))
    return [b.el("line", {"x1": fmt(x0 + sgn * 10), "y1": fmt(y), "x2": fmt(x1 - sgn * 8),
                          "y2": fmt(y), "stroke": th.text, "stroke-width": "2"}),
            b.el("polygon", {"points": points_text(head), "fill": th.text}),
            b.el("circle", {"cx": fmt(x0), "cy": fmt(y), "r": "6", "fill": fill, "stroke": stroke,
                            "stroke-width": "1.5"})]


def _hit_areas(b: Builder, lay: Layout) -> list[El]:
    """Transparent boxes over every point, bar half and tray, with their data attributes."""
    n, v = lay.n, lay.variant
    hit = {"fill": "#fff", "fill-opacity": "0"}
    out: list[El] = []

    def box_attrs(box: Any) -> dict[str, str]:
        return {"x": fmt(box.x), "y": fmt(box.y), "width": fmt(box.w), "height": fmt(box.h), **hit}

    for p in range(1, n + 1):
        out.append(b.el("rect", {"class": "point", "data-point": str(p),
                                 "data-point-black": str(v.flip(p)), **box_attrs(lay.points[p][0])}))
    for who in (WHITE, BLACK):
        out.append(b.el("rect", {"class": "bar", "data-bar": who, **box_attrs(lay.bars[who][0])}))
    for who in (WHITE, BLACK):
        out.append(b.el("rect", {"class": "off", "data-off": who, **box_attrs(lay.trays[who][0])}))
    return out


def _number(b: Builder, th: Theme, op: tuple[Any, ...], mover: Player) -> El:
    """A point number in ``owner``'s numbering: bold for the side to move, small and muted for
    the other side (``data-player`` names the numbering, ``data-at`` White's point it labels)."""
    _, x, y, text, owner, white_point, size = op
    attrs = {"x": fmt(x), "y": fmt(y), "text-anchor": "middle", "class": "num", "data-player": owner,
             "data-at": str(white_point)}
    if owner == mover:
        attrs.update({"font-size": str(size), "font-weight": "bold", "fill": th.text, "data-mover": "1"})
    else:
        attrs.update({"font-size": str(size - 2), "fill": th.muted})
    return b.el("text", attrs, text)


def board_elements(b: Builder, lay: Layout, th: Theme, mover: Player = WHITE) -> list[El]:
    """The unchanging board, drawn from the layout's primitive operations, hit areas last (so that
    they lie above the drawing and catch clicks on empty points). Both numberings are written,
    the ``mover``'s emphasised."""
    out: list[El] = []
    colour = {"frame": th.frame, "felt": th.felt, "tray": th.tray, "point_a": th.point_a,
              "point_b": th.point_b, "text": th.text, "muted": th.muted, "on_frame": th.white_fill}
    for op in lay.static:
        kind = op[0]
        if kind == "rect":
            _, x, y, w, h, c, rx = op
            a = {"x": fmt(x), "y": fmt(y), "width": fmt(w), "height": fmt(h), "fill": colour[c]}
            if rx:
                a["rx"] = fmt(rx)
            out.append(b.el("rect", a))
        elif kind == "poly":
            _, pts, c = op
            out.append(b.el("polygon", {"points": points_text(pts), "fill": colour[c]}))
        elif kind == "label":
            _, x, y, text, c, size = op
            out.append(b.el("text", {"x": fmt(x), "y": fmt(y), "font-size": str(size),
                                     "fill": colour[c], "text-anchor": "middle"}, text))
        elif kind == "num":
            out.append(_number(b, th, op, mover))
        elif kind == "numkey":
            _, x, y, who = op
            fill, stroke = checker_colours(th, who)[:2]
            out.append(b.el("circle", {"cx": fmt(x), "cy": fmt(y), "r": "4.5", "fill": fill, "stroke": stroke,
                                       "stroke-width": "1", "class": "numkey", "data-player": who}))
        elif kind == "route":
            out.extend(_route(b, th, op))
        elif kind == "dir":
            out.extend(_direction(b, th, op))
    out.extend(_hit_areas(b, lay))
    return out


STATIC_CACHE: dict[tuple[int, str, bool, str, str], str] = {}


def board_layer_xml(lay: Layout, th: Theme, numbers: bool, mover: Player = WHITE) -> str:
    """The board layer's XML (the inside of its ``<g>``), cached."""
    key = (lay.n, lay.viewer, numbers, th.name if THEMES.get(th.name) is th else repr(th), mover)
    xml = STATIC_CACHE.get(key)
    if xml is None:
        b = Builder(svgwrite.Drawing(debug=False))
        xml = inner_xml(b, board_elements(b, lay, th, mover))
        if len(STATIC_CACHE) > 64:
            STATIC_CACHE.clear()
        STATIC_CACHE[key] = xml
    return xml
