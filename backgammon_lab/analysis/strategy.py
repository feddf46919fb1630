"""The strategy course's questions: drills whose answers the engine computes, and puzzles whose
answers are proved (the proofs stored as data beside them).

* :func:`play_facts` / :func:`what_it_does`: what a play does, in words a learner knows (makes a
  point, leaves fewer shots: N of 36 against M, gains the race by K pips, escapes a back checker,
  keeps a prime), computed from the two positions the plays reach;
* :class:`Drill`: a numeric or multiple-choice drill (pip counts, the race lead, shots at a blot
  and which rolls hit it, entering odds, Mexican's chance that a roll is played in full);
* :class:`Puzzle`: "find the better play" (or, in Mexican Backgammon, a decision: keep or re-roll
  the opening dice, which doubles to name), loaded from ``backgammon_lab/data/puzzles/*.json``,
  made and proved by ``scripts/make_puzzles.py``;
* :func:`question`: the drill's or the puzzle's :class:`Question`: the choices, the accepted
  answer, a hint and the engine's words after the answer.

Every answer comes from the engine: :mod:`.odds` for shots and entering, the move generator for
plays and pip counts, the exact Mini-Gam table or the net and a rollout for puzzles.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import ALL_ROLLS, play_text
from ..errors import AnalysisError
from ..position import BLACK, OFF, WHITE, Play, Position, Roll, other
from ..rules import explain_step, legal_plays
from .odds import enter_probability, hit_probability, roll_breakdown, shots

__all__ = ["StrategyError", "PlayFacts", "play_facts", "what_it_does", "Drill", "Puzzle", "Question", "question",
           "DRILL_KINDS", "PUZZLE_KINDS", "load_puzzles", "puzzle_dir", "shots_against", "full_roll_rolls",
           "find_play", "puzzle_theme", "contact", "CRASHED_CHECKERS", "crashed_boards", "crashed", "position_class", "all_home",
           "cap_refuses", "how_words"]


def puzzle_dir() -> Path:
    """The folder of the shipped puzzles (``backgammon_lab/data/puzzles``)."""
    return Path(__file__).resolve().parent.parent / "data" / "puzzles"


class StrategyError(AnalysisError):
    """A drill or puzzle that cannot be used: bad data, or an answer that does not hold."""


# -- what a play does ---------------------------------------------------------------------------
def shots_against(after: Position) -> int:
    """How many of the 36 rolls of the other side can hit one of the mover's blots in ``after``
    (the position a play reaches, the mover still ``turn``): :func:`.odds.shots` from the other
    side's point of view."""
    table = shots(after.with_turn(other(after.turn)))
    if not table.rows:
        return 0
    return int(Fraction(str(table.rows[-1][1])) * 36)


def _prime(points: set[int]) -> int:
    best = run = 0
    for p in range(1, max(points, default=0) + 2):
        run = run + 1 if p in points else 0
        best = max(best, run)
    return best


@dataclass(frozen=True)
class PlayFacts:
    """What a position looks like for its mover (``turn``) after a play: made points (its own
    numbering), the other side's shots against its blots (of 36), the race lead in pips (the other
    side's pips minus its own), its checkers in the other side's home board, its longest prime,
    the other side's checkers on the bar, its checkers off, its tallest stack, and how many of the
    six doubles it could play in full now (Mexican: a doubles chain goes on)."""

    made: frozenset[int]
    shots: int
    lead: int
    back: int
    prime: int
    hit: int
    off: int
    stack: int
    full_doubles: int


def play_facts(after: Position) -> PlayFacts:
    """The :class:`PlayFacts` of ``after``."""
    me, you = after.turn, other(after.turn)
    v = after.variant
    n = v.points
    made = frozenset(p for p in range(1, n + 1) if after.count(me, p) >= 2)
    back = sum(after.count(me, p) for p in range(n - v.home + 1, v.bar + 1))
    full = sum(1 for k in range(1, 7) if legal_plays(after, (k, k)).length == 4) if not after.is_over else 0
    return PlayFacts(made, shots_against(after) if not after.is_over else 0,
                     after.pip_count(you) - after.pip_count(me), back, _prime(set(made)),
                     after.count(you, v.bar), after.count(me, OFF), max(after.count(me, p) for p in range(1, n + 1)),
                     full)


def _points(ps: list[int]) -> str:
    return ", ".join(str(p) for p in ps)


def what_it_does(before: Position, better: Position, worse: Position) -> list[str]:
    """What the better play does that the worse one does not, in a learner's words, each fact
    computed from the positions the two plays reach (``before``: the position before the roll).
    Kept for the positions asked last (the shots of a Mexican position with chains of doubles take
    seconds to count, and a puzzle's words, its question and its feedback ask the same)."""
    return list(_what_it_does(before, better, worse))


@lru_cache(maxsize=512)
def _what_it_does(before: Position, better: Position, worse: Position) -> tuple[str, ...]:
    return tuple(_facts_said(before, better, worse))


def _facts_said(before: Position, better: Position, worse: Position) -> list[str]:
    a, b = play_facts(better), play_facts(worse)
    said: list[str] = []
    if better.is_over:
        return ["wins the game at once"]
    had = play_facts(before).made
    new, kept = sorted(a.made - b.made - had), sorted((a.made - b.made) & had)
    if new:
        said.append(f"makes point{'s' if len(new) > 1 else ''} {_points(new)}")
    if kept:
        said.append(f"keeps point{'s' if len(kept) > 1 else ''} {_points(kept)}")
    if a.hit > b.hit:
        said.append("hits a blot" if a.hit - b.hit == 1 else f"hits {a.hit - b.hit} blots")
    if a.shots < b.shots:
        said.append(f"leaves fewer shots: {a.shots} of 36 against {b.shots}")
    if a.lead > b.lead:
        said.append(f"gains the race by {a.lead - b.lead} pips")
    if a.back < b.back:
        k = b.back - a.back
        said.append("escapes a back checker" if k == 1 else f"escapes {k} back checkers")
    if a.prime >= 4 and a.prime > b.prime and contact(before):  # a prime blocks only while there is contact
        said.append(f"keeps a prime of {a.prime} points")
    if a.off > b.off:
        k = a.off - before.count(before.turn, 0)
        said.append(f"bears off {k} checker{'s' if k != 1 else ''} against {b.off - before.count(before.turn, 0)}")
    cap = before.variant.stacking_cap
    if cap and b.stack >= cap > a.stack:
        said.append(f"leaves no point at the cap of {cap} checkers")
    if before.variant.low_die_first and a.full_doubles > b.full_doubles:
        said.append(f"keeps {a.full_doubles} of the 6 doubles playable in full (a chain goes on) against "
                    f"{b.full_doubles}")
    return said


# -- what a puzzle is about ---------------------------------------------------------------------
def contact(pos: Position) -> bool:
    """True while a checker of one side still has to pass one of the other's (read from the
    mover's-eye board, which the search asks of every position it starts from)."""
    b = pos.board()  # (off, p1..pN, bar, opponent's bar), the mover's checkers positive
    bar = pos.variant.bar
    mine = next((p for p in range(bar, 0, -1) if b[p] > 0), 0)  # the mover's rearmost (the bar is point N + 1)
    if not mine:
        return False
    if b[bar + 1]:
        return True  # the other side has a checker on the bar, behind every one of the mover's
    yours = next((p for p in range(1, bar) if b[p] < 0), 0)  # the other side's rearmost, in the mover's numbering
    return bool(yours) and mine > yours


#: At most this many checkers of a side still shape the game once it has crashed (besides the spares
#: piled on its ace and deuce points, all but one on each: checkers that no longer play).
CRASHED_CHECKERS = 6


def crashed_boards(boards: np.ndarray) -> np.ndarray:
    """Whether each mover's-eye board (rows of :meth:`Position.board`: off, the points, the mover's
    bar, the other's bar) is *crashed*: a side has at most :data:`CRASHED_CHECKERS` checkers on the
    points and the bar besides the spares on its ace and deuce points. Contact is not checked (see
    :func:`contact`); gnubg keeps a net for positions of this kind, and the benchmarks sort errors by it.

    >>> b = Position.from_string("standard/w/1x5,2x1,20x2/13x5,8x5,6x5").board()
    >>> crashed_boards(np.array([b])).tolist()
    [True]
    """
    boards = np.asarray(boards)
    pts = boards[:, 1:-2].astype(np.int64)
    me, op = np.clip(pts, 0, None), np.clip(-pts, 0, None)

    def playing(side: np.ndarray, bar: np.ndarray, ace: int, deuce: int) -> np.ndarray:
        spares = np.maximum(side[:, ace] - 1, 0) + np.maximum(side[:, deuce] - 1, 0)
        return side.sum(axis=1) + bar - spares

    return np.asarray((playing(me, boards[:, -2], 0, 1) <= CRASHED_CHECKERS)
                      | (playing(op, boards[:, -1], -1, -2) <= CRASHED_CHECKERS))


def crashed(pos: Position) -> bool:
    """True when ``pos`` is in :func:`contact` and its board is crashed (:func:`crashed_boards`):
    the class of positions a net's crashed net values (:meth:`Net.with_crashed
    <backgammon_lab.analysis.nets.Net.with_crashed>`) and the benchmarks sort errors by.

    >>> crashed(Position.from_string("standard/w/1x5,2x1,20x2/13x5,8x5,6x5"))
    True
    >>> crashed(Position.start("standard"))
    False
    """
    return contact(pos) and bool(crashed_boards(np.array([pos.board()]))[0])


def position_class(pos: Position) -> str:
    """The class of ``pos``, as a net's search picks its net by it: ``"race"`` out of
    :func:`contact` (the race net), ``"crashed"`` (:func:`crashed`: the crashed net), else
    ``"contact"`` (the net itself). gnubg splits its nets by classes of this kind; the rule is our own.

    >>> position_class(Position.start("standard"))
    'contact'
    """
    if not contact(pos):
        return "race"
    return "crashed" if crashed_boards(np.array([pos.board()]))[0] else "contact"


def all_home(pos: Position) -> bool:
    """True when every checker of the mover is in its home board (or off)."""
    v = pos.variant
    return all(pos.count(pos.turn, p) == 0 for p in range(v.home + 1, v.bar + 1))


def cap_refuses(pos: Position, roll: Roll) -> bool:
    """True when the variant's cap on checkers per point refuses a first move of ``roll``: the
    move generator's own explanation (:func:`~backgammon_lab.rules.explain_step`) says
    ``stack_cap`` for some checker and die."""
    if pos.variant.stacking_cap is None:
        return False
    for start in range(1, pos.variant.bar + 1):
        if not pos.count(pos.turn, start):
            continue
        for die in set(roll.dice):
            if start - die >= 1 and explain_step(pos, roll.dice, [], (start, start - die)).code == "stack_cap":
                return True
    return False


def puzzle_theme(before: Position, roll: Roll, best: Play, second: Play) -> str:
    """The stage a "find the better play" puzzle belongs to, from facts of the positions (``""``:
    none fits). Standard, in this order: ``race`` (no contact left), ``bearoff`` (all home,
    contact left), ``priming`` (the better play holds a run of 4 or more made points, longer than
    the other's), ``hitting`` (one hits and the other does not, or more), ``points`` (it makes or
    keeps a point the other does not), ``safe`` (it leaves another number of shots). Mexican:
    ``bearoff`` (all home: exact bear-off), ``chain`` (doubles played in full: the mover rolls
    again, M7), ``cap`` (the cap refuses a move of this roll, or the other play stacks a point up
    to the cap and the better one does not, M6). Mini-Gam: ``entering`` (a checker on the bar) or
    ``racehit``."""
    a, b = play_facts(best.position), play_facts(second.position)
    v = before.variant
    if v.name == "minigam":
        return "entering" if before.count(before.turn, v.bar) else "racehit"
    if v.name == "standard":
        if not contact(before):
            return "race"
        if all_home(before):
            return "bearoff"
        if a.prime >= 4 and a.prime > b.prime:
            return "priming"
        if a.hit != b.hit:
            return "hitting"
        if len(a.made) > len(b.made) or (a.made - b.made):
            return "points"
        if a.shots != b.shots:
            return "safe"
        return ""
    if all_home(before):
        return "bearoff"
    if v.doubles_roll_again and roll.is_double and len(best.steps) == 4:
        return "chain"
    cap = v.stacking_cap
    if cap_refuses(before, roll) or (cap is not None and b.stack >= cap > a.stack):
        return "cap"
    return ""


# -- drills -------------------------------------------------------------------------------------
DRILL_KINDS = ("pips", "lead", "pips_after", "shots", "shot_roll", "enter", "full_roll")


def full_roll_rolls(position: Position) -> list[Roll]:
    """The rolls of the 21 whose two dice (four moves for doubles) can all be played, by the move
    generator (Mexican: the lower die first)."""
    out = []
    for r, _ in ALL_ROLLS:
        if legal_plays(position, r.dice).length == (4 if r.is_double else 2):
            out.append(r)
    return out


def _key(*parts: Any) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()


def _window(seed: str, answer: int, low: int = 0, high: int = 10_000, width: int = 5, step: int = 1) -> tuple[int, ...]:
    """Five numbers around ``answer`` (where it sits depends on ``seed``): the choices of a drill."""
    shift = int(_key(seed), 16) % width
    start = max(low, min(answer - shift * step, high - (width - 1) * step))
    return tuple(x for x in range(start, start + width * step, step) if low <= x <= high)


@dataclass(frozen=True)
class Question:
    """A drill or puzzle ready to be asked: ``choices`` (values) with ``labels``, the accepted
    values, a hint, the solution in words and the engine's words said after the answer
    (``reason``); ``values``: for a puzzle, the value of each choice (shown after); ``arrows``: for
    each choice the steps to draw; ``par``: the fewest answer clicks that solve it (one: every
    question of the course is answered by one button; the stars count the clicks beyond par as
    wrong tries)."""

    id: str
    goal: str
    position: Position
    dice: Roll | None
    choices: tuple[Any, ...]
    labels: tuple[str, ...]
    accepts: frozenset[Any]
    hint: str
    solution: str
    reason: str
    values: tuple[str, ...] = ()
    arrows: tuple[tuple[tuple[int, int], ...], ...] = ()
    highlight: tuple[int, ...] = ()
    par: int = 1


@dataclass(frozen=True)
class Drill:
    """A drill: ``kind`` one of :data:`DRILL_KINDS`, a position string, and what the kind needs:
    ``dice`` (``full_roll``: none; ``pips_after``: the dice of ``play``), ``point`` (the blot's point
    in its owner's numbering for ``shots``/``shot_roll``), ``side`` (``pips``: ``"white"`` or
    ``"black"``). ``theme``: the stage it belongs to; ``level`` 1 to 3."""

    id: str
    kind: str
    position: str
    theme: str
    level: int = 1
    dice: str | None = None
    play: str = ""
    point: int = 0
    side: str = ""

    def __post_init__(self) -> None:
        if self.kind not in DRILL_KINDS:
            raise StrategyError(f"drill {self.id!r}: unknown kind {self.kind!r}; kinds: {', '.join(DRILL_KINDS)}")
        if self.level not in (1, 2, 3):
            raise StrategyError(f"drill {self.id!r}: level must be 1, 2 or 3, not {self.level!r}")

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self.position.split("/", 1)[0]


def _pos(item_id: str, text: str) -> Position:
    try:
        return Position.from_string(text)
    except ValueError as e:
        raise StrategyError(f"{item_id!r}: bad position {text!r}: {e}") from None


def find_play(position: Position, dice: Roll, text: str) -> Play:
    """The legal play of ``dice`` written ``text`` (StrategyError when there is none)."""
    try:
        return legal_plays(position, dice.dice).find(text)
    except ValueError as e:
        raise StrategyError(f"no legal play {text!r} of {dice} in {position.to_string()!r}: {e}") from None


def _numeric(d: Drill, pos: Position, goal: str, answer: int, hint: str, reason: str, *, low: int = 0,
             high: int = 10_000, step: int = 1, dice: Roll | None = None, unit: str = "",
             highlight: tuple[int, ...] = ()) -> Question:
    choices = _window(d.id, answer, low, high, step=step)
    labels = tuple(f"{c}{unit}" for c in choices)
    return Question(d.id, goal, pos, dice, choices, labels, frozenset({answer}), hint, f"{answer}{unit}", reason,
                    highlight=highlight)


def _drill_question(d: Drill) -> Question:
    pos = _pos(d.id, d.position)
    me, you = pos.turn, other(pos.turn)
    name = {WHITE: "White", BLACK: "Black"}
    if d.kind == "pips":
        side = d.side or me
        if side not in (WHITE, BLACK):
            raise StrategyError(f"drill {d.id!r}: side is 'white' or 'black', not {d.side!r}")
        k = pos.pip_count(side)
        return _numeric(d, pos, f"Count {name[side]}'s pips: how far must all of {name[side]}'s checkers travel to "
                        "bear off?", k, "A checker on point p needs p pips (on the bar: "
                        f"{pos.variant.bar}). Add point by point: checkers x point.",
                        f"{name[side]}: {k} pips.")
    if d.kind == "lead":
        lead = pos.pip_count(you) - pos.pip_count(me)
        return _numeric(d, pos, f"{name[me]} is to move. By how many pips does {name[me]} lead the race "
                        "(negative: trails)?", lead, "Count both sides, then subtract: the other side's pips minus "
                        "the mover's.", f"{name[me]} {pos.pip_count(me)}, {name[you]} {pos.pip_count(you)}: a lead of "
                        f"{lead:+d} for {name[me]}, before the roll (the roll itself is worth about 8 pips).",
                        low=-400)
    if d.kind == "pips_after":
        if d.dice is None or not d.play:
            raise StrategyError(f"drill {d.id!r}: a 'pips_after' drill needs dice and a play")
        roll = Roll.parse(d.dice)
        play = find_play(pos, roll, d.play)
        after = play.position
        k = after.pip_count(me)
        hit = after.pip_count(you) - pos.pip_count(you)
        extra = f" The hit sets {name[you]} back {hit} pips: {after.pip_count(you)}." if hit else ""
        return _numeric(d, pos, f"{name[me]} plays {play_text(play, roll)}. What is {name[me]}'s pip count after it?",
                        k, f"Start from {name[me]}'s count now and take off the pips played "
                        f"({sum(s.die for s in play.steps)}).", f"{pos.pip_count(me)} - "
                        f"{pos.pip_count(me) - k} = {k}.{extra}", dice=roll)
    if d.kind in ("shots", "shot_roll"):
        chance = hit_probability(pos, d.point, exact=True)
        assert isinstance(chance, Fraction)
        k = int(chance * 36)
        table = roll_breakdown(pos, "hit", d.point)
        hitting = [r[0] for r in table.rows[:-1] if r[2] == "yes"]
        missing = [r[0] for r in table.rows[:-1] if r[2] == "no"]
        where = f"{name[you]}'s blot on its point {d.point}"
        if d.kind == "shots":
            return _numeric(d, pos, f"{name[me]} is to roll. How many of the 36 rolls can hit {where}?", k,
                            "Count direct shots (one die) and indirect ones (both dice together); a double "
                            "counts once, any other roll twice (6-5 and 5-6).",
                            f"{k} of 36: {', '.join(hitting) or 'none'}.", high=36, unit=" of 36",
                            highlight=(pos.variant.flip(d.point),))
        if not hitting or len(missing) < 3:
            raise StrategyError(f"drill {d.id!r}: needs at least one hitting roll and three that miss")
        right = sorted(hitting, key=lambda r: _key(d.id, r))[0]
        wrong = sorted(missing, key=lambda r: _key(d.id, "miss", r))[:3]
        order = tuple(sorted([right, *wrong], key=lambda r: _key(d.id, "order", r)))
        return Question(d.id, f"{name[me]} is to roll. Which of these rolls can hit {where}?", pos, None, order,
                        order, frozenset({right}), "Count from the blot back to each of your checkers (and the "
                        "bar); which numbers land on it, alone or added up?", right,
                        f"{right} hits. All the rolls that hit: {', '.join(hitting)} ({k} of 36).",
                        highlight=(pos.variant.flip(d.point),))
    if d.kind == "enter":
        odds = enter_probability(pos)
        if not odds.on_bar:
            raise StrategyError(f"drill {d.id!r}: {name[me]} has no checker on the bar")
        k = int(odds.at_least_one * 36)
        table = roll_breakdown(pos, "enter")
        fail = [r[0] for r in table.rows[:-1] if r[2] == "no"]
        return _numeric(d, pos, f"{name[me]} has {odds.on_bar} on the bar. How many of the 36 rolls enter at least "
                        "one checker?", k, "Count the rolls that fail: both dice on closed points. "
                        "36 minus those.", f"{k} of 36; the rolls that fail: {', '.join(fail) or 'none'}.",
                        high=36, unit=" of 36")
    # full_roll
    rolls = full_roll_rolls(pos)
    k = len(rolls)
    missing = [str(r) for r, _ in ALL_ROLLS if r not in rolls]
    return _numeric(d, pos, f"{name[me]} is to roll. Of the 21 different rolls, how many can be played in full "
                    "(both dice; all four moves of doubles)?", k,
                    "Try the lower die first for each roll (Mexican rule M3); is the higher die still playable "
                    "after it?", f"{k} of 21; not in full: {', '.join(missing) or 'none'}.", high=21,
                    unit=" of 21")


# -- puzzles ------------------------------------------------------------------------------------
PUZZLE_KINDS = ("play", "keep", "name")


@dataclass(frozen=True)
class Puzzle:
    """A puzzle with its proof. ``kind``: ``play`` (find the better play of ``dice``), ``keep``
    (Mexican: keep the opening ``dice`` or roll both again), ``name`` (Mexican: which doubles to
    name after a Mexican). ``answer``: the best play (move text), ``"keep"``/``"reroll"``, or the
    doubles (``"4"``); ``others``: the choices beside it. ``proof``: how the answer was computed
    (``method``, ``values`` of each choice, ``ply``, rollout ``games`` and ``stderr``...)."""

    id: str
    kind: str
    theme: str
    position: str
    dice: str
    answer: str
    others: tuple[str, ...]
    proof: dict[str, Any] = field(compare=False, hash=False)
    level: int = 2

    def __post_init__(self) -> None:
        if self.kind not in PUZZLE_KINDS:
            raise StrategyError(f"puzzle {self.id!r}: unknown kind {self.kind!r}; kinds: {', '.join(PUZZLE_KINDS)}")
        if not self.others:
            raise StrategyError(f"puzzle {self.id!r}: a choice needs at least one other option")

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self.position.split("/", 1)[0]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """A puzzle from its JSON record (what ``scripts/make_puzzles.py`` writes)."""
        try:
            return cls(data["id"], data["kind"], data["theme"], data["position"], data["dice"], data["answer"],
                       tuple(data["others"]), dict(data["proof"]), int(data.get("level", 2)))
        except (KeyError, TypeError) as e:
            raise StrategyError(f"not a puzzle record ({e}): {str(data)[:80]!r}") from None

    def to_json(self) -> dict[str, Any]:
        """The JSON record."""
        return {"id": self.id, "kind": self.kind, "theme": self.theme, "position": self.position, "dice": self.dice,
                "answer": self.answer, "others": list(self.others), "proof": self.proof, "level": self.level}


def load_puzzles(directory: str | Path | None = None) -> tuple[Puzzle, ...]:
    """Every puzzle of ``backgammon_lab/data/puzzles/*.json`` (or ``directory``), in file order."""
    d = Path(directory) if directory is not None else puzzle_dir()
    out: list[Puzzle] = []
    for f in sorted(d.glob("*.json")):
        try:
            records = json.loads(f.read_text())
        except ValueError as e:
            raise StrategyError(f"{f}: not JSON: {e}") from None
        out.extend(Puzzle.from_json(r) for r in records)
    return tuple(out)


_NAMES = {"keep": "Keep the dice", "reroll": "Roll both dice again"}


_PLIES = {0: "the net", 1: "the net looking one roll ahead", 2: "the net looking two rolls ahead"}


def how_words(proof: dict[str, Any]) -> str:
    """How a puzzle's values were computed, in a learner's words (from the proof's ``method``,
    ``ply`` and rollout; no function's name): ``"the net looking two rolls ahead, confirmed by a
    rollout of 72 games"``. A proof of another kind (a learner's mistake) says it in its ``how``."""
    if proof.get("method") != "net":
        return str(proof.get("how", proof.get("method", "")))
    words = _PLIES.get(proof.get("ply", 0), f"the net looking {proof.get('ply')} rolls ahead")
    rollout = proof.get("rollout")
    if rollout:
        each = " each" if isinstance(rollout.get("win"), dict) else ""
        words += f", confirmed by a rollout of {rollout['games']} games{each}"
    return words


def _value_words(p: Puzzle, option: str) -> str:
    v = p.proof["values"][option]
    return f"{100 * float(v):.1f}% to win"


def _puzzle_question(p: Puzzle) -> Question:
    pos = _pos(p.id, p.position)
    options = [p.answer, *p.others]
    order = tuple(sorted(options, key=lambda o: _key(p.id, "order", o)))
    how = how_words(p.proof)
    if p.kind == "play":
        roll = Roll.parse(p.dice)
        plays = {o: find_play(pos, roll, o) for o in options}
        words = {o: play_text(plays[o], roll) for o in options}
    else:
        words = {o: _NAMES.get(o, f"{o}-{o}") for o in options}
    vals = tuple(f"{words[o]}: {_value_words(p, o)}" for o in order)
    values_text = "; ".join(vals)
    if p.kind == "play":
        best = plays[p.answer]
        second = max(p.others, key=lambda o: float(p.proof["values"][o]))  # the next in winning chance, as shown
        does = what_it_does(pos, best.position, plays[second].position)
        said = f"{words[p.answer]} " + ", ".join(does) if does else f"{words[p.answer]} is worth more"
        reason = f"{said} (against {words[second]}). The engine's values ({how}): {values_text}."
        labels = tuple(words[o] for o in order)
        arrows = tuple(tuple((s.start, s.end) for s in plays[o].steps) for o in order)
        return Question(p.id, f"{'White' if pos.turn == WHITE else 'Black'} to play {roll}: which play is better?",
                        pos, roll, order, labels, frozenset({p.answer}),
                        "Compare what each play leaves: made points, blots and shots, the race.",
                        play_text(best, roll), reason, vals, arrows)
    if p.kind == "keep":
        roll = Roll.parse(p.dice)
        labels = tuple(_NAMES[o] for o in order)
        reason = f"The engine's values ({how}): {values_text}."
        other_option = next(o for o in options if o != p.answer)
        lead = float(p.proof["values"][p.answer]) - float(p.proof["values"][other_option])
        rollout = p.proof.get("rollout") or {}
        if isinstance(rollout.get("win"), dict):  # the margin each check shows, as it shows it
            ro = float(rollout["win"][p.answer]) - float(rollout["win"][other_option])
            err = (float(rollout["stderr"][p.answer]) ** 2 + float(rollout["stderr"][other_option]) ** 2) ** 0.5
            doing = {"keep": "Keeping the dice", "reroll": "Rolling both dice again"}[p.answer]
            reason += (f" {doing} wins {100 * lead:.1f} more games in 100 by the net, and "
                       f"{100 * ro:.1f} \u00b1 {100 * err:.1f} more by the rollout: a small edge, but a sure one.")
        side = "White" if pos.turn == WHITE else "Black"
        return Question(p.id, f"{side} won the opening roll with {roll}. Keep these dice, or roll both again?",
                        pos, roll, order, labels, frozenset({p.answer}),
                        "Is this roll better than an average roll? An average roll is what re-rolling gives.",
                        _NAMES[p.answer], reason, vals)
    labels = tuple(f"{o}-{o}" for o in order)
    reason = f"The engine's values ({how}): {values_text}."
    return Question(p.id, "After a Mexican (1-2), which doubles do you name? (You play them at once, then roll "
                    "again if all four moves were played.)", pos, Roll(1, 2), order, labels, frozenset({p.answer}),
                    "Which doubles make points, hit, or keep the chain going with all four moves?",
                    f"{p.answer}-{p.answer}", reason, vals)


@lru_cache(maxsize=1024)
def question(item: Drill | Puzzle) -> Question:
    """The :class:`Question` of a drill or a puzzle, computed by the engine (StrategyError for one
    that cannot be asked)."""
    if isinstance(item, Drill):
        return _drill_question(item)
    if isinstance(item, Puzzle):
        return _puzzle_question(item)
    raise StrategyError(f"a question is made from a Drill or a Puzzle, not {item!r}")


# -- the course's content -----------------------------------------------------------------------
_STD = "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
_MID = "standard/w/24,22,13x4,8x3,6x4,5x2/24x2,13x4,11,8x2,6x4,5x2"
_RACE = "standard/w/6x3,5x3,4x3,3x2,2x2,1x2/6x4,5x4,4x3,3x2,2x2"
_BLOT = "standard/w/24x2,13x5,8x3,6x5/24x2,20,15x2,13x5,8x3,6x2"
_MEX = "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"

#: The drills, stage by stage (``theme``), easy to hard.
DRILLS: tuple[Drill, ...] = (
    Drill("d.pip.1", "pips", _STD, "d.pips", 1),
    Drill("d.pip.2", "pips", _MID, "d.pips", 1, side=BLACK),
    Drill("d.pip.3", "lead", _MID, "d.pips", 2),
    Drill("d.pip.4", "lead", _RACE, "d.pips", 2),
    Drill("d.pip.5", "pips_after", _STD, "d.pips", 2, dice="6-4", play="24/14"),
    Drill("d.pip.6", "pips_after", _BLOT, "d.pips", 3, dice="4-3", play="13/9 8/5*"),
    Drill("d.shot.1", "shots", "standard/w/13x15/18,13x5,8x4,6x5", "d.shots", 1, point=18),
    Drill("d.shot.2", "shots", _BLOT, "d.shots", 2, point=20),
    Drill("d.shot.3", "shots", "standard/w/13x5,8x5,6x5/24,13x5,8x4,6x5", "d.shots", 2, point=24),
    Drill("d.shot.4", "shots", "standard/w/13x15/23,13x5,8x4,6x5", "d.shots", 3, point=23),
    Drill("d.shot.5", "shot_roll", "standard/w/13x15/18,13x5,8x4,6x5", "d.shots", 2, point=18),
    Drill("d.shot.6", "shot_roll", "standard/w/13x15/23,13x5,8x4,6x5", "d.shots", 3, point=23),
    Drill("d.enter.1", "enter", "standard/w/bar,24,13x5,8x3,6x5/13x5,8x4,6x6", "d.enter", 1),
    Drill("d.enter.2", "enter", "standard/w/bar,24,13x5,8x3,6x5/13x5,8x4,6x4,5x2", "d.enter", 1),
    Drill("d.enter.3", "enter", "standard/w/bar,24,13x5,8x3,6x5/13x4,8x3,6x4,5x2,4x2", "d.enter", 2),
    Drill("d.enter.4", "enter", "standard/w/bar,24,13x5,8x3,6x5/13x3,8x2,6x4,5x2,4x2,3x2", "d.enter", 2),
    Drill("d.enter.5", "enter", "standard/w/bar,24,13x5,8x3,6x5/8x3,6x4,5x2,4x2,3x2,2x2", "d.enter", 3),
    Drill("d.enter.6", "enter", "standard/w/barx2,13x5,8x3,6x5/13x4,8x3,6x4,5x2,4x2", "d.enter", 3),
    Drill("d.full.1", "full_roll", _MEX, "d.full", 1),
    Drill("d.full.2", "full_roll", "mexican/w/6x5,5x5,4x5/13x5,8x5,7x5", "d.full", 2),
    Drill("d.full.3", "full_roll", "mexican/w/24x2,8x3,6x5,5x5/13x5,8x3,7x2,6x5", "d.full", 2),
    Drill("d.full.4", "full_roll", "mexican/w/6x3,5x3,4x3,3x2,2x2,1x2/6x4,5x4,4x3,3x2,2x2", "d.full", 2),
    Drill("d.full.5", "full_roll", "mexican/w/bar,24,13x5,8x3,6x5/24x2,13x3,8x2,6x3,5x3,4x2", "d.full", 3),
    Drill("d.full.6", "shots", "mexican/w/24x2,13x5,8x3,6x5/24x2,20,15x2,13x5,8x3,6x2", "d.full", 3, point=20),
    Drill("d.full.7", "enter", "mexican/w/bar,24,13x5,8x3,6x5/13x4,8x3,6x4,5x2,4x2", "d.full", 3),
    Drill("d.mini.1", "pips", "minigam/w/6x2,5x3,4x3/6x3,5x3,4x2", "d.mini", 1),
    Drill("d.mini.2", "lead", "minigam/w/6x2,5x3,4x3/6x3,5x3,4x2", "d.mini", 1),
    Drill("d.mini.3", "pips", "minigam/w/barx3,6x2,5x3/barx2,6x3,5x3", "d.mini", 2),
    Drill("d.mini.4", "lead", "minigam/w/barx3,6x2,5x3/barx2,6x3,5x3", "d.mini", 2),
    Drill("d.mini.5", "pips_after", "minigam/w/6x2,5x3,4x3/6x3,5x3,4x2", "d.mini", 2, dice="2-1", play="6/4 5/4"),
    Drill("d.mini.6", "full_roll", "minigam/w/6x2,5x3,4x3/6x3,5x3,4x2", "d.mini", 3),
)


@dataclass(frozen=True)
class Theme:
    """A stage of the strategy course: ``id`` (``"s.points"``), a title, the variant, what it
    teaches (``about``) and its drills or puzzles, easy to hard."""

    id: str
    title: str
    variant: str
    about: str
    items: tuple[Drill | Puzzle, ...]

    def __len__(self) -> int:
        return len(self.items)


#: (id, variant, title, about) of every stage, in the course's order.
THEME_TITLES: tuple[tuple[str, str, str, str], ...] = (
    ("d.pips", "standard", "Count the pips", "the race: each side's pip count, who leads, a play's effect"),
    ("d.shots", "standard", "Count the shots", "how many of the 36 rolls hit a blot, and which"),
    ("d.enter", "standard", "Come in from the bar", "the rolls that enter against a home board"),
    ("d.full", "mexican", "Mexican odds", "rolls that play in full (lower die first), shots and entering"),
    ("d.mini", "minigam", "Mini-Gam counts", "pips and the race on six points"),
    ("points", "standard", "Making points", "the better play makes a point"),
    ("safe", "standard", "Safe or bold", "how many shots a play leaves"),
    ("hitting", "standard", "Hitting", "when to send a checker back"),
    ("priming", "standard", "Priming", "a wall of made points in a row"),
    ("race", "standard", "The race", "no contact left: the race and bearing off"),
    ("bearoff", "standard", "Bearing off against contact", "bearing off safely while the other side waits"),
    ("keep", "mexican", "Keep or re-roll", "the opening dice (M2): keep them or roll both again"),
    ("name", "mexican", "Name the doubles", "after a Mexican (M8): which doubles to play"),
    ("chain", "mexican", "A doubles chain", "doubles played in full roll again (M7): keep the chain going"),
    ("cap", "mexican", "The cap", "five checkers at most on a point (M6)"),
    ("mexbearoff", "mexican", "Exact bear-off", "bearing off in Mexican Backgammon"),
    ("entering", "minigam", "Entering order", "which checker to bring in first"),
    ("racehit", "minigam", "Racing or hitting", "on six points: run or hit"),
)


def _theme_key(item: Drill | Puzzle) -> str:
    if isinstance(item, Puzzle) and item.variant == "mexican" and item.theme == "bearoff":
        return "mexbearoff"
    return item.theme


def themes(puzzles: tuple[Puzzle, ...] | None = None) -> tuple[Theme, ...]:
    """The stages of the strategy course: the drills, then the puzzles of each theme (easy to
    hard: by level, then in file order); a theme without items is left out."""
    items: list[Drill | Puzzle] = [*DRILLS, *(load_puzzles() if puzzles is None else puzzles)]
    out = []
    for tid, variant, title, about in THEME_TITLES:
        mine = [i for i in items if _theme_key(i) == tid and i.variant == variant]
        mine.sort(key=lambda i: i.level)
        if mine:
            out.append(Theme(tid, title, variant, about, tuple(mine)))
    return tuple(out)
