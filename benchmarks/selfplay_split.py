"""Where the trainer's time goes (issue 18): the self-play kernel's games with and without learning.

    python benchmarks/selfplay_split.py [--variant standard] [--net PATH] [--games 300] [--lambda 0.7]

One kernel game (``selfplay.kernel(...).play_game``, the loop the trainer runs) with the net at
0-ply on both sides, timed in CPU seconds (``time.process_time``), the best of three rounds of
``--games`` games on the same dice:

* ``choose``: ``learn=False``, the plays chosen only (as a rollout plays them);
* ``choose + learn``: ``learn=True`` with a tiny step size (1e-9, so the games stay those of the
  first row), TD(lambda) with the eligibility traces as the trainer keeps them.

The difference is the learning step's cost per ply. A second ``choose + learn`` row holds the first
layer's trace in float32 (``--float32``), to show how much of that cost is moving the trace through
memory. A benchmark, not a test: it prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np

from backgammon_lab import find_variant
from backgammon_lab.analysis.nets import load_net, shipped_net
from backgammon_lab.analysis.selfplay import dice_seed, kernel, start_board, workspace


def run(variant: str, net_path: str | None, games: int, lam: float, float32: bool) -> dict[str, Any]:
    v = find_variant(variant)
    net = load_net(net_path) if net_path else shipped_net(v)
    if net is None:
        raise SystemExit(f"no net for {variant}")
    k = kernel(v, net.encoding)
    outs, hidden, inputs = len(net.outputs), net.hidden, net.inputs
    ws, start = workspace(v), start_board(v)
    log = np.zeros((0, 8), np.int64)
    rows: dict[str, Any] = {"net": repr(net), "games": games, "lambda": lam, "load": os.getloadavg()[0]}
    cases: list[tuple[str, bool, Any]] = [("choose", False, np.float64), ("choose + learn", True, np.float64)]
    if float32:
        cases.append(("choose + learn, float32 trace", True, np.float32))
    for name, learn, dt in cases:
        w1t, b1, w2, b2 = net.kernel_weights()
        ew = (np.zeros((inputs, outs, hidden), dtype=dt), np.zeros((outs, hidden)), np.zeros((outs, outs, hidden)),
              np.zeros((outs, outs)))
        k.play_game(start, dice_seed(1), 1, learn, w1t, b1, w2, b2, *ew, 1e-9, lam, ws, log)  # compile, warm
        best, plies = float("inf"), 0
        for _ in range(3):
            rng = dice_seed(2)
            t = time.process_time()
            plies = 0
            for _ in range(games):
                plies += int(k.play_game(start, rng, 1, learn, w1t, b1, w2, b2, *ew, 1e-9, lam, ws, log)[2])
            best = min(best, time.process_time() - t)
        rows[name] = {"games_per_s": round(games / best, 1), "us_per_ply": round(best / plies * 1e6, 2),
                      "plies_per_game": round(plies / games, 1)}
    rows["learning step, us per ply"] = round(rows["choose + learn"]["us_per_ply"] - rows["choose"]["us_per_ply"], 2)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="standard")
    p.add_argument("--net", default=None, help="a net file (default: the variant's shipped net)")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--lambda", dest="lam", type=float, default=0.7)
    p.add_argument("--float32", action="store_true", help="also time the first layer's trace in float32")
    a = p.parse_args()
    print(json.dumps(run(a.variant, a.net, a.games, a.lam, a.float32), indent=2))


if __name__ == "__main__":
    main()
