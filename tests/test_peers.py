"""The standard variant against GNU Backgammon's move generator (gnubg-nn) and OpenSpiel.

Issue 2: "The standard variant against a peer from PyPI on at least 2,000 random reachable
positions, bar, doubles and bear-off positions among them: zero differences."
"""

from __future__ import annotations

import json
import random

import pytest

from backgammon_lab import Position
from backgammon_lab.cli import plays_json
from backgammon_lab.game import Game

peers = pytest.importorskip("peers")
pytest.importorskip("gnubg_nn")
pytest.importorskip("pyspiel")

pytestmark = pytest.mark.peers

N_POSITIONS = 2500


def _ours(pos: dict, dice: tuple[int, int]) -> set[str]:
    return {json.dumps(p, sort_keys=True) for p in plays_json(Position.from_json(pos), dice)}


@pytest.fixture(scope="module")
def samples() -> list:
    return peers.random_reachable_positions(N_POSITIONS, seed=20261129)


def test_sample_covers_bar_doubles_and_bear_off(samples: list) -> None:
    assert len(samples) >= 2000
    bar = sum(1 for p, _ in samples if p["bar"][p["turn"]] > 0)
    doubles = sum(1 for _, d in samples if d[0] == d[1])
    home = sum(1 for p, _ in samples if peers.mover_all_home(p))
    assert bar >= 200 and doubles >= 200 and home >= 200, (bar, doubles, home)


def test_standard_plays_equal_gnubg_on_random_reachable_positions(samples: list) -> None:
    diffs = []
    for pos, dice in samples:
        ours, theirs = _ours(pos, dice), peers.gnubg_plays(pos, dice)
        if ours != theirs:
            diffs.append((Position.from_json(pos).to_string(), dice, len(ours), len(theirs)))
    assert diffs == [], f"{len(diffs)} differences, first: {diffs[:3]}"


def test_standard_plays_equal_gnubg_for_every_roll_along_our_own_games() -> None:
    """Positions reached by our own engine (not OpenSpiel's), all 21 rolls each."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        g = Game("standard", seed=seed)
        while not g.is_over and checked < 3000:
            if g.phase == "play" and rng.random() < 0.3:
                pos = g.position.to_json()
                for a in range(1, 7):
                    for b in range(1, a + 1):
                        assert _ours(pos, (a, b)) == peers.gnubg_plays(pos, (a, b)), (g.position, (a, b))
                        checked += 1
            if g.is_chance():
                g.roll()
            else:
                acts = g.legal_actions()
                g.apply(acts[rng.randrange(len(acts))])
    assert checked > 1000


def test_standard_plays_equal_openspiel(samples: list) -> None:
    """The second peer, on a part of the same sample (OpenSpiel's search is slower)."""
    diffs = [(pos, dice) for pos, dice in samples[:600] if _ours(pos, dice) != peers.openspiel_plays(pos, dice)]
    assert diffs == []


def test_position_ids_equal_gnubg(samples: list) -> None:
    for pos, _ in samples[:1000]:
        p = Position.from_json(pos)
        pid = peers.gnubg_position_id(pos)
        assert p.position_id() == pid
        assert Position.from_position_id(pid, "standard", p.turn) == p
