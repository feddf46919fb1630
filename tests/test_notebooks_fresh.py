"""The tutorial notebooks never drift from the code, and every widget they show is checked.

Strict ``pytest --nbval`` compares stored outputs, but only of cells that were executed, and it
cannot look inside a widget. So this test

* re-executes a copy of ``notebooks/`` in a temporary directory (``scripts/run_notebooks.py``, two
  kernels at a time) and compares the outputs cell by cell with the stored ones, ignoring what nbval
  ignores (execution counts, metadata, widget model ids);
* checks that every code cell was executed and stored no error;
* checks that every cell that displays a widget is followed by a code cell that asserts something.

When it fails because the code changed, refresh the notebooks with ``python scripts/run_notebooks.py``
and look at the diff.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
EXPECTED = ["00_start_here", "01_standard_backgammon", "02_mexican_backgammon", "03_minigam",
            "04_custom_positions", "05_analysis", "06_rule_differences"]

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
