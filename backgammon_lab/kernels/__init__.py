"""Compiled kernels: the one whole-turn search, and the generated self-play and bear-off kernels.

:mod:`backgammon_lab.kernels.movegen` is a plain module of compiled functions: the single-step
rules (each one small function) and the whole-turn search, compiled once for every variant; a
variant's facts reach them as its rule row (:func:`~backgammon_lab.kernels.movegen.rule_row`).
:func:`move_kernel` binds the search to one variant. The board row's slots are named in
:mod:`backgammon_lab.kernels.layout`.

The self-play and bear-off kernels are still filled in from templates per variant and encoding
(:mod:`backgammon_lab.analysis.selfplay_template`): :func:`_load` writes such a source to the cache
directory (``$XDG_CACHE_HOME/backgammon_lab/kernels``, one file per distinct text, named by its
hash) and imports it, so numba compiles it once per machine.

With numba absent or disabled (``NUMBA_DISABLE_JIT=1`` or ``BACKGAMMON_LAB_JIT=0``) the same
code runs as plain Python (:func:`compiled` is then false). Importing this package imports
neither numba nor numpy: the first kernel does.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ._jit import compiled

__all__ = ["compiled", "cache_dir", "move_kernel", "MoveKernel"]


def cache_dir() -> Path:
    """The user's cache directory for backgammon_lab: ``$XDG_CACHE_HOME/backgammon_lab`` or
    ``~/.cache/backgammon_lab``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "backgammon_lab"


class MoveKernel:
    """The compiled whole-turn search (:mod:`backgammon_lab.kernels.movegen`) bound to one
    variant's rule row ``rules`` (read-only, so that compiled callers holding it as a constant and
    Python callers share one compiled version)."""

    __slots__ = ("variant", "rules", "points", "width", "np", "search", "_mod")

    def __init__(self, variant: Any) -> None:
        from . import movegen as mod

        self._mod = mod
        self.np = mod.np
        self.variant = variant
        self.points = variant.points
        self.width = mod.width_of(variant.points)
        r = mod.rule_row(variant)
        r.flags.writeable = False
        self.rules = r
        #: ``search(b, a, c, *ws)``: the legal plays of ``a``-``c`` from the int8 board ``b`` into
        #: the workspace ``ws`` (the compiled search with this row bound: no Python frame between)
        self.search: Callable[..., tuple[int, int]] = functools.partial(mod.search, r)

    def step_boards(self, b: Any, d: int, ss: Any, ts: Any, hs: Any, out: Any) -> int:
        """The single steps of die ``d`` from ``b`` and the boards they lead to."""
        return self._mod.step_boards(self.rules, b, d, ss, ts, hs, out)  # type: ignore[no-any-return]

    def judge(self, b: Any, s: int, d: int) -> tuple[int, int, int, int]:
        """``(i, t, x, hi)``: the place in the step table of the rule refusing the step (-1: none)."""
        return self._mod.judge(self.rules, b, s, d)  # type: ignore[no-any-return]

    def workspace(self) -> tuple[Any, ...]:
        """Fresh buffers for :meth:`search` (one set per thread)."""
        return self._mod.workspace(self.points)  # type: ignore[no-any-return]


_BY_VARIANT: dict[Any, MoveKernel] = {}


def move_kernel(variant: Any) -> MoveKernel:
    """The whole-turn search bound to ``variant`` (numba compiles it on the first search of any
    variant, or loads it from its cache)."""
    got = _BY_VARIANT.get(variant)
    if got is None:
        got = _BY_VARIANT[variant] = MoveKernel(variant)
    return got


_MODULES: dict[str, ModuleType] = {}


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
