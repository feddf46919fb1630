"""Game analysis: every decision of a game judged, each player's error rate and luck, a chart.

>>> from backgammon_lab.game import Game
>>> g = Game("standard", seed=3)
>>> _ = g.roll((3, 1)).play("8/5 6/5")
>>> a = analyse(g, Options(ply=0))
>>> [(d.player, d.kind, d.choice) for d in a.decisions]
[('white', 'play', '8/5 6/5')]

:func:`analyse` takes a :class:`~backgammon_lab.game.Game` or its record (a dict, or JSON text)
and goes through the game's history on the turn engine:

* **Decisions**: every play (phase ``play``), Mexican's keep-or-re-roll (``choice``, M2) and naming
  of doubles (``name``, M8). Each gets the choice made, the best choice, the **loss** (the equity
  given up against the best, cubeless, in points a game; ``2 win - 1`` where there are no gammons)
  and a **mark** with GNU Backgammon's thresholds (``arSkillLevel`` in gnubg's ``gnubg.c``):
  *doubtful* from a loss of 0.04, *bad* from 0.08, *very bad* from 0.16. A decision with one legal
  choice is *forced*.
* **Error rate** per player: the mean loss over the non-forced decisions, times 1000 (GNU
  Backgammon's "error rate" in millipoints per move).
* **Luck** per roll: the roller's value after the roll (its best play at 0-ply) minus its value
  before it (the average of the same over the 21 rolls), so luck averages to zero over the dice;
  summed per player. The opening roll counts for the player who wins it, from an even game (equity
  0). In Mexican the plays of a Mexican are valued here as if the mover rolled again (the naming is
  not looked up), which keeps the 21 rolls before each roll cheap; before and after are measured
  the same way, so the luck still averages to zero.
* **Chart**: White's winning chance before every roll, and the result, as an SVG line chart
  (:meth:`Analysis.svg`; the same bytes for the same game).

The search is a hint's (:func:`~backgammon_lab.analysis.hints.hint`), with the same
:class:`~backgammon_lab.analysis.options.Options`: exact for Mini-Gam when the solved table is at
hand, else the variant's net, by default 2 rolls ahead (1 in Mexican: a standard game of about 60
plays takes some seconds; ``Options(ply=0)`` a fraction of one). The options' ``executor`` (any
:class:`concurrent.futures.Executor`) or ``workers`` spread the decisions over processes or
machines, with the same result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..engine import Choice, MakePlay, NameDoubles, OpeningRoll, Phase, RollDice, TurnState
from ..errors import AnalysisError, BackgammonError, whole_number
from ..game import Game
from ..position import BLACK, WHITE, Player
from .hints import doubles_hint, hint, opening_hint
from .options import Options, as_options
from .search import Evaluator, equity_of, evaluator_for
from .table import Table

__all__ = ["analyse", "Analysis", "DecisionAnalysis", "RollAnalysis", "PlayerSummary", "mark", "THRESHOLDS"]

#: GNU Backgammon's marks and their equity thresholds (``arSkillLevel``), worst first.
THRESHOLDS: tuple[tuple[float, str], ...] = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))

_MARK_SIGN = {"very bad": "??", "bad": "?", "doubtful": "?!", "": ""}


def mark(loss: float) -> str:
    """``"very bad"``, ``"bad"``, ``"doubtful"`` or ``""`` for an equity loss (gnubg's thresholds)."""
    for threshold, name in THRESHOLDS:
        if loss >= threshold - 1e-12:
            return name
    return ""


@dataclass
class DecisionAnalysis:
    """One decision of the game: ``number`` is the action's place in the record (1 = the first)."""

    number: int
    player: Player
    kind: str  # "play", "choice" or "name"
    dice: str
    choice: str
    best: str
    loss: float
    win_loss: float
    equity: float
    best_equity: float
    forced: bool
    mark: str
    best_steps: tuple[tuple[int, int], ...] = ()
    position: str = ""  # the position the decision was made in (before the play, the choice or the naming)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        d = asdict(self)
        d["best_steps"] = [list(s) for s in self.best_steps]
        return d


@dataclass
class RollAnalysis:
    """One roll of the dice: the roller's equity before and after it, and the luck (the difference)."""

    number: int
    player: Player
    dice: str
    before: float
    after: float
    luck: float
    white_win: float  # White's winning chance before the roll

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


@dataclass
class PlayerSummary:
    """A player's figures over the game."""

    player: Player
    decisions: int = 0
    unforced: int = 0
    total_loss: float = 0.0
    doubtful: int = 0
    bad: int = 0
    very_bad: int = 0
    rolls: int = 0
    luck: float = 0.0

    @property
    def error_rate(self) -> float:
        """Mean equity lost per non-forced decision, times 1000 (0 with no such decision)."""
        return 1000.0 * self.total_loss / self.unforced if self.unforced else 0.0

    @property
    def luck_rate(self) -> float:
        """Mean luck per roll, times 1000."""
        return 1000.0 * self.luck / self.rolls if self.rolls else 0.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        d = asdict(self)
        d.update(error_rate=self.error_rate, luck_rate=self.luck_rate)
        return d


@dataclass
class Analysis:
    """The analysis of one game (see the module docstring)."""

    variant: str
    method: str
    ply: int
    decisions: list[DecisionAnalysis]
    rolls: list[RollAnalysis]
    players: dict[Player, PlayerSummary]
    chart: list[tuple[int, float]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    gammons: bool = False

    @property
    def how(self) -> str:
        """The evaluation, in words."""
        return "exact, perfect play" if self.method == "exact" else f"net, {self.ply}-ply"

    def table(self, *, all_decisions: bool = True) -> Table:
        """The decisions, one a row (``all_decisions=False``: only the marked ones)."""
        rows = []
        for d in self.decisions:
            if not all_decisions and not d.mark:
                continue
            rows.append([d.number, d.player, d.dice, d.kind, d.choice or "(no move)", d.best or "(no move)",
                         "forced" if d.forced else f"{d.loss:.3f}", "" if d.forced else f"{d.win_loss * 100:.1f}",
                         d.mark])
        return Table(["#", "player", "dice", "decision", "choice", "best", "loss", "win %", "mark"], rows,
                     title=f"Decisions ({self.how})",
                     align=["right", "left", "left", "left", "left", "left", "right", "right", "left"],
                     notes="loss: equity given up (points a game); win %: winning chance given up; marks from "
                           "a loss of 0.04 (doubtful), 0.08 (bad), 0.16 (very bad)")

    def summary(self) -> Table:
        """Per player: decisions, error rate, marks, luck."""
        rows = []
        for p in (WHITE, BLACK):
            s = self.players[p]
            rows.append([p, s.decisions, s.unforced, f"{s.total_loss:.3f}", f"{s.error_rate:.1f}", s.doubtful,
                         s.bad, s.very_bad, s.rolls, f"{s.luck:+.3f}", f"{s.luck_rate:+.1f}"])
        res = ""
        if self.result:
            res = f"; {self.result['winner']} won {self.result['points']} point{'s' if self.result['points'] > 1 else ''}"
        return Table(["player", "decisions", "unforced", "loss", "error rate", "doubtful", "bad", "very bad", "rolls",
                      "luck", "luck rate"], rows,
                     title=f"{self.variant} game analysed ({self.how}){res}",
                     align=["left"] + ["right"] * 10,
                     notes="error rate: mean loss per unforced decision x 1000; luck: equity the dice gave "
                           "(after the roll minus before it), summed; luck rate: per roll x 1000")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"variant": self.variant, "method": self.method, "ply": self.ply, "result": self.result,
                "players": {p: s.to_json() for p, s in self.players.items()},
                "decisions": [d.to_json() for d in self.decisions], "rolls": [r.to_json() for r in self.rolls],
                "chart": [list(c) for c in self.chart], "thresholds": {n: t for t, n in THRESHOLDS}}

    def chart_marks(self) -> list[tuple[int, str, str, str]]:
        """The marked decisions as the chart draws them: ``(number, mark, player, label)``."""
        return [(d.number, d.mark, d.player, f"{d.number}. {d.player} {d.dice}: {d.choice or '(no move)'}, "
                 f"best {d.best or '(no move)'} (loss {d.loss:.3f}, {d.mark})") for d in self.decisions if d.mark]

    def svg(self, *, width: int = 640, height: int = 260) -> str:
        """White's winning chance over the game as an SVG line chart, the marked decisions dotted
        (:func:`backgammon_lab.svg.win_chart`; deterministic text)."""
        return self._repr_svg_(width=width, height=height)

    def _repr_svg_(self, *, width: int = 640, height: int = 260) -> str:
        from ..svg import win_chart  # the picture's layer, loaded when a picture is asked for
        from ..variants import find_variant

        title = find_variant(self.variant).title
        return win_chart(self.chart, title=f"White's winning chance ({title}, {self.how})",
                         marks=self.chart_marks(), width=width, height=height)

    def __str__(self) -> str:
        return f"{self.summary()}\n\n{self.table()}"

    def _repr_html_(self) -> str:
        return self.summary()._repr_html_() + self.table()._repr_html_()


# ---------------------------------------------------------------------------------------------
# the analysis


def _game(source: Game | dict[str, Any] | str | bytes) -> Game:
    if isinstance(source, Game):
        return Game.from_record(source.record())
    if isinstance(source, (dict, str, bytes)):
        if isinstance(source, (str, bytes)) and source.strip()[:1] not in ("{", b"{"):
            raise AnalysisError(f"analyse takes a Game or a game record (a dict or JSON text), not {source!r:.200}")
        try:
            return Game.from_record(source)
        except BackgammonError as e:
            raise AnalysisError(f"not a game record that can be replayed: {e}") from None
    raise AnalysisError(f"analyse takes a Game or a game record (a dict or JSON text), not {source!r:.200}")


def _roll_text(state: TurnState) -> str:
    r = state.roll
    if r is None:
        return ""
    return f"{r}{' named' if state.named else ''}"


Item = tuple[str, Any]


def _luck_evaluator(ev: Evaluator) -> Evaluator:
    """The evaluator luck is measured with: the same, but after a Mexican the plays are valued as if
    the mover rolled again (no naming look-up), so the 21 rolls before each roll stay cheap."""
    return Evaluator(net=ev.net, lookahead=False) if ev.net is not None and ev.variant.mexican else ev


def _analyse_entry(opts: Options, k: int, prev: TurnState, action: Any, nxt: TurnState,
                   luck_ev: Evaluator | None = None) -> list[Item]:
    """What entry ``k`` of the history (``prev`` --action--> ``nxt``) gives: a decision, a roll, or
    nothing; ``opts.evaluator`` is the :class:`Evaluator` made for the game."""
    out: list[Item] = []
    ev = opts.evaluator
    assert isinstance(ev, Evaluator)
    ply = opts.ply_for(prev.variant)
    lev = luck_ev if luck_ev is not None else ev
    if isinstance(action, MakePlay) and prev.phase is Phase.PLAY:
        assert prev.roll is not None
        h = hint(prev.turn_start, prev.roll, opts, named=prev.named)
        rp = h.find(action.play.position)
        best = h.best
        eq, best_eq = rp.equity or 0.0, best.equity or 0.0
        win, best_win = rp.win or 0.0, best.win or 0.0
        if rp is not best and rp.how != best.how and ev.kind == "net" and ply > 0:
            # value the play made as deep as the best play (as gnubg adds the played move to its list)
            row = ev.after_value(prev, MakePlay(rp.play), ply)
            eq, win = equity_of(row), float(row[0])
        loss = 0.0 if rp is best else max(0.0, best_eq - eq)
        forced = len(h.plays) <= 1
        out.append(("decision", DecisionAnalysis(
            k, prev.player, "play", _roll_text(prev), rp.text, best.text, loss, best_win - win if rp is not best else 0.0,
            eq, best_eq, forced, "" if forced else mark(loss),
            tuple((s.start, s.end) for s in best.play.steps), prev.turn_start.to_string())))
    elif isinstance(action, Choice) and prev.phase is Phase.CHOICE:
        dh = opening_hint(prev, options=opts)
        d = dh.find(str(action))
        out.append(("decision", DecisionAnalysis(
            k, prev.player, "choice", _roll_text(prev), str(action), str(dh.best.option), d.loss, d.error, d.equity,
            dh.best.equity, False, mark(d.loss), (), prev.position.to_string())))
    elif isinstance(action, NameDoubles) and prev.phase is Phase.NAME:
        dh = doubles_hint(prev, opts)
        d = dh.find(action.number)
        b = dh.best.option
        out.append(("decision", DecisionAnalysis(
            k, prev.player, "name", _roll_text(prev), f"{action.number}-{action.number}", f"{b}-{b}", d.loss, d.error,
            d.equity, dh.best.equity, False, mark(d.loss), (), prev.position.to_string())))
    elif isinstance(action, RollDice) and prev.phase is Phase.ROLL:
        roller = prev.player
        before = lev.state_value(prev, 1)  # the average over the 21 rolls of the best play (exact: the table)
        after = lev.dice_value(prev.position, action.roll, 0)
        white = float(before[0]) if roller == WHITE else 1.0 - float(before[0])
        out.append(("roll", RollAnalysis(k, roller, str(action.roll), equity_of(before), equity_of(after),
                                         equity_of(after) - equity_of(before), white)))
    elif isinstance(action, OpeningRoll) and prev.phase is Phase.OPENING and action.white != action.black:
        winner = nxt.player
        after = lev.state_value(nxt, 0)
        out.append(("roll", RollAnalysis(k, winner, f"{action.white}-{action.black} (opening)", 0.0, equity_of(after),
                                         equity_of(after), 0.5)))
    return out


Job = tuple[dict[str, Any], Sequence[int], Options]


def _analyse_chunk(job: Job) -> list[tuple[int, list[Item]]]:
    """Analyse entries ``indices`` of the game ``record`` (one job of an executor)."""
    record, indices, opts = job
    game = Game.from_record(record)
    entries = game.entries
    ev = evaluator_for(entries[0].state.position, opts.evaluator)
    opts = replace(opts, evaluator=ev)
    lev = _luck_evaluator(ev)
    return [(k, _analyse_entry(opts, k, entries[k - 1].state, entries[k].action, entries[k].state, lev))
            for k in indices]


def analyse(game: Game | dict[str, Any] | str | bytes, options: Options | None = None, *, chunk: int = 16
            ) -> Analysis:
    """Analyse every decision and roll of ``game`` (a Game, or a record as a dict or JSON text).

    ``options`` (an :class:`~backgammon_lab.analysis.options.Options`; None: the defaults) choose
    the search, as for :func:`~backgammon_lab.analysis.hints.hint`: the ``evaluator`` (Mini-Gam is
    exact when its table is at hand; ``"net"`` uses the net), the ``ply`` and the move
    ``filters``; no rollout (``games`` is refused). Their ``executor`` (or ``workers``, a process
    pool made for the call) spreads the history in chunks of ``chunk`` actions; the result is the
    same. Steps clicked without completing a play are ignored.
    """
    opts = as_options(options)
    if opts.games is not None:
        raise AnalysisError(f"game analysis does not roll out: leave games out of the options, not {opts.games!r}")
    try:
        chunk = whole_number(chunk, "chunk", 1, error=AnalysisError)
    except AnalysisError:
        raise AnalysisError(f"chunk is a whole number of actions, at least 1, not {chunk!r}") from None
    g = _game(game)
    record = g.record()
    record.pop("pending_steps", None)
    g = Game.from_record(record)
    entries = g.entries
    ev = evaluator_for(entries[0].state.position, opts.evaluator)
    ply = opts.ply_for(g.variant)
    indices = list(range(1, len(entries)))
    items: list[tuple[int, list[Item]]] = []
    executor, pool = opts.executor, None
    if executor is None and opts.workers > 1:
        from .rollout import process_pool

        pool = executor = process_pool(opts.workers)
    if executor is None:
        lev = _luck_evaluator(ev)
        mine = replace(opts, evaluator=ev)
        items = [(k, _analyse_entry(mine, k, entries[k - 1].state, entries[k].action, entries[k].state, lev))
                 for k in indices]
    else:
        # each job makes its own evaluator: the net or table travels, the caller's cache choice too
        portable = replace(opts, executor=None, workers=1,
                           evaluator=(ev.net if ev.net is not None else ev.table)
                           if isinstance(opts.evaluator, Evaluator) else opts.evaluator)
        jobs: list[Job] = [(record, indices[i:i + chunk], portable) for i in range(0, len(indices), chunk)]
        from .rollout import close_pool, ordered_results

        finished = False
        try:
            for part in ordered_results(executor, _analyse_chunk, jobs, 2 * opts.workers if pool else len(jobs)):
                items.extend(part)
            finished = True
        finally:
            if pool is not None:
                close_pool(pool, finished=finished)
    decisions: list[DecisionAnalysis] = []
    rolls: list[RollAnalysis] = []
    for _, found in items:
        for kind, value in found:
            (decisions if kind == "decision" else rolls).append(value)
    players = {WHITE: PlayerSummary(WHITE), BLACK: PlayerSummary(BLACK)}
    for d in decisions:
        s = players[d.player]
        s.decisions += 1
        if not d.forced:
            s.unforced += 1
            s.total_loss += d.loss
        if d.mark == "doubtful":
            s.doubtful += 1
        elif d.mark == "bad":
            s.bad += 1
        elif d.mark == "very bad":
            s.very_bad += 1
    for r in rolls:
        s = players[r.player]
        s.rolls += 1
        s.luck += r.luck
    chart = [(r.number, r.white_win) for r in rolls]
    st = g.state
    result = None
    if st.phase is Phase.OVER:
        assert st.winner is not None
        result = {"winner": st.winner, "points": st.points}
        chart.append((len(entries) - 1, 1.0 if st.winner == WHITE else 0.0))
    elif st.phase is Phase.ROLL:
        row = ev.state_value(st, 0)
        chart.append((len(entries) - 1, float(row[0]) if st.player == WHITE else 1.0 - float(row[0])))
    return Analysis(g.variant.name, ev.kind, ply if ev.kind == "net" else 0, decisions, rolls, players, chart,
                    result, ev.gammons)

