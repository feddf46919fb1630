"""The nets' input encodings as facts: their names, sizes and hand-made features.

The one owner of these facts for :mod:`backgammon_lab.analysis.nets` (the numpy encodings and the
net, which re-exports them) and :mod:`backgammon_lab.analysis.selfplay` (the compiled kernels), so
that neither imports the other to learn them.
"""

from __future__ import annotations

import numpy as np

from ..errors import AnalysisError
from ..variants import Variant

__all__ = ["NetError", "ENCODINGS", "FEATURES", "EXPERT", "LOW_DIE", "TIMING", "encoding_for", "input_size"]


class NetError(AnalysisError):
    """A net file that cannot be read, or a net used with the wrong variant."""


# ---------------------------------------------------------------------------------------------
# encodings


#: The encodings, and the one each extends (its inputs come first; see :meth:`Net.with_encoding`).
ENCODINGS: dict[str, str | None] = {"td24": None, "td24x": "td24", "td24e": "td24x", "td24m": "td24e",
                                     "td24t": "td24e", "strip": None}
#: Hand-made features of ``td24x``, per side.
FEATURES = ("shots_against", "blots", "home_points", "prime", "back", "contact")
#: The expert features ``td24e`` adds to ``td24x``, per side (after Berliner's and gnubg's contact
#: inputs; defined in :func:`backgammon_lab.analysis.nets.expert_features`).
EXPERT = ("escape", "contain", "contain_back", "pip_loss", "double_shots", "mobility", "back_anchor",
          "forward_anchor", "enter_fail", "break_contact")
#: The features ``td24m`` adds to ``td24e`` for variants played lower die first (Mexican), per side
#: (defined in :func:`backgammon_lab.analysis.nets.low_die_features`).
LOW_DIE = ("enter_low", "turn_lost", "capped")
#: The features ``td24t`` adds to ``td24e``, per side: timing and the structure of a position
#: (defined in :func:`backgammon_lab.analysis.nets.timing_features`).
TIMING = ("timing", "builders", "backgame", "trapped")


def encoding_for(variant: Variant) -> str:
    """The input encoding that fits ``variant``'s board: ``"td24"`` for 24 points, else ``"strip"``."""
    return "td24" if variant.points == 24 else "strip"


def _check_encoding(variant: Variant, enc: str) -> None:
    if enc not in ENCODINGS:
        raise NetError(f"unknown encoding {enc!r}; known: {', '.join(repr(k) for k in ENCODINGS)}")
    if enc.startswith("td24") and variant.points != 24:
        raise NetError(f"encoding {enc!r} is for boards of 24 points, not {variant.points} ({variant!r})")
    if enc == "td24m" and not variant.low_die_first:
        raise NetError(f"encoding {enc!r} is for variants played lower die first, not {variant!r}")


def input_size(variant: Variant, encoding: str | None = None) -> int:
    """Number of inputs of ``encoding`` (default :func:`encoding_for`) for ``variant``."""
    enc = encoding or encoding_for(variant)
    _check_encoding(variant, enc)
    n, c = variant.points, variant.checkers
    if enc == "td24":
        return 8 * n + 6
    if enc == "td24x":
        return 8 * n + 6 + 2 * len(FEATURES)
    if enc == "td24e":
        return 8 * n + 6 + 2 * len(FEATURES) + 2 * len(EXPERT)
    if enc == "td24m":
        return 8 * n + 6 + 2 * len(FEATURES) + 2 * len(EXPERT) + 2 * len(LOW_DIE)
    if enc == "td24t":
        return 8 * n + 6 + 2 * len(FEATURES) + 2 * len(EXPERT) + 2 * len(TIMING)
    return 2 * (n * c + 2 * c) + 2


def _rolls_reaching(points: int) -> np.ndarray:
    """Row d (1..points), column r: 1 when the r-th of the 21 distinct rolls can move one checker
    exactly d pips (a die, the sum of two, or two to four of a doubles), else 0; shape
    ``(points + 1, 21)``, row 0 zero."""
    out = np.zeros((points + 1, 21))
    k = 0
    for a in range(1, 7):
        for b in range(a, 7):
            reach = {a, 2 * a, 3 * a, 4 * a} if a == b else {a, b, a + b}
            for d in reach:
                if d <= points:
                    out[d, k] = 1.0
            k += 1
    return out
