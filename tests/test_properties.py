"""Property tests (hypothesis) of the rules engine, the game state machine and the text forms.

* checkers are conserved by every legal play;
* no point holds both colours: every step lands on an open point, hits exactly a blot, and the
  steps of a play replayed by hand give the play's position; legal plays keep the turn;
* no Mexican point ever holds six;
* every random game of every variant ends;
* undo returns the same position and history, redo brings it back, and a re-roll after undo repeats
  the same dice;
* the JSON form, the position string, the game record and (24-point variants) the Position ID
  round-trip.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from backgammon_lab import Position, explain_step, find_variant, legal_plays, legal_steps
from backgammon_lab.game import Game
from backgammon_lab.rules import apply_steps

VARIANTS = ("standard", "mexican", "minigam")
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))


def random_action(g: Game, rng: random.Random, steps: bool = True) -> None:
    """One random action: a roll at chance nodes; a whole play, a single step, or a choice otherwise."""
    if g.is_chance():
        g.roll()
    elif steps and g.phase == "play" and rng.random() < 0.4 and g.legal_steps():
        steps = g.legal_steps()
        g.step(steps[rng.randrange(len(steps))])
    else:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])


def played(variant: str, seed: int, n: int, steps: bool = True) -> Game:
    g = Game(variant, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(n):
        if g.is_over:
            break
        random_action(g, rng, steps)
    return g


@st.composite
def reachable(draw, variants=VARIANTS):
    """A position reached by random play (with the side to act on turn)."""
    v = draw(st.sampled_from(variants))
    g = played(v, draw(st.integers(0, 2**31)), draw(st.integers(0, 160)), steps=False)
    return g.position


@st.composite
def arbitrary(draw, variants=VARIANTS):
    """Any valid position: each point owned by nobody, White or Black; checkers spread at random."""
    v = find_variant(draw(st.sampled_from(variants)))
    n, k = v.points, v.checkers
    cap = v.stacking_cap or k
    owner = draw(st.lists(st.sampled_from("-wb"), min_size=n, max_size=n))
    pts = [0] * n
    bar, off = [0, 0], [0, 0]
    for side, mark in ((0, "w"), (1, "b")):
        slots = ["bar", "off"] + [i for i in range(n) if owner[i] == mark]
        for s in draw(st.lists(st.sampled_from(slots), min_size=k, max_size=k)):
            if s == "bar":
                bar[side] += 1
            elif s == "off" or abs(pts[s]) >= cap:  # a full point (Mexican cap): borne off instead
                off[side] += 1
            else:
                pts[s] += 1 if side == 0 else -1
    assume(off[0] < k and off[1] < k)
    return Position(v, pts, tuple(bar), tuple(off), draw(st.sampled_from(["white", "black"])))


positions = st.one_of(reachable(), arbitrary())


def replay(pos: Position, play) -> tuple[int, ...]:
    """Replay the steps of ``play`` on the mover's-eye board, checking each one by hand."""
    n = pos.variant.points
    b = list(pos.board())  # (off, p1..pN, bar, opponent bar), mover positive
    for s in play.steps:
        assert 1 <= s.start <= n + 1 and 0 <= s.end < s.start
        assert b[s.start] > 0, f"no checker on {s.start} for {s}"
        if s.end == 0:
            b[0] += 1
        else:
            assert b[s.end] >= -1, f"{s} lands on a point held by two or more opposing checkers"
            assert s.hit == (b[s.end] == -1)
            if b[s.end] == -1:
                b[s.end] = 0
                b[n + 2] += 1
            b[s.end] += 1
        b[s.start] -= 1
    return tuple(b)


@FAST
@given(positions, dice_st)
def test_checkers_conserved(pos, dice):
    assume(not pos.is_over)
    k = pos.variant.checkers
    for play in legal_plays(pos, dice):
        r = play.position
        for i, who in enumerate(("white", "black")):
            on = sum(r.count(who, p) for p in range(1, r.variant.points + 1))
            assert on + r.bar[i] + r.off[i] == k
        # and the result passes the validating constructor
        assert Position(r.variant, r.points, r.bar, r.off, r.turn) == r


@FAST
@given(positions, dice_st)
def test_no_point_holds_both_colours_and_turn_unchanged(pos, dice):
    assume(not pos.is_over)
    plays = legal_plays(pos, dice)
    seen = set()
    for play in plays:
        r = play.position
        assert r.turn == pos.turn and r.variant == pos.variant
        assert all(isinstance(x, int) for x in r.points)  # one signed count per point: one colour
        assert replay(pos, play) == r.board()
        assert len(play.steps) == plays.length
        seen.add(r)
    assert len(seen) == len(plays)  # distinct resulting positions


def reference_results(pos: Position, dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """An independent, plain re-statement of the move rules: the mover's-eye boards after each
    legal play (see RULES.md and docs/rules/). Slow and simple on purpose."""
    v = pos.variant
    n, bar, home, cap = v.points, v.points + 1, v.home, v.stacking_cap

    def open_for_me(b, t):
        return b[t] >= -1 and (cap is None or b[t] < cap)

    def steps(b, d):
        out = []
        if v.bar_first and b[bar] > 0:
            sources = [bar]
        else:
            sources = [s for s in range(1, bar + 1) if b[s] > 0]
        all_home = b[bar] == 0 and all(b[p] <= 0 for p in range(home + 1, n + 1))
        for s in sources:
            t = s - d
            nb = list(b)
            if t >= 1:
                if not open_for_me(b, t):
                    continue
                nb[s] -= 1
                if nb[t] == -1:
                    nb[t] = 0
                    nb[n + 2] += 1
                nb[t] += 1
            else:
                if not all_home or s == bar:
                    continue
                higher = any(b[p] > 0 for p in range(s + 1, home + 1))
                if not (t == 0 or (not v.exact_bear_off and not higher)):
                    continue
                nb[s] -= 1
                nb[0] += 1
            out.append((d, tuple(nb)))
        return out

    a, c = dice
    lo, hi = min(a, c), max(a, c)
    if a == c:
        orders = [(a,) * 4]
    elif v.low_die_first:
        orders = [(lo, hi)]
    else:
        orders = [(hi, lo), (lo, hi)]
    finals: dict[tuple[int, ...], set[tuple[int, ...]]] = {}  # board -> first dice used

    def dfs(b, rest, used):
        moves = steps(b, rest[0]) if rest else []
        if not moves:
            finals.setdefault(b, set()).add(used)
            return
        for d, nb in moves:
            dfs(nb, rest[1:], used + (d,))

    start = tuple(pos.board())
    for order in orders:
        dfs(start, order, ())
    longest = max(len(u) for us in finals.values() for u in us)
    best = {b for b, us in finals.items() if any(len(u) == longest for u in us)}
    if longest == 1 and lo != hi and not v.low_die_first:
        big = {b for b in best if (hi,) in finals[b]}
        if big:
            best = big
    return best


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, dice_st)
def test_move_generator_matches_reference(pos, dice):
    assume(not pos.is_over)
    ours = {p.position.board() for p in legal_plays(pos, dice)}
    assert ours == reference_results(pos, dice)


@FAST
@given(positions, dice_st)
def test_legal_steps_lead_exactly_to_legal_plays(pos, dice):
    """Clicking legal_steps to the end reaches every legal play's position and nothing else."""
    assume(not pos.is_over)
    plays = legal_plays(pos, dice)
    assume(len(plays) <= 40)
    reached: set[Position] = set()
    seen = set()

    def walk(done):
        after = apply_steps(pos, dice, done) if done else pos
        key = (after, tuple(sorted(s.die for s in done)))
        if key in seen:
            return
        seen.add(key)
        nxt = legal_steps(pos, dice, done)
        if not nxt:
            assert len(done) == plays.length
            reached.add(after)
        for s in nxt:
            assert explain_step(pos, dice, done, s).legal
            walk(done + [s])

    walk([])
    assert reached == set(plays.positions())
    first = {p.steps[0] for p in plays if p.steps}
    assert first <= set(legal_steps(pos, dice))


@FAST
@given(reachable(("mexican",)) | arbitrary(("mexican",)), dice_st)
def test_mexican_never_six_on_a_point(pos, dice):
    assume(not pos.is_over)
    for play in legal_plays(pos, dice):
        assert max(abs(x) for x in play.position.points) <= 5


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31))
def test_mexican_random_game_never_six(seed):
    g = Game("mexican", seed=seed).play_random()
    for state in g.states:
        assert max(abs(x) for x in state.position.points) <= 5


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**31))
def test_every_random_game_ends(variant, seed):
    g = Game(variant, seed=seed).play_random()
    assert g.is_over and g.phase == "over"
    w = g.winner
    v = find_variant(variant)
    assert g.position.off[0 if w == "white" else 1] == v.checkers
    assert g.points in ((1, 2, 3) if variant == "standard" else (1,))


def snapshot(g: Game):
    return (g.state, g.position, g.phase, g.dice, g.history, g.index)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**31), st.integers(1, 50), st.data())
def test_undo_redo_restore_position_and_history(variant, seed, n, data):
    g = Game(variant, seed=seed)
    rng = random.Random(seed)
    # Snapshots by history index (a whole play made after clicked steps replaces those steps).
    snaps = {g.index: snapshot(g)}
    for _ in range(n):
        if g.is_over:
            break
        random_action(g, rng)
        snaps[g.index] = snapshot(g)
    top = g.index
    assert g.history == snaps[top][4] and len(g.history) == top
    k = data.draw(st.integers(0, top))
    g.undo(k)
    assert snapshot(g) == snaps[top - k]
    g.redo(k)
    assert snapshot(g) == snaps[top]
    # a roll after undo repeats the same dice: the generator is part of the history
    back = data.draw(st.integers(1, top)) if top else 0
    g.undo(back)
    if back and g.is_chance():
        g.roll()
        assert snapshot(g) == snaps[top - back + 1]


@FAST
@given(positions)
def test_json_and_string_round_trip(pos):
    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_json(pos.to_json_text()) == pos
    assert Position.from_string(pos.to_string()) == pos
    assert Position.parse(pos.to_string()) == pos
    assert Position.parse(pos.to_json_text()) == pos


@FAST
@given(arbitrary(("standard", "mexican")) | reachable(("standard", "mexican")))
def test_position_id_round_trip(pos):
    pid = pos.position_id()
    assert len(pid) == 14
    assert Position.from_position_id(pid, pos.variant, pos.turn) == pos


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**31), st.integers(0, 40))
def test_game_record_round_trip(variant, seed, n):
    g = played(variant, seed, n)
    for rec in (g.record(), g.to_json()):
        h = Game.from_record(rec)
        assert h.position == g.position and h.phase == g.phase and h.dice == g.dice
        assert h.record() == g.record()


def test_record_keeps_the_players_own_steps():
    # Mini-Gam, Black to play 3-1 from the start: the player clicks bar/6 (the 1) then 6/3 (the 3).
    g = Game("minigam")
    g.roll((1, 3))  # Black 3 beats White 1
    g.step("bar/6")
    g.step("6/3")
    rec = g.record()
    assert rec["actions"][-1]["play"] == "bar/6/3"
    # Saving the loaded game gives the same record.
    assert Game.from_record(rec).record() == rec


# Every variant with its options: Mini-Gam's bar_first and checkers (1-15), beside the defaults.
WITH_OPTIONS = (*VARIANTS, *(find_variant("minigam", bar_first=bf, checkers=k)
                             for bf in (False, True) for k in (1, 2, 3, 5, 8, 15)))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arbitrary(WITH_OPTIONS) | reachable(WITH_OPTIONS))
def test_every_text_form_round_trips_every_variant_with_options(pos):
    """Issue 11: the JSON form carries the options, so no form loses the variant."""
    for back in (Position.from_json(pos.to_json()), Position.from_json(pos.to_json_text()),
                 Position.from_json(pos.to_json_text().encode()), Position.from_string(pos.to_string()),
                 Position.parse(pos.to_string()), Position.parse(pos.to_json_text())):
        assert back == pos and back.variant.option_values == pos.variant.option_values
    if pos.variant.points == 24:
        assert Position.from_position_id(pos.position_id(), pos.variant, pos.turn) == pos
