"""The levels of play (backgammon_lab.analysis.levels.LEVELS) measured: each against the next weaker.

    python benchmarks/levels.py [--variants minigam mexican standard] [--games 2000]
                                [--champion-games VARIANT=N ...] [--out levels.jsonl] [--write docs/levels.md]
    python benchmarks/levels.py --from levels.jsonl --write docs/levels.md

For each variant, every level plays the level below it (and the weakest plays ``HeuristicBot``),
``--games`` games a pair, in pairs of games on the same dice with the seats exchanged
(``strength.match``, the project's match loop). Each line of ``--out`` is one pair: the stronger
level's share of wins with its standard error, its points a game, and the CPU seconds. The pairs of
0-ply levels go first, the champion's last (the default hint's player looks 1 or 2 rolls ahead:
a standard game of it costs about 7 s of CPU, 100 times a 0-ply game; Mexican 0.9 s, Mini-Gam
0.06 s); ``--champion-games standard=100`` plays fewer games in that variant's champion pair
(default ``--games``). ``--write`` puts the table between the markers of the docs page; ``--from``
writes it from lines measured before. With ``--out``, the pairs already in that file are not played
again (a stopped run goes on where it stopped).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from strength import match  # the project's match loop (benchmarks/strength.py)

from backgammon_lab import find_variant
from backgammon_lab.analysis.bots import Bot, HeuristicBot
from backgammon_lab.analysis.levels import LevelBot, find_level, levels_for

BEGIN = "<!-- levels table: benchmarks/levels.py writes from here -->"
END = "<!-- levels table: to here -->"


def pairs(variant: str) -> list[tuple[str, str]]:
    """(stronger, weaker) for each step of ``variant``'s levels, and (weakest, "heuristic")."""
    names = [lv.name for lv in levels_for(variant)]
    return [(names[0], "heuristic")] + [(names[i], names[i - 1]) for i in range(1, len(names))]


def bot(name: str, seed: int) -> Bot:
    return HeuristicBot() if name == "heuristic" else LevelBot(name, seed)


def measure(variant: str, stronger: str, weaker: str, games: int) -> dict[str, Any]:
    """One pair: ``games`` games (pairs on the same dice, seats exchanged) of ``stronger`` against ``weaker``."""
    v = find_variant(variant)
    a, b = bot(stronger, 1), bot(weaker, 2)
    c0 = time.process_time()
    r = match(v, a, b, games)
    return {"variant": variant, "level": stronger, "against": weaker, "games": r["games"],
            "win": round(r["win"], 4), "win_stderr": round(r["win_stderr"], 4),
            "points_per_game": round(r["points_per_game"], 3), "ppg_stderr": round(r["ppg_stderr"], 3),
            "cpu_seconds": round(time.process_time() - c0, 1)}


def table(rows: list[dict[str, Any]]) -> str:
    """The docs table of measured pairs, in the order of the levels."""
    out = ["| variant | level | settings | against | games | wins | points a game |",
           "|---|---|---|---|---:|---:|---:|"]
    for r in rows:
        lv = find_level(r["level"])
        against = "HeuristicBot" if r["against"] == "heuristic" else find_level(r["against"]).title
        out.append(f"| {find_variant(r['variant']).title} | {lv.title} | {lv.settings(r['variant'])} | {against} | "
                   f"{r['games']:,} | {100 * r['win']:.1f}% ± {100 * r['win_stderr']:.1f}% | "
                   f"{r['points_per_game']:+.3f} ± {r['ppg_stderr']:.3f} |")
    return "\n".join(out)


def write(path: Path, rows: list[dict[str, Any]]) -> None:
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path} has no levels table markers ({BEGIN!r} ... {END!r})")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{table(rows)}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variants", nargs="+", default=["minigam", "mexican", "standard"])
    p.add_argument("--games", type=int, default=2000, help="games a pair (default 2,000)")
    p.add_argument("--champion-games", nargs="*", default=[], metavar="VARIANT=N",
                   help="games of that variant's champion pair (default --games)")
    p.add_argument("--out", help="append each pair's line of JSON to this file")
    p.add_argument("--from", dest="source", help="write the table from these lines instead of playing")
    p.add_argument("--write", help="the docs page whose levels table is replaced")
    args = p.parse_args(argv)
    champion_games = {k: int(n) for k, n in (item.split("=", 1) for item in args.champion_games)}
    rows: list[dict[str, Any]] = []
    if args.source:
        rows = [json.loads(line) for line in Path(args.source).read_text().splitlines() if line.strip()]
    else:
        todo = [(v, a, b) for v in args.variants for a, b in pairs(v)]
        todo.sort(key=lambda t: find_level(t[1]).ply is None)  # the dear champion pairs last (a stable sort)
        if args.out and Path(args.out).is_file():  # a run stopped and started again: the pairs done are kept
            rows = [json.loads(line) for line in Path(args.out).read_text().splitlines() if line.strip()]
            done = {(r["variant"], r["level"], r["against"]) for r in rows}
            todo = [t for t in todo if t not in done]
        for variant, stronger, weaker in todo:
            games = args.games
            if find_level(stronger).ply is None:
                games = champion_games.get(variant, games)
            r = measure(variant, stronger, weaker, games)
            rows.append(r)
            line = json.dumps(r)
            print(line, flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(line + "\n")
    order = {(v, lv.name): i for i, (v, lv) in enumerate((v, lv) for v in ("standard", "mexican", "minigam")
                                                         for lv in levels_for(v))}
    rows.sort(key=lambda r: order.get((r["variant"], r["level"]), len(order)))
    if args.write:
        write(Path(args.write), rows)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
