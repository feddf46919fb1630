"""The one switch between compiled and plain Python kernels.

:func:`njit` compiles a kernel function with :func:`numba.njit` (``nopython``, the on-disk cache)
when numba can be imported and is not disabled (``NUMBA_DISABLE_JIT=1``, or
``BACKGAMMON_LAB_JIT=0``); otherwise it returns the function unchanged, so the same source runs as
plain Python over numpy arrays. numba is imported by the first kernel, never by this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
_STATE: list[Any] = []  # [numba module or None], filled on first use


def _numba() -> Any:
    if not _STATE:
        mod: Any = None
        if os.environ.get("BACKGAMMON_LAB_JIT", "1") != "0":
            try:  # numba is a required dependency; without it the rules still work, uncompiled
                import numba as mod

                if mod.config.DISABLE_JIT:
                    mod = None
            except ImportError:  # pragma: no cover - a broken or missing numba
                mod = None
        _STATE.append(mod)
    return _STATE[0]


def compiled() -> bool:
    """True when kernels are compiled by numba (imports numba on the first call)."""
    return _numba() is not None


def njit(fn: F) -> F:
    """Compile ``fn`` with numba (``nopython``, cached on disk, releasing the GIL), or leave it as
    plain Python."""
    nb = _numba()
    if nb is None:
        return fn
    return nb.njit(cache=True, nogil=True)(fn)  # type: ignore[no-any-return]



def njit_with(*, error_model: str = "python", fastmath: bool | set[str] = False) -> Callable[[F], F]:
    """A decorator like :func:`njit` with numba's ``error_model`` (``"numpy"``: a division by zero
    is not checked, so a loop with a division vectorizes) and ``fastmath`` flags (e.g.
    ``{"contract"}``: fused multiply-adds; ``"reassoc"``: sums reordered); uncompiled, the
    function unchanged."""

    def deco(fn: F) -> F:
        nb = _numba()
        if nb is None:
            return fn
        return nb.njit(cache=True, nogil=True, error_model=error_model, fastmath=fastmath)(fn)  # type: ignore[no-any-return]

    return deco
