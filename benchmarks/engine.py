"""The turn engine before and after, side by side in one run (issue 9).

Usage::

    python benchmarks/engine.py                  # this tree against the commit before the engine
    python benchmarks/engine.py --baseline REV --seconds 5

The baseline tree is extracted with ``git archive REV`` into a temporary folder; each tree is
measured in its own subprocess (same Python, same machine, one after the other, alternating
rounds, timed in CPU seconds of the process), so the figures compare the code and nothing else. Measured, each as a rate:

* random self-play games/s through the rollout machinery (``rollout(..., RandomBot())``: the
  baseline's ``FastGame``, this tree's bare ``advance``);
* ``Game.play_random`` games/s (the history-keeping game);
* ``legal_boards`` and ``legal_plays`` positions/s over the same 2,000 positions (made by this
  tree's random games and given to both as position strings);
* Python-side click handling of the game widget (select a checker, then play a step), per click,
  and a refused click (a step no die allows: explained from the turn's plays).
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
#: The last commit before the turn engine (issue 9).
BASELINE = "d20e6a1"

PROBE = r'''
import json, random, statistics, sys, time
SECONDS = float(sys.argv[1])
from backgammon_lab import Position, legal_plays
from backgammon_lab.rules import legal_boards
from backgammon_lab.game import Game
from backgammon_lab.analysis.bots import RandomBot
from backgammon_lab.analysis.rollout import rollout
try:  # the options object (issue 17); a baseline from before it takes the keywords
    from backgammon_lab.analysis.options import Options
    def random_rollout(start, k, seed):
        return rollout(start, Options(games=k, seed=seed, bot=RandomBot()))
except ImportError:
    def random_rollout(start, k, seed):
        return rollout(start, RandomBot(), games=k, seed=seed, progress=False)

def rate(fn, unit_per_call):
    # CPU time of this process, not wall time: the figures hold on a machine doing other work too
    fn()  # warm up
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < SECONDS:
        fn(); n += 1
    return n * unit_per_call / (time.process_time() - t0)

out = {}
for v in ("standard", "mexican", "minigam"):
    k = 20 if v != "minigam" else 200
    seeds = iter(range(10**9))
    out[f"rollout random {v} games/s"] = rate(
        lambda: random_rollout(Position.start(v), k, next(seeds)), k)
    out[f"Game.play_random {v} games/s"] = rate(lambda: Game(v, seed=next(seeds)).play_random(), 1)

# the same 2,000 reachable standard positions with rolls for both trees (made by the caller)
sample = [(Position.from_string(text), tuple(dice)) for text, dice in json.load(open(sys.argv[2]))]
def boards():
    for p, d in sample:
        legal_boards(p, d)
def plays():
    for p, d in sample:
        for pl in legal_plays(p, d):
            pl.position
out["legal_boards positions/s"] = rate(boards, len(sample))
out["legal_plays (+positions) positions/s"] = rate(plays, len(sample))

from backgammon_lab.widgets import GameWidget
times = []
for seed in range(40):
    gw = GameWidget("standard", seed=seed)
    gw.dice_text.value = "5-3"; gw.roll_button.click()
    b = gw.board
    for kind, value in (("point", 13), ("point", 8)):
        t0 = time.process_time()
        b.click(kind, value)
        times.append(time.process_time() - t0)
out["widget click handling ms (median)"] = statistics.median(times) * 1000

# a refused click: the checker on 13 selected, then point 12 (no die shows 1): explained, not played
times = []
for seed in range(40):
    gw = GameWidget("standard", seed=seed)
    gw.dice_text.value = "5-3"; gw.roll_button.click()
    b = gw.board
    b.click("point", 13)
    t0 = time.process_time()
    b.click("point", 12)
    times.append(time.process_time() - t0)
out["widget refused click ms (median)"] = statistics.median(times) * 1000
print(json.dumps(out))
'''


def extract(rev: str, dest: Path) -> Path:
    """The tree of ``rev`` in ``dest`` (git archive, no checkout of this working tree)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    tar = dest / "tree.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as t:
        t.extractall(dest / "tree", filter="data")
    return dest / "tree"


def make_sample(path: Path, n: int = 2000) -> None:
    """``n`` reachable standard positions with their rolls, from seeded random games of this tree,
    written as position strings so that both trees time the very same positions."""
    import random

    from backgammon_lab.game import Game

    rng = random.Random(7)
    out: list[tuple[str, list[int]]] = []
    g = Game("standard", seed=11)
    while len(out) < n:
        if g.is_over:
            g = Game("standard", seed=rng.randrange(10**6))
        if g.is_chance():
            g.roll()
            continue
        st = g.state
        if str(st.phase) == "play" and st.roll is not None:
            out.append((st.turn_start.to_string(), list(st.roll.dice)))
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    path.write_text(json.dumps(out))


def measure(tree: Path, seconds: float, sample: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    res = subprocess.run([sys.executable, "-c", PROBE, str(seconds), str(sample)], env=env, capture_output=True,
                         text=True, cwd=str(tree))
    if res.returncode:
        raise SystemExit(f"measuring {tree} failed:\n{res.stderr[-2000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default=BASELINE, help="the commit to compare with (default: before the engine)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    ap.add_argument("--rounds", type=int, default=4,
                    help="alternating rounds (default 4); the best of each tree is kept, and the spread of "
                         "the rounds' ratios is shown: on a busy machine one round can be 20%% off")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = extract(args.baseline, Path(tmp))
        sample = Path(tmp) / "sample.json"
        make_sample(sample)
        runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for _ in range(args.rounds):
            runs["before"].append(measure(base, args.seconds, sample))
            runs["after"].append(measure(ROOT, args.seconds, sample))
    keys = list(runs["after"][0])

    def best(which: str, k: str) -> float:
        vals = [r[k] for r in runs[which]]
        return min(vals) if k.endswith("(median)") else max(vals)

    def ratio(b: float, a: float, k: str) -> float:
        """after/before as a speed-up: above 1 is faster (times are inverted)."""
        if not a or not b:
            return float("nan")
        return b / a if k.endswith("(median)") else a / b

    print(f"{'measure':42} {'before (' + args.baseline + ')':>18} {'after':>12} {'ratio':>7}  rounds' ratios")
    for k in keys:
        b, a = best("before", k), best("after", k)
        rounds = sorted(ratio(rb[k], ra[k], k) for rb, ra in zip(runs["before"], runs["after"], strict=True))
        spread = f"{rounds[0]:.2f}-{rounds[-1]:.2f}"
        print(f"{k:42} {b:18.1f} {a:12.1f} {ratio(b, a, k):7.2f}  {spread}")
    print("ratio: the speed of this tree over the baseline's (above 1: faster; for the click times too)")


if __name__ == "__main__":
    main()
