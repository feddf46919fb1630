"""Game analysis (backgammon_lab.analysis.analyse) and ``backgammon-lab analyse``: decisions, marks,
error rates, luck, the chart, executors. Nets are made on the fly; Mini-Gam uses a solved table."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from nethelpers import small_net

from backgammon_lab import find_variant
from backgammon_lab.analysis import nets
from backgammon_lab.analysis.analyse import THRESHOLDS, analyse, mark
from backgammon_lab.analysis.bots import HeuristicBot, PerfectMiniGamBot, RandomBot
from backgammon_lab.analysis.hints import Evaluator, Options, hint
from backgammon_lab.analysis.nets import Net
from backgammon_lab.analysis.solve import solve
from backgammon_lab.cli import main
from backgammon_lab.engine import ALL_ROLLS, Phase
from backgammon_lab.errors import AnalysisError
from backgammon_lab.game import Game
from backgammon_lab.svg import win_chart

RECORD = Path(__file__).parent / "data" / "mexican_game.json"


@pytest.fixture(scope="module")
def mex_net() -> Net:
    return small_net("mexican", 8, seed=1)


@pytest.fixture(scope="module")
def mexican(mex_net):
    return analyse(RECORD.read_text(encoding="utf-8"), Options(ply=0, evaluator=mex_net))


@pytest.fixture(scope="module")
def table3():
    return solve(3, progress=False)


def test_gnubg_thresholds() -> None:
    assert THRESHOLDS == ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))
    assert [mark(x) for x in (0.0, 0.0399, 0.04, 0.079, 0.08, 0.159, 0.16, 1.0)] == \
        ["", "", "doubtful", "doubtful", "bad", "bad", "very bad", "very bad"]


def test_a_stored_mexican_record(mexican, mex_net) -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    game = Game.from_record(record)
    a = mexican
    assert a.variant == "mexican" and a.method == "net" and a.result == record["result"]
    assert {d.kind for d in a.decisions} == {"play", "choice", "name"}
    n_plays = sum(1 for x in record["actions"] if "play" in x)
    assert sum(1 for d in a.decisions if d.kind == "play") == n_plays
    for d in a.decisions:
        assert d.loss >= 0 and (d.mark == mark(d.loss) or d.forced)
        assert game.entries[d.number - 1].state.player == d.player
        if d.kind == "play":
            st = game.entries[d.number - 1].state
            h = hint(st.position, st.roll, Options(ply=0, evaluator=mex_net), named=st.named)
            assert d.best == h.best.text and d.loss == pytest.approx(h.loss(d.choice))
            assert d.forced == (len(h.plays) == 1)
    for p, s in a.players.items():
        mine = [d for d in a.decisions if d.player == p]
        unforced = [d for d in mine if not d.forced]
        assert s.decisions == len(mine) and s.unforced == len(unforced)
        assert s.error_rate == pytest.approx(1000 * sum(d.loss for d in unforced) / len(unforced))
        assert s.luck == pytest.approx(sum(r.luck for r in a.rolls if r.player == p))
    assert all(r.luck == pytest.approx(r.after - r.before) for r in a.rolls)
    rolls = sum(1 for x in record["actions"] if "roll" in x) + 1  # the opening (no tie here)
    assert len(a.rolls) == rolls
    # the same record as a dict, spread over an executor: the same analysis
    with ThreadPoolExecutor(2) as pool:
        assert analyse(record, Options(ply=0, evaluator=mex_net, executor=pool), chunk=7).to_json() == a.to_json()


def test_luck_averages_to_zero_over_the_21_rolls(mex_net) -> None:
    from backgammon_lab.analysis.analyse import _luck_evaluator

    game = Game.from_record(RECORD.read_text(encoding="utf-8"))
    ev = _luck_evaluator(Evaluator(net=mex_net))
    st = next(s for s in game.states[5:] if s.phase is Phase.ROLL)
    before = ev.state_value(st, 1)
    afters = [ev.dice_value(st.position, r, 0) for r, _ in ALL_ROLLS]
    mean = sum(p * a for (_, p), a in zip(ALL_ROLLS, afters, strict=True))
    assert np.allclose(mean, before)


def test_tables_json_and_chart(mexican) -> None:
    a = mexican
    text = str(a)
    assert "error rate" in text and "mexican game analysed (net, 0-ply)" in text
    assert len(a.table()) == len(a.decisions) and len(a.table(all_decisions=False)) == sum(1 for d in a.decisions
                                                                                            if d.mark)
    js = json.loads(json.dumps(a.to_json()))
    assert js["players"]["white"]["error_rate"] == a.players["white"].error_rate
    assert js["thresholds"] == {"very bad": 0.16, "bad": 0.08, "doubtful": 0.04}
    svg = a.svg()
    assert svg.startswith("<svg") and svg.count("<polyline") == 1 and "White's winning chance" in svg
    assert svg == a.svg() and a._repr_svg_() == svg  # deterministic text
    assert a.chart[0] == (1, 0.5) and a.chart[-1][1] in (0.0, 1.0)
    assert all(0 <= y <= 1 for _, y in a.chart)
    assert svg.count("data-number=") == sum(1 for d in a.decisions if d.mark)
    assert win_chart([(1, 0.5), (5, 0.7)], marks=[(3, "bad")]) == win_chart([(1, 0.5), (5, 0.7)], marks=[(3, "bad")])
    assert 'fill="#c62828"' in win_chart([(1, 0.5), (5, 0.7)], marks=[(3, "bad")])


def test_exact_minigam_marks_a_random_players_mistakes(table3) -> None:
    """Perfect Black loses nothing; random White is caught; luck is exact (table) and sums over rolls."""
    v = find_variant("minigam", checkers=3)
    marks = unforced = 0
    for seed in range(11, 21):
        bots = {"white": RandomBot(seed), "black": PerfectMiniGamBot(table3)}
        g = Game(v, seed=seed)
        while not g.is_over:
            if g.is_chance():
                g.roll()
                continue
            g.apply(bots[g.current_player].choose(g))
        a = analyse(g, Options(evaluator=table3))
        assert a.method == "exact" and a.ply == 0
        black = [d for d in a.decisions if d.player == "black"]
        assert all(d.loss == pytest.approx(0, abs=1e-12) for d in black) and a.players["black"].error_rate == 0
        white = a.players["white"]
        unforced += white.unforced
        marks += white.doubtful + white.bad + white.very_bad
        for r in a.rolls[1:]:
            st = g.states[r.number - 1]
            assert r.before == pytest.approx(2 * table3.value(st.position) - 1)
    assert unforced > 5 and marks > 0


def test_standard_game_with_a_net_and_forced_plays() -> None:
    net = small_net("standard", 8, seed=5)
    g = Game("standard", seed=4)
    bot = HeuristicBot()
    for _ in range(24):
        if g.is_over:
            break
        if g.is_chance():
            g.roll()
        else:
            g.apply(bot.choose(g))
    a = analyse(g.to_json(), Options(ply=1, evaluator=net))
    assert a.ply == 1 and a.gammons and a.result is None
    deep = analyse(g.to_json(), Options(evaluator=net))  # the default: 2-ply
    assert deep.ply == 2 and "net, 2-ply" in str(deep) and len(deep.decisions) == len(a.decisions)
    with ThreadPoolExecutor(2) as pool:  # spread, the same numbers
        assert analyse(g.to_json(), Options(ply=1, evaluator=net, executor=pool), chunk=5).to_json() == a.to_json()
    assert all(d.kind == "play" for d in a.decisions)
    forced = [d for d in a.decisions if d.forced]
    assert all(d.mark == "" for d in forced)
    assert sum(s.unforced for s in a.players.values()) == len(a.decisions) - len(forced)


def test_bad_input_is_refused_quoting_it() -> None:
    with pytest.raises(AnalysisError, match="'nonsense'"):
        analyse("nonsense")
    with pytest.raises(AnalysisError, match="42"):
        analyse(42)  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="24/1"):
        analyse({"variant": "standard", "actions": [{"opening": [3, 1]}, {"play": "24/1"}]})
    with pytest.raises(AnalysisError, match="ply: 5 is too large"):
        analyse(RECORD.read_text(encoding="utf-8"), Options(ply=5))
    with pytest.raises(AnalysisError, match="does not roll out.*not 10"):
        analyse(RECORD.read_text(encoding="utf-8"), Options(games=10))
    with pytest.raises(AnalysisError, match="options: expected an Options"):
        analyse(RECORD.read_text(encoding="utf-8"), 1)  # type: ignore[arg-type]


def test_cli_analyse(tmp_path, capsys, monkeypatch, mex_net) -> None:
    monkeypatch.setattr(nets, "shipped_net", lambda v: mex_net if find_variant(v) == mex_net.variant else None)
    assert main(["analyse", str(RECORD), "--json", "--ply", "0"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["variant"] == "mexican" and len(js["decisions"]) > 20 and js["ply"] == 0
    out_svg = tmp_path / "chart.svg"
    assert main(["analyse", str(RECORD), "--all", "--svg", str(out_svg)]) == 0
    text = capsys.readouterr().out
    assert "error rate" in text and "Decisions" in text and out_svg.read_text().startswith("<svg")
    assert "net, 1-ply" in text  # Mexican's default look-ahead
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2  # bad input, as for `show` (issue 21)
    assert "missing.json" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text('{"variant": "mexican", "actions": [{"roll": [9, 9]}]}')
    assert main(["analyse", str(tmp_path / "bad.json")]) == 2
    assert "error:" in capsys.readouterr().err
