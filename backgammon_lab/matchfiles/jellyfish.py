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
from .model import (
    MAX_GAMES,
    MAX_LINE,
    GameBuilder,
    Match,
    MatchFileError,
    MatchGame,
    ScoreKeeper,
    guarded,
    header_line,
    header_lines,
    player_names,
    player_of,
    register_format,
    score_line,
)

__all__ = ["read_mat", "write_mat", "mat_move_to_notation", "steps_to_mat"]

#: The longest file read (a long match is a few hundred kilobytes).
MAX_FILE = 20_000_000

_HEADER = re.compile(r'^\s*;\s*\[\s*([^"\]\s][^"\]]*?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d{1,4})\s+point\s+match\s*$", re.I)
_UNLIMITED = re.compile(r"^\s*(unlimited|money)\b.*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d{1,5})\s*$", re.I)
_NUMBERED = re.compile(r"^(\s*(\d{1,4})\)\s?)(.*)$")
#: A comment line inside a game that says the game stopped there (a server's or a program's words).
_ENDING = re.compile(r"forfeit|resign|abandon|connection\s+(?:was\s+|is\s+)?lost|lost\s+(?:the\s+)?connection|"
                     r"disconnect|abort", re.I)
_COMMENT_POINTS = re.compile(r"(\d{1,5})\s+points?\b", re.I)

_STEP = r"(?:bar|\d{1,2})(?:/(?:bar|off|\d{1,2})\*?)+(?:\(\d\))?"
_ITEM = re.compile(
    r"(?P<roll>(?P<dice>[1-6]{2}):(?P<moves>(?:[ \t]+" + _STEP + r")*)"
    r"(?:[ \t]+(?:cannot move|can't move|no move|(?P<unknown>\?{3,4}))(?![\w/?]))?)"
    r"|(?P<double>Doubles\s*=>\s*(?P<dvalue>\d{1,5}))"
    r"|(?P<beaver>Beavers\s*=>\s*(?P<bvalue>\d{1,5}))"
    r"|(?P<take>Takes|Accepts)"
    r"|(?P<drop>Drops|Passes|Rejects|Refuses)"
    r"|(?P<wins>Wins\s+(?P<points>\d{1,5})\s+points?(?:\s+and\s+the\s+match)?)"
    r"|(?P<loses>(?:\d{1,4}\)\s*)?(?:Loses\s+(?P<lpoints>\d{1,5})\s+points?|Losses\s+(?P<lspoints>\d{1,5})\s+points?))",
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


def check_lines(lines: list[str]) -> None:
    """Refuse a line longer than :data:`MAX_LINE` (no .mat line is), naming it."""
    for k, line in enumerate(lines):
        if len(line) > MAX_LINE:
            raise MatchFileError(f"line {k + 1:,} is {len(line):,} characters long: the lines of a match file "
                                 f"are short (at most {MAX_LINE:,} read)", text=line[:40] + "...")


@guarded("mat")
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
    check_lines(lines)
    headers: dict[str, str] = {}
    length: int | None = None
    i = 0
    while i < len(lines) and not _GAME.match(lines[i]):
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        h = header_line(line)
        if h:
            headers[h[0]] = h[1]
            continue
        if line.lstrip().startswith((";", "#")):
            continue  # a comment
        m = _LENGTH.match(line)
        if m:
            length = int(m.group(1))
            continue
        if _UNLIMITED.match(line):
            length = 0
            continue
        raise MatchFileError(f"cannot read this line of the header (line {i}): it is a header '; [Name \"value\"]', "
                             "a comment '; ...', 'N point match' or ' Game 1'", text=line.strip())
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
    known = (players[0], players[1]) if players[0].strip() and players[1].strip() else None
    match = Match(find_variant("standard"), ("", ""), length, headers, [])
    crawford_rule = headers.get("Crawford", "").lower() == "on"
    jacoby = headers.get("Jacoby", "").lower() == "on"
    keeper = ScoreKeeper(length, crawford_rule)
    for k, (number, _, body) in enumerate(blocks):
        try:
            if number != k + 1 and k > 0 and number != blocks[k - 1][0] + 1:
                raise MatchFileError(f"game {number} follows game {blocks[k - 1][0]}", game=number)
            number = blocks[0][0] + k  # the games follow the first one, as SGF numbers them
            if number > MAX_GAMES:
                raise MatchFileError(f"the games are numbered past {MAX_GAMES:,}", game=number)
            following = _score_of(blocks[k + 1][2], known) if k + 1 < len(blocks) else None
            g, names = _read_game(number, body, keeper, length, jacoby, known, following)
            for j in (0, 1):
                if not players[j].strip():
                    players[j] = names[j]
            if known is None and players[0].strip() and players[1].strip():
                known = (players[0], players[1])
            match.games.append(g)
            keeper.end(g)
        except MatchFileError as e:
            if not keep_games:
                raise
            match.stop_at(e)
            break
    match.players = player_names((players[0], players[1]))
    return match


def _score_of(body: list[str], known: tuple[str, str] | None) -> tuple[int, int] | None:
    """The score line's scores of a game's lines, if its first line is one."""
    for line in body:
        if line.strip():
            s = score_line(line, known)
            if s is None or (_NUMBERED.match(line) and (known is None or s[:2] != (known[0].strip(), known[1].strip()))):
                return None
            return s[2], s[3]
    return None


def _read_game(number: int, body: list[str], keeper: ScoreKeeper, length: int, jacoby: bool,
               known: tuple[str, str] | None = None, following: tuple[int, int] | None = None,
               ) -> tuple[MatchGame, tuple[str, str]]:
    rows = [line for line in body if line.strip()]
    names = ("", "")
    score: tuple[int, int] | None = None
    score_text: str | None = None
    right_col = 33
    if rows:
        s = score_line(rows[0], known)
        if s is not None and ((known is not None and s[:2] == (known[0].strip(), known[1].strip()))
                              or (not _NUMBERED.match(rows[0]) and "Wins" not in rows[0])):
            names = (s[0], s[1])
            score = (s[2], s[3])
            right_col = min(s[4], 33)
            score_text = rows[0].strip()
            rows = rows[1:]
    before, crawford = keeper.start(number, score, score_text)
    b = GameBuilder(number, find_variant("standard"), before, match_length=length, jacoby=jacoby,
                    crawford=crawford and keeper.crawford_rule)
    ended: tuple[int | None, str] | None = None  # the comment line that says the game stopped
    stopped = False  # '; unfinished': the game stopped there, without a result
    move: int | None = None
    for row in rows:
        stripped = row.strip()
        if stripped.startswith((";", "#")):
            if stripped[1:].strip().lower() == "unfinished":
                stopped = True  # as this module writes a game that stopped without a result
            elif _ENDING.search(stripped) and b.result is None and not b.game.is_over:
                ended = (move, stripped)
            continue  # a comment; one that ends the game ends it unless play goes on after it
        m = _NUMBERED.match(row)
        move = int(m.group(2)) if m else None
        start = len(m.group(1)) if m else 0
        rest = m.group(3) if m else row
        items = _items(rest, start, number, move)
        # Backgammon Galaxy writes the loser's 'Losses N point' (sometimes after a move number) in
        # the loser's column, and then 'Wins' on the same line: the winner is the other player
        loser = next((1 if pos >= max(right_col - 8, 12) else 0 for kind, _, pos in items if kind == "loses"), None)
        items = [it for it in items if it[0] != "loses"]
        for col, (kind, item, pos) in enumerate(items):
            if kind == "wins" and loser is not None:
                side = 1 - loser
            elif len(items) == 1:
                side = 1 if pos >= max(right_col - 8, 12) else 0  # a lone item far left is player 1's
            else:
                side = col
            if kind == "wins" and ended is not None:
                _finish_after(b, player_of(side), int(item.group("points")), move, item.group(0).strip(), ended[1])
                continue
            if _apply(b, player_of(side), kind, item, move) and kind != "loses":
                ended = None  # play went on after the comment
                stopped = False
    unfinished = stopped
    if stopped:
        pass
    elif ended is not None and b.result is None:
        unfinished = not _end_from_comment(b, ended, known or names, following, length)
    elif b.result is None and b.waiting_for_play:
        # the game stops after a roll without its move ('53:', '53: ???'): the player left or resigned,
        # as the next game's score line may say; otherwise the game is unfinished, waiting for that play
        where = b.pending_roll or (move, "")
        unfinished = stopped or not _end_from_comment(b, (where[0], ""), known or names, following, 0)
    return b.build(unfinished=unfinished), names


def _end_from_comment(b: GameBuilder, ended: tuple[int | None, str], names: tuple[str, str],
                      following: tuple[int, int] | None, length: int) -> bool:
    """End the game that the comment line ``ended`` stops: its winner and points from the line
    (``alice wins by forfeit``, ``... 3 points``) or from the next game's score line. False when
    neither names them (the game stays unfinished)."""
    move, text = ended
    low = text.lower()
    winner: Player | None = None
    for j, name in enumerate(names):
        n = name.strip().lower()
        if not n or n == names[1 - j].strip().lower():
            continue
        if re.search(re.escape(n) + r"\s+(?:wins|won|is\s+awarded)", low):
            winner = player_of(j)
        elif re.search(re.escape(n) + r"\s+(?:forfeit|resign|abandon|left|lost|disconnect)", low):
            winner = player_of(1 - j)
    points: int | None = None
    p = _COMMENT_POINTS.search(text)
    if p:
        points = int(p.group(1))
    before = b.score
    if following is not None and (winner is None or points is None):
        gain = (following[0] - before[0], following[1] - before[1])
        if min(gain) == 0 and max(gain) > 0 and (winner is None or gain[0 if winner == WHITE else 1] > 0):
            winner = WHITE if gain[0] else BLACK
            points = max(gain)
    if winner is not None and points is None and length and "forfeit" in low:
        points = length - before[0 if winner == WHITE else 1]  # the match is awarded
    if winner is None or points is None or points < 1:
        return False
    _finish_after(b, winner, points, move, text, text)
    return True


def _finish_after(b: GameBuilder, winner: Player, points: int, move: int | None, text: str, comment: str) -> None:
    """The result of a game a comment line stopped: a forfeit when the line says so, otherwise a
    resignation when the points are one, or a forfeit of any points."""
    if "forfeit" not in comment.lower():
        try:
            b.finish(winner, points, move, text)
            return
        except MatchFileError:
            pass
    b.finish(winner, points, move, text, forfeit=True)


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
    if len(out) - sum(1 for kind, _, _ in out if kind == "loses") > 2:
        raise MatchFileError("a numbered line holds two items, one per player, not "
                             f"{len(out)}", game=game, move=move, text=rest.strip())
    return out


def _apply(b: GameBuilder, player: Player, kind: str, m: re.Match[str], move: int | None) -> bool:
    """Apply one item; False for an item read past (a roll with ``???`` after the game's end)."""
    text = m.group(0).strip()
    if kind == "roll":
        dice = m.group("dice")
        moves = m.group("moves").strip()
        if m.group("unknown") and not moves and (b.result is not None or b.game.is_over):
            return False  # '???': the roll after the game's end, with no move
        b.unknown_move = bool(m.group("unknown")) and not moves
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
    return True


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
    players = player_names(match.players)
    out.extend(header_lines(match.headers, {"Player 1": players[0], "Player 2": players[1]}))
    out.append("")
    out.append(f" {match.length} point match")
    out.append("")
    score = list(match.games[0].score) if match.games else [0, 0]
    for mg in match.games:
        score = list(mg.score)
        out.append(f" Game {mg.number}")
        left = f" {players[0]} : {score[0]}"
        out.append(f"{left:<{5 + LEFT - 1}}{'  ' if len(left) >= 3 + LEFT else ''}{players[1]} : {score[1]}")
        lines = _game_lines(mg)
        if mg.result is None and mg.game.state.phase.value == "play" and lines:
            lines[-1] += " ????"  # rolled, and the game stopped before the play: an unknown move
        out.extend(lines)
        if mg.result is None and not mg.game.is_over:
            out.append(" ; unfinished")
        if mg.result is not None:
            score[0 if mg.result.winner == WHITE else 1] += mg.result.points
            r = mg.result
            if r.how == "forfeit":
                out.append(" ; forfeit")
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
