"""The analysis search: one evaluator of engine states, by a net looking ahead 0, 1 or 2 rolls, or
exactly by the solved Mini-Gam table.

:class:`Evaluator` is the one look-ahead of the package: :func:`~backgammon_lab.analysis.hints.hint`
and the Mexican decision hints, :class:`~backgammon_lab.analysis.netbot.NetBot` at every ply, the
tutor and game analysis all ask it. Its questions are about :class:`~backgammon_lab.engine.TurnState`
values (what the side to act can expect, what a play or a decision leads to); with a net the
answers are computed in the variant's compiled kernel (:func:`backgammon_lab.analysis.selfplay.kernel`):
the move generator, the net's encoding and its forward pass, and the look-ahead itself, in one call.

Plies (a ply is a roll of the dice, not a change of player)
    0-ply: the net on the position each play reaches. What follows a play is the variant's
    ``after_play``: the turn passes (the opponent's values, turned round), the mover rolls again
    (its own values), or, after a Mexican, it names doubles: the best of the six named doubles'
    best plays (with ``lookahead``; without, as if the mover rolled again, what the trainer does).
    ``k``-ply: the position a play reaches is valued by the average over the 21 rolls of the best
    play of the side to act at ``k - 1`` plies. Every choice inside the search (a reply, the
    doubles named after a Mexican) is made at 0-ply and only the chosen one is looked at deeper,
    as GNU Backgammon prunes its inner plies. After a Mexican the plays are first ranked the cheap
    way and only the best :data:`SHORTLIST` of them look the naming up. A net with a **pruning
    net** (:meth:`Net.with_prune <backgammon_lab.analysis.nets.Net.with_prune>`) makes the choice of
    a play inside the look-ahead cheaper still, as GNU Backgammon's pruning nets do: the small net
    values every play and the net only the best ``keep`` of them. The root's plays (every value a
    hint shows at 0-ply) and the bots' 0-ply choices are the net's alone.

At the root, :meth:`Evaluator.rank_plays` spends the deeper plies only on the plays worth it, as GNU
Backgammon's "normal" move filter does (:data:`FILTERS`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import KEEP, REROLL, Action, MakePlay, NameDoubles, Phase, TurnState, advance, dice_state
from ..errors import AnalysisError, TableMissingError, whole_number
from ..position import Position, Roll
from . import bearoff as _bearoff
from . import nets as _nets
from .options import FILTERS, check_ply
from .selfplay import kernel, workspace
from .strategy import contact, crashed

__all__ = ["Evaluator", "evaluator_for", "check_ply", "equity_of", "equities", "rank_key", "FILTERS", "SHORTLIST",
           "keep_or_reroll_values", "name_values"]  # check_ply and FILTERS are the options' (options.py)

#: After a Mexican only this many plays (the best by the cheap value, as if the mover rolled again)
#: look the naming of doubles up, wherever the search chooses a play.
SHORTLIST = 3

_EPS = 1e-12
_DEPTH = {"exact": 5, "rollout": 4, "2-ply": 3, "1-ply": 2, "0-ply": 1}


def equity_of(row: np.ndarray) -> float:
    """Cubeless equity of one row of values: ``2 win - 1``, plus gammons and backgammons with five
    outputs."""
    v = row.tolist()  # Python floats: the same double arithmetic, without numpy scalars
    e = 2.0 * v[0] - 1.0
    if len(v) == 5:
        e += v[1] + v[2] - v[3] - v[4]
    return e


def equities(rows: np.ndarray) -> list[float]:
    """:func:`equity_of` of every row, at once (the same numbers: the same operations in the same
    order)."""
    if rows.shape[1] == 5:
        e = 2.0 * rows[:, 0] - 1.0 + (rows[:, 1] + rows[:, 2] - rows[:, 3] - rows[:, 4])
    else:
        e = 2.0 * rows[:, 0] - 1.0
    return e.tolist()  # type: ignore[no-any-return]


def rank_key(entry: dict[str, Any], i: int, equity: float | None = None) -> tuple[int, float, int]:
    """How ranked plays are ordered (best first): the deepest evaluation first, then by equity,
    then by the play's order. ``entry`` is one value of :meth:`Evaluator.rank_plays` (or a
    rollout's, which adds ``equity``); ``equity`` is its equity when the caller has it already."""
    if equity is not None:
        e = equity
    elif "equity" in entry:
        e = float(entry["equity"])
    elif "eq" in entry:
        e = entry["eq"]
    elif "row" in entry:
        e = equity_of(entry["row"])
    else:
        e = -1e9
    return (-_DEPTH.get(entry["how"], 0), -e, entry.get("order", i))


_BUFFERS = threading.local()


def _buffers(net: Any) -> tuple[Any, Any, int]:
    """The move generator's workspace and the net's scratch rows for this thread, shared by every
    evaluator of the same shape (a kernel call never calls back, so they are free between calls)."""
    cache = getattr(_BUFFERS, "cache", None)
    if cache is None:
        cache = _BUFFERS.cache = {}
    k = len(net.outputs)
    key = (net.variant, net.inputs, net.hidden, k)
    got = cache.get(key)
    if got is None:
        scratch = (np.zeros(net.variant.points + 3, np.int8), np.zeros(net.inputs), np.zeros(net.hidden), np.zeros(k))
        got = cache[key] = (workspace(net.variant), scratch, k)
    return got  # type: ignore[no-any-return]


def _board(position: Position) -> tuple[np.ndarray, int]:
    """The kernels' board row of ``position`` (its side to act positive) and the opponent's off."""
    return np.array(position.board(), dtype=np.int8), int(position.opponent_off)


class Evaluator:
    """Values of engine states for the side to act, as rows of outputs (1: the winning chance, or
    5: win, win a gammon, win a backgammon, lose a gammon, lose a backgammon), by a net (``kind``
    ``"net"``, looking up to two rolls ahead, see the module docstring) or, for Mini-Gam, exactly
    by the solved table (``kind`` ``"exact"``).

    ``lookahead=False`` values the plays of a Mexican at 0-ply as if the mover rolled again instead
    of looking the naming of doubles up; ``shortlist`` is how many plays look it up where the search
    chooses a play (None: all of them). ``exact_races=False`` keeps a net's own values in pure
    bear-off races (by default the bear-off database's exact values replace them; the self-play
    trainer's reference turns this off, as its kernel reads only the net). A search from any other
    race (no contact) is made with the net's race net when it has one (:meth:`Net.with_race
    <backgammon_lab.analysis.nets.Net.with_race>`), a search from a crashed position with its
    crashed net (:meth:`Net.with_crashed <backgammon_lab.analysis.nets.Net.with_crashed>`). The
    net's weights are read when the evaluator is made.
    """

    def __init__(self, net: Any = None, table: Any = None, *, lookahead: bool = True,
                 shortlist: int | None = SHORTLIST, exact_races: bool = True) -> None:
        if (net is None) == (table is None):
            raise AnalysisError("an Evaluator takes a net or a table")
        if shortlist is not None:
            try:
                shortlist = whole_number(shortlist, "shortlist", 1, error=AnalysisError)
            except AnalysisError:
                raise AnalysisError(f"shortlist is a whole number, at least 1, or None, not {shortlist!r}") from None
        self.lookahead = bool(lookahead)
        self.shortlist = shortlist
        self.net = net
        self.table = table
        self.kind = "exact" if table is not None else "net"
        self.outputs: tuple[str, ...] = ("win",) if table is not None else tuple(net.outputs)
        self.variant = table.variant if table is not None else net.variant
        self._kernels: dict[str, Any] = {}  # the kernel, weights and buffers of the net ("main"), its race and crashed nets
        # a net's values in a pure bear-off race give way to the exact bear-off database's (unless
        # exact_races is false: the net's own values, as the self-play trainer's choices)
        self.exact_races = bool(exact_races) and table is None and _bearoff.has_database(self.variant)

    def _race(self, position: Position) -> _bearoff.BearoffDatabase | None:
        """The bear-off database when ``position`` is a pure bear-off race that this evaluator
        values exactly (built on the first such position, once per machine), else None."""
        if not self.exact_races:
            return None
        # most positions are not races: a look at the board tuple says so before any array is made
        b = position.board()
        n, bar, home = self.variant.points, self.variant.bar, self.variant.home
        if b[bar] or b[bar + 1] or max(b[home + 1:bar]) > 0 or min(b[1:n - home + 1]) < 0:
            return None
        if _bearoff.home_configs(position) is None:
            return None
        return _bearoff.get_database(self.variant)

    @property
    def gammons(self) -> bool:
        """True when the values have the five outputs (gammons and backgammons)."""
        return len(self.outputs) == 5

    def check(self, position: Position) -> None:
        """Raise :class:`AnalysisError` unless ``position`` is of this evaluator's variant."""
        if position.variant != self.variant:
            raise AnalysisError(f"this {self.kind} evaluator values {self.variant!r}, not {position.variant!r}")

    # -- the compiled search ---------------------------------------------------------------------
    def _k(self, position: Position) -> tuple[Any, tuple[Any, ...]]:
        """The kernel and the arguments every search call from ``position`` ends with: the weights
        (read once) and the buffers, one set per thread (the kernel releases the GIL). The net is
        the net's race net (:attr:`Net.race <backgammon_lab.analysis.nets.Net.race>`) when it has
        one and ``position`` is a race (no contact: every position the search reaches from it is
        one too), its crashed net (:attr:`Net.crashed <backgammon_lab.analysis.nets.Net.crashed>`)
        when it has one and ``position`` is crashed (:func:`~backgammon_lab.analysis.strategy.crashed`;
        the whole search from it, as the positions it reaches stay crashed or become races), else
        the net itself."""
        net = self.net
        which = "main"
        if net.race is not None and not contact(position):
            net, which = net.race, "race"
        elif net.crashed is not None and crashed(position):
            net, which = net.crashed, "crashed"
        slot = self._kernels.get(which)
        if slot is None:
            slot = self._kernels[which] = (kernel(net.variant, net.encoding), net.search_weights(),
                                           threading.local())
        mod, weights, local = slot
        tail = getattr(local, "tail", None)
        if tail is None:
            tail = local.tail = (self.lookahead, self.shortlist or 0, weights, *_buffers(net))
        return mod, tail

    def _dice(self, position: Position, dice: tuple[int, int], named: bool, ply: int) -> tuple[int, np.ndarray]:
        mod, tail = self._k(position)
        b, o = _board(position)
        i, row = mod.dice_value(b, o, dice[0], dice[1], named, ply, *tail)
        return int(i), row

    # -- leaves ----------------------------------------------------------------------------------
    def roll_row(self, position: Position, ply: int = 0) -> np.ndarray:
        """The values of ``position.turn``, about to roll, looking ``ply`` rolls ahead: the net at 0,
        else the average over the 21 rolls of the best play at ``ply - 1`` (``ply`` up to
        ``MAX_PLY + 1``: rolling again, a decision at ``MAX_PLY`` looks one roll further)."""
        if ply != 0:
            check_ply(ply - 1)
        if self.table is not None:
            return np.array([self.table.value(position)])
        db = self._race(position)
        if db is not None:
            got = _bearoff.race_values(position, db)
            assert got is not None
            return got
        mod, tail = self._k(position)
        b, o = _board(position)
        return mod.roll_value(b, o, ply, *tail)  # type: ignore[no-any-return]

    def over_row(self, state: TurnState) -> np.ndarray:
        """The values of a finished game for ``state.player`` (the winner, who made the last play)."""
        if self.table is not None:
            return np.array([1.0 if state.winner == state.player else 0.0])
        b, o = _board(state.position)
        row = self.net.outcome_rows(b[None, :].astype(np.int64), np.asarray([o]))[0]
        return row if state.winner == state.player else _nets.flip(row)

    def play_values(self, state: TurnState) -> np.ndarray:
        """0-ply values for the mover of every play of ``state.plays`` (rows, in order), in one call."""
        return self._play_values(state, self._race(state.turn_start) if self.table is None else None)

    def _play_values(self, state: TurnState, db: _bearoff.BearoffDatabase | None) -> np.ndarray:
        """:meth:`play_values`, with the bear-off database when ``state`` is a race (``db``)."""
        plays = state.plays
        assert plays is not None and state.roll is not None
        pos = state.turn_start
        if self.table is not None:
            opp = pos.opponent_off
            return np.array([[self.table.value_board_after(_nets.play_board(p), opp)] for p in plays])
        if db is not None:
            rows = _bearoff.play_values(state, db)
            assert rows is not None
            return rows
        mod, tail = self._k(pos)
        b, o = _board(pos)
        d = state.roll.dice
        return mod.play_rows(b, o, d[0], d[1], state.named, *tail[:1], *tail[2:])  # type: ignore[no-any-return]

    # -- the search ------------------------------------------------------------------------------
    def state_value(self, state: TurnState, ply: int = 0) -> np.ndarray:
        """The values of ``state.player`` (the side to act) at ``state``, looking ``ply`` rolls ahead.

        ``roll``: the net (ply 0) or the average over the 21 rolls of the best play; ``play``: the
        best play (chosen at 0-ply, valued at ``ply``); ``name``: the best of the six doubles (chosen
        at 0-ply, valued at ``ply``); ``choice``: the better of keeping and rolling again; ``over``:
        the result.
        """
        ply = check_ply(ply)
        ph = state.phase
        if ph is Phase.OVER:
            return self.over_row(state)
        if ph is Phase.ROLL:
            return self.roll_row(state.position, ply)
        if ph is Phase.PLAY:
            return self.best_play(state, ply)[1]
        if ph is Phase.NAME:
            db = self._race(state.position)
            if db is not None:
                got = _bearoff.state_values(state, db)
                assert got is not None
                return got
            if self.table is None:
                mod, tail = self._k(state.position)
                b, o = _board(state.position)
                return mod.after_value(b, o, 2, ply, *tail)  # type: ignore[no-any-return]
            rows = [self.after_value(state, NameDoubles(k), 0) for k in range(1, 7)]
            return rows[int(np.argmax([equity_of(r) for r in rows]))]
        if ph is Phase.CHOICE:
            rows = [self.after_value(state, KEEP, ply), self.after_value(state, REROLL, ply)]
            return rows[int(np.argmax([equity_of(r) for r in rows]))]
        raise AnalysisError(f"no value before the opening roll ({state.hint()}); roll the opening first")

    def dice_value(self, position: Position, roll: Roll | Sequence[int] | str, ply: int = 0, *,
                   named: bool = False) -> np.ndarray:
        """The values of ``position.turn`` once it has rolled ``roll`` (``named``: doubles named after
        a Mexican): its best play's, looking ``ply`` rolls ahead."""
        ply = check_ply(ply)
        r = Roll.parse(roll)
        if position.is_over:
            raise AnalysisError(f"the game is over in {position.to_string()!r}")
        if self.table is None and self._race(position) is None:
            return self._dice(position, r.dice, named, ply)[1]
        d = dice_state(position, r, named=named)
        row = self.state_value(d, ply)
        return row if d.player == position.turn else _nets.flip(row)

    def best_play(self, state: TurnState, ply: int = 0) -> tuple[int, np.ndarray]:
        """The index of the best play of ``state`` by the net at 0-ply and its values at ``ply``.

        After a Mexican (the plays are followed by naming doubles) the plays are first valued the
        cheap way (as if the mover rolled again) and only the best ``shortlist`` of them look the
        six named doubles up.
        """
        ply = check_ply(ply)
        assert state.plays is not None and state.roll is not None
        if self.table is None and self._race(state.turn_start) is None:
            return self._dice(state.turn_start, state.roll.dice, state.named, ply)
        rows = self.play_values(state)
        i = int(np.argmax([equity_of(r) for r in rows]))
        return i, rows[i]

    def after_value(self, state: TurnState, action: Action, ply: int = 0) -> np.ndarray:
        """The values for ``state.player`` (the decider) of the state ``action`` leads to."""
        nxt = advance(state, action)[0]
        row = self.state_value(nxt, ply)
        return row if nxt.player == state.player else _nets.flip(row)

    def decision_value(self, state: TurnState, action: Action, ply: int = 0) -> np.ndarray:
        """The values for the decider of a Mexican decision's option at ``ply``: as
        :meth:`after_value`, but an option that rolls again (re-rolling the opening dice) is worth
        the average over the 21 rolls of the best play at ``ply``, as keeping them is worth their
        best play at ``ply``."""
        nxt = advance(state, action)[0]
        if nxt.phase is Phase.ROLL and nxt.player == state.player:
            return self.roll_row(nxt.position, check_ply(ply) + 1)
        row = self.state_value(nxt, ply)
        return row if nxt.player == state.player else _nets.flip(row)

    def rank_plays(self, state: TurnState, ply: int = 0, filters: Sequence[tuple[int, float]] = FILTERS
                   ) -> dict[int, dict[str, Any]]:
        """Every play of ``state`` (by index) with its values: ``row`` (the deepest ply reached),
        ``eq`` (its equity), ``how`` (``"0-ply"`` .. ``"2-ply"``, or ``"exact"``) and ``rows`` (by
        ply). Each deeper ply goes only to the plays of the ply before that pass the move filter of
        that depth (``filters``: (at most this many, within this equity of the best); none: every
        play). :func:`rank_key` orders them."""
        ply = check_ply(ply)
        db = self._race(state.turn_start) if self.table is None else None
        rows0 = self._play_values(state, db)
        race = db is not None  # the bear-off database's values are exact
        how0 = "exact" if self.kind == "exact" or race else "0-ply"
        eqs = equities(rows0)
        ranked = {i: {"row": row, "eq": e, "how": how0, "rows": {how0: row}}
                  for i, (row, e) in enumerate(zip(rows0, eqs, strict=True))}
        if self.kind != "net" or race or not ply:
            return ranked
        plays = state.plays
        assert plays is not None
        flist = list(filters)
        for depth in range(1, ply + 1):
            scores = {i: ranked[i]["eq"] for i in ranked}
            order = sorted(scores, key=lambda i: (-scores[i], i))
            prev = [i for i in order if ranked[i]["how"] == f"{depth - 1}-ply"]  # the plays that may go deeper
            count, threshold = flist[min(depth, len(flist)) - 1] if flist else (len(plays), 1e9)
            for i in move_filter(prev, scores, count, threshold):
                row = self.after_value(state, MakePlay(plays[i]), depth)
                ranked[i].update(row=row, eq=equity_of(row), how=f"{depth}-ply")
                ranked[i]["rows"][f"{depth}-ply"] = row
        return ranked


def move_filter(order: list[int], scores: dict[int, float], count: int, threshold: float) -> list[int]:
    """The best ``count`` of ``order`` (sorted best first) within ``threshold`` of the best."""
    if not order:
        return []
    top = scores[order[0]]
    return [i for i in order if top - scores[i] <= threshold + _EPS][:count]


_SHIPPED: dict[Any, Evaluator] = {}  # by variant: the shipped net's evaluator


def evaluator_for(position: Position, choice: Any = None, *, solved: bool = True) -> Evaluator:
    """The evaluator of ``position``'s variant that ``choice`` (an options' ``evaluator``, see
    :class:`~backgammon_lab.analysis.options.Options`) names: ``None`` the solved table for Mini-Gam
    when one is at hand (boards of up to 4 checkers are solved on the spot), else the variant's
    shipped net; ``"exact"`` the table; ``"net"`` the shipped net; a net, a table or an
    :class:`Evaluator` itself (checked against the variant). ``solved=False`` never picks a table
    for ``None`` (decisions the table does not value). Raises
    :class:`~backgammon_lab.errors.TableMissingError` when there is nothing to value with."""
    v = position.variant
    if isinstance(choice, Evaluator):
        choice.check(position)
        return choice
    if choice is None or choice == "exact":
        exact = choice == "exact"
        if solved or exact:
            from .solve import get_table, solvable

            if solvable(v):
                t = get_table(v, build=v.checkers <= 4)
                if t is not None:
                    return Evaluator(table=t)
                if exact:
                    raise TableMissingError("no solved Mini-Gam table for this position; run `backgammon-lab solve "
                                            f"minigam{' --checkers ' + str(v.checkers) if v.checkers != 8 else ''}`")
        if exact:
            raise TableMissingError(f"no exact values for {v!r}: only Mini-Gam is solved")
        choice = "net"
    if choice == "net":
        net = _nets.shipped_net(v)
        if net is None:
            raise TableMissingError(f"no net is shipped for {v!r}; train one with `backgammon-lab train {v.name} "
                                    "--games N`, or give one: Options(evaluator=net)")
        kept = _SHIPPED.get(v)
        if kept is None or kept.net is not net:  # one evaluator for the shipped net: its weights read once
            kept = _SHIPPED[v] = Evaluator(net=net)
        return kept
    if isinstance(choice, _nets.Net):
        choice.check_variant(v)
        return Evaluator(net=choice)
    from .solve import MiniGamTable

    if isinstance(choice, MiniGamTable):
        if choice.variant != v:
            raise AnalysisError(f"the table solves {choice.variant!r}, not {v!r}")
        return Evaluator(table=choice)
    raise AnalysisError(f"evaluator: expected 'exact', 'net', a Net, a solved table or an Evaluator, "
                        f"not {choice!r:.200}")


# ---------------------------------------------------------------------------------------------
# the Mexican decisions of a position, for callers without a TurnState (the trainer)


def keep_or_reroll_values(net: Any, position: Position, dice: Sequence[int], *, lookahead: bool = True,
                          exact_races: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Mexican's opening choice (M2) for ``position.turn`` at 0-ply: its values when it keeps
    ``dice`` (the best play of them) and when it rolls again (the average over the 21 rolls of the
    best play). ``exact_races`` as :class:`Evaluator`'s."""
    ev = Evaluator(net, lookahead=lookahead, exact_races=exact_races)
    return ev.dice_value(position, tuple(dice)), ev.roll_row(position, 1)


def name_values(net: Any, position: Position, *, lookahead: bool = True, exact_races: bool = True) -> np.ndarray:
    """Mexican (M8) at 0-ply: the mover's values after the best play of each named doubles 1..6
    (rows). ``exact_races`` as :class:`Evaluator`'s."""
    ev = Evaluator(net, lookahead=lookahead, exact_races=exact_races)
    return np.stack([ev.dice_value(position, (k, k), named=True) for k in range(1, 7)])
