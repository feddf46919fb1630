"""Every example in the package's docstrings runs (docs code examples run as tests)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import backgammon_lab

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(backgammon_lab.__path__, "backgammon_lab.")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
