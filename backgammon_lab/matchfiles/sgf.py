"""GNU Backgammon's SGF (``GM[6]``) for standard backgammon: read and write.

A file holds one game tree per game, ``(;FF[4]GM[6]...;B[41lpab];W[31fehe]...)``. The root node
carries the match: ``MI[length:7][game:0][ws:0][bs:0]`` (match length, the game's index from 0,
White's and Black's scores before it), ``PW``/``PB`` the players, ``DT`` the date, ``EV``/``RO``/
``PC`` event, round and place, ``RU`` the rules (``Crawford``, ``Crawford:CrawfordGame``,
``Jacoby``) and ``RE`` the result (``W+2``, ``B+1R``: the winner, the points, ``R`` for a
resignation). Each further node is one action of White (``W``) or Black (``B``): a roll and its
move, the two dice then two letters a step (from, to), or ``double``, ``take``, ``drop``,
``beaver``. Letters ``a``-``x`` are the 24 points, in White's numbering for White (``a`` is White's
1-point) and reversed for Black (``a`` is Black's 24-point); ``y`` is the bar and ``z`` borne off.

Every other property (gnubg's analysis ``A``, ``DA``, ``LU``, comments ``C``, ...) is read past and
not kept; a game set up from a position (``AE``/``AB``/``AW``) is refused.
"""

from __future__ import annotations

import re

from ..engine import MakePlay, OpeningRoll, RollDice
from ..errors import NotationError, show
from ..position import BLACK, OFF, WHITE, Player, Step
from ..variants import find_variant
from .model import (
    MAX_GAMES,
    MAX_LENGTH,
    MAX_SCORE,
    GameBuilder,
    Match,
    MatchFileError,
    MatchGame,
    ScoreKeeper,
    guarded,
    player_names,
    register_format,
)

__all__ = ["read_sgf", "write_sgf", "parse_sgf", "sgf_move_text", "steps_to_sgf"]

MAX_FILE = 50_000_000

Node = list[tuple[str, list[str]]]


_IDENT = re.compile(r"\s*([A-Za-z]+)\s*")
_VALUE = re.compile(r"((?:[^\\\]]|\\.)*)\]", re.S)
_ESCAPE = re.compile(r"\\(\r\n|\n\r|.)", re.S)
_SPACE = re.compile(r"\s*")
_OPENS = re.compile(r"\(+")
_CLOSES = re.compile(r"\)+")


def _where(text: str, j: int) -> str:
    """``character J (line L)`` of ``text``."""
    return f"character {j + 1:,}, line {text.count(chr(10), 0, j) + 1:,}"


def _unescape(raw: str) -> str:
    """An SGF value without its escapes: ``\\]`` is ``]``, ``\\\\`` is ``\\``, an escaped line break
    (a soft break) is nothing."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(lambda m: "" if m.group(1) in ("\n", "\r", "\r\n", "\n\r") else m.group(1), raw)


def parse_sgf(text: str) -> list[list[Node]]:
    """The game trees of SGF text, each as its main line of nodes (a node: (property, values) pairs).

    Variations other than the first are skipped. The text is read in one pass without recursion,
    so trees nested any depth are read (or refused) like flat ones; a fault raises
    :class:`MatchFileError` naming the character and the line.
    """
    trees: list[list[Node]] = []
    # depth: the '(' open; main: how many of them are on the main line (the first variation at each
    # level); taken[k]: whether level k + 1 of the main line has had its first variation (a byte a level)
    depth = main = 0
    taken = bytearray()
    nodes: list[Node] = []
    i, n = 0, len(text)

    def space(j: int) -> int:
        m = _SPACE.match(text, j)
        return m.end() if m else j

    while True:
        i = space(i)
        if i >= n:
            break
        c = text[i]
        if c == "(":
            k = _OPENS.match(text, i).end() - i  # type: ignore[union-attr]  # a run of '(' at once
            if depth == 0:
                nodes = []
                trees.append(nodes)
                main, taken, depth, i, k = 1, bytearray(1), 1, i + 1, k - 1
            if k:
                if depth == main and not taken[-1]:  # each is the first variation of the one before
                    taken[-1] = 1
                    taken.extend(b"\x01" * (k - 1) + b"\x00")
                    main += k
                elif depth == main:
                    taken[-1] = 1
                depth += k
                i += k
        elif c == ")":
            k = _CLOSES.match(text, i).end() - i  # type: ignore[union-attr]
            k = min(k, depth)
            if depth == 0:
                raise MatchFileError(f"a ')' that closes no game tree, at {_where(text, i)}")
            off = depth - main  # levels off the main line close first
            if k > off:
                del taken[len(taken) - (k - off):]
                main -= k - off
            depth -= k
            i += k
        elif c == ";":
            if depth == 0:
                raise MatchFileError(f"SGF text is a sequence of game trees '(;...)', not "
                                     f"{show(text[i:i + 30])} (at {_where(text, i)})")
            if depth == main and taken[-1]:
                raise MatchFileError(f"a node after a variation, at {_where(text, i)}: in SGF the "
                                     "variations of a tree come after its nodes")
            node: Node = []
            i += 1
            while True:
                m = _IDENT.match(text, i)
                if m is None:
                    break
                ident = m.group(1)
                i = m.end()
                values: list[str] = []
                while i < n and text[i] == "[":
                    v = _VALUE.match(text, i + 1)
                    if v is None:
                        raise MatchFileError(f"the SGF text ends inside the value of {ident}, begun at "
                                             f"{_where(text, i)}: a ']' is missing")
                    values.append(_unescape(v.group(1)))
                    i = space(v.end())
                if not values:
                    raise MatchFileError(f"the SGF property {show(ident, 40)} has no value (at {_where(text, i)})")
                node.append((ident, values))
            if depth == main:
                nodes.append(node)
        elif depth == 0:
            raise MatchFileError(f"SGF text is a sequence of game trees '(;...)', not {show(text[i:i + 30])} "
                                 f"(at {_where(text, i)})")
        else:
            raise MatchFileError(f"unexpected {show(c)} in the SGF text at {_where(text, i)}")
    if depth:
        raise MatchFileError(f"the SGF text ends inside a game tree: {depth:,} ')' missing")
    if not trees:
        raise MatchFileError("no SGF game tree found")
    return trees


#: SGF's board: standard backgammon's 24 points, whose letters a..x are White's points 1..24.
_BOARD = find_variant("standard")


def _letter_point(c: str, player: Player) -> int:
    """Point in the mover's numbering (25 the bar, 0 borne off) of an SGF letter."""
    if c == "y":
        return _BOARD.bar
    if c == "z":
        return OFF
    return _BOARD.renumber(ord(c) - ord("a") + 1, player)


def _point_letter(p: int, player: Player) -> str:
    if p == _BOARD.bar:
        return "y"
    if p == OFF:
        return "z"
    return chr(ord("a") + _BOARD.renumber(p, player) - 1)


def sgf_move_text(letters: str, player: Player) -> str:
    """The steps of an SGF move (``lpab``) in our notation for ``player`` (``13/9 24/23``)."""
    if len(letters) % 2 or not re.fullmatch(r"[a-z]*", letters):
        raise NotationError(f"an SGF move is pairs of letters a-z, not {show(letters)}")
    steps = []
    for k in range(0, len(letters), 2):
        a = _letter_point(letters[k], player)
        b = _letter_point(letters[k + 1], player)
        if a == 0 or b == 25:
            raise NotationError(f"the SGF step {letters[k:k + 2]!r} runs from off the board or onto the bar")
        steps.append(f"{'bar' if a == 25 else a}/{'off' if b == 0 else b}")
    return " ".join(steps)


def steps_to_sgf(steps: tuple[Step, ...] | list[Step], player: Player) -> str:
    """The steps of a play as SGF letters for ``player``."""
    return "".join(_point_letter(s.start, player) + _point_letter(s.end, player) for s in steps)


# ---------------------------------------------------------------------------------------------
# Reading


def _props(node: Node) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for k, v in node:
        out.setdefault(k, []).extend(v)
    return out


_HEADER_PROPS = {"EV": "Event", "RO": "Round", "PC": "Site", "AN": "Annotator", "GC": "Comment"}


@guarded("sgf")
def read_sgf(text: str, keep_games: bool = False) -> Match:
    """Read GNU Backgammon SGF text into a :class:`Match`, replaying every game through the engine.

    Faults raise :class:`MatchFileError` naming the game, the move number (the node's place in the
    game, from 1) and the text; ``keep_games`` keeps the games before the fault (``match.error``).
    """
    if not isinstance(text, str):
        raise NotationError(f"SGF is read from text, not {show(text)}")
    if len(text) > MAX_FILE:
        raise MatchFileError(f"the text is longer than {MAX_FILE:,} characters: not an SGF file")
    trees = parse_sgf(text.lstrip("\ufeff"))
    match = Match(find_variant("standard"), ("White", "Black"), 0, {}, [])
    keeper: ScoreKeeper | None = None
    first = 1
    for k, nodes in enumerate(trees):
        try:
            if not nodes:
                raise MatchFileError("an empty game tree", game=k + 1)
            root = _props(nodes[0])
            if root.get("GM", ["6"])[0].strip() != "6":
                raise MatchFileError(f"GM[{root['GM'][0]}] is not backgammon (GM[6])", game=k + 1)
            info = _match_info(root.get("MI", []), k + 1)
            length = info.get("length", 0)
            if k == 0:
                first = info.get("game", 0) + 1  # a file may start at a later game of a match
            number = first + k  # the games follow each other, whatever MI says (as gnubg reads them)
            if number > MAX_GAMES:
                raise MatchFileError(f"the games are numbered past {MAX_GAMES:,}", game=number)
            if k == 0:
                match.length = length
                match.players = player_names((root.get("PW", [""])[0], root.get("PB", [""])[0]), ("White", "Black"))
                if "DT" in root:
                    match.headers["EventDate"] = root["DT"][0].replace("-", ".")
                for prop, name in _HEADER_PROPS.items():
                    if prop in root:
                        match.headers[name] = root[prop][0]
                rules = " ".join(root.get("RU", []))
                if "crawford" in rules.lower():
                    match.headers["Crawford"] = "On"
                if "jacoby" in rules.lower():
                    match.headers["Jacoby"] = "On"
                keeper = ScoreKeeper(length, "crawford" in rules.lower())
            assert keeper is not None
            if length != match.length:
                raise MatchFileError(f"the match length is {length} here but {match.length} in game 1",
                                     game=number)
            g = _read_game(number, nodes, root, keeper, match)
            match.games.append(g)
            keeper.end(g)
        except MatchFileError as e:
            if not keep_games:
                raise
            match.stop_at(e)
            break
    return match


#: The largest value of each MI field read: a match length, a game's index, a score.
_MI_LIMITS = {"length": MAX_LENGTH, "game": MAX_GAMES - 1, "ws": MAX_SCORE, "bs": MAX_SCORE}


def _match_info(values: list[str], game: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        key, _, val = v.partition(":")
        key = key.strip().lower()
        if key in _MI_LIMITS:
            hi = _MI_LIMITS[key]
            if not re.fullmatch(r"\s*\d{1,20}\s*", val) or int(val) > hi:
                raise MatchFileError(f"MI[{key}:...] is a whole number from 0 to {hi:,}", game=game,
                                     text=f"MI[{v}]")
            out[key] = int(val)
    return out


_RESULT = re.compile(r"^\s*([WB])\+(\d{1,5})([RF]?)\s*$", re.I)


def _read_game(number: int, nodes: list[Node], root: dict[str, list[str]], keeper: ScoreKeeper,
               match: Match) -> MatchGame:
    for bad in ("AE", "AB", "AW"):
        if bad in root or any(k == bad for node in nodes[1:] for k, _ in node):
            raise MatchFileError("the game is set up from a position (AE/AB/AW): only games from the start "
                                 "are read", game=number)
    info = _match_info(root.get("MI", []), number)
    score = (info["ws"], info["bs"]) if "ws" in info and "bs" in info else None
    before, crawford = keeper.start(number, score, f"MI{root.get('MI')}")
    rules = " ".join(root.get("RU", [])).lower()
    b = GameBuilder(number, find_variant("standard"), before, match_length=match.length,
                    jacoby="jacoby" in rules, crawford=crawford and keeper.crawford_rule)
    move = 0
    for node in nodes[1:]:
        for ident, values in node:
            if ident not in ("W", "B"):
                continue
            move += 1
            player: Player = WHITE if ident == "W" else BLACK
            value = values[0].strip()
            text = f"{ident}[{value}]"
            low = value.lower()
            if low in ("double", "take", "drop", "beaver"):
                b.cube_action(player, low, None, move, text)  # type: ignore[arg-type]
                continue
            m = re.fullmatch(r"([1-6])([1-6])([a-z]*)", value)
            if not m:
                raise b.fail("an SGF move is two dice and pairs of letters, or double, take, drop", move, text)
            try:
                play = sgf_move_text(m.group(3), player) if m.group(3) else None
            except NotationError as e:
                raise b.fail(str(e), move, text) from None
            b.roll_and_play(player, (int(m.group(1)), int(m.group(2))), play, move, text)
    if "RE" in root:
        res = root["RE"][0]
        m = _RESULT.match(res)
        if not m:
            if res.strip() not in ("", "?", "Void", "0"):
                raise MatchFileError("RE[...] is a result like W+2 or B+1R", game=number, text=f"RE[{res}]")
        else:
            winner: Player = WHITE if m.group(1).upper() == "W" else BLACK
            resigned = bool(m.group(3))
            if resigned and b.game.is_over:
                raise b.fail("RE says the game was resigned, but it was borne off", None, f"RE[{res}]")
            b.finish(winner, int(m.group(2)), None, f"RE[{res}]", forfeit=m.group(3).upper() == "F")
    return b.build(unfinished=True)  # a game without its result stops where its nodes stop


# ---------------------------------------------------------------------------------------------
# Writing


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(match: Match) -> str:
    """The match as GNU Backgammon SGF text: one game tree per game."""
    if match.variant.name != "standard":
        raise NotationError(f"GNU Backgammon's SGF holds standard backgammon, not {match.variant.title}")
    out = []
    players = player_names(match.players, ("White", "Black"))
    crawford_rule = match.headers.get("Crawford", "").lower() == "on"
    jacoby = match.headers.get("Jacoby", "").lower() == "on"
    date = match.headers.get("EventDate", "")
    for mg in match.games:
        root = ["FF[4]GM[6]CA[UTF-8]AP[backgammon_lab]",
                f"MI[length:{match.length}][game:{mg.number - 1}][ws:{mg.score[0]}][bs:{mg.score[1]}]",
                f"PW[{_escape(players[0])}]PB[{_escape(players[1])}]"]
        if date:
            root.append(f"DT[{_escape(date.replace('.', '-'))}]")
        for prop, name in _HEADER_PROPS.items():
            if name in match.headers:
                root.append(f"{prop}[{_escape(match.headers[name])}]")
        if match.length and crawford_rule:
            root.append("RU[Crawford:CrawfordGame]" if mg.crawford else "RU[Crawford]")
        elif jacoby:
            root.append("RU[Jacoby]")
        r = mg.result
        if r is not None:
            mark = {"resign": "R", "forfeit": "F"}.get(r.how, "")
            root.append(f"RE[{'W' if r.winner == WHITE else 'B'}+{r.points}{mark}]")
        nodes = [";" + "".join(root)]
        for player, value in _game_nodes(mg):
            nodes.append(f";{'W' if player == WHITE else 'B'}[{value}]")
        out.append("(" + "\n".join(nodes) + ")")
    return "\n".join(out) + "\n"


def _game_nodes(mg: MatchGame) -> list[tuple[Player, str]]:
    g = mg.game
    entries = g.entries[1:]
    cubes = list(mg.cube)
    out: list[tuple[Player, str]] = []
    pending: tuple[Player, str] | None = None
    for n, e in enumerate(entries):
        while cubes and cubes[0].before == n:
            c = cubes.pop(0)
            out.append((c.player, c.kind))
        a = e.action
        if isinstance(a, OpeningRoll):
            if a.white == a.black:
                continue
            who: Player = WHITE if a.white > a.black else BLACK
            pending = (who, f"{max(a.white, a.black)}{min(a.white, a.black)}")
        elif isinstance(a, RollDice):
            pending = (g.entries[n].state.player, f"{a.roll.first}{a.roll.second}")
        elif isinstance(a, MakePlay):
            assert pending is not None
            out.append((pending[0], pending[1] + steps_to_sgf(a.play.steps, pending[0])))
            pending = None
            continue
        else:
            raise MatchFileError(f"SGF of standard backgammon cannot write the action {a!r}", game=mg.number)
        if e.state.phase.value != "play":  # no legal move: the roll stands alone
            out.append(pending)
            pending = None
    if pending is not None:
        out.append(pending)
    for c in cubes:
        out.append((c.player, c.kind))
    return out


register_format("sgf", read_sgf, write_sgf)
