"""Where the time of choosing a play goes (issue 18): the net at 0-ply valuing a roll's plays.

    python benchmarks/choose_split.py [--variant standard] [--decisions 600] [--seed 5] [--net NET]

Choosing a play is what a rollout game and the trainer spend most of their time on. This times, in
CPU seconds (the best of three rounds), one compiled loop over the same decisions (positions from
the shipped net's self-play, with random dice) stopped at four stages, each doing one part more:

* ``move generation``: the roll's plays (``plays_of``);
* ``+ expert inputs``: and each play's inputs after the points (``encode_tail``);
* ``+ incremental sums``: and each play's hidden pre-activations from the base position's
  (``inc_base``, ``pre_inc``: the inputs that differ found and their columns added);
* ``full``: and each play's sigmoid row and outputs (``value_inc``, what ``best_play`` runs); with
  a net of two hidden layers (``--net``, a net file instead of the shipped one) the second layer's
  product is part of this stage.

The differences give each part's cost per decision and per candidate play. It also counts how many
inputs differ from the base, among the points' inputs and among those after them. A benchmark, not
a test: it prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from numba import njit

from backgammon_lab import find_variant
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import load_net, shipped_net
from backgammon_lab.analysis.rollout import sample_positions
from backgammon_lab.analysis.selfplay import kernel, workspace
from backgammon_lab.position import WHITE


def build(k: Any, nout: int) -> dict[str, Any]:
    """The timed loops, compiled against kernel module ``k``, for a net of ``nout`` outputs."""
    plays_of, inc_scratch, inc_base, value_inc = k.plays_of, k.inc_scratch, k.inc_base, k.value_inc
    pre_inc, swap, encode_tail, encode = k.pre_inc, k.swap, k.encode_tail, k.encode

    @njit
    def walk(B, OF, A, C, ws, w1, b1, w2, b2, stage):
        """Stage 0: each roll's plays; 1: and each play's later inputs; 2: and its hidden sums
        from the base's; 3: and its values (value_inc, as best_play runs it)."""
        ic = inc_scratch(w1, w2, b2)
        out = np.empty(nout)
        t = 0.0
        for r in range(B.shape[0]):
            cnt, _used, kind = plays_of(B[r], A[r], C[r], False, ws)
            if stage == 0:
                t += cnt
                continue
            same = kind != 0
            if stage >= 2:
                inc_base(B[r], OF[r], same, w1, b1, ic)
            for i in range(cnt):
                if stage == 3:
                    value_inc(ws[0][i], OF[r], same, w1, w2, b2, ic, out)
                    t += out[0]
                    continue
                if same:  # the side to act next sees the board as it is
                    ic.sb[:] = ws[0][i]
                    so = OF[r]
                else:
                    so = swap(ws[0][i], OF[r], ic.sb)
                if stage == 1:
                    encode_tail(ic.sb, so, ic.x)
                    t += ic.x[-1]
                else:
                    pre_inc(ic.sb, so, ic, w1)
                    t += ic.z[0]
        return t

    @njit
    def differ(B, OF, A, C, ws, nin, tail0):
        x0 = np.zeros(nin)
        x1 = np.zeros(nin)
        sb = np.empty(B.shape[1], np.int8)
        bb = np.empty(B.shape[1], np.int8)
        head = 0
        after = 0
        n = 0
        for r in range(B.shape[0]):
            cnt, _used, kind = plays_of(B[r], A[r], C[r], False, ws)
            if kind != 0:
                continue
            encode(bb, swap(B[r], OF[r], bb), x0)
            for i in range(cnt):
                encode(sb, swap(ws[0][i], OF[r], sb), x1)
                n += 1
                for j in range(nin):
                    if x1[j] != x0[j]:
                        if j < tail0:
                            head += 1
                        else:
                            after += 1
        return head / max(n, 1), after / max(n, 1)

    return {"walk": walk, "differ": differ}


def run(variant: str, decisions: int, seed: int, path: str | None = None) -> dict[str, Any]:
    v = find_variant(variant)
    net = load_net(path) if path else shipped_net(v)
    if net is None or net.variant != v:
        raise SystemExit(f"{variant}: no shipped net" if net is None else f"{path!r} is not a {variant} net")
    k = kernel(v, net.encoding)
    pos = [p for p in sample_positions(v, decisions, NetBot(net), seed=seed) if not p.is_over]
    B = np.array([p.board() for p in pos], np.int8)
    OF = np.array([p.off[1 if p.turn == WHITE else 0] for p in pos], np.int64)
    rng = np.random.default_rng(seed)
    A, C = rng.integers(1, 7, len(pos)), rng.integers(1, 7, len(pos))
    ws = workspace(v)
    w1, b1, w2, b2 = net.kernel_weights()
    loops = build(k, len(net.outputs))
    args = (B, OF, A, C, ws, w1, b1, w2, b2)
    cands = int(loops["walk"](*args, 0))
    times = {}
    for stage, name in enumerate(("gen", "tail", "sums", "full")):
        loops["walk"](*args, stage)  # compile, warm
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            loops["walk"](*args, stage)
            best = min(best, time.process_time() - t)
        times[name] = best
    n = len(pos)
    head, after = loops["differ"](B, OF, A, C, ws, k.NIN, k.TAIL0)
    per = {"move generation": times["gen"], "expert inputs": times["tail"] - times["gen"],
           "incremental sums": times["sums"] - times["tail"], "sigmoid row and outputs": times["full"] - times["sums"]}
    return {"net": repr(net), "decisions": n, "candidates per decision": round(cands / n, 1),
            "inputs that differ per candidate (points / after them)": [round(head, 1), round(after, 1)],
            "us per decision": {k2: round(t / n * 1e6, 2) for k2, t in per.items()} | {
                "total": round(times["full"] / n * 1e6, 2)},
            "us per candidate": {k2: round(t / cands * 1e6, 3) for k2, t in per.items() if k2 != "move generation"}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--decisions", type=int, default=600)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--net", help="time this net file (one hidden layer or two) instead of the shipped net")
    args = ap.parse_args()
    try:
        got = run(args.variant, args.decisions, args.seed, args.net)
    except (ValueError, OSError) as e:
        raise SystemExit(f"choose_split: {e}") from None
    print(json.dumps(got, indent=2))


if __name__ == "__main__":
    main()
