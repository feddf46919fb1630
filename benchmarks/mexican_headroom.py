"""How much winning chance a better checker player could gain over the net's 1-ply bot in Mexican.

    python benchmarks/mexican_headroom.py [--net PATH] [--pairs 6] [--every 3] [--games 72]
                                          [--truncate TURNS] [--seed 5] [--limit N] [--raw FILE]
    python benchmarks/mexican_headroom.py --analyse FILE --per-game DECISIONS

Issue 19 asks for 75% against HeuristicBot; the 1-ply bot wins about 70-72%. Whether any player
gets much further is the open question (training/LOG.md, "How much is left above the 1-ply bot?").
A rollout *player* needs some 33 CPU hours for a match; this measures the same thing for about
one, by the performance-difference identity: a player who differs from a policy ``pi`` only in
better choices gains, per game, the sum over its decisions of each choice's advantage under ``pi``.

1. The net's 1-ply bot plays ``--pairs`` pairs of games against HeuristicBot (the dice of
   ``strength.py match``); every ``--every``-th of its checker plays with a choice is kept, with
   the play it chose, and the games' count of such decisions.
2. Each kept decision's candidates (the 1-ply bot's own: at most 8 plays within 0.16 of the best at
   0-ply) are rolled out ``--games`` games each by the net's 0-ply bot, each roll's luck taken off,
   twice on independent dice (seeds A and B).
3. Per decision: the *oracle* gain, the best candidate's mean over A and B less the 1-ply choice's
   (biased up by the noise of the max), and the *split* gain, the candidate best by A valued on B
   less the choice on B, and the other way round (unbiased for a player who chooses by one such
   rollout; biased down against a perfect one). Their means times the decisions a game bracket the
   gain a game in winning chance. The *corrected* gain is the oracle gain less its winner's curse,
   estimated by adding noise of the size the two dice sets disagree by to the candidates' means.

The rollouts play the net against itself, not against HeuristicBot, and measure the gain of one
better choice followed by the 0-ply policy: an estimate of the headroom, not a match.
Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

from backgammon_lab import find_variant  # noqa: E402
from backgammon_lab.analysis.bots import HeuristicBot  # noqa: E402
from backgammon_lab.analysis.hints import hint  # noqa: E402
from backgammon_lab.analysis.netbot import NetBot  # noqa: E402
from backgammon_lab.analysis.nets import Net, load_net, play_board, shipped_net  # noqa: E402
from backgammon_lab.analysis.options import Options  # noqa: E402
from backgammon_lab.analysis.rollout import play_out, turn_state  # noqa: E402
from backgammon_lab.engine import TurnState, start_state  # noqa: E402
from backgammon_lab.position import BLACK, WHITE  # noqa: E402


class RecordingBot(NetBot):
    """The net's bot that keeps each checker decision with a choice: the state and the play chosen."""

    def __init__(self, net: Net, options: Options) -> None:
        super().__init__(net, options)
        self.kept: list[tuple[TurnState, tuple[int, ...]]] = []

    def choose_play(self, game: Any, plays: Any) -> Any:
        chosen = super().choose_play(game, plays)
        if len(plays) > 1:
            self.kept.append((turn_state(game), tuple(play_board(chosen))))
        return chosen


def values(state: TurnState, net: Net, games: int, truncate: int | None, seed: int) -> dict[tuple[int, ...], float]:
    """The winning chance of each of the 1-ply bot's candidates by a luck-reduced rollout."""
    opts = Options(ply=0, filters=((8, 0.16),), games=games, truncate=truncate, luck=True, bot=NetBot(net),
                   seed=seed, evaluator=net)
    h = hint(state.position, state.roll, opts, named=state.named)
    return {tuple(play_board(rp.play)): float(rp.win) for rp in h.plays if rp.how == "rollout" and rp.win is not None}


def corrected(rows: list[dict[str, Any]], draws: int = 4000, seed: int = 0) -> np.ndarray:
    """Each decision's oracle gain less its winner's curse: the gain the max of the candidates' noisy
    means shows when their differences from the choice are taken as true and noise of the size the two
    dice sets disagree by (pooled over the decision's candidates) is added, ``draws`` times."""
    rng = np.random.default_rng(seed)
    out = []
    for r in rows:
        plays = [tuple(p) for p, _ in r["a"]]
        a = np.array([v for _, v in r["a"]])
        b = np.array(r["b"], dtype=float)
        c = plays.index(tuple(r["chosen"]))
        da, db = a - a[c], b - b[c]
        m = (da + db) / 2
        others = np.arange(len(m)) != c
        if not others.any():
            out.append(0.0)
            continue
        sigma = float(np.sqrt(np.mean((da[others] - db[others]) ** 2 / 4)))
        noisy = m[others] + sigma * rng.standard_normal((draws, int(others.sum())))
        curse = float(np.maximum(noisy.max(axis=1), 0).mean()) - max(float(m[others].max()), 0.0)
        out.append(max(float(m[others].max()), 0.0) - curse)
    return np.array(out)


def estimates(rows: list[dict[str, Any]], per_game: float) -> dict[str, dict[str, float]]:
    """The oracle, split and corrected gains (module docstring) of the decisions ``rows``, a decision
    and a game (``per_game`` decisions), with their standard errors."""
    oracle, split = [], []
    for r in rows:
        a = {tuple(p): v for p, v in r["a"]}
        b = dict(zip(a, r["b"], strict=True))
        chosen = tuple(r["chosen"])
        mean = {p: (a[p] + b[p]) / 2 for p in a}
        oracle.append(max(mean.values()) - mean[chosen])
        best_a, best_b = max(a, key=a.__getitem__), max(b, key=b.__getitem__)
        split.append(((b[best_a] - b[chosen]) + (a[best_b] - a[chosen])) / 2)

    def stat(x: np.ndarray) -> dict[str, float]:
        se = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")
        return {"per_decision": round(float(x.mean()), 5), "stderr": round(se, 5),
                "per_game": round(float(x.mean()) * per_game, 4), "per_game_stderr": round(se * per_game, 4)}

    return {"oracle_gain": stat(np.array(oracle)), "split_gain": stat(np.array(split)),
            "corrected_gain": stat(corrected(rows))}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--net", help="a Mexican net (.npz); default the shipped one")
    ap.add_argument("--pairs", type=int, default=6, help="pairs of games against HeuristicBot (default 6)")
    ap.add_argument("--first-pair", type=int, default=0, help="the dice of pairs from this one (default 0)")
    ap.add_argument("--every", type=int, default=3, help="keep every N-th decision (default 3)")
    ap.add_argument("--games", type=int, default=72, help="rollout games a candidate and seed (default 72)")
    ap.add_argument("--truncate", type=int, default=None, help="turns a rollout game (default: to the end)")
    ap.add_argument("--seed", type=int, default=5, help="seed A (B is A + 1)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many decisions")
    ap.add_argument("--raw", default=None, help="append each decision's values (JSON lines) to this file")
    ap.add_argument("--analyse", default=None, metavar="RAW",
                    help="only the estimates from a --raw file (with --per-game, the decisions a game)")
    ap.add_argument("--per-game", type=float, default=None, help="with --analyse: decisions a game")
    args = ap.parse_args(argv)
    if args.analyse:
        with open(args.analyse) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        per = args.per_game or 1.0
        return {"decisions_measured": len(rows), "decisions_a_game": per,
                **estimates(rows, per)}
    net = load_net(args.net) if args.net else shipped_net("mexican")
    assert net is not None
    t0 = time.process_time()
    kept, games, won = decisions_from(net, args.first_pair, args.pairs)
    per_game = len(kept) / games
    sample = kept[::args.every][:args.limit]
    t1 = time.process_time()
    rows: list[dict[str, Any]] = []
    missing = 0
    for k, (state, chosen) in enumerate(sample):
        a = values(state, net, args.games, args.truncate, args.seed + 2 * k)
        b = values(state, net, args.games, args.truncate, args.seed + 2 * k + 1)
        if chosen not in a or chosen not in b:
            missing += 1
            continue
        row = {"decision": k, "chosen": list(chosen), "a": [[list(p), v] for p, v in a.items()],
               "b": [b[p] for p in a]}
        rows.append(row)
        if args.raw:
            with open(args.raw, "a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"{k + 1}/{len(sample)} candidates {len(a)} ({time.process_time() - t1:.0f} s)", file=sys.stderr,
              flush=True)
    return {"net": repr(net)[:60], "games_played": games, "won_by_1ply": round(won, 4),
            "decisions_a_game": round(per_game, 2), "decisions_measured": len(rows), "missing": missing,
            "rollout": {"games": args.games, "truncate": args.truncate, "luck": True},
            **estimates(rows, per_game),
            "cpu_seconds": {"games": round(t1 - t0), "rollouts": round(time.process_time() - t1)}}


def decisions_from(net: Net, first: int, pairs: int) -> tuple[list[tuple[TurnState, tuple[int, ...]]], int, float]:
    """The 1-ply bot's checker decisions with a choice (the state and the play chosen) in the games
    of pairs ``first .. first + pairs - 1`` against HeuristicBot, the games played and the bot's
    winning share in them."""
    variant = find_variant("mexican")
    kept: list[tuple[TurnState, tuple[int, ...]]] = []
    games = wins = 0
    for i in range(first, first + pairs):
        for seat in (WHITE, BLACK):
            rng = random.Random(1_000_003 * i + 17)  # strength.py match's dice
            bot = RecordingBot(net, Options(ply=1))
            end = play_out(start_state(variant), {seat: bot, (BLACK if seat == WHITE else WHITE): HeuristicBot()}, rng)
            kept.extend(bot.kept)
            games += 1
            wins += end.winner == seat
    return kept, games, wins / games


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
