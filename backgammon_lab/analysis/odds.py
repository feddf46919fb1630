"""Counts and odds, exact over the 36 rolls, for every variant, through the real move generator.

Every chance here is about the **side to move** (``position.turn``) and its **next roll**:

* :func:`enter_probability` -- it brings at least one / all of its checkers in from the bar;
* :func:`hit_probability` -- it hits a given blot of the other side;
* :func:`bear_off_in_one` -- it bears off all its remaining checkers (and wins).

"Can" is meant: the chance, over the 36 rolls, that *some* legal way of playing the dice does it
(the player chooses its play to that end). The roll is the two dice thrown; after a Mexican
(1-2, M8) it includes the doubles the player then names and plays, because no new dice are
thrown for them. With ``rerolls=True`` the chance covers the whole turn instead: in Mexican
Backgammon doubles whose four moves were all played (M7), and named doubles all played (M8),
are followed by another roll, and those rolls count too (exact, but a hit chance over a whole
turn can take long in a busy position: every non-hitting play of every doubles opens another
36 rolls). Standard backgammon and Mini-Gam have no re-rolls, so the flag changes nothing there.

The lower die first (M3), entering die by die (M9) and the five-checker cap (M6) all come from
the move generator and the turn engine, so they change the numbers by
themselves.

Results are exact: :class:`fractions.Fraction` with ``exact=True``, else floats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..engine import ALL_ROLLS, MakePlay, Phase, advance, dice_state
from ..errors import AnalysisError
from ..position import BLACK, OFF, WHITE, Player, Position, Roll, other
from .table import Table, fmt_fraction, fmt_prob

__all__ = [
    "pip_counts",
    "enter_probability",
    "EnterOdds",
    "hit_probability",
    "shots",
    "bear_off_in_one",
    "roll_breakdown",
    "odds_table",
]

Board = tuple[int, ...]
#: With ``rerolls=True`` the chains of Mexican re-rolls can branch very far: stop beyond this.
MAX_GENERATOR_CALLS = 50_000
_ROLLS: tuple[tuple[Roll, Fraction], ...] = tuple(
    (r, Fraction(1 if r.is_double else 2, 36)) for r, _ in ALL_ROLLS
)


def pip_counts(position: Position) -> Table:
    """Pip counts of both players with checkers on the bar and borne off, and the race lead.

    A checker on point p needs p pips, one on the bar N+1 (``Position.pip_count``).
    """
    rows = []
    pips = {p: position.pip_count(p) for p in (WHITE, BLACK)}
    for who in (WHITE, BLACK):
        lead = pips[other(who)] - pips[who]
        rows.append([who.capitalize() + (" (to move)" if who == position.turn else ""), pips[who],
                     position.count(who, position.variant.bar), position.count(who, OFF), f"{lead:+d}"])
    return Table(["player", "pips", "on bar", "off", "lead"], rows, title="Pip counts",
                 align=["left", "right", "right", "right", "right"])


class _Turn:
    """The chance that a property of the mover's board becomes true during its coming turn.

    ``success(board)`` must stay true once true within a turn (the bar only empties, a hit
    checker stays hit, borne-off checkers stay off).
    """

    def __init__(self, position: Position, success: Callable[[Board], bool], rerolls: bool = False) -> None:
        self.v = position.variant
        self.rerolls = rerolls
        self.player: Player = position.turn
        self.opp_off = position.opponent_off
        self.success = success
        self.memo: dict[tuple[Board, Any], Fraction] = {}
        self.calls = 0

    def _one_more_call(self) -> None:
        self.calls += 1
        if self.calls > MAX_GENERATOR_CALLS:
            raise AnalysisError(f"this whole-turn chance needs more than {MAX_GENERATOR_CALLS} move generations "
                                "(every play of doubles opens 21 more rolls); use rerolls=False for the next roll")

    def turn(self, board: Board) -> Fraction:
        """The chance over a fresh roll (and what it leads to)."""
        key = (board, None)
        got = self.memo.get(key)
        if got is None:
            got = sum((p * self.roll(board, r.dice) for r, p in _ROLLS), Fraction(0))
            self.memo[key] = got
        return got

    def roll(self, board: Board, dice: tuple[int, int], named: bool = False) -> Fraction:
        """The chance once ``dice`` are rolled (``named``: doubles named after a Mexican).

        The turn flow is the engine's: after each play, :func:`~backgammon_lab.engine.advance` says
        whether the player names doubles (always followed) or rolls again (followed with ``rerolls``).
        """
        if self.success(board):
            return Fraction(1)
        key = (board, (dice, named))
        got = self.memo.get(key)
        if got is not None:
            return got
        self._one_more_call()
        pos = Position.from_board(self.v, self.player, board, self.opp_off)
        state = dice_state(pos, Roll(*dice), named=named)
        best = Fraction(0)
        if state.phase is Phase.PLAY:
            assert state.plays is not None
            for play in state.plays:
                nb = play.position.board()
                if self.success(nb):
                    best = Fraction(1)
                    break
                after = advance(state, MakePlay(play))[0]
                if after.phase is Phase.NAME:  # M8: name any doubles and play them
                    best = max(best, max(self.roll(nb, (k, k), True) for k in range(1, 7)))
                elif after.phase is Phase.ROLL and after.reroll and self.rerolls:  # M7, M8's re-roll
                    best = max(best, self.turn(nb))
        self.memo[key] = best
        return best


def _as(value: Fraction, exact: bool) -> Fraction | float:
    return value if exact else float(value)


@dataclass(frozen=True)
class EnterOdds:
    """The chances that the side to move enters from the bar with its next roll (its whole turn
    with ``rerolls``)."""

    position: Position
    on_bar: int
    at_least_one: Fraction
    all: Fraction
    rerolls: bool = False

    def table(self) -> Table:
        """Both chances as a small table."""
        who = self.position.turn.capitalize()
        span = ", whole turn" if self.rerolls else ""
        return Table(["enters", "chance", "percent"],
                     [["at least one checker", fmt_fraction(self.at_least_one), fmt_prob(self.at_least_one)],
                      [f"all {self.on_bar}", fmt_fraction(self.all), fmt_prob(self.all)]],
                     title=f"{who} to move, {self.on_bar} on the bar ({self.position.variant.title}{span})",
                     align=["left", "right", "right"])

    def __str__(self) -> str:
        return str(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def enter_probability(position: Position, *, rerolls: bool = False) -> EnterOdds:
    """The chance that the side to move enters at least one, and all, of its checkers from the bar.

    With nothing on the bar both chances are 1. Exact (Fractions); see the module docstring for
    what the roll (with ``rerolls``: the turn) includes. In Mexican Backgammon the lower die must
    enter first and a sixth checker may not enter a point, so one closed point can stop a roll.
    """
    bar = position.variant.bar
    b0 = position.board()
    start = b0[bar]
    if start == 0:
        return EnterOdds(position, 0, Fraction(1), Fraction(1), rerolls)
    one = _Turn(position, lambda b: b[bar] < start, rerolls).turn(b0)
    every = _Turn(position, lambda b: b[bar] == 0, rerolls).turn(b0)
    return EnterOdds(position, start, one, every, rerolls)


def _blot_index(position: Position, point: int, player: Player | None) -> tuple[Player, int]:
    """The owner of the blot and its index on the mover's board."""
    owner = other(position.turn) if player is None else player
    if owner == position.turn:
        raise AnalysisError(f"the blot must belong to the side not on roll ({other(position.turn)}); "
                         f"{position.turn} is to move in {position.to_string()!r}")
    n = position.variant.points
    if not 1 <= point <= n:
        raise AnalysisError(f"point {point!r} is not on a {n}-point board")
    if position.count(owner, point) != 1:
        raise AnalysisError(f"{owner}'s point {point} holds {position.count(owner, point)} checkers, not a blot, "
                         f"in {position.to_string()!r}")
    return owner, position.variant.flip(point)


def hit_probability(position: Position, point: int, *, player: Player | None = None,
                    exact: bool = False, rerolls: bool = False) -> Fraction | float:
    """The chance that the side to move can hit the blot on ``point`` with its next roll.

    ``point`` is numbered from the blot owner's side (its point 1 is nearest its exit); the blot
    belongs to ``player``, by default the side not on roll, which is the only side that can be
    hit. Raises ValueError when that point does not hold exactly one of its checkers.
    """
    _, idx = _blot_index(position, point, player)
    chance = _Turn(position, lambda b: b[idx] != -1, rerolls).turn(position.board())
    return _as(chance, exact)


def shots(position: Position, *, rerolls: bool = False) -> Table:
    """Every blot of the side not on roll, with the chance that the side to move can hit it
    with its next roll, and the chance that it can hit at least one of them."""
    owner = other(position.turn)
    n = position.variant.points
    blots = [q for q in range(n, 0, -1) if position.count(owner, q) == 1]
    rows = []
    for q in blots:
        c = hit_probability(position, q, exact=True, rerolls=rerolls)
        rows.append([q, fmt_fraction(c), fmt_prob(c)])
    if len(blots) > 1:
        idxs = [position.variant.flip(q) for q in blots]
        anyc = _Turn(position, lambda b: any(b[i] != -1 for i in idxs), rerolls).turn(position.board())
        rows.append(["any", fmt_fraction(anyc), fmt_prob(anyc)])
    return Table([f"{owner} blot on", "hit chance", "percent"], rows,
                 title=f"Shots for {position.turn.capitalize()} ({position.variant.title})",
                 align=["left", "right", "right"],
                 notes="" if blots else f"{owner.capitalize()} has no blot.")


def bear_off_in_one(position: Position, *, exact: bool = False, rerolls: bool = False) -> Fraction | float:
    """The chance that the side to move bears off all its remaining checkers with its next roll
    (and so wins)."""
    k = position.variant.checkers
    return _as(_Turn(position, lambda b: b[OFF] == k, rerolls).turn(position.board()), exact)


def roll_breakdown(position: Position, what: str = "enter", point: int | None = None, *,
                   rerolls: bool = False) -> Table:
    """Which of the 21 rolls do it: ``what`` is ``enter`` (at least one), ``enter_all``, ``hit``
    (``point`` as in :func:`hit_probability`) or ``bear_off``. Each row gives the roll, its
    weight out of 36 and whether it succeeds (in Mexican with ``rerolls``, a chance when it
    depends on the rolls that follow)."""
    bar = position.variant.bar
    b0 = position.board()
    k = position.variant.checkers
    tests: dict[str, Callable[[Board], bool]] = {
        "enter": lambda b: b[bar] < b0[bar] or b0[bar] == 0,
        "enter_all": lambda b: b[bar] == 0,
        "bear_off": lambda b: b[OFF] == k,
    }
    if what == "hit":
        if point is None:
            raise AnalysisError("roll_breakdown(..., 'hit') needs the blot's point")
        _, idx = _blot_index(position, point, None)
        tests["hit"] = lambda b: b[idx] != -1
    if what not in tests:
        raise AnalysisError(f"what is one of {sorted(tests)} or 'hit', not {what!r}")
    t = _Turn(position, tests[what], rerolls)
    rows = []
    total = Fraction(0)
    for r, p in _ROLLS:
        c = t.roll(b0, r.dice)
        total += p * c
        rows.append([str(r), f"{int(p * 36)}/36", fmt_fraction(c) if c not in (0, 1) else ("yes" if c else "no")])
    rows.append(["all", "36/36", fmt_fraction(total)])
    return Table(["roll", "weight", "succeeds"], rows, title=f"{what} for {position.turn} by roll",
                 align=["left", "right", "right"])


def odds_table(position: Position) -> Table:
    """A summary for the side to move: pips of both sides, entering (if on the bar), shots at
    the other side's blots, and bearing off in one turn."""
    me = position.turn
    rows: list[list[Any]] = []
    rows.append(["pip count", f"{position.pip_count(me)} vs {position.pip_count(other(me))}"])
    e = enter_probability(position)
    if e.on_bar:
        rows.append([f"enter at least one of {e.on_bar}", f"{fmt_fraction(e.at_least_one)} ({fmt_prob(e.at_least_one)})"])
        rows.append([f"enter all {e.on_bar}", f"{fmt_fraction(e.all)} ({fmt_prob(e.all)})"])
    n = position.variant.points
    for q in range(n, 0, -1):
        if position.count(other(me), q) == 1:
            c = hit_probability(position, q, exact=True)
            rows.append([f"hit the blot on {other(me)}'s {q}", f"{fmt_fraction(c)} ({fmt_prob(c)})"])
    b = bear_off_in_one(position, exact=True)
    rows.append(["bear off all this turn", f"{fmt_fraction(b)} ({fmt_prob(b)})"])
    return Table(["for " + me.capitalize(), "chance"], rows, title=f"Odds ({position.variant.title})")
