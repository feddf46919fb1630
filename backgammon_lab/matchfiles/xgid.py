"""eXtreme Gammon's position text, the XGID, read and written beside GNU Backgammon's Position ID.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10`` is the standard start, White to play 5-2
in a 5-point match at 0-0. The ten fields, separated by ``:``:

1. the board, 26 characters: character 0 is Black's bar, 1-24 White's points 1-24 and 25 White's
   bar; ``-`` is empty, ``A``-``O`` 1-15 White checkers (upper case), ``a``-``o`` Black's; checkers
   not on the board are borne off;
2. the cube's value as a power of 2 (``0``: 1, ``1``: 2, ...);
3. the cube's place: ``0`` in the middle, ``1`` White owns it, ``-1`` Black owns it;
4. the player on roll: ``1`` White, ``-1`` Black;
5. the dice: ``00`` not yet rolled, two digits once rolled, ``D`` a double offered, ``B`` a beaver,
   ``R`` a raccoon;
6. and 7. White's and Black's scores;
8. in a match ``1`` for the Crawford game, in money play the Jacoby rule (1) plus beavers (2);
9. the match length (``0``: money play);
10. the largest cube, as a power of 2.

XGIDs name no colours: the upper-case player, whose points are numbered 1-24 from the left of
the string, is White here. A :class:`Xgid` keeps every field; :attr:`Xgid.position` is the
:class:`~backgammon_lab.position.Position` (whose ``position_id()`` is gnubg's ID of the same board).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError, PositionError, show, whole_number
from ..position import BLACK, WHITE, Player, Position
from ..variants import Variant, find_variant

__all__ = ["Xgid", "read_xgid", "position_from_xgid", "xgid", "is_xgid"]

_FIELDS = re.compile(r"^\s*(?:XGID=)?([-A-Pa-p]{26}):(-?\d{1,2}):(-?1|0):(-?1):(\d\d|[DBR]):(\d{1,4}):(\d{1,4}):"
                     r"(\d):(\d{1,4}):(\d{1,2})\s*$", re.I | re.ASCII)


def is_xgid(text: object) -> bool:
    """True for text that starts like an XGID (``XGID=`` and a board)."""
    return isinstance(text, str) and text.strip()[:5].upper() == "XGID="


@dataclass(frozen=True, slots=True)
class Xgid:
    """Every field of an XGID; ``position.turn`` is the player on roll."""

    position: Position
    cube: int = 1
    cube_owner: Player | None = None
    dice: tuple[int, int] | None = None
    decision: str = ""  #: "" or "double", "beaver", "raccoon": a cube action awaiting its answer
    score: tuple[int, int] = (0, 0)  #: White's, Black's
    length: int = 0  #: the match length, 0 for money play
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024

    def text(self) -> str:
        """The XGID text, ``XGID=...``."""
        return xgid(self.position, cube=self.cube, cube_owner=self.cube_owner, dice=self.dice,
                    decision=self.decision, score=self.score, length=self.length, crawford=self.crawford,
                    jacoby=self.jacoby, beaver=self.beaver, max_cube=self.max_cube)

    def __str__(self) -> str:
        return self.text()


def read_xgid(text: str, variant: str | Variant = "standard") -> Xgid:
    """Read an XGID (with or without the ``XGID=`` prefix); refuses a malformed one, quoting it."""
    if not isinstance(text, str):
        raise NotationError(f"an XGID is text, not {show(text)}")
    m = _FIELDS.match(text)
    if not m:
        raise NotationError(f"cannot read the XGID {show(text)}: it is 'XGID=' then a 26-character board and "
                            "nine fields, like 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10'")
    board, cube_log, owner, turn, dice, ws, bs, flags, length, max_log = m.groups()
    v = find_variant(variant)
    if v.points != 24:
        raise NotationError(f"an XGID describes a 24-point board, not {v.title} (XGID {show(text)})")
    points = [0] * 24
    bar = [0, 0]
    for i, c in enumerate(board):
        if c == "-":
            continue
        n = ord(c.upper()) - ord("A") + 1
        count = n if c.isupper() else -n
        if i == 0:
            if count > 0:
                raise PositionError(f"XGID {show(text)}: character 0 is Black's bar, but it holds White checkers")
            bar[1] = -count
        elif i == 25:
            if count < 0:
                raise PositionError(f"XGID {show(text)}: character 25 is White's bar, but it holds Black checkers")
            bar[0] = count
        else:
            points[i - 1] = count
    on = [sum(x for x in points if x > 0) + bar[0], -sum(x for x in points if x < 0) + bar[1]]
    for who, k in ((WHITE, 0), (BLACK, 1)):
        if on[k] > v.checkers:
            raise PositionError(f"XGID {show(text)} gives {who} {on[k]} checkers; {v.title} has {v.checkers}")
    off = (v.checkers - on[0], v.checkers - on[1])
    player: Player = WHITE if turn == "1" else BLACK
    try:
        pos = Position(v, points, (bar[0], bar[1]), off, player)
    except PositionError as e:
        raise PositionError(f"{e} (XGID {show(text)})") from None
    if int(cube_log) < 0 or int(cube_log) > 15 or int(max_log) > 15:
        raise NotationError(f"XGID {show(text)}: the cube is written as a power of 2 from 0 to 15")
    rolled = None
    decision = ""
    if dice.upper() in ("D", "B", "R"):
        decision = {"D": "double", "B": "beaver", "R": "raccoon"}[dice.upper()]
    elif dice != "00":
        a, b = int(dice[0]), int(dice[1])
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise NotationError(f"XGID {show(text)}: the dice {dice!r} are not two dice from 1 to 6")
        rolled = (a, b)
    n_length = int(length)
    f = int(flags)
    return Xgid(pos, 2 ** int(cube_log), {"0": None, "1": WHITE, "-1": BLACK}[owner], rolled, decision,
                (int(ws), int(bs)), n_length, crawford=bool(n_length and f & 1),
                jacoby=bool(not n_length and f & 1), beaver=bool(not n_length and f & 2),
                max_cube=2 ** int(max_log))


def position_from_xgid(text: str, variant: str | Variant = "standard") -> Position:
    """The position of an XGID (the player on roll to move)."""
    return read_xgid(text, variant).position


def xgid(position: Position, *, cube: int = 1, cube_owner: Player | None = None,
         dice: tuple[int, int] | None = None, decision: str = "", score: tuple[int, int] = (0, 0),
         length: int = 0, crawford: bool = False, jacoby: bool = False, beaver: bool = False,
         max_cube: int = 1024) -> str:
    """The XGID of ``position`` (its ``turn`` on roll) with the cube and score fields given."""
    if not isinstance(position, Position):
        raise NotationError(f"xgid() takes a Position, not {show(position)}")
    v = position.variant
    if v.points != 24 or v.checkers > 15:
        raise NotationError(f"an XGID describes a 24-point board of up to 15 checkers, not {v.title}")
    chars = ["-"] * 26

    def letter(n: int, upper: bool) -> str:
        c = chr(ord("A") + n - 1)
        return c if upper else c.lower()

    if position.bar[1]:
        chars[0] = letter(position.bar[1], False)
    if position.bar[0]:
        chars[25] = letter(position.bar[0], True)
    for i, n in enumerate(position.points):
        if n:
            chars[i + 1] = letter(abs(n), n > 0)
    cube = whole_number(cube, "xgid(): cube", 1, 2 ** 15, error=NotationError)
    max_cube = whole_number(max_cube, "xgid(): max_cube", 1, 2 ** 15, error=NotationError)
    for name, value in (("cube", cube), ("max_cube", max_cube)):
        if value & (value - 1):
            raise NotationError(f"xgid(): {name} is a power of 2 from 1 to 32768, not {show(value)}")
    if cube_owner not in (None, WHITE, BLACK):
        raise NotationError(f"xgid(): cube_owner is 'white', 'black' or None, not {show(cube_owner)}")
    codes = {"": None, "double": "D", "beaver": "B", "raccoon": "R"}
    if decision not in codes:
        raise NotationError(f"xgid(): decision is '', 'double', 'beaver' or 'raccoon', not {show(decision)}")
    if decision and dice is not None:
        raise NotationError("xgid(): a cube decision comes before the roll: give dice or decision, not both")
    if dice is None:
        dice_text = codes[decision] or "00"
    else:
        if len(dice) != 2:
            raise NotationError(f"xgid(): dice are two numbers from 1 to 6, not {show(dice)}")
        dice_text = "".join(str(whole_number(d, "xgid(): a die", 1, 6, error=NotationError)) for d in dice)
    score = (whole_number(score[0], "xgid(): score", 0, 9999, error=NotationError),
             whole_number(score[1], "xgid(): score", 0, 9999, error=NotationError))
    length = whole_number(length, "xgid(): length", 0, 9999, error=NotationError)
    flags = int(crawford) if length else int(jacoby) + 2 * int(beaver)
    owner = {None: "0", WHITE: "1", BLACK: "-1"}[cube_owner]
    turn = "1" if position.turn == WHITE else "-1"
    return (f"XGID={''.join(chars)}:{cube.bit_length() - 1}:{owner}:{turn}:{dice_text}:{score[0]}:{score[1]}:"
            f"{flags}:{length}:{max_cube.bit_length() - 1}")
