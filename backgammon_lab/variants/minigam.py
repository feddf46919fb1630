"""Mini-Gam (seed 002; RULES.md G1-G8).

Six points, eight checkers each, all starting on the bar; entering is free (G4) unless the option
``bar_first=True`` asks for the stricter reading. The option ``checkers`` builds smaller boards for
the solver's tests.
"""

from __future__ import annotations

from ..errors import VariantError, show, whole_number
from .base import Rule, Variant, register


@register
class MiniGam(Variant):
    """Mini-Gam: one strip of six points, all checkers start on the bar, entering is free."""

    name = "minigam"
    aliases = ("mini-gam", "mini gam", "mini")
    title = "Mini-Gam"
    points = 6  # G1
    checkers = 8  # G2
    home = 6  # the whole strip: bear-off needs every checker on the board (G4)
    start = {7: 8}  # G2: all on the bar (key points+1)
    bar_first = False  # G4
    options = {"bar_first": False, "checkers": 8}

    #: The seed sentence (seed002) or RULES.md row behind each reason.
    rule_texts = {
        "blocked": Rule("seed002", "A made point is any point with two or more of a player\u2019s checkers; "
                        "opponents may not enter onto or land on it."),
        "bar_first": Rule("G4", "interpretation, offered also as an option `bar_first=True`"),
        "bar_not_empty": Rule("G4", "A player may not bear off any checker until all 8 of that player\u2019s "
                              "checkers are on the board (none on the bar)."),
        "not_home": Rule("G4", "A player may not bear off any checker until all 8 of that player\u2019s "
                         "checkers are on the board (none on the bar)."),
        "bear_off_higher": Rule("G6", "A checker may bear off using a die roll larger than the distance to "
                                "the exit only if there are no checkers on points further from the exit."),
        "larger_die": Rule("G5", "If either number can be played but not both, the larger number must be "
                           "played."),
        "use_both_dice": Rule("G5", "If a player can make moves for both dice, they must do so."),
        "use_all_moves": Rule("G5", "The player must play as many of the four moves as is legally possible."),
        "play_complete": Rule("G5", "If only one number can be played, the player must play that number."),
        "combined": Rule("seed002", "A player may move one checker twice (in the chosen die order) or move "
                         "two different checkers."),
    }

    def configure(self, **options: object) -> None:
        """Set ``bar_first`` (G4's alternative reading) and ``checkers`` (1-8, for small solves)."""
        n = whole_number(options["checkers"], "minigam option checkers", 1, 15, error=VariantError)
        if not isinstance(options["bar_first"], bool):
            raise VariantError(f"minigam option bar_first must be True or False, not {show(options['bar_first'])}")
        self.bar_first = options["bar_first"]
        self.checkers = n
        self.start = {self.bar: n}
