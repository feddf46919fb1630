"""Matches read from game files: the games, their cube actions and results, and the replay that
checks every move against the engine.

A :class:`Match` holds the file's headers (players, site, date, ...), the match length (0 for money
play) and its :class:`MatchGame` values. Each game's checker play is a
:class:`~backgammon_lab.game.Game` (replayed through :func:`~backgammon_lab.engine.advance`, so every
roll and play was checked); the doubling cube, which the engine does not play, is kept beside it as
:class:`CubeAction` values placed between the game's actions, and counted in the points of the
:class:`GameResult`.

The readers and writers of each file format (:mod:`.jellyfish`, :mod:`.sgf`, :mod:`.varianttext`)
register themselves here when they are imported, so ``Match.from_mat(text)`` and ``match.to_sgf()``
need no import of theirs (importing :mod:`backgammon_lab.matchfiles` imports them all).
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine import OpeningRoll, Phase, RollDice
from ..errors import AmbiguousMoveError, BackgammonError, NotationError, plain_message, show, whole_number
from ..game import Game
from ..position import BLACK, WHITE, Player, Roll, other
from ..rules import PlayList
from ..variants import Variant, find_variant

__all__ = ["MatchFileError", "CubeAction", "GameResult", "MatchGame", "Match", "GameBuilder", "register_format",
           "FORMATS", "guarded", "CubeKind", "EndKind", "ScoreKeeper", "detect_format", "player_of",
           "resolve_stops", "looks_like_match_file", "FORMAT_TITLES", "MAX_LENGTH", "MAX_GAMES", "MAX_SCORE",
           "MAX_CUBE", "MAX_NAME", "MAX_LINE", "decode_match_bytes", "line_text", "player_names", "score_line", "header_line", "header_lines"]

#: The longest match read or written (a length of 1 to 9,999 points; 0 is money play).
MAX_LENGTH = 9999
#: The most games a file's numbering reaches.
MAX_GAMES = 99999
#: The highest score a player reaches (the running score of money play included).
MAX_SCORE = 999_999_999
#: The longest line of a .mat-style file read (GNU Backgammon reads lines of up to 1,023 characters).
MAX_LINE = 10_000
#: The longest player's name read (gnubg keeps 31 characters of a name).
MAX_NAME = 1000
#: The largest cube: 2 to the 15th, the most an XGID writes (gnubg's own limit is 2 to the 12th).
MAX_CUBE = 2 ** 15

CubeKind = Literal["double", "take", "drop", "beaver"]
EndKind = Literal["bearoff", "drop", "resign", "forfeit"]


class MatchFileError(NotationError):
    """A game file that cannot be read: unreadable text, or a move or cube action the rules refuse.

    ``game`` and ``move`` say where (1-based; ``None`` when the fault is in the headers), ``text`` is
    the file's text of the faulty item. With ``keep_games=True`` the reader does not raise: the
    :class:`Match` it returns holds the complete games before the fault and this error in
    ``match.error``.
    """

    def __init__(self, message: str, *, game: int | None = None, move: int | None = None,
                 text: str | None = None) -> None:
        where = []
        if game is not None:
            where.append(f"game {game}")
        if move is not None:
            where.append(f"move {move}")
        head = " ".join(p for p in (", ".join(where), show(text, 120) if text is not None else "") if p)
        super().__init__(f"{head}: {message}" if head else message)
        self.game = game
        self.move = move
        self.text = text
        self.detail = message


@dataclass(frozen=True, slots=True)
class CubeAction:
    """A cube action: ``player`` doubles, takes, drops or beavers.

    ``before`` is the number of the game record's actions made before it (the cube action comes
    between action ``before`` and action ``before + 1``); ``value`` is the cube's value the action
    is about: the value offered for ``double``/``beaver``, the value accepted for ``take``, the value
    refused for ``drop``.
    """

    before: int
    player: Player
    kind: CubeKind
    value: int

    def to_json(self) -> dict[str, Any]:
        """``{"before": 12, "player": "white", "action": "double", "value": 2}``."""
        return {"before": self.before, "player": self.player, "action": self.kind, "value": self.value}


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: ``winner`` scores ``points`` (the cube counted), ``how`` is ``bearoff``,
    ``drop`` (a double refused), ``resign`` (the loser gave up ``points``: 1, 2 or 3 times the cube, or
    only the points that win the match) or ``forfeit`` (the match was awarded: ``points`` are those
    that win it, more than a resignation could give, as servers write when a player leaves)."""

    winner: Player
    points: int
    how: EndKind

    def to_json(self) -> dict[str, Any]:
        """``{"winner": "black", "points": 2, "how": "drop"}``."""
        return {"winner": self.winner, "points": self.points, "how": self.how}


@dataclass(slots=True)
class MatchGame:
    """One game of a match: the checker play as a :class:`Game`, the cube actions beside it, the
    score before the game (White's, Black's) and the result (``None`` for an unfinished game)."""

    number: int
    game: Game
    score: tuple[int, int] = (0, 0)
    cube: tuple[CubeAction, ...] = ()
    result: GameResult | None = None
    crawford: bool = False

    @property
    def cube_value(self) -> int:
        """The cube's value at the end of the game (1 when nobody doubled)."""
        value = 1
        for c in self.cube:
            if c.kind in ("take", "beaver"):
                value = c.value
        return value

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The game record's actions (rolls and plays; no cube actions)."""
        return list(self.game.record()["actions"])

    def items(self) -> Iterator[tuple[str, Any]]:
        """The game in order: ``("action", record action)`` and ``("cube", CubeAction)`` pairs."""
        cubes = list(self.cube)
        for i, a in enumerate(self.actions):
            while cubes and cubes[0].before == i:
                yield "cube", cubes.pop(0)
            yield "action", a
        for c in cubes:
            yield "cube", c

    def record(self) -> dict[str, Any]:
        """The game record (:meth:`Game.record`) with ``cube``, ``score`` and ``end`` added."""
        rec = self.game.record()
        rec["score"] = {"white": self.score[0], "black": self.score[1]}
        if self.crawford:
            rec["crawford"] = True
        rec["cube"] = [c.to_json() for c in self.cube]
        if self.result is not None:
            rec["end"] = self.result.to_json()
        return rec

    def __repr__(self) -> str:
        end = (f"{self.result.winner} wins {self.result.points} ({self.result.how})" if self.result
               else "unfinished")
        return f"<MatchGame {self.number}: {len(self.actions)} actions, cube {self.cube_value}, {end}>"


#: A reader: (text, keep_games) -> Match, and a writer: Match -> text, for each format name.
Reader = Callable[[str, bool], "Match"]
Writer = Callable[["Match"], str]
FORMATS: dict[str, tuple[Reader, Writer]] = {}


def guarded(fmt: str) -> Callable[[Callable[[str, bool], Match]], Callable[[str, bool], Match]]:
    """A reader that raises only the project's errors: a fault of the reader itself (a bug, not the
    file's) becomes a :class:`MatchFileError` that says so, never a traceback."""
    def wrap(reader: Callable[[str, bool], Match]) -> Callable[[str, bool], Match]:
        @functools.wraps(reader)
        def read(text: str, keep_games: bool = False) -> Match:
            try:
                return reader(text, keep_games)
            except BackgammonError:
                raise
            except (RecursionError, MemoryError, ValueError, LookupError, TypeError, ArithmeticError,
                    AssertionError, AttributeError) as e:
                raise MatchFileError(f"an internal fault of the {FORMAT_TITLES.get(fmt, fmt)} reader "
                                     f"({type(e).__name__}: {plain_message(e)}); please report it with the file"
                                     ) from e
        return read
    return wrap


def register_format(name: str, reader: Reader, writer: Writer) -> None:
    """Make ``Match.read(text, format=name)`` and ``match.write(name)`` use ``reader``/``writer``."""
    FORMATS[name] = (reader, writer)


def _format(name: str) -> tuple[Reader, Writer]:
    try:
        return FORMATS[name]
    except KeyError:
        raise NotationError(f"unknown game file format {show(name)}; known: {', '.join(sorted(FORMATS))}") from None


@dataclass(slots=True)
class Match:
    """A match (or a single game, or money play: ``length`` 0) read from a game file.

    ``players`` are the names of White and Black (the file's player 1 and player 2),
    ``headers`` every header the file gave (name: text, in order), ``games`` the
    :class:`MatchGame` values, and ``error`` the fault that stopped a ``keep_games=True`` read
    (``None`` when the whole file was read).
    """

    variant: Variant = field(default_factory=lambda: find_variant("standard"))
    players: tuple[str, str] = ("White", "Black")
    length: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    games: list[MatchGame] = field(default_factory=list)
    error: MatchFileError | None = None

    # -- reading -------------------------------------------------------------------------------
    def stop_at(self, error: MatchFileError) -> None:
        """Keep the games read so far and record ``error`` as where reading stopped (its message
        then says how many games were kept): the ``keep_games=True`` reading of every format."""
        kept = len(self.games)
        error.args = (f"{error.args[0]} (the {kept} game{'s' if kept != 1 else ''} before it "
                      f"{'were' if kept != 1 else 'was'} kept)",)
        self.error = error

    @classmethod
    def read(cls, text: str, format: str | None = None, *, keep_games: bool = False) -> Match:
        """Read a game file's text; ``format`` is ``"mat"``, ``"sgf"`` or ``"variant"`` (the
        .mat-style text of Mexican and Mini-Gam), or ``None`` to tell from the text."""
        if not isinstance(text, str):
            raise NotationError(f"a game file is read from text, not {show(text)}")
        fmt = format if format is not None else detect_format(text)
        return _format(fmt)[0](text, keep_games)

    @classmethod
    def from_mat(cls, text: str, *, keep_games: bool = False) -> Match:
        """Read Jellyfish .mat text (standard backgammon; a ``Variation`` header of Mexican or
        Mini-Gam reads the .mat-style text of those games)."""
        return cls.read(text, "variant" if detect_format(text) == "variant" else "mat", keep_games=keep_games)

    @classmethod
    def from_sgf(cls, text: str, *, keep_games: bool = False) -> Match:
        """Read GNU Backgammon's SGF (``GM[6]``) text."""
        return cls.read(text, "sgf", keep_games=keep_games)

    @classmethod
    def from_games(cls, games: list[Game], *, players: tuple[str, str] = ("White", "Black"),
                   length: int = 0, headers: dict[str, str] | None = None) -> Match:
        """A match of games played here (no cube actions); finished games score their points."""
        if not games:
            raise NotationError("a match needs at least one game")
        variant = games[0].variant
        out: list[MatchGame] = []
        score = [0, 0]
        for i, g in enumerate(games):
            if not isinstance(g, Game):
                raise NotationError(f"Match.from_games takes Game objects, not {show(g)}")
            if g.variant != variant:
                raise NotationError(f"game {i + 1} is {g.variant.name}, game 1 {variant.name}: one variant a match")
            result = None
            if g.is_over and g.winner is not None:
                result = GameResult(g.winner, g.points, "bearoff")
            out.append(MatchGame(i + 1, g, (score[0], score[1]), (), result))
            if result is not None:
                score[0 if result.winner == WHITE else 1] += result.points
        return cls(variant, players, length, dict(headers or {}), out)

    # -- writing -------------------------------------------------------------------------------
    def write(self, format: str) -> str:
        """The match as the text of ``format`` (``"mat"``, ``"sgf"``, ``"variant"``)."""
        return _format(format)[1](self)

    def to_mat(self) -> str:
        """Jellyfish .mat text (standard), or the .mat-style text of Mexican and Mini-Gam."""
        return self.write("mat" if self.variant.name == find_variant("standard").name else "variant")

    def to_sgf(self) -> str:
        """GNU Backgammon SGF text (standard backgammon only)."""
        return self.write("sgf")

    def record(self) -> dict[str, Any]:
        """The match as a JSON-ready dict: headers, length, and each game's record with its cube."""
        return {"format": "backgammon_lab match record", "version": 1, "variant": self.variant.name,
                "players": {"white": self.players[0], "black": self.players[1]}, "length": self.length,
                "headers": dict(self.headers), "games": [g.record() for g in self.games]}

    def to_json(self) -> str:
        """:meth:`record` as JSON text."""
        return json.dumps(self.record(), indent=1)

    # -- access --------------------------------------------------------------------------------
    def game(self, number: int = 1) -> Game:
        """The :class:`Game` of game ``number`` (1 = the first), to step through or analyse."""
        return self[number].game

    def __getitem__(self, number: int) -> MatchGame:
        try:
            i = whole_number(number, "game", 1, len(self.games), error=NotationError)
        except NotationError:
            raise NotationError(f"no game {show(number)} in this match: it has {len(self.games)} "
                                f"game{'s' if len(self.games) != 1 else ''} (numbered from 1)") from None
        return self.games[i - 1]

    def __len__(self) -> int:
        return len(self.games)

    def __iter__(self) -> Iterator[MatchGame]:
        return iter(self.games)

    @property
    def score(self) -> tuple[int, int]:
        """White's and Black's scores after the last finished game."""
        s = [0, 0]
        if self.games:
            s = list(self.games[0].score)
        for g in self.games:
            if g.result is not None:
                s[0 if g.result.winner == WHITE else 1] += g.result.points
        return (s[0], s[1])

    def count_moves(self) -> int:
        """How many plays (checker moves, 'no move' included) the match's games hold."""
        return sum(1 for g in self.games for a in g.actions if "play" in a)

    def __repr__(self) -> str:
        what = f"{self.length}-point match" if self.length else "money play"
        return (f"<Match {self.variant.name} {what} {self.players[0]} - {self.players[1]}: "
                f"{len(self.games)} game{'s' if len(self.games) != 1 else ''}, score {self.score[0]}-"
                f"{self.score[1]}{', incomplete' if self.error else ''}>")


#: What each format is called in messages.
FORMAT_TITLES = {"mat": "Jellyfish .mat text", "sgf": "GNU Backgammon SGF",
                 "variant": "the .mat-style text of Mexican and Mini-Gam"}


def _head(text: str) -> str:
    """The text without a byte-order mark and the white space before it."""
    return text[:4096].lstrip("\ufeff \t\r\n\f\v")


def looks_like_match_file(text: str) -> bool:
    """True for text that is a game file rather than a JSON record: SGF (its first character ``(``),
    or text with a ``Game N`` line (a .mat file or the .mat-style text of our variants)."""
    return _head(text).startswith("(") or re.search(r"^[ \t]*Game[ \t]+\d+[ \t]*$", text[:200_000],
                                                    re.M | re.I) is not None


def detect_format(text: str) -> str:
    """``"sgf"`` (the first character, after white space, is ``(``), ``"variant"`` (a Variation
    header of Mexican or Mini-Gam) or ``"mat"``."""
    t = _head(text)
    if t.startswith("("):
        return "sgf"
    for line in text[:20_000].splitlines()[:60]:
        low = line.strip().lower()
        if low.startswith("; [variation") or low.startswith(";[variation"):
            value = low.split('"')[1] if low.count('"') >= 2 else ""
            if value.replace("-", "").replace(" ", "") in ("mexican", "mexicanbackgammon", "minigam"):
                return "variant"
    return "mat"


#: Characters that end a line for ``str.splitlines``: a .mat line cannot hold them.
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def line_text(value: str) -> str:
    """``value`` as one line of a .mat file can hold it: each line break (``\\n``, ``\\r`` and the
    other characters that end a line) becomes a space, as GNU Backgammon writes a name."""
    return _LINE_BREAKS.sub(" ", value)


def player_names(players: tuple[str, str], defaults: tuple[str, str] = ("Player 1", "Player 2")) -> tuple[str, str]:
    """The players' names as a .mat-style file writes and reads them: one line each, and a name
    that is empty or only white space is ``defaults``."""
    a, b = (line_text(p) for p in players)
    for name in (a, b):
        if len(name) > MAX_NAME:
            raise MatchFileError(f"a player's name of {len(name):,} characters: at most {MAX_NAME:,} are read",
                                 text=name[:40] + "...")
    return (a if a.strip() else defaults[0], b if b.strip() else defaults[1])


_SCORE_ANY = re.compile(r"^\s*(.*?)\s*:\s*(\d{1,20})\s+(.*?)\s*:\s*(\d{1,20})\s*$")


def score_line(line: str, names: tuple[str, str] | None = None) -> tuple[str, str, int, int, int] | None:
    """A game's score line, ``alice : 0    bob : 2``, as (name 1, name 2, score 1, score 2, the
    column where name 2 starts), or ``None``. With ``names`` (the players the headers give) the line
    is first read as those names, so names holding ``:``, digits or ``Wins`` are read whole."""
    if len(line) > 3 * MAX_NAME:
        return None
    if names is not None and names[0].strip() and names[1].strip():
        m = re.match(rf"^\s*({re.escape(names[0].strip())})\s*:\s*(\d{{1,20}})\s+({re.escape(names[1].strip())})"
                     rf"\s*:\s*(\d{{1,20}})\s*$", line)
        if m is not None:
            return m.group(1), m.group(3), int(m.group(2)), int(m.group(4)), m.start(3)
    m = _SCORE_ANY.match(line)
    if m is None:
        return None
    return m.group(1), m.group(3), int(m.group(2)), int(m.group(4)), m.start(3)


def header_line(line: str) -> tuple[str, str] | None:
    """The (name, value) of a header line ``; [Name "value"]``, or ``None``: the value runs from the
    first ``"`` to the last, so it may hold ``"`` and ``]`` itself."""
    t = line.strip()
    if not t.startswith(";"):
        return None
    t = t[1:].lstrip()
    if not t.startswith("[") or not t.endswith("]"):
        return None
    first, last = t.find('"'), t.rfind('"')
    if first < 0 or last == first or t[last + 1:-1].strip():
        return None
    name = t[1:first].strip()
    if not name or "]" in name:
        return None
    return name, t[first + 1:last]


def header_lines(headers: dict[str, str], first: dict[str, str]) -> list[str]:
    """The header lines ``; [Name "value"]`` of ``headers``, with the values of ``first`` put in
    (those missing added at the end), each line at most :data:`MAX_LINE` characters (a longer value
    is cut to fit): a line break in
    a value becomes a space (:func:`line_text`); a name that a header line cannot hold (empty,
    or holding ``"`` or ``]``) is left out."""
    out = []
    merged = dict(headers)
    merged.update(first)
    for k, v in merged.items():
        name = line_text(k).strip()
        if not name or '"' in name or "]" in name:
            continue
        line = f'; [{name} "{line_text(v)}"]'
        if len(line) > MAX_LINE:  # longer than a reader reads: the value is cut to fit the line
            line = line[:MAX_LINE - 2] + '"]'
        out.append(line)
    return out


def decode_match_bytes(data: bytes) -> str:
    """The text of a game file's bytes: UTF-8 (a byte-order mark read past), UTF-16 when a
    UTF-16 byte-order mark starts it, otherwise Latin-1 (every byte is a character, so this never
    fails; a file of another program's bytes is then refused by the reader, in words)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# ---------------------------------------------------------------------------------------------
# The replay: a file's items checked against the engine, one game at a time


class GameBuilder:
    """Builds one :class:`MatchGame` from a file's items, checking each against the engine.

    Readers call :meth:`roll_and_play` for a roll and its move, :meth:`cube_action` for a cube
    action and :meth:`finish` for the result line, each with where it is in the file
    (``move``: the file's move number, ``text``: its text); a refusal raises
    :class:`MatchFileError` naming the game, the move and the text.
    """

    def __init__(self, number: int, variant: Variant, score: tuple[int, int] = (0, 0), *,
                 match_length: int = 0, jacoby: bool = False, crawford: bool = False) -> None:
        self.number = number
        self.game = Game(variant)
        self.score = score
        self.match_length = match_length
        self.jacoby = jacoby
        self.crawford = crawford
        self.cube: list[CubeAction] = []
        self.value = 1
        self.owner: Player | None = None
        self.offered: tuple[Player, int] | None = None  # (doubler, value offered) awaiting an answer
        self.result: GameResult | None = None

    def fail(self, message: str, move: int | None, text: str | None) -> MatchFileError:
        """The error for a fault at ``move`` / ``text`` of this game."""
        return MatchFileError(message, game=self.number, move=move, text=text)

    # -- checker play --------------------------------------------------------------------------
    def _actions(self) -> int:
        return self.game.index

    def roll_and_play(self, player: Player, dice: tuple[int, int], play: str | None, move: int | None,
                      text: str | None) -> None:
        """``player`` rolls ``dice`` and plays ``play`` (move text in our notation; ``None`` when
        the file writes no move: the roll has no legal play, or the player resigns after it)."""
        g = self.game
        if self.result is not None:
            raise self.fail(f"the game is already over ({self._end_text()}): nothing more can be played",
                            move, text)
        if self.offered is not None:
            raise self.fail(f"{player} rolls, but {self.offered[0]}'s double is not yet answered (take or drop)",
                            move, text)
        try:
            roll = Roll(*dice)
        except BackgammonError as e:
            raise self.fail(str(e), move, text) from None
        st = g.state
        if st.phase is Phase.OPENING:
            if roll.is_double:
                raise self.fail(f"the first roll of a game cannot be doubles ({roll}): it is the opening roll",
                                move, text)
            high, low = roll.high, roll.low
            g.roll(OpeningRoll(high, low) if player == WHITE else OpeningRoll(low, high))
        elif st.phase is Phase.ROLL:
            if st.player != player:
                raise self.fail(f"it is {st.player}'s turn to roll, not {player}'s", move, text)
            g.roll(RollDice(roll))
        elif st.phase is Phase.PLAY:
            raise self.fail("the roll before this one is written without a move, but it has legal plays "
                            f"({st.hint()})", *(self._pending_resign or (move, text)))
        else:
            raise self.fail(f"a roll is not due now ({st.hint()})", move, text)
        st = g.state
        if st.phase is Phase.PLAY:
            if play is None:
                self._pending_resign = (move, text)
                return
            try:
                g.play(play)
            except AmbiguousMoveError as e:
                assert st.plays is not None
                resolved = resolve_stops(st.plays, play, roll)
                if resolved is None:
                    raise self.fail(f"not a legal play of {roll.high}{roll.low} here: {e}", move, text) from None
                g.play(resolved)
            except BackgammonError as e:
                raise self.fail(f"not a legal play of {roll.high}{roll.low} here: {e}", move, text) from None
        elif play is not None and play.strip() not in ("", "no move"):
            raise self.fail(f"{player} has no legal move with {roll}, but the file plays {play!r}", move, text)
        if g.state.phase is not Phase.ROLL and g.state.phase is not Phase.OVER:
            raise self.fail(f"the play leaves the turn unfinished ({g.state.hint()}): a standard turn is one "
                            "roll", move, text)

    _pending_resign: tuple[int | None, str | None] | None = None
    #: The file wrote ``???`` for the last roll's move (an unknown move: the game may stop there).
    unknown_move: bool = False

    @property
    def pending_roll(self) -> tuple[int | None, str | None] | None:
        """Where the file wrote the last roll without its move (move number, text), if it did."""
        return self._pending_resign if self.waiting_for_play else None

    @property
    def waiting_for_play(self) -> bool:
        """A roll was written without a move while legal plays exist (only a resignation may follow)."""
        return self.game.state.phase is Phase.PLAY

    # -- the cube ------------------------------------------------------------------------------
    def cube_action(self, player: Player, kind: CubeKind, value: int | None, move: int | None,
                    text: str | None) -> None:
        """``player`` doubles (to ``value``), takes, drops or beavers; checked against whose turn it
        is, who owns the cube and what was offered."""
        st = self.game.state
        if self.result is not None:
            raise self.fail(f"the game is already over ({self._end_text()})", move, text)
        before = self._actions()
        if kind == "double":
            if self.offered is not None:
                raise self.fail("a double is already offered and not answered", move, text)
            if st.phase is not Phase.ROLL:
                raise self.fail(f"a player doubles before rolling, and this is not the time ({st.hint()})",
                                move, text)
            if st.player != player:
                raise self.fail(f"only the player to roll ({st.player}) may double, not {player}", move, text)
            if self.owner is not None and self.owner != player:
                raise self.fail(f"{player} cannot double: {self.owner} owns the cube", move, text)
            if self.crawford:
                raise self.fail("no double is allowed in the Crawford game", move, text)
            want = self.value * 2
            if want > MAX_CUBE:
                raise self.fail(f"the cube is at {self.value:,}: a double would pass the largest cube, "
                                f"{MAX_CUBE:,}", move, text)
            if value is not None and value != want:
                raise self.fail(f"the cube is at {self.value}, so a double offers {want}, not {value}", move, text)
            self.offered = (player, want)
            self.cube.append(CubeAction(before, player, "double", want))
            return
        if self.offered is None:
            raise self.fail(f"{player} {kind}s, but no double was offered", move, text)
        doubler, offered = self.offered
        if player != other(doubler):
            raise self.fail(f"{player} cannot answer {player}'s own double", move, text)
        if kind == "take":
            self.value, self.owner, self.offered = offered, player, None
            self.cube.append(CubeAction(before, player, "take", offered))
        elif kind == "beaver":
            want = offered * 2
            if want > MAX_CUBE:
                raise self.fail(f"a beaver of a {offered:,} cube would pass the largest cube, {MAX_CUBE:,}",
                                move, text)
            if value is not None and value != want:
                raise self.fail(f"a beaver of a {offered} cube makes it {want}, not {value}", move, text)
            self.cube.append(CubeAction(before, player, "beaver", want))
            self.value, self.owner, self.offered = want, player, None
        else:  # drop
            self.cube.append(CubeAction(before, player, "drop", offered))
            self.offered = None
            self.result = GameResult(doubler, self.value, "drop")

    # -- the end -------------------------------------------------------------------------------
    def _end_text(self) -> str:
        r = self.result
        assert r is not None
        return f"{r.winner} won {r.points} by {r.how}"

    def finish(self, winner: Player, points: int, move: int | None, text: str | None, *,
               forfeit: bool = False) -> None:
        """The file says ``winner`` wins ``points``: checked against the bear-off, the drop or, when the
        game is not over, read as a resignation (``points`` a multiple 1, 2 or 3 of the cube). With
        ``forfeit`` (the file says the game ended by a forfeit, an abandonment, a lost connection)
        an unfinished game ends with any number of points, as a ``forfeit``."""
        g = self.game
        if points < 1:
            raise self.fail(f"a game is won by 1 point or more, not {points}", move, text)
        if forfeit and self.result is None and not g.is_over:
            if self.offered is not None:  # the double is left unanswered: the game stops there
                self.offered = None
            self.result = GameResult(winner, points, "forfeit")
            return
        if self.result is not None:  # a drop
            if self.result.winner != winner or self.result.points != points:
                raise self.fail(f"after the drop {self.result.winner} wins {self.result.points}, but the file "
                                f"says {winner} wins {points}", move, text)
            return
        if self.offered is not None:
            raise self.fail(f"{self.offered[0]}'s double is not answered, but the game ends", move, text)
        if g.is_over:
            assert g.winner is not None
            base = g.points
            if self.jacoby and self.match_length == 0 and self.value == 1:
                base = 1
            expect = base * self.value
            if g.winner != winner:
                raise self.fail(f"{g.winner} has borne off every checker, but the file says {winner} wins",
                                move, text)
            if points != expect and not self._capped(winner, points, expect):
                kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}.get(base, f"{base} points")
                raise self.fail(f"{winner} wins {kind} with the cube at {self.value}: {expect} point"
                                f"{'s' if expect != 1 else ''}, not {points}", move, text)
            self.result = GameResult(winner, points, "bearoff")
            return
        need = self.match_length - self.score[0 if winner == WHITE else 1] if self.match_length else 0
        whole = points >= 1 and not points % self.value and points // self.value <= 3
        if not whole and not (need and points == need):
            raise self.fail(f"a resignation gives up 1, 2 or 3 times the cube ({self.value})"
                            f"{f' or the {need} points that win the match' if need else ''}, not {points}",
                            move, text)
        self.result = GameResult(winner, points, "resign" if whole or need < 3 * self.value else "forfeit")

    def _capped(self, winner: Player, points: int, expect: int) -> bool:
        """Some writers give only the points that win the match: true when ``points`` is that."""
        if not self.match_length:
            return False
        need = self.match_length - self.score[0 if winner == WHITE else 1]
        return points < expect and points >= need

    def build(self, *, unfinished: bool = False) -> MatchGame:
        """The game as read: a game borne off without a result line scores its points; a roll written
        without a move, while legal plays exist, must be followed by a result (a resignation), unless
        ``unfinished`` (the file says the game stopped there): then the game is kept unfinished,
        its :class:`Game` waiting for that roll's play."""
        g = self.game
        if self.waiting_for_play and self.result is None and not unfinished:
            where = self._pending_resign or (None, None)
            raise self.fail("a roll is written without a move, but legal plays exist and no result follows",
                            *where)
        if self.result is None and g.is_over and g.winner is not None:
            base = 1 if self.jacoby and self.match_length == 0 and self.value == 1 else g.points
            self.result = GameResult(g.winner, base * self.value, "bearoff")
        return MatchGame(self.number, self.game, self.score, tuple(self.cube), self.result, self.crawford)


_JUMP = re.compile(r"^(bar|\d{1,2})/(off|\d{1,2})(\*?)$")


def resolve_stops(plays: PlayList, text: str, roll: Roll) -> str | None:
    """A move with a checker's two steps written as one (``6/1`` with 4-1) that fits two plays,
    written with its stop (``6/5/1``): the one play that hits as many blots as the text marks
    (writers mark a hit on the way, ``6/2*/1``). ``None`` when that does not single one out."""
    if roll.is_double:
        return None
    options: list[list[str]] = []
    for token in text.split():
        m = _JUMP.match(token)
        if not m:
            options.append([token])
            continue
        a = 25 if m.group(1) == "bar" else int(m.group(1))
        paths = []
        for die in (roll.high, roll.low):
            mid = a - die
            if 1 <= mid <= 24:
                paths.append(f"{m.group(1)}/{mid}/{m.group(2)}{m.group(3)}")
        options.append(paths or [token])
    stars = text.count("*")
    found: dict[Any, str] = {}
    for choice in itertools.islice(itertools.product(*options), 64):
        candidate = " ".join(choice)
        try:
            p = plays.find(candidate)
        except BackgammonError:
            continue
        if sum(st.hit for st in p.steps) == stars:
            found.setdefault(p.position, candidate)
    return next(iter(found.values())) if len(found) == 1 else None


class ScoreKeeper:
    """The score from game to game: checks each game's score line against the results before it
    and says which game is the Crawford game."""

    def __init__(self, length: int, crawford_rule: bool) -> None:
        self.length = length
        self.crawford_rule = crawford_rule and length > 1
        self.score: tuple[int, int] | None = None
        self.crawford_done = False

    def start(self, number: int, score: tuple[int, int] | None, text: str | None) -> tuple[tuple[int, int], bool]:
        """The score before game ``number`` (``score``: the file's, or ``None`` when the file gives
        none) and whether it is the Crawford game."""
        if score is not None and max(score) > MAX_SCORE:
            raise MatchFileError(f"a score of more than {MAX_SCORE:,} points", game=number, text=text)
        if self.score is not None and score is not None and score != self.score and not (
                self.length == 0 and score == (0, 0)):  # in money play the score lines may restart
            raise MatchFileError(f"the score before this game is {score[0]}-{score[1]}, but the games before "
                                 f"it make {self.score[0]}-{self.score[1]}", game=number, text=text)
        s = score if score is not None else self.score or (0, 0)
        if self.length and max(s) >= self.length:
            raise MatchFileError(f"the match to {self.length} is already won at {s[0]}-{s[1]}", game=number,
                                 text=text)
        crawford = False
        if self.crawford_rule and not self.crawford_done and self.length - 1 in s:
            crawford = self.crawford_done = True
        elif self.length > 1 and self.length - 1 in s:
            self.crawford_done = True
        self.score = s
        return s, crawford

    def end(self, game: MatchGame) -> None:
        """Count the result of ``game`` (an unfinished game leaves the score unknown)."""
        assert self.score is not None
        if game.result is None:
            self.score = None
            return
        s = list(self.score)
        s[0 if game.result.winner == WHITE else 1] += game.result.points
        if max(s) > MAX_SCORE:
            raise MatchFileError(f"the score passes {MAX_SCORE:,} points", game=game.number)
        self.score = (s[0], s[1])


def player_of(index: int) -> Player:
    """The player of the file's column ``index`` (0: player 1, White; 1: player 2, Black)."""
    return WHITE if index == 0 else BLACK
