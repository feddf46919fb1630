"""The benchmark's own players (``benchmarks/strength.py``), which need no peer: ``RolloutBot``, the
player of the ceiling measurement (issue 19), plays each checker play the hint's rollouts rank
first, and plays whole games."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from nethelpers import small_net

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis.hints import hint
from backgammon_lab.analysis.nets import play_board
from backgammon_lab.analysis.rollout import sample_positions

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from strength import RolloutBot, _roll_state_play, main, position_class  # noqa: E402


def test_rollout_bot_plays_the_best_play_of_the_rollouts() -> None:
    v = find_variant("mexican")
    net = small_net(v, 6, seed=2)
    bot = RolloutBot(net, games=6, truncate=2)
    chosen = 0
    for pos in sample_positions(v, 6, seed=3):
        state = _roll_state_play(pos, (6, 4))
        if state.plays is None or len(state.plays) < 2:
            continue
        h = hint(pos, (6, 4), bot.rollouts)
        assert h.plays[0].how == "rollout"
        assert play_board(bot.choose_play(state, state.plays)) == play_board(h.plays[0].play)
        chosen += 1
    assert chosen >= 3
    assert repr(bot) == "RolloutBot(<Net mexican td24e 230-6-1 games=0>, 6 games, truncate=2)"
    assert repr(RolloutBot(net, 4, None, luck=True)).endswith("4 games, truncate=None, luck)")


def test_a_match_of_the_rollout_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.npz"
    small_net("mexican", 4, seed=1).save(path)
    assert main(["match", "mexican", "--games", "2", "--rollout", "2", "--truncate", "1", "--net", str(path)]) == 0
    out = capsys.readouterr().out
    assert '"games": 2' in out and "RolloutBot" in out


def test_the_headroom_measure_rolls_out_the_one_ply_bots_own_choices(tmp_path: Path) -> None:
    from mexican_headroom import decisions_from
    from mexican_headroom import main as headroom

    net = small_net("mexican", 4, seed=1)
    kept, games, won = decisions_from(net, 0, 1)
    assert games == 2 and 0 <= won <= 1 and kept
    for state, chosen in kept:  # each kept decision had a choice, and the play chosen is one of them
        assert state.plays is not None and len(state.plays) > 1
        assert chosen in {tuple(play_board(p)) for p in state.plays}
    path = tmp_path / "m.npz"
    net.save(path)
    out = headroom(["--net", str(path), "--pairs", "1", "--limit", "2", "--games", "2", "--truncate", "1"])
    assert out["decisions_measured"] + out["missing"] == 2
    assert out["decisions_a_game"] == round(len(kept) / 2, 2)
    assert out["oracle_gain"]["per_decision"] >= 0  # the best candidate is never worth less than the choice
    assert out["oracle_gain"]["per_decision"] >= out["split_gain"]["per_decision"]
    assert set(out["corrected_gain"]) == {"per_decision", "stderr", "per_game", "per_game_stderr"}



def test_the_headroom_correction_takes_the_winners_curse_off() -> None:
    from mexican_headroom import corrected, estimates

    clear = {"chosen": [0], "a": [[[0], 0.50], [[1], 0.60]], "b": [0.50, 0.60]}  # the sets agree: no noise
    noise = {"chosen": [0], "a": [[[0], 0.50], [[1], 0.52]], "b": [0.50, 0.48]}  # they disagree, mean equal
    assert corrected([clear]).tolist() == pytest.approx([0.1])
    assert corrected([noise])[0] < 0  # the noisy max would show a gain where the means show none
    est = estimates([clear, noise], per_game=10)
    assert est["oracle_gain"]["per_decision"] == pytest.approx(0.05)
    # split: the first set picks play 1 (0.52), the second values it 0.02 under the choice; the second picks the choice
    assert est["split_gain"]["per_decision"] == pytest.approx((0.1 + (-0.02 + 0) / 2) / 2)
    assert est["oracle_gain"]["per_game"] == pytest.approx(0.5)


def test_judge_sorts_positions_into_contact_crashed_and_race() -> None:
    assert position_class(Position.start("standard")) == "contact"
    race = "standard/w/6x5,5x5,4x5/6x5,5x5,4x5"
    assert position_class(Position.from_string(race)) == "race"
    # one checker back, the rest piled on the low points: 15 on the board, 10 of them spares
    crashed = "standard/w/24,3x2,2x4,1x8/13x5,8x3,6x5,5x2"
    assert position_class(Position.from_string(crashed)) == "crashed"
    # the same checkers spread over the home board still play: contact
    spread = "standard/w/24,6x3,5x3,4x3,3x3,2x2/13x5,8x3,6x5,5x2"
    assert position_class(Position.from_string(spread)) == "contact"


def test_the_race_oracle_diagnosis_values_only_rolls_that_reach_a_race(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/diagnose.py race-oracle``: a race is told from the board (no checker of the mover
    at or behind the other side's rearmost), and the match runs with the net's own race values."""
    pytest.importorskip("gnubg")
    from diagnose import is_race
    from diagnose import main as diagnose

    assert not is_race(Position.start("standard").board())
    race = [0] * 27
    race[3], race[24] = 2, -3  # past each other
    assert is_race(race)
    race[26] = 1  # a checker of the other side on the bar must pass the mover's: contact again
    assert not is_race(race)
    path = tmp_path / "s.npz"
    small_net("standard", 4, seed=1).save(path)
    assert diagnose(["race-oracle", "--values", "net", "--games", "2", "--net", str(path)]) == 0
    out = capsys.readouterr().out
    assert '"games": 2' in out and '"race_values": "net"' in out


def test_the_labels_diagnosis_splits_races_into_bearing_off_and_the_others(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/diagnose.py labels``: each evaluator's equity distance from the labels, by
    class, the races split by whether both sides are bearing off (the bear-off database's)."""
    pytest.importorskip("gnubg")
    import json

    import numpy as np
    from diagnose import main as diagnose

    boards = [Position.start("standard").board(),
              Position.from_string("standard/w/6x2,5x3/5x4").board(),  # both bearing off
              Position.from_string("standard/w/9x2,5x3/5x4").board()]  # a race, not yet
    labels = tmp_path / "l.npz"
    targets = np.array([[0.5, 0.1, 0.0, 0.1, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0], [0.9, 0.0, 0.0, 0.0, 0.0]])
    np.savez(labels, boards=np.array(boards, np.int8), offs=np.array([0, 11, 11]), targets=targets)
    assert diagnose(["labels", "--labels", str(labels)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["by_class"] == {"contact": 1, "crashed": 0, "race": 2, "race, bearing off": 1, "race, the others": 1}
    g = out["gnubg 0-ply"]
    assert set(g) == {"all", "contact", "race", "race, bearing off", "race, the others"}
    assert g["all"] == pytest.approx((g["contact"] + g["race, bearing off"] + g["race, the others"]) / 3, abs=2e-4)


def test_the_judges_positions_can_be_drawn_from_one_class() -> None:
    """``judge --only crashed``: every decision drawn is from a crashed position with a choice of
    plays; without ``only`` the draw is the judge's usual one (the same seed, the same decisions)."""
    pytest.importorskip("gnubg")
    from strength import gnubg_positions

    got = gnubg_positions(4, seed=3, only="crashed")
    assert len(got) == 4 and all(position_class(p) == "crashed" for p, _ in got)
    assert gnubg_positions(3, seed=3) == gnubg_positions(3, seed=3, only=None)
    assert not all(position_class(p) == "crashed" for p, _ in gnubg_positions(20, seed=3))
