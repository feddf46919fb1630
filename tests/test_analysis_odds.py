"""Odds (backgammon_lab.analysis.odds) against brute-force enumeration of the 36 rolls.

The brute force is independent of the module's recursion: it walks the 36 ordered rolls through
the :class:`~backgammon_lab.game.Game` state machine itself (roll, every legal action, undo),
following the turn the way the game does (a Mexican's named doubles; with re-rolls, the rolls
after doubles), and checks each resulting position.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest

from backgammon_lab import Position
from backgammon_lab.analysis.odds import (
    EnterOdds,
    bear_off_in_one,
    enter_probability,
    hit_probability,
    odds_table,
    pip_counts,
    roll_breakdown,
    shots,
)
from backgammon_lab.game import Game

DICE36 = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def brute(position: Position, success: Callable[[Position], bool], rerolls: bool = False) -> Fraction:
    """Chance over the 36 rolls that some way of playing the turn reaches ``success``."""
    mover = position.turn

    def value(g: Game) -> Fraction:
        if success(g.position):
            return Fraction(1)
        if g.phase == "over" or g.position.turn != mover:
            return Fraction(0)
        if g.phase == "roll":  # the same player rolls again (Mexican doubles, named doubles)
            return roll_chance(g) if rerolls else Fraction(0)
        best = Fraction(0)
        for a in g.legal_actions():
            g.apply(a)
            try:
                best = max(best, value(g))
            finally:
                g.undo()
            if best == 1:
                break
        return best

    def roll_chance(g: Game) -> Fraction:
        total = Fraction(0)
        for d in DICE36:
            g.roll(d)
            try:
                total += value(g) / 36
            finally:
                g.undo()
        return total

    return roll_chance(Game(position=position))


def sample_positions(variant: str, n: int, seed: int, want: Callable[[Position], bool]) -> list[Position]:
    """Positions from random games (side to roll) that satisfy ``want``."""
    rng = random.Random(seed)
    out: list[Position] = []
    from backgammon_lab.analysis.bots import RandomBot

    game_no = 0
    while len(out) < n and game_no < 400:
        g = Game(variant, rng=random.Random(rng.random()))
        bot = RandomBot(game_no)
        game_no += 1
        while g.phase != "over":
            if g.phase == "roll" and want(g.position) and rng.random() < 0.3:
                out.append(g.position)
                if len(out) >= n:
                    break
            if g.is_chance():
                g.roll()
            else:
                g.apply(bot.choose(g))
    return out


def on_bar(p: Position) -> bool:
    return p.count(p.turn, p.variant.points + 1) > 0


def opp_blots(p: Position) -> list[int]:
    opp = "black" if p.turn == "white" else "white"
    return [q for q in range(1, p.variant.points + 1) if p.count(opp, q) == 1]


def near_home(p: Position) -> bool:
    me = p.turn
    n = p.variant.points
    return p.count(me, n + 1) == 0 and all(p.count(me, q) == 0 for q in range(7, n + 1)) and p.off[
        0 if me == "white" else 1] > 0


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_enter_matches_brute_force(variant: str) -> None:
    positions = sample_positions(variant, 12, 1, on_bar)
    assert len(positions) >= 8
    for pos in positions:
        n = pos.variant.points
        start = pos.board()[n + 1]
        e = enter_probability(pos)
        assert e.at_least_one == brute(pos, lambda q, s=start, who=pos.turn, bar=n + 1: q.count(who, bar) < s)
        assert e.all == brute(pos, lambda q, who=pos.turn, bar=n + 1: q.count(who, bar) == 0)


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_hit_matches_brute_force(variant: str) -> None:
    positions = sample_positions(variant, 10, 2, lambda p: bool(opp_blots(p)))
    assert len(positions) >= 6
    checked = 0
    for pos in positions:
        opp = "black" if pos.turn == "white" else "white"
        oi = 0 if opp == "white" else 1
        for q in opp_blots(pos)[:2]:
            bar_before = pos.bar[oi]
            # the blot is gone from q exactly when it was hit (its owner does not move meanwhile)
            expect = brute(pos, lambda r, q=q, o=opp, i=oi, b=bar_before: r.count(o, q) == 0 and r.bar[i] > b)
            assert hit_probability(pos, q, exact=True) == expect, (pos.to_string(), q)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_bear_off_matches_brute_force(variant: str) -> None:
    k = {"standard": 15, "mexican": 15, "minigam": 8}[variant]
    positions = sample_positions(variant, 8, 3, lambda p: p.off[0 if p.turn == "white" else 1] >= k - 4
                                 and on_bar(p) is False)
    assert len(positions) >= 4
    for pos in positions:
        i = 0 if pos.turn == "white" else 1
        assert bear_off_in_one(pos, exact=True) == brute(pos, lambda r, i=i: r.off[i] == k), pos.to_string()


def test_mexican_rerolls_match_brute_force() -> None:
    positions = [
        Position.from_string("mexican/w/barx5,24,13x5,8x3,6/6x5,5x2,4x2,24x2,13x4"),
        Position.from_string("mexican/w/barx3,13x5,8x3,6x4/6x5,5x2,4,24x2,13x5"),
        Position.from_string("mexican/w/barx6,24x5,13x4/6x5,5x2,24x2,13x5,8"),
    ]
    for pos in positions:
        n = pos.variant.points
        e = enter_probability(pos, rerolls=True)
        assert e.all == brute(pos, lambda q, who=pos.turn, bar=n + 1: q.count(who, bar) == 0, rerolls=True)
        assert e.all >= enter_probability(pos).all


def test_known_values() -> None:
    # Standard: four points closed in the opponent's home board leave entering numbers 1 and 2.
    pos = Position.from_string("standard/w/bar,24,13x5,8x3,6x5/6x2,5x2,4x2,3x2,24x2,13x5")
    e = enter_probability(pos)
    assert (e.at_least_one, e.all) == (Fraction(20, 36), Fraction(20, 36))
    # Mexican: five on the bar enter only through a Mexican (1-2, then name doubles 1, 2 or 3).
    m = Position.from_string("mexican/w/barx5,24,13x5,8x3,6/6x5,5x2,4x2,24x2,13x4")
    assert enter_probability(m).all == Fraction(2, 36)
    # Mexican: White's 24 holds five (the cap), so a 1 cannot enter, and the lower die comes first:
    # only rolls whose lower die is the 2 enter (2-2, 2-3 .. 2-6). Standard also enters with a 1.
    full = Position.from_string("mexican/w/bar,24x5,13x4,8x3,6x2/6x5,5x2,4x2,3x2,13x4")
    assert enter_probability(full).at_least_one == Fraction(9, 36)
    std = Position.from_string("standard/w/bar,24x5,13x4,8x3,6x2/6x5,5x2,4x2,3x2,13x4")
    assert enter_probability(std).at_least_one == Fraction(20, 36)
    # Mini-Gam, free entry: only 4-4 fails when White's point 3 is held by Black.
    mg = Position.from_string("minigam/w/4x2,2x2,bar/6,4x2,bar")
    assert enter_probability(mg).at_least_one == Fraction(35, 36)
    assert hit_probability(mg, 6, exact=True) == brute(mg, lambda r: r.count("black", 6) == 0)
    # A single checker on the 1-point bears off with any roll.
    last = Position.from_string("standard/w/1/6x2,5x2,4x2,3x2,2x2,13x5")
    assert bear_off_in_one(last) == 1.0


def test_errors_and_tables() -> None:
    pos = Position.from_string("standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x4,5")
    with pytest.raises(ValueError, match="not a blot"):
        hit_probability(pos, 6)
    with pytest.raises(ValueError, match="side not on roll"):
        hit_probability(pos, 5, player="white")
    assert hit_probability(pos, 5, exact=True) == Fraction(15, 36)
    t = shots(pos)
    assert "15/36" in str(t) and "<table" in t._repr_html_()
    assert str(shots(pos)) == str(t)  # deterministic
    pc = pip_counts(pos)
    assert pc.column("pips") == [167, 166]
    assert isinstance(enter_probability(pos), EnterOdds) and enter_probability(pos).all == 1
    assert "36/36" in str(roll_breakdown(pos, "hit", 5))
    assert "pip count" in str(odds_table(pos))
