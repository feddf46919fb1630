"""The nets of issue 10: encodings, batched evaluation, files, the shipped nets and the net's bot."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from nethelpers import small_net
from search_reference import dice_value as ref_dice
from search_reference import roll_value as ref_roll
from search_reference import rows as ref_rows

from backgammon_lab import Position, find_variant, legal_plays
from backgammon_lab.analysis.bots import HeuristicBot
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import (
    EXPERT,
    FEATURES,
    LOW_DIE,
    OUTPUTS_1,
    OUTPUTS_5,
    TIMING,
    Net,
    NetError,
    encode,
    encoding_for,
    equity,
    expert_features,
    features,
    flip,
    input_size,
    join_nets,
    load_net,
    low_die_features,
    play_board,
    shipped_net,
    shipped_path,
    swap_boards,
    timing_features,
)
from backgammon_lab.analysis.rollout import play_out, sample_positions
from backgammon_lab.analysis.search import SHORTLIST, Evaluator
from backgammon_lab.analysis.strategy import contact, crashed
from backgammon_lab.analysis.train import Trainer
from backgammon_lab.engine import (
    KEEP,
    REROLL,
    Choice,
    MakePlay,
    NameDoubles,
    OpeningRoll,
    Phase,
    RollDice,
    advance,
    dice_state,
    position_state,
    start_state,
)
from backgammon_lab.errors import AnalysisError
from backgammon_lab.position import BLACK, WHITE, Roll

VARIANTS = ["standard", "mexican", "minigam"]


def _positions(variant: str, n: int, seed: int = 0) -> list[Position]:
    """Positions before a roll from random games (seeded)."""
    return sample_positions(variant, n, seed=seed)


def _opp(p: Position) -> int:
    return p.off[1 if p.turn == WHITE else 0]


# -- encodings --------------------------------------------------------------------------------


def test_encoding_is_chosen_from_the_board_size() -> None:
    assert encoding_for(find_variant("standard")) == "td24"
    assert encoding_for(find_variant("mexican")) == "td24"
    assert encoding_for(find_variant("minigam")) == "strip"
    assert input_size(find_variant("standard")) == 198
    assert input_size(find_variant("minigam")) == 130
    assert input_size(find_variant("minigam", checkers=3)) == 2 * (6 * 3 + 6) + 2


def test_td24_encoding_of_the_start() -> None:
    p = Position.start("standard")
    x = encode(p.variant, [p.board()], [0])[0]
    assert x.shape == (198,)
    # the mover's 6-point holds 5: units 1, 1, 1 and (5 - 3) / 2
    assert list(x[4 * 5:4 * 6]) == [1.0, 1.0, 1.0, 1.0]
    # its 24-point holds 2
    assert list(x[4 * 23:4 * 24]) == [1.0, 1.0, 0.0, 0.0]
    # the opponent's units mirror the mover's at the start
    assert np.array_equal(x[:96], x[96:192])
    assert list(x[192:196]) == [0.0, 0.0, 0.0, 0.0]
    assert x[196] == pytest.approx(1.67) and x[197] == pytest.approx(1.67)


def test_strip_encoding_is_a_thermometer() -> None:
    v = find_variant("minigam")
    board = (1, 3, 0, -2, 0, 0, 0, 4, 1)  # off 1, 3 on my 1-point, opponent 2 on my 3-point, bars 4 and 1
    x = encode(v, [board], [5])[0]
    assert list(x[0:8]) == [1, 1, 1, 0, 0, 0, 0, 0]  # my point 1
    op = x[48:96].reshape(6, 8)
    assert list(op[3]) == [1, 1, 0, 0, 0, 0, 0, 0]  # my 3-point is the opponent's 4-point
    assert op.sum() == 2
    bars = x[96:112].reshape(2, 8)
    assert bars[0].sum() == 4 and bars[1].sum() == 1
    offs = x[112:128].reshape(2, 8)
    assert offs[0].sum() == 1 and offs[1].sum() == 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_encoding_of_a_batch_equals_one_by_one(variant: str) -> None:
    ps = _positions(variant, 40, seed=1)
    v = ps[0].variant
    boards = [p.board() for p in ps]
    offs = [_opp(p) for p in ps]
    batch = encode(v, boards, offs)
    for i, (b, o) in enumerate(zip(boards, offs, strict=True)):
        assert np.array_equal(batch[i], encode(v, [b], [o])[0])


def _shots_by_hand(attack: list[int], bar: int, blots: list[int]) -> float:
    """The chance of a roll reaching a blot (points 1..24 in the attacker's numbering, moving down;
    a die, the sum, or two to four of a doubles; blocks ignored): written out roll by roll."""
    total = 0
    for a in range(1, 7):
        for b in range(1, 7):
            reach = {a, 2 * a, 3 * a, 4 * a} if a == b else {a, b, a + b}
            sources = [q for q in range(1, 25) if attack[q - 1] > 0] + ([25] if bar else [])
            total += any(q - t in reach for q in sources for t in blots)
    return total / 36


def test_td24x_features_by_hand() -> None:
    v = find_variant("standard")
    start = Position.start("standard")
    f = dict(zip([n + "_me" for n in FEATURES] + [n + "_op" for n in FEATURES],
                 features(v, [start.board()], [0])[0], strict=True))
    assert f["shots_against_me"] == f["blots_me"] == 0.0
    assert f["home_points_me"] == pytest.approx(1 / 6)  # the 6-point
    assert f["prime_me"] == pytest.approx(1 / 6)
    assert f["back_me"] == pytest.approx(2 / 15) and f["contact_me"] == f["contact_op"] == 1.0
    board = [0] * 27
    board[7], board[1] = 1, -1  # my blot on my 7-point, the opponent's checker on its 24-point
    f2 = features(v, [board], [14])[0]
    assert f2[0] == pytest.approx(17 / 36) and f2[6] == pytest.approx(17 / 36)  # 6 away: 11 + 5-1, 4-2, 3-3, 2-2
    assert f2[4] == 0.0 and f2[10] == pytest.approx(1 / 15)
    race = [0] * 27
    race[3], race[24] = 2, -3  # my checkers past the opponent's: no contact
    assert features(v, [race], [12])[0][5] == 0.0
    for p in _positions("standard", 60, seed=11):
        b = p.board()
        me = [max(x, 0) for x in b[1:25]]
        op = [max(-x, 0) for x in b[24:0:-1]]  # the opponent's own numbering
        row = features(v, [b], [_opp(p)])[0]
        my_blots = [25 - q for q in range(1, 25) if me[q - 1] == 1]  # in the opponent's numbering
        op_blots = [25 - q for q in range(1, 25) if op[q - 1] == 1]  # in mine
        assert row[0] == pytest.approx(_shots_by_hand(op, b[26], my_blots))
        assert row[6] == pytest.approx(_shots_by_hand(me, b[25], op_blots))
        made = "".join("x" if n >= 2 else "." for n in me)
        assert row[3] == pytest.approx(min(max(len(r) for r in made.split(".")), 6) / 6)


def _escapes_by_hand(blocked: set[int], p: int) -> int:
    """The rolls (of 36) with which a checker on point p moves its whole roll past ``blocked``."""
    return sum(p - a - b not in blocked and (p - a not in blocked or p - b not in blocked)
               for a in range(1, 7) for b in range(1, 7))


def _lost_by_the_engine(p: Position) -> float:
    """The share of the 36 rolls with which the side to act has no legal play at all."""
    return sum(not any(play.steps for play in legal_plays(p, (a, b))) for a in range(1, 7) for b in range(1, 7)) / 36


def test_td24m_low_die_features_by_hand_and_by_the_engine() -> None:
    """td24m's features for Mexican: turn_lost is the share of rolls the rules engine finds no play
    for (M3: the lower die first, else the turn is lost; M9: entering first; M6: the cap closes a
    point; M10: exact bear-off), for both sides, on positions from play and from random boards."""
    import random as _random

    from randpos import random_board

    v = find_variant("mexican")
    names = [n + "_me" for n in LOW_DIE] + [n + "_op" for n in LOW_DIE]

    def feats(board: tuple[int, ...] | list[int], opp_off: int) -> dict[str, float]:
        return dict(zip(names, low_die_features(v, [board], [opp_off])[0], strict=True))

    f = feats(Position.start("mexican").board(), 0)
    assert f["enter_low_me"] == pytest.approx(1 / 36)  # only 6-6 (its 19-point) is closed: 13 - 2 * 6 = 1
    assert f["turn_lost_me"] == 0.0 and f["capped_me"] == pytest.approx(2 / 3)  # the 13- and 6-points hold five
    board = [0] * 27
    board[25] = 1  # my checker on the bar
    board[24] = -2  # its 1-point, my entry point for a 1: 11 rolls of 36 have 1 as the lower die
    board[20] = 5  # my five on my 20-point close my entry for a 5: 3 rolls
    board[2] = -1
    f = feats(board, 12)
    assert f["enter_low_me"] == f["turn_lost_me"] == pytest.approx((11 + 3) / 36)
    assert f["capped_me"] == pytest.approx(1 / 3)
    home = [0] * 27
    home[5] = 3  # all home: a 1 to 4 moves within the board, a 5 bears off, a 6 moves nothing (exact)
    home[24] = -1
    f = feats(home, 14)
    assert f["turn_lost_me"] == pytest.approx(1 / 36)
    rng = _random.Random(3)
    boards = [tuple(p.board()) + (_opp(p),) for p in _positions("mexican", 80, seed=21)]
    for _ in range(150):
        b = random_board(v, rng)
        boards.append(tuple(b) + (v.checkers - sum(-y for y in b[1:25] if y < 0) - b[26],))
    seen_lost = 0
    for row in boards:
        b, opp_off = row[:-1], row[-1]
        f = feats(b, opp_off)
        p = Position.from_board(v, WHITE, b, opp_off)
        assert f["turn_lost_me"] == pytest.approx(_lost_by_the_engine(p)), b
        assert f["turn_lost_op"] == pytest.approx(_lost_by_the_engine(p.with_turn(BLACK))), b
        if b[25]:
            assert f["enter_low_me"] == f["turn_lost_me"]
        seen_lost += f["turn_lost_me"] > 0
    assert seen_lost >= 20  # the check met positions where turns are lost


def test_td24m_is_for_variants_played_lower_die_first() -> None:
    with pytest.raises(NetError, match="lower die first"):
        Net.create("standard", hidden=4, encoding="td24m")
    assert input_size(find_variant("mexican"), "td24m") == 236


def test_td24e_expert_features_by_hand() -> None:
    v = find_variant("standard")
    names = [n + "_me" for n in EXPERT] + [n + "_op" for n in EXPERT]

    def feats(board: list[int], opp_off: int) -> dict[str, float]:
        return dict(zip(names, expert_features(v, [board], [opp_off])[0], strict=True))

    f = feats(list(Position.start("standard").board()), 0)
    assert f["escape_me"] == pytest.approx(24 / 36)  # from the 24-point past the 19-, 17- and 12-points
    assert f["break_contact_me"] == f["break_contact_op"] == 1.0  # 152 pips of contact at the start
    assert f["back_anchor_me"] == 1.0 and f["forward_anchor_me"] == 2.0  # the midpoint is the 12th point
    assert f["enter_fail_me"] == pytest.approx(1 / 36) and f["pip_loss_me"] == f["double_shots_me"] == 0.0
    assert f["contain_me"] == pytest.approx(1 - min(_escapes_by_hand({19, 17, 12, 1}, q) for q in range(13, 25)) / 36)
    board = [0] * 27
    board[7] = board[10] = 1  # my blots on my 7- and 10-points (18 and 15 pips from the bar)
    board[1] = -1  # the opponent's checker on its 24-point: 6 and 9 pips behind them
    f = feats(board, 14)
    # 17 rolls reach 6 pips (each costs 18), 5-4 reaches 9 only (15); 6-3 and 3-3 reach both
    assert f["pip_loss_me"] == pytest.approx((17 * 18 + 2 * 15) / 432)
    assert f["double_shots_me"] == pytest.approx(3 / 36)
    assert f["break_contact_me"] == pytest.approx((6 + 9) / 152)
    assert f["break_contact_op"] == pytest.approx(9 / 152)  # its checker 9 pips behind my 10-point blot
    assert f["back_anchor_me"] == 0.0 and f["forward_anchor_me"] == 2.0
    prime = [0] * 27
    for p in range(4, 10):
        prime[p] = 2  # a full prime on my 4- to 9-points
    prime[3] = 3
    for p in range(19, 25):
        prime[p] = -2  # the opponent's closed board
    prime[1] = -3  # and its checkers on its 24-point, behind my prime
    f = feats(prime, 0)
    assert f["contain_me"] == f["contain_back_me"] == 1.0 and f["enter_fail_me"] == 1.0
    assert f["escape_op"] == 0.0  # its back checkers face my prime
    assert f["contain_back_op"] == 0.0  # my rearmost checker is on my 9-point, short of its boards
    assert f["mobility_me"] == pytest.approx(sum(2 * _escapes_by_hand(set(range(19, 25)) | {1}, p) * (p - 6)
                                                  for p in (7, 8, 9)) / 3600)
    race = [0] * 27
    race[3], race[24] = 2, -3  # past each other: no contact
    f = feats(race, 12)
    assert f["break_contact_me"] == f["break_contact_op"] == 0.0 and f["escape_me"] == 1.0
    for p in _positions("standard", 60, seed=13):
        b = list(p.board())
        row = feats(b, _opp(p))
        their_points = {q for q in range(1, 25) if b[q] <= -2}  # in my numbering
        mine = [q for q in range(1, 25) if b[q] > 0] + ([25] if b[25] else [])
        if mine:
            assert row["escape_me"] == pytest.approx(_escapes_by_hand(their_points, max(mine)) / 36)
        edge = 25 - max([25 - q for q in range(1, 25) if b[q] < 0] + ([25] if b[26] else []), default=0)
        pips = sum(max(b[q], 0) * max(q - edge, 0) for q in range(1, 25)) + b[25] * max(25 - edge, 0)
        assert row["break_contact_me"] == pytest.approx(pips / 152)


def _timing_by_hand(b: list[int]) -> dict[str, float]:
    """The side to act's td24t features, written out point by point from their definitions."""
    mine = {q: b[q] for q in range(1, 25) if b[q] > 0}
    held = {q for q in range(1, 25) if b[q] <= -2}
    timing = 19 * b[25]
    for q, c in mine.items():
        if q <= 6:
            timing += (c - 2 if c >= 3 else c if c == 1 else 0) * (q - 1)
        elif q >= 19 and c >= 2:
            timing += (c - 2) * (q - 6)
        else:
            timing += c * (q - 6)
    makeable = [q for q in range(2, 8) if mine.get(q, 0) < 2 and q not in held]
    builders = sum(c - 2 if c >= 3 else 1 if c == 1 else 0 for q, c in mine.items()
                   if any(m <= q <= m + 6 for m in makeable))
    anchors = sum(1 for q, c in mine.items() if q >= 19 and c >= 2)
    tops = [q for q in range(4, 25) if all(p in held for p in range(q - 3, q + 1)) and q + 1 not in held]
    trapped = sum(c for q, c in mine.items() if q > tops[0]) + b[25] if tops else 0
    return {"timing": timing / 100, "builders": builders / 6, "backgame": timing / 100 if anchors >= 2 else 0.0,
            "trapped": trapped / 15}


def test_td24t_timing_features_by_hand() -> None:
    """td24t's timing, builders, back game and trapped checkers: the start position worked out,
    a back game and a checker behind a prime, then positions from play against the definitions
    written out point by point, for both sides."""
    v = find_variant("standard")
    assert input_size(v, "td24t") == 238
    names = [n + "_me" for n in TIMING] + [n + "_op" for n in TIMING]

    def feats(board: list[int], opp_off: int) -> dict[str, float]:
        return dict(zip(names, timing_features(v, [board], [opp_off])[0], strict=True))

    f = feats(list(Position.start("standard").board()), 0)
    # 5 on the 13-point (7 pips each to the 7-point), 3 on the 8 (1 each), 3 spares on the 6 (5 each);
    # the 24-point anchor keeps its two
    assert f["timing_me"] == f["timing_op"] == pytest.approx(56 / 100)
    # the points 2, 3, 4, 5 and 7 are open; the spares within six pips above one: 3 + 1 + 3
    assert f["builders_me"] == pytest.approx(7 / 6)
    assert f["backgame_me"] == f["trapped_me"] == 0.0
    back = [0] * 27
    back[24], back[22], back[20] = 2, 3, 2  # anchors on the other side's 1-, 3- and 5-points
    back[6], back[5], back[4], back[3], back[2] = 2, 2, 2, 0, 0
    back[13] = 2
    back[8], back[9], back[10], back[11] = -2, -2, -2, -2  # the other side's four-point prime, 8 to 11
    back[1] = -7
    f = feats(back, 0)
    timing = (22 - 6) * 1 + 2 * (13 - 6)  # the third checker on the 22-point, and the two on the 13
    assert f["timing_me"] == f["backgame_me"] == pytest.approx(timing / 100)
    assert f["trapped_me"] == pytest.approx((2 + 3 + 2 + 2) / 15)  # everything above its 11-point
    assert f["builders_me"] == 0.0  # no free checker within six pips above the open 2-, 3- and 7-points
    for p in _positions("standard", 80, seed=17):
        b = list(p.board())
        want = _timing_by_hand(b)
        row = feats(b, _opp(p))
        assert [row[n + "_me"] for n in TIMING] == pytest.approx([want[n] for n in TIMING])
        theirs = [0] + [-b[25 - q] for q in range(1, 25)] + [b[26], b[25]]  # the other side's eye
        want_op = _timing_by_hand(theirs)
        assert [row[n + "_op"] for n in TIMING] == pytest.approx([want_op[n] for n in TIMING])


def test_td24x_extends_td24_and_a_net_grows_into_it() -> None:
    v = find_variant("mexican")
    assert input_size(v, "td24x") == 210
    ps = _positions("mexican", 30, seed=12)
    boards, offs = [p.board() for p in ps], [_opp(p) for p in ps]
    x = encode(v, boards, offs, "td24x")
    assert np.array_equal(x[:, :198], encode(v, boards, offs, "td24"))
    assert np.array_equal(x[3], encode(v, [boards[3]], [offs[3]], "td24x")[0])
    net = Net.create("mexican", hidden=9, seed=4)
    grown = net.with_encoding("td24x")
    assert grown.encoding == "td24x" and grown.inputs == 210 and net.inputs == 198
    assert np.allclose(grown.evaluate(boards, offs), net.evaluate(boards, offs), rtol=0, atol=1e-12)
    assert grown.meta["grown"] == [{"from": "td24", "to": "td24x", "games": 0}]
    fresh = Net.create("standard", hidden=5, seed=1, encoding="td24x")
    assert fresh.inputs == 210 and "td24x" in repr(fresh)
    with pytest.raises(NetError, match="does not extend"):
        grown.with_encoding("td24")
    with pytest.raises(NetError, match="24 points"):
        Net.create("minigam", hidden=4, encoding="td24x")
    with pytest.raises(NetError, match="unknown encoding 'nope'"):
        net.with_encoding("nope")


def test_encode_refuses_boards_of_the_wrong_size() -> None:
    with pytest.raises(NetError, match="shape"):
        encode(find_variant("minigam"), [[0, 1, 2]], [0])


# -- evaluation ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_batched_evaluation_equals_one_by_one(variant: str) -> None:
    net = small_net(variant, 12, seed=3)
    ps = _positions(variant, 50, seed=2)
    boards = [p.board() for p in ps]
    offs = [_opp(p) for p in ps]
    batch = net.evaluate(boards, offs)
    assert batch.shape == (50, len(net.outputs))
    numpy_path = net.forward(encode(net.variant, boards, offs, net.encoding))[1]  # the reference
    assert np.abs(batch - numpy_path).max() < (1e-6 if net.hidden2 else 1e-9)  # a second layer sums in float32
    for i, p in enumerate(ps):
        assert np.allclose(batch[i], net.evaluate_position(p), rtol=0, atol=1e-12)
    after = net.values_after(boards, offs)
    for i, (b, o) in enumerate(zip(boards, offs, strict=True)):
        assert np.allclose(after[i], net.values_after([b], [o])[0], rtol=0, atol=1e-12)


def test_evaluate_refuses_a_board_with_too_many_checkers_on_a_point() -> None:
    net = Net.create("minigam", hidden=4, seed=1)
    board = list(Position.start("minigam").board())
    before = net.w1.copy()
    board[1] = 99
    with pytest.raises(NetError, match="99"):
        net.evaluate([board, board], [0, 0])
    assert np.array_equal(net.w1, before)


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_after_a_play_are_the_opponents_turned_round(variant: str) -> None:
    net = small_net(variant, 12, seed=4)
    ps = _positions(variant, 20, seed=3)
    for p in ps:
        if p.is_over:
            continue
        opp_view = p.with_turn(BLACK if p.turn == WHITE else WHITE)
        assert np.allclose(net.values_after([p.board()], [_opp(p)])[0], flip(net.evaluate_position(opp_view)))
        same = net.values_after([p.board()], [_opp(p)], same_side=[True])[0]
        assert np.allclose(same, net.evaluate_position(p))


def test_swap_boards_twice_is_the_identity() -> None:
    ps = _positions("standard", 30, seed=4)
    b = np.array([p.board() for p in ps])
    o = np.array([_opp(p) for p in ps])
    s, so = swap_boards(b, o, find_variant("standard"))
    back, bo = swap_boards(s, so, find_variant("standard"))
    assert np.array_equal(back, b) and np.array_equal(bo, o)
    assert np.array_equal(s[0], p_swapped_board(ps[0]))


def p_swapped_board(p: Position) -> np.ndarray:
    return np.array(p.with_turn(BLACK if p.turn == WHITE else WHITE).board())


def test_flip_and_equity() -> None:
    v = np.array([[0.6, 0.2, 0.05, 0.1, 0.01]])
    f = flip(v)
    assert np.allclose(f, [[0.4, 0.1, 0.01, 0.2, 0.05]])
    assert np.allclose(flip(f), v)
    assert equity(v)[0] == pytest.approx(0.2 + 0.2 + 0.05 - 0.1 - 0.01)
    assert equity(f)[0] == pytest.approx(-equity(v)[0])
    assert np.allclose(flip(np.array([[0.3]])), [[0.7]])


def test_a_finished_game_gets_its_result() -> None:
    net = Net.create("standard", hidden=4)
    # the mover has borne off all 15; the opponent has none off and a checker on the bar: a backgammon
    board = (15, *([0] * 23), -14, 0, 1)
    assert list(net.values_after([board], [0])[0]) == [1.0, 1.0, 1.0, 0.0, 0.0]
    board = (15, *([0] * 12), -15, *([0] * 11), 0, 0)
    assert list(net.values_after([board], [0])[0]) == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert list(net.values_after([board], [1])[0][:3]) == [1.0, 0.0, 0.0]


def test_outputs_follow_gammons() -> None:
    assert Net.create("standard", hidden=4).outputs == OUTPUTS_5
    assert Net.create("mexican", hidden=4).outputs == OUTPUTS_1
    assert Net.create("minigam", hidden=4).outputs == OUTPUTS_1


def test_create_refuses_a_bad_hidden_size() -> None:
    with pytest.raises(NetError, match="hidden"):
        Net.create("minigam", hidden=0)


# -- files -----------------------------------------------------------------------------------


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    net = Net.create(find_variant("minigam", checkers=3), hidden=7, seed=9)
    net.meta["games"] = 12
    path = net.save(tmp_path / "n.npz")
    assert not list(tmp_path.glob("*.tmp"))
    back = load_net(path)
    assert back.variant == net.variant and back.hidden == 7 and back.games == 12
    assert back.meta["encoding"] == "strip" and back.meta["options"]["checkers"] == 3
    for a, b in ((net.w1, back.w1), (net.b1, back.b1), (net.w2, back.w2), (net.b2, back.b2)):
        assert np.array_equal(a, b)


def test_load_refuses_a_file_that_is_not_a_net(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a net")
    with pytest.raises(NetError, match="bad.npz"):
        load_net(bad)
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(NetError, match="other.npz"):
        load_net(tmp_path / "other.npz")


def test_a_net_refuses_another_variant() -> None:
    net = Net.create("minigam", hidden=4)
    with pytest.raises(NetError, match="mexican"):
        net.evaluate_position(Position.start("mexican"))
    assert isinstance(NetError("x"), AnalysisError)


SHIPPED = [v for v in VARIANTS if shipped_path(v).is_file()]


@pytest.mark.parametrize("variant", SHIPPED)
def test_shipped_nets_load_and_give_probabilities(variant: str) -> None:
    path = shipped_path(variant)
    assert path.stat().st_size < 4_500_000  # standard: the net, its race and crashed nets and its pruning net
    net = shipped_net(variant)
    assert net is not None and net.variant == find_variant(variant) and net.games > 0
    for key in ("games", "seed", "seconds", "commands", "hidden", "encoding"):
        assert key in net.meta
    ps = _positions(variant, 100, seed=5)
    vals = net.evaluate([p.board() for p in ps], [_opp(p) for p in ps])
    # probabilities; an output far out in the sigmoid's tail (below about 1e-16) rounds to 0 or 1
    assert np.all((vals >= 0) & (vals <= 1)) and np.all((vals[:, 0] > 0) & (vals[:, 0] < 1))
    if len(net.outputs) == 5:  # gammons are part of the wins, backgammons of the gammons (roughly)
        assert np.mean(vals[:, 1] <= vals[:, 0] + 0.02) > 0.95


def test_no_shipped_net_for_other_options() -> None:
    assert shipped_net(find_variant("minigam", checkers=3)) is None


# -- the bot ---------------------------------------------------------------------------------


def _state_with_roll(position: Position, dice: tuple[int, int]) -> object:
    from backgammon_lab.engine import position_state

    return advance(position_state(position), RollDice(Roll(*dice)))[0]


def test_netbot_plays_the_best_rated_play() -> None:
    net = small_net("standard", 10, seed=1)
    bot = NetBot(net)
    for p in _positions("standard", 10, seed=6):
        s = _state_with_roll(p, (6, 4))
        if s.phase is not Phase.PLAY:  # type: ignore[attr-defined]
            continue
        plays = s.plays  # type: ignore[attr-defined]
        chosen = bot.choose_play(s, plays)  # type: ignore[arg-type]
        scores = [float(net.score(net.values_after([play_board(q)], [_opp(p)]))[0]) for q in plays]
        assert scores[list(plays).index(chosen)] == pytest.approx(max(scores))


def test_netbot_mexican_decisions_follow_the_values() -> None:
    net = small_net("mexican", 10, seed=2)
    bot = NetBot(net)
    s = advance(start_state("mexican"), OpeningRoll(5, 3))[0]
    assert s.phase is Phase.CHOICE
    keep = ref_dice(net, s.position, (5, 3), 0, shortlist=3)[0]
    fresh = ref_roll(net, s.position, 1, shortlist=3)[0]
    assert bot.keep_or_reroll(s) == ("keep" if keep >= fresh else "reroll")
    assert bot.choose(s) in (KEEP, REROLL)
    # a Mexican played in full: the bot names the doubles whose best play is worth most
    s = advance(start_state("mexican"), OpeningRoll(2, 1))[0]
    s = advance(s, Choice.KEEP)[0]
    s = advance(s, bot.choose(s))[0]
    assert s.phase is Phase.NAME
    best = [ref_dice(net, s.position, (k, k), 0, named=True)[0] for k in range(1, 7)]
    assert bot.choose(s) == NameDoubles(int(np.argmax(best)) + 1)


def test_a_mexican_is_valued_by_the_naming_that_follows() -> None:
    net = small_net("mexican", 10, seed=3)
    p = Position.start("mexican")
    st = dice_state(p, (1, 2))
    ev = Evaluator(net)
    vals = ev.play_values(st)
    for q, v in list(zip(st.plays, vals, strict=True))[:3]:
        after = Position.from_board(p.variant, p.turn, play_board(q), 0)
        best = max(ref_dice(net, after, (k, k), 0, named=True)[0] for k in range(1, 7))
        assert abs(v[0] - best) < 1e-9
    cheap = Evaluator(net, lookahead=False).play_values(st)
    boards = [play_board(q) for q in st.plays]
    assert np.abs(cheap - net.values_after(boards, 0, same_side=[True] * len(boards))).max() < 1e-9


def test_one_ply_values_average_the_replies() -> None:
    net = small_net("minigam", 8, seed=4)
    p = _positions("minigam", 30, seed=7)[-1]
    st = dice_state(p, (3, 1))
    ev = Evaluator(net)
    for q in list(st.plays)[:4]:
        b = play_board(q)
        one = ev.after_value(st, MakePlay(q), 1)
        if b[0] != p.variant.checkers:
            opp = Position.from_board(p.variant, p.turn, b, _opp(p)).with_turn(BLACK if p.turn == WHITE else WHITE)
            rolls = [((a, c), (1 if a == c else 2) / 36) for a in range(1, 7) for c in range(1, a + 1)]
            exp = sum(pr * net.values_after(*_best_board(net, opp, r))[0] for r, pr in rolls)
            assert abs(one[0] - (1 - exp)) < (1e-6 if net.hidden2 else 1e-9)  # a second layer sums in float32
    with pytest.raises(AnalysisError, match="ply"):
        ev.after_value(st, MakePlay(st.plays[0]), 7)


def _best_board(net: Net, p: Position, dice: tuple[int, int]) -> tuple[list[tuple[int, ...]], int]:
    """The board of the best play of ``dice`` at 0-ply by the numpy forward pass, and the opponent's off."""
    boards, rows, _kind = ref_rows(net, p, dice)
    return [boards[int(np.argmax(net.score(rows)))]], _opp(p)


def test_netbot_without_a_net_for_the_variant() -> None:
    bot = NetBot()
    with pytest.raises(AnalysisError):
        bot.net_for(find_variant("minigam", checkers=2))


@pytest.mark.parametrize("variant", SHIPPED)
def test_shipped_net_beats_the_heuristic_in_a_seeded_match(variant: str) -> None:
    net = shipped_net(variant)
    assert net is not None
    if net.games < 5000:
        pytest.skip(f"the shipped {variant} net has only {net.games} games")
    bot, heur = NetBot(net), HeuristicBot()
    score = 0
    games = {"minigam": 200, "mexican": 100}.get(variant, 40)
    for i in range(games // 2):
        for seat in (WHITE, BLACK):
            other = BLACK if seat == WHITE else WHITE
            end = play_out(start_state(variant), {seat: bot, other: heur}, random.Random(i))
            score += end.points if end.winner == seat else -end.points
    assert score > 0


def test_netbot_mexican_play_looks_the_naming_up_for_the_best_candidates() -> None:
    net = small_net("mexican", 10, seed=5)
    s = advance(start_state("mexican"), OpeningRoll(2, 1))[0]
    s = advance(s, Choice.KEEP)[0]
    assert s.mexican and len(s.plays) > 4
    full = NetBot(net, shortlist=None)
    values = full.play_values(s, s.plays)
    best = s.plays[int(np.argmax(values[:, 0]))]
    assert full.choose_play(s, s.plays) is best
    quick = NetBot(net)  # the shortlist: the choice is one of the best three by the cheap value
    rough = Evaluator(net, lookahead=False).play_values(s)[:, 0]
    top = set(np.argsort(-rough, kind="stable")[:SHORTLIST].tolist())
    assert list(s.plays).index(quick.choose_play(s, s.plays)) in top
    with pytest.raises(AnalysisError, match="shortlist"):
        NetBot(net, shortlist=0)


# -- the bot looking ahead ---------------------------------------------------------------------


def test_netbot_at_one_ply_plays_the_one_ply_hint() -> None:
    from backgammon_lab.analysis.hints import Options, hint

    net = small_net("standard", 10, seed=7)
    bot, flat = NetBot(net, Options(ply=1)), NetBot(net)
    differ = 0
    for p in _positions("standard", 12, seed=8):
        s = _state_with_roll(p, (5, 2))
        if s.phase is not Phase.PLAY or len(s.plays) == 1:  # type: ignore[attr-defined]
            continue
        plays = s.plays  # type: ignore[attr-defined]
        chosen = bot.choose_play(s, plays)  # type: ignore[arg-type]
        assert play_board(chosen) == play_board(hint(p, (5, 2), Options(ply=1, evaluator=net)).best.play)
        differ += chosen is not flat.choose_play(s, plays)  # type: ignore[arg-type]
    assert repr(bot).endswith(", Options(ply=1))") and "Options" not in repr(flat)
    assert differ > 0  # looking ahead changes some choices of this untrained net


def test_netbot_at_one_ply_makes_the_mexican_decisions_of_the_hints() -> None:
    from backgammon_lab.analysis.hints import Options, doubles_hint, opening_hint

    net = small_net("mexican", 10, seed=9)
    bot = NetBot(net, Options(ply=1))
    s = advance(start_state("mexican"), OpeningRoll(6, 2))[0]
    assert bot.keep_or_reroll(s) == opening_hint(s, options=Options(ply=1, evaluator=net)).best.option
    s = advance(advance(start_state("mexican"), OpeningRoll(2, 1))[0], Choice.KEEP)[0]
    s = advance(s, bot.choose(s))[0]
    assert s.phase is Phase.NAME
    assert bot.name_doubles(s) == doubles_hint(s, Options(ply=1, evaluator=net)).best.option


def test_netbot_takes_the_options_of_a_search() -> None:
    from backgammon_lab.analysis.options import Options

    net = small_net("standard", 4, seed=1)
    assert NetBot(net).options == Options(ply=0)  # a bot plays at 0-ply unless told
    with pytest.raises(AnalysisError, match="options: expected an Options .*not 1"):
        NetBot(net, 1)  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="plays by its net"):
        NetBot(net, Options(evaluator=net))
    with pytest.raises(TypeError):
        NetBot(net, ply=1)  # type: ignore[call-arg]  # the ply is an option


def test_a_grown_hidden_layer_keeps_every_value() -> None:
    ps = _positions("standard", 30, seed=21)
    boards, offs = [p.board() for p in ps], [_opp(p) for p in ps]
    net = Net.create("standard", hidden=7, seed=2, encoding="td24x")
    net.meta["games"] = 40
    wide = net.with_hidden(12, seed=5)
    assert wide.hidden == 12 and wide.w1.shape == (12, 210) and wide.w2.shape == (5, 12)
    assert np.array_equal(wide.w1[:7], net.w1) and np.array_equal(wide.w2[:, :7], net.w2)
    assert np.all(wide.w2[:, 7:] == 0.0) and np.all(wide.b1[7:] == 0.0)
    assert np.all(wide.w1[7:] != 0.0) and 0.01 < float(wide.w1[7:].std()) < 0.2  # small, random, not zero
    assert np.allclose(wide.evaluate(boards, offs), net.evaluate(boards, offs), rtol=0, atol=1e-15)
    assert wide.meta["grown"] == [{"hidden_from": 7, "hidden_to": 12, "seed": 5, "games": 40}]
    assert np.array_equal(net.with_hidden(12, seed=5).w1, wide.w1)  # seeded
    assert not np.array_equal(net.with_hidden(12, seed=6).w1, wide.w1)
    assert np.array_equal(net.with_hidden(7).w1, net.w1)
    with pytest.raises(NetError, match="can only grow: 6"):
        net.with_hidden(6)
    with pytest.raises(NetError, match="can only grow"):
        net.with_hidden(True)  # type: ignore[arg-type]


# -- two hidden layers (made by distillation, analysis.refine.distil) -----------------------------


@pytest.mark.parametrize("variant", ["minigam", "standard"])
def test_a_net_with_two_hidden_layers_evaluates_as_its_numpy_forward_pass(variant: str) -> None:
    net = small_net(variant, 12, seed=3, hidden2=5)
    net.bh += 0.2  # biases away from zero, so that a mix-up of the packed rows would show
    net.b2 -= 0.1
    assert net.hidden2 == 5 and repr(net).count("-") == 3
    ps = _positions(variant, 40, seed=2)
    boards = [p.board() for p in ps]
    offs = [_opp(p) for p in ps]
    x = encode(net.variant, boards, offs, net.encoding)
    h1 = 1.0 / (1.0 + np.exp(-(x @ net.w1.T + net.b1)))
    h2 = 1.0 / (1.0 + np.exp(-(h1 @ net.wh.T + net.bh)))
    by_hand = 1.0 / (1.0 + np.exp(-(h2 @ net.w2.T + net.b2)))
    assert np.abs(net.forward(x)[1] - by_hand).max() < 1e-12
    # the second layer and the output layer are float32 (the kernel sums them so): the numpy pass
    # reads the same rounded weights, so only the kernel's float32 sums differ from it
    assert net.wh.dtype == net.w2.dtype == np.float32 and net.w1.dtype == np.float64
    batch = net.evaluate(boards, offs)  # the kernel's deep post layer
    assert np.abs(batch - by_hand).max() < 1e-6
    for i, p in enumerate(ps):
        assert np.allclose(batch[i], net.evaluate_position(p), rtol=0, atol=1e-12)
    # the search's 0-ply values of a roll's plays: the incremental first layer, then both others
    ev = Evaluator(net)
    valued = 0
    for p in ps[:10]:
        state = dice_state(p, (3, 1))
        if state.phase is not Phase.PLAY or len(state.plays) < 2:
            continue
        boards_after = [play_board(q) for q in state.plays]
        want = net.values_after(boards_after, [_opp(p)] * len(boards_after))
        assert np.abs(ev.play_values(state) - want).max() < 1e-6
        valued += 1
    assert valued >= 3


def test_a_two_layer_net_round_trips_through_its_file_and_copies_apart(tmp_path: Path) -> None:
    net = Net.create("minigam", hidden=10, hidden2=3, seed=4)
    path = net.save(tmp_path / "deep.npz")
    back = load_net(path)
    assert back.hidden2 == 3 and back.meta["hidden2"] == 3
    for a, b in ((net.w1, back.w1), (net.wh, back.wh), (net.bh, back.bh), (net.w2, back.w2), (net.b2, back.b2)):
        assert np.array_equal(a, b)
    twin = net.copy()
    twin.wh += 1.0
    assert not np.array_equal(twin.wh, net.wh)
    start = Position.start("minigam")
    assert not np.allclose(twin.evaluate_position(start), net.evaluate_position(start))


def test_second_layer_sizes_are_checked_quoting_them() -> None:
    with pytest.raises(NetError, match="not 9"):
        Net.create("minigam", hidden=8, hidden2=9)
    with pytest.raises(NetError, match="not -1"):
        Net.create("minigam", hidden=8, hidden2=-1)
    net = Net.create("minigam", hidden=8, hidden2=4)
    with pytest.raises(NetError, match=r"\(4, 7\)"):
        Net(net.variant, net.w1, net.b1, net.w2, net.b2, layer2=(np.zeros((4, 7)), np.zeros(4)))


def test_a_two_layer_net_neither_widens_nor_trains_by_self_play() -> None:
    net = Net.create("minigam", hidden=8, hidden2=4)
    with pytest.raises(NetError, match="two hidden layers"):
        net.with_hidden(16)
    with pytest.raises(AnalysisError, match="distil"):
        Trainer(net)
    grown = Net.create("standard", hidden=6, hidden2=2, encoding="td24").with_encoding("td24x")
    assert grown.hidden2 == 2 and grown.inputs == 210


@pytest.mark.parametrize("hidden2", [0, 3])
def test_joined_nets_value_a_position_by_the_mean_of_their_logits(hidden2: int, tmp_path: Path) -> None:
    """``join_nets``: one net whose outputs are the sigmoid of the mean of the nets' logits (an
    ensemble), through the numpy pass and the compiled search alike, and through its file; the
    nets given are left as they were; nets that do not fit are refused, quoting them."""
    parts = [Net.create("standard", hidden=h, hidden2=hidden2 and h // 2, seed=h, encoding="td24e")
             for h in (6, 8, 10)]
    for n in parts:  # away from the near-0.5 outputs of fresh nets
        n.w2 *= 40.0
        n.b2 += np.array([0.3, -1.0, -2.0, -1.5, -2.5])
    before = [n.w2.copy() for n in parts]
    joined = join_nets(parts)
    assert joined.hidden == 24 and joined.hidden2 == (12 if hidden2 else 0)
    assert [j["hidden"] for j in joined.meta["joined"]] == [6, 8, 10]
    assert all(np.array_equal(n.w2, b) for n, b in zip(parts, before, strict=True))
    pos = sample_positions("standard", 30, seed=2)
    boards = np.array([p.board() for p in pos])
    offs = np.array([p.opponent_off for p in pos])
    x = encode(joined.variant, boards, offs, "td24e")

    def logits(n: Net) -> np.ndarray:
        h = 1 / (1 + np.exp(-(x @ n.w1.T + n.b1)))
        if n.wh is not None:
            h = 1 / (1 + np.exp(-(h @ n.wh.T.astype(float) + n.bh)))
        return h @ n.w2.T.astype(float) + n.b2

    want = 1 / (1 + np.exp(-np.mean([logits(n) for n in parts], axis=0)))
    assert np.abs(want - 0.5).max() > 0.2
    assert np.allclose(joined.evaluate(boards, offs), want, atol=1e-6)
    assert np.allclose(load_net(joined.save(tmp_path / "j.npz")).evaluate(boards, offs), want, atol=1e-6)
    st = advance(position_state(pos[5]), RollDice(Roll(3, 1)))[0]
    eqs = equity(np.array(Evaluator(joined).play_values(st)))
    after = np.array([play_board(pl) for pl in st.plays], dtype=np.int8)
    sb, so = swap_boards(after, np.full(len(after), pos[5].opponent_off), joined.variant)
    assert np.allclose(eqs, -equity(joined.evaluate(sb, so)), atol=1e-5)
    with pytest.raises(NetError, match="cannot join"):
        join_nets([parts[0], Net.create("standard", hidden=4, hidden2=0 if hidden2 else 2, encoding="td24e")])
    with pytest.raises(NetError, match="cannot join"):
        join_nets([parts[0], Net.create("mexican", hidden=4, hidden2=hidden2 and 2, encoding="td24e")])
    with pytest.raises(NetError, match="one or more nets"):
        join_nets([])


def test_a_joined_net_s_second_layer_reads_each_member_s_units_only(tmp_path: Path) -> None:
    """A joined net of two hidden layers is block-diagonal between them: ``layer2_mask`` marks each
    second-layer unit's span of first-layer units, the kernel takes the spans (four units at a
    time) after the biases and values positions as the numpy pass does, and a fit moves the weights
    inside the spans only, so the zeros between the members (and the spans) survive fits and files.
    A dense net's spans are its whole first layer."""
    from backgammon_lab.analysis.refine import fit

    a = Net.create("standard", hidden=6, hidden2=6, seed=1, encoding="td24e")
    b = Net.create("standard", hidden=10, hidden2=5, seed=2, encoding="td24e")
    dense_mask = a.layer2_mask()
    assert dense_mask is not None and dense_mask.all()
    assert Net.create("standard", hidden=4, seed=1).layer2_mask() is None
    joined = join_nets([a, b])
    mask = joined.layer2_mask()
    assert mask is not None and mask.shape == (11, 16)
    assert mask[:6, :6].all() and mask[6:, 6:].all() and not mask[:6, 6:].any() and not mask[6:, :6].any()
    spans = joined.kernel_weights()[3][11 + 5:].reshape(-1, 2).tolist()
    # units 0-3 and 4-7 are summed as fours: 4-7 straddle the members, so read both; 8, 9, 10 alone
    assert spans == [[0, 6]] * 4 + [[0, 16]] * 4 + [[6, 16]] * 3
    pos = sample_positions("standard", 40, seed=4)
    boards = np.array([p.board() for p in pos])
    offs = np.array([p.opponent_off for p in pos])
    x = encode(joined.variant, boards, offs, "td24e")
    assert np.allclose(joined.evaluate(boards, offs), joined.forward(x)[1], atol=1e-6)
    fitted = fit(joined, x, np.full((40, 5), 0.3), epochs=3, lr=0.01, batch=8, seed=1)[0]
    assert fitted.wh is not None and joined.wh is not None
    assert not np.array_equal(fitted.wh[mask], joined.wh[mask]) and not fitted.wh[~mask].any()
    back = load_net(fitted.save(tmp_path / "f.npz"))
    assert np.array_equal(back.layer2_mask(), mask)
    assert np.allclose(back.evaluate(boards, offs), fitted.forward(x)[1], atol=1e-6)


def test_a_race_net_travels_with_its_net_through_files_and_copies(tmp_path: Path) -> None:
    """``Net.with_race``: the race net is saved in the same file and read back, carried by
    copies, and refused when it does not fit (another variant, other outputs, a race net of its
    own); ``with_race(None)`` leaves the net without one."""
    main = Net.create("standard", hidden=6, seed=1, encoding="td24e")
    race = Net.create("standard", hidden=3, seed=2)
    net = main.with_race(race)
    assert main.race is None and net.race is not None and net.race is not race
    assert repr(net).endswith("race=td24-3>")
    path = tmp_path / "n.npz"
    net.save(path)
    back = load_net(path)
    assert back.race is not None and back.race.encoding == "td24" and back.race.hidden == 3
    assert np.array_equal(back.race.w1, race.w1) and np.array_equal(back.w1, main.w1)
    assert back.copy().race is not None
    bare = back.with_race(None)
    bare.save(path)
    assert load_net(path).race is None and "race" not in load_net(path).meta
    for bad in (Net.create("mexican", hidden=3), Net.create("standard", hidden=3).with_race(race), "race"):
        with pytest.raises(NetError, match="race net"):
            main.with_race(bad)  # type: ignore[arg-type]
    assert main.race is None


def test_the_search_values_a_race_by_the_race_net_and_contact_by_the_net() -> None:
    """From a race (no contact) the evaluator searches with the net's race net, at every ply; from
    a position in contact with the net itself; a race of two home boards by the bear-off database."""
    main = small_net("standard", 6, seed=1, hidden2=0)
    race = small_net("standard", 5, seed=7, hidden2=0)
    ev, ev_main, ev_race = Evaluator(main.with_race(race)), Evaluator(main), Evaluator(race)
    racing = Position.from_string("standard/w/13x2,9x3,6x5,5x5/11x4,6x5,4x6")
    assert not contact(racing) and ev._race(racing) is None
    for ply in (0, 1):
        assert np.allclose(ev.roll_row(racing, ply), ev_race.roll_row(racing, ply))
        assert not np.allclose(ev.roll_row(racing, ply), ev_main.roll_row(racing, ply))
    assert np.allclose(ev.roll_row(racing, 0), race.evaluate_position(racing))
    st = advance(position_state(racing), RollDice(Roll(6, 3)))[0]
    assert np.allclose(ev.play_values(st), ev_race.play_values(st))
    assert ev.best_play(st, 1)[0] == ev_race.best_play(st, 1)[0]
    start = Position.start("standard")
    assert np.allclose(ev.roll_row(start, 1), ev_main.roll_row(start, 1))
    homes = Position.from_string("standard/w/6x2,5x3/5x4")
    assert np.allclose(ev.roll_row(homes, 0), ev_main.roll_row(homes, 0))  # exact: neither net


def test_a_crashed_net_travels_with_its_net_and_searches_with_its_pruning_net(tmp_path: Path) -> None:
    """``Net.with_crashed``: the crashed net is saved in the same file and read back (one or two
    hidden layers), carried by copies, joins and grown encodings, searches with the net's pruning
    net (set before or after), and is refused when it does not fit (another variant, encoding or
    outputs, a race or crashed net of its own), leaving the net as it was."""
    main = Net.create("standard", hidden=6, seed=1, encoding="td24e").with_race(Net.create("standard", hidden=3))
    pruner = Net.create("standard", hidden=4, seed=2, encoding="td24e")
    crash = Net.create("standard", hidden=5, hidden2=2, seed=3, encoding="td24e")
    net = main.with_prune(pruner, keep=3).with_crashed(crash)
    assert main.crashed is None and net.crashed is not None and net.crashed is not crash
    assert repr(net).endswith("race=td24-3 crashed=5-2 prune=4:3>")
    assert net.crashed.prune is not None and net.crashed.keep == 3
    assert np.array_equal(net.crashed.search_weights()[4], pruner.w1.T)
    back = load_net(net.save(tmp_path / "n.npz"))
    assert back.crashed is not None and back.crashed.hidden2 == 2 and back.race is not None
    assert np.array_equal(back.crashed.w1, crash.w1) and np.array_equal(back.w1, main.w1)
    assert np.allclose(back.crashed.wh, crash.wh) and back.crashed.keep == 3
    assert back.copy().crashed is not None and join_nets([back, main]).crashed is not None
    late = main.with_crashed(crash).with_prune(pruner, keep=2)  # a pruning net given afterwards reaches it too
    assert late.crashed is not None and late.crashed.keep == 2 and late.crashed.prune is not None
    grown = back.with_encoding("td24t")
    assert grown.crashed is not None and grown.crashed.encoding == "td24t" and grown.crashed.keep == 3
    bare = back.with_crashed(None)
    assert bare.crashed is None and bare.race is not None and bare.prune is not None
    assert "crashed" not in load_net(bare.save(tmp_path / "b.npz")).meta
    bad_nets = (Net.create("mexican", hidden=3, encoding="td24e"), Net.create("standard", hidden=3),
                crash.with_race(Net.create("standard", hidden=3)), main.with_crashed(crash), "crashed")
    for bad in bad_nets:
        with pytest.raises(NetError, match="crashed net"):
            main.with_crashed(bad)  # type: ignore[arg-type]
    assert main.crashed is None


def test_the_search_values_a_crashed_position_by_the_crashed_net() -> None:
    """From a crashed position (in contact, a side with at most six checkers in play) the evaluator
    searches with the net's crashed net, at every ply; from other contact positions with the net
    itself, and from a race with the race net."""
    main = small_net("standard", 6, seed=1, hidden2=0)
    crash = small_net("standard", 5, seed=7, hidden2=0)
    race = small_net("standard", 4, seed=8, hidden2=0)
    both = main.with_crashed(crash).with_race(race)
    ev, ev_main, ev_crash, ev_race = Evaluator(both), Evaluator(main), Evaluator(crash), Evaluator(race)
    broken = Position.from_string("standard/w/1x5,2x4,3x2,20x2/13x5,8x5,6x5")
    assert crashed(broken) and contact(broken)
    for ply in (0, 1):
        assert np.allclose(ev.roll_row(broken, ply), ev_crash.roll_row(broken, ply))
        assert not np.allclose(ev.roll_row(broken, ply), ev_main.roll_row(broken, ply))
    st = advance(position_state(broken), RollDice(Roll(6, 3)))[0]
    assert np.allclose(ev.play_values(st), ev_crash.play_values(st))
    start = Position.start("standard")
    assert not crashed(start)
    assert np.allclose(ev.roll_row(start, 1), ev_main.roll_row(start, 1))
    racing = Position.from_string("standard/w/13x2,9x3,6x5,5x5/11x4,6x5,4x6")
    assert np.allclose(ev.roll_row(racing, 0), ev_race.roll_row(racing, 0))


def test_a_pruning_net_travels_with_its_net_through_files_and_copies(tmp_path: Path) -> None:
    """``Net.with_prune``: the pruning net and its count are saved in the same file and read back,
    carried by copies and grown encodings, given to the compiled search (``search_weights``), and
    refused when they do not fit (another variant, encoding or outputs, two hidden layers, a race
    or pruning net of its own, a count below 1), leaving the net as it was."""
    main = Net.create("standard", hidden=6, seed=1, encoding="td24e").with_race(Net.create("standard", hidden=3))
    pruner = Net.create("standard", hidden=4, seed=2, encoding="td24e")
    net = main.with_prune(pruner, keep=3)
    assert main.prune is None and main.keep == 0 and net.prune is not None and net.prune is not pruner
    assert net.keep == 3 and repr(net).endswith("race=td24-3 prune=4:3>")
    back = load_net(net.save(tmp_path / "n.npz"))
    assert back.prune is not None and back.keep == 3 and back.race is not None
    assert np.array_equal(back.prune.w1, pruner.w1) and np.array_equal(back.w1, main.w1)
    assert back.copy().keep == 3 and back.with_race(None).prune is not None
    grown = back.with_encoding("td24t")
    assert grown.prune is not None and grown.prune.encoding == "td24t" and grown.keep == 3
    w = back.search_weights()
    assert len(w) == 9 and w[8] == 3 and np.array_equal(w[4], pruner.w1.T)
    plain = main.search_weights()
    assert plain[8] == 0 and all(np.array_equal(a, b) for a, b in zip(plain[:4], main.kernel_weights(), strict=True))
    bare = back.with_prune(None)
    assert bare.prune is None and bare.keep == 0
    assert load_net(bare.save(tmp_path / "b.npz")).prune is None and "prune" not in load_net(tmp_path / "b.npz").meta
    bad_nets = (Net.create("mexican", hidden=3, encoding="td24e"), Net.create("standard", hidden=3),
                Net.create("standard", hidden=4, hidden2=2, encoding="td24e"),
                pruner.with_race(Net.create("standard", hidden=3)), "prune")
    for bad in bad_nets:
        with pytest.raises(NetError, match="pruning net"):
            main.with_prune(bad)  # type: ignore[arg-type]
    for keep in (0, -2, 1.5, "4", True):
        with pytest.raises(NetError, match=f"keeps a whole number of plays from 1, not {keep!r}"):
            main.with_prune(pruner, keep=keep)  # type: ignore[arg-type]
    assert main.prune is None and main.keep == 0
