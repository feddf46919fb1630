"""The search kernel's shortcut for standard midgames gives exactly the general search's plays."""

from __future__ import annotations

import random

from backgammon_lab import Position
from backgammon_lab.game import Game
from backgammon_lab.rules import _legal, _rules


def _general(r, b, dice):
    """Both die orders searched in full, step by step with the Python steps (no shortcut)."""
    two = {}
    for d1, d2 in r.variant.dice_orders(dice):
        for s, t, nb, hit in r.steps(b, d1):
            for s2, t2, nb2, hit2 in r.steps(nb, d2):
                two.setdefault(nb2, [(s, t, d1, hit), (s2, t2, d2, hit2)])
    return two


def test_midgame_shortcut_equals_the_general_search() -> None:
    rng = random.Random(11)
    checked = 0
    for seed in range(12):
        g = Game("standard", seed=seed)
        while not g.is_over:
            if g.phase == "play":
                pos: Position = g.position
                r = _rules(pos.variant)
                b = pos.board()
                if b[r.n + 1] == 0 and sum(x for x in b[r.home + 1:r.n + 1] if x > 0) >= 2:
                    for a in range(2, 7):
                        for c in range(1, a):
                            fast, length = _legal(r, b, (a, c))  # the kernel takes its shortcut here
                            slow = _general(r, b, (a, c))
                            if not slow:
                                continue
                            assert length == 2
                            assert set(fast) == set(slow), (pos, (a, c))
                            for board, path in fast.items():  # each recorded path really leads there
                                bb = b
                                for s, t, _d, _h in path:
                                    bb = next(nb for s_, t_, nb, _ in r.steps(bb, _d) if (s_, t_) == (s, t))
                                assert bb == board
                            checked += 1
            if g.is_chance():
                g.roll()
            else:
                acts = g.legal_actions()
                g.apply(acts[rng.randrange(len(acts))])
    assert checked > 1000
