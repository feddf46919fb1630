"""Standard backgammon, the reference game the seeds build on (RULES.md, first paragraph: usual
rules, single game, gammon 2 and backgammon 3, no cube).

Positions are position strings ``standard/TURN/WHITE/BLACK``, each side in its own numbering (point 1
nearest its exit; Black's point q is White's point 25-q); checkers not listed are borne off.
"""

from __future__ import annotations

import pytest
from rulehelpers import P, code, ends, game_at, ps  # noqa: F401

from backgammon_lab import GameError, IllegalMoveError, Position, Step, legal_plays, legal_steps
from backgammon_lab.game import Game

OPEN = "standard/w/20,19,18/1x2"


def test_standard_start_setup_and_position_id():
    pos = Position.start("standard")
    assert pos.to_string() == "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
    assert pos.position_id() == "4HPwATDgc/ABMA"
    assert pos.pip_count("white") == pos.pip_count("black") == 167


def test_standard_geometry_opponent_point_is_25_minus_q():
    pos = P("standard/w/3/3")
    assert pos.points[2] == 1 and pos.points[21] == -1  # White's 3; Black's 3 = White's 22


def test_standard_opening_tie_rolls_again():
    g = Game("standard").roll((5, 5))
    assert g.phase == "opening"


def test_standard_opening_higher_die_plays_both_no_choice():
    g = Game("standard").roll((3, 6))
    assert g.phase == "play" and g.current_player == "black" and g.dice.dice == (6, 3)
    with pytest.raises(GameError):
        g.choose("keep")


def test_standard_open_point_only():
    # Black's 8 is White's 17: two Black checkers there block it.
    assert ends("standard/w/20/8x2", (3, 3)) == ps("standard/w/20/8x2")
    assert code("standard/w/20/8x2", (3, 4), Step(20, 17, 3)) == "blocked"


def test_standard_hit_blot_goes_to_bar():
    assert legal_steps(P("standard/w/20/8"), (3, 3)) == [Step(20, 17, 3, True)]
    assert all(e.bar == (0, 1) for e in ends("standard/w/20/8", (3, 3)))


def test_standard_bar_first():
    pos = "standard/w/bar,13/10x2"
    assert {s.start for s in legal_steps(P(pos), (6, 1))} == {25}
    assert code(pos, (6, 1), Step(13, 7, 6)) == "bar_first"
    # Either die may enter; the other then moves any checker.
    assert ends(pos, (6, 1)) == ps("standard/w/19,12/10x2", "standard/w/18,13/10x2", "standard/w/24,7/10x2")


def test_standard_bar_two_checkers_enter_as_many_as_possible():
    pos = "standard/w/barx2,13/5x2"  # Black's 5 = White's 20: a 5 cannot enter
    assert ends(pos, (2, 5)) == ps("standard/w/bar,23,13/5x2")


def test_standard_closed_board_no_entry():
    pos = "standard/w/bar,13/1x2,2x2,3x2,4x2,5x2,6x2"
    assert ends(pos, (6, 5)) == ps(pos)
    g = game_at(pos)
    g.roll((6, 5))
    assert g.current_player == "black" and any("enter" in m for m in g.messages)


def test_standard_both_dice_must_be_used():
    pos = "standard/w/10,8/22x2,23x2"
    assert ends(pos, (1, 6)) == ps("standard/w/7,4/22x2,23x2", "standard/w/10,1/22x2,23x2")
    assert code(pos, (1, 6), Step(10, 9, 1)) == "use_both_dice"
    with pytest.raises(IllegalMoveError):
        game_at(pos).roll((6, 1)).play("10/4")


def test_standard_larger_die_when_only_one_can_be_played():
    pos = "standard/w/10/22x2"  # Black holds White's 3: 10/4/3 and 10/9/3 are both blocked
    assert ends(pos, (6, 1)) == ps("standard/w/4/22x2")
    assert code(pos, (6, 1), Step(10, 9, 1)) == "larger_die"
    g = game_at(pos)
    with pytest.raises(IllegalMoveError) as e:
        g.roll((6, 1)).play("10/9")
    assert e.value.reason == "larger_die"
    assert g.phase == "play" and g.position == P(pos)


def test_standard_smaller_die_when_larger_cannot_be_played():
    pos = "standard/w/10/21x2,22x2"  # White's 4 and 3 held: only 10/9
    assert ends(pos, (6, 1)) == ps("standard/w/9/21x2,22x2")


def test_standard_one_checker_both_dice_either_order():
    # White's 7 held: 10/7/2 is blocked but 10/5/2 is fine.
    assert ends("standard/w/10/18x2", (3, 5)) == ps("standard/w/2/18x2")


def test_standard_doubles_four_moves_no_reroll():
    g = game_at(OPEN)
    g.roll((4, 4))
    assert g.legal_plays().length == 4
    g.play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "black"


def test_standard_doubles_as_many_as_possible():
    assert legal_plays(P("standard/w/10/24x2"), (3, 3)).length == 2
    assert ends("standard/w/10/24x2", (3, 3)) == ps("standard/w/4/24x2")


def test_standard_1_2_is_not_special():
    g = game_at(OPEN)
    g.roll((1, 2)).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "black"


def test_standard_bearoff_needs_all_home():
    assert code("standard/w/8,2/1x2", (2, 4), Step(2, 0, 2)) == "not_home"


def test_standard_bearoff_exact():
    assert code("standard/w/6,3/1x2", (3, 4), Step(3, 0, 3)) == "legal"


def test_standard_bearoff_larger_die_only_from_highest():
    pos = "standard/w/5,3/1x2"
    assert code(pos, (6, 4), Step(5, 0, 6)) == "legal"
    assert code(pos, (6, 4), Step(3, 0, 6)) == "bear_off_higher"
    # 6: 5/off, then the 4 bears off the 3 (now the highest); or 4: 5/1, then 6: 3/off.
    assert ends(pos, (6, 4)) == ps("standard/w/-/1x2", "standard/w/1/1x2")


def test_standard_bearoff_die_must_move_when_it_cannot_bear_off():
    # 2-1 with checkers on 6 and 5: no bear-off possible, the dice move inside.
    assert all(e.off[0] == 13 for e in ends("standard/w/6,5/1x2", (2, 1)))


def test_standard_hit_during_bearoff_must_come_home():
    pos = "standard/w/bar,2x3/1x2"
    assert ends(pos, (2, 6)) == ps("standard/w/17,2x3/1x2")


@pytest.mark.parametrize(
    "black, points, word",
    [
        ("1x14", 1, ""),  # Black has borne off one checker: single game
        ("1x15", 2, "gammon"),  # nothing off: gammon
        ("20,1x14", 3, "backgammon"),  # nothing off and a checker in White's home board
        ("bar,1x14", 3, "backgammon"),  # nothing off and a checker on the bar
    ],
)
def test_standard_scoring_single_gammon_backgammon(black, points, word):
    g = game_at(f"standard/w/1/{black}")
    g.roll((1, 2)).play("1/off")
    assert g.is_over and g.winner == "white" and g.points == points
    assert g.position.game_value() == points
    if word:
        assert any(f"({'a ' + word})" in m for m in g.messages)


def test_standard_no_cube():
    g = game_at(OPEN)
    assert not any(hasattr(g, a) for a in ("double", "cube", "offer_double"))
