"""The strategy course keeps its progress by itself (issue 61, item 4) and takes the learner's own
mistakes as a stage, "My mistakes" (item 3), with the same schedule, stars and feedback as the
built-in puzzles."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from backgammon_lab.analysis.bots import RandomBot
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.options import Options
from backgammon_lab.analysis.strategy import themes
from backgammon_lab.game import Game
from backgammon_lab.lessons import LessonError, mistakes
from backgammon_lab.lessons.review import COURSE_FILE, DATA_ENV, INTERVALS, data_dir, load_saved
from backgammon_lab.widgets.strategy import MINE, REVIEW, StrategyCourse

STAGES = [s for s in themes() if s.variant == "standard"][:2]


def _right(course: StrategyCourse) -> None:
    cur = course.current
    assert cur is not None
    cur.answer(next(iter(cur.question.accepts)))


@pytest.fixture(scope="module")
def my_mistakes():
    bots = {"white": RandomBot(3), "black": NetBot()}
    g = Game("standard", seed=5)
    while not g.is_over:
        if g.is_chance():
            g.roll()
            continue
        g.apply(bots[g.current_player].choose(g))
    found = mistakes(g, Options(ply=0), player="white")
    assert len(found) >= 2
    return found


def test_the_data_folder_comes_from_the_environment_or_platformdirs(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "mine"))
    assert data_dir() == tmp_path / "mine"
    monkeypatch.delenv(DATA_ENV)
    import platformdirs

    assert data_dir() == Path(platformdirs.user_data_dir("backgammon_lab", appauthor=False))
    assert StrategyCourse(STAGES, progress_file=False).progress_file is None  # no file: nothing written


def test_each_answer_is_saved_and_a_new_course_starts_where_the_last_one_stopped(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    course = StrategyCourse(STAGES)
    own = tmp_path / "data" / COURSE_FILE
    assert course.progress_file == own and not own.exists()
    assert "saved by itself" in course.file_status.value
    first = course.current
    assert first is not None
    wrong = next(c for c in first.question.choices if c not in first.question.accepts)
    first.answer(wrong)
    assert not own.exists()  # nothing finished yet
    first.answer(next(iter(first.question.accepts)))
    progress, review, _ = load_saved(own)
    assert progress.stars(first.item.id) == 2 and review.box(first.item.id) == 0
    course.next()
    _right(course)
    again = StrategyCourse(STAGES)
    assert again.progress.stars(first.item.id) == 2 and again.review.clock == 2
    assert "Welcome back: 2 questions done, 5 stars" in again.file_status.value


def test_progress_survives_a_new_python_process(tmp_path: Path) -> None:
    """As after a kernel restart: a second process opens the course and finds the stars, no Load."""
    env = {**os.environ, DATA_ENV: str(tmp_path / "data"), "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    first = ("from backgammon_lab.widgets.strategy import strategy_course\n"
             "c = strategy_course('standard')\nq = c.current\nq.answer(next(iter(q.question.accepts)))\n"
             "print(q.item.id)\n")
    item = subprocess.run([sys.executable, "-c", first], env=env, capture_output=True, text=True, check=True).stdout
    second = ("from backgammon_lab.widgets.strategy import strategy_course\n"
              f"c = strategy_course('standard')\nprint(c.progress.stars({item.strip()!r}), c.review.clock)\n")
    out = subprocess.run([sys.executable, "-c", second], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["3", "1"]


def test_a_file_the_learner_names_and_a_bad_own_file(tmp_path: Path) -> None:
    named = tmp_path / "elsewhere" / "me.json"
    course = StrategyCourse(STAGES, progress_file=named)
    _right(course)
    assert load_saved(named)[0].done() == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    broken = StrategyCourse(STAGES, progress_file=bad)
    assert "could not be read" in broken.file_status.value and broken.progress_file is None
    _right(broken)
    assert bad.read_text() == "{not json"  # left for the learner to mend, not written over
    with pytest.raises(LessonError, match="progress_file"):
        StrategyCourse(STAGES, progress_file=True)


def test_my_mistakes_is_a_stage_with_the_same_stars_feedback_and_schedule(tmp_path: Path, my_mistakes) -> None:
    own = tmp_path / "own.json"
    course = StrategyCourse(STAGES, progress_file=own)
    labels = dict((v, k) for k, v in course.stage_menu.options)
    assert labels[MINE] == "My mistakes (0)" and course.is_open(MINE)
    course.goto(MINE)
    assert course.current is None and "No mistakes of yours" in course.body.children[0].value
    assert course.add_mistakes(my_mistakes) == len(my_mistakes)
    assert course.add_mistakes(my_mistakes[:1]) == 0  # the same position and roll: one item
    labels = dict((v, k) for k, v in course.stage_menu.options)
    assert labels[MINE] == f"My mistakes ({len(my_mistakes)})"
    course.goto(MINE, 0)
    wdg = course.current
    assert wdg is not None
    m = wdg.item
    assert m is my_mistakes[0] and m.id not in wdg.title.value  # no item id shown
    wdg.answer(m.played)
    assert "That is the play made in the game." in wdg.feedback and "Try again." in wdg.feedback
    wdg.answer(m.answer)
    assert m.words.split(":")[0] in wdg.feedback and "\u2605\u2605\u2606" in wdg.feedback
    assert course.progress.stars(m.id) == 2 and course.review.box(m.id) == 0
    # the same spaced schedule as any puzzle: due after INTERVALS[0] more answers
    course.goto(STAGES[0].id, 0)
    for i in range(INTERVALS[0]):
        course.goto(STAGES[0].id, i)
        _right(course)
    course.goto(REVIEW)
    assert [i.id for i in course.items] == [m.id]
    # kept with the progress, and back in a new course
    saved = json.loads(own.read_text())
    assert [r["id"] for r in saved["mistakes"]] == [x.id for x in my_mistakes]
    again = StrategyCourse(STAGES, progress_file=own)
    assert [x.key for x in again.mistakes] == [x.key for x in my_mistakes]
    assert again.progress.stars(m.id) == 2 and m.id in again.review.due()
    again.goto(REVIEW)
    assert [i.id for i in again.items] == [m.id]
    with pytest.raises(LessonError, match="takes mistakes"):
        again.add_mistakes(list(themes()[0].items[:1]))


def test_save_and_load_a_second_file_carry_the_mistakes(tmp_path: Path, my_mistakes) -> None:
    a = StrategyCourse(STAGES, progress_file=False, mistakes=my_mistakes)
    a.save(tmp_path / "copy.json")
    b = StrategyCourse(STAGES, progress_file=tmp_path / "b.json")
    b.load(tmp_path / "copy.json")
    assert [x.key for x in b.mistakes] == [x.key for x in my_mistakes]
    assert len(load_saved(tmp_path / "b.json")[2]) == len(my_mistakes)  # the own file follows the load


def test_the_rule_course_keeps_its_stars_by_itself(monkeypatch, tmp_path: Path) -> None:
    from backgammon_lab.lessons.notebook import course
    from backgammon_lab.lessons.review import RULE_COURSE_FILE
    from backgammon_lab.widgets.exercise import CourseWidget

    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    c = course("minigam")
    ex = c.exercise
    ex.show_solution()
    assert load_saved(tmp_path / RULE_COURSE_FILE)[0].stars(ex.exercise.id) == 1
    again = course("minigam")
    assert again.progress.stars(ex.exercise.id) == 1 and "Welcome back: 1 exercise done, 1 star" in again.file_status.value
    assert again.exercise.stars_label.value.startswith("\u2605")  # the widget shows the star found again
    plain = CourseWidget(again.stages)  # a lesson in a tutorial notebook keeps nothing by default
    assert plain.progress_file is None and plain.progress.total_stars() == 0


def test_two_courses_on_one_file_keep_each_others_answers(tmp_path: Path) -> None:
    from backgammon_lab.lessons.notebook import course

    own = tmp_path / "own.json"
    a = StrategyCourse(STAGES, progress_file=own)
    b = StrategyCourse(STAGES[1:], progress_file=own)  # opened before a answers
    _right(a)
    first = a.current.item.id  # type: ignore[union-attr]
    _right(b)
    second = b.current.item.id  # type: ignore[union-attr]
    progress, review, _ = load_saved(own)
    assert progress.stars(first) == 3 and progress.stars(second) == 3 and review.clock == 1  # the later clock
    r1 = course("minigam", progress_file=tmp_path / "rules.json")
    r2 = course("minigam", progress_file=tmp_path / "rules.json")
    r1.exercise.show_solution()
    r2.goto(1)
    r2.exercise.show_solution()
    saved = load_saved(tmp_path / "rules.json")[0]
    assert saved.stars(r1.exercise.exercise.id) == 1 and saved.stars(r2.exercise.exercise.id) == 1
