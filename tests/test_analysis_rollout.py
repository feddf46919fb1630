"""Rollouts and bots (backgammon_lab.analysis.rollout, .bots)."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace

import numpy as np
import pytest
from nethelpers import small_net

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis.bots import Bot, HeuristicBot, PerfectMiniGamBot, RandomBot, evaluate
from backgammon_lab.analysis.options import Options
from backgammon_lab.analysis.rollout import RolloutError, RolloutResult, play_out, rollout, sample_positions
from backgammon_lab.analysis.solve import solve
from backgammon_lab.engine import MakePlay, OpeningRoll, Phase, RollDice, advance, position_state, start_state
from backgammon_lab.game import Game
from backgammon_lab.position import Roll


@pytest.fixture(scope="module")
def table3():
    return solve(3, progress=False)


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
@pytest.mark.parametrize("bot_kind", ["random", "heuristic"])
def test_bare_engine_plays_the_same_games_as_game(variant: str, bot_kind: str) -> None:
    """Same dice generator, same decisions: the bare engine (as rollouts drive it) and Game go
    through identical states, and play_out ends where Game ends."""
    for seed in range(6 if variant != "minigam" else 20):
        g = Game(variant, seed=seed)
        rng = random.Random(seed)
        s = start_state(variant)
        b1: Bot = RandomBot(seed) if bot_kind == "random" else HeuristicBot()
        b2: Bot = RandomBot(seed) if bot_kind == "random" else HeuristicBot()
        while not g.is_over:
            assert (g.phase, g.position, g.dice) == (s.phase, s.position, s.roll)
            if g.is_chance():
                g.roll()
                a, b = rng.randint(1, 6), rng.randint(1, 6)
                s = advance(s, OpeningRoll(a, b) if s.phase is Phase.OPENING else RollDice(Roll(a, b)))[0]
                continue
            a1, a2 = b1.choose(g), b2.choose(s)
            assert a1 == a2
            g.apply(a1)
            s = advance(s, a2)[0]
        assert (s.phase, s.winner, s.points) == ("over", g.winner, g.points)
        b3: Bot = RandomBot(seed) if bot_kind == "random" else HeuristicBot()
        end = play_out(start_state(variant), {"white": b3, "black": b3}, random.Random(seed))
        if bot_kind == "heuristic":  # a random bot draws in another order when one bot plays both sides
            assert (end.position, end.winner, end.points) == (g.position, g.winner, g.points)


def test_bots_answer_every_mexican_decision() -> None:
    g = Game("mexican", seed=1)
    g.roll((2, 1))  # White wins the opening with 2-1: keep it (a Mexican) or roll again
    assert g.phase == "choice"
    for bot in (RandomBot(3), HeuristicBot(), Bot()):
        assert bot.choose(g) in ("keep", "reroll")
    assert HeuristicBot().choose(g) == "keep"  # a kept 2-1 is a Mexican: always worth keeping
    g.choose("keep")
    g.play(HeuristicBot().choose(g))
    assert g.phase == "name"
    for bot in (RandomBot(3), HeuristicBot(), Bot()):
        assert bot.choose(g).number in range(1, 7)
    g.name_doubles(HeuristicBot().choose(g))
    assert g.phase == "play"
    assert HeuristicBot().choose(g).play in g.legal_actions()
    with pytest.raises(ValueError):
        HeuristicBot().choose(Game("mexican"))  # opening: a chance node, no decision


def test_evaluate_prefers_points_over_blots() -> None:
    v = find_variant("standard")
    made = Position.from_string("standard/w/24x2,13x4,8x2,6x5,5x2/24x2,13x5,8x3,6x5").board()
    blots = Position.from_string("standard/w/24x2,13x4,8x3,6x4,5,4/24x2,13x5,8x3,6x5").board()
    assert evaluate(made, v, 0) > evaluate(blots, v, 0)


def test_rollout_repeats_for_a_seed() -> None:
    pos = Position.start("minigam")
    a = rollout(pos, Options(games=150, seed=7))
    b = rollout(pos, Options(games=150, seed=7))
    assert a.to_json() == b.to_json() and a.outcomes == b.outcomes
    c = rollout(pos, Options(games=150, seed=8))
    assert c.to_json() != a.to_json()
    r1 = rollout(pos, Options(games=80, seed=1, bot=RandomBot(5)))
    r2 = rollout(pos, Options(games=80, seed=1, bot=RandomBot(99)))  # re-seeded per game
    assert r1.to_json() == r2.to_json()


def test_rollout_same_with_two_workers() -> None:
    pos = Position.start("standard")
    one = rollout(pos, Options(games=24, seed=3, workers=1, bot=RandomBot()), chunk=6)
    two = rollout(pos, Options(games=24, seed=3, workers=2, bot=RandomBot()), chunk=6)
    assert one.to_json() == two.to_json()


def test_error_bars_shrink_and_cover_the_exact_value(table3) -> None:
    """Perfect play on both sides: the rollout estimates the solved value, within its error bars,
    and the standard error falls like 1/sqrt(games)."""
    v = table3.variant
    pos = Position.start(v)
    bot = PerfectMiniGamBot(table3)
    exact = table3.value(pos)
    results = [rollout(pos, Options(games=n, seed=11, bot=bot)) for n in (100, 400, 1600)]
    errs = [r.stderr for r in results]
    assert errs[0] > errs[1] > errs[2]
    assert errs[2] == pytest.approx(errs[0] / 4, rel=0.25)
    for r in results:
        assert abs(r.win - exact) < 4 * r.stderr + 1e-9
    lo, hi = results[-1].interval()
    assert lo < results[-1].win < hi


def test_heuristic_beats_random() -> None:
    for variant in ("standard", "minigam"):
        pos = Position.start(variant)
        r = rollout(pos, Options(games=40 if variant == "standard" else 200, seed=2, bot=HeuristicBot()), opponent=RandomBot())
        assert r.win > 0.7, (variant, r.win)


def test_perfect_beats_heuristic(table3) -> None:
    pos = Position.start(table3.variant)
    perfect = PerfectMiniGamBot(table3)
    as_first = rollout(pos, Options(games=600, seed=4, bot=perfect), opponent=HeuristicBot())
    as_second = rollout(pos, Options(games=600, seed=4, bot=HeuristicBot()), opponent=perfect)
    assert as_first.win + (1 - as_second.win) > 1.0


def test_rollout_inputs_and_output(capsys) -> None:
    g = Game("mexican", seed=5)
    r = rollout(g, Options(games=4, seed=0, progress=True, bot=RandomBot()))  # at the opening: for White
    assert isinstance(r, RolloutResult) and r.player == "white" and r.games == 4
    g.roll((6, 2))
    g.choose("keep")
    r2 = rollout(g, Options(games=4, seed=0, bot=RandomBot()))
    assert r2.player == g.current_player
    assert "winning chance" in str(r2) and "<table" in r2._repr_html_()
    std = rollout(Position.start("standard"), Options(games=30, seed=1, bot=RandomBot()))
    assert set(std.outcomes) <= {-3, -2, -1, 1, 2, 3}
    with pytest.raises(ValueError):
        rollout(Position.start("minigam"), Options(games=0))
    with pytest.raises(ValueError, match="Position, a Game or a TurnState"):
        rollout("minigam")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="options: expected an Options"):
        rollout(Position.start("minigam"), RandomBot())  # type: ignore[arg-type]  # the bot is an option now
    assert rollout(Position.start("minigam"), Options(seed=2)).games == 1000  # the default count


# -- variance reduction -------------------------------------------------------------------------


def test_first_rolls_are_stratified_over_36_and_1296_outcomes() -> None:
    from backgammon_lab.analysis.rollout import first_rolls

    firsts = [first_rolls(3, i, 72) for i in range(72)]
    assert all(len(f) == 1 for f in firsts)
    assert sorted(f[0] for f in firsts[:36]) == [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert firsts[36:] == firsts[:36]
    pairs = [first_rolls(3, i, 1296) for i in range(1296)]
    assert len(set(pairs)) == 1296 and all(len(p) == 2 for p in pairs)
    assert first_rolls(4, 0, 72) != first_rolls(3, 0, 72) or first_rolls(4, 1, 72) != first_rolls(3, 1, 72)


def test_play_out_stops_after_the_turns_asked() -> None:
    s = advance(start_state("standard"), OpeningRoll(3, 1))[0]
    bots: dict[str, Bot] = {"white": HeuristicBot(), "black": HeuristicBot()}
    end = play_out(s, bots, random.Random(1), turns=3)  # the opening turn was begun before: 3 more
    assert end.phase is Phase.ROLL and not end.reroll
    forced = play_out(start_state("standard"), bots, random.Random(1), first=[(6, 2)], turns=1)
    assert forced.phase is Phase.ROLL and forced.player == "black"  # White won the forced opening 6-2


def test_reduced_rollout_has_a_smaller_error_than_a_plain_one(table3) -> None:
    """A fixed Mini-Gam position, perfect play, the same number of games: stratified first rolls
    and truncation after one turn (valued by the exact table) give a smaller reported error and a
    smaller spread over seeds than a plain rollout, and both agree with the exact value."""
    pos = Position.from_string("minigam;checkers=3/w/bar,3,off/5x2,off")
    bot = PerfectMiniGamBot(table3)
    exact = table3.value(pos)
    plain, reduced = [], []
    for seed in range(4):
        p = rollout(pos, Options(games=216, seed=seed, bot=bot))
        r = rollout(pos, Options(games=216, seed=seed, truncate=1, evaluator=table3, bot=bot), stratify=True)
        assert not p.reduced and r.reduced and r.stratified and r.truncate == 1
        assert r.stderr < p.stderr and r.plain_stderr == pytest.approx(math.sqrt(r.win * (1 - r.win) / 216))
        assert abs(p.win - exact) < 4 * p.stderr and abs(r.win - exact) < 4 * r.stderr + 1e-9
        plain.append(p.win)
        reduced.append(r.win)
    assert statistics.pstdev(reduced) < statistics.pstdev(plain)
    assert "variance reduction" in str(r) and r.to_json()["plain_stderr"] == r.plain_stderr
    assert "plain_stderr" not in p.to_json()  # a plain rollout reports what it always did


def test_truncated_rollout_with_a_net() -> None:
    from backgammon_lab.analysis.netbot import NetBot

    net = small_net("standard", 8, seed=2)
    pos = Position.start("standard")
    r = rollout(pos, Options(games=40, seed=1, truncate=2, bot=NetBot(net)), stratify=True)
    assert r.truncated == 40 and r.wins == 0 and r.outcomes == {} and 0 < r.win < 1
    assert len(r.samples) == 40 and all(0 < w < 1 for w, _ in r.samples)
    assert r.to_json() == rollout(pos, Options(games=40, seed=1, truncate=2, workers=2, bot=NetBot(net)), stratify=True, chunk=10).to_json()
    with pytest.raises(ValueError, match="truncate: expected a whole number of at least 1, not 0"):
        rollout(pos, Options(games=4, truncate=0, bot=NetBot(net)))
    with pytest.raises(ValueError, match="chunk"):
        rollout(pos, Options(games=4), chunk=0)


def test_sample_positions_are_seeded_positions_before_a_roll() -> None:

    a = sample_positions("mexican", 40, seed=3)
    assert a == sample_positions("mexican", 40, seed=3)
    assert a != sample_positions("mexican", 40, seed=4)
    assert len(a) == 40 and all(not p.is_over for p in a)
    assert {p.turn for p in a} == {"white", "black"}
    by_bot = sample_positions("standard", 30, HeuristicBot(), seed=3)
    assert by_bot != sample_positions("standard", 30, seed=3)  # the bot's plays, not random ones
    assert by_bot[:2] == sample_positions("standard", 2, HeuristicBot(), seed=3, explore=0.0)
    assert sample_positions("minigam", 0) == []
    for n, explore, shown in ((-1, 0.0, "-1"), (2.5, 0.0, "2.5"), (3, 1.5, "1.5"), (3, True, "True")):
        with pytest.raises(RolloutError, match=shown):
            sample_positions("minigam", n, explore=explore)  # type: ignore[arg-type]


def _kernel_starts(v: object) -> tuple[Position, list[object]]:
    """A position from HeuristicBot's play and the states a kernel rollout starts from: the opening,
    that position before a roll, with dice 6-1 to play, and (Mexican) in a chain's re-roll."""
    mid = sample_positions(v, 25, HeuristicBot(), seed=3)[-1]
    starts: list[object] = [start_state(v), mid, advance(position_state(mid), RollDice(Roll(6, 1)))[0]]
    if v.mexican:  # type: ignore[attr-defined]
        doubles = advance(position_state(mid), RollDice(Roll(3, 3)))[0]
        again = advance(doubles, MakePlay(doubles.legal_actions()[0]))[0]
        assert again.phase is Phase.ROLL and again.reroll
        starts.append(again)
    return mid, starts


def _engine_and_kernel(start: object, bot: object, *, stratify: bool = False, luck: bool = False, **kw: object
                       ) -> tuple[RolloutResult, RolloutResult]:
    """The same rollout in the compiled kernel and on the engine path (and the kernel did run)."""
    from backgammon_lab.analysis import rollout as ro
    from backgammon_lab.analysis.options import Options

    options = Options(bot=bot, luck=luck, **kw)  # type: ignore[arg-type]
    ran = []
    kernel_games = ro._kernel_games

    def spy(args: object) -> object:
        out = kernel_games(args)  # type: ignore[arg-type]
        ran.append(out is not None)
        return out

    ro._kernel_games = spy  # type: ignore[assignment]
    try:
        fast = rollout(start, options, stratify=stratify)  # type: ignore[arg-type]
        assert ran and all(ran), "the kernel path did not run"
        ro.KERNEL_ROLLOUTS = False
        slow = rollout(start, options, stratify=stratify)  # type: ignore[arg-type]
    finally:
        ro.KERNEL_ROLLOUTS = True
        ro._kernel_games = kernel_games  # type: ignore[assignment]
    return fast, slow


@pytest.mark.parametrize("variant", ["standard", "mexican"])
def test_net_rollouts_in_the_kernel_equal_the_engine_path(variant: str) -> None:
    """Issue 18: a rollout with the net's 0-ply NetBot runs whole games in the compiled kernel (the
    variant's flow: the opening, Mexican keep/re-roll, doubles chains, naming, lost dice; the
    exact bear-off values in races) and gives, game by game, the results of the engine path with
    the same seed, from the opening, from a position before a roll, with dice to play, and with
    stratified first rolls."""
    from backgammon_lab.analysis.netbot import NetBot

    v = find_variant(variant)
    bot = NetBot()
    fast, slow = _engine_and_kernel(start_state(v), bot, games=10, seed=4)
    assert fast.samples == slow.samples and fast.to_json() == slow.to_json()
    mid = sample_positions(v, 30, HeuristicBot(), seed=2)[-1]
    fast, slow = _engine_and_kernel(mid, bot, games=8, seed=5, stratify=True)
    assert fast.samples == slow.samples and fast.outcomes == slow.outcomes
    rolled = advance(position_state(mid), RollDice(Roll(5, 2)))[0]
    fast, slow = _engine_and_kernel(rolled, bot, games=6, seed=6)
    assert fast.samples == slow.samples
    race = Position.from_board(v, "white", (3, 2, 2, 2, 2, 2, 2) + (0,) * 12 + (-2, -2, -2, -3, -3, -3, 0, 0), 0)
    fast, slow = _engine_and_kernel(race, bot, games=12, seed=7)
    assert fast.samples == slow.samples and fast.outcomes == slow.outcomes


def test_net_rollouts_in_the_kernel_follow_the_race_net_in_a_race() -> None:
    """From a race off the bear-off database the shipped standard net's NetBot plays by its race
    net (the search's choice by class); the kernel's games should be the engine path's there too."""
    from backgammon_lab.analysis.netbot import NetBot

    race = Position.from_string("standard/w/13x2,9x3,6x5,5x5/11x4,6x5,4x6")
    bot = NetBot()
    assert bot.net_for(race.variant).race is not None
    fast, slow = _engine_and_kernel(race, bot, games=40, seed=3)
    assert fast.samples == slow.samples


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_truncated_net_rollouts_in_the_kernel_equal_the_engine_path(variant: str) -> None:
    """Truncated rollouts with the net's 0-ply NetBot run in the kernel too: it counts turns as
    play_out counts them (the opening's roll, not a Mexican chain's re-rolls, not the turn a start
    with dice to play is in) and values the truncated game by the net as the engine path does, so
    the samples, game by game, are the engine path's: from the opening, before a roll, with dice
    to play and in a re-roll of a Mexican chain, after 1, 2 and 5 turns, stratified or not."""
    from backgammon_lab.analysis.netbot import NetBot

    v = find_variant(variant)
    bot = NetBot(small_net(v, 12, seed=5))
    mid, starts = _kernel_starts(v)
    for i, start in enumerate(starts):
        for turns in (1, 2, 5):
            fast, slow = _engine_and_kernel(start, bot, games=6, seed=10 * i + turns, stratify=turns == 2,
                                            truncate=turns)
            assert fast.samples == slow.samples and fast.to_json() == slow.to_json()
            assert fast.truncated > 0
    # another evaluator than the bot's net: the engine path, with its values
    other = small_net(v, 12, seed=6)
    r = rollout(mid, Options(games=4, seed=1, truncate=1, bot=bot, evaluator=other))
    assert r.truncated == 4 and r.samples != rollout(mid, Options(games=4, seed=1, truncate=1, bot=bot)).samples


def test_rollout_rows_are_the_rollouts_outcomes_by_output() -> None:
    """rollout_rows: for each position the mean over the NetBot's games of the outcome row of the side to
    roll (a finished game's win, gammon and backgammon flags; a truncated game's net values), the
    games rollout() plays with the same seed: its winning chance is the rows' first column, and its
    points per game the rows' cubeless equity. Bad input: RolloutError quoting it."""
    from backgammon_lab.analysis.netbot import NetBot
    from backgammon_lab.analysis.nets import equity
    from backgammon_lab.analysis.rollout import hash_seed, rollout_rows

    net = small_net("standard", 12, seed=4)
    positions = sample_positions("standard", 30, HeuristicBot(), seed=2)[-3:]
    for truncate in (None, 3):
        rows = rollout_rows(positions, NetBot(net), games=36, truncate=truncate, seed=5)
        assert rows.shape == (3, 5) and ((rows >= 0) & (rows <= 1)).all()
        for j, pos in enumerate(positions):
            r = rollout(pos, Options(games=36, seed=hash_seed(5, j, 3), truncate=truncate, bot=NetBot(net)),
                        stratify=True)
            assert math.isclose(rows[j, 0], r.win, abs_tol=1e-12)
            assert math.isclose(float(equity(rows[j])), r.points, abs_tol=1e-9)
        if truncate is None:
            assert set(np.unique(rows * 36).round(9)) <= set(range(37))  # counts of whole games
    assert rollout_rows([], NetBot(net)).shape == (0, 5)
    for kw, shown in (({"games": 0}, "0"), ({"truncate": -2}, "-2"), ({"games": 2.5}, "2.5")):
        with pytest.raises(RolloutError, match=shown):
            rollout_rows(positions, NetBot(net), **kw)  # type: ignore[arg-type]
    with pytest.raises(RolloutError, match="HeuristicBot"):
        rollout_rows(positions, HeuristicBot())
    # the engine path (a deeper bot takes it; here forced for the 0-ply bot) gives the kernel's rows
    from backgammon_lab.analysis import rollout as ro

    fast = rollout_rows(positions, NetBot(net), games=12, truncate=4, seed=6)
    ro.KERNEL_ROLLOUTS = False
    try:
        slow = rollout_rows(positions, NetBot(net), games=12, truncate=4, seed=6)
    finally:
        ro.KERNEL_ROLLOUTS = True
    assert np.abs(fast - slow).max() < 1e-12
    deep = NetBot(net, Options(ply=1))
    rows = rollout_rows(positions[:1], deep, games=4, truncate=2, seed=6)
    r = rollout(positions[0], Options(games=4, seed=hash_seed(6, 0, 3), truncate=2, bot=deep), stratify=True)
    assert math.isclose(rows[0, 0], r.win, abs_tol=1e-12) and rows.shape == (1, 5)


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_a_rolls_luck_averages_exactly_zero_over_the_dice(variant: str) -> None:
    """Luck: the luck of a roll is the best play's value with the dice rolled less the average of
    that over the 21 rolls (each as often as it comes in 36), for the side the tally is for, so over
    the 36 outcomes of the dice it sums to zero, row by row, for either side; the same dice in either
    order are the same luck."""
    from backgammon_lab.analysis.rollout import Luck

    v = find_variant(variant)
    net = small_net(v, 12, seed=3)
    for pos in sample_positions(v, 40, HeuristicBot(), seed=4)[-12::4]:
        st = position_state(pos)
        for player in ("white", "black"):
            total = np.zeros(len(net.outputs))
            for a in range(1, 7):
                for b in range(1, 7):
                    luck = Luck(net, player)
                    luck.roll(st, (a, b))
                    total += luck.total
                    twin = Luck(luck.evaluator, player)
                    twin.roll(st, (b, a))
                    assert np.array_equal(twin.total, luck.total)
            assert np.abs(total).max() < 1e-12
        lucky = Luck(net, pos.turn)
        lucky.roll(st, (6, 6))
        unlucky = Luck(net, "black" if pos.turn == "white" else "white")
        unlucky.roll(st, (6, 6))
        assert math.isclose(lucky.win, -unlucky.win, abs_tol=1e-12)  # one side's luck is the other's loss
        assert math.isclose(lucky.equity, -unlucky.equity, abs_tol=1e-9)


def test_play_out_reports_each_roll_of_a_side_about_to_roll() -> None:
    """play_out's on_roll: called with the state and dice of every roll of a side about to roll (not
    the opening's), the dice the game then plays."""
    from backgammon_lab.analysis.rollout import play_out

    seen: list[tuple[str, tuple[int, int]]] = []
    end = play_out(start_state("standard"), {"white": HeuristicBot(), "black": HeuristicBot()}, random.Random(7),
                   on_roll=lambda st, d: seen.append((st.position.turn, d)))
    assert end.phase is Phase.OVER and len(seen) > 10
    replay = []
    again = play_out(start_state("standard"), {"white": HeuristicBot(), "black": HeuristicBot()}, random.Random(7),
                     on_roll=lambda st, d: replay.append(st.phase))
    assert set(replay) == {Phase.ROLL} and again.position == end.position
    assert all(p != q for (p, _), (q, _) in zip(seen, seen[1:], strict=False))  # standard: the sides alternate


@pytest.mark.parametrize("variant", ["standard", "mexican"])
def test_rollouts_less_their_luck_keep_the_games_and_shrink_the_error(variant: str) -> None:
    """rollout with Options(luck=True): the same games (same seed), each sample its game's result less the luck
    of its rolls by the evaluator (recomputed here with play_out's on_roll); the result says so; and
    on these seeds the error is several times smaller than without. rollout_rows(luck=True) gives
    the same rows' win and equity as those samples."""
    from backgammon_lab.analysis.netbot import NetBot
    from backgammon_lab.analysis.nets import shipped_net
    from backgammon_lab.analysis.rollout import Luck, hash_seed, rollout_rows

    v = find_variant(variant)
    net = shipped_net(v)
    pos = min(sample_positions(v, 40, NetBot(net), seed=5), key=lambda p: abs(net.evaluate_position(p)[0] - 0.5))
    opts = Options(games=36, seed=2, truncate=3, bot=NetBot(net))
    plain = rollout(pos, opts, stratify=True)
    less = rollout(pos, replace(opts, luck=True), stratify=True)
    assert less.luck and less.reduced and "luck" in str(less) and less.to_json()["luck"] is True
    assert less.truncated == plain.truncated and less.outcomes == plain.outcomes
    assert less.points_stderr < plain.points_stderr / 3
    from backgammon_lab.analysis.rollout import _engine_game

    for i in (0, 17, 35):
        tally = Luck(net, pos.turn)
        _engine_game(position_state(pos), NetBot(net), NetBot(net), pos.turn, 2, i, True, 3, 36, tally)
        assert math.isclose(less.samples[i][0], plain.samples[i][0] - tally.win, abs_tol=1e-12)
        assert math.isclose(less.samples[i][1], plain.samples[i][1] - tally.equity, abs_tol=1e-9)
    rows = rollout_rows([pos], NetBot(net), games=36, truncate=3, seed=7, luck=True)
    r = rollout(pos, Options(games=36, seed=hash_seed(7, 0, 3), truncate=3, bot=NetBot(net), luck=True), stratify=True)
    assert math.isclose(rows[0, 0], r.win, abs_tol=1e-12)
    from backgammon_lab.analysis.nets import equity

    assert math.isclose(float(equity(rows[0])), r.points, abs_tol=1e-9)


def test_perfect_play_less_its_luck_is_the_exact_value(table3) -> None:
    """Luck measured by the solved Mini-Gam table, perfect play on both sides: a game's result less
    the luck of its rolls is the position's exact value, every game (the value before a roll is
    the average over the dice of the best play's), so the reported error is zero."""
    pos = Position.from_string("minigam;checkers=3/w/bar,3,off/5x2,off")
    bot = PerfectMiniGamBot(table3)
    exact = table3.value(pos)
    r = rollout(pos, Options(games=60, seed=3, bot=bot, evaluator=table3, luck=True))
    plain = rollout(pos, Options(games=60, seed=3, bot=bot, evaluator=table3))
    assert plain.stderr > 0.03 and r.wins == plain.wins
    assert all(abs(w - exact) < 1e-9 and abs(p - (2 * exact - 1)) < 1e-9 for w, p in r.samples)
    assert r.stderr < 1e-9 and abs(r.win - exact) < 1e-9


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_luck_in_the_kernel_is_the_engine_paths(variant: str) -> None:
    """The kernel takes each roll's luck off as Luck does on the engine (the net's 0-ply NetBot, its
    own net measuring): the samples agree game by game within 1e-9, from the opening, before a roll,
    with dice to play, in a Mexican chain's re-roll and in a bear-off race, truncated or played out;
    rollout_rows(luck=True) gives the engine path's rows. Another evaluator takes the engine path."""
    from backgammon_lab.analysis import rollout as ro
    from backgammon_lab.analysis.netbot import NetBot

    v = find_variant(variant)
    bot = NetBot(small_net(v, 12, seed=5))
    mid, starts = _kernel_starts(v)
    if v.name == "standard":
        starts.append(Position.from_string("standard/w/6x3,5x3,4x2/6x4,5x3,2"))
    for i, start in enumerate(starts):
        for truncate in (None, 3):
            fast, slow = _engine_and_kernel(start, bot, games=6, seed=3 * i + 1, stratify=True, luck=True,
                                            truncate=truncate)
            assert fast.luck and slow.luck and fast.outcomes == slow.outcomes and fast.wins == slow.wins
            assert np.abs(np.array(fast.samples) - np.array(slow.samples)).max() < 1e-9
    positions = [mid, *sample_positions(v, 40, HeuristicBot(), seed=8)[-2:]]
    fast_rows = ro.rollout_rows(positions, bot, games=8, truncate=2, seed=4, luck=True)
    ro.KERNEL_ROLLOUTS = False
    try:
        slow_rows = ro.rollout_rows(positions, bot, games=8, truncate=2, seed=4, luck=True)
    finally:
        ro.KERNEL_ROLLOUTS = True
    assert np.abs(fast_rows - slow_rows).max() < 1e-9
    other = small_net(v, 12, seed=6)
    assert ro._kernel_games((position_state(mid), bot, bot, mid.turn, 1, 0, 2, True, None, None, 2, other)) is None


def test_a_pools_jobs_are_collected_in_order_with_few_submitted_at_once() -> None:
    """``ordered_results``: every job's result, in the jobs' order, with never more than the window
    submitted and not yet collected (a run of 10 million games no longer submits 100,000 jobs at
    once, which kept a stopped run inside the pool's bookkeeping for seconds)."""
    from concurrent.futures import Future

    from backgammon_lab.analysis.rollout import ordered_results

    class Pool:
        def __init__(self) -> None:
            self.out = 0
            self.most = 0

        def submit(self, fn, job):  # type: ignore[no-untyped-def]
            pool = self
            pool.out += 1
            pool.most = max(pool.most, pool.out)

            class Done(Future):  # type: ignore[type-arg]
                def result(self, timeout=None):  # type: ignore[no-untyped-def]
                    pool.out -= 1
                    return super().result(timeout)

            f = Done()
            f.set_result(fn(job))
            return f

    pool = Pool()
    got = list(ordered_results(pool, lambda j: -j, list(range(50)), 4))  # type: ignore[arg-type]
    assert got == [-j for j in range(50)] and pool.most == 4 and pool.out == 0
    assert list(ordered_results(pool, abs, [], 4)) == []  # type: ignore[arg-type]


def test_a_signal_during_a_submit_is_raised_once_the_submit_is_done() -> None:
    """``_submit``: SIGTERM (or Ctrl-C) that comes while a job is being submitted waits until the
    pool has recorded the job (and any worker it started), then reaches the program's own handler;
    the handlers are as they were afterwards. A signal taken by another thread of the process reached
    the handler inside the pool's bookkeeping before: a worker being started was never recorded, was
    not ended with the pool, and printed a traceback once the pool's semaphores were gone."""
    import os
    import signal
    import threading
    import time
    from concurrent.futures import Future

    from backgammon_lab.analysis.rollout import _submit

    class Stop(Exception):
        pass

    def handler(signum: int, frame: object) -> None:
        raise Stop(signum)

    class Pool:
        done = False

        def submit(self, fn, job):  # type: ignore[no-untyped-def]
            os.kill(os.getpid(), signal.SIGTERM)  # the handler would run at the next line
            end = time.monotonic() + 0.2  # the pool's bookkeeping, long enough for a pending handler to run
            while time.monotonic() < end:
                pass
            self.done = True
            f: Future[int] = Future()
            f.set_result(fn(job))
            return f

    idle = threading.Event()  # a thread that does not block the signal, as a pool's own thread
    other = threading.Thread(target=idle.wait, daemon=True)
    other.start()
    before = signal.signal(signal.SIGTERM, handler)
    try:
        pool = Pool()
        with pytest.raises(Stop):
            _submit(pool, abs, -3)  # type: ignore[arg-type]
        assert pool.done  # the submit ran to its end before the handler
        assert signal.getsignal(signal.SIGTERM) is handler and signal.getsignal(signal.SIGINT) is not None
        quiet = Pool()
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # an ignored signal stays ignored
        assert _submit(quiet, abs, -3).result() == 3 and quiet.done  # type: ignore[arg-type]
    finally:
        signal.signal(signal.SIGTERM, before)
        idle.set()
        other.join()


def test_net_rollouts_in_the_kernel_follow_the_class_nets() -> None:
    """A net with a crashed net (two hidden layers, of other widths than the net's) and a race
    net (one layer): the kernel, one module for nets of every size, makes each decision by the net
    the search from its board would use, as NetBot does, so its games are the engine path's, from
    a crashed position (with the luck, within 1e-9 as Luck's, and truncated games too), a contact
    position and a race; and the class nets do play: without them the games differ."""
    from backgammon_lab.analysis import rollout as ro
    from backgammon_lab.analysis.netbot import NetBot

    net = small_net("standard", 24, hidden2=8, seed=5)
    full = net.with_race(small_net("standard", 10, hidden2=0, seed=6)).with_crashed(
        small_net("standard", 16, hidden2=5, seed=7))
    assert ro._class_nets(full) == (3, full.crashed, full.race) and ro._class_nets(net) == (0, net, net)
    crashed = Position.from_string("standard/w/1x5,2x1,20x2/13x5,8x5,6x5")
    race = Position.from_string("standard/w/13x2,9x3,6x5,5x5/11x4,6x5,4x6")
    mid = sample_positions("standard", 25, HeuristicBot(), seed=3)[-1]
    bot, bare = NetBot(full), NetBot(net)
    for start, kw in ((crashed, {"games": 8, "seed": 3}), (crashed, {"games": 4, "seed": 4, "truncate": 3}),
                      (mid, {"games": 4, "seed": 5}), (race, {"games": 8, "seed": 6})):
        fast, slow = _engine_and_kernel(start, bot, **kw)
        assert fast.samples == slow.samples and fast.to_json() == slow.to_json()
    for start in (crashed, race):  # games cut after 2 turns: their values tell the plays apart
        cut = Options(games=8, seed=8, truncate=2)
        assert rollout(start, replace(cut, bot=bare)).samples != rollout(start, replace(cut, bot=bot)).samples
    fast, slow = _engine_and_kernel(crashed, bot, games=4, seed=7, luck=True)  # the luck within 1e-9, as Luck's
    assert len(fast.samples) == len(slow.samples)
    assert all(math.isclose(f, s, abs_tol=1e-9)
               for a, b in zip(fast.samples, slow.samples, strict=True) for f, s in zip(a, b, strict=True))
    assert fast.outcomes == slow.outcomes


def test_the_kernels_board_class_is_the_strategy_class() -> None:
    """The kernel's compiled position class (board_class) gives strategy.position_class's answer,
    on positions of every class from random and heuristic play."""
    from backgammon_lab.analysis.selfplay import kernel
    from backgammon_lab.analysis.strategy import position_class

    k = kernel(find_variant("standard"), "td24e")
    code = {"contact": 0, "crashed": 1, "race": 2}
    seen = set()
    positions = [Position.from_string("standard/w/1x5,2x1,20x2/13x5,8x5,6x5"),
                 Position.from_string("standard/w/13x2,9x3,6x5,5x5/11x4,6x5,4x6")]
    for seed in range(6):
        positions += sample_positions("standard", 40, RandomBot(seed=seed), seed=seed)
        positions += sample_positions("standard", 40, HeuristicBot(), seed=seed)
    for pos in positions:
        want = position_class(pos)
        seen.add(want)
        assert k.board_class(np.array(pos.board(), np.int8)) == code[want], pos.to_string()
    assert seen == set(code)
