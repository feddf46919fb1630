"""Legal plays, legal steps and explanations of illegal steps, for every variant.

The plays of a roll come from the variant's compiled search kernel
(:func:`backgammon_lab.kernels.movegen`, the package's one whole-turn search), converted here into
the mover's-eye board tuples of :meth:`Position.board` (``(off, p1, ..., pN, bar, opponent_bar)``,
the mover's checkers positive), one play per resulting board, in the order the search reaches them.

Where one checker may go with one die, and why not, is written once per variant: the rows of
:meth:`Variant.step_checks() <backgammon_lab.variants.Variant.step_checks>` (no checker, bar first
(M9), a blocked point, the stacking cap (M6), the bear-off rules (M10, G4, G6)). Each variant's rows
are pasted into the search kernel and into this module's step generator and judge;
:func:`explain_step` reports the
first row the judge finds refusing a step, so a refusal's reason is the check that refused it.

The rules of the whole play come from the variant's facts:

* use as many dice as possible (standard, Mini-Gam G5, Mexican M4, M7);
* when only one of two different dice can be played, the larger (standard, G5);
* ``low_die_first``: the lower die first, and no move at all when it cannot be played (M3).

Every :class:`Explanation` carries the ``rule`` it rests on (the RULES.md row or seed sentence,
quoted, from :meth:`Variant.rule <backgammon_lab.variants.Variant.rule>`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from . import position as _position
from .errors import AmbiguousMoveError, IllegalMoveError, VariantError, show
from .kernels import movegen, refusal_condition, step_rule_parts
from .moves import coerce_step, parse_steps
from .position import Play, Position, Roll, Step
from .variants import Rule, StepCheck

__all__ = [
    "legal_plays",
    "legal_steps",
    "legal_boards",
    "explain_step",
    "explain_play",
    "parse_play",
    "check_step",
    "apply_steps",
    "PlayList",
    "Explanation",
    "REASONS",
]

Board = tuple[int, ...]
RawStep = tuple[int, int, int, bool]  # start, end, die, hit


def _apply(b: Board, s: int, t: int, n: int) -> tuple[Board, bool]:
    """The board after moving one checker from ``s`` to ``t`` (``t <= 0``: off)."""
    lst = list(b)
    lst[s] -= 1
    if t <= 0:
        lst[0] += 1
        return tuple(lst), False
    if lst[t] == -1:
        lst[t] = 1
        lst[n + 2] += 1
        return tuple(lst), True
    lst[t] += 1
    return tuple(lst), False


# The generator's single-step loops, compiled per variant from its StepCheck table
# (Variant.step_checks). The templates hold only the mechanics of moving a checker; every condition
# under which a step is refused is pasted in from the table, so the rule is written once, and
# `judge` (used by explain_step) reports the first check of the same table that refuses a step.
# Names: see StepCheck. OPP_BAR is the index of the opponent's bar in the board tuple.

_STEPS_SRC = """
def steps(b, d, SOURCES=SOURCES, BAR=BAR, OPP_BAR=OPP_BAR, CAP=CAP, HOME=HOME):
    out = []
    occ = [s for s in SOURCES if not ({source})]
    if not occ:
        return out
    hi = occ[0]
    if {move_gate}:
        srcs = [s for s in occ if not ({move})]
    else:
        srcs = occ
    for s in srcs:
        t = s - d
        if t > 0:
            x = b[t]
            if {land}:
                continue
            lst = list(b)
            lst[s] -= 1
            if x == -1:
                lst[t] = 1
                lst[OPP_BAR] += 1
            else:
                lst[t] = x + 1
            out.append((s, t, tuple(lst), x == -1))
        elif not ({off_gate}) and not ({off}):
            lst = list(b)
            lst[s] -= 1
            lst[0] += 1
            out.append((s, 0, tuple(lst), False))
    return out


def judge(b, s, d):
    occ = [s for s in SOURCES if not ({source})]
    hi = occ[0] if occ else 0
    t = s - d
    x = b[t] if t > 0 else None
{judge_lines}
    return None

"""


class _Rules:
    """The facts of a variant unpacked into locals the inner loops read fast, and the variant's
    single-step rules compiled into the step generator (``steps``) and the judge
    (``judge``) from its :meth:`~backgammon_lab.variants.Variant.step_checks` table."""

    __slots__ = ("n", "home", "cap", "exact", "bar_first", "low_first", "variant", "checks",
                 "steps", "judge", "source", "orders", "_kernel", "_ws")

    def __init__(self, variant: Any) -> None:
        self.variant = variant
        self.n = variant.points
        self.home = variant.home
        self.cap = variant.stacking_cap
        self.exact = variant.exact_bear_off
        self.bar_first = variant.bar_first
        self.low_first = variant.low_die_first
        self.checks: tuple[StepCheck, ...] = tuple(variant.step_checks())
        self.orders = {(a, b): variant.dice_orders((a, b)) for a in range(1, 7) for b in range(1, 7)}
        if [c.code for c in self.checks if c.at == "source"] != ["no_checker"]:
            raise VariantError(f"variant {variant.name!r}: the one 'source' check is no_checker")

        judge_lines = []
        for i, c in enumerate(self.checks):
            guard = {"land": "t > 0 and ", "off": "t <= 0 and "}.get(c.at, "")
            judge_lines.append(f"    if {guard}{refusal_condition(c)}:\n        return {i}, t, x, hi")
        self.source = _STEPS_SRC.format(**step_rule_parts(self.checks), judge_lines="\n".join(judge_lines))
        env: dict[str, Any] = {"SOURCES": tuple(range(self.n + 1, 0, -1)), "BAR": self.n + 1,
                               "OPP_BAR": self.n + 2, "CAP": self.cap, "HOME": self.home}
        exec(compile(self.source, f"<step rules of {variant!r}>", "exec"), env)  # noqa: S102
        self.steps: Callable[[Board, int], list[tuple[int, int, Board, bool]]] = env["steps"]
        self.judge: Callable[[Board, int, int], tuple[int, int, int | None, int] | None] = env["judge"]
        self._kernel: Any = None  # the variant's whole-turn search kernel, built on the first search
        self._ws: Any = None

    def search(self, b: Board, dice: tuple[int, int]) -> tuple[dict[Board, list[RawStep]], int]:
        """The legal full plays of ``dice`` from ``b`` keyed by resulting board (in the order the
        search first reaches them), one path each, and their length: the kernel's whole-turn search
        (:func:`backgammon_lab.kernels.movegen`), converted at this edge."""
        k = self._kernel
        if k is None:
            k = self._kernel = movegen(self.variant)
            self._ws = threading.local()
        ws = getattr(self._ws, "buffers", None)
        if ws is None:  # the search's buffers, one set per thread (the kernel releases the GIL)
            ws = self._ws.buffers = k.workspace()
        cnt, length = k.search(k.np.array(b, dtype=k.np.int8), dice[0], dice[1], *ws)
        boards = ws[0][:cnt].tolist()
        if not length:
            return {tuple(boards[0]): []}, 0
        paths = ws[1][:cnt, :length].tolist()
        return {tuple(bd): [(s, t, d, h == 1) for s, t, d, h in path] for bd, path in zip(boards, paths, strict=True)}, length

    def refusal(self, b: Board, s: int, d: int) -> tuple[StepCheck, dict[str, Any]] | None:
        """The first single-step rule that refuses moving from ``s`` with ``d`` on ``b``, with the
        values its sentence is written with; None when the step is allowed."""
        j = self.judge(b, s, d)
        if j is None:
            return None
        i, t, x, hi = j
        n = self.n
        words = {"s": s, "t": t, "d": d, "x": x, "hi": hi, "held": -x if x is not None else 0,
                 "CAP": self.cap, "HOME": self.home, "BAR": n + 1,
                 "start": "the bar" if s == n + 1 else f"point {s}",
                 "end": "off" if t <= 0 else f"point {t}"}
        return self.checks[i], words


_RULES_CACHE: dict[Any, _Rules] = {}


def _rules(variant: Any) -> _Rules:
    r = _RULES_CACHE.get(variant)
    if r is None:
        r = _RULES_CACHE[variant] = _Rules(variant)
    return r


def _orders(r: _Rules, dice: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    got = r.orders.get(dice)
    return got if got is not None else r.variant.dice_orders(dice)


def _legal(r: _Rules, b: Board, dice: tuple[int, int]) -> tuple[dict[Board, list[RawStep]], int]:
    """The legal full plays of ``dice`` from ``b``, keyed by resulting board, and their length.

    The whole-turn rules (use as many dice as possible, die orders, doubles, the lower die first,
    the larger die when only one can be played) are the kernel's search, the one in the package.
    """
    return r.search(b, dice)


def _dice(dice: Any) -> tuple[int, int]:
    return Roll.parse(dice).dice


def legal_boards(position: Position, dice: Any) -> dict[Board, list[RawStep]]:
    """Fast path: resulting mover's-eye boards -> one raw step list each (no objects built)."""
    return _legal(_rules(position.variant), position.board(), _dice(dice))[0]


class PlayList(Sequence[Play]):
    """The distinct legal plays of one roll: a sequence of :class:`Play`.

    ``in`` accepts a :class:`Play`, a resulting :class:`Position`, or move text such as ``"24/18 13/11"``.
    A roll with no legal move gives one empty play (the position unchanged).
    """

    def __init__(self, position: Position, dice: tuple[int, int], plays: list[Play], length: int,
                 boards: Mapping[Board, object] | None = None) -> None:
        self.position = position
        self.dice = dice
        self._plays = plays
        self.length = length  # steps in every legal play
        self._boards = boards  # the mover's-eye board after each play (keys, in the same order)
        self._finals: Mapping[Board, object] | None = None  # resulting boards (for continuations)
        self._next: dict[tuple[tuple[int, int, int], ...], list[Step]] = {}  # memo of continuations

    def __getitem__(self, i: Any) -> Any:
        return self._plays[i]

    def __len__(self) -> int:
        return len(self._plays)

    def __iter__(self) -> Iterator[Play]:
        return iter(self._plays)

    def count(self, value: Any = None) -> int:  # type: ignore[override]
        """Number of distinct plays (or, with an argument, how often it occurs: 0 or 1)."""
        if value is None:
            return len(self._plays)
        return int(value in self)

    def positions(self) -> list[Position]:
        """The resulting positions, in the order of the plays."""
        return [p.position for p in self._plays]

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return any(p.position == item.position for p in self._plays)
        if isinstance(item, Position):
            return any(p.position == item for p in self._plays)
        if isinstance(item, str):
            try:
                self.find(item)
            except IllegalMoveError:
                return False
            return True
        return False

    def find(self, text: str) -> Play:
        """The play that move text (``"24/18 13/11*"``) stands for; raises if illegal or ambiguous."""
        return _parse_play(self, text)

    def __repr__(self) -> str:
        shown = ", ".join(str(p) for p in self._plays[:6])
        more = f", ... ({len(self._plays)} plays)" if len(self._plays) > 6 else ""
        return f"<PlayList {self.dice[0]}-{self.dice[1]}: [{shown}{more}]>"


def _to_steps(raw: list[RawStep]) -> tuple[Step, ...]:
    return tuple(Step(s, t, d, h) for s, t, d, h in raw)


def legal_plays(position: Position, dice: Any) -> PlayList:
    """The distinct legal plays of one roll for the side to move, one per resulting position.

    ``dice`` is a :class:`Roll`, a pair ``(a, b)`` or text ``"6-5"``. Doubles are four moves.
    Mexican rolls are played lower die first; what follows a roll in the game (re-rolls, naming
    doubles) is the game's business, not this function's. Resulting positions keep ``turn``.

    >>> from backgammon_lab import Position
    >>> len(legal_plays(Position.start("standard"), (3, 1)))
    16
    """
    d = _dice(dice)
    r = _rules(position.variant)
    best, maxlen = _legal(r, position.board(), d)
    v, turn, opp_off = position.variant, position.turn, position.off[1 if position.turn == "white" else 0]
    plays = [Play._lazy(raw, (v, turn, nb, opp_off)) for nb, raw in best.items()]
    return PlayList(position, d, plays, maxlen, best)


def _normalize_steps(position: Position, steps: Iterable[Any]) -> list[Step]:
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
        raise IllegalMoveError(f"steps so far must be a list of steps, not {show(steps)}", "bad_step",
                               f"Steps so far are a list of steps, not {show(steps)}.")
    return [coerce_step(position, s) for s in steps]


def _remaining(r: _Rules, dice: tuple[int, int], used: list[int]) -> tuple[tuple[int, ...], ...] | None:
    """Orders of the dice still to play after ``used``; None if ``used`` fits no order."""
    out = []
    for order in _orders(r, dice):
        if list(order[: len(used)]) == used:
            out.append(order[len(used):])
    if not out:
        return None
    return tuple(dict.fromkeys(out))


def _walk(r: _Rules, b: Board, dice: tuple[int, int], steps: list[Step]) -> tuple[Board, list[int]]:
    """Apply ``steps`` (already checked legal) to ``b``; return the board and the dice used."""
    used: list[int] = []
    for st in steps:
        b, _ = _apply(b, st.start, st.end, r.n)
        used.append(st.die)
    return b, used


def legal_steps(position: Position, dice: Any, steps_so_far: Sequence[Any] = ()) -> list[Step]:
    """The single steps that begin (or continue, after ``steps_so_far``) some legal play.

    This is what a click-by-click interface offers. An empty list means the play is complete
    (or no move is possible). ``steps_so_far`` must itself be a legal beginning, else
    :class:`IllegalMoveError`.
    """
    d = _dice(dice)
    r = _rules(position.variant)
    b0 = position.board()
    finals, maxlen = _legal(r, b0, d)
    done = _normalize_steps(position, steps_so_far)
    b = b0
    for i, st in enumerate(done):
        options = _next_steps(r, b0, d, done[:i], finals, maxlen)
        if st not in options:
            why = explain_step(position, d, done[:i], st)
            raise IllegalMoveError(
                f"step {st.text(r.n)!r} (step {i + 1} of {[s.text(r.n) for s in done]!r}) is not legal "
                f"with {d[0]}-{d[1]}: {why.message}", why.code, why.message)
        b, _ = _apply(b, st.start, st.end, r.n)
    return _next_steps(r, b0, d, done, finals, maxlen)


def _next_steps(r: _Rules, b0: Board, dice: tuple[int, int], done: list[Step],
                finals: Mapping[Board, object], maxlen: int) -> list[Step]:
    k = len(done)
    if k >= maxlen:
        return []
    b, used = _walk(r, b0, dice, done)
    rests = _remaining(r, dice, used)
    if not rests:
        return []
    need = maxlen - k - 1
    out: list[Step] = []
    tried: set[tuple[int, int, int]] = set()
    for rest in rests:
        dd = rest[0]
        for s, t, nb, hit in r.steps(b, dd):
            if (s, t, dd) in tried:
                continue
            tried.add((s, t, dd))
            if _completes(r, nb, rest[1:], need, finals):
                out.append(Step(s, t, dd, hit))
    return out


def _completes(r: _Rules, b: Board, rest: tuple[int, ...], need: int,
               finals: Mapping[Board, object]) -> bool:
    """Can ``need`` more steps with the dice ``rest`` (any order allowed by the variant) end in finals?"""
    if need == 0:
        return b in finals
    orders = {rest} if r.low_first or len(set(rest)) == 1 else set(permutations(rest))
    for order in orders:
        if _completes_order(r, b, order, need, finals):
            return True
    return False


def _completes_order(r: _Rules, b: Board, order: tuple[int, ...], need: int,
                     finals: Mapping[Board, object]) -> bool:
    if need == 0:
        return b in finals
    if not order:
        return False
    for _s, _t, nb, _h in r.steps(b, order[0]):
        if _completes_order(r, nb, order[1:], need - 1, finals):
            return True
    return False


def apply_steps(position: Position, dice: Any, steps: Sequence[Any], *, plays: PlayList | None = None) -> Position:
    """The position after the legal beginning ``steps`` of a play (``turn`` unchanged).

    ``plays``: the legal plays of ``dice`` from ``position`` when the caller has them (no new search).
    """
    if plays is None:
        legal_steps(position, dice, steps)  # validates
    else:
        why = explain_steps(plays, steps, complete=False)
        if why is not None:
            raise IllegalMoveError(f"steps {show(list(steps))} are not a legal beginning of a play of "
                                   f"{plays.dice[0]}-{plays.dice[1]}: {why.message}", why.code, why.message)
    r = _rules(position.variant)
    done = _normalize_steps(position, steps)
    b, _ = _walk(r, position.board(), _dice(dice), done)
    opp_off = position.off[1 if position.turn == "white" else 0]
    return Position.from_board(position.variant, position.turn, b, opp_off)


# ---------------------------------------------------------------------------------------------
# Explanations


REASONS: dict[str, str] = {
    "legal": "the step is legal",
    "play_complete": "every die that can be played has been played",
    "no_checker": "there is no checker of the mover on the start point",
    "backwards": "checkers move from higher to lower point numbers",
    "no_such_die": "no die left has that number",
    "lower_die_first": "the lower die is played first",
    "turn_lost": "the lower die cannot be played, so the turn is lost",
    "bar_first": "checkers on the bar enter before any other move",
    "blocked": "the point is held by two or more opposing checkers",
    "stack_cap": "a point holds no more than the variant's cap of one player's checkers",
    "bar_not_empty": "no bearing off while a checker is on the bar",
    "not_home": "bearing off needs every checker in the home board",
    "bear_off_exact": "checkers are borne off exactly",
    "bear_off_higher": "a larger die bears off only from the highest occupied point",
    "larger_die": "when only one die can be played, it must be the larger",
    "use_both_dice": "a play must use both dice when it can",
    "use_all_moves": "doubles: as many of the four moves as possible must be played",
    "combined": "a move of one checker by two or more dice is played one step at a time",
    "too_many_steps": "a roll gives two moves, or four with doubles",
    "bad_point": "the point does not exist",
    "bad_step": "the input is not a step",
    "ambiguous": "the move text matches several plays",
}


@dataclass(frozen=True)
class Explanation:
    """Why a step is (not) legal: a reason ``code`` (a key of :data:`REASONS`), a sentence, and the
    ``rule`` it rests on (the RULES.md row or seed sentence, quoted; None for plain facts of the
    input such as a point with no checker)."""

    code: str
    message: str
    rule: Rule | None = None

    @property
    def legal(self) -> bool:
        """True when the step is legal."""
        return self.code == "legal"

    def __str__(self) -> str:
        return self.message


def _why(position: Position, code: str, message: str) -> Explanation:
    """An explanation with the rule the position's variant gives for ``code``."""
    return Explanation(code, message, position.variant.rule(code))


def _refused(position: Position, check: StepCheck, words: dict[str, Any]) -> Explanation:
    """The explanation of a single-step rule that refused a step: the rule's own sentence."""
    return _why(position, check.code, check.says.format(**words))


def _lower_die_lost(r: _Rules, position: Position, b: Board, lo: int, hi: int) -> Explanation:
    """M3: the lower die cannot be played, so the turn is lost; say why the lower die cannot move."""
    n = r.n
    reasons = []
    for s in range(n + 1, 0, -1):
        if b[s] > 0:
            got = r.refusal(b, s, lo)
            if got is not None:
                check, words = got
                reasons.append(f"{Step(s, max(s - lo, 0), lo).text(n)}: {check.says.format(**words)}")
    why = (" " + " ".join(reasons[:3]) + (" ..." if len(reasons) > 3 else "")) if reasons else ""
    return _why(position, "turn_lost", f"The lower die, {lo}, cannot be played, so the turn is lost: the "
                f"{hi} may not be played instead.{why}")


def _combined(position: Position, d: tuple[int, int], done: list[Step], rests: Sequence[tuple[int, ...]],
              st: Step) -> Explanation | None:
    """A move of one checker by several dice (``13/5`` with 5-3): legal one step at a time, or the
    first step on the way that a rule refuses. None when no dice left add up to the distance."""
    n = position.variant.points
    a, z = st.start, st.end
    dist = a - z
    ways: list[tuple[list[int], int, Explanation | None]] = []
    seen: set[tuple[int, ...]] = set()
    for rest in rests:
        total, k = 0, 0
        while k < len(rest) and total < dist:
            total += rest[k]
            k += 1
        if k < 2 or tuple(rest[:k]) in seen or not (total == dist or (z == 0 and total > dist)):
            continue
        seen.add(tuple(rest[:k]))
        path = [a]
        for x in rest[:k]:
            path.append(max(path[-1] - x, 0))
        sub_done = list(done)
        fail, at = None, 0
        for i, x in enumerate(rest[:k]):
            sub = explain_step(position, d, sub_done, Step(path[i], path[i + 1], x))
            if not sub.legal:
                fail, at = sub, i
                break
            sub_done.append(Step(path[i], path[i + 1], x))
        ways.append((path, at, fail))
    if not ways:
        return None
    text = st.text(n)
    def chain(path: list[int]) -> str:
        return "/".join("bar" if p == n + 1 else "off" if p == 0 else str(p) for p in path)

    for path, _at, fail in ways:
        if fail is None:
            return _why(position, "combined", f"{text} moves one checker by {len(path) - 1} dice: play it one "
                        f"step at a time, {chain(path)}.")
    parts = []
    for path, at, fail in ways:
        assert fail is not None
        why = f"{fail.message[0].lower()}{fail.message[1:]}"
        parts.append(f"{text} would pass through point {path[1]} first, and {why}" if at == 0 else
                     f"{text} would go {chain(path)}, and {why}")
    first = ways[0][2]
    assert first is not None
    rule = position.variant.rule("combined") if first.code == "blocked" else first.rule
    return Explanation(first.code, " Or: ".join(parts), rule)


def explain_step(position: Position, dice: Any, steps_so_far: Sequence[Any], step: Any) -> Explanation:
    """Explain whether ``step`` may be played next, after the legal ``steps_so_far``.

    ``step`` is a :class:`Step`, a ``(start, end)`` pair in the mover's numbering (bar = N+1,
    off = 0) or text like ``"bar/22"``. The die is inferred when not given. A single-step rule
    (blocked point, cap, bar first, bear-off) is reported by the same check that keeps the step
    out of :func:`legal_plays` (the variant's :meth:`~backgammon_lab.variants.Variant.step_checks`);
    the rest are the rules of the whole play (lower die first, use as much of the roll as
    possible, the larger die). The explanation's ``rule`` quotes the rule it rests on.
    """
    d = _dice(dice)
    r = _rules(position.variant)
    n = r.n
    done = _normalize_steps(position, steps_so_far)
    b0 = position.board()
    finals, maxlen = _legal(r, b0, d)
    b, used = _walk(r, b0, d, done)
    rests = _remaining(r, d, used) or ()
    left = sorted({rest[0] for rest in rests if rest})
    later = {x for rest in rests for x in rest[1:]}
    try:
        st = coerce_step(position, step, dice_left=left or list(d))
    except IllegalMoveError as e:
        return _why(position, e.reason, e.explanation)
    name = "the bar" if st.start == n + 1 else f"point {st.start}"
    where = "off" if st.end == 0 else f"point {st.end}"
    if not (1 <= st.start <= n + 1) or not (0 <= st.end <= n):
        return _why(position, "bad_point", f"There is no point {st.start if not 1 <= st.start <= n + 1 else st.end} "
                    f"on a {n}-point board.")
    if st.end >= st.start:
        return _why(position, "backwards", f"Checkers move from higher to lower numbers: {name} to {where} "
                    "goes the wrong way.")
    got = r.refusal(b, st.start, st.die)
    if got is not None and got[0].at == "source":
        return _refused(position, *got)
    dist = st.start - st.end
    if st.die not in d:
        comb = _combined(position, d, done, rests, st)
        if comb is not None:
            return comb
        return _why(position, "no_such_die", f"No die shows {st.die}; the roll is {d[0]}-{d[1]}.")
    if st.end > 0 and st.die != dist or st.end == 0 and st.die < dist:
        return _why(position, "no_such_die", f"Moving {name} to {where} needs a {dist}, not a {st.die}.")
    if not left:
        if maxlen == 0:
            return _why(position, "play_complete", "No move is possible with this roll.")
        return _why(position, "play_complete", "The play is complete: every die that can be played "
                    "has been played.")
    if st.die not in left:
        if 0 < maxlen <= len(done):  # a die already used, and the dice left cannot be played
            return _why(position, "play_complete", "The play is complete: every die that can be played "
                        "has been played.")
        if r.low_first and st.die in later:
            lo = left[0]
            if maxlen == 0 and not done:
                return _lower_die_lost(r, position, b, lo, st.die)
            return _why(position, "lower_die_first", f"The lower die, {lo}, must be played first.")
        if st.end != 0 or st.die == dist:
            return _why(position, "no_such_die", f"Moving {name} to {where} needs a {dist}, and no die "
                        f"left shows {dist} (dice left: {', '.join(map(str, left))}).")
        return _why(position, "no_such_die", f"No die left shows {st.die} (dice left: "
                    f"{', '.join(map(str, left))}).")
    if got is not None:
        return _refused(position, *got)
    options = _next_steps(r, b0, d, done, finals, maxlen)
    if any((o.start, o.end, o.die) == (st.start, st.end, st.die) for o in options):
        return Explanation("legal", f"{st.text(n)} is legal.")
    if len(done) >= maxlen:  # the single-step rules allow it, so only the play's length refuses it
        return _why(position, "play_complete", "No move is possible with this roll." if maxlen == 0 else
                    "The play is complete: every die that can be played has been played.")
    lo, hi = min(d), max(d)
    if lo != hi and maxlen == 1 and not r.low_first and st.die == lo:
        return _why(position, "larger_die", f"Only one die can be played, so it must be the larger one, {hi}.")
    if lo == hi:
        return _why(position, "use_all_moves", f"After this step fewer moves could be played: you must play "
                    f"as many of the four {lo}s as you can ({maxlen} here).")
    if r.low_first:
        return _why(position, "use_both_dice", f"After this {lo} the {hi} could not be played, but another "
                    f"{lo} lets both dice be played: you must use as much of the roll as you can.")
    return _why(position, "use_both_dice", "After this step the other die could not be played, but both "
                "dice can be used: a play must use both dice when it can.")


def check_step(position: Position, dice: Any, steps_so_far: Sequence[Any], step: Any, *,
               plays: PlayList | None = None) -> Step:
    """Return ``step`` as a :class:`Step` if legal next, else raise :class:`IllegalMoveError`.

    ``plays``: the legal plays of ``dice`` from ``position`` when the caller has them (no new search).
    """
    d = _dice(dice)
    options = legal_steps(position, d, steps_so_far) if plays is None else continuations(plays, steps_so_far)
    st = None
    try:
        st = coerce_step(position, step, dice_left=sorted({o.die for o in options}) or list(d))
    except IllegalMoveError:
        pass
    if st is not None:
        for o in options:
            if (o.start, o.end, o.die) == (st.start, st.end, st.die):
                return o
    why = explain_step(position, d, steps_so_far, step)
    raise IllegalMoveError(f"{show(step)} cannot be played with {d[0]}-{d[1]}: {why.message}", why.code, why.message)


# ---------------------------------------------------------------------------------------------
# The steps of a turn, read from its legal plays (no new search: the turn engine asks these once
# per click)


def _finals(plays: PlayList) -> Mapping[Board, object]:
    got = plays._finals
    if got is None:
        if plays._boards is not None:
            got = plays._boards
        else:
            got = {}
            for p in plays:
                src = p._src
                got[src[2] if src is not None else p.position.board()] = True
        plays._finals = got
    return got


def continuations(plays: PlayList, steps_so_far: Sequence[Any] = ()) -> list[Step]:
    """The single steps that continue a legal play of ``plays`` after the legal ``steps_so_far``.

    The same answer as :func:`legal_steps`, read from the plays already found (memoised on
    ``plays``): the turn engine calls it on every click without searching the plays again.
    ``steps_so_far`` must be a legal beginning (as the engine guarantees).
    """
    pos = plays.position
    done = _normalize_steps(pos, steps_so_far)
    key = tuple((s.start, s.end, s.die) for s in done)
    memo = plays._next
    got = memo.get(key)
    if got is None:
        r = _rules(pos.variant)
        got = memo[key] = _next_steps(r, pos.board(), plays.dice, done, _finals(plays), plays.length)
    return list(got)


def explain_steps(plays: PlayList, steps: Sequence[Any], *, complete: bool = True) -> Explanation | None:
    """Why ``steps`` (from the start of the turn) are not a legal play of ``plays``, or None.

    The first step that no legal play continues with is explained by :func:`explain_step` (the true
    rule: a blocked point, the cap, lower die first, the turn lost ...); with ``complete``, legal
    steps that leave dice to play are refused with the rule that asks for as much of the roll as can
    be played, naming a step that can still be played.
    """
    pos = plays.position
    n = pos.variant.points
    done: list[Step] = []
    for raw in _normalize_input(pos, steps):
        options = continuations(plays, done)
        try:
            st = coerce_step(pos, raw, dice_left=sorted({o.die for o in options}) or list(plays.dice))
        except IllegalMoveError as e:
            return _why(pos, e.reason, e.explanation)
        match = next((o for o in options if (o.start, o.end, o.die) == (st.start, st.end, st.die)), None)
        if match is None:
            why = explain_step(pos, plays.dice, done, raw)
            if why.legal:  # pragma: no cover - explain_step and continuations agree
                why = Explanation("illegal", f"{st.text(n)} cannot be played now.")
            return why
        done.append(match)
    if complete:
        options = continuations(plays, done)
        if options:
            a, b = plays.dice
            more = plays.length - len(done)
            dice = sorted({o.die for o in options})
            example = " or ".join(o.text(n) for o in options[:2])
            if a == b:
                return _why(pos, "use_all_moves", f"The play is not complete: {more} more of the {a}s can be "
                            f"played (for example {example}), and as many of the four moves as possible must "
                            "be played.")
            return _why(pos, "use_both_dice", f"The play is not complete: the {dice[0]} can still be played "
                        f"(for example {example}), and a play must use as much of the roll as it can.")
    return None


def _normalize_input(position: Position, steps: Any) -> list[Any]:
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
        raise IllegalMoveError(f"steps must be a list of steps, not {show(steps)}", "bad_step",
                               f"Steps are a list of steps, not {show(steps)}.")
    return list(steps)


def explain_play(position: Position, dice: Any, steps: Sequence[Any]) -> Explanation:
    """Why the list of ``steps`` (a whole turn's play) is or is not legal, naming the true rule.

    The first step no legal play continues with is explained as :func:`explain_step` does; a legal
    beginning that leaves dice to play is refused with ``use_both_dice``/``use_all_moves``, naming
    a step that can still be played. A legal play gives the code ``legal``.
    """
    plays = legal_plays(position, dice)
    why = explain_steps(plays, steps)
    if why is None:
        return Explanation("legal", "The play is legal.")
    return why


# ---------------------------------------------------------------------------------------------
# Reading a play from move text


def parse_play(position: Position, dice: Any, text: str) -> Play:
    """The legal :class:`~backgammon_lab.position.Play` that move text stands for.

    Segments may be single steps or combined moves (``24/13`` with 6-5; the intermediate point must
    be legal as a step). Raises :class:`IllegalMoveError` (with the engine's explanation) or
    :class:`~backgammon_lab.errors.AmbiguousMoveError`. The search is bounded: text asking for more
    moves than the roll gives is refused before any search, and each state of the search (board,
    dice used, segments left) is visited once.
    """
    return _parse_play(legal_plays(position, dice), text)


def _parse_play(plays: PlayList, text: str) -> Play:
    position, d = plays.position, plays.dice
    n = position.variant.points
    r = _rules(position.variant)
    segs = parse_steps(text, n)
    most = 4 if d[0] == d[1] else 2
    shown = repr(text) if len(text) <= 200 else repr(text[:120] + " ... ")
    if len(segs) > most:
        msg = (f"the move has {len(segs)} steps, but a roll of {d[0]}-{d[1]} gives at most {most} moves")
        raise IllegalMoveError(f"illegal move {shown} with {d[0]}-{d[1]}: {msg}", "too_many_steps", msg)
    b0 = position.board()
    finals = _finals(plays)
    maxlen = plays.length
    results: dict[Board, list[Step]] = {}
    short: list[list[Step]] = []
    fail: list[tuple[list[Step], tuple[int, int], list[Step], tuple[int, int]]] = []
    seen: set[tuple[Board, tuple[int, ...], tuple[tuple[int, int, int, int], ...]]] = set()

    # A segment left to play: (where the checker is now, its target, where the segment began, how
    # many steps had been played when it began).
    def rec(b: Board, done: list[Step], left: list[tuple[int, int, int, int]]) -> None:
        key = (b, tuple(s.die for s in done), tuple(sorted(left)))
        if key in seen:
            return
        seen.add(key)
        if not left:
            if len(done) == maxlen:
                results.setdefault(b, list(done))
            elif not short:
                short.append(list(done))
            return
        options = _next_steps(r, b0, d, done, finals, maxlen)
        progressed = False
        for i, (a, z, a0, k0) in enumerate(left):
            for o in options:
                if o.start != a or o.end < z or (o.end == 0 and z != 0):
                    continue
                rest = left[:i] + left[i + 1:]
                if o.end != z:
                    rest = rest + [(o.end, z, a0, k0 if k0 >= 0 else len(done))]
                progressed = True
                nb, _ = _apply(b, o.start, o.end, n)
                rec(nb, done + [o], rest)
        if not progressed and not fail:
            a, z, a0, k0 = left[0]
            fail.append((done[:k0] if k0 >= 0 else list(done), (a0, z), list(done), (a, z)))

    rec(b0, [], [(a, z, a, -1) for a, z in segs])
    if len(results) == 1:
        target = next(iter(results))
        boards = plays._boards
        if boards is not None:
            return plays[list(boards).index(target)]  # type: ignore[no-any-return]
        for p in plays:
            if p.position.board() == target:
                return p
    if len(results) > 1:
        raise AmbiguousMoveError(f"move {shown} with {d[0]}-{d[1]} matches {len(results)} different plays; "
                                 "write each step", "ambiguous", "The move text matches several plays.")
    if fail:
        before, (a0, z), now, (a, z) = fail[0]
        # The segment as written, judged where it began (the true reason for '6/off' when the 1
        # must come first); if that step alone is fine, the place where it got stuck.
        why = explain_step(position, d, before, (a0, z))
        if why.legal or why.code == "combined":
            why = explain_step(position, d, now, (a, z))
            if why.legal or why.code == "combined":
                msg = f"{Step(a0, z, 0).text(n)} cannot be played as one move with {d[0]}-{d[1]}"
                raise IllegalMoveError(f"illegal move {shown}: {msg}", "illegal", msg)
        raise IllegalMoveError(f"illegal move {shown} with {d[0]}-{d[1]}: {why.message}", why.code, why.message)
    done = short[0] if short else []
    why2 = explain_steps(plays, done)
    if why2 is None:  # pragma: no cover - a complete legal play is found above
        why2 = Explanation("use_both_dice", "the play is not complete")
    raise IllegalMoveError(f"illegal move {shown} with {d[0]}-{d[1]}: {why2.message}", why2.code, why2.message)


_position._GENERATOR = legal_plays  # Position.legal_plays (positions cannot import the rules)
