"""SVG pictures of positions, drawn with svgwrite.

:func:`board` draws a :class:`~backgammon_lab.position.Position` of any variant (the 24-point board
with its bar and trays, or the Mini-Gam strip) and returns an :class:`SvgBoard`, a ``str`` that
Jupyter shows as a picture::

    >>> from backgammon_lab import Position
    >>> from backgammon_lab.svg import board
    >>> pic = board(Position.start("standard"), dice=(6, 5), arrows=["24/18", "13/8"])
    >>> pic.startswith("<svg")
    True

Conventions (see ``docs/rendering.md``):

* Every option that names a point (``selected``, ``targets``, ``highlight``, ``arrows``) uses the
  numbering of the side to move, like a :class:`~backgammon_lab.position.Step`: N+1 is that
  player's bar and 0 its tray. A :class:`~backgammon_lab.position.Play` carries its own mover.
* The picture's clickable parts carry data attributes in a fixed, mover-independent convention:
  ``data-point`` is White's point number and ``data-point-black`` Black's, ``data-bar`` and
  ``data-off`` name the owner of a bar or tray, ``data-die`` counts the dice in play from 0.
* The same input gives the same bytes. The only ids are the root's (``id_prefix``, by default a
  short hash of every input) and ids built from it; nothing refers to an id, so two copies of one
  picture on one page draw correctly even though their ids are equal.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import svgwrite
from svgwrite.base import BaseElement

from .errors import BackgammonError, DiceError
from .position import BLACK, WHITE, Play, Player, Position, Roll, Step, other

__all__ = ["SvgBoard", "Theme", "THEMES", "board", "add_render_arguments", "render_command"]

Orientation = Literal["white", "black"]


class SvgBoard(str):
    """The SVG text of a picture: a ``str`` that notebooks display and that can be saved."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        # Short, so a notebook that cannot show SVG (untrusted, or text-only) prints one line, not
        # the whole picture. ``str(board)`` is the SVG text.
        m = re.search(r"<title[^>]*>([^<]*)</title>", self)
        title = m.group(1) if m else "board"
        return f"<SvgBoard {len(self)} bytes: {title}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    def save(self, path: str | Path) -> Path:
        """Write the SVG (UTF-8, with an XML declaration) to ``path`` and return the path."""
        p = Path(path)
        p.write_text('<?xml version="1.0" encoding="utf-8"?>\n' + str(self) + "\n", encoding="utf-8")
        return p


# ---------------------------------------------------------------------------------------------
# Themes


@dataclass(frozen=True)
class Theme:
    """The colours of a picture. The two players' checkers differ strongly in lightness, and the
    accent colours come from the Okabe-Ito palette, so colour-blind readers can tell them apart."""

    name: str
    background: str
    text: str
    muted: str
    frame: str
    felt: str
    tray: str
    point_a: str
    point_b: str
    white_fill: str
    white_stroke: str
    white_text: str
    black_fill: str
    black_stroke: str
    black_text: str
    select: str
    target: str
    highlight: str
    arrow: str
    lastmove: str
    casing: str


THEMES: dict[str, Theme] = {
    "light": Theme(
        name="light", background="#fbf8f1", text="#2b2118", muted="#8a7c6a",
        frame="#6f4e31", felt="#eadcbf", tray="#d8c6a0",
        point_a="#3e6f9e", point_b="#d9a25f",
        white_fill="#fdfcf7", white_stroke="#2b2b2b", white_text="#1f1f1f",
        black_fill="#262626", black_stroke="#000000", black_text="#f2f2f2",
        select="#d55e00", target="#d55e00", highlight="#f0e442",
        arrow="#b0186f", lastmove="#5e5e5e", casing="#ffffff",
    ),
    "dark": Theme(
        name="dark", background="#1e1f22", text="#d6d6d6", muted="#8d8d8d",
        frame="#4b3a2a", felt="#3d434b", tray="#30353c",
        point_a="#3f6a99", point_b="#c89a5c",
        white_fill="#ededea", white_stroke="#111111", white_text="#111111",
        black_fill="#141414", black_stroke="#c9c9c9", black_text="#f0f0f0",
        select="#ffe066", target="#ffe066", highlight="#f0e442",
        arrow="#ff79c6", lastmove="#b0b0b0", casing="#000000",
    ),
}


# ---------------------------------------------------------------------------------------------
# Small helpers


def _f(x: float) -> str:
    """A coordinate as short text: at most one decimal, no trailing zeros."""
    r = round(x * 10)
    if r % 10 == 0:
        return str(r // 10)
    return f"{r / 10:.1f}"


_XML_BAD = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: object, limit: int | None = None) -> str:
    """User text made safe for XML: characters XML cannot hold are dropped (markup characters are
    escaped later by the serializer), and the text is cut to ``limit`` characters."""
    s = _XML_BAD.sub("", str(text))
    if limit is not None and len(s) > limit:
        s = s[: max(limit - 1, 1)] + "\u2026"
    return s


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap to ``width`` characters; explicit newlines are kept."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            while len(word) > width:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


_ID_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")


# ---------------------------------------------------------------------------------------------
# Geometry


@dataclass(frozen=True)
class _Box:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class _Stack:
    """Where the checkers of one place go: centre line ``cx``, starting at ``y0`` and growing in
    direction ``dy`` (+1 down, -1 up) along ``length`` units, ``pitch`` apart."""

    cx: float
    y0: float
    dy: int
    length: float
    pitch: float
    r: float

    @property
    def cap(self) -> int:
        return max(int((self.length + 0.01) // self.pitch), 1)

    def step(self, n: int) -> float:
        if n <= self.cap or n <= 1:
            return self.pitch
        return (self.length - self.pitch) / (n - 1)

    def centre(self, i: int, n: int) -> tuple[float, float]:
        """Centre of checker ``i`` (0 = the first) in a stack of ``n``."""
        return self.cx, self.y0 + self.dy * (self.pitch / 2 + i * self.step(max(n, i + 1)))


@dataclass(frozen=True)
class _Tray:
    """Borne-off checkers drawn as slabs seen from the side, from ``y0`` in direction ``dy``."""

    x: float
    y0: float
    dy: int
    w: float
    length: float
    pitch: float

    def slab(self, i: int, n: int) -> tuple[float, float, float]:
        """``(y_top, height, pitch)`` of slab ``i`` of ``n``."""
        p = min(self.pitch, self.length / max(n, 1))
        h = max(p - 1.2, 1.0)
        y = self.y0 + self.dy * (i * p) + (0 if self.dy > 0 else -h)
        return y, h, p


@dataclass(frozen=True)
class _Layout:
    """Every coordinate of one board geometry seen from one side (``viewer``)."""

    n: int
    viewer: Player
    width: float
    height: float  # without the caption
    pad: float
    r: float
    points: dict[int, tuple[_Box, dict[Player, _Stack]]]  # White's point -> hit box, stacks
    bars: dict[Player, tuple[_Box, _Stack]]
    trays: dict[Player, tuple[_Box, _Tray]]
    dice: dict[Player, tuple[_Box, str]]  # the mover's dice area and its arrangement
    badge: dict[Player, tuple[float, float]]  # centre of the "roll again" badge
    info: dict[Player, float]  # baseline of each player's name row
    info_x: tuple[float, float, float]  # name start, turn marker end, pips end
    name_chars: int  # the longest name that fits before the turn marker
    static: tuple[Any, ...]  # primitive drawing ops of the unchanging board


def _vslot(layout_n: int, viewer: Player, white_point: int) -> int:
    return white_point if viewer == WHITE else layout_n + 1 - white_point


def _layout24(viewer: Player, numbers: bool) -> _Layout:
    pad, frame, w, bar_w, tray_w, gap = 6.0, 14.0, 36.0, 40.0, 46.0, 46.0
    r = 16.0
    pitch = 2 * r + 1
    half = 170.0
    info_h, num_h = 28.0, 20.0 if numbers else 6.0
    ops: list[tuple[Any, ...]] = []
    y_board = pad + info_h + num_h
    x_l = pad + frame
    x_bar = x_l + 6 * w
    x_r = x_bar + bar_w
    x_tray = x_r + 6 * w + frame
    width = x_tray + tray_w + frame + pad
    y_in = y_board + frame
    y_mid = y_in + half + gap / 2
    y_bot = y_in + 2 * half + gap
    height = y_bot + frame + num_h + info_h + pad
    top_player = other(viewer)

    ops.append(("rect", pad, y_board, width - 2 * pad, y_bot + frame - y_board, "frame", 6))
    ops.append(("rect", x_l, y_in, 6 * w, y_bot - y_in, "felt", 0))
    ops.append(("rect", x_r, y_in, 6 * w, y_bot - y_in, "felt", 0))
    ops.append(("rect", x_tray, y_in, tray_w, half, "tray", 3))
    ops.append(("rect", x_tray, y_bot - half, tray_w, half, "tray", 3))
    ops.append(("label", x_tray + tray_w / 2, y_mid + 4, "off", "muted", 10))

    points: dict[int, tuple[_Box, dict[Player, _Stack]]] = {}
    for p in range(1, 25):
        v = _vslot(24, viewer, p)
        if v <= 6:
            x, top = x_r + (6 - v) * w, False
        elif v <= 12:
            x, top = x_l + (12 - v) * w, False
        elif v <= 18:
            x, top = x_l + (v - 13) * w, True
        else:
            x, top = x_r + (v - 19) * w, True
        cx = x + w / 2
        colour = "point_a" if v % 2 else "point_b"
        tip = 0.92 * half
        if top:
            ops.append(("poly", ((x + 1, y_in), (x + w - 1, y_in), (cx, y_in + tip)), colour))
            box = _Box(x, y_in, w, half)
            stack = _Stack(cx, y_in, 1, half, pitch, r)
            ny = y_board - num_h / 2 + 4
        else:
            ops.append(("poly", ((x + 1, y_bot), (x + w - 1, y_bot), (cx, y_bot - tip)), colour))
            box = _Box(x, y_bot - half, w, half)
            stack = _Stack(cx, y_bot, -1, half, pitch, r)
            ny = y_bot + frame + num_h / 2 + 4
        if numbers:
            ops.append(("label", cx, ny, str(v), "text", 12))
        points[p] = (box, {WHITE: stack, BLACK: stack})
    bars = {
        viewer: (_Box(x_bar, y_in, bar_w, half + gap / 2),
                 _Stack(x_bar + bar_w / 2, y_mid - gap / 2, -1, half, pitch, r)),
        top_player: (_Box(x_bar, y_mid, bar_w, half + gap / 2),
                     _Stack(x_bar + bar_w / 2, y_mid + gap / 2, 1, half, pitch, r)),
    }
    trays = {
        viewer: (_Box(x_tray, y_bot - half, tray_w, half),
                 _Tray(x_tray + 5, y_bot - 2, -1, tray_w - 10, half - 4, 10.0)),
        top_player: (_Box(x_tray, y_in, tray_w, half),
                     _Tray(x_tray + 5, y_in + 2, 1, tray_w - 10, half - 4, 10.0)),
    }
    die_h = 34.0
    dice = {
        viewer: (_Box(x_r, y_mid - die_h / 2, 6 * w, die_h), "row"),
        top_player: (_Box(x_l, y_mid - die_h / 2, 6 * w, die_h), "row"),
    }
    badge = {viewer: (x_l + 3 * w, y_mid), top_player: (x_r + 3 * w, y_mid)}
    info = {top_player: pad + info_h / 2 + 5, viewer: height - pad - info_h / 2 + 5}
    # Route icons: the way each player's checkers travel, in miniature.
    for who, y_row in info.items():
        bottom = who == viewer
        ops.append(("route", pad + 2, y_row - 15, 32.0, 18.0, bottom, who))
    info_x = (pad + 66, x_tray + tray_w - 78, x_tray + tray_w)
    return _Layout(24, viewer, width, height, pad, r, points, bars, trays, dice, badge, info,
                   info_x, _name_chars(info_x), tuple(ops))


def _layout_strip(n: int, viewer: Player, numbers: bool) -> _Layout:
    pad, frame, w, end_w, div, panel = 6.0, 12.0, 44.0, 52.0, 6.0, 96.0
    r = 18.0
    pitch = 2 * r + 1
    col_h = 6 * pitch + 4
    info_h, num_h = 28.0, 34.0
    top_player = other(viewer)
    y_strip = pad + info_h + num_h + frame
    y_end = y_strip + col_h
    y_mid = y_strip + col_h / 2
    x_left = pad + frame
    x_cols = x_left + end_w + div
    x_right = x_cols + n * w + div
    x_frame_end = x_right + end_w + frame
    width = x_frame_end + panel + pad
    height = y_end + frame + num_h + info_h + pad
    ops: list[tuple[Any, ...]] = []
    ops.append(("rect", pad, y_strip - frame, x_frame_end - pad, col_h + 2 * frame, "frame", 6))
    ops.append(("rect", x_cols, y_strip, n * w, col_h, "felt", 0))
    for box_x in (x_left, x_right):
        ops.append(("rect", box_x, y_strip, end_w, col_h / 2 - 1, "tray", 3))
        ops.append(("rect", box_x, y_mid + 1, end_w, col_h / 2 - 1, "tray", 3))
    # Left end: the viewer's tray (it exits left) and the opponent's bar; right end: the reverse.
    # Their names sit in the number rows, beside the point numbers of the player they belong to.
    ex_l, ex_r = x_left + end_w / 2, x_right + end_w / 2
    y_num_v, y_num_t = y_end + frame + 14, y_strip - frame - 20
    ops.append(("label", ex_l, y_num_t, "bar", "muted", 11))
    ops.append(("label", ex_l, y_num_v, "off", "muted", 11))
    ops.append(("label", ex_r, y_num_t, "off", "muted", 11))
    ops.append(("label", ex_r, y_num_v, "bar", "muted", 11))
    points: dict[int, tuple[_Box, dict[Player, _Stack]]] = {}
    for p in range(1, n + 1):
        v = _vslot(n, viewer, p)
        x = x_cols + (v - 1) * w
        cx = x + w / 2
        colour = "point_a" if v % 2 else "point_b"
        tip = col_h * 0.34
        ops.append(("poly", ((x + 1, y_end), (x + w - 1, y_end), (cx, y_end - tip)), colour))
        ops.append(("poly", ((x + 1, y_strip), (x + w - 1, y_strip), (cx, y_strip + tip)), colour))
        # The viewer's checkers stack up from the bottom edge, the opponent's down from the top.
        stacks = {viewer: _Stack(cx, y_end - 2, -1, col_h - 4, pitch, r),
                  top_player: _Stack(cx, y_strip + 2, 1, col_h - 4, pitch, r)}
        points[p] = (_Box(x, y_strip, w, col_h), stacks)
        if numbers:
            ops.append(("label", cx, y_num_v, str(v), "text", 13))
            ops.append(("label", cx, y_num_t, str(n + 1 - v), "text", 13))
    half = col_h / 2 - 1
    bars = {
        viewer: (_Box(x_right, y_mid + 1, end_w, half),
                 _Stack(ex_r, y_end - 2, -1, half - 4, pitch, r)),
        top_player: (_Box(x_left, y_strip, end_w, half),
                     _Stack(ex_l, y_strip + 2, 1, half - 4, pitch, r)),
    }
    trays = {
        viewer: (_Box(x_left, y_mid + 1, end_w, half),
                 _Tray(x_left + 7, y_end - 3, -1, end_w - 14, half - 20, 10.0)),
        top_player: (_Box(x_right, y_strip, end_w, half),
                     _Tray(x_right + 7, y_strip + 3, 1, end_w - 14, half - 20, 10.0)),
    }
    # Direction arrows beside the numbers: the viewer runs right to left, the opponent left to right.
    ay_v = y_end + frame + 26
    ay_t = y_strip - frame - 9
    ops.append(("dir", ex_r, ex_l, ay_v, viewer))
    ops.append(("dir", ex_l, ex_r, ay_t, top_player))
    px = x_frame_end + 8
    dice = {
        viewer: (_Box(px, y_mid + 6, panel - 12, col_h / 2 - 6), "grid"),
        top_player: (_Box(px, y_strip, panel - 12, col_h / 2 - 6), "grid"),
    }
    badge = {viewer: (px + (panel - 12) / 2, y_end - 16),
             top_player: (px + (panel - 12) / 2, y_mid - 18)}
    info = {top_player: pad + info_h / 2 + 5, viewer: height - pad - info_h / 2 + 5}
    info_x = (pad + 24, width - pad - 82, width - pad - 4)
    return _Layout(n, viewer, width, height, pad, r, points, bars, trays, dice, badge, info,
                   info_x, _name_chars(info_x), tuple(ops))


def _name_chars(info_x: tuple[float, float, float]) -> int:
    """How many characters of a bold 14px name fit between its start and the turn marker."""
    return int((info_x[1] - 80 - info_x[0]) / 8.6)


_LAYOUTS: dict[tuple[int, Player, bool], _Layout] = {}


def _layout(n: int, viewer: Player, numbers: bool) -> _Layout:
    key = (n, viewer, numbers)
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _layout24(viewer, numbers) if n == 24 else _layout_strip(n, viewer, numbers)
        _LAYOUTS[key] = lay
    return lay


def _point_stack(lay: _Layout, white_point: int, player: Player) -> _Stack:
    return lay.points[white_point][1][player]


# ---------------------------------------------------------------------------------------------
# Element building on top of svgwrite


class _El(BaseElement):
    """An svgwrite element built from ready attribute text (no validation: the renderer writes
    only known attributes, and skipping svgwrite's per-attribute checks keeps pictures fast)."""

    def __init__(self, name: str, attrs: dict[str, str], text: str | None = None,
                 factory: Any = None) -> None:
        self.elementname = name
        self._parameter = factory._parameter
        self.attribs = attrs
        self.elements = []
        self._text = text

    def get_xml(self) -> Any:
        xml = super().get_xml()
        if self._text is not None:
            xml.text = self._text
        return xml


class _Builder:
    """Creates elements that share one svgwrite Drawing's (non-debug) parameters."""

    def __init__(self, dwg: svgwrite.Drawing) -> None:
        self.dwg = dwg

    def el(self, name: str, attrs: dict[str, str], text: str | None = None) -> _El:
        return _El(name, attrs, text, self.dwg)


def _pips_path(x: float, y: float, s: float, value: int) -> str:
    q = s / 4
    c = {
        "tl": (x + q, y + q), "tr": (x + s - q, y + q), "ml": (x + q, y + s / 2),
        "mr": (x + s - q, y + s / 2), "bl": (x + q, y + s - q), "br": (x + s - q, y + s - q),
        "c": (x + s / 2, y + s / 2),
    }
    spots = {
        1: ("c",), 2: ("tr", "bl"), 3: ("tr", "c", "bl"), 4: ("tl", "tr", "bl", "br"),
        5: ("tl", "tr", "c", "bl", "br"), 6: ("tl", "tr", "ml", "mr", "bl", "br"),
    }[value]
    pr = s * 0.095
    d = []
    for k in spots:
        cx, cy = c[k]
        d.append(f"M{_f(cx - pr)} {_f(cy)}a{_f(pr)} {_f(pr)} 0 1 0 {_f(2 * pr)} 0"
                 f"a{_f(pr)} {_f(pr)} 0 1 0 {_f(-2 * pr)} 0z")
    return "".join(d)


def _static_elements(b: _Builder, lay: _Layout, th: Theme) -> list[_El]:
    """The unchanging board: frame, felt, points, numbers, hit areas with their data attributes."""
    out: list[_El] = []
    colour = {"frame": th.frame, "felt": th.felt, "tray": th.tray, "point_a": th.point_a,
              "point_b": th.point_b, "text": th.text, "muted": th.muted}
    for op in lay.static:
        kind = op[0]
        if kind == "rect":
            _, x, y, w, h, c, rx = op
            a = {"x": _f(x), "y": _f(y), "width": _f(w), "height": _f(h), "fill": colour[c]}
            if rx:
                a["rx"] = _f(rx)
            out.append(b.el("rect", a))
        elif kind == "poly":
            _, pts, c = op
            out.append(b.el("polygon", {"points": " ".join(f"{_f(px)},{_f(py)}" for px, py in pts),
                                        "fill": colour[c]}))
        elif kind == "label":
            _, x, y, text, c, size = op
            out.append(b.el("text", {"x": _f(x), "y": _f(y), "font-size": str(size),
                                     "fill": colour[c], "text-anchor": "middle"}, text))
        elif kind == "route":
            _, x, y, w, h, bottom, who = op
            # Bottom player: from the top right, left along the top, down, right along the bottom.
            if bottom:
                d = (f"M{_f(x + w)} {_f(y + 2)}H{_f(x + 2)}V{_f(y + h - 2)}H{_f(x + w - 4)}")
                head = ((x + w, y + h - 2), (x + w - 6, y + h - 6), (x + w - 6, y + h + 2))
            else:
                d = (f"M{_f(x + w)} {_f(y + h - 2)}H{_f(x + 2)}V{_f(y + 2)}H{_f(x + w - 4)}")
                head = ((x + w, y + 2), (x + w - 6, y - 2), (x + w - 6, y + 6))
            out.append(b.el("path", {"d": d, "fill": "none", "stroke": th.text,
                                     "stroke-width": "2"}))
            out.append(b.el("polygon", {"points": " ".join(f"{_f(px)},{_f(py)}" for px, py in head),
                                        "fill": th.text}))
            fill, stroke = _checker_colours(th, who)[:2]
            out.append(b.el("circle", {"cx": _f(x + w), "cy": _f(y + 2 if bottom else y + h - 2),
                                       "r": "4", "fill": fill, "stroke": stroke,
                                       "stroke-width": "1.2"}))
        elif kind == "dir":
            _, x0, x1, y, who = op
            sgn = 1 if x1 > x0 else -1
            fill, stroke = _checker_colours(th, who)[:2]
            out.append(b.el("line", {"x1": _f(x0 + sgn * 10), "y1": _f(y), "x2": _f(x1 - sgn * 8),
                                     "y2": _f(y), "stroke": th.text, "stroke-width": "2"}))
            head = ((x1, y), (x1 - sgn * 10, y - 5), (x1 - sgn * 10, y + 5))
            out.append(b.el("polygon", {"points": " ".join(f"{_f(px)},{_f(py)}" for px, py in head),
                                        "fill": th.text}))
            out.append(b.el("circle", {"cx": _f(x0), "cy": _f(y), "r": "6", "fill": fill,
                                       "stroke": stroke, "stroke-width": "1.5"}))
    # Hit areas last, so that they lie above the drawing and catch clicks on empty points.
    n = lay.n
    hit = {"fill": "#fff", "fill-opacity": "0"}
    for p in range(1, n + 1):
        box = lay.points[p][0]
        out.append(b.el("rect", {"class": "point", "data-point": str(p),
                                 "data-point-black": str(n + 1 - p), "x": _f(box.x),
                                 "y": _f(box.y), "width": _f(box.w), "height": _f(box.h), **hit}))
    for who in (WHITE, BLACK):
        box = lay.bars[who][0]
        out.append(b.el("rect", {"class": "bar", "data-bar": who, "x": _f(box.x), "y": _f(box.y),
                                 "width": _f(box.w), "height": _f(box.h), **hit}))
    for who in (WHITE, BLACK):
        box = lay.trays[who][0]
        out.append(b.el("rect", {"class": "off", "data-off": who, "x": _f(box.x), "y": _f(box.y),
                                 "width": _f(box.w), "height": _f(box.h), **hit}))
    return out


def _checker_colours(th: Theme, who: Player) -> tuple[str, str, str]:
    if who == WHITE:
        return th.white_fill, th.white_stroke, th.white_text
    return th.black_fill, th.black_stroke, th.black_text


_STATIC_CACHE: dict[tuple[int, Player, bool, str], str] = {}


def _static_xml(lay: _Layout, th: Theme, numbers: bool) -> str:
    key = (lay.n, lay.viewer, numbers, th.name if THEMES.get(th.name) is th else repr(th))
    xml = _STATIC_CACHE.get(key)
    if xml is None:
        dwg = svgwrite.Drawing(debug=False)
        b = _Builder(dwg)
        g = b.el("g", {})
        g.elements.extend(_static_elements(b, lay, th))
        full = g.tostring()
        xml = full[len("<g>"):-len("</g>")]
        if len(_STATIC_CACHE) > 64:
            _STATIC_CACHE.clear()
        _STATIC_CACHE[key] = xml
    return xml


# ---------------------------------------------------------------------------------------------
# Normalising the options


def _player_of(play_or_none: Any, default: Player) -> Player:
    if isinstance(play_or_none, Play):
        return play_or_none.position.turn
    return default


def _norm_steps(items: Any, player: Player, n: int, what: str) -> tuple[tuple[Player, int, int], ...]:
    """Arrows or a last play as ``(player, start, end)`` triples in that player's numbering."""
    if items is None:
        return ()
    if isinstance(items, (Play, Step, str)):
        items = (items,)
    out: list[tuple[Player, int, int]] = []
    for it in items:
        if isinstance(it, Play):
            out.extend((it.position.turn, s.start, s.end) for s in it.steps)
            continue
        if isinstance(it, Step):
            out.append((player, it.start, it.end))
            continue
        if isinstance(it, str):
            from .notation import parse_steps

            out.extend((player, a, b) for a, b in parse_steps(it, n))
            continue
        try:
            a, b = it[0], it[1]
        except (TypeError, IndexError, KeyError):
            raise BackgammonError(f"{what}: {it!r} is not a Step, a Play, move text or a "
                                  "(start, end) pair") from None
        for x in (a, b):
            if not isinstance(x, int) or isinstance(x, bool):
                raise BackgammonError(f"{what}: {it!r} must hold integer points")
        out.append((player, a, b))
    for _who, a, b in out:
        if not (1 <= a <= n + 1 and 0 <= b <= n):
            raise BackgammonError(f"{what}: step {a}/{b} is not on a {n}-point board "
                                  f"(starts 1..{n + 1} with {n + 1} = bar, ends {n}..0 with 0 = off)")
    return tuple(out)


def _norm_points(items: Any, n: int, what: str) -> tuple[int, ...]:
    if items is None:
        return ()
    if isinstance(items, int) and not isinstance(items, bool):
        items = (items,)
    out = []
    for x in items:
        if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= n + 1:
            raise BackgammonError(f"{what}: {x!r} is not a point of a {n}-point board "
                                  f"(1..{n}, {n + 1} = bar, 0 = off)")
        out.append(x)
    return tuple(sorted(set(out)))


def _norm_dice(dice: Any, dice_left: Any, named_double: Any) -> tuple[
        tuple[int, ...], tuple[int, ...], tuple[int, ...], int | None]:
    """Returns (the Mexican pair shown before named doubles or (), the dice in play, used flags
    per die in play as 0/1, named double or None)."""
    if dice is None:
        if dice_left or named_double is not None:
            raise DiceError(f"dice_left={dice_left!r} and named_double={named_double!r} need dice")
        return (), (), (), None
    roll = Roll.parse(dice)
    mex: tuple[int, ...] = ()
    if named_double is not None:
        if not isinstance(named_double, int) or isinstance(named_double, bool) \
                or not 1 <= named_double <= 6:
            raise DiceError(f"named_double must be a number 1-6, not {named_double!r}")
        if roll.is_mexican:
            mex = roll.dice
        elif roll.is_double and roll.first == named_double:
            mex = (1, 2)  # the named doubles given as the dice: the Mexican before them was 1-2
        else:
            raise DiceError(f"doubles are named only after a Mexican (1-2), not after {roll} "
                            f"(named_double={named_double!r})")
        cur: tuple[int, ...] = (named_double,) * 4
    elif roll.is_double:
        cur = (roll.first,) * 4
    else:
        cur = roll.dice
    if dice_left is None:
        used = (0,) * len(cur)
    else:
        try:
            remaining = [int(d) for d in dice_left]
        except (TypeError, ValueError):
            raise DiceError(f"dice_left must be a list of die numbers, not {dice_left!r}") from None
        flags = [1] * len(cur)
        # The dice still to play are the last ones of their value; used ones come first.
        for i in range(len(cur) - 1, -1, -1):
            if cur[i] in remaining:
                remaining.remove(cur[i])
                flags[i] = 0
        if remaining:
            raise DiceError(f"dice_left={list(dice_left)!r} is not part of the roll "
                            f"{'-'.join(map(str, cur))}")
        used = tuple(flags)
    return mex, cur, used, (named_double if mex else None)


# ---------------------------------------------------------------------------------------------
# The picture


def board(
    position: Position,
    *,
    orientation: Orientation = "white",
    size: int | None = 480,
    theme: str | Theme = "light",
    dice: Roll | tuple[int, int] | str | None = None,
    dice_left: Sequence[int] | None = None,
    named_double: int | None = None,
    reroll_due: bool = False,
    selected: int | None = None,
    targets: Iterable[int] = (),
    highlight: Iterable[int] = (),
    arrows: Iterable[Any] = (),
    lastmove: Play | Iterable[Any] | None = None,
    show_pips: bool = True,
    names: Mapping[str, str] | None = None,
    caption: str | None = None,
    id_prefix: str | None = None,
    numbers: bool = True,
) -> SvgBoard:
    """Draw ``position`` as SVG.

    :param orientation: the player seen at the bottom of the picture, whose numbering is written
        on the 24-point board (Mini-Gam always shows both numberings).
    :param size: width in pixels (the height follows); ``None`` leaves the size to the page.
    :param theme: ``"light"``, ``"dark"`` or a :class:`Theme`.
    :param dice: the roll (a :class:`Roll`, a pair or text like ``"6-5"``); doubles show as four.
    :param dice_left: the dice still to play; the others are drawn dimmed as used.
    :param named_double: after a Mexican (dice 1-2), the doubles named; four of them are drawn.
    :param reroll_due: show the "roll again" badge.
    :param selected: a point of the side to move (N+1 = its bar) whose top checker is ringed.
    :param targets: destinations to mark (the mover's numbering, 0 = off).
    :param highlight: points to tint (the mover's numbering).
    :param arrows: Steps, ``(start, end)`` pairs, move text or whole Plays (the mover's numbering;
        a Play carries its own mover).
    :param lastmove: the last play, a Play or steps; steps given without a Play are read in the
        numbering of the player *not* on turn (the one who just moved).
    :param show_pips: write both pip counts.
    :param names: ``{"white": ..., "black": ...}``; the players' names (escaped).
    :param caption: text under the board (escaped, wrapped).
    :param id_prefix: the root element's id and the prefix of every other id; by default a hash
        of all the inputs.
    :param numbers: write the point numbers.
    """
    if not isinstance(position, Position):
        raise TypeError(f"board() draws a Position, not {position!r}")
    if orientation not in (WHITE, BLACK):
        raise BackgammonError(f"orientation is 'white' or 'black', not {orientation!r}")
    th = theme if isinstance(theme, Theme) else THEMES.get(theme)  # type: ignore[arg-type]
    if th is None:
        raise BackgammonError(f"unknown theme {theme!r}; themes: {', '.join(THEMES)}")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size <= 0):
        raise BackgammonError(f"size is a positive number of pixels, not {size!r}")
    n = position.variant.points
    mover = position.turn
    mex, cur, used, named = _norm_dice(dice, dice_left, named_double)
    sel = _norm_points(selected, n, "selected")
    tgt = _norm_points(targets, n, "targets")
    hil = _norm_points(highlight, n, "highlight")
    arr = _norm_steps(arrows, mover, n, "arrows")
    last = _norm_steps(lastmove, _player_of(lastmove, other(mover)), n, "lastmove")
    lay = _layout(n, orientation, bool(numbers))
    nm = {WHITE: "White", BLACK: "Black"}
    if names:
        for k, val in names.items():
            if k not in nm:
                raise BackgammonError(f"names: keys are 'white' and 'black', not {k!r}")
            if val is not None:
                nm[k] = _clean(val, lay.name_chars) or nm[k]  # type: ignore[index]
    cap_text = _clean(caption) if caption is not None else ""
    if id_prefix is None:
        key = repr((position.to_string(), orientation, size, th, mex, cur, used, named,
                    bool(reroll_due), sel, tgt, hil, arr, last, bool(show_pips), nm, cap_text,
                    bool(numbers)))
        id_prefix = "bg-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:10]
    elif not isinstance(id_prefix, str) or not _ID_OK.fullmatch(id_prefix):
        raise BackgammonError(f"id_prefix must be a letter or '_' then letters, digits, '_', '-' "
                              f"or '.' (at most 64), not {id_prefix!r}")

    width = lay.width
    cap_lines = _wrap(cap_text, max(int((width - 20) / 7.2), 10)) if cap_text else []
    height = lay.height + (len(cap_lines) * 17 + 8 if cap_lines else 0)
    attrs: dict[str, Any] = {"id": id_prefix, "viewBox": f"0 0 {_f(width)} {_f(height)}",
                             "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
                             "class": "backgammon-board", "data-variant": position.variant.name,
                             "data-turn": mover, "data-orientation": orientation}
    attrs["size"] = (None, None) if size is None else (str(size), str(round(size * height / width)))
    dwg = svgwrite.Drawing(debug=False, **attrs)
    b = _Builder(dwg)
    roll_text = ""
    if cur:
        roll_text = f", dice {mex[0]}-{mex[1]} then named {named}-{named}" if mex else \
            f", dice {cur[0]}-{cur[1] if len(cur) == 2 else cur[0]}"
    dwg.set_desc(
        title=f"{position.variant.title}: {nm[mover]} ({mover}) to move{roll_text}",
        desc=f"{position}\nposition: {position.to_string()}",
    )
    dwg.add(b.el("rect", {"width": "100%", "height": "100%", "fill": th.background}))
    dwg.add(b.el("g", {"id": f"{id_prefix}-board"}))
    layer_marks = b.el("g", {"id": f"{id_prefix}-marks", "pointer-events": "none"})
    layer_checkers = b.el("g", {"id": f"{id_prefix}-checkers"})
    layer_over = b.el("g", {"id": f"{id_prefix}-annotations", "pointer-events": "none"})
    layer_dice = b.el("g", {"id": f"{id_prefix}-dice"})
    layer_info = b.el("g", {"id": f"{id_prefix}-info"})
    dwg.add(layer_marks)
    dwg.add(layer_checkers)
    dwg.add(layer_over)
    dwg.add(layer_dice)
    dwg.add(layer_info)

    # Checkers ----------------------------------------------------------------------------------
    ck = layer_checkers.elements
    over = layer_over.elements
    labels: list[_El] = []  # counts, written over everything else
    for p in range(1, n + 1):
        c = position.points[p - 1]
        if not c:
            continue
        who = WHITE if c > 0 else BLACK
        cnt = abs(c)
        stack = _point_stack(lay, p, who)
        fill, stroke, tcol = _checker_colours(th, who)
        base = {"class": "checker", "data-color": who, "data-point": str(p),
                "data-point-black": str(n + 1 - p), "r": _f(stack.r), "fill": fill,
                "stroke": stroke, "stroke-width": "1.5"}
        for i in range(cnt):
            cx, cy = stack.centre(i, cnt)
            ck.append(b.el("circle", {**base, "cx": _f(cx), "cy": _f(cy)}))
        if cnt > stack.cap:
            cx, cy = stack.centre(cnt - 1, cnt)
            labels.append(_count_label(b, cx, cy, cnt, tcol))
    for i_who, who in enumerate((WHITE, BLACK)):
        cnt = position.bar[i_who]
        if cnt:
            stack = lay.bars[who][1]
            fill, stroke, tcol = _checker_colours(th, who)
            base = {"class": "checker", "data-color": who, "data-bar": who, "r": _f(stack.r),
                    "fill": fill, "stroke": stroke, "stroke-width": "1.5"}
            for i in range(cnt):
                cx, cy = stack.centre(i, cnt)
                ck.append(b.el("circle", {**base, "cx": _f(cx), "cy": _f(cy)}))
            if cnt > 1:
                cx, cy = stack.centre(cnt - 1, cnt)
                labels.append(_count_label(b, cx, cy, cnt, tcol))
        cnt = position.off[i_who]
        if cnt:
            tray = lay.trays[who][1]
            fill, stroke, tcol = _checker_colours(th, who)
            base = {"class": "checker", "data-color": who, "data-off": who, "x": _f(tray.x),
                    "width": _f(tray.w), "rx": "2", "fill": fill, "stroke": stroke,
                    "stroke-width": "1"}
            for i in range(cnt):
                y, h, _p = tray.slab(i, cnt)
                ck.append(b.el("rect", {**base, "y": _f(y), "height": _f(h)}))
            y, h, _p = tray.slab(cnt, cnt + 1)
            ty = y + h - 1 if tray.dy < 0 else y + 10
            labels.append(b.el("text", {"x": _f(tray.x + tray.w / 2), "y": _f(ty), "font-size": "12",
                                      "font-weight": "bold", "fill": th.text,
                                      "text-anchor": "middle"}, str(cnt)))

    # Marks under the checkers, rings and arrows over them -------------------------------------
    def place_of(player: Player, point: int) -> tuple[str, Any]:
        """The kind and key of a point in ``player``'s numbering: ('point', White's number),
        ('bar', owner) or ('off', owner)."""
        if point == n + 1:
            return "bar", player
        if point == 0:
            return "off", player
        return "point", (point if player == WHITE else n + 1 - point)

    def own_count(player: Player, point: int) -> int:
        return position.count(player, point)

    def slot(player: Player, point: int, i: int, total: int) -> tuple[float, float]:
        kind, key = place_of(player, point)
        if kind == "point":
            return _point_stack(lay, key, player).centre(i, total)
        if kind == "bar":
            return lay.bars[key][1].centre(i, total)
        tray = lay.trays[key][1]
        y, h, _p = tray.slab(i, max(total, i + 1))
        return tray.x + tray.w / 2, y + h / 2

    def column(player: Player, point: int) -> _Box:
        kind, key = place_of(player, point)
        if kind == "point":
            return lay.points[key][0]
        return (lay.bars if kind == "bar" else lay.trays)[key][0]

    marks = layer_marks.elements
    for pt in hil:
        bx = column(mover, pt)
        marks.append(b.el("rect", {"x": _f(bx.x + 1), "y": _f(bx.y + 1), "width": _f(bx.w - 2),
                                   "height": _f(bx.h - 2), "fill": th.highlight,
                                   "fill-opacity": "0.35", "stroke": th.highlight,
                                   "stroke-width": "2", "class": "highlight"}))
    for pt in tgt:
        bx = column(mover, pt)
        marks.append(b.el("rect", {"x": _f(bx.x + 1), "y": _f(bx.y + 1), "width": _f(bx.w - 2),
                                   "height": _f(bx.h - 2), "fill": th.target,
                                   "fill-opacity": "0.22", "class": "target"}))
        mine = own_count(mover, pt)
        kind, key = place_of(mover, pt)
        theirs = 0
        if kind == "point":
            theirs = position.count(other(mover), n + 1 - pt)
        i = 0 if theirs else mine
        cx, cy = slot(mover, pt, i, max(mine + 1, theirs))
        if kind == "off":
            tray = lay.trays[key][1]
            y, h, _p = tray.slab(mine, mine + 1)
            over.append(b.el("rect", {"x": _f(tray.x - 2), "y": _f(y - 2), "width": _f(tray.w + 4),
                                      "height": _f(h + 4), "fill": "none", "stroke": th.target,
                                      "stroke-width": "2.5", "stroke-dasharray": "4 3",
                                      "class": "target"}))
        else:
            ring = {"cx": _f(cx), "cy": _f(cy), "r": _f(lay.r - 1), "fill": "none"}
            over.append(b.el("circle", {**ring, "stroke": th.casing, "stroke-width": "5",
                                        "stroke-opacity": "0.7", "class": "casing"}))
            over.append(b.el("circle", {**ring, "stroke": th.target, "stroke-width": "3",
                                        "stroke-dasharray": "5 4", "class": "target"}))
    for pt in sel:
        cnt = own_count(mover, pt)
        if cnt and pt != 0:
            cx, cy = slot(mover, pt, cnt - 1, cnt)
            ring = {"cx": _f(cx), "cy": _f(cy), "r": _f(lay.r + 1.5), "fill": "none"}
            over.append(b.el("circle", {**ring, "stroke": th.casing, "stroke-width": "7",
                                        "stroke-opacity": "0.8", "class": "casing"}))
            over.append(b.el("circle", {**ring, "stroke": th.select, "stroke-width": "4",
                                        "class": "selected"}))
        else:
            bx = column(mover, pt)
            over.append(b.el("rect", {"x": _f(bx.x + 1.5), "y": _f(bx.y + 1.5),
                                      "width": _f(bx.w - 3), "height": _f(bx.h - 3), "fill": "none",
                                      "stroke": th.select, "stroke-width": "3",
                                      "class": "selected"}))

    def draw_arrows(steps: tuple[tuple[Player, int, int], ...], colour: str, cls: str,
                    after: bool) -> None:
        """Arrows from the checker that moves to where it lands; ``after``: the position already
        shows the steps played (the last play), so replay them backwards."""
        counts: dict[tuple[Player, int], int] = {}

        def cnt(player: Player, point: int) -> int:
            k = (player, point)
            if k not in counts:
                counts[k] = own_count(player, point)
            return counts[k]

        segs: list[tuple[tuple[float, float], tuple[float, float]]] = []
        order = reversed(steps) if after else steps
        for player, a, e in order:
            if after:
                ce = cnt(player, e)
                end = slot(player, e, max(ce - 1, 0), max(ce, 1))
                counts[(player, e)] = max(ce - 1, 0)
                ca = cnt(player, a)
                start = slot(player, a, ca, ca + 1)
                counts[(player, a)] = ca + 1
            else:
                ca = cnt(player, a)
                start = slot(player, a, max(ca - 1, 0), max(ca, 1))
                counts[(player, a)] = max(ca - 1, 0)
                ce = cnt(player, e)
                theirs = 0
                if e not in (0, n + 1):
                    theirs = position.count(other(player), n + 1 - e)
                idx = 0 if theirs == 1 and ce == 0 else ce
                end = slot(player, e, idx, idx + 1)
                counts[(player, e)] = ce + 1
            segs.append((start, end))
        if after:
            segs.reverse()
        for (x0, y0), (x1, y1) in segs:
            over.extend(_arrow(b, x0, y0, x1, y1, colour, th.casing, cls, dashed=after))

    draw_arrows(last, th.lastmove, "lastmove", True)
    draw_arrows(arr, th.arrow, "arrow", False)
    over.extend(labels)

    # Dice --------------------------------------------------------------------------------------
    if cur:
        _draw_dice(b, layer_dice.elements, lay, th, mover, mex, cur, used)
    if reroll_due:
        bx, by = lay.badge[mover]
        layer_dice.elements.extend(_badge(b, bx, by, th))

    # Names, turn, pips, caption ------------------------------------------------------------------
    info = layer_info.elements
    x_name, x_turn, x_pips = lay.info_x
    for who in (WHITE, BLACK):
        y = lay.info[who]
        fill, stroke, _t = _checker_colours(th, who)
        sx = x_name - 12
        info.append(b.el("circle", {"cx": _f(sx), "cy": _f(y - 5), "r": "8", "fill": fill,
                                    "stroke": stroke, "stroke-width": "1.5"}))
        weight = {"font-weight": "bold"} if who == mover else {}
        info.append(b.el("text", {"x": _f(x_name), "y": _f(y), "font-size": "14", "fill": th.text,
                                  **weight, "class": "name", "data-player": who}, nm[who]))
        if who == mover:
            info.append(b.el("text", {"x": _f(x_turn), "y": _f(y), "font-size": "13",
                                      "fill": th.select, "font-weight": "bold",
                                      "text-anchor": "end", "class": "turn"}, "\u25b6 to move"))
        if show_pips:
            info.append(b.el("text", {"x": _f(x_pips), "y": _f(y), "font-size": "13",
                                      "fill": th.text, "text-anchor": "end", "class": "pips",
                                      "data-player": who}, f"pips {position.pip_count(who)}"))
    y = lay.height + 6
    for line in cap_lines:
        y += 17
        info.append(b.el("text", {"x": _f(width / 2), "y": _f(y), "font-size": "14",
                                  "fill": th.text, "text-anchor": "middle", "class": "caption"},
                         line))

    text = dwg.tostring()
    marker = f'<g id="{id_prefix}-board" />'
    static = _static_xml(lay, th, bool(numbers))
    text = text.replace(marker, f'<g id="{id_prefix}-board">{static}</g>', 1)
    return SvgBoard(text)


def _count_label(b: _Builder, cx: float, cy: float, cnt: int, colour: str) -> _El:
    return b.el("text", {"x": _f(cx), "y": _f(cy + 5), "font-size": "15", "font-weight": "bold",
                         "fill": colour, "text-anchor": "middle", "class": "count"}, str(cnt))


def _arrow(b: _Builder, x0: float, y0: float, x1: float, y1: float, colour: str, casing: str,
           cls: str, dashed: bool) -> list[_El]:
    """A line with a head from (x0, y0) to (x1, y1), on a casing of the theme's contrast colour
    (so it stands out on any point, felt or checker, whatever one's colour vision)."""
    dx, dy = x1 - x0, y1 - y0
    dist = math.hypot(dx, dy)
    if dist < 4:
        return []
    ux, uy = dx / dist, dy / dist
    head = min(16.0, dist * 0.6)
    bx, by = x1 - ux * head, y1 - uy * head
    hw = 8.0
    width = 4.0 if dashed else 6.0
    ends = {"x1": _f(x0), "y1": _f(y0), "x2": _f(bx), "y2": _f(by)}
    line = {**ends, "stroke": colour, "stroke-width": _f(width), "stroke-linecap": "round",
            "class": cls}
    if dashed:
        line["stroke-dasharray"] = "7 5"
        line["stroke-linecap"] = "butt"
    pts = ((x1, y1), (bx - uy * hw, by + ux * hw), (bx + uy * hw, by - ux * hw))
    return [b.el("line", {**ends, "stroke": casing, "stroke-width": _f(width + 3),
                          "stroke-linecap": "round", "stroke-opacity": "0.8", "class": "casing"}),
            b.el("line", line),
            b.el("polygon", {"points": " ".join(f"{_f(px)},{_f(py)}" for px, py in pts),
                             "fill": colour, "stroke": casing, "stroke-width": "1.5",
                             "stroke-linejoin": "round", "class": cls})]


def _die(b: _Builder, x: float, y: float, s: float, value: int, th: Theme, who: Player,
         attrs: dict[str, str], used: bool, named: bool) -> _El:
    fill, stroke, pip = _checker_colours(th, who)
    g = b.el("g", {**attrs, "data-value": str(value), "data-used": "1" if used else "0",
                   **({"opacity": "0.3"} if used else {})})
    rect = {"x": _f(x), "y": _f(y), "width": _f(s), "height": _f(s), "rx": _f(s * 0.18),
            "fill": fill, "stroke": th.select if named else stroke,
            "stroke-width": "2" if named else "1.5"}
    if named:
        rect["stroke-dasharray"] = "4 2"
    g.elements.append(b.el("rect", rect))
    g.elements.append(b.el("path", {"d": _pips_path(x, y, s, value), "fill": pip}))
    return g


def _draw_dice(b: _Builder, out: list[Any], lay: _Layout, th: Theme, mover: Player,
               mex: tuple[int, ...], cur: tuple[int, ...], used: tuple[int, ...]) -> None:
    box, mode = lay.dice[mover]
    s = 30.0 if (len(cur) == 4 or mex) else 32.0
    gap = 6.0
    ms = 20.0  # the Mexican's small dice
    if mode == "row":
        total = len(cur) * s + (len(cur) - 1) * gap + ((2 * ms + 4 + 16) if mex else 0)
        x = box.x + (box.w - total) / 2
        y = box.y + (box.h - s) / 2
        if mex:
            for v in mex:
                out.append(_die(b, x, y + (s - ms) / 2, ms, v, th, mover, {"class": "mexican"},
                                True, False))
                x += ms + 4
            out.append(b.el("text", {"x": _f(x + 5), "y": _f(y + s / 2 + 5), "font-size": "14",
                                     "fill": th.text, "text-anchor": "middle"}, "\u2192"))
            x += 16
        for i, v in enumerate(cur):
            out.append(_die(b, x, y, s, v, th, mover, {"class": "die", "data-die": str(i)},
                            bool(used[i]), bool(mex)))
            x += s + gap
        return
    # grid: two per row, the Mexican's pair above
    y = box.y + 4
    cols_w = 2 * s + gap
    x0 = box.x + (box.w - cols_w) / 2
    if mex:
        mx = box.x + (box.w - (2 * ms + 4)) / 2
        for v in mex:
            out.append(_die(b, mx, y, ms, v, th, mover, {"class": "mexican"}, True, False))
            mx += ms + 4
        y += ms + 6
    for i, v in enumerate(cur):
        cx = x0 + (i % 2) * (s + gap)
        cy = y + (i // 2) * (s + gap)
        out.append(_die(b, cx, cy, s, v, th, mover, {"class": "die", "data-die": str(i)},
                        bool(used[i]), bool(mex)))


def _badge(b: _Builder, cx: float, cy: float, th: Theme) -> list[_El]:
    w, h = 88.0, 22.0
    x, y = cx - w / 2, cy - h / 2
    ax, ay, ar = x + 14, cy, 6.0
    arc = (f"M{_f(ax + ar)} {_f(ay)}A{_f(ar)} {_f(ar)} 0 1 1 {_f(ax)} {_f(ay - ar)}")
    head = ((ax + 4, ay - ar), (ax - 1, ay - ar - 4), (ax - 1, ay - ar + 4))
    return [
        b.el("rect", {"x": _f(x), "y": _f(y), "width": _f(w), "height": _f(h), "rx": "11",
                      "fill": th.background, "stroke": th.select, "stroke-width": "2",
                      "class": "reroll"}),
        b.el("path", {"d": arc, "fill": "none", "stroke": th.select, "stroke-width": "2"}),
        b.el("polygon", {"points": " ".join(f"{_f(px)},{_f(py)}" for px, py in head),
                         "fill": th.select}),
        b.el("text", {"x": _f(x + 25), "y": _f(cy + 4.5), "font-size": "11.5", "fill": th.text,
                      "font-weight": "bold"}, "roll again"),
    ]


# ---------------------------------------------------------------------------------------------
# Command line: ``backgammon-lab render``


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
    parser.add_argument("--size", type=int, default=480, help="width in pixels")
    parser.add_argument("--caption", default=None, help="text under the board")
    parser.add_argument("--dice", default=None, help="the roll, like 6-5")
    parser.add_argument("--dice-left", default=None,
                        help="the dice still to play, like 5 or 4,4 (others are drawn as used)")
    parser.add_argument("--named-double", type=int, default=None,
                        help="the doubles named after a Mexican (1-6)")
    parser.add_argument("--reroll", action="store_true", help="show that a re-roll is due")
    parser.add_argument("--arrows", default=None,
                        help="move text drawn as arrows, in the mover's numbering: '13/7 8/7'")
    parser.add_argument("--lastmove", default=None,
                        help="the last play as move text, in the numbering of the player who made it")
    parser.add_argument("--selected", type=int, default=None,
                        help="the mover's point whose checker is selected (N+1 = bar)")
    parser.add_argument("--targets", default=None, help="destinations to mark, like 7,5,0")
    parser.add_argument("--highlight", default=None, help="points to tint, like 4,5,6")
    parser.add_argument("--white-name", default=None)
    parser.add_argument("--black-name", default=None)
    parser.add_argument("--no-pips", action="store_true", help="hide the pip counts")
    parser.add_argument("--no-numbers", action="store_true", help="hide the point numbers")
    parser.add_argument("--id-prefix", default=None, help="id of the root element")


def _int_list(text: str | None, what: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        return tuple(int(t) for t in text.replace(",", " ").split())
    except ValueError:
        raise BackgammonError(f"{what}: expected numbers like '7,5,0', not {text!r}") from None


def render_command(args: argparse.Namespace) -> int:
    """Run ``backgammon-lab render`` with parsed ``args``; returns the exit status."""
    from .notation import parse_position

    try:
        pos = parse_position(args.position, args.variant)
        names = {k: v for k, v in (("white", args.white_name), ("black", args.black_name)) if v}
        pic = board(
            pos, orientation=args.orientation, size=args.size, theme=args.theme,
            dice=args.dice, dice_left=(_int_list(args.dice_left, "--dice-left")
                                       if args.dice_left is not None else None),
            named_double=args.named_double, reroll_due=args.reroll,
            selected=args.selected, targets=_int_list(args.targets, "--targets"),
            highlight=_int_list(args.highlight, "--highlight"),
            arrows=(args.arrows,) if args.arrows else (),
            lastmove=(args.lastmove,) if args.lastmove else None,
            show_pips=not args.no_pips, names=names or None, caption=args.caption,
            id_prefix=args.id_prefix, numbers=not args.no_numbers,
        )
    except (BackgammonError, ValueError) as e:
        print(f"backgammon-lab render: error: {e}", file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.write(str(pic) + "\n")
    else:
        pic.save(args.output)
    return 0
