"""Variants: each one a small class of declared facts plus a few hooks.

The engine (:mod:`backgammon_lab.rules`, :mod:`backgammon_lab.game`) reads these facts and never
writes a checker count or board size of its own. Look a variant up by name with
:func:`find_variant`::

    >>> from backgammon_lab import find_variant
    >>> find_variant("mexican").stacking_cap
    5
    >>> find_variant("minigam").points
    6
"""

from __future__ import annotations

from . import mexican, minigam, standard  # noqa: F401  (each registers itself)
from .base import VARIANTS, Rule, StepCheck, Variant, find_variant, register

__all__ = ["Variant", "find_variant", "VARIANTS", "register", "Rule", "StepCheck"]
