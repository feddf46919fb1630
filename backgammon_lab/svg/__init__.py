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
* The picture knows no game rule: it draws the dice, badges and marks the caller describes.
  Bad options raise :class:`~backgammon_lab.errors.RenderError` (``DiceError`` for dice), both
  ``ValueError`` subclasses, quoting the value.

The picture is built in layers, each in its own module: the board (``_board``: frame, points,
numbers, hit areas; cached), the marks and annotations (``_annotations``: tints, rings, arrows),
the checkers (``_checkers``), the dice (``_dice``) and the names, pips and caption (``_info``).
``_options`` reads and checks the keywords, ``_geometry`` holds the coordinates.

:func:`win_chart` (``_chart``) draws a game's chart: a winning chance over the actions of a game,
the marked decisions dotted; it takes plain numbers (an analysis hands them over).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import svgwrite

from ..position import Play, Position, Roll
from ._annotations import annotations_layer, marks_layer
from ._board import board_layer_xml
from ._chart import MARK_COLOURS, ChartMark, win_chart
from ._checkers import checker_layer_xml
from ._dice import dice_layer
from ._geometry import Places, layout
from ._info import CAPTION_LINE, CAPTION_PAD, caption_width, info_layer
from ._options import Spec, read_options
from ._theme import THEMES, Theme
from ._xml import Builder, drawing_text, fmt, wrap

__all__ = ["SvgBoard", "Theme", "THEMES", "board", "win_chart", "ChartMark", "MARK_COLOURS"]

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
    selected: int | Iterable[int] | None = None,
    targets: int | Iterable[int] = (),
    highlight: int | Iterable[int] = (),
    arrows: Iterable[Any] = (),
    lastmove: Play | Iterable[Any] | None = None,
    played: Play | Iterable[Any] = (),
    lost_dice: Sequence[int] | None = None,
    show_pips: bool = True,
    names: Mapping[str, str | None] | None = None,
    caption: str | None = None,
    id_prefix: str | None = None,
    numbers: bool = True,
) -> SvgBoard:
    """Draw ``position`` as SVG.

    :param orientation: the player seen at the bottom of the picture, whose numbering is written
        on the 24-point board (Mini-Gam always shows both numberings).
    :param size: width in pixels, 1 to 100000 (the height follows); ``None`` leaves the size to
        the page.
    :param theme: ``"light"``, ``"dark"`` or a :class:`Theme`.
    :param dice: the roll (a :class:`Roll`, a pair or text like ``"6-5"``); a roll the variant
        plays as four moves (doubles) shows four dice.
    :param dice_left: the dice still to play; the others are drawn dimmed as used.
    :param named_double: the doubles named after the roll ``dice`` (a Mexican, in Mexican
        Backgammon): ``dice`` is drawn small, then four named dice with a dashed outline. When
        ``dice`` already shows those doubles, nothing is drawn before them. The picture does not
        check that the roll allowed naming: the caller passes what the dice show.
    :param reroll_due: show the "roll again" badge.
    :param selected: a point of the side to move (N+1 = its bar) whose top checker is ringed.
    :param targets: destinations to mark (the mover's numbering, 0 = off).
    :param highlight: points to tint (the mover's numbering).
    :param arrows: Steps, ``(start, end)`` pairs, move text or whole Plays (the mover's numbering;
        a Play carries its own mover).
    :param lastmove: the last play, a Play or steps; steps given without a Play are read in the
        numbering of the player *not* on turn (the one who just moved).
    :param played: the steps the side to move has made so far this turn (the position already
        shows them), in its numbering: drawn as solid numbered arrows, after ``lastmove``.
    :param lost_dice: dice the player who just moved could not play (a turn ended early): drawn
        crossed out in that player's half.
    :param show_pips: write both pip counts.
    :param names: ``{"white": ..., "black": ...}``; the players' names (escaped).
    :param caption: text under the board (escaped, wrapped).
    :param id_prefix: the root element's id and the prefix of every other id; by default a hash
        of all the inputs.
    :param numbers: write the point numbers.
    :raises RenderError: for a bad option (:class:`~backgammon_lab.errors.DiceError` for dice).
    """
    return render(read_options(
        position, orientation=orientation, size=size, theme=theme, dice=dice, dice_left=dice_left,
        named_double=named_double, reroll_due=reroll_due, selected=selected, targets=targets,
        highlight=highlight, arrows=arrows, lastmove=lastmove, show_pips=show_pips, names=names,
        caption=caption, id_prefix=id_prefix, numbers=numbers, played=played, lost_dice=lost_dice))


def render(spec: Spec) -> SvgBoard:
    """Draw the picture of checked options, layer by layer."""
    position, th = spec.position, spec.theme
    mover = position.turn
    lay = layout(position.variant, spec.orientation, spec.numbers)
    prefix = spec.id_prefix or spec.default_id()
    cap_lines = wrap(spec.caption, caption_width(lay.width)) if spec.caption else []
    height = lay.height + (len(cap_lines) * CAPTION_LINE + CAPTION_PAD if cap_lines else 0)
    attrs: dict[str, Any] = {"id": prefix, "viewBox": f"0 0 {fmt(lay.width)} {fmt(height)}",
                             "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
                             "class": "backgammon-board", "data-variant": position.variant.name,
                             "data-turn": mover, "data-orientation": spec.orientation}
    size = spec.size
    attrs["size"] = (None, None) if size is None else (str(size), str(round(size * height / lay.width)))
    dwg = svgwrite.Drawing(debug=False, **attrs)
    b = Builder(dwg)
    roll_text = f", {spec.dice.label}" if spec.dice.in_play else ""
    dwg.set_desc(
        title=f"{position.variant.title}: {spec.names[mover]} ({mover}) to move{roll_text}",
        desc=f"{position}\nposition: {position.to_string()}",
    )
    places = Places(lay, position)
    checkers, counts = checker_layer_xml(b, lay, th, position, spec.numbers)
    dwg.add(b.el("rect", {"width": "100%", "height": "100%", "fill": th.background}))
    dwg.add(b.el("g", {"id": f"{prefix}-board"}))  # filled with the cached board layer below
    dwg.add(b.group({"id": f"{prefix}-marks", "pointer-events": "none"},
                    marks_layer(b, places, th, mover, spec.highlight, spec.targets)))
    dwg.add(b.el("g", {"id": f"{prefix}-checkers"}))  # filled with the cached checker layer below
    dwg.add(b.group({"id": f"{prefix}-annotations", "pointer-events": "none"},
                    annotations_layer(b, places, th, mover, targets=spec.targets,
                                      selected=spec.selected, arrows=spec.arrows,
                                      lastmove=spec.lastmove, counts=counts, played=spec.played)))
    dwg.add(b.group({"id": f"{prefix}-dice"}, dice_layer(b, lay, th, mover, spec.dice, spec.reroll_due,
                                                         spec.lost)))
    dwg.add(b.group({"id": f"{prefix}-info"},
                    info_layer(b, lay, th, position, spec.names, spec.show_pips, cap_lines)))
    text = drawing_text(dwg)
    for layer, xml in (("board", board_layer_xml(lay, th, spec.numbers, mover)), ("checkers", checkers)):
        marker = f'<g id="{prefix}-{layer}" />'
        text = text.replace(marker, f'<g id="{prefix}-{layer}">{xml}</g>' if xml else marker, 1)
    return SvgBoard(text)
