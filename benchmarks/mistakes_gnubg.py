"""How often GNU Backgammon 2-ply agrees with the learner's mistakes that ``lessons.mistakes`` finds.

    python benchmarks/mistakes_gnubg.py [--games 20] [--weak random|heuristic] [--seed 1] [--ply 2]
                                        [--out FILE]

Plays ``--games`` standard games of a weak bot (``RandomBot`` or ``HeuristicBot``, White in odd
games, Black in even ones) against the shipped net's bot, each with its own seed; turns every
game into mistake puzzles (:func:`backgammon_lab.lessons.mistakes`, the analysis at ``--ply``);
then asks gnubg (PyPI ``gnubg``, cubeless, 2 ply) to value the position each of the two plays
reaches, the other side on roll. The item agrees when gnubg values the better play above the
play made. Prints the rate (with its binomial standard error), the items by check, and the
disagreements; ``--out`` writes one JSON line per item.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from strength import Gnubg  # noqa: E402

from backgammon_lab.analysis.bots import Bot, HeuristicBot, RandomBot  # noqa: E402
from backgammon_lab.analysis.netbot import NetBot  # noqa: E402
from backgammon_lab.analysis.nets import play_board  # noqa: E402
from backgammon_lab.analysis.options import Options  # noqa: E402
from backgammon_lab.analysis.strategy import find_play  # noqa: E402
from backgammon_lab.game import Game  # noqa: E402
from backgammon_lab.lessons import mistakes  # noqa: E402
from backgammon_lab.position import WHITE, Position, Roll  # noqa: E402


def weak_bot(name: str, seed: int) -> Bot:
    """The weak player of game ``seed``."""
    return RandomBot(seed) if name == "random" else HeuristicBot()


def weak_game(name: str, seed: int) -> tuple[Game, str]:
    """A standard game of the weak bot against the net's bot, and the weak bot's side."""
    side = "white" if seed % 2 else "black"
    bots = {side: weak_bot(name, seed), ("black" if side == "white" else "white"): NetBot()}
    g = Game("standard", seed=seed)
    while not g.is_over:
        if g.is_chance():
            g.roll()
            continue
        g.apply(bots[g.current_player].choose(g))
    return g, side


def gnubg_values(judge: Gnubg, item: Any) -> tuple[float, float]:
    """gnubg's cubeless equity of the better play and of the play made, for the mover."""
    pos, roll = Position.from_string(item.position), Roll.parse(item.dice)
    opp_off = pos.off[1 if pos.turn == WHITE else 0]
    best = judge.after_play(tuple(play_board(find_play(pos, roll, item.answer))), opp_off)
    made = judge.after_play(tuple(play_board(find_play(pos, roll, item.played))), opp_off)
    return best, made


def measure(games: int, weak: str, seed: int, ply: int | None, judge: Gnubg) -> list[dict[str, Any]]:
    """One record per mistake item of the weak bot's games."""
    rows = []
    opts = Options() if ply is None else Options(ply=ply)
    for k in range(seed, seed + games):
        g, side = weak_game(weak, k)
        for m in mistakes(g, opts, player=side):
            if m.kind != "play":
                continue
            best, made = gnubg_values(judge, m)
            rows.append({"game": k, "position": m.position, "dice": m.dice, "played": m.played,
                         "better": m.answer, "loss": m.loss, "check": m.check, "gnubg_better": best,
                         "gnubg_played": made, "agrees": best > made})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--weak", choices=("random", "heuristic"), default="random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ply", type=int, default=None, help="the analysis' look-ahead (default: its own)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    t = time.process_time()
    rows = measure(args.games, args.weak, args.seed, args.ply, Gnubg(plies=2))
    n = len(rows)
    ok = sum(r["agrees"] for r in rows)
    rate = ok / n if n else float("nan")
    se = math.sqrt(rate * (1 - rate) / n) if n else float("nan")
    by: dict[str, int] = {}
    for r in rows:
        by[r["check"]] = by.get(r["check"], 0) + 1
    print(f"{args.games} games, {args.weak} bot against the net's bot: {n} mistakes, gnubg 2-ply agrees on {ok} "
          f"({100 * rate:.1f}% ± {100 * se:.1f}%); by check: {by}; {time.process_time() - t:.0f} s CPU")
    for r in rows:
        if not r["agrees"]:
            print(f"  disagrees: game {r['game']} {r['position']} {r['dice']}: played {r['played']}, better "
                  f"{r['better']} (loss {r['loss']:.3f}, {r['check']}); gnubg {r['gnubg_better']:+.3f} against "
                  f"{r['gnubg_played']:+.3f}")
    if args.out:
        args.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
