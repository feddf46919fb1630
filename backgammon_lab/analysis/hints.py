"""Hints: every legal play of a roll ranked by a net (or exactly), and Mexican's own decisions.

* :func:`hint` -- for a position and dice, every legal play with the mover's winning chance and
  cubeless equity after it, best first, and the loss of each against the best. **Exact** in
  Mini-Gam when the solved table is at hand (:mod:`backgammon_lab.analysis.solve`); otherwise the
  variant's net (:mod:`backgammon_lab.analysis.nets`) looking ``ply`` 0, 1 or 2 rolls ahead (by
  default 2, in Mexican 1), and optionally a rollout of the best candidates with the net's bot and
  variance reduction (``games=N``); all of it said by one
  :class:`~backgammon_lab.analysis.options.Options`. :meth:`Hint.error` gives the winning chance any play gives up,
  :meth:`Hint.loss` its equity loss, :meth:`Hint.arrows` the steps to draw with
  ``backgammon_lab.svg.board(position, arrows=...)`` (a hint hands data; the pictures draw it).
* :func:`opening_hint` -- Mexican M2: keep the opening dice or roll both again.
* :func:`doubles_hint` -- Mexican M8: which doubles to name after a Mexican, all six ranked.

Plies (the net's look-ahead)
    0-ply: the net on the position each play reaches (after a Mexican, the best of the six named
    doubles' best plays); 1-ply: the average over the 21 rolls that may come next of the best
    reply, valued by the net; 2-ply: one more roll of the same. A ply is a roll of the dice, not
    a change of player (Mexican chains keep the player's point of view). The search is the one of
    :mod:`backgammon_lab.analysis.search` (:class:`~backgammon_lab.analysis.search.Evaluator`,
    computed in the compiled kernel); deeper plies are spent only on the plays that pass GNU
    Backgammon's "normal" move filter (:data:`~backgammon_lab.analysis.options.FILTERS`, the
    options' ``filters``): the best 8 plays of 0-ply within 0.16 equity of the best are valued at
    1-ply and then all of them at 2-ply. The others keep the value of the deepest ply they reached,
    shown in the table.

Winning chances and equities are for the player who makes the decision. Equity is cubeless, in
points a game: ``2 win - 1`` plus gammons and backgammons in standard backgammon (the net's five
outputs), ``2 win - 1`` elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..engine import (
    KEEP,
    REROLL,
    Action,
    MakePlay,
    NameDoubles,
    Phase,
    TurnState,
    advance,
    choice_state,
    dice_state,
    naming_state,
)
from ..errors import AnalysisError, TableMissingError
from ..game import Game
from ..position import Play, Position, Roll, Step
from .options import FILTERS, Options, as_options
from .search import Evaluator, equity_of, evaluator_for, move_filter, rank_key
from .table import Table, fmt_prob

__all__ = ["hint", "Hint", "RankedPlay", "opening_hint", "doubles_hint", "Decision", "DecisionHint",
           "Options", "Evaluator", "evaluator_for", "FILTERS"]

# ---------------------------------------------------------------------------------------------
# hints

#: Given for a field of :class:`RankedPlay` that is computed when it is first read.
_LATER: Any = type("Later", (), {"__repr__": lambda self: "LATER"})()


class _Later:
    """A dataclass field computed the first time it is read (``make(obj)``), then kept, unless a
    value was given for it: most of a hint's plays are never printed, so their move text and
    their values as a dict cost nothing until someone looks (reprs and equality read them)."""

    def __init__(self, name: str, make: Any) -> None:
        self.make = make
        self.key = f"_{name}_value"

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        got = obj.__dict__.get(self.key, _LATER)
        if got is _LATER:
            got = obj.__dict__[self.key] = self.make(obj)
        return got

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.key] = value


def _text_of(rp: RankedPlay) -> str:
    return str(rp.play)


def _values_of(rp: RankedPlay) -> dict[str, float]:
    source = rp.__dict__.get("_source")
    return _values_dict(*source) if source is not None else {}


@dataclass
class RankedPlay:
    """One play with the mover's values after it and its loss against the best.

    ``win``: the winning chance after the play; ``error``: the winning chance it gives up against
    the best play; ``equity``: cubeless equity (points a game); ``loss``: the equity it gives up
    (never negative). ``how``: what valued it (``"exact"``, ``"0-ply"``, ``"1-ply"``, ``"2-ply"``,
    ``"rollout"``); ``values``: the net's outputs. Rollouts add ``stderr`` (of ``win``),
    ``equity_stderr`` and ``loss_stderr`` (the error of the loss, from the games paired by their
    dice); ``close`` says the loss is within two of those errors, so the two plays cannot be told
    apart by this rollout.
    """

    rank: int
    play: Play
    text: str  # given, or (a hint's) the play's move text, written when first read
    win: float | None
    stderr: float | None
    error: float | None
    equity: float | None = None
    loss: float | None = None
    how: str = ""
    values: dict[str, float] = field(default_factory=dict)  # given, or (a hint's) made when first read
    equity_stderr: float | None = None
    loss_stderr: float | None = None
    close: bool = False

    @property
    def arrows(self) -> tuple[Step, ...]:
        """The steps, for ``svg.board(position, arrows=...)``."""
        return self.play.steps

    @classmethod
    def _quick(cls, rank: int, play: Play, win: float | None, stderr: float | None, error: float | None,
               equity: float | None, loss: float | None, how: str, equity_stderr: float | None,
               loss_stderr: float | None, source: tuple[Sequence[str], Any] | None) -> RankedPlay:
        """A ranked play as the constructor makes it, its text and values left to be made when read
        (from ``play`` and from ``source``, the outputs' names and the row): a hint makes dozens."""
        rp = cls.__new__(cls)
        rp.__dict__.update(rank=rank, play=play, _text_value=_LATER, win=win, stderr=stderr, error=error,
                           equity=equity, loss=loss, how=how, _values_value=_LATER, equity_stderr=equity_stderr,
                           loss_stderr=loss_stderr, close=False, _source=source)
        return rp

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the play as move text and as [start, end] steps)."""
        return {"rank": self.rank, "play": self.text, "steps": [[s.start, s.end] for s in self.play.steps],
                "win": self.win, "stderr": self.stderr, "error": self.error, "equity": self.equity,
                "loss": self.loss, "how": self.how, "values": dict(self.values),
                "equity_stderr": self.equity_stderr, "loss_stderr": self.loss_stderr, "close": self.close}


# set after the class is made, so that the dataclass sees plain fields (its __init__, repr and
# equality go through them)
RankedPlay.text = _Later("text", _text_of)  # type: ignore[assignment]
RankedPlay.values = _Later("values", _values_of)  # type: ignore[assignment]


@dataclass
class Hint:
    """The legal plays of ``dice`` in ``position``, best first (see :func:`hint`).

    ``method``: ``"exact"``, ``"net"`` (at ``ply``), ``"rollout"`` (``games`` a play, ``seed``,
    ``truncate``) or ``"none"`` (no legal move).
    """

    position: Position
    dice: Roll
    plays: list[RankedPlay]
    method: str
    games: int = 0
    seed: int = 0
    bot: str = ""
    ply: int = 0
    named: bool = False
    gammons: bool = False
    truncate: int | None = None
    notes: str = ""
    luck: bool = False

    @property
    def best(self) -> RankedPlay:
        """The best play."""
        return self.plays[0]

    def find(self, play: Play | Position | str | Sequence[Any] | MakePlay) -> RankedPlay:
        """The ranked entry of a play given as a Play, its resulting Position, move text, its steps or
        the engine's ``MakePlay`` action (what bots return)."""
        st = dice_state(self.position, self.dice, named=self.named)
        if isinstance(play, MakePlay):  # a bot's action
            play = play.play
        if isinstance(play, Position):
            target = play
        elif isinstance(play, (str, Play, list, tuple)) and st.phase is Phase.PLAY:
            from ..engine import as_action

            try:
                act = as_action(st, play)
            except ValueError as e:
                raise AnalysisError(f"{play!r} is not a legal play of {self.dice} in {self.position.to_string()!r}: "
                                    f"{e}") from None
            assert isinstance(act, MakePlay)
            target = act.play.position
        else:
            raise AnalysisError(f"{play!r} is not a legal play of {self.dice} in {self.position.to_string()!r}")
        for rp in self.plays:
            if rp.play.position == target:
                return rp
        raise AnalysisError(f"{play!r} is not a legal play of {self.dice} in {self.position.to_string()!r}")

    def error(self, play: Play | Position | str | Sequence[Any] | MakePlay) -> float:
        """How much winning chance ``play`` gives up against the best play (0 for the best)."""
        rp = self.find(play)
        if rp.error is None:
            raise AnalysisError(f"{rp.text} was not evaluated")
        return rp.error

    def loss(self, play: Play | Position | str | Sequence[Any] | MakePlay) -> float:
        """How much equity ``play`` gives up against the best play (0 for the best)."""
        rp = self.find(play)
        if rp.loss is None:
            raise AnalysisError(f"{rp.text} was not evaluated")
        return rp.loss

    def arrows(self, rank: int = 1) -> tuple[Step, ...]:
        """The steps of the play ranked ``rank`` (1 = best), for the board's arrows: a hint hands
        data and the pictures draw it, ``svg.board(h.position, arrows=h.arrows(), dice=h.dice)``."""
        return self.plays[rank - 1].arrows

    @property
    def how(self) -> str:
        """What the values are, in words (for the table's title)."""
        if self.method == "exact":
            return "exact, perfect play"
        if self.method == "rollout":
            cut = (f", truncated after {self.truncate} turns" if self.truncate else "") + (
                ", luck taken off" if self.luck else "")
            games = "1 game" if self.games == 1 else f"{self.games} games"
            return f"rollout, {games} a play, seed {self.seed}, {self.bot}{cut}"
        if self.method == "net":
            return f"net, {self.ply}-ply"
        return "no legal move"

    def table(self, top: int | None = None) -> Table:
        """The ranked plays as a table (the first ``top`` only, if given)."""
        rollout = any(rp.stderr is not None for rp in self.plays)
        rows = []
        for rp in self.plays[:top]:
            row: list[Any] = [rp.rank, rp.text or "(no move)", rp.how, fmt_prob(rp.win, 1)]
            if self.gammons:
                row += [fmt_prob(rp.values.get("win_gammon"), 1) if rp.values else "-",
                        fmt_prob(rp.values.get("lose_gammon"), 1) if rp.values else "-",
                        "-" if rp.equity is None else f"{rp.equity:+.3f}",
                        "-" if rp.loss is None else f"{rp.loss:.3f}"]
            else:
                row.append("-" if rp.error is None else f"{rp.error * 100:.2f}")
            if rollout:
                err = rp.loss_stderr if self.gammons else (None if rp.loss_stderr is None else rp.loss_stderr / 2)
                scale = 1.0 if self.gammons else 100.0
                row.append("" if err is None else f"{err * scale:.{3 if self.gammons else 2}f}")
                row.append("~" if rp.close else "")
            rows.append(row)
        cols = ["#", "play", "by", "win"]
        align = ["right", "left", "left", "right"]
        if self.gammons:
            cols += ["gammon", "lose g.", "equity", "loss"]
            align += ["right"] * 4
        else:
            cols.append("loss %")
            align.append("right")
        notes = self.notes
        if rollout:
            cols += ["±", ""]
            align += ["right", "left"]
            extra = ("±: the error of the loss (games paired by their dice); ~: within two errors of the best "
                     "play, so this rollout cannot tell them apart")
            notes = f"{notes}\n{extra}" if notes else extra
        named = " (named doubles)" if self.named else ""
        return Table(cols, rows, title=f"{self.position.turn.capitalize()} to play {self.dice}{named} ({self.how})",
                     align=align, notes=notes)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"position": self.position.to_json(), "dice": list(self.dice.dice), "named": self.named,
                "method": self.method, "ply": self.ply, "games": self.games, "seed": self.seed,
                "truncate": self.truncate, "gammons": self.gammons, **({"luck": True} if self.luck else {}),
                "plays": [rp.to_json() for rp in self.plays]}

    def __str__(self) -> str:
        return str(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def _values_dict(outputs: Sequence[str], row: np.ndarray) -> dict[str, float]:
    return dict(zip(outputs, np.asarray(row, dtype=np.float64).tolist(), strict=True))


def _play_state(position: Position, roll: Roll, named: bool) -> TurnState:
    if position.is_over:
        raise AnalysisError(f"the game is over in {position.to_string()!r}: nothing to play")
    return dice_state(position, roll, named=named)


def hint(position: Position, dice: Any, options: Options | None = None, *, named: bool = False) -> Hint:
    """Every legal play of ``dice`` for the side to move, ranked, best first.

    ``options`` (an :class:`~backgammon_lab.analysis.options.Options`; None: the defaults) say how:
    its ``evaluator`` values the plays (by default exact in Mini-Gam when the solved table is at
    hand, else the variant's shipped net), at ``ply`` rolls of look-ahead (default 2) through the
    move ``filters`` (see the module docstring). With ``games`` the best plays by the first filter
    (at most 8 within 0.16 equity of the best by default) are then rolled out, ``games`` each, by
    ``bot`` (default the net's bot), with the same ``seed`` for every play (the same dice, game by
    game), the first rolls stratified over the 36 (from 1,296 games, 1,296) outcomes, and
    ``truncate`` turns then the evaluator (None: to the end), with each roll's luck taken off
    (``luck``, by the evaluator); ``workers``/``executor`` spread the
    games (see :func:`~backgammon_lab.analysis.rollout.rollout`). An exact hint is never rolled
    out. ``named`` marks the dice as doubles named after a Mexican.

    >>> h = hint(Position.start("standard"), (3, 1), Options(ply=0))
    >>> len(h.plays), h.how
    (16, 'net, 0-ply')
    """
    opts = as_options(options)
    roll = Roll.parse(dice)
    state = _play_state(position, roll, named)
    if state.phase is not Phase.PLAY:  # no legal move
        empty = Play((), position)
        return Hint(position, roll, [RankedPlay(1, empty, "", None, None, None, how="none")], "none", named=named)
    games, bot = opts.games, opts.bot
    choice = opts.evaluator
    if games and choice is None and getattr(bot, "net", None) is not None:
        choice = bot.net  # type: ignore[union-attr]  # a NetBot's own net ranks the plays it rolls out
    ev: Evaluator | None
    try:
        ev = evaluator_for(position, choice)
    except TableMissingError:
        if not (games and bot is not None) or choice == "exact":
            raise
        ev = None  # an explicit rollout by a bot of the caller's, with no net to rank the plays first
    plays = list(state.plays or ())
    ranked: dict[int, dict[str, Any]] = {}
    ply = opts.ply_for(position.variant)
    if ev is None:
        order = _heuristic_order(state.turn_start, plays)
        ranked = {i: {"how": "unrated", "order": k} for k, i in enumerate(order)}
        method = "rollout"
    else:
        ranked = ev.rank_plays(state, ply, opts.filters)
        method = "exact" if ev.kind == "exact" else "net"
    gammons = ev.gammons if ev is not None else position.variant.gammons
    out = Hint(position, roll, [], method, ply=ply if method == "net" else 0, named=named, gammons=gammons)
    if games and method != "exact":
        count, threshold = opts.filters[0] if opts.filters else (len(plays), 1e9)
        _rollout_plays(out, ev, state, plays, ranked, opts, count=count,
                       threshold=threshold if ev is not None else 1e9)
    _rank(out, plays, ranked, ev.outputs if ev is not None else ())
    return out


def _heuristic_order(position: Position, plays: Sequence[Play]) -> list[int]:
    """Indices of ``plays``, best first by the hand-made evaluation (for bots without a net)."""
    from .bots import evaluate

    def score(i: int) -> float:
        pos = plays[i].position
        return evaluate(pos.board(), pos.variant, pos.opponent_off)

    return sorted(range(len(plays)), key=lambda i: (-score(i), i))


def _rank(out: Hint, plays: list[Play], ranked: dict[int, dict[str, Any]], outputs: Sequence[str]) -> None:
    """Fill ``out.plays``: the deepest evaluations first, each group by equity (unrated plays last).
    The move texts and the values dicts are left to be made when read (:class:`_Later`)."""
    eqs: dict[int, float | None] = {}
    wins: dict[int, float | None] = {}
    for i, r in ranked.items():
        if "equity" in r:  # a rollout's
            eqs[i], wins[i] = float(r["equity"]), float(r["win"])
        elif "row" in r:
            row = r["row"]
            eqs[i], wins[i] = (r["eq"] if "eq" in r else equity_of(row)), float(row[0])
        else:
            eqs[i] = wins[i] = None
    order = sorted(ranked, key=lambda i: rank_key(ranked[i], i, eqs[i]))
    best = order[0]
    top = ranked[best]
    best_rows = top.get("rows", {})
    append = out.plays.append
    make = RankedPlay._quick
    for rank, i in enumerate(order, 1):
        r = ranked[i]
        w, e, how = wins[i], eqs[i], r["how"]
        # the loss is measured against the best play valued the same way (the best play went
        # through every ply the others reached)
        same = best_rows.get(how) if how != top["how"] else None
        best_eq: float | None
        best_win: float | None
        if same is not None:
            best_eq, best_win = equity_of(same), float(same[0])
        else:
            best_eq, best_win = eqs[best], wins[best]
        rp = make(rank, plays[i], w, r.get("stderr"), None if w is None or best_win is None else best_win - w, e,
                  None if e is None or best_eq is None else max(0.0, best_eq - e), how,
                  r.get("equity_stderr"), r.get("loss_stderr"),
                  (outputs, r["row"]) if outputs and how != "rollout" and "row" in r else None)
        if rp.loss_stderr is not None and i != best and rp.loss is not None:
            rp.close = rp.loss < 2 * rp.loss_stderr
        append(rp)


def _rollout_plays(out: Hint, ev: Evaluator | None, state: TurnState, plays: list[Play], ranked: dict[int, dict[str, Any]],
                   opts: Options, *, count: int, threshold: float) -> None:
    from .rollout import rollout as run
    from .rollout import stratified_stderr

    games, bot, executor = opts.games, opts.bot, opts.executor
    assert games is not None
    if bot is None:
        assert ev is not None and ev.net is not None
        from .netbot import NetBot

        bot = NetBot(ev.net)
    if ev is not None:
        scores = {i: equity_of(ranked[i]["row"]) for i in ranked}
        order = sorted(scores, key=lambda i: (-scores[i], i))
        chosen = move_filter(order, scores, count, threshold)
    else:
        chosen = sorted(ranked, key=lambda i: ranked[i]["order"])[:count]
    mover = state.player
    samples: dict[int, list[float]] = {}
    pool = None
    if executor is None and opts.workers > 1:  # one pool for every candidate, not one each
        from .rollout import process_pool

        pool = executor = process_pool(opts.workers)
    # the games of every candidate: its bot, its pool, and the net that values truncated games
    each = replace(opts, bot=bot, executor=executor,
                   evaluator=ev.net if ev is not None and (opts.truncate or opts.luck) else None)
    finished = False
    try:
        for i in chosen:
            after = advance(state, MakePlay(plays[i]))[0]
            if after.phase is Phase.OVER:
                won = after.winner == mover
                e = float(after.points if won else -after.points)
                ranked[i].update(how="rollout", win=1.0 if won else 0.0, equity=e, stderr=0.0, equity_stderr=0.0)
                samples[i] = [ranked[i]["equity"]] * games
                continue
            r = run(after, each, player=mover, stratify=True)
            ranked[i].update(how="rollout", win=r.win, equity=r.points, stderr=r.stderr,
                             equity_stderr=r.points_stderr)
            samples[i] = [p for _, p in r.samples]
        finished = True
    finally:
        if pool is not None:
            from .rollout import close_pool

            close_pool(pool, finished=finished)
    if samples:
        best = max(samples, key=lambda i: (ranked[i]["equity"], -i))
        for i, s in samples.items():
            diffs = [a - b for a, b in zip(samples[best], s, strict=True)]
            ranked[i]["loss_stderr"] = stratified_stderr(diffs)
    out.method, out.games, out.seed, out.truncate, out.luck = "rollout", games, opts.seed, opts.truncate, opts.luck
    out.bot = getattr(bot, "name", type(bot).__name__)


# ---------------------------------------------------------------------------------------------
# Mexican decisions


@dataclass
class Decision:
    """One option of a decision, with the decider's winning chance and equity, and the play it
    leads to. ``error``: winning chance given up against the best option; ``loss``: equity."""

    rank: int
    option: Any
    win: float
    stderr: float | None
    error: float
    play: str = ""
    equity: float = 0.0
    loss: float = 0.0


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
    method: str = "net"
    ply: int = 0

    @property
    def best(self) -> Decision:
        """The best option."""
        return self.options[0]

    def find(self, option: Any) -> Decision:
        """The entry of ``option`` (``"keep"``/``"reroll"``, or a number 1..6)."""
        for d in self.options:
            if d.option == option or str(d.option) == str(option):
                return d
        raise AnalysisError(f"{option!r} is not an option of this decision: {[d.option for d in self.options]}")

    def error(self, option: Any) -> float:
        """The winning chance ``option`` gives up against the best."""
        return self.find(option).error

    def loss(self, option: Any) -> float:
        """The equity ``option`` gives up against the best."""
        return self.find(option).loss

    def table(self) -> Table:
        """The ranked options as a table."""
        label = "option" if self.kind == "opening" else "name"
        rows = [[d.rank, f"{d.option}-{d.option}" if self.kind == "name" else d.option, d.play,
                 fmt_prob(d.win, 2), "" if d.stderr is None else fmt_prob(d.stderr, 2), f"{d.equity:+.3f}",
                 f"{d.loss:.3f}"] for d in self.options]
        how = (f"rollout, {self.games} games, seed {self.seed}" if self.method == "rollout"
               else f"net, {self.ply}-ply" if self.method == "net" else self.method)
        title = ("Keep the opening dice or roll again" if self.kind == "opening" else "Which doubles to name") + \
            f" ({self.position.turn}; {how})"
        return Table(["#", label, "best play", "win", "±", "equity", "loss"], rows, title=title, notes=self.notes,
                     align=["right", "left", "left", "right", "right", "right", "right"])

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"kind": self.kind, "position": self.position.to_json(), "method": self.method, "ply": self.ply,
                "games": self.games, "seed": self.seed,
                "options": [{"rank": d.rank, "option": d.option, "win": d.win, "stderr": d.stderr,
                             "error": d.error, "play": d.play, "equity": d.equity, "loss": d.loss}
                            for d in self.options]}

    def __str__(self) -> str:
        return str(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def _decision(kind: str, position: Position, opts: list[tuple[Any, float, float | None, str, float]], games: int,
              seed: int, notes: str, method: str, ply: int) -> DecisionHint:
    opts = sorted(opts, key=lambda o: -o[4])
    best_win, best_eq = opts[0][1], opts[0][4]
    ds = [Decision(i, o, w, s, best_win - w, play, e, max(0.0, best_eq - e))
          for i, (o, w, s, play, e) in enumerate(opts, 1)]
    return DecisionHint(kind, position, ds, games, seed, notes, method=method, ply=ply)


def _decision_state(start: Position | Game | TurnState, phase: Phase, dice: Any) -> TurnState:
    if isinstance(start, Game):
        start = start.state
    if isinstance(start, TurnState):
        if start.phase is not phase:
            raise AnalysisError(f"the game is in phase {start.phase.value!r} ({start.hint()}), not {phase.value!r}")
        if not start.variant.mexican:
            raise AnalysisError(f"this decision belongs to Mexican Backgammon, not {start.variant.title}")
        return start
    if not isinstance(start, Position):
        raise AnalysisError(f"a decision is asked of a Game, a TurnState or a Position, not {start!r:.200}")
    if not start.variant.mexican:
        raise AnalysisError(f"this decision belongs to Mexican Backgammon, not {start.variant.title}")
    if start.is_over:
        raise AnalysisError(f"the game is over in {start.to_string()!r}")
    if phase is Phase.CHOICE:
        if dice is None:
            raise AnalysisError("opening_hint of a Position needs the opening dice")
        roll = Roll.parse(dice)
        if roll.is_double:
            raise AnalysisError(f"an opening roll is never doubles, not {roll}")
        return choice_state(start, roll)
    return naming_state(start)


def _option_values(state: TurnState, actions: Sequence[Action], opts: Options
                   ) -> tuple[list[tuple[float, float | None, str, float]], str]:
    """(win, stderr, best play, equity) of each action for the decider, and the method."""
    ev: Evaluator | None = None
    games, bot = opts.games, opts.bot
    try:
        ev = evaluator_for(state.position, opts.evaluator, solved=False)
    except TableMissingError:
        if not (games and bot is not None):
            raise
    out: list[tuple[float, float | None, str, float]] = []
    each: Options | None = None
    if games:
        from .netbot import NetBot
        from .rollout import rollout as run

        each = replace(opts, bot=bot if bot is not None else NetBot(ev.net if ev is not None else None),
                       evaluator=(ev.net if ev is not None else None) if opts.truncate or opts.luck else None)
    for a in actions:
        nxt = advance(state, a)[0]
        play = ""
        if nxt.phase is Phase.PLAY:
            assert nxt.plays is not None
            if ev is not None:
                play = str(nxt.plays[ev.best_play(nxt, 0)[0]])
            else:
                assert bot is not None
                play = str(bot.choose_play(nxt, list(nxt.plays)))
        if each is not None:
            if nxt.phase is Phase.OVER:
                won = nxt.winner == state.player
                out.append((1.0 if won else 0.0, 0.0, play, float(nxt.points if won else -nxt.points)))
                continue
            r = run(nxt, each, player=state.player, stratify=True)
            out.append((r.win, r.stderr, play, r.points))
            continue
        assert ev is not None
        row = ev.decision_value(state, a, opts.ply_for(state.variant))
        out.append((float(row[0]), None, play, equity_of(row)))
    return out, ("rollout" if games else "net")


def opening_hint(start: Position | Game | TurnState, dice: Any = None, options: Options | None = None
                 ) -> DecisionHint:
    """Mexican M2: keep the opening dice or roll both again, for the opening winner.

    ``start`` is a Game (or state) in phase ``choice``, or the position with the opening winner to
    move and ``dice`` the opening roll. *Keep* is worth the best play of the dice, *re-roll* the
    expected value over the 21 rolls of the best play, both by the net at the ``options``' ply
    (:class:`~backgammon_lab.analysis.options.Options`; None: the defaults); with ``games`` both are
    rolled out instead (``games`` each, by ``bot``, default the net's bot; stratified first rolls;
    ``truncate``).
    """
    if isinstance(dice, Options):
        raise AnalysisError(f"opening_hint(start, dice, options): {dice!r} was given as the dice; "
                            "pass options=... for a Game or a state")
    opts = as_options(options)
    state = _decision_state(start, Phase.CHOICE, dice)
    vals, method = _option_values(state, [KEEP, REROLL], opts)
    opts_rows = [("keep", *vals[0]), ("reroll", vals[1][0], vals[1][1], "", vals[1][3])]
    assert state.roll is not None
    n = opts.games or 0
    notes = (f"keep: the best play of {state.roll}; reroll: the average over the 21 rolls of the best play"
             if not n else f"both rolled out: {n} games each, seed {opts.seed}")
    return _decision("opening", state.position, opts_rows, n, opts.seed, notes, method,
                     opts.ply_for(state.variant))


def doubles_hint(start: Position | Game | TurnState, options: Options | None = None) -> DecisionHint:
    """Mexican M8: which doubles to name after a Mexican, all six ranked.

    ``start`` is a Game (or state) in phase ``name``, or the position after the 1-2 (the mover
    still to move). Each named doubles is worth its best play by the net at the ``options``' ply
    (:class:`~backgammon_lab.analysis.options.Options`; None: the defaults; a play of all four moves
    is followed by the same player's re-roll, in the net's look-ahead too); with ``games`` each is
    rolled out instead.
    """
    opts = as_options(options)
    state = _decision_state(start, Phase.NAME, None)
    acts = [NameDoubles(k) for k in range(1, 7)]
    vals, method = _option_values(state, acts, opts)
    rows = [(k, *vals[k - 1]) for k in range(1, 7)]
    n = opts.games or 0
    notes = "each doubles: its best play" + (f", rolled out ({n} games each, seed {opts.seed})" if n else " by the net")
    return _decision("name", state.position, rows, n, opts.seed, notes, method, opts.ply_for(state.variant))
