"""Mexican Backgammon: one named test per row of RULES.md (M1-M11) and per rule sentence of the
two seed texts (``seeds/000_334a1854e09688f2.txt`` = seed000, ``seeds/001_96fec0c46c6d1eff.txt`` =
seed001).

Positions are written as position strings ``mexican/TURN/WHITE/BLACK``, each side in its own
numbering (point 1 nearest its exit; Black's point q is White's point 25-q); checkers not listed are
borne off. Black checkers parked on ``1`` (White's 24-point) stay out of White's way.
"""

from __future__ import annotations

import pytest
from rulehelpers import P, code, ends, game_at, ps  # noqa: F401

from backgammon_lab import (
    GameError,
    IllegalMoveError,
    Position,
    PositionError,
    Step,
    legal_plays,
    legal_steps,
)
from backgammon_lab.game import Game


def alltext(g: Game) -> str:
    return " ".join(g.messages)


# Far from every other checker: White on its 20, 19, 18; Black parked on White's 24-point.
OPEN = "mexican/w/20,19,18/1x2"


# ----------------------------------------------------------------------------------------------
# RULES.md rows


def test_M1_start_is_standard_setup_15_each():
    pos = Position.start("mexican")
    std = Position.start("standard")
    assert pos.points == std.points
    assert pos.to_string() == "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
    for who in ("white", "black"):
        on_board = sum(pos.count(who, p) for p in range(1, 25))
        assert on_board == 15
        assert pos.count(who, 25) == 0 and pos.count(who, 0) == 0


def test_M2_opening_tie_rolls_again():
    g = Game("mexican")
    g.roll((4, 4))
    assert g.phase == "opening"
    assert "again" in alltext(g)


def test_M2_opening_higher_die_chooses_keep_or_reroll():
    g = Game("mexican")
    g.roll((2, 6))  # White 2, Black 6: Black goes first
    assert g.phase == "choice"
    assert g.current_player == "black"
    assert g.dice.dice == (6, 2)
    assert g.legal_actions() == ["keep", "reroll"]
    g.choose("keep")
    assert g.phase == "play" and g.dice.dice == (6, 2)
    assert g.current_player == "black"


def test_M2_reroll_is_played_like_any_roll():
    g = Game("mexican")
    g.roll((5, 3))
    g.choose("reroll")
    assert g.phase == "roll" and g.current_player == "white"
    g.roll((4, 4))  # a re-rolled double is a double: four moves, then roll again (M7)
    assert g.phase == "play"
    plays = g.legal_plays()
    assert plays.length == 4
    g.play(plays[0])
    assert g.phase == "roll" and g.current_player == "white"


def test_M2_kept_opening_1_2_is_a_mexican():
    g = Game("mexican")
    g.roll((1, 2))  # Black wins the opening with 2-1
    assert g.current_player == "black"
    g.choose("keep")
    g.play(g.legal_plays()[0])
    assert g.phase == "name"


def test_M2_rerolled_1_2_is_a_mexican():
    g = Game("mexican")
    g.roll((6, 1))
    g.choose("reroll")
    g.roll((2, 1))
    g.play(g.legal_plays()[0])
    assert g.phase == "name" and g.current_player == "white"


def test_M3_lower_die_unplayable_loses_turn():
    # White's only checker on 10; Black holds White's 9 (Black's 16). The 1 is blocked, the 3 is not.
    pos = "mexican/w/10/16x2"
    assert legal_plays(P(pos), (3, 1)).length == 0
    assert ends(pos, (3, 1)) == ps(pos)
    # The same roll in standard backgammon plays the 3 first: 10/7/6.
    assert ends("standard/w/10/16x2", (3, 1)) == ps("standard/w/6/16x2")
    g = game_at(pos)
    g.roll((3, 1))
    assert g.phase == "roll" and g.current_player == "black"
    assert "lower die, 1, cannot be played" in alltext(g)


def test_M3_lower_die_is_played_first():
    pos = "mexican/w/10/1x2"
    assert {s.die for s in legal_steps(P(pos), (6, 1))} == {1}
    assert code(pos, (6, 1), Step(10, 4, 6)) == "lower_die_first"
    assert code(pos, (6, 1), Step(10, 9, 1)) == "legal"
    with pytest.raises(IllegalMoveError) as e:
        Game("mexican", position=P(pos)).roll((6, 1)).step("10/4")
    assert e.value.reason == "lower_die_first"


def test_M3_higher_die_lost_when_it_cannot_follow_the_lower():
    # Black holds White's 3 (Black's 22). 10/9 then 9/3 is blocked; 10/4 would leave the 1 blocked.
    pos = "mexican/w/10/22x2"
    assert ends(pos, (6, 1)) == ps("mexican/w/9/22x2")
    # Standard backgammon plays the larger die instead.
    assert ends("standard/w/10/22x2", (6, 1)) == ps("standard/w/4/22x2")
    g = game_at(pos)
    g.roll((6, 1))
    g.play("10/9")
    assert g.current_player == "black"
    assert "6 cannot be played after the 1" in alltext(g)


def test_M4_lower_move_must_let_the_higher_die_play():
    # Black holds White's 3 and 2. 10/9 leaves the 6 unplayable; 8/7 does not.
    pos = "mexican/w/10,8/22x2,23x2"
    assert ends(pos, (1, 6)) == ps("mexican/w/7,4/22x2,23x2", "mexican/w/10,1/22x2,23x2")
    assert code(pos, (1, 6), Step(10, 9, 1)) == "use_both_dice"
    assert [s for s in legal_steps(P(pos), (1, 6))] == [Step(8, 7, 1)]


def test_M4_doubles_play_as_many_as_possible():
    # Black holds White's 1: 10/7/4 and then 4/1 is blocked, so only two 3s can be played.
    pos = "mexican/w/10/24x2"
    plays = legal_plays(P(pos), (3, 3))
    assert plays.length == 2
    assert ends(pos, (3, 3)) == ps("mexican/w/4/24x2")
    g = game_at("mexican/w/10,20/1x2")
    g.roll((3, 3))
    with pytest.raises(IllegalMoveError):
        g.play("20/17 10/7")  # only two of four 3s, though four can be played


def test_M5_one_checker_uses_both_dice_only_through_open_intermediate():
    # 3-5: 10/7/2 needs White's 7 (Black's 18) open.
    assert ends("mexican/w/10/1x2", (3, 5)) == ps("mexican/w/2/1x2")
    g = game_at("mexican/w/10/1x2")
    g.roll((5, 3))
    g.play("10/2")
    assert g.position == P("mexican/b/2/1x2")
    # Intermediate point blocked: the lower die cannot be played at all, the turn is lost, though
    # 10/5/2 (5 first) would be fine in standard backgammon.
    assert ends("mexican/w/10/18x2", (3, 5)) == ps("mexican/w/10/18x2")
    assert ends("standard/w/10/18x2", (3, 5)) == ps("standard/w/2/18x2")


def test_M5_blocked_intermediate_with_other_checker_to_play():
    pos = "mexican/w/20,10/18x2"
    assert ends(pos, (3, 5)) == ps("mexican/w/17,5/18x2", "mexican/w/12,10/18x2")
    with pytest.raises(IllegalMoveError):
        game_at(pos).roll((3, 5)).play("10/2")


def test_M6_no_sixth_checker_on_a_point():
    pos = "mexican/w/9,6x5/1x2"
    assert code(pos, (3, 3), Step(9, 6, 3)) == "stack_cap"
    # 6/3 first frees room: then 9/6 is fine.
    assert code(pos, (3, 3), Step(9, 6, 3), done=[Step(6, 3, 3)]) == "legal"
    for end in ends(pos, (3, 3)):
        assert max(abs(x) for x in end.points) <= 5


def test_M6_entering_may_not_make_six():
    # White has five on its 19-point (the 6 entry point) and one on the bar.
    pos = "mexican/w/bar,19x5/1x2"
    assert code(pos, (6, 6), Step(25, 19, 6)) == "stack_cap"
    assert ends(pos, (6, 6)) == ps(pos)
    # Standard backgammon has no cap.
    assert code("standard/w/bar,19x5/1x2", (6, 6), Step(25, 19, 6)) == "legal"


def test_M6_start_lovers_leap_is_blocked_by_the_cap():
    # 6-5 from the start: 24/18/13 would put a sixth checker on the 13-point (and 24/19 is blocked).
    plays = legal_plays(Position.start("mexican"), (6, 5))
    texts = {str(p) for p in plays}
    assert "24/13" not in texts
    assert all(max(abs(x) for x in p.position.points) <= 5 for p in plays)


def test_M7_doubles_all_four_played_roll_again():
    g = game_at(OPEN)
    g.roll((3, 3))
    g.play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"
    assert "rolls again" in alltext(g)
    g.roll((2, 2))  # doubles again: again
    g.play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"
    g.roll((5, 3))
    g.play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "black"


def test_M7_doubles_reroll_of_1_2_is_a_mexican():
    g = game_at(OPEN)
    g.roll((4, 4))
    g.play(g.legal_plays()[0])
    g.roll((1, 2))
    g.play(g.legal_plays()[0])
    assert g.phase == "name"


def test_M7_doubles_fewer_than_four_lose_rest_and_reroll():
    pos = "mexican/w/10/24x2"  # only two 3s can be played (see M4)
    g = game_at(pos)
    g.roll((3, 3))
    g.play("10/4")
    assert g.phase == "roll" and g.current_player == "black"
    assert "no re-roll" in alltext(g)


def test_M7_doubles_none_playable_no_reroll():
    pos = "mexican/w/10/18x2"  # 10/7 blocked
    g = game_at(pos)
    g.roll((3, 3))
    assert g.phase == "roll" and g.current_player == "black"
    assert g.position == P("mexican/b/10/18x2")
    assert "No re-roll" in alltext(g)


def test_M8_mexican_both_played_then_name_then_roll_again_once():
    g = game_at(OPEN)
    g.roll((2, 1))
    assert {s.die for s in g.legal_steps()} == {1}  # the 1 first
    g.play(g.legal_plays()[0])
    assert g.phase == "name"
    assert [a.number for a in g.legal_actions()] == [1, 2, 3, 4, 5, 6]
    g.name_doubles(4)
    assert g.phase == "play" and g.dice.dice == (4, 4) and g.state.named
    g.play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"  # the re-roll
    g.roll((6, 3))
    g.play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "black"  # once only


def test_M8_named_doubles_any_number():
    for k in range(1, 7):
        g = game_at(OPEN)
        g.roll((1, 2)).play(g.legal_plays()[0])
        g.name_doubles(k)
        assert g.dice.dice == (k, k)


def test_M8_one_unplayable_turn_ends_no_naming():
    g = game_at("mexican/w/10/16x2")  # White's 9 blocked
    g.roll((1, 2))
    assert g.phase == "roll" and g.current_player == "black"
    assert "No re-roll" in alltext(g)


def test_M8_two_unplayable_no_naming_no_reroll():
    g = game_at("mexican/w/10/18x2")  # 10/9 fine, 9/7 blocked; 10/8 first is not allowed
    g.roll((1, 2))
    assert g.legal_plays().length == 1
    g.play("10/9")
    assert g.phase == "roll" and g.current_player == "black"
    assert "no doubles may be named" in alltext(g)


def test_M8_named_doubles_not_all_played_no_reroll():
    g = game_at("mexican/w/13/1x2")
    g.roll((1, 2)).play("13/10")
    g.name_doubles(6)  # 10/4, then a 6 cannot bear off from 4 (exact bear-off)
    assert g.legal_plays().length == 1
    g.play("10/4")
    assert g.phase == "roll" and g.current_player == "black"
    assert "no re-roll" in alltext(g)


def test_M8_named_doubles_none_playable_no_reroll():
    g = game_at("mexican/w/13/1x2,19x2")  # Black holds White's 6 (Black's 19)
    g.roll((1, 2)).play("13/10")
    g.name_doubles(4)  # 10/6 is blocked: nothing to play
    assert g.phase == "roll" and g.current_player == "black"
    assert "No re-roll" in alltext(g)


def test_M8_reroll_of_1_2_is_another_mexican():
    g = game_at(OPEN)
    g.roll((1, 2)).play(g.legal_plays()[0])
    g.name_doubles(1)
    g.play(g.legal_plays()[0])
    g.roll((2, 1))
    g.play(g.legal_plays()[0])
    assert g.phase == "name" and g.current_player == "white"


def test_M9_bar_checker_enters_before_other_moves():
    pos = "mexican/w/bar,13/10x2"
    assert legal_steps(P(pos), (1, 3)) == [Step(25, 24, 1)]
    assert code(pos, (1, 3), Step(13, 12, 1)) == "bar_first"
    assert ends(pos, (1, 3)) == ps("mexican/w/21,13/10x2", "mexican/w/24,10/10x2")


def test_M9_lower_die_cannot_enter_turn_lost():
    # Black holds White's 24 (Black's 1): the 1 cannot enter, though the 3 could.
    pos = "mexican/w/bar,13/1x2"
    assert ends(pos, (3, 1)) == ps(pos)
    g = game_at(pos)
    g.roll((3, 1))
    assert g.phase == "roll" and g.current_player == "black"
    assert "lower die, 1, cannot enter" in alltext(g)
    # Standard backgammon enters with the 3 instead.
    assert ends("standard/w/bar,13/1x2", (3, 1)) == ps("standard/w/21,13/1x2", "standard/w/22,12/1x2")


def test_M9_two_on_bar_each_die_must_enter():
    pos = "mexican/w/barx2,13/10x2"
    assert ends(pos, (2, 5)) == ps("mexican/w/23,20,13/10x2")
    assert code(pos, (2, 5), Step(13, 8, 5), done=[Step(25, 23, 2)]) == "bar_first"


def test_M9_second_die_cannot_enter_rest_lost():
    # Black holds White's 20 (Black's 5): 2 enters on 23, the 5 cannot enter; nothing else moves.
    pos = "mexican/w/barx2,13/5x2"
    assert ends(pos, (2, 5)) == ps("mexican/w/bar,23,13/5x2")
    g = game_at(pos)
    g.roll((5, 2))
    g.play("bar/23")
    assert g.current_player == "black"


def test_M9_bar_doubles_blocked_no_moves_no_reroll():
    pos = "mexican/w/bar,13/4x2"  # Black's 4 = White's 21: a 4 cannot enter
    g = game_at(pos)
    g.roll((4, 4))
    assert g.current_player == "black" and g.position.count("white", 25) == 1
    assert "No re-roll" in alltext(g)


def test_M9_mexican_with_checker_on_bar():
    # 1 cannot enter: the Mexican is lost entirely.
    g = game_at("mexican/w/bar,13/1x2")
    g.roll((1, 2))
    assert g.current_player == "black" and g.phase == "roll"


def test_M10_bear_off_only_when_all_home():
    # 2-4 with checkers on 8 and 2: the 2 cannot bear off (8 is outside), so 8/6, then 6/2.
    pos = "mexican/w/8,2/1x2"
    assert code(pos, (2, 4), Step(2, 0, 2)) == "not_home"
    assert ends(pos, (2, 4)) == ps("mexican/w/2x2/1x2")


def test_M10_exact_bear_off_only():
    # A 6-5 cannot bear off a checker from the 2-point (standard could).
    assert ends("mexican/w/2/1x2", (6, 5)) == ps("mexican/w/2/1x2")
    assert ends("standard/w/2/1x2", (6, 5)) == ps("standard/w/-/1x2")
    # 5-6 with checkers on 6 and 4: the 5 moves 6/1, the 4-point checker needs a 4.
    assert code("mexican/w/6,4/1x2", (5, 6), Step(4, 0, 5)) == "bear_off_exact"
    assert ends("mexican/w/6,4/1x2", (5, 6)) == ps("mexican/w/4,1/1x2")


def test_M10_unused_die_must_move_inside_home():
    # 3-4 with checkers on 6 and 5: neither die bears off, so both must move.
    pos = "mexican/w/6,5/1x2"
    assert ends(pos, (3, 4)) == ps("mexican/w/3,1/1x2", "mexican/w/2x2/1x2")


def test_M10_bear_off_or_move_player_chooses():
    # 1-4 with checkers on 6 and 4: the 1 first (6/5 or 4/3). After 6/5 the 4 may bear off (4/off)
    # or move (5/1): the player chooses (interpretation). A "must bear off when it can" rule would
    # refuse 6/5/1; a "must move when it can" rule would refuse 6/5 4/off.
    pos = "mexican/w/6,4/1x2"
    assert ends(pos, (4, 1)) == ps("mexican/w/5/1x2", "mexican/w/4,1/1x2", "mexican/w/3,2/1x2")
    after = {st.text(24) for st in legal_steps(P(pos), (4, 1), ["6/5"])}
    assert after == {"4/off", "5/1"}
    assert code(pos, (4, 1), "5/1", ["6/5"]) == "legal" and code(pos, (4, 1), "4/off", ["6/5"]) == "legal"


def test_M10_hit_checker_must_come_home_before_bearing_off():
    pos = "mexican/w/bar,2x3/1x2"
    assert ends(pos, (2, 6)) == ps("mexican/w/17,2x3/1x2")
    assert code(pos, (2, 6), Step(2, 0, 2)) == "bar_first"
    assert code("mexican/w/17,2x3/1x2", (2, 6), Step(2, 0, 2)) == "not_home"


def test_M11_win_scores_one_point_no_gammon():
    # Black has nothing off and a checker in White's home board: standard would be a backgammon.
    black = "20,1x5,2x5,3x4"
    g = game_at(f"mexican/w/1/{black}")
    g.roll((1, 3))
    g.play("1/off")
    assert g.is_over and g.winner == "white" and g.points == 1
    s = Game("standard", position=P(f"standard/w/1/{black}"))
    s.roll((1, 3)).play("1/off")
    assert s.points == 3


def test_M11_game_ends_inside_a_doubles_chain():
    g = game_at("mexican/w/3x2/1x2")
    g.roll((3, 3))
    g.play("3/off(2)")
    assert g.phase == "over" and g.winner == "white" and g.points == 1


def test_M11_game_ends_on_a_mexican_before_naming():
    g = game_at("mexican/w/2,1/1x2")
    g.roll((1, 2))
    g.play("1/off 2/off")
    assert g.phase == "over" and g.points == 1


def test_M11_no_cube():
    g = game_at(OPEN)
    assert not hasattr(g, "double") and not hasattr(g, "cube")


# ----------------------------------------------------------------------------------------------
# seed000 sentences


def test_seed000_setup_same_as_regular():
    """"The setup for Mexican backgammon is the same as regular backgammon." """
    assert Position.start("mexican").points == Position.start("standard").points


def test_seed000_object_bear_off_all_wins():
    """"The object of the game is to move all of your checkers around the board to your own home
    table and then bear them off. The first player to bear off all of his checkers wins the game." """
    g = game_at("mexican/w/4/1x2")
    g.roll((4, 5)).play("4/off")
    assert g.is_over and g.winner == "white"


def test_seed000_start_higher_die_goes_first():
    """"Each player rolls one die and the higher number goes first." """
    assert Game("mexican").roll((6, 2)).current_player == "white"
    assert Game("mexican").roll((1, 5)).current_player == "black"


def test_seed000_start_use_numbers_or_roll_again():
    """"That player may use the numbers just thrown or he may roll both dice again." """
    g = Game("mexican").roll((6, 2))
    assert g.phase == "choice"
    assert g.choose("keep").dice.dice == (6, 2)
    g = Game("mexican").roll((6, 2)).choose("reroll")
    assert g.phase == "roll" and g.current_player == "white"
    g.roll((3, 4))
    assert g.dice.dice == (3, 4)


def test_seed000_start_players_alternate():
    """"After that, the players alternate turns." """
    g = Game("mexican").roll((6, 2)).choose("keep")
    g.play(g.legal_plays()[0])
    assert g.current_player == "black" and g.phase == "roll"
    g.roll((5, 3)).play(g.legal_plays()[0])
    assert g.current_player == "white"


def test_seed000_movement_dice_give_pips():
    """"The roll of the dice indicates how many points, or pips, the player is to move his
    checkers." """
    pos = P("mexican/w/20/1x2")
    for p in legal_plays(pos, (3, 5)):
        assert pos.pip_count("white") - p.position.pip_count("white") == 8


def test_seed000_movement_lower_number_first():
    """"You must move the lower number first." """
    assert code(OPEN, (5, 2), Step(20, 15, 5)) == "lower_die_first"
    assert {s.die for s in legal_steps(P(OPEN), (5, 2))} == {2}


def test_seed000_movement_lower_unplayable_lose_turn():
    """"If you are unable to play the lower number, then you lose your turn." """
    g = game_at("mexican/w/10/18x2")  # 3 blocked (White's 7), 5 open
    g.roll((5, 3))
    assert g.current_player == "black" and g.position.count("white", 10) == 1


def test_seed000_movement_open_point():
    """"A checker may be moved only to an open point, one that is not occupied by two or more
    opposing checkers." """
    assert code("mexican/w/20/1x2,8x2", (3, 3), Step(20, 17, 3)) == "blocked"
    # a single opposing checker does not block
    assert code("mexican/w/20/1x2,8", (3, 3), Step(20, 17, 3)) == "legal"


def test_seed000_movement_separate_moves_3_and_5():
    """"The numbers on the two dice constitute separate moves. For example, if you roll 3 and 5, you
    may move one checker three spaces to an open point and another checker five spaces to an open
    point, ..." """
    assert ends("mexican/w/20,17/1x2", (3, 5)) == ps(
        "mexican/w/17,12/1x2",  # 20/17 17/12 (the same as 20/17/12)
        "mexican/w/15,14/1x2",  # 17/14 20/15
        "mexican/w/20,9/1x2",  # 17/14/9
    )


def test_seed000_movement_eight_spaces_through_open_intermediate():
    """"... or you may move the one checker a total of eight spaces to an open point, but only if the
    intermediate point (three spaces from the starting point) is also open." """
    assert P("mexican/w/12/1x2") in ends("mexican/w/20/1x2", (3, 5))
    # Black holds White's 17 (three away) but not White's 15 (five away): no 20/12.
    assert ends("mexican/w/20/1x2,8x2", (3, 5)) == ps("mexican/w/20/1x2,8x2")


def test_seed000_movement_not_more_than_five():
    """"You are not allowed to put more than five checkers on one point." """
    assert code("mexican/w/9,6x5/1x2", (3, 3), Step(9, 6, 3)) == "stack_cap"
    with pytest.raises(PositionError):
        P("mexican/w/6x6/1x2")


def test_seed000_doubles_four_moves():
    """"First you play each number twice. For example, a roll of 6-6 means you have four sixes to
    use." """
    plays = legal_plays(P(OPEN), (6, 6))
    assert plays.length == 4
    assert all(len(p.steps) == 4 and {s.die for s in p.steps} == {6} for p in plays)


def test_seed000_doubles_roll_again():
    """"Then you roll again and play that roll in the usual way. If you rolled doubles again, you play
    that number four times and roll yet again." """
    g = game_at(OPEN)
    g.roll((6, 6)).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"
    g.roll((1, 1)).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"


def test_seed000_doubles_not_all_four_lose_rest():
    """"However, if you are unable to play all four numbers of a doubles roll, you lose the
    remaining numbers and do not get to roll again." """
    g = game_at("mexican/w/10/24x2")
    g.roll((3, 3)).play("10/4")
    assert g.current_player == "black"


def test_seed000_mexican_is_1_and_2():
    """"The roll of 1 and 2 is called a Mexican." """
    for dice in ((1, 2), (2, 1)):
        g = game_at(OPEN)
        g.roll(dice).play(g.legal_plays()[0])
        assert g.phase == "name"
    g = Game("standard", position=P("standard/w/20,19,18/1x2"))
    g.roll((1, 2)).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "black"


def test_seed000_mexican_play_1_then_2():
    """"First, you play the 1 and 2 in the normal way (playing the 1 first)." """
    assert code(OPEN, (1, 2), Step(20, 18, 2)) == "lower_die_first"
    assert {s.die for s in legal_steps(P(OPEN), (1, 2))} == {1}


def test_seed000_mexican_name_any_doubles():
    """"Then you name any roll of doubles you wish and play accordingly." """
    g = game_at(OPEN)
    g.roll((1, 2)).play(g.legal_plays()[0])
    g.name_doubles(5)
    assert g.legal_plays().length == 4
    assert all({s.die for s in p.steps} == {5} for p in g.legal_plays())


def test_seed000_mexican_then_roll_again():
    """"Then you get to roll again." """
    g = game_at(OPEN)
    g.roll((1, 2)).play(g.legal_plays()[0])
    g.name_doubles(2).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"


def test_seed000_mexican_another_1_2_keep_going():
    """"If the number you rolled again is another 1 and 2, you get to keep going." """
    g = game_at(OPEN)
    g.roll((1, 2)).play(g.legal_plays()[0])
    g.name_doubles(1).play(g.legal_plays()[0])
    g.roll((1, 2)).play(g.legal_plays()[0])
    assert g.phase == "name"
    g.name_doubles(1).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"


def test_seed000_mexican_forfeit_when_part_unusable():
    """"Note, however, if you are unable to use any part of your roll, you forfeit the rest of your
    turn. For example, if you can move your 1 but cannot use the 2, you may not name a double and
    you may not roll again." """
    g = game_at("mexican/w/10/18x2")
    g.roll((1, 2)).play("10/9")
    assert g.phase == "roll" and g.current_player == "black"
    with pytest.raises(GameError):
        g.name_doubles(6)


def test_seed000_hitting_blot_goes_to_bar():
    """"A checker sitting alone on a point is called a blot. If an opposing checker lands on a blot,
    the blot is hit and placed on the bar." """
    # Black blot on Black's 8 = White's 17.
    after = ends("mexican/w/20/1x2,8", (3, 3))
    assert all(e.count("black", 25) == 1 for e in after)
    step = legal_steps(P("mexican/w/20/1x2,8"), (3, 3))[0]
    assert step == Step(20, 17, 3, True)


def test_seed000_entering_first_obligation():
    """"Any time you have one or more checkers on the bar, your first obligation is to reenter those
    checker(s) into the opponent's home board." """
    pos = "mexican/w/bar,20/1x2"
    assert all(s.start == 25 for s in legal_steps(P(pos), (3, 5)))
    assert code(pos, (3, 5), Step(20, 17, 3)) == "bar_first"


def test_seed000_entering_open_point_by_die():
    """"You reenter a checker by moving it to an open point corresponding to one of the numbers on
    the rolled dice." """
    # The 3 enters on White's 22 (Black's 3); Black holds it, so the lower die fails.
    assert legal_steps(P("mexican/w/bar,20/1x2"), (3, 5)) == [Step(25, 22, 3)]
    assert code("mexican/w/bar,20/1x2,3x2", (3, 5), Step(25, 22, 3)) == "blocked"


def test_seed000_entering_some_but_not_all():
    """"If you are able to enter some but not all of your checkers on the bar, you must enter as many
    as you can then give up the remainder of your turn." """
    pos = "mexican/w/barx2,13/5x2"
    assert ends(pos, (2, 5)) == ps("mexican/w/bar,23,13/5x2")
    g = game_at("mexican/w/barx2,13/5x2")
    g.roll((5, 5))  # no 5 enters (Black's 5 is White's 20)
    assert g.current_player == "black"


def test_seed000_entering_low_number_first_harder():
    """"The low-number-first requirement of Mexican makes entering checkers more difficult than in
    regular backgammon." """
    # Black holds White's 24 (its own 1): a 1 cannot enter. 3-1 enters in standard, not in Mexican.
    assert legal_plays(P("mexican/w/bar,13/1x2"), (3, 1)).length == 0
    assert legal_plays(P("standard/w/bar,13/1x2"), (3, 1)).length == 2


def test_seed000_bearoff_when_all_home():
    """"When all your checkers are home, you may commence bearing off." """
    assert code("mexican/w/7,3/1x2", (3, 4), Step(3, 0, 3)) == "not_home"
    assert code("mexican/w/6,3/1x2", (3, 4), Step(3, 0, 3)) == "legal"


def test_seed000_bearoff_exactly():
    """"Checkers must be borne off exactly; that is, you may only remove checkers from the point
    numbers indicated by the roll." """
    assert legal_plays(P("mexican/w/3/1x2"), (4, 5)).length == 0
    assert code("mexican/w/6,4/1x2", (5, 5), Step(4, 0, 5)) == "bear_off_exact"
    assert code("standard/w/6,4/1x2", (5, 5), Step(4, 0, 5)) == "bear_off_higher"


def test_seed000_bearoff_else_move_inside():
    """"If you cannot bear off, you must make another legal move if possible within your home
    board." """
    assert ends("mexican/w/6,5/1x2", (3, 4)) == ps("mexican/w/3,1/1x2", "mexican/w/2x2/1x2")


def test_seed000_scoring_first_off_wins():
    """"The first player to bear off all his checkers wins the game." """
    g = game_at("mexican/w/2/1x2")
    g.roll((2, 3)).play("2/off")
    assert g.winner == "white" and g.phase == "over"


def test_seed000_scoring_no_gammon_backgammon():
    """"There is no bonus for a gammon or backgammon." """
    g = game_at("mexican/w/2/bar,1x5,2x5,3x4")
    g.roll((2, 3)).play("2/off")
    assert g.points == 1


def test_seed000_scoring_no_cube():
    """"There is no doubling cube in this game." """
    g = game_at(OPEN)
    assert g.chance_outcomes() and not any(hasattr(g, a) for a in ("double", "cube", "offer_double"))


# ----------------------------------------------------------------------------------------------
# seed001 sentences (most repeat seed000; each gets its own position)


def test_seed001_setup_same_as_regular():
    """"Setup: The same as regular backgammon." """
    assert Position.start("mexican").to_string().split("/", 1)[1] == \
        Position.start("standard").to_string().split("/", 1)[1]


def test_seed001_object_same_as_backgammon():
    """"Object: The same as backgammon." """
    g = game_at("mexican/w/6/1x2")
    g.roll((6, 6)).play("6/off")
    assert g.winner == "white"


def test_seed001_start_reroll_option():
    """"Each player rolls one die, with the higher number going first. Unlike regular backgammon,
    the winner of the opening roll can either use the numbers just thrown or he has the option of
    re-rolling for his first turn. Players then alternate turns." """
    g = Game("mexican").roll((3, 5))
    assert g.current_player == "black" and g.phase == "choice"
    g.choose("reroll").roll((6, 6))
    assert g.phase == "play" and g.dice.dice == (6, 6)
    s = Game("standard").roll((3, 5))
    assert s.phase == "play" and s.dice.dice == (5, 3)


def test_seed001_doubles_again_roll_yet_again():
    """"Unlike backgammon, if the player rolls doubles again, they are allowed to play that number
    four times and roll yet again." """
    g = game_at(OPEN)
    g.roll((5, 5)).play(g.legal_plays()[0])
    g.roll((5, 5)).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "white"
    s = Game("standard", position=P("standard/w/20,19,18/1x2"))
    s.roll((5, 5)).play(s.legal_plays()[0])
    assert s.current_player == "black"


def test_seed001_doubles_partial_loses_rest():
    """"However, the player is unable to play all four numbers of a doubles roll he loses the
    remaining numbers and does not get to roll again." """
    g = game_at("mexican/w/10/24x2")
    g.roll((3, 3))
    assert g.legal_plays().length == 2
    g.play(g.legal_plays()[0])
    assert g.current_player == "black"


def test_seed001_mexican_sequence():
    """"First, the player must play the 1 and 2 in the normal way (playing the 1 first). The player
    then names any roll of doubles he wants and plays accordingly. The player then rolls again. If
    the player rolls another 1 and 2, he gets to keep going." """
    g = game_at(OPEN)
    g.roll((2, 1))
    assert {s.die for s in g.legal_steps()} == {1}
    g.play(g.legal_plays()[0]).name_doubles(3).play(g.legal_plays()[0])
    g.roll((2, 1)).play(g.legal_plays()[0])
    assert g.phase == "name"


def test_seed001_mexican_forfeit():
    """"Note: If the player is unable to use any part of his roll, the player forfeits the rest of
    his turn." """
    g = game_at("mexican/w/13/1x2")
    g.roll((1, 2)).play("13/10").name_doubles(6)
    g.play("10/4")
    assert g.current_player == "black"


def test_seed001_hitting_same_as_backgammon():
    """"Hitting: Same as backgammon." """
    for v in ("mexican", "standard"):
        step = legal_steps(P(f"{v}/w/20/1x2,8"), (3, 3))[0]
        assert step.hit


def test_seed001_entering_low_number_first():
    """"Entering from the bar: This is the same as in regular backgammon, although the
    low-number-first requirement of Mexican backgammon makes entering checkers more difficult." """
    # Black holds White's 23 (Black's 2): the 2 cannot enter; 6-2 enters with the 6 in standard.
    assert legal_plays(P("mexican/w/bar,13/2x2"), (6, 2)).length == 0
    assert legal_plays(P("standard/w/bar,13/2x2"), (6, 2)).length > 0


def test_seed001_exact_bear_off():
    """"Unlike regular backgammon, checkers must be borne off exactly; meaning that players may only
    remove checkers from the point numbers indicated by the roll. If the player cannot bear off,
    they must make another legal move if possible within their home board." """
    assert ends("mexican/w/4,1/1x2", (5, 6)) == ps("mexican/w/4,1/1x2")
    assert ends("standard/w/4,1/1x2", (5, 6)) == ps("standard/w/-/1x2")
    assert ends("mexican/w/5,4/1x2", (1, 2)) == ps("mexican/w/4,2/1x2", "mexican/w/3x2/1x2", "mexican/w/5,1/1x2")


def test_seed001_scoring_no_bonus_no_cube():
    """"The first player to bear off all his checkers wins the game. Unlike backgammon, there is no
    bonus for a gammon or backgammon and there is no doubling cube used." """
    g = game_at("mexican/w/1/20,1x5,2x5,3x4")
    g.roll((1, 1)).play("1/off")
    assert g.winner == "white" and g.points == 1
