"""The text forms of a position as plain parts: the JSON form, the position string, GNU
Backgammon's Position ID and the text diagram.

This module sits below :mod:`backgammon_lab.position`: it reads text into :data:`Parts` (variant,
points in White's numbering, bar, off, turn) and writes parts back to text, knowing nothing of the
:class:`~backgammon_lab.position.Position` class that validates and holds them. ``Position.from_json``
and its siblings build positions from these parts; :mod:`backgammon_lab.notation` gathers every
text form in one public place.

Every reader raises :class:`NotationError` (or :class:`PositionError`, :class:`VariantError`)
quoting the input, whatever the input: deeply nested JSON, numbers with thousands of digits,
bytes that are not UTF-8, objects of the wrong type.

Position string
---------------
``VARIANT/TURN/WHITE/BLACK``, for example the standard start::

    standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5

``TURN`` is ``w`` or ``b``. ``WHITE`` lists White's checkers in White's numbering and ``BLACK``
Black's checkers in Black's numbering (each player counts from its own exit), as comma-separated
items ``POINTxCOUNT`` or ``POINT`` (one checker), ``bar``/``barxCOUNT``, ``off``/``offxCOUNT``; ``-``
for none. Checkers not listed are borne off, unless ``off`` is given, in which case the counts
must add up exactly. Variant options follow the name: ``minigam;bar_first=true``.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

from .errors import NotationError, PositionError, VariantError, plain_message, show
from .variants import Variant, find_variant

__all__ = ["Parts", "json_parts", "string_parts", "id_parts", "parse_parts", "json_dict", "string_text",
           "id_text", "diagram_text", "load_json", "show"]

#: (variant, points in White's numbering, bar (white, black), off (white, black), turn)
Parts = tuple[Variant, list[int], tuple[int, int], tuple[int, int], str]

_WHITE, _BLACK = "white", "black"

#: Longest text any reader looks at (a position is far shorter; a file is read up to this much).
MAX_TEXT = 100_000


def load_json(text: str | bytes | bytearray, what: str) -> Any:
    """``json.loads`` that raises :class:`NotationError` quoting ``text`` for every malformed input:
    bad syntax, bytes that are not UTF-8, nesting too deep to read, numbers too long to convert."""
    src = text
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise NotationError(f"{what} {show(src)} is not UTF-8 text: {e.reason} at byte {e.start}") from None
    if len(text) > MAX_TEXT:
        raise NotationError(f"{what} {show(src)} is longer than {MAX_TEXT} characters")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise NotationError(f"malformed {what} {show(src)}: {e.msg} at character {e.pos}") from None
    except RecursionError:
        raise NotationError(f"malformed {what} {show(src)}: nested too deeply") from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise NotationError(f"malformed {what} {show(src)}: {plain_message(e)}") from None


# ---------------------------------------------------------------------------------------------
# JSON form

_JSON_KEYS = {"variant", "points", "bar", "off", "turn"}
_JSON_OPTIONAL = {"options"}


def json_parts(data: Any) -> tuple[Any, Any, Any, Any, Any]:
    """The fields of the JSON form (a dict, or its text as str or UTF-8 bytes), not yet validated.

    The variant (with the ``options`` object, when present) is looked up; points, bar, off and
    turn are returned as given for the :class:`Position` constructor to check.
    """
    src = data
    if isinstance(data, (str, bytes, bytearray)):
        data = load_json(data, "JSON position")
    if not isinstance(data, dict):
        raise NotationError(f"a JSON position is an object with keys {sorted(_JSON_KEYS)}, not {show(src)}")
    missing = _JSON_KEYS - set(data)
    extra = set(data) - _JSON_KEYS - _JSON_OPTIONAL
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing {sorted(missing)}")
        if extra:
            parts.append(f"unknown {sorted(map(str, extra))}")
        raise NotationError(f"JSON position {show(src)}: {', '.join(parts)}")
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise NotationError(f"JSON position {show(src)}: options must be an object of name: value, "
                            f"not {show(options)}")
    name = data["variant"]
    if not isinstance(name, (str, Variant)):
        raise NotationError(f"JSON position {show(src)}: variant must be a name, not {show(name)}")
    try:
        v = find_variant(name, **options)
    except VariantError as e:
        raise VariantError(f"{e} (in {show(src)})") from None
    return v, data["points"], data["bar"], data["off"], data["turn"]


def json_dict(v: Variant, points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int],
              turn: str) -> dict[str, Any]:
    """The JSON form as a dict; ``options`` only when some option differs from its default."""
    out: dict[str, Any] = {
        "variant": v.name,
        "points": list(points),
        "bar": {"white": bar[0], "black": bar[1]},
        "off": {"white": off[0], "black": off[1]},
        "turn": turn,
    }
    opts = _changed_options(v)
    if opts:
        out["options"] = opts
    return out


def _changed_options(v: Variant) -> dict[str, object]:
    return {k: val for k, val in v.option_values.items() if val != v.options[k]}


# ---------------------------------------------------------------------------------------------
# Position string

_ITEM = re.compile(r"^(bar|off|\d{1,3})(?:x(\d{1,3}))?$")


def string_text(v: Variant, points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int],
                turn: str) -> str:
    """The compact position string (see the module docstring)."""
    n = v.points
    sides = []
    for i in (0, 1):
        items = []
        if bar[i]:
            items.append("bar" + (f"x{bar[i]}" if bar[i] > 1 else ""))
        for p in range(n, 0, -1):
            c = max(points[p - 1], 0) if i == 0 else max(-points[v.flip(p) - 1], 0)
            if c:
                items.append(f"{p}" + (f"x{c}" if c > 1 else ""))
        if off[i]:
            items.append("off" + (f"x{off[i]}" if off[i] > 1 else ""))
        sides.append(",".join(items) or "-")
    opts = "".join(f";{k}={json.dumps(val)}" for k, val in _changed_options(v).items())
    return f"{v.name}{opts}/{turn[0]}/{sides[0]}/{sides[1]}"


def _variant_from_field(field: str, text: str) -> Variant:
    name, *opts = field.split(";")
    options: dict[str, Any] = {}
    for o in opts:
        k, eq, val = o.partition("=")
        if not eq:
            raise NotationError(f"bad variant option {show(o)} in {show(text)}; write name=value")
        try:
            options[k.strip()] = load_json(val, "variant option value")
        except NotationError:
            raise NotationError(f"bad variant option value {show(val)} in {show(text)}") from None
    try:
        return find_variant(name, **options)
    except VariantError as e:
        raise VariantError(f"{e} (in {show(text)})") from None


def string_parts(text: str) -> Parts:
    """Read a position string into parts (see the module docstring); counts not yet validated."""
    if not isinstance(text, str):
        raise NotationError(f"a position string must be text, not {show(text)}")
    if len(text) > MAX_TEXT:
        raise NotationError(f"position string {show(text)} is longer than {MAX_TEXT} characters")
    parts = text.strip().split("/")
    if len(parts) != 4:
        raise NotationError(
            f"position string {show(text)} must have four fields VARIANT/TURN/WHITE/BLACK, "
            f"e.g. 'standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5'")
    vfield, tfield, wfield, bfield = (p.strip() for p in parts)
    v = _variant_from_field(vfield, text)
    turn = {"w": _WHITE, "white": _WHITE, "b": _BLACK, "black": _BLACK}.get(tfield.lower())
    if turn is None:
        raise NotationError(f"turn must be 'w' or 'b', not {show(tfield)} in {show(text)}")
    n = v.points
    pts = [0] * n
    bar = [0, 0]
    off = [0, 0]
    for idx, field in enumerate((wfield, bfield)):
        who = (_WHITE, _BLACK)[idx]
        sign = 1 if idx == 0 else -1
        total = 0
        off_given = False
        seen: set[str] = set()
        items = [] if field in ("-", "") else field.split(",")
        for item in items:
            m = _ITEM.match(item.strip().lower())
            if not m:
                raise NotationError(f"cannot read {show(item, 60)} in {show(text)}; items look like 13x5, 6, "
                                    "bar, offx3")
            where, cnt = m.group(1), int(m.group(2) or 1)
            if where not in ("bar", "off"):
                where = str(int(where))  # one spelling per point: '06' is '6', '٦' is '6'
            if where in seen:
                raise NotationError(f"{who}'s {where!r} is listed twice in {show(text)}")
            seen.add(where)
            if cnt < 1:
                raise NotationError(f"count must be at least 1 in {item!r} of {show(text)}")
            total += cnt
            if where == "bar":
                bar[idx] = cnt
            elif where == "off":
                off[idx] = cnt
                off_given = True
            else:
                p = int(where)
                if not 1 <= p <= n:
                    raise NotationError(f"{who} point {p} in {show(text)} is not on a {n}-point board")
                wi = v.renumber(p, who) - 1
                if pts[wi] * sign < 0:
                    raise PositionError(
                        f"{who}'s point {p} (White's point {wi + 1}) already holds the other colour "
                        f"in {show(text)}: a point holds checkers of one colour only")
                pts[wi] += sign * cnt
        if total > v.checkers:
            raise PositionError(f"{who} has {total} checkers in {show(text)}; {v.name} is played with {v.checkers}")
        if not off_given:
            off[idx] = v.checkers - total
    return v, pts, (bar[0], bar[1]), (off[0], off[1]), turn


# ---------------------------------------------------------------------------------------------
# GNU Backgammon Position ID

#: Whose 25 slots come first in the Position ID bit string. The GNU Backgammon manual ("A technical
#: description of the Position ID") says the player on roll; GNU Backgammon itself (checked with
#: gnubg-nn's ``position_id`` on asymmetric boards, tests/test_peers.py) writes the player NOT on
#: roll first. We follow the program, so IDs pasted between the two tools mean the same position.
ID_ON_ROLL_FIRST = False


def _id_players(turn: str) -> tuple[str, str]:
    opp = _BLACK if turn == _WHITE else _WHITE
    return (turn, opp) if ID_ON_ROLL_FIRST else (opp, turn)


def id_text(v: Variant, points: tuple[int, ...], bar: tuple[int, int], turn: str) -> str:
    """GNU Backgammon's Position ID (24-point variants with up to 15 checkers)."""
    if v.points != 24 or v.checkers > 15:
        raise NotationError(f"Position IDs exist for 24-point boards with up to 15 checkers, not {v.name}")
    bits: list[int] = []
    for who in _id_players(turn):
        i = 0 if who == _WHITE else 1
        for p in range(1, 25):
            c = max(points[p - 1], 0) if i == 0 else max(-points[v.flip(p) - 1], 0)
            bits.extend([1] * c)
            bits.append(0)
        bits.extend([1] * bar[i])
        bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    key = bytearray(10)
    for k, bit in enumerate(bits):
        if bit:
            key[k // 8] |= 1 << (k % 8)
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


def id_parts(pid: str, variant: str | Variant = "standard", turn: str = _WHITE) -> Parts:
    """Read a Position ID into parts; ``turn`` names the player on roll (the ID records no colours)."""
    v = find_variant(variant)
    if v.points != 24:
        raise NotationError(f"Position IDs exist for 24-point boards only, not {v.name} (ID {show(pid)})")
    if turn not in (_WHITE, _BLACK):
        raise NotationError(f"turn must be 'white' or 'black', not {show(turn)}")
    if not isinstance(pid, str) or not re.fullmatch(r"[A-Za-z0-9+/]{14}", pid.strip(), re.ASCII):
        raise NotationError(f"a Position ID is 14 characters of base64 (like '4HPwATDgc/ABMA'), not {show(pid)}")
    try:
        key = base64.b64decode(pid.strip() + "==", validate=True)
    except ValueError:
        raise NotationError(f"Position ID {pid!r} is not valid base64") from None
    bits = [(key[k // 8] >> (k % 8)) & 1 for k in range(80)]
    counts: list[list[int]] = [[], []]
    side, run = 0, 0
    for bit in bits:
        if side > 1:
            if bit:
                raise NotationError(f"Position ID {pid!r} has checkers beyond both players' bars")
            continue
        if bit:
            run += 1
        else:
            counts[side].append(run)
            run = 0
            if len(counts[side]) == 25:
                side += 1
    if side < 2:
        raise NotationError(f"Position ID {pid!r} does not describe both players")
    pts = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    for who, cs in zip(_id_players(turn), counts, strict=True):
        i = 0 if who == _WHITE else 1
        for p in range(1, 25):
            c = cs[p - 1]
            if c:
                wi = v.renumber(p, who) - 1
                if pts[wi]:
                    raise PositionError(f"Position ID {pid!r} puts both colours on White's point {wi + 1}")
                pts[wi] = c if i == 0 else -c
        bar[i] = cs[24]
        on = sum(cs)
        if on > v.checkers:
            raise PositionError(f"Position ID {pid!r} gives {who} {on} checkers; {v.name} has {v.checkers}")
        off[i] = v.checkers - on
    return v, pts, (bar[0], bar[1]), (off[0], off[1]), turn


# ---------------------------------------------------------------------------------------------
# Any of them


def parse_parts(text: str, variant: str | Variant | None = None) -> tuple[Any, Any, Any, Any, Any]:
    """Read JSON text, a file holding a position, a position string, or a Position ID.

    A Position ID needs ``variant`` (the ID does not name one); White is taken as on roll unless
    the text is written ``ID:black``. A file is read once, as UTF-8: its content is parsed as
    text, never looked up as another file name.
    """
    return _parse_parts(text, variant, False)


def _parse_parts(text: str, variant: str | Variant | None, from_file: bool) -> tuple[Any, Any, Any, Any, Any]:
    if not isinstance(text, str):
        raise NotationError(f"a position must be given as text, not {show(text)}")
    t = text.strip()
    if t.startswith("{"):
        return json_parts(t)
    if not from_file and len(t) < 4096 and "\n" not in t:
        try:
            p = Path(t)
            is_file = p.is_file()
        except (OSError, ValueError):
            is_file = False
        if is_file:
            try:
                raw = p.read_bytes()[: MAX_TEXT + 1]
            except OSError as e:
                raise NotationError(f"cannot read the file {t!r}: {e.strerror}") from None
            try:
                content = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise NotationError(f"the file {t!r} is not UTF-8 text ({e.reason} at byte {e.start})") from None
            try:
                return _parse_parts(content, variant, True)
            except (NotationError, PositionError, VariantError) as e:
                raise type(e)(f"the file {t!r} holds no position: {e}") from None
    m = re.fullmatch(r"([A-Za-z0-9+/]{14})(?::(white|black))?", t, re.ASCII)
    if t.count("/") == 3 and not m:
        return string_parts(t)
    if m:
        if variant is None:
            if t.count("/") == 3:
                return string_parts(t)
            raise NotationError(f"{text!r} looks like a Position ID: give the variant too (--variant)")
        return id_parts(m.group(1), variant, m.group(2) or _WHITE)
    if t.count("/") == 3:
        return string_parts(t)
    raise NotationError(
        f"cannot read a position from {show(text)}: give JSON, a position string like "
        f"'standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5', a file, or a Position ID with a variant")


# ---------------------------------------------------------------------------------------------
# Text diagram


def _cell(n: int, row: int, rows: int) -> str:
    c = abs(n)
    if c == 0 or row >= min(c, rows):
        return "  ." if row == 0 and c == 0 else "   "
    mark = "O" if n > 0 else "X"
    if row == rows - 1 and c > rows:
        return f"{c:>3}"
    return f"  {mark}"


def diagram_text(v: Variant, points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int],
                 turn: str, pips: tuple[int, int]) -> str:
    """A plain-text picture of the board: ``O`` is White, ``X`` is Black, White's numbering;
    ``pips`` are the players' pip counts (White's, Black's), written under it."""
    n = v.points
    head = f"{v.title}: {turn} to move   (O = White, X = Black; points in White's numbering)"
    lines = [head]
    rows = 5
    if n == 24:
        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))

        def label(ps: list[int]) -> str:
            return "".join(f"{p:>3}" for p in ps[:6]) + " |BAR|" + "".join(f"{p:>3}" for p in ps[6:])

        lines.append(" " + label(top))
        for r in range(rows):
            cells = [_cell(points[p - 1], r, rows) for p in top]
            lines.append(" " + "".join(cells[:6]) + " |   |" + "".join(cells[6:]))
        lines.append(" " + " " * 18 + " |   |")
        for r in reversed(range(rows)):
            cells = [_cell(points[p - 1], r, rows) for p in bottom]
            lines.append(" " + "".join(cells[:6]) + " |   |" + "".join(cells[6:]))
        lines.append(" " + label(bottom))
    else:
        lines.append(" White:" + "".join(f"{p:>3}" for p in range(1, n + 1)) + "   (White moves <-, exits left)")
        for r in range(rows):
            lines.append("       " + "".join(_cell(points[p - 1], r, rows) for p in range(1, n + 1)))
        lines.append(" Black:" + "".join(f"{v.flip(p):>3}" for p in range(1, n + 1)) + "   (Black moves ->, exits right)")
    lines.append(f" bar: White {bar[0]}, Black {bar[1]}   off: White {off[0]}, Black {off[1]}"
                 f"   pips: White {pips[0]}, Black {pips[1]}")
    return "\n".join(lines)
