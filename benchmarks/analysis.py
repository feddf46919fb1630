"""Benchmarks of the analysis package, in one run.

    python benchmarks/analysis.py [--solve] [--games 200] [--json]
    python benchmarks/analysis.py --nets [--positions 100] [--ply2 20] [--net-games 40]

Rows:
  * ``solve minigam (8 checkers)``: the full solve in a fresh process (``--solve``; otherwise
    the row is skipped), its wall time and peak memory (the child's maximum resident set).
    Goal (issue 18): 30 s of CPU and 1 GB; ``benchmarks/solve.py`` times it cold and warm.
  * ``table load``: reading the cached table (``MiniGamTable.load``), median of 5.
  * ``table lookup``: ``table.value(position)`` on random positions, per call.
  * ``rollout <variant> <bot>``: rollout games per second from the start position, one process
    and two (``workers=2``), for the random and heuristic bots (and the perfect Mini-Gam bot).
  * ``OpenSpiel random standard games``: complete random games of OpenSpiel's C++ backgammon
    through pyspiel, for scale (about 640 games/s measured here).

``--nets`` (issue 10) measures instead, with the shipped standard net (or, while none is shipped,
a fresh net of the trainer's default size, 80 hidden units, which costs the same to evaluate):
  * ``hint latency``: ``hint(position, dice, Options(ply=k))`` on ``--positions`` standard positions before a
    roll, with a roll each, from seeded games of the heuristic bot (median, p90, max; 2-ply on the
    first ``--ply2`` of them only);
  * ``rollout games/s``: full games from the start, the net's bot against the heuristic bot
    side by side, and net rollouts truncated after 10 turns;
  * ``rollout error``: the standard error of a plain rollout and of a variance-reduced one
    (stratified first rolls, truncation after 10 turns) of the same number of games from the
    same position (the start after 3-1 played 8/5 6/5), by the net's bot.
BLAS is held to one thread (``OPENBLAS_NUM_THREADS=1``, set before numpy loads): the batches are
small, and on a busy 2-core machine BLAS threads make a 40-row batch ten times slower.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backgammon_lab import Position, find_variant  # noqa: E402
from backgammon_lab.analysis.bots import HeuristicBot, PerfectMiniGamBot, RandomBot  # noqa: E402
from backgammon_lab.analysis.options import Options  # noqa: E402
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
            rollout(Position.start(find_variant(v)), Options(games=n, seed=1, workers=workers, bot=bot))
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


def _net(variant: str) -> Any:
    from backgammon_lab.analysis.nets import Net, shipped_net

    net = shipped_net(variant)
    return (net, "shipped") if net is not None else (Net.create(variant, hidden=80, seed=0), "fresh, 80 hidden")


def sample_positions(n: int, seed: int = 0) -> list[tuple[Any, Any]]:
    """``n`` standard positions before a roll, each with a roll, from seeded heuristic-bot games."""
    from backgammon_lab.engine import MakePlay, OpeningRoll, Phase, RollDice, advance, start_state
    from backgammon_lab.position import Roll

    rng = random.Random(seed)
    bot = HeuristicBot()
    out: list[tuple[Any, Any]] = []
    s = start_state("standard")
    while len(out) < n:
        if s.phase is Phase.OVER:
            s = start_state("standard")
        elif s.phase is Phase.OPENING:
            s = advance(s, OpeningRoll(rng.randint(1, 6), rng.randint(1, 6)))[0]
        elif s.phase is Phase.ROLL:
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            if rng.random() < 0.3:
                out.append((s.position, roll))
            s = advance(s, RollDice(roll))[0]
        else:
            s = advance(s, MakePlay(bot.choose_play(s, s.legal_actions())))[0]
    return out


def _stats(times: list[float]) -> dict[str, float]:
    ts = sorted(times)
    return {"n": len(ts), "median_ms": statistics.median(ts) * 1e3,
            "p90_ms": ts[min(len(ts) - 1, int(0.9 * len(ts)))] * 1e3, "max_ms": ts[-1] * 1e3}


def bench_hints(positions: int, ply2: int) -> dict[str, Any]:
    from backgammon_lab.analysis.hints import hint

    net, how = _net("standard")
    sample = sample_positions(positions)
    hint(*sample[0], Options(ply=0, evaluator=net))  # warm up
    out: dict[str, Any] = {"net": how}
    for ply, subset in ((0, sample), (1, sample), (2, sample[:ply2])):
        times = []
        for pos, roll in subset:
            t0 = time.perf_counter()
            hint(pos, roll, Options(ply=ply, evaluator=net))
            times.append(time.perf_counter() - t0)
        out[f"ply{ply}"] = _stats(times)
    return out


def bench_net_rollouts(games: int) -> dict[str, Any]:
    from backgammon_lab.analysis.netbot import NetBot

    net, how = _net("standard")
    start = Position.start("standard")
    out: dict[str, Any] = {"net": how}
    for name, bot, cut in (("net bot", NetBot(net), None), ("heuristic bot", HeuristicBot(), None),
                           ("net bot, truncated at 10 turns", NetBot(net), 10)):
        t0 = time.perf_counter()
        rollout(start, Options(games=games, seed=1, bot=bot, truncate=cut), stratify=cut is not None)
        out[name] = games / (time.perf_counter() - t0)
    from backgammon_lab.engine import MakePlay, dice_state

    st = dice_state(start, (3, 1))
    after = None
    for p in st.plays or ():
        if str(p) == "8/5 6/5":
            from backgammon_lab.engine import advance

            after = advance(st, MakePlay(p))[0]
    assert after is not None
    plain = rollout(after, Options(games=games, seed=2, bot=NetBot(net)), player="white")
    reduced = rollout(after, Options(games=games, seed=2, bot=NetBot(net), truncate=10), player="white", stratify=True)
    out["error"] = {"games": games, "plain_win": plain.win, "plain_stderr": plain.stderr,
                    "reduced_win": reduced.win, "reduced_stderr": reduced.stderr,
                    "plain_points_stderr": plain.points_stderr, "reduced_points_stderr": reduced.points_stderr}
    from backgammon_lab.analysis.nets import shipped_net

    mini = shipped_net("minigam")
    if mini is not None:  # a trained net: the same comparison where the values mean something
        pos = Position.from_string("minigam/w/barx6,3,1/barx5,5x2,2")
        rows = {}
        for name, bot, strat, cut in (("plain", NetBot(mini), False, None), ("stratified", NetBot(mini), True, None),
                                      ("stratified, truncated after 4 turns", NetBot(mini), True, 4),
                                      ("heuristic bot, plain", HeuristicBot(), False, None)):
            t0 = time.perf_counter()
            r = rollout(pos, Options(games=12 * games, seed=3, bot=bot, truncate=cut), stratify=strat)
            rows[name] = {"win": r.win, "stderr": r.stderr, "games_per_s": 12 * games / (time.perf_counter() - t0)}
        out["minigam"] = {"games": 12 * games, "rows": rows}
    return out


def main_nets(args: argparse.Namespace) -> None:
    report = {"hints": bench_hints(args.positions, args.ply2), "rollouts": bench_net_rollouts(args.net_games)}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    h = report["hints"]
    print(f"hint latency, standard, net {h['net']}:")
    print(f"{'ply':<6}{'positions':>10}{'median ms':>12}{'p90 ms':>10}{'max ms':>10}")
    for k in (0, 1, 2):
        r = h[f"ply{k}"]
        print(f"{k:<6}{r['n']:>10}{r['median_ms']:>12.1f}{r['p90_ms']:>10.1f}{r['max_ms']:>10.1f}")
    r = report["rollouts"]
    print(f"rollout games/s from the standard start ({args.net_games} games, 1 process, net {r['net']}):")
    for name in ("net bot", "heuristic bot", "net bot, truncated at 10 turns"):
        print(f"  {name:<34}{r[name]:>8.1f}")
    e = r["error"]
    print(f"rollout error after 3-1 8/5 6/5, {e['games']} games: plain ± {e['plain_stderr'] * 100:.2f}% "
          f"(win {e['plain_win'] * 100:.1f}%), reduced ± {e['reduced_stderr'] * 100:.2f}% "
          f"(win {e['reduced_win'] * 100:.1f}%); points ± {e['plain_points_stderr']:.3f} vs "
          f"± {e['reduced_points_stderr']:.3f}")
    if "minigam" in r:
        m = r["minigam"]
        print(f"Mini-Gam, shipped net, minigam/w/barx6,3,1/barx5,5x2,2, {m['games']} games:")
        for name, row in m["rows"].items():
            print(f"  {name:<38} win {row['win'] * 100:5.1f}% ± {row['stderr'] * 100:.2f}%  "
                  f"{row['games_per_s']:7.1f} games/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--solve", action="store_true", help="also time the full solve (about 1.5-3 minutes)")
    ap.add_argument("--games", type=int, default=200, help="rollout games per row (x5 for Mini-Gam)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--nets", action="store_true", help="hint latency per ply and net rollouts instead (issue 10)")
    ap.add_argument("--positions", type=int, default=100, help="--nets: standard positions for the hint latency")
    ap.add_argument("--ply2", type=int, default=20, help="--nets: of which this many at 2-ply")
    ap.add_argument("--net-games", type=int, default=40, help="--nets: rollout games per row")
    args = ap.parse_args()
    if args.nets:
        main_nets(args)
        return
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
