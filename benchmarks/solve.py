"""The Mini-Gam solve, 8 checkers: CPU time and peak memory of the public call ``solve(8)``.

    python benchmarks/solve.py [--ref PATH] [--checkers 8] [--json]

Two fresh processes, one after the other:
  * ``cold``: numba's cache pointed at an empty folder (``NUMBA_CACHE_DIR``), so the solve's kernels
    are compiled inside the call;
  * ``warm``: the same folder again, so they load from the cache.
Each child times ``solve(checkers, progress=False)`` with ``time.process_time()`` (CPU of the whole
process: every thread, user and system) and reports its peak resident set (``ru_maxrss``, imports
included). Goal (issue 18): at most 30 s of CPU and 1 GB. With ``--ref`` (a table saved by
``MiniGamTable.save``, e.g. one built by an older version) it also prints the largest difference
of any value from it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
import numpy as np
from backgammon_lab.analysis.solve import MiniGamTable, solve
w0, c0 = time.perf_counter(), time.process_time()
t = solve(int(sys.argv[1]), progress=False)
cpu, wall = time.process_time() - c0, time.perf_counter() - w0
out = {"cpu_s": cpu, "wall_s": wall, "build_s": t.stats.build_seconds, "state_sweeps": t.stats.state_sweeps,
       "residual": t.stats.residual, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
if sys.argv[2]:
    ref = MiniGamTable.load(sys.argv[2]).values
    out["max_diff"] = float(np.max(np.abs(ref - t.values)))
print(json.dumps(out))
"""


def run(checkers: int, cache: str, ref: str) -> dict[str, Any]:
    """One solve in a child process with numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    res = subprocess.run([sys.executable, "-c", CHILD, str(checkers), ref], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True)
    return json.loads(res.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", default="", help="a saved table to compare the values with")
    ap.add_argument("--checkers", type=int, default=8)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        report = {"cold": run(args.checkers, cache, args.ref), "warm": run(args.checkers, cache, args.ref)}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"solve({args.checkers}), one process each (goal: 30 s CPU, 1 GB)")
    for name, r in report.items():
        diff = f", max |new - ref| {r['max_diff']:.1e}" if "max_diff" in r else ""
        print(f"  {name}: {r['cpu_s']:.1f} s CPU ({r['wall_s']:.1f} s wall, tables {r['build_s']:.1f} s), "
              f"peak {r['peak_mb']:.0f} MB, {r['state_sweeps'] / 1e6:.1f}M state updates, "
              f"last change {r['residual']:.1e}{diff}")


if __name__ == "__main__":
    main()
