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

from typing import ClassVar

from ..errors import VariantError

__all__ = ["Variant", "find_variant", "VARIANTS", "register"]


class Variant:
    """The facts of one rule set. Subclasses set the class attributes and override hooks.

    Facts (class attributes):

    ``name``, ``aliases``, ``title``
        The registry name (used in the JSON form), other accepted names, a display title.
    ``points``
        Number of points N. Each player numbers them 1..N from its own exit (RULES.md, Geometry).
    ``checkers``
        Checkers per player.
    ``start``
        The start, the same for both players in their own numbering: ``{point: count}``, where
        the key ``points + 1`` means the bar.
    ``home``
        Size of the home board: bearing off starts when every checker is on points 1..home or off.
    ``stacking_cap``
        Most checkers of one player a point may hold (``None``: no limit).
    ``exact_bear_off``
        ``True``: a checker on point p bears off only with a die of exactly p. ``False``: a larger
        die also bears off from the highest occupied point.
    ``low_die_first``
        ``True``: a non-double roll is played lower die first, and the turn ends when the lower die
        cannot be played. ``False``: either order, the larger die when only one can be played.
    ``bar_first``
        ``True``: checkers on the bar must enter before any other move.
    ``opening_choice``
        ``True``: the winner of the opening roll may keep the two opening dice or roll again.
    ``doubles_roll_again``
        ``True``: after playing all four moves of doubles the player rolls again.
    ``mexican``
        ``True``: 1-2 is a Mexican (play it, name doubles, roll again).
    ``gammons``
        ``True``: gammons (2) and backgammons (3) count.
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    points: int = 24
    checkers: int = 15
    home: int = 6
    start: dict[int, int] = {}
    stacking_cap: int | None = None
    exact_bear_off: bool = False
    low_die_first: bool = False
    bar_first: bool = True
    opening_choice: bool = False
    doubles_roll_again: bool = False
    mexican: bool = False
    gammons: bool = False

    #: Names of the keyword options this variant accepts (with their defaults).
    options: ClassVar[dict[str, object]] = {}

    def __init__(self, **options: object) -> None:
        unknown = set(options) - set(self.options)
        if unknown:
            raise VariantError(
                f"variant {self.name!r} has no option {sorted(unknown)[0]!r}; "
                f"options: {sorted(self.options) or 'none'}"
            )
        self._options = {k: options.get(k, v) for k, v in self.options.items()}
        self.configure(**self._options)
        total = sum(self.start.values())
        if total != self.checkers:
            raise VariantError(
                f"variant {self.name!r}: the start holds {total} checkers, not {self.checkers}"
            )

    # -- hooks ---------------------------------------------------------------------------------
    def configure(self, **options: object) -> None:
        """Apply keyword options (override in variants that have some)."""

    def dice_orders(self, dice: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
        """The orders in which the dice of one roll may be played.

        Doubles are four moves of the number; other rolls may be played in either order unless
        ``low_die_first``, which allows only (lower, higher).
        """
        a, b = dice
        if a == b:
            return ((a, a, a, a),)
        lo, hi = min(a, b), max(a, b)
        if self.low_die_first:
            return ((lo, hi),)
        return ((hi, lo), (lo, hi))

    def after_play(self, dice: tuple[int, int], named: bool, used: int) -> str:
        """What follows a play of ``dice`` that used ``used`` steps (the game was not won by it).

        ``"name"``: a Mexican whose both dice were played; the player names doubles (M8).
        ``"roll_again"``: doubles (rolled or named) with all four moves played (M7, M8).
        ``"end_turn"``: everything else, including a Mexican whose 2 could not be played (M8) and
        doubles with moves lost (M7).
        """
        a, b = dice
        if self.mexican and not named and {a, b} == {1, 2}:
            return "name" if used == 2 else "end_turn"
        if self.doubles_roll_again and a == b and used == 4:
            return "roll_again"
        return "end_turn"

    def game_value(self, loser_off: int, loser_in_winner_home_or_bar: bool) -> int:
        """Points won: 1, or with ``gammons`` 2 for a gammon and 3 for a backgammon."""
        if not self.gammons or loser_off > 0:
            return 1
        return 3 if loser_in_winner_home_or_bar else 2

    # -- identity ------------------------------------------------------------------------------
    @property
    def option_values(self) -> dict[str, object]:
        """The values of this instance's options."""
        return dict(self._options)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Variant)
            and other.name == self.name
            and other._options == self._options
        )

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self._options.items()))))

    def __repr__(self) -> str:
        opts = "".join(
            f", {k}={v!r}" for k, v in self._options.items() if v != self.options[k]
        )
        return f"find_variant({self.name!r}{opts})"

    @property
    def bar_point(self) -> int:
        """The number that stands for the bar in a step's start (``points + 1``)."""
        return self.points + 1


VARIANTS: dict[str, type[Variant]] = {}


def register(cls: type[Variant]) -> type[Variant]:
    """Class decorator adding a variant to the registry under its name and aliases."""
    for key in (cls.name, *cls.aliases):
        VARIANTS[key.lower()] = cls
    return cls


def find_variant(name: str | Variant, **options: object) -> Variant:
    """Return the variant called ``name`` (or one of its aliases), built with ``options``.

    >>> find_variant("Mini-Gam", bar_first=True)
    find_variant('minigam', bar_first=True)
    """
    if isinstance(name, Variant):
        if options:
            return type(name)(**{**name.option_values, **options})
        return name
    if not isinstance(name, str):
        raise VariantError(f"a variant name must be a string, not {name!r}")
    try:
        cls = VARIANTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted({c.name for c in VARIANTS.values()}))
        raise VariantError(f"unknown variant {name!r}; known variants: {known}") from None
    return cls(**options)


from . import mexican, minigam, standard  # noqa: E402,F401  (registers the variants)
