"""Compiled kernels generated from each variant's rule table.

The single-step rules of a variant are the rows of its
:meth:`~backgammon_lab.variants.Variant.step_checks` table. :func:`step_rule_parts` turns the rows
into the few Python expressions the move generators test (which points hold a movable checker,
which moves are refused, which landings, which bear-offs), and :func:`movegen` pastes them into the
whole-turn search of :mod:`backgammon_lab.kernels.movegen_template`, the one search in the package.

The generated source is written to the cache directory (``$XDG_CACHE_HOME/backgammon_lab/kernels``,
one file per distinct rule table, named by a hash of its text) and imported from there, so numba
compiles it once per machine and loads it from its on-disk cache afterwards. Nothing is generated
or compiled when the package is imported: the first search of a variant does it.

With numba absent or disabled (``NUMBA_DISABLE_JIT=1`` or ``BACKGAMMON_LAB_JIT=0``) the same
source runs as plain Python (:func:`compiled` is then false). Importing this package imports
neither numba nor numpy: the first kernel does.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from ..variants import StepCheck, Variant
from ._jit import compiled
from .movegen_template import TEMPLATE

__all__ = ["compiled", "cache_dir", "movegen", "step_rule_parts", "refusal_condition", "kernel_source"]


def cache_dir() -> Path:
    """The user's cache directory for backgammon_lab: ``$XDG_CACHE_HOME/backgammon_lab`` or
    ``~/.cache/backgammon_lab``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "backgammon_lab"


def refusal_condition(c: StepCheck) -> str:
    """A check's whole refusal condition (``when`` and ``refuses``) as one expression."""
    return f"({c.refuses})" if c.when == "True" else f"(({c.when}) and ({c.refuses}))"


def _any(exprs: list[str]) -> str:
    return " or ".join(exprs) or "False"


def step_rule_parts(checks: tuple[StepCheck, ...]) -> dict[str, str]:
    """The step rules of a table as the expressions a generator tests, by the kind of step:

    ``source`` (no movable checker on ``s``), ``move_gate``/``move`` (a board-wide condition and the
    moves it refuses), ``land`` (refused landings), ``off_gate``/``off`` (bear-offs refused for the
    whole board, and step by step). Every generator of the package is filled in from these.
    """
    by = {at: [c for c in checks if c.at == at] for at in ("source", "move", "land", "off")}
    off_board = [c for c in by["off"] if c.refuses == "True"]
    off_step = [c for c in by["off"] if c.refuses != "True"]
    return {
        "source": by["source"][0].refuses,
        "move_gate": _any([f"({c.when})" for c in by["move"]]),
        "move": _any([refusal_condition(c) for c in by["move"]]),
        "land": _any([refusal_condition(c) for c in by["land"]]),
        "off_gate": _any([f"({c.when})" for c in off_board]),
        "off": _any([refusal_condition(c) for c in off_step]),
    }


def _midgame_ok(checks: tuple[StepCheck, ...]) -> bool:
    """The two-dice shortcut holds when a step can neither open nor close a point for another: the
    only landing rule is the block, and no rule of moving but bar-first (kept out by the shortcut's
    own condition, an empty bar)."""
    return ([c.code for c in checks if c.at == "land"] == ["blocked"]
            and all(c.code == "bar_first" for c in checks if c.at == "move"))


def kernel_source(variant: Variant) -> str:
    """The move-generation kernel's source for ``variant`` (see the module docstring)."""
    checks = tuple(variant.step_checks())
    orders = [[[[0, 0]] * 2 for _ in range(7)] for _ in range(7)]
    norders = [[0] * 7 for _ in range(7)]
    for a in range(1, 7):
        for c in range(1, 7):
            got = variant.dice_orders((a, c))
            if a != c:
                if not 1 <= len(got) <= 2 or any(len(o) != 2 for o in got):
                    raise ValueError(f"{variant!r}: dice_orders({(a, c)}) must give one or two orders of two dice")
                orders[a][c] = [list(o) for o in got] + [[0, 0]] * (2 - len(got))
            norders[a][c] = len(got)
    return TEMPLATE.format(
        n=variant.points, home=variant.home,
        cap=variant.stacking_cap if variant.stacking_cap is not None else 0,
        capped=variant.stacking_cap is not None, low_first=bool(variant.low_die_first),
        midgame_ok=_midgame_ok(checks), orders=orders, norders=norders, **step_rule_parts(checks))


_MODULES: dict[str, ModuleType] = {}
_BY_VARIANT: dict[Any, ModuleType] = {}


def _load(kind: str, source: str) -> ModuleType:
    """Write ``source`` to the cache (once) and import it as a module of its own."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    name = f"backgammon_lab_kernels_{kind}_{digest}"
    mod = _MODULES.get(name)
    if mod is not None:
        return mod
    folder = cache_dir() / "kernels"
    path = folder / f"{name}.py"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != source:
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(source)
            os.replace(tmp, path)
    except OSError:  # a read-only home: a private temporary folder (compiled again per process)
        folder = Path(tempfile.mkdtemp(prefix="backgammon_lab_kernels_"))
        path = folder / f"{name}.py"
        path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    _MODULES[name] = mod
    return mod


def movegen(variant: Variant) -> ModuleType:
    """The move-generation kernel of ``variant`` (generated, imported and compiled on first use).

    Its ``search(board, a, b, *workspace())`` returns ``(count, steps)``; see
    :mod:`backgammon_lab.kernels.movegen_template`.
    """
    mod = _BY_VARIANT.get(variant)
    if mod is None:
        mod = _BY_VARIANT[variant] = _load("movegen", kernel_source(variant))
    return mod
