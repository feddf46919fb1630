"""Rollouts and bots (backgammon_lab.analysis.rollout, .bots)."""

from __future__ import annotations

import random

import pytest

from backgammon_lab import Position, find_variant
from backgammon_lab.analysis.bots import Bot, HeuristicBot, PerfectMiniGamBot, RandomBot, evaluate
from backgammon_lab.analysis.rollout import RolloutResult, play_out, rollout
from backgammon_lab.engine import OpeningRoll, Phase, RollDice, advance, start_state
from backgammon_lab.position import Roll
from backgammon_lab.analysis.solve import solve
from backgammon_lab.game import Game


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
    a = rollout(pos, games=150, seed=7, progress=False)
    b = rollout(pos, games=150, seed=7, progress=False)
    assert a.to_json() == b.to_json() and a.outcomes == b.outcomes
    c = rollout(pos, games=150, seed=8, progress=False)
    assert c.to_json() != a.to_json()
    r1 = rollout(pos, RandomBot(5), games=80, seed=1, progress=False)
    r2 = rollout(pos, RandomBot(99), games=80, seed=1, progress=False)  # re-seeded per game
    assert r1.to_json() == r2.to_json()


def test_rollout_same_with_two_workers() -> None:
    pos = Position.start("standard")
    one = rollout(pos, RandomBot(), games=24, seed=3, workers=1, progress=False, chunk=6)
    two = rollout(pos, RandomBot(), games=24, seed=3, workers=2, progress=False, chunk=6)
    assert one.to_json() == two.to_json()


def test_error_bars_shrink_and_cover_the_exact_value(table3) -> None:
    """Perfect play on both sides: the rollout estimates the solved value, within its error bars,
    and the standard error falls like 1/sqrt(games)."""
    v = table3.variant
    pos = Position.start(v)
    bot = PerfectMiniGamBot(table3)
    exact = table3.value(pos)
    results = [rollout(pos, bot, games=n, seed=11, progress=False) for n in (100, 400, 1600)]
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
        r = rollout(pos, HeuristicBot(), opponent=RandomBot(), games=40 if variant == "standard" else 200,
                    seed=2, progress=False)
        assert r.win > 0.7, (variant, r.win)


def test_perfect_beats_heuristic(table3) -> None:
    pos = Position.start(table3.variant)
    perfect = PerfectMiniGamBot(table3)
    as_first = rollout(pos, perfect, opponent=HeuristicBot(), games=600, seed=4, progress=False)
    as_second = rollout(pos, HeuristicBot(), opponent=perfect, games=600, seed=4, progress=False)
    assert as_first.win + (1 - as_second.win) > 1.0


def test_rollout_inputs_and_output(capsys) -> None:
    g = Game("mexican", seed=5)
    r = rollout(g, RandomBot(), games=4, seed=0, progress=True)  # at the opening: for White
    assert isinstance(r, RolloutResult) and r.player == "white" and r.games == 4
    g.roll((6, 2))
    g.choose("keep")
    r2 = rollout(g, RandomBot(), games=4, seed=0, progress=False)
    assert r2.player == g.current_player
    assert "winning chance" in str(r2) and "<table" in r2._repr_html_()
    std = rollout(Position.start("standard"), RandomBot(), games=30, seed=1, progress=False)
    assert set(std.outcomes) <= {-3, -2, -1, 1, 2, 3}
    with pytest.raises(ValueError):
        rollout(Position.start("minigam"), games=0)
    with pytest.raises(ValueError, match="Position, a Game or a TurnState"):
        rollout("minigam")  # type: ignore[arg-type]
