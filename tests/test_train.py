"""The TD(lambda) trainer (issue 10): it learns exact values on a small Mini-Gam, its gradients are
right, it is deterministic for a seed, a resumed run equals an uninterrupted one, and the CLI."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from nethelpers import small_net

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis.nets import Net, encode, flip, load_net
from backgammon_lab.analysis.rollout import sample_positions
from backgammon_lab.analysis.search import Evaluator
from backgammon_lab.analysis.solve import solve, start_values
from backgammon_lab.analysis.train import Trainer
from backgammon_lab.cli import main
from backgammon_lab.engine import Phase, position_state
from backgammon_lab.errors import AnalysisError


def _visited(net: Net, games: int, seed: int) -> Counter[Position]:
    """The positions before a roll in ``games`` greedy self-play games of ``net`` (without learning)."""
    t = Trainer(net.copy(), seed=seed)
    seen: Counter[Position] = Counter()
    t._learn_state = lambda s: seen.update([s.position])  # type: ignore[method-assign]
    for _ in range(games):
        t.play_game(learn=True)
    return seen


def _weighted_error(net: Net, table: object, seen: Counter[Position]) -> float:
    ps = list(seen)
    w = np.array([seen[p] for p in ps], dtype=float)
    err = np.array([abs(float(net.evaluate_position(p)[0]) - table.value(p)) for p in ps])  # type: ignore[attr-defined]
    return float((err * w).sum() / w.sum())


def test_trainer_learns_the_exact_values_of_a_two_checker_minigam() -> None:
    v = find_variant("minigam", checkers=2)
    table = solve(2, progress=False)
    net = Net.create(v, hidden=16, seed=0)
    before = _weighted_error(net, table, _visited(net, 200, seed=99))
    Trainer(net, alpha=1.0, lam=0.7, seed=0).train(2500)
    seen = _visited(net, 200, seed=99)
    after = _weighted_error(net, table, seen)
    assert before > 0.15
    assert after < 0.08, (before, after)
    # the first mover's chance after the opening roll (the 15 rolls of two different dice)
    start = Position.start(v)
    rolls = [(a, b) for a in range(2, 7) for b in range(1, a)]
    first = np.mean([Evaluator(net).dice_value(start, r)[0] for r in rolls])
    assert first == pytest.approx(start_values(table)["first_mover"], abs=0.05)


@pytest.mark.parametrize("variant", ["standard", "minigam"])
def test_traces_are_the_gradients_of_whites_values(variant: str) -> None:
    net = Net.create(variant, hidden=6, seed=2)
    net.w2 *= 30
    tr = Trainer(net, lam=0.0, seed=0)
    pos = Position.start(variant).with_turn("black")
    tr._learn_state(position_state(pos))  # lambda 0, no previous state: the traces are the gradients
    x = encode(net.variant, [pos.board()], [0])[0]
    nz = np.nonzero(x)[0]
    eps = 1e-6
    for j in range(len(net.outputs)):
        for a, b in ((1, nz[0]), (4, nz[-1])):
            hi, lo = net.copy(), net.copy()
            hi.w1[a, b] += eps
            lo.w1[a, b] -= eps
            num = (flip(hi.evaluate_position(pos))[j] - flip(lo.evaluate_position(pos))[j]) / (2 * eps)
            assert tr._ew1[j, a, b] == pytest.approx(num, rel=1e-5, abs=1e-9)
        for r in range(len(net.outputs)):
            hi, lo = net.copy(), net.copy()
            hi.w2[r, 2] += eps
            lo.w2[r, 2] -= eps
            num = (flip(hi.evaluate_position(pos))[j] - flip(lo.evaluate_position(pos))[j]) / (2 * eps)
            assert tr._ew2[j, r, 2] == pytest.approx(num, rel=1e-5, abs=1e-9)


def _weights(net: Net) -> list[np.ndarray]:
    return [net.w1, net.b1, net.w2, net.b2]


@pytest.mark.parametrize("variant", ["mexican", "minigam"])
def test_training_is_deterministic_for_a_seed(variant: str) -> None:
    a = small_net(variant, 8, seed=5, hidden2=0)
    b = small_net(variant, 8, seed=5, hidden2=0)
    Trainer(a, seed=5).train(3)
    Trainer(b, seed=5).train(3)
    for x, y in zip(_weights(a), _weights(b), strict=True):
        assert np.array_equal(x, y)
    c = small_net(variant, 8, seed=5, hidden2=0)
    Trainer(c, seed=6).train(3)
    assert not np.array_equal(a.w1, c.w1)


def test_resumed_run_equals_an_uninterrupted_one(tmp_path: object) -> None:
    path = tmp_path / "net.npz"  # type: ignore[operator]
    whole = small_net("mexican", 8, seed=1)
    Trainer(whole, seed=1).train(4)
    part = small_net("mexican", 8, seed=1)
    Trainer(part, seed=1).train(2, path=path)
    again = load_net(path)
    assert again.games == 2
    t = Trainer.resume(again)
    t.train(2)
    assert again.games == whole.games == 4
    for x, y in zip(_weights(whole), _weights(again), strict=True):
        assert np.array_equal(x, y)


def test_mexican_self_play_makes_every_decision_through_the_engine() -> None:
    """A Mexican game of the trainer passes through the choice, rolls again after doubles, and
    names doubles after a Mexican, with the same player acting in each chain."""
    net = small_net("mexican", 8, seed=0)
    t = Trainer(net, seed=0)
    phases: Counter[str] = Counter()
    rerolls = []
    learn = t._learn_state

    def spy(s: object) -> None:
        phases[s.phase] += 1  # type: ignore[attr-defined]
        if s.reroll:  # type: ignore[attr-defined]
            rerolls.append(s)
        learn(s)  # type: ignore[arg-type]

    t._learn_state = spy  # type: ignore[method-assign]
    for _ in range(6):
        end = t.play_game()
        assert end.phase is Phase.OVER and end.winner is not None
    assert phases[Phase.ROLL] > 100
    assert rerolls, "doubles roll again in Mexican"


def test_trainer_refuses_bad_rates() -> None:
    net = Net.create("minigam", hidden=4)
    with pytest.raises(AnalysisError, match="alpha"):
        Trainer(net, alpha=0)
    with pytest.raises(AnalysisError, match="lambda"):
        Trainer(net, lam=1.5)


def test_cli_train_and_resume(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mg.npz"  # type: ignore[operator]
    argv = ["train", "minigam", "--checkers", "2", "--games", "5", "--hidden", "6", "--seed", "2",
            "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert first["games_total"] == 5 and out.is_file()
    assert main(argv) == 2  # the file exists: --resume is needed
    assert "exists" in capsys.readouterr().err
    assert main(argv + ["--resume"]) == 0
    second = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert second["games_total"] == 10
    net = load_net(out)
    assert net.games == 10 and net.hidden == 6
    assert net.variant == find_variant("minigam", checkers=2)
    assert len(net.meta["commands"]) == 2 and "--resume" in net.meta["commands"][1]
    assert [(r["from"], r["to"]) for r in net.meta["history"]] == [(0, 5), (5, 10)]
    # the same 10 games in one run give the same weights
    one = tmp_path / "one.npz"  # type: ignore[operator]
    assert main(["train", "minigam", "--checkers", "2", "--games", "10", "--hidden", "6", "--seed", "2",
                 "--out", str(one), "--no-progress"]) == 0
    assert np.array_equal(load_net(one).w1, net.w1)


def test_cli_train_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "nosuchgame", "--games", "1"]) == 2
    assert "nosuchgame" in capsys.readouterr().err
    assert main(["train", "minigam", "--games", "0"]) == 2
    assert main(["train", "minigam", "--games", "1", "--lambda", "2"]) == 2


def test_cli_train_grows_a_net_to_td24e_on_resume(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mx.npz"  # type: ignore[operator]
    argv = ["train", "mexican", "--games", "2", "--hidden", "5", "--out", str(out), "--no-progress"]
    assert main(argv + ["--encoding", "td24x"]) == 0
    assert load_net(out).encoding == "td24x"
    assert main(argv + ["--resume", "--encoding", "td24e"]) == 0  # the shipped net's inputs
    assert "grew the net" in capsys.readouterr().err
    net = load_net(out)
    assert net.encoding == "td24e" and net.inputs == 230 and net.games == 4
    assert net.meta["grown"][0]["games"] == 2 and "--encoding td24e" in net.meta["commands"][-1]
    assert main(argv + ["--resume", "--encoding", "td24x"]) == 2  # td24x does not extend td24e
    assert "does not extend" in capsys.readouterr().err
    assert main(["train", "minigam", "--games", "1", "--encoding", "td24x", "--out", str(out) + "2"]) == 2
    assert "24 points" in capsys.readouterr().err


def test_cli_resume_widens_the_hidden_layer_and_training_goes_on(tmp_path: object,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "std.npz"  # type: ignore[operator]
    base = ["train", "minigam", "--checkers", "2", "--games", "3", "--out", str(out), "--no-progress"]
    assert main(base + ["--hidden", "4", "--seed", "1", "--average", "2"]) == 0
    before = load_net(out)
    v = before.variant
    ps = sample_positions(v, 20, seed=8)
    boards, offs = [p.board() for p in ps], [p.off[1 if p.turn == "white" else 0] for p in ps]
    grown = before.with_hidden(9, seed=3)
    assert np.allclose(grown.evaluate(boards, offs), before.evaluate(boards, offs), rtol=0, atol=1e-15)
    capsys.readouterr()
    assert main(base + ["--resume", "--hidden", "9", "--seed", "3"]) == 0
    assert "grew the hidden layer from 4 to 9" in capsys.readouterr().err
    net = load_net(out)
    assert net.hidden == 9 and net.games == 6 and net.meta["hidden"] == 9
    assert net.meta["grown"] == [{"hidden_from": 4, "hidden_to": 9, "seed": 3, "games": 3}]
    assert "--hidden 9 --seed 3" in net.meta["commands"][-1]
    # the three games after the growth are the Trainer's on the grown net: they moved the new units
    t = Trainer.resume(grown)
    t.train(3)
    assert np.array_equal(t.net.w1, net.w1) and np.array_equal(t.net.w2, net.w2)
    assert np.any(net.w2[:, 4:] != 0.0)
    assert main(base + ["--resume"]) == 0  # the hidden size is kept
    assert load_net(out).hidden == 9
    assert main(base + ["--resume", "--hidden", "5"]) == 2
    assert "can only grow" in capsys.readouterr().err
    assert load_net(out).hidden == 9


def test_trainer_keeps_a_moving_average_of_the_weights() -> None:
    plain = Trainer(Net.create("minigam", hidden=6, seed=5), seed=5)
    avg = Trainer(Net.create("minigam", hidden=6, seed=5), seed=5, average=4)
    expected = None
    for _ in range(5):
        plain.train(1)
        w = plain.net.w1
        expected = w.copy() if expected is None else expected + (w - expected) / 4
    avg.train(5)
    assert np.array_equal(avg.net.w1, plain.net.w1)  # the average never feeds back into the training
    assert avg.averaged is not None and plain.averaged is None
    assert np.allclose(avg.averaged.w1, expected, rtol=0, atol=1e-12)
    assert not np.allclose(avg.averaged.w1, avg.net.w1)
    assert avg.averaged.meta["average"] == {"games": 4, "since": 0}
    with pytest.raises(AnalysisError, match="average"):
        Trainer(Net.create("minigam", hidden=6), average=-2)
    with pytest.raises(AnalysisError, match="does not match"):
        Trainer(Net.create("minigam", hidden=6), average=3, averaged=Net.create("minigam", hidden=7))


def test_cli_average_is_written_and_resumed_exactly(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab.analysis.train import average_path

    base = ["train", "minigam", "--checkers", "2", "--hidden", "6", "--seed", "4", "--no-progress"]
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"  # type: ignore[operator]
    assert main(base + ["--games", "8", "--average", "5", "--out", str(one)]) == 0
    assert main(base + ["--games", "3", "--average", "5", "--out", str(two)]) == 0
    assert main(base + ["--games", "5", "--resume", "--out", str(two)]) == 0  # the checkpoint's averaging goes on
    assert average_path(one).name == "one.avg.npz" and average_path(one).is_file()
    a, b = load_net(average_path(one)), load_net(average_path(two))
    assert a.games == b.games == 8 and a.meta["average"] == {"games": 5, "since": 0}
    assert np.array_equal(a.w1, b.w1) and np.array_equal(load_net(one).w1, load_net(two).w1)
    assert not np.array_equal(a.w1, load_net(one).w1)
    assert main(base + ["--games", "1", "--average", "-1", "--out", str(tmp_path / "x.npz")]) == 2  # type: ignore[operator]
    assert "-1" in capsys.readouterr().err


def test_cli_resume_switches_a_run_to_td0_and_the_checkpoint_keeps_it(tmp_path: object,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``--resume --lambda 0`` continues a TD(lambda) run by TD(0) (the kernel's trace-free update);
    the checkpoint records lambda 0, so a later ``--resume`` without ``--lambda`` goes on with it,
    and the weights differ from the same games at lambda 0.7."""
    base = ["train", "minigam", "--checkers", "2", "--hidden", "6", "--seed", "2", "--no-progress"]
    td0, td7 = tmp_path / "td0.npz", tmp_path / "td7.npz"  # type: ignore[operator]
    for out in (td0, td7):
        assert main(base + ["--games", "5", "--out", str(out)]) == 0
    assert main(base + ["--games", "5", "--resume", "--lambda", "0", "--out", str(td0)]) == 0
    assert main(base + ["--games", "5", "--resume", "--out", str(td7)]) == 0
    capsys.readouterr()
    a, b = load_net(td0), load_net(td7)
    assert a.games == b.games == 10
    assert a.meta["trainer"]["lambda"] == 0.0 and b.meta["trainer"]["lambda"] == 0.7
    assert not np.array_equal(a.w1, b.w1)
    assert main(base + ["--games", "3", "--resume", "--out", str(td0)]) == 0
    assert load_net(td0).meta["trainer"]["lambda"] == 0.0


def test_cli_exact_races_is_kept_by_the_checkpoint_and_refused_where_there_is_no_database(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``--exact-races`` (issue 19: the bear-off database as training targets) is recorded in the
    checkpoint and its history, kept by a later ``--resume``, turned off by ``--no-exact-races``;
    Mini-Gam, which has no bear-off database, refuses it with a message and no traceback."""
    out = tmp_path / "std.npz"  # type: ignore[operator]
    base = ["train", "standard", "--hidden", "4", "--seed", "3", "--encoding", "td24e", "--no-progress", "--out", str(out)]
    assert main(base + ["--games", "2", "--exact-races"]) == 0
    net = load_net(out)
    assert net.meta["trainer"]["exact_races"] is True and net.meta["history"][-1]["exact_races"] is True
    assert "--exact-races" in net.meta["commands"][-1]
    assert main(base + ["--games", "1", "--resume"]) == 0
    assert load_net(out).meta["trainer"]["exact_races"] is True
    assert main(base + ["--games", "1", "--resume", "--no-exact-races"]) == 0
    assert "exact_races" not in load_net(out).meta["trainer"]
    capsys.readouterr()
    mg = tmp_path / "mg.npz"  # type: ignore[operator]
    code = main(["train", "minigam", "--games", "1", "--exact-races", "--no-progress", "--out", str(mg)])
    err = capsys.readouterr().err
    assert code != 0 and "minigam has no bear-off database" in err and "Traceback" not in err
    assert not mg.exists()
