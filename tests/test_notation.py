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
    from backgammon_lab.notation import parse_steps

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
    play = legal_plays(start, (3, 1)).find("8/5 6/5")
    assert notation.format_play(play.steps, 24) == str(play) == "8/5 6/5"
    assert notation.parse_play(start, (3, 1), "8/5 6/5") == play
