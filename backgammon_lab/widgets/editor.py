"""The position editor: build any position with the mouse, import and export its text forms.

Click a point to add a checker of the chosen colour (the colour toggle), or with the Remove tool
(or a shift-click) to take one away; click a bar or a tray to add or remove a checker there; drag a
checker to move it; set the bar and tray counts with the number fields, whose turn it is, and the
dice. The text box follows the position in the chosen format once something was exported or
imported (until other text is typed into it).

Checkers not placed yet
    While a position is being built, a player may have fewer checkers on its points, its bar and
    its tray than the variant has. Those checkers are *not placed*; they count as borne off, the
    rule of the position string ("checkers not listed are borne off"). So the editor always holds a
    complete, valid :class:`~backgammon_lab.position.Position` (the picture draws the unplaced
    checkers in the tray, and the caption says how many there are), while the tray count fields
    keep the number of checkers placed in the tray on purpose. Adding a checker takes an unplaced
    one, else one from the tray; when every checker is on a point or a bar, it is refused.

Refusals
    An edit that would make an impossible position is refused with the reason (too many checkers,
    both colours on a point, a sixth checker on a Mexican point, dice that are not dice, text that
    does not parse), and the last valid position is kept.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from ..errors import BackgammonError
from ..matchfiles.xgid import position_from_xgid, xgid
from ..position import BLACK, WHITE, Player, Position, Roll
from ..variants import Variant, find_variant
from .board import BoardWidget
from .game import _variant_options

__all__ = ["PositionEditor", "FORMATS"]

#: Text forms the editor imports and exports.
FORMATS = (("JSON", "json"), ("Position string", "string"), ("Position ID", "id"), ("XGID", "xgid"))

_Counts = tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]


def _idx(player: Player) -> int:
    return 0 if player == WHITE else 1


class PositionEditor(w.VBox):
    """Set up a position by clicking; export it as JSON, a position string or a Position ID.

    >>> ed = PositionEditor(variant="minigam")
    >>> ed.bar_white.value = 6                # two White checkers unplaced (counted as off)
    >>> ed.board.click("point", 3); ed.position.to_string()
    'minigam/w/barx6,3,off/barx8'

    ``editor.position`` is the position built (unplaced checkers counted as off), ``editor.dice``
    the dice set (a :class:`~backgammon_lab.position.Roll` or None); :meth:`to_game` starts a
    :class:`~backgammon_lab.game.Game` from them.
    """

    def __init__(self, position: Position | str | None = None, *, variant: str = "mexican",
                 dice: Any = None, **board_options: Any) -> None:
        super().__init__()
        if isinstance(position, str):
            position = Position.parse(position, variant)
        pos = position if position is not None else Position.start(variant)
        self._variant: Variant = pos.variant
        self._points: tuple[int, ...] = pos.points
        self._bar: tuple[int, int] = pos.bar
        self._tray: tuple[int, int] = pos.off
        self._turn: Player = pos.turn
        self._dice: Roll | None = Roll.parse(dice) if dice is not None else None
        self._quiet = False
        self._pickup: dict[str, Any] | None = None  # where a dragged checker was picked up
        self._synced: str | None = None  # the text box's content when the editor last wrote it
        self._synced_pos: Position | None = None  # the position written then
        self.board = BoardWidget(pos, **board_options)
        self.board.on_click(self._on_board_click)

        label = {"description_width": "70px"}
        toggle = {"description_width": "70px", "button_width": "76px"}
        keep = "0 0 auto"  # controls keep their width when space is short
        self.variant_choice = w.Dropdown(options=_variant_options(), value=self._variant.name,
                                         description="Variant", style=label,
                                         layout=w.Layout(width="290px", flex=keep))
        self.colour = w.ToggleButtons(options=[("White", WHITE), ("Black", BLACK)], value=WHITE,
                                      description="Checker", tooltip="colour of the checkers added", style=toggle)
        self.tool = w.ToggleButtons(options=[("Add", "add"), ("Remove", "remove")], value="add",
                                    description="Click to", tooltip="shift-click also removes", style=toggle)
        self.turn = w.ToggleButtons(options=[("White", WHITE), ("Black", BLACK)], value=self._turn,
                                    description="To move", style=toggle)
        self.dice_text = w.Text(value=str(self._dice) if self._dice else "", description="Dice",
                                placeholder="e.g. 3-1 (empty: no dice)", continuous_update=False,
                                style=label, layout=w.Layout(width="290px", flex=keep))
        small = w.Layout(width="160px", flex=keep)
        # Plain number fields: a count the variant cannot hold is refused in words, quoting it
        # (a bounded field would silently clip it to its maximum first).
        self.bar_white = w.IntText(description="White bar", style=label, layout=small)
        self.bar_black = w.IntText(description="Black bar", style=label, layout=small)
        self.tray_white = w.IntText(description="White tray", style=label, layout=small)
        self.tray_black = w.IntText(description="Black tray", style=label, layout=small)
        self.start_button = w.Button(description="Start position", layout=w.Layout(width="auto", flex=keep))
        self.clear_button = w.Button(description="Clear board", layout=w.Layout(width="auto", flex=keep),
                                     tooltip="every checker unplaced (counted as off)")
        self.format = w.Dropdown(options=list(FORMATS), value="string", description="Format",
                                 style=label, layout=w.Layout(width="290px", flex=keep))
        self.text = w.Textarea(value="", placeholder="position text to import, or press Export",
                               layout=w.Layout(width="520px", height="64px"))
        self.import_button = w.Button(description="Import", layout=w.Layout(width="auto", flex=keep))
        self.export_button = w.Button(description="Export", layout=w.Layout(width="auto", flex=keep))
        self.status = w.HTML()
        #: A note right under the text box: it shows an earlier position than the board.
        self.text_note = w.HTML()

        wrap = w.Layout(flex_flow="row wrap")
        controls = w.VBox([
            self.variant_choice, w.HBox([self.start_button, self.clear_button], layout=wrap),
            self.colour, self.tool, self.turn, self.dice_text,
            w.HBox([self.bar_white, self.bar_black], layout=wrap),
            w.HBox([self.tray_white, self.tray_black], layout=wrap),
            self.status,
        ], layout=w.Layout(width="350px", min_width="350px", padding="0 0 0 12px", overflow="hidden"))
        io = w.VBox([w.HBox([self.format, self.import_button, self.export_button], layout=wrap), self.text,
                     self.text_note])
        self.children = [w.HBox([self.board, controls], layout=w.Layout(flex_flow="row wrap",
                                                                          align_items="flex-start")), io]

        self.variant_choice.observe(self._on_variant, names="value")
        self.turn.observe(self._on_turn, names="value")
        self.dice_text.observe(self._on_dice, names="value")
        self.format.observe(self._on_format, names="value")
        self.text.observe(lambda _c: self._note_text(), names="value")
        for field, place, who in ((self.bar_white, "bar", WHITE), (self.bar_black, "bar", BLACK),
                                  (self.tray_white, "tray", WHITE), (self.tray_black, "tray", BLACK)):
            field.observe(lambda c, place=place, who=who: self._on_count(place, who, c), names="value")
        self.start_button.on_click(lambda _b: self.load(Position.start(self._variant, self._turn)))
        self.clear_button.on_click(lambda _b: self._clear())
        self.import_button.on_click(lambda _b: self.import_text())
        self.export_button.on_click(lambda _b: self.export_text())
        self._refresh()

    # -- the position --------------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        """The variant being edited."""
        return self._variant

    def unplaced(self, player: Player) -> int:
        """Checkers of ``player`` not on a point, its bar or its tray (they count as off)."""
        return self._unplaced((self._points, self._bar, self._tray), player)

    def _unplaced(self, counts: _Counts, player: Player) -> int:
        pts, bar, tray = counts
        i = _idx(player)
        on = sum(x for x in pts if x > 0) if i == 0 else -sum(x for x in pts if x < 0)
        return self._variant.checkers - on - bar[i] - tray[i]

    @property
    def position(self) -> Position:
        """The position built: a valid :class:`Position`, unplaced checkers counted as off."""
        off = (self._tray[0] + self.unplaced(WHITE), self._tray[1] + self.unplaced(BLACK))
        return Position(self._variant, self._points, self._bar, off, self._turn)

    @position.setter
    def position(self, position: Position) -> None:
        self.load(position)

    @property
    def dice(self) -> Roll | None:
        """The dice set in the editor, or None."""
        return self._dice

    def load(self, position: Position) -> None:
        """Show ``position`` (its borne-off checkers go into the trays)."""
        self._variant = position.variant
        self._points, self._bar, self._tray = position.points, position.bar, position.off
        self._turn = position.turn
        self._refresh()

    def to_game(self) -> Any:
        """A :class:`~backgammon_lab.game.Game` starting here (with the dice, if set)."""
        from ..game import Game

        return Game(self._variant, position=self.position, dice=self._dice)

    def _why_not(self, counts: _Counts) -> str | None:
        """The reason ``counts`` cannot be a position being built, or None when it can."""
        v = self._variant
        pts, bar, tray = counts
        for who in (WHITE, BLACK):
            i = _idx(who)
            if bar[i] < 0 or tray[i] < 0:
                return "counts cannot be negative"
            left = self._unplaced(counts, who)
            if left < 0:
                on = v.checkers - left - bar[i] - tray[i]
                return (f"too many checkers: {who.capitalize()} would have {on} on points, {bar[i]} on "
                        f"the bar and {tray[i]} in the tray, {v.checkers - left} in all, but {v.title} "
                        f"is played with {v.checkers}")
        cap = v.stacking_cap
        if cap is not None:
            for q, x in enumerate(pts, 1):
                if abs(x) > cap:
                    who = WHITE if x > 0 else BLACK
                    return (f"a {_ordinal(abs(x))} checker on a point: {v.title} allows at most {cap} "
                            f"on a point ({who.capitalize()}'s point {v.renumber(q, who)})")
        return None

    def _try(self, counts: _Counts, done: str) -> bool:
        """Accept ``counts`` if they make a possible position, else refuse with the reason."""
        why = self._why_not(counts)
        if why is not None:
            self.board.message = f"Refused: {why}. The last valid position is kept."
            self._refresh(keep_message=True)
            return False
        self._points, self._bar, self._tray = counts
        self.board.message = done
        self._refresh(keep_message=True)
        return True

    # -- edits ---------------------------------------------------------------------------------
    def _take(self, counts: _Counts, who: Player) -> tuple[_Counts, str]:
        """Counts after finding a checker of ``who`` to place: unplaced first, then the tray."""
        pts, bar, tray = counts
        if self._unplaced(counts, who) > 0:
            return counts, ""
        i = _idx(who)
        if tray[i] > 0:
            t = list(tray)
            t[i] -= 1
            return (pts, bar, (t[0], t[1])), " (taken from the tray)"
        return counts, ""

    def _on_board_click(self, click: dict[str, Any]) -> bool:
        kind, value = click["kind"], click["value"]
        if click.get("pickup"):  # a drag starts: the checker moves where it is dropped
            self._pickup = click
            self.board.message = "Drop the checker where it goes."
            return True
        if click.get("drag"):
            src, self._pickup = self._pickup, None
            if src is not None:
                self._move(src, click)
            return True
        remove = click.get("shift", False) or self.tool.value == "remove"
        if kind == "point":
            pts = list(self._points)
            x = pts[value - 1]
            black_q = self._variant.flip(value)
            if remove:
                if x == 0:
                    self.board.message = f"There is no checker on White's point {value} to remove."
                    return True
                pts[value - 1] = x - 1 if x > 0 else x + 1
                who = WHITE if x > 0 else BLACK
                self._try((tuple(pts), self._bar, self._tray),
                          f"Removed a {who} checker from White's point {value} (Black's {black_q}).")
                return True
            who = self.colour.value
            sign = 1 if who == WHITE else -1
            if x * sign < 0:
                self.board.message = (f"Refused: both colours on a point: White's point {value} (Black's "
                                      f"{black_q}) holds {'Black' if x < 0 else 'White'}'s checkers. "
                                      "Remove them first. The last valid position is kept.")
                return True
            pts[value - 1] = x + sign
            new, note = self._take((tuple(pts), self._bar, self._tray), who)
            self._try(new, f"Added a {who} checker on White's point {value} (Black's {black_q}){note}.")
            return True
        if kind in ("bar", "off"):
            who = value
            i = _idx(who)
            place = "bar" if kind == "bar" else "tray"
            bar, tray = list(self._bar), list(self._tray)
            target = bar if kind == "bar" else tray
            if remove:
                if target[i] == 0:
                    self.board.message = f"{who.capitalize()}'s {place} is empty."
                    return True
                target[i] -= 1
                self._try((self._points, (bar[0], bar[1]), (tray[0], tray[1])),
                          f"Removed a {who} checker from its {place}.")
                return True
            target[i] += 1
            counts: _Counts = (self._points, (bar[0], bar[1]), (tray[0], tray[1]))
            note = ""
            if kind == "bar":
                counts, note = self._take(counts, who)
            self._try(counts, f"Added a {who} checker to its {place}{note}.")
            return True
        if kind == "die":
            self.board.message = "Set the dice in the Dice field."
            return True
        self.board.message = ""
        return True

    def _move(self, src: dict[str, Any], dst: dict[str, Any]) -> None:
        """Move one checker from the place ``src`` to ``dst`` (clicks in White's numbering), or refuse."""
        v = self._variant
        pts, bar, tray = list(self._points), list(self._bar), list(self._tray)

        def where(c: dict[str, Any]) -> str:
            if c["kind"] == "point":
                return f"White's point {c['value']} (Black's {v.flip(c['value'])})"
            return f"{str(c['value']).capitalize()}'s {'bar' if c['kind'] == 'bar' else 'tray'}"

        if src["kind"] == "point":
            x = pts[src["value"] - 1]
            who: Player = WHITE if x > 0 else BLACK
            pts[src["value"] - 1] = x - 1 if x > 0 else x + 1
        elif src["kind"] in ("bar", "off"):
            who = WHITE if src["value"] == WHITE else BLACK
            (bar if src["kind"] == "bar" else tray)[_idx(who)] -= 1
        else:
            return
        if dst["kind"] == src["kind"] and dst["value"] == src["value"]:
            self.board.message = "The checker was dropped where it was."
            return
        if dst["kind"] == "point":
            x = pts[dst["value"] - 1]
            sign = 1 if who == WHITE else -1
            if x * sign < 0:
                self.board.message = (f"Refused: both colours on a point: {where(dst)} holds the other colour's "
                                      "checkers. The last valid position is kept.")
                return
            pts[dst["value"] - 1] = x + sign
        elif dst["kind"] in ("bar", "off") and dst["value"] == who:
            (bar if dst["kind"] == "bar" else tray)[_idx(who)] += 1
        else:
            self.board.message = f"Refused: a {who} checker cannot go to {where(dst)}. The last valid position is kept."
            return
        self._try((tuple(pts), (bar[0], bar[1]), (tray[0], tray[1])),
                  f"Moved a {who} checker from {where(src)} to {where(dst)}.")

    def _on_format(self, change: dict[str, Any]) -> None:
        if self._synced is not None and self.text.value == self._synced and self._exported_now():
            self.export_text()  # the box shows the position in the chosen format

    def _exported_now(self) -> bool:
        """True when the text box holds the editor's export of the position shown now."""
        return self._synced is not None and self.text.value == self._synced and self._synced_pos == self.position

    def _on_count(self, place: str, who: Player, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        value = change["new"]
        i = _idx(who)
        bar, tray = list(self._bar), list(self._tray)
        (bar if place == "bar" else tray)[i] = value
        counts: _Counts = (self._points, (bar[0], bar[1]), (tray[0], tray[1]))
        why = self._why_not(counts)
        if why is not None:  # quote the count asked for: the field goes back to the last valid one
            self.board.message = (f"Refused: {who.capitalize()} {place} = {value}: {why}. "
                                  "The last valid position is kept.")
            self._refresh(keep_message=True)
            return
        self._try(counts, f"{who.capitalize()} has {value} checker{'s' if value != 1 else ''} on its {place}.")

    def _on_turn(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        self._turn = change["new"]
        self.board.message = f"{self._turn.capitalize()} to move."
        self._refresh(keep_message=True)

    def _on_dice(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        text = str(change["new"]).strip()
        if not text:
            self._dice = None
            self.board.message = "No dice."
        else:
            try:
                self._dice = Roll.parse(text)
            except ValueError as e:  # BackgammonError, or a stray ValueError of odd digits: shown, never raised
                why = f"{e}" if isinstance(e, BackgammonError) else f"cannot read the dice {text[:40]!r}"
                self.board.message = f"Refused: {why}. The dice stay {self._dice or 'unset'}."
            else:
                self.board.message = f"Dice {self._dice}."
        self._refresh(keep_message=True)

    def _on_variant(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        v = find_variant(change["new"])
        self.load(Position.start(v, self._turn))
        self.board.message = f"{v.title}: the starting position."

    def _clear(self) -> None:
        z = (0, 0)
        self._points, self._bar, self._tray = (0,) * self._variant.points, z, z
        self.board.message = "Board cleared: every checker is unplaced (counted as off)."
        self._refresh(keep_message=True)

    # -- text forms ----------------------------------------------------------------------------
    def _note_text(self) -> None:
        """The note under the text box when it shows a position the board has left."""
        stale = self._synced is not None and self.text.value == self._synced and self._synced_pos != self.position
        self.text_note.value = ("<div data-role='stale' style='white-space:normal;line-height:1.4'>The text box "
                                "above shows an earlier position: press Export to write this one.</div>"
                                if stale else "")

    def export_text(self, fmt: str | None = None) -> str:
        """Write the position in ``fmt`` (default: the chosen format) into the text box; return it."""
        fmt = fmt or str(self.format.value)
        pos = self.position
        try:
            out = {"json": pos.to_json_text, "string": pos.to_string, "id": pos.position_id,
                   "xgid": lambda: xgid(pos)}[fmt]()
        except KeyError:
            self.board.message = f"Unknown format {fmt!r}."
            return ""
        except BackgammonError as e:
            self.board.message = f"Cannot export: {e}."
            return ""
        self.text.value = self._synced = out
        self._synced_pos = pos
        self._note_text()
        self.board.message = f"Exported as {dict((v, k) for k, v in FORMATS)[fmt]}."
        return out

    def import_text(self, text: str | None = None, fmt: str | None = None) -> bool:
        """Read a position from ``text`` (default: the text box) in ``fmt``; False when refused.

        A Position ID is read for the current variant with the current side to move.
        """
        fmt = fmt or str(self.format.value)
        src = self.text.value if text is None else text
        try:
            if fmt == "json":
                pos = Position.from_json(src)
            elif fmt == "string":
                pos = Position.from_string(src)
            elif fmt == "id":
                pos = Position.from_position_id(src.strip(), self._variant, self._turn)
            elif fmt == "xgid":  # eXtreme Gammon's XGID: a 24-point board (the current variant if it has one)
                pos = position_from_xgid(src, self._variant if self._variant.points == 24 else "standard")
            else:
                raise BackgammonError(f"unknown format {fmt!r}")
        except BackgammonError as e:
            self.board.message = f"Refused: {e}. The last valid position is kept."
            return False
        before = self._variant
        self.load(pos)
        if text is None:  # the box shows what was imported, written as the editor writes it
            self.export_text()
        note = ""
        if type(pos.variant) is not type(before):
            note = f" The variant is now {pos.variant.title} (it was {before.title})."
        self.board.message = f"Imported a {pos.variant.title} position.{note}"
        self._refresh(keep_message=True)
        return True

    # -- display -------------------------------------------------------------------------------
    def _refresh(self, keep_message: bool = False) -> None:
        msg = self.board.message
        pos = self.position
        v = self._variant
        self._quiet = True
        try:
            self.variant_choice.value = v.name
            self.turn.value = self._turn
            self.bar_white.value, self.bar_black.value = self._bar
            self.tray_white.value, self.tray_black.value = self._tray
            self.dice_text.value = str(self._dice) if self._dice else ""
        finally:
            self._quiet = False
        left = {who: self.unplaced(who) for who in (WHITE, BLACK)}
        caption = None
        if any(left.values()):
            caption = "Not placed (counted as off): " + ", ".join(
                f"{who.capitalize()} {left[who]}" for who in (WHITE, BLACK) if left[who])
        self.board.show(pos, dice=self._dice.dice if self._dice else None, caption=caption)

        rows = []
        for who in (WHITE, BLACK):
            i = _idx(who)
            on = sum(pos.count(who, p) for p in range(1, v.points + 1))
            rows.append(f"<tr><td>{who.capitalize()}</td><td>{on}</td><td>{self._bar[i]}</td>"
                        f"<td>{self._tray[i]}</td><td>{left[who]}</td><td>{pos.pip_count(who)}</td></tr>")
        self.status.value = ("<table data-role='counts'><tr><th></th><th>points</th><th>bar</th><th>tray</th>"
                             "<th>not placed</th><th>pips</th></tr>" + "".join(rows) + "</table>"
                             "<div style='white-space:normal;overflow-wrap:anywhere;line-height:1.4'>"
                             f"<code data-role='position'>{html.escape(pos.to_string())}</code></div>")
        self._note_text()
        self.board.message = msg if keep_message else ""

    def __repr__(self) -> str:
        dice = str(self._dice) if self._dice else "none"
        return (f"<PositionEditor {self.position.to_string()} dice={dice} colour={self.colour.value} "
                f"tool={self.tool.value}>")


def _ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh",
            8: "eighth", 9: "ninth", 10: "tenth"}.get(k, f"{k}th")
