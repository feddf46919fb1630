"""A bot that plays by a net (:mod:`backgammon_lab.analysis.nets`), at 0-ply or looking ahead.

Every decision is the analysis search's (:class:`~backgammon_lab.analysis.search.Evaluator`, in
the compiled kernel), the one the hints use:

* plays: at 0-ply the best play by the net on the positions the plays reach (equity for a net
  with gammon outputs, else the winning chance); what follows a play is the variant's
  :meth:`~backgammon_lab.variants.Variant.after_play`: the opponent's values turned round when the
  turn passes, the mover's own when it rolls again, and after a Mexican the best of the six named
  doubles' best plays (looked up for the best few plays, :data:`~backgammon_lab.analysis.search.SHORTLIST`);
* Mexican's opening choice (M2): keep the dice when the best play of them is worth at least the
  expected value of rolling again (the average over the 21 rolls of the best play);
* Mexican's naming (M8): the doubles whose best play is worth most.

With ``Options(ply=1)`` (or 2) every decision is the one :func:`~backgammon_lab.analysis.hints.hint`
(and :func:`~backgammon_lab.analysis.hints.opening_hint`,
:func:`~backgammon_lab.analysis.hints.doubles_hint`) would recommend with those options: the plays
kept by the move filters are valued by the average over the 21 rolls that may come next of the
best reply.

>>> from backgammon_lab.analysis.nets import Net
>>> bot = NetBot(Net.create("minigam", hidden=8, seed=0))
>>> bot.name
'net'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine import KEEP, REROLL, NameDoubles, TurnState
from ..errors import AnalysisError, TableMissingError
from ..position import Play
from ..variants import Variant
from .bots import Bot, GameLike, roll_of
from .nets import Net, play_board, shipped_net
from .options import Options, as_options
from .rollout import turn_state
from .search import SHORTLIST, Evaluator, equity_of, rank_key

__all__ = ["NetBot"]


def _rolled(game: GameLike, message: str) -> TurnState:
    """The turn state of ``game`` (a Game or a TurnState) from the turn's start, ``message`` raised
    when no dice are rolled."""
    if roll_of(game) is None:
        raise AnalysisError(message)
    return turn_state(game)  # type: ignore[arg-type]  # a Game or a TurnState


class NetBot(Bot):
    """Plays by ``net``; without a net, by the shipped net of the game's variant.

    ``options`` (an :class:`~backgammon_lab.analysis.options.Options`; default ``Options(ply=0)``,
    a bot plays fast) give the look-ahead and the move filters: ``Options(ply=1)`` or 2 makes each
    decision by the net looking that many rolls ahead, as the hints with those options do
    (``Options()``: the hints' default depth). Their ``evaluator`` is left out: the bot plays by
    ``net``. ``lookahead=False`` values the plays of a Mexican as if the mover rolled again instead
    of looking the naming up (what the trainer does; faster, a little weaker). ``shortlist``: after
    a Mexican, how many plays (the best by the cheap value) look the naming up (None: all); see
    :class:`~backgammon_lab.analysis.search.Evaluator`.
    """

    name = "net"

    def __init__(self, net: Net | None = None, options: Options | None = None, *, lookahead: bool = True,
                 shortlist: int | None = SHORTLIST) -> None:
        options = _BOT_OPTIONS if options is None else as_options(options)
        if options.evaluator is not None:
            raise AnalysisError(f"a NetBot plays by its net, NetBot(net, options): leave the options' evaluator out, "
                                f"not {options.evaluator!r:.200}")
        self.options = options
        self.net = net
        self.lookahead = lookahead
        self.shortlist = shortlist
        if net is not None:
            self._evaluator(net)  # a bad shortlist is refused here

    def net_for(self, variant: Variant) -> Net:
        """The net used for ``variant`` (raises :class:`AnalysisError` when there is none)."""
        net = self.net
        if net is None:
            net = shipped_net(variant)
            if net is None:
                raise TableMissingError(f"no net is shipped for {variant!r}; train one with "
                                      f"`backgammon-lab train {variant.name} --games N`")
        else:
            net.check_variant(variant)
        return net

    def play_values(self, game: GameLike, plays: Sequence[Play]) -> np.ndarray:
        """The mover's values at 0-ply after each of ``plays`` (rows of the net's outputs), the
        naming after a Mexican looked up for every play."""
        ev = self._evaluator(self.net_for(game.variant))
        state = _rolled(game, "no dice to play: the game is not in phase 'play'")
        rows = ev.play_values(state)
        assert state.plays is not None
        index = {play_board(p): i for i, p in enumerate(state.plays)}
        return np.stack([rows[index[play_board(p)]] for p in plays])

    def choose_play(self, game: GameLike, plays: Sequence[Play]) -> Play:
        """The play the search rates best (the first one on ties): at 0-ply the best by the net
        (after a Mexican, the best of the :data:`~backgammon_lab.analysis.search.SHORTLIST` plays
        that rate best as if the mover rolled again, by the naming that follows); deeper, the best
        play of the hint of that ply."""
        if len(plays) == 1:
            return plays[0]
        ev = self._evaluator(self.net_for(game.variant))
        state = _rolled(game, "no dice to play: the game is not in phase 'play'")
        ply = self.options.ply_for(game.variant)
        if ply:
            ranked = ev.rank_plays(state, ply, self.options.filters)
            i = min(ranked, key=lambda j: rank_key(ranked[j], j))
        else:
            i = ev.best_play(state, 0)[0]
        assert state.plays is not None
        if plays is state.plays:
            return plays[i]
        best = play_board(state.plays[i])
        return next((p for p in plays if play_board(p) == best), plays[0])

    def keep_or_reroll(self, game: GameLike) -> str:
        """``"keep"`` when the best play of the opening dice is worth at least rolling again."""
        ev = self._evaluator(self.net_for(game.variant))
        state = _rolled(game, "no opening dice to keep: the game is not in phase 'choice'")
        ply = self.options.ply_for(game.variant)
        keep, fresh = (equity_of(ev.decision_value(state, a, ply)) for a in (KEEP, REROLL))
        return "keep" if keep >= fresh else "reroll"

    def name_doubles(self, game: GameLike) -> int:
        """The doubles 1..6 whose best play the net rates highest (the lowest on ties)."""
        ev = self._evaluator(self.net_for(game.variant))
        state = turn_state(game)  # type: ignore[arg-type]  # a Game or a TurnState
        ply = self.options.ply_for(game.variant)
        rows = [ev.decision_value(state, NameDoubles(k), ply) for k in range(1, 7)]
        return int(np.argmax([equity_of(r) for r in rows])) + 1

    def _evaluator(self, net: Net) -> Evaluator:
        """A fresh evaluator for one decision (it reads the net's weights as they are now)."""
        return Evaluator(net=net, lookahead=self.lookahead, shortlist=self.shortlist)

    def __repr__(self) -> str:
        extra = ("" if self.options == _BOT_OPTIONS else f", {self.options!r}") + \
            ("" if self.lookahead else ", lookahead=False")
        return f"NetBot({self.net!r}{extra})"


#: A bot's options when none are given: 0-ply, the move filters unused.
_BOT_OPTIONS = Options(ply=0)
