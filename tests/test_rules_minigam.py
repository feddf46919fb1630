"""Mini-Gam: one named test per row of RULES.md (G1-G8) and per rule sentence of the seed text
``seeds/002_4b8985e3cd02d1c0.txt`` (seed002).

Positions are position strings ``minigam/TURN/WHITE/BLACK``, each side in its own numbering (1 is
nearest its exit; Black's point q is White's point 7-q); checkers not listed are borne off. A Black
checker kept on the bar (``bar``) stands on no point and so never blocks White.
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
    explain_step,
    find_variant,
    legal_plays,
    legal_steps,
)
from backgammon_lab.game import Game

START = "minigam/w/barx8/barx8"


# ----------------------------------------------------------------------------------------------
# RULES.md rows


def test_G1_six_points_opposite_numberings():
    pos = P("minigam/w/2/2")
    assert len(pos.points) == 6
    # White's 2 is White's point 2; Black's 2 is White's point 5 (7 - 2).
    assert pos.points == (0, 1, 0, 0, -1, 0)


def test_G1_players_move_in_opposite_directions():
    # White moves 6 -> 1 in White's numbering; Black moves 6 -> 1 in its own, i.e. 1 -> 6 in White's.
    white = ends("minigam/w/6/bar", (2, 1))
    assert white == ps("minigam/w/3/bar")
    black = ends("minigam/b/bar/6", (2, 1))
    assert black == ps("minigam/b/bar/3")
    assert P("minigam/b/bar/3").points == (0, 0, 0, -1, 0, 0)  # White's point 4


def test_G1_bear_off_example_point_4_with_a_5():
    # "point 4 could bear off with a 5 if it's the highest point. It could not bear off if there was
    # a checker on point 6."
    assert code("minigam/w/4/bar", (5, 5), Step(4, 0, 5)) == "legal"
    assert code("minigam/w/6,4/bar", (5, 5), Step(4, 0, 5)) == "bear_off_higher"


def test_G2_eight_checkers_all_on_bar():
    pos = Position.start("minigam")
    assert pos.bar == (8, 8) and pos.off == (0, 0)
    assert pos.points == (0,) * 6
    assert pos.to_string() == START


def test_G3_enter_on_own_point_7_minus_die():
    assert set(legal_steps(P(START), (5, 3))) == {Step(7, 2, 5), Step(7, 4, 3)}
    # Black enters on its own 7-d too, which is White's point d.
    after = {p.position for p in legal_plays(P("minigam/b/barx8/barx8"), (5, 5))}
    assert P("minigam/b/barx8/2x4,barx4") in after
    assert P("minigam/b/barx8/2x4,barx4").points[4] == -4


def test_G3_entering_blocked_by_made_point():
    pos = "minigam/w/barx8/5x2,barx6"  # Black's 5 is White's 2
    assert code(pos, (5, 3), Step(7, 2, 5)) == "blocked"
    assert all(s.die == 3 for s in legal_steps(P(pos), (5, 3)))


def test_G3_entering_on_blot_hits():
    pos = "minigam/w/barx8/5,barx7"
    assert Step(7, 2, 5, True) in legal_steps(P(pos), (5, 3))
    assert all(e.bar[1] == 8 for e in ends(pos, (5, 5)))


def test_G4_bar_checkers_need_not_enter_first():
    pos = "minigam/w/bar,6/barx8"
    assert P("minigam/w/bar,3/barx8") in ends(pos, (2, 1))  # 6/4/3 without entering
    assert code(pos, (2, 1), Step(6, 4, 2)) == "legal"
    assert {s.start for s in legal_steps(P(pos), (2, 1))} == {7, 6}


def test_G4_option_bar_first():
    v = find_variant("minigam", bar_first=True)
    pos = Position(v, P("minigam/w/bar,6/barx8").points, (1, 8), (6, 0))
    assert pos == P("minigam;bar_first=true/w/bar,6/barx8")
    assert Position.from_string(pos.to_string()) == pos
    assert {s.start for s in legal_steps(pos, (2, 1))} == {7}
    assert explain_step(pos, (2, 1), [], Step(6, 4, 2)).code == "bar_first"
    assert P("minigam;bar_first=true/w/bar,3/barx8") not in {p.position for p in legal_plays(pos, (2, 1))}


def test_G4_no_bear_off_while_on_bar():
    pos = "minigam/w/bar,1/barx8"
    assert code(pos, (1, 3), Step(1, 0, 1)) == "bar_not_empty"
    # 3-1: bar/4 then 4/3 or 1/off... every bear-off comes after the bar checker has entered.
    for play in legal_plays(P(pos), (3, 1)):
        for i, s in enumerate(play.steps):
            if s.end == 0:
                assert any(t.start == 7 for t in play.steps[:i])


def test_G5_both_dice_when_possible():
    plays = legal_plays(P("minigam/w/6,3/bar"), (4, 1))
    assert plays.length == 2
    assert all(len(p.steps) == 2 for p in plays)


def test_G5_larger_die_when_either_but_not_both():
    # Black holds White's 1 (Black's 6). 6/2 or 6/5 alone; neither continues.
    pos = "minigam/w/6/6x2"
    assert ends(pos, (4, 1)) == ps("minigam/w/2/6x2")
    assert code(pos, (4, 1), Step(6, 5, 1)) == "larger_die"


def test_G5_only_one_number_playable():
    # Black holds White's 1 and 2: only the 1 can be played (6/5), then nothing.
    pos = "minigam/w/6/6x2,5x2"
    assert ends(pos, (4, 1)) == ps("minigam/w/5/6x2,5x2")


def test_G5_neither_die_turn_ends():
    pos = "minigam/w/bar/5x2,3x2"  # White's 2 and 4 held: 5 and 3 cannot enter
    assert ends(pos, (5, 3)) == ps(pos)
    g = game_at(pos)
    g.roll((5, 3))
    assert g.phase == "roll" and g.current_player == "black"


def test_G5_doubles_four_moves_as_many_as_possible():
    assert legal_plays(P(START), (3, 3)).length == 4
    # Black holds White's 2: 6/4, then 4/2 is blocked and a 2 cannot bear off from 4.
    assert legal_plays(P("minigam/w/6/5x2"), (2, 2)).length == 1
    assert ends("minigam/w/6/5x2", (2, 2)) == ps("minigam/w/4/5x2")


def test_G5_one_checker_both_dice_either_order():
    # Black holds White's 5: the 1 first is blocked, the 2 first works: 6/4/3.
    assert ends("minigam/w/6/2x2", (1, 2)) == ps("minigam/w/3/2x2")
    assert code("minigam/w/6/2x2", (1, 2), Step(6, 4, 2)) == "legal"


def test_G6_bear_off_exact_or_larger_from_highest():
    pos = "minigam/w/5,2/bar"
    assert code(pos, (6, 1), Step(5, 0, 6)) == "legal"
    assert code(pos, (6, 1), Step(2, 0, 6)) == "bear_off_higher"
    assert code(pos, (2, 1), Step(2, 0, 2)) == "legal"
    assert ends("minigam/w/2,1/bar", (6, 5)) == ps("minigam/w/-/bar")


def test_G7_enter_and_bear_off_same_turn():
    pos = "minigam/w/bar/bar"
    assert ends(pos, (6, 1)) == ps("minigam/w/-/bar")
    g = game_at(pos)
    g.roll((6, 1))
    g.play(g.legal_plays()[0])
    assert g.is_over and g.winner == "white"


def test_G8_opening_tie_again_then_higher_plays_both_dice():
    g = Game("minigam")
    g.roll((4, 4))
    assert g.phase == "opening"
    g.roll((2, 5))
    assert g.phase == "play" and g.current_player == "black"
    assert g.dice.dice == (5, 2)


def test_G8_no_opening_choice():
    g = Game("minigam").roll((6, 1))
    assert g.phase == "play"
    with pytest.raises(GameError):
        g.choose("reroll")


def test_G8_doubles_no_reroll():
    g = game_at(START)
    g.roll((3, 3)).play(g.legal_plays()[0])
    assert g.phase == "roll" and g.current_player == "black"


def test_G8_no_stacking_limit():
    pos = "minigam/w/4x7,bar/barx8"
    assert Step(7, 4, 3) in legal_steps(P(pos), (3, 3))  # an eighth checker on White's 4
    assert P("minigam/w/4x8/barx8") in ends(pos, (3, 1)) or P("minigam/w/4x8/barx8").points[3] == 8


def test_G8_win_scores_one_point():
    g = game_at("minigam/w/1/barx8")  # Black has borne off nothing: still one point
    g.roll((1, 2)).play("1/off")
    assert g.is_over and g.winner == "white" and g.points == 1


# ----------------------------------------------------------------------------------------------
# seed002 sentences


def test_seed002_equipment_six_points_two_dice():
    """"A quarter backgammon board (6 points per side) and 2 dice." """
    v = find_variant("minigam")
    assert v.points == 6
    assert len(Game("minigam", position=P("minigam/w/6/bar")).chance_outcomes()) == 21


def test_seed002_equipment_eight_checkers_and_a_bar():
    """"Each player has 8 checkers and a bar." """
    assert find_variant("minigam").checkers == 8
    with pytest.raises(PositionError):
        P("minigam/w/barx9/barx8")


def test_seed002_equipment_opposite_directions():
    """"Players move in opposite directions. For one player, the points are numbered 1 → 6; for the
    other, 6 → 1." """
    pos = P("minigam/w/1,2,3,4,5,6/bar")
    assert pos.points == (1, 1, 1, 1, 1, 1)
    assert [pos.count("black", q) for q in range(1, 7)] == [0] * 6
    b = P("minigam/b/bar/1,2,3,4,5,6")
    assert b.points == (-1,) * 6 and b.count("black", 1) == 1 and b.points[5] == -1


def test_seed002_setup_all_on_bar():
    """"All 8 checkers for each player begin on that player's bar." """
    assert Position.start("minigam").bar == (8, 8)


def test_seed002_object_bear_off_all_eight():
    """"Bear off all 8 checkers." """
    g = game_at("minigam/w/1,2/bar")
    g.roll((2, 1)).play("2/off 1/off")
    assert g.is_over and g.position.off[0] == 8


def test_seed002_start_one_die_each_tie_again():
    """"Each player rolls 1 die. If it's a tie, roll again." """
    g = Game("minigam")
    assert len(g.chance_outcomes()) == 36
    g.roll((3, 3))
    assert g.phase == "opening"


def test_seed002_start_higher_goes_first_with_those_dice():
    """"The player with the higher roll goes first, using the dice that were rolled." """
    g = Game("minigam").roll((6, 4))
    assert g.current_player == "white" and g.phase == "play" and g.dice.dice == (6, 4)


def test_seed002_start_no_opening_doubles():
    """"Doubles are therefore excluded as an opening move." """
    for a in range(1, 7):
        g = Game("minigam").roll((a, a))
        assert g.phase == "opening"
    g = Game("minigam").roll((1, 2))
    assert not g.dice.is_double


def test_seed002_movement_two_dice():
    """"On their turn a player rolls two dice." """
    g = game_at(START)
    outs = g.chance_outcomes()
    assert len(outs) == 21 and abs(sum(p for _, p in outs) - 1) < 1e-9


def test_seed002_movement_separate_moves_one_or_two_checkers():
    """"Each die is a separate move. A player may move one checker twice (in the chosen die order)
    or move two different checkers." """
    after = ends("minigam/w/6,5/bar", (2, 1))
    assert P("minigam/w/6,2/bar") in after  # one checker twice: 5/3/2
    assert P("minigam/w/4x2/bar") in after  # two checkers: 6/4 5/4
    assert P("minigam/w/5,3/bar") in after  # 6/5/3 ... or 6/3 then 5 stays
    assert ends("minigam/w/6/2x2", (1, 2)) == ps("minigam/w/3/2x2")  # 2 first, then 1


def test_seed002_movement_doubles_four_moves():
    """"Doubles count as double the moves. The player must play as many of the four moves as is
    legally possible. For example, a roll of 3, 3 would allow 4 moves of 3, 3, 3, 3" """
    plays = legal_plays(P(START), (3, 3))
    assert plays.length == 4 and all([s.die for s in p.steps] == [3, 3, 3, 3] for p in plays)
    assert legal_plays(P("minigam/w/6/5x2"), (2, 2)).length == 1


def test_seed002_entering_open_point_in_entry_direction():
    """"A checker on the bar may enter using a die that corresponds to an open point in that
    player's entry direction." """
    assert {s.end for s in legal_steps(P(START), (1, 2))} == {6, 5}
    assert {s.end for s in legal_steps(P("minigam/b/barx8/barx8"), (1, 2))} == {6, 5}


def test_seed002_entering_point_counted_from_entry_side():
    """"A checker enters onto the point that matches a die, counted from that player's entry
    side." """
    for d in range(1, 7):
        (step,) = {s for s in legal_steps(P("minigam/w/barx8/barx8"), (d, d))}
        assert step == Step(7, 7 - d, d)


def test_seed002_entering_only_open_point():
    """"Entry is allowed only onto an open point (empty or containing a single opposing checker)." """
    assert code("minigam/w/barx8/barx8", (4, 4), Step(7, 3, 4)) == "legal"
    assert code("minigam/w/barx8/4,barx7", (4, 4), Step(7, 3, 4)) == "legal"
    assert code("minigam/w/barx8/4x2,barx6", (4, 4), Step(7, 3, 4)) == "blocked"


def test_seed002_entering_not_on_made_point():
    """"A checker cannot enter onto an opponent's made point (a point with two or more opposing
    checkers)." """
    assert legal_plays(P("minigam/w/barx8/4x3,barx5"), (4, 4)).length == 0


def test_seed002_entering_on_blot_hits():
    """"Entering onto an opposing blot hits it and places it on the opponent's bar." """
    after = ends("minigam/w/barx8/4,barx7", (4, 4))
    assert all(e.bar == (4, 8) for e in after)


def test_seed002_landing_on_blot_hits():
    """"Landing on an opposing blot sends it to the opponent's bar." """
    pos = "minigam/w/6/3,barx7"  # Black's 3 is White's 4
    assert legal_steps(P(pos), (2, 2)) == [Step(6, 4, 2, True)]


def test_seed002_made_point_blocks_landing():
    """"A made point is any point with two or more of a player's checkers; opponents may not enter
    onto or land on it." """
    assert code("minigam/w/6/3x2,barx6", (2, 2), Step(6, 4, 2)) == "blocked"
    assert code("minigam/w/barx8/3x2,barx6", (3, 3), Step(7, 4, 3)) == "blocked"


def test_seed002_forced_both_dice():
    """"If a player can make moves for both dice, they must do so." """
    pos = "minigam/w/6,3/bar"
    with pytest.raises(IllegalMoveError):
        game_at(pos).roll((4, 1)).play("6/2")


def test_seed002_forced_only_one_number():
    """"If only one number can be played, the player must play that number." """
    assert ends("minigam/w/6/6x2,5x2", (4, 1)) == ps("minigam/w/5/6x2,5x2")


def test_seed002_forced_larger_number():
    """"If either number can be played but not both, the larger number must be played." """
    assert ends("minigam/w/6/6x2", (4, 1)) == ps("minigam/w/2/6x2")


def test_seed002_forced_neither_turn_ends():
    """"If neither die can be played, the turn ends with no move." """
    g = game_at("minigam/w/bar/5x2,3x2")
    g.roll((3, 5))
    assert g.current_player == "black" and g.position.count("white", 7) == 1
    assert any("No legal move" in m for m in g.messages)


def test_seed002_bearoff_not_with_bar():
    """"A player may not bear off any checker until all 8 of that player's checkers are on the board
    (none on the bar)." """
    assert code("minigam/w/bar,2/barx8", (2, 4), Step(2, 0, 2)) == "bar_not_empty"


def test_seed002_bearoff_exact():
    """"A checker may always bear off with an exact roll matching the distance from its point to the
    exit." """
    assert code("minigam/w/6,3/bar", (3, 4), Step(3, 0, 3)) == "legal"


def test_seed002_bearoff_larger_die_only_from_highest():
    """"A checker may bear off using a die roll larger than the distance to the exit only if there
    are no checkers on points further from the exit. For example, point 4 could bear off with a 5
    if it's the highest point. It could not bear off if there was a checker on point 6." """
    assert code("minigam/w/4/bar", (5, 5), Step(4, 0, 5)) == "legal"
    assert code("minigam/w/6,4/bar", (5, 5), Step(4, 0, 5)) == "bear_off_higher"


def test_seed002_enter_and_bear_off_same_turn():
    """"A checker may enter from the bar and bear off in the same turn if both moves are legal." """
    assert ends("minigam/w/bar,1/bar", (6, 6)) == ps("minigam/w/-/bar")


def test_seed002_winning_first_to_bear_off_all_eight():
    """"The first player to bear off all 8 checkers wins." """
    g = game_at("minigam/w/3/2")
    g.roll((3, 1)).play(g.legal_plays()[0])
    assert g.winner == "white" and g.points == 1
