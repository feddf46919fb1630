"""Hints from the nets and the solved table, Mexican decisions, tables and the analysis CLI
(backgammon_lab.analysis.hints, .table, .cli). Nets are made on the fly (small, seeded), so the
tests do not depend on the shipped weights."""

from __future__ import annotations

import io
import json
import math
from dataclasses import replace

import numpy as np
import pytest
from nethelpers import small_net
from search_reference import best as ref_best
from search_reference import dice_value as ref_dice
from search_reference import opp_off
from search_reference import roll_value as ref_roll

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis import nets
from backgammon_lab.analysis.bots import RandomBot
from backgammon_lab.analysis.hints import FILTERS, Evaluator, Options, doubles_hint, hint, opening_hint
from backgammon_lab.analysis.nets import Net, play_board
from backgammon_lab.analysis.rollout import sample_positions
from backgammon_lab.analysis.solve import solve
from backgammon_lab.analysis.table import Table
from backgammon_lab.cli import main
from backgammon_lab.engine import ALL_ROLLS, MakePlay, Phase, advance, dice_state
from backgammon_lab.errors import AnalysisError, TableMissingError
from backgammon_lab.game import Game
from backgammon_lab.rules import legal_plays

START = "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
MID = "standard/w/24,22,13x4,8x3,6x4,5,4/24x2,13x4,8x2,7,6x4,5x2"
POS3 = "minigam;checkers=3/w/bar,3,off/5x2,off"


@pytest.fixture(scope="module")
def table3():
    return solve(3, progress=False)


@pytest.fixture(scope="module")
def std_net() -> Net:
    # the shipped encoding, one layer (the references agree to 1e-9; a second layer sums in float32)
    return small_net("standard", 16, seed=3, hidden2=0)


@pytest.fixture(scope="module")
def mex_net() -> Net:
    return small_net("mexican", 16, seed=4)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from backgammon_lab.analysis import solve as s

    monkeypatch.setattr(s, "_TABLE_CACHE", {})
    return tmp_path / "cache" / "backgammon_lab"


def test_exact_hint_ranks_by_table(table3) -> None:
    pos = Position.from_string(POS3)
    h = hint(pos, (4, 1), Options(evaluator=table3))
    assert h.method == "exact"
    wins = [rp.win for rp in h.plays]
    assert wins == sorted(wins, reverse=True)
    assert len(h.plays) == len(legal_plays(pos, (4, 1)))
    for rp in h.plays:
        assert rp.win == pytest.approx(table3.value_after(rp.play.position), abs=0)
        assert h.error(rp.play) == pytest.approx(h.best.win - rp.win)
        assert h.loss(rp.play) == pytest.approx(2 * (h.best.win - rp.win))  # equity 2 win - 1
        assert rp.how == "exact"
    assert h.error(h.best.play) == 0.0
    assert h.arrows() == h.best.play.steps
    assert h.best.win == pytest.approx(table3.roll_value(pos, (4, 1)))
    assert h.error(str(h.plays[-1].play)) == h.plays[-1].error
    text = str(h)
    assert text == str(hint(pos, (4, 1), Options(evaluator=table3))) and "exact" in text
    js = h.to_json()
    assert js["method"] == "exact" and js["plays"][0]["steps"]


def test_net_hint_at_0_ply_is_the_net_on_every_play(std_net) -> None:
    pos = Position.from_string(MID)
    h = hint(pos, (6, 4), Options(ply=0, evaluator=std_net))
    plays = legal_plays(pos, (6, 4))
    assert h.method == "net" and h.ply == 0 and h.gammons and len(h.plays) == len(plays)
    want = std_net.values_after([play_board(p) for p in plays], opp_off(pos))  # the numpy forward pass
    by_text = {rp.text: rp for rp in h.plays}
    for p, row in zip(plays, want, strict=True):
        rp = by_text[str(p)]
        assert rp.values["win"] == pytest.approx(row[0]) and rp.values["lose_gammon"] == pytest.approx(row[3])
        assert rp.equity == pytest.approx(float(nets.equity(row)))
    eqs = [rp.equity for rp in h.plays]
    assert eqs == sorted(eqs, reverse=True) and h.best.loss == 0.0
    assert all(rp.loss == pytest.approx(h.best.equity - rp.equity) for rp in h.plays)
    assert h.find(h.plays[3].text) is h.plays[3] and h.find(list(h.plays[3].play.steps)) is h.plays[3]
    assert h.find(MakePlay(h.plays[3].play)) is h.plays[3] and h.find(h.plays[3].play.position) is h.plays[3]
    assert h.arrows(2) == h.plays[1].play.steps
    t = str(h)
    assert "net, 0-ply" in t and "equity" in t and "gammon" in t
    assert json.dumps(h.to_json()) == json.dumps(hint(pos, (6, 4), Options(ply=0, evaluator=std_net)).to_json())


def test_1_ply_is_the_average_over_21_rolls_of_the_best_reply(std_net) -> None:
    pos = Position.from_string(MID)
    full = hint(pos, (3, 1), Options(ply=1, filters=(), evaluator=std_net))
    plays = legal_plays(pos, (3, 1))
    by_text = {rp.text: rp for rp in full.plays}
    assert all(rp.how == "1-ply" for rp in full.plays)
    for p in plays:
        opp = p.position.with_turn("black")
        want = nets.flip(ref_roll(std_net, opp, 1))  # the opponent's best reply to each of the 21 rolls
        got = np.array([by_text[str(p)].values[k] for k in nets.OUTPUTS_5])
        assert np.abs(got - want).max() < 1e-9
    # the default move filter: at most 8 plays within 0.16 of the best at 0-ply go to 1-ply
    filtered = hint(pos, (3, 1), Options(ply=1, evaluator=std_net))
    zero = hint(pos, (3, 1), Options(ply=0, evaluator=std_net))
    deep = [rp for rp in filtered.plays if rp.how == "1-ply"]
    assert 1 <= len(deep) <= FILTERS[0][0]
    top = zero.best.equity
    assert all(top - zero.find(rp.play).equity <= FILTERS[0][1] + 1e-9 for rp in deep)
    assert filtered.plays[:len(deep)] == deep  # the deeper evaluations are listed first


def test_2_ply_goes_deeper_on_the_best_plays_only(std_net) -> None:
    pos = Position.start("standard")
    h = hint(pos, (2, 1), Options(ply=2, evaluator=std_net, filters=((8, 0.16), (2, 0.04))))
    hows = [rp.how for rp in h.plays]
    assert 1 <= hows.count("2-ply") <= 2 and hows.count("1-ply") >= 1
    assert hows == sorted(hows, key=lambda s: -int(s[0]))
    assert h.best.how == "2-ply" and "net, 2-ply" in str(h)
    assert h.to_json() == hint(pos, (2, 1), Options(ply=2, evaluator=std_net, filters=((8, 0.16), (2, 0.04)))).to_json()


def test_the_default_filter_is_gnubgs_normal_one_for_two_rolls(std_net) -> None:
    """gnubg's MOVEFILTER_NORMAL for a 2-ply search: up to 8 plays within 0.16 of the best at 0-ply,
    then no filter at 1-ply, so every one of them is valued at 2-ply."""
    assert FILTERS == ((8, 0.16), (8, math.inf))
    pos = Position.from_string(MID)
    two = hint(pos, (3, 1), Options(ply=2, evaluator=std_net))
    one = hint(pos, (3, 1), Options(ply=1, evaluator=std_net))
    deep2 = {rp.text for rp in two.plays if rp.how == "2-ply"}
    assert deep2 == {rp.text for rp in one.plays if rp.how == "1-ply"} and len(deep2) >= 3
    assert not any(rp.how == "1-ply" for rp in two.plays)
    assert Options(filters=((4, math.inf),)).filters == ((4, math.inf),)
    with pytest.raises(AnalysisError, match="filters: .*not nan"):
        Options(filters=((4, math.nan),))


def test_mexican_chain_keeps_the_players_point_of_view(mex_net) -> None:
    """After all four moves of doubles the same player rolls again: 1-ply averages that player's own
    best next play over the 21 rolls, with no change of side."""
    pos = Position.from_string("mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5")
    h = hint(pos, (3, 3), Options(ply=1, filters=((2, 0.16),), evaluator=Evaluator(net=mex_net, shortlist=None)))
    st = dice_state(pos, (3, 3))
    checked = 0
    for rp in h.plays[:2]:
        assert rp.how == "1-ply"
        after = advance(st, MakePlay(rp.play))[0]
        assert after.phase is Phase.ROLL and after.player == "white" and after.reroll
        want = sum(p * ref_dice(mex_net, after.position, r.dice, 0) for r, p in ALL_ROLLS)
        assert abs(rp.values["win"] - want[0]) < 1e-9
        checked += 1
    assert checked == 2


def test_rollout_hint_uses_the_same_dice_and_says_when_plays_are_close(std_net) -> None:
    pos = Position.from_string(MID)
    h = hint(pos, (6, 5), Options(ply=0, evaluator=std_net, games=72, truncate=2, filters=((3, 0.16),), seed=5))
    assert h.method == "rollout" and h.games == 72 and h.truncate == 2
    rolled = [rp for rp in h.plays if rp.how == "rollout"]
    assert len(rolled) == 3 and h.plays[:3] == rolled
    assert all(rp.stderr is not None and rp.loss_stderr is not None for rp in rolled)
    assert rolled[0].loss_stderr == 0.0  # the best against itself
    for rp in rolled[1:]:
        assert rp.close == (rp.loss < 2 * rp.loss_stderr)
        # games paired by their dice: the error of a difference is below that of two separate rollouts
        assert rp.loss_stderr < (rolled[0].equity_stderr ** 2 + rp.equity_stderr ** 2) ** 0.5
    text = str(h)
    assert "rollout, 72 games a play" in text and "±" in text
    again = hint(pos, (6, 5), Options(ply=0, evaluator=std_net, games=72, truncate=2, filters=((3, 0.16),), seed=5))
    assert again.to_json() == h.to_json()


def test_rollout_hint_with_the_luck_taken_off() -> None:
    """Options(luck=True) in a hint: the rollouts take each roll's luck off (by the shipped net), so
    the plays' errors and the errors of their differences are smaller than without on the same
    games; the hint says so in its title and its JSON."""
    pos = Position.from_string(MID)
    opts = Options(ply=0, games=36, truncate=3, filters=((3, 0.16),), seed=2)
    plain = hint(pos, (6, 5), opts)
    lucky = hint(pos, (6, 5), replace(opts, luck=True))
    assert lucky.luck and "luck taken off" in str(lucky) and lucky.to_json()["luck"] is True
    assert "luck" not in plain.to_json() and "luck" not in str(plain)
    by_play = {str(rp.play): rp for rp in plain.plays if rp.how == "rollout"}
    rolled = [rp for rp in lucky.plays if rp.how == "rollout"]
    assert len(rolled) >= 2 and set(by_play) == {str(rp.play) for rp in rolled}
    for rp in rolled:
        assert rp.equity_stderr < by_play[str(rp.play)].equity_stderr / 2
    assert sum(rp.loss_stderr for rp in rolled) < sum(rp.loss_stderr for rp in by_play.values())
    with pytest.raises(AnalysisError, match="luck: .*'yes'"):
        Options(luck="yes")  # type: ignore[arg-type]


def test_rollout_with_a_bot_of_ones_own_needs_no_net(monkeypatch) -> None:
    monkeypatch.setattr(nets, "shipped_net", lambda v: None)
    pos = Position.from_string("mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5")
    h = hint(pos, (6, 5), Options(games=2, bot=RandomBot(1), filters=((2, 0.16),)))
    assert h.method == "rollout" and [rp.how for rp in h.plays].count("rollout") == 2
    assert h.plays[-1].how == "unrated" and h.plays[-1].win is None
    with pytest.raises(AnalysisError, match="not evaluated"):
        h.error(h.plays[-1].play)
    with pytest.raises(TableMissingError, match="no net is shipped"):
        hint(pos, (6, 5))


def test_mexican_decisions_from_the_net(mex_net) -> None:
    g = Game("mexican", seed=2)
    g.roll((5, 3))
    assert g.phase == "choice"
    o = opening_hint(g, options=Options(ply=0, evaluator=mex_net))
    assert {d.option for d in o.options} == {"keep", "reroll"} and o.method == "net"
    keep = ref_dice(mex_net, g.position, (5, 3), 0, shortlist=3)
    fresh = ref_roll(mex_net, g.position, 1, shortlist=3)  # the 21 rolls, then the best play
    assert abs(o.find("keep").win - keep[0]) < 1e-9 and abs(o.find("reroll").win - fresh[0]) < 1e-9
    assert o.best.loss == 0.0 and o.loss(o.options[1].option) >= 0.0 and o.find("keep").play
    assert "Keep the opening dice" in str(o)
    assert opening_hint(Position.start("mexican").with_turn("white"), (5, 3), Options(ply=0, evaluator=mex_net)).to_json() == o.to_json()
    g.choose("reroll")
    g.roll((2, 1))
    g.play(g.legal_actions()[0])
    assert g.phase == "name"
    d = doubles_hint(g, Options(ply=0, evaluator=mex_net))
    assert sorted(x.option for x in d.options) == [1, 2, 3, 4, 5, 6]
    for x in d.options:
        assert abs(x.win - ref_dice(mex_net, g.position, (x.option, x.option), 0, named=True)[0]) < 1e-9
    eqs = [x.equity for x in d.options]
    assert eqs == sorted(eqs, reverse=True)
    assert "Which doubles to name" in str(d) and "<table" in d._repr_html_()
    one = doubles_hint(g, Options(ply=1, evaluator=mex_net))
    assert one.ply == 1 and one.to_json() != d.to_json()
    rolled = doubles_hint(g, Options(ply=0, evaluator=mex_net, games=4, truncate=1))
    assert rolled.method == "rollout" and all(x.stderr is not None for x in rolled.options)
    with pytest.raises(AnalysisError, match="Mexican"):
        doubles_hint(Position.start("standard"))
    with pytest.raises(AnalysisError, match="not 'name'"):
        doubles_hint(Game("mexican", seed=1), Options(evaluator=mex_net))


def test_bad_input_is_refused_quoting_it(std_net) -> None:
    pos = Position.start("standard")
    for kwargs, text in [({"ply": 3}, "ply: 3 is too large: at most 2"), ({"ply": "1"}, "ply: .*'1'"),
                         ({"games": -2}, "games: .*at least 1, not -2"), ({"games": 0}, "games: .*not 0"),
                         ({"filters": ((0, 0.16),)}, "filters: plays: .*not 0"),
                         ({"filters": ((2, -1.0),)}, "filters: .*not -1.0"), ({"filters": "8"}, "filters: .*'8'"),
                         ({"evaluator": "best"}, "evaluator: .*'best'"), ({"evaluator": 3}, "evaluator: .*not 3"),
                         ({"truncate": 0}, "truncate: .*not 0"), ({"workers": True}, "workers: .*True"),
                         ({"seed": 1.5}, "seed: .*1.5"), ({"bot": "net"}, "bot: .*'net'"),
                         ({"executor": 4}, "executor: .*4"), ({"progress": "yes"}, "progress: .*'yes'")]:
        with pytest.raises(AnalysisError, match=text):
            Options(**kwargs)
    with pytest.raises(AnalysisError, match="options: expected an Options"):
        hint(pos, (3, 1), {"ply": 0})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hint(pos, (3, 1), ply=0)  # type: ignore[call-arg]  # the old keywords are gone
    with pytest.raises(AnalysisError, match="not a legal play"):
        hint(pos, (3, 1), Options(ply=0, evaluator=std_net)).find("24/18")
    with pytest.raises(ValueError, match="mexican"):
        hint(pos, (3, 1), Options(evaluator=small_net("mexican", 4)))
    over = Position.from_string("minigam;checkers=2/w/offx2/bar,3")
    with pytest.raises(AnalysisError, match="over"):
        hint(over, (3, 1))


def test_no_legal_move() -> None:
    pos = Position.from_string("standard/w/bar,13x6,8x3,6x5/6x2,5x2,4x2,3x2,2x2,1x2,24x2,13")
    h = hint(pos, (6, 6), Options(evaluator=small_net("standard", 4, hidden2=0)))
    assert h.method == "none" and len(h.plays) == 1 and "no legal move" in str(h)


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


def test_cli_hint_net_plies_rollout_and_bots(cache, capsys, monkeypatch, std_net) -> None:
    monkeypatch.setattr(nets, "shipped_net", lambda v: std_net if find_variant(v) == std_net.variant else None)
    assert main(["hint", START, "--dice", "6-5", "--json"]) == 0
    h = json.loads(capsys.readouterr().out)
    assert h["method"] == "net" and h["ply"] == 2 and len(h["plays"]) == len(legal_plays(Position.from_string(START),
                                                                                            (6, 5)))
    assert h["plays"][0]["loss"] == 0.0 and h["gammons"]
    assert main(["hint", START, "--dice", "6-5", "--ply", "1", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "net, 1-ply" in out and out.count("1-ply") >= 3
    assert main(["hint", START, "--dice", "6-5", "--rollout", "3", "--truncate", "1", "--candidates", "2",
                 "--json"]) == 0
    h = json.loads(capsys.readouterr().out)
    assert h["method"] == "rollout" and h["games"] == 3 and [p["how"] for p in h["plays"]].count("rollout") == 2
    assert main(["hint", START, "--dice", "6-5", "--games", "2", "--bot", "random", "--candidates", "2",
                 "--json"]) == 0
    h = json.loads(capsys.readouterr().out)
    assert h["method"] == "rollout" and h["games"] == 2
    # no net for Mexican: an error line, exit status 2
    assert main(["hint", "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "--dice", "6-5"]) == 2
    assert "no net is shipped" in capsys.readouterr().err
    assert main(["hint", START, "--dice", "6-5", "--ply", "3"]) == 2
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


def test_values_are_probabilities(std_net) -> None:
    h = hint(Position.from_string(MID), (4, 4), Options(ply=1, evaluator=std_net))
    vals = np.array([[rp.values[k] for k in nets.OUTPUTS_5] for rp in h.plays])
    assert ((vals >= 0) & (vals <= 1)).all()


def test_rollout_hint_on_two_processes_equals_one(std_net) -> None:
    pos = Position.from_string(MID)
    kw = {"evaluator": std_net, "ply": 0, "games": 8, "truncate": 1, "filters": ((2, 0.16),), "seed": 1}
    assert hint(pos, (2, 1), Options(workers=2, **kw)).to_json() == hint(pos, (2, 1), Options(**kw)).to_json()


def test_the_mexican_shortlist_looks_the_naming_up_for_the_best_few(mex_net) -> None:
    """Inside the search, after a Mexican only the best 3 plays by the cheap value look the six
    named doubles up: the value found is one of the full values, and never above the best of them."""
    pos = Position.from_string("mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5")
    st = dice_state(pos, (2, 1))
    assert st.mexican
    full = Evaluator(net=mex_net, shortlist=None)
    short = Evaluator(net=mex_net)
    i_full, v_full = full.best_play(st)
    i_short, v_short = short.best_play(st)
    rows = full.play_values(st)
    assert np.allclose(v_short, rows[i_short]) and nets.equity(v_short) <= nets.equity(v_full) + 1e-12
    assert np.allclose(v_full, rows[i_full])
    with pytest.raises(AnalysisError, match="shortlist"):
        Evaluator(net=mex_net, shortlist=0)


# -- the one search, on the compiled kernel (analysis.search) -----------------------------------


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_the_compiled_leaf_is_the_numpy_net_on_every_candidate_board(variant) -> None:
    """The kernel's values of every play (encode and forward pass compiled) equal Net.values_after,
    the numpy forward pass, on the candidate boards, within 1e-9 (1e-6 with a second hidden layer,
    summed in float32); and the play it chooses is the numpy values' best. The nets have the shipped
    nets' encodings and layers (each encoding's compiled inputs: test_kernels.py)."""
    net = small_net(variant, 12, seed=5)
    net.w1[:, -6:] += 0.3  # the last features' weights: larger, so they count
    ev = Evaluator(net, lookahead=False)
    checked = 0
    for pos in sample_positions(variant, 12, seed=11):
        for dice in ((6, 5), (2, 1), (4, 4), (1, 3)):
            st = dice_state(pos, dice)
            if st.phase is not Phase.PLAY:
                continue
            boards = [play_board(p) for p in st.plays]
            kind = pos.variant.after_play(st.roll.dice, False, st.plays.length)
            want = net.values_after(boards, opp_off(pos), same_side=[kind != "end_turn"] * len(boards))
            got = ev.play_values(st)
            assert got.shape == want.shape and np.abs(got - want).max() < (1e-6 if net.hidden2 else 1e-9)
            assert ev.best_play(st)[0] == ref_best(net, pos, st.roll.dice, look=False)[0]
            checked += len(boards)
    assert checked > 100


def test_deeper_plies_and_mexican_naming_equal_the_numpy_reference(mex_net) -> None:
    """1- and 2-ply values through Mexican chains and namings (the shortlist of 3 included) equal
    a plain recursion over Positions with the numpy forward pass."""
    pos = Position.from_string("mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5")
    ev = Evaluator(mex_net)
    st = dice_state(pos, (2, 1))  # a Mexican: the naming follows every play
    i, row = ev.best_play(st, 0)
    j, want, _board, _kind = ref_best(mex_net, pos, (2, 1), shortlist=3)
    assert i == j and abs(row[0] - want[0]) < 1e-9
    for dice, ply in (((2, 1), 1), ((3, 3), 1), ((6, 4), 1), ((5, 2), 2)):
        got = ev.dice_value(pos, dice, ply)
        assert abs(got[0] - ref_dice(mex_net, pos, dice, ply, shortlist=3)[0]) < 1e-9, (dice, ply)
    assert abs(ev.roll_row(pos, 1)[0] - ref_roll(mex_net, pos, 1, shortlist=3)[0]) < 1e-9


def test_one_ply_check_and_one_shortlist() -> None:
    from backgammon_lab.analysis import options, search
    from backgammon_lab.analysis.netbot import NetBot

    assert search.check_ply is options.check_ply  # one ply check, the options' own
    for bad in (-1, 3, True, 1.5, "2"):
        with pytest.raises(AnalysisError, match=f"ply: .*{bad!r}"):
            search.check_ply(bad)
        with pytest.raises(AnalysisError, match=f"ply: .*{bad!r}"):
            Options(ply=bad)
    net = small_net("mexican", 4, seed=1)
    assert Evaluator(net).shortlist == search.SHORTLIST == NetBot(net)._evaluator(net).shortlist
    st = dice_state(Position.start("mexican"), (6, 5))
    with pytest.raises(AnalysisError, match="ply: 3 is too large: at most 2"):
        Evaluator(net).best_play(st, 3)


# -- one options object for a search (analysis.options) -----------------------------------------


def test_options_are_one_frozen_checked_object() -> None:
    import dataclasses

    from backgammon_lab.analysis.options import DEFAULT_PLY, VARIANT_PLY, as_options

    o = Options()
    assert repr(o) == "Options()" and as_options(None) == o and as_options(o) is o
    assert o.ply is None and o.ply_for(find_variant("standard")) == DEFAULT_PLY == 2
    assert o.ply_for(find_variant("mexican")) == VARIANT_PLY["mexican"] == 1
    assert o.ply_for(find_variant("minigam", checkers=3)) == 2
    assert Options(ply=0).ply_for(find_variant("mexican")) == 0
    assert o.filters == FILTERS and Options(filters=[[3, 0.1]]).filters == ((3, 0.1),)
    quick = dataclasses.replace(o, ply=0, games=36, seed=4)
    assert repr(quick) == "Options(ply=0, games=36, seed=4)" and o.ply is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.ply = 1  # type: ignore[misc]
    with pytest.raises(AnalysisError, match="ply: 7 is too large"):
        dataclasses.replace(o, ply=7)  # a copy is checked like a new one


def test_a_hints_texts_and_values_are_made_when_read_and_print_the_same(std_net) -> None:
    """The move texts and the values dicts of a hint's plays are written only when first read: the
    plays, their reprs, JSON and table are the same as when each is given at once."""
    import dataclasses

    from backgammon_lab.analysis.hints import _LATER, RankedPlay

    pos = Position.from_string(MID)
    h = hint(pos, (6, 4), Options(ply=1, evaluator=std_net))
    rp = h.plays[5]
    assert rp.__dict__["_text_value"] is _LATER and rp.__dict__["_values_value"] is _LATER  # not made yet
    assert rp.text == str(rp.play) and rp.__dict__["_text_value"] == rp.text  # made when read, then kept
    eager = [RankedPlay(**{f.name: getattr(p, f.name) for f in dataclasses.fields(p)}) for p in h.plays]
    assert eager == h.plays and [repr(p) for p in eager] == [repr(p) for p in h.plays]
    assert [p.values for p in h.plays[:3]] == [p.values for p in eager[:3]] and h.best.values["win"] == h.best.win
    assert "LATER" not in repr(h) and "LATER" not in str(h) and "LATER" not in json.dumps(h.to_json())
    again = hint(pos, (6, 4), Options(ply=1, evaluator=std_net))
    assert str(again) == str(h) and again.to_json() == h.to_json()


@pytest.mark.parametrize("variant, dice", [("standard", (5, 2)), ("mexican", (2, 1))])
def test_a_pruning_net_makes_the_choices_inside_the_look_ahead(variant: str, dice: tuple[int, int]) -> None:
    """``Net.with_prune``: inside the look-ahead (the replies of a 1-ply value, every choice of a
    2-ply one) the pruning net values every play and the net only the best ``keep`` of them, as
    the numpy reference does; the root's plays and 0-ply choices are the net's alone; a pruning net
    that keeps at least every play changes nothing."""
    main = small_net(variant, 16, seed=5, hidden2=0)
    pruner = small_net(variant, 4, seed=6, hidden2=0)
    net = main.with_prune(pruner, keep=2)
    pos = Position.from_string(f"{variant}/w/24,23,13x4,8x3,6x3,5,4,3/24x2,13x5,8x3,6x4,4")
    ev, ev_main = Evaluator(net), Evaluator(main)
    got = ev.roll_row(pos, 1)
    assert np.abs(got - ref_roll(net, pos, 1, shortlist=3)).max() < 1e-9
    assert np.abs(got - ev_main.roll_row(pos, 1)).max() > 1e-6  # pruned: another reply somewhere
    assert np.abs(ev.dice_value(pos, dice, 2) - ref_dice(net, pos, dice, 2, shortlist=3)).max() < 1e-9
    st = dice_state(pos, dice)
    assert np.array_equal(ev.play_values(st), ev_main.play_values(st))  # the root: every play by the net
    assert ev.best_play(st, 0)[0] == ev_main.best_play(st, 0)[0]
    assert np.array_equal(ev.roll_row(pos, 0), ev_main.roll_row(pos, 0))
    wide = Evaluator(main.with_prune(pruner, keep=1000))  # more than any roll has plays
    assert np.array_equal(wide.roll_row(pos, 1), ev_main.roll_row(pos, 1))
