"""The annotation layers: tints under the checkers (highlighted points, targets) and, over them,
the rings of targets and selected checkers and the arrows of a play or of the last play."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..position import Player
from ._geometry import Places
from ._options import Arrow
from ._theme import Theme
from ._xml import Builder, El, fmt, points_text


def marks_layer(b: Builder, places: Places, th: Theme, mover: Player, highlight: Sequence[int],
                targets: Sequence[int]) -> list[El]:
    """Tints of the highlighted points, then of the targets (the mover's numbering)."""
    out: list[El] = []
    for pt in highlight:
        bx = places.column(mover, pt)
        out.append(b.el("rect", {"x": fmt(bx.x + 1), "y": fmt(bx.y + 1), "width": fmt(bx.w - 2),
                                 "height": fmt(bx.h - 2), "fill": th.highlight,
                                 "fill-opacity": "0.35", "stroke": th.highlight,
                                 "stroke-width": "2", "class": "highlight"}))
    for pt in targets:
        bx = places.column(mover, pt)
        out.append(b.el("rect", {"x": fmt(bx.x + 1), "y": fmt(bx.y + 1), "width": fmt(bx.w - 2),
                                 "height": fmt(bx.h - 2), "fill": th.target,
                                 "fill-opacity": "0.22", "class": "target"}))
    return out


def _ring(b: Builder, cx: float, cy: float, r: float, colour: str, casing: str, width: int,
          cls: str, dashed: bool) -> list[El]:
    """A ring on a casing of the theme's contrast colour."""
    ring = {"cx": fmt(cx), "cy": fmt(cy), "r": fmt(r), "fill": "none"}
    if dashed:
        return [b.el("circle", {**ring, "stroke": casing, "stroke-width": str(width + 2),
                                "stroke-opacity": "0.7", "class": "casing"}),
                b.el("circle", {**ring, "stroke": colour, "stroke-width": str(width),
                                "stroke-dasharray": "5 4", "class": cls})]
    return [b.el("circle", {**ring, "stroke": casing, "stroke-width": str(width + 3),
                            "stroke-opacity": "0.8", "class": "casing"}),
            b.el("circle", {**ring, "stroke": colour, "stroke-width": str(width), "class": cls})]


def target_rings(b: Builder, places: Places, th: Theme, mover: Player,
                 targets: Sequence[int]) -> list[El]:
    """Where a checker would land on each target: a dashed ring (on the opponent's checker there,
    if any), or a dashed box on the next slab of the tray."""
    out: list[El] = []
    r = places.lay.r
    for pt in targets:
        mine = places.own_count(mover, pt)
        theirs = places.their_count(mover, pt)
        kind, key = places.place_of(mover, pt)
        if kind == "off":
            tray = places.lay.trays[key][1]
            y, h, _p = tray.slab(mine, mine + 1)
            out.append(b.el("rect", {"x": fmt(tray.x - 2), "y": fmt(y - 2), "width": fmt(tray.w + 4),
                                     "height": fmt(h + 4), "fill": "none", "stroke": th.target,
                                     "stroke-width": "2.5", "stroke-dasharray": "4 3",
                                     "class": "target"}))
            continue
        i = 0 if theirs else mine
        cx, cy = places.slot(mover, pt, i, max(mine + 1, theirs))
        out.extend(_ring(b, cx, cy, r - 1, th.target, th.casing, 3, "target", dashed=True))
    return out


def selection_rings(b: Builder, places: Places, th: Theme, mover: Player,
                    selected: Sequence[int]) -> list[El]:
    """A solid ring on the top checker of each selected place, or a box round an empty one."""
    out: list[El] = []
    for pt in selected:
        cnt = places.own_count(mover, pt)
        if cnt and pt != 0:
            cx, cy = places.slot(mover, pt, cnt - 1, cnt)
            out.extend(_ring(b, cx, cy, places.lay.r + 1.5, th.select, th.casing, 4, "selected",
                             dashed=False))
        else:
            bx = places.column(mover, pt)
            out.append(b.el("rect", {"x": fmt(bx.x + 1.5), "y": fmt(bx.y + 1.5),
                                     "width": fmt(bx.w - 3), "height": fmt(bx.h - 3), "fill": "none",
                                     "stroke": th.select, "stroke-width": "3",
                                     "class": "selected"}))
    return out


def arrow(b: Builder, x0: float, y0: float, x1: float, y1: float, colour: str, casing: str,
          cls: str, dashed: bool) -> list[El]:
    """A line with a head from (x0, y0) to (x1, y1), on a casing of the theme's contrast colour
    (so it stands out on any point, felt or checker, whatever one's colour vision)."""
    dx, dy = x1 - x0, y1 - y0
    dist = math.hypot(dx, dy)
    if dist < 4:
        return []
    ux, uy = dx / dist, dy / dist
    gap = min(5.0, dist * 0.15)  # the tail starts a little off the centre: chained arrows never merge
    x0, y0 = x0 + ux * gap, y0 + uy * gap
    dist -= gap
    head = min(16.0, dist * 0.6)
    bx, by = x1 - ux * head, y1 - uy * head
    hw = 8.0
    width = 4.0 if dashed else 6.0
    ends = {"x1": fmt(x0), "y1": fmt(y0), "x2": fmt(bx), "y2": fmt(by)}
    line = {**ends, "stroke": colour, "stroke-width": fmt(width), "stroke-linecap": "round",
            "class": cls}
    if dashed:
        line["stroke-dasharray"] = "7 5"
        line["stroke-linecap"] = "butt"
    pts = ((x1, y1), (bx - uy * hw, by + ux * hw), (bx + uy * hw, by - ux * hw))
    return [b.el("line", {**ends, "stroke": casing, "stroke-width": fmt(width + 3),
                          "stroke-linecap": "round", "stroke-opacity": "0.8", "class": "casing"}),
            b.el("line", line),
            b.el("polygon", {"points": points_text(pts), "fill": colour, "stroke": casing,
                             "stroke-width": "1.5", "stroke-linejoin": "round", "class": cls})]


def _arrow_ends(places: Places, steps: Sequence[Arrow], after: bool
                ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Start and end of each step's arrow: from the checker that moves to where it lands.
    ``after``: the position already shows the steps (the last play), so they are replayed
    backwards. A step onto a lone opposing checker ends on that checker."""
    counts: dict[tuple[Player, int], int] = {}

    def cnt(player: Player, point: int) -> int:
        k = (player, point)
        if k not in counts:
            counts[k] = places.own_count(player, point)
        return counts[k]

    segs = []
    for player, a, e, _g in (reversed(steps) if after else steps):
        if after:
            ce = cnt(player, e)
            end = places.slot(player, e, max(ce - 1, 0), max(ce, 1))
            counts[(player, e)] = max(ce - 1, 0)
            ca = cnt(player, a)
            start = places.slot(player, a, ca, ca + 1)
            counts[(player, a)] = ca + 1
        else:
            ca = cnt(player, a)
            start = places.slot(player, a, max(ca - 1, 0), max(ca, 1))
            counts[(player, a)] = max(ca - 1, 0)
            ce = cnt(player, e)
            idx = 0 if places.their_count(player, e) == 1 and ce == 0 else ce
            end = places.slot(player, e, idx, idx + 1)
            counts[(player, e)] = ce + 1
        segs.append((start, end))
    if after:
        segs.reverse()
    return segs


#: Colours of the second, third, ... play drawn at once (the first takes the theme's arrow
#: colour): Okabe-Ito colours, told apart with any colour vision.
PLAY_COLOURS = ("#0072b2", "#009e73", "#e69f00", "#56b4e9", "#cc79a7")


def step_label(b: Builder, x: float, y: float, k: int, colour: str, casing: str, cls: str) -> list[El]:
    """The number ``k`` of a step (the order it is played in) in a small disc of its arrow's colour."""
    return [b.el("circle", {"cx": fmt(x), "cy": fmt(y), "r": "7.5", "fill": colour, "stroke": casing,
                            "stroke-width": "1.5", "class": f"{cls}-label"}),
            b.el("text", {"x": fmt(x), "y": fmt(y + 3.6), "font-size": "10.5", "font-weight": "bold",
                          "fill": casing, "text-anchor": "middle", "class": f"{cls}-label"}, str(k))]


def arrows_layer(b: Builder, places: Places, th: Theme, steps: Sequence[Arrow], *,
                 last: bool, cls: str | None = None,
                 ends: Sequence[tuple[tuple[float, float], tuple[float, float]]] | None = None) -> list[El]:
    """The arrows of ``steps``: solid for a play to show, dashed (``last``) for the last play.

    Each play (group) has its own colour; when more than one step is drawn, every arrow carries
    the number of its step within its play, so no two steps read as one long move."""
    base, cls = (th.lastmove, cls or "lastmove") if last else (th.arrow, cls or "arrow")
    segs = ends if ends is not None else _arrow_ends(places, steps, last)
    groups = sorted({g for *_rest, g in steps})
    colours = {g: base if i == 0 or last else PLAY_COLOURS[(i - 1) % len(PLAY_COLOURS)]
               for i, g in enumerate(groups)}
    out: list[El] = []
    labels: list[El] = []
    numbered: dict[int, int] = {}
    routes: dict[tuple[int, int], int] = {}  # how often a route was drawn: repeats label further on
    for (_p, a, e, g), ((x0, y0), (x1, y1)) in zip(steps, segs, strict=True):
        drawn = arrow(b, x0, y0, x1, y1, colours[g], th.casing, cls, dashed=last)
        out.extend(drawn)
        numbered[g] = numbered.get(g, 0) + 1
        if drawn and len(steps) > 1:
            again = routes[(a, e)] = routes.get((a, e), -1) + 1
            f = 0.3 + 0.25 * (again % 3)
            labels.extend(step_label(b, x0 + (x1 - x0) * f, y0 + (y1 - y0) * f, numbered[g],
                                     colours[g], th.casing, cls))
    return out + labels


def annotations_layer(b: Builder, places: Places, th: Theme, mover: Player, *,
                      targets: Sequence[int], selected: Sequence[int], arrows: Sequence[Arrow],
                      lastmove: Sequence[Arrow], counts: Sequence[El],
                      played: Sequence[Arrow] = ()) -> list[El]:
    """Everything drawn over the checkers, in order: target rings, selection rings, the last
    play, the steps played so far this turn, the arrows, and the stacks' counts on top.

    The last play and this turn's steps are both already shown by the position: they are
    replayed backwards together (this turn's steps first), so each arrow starts at the checker
    that moved."""
    ends = _arrow_ends(places, (*lastmove, *played), True) if played else None
    last_ends = ends[: len(lastmove)] if ends is not None else None
    out = [*target_rings(b, places, th, mover, targets),
           *selection_rings(b, places, th, mover, selected),
           *arrows_layer(b, places, th, lastmove, last=True, ends=last_ends)]
    if played and ends is not None:
        out.extend(arrows_layer(b, places, th, played, last=False, cls="played", ends=ends[len(lastmove):]))
    return [*out, *arrows_layer(b, places, th, arrows, last=False), *counts]
