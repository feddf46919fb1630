"""backgammon_lab.analysis: one entry point for the public analysis API, loaded name by name."""

from __future__ import annotations

import subprocess
import sys

import pytest

import backgammon_lab.analysis as analysis


def test_the_public_names_are_the_table_of_where_they_live() -> None:
    assert analysis.__all__ == sorted(analysis._WHERE)
    for name, where in analysis._WHERE.items():
        value = getattr(analysis, name)
        module = sys.modules[f"backgammon_lab.analysis.{where}"]
        assert getattr(module, name) is value, name
        assert name in dir(analysis)


def test_importing_the_package_loads_no_analysis_module_nor_numpy() -> None:
    code = ("import sys, backgammon_lab.analysis as a; "
            "print(sorted(m for m in sys.modules if m.startswith('backgammon_lab.analysis.') or m == 'numpy'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="'no_such_thing'"):
        analysis.no_such_thing  # noqa: B018


def test_no_public_name_is_also_a_module_of_the_package() -> None:
    """A name shared with a module would turn into the module once the module is imported."""
    from pathlib import Path

    modules = {p.stem for p in Path(analysis.__file__).parent.glob("*.py")}
    assert not modules & set(analysis.__all__)
