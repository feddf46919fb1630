"""scripts/rollout_labels.py: the label chunks the standard net's refinement experiments read."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import shipped_net
from backgammon_lab.analysis.rollout import rollout_rows, sample_positions

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "rollout_labels.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("rollout_labels", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_label_chunks_are_luck_free_rollout_rows_and_merge_in_seed_order(tmp_path: Path) -> None:
    """A self-play chunk is rollout_rows(..., luck=True) of the net's self-play positions; a
    candidates chunk labels the positions after each decision's best plays, grouped by decision;
    a stopped run resumes (a chunk there is kept); merge joins the chunks with their seeds."""
    mod = _script()
    assert mod.main(["selfplay", "12", "2", "--size", "2", "--dir", str(tmp_path)]) == 0
    net = shipped_net("standard")
    got = np.load(tmp_path / "standard_selfplay_s13.npz")
    pos = sample_positions("standard", 2, NetBot(net), seed=13, explore=0.1)
    assert (got["boards"] == np.array([p.board() for p in pos])).all()
    assert np.array_equal(got["targets"], rollout_rows(pos, NetBot(net), games=36, truncate=7, seed=13, luck=True))
    before = (tmp_path / "standard_selfplay_s12.npz").stat().st_mtime_ns
    assert mod.main(["selfplay", "12", "1", "--size", "2", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "standard_selfplay_s12.npz").stat().st_mtime_ns == before
    assert mod.main(["candidates", "5", "1", "--size", "2", "--top", "3", "--dir", str(tmp_path)]) == 0
    cand = np.load(tmp_path / "standard_candidates_s5.npz")
    assert len(cand["group"]) == len(cand["targets"]) and set(cand["group"]) <= {0, 1}
    assert max(np.bincount(cand["group"])) <= 3
    out = tmp_path / "merged.npz"
    assert mod.main(["merge", "selfplay", str(out), "--dir", str(tmp_path)]) == 0
    merged = np.load(out)
    assert list(merged["seeds"]) == [12, 12, 13, 13] and np.array_equal(merged["targets"][2:], got["targets"])
    with pytest.raises(SystemExit):
        mod.main(["merge", "candidates", str(out), "--dir", str(tmp_path / "none")])


def test_labels_to_the_end_are_rollouts_without_truncation(tmp_path: Path) -> None:
    """``--to-end``: the same positions, rolled out to the end of the game, in chunks of their own
    name that ``merge --to-end`` joins."""
    mod = _script()
    assert mod.main(["selfplay", "21", "1", "--size", "1", "--to-end", "--dir", str(tmp_path)]) == 0
    net = shipped_net("standard")
    got = np.load(tmp_path / "standard_selfplay_end_s21.npz")
    pos = sample_positions("standard", 1, NetBot(net), seed=21, explore=0.1)
    assert np.array_equal(got["targets"], rollout_rows(pos, NetBot(net), games=36, truncate=None, seed=21, luck=True))
    out = tmp_path / "merged.npz"
    assert mod.main(["merge", "selfplay", str(out), "--to-end", "--dir", str(tmp_path)]) == 0
    assert list(np.load(out)["seeds"]) == [21]


def test_chunks_made_by_an_executor_are_the_chunks_made_here(tmp_path: Path) -> None:
    """With an executor (here a thread pool; a process pool or a Dask client's in use) the chunks
    are made where it runs them and written here, the same files as one process makes; the
    chunks already there are not sent."""
    from concurrent.futures import ThreadPoolExecutor

    mod = _script()
    here, there = tmp_path / "here", tmp_path / "there"
    assert mod.main(["selfplay", "3", "2", "--size", "2", "--dir", str(here)]) == 0
    mod.label("selfplay", 3, 1, 2, 4, str(there))
    before = (there / "standard_selfplay_s3.npz").stat().st_mtime_ns
    with ThreadPoolExecutor(2) as ex:
        mod.label("selfplay", 3, 2, 2, 4, str(there), executor=ex)
    assert (there / "standard_selfplay_s3.npz").stat().st_mtime_ns == before
    for s in (3, 4):
        a, b = np.load(here / f"standard_selfplay_s{s}.npz"), np.load(there / f"standard_selfplay_s{s}.npz")
        assert sorted(a.files) == sorted(b.files) == ["boards", "offs", "targets"]
        assert all(np.array_equal(a[k], b[k]) for k in a.files)


def test_workers_must_be_at_least_one(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        _script().main(["selfplay", "3", "1", "--size", "2", "--workers", "0", "--dir", str(tmp_path)])


def test_race_chunks_hold_races_the_bear_off_database_does_not_value(tmp_path: Path) -> None:
    """A races chunk keeps the self-play positions without contact that still have a checker
    outside a home board, labelled by rollouts to the end like the other chunks."""
    from backgammon_lab.analysis.bearoff import home_configs
    from backgammon_lab.analysis.strategy import contact

    mod = _script()
    net = shipped_net("standard")
    found = mod.races(net, 2, 30)
    assert found and all(not contact(p) and home_configs(p) is None for p in found)
    sampled = sample_positions("standard", 240, NetBot(net), seed=2, explore=0.1)
    assert found == [p for p in sampled if not contact(p) and home_configs(p) is None][:30]
    assert mod.main(["races", "2", "1", "--size", "30", "--to-end", "--dir", str(tmp_path)]) == 0
    got = np.load(tmp_path / "standard_races_end_s2.npz")
    assert [tuple(b) for b in got["boards"]] == [p.board() for p in found]
    assert np.array_equal(got["targets"], rollout_rows(found, NetBot(net), games=36, seed=2, luck=True))


def test_race_candidates_are_the_plays_of_race_decisions_and_fit_takes_several_files(tmp_path: Path) -> None:
    """A race_candidates chunk labels the positions after the best plays of the races of a races
    chunk (none the bear-off database values), grouped by decision; ``fit --race`` reads several
    label files and makes the fitted copy the shipped net's race net."""
    from backgammon_lab.analysis.bearoff import home_configs
    from backgammon_lab.analysis.nets import load_net
    from backgammon_lab.analysis.strategy import contact
    from backgammon_lab.position import WHITE, Position

    mod = _script()
    assert mod.main(["race_candidates", "2", "1", "--size", "8", "--top", "2", "--dir", str(tmp_path)]) == 0
    got = np.load(tmp_path / "standard_race_candidates_s2.npz")
    after = [Position.from_board(shipped_net("standard").variant, WHITE, tuple(int(x) for x in b), int(o))
             for b, o in zip(got["boards"], got["offs"], strict=True)]
    assert after and all(not contact(p) and home_configs(p) is None for p in after)
    assert max(np.bincount(got["group"])) <= 2 and len(set(got["group"])) <= len(mod.races(shipped_net("standard"), 2, 8))
    f = str(tmp_path / "standard_race_candidates_s2.npz")
    out = tmp_path / "r.npz"
    assert mod.main(["fit", str(out), f"{f},{f}", "--race", "--epochs", "1", "--loss", "entropy"]) == 0
    net = load_net(out)
    assert net.race is not None and net.race.meta["race_fit"]["positions"] == 2 * len(after)
    assert np.array_equal(net.w1, shipped_net("standard").w1)


def test_ply_1_chunks_are_rollouts_played_by_the_1_ply_bot(tmp_path: Path) -> None:
    """``--ply 1``: the rollouts are played by the net's 1-ply bot (a stronger player than the one
    whose values the net holds), in chunks of their own name, merged by ``merge --ply 1``."""
    from backgammon_lab.analysis.options import Options

    mod = _script()
    assert mod.main(["selfplay", "4", "1", "--size", "1", "--ply", "1", "--dir", str(tmp_path)]) == 0
    got = np.load(tmp_path / "standard_selfplay_ply1_s4.npz")
    net = shipped_net("standard")
    pos = sample_positions("standard", 1, NetBot(net), seed=4, explore=0.1)
    want = rollout_rows(pos, NetBot(net, Options(ply=1)), games=36, truncate=7, seed=4, luck=True)
    assert np.array_equal(got["targets"], want)
    assert not np.array_equal(want, rollout_rows(pos, NetBot(net), games=36, truncate=7, seed=4, luck=True))
    out = tmp_path / "m.npz"
    assert mod.main(["merge", "selfplay", str(out), "--ply", "1", "--dir", str(tmp_path)]) == 0
    assert np.array_equal(np.load(out)["targets"], want)
