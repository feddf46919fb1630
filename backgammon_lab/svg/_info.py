"""The info layer: each player's name (bold for the mover) with a checker of its colour, the turn
marker, the pip counts, and the caption under the board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..position import BLACK, WHITE, Player, Position
from ._geometry import Layout
from ._theme import Theme, checker_colours
from ._xml import Builder, El, fmt

#: Height of one caption line, and the room the caption adds beyond its lines (so that the
#: descenders and underscores of the last line stay inside the picture).
CAPTION_LINE = 17
CAPTION_PAD = 14


def caption_width(width: float) -> int:
    """Characters of 14px text per caption line on a picture ``width`` units wide."""
    return max(int((width - 20) / 7.2), 10)


def info_layer(b: Builder, lay: Layout, th: Theme, position: Position, names: Mapping[Player, str],
               show_pips: bool, caption_lines: Sequence[str]) -> list[El]:
    """Names, turn marker and pips of both players, then the caption lines. A finished game
    (every checker of a player borne off) has no side to move: no name is bold, no marker."""
    out: list[El] = []
    mover = None if position.is_over else position.turn
    x_name, x_turn, x_pips = lay.info_x
    for who in (WHITE, BLACK):
        y = lay.info[who]
        fill, stroke, _t = checker_colours(th, who)
        out.append(b.el("circle", {"cx": fmt(x_name - 12), "cy": fmt(y - 5), "r": "8", "fill": fill,
                                   "stroke": stroke, "stroke-width": "1.5"}))
        weight = {"font-weight": "bold"} if who == mover else {}
        out.append(b.el("text", {"x": fmt(x_name), "y": fmt(y), "font-size": "14", "fill": th.text,
                                 **weight, "class": "name", "data-player": who}, names[who]))
        if who == mover:
            out.append(b.el("text", {"x": fmt(x_turn), "y": fmt(y), "font-size": "13",
                                     "fill": th.select, "font-weight": "bold",
                                     "text-anchor": "end", "class": "turn"}, "\u25b6 to move"))
        if show_pips:
            out.append(b.el("text", {"x": fmt(x_pips), "y": fmt(y), "font-size": "13",
                                     "fill": th.text, "text-anchor": "end", "class": "pips",
                                     "data-player": who}, f"pips {position.pip_count(who)}"))
    y = lay.height + 6
    for line in caption_lines:
        y += CAPTION_LINE
        out.append(b.el("text", {"x": fmt(lay.width / 2), "y": fmt(y), "font-size": "14",
                                 "fill": th.text, "text-anchor": "middle", "class": "caption"}, line))
    return out
