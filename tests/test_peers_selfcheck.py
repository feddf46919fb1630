"""Fast self-checks of the peer helpers in ``tests/peers.py`` (GNU Backgammon via gnubg-nn, OpenSpiel).

Skipped when either peer is not importable.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

pytest.importorskip("gnubg_nn")
pytest.importorskip("pyspiel")

sys.path.insert(0, str(Path(__file__).resolve().parent))
peers = importlib.import_module("peers")

pytestmark = pytest.mark.peers


def test_start_position_id_via_gnubg_nn() -> None:
    """The standard start is ``4HPwATDgc/ABMA`` and decodes back, either side on roll."""
    for turn in ("white", "black"):
        start = peers.start_position(turn)
        assert peers.gnubg_position_id(start) == "4HPwATDgc/ABMA"
        assert peers.gnubg_pos_from_id("4HPwATDgc/ABMA", turn) == start


def test_position_id_writes_the_player_not_on_roll_first() -> None:
    """An asymmetric position: the ID's first 25 slots are those of the side NOT on roll."""
    points = [0] * 24
    points[5] = 3  # White (on roll): three on its 6-point
    points[23] = -1  # Black: one on its ace (White's 24-point)
    pos = peers.make_position(points, {"white": 0, "black": 0}, {"white": 12, "black": 14}, "white")
    pid = peers.gnubg_position_id(pos)
    assert pid == "AQAAgAMAAAAAAA"
    assert peers.gnubg_pos_from_id(pid, "white") == pos


def test_peers_agree_on_200_random_reachable_positions() -> None:
    samples = peers.random_reachable_positions(200, seed=12345)
    assert len(samples) == 200
    assert any(p["bar"][p["turn"]] > 0 for p, _ in samples)
    assert any(d[0] == d[1] for _, d in samples)
    assert any(peers.mover_all_home(p) for p, _ in samples)
    assert peers.compare_peers(samples) == []


def test_no_legal_play_gives_the_unchanged_position() -> None:
    """White on the bar against a closed board: both peers return just the position itself."""
    points = [0] * 24
    for i in range(18, 24):  # Black holds White's points 19..24 (its home board)
        points[i] = -2
    points[17] = -3
    points[5] = 14
    pos = peers.make_position(points, {"white": 1, "black": 0}, {"white": 0, "black": 0}, "white")
    expected = {peers.encode(pos)}
    assert peers.gnubg_plays(pos, (6, 5)) == expected
    assert peers.openspiel_plays(pos, (6, 5)) == expected
    assert peers.openspiel_plays(pos, (4, 4)) == expected


def test_opening_roll_counts() -> None:
    """Distinct plays from the start, either side to move: 3-1 gives 16 and 6-6 gives 11 in both peers."""
    for turn in ("white", "black"):
        start = peers.start_position(turn)
        for dice, count in (((3, 1), 16), ((6, 6), 11)):
            plays = peers.gnubg_plays(start, dice)
            assert len(plays) == count
            assert plays == peers.openspiel_plays(start, dice)
