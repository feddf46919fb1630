"""The lessons' data: every exercise has one answer from the engine, the course covers every rule
row from easy to tricky, and the checker rejects exercises without an answer or with an ambiguous one."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from backgammon_lab import Position
from backgammon_lab.engine import dice_state
from backgammon_lab.game import Game
from backgammon_lab.lessons import (
    EXERCISES,
    KINDS,
    ROW_TITLES,
    STAGES,
    Exercise,
    LessonError,
    Progress,
    check_exercise,
    exercise,
    solve,
    stage,
    stages_of,
    stars_for,
)
from backgammon_lab.lessons.exercises import build_game, step_clicks
from backgammon_lab.rules import legal_plays

ROWS = [f"S{i}" for i in range(1, 5)] + [f"M{i}" for i in range(1, 12)] + [f"G{i}" for i in range(1, 9)]


@pytest.mark.parametrize("ex", EXERCISES, ids=[e.id for e in EXERCISES])
def test_every_exercise_has_an_answer_from_the_engine(ex: Exercise) -> None:
    ans = check_exercise(ex)
    assert ans.accepts and ans.solution and ans.hint
    assert ex.goal and ex.text and ex.rows and set(ex.rows) <= set(ROWS)
    if ans.reasons:
        assert 0 <= ans.reason_index < len(ans.reasons) == len(set(ans.reasons)) >= 2


def test_the_course_has_at_least_80_exercises_three_per_row_and_a_review_per_variant() -> None:
    assert len(EXERCISES) >= 80
    assert len({e.id for e in EXERCISES}) == len(EXERCISES)
    per_row = Counter(e.id.split(".")[0].upper() for e in EXERCISES)
    for row in ROWS:
        assert per_row[row] >= 3, row
        assert stage(row).exercises and stage(row).title == ROW_TITLES[row]
    for variant, review in (("standard", "S-review"), ("mexican", "M-review"), ("minigam", "G-review")):
        st = stages_of(variant)
        assert st[-1].id == review and len(st[-1]) >= 3 and len(set(st[-1].rows)) >= 2
        assert all(e.variant == variant for s in st for e in s.exercises)
    assert {e.kind for e in EXERCISES} == set(KINDS)


@pytest.mark.parametrize("row", ROWS)
def test_each_row_goes_from_easy_to_tricky(row: str) -> None:
    levels = [e.level for e in stage(row).exercises]
    assert levels[0] == min(levels) and max(levels) >= 2


def test_stage_order_follows_the_rule_rows() -> None:
    ids = [s.id for s in STAGES]
    assert ids == ROWS[:4] + ["S-review"] + ROWS[4:15] + ["M-review"] + ROWS[15:] + ["G-review"]


# -- the tricky cases the review found -----------------------------------------------------------
def test_m4_lower_die_that_blocks_the_higher() -> None:
    ex = exercise("m4.1")
    pos = Position.from_string(ex.position)
    assert [str(p) for p in legal_plays(pos, (6, 1))] == ["13/12/6"]
    assert "2/1" not in [str(s) for p in legal_plays(pos, (6, 1)) for s in p.steps]


def test_m10_choice_with_4_1() -> None:
    ans = solve(exercise("m10.3"))
    assert exercise("m10.3").position == "mexican/w/6,4/1x2"
    plays = {str(p) for p in ans.plays}
    assert "6/5 4/off" in plays and any("off" not in p for p in plays)


def test_hit_during_bear_off_and_a_checker_still_outside() -> None:
    assert solve(exercise("m10.6")).accepts == {False}  # on the bar: no bearing off
    assert solve(exercise("m10.5")).accepts == {True}  # the lower die brings the last one home
    assert solve(exercise("s4.2")).accepts == {True}


def test_the_cap_when_entering_loses_the_turn() -> None:
    ans = solve(exercise("m6.3"))
    assert ans.accepts == {True} and "5 of your checkers" in ans.reason


def test_a_re_rolled_1_2_is_another_mexican() -> None:
    game = build_game(exercise("m8.4"))
    assert game.state.mexican and game.state.phase == "play"
    assert sum(1 for e in game.events) >= 0
    solved = build_game(exercise("m8.4"))
    solved.play(solve(exercise("m8.4")).plays[0])
    assert solved.phase == "name"


def test_a_win_inside_a_doubles_chain() -> None:
    game = build_game(exercise("m11.2"))
    assert game.state.phase == "play" and game.state.roll.is_double  # the second 3-3 of a chain
    game.play(solve(exercise("m11.2")).plays[0])
    assert game.is_over and game.points == 1


def test_the_third_doubles_only_partly_playable() -> None:
    ex = exercise("m7.2")
    game = build_game(ex)
    assert sum(1 for a in ex.before if isinstance(a, str) and a[0] == a[-1] and "-" in a) == 2
    assert game.state.plays.length == 1 and solve(ex).accepts == {1}


# -- the checker rejects bad exercises -------------------------------------------------------------
START = "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"


@pytest.mark.parametrize("ex, words", [
    (Exercise("x1", "play", START, "5-2", "g", target="only"), "the only legal play"),
    (Exercise("x2", "play", "mexican/w/3,1/13x5,8x5,7x5", "2-1", "g", target="win"), "no legal play bears off"),
    (Exercise("x3", "play", START, "2-1", "g", target="hit"), "no legal play hits"),
    (Exercise("x4", "spot", START, "5-2", "g", proposal="24/22 13/8"), "every step"),
    (Exercise("x5", "spot", START, "5-2", "g", proposal="13/8"), "nothing to spot"),
    (Exercise("x6", "land", START, "5-2", "g", start=13, die=4), "not in the roll"),
    (Exercise("x7", "name", START, None, "g", before=("2-1", "24/23 13/11")), "every doubles"),
    (Exercise("x8", "name", START, "5-2", "g"), "after a Mexican"),
    (Exercise("x9", "count", "mexican/w/13x5,8x5,7x5/24x2,20x2,19x2,14x2,13x5,6x2", "6-2", "g"), "use kind 'lost'"),
    (Exercise("x10", "count", START, "5-2", "g", before=("6-6",)), "cannot be played"),
    (Exercise("x11", "count", "mexican/w/24x9/24x2", "5-2", "g"), "bad position"),
    (Exercise("x12", "lost", START, "2-1", "g", trap=False), "its trap"),
    (Exercise("x13", "count", "standard", "5-2", "g", opening=True, before=("3-3", "9-9")), "cannot be played"),
])
def test_bad_exercises_are_rejected(ex: Exercise, words: str) -> None:
    with pytest.raises(LessonError, match=words) as info:
        check_exercise(ex)
    assert repr(ex.id) in str(info.value)


def test_bad_data_is_refused_at_once() -> None:
    with pytest.raises(LessonError, match="unknown kind 'quiz'"):
        Exercise("x", "quiz", START, "5-2", "g")
    with pytest.raises(LessonError, match="unknown target 'gammon'"):
        Exercise("x", "play", START, "5-2", "g", target="gammon")
    with pytest.raises(LessonError, match="level must be"):
        Exercise("x", "play", START, "5-2", "g", level=4)
    for bad in ("Z9", "", 3):
        with pytest.raises(LessonError, match="no stage"):
            stage(bad)  # type: ignore[arg-type]
    with pytest.raises(LessonError, match="no exercise"):
        exercise("m99.1")
    with pytest.raises(LessonError, match="no lessons for variant"):
        stages_of("hypergammon")
    assert issubclass(LessonError, ValueError)


def test_answers_are_computed_not_written() -> None:
    """Change the position and the answer follows: nothing in the data holds the answer."""
    ex = exercise("m1.2")
    assert solve(ex).accepts == {len(legal_plays(Position.from_string(ex.position), (6, 5)))}
    std = Exercise("s", "count", ex.position.replace("mexican", "standard"), "6-5", "g")
    assert solve(std).accepts == {len(legal_plays(Position.from_string(std.position), (6, 5)))} != solve(ex).accepts


def test_clicks_and_numbering() -> None:
    pos = Position.from_string("minigam/b/5,4,barx6/5,barx7")
    assert pos.variant.renumber(5, pos.turn) == 2 and pos.variant.renumber(5, "white") == 5
    st = dice_state(pos, (3, 1)).next_steps()[0]
    clicks = step_clicks(pos, st)
    assert clicks[0][0] in ("point", "bar") and len(clicks) == 2


# -- stars and progress ----------------------------------------------------------------------------------
def test_stars() -> None:
    assert stars_for(0, 0, False) == 3
    assert stars_for(1, 0, False) == stars_for(0, 1, False) == stars_for(5, 2, False) == 2
    assert stars_for(0, 0, True) == stars_for(3, 1, True) == 1


def test_progress_keeps_the_best_and_round_trips_as_json() -> None:
    p = Progress(["a", "b"])
    assert p.record("a", shown=True) == 1
    assert p.record("a", wrong=2) == 2
    assert p.record("a", shown=True) == 2  # a worse attempt does not lower the stars
    assert p.total_stars() == 2 and p.max_stars() == 6 and p.done() == 1
    text = p.to_json()
    assert json.loads(text)["results"]["a"] == {"hints": 0, "shown": False, "stars": 2, "wrong": 2}
    again = Progress.from_json(text)
    assert again.to_json() == text and repr(again) == "<Progress 1/2 done, 2/6 stars>"


@pytest.mark.parametrize("bad", ["", "[]", '{"exercises": 3, "results": {}}', '{"exercises": []}',
                                 '{"exercises": [], "results": {"a": {"wrong": -1, "hints": 0, "shown": false}}}',
                                 "not json"])
def test_progress_refuses_what_it_did_not_write(bad: str) -> None:
    with pytest.raises(LessonError):
        Progress.from_json(bad)


def test_progress_refuses_bad_counts_and_changes_nothing() -> None:
    p = Progress(["a"])
    for kw in ({"wrong": -1}, {"hints": 1.5}, {"wrong": True}):
        with pytest.raises(LessonError):
            p.record("a", **kw)  # type: ignore[arg-type]
    with pytest.raises(LessonError):
        p.record("")
    assert p.to_dict()["results"] == {}


def test_the_docs_show_the_course_as_it_is() -> None:
    from pathlib import Path

    from backgammon_lab.lessons.catalog import course_table

    page = (Path(__file__).resolve().parents[1] / "docs" / "lessons.md").read_text(encoding="utf-8")
    assert course_table() in page, "docs/lessons.md's table is stale: paste course_table() into it"


# -- the notebooks' helpers --------------------------------------------------------------------------
def test_labelled_board_names_the_parts_and_is_deterministic() -> None:
    from backgammon_lab.lessons.notebook import labelled_board

    a, b = labelled_board(), labelled_board()
    assert a.svgs == b.svgs and repr(a) == "<1 board picture>"
    svg = a.svgs[0]
    for word in ("the bar", "the tray", "a blot", "a made point", "pip count", "home board: points 1-6", "point 1"):
        assert word in svg, word
    assert a._repr_html_().startswith('<div><img style=')


def test_why_not_prints_words_and_the_rule_not_a_code(capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab.lessons.notebook import why_not

    pic = why_not(Position.start("mexican"), (5, 2), "13/8")
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "13/8: not allowed"
    assert "The lower die, 2, must be played first." in out and "lower_die_first" not in out
    assert "Not allowed: 13/8." in pic.svgs[0]
    why_not(Position.start("mexican"), (5, 2), "13/11")
    assert capsys.readouterr().out.splitlines()[0] == "13/11: allowed"


def test_narrate_tells_a_turn_in_the_engines_words(capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab.lessons.notebook import narrate

    game = narrate("mexican", ["2-1", "keep", "13/11", "24/23 13/11", 3])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2-1 ") and "White goes first." in lines[0]
    assert "refused" in lines[2] and "13/11" in lines[2]  # a play of one die is not a whole play
    assert lines[-1].endswith("White names 3-3.") and game.phase == "play"


def test_enters() -> None:
    from backgammon_lab.lessons.notebook import ROLLS_36, enters

    pos = Position.from_string("mexican/w/bar,24x2,13x4,8x3,6x5/13x5,8x3,6x5,2x2")
    assert enters(pos, (4, 3)) and not enters(pos, (5, 2))
    assert len(ROLLS_36) == 36


# -- the faults of issue 20 (a learner bot and a review) ------------------------------------------
def _texts_of(ex: Exercise) -> list[str]:
    ans = solve(ex)
    return [ex.goal, ex.text, ex.note, ans.solution, ans.hint, ans.reason, *ans.reasons, *ans.labels]


def test_fault_minigam_numbering_says_whose_point() -> None:
    for ex_id, mine, white in (("g1.2", 2, 5), ("g.r3", 1, 6)):
        ans = solve(exercise(ex_id))
        assert ans.solution == f"Black's point {mine} (White's point {white})"
        for text in (ans.solution, ans.reason, ans.hint):
            assert "its point" not in text and "Black's point" in text
        assert "White's point" in ans.reason  # the number the board shows, too
    white_ans = solve(exercise("g1.1"))
    assert white_ans.solution == "White's point 2" and "White's point 5" in white_ans.reason


def test_fault_turn_lost_hint_asks_for_a_die_order_only_where_there_is_one() -> None:
    for ex_id in ("s3.3", "g.r2"):  # standard and Mini-Gam: no die order
        hint = solve(exercise(ex_id)).hint
        assert "first" not in hint and "either die" in hint, hint
    assert solve(exercise("m3.3")).hint.startswith("Which die must be played first with 6-2")
    assert solve(exercise("m9.2")).hint.startswith("Which die must enter first with 5-2")


def test_fault_mexican_plays_are_written_in_the_order_played() -> None:
    from backgammon_lab.engine import Played

    for ex_id in ("m8.2", "m.r4"):  # the goal quotes the Mexican that was played, as the game writes it
        ex = exercise(ex_id)
        game = build_game(ex)
        played = [e.text for en in game.entries for e in en.events if isinstance(e, Played)]
        quoted = played[0].removeprefix("White plays ").rstrip(".")
        assert f"the Mexican {quoted}." in ex.goal, (ex.goal, quoted)
    assert "1/off 3/1" in exercise("m.r4").goal and "5/4 5/3" in exercise("m8.2").goal
    # an answer with the lower die first reads so: 13/8 24/22 would be wrong
    assert solve(exercise("m1.2")).reason.startswith("6 legal plays: 13/8 24/18,")


def test_fault_g7_exercises_practise_g7_and_g_r4_does_not_claim_it() -> None:
    g_r4 = exercise("g.r4")
    assert "G7" not in g_r4.rows and "same checker" not in g_r4.text
    for ex in (e for e in EXERCISES if "G7" in e.rows):
        pos = Position.from_string(ex.position)
        assert ex.dice is not None
        plays = legal_plays(pos, tuple(int(d) for d in ex.dice.split("-")))
        bar = pos.variant.points + 1
        # some legal play takes one checker from the bar and off in one turn (a chain bar/.../off)
        assert any(any(a.start == bar and b.start == a.end and b.end == 0 for a in p.steps for b in p.steps)
                   for p in plays), ex.id


def test_fault_interpretations_are_flagged() -> None:
    from backgammon_lab.lessons.rows import INTERPRETATIONS

    for ex_id, row in (("m10.4", "M10"), ("m4.1", "M4"), ("m10.3", "M10"), ("m4.3", "M4"), ("g4.1", "G4")):
        ex = exercise(ex_id)
        assert ex.interpretation == row and ex.note.startswith(f"An interpretation (rule {row}): ")
        assert INTERPRETATIONS[row] in ex.note
    assert exercise("m3.1").note == ""
    with pytest.raises(LessonError, match="'M3' is not an interpretation"):
        Exercise("x", "count", "mexican", None, "?", interpretation="M3")


def _all_feedback_texts() -> list[str]:
    from backgammon_lab.widgets.exercise import ExerciseWidget

    texts = [t for ex in EXERCISES for t in _texts_of(ex)]
    for ex in EXERCISES:  # what a wrong try and a shown solution say
        wdg = ExerciseWidget(ex)
        if ex.kind == "play" and ex.trap:
            from backgammon_lab.moves import parse_steps

            ((a, b),) = parse_steps(ex.trap, wdg.game.variant.points)
            from backgammon_lab.position import Step

            for kind, value in step_clicks(wdg.game.position, Step(a, b, max(a - b, 1))):
                wdg.board.click(kind, value)
            texts.append(wdg.feedback)
        wdg.show_solution()
        texts.append(wdg.feedback)
    return texts


def test_fault_rule_labels_are_names_a_learner_can_look_up_in_one_quote_style() -> None:
    import re

    texts = _all_feedback_texts()
    joined = "\n".join(texts)
    for bad in ("seed0", "Rule Geometry", 'Rule: "', "Rule: \u201c", "(Rule S", "interpretation, offered"):
        assert bad not in joined, bad
    quotes = re.findall(r"\((Rule [A-Z]\d+, [^:]+|The [^:(]+ rule text|The board, in every variant): \u201c", joined)
    assert quotes and {q.split(",")[0] for q in quotes} >= {"Rule M3", "Rule M4", "The Mexican Backgammon rule text"}
    assert "(Rule M6, At most five on a point: \u201c" in joined


def test_fault_rule_labels_in_the_notebook_outputs() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "notebooks"
    for name in ("01_standard_backgammon", "02_mexican_backgammon", "03_minigam"):
        nb = json.loads((root / f"{name}.ipynb").read_text(encoding="utf-8"))
        outputs = json.dumps([c.get("outputs", []) for c in nb["cells"]], ensure_ascii=False)
        for bad in ("Rule seed", "Rule Geometry", "Rule G4: \u201cinterpretation"):
            assert bad not in outputs, (name, bad)


def test_fault_wording_no_doubled_full_stops_or_repeated_sentences() -> None:
    import re

    for text in _all_feedback_texts():
        assert ".." not in text.replace("...", ""), text
        assert not any(f"{w}. {w}" in text or f"{w}: {w}" in text for w in ("Yes", "No", "Right", "Solution")), text
        assert "The bar cannot move" not in text
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", re.sub(r"\s*[\u2605\u2606]+$", "", text)) if len(s) > 12]
        repeated = [s for s, k in Counter(sentences).items() if k > 1]
        assert not repeated, (repeated, text)
        heads = [" ".join(s.split()[:4]) for s in sentences if len(s.split()) > 4]
        assert len(heads) == len(set(heads)), text  # no sentence said twice in other words


def test_fault_goals_do_not_state_the_answer() -> None:
    for ex_id, words in (("m3.3", ("blocked", "8/2", "open")), ("m9.2", ("point 23", "holds")),
                         ("m6.3", ("point 24", "would enter"))):
        goal = exercise(ex_id).goal
        assert not any(w in goal for w in words), goal


def test_fault_choices_are_shuffled_and_the_first_is_not_always_right() -> None:
    for ex_id in ("m8.2", "m.r4"):
        ans = solve(exercise(ex_id))
        assert sorted(ans.choices) == [1, 2, 3, 4, 5, 6] and ans.choices[0] not in ans.accepts
        assert ans.labels == tuple(f"{k}-{k}" for k in ans.choices)
    assert solve(exercise("m8.2")).choices != solve(exercise("m.r4")).choices  # seeded by the exercise
    solve.cache_clear()
    assert solve(exercise("m8.2")).choices == (6, 2, 4, 3, 1, 5)  # the same on every run
    firsts = {ans.choices.index(min(ans.accepts)) for ans in map(solve, EXERCISES)
              if len(ans.choices) > 2 and ans.accepts <= set(ans.choices)}
    assert len(firsts) > 2  # the right answer is not always on one button


def _has_a_wrong_try(ex: Exercise) -> bool:
    """Can a learner go wrong here: a refused step, a legal step away from the goal, a wrong button?"""
    from backgammon_lab.lessons.exercises import _target_ok
    from backgammon_lab.position import Step
    from backgammon_lab.rules import explain_step

    ans = solve(ex)
    if ex.kind == "land":
        return True  # every other point of the board
    if ex.kind != "play":
        return len(ans.choices) > len(ans.accepts)
    game = build_game(ex)
    st = game.state
    pos = st.position
    assert st.roll is not None
    n = pos.variant.points
    for s in range(n + 1, 0, -1):
        if not pos.count(pos.turn, s):
            continue
        for d in set(st.roll.dice):
            why = explain_step(pos, st.roll, [], Step(s, max(s - d, 0), d))
            if not why.legal:
                return True
            # entering on point d, counted from the wrong side: a numbering slip the widget refuses
            if s == n + 1 and d != n + 1 - d and not explain_step(pos, st.roll, [], (s, d)).legal:
                return True
    good = set(ans.accepts)
    return any(p.position not in good for p in st.plays or ()) or not all(
        _target_ok(ex.target, p, pos) for p in st.plays or ())


@pytest.mark.parametrize("ex", EXERCISES, ids=[e.id for e in EXERCISES])
def test_fault_every_exercise_has_a_possible_wrong_try(ex: Exercise) -> None:
    assert _has_a_wrong_try(ex), ex.id


def test_fault_rule_sentences_with_no_exercise_now_have_one() -> None:
    from backgammon_lab.engine import DiceLost, TurnLost

    # M2: the learner makes the keep-or-re-roll choice
    m2 = [e for e in EXERCISES if e.kind == "choose"]
    assert m2 and all("M2" in e.rows for e in m2)
    ans = solve(exercise("m2.4"))
    assert ans.accepts == {"keep"} and set(ans.choices) == {"keep", "reroll"}
    # M9: two checkers on the bar, one enters and the other stays
    ex = exercise("m9.4")
    game = build_game(ex)
    (play,) = game.state.plays or ()
    game.play(play)
    bar = game.variant.points + 1
    assert play.position.count("white", bar) == 1 and [s.start for s in play.steps] == [bar]
    assert any(isinstance(e, (DiceLost, TurnLost)) for e in game.entries[-1].events)
    # M11: what a win is worth, against the same finish in standard backgammon
    assert solve(exercise("m11.4")).accepts == {1} and solve(exercise("s.r4")).accepts == {3}
    assert "wins 3 points (a backgammon)" in solve(exercise("s.r4")).reason


# -- the notebook faults of issue 20 -------------------------------------------------------------------
def _notebook(name: str) -> dict:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / f"{name}.ipynb"
    return json.loads(path.read_text(encoding="utf-8"))


def _outputs(nb: dict) -> str:
    return "\n".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                     for c in nb["cells"] for o in c.get("outputs", []))


NOTEBOOKS = ("00_start_here", "01_standard_backgammon", "02_mexican_backgammon", "03_minigam",
             "04_custom_positions", "06_rule_differences", "07_course")


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_fault_notebook_outputs_hold_no_jargon_or_raw_html(name: str) -> None:
    out = _outputs(_notebook(name))
    for bad in ("GameError", "in phase '", "phase choice", "Choice.KEEP", "<div style=", "Rule seed",
                "Rule Geometry", 'Rule: "'):
        assert bad not in out, (name, bad)


def test_fault_nb02_doubles_chain_sentence_lets_a_mexican_carry_it_on() -> None:
    text = "".join("".join(c["source"]) for c in _notebook("02_mexican_backgammon")["cells"]
                   if c["cell_type"] == "markdown")
    assert "not doubles (or a Mexican" not in text and "a Mexican (rule 8) carries it on" in text


def test_fault_nb00_teaches_the_opening_a_turn_that_cannot_move_and_gammon() -> None:
    nb = _notebook("00_start_here")
    text = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "**The opening roll.**" in text and "**A turn that cannot move.**" in text
    assert "| **gammon** |" in text and "**backgammon**" in text
    assert "the turn passes" in _outputs(nb)


@pytest.mark.parametrize("name, lines", [("00_start_here", 1), ("06_rule_differences", 1),
                                         ("02_mexican_backgammon", 1)])
def test_fault_table_and_turn_loops_moved_into_the_package(name: str, lines: int) -> None:
    cells = ["".join(c["source"]) for c in _notebook(name)["cells"] if c["cell_type"] == "code"]
    assert not any("for label, attr in facts" in c or "for title, text, dice, actions in cases" in c for c in cells)
    used = [c for c in cells if "print(variant_table())" in c or "turns(cases)" in c]
    # the table is one line; the turns are a list of cases (data) and one call
    assert used and all(len([x for x in c.splitlines() if not x.startswith(("cases", "    (", "]"))]) <= lines
                        for c in used), used


def test_variant_table_and_turns_say_what_the_engine_says(capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab.lessons.notebook import attempt, plain, turns, variant_table

    table = variant_table().splitlines()
    assert table[0].split() == ["Standard", "backgammon", "Mexican", "Backgammon", "Mini-Gam"]
    assert table[3].split() == ["most", "checkers", "on", "a", "point", "no", "limit", "5", "no", "limit"]
    assert table[-1].split()[-3:] == ["yes", "no", "no"]  # gammons
    pic = turns([("the lower die cannot be played", "mexican/w/13x5,8x5,7x5/24x2,20x2,19x2,14x2,13x5,6x2",
                  (6, 2), [])])
    assert repr(pic) == "<1 board picture>"
    assert capsys.readouterr().out == ("the lower die cannot be played (6-2):\n     White rolls 6-2.\n"
                                       "     The lower die, 2, cannot be played: the turn is lost.\n")
    game = Game("mexican", seed=1)
    game.roll((5, 3))
    attempt(game, "13/10 13/8")
    attempt(game, 6)
    attempt(game, "keep")
    assert capsys.readouterr().out.splitlines() == [
        "13/10 13/8: not now. The game waits for this: White keeps the opening dice or rolls again.",
        "name 6-6: not now. The game waits for this: White keeps the opening dice or rolls again.",
        "White keeps the opening dice 5-3."]
    assert plain("<div style='x'>3 plays &amp; more</div>") == "3 plays & more"


@pytest.mark.parametrize("name", ["01_standard_backgammon", "02_mexican_backgammon", "03_minigam"])
def test_notebook_exercise_counts_match_the_stages(name: str) -> None:
    import re

    cells = _notebook(name)["cells"]
    for i, c in enumerate(cells):
        m = re.search(r'lesson\("([\w-]+)"\)', "".join(c["source"])) if c["cell_type"] == "code" else None
        if m:
            before = "".join(cells[i - 1]["source"])
            k = len(stage(m.group(1)))
            assert f"{k} exercises" in before, (name, m.group(1), k)
