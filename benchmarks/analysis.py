"""Benchmarks of the analysis package, in one run.

    python benchmarks/analysis.py [--solve] [--games 200] [--json]

Rows:
  * ``solve minigam (8 checkers)``: the full solve in a fresh process (``--solve``; otherwise
    the row is skipped), its wall time and peak memory (the child's maximum resident set).
    Goal: 10 minutes or less and 4 GB or less on this 2-core machine.
  * ``table load``: reading the cached table (``MiniGamTable.load``), median of 5.
  * ``table lookup``: ``table.value(position)`` on random positions, per call.
  * ``rollout <variant> <bot>``: rollout games per second from the start position, one process
    and two (``workers=2``), for the random and heuristic bots (and the perfect Mini-Gam bot).
  * ``OpenSpiel random standard games``: complete random games of OpenSpiel's C++ backgammon
    through pyspiel, for scale (about 640 games/s measured here).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backgammon_lab import Position, find_variant  # noqa: E402
from backgammon_lab.analysis.bots import HeuristicBot, PerfectMiniGamBot, RandomBot  # noqa: E402
from backgammon_lab.analysis.rollout import rollout  # noqa: E402
from backgammon_lab.analysis.solve import MiniGamTable, default_table_path  # noqa: E402

SOLVE_CHILD = """
import sys, time
from backgammon_lab.analysis.solve import solve
t0 = time.perf_counter()
t = solve(8, progress=False)
secs = time.perf_counter() - t0
path = t.save(sys.argv[1])
print(f"{secs:.3f} {t.stats.build_seconds:.3f} {t.stats.residual:.3e}")
"""


def bench_solve(out: Path) -> dict[str, Any]:
    """Solve in a child process; the child's peak RSS comes from getrusage(RUSAGE_CHILDREN)."""
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", SOLVE_CHILD, str(out)], check=True, capture_output=True, text=True,
                         cwd=ROOT)
    wall = time.perf_counter() - t0
    secs, build, residual = res.stdout.split()
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"wall_s": wall, "solve_s": float(secs), "build_s": float(build), "residual": float(residual),
            "peak_mb": peak_kb / 1024}


def bench_table(path: Path) -> dict[str, Any]:
    loads = []
    for _ in range(5):
        t0 = time.perf_counter()
        table = MiniGamTable.load(path)
        loads.append(time.perf_counter() - t0)
    ix = table.index
    rng = random.Random(0)
    positions = [ix.position(rng.randrange(ix.n_states), table.variant, rng.choice(["white", "black"]))
                 for _ in range(2000)]
    t0 = time.perf_counter()
    for p in positions:
        table.value(p)
    per = (time.perf_counter() - t0) / len(positions)
    return {"load_ms": statistics.median(loads) * 1e3, "lookup_us": per * 1e6, "file_mb": path.stat().st_size / 1e6}


def bench_rollouts(games: int) -> list[dict[str, Any]]:
    rows = []
    table_path = default_table_path()
    cases: list[tuple[str, str, Any]] = []
    for v in ("standard", "mexican", "minigam"):
        cases.append((v, "random", RandomBot(0)))
        cases.append((v, "heuristic", HeuristicBot()))
    if table_path.is_file():
        cases.append(("minigam", "perfect", PerfectMiniGamBot(MiniGamTable.load(table_path))))
    for v, name, bot in cases:
        n = games if v != "minigam" else games * 5
        row: dict[str, Any] = {"variant": v, "bot": name, "games": n}
        for workers in (1, 2):
            t0 = time.perf_counter()
            rollout(Position.start(find_variant(v)), bot, games=n, seed=1, workers=workers, progress=False)
            row[f"games_per_s_{workers}"] = n / (time.perf_counter() - t0)
        rows.append(row)
    return rows


def bench_openspiel(games: int) -> float | None:
    try:
        sys.path.insert(0, str(ROOT / "tests"))
        from peers import openspiel_random_games_per_second
    except ImportError:  # pragma: no cover
        return None
    try:
        return openspiel_random_games_per_second(games, 0)
    except Exception:  # pragma: no cover - pyspiel missing
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--solve", action="store_true", help="also time the full solve (about 1.5-3 minutes)")
    ap.add_argument("--games", type=int, default=200, help="rollout games per row (x5 for Mini-Gam)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    report: dict[str, Any] = {}
    path = default_table_path()
    if args.solve:
        target = path if not path.is_file() else path.with_name("minigam-8.bench.npz")
        report["solve"] = bench_solve(target)
        if target != path:
            target.unlink()
    if path.is_file():
        report["table"] = bench_table(path)
    report["rollouts"] = bench_rollouts(args.games)
    report["openspiel_random_standard_games_per_s"] = bench_openspiel(max(200, args.games))
    if args.json:
        print(json.dumps(report, indent=1))
        return
    if "solve" in report:
        s = report["solve"]
        print(f"solve minigam (8 checkers): {s['solve_s']:.1f} s (tables {s['build_s']:.1f} s; process "
              f"{s['wall_s']:.1f} s), peak memory {s['peak_mb']:.0f} MB, last change {s['residual']:.1e}")
    if "table" in report:
        t = report["table"]
        print(f"table load: {t['load_ms']:.0f} ms ({t['file_mb']:.1f} MB); lookup: {t['lookup_us']:.1f} us a position")
    print(f"{'rollout':<28}{'games/s, 1 process':>22}{'2 processes':>14}")
    for r in report["rollouts"]:
        print(f"{r['variant'] + ' ' + r['bot']:<28}{r['games_per_s_1']:>22.0f}{r['games_per_s_2']:>14.0f}")
    os_rate = report["openspiel_random_standard_games_per_s"]
    if os_rate:
        print(f"{'OpenSpiel random standard':<28}{os_rate:>22.0f}")


if __name__ == "__main__":
    main()
