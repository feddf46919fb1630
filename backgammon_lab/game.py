"""Games: a state machine whose every point is a chance node (a roll) or a decision.

Phases (``Game.phase``):

``"opening"`` (chance)
    Each player rolls one die; a tie rolls again (M2, G8, standard). Outcomes are the 36 pairs
    ``(white_die, black_die)``.
``"choice"`` (decision, Mexican only)
    The opening winner keeps the two opening dice or rolls both again (M2): ``"keep"``/``"reroll"``.
``"roll"`` (chance)
    The player to move rolls two dice: 21 outcomes with their probabilities.
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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import GameError, IllegalMoveError, NotationError
from .position import BLACK, WHITE, Play, Player, Position, Roll, Step, other
from .rules import PlayList, apply_steps, check_step, legal_plays, legal_steps
from .variants import Variant, find_variant

__all__ = ["Game", "GameState", "ALL_ROLLS", "roll_probability"]

#: The 21 distinct rolls (higher die first) and their probabilities out of 36.
ALL_ROLLS: tuple[tuple[Roll, float], ...] = tuple(
    (Roll(a, b), (1 if a == b else 2) / 36) for a in range(6, 0, -1) for b in range(a, 0, -1)
)
OPENING_OUTCOMES: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), 1 / 36) for a in range(1, 7) for b in range(1, 7)
)


def roll_probability(roll: Roll) -> float:
    """Probability of a roll regardless of order: 1/36 for doubles, 2/36 otherwise."""
    return (1 if roll.is_double else 2) / 36


@dataclass(frozen=True)
class GameState:
    """One point of a game. Immutable; the game keeps a list of them for undo and redo."""

    position: Position
    phase: str
    dice: Roll | None = None
    named: bool = False
    steps: tuple[Step, ...] = ()
    opening: tuple[int, int] | None = None
    winner: Player | None = None
    points: int = 0
    messages: tuple[str, ...] = ()
    rng_state: Any = field(default=None, compare=False, repr=False)

    @property
    def player(self) -> Player:
        """The player who acts (rolls, chooses or plays) next."""
        return self.position.turn


PHASES = ("opening", "choice", "roll", "play", "name", "over")
CHANCE = ("opening", "roll")


def _name(p: Player) -> str:
    return p.capitalize()


class Game:
    """A game of any variant, from the opening roll (or a given position) to the end.

    >>> g = Game("mexican", seed=7)
    >>> g.phase
    'opening'
    >>> g.roll((5, 3)).phase          # White 5, Black 3: White wins the opening
    'choice'
    >>> g.choose("keep").phase
    'play'
    >>> g.play("13/10 13/8").phase    # lower die first: the 3, then the 5
    'roll'
    >>> g.position.turn
    'black'
    """

    def __init__(self, variant: str | Variant = "standard", *, seed: int | None = None,
                 rng: random.Random | None = None, position: Position | None = None,
                 dice: Any = None) -> None:
        self.variant = find_variant(variant) if position is None else position.variant
        if position is not None and variant not in ("standard", self.variant.name) and \
                find_variant(variant) != self.variant:
            raise GameError(f"position is a {self.variant.name} position, not {variant!r}")
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        if position is None:
            state = GameState(Position.start(self.variant), "opening")
            self._start: Position | None = None
        else:
            if position.is_over:
                raise GameError(f"the game is already over in {position!r}")
            state = GameState(position, "roll")
            self._start = position
        self._states: list[GameState] = [replace(state, rng_state=self.rng.getstate())]
        self._actions: list[dict[str, Any]] = []
        self._index = 0
        self._cache: dict[tuple[Position, tuple[int, int]], PlayList] = {}
        if dice is not None:
            self.roll(dice)

    # -- state ---------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The current :class:`GameState`."""
        return self._states[self._index]

    @property
    def position(self) -> Position:
        """The current position (``turn``: the player who acts next)."""
        return self.state.position

    @property
    def phase(self) -> str:
        """One of ``opening``, ``choice``, ``roll``, ``play``, ``name``, ``over``."""
        return self.state.phase

    @property
    def dice(self) -> Roll | None:
        """The roll being played (named doubles included), if any."""
        return self.state.dice

    @property
    def dice_left(self) -> list[int]:
        """The dice of the current roll not yet used by the steps played so far."""
        st = self.state
        if st.dice is None or st.phase != "play":
            return []
        left = [st.dice.first] * 4 if st.dice.is_double else sorted(st.dice.dice)
        for s in st.steps:
            left.remove(s.die)
        return left

    @property
    def messages(self) -> tuple[str, ...]:
        """What the rules did on the last action, in plain words."""
        return self.state.messages

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.state.phase == "over"

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
        return self.state.phase in CHANCE

    @property
    def current_player(self) -> Player:
        """Who acts next."""
        return self.state.player

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node, the outcomes and their probabilities."""
        ph = self.state.phase
        if ph == "opening":
            return list(OPENING_OUTCOMES)
        if ph == "roll":
            return list(ALL_ROLLS)
        raise GameError(f"no chance node in phase {ph!r}")

    def legal_plays(self) -> PlayList:
        """The legal plays of the current dice (phase ``play``), whole plays from the turn's start."""
        st = self._need("play")
        assert st.dice is not None
        return self._plays(self._turn_start(), st.dice)

    def _plays(self, position: Position, dice: Roll) -> PlayList:
        """``legal_plays`` with a small cache: a turn asks for the same plays several times."""
        key = (position, dice.dice)
        pl = self._cache.get(key)
        if pl is None:
            if len(self._cache) > 64:
                self._cache.clear()
            pl = self._cache[key] = legal_plays(position, dice)
        return pl

    def legal_steps(self) -> list[Step]:
        """The next single steps that continue some legal play (phase ``play``)."""
        st = self._need("play")
        return legal_steps(self._turn_start(), st.dice, st.steps)

    def legal_actions(self) -> list[Any]:
        """At a decision: plays (``play``), ``"keep"``/``"reroll"`` (``choice``) or 1..6 (``name``)."""
        ph = self.state.phase
        if ph == "play":
            if self.state.steps:
                # The plays that complete the steps clicked so far (compared by resulting position:
                # a play keeps one path of steps, which need not begin with the clicked ones).
                reach = self._completions()
                return [p for p in self.legal_plays() if p.position in reach]
            return list(self.legal_plays())
        if ph == "choice":
            return ["keep", "reroll"]
        if ph == "name":
            return [1, 2, 3, 4, 5, 6]
        return []

    def _completions(self) -> set[Position]:
        """The positions that the steps clicked so far can still lead to (phase ``play``)."""
        st = self.state
        start = self._turn_start()
        out: set[Position] = set()
        seen: set[tuple[Position, tuple[int, ...]]] = set()

        def rec(steps: tuple[Step, ...], pos: Position) -> None:
            key = (pos, tuple(sorted(s.die for s in steps)))  # the future depends on these only
            if key in seen:
                return
            seen.add(key)
            nxt = legal_steps(start, st.dice, steps)
            if not nxt:
                out.add(pos)
            for s in nxt:
                rec(steps + (s,), apply_steps(start, st.dice, steps + (s,)))

        rec(st.steps, st.position)
        return out

    def _turn_start(self) -> Position:
        st = self.state
        if not st.steps:
            return st.position
        return self._states[self._index - len(st.steps)].position

    def _need(self, *phases: str) -> GameState:
        st = self.state
        if st.phase not in phases:
            raise GameError(f"cannot do that now: the game is in phase {st.phase!r} "
                            f"({self._phase_hint()}), not {' or '.join(map(repr, phases))}")
        return st

    def _phase_hint(self) -> str:
        ph = self.state.phase
        who = _name(self.state.player)
        return {
            "opening": "each player rolls one die",
            "choice": f"{who} keeps the opening dice or rolls again",
            "roll": f"{who} rolls",
            "play": f"{who} plays {self.state.dice}",
            "name": f"{who} names doubles",
            "over": f"{_name(self.state.winner or WHITE)} has won",
        }[ph]

    # -- actions -------------------------------------------------------------------------------
    def roll(self, dice: Any = None) -> Game:
        """Roll at a chance node: random from the seeded generator, or the ``dice`` given.

        At the opening ``dice`` is ``(white_die, black_die)``.
        """
        st = self._need(*CHANCE)
        if st.phase == "opening":
            if dice is None:
                pair = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            else:
                r = Roll.parse(dice)
                pair = r.dice
            return self._push({"opening": list(pair)}, self._after_opening(st, pair))
        r = Roll(self.rng.randint(1, 6), self.rng.randint(1, 6)) if dice is None else Roll.parse(dice)
        msgs = [f"{_name(st.player)} rolls {r}."]
        return self._push({"roll": list(r.dice)}, self._start_play(st, r, False, msgs))

    def choose(self, choice: str) -> Game:
        """Mexican opening choice: ``"keep"`` the opening dice or ``"reroll"`` both dice (M2)."""
        st = self._need("choice")
        if choice not in ("keep", "reroll"):
            raise GameError(f"the opening choice is 'keep' or 'reroll', not {choice!r}")
        if choice == "reroll":
            new = replace(st, phase="roll", dice=None, messages=(f"{_name(st.player)} rolls both dice again.",))
            return self._push({"choice": "reroll"}, new)
        assert st.dice is not None
        msgs = [f"{_name(st.player)} keeps the opening dice {st.dice}."]
        return self._push({"choice": "keep"}, self._start_play(st, st.dice, False, msgs))

    def name_doubles(self, number: int) -> Game:
        """After a Mexican, name doubles ``number`` (1..6) and play them as four moves (M8)."""
        st = self._need("name")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 6:
            raise GameError(f"named doubles are a number from 1 to 6, not {number!r}")
        msgs = [f"{_name(st.player)} names {number}-{number}."]
        return self._push({"name": number}, self._start_play(st, Roll(number, number), True, msgs))

    def play(self, play: Play | str | Sequence[Any]) -> Game:
        """Play a whole roll: a :class:`Play`, move text (``"24/18 13/11"``) or a list of steps."""
        st = self._need("play")
        start = self._turn_start()
        assert st.dice is not None
        plays = self._plays(start, st.dice)
        if isinstance(play, Play):
            match = next((p for p in plays if p is play), None)
            if match is None:
                match = next((p for p in plays if p.position == play.position), None)
            if match is None:
                raise IllegalMoveError(f"play {str(play)!r} is not legal with {st.dice} here",
                                       "illegal", "That play is not among the legal plays.")
        elif isinstance(play, str):
            match = plays.find(play)
        else:
            try:
                end = apply_steps(start, st.dice, list(play))
            except NotationError:
                raise
            match = next((p for p in plays if p.position == end), None)
            if match is None:
                raise IllegalMoveError(f"steps {play!r} do not make a complete play with {st.dice}",
                                       "use_both_dice", "The play must use as many dice as possible.")
        if st.steps and match.steps[: len(st.steps)] != st.steps:
            # A whole play replaces the steps clicked so far: go back to the turn's start.
            pass
        base = self._states[self._index - len(st.steps)] if st.steps else st
        # A typed move is recorded as typed (spaces normalised), so a loaded record saves unchanged:
        # str(match) may write the same result in another order of steps (bar/4/3 for bar/6/3).
        text = " ".join(play.split()) if isinstance(play, str) else str(match)
        return self._push({"play": text, "player": st.player},
                          self._finish_play(base, match), pop_steps=len(st.steps))

    def step(self, step: Any) -> Game:
        """Play one step (one checker, one die): a Step, ``(start, end)`` or ``"13/7"``.

        When the steps make a complete play, the play is committed and the game moves on.
        """
        st = self._need("play")
        assert st.dice is not None
        start = self._turn_start()
        s = check_step(start, st.dice, st.steps, step)
        steps = st.steps + (s,)
        pos = apply_steps(start, st.dice, steps)
        if not legal_steps(start, st.dice, steps):
            match = next(p for p in self._plays(start, st.dice) if p.position == pos)
            base = self._states[self._index - len(st.steps)] if st.steps else st
            play = Play(steps, match.position)
            return self._push({"step": s.text(self.variant.points), "player": st.player, "completes": str(play)},
                              self._finish_play(base, play))
        new = replace(st, position=pos, steps=steps, messages=())
        return self._push({"step": s.text(self.variant.points), "player": st.player}, new)

    def apply(self, action: Any) -> Game:
        """Apply a chance outcome or a decision, whichever the current phase takes."""
        ph = self.state.phase
        if ph in CHANCE:
            return self.roll(action)
        if ph == "choice":
            return self.choose(action)
        if ph == "name":
            return self.name_doubles(action)
        if ph == "play":
            return self.play(action)
        raise GameError("the game is over")

    # -- transitions ---------------------------------------------------------------------------
    def _after_opening(self, st: GameState, pair: tuple[int, int]) -> GameState:
        w, b = pair
        if w == b:
            return replace(st, opening=pair, messages=(f"Opening roll: both players roll {w}; they roll again.",))
        winner = WHITE if w > b else BLACK
        pos = st.position.with_turn(winner)
        r = Roll(max(w, b), min(w, b))
        msg = f"Opening roll: White {w}, Black {b}. {_name(winner)} goes first."
        base = replace(st, position=pos, opening=pair, dice=r)
        if self.variant.opening_choice:
            return replace(base, phase="choice", messages=(msg, f"{_name(winner)} may keep {r} or roll both dice again."))
        return self._start_play(base, r, False, [msg])

    def _start_play(self, st: GameState, dice: Roll, named: bool, msgs: list[str]) -> GameState:
        pos = st.position
        plays = self._plays(pos, dice)
        new = replace(st, phase="play", dice=dice, named=named, steps=())
        if plays.length == 0:
            v = self.variant
            if v.low_die_first and not dice.is_double:
                if pos.count(pos.turn, v.points + 1) and v.bar_first:
                    msgs.append(f"The lower die, {dice.low}, cannot enter from the bar: the turn is lost.")
                else:
                    msgs.append(f"The lower die, {dice.low}, cannot be played: the turn is lost.")
            elif pos.count(pos.turn, v.points + 1) and v.bar_first:
                msgs.append(f"No checker can enter from the bar with {dice}: the turn passes.")
            else:
                msgs.append(f"No legal move with {dice}: the turn passes.")
            if named or (dice.is_double and v.doubles_roll_again) or (v.mexican and dice.is_mexican):
                msgs.append("No re-roll.")
            return self._end_turn(new, msgs)
        return replace(new, messages=tuple(msgs))

    def _finish_play(self, st: GameState, play: Play) -> GameState:
        """The state after ``play`` is made from ``st`` (phase play, steps empty)."""
        v = self.variant
        dice = st.dice
        assert dice is not None
        pos = play.position
        who = st.player
        msgs = [f"{_name(who)} plays {play}."]
        n_used = len(play.steps)
        if pos.is_over:
            pts = pos.game_value()
            kind = {1: "", 2: " (a gammon)", 3: " (a backgammon)"}[pts]
            msgs.append(f"{_name(who)} has borne off every checker and wins {pts} point"
                        f"{'s' if pts > 1 else ''}{kind}.")
            return replace(st, position=pos, phase="over", steps=(), winner=who, points=pts, messages=tuple(msgs))
        nxt = v.after_play(dice.dice, st.named, n_used)
        if nxt == "name":
            msgs.append(f"A Mexican! {_name(who)} names any doubles to play.")
            return replace(st, position=pos, phase="name", steps=(), messages=tuple(msgs))
        if nxt == "roll_again":
            msgs.append(f"All four {dice.first}s were played: {_name(who)} rolls again.")
            return replace(st, position=pos, phase="roll", dice=None, named=False, steps=(), messages=tuple(msgs))
        if v.mexican and dice.is_mexican and not st.named:
            msgs.append(f"The {dice.high} cannot be played: no doubles may be named and there is no re-roll.")
        elif v.doubles_roll_again and dice.is_double:
            msgs.append(f"Only {n_used} of the four {dice.first}s could be played: the rest is lost and there "
                        "is no re-roll.")
        elif n_used < (4 if dice.is_double else 2):
            if v.low_die_first and n_used == 1 and not dice.is_double:
                msgs.append(f"The {dice.high} cannot be played after the {dice.low}: the rest of the turn is lost.")
            elif dice.is_double:
                msgs.append(f"Only {n_used} of the four {dice.first}s could be played.")
            else:
                msgs.append(f"Only one die could be played: the {play.steps[0].die}.")
        return self._end_turn(replace(st, position=pos, steps=()), msgs)

    def _end_turn(self, st: GameState, msgs: list[str]) -> GameState:
        nxt = other(st.player)
        msgs.append(f"{_name(nxt)} to roll.")
        return replace(st, position=st.position.with_turn(nxt), phase="roll", dice=None, named=False,
                       steps=(), messages=tuple(msgs))

    def _push(self, action: dict[str, Any], new: GameState, pop_steps: int = 0) -> Game:
        if pop_steps:
            self._index -= pop_steps
        del self._states[self._index + 1:]
        del self._actions[self._index:]
        self._states.append(replace(new, rng_state=self.rng.getstate()))
        self._actions.append(action)
        self._index += 1
        return self

    # -- history -------------------------------------------------------------------------------
    @property
    def history(self) -> list[dict[str, Any]]:
        """The actions taken so far (up to the current point), as JSON-ready dicts."""
        return [dict(a) for a in self._actions[: self._index]]

    @property
    def states(self) -> list[GameState]:
        """Every state from the start to the current point."""
        return list(self._states[: self._index + 1])

    @property
    def can_undo(self) -> bool:
        """True when there is an earlier point to go back to."""
        return self._index > 0

    @property
    def can_redo(self) -> bool:
        """True when undone actions can be replayed."""
        return self._index < len(self._states) - 1

    def undo(self, n: int = 1) -> Game:
        """Go back ``n`` actions (the dice generator goes back too)."""
        if n < 0 or n > self._index:
            raise GameError(f"cannot undo {n} action(s); {self._index} can be undone")
        self._index -= n
        self.rng.setstate(self.state.rng_state)
        return self

    def redo(self, n: int = 1) -> Game:
        """Replay ``n`` undone actions."""
        if n < 0 or self._index + n > len(self._states) - 1:
            raise GameError(f"cannot redo {n} action(s); {len(self._states) - 1 - self._index} can be redone")
        self._index += n
        self.rng.setstate(self.state.rng_state)
        return self

    def goto(self, index: int) -> Game:
        """Jump to point ``index`` of the history (0 = the start), keeping redo available."""
        if not 0 <= index <= len(self._states) - 1:
            raise GameError(f"no point {index!r} in this game's history (0..{len(self._states) - 1})")
        self._index = index
        self.rng.setstate(self.state.rng_state)
        return self

    @property
    def index(self) -> int:
        """The current point in the history (0 = the start)."""
        return self._index

    def __len__(self) -> int:
        return len(self._states)

    def __iter__(self) -> Iterator[GameState]:
        return iter(self.states)

    # -- records -------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The game record as a JSON-ready dict: every roll, choice, play, named double, re-roll.

        Consecutive steps are merged into the play they make.
        """
        actions: list[dict[str, Any]] = []
        pending: list[str] = []
        for a in self._actions[: self._index]:
            if "step" in a:
                pending.append(a["step"])
                if "completes" in a:  # the step completed the play
                    actions.append({"play": a["completes"], "player": a["player"]})
                    pending = []
                continue
            actions.append(dict(a))
        rec: dict[str, Any] = {"format": "backgammon_lab game record", "version": 1,
                               "variant": self.variant.name}
        if self.variant.option_values != self.variant.options:
            rec["options"] = self.variant.option_values
        if self._start is not None:
            rec["start"] = self._start.to_json()
        rec["actions"] = actions
        if pending:
            rec["pending_steps"] = pending
        st = self.state
        if st.phase == "over":
            rec["result"] = {"winner": st.winner, "points": st.points}
        return rec

    def to_json(self) -> str:
        """The game record as JSON text."""
        return json.dumps(self.record(), indent=1)

    @classmethod
    def from_record(cls, record: str | dict[str, Any], *, seed: int | None = None) -> Game:
        """Replay a game record (dict or JSON text); raises on any action the rules refuse."""
        src = record
        if isinstance(record, str):
            try:
                record = json.loads(record)
            except json.JSONDecodeError as e:
                raise NotationError(f"malformed game record {src!r:.200}: {e.msg}") from None
        if not isinstance(record, dict) or "variant" not in record or "actions" not in record:
            raise NotationError(f"a game record has 'variant' and 'actions': {src!r:.200}")
        variant = find_variant(record["variant"], **record.get("options", {}))
        start = record.get("start")
        g = cls(variant, seed=seed, position=Position.from_json(start) if start else None)
        for i, a in enumerate(record["actions"]):
            try:
                if "opening" in a:
                    g.roll(tuple(a["opening"]))
                elif "roll" in a:
                    g.roll(tuple(a["roll"]))
                elif "choice" in a:
                    g.choose(a["choice"])
                elif "name" in a:
                    g.name_doubles(a["name"])
                elif "play" in a:
                    g.play(a["play"])
                elif "step" in a:
                    g.step(a["step"])
                else:
                    raise NotationError(f"unknown action {a!r}")
            except (GameError, IllegalMoveError, NotationError) as e:
                raise type(e)(f"game record action {i + 1} {a!r}: {e}") from None
        for s in record.get("pending_steps", []):
            g.step(s)
        return g

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Alias of :meth:`from_record` for JSON text."""
        return cls.from_record(text)

    def text_record(self) -> str:
        """The game record printed as numbered lines of plain text."""
        lines = [f"{self.variant.title} game"]
        for n, st in enumerate(self._states[1: self._index + 1], 1):
            for m in st.messages:
                if m.endswith(" to roll."):
                    continue
                lines.append(f"{n:>3}. {m}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        st = self.state
        extra = f", dice={str(st.dice)!r}" if st.dice and st.phase == "play" else ""
        return (f"<Game {self.variant.name} {st.phase} {st.player}{extra} "
                f"move {self._index}/{len(self._states) - 1}: {st.position.to_string()}>")

    def __str__(self) -> str:
        return f"{self.position}\n{self._phase_hint()}"

    def _repr_svg_(self) -> str:
        from .svg import board

        st = self.state
        return board(st.position, dice=st.dice.dice if st.dice else None, dice_left=self.dice_left if st.phase == "play" else None,
                     named_double=st.dice.first if st.named and st.dice else None,
                     reroll_due=st.phase == "roll" and bool(self._index) and
                     self._states[self._index - 1].player == st.player)._repr_svg_()

    # -- convenience ---------------------------------------------------------------------------
    def play_random(self, rng: random.Random | None = None, max_actions: int = 100000) -> Game:
        """Play on to the end with uniformly random decisions (for tests and demos)."""
        r = rng or self.rng
        for _ in range(max_actions):
            ph = self.state.phase
            if ph == "over":
                return self
            if ph in CHANCE:
                self.roll()
            else:
                acts = self.legal_actions()
                self.apply(acts[r.randrange(len(acts))])
        raise GameError(f"game did not end within {max_actions} actions")
