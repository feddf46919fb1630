"""A .mat-style text for Mexican Backgammon and Mini-Gam games: read and write.

It looks like a Jellyfish match file, so a player used to those can read it, with what our variants
add spelled out::

    ; [Variation "Mexican Backgammon"]
    ; [Variant "mexican"]
    ; [Player 1 "White"]
    ; [Player 2 "Black"]

     0 point match

     Game 1
     White : 0                          Black : 0
     Opening roll: White 4, Black 4 (tie)
     Opening roll: White 5, Black 3
      1) 53 kept: 13/10 13/8           21: 24/23 24/22; names 6: 13/7(4); 43: 8/5 8/4
      2) 31 rerolled; 64: 24/18 13/9   ...
                                       Wins 1 point

- ``Variation`` is the variant's title (``Mexican Backgammon``, ``Mini-Gam``) and tells this text
  from a standard .mat file; ``Variant`` is the variant with its options as the position string
  writes it (``minigam;checkers=3``). A game set up from a position has a ``Start: POSITION`` line.
- ``Opening roll:`` lines give the opening dice (White's, Black's), ties included.
- Each numbered line holds one turn of White (left) and one of Black (right). A turn is one or
  more parts separated by ``; ``, in the order they happened: ``53: 13/10 13/8`` (a roll and its
  play, in move notation), ``53: cannot move`` (no legal move: the turn is lost), ``53 kept: ...`` /
  ``53 rerolled`` (Mexican's opening choice), ``names 6: 13/7(4)`` (the doubles named after a
  Mexican and their play); a roll that follows in the same turn (doubles or a Mexican re-roll) is
  the next part.
- ``Wins N point(s)`` in the winner's column ends a game.

Reading replays every part through the game (:class:`~backgammon_lab.game.Game`), so the game's
JSON record is the same as the one written: ``read_variant_text(write_variant_text(m))`` gives
back every action of every game.
"""

from __future__ import annotations

import re

from ..engine import Choice, MakePlay, NameDoubles, OpeningRoll, Phase, Played, RollDice
from ..errors import BackgammonError, NotationError, show
from ..game import Game
from ..position import WHITE, Player, Position
from ..variants import find_variant
from .model import (
    MAX_LINE,
    GameResult,
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

__all__ = ["read_variant_text", "write_variant_text", "turn_parts"]

MAX_FILE = 20_000_000

_LENGTH = re.compile(r"^\s*(\d{1,4})\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^\s*Game\s+(\d{1,5})\s*$", re.I)
_OPENING = re.compile(r"^\s*Opening roll:\s*White\s+([1-6]),\s*Black\s+([1-6])(?:\s*\(tie\))?\s*$", re.I)
_START = re.compile(r"^\s*Start:\s*(\S+)\s*$", re.I)
_NUMBERED = re.compile(r"^(\s*(\d{1,4})\)\s?)(.*)$")
_WINS = re.compile(r"Wins\s+(\d{1,5})\s+points?(?:\s+and\s+the\s+match)?", re.I)
_PART = re.compile(r"^(?:(?P<dice>[1-6]{2})(?:\s+(?P<choice>kept|rerolled))?|names\s+(?P<named>[1-6]))"
                   r"(?::\s*(?P<move>.*))?$", re.I)

#: The left column's width: Black's turns start at column 5 + LEFT.
LEFT = 32


# ---------------------------------------------------------------------------------------------
# Writing


def turn_parts(game: Game) -> tuple[list[tuple[int, int]], list[tuple[Player, list[str]]]]:
    """The game as this text writes it: the opening rolls (White's die, Black's), and each turn as
    (player, parts)."""
    openings: list[tuple[int, int]] = []
    turns: list[tuple[Player, list[str]]] = []
    pending = ""
    entries = game.entries
    for n in range(1, len(entries)):
        e, before = entries[n], entries[n - 1].state
        a = e.action
        who = before.player
        part: str | None = None
        if isinstance(a, OpeningRoll):
            openings.append((a.white, a.black))
            if e.state.phase is Phase.PLAY:  # no choice in this variant: the opening dice are played
                assert e.state.roll is not None
                pending = f"{e.state.roll.high}{e.state.roll.low}:"
            continue
        if isinstance(a, Choice):
            assert before.roll is not None
            dice = f"{before.roll.high}{before.roll.low}"
            if a.keep:
                pending = f"{dice} kept:"
                if e.state.phase is not Phase.PLAY:
                    part = f"{pending} cannot move"
            else:
                part = f"{dice} rerolled"
        elif isinstance(a, RollDice):
            pending = f"{a.roll.first}{a.roll.second}:"
            if e.state.phase is not Phase.PLAY:
                part = f"{pending} cannot move"
        elif isinstance(a, NameDoubles):
            pending = f"names {a.number}:"
            if e.state.phase is not Phase.PLAY:
                part = f"{pending} cannot move"
        elif isinstance(a, MakePlay):
            done = next(ev.steps_text for ev in e.events if isinstance(ev, Played))  # the game's one writer
            part = f"{pending} {e.text if e.text is not None else done}"
        else:
            raise NotationError(f"the .mat-style text writes whole plays; a game with steps clicked one by one "
                                f"is written once they complete a play ({a!r})")
        if part is None:
            continue
        pending = ""
        if turns and turns[-1][0] == who:
            turns[-1][1].append(part)
        else:
            turns.append((who, [part]))
    return openings, turns


def write_variant_text(match: Match) -> str:
    """The match (Mexican or Mini-Gam) as the .mat-style text."""
    v = match.variant
    if v.name == find_variant("standard").name:
        raise NotationError("standard backgammon is written as a Jellyfish .mat file (format 'mat')")
    spec = Position.start(v).to_string().split("/")[0]
    players = player_names(match.players, ("White", "Black"))
    first = {"Variation": v.title, "Variant": spec, "Player 1": players[0], "Player 2": players[1]}
    out = header_lines({k: val for k, val in match.headers.items() if k not in first}, first)
    out = out[-len(first):] + out[:-len(first)]
    out += ["", f" {match.length} point match", ""]
    for mg in match.games:
        out.append(f" Game {mg.number}")
        left = f" {players[0]} : {mg.score[0]}"
        out.append(f"{left:<{5 + LEFT - 1}}{'  ' if len(left) >= 3 + LEFT else ''}{players[1]} : {mg.score[1]}")
        start = mg.game.record().get("start")
        if start is not None:
            out.append(f" Start: {Position.from_json(start).to_string()}")
        openings, turns = turn_parts(mg.game)
        for w, b in openings:
            out.append(f" Opening roll: White {w}, Black {b}{' (tie)' if w == b else ''}")
        lines: list[list[str]] = []
        for who, parts in turns:
            text = "; ".join(parts)
            if who == WHITE or not lines or lines[-1][1]:
                lines.append(["", ""])
            lines[-1][0 if who == WHITE else 1] = text
        for n, (left_t, right_t) in enumerate(lines, 1):
            lead = f"{n:3d}) "
            if right_t:
                line = lead + (f"{left_t:<{LEFT}}" if len(left_t) <= LEFT - 2 else left_t + "  ") + right_t
            else:
                line = lead + left_t
            out.append(line.rstrip())
        r = mg.result
        if r is not None:
            wins = f"Wins {r.points} point{'s' if r.points != 1 else ''}"
            out.append(" " * 6 + wins if r.winner == WHITE else " " * (5 + LEFT) + wins)
        out.append("")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Reading


@guarded("variant")
def read_variant_text(text: str, keep_games: bool = False) -> Match:
    """Read the .mat-style text of Mexican and Mini-Gam games, replaying every part through the game."""
    if not isinstance(text, str):
        raise NotationError(f"a game file is read from text, not {show(text)}")
    if len(text) > MAX_FILE:
        raise MatchFileError(f"the text is longer than {MAX_FILE:,} characters: not a game file")
    lines = text.lstrip("\ufeff").splitlines()
    for k, line in enumerate(lines):
        if len(line) > MAX_LINE:
            raise MatchFileError(f"line {k + 1:,} is {len(line):,} characters long: the lines of a game file "
                                 f"are short (at most {MAX_LINE:,} read)", text=line[:40] + "...")
    headers: dict[str, str] = {}
    length = 0
    i = 0
    while i < len(lines) and not _GAME.match(lines[i]):
        line = lines[i]
        i += 1
        h = header_line(line)
        if h:
            headers[h[0]] = h[1]
            continue
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        m = _LENGTH.match(line)
        if m:
            length = int(m.group(1))
            continue
        raise MatchFileError(f"cannot read this line of the header (line {i})", text=line.strip())
    spec = headers.get("Variant") or headers.get("Variation", "")
    try:
        v = Position.from_string(f"{spec}/w/bar/bar").variant if ";" in spec else find_variant(
            {"mexican backgammon": "mexican", "mini-gam": "minigam"}.get(spec.lower(), spec.lower()))
    except BackgammonError as e:
        raise MatchFileError(f"unknown variant {spec!r}: {e}") from None
    blocks: list[tuple[int, list[str]]] = []
    while i < len(lines):
        m = _GAME.match(lines[i])
        if m:
            blocks.append((int(m.group(1)), []))
        elif blocks:
            blocks[-1][1].append(lines[i])
        elif lines[i].strip():
            raise MatchFileError(f"cannot read line {i + 1}", text=lines[i].strip())
        i += 1
    match = Match(v, player_names((headers.get("Player 1", ""), headers.get("Player 2", "")), ("White", "Black")),
                  length,
                  {k: val for k, val in headers.items() if k not in ("Variation", "Variant", "Player 1", "Player 2")},
                  [])
    keeper = ScoreKeeper(length, False)
    for number, body in blocks:
        try:
            g = _read_game(number, body, match, keeper)
        except MatchFileError as e:
            if not keep_games:
                raise
            match.stop_at(e)
            break
        match.games.append(g)
        keeper.end(g)
    return match


def _read_game(number: int, body: list[str], match: Match, keeper: ScoreKeeper) -> MatchGame:
    rows = [line for line in body if line.strip()]
    score: tuple[int, int] | None = None
    score_text = None
    right_col = 5 + LEFT
    s = score_line(rows[0], match.players) if rows else None
    if s is not None and (s[:2] == (match.players[0].strip(), match.players[1].strip())
                          or not _NUMBERED.match(rows[0])):
        score = (s[2], s[3])
        score_text = rows[0].strip()
        right_col = min(s[4], 5 + LEFT)
        rows = rows[1:]
    before, _ = keeper.start(number, score, score_text)
    start: Position | None = None
    if rows and _START.match(rows[0]):
        m = _START.match(rows[0])
        assert m is not None
        try:
            start = Position.from_string(m.group(1))
        except BackgammonError as e:
            raise MatchFileError(str(e), game=number, text=rows[0].strip()) from None
        if start.variant != match.variant:
            raise MatchFileError(f"the start is a {start.variant.title} position in a {match.variant.title} match",
                                 game=number, text=rows[0].strip())
        rows = rows[1:]
    game = Game(match.variant, position=start)
    result: GameResult | None = None
    for row in rows:
        m = _OPENING.match(row)
        if m:
            dice = (int(m.group(1)), int(m.group(2)))
            _do(game, number, None, row.strip(), lambda g, d=dice: g.roll(d))
            continue
        n = _NUMBERED.match(row)
        move = int(n.group(2)) if n else None
        body_text = n.group(3) if n else row
        offset = len(n.group(1)) if n else 0
        for side, item, _ in _columns(body_text, offset, right_col, number, move):
            player = player_of(side)
            w = _WINS.fullmatch(item)
            if w:
                points = int(w.group(1))
                if not game.is_over or game.winner != player or game.points != points:
                    state = (f"{game.winner} won {game.points}" if game.is_over else "the game is not over")
                    raise MatchFileError(f"the file says {player} wins {points}, but {state}", game=number,
                                         move=move, text=item)
                result = GameResult(player, points, "bearoff")
                continue
            for part in item.split(";"):
                _part(game, player, part.strip(), number, move)
    if result is None and game.is_over and game.winner is not None:
        result = GameResult(game.winner, game.points, "bearoff")
    return MatchGame(number, game, before, (), result)


def _columns(text: str, offset: int, right_col: int, game: int, move: int | None) -> list[tuple[int, str, int]]:
    """The one or two turns of a line: (column, text, position)."""
    stripped = text.strip()
    if not stripped:
        return []
    first = offset + len(text) - len(text.lstrip())
    gap = re.search(r"\S(\s{2,})\S", text)
    if gap is None:
        return [(1 if first >= right_col - 4 else 0, stripped, first)]
    left = text[: gap.start(1)].strip()
    right = text[gap.end(1):].strip()
    return [(0, left, first), (1, right, offset + gap.end(1))]


def _do(game: Game, number: int, move: int | None, text: str, act: object) -> None:
    try:
        act(game)  # type: ignore[operator]
    except BackgammonError as e:
        raise MatchFileError(str(e), game=number, move=move, text=text) from None


def _part(game: Game, player: Player, part: str, number: int, move: int | None) -> None:
    m = _PART.match(part)
    if not m:
        raise MatchFileError("cannot read this part of a turn: it is like '53: 13/10 13/8', '53 kept: ...', "
                             "'53 rerolled' or 'names 6: 13/7(4)'", game=number, move=move, text=part)
    st = game.state
    if st.phase is not Phase.OVER and st.player != player and st.phase is not Phase.OPENING:
        raise MatchFileError(f"it is {st.player}'s turn ({st.hint()}), not {player}'s", game=number, move=move,
                             text=part)
    mv = (m.group("move") or "").strip()
    lost = mv.lower() in ("", "cannot move", "no move")
    dice = m.group("dice")
    choice = (m.group("choice") or "").lower()

    def same_dice(roll: object) -> bool:
        return roll is not None and f"{roll.high}{roll.low}" in (dice, dice[::-1])  # type: ignore[attr-defined]

    if m.group("named"):
        _do(game, number, move, part, lambda g: g.name_doubles(int(m.group("named"))))
    elif choice:
        if st.phase is not Phase.CHOICE or not same_dice(st.roll):
            raise MatchFileError(f"{dice} {choice} is the opening choice, but {st.hint()}", game=number, move=move,
                                 text=part)
        _do(game, number, move, part, lambda g: g.choose("keep" if choice == "kept" else "reroll"))
        if choice == "rerolled":
            if m.group("move") is not None:
                raise MatchFileError("a re-rolled opening is not played: the new roll is the next part",
                                     game=number, move=move, text=part)
            return
    elif st.phase is Phase.PLAY and not st.steps and same_dice(st.roll) and game.index and \
            isinstance(game.entries[-1].action, OpeningRoll):
        pass  # the opening dice, played at once (no choice in this variant)
    else:
        _do(game, number, move, part, lambda g: g.roll((int(dice[0]), int(dice[1]))))
    if game.state.phase is Phase.PLAY:
        if lost:
            raise MatchFileError(f"the part plays nothing, but legal plays exist ({game.state.hint()})",
                                 game=number, move=move, text=part)
        _do(game, number, move, part, lambda g: g.play(mv))
    elif not lost:
        raise MatchFileError(f"{player} cannot move here, but the part plays {mv!r}", game=number, move=move,
                             text=part)


register_format("variant", read_variant_text, write_variant_text)

