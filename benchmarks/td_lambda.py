"""TD(lambda) against TD(0): what lambda buys in learning and what it costs in speed (issue 18).

    python benchmarks/td_lambda.py [--games 50000 100000 200000 400000] [--hidden 64] [--alpha 0.05]
                                   [--lambdas 0.7 0] [--positions 10000] [--seed 1]

For each lambda, one fresh Mini-Gam net (``--hidden`` units, the same initial weights for every
lambda) is trained by the compiled trainer (:class:`Trainer`, the dice of ``--seed``) and measured
after each number of games in ``--games`` against the exact table (the mean absolute error of the
winning chance on ``--positions`` positions from play, as ``strength.py minigam`` draws them), the
moving average of the weights over 5,000 games and the weights themselves. The training's CPU time
is printed beside, as games per CPU second. With lambda 0 the kernel updates the first layer
without an eligibility trace (a fifth of the work and no trace to move through memory), so the two
differ in speed as in learning. A benchmark, not a test: it prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from strength import minigam_positions, net_errors

from backgammon_lab.analysis.nets import Net
from backgammon_lab.analysis.solve import load_table
from backgammon_lab.analysis.train import Trainer


def curve(lam: float, games: list[int], hidden: int, alpha: float, seed: int, positions: Any) -> dict[str, Any]:
    pos, truth = positions
    net = Net.create("minigam", hidden=hidden, seed=seed)
    tr = Trainer(net, alpha=alpha, lam=lam, seed=seed, average=5000)
    tr.train(1)  # the kernel loads (or compiles) outside the timing
    rows: dict[str, Any] = {}
    cpu = 0.0
    done = 1
    for g in sorted(games):
        t = time.process_time()
        tr.train(g - done)
        cpu += time.process_time() - t
        done = g
        avg = tr.averaged or net
        rows[str(g)] = {"mae average": round(net_errors(avg, pos, truth)["mae"], 5),
                        "mae weights": round(net_errors(net, pos, truth)["mae"], 5),
                        "games per CPU s": round((g - 1) / cpu, 1)}
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, nargs="+", default=[50000, 100000, 200000, 400000])
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--lambdas", type=float, nargs="+", default=[0.7, 0.0])
    ap.add_argument("--positions", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    table = load_table()
    positions = minigam_positions(table, args.positions, 0)["from play"]
    out: dict[str, Any] = {"hidden": args.hidden, "alpha": args.alpha, "seed": args.seed}
    for lam in args.lambdas:
        out[f"lambda {lam:g}"] = curve(lam, args.games, args.hidden, args.alpha, args.seed, positions)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
