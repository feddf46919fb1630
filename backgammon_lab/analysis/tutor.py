"""The tutor: judge a decision as it is made, in plain words.

>>> from backgammon_lab.game import Game
>>> from backgammon_lab.analysis.solve import solve
>>> table = solve(2, progress=False)
>>> g = Game("minigam", position=Position.from_string("minigam;checkers=2/w/bar,5/4,off"), dice=(4, 2))
>>> v = judge(g, "bar/3*/1", Options(evaluator=table))
>>> v.is_best, v.best_text, v.mark
(False, 'bar/3* 5/3', 'very bad')
>>> v.sentence
'bar/3*/1 loses 11.3% against the best play bar/3* 5/3.'
>>> judge(g, "bar/3* 5/3", Options(evaluator=table)).sentence
'bar/3* 5/3 is the best play.'

:func:`judge` takes the game (a :class:`~backgammon_lab.game.Game` or the engine's
:class:`~backgammon_lab.engine.TurnState`) at the decision and the choice made: a play (a
:class:`~backgammon_lab.position.Play`, move text or its steps), or, in Mexican Backgammon,
``"keep"``/``"reroll"`` for the opening dice (M2) or the doubles named after a Mexican (M8). It
answers with a :class:`Verdict`: the loss against the best choice (winning chance and equity), the
best choice and its steps (for arrows on the board), a mark with GNU Backgammon's thresholds, and
one sentence. The values are a hint's (:func:`~backgammon_lab.analysis.hints.hint` with the same
:class:`~backgammon_lab.analysis.options.Options`): exact for Mini-Gam when the solved table is at
hand, else the variant's net, by default 2 rolls ahead (1 in Mexican), about a tenth of a second a
play; ``Options(ply=0)`` judges in about a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engine import Choice, NameDoubles, Phase, TurnState
from ..errors import AnalysisError
from ..game import Game
from ..position import Play, Position, Step
from .analyse import mark
from .hints import doubles_hint, hint, opening_hint
from .options import Options, as_options
from .search import evaluator_for

__all__ = ["judge", "Verdict"]

#: Below this equity loss (and winning chance) a choice counts as one of the best.
TIE = 1e-9


@dataclass(frozen=True)
class Verdict:
    """What the tutor says of one decision.

    ``kind``: ``"play"``, ``"choice"`` or ``"name"``. ``text`` / ``best_text``: the choice made and
    the best one in words; ``best_play`` and ``arrows``: the best play and its steps (plays only).
    ``win`` / ``best_win``: the decider's winning chance after each; ``win_loss``: the winning
    chance given up; ``loss``: the equity given up (points a game); ``mark``: ``""``,
    ``"doubtful"``, ``"bad"`` or ``"very bad"``; ``method``: ``"exact"`` or ``"net"``.
    """

    kind: str
    text: str
    best_text: str
    win: float
    best_win: float
    win_loss: float
    loss: float
    mark: str
    method: str
    sentence: str
    gammons: bool = False
    best_play: Play | None = None

    @property
    def is_best(self) -> bool:
        """True when nothing is lost against the best choice."""
        return self.loss <= TIE and self.win_loss <= TIE

    @property
    def arrows(self) -> tuple[Step, ...]:
        """The steps of the best play, for ``svg.board(position, arrows=...)`` (empty for other decisions)."""
        return self.best_play.steps if self.best_play is not None else ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"kind": self.kind, "text": self.text, "best": self.best_text, "win": self.win,
                "best_win": self.best_win, "win_loss": self.win_loss, "loss": self.loss, "mark": self.mark,
                "method": self.method, "sentence": self.sentence, "is_best": self.is_best,
                "arrows": [[s.start, s.end] for s in self.arrows]}

    def __str__(self) -> str:
        return self.sentence


def _sentence(text: str, best: str, win_loss: float, loss: float, gammons: bool, what: str) -> str:
    if loss <= TIE and win_loss <= TIE:
        return f"{text} is the best {what}."
    pct = f"{win_loss * 100:.1f}%"
    tail = f" {best}" if what == "play" else f", {best}"
    if gammons and (win_loss * 100 < 0.05 or abs(loss - 2 * win_loss) > 0.01):
        # the gammons (double wins and losses) matter: say it in points too
        if win_loss * 100 < 0.05:
            return f"{text} loses {loss:.3f} points a game (counting double wins) against the best {what}{tail}."
        return f"{text} loses {pct} ({loss:.3f} points a game) against the best {what}{tail}."
    return f"{text} loses {pct} against the best {what}{tail}."


def _state(state_or_game: Any) -> TurnState:
    if isinstance(state_or_game, Game):
        return state_or_game.state
    if isinstance(state_or_game, TurnState):
        return state_or_game
    raise AnalysisError(f"judge takes a Game or a TurnState at a decision, not {state_or_game!r:.200}")


def judge(state_or_game: Game | TurnState, choice: Any, options: Options | None = None) -> Verdict:
    """Judge ``choice``, made at the decision ``state_or_game`` is at (see the module docstring),
    by the search ``options`` say (None: the defaults).

    Raises :class:`~backgammon_lab.errors.AnalysisError` when the game is not at a decision or the
    choice is not one of its legal choices; nothing is changed either way.
    """
    opts = as_options(options)
    st = _state(state_or_game)
    ph = st.phase
    if ph is Phase.PLAY:
        assert st.roll is not None
        start: Position = st.turn_start
        h = hint(start, st.roll, opts, named=st.named)
        rp = h.find(choice)
        best = h.best
        win_loss = max(0.0, rp.error or 0.0) if rp is not best else 0.0
        loss = (rp.loss or 0.0) if rp is not best else 0.0
        text = rp.text or "(no move)"
        bt = best.text or "(no move)"
        return Verdict("play", text, bt, rp.win or 0.0, best.win or 0.0, win_loss, loss,
                       "" if len(h.plays) <= 1 else mark(loss), h.method if h.method == "exact" else "net",
                       _sentence(text, bt, win_loss, loss, h.gammons, "play"), h.gammons, best.play)
    if ph is Phase.CHOICE or ph is Phase.NAME:
        ev = evaluator_for(st.position, opts.evaluator, solved=False)
        opts = replace(opts, evaluator=ev)  # read once, for both the values and ``gammons``
        if ph is Phase.CHOICE:
            dh = opening_hint(st, options=opts)
            key: Any = str(choice.value) if isinstance(choice, Choice) else choice
            words: dict[Any, str] = {"keep": "Keeping the dice", "reroll": "Rolling again"}
            what = "choice"
        else:
            dh = doubles_hint(st, opts)
            key = choice.number if isinstance(choice, NameDoubles) else choice
            words = {k: f"Naming {k}-{k}" for k in range(1, 7)}
            what = "doubles to name"
        d = dh.find(key)
        b = dh.best
        opt = d.option
        text = words.get(opt, str(opt))
        best_words = "keeping the dice" if b.option == "keep" else "rolling again" if b.option == "reroll" \
            else f"{b.option}-{b.option}"
        win_loss = max(0.0, d.error) if d is not b else 0.0
        loss = d.loss if d is not b else 0.0
        if loss <= TIE and win_loss <= TIE:
            sentence = f"{text} is the best {'choice' if ph is Phase.CHOICE else 'naming'}."
        else:
            sentence = _sentence(text, best_words, win_loss, loss, ev.gammons, what)
        kind = "choice" if ph is Phase.CHOICE else "name"
        return Verdict(kind, str(opt if kind == "choice" else f"{opt}-{opt}"),
                       str(b.option if kind == "choice" else f"{b.option}-{b.option}"), d.win, b.win, win_loss, loss,
                       mark(loss), "net", sentence, ev.gammons)
    raise AnalysisError(f"there is no decision to judge now: the game is in phase {ph.value!r} ({st.hint()})")
