"""My mistakes in a real JupyterLab, and progress that survives a kernel restart with no Load (issue 61).

The JupyterLab server and the notebook runner are those of ``tests/test_widgets_browser.py`` (its
kernels keep the learner's data in a folder of the server's own). The notebook plays a seeded game
of a random player against the net's bot, sends White's mistakes to the strategy course's **My
mistakes** stage and shows it. The learner clicks the play made in the game (the feedback says so
and what it does), then the better play (what went wrong in the game; two stars). Then the kernel
is restarted and every cell run again: the course opens with the two stars and the mistake, read
from its own progress file, with no Load pressed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_widgets_browser import WIDGET, JupyterLab, open_notebook, serve, shot

from backgammon_lab.analysis.strategy import question

pytestmark = pytest.mark.browser

GAME = """from backgammon_lab.analysis.bots import RandomBot
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.options import Options
from backgammon_lab.game import Game
from backgammon_lab.lessons import mistakes


def my_mistakes():
    bots = {"white": RandomBot(3), "black": NetBot()}
    g = Game("standard", seed=5)
    while not g.is_over:
        if g.is_chance():
            g.roll()
            continue
        g.apply(bots[g.current_player].choose(g))
    return mistakes(g, Options(ply=0), player="white")
"""

NOTEBOOK = [
    GAME + "\nitems = my_mistakes()",
    "from backgammon_lab.analysis.strategy import themes\nfrom backgammon_lab.widgets.strategy import StrategyCourse\n"
    "course = StrategyCourse(themes()[:1])\ncourse.add_mistakes(items)\ncourse.goto('mine')\ncourse",
]


@pytest.fixture(scope="module")
def lab() -> Iterator[JupyterLab]:
    yield from serve("mine.ipynb", NOTEBOOK)


def test_a_mistake_answered_and_found_again_after_a_kernel_restart(lab: JupyterLab, page: Any) -> None:
    from playwright.sync_api import expect

    scope: dict[str, Any] = {}
    exec(GAME, scope)
    m = scope["my_mistakes"]()[0]
    q = question(m)
    played = q.labels[q.choices.index(m.played)]
    better = q.labels[q.choices.index(m.answer)]

    page.set_viewport_size({"width": 1100, "height": 1000})
    open_notebook(page, lab, "mine.ipynb", widgets=1, timeout=180_000)
    course = page.locator(".bgl-course")
    exercise = course.locator(".bgl-exercise")
    feedback = exercise.locator(".bgl-exercise-feedback")
    stars = exercise.locator(".bgl-exercise-stars")
    expect(course.locator("select")).to_have_value(re.compile(r"^My mistakes \(\d+\)"))
    expect(exercise.locator(".bgl-exercise-goal")).to_contain_text("which play is better?")
    expect(stars).to_contain_text("0 of 3")

    exercise.get_by_role("button", name=played, exact=True).click()
    expect(feedback).to_contain_text(f"Not the better play: {played}. That is the play made in the game.")
    exercise.get_by_role("button", name=better, exact=True).click()
    expect(feedback).to_contain_text(f"Right: {better}.")
    expect(feedback).to_contain_text(m.words.split(":")[0].split(".")[0])
    expect(stars).to_contain_text("2 of 3")
    shot(page, "mine-01-answered")
    assert (lab.root.parent / "learner" / "strategy_course.json").exists()

    # restart the kernel and run every cell again: no Load, the course finds its own file
    page.locator(".lm-MenuBar-itemLabel", has_text="Kernel").first.click()
    page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel").get_by_text(
        "Restart Kernel and Run All Cells…", exact=True).click()
    page.locator(".jp-Dialog").get_by_role("button", name="Confirm Kernel Restart").click()
    expect(course.locator(".bgl-course-file-status")).to_contain_text("Welcome back: 1 question done, 2 stars",
                                                                       timeout=180_000)
    expect(page.locator(WIDGET)).to_have_count(1, timeout=60_000)
    expect(course.locator(".bgl-exercise-stars")).to_contain_text("2 of 3")
    options = course.locator("select option").all_text_contents()
    assert any(o.replace("\xa0", " ").startswith("My mistakes (") for o in options), options
    shot(page, "mine-02-after-restart")
