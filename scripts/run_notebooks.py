"""Execute the tutorial notebooks and store their outputs, so strict ``pytest --nbval`` passes.

    python scripts/run_notebooks.py                 # every notebooks/*.ipynb, in place
    python scripts/run_notebooks.py 02_mexican_backgammon 05_analysis
    python scripts/run_notebooks.py --check         # re-execute copies; report stale notebooks
    python scripts/run_notebooks.py --allow-errors  # debugging: store errors too, list them, exit 1

Each notebook runs top to bottom in a fresh ``python3`` kernel whose working directory is
``notebooks/`` (as under nbval), and the outputs are written back into the ``.ipynb``. Three things
are left out of what is stored, because nbval never compares them and they would change on every
run for no reason:

* timing metadata (``record_timing=False``);
* the widget state in the notebook metadata (``store_widget_state=False``: it holds random model
  ids and a copy of every picture);
* the ``application/vnd.jupyter.widget-view+json`` part of a widget's output. It only names a
  random model id of a kernel that no longer exists; the ``text/plain`` part (the widget's
  deterministic ``repr``) is kept, and nbval compares that. Run the notebook to get live widgets.

And consecutive pieces of one stream (stdout or stderr) of a cell are stored as one output: how a
kernel splits printed text into messages depends on timing (nbval joins them before comparing too).

So running this script twice with unchanged code leaves the files byte for byte unchanged.
``tests/test_notebooks_fresh.py`` uses :func:`execute` and :func:`comparable` from here.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
KERNEL = "python3"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Seconds a single cell may run (the whole run of every notebook takes well under a minute).
CELL_TIMEOUT = 300


def notebook_paths(names: list[str] | None = None, folder: Path = NOTEBOOKS) -> list[Path]:
    """The notebooks to run: all ``*.ipynb`` in ``folder`` (sorted), or those named (stem or file)."""
    every = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    if not names:
        return every
    out = []
    for name in names:
        stem = Path(name).name.removesuffix(".ipynb")
        match = [p for p in every if p.stem == stem]
        if not match:
            raise SystemExit(f"run_notebooks: no notebook {name!r} in {folder}")
        out.extend(match)
    return out


def strip_widget_views(nb: Any) -> Any:
    """Drop the widget-view mime part of every output (see the module docstring); returns ``nb``."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data and WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
    nb.metadata.pop("widgets", None)
    return nb


def merge_streams(nb: Any) -> Any:
    """Join consecutive outputs of the same stream in every cell (see the module docstring)."""
    for cell in nb.cells:
        merged: list[Any] = []
        for out in cell.get("outputs", []):
            prev = merged[-1] if merged else None
            if (out.get("output_type") == "stream" and prev is not None
                    and prev.get("output_type") == "stream" and prev.get("name") == out.get("name")):
                prev["text"] = "".join(prev["text"]) + "".join(out["text"])
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged
    return nb


def has_widget_view(cell: Any) -> bool:
    """True when a code cell's outputs display a widget."""
    return any(WIDGET_VIEW in out.get("data", {}) for out in cell.get("outputs", []))


async def execute_async(path: Path, cwd: Path | None = None, allow_errors: bool = False) -> Any:
    """Run the notebook at ``path`` in a fresh kernel (working directory ``cwd``, default its folder).

    Returns the executed notebook node; widget views are still in it (see :func:`strip_widget_views`).
    The kernel keeps the learner's data (the courses' own progress files) in a fresh temporary
    folder (``BACKGAMMON_LAB_DATA``), never in the user's data folder.
    """
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name=KERNEL,
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(cwd or path.parent)}},
        store_widget_state=False,
        record_timing=False,
        allow_errors=allow_errors,
    )
    with tempfile.TemporaryDirectory(prefix="bgl-data-") as data:
        await client.async_execute(env={**os.environ, "BACKGAMMON_LAB_DATA": data})
    return nb


def _run(coro: Any) -> Any:
    """``asyncio.run`` that also works where an event loop is already running in this thread
    (pytest-playwright's sync API leaves one behind): then the coroutine runs in a new thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def execute(path: Path, cwd: Path | None = None) -> Any:
    """Synchronous :func:`execute_async`."""
    return _run(execute_async(path, cwd))


async def _run_all(paths: list[Path], jobs: int, cwd: Path | None,
                   allow_errors: bool = False) -> list[tuple[Path, Any, float]]:
    sem = asyncio.Semaphore(max(jobs, 1))

    async def one(p: Path) -> tuple[Path, Any, float]:
        async with sem:
            t0 = time.perf_counter()
            try:
                nb: Any = await execute_async(p, cwd, allow_errors)
            except Exception as e:  # noqa: BLE001 - reported per notebook by the caller
                nb = e
            return p, nb, time.perf_counter() - t0

    return list(await asyncio.gather(*(one(p) for p in paths)))


def execute_many(paths: list[Path], jobs: int = 2, cwd: Path | None = None,
                 allow_errors: bool = False) -> list[tuple[Path, Any, float]]:
    """Execute several notebooks, ``jobs`` kernels at a time: ``[(path, executed nb, seconds)]``.

    A notebook that fails gives its exception in place of the notebook."""
    return _run(_run_all(paths, jobs, cwd, allow_errors))


# -- comparing outputs as nbval does ----------------------------------------------------------
_SKIP_DATA = {WIDGET_VIEW}


def _coalesce(outputs: list[Any]) -> list[Any]:
    """Merge consecutive stream outputs of the same stream (as nbval does)."""
    out: list[Any] = []
    for o in outputs:
        if o.get("output_type") == "stream" and out and out[-1][0] == "stream" and out[-1][1] == o["name"]:
            out[-1] = ("stream", o["name"], out[-1][2] + o["text"])
        elif o.get("output_type") == "stream":
            out.append(("stream", o["name"], o["text"]))
        elif o.get("output_type") == "error":
            out.append(("error", o.get("ename"), o.get("evalue")))
        else:  # display_data, execute_result: compared by their data, as nbval does
            data = {k: v for k, v in o.get("data", {}).items() if k not in _SKIP_DATA}
            out.append(("data", tuple(sorted((k, v if isinstance(v, str) else "".join(v) if
                                              isinstance(v, list) else repr(v)) for k, v in data.items()))))
    return out


def comparable(nb: Any) -> list[tuple[int, list[Any]]]:
    """Per code cell: ``(cell index, outputs)`` with what nbval ignores left out (execution counts,
    metadata, widget model ids), streams merged."""
    return [(i, _coalesce(c.get("outputs", []))) for i, c in enumerate(nb.cells) if c.cell_type == "code"]


def differences(stored: Any, fresh: Any) -> list[str]:
    """Readable differences between the stored and freshly computed outputs of one notebook."""
    problems = []
    a, b = comparable(stored), comparable(fresh)
    if [i for i, _ in a] != [i for i, _ in b]:
        return ["the cells differ (the notebook changed while running?)"]
    for (i, old), (_, new) in zip(a, b, strict=True):
        if old != new:
            src = "".join(stored.cells[i].source).splitlines()[:1]
            problems.append(f"cell {i} ({src[0][:60] if src else ''!r}): stored {_short(old)} != fresh {_short(new)}")
    for i, c in enumerate(stored.cells):
        if c.cell_type == "code" and c.get("execution_count") is None:
            problems.append(f"cell {i} was never executed (nbval would not compare its outputs)")
    return problems


def _short(outs: list[Any], width: int = 300) -> str:
    text = repr(outs)
    return text if len(text) <= width else text[: width - 1] + "…"


def check(paths: list[Path], jobs: int = 2) -> dict[str, list[str]]:
    """Re-execute copies of ``paths`` in a temporary folder; ``{name: differences}`` for stale ones."""
    stale: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="nbcheck-") as tmp:
        work = Path(tmp) / "notebooks"
        shutil.copytree(paths[0].parent, work, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        copies = [work / p.name for p in paths]
        for (_copy, fresh, _secs), original in zip(execute_many(copies, jobs, work), paths, strict=True):
            if isinstance(fresh, Exception):
                stale[original.name] = [f"it fails to run: {type(fresh).__name__}: {str(fresh)[-2000:]}"]
                continue
            stored = nbformat.read(original, as_version=4)
            diff = differences(stored, fresh)
            if diff:
                stale[original.name] = diff
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="notebook names (default: all in notebooks/)")
    parser.add_argument("--check", action="store_true",
                        help="do not write: re-execute copies and list notebooks whose stored outputs are stale")
    parser.add_argument("--allow-errors", action="store_true",
                        help="debugging: go on after a failing cell, store the error, list the errors, exit 1")
    parser.add_argument("-j", "--jobs", type=int, default=min(os.cpu_count() or 1, 4),
                        help="kernels run at once (default: the number of cores, at most 4)")
    args = parser.parse_args(argv)
    paths = notebook_paths(args.names)
    if not paths:
        print("run_notebooks: no notebooks found", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    if args.check:
        stale = check(paths, args.jobs)
        for name, diff in stale.items():
            print(f"{name}: stale")
            for line in diff:
                print(f"  {line}")
        print(f"run_notebooks: {len(paths) - len(stale)} of {len(paths)} notebooks up to date "
              f"({time.perf_counter() - t0:.1f} s)")
        return 1 if stale else 0
    errors = 0
    for path, nb, secs in execute_many(paths, args.jobs, NOTEBOOKS, args.allow_errors):
        if isinstance(nb, Exception):
            errors += 1
            print(f"{path.name}: FAILED after {secs:.1f} s, not written:\n{nb}", file=sys.stderr)
            continue
        for i, cell in enumerate(nb.cells):
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    errors += 1
                    print(f"{path.name}: cell {i}: {out.get('ename')}: {out.get('evalue')}", file=sys.stderr)
        before = path.read_text(encoding="utf-8")
        strip_widget_views(nb)
        merge_streams(nb)
        nbformat.validate(nb)
        text = nbformat.writes(copy.deepcopy(nb)) + "\n"
        changed = text != before
        if changed:
            path.write_text(text, encoding="utf-8")
        print(f"{path.name}: {secs:.1f} s{'' if changed else ' (unchanged)'}")
    print(f"run_notebooks: {len(paths)} notebooks in {time.perf_counter() - t0:.1f} s"
          + (f"; {errors} cell(s) failed" if errors else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
