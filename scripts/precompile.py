"""Compile the kernels a user's first hint, rollout and game need, once per machine (scripts/setup.sh).

    python scripts/precompile.py [--workers 3]

numba compiles each generated kernel module into the user's cache the first time it is used (see
``backgammon_lab.kernels``), which takes minutes on a bare machine. This script does that ahead of
time through the public calls, for each variant's shipped net: ``hint()`` at 0, 1 and 2 ply (the
search), ``opening_hint()``, a short ``rollout()`` of the net's bot (the rollout kernel), truncated
and with the luck taken off, and ``Net.evaluate``. The variants are spread over ``--workers``
processes (default: one a variant, three, however many cores there are: on two cores the system
shares them, and the last variant ends sooner than it would queued behind another; 229 s against
238 s with two processes on a cold cache, one run each, 7 December), and the
first use afterwards loads the compiled code from the cache in seconds. It prints each variant's
CPU time. (``python -m backgammon_lab.analysis.train`` does the same for the trainer's kernels.)
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def warm(variant: str) -> tuple[str, float]:
    """Run each public call once for ``variant`` with its shipped net; the CPU seconds it took."""
    t = time.process_time()
    from backgammon_lab import Position
    from backgammon_lab.analysis.hints import hint, opening_hint
    from backgammon_lab.analysis.netbot import NetBot
    from backgammon_lab.analysis.nets import shipped_net
    from backgammon_lab.analysis.options import Options
    from backgammon_lab.analysis.rollout import rollout

    start = Position.start(variant)
    net = shipped_net(variant)
    if net is None:  # no shipped net (nothing of the net's to compile)
        return variant, time.process_time() - t
    net.evaluate([start.board()], [0])
    for ply in (0, 1, 2):
        hint(start, (3, 1), Options(ply=ply, evaluator=net))
    if variant == "mexican":
        opening_hint(start, (3, 1), Options(ply=1, evaluator=net))
    bot = NetBot(net)
    rollout(start, Options(games=2, seed=1, bot=bot))
    rollout(start, Options(games=2, seed=1, bot=bot, evaluator=net, truncate=2, luck=True))
    return variant, time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=3)
    args = ap.parse_args(argv)
    variants = ["standard", "mexican", "minigam"]
    from backgammon_lab.kernels import compiled

    if not compiled():
        print("precompile: numba is missing or disabled: nothing to compile", file=sys.stderr)
        return 0
    t = time.perf_counter()
    if args.workers <= 1:
        done = [warm(v) for v in variants]
    else:
        with ProcessPoolExecutor(args.workers) as ex:
            done = list(ex.map(warm, variants))
    for v, cpu in done:
        print(f"precompile: {v}: {cpu:.0f} s of CPU", file=sys.stderr)
    print(f"precompile: the kernels are ready in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
