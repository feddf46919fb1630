"""The engine's event texts and its fast state constructor.

The events' words come from per-class templates (``Event._text``, ``_template``, ``_words``); these
tests pin every wording, one per class and per reason, as the engine wrote them before the
templates. ``_state`` is generated from TurnState's fields: it must take the same parameters and
build the same values as ``TurnState(...)``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import pytest

from backgammon_lab import engine
from backgammon_lab.engine import (
    KEEP,
    ChoiceOffered,
    DiceKept,
    DiceLost,
    DiceRerolled,
    DoublesNamed,
    Event,
    GameOver,
    MakePlay,
    MakeStep,
    NamingDue,
    OpeningRoll,
    OpeningRolled,
    Phase,
    Played,
    RerollDue,
    RollDice,
    Rolled,
    StepPlayed,
    TurnLost,
    TurnPassed,
    TurnState,
    _slot_constructor,
    _state,
    advance,
    position_state,
    start_state,
)
from backgammon_lab.position import Position, Roll, Step

TEXTS: list[tuple[Event, str]] = [
    (OpeningRolled("white", 6, 1), "Opening roll: White 6, Black 1. White goes first."),
    (OpeningRolled("black", 2, 4), "Opening roll: White 2, Black 4. Black goes first."),
    (OpeningRolled("white", 5, 5), "Opening roll: both players roll 5; they roll again."),
    (ChoiceOffered("white", Roll(6, 1)), "White may keep 6-1 or roll both dice again."),
    (DiceKept("black", Roll(5, 1)), "Black keeps the opening dice 5-1."),
    (DiceRerolled("white"), "White rolls both dice again."),
    (Rolled("white", Roll(2, 1), True), "White rolls 2-1."),
    (Rolled("black", Roll(3, 5)), "Black rolls 5-3."),
    (DoublesNamed("white", 5), "White names 5-5."),
    (StepPlayed("white", Step(25, 20, 5, True), 24), "White moves bar/20*."),
    (TurnLost("white", Roll(5, 5), "cannot_enter", 5, True),
     "No checker can enter from the bar with 5-5: the turn passes. No re-roll."),
    (TurnLost("black", Roll(5, 5), "cannot_enter", 5), "No checker can enter from the bar with 5-5: the turn passes."),
    (TurnLost("black", Roll(6, 5), "lower_die_blocked", 5), "The lower die, 5, cannot be played: the turn is lost."),
    (TurnLost("black", Roll(2, 1), "lower_die_cannot_enter", 1, True),
     "The lower die, 1, cannot enter from the bar: the turn is lost. No re-roll."),
    (TurnLost("white", Roll(1, 3), "no_move", 1), "No legal move with 3-1: the turn passes."),
    (DiceLost("white", Roll(4, 4), 2, 4, "doubles", 4),
     "Only 2 of the four 4s could be played: the rest is lost and there is no re-roll."),
    (DiceLost("black", Roll(6, 2), 1, 2, "high_after_low", 2),
     "The 6 cannot be played after the 2: the rest of the turn is lost."),
    (DiceLost("white", Roll(2, 1), 1, 2, "mexican_high", 1),
     "The 2 cannot be played: no doubles may be named and there is no re-roll."),
    (DiceLost("black", Roll(3, 2), 1, 2, "one_die", 3), "Only one die could be played: the 3."),
    (DiceLost("white", Roll(6, 6), 2, 4, "some_doubles", 6), "Only 2 of the four 6s could be played."),
    (RerollDue("white", Roll(5, 5)), "All four 5s were played: White rolls again."),
    (NamingDue("white"), "A Mexican! White names any doubles to play."),
    (TurnPassed("black"), "Black to roll."),
    (GameOver("black", 1), "Black has borne off every checker and wins 1 point."),
    (GameOver("white", 2), "White has borne off every checker and wins 2 points (a gammon)."),
    (GameOver("black", 3), "Black has borne off every checker and wins 3 points (a backgammon)."),
]


@pytest.mark.parametrize(("event", "text"), TEXTS, ids=[f"{type(e).__name__}-{i}" for i, (e, _) in enumerate(TEXTS)])
def test_event_text(event: Event, text: str) -> None:
    assert event.text == text
    assert str(event) == text


def test_every_event_class_has_its_words() -> None:
    named = {type(e) for e, _ in TEXTS} | {Played}
    events = {c for c in vars(engine).values() if isinstance(c, type) and issubclass(c, Event) and c is not Event}
    assert named == events
    assert Event("white").text == ""


def test_played_text_keeps_the_order_only_when_the_roll_fixes_it() -> None:
    s, _ = advance(start_state("mexican"), OpeningRoll(5, 3))
    s, _ = advance(s, KEEP)
    assert s.plays is not None
    s, events = advance(s, MakePlay(s.plays.find("13/10 13/8")))
    assert isinstance(events[0], Played) and events[0].text == "White plays 13/10 13/8."
    s, events = advance(start_state("standard"), OpeningRoll(6, 1))
    assert s.plays is not None
    s, events = advance(s, MakePlay(s.plays.find("8/7 13/7")))
    assert events[0].text == "White plays 13/7 8/7."


def test_state_takes_turnstate_parameters_and_builds_the_same_value() -> None:
    assert list(inspect.signature(_state).parameters) == list(inspect.signature(TurnState).parameters)
    for p, q in zip(inspect.signature(_state).parameters.values(), inspect.signature(TurnState).parameters.values(),
                    strict=True):
        assert p.default == q.default and p.kind == q.kind
    pos = Position.start("standard")
    assert _state(pos, Phase.ROLL) == TurnState(pos, Phase.ROLL)
    full: dict[str, Any] = dict(roll=Roll(6, 6), named=True, steps=(Step(24, 18, 6, False),), opening=(6, 6),
                reroll=True, winner="black", points=2, lost=(6, 6), named_from=Roll(2, 1))
    a, b = _state(pos, Phase.PLAY, **full), TurnState(pos, Phase.PLAY, **full)
    assert a == b and repr(a) == repr(b)
    assert all(getattr(a, k) == v for k, v in full.items())


def test_slot_constructor_refuses_fields_it_cannot_fill() -> None:
    @dataclass(frozen=True, slots=True)
    class WithFactory:
        items: list[int] = field(default_factory=list)

    with pytest.raises(TypeError, match="WithFactory.items"):
        _slot_constructor(WithFactory)


@pytest.mark.parametrize(("event", "brief"), [
    (OpeningRolled("white", 6, 1), "Opening: White 6, Black 1"),
    (OpeningRolled("white", 4, 4), "Opening: both roll 4, again"),
    (TurnLost("white", Roll(5, 5), "cannot_enter", 5, True), "no checker can enter: no move, no re-roll"),
    (TurnLost("black", Roll(6, 5), "lower_die_blocked", 5), "the lower die cannot be played: turn lost"),
    (TurnLost("black", Roll(2, 1), "lower_die_cannot_enter", 1), "the lower die cannot enter: turn lost"),
    (TurnLost("white", Roll(1, 3), "no_move", 1), "no legal move"),
    (GameOver("black", 1), "wins 1 point"),
    (GameOver("white", 2), "wins 2 points, a gammon"),
    (GameOver("black", 3), "wins 3 points, a backgammon"),
])
def test_event_brief_for_a_record_line(event: Any, brief: str) -> None:
    """The record's few words are the event's too (``brief``): nothing else writes them."""
    assert event.brief == brief


def test_rolls_are_written_higher_die_first_by_every_event() -> None:
    """``roll_text`` is the one writer of a roll: a roll given low die first reads high first in
    every event that names it."""
    from backgammon_lab.engine import roll_text

    low_first = Roll(1, 6)
    assert roll_text(low_first) == "6-1"
    for ev in (ChoiceOffered("white", low_first), DiceKept("white", low_first), Rolled("white", low_first),
               TurnLost("white", low_first, "no_move", 1)):
        assert "6-1" in ev.text and "1-6" not in ev.text


def test_a_rolls_plays_are_freed_without_the_cycle_collector() -> None:
    """Issue 17: the play tree holds its nodes weakly, so a roll's plays go when the last state
    holding one of its nodes goes, by reference counting alone (rollouts make one tree per roll)."""
    import gc
    import weakref

    was = gc.isenabled()
    gc.disable()
    try:
        s, _ = advance(position_state(Position.start("standard")), RollDice(Roll(3, 1)))
        assert s.node is not None and s.plays is not None
        first = s.node.next_steps()[0]
        s2, _ = advance(s, MakeStep(first))
        assert s2.node is not None and s2.node.next_steps() and not s2.node.explain((24, 16)).legal
        tree = weakref.ref(s.plays)
        root = weakref.ref(s.node)
        del s, s2
        assert tree() is None and root() is None
    finally:
        if was:
            gc.enable()
