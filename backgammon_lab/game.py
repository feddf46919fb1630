"""Games: the history (undo, redo, records) around the turn engine.

The game flow itself (openings, Mexican choices, doubles chains, naming, forfeits, the end) is
:func:`backgammon_lab.engine.advance`; a :class:`Game` keeps the states it passed through, the
actions that led there, the events of each action and a seeded dice generator, so it can undo, redo,
jump through its history and write and read records.

Phases (``Game.phase``, a :class:`~backgammon_lab.engine.Phase`, equal to its string):

``"opening"`` (chance)
    Each player rolls one die; a tie rolls again (M2, G8, standard).
``"choice"`` (decision, Mexican only)
    The opening winner keeps the two opening dice or rolls both again (M2): ``"keep"``/``"reroll"``.
``"roll"`` (chance)
    The player to move rolls two dice.
``"play"`` (decision)
    Choose one of ``legal_plays`` (or click it step by step with :meth:`Game.step`). A roll with no
    legal move never stops here: the turn ends at once and a message says why.
``"name"`` (decision, Mexican only)
    After a Mexican (1-2) whose both dice were played, name doubles 1..6 (M8).
``"over"``
    The game has ended; ``winner`` and ``points`` are set.

Dice come from a seeded :class:`random.Random` or are set by hand; undo and redo move through the
history (the generator's state is part of it, so a re-roll after undo repeats the same dice).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import (
    ALL_ROLLS,
    KEEP,
    REROLL,
    Action,
    Choice,
    Event,
    MakePlay,
    MakeStep,
    NameDoubles,
    OpeningRoll,
    Phase,
    Played,
    RollDice,
    StepPlayed,
    TurnPassed,
    TurnState,
    advance,
    as_action,
    chance_outcomes,
    play,
    position_state,
    start_state,
)
from .errors import BackgammonError, GameError, NotationError, plain_message, whole_number
from .position import Play, Player, Position, Roll, Step
from .rules import PlayList
from .variants import Variant, find_variant

__all__ = ["Game", "HistoryEntry", "ALL_ROLLS", "roll_probability", "Phase"]

#: A record of a game may not hold more actions than this (a real game has a few hundred).
MAX_RECORD_ACTIONS = 100_000
#: The version of the game record that :meth:`Game.record` writes and :meth:`Game.from_record` reads.
RECORD_VERSION = 1


def roll_probability(roll: Roll) -> float:
    """Probability of a roll regardless of order: 1/36 for doubles, 2/36 otherwise."""
    return (1 if roll.is_double else 2) / 36


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One point of a game's history: the state, the action that led to it, that action's events,
    the text the action was given as (for records) and the dice generator's state."""

    state: TurnState
    action: Action | None
    events: tuple[Event, ...]
    text: str | None
    rng_state: Any


class Game:
    """A game of any variant, from the opening roll (or a given position) to the end.

    >>> g = Game("mexican", seed=7)
    >>> g.phase
    Phase.OPENING
    >>> g.roll((5, 3)).phase          # White 5, Black 3: White wins the opening
    Phase.CHOICE
    >>> g.choose("keep").phase
    Phase.PLAY
    >>> g.play("13/10 13/8").phase    # lower die first: the 3, then the 5
    Phase.ROLL
    >>> g.position.turn
    'black'
    """

    def __init__(self, variant: str | Variant = "standard", *, seed: int | None = None,
                 rng: random.Random | None = None, position: Position | None = None,
                 dice: Any = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str, bytes))):
            raise GameError(f"a seed is an int or a string, not {seed!r}")
        if rng is not None and not isinstance(rng, random.Random):
            raise GameError(f"rng must be a random.Random, not {rng!r}")
        if position is not None and not isinstance(position, Position):
            raise GameError(f"a game starts from a Position, not {position!r}")
        self.variant = find_variant(variant) if position is None else position.variant
        if position is not None and variant not in ("standard", self.variant.name) and \
                find_variant(variant) != self.variant:
            raise GameError(f"position is a {self.variant.name} position, not {variant!r}")
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        if position is None:
            state = start_state(self.variant)
            self._start: Position | None = None
        else:
            state = position_state(position)
            self._start = position
        self._entries: list[HistoryEntry] = [HistoryEntry(state, None, (), None, self.rng.getstate())]
        self._index = 0
        if dice is not None:
            self.roll(dice)

    # -- state ---------------------------------------------------------------------------------
    @property
    def state(self) -> TurnState:
        """The current :class:`~backgammon_lab.engine.TurnState`."""
        return self._entries[self._index].state

    @property
    def position(self) -> Position:
        """The current position (``turn``: the player who acts next)."""
        return self.state.position

    @property
    def phase(self) -> Phase:
        """One of ``opening``, ``choice``, ``roll``, ``play``, ``name``, ``over``."""
        return self.state.phase

    @property
    def dice(self) -> Roll | None:
        """The roll being played (named doubles included), if any."""
        return self.state.roll

    @property
    def dice_left(self) -> list[int]:
        """The dice of the current roll not yet used by the steps played so far."""
        return list(self.state.dice_left)

    @property
    def events(self) -> tuple[Event, ...]:
        """What the last action made happen (:mod:`backgammon_lab.engine` events)."""
        return self._entries[self._index].events

    @property
    def messages(self) -> tuple[str, ...]:
        """What the rules did on the last action, in plain words."""
        return tuple(e.text for e in self.events)

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.state.phase is Phase.OVER

    @property
    def winner(self) -> Player | None:
        """The winner, once the game is over."""
        return self.state.winner

    @property
    def points(self) -> int:
        """Points won by the winner (0 while the game goes on)."""
        return self.state.points

    def is_chance(self) -> bool:
        """True at a chance node (the opening roll or a roll)."""
        return self.state.phase.is_chance

    @property
    def current_player(self) -> Player:
        """Who acts next."""
        return self.state.player

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, the outcomes and their probabilities."""
        return chance_outcomes(self.state)

    def legal_plays(self) -> PlayList:
        """The legal plays of the current dice (phase ``play``), whole plays from the turn's start."""
        st = self._need(Phase.PLAY)
        assert st.plays is not None
        return st.plays

    def legal_steps(self) -> list[Step]:
        """The next single steps that continue some legal play (phase ``play``)."""
        self._need(Phase.PLAY)
        return self.state.next_steps()

    def legal_actions(self) -> list[Any]:
        """At a decision: plays (``play``; those that complete the clicked steps), ``KEEP``/``REROLL``
        (``choice``) or ``NameDoubles(1..6)`` (``name``)."""
        return self.state.legal_actions()

    def _need(self, phase: Phase) -> TurnState:
        st = self.state
        if st.phase is not phase:
            raise GameError(f"cannot do that now: the game is in phase {st.phase.value!r} "
                            f"({st.hint()}), not {phase.value!r}")
        return st

    # -- actions -------------------------------------------------------------------------------
    def roll(self, dice: Any = None) -> Game:
        """Roll at a chance node: random from the seeded generator, or the ``dice`` given.

        At the opening ``dice`` is ``(white_die, black_die)``.
        """
        st = self.state
        if not st.phase.is_chance:
            raise GameError(f"cannot roll now: the game is in phase {st.phase.value!r} ({st.hint()})")
        if dice is None:
            a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
            action: Action = OpeningRoll(a, b) if st.phase is Phase.OPENING else RollDice(Roll(a, b))
            return self._do(action, drew=True)
        return self._do(as_action(st, dice))

    def choose(self, choice: str | Choice) -> Game:
        """Mexican opening choice: ``"keep"`` the opening dice or ``"reroll"`` both dice (M2)."""
        self._need(Phase.CHOICE)
        return self._do(as_action(self.state, choice))

    def name_doubles(self, number: int | NameDoubles) -> Game:
        """After a Mexican, name doubles ``number`` (1..6) and play them as four moves (M8)."""
        self._need(Phase.NAME)
        return self._do(as_action(self.state, number))

    def play(self, play: Play | str | Sequence[Any]) -> Game:
        """Play a whole roll: a :class:`Play`, move text (``"24/18 13/11"``) or a list of steps.

        A whole play replaces the steps clicked so far. A typed move is recorded as typed (spaces
        normalised), so a loaded record saves unchanged.
        """
        st = self._need(Phase.PLAY)
        if isinstance(play, MakeStep) or isinstance(play, Step):
            raise GameError(f"play() takes a whole play; use step() for one step: {play!r}")
        action = as_action(st, play)
        if not isinstance(action, MakePlay):
            raise GameError(f"play() takes a whole play, not {play!r}")
        text = " ".join(play.split()) if isinstance(play, str) else None
        return self._do(action, text=text, pop_steps=len(st.steps))

    def step(self, step: Any) -> Game:
        """Play one step (one checker, one die): a Step, ``(start, end)`` or ``"13/7"``.

        When the steps make a complete play, the play is committed and the game moves on.
        """
        self._need(Phase.PLAY)
        return self._do(MakeStep(step))

    def apply(self, action: Any) -> Game:
        """Apply a chance outcome or a decision, whichever the current phase takes (an engine
        action, or a plain value: dice, ``"keep"``, a number, a play, move text)."""
        st = self.state
        if st.phase is Phase.OVER:
            raise GameError(f"the game is over: no action is possible ({action!r})")
        if isinstance(action, MakeStep):
            return self._do(action)
        act = as_action(st, action)
        text = " ".join(action.split()) if isinstance(action, str) and st.phase is Phase.PLAY else None
        return self._do(act, text=text, pop_steps=len(st.steps) if isinstance(act, MakePlay) else 0)

    def _do(self, action: Action, text: str | None = None, pop_steps: int = 0, drew: bool = False) -> Game:
        """Advance the engine and record the entry. The dice generator's state is read only when
        this action drew from it (``drew``); otherwise the previous entry's state still holds."""
        index = self._index - pop_steps
        try:
            new, events = advance(self._entries[index].state, action)
        except BaseException:
            if drew:  # the roll is refused (never seen: drawn dice are valid): take the draw back
                self.rng.setstate(self._entries[self._index].rng_state)
            raise
        return self._record(index, new, action, events, text, drew)

    def _record(self, index: int, new: TurnState, action: Action, events: tuple[Event, ...], text: str | None,
                drew: bool) -> Game:
        """Record ``new`` as the entry after ``index`` (later entries are dropped)."""
        rng_state = self.rng.getstate() if drew else self._entries[self._index].rng_state
        del self._entries[index + 1:]
        self._entries.append(HistoryEntry(new, action, events, text, rng_state))
        self._index = index + 1
        return self

    # -- history -------------------------------------------------------------------------------
    @property
    def history(self) -> list[dict[str, Any]]:
        """The actions taken so far (up to the current point), as JSON-ready dicts."""
        return [self._action_json(e) for e in self._entries[1: self._index + 1]]

    @property
    def states(self) -> list[TurnState]:
        """Every state from the start to the current point."""
        return [e.state for e in self._entries[: self._index + 1]]

    @property
    def entries(self) -> list[HistoryEntry]:
        """Every history entry from the start to the current point."""
        return list(self._entries[: self._index + 1])

    @property
    def can_undo(self) -> bool:
        """True when there is an earlier point to go back to."""
        return self._index > 0

    @property
    def redo_entries(self) -> list[HistoryEntry]:
        """The entries after the current point (the branch that :meth:`redo` replays and a new
        action replaces)."""
        return list(self._entries[self._index + 1:])

    @property
    def can_redo(self) -> bool:
        """True when undone actions can be replayed."""
        return self._index < len(self._entries) - 1

    def undo(self, n: int = 1) -> Game:
        """Go back ``n`` actions (the dice generator goes back too)."""
        k = whole_number(n, "undo", error=GameError)
        if k < 0 or k > self._index:
            raise GameError(f"cannot undo {n!r} action(s); {self._index} can be undone")
        return self._go(self._index - k)

    def redo(self, n: int = 1) -> Game:
        """Replay ``n`` undone actions."""
        k = whole_number(n, "redo", error=GameError)
        last = len(self._entries) - 1
        if k < 0 or self._index + k > last:
            raise GameError(f"cannot redo {n!r} action(s); {last - self._index} can be redone")
        return self._go(self._index + k)

    def goto(self, index: int) -> Game:
        """Jump to point ``index`` of the history (0 = the start), keeping redo available."""
        i = whole_number(index, "goto", error=GameError)
        if not 0 <= i <= len(self._entries) - 1:
            raise GameError(f"no point {index!r} in this game's history (0..{len(self._entries) - 1})")
        return self._go(i)

    def _go(self, i: int) -> Game:
        self._index = i
        self.rng.setstate(self._entries[i].rng_state)
        return self

    @property
    def index(self) -> int:
        """The current point in the history (0 = the start)."""
        return self._index

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[TurnState]:
        return iter(self.states)

    # -- records -------------------------------------------------------------------------------
    def _action_json(self, e: HistoryEntry) -> dict[str, Any]:
        a = e.action
        prev_player = e.state.player
        if isinstance(a, OpeningRoll):
            return {"opening": [a.white, a.black]}
        if isinstance(a, RollDice):
            return {"roll": list(a.roll.dice)}
        if isinstance(a, Choice):
            return {"choice": str(a)}
        if isinstance(a, NameDoubles):
            return {"name": a.number}
        played = next((ev for ev in e.events if isinstance(ev, Played)), None)
        who = played.player if played is not None else prev_player
        if isinstance(a, MakePlay):
            # the text the play was given as (a match file's notation is kept), else the one writer's
            text = e.text if e.text is not None else played.steps_text if played is not None else str(a.play)
            return {"play": text, "player": who}
        if isinstance(a, MakeStep):
            step_ev = e.events[0]
            assert isinstance(step_ev, StepPlayed)
            out: dict[str, Any] = {"step": step_ev.step.text(self.variant.points), "player": step_ev.player}
            if played is not None:
                out["completes"] = played.steps_text
            return out
        raise AssertionError(a)  # pragma: no cover

    def record(self) -> dict[str, Any]:
        """The game record as a JSON-ready dict: every roll, choice, play, named double, re-roll.

        Consecutive steps are merged into the play they make.
        """
        actions: list[dict[str, Any]] = []
        pending: list[str] = []
        for a in self.history:
            if "step" in a:
                pending.append(a["step"])
                if "completes" in a:  # the step completed the play
                    actions.append({"play": a["completes"], "player": a["player"]})
                    pending = []
                continue
            actions.append(a)
        rec: dict[str, Any] = {"format": "backgammon_lab game record", "version": RECORD_VERSION,
                               "variant": self.variant.name}
        if self.variant.option_values != self.variant.options:
            rec["options"] = self.variant.option_values
        if self._start is not None:
            rec["start"] = self._start.to_json()
        rec["actions"] = actions
        if pending:
            rec["pending_steps"] = pending
        st = self.state
        if st.phase is Phase.OVER:
            rec["result"] = {"winner": st.winner, "points": st.points}
        return rec

    def to_json(self) -> str:
        """The game record as JSON text."""
        return json.dumps(self.record(), indent=1)

    @classmethod
    def from_record(cls, record: str | bytes | dict[str, Any], *, seed: int | None = None) -> Game:
        """Replay a game record (dict or JSON text); raises on any action the rules refuse."""
        src = record
        if isinstance(record, (str, bytes)):
            try:
                record = json.loads(record)
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise NotationError(f"malformed game record {src!r:.200}: {e}") from None
            except RecursionError:
                raise NotationError(f"game record {src!r:.200} is nested too deeply") from None
            except ValueError as e:  # a number too long to read
                raise NotationError(f"malformed game record {src!r:.200}: {plain_message(e)}") from None
        if not isinstance(record, dict) or "variant" not in record or "actions" not in record:
            raise NotationError(f"a game record is an object with 'variant' and 'actions': {src!r:.200}")
        version = record.get("version", RECORD_VERSION)
        if type(version) is not int or version != RECORD_VERSION:
            raise NotationError(f"this game record says \"version\": {version!r:.40}; this version of backgammon_lab "
                                f"reads version {RECORD_VERSION} (a newer program may have written it)")
        options = record.get("options", {})
        if not isinstance(options, dict):
            raise NotationError(f"a game record's 'options' is an object, not {options!r:.200}")
        actions = record["actions"]
        if not isinstance(actions, list):
            raise NotationError(f"a game record's 'actions' is a list, not {actions!r:.200}")
        if len(actions) > MAX_RECORD_ACTIONS:
            raise NotationError(f"a game record holds at most {MAX_RECORD_ACTIONS} actions, not {len(actions)}")
        pending = record.get("pending_steps", [])
        if not isinstance(pending, list):
            raise NotationError(f"a game record's 'pending_steps' is a list, not {pending!r:.200}")
        variant = find_variant(record["variant"], **options)
        start = record.get("start")
        try:
            pos = Position.from_json(start) if start else None
        except BackgammonError as e:
            raise type(e)(f"game record start: {e}") from None
        g = cls(variant, seed=seed, position=pos)
        for i, a in enumerate(actions):
            try:
                g._replay(a)
            except BackgammonError as e:
                raise type(e)(f"game record action {i + 1} {a!r:.200}: {e}") from None
        for i, s in enumerate(pending):
            if not isinstance(s, str):
                raise NotationError(f"game record pending step {i + 1} is move text, not {s!r:.200}")
            try:
                g.step(s)
            except BackgammonError as e:
                raise type(e)(f"game record pending step {i + 1} {s!r}: {e}") from None
        return g

    def _replay(self, a: Any) -> None:
        if not isinstance(a, dict):
            raise NotationError(f"an action is an object such as {{'roll': [5, 3]}}, not {a!r:.200}")
        keys = [k for k in ("opening", "roll", "choice", "name", "play", "step") if k in a]
        if len(keys) != 1:
            raise NotationError(f"unknown action {a!r:.200}")
        k = keys[0]
        value = a[k]
        st = self.state
        if k in ("play", "step") and "player" in a and st.phase is Phase.PLAY and a["player"] != st.player:
            raise GameError(f"the record says {a['player']!r:.40} plays, but it is {st.player}'s turn to play")
        if k in ("opening", "roll"):
            if not isinstance(value, list) or len(value) != 2:
                raise NotationError(f"{k!r} takes two dice like [5, 3], not {value!r:.200}")
            self.roll(tuple(value))
        elif k == "choice":
            self.choose(value)
        elif k == "name":
            self.name_doubles(value)
        elif k == "play":
            if not isinstance(value, str):
                raise NotationError(f"'play' takes move text like '24/18 13/11', not {value!r:.200}")
            self.play(value)
        else:
            if not isinstance(value, str):
                raise NotationError(f"'step' takes move text like '13/7', not {value!r:.200}")
            self.step(value)

    def text_record(self) -> str:
        """The game record printed as numbered lines of plain text."""
        lines = [f"{self.variant.title} game"]
        for n, e in enumerate(self._entries[1: self._index + 1], 1):
            for ev in e.events:
                if isinstance(ev, (TurnPassed, StepPlayed)):
                    continue
                lines.append(f"{n:>3}. {ev.text}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        st = self.state
        extra = f", dice={str(st.roll)!r}" if st.roll and st.phase is Phase.PLAY else ""
        return (f"<Game {self.variant.name} {st.phase.value} {st.player}{extra} "
                f"move {self._index}/{len(self._entries) - 1}: {st.position.to_string()}>")

    def __str__(self) -> str:
        return f"{self.position}\n{self.state.hint()}"

    def _repr_svg_(self) -> str:
        from .svg import board

        st = self.state
        shown = st.phase in (Phase.PLAY, Phase.CHOICE, Phase.NAME)
        named = st.named and st.roll is not None and st.named_from is not None
        dice = st.named_from if named else st.roll
        return board(st.position, dice=dice.dice if dice is not None and shown else None,
                     dice_left=list(st.dice_left) if st.phase is Phase.PLAY else None,
                     named_double=st.roll.first if named and st.roll is not None else None,
                     reroll_due=st.phase is Phase.ROLL and st.reroll)._repr_svg_()

    # -- convenience ---------------------------------------------------------------------------
    def play_random(self, rng: random.Random | None = None, max_actions: int = 100000) -> Game:
        """Play on to the end with uniformly random decisions (for tests and demos).

        The game runs on the bare engine and the history keeps the actions (one entry each).
        """
        r = rng or self.rng

        def decide(st: TurnState) -> Any:
            acts = st.legal_actions()
            return acts[r.randrange(len(acts))]

        return self.play_on(decide, max_actions=max_actions)

    def play_on(self, decide: Callable[[TurnState], Any], *, until: Callable[[TurnState], bool] | None = None,
                max_actions: int = 100000) -> Game:
        """Play on from the current state with ``decide(state)``'s decisions (an action or a plain
        value) and the game's dice, recording every action, until the game is over or
        ``until(state)`` is true: the engine's driver loop (:func:`~backgammon_lab.engine.play`).
        A whole play replaces the steps clicked so far. Raises
        :class:`~backgammon_lab.errors.GameError` after ``max_actions`` actions.
        """
        rng = self.rng

        def dice(_st: TurnState) -> tuple[int, int]:
            return rng.randint(1, 6), rng.randint(1, 6)

        prev = self.state
        for new, action, events in play(prev, decide, dice, until=until, max_actions=max_actions):
            pop = len(prev.steps) if isinstance(action, MakePlay) else 0
            self._record(self._index - pop, new, action, events, None, prev.phase.is_chance)
            prev = new
        return self


__all__ += ["KEEP", "REROLL"]
