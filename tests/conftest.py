"""Shared pytest fixtures.

Browser tests run Playwright against Debian's Chromium (``playwright install`` cannot download a
browser on the project's machines; ``scripts/setup.sh`` installs Debian's ``chromium``):
pytest-playwright has no command-line option for an executable, so its session fixture
``browser_type_launch_args`` is overridden below.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

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
