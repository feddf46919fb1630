"""Small random nets shaped like a variant's shipped net, for tests that need *a* net.

numba compiles a kernel module for each variant and encoding, and a specialization of each kernel
function for each type of weights (a second hidden layer travels in float32, a single layer's output
weights in float64). ``scripts/setup.sh`` compiles those of the shipped nets
(``scripts/precompile.py``). A test net with the shipped net's encoding and layers runs on that
compiled code; a net of another encoding or of other layers makes numba compile again, which on a
bare machine costs tens of seconds a test. Tests about an encoding or a layer shape make their nets
with ``Net.create`` and say so; the others use :func:`small_net`.
"""
from __future__ import annotations

from functools import cache

from backgammon_lab import find_variant
from backgammon_lab.analysis.nets import Net, shipped_net
from backgammon_lab.variants import Variant


@cache
def _shipped_shape(variant: Variant) -> tuple[str | None, bool]:
    net = shipped_net(variant)
    return (None, False) if net is None else (net.encoding, net.hidden2 > 0)


def small_net(variant: str | Variant, hidden: int = 8, *, seed: int = 0, hidden2: int | None = None) -> Net:
    """A fresh ``hidden``-unit net for ``variant`` with its shipped net's encoding, and a second hidden
    layer (``hidden2`` units, default half of ``hidden``) when the shipped net has one; a variant
    without a shipped net gets ``Net.create``'s defaults. ``hidden2=0`` asks for one layer."""
    v = find_variant(variant)
    encoding, two = _shipped_shape(v)
    if hidden2 is None:
        hidden2 = max(1, hidden // 2) if two else 0
    return Net.create(v, hidden=hidden, seed=seed, encoding=encoding, hidden2=hidden2)
