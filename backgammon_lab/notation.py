"""Text forms: the JSON form, the position string, GNU Backgammon Position IDs, the text diagram,
and move notation (``24/18 13/11*``, ``bar/22``, ``6/off``, ``8/5(2)``).

Position string
---------------
``VARIANT/TURN/WHITE/BLACK``, for example the standard start::

    standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5

``TURN`` is ``w`` or ``b``. ``WHITE`` lists White's checkers in White's numbering and ``BLACK``
Black's checkers in Black's numbering (each player counts from its own exit), as comma-separated
items ``POINTxCOUNT`` or ``POINT`` (one checker), ``bar``/``barxCOUNT``, ``off``/``offxCOUNT``; ``-``
for none. Checkers not listed are borne off, unless ``off`` is given, in which case the counts
must add up exactly.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import NotationError, PositionError, VariantError
from .moves import coerce_step, parse_steps
from .position import BLACK, WHITE, Player, Position, Step
from .rules import parse_play
from .variants import Variant, find_variant

__all__ = [
    "position_from_json",
    "position_from_string",
    "position_to_string",
    "position_to_id",
    "position_from_id",
    "parse_position",
    "diagram",
    "format_play",
    "parse_play",
    "parse_steps",
    "coerce_step",
]

# ---------------------------------------------------------------------------------------------
# JSON form

_JSON_KEYS = {"variant", "points", "bar", "off", "turn"}


def position_from_json(data: str | dict[str, Any]) -> Position:
    """Parse the JSON form (dict or text); raise :class:`NotationError`/:class:`PositionError`."""
    src = data
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise NotationError(f"malformed JSON position {src!r}: {e.msg} at character {e.pos}") from None
    if not isinstance(data, dict):
        raise NotationError(f"a JSON position is an object with keys {sorted(_JSON_KEYS)}, not {src!r}")
    missing = _JSON_KEYS - set(data)
    extra = set(data) - _JSON_KEYS
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing {sorted(missing)}")
        if extra:
            parts.append(f"unknown {sorted(extra)}")
        raise NotationError(f"JSON position {src!r}: {', '.join(parts)}")
    try:
        return Position(data["variant"], data["points"], data["bar"], data["off"], data["turn"])
    except PositionError as e:
        raise PositionError(f"{e} (in {src!r})") from None


# ---------------------------------------------------------------------------------------------
# Position string

_ITEM = re.compile(r"^(bar|off|\d+)(?:x(\d+))?$")


def position_to_string(pos: Position) -> str:
    """The compact position string of ``pos`` (see the module docstring)."""
    v = pos.variant
    sides = []
    for who in (WHITE, BLACK):
        items = []
        i = pos.player_index(who)
        if pos.bar[i]:
            items.append("bar" + (f"x{pos.bar[i]}" if pos.bar[i] > 1 else ""))
        for p in range(v.points, 0, -1):
            c = pos.count(who, p)
            if c:
                items.append(f"{p}" + (f"x{c}" if c > 1 else ""))
        if pos.off[i]:
            items.append("off" + (f"x{pos.off[i]}" if pos.off[i] > 1 else ""))
        sides.append(",".join(items) or "-")
    opts = "".join(f";{k}={json.dumps(val)}" for k, val in v.option_values.items()
                   if val != v.options[k])
    return f"{v.name}{opts}/{pos.turn[0]}/{sides[0]}/{sides[1]}"


def _variant_from_field(field: str, text: str) -> Variant:
    name, *opts = field.split(";")
    options: dict[str, Any] = {}
    for o in opts:
        k, eq, val = o.partition("=")
        if not eq:
            raise NotationError(f"bad variant option {o!r} in {text!r}; write name=value")
        try:
            options[k.strip()] = json.loads(val)
        except json.JSONDecodeError:
            raise NotationError(f"bad variant option value {val!r} in {text!r}") from None
    try:
        return find_variant(name, **options)
    except VariantError as e:
        raise VariantError(f"{e} (in {text!r})") from None


def position_from_string(text: str) -> Position:
    """Parse a position string (see the module docstring)."""
    if not isinstance(text, str):
        raise NotationError(f"a position string must be text, not {text!r}")
    parts = text.strip().split("/")
    if len(parts) != 4:
        raise NotationError(
            f"position string {text!r} must have four fields VARIANT/TURN/WHITE/BLACK, "
            f"e.g. 'standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5'")
    vfield, tfield, wfield, bfield = (p.strip() for p in parts)
    v = _variant_from_field(vfield, text)
    turn = {"w": WHITE, "white": WHITE, "b": BLACK, "black": BLACK}.get(tfield.lower())
    if turn is None:
        raise NotationError(f"turn must be 'w' or 'b', not {tfield!r} in {text!r}")
    n = v.points
    pts = [0] * n
    bar = [0, 0]
    off = [0, 0]
    for idx, field in enumerate((wfield, bfield)):
        who = (WHITE, BLACK)[idx]
        sign = 1 if idx == 0 else -1
        total = 0
        off_given = False
        seen: set[str] = set()
        items = [] if field in ("-", "") else field.split(",")
        for item in items:
            m = _ITEM.match(item.strip().lower())
            if not m:
                raise NotationError(f"cannot read {item!r} in {text!r}; items look like 13x5, 6, bar, offx3")
            where, cnt = m.group(1), int(m.group(2) or 1)
            if where in seen:
                raise NotationError(f"{who}'s {where!r} is listed twice in {text!r}")
            seen.add(where)
            if cnt < 1:
                raise NotationError(f"count must be at least 1 in {item!r} of {text!r}")
            total += cnt
            if where == "bar":
                bar[idx] = cnt
            elif where == "off":
                off[idx] = cnt
                off_given = True
            else:
                p = int(where)
                if not 1 <= p <= n:
                    raise NotationError(f"{who} point {p} in {text!r} is not on a {n}-point board")
                wi = p - 1 if idx == 0 else n - p
                if pts[wi] * sign < 0:
                    raise PositionError(
                        f"{who}'s point {p} (White's point {wi + 1}) already holds the other colour "
                        f"in {text!r}: a point holds checkers of one colour only")
                pts[wi] += sign * cnt
        if total > v.checkers:
            raise PositionError(f"{who} has {total} checkers in {text!r}; {v.name} is played with {v.checkers}")
        if not off_given:
            off[idx] = v.checkers - total
    try:
        return Position(v, pts, tuple(bar), tuple(off), turn)
    except PositionError as e:
        raise PositionError(f"{e} (in {text!r})") from None


# ---------------------------------------------------------------------------------------------
# GNU Backgammon Position ID

#: Whose 25 slots come first in the Position ID bit string. The GNU Backgammon manual ("A technical
#: description of the Position ID") says the player on roll; GNU Backgammon itself (checked with
#: gnubg-nn's ``position_id`` on asymmetric boards, tests/test_peers.py) writes the player NOT on
#: roll first. We follow the program, so IDs pasted between the two tools mean the same position.
ID_ON_ROLL_FIRST = False


def _id_players(pos_turn: Player) -> tuple[Player, Player]:
    from .position import other

    return (pos_turn, other(pos_turn)) if ID_ON_ROLL_FIRST else (other(pos_turn), pos_turn)


def position_to_id(pos: Position) -> str:
    """GNU Backgammon's Position ID of ``pos`` (24-point variants: standard, Mexican)."""
    v = pos.variant
    if v.points != 24 or v.checkers > 15:
        raise NotationError(f"Position IDs exist for 24-point boards with up to 15 checkers, not {v.name}")
    bits: list[int] = []
    for who in _id_players(pos.turn):
        for p in range(1, 26):
            bits.extend([1] * pos.count(who, p))
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    key = bytearray(10)
    for k, bit in enumerate(bits):
        if bit:
            key[k // 8] |= 1 << (k % 8)
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


def position_from_id(pid: str, variant: str | Variant = "standard", turn: Player = WHITE) -> Position:
    """Parse a Position ID; ``turn`` names the player on roll (the ID does not record colours)."""
    v = find_variant(variant)
    if v.points != 24:
        raise NotationError(f"Position IDs exist for 24-point boards only, not {v.name} (ID {pid!r})")
    if turn not in (WHITE, BLACK):
        raise NotationError(f"turn must be 'white' or 'black', not {turn!r}")
    if not isinstance(pid, str) or not re.fullmatch(r"[A-Za-z0-9+/]{14}", pid.strip()):
        raise NotationError(f"a Position ID is 14 characters of base64 (like '4HPwATDgc/ABMA'), not {pid!r}")
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
        i = 0 if who == WHITE else 1
        for p in range(1, 25):
            c = cs[p - 1]
            if c:
                wi = p - 1 if i == 0 else 24 - p
                if pts[wi]:
                    raise PositionError(f"Position ID {pid!r} puts both colours on White's point {wi + 1}")
                pts[wi] = c if i == 0 else -c
        bar[i] = cs[24]
        on = sum(cs)
        if on > v.checkers:
            raise PositionError(f"Position ID {pid!r} gives {who} {on} checkers; {v.name} has {v.checkers}")
        off[i] = v.checkers - on
    try:
        return Position(v, pts, tuple(bar), tuple(off), turn)
    except PositionError as e:
        raise PositionError(f"{e} (Position ID {pid!r})") from None


def parse_position(text: str, variant: str | Variant | None = None) -> Position:
    """Read a position from JSON text, a file holding it, a position string, or a Position ID.

    A Position ID needs ``variant`` (the ID does not name one); White is taken as on roll unless
    the text is written ``ID:black``.
    """
    if not isinstance(text, str):
        raise NotationError(f"a position must be given as text, not {text!r}")
    t = text.strip()
    if t.startswith("{"):
        return position_from_json(t)
    if len(t) < 4096 and "\n" not in t:
        try:
            p = Path(t)
            if p.is_file():
                return parse_position(p.read_text(encoding="utf-8"), variant)
        except OSError:
            pass
    if t.count("/") == 3 and not re.fullmatch(r"[A-Za-z0-9+/]{14}(:\w+)?", t):
        return position_from_string(t)
    m = re.fullmatch(r"([A-Za-z0-9+/]{14})(?::(white|black))?", t)
    if m:
        if variant is None:
            if t.count("/") == 3:
                return position_from_string(t)
            raise NotationError(f"{text!r} looks like a Position ID: give the variant too (--variant)")
        return position_from_id(m.group(1), variant, m.group(2) or WHITE)  # type: ignore[arg-type]
    if t.count("/") == 3:
        return position_from_string(t)
    raise NotationError(
        f"cannot read a position from {text!r}: give JSON, a position string like "
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


def diagram(pos: Position) -> str:
    """A plain-text picture of the board: ``O`` is White, ``X`` is Black, White's numbering."""
    v = pos.variant
    n = v.points
    head = f"{v.title}: {pos.turn} to move   (O = White, X = Black; points in White's numbering)"
    lines = [head]
    rows = 5
    if n == 24:
        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))

        def label(ps: list[int]) -> str:
            return "".join(f"{p:>3}" for p in ps[:6]) + " |BAR|" + "".join(f"{p:>3}" for p in ps[6:])

        lines.append(" " + label(top))
        for r in range(rows):
            cells = [_cell(pos.points[p - 1], r, rows) for p in top]
            lines.append(" " + "".join(cells[:6]) + " |   |" + "".join(cells[6:]))
        lines.append(" " + " " * 18 + " |   |")
        for r in reversed(range(rows)):
            cells = [_cell(pos.points[p - 1], r, rows) for p in bottom]
            lines.append(" " + "".join(cells[:6]) + " |   |" + "".join(cells[6:]))
        lines.append(" " + label(bottom))
    else:
        lines.append(" White:" + "".join(f"{p:>3}" for p in range(1, n + 1)) + "   (White moves <-, exits left)")
        for r in range(rows):
            lines.append("       " + "".join(_cell(pos.points[p - 1], r, rows) for p in range(1, n + 1)))
        lines.append(" Black:" + "".join(f"{n + 1 - p:>3}" for p in range(1, n + 1)) + "   (Black moves ->, exits right)")
    lines.append(f" bar: White {pos.bar[0]}, Black {pos.bar[1]}   off: White {pos.off[0]}, Black {pos.off[1]}"
                 f"   pips: White {pos.pip_count(WHITE)}, Black {pos.pip_count(BLACK)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Move notation


def format_play(steps: Sequence[Step], points: int) -> str:
    """Move notation for the steps of a play: chains joined (``24/18/13``), repeats counted (``8/5(2)``)."""
    if not steps:
        return "no move"
    chains: list[list[Step]] = []
    for st in steps:
        for ch in reversed(chains):
            if ch[-1].end == st.start and st.start != 0:
                ch.append(st)  # the same checker goes on: 24/18/13
                break
            if st.end == ch[0].start and st.end != 0:
                ch.insert(0, st)  # a checker arrives where a chain began: written 13/8/2 either way
                break
        else:
            chains.append([st])
    texts = []
    for ch in sorted(chains, key=lambda c: (-c[0].start, c[-1].end)):
        first = ch[0].text(points).split("/")[0]
        rest = "/".join(("off" if s.end == 0 else str(s.end)) + ("*" if s.hit else "") for s in ch)
        texts.append(f"{first}/{rest}")
    out: list[str] = []
    counts: dict[str, int] = {}
    for t in texts:
        if t in counts:
            counts[t] += 1
        else:
            counts[t] = 1
            out.append(t)
    return " ".join(t + (f"({counts[t]})" if counts[t] > 1 else "") for t in out)
