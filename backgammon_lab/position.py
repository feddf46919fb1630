"""Positions, steps, plays and rolls: the immutable values the rest of the library passes around.

Geometry (RULES.md, "Geometry, for every variant"): each player numbers the points 1..N from its
own exit, so the opponent's point q is my point N+1-q (:meth:`Variant.flip
<backgammon_lab.variants.Variant.flip>`); the bar is N+1 (:attr:`Variant.bar
<backgammon_lab.variants.Variant.bar>`) and the tray :data:`OFF` (0). A :class:`Position` stores
the board in White's numbering: ``points[i]`` is the number of checkers on White's point i+1,
positive for White, negative for Black.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import neg as _neg
from typing import TYPE_CHECKING, Any, Literal

from . import textforms
from .errors import DiceError, PositionError, show, whole_number
from .variants import Variant, find_variant

if TYPE_CHECKING:  # pragma: no cover - for type checkers only; rules imports this module
    pass

__all__ = ["WHITE", "BLACK", "PLAYERS", "Player", "other", "OFF", "Position", "Step", "Play", "Roll", "format_play"]

Player = Literal["white", "black"]
WHITE: Player = "white"
BLACK: Player = "black"
PLAYERS: tuple[Player, Player] = (WHITE, BLACK)

#: The tray, in every player's numbering: a step that bears off ends here, and ``count(player, OFF)``
#: is the checkers ``player`` has borne off. The bar is :attr:`Variant.bar
#: <backgammon_lab.variants.Variant.bar>` (N+1).
OFF = 0


def other(player: Player) -> Player:
    """The opponent of ``player``: the one way to name the other player."""
    return BLACK if player == WHITE else WHITE


def _check_player(player: object) -> Player:
    if player not in PLAYERS:
        raise PositionError(f"a player is 'white' or 'black', not {show(player)}")
    return player  # type: ignore[return-value]


class Position:
    """An immutable, hashable backgammon position of some variant, with the side to move.

    Build one from the JSON form, a position string, a Position ID or the variant's start::

        >>> from backgammon_lab import Position
        >>> start = Position.start("standard")
        >>> start.pip_count("white")
        167
        >>> Position.from_string(start.to_string()) == start
        True

    Every constructor validates: checker counts, non-negative bar and tray counts, the stacking cap
    of the variant. A violation raises :class:`~backgammon_lab.errors.PositionError`.
    """

    __slots__ = ("variant", "points", "bar", "off", "turn", "_hash", "_board")

    variant: Variant
    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    turn: Player
    _hash: int | None
    _board: tuple[int, ...] | None

    def __init__(
        self,
        variant: str | Variant,
        points: Any,
        bar: Any = (0, 0),
        off: Any = (0, 0),
        turn: Player = WHITE,
    ) -> None:
        v = find_variant(variant)
        pts = _int_tuple(points, "points")
        bar_t = _pair(bar, "bar")
        off_t = _pair(off, "off")
        _check_player(turn)
        if len(pts) != v.points:
            raise PositionError(
                f"{v.name} has {v.points} points, but {len(pts)} were given: {list(pts)!r}"
            )
        for name, pair in (("bar", bar_t), ("off", off_t)):
            if min(pair) < 0:
                raise PositionError(f"{name} counts cannot be negative: {pair!r}")
        white = sum(n for n in pts if n > 0) + bar_t[0] + off_t[0]
        black = -sum(n for n in pts if n < 0) + bar_t[1] + off_t[1]
        for who, total in ((WHITE, white), (BLACK, black)):
            if total != v.checkers:
                raise PositionError(
                    f"{who} has {total} checkers but {v.name} is played with {v.checkers}: "
                    f"points={list(pts)!r}, bar={bar_t!r}, off={off_t!r}"
                )
        cap = v.stacking_cap
        if cap is not None:
            for i, n in enumerate(pts):
                if abs(n) > cap:
                    raise PositionError(
                        f"{abs(n)} checkers on White's point {i + 1}: {v.title} allows at most "
                        f"{cap} on a point"
                    )
        self._set(v, pts, bar_t, off_t, turn)

    def _set(self, v: Variant, pts: tuple[int, ...], bar: tuple[int, int],
             off: tuple[int, int], turn: Player) -> None:
        object.__setattr__(self, "variant", v)
        object.__setattr__(self, "points", pts)
        object.__setattr__(self, "bar", bar)
        object.__setattr__(self, "off", off)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "_hash", None)
        object.__setattr__(self, "_board", None)

    @classmethod
    def _trusted(cls, v: Variant, pts: tuple[int, ...], bar: tuple[int, int],
                 off: tuple[int, int], turn: Player) -> Position:
        """Build without validation (the move generator's results are valid by construction)."""
        self = object.__new__(cls)
        _SET_VARIANT(self, v)
        _SET_POINTS(self, pts)
        _SET_BAR(self, bar)
        _SET_OFF(self, off)
        _SET_TURN(self, turn)
        _SET_HASH(self, None)
        _SET_BOARD(self, None)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Position is immutable; cannot set {name!r}")

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def start(cls, variant: str | Variant = "standard", turn: Player = WHITE) -> Position:
        """The variant's starting position with ``turn`` to move."""
        v = find_variant(variant)
        pts = [0] * v.points
        bar = [0, 0]
        for point, count in v.start.items():
            if point == v.bar:
                bar = [count, count]
            else:
                pts[point - 1] += count
                pts[v.flip(point) - 1] -= count
        return cls(v, pts, tuple(bar), (0, 0), _check_player(turn))

    @classmethod
    def _from_parts(cls, parts: tuple[Any, Any, Any, Any, Any], where: str) -> Position:
        """Build from the parts a text reader returned; a refusal names the text (``where``).

        A position written by a user where both players have borne off every checker is refused:
        no game reaches it (the analysis may still build it directly, as one state of many)."""
        try:
            pos = cls(*parts)
        except PositionError as e:
            raise PositionError(f"{e} ({where})") from None
        pos.check_reachable(where)
        return pos

    def check_reachable(self, where: str = "") -> None:
        """Raise :class:`PositionError` if both players have borne off every checker (a game ends
        when the first one does); ``where`` names the input in the message."""
        n = self.variant.checkers
        if self.off == (n, n):
            raise PositionError(f"both players have borne off all {n} checkers: the game ends when the first "
                                f"one does, so only one of them can have{f' ({where})' if where else ''}")

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> Position:
        """Parse the JSON form (a dict, or its text as str or UTF-8 bytes); see ``docs/notation.md``."""
        return cls._from_parts(textforms.json_parts(data), f"in {show(data)}")

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Parse a position string such as ``standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5``."""
        return cls._from_parts(textforms.string_parts(text), f"in {show(text)}")

    @classmethod
    def from_position_id(cls, pid: str, variant: str | Variant = "standard",
                         turn: Player = WHITE) -> Position:
        """Parse GNU Backgammon's Position ID (24-point variants); ``turn`` is the player on roll."""
        return cls._from_parts(textforms.id_parts(pid, variant, turn), f"Position ID {show(pid)}")

    @classmethod
    def parse(cls, text: str, variant: str | Variant | None = None) -> Position:
        """Parse any text form: JSON, a file holding a position, a position string, or (with
        ``variant``) a Position ID."""
        return cls._from_parts(textforms.parse_parts(text, variant), f"in {show(text)}")

    # -- output --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The JSON form as a dict (``json.dumps`` it for text); ``options`` holds the variant's
        options that differ from their defaults, and is left out when there are none."""
        return textforms.json_dict(self.variant, self.points, self.bar, self.off, self.turn)

    def to_json_text(self) -> str:
        """The JSON form as compact text."""
        return json.dumps(self.to_json(), separators=(", ", ": "))

    def to_string(self) -> str:
        """The compact position string (round-trips through :meth:`from_string`)."""
        return textforms.string_text(self.variant, self.points, self.bar, self.off, self.turn)

    def position_id(self) -> str:
        """GNU Backgammon's 14-character Position ID (24-point variants only)."""
        return textforms.id_text(self.variant, self.points, self.bar, self.turn)

    def diagram(self) -> str:
        """A plain-text picture of the board (``str(position)``)."""
        return textforms.diagram_text(self.variant, self.points, self.bar, self.off, self.turn,
                                      (self.pip_count(WHITE), self.pip_count(BLACK)))

    def __str__(self) -> str:
        return self.diagram()

    def __repr__(self) -> str:
        return f"Position({self.to_string()!r})"

    def _repr_svg_(self) -> str:
        from .svg import board

        return board(self)._repr_svg_()

    # -- queries -------------------------------------------------------------------------------
    def player_index(self, player: Player) -> int:
        """0 for White, 1 for Black."""
        return 0 if _check_player(player) == WHITE else 1

    def count(self, player: Player, point: int) -> int:
        """Checkers of ``player`` on its own point ``point`` (1..N; ``variant.bar`` (N+1) is the
        bar, :data:`OFF` (0) the tray)."""
        i = self.player_index(player)
        if 1 <= point <= self.variant.points:
            # Black's point q is White's point flip(q) = N+1-q, at index N-q: -q counted from the end
            x = self.points[point - 1] if i == 0 else -self.points[-point]
            return max(x, 0)
        if point == OFF:
            return self.off[i]
        if point == self.variant.bar:
            return self.bar[i]
        raise PositionError(f"point {show(point)} is not on a {self.variant.points}-point board")

    @property
    def opponent_off(self) -> int:
        """The checkers the player not on turn has borne off (the move generator's board leaves
        them out: :meth:`from_board` takes them back)."""
        return self.off[1 if self.turn == WHITE else 0]

    def owner(self, white_point: int) -> Player | None:
        """Who holds White's point ``white_point`` (or None when it is empty)."""
        v = self.points[white_point - 1]
        return WHITE if v > 0 else BLACK if v < 0 else None

    def pip_count(self, player: Player) -> int:
        """Pips ``player`` still has to travel: sum over its checkers of their point (the bar
        counts ``variant.bar``, N+1)."""
        n = self.variant.points
        i = self.player_index(player)
        total = self.bar[i] * self.variant.bar
        for idx, v in enumerate(self.points):
            if i == 0 and v > 0:
                total += v * (idx + 1)
            elif i == 1 and v < 0:
                total += -v * (n - idx)
        return total

    def winner(self) -> Player | None:
        """The player who has borne off every checker, if any."""
        for i, who in enumerate(PLAYERS):
            if self.off[i] == self.variant.checkers:
                return who
        return None

    @property
    def is_over(self) -> bool:
        """True when one player has borne off all its checkers."""
        return self.winner() is not None

    def game_value(self) -> int:
        """Points the winner scores (1; 2 or 3 for gammons in the standard game). 0 if not over."""
        w = self.winner()
        if w is None:
            return 0
        loser = other(w)
        li = self.player_index(loser)
        v = self.variant
        deep = self.bar[li] > 0 or any(self.count(loser, v.flip(p)) for p in range(1, v.home + 1))
        return self.variant.game_value(self.off[li], deep)

    def with_turn(self, turn: Player) -> Position:
        """The same checkers with ``turn`` to move."""
        return Position._trusted(self.variant, self.points, self.bar, self.off, _check_player(turn))

    def swapped(self) -> Position:
        """Colours exchanged: Black gets White's checkers and the turn flips."""
        n = self.variant.points
        pts = tuple(-self.points[n - 1 - i] for i in range(n))
        return Position._trusted(self.variant, pts, self.bar[::-1], self.off[::-1], other(self.turn))

    # -- mover's-eye board used by the move generator -------------------------------------------
    def board(self) -> tuple[int, ...]:
        """The board seen by the side to move: ``(off, p1..pN, bar, opponent_bar)``.

        Points are in the mover's numbering, the mover's checkers positive.
        """
        b = self._board
        if b is None:
            i = 0 if self.turn == WHITE else 1
            if i == 0:
                b = (self.off[0], *self.points, self.bar[0], self.bar[1])
            else:
                b = (self.off[1], *(-x for x in reversed(self.points)), self.bar[1], self.bar[0])
            object.__setattr__(self, "_board", b)
        return b

    @classmethod
    def from_board(cls, variant: Variant, turn: Player, board: tuple[int, ...],
                   opponent_off: int) -> Position:
        """Inverse of :meth:`board` (no validation: for the move generator)."""
        n, bar = variant.points, variant.bar
        if turn == WHITE:
            return cls._trusted(variant, board[1:bar], (board[bar], board[bar + 1]),
                                (board[OFF], opponent_off), turn)
        pts = tuple(map(_neg, board[n:0:-1]))
        return cls._trusted(variant, pts, (board[bar + 1], board[bar]),
                            (opponent_off, board[OFF]), turn)

    # -- value semantics -----------------------------------------------------------------------
    def _key(self) -> tuple[Any, ...]:
        return (self.variant, self.points, self.bar, self.off, self.turn)

    def __eq__(self, other_: object) -> bool:
        return isinstance(other_, Position) and self._key() == other_._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position, (self.variant, self.points, self.bar, self.off, self.turn))


# Slot setters used by Position._trusted (faster than object.__setattr__ on the hot path).
_SET_VARIANT = Position.__dict__["variant"].__set__
_SET_POINTS = Position.__dict__["points"].__set__
_SET_BAR = Position.__dict__["bar"].__set__
_SET_OFF = Position.__dict__["off"].__set__
_SET_TURN = Position.__dict__["turn"].__set__
_SET_HASH = Position.__dict__["_hash"].__set__
_SET_BOARD = Position.__dict__["_board"].__set__



#: No count of checkers comes near this; larger numbers are refused before anything prints them.
_BIG = 10**6

#: Dice as text: two numbers and one separator ('6-5', '6,5', '6 5', '6 - 5'), or two digits ('65').
_DICE_TEXT = re.compile(r"(\w{1,3})(?:\s*[-,]\s*|\s+)(\w{1,3})")
_DICE_PAIR = re.compile(r"(\w)(\w)")


def _int_tuple(value: Any, name: str) -> tuple[int, ...]:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise PositionError(f"{name} must be a list of integers, not {show(value)}")
    try:
        out = tuple(value)
    except TypeError:
        raise PositionError(f"{name} must be a list of integers, not {show(value)}") from None
    if len(out) > 100:
        raise PositionError(f"{name} must be a short list of integers, not {show(value)}")
    try:
        return tuple(whole_number(x, name, 1 - _BIG, _BIG - 1, error=PositionError) for x in out)
    except PositionError as e:
        raise PositionError(f"{e} (in {show(list(out))})") from None


def _pair(value: Any, name: str) -> tuple[int, int]:
    if isinstance(value, dict):
        if set(value) != {"white", "black"}:
            raise PositionError(f"{name} must have exactly the keys 'white' and 'black': {value!r}")
        value = (value["white"], value["black"])
    t = _int_tuple(value, name)
    if len(t) != 2:
        raise PositionError(f"{name} needs two counts (white, black), not {show(value)}")
    return (t[0], t[1])


def place_text(point: int, points: int) -> str:
    """A place of a step in move notation: ``"bar"`` for the bar (``points + 1``, a variant's
    :attr:`~backgammon_lab.variants.Variant.bar`), ``"off"`` for :data:`OFF`, else the number
    (``points`` is the board size N).

    >>> place_text(25, 24), place_text(0, 24), place_text(13, 24)
    ('bar', 'off', '13')
    """
    return "bar" if point == points + 1 else "off" if point == OFF else str(point)


def place_number(text: str, points: int) -> int:
    """The inverse of :func:`place_text`: ``"bar"`` is ``points + 1``, ``"off"`` is :data:`OFF`,
    else the number the text writes (not checked against the board: the caller says what is wrong).

    >>> place_number("bar", 24), place_number("off", 24), place_number("13", 24)
    (25, 0, 13)
    """
    return points + 1 if text == "bar" else OFF if text == "off" else int(text)


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's numbering.

    ``start`` is a point 1..N or N+1 for the bar; ``end`` a point 1..N or 0 for borne off;
    ``die`` the number used (with a larger die bearing off, ``start - end < die``); ``hit`` whether
    an opposing blot was hit on ``end``.
    """

    start: int
    end: int
    die: int
    hit: bool = False

    def text(self, points: int) -> str:
        """The step in move notation, e.g. ``bar/22*`` (``points`` is the board size N)."""
        end = "off" if self.end == OFF else str(self.end)
        return f"{place_text(self.start, points)}/{end}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Roll:
    """Two dice as rolled (order kept). ``Roll.parse("6-5")`` reads text."""

    first: int
    second: int

    def __post_init__(self) -> None:
        try:
            first = whole_number(self.first, "a die", 1, 6, error=DiceError)
            second = whole_number(self.second, "a die", 1, 6, error=DiceError)
        except DiceError as e:
            raise DiceError(f"{e} (roll {show(self.first, 60)}-{show(self.second, 60)})") from None
        if type(self.first) is not int or type(self.second) is not int:  # numpy's integers, say
            object.__setattr__(self, "first", first)
            object.__setattr__(self, "second", second)

    @classmethod
    def parse(cls, value: Any) -> Roll:
        """Accept a Roll, a pair of ints, or text like ``"6-5"``, ``"65"``, ``"6 5"``.

        Text digits may be any Unicode decimal digits (``"٦-٥"`` is 6-5), as in move text;
        other digit-like characters (``"²"``) are refused.
        """
        if isinstance(value, Roll):
            return value
        if isinstance(value, str):
            text = value.strip()
            # two numbers with one separator between them ('6-5', '6,5', '6 5', '6 - 5') or two
            # digits side by side ('65'); a sign or a second separator ('-66', '66-', '6--5') is refused
            m = _DICE_TEXT.fullmatch(text) or _DICE_PAIR.fullmatch(text)
            if m is None or not all(p.isdecimal() for p in m.groups()):
                raise DiceError(f"cannot read dice from {show(value)}; write them like '6-5'")
            a, b = int(m.group(1)), int(m.group(2))
            if not (1 <= a <= 6 and 1 <= b <= 6):
                raise DiceError(f"cannot read dice from {show(value)}: a die shows 1 to 6, not {a}-{b}")
            return cls(a, b)
        if isinstance(value, (bytes, bytearray, dict, set, frozenset)) or not hasattr(value, "__iter__"):
            raise DiceError(f"dice must be two numbers in order, not {show(value)}")
        try:
            a, b = value
        except (TypeError, ValueError):
            raise DiceError(f"dice must be two numbers, not {show(value)}") from None
        return cls(a, b)

    @property
    def dice(self) -> tuple[int, int]:
        """The two dice as a tuple."""
        return (self.first, self.second)

    @property
    def low(self) -> int:
        """The lower die."""
        return min(self.first, self.second)

    @property
    def high(self) -> int:
        """The higher die."""
        return max(self.first, self.second)

    @property
    def is_double(self) -> bool:
        """Both dice the same."""
        return self.first == self.second

    @property
    def is_mexican(self) -> bool:
        """A 1 and a 2 (a Mexican in Mexican Backgammon)."""
        return {self.first, self.second} == {1, 2}

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


class Play:
    """The steps of one roll and the position they lead to (``turn`` still the mover).

    Built lazily by the move generator: the :class:`Step` objects and the :class:`Position` are
    made on first access, so listing plays costs little until they are looked at.
    """

    __slots__ = ("_steps", "_position", "_raw", "_src")

    def __init__(self, steps: tuple[Step, ...] | None = None, position: Position | None = None) -> None:
        self._steps = tuple(steps) if steps is not None else None
        self._position = position
        self._raw: Any = None
        self._src: Any = None

    @classmethod
    def _lazy(cls, raw: Any, src: Any) -> Play:
        """A play from raw ``(start, end, die, hit)`` tuples and ``(variant, turn, board, opp_off)``."""
        self = object.__new__(cls)
        self._steps = None
        self._position = None
        self._raw = raw
        self._src = src
        return self

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps, in the order played."""
        if self._steps is None:
            self._steps = tuple(Step(s, t, d, h) for s, t, d, h in self._raw)
        return self._steps

    @property
    def position(self) -> Position:
        """The position after the play (same ``turn``)."""
        if self._position is None:
            v, turn, board, opp_off = self._src
            self._position = Position.from_board(v, turn, board, opp_off)
        return self._position

    def __eq__(self, other_: object) -> bool:
        return isinstance(other_, Play) and self.steps == other_.steps and self.position == other_.position

    def __hash__(self) -> int:
        return hash((self.steps, self.position))

    def __str__(self) -> str:
        return format_play(self.steps, self.position.variant.points)

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    def __len__(self) -> int:
        return len(self._raw) if self._steps is None else len(self._steps)


def format_play(steps: Sequence[Step], points: int, *, played_order: bool = False) -> str:
    """Move notation for the steps of a play: chains joined (``24/18/13``), repeats counted (``8/5(2)``).

    Checkers are written from the highest start down, as players write a play, and a checker that
    arrives where another one started joins its chain (``8/5 10/8`` is written ``10/8/5``). With
    ``played_order`` the text follows the order the steps were played (for rolls whose dice must be
    played in one order, such as Mexican's lower die first): a step joins only the chain it goes on
    from, so ``1/off`` then ``3/1`` stays ``1/off 3/1``.

    >>> from backgammon_lab.position import Step
    >>> steps = [Step(8, 5, 3), Step(10, 8, 2)]
    >>> format_play(steps, 24), format_play(steps, 24, played_order=True)
    ('10/8/5', '8/5 10/8')
    """
    if not steps:
        return "no move"
    chains: list[list[Step]] = []
    for st in steps:
        for ch in reversed(chains):
            if ch[-1].end == st.start and st.start != OFF:
                ch.append(st)  # the same checker goes on: 24/18/13
                break
            if not played_order and st.end == ch[0].start and st.end != OFF:
                ch.insert(0, st)  # a checker arrives where a chain began: written 13/8/2 either way
                break
        else:
            chains.append([st])
    texts = []
    order = {id(st): i for i, st in enumerate(steps)}
    ranked = (sorted(chains, key=lambda c: min(order[id(st)] for st in c)) if played_order
              else sorted(chains, key=lambda c: (-c[0].start, c[-1].end)))
    for ch in ranked:
        first = ch[0].text(points).split("/")[0]
        rest = "/".join(("off" if s.end == OFF else str(s.end)) + ("*" if s.hit else "") for s in ch)
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
