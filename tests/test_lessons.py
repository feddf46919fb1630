"""The lessons' data: every exercise has one answer from the engine, the course covers every rule
row from easy to tricky, and the checker rejects exercises without an answer or with an ambiguous one."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from backgammon_lab import Position
from backgammon_lab.engine import dice_state
from backgammon_lab.lessons import (
    EXERCISES,
    KINDS,
    ROW_TITLES,
    STAGES,
    Exercise,
    LessonError,
    Progress,
    check_exercise,
    exercise,
    solve,
    stage,
    stages_of,
    stars_for,
)
from backgammon_lab.lessons.exercises import build_game, step_clicks, white_point
from backgammon_lab.rules import legal_plays

ROWS = [f"S{i}" for i in range(1, 5)] + [f"M{i}" for i in range(1, 12)] + [f"G{i}" for i in range(1, 9)]


@pytest.mark.parametrize("ex", EXERCISES, ids=[e.id for e in EXERCISES])
def test_every_exercise_has_an_answer_from_the_engine(ex: Exercise) -> None:
    ans = check_exercise(ex)
    assert ans.accepts and ans.solution and ans.hint
    assert ex.goal and ex.text and ex.rows and set(ex.rows) <= set(ROWS)
    if ans.reasons:
        assert 0 <= ans.reason_index < len(ans.reasons) == len(set(ans.reasons)) >= 2


def test_the_course_has_at_least_80_exercises_three_per_row_and_a_review_per_variant() -> None:
    assert len(EXERCISES) >= 80
    assert len({e.id for e in EXERCISES}) == len(EXERCISES)
    per_row = Counter(e.id.split(".")[0].upper() for e in EXERCISES)
    for row in ROWS:
        assert per_row[row] >= 3, row
        assert stage(row).exercises and stage(row).title == ROW_TITLES[row]
    for variant, review in (("standard", "S-review"), ("mexican", "M-review"), ("minigam", "G-review")):
        st = stages_of(variant)
        assert st[-1].id == review and len(st[-1]) >= 3 and len(set(st[-1].rows)) >= 2
        assert all(e.variant == variant for s in st for e in s.exercises)
    assert {e.kind for e in EXERCISES} == set(KINDS)


@pytest.mark.parametrize("row", ROWS)
def test_each_row_goes_from_easy_to_tricky(row: str) -> None:
    levels = [e.level for e in stage(row).exercises]
    assert levels[0] == min(levels) and max(levels) >= 2


def test_stage_order_follows_the_rule_rows() -> None:
    ids = [s.id for s in STAGES]
    assert ids == ROWS[:4] + ["S-review"] + ROWS[4:15] + ["M-review"] + ROWS[15:] + ["G-review"]


# -- the tricky cases the review found -----------------------------------------------------------
def test_m4_lower_die_that_blocks_the_higher() -> None:
    ex = exercise("m4.1")
    pos = Position.from_string(ex.position)
    assert [str(p) for p in legal_plays(pos, (6, 1))] == ["13/12/6"]
    assert "2/1" not in [str(s) for p in legal_plays(pos, (6, 1)) for s in p.steps]


def test_m10_choice_with_4_1() -> None:
    ans = solve(exercise("m10.3"))
    assert exercise("m10.3").position == "mexican/w/6,4/1x2"
    plays = {str(p) for p in ans.plays}
    assert "6/5 4/off" in plays and any("off" not in p for p in plays)


def test_hit_during_bear_off_and_a_checker_still_outside() -> None:
    assert solve(exercise("m10.6")).accepts == {False}  # on the bar: no bearing off
    assert solve(exercise("m10.5")).accepts == {True}  # the lower die brings the last one home
    assert solve(exercise("s4.2")).accepts == {True}


def test_the_cap_when_entering_loses_the_turn() -> None:
    ans = solve(exercise("m6.3"))
    assert ans.accepts == {True} and "5 of your checkers" in ans.reason


def test_a_re_rolled_1_2_is_another_mexican() -> None:
    game = build_game(exercise("m8.4"))
    assert game.state.mexican and game.state.phase == "play"
    assert sum(1 for e in game.events) >= 0
    solved = build_game(exercise("m8.4"))
    solved.play(solve(exercise("m8.4")).plays[0])
    assert solved.phase == "name"


def test_a_win_inside_a_doubles_chain() -> None:
    game = build_game(exercise("m11.2"))
    assert game.state.phase == "play" and game.state.roll.is_double  # the second 3-3 of a chain
    game.play(solve(exercise("m11.2")).plays[0])
    assert game.is_over and game.points == 1


def test_the_third_doubles_only_partly_playable() -> None:
    ex = exercise("m7.2")
    game = build_game(ex)
    assert sum(1 for a in ex.before if isinstance(a, str) and a[0] == a[-1] and "-" in a) == 2
    assert game.state.plays.length == 1 and solve(ex).accepts == {1}


# -- the checker rejects bad exercises -------------------------------------------------------------
START = "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"


@pytest.mark.parametrize("ex, words", [
    (Exercise("x1", "play", START, "5-2", "g", target="only"), "the only legal play"),
    (Exercise("x2", "play", "mexican/w/3,1/13x5,8x5,7x5", "2-1", "g", target="win"), "no legal play bears off"),
    (Exercise("x3", "play", START, "2-1", "g", target="hit"), "no legal play hits"),
    (Exercise("x4", "spot", START, "5-2", "g", proposal="24/22 13/8"), "every step"),
    (Exercise("x5", "spot", START, "5-2", "g", proposal="13/8"), "nothing to spot"),
    (Exercise("x6", "land", START, "5-2", "g", start=13, die=4), "not in the roll"),
    (Exercise("x7", "name", START, None, "g", before=("2-1", "24/23 13/11")), "every doubles"),
    (Exercise("x8", "name", START, "5-2", "g"), "after a Mexican"),
    (Exercise("x9", "count", "mexican/w/13x5,8x5,7x5/24x2,20x2,19x2,14x2,13x5,6x2", "6-2", "g"), "use kind 'lost'"),
    (Exercise("x10", "count", START, "5-2", "g", before=("6-6",)), "cannot be played"),
    (Exercise("x11", "count", "mexican/w/24x9/24x2", "5-2", "g"), "bad position"),
    (Exercise("x12", "lost", START, "2-1", "g", trap=False), "its trap"),
    (Exercise("x13", "count", "standard", "5-2", "g", opening=True, before=("3-3", "9-9")), "cannot be played"),
])
def test_bad_exercises_are_rejected(ex: Exercise, words: str) -> None:
    with pytest.raises(LessonError, match=words) as info:
        check_exercise(ex)
    assert repr(ex.id) in str(info.value)


def test_bad_data_is_refused_at_once() -> None:
    with pytest.raises(LessonError, match="unknown kind 'quiz'"):
        Exercise("x", "quiz", START, "5-2", "g")
    with pytest.raises(LessonError, match="unknown target 'gammon'"):
        Exercise("x", "play", START, "5-2", "g", target="gammon")
    with pytest.raises(LessonError, match="level must be"):
        Exercise("x", "play", START, "5-2", "g", level=4)
    for bad in ("Z9", "", 3):
        with pytest.raises(LessonError, match="no stage"):
            stage(bad)  # type: ignore[arg-type]
    with pytest.raises(LessonError, match="no exercise"):
        exercise("m99.1")
    with pytest.raises(LessonError, match="no lessons for variant"):
        stages_of("hypergammon")
    assert issubclass(LessonError, ValueError)


def test_answers_are_computed_not_written() -> None:
    """Change the position and the answer follows: nothing in the data holds the answer."""
    ex = exercise("m1.2")
    assert solve(ex).accepts == {len(legal_plays(Position.from_string(ex.position), (6, 5)))}
    std = Exercise("s", "count", ex.position.replace("mexican", "standard"), "6-5", "g")
    assert solve(std).accepts == {len(legal_plays(Position.from_string(std.position), (6, 5)))} != solve(ex).accepts


def test_clicks_and_numbering() -> None:
    pos = Position.from_string("minigam/b/5,4,barx6/5,barx7")
    assert white_point(pos, 5) == 2 and white_point(Position.start("minigam"), 5) == 5
    st = dice_state(pos, (3, 1)).next_steps()[0]
    clicks = step_clicks(pos, st)
    assert clicks[0][0] in ("point", "bar") and len(clicks) == 2


# -- stars and progress ----------------------------------------------------------------------------------
def test_stars() -> None:
    assert stars_for(0, 0, False) == 3
    assert stars_for(1, 0, False) == stars_for(0, 1, False) == stars_for(5, 2, False) == 2
    assert stars_for(0, 0, True) == stars_for(3, 1, True) == 1


def test_progress_keeps_the_best_and_round_trips_as_json() -> None:
    p = Progress(["a", "b"])
    assert p.record("a", shown=True) == 1
    assert p.record("a", wrong=2) == 2
    assert p.record("a", shown=True) == 2  # a worse attempt does not lower the stars
    assert p.total_stars() == 2 and p.max_stars() == 6 and p.done() == 1
    text = p.to_json()
    assert json.loads(text)["results"]["a"] == {"hints": 0, "shown": False, "stars": 2, "wrong": 2}
    again = Progress.from_json(text)
    assert again.to_json() == text and repr(again) == "<Progress 1/2 done, 2/6 stars>"


@pytest.mark.parametrize("bad", ["", "[]", '{"exercises": 3, "results": {}}', '{"exercises": []}',
                                 '{"exercises": [], "results": {"a": {"wrong": -1, "hints": 0, "shown": false}}}',
                                 "not json"])
def test_progress_refuses_what_it_did_not_write(bad: str) -> None:
    with pytest.raises(LessonError):
        Progress.from_json(bad)


def test_progress_refuses_bad_counts_and_changes_nothing() -> None:
    p = Progress(["a"])
    for kw in ({"wrong": -1}, {"hints": 1.5}, {"wrong": True}):
        with pytest.raises(LessonError):
            p.record("a", **kw)  # type: ignore[arg-type]
    with pytest.raises(LessonError):
        p.record("")
    assert p.to_dict()["results"] == {}


def test_the_docs_show_the_course_as_it_is() -> None:
    from pathlib import Path

    from backgammon_lab.lessons.catalog import course_table

    page = (Path(__file__).resolve().parents[1] / "docs" / "lessons.md").read_text(encoding="utf-8")
    assert course_table() in page, "docs/lessons.md's table is stale: paste course_table() into it"


# -- the notebooks' helpers --------------------------------------------------------------------------
def test_labelled_board_names_the_parts_and_is_deterministic() -> None:
    from backgammon_lab.lessons.notebook import labelled_board

    a, b = labelled_board(), labelled_board()
    assert a.svgs == b.svgs and repr(a) == "<1 board picture>"
    svg = a.svgs[0]
    for word in ("the bar", "the tray", "a blot", "a made point", "pip count", "home board: points 1-6", "point 1"):
        assert word in svg, word
    assert a._repr_html_().startswith('<div><img style=')


def test_why_not_prints_words_and_the_rule_not_a_code(capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab.lessons.notebook import why_not

    pic = why_not(Position.start("mexican"), (5, 2), "13/8")
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "13/8: not allowed"
    assert "The lower die, 2, must be played first." in out and "lower_die_first" not in out
    assert "Not allowed: 13/8." in pic.svgs[0]
    why_not(Position.start("mexican"), (5, 2), "13/11")
    assert capsys.readouterr().out.splitlines()[0] == "13/11: allowed"


def test_narrate_tells_a_turn_in_the_engines_words(capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab.lessons.notebook import narrate

    game = narrate("mexican", ["2-1", "keep", "13/11", "24/23 13/11", 3])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2-1 ") and "White goes first." in lines[0]
    assert "refused" in lines[2] and "13/11" in lines[2]  # a play of one die is not a whole play
    assert lines[-1].endswith("White names 3-3.") and game.phase == "play"


def test_enters() -> None:
    from backgammon_lab.lessons.notebook import ROLLS_36, enters

    pos = Position.from_string("mexican/w/bar,24x2,13x4,8x3,6x5/13x5,8x3,6x5,2x2")
    assert enters(pos, (4, 3)) and not enters(pos, (5, 2))
    assert len(ROLLS_36) == 36
