"""The one-sided bear-off databases (backgammon_lab.analysis.bearoff): checked against a plain
dynamic programme over the public engine (legal_plays and Variant.after_play), known figures, and
the edges (positions that are not races, bad input)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from backgammon_lab import Position, legal_plays
from backgammon_lab.analysis import bearoff
from backgammon_lab.analysis.bearoff import BearoffError
from backgammon_lab.errors import BackgammonError
from backgammon_lab.variants import find_variant

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _position(variant: str, cfg: tuple[int, ...]) -> Position:
    """White to move with ``cfg`` on points 1..6 and the rest off; Black has one checker on its
    own 1-point (no contact)."""
    white = ",".join(f"{p + 1}x{c}" for p, c in enumerate(cfg) if c)
    return Position.from_string(f"{variant}/w/{white}/1")


def _reference(variant: str, checkers: int):
    """Mean turns and distribution by a plain recursion over the public engine: legal_plays for
    the plays, Variant.after_play for what follows (doubles chains, naming after a Mexican)."""
    v = find_variant(variant)

    def cfg_of(pos: Position) -> tuple[int, ...]:
        return tuple(max(pos.points[i], 0) for i in range(6))

    @functools.cache
    def solve(cfg: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
        if sum(cfg) == 0:
            return 0.0, (1.0,) + (0.0,) * 199
        acc = np.zeros(200)
        accm = 0.0
        stuck = 0.0
        for a, b in ROLLS:
            p = 1 / 36 if a == b else 2 / 36
            m, d = best(cfg, (a, b), False)
            if m is None:
                stuck += p
                continue
            accm += p * m
            acc += p * np.asarray(d)
        out = acc.copy()
        for t in range(1, 200):
            out[t] = acc[t] + stuck * out[t - 1]
        return (accm + stuck) / (1 - stuck), tuple(out)

    def best(cfg: tuple[int, ...], dice: tuple[int, int], named: bool):
        plays = legal_plays(_position(variant, cfg), dice)
        used = plays.length
        if used == 0:
            return None, None
        cands = []
        for play in plays:
            end = cfg_of(play.position)
            if sum(end) == 0:
                one = np.zeros(200)
                one[1] = 1
                return 1.0, one
            follow = v.after_play(dice, named, used)
            if follow == "name":
                for d in range(1, 7):
                    m, dist = best(end, (d, d), True)
                    if m is None:
                        m0, d0 = solve(end)
                        cands.append((1 + m0, np.concatenate(([0.0], d0[:-1]))))
                    else:
                        cands.append((m, dist))
            elif follow == "roll_again":
                m0, d0 = solve(end)
                cands.append((m0, np.asarray(d0)))
            else:
                m0, d0 = solve(end)
                cands.append((1 + m0, np.concatenate(([0.0], d0[:-1]))))
        return min(cands, key=lambda c: c[0])

    return solve


@pytest.mark.parametrize("variant", ["standard", "mexican"])
def test_small_database_equals_a_recursion_over_the_public_engine(variant: str) -> None:
    db = bearoff.build_database(variant, checkers=3)
    ref = _reference(variant, 3)
    assert len(db) == 84  # placements of at most 3 checkers on 6 points
    for i, cfg in enumerate(db.configs):
        m, dist = ref(tuple(int(x) for x in cfg))
        assert db.mean_turns(cfg) == pytest.approx(m, abs=1e-12)
        width = db.turns.shape[1]
        np.testing.assert_allclose(db.turns[i], dist[:width], atol=1e-12)
        assert sum(dist[width:]) < 1e-12


def test_known_figures() -> None:
    std = bearoff.build_database("standard", checkers=2)
    # one checker on the 6-point: off at once unless the roll moves fewer than 6 pips
    # (1-2, 1-3, 1-4, 2-3 and 1-1: 9 of 36), then surely off the next turn
    assert std.mean_turns([0, 0, 0, 0, 0, 1]) == pytest.approx(1 + 9 / 36, abs=1e-12)
    mex = bearoff.build_database("mexican", checkers=2)
    # exact bear-off: a last checker on point 1 waits for a 1 (11 rolls of 36)
    assert mex.mean_turns([1, 0, 0, 0, 0, 0]) == pytest.approx(36 / 11, abs=1e-12)
    # standard, the mover on roll with one checker on the 6-point against one on the 1-point:
    # it wins only when it is off in its first turn
    assert std.race([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0])[0] == pytest.approx(27 / 36, abs=1e-12)


def test_full_databases_have_the_counts_the_issue_names() -> None:
    assert len(bearoff._configs(15, 6, None)) == 54264
    assert len(bearoff._configs(15, 6, 5)) == 25494  # Mexican: at most five a point


def test_race_values_are_only_for_pure_bear_off_races() -> None:
    assert bearoff.race_values(Position.start("standard")) is None
    assert bearoff.race_values(Position.from_string("standard/w/6,20/1")) is None  # a white checker outside home
    pos = Position.from_string("standard/w/6/1")
    assert bearoff.home_configs(pos) is not None
    with pytest.raises(BearoffError, match="1-checker standard"):
        bearoff.race_values(pos, bearoff.build_database("standard", checkers=1))
    got = bearoff.race_values(pos)  # the full database, built once and kept in the cache
    assert got is not None and got.tolist() == pytest.approx([27 / 36, 0, 0, 0, 0], abs=1e-12)
    # fifteen checkers each on the ace point, none off: a long race with gammons possible both ways
    full = bearoff.race_values(Position.from_string("standard/w/1x15/1x15"))
    assert full is not None and 0.5 < full[0] < 1 and full[1] == 0.0 and full[3] == 0.0  # 15 off takes 4+ turns


def test_gammon_values_combine_first_off_and_finish() -> None:
    db = bearoff.build_database("standard", checkers=2)
    # the mover has both checkers on the 1-point (off in one turn); the opponent has both on its
    # 6-point, none off: the mover always wins, and a gammon with it
    v = db.race([2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2])
    assert v[0] == pytest.approx(1.0) and v[1] == pytest.approx(1.0) and v[3] == 0.0
    # reversed roles: the mover loses a gammon when it gets no checker off before the opponent finishes
    w = db.race([0, 0, 0, 0, 0, 2], [2, 0, 0, 0, 0, 0])
    first = db.first_off[db.index([0, 0, 0, 0, 0, 2])]
    assert w[3] == pytest.approx(1.0 - first[1], abs=1e-12)  # no checker off in its first turn


def test_bad_input_raises_the_projects_errors() -> None:
    db = bearoff.build_database("standard", checkers=2)
    with pytest.raises(BearoffError, match=r"\[3, 0, 0, 0, 0, 0\]") as e:
        db.index([3, 0, 0, 0, 0, 0])
    assert isinstance(e.value, BackgammonError) and isinstance(e.value, ValueError)
    with pytest.raises(BearoffError, match="'x'"):
        bearoff.build_database("standard", checkers="x")  # type: ignore[arg-type]
    with pytest.raises(BearoffError, match="no room"):
        bearoff.build_database("minigam")
    with pytest.raises(BearoffError, match="not a bear-off database"):
        bearoff.BearoffDatabase.load(__file__)


def test_save_and_load_round_trip(tmp_path) -> None:
    db = bearoff.build_database("mexican", checkers=2)
    path = tmp_path / "db.npz"
    db.save(path)
    back = bearoff.BearoffDatabase.load(path)
    assert back.variant == "mexican" and len(back) == len(db)
    np.testing.assert_array_equal(back.turns, db.turns)
    assert repr(back) == "BearoffDatabase('mexican', 28 positions)"


def test_hints_and_netbot_value_races_exactly() -> None:
    from backgammon_lab.analysis.hints import hint
    from backgammon_lab.analysis.netbot import NetBot
    from backgammon_lab.analysis.nets import shipped_net
    from backgammon_lab.engine import dice_state
    from backgammon_lab.position import Roll

    pos = Position.from_string("standard/w/6x2,5x2,2/6x3,1")
    state = dice_state(pos, Roll(6, 5))
    rows = bearoff.play_values(state)
    assert rows is not None
    h = hint(pos, (6, 5))
    assert {r.how for r in h.plays} == {"exact"}
    best = max(range(len(rows)), key=lambda i: rows[i][0])
    assert str(h.best.play) == str(state.plays[best]) == "6/off 5/off"
    assert h.best.win == pytest.approx(rows[best][0], abs=1e-12)
    net = shipped_net("standard")
    assert net is not None
    assert NetBot(net).choose(state).play == state.plays[best]
    # Mexican: after a Mexican (2-1) the naming is the mover's own next decision
    mex = dice_state(Position.from_string("mexican/w/6x2,5x2,2/6x3,1"), Roll(2, 1))
    mrows = bearoff.play_values(mex)
    assert mrows is not None and len(mrows) == len(mex.plays)
    assert bearoff.state_values(mex)[0] == pytest.approx(float(mrows[:, 0].max()), abs=1e-12)
    assert bearoff.state_values(dice_state(Position.start("standard"), Roll(6, 5))) is None
