"""Small tables for notebooks and terminals: :class:`Table` shows itself as HTML and as text.

Every analysis function that answers with several numbers returns one (or has a ``table()``
method). The output is deterministic: the same data always gives the same characters.

>>> t = Table(["roll", "chance"], [["6-6", "1/36"], ["6-5", "2/36"]], title="Rolls")
>>> print(t)
Rolls
roll  chance
----  ------
6-6   1/36
6-5   2/36
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from ..errors import AnalysisError

__all__ = ["Table", "fmt_prob", "fmt_fraction"]


def fmt_prob(p: float | Fraction | None, digits: int = 1) -> str:
    """A probability as a percentage, e.g. ``30.6%`` (``-`` for None)."""
    if p is None:
        return "-"
    return f"{float(p) * 100:.{digits}f}%"


def fmt_fraction(p: Fraction | float) -> str:
    """A probability out of 36 when it is one (``11/36``), else as a reduced fraction or percent."""
    if isinstance(p, Fraction):
        n36 = p * 36
        if n36.denominator == 1:
            return f"{n36.numerator}/36"
        if p.denominator <= 46656:
            return f"{p.numerator}/{p.denominator}"
    return fmt_prob(p)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, Fraction):
        return fmt_fraction(value)
    if value is None:
        return "-"
    return str(value)


class Table:
    """A titled table of rows; ``str()`` gives aligned text, ``_repr_html_`` an HTML table.

    ``rows`` hold any values: floats print with four decimals, Fractions out of 36 when they can,
    everything else with ``str``. ``data`` (optional) keeps the raw values behind each row, for
    :meth:`to_dicts`.
    """

    def __init__(self, columns: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str = "",
                 notes: str = "", align: Sequence[str] | None = None) -> None:
        self.columns = list(columns)
        self.rows = [list(r) for r in rows]
        for r in self.rows:
            if len(r) != len(self.columns):
                raise AnalysisError(f"row {r!r} has {len(r)} cells for {len(self.columns)} columns")
        self.title = title
        self.notes = notes
        self.align = list(align) if align is not None else ["left"] * len(self.columns)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[list[Any]]:
        return iter(self.rows)

    def __getitem__(self, i: int) -> list[Any]:
        return self.rows[i]

    def column(self, name: str) -> list[Any]:
        """The values of one column."""
        j = self.columns.index(name)
        return [r[j] for r in self.rows]

    def to_dicts(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column name (raw values)."""
        return [dict(zip(self.columns, r, strict=True)) for r in self.rows]

    def _text_cells(self) -> list[list[str]]:
        return [[_cell(v) for v in r] for r in self.rows]

    def __str__(self) -> str:
        cells = self._text_cells()
        widths = [max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(self.columns)]

        def line(values: Sequence[str]) -> str:
            out = []
            for j, v in enumerate(values):
                out.append(v.rjust(widths[j]) if self.align[j] == "right" else v.ljust(widths[j]))
            return "  ".join(out).rstrip()

        lines = [self.title] if self.title else []
        lines.append(line(self.columns))
        lines.append(line(["-" * w for w in widths]))
        lines.extend(line(r) for r in cells)
        if self.notes:
            lines.append(self.notes)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Table {self.title or 'untitled'!r}: {len(self.rows)} rows x {len(self.columns)} columns>"

    def _repr_html_(self) -> str:
        esc = html.escape
        style = ' style="text-align:right"'
        parts = ['<table class="backgammon-lab-table">']
        if self.title:
            parts.append(f"<caption>{esc(self.title)}</caption>")
        parts.append("<thead><tr>" + "".join(
            f"<th{style if a == 'right' else ''}>{esc(c)}</th>" for c, a in zip(self.columns, self.align, strict=True)
        ) + "</tr></thead>")
        parts.append("<tbody>")
        for r in self._text_cells():
            parts.append("<tr>" + "".join(
                f"<td{style if a == 'right' else ''}>{esc(v)}</td>" for v, a in zip(r, self.align, strict=True)
            ) + "</tr>")
        parts.append("</tbody></table>")
        if self.notes:
            parts.append(f"<p><small>{esc(self.notes)}</small></p>")
        return "".join(parts)
