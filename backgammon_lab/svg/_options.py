"""The options of :func:`~backgammon_lab.svg.board` read into plain values, each checked once.

Every reader raises the project's own errors (:class:`~backgammon_lab.errors.RenderError`, or
:class:`~backgammon_lab.errors.DiceError` for dice), quoting the value it was given. Nothing here
knows a game rule: how many dice a roll puts in play comes from the variant's ``dice_orders`` hook,
and what the dice show after named doubles is what the caller says.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..errors import BackgammonError, DiceError, RenderError, whole_number
from ..moves import parse_steps
from ..position import BLACK, OFF, WHITE, Play, Player, Position, Roll, Step, other
from ..variants import Variant
from ._geometry import layout
from ._theme import THEMES, Theme
from ._xml import clean

#: The largest width in pixels (a picture this wide is already far larger than any screen).
MAX_SIZE = 100_000

ID_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")

#: A step to draw: the player whose numbering it uses, its start, its end and its group (the
#: play it belongs to: each Play or move text given is a group, steps given one by one share one).
Arrow = tuple[Player, int, int, int]


def quote(value: object, limit: int = 80) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters (and safe for
    integers too long to write out)."""
    if isinstance(value, int) and value.bit_length() > 256:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # any object may be passed: its repr must not hide the error
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def whole(x: object, lo: int | None = None, hi: int | None = None) -> int | None:
    """``x`` as a whole number from ``lo`` to ``hi`` (``errors.whole_number`` decides), or None."""
    try:
        return whole_number(x, "", lo, hi)
    except BackgammonError:
        return None


def read_orientation(orientation: object) -> Player:
    if orientation == WHITE or orientation == BLACK:
        return WHITE if orientation == WHITE else BLACK
    raise RenderError(f"orientation is 'white' or 'black', not {quote(orientation)}")


def read_theme(theme: object) -> Theme:
    if isinstance(theme, Theme):
        return theme
    if isinstance(theme, str) and theme in THEMES:
        return THEMES[theme]
    raise RenderError(f"unknown theme {quote(theme)}; themes: {', '.join(THEMES)} or a Theme")


def read_size(size: object) -> int | None:
    if size is None:
        return None
    n = whole(size, 1, MAX_SIZE)
    if n is not None:
        return n
    raise RenderError(f"size is a number of pixels from 1 to {MAX_SIZE}, not {quote(size)}")


def read_id_prefix(id_prefix: object) -> str | None:
    if id_prefix is None or (isinstance(id_prefix, str) and ID_OK.fullmatch(id_prefix)):
        return id_prefix
    raise RenderError(f"id_prefix must be a letter or '_' then letters, digits, '_', '-' "
                      f"or '.' (at most 64), not {quote(id_prefix)}")


def read_names(names: object, limit: int) -> dict[Player, str]:
    """The two names to write, cut to ``limit`` characters; "White" and "Black" by default."""
    out: dict[Player, str] = {WHITE: "White", BLACK: "Black"}
    if names is None:
        return out
    if not isinstance(names, Mapping):
        raise RenderError(f"names is a mapping like {{'white': 'Ada', 'black': 'Ben'}}, not {quote(names)}")
    for k, val in names.items():
        if k != WHITE and k != BLACK:
            raise RenderError(f"names: keys are 'white' and 'black', not {quote(k)}")
        if val is not None:
            who: Player = WHITE if k == WHITE else BLACK
            out[who] = clean(val, limit) or out[who]
    return out


def read_points(items: object, v: Variant, what: str) -> tuple[int, ...]:
    """Points in the mover's numbering (``OFF`` = tray, ``v.bar`` = bar), sorted, each once."""
    if items is None:
        return ()
    if whole(items) is not None:
        items = (items,)
    elif isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise RenderError(f"{what}: expected a point number or a list of them, not {quote(items)}")
    out: set[int] = set()
    for x in items:
        point = whole(x, OFF, v.bar)
        if point is None:
            raise RenderError(f"{what}: {quote(x)} is not a point of a {v.points}-point board "
                              f"(1..{v.points}, {v.bar} = bar, {OFF} = off)")
        out.add(point)
    return tuple(sorted(out))


def _parse_move_text(text: str, v: Variant, what: str) -> list[tuple[int, int]]:
    try:
        return parse_steps(text, v.points)
    except BackgammonError:
        raise
    except (TypeError, ValueError, OverflowError) as e:  # the core's parser should not let these out
        raise RenderError(f"{what}: cannot read the move {quote(text)}: {e}") from None


def read_steps(items: object, player: Player, v: Variant, what: str) -> tuple[Arrow, ...]:
    """Arrows or a last play as ``(player, start, end, group)`` in that player's numbering;
    ``player`` numbers the steps given without a Play. Each Play or move text is a group of its
    own; consecutive Steps or pairs share one."""
    if items is None:
        return ()
    if isinstance(items, (Play, Step, str)):
        items = (items,)
    elif isinstance(items, bytes) or not isinstance(items, Iterable):
        raise RenderError(f"{what}: expected Steps, Plays, move text or (start, end) pairs, "
                          f"not {quote(items)}")
    out: list[Arrow] = []
    group, loose = -1, False  # loose: the current group holds steps given one by one
    for it in items:
        if isinstance(it, (Play, str)):
            group, loose = group + 1, False
            if isinstance(it, Play):
                out.extend((it.position.turn, s.start, s.end, group) for s in it.steps)
            else:
                out.extend((player, a, b, group) for a, b in _parse_move_text(it, v, what))
            continue
        if not loose:
            group, loose = group + 1, True
        if isinstance(it, Step):
            out.append((player, it.start, it.end, group))
            continue
        try:
            a, b = it[0], it[1]  # type: ignore[index]
        except (TypeError, IndexError, KeyError):
            raise RenderError(f"{what}: {quote(it)} is not a Step, a Play, move text or a "
                              "(start, end) pair") from None
        start, end = whole(a), whole(b)
        if start is None or end is None:
            raise RenderError(f"{what}: {quote(it)} must hold integer points")
        out.append((player, start, end, group))
    for _who, a, b, _g in out:
        if not (1 <= a <= v.bar and OFF <= b <= v.points):
            raise RenderError(f"{what}: step {a}/{b} is not on a {v.points}-point board "
                              f"(starts 1..{v.bar} with {v.bar} = bar, ends {v.points}..0 with {OFF} = off)")
    return tuple(out)


def player_of(play_or_steps: object, default: Player) -> Player:
    """The mover of a Play, else ``default``."""
    if isinstance(play_or_steps, Play):
        return play_or_steps.position.turn
    return default


@dataclass(frozen=True)
class DiceView:
    """What the dice show.

    ``in_play``: the dice to be played, in drawing order (a roll the variant plays as four moves
    shows four dice); ``used``: 1 for each of them already played, else 0; ``named``: the number
    of named doubles, or ``None``; ``thrown``: the throw drawn small before named doubles (the
    roll they were named after), or ``()``; ``label``: the dice in the picture's title.
    """

    thrown: tuple[int, ...] = ()
    in_play: tuple[int, ...] = ()
    used: tuple[int, ...] = ()
    named: int | None = None
    label: str = ""


def _roll(value: object, what: str) -> Roll:
    try:
        return Roll.parse(value)
    except BackgammonError:
        raise
    except (TypeError, ValueError, OverflowError):  # the core's parser should not let these out
        raise DiceError(f"{what}: cannot read dice from {quote(value)}; write them like '6-5'") from None


def _moves(variant: Variant, roll: Roll) -> tuple[int, ...]:
    """The dice a roll puts in play: as thrown, or as many as the variant plays (four for doubles)."""
    order = tuple(variant.dice_orders(roll.dice)[0])
    return roll.dice if len(order) == 2 else order


def _used_flags(in_play: tuple[int, ...], dice_left: object) -> tuple[int, ...]:
    if dice_left is None:
        return (0,) * len(in_play)
    if isinstance(dice_left, (str, bytes)) or not isinstance(dice_left, Iterable):
        raise DiceError(f"dice_left must be a list of die numbers, not {quote(dice_left)}")
    given = list(dice_left)
    remaining: list[int] = []
    for d in given:
        die = whole(d)
        if die is None:
            raise DiceError(f"dice_left must be a list of die numbers, not {quote(dice_left)}")
        remaining.append(die)
    flags = [1] * len(in_play)
    # The dice still to play are the last ones of their value; used ones come first.
    for i in range(len(in_play) - 1, -1, -1):
        if in_play[i] in remaining:
            remaining.remove(in_play[i])
            flags[i] = 0
    if remaining:
        raise DiceError(f"dice_left={quote(given)} is not part of the roll "
                        f"{'-'.join(map(str, in_play))}")
    return tuple(flags)


def read_dice(variant: Variant, dice: object, dice_left: object, named_double: object) -> DiceView:
    """The dice as the caller describes them.

    ``dice``: the roll. ``named_double``: doubles named after that roll; the roll is then drawn
    small before the named dice, unless it already shows those doubles (then it is not drawn
    twice). Whether the roll allowed naming is the caller's business, not the picture's.
    """
    if dice is None:
        if (dice_left is not None and dice_left != [] and dice_left != ()) or named_double is not None:
            raise DiceError(f"dice_left={quote(dice_left)} and named_double={quote(named_double)} need dice")
        return DiceView()
    roll = _roll(dice, "dice")
    if named_double is None:
        in_play = _moves(variant, roll)
        return DiceView((), in_play, _used_flags(in_play, dice_left), None, f"dice {roll}")
    k = whole(named_double, 1, 6)
    if k is None:
        raise DiceError(f"named_double must be a number 1-6, not {quote(named_double)}")
    named = Roll(k, k)
    in_play = _moves(variant, named)
    if roll == named:
        return DiceView((), in_play, _used_flags(in_play, dice_left), named.first, f"named {named}")
    return DiceView(roll.dice, in_play, _used_flags(in_play, dice_left), named.first,
                    f"dice {roll} then named {named}")


def read_lost(lost: object) -> tuple[int, ...]:
    """Dice the player who just moved could not play: up to four die numbers 1..6."""
    if lost is None:
        return ()
    if isinstance(lost, (str, bytes)) or not isinstance(lost, Iterable):
        raise DiceError(f"lost_dice must be a list of die numbers, not {quote(lost)}")
    read = [whole(d, 1, 6) for d in lost]
    out = tuple(d for d in read if d is not None)
    if len(read) > 4 or len(out) != len(read):
        raise DiceError(f"lost_dice must be at most four die numbers 1-6, not {quote(lost)}")
    return out


@dataclass(frozen=True)
class Spec:
    """Every option of one picture, read and checked: the input of the layers."""

    position: Position
    orientation: Player
    size: int | None
    theme: Theme
    dice: DiceView
    reroll_due: bool
    selected: tuple[int, ...]
    targets: tuple[int, ...]
    highlight: tuple[int, ...]
    arrows: tuple[Arrow, ...]
    lastmove: tuple[Arrow, ...]
    played: tuple[Arrow, ...]
    lost: tuple[int, ...]
    show_pips: bool
    names: dict[Player, str]
    caption: str
    id_prefix: str | None
    numbers: bool

    def default_id(self) -> str:
        """``bg-`` and ten hex digits of a hash of every input."""
        d = self.dice
        key = repr((self.position.to_string(), self.orientation, self.size, self.theme, d.thrown,
                    d.in_play, d.used, d.named, self.reroll_due, self.selected, self.targets,
                    self.highlight, self.arrows, self.lastmove, self.show_pips, self.names,
                    self.caption, self.numbers, self.played, self.lost))
        return "bg-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:10]


def read_options(position: object, *, orientation: object, size: object, theme: object,
                 dice: object, dice_left: object, named_double: object, reroll_due: object,
                 selected: object, targets: object, highlight: object, arrows: object,
                 lastmove: object, show_pips: object, names: object, caption: object,
                 id_prefix: object, numbers: object, played: object = (), lost_dice: object = None) -> Spec:
    """Read the keyword options of :func:`~backgammon_lab.svg.board` (see there) into a Spec."""
    if not isinstance(position, Position):
        raise RenderError(f"board() draws a Position, not {quote(position)}")
    viewer = read_orientation(orientation)
    th = read_theme(theme)
    width = read_size(size)
    v = position.variant
    mover = position.turn
    dv = read_dice(v, dice, dice_left, named_double)
    sel = read_points(selected, v, "selected")
    tgt = read_points(targets, v, "targets")
    hil = read_points(highlight, v, "highlight")
    arr = read_steps(arrows, mover, v, "arrows")
    last = read_steps(lastmove, player_of(lastmove, other(mover)), v, "lastmove")
    done = read_steps(played, mover, v, "played")
    lost = read_lost(lost_dice)
    nm = read_names(names, layout(v, viewer, bool(numbers)).name_chars)
    cap = clean(caption) if caption is not None else ""
    prefix = read_id_prefix(id_prefix)
    return Spec(position, viewer, width, th, dv, bool(reroll_due), sel, tgt, hil, arr, last, done,
                lost, bool(show_pips), nm, cap, prefix, bool(numbers))
