"""Exercises as data; their answers come from the engine, never from the person who wrote them.

An :class:`Exercise` is a position, the dice (or the actions that lead to a game state), a goal of
one :data:`KINDS` and a short text. :func:`solve` asks the engine for the answer:

    >>> ex = Exercise("demo", "count", "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "5-2",
    ...               "How many different plays does 5-2 allow?")
    >>> solve(ex).accepts
    frozenset({6})

The kinds:

``play``
    Play the roll on the board by clicks. ``target`` says which plays reach the goal: ``only``
    (the exercise has exactly one legal play), ``any`` (every legal play: the lesson is in the
    refused steps), ``hit``, ``enter`` (every checker on the bar enters), ``bear_off``, ``win``
    (the last checker is borne off), ``free_entry`` (Mini-Gam: only checkers on the board move
    while others wait on the bar), ``no_bear_off`` (a play that bears nothing off).
``spot``
    A proposed play (``proposal``, move text) breaks a rule: click the first step that is refused,
    then pick the engine's reason among reasons the engine gives for other refused steps.
``lost``
    Will the turn be lost with this roll (yes or no), and if yes, why.
``count``
    How many different legal plays the roll allows.
``moves``
    How many of the dice (of four, for doubles) can be played.
``name``
    After a Mexican: which doubles would you name so that all four moves can be played.
``bearoff``
    Can a checker be borne off with this roll? The engine's reason follows the answer.
``land``
    Click the point where the checker on ``start`` (the mover's numbering; the bar is N+1) lands
    with the die ``die``.
``choose``
    The opening choice (Mexican Backgammon): keep the opening dice or roll both again. The
    accepted choice is the one after which the player plays ``dice`` at once.
``worth``
    The game is over (``before`` plays the last checker off): how many points is the win worth?

:func:`check_exercise` raises :class:`LessonError` when a goal has no answer, or more than one
where one is meant (``only``, ``spot``, ``land``), or too few choices to pick from.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..engine import DiceLost, GameOver, Phase, RollDice, TurnLost, TurnState, advance, play_text
from ..errors import BackgammonError
from ..game import Game
from ..position import OFF, WHITE, Play, Position, Roll, Step
from ..rules import REASONS, Explanation, legal_plays
from ..variants import Variant, find_variant
from .rows import INTERPRETATIONS, quote_rule

__all__ = ["Exercise", "Answer", "LessonError", "KINDS", "TARGETS", "LEVELS", "solve", "check_exercise",
           "build_game", "step_clicks", "proposal_steps", "rule_note",
           "sentence", "point_name", "shuffled", "first_die_question"]

KINDS = ("play", "spot", "lost", "count", "moves", "name", "bearoff", "land", "choose", "worth")
TARGETS = ("only", "any", "hit", "enter", "bear_off", "win", "free_entry", "no_bear_off")
#: Difficulty: 1 easy, 2 medium, 3 tricky.
LEVELS = (1, 2, 3)


class LessonError(BackgammonError):
    """An exercise that cannot be used: bad data, no answer, or an ambiguous one."""


@dataclass(frozen=True)
class Exercise:
    """One exercise, as data.

    ``position``: a position string; ``dice``: the roll of the exercise (text such as ``"5-2"``);
    ``before``: actions played first, from the position (phase ``roll``; with ``opening``, from
    the variant's start before the opening roll): rolls, plays, names of
    doubles, as :meth:`~backgammon_lab.game.Game.apply` takes them (for a state deep inside a turn,
    e.g. the third doubles of a chain). ``goal``: the task in one sentence; ``text``: what the
    exercise shows, said after it is solved. ``rows``: the rule rows it practises (``"M4"``).
    """

    id: str
    kind: str
    position: str
    dice: str | None
    goal: str
    text: str = ""
    target: str = "any"
    before: tuple[Any, ...] = ()
    #: Start before the opening roll (``before`` then holds the opening dice and the choice).
    opening: bool = False
    proposal: str = ""
    start: int = 0
    die: int = 0
    level: int = 1
    rows: tuple[str, ...] = ()
    #: A try the tests make and expect to be refused (a step as move text, or an answer value).
    trap: Any = None
    #: The rule row whose interpretation (not the rule text itself) this exercise rests on.
    interpretation: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise LessonError(f"exercise {self.id!r}: unknown kind {self.kind!r}; kinds: {', '.join(KINDS)}")
        if self.kind == "play" and self.target not in TARGETS:
            raise LessonError(f"exercise {self.id!r}: unknown target {self.target!r}; targets: {', '.join(TARGETS)}")
        if self.level not in LEVELS:
            raise LessonError(f"exercise {self.id!r}: level must be 1, 2 or 3, not {self.level!r}")
        if self.interpretation and self.interpretation not in INTERPRETATIONS:
            raise LessonError(f"exercise {self.id!r}: row {self.interpretation!r} is not an interpretation; "
                              f"those are: {', '.join(INTERPRETATIONS)}")

    @property
    def note(self) -> str:
        """What the learner is told when the exercise rests on an interpretation (else ``""``)."""
        if not self.interpretation:
            return ""
        return (f"An interpretation (rule {self.interpretation}): {INTERPRETATIONS[self.interpretation]}.")

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self.position.split("/", 1)[0].split(";", 1)[0]


@dataclass(frozen=True)
class Answer:
    """What the engine says the answer is.

    ``accepts``: the accepted answers (final positions of plays, a step index, True/False, a
    number, doubles, a White point number for ``land``). ``choices``/``labels``: the buttons of a
    choice question. ``reason``: the engine's explanation that goes with the answer. ``reasons``:
    the reasons to pick from in a second stage (``spot``; ``lost`` when the turn is lost), the
    right one at ``reason_index``. ``solution``: the answer in words; ``hint``: a nudge.
    """

    accepts: frozenset[Any]
    solution: str
    hint: str
    reason: str = ""
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    reason_index: int = -1
    plays: tuple[Play, ...] = field(default=(), compare=False)
    steps: tuple[Step, ...] = ()


# -- numbering ---------------------------------------------------------------------------------
def step_clicks(position: Position, step: Step) -> list[tuple[str, Any]]:
    """The two board clicks (``(kind, value)`` for :meth:`BoardWidget.click`) that play ``step``:
    the checker, then where it goes."""
    v, who = position.variant, position.turn

    def one(p: int) -> tuple[str, Any]:
        if p == v.bar:
            return ("bar", who)
        if p == OFF:
            return ("off", who)
        return ("point", v.renumber(p, who))

    return [one(step.start), one(step.end)]


def rule_note(why: Explanation) -> str:
    """The explanation in words, with the rule it rests on when there is one (a rule row or a seed's
    sentence, named as the notebooks name it; not the bare "usual rules" of standard backgammon).
    Every rule is quoted one way: :func:`~backgammon_lab.lessons.rows.quote_rule`."""
    if why.rule is None or why.rule.id == "Standard":
        return why.message
    return f"{why.message} ({quote_rule(why.rule)})"


def sentence(text: str) -> str:
    """``text`` ending with one full stop (no ``..``)."""
    text = text.rstrip()
    done = text.endswith((".", "!", "?", ".\u201d)", ".)", "\u201d)")) or not text
    return text if done else text + "."


def point_name(position: Position, point: int) -> str:
    """The mover's point ``point`` named with whose numbering is meant: ``"White's point 5"``;
    for Black also White's number, which the board shows: ``"Black's point 5 (White's point 2)"``;
    ``"the bar"`` for the bar."""
    v = position.variant
    if point == v.bar:
        return "the bar"
    if position.turn == WHITE:
        return f"White's point {point}"
    return f"Black's point {point} (White's point {v.renumber(point, position.turn)})"


def first_die_question(variant: Variant, roll: Roll, on_bar: bool) -> str:
    """The hint of a "will the turn be lost?" question: which die comes first where the dice have an
    order (Mexican's lower die first), else whether any die can be played at all."""
    if variant.low_die_first and not roll.is_double:
        what = "enter" if on_bar else "be played"
        return f"Which die must {what} first with {roll}, and can it?"
    if on_bar:
        return f"Can a checker on the bar enter with either die of {roll}?"
    return f"Can any checker move with either die of {roll}?"


# -- the state of an exercise ------------------------------------------------------------------
def _position(ex: Exercise) -> Position:
    try:
        return Position.from_string(ex.position)
    except BackgammonError as e:
        raise LessonError(f"exercise {ex.id!r}: bad position {ex.position!r}: {e}") from None


def _variant(ex: Exercise) -> Variant:
    try:
        return find_variant(ex.position)
    except BackgammonError as e:
        raise LessonError(f"exercise {ex.id!r}: an opening exercise names a variant, not {ex.position!r}: {e}") from None


def build_game(ex: Exercise, *, roll: bool = True) -> Game:
    """A game at the exercise's state: the position, the actions ``before``, then the dice (unless
    ``roll`` is false: the state just before the roll)."""
    game = Game(_variant(ex)) if ex.opening else Game(position=_position(ex))
    try:
        for action in ex.before:
            game.apply(action)
        if roll and ex.dice is not None:
            game.apply(ex.dice)
    except BackgammonError as e:
        raise LessonError(f"exercise {ex.id!r}: its set-up cannot be played: {e}") from None
    return game


def proposal_steps(ex: Exercise, pos: Position) -> list[tuple[str, int, int]]:
    """The steps of ``ex.proposal`` as ``(text, start, end)`` in the mover's numbering."""
    from ..moves import parse_steps

    n = pos.variant.points
    try:
        segs = parse_steps(ex.proposal, n)
    except BackgammonError as e:
        raise LessonError(f"exercise {ex.id!r}: bad proposal {ex.proposal!r}: {e}") from None
    return [(Step(a, b, max(a - b, 1)).text(n), a, b) for a, b in segs]


def _pick(ex: Exercise, options: list[Any], k: int) -> list[Any]:
    """A deterministic order of ``options`` that depends on the exercise's id (no randomness)."""
    def key(x: Any) -> str:
        return hashlib.sha256(f"{ex.id}|{x}".encode()).hexdigest()
    return sorted(options, key=key)[:k]


def shuffled(ex: Exercise, options: list[Any]) -> list[Any]:
    """``options`` in an order seeded by the exercise's id: the same on every run, different from
    one exercise to the next, so the right answer is not always on the same button."""
    def key(x: Any) -> str:
        return hashlib.sha256(f"{ex.id}|order|{x}".encode()).hexdigest()
    return sorted(options, key=key)


#: Reasons never offered as a choice: facts of the input, not rules of the game.
_NOT_OFFERED = {"legal", "play_complete", "no_checker", "backwards", "no_such_die", "bad_point", "bad_step",
                "ambiguous", "too_many_steps", "combined", "turn_lost"}


def reason_phrase(code: str) -> str:
    """The engine's short statement of the rule behind a reason code, as a sentence."""
    text = REASONS.get(code, "")
    return text[:1].upper() + text[1:] + "." if text else ""


def _reason_codes(pos: Position) -> list[str]:
    """The reason codes of rules this variant has (the reasons a learner picks among)."""
    v = pos.variant
    return [c for c in REASONS if c not in _NOT_OFFERED and v.rule(c) is not None]


def _hits(play: Play) -> bool:
    return any(s.hit for s in play.steps)


def _target_ok(target: str, play: Play, start: Position) -> bool:
    bar = start.variant.bar
    if target in ("only", "any"):
        return True
    if target == "hit":
        return _hits(play)
    if target == "enter":
        return play.position.count(start.turn, bar) == 0
    if target == "bear_off":
        return any(s.end == OFF for s in play.steps)
    if target == "no_bear_off":
        return not any(s.end == OFF for s in play.steps)
    if target == "win":
        return play.position.is_over
    if target == "free_entry":
        return start.count(start.turn, bar) > 0 and bool(play.steps) and all(s.start != bar for s in play.steps)
    raise LessonError(f"unknown target {target!r}")  # pragma: no cover - checked in Exercise


_TARGET_WORDS = {
    "hit": "hits a blot", "enter": "enters every checker from the bar", "bear_off": "bears a checker off",
    "win": "bears off the last checker", "no_bear_off": "bears nothing off",
    "free_entry": "moves only checkers on the board while others wait on the bar",
}


def target_words(target: str) -> str:
    """The goal of a ``play`` target in words (``"hits a blot"``)."""
    return _TARGET_WORDS.get(target, "is legal")


@lru_cache(maxsize=512)
def solve(ex: Exercise) -> Answer:
    """The answer to ``ex``, computed by the engine. Raises :class:`LessonError` for an exercise
    without an answer (see :func:`check_exercise`)."""
    kind = ex.kind
    if kind == "lost":
        return _solve_lost(ex)
    if kind == "choose":
        return _solve_choose(ex)
    if kind == "worth":
        return _solve_worth(ex)
    game = build_game(ex)
    state = game.state
    if kind == "name":
        return _solve_name(ex, state)
    if state.phase is not Phase.PLAY:
        raise LessonError(f"exercise {ex.id!r}: the roll leaves nothing to play "
                          f"({'; '.join(game.messages) or state.hint()}); use kind 'lost'")
    assert state.plays is not None and state.roll is not None
    return {"play": _solve_play, "spot": _solve_spot, "count": _solve_count, "moves": _solve_moves,
            "bearoff": _solve_bearoff, "land": _solve_land}[kind](ex, state)


def _solve_play(ex: Exercise, state: TurnState) -> Answer:
    plays = state.plays
    assert plays is not None
    pos = state.position
    good = [p for p in plays if _target_ok(ex.target, p, pos)]
    if ex.target == "only" and len(plays) != 1:
        raise LessonError(f"exercise {ex.id!r}: 'the only legal play' but there are {len(plays)}: "
                          + ", ".join(map(str, list(plays)[:6])))
    if not good:
        raise LessonError(f"exercise {ex.id!r}: no legal play {target_words(ex.target)}")
    first = good[0]
    step = first.steps[0]
    assert state.roll is not None
    goes = "off" if step.end == OFF else point_name(pos, step.end)
    hint = f"Start with the checker on {point_name(pos, step.start)}: it can go {'' if step.end == OFF else 'to '}{goes}."
    words = play_text(first, state.roll)
    sol = words if len(good) == 1 else f"{words} (or {len(good) - 1} other play{'s' if len(good) > 2 else ''})"
    return Answer(frozenset(p.position for p in good), sol, hint, plays=tuple(good))


def _solve_spot(ex: Exercise, state: TurnState) -> Answer:
    pos = state.position
    roll = state.roll
    assert roll is not None
    steps = proposal_steps(ex, pos)
    assert state.node is not None
    node = state.node
    done: list[Step] = []
    for i, (text, a, b) in enumerate(steps):
        options = [s for s in node.next_steps() if (s.start, s.end) == (a, b)]
        if options:
            step, node = node.take(sorted(options, key=lambda s: s.die)[0])
            done.append(step)
            continue
        why = node.explain((a, b))
        if why.legal:  # pragma: no cover - the tree and its explanations agree
            raise LessonError(f"exercise {ex.id!r}: engine disagreement on {text}")
        right = reason_phrase(why.code)
        pool = [reason_phrase(c) for c in _reason_codes(pos) if c != why.code]
        if not right or len(pool) < 2:
            raise LessonError(f"exercise {ex.id!r}: no reasons to pick from beside {why.message!r}")
        order = _pick(ex, _pick(ex, pool, 2) + [right], 3)
        return Answer(frozenset({i}), f"the step {text}",
                      f"Replay the steps one by one in your head; the dice are {roll}.",
                      reason=rule_note(why), choices=tuple(range(len(steps))),
                      labels=tuple(t for t, _, _ in steps), reasons=tuple(order),
                      reason_index=order.index(right), steps=tuple(done))
    raise LessonError(f"exercise {ex.id!r}: every step of {ex.proposal!r} is legal")


def _solve_lost(ex: Exercise) -> Answer:
    game = build_game(ex, roll=False)
    before = game.state
    if before.phase is not Phase.ROLL or ex.dice is None:
        raise LessonError(f"exercise {ex.id!r}: a 'lost' question needs a state where dice are rolled")
    roll = Roll.parse(ex.dice)
    after, events = advance(before, RollDice(roll))
    lost = [e for e in events if isinstance(e, TurnLost)]
    on_bar = before.position.count(before.player, before.variant.bar) > 0
    if not lost:
        assert after.plays is not None
        n = len(after.plays)
        reason = f"No: {n} legal play{'s' if n != 1 else ''}, for example {play_text(after.plays[0], roll)}."
        return Answer(frozenset({False}), "No", first_die_question(before.variant, roll, on_bar),
                      reason=reason, choices=(True, False), labels=("Yes", "No"))
    ev = lost[0]
    texts: set[str] = set()
    if before.variant.low_die_first and not roll.is_double:
        # The reasons a lost turn can have with this roll, in the engine's words; the one that
        # applies is the event's. ("No legal move" is left out: it is true of every lost turn.)
        texts = {TurnLost(ev.player, roll, r, roll.low, ev.rerolls_lost).text
                 for r in ("lower_die_cannot_enter", "lower_die_blocked", "cannot_enter")}
        texts.add(DiceLost(ev.player, roll, 1, 2, "high_after_low", roll.high).text)
        texts.discard(TurnLost(ev.player, roll, "lower_die_blocked" if on_bar else "lower_die_cannot_enter",
                               roll.low, ev.rerolls_lost).text)
    texts.discard(ev.text)
    explanation = ev.text
    # the engine's reason for one refused step of the lower (or first) die, when it has one
    pos = before.position
    n = pos.variant.points
    plays = legal_plays(pos, roll)
    for start in range(pos.variant.bar, 0, -1):
        if pos.count(pos.turn, start):
            why = plays.explain(Step(start, max(start - roll.low, 0), roll.low))
            if not why.legal and why.code not in ("turn_lost", "lower_die_first"):
                explanation = f"{ev.text} {Step(start, max(start - roll.low, 0), roll.low).text(n)}: {why.message}"
                break
    order = _pick(ex, _pick(ex, sorted(texts), 2) + [ev.text], 3) if texts else []
    return Answer(frozenset({True}), "Yes", first_die_question(before.variant, roll, on_bar),
                  reason=explanation, choices=(True, False), labels=("Yes", "No"),
                  reasons=tuple(order), reason_index=order.index(ev.text) if order else -1)


def _window(ex: Exercise, answer: int, low: int = 0, high: int | None = None, width: int = 6) -> tuple[int, ...]:
    shift = int(hashlib.sha256(ex.id.encode()).hexdigest(), 16) % (width - 1)
    start = max(low, answer - shift)
    if high is not None:
        start = max(low, min(start, high - width + 1))
    return tuple(x for x in range(start, start + width) if high is None or x <= high)


def _solve_count(ex: Exercise, state: TurnState) -> Answer:
    plays = state.plays
    assert plays is not None
    n = len(plays)
    choices = _window(ex, n, low=1)
    assert state.roll is not None
    shown = ", ".join(play_text(p, state.roll) for p in list(plays)[:8]) + (f" and {n - 8} more" if n > 8 else "")
    return Answer(frozenset({n}), str(n), "Count plays by where the checkers end up, not by the order of the steps.",
                  reason=f"{n} legal play{'s' if n != 1 else ''}: {shown}.", choices=choices,
                  labels=tuple(map(str, choices)), plays=tuple(plays))


def _solve_moves(ex: Exercise, state: TurnState) -> Answer:
    plays = state.plays
    roll = state.roll
    assert plays is not None and roll is not None
    k = plays.length
    total = 4 if roll.is_double else 2
    choices = tuple(range(1, total + 1))
    return Answer(frozenset({k}), str(k), f"Try to play the {roll} one move at a time; which points are open?",
                  reason=f"{k} of the {total} moves can be played, for example {play_text(plays[0], roll)}.", choices=choices,
                  labels=tuple(map(str, choices)), plays=tuple(plays))


def _solve_bearoff(ex: Exercise, state: TurnState) -> Answer:
    plays = state.plays
    roll = state.roll
    assert plays is not None and roll is not None
    pos = state.position
    can = [p for p in plays if any(s.end == OFF for s in p.steps)]
    if can:
        reason = f"Yes, for example {play_text(can[0], roll)}."
    else:
        reason = _bear_off_refusal(pos, roll, plays)
        if not reason:
            reason = f"No: no legal play of {roll} bears a checker off."
    return Answer(frozenset({bool(can)}), "Yes" if can else "No",
                  "Where are all your checkers? Which dice fit which points?", reason=reason,
                  choices=(True, False), labels=("Yes", "No"), plays=tuple(can))


def _bear_off_refusal(pos: Position, roll: Roll, plays: Any) -> str:
    """The engine's reason why no checker bears off: a bear-off step tried at the start of the
    turn and after the first step of each legal play, the first refusal that is about bearing off."""
    n = pos.variant.points
    # the variant's single-step rules about bearing off: the checks of a step off the board, and
    # those that refuse any move (a checker on the bar enters first)
    about_off = {c.code for c in pos.variant.step_checks() if c.at in ("off", "move")}
    prefixes: list[list[Step]] = [list(p.steps[:k]) for p in plays for k in range(len(p.steps), 0, -1)] + [[]]
    fallback = ""
    for done in prefixes:
        node = plays.after(done)
        here = node.position
        left = sorted(set(roll.dice)) if not done else sorted({s.die for s in node.next_steps()} or set(roll.dice))
        for d in sorted(left, reverse=True):
            for start in range(min(d, n), 0, -1):
                if not here.count(pos.turn, start):
                    continue
                why = node.explain(Step(start, 0, d))
                if why.legal:
                    continue
                after = f"After {' '.join(s.text(n) for s in done)}: " if done else ""
                if why.code in about_off:
                    return f"No. {after}{rule_note(why)}"
                fallback = fallback or f"No. {after}{rule_note(why)}"
    return fallback


def _solve_land(ex: Exercise, state: TurnState) -> Answer:
    roll = state.roll
    assert roll is not None
    pos = state.position
    if ex.die not in roll.dice:
        raise LessonError(f"exercise {ex.id!r}: die {ex.die} is not in the roll {roll}")
    assert state.plays is not None
    ends = sorted({s.end for s in state.plays.next_steps() if s.start == ex.start and s.die == ex.die})
    if len(ends) != 1 or ends[0] == OFF:
        raise LessonError(f"exercise {ex.id!r}: the checker on {ex.start} with a {ex.die} has "
                          f"{len(ends)} landing point(s) on the board, not one")
    end = ends[0]
    wp = pos.variant.renumber(end, pos.turn)
    who = "White" if pos.turn == WHITE else "Black"
    name = point_name(pos, ex.start)
    return Answer(frozenset({wp}), point_name(pos, end),
                  f"Count {ex.die} from {name} towards {who}'s exit, past {who}'s point 1.",
                  reason=f"From {name} a {ex.die} goes to {point_name(pos, end)}.",
                  steps=(Step(ex.start, end, ex.die),))


def _solve_name(ex: Exercise, state: TurnState) -> Answer:
    if state.phase is not Phase.NAME:
        raise LessonError(f"exercise {ex.id!r}: a 'name' question needs the state after a Mexican "
                          f"(the game is at: {state.hint()})")
    pos = state.position
    full = []
    counts = {}
    for k in range(1, 7):
        c = legal_plays(pos, (k, k)).length
        counts[k] = c
        if c == 4:
            full.append(k)
    if not full:
        raise LessonError(f"exercise {ex.id!r}: no doubles can be played in full here")
    if len(full) == 6:
        raise LessonError(f"exercise {ex.id!r}: every doubles can be played in full: nothing to find")
    parts = ", ".join(f"{k}-{k}: {counts[k]} of 4" for k in range(1, 7))
    order = tuple(shuffled(ex, list(range(1, 7))))
    return Answer(frozenset(full), ", ".join(f"{k}-{k}" for k in full),
                  "Try each number four times in your head; which points are blocked?",
                  reason=f"Moves each doubles can play: {parts}.", choices=order,
                  labels=tuple(f"{k}-{k}" for k in order))


_CHOICE_LABELS = {"keep": "Keep the dice", "reroll": "Roll both dice again"}


def _solve_choose(ex: Exercise) -> Answer:
    game = build_game(ex, roll=False)
    state = game.state
    if state.phase is not Phase.CHOICE or ex.dice is None:
        raise LessonError(f"exercise {ex.id!r}: a 'choose' question needs the opening choice and the dice "
                          f"to play (the game is at: {state.hint()})")
    want = Roll.parse(ex.dice)
    actions = {str(c): c for c in state.legal_actions()}
    options = list(actions)
    good, said = [], []
    for c in options:
        after, events = advance(state, actions[c])
        if after.phase is Phase.PLAY and after.roll is not None and sorted(after.roll.dice) == sorted(want.dice):
            good.append(c)
        said.append(f"{_CHOICE_LABELS.get(c, c)}: {' '.join(e.text for e in events)}")
    if len(good) != 1:
        raise LessonError(f"exercise {ex.id!r}: {len(good)} choices play {want} at once, not one")
    order = tuple(shuffled(ex, options))
    return Answer(frozenset(good), _CHOICE_LABELS.get(good[0], good[0]),
                  "Which choice plays the dice you see, and which gives new ones?",
                  reason=sentence(" ".join(sentence(t) for t in said)), choices=order,
                  labels=tuple(_CHOICE_LABELS.get(c, c) for c in order))


def _solve_worth(ex: Exercise) -> Answer:
    game = build_game(ex)
    state = game.state
    if state.phase is not Phase.OVER:
        raise LessonError(f"exercise {ex.id!r}: a 'worth' question needs a finished game (the game is at: "
                          f"{state.hint()})")
    over = [e.text for entry in game.entries for e in entry.events if isinstance(e, GameOver)]
    choices = (1, 2, 3)
    return Answer(frozenset({state.points}), str(state.points), "Does this game score gammons?",
                  reason=over[-1] if over else "", choices=choices, labels=tuple(map(str, choices)))


def check_exercise(ex: Exercise) -> Answer:
    """The answer to ``ex``; raises :class:`LessonError` if it has none, or an ambiguous one, or if
    its trap (the wrong try the tests make) is in fact right."""
    ans = solve(ex)
    if ex.kind in ("spot", "land", "lost", "bearoff", "count", "moves") and len(ans.accepts) != 1:
        raise LessonError(f"exercise {ex.id!r}: {len(ans.accepts)} answers where one is meant")
    if ex.kind == "spot" and len(ans.choices) < 2:
        raise LessonError(f"exercise {ex.id!r}: a proposal of one step leaves nothing to spot")
    if ans.choices and not set(ans.accepts) <= set(ans.choices):
        raise LessonError(f"exercise {ex.id!r}: the answer is not among the choices")
    if ans.reasons and len(set(ans.reasons)) != len(ans.reasons):
        raise LessonError(f"exercise {ex.id!r}: two reasons to pick from read the same")
    if ex.kind != "play" and ex.trap is not None and ex.trap in ans.accepts:
        raise LessonError(f"exercise {ex.id!r}: its trap {ex.trap!r} is a right answer")
    return ans
