"""The base of every variant: :class:`Variant` (facts and hooks), the single-step rule table
(:class:`StepCheck`), rule citations (:class:`Rule`) and the registry (:func:`register`,
:func:`find_variant`). The variants themselves live beside this module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ..errors import VariantError, show

__all__ = ["Variant", "find_variant", "VARIANTS", "register", "Rule", "StepCheck"]


@dataclass(frozen=True)
class Rule:
    """A rule as written down: the row of RULES.md or the seed it comes from, and the quoted text.

    ``id`` is a RULES.md row (``"M6"``, ``"G5"``), a section (``"Geometry"``, ``"Standard"``) or
    a seed (``"seed000"``); ``text`` is the sentence quoted word for word from that place.
    """

    id: str
    text: str

    def __str__(self) -> str:
        return f'{self.id}: "{self.text}"'


@dataclass(frozen=True)
class StepCheck:
    """One single-step rule: when a checker may not move with one die, and the sentence saying so.

    ``code`` names the rule; its condition is one compiled function of the same name in
    :mod:`backgammon_lab.kernels.movegen`, which both the move generator and
    :func:`backgammon_lab.rules.explain_step` call (a variant's table says which rules hold, in the
    order they are checked; a new rule is one more function there). ``at`` says which steps the
    check looks at: ``"source"`` (every step; defines which points hold a movable checker),
    ``"move"`` (every step), ``"land"`` (steps that land on a point) or ``"off"`` (steps that bear
    off). ``says`` is the explanation, a ``str.format`` template over ``s`` the start point
    (``BAR`` for the bar), ``d`` the die, ``t = s - d`` the end (``t <= 0``: off), ``x`` the
    landing point's count (the mover's checkers positive), ``hi`` the highest point holding one of
    the mover's checkers, the constants ``BAR``, ``CAP``, ``HOME``, and ``start``/``end`` (the
    points in words) and ``held`` (``-x``).
    """

    code: str
    at: Literal["source", "move", "land", "off"]
    says: str


# The single-step rules of every variant, switched on by the variant's facts (see step_checks).
_NO_CHECKER = StepCheck("no_checker", "source", "You have no checker on {start}.")
_BAR_FIRST = StepCheck("bar_first", "move",
                       "You have a checker on the bar: it must enter before any other checker moves.")
_BLOCKED = StepCheck("blocked", "land",
                     "Point {t} is held by {held} opposing checkers: a checker may land only on an open point.")
_STACK_CAP = StepCheck("stack_cap", "land",
                       "Point {t} already holds {x} of your checkers: no more than {CAP} may stand on a point.")
_BAR_NOT_EMPTY = StepCheck("bar_not_empty", "off", "You may not bear off while a checker of yours is on the bar.")
_NOT_HOME = StepCheck("not_home", "off", "You may bear off only when all your checkers are in your home board "
                      "(points 1-{HOME}); point {hi} still has one.")
_EXACT = StepCheck("bear_off_exact", "off",
                   "Checkers must be borne off exactly: a checker on point {s} needs a {s}, not a {d}.")
_HIGHER = StepCheck("bear_off_higher", "off",
                    "A {d} bears off from point {s} only when no checker stands higher; point {hi} has one.")

#: The rule texts every variant shares (RULES.md, "Geometry, for every variant").
_GEOMETRY: dict[str, Rule] = {
    "bad_point": Rule("Geometry", "Each player numbers the points from its own side: point 1 is nearest "
                      "its exit, point N (24, or 6 in Mini-Gam) farthest."),
    "backwards": Rule("Geometry", "A checker moves from high numbers to low and bears off past point 1."),
    "no_checker": Rule("Geometry", "A checker moves from high numbers to low and bears off past point 1."),
    "blocked": Rule("Geometry", "An open point holds at most one opposing checker; landing on a single "
                    "opposing checker hits it onto its owner's bar."),
}


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
        the key :attr:`bar` (``points + 1``) means the bar.
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

    def step_checks(self) -> tuple[StepCheck, ...]:
        """The single-step rules of this variant, in the order they are checked.

        Built from the facts: ``bar_first`` adds the bar rule, ``stacking_cap`` the cap,
        ``exact_bear_off`` chooses between exact bear-off and bearing off from the highest point
        with a larger die. A variant with a rule of its own overrides this hook.
        """
        checks = [_NO_CHECKER]
        if self.bar_first:
            checks.append(_BAR_FIRST)
        checks.append(_BLOCKED)
        if self.stacking_cap is not None:
            checks.append(_STACK_CAP)
        checks += [_BAR_NOT_EMPTY, _NOT_HOME, _EXACT if self.exact_bear_off else _HIGHER]
        return tuple(checks)

    #: Where each reason code's rule is written (see :meth:`rule`); variants add their own.
    rule_texts: ClassVar[dict[str, Rule]] = {}

    def rule(self, code: str) -> Rule | None:
        """The rule text behind a reason code in this variant (None for facts of the input alone).

        Looks in the variant's ``rule_texts``, then its base classes', then the shared geometry.
        """
        for cls in type(self).__mro__:
            texts = cls.__dict__.get("rule_texts")
            if texts and code in texts:
                return texts[code]  # type: ignore[no-any-return]
        return _GEOMETRY.get(code)

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
        return other is self or (
            isinstance(other, Variant)
            and other.name == self.name
            and other._options == self._options
        )

    def __hash__(self) -> int:
        got: int | None = self.__dict__.get("_hash")
        if got is None:  # the options are fixed at construction: hash them once (variants key caches)
            got = self.__dict__["_hash"] = hash((self.name, tuple(sorted(self._options.items()))))
        return got

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_hash", None)  # string hashes differ between processes: a copy hashes afresh
        return state

    def __repr__(self) -> str:
        opts = "".join(
            f", {k}={v!r}" for k, v in self._options.items() if v != self.options[k]
        )
        return f"find_variant({self.name!r}{opts})"

    # -- geometry: the one place that numbers the bar and turns one side's numbers into the other's --
    @property
    def bar(self) -> int:
        """The bar's number in a player's numbering: ``points + 1``, a step's start when a checker
        enters and the key of ``start`` for checkers that begin on the bar (the tray is
        :data:`~backgammon_lab.position.OFF`, 0).

        >>> find_variant("minigam").bar
        7
        """
        return self.points + 1

    def flip(self, point: int) -> int:
        """The other player's number of ``point`` (1..N): ``N + 1 - point``, as each player numbers
        the points from its own exit; the map is its own inverse.

        >>> find_variant("standard").flip(24)
        1
        """
        return self.points + 1 - point

    def renumber(self, point: int, player: str) -> int:
        """``point`` (1..N) between White's numbering and ``player``'s, either way (the map is its
        own inverse): the number itself for White, :meth:`flip` of it for Black. The board shows
        White's numbers; a step names the mover's.

        >>> v = find_variant("standard")
        >>> v.renumber(5, "white"), v.renumber(5, "black")
        (5, 20)
        """
        return point if player == "white" else self.flip(point)


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
        raise VariantError(f"a variant name must be a string, not {show(name)}")
    try:
        cls = VARIANTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted({c.name for c in VARIANTS.values()}))
        raise VariantError(f"unknown variant {show(name)}; known variants: {known}") from None
    return cls(**options)

