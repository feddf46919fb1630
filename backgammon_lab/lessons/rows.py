"""The rule rows as a learner meets them: each row's title (the heading of its notebook section and
its course stage), and the label a piece of feedback gives the rule it quotes.

A rule (:class:`~backgammon_lab.variants.base.Rule`) names a RULES.md row (``"M4"``), a seed
(``"seed000"``) or a section (``"Geometry"``). A learner cannot look up ``seed000``; the notebooks
quote it as "the Mexican Backgammon rule text". :func:`rule_label` gives that name, and
:func:`quote_rule` the one way a rule is quoted: label, colon, the sentence in curly quotes.
"""

from __future__ import annotations

import re

from ..variants.base import Rule

__all__ = ["ROW_TITLES", "rule_label", "quote_rule", "INTERPRETATIONS"]

#: The title of each rule row, as the notebooks' headings and the course's stages show it.
ROW_TITLES: dict[str, str] = {
    "S1": "Moving: two dice, two moves",
    "S2": "Hitting a blot",
    "S3": "Entering from the bar",
    "S4": "Bearing off",
    "M1": "The set-up",
    "M2": "The opening choice",
    "M3": "The lower die first",
    "M4": "As much of the roll as possible",
    "M5": "One checker, both dice",
    "M6": "At most five on a point",
    "M7": "Doubles: four moves, then roll again",
    "M8": "The Mexican: 1-2, then name doubles",
    "M9": "Entering from the bar",
    "M10": "Bearing off exactly",
    "M11": "Winning",
    "G1": "Opposite directions",
    "G2": "All checkers start on the bar",
    "G3": "Entering",
    "G4": "Free entry",
    "G5": "Forced moves",
    "G6": "Bearing off",
    "G7": "Enter and bear off in one turn",
    "G8": "Opening, stacking, winning",
}

#: Rows (or parts of rows) that rest on an interpretation of the rule texts (RULES.md says so),
#: in words a learner reads.
INTERPRETATIONS: dict[str, str] = {
    "M4": "the rule texts do not say what happens when one lower-die move would leave the higher die "
          "without a move; the toolkit follows standard backgammon: use as much of the roll as you can",
    "M10": "the rule texts do not say whether a die that can bear a checker off must do so when another "
           "move exists; the toolkit lets the player choose",
    "G4": "the rule text says a checker on the bar \u201cmay\u201d enter; the toolkit reads it as free "
          "entry (a game can also be set up with the stricter reading, where a checker on the bar enters "
          "before any other checker moves)",
}

_SOURCES = {"seed000": "the Mexican Backgammon rule text", "seed001": "the Mexican Backgammon rule text",
            "seed002": "the Mini-Gam rule text", "Geometry": "the board, in every variant"}


def rule_label(rule: Rule) -> str:
    """The name a learner can look up for ``rule``: ``"rule M3, The lower die first"`` for a row,
    ``"the Mexican Backgammon rule text"`` for a seed, ``"the board, in every variant"`` for the
    geometry every variant shares; ``""`` for standard backgammon's usual rules."""
    if rule.id in ROW_TITLES:
        return f"rule {rule.id}, {ROW_TITLES[rule.id]}"
    if rule.id == "Standard":
        return ""
    return _SOURCES.get(rule.id, f"rule {rule.id}")


def quote_rule(rule: Rule) -> str:
    """The rule quoted the one way feedback quotes it: ``Rule M6, At most five on a point: “…”``.
    A rule row whose text is a note on an option (not a sentence to quote) is named as its stricter
    reading, in words (no option's name: a learner reads it)."""
    label = rule_label(rule)
    label = label[:1].upper() + label[1:]
    if rule.text.startswith("interpretation") and re.search(r"option `([^`]+)`", rule.text):
        return f"{label}, in its stricter reading"
    return f"{label}: \u201c{rule.text}\u201d"
