"""Bots: one interface, :meth:`Bot.choose(game) <Bot.choose>`, for every decision of every variant.

A bot looks at a game in a decision phase (a :class:`backgammon_lab.game.Game`, or the bare
:class:`backgammon_lab.engine.TurnState` the rollouts drive) and returns the engine's action, which
both :func:`backgammon_lab.engine.advance` and :meth:`Game.apply` take:

=========  =========================================  ======================================
phase      decision                                   action returned
=========  =========================================  ======================================
``play``   which legal play to make                   ``MakePlay(play)``
``choice`` Mexican opening: keep the dice or re-roll  ``KEEP`` or ``REROLL``
``name``   Mexican: which doubles to name after 1-2   ``NameDoubles(k)``, k in 1..6
=========  =========================================  ======================================

Bots:

* :class:`RandomBot` -- uniformly random legal actions from its own seeded generator;
* :class:`HeuristicBot` -- the play that scores best under :func:`evaluate`, a hand-made
  evaluation whose weights follow from the variant's facts (:meth:`Weights.for_variant`); for
  Mexican choices it looks one roll ahead with the same evaluation;
* :class:`PerfectMiniGamBot` -- the play with the highest exact winning chance from the solved
  Mini-Gam table (:mod:`backgammon_lab.analysis.solve`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine import ALL_ROLLS, KEEP, REROLL, Choice, MakePlay, NameDoubles, Phase, TurnState, advance, dice_state
from ..errors import GameError, TableMissingError
from ..game import Game
from ..position import OFF, Play, Position, Roll
from ..rules import legal_boards
from ..variants import Variant

__all__ = [
    "Bot",
    "RandomBot",
    "HeuristicBot",
    "PerfectMiniGamBot",
    "Weights",
    "evaluate",
    "GameLike",
]

Board = tuple[int, ...]


class GameLike(Protocol):
    """What a bot reads from a game: :class:`~backgammon_lab.game.Game` has all of it."""

    @property
    def phase(self) -> str: ...  # noqa: D102

    @property
    def position(self) -> Position: ...  # noqa: D102

    @property
    def variant(self) -> Variant: ...  # noqa: D102

    def legal_actions(self) -> list[Any]: ...  # noqa: D102


def roll_of(game: GameLike) -> Roll | None:
    """The roll being played in ``game`` (a Game or a TurnState; named doubles included), if any."""
    st = game.state if isinstance(game, Game) else game
    return st.roll if isinstance(st, TurnState) else None


class Bot:
    """The interface: :meth:`choose` answers every decision; subclasses override the three
    per-phase methods (defaults: the first legal play, keep, name 6-6)."""

    name = "bot"

    def choose(self, game: GameLike) -> Any:
        """The engine action to take in ``game``'s current decision phase."""
        phase = game.phase
        if phase == Phase.PLAY:
            return MakePlay(self.choose_play(game, game.legal_actions()))
        if phase == Phase.CHOICE:
            return Choice(self.keep_or_reroll(game))
        if phase == Phase.NAME:
            return NameDoubles(self.name_doubles(game))
        raise GameError(f"no decision to make in phase {str(phase)!r}")

    def choose_play(self, game: GameLike, plays: Sequence[Play]) -> Play:
        """Pick one of ``plays`` (the legal plays of the game's roll)."""
        return plays[0]

    def keep_or_reroll(self, game: GameLike) -> str:
        """Mexican opening (M2): ``"keep"`` the opening dice or ``"reroll"``."""
        return "keep"

    def name_doubles(self, game: GameLike) -> int:
        """Mexican (M8): the doubles to name, 1..6."""
        return 6

    def seeded(self, seed: int) -> Bot:
        """A copy whose own randomness (if any) restarts from ``seed``; rollouts call it per game
        so results do not depend on how games are spread over processes."""
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Uniformly random legal actions, from a :class:`random.Random` seeded with ``seed``."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: GameLike) -> Any:
        """A uniformly random legal action."""
        acts = game.legal_actions()
        a = acts[self.rng.randrange(len(acts))]
        return MakePlay(a) if isinstance(a, Play) else a

    def seeded(self, seed: int) -> RandomBot:
        """A fresh random bot seeded with ``seed``."""
        return RandomBot(seed)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"


@dataclass(frozen=True)
class Weights:
    """The weights of :func:`evaluate` (points of score; one pip of race is worth ``race``).

    ``blot``/``direct``/``indirect``: a lone checker, more when an opposing checker is 1-6 pips
    (direct) or 7-12 pips (indirect) behind it; scaled by how far the blot has come, since being
    hit costs those pips. ``point``: each point held with two or more; ``home`` more when in the
    home board; ``anchor`` more when in the opponent's home board. ``prime``: per extra point in
    the longest run of held points, when an opposing checker is still behind it. ``opp_bar`` and
    ``my_bar``: checkers on the bars. ``closed``: each held home point while the opponent is on
    the bar. ``stack``: each checker beyond the third on a point. ``off``: each checker borne off
    (beyond its pips).
    """

    race: float = 1.0
    blot: float = 2.0
    direct: float = 6.0
    indirect: float = 2.0
    point: float = 1.5
    home: float = 2.0
    anchor: float = 1.5
    prime: float = 1.5
    opp_bar: float = 5.0
    my_bar: float = 5.0
    closed: float = 1.5
    stack: float = 0.7
    off: float = 0.5

    @classmethod
    def for_variant(cls, variant: Variant) -> Weights:
        """The default weights for a variant, from its facts (never from its name).

        A stacking cap and exact bear-off make stacks worse and each borne-off checker dearer
        (Mexican M6, M10). On a board that is all home board with free entry (Mini-Gam G1, G4) the
        bar is only pips and place: no anchors, home points or indirect shots.
        """
        if variant.home >= variant.points:
            return cls(race=1.0, blot=1.0, direct=3.0, indirect=0.0, point=1.0, home=0.0, anchor=0.0,
                       prime=1.0, opp_bar=2.0, my_bar=0.0, closed=0.5,
                       stack=0.5, off=1.0)
        if variant.stacking_cap is not None or variant.exact_bear_off:
            return cls(stack=1.2, off=1.0)
        return cls()


def evaluate(board: Sequence[int], variant: Variant, opponent_off: int, weights: Weights | None = None) -> float:
    """The score of a mover's-eye board (``Position.board()``: ``(off, p1..pN, bar, opp_bar)``)
    for the mover, higher is better. Used after the mover's play, before the opponent rolls.

    Race (no contact left): ``race * (opponent pips - own pips) + off * (own off - opponent off)``.
    With contact, add the terms of :class:`Weights`.
    """
    w = weights or Weights.for_variant(variant)
    n = variant.points
    home = variant.home
    bar = variant.bar
    opp_bar = bar + 1  # the board's last entry (Position.board)
    my_pips = bar * board[bar]
    opp_pips = bar * board[opp_bar]
    my_max = bar if board[bar] else 0
    opp_min = 0 if board[opp_bar] else bar
    for p in range(1, n + 1):
        x = board[p]
        if x > 0:
            my_pips += p * x
            if p > my_max:
                my_max = p
        elif x < 0:
            opp_pips += (bar - p) * -x  # bar - p: the opponent's number of p (Variant.flip)
            if p < opp_min:
                opp_min = p
    my_off = board[OFF]
    score = w.race * (opp_pips - my_pips) + w.off * (my_off - opponent_off)
    if opp_min >= my_max:  # no contact: a race
        return score
    score += w.opp_bar * board[opp_bar] - w.my_bar * board[bar]
    run = best_run = 0
    held_home = 0
    for p in range(1, n + 1):
        x = board[p]
        if x >= 2:
            score += w.point
            if p <= home:
                score += w.home
                held_home += 1
            elif p > n - home:
                score += w.anchor
            if x > 3:
                score -= w.stack * (x - 3)
            run += 1
            if run > best_run and p > opp_min:
                best_run = run
        else:
            run = 0
            if x == 1:
                direct = board[opp_bar] > 0 and p <= 6
                indirect = False
                for q in range(max(1, p - 12), p):
                    if board[q] < 0:
                        if p - q <= 6:
                            direct = True
                        else:
                            indirect = True
                risk = w.blot + (w.direct if direct else 0.0) + (w.indirect if indirect and not direct else 0.0)
                score -= risk * (bar - p) / n
    if best_run > 1:
        score += w.prime * (best_run - 1)
    if board[opp_bar]:
        score += w.closed * held_home
    return score


def _best_boards(position: Position, dice: tuple[int, int], w: Weights) -> tuple[float, Board]:
    opp_off = position.opponent_off
    best: tuple[float, Board] | None = None
    for b in legal_boards(position, dice):
        s = evaluate(b, position.variant, opp_off, w)
        if best is None or s > best[0]:
            best = (s, b)
    assert best is not None
    return best


class HeuristicBot(Bot):
    """Plays the legal play whose result scores best under :func:`evaluate`.

    ``weights`` default to :meth:`Weights.for_variant` of the game's variant. Mexican decisions look one
    roll ahead with the same score: keep the opening dice when their best play scores at least
    the average best play of a fresh roll (a fresh 1-2 counted with its best named doubles);
    name the doubles whose best play scores most.
    """

    name = "heuristic"

    def __init__(self, weights: Weights | None = None) -> None:
        if weights is not None and not isinstance(weights, Weights):
            raise GameError(f"HeuristicBot takes Weights, not {weights!r}")
        self.weights = weights

    def _w(self, variant: Variant) -> Weights:
        return self.weights if self.weights is not None else Weights.for_variant(variant)

    def choose_play(self, game: GameLike, plays: Sequence[Play]) -> Play:
        """The play with the highest :func:`evaluate` score (the first one on ties)."""
        w = self._w(game.variant)
        best = plays[0]
        best_s = None
        for p in plays:
            pos = p.position
            s = evaluate(pos.board(), pos.variant, pos.opponent_off, w)
            if best_s is None or s > best_s:
                best, best_s = p, s
        return best

    def _roll_score(self, position: Position, dice: tuple[int, int], w: Weights) -> float:
        """The score of the best play of ``dice``; when the engine says doubles are named next (a
        Mexican played in full, M8), the score of the best named doubles' best play."""
        state = dice_state(position, Roll(*dice))
        if state.phase is not Phase.PLAY:  # no legal move: the position as it stands
            return evaluate(position.board(), position.variant, position.opponent_off, w)
        best = self.choose_play(state, state.legal_actions())
        after = advance(state, MakePlay(best))[0]
        if after.phase is Phase.NAME:
            return max(_best_boards(after.position, (k, k), w)[0] for k in range(1, 7))
        pos = best.position
        return evaluate(pos.board(), pos.variant, pos.opponent_off, w)

    def keep_or_reroll(self, game: GameLike) -> str:
        """Keep when the opening dice score at least a fresh roll's average (one roll ahead)."""
        pos = game.position
        w = self._w(game.variant)
        roll = roll_of(game)
        assert roll is not None
        keep = self._roll_score(pos, roll.dice, w)
        fresh = sum(p * self._roll_score(pos, r.dice, w) for r, p in ALL_ROLLS)
        return KEEP if keep >= fresh else REROLL

    def name_doubles(self, game: GameLike) -> int:
        """The doubles whose best play scores most (the highest number on ties)."""
        pos = game.position
        w = self._w(game.variant)
        scores = [(_best_boards(pos, (k, k), w)[0], k) for k in range(1, 7)]
        return max(scores)[1]

    def __repr__(self) -> str:
        return "HeuristicBot()" if self.weights is None else f"HeuristicBot({self.weights!r})"


class PerfectMiniGamBot(Bot):
    """Perfect Mini-Gam play: the play with the highest exact winning chance.

    ``table`` is a :class:`~backgammon_lab.analysis.solve.MiniGamTable`; by default the cached
    table of the game's variant is loaded (``backgammon-lab solve minigam`` builds it), or for
    fewer than five checkers solved on the spot.
    """

    name = "perfect"

    def __init__(self, table: Any = None) -> None:
        self._table = table
        self._path = getattr(table, "path", None)

    def table_for(self, variant: Variant) -> Any:
        """The solved table for ``variant`` (loads or builds it once)."""
        from .solve import get_table, load_table

        t = self._table
        if t is None and self._path is not None:
            t = self._table = load_table(self._path)
        if t is None or t.variant != variant:
            t = get_table(variant, build=variant.checkers <= 4)
            if t is None:
                raise TableMissingError(f"no solved table for {variant!r}; run `backgammon-lab solve minigam"
                                        f"{' --checkers ' + str(variant.checkers) if variant.checkers != 8 else ''}`")
            self._table = t
        return t

    def choose_play(self, game: GameLike, plays: Sequence[Play]) -> Play:
        """The play with the highest winning chance after it (the first one on ties)."""
        t = self.table_for(game.variant)
        best = plays[0]
        best_v = -1.0
        for p in plays:
            val = t.value_after(p.position)
            if val > best_v + 1e-12:
                best, best_v = p, val
        return best

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the table's file name rather than its 31 MB of values (for rollout workers)."""
        state = dict(self.__dict__)
        table = state.get("_table")
        if table is not None and getattr(table, "path", None) is not None:
            state["_table"] = None
            state["_path"] = table.path
        return state

    def __repr__(self) -> str:
        return "PerfectMiniGamBot()"
