"""backgammon_lab: learn and analyse backgammon variants in Jupyter.

The core (positions, rules, games, notation) lives here; pictures in :mod:`backgammon_lab.svg`,
widgets in :mod:`backgammon_lab.widgets`, analysis in :mod:`backgammon_lab.analysis`.
"""

from __future__ import annotations

from typing import Any

from .errors import (
    AmbiguousMoveError,
    BackgammonError,
    DiceError,
    GameError,
    IllegalMoveError,
    NotationError,
    PositionError,
    VariantError,
)
from .game import Game
from .position import BLACK, OFF, PLAYERS, WHITE, Play, Player, Position, Roll, Step, other
from .rules import Explanation, PlayList, check_step, explain_step, legal_plays, legal_steps
from .variants import VARIANTS, Variant, find_variant

__version__ = "0.1.0"

__all__ = [
    "AmbiguousMoveError", "BackgammonError", "DiceError", "GameError", "IllegalMoveError",
    "NotationError", "PositionError", "VariantError",
    "BLACK", "OFF", "PLAYERS", "WHITE", "Play", "Player", "Position", "Roll", "Step", "other", "Game",
    "Explanation", "PlayList", "check_step", "explain_step", "legal_plays", "legal_steps",
    "VARIANTS", "Variant", "find_variant", "play", "__version__",
]


def play(variant: str = "mexican", seed: int | None = 0, *, opponent: Any = "human", **kwargs: Any) -> Any:
    """Start a game widget in a notebook: ``backgammon_lab.play("mexican", seed=7, opponent="beginner")``.

    ``opponent``: ``"human"`` (both sides at this screen), ``"random"``, the name of a level of the
    engine (``backgammon_lab.analysis.levels.level_names(variant)``, weakest first; docs/levels.md)
    or a bot object; it plays Black. The other keywords are
    :class:`~backgammon_lab.widgets.game.GameWidget`'s (``tutor=True``, ``review_options``, ...).
    """
    from .widgets import GameWidget

    return GameWidget(variant=variant, seed=seed, opponent=opponent, **kwargs)
