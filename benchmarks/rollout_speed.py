"""Rollout speed with the net's 0-ply bot (issue 18): games in the compiled kernel, in one run.

    python benchmarks/rollout_speed.py [--games 100 400 1600] [--workers] [--dask] [--engine 20]
                                       [--truncate 3 7] [--luck]

Rows, for standard and Mexican Backgammon from the start position, ``NetBot()`` (the shipped net,
0-ply) on both sides, the public call ``rollout(start, Options(games=N, seed=1, bot=bot))`` timed:

* ``1 process``: CPU seconds (``time.process_time``) for each ``--games`` count (rollout time
  against the number of games) and games per CPU second;
* ``--workers``: ``workers=1`` and ``workers=2`` (a ``ProcessPoolExecutor``), wall seconds and games
  per wall second (the workers' CPU is not this process's);
* ``--dask``: the same through a Dask ``LocalCluster`` of 1 and 2 worker processes
  (``executor=client.get_executor()``), wall seconds;
* ``--engine N``: N games on the engine path (``rollout.KERNEL_ROLLOUTS = False``), the Python
  loop over ``engine.advance`` the kernel replaces, for scale;
* ``--truncate T ...``: for each T, ``rollout(start, Options(games=N, truncate=T, ...), stratify=True)``
  with the largest ``--games`` count in the kernel (games stopped after T turns and valued by the
  net), and with ``--engine N`` the same on the engine path, games per CPU second;
* ``--luck``: each of those truncated rollouts again with ``Options(luck=True)`` (each roll's luck taken off,
  measured by the net), games per CPU second and the points' standard error beside the rollout
  without it (the same games).

The kernel loads (or compiles) and the bear-off database loads before any timing. The machine's
load (``os.getloadavg``) is printed with the figures: on a busy machine wall-clock rates fall.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis import rollout as ro
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.options import Options


def _timed(start: Any, bot: Any, **kw: Any) -> tuple[float, float]:
    """Wall and CPU seconds of ``rollout(start, Options(seed=1, bot=bot, **kw))``."""
    w, c = time.perf_counter(), time.process_time()
    ro.rollout(start, Options(seed=1, bot=bot, **kw))
    return time.perf_counter() - w, time.process_time() - c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, nargs="+", default=[100, 400, 1600])
    ap.add_argument("--workers", action="store_true", help="also 1 and 2 worker processes")
    ap.add_argument("--dask", action="store_true", help="also a Dask LocalCluster of 1 and 2 workers")
    ap.add_argument("--engine", type=int, default=0, help="also this many games on the engine path")
    ap.add_argument("--variants", nargs="+", default=["standard", "mexican"])
    ap.add_argument("--truncate", type=int, nargs="*", default=[], help="also truncated rollouts, T turns")
    ap.add_argument("--luck", action="store_true", help="also the truncated rollouts with each roll's luck taken off")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {"load": [round(x, 2) for x in os.getloadavg()]}
    bot = NetBot()
    for name in args.variants:
        start = Position.start(find_variant(name))
        ro.rollout(start, Options(games=4, seed=0, bot=bot))  # compile or load, build or load the database
        rows: dict[str, Any] = {}
        for n in args.games:
            wall, cpu = _timed(start, bot, games=n)
            rows[f"{n} games, 1 process"] = {"cpu_s": round(cpu, 3), "games_per_cpu_s": round(n / cpu, 1)}
        n = max(args.games)
        if args.workers:
            for w in (1, 2):
                wall, _ = _timed(start, bot, games=n, workers=w)
                rows[f"{n} games, workers={w}"] = {"wall_s": round(wall, 3), "games_per_s": round(n / wall, 1)}
        if args.dask:
            import distributed

            for w in (1, 2):
                with distributed.LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                                              dashboard_address=None) as cluster, distributed.Client(cluster) as client:
                    ex = client.get_executor()
                    ro.rollout(start, Options(games=2 * w, seed=0, bot=bot, executor=ex), chunk=1)  # workers load
                    wall, _ = _timed(start, bot, games=n, executor=ex)
                rows[f"{n} games, Dask LocalCluster {w} worker(s)"] = {"wall_s": round(wall, 3),
                                                                       "games_per_s": round(n / wall, 1)}
        if args.engine:
            ro.KERNEL_ROLLOUTS = False
            try:
                wall, cpu = _timed(start, bot, games=args.engine)
            finally:
                ro.KERNEL_ROLLOUTS = True
            rows[f"{args.engine} games, engine path"] = {"cpu_s": round(cpu, 3),
                                                         "games_per_cpu_s": round(args.engine / cpu, 2)}
        for t in args.truncate:
            for kernel, games in ((True, n), (False, args.engine)):
                if not games:
                    continue
                for luck in (False, True) if args.luck else (False,):
                    ro.KERNEL_ROLLOUTS = kernel
                    try:
                        c = time.process_time()
                        r = ro.rollout(start, Options(seed=1, bot=bot, games=games, truncate=t, luck=luck),
                                       stratify=True)
                        cpu = time.process_time() - c
                    finally:
                        ro.KERNEL_ROLLOUTS = True
                    where = "kernel" if kernel else "engine path"
                    rows[f"{games} games truncated after {t} turns, stratified{', luck' if luck else ''}, {where}"] = {
                        "cpu_s": round(cpu, 3), "games_per_cpu_s": round(games / cpu, 1),
                        "points": round(r.points, 4), "points_stderr": round(r.points_stderr, 4)}
        report[name] = rows
    report["load after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
