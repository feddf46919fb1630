"""The one switch between compiled and plain Python kernels.

``njit`` is :func:`numba.njit` with the on-disk cache when numba can be imported and is not
disabled (``NUMBA_DISABLE_JIT=1``, or ``BACKGAMMON_LAB_JIT=0``); otherwise it returns the function
unchanged, so the same source runs as plain Python over numpy arrays.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

try:  # numba is a required dependency; the fallback keeps the rules working where it cannot load
    if os.environ.get("BACKGAMMON_LAB_JIT", "1") == "0":
        raise ImportError("disabled by BACKGAMMON_LAB_JIT=0")
    import numba as _numba

    COMPILED: bool = not _numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover - exercised by the NUMBA-free CI subset
    _numba = None
    COMPILED = False


def njit(fn: F) -> F:
    """Compile ``fn`` with numba (``nopython``, cached on disk), or leave it as plain Python."""
    if not COMPILED or _numba is None:
        return fn
    return _numba.njit(cache=True, nogil=True)(fn)  # type: ignore[no-any-return]
