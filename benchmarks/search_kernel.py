"""The compiled whole-turn search of this tree beside a baseline commit's, in one run.

Usage::

    python benchmarks/search_kernel.py --baseline 4d27c7c [--boards 3000] [--rounds 3]

The baseline tree is extracted with ``git archive REV`` into a temporary folder. Each tree is timed
in its own subprocess (the same Python, alternating rounds), calling its kernel's ``search`` from
Python on the same seeded random boards of each variant (``tests/randpos.py``), in CPU seconds;
the best round of each is printed with the ratio. Both trees' kernels are compiled (or loaded from
their caches) before any timing. Works with the generated kernels (``kernels.movegen(variant)``)
and with the module of plain functions (``kernels.move_kernel(variant)``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1] + "/tests")
import numpy as np
from randpos import random_board
from backgammon_lab import find_variant
import backgammon_lab.kernels as K
out = {}
for name in ("standard", "mexican", "minigam"):
    v = find_variant(name)
    kern = K.move_kernel(v) if hasattr(K, "move_kernel") else K.movegen(v)
    ws = kern.workspace()
    rng = random.Random(3)
    boards = [(np.array(random_board(v, rng), np.int8), rng.randint(1, 6), rng.randint(1, 6))
              for _ in range(int(sys.argv[2]))]
    kern.search(boards[0][0], 3, 1, *ws)
    kern.search(boards[0][0], 2, 2, *ws)
    best = 0.0
    for _ in range(5):
        t = time.process_time()
        for b, a, c in boards:
            kern.search(b, a, c, *ws)
        best = max(best, len(boards) / (time.process_time() - t))
    out[name] = best
print(json.dumps(out))
"""


def run(tree: Path, boards: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    got = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(boards)], env=env, cwd=tree,
                         capture_output=True, text=True, check=True)
    return json.loads(got.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="a commit (or any git revision)")
    ap.add_argument("--boards", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "base.tar"
        with archive.open("wb") as fh:
            subprocess.run(["git", "-C", str(ROOT), "archive", args.baseline], stdout=fh, check=True)
        base = Path(tmp) / "base"
        with tarfile.open(archive) as tf:
            tf.extractall(base, filter="data")
        best: dict[str, dict[str, float]] = {"baseline": {}, "this tree": {}}
        for _ in range(args.rounds):
            for label, tree in (("baseline", base), ("this tree", ROOT)):
                for k, rate in run(tree, args.boards).items():
                    best[label][k] = max(best[label].get(k, 0.0), rate)
    print(f"compiled search from Python, positions a CPU second (best of {args.rounds} rounds of 5)")
    print(f"{'variant':<10} {'baseline ' + args.baseline:>20} {'this tree':>12} {'ratio':>7}")
    for k in best["this tree"]:
        a, b = best["baseline"][k], best["this tree"][k]
        print(f"{k:<10} {a:>20,.0f} {b:>12,.0f} {b / a:>7.3f}")


if __name__ == "__main__":
    main()
