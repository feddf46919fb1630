"""Compiled self-play: whole games, the net at 0-ply and TD(lambda) in one kernel per variant.

:func:`kernel` builds the kernel of a variant and an encoding from
:mod:`backgammon_lab.analysis.selfplay_template`: the variant's flow facts and its ``after_play``
hook (read once into a table) are pasted in, and the moves come from the variant's
whole-turn search (:func:`backgammon_lab.kernels.movegen.search`), the package's only one. :class:`~backgammon_lab.analysis.train.Trainer` trains through it; :func:`random_games`
plays uniformly random games (the benchmark against OpenSpiel's random self-play).

Dice come from the kernel's own 62-bit generator (:func:`dice_stream` gives the same numbers in
Python), so a game is a function of its seed, compiled or not.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ..kernels import _load, move_kernel
from ..kernels.layout import bar_of, opp_bar_of, width_of
from ..position import Position
from ..variants import Variant
from .encodings import ENCODINGS, _rolls_reaching, input_size
from .strategy import CRASHED_CHECKERS

__all__ = ["kernel", "after_table", "start_board", "dice_seed", "dice_stream", "random_games", "workspace", "no_database", "MAX_PLY"]

#: The deepest look-ahead of the analysis search in the kernel (plies 0..MAX_PLY; see
#: :class:`backgammon_lab.analysis.search.Evaluator`).
MAX_PLY = 2

_M62 = (1 << 62) - 1
_KERNELS: dict[tuple[Any, str], ModuleType] = {}
_ENC = {"td24": 0, "td24x": 1, "strip": 2, "td24e": 3, "td24m": 4, "td24t": 5}


def after_table(variant: Variant) -> list[Any]:
    """AFTER[a][b][named][used]: 0 end the turn, 1 roll again, 2 name doubles (used 0: the turn
    ends, as the engine does when no move is possible)."""
    code = {"end_turn": 0, "roll_again": 1, "name": 2}
    return [[[[0 if used == 0 else code[variant.after_play((a, c), bool(named), used)] for used in range(5)]
              for named in range(2)] for c in range(7)] if a else [[[0] * 5] * 2] * 7 for a in range(7)]


def kernel(variant: Variant, encoding: str) -> ModuleType:
    """The self-play kernel of ``variant`` with the net encoding ``encoding`` (built on first use).
    It serves nets of every size: one hidden layer, or a second one whose weights the kernel takes
    packed with the output layer's (:meth:`Net.kernel_weights
    <backgammon_lab.analysis.nets.Net.kernel_weights>`) and whose size it reads from them."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}")
    key = (variant, encoding)
    mod = _KERNELS.get(key)
    if mod is None:
        from .selfplay_template import ROLLOUT, TEMPLATE, level_source

        mk = move_kernel(variant)
        n = variant.points
        source = TEMPLATE.format(
            variant_repr=repr(variant), n=n, width=width_of(n), bar=bar_of(n), opp_bar=opp_bar_of(n),
            rules=mk.rules.tolist(), checkers=variant.checkers, home=variant.home,
            gammons=bool(variant.gammons), opening_choice=bool(variant.opening_choice), enc=_ENC[encoding],
            nin=input_size(variant, encoding), cap=variant.stacking_cap or variant.checkers + 1,
            capn=max(1, variant.checkers // variant.stacking_cap) if variant.stacking_cap else 1,
            exact=bool(variant.exact_bear_off), after=after_table(variant),
            reach=[int(sum(1 << r for r in range(21) if row[r])) for row in _rolls_reaching(variant.bar)])
        source += level_source(MAX_PLY + 1)  # a re-roll at MAX_PLY averages over one roll more
        source += ROLLOUT.format(races=variant.points >= 2 * variant.home, crashed=CRASHED_CHECKERS)
        mod = _KERNELS[key] = _load("selfplay", source)
    return mod


def no_database() -> tuple[np.ndarray, ...]:
    """Arrays of the types of a bear-off database in the kernels (see
    :func:`~backgammon_lab.analysis.bearoff.kernel_database`), one row each, for calls that read none."""
    return (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros((1, 1)), np.zeros((1, 1)), np.zeros(1, np.int64))


def start_board(variant: Variant) -> np.ndarray:
    """The start position in White's eye, as the kernels' int8 board row."""
    return np.array(Position.start(variant).board(), dtype=np.int8)


def dice_seed(seed: int) -> np.ndarray:
    """The kernel's dice generator state for ``seed`` (a one-element int64 array)."""
    return np.array([(int(seed) * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & _M62], dtype=np.int64)


def dice_stream(state: int) -> tuple[int, int]:
    """Python's copy of the kernel's generator step: ``(roll 0..35, next state)``; the same numbers
    as the compiled ``next_die``, for driving the engine with the kernel's dice."""
    s = (state * 6364136223846793005 + 1442695040888963407) & _M62
    x = s ^ (s >> 29)
    x = (x * 3935559000370003845) & _M62
    x = x ^ (x >> 32)
    return (x >> 20) % 36, s


def workspace(variant: Variant) -> tuple[np.ndarray, ...]:
    """Buffers for the kernels' searches (one set per thread)."""
    return tuple(move_kernel(variant).workspace())


def random_games(variant: Variant, games: int, seed: int = 0) -> tuple[int, int]:
    """Play ``games`` uniformly random games in the kernel; returns (White's wins, plies)."""
    k = kernel(variant, "td24" if variant.points == 24 else "strip")
    nin = input_size(variant, "td24" if variant.points == 24 else "strip")
    w1, b1, w2, b2 = np.zeros((nin, 1)), np.zeros(1), np.zeros((1, 1)), np.zeros(1)
    e1, eb1, e2, eb2 = np.zeros((nin, 1, 1)), np.zeros((1, 1)), np.zeros((1, 1, 1)), np.zeros((1, 1))
    rng = dice_seed(seed)
    ws = workspace(variant)
    start = start_board(variant)
    log = np.zeros((0, 8), np.int64)
    db = no_database()
    wins = plies = 0
    for _ in range(games):
        winner, _pts, n, _ = k.play_game(start, rng, 0, False, w1, b1, w2, b2, e1, eb1, e2, eb2, 0.0, 0.0, ws, log,
                                         False, db)
        wins += winner == 0
        plies += n
    return wins, plies

