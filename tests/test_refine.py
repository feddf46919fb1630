"""Supervised refinement toward the net's own look-ahead (backgammon_lab.analysis.refine)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from nethelpers import small_net

from backgammon_lab.analysis.nets import Net, NetError, load_net
from backgammon_lab.analysis.refine import _inputs, distil, fit, refine, search_targets
from backgammon_lab.analysis.rollout import sample_positions
from backgammon_lab.analysis.search import Evaluator
from backgammon_lab.cli import main
from backgammon_lab.errors import AnalysisError


def mini(seed: int = 0, hidden2: int = 0) -> Net:
    """A small Mini-Gam net, of one hidden layer unless ``hidden2`` (the shipped net's two layers,
    whose search setup compiled)."""
    return small_net("minigam", 8, seed=seed, hidden2=hidden2)


def test_targets_are_the_searchs_values_at_that_ply() -> None:
    net = mini(hidden2=4)
    pos = sample_positions("minigam", 5, seed=2)
    got = search_targets(net, pos, 1)
    ev = Evaluator(net)
    assert got.shape == (5, 1)
    assert np.allclose(got[:, 0], [ev.roll_row(p, 1)[0] for p in pos], atol=1e-12)
    assert not np.allclose(got, net.forward(_inputs(net, pos))[1])  # 1-ply is not the net itself


def test_fit_moves_the_net_toward_the_targets_and_leaves_the_given_net_alone() -> None:
    teacher, student = mini(1), mini(2)
    pos = sample_positions("minigam", 400, seed=3, explore=1.0)
    x = _inputs(student, pos)
    targets = teacher.forward(x)[1]
    w1 = student.w1.copy()
    fitted, before, after = fit(student, x, targets, epochs=30, lr=3e-3, batch=32, seed=4)
    assert after < before / 2
    assert np.array_equal(student.w1, w1)
    again, _, after2 = fit(student, x, targets, epochs=30, lr=3e-3, batch=32, seed=4)
    assert after2 == after and np.array_equal(again.w1, fitted.w1)  # deterministic for a seed


def test_refine_records_its_rounds_and_repeats_for_a_seed() -> None:
    net = mini(hidden2=4)
    a, rounds = refine(net, rounds=2, positions=60, epochs=2, seed=5)
    b, _ = refine(net, rounds=2, positions=60, epochs=2, seed=5)
    assert [r.ply for r in rounds] == [1, 1] and all(r.positions >= 60 for r in rounds)
    assert [r["seed"] for r in a.meta["refined"]] == [5, 6]
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert "refined" not in net.meta and not np.array_equal(a.w1, net.w1)


@pytest.mark.parametrize("kw, quoted", [({"rounds": 0}, "0"), ({"ply": 0}, "ply 0"), ({"ply": 3}, "3"),
                                        ({"lr": -1.0}, "-1.0"), ({"epochs": 1.5}, "1.5"),
                                        ({"positions": "many"}, "many")])
def test_refine_refuses_bad_settings_quoting_them(kw: dict, quoted: str) -> None:
    with pytest.raises(AnalysisError, match=quoted):
        refine(mini(), **kw)


def test_fit_refuses_inputs_of_the_wrong_shape() -> None:
    net = mini()
    with pytest.raises(AnalysisError, match=r"\(3, 5\)"):
        fit(net, np.zeros((3, 5)), np.zeros((3, 1)))


def test_refine_command_writes_the_net_and_a_line_a_round(tmp_path, capsys) -> None:
    src = mini(hidden2=4).save(tmp_path / "mini.npz")
    out = tmp_path / "refined.npz"
    assert main(["refine", str(src), "--out", str(out), "--positions", "40", "--epochs", "1", "--rounds", "2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d.get("round") for d in lines[:2]] == [1, 2] and lines[2]["out"] == str(out)
    net = load_net(out)
    assert len(net.meta["refined"]) == 2 and net.meta["commands"][-1].startswith("backgammon-lab refine")
    assert main(["refine", str(tmp_path / "none.npz"), "--out", str(out)]) != 0
    assert "none.npz" in capsys.readouterr().err


def test_fit_trains_both_layers_of_a_two_layer_net() -> None:
    teacher = mini(1)
    student = Net.create("minigam", hidden=12, hidden2=4, seed=2)
    pos = sample_positions("minigam", 400, seed=3, explore=1.0)
    x = _inputs(student, pos)
    targets = teacher.forward(x)[1]
    wh = student.wh.copy()
    for loss in ("squared", "entropy"):
        fitted, before, after = fit(student, x, targets, epochs=40, lr=3e-3, batch=32, seed=4, loss=loss)
        assert after < before / 2, loss
        assert not np.allclose(fitted.wh, wh) and np.array_equal(student.wh, wh)
    with pytest.raises(AnalysisError, match="'cubic'"):
        fit(student, x, targets, loss="cubic")


def test_a_falling_step_size_changes_the_fit_and_repeats() -> None:
    teacher, student = mini(1), mini(2)
    pos = sample_positions("minigam", 200, seed=3, explore=1.0)
    x = _inputs(student, pos)
    targets = teacher.forward(x)[1]
    flat = fit(student, x, targets, epochs=5, lr=3e-3, batch=32, seed=4)[0]
    falling = fit(student, x, targets, epochs=5, lr=3e-3, batch=32, seed=4, lr_end=1e-5)[0]
    again = fit(student, x, targets, epochs=5, lr=3e-3, batch=32, seed=4, lr_end=1e-5)[0]
    assert not np.array_equal(flat.w1, falling.w1) and np.array_equal(falling.w1, again.w1)
    with pytest.raises(AnalysisError, match="lr_end.*-1"):
        fit(student, x, targets, lr_end=-1)


def test_distil_fits_a_fresh_two_layer_net_to_the_teacher() -> None:
    teacher = mini(1)
    a, one = distil(teacher, hidden=16, hidden2=4, positions=300, ply=0, epochs=30, lr=3e-3, batch=32, seed=5)
    b, _ = distil(teacher, hidden=16, hidden2=4, positions=300, ply=0, epochs=30, lr=3e-3, batch=32, seed=5)
    assert a.hidden == 16 and a.hidden2 == 4 and a.encoding == teacher.encoding
    assert one.after < one.before / 2 and one.positions == 300
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.wh, b.wh)  # deterministic for a seed
    assert a.meta["distilled"]["teacher_games"] == teacher.games and "distilled" not in teacher.meta
    refined, rounds = refine(a, rounds=1, positions=40, epochs=1, seed=6)  # its own look-ahead, as any net
    assert refined.hidden2 == 4 and len(rounds) == 1
    with pytest.raises(NetError, match="not 17"):
        distil(teacher, hidden=16, hidden2=17, positions=40)


def test_distil_command_writes_the_student(tmp_path, capsys) -> None:
    src = mini(hidden2=4).save(tmp_path / "teacher.npz")
    out = tmp_path / "student.npz"
    assert main(["distil", str(src), "--out", str(out), "--hidden", "8", "--hidden2", "3", "--positions", "40",
                 "--epochs", "2", "--ply", "1", "--loss", "entropy", "--lr-end", "0.0001"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["positions"] == 40 and line["ply"] == 1
    net = load_net(out)
    assert net.hidden2 == 3 and net.meta["commands"][-1].startswith("backgammon-lab distil")
    assert "--loss entropy" in net.meta["commands"][-1] and net.meta["distilled"]["loss"] == "entropy"
    assert main(["distil", str(src), "--out", str(out), "--hidden", "8", "--hidden2", "9"]) != 0
    assert "not 9" in capsys.readouterr().err
    assert main(["distil", str(tmp_path / "none.npz"), "--out", str(out), "--hidden", "8"]) != 0
