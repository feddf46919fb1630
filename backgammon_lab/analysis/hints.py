"""Hints: every legal play of a roll ranked by winning chance, and Mexican's own decisions.

* :func:`hint` -- for a position and dice, every legal play with the mover's winning chance after
  it, best first: **exact** in Mini-Gam when the solved table is at hand
  (:mod:`backgammon_lab.analysis.solve`), otherwise by a rollout of each play (same seed for every
  play, so their differences are measured on the same dice). :meth:`Hint.error` gives the
  error of any play against the best, :meth:`Hint.arrows` the steps to draw with
  ``backgammon_lab.svg.board(position, arrows=...)``.
* :func:`opening_hint` -- Mexican M2: keep the opening dice or roll both again.
* :func:`doubles_hint` -- Mexican M8: which doubles to name after a Mexican, all six ranked.

Winning chances are always for the player who makes the decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import MakePlay, Phase, advance, dice_state, position_state
from ..errors import AnalysisError, TableMissingError
from ..game import Game
from ..position import Play, Position, Roll, Step
from ..rules import legal_plays
from .bots import Bot, HeuristicBot, evaluate
from .rollout import rollout
from .table import Table, fmt_prob

__all__ = ["hint", "Hint", "RankedPlay", "opening_hint", "doubles_hint", "Decision", "DecisionHint"]


@dataclass
class RankedPlay:
    """One play with the mover's winning chance after it and its error against the best."""

    rank: int
    play: Play
    text: str
    win: float | None
    stderr: float | None
    error: float | None

    @property
    def arrows(self) -> tuple[Step, ...]:
        """The steps, for ``svg.board(position, arrows=...)``."""
        return self.play.steps

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the play as move text and as [start, end] steps)."""
        return {"rank": self.rank, "play": self.text, "steps": [[s.start, s.end] for s in self.play.steps],
                "win": self.win, "stderr": self.stderr, "error": self.error}


@dataclass
class Hint:
    """The legal plays of ``dice`` in ``position``, best first (see :func:`hint`)."""

    position: Position
    dice: Roll
    plays: list[RankedPlay]
    method: str  # "exact", "rollout" or "none" (one legal play or none)
    games: int = 0
    seed: int = 0
    bot: str = ""

    @property
    def best(self) -> RankedPlay:
        """The best play."""
        return self.plays[0]

    def find(self, play: Play | Position | str) -> RankedPlay:
        """The ranked entry of a play given as a Play, its resulting Position or move text."""
        if isinstance(play, str):
            target = legal_plays(self.position, self.dice).find(play).position
        elif isinstance(play, Play):
            target = play.position
        else:
            target = play
        for rp in self.plays:
            if rp.play.position == target:
                return rp
        raise AnalysisError(f"{play!r} is not a legal play of {self.dice} in {self.position.to_string()!r}")

    def error(self, play: Play | Position | str) -> float:
        """How much winning chance ``play`` gives up against the best play (0 for the best)."""
        rp = self.find(play)
        if rp.error is None:
            raise AnalysisError(f"{rp.text} was not evaluated (only the top candidates were rolled out)")
        return rp.error

    def arrows(self, rank: int = 1) -> tuple[Step, ...]:
        """The steps of the play ranked ``rank`` (1 = best), for the board's arrows."""
        return self.plays[rank - 1].arrows

    def svg(self, rank: int = 1, **options: Any) -> Any:
        """The board with the play ranked ``rank`` drawn as arrows (needs :mod:`backgammon_lab.svg`)."""
        from .. import svg

        return svg.board(self.position, arrows=self.arrows(rank), dice=self.dice.dice, **options)

    def table(self, top: int | None = None) -> Table:
        """The ranked plays as a table (the first ``top`` only, if given)."""
        rows = []
        for rp in self.plays[:top]:
            rows.append([rp.rank, rp.text or "(no move)", fmt_prob(rp.win, 2),
                         "" if rp.stderr is None else fmt_prob(rp.stderr, 2),
                         "" if rp.error is None else f"{rp.error * 100:.2f}"])
        how = {"exact": "exact, perfect play", "rollout": f"rollout, {self.games} games a play, seed {self.seed}, "
               f"{self.bot}", "none": "no choice"}.get(self.method, self.method)
        return Table(["#", "play", "win", "±", "error %"], rows,
                     title=f"{self.position.turn.capitalize()} to play {self.dice} ({how})",
                     align=["right", "left", "right", "right", "right"])

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"position": self.position.to_json(), "dice": list(self.dice.dice), "method": self.method,
                "games": self.games, "seed": self.seed, "plays": [rp.to_json() for rp in self.plays]}

    def __str__(self) -> str:
        return str(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def _exact_table(position: Position) -> Any:
    from .solve import get_table, solvable

    if not solvable(position.variant):
        return None

    return get_table(position.variant, build=position.variant.checkers <= 4)


def _heuristic_order(plays: Sequence[Play]) -> list[Play]:
    def score(p: Play) -> float:
        pos = p.position
        return evaluate(pos.board(), pos.variant, pos.off[1 if pos.turn == "white" else 0])

    return sorted(plays, key=score, reverse=True)


def hint(position: Position, dice: Any, *, games: int = 200, seed: int = 0, bot: Bot | None = None,
         workers: int = 1, progress: bool = False, exact: bool | None = None, named: bool = False,
         candidates: int | None = None, table: Any = None) -> Hint:
    """Every legal play of ``dice`` for the side to move, ranked by its winning chance after it.

    Mini-Gam uses the solved table when it is cached (``table`` gives one; ``exact=False``
    forces rollouts; boards of up to 4 checkers are solved on the spot). Otherwise each play is
    rolled out ``games`` times with ``bot`` (default :class:`HeuristicBot`) and the same
    ``seed``; ``candidates`` limits the rollouts to that many plays, the best by the heuristic
    evaluation (the others are listed after them, unrated). ``named`` marks the dice as doubles
    named after a Mexican (it changes nothing but the record of the turn).
    """
    roll = Roll.parse(dice)
    plays = list(legal_plays(position, roll))
    mover = position.turn
    t = table
    if t is None and exact is not False:
        t = _exact_table(position)
    if exact and t is None:
        raise TableMissingError("no solved Mini-Gam table for this position; run `backgammon-lab solve minigam`")
    if t is not None and exact is not False:
        scored = [(t.value_after(p.position), None, p) for p in plays]
        return _ranked(position, roll, scored, "exact")
    if len(plays) == 1:
        return _ranked(position, roll, [(None, None, plays[0])], "none")
    bot = bot if bot is not None else HeuristicBot()
    ordered = _heuristic_order(plays) if candidates else plays
    chosen = ordered[:candidates] if candidates else ordered
    start = dice_state(position, roll, named=named)
    scored_r: list[tuple[float | None, float | None, Play]] = []
    for p in chosen:
        g = advance(start, MakePlay(p))[0]
        if g.phase is Phase.OVER:
            scored_r.append((1.0 if g.winner == mover else 0.0, 0.0, p))
            continue
        r = rollout(g, bot, games=games, seed=seed, workers=workers, progress=progress, player=mover)
        scored_r.append((r.win, r.stderr, p))
    scored_r += [(None, None, p) for p in ordered[len(chosen):]]
    out = _ranked(position, roll, scored_r, "rollout")
    out.games, out.seed, out.bot = games, seed, getattr(bot, "name", type(bot).__name__)
    return out


def _ranked(position: Position, roll: Roll, scored: list[tuple[float | None, float | None, Play]],
            method: str) -> Hint:
    rated = sorted((s for s in scored if s[0] is not None), key=lambda s: -s[0])  # type: ignore[operator]
    unrated = [s for s in scored if s[0] is None]
    best = rated[0][0] if rated else None
    out = []
    for i, (win, err, play) in enumerate(rated + unrated, 1):
        error = None if win is None or best is None else best - win
        out.append(RankedPlay(i, play, str(play), win, err, error))
    return Hint(position, roll, out, method if rated else "none")


# ---------------------------------------------------------------------------------------------
# Mexican decisions


@dataclass
class Decision:
    """One option of a decision, with the decider's winning chance and the play it leads to."""

    rank: int
    option: Any
    win: float
    stderr: float
    error: float
    play: str = ""


@dataclass
class DecisionHint:
    """The options of a Mexican decision, best first."""

    kind: str  # "opening" or "name"
    position: Position
    options: list[Decision]
    games: int
    seed: int
    notes: str = ""
    details: dict[Any, Any] = field(default_factory=dict)

    @property
    def best(self) -> Decision:
        """The best option."""
        return self.options[0]

    def error(self, option: Any) -> float:
        """The winning chance ``option`` gives up against the best."""
        for d in self.options:
            if d.option == option:
                return d.error
        raise AnalysisError(f"{option!r} is not an option of this decision: {[d.option for d in self.options]}")

    def table(self) -> Table:
        """The ranked options as a table."""
        label = "option" if self.kind == "opening" else "name"
        rows = [[d.rank, f"{d.option}-{d.option}" if self.kind == "name" else d.option, d.play,
                 fmt_prob(d.win, 2), fmt_prob(d.stderr, 2), f"{d.error * 100:.2f}"] for d in self.options]
        title = ("Keep the opening dice or roll again" if self.kind == "opening" else "Which doubles to name") + \
            f" ({self.position.turn}; rollout, {self.games} games, seed {self.seed})"
        return Table(["#", label, "best play", "win", "±", "error %"], rows, title=title, notes=self.notes,
                     align=["right", "left", "left", "right", "right", "right"])

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"kind": self.kind, "position": self.position.to_json(), "games": self.games, "seed": self.seed,
                "options": [{"rank": d.rank, "option": d.option, "win": d.win, "stderr": d.stderr,
                             "error": d.error, "play": d.play} for d in self.options]}

    def __str__(self) -> str:
        return str(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def _decision(kind: str, position: Position, opts: list[tuple[Any, float, float, str]], games: int, seed: int,
              notes: str) -> DecisionHint:
    opts = sorted(opts, key=lambda o: -o[1])
    best = opts[0][1]
    ds = [Decision(i, o, w, s, best - w, play) for i, (o, w, s, play) in enumerate(opts, 1)]
    return DecisionHint(kind, position, ds, games, seed, notes)


def _mexican_position(start: Position | Game, phase: str) -> tuple[Position, Roll | None]:
    if isinstance(start, Game):
        if start.phase != phase:
            raise AnalysisError(f"the game is in phase {start.phase!r}, not {phase!r}")
        pos, dice = start.position, start.dice
    else:
        pos, dice = start, None
    if not pos.variant.mexican:
        raise AnalysisError(f"this decision belongs to Mexican Backgammon, not {pos.variant.title}")
    return pos, dice


def opening_hint(start: Position | Game, dice: Any = None, *, games: int = 200, seed: int = 0,
                 bot: Bot | None = None, candidates: int = 3, workers: int = 1, progress: bool = False) -> DecisionHint:
    """Mexican M2: keep the opening dice or roll both again, for the opening winner.

    ``start`` is a Game in phase ``choice`` or the position with the opening winner to move and
    ``dice`` the opening roll. *Keep* is worth the best of the ``candidates`` plays the heuristic
    likes most, each rolled out; *re-roll* is a rollout from a fresh roll by the same player.
    """
    pos, gdice = _mexican_position(start, "choice")
    roll = Roll.parse(dice if dice is not None else gdice)
    bot = bot if bot is not None else HeuristicBot()
    h = hint(pos, roll, games=games, seed=seed, bot=bot, workers=workers, progress=progress, candidates=candidates)
    keep = h.best
    rr = rollout(position_state(pos), bot, games=games, seed=seed, workers=workers, progress=progress,
                 player=pos.turn)
    opts = [("keep", keep.win or 0.0, keep.stderr or 0.0, keep.text), ("reroll", rr.win, rr.stderr, "")]
    out = _decision("opening", pos, opts, games, seed,
                    f"keep: the best of {candidates} candidate plays of {roll}; reroll: a fresh roll played by {bot.name}")
    out.details["keep"] = h
    return out


def doubles_hint(start: Position | Game, *, games: int = 200, seed: int = 0, bot: Bot | None = None,
                 candidates: int = 3, workers: int = 1, progress: bool = False) -> DecisionHint:
    """Mexican M8: which doubles to name after a Mexican, all six ranked.

    ``start`` is a Game in phase ``name`` or the position after the 1-2 (the mover still to
    move). Each named doubles is worth the best of its ``candidates`` plays (the heuristic's
    favourites), each rolled out; the turn's re-roll after four moves is part of the rollout.
    """
    pos, _ = _mexican_position(start, "name")
    bot = bot if bot is not None else HeuristicBot()
    opts = []
    details = {}
    for k in range(1, 7):
        h = hint(pos, (k, k), games=games, seed=seed, bot=bot, workers=workers, progress=progress,
                 candidates=candidates, named=True)
        details[k] = h
        b = h.best
        if b.win is None:  # a single legal play (or none): roll it out as it is
            g = dice_state(pos, Roll(k, k), named=True)
            if g.phase is Phase.PLAY:
                g = advance(g, MakePlay(b.play))[0]
            if g.phase is Phase.OVER:
                win, err = (1.0 if g.winner == pos.turn else 0.0), 0.0
            else:
                r = rollout(g, bot, games=games, seed=seed, workers=workers, progress=progress, player=pos.turn)
                win, err = r.win, r.stderr
        else:
            win, err = b.win, b.stderr or 0.0
        opts.append((k, win, err, b.text))
    out = _decision("name", pos, opts, games, seed,
                    f"each doubles: the best of {candidates} candidate plays, rolled out with {bot.name}")
    out.details.update(details)
    return out
