"""The tutorial notebooks never drift from the code, and every widget they show is checked.

Strict ``pytest --nbval`` compares stored outputs, but only of cells that were executed, and it
cannot look inside a widget. So this test

* re-executes a copy of ``notebooks/`` in a temporary directory (``scripts/run_notebooks.py``, two
  kernels at a time) and compares the outputs cell by cell with the stored ones, ignoring what nbval
  ignores (execution counts, metadata, widget model ids);
* checks that every code cell was executed and stored no error;
* checks that every cell that displays a widget is followed by a code cell that asserts something.

And, without running anything, that the notebooks read as lessons: no helper code in cells (it lives
in ``backgammon_lab.lessons.notebook``), no cell solves an exercise in the learner's place, every
rule row has its exercises after a quoted rule, no jargon in the text and no reason code or memory
address in a stored output.

When it fails because the code changed, refresh the notebooks with ``python scripts/run_notebooks.py``
and look at the diff.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path
from typing import Any

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
EXPECTED = ["00_start_here", "01_standard_backgammon", "02_mexican_backgammon", "03_minigam",
            "04_custom_positions", "05_analysis", "06_rule_differences", "07_course", "08_strategy",
            "09_play_and_learn"]

pytestmark = pytest.mark.slow


def _runner() -> Any:
    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run_notebooks = _runner()
PATHS = run_notebooks.notebook_paths()
IDS = [p.stem for p in PATHS]


def test_every_notebook_is_there() -> None:
    assert IDS == EXPECTED


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each notebook executed anew from a copy of notebooks/: {stem: notebook or exception}."""
    work = tmp_path_factory.mktemp("notebooks") / "notebooks"
    shutil.copytree(NOTEBOOKS, work, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    copies = [work / p.name for p in PATHS]
    return {path.stem: nb for path, nb, _secs in run_notebooks.execute_many(copies, jobs=2, cwd=work)}


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_stored_outputs_are_complete(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    unrun = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.get("execution_count") is None]
    errors = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not unrun, f"{path.name}: cells {unrun} have no stored outputs: run python scripts/run_notebooks.py"
    assert not errors, f"{path.name}: cells {errors} stored an error"


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_stored_outputs_are_fresh(path: Path, fresh: dict[str, Any]) -> None:
    nb = fresh[path.stem]
    if isinstance(nb, Exception):
        pytest.fail(f"{path.name} fails to run: {type(nb).__name__}: {str(nb)[-3000:]}")
    stored = nbformat.read(path, as_version=4)
    diff = run_notebooks.differences(stored, nb)
    assert not diff, (f"{path.name} is stale (refresh: python scripts/run_notebooks.py {path.stem}):\n  "
                      + "\n  ".join(diff))


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_every_widget_is_checked(path: Path, fresh: dict[str, Any]) -> None:
    nb = fresh[path.stem]
    if isinstance(nb, Exception):
        pytest.skip("the notebook fails to run (see test_stored_outputs_are_fresh)")
    unchecked = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not run_notebooks.has_widget_view(cell):
            continue
        nxt = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
        if nxt is None or nxt.cell_type != "code" or "assert " not in nxt.source:
            unchecked.append(i)
    assert not unchecked, (f"{path.name}: the widgets shown by cells {unchecked} are not followed by a "
                           "code cell that asserts something about them")


def test_some_widgets_are_shown(fresh: dict[str, Any]) -> None:
    shown = sum(run_notebooks.has_widget_view(c) for nb in fresh.values() if not isinstance(nb, Exception)
                for c in nb.cells)
    assert shown >= 10


# -- the notebooks read as lessons (static checks of the stored files) -----------------------------
def _cells(kind: str) -> list[tuple[str, int, str]]:
    return [(p.stem, i, c.source) for p in PATHS for i, c in enumerate(nbformat.read(p, as_version=4).cells)
            if c.cell_type == kind]


def test_no_helper_code_in_cells() -> None:
    defined = [(nb, i) for nb, i, src in _cells("code") if re.search(r"^\s*(def|class) ", src, re.M)]
    assert not defined, f"cells that define functions or classes (move them to the package): {defined}"


SOLVING = ("choice_buttons", "reason_buttons", "solution_button", "show_solution", "pick_reason", ".answer(",
           "hint_button", "step_clicks", "solve_by_clicks")


def test_no_cell_solves_an_exercise_for_the_learner() -> None:
    code = _cells("code")
    lessons = {(nb, i): re.findall(r"^(\w+) = (?:lesson|course)\(", src, re.M) for nb, i, src in code}
    bad = [(nb, i) for nb, i, src in code if any(s in src for s in SOLVING)]
    for (nb, i), names in lessons.items():
        for name in names:
            for nb2, j, src in code:
                if nb2 == nb and j > i and re.search(rf"\b{name}\b.*\.click\(", src):
                    bad.append((nb2, j))
    assert not bad, f"cells that answer an exercise in the learner's place: {bad}"


def test_every_rule_row_has_exercises_after_a_quote() -> None:
    rows = {"01_standard_backgammon": [f"S{i}" for i in range(1, 5)] + ["S-review"],
            "02_mexican_backgammon": [f"M{i}" for i in range(1, 12)] + ["M-review"],
            "03_minigam": [f"G{i}" for i in range(1, 9)] + ["G-review"]}
    for stem, want in rows.items():
        nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
        found = []
        for i, c in enumerate(nb.cells):
            m = re.search(r'lesson\("([\w-]+)"\)', c.source) if c.cell_type == "code" else None
            if m:
                found.append(m.group(1))
                before = "".join(x.source for x in nb.cells[max(0, i - 12):i] if x.cell_type == "markdown")
                assert "\n> " in "\n" + before, f"{stem}: the exercises of {m.group(1)} follow no quoted rule"
        assert found == want, f"{stem}: lessons {found}, expected {want}"


def test_no_jargon_in_the_text() -> None:
    for nb, i, src in _cells("markdown"):
        for word in ("state machine", "chance node", "RULES.md", "seeds/"):
            assert word not in src, f"{nb} cell {i}: {word!r}"


CODES = re.compile(r"\b(lower_die_first|lower_die_blocked|lower_die_cannot_enter|stack_cap|not_home|"
                   r"bear_off_exact|bear_off_higher|use_both_dice|use_all_moves|larger_die|turn_lost|no_such_die|"
                   r"play_complete|bar_not_empty|high_after_low|mexican_high|no_move|cannot_enter)\b")


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_outputs_hold_no_reason_codes_or_addresses(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for i, c in enumerate(nb.cells):
        for o in c.get("outputs", []):
            texts = [o.get("text", "")] + [v for k, v in o.get("data", {}).items() if k == "text/plain"]
            for t in texts:
                t = "".join(t) if isinstance(t, list) else t
                assert not CODES.search(t), f"{path.name} cell {i}: a reason code in {t[:200]!r}"
                assert not re.search(r" at 0x[0-9a-f]+", t), f"{path.name} cell {i}: a memory address"
