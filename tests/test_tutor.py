"""The tutor (backgammon_lab.analysis.tutor.judge): a decision judged as it is made, in plain words."""

from __future__ import annotations

import re

import pytest
from nethelpers import small_net

from backgammon_lab import Position
from backgammon_lab.analysis.hints import Options, doubles_hint, hint, opening_hint
from backgammon_lab.analysis.solve import solve
from backgammon_lab.analysis.tutor import judge
from backgammon_lab.engine import KEEP, NameDoubles, dice_state
from backgammon_lab.errors import AnalysisError
from backgammon_lab.game import Game

MINI = "minigam;checkers=2/w/bar,5/4,off"


@pytest.fixture(scope="module")
def table2():
    return solve(2, progress=False)


def test_exact_verdicts_in_minigam(table2) -> None:
    g = Game("minigam", position=Position.from_string(MINI), dice=(4, 2))
    h = hint(g.position, (4, 2), Options(evaluator=table2))
    for rp in h.plays:
        v = judge(g, rp.text, Options(evaluator=table2))
        assert v.method == "exact" and v.kind == "play" and v.best_text == h.best.text
        assert v.win_loss == pytest.approx(h.best.win - rp.win) and v.loss == pytest.approx(2 * v.win_loss)
        assert v.arrows == h.best.play.steps and v.best_play == h.best.play
        if rp is h.best:
            assert v.is_best and v.sentence == f"{rp.text} is the best play." and v.mark == ""
        else:
            assert not v.is_best
            assert v.sentence == f"{rp.text} loses {v.win_loss * 100:.1f}% against the best play {h.best.text}."
    worst = judge(g, h.plays[-1].play, Options(evaluator=table2))
    assert worst.mark == "very bad" and worst.to_json()["arrows"]
    assert str(worst) == worst.sentence
    # a play given as its steps, and a game state instead of a Game
    assert judge(g.state, list(h.best.play.steps), Options(evaluator=table2)).is_best


def test_net_verdicts_with_gammons() -> None:
    net = small_net("standard", 8, seed=9)
    pos = Position.from_string("standard/w/24,22,13x4,8x3,6x4,5,4/24x2,13x4,8x2,7,6x4,5x2")
    st = dice_state(pos, (6, 4))
    h = hint(pos, (6, 4), Options(evaluator=net))
    v = judge(st, h.plays[-1].text, Options(evaluator=net))
    assert v.method == "net" and v.gammons and v.loss == pytest.approx(h.plays[-1].loss)
    assert re.fullmatch(r".+ loses .+ against the best play .+\.", v.sentence), v.sentence
    assert not re.search(r"equity|ply|EMG|cubeless", v.sentence)  # plain words
    assert judge(st, h.best.text, Options(evaluator=net)).is_best
    assert h.ply == 2  # the default search: 2 rolls ahead, the same for the tutor and the hint
    quick = judge(st, h.plays[-1].text, Options(ply=0, evaluator=net))
    assert quick.loss == pytest.approx(hint(pos, (6, 4), Options(ply=0, evaluator=net)).loss(h.plays[-1].text))


def test_mexican_choice_and_naming() -> None:
    net = small_net("mexican", 8, seed=2)
    g = Game("mexican", seed=1)
    g.roll((6, 2))
    o = opening_hint(g, options=Options(evaluator=net))
    assert o.ply == 1  # Mexican's default look-ahead (2-ply opening choices take seconds)
    for opt in ("keep", "reroll"):
        v = judge(g, opt, Options(evaluator=net))
        assert v.kind == "choice" and v.loss == pytest.approx(o.loss(opt))
        if v.is_best:
            assert v.sentence.endswith("is the best choice.")
        else:
            assert "against the best choice," in v.sentence
    assert judge(g, KEEP, Options(evaluator=net)).loss == judge(g, "keep", Options(evaluator=net)).loss
    g.choose("reroll")
    g.roll((2, 1))
    g.play(g.legal_actions()[0])
    d = doubles_hint(g, Options(evaluator=net))
    v = judge(g, NameDoubles(d.options[-1].option), Options(evaluator=net))
    assert v.kind == "name" and v.text == f"{d.options[-1].option}-{d.options[-1].option}"
    assert v.loss == pytest.approx(d.options[-1].loss) and v.sentence.startswith("Naming ")
    assert judge(g, d.best.option, Options(evaluator=net)).is_best


def test_refusals_change_nothing(table2) -> None:
    g = Game("minigam", position=Position.from_string(MINI), dice=(4, 2))
    before = g.record()
    with pytest.raises(AnalysisError, match="'bar/1'"):
        judge(g, "bar/1", Options(evaluator=table2))
    assert g.record() == before
    g2 = Game("standard")
    with pytest.raises(AnalysisError, match="no decision to judge now"):
        judge(g2, "24/18")
    with pytest.raises(AnalysisError, match="Game or a TurnState"):
        judge("standard", "24/18")  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="options: expected an Options"):
        judge(g, "bar/1", 0)  # type: ignore[arg-type]
    assert g.record() == before
