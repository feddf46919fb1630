"""Perft-style legal-play counts at fixed positions, from ``tests/data/perft.json``.

A count is the number of distinct positions reachable by playing one roll completely (what
``legal_plays`` returns; a roll with no legal move counts 1, the unchanged position).

Where the numbers come from:

* ``kind: "hand"`` cases (21 of them) were verified by reasoning, not by the engine; the ``why``
  field of each gives the argument. Among them: standard 6-1 with the larger-die rule, 6-1 with
  both dice forced, a closed board, bear-off with a larger die from the highest point, bar entry
  with either die, the standard start's 6-6 (11) and 6-5 (7), the Mexican start's 2-1 (12, lower
  die first and the five-checker cap) and 6-6 (11), Mexican lower-die-lost, exact bear-off and
  "move inside" cases, and Mini-Gam's start 3-1 (2), 2-1 (2), 6-5 (1), 1-1 (5), enter-and-bear-off
  and the larger-die rule.
* the other cases (start positions for all 21 rolls, and random reachable midgame / bar / bear-off
  positions of each variant) were computed by our engine; the standard ones agreed with GNU
  Backgammon (gnubg-nn) on every roll when the file was made, and :func:`test_perft_standard_gnubg`
  re-checks that when gnubg-nn is installed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from backgammon_lab import Position, legal_plays
from backgammon_lab.game import ALL_ROLLS

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))
CASES = DATA["cases"]
ROLLS = {f"{r.first}-{r.second}" for r, _ in ALL_ROLLS}


def _dice(roll: str) -> tuple[int, int]:
    a, b = roll.split("-")
    return int(a), int(b)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['variant']}-{c['kind']}-{i}" for i, c in enumerate(CASES)])
def test_perft_counts(case):
    pos = Position.from_string(case["position"])
    assert pos.variant.name == case["variant"]
    got = {roll: len(legal_plays(pos, _dice(roll))) for roll in case["counts"]}
    assert got == case["counts"]


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "hand"],
                         ids=[c["position"] + " " + next(iter(c["counts"])) for c in CASES if c["kind"] == "hand"])
def test_perft_hand_verified_plays_are_distinct_positions(case):
    pos = Position.from_string(case["position"])
    (roll,) = case["counts"]
    plays = legal_plays(pos, _dice(roll))
    results = [p.position for p in plays]
    assert len(set(results)) == len(results) == case["counts"][roll]
    assert all(r.turn == pos.turn for r in results)


def test_perft_data_covers_every_variant():
    kinds = Counter((c["variant"], c["kind"]) for c in CASES)
    for v in ("standard", "mexican", "minigam"):
        starts = [c for c in CASES if c["variant"] == v and c["kind"] == "start"]
        assert len(starts) == 1 and set(starts[0]["counts"]) == ROLLS
        assert starts[0]["position"] == Position.start(v).to_string()
        assert kinds[(v, "bar")] >= 3 and kinds[(v, "bearoff")] >= 3 and kinds[(v, "hand")] >= 3
    assert kinds[("standard", "midgame")] >= 3 and kinds[("mexican", "midgame")] >= 3
    assert sum(n for (_, k), n in kinds.items() if k == "hand") >= 10


@pytest.mark.peers
def test_perft_standard_gnubg():
    pytest.importorskip("gnubg_nn")
    from peers import gnubg_plays

    for case in CASES:
        if case["variant"] != "standard":
            continue
        pos = Position.from_string(case["position"]).to_json()
        for roll, n in case["counts"].items():
            assert len(gnubg_plays(pos, _dice(roll))) == n, (case["position"], roll)
