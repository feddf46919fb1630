"""Named geometry: the bar, the tray, the other side's numbering and the opponent's borne-off count
have one owner each (``Variant.bar``, ``OFF``, ``Variant.flip``/``renumber``, ``Position.opponent_off``)."""

from __future__ import annotations

import pytest

from backgammon_lab import BLACK, OFF, PLAYERS, WHITE, Position, find_variant, other
from backgammon_lab.position import place_text

VARIANTS = [find_variant("standard"), find_variant("mexican"), find_variant("minigam"),
            find_variant("minigam", checkers=3, bar_first=True)]


@pytest.mark.parametrize("v", VARIANTS, ids=repr)
def test_the_bar_and_the_tray_are_where_a_step_and_a_count_say(v: object) -> None:
    from backgammon_lab.variants import Variant

    assert isinstance(v, Variant)
    assert v.bar == v.points + 1 and OFF == 0
    start = Position.start(v)
    for who in PLAYERS:
        assert start.count(who, v.bar) == start.bar[start.player_index(who)]
        assert start.count(who, OFF) == start.off[start.player_index(who)] == 0
        assert sum(start.count(who, p) for p in range(OFF, v.bar + 1)) == v.checkers
    assert place_text(v.bar, v.points) == "bar" and place_text(OFF, v.points) == "off"


@pytest.mark.parametrize("v", VARIANTS, ids=repr)
def test_flip_and_renumber_are_their_own_inverses_and_agree_with_the_board(v: object) -> None:
    from backgammon_lab.variants import Variant

    assert isinstance(v, Variant)
    k = v.checkers
    pos = Position(v, [1, -2, 1, -1] + [0] * (v.points - 4), (k - 2, k - 3), (0, 0))  # no point like another
    for q in range(1, v.points + 1):
        assert v.flip(v.flip(q)) == q and v.flip(q) == v.points + 1 - q
        assert v.renumber(q, WHITE) == q and v.renumber(q, BLACK) == v.flip(q)
        for who in PLAYERS:
            assert v.renumber(v.renumber(q, who), who) == q
            # the player's point q is White's point renumber(q, who): the count agrees with the stored board
            white = pos.points[v.renumber(q, who) - 1]
            assert pos.count(who, q) == max(white if who == WHITE else -white, 0)


def test_the_opponent_off_is_the_count_the_board_leaves_out() -> None:
    v = find_variant("minigam")
    pos = Position(v, [2, 0, 0, 0, -1, 0], (0, 0), (6, 7), BLACK)
    assert pos.opponent_off == pos.count(other(pos.turn), OFF) == 6
    assert pos.with_turn(WHITE).opponent_off == 7
    for p in (pos, pos.with_turn(WHITE)):
        assert Position.from_board(v, p.turn, p.board(), p.opponent_off) == p


def test_position_counts_are_read_by_the_one_guard() -> None:
    import numpy as np

    from backgammon_lab.errors import DiceError, PositionError
    from backgammon_lab.position import Roll

    pos = Position("minigam", np.array([1, 0, 0, 0, 0, -1]), (7, 7))
    assert pos.points == (1, 0, 0, 0, 0, -1) and all(type(x) is int for x in pos.points)
    for bad in (True, 1.0, "1"):
        with pytest.raises(PositionError, match=r"points: expected a whole number .*, not " + repr(bad).replace(".", r"\.")):
            Position("minigam", [bad, 0, 0, 0, 0, -1], (7, 7))
    assert Roll(np.int64(6), 5) == Roll(6, 5) and type(Roll(np.int64(6), 5).first) is int
    with pytest.raises(DiceError, match=r"a die: 7 is too large: at most 6 \(roll 7-1\)"):
        Roll(7, 1)
