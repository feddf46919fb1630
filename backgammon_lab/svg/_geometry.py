"""Where everything goes: the coordinates of one board geometry seen from one side.

A :class:`Layout` holds the boxes, checker stacks, trays, dice areas and text rows of the 24-point
board or of a strip (Mini-Gam), and the primitive drawing operations of the unchanging board.
:class:`Places` answers, for one position, where the checker ``i`` of a place is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..position import BLACK, OFF, WHITE, Player, Position, other
from ..variants import Variant


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Stack:
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
class Tray:
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
class Layout:
    """Every coordinate of one board geometry seen from one side (``viewer``); ``variant`` is the
    variant it was made for, whose numbering (:meth:`~backgammon_lab.variants.Variant.renumber`,
    ``flip``, ``bar``) it uses: every variant with ``n`` points shares the layout."""

    n: int
    variant: Variant
    viewer: Player
    width: float
    height: float  # without the caption
    pad: float
    r: float
    points: dict[int, tuple[Box, dict[Player, Stack]]]  # White's point -> hit box, stacks
    bars: dict[Player, tuple[Box, Stack]]
    trays: dict[Player, tuple[Box, Tray]]
    dice: dict[Player, tuple[Box, str]]  # the mover's dice area and its arrangement
    badge: dict[Player, tuple[float, float]]  # centre of the "roll again" badge
    info: dict[Player, float]  # baseline of each player's name row
    info_x: tuple[float, float, float]  # name start, turn marker end, pips end
    name_chars: int  # the longest name that fits before the turn marker
    static: tuple[Any, ...]  # primitive drawing ops of the unchanging board


def layout24(v: Variant, viewer: Player, numbers: bool) -> Layout:
    pad, frame, w, bar_w, tray_w, gap = 6.0, 14.0, 36.0, 40.0, 46.0, 46.0
    r = 16.0
    pitch = 2 * r + 1
    half = 170.0
    # Two number rows on each side when numbers are written: the viewer's numbering next to the
    # points, the other player's outside it (each row keyed by a checker of its player's colour).
    info_h, num_h = 28.0, 34.0 if numbers else 6.0
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
    ops.append(("label", x_tray + tray_w / 2, y_mid + 4, "off", "on_frame", 11))

    points: dict[int, tuple[Box, dict[Player, Stack]]] = {}
    for p in range(1, 25):
        q = v.renumber(p, viewer)
        if q <= 6:
            x, top = x_r + (6 - q) * w, False
        elif q <= 12:
            x, top = x_l + (12 - q) * w, False
        elif q <= 18:
            x, top = x_l + (q - 13) * w, True
        else:
            x, top = x_r + (q - 19) * w, True
        cx = x + w / 2
        colour = "point_a" if q % 2 else "point_b"
        tip = 0.92 * half
        if top:
            ops.append(("poly", ((x + 1, y_in), (x + w - 1, y_in), (cx, y_in + tip)), colour))
            box = Box(x, y_in, w, half)
            stack = Stack(cx, y_in, 1, half, pitch, r)
            ny, ny_other = y_board - 6, y_board - 21
        else:
            ops.append(("poly", ((x + 1, y_bot), (x + w - 1, y_bot), (cx, y_bot - tip)), colour))
            box = Box(x, y_bot - half, w, half)
            stack = Stack(cx, y_bot, -1, half, pitch, r)
            ny, ny_other = y_bot + frame + 14, y_bot + frame + 29
        if numbers:
            ops.append(("num", cx, ny, str(q), viewer, p, 12))
            ops.append(("num", cx, ny_other, str(v.flip(q)), top_player, p, 12))
        points[p] = (box, {WHITE: stack, BLACK: stack})
    if numbers:  # which row is whose: a small checker at the start of each number row
        for y_row, who in ((y_board - 10, viewer), (y_board - 25, top_player),
                           (y_bot + frame + 10, viewer), (y_bot + frame + 25, top_player)):
            ops.append(("numkey", pad + 7, y_row, who))
    bars = {
        viewer: (Box(x_bar, y_in, bar_w, half + gap / 2),
                 Stack(x_bar + bar_w / 2, y_mid - gap / 2, -1, half, pitch, r)),
        top_player: (Box(x_bar, y_mid, bar_w, half + gap / 2),
                     Stack(x_bar + bar_w / 2, y_mid + gap / 2, 1, half, pitch, r)),
    }
    trays = {
        viewer: (Box(x_tray, y_bot - half, tray_w, half),
                 Tray(x_tray + 5, y_bot - 2, -1, tray_w - 10, half - 4, 10.0)),
        top_player: (Box(x_tray, y_in, tray_w, half),
                     Tray(x_tray + 5, y_in + 2, 1, tray_w - 10, half - 4, 10.0)),
    }
    die_h = 34.0
    dice = {
        viewer: (Box(x_r, y_mid - die_h / 2, 6 * w, die_h), "row"),
        top_player: (Box(x_l, y_mid - die_h / 2, 6 * w, die_h), "row"),
    }
    badge = {viewer: (x_l + 3 * w, y_mid), top_player: (x_r + 3 * w, y_mid)}
    info = {top_player: pad + info_h / 2 + 5, viewer: height - pad - info_h / 2 + 5}
    # Route icons: the way each player's checkers travel, in miniature.
    for who, y_row in info.items():
        bottom = who == viewer
        ops.append(("route", pad + 2, y_row - 15, 32.0, 18.0, bottom, who))
    info_x = (pad + 66, x_tray + tray_w - 78, x_tray + tray_w)
    return Layout(24, v, viewer, width, height, pad, r, points, bars, trays, dice, badge, info,
                   info_x, name_chars(info_x), tuple(ops))


def layout_strip(v: Variant, viewer: Player, numbers: bool) -> Layout:
    n = v.points
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
    points: dict[int, tuple[Box, dict[Player, Stack]]] = {}
    for p in range(1, n + 1):
        q = v.renumber(p, viewer)
        x = x_cols + (q - 1) * w
        cx = x + w / 2
        colour = "point_a" if q % 2 else "point_b"
        tip = col_h * 0.34
        ops.append(("poly", ((x + 1, y_end), (x + w - 1, y_end), (cx, y_end - tip)), colour))
        ops.append(("poly", ((x + 1, y_strip), (x + w - 1, y_strip), (cx, y_strip + tip)), colour))
        # The viewer's checkers stack up from the bottom edge, the opponent's down from the top.
        stacks = {viewer: Stack(cx, y_end - 2, -1, col_h - 4, pitch, r),
                  top_player: Stack(cx, y_strip + 2, 1, col_h - 4, pitch, r)}
        points[p] = (Box(x, y_strip, w, col_h), stacks)
        if numbers:
            ops.append(("num", cx, y_num_v, str(q), viewer, p, 13))
            ops.append(("num", cx, y_num_t, str(v.flip(q)), top_player, p, 13))
    half = col_h / 2 - 1
    bars = {
        viewer: (Box(x_right, y_mid + 1, end_w, half),
                 Stack(ex_r, y_end - 2, -1, half - 4, pitch, r)),
        top_player: (Box(x_left, y_strip, end_w, half),
                     Stack(ex_l, y_strip + 2, 1, half - 4, pitch, r)),
    }
    trays = {
        viewer: (Box(x_left, y_mid + 1, end_w, half),
                 Tray(x_left + 7, y_end - 3, -1, end_w - 14, half - 20, 10.0)),
        top_player: (Box(x_right, y_strip, end_w, half),
                     Tray(x_right + 7, y_strip + 3, 1, end_w - 14, half - 20, 10.0)),
    }
    # Direction arrows beside the numbers: the viewer runs right to left, the opponent left to right.
    ay_v = y_end + frame + 26
    ay_t = y_strip - frame - 9
    ops.append(("dir", ex_r, ex_l, ay_v, viewer))
    ops.append(("dir", ex_l, ex_r, ay_t, top_player))
    px = x_frame_end + 8
    dice = {
        viewer: (Box(px, y_mid + 6, panel - 12, col_h / 2 - 6), "grid"),
        top_player: (Box(px, y_strip, panel - 12, col_h / 2 - 6), "grid"),
    }
    badge = {viewer: (px + (panel - 12) / 2, y_end - 16),
             top_player: (px + (panel - 12) / 2, y_mid - 18)}
    info = {top_player: pad + info_h / 2 + 5, viewer: height - pad - info_h / 2 + 5}
    info_x = (pad + 24, width - pad - 82, width - pad - 4)
    return Layout(n, v, viewer, width, height, pad, r, points, bars, trays, dice, badge, info,
                   info_x, name_chars(info_x), tuple(ops))


def name_chars(info_x: tuple[float, float, float]) -> int:
    """How many characters of a bold 14px name fit between its start and the turn marker."""
    return int((info_x[1] - 80 - info_x[0]) / 8.6)


LAYOUTS: dict[tuple[int, Player, bool], Layout] = {}


def layout(variant: Variant, viewer: Player, numbers: bool) -> Layout:
    """The layout of ``variant``'s board seen by ``viewer`` (cached by the number of points)."""
    key = (variant.points, viewer, numbers)
    lay = LAYOUTS.get(key)
    if lay is None:
        lay = layout24(variant, viewer, numbers) if variant.points == 24 else layout_strip(variant, viewer, numbers)
        LAYOUTS[key] = lay
    return lay


def point_stack(lay: Layout, white_point: int, player: Player) -> Stack:
    return lay.points[white_point][1][player]



class Places:
    """The places of one position on one layout, named in a player's numbering (``variant.bar`` =
    bar, ``OFF`` = tray), as a :class:`~backgammon_lab.position.Step` names them."""

    def __init__(self, lay: Layout, position: Position) -> None:
        self.lay = lay
        self.position = position
        self.variant = position.variant

    def place_of(self, player: Player, point: int) -> tuple[str, Any]:
        """The kind and key of a point in ``player``'s numbering: ('point', White's number),
        ('bar', owner) or ('off', owner)."""
        if point == self.variant.bar:
            return "bar", player
        if point == OFF:
            return "off", player
        return "point", self.variant.renumber(point, player)

    def own_count(self, player: Player, point: int) -> int:
        """``player``'s checkers on ``point`` (that player's numbering)."""
        return self.position.count(player, point)

    def their_count(self, player: Player, point: int) -> int:
        """The opponent's checkers on ``player``'s point ``point`` (0 on a bar or tray)."""
        if point in (OFF, self.variant.bar):
            return 0
        return self.position.count(other(player), self.variant.flip(point))

    def slot(self, player: Player, point: int, i: int, total: int) -> tuple[float, float]:
        """Centre of ``player``'s checker ``i`` of ``total`` on ``point``."""
        kind, key = self.place_of(player, point)
        lay = self.lay
        if kind == "point":
            return point_stack(lay, key, player).centre(i, total)
        if kind == "bar":
            return lay.bars[key][1].centre(i, total)
        tray = lay.trays[key][1]
        y, h, _p = tray.slab(i, max(total, i + 1))
        return tray.x + tray.w / 2, y + h / 2

    def column(self, player: Player, point: int) -> Box:
        """The hit box of ``player``'s ``point``."""
        kind, key = self.place_of(player, point)
        if kind == "point":
            return self.lay.points[key][0]
        return (self.lay.bars if kind == "bar" else self.lay.trays)[key][0]
