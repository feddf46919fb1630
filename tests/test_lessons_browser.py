"""One exercise solved by clicks in a real JupyterLab, in headless Chromium.

The JupyterLab server and the notebook runner are those of ``tests/test_widgets_browser.py`` (a
temporary copy of a small notebook written here, throw-away config directories, a free port). The
learner first tries 13/8 with 5-2 in Mexican Backgammon (the 5 before the 2): the engine's
explanation appears under the exercise and the try is counted; then the learner plays 24/22 and
13/8, which finishes the exercise with two stars. Screenshots go to ``artifacts/browser/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_widgets_browser import WIDGET, JupyterLab, open_notebook, serve, shot

pytestmark = pytest.mark.browser

NOTEBOOK = [
    "from backgammon_lab.lessons import exercise\nfrom backgammon_lab.widgets.exercise import ExerciseWidget",
    'ex = ExerciseWidget(exercise("m3.1"))\nex',
]


@pytest.fixture(scope="module")
def lab() -> Iterator[JupyterLab]:
    yield from serve("lesson.ipynb", NOTEBOOK)


def test_an_exercise_solved_by_clicks_in_jupyterlab(lab: JupyterLab, page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1100, "height": 1000})
    open_notebook(page, lab, "lesson.ipynb", widgets=1)
    exercise = page.locator(".bgl-exercise")
    board = exercise.locator(WIDGET)
    feedback = exercise.locator(".bgl-exercise-feedback")
    stars = exercise.locator(".bgl-exercise-stars")
    expect(exercise.locator(".bgl-exercise-goal")).to_contain_text("Play 5-2 from the start.")
    expect(board).to_have_attribute("data-phase", "play")
    expect(stars).to_contain_text("0 of 3")

    def checker(point: int) -> Any:
        return board.locator(f'circle.checker[data-color="white"][data-point="{point}"]')

    def click_point(point: int) -> None:
        board.locator(f'rect.point[data-point="{point}"]').click(force=True)

    # A wrong try: the 5 before the 2. The engine's explanation, with the rule it rests on.
    checker(13).last.click()
    expect(board).to_have_attribute("data-selected", "13")
    click_point(8)
    expect(feedback).to_contain_text("Not allowed: The lower die, 2, must be played first.")
    expect(feedback).to_contain_text("You must move the lower number first.")
    expect(board.locator("[data-role=message]")).to_contain_text("The lower die, 2, must be played first.")
    expect(board).to_have_attribute("data-selected", "")
    expect(checker(13)).to_have_count(5)
    exercise.scroll_into_view_if_needed()
    shot(page, "lessons-01-wrong-try")

    # The message and the board (with its focus ring) are as wide as the 440 px board, not the output
    # (issue 20: they spanned 968 px); the explanation wraps under the board.
    output_width = page.locator(".jp-OutputArea-output").filter(has=exercise).bounding_box()["width"]
    for part in (feedback, board, exercise.locator(".bgl-exercise-goal")):
        box = part.bounding_box()
        assert box is not None and box["width"] <= 446, (part, box)
    assert output_width > 600  # the room was there: the limit is the exercise's own
    board.focus()
    focused = page.evaluate("() => document.activeElement.getBoundingClientRect().width")
    assert focused <= 446, focused

    # The right play: the 2 first (24/22), then the 5 (13/8).
    checker(24).last.click()
    expect(board).to_have_attribute("data-targets", "22")
    click_point(22)
    expect(feedback).to_contain_text("Good: 24/22. Dice left: 5.")
    checker(13).last.click()
    expect(board).to_have_attribute("data-targets", "8")  # the redraw that selects it is done: click then
    click_point(8)
    expect(feedback).to_contain_text("Right: 24/22 13/8.")
    expect(feedback).to_contain_text("\u2605\u2605\u2606")
    expect(stars).to_contain_text("2 of 3")
    expect(board).to_have_attribute("data-turn", "black")
    expect(exercise.get_by_role("button", name="Try again")).to_be_enabled()
    shot(page, "lessons-02-solved")
