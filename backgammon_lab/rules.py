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

import struct
import threading
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from .errors import AmbiguousMoveError, IllegalMoveError, VariantError, show
from .kernels import move_kernel
from .moves import coerce_step, parse_steps
from .position import OFF, Play, Position, Roll, Step, place_text
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
    "PlayNode",
    "Explanation",
    "REASONS",
]

Board = tuple[int, ...]
RawStep = tuple[int, int, int, bool]  # start, end, die, hit


class _Rules:
    """The facts of a variant unpacked into locals the inner loops read fast, and its single-step
    rules and whole-turn search: the compiled kernel (:func:`backgammon_lab.kernels.move_kernel`),
    whose boards and steps are converted here into tuples. The rules themselves are the kernel's
    (:mod:`backgammon_lab.kernels.movegen`): the step generator and the judge that names the rule
    refusing a step call the same functions."""

    __slots__ = ("n", "bar", "home", "cap", "exact", "bar_first", "low_first", "variant", "checks",
                 "orders", "_kernel", "_ws", "_rows")

    def __init__(self, variant: Any) -> None:
        self.variant = variant
        self.n = variant.points
        self.bar = variant.bar
        self.home = variant.home
        self.cap = variant.stacking_cap
        self.exact = variant.exact_bear_off
        self.bar_first = variant.bar_first
        self.low_first = variant.low_die_first
        self.checks: tuple[StepCheck, ...] = tuple(variant.step_checks())
        self.orders = {(a, b): variant.dice_orders((a, b)) for a in range(1, 7) for b in range(1, 7)}
        self._kernel: Any = None  # the variant's bound kernel, made on the first use
        self._ws: Any = None
        self._rows = struct.Struct(f"{self.bar + 2}b")  # one int8 board row of the kernel -> a tuple

    def _k(self) -> Any:
        k = self._kernel
        if k is None:
            try:
                k = move_kernel(self.variant)
            except ValueError as e:  # a step table or dice orders the kernel cannot play
                raise VariantError(str(e)) from None
            self._kernel = k
            self._ws = threading.local()
        return k

    def _buffers(self) -> Any:
        ws = getattr(self._ws, "buffers", None)
        if ws is None:  # the search's buffers, one set per thread (the kernel releases the GIL)
            k = self._kernel
            np = k.np
            ws = self._ws.buffers = (k.workspace(), np.zeros(16, np.int64), np.zeros(16, np.int64),
                                     np.zeros(16, np.int64), np.zeros((16, k.width), np.int8))
        return ws

    def _row(self, b: Board) -> Any:
        return self._kernel.np.frombuffer(bytearray(self._rows.pack(*b)), self._kernel.np.int8)  # writable int8

    def _run(self, b: Board, dice: tuple[int, int]) -> tuple[Any, int, int]:
        """Run the kernel's whole-turn search on ``b``: this thread's buffers, the number of plays
        found and their length (dice used)."""
        k = self._k()
        ws = self._buffers()[0]
        cnt, length = k.search(self._row(b), dice[0], dice[1], *ws)
        return ws, cnt, length

    def steps(self, b: Board, d: int) -> list[tuple[int, int, Board, bool]]:
        """The single steps of die ``d`` from ``b``: ``(start, end, next board, hit)``, start
        points from the highest down (the kernel's step generator, converted at this edge)."""
        k = self._k()
        _ws, ss, ts, hs, out = self._buffers()
        n = k.step_boards(self._row(b), d, ss, ts, hs, out)
        if not n:
            return []
        boards = self._rows.iter_unpack(out[:n].tobytes())
        return [(int(s), int(t), nb, h == 1) for s, t, h, nb in zip(ss[:n].tolist(), ts[:n].tolist(),
                                                                     hs[:n].tolist(), boards, strict=True)]

    def judge(self, b: Board, s: int, d: int) -> tuple[int, int, int | None, int] | None:
        """The kernel's judge of one step: ``(i, t, x, hi)`` for the ``i``-th rule of the table
        refusing it (``x`` None for a bear-off), None when the step is allowed."""
        i, t, x, hi = self._k().judge(self._row(b), s, d)
        if i < 0:
            return None
        return int(i), int(t), (int(x) if t > 0 else None), int(hi)

    def search(self, b: Board, dice: tuple[int, int]) -> tuple[dict[Board, list[RawStep]], int]:
        """The legal full plays of ``dice`` from ``b`` keyed by resulting board (in the order the
        search first reaches them), one path each, and their length: the kernel's whole-turn search,
        converted at this edge."""
        ws, cnt, length = self._run(b, dice)
        boards = self._rows.iter_unpack(ws[0][:cnt].tobytes())
        if not length:
            return {next(boards): []}, 0
        paths = ws[1][:cnt, :length].tolist()
        return {bd: [(s, t, d, h == 1) for s, t, d, h in path] for bd, path in zip(boards, paths, strict=True)}, length

    def ends(self, b: Board, dice: tuple[int, int]) -> list[Board]:
        """The distinct boards the legal plays of ``dice`` reach from ``b``, in the search's order
        (``[b]`` when no move is possible): the search's boards alone, no paths converted."""
        ws, cnt, _ = self._run(b, dice)
        return list(self._rows.iter_unpack(ws[0][:cnt].tobytes()))

    def refusal(self, b: Board, s: int, d: int) -> tuple[StepCheck, dict[str, Any]] | None:
        """The first single-step rule that refuses moving from ``s`` with ``d`` on ``b``, with the
        values its sentence is written with; None when the step is allowed."""
        j = self.judge(b, s, d)
        if j is None:
            return None
        i, t, x, hi = j
        words = {"s": s, "t": t, "d": d, "x": x, "hi": hi, "held": -x if x is not None else 0,
                 "CAP": self.cap, "HOME": self.home, "BAR": self.bar,
                 "start": "the bar" if s == self.bar else f"point {s}",
                 "end": "off" if t <= 0 else f"point {t}"}
        return self.checks[i], words


_RULES_CACHE: dict[Any, _Rules] = {}


_LAST: tuple[Any, Any] = (None, None)  # the variant last asked for and its rules (hashing a variant is slow)


def _rules(variant: Any) -> _Rules:
    global _LAST
    last = _LAST  # one read: another thread may replace the pair, never half of it
    if last[0] is variant:
        return last[1]  # type: ignore[no-any-return]
    r = _RULES_CACHE.get(variant)
    if r is None:
        r = _RULES_CACHE[variant] = _Rules(variant)
    _LAST = (variant, r)
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
    if type(dice) is tuple and len(dice) == 2:  # the common call, two ints: no Roll built
        a, b = dice
        if type(a) is int and type(b) is int and 1 <= a <= 6 and 1 <= b <= 6:
            return dice
    return Roll.parse(dice).dice


def legal_boards(position: Position, dice: Any) -> list[Board]:
    """The fast path for search and analysis: the distinct mover's-eye boards
    (:meth:`Position.board`) that the legal plays of ``dice`` reach, one per play, in the order the
    search reaches them; ``[position.board()]`` when no move is possible. No objects are built
    beyond the board tuples; the plays themselves, with their steps and notation, are
    :func:`legal_plays` (the one owner of a roll's plays).

    >>> from backgammon_lab import Position
    >>> len(legal_boards(Position.start("standard"), "3-1"))
    16
    """
    return _rules(position.variant).ends(position.board(), _dice(dice))


class PlayNode:
    """One node of a roll's play tree: the board after ``depth`` steps of some legal play, and the
    steps that continue a legal play from it (each to its own node).

    Nodes are shared: steps played in another order that reach the same board with the same dice
    left reach the same node. Built lazily from the search's plays (a node's steps are found the
    first time they are asked for); every question about the roll once the dice are known (what
    may come next, is this step legal, why not, where does it lead, which plays are still open) is
    a lookup on a node. Get nodes from :meth:`PlayList.after` or :attr:`PlayList.root`.
    """

    __slots__ = ("tree", "board", "rests", "depth", "_next", "_position", "_ends", "__weakref__")

    def __init__(self, tree: PlayList, board: Board, rests: tuple[tuple[int, ...], ...], depth: int) -> None:
        self.tree = tree
        self.board = board  #: the mover's-eye board (:meth:`Position.board`)
        self.rests = rests  # the orders in which the dice left may still be played
        self.depth = depth  #: steps played to reach this node
        self._next: dict[tuple[int, int, int], tuple[Step, PlayNode]] | None = None
        self._position: Position | None = None
        self._ends: frozenset[Board] | None = None

    def _children(self) -> dict[tuple[int, int, int], tuple[Step, PlayNode]]:
        got = self._next
        if got is None:
            got = self._next = self.tree._expand(self)
        return got

    @property
    def position(self) -> Position:
        """The position at this node (the side to move unchanged)."""
        got = self._position
        if got is None:
            got = self._position = self.tree._position_of(self.board)
        return got

    @property
    def complete(self) -> bool:
        """True when no step may follow: the steps to here make a whole legal play."""
        return self.depth >= self.tree.length

    @property
    def dice_left(self) -> tuple[int, ...]:
        """The dice not yet played, lowest first (all of them when no move is possible)."""
        return tuple(sorted(self.rests[0])) if self.rests else ()

    def next_steps(self) -> list[Step]:
        """The single steps that continue a legal play from here (empty once the play is complete)."""
        return [s for s, _ in self._children().values()]

    def take(self, step: Any) -> tuple[Step, PlayNode]:
        """The legal step that ``step`` (a :class:`Step`, ``(start, end[, die])`` or ``"13/7"``) stands
        for, and the node it leads to; :class:`IllegalMoveError` with the reason when it is refused."""
        got = self._match(step)
        if got is None:
            d = self.tree.dice
            why = self.explain(step)
            raise IllegalMoveError(f"{show(step)} cannot be played with {d[0]}-{d[1]}: {why.message}",
                                   why.code, why.message)
        return got

    def _match(self, step: Any) -> tuple[Step, PlayNode] | None:
        ch = self._children()
        if type(step) is Step:
            got = ch.get((step.start, step.end, step.die))
            if got is not None:
                return got
        try:
            st = coerce_step(self.tree.position, step, dice_left=sorted({k[2] for k in ch}) or list(self.tree.dice))
        except IllegalMoveError:
            return None
        return ch.get((st.start, st.end, st.die))

    def ends(self) -> frozenset[Board]:
        """The boards of the whole plays this node can still lead to."""
        got = self._ends
        if got is None:
            if self.complete:
                got = frozenset((self.board,))
            else:
                got = frozenset().union(*(node.ends() for _s, node in self._children().values()))
            self._ends = got
        return got

    def completions(self) -> list[Play]:
        """The legal plays this node can still lead to, in the order of the roll's plays."""
        if self.depth == 0:
            return list(self.tree)
        ends = self.ends()
        return [p for b, p in zip(self.tree._boards, self.tree, strict=True) if b in ends]

    def explain(self, step: Any) -> Explanation:
        """Whether ``step`` may be played next from this node, and why not, naming the true rule.

        A single-step rule (blocked point, cap, bar first, bear-off) is reported by the same check
        that keeps the step out of the plays (the variant's
        :meth:`~backgammon_lab.variants.Variant.step_checks`); the rules of the whole play (lower die
        first, use as much of the roll as possible, the larger die) are read from the tree. No new
        search.
        """
        tree = self.tree
        position, r, d, maxlen = tree.position, tree._r, tree.dice, tree.length
        n = r.n
        b, rests, depth = self.board, self.rests, self.depth
        left = sorted({rest[0] for rest in rests if rest})
        later = {x for rest in rests for x in rest[1:]}
        try:
            st = coerce_step(position, step, dice_left=left or list(d))
        except IllegalMoveError as e:
            return _why(position, e.reason, e.explanation)
        name = "the bar" if st.start == r.bar else f"point {st.start}"
        where = "off" if st.end == OFF else f"point {st.end}"
        if not (1 <= st.start <= r.bar) or not (OFF <= st.end <= n):
            return _why(position, "bad_point", f"There is no point {st.start if not 1 <= st.start <= r.bar else st.end} "
                        f"on a {n}-point board.")
        if st.end >= st.start:
            return _why(position, "backwards", f"Checkers move from higher to lower numbers: {name} to {where} "
                        "goes the wrong way.")
        got = r.refusal(b, st.start, st.die)
        if got is not None and got[0].at == "source":
            return _refused(position, *got)
        dist = st.start - st.end
        if st.die not in d:
            comb = self._combined(st)
            if comb is not None:
                return comb
            return _why(position, "no_such_die", f"No die shows {st.die}; the roll is {d[0]}-{d[1]}.")
        if st.end > 0 and st.die != dist or st.end == 0 and st.die < dist:
            return _why(position, "no_such_die", f"Moving {name} to {where} needs a {dist}, not a {st.die}.")
        if not left:
            return _complete(position, maxlen)
        if st.die not in left:
            if 0 < maxlen <= depth:  # a die already used, and the dice left cannot be played
                return _complete(position, maxlen)
            if r.low_first and st.die in later:
                lo = left[0]
                if maxlen == 0 and not depth:
                    return _lower_die_lost(r, position, b, lo, st.die)
                return _why(position, "lower_die_first", f"The lower die, {lo}, must be played first.")
            if st.end != 0 or st.die == dist:
                return _why(position, "no_such_die", f"Moving {name} to {where} needs a {dist}, and no die "
                            f"left shows {dist} (dice left: {', '.join(map(str, left))}).")
            return _why(position, "no_such_die", f"No die left shows {st.die} (dice left: "
                        f"{', '.join(map(str, left))}).")
        if got is not None:
            return _refused(position, *got)
        if (st.start, st.end, st.die) in self._children():
            return Explanation("legal", f"{st.text(n)} is legal.")
        if depth >= maxlen:  # the single-step rules allow it, so only the play's length refuses it
            return _complete(position, maxlen)
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

    def _combined(self, st: Step) -> Explanation | None:
        """A move of one checker by several dice (``13/5`` with 5-3): legal one step at a time, or the
        first step on the way that a rule refuses. None when no dice left add up to the distance."""
        position = self.tree.position
        n = position.variant.points
        a, z = st.start, st.end
        dist = a - z
        ways: list[tuple[list[int], int, Explanation | None]] = []
        seen: set[tuple[int, ...]] = set()
        for rest in self.rests:
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
            node: PlayNode = self
            fail, at = None, 0
            for i, x in enumerate(rest[:k]):
                part = Step(path[i], path[i + 1], x)
                sub = node.explain(part)
                if not sub.legal:
                    fail, at = sub, i
                    break
                node = node._children()[(part.start, part.end, part.die)][1]
            ways.append((path, at, fail))
        if not ways:
            return None
        text = st.text(n)

        def chain(path: list[int]) -> str:
            return "/".join(place_text(p, n) for p in path)

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

    def __repr__(self) -> str:
        d = self.tree.dice
        return f"<PlayNode {d[0]}-{d[1]} after {self.depth} step{'s' if self.depth != 1 else ''}: {len(self._children())} next>"


class PlayList(Sequence[Play]):
    """The distinct legal plays of one roll, and the tree of their steps that owns the roll's legality.

    A sequence of :class:`Play`, one per resulting position. ``in`` accepts a :class:`Play`, a
    resulting :class:`Position`, or move text such as ``"24/18 13/11"``. A roll with no legal move
    gives one empty play (the position unchanged).

    Once the dice are known every question is a lookup here, without a new search:
    :meth:`next_steps` (what may come next), :meth:`explain` (why a step may not),
    :meth:`after` (the :class:`PlayNode` the steps so far lead to), :meth:`explain_play` (is a list of
    steps a whole legal play), :meth:`find` (the play move text stands for).
    """

    def __init__(self, position: Position, dice: tuple[int, int], plays: list[Play], length: int,
                 boards: Mapping[Board, object], rules: _Rules | None = None, board: Board | None = None) -> None:
        self.position = position
        self.dice = dice
        self._plays = plays
        self.length = length  # steps in every legal play
        self._boards = boards  # the mover's-eye board after each play (keys, in the same order)
        self._r = rules if rules is not None else _rules(position.variant)
        # The tree holds its nodes weakly: a node holds its tree and its children, the caller holds a
        # node (the engine's state its own), so no reference cycle keeps a roll's plays alive after
        # the last node is dropped (rollouts make one tree per roll). The table finds the node a
        # transposition reaches while its parent still holds it; it is made with the first step's
        # node (a game's history keeps every roll's tree, most of them never stepped through).
        self._nodes: weakref.WeakValueDictionary[tuple[Board, tuple[tuple[int, ...], ...]], PlayNode] | None = None
        self._index: dict[Board, int] | None = None
        self._root: weakref.ref[PlayNode] | None = None
        self._board = board  # the mover's-eye board before the play, when the caller has it

    @property
    def root(self) -> PlayNode:
        """The node before any step (built on first use, as every node is)."""
        ref = self._root
        got = ref() if ref is not None else None
        if got is None:  # no later node has the root's key (every step plays a die): not in _nodes
            b = self._board
            got = PlayNode(self, self.position.board() if b is None else b, _orders(self._r, self.dice), 0)
            self._root = weakref.ref(got)
        return got

    def _node(self, board: Board, rests: tuple[tuple[int, ...], ...], depth: int) -> PlayNode:
        key = (board, rests)
        nodes = self._nodes
        if nodes is None:
            nodes = self._nodes = weakref.WeakValueDictionary()
        got = nodes.get(key)
        if got is None:
            got = nodes[key] = PlayNode(self, board, rests, depth)
        return got

    def _expand(self, node: PlayNode) -> dict[tuple[int, int, int], tuple[Step, PlayNode]]:
        """The steps that continue a legal play from ``node``: a single step of the variant's step
        generator with a die some order allows next, kept when the dice left can still end the play
        on one of the search's resulting boards."""
        k = node.depth
        out: dict[tuple[int, int, int], tuple[Step, PlayNode]] = {}
        if k >= self.length:
            return out
        r, finals, need = self._r, self._boards, self.length - k - 1
        for dd in dict.fromkeys(rest[0] for rest in node.rests if rest):
            tails = tuple(dict.fromkeys(rest[1:] for rest in node.rests if rest and rest[0] == dd))
            for s, t, nb, hit in r.steps(node.board, dd):
                if (s, t, dd) in out:
                    continue
                if any(_completes(r, nb, tail, need, finals) for tail in tails):
                    out[(s, t, dd)] = (Step(s, t, dd, hit), self._node(nb, tails, k + 1))
        return out

    def _position_of(self, board: Board) -> Position:
        pos = self.position
        return Position.from_board(pos.variant, pos.turn, board, pos.opponent_off)

    # -- the sequence of plays ---------------------------------------------------------------
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

    def play_at(self, node: PlayNode) -> Play:
        """The play whose resulting board is the complete ``node``'s."""
        index = self._index
        if index is None:
            index = self._index = {b: i for i, b in enumerate(self._boards)}
        return self._plays[index[node.board]]

    # -- the tree ----------------------------------------------------------------------------
    def after(self, steps: Sequence[Any] = ()) -> PlayNode:
        """The node the legal beginning ``steps`` (from the turn's start) leads to; raises
        :class:`IllegalMoveError` naming the rule that refuses the first step no play continues with."""
        node, _done, why = self._walk(steps)
        if why is not None:
            raise IllegalMoveError(f"steps {show(list(steps))} are not a legal beginning of a play of "
                                   f"{self.dice[0]}-{self.dice[1]}: {why.message}", why.code, why.message)
        return node

    def next_steps(self, steps: Sequence[Any] = ()) -> list[Step]:
        """The single steps that begin (or continue, after the legal ``steps``) some legal play;
        empty when the play is complete or no move is possible."""
        return self.after(steps).next_steps()

    def check(self, step: Any, after: Sequence[Any] = ()) -> Step:
        """``step`` as the legal :class:`Step` it stands for, after the legal steps ``after``; raises
        :class:`IllegalMoveError` with the reason when it is refused."""
        return self.after(after).take(step)[0]

    def explain(self, step: Any, after: Sequence[Any] = ()) -> Explanation:
        """Why ``step`` may (code ``legal``) or may not be played after the legal steps ``after``."""
        return self.after(after).explain(step)

    def explain_play(self, steps: Sequence[Any], *, complete: bool = True) -> Explanation:
        """Why ``steps`` (from the turn's start) are or are not a legal play (code ``legal``).

        The first step that no legal play continues with is explained as :meth:`explain` does;
        with ``complete``, legal steps that leave dice to play are refused with the rule that asks
        for as much of the roll as can be played, naming a step that can still be played.
        """
        node, done, why = self._walk(steps)
        if why is not None:
            return why
        if complete and not node.complete:
            pos, n = self.position, self.position.variant.points
            options = node.next_steps()
            a, _b = self.dice
            more = self.length - len(done)
            dice = sorted({o.die for o in options})
            example = " or ".join(o.text(n) for o in options[:2])
            if self.dice[0] == self.dice[1]:
                return _why(pos, "use_all_moves", f"The play is not complete: {more} more of the {a}s can be "
                            f"played (for example {example}), and as many of the four moves as possible must "
                            "be played.")
            return _why(pos, "use_both_dice", f"The play is not complete: the {dice[0]} can still be played "
                        f"(for example {example}), and a play must use as much of the roll as it can.")
        return Explanation("legal", "The play is legal.")

    def _walk(self, steps: Any) -> tuple[PlayNode, list[Step], Explanation | None]:
        """Follow ``steps`` down the tree: the last node reached, the steps taken, and the reason
        the next one is refused (None when all are legal)."""
        if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
            raise IllegalMoveError(f"steps must be a list of steps, not {show(steps)}", "bad_step",
                                   f"Steps are a list of steps, not {show(steps)}.")
        node = self.root
        done: list[Step] = []
        for raw in steps:
            got = node._match(raw)
            if got is None:
                why = node.explain(raw)
                if why.legal:  # pragma: no cover - the tree and its explanations agree
                    why = Explanation("illegal", f"{show(raw)} cannot be played now.")
                return node, done, why
            done.append(got[0])
            node = got[1]
        return node, done, None

    def find(self, text: str) -> Play:
        """The play that move text (``"24/18 13/11*"``) stands for; raises if illegal or ambiguous.

        Segments may be single steps or combined moves (``24/13`` with 6-5; the intermediate point
        must be legal as a step). The search is bounded: text asking for more moves than the roll
        gives is refused before any search, and each node of the tree is visited once per segments
        left.
        """
        return _parse_play(self, text)

    def __repr__(self) -> str:
        shown = ", ".join(str(p) for p in self._plays[:6])
        more = f", ... ({len(self._plays)} plays)" if len(self._plays) > 6 else ""
        return f"<PlayList {self.dice[0]}-{self.dice[1]}: [{shown}{more}]>"


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
    b0 = position.board()
    best, maxlen = _legal(r, b0, d)
    v, turn, opp_off = position.variant, position.turn, position.opponent_off
    plays = [Play._lazy(raw, (v, turn, nb, opp_off)) for nb, raw in best.items()]
    return PlayList(position, d, plays, maxlen, best, r, b0)


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


# ---------------------------------------------------------------------------------------------
# The same questions asked of a position and dice (one search, then a lookup on its tree)


def legal_steps(position: Position, dice: Any, steps_so_far: Sequence[Any] = ()) -> list[Step]:
    """The single steps that begin (or continue, after ``steps_so_far``) some legal play.

    This is what a click-by-click interface offers. An empty list means the play is complete
    (or no move is possible). ``steps_so_far`` must itself be a legal beginning, else
    :class:`IllegalMoveError`. (:meth:`PlayList.next_steps` of ``legal_plays(position, dice)``.)
    """
    return legal_plays(position, dice).next_steps(steps_so_far)


def check_step(position: Position, dice: Any, steps_so_far: Sequence[Any], step: Any) -> Step:
    """Return ``step`` as a :class:`Step` if legal next, else raise :class:`IllegalMoveError`
    (:meth:`PlayList.check`)."""
    return legal_plays(position, dice).check(step, steps_so_far)


def apply_steps(position: Position, dice: Any, steps: Sequence[Any]) -> Position:
    """The position after the legal beginning ``steps`` of a play (``turn`` unchanged;
    :meth:`PlayList.after`)."""
    return legal_plays(position, dice).after(steps).position


def explain_step(position: Position, dice: Any, steps_so_far: Sequence[Any], step: Any) -> Explanation:
    """Explain whether ``step`` may be played next, after the legal ``steps_so_far``.

    ``step`` is a :class:`Step`, a ``(start, end)`` pair in the mover's numbering (bar = N+1,
    off = 0) or text like ``"bar/22"``. The die is inferred when not given. A single-step rule
    (blocked point, cap, bar first, bear-off) is reported by the same check that keeps the step
    out of :func:`legal_plays` (the variant's :meth:`~backgammon_lab.variants.Variant.step_checks`);
    the rest are the rules of the whole play (lower die first, use as much of the roll as
    possible, the larger die). The explanation's ``rule`` quotes the rule it rests on.
    (:meth:`PlayList.explain`.)
    """
    return legal_plays(position, dice).explain(step, steps_so_far)


def explain_play(position: Position, dice: Any, steps: Sequence[Any]) -> Explanation:
    """Why the list of ``steps`` (a whole turn's play) is or is not legal, naming the true rule.

    The first step no legal play continues with is explained as :func:`explain_step` does; a legal
    beginning that leaves dice to play is refused with ``use_both_dice``/``use_all_moves``, naming
    a step that can still be played. A legal play gives the code ``legal``. (:meth:`PlayList.explain_play`.)
    """
    return legal_plays(position, dice).explain_play(steps)


def parse_play(position: Position, dice: Any, text: str) -> Play:
    """The legal :class:`~backgammon_lab.position.Play` that move text stands for.

    Segments may be single steps or combined moves (``24/13`` with 6-5; the intermediate point must
    be legal as a step). Raises :class:`IllegalMoveError` (with the engine's explanation) or
    :class:`~backgammon_lab.errors.AmbiguousMoveError`. (:meth:`PlayList.find`.)
    """
    return legal_plays(position, dice).find(text)


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
    for s in range(r.bar, 0, -1):
        if b[s] > 0:
            got = r.refusal(b, s, lo)
            if got is not None:
                check, words = got
                reasons.append(f"{Step(s, max(s - lo, 0), lo).text(n)}: {check.says.format(**words)}")
    why = (" " + " ".join(reasons[:3]) + (" ..." if len(reasons) > 3 else "")) if reasons else ""
    return _why(position, "turn_lost", f"The lower die, {lo}, cannot be played, so the turn is lost: the "
                f"{hi} may not be played instead.{why}")



def _complete(position: Position, maxlen: int) -> Explanation:
    """Every die that can be played has been (or no move is possible at all)."""
    return _why(position, "play_complete", "No move is possible with this roll." if maxlen == 0 else
                "The play is complete: every die that can be played has been played.")


# ---------------------------------------------------------------------------------------------
# Reading a play from move text


def _parse_play(plays: PlayList, text: str) -> Play:
    position, d = plays.position, plays.dice
    n = position.variant.points
    segs = parse_steps(text, n)
    most = 4 if d[0] == d[1] else 2
    shown = repr(text) if len(text) <= 200 else repr(text[:120] + " ... ")
    if len(segs) > most:
        msg = (f"the move has {len(segs)} steps, but a roll of {d[0]}-{d[1]} gives at most {most} moves")
        raise IllegalMoveError(f"illegal move {shown} with {d[0]}-{d[1]}: {msg}", "too_many_steps", msg)
    results: dict[Board, PlayNode] = {}
    short: list[list[Step]] = []
    fail: list[tuple[PlayNode, tuple[int, int], PlayNode, tuple[int, int]]] = []
    seen: set[tuple[int, tuple[tuple[int, int, int, int], ...]]] = set()

    # A segment left to play: (where the checker is now, its target, where the segment began, how
    # many steps had been played when it began). ``path``: the nodes passed, the root first.
    def rec(path: list[PlayNode], done: list[Step], left: list[tuple[int, int, int, int]]) -> None:
        node = path[-1]
        key = (id(node), tuple(sorted(left)))
        if key in seen:
            return
        seen.add(key)
        if not left:
            if node.complete:
                results.setdefault(node.board, node)
            elif not short:
                short.append(list(done))
            return
        options = node._children()
        progressed = False
        for i, (a, z, a0, k0) in enumerate(left):
            for o, child in options.values():
                if o.start != a or o.end < z or (o.end == 0 and z != 0):
                    continue
                rest = left[:i] + left[i + 1:]
                if o.end != z:
                    rest = rest + [(o.end, z, a0, k0 if k0 >= 0 else len(done))]
                progressed = True
                rec(path + [child], done + [o], rest)
        if not progressed and not fail:
            a, z, a0, k0 = left[0]
            fail.append((path[k0] if k0 >= 0 else node, (a0, z), node, (a, z)))

    rec([plays.root], [], [(a, z, a, -1) for a, z in segs])
    if len(results) == 1:
        return plays.play_at(next(iter(results.values())))
    if len(results) > 1:
        raise AmbiguousMoveError(f"move {shown} with {d[0]}-{d[1]} matches {len(results)} different plays; "
                                 "write each step", "ambiguous", "The move text matches several plays.")
    if fail:
        before, (a0, z), now, (a, z) = fail[0]
        # The segment as written, judged where it began (the true reason for '6/off' when the 1
        # must come first); if that step alone is fine, the place where it got stuck.
        why = before.explain((a0, z))
        if why.legal or why.code == "combined":
            why = now.explain((a, z))
            if why.legal or why.code == "combined":
                msg = f"{Step(a0, z, 0).text(n)} cannot be played as one move with {d[0]}-{d[1]}"
                raise IllegalMoveError(f"illegal move {shown}: {msg}", "illegal", msg)
        raise IllegalMoveError(f"illegal move {shown} with {d[0]}-{d[1]}: {why.message}", why.code, why.message)
    why2 = plays.explain_play(short[0] if short else [])
    if why2.legal:  # pragma: no cover - a complete legal play is found above
        why2 = Explanation("use_both_dice", "the play is not complete")
    raise IllegalMoveError(f"illegal move {shown} with {d[0]}-{d[1]}: {why2.message}", why2.code, why2.message)


