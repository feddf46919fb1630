"""A weak player's mistakes (lessons.mistakes) against GNU Backgammon 2-ply (issue 61).

Standard games of a weak bot (RandomBot, HeuristicBot) against the shipped net's bot, each turned
into mistake puzzles with the analysis' default options; gnubg (PyPI ``gnubg``, cubeless, 2 ply)
values the position each of the two plays reaches, the other side on roll: the better play must
be worth more than the play made on at least 95% of the items. ``benchmarks/mistakes_gnubg.py``
measures the same on more games.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("gnubg")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from mistakes_gnubg import measure  # noqa: E402
from strength import Gnubg  # noqa: E402

pytestmark = [pytest.mark.peers, pytest.mark.slow]


@pytest.fixture(scope="module")
def judge() -> Gnubg:
    return Gnubg(plies=2)


@pytest.mark.parametrize("weak", ["random", "heuristic"])
def test_gnubg_2ply_agrees_the_better_play_is_better(judge: Gnubg, weak: str) -> None:
    rows = measure(4, weak, 101, None, judge)
    assert len(rows) >= 10
    agree = sum(r["agrees"] for r in rows)
    assert agree >= 0.95 * len(rows), [r for r in rows if not r["agrees"]]
