"""The dice layer: the dice in play in the mover's half (used ones dimmed), a throw drawn small
before named doubles, and the "roll again" badge. It draws what the caller says the dice show
(a :class:`~backgammon_lab.svg._options.DiceView`); it decides nothing about the rules."""

from __future__ import annotations

from ..position import Player, other
from ._geometry import Layout
from ._options import DiceView
from ._theme import Theme, checker_colours
from ._xml import Builder, El, fmt, points_text

_SPOTS: dict[int, tuple[str, ...]] = {
    1: ("c",), 2: ("tr", "bl"), 3: ("tr", "c", "bl"), 4: ("tl", "tr", "bl", "br"),
    5: ("tl", "tr", "c", "bl", "br"), 6: ("tl", "tr", "ml", "mr", "bl", "br"),
}


def pips_path(x: float, y: float, s: float, value: int) -> str:
    """The spots of a die showing ``value``, as one path, for a die of side ``s`` at (x, y)."""
    q = s / 4
    c = {
        "tl": (x + q, y + q), "tr": (x + s - q, y + q), "ml": (x + q, y + s / 2),
        "mr": (x + s - q, y + s / 2), "bl": (x + q, y + s - q), "br": (x + s - q, y + s - q),
        "c": (x + s / 2, y + s / 2),
    }
    pr = s * 0.095
    d = []
    for k in _SPOTS[value]:
        cx, cy = c[k]
        d.append(f"M{fmt(cx - pr)} {fmt(cy)}a{fmt(pr)} {fmt(pr)} 0 1 0 {fmt(2 * pr)} 0"
                 f"a{fmt(pr)} {fmt(pr)} 0 1 0 {fmt(-2 * pr)} 0z")
    return "".join(d)


def die(b: Builder, x: float, y: float, s: float, value: int, th: Theme, who: Player,
        attrs: dict[str, str], used: bool, named: bool) -> El:
    """One die in ``who``'s colours; ``used`` dims it, ``named`` gives it a dashed outline."""
    fill, stroke, pip = checker_colours(th, who)
    g = b.el("g", {**attrs, "data-value": str(value), "data-used": "1" if used else "0",
                   **({"opacity": "0.3"} if used else {})})
    rect = {"x": fmt(x), "y": fmt(y), "width": fmt(s), "height": fmt(s), "rx": fmt(s * 0.18),
            "fill": fill, "stroke": th.select if named else stroke,
            "stroke-width": "2" if named else "1.5"}
    if named:
        rect["stroke-dasharray"] = "4 2"
    g.elements.append(b.el("rect", rect))
    g.elements.append(b.el("path", {"d": pips_path(x, y, s, value), "fill": pip}))
    return g


def badge(b: Builder, cx: float, cy: float, th: Theme) -> list[El]:
    """The "roll again" badge centred on (cx, cy)."""
    w, h = 88.0, 22.0
    x, y = cx - w / 2, cy - h / 2
    ax, ay, ar = x + 14, cy, 6.0
    arc = f"M{fmt(ax + ar)} {fmt(ay)}A{fmt(ar)} {fmt(ar)} 0 1 1 {fmt(ax)} {fmt(ay - ar)}"
    head = ((ax + 4, ay - ar), (ax - 1, ay - ar - 4), (ax - 1, ay - ar + 4))
    return [
        b.el("rect", {"x": fmt(x), "y": fmt(y), "width": fmt(w), "height": fmt(h), "rx": "11",
                      "fill": th.background, "stroke": th.select, "stroke-width": "2",
                      "class": "reroll"}),
        b.el("path", {"d": arc, "fill": "none", "stroke": th.select, "stroke-width": "2"}),
        b.el("polygon", {"points": points_text(head), "fill": th.select}),
        b.el("text", {"x": fmt(x + 25), "y": fmt(cy + 4.5), "font-size": "11.5", "fill": th.text,
                      "font-weight": "bold"}, "roll again"),
    ]


def _row(b: Builder, lay: Layout, th: Theme, mover: Player, dv: DiceView, s: float) -> list[El]:
    """The dice in one row across the mover's half (24-point board)."""
    box = lay.dice[mover][0]
    cur, thrown, gap, ms = dv.in_play, dv.thrown, 6.0, 20.0
    out: list[El] = []
    total = len(cur) * s + (len(cur) - 1) * gap + (len(thrown) * (ms + 4) - 4 + 16 if thrown else 0)
    x = box.x + (box.w - total) / 2
    y = box.y + (box.h - s) / 2
    if thrown:
        for v in thrown:
            out.append(die(b, x, y + (s - ms) / 2, ms, v, th, mover, {"class": "mexican"}, True, False))
            x += ms + 4
        out.append(b.el("text", {"x": fmt(x + 5), "y": fmt(y + s / 2 + 5), "font-size": "14",
                                 "fill": th.text, "text-anchor": "middle"}, "\u2192"))
        x += 16
    for i, v in enumerate(cur):
        out.append(die(b, x, y, s, v, th, mover, {"class": "die", "data-die": str(i)},
                       bool(dv.used[i]), dv.named is not None))
        x += s + gap
    return out


def _grid(b: Builder, lay: Layout, th: Theme, mover: Player, dv: DiceView, s: float) -> list[El]:
    """The dice two to a row in the side panel (strip), a small throw above them."""
    box = lay.dice[mover][0]
    cur, thrown, gap, ms = dv.in_play, dv.thrown, 6.0, 20.0
    out: list[El] = []
    y = box.y + 4
    x0 = box.x + (box.w - (2 * s + gap)) / 2
    if thrown:
        mx = box.x + (box.w - (len(thrown) * (ms + 4) - 4)) / 2
        for v in thrown:
            out.append(die(b, mx, y, ms, v, th, mover, {"class": "mexican"}, True, False))
            mx += ms + 4
        y += ms + 6
    for i, v in enumerate(cur):
        out.append(die(b, x0 + (i % 2) * (s + gap), y + (i // 2) * (s + gap), s, v, th, mover,
                       {"class": "die", "data-die": str(i)}, bool(dv.used[i]), dv.named is not None))
    return out


def lost_dice(b: Builder, lay: Layout, th: Theme, who: Player, lost: tuple[int, ...]) -> list[El]:
    """Dice ``who`` could not play, dimmed and crossed out in its dice area, with the word "lost"."""
    box = lay.dice[who][0]
    s, gap = 26.0, 5.0
    out: list[El] = []
    if lay.dice[who][1] == "row":
        total = len(lost) * (s + gap) + 30
        x, y = box.x + (box.w - total) / 2, box.y + (box.h - s) / 2
        spots = [(x + i * (s + gap), y) for i in range(len(lost))]
        tx, ty, anchor = x + len(lost) * (s + gap) + 2, y + s / 2 + 4, "start"
    else:
        x0 = box.x + (box.w - (2 * s + gap)) / 2
        spots = [(x0 + (i % 2) * (s + gap), box.y + 4 + (i // 2) * (s + gap)) for i in range(len(lost))]
        tx, ty, anchor = box.x + box.w / 2, box.y + 4 + ((len(lost) + 1) // 2) * (s + gap) + 10, "middle"
    for (x, y), v in zip(spots, lost, strict=True):
        g = die(b, x, y, s, v, th, who, {"class": "lost-die"}, True, False)
        for x1, y1, x2, y2 in ((x + 3, y + 3, x + s - 3, y + s - 3), (x + s - 3, y + 3, x + 3, y + s - 3)):
            g.elements.append(b.el("line", {"x1": fmt(x1), "y1": fmt(y1), "x2": fmt(x2), "y2": fmt(y2),
                                            "stroke": th.select, "stroke-width": "3",
                                            "stroke-linecap": "round"}))
        out.append(g)
    out.append(b.el("text", {"x": fmt(tx), "y": fmt(ty), "font-size": "12", "font-weight": "bold",
                             "fill": th.select, "text-anchor": anchor, "class": "lost"}, "lost"))
    return out


def dice_layer(b: Builder, lay: Layout, th: Theme, mover: Player, dv: DiceView,
               reroll_due: bool, lost: tuple[int, ...] = ()) -> list[El]:
    """The dice of ``dv`` in the mover's area, then the badge if a re-roll is due, and the dice
    the other player just lost (``lost``) crossed out in its area."""
    out: list[El] = []
    if lost:
        out.extend(lost_dice(b, lay, th, other(mover), lost))
    if dv.in_play:
        s = 30.0 if (len(dv.in_play) == 4 or dv.thrown) else 32.0
        draw = _row if lay.dice[mover][1] == "row" else _grid
        out.extend(draw(b, lay, th, mover, dv, s))
    if reroll_due:
        bx, by = lay.badge[mover]
        out.extend(badge(b, bx, by, th))
    return out
