"""Move generation and random self-play speed, ours beside GNU Backgammon and OpenSpiel.

    python benchmarks/movegen.py [--positions 2000] [--games 200] [--repeat 3]

Every figure comes from one run on the same random reachable standard positions (taken from
OpenSpiel self-play by ``tests/peers.py``, bar, doubles and bear-off positions among them):

* ours: ``legal_plays`` with every resulting ``Position`` built; and ``legal_boards``, the raw
  mover's-eye tuples the generator works on;
* GNU Backgammon: ``gnubg_nn.moves`` alone, and with every resulting key decoded into a board;
* OpenSpiel: the full-turn search (both half-turn actions of doubles) over ``legal_actions``;
* ours, the compiled search alone: the kernel's ``search`` on int8 boards (what self-play and
  the trainer call), no Python objects built;
* random self-play games per second: each of our variants through ``Game.play_random`` (the
  whole turn flow: openings, re-rolls, Mexicans, history for undo) and through the compiled
  self-play kernel (``analysis.selfplay.random_games``: the same flow, no history), beside
  OpenSpiel's standard game.

Throughput is positions (inputs) per second and resulting positions per second; the best of
``--repeat`` runs is printed, since other processes on the machine can only slow a run down.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import peers  # noqa: E402

from backgammon_lab import Position  # noqa: E402
from backgammon_lab.game import Game  # noqa: E402
from backgammon_lab.rules import legal_boards, legal_plays  # noqa: E402


def best(fn, repeat: int) -> tuple[float, float]:
    """Run ``fn`` (returns (count, results)) ``repeat`` times; best rates per second."""
    rates = []
    for _ in range(repeat):
        t0 = time.process_time()
        count, results = fn()
        dt = time.process_time() - t0
        rates.append((count / dt, results / dt))
    return max(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    samples = peers.random_reachable_positions(args.positions, seed=args.seed)
    ours_in = [(Position.from_json(p), d) for p, d in samples]
    g = peers._gnubg()
    boards = [(peers.pos_to_gnubg_board(p), int(d[0]), int(d[1])) for p, d in samples]

    def ours_plays() -> tuple[int, int]:
        n = 0
        for pos, d in ours_in:
            for play in legal_plays(pos, d):
                play.position  # noqa: B018  (build every resulting Position)
                n += 1
        return len(ours_in), n

    def ours_boards() -> tuple[int, int]:
        n = 0
        for pos, d in ours_in:
            n += len(legal_boards(pos, d))
        return len(ours_in), n

    import numpy as np

    from backgammon_lab.kernels import move_kernel

    kern = move_kernel(ours_in[0][0].variant)
    ws = kern.workspace()
    arrays = [(np.array(pos.board(), np.int8), int(d[0]), int(d[1])) for pos, d in ours_in]
    kern.search(arrays[0][0], 3, 1, *ws)

    def ours_kernel() -> tuple[int, int]:
        n = 0
        search = kern.search
        for b, d1, d2 in arrays:
            n += search(b, d1, d2, *ws)[0]
        return len(arrays), n

    def gnubg_moves() -> tuple[int, int]:
        n = 0
        moves = g.moves
        for b, d1, d2 in boards:
            n += len(moves(b, d1, d2)) or 1
        return len(boards), n

    def gnubg_decoded() -> tuple[int, int]:
        n = 0
        moves, decode = g.moves, g.board_from_position_key
        for b, d1, d2 in boards:
            keys = moves(b, d1, d2)
            for k in keys:
                decode(k)
            n += len(keys) or 1
        return len(boards), n

    rows = [
        ("ours: legal_plays + Position objects", best(ours_plays, args.repeat)),
        ("ours: legal_boards (tuples)", best(ours_boards, args.repeat)),
        ("ours: compiled search (int8 boards)", best(ours_kernel, args.repeat)),
        ("gnubg-nn: moves (keys only)", best(gnubg_moves, args.repeat)),
        ("gnubg-nn: moves + keys decoded", best(gnubg_decoded, args.repeat)),
        ("OpenSpiel: full-turn search", max(peers.openspiel_moves_per_second(samples[: max(200, args.positions // 4)])
                                            for _ in range(args.repeat))),
    ]
    print(f"Full-turn move generation on {len(samples)} random reachable standard positions")
    print(f"{'generator':<40} {'positions/s':>12} {'results/s':>12}")
    for name, (a, b) in rows:
        print(f"{name:<40} {a:>12,.0f} {b:>12,.0f}")
    ratio = rows[0][1][0] / rows[4][1][0]
    print(f"ratio ours (legal_plays) / gnubg-nn (decoded): {ratio:.2f}")
    print(f"ratio ours (legal_boards) / gnubg-nn (decoded): {rows[1][1][0] / rows[4][1][0]:.2f}")
    print(f"ratio ours (compiled search) / gnubg-nn (decoded): {rows[2][1][0] / rows[4][1][0]:.2f}")
    print()
    print(f"Random self-play, {args.games} games each (games/s)")
    for variant in ("standard", "mexican", "minigam"):
        def run(variant: str = variant) -> tuple[int, int]:
            for s in range(args.games):
                Game(variant, seed=s).play_random(random.Random(s))
            return args.games, 0
        print(f"{'ours: ' + variant + ' (Game.play_random)':<40} {best(run, 1)[0]:>12,.0f}")
        from backgammon_lab.analysis.selfplay import random_games
        from backgammon_lab.variants import find_variant

        v = find_variant(variant)
        random_games(v, 1)
        many = args.games * 10

        def compiled(v: object = v, many: int = many) -> tuple[int, int]:
            random_games(v, many, seed=1)  # type: ignore[arg-type]
            return many, 0
        print(f"{'ours: ' + variant + ' (compiled kernel)':<40} {best(compiled, args.repeat)[0]:>12,.0f}")
    os_rate = max(peers.openspiel_random_games_per_second(args.games, seed=s) for s in range(args.repeat))
    print(f"{'OpenSpiel: standard':<40} {os_rate:>12,.0f}")


if __name__ == "__main__":
    main()
