"""Levels of play: the engine made weaker on purpose, from a beginner's play to the hint's.

As GNU Backgammon's levels (beginner, casual, intermediate, advanced, expert, world class: 0-ply
with noise 0.06, 0.05, 0.04, 0.015, none, then 2-ply), a level is the net's 0-ply choice with
noise added to the value of each option, or, at the top, the
choice the default hint recommends (:func:`~backgammon_lab.analysis.hints.hint` with
``Options()``: 2 rolls ahead, 1 in Mexican, exact in Mini-Gam when the solved table is at hand).
The noise is normal, of standard deviation ``noise`` (equity, points a game), and drawn from the
option's resulting board and the bot's seed alone (gnubg's "deterministic" noise): the same
position and seed, the same choice, in whatever order the games are played.

:data:`LEVELS` is the one table of the levels (name, words for the learner, settings);
``play(variant, opponent="beginner")``, the game widget's opponent menu, the docs and
``benchmarks/levels.py`` read it.

>>> [lv.name for lv in LEVELS]
['beginner', 'casual', 'expert', 'champion']
>>> level_names('minigam')
['beginner', 'casual', 'champion']
>>> level_bot("beginner", seed=3)
LevelBot('beginner', seed=3)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import KEEP, REROLL, NameDoubles
from ..errors import AnalysisError
from ..position import Play
from ..variants import Variant
from .bots import GameLike
from .netbot import NetBot, _rolled
from .nets import play_board
from .options import DEFAULT_PLY, VARIANT_PLY, Options
from .rollout import turn_state
from .search import equities, equity_of

__all__ = ["Level", "LEVELS", "LevelBot", "find_level", "level_bot", "level_names", "levels_for", "STRONGEST"]


@dataclass(frozen=True)
class Level:
    """One level: ``name`` (what ``play(opponent=...)`` takes), ``title`` and ``words`` (what a
    learner reads), ``noise`` (per variant name, the standard deviation of the noise added to each
    option's equity; a variant missing here has no such level) and ``ply`` (the look-ahead; None:
    the default hint's player, offered in every variant)."""

    name: str
    title: str
    words: str
    noise: dict[str, float] = field(default_factory=dict)
    ply: int | None = 0

    def offered(self, variant: Variant | str) -> bool:
        """True when ``variant`` (a :class:`~backgammon_lab.variants.Variant` or its name) has this level."""
        return self.ply is None or _name(variant) in self.noise

    def noise_for(self, variant: Variant | str) -> float:
        """The noise of this level in ``variant``, else :class:`~backgammon_lab.errors.AnalysisError`."""
        if self.ply is None:
            return 0.0
        name = _name(variant)
        if name not in self.noise:
            raise AnalysisError(f"{name} has no level {self.name!r}: its levels are "
                                f"{', '.join(lv.name for lv in levels_for(name))}")
        return self.noise[name]

    def settings(self, variant: Variant | str) -> str:
        """The settings in words: ``"0-ply, noise 0.15"`` or the default hint's."""
        if self.ply is None:
            name = _name(variant)
            depth = f"{VARIANT_PLY.get(name, DEFAULT_PLY)}-ply"
            if name == "minigam":
                depth = f"exact when the table is solved, else {depth}"
            return f"the default hint ({depth})"
        n = self.noise_for(variant)
        return f"{self.ply}-ply" + (f", noise {n:g}" if n else ", no noise")


def _name(variant: Variant | str) -> str:
    return variant if isinstance(variant, str) else variant.name


#: The levels, weakest first, and their noise in each variant that has them
#: (``benchmarks/levels.py`` measures each against the one before, docs/levels.md has the table).
#: Mini-Gam has no "expert": its net at 0-ply already plays about as well as the exact table.
LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner",
          "Knows the rules and often picks a play that looks fine but is not: a first opponent.",
          {"standard": 0.15, "mexican": 0.10, "minigam": 1.0}),
    Level("casual", "Casual",
          "Plays sensibly most of the time, with a clear mistake now and then.",
          {"standard": 0.07, "mexican": 0.05, "minigam": 0.2}),
    Level("expert", "Expert",
          "The engine's judgement at a glance, no look-ahead: now and then a small slip.",
          {"standard": 0.03, "mexican": 0.025}),
    Level("champion", "Champion",
          "The engine at its best: the play the hint recommends, looking rolls ahead.",
          ply=None),
)

#: The name of the strongest level: the default hint's player.
STRONGEST = LEVELS[-1].name


def levels_for(variant: Variant | str) -> list[Level]:
    """The levels ``variant`` (a Variant or its name) has, weakest first."""
    return [lv for lv in LEVELS if lv.offered(variant)]


def level_names(variant: Variant | str | None = None) -> list[str]:
    """The levels' names, weakest first (of ``variant`` only, when given)."""
    return [lv.name for lv in (LEVELS if variant is None else levels_for(variant))]


def find_level(name: Any) -> Level:
    """The level called ``name`` (case aside; ``_`` or ``-`` for spaces), else
    :class:`~backgammon_lab.errors.AnalysisError`."""
    if isinstance(name, Level):
        return name
    if isinstance(name, str):
        key = name.strip().lower().replace("_", " ").replace("-", " ")
        for lv in LEVELS:
            if lv.name == key or lv.title.lower() == key:
                return lv
    raise AnalysisError(f"no level {name!r:.200}: the levels are {', '.join(level_names())}")


def _noise(seed: int, board: Sequence[int], salt: int = 0) -> float:
    """A standard normal number drawn from ``seed``, ``board`` and ``salt`` alone (Box-Muller
    over a hash): the same arguments, the same number, in any process."""
    key = f"{seed}|{salt}|{','.join(map(str, board))}".encode()
    raw = hashlib.blake2b(key, digest_size=16).digest()
    u1 = (int.from_bytes(raw[:8], "little") + 1) / 2.0**64  # in (0, 1]
    u2 = int.from_bytes(raw[8:], "little") / 2.0**64
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


class LevelBot(NetBot):
    """The player of a :class:`Level`: the net's 0-ply choice with the level's noise added to each
    option's equity, or (the top level, ``ply`` None) the choice of the default hint.

    ``seed`` chooses the noise (the same seed and position, the same choice). ``net``: the net to
    play by (default the variant's shipped net).
    """

    name = "level"

    def __init__(self, level: Level | str, seed: int = 0, net: Any = None) -> None:
        self.level = find_level(level)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise AnalysisError(f"seed: expected a whole number, not {seed!r:.200}")
        self.seed = seed
        super().__init__(net, Options(ply=0 if self.level.ply is None else self.level.ply))
        self.name = self.level.name

    def seeded(self, seed: int) -> LevelBot:
        """The same level with the noise of ``seed``."""
        return LevelBot(self.level, seed, self.net)

    def _hinted(self) -> bool:
        return self.level.ply is None

    def _noisy(self, variant: Variant) -> float:
        return 0.0 if self._hinted() else self.level.noise_for(variant)

    def choose_play(self, game: GameLike, plays: Sequence[Play]) -> Play:
        """The best play by equity plus the level's noise (drawn from each play's board)."""
        if len(plays) == 1:
            return plays[0]
        if self._hinted():
            from .hints import hint

            state = _rolled(game, "no dice to play: the game is not in phase 'play'")
            assert state.roll is not None
            best = play_board(hint(state.turn_start, state.roll, Options(), named=state.named).best.play)
            return next((p for p in plays if play_board(p) == best), plays[0])
        sigma = self._noisy(game.variant)
        if not sigma:
            return super().choose_play(game, plays)
        boards = [play_board(p) for p in plays]
        values = equities(self.play_values(game, plays))
        scores = [v + sigma * _noise(self.seed, b) for v, b in zip(values, boards, strict=True)]
        return plays[int(np.argmax(scores))]

    def keep_or_reroll(self, game: GameLike) -> str:
        """Mexican's opening choice: keep or roll again, by value plus noise (or the default hint)."""
        state = _rolled(game, "no opening dice to keep: the game is not in phase 'choice'")
        if self._hinted():
            from .hints import opening_hint

            return str(opening_hint(state).best.option)
        sigma = self._noisy(game.variant)
        if not sigma:
            return super().keep_or_reroll(game)
        ev = self._evaluator(self.net_for(game.variant))
        board = game.position.board()
        keep, fresh = (equity_of(ev.decision_value(state, a, 0)) + sigma * _noise(self.seed, board, salt)
                       for salt, a in ((1, KEEP), (2, REROLL)))
        return "keep" if keep >= fresh else "reroll"

    def name_doubles(self, game: GameLike) -> int:
        """Mexican's naming: the doubles worth most, plus noise (or the default hint's)."""
        state = turn_state(game)  # type: ignore[arg-type]  # a Game or a TurnState
        if self._hinted():
            from .hints import doubles_hint

            return int(doubles_hint(state).best.option)
        sigma = self._noisy(game.variant)
        if not sigma:
            return super().name_doubles(game)
        ev = self._evaluator(self.net_for(game.variant))
        board = game.position.board()
        scores = [equity_of(ev.decision_value(state, NameDoubles(k), 0)) + sigma * _noise(self.seed, board, 10 + k)
                  for k in range(1, 7)]
        return int(np.argmax(scores)) + 1

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with its level's name (the table is the module's)."""
        return dict(self.__dict__)

    def __repr__(self) -> str:
        net = "" if self.net is None else f", net={self.net!r}"
        return f"LevelBot({self.level.name!r}, seed={self.seed}{net})"


def level_bot(level: Level | str, seed: int = 0) -> LevelBot:
    """The player of ``level`` (a name from :data:`LEVELS` or a :class:`Level`), its noise from ``seed``."""
    return LevelBot(level, seed)
