"""The game widget's review (the Review button) and the game chart (svg.win_chart)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from backgammon_lab.analysis.bots import RandomBot
from backgammon_lab.analysis.options import Options
from backgammon_lab.engine import Phase
from backgammon_lab.errors import GameError, RenderError
from backgammon_lab.svg import ChartMark, win_chart
from backgammon_lab.widgets import GameWidget

DATA = Path(__file__).parent / "data" / "matchfiles"
FAST = Options(ply=0)


def arrows(svg: str) -> int:
    return sum(1 for el in ET.fromstring(svg).iter() if el.get("class") == "arrow")


def play_game(gw: GameWidget, me: Any, limit: int = 3000) -> None:
    """Play White's side with ``me`` through the widget's own actions until the game ends."""
    for _ in range(limit):
        g = gw.game
        if g.phase is Phase.OVER:
            return
        if g.phase in (Phase.OPENING, Phase.ROLL):
            gw.roll_button.click()
        else:
            action = me.choose(g)
            assert gw._act(lambda a=action, g=g: g.apply(a)), gw.board.message
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def reviewed() -> GameWidget:
    gw = GameWidget("minigam", seed=3, opponent="beginner", review_options=FAST)
    play_game(gw, RandomBot(9))
    gw.review_button.click()
    return gw


def test_review_shows_each_sides_figures_the_chart_and_the_marked_decisions(reviewed: GameWidget) -> None:
    gw = reviewed
    a = gw.analysis
    assert a is not None and a.result is not None and gw.review_box.layout.display is None
    marked = [d for d in a.decisions if d.mark]
    assert marked and gw.marked == marked  # a random White makes mistakes
    assert len(gw.review_list.children) == len(marked)
    assert [b.description for b in gw.review_list.children][0].startswith(f"{marked[0].number}. ")
    summary = gw.review_summary.value
    for p in ("white", "black"):
        s = a.players[p]
        assert f"data-player='{p}'" in summary and f"error rate {s.error_rate:.1f}" in summary
        assert f"luck {s.luck:+.2f}" in summary
    assert f"Every decision ({len(a.decisions)})" in summary  # each decision's loss and mark, folded
    assert summary.count("<tr") == len(a.decisions) + 1
    chart = gw.review_chart.value
    root = ET.fromstring(chart[chart.index("<svg"):chart.index("</svg>") + 6])
    dots = [el for el in root.iter() if el.get("data-number") is not None]
    assert [int(el.get("data-number")) for el in dots] == [d.number for d in marked]
    assert {el.get("data-mark") for el in dots} == {d.mark for d in marked}


def test_a_marked_decision_goes_to_its_position_with_both_plays_drawn(reviewed: GameWidget) -> None:
    gw = reviewed
    r = gw._review
    assert r is not None
    k = next(i for i, d in enumerate(gw.marked) if d.kind == "play" and d.choice != d.best)
    d = gw.marked[k]
    gw.review_list.children[k].click()
    before = r.replay.entries[d.number - 1].state
    assert gw.game.index == r.index_map[d.number - 1]
    assert gw.game.position == before.position and gw.viewing
    assert arrows(gw.board.svg) >= 2  # the better play and the play made
    detail = gw.review_detail.value
    assert f"data-number='{d.number}'" in detail and d.choice in detail and d.best in detail
    assert "Pink: the better play. Blue: the play made." in detail
    assert gw.review_list.children[k].button_style == "warning"
    assert "data-role=\"current\"" in gw.review_chart.value
    with pytest.raises(GameError, match="no marked decision 99"):
        gw.show_decision(99)


def test_review_at_an_earlier_point_covers_the_whole_game_and_keeps_the_point_shown() -> None:
    gw = GameWidget("mexican", seed=4, opponent="casual", review_options=FAST)
    for _ in range(6):
        gw.roll_button.click()
        g = gw.game
        if g.phase is Phase.CHOICE:
            gw.keep_button.click()
        if gw.game.phase is Phase.NAME:
            gw.name_buttons[5].click()
        if gw.game.phase is Phase.PLAY:
            gw.play_button.click()
    n = len(gw.game)
    gw.first_button.click()
    assert gw.game.index == 0
    a = gw.review()
    assert gw.game.index == 0 and len(gw.game) == n  # the point shown and the history as they were
    assert a.decisions and max(d.number for d in a.decisions) <= n - 1
    assert a.result is None  # the game goes on


def test_steps_clicked_one_by_one_map_to_the_merged_record() -> None:
    """A play made by clicking its steps is one action of the record: the review's positions are
    the widget's own history points all the same."""
    from test_widgets import play_step, roll

    gw = GameWidget("standard", seed=5, review_options=FAST)
    roll(gw, "3-1")
    play_step(gw, 8, 5)
    play_step(gw, 6, 5)
    roll(gw, "6-5")
    play_step(gw, 24, 18)
    play_step(gw, 18, 13)  # Black runs a back checker, a poor 6-5
    roll(gw, "2-1")
    gw.play_button.click()
    gw.review()
    r = gw._review
    assert r is not None
    assert len(r.replay) < len(gw.game)  # steps merged into plays
    for k, e in enumerate(r.replay.entries):
        j = r.index_map[k]
        assert (gw.game.entries + gw.game.redo_entries)[j].state.position == e.state.position


def test_an_imported_match_is_reviewed_and_bad_sources_refused() -> None:
    gw = GameWidget.from_match(DATA / "alice_bob_3pt.mat", review_options=FAST)
    a = gw.analysis
    assert a is not None and a.variant == "standard" and gw.marked == [d for d in a.decisions if d.mark]
    assert gw.game.index == 0  # at the start of the game, as from_game shows it
    if gw.marked:
        gw.show_decision(0)
        assert gw.game.index == gw._review.index_map[gw.marked[0].number - 1]  # type: ignore[union-attr]
    with pytest.raises(GameError, match="takes a Match or the path"):
        GameWidget.from_match(42)


def test_a_new_game_closes_the_review_and_a_failed_review_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    import backgammon_lab.analysis.analyse as analyse_module
    from backgammon_lab.errors import AnalysisError

    gw = GameWidget("minigam", seed=1, review_options=FAST)

    def fails(*_a: Any, **_k: Any) -> Any:
        raise AnalysisError("no net for this")

    with monkeypatch.context() as m:
        m.setattr(analyse_module, "analyse", fails)
        gw.review_button.click()  # shown, never raised
    assert "No review: no net for this" in gw.review_summary.value and gw.analysis is None
    with pytest.raises(GameError, match="no review yet"):
        gw.show_decision(0)
    gw.review_button.click()  # nothing played yet: an empty review, no error
    assert gw.analysis is not None and gw.analysis.decisions == []
    assert "No decision lost 0.04" in gw.review_list.children[0].value
    gw.new_button.click()
    assert gw.analysis is None and gw.review_box.layout.display == "none"


# -- the chart -------------------------------------------------------------------------------------
def test_the_chart_is_deterministic_marks_each_error_and_refuses_bad_input() -> None:
    pts = [(1, 0.5), (4, 0.62), (9, 0.3), (12, 1.0)]
    marks = [(4, "doubtful", "white", "4. a doubtful play"), ChartMark(9, "very bad", "black")]
    one = win_chart(pts, marks=marks, title="White's chance", current=9)
    assert one == win_chart(pts, marks=marks, title="White's chance", current=9)
    root = ET.fromstring(one)
    dots = {el.get("data-number"): el for el in root.iter() if el.get("data-number")}
    assert set(dots) == {"4", "9"}
    assert dots["4"].tag.endswith("circle") and dots["9"].tag.endswith("rect")  # White's, Black's
    assert dots["4"].get("fill") == "#e08a00" and dots["9"].get("fill") == "#7b1fa2"
    assert any(el.get("data-role") == "current" for el in root.iter())
    assert " id=" not in one
    assert win_chart([]).startswith("<svg")
    for bad, match in (({"points": [(1, 1.5)]}, "from 0 to 1"), ({"points": [(1, "x")]}, "'x'"),
                       ({"points": pts, "marks": [(3, "awful")]}, "'awful'"),
                       ({"points": pts, "marks": [(3, "bad", "red")]}, "'red'"),
                       ({"points": pts, "width": 5}, "width")):
        with pytest.raises(RenderError, match=match):
            win_chart(**bad)


def test_play_rest_refuses_what_is_no_bot_and_an_earlier_point() -> None:
    gw = GameWidget("minigam", seed=2, opponent="beginner")
    with pytest.raises(GameError, match="choose"):
        gw.play_rest(42)
    gw.roll_button.click()
    gw.first_button.click()
    with pytest.raises(GameError, match="is shown"):
        gw.play_rest(RandomBot(1))
    assert gw.game.index == 0 and gw.viewing  # nothing played
    gw.last_button.click()
    gw.play_rest(RandomBot(1))
    assert gw.game.is_over
    assert gw.opponent_choice.tooltip.startswith("Beginner: ")
