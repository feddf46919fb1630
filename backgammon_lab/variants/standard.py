"""Standard backgammon: the reference game the variants build on (RULES.md, first paragraph).

Single game, gammon 2, backgammon 3, no doubling cube.
"""

from __future__ import annotations

from .base import Rule, Variant, register

_USUAL = Rule("Standard", "usual rules, single game, gammon 2 and backgammon 3, no cube")


@register
class Standard(Variant):
    """Standard backgammon: 24 points, 15 checkers, bar first, larger die when only one plays."""

    name = "standard"
    aliases = ("backgammon", "std")
    title = "Standard backgammon"
    points = 24
    checkers = 15
    home = 6
    start = {24: 2, 13: 5, 8: 3, 6: 5}
    gammons = True
    #: RULES.md gives the standard game as "usual rules"; every reason of its own rests on that.
    rule_texts = {code: _USUAL for code in (
        "bar_first", "not_home", "bear_off_higher", "larger_die", "use_both_dice", "use_all_moves",
        "play_complete", "combined")}
