"""A strategy puzzle answered in a real JupyterLab, in headless Chromium, and the progress saved
to a file and loaded back (issue 20).

The JupyterLab server and the notebook runner are those of ``tests/test_widgets_browser.py``. The
notebook shows the course's "Making points" stage and a second, fresh course. The learner picks a
wrong play (the feedback says what that play does and that another is worth more), then the
right one (what the better play does, computed from the positions, and the engine's values of
every choice; two stars); saves the progress to a file it names; and loads the file into the
fresh course, which then shows the puzzle's two stars. A locked stage is refused from the menu.
The screenshot of the puzzle with its feedback is ``docs/pictures/strategy_puzzle.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_widgets_browser import WIDGET, JupyterLab, open_notebook, serve, shot

from backgammon_lab.analysis.strategy import question, themes

pytestmark = pytest.mark.browser

PICTURE = Path(__file__).resolve().parent.parent / "docs" / "pictures" / "strategy_puzzle.png"
STAGE = "points"

NOTEBOOK = [
    "from backgammon_lab.analysis.strategy import themes\nfrom backgammon_lab.widgets.strategy import StrategyCourse",
    "stages = [s for s in themes() if s.variant == 'standard' and s.id in ('points', 'safe')]\n"
    "course = StrategyCourse(stages)\ncourse",
    "fresh = StrategyCourse(stages)\nfresh",
]


@pytest.fixture(scope="module")
def lab() -> Iterator[JupyterLab]:
    yield from serve("strategy.ipynb", NOTEBOOK)


def test_a_puzzle_wrong_then_right_saved_and_loaded_in_jupyterlab(lab: JupyterLab, page: Any) -> None:
    from playwright.sync_api import expect

    stage = next(s for s in themes() if s.id == STAGE and s.variant == "standard")
    puzzle = stage.items[0]
    q = question(puzzle)
    right = q.labels[q.choices.index(puzzle.answer)]
    wrong = next(label for value, label in zip(q.choices, q.labels, strict=True) if value != puzzle.answer)

    page.set_viewport_size({"width": 1100, "height": 1000})
    open_notebook(page, lab, "strategy.ipynb", widgets=2)
    course, fresh = page.locator(".bgl-course").nth(0), page.locator(".bgl-course").nth(1)
    exercise = course.locator(".bgl-exercise")
    feedback = exercise.locator(".bgl-exercise-feedback")
    stars = exercise.locator(".bgl-exercise-stars")
    expect(exercise.locator(".bgl-exercise-goal")).to_contain_text("which play is better?")
    expect(exercise.locator(".bgl-exercise-goal")).not_to_contain_text(puzzle.id)  # no item ids for a learner
    expect(exercise.locator(WIDGET)).to_have_count(1)
    expect(stars).to_contain_text("0 of 3")

    # the second stage is locked until the first is finished: the menu refuses it and says why
    options = course.locator("select option").all_text_contents()  # ipywidgets writes no-break spaces
    assert options[1].replace("\xa0", " ").startswith("\U0001f512 Safe or bold"), options
    course.locator("select").select_option(index=1)
    expect(course.locator(".bgl-course-status")).to_contain_text("is locked: finish 'Making points' first")
    expect(exercise.locator(".bgl-exercise-goal")).to_contain_text("which play is better?")

    # a wrong play: what it does, and that another is worth more
    exercise.get_by_role("button", name=wrong, exact=True).click()
    expect(feedback).to_contain_text(f"Not the better play: {wrong}.")
    expect(feedback).to_contain_text("Try again.")
    expect(stars).to_contain_text("clicks 1, par 1")

    # the right play: what it achieves, the engine's values, two stars
    exercise.get_by_role("button", name=right, exact=True).click()
    expect(feedback).to_contain_text(f"Right: {right}.")
    expect(feedback).to_contain_text(q.reason.split(" (against")[0])
    expect(feedback).to_contain_text("The engine's values")
    expect(feedback).to_contain_text("\u2605\u2605\u2606")
    expect(stars).to_contain_text("2 of 3")
    exercise.scroll_into_view_if_needed()
    PICTURE.parent.mkdir(parents=True, exist_ok=True)
    exercise.screenshot(path=str(PICTURE))
    shot(page, "strategy-01-puzzle-solved")

    # save the progress to a file the learner names
    course.get_by_placeholder("progress file, e.g. my_progress.json").fill("my_progress.json")
    course.get_by_role("button", name="Save progress").click()
    expect(course.locator(".bgl-course-file-status")).to_contain_text("Saved to my_progress.json.")
    saved = json.loads((lab.root / "my_progress.json").read_text())
    assert saved["progress"]["results"][puzzle.id]["stars"] == 2
    assert saved["review"]["items"][puzzle.id][0] == 0  # fewer than 3 stars: in the review queue

    # load it into the fresh course: its copy of the puzzle shows the two stars
    fresh_stars = fresh.locator(".bgl-exercise-stars")
    expect(fresh_stars).to_contain_text("0 of 3")
    fresh.get_by_placeholder("progress file, e.g. my_progress.json").fill("my_progress.json")
    fresh.get_by_role("button", name="Load progress").click()
    expect(fresh.locator(".bgl-course-file-status")).to_contain_text("Loaded my_progress.json: 1 done, 2 stars.")
    expect(fresh_stars).to_contain_text("2 of 3")
    shot(page, "strategy-02-loaded")
