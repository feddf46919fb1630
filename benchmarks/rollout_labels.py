"""How far the standard net is from rollout labels of its own 0-ply bot and of its 1-ply bot (issue 19).

    python benchmarks/rollout_labels.py [--positions 600] [--ply1] [--luck] [--seed 991]

Positions before a roll from the shipped net's self-play (10% random actions, ``--seed``). Each is
labelled twice by ``rollout_rows`` (36 stratified games of the 0-ply bot, truncated after 7 turns
and valued by the net; dice seeds 1 and 2), and with ``--ply1`` once more by ``rollout()`` with
the 1-ply ``NetBot`` on the dice of the first set (the engine path: a 1-ply bot does not run in
the kernel). Prints, in cubeless equity: the labels' noise (the mean absolute difference of the two
0-ply sets divided by the square root of 2), the net's mean absolute distance from each label set,
and the CPU seconds a position of each kind of label took. ``--luck``: every label with each roll's
luck taken off (``luck=True``, measured by the net).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import equity, shipped_net
from backgammon_lab.analysis.options import Options
from backgammon_lab.analysis.rollout import hash_seed, rollout, rollout_rows, sample_positions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--seed", type=int, default=991)
    ap.add_argument("--ply1", action="store_true", help="also label by the 1-ply bot's rollouts")
    ap.add_argument("--luck", action="store_true", help="take each roll's luck off every label")
    args = ap.parse_args(argv)
    net = shipped_net("standard")
    pos = sample_positions("standard", args.positions, NetBot(net), seed=args.seed, explore=0.1)
    c = time.process_time()
    a = equity(rollout_rows(pos, NetBot(net), games=36, truncate=7, seed=1, luck=args.luck))
    per0 = (time.process_time() - c) / len(pos)
    b = equity(rollout_rows(pos, NetBot(net), games=36, truncate=7, seed=2, luck=args.luck))
    n = equity(net.evaluate([p.board() for p in pos], [p.opponent_off for p in pos]))
    out = {"positions": len(pos), "luck taken off": args.luck, "label noise": round(float(np.abs(a - b).mean() / np.sqrt(2)), 4),
           "net to 0-ply labels": round(float(np.abs(n - a).mean()), 4),
           "0-ply label CPU s a position": round(per0, 4)}
    if args.ply1:
        bot1 = NetBot(net, Options(ply=1))
        c = time.process_time()
        one = np.array([rollout(p, Options(games=36, seed=hash_seed(1, j, 3), truncate=7, bot=bot1, evaluator=net,
                                           luck=args.luck), stratify=True).points for j, p in enumerate(pos)])
        out["1-ply label CPU s a position"] = round((time.process_time() - c) / len(pos), 3)
        out["net to 1-ply labels"] = round(float(np.abs(n - one).mean()), 4)
        out["0-ply to 1-ply labels, same dice"] = round(float(np.abs(a - one).mean()), 4)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
