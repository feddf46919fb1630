"""Play, review and learn in a real JupyterLab (headless Chromium, Playwright): a seeded Mini-Gam
game against a level, the Review button, a marked decision clicked (the game goes to it, both plays
drawn), and the game's mistakes answered as a puzzle of the course's "My mistakes" stage.
Screenshots go to ``artifacts/browser/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_widgets_browser import ARTIFACTS, WIDGET, JupyterLab, open_notebook, serve

pytestmark = pytest.mark.browser

SETUP = ('import backgammon_lab\nfrom backgammon_lab.analysis.levels import LevelBot\n'
         'gw = backgammon_lab.play("minigam", seed=1, opponent="casual")\n'
         'gw.play_rest(LevelBot("beginner", seed=5))  # White played by a beginner: some mistakes to find')
NOTEBOOK = [
    SETUP + "\ngw",
    "from backgammon_lab.lessons import mistakes\nfrom backgammon_lab.widgets.strategy import StrategyCourse\n"
    'course = StrategyCourse(progress_file=False)\ncourse.add_mistakes(mistakes(gw.game, player="white"))\n'
    'course.goto("mine")\ncourse',
]


def shot(element: Any, name: str) -> None:
    """A screenshot of one output (JupyterLab scrolls the notebook inside the page) to artifacts/browser/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    element.scroll_into_view_if_needed()
    element.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.fixture(scope="module")
def lab() -> Iterator[JupyterLab]:
    yield from serve("review.ipynb", NOTEBOOK)


def _expected() -> tuple[Any, Any]:
    """The same game and its mistakes, computed here: the marked decisions and the first mistake."""
    import backgammon_lab
    from backgammon_lab.analysis.levels import LevelBot
    from backgammon_lab.lessons import mistakes

    gw = backgammon_lab.play("minigam", seed=1, opponent="casual")
    gw.play_rest(LevelBot("beginner", seed=5))
    gw.review()
    return gw, mistakes(gw.game, player="white")


def test_review_a_marked_decision_and_answer_a_mistake_in_jupyterlab(lab: JupyterLab, page: Any) -> None:
    from playwright.sync_api import expect

    from backgammon_lab.analysis.strategy import question

    gw, mine = _expected()
    assert gw.marked and mine
    page.set_viewport_size({"width": 1400, "height": 1400})
    open_notebook(page, lab, "review.ipynb", widgets=2)
    game_out = page.locator(".jp-OutputArea-output").filter(has=page.locator(".bgl-review-button")).first
    board = game_out.locator(WIDGET).first
    expect(board).to_have_attribute("data-phase", "over")

    # Review: the summary, the chart with a dot per marked decision, one button each
    game_out.get_by_role("button", name="Review", exact=True).click()
    review = game_out.locator(".bgl-review")
    expect(review.locator("[data-role=review-summary]")).to_contain_text("error rate")
    expect(review.locator(".bgl-review-decision")).to_have_count(len(gw.marked))
    expect(review.locator("[data-role=review-chart] [data-number]")).to_have_count(len(gw.marked))
    shot(game_out, "review-01-summary")

    # a marked play of White's: the game goes to it, the better and the played play drawn
    k = next(i for i, d in enumerate(gw.marked) if d.kind == "play" and d.player == "white")
    d = gw.marked[k]
    review.locator(".bgl-review-decision").nth(k).click()
    detail = review.locator("[data-role=review-detail]")
    expect(detail).to_have_attribute("data-number", str(d.number))
    expect(detail).to_contain_text(d.best)
    expect(board).to_have_attribute("data-phase", "play")
    expect(board.locator(".arrow")).not_to_have_count(0)
    expect(review.locator("[data-role=review-chart] [data-role=current]")).to_have_count(1)
    expect(game_out.get_by_role("button", name="Play from here")).to_be_visible()
    shot(game_out, "review-02-decision")

    # the course's "My mistakes": the first mistake, answered right
    course = page.locator(".bgl-course")
    exercise = course.locator(".bgl-exercise")
    expect(exercise.locator(".bgl-exercise-goal")).to_be_visible()
    q = question(mine[0])
    right = q.labels[q.choices.index(mine[0].answer)]
    exercise.get_by_role("button", name=right, exact=True).click()
    expect(exercise.locator(".bgl-exercise-feedback")).to_contain_text("Right")
    shot(course, "review-03-mistake")
