"""Issue 11, the game side: a refused call raises the project's own error and changes nothing.

Each class of bad input the review found has a named test; ``test_fuzz_refused_actions_change_nothing``
throws mutated and random actions at games in every phase of every variant.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon_lab import BackgammonError, Position
from backgammon_lab.engine import KEEP, NameDoubles
from backgammon_lab.errors import GameError, NotationError
from backgammon_lab.game import Game

S = Position.start("standard")


def snapshot(g: Game) -> tuple[Any, ...]:
    return (g.state, g.index, len(g), g.rng.getstate(), json.dumps(g.record()), g.messages)


def refused(g: Game, fn: Any) -> BackgammonError:
    before = snapshot(g)
    with pytest.raises(BackgammonError) as info:
        fn()
    assert snapshot(g) == before
    g.phase  # noqa: B018 - the game still answers
    return info.value


@pytest.mark.parametrize("bad", [0.5, math.nan, math.inf, "1", None, True, [1], -1, 10**30])
@pytest.mark.parametrize("method", ["undo", "redo", "goto"])
def test_history_moves_refuse_non_counts_and_keep_the_game(method: str, bad: Any) -> None:
    """`g.undo(0.5)` used to raise TypeError and break the game for good."""
    for variant in ("standard", "mexican", "minigam"):
        g = Game(variant, seed=1)
        g.roll((3, 1))
        e = refused(g, lambda: getattr(g, method)(bad))  # noqa: B023
        assert isinstance(e, GameError)
        assert g.undo(1).index == 0 and g.redo(1).index == 1  # still works


def test_constructor_refuses_wrong_types() -> None:
    with pytest.raises(GameError, match="Position"):
        Game(position=5)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="seed"):
        Game(seed=[1])  # type: ignore[arg-type]
    with pytest.raises(GameError, match="rng"):
        Game(rng=3)  # type: ignore[arg-type]


def test_actions_of_the_wrong_type_are_refused() -> None:
    g = Game("standard", position=S, dice=(3, 1))
    for bad in (5, None, 3.5, {"play": 1}, object(), [None], [(None, 3)], [(3, None)]):
        refused(g, lambda: g.play(bad))  # noqa: B023
    for bad in ((3, None), (None, 3), "x/y", 5, None, (1.5, 2), ("13", "10")):
        refused(g, lambda: g.step(bad))  # noqa: B023
    refused(g, lambda: g.apply(object()))
    refused(g, lambda: g.choose("keep"))
    refused(g, lambda: g.name_doubles(3))
    refused(g, lambda: g.roll((3, 1)))


@pytest.mark.parametrize("record", [
    "[" * 100000,
    b"\x80",
    {"variant": "standard", "actions": [], "options": []},
    {"variant": "standard", "actions": 5},
    {"variant": "standard", "actions": [5]},
    {"variant": "standard", "actions": [{"opening": 5}]},
    {"variant": "standard", "actions": [{"opening": [5]}]},
    {"variant": "standard", "actions": [{"opening": [5, 3]}, {"play": 5}]},
    {"variant": "standard", "actions": [{"roll": "x"}]},
    {"variant": "standard", "actions": [{"opening": [5, 3], "roll": [1, 2]}]},
    {"variant": "standard", "actions": [], "pending_steps": 3},
    {"variant": "standard", "actions": [{"opening": [5, 3]}], "pending_steps": [None]},
    {"variant": "standard", "actions": [{"opening": [5, 3]}], "pending_steps": ["zz"]},
    {"variant": "standard", "actions": [], "start": 5},
    {"variant": 5, "actions": []},
    {"variant": "minigam", "options": {"checkers": "x"}, "actions": []},
])
def test_malformed_records_raise_project_errors(record: Any) -> None:
    with pytest.raises(BackgammonError):
        Game.from_record(record)


def test_record_round_trips_variant_options() -> None:
    from backgammon_lab import find_variant

    for opts in ({"bar_first": True}, {"checkers": 3}, {"checkers": 2, "bar_first": True}):
        g = Game(find_variant("minigam", **opts), seed=4).play_random()
        h = Game.from_record(g.to_json())
        assert h.variant == g.variant and h.position == g.position and h.record() == g.record()


ACTIONS = st.one_of(
    st.none(), st.integers(-3, 9), st.floats(allow_nan=True), st.text(max_size=12),
    st.sampled_from(["keep", "reroll", "13/7", "24/18 13/11", "bar/22", "6/off", "8/5(2)", "13/7(9)",
                     "8/7(9) 8/7(9)", "²-1", "6-5", "66", "1-2", "٣/١"]),
    st.tuples(st.integers(-2, 27), st.integers(-2, 27)), st.lists(st.integers(-2, 27), max_size=3),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["standard", "mexican", "minigam"]),
       steps=st.integers(0, 40), method=st.sampled_from(["roll", "play", "step", "choose", "name_doubles",
                                                          "apply", "undo", "redo", "goto"]), action=ACTIONS)
def test_fuzz_refused_actions_change_nothing(seed: int, variant: str, steps: int, method: str, action: Any) -> None:
    """Any action in any phase either works or raises a BackgammonError leaving the game as it was."""
    g = Game(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):  # reach some phase by random play
        if g.is_over:
            break
        if g.is_chance():
            g.roll()
        else:
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
    before = snapshot(g)
    try:
        getattr(g, method)(action)
    except BackgammonError:
        assert snapshot(g) == before
    g.phase  # noqa: B018
    # the history still works either way
    g.undo(g.index)
    assert g.index == 0


def test_typed_actions_are_accepted_beside_plain_values() -> None:
    g = Game("mexican", seed=1)
    g.roll((2, 1))
    g.apply(KEEP)
    g.play(g.legal_plays()[0])
    assert g.phase == "name"
    g.apply(NameDoubles(3))
    assert g.phase == "play" and g.state.named and g.state.named_from is not None
    with pytest.raises(GameError):
        NameDoubles(7)
    with pytest.raises(NotationError):
        Game.from_record('{"variant": "standard", "actions": [{"opening": [5, 3]}, {"play": 5}]}')
