"""The widgets in a real JupyterLab, driven by headless Chromium through Playwright.

A temporary directory holds a small notebook written here (never the repository's notebooks:
JupyterLab autosaves); JupyterLab serves it on a free loopback port with throw-away config, data,
runtime and IPython directories. The first test runs the notebook, plays the opening of a Mexican game
by clicking checkers and destinations, names doubles, plays them, then edits a position in the
editor, checking after each step what the board shows through the DOM's data attributes. The second
(issue 13) checks what a learner sees and does: the bold number under the checker Black clicks, the
layout before and after a long message, a drag that plays a step, keys that show, play and undo a
step, a forced play played at once. Screenshots go to ``artifacts/browser/``.

``JupyterLab`` and ``open_notebook`` are reused by ``benchmarks/widget_latency.py``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "browser"
WIDGET = ".bgl-board-widget"


# -- JupyterLab in a subprocess -----------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_notebook(path: Path, cells: list[str]) -> Path:
    """Write a notebook of code cells (no outputs) to ``path``."""
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"cell-{i}", "metadata": {},
                   "outputs": [], "source": src} for i, src in enumerate(cells)],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return path


class JupyterLab:
    """A JupyterLab server on a free port serving a temporary directory; use as a context manager.
    Its kernels keep the learner's data (the course's progress file) in a folder of their own.

    ``server_config`` is the text of a ``jupyter_server_config.py`` for this server only (empty:
    none, the stock server).
    """

    def __init__(self, server_config: str = "") -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="bgl-lab-")
        base = Path(self._tmp.name)
        self.root = base / "notebooks"
        self.root.mkdir()
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        for key, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                         ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
            (base / sub).mkdir()
            env[key] = str(base / sub)
        env.pop("ANYWIDGET_HMR", None)
        env["BACKGAMMON_LAB_DATA"] = str(base / "learner")  # the course's own progress file: this server's
        settings = base / "config" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8")
        if server_config:
            (base / "config" / "jupyter_server_config.py").write_text(server_config, encoding="utf-8")
        self._env = env
        self._log = (base / "lab.log").open("wb")
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> JupyterLab:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
             "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.port_retries=0",
             f"--ServerApp.port={self.port}", f"--ServerApp.root_dir={self.root}", "--allow-root"],
            env=self._env, stdout=self._log, stderr=subprocess.STDOUT, cwd=self.root)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise RuntimeError("JupyterLab did not start; see its log")
            time.sleep(0.2)

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        self._tmp.cleanup()


def serve(name: str, cells: list[str]) -> Iterator[JupyterLab]:
    """A JupyterLab serving one notebook ``name`` of ``cells`` (for a module fixture: ``yield from``);
    skips when Playwright, JupyterLab or Chromium is missing."""
    from conftest import chromium_path

    pytest.importorskip("playwright")
    pytest.importorskip("jupyterlab")
    if chromium_path() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with JupyterLab() as server:
        write_notebook(server.root / name, cells)
        yield server


def shot(page: Any, name: str) -> None:
    """A full-page screenshot to ``artifacts/browser/NAME.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def open_notebook(page: Any, lab: JupyterLab, name: str, widgets: int, timeout: float = 60_000) -> None:
    """Open ``name``, wait for an idle kernel, run all cells, wait for ``widgets`` board widgets."""
    from playwright.sync_api import expect

    page.goto(f"{lab.url}/lab/tree/{name}?reset")
    expect(page.get_by_text("Python 3 (ipykernel) | Idle")).to_be_visible(timeout=timeout)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel").get_by_text(
        "Run All Cells", exact=True).click()
    expect(page.locator(WIDGET)).to_have_count(widgets, timeout=timeout)


# -- the test ----------------------------------------------------------------------------------
NOTEBOOK = [
    "import backgammon_lab\nfrom backgammon_lab.widgets import PositionEditor",
    'gw = backgammon_lab.play("mexican", seed=7)\ngw',
    'ed = PositionEditor(variant="mexican")\ned',
    'gt = GameWidget(position=Position.from_string("minigam;checkers=2/w/bar,5/4,off"), dice=(4, 2), tutor=True)\ngt',
]


@pytest.fixture(scope="module")
def lab() -> Iterator[JupyterLab]:
    yield from serve("widgets.ipynb", NOTEBOOK)


def test_mexican_opening_and_editor_in_jupyterlab(lab: JupyterLab, page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1400, "height": 1100})
    open_notebook(page, lab, "widgets.ipynb", widgets=2)
    game_out = page.locator(".jp-OutputArea-output").filter(has=page.locator(WIDGET)).nth(0)
    board = page.locator(WIDGET).nth(0)
    message = board.locator("[data-role=message]")

    def checker_count(b: Any, colour: str, point: int) -> Any:
        return b.locator(f'circle.checker[data-color="{colour}"][data-point="{point}"]')

    def click_point(b: Any, point: int) -> None:
        """Click a point's area, as a user does (a checker on top takes the click: same point)."""
        b.locator(f'rect.point[data-point="{point}"]').click(force=True)

    expect(board).to_have_attribute("data-phase", "opening")
    expect(checker_count(board, "white", 13)).to_have_count(5)
    shot(page, "01-opening")

    # The opening roll, set by hand: White 2, Black 1. White keeps the Mexican.
    game_out.get_by_placeholder("dice by hand, e.g. 3-1").fill("2-1")
    game_out.get_by_role("button", name="Roll", exact=True).click()
    expect(board).to_have_attribute("data-phase", "choice")
    game_out.get_by_role("button", name="Keep 2-1").click()
    expect(board).to_have_attribute("data-phase", "play")
    expect(board.locator("[data-die]")).to_have_count(2)

    # A checker that cannot move: the engine's reason appears under the board.
    board.locator('circle.checker[data-point="13"]').last.click()
    expect(message).to_contain_text("held by 5 opposing checkers")

    # Select the 6-point: its legal destination (5) is marked; play the 1 there.
    board.locator('circle.checker[data-point="6"]').last.click()
    expect(board).to_have_attribute("data-selected", "6")
    expect(board).to_have_attribute("data-targets", "5")
    expect(board.locator(".selected")).to_have_count(1)
    expect(board.locator("circle.target")).to_have_count(1)
    shot(page, "02-selected")
    click_point(board, 5)
    expect(checker_count(board, "white", 5)).to_have_count(1)
    expect(checker_count(board, "white", 6)).to_have_count(4)
    expect(board).to_have_attribute("data-dice-left", "2")
    expect(board.locator('[data-die][data-used="1"]')).to_have_count(1)

    # Clicking elsewhere clears a selection.
    board.locator('circle.checker[data-point="13"]').last.click()
    expect(board).to_have_attribute("data-selected", "13")
    board.locator("svg > rect").first.click(position={"x": 5, "y": 5}, force=True)
    expect(board).to_have_attribute("data-selected", "")

    # The 2: 13/11. Both dice played: name doubles.
    board.locator('circle.checker[data-point="13"]').last.click()
    expect(board).to_have_attribute("data-targets", "11")
    click_point(board, 11)
    expect(board).to_have_attribute("data-phase", "name")
    expect(game_out.locator("[data-role=rules]")).to_contain_text("A Mexican! White names any doubles to play.")
    shot(page, "03-name-doubles")
    game_out.get_by_role("button", name="3-3: in full").click()
    expect(board).to_have_attribute("data-phase", "play")
    expect(board.locator('[data-die][data-value="3"]')).to_have_count(4)
    expect(board.locator(".mexican")).to_have_count(2)

    # The four named 3s by clicks; all played, so White rolls again.
    for start, end in ((13, 10), (13, 10), (24, 21), (24, 21)):
        board.locator(f'circle.checker[data-point="{start}"]').last.click()
        expect(board).to_have_attribute("data-selected", str(start))
        click_point(board, end)
        expect(board).to_have_attribute("data-selected", "")
    expect(board).to_have_attribute("data-phase", "roll")
    expect(board).to_have_attribute("data-turn", "white")
    expect(checker_count(board, "white", 10)).to_have_count(2)
    expect(checker_count(board, "white", 21)).to_have_count(2)
    expect(checker_count(board, "white", 24)).to_have_count(0)
    expect(board.locator(".reroll")).to_have_count(1)
    expect(game_out.locator("[data-role=status]")).to_have_text("White to roll again.")
    expect(game_out.locator("[data-role=record]")).to_contain_text(
        "1. White 2-1 (Mexican): 6/5 13/11; named 3-3: 24/21(2) 13/10(2)")
    expect(board).to_have_attribute(
        "data-position", "mexican/w/21x2,13x2,11,10x2,8x3,6x4,5/24x2,13x5,8x3,6x5")
    # A click while a roll is due changes nothing and says so.
    board.locator('circle.checker[data-point="6"]').last.click()
    expect(message).to_contain_text("White rolls first.")
    shot(page, "04-roll-again")

    # Undo takes back the last step.
    game_out.get_by_role("button", name="Undo").click()
    expect(board).to_have_attribute("data-phase", "play")
    expect(checker_count(board, "white", 21)).to_have_count(1)

    # The editor: clear the board, add White checkers, refuse Black on a White point, add Black.
    ed_out = page.locator(".jp-OutputArea-output").filter(has=page.locator(WIDGET)).nth(1)
    ed_board = page.locator(WIDGET).nth(1)
    ed_msg = ed_board.locator("[data-role=message]")
    ed_out.scroll_into_view_if_needed()
    ed_out.get_by_role("button", name="Clear board").click()
    expect(ed_board).to_have_attribute("data-position", "mexican/w/offx15/offx15")
    for k in range(1, 4):
        click_point(ed_board, 6)
        expect(checker_count(ed_board, "white", 6)).to_have_count(k)
    ed_out.locator(".widget-toggle-buttons").filter(has_text="Checker").get_by_role(
        "button", name="Black").click()
    click_point(ed_board, 6)
    expect(ed_msg).to_contain_text("both colours on a point")
    expect(checker_count(ed_board, "white", 6)).to_have_count(3)
    click_point(ed_board, 19)
    expect(checker_count(ed_board, "black", 19)).to_have_count(1)
    ed_board.locator('rect.bar[data-bar="black"]').click(force=True)
    expect(ed_board).to_have_attribute("data-position", "mexican/w/6x3,offx12/bar,6,offx13")
    for k in range(2, 6):
        click_point(ed_board, 19)
        expect(checker_count(ed_board, "black", 19)).to_have_count(k)
    click_point(ed_board, 19)
    expect(ed_msg).to_contain_text("sixth checker")
    expect(checker_count(ed_board, "black", 19)).to_have_count(5)
    ed_out.locator(".widget-toggle-buttons").filter(has_text="To move").get_by_role(
        "button", name="Black").click()
    expect(ed_board).to_have_attribute("data-turn", "black")
    ed_out.get_by_role("button", name="Export").click()
    expect(ed_out.locator("textarea")).to_have_value("mexican/b/6x3,offx12/bar,6x5,offx9")
    shot(page, "05-editor")


# -- issue 13 -------------------------------------------------------------------------------------
LEARNER = [
    "import backgammon_lab\nfrom backgammon_lab import Position\nfrom backgammon_lab.widgets import GameWidget, PositionEditor",
    'gb = GameWidget("standard", seed=3)\ngb.dice_text.value = "1-6"\ngb.roll_button.click()  # Black plays 6-1\ngb',
    'forced = Position.from_string("standard/w/barx2,21,18x3,13,8x2,6x3,5,3,1/23,21x2,18x2,13x2,11,9,6,5,2x4")\n'
    'gf = GameWidget(position=forced, auto_forced=True)\ngf',
    'ed = PositionEditor(variant="mexican")\ned',
    'gt = GameWidget(position=Position.from_string("minigam;checkers=2/w/bar,5/4,off"), dice=(4, 2), tutor=True)\ngt',
]


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return box


def test_learner_board_in_jupyterlab(lab: JupyterLab, page: Any) -> None:
    from playwright.sync_api import expect

    write_notebook(lab.root / "learner.ipynb", LEARNER)
    page.set_viewport_size({"width": 1400, "height": 1100})
    open_notebook(page, lab, "learner.ipynb", widgets=4)
    outs = page.locator(".jp-OutputArea-output").filter(has=page.locator(WIDGET))
    game_out, forced_out, ed_out, tutor_out = outs.nth(0), outs.nth(1), outs.nth(2), outs.nth(3)
    board, forced_board, ed_board = (page.locator(WIDGET).nth(i) for i in range(3))
    message = board.locator("[data-role=message]")
    expect(board).to_have_attribute("data-turn", "black")

    # 1. Black clicks its 13 (White's 12): the bold number under that checker is 13, as the words say.
    checker = board.locator('circle.checker[data-point="12"]').last
    checker.click()
    expect(message).to_have_text("Point 13 selected: it can go to 7.")
    label = board.locator('text.num[data-at="12"][data-mover="1"]')
    expect(label).to_have_text("13")
    expect(label).to_have_attribute("data-player", "black")
    assert abs(float(label.get_attribute("x") or 0) - float(checker.get_attribute("cx") or 0)) < 0.5
    target = board.locator('text.num[data-at="18"][data-mover="1"]')  # Black's 7 is White's 18
    expect(target).to_have_text("7")
    shot(page, "06-numbering-black")

    # 2. A long message wraps under the board: the board's width and the panel's place stay.
    status = game_out.locator("[data-role=status]")
    before_board, before_panel = _box(board), _box(status)
    board.locator('circle.checker[data-point="12"]').last.click()  # clear the selection
    board.locator('circle.checker[data-point="12"]').last.click()
    expect(message).to_have_text("Point 13 selected: it can go to 7.")  # the board is drawn again
    board.locator('rect.point[data-point="16"]').click(force=True)  # 4 pips: no such die, explained
    expect(message).not_to_have_text("")
    page.wait_for_timeout(100)
    after_board, after_panel = _box(board), _box(status)
    assert abs(after_board["width"] - before_board["width"]) < 1, (before_board, after_board)
    assert abs(after_panel["x"] - before_panel["x"]) < 1 and abs(after_panel["y"] - before_panel["y"]) < 1
    msg_box = _box(message)
    assert msg_box["width"] <= after_board["width"] + 1 and msg_box["height"] > 20
    shot(page, "07-long-message")
    ed_out.scroll_into_view_if_needed()
    ed_controls = ed_out.locator("[data-role=counts]")
    e_board, e_panel = _box(ed_board), _box(ed_controls)
    ed_board.locator('rect.point[data-point="5"]').click(force=True)  # a 16th checker: refused at length
    expect(ed_board.locator("[data-role=message]")).to_contain_text("too many checkers")
    assert abs(_box(ed_board)["width"] - e_board["width"]) < 1
    assert abs(_box(ed_controls)["x"] - e_panel["x"]) < 1
    shot(page, "08-editor-refusal")

    # 7. Drag Black's back checker (White's 1) to its 18 (White's 7): the 6 is played.
    game_out.scroll_into_view_if_needed()
    board.press("Escape")
    expect(board).to_have_attribute("data-selected", "")
    src = _box(board.locator('circle.checker[data-point="1"]').last)
    dst = _box(board.locator('rect.point[data-point="7"]'))
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] * 0.3, steps=12)
    expect(board).to_have_attribute("data-selected", "24")  # picked up: its destinations shown
    expect(board.locator(".bgl-ghost")).to_have_count(1)
    shot(page, "09-dragging")
    page.mouse.up()
    expect(board.locator('circle.checker[data-color="black"][data-point="7"]')).to_have_count(1)
    expect(board.locator('circle.checker[data-color="black"][data-point="1"]')).to_have_count(1)
    expect(board.locator("text.played-label, line.played")).not_to_have_count(0)  # the step's arrow
    expect(board.locator(".bgl-ghost")).to_have_count(0)
    shot(page, "10-dragged")

    # Keys: u undoes the step; n shows a legal step and Enter plays it.
    cells = page.locator(".jp-Notebook .jp-Cell").count()
    board.press("u")
    expect(board.locator('circle.checker[data-color="black"][data-point="1"]')).to_have_count(2)
    assert page.locator(".jp-Notebook .jp-Cell").count() == cells  # the key was not a notebook shortcut
    board.press("n")
    expect(board).not_to_have_attribute("data-selected", "")
    expect(board.locator("line.arrow")).to_have_count(1)
    shot(page, "11-next-step-key")
    board.press("Enter")
    expect(board).to_have_attribute("data-dice-left", re.compile(r"^[16]$"))

    # A forced play is played at once with "Play forced moves" on.
    forced_out.scroll_into_view_if_needed()
    forced_out.get_by_placeholder("dice by hand, e.g. 3-1").fill("1-4")
    forced_out.get_by_role("button", name="Roll", exact=True).click()
    expect(forced_board).to_have_attribute("data-phase", "roll")
    expect(forced_board).to_have_attribute("data-turn", "black")
    expect(forced_board.locator("[data-role=message]")).to_have_text(
        "Forced: White plays bar/21 bar/24 (the only legal play).")
    expect(forced_out.locator("[data-role=record]")).to_contain_text("1. White 4-1: bar/21 bar/24")
    shot(page, "12-forced-play")

    # 8. The tutor judges a play as it is made: a bad Mini-Gam play, exactly, with both plays drawn.
    tutor_out.scroll_into_view_if_needed()
    tutor_out.get_by_role("button", name="Hint").click()
    expect(page.locator(WIDGET).nth(3).locator("[data-role=message]")).to_have_text(
        "Hint: the best play is bar/3* 5/3 (win 19.8%).")
    tutor_out.locator("select[size]").select_option(label="bar/3*/1")
    tutor_out.get_by_role("button", name="Play", exact=True).click()
    verdict = tutor_out.locator("[data-role=tutor]")
    expect(verdict).to_have_attribute("data-mark", "very bad")
    expect(verdict).to_contain_text("bar/3*/1 loses 11.3% against the best play bar/3* 5/3.")
    expect(tutor_out.locator("[data-role=tutor] ~ svg line.arrow")).to_have_count(4)  # two steps each
    shot(page, "13-tutor-verdict")


# -- issue 20: the game widget's faults ----------------------------------------------------------
FAULTS = [
    "import backgammon_lab\nfrom backgammon_lab.widgets import GameWidget",
    'gm = GameWidget("mexican", seed=5)\ngm.dice_text.value = "3-1"\ngm.roll_button.click()\n'
    'gm.keep_button.click()\ngm',
]


def test_fault_long_message_keeps_board_height_and_history_row(lab: JupyterLab, page: Any) -> None:
    """Issue 20: a 3-line message grew the board widget from 506 to 525 px and moved the history
    row 18 px (Mexican seed 5: 3-1, Keep, 24/23, back one step, click a checker). The message box
    has a fixed room: one line, the viewing note, or five lines leave both where they were."""
    from playwright.sync_api import expect

    write_notebook(lab.root / "faults.ipynb", FAULTS)
    page.set_viewport_size({"width": 1400, "height": 1100})
    open_notebook(page, lab, "faults.ipynb", widgets=1)
    game_out = page.locator(".jp-OutputArea-output").filter(has=page.locator(WIDGET)).nth(0)
    board = page.locator(WIDGET).nth(0)
    message = board.locator("[data-role=message]")
    history = game_out.locator(".widget-hslider").first
    expect(board).to_have_attribute("data-phase", "play")
    empty_board, empty_history = _box(board), _box(history)

    board.locator('circle.checker[data-point="24"]').last.click()
    expect(board).to_have_attribute("data-selected", "24")  # drawn again with the selection: then click on
    board.locator('rect.point[data-point="23"]').click(force=True)
    expect(message).to_have_text("Played 24/23.")
    game_out.get_by_role("button", name="◀", exact=True).click()
    board.locator('circle.checker[data-point="13"]').last.click()
    expect(message).to_contain_text("“Play from here”")
    page.wait_for_timeout(100)
    shot(page, "14-viewing-message")
    for label in ("viewing note", "five lines"):
        b, h = _box(board), _box(history)
        assert abs(b["height"] - empty_board["height"]) < 1, (label, empty_board, b)
        assert abs(h["y"] - empty_history["y"]) < 1, (label, empty_history, h)
        # Five lines of text in the box (as a long refusal would be): it scrolls inside its room.
        message.evaluate("el => { el.textContent = 'A long explanation of a rule, word after word. '.repeat(9); }")
    m = message.evaluate("el => [el.clientHeight, el.scrollHeight]")
    assert m[1] > m[0] + 10  # the long text is taller than the box, which kept its height
