"""The compiled kernels against the Python paths: the search, the encodings, self-play, TD(lambda).

The whole-turn search is one module (``backgammon_lab/kernels/movegen.py``) that runs
compiled with numba or as plain Python; before it replaced the pure-Python tuple search, the two gave
byte-identical results (plays, their order and their paths) on the 100,000 seeded random positions
per variant of ``tests/data/movegen_digests.json`` (``sha256``, the Python search's digest); the
kernel's digest of the same results (``kernel_sha256``) is checked here on every run.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from backgammon_lab.analysis import selfplay
from backgammon_lab.analysis.nets import Net, encode, load_net
from backgammon_lab.analysis.train import Trainer
from backgammon_lab.engine import (
    KEEP,
    REROLL,
    MakePlay,
    NameDoubles,
    OpeningRoll,
    Phase,
    RollDice,
    advance,
    start_state,
)
from backgammon_lab.errors import AnalysisError
from backgammon_lab.kernels import compiled, move_kernel
from backgammon_lab.position import Roll
from backgammon_lab.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from randpos import random_board, random_cases  # noqa: E402

DIGESTS = json.loads((Path(__file__).parent / "data" / "movegen_digests.json").read_text())
VARIANTS = ("standard", "mexican", "minigam")
#: The encoding whose self-play and training kernel each variant's tests compile (a compile takes
#: minutes on a cold cache): the shipped net's, so the tests reuse the kernels setup compiled
#: (tests/nethelpers.py); every encoding's own inputs are checked in the kernel below.
_TRAINED = {"standard": "td24e", "mexican": "td24e", "minigam": "strip"}


def _digest(name: str, cases: list) -> tuple[str, int]:
    v = find_variant(name)
    k = move_kernel(v)
    ws = k.workspace()
    h = hashlib.sha256()
    plays = 0
    for b, d in cases:
        cnt, ml = k.search(np.array(b, np.int8), d[0], d[1], *ws)
        plays += cnt
        h.update(bytes([ml]))
        h.update(ws[0][:cnt].tobytes())
        h.update(ws[1][:cnt, :ml].tobytes())
    return h.hexdigest(), plays


def test_numba_compiles_the_kernels_here() -> None:
    assert compiled(), "numba is a required dependency: the kernels should be compiled"


@pytest.mark.parametrize("name", VARIANTS)
def test_search_kernel_gives_the_recorded_plays_on_100k_random_positions(name: str) -> None:
    want = DIGESTS[name]
    got, plays = _digest(name, random_cases(find_variant(name), want["cases"], want["seed"]))
    assert plays == want["plays"]
    assert got == want["kernel_sha256"]


def test_random_boards_cover_bar_bear_off_doubles_and_the_cap() -> None:
    import random

    rng = random.Random(5)
    mex = find_variant("mexican")
    boards = [random_board(mex, rng) for _ in range(2000)]
    assert any(b[25] > 0 for b in boards)  # on the bar
    assert any(all(x <= 0 for x in b[7:25]) and b[25] == 0 for b in boards)  # all home: bearing off
    assert any(5 in b[1:25] for b in boards)  # a point at the cap
    assert all(max(b[1:25]) <= 5 and min(b[1:25]) >= -5 for b in boards)
    assert all(b[0] + sum(x for x in b[1:26] if x > 0) == 15 for b in boards)


_UNCOMPILED = """
import json, sys
sys.path.insert(0, {tests!r})
from randpos import random_cases
from test_kernels import _digest
from backgammon_lab.kernels import compiled
from backgammon_lab.variants import find_variant
assert not compiled()
print(json.dumps({{n: _digest(n, random_cases(find_variant(n), 150, 77)) for n in {names!r}}}))
"""


def test_the_same_search_source_runs_uncompiled_with_the_same_plays() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    code = _UNCOMPILED.format(tests=str(Path(__file__).parent), names=list(VARIANTS))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    plain = json.loads(out)
    for name in VARIANTS:
        assert list(_digest(name, random_cases(find_variant(name), 150, 77))) == plain[name]


@pytest.mark.parametrize("name,enc", [("standard", "td24"), ("standard", "td24x"), ("mexican", "td24x"),
                                      ("standard", "td24e"), ("mexican", "td24m"), ("standard", "td24t"),
                                      ("minigam", "strip")])
def test_kernel_encoding_and_forward_equal_numpy(name: str, enc: str) -> None:
    import random

    v = find_variant(name)
    k = selfplay.kernel(v, enc)
    net = Net.create(v, hidden=12, seed=4, encoding=enc)
    w1t = np.ascontiguousarray(net.w1.T)
    rng = random.Random(8)
    x = np.zeros(net.inputs)
    h = np.zeros(net.hidden)
    out = np.zeros(len(net.outputs))
    for _ in range(400):
        b = random_board(v, rng)
        opp_off = v.checkers - sum(-y for y in b[1:v.points + 1] if y < 0) - b[v.points + 2]
        k.encode(np.array(b, np.int8), opp_off, x)
        want = encode(v, [b], [opp_off], enc)[0]
        assert np.abs(x - want).max() < 1e-12
        k.forward(x, w1t, net.b1, net.w2, net.b2, h, out)
        assert np.abs(out - net.evaluate([b], [opp_off])[0]).max() < 1e-9


@pytest.mark.parametrize("name,enc", [("standard", "td24"), *sorted(_TRAINED.items())])
def test_incremental_evaluation_equals_the_numpy_forward_pass(name: str, enc: str) -> None:
    """Every play of a roll valued incrementally from the position before it (the base: that
    position as the next side to act sees it) equals the numpy net on the play's board, within
    1e-9, on random positions and rolls of each variant, for the turn passing and for the mover
    acting again."""
    import random

    v = find_variant(name)
    k = selfplay.kernel(v, enc)
    net = Net.create(v, hidden=24, seed=6, encoding=enc)
    net.b1[:] = np.random.default_rng(1).normal(0, 0.5, net.hidden)
    w1t = np.ascontiguousarray(net.w1.T)
    mg = move_kernel(v)
    ws = mg.workspace()
    ic = k.inc_scratch(w1t, net.w2, net.b2)
    out = np.zeros(len(net.outputs))
    rng = random.Random(31)
    plays = 0
    worst = 0.0
    for n in range(600):
        b = random_board(v, rng)
        opp_off = v.checkers - sum(-y for y in b[1:v.points + 1] if y < 0) - b[v.points + 2]
        a, c = rng.randint(1, 6), rng.randint(1, 6)
        cnt, _used = mg.search(np.array(b, np.int8), a, c, *ws)
        boards = ws[0][:cnt].copy()
        same = n % 3 == 0
        want = net.values_after(boards.astype(int), np.full(cnt, opp_off), same_side=np.full(cnt, same))
        k.inc_base(np.array(b, np.int8), opp_off, same, w1t, net.b1, ic)
        for i in range(cnt):
            k.value_inc(boards[i], opp_off, same, w1t, net.w2, net.b2, ic, out)
            worst = max(worst, float(np.abs(out - want[i]).max()))
        plays += cnt
    assert worst < 1e-9 and plays > 2000


@pytest.mark.parametrize("name", VARIANTS)
def test_random_self_play_kernel_follows_the_engine_event_by_event(name: str) -> None:
    """Whole random games in the kernel, replayed through engine.advance with the same dice and
    choices: the same phases, players, rolls, numbers of plays, dice used, naming and result."""
    v = find_variant(name)
    k = selfplay.kernel(v, _TRAINED[name])
    nin = k.NIN
    zeros = (np.zeros((nin, 1)), np.zeros(1), np.zeros((1, 1)), np.zeros(1),
             np.zeros((nin, 1, 1)), np.zeros((1, 1)), np.zeros((1, 1, 1)), np.zeros((1, 1)))
    ws = selfplay.workspace(v)
    start = selfplay.start_board(v)
    kinds: set[int] = set()
    for seed in range(25):
        log = np.zeros((6000, 8), np.int64)
        winner, points, _plies, n = k.play_game(start, selfplay.dice_seed(seed), 0, False, *zeros, 0.0, 0.0, ws, log,
                                                  False, selfplay.no_database())
        assert n < len(log)
        s = start_state(v)
        lost = False  # did the last action's dice have no legal move (the engine passed the turn)?
        for kind, turn, a, c, choice, cnt, used, _ in log[:n].tolist():
            kinds.add(kind)
            if kind == 1:
                assert s.phase is Phase.OPENING
                s, _ = advance(s, OpeningRoll(a, c))
            elif kind == 2:
                assert s.phase is Phase.CHOICE and (s.player == "white") == (turn == 0)
                s, events = advance(s, KEEP if choice else REROLL)
                lost = any(type(e).__name__ == "TurnLost" for e in events)
            elif kind == 3:
                assert s.phase is Phase.ROLL and (s.player == "white") == (turn == 0)
                s, events = advance(s, RollDice(Roll(a, c)))
                lost = any(type(e).__name__ == "TurnLost" for e in events)
            elif kind == 4:
                if used == 0:
                    assert lost, "the kernel found no move where the engine did"
                    continue
                assert s.phase is Phase.PLAY and s.plays is not None
                assert (len(s.plays), s.plays.length) == (cnt, used)
                s, _ = advance(s, MakePlay(s.plays[choice]))
            elif kind == 5:
                assert s.phase is Phase.NAME
                s, events = advance(s, NameDoubles(choice))
                lost = any(type(e).__name__ == "TurnLost" for e in events)
        assert s.phase is Phase.OVER
        assert (s.winner == "white") == (winner == 0) and s.points == points
    assert {1, 3, 4} <= kinds and (kinds >= {2, 5} or not v.mexican)


@pytest.mark.parametrize("lam", [0.7, 0.0])
@pytest.mark.parametrize("name,enc", sorted(_TRAINED.items()))
def test_td_training_in_the_kernel_equals_the_python_reference(name: str, enc: str, lam: float) -> None:
    """The kernel's TD(lambda) (with lambda 0 its trace-free update) against the Python trainer's
    traces: the same dice, weights and averages after two games."""
    a = Net.create(name, hidden=8, seed=5, encoding=enc)
    b = a.copy()
    ta = Trainer(a, seed=9, alpha=0.1, lam=lam, average=3)
    tb = Trainer(b, seed=9, alpha=0.1, lam=lam, average=3)
    for _ in range(2):
        ta.play_game()
        ta._average_step()
    tb.train(2)
    assert int(ta.dice[0]) == int(tb.dice[0])
    for x, y in ((a.w1, b.w1), (a.b1, b.b1), (a.w2, b.w2), (a.b2, b.b2)):
        assert np.abs(x - y).max() < 1e-9 and np.abs(x).max() > 0
    assert ta.averaged is not None and tb.averaged is not None
    assert np.abs(ta.averaged.w1 - tb.averaged.w1).max() < 1e-9


def test_the_trainers_naming_in_a_bear_off_race_reads_the_net_alone() -> None:
    """After a Mexican in a pure bear-off race the Python trainer names the doubles its kernel
    names: both by the net's own values (the evaluator's default there, the bear-off database's
    exact values, ranked the doubles otherwise, so the two trainers' games parted)."""
    from backgammon_lab import Position
    from backgammon_lab.analysis.search import name_values
    from backgammon_lab.position import WHITE

    v = find_variant("mexican")
    net = Net.create(v, hidden=8, seed=1, encoding=_TRAINED["mexican"])
    k = selfplay.kernel(v, net.encoding)
    board = (3, 4, 4, 4) + (0,) * 19 + (-4, -4, 0, 0)  # my 12 on my 1- to 3-points, its 8 on its 1- and 2-points
    pos = Position.from_board(v, WHITE, board, 7)
    own = net.score(name_values(net, pos, lookahead=False, exact_races=False))
    exact = net.score(name_values(net, pos, lookahead=False))
    w1t = np.ascontiguousarray(net.w1.T)
    named = k._name_value(np.array(board, np.int8), 7, w1t, net.b1, net.w2, net.b2,
                          selfplay.workspace(v), k.inc_scratch(w1t, net.w2, net.b2), np.zeros(1))
    assert named == int(np.argmax(own)) + 1
    assert int(np.argmax(exact)) + 1 != named  # the case that parted them: the database ranks 1-1 first


@pytest.mark.parametrize("lam", [0.7, 0.0])
@pytest.mark.parametrize("name,enc", [(n, e) for n, e in sorted(_TRAINED.items()) if n != "minigam"])
def test_exact_race_targets_in_the_kernel_equal_the_python_reference(name: str, enc: str, lam: float,
                                                                      tmp_path: Path) -> None:
    """Issue 19, the bear-off database as training targets: with ``exact_races`` the kernel and the
    Python trainer make the same steps (a state before a pure bear-off race learns towards the
    database's values), and those steps are not the plain ones: the same games move the weights
    elsewhere than without it."""
    v = find_variant(name)
    base = Net.create(name, hidden=8, seed=5, encoding=enc)
    a, b, c = base.copy(), base.copy(), base.copy()
    ta = Trainer(a, seed=2, alpha=0.1, lam=lam, exact_races=True)
    tb = Trainer(b, seed=2, alpha=0.1, lam=lam, exact_races=True)
    for _ in range(3):
        ta.play_game()
    tb.train(3)
    Trainer(c, seed=2, alpha=0.1, lam=lam).train(3)
    assert int(ta.dice[0]) == int(tb.dice[0])
    for x, y in ((a.w1, b.w1), (a.b1, b.b1), (a.w2, b.w2), (a.b2, b.b2)):
        assert np.abs(x - y).max() < 1e-9
    assert np.abs(b.w2 - c.w2).max() > 1e-6, "no race was met: the test's games prove nothing"
    assert v.points >= 2 * v.home
    resumed = Trainer.resume(load_net(tb.checkpoint(tmp_path / "n.npz")))
    assert resumed.exact_races is True and Trainer.resume(resumed.net, exact_races=False).exact_races is False


def test_exact_race_targets_need_a_bear_off_database() -> None:
    """Mini-Gam has no bear-off database (its table is exact everywhere): asking for exact race
    targets there is refused, quoting the variant, and a non-boolean is refused."""
    net = Net.create("minigam", hidden=4, seed=1)
    with pytest.raises(AnalysisError, match="minigam has no bear-off database"):
        Trainer(net, exact_races=True)
    with pytest.raises(AnalysisError, match="exact_races is True or False, not 'yes'"):
        Trainer(Net.create("standard", hidden=4, seed=1), exact_races="yes")  # type: ignore[arg-type]


def test_the_rule_tests_pass_with_numba_disabled() -> None:
    """Issue 18: the rules work the same without the compiler: the rule tests of every variant,
    run in a subprocess with NUMBA_DISABLE_JIT=1 (the search kernel's source as plain Python)."""
    here = Path(__file__).parent
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    files = [str(here / f"test_rules_{v}.py") for v in VARIANTS]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-o", "addopts=", *files],
                          capture_output=True, text=True, env=env, cwd=here.parent)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout


def test_rollouts_reuse_the_opening_choices_for_the_same_start_and_net_only() -> None:
    """A Mexican rollout from the opening keeps the kernel's keep/re-roll decisions by roll
    (rollout._MEMOS) for later calls with the same start, net and settings; a call that reuses them
    gives, game by game, the engine path's results, and another net gets a table of its own."""
    from backgammon_lab.analysis import rollout as ro
    from backgammon_lab.analysis.netbot import NetBot
    from backgammon_lab.analysis.options import Options

    v = find_variant("mexican")
    net = Net.create(v, hidden=10, seed=3, encoding=_TRAINED["mexican"])
    start = start_state(v)
    ro._MEMOS.clear()
    first = ro.rollout(start, Options(games=12, seed=3, bot=NetBot(net)))
    (memo,) = ro._MEMOS.values()
    known = int((memo >= 0).sum())
    assert known > 0 and set(memo[memo >= 0].tolist()) <= {0, 1}
    again = ro.rollout(start, Options(games=12, seed=11, bot=NetBot(net)))  # starts from the table
    assert len(ro._MEMOS) == 1 and again.samples != first.samples
    ro.KERNEL_ROLLOUTS = False
    try:
        slow = ro.rollout(start, Options(games=12, seed=11, bot=NetBot(net)))
    finally:
        ro.KERNEL_ROLLOUTS = True
    assert again.samples == slow.samples and again.outcomes == slow.outcomes
    other = net.copy()
    other.w1[0, 0] += 0.25
    ro.rollout(start, Options(games=2, seed=3, bot=NetBot(other)))
    assert len(ro._MEMOS) == 2
