"""Mexican Backgammon (seeds 000 and 001; RULES.md M1-M11).

Declared facts only: the engine reads them. ``low_die_first`` carries M3/M5/M9, ``stacking_cap``
M6, ``doubles_roll_again`` M7, ``mexican`` M8, ``exact_bear_off`` M10, ``opening_choice`` M2.
"""

from __future__ import annotations

from .base import Rule, Variant, register


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
    #: The seed sentence (seed000) or RULES.md row behind each reason, with the row it belongs to.
    rule_texts = {
        "lower_die_first": Rule("M3", "You must move the lower number first."),
        "turn_lost": Rule("M3", "If you are unable to play the lower number, then you lose your turn."),
        "blocked": Rule("seed000", "A checker may be moved only to an open point, one that is not "
                        "occupied by two or more opposing checkers."),
        "combined": Rule("M5", "but only if the intermediate point (three spaces from the starting "
                         "point) is also open."),
        "stack_cap": Rule("M6", "You are not allowed to put more than five checkers on one point."),
        "bar_first": Rule("M9", "Any time you have one or more checkers on the bar, your first "
                          "obligation is to reenter those checker(s) into the opponent\u2019s home board."),
        "not_home": Rule("M10", "When all your checkers are home, you may commence bearing off."),
        "bear_off_exact": Rule("M10", "Checkers must be borne off exactly; that is, you may only remove "
                               "checkers from the point numbers indicated by the roll."),
        "use_both_dice": Rule("M4", "The player must use as much of the roll as it can: it must choose a "
                              "lower-die move after which the higher die can be played, when one exists; "
                              "doubles are played as many times (up to four) as possible."),
        "use_all_moves": Rule("M7", "However, if you are unable to play all four numbers of a doubles "
                              "roll, you lose the remaining numbers and do not get to roll again."),
        "play_complete": Rule("M8", "Note, however, if you are unable to use any part of your roll, you "
                              "forfeit the rest of your turn."),
    }
