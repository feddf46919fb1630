"""Seeded random boards for the generator agreement tests: every kind of position a search meets.

Each board is a mover's-eye tuple ``(off, p1..pN, bar, opponent_bar)`` (see ``Position.board``),
legal for its variant: no point holds both colours, the stacking cap holds for both sides, and the
checkers add up. Kinds, chosen at random: anywhere (hits, blocks, primes), the mover in its home
board or off (bearing off, exact bear-off), the mover with checkers on the bar (entering, bar
first), and stacks against the cap.
"""

from __future__ import annotations

import random

from backgammon_lab.variants import Variant


def random_board(variant: Variant, rng: random.Random) -> tuple[int, ...]:
    n, c, home = variant.points, variant.checkers, variant.home
    cap = variant.stacking_cap or c
    kind = rng.choice(("any", "any", "home", "bar", "stack"))
    pts = [0] * (n + 1)
    off = bar = opp_bar = 0
    spots = list(range(1, n + 1))
    if kind == "home":
        spots = list(range(1, home + 1))
    elif kind == "stack":
        spots = rng.sample(range(1, n + 1), k=min(n, rng.randint(3, 5)))
    left = c
    if kind == "home":
        off = rng.randint(0, c - 1)
        left -= off
    if kind == "bar":
        bar = rng.randint(1, min(4, c))
        left -= bar
    for _ in range(left):
        free = [p for p in spots if pts[p] < cap]
        if not free:
            off += 1
            continue
        pts[rng.choice(free)] += 1
    opp_spots = [p for p in range(1, n + 1) if pts[p] == 0]
    opp_off = rng.randint(0, c - 1) if rng.random() < 0.2 else 0
    opp_left = c - opp_off
    if rng.random() < 0.3:
        opp_bar = rng.randint(1, min(3, opp_left))
        opp_left -= opp_bar
    opp = dict.fromkeys(opp_spots, 0)
    for _ in range(opp_left):
        free = [p for p in opp_spots if opp[p] < cap]
        if not free:
            opp_off += 1
            continue
        opp[rng.choice(free)] += 1
    board = [off, *pts[1:], bar, opp_bar]
    for p, k in opp.items():
        if k:
            board[p] = -k
    return tuple(board)


def random_cases(variant: Variant, count: int, seed: int) -> list[tuple[tuple[int, ...], tuple[int, int]]]:
    """``count`` (board, roll) pairs, rolls uniform over the 36."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        b = random_board(variant, rng)
        r = rng.randrange(36)
        out.append((b, (r // 6 + 1, r % 6 + 1)))
    return out
