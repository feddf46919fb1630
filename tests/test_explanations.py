"""Every refusal names the true rule (issue 9): the reason a step or play is refused comes from the
check that refuses it, names no variant in generic text, and quotes the rule it rests on."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from rulehelpers import P

from backgammon_lab import IllegalMoveError, Position, Step, explain_step, find_variant, legal_plays, legal_steps
from backgammon_lab.rules import REASONS, _rules, explain_play

COMBINED = "mexican/w/13x3,11,6x4,4x3,3x4/24x2,15x2,13x3,8x3,6x5"
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def refusal(pos: str, dice: tuple[int, int], text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        legal_plays(P(pos), dice).find(text)
    return info.value


# -- the reasons the review found wrong or weak ----------------------------------------------------

def test_six_off_before_the_one_is_lower_die_first_not_play_complete() -> None:
    """mexican/w/6/23x2, 6-1: the 1 must be played first (6/5), then the 6 cannot bear off (M3)."""
    pos = "mexican/w/6/23x2"
    err = refusal(pos, (6, 1), "6/off")
    assert err.reason == "lower_die_first" and "lower die, 1" in str(err)
    why = explain_step(P(pos), (6, 1), [], "6/off")
    assert why.code == "lower_die_first" and why.rule is not None and why.rule.id == "M3"
    # After 6/5 the 6 is refused by the exact bear-off rule (M10), not as a complete play.
    after = explain_step(P(pos), (6, 1), ["6/5"], "5/off")
    assert after.code == "bear_off_exact" and after.rule is not None and after.rule.id == "M10"


def test_second_die_killed_by_the_cap_is_stack_cap() -> None:
    pos = "mexican/w/6,4x2,1x5/6x2,13x5,8x3,7x5"
    why = explain_step(P(pos), (5, 2), ["4/2"], "6/1")
    assert why.code == "stack_cap" and "Point 1 already holds 5" in why.message
    assert why.rule is not None and why.rule.id == "M6"
    assert refusal(pos, (5, 2), "4/2 6/1").reason == "stack_cap"
    assert explain_play(P(pos), (5, 2), ["4/2", "6/1"]).code == "stack_cap"


def test_second_die_killed_by_a_block_is_blocked() -> None:
    """Mexican, two on the bar, 2-1: bar/24 enters; then White's 23 is held, so the 2 is lost."""
    pos = "mexican/w/barx2,6x5,8x5,13x3/2x2"
    assert [str(p) for p in legal_plays(P(pos), (2, 1))] == ["bar/24"]
    why = explain_step(P(pos), (2, 1), ["bar/24"], "bar/23")
    assert why.code == "blocked" and "Point 23 is held by 2" in why.message
    assert refusal(pos, (2, 1), "bar/24 bar/23").reason == "blocked"


def test_a_lost_turn_says_the_turn_is_lost_and_why() -> None:
    """mexican/w/10/16x2, 3-1: the 1 (10/9) is blocked, so nothing moves, not even 10/7 (M3)."""
    pos = "mexican/w/10/16x2"
    why = explain_step(P(pos), (3, 1), [], "10/7")
    assert why.code == "turn_lost"
    assert "turn is lost" in why.message and "10/9" in why.message and "held by 2" in why.message
    assert "must be played first" not in why.message
    assert why.rule is not None and why.rule.text == ("If you are unable to play the lower number, then you "
                                                      "lose your turn.")
    assert refusal(pos, (3, 1), "10/7").reason == "turn_lost"
    # The 1 itself is refused by the block that refuses it.
    assert explain_step(P(pos), (3, 1), [], "10/9").code == "blocked"


def test_combined_move_names_the_held_intermediate_point() -> None:
    """explain_step('13/5') with 5-3, M5: 'only if the intermediate point ... is also open'."""
    why = explain_step(P(COMBINED), (5, 3), [], "13/5")
    assert why.code == "blocked" and "pass through point 10" in why.message
    assert why.rule is not None and why.rule.id == "M5"
    assert "No die shows" not in why.message
    # Standard, both ways closed: both are named; one way open: the move is two steps.
    both = explain_step(P("standard/w/13x5,6x10/20x2,17x2,1x11"), (5, 3), [], "13/5")
    assert both.code == "blocked" and "point 8" in both.message and "13/10/5" in both.message
    open_ = explain_step(Position.start("standard"), (5, 3), [], "13/5")
    assert open_.code == "combined" and "13/8/5" in open_.message


def test_incomplete_play_names_a_step_that_can_still_be_played() -> None:
    why = explain_play(Position.start("standard"), (6, 1), ["13/7"])
    assert why.code == "use_both_dice" and "the 1 can still be played" in why.message
    assert explain_play(Position.start("standard"), (6, 1), ["13/7", "8/7"]).legal
    doubles = explain_play(Position.start("standard"), (3, 3), ["8/5", "8/5"])
    assert doubles.code == "use_all_moves" and "2 more of the 3s" in doubles.message
    assert explain_play(P("mexican/w/10/16x2"), (3, 1), ["10/7"]).code == "turn_lost"


def test_M10_choice_example_of_the_docs() -> None:
    """docs/rules/mexican.md, M10: mexican/w/6,4/1x2 with 4-1: after 6/5 the 4 may bear off or move."""
    steps = legal_plays(P("mexican/w/6,4/1x2"), (4, 1))
    assert {str(p) for p in steps} == {"6/5 4/off", "6/5/1", "6/2 4/3"}
    assert "mexican/w/6,4/1x2` with 4-1" in (ROOT / "docs/rules/mexican.md").read_text(encoding="utf-8")


# -- the text of the reasons ------------------------------------------------------------------------

VARIANT_WORDS = re.compile(r"mexican|mini-?gam|standard", re.I)


def test_reason_texts_name_no_variant() -> None:
    for code, text in REASONS.items():
        assert not VARIANT_WORDS.search(text), (code, text)
    for name in ("standard", "mexican", "minigam"):
        for check in find_variant(name).step_checks():
            assert not VARIANT_WORDS.search(check.says), check


def test_explanation_messages_name_no_variant() -> None:
    cases = [("mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", (2, 1), [], "13/11"),
             ("mexican/w/6,4x2,1x5/6x2,13x5,8x3,7x5", (5, 2), ["4/2"], "6/1"),
             ("minigam/w/bar,1x7/barx8", (1, 2), [], "1/off"), ("mexican/w/6,4/1x2", (5, 6), [], Step(4, 0, 5)),
             ("mexican/w/10/16x2", (3, 1), [], "10/7"), ("mexican/w/bar,13/6x2", (3, 1), [], "13/12")]
    for pos, dice, done, step in cases:
        why = explain_step(P(pos), dice, done, step)
        assert not why.legal and not VARIANT_WORDS.search(why.message), (pos, why)


def _normal(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split())


@pytest.mark.skipif(not (SHARED / "RULES.md").is_file(), reason="the shared rule texts are not beside the repository")
def test_every_rule_citation_quotes_the_real_text() -> None:
    """Each reason's ``rule`` quotes a seed sentence or RULES.md text word for word."""
    sources = {"RULES.md": _normal((SHARED / "RULES.md").read_text(encoding="utf-8"))}
    for f in sorted((SHARED / "seeds").glob("*.txt")):
        sources[f.name] = _normal(f.read_text(encoding="utf-8"))
    checked = 0
    for v in (find_variant("standard"), find_variant("mexican"), find_variant("minigam"),
              find_variant("minigam", bar_first=True)):
        for code in REASONS:
            rule = v.rule(code)
            if rule is None:
                continue
            assert re.fullmatch(r"[MG]\d+|Geometry|Standard|seed\d{3}", rule.id), rule
            assert any(_normal(rule.text) in text for text in sources.values()), (v, code, rule)
            if re.fullmatch(r"[MG]\d+", rule.id):  # a row of RULES.md
                assert f"| {rule.id} |" in sources["RULES.md"], rule
            checked += 1
    assert checked >= 30


def test_rule_rows_belong_to_their_variant() -> None:
    assert find_variant("mexican").rule("stack_cap").id == "M6"  # type: ignore[union-attr]
    assert find_variant("minigam").rule("bear_off_higher").id == "G6"  # type: ignore[union-attr]
    assert find_variant("standard").rule("stack_cap") is None  # no such rule in standard
    assert find_variant("standard").rule("blocked").id == "Geometry"  # type: ignore[union-attr]


def test_every_rule_refusal_carries_its_rule() -> None:
    rng = random.Random(5)
    seen: set[tuple[str, str]] = set()
    for name in ("standard", "mexican", "minigam"):
        pos = Position.start(name)
        for _ in range(150):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            n = pos.variant.points
            for s in range(1, n + 2):
                for t in range(0, s):
                    why = explain_step(pos, dice, [], (s, t))
                    if why.code not in ("legal", "no_checker", "no_such_die", "combined"):
                        assert why.rule is not None, (pos, dice, s, t, why)
                        seen.add((name, why.code))
            plays = legal_plays(pos, dice)
            pos = rng.choice(list(plays)).position.swapped()
            if pos.is_over:
                pos = Position.start(name)
    assert {"blocked", "lower_die_first"} <= {c for _, c in seen}


# -- one statement of each single-step rule ---------------------------------------------------------

VARIANTS = [find_variant("standard"), find_variant("mexican"), find_variant("minigam"),
            find_variant("minigam", bar_first=True), find_variant("minigam", checkers=3)]


def _random_board(v, rng: random.Random) -> tuple[int, ...]:
    n = v.points
    b = [0] * (n + 3)
    mine, theirs = v.checkers, v.checkers
    for _ in range(rng.randint(1, 12)):
        p = rng.randint(0, n + 1)
        if p in (0, n + 1):
            k = rng.randint(0, min(mine, 3))
            b[p] += k
            mine -= k
        elif b[p] >= 0 and rng.random() < 0.6:
            k = rng.randint(0, min(mine, (v.stacking_cap or 15) - b[p]))
            b[p] += k
            mine -= k
        elif b[p] <= 0:
            k = rng.randint(0, max(0, min(theirs, (v.stacking_cap or 15) + b[p])))
            b[p] -= k
            theirs -= k
    b[0] += mine
    return tuple(b)


@pytest.mark.parametrize("v", VARIANTS, ids=repr)
def test_the_generator_refuses_exactly_what_the_judge_refuses(v) -> None:
    """The compiled step loop and the judge of explain_step come from one table: they agree on every
    (board, start, die), and the judge's refusal is the first check of the table that refuses."""
    r = _rules(v)
    rng = random.Random(11)
    n = v.points
    tried = 0
    for _ in range(400):
        b = _random_board(v, rng)
        for d in range(1, 7):
            made = {s: t for s, t, _nb, _hit in r.steps(b, d)}
            for s in range(1, n + 2):
                got = r.refusal(b, s, d)
                assert (s in made) == (got is None), (b, s, d, got)
                if got is not None:
                    assert got[0] in r.checks
                tried += 1
    assert tried > 10000


def test_the_variant_table_alone_switches_a_rule_for_generator_and_explanations() -> None:
    """One statement: a rule taken out of a variant's table is neither obeyed nor explained, with
    no other code (Mexican without its cap row stacks a sixth checker; with it, the step is
    refused and explained by M6)."""
    from backgammon_lab.variants import StepCheck
    from backgammon_lab.variants.mexican import Mexican

    class NoCap(Mexican):
        name = "test-no-cap"

        def step_checks(self) -> tuple[StepCheck, ...]:
            return tuple(c for c in super().step_checks() if c.code != "stack_cap")

    capped = P("mexican/w/13,8x5,6x5,5x4/24x2,13x5,8x3,6x5")
    free = Position(NoCap(), capped.points, capped.bar, capped.off, capped.turn)
    assert not any(st.start == 13 and st.end == 8 for st in legal_steps(capped, (5, 5)))
    assert any(st.start == 13 and st.end == 8 for st in legal_steps(free, (5, 5)))
    why = explain_step(capped, (5, 5), [], "13/8")
    assert why.rule is not None and why.rule.id == "M6"
    assert explain_step(free, (5, 5), [], "13/8").legal


# -- the search of move text is bounded (issue 11) --------------------------------------------------

HANG = "standard/b/24,22x3,21x3,15,14,12,10x2,7,5x2/24,22x2,21,17,14,8x4,6x3,2x2"


@pytest.mark.parametrize("text", ["8/7(9)", "8/7(9) 8/7(9)", "8/7(4) 8/7", "8/7(2) 8/7(2) 8/7", "13/7(9)",
                                  "8/7 " * 50, "8/7(3) 24/23(3)"])
def test_move_text_asking_for_more_moves_than_the_roll_is_refused_at_once(text: str) -> None:
    plays = legal_plays(P(HANG), (1, 1))
    t0 = time.perf_counter()
    with pytest.raises((IllegalMoveError, ValueError)) as info:
        plays.find(text)
    assert time.perf_counter() - t0 < 0.5
    assert text.strip()[:20] in str(info.value)


def test_four_step_text_is_found_quickly() -> None:
    plays = legal_plays(P(HANG), (1, 1))
    t0 = time.perf_counter()
    assert str(plays.find("8/7(4)")) == "8/7(4)"
    assert plays.find("8/7 8/7 8/7 8/7") == plays.find("8/7(2) 8/7(2)")
    assert time.perf_counter() - t0 < 0.5


@pytest.mark.parametrize("name", ["standard", "mexican", "minigam"])
def test_the_rules_pages_list_each_reason_with_its_quoted_rule(name: str) -> None:
    page = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    table = page.split("## Why a step is refused", 1)[1]
    v = find_variant(name)
    listed = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    assert listed == {code for code in REASONS if v.rule(code) is not None}
    for code in listed:
        rule = v.rule(code)
        assert rule is not None and f"| `{code}` | {REASONS[code]} | {rule.id} | \"{rule.text}\" |" in table


def test_M10_choice_test_tells_the_rule_from_a_must_bear_off_rule() -> None:
    """test_M10_bear_off_or_move_player_chooses fails for the wrong rule: under "a die that can bear
    a checker off must do so" no legal play of 4-1 from this position would move the 4 inside the
    board while a checker could bear off with it; M10 leaves the choice, so such a play is legal."""
    p = P("mexican/w/6,4/1x2")
    plays = {str(x) for x in legal_plays(p, (4, 1))}
    assert "6/5/1" in plays  # the 4 moved 5/1, though 4/off was open
    assert any("4/off" in x for x in plays)


def test_a_step_rule_no_kernel_implements_is_refused_in_words() -> None:
    """A variant whose step table names a rule with no compiled function is refused with the
    rule's name, at its first search, and nothing is searched under half its rules."""
    from backgammon_lab.errors import VariantError
    from backgammon_lab.variants import StepCheck
    from backgammon_lab.variants.mexican import Mexican

    class MustBearOff(Mexican):
        name = "test-must-bear-off"

        def step_checks(self) -> tuple[StepCheck, ...]:
            return (*super().step_checks(), StepCheck("must_bear_off", "land", "A {d} that can bear a checker off must."))

    p = P("mexican/w/6,4/1x2")
    wrong = Position(MustBearOff(), p.points, p.bar, p.off, p.turn)
    with pytest.raises(VariantError, match="'must_bear_off'"):
        legal_plays(wrong, (4, 1))


@pytest.mark.parametrize("v", VARIANTS, ids=repr)
def test_each_rule_of_the_table_is_one_kernel_function_read_by_the_generator_and_the_judge(v) -> None:
    """Every code of the variant's step table names a compiled function of kernels.movegen, and
    the step generator allows exactly the steps the judge lets through, on random boards of the
    variant: the two read the same functions."""
    from randpos import random_board

    from backgammon_lab.kernels import movegen

    r = _rules(v)
    for check in r.checks:
        assert callable(getattr(movegen, check.code)), check
    rng = random.Random(5)
    for _ in range(300):
        b = random_board(v, rng)
        for d in range(1, 7):
            made = {s for s, _t, _nb, _hit in r.steps(b, d)}
            for s in range(1, v.bar + 1):
                assert (s in made) == (r.judge(b, s, d) is None), (b, s, d)
