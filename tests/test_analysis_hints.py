"""Hints, tables and the analysis CLI (backgammon_lab.analysis.hints, .table, .cli)."""

from __future__ import annotations

import io
import json

import pytest

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis.hints import doubles_hint, hint, opening_hint
from backgammon_lab.analysis.solve import solve
from backgammon_lab.analysis.table import Table
from backgammon_lab.cli import main
from backgammon_lab.game import Game
from backgammon_lab.rules import legal_plays


@pytest.fixture(scope="module")
def table3():
    return solve(3, progress=False)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from backgammon_lab.analysis import solve as s

    monkeypatch.setattr(s, "_TABLE_CACHE", {})
    return tmp_path / "cache" / "backgammon_lab"


POS3 = "minigam;checkers=3/w/bar,3,off/5x2,off"


def test_exact_hint_ranks_by_table(table3) -> None:
    pos = Position.from_string(POS3)
    h = hint(pos, (4, 1), table=table3)
    assert h.method == "exact"
    wins = [rp.win for rp in h.plays]
    assert wins == sorted(wins, reverse=True)
    assert len(h.plays) == len(legal_plays(pos, (4, 1)))
    for rp in h.plays:
        assert rp.win == pytest.approx(table3.value_after(rp.play.position), abs=0)
        assert h.error(rp.play) == pytest.approx(h.best.win - rp.win)
    assert h.error(h.best.play) == 0.0
    assert h.arrows() == h.best.play.steps
    assert h.best.win == pytest.approx(table3.roll_value(pos, (4, 1)))
    assert h.error(str(h.plays[-1].play)) == h.plays[-1].error
    text = str(h)
    assert text == str(hint(pos, (4, 1), table=table3)) and "exact" in text
    js = h.to_json()
    assert js["method"] == "exact" and js["plays"][0]["steps"]


def test_rollout_hint_with_candidates() -> None:
    pos = Position.start("standard")
    h = hint(pos, (3, 1), games=12, seed=1, candidates=3)
    assert h.method == "rollout" and len(h.plays) == 16
    rated = [rp for rp in h.plays if rp.win is not None]
    assert len(rated) == 3 and all(rp.stderr is not None for rp in rated)
    assert h.plays[-1].win is None
    with pytest.raises(ValueError, match="not evaluated"):
        h.error(h.plays[-1].play)
    with pytest.raises(ValueError, match="not a legal play"):
        h.error(Position.start("standard"))
    again = hint(pos, (3, 1), games=12, seed=1, candidates=3)
    assert again.to_json() == h.to_json()


def test_mexican_decisions() -> None:
    g = Game("mexican", seed=2)
    g.roll((5, 3))
    assert g.phase == "choice"
    o = opening_hint(g, games=16, seed=1, candidates=1)
    assert {d.option for d in o.options} == {"keep", "reroll"}
    assert o.best.error == 0.0 and o.error("reroll") >= 0.0
    assert "Keep the opening dice" in str(o)
    g.choose("reroll")
    g.roll((2, 1))
    g.play(g.legal_actions()[0])
    assert g.phase == "name"
    d = doubles_hint(g, games=8, seed=1, candidates=1)
    assert sorted(x.option for x in d.options) == [1, 2, 3, 4, 5, 6]
    assert [x.rank for x in d.options] == [1, 2, 3, 4, 5, 6]
    wins = [x.win for x in d.options]
    assert wins == sorted(wins, reverse=True)
    assert "Which doubles to name" in str(d) and "<table" in d._repr_html_()
    with pytest.raises(ValueError, match="Mexican"):
        doubles_hint(Position.start("standard"))


def test_table_text_and_html() -> None:
    t = Table(["a", "b"], [[1, 0.5], ["<x>", None]], title="T", notes="n", align=["left", "right"])
    assert str(t) == "T\na         b\n---  ------\n1    0.5000\n<x>       -\nn"
    assert "&lt;x&gt;" in t._repr_html_() and t._repr_html_() == t._repr_html_()
    assert t.to_dicts()[0] == {"a": 1, "b": 0.5}
    with pytest.raises(ValueError):
        Table(["a"], [[1, 2]])


def test_cli_value_exact_and_batch(cache, table3, capsys, monkeypatch) -> None:
    path = table3.save(cache / "minigam-3.npz")
    assert main(["value", POS3, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    pos = Position.from_string(POS3)
    assert out == {"player": "white", "win": table3.value(pos), "method": "exact"}
    assert main(["value", POS3]) == 0
    assert "exact" in capsys.readouterr().out
    with_options = {**pos.to_json(), "options": {"checkers": 3}}
    lines = [json.dumps(with_options), json.dumps({"position": pos.swapped().to_string()}), "",
             json.dumps(pos.to_string())]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines)))
    assert main(["value", "--batch", "--table", str(path)]) == 0
    got = [json.loads(x) if x else None for x in capsys.readouterr().out.splitlines()]
    assert got == [{"win": table3.value(pos)}, {"win": table3.value(pos.swapped())}, None,  # blank for blank
                   {"win": table3.value(pos)}]
    monkeypatch.setattr("sys.stdin", io.StringIO("[1, 2]\n"))
    assert main(["value", "--batch"]) == 2
    assert "--batch line 1" in capsys.readouterr().err


def test_cli_value_rollout_and_hint(cache, capsys) -> None:
    assert main(["value", "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "--games", "6", "--json",
                 "--bot", "random"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "rollout" and out["games"] == 6 and 0 <= out["win"] <= 1 and "stderr" in out
    assert main(["hint", "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "--dice", "6-5", "--games", "4",
                 "--candidates", "2", "--json"]) == 0
    h = json.loads(capsys.readouterr().out)
    assert h["method"] == "rollout" and len(h["plays"]) >= 2 and h["plays"][0]["win"] is not None
    # small Mini-Gam boards are solved on the spot and cached
    assert main(["hint", "minigam;checkers=2/w/bar,2/3,off", "--dice", "3-1", "--top", "1"]) == 0
    assert "exact" in capsys.readouterr().out
    assert (cache / "minigam-2.npz").is_file()
    assert main(["hint", "minigam;checkers=2/w/bar,2/3,off", "--dice", "3"]) == 2


def test_cli_solve(tmp_path, capsys) -> None:
    out = tmp_path / "t.npz"
    assert main(["solve", "minigam", "--checkers", "2", "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "927 states" in text and str(out) in text and out.is_file()
    assert main(["solve", "minigam", "--checkers", "9", "--out", str(out), "--quiet"]) == 2
    v = find_variant("minigam", checkers=2)
    assert v.checkers == 2
