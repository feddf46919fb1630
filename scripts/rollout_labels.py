"""Label standard positions by luck-free truncated rollouts of the shipped net's 0-ply bot, in chunks.

    python scripts/rollout_labels.py selfplay FIRST_SEED CHUNKS [--size 1000] [--dir artifacts/labels]
    python scripts/rollout_labels.py candidates FIRST_SEED CHUNKS [--size 250] [--top 4]
    python scripts/rollout_labels.py merge KIND OUT.npz [--dir artifacts/labels]

``selfplay``: chunk ``s`` is ``rollout_rows(sample_positions("standard", size, NetBot(net), seed=s,
explore=0.1), NetBot(net), games=36, truncate=7, seed=s, luck=True)``.

``candidates``: chunk ``s`` takes ``size`` positions the same way, rolls each one's dice with
``random.Random(s)`` (two ``randint(1, 6)``, in order), and labels the positions after the
``top`` best plays by the net at 0-ply (the opponent to roll) the same way; ``group`` holds the
decision (the index of its position in the chunk) of each row.

Each chunk goes to ``DIR/standard_{kind}_s{seed}.npz`` (``boards``, ``offs``, ``targets`` and for
candidates ``group``), written whole; a chunk already there is skipped, so a stopped run resumes.
``merge`` joins a kind's chunks, in seed order, into one compressed file with ``seeds`` (each row's
chunk), the form committed in ``training/labels/``. See docs/nets.md, "Luck taken off the labels".
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import sys
import time
from typing import Any

import numpy as np

from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import Net, equity, shipped_net
from backgammon_lab.analysis.rollout import rollout_rows, sample_positions
from backgammon_lab.analysis.search import Evaluator
from backgammon_lab.engine import MakePlay, Phase, RollDice, advance, position_state
from backgammon_lab.position import Position, Roll


def _candidates(net: Net, seed: int, size: int, top: int) -> tuple[list[Position], list[int]]:
    ev = Evaluator(net)
    rng = random.Random(seed)
    after: list[Position] = []
    group: list[int] = []
    for d, p in enumerate(sample_positions("standard", size, NetBot(net), seed=seed, explore=0.1)):
        st = advance(position_state(p), RollDice(Roll(rng.randint(1, 6), rng.randint(1, 6))))[0]
        if st.phase is not Phase.PLAY or not st.plays or len(st.plays) < 2:
            continue
        vals = equity(ev.play_values(st))
        for i in np.argsort(-vals, kind="stable")[:top]:
            nxt = advance(st, MakePlay(st.plays[int(i)]))[0]
            if nxt.phase is Phase.ROLL and not nxt.position.is_over:
                after.append(nxt.position)
                group.append(d)
    return after, group


def label(kind: str, first: int, chunks: int, size: int, top: int, folder: str) -> None:
    net = shipped_net("standard")
    assert net is not None
    os.makedirs(folder, exist_ok=True)
    for s in range(first, first + chunks):
        out = os.path.join(folder, f"standard_{kind}_s{s}.npz")
        if os.path.exists(out):
            continue
        t = time.process_time()
        extra: dict[str, Any] = {}
        if kind == "selfplay":
            pos = sample_positions("standard", size, NetBot(net), seed=s, explore=0.1)
        else:
            pos, group = _candidates(net, s, size, top)
            extra["group"] = np.array(group, np.int64)
        rows = rollout_rows(pos, NetBot(net), games=36, truncate=7, seed=s, luck=True)
        tmp = out + ".tmp.npz"
        cols: dict[str, Any] = {"boards": np.array([p.board() for p in pos], np.int8),
                                "offs": np.array([p.opponent_off for p in pos], np.int64), "targets": rows, **extra}
        np.savez(tmp, **cols)
        os.replace(tmp, out)
        print(f"{out}: {len(pos)} positions, {time.process_time() - t:.0f} s CPU", flush=True)


def merge(kind: str, out: str, folder: str) -> None:
    files = glob.glob(os.path.join(folder, f"standard_{kind}_s*.npz"))
    files = sorted((f for f in files if not f.endswith(".tmp.npz")),
                   key=lambda f: int(f.rsplit("_s", 1)[1].split(".")[0]))
    if not files:
        raise SystemExit(f"no {kind} chunks in {folder!r}")
    parts = [np.load(f) for f in files]
    seeds = np.concatenate([np.full(len(p["targets"]), int(f.rsplit("_s", 1)[1].split(".")[0]), np.int64)
                            for f, p in zip(files, parts, strict=True)])
    cols: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}
    cols["seeds"] = seeds
    np.savez_compressed(out, **cols)
    print(f"{out}: {len(seeds)} rows from {len(files)} chunks")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=("selfplay", "candidates", "merge"))
    ap.add_argument("args", nargs=2, metavar="ARG", help="FIRST_SEED CHUNKS, or for merge KIND OUT.npz")
    ap.add_argument("--size", type=int, default=None, help="positions a chunk (default 1000; candidates 250)")
    ap.add_argument("--top", type=int, default=4, help="candidates: the best plays labelled a decision")
    ap.add_argument("--dir", default="artifacts/labels")
    a = ap.parse_args(argv)
    if a.kind == "merge":
        if a.args[0] not in ("selfplay", "candidates"):
            ap.error(f"merge takes the kind selfplay or candidates, not {a.args[0]!r}")
        merge(a.args[0], a.args[1], a.dir)
        return 0
    try:
        first, chunks = int(a.args[0]), int(a.args[1])
    except ValueError:
        ap.error(f"FIRST_SEED and CHUNKS are whole numbers, not {a.args[0]!r} and {a.args[1]!r}")
    size = a.size or (1000 if a.kind == "selfplay" else 250)
    label(a.kind, first, chunks, size, a.top, a.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
