"""The code stays ruff clean (the rules in pyproject.toml), so CI catches what an editor missed."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_clean() -> None:
    if importlib.util.find_spec("ruff") is None and shutil.which("ruff") is None:
        pytest.skip("ruff is not installed")
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise",
                        "backgammon_lab", "tests", "benchmarks", "docs", "scripts"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_clean() -> None:
    """The package type-checks (the settings in pyproject.toml's [tool.mypy])."""
    pytest.importorskip("mypy")
    r = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"),
                        "backgammon_lab"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
