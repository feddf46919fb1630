"""Jellyfish match text (.mat, .txt) for standard backgammon: read and write.

The format, as GNU Backgammon, eXtreme Gammon, BGBlitz and the servers write it::

    ; [Site "Somewhere"]
    ; [Player 1 "alice"]
    ; [Player 2 "bob"]
    ; [EventDate "2025.11.08"]
    ; [Variation "Backgammon"]

     7 point match

     Game 1
     alice : 0                       bob : 0
      1)                             41: 13/9 24/23
      2) 31: 6/5 8/5                 41: 6/5 9/5
     ...
     10) 61: 9/8 13/7                 Doubles => 2
     11)  Takes                      64: 13/7 7/3
     ...
                                      Wins 2 points

Headers are ``; [Name "value"]`` lines. Each numbered line holds player 1's item on the left and
player 2's on the right: a roll and its move (``31: 8/5 6/5``, the dice then each step in the
mover's numbering; ``25`` or ``bar`` is the bar, ``0`` or ``off`` borne off, ``*`` a hit, a step
may repeat or be written ``8/5(2)``; a roll alone is a roll with no legal move), or a cube action
(``Doubles => 2``, ``Takes``, ``Drops``, ``Beavers => 4``). ``Wins N point(s) [and the match]``, in
the winner's column, ends a game; a game that ends without a bear-off or a drop is a resignation.

Player 1 is White here, player 2 Black. Every roll and move is replayed through the engine, every
cube action checked against the cube's owner, and every game's score line against the results
before it (see :class:`~backgammon_lab.matchfiles.model.GameBuilder`).
"""

from __future__ import annotations

import re

from ..engine import MakePlay, OpeningRoll, RollDice
from ..errors import NotationError, show
from ..game import Game
from ..position import BLACK, WHITE, Player, Step
from ..variants import find_variant
from .model import GameBuilder, Match, MatchFileError, MatchGame, ScoreKeeper, player_of, register_format

__all__ = ["read_mat", "write_mat", "mat_move_to_notation", "steps_to_mat"]

#: The longest file read (a long match is a few hundred kilobytes).
MAX_FILE = 20_000_000

_HEADER = re.compile(r'^\s*;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d{1,4})\s+point\s+match\s*$", re.I)
_UNLIMITED = re.compile(r"^\s*(unlimited|money)\b.*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d{1,5})\s*$", re.I)
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d{1,4})\s+(.*?)\s*:\s*(\d{1,4})\s*$")
_NUMBERED = re.compile(r"^(\s*(\d{1,4})\)\s?)(.*)$")

_STEP = r"(?:bar|\d{1,2})(?:/(?:bar|off|\d{1,2})\*?)+(?:\(\d\))?"
_ITEM = re.compile(
    r"(?P<roll>(?P<dice>[1-6]{2}):(?P<moves>(?:[ \t]+" + _STEP + r")*)(?:[ \t]+(?:cannot move|can't move|no move|\?\?\?\?)"
    r"(?![\w/]))?)"
    r"|(?P<double>Doubles\s*=>\s*(?P<dvalue>\d{1,5}))"
    r"|(?P<beaver>Beavers\s*=>\s*(?P<bvalue>\d{1,5}))"
    r"|(?P<take>Takes|Accepts)"
    r"|(?P<drop>Drops|Passes|Rejects|Refuses)"
    r"|(?P<wins>Wins\s+(?P<points>\d{1,5})\s+points?(?:\s+and\s+the\s+match)?)"
    r"|(?P<loses>Loses\s+(?P<lpoints>\d{1,5})\s+points?|Losses\s+(?P<lspoints>\d{1,5})\s+points?)",
    re.I)


def mat_move_to_notation(moves: str, where: str = "") -> str:
    """A .mat move (``25/21 13/8*``, ``6/0``) in our notation (``bar/21 13/8*``, ``6/off``)."""
    out = []
    for token in moves.split():
        m = re.fullmatch(r"([^()]+)(\(\d\))?", token)
        if not m:
            raise NotationError(f"cannot read the step {show(token)}{where}")
        parts = m.group(1).split("/")
        conv = []
        for i, p in enumerate(parts):
            hit = p.endswith("*")
            p = p.rstrip("*")
            if p.isdigit():
                n = int(p)
                if i == 0 and n == 25:
                    p = "bar"
                elif i > 0 and n == 0:
                    p = "off"
                elif not 1 <= n <= 24:
                    raise NotationError(f"point {n} in the step {show(token)}{where} is not on the board")
            conv.append(p.lower() + ("*" if hit else ""))
        out.append("/".join(conv) + (m.group(2) or ""))
    return " ".join(out)


def steps_to_mat(steps: tuple[Step, ...] | list[Step]) -> str:
    """The steps of a play as a .mat writes them: one step each, in the order played, bar ``25``,
    borne off ``0``."""
    return " ".join(f"{s.start}/{s.end}{'*' if s.hit else ''}" for s in steps)


# ---------------------------------------------------------------------------------------------
# Reading


def read_mat(text: str, keep_games: bool = False) -> Match:
    """Read Jellyfish .mat text into a :class:`Match`, replaying every game through the engine.

    A fault raises :class:`MatchFileError` naming the game, the move number and the text, and
    nothing is returned; with ``keep_games`` the games before the faulty one are returned, with
    the error in ``match.error``.
    """
    if not isinstance(text, str):
        raise NotationError(f"a .mat file is read from text, not {show(text)}")
    if len(text) > MAX_FILE:
        raise MatchFileError(f"the text is longer than {MAX_FILE:,} characters: not a match file")
    lines = text.lstrip("\ufeff").splitlines()
    headers: dict[str, str] = {}
    length: int | None = None
    i = 0
    while i < len(lines) and not _GAME.match(lines[i]):
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        m = _HEADER.match(line)
        if m:
            headers[m.group(1).strip()] = m.group(2)
            continue
        if line.lstrip().startswith(";"):
            continue  # a comment
        m = _LENGTH.match(line)
        if m:
            length = int(m.group(1))
            continue
        if _UNLIMITED.match(line):
            length = 0
            continue
        raise MatchFileError(f"cannot read this line of the header (line {i})", text=line.strip())
    variation = headers.get("Variation", "Backgammon")
    if variation.lower() not in ("backgammon", "standard", ""):
        raise MatchFileError(f"the variation {variation!r} is not standard backgammon: only standard games "
                             "are read from .mat files (Mexican and Mini-Gam have their own .mat-style text)")
    if length is None:
        length = 0
    blocks: list[tuple[int, int, list[str]]] = []  # (game number, line number, lines)
    while i < len(lines):
        m = _GAME.match(lines[i])
        if m:
            blocks.append((int(m.group(1)), i + 1, []))
        elif blocks:
            blocks[-1][2].append(lines[i])
        elif lines[i].strip():
            raise MatchFileError(f"cannot read line {i + 1}", text=lines[i].strip())
        i += 1
    if not blocks:
        raise MatchFileError("no game found: a .mat file has ' Game 1' lines after its headers")
    players = [headers.get("Player 1", ""), headers.get("Player 2", "")]
    match = Match(find_variant("standard"), ("", ""), length, headers, [])
    crawford_rule = headers.get("Crawford", "").lower() == "on"
    jacoby = headers.get("Jacoby", "").lower() == "on"
    keeper = ScoreKeeper(length, crawford_rule)
    for k, (number, _, body) in enumerate(blocks):
        try:
            if number != k + 1 and k > 0 and number != blocks[k - 1][0] + 1:
                raise MatchFileError(f"game {number} follows game {blocks[k - 1][0]}", game=number)
            g, names = _read_game(number, body, keeper, length, jacoby)
            for j in (0, 1):
                if not players[j]:
                    players[j] = names[j]
            match.games.append(g)
            keeper.end(g)
        except MatchFileError as e:
            if not keep_games:
                raise
            match.stop_at(e)
            break
    match.players = (players[0] or "Player 1", players[1] or "Player 2")
    return match


def _read_game(number: int, body: list[str], keeper: ScoreKeeper, length: int, jacoby: bool,
               ) -> tuple[MatchGame, tuple[str, str]]:
    rows = [line for line in body if line.strip()]
    names = ("", "")
    score: tuple[int, int] | None = None
    score_text: str | None = None
    right_col = 33
    if rows and not _NUMBERED.match(rows[0]) and _SCORE.match(rows[0]) and "Wins" not in rows[0]:
        m = _SCORE.match(rows[0])
        assert m is not None
        names = (m.group(1), m.group(3))
        score = (int(m.group(2)), int(m.group(4)))
        right_col = m.start(3)
        score_text = rows[0].strip()
        rows = rows[1:]
    before, crawford = keeper.start(number, score, score_text)
    b = GameBuilder(number, find_variant("standard"), before, match_length=length, jacoby=jacoby,
                    crawford=crawford and keeper.crawford_rule)
    for row in rows:
        m = _NUMBERED.match(row)
        move = int(m.group(2)) if m else None
        start = len(m.group(1)) if m else 0
        rest = m.group(3) if m else row
        items = _items(rest, start, number, move)
        for col, (kind, item, pos) in enumerate(items):
            if len(items) == 1:
                side = 1 if pos >= right_col - 8 else 0
            else:
                side = col
            _apply(b, player_of(side), kind, item, move)
    return b.build(), names


def _items(rest: str, offset: int, game: int, move: int | None) -> list[tuple[str, re.Match[str], int]]:
    out: list[tuple[str, re.Match[str], int]] = []
    pos = 0
    for m in _ITEM.finditer(rest):
        gap = rest[pos:m.start()]
        if gap.strip():
            raise MatchFileError("cannot read this part of the line", game=game, move=move, text=gap.strip())
        kind = next(k for k in ("roll", "double", "beaver", "take", "drop", "wins", "loses") if m.group(k))
        out.append((kind, m, offset + m.start()))
        pos = m.end()
    if rest[pos:].strip():
        raise MatchFileError("cannot read this part of the line", game=game, move=move, text=rest[pos:].strip())
    if len(out) > 2:
        raise MatchFileError("a numbered line holds two items, one per player, not "
                             f"{len(out)}", game=game, move=move, text=rest.strip())
    return out


def _apply(b: GameBuilder, player: Player, kind: str, m: re.Match[str], move: int | None) -> None:
    text = m.group(0).strip()
    if kind == "roll":
        dice = m.group("dice")
        moves = m.group("moves").strip()
        try:
            play = mat_move_to_notation(moves, f" of {text!r}") if moves else None
        except NotationError as e:
            raise b.fail(str(e), move, text) from None
        b.roll_and_play(player, (int(dice[0]), int(dice[1])), play, move, text)
    elif kind == "double":
        b.cube_action(player, "double", int(m.group("dvalue")), move, text)
    elif kind == "beaver":
        b.cube_action(player, "beaver", int(m.group("bvalue")), move, text)
    elif kind in ("take", "drop"):
        b.cube_action(player, "take" if kind == "take" else "drop", None, move, text)
    elif kind == "wins":
        b.finish(player, int(m.group("points")), move, text)
    # else: a loser's line ('Losses 2 point', as Backgammon Galaxy writes it, in either column and
    # sometimes at the left margin) is read past: the 'Wins' line that follows it gives the result


# ---------------------------------------------------------------------------------------------
# Writing

#: The left column's width: right-hand items start at column 5 + LEFT (33).
LEFT = 28


def game_slots(game: MatchGame) -> list[tuple[Player, str]]:
    """The game's items as the .mat writes them, in order: (player, text) for each roll and move,
    each cube action and the result."""
    slots: list[tuple[Player, str]] = []
    g: Game = game.game
    entries = g.entries[1:]
    cubes = list(game.cube)
    pending_roll: tuple[Player, str] | None = None
    for n, e in enumerate(entries):
        while cubes and cubes[0].before == n:
            c = cubes.pop(0)
            slots.append((c.player, _cube_text(c.kind, c.value)))
        a = e.action
        if isinstance(a, OpeningRoll):
            if a.white == a.black:
                continue  # a tie is rolled again: the file starts with the roll that is played
            who: Player = WHITE if a.white > a.black else BLACK
            pending_roll = (who, f"{max(a.white, a.black)}{min(a.white, a.black)}:")
            if e.state.phase.value != "play":
                slots.append(pending_roll)
                pending_roll = None
        elif isinstance(a, RollDice):
            who = g.entries[n].state.player  # the state before the roll (entries is g.entries[1:])
            pending_roll = (who, f"{a.roll.first}{a.roll.second}:")
            if e.state.phase.value != "play":  # no legal move: the turn passed at once
                slots.append(pending_roll)
                pending_roll = None
        elif isinstance(a, MakePlay):
            assert pending_roll is not None
            slots.append((pending_roll[0], f"{pending_roll[1]} {steps_to_mat(a.play.steps)}"))
            pending_roll = None
        else:
            raise MatchFileError(f"a .mat file of standard backgammon cannot write the action {a!r}",
                                 game=game.number)
    if pending_roll is not None:  # rolled, then resigned
        slots.append(pending_roll)
    for c in cubes:
        slots.append((c.player, _cube_text(c.kind, c.value)))
    return slots


def _cube_text(kind: str, value: int) -> str:
    return {"double": f"Doubles => {value}", "beaver": f"Beavers => {value}", "take": "Takes",
            "drop": "Drops"}[kind]


def write_mat(match: Match) -> str:
    """The match as Jellyfish .mat text (standard backgammon)."""
    if match.variant.name != "standard":
        raise NotationError(f"a .mat file holds standard backgammon, not {match.variant.title}: write "
                            "Mexican and Mini-Gam matches with the .mat-style text (format 'variant')")
    out: list[str] = []
    headers = dict(match.headers)
    headers.setdefault("Player 1", match.players[0])
    headers.setdefault("Player 2", match.players[1])
    for k, v in headers.items():
        out.append(f'; [{k} "{v}"]')
    out.append("")
    out.append(f" {match.length} point match")
    out.append("")
    score = list(match.games[0].score) if match.games else [0, 0]
    for mg in match.games:
        score = list(mg.score)
        out.append(f" Game {mg.number}")
        left = f" {match.players[0]} : {score[0]}"
        out.append(f"{left:<{5 + LEFT - 1}}{match.players[1]} : {score[1]}")
        out.extend(_game_lines(mg))
        if mg.result is not None:
            score[0 if mg.result.winner == WHITE else 1] += mg.result.points
            r = mg.result
            wins = f"Wins {r.points} point{'s' if r.points != 1 else ''}"
            if match.length and score[0 if r.winner == WHITE else 1] >= match.length:
                wins += " and the match"
            out.append(" " * 6 + wins if r.winner == WHITE else " " * (5 + LEFT + 1) + wins)
        out.append("")
    return "\n".join(out) + "\n"


def _game_lines(mg: MatchGame) -> list[str]:
    slots = game_slots(mg)
    lines: list[list[str]] = []
    for who, text in slots:
        if who == WHITE or not lines or lines[-1][1]:
            lines.append(["", ""])
        lines[-1][0 if who == WHITE else 1] = text
        if who == WHITE:
            continue
    out = []
    for n, (left, right) in enumerate(lines, 1):
        lead = f"{n:3d}) "
        if left.startswith(("Doubles", "Takes", "Drops", "Beavers")):
            left = " " + left
        line = lead + (f"{left:<{LEFT}}" if right else left)
        if right:
            if len(left) >= LEFT:
                line = lead + left + " "
            line += (" " if right.startswith(("Doubles", "Takes", "Drops", "Beavers")) else "") + right
        out.append(line.rstrip())
    return out


register_format("mat", read_mat, write_mat)
