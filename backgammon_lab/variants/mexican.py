"""Mexican Backgammon (seeds 000 and 001; RULES.md M1-M11).

Declared facts only: the engine reads them. ``low_die_first`` carries M3/M5/M9, ``stacking_cap``
M6, ``doubles_roll_again`` M7, ``mexican`` M8, ``exact_bear_off`` M10, ``opening_choice`` M2.
"""

from __future__ import annotations

from . import Variant, register


@register
class Mexican(Variant):
    """Mexican Backgammon: lower die first, five-checker cap, doubles and Mexicans roll again."""

    name = "mexican"
    aliases = ("mexican backgammon", "mexican-backgammon", "mex")
    title = "Mexican Backgammon"
    points = 24
    checkers = 15
    home = 6
    start = {24: 2, 13: 5, 8: 3, 6: 5}  # M1: "the same as regular backgammon"
    stacking_cap = 5  # M6
    exact_bear_off = True  # M10
    low_die_first = True  # M3
    bar_first = True  # M9
    opening_choice = True  # M2
    doubles_roll_again = True  # M7
    mexican = True  # M8
    gammons = False  # M11
