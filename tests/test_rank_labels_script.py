"""scripts/rank_labels.py: the ranking experiment of issue 19 (the net's 0-ply taught how its own
search ranks the plays of a roll)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from nethelpers import small_net

from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import Net, encode, equity, join_nets, load_net, shipped_net
from backgammon_lab.analysis.rollout import sample_positions
from backgammon_lab.analysis.search import Evaluator
from backgammon_lab.engine import MakePlay, RollDice, advance, position_state
from backgammon_lab.position import Roll

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "rank_labels.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("rank_labels", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check_first_decision(got: Any, net: Net, *, seed: int, size: int) -> None:
    """A 1-ply chunk's first decision again, by hand, with ``net``: its plays' 1-ply equities contain
    the teacher's values, and their 0-ply equities the net's values of the stored boards."""
    zero = -equity(net.evaluate(got["boards"], got["offs"]))
    rng = random.Random(seed)
    ev = Evaluator(net)
    first = int(got["group"][0])
    for d, p in enumerate(sample_positions("standard", size, NetBot(net), seed=seed, explore=0.1)):
        st = advance(position_state(p), RollDice(Roll(rng.randint(1, 6), rng.randint(1, 6))))[0]
        if d == first:
            break
    rows = np.flatnonzero(got["group"] == first)
    ones = {round(float(equity(ev.after_value(st, MakePlay(pl), 1))), 9) for pl in st.plays}
    zeros = {round(float(equity(r)), 9) for r in ev.play_values(st)}
    assert {round(float(t), 9) for t in got["teacher"][rows]} <= ones
    assert {round(float(z), 9) for z in zero[rows]} <= zeros


def test_a_chunk_holds_each_decisions_candidates_with_the_searchs_equities(tmp_path: Path) -> None:
    """Each candidate is the board the opponent rolls from (the net's 0-ply there is the play's
    0-ply value) and its teacher value is the search's equity of that play at the chunk's ply;
    a chunk already written is kept; merge numbers the rows by chunk."""
    mod = _script()
    assert mod.main(["label", "7", "1", "--size", "12", "--ply", "1", "--dir", str(tmp_path)]) == 0
    got = np.load(tmp_path / "rank1_s7.npz")
    assert len(got["group"]) >= 2 and np.all(np.diff(got["group"]) >= 0)
    net = shipped_net("standard")
    _check_first_decision(got, net, seed=7, size=12)
    before = (tmp_path / "rank1_s7.npz").stat().st_mtime_ns
    assert mod.main(["label", "7", "1", "--size", "12", "--ply", "1", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "rank1_s7.npz").stat().st_mtime_ns == before
    assert mod.main(["merge", str(tmp_path / "m.npz"), "--ply", "1", "--dir", str(tmp_path)]) == 0
    assert set(np.load(tmp_path / "m.npz")["seeds"]) == {7}
    # a fit of the shipped net keeps the record of every fit before it
    assert mod.main(["fit", str(tmp_path / "f.npz"), str(tmp_path / "m.npz"), "--epochs", "1"]) == 0
    fitted = load_net(tmp_path / "f.npz")
    before = net.meta.get("rank_fits") or ([net.meta["rank_fit"]] if "rank_fit" in net.meta else [])
    assert fitted.meta["rank_fits"] == [*before, fitted.meta["rank_fit"]]
    assert fitted.meta["rank_fit"]["labels"] == "m.npz" and fitted.meta["rank_fit"]["epochs"] == 1
    # --net fits a given net file: here the fitted one again, whose record grows by one
    assert mod.main(["fit", str(tmp_path / "g.npz"), str(tmp_path / "m.npz"), "--epochs", "1",
                     "--net", str(tmp_path / "f.npz")]) == 0
    assert load_net(tmp_path / "g.npz").meta["rank_fits"] == [*fitted.meta["rank_fits"],
                                                              load_net(tmp_path / "g.npz").meta["rank_fit"]]
    # several label files fit as one; a chunk seed in two of them is refused, quoting both
    other = tmp_path / "other"
    assert mod.main(["label", "8", "1", "--size", "12", "--ply", "1", "--dir", str(other)]) == 0
    assert mod.main(["merge", str(tmp_path / "m8.npz"), "--ply", "1", "--dir", str(other)]) == 0
    both = mod.load_labels([str(tmp_path / "m.npz"), str(tmp_path / "m8.npz")])
    assert set(both["seeds"]) == {7, 8} and not both["same"].any()
    assert mod.main(["fit", str(tmp_path / "h.npz"), str(tmp_path / "m.npz"), str(tmp_path / "m8.npz"),
                     "--epochs", "1"]) == 0
    assert load_net(tmp_path / "h.npz").meta["rank_fit"]["labels"] == "m.npz m8.npz"
    with pytest.raises(ValueError, match="both hold chunk seed 7"):
        mod.load_labels([str(tmp_path / "m.npz"), str(tmp_path / "m.npz")])
    assert mod.main(["fit", str(tmp_path / "h.npz"), str(tmp_path / "m.npz"), str(tmp_path / "m.npz")]) == 2


@pytest.mark.parametrize("hidden2", [0, 4])
def test_the_ranking_fit_learns_the_teachers_order(hidden2: int) -> None:
    """On decisions whose teacher prefers another candidate than a fresh net does, the fit makes
    the net's choice the teacher's on the decisions it learnt from, and keeps the net given; a net
    of two hidden layers learns through both."""
    mod = _script()
    net = small_net("standard", 8, seed=3, hidden2=hidden2)
    rng = np.random.default_rng(0)
    pos = sample_positions("standard", 60, seed=5)
    boards = np.array([p.board() for p in pos])
    offs = np.array([p.opponent_off for p in pos])
    x = encode(net.variant, boards, offs, net.encoding)
    ids = np.repeat(np.arange(20), 3)
    teacher = rng.normal(0, 0.05, 60)
    w1 = net.w1.copy()
    fitted, stats = mod.fit_ranking(net, x, ids, teacher, tau=0.01, anchor=0.0, lr=0.01, epochs=60)
    assert np.array_equal(net.w1, w1)
    assert fitted.hidden2 == hidden2 and not np.array_equal(fitted.w1, w1)
    if hidden2:
        assert not np.array_equal(fitted.wh, net.wh)
    assert stats["train_lost_after"] < stats["train_lost_before"]
    assert stats["train_lost_after"] < 0.2 * stats["train_lost_before"]


def test_the_ranking_fit_keeps_a_joined_net_block_diagonal() -> None:
    """A joined net's second layer reads each member's units only; the ranking fit moves the
    weights of each member's block and leaves the zeros between them (``Net.layer2_mask``)."""
    mod = _script()
    joined = join_nets([small_net("standard", h, seed=h, hidden2=h // 2) for h in (6, 8)])
    mask = joined.layer2_mask()
    assert mask is not None and not mask.all()
    pos = sample_positions("standard", 30, seed=5)
    x = encode(joined.variant, np.array([p.board() for p in pos]), np.array([p.opponent_off for p in pos]),
               joined.encoding)
    teacher = np.random.default_rng(0).normal(0, 0.05, 30)
    fitted, _ = mod.fit_ranking(joined, x, np.repeat(np.arange(10), 3), teacher, tau=0.01, anchor=0.0, lr=0.01,
                                epochs=20)
    assert fitted.wh is not None and joined.wh is not None
    assert not np.array_equal(fitted.wh[mask], joined.wh[mask]) and not fitted.wh[~mask].any()
    assert np.array_equal(fitted.layer2_mask(), mask)


def test_the_value_term_pulls_each_candidates_equity_to_the_teachers() -> None:
    """With ``value`` the fit also makes each candidate's equity the teacher's, not only their
    order: the equities land nearer the teacher's than the ranking alone puts them."""
    mod = _script()
    net = small_net("standard", 8, seed=3, hidden2=4)
    pos = sample_positions("standard", 60, seed=5)
    boards = np.array([p.board() for p in pos])
    offs = np.array([p.opponent_off for p in pos])
    x = encode(net.variant, boards, offs, net.encoding)
    ids = np.repeat(np.arange(20), 3)
    teacher = np.random.default_rng(0).normal(0.3, 0.05, 60)  # a level the fresh net is far from

    def distance(n: Net) -> float:
        return float(np.abs(mod._mover(mod._outputs(n, x), np.ones(60)) - teacher).mean())

    plain, _ = mod.fit_ranking(net, x, ids, teacher, tau=0.01, anchor=0.0, lr=0.01, epochs=30)
    valued, _ = mod.fit_ranking(net, x, ids, teacher, tau=0.01, anchor=0.0, lr=0.01, epochs=30, value=100.0)
    assert distance(valued) < 0.5 * min(distance(plain), distance(net))


def test_the_fit_encodes_its_candidates_a_chunk_at_a_time_as_at_once() -> None:
    mod = _script()
    net = small_net("standard", 4, seed=1)
    pos = sample_positions("standard", 25, seed=2)
    boards = np.array([p.board() for p in pos])
    offs = np.array([p.opponent_off for p in pos])
    assert np.array_equal(mod._encode(net, boards, offs, chunk=7), encode(net.variant, boards, offs, net.encoding))


def test_mexican_labels_value_each_candidate_for_the_side_that_rolls_next(tmp_path: Path) -> None:
    """In Mexican a candidate after doubles is the mover's own board (it rolls again, ``same``):
    the net's 0-ply there, signed by who rolls, is the play's 0-ply value. No decision is a 1-2
    (its plays are valued through the doubles named next) and the fit reads the signs."""
    mod = _script()
    assert mod.main(["label", "3", "1", "--size", "60", "--ply", "1", "--dir", str(tmp_path),
                     "--variant", "mexican"]) == 0
    got = np.load(tmp_path / "rank1_s3.npz")
    assert got["same"].any() and not got["same"].all()
    net = shipped_net("mexican")
    zero = mod._mover(net.evaluate(got["boards"], got["offs"]), np.where(got["same"], -1.0, 1.0))
    rng = random.Random(3)
    ev = Evaluator(net)
    seen = 0
    for d, p in enumerate(sample_positions("mexican", 60, NetBot(net), seed=3, explore=0.1)):
        st = advance(position_state(p), RollDice(Roll(rng.randint(1, 6), rng.randint(1, 6))))[0]
        rows = np.flatnonzero(got["group"] == d)
        if not len(rows):
            continue
        seen += 1
        assert sorted(st.roll.dice) != [1, 2]
        zeros = {round(float(equity(r)), 9) for r in ev.play_values(st)}
        assert {round(float(z), 9) for z in zero[rows]} <= zeros
        assert bool(got["same"][rows[0]]) == (st.roll.dice[0] == st.roll.dice[1])
    assert seen == len(np.unique(got["group"]))
    ids = mod._decisions(np.zeros(len(got["group"]), np.int64), got["group"])
    x = encode(net.variant, got["boards"], got["offs"], net.encoding)
    sign = np.where(got["same"], -1.0, 1.0)
    some = np.unique(ids)
    agree, lost = mod._report(net, x, ids, got["teacher"], some, sign)
    assert 0.0 <= lost and 0.5 < agree <= 1.0


def test_label_with_a_net_file_uses_that_nets_self_play_and_search(tmp_path: Path) -> None:
    """``label --net NET``: the candidates' 0-ply values and the teacher's are that net's, not the
    shipped net's; a net of another variant is refused, quoting the file."""
    mod = _script()
    net = Net.create("standard", hidden=6, hidden2=3, seed=5, encoding="td24e")
    path = net.save(tmp_path / "small.npz")
    assert mod.main(["label", "7", "1", "--size", "12", "--ply", "1", "--dir", str(tmp_path / "a"),
                     "--net", str(path)]) == 0
    got = np.load(tmp_path / "a" / "rank1_s7.npz")
    assert len(got["group"]) >= 2
    _check_first_decision(got, load_net(path), seed=7, size=12)
    other = small_net("minigam", 4, seed=1).save(tmp_path / "mini.npz")
    assert mod.main(["label", "7", "1", "--size", "12", "--dir", str(tmp_path / "b"), "--net", str(other)]) == 2
    with pytest.raises(ValueError, match="mini.npz.*minigam net, not standard"):
        mod.label(7, 1, 12, str(tmp_path / "b"), 1, "standard", str(other))


def test_a_ply_0_chunk_holds_the_teacher_nets_own_values_of_its_filtered_plays(tmp_path: Path) -> None:
    """``--ply 0`` (to distil a net, such as joined nets, into another): each candidate's teacher
    value is the labelling net's 0-ply equity of it, and a decision keeps at most 8 plays, each
    within 0.16 of its best; the decisions are those of the net's self-play."""
    mod = _script()
    assert mod.main(["label", "11", "1", "--size", "40", "--ply", "0", "--dir", str(tmp_path)]) == 0
    got = np.load(tmp_path / "rank0_s11.npz")
    net = shipped_net("standard")
    zero = -equity(net.evaluate(got["boards"], got["offs"]))
    assert np.allclose(got["teacher"], zero, atol=1e-5)
    sizes = np.bincount(got["group"])[np.unique(got["group"])]
    assert sizes.min() >= 2 and sizes.max() <= 8
    for g in np.unique(got["group"]):
        t = got["teacher"][got["group"] == g]
        assert t.max() - t.min() <= 0.16 + 1e-9
    assert mod.main(["merge", str(tmp_path / "m.npz"), "--ply", "0", "--dir", str(tmp_path)]) == 0
    assert set(np.load(tmp_path / "m.npz")["seeds"]) == {11}


def test_crashed_boards_follows_the_benchmarks_rule_for_either_side() -> None:
    """``crashed_boards`` on boards in the mover's view agrees with ``position_class`` of
    ``benchmarks/strength.py`` on positions in contact, crashed ones among them, for either side."""
    mod = _script()
    spec = importlib.util.spec_from_file_location("strength", SCRIPT.parents[1] / "benchmarks" / "strength.py")
    assert spec is not None and spec.loader is not None
    strength = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strength)
    from backgammon_lab.analysis.strategy import contact
    from backgammon_lab.position import Position

    pos = [p for p in sample_positions("standard", 400, seed=11) if contact(p)]
    # white keeps 8 checkers, 5 of them on its ace point (4 spares): crashed, whoever is on roll
    pos += [Position.from_string(f"standard/{t}/1x5,2x1,20x2/13x5,8x5,6x5") for t in "wb"]
    boards = np.array([p.board() for p in pos])
    want = np.array([strength.position_class(p) == "crashed" for p in pos])
    assert want.any() and not want.all()
    assert np.array_equal(mod.crashed_boards(boards), want)


def test_a_decision_of_weight_zero_is_left_to_the_anchor() -> None:
    """``weight`` scales each decision's ranking term: with the anchor off, a decision of weight
    0 leaves the fit untouched, so fitting it with another decision of weight 0 is a fit of nothing."""
    mod = _script()
    net = small_net("standard", 8, seed=3, hidden2=4)
    pos = sample_positions("standard", 12, seed=5)
    x = encode(net.variant, np.array([p.board() for p in pos]), np.array([p.opponent_off for p in pos]), net.encoding)
    ids = np.repeat(np.arange(4), 3)
    teacher = np.random.default_rng(0).normal(0, 0.05, 12)
    still, _ = mod.fit_ranking(net, x, ids, teacher, tau=0.01, anchor=0.0, lr=0.01, epochs=5, weight=np.zeros(4))
    moved, _ = mod.fit_ranking(net, x, ids, teacher, tau=0.01, anchor=0.0, lr=0.01, epochs=5, weight=np.ones(4))
    assert np.array_equal(still.w1, net.w1) and not np.array_equal(moved.w1, net.w1)


def test_only_crashed_labels_and_fits_the_decisions_from_crashed_positions(tmp_path: Path) -> None:
    """``label --only crashed`` keeps, of the chunk the same seed gives without it, exactly the
    decisions from crashed positions (same dice, same rows); ``fit --only crashed`` fits the
    decisions whose candidates are all crashed, those among them, and records it."""
    mod = _script()
    args = ["label", "21", "1", "--size", "300", "--ply", "1"]
    assert mod.main([*args, "--dir", str(tmp_path / "all")]) == 0
    assert mod.main([*args, "--only", "crashed", "--dir", str(tmp_path / "crashed")]) == 0
    every = np.load(tmp_path / "all" / "rank1_s21.npz")
    only = np.load(tmp_path / "crashed" / "rank1_s21.npz")
    assert 0 < len(np.unique(only["group"])) < len(np.unique(every["group"]))
    assert mod.crashed_boards(only["boards"]).all() and (only["kind"] == mod.KINDS["crashed"]).all()
    assert set(every["kind"].tolist()) <= {mod.KINDS["contact"], mod.KINDS["crashed"]}  # no races by default
    rows = np.isin(every["group"], only["group"])
    for k in ("boards", "offs", "group", "teacher"):
        assert np.array_equal(every[k][rows], only[k])
    assert mod.main(["merge", str(tmp_path / "m.npz"), "--ply", "1", "--dir", str(tmp_path / "all")]) == 0
    assert mod.main(["fit", str(tmp_path / "f.npz"), str(tmp_path / "m.npz"), "--epochs", "1",
                     "--only", "crashed"]) == 0
    whole = load_net(tmp_path / "f.npz")  # the shipped net with the fit as its crashed net
    net = shipped_net("standard")
    assert whole.crashed is not None and np.array_equal(whole.w1, net.w1) and whole.race is not None
    assert whole.crashed.keep == net.keep and not np.array_equal(whole.crashed.w1, net.w1)
    fit = whole.crashed.meta["rank_fit"]
    assert fit["only"] == "crashed" and len(np.unique(only["group"])) <= fit["decisions"]
    # fitted again, the crashed net is what moves on
    assert mod.main(["fit", str(tmp_path / "g.npz"), str(tmp_path / "m.npz"), "--epochs", "1",
                     "--only", "crashed", "--net", str(tmp_path / "f.npz")]) == 0
    again = load_net(tmp_path / "g.npz")
    assert again.crashed is not None and len(again.crashed.meta["rank_fits"]) == len(whole.crashed.meta["rank_fits"]) + 1


def test_only_race_labels_races_and_fits_them_into_the_race_net(tmp_path: Path) -> None:
    """``label --only race`` keeps the decisions from races that the bear-off database does not
    value exactly; ``fit --only race`` fits them into the net's race net and leaves the net itself
    as it was; a fit of a class the labels do not hold is refused, quoting the files."""
    mod = _script()
    assert mod.main(["label", "5", "1", "--size", "300", "--ply", "1", "--only", "race", "--dir", str(tmp_path)]) == 0
    got = np.load(tmp_path / "rank1_s5.npz")
    assert len(np.unique(got["group"])) > 0 and (got["kind"] == mod.KINDS["race"]).all()
    assert mod.main(["merge", str(tmp_path / "m.npz"), "--ply", "1", "--dir", str(tmp_path)]) == 0
    assert mod.main(["fit", str(tmp_path / "f.npz"), str(tmp_path / "m.npz"), "--epochs", "1", "--only", "race"]) == 0
    net, whole = shipped_net("standard"), load_net(tmp_path / "f.npz")
    assert np.array_equal(whole.w1, net.w1) and whole.race is not None and net.race is not None
    assert not np.array_equal(whole.race.w1, net.race.w1) and whole.race.meta["rank_fit"]["only"] == "race"
    assert whole.prune is not None and (whole.crashed is None) == (net.crashed is None)
    with pytest.raises(ValueError, match="no decisions from crashed positions in .*m.npz"):
        mod.fit(str(tmp_path / "g.npz"), [str(tmp_path / "m.npz")], 0.01, 1.0, 0.0001, 1, only="crashed")
