"""A bot that plays by a net (:mod:`backgammon_lab.analysis.nets`), at 0-ply or looking ahead.

* plays: every legal play of the roll is valued in one batched call and the best is made (equity
  for a net with gammon outputs, else the winning chance). What follows a play is the variant's
  :meth:`~backgammon_lab.variants.Variant.after_play`: the opponent's values turned round when the
  turn passes, the mover's own when it rolls again, and after a Mexican the best of the six named
  doubles' best plays;
* Mexican's opening choice (M2): keep the dice when the best play of them is worth at least the
  expected value of rolling again (the average over the 21 rolls of the best play);
* Mexican's naming (M8): the doubles whose best play is worth most.

With ``ply=1`` (or 2) every decision is the one :func:`~backgammon_lab.analysis.hints.hint`
(and :func:`~backgammon_lab.analysis.hints.opening_hint`,
:func:`~backgammon_lab.analysis.hints.doubles_hint`) would recommend at that ply: the plays
kept by the move filters are valued by the average over the 21 rolls that may come next of the
best reply. Slower (about a hundred times at 1-ply) and stronger.

>>> from backgammon_lab.analysis.nets import Net
>>> bot = NetBot(Net.create("minigam", hidden=8, seed=0))
>>> bot.name
'net'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine import KEEP, REROLL, NameDoubles
from ..errors import AnalysisError, TableMissingError
from ..position import Play
from ..variants import Variant
from .bots import Bot, GameLike
from .hints import Evaluator, hint
from .nets import Net, candidate_values, keep_or_reroll_values, name_values, play_board, shipped_net
from .rollout import turn_state

__all__ = ["NetBot"]


class NetBot(Bot):
    """Plays by ``net`` at 0-ply; without a net, by the shipped net of the game's variant.

    ``lookahead=False`` values the plays of a Mexican as if the mover rolled again instead of
    looking the naming up (what the trainer does; faster, a little weaker). ``ply`` 1 or 2 makes
    each decision by the net looking that many rolls ahead, as the hints of that ply do.
    """

    name = "net"
    #: After a Mexican, the plays whose naming is looked up in full (the best by the cheap value).
    name_candidates = 4

    def __init__(self, net: Net | None = None, *, lookahead: bool = True, ply: int = 0) -> None:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= 2:
            raise AnalysisError(f"ply is 0, 1 or 2, not {ply!r}")
        self.net = net
        self.lookahead = lookahead
        self.ply = ply

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
        """The mover's values after each of ``plays`` (rows of the net's outputs)."""
        net = self.net_for(game.variant)
        dice = game.dice
        if dice is None:
            raise AnalysisError("no dice to play: the game is not in phase 'play'")
        named = bool(getattr(game, "named", False))
        boards = [play_board(p) for p in plays]
        used = len(plays[0]) if plays else 0
        return candidate_values(net, game.position, dice.dice, named, boards, used, lookahead=self.lookahead)

    def choose_play(self, game: GameLike, plays: Sequence[Play]) -> Play:
        """The play the net rates best (the first one on ties).

        After a Mexican the naming that follows is looked up (six doubles searched per play) only
        for the :attr:`name_candidates` plays that rate best as if the mover rolled again.
        """
        if len(plays) == 1:
            return plays[0]
        net = self.net_for(game.variant)
        dice = game.dice
        named = bool(getattr(game, "named", False))
        if self.ply and dice is not None:
            best = play_board(hint(game.position, dice, ply=self.ply, named=named, evaluator=self._evaluator(net))
                              .best.play)
            return next((p for p in plays if play_board(p) == best), plays[0])
        if self.lookahead and dice is not None and game.variant.after_play(dice.dice, named, len(plays[0])) == "name":
            boards = [play_board(p) for p in plays]
            rough = net.score(candidate_values(net, game.position, dice.dice, named, boards, len(plays[0]),
                                               lookahead=False))
            top = [int(i) for i in np.argsort(-rough, kind="stable")[:self.name_candidates]]
            fine = net.score(candidate_values(net, game.position, dice.dice, named, [boards[i] for i in top],
                                              len(plays[0])))
            return plays[top[int(np.argmax(fine))]]
        return plays[int(np.argmax(net.score(self.play_values(game, plays))))]

    def keep_or_reroll(self, game: GameLike) -> str:
        """``"keep"`` when the best play of the opening dice is worth at least rolling again."""
        net = self.net_for(game.variant)
        if game.dice is None:
            raise AnalysisError("no opening dice to keep: the game is not in phase 'choice'")
        if self.ply:
            ev, state = self._evaluator(net), turn_state(game)  # type: ignore[arg-type]  # a Game or a TurnState
            keep, fresh = (ev.after_value(state, a, self.ply) for a in (KEEP, REROLL))
        else:
            keep, fresh = keep_or_reroll_values(net, game.position, game.dice.dice, lookahead=self.lookahead)
        return "keep" if net.score(keep) >= net.score(fresh) else "reroll"

    def name_doubles(self, game: GameLike) -> int:
        """The doubles 1..6 whose best play the net rates highest (the lowest on ties)."""
        net = self.net_for(game.variant)
        if self.ply:
            ev, state = self._evaluator(net), turn_state(game)  # type: ignore[arg-type]  # a Game or a TurnState
            rows = np.stack([ev.after_value(state, NameDoubles(k), self.ply) for k in range(1, 7)])
        else:
            rows = name_values(net, game.position, lookahead=self.lookahead)
        return int(np.argmax(net.score(rows))) + 1

    def _evaluator(self, net: Net) -> Evaluator:
        """A fresh evaluator for one decision (its cache is not kept from one decision to the next)."""
        return Evaluator(net=net, lookahead=self.lookahead)

    def __repr__(self) -> str:
        extra = ("" if self.lookahead else ", lookahead=False") + (f", ply={self.ply}" if self.ply else "")
        return f"NetBot({self.net!r}{extra})"

