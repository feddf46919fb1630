"""Shared pytest fixtures.

Browser tests run Playwright against Debian's Chromium (``playwright install`` cannot download a
browser on the project's machines; ``scripts/setup.sh`` installs Debian's ``chromium``):
pytest-playwright has no command-line option for an executable, so its session fixture
``browser_type_launch_args`` is overridden below.

No test writes to the learner's data folder, where the strategy course keeps its progress by
itself: ``BACKGAMMON_LAB_DATA`` names a fresh folder under a temporary one for each test, and
for each notebook (set before its kernel starts, which inherits it).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: The environment variable the course reads its data folder from (lessons.review.DATA_ENV).
DATA_ENV = "BACKGAMMON_LAB_DATA"
DATA_ROOT = Path(tempfile.mkdtemp(prefix="bgl-data-"))
os.environ[DATA_ENV] = str(DATA_ROOT / "session")
atexit.register(shutil.rmtree, DATA_ROOT, ignore_errors=True)


def _folder(name: str) -> str:
    return str(DATA_ROOT / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[-120:])


@pytest.fixture(autouse=True)
def _learner_data_folder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test's own data folder (made only when something is saved in it)."""
    monkeypatch.setenv(DATA_ENV, _folder(request.node.nodeid))
    yield


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A notebook's cells (nbval) get the notebook's own data folder before its kernel starts."""
    if str(item.fspath).endswith(".ipynb"):
        os.environ[DATA_ENV] = _folder(Path(str(item.fspath)).name)

#: Debian's Chromium; the binary first (it skips a harmless warning of the shell wrapper).
#: ``CHROMIUM_PATHS`` (space-separated) replaces the list, as in scripts/test.sh.
CHROMIUM_CANDIDATES = tuple(os.environ.get("CHROMIUM_PATHS", "/usr/lib/chromium/chromium /usr/bin/chromium").split())
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]


def chromium_path() -> str | None:
    """The Chromium executable to drive, or None when it is not installed."""
    for path in CHROMIUM_CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch options plus Debian's Chromium and the arguments that work headless."""
    path = chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    args = list(browser_type_launch_args.get("args", [])) + CHROMIUM_ARGS
    return {**browser_type_launch_args, "executable_path": path, "args": args}
