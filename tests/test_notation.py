"""Move notation: formatting, parsing, combined moves and their explanations."""

from __future__ import annotations

import pytest

from backgammon_lab import AmbiguousMoveError, IllegalMoveError, Position, legal_plays
from backgammon_lab.game import Game

COMBINED = "mexican/w/13x3,11,6x4,4x3,3x4/24x2,15x2,13x3,8x3,6x5"


def test_combined_move_through_a_blocked_point_names_the_point() -> None:
    """M5: 'only if the intermediate point ... is also open' - 13/5 with 5-3 passes through 10."""
    plays = legal_plays(Position.from_string(COMBINED), (5, 3))
    with pytest.raises(IllegalMoveError) as e:
        plays.find("13/5")
    assert e.value.reason == "blocked" and "point 10" in str(e.value) and "'13/5'" in str(e.value)


def test_combined_move_through_an_open_point_is_the_two_step_play() -> None:
    plays = legal_plays(Position.from_string(COMBINED), (5, 3))
    assert plays.find("11/3").position == plays.find("11/8/3").position


def test_every_play_text_reads_back_as_the_same_play() -> None:
    for text, dice in [(COMBINED, (5, 3)), ("standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", (6, 6)),
                       ("minigam/w/barx8/barx8", (3, 1)), ("standard/w/bar,6x2,1/6x3,5x3", (4, 2))]:
        plays = legal_plays(Position.from_string(text), dice)
        for p in plays:
            assert plays.find(str(p)).position == p.position


def test_text_that_fits_no_play_is_refused_with_the_text_quoted() -> None:
    plays = legal_plays(Position.from_string("standard/w/3,2,1/6x2"), (2, 1))
    with pytest.raises(IllegalMoveError, match="'24/1'"):
        plays.find("24/1")


def test_game_messages_say_how_many_doubles_were_played() -> None:
    """Standard: 6-6 with White's 1-point blocked: 13/7(2) and no more."""
    g = Game(position=Position.from_string("standard/w/13x2/24x2"), dice=(6, 6))
    g.play("13/7(2)")
    assert "Only 2 of the four 6s could be played." in g.messages


def test_ambiguous_error_type_is_an_illegal_move_error() -> None:
    assert issubclass(AmbiguousMoveError, IllegalMoveError) and issubclass(AmbiguousMoveError, ValueError)


def test_repeat_counts_are_one_to_four() -> None:
    from backgammon_lab.errors import NotationError
    from backgammon_lab.moves import parse_steps

    assert parse_steps("8/5(4)", 24) == [(8, 5)] * 4
    for bad in ("8/5(0)", "8/5(5)", "8/5(12)"):
        with pytest.raises(NotationError, match=bad.replace("(", r"\(").replace(")", r"\)")):
            parse_steps(bad, 24)


def test_move_text_reads_any_decimal_digits() -> None:
    plays = legal_plays(Position.start("standard"), (3, 1))
    assert plays.find("٨/٥ ٦/٥") == plays.find("8/5 6/5") == plays.find("８/５ ６/５")


def test_notation_gathers_every_text_form() -> None:
    from backgammon_lab import notation

    start = Position.start("mexican")
    assert notation.position_from_string(notation.position_to_string(start)) == start
    assert notation.position_from_json(start.to_json()) == start
    assert notation.position_from_id(notation.position_to_id(start), "mexican") == start
    assert notation.parse_position(start.to_string()) == start
    assert notation.diagram(start) == str(start)


def test_notation_exports_its_own_functions_only() -> None:
    from backgammon_lab import notation

    assert notation.__all__ == ["position_from_json", "position_from_string", "position_to_string", "position_to_id",
                                "position_from_id", "parse_position", "diagram"]


def test_played_order_writes_the_steps_as_played_and_joins_no_chain_backwards() -> None:
    """``format_play(played_order=True)``: Mexican's lower die first is written first; a checker
    that later arrives where an earlier step began is not joined in front (``1/off 3/1`` stays:
    ``3/1/off`` would say the 2 went first). Without it plays are written as players write them."""
    from backgammon_lab.position import Step, format_play

    off_then_in = [Step(1, 0, 1), Step(3, 1, 2)]
    assert format_play(off_then_in, 24, played_order=True) == "1/off 3/1"
    assert format_play(off_then_in, 24) == "3/1/off"
    on = [Step(13, 11, 2), Step(11, 5, 6)]  # one checker going on: one chain either way
    assert format_play(on, 24, played_order=True) == format_play(on, 24) == "13/11/5"
    doubles = [Step(8, 5, 3), Step(6, 3, 3), Step(8, 5, 3)]
    assert format_play(doubles, 24, played_order=True) == "8/5(2) 6/3"


def test_game_record_and_events_write_mexican_plays_in_the_order_played() -> None:
    """The record (and its replay), the events and the .mat-style text write a Mexican play of 2-1
    as played: 6/5 (the 1) then 13/11, and 1/off then 3/1; standard plays as players write them.
    (The .mat-style text writes the same: tests/test_matchfiles.py round-trips it with the record.)"""
    from backgammon_lab.engine import Played, play_text
    from backgammon_lab.position import Roll

    g = Game(position=Position.from_string("mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"), dice=(2, 1))
    g.step("6/5")
    g.step("13/11")
    played = next(ev for ev in g.events if isinstance(ev, Played))
    assert played.text == "White plays 6/5 13/11." and played.steps_text == "6/5 13/11"
    assert str(played.play) == "13/11 6/5"  # players' order, where no order is a rule
    assert {"play": "6/5 13/11", "player": "white"} in g.record()["actions"]
    assert Game.from_record(g.record()).position == g.position
    end = Game(position=Position.from_string("mexican/w/3,1,offx13/13x5,8x5,6x5"), dice=(2, 1))
    end.step("1/off")
    end.step("3/1")
    assert end.record()["actions"][-1]["play"] == "1/off 3/1"
    std = legal_plays(Position.from_string("standard/w/24x2,13x5,10,8x2,6x5/24x2,13x5,8x3,6x5"), (3, 2))
    assert play_text(std.find("8/5 10/8"), Roll(3, 2)) == "10/8/5"
