"""Every standard puzzle's answer against GNU Backgammon 2-ply (issue 20).

The strategy course's standard puzzles are proved by our net (0, 1 and 2 ply agree, a margin of
0.05 in winning chance, a rollout well beyond its error: ``scripts/make_puzzles.py``). A peer
checks the claim: for each puzzle, every legal play of its roll is judged by gnubg (the PyPI
``gnubg`` package) at 2 ply, cubeless, from the position the play reaches with the other side on
roll; gnubg's best play must be the puzzle's answer. The evaluator is the one
``benchmarks/strength.py judge`` uses.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from backgammon_lab.analysis.nets import play_board
from backgammon_lab.analysis.strategy import find_play, load_puzzles
from backgammon_lab.position import WHITE, Position, Roll
from backgammon_lab.rules import legal_boards

pytest.importorskip("gnubg")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from strength import Gnubg  # noqa: E402

pytestmark = pytest.mark.peers

STANDARD = [p for p in load_puzzles() if p.variant == "standard" and p.kind == "play"]


@pytest.fixture(scope="module")
def judge() -> Gnubg:
    return Gnubg(plies=2)


def gnubg_choice(judge: Gnubg, pos: Position, roll: Roll) -> tuple[tuple[int, ...], float, float]:
    """gnubg 2-ply's best board among the legal plays, its equity and the runner-up's."""
    opp_off = pos.off[1 if pos.turn == WHITE else 0]
    values = sorted(((judge.after_play(b, opp_off), b) for b in legal_boards(pos, roll.dice)), reverse=True)
    return values[0][1], values[0][0], values[1][0]


def test_there_are_standard_puzzles_to_check() -> None:
    assert len(STANDARD) >= 30


@pytest.mark.parametrize("p", STANDARD, ids=lambda p: p.id)
def test_gnubg_2ply_best_play_is_the_puzzles_answer(judge: Gnubg, p) -> None:
    pos, roll = Position.from_string(p.position), Roll.parse(p.dice)
    best, eq_best, eq_second = gnubg_choice(judge, pos, roll)
    answer = play_board(find_play(pos, roll, p.answer))
    assert best == answer, (p.id, p.answer, eq_best, eq_second)
