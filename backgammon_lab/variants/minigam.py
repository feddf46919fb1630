"""Mini-Gam (seed 002; RULES.md G1-G8).

Six points, eight checkers each, all starting on the bar; entering is free (G4) unless the option
``bar_first=True`` asks for the stricter reading. The option ``checkers`` builds smaller boards for
the solver's tests.
"""

from __future__ import annotations

from ..errors import VariantError
from . import Variant, register


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

    def configure(self, **options: object) -> None:
        """Set ``bar_first`` (G4's alternative reading) and ``checkers`` (1-8, for small solves)."""
        n = options["checkers"]
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 15:
            raise VariantError(f"minigam option checkers must be an int from 1 to 15, not {n!r}")
        if not isinstance(options["bar_first"], bool):
            raise VariantError(f"minigam option bar_first must be True or False, not {options['bar_first']!r}")
        self.bar_first = options["bar_first"]
        self.checkers = n
        self.start = {7: n}
