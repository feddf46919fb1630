"""Legal plays, legal steps and explanations of illegal steps, for every variant.

The generator works on the mover's-eye board tuple of :meth:`Position.board`:
``(off, p1, ..., pN, bar, opponent_bar)``, the mover's checkers positive. Tuples are cheap to copy,
hash and compare, so a full turn is a depth-first search with a seen-set and plays are
deduplicated by the board they lead to.

The forced-move rules come from the variant's facts:

* use as many dice as possible (standard, Mini-Gam G5, Mexican M4, M7);
* when only one of two different dice can be played, the larger (standard, G5);
* ``low_die_first``: the lower die first, and no move at all when it cannot be played (M3);
* ``bar_first``: the bar empties before other moves; each die in turn must enter (M9);
* ``stacking_cap``: no sixth checker on a point (M6);
* ``exact_bear_off``: a checker on point p bears off only with a p (M10); otherwise a larger
  die bears off from the highest occupied point (standard, G6).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from .errors import IllegalMoveError
from .position import Play, Position, Roll, Step

__all__ = [
    "legal_plays",
    "legal_steps",
    "legal_boards",
    "explain_step",
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


class _Rules:
    """The facts of a variant unpacked into locals the inner loops read fast."""

    __slots__ = ("n", "home", "cap", "exact", "bar_first", "low_first", "variant", "sources", "sources_bar")

    def __init__(self, variant: Any) -> None:
        self.variant = variant
        self.n = variant.points
        self.home = variant.home
        self.cap = variant.stacking_cap
        self.exact = variant.exact_bear_off
        self.bar_first = variant.bar_first
        self.low_first = variant.low_die_first
        self.sources = tuple(range(self.n, 0, -1))
        self.sources_bar = (self.n + 1, *self.sources)

    def outside(self, b: Board) -> int:
        """The mover's checkers on points above the home board (the bar not counted)."""
        return sum(x for x in b[self.home + 1:self.n + 1] if x > 0)

    def steps(self, b: Board, d: int) -> list[tuple[int, int, Board, bool]]:
        """Every single step with die ``d`` from board ``b``: (start, end, new board, hit).

        The few lines that move a checker on a list copy of the board are written out here and in
        :func:`_two_orders_midgame` instead of calling :func:`_apply`: this is the innermost loop
        of every search, and the call costs more than the lines.
        """
        n = self.n
        bar = n + 1
        cap = self.cap if self.cap is not None else 99
        out = []
        if b[bar] > 0:
            if self.bar_first:
                t = bar - d
                x = b[t]
                if x >= -1 and x < cap:
                    lst = list(b)
                    lst[bar] -= 1
                    if x == -1:
                        lst[t] = 1
                        lst[bar + 1] += 1
                    else:
                        lst[t] = x + 1
                    out.append((bar, t, tuple(lst), x == -1))
                return out
            srcs = [s for s in self.sources_bar if b[s] > 0]
        else:
            srcs = [s for s in self.sources if b[s] > 0]
        if not srcs:
            return out
        can_off = srcs[0] <= self.home
        hi = srcs[0]
        exact = self.exact
        for s in srcs:
            t = s - d
            if t > 0:
                x = b[t]
                if x >= -1 and x < cap:
                    lst = list(b)
                    lst[s] -= 1
                    if x == -1:
                        lst[t] = 1
                        lst[bar + 1] += 1
                    else:
                        lst[t] = x + 1
                    out.append((s, t, tuple(lst), x == -1))
            elif can_off and (t == 0 or (s == hi and not exact)):
                lst = list(b)
                lst[s] -= 1
                lst[0] += 1
                out.append((s, 0, tuple(lst), False))
        return out


_RULES_CACHE: dict[Any, _Rules] = {}


def _rules(variant: Any) -> _Rules:
    r = _RULES_CACHE.get(variant)
    if r is None:
        r = _RULES_CACHE[variant] = _Rules(variant)
    return r


def _orders(r: _Rules, dice: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    return r.variant.dice_orders(dice)


def _search(r: _Rules, b: Board, dice: tuple[int, int]) -> tuple[dict[Board, list[RawStep]], int]:
    """All boards reachable using as many dice as possible, with one path to each.

    Two dice: two nested loops per die order. Doubles: a depth-first search; without a stacking
    cap the steps are taken with non-increasing start points (any legal order of same-die steps
    can be rearranged that way, so nothing is lost and each set of steps is tried once); with a cap
    that rearrangement can break the cap, so a seen-set prunes repeated boards instead.
    """
    steps = r.steps
    a, c = dice
    if a != c:
        orders = r.variant.dice_orders(dice)  # the variant's hook: both orders, or lower first
        two: dict[Board, list[RawStep]] = {}
        one: dict[Board, list[RawStep]] = {}
        if len(orders) == 2 and r.cap is None and b[r.n + 1] == 0 and r.outside(b) >= 2:
            found = _two_orders_midgame(r, b, orders, two)
            if found:
                return two, 2
            two.clear()
        for d1, d2 in orders:
            for s, t, nb, hit in steps(b, d1):
                nxt = steps(nb, d2)
                if nxt:
                    for s2, t2, nb2, hit2 in nxt:
                        if nb2 not in two:
                            two[nb2] = [(s, t, d1, hit), (s2, t2, d2, hit2)]
                elif not two and nb not in one:
                    one[nb] = [(s, t, d1, hit)]
        if two:
            return two, 2
        if one:
            return one, 1
        return {b: []}, 0
    return _search_doubles(r, b, a)


def _two_orders_midgame(r: _Rules, b: Board, orders: tuple[tuple[int, ...], ...],
                        two: dict[Board, list[RawStep]]) -> bool:
    """Both die orders of a non-double without a stacking cap, with the bar empty and at least two
    checkers outside the home board (so no step of the turn can bear off).

    There a step never opens or closes a point for another step (only the opponent's checkers
    block, and a hit removes a blot, which blocks nothing), bar-first and bear-off cannot come into
    it, so the plays are: a step of one die from the board combined with a step of the other die
    from the same board (in either order, the same result), when the second still finds a checker
    on its start point; and one checker moving twice, through either intermediate point. Each
    single-die step list is computed once. Returns False when no play uses both dice (the caller
    then runs the general search, which also finds the one-die plays).
    """
    steps = r.steps
    n = r.n
    opp_bar = n + 2
    d1, d2 = orders[0]
    first = steps(b, d1)
    second = steps(b, d2)
    for s, t, nb, hit in first:
        for s2, t2, _nb2, _h2 in second:
            if nb[s2] <= 0:
                continue  # the first step took the only checker on that point
            lst = list(nb)
            lst[s2] -= 1
            x = lst[t2]
            if x == -1:
                lst[t2] = 1
                lst[opp_bar] += 1
            else:
                lst[t2] = x + 1
            key = tuple(lst)
            if key not in two:
                two[key] = [(s, t, d1, hit), (s2, t2, d2, x == -1)]
    # One checker moving twice: the second step starts where the first ended.
    for e1, e2, singles in ((d1, d2, first), (d2, d1, second)):
        for s, t, nb, hit in singles:
            t2 = t - e2
            if t2 > 0:
                x = nb[t2]
                if x >= -1:
                    lst = list(nb)
                    lst[t] -= 1
                    if x == -1:
                        lst[t2] = 1
                        lst[opp_bar] += 1
                    else:
                        lst[t2] = x + 1
                    key = tuple(lst)
                    if key not in two:
                        two[key] = [(s, t, e1, hit), (t, t2, e2, x == -1)]
    return bool(two)


def _search_doubles(r: _Rules, b: Board, d: int) -> tuple[dict[Board, list[RawStep]], int]:
    best: dict[Board, list[RawStep]] = {}
    maxlen = 0
    steps = r.steps
    capped = r.cap is not None
    seen: set[tuple[Board, int]] = set()

    def rec(b: Board, left: int, top: int, path: list[RawStep]) -> None:
        nonlocal maxlen
        if left:
            moved = False
            for s, t, nb, hit in steps(b, d):
                if capped:
                    key = (nb, left)
                    if key in seen:
                        continue
                    seen.add(key)
                elif s > top:
                    continue
                moved = True
                path.append((s, t, d, hit))
                rec(nb, left - 1, s, path)
                path.pop()
            if moved:
                return
            if not capped and steps(b, d):
                return  # only steps out of order remain: this order is explored elsewhere
        depth = len(path)
        if depth > maxlen:
            maxlen = depth
            best.clear()
        if depth == maxlen and b not in best:
            best[b] = list(path)

    rec(b, 4, r.n + 1, [])
    return best, maxlen


def _legal(r: _Rules, b: Board, dice: tuple[int, int]) -> tuple[dict[Board, list[RawStep]], int]:
    """The legal full plays of ``dice`` from ``b``, keyed by resulting board, and their length."""
    best, maxlen = _search(r, b, dice)
    lo, hi = min(dice), max(dice)
    if maxlen == 1 and lo != hi and not r.low_first:
        # Only one die can be played: the larger one when it can (standard, G5).
        big = r.steps(b, hi)
        if big:
            best = {nb: [(s, t, hi, hit)] for s, t, nb, hit in big}
    return best, maxlen


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

    def __init__(self, position: Position, dice: tuple[int, int], plays: list[Play], length: int) -> None:
        self.position = position
        self.dice = dice
        self._plays = plays
        self.length = length  # steps in every legal play
        self._finals: dict[Board, bool] | None = None  # resulting boards (for continuations)
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
        from .notation import parse_play

        return parse_play(self.position, self.dice, text)

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
    return PlayList(position, d, plays, maxlen)


def _normalize_steps(position: Position, steps: Iterable[Any]) -> list[Step]:
    from .notation import coerce_step

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
                finals: dict[Board, list[RawStep]], maxlen: int) -> list[Step]:
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
               finals: dict[Board, list[RawStep]]) -> bool:
    """Can ``need`` more steps with the dice ``rest`` (any order allowed by the variant) end in finals?"""
    if need == 0:
        return b in finals
    orders = {rest} if r.low_first or len(set(rest)) == 1 else set(permutations(rest))
    for order in orders:
        if _completes_order(r, b, order, need, finals):
            return True
    return False


def _completes_order(r: _Rules, b: Board, order: tuple[int, ...], need: int,
                     finals: dict[Board, list[RawStep]]) -> bool:
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
            raise IllegalMoveError(f"steps {list(steps)!r} are not a legal beginning of a play of "
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
    "lower_die_first": "Mexican: the lower die is played first",
    "bar_first": "checkers on the bar enter before any other move",
    "blocked": "the point is held by two or more opposing checkers",
    "stack_cap": "Mexican: no sixth checker on a point",
    "bar_not_empty": "Mini-Gam: no bearing off while a checker is on the bar",
    "not_home": "bearing off needs every checker in the home board",
    "bear_off_exact": "Mexican: checkers are borne off exactly",
    "bear_off_higher": "a larger die bears off only from the highest occupied point",
    "larger_die": "when only one die can be played, it must be the larger",
    "use_both_dice": "a play must use both dice when it can",
    "use_all_moves": "doubles: as many of the four moves as possible must be played",
    "bad_point": "the point does not exist",
}


@dataclass(frozen=True)
class Explanation:
    """Why a step is (not) legal: a reason ``code`` (a key of :data:`REASONS`) and a sentence."""

    code: str
    message: str

    @property
    def legal(self) -> bool:
        """True when the step is legal."""
        return self.code == "legal"

    def __str__(self) -> str:
        return self.message


def explain_step(position: Position, dice: Any, steps_so_far: Sequence[Any], step: Any) -> Explanation:
    """Explain whether ``step`` may be played next, after the legal ``steps_so_far``.

    ``step`` is a :class:`Step`, a ``(start, end)`` pair in the mover's numbering (bar = N+1,
    off = 0) or text like ``"bar/22"``. The die is inferred when not given.
    """
    from .notation import coerce_step

    d = _dice(dice)
    r = _rules(position.variant)
    v = position.variant
    n = r.n
    done = _normalize_steps(position, steps_so_far)
    b0 = position.board()
    finals, maxlen = _legal(r, b0, d)
    b, used = _walk(r, b0, d, done)
    rests = _remaining(r, d, used) or ()
    # With no legal move at all (maxlen 0) the step is still judged against the first dice, so the
    # explanation names the rule that blocks it (blocked point, five-checker cap, ...).
    left = sorted({rest[0] for rest in rests if rest}) if len(done) < maxlen or not (maxlen or done) else []
    try:
        st = coerce_step(position, step, dice_left=left or list(d))
    except IllegalMoveError as e:
        return Explanation(e.reason, e.explanation)
    name = "the bar" if st.start == n + 1 else f"point {st.start}"
    where = "off" if st.end == 0 else f"point {st.end}"
    if not (1 <= st.start <= n + 1) or not (0 <= st.end <= n):
        return Explanation("bad_point", f"There is no point {st.start if not 1 <= st.start <= n + 1 else st.end} "
                           f"on a {n}-point board.")
    if st.end >= st.start:
        return Explanation("backwards", f"Checkers move from higher to lower numbers: {name} to {where} "
                           "goes the wrong way.")
    if b[st.start] <= 0:
        return Explanation("no_checker", f"You have no checker on {name}.")
    if not left:
        if len(done) >= maxlen and maxlen > 0:
            return Explanation("play_complete", "The play is complete: every die that can be played "
                               "has been played.")
        return Explanation("play_complete", "No move is possible with this roll.")
    dist = st.start - st.end
    if st.die not in d:
        return Explanation("no_such_die", f"No die shows {st.die}; the roll is {d[0]}-{d[1]}.")
    if st.die not in left:
        if r.low_first and st.die in [x for rest in rests for x in rest]:
            return Explanation("lower_die_first", f"The lower die, {left[0]}, must be played first. "
                               "Rule: \"You must move the lower number first.\"")
        if st.end != 0 or st.die == dist:
            return Explanation("no_such_die", f"Moving {name} to {where} needs a {dist}, and no die "
                               f"left shows {dist} (dice left: {', '.join(map(str, left))}).")
        return Explanation("no_such_die", f"No die left shows {st.die} (dice left: "
                           f"{', '.join(map(str, left))}).")
    if r.bar_first and b[n + 1] > 0 and st.start != n + 1:
        return Explanation("bar_first", "You have a checker on the bar: it must enter before any other "
                           "checker moves.")
    if st.end > 0:
        x = b[st.end]
        if x <= -2:
            return Explanation("blocked", f"Point {st.end} is held by {-x} opposing checkers: a checker may "
                               "land only on an open point.")
        if r.cap is not None and x >= r.cap:
            return Explanation("stack_cap", f"Point {st.end} already holds {x} of your checkers: "
                               f"{v.title} allows no more than {r.cap} on a point.")
    else:
        if b[n + 1] > 0:
            return Explanation("bar_not_empty", "You may not bear off while a checker of yours is on "
                               "the bar.")
        outside = [p for p in range(r.home + 1, n + 1) if b[p] > 0]
        if outside:
            return Explanation("not_home", f"You may bear off only when all your checkers are in your "
                               f"home board (points 1-{r.home}); point {outside[-1]} still has one.")
        if st.die != st.start:
            if r.exact:
                return Explanation("bear_off_exact", f"Checkers must be borne off exactly: a checker on "
                                   f"point {st.start} needs a {st.start}, not a {st.die}.")
            higher = [p for p in range(st.start + 1, r.home + 1) if b[p] > 0]
            if st.die < st.start:
                return Explanation("no_such_die", f"A {st.die} cannot bear off a checker from point {st.start}.")
            if higher:
                return Explanation("bear_off_higher", f"A {st.die} bears off from point {st.start} only when "
                                   f"no checker stands higher; point {higher[-1]} has one.")
    options = _next_steps(r, b0, d, done, finals, maxlen)
    if st in options or any((o.start, o.end, o.die) == (st.start, st.end, st.die) for o in options):
        return Explanation("legal", f"{st.text(n)} is legal.")
    if maxlen == 0:
        return Explanation("play_complete", "No move is possible with this roll.")
    lo, hi = min(d), max(d)
    if lo != hi and maxlen == 1 and not r.low_first and st.die == lo:
        return Explanation("larger_die", f"Only one die can be played, so it must be the larger one, {hi}.")
    if lo == hi:
        return Explanation("use_all_moves", f"After this step fewer moves could be played: you must play "
                           f"as many of the four {lo}s as you can ({maxlen} here).")
    if r.low_first:
        return Explanation("use_both_dice", f"After this {lo} the {hi} could not be played, but another "
                           f"{lo} lets both dice be played: you must use as much of the roll as you can.")
    return Explanation("use_both_dice", "After this step the other die could not be played, but both "
                       "dice can be used: a play must use both dice when it can.")


def check_step(position: Position, dice: Any, steps_so_far: Sequence[Any], step: Any, *,
               plays: PlayList | None = None) -> Step:
    """Return ``step`` as a :class:`Step` if legal next, else raise :class:`IllegalMoveError`.

    ``plays``: the legal plays of ``dice`` from ``position`` when the caller has them (no new search).
    """
    from .notation import coerce_step

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
    raise IllegalMoveError(f"{step!r} cannot be played with {d[0]}-{d[1]}: {why.message}", why.code, why.message)


# ---------------------------------------------------------------------------------------------
# The steps of a turn, read from its legal plays (no new search: the turn engine asks these once
# per click)


def _finals(plays: PlayList) -> dict[Board, bool]:
    got = plays._finals
    if got is None:
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

    The first step that no legal play continues with is explained by :func:`explain_step`; with
    ``complete``, legal steps that leave dice to play are refused with the rule that asks for as
    much of the roll as can be played.
    """
    from .notation import coerce_step

    pos = plays.position
    done: list[Step] = []
    for raw in steps:
        options = continuations(plays, done)
        try:
            st = coerce_step(pos, raw, dice_left=sorted({o.die for o in options}) or list(plays.dice))
        except IllegalMoveError as e:
            return Explanation(e.reason, e.explanation)
        match = next((o for o in options if (o.start, o.end, o.die) == (st.start, st.end, st.die)), None)
        if match is None:
            why = explain_step(pos, plays.dice, done, raw)
            if why.legal:  # pragma: no cover - explain_step and continuations agree
                why = Explanation("illegal", f"{st.text(pos.variant.points)} cannot be played now.")
            return why
        done.append(match)
    if complete and continuations(plays, done):
        a, b = plays.dice
        more = plays.length - len(done)
        if a == b:
            return Explanation("use_all_moves", f"The play is not complete: {more} more of the {a}s can be "
                               f"played, and as many of the four moves as possible must be played.")
        return Explanation("use_both_dice", "The play is not complete: the other die can still be played, and "
                           "a play must use both dice when it can.")
    return None
