"""Mini-Gam solved (backgammon_lab.analysis.solve).

* The state count and the index, checked against direct enumeration.
* The vectorised successor tables, checked against the engine's single steps.
* Small boards (checkers=2, 3) against plain expectimax search with the engine's move generator.
  Hits make positions recur, so a search to "full depth" does not end; instead the search is cut
  at an even depth D with every leaf valued 0, and again with every leaf valued 1. The value
  operator T (average over rolls of the best of 1 - next value) is order-reversing, so T^D of the
  all-0 and all-1 guesses bracket the true values for even D, and the bracket closes as D grows:
  at D = 26 it is narrower than 1e-9 on checkers=2, and the table must lie inside it. On races
  (no contact, so no cycles) the plain search ends and must agree exactly.
* The Bellman equation: every value equals the average over the 21 rolls of the best play's value,
  computed with :func:`backgammon_lab.rules.legal_boards`, within 1e-9 -- on every state of small
  boards and on random states of the full 8-checker table (built once into the user's cache
  directory if absent: about 1.5 minutes on two cores, then reused).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis.solve import (
    MiniGamIndex,
    MiniGamTable,
    get_table,
    load_table,
    solve,
    start_values,
    successor_tables,
)
from backgammon_lab.errors import AnalysisError, TableMissingError
from backgammon_lab.game import ALL_ROLLS
from backgammon_lab.rules import _rules, legal_boards


def other(p: str) -> str:
    return "black" if p == "white" else "white"


@pytest.fixture(scope="module")
def small_tables() -> dict[tuple[int, bool], MiniGamTable]:
    return {(k, bf): solve(k, bar_first=bf, progress=False) for k in (2, 3) for bf in (False, True)}


def test_state_count() -> None:
    ix = MiniGamIndex(8)
    assert len(ix.configs) == 6435  # C(15, 7): 8 checkers over off, six points, bar
    assert ix.n_states == 3_910_437
    terminal = sum(int(ix.size[8, o]) + int(ix.size[o, 8]) for o in range(9)) - int(ix.size[8, 8])
    assert ix.n_states - terminal == 3_897_568  # neither side has borne off all 8
    # the same count by brute force over pairs of configurations
    masks = np.array([sum(1 << (i - 1) for i in range(1, 7) if c[i]) for c in ix.configs])
    omasks = np.array([sum(1 << (6 - q) for q in range(1, 7) if c[q]) for c in ix.configs])
    mc = np.bincount(masks, minlength=64)
    oc = np.bincount(omasks, minlength=64)
    assert sum(int(mc[a]) * int(oc[b]) for a in range(64) for b in range(64) if a & b == 0) == 3_910_437


def test_index_round_trip_and_enumeration() -> None:
    k = 3
    ix = MiniGamIndex(k)
    v = find_variant("minigam", checkers=k)
    seen = set()
    for i in range(ix.n_states):
        for turn in ("white", "black"):
            pos = ix.position(i, v, turn)
            assert ix.index_position(pos) == i
        seen.add(ix.position(i, v, "white"))
    # every legal 3-checker position with White to move, enumerated directly
    count = 0
    for pts in product(range(-k, k + 1), repeat=6):
        w = sum(x for x in pts if x > 0)
        b = -sum(x for x in pts if x < 0)
        if w > k or b > k:
            continue
        for wbar, bbar in product(range(k - w + 1), range(k - b + 1)):
            pos = Position(v, list(pts), (wbar, bbar), (k - w - wbar, k - b - bbar), "white")
            assert pos in seen
            count += 1
    assert count == ix.n_states


@pytest.mark.parametrize("bar_first", [False, True])
@pytest.mark.parametrize("k", [3, 5])
def test_successors_match_engine_steps(k: int, bar_first: bool) -> None:
    ix = MiniGamIndex(k)
    v = find_variant("minigam", checkers=k, bar_first=bar_first)
    succ, swap = successor_tables(ix, bar_first)
    r = _rules(v)
    rng = random.Random(k)
    states = range(ix.n_states) if k == 3 else rng.sample(range(ix.n_states), 3000)
    for s in states:
        pos = ix.position(s, v, "white")
        board = pos.board()
        assert swap[s] == ix.index_position(pos.with_turn("black"))
        for d in range(1, 7):
            want = {ix.index_board(nb, pos.off[1]) for _, _, nb, _ in r.steps(board, d)}
            got = {int(x) for x in succ[d - 1, :, s] if x != ix.n_states}
            assert got == want, (pos.to_string(), d)


def bellman(table: MiniGamTable, pos: Position) -> float:
    """Average over the rolls of the best play's value, straight from the engine."""
    k = table.checkers
    opp_off = pos.off[1 if pos.turn == "white" else 0]
    total = 0.0
    for roll, p in ALL_ROLLS:
        best = 0.0
        for nb in legal_boards(pos, roll):
            if nb[0] == k:
                val = 1.0
            else:
                nxt = Position.from_board(pos.variant, pos.turn, nb, opp_off).with_turn(other(pos.turn))
                val = 1.0 - table.value(nxt)
            best = max(best, val)
        total += p * best
    return total


@pytest.mark.parametrize("bar_first", [False, True])
def test_bellman_every_state_small(small_tables: dict, bar_first: bool) -> None:
    t = small_tables[3, bar_first]
    ix = t.index
    for s in range(ix.n_states):
        pos = ix.position(s, t.variant, "white")
        if pos.is_over:
            continue
        assert abs(bellman(t, pos) - t.value(pos)) < 1e-9, pos.to_string()
        assert abs(t.bellman(pos) - t.value(pos)) < 1e-9


def test_against_depth_limited_expectimax(small_tables: dict) -> None:
    k = 2
    t = small_tables[k, False]
    v = t.variant
    memo: dict[tuple[Position, int], tuple[float, float]] = {}

    def emax(pos: Position, depth: int) -> tuple[float, float]:
        """Depth-limited expectimax with leaves valued 0 and 1 (both at once)."""
        if depth == 0:
            return (0.0, 1.0)
        if pos.turn == "black":  # colours do not matter: search White-to-move positions only
            pos = pos.swapped()
        key = (pos, depth)
        got = memo.get(key)
        if got is not None:
            return got
        opp_off = pos.off[1]
        lo = hi = 0.0
        for roll, p in ALL_ROLLS:
            best_lo = best_hi = 0.0
            for nb in legal_boards(pos, roll):
                if nb[0] == k:
                    v_lo = v_hi = 1.0
                else:
                    nxt = Position.from_board(v, pos.turn, nb, opp_off).with_turn(other(pos.turn))
                    n_lo, n_hi = emax(nxt, depth - 1)
                    v_lo, v_hi = 1.0 - n_hi, 1.0 - n_lo
                best_lo, best_hi = max(best_lo, v_lo), max(best_hi, v_hi)
            lo += p * best_lo
            hi += p * best_hi
        memo[key] = (lo, hi)
        return lo, hi

    depth = 26
    rng = random.Random(0)
    positions = [Position.start(v)] + [t.index.position(i, v, rng.choice(["white", "black"]))
                                        for i in rng.sample(range(t.index.n_states), 40)]
    checked = 0
    for pos in positions:
        if pos.is_over:
            continue
        lo, hi = emax(pos, depth)
        val = t.value(pos)
        assert lo - 1e-11 <= val <= hi + 1e-11
        assert hi - lo < 1e-9
        checked += 1
    assert checked > 30
    # and the bracket is real: a shallow search leaves it wide open
    lo, hi = emax(Position.start(v), 4)
    assert hi - lo > 0.1


def test_against_plain_expectimax_on_races(small_tables: dict) -> None:
    k = 3
    t = small_tables[k, False]
    v = t.variant
    memo: dict[Position, float] = {}

    def contact(pos: Position) -> bool:
        b = pos.board()
        mine = [p for p in range(1, 7) if b[p] > 0] + ([7] if b[7] else [])
        theirs = [p for p in range(1, 7) if b[p] < 0] + ([0] if b[8] else [])
        return bool(mine and theirs and min(theirs) < max(mine))

    def emax(pos: Position) -> float:  # no depth limit: races cannot cycle
        got = memo.get(pos)
        if got is not None:
            return got
        opp_off = pos.off[1 if pos.turn == "white" else 0]
        total = 0.0
        for roll, p in ALL_ROLLS:
            best = 0.0
            for nb in legal_boards(pos, roll):
                nxt = Position.from_board(v, pos.turn, nb, opp_off)
                val = 1.0 if nb[0] == k else 1.0 - emax(nxt.with_turn(other(pos.turn)))
                best = max(best, val)
            total += p * best
        memo[pos] = total
        return total

    races = 0
    for i in range(t.index.n_states):
        pos = t.index.position(i, v, "white")
        if pos.is_over or contact(pos):
            continue
        assert abs(emax(pos) - t.value(pos)) < 1e-11
        races += 1
    assert races > 500


def test_start_values_small(small_tables: dict) -> None:
    t = small_tables[3, False]
    sv = start_values(t)
    assert len(sv["opening_rolls"]) == 15
    assert sv["before_opening"] == pytest.approx(0.5)
    assert 0.5 < sv["first_mover"] < 1


def test_save_load(tmp_path, small_tables: dict) -> None:
    t = small_tables[3, True]
    path = t.save(tmp_path / "t.npz")
    u = MiniGamTable.load(path)
    assert u.bar_first and u.checkers == 3 and np.array_equal(u.values, t.values)
    assert u.variant == find_variant("minigam", checkers=3, bar_first=True)
    with pytest.raises(ValueError, match="solves"):
        u.value(Position.start("minigam"))
    with pytest.raises(TableMissingError, match="solve minigam"):
        load_table(tmp_path / "missing.npz")
    with pytest.raises(ValueError):
        solve(9)
    for bad in (True, 2.0, "3", 0):  # a bool is no count of checkers (isinstance(True, int) holds)
        with pytest.raises(AnalysisError, match=repr(bad).replace(".", r"\.")):
            solve(bad)  # type: ignore[arg-type]


def test_solve_independent_of_threads() -> None:
    a = solve(4, threads=1, progress=False, chunk=4096)
    b = solve(4, threads=2, progress=False, chunk=4096)
    assert np.array_equal(a.values, b.values)


@pytest.mark.slow
def test_full_table_bellman() -> None:
    """The 8-checker table (built into the cache if absent): Bellman on random states, the start."""
    t0 = time.perf_counter()
    table = get_table(find_variant("minigam"), build=True, progress=False)
    assert table is not None
    built = time.perf_counter() - t0
    t1 = time.perf_counter()
    table2 = MiniGamTable.load(table.path)
    load_seconds = time.perf_counter() - t1
    assert load_seconds < 1.0
    assert np.array_equal(table2.values, table.values)
    assert len(table.values) == 3_910_437
    rng = random.Random(2024)
    ix = table.index
    worst = 0.0
    n = 0
    while n < 400:
        s = rng.randrange(ix.n_states)
        pos = ix.position(s, table.variant, rng.choice(["white", "black"]))
        if pos.is_over:
            continue
        worst = max(worst, abs(bellman(table, pos) - table.value(pos)))
        n += 1
    assert worst < 1e-9
    sv = start_values(table)
    assert sv["before_opening"] == pytest.approx(0.5)
    assert sv["first_mover"] == pytest.approx(0.5579102105, abs=1e-9)
    assert table.value(Position.start("minigam")) == pytest.approx(0.6063874387, abs=1e-9)
    print(f"table ready in {built:.1f} s, loaded in {load_seconds * 1000:.0f} ms, worst Bellman error {worst:.1e}")


def plain_value_iteration(k: int, bar_first: bool) -> np.ndarray:
    """The values by plain value iteration over whole plays from :func:`legal_boards` (no step
    tables, no kernels): every roll's distinct end boards, iterated in place until nothing moves."""
    ix = MiniGamIndex(k)
    v = find_variant("minigam", checkers=k, bar_first=bar_first)
    values = np.full(ix.n_states, 0.5)
    rows: list[tuple[int, list[tuple[float, list[int | None]]]]] = []
    for s in range(ix.n_states):
        pos = ix.position(s, v, "white")
        if pos.is_over:
            values[s] = 0.0 if pos.off[1] == k else 1.0  # (both off, no real position: 0, as the table)
            continue
        rolls = []
        for roll, p in ALL_ROLLS:
            # None: the play bears the last checker off (won); else the index of the next state
            ends = [None if nb[0] == k else ix.index_position(
                Position.from_board(v, "white", nb, pos.off[1]).with_turn("black"))
                for nb in legal_boards(pos, roll)]
            rolls.append((p, ends))
        rows.append((s, rolls))
    for _ in range(500):
        change = 0.0
        for s, rolls in rows:
            new = sum(p * max(1.0 if e is None else 1.0 - values[e] for e in ends) for p, ends in rolls)
            change = max(change, abs(new - values[s]))
            values[s] = new
        if change < 1e-15:
            return values
    raise AssertionError("plain value iteration did not settle")


@pytest.mark.parametrize(("k", "bar_first"), [(2, False), (2, True), (3, False)])
def test_solve_equals_plain_value_iteration(small_tables: dict, k: int, bar_first: bool) -> None:
    """The compiled step-by-step solve against an independent reference built from whole plays."""
    want = plain_value_iteration(k, bar_first)
    got = small_tables[k, bar_first].values
    assert float(np.max(np.abs(got - want))) <= 1e-12


def test_solve_uncompiled_gives_the_same_values(tmp_path) -> None:
    """The same kernel source run as plain Python (NUMBA_DISABLE_JIT=1) gives the same table."""
    out = tmp_path / "t.npz"
    code = ("import sys; from backgammon_lab.analysis.solve import solve; "
            "from backgammon_lab.kernels._jit import compiled; "
            "t = solve(2, bar_first=True, progress=False); t.save(sys.argv[1]); print(compiled())")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    res = subprocess.run([sys.executable, "-c", code, str(out)], env=env, capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent)
    assert res.stdout.strip() == "False"  # it really ran uncompiled
    plain = MiniGamTable.load(out)
    compiled_values = solve(2, bar_first=True, progress=False).values
    assert np.array_equal(plain.values, compiled_values)
