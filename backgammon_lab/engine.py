"""The turn engine: one immutable state and one transition, for every variant.

Everything that happens in a game happens in :func:`advance`::

    >>> from backgammon_lab.engine import start_state, advance, OpeningRoll, KEEP
    >>> s = start_state("mexican")
    >>> s.phase
    Phase.OPENING
    >>> s, events = advance(s, OpeningRoll(5, 3))
    >>> [e.text for e in events]
    ['Opening roll: White 5, Black 3. White goes first.', 'White may keep 5-3 or roll both dice again.']
    >>> s, events = advance(s, KEEP)
    >>> s.phase, len(s.plays)
    (Phase.PLAY, 9)

A :class:`TurnState` holds everything the game knows at one point: the position (with the steps of
the turn played so far), the phase, the roll, the dice left, whether the roll is a Mexican or named
doubles, the turn's legal plays (computed once, when the dice are known), the last play and the dice
lost when a turn ends early. :func:`advance` takes a state and one action and returns the next state
and the :class:`Event` values that say what happened, in data and in words (``event.text``). It
never changes its argument: a refused action raises and leaves nothing changed.

Actions are small frozen values: :class:`OpeningRoll` and :class:`RollDice` at the two chance
phases, :data:`KEEP` and :data:`REROLL` for Mexican's opening choice, :class:`NameDoubles` after a
Mexican, :class:`MakePlay` (a whole play) and :class:`MakeStep` (one checker, one die) when playing.
Dice are part of the action: drawing them at random is the caller's business
(:class:`~backgammon_lab.game.Game` keeps a seeded generator; rollouts and the trainer draw their
own), so the transition is a pure function.

What follows a play (naming doubles, rolling again, the end of the turn) is the variant's
:meth:`~backgammon_lab.variants.Variant.after_play` hook; what is legal is :mod:`backgammon_lab.rules`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import GameError, IllegalMoveError, whole_number
from .position import BLACK, WHITE, Play, Player, Position, Roll, Step, format_play, other
from .rules import Explanation, PlayList, PlayNode, legal_plays
from .variants import Rule, Variant, find_variant

__all__ = [
    "Phase", "TurnState", "advance", "start_state", "position_state", "dice_state", "choice_state", "naming_state",
    "Action", "OpeningRoll", "RollDice", "Choice", "KEEP", "REROLL", "NameDoubles", "MakePlay", "MakeStep",
    "Event", "OpeningRolled", "ChoiceOffered", "DiceKept", "DiceRerolled", "Rolled", "DoublesNamed",
    "StepPlayed", "Played", "TurnLost", "DiceLost", "RerollDue", "NamingDue", "TurnPassed", "GameOver",
    "Outcome", "after_play", "play", "MAX_ACTIONS", "ALL_ROLLS", "OPENING_OUTCOMES", "chance_outcomes", "as_action", "player_name", "roll_text", "play_text",
]


class Phase(enum.StrEnum):
    """The phases of a game. A :class:`~enum.StrEnum`: ``Phase.PLAY == "play"`` is true."""

    OPENING = "opening"  #: chance: each player rolls one die (ties roll again)
    CHOICE = "choice"  #: decision (Mexican M2): keep the opening dice or roll both again
    ROLL = "roll"  #: chance: the player to move rolls two dice
    PLAY = "play"  #: decision: one of the legal plays, whole or step by step
    NAME = "name"  #: decision (Mexican M8): name doubles after a Mexican
    OVER = "over"  #: the game has ended

    @property
    def is_chance(self) -> bool:
        """True for the two phases whose next action is a roll of the dice."""
        return self in (Phase.OPENING, Phase.ROLL)

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


#: The 21 distinct rolls (higher die first) and their probabilities out of 36.
ALL_ROLLS: tuple[tuple[Roll, float], ...] = tuple(
    (Roll(a, b), (1 if a == b else 2) / 36) for a in range(6, 0, -1) for b in range(a, 0, -1)
)


# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """The opening roll: one die each (phase ``opening``)."""

    white: int
    black: int

    def __post_init__(self) -> None:
        Roll(self.white, self.black)  # validates both dice (DiceError)


@dataclass(frozen=True, slots=True)
class RollDice:
    """A roll of two dice (phase ``roll``)."""

    roll: Roll


class Choice(enum.StrEnum):
    """Mexican's opening choice (phase ``choice``): keep the opening dice or roll both again (M2).

    A :class:`~enum.StrEnum`: ``Choice.KEEP == "keep"``.
    """

    KEEP = "keep"
    REROLL = "reroll"

    @property
    def keep(self) -> bool:
        """True for keeping the opening dice."""
        return self is Choice.KEEP

    def __repr__(self) -> str:
        return f"Choice.{self.name}"


KEEP = Choice.KEEP
REROLL = Choice.REROLL


@dataclass(frozen=True, slots=True)
class NameDoubles:
    """Doubles named after a Mexican (phase ``name``), 1..6 (M8)."""

    number: int

    def __post_init__(self) -> None:
        whole_number(self.number, "named doubles", 1, 6, GameError)


@dataclass(frozen=True, slots=True)
class MakePlay:
    """A whole play of the roll, from the turn's start (it replaces steps clicked so far)."""

    play: Play


@dataclass(frozen=True, slots=True)
class MakeStep:
    """One step (one checker, one die) that continues a legal play."""

    step: Step


Action = OpeningRoll | RollDice | Choice | NameDoubles | MakePlay | MakeStep


# ---------------------------------------------------------------------------------------------
# Events


def player_name(player: Player) -> str:
    """``"White"`` or ``"Black"``."""
    return player.capitalize()


def roll_text(roll: Roll) -> str:
    """A roll as players write it: the higher die first (``5-2``), whatever order it was thrown in.

    >>> roll_text(Roll(2, 5))
    '5-2'
    """
    return f"{roll.high}-{roll.low}"


def play_text(play: Play, roll: Roll) -> str:
    """A play of ``roll`` as the game writes it: in the order played where the roll's dice must be
    played in one order (Mexican's lower die first), else as players write it, highest start first
    (:func:`~backgammon_lab.position.format_play` writes it either way).

    >>> from backgammon_lab.position import Step
    >>> pos = Position.from_string("mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5")
    >>> play = Play((Step(6, 5, 1), Step(13, 11, 2)), pos)
    >>> play_text(play, Roll(2, 1)), str(play)
    ('6/5 13/11', '13/11 6/5')
    """
    variant = play.position.variant
    ordered = not roll.is_double and len(variant.dice_orders(roll.dice)) == 1
    return format_play(play.steps, variant.points, played_order=ordered)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; ``text`` says it in words."""

    player: Player

    #: The text as a :meth:`str.format` template: ``{who}`` is the player's name, ``{e}`` the event,
    #: ``{roll}`` the event's roll as players write it (the higher die first, :func:`roll_text`), and
    #: any other name is one of :meth:`_words`. Events whose wording depends on a field override
    #: :meth:`_template`.
    _text: ClassVar[str] = ""

    @property
    def text(self) -> str:
        """The event in plain words."""
        roll = getattr(self, "roll", None)
        rolled = {"roll": roll_text(roll)} if isinstance(roll, Roll) else {}
        return self._template().format(e=self, who=player_name(self.player), **rolled, **self._words())

    def _template(self) -> str:
        return self._text

    def _words(self) -> dict[str, Any]:
        """Parts of the text that a template cannot reach through the event's fields."""
        return {}

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class OpeningRolled(Event):
    """The opening roll; ``player`` is the winner (White on a tie, when ``tie`` is true)."""

    white: int
    black: int

    @property
    def tie(self) -> bool:
        """Both dice equal: the players roll again."""
        return self.white == self.black

    def _template(self) -> str:
        if self.tie:
            return "Opening roll: both players roll {e.white}; they roll again."
        return "Opening roll: White {e.white}, Black {e.black}. {who} goes first."

    @property
    def brief(self) -> str:
        """The opening in a few words, for a record line: ``Opening: White 5, Black 3``."""
        if self.tie:
            return f"Opening: both roll {self.white}, again"
        return f"Opening: White {self.white}, Black {self.black}"


@dataclass(frozen=True, slots=True)
class ChoiceOffered(Event):
    """Mexican (M2): the opening winner may keep the dice or roll both again."""

    roll: Roll

    _text = "{who} may keep {roll} or roll both dice again."


@dataclass(frozen=True, slots=True)
class DiceKept(Event):
    """The opening dice are kept and played (M2)."""

    roll: Roll

    _text = "{who} keeps the opening dice {roll}."


@dataclass(frozen=True, slots=True)
class DiceRerolled(Event):
    """The opening winner rolls both dice again (M2)."""

    _text = "{who} rolls both dice again."


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A roll of two dice; ``mexican`` when it is a Mexican (M8)."""

    roll: Roll
    mexican: bool = False

    # The Mexican is announced by the events that follow it.
    _text = "{who} rolls {roll}."


@dataclass(frozen=True, slots=True)
class DoublesNamed(Event):
    """Doubles named after a Mexican (M8)."""

    number: int

    _text = "{who} names {e.number}-{e.number}."


@dataclass(frozen=True, slots=True)
class StepPlayed(Event):
    """One step of a play, clicked on its own; ``points`` is the board size (for the text)."""

    step: Step
    points: int

    _text = "{who} moves {step}."

    def _words(self) -> dict[str, Any]:
        return {"step": self.step.text(self.points)}


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A complete play of the roll."""

    play: Play
    roll: Roll

    _text = "{who} plays {steps}."

    @property
    def steps_text(self) -> str:
        """The play's steps as the game writes them (:func:`play_text`): ``24/22 13/8``."""
        return play_text(self.play, self.roll)

    def _words(self) -> dict[str, Any]:
        return {"steps": self.steps_text}


@dataclass(frozen=True, slots=True)
class TurnLost(Event):
    """No legal move with the roll: the turn ends at once. ``reason`` is a short code
    (``lower_die_blocked``, ``lower_die_cannot_enter``, ``cannot_enter``, ``no_move``) and
    ``rerolls_lost`` says a re-roll or naming the roll would have earned is lost too."""

    roll: Roll
    reason: str
    die: int
    rerolls_lost: bool = False

    _texts: ClassVar[dict[str, str]] = {
        "lower_die_cannot_enter": "The lower die, {e.die}, cannot enter from the bar: the turn is lost.",
        "lower_die_blocked": "The lower die, {e.die}, cannot be played: the turn is lost.",
        "cannot_enter": "No checker can enter from the bar with {roll}: the turn passes.",
        "no_move": "No legal move with {roll}: the turn passes.",
    }
    #: The same in a few words, for a record line (``3. White 6-5: no checker can enter: no move``).
    _briefs: ClassVar[dict[str, str]] = {
        "lower_die_cannot_enter": "the lower die cannot enter: turn lost",
        "lower_die_blocked": "the lower die cannot be played: turn lost",
        "cannot_enter": "no checker can enter: no move",
        "no_move": "no legal move",
    }

    def _template(self) -> str:
        return self._texts[self.reason] + (" No re-roll." if self.rerolls_lost else "")

    @property
    def brief(self) -> str:
        """The lost turn in a few words, for a record: ``the lower die cannot be played: turn lost``."""
        return self._briefs[self.reason] + (", no re-roll" if self.rerolls_lost else "")


@dataclass(frozen=True, slots=True)
class DiceLost(Event):
    """Part of the roll could not be played: ``used`` of ``total`` moves were, the rest is lost.

    ``reason``: ``mexican_high`` (the 2 of a Mexican: no naming, no re-roll, M8), ``doubles``
    (moves of doubles lost, no re-roll, M7), ``high_after_low`` (the higher die after the lower,
    M3), ``one_die`` (only one die could be played), ``some_doubles`` (doubles without a re-roll).
    """

    roll: Roll
    used: int
    total: int
    reason: str
    die: int

    _texts: ClassVar[dict[str, str]] = {
        "mexican_high": "The {e.roll.high} cannot be played: no doubles may be named and there is no re-roll.",
        "doubles": "Only {e.used} of the four {e.roll.first}s could be played: the rest is lost and there "
                   "is no re-roll.",
        "high_after_low": "The {e.roll.high} cannot be played after the {e.roll.low}: the rest of the turn is lost.",
        "some_doubles": "Only {e.used} of the four {e.roll.first}s could be played.",
        "one_die": "Only one die could be played: the {e.die}.",
    }

    def _template(self) -> str:
        return self._texts[self.reason]


@dataclass(frozen=True, slots=True)
class RerollDue(Event):
    """All four moves of doubles were played: the same player rolls again (M7, M8)."""

    roll: Roll

    _text = "All four {e.roll.first}s were played: {who} rolls again."


@dataclass(frozen=True, slots=True)
class NamingDue(Event):
    """Both dice of a Mexican were played: the player names doubles (M8)."""

    _text = "A Mexican! {who} names any doubles to play."


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """The turn passes; ``player`` is the one to roll next."""

    _text = "{who} to roll."


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game has ended: ``player`` has borne off every checker and wins ``points``."""

    points: int

    _text = "{who} has borne off every checker and wins {e.points} point{s}{kind}."
    _kinds: ClassVar[dict[int, str]] = {2: "a gammon", 3: "a backgammon"}

    def _words(self) -> dict[str, Any]:
        kind = self._kinds.get(self.points)
        return {"s": "s" if self.points > 1 else "", "kind": f" ({kind})" if kind else ""}

    @property
    def brief(self) -> str:
        """The result in a few words, for a record line: ``wins 2 points, a gammon``."""
        kind = self._kinds.get(self.points)
        return f"wins {self.points} point{'s' if self.points > 1 else ''}" + (f", {kind}" if kind else "")


# ---------------------------------------------------------------------------------------------
# What follows a play


#: The rule behind each way of losing dice: a reason code of :data:`~backgammon_lab.rules.REASONS`,
#: whose words the variant quotes (:meth:`Variant.rule <backgammon_lab.variants.Variant.rule>`).
_LOSS_RULES: dict[str, str] = {
    "lower_die_cannot_enter": "turn_lost", "lower_die_blocked": "turn_lost", "cannot_enter": "bar_first",
    "no_move": "play_complete", "mexican_high": "play_complete", "doubles": "use_all_moves",
    "some_doubles": "use_all_moves", "high_after_low": "use_both_dice", "one_die": "larger_die",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What follows a play of ``roll`` that used ``used`` steps (the game not won by it).

    ``next``: ``"name"`` (a Mexican's both dice played: name doubles, M8), ``"roll_again"``
    (doubles in full, M7, M8) or ``"end_turn"`` -- the variant's
    :meth:`~backgammon_lab.variants.Variant.after_play`. ``lost``: the dice not played, lowest
    first; ``reason``: why (a :class:`TurnLost` reason when nothing could be played, else a
    :class:`DiceLost` one; None when nothing is lost); ``rerolls_lost``: a re-roll or naming the
    roll would have earned is forfeited; ``rule``: the rule that says so, in its own words.
    :meth:`event` is the event that tells it (``event(player).text``).
    """

    roll: Roll
    used: int
    next: str
    lost: tuple[int, ...]
    reason: str | None
    rerolls_lost: bool
    rule: Rule | None
    die: int  #: the die the event names: the lower die of a lost turn, the first die played when dice are lost

    def event(self, player: Player) -> Event | None:
        """The event that says what follows, for ``player``: :class:`TurnLost`, :class:`DiceLost`,
        :class:`NamingDue` or :class:`RerollDue`; None when the turn simply passes."""
        roll = self.roll
        if self.next == "name":
            return NamingDue(player)
        if self.next == "roll_again":
            return RerollDue(player, roll)
        if self.reason is None:
            return None
        if not self.used:
            return TurnLost(player, roll, self.reason, self.die, self.rerolls_lost)
        return DiceLost(player, roll, self.used, self.used + len(self.lost), self.reason, self.die)


def after_play(position: Position, roll: Roll, play: Play | Sequence[Step], *, named: bool = False) -> Outcome:
    """What follows ``play`` (a :class:`Play` or its steps; ``()`` for no move) of ``roll`` from
    ``position`` (the turn's start): the variant's
    :meth:`~backgammon_lab.variants.Variant.after_play`, the dice lost and why, and whether a
    re-roll is forfeited (:class:`Outcome`). The one place these are decided: the engine's events,
    the widget and the lessons read it.

    >>> o = after_play(Position.start("mexican"), Roll(6, 6), [Step(24, 18, 6), Step(24, 18, 6)])
    >>> o.next, o.lost, o.reason, o.rerolls_lost, o.rule.id
    ('end_turn', (6, 6), 'doubles', True, 'M7')
    """
    v = position.variant
    a, b = dice = roll.first, roll.second
    used = len(play)
    nxt = v.after_play(dice, named, used)
    if nxt != "end_turn" or used == (4 if a == b else 2):  # every die played, or more to come
        return _outcome(roll, used, nxt, (), None, False, None, max(a, b))
    played = [s.die for s in (play.steps if isinstance(play, Play) else play)]
    left = [a] * 4 if a == b else sorted(dice)
    for d in played:
        left.remove(d)
    die = played[0] if played else roll.high
    rerolls_lost = v.after_play(dice, named, used + len(left)) != "end_turn"
    if not used:
        die = roll.low
        on_bar = v.bar_first and position.count(position.turn, v.bar) > 0
        if v.low_die_first and not roll.is_double:
            reason = "lower_die_cannot_enter" if on_bar else "lower_die_blocked"
        else:
            reason = "cannot_enter" if on_bar else "no_move"
    elif rerolls_lost:
        reason = "doubles" if roll.is_double else "mexican_high"
    elif roll.is_double:
        reason = "some_doubles"
    else:
        reason = "high_after_low" if v.low_die_first else "one_die"
    return _outcome(roll, used, nxt, tuple(left), reason, rerolls_lost, v.rule(_LOSS_RULES[reason]), die)


# ---------------------------------------------------------------------------------------------
# The state


@dataclass(frozen=True, slots=True)
class TurnState:
    """Everything the game knows at one point; immutable (see the module docstring).

    ``position``: the checkers now (the steps of this turn applied), ``turn`` the player who acts.
    ``roll``: the dice of the current roll (named doubles included), in the phases ``choice``,
    ``play`` and, for the picture, ``name``. ``steps``: the steps of the current play clicked so
    far. ``node``: in phase ``play``, where those steps lead in the tree of the roll's legal plays
    (:class:`~backgammon_lab.rules.PlayNode`: what may come next and why not, computed once when the
    dice are known); ``plays`` is that tree (:class:`~backgammon_lab.rules.PlayList`) and
    ``turn_start`` the position before the steps. ``reroll``: in phase ``roll``, the same player rolls
    again in the same turn. ``last_play``: the last complete play, and ``lost``: the dice that
    could not be played when the last turn ended early (for the views). ``named_from``: the
    Mexican, as rolled, whose named doubles are being played.
    """

    position: Position
    phase: Phase
    roll: Roll | None = None
    named: bool = False
    steps: tuple[Step, ...] = ()
    node: PlayNode | None = field(default=None, compare=False, repr=False)
    opening: tuple[int, int] | None = None
    reroll: bool = False
    winner: Player | None = None
    points: int = 0
    last_play: Play | None = field(default=None, compare=False, repr=False)
    lost: tuple[int, ...] = ()
    named_from: Roll | None = None

    # -- what the views read -------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        """The variant being played."""
        return self.position.variant

    @property
    def player(self) -> Player:
        """The player who acts next (rolls, chooses or plays)."""
        return self.position.turn

    @property
    def mexican(self) -> bool:
        """The roll is a Mexican (1-2 rolled, not named, in a variant with Mexicans; M8)."""
        r = self.roll
        return r is not None and not self.named and self.variant.mexican and r.is_mexican

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.phase is Phase.OVER

    @property
    def plays(self) -> PlayList | None:
        """The legal plays of the roll (phase ``play``): the tree the node belongs to."""
        node = self.node
        return node.tree if node is not None else None

    @property
    def turn_start(self) -> Position:
        """The position at the start of the current play (before the clicked steps)."""
        node = self.node
        return node.tree.position if node is not None else self.position

    @property
    def dice_left(self) -> tuple[int, ...]:
        """The dice of the roll not yet used by the steps clicked so far (phase ``play``), low first."""
        r = self.roll
        if r is None or self.phase is not Phase.PLAY:
            return ()
        left = [r.first] * 4 if r.is_double else sorted(r.dice)
        for s in self.steps:
            left.remove(s.die)
        return tuple(left)

    def next_steps(self) -> list[Step]:
        """The single steps that continue a legal play after the clicked steps (phase ``play``).

        Read from the turn's plays: no new search of the legal plays.
        """
        if self.phase is not Phase.PLAY or self.node is None:
            return []
        return self.node.next_steps()

    def explain(self, step: Any) -> Explanation:
        """Why ``step`` may or may not be played next (phase ``play``), read from the turn's plays:
        no new search (:meth:`PlayNode.explain <backgammon_lab.rules.PlayNode.explain>`)."""
        if self.phase is not Phase.PLAY or self.node is None:
            raise GameError(f"no step can be played in phase {self.phase.value!r} ({self.hint()})")
        return self.node.explain(step)

    def completions(self) -> list[Play]:
        """The legal plays that the clicked steps can still lead to (all plays when none is clicked)."""
        if self.phase is not Phase.PLAY or self.node is None:
            return []
        return self.node.completions()

    def at_turn_start(self) -> TurnState:
        """The state before the steps clicked so far were played (phase ``play``, the same roll and
        plays); the state itself when no step is clicked."""
        node = self.node
        if not self.steps or node is None:
            return self
        return _state(node.tree.position, Phase.PLAY, roll=self.roll, named=self.named, node=node.tree.root,
                      opening=self.opening, last_play=self.last_play, named_from=self.named_from)

    def legal_actions(self) -> list[Any]:
        """The decisions open now: plays (phase ``play``), ``KEEP``/``REROLL``, or ``NameDoubles(1..6)``."""
        ph = self.phase
        if ph is Phase.PLAY:
            return self.completions()
        if ph is Phase.CHOICE:
            return [KEEP, REROLL]
        if ph is Phase.NAME:
            return [NameDoubles(k) for k in range(1, 7)]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance phase, the actions the dice may bring and their probabilities."""
        return chance_outcomes(self)

    def hint(self) -> str:
        """What happens next, in a few words (``"White rolls"``, ``"Black plays 6-5"``)."""
        who = player_name(self.player)
        ph = self.phase
        if ph is Phase.OPENING:
            return "each player rolls one die"
        if ph is Phase.CHOICE:
            return f"{who} keeps the opening dice or rolls again"
        if ph is Phase.ROLL:
            return f"{who} rolls again" if self.reroll else f"{who} rolls"
        if ph is Phase.PLAY:
            named = " (named doubles)" if self.named else ""
            return f"{who} plays {self.roll}{named}"
        if ph is Phase.NAME:
            return f"{who} names doubles"
        return f"{player_name(self.winner or WHITE)} has won"


def _slot_constructor(cls: type) -> Any:
    """A constructor of the frozen slotted dataclass ``cls`` that fills its slots directly: the same
    parameters, defaults and value as ``cls(...)``, without the frozen dataclass's per-field
    ``object.__setattr__``. Written once at import from :func:`dataclasses.fields`, so the list of
    fields lives in the class only."""
    env: dict[str, Any] = {"new": object.__new__, "cls": cls}
    params, lines = [], []
    for f in fields(cls):
        if f.default_factory is not MISSING or not f.init or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: a slot constructor takes plain fields only")
        if f.default is MISSING:
            params.append(f.name)
        else:
            env[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        env[f"set_{f.name}"] = getattr(cls, f.name).__set__
        lines.append(f"    set_{f.name}(s, {f.name})\n")
    source = f"def make({', '.join(params)}):\n    s = new(cls)\n{''.join(lines)}    return s\n"
    exec(compile(source, f"<slot constructor of {cls.__name__}>", "exec"), env)
    return env["make"]


if TYPE_CHECKING:  # pragma: no cover - type checkers see the class: the same parameters
    _state = TurnState
    _outcome = Outcome
else:
    #: A :class:`TurnState` built through its slots: the transition makes one per action, and
    #: rollouts make millions; an :class:`Outcome` likewise, one per play.
    _state = _slot_constructor(TurnState)
    _outcome = _slot_constructor(Outcome)


def start_state(variant: str | Variant = "standard") -> TurnState:
    """The state before the opening roll of a new game."""
    return _state(Position.start(find_variant(variant)), Phase.OPENING)


def position_state(position: Position) -> TurnState:
    """The state of a set-up position: ``position.turn`` rolls next."""
    if not isinstance(position, Position):
        raise GameError(f"a game starts from a Position, not {position!r}")
    if position.is_over:
        raise GameError(f"the game is already over in {position!r}")
    return _state(position, Phase.ROLL)


def dice_state(position: Position, roll: Roll, *, named: bool = False) -> TurnState:
    """The state once ``roll`` is known in ``position`` (``named``: doubles named after a
    Mexican): phase ``play`` with the turn's plays, or, when no move is possible, the next turn."""
    if position.is_over:
        raise GameError(f"the game is already over in {position!r}")
    return _start_play(_state(position, Phase.ROLL), Roll.parse(roll), named, ())[0]


def choice_state(position: Position, roll: Any) -> TurnState:
    """The state of Mexican's opening choice (M2): ``position.turn`` won the opening with ``roll``
    (two different dice) and may keep it or roll both dice again."""
    r = Roll.parse(roll)
    if not position.variant.opening_choice:
        raise GameError(f"{position.variant.title} has no opening choice")
    if r.is_double:
        raise GameError(f"an opening roll is never doubles, not {r}")
    return _state(position, Phase.CHOICE, roll=r, opening=(r.first, r.second))


def naming_state(position: Position) -> TurnState:
    """The state after both dice of a Mexican (1-2) were played (M8): ``position.turn`` names doubles."""
    if not position.variant.mexican:
        raise GameError(f"{position.variant.title} has no Mexicans to name doubles after")
    if position.is_over:
        raise GameError(f"the game is already over in {position!r}")
    return _state(position, Phase.NAME, roll=Roll(2, 1))


OPENING_OUTCOMES: tuple[tuple[OpeningRoll, float], ...] = tuple(
    (OpeningRoll(a, b), 1 / 36) for a in range(1, 7) for b in range(1, 7)
)
_ROLL_OUTCOMES: tuple[tuple[RollDice, float], ...] = tuple((RollDice(r), p) for r, p in ALL_ROLLS)


def chance_outcomes(state: TurnState) -> list[tuple[Action, float]]:
    """The outcomes of the chance phase ``state`` is in, with their probabilities."""
    if state.phase is Phase.OPENING:
        return list(OPENING_OUTCOMES)
    if state.phase is Phase.ROLL:
        return list(_ROLL_OUTCOMES)
    raise GameError(f"no roll of the dice is due in phase {state.phase.value!r} ({state.hint()})")


# ---------------------------------------------------------------------------------------------
# The transition


Events = tuple[Event, ...]


def advance(state: TurnState, action: Action) -> tuple[TurnState, Events]:
    """The one transition of the game flow: the state after ``action``, and what happened.

    Raises :class:`~backgammon_lab.errors.GameError` for an action that does not fit the phase and
    :class:`~backgammon_lab.errors.IllegalMoveError` for a play or step the rules forbid; ``state``
    is immutable, so a refused action changes nothing.
    """
    ph = state.phase
    if isinstance(action, MakePlay):
        _need(state, Phase.PLAY, action)
        return _play(state, _match(state, action.play))
    if isinstance(action, MakeStep):
        _need(state, Phase.PLAY, action)
        return _step(state, action.step)
    if isinstance(action, RollDice):
        _need(state, Phase.ROLL, action)
        roll = action.roll
        if not isinstance(roll, Roll):
            raise GameError(f"RollDice takes a Roll, not {roll!r}")
        mex = state.variant.mexican and roll.is_mexican
        return _start_play(state, roll, False, (Rolled(state.player, roll, mex),))
    if isinstance(action, OpeningRoll):
        _need(state, Phase.OPENING, action)
        return _opening(state, action.white, action.black)
    if isinstance(action, Choice):
        _need(state, Phase.CHOICE, action)
        assert state.roll is not None
        if action.keep:
            return _start_play(state, state.roll, False, (DiceKept(state.player, state.roll),))
        new = _state(state.position, Phase.ROLL, reroll=True, opening=state.opening,
                     last_play=state.last_play)
        return new, (DiceRerolled(state.player),)
    if isinstance(action, NameDoubles):
        _need(state, Phase.NAME, action)
        k = action.number
        return _start_play(state, Roll(k, k), True, (DoublesNamed(state.player, k),))
    raise GameError(f"not an action: {action!r} (the game is in phase {ph.value!r}: {state.hint()})")


def _need(state: TurnState, phase: Phase, action: Any) -> None:
    if state.phase is not phase:
        raise GameError(f"cannot do that now: {action!r} needs phase {phase.value!r}, but the game is in "
                        f"phase {state.phase.value!r} ({state.hint()})")


def _opening(state: TurnState, w: int, b: int) -> tuple[TurnState, Events]:
    if w == b:
        new = _state(state.position, Phase.OPENING, opening=(w, b))
        return new, (OpeningRolled(WHITE, w, b),)
    winner = WHITE if w > b else BLACK
    pos = state.position.with_turn(winner)
    roll = Roll(max(w, b), min(w, b))
    ev: tuple[Event, ...] = (OpeningRolled(winner, w, b),)
    if pos.variant.opening_choice:
        new = _state(pos, Phase.CHOICE, roll=roll, opening=(w, b))
        return new, ev + (ChoiceOffered(winner, roll),)
    return _start_play(_state(pos, Phase.ROLL, opening=(w, b)), roll, False, ev)


def _start_play(state: TurnState, roll: Roll, named: bool, events: Events) -> tuple[TurnState, Events]:
    """The dice are known: compute the turn's plays once; a roll with no legal move ends the turn."""
    pos = state.position
    plays = legal_plays(pos, roll)
    if plays.length:
        return _state(pos, Phase.PLAY, roll=roll, named=named, node=plays.root, opening=state.opening,
                      last_play=state.last_play, named_from=state.roll if named else None), events
    out = after_play(pos, roll, (), named=named)
    ev = out.event(pos.turn)
    assert ev is not None
    return _end_turn(pos, state.last_play, out.lost, events + (ev,))


def _end_turn(pos: Position, last: Play | None, lost: tuple[int, ...], events: Events) -> tuple[TurnState, Events]:
    nxt = other(pos.turn)
    return _state(pos.with_turn(nxt), Phase.ROLL, last_play=last, lost=lost), events + (TurnPassed(nxt),)


def _match(state: TurnState, play: Any) -> Play:
    plays = state.plays
    assert plays is not None
    if isinstance(play, Play):
        for p in plays:
            if p is play:
                return p
        target = play.position
        for p in plays:
            if p.position == target:
                return p
        raise IllegalMoveError(f"play {str(play)!r} is not legal with {state.roll} here",
                               "illegal", "That play is not among the legal plays.")
    raise GameError(f"MakePlay takes a Play, not {play!r}")


def _step(state: TurnState, step: Any) -> tuple[TurnState, Events]:
    node = state.node
    assert node is not None and state.roll is not None
    s, nxt = node.take(step)
    steps = state.steps + (s,)
    ev = StepPlayed(state.player, s, state.variant.points)
    if not nxt.complete:
        return _state(nxt.position, Phase.PLAY, roll=state.roll, named=state.named, steps=steps, node=nxt,
                      opening=state.opening, last_play=state.last_play, named_from=state.named_from), (ev,)
    new, events = _play(state, Play(steps, node.tree.play_at(nxt).position))
    return new, (ev,) + events


def _play(state: TurnState, play: Play) -> tuple[TurnState, Events]:
    """The state after ``play`` (from the turn's start) is made."""
    roll = state.roll
    assert roll is not None
    who = state.player
    pos = play.position
    ev: list[Event] = [Played(who, play, roll)]
    if pos.is_over:
        pts = pos.game_value()
        ev.append(GameOver(who, pts))
        return _state(pos, Phase.OVER, roll=roll, named=state.named, winner=who, points=pts,
                      last_play=play), tuple(ev)
    out = after_play(state.turn_start, roll, play, named=state.named)
    said = out.event(who)
    if said is not None:
        ev.append(said)
    if out.next == "name":
        return _state(pos, Phase.NAME, roll=roll, last_play=play), tuple(ev)
    if out.next == "roll_again":
        return _state(pos, Phase.ROLL, reroll=True, last_play=play), tuple(ev)
    return _end_turn(pos, play, out.lost, tuple(ev))


# ---------------------------------------------------------------------------------------------
# The driver loop


#: A game stopped after this many actions by :func:`play` is refused (no game comes near it).
MAX_ACTIONS = 100_000

Decide = Callable[[TurnState], Any]
Dice = Callable[[TurnState], tuple[int, int]]


def play(state: TurnState, decide: Decide, dice: Dice, *, until: Callable[[TurnState], bool] | None = None,
         max_actions: int = MAX_ACTIONS) -> Iterator[tuple[TurnState, Action, Events]]:
    """Drive a game from ``state``: the one loop over :func:`advance` (the game, the widget's bot,
    rollouts, position sampling and self-play training all use it).

    At a chance phase the action is the roll ``dice(state)`` returns (two dice ``(a, b)``: at the
    opening White's and Black's); at a decision it is ``decide(state)``'s (an action or a plain
    value :func:`as_action` reads). Yields ``(state, action, events)`` after each action, until
    the game is over or ``until(state)`` is true (asked before each action). The loop is lazy: a
    consumer that records each state before asking for the next sees ``decide`` called on it.
    Raises :class:`~backgammon_lab.errors.GameError` after ``max_actions`` actions.

    >>> import random
    >>> rng = random.Random(1)
    >>> last = None
    >>> for last, action, events in play(start_state("minigam"), lambda s: s.legal_actions()[0],
    ...                                  lambda s: (rng.randint(1, 6), rng.randint(1, 6))):
    ...     pass
    >>> last.phase
    Phase.OVER
    """
    over, roll, opening = Phase.OVER, Phase.ROLL, Phase.OPENING
    for _ in range(max_actions):
        ph = state.phase
        if ph is over or (until is not None and until(state)):
            return
        action: Action
        if ph is roll:
            a, b = dice(state)
            action = RollDice(Roll(a, b))
        elif ph is opening:
            a, b = dice(state)
            action = OpeningRoll(a, b)
        else:
            action = as_action(state, decide(state))
        state, events = advance(state, action)
        yield state, action, events
    if state.phase is not Phase.OVER and (until is None or not until(state)):
        raise GameError(f"a game did not end within {max_actions} actions")


# ---------------------------------------------------------------------------------------------
# Plain values to actions


def as_action(state: TurnState, value: Any) -> Action:
    """Turn a plain value into the action the current phase takes.

    Accepted: an action; at a chance phase a roll (``(5, 3)``, ``"5-3"``, a :class:`Roll`); in
    ``choice`` ``"keep"``/``"reroll"``; in ``name`` a number 1..6; in ``play`` a :class:`Play`, move
    text (``"24/18 13/11"``) or a list of steps (a whole play), or a :class:`Step`.
    """
    if isinstance(value, (OpeningRoll, RollDice, Choice, NameDoubles, MakePlay, MakeStep)):
        return value
    ph = state.phase
    if ph is Phase.OPENING:
        r = Roll.parse(value)
        return OpeningRoll(r.first, r.second)
    if ph is Phase.ROLL:
        return RollDice(Roll.parse(value))
    if ph is Phase.CHOICE:
        if isinstance(value, str) and value in ("keep", "reroll"):
            return Choice(value)
        raise GameError(f"the opening choice is 'keep' or 'reroll', not {value!r}")
    if ph is Phase.NAME:
        return NameDoubles(value)
    if ph is Phase.PLAY:
        assert state.plays is not None and state.roll is not None
        if isinstance(value, Play):
            return MakePlay(value)
        if isinstance(value, Step):
            return MakeStep(value)
        if isinstance(value, str):
            return MakePlay(state.plays.find(value))
        if isinstance(value, (list, tuple)):
            return MakePlay(_play_of_steps(state, value))
        raise GameError(f"a play is a Play, move text or a list of steps, not {value!r}")
    raise GameError(f"the game is over: no action is possible ({value!r})")


def _play_of_steps(state: TurnState, steps: Sequence[Any]) -> Play:
    """The legal play that a complete list of steps (from the turn's start) makes."""
    plays = state.plays
    assert plays is not None and state.roll is not None
    why = plays.explain_play(steps)
    if not why.legal:
        raise IllegalMoveError(f"steps {list(steps)!r} are not a legal play of {state.roll}: {why.message}",
                               why.code, why.message)
    return plays.play_at(plays.after(steps))
