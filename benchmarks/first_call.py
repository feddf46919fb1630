"""The first call's cost: a cold compile cache, then a warm one (issue 18).

    python benchmarks/first_call.py [--variants standard mexican]

Runs a fresh Python process twice on one new, empty cache directory (``XDG_CACHE_HOME``, where the
generated kernels and numba's compiled code go): the first finds the cache cold and compiles, the
second loads what the first left. Each process times, in wall and CPU seconds, ``import
backgammon_lab``, then the first ``hint()`` of each variant (the 3-1 from the start at the default
options: the move generator, the self-play kernel with the shipped net's encoding, the search and
the bear-off database are all built or loaded by it), then a second ``hint()`` of another roll, which
shows the call's own cost once everything is loaded. The figures are printed side by side as one
JSON object. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

_CHILD = r"""
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import backgammon_lab
from backgammon_lab import Position
from backgammon_lab.analysis.hints import hint
out = {"import": [time.perf_counter() - t0, time.process_time() - c0]}
for name in sys.argv[1:]:
    pos = Position.start(name)
    t, c = time.perf_counter(), time.process_time()
    hint(pos, (3, 1))
    out[f"{name} first hint()"] = [time.perf_counter() - t, time.process_time() - c]
    t, c = time.perf_counter(), time.process_time()
    hint(pos, (6, 4))
    out[f"{name} second hint()"] = [time.perf_counter() - t, time.process_time() - c]
print(json.dumps(out))
"""


def run(variants: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        rows: dict[str, Any] = {}
        for label in ("cold cache", "warm cache"):
            proc = subprocess.run([sys.executable, "-c", _CHILD, *variants], capture_output=True, text=True, env=env,
                                  check=True)
            got = json.loads(proc.stdout.strip().splitlines()[-1])
            rows[label] = {k: {"wall s": round(w, 2), "CPU s": round(c, 2)} for k, (w, c) in got.items()}
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", nargs="+", default=["standard", "mexican"])
    args = ap.parse_args()
    print(json.dumps(run(args.variants), indent=2))


if __name__ == "__main__":
    main()
