"""The exercise widget and the course runner, driven through their public click API.

Every exercise of the course is solved by clicks (board clicks and answer buttons) and earns
three stars; wrong tries get the engine's own explanation; hints and shown solutions cost the
stars the scoring says; progress is exported as JSON.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from backgammon_lab.lessons import EXERCISES, Exercise, LessonError, Progress, exercise, solve, stage
from backgammon_lab.lessons.exercises import proposal_steps, step_clicks
from backgammon_lab.position import Step
from backgammon_lab.rules import REASONS, explain_step, legal_plays
from backgammon_lab.widgets.exercise import CourseWidget, ExerciseWidget, lesson

IDS = [e.id for e in EXERCISES]


def solve_by_clicks(wdg: ExerciseWidget) -> None:
    """Solve an exercise as a learner who knows the answer: board clicks and buttons only."""
    ex, ans = wdg.exercise, wdg.answer_key
    if ex.kind == "play":
        for st in ans.plays[0].steps:
            for kind, value in step_clicks(wdg.game.position, st):
                wdg.board.click(kind, value)
    elif ex.kind == "land":
        wdg.board.click("point", next(iter(ans.accepts)))
    elif ex.kind == "spot":
        i = next(iter(ans.accepts))
        _kind, value = step_clicks(wdg.game.position, Step(*proposal_steps(ex, wdg.game.position)[i][1:], 1))[0]
        wdg.board.click(_kind, value)  # the start point of the refused step, on the board
        if wdg.stage == "answer":  # several steps start there: the learner uses the buttons
            wdg.choice_buttons[ans.choices.index(i)].click()
        wdg.reason_buttons[ans.reason_index].click()
    else:
        value = sorted(ans.accepts)[0]
        wdg.choice_buttons[ans.choices.index(value)].click()
        if wdg.stage == "reason":
            wdg.reason_buttons[ans.reason_index].click()


@pytest.mark.parametrize("ex", EXERCISES, ids=IDS)
def test_every_exercise_is_solved_by_clicks_for_three_stars(ex: Exercise) -> None:
    progress = Progress([ex.id])
    wdg = ExerciseWidget(ex, progress=progress)
    assert wdg.stage == "answer" and wdg.stars == 0 and progress.stars(ex.id) == 0
    solve_by_clicks(wdg)
    assert wdg.stage == "done" and wdg.solved, (wdg.feedback, wdg.board.message)
    assert wdg.wrong == 0 and wdg.stars == 3 and progress.stars(ex.id) == 3
    assert wdg.feedback.startswith("Right"), wdg.feedback
    assert "\u2605\u2605\u2605" in wdg.feedback and wdg.stars_label.value.startswith("\u2605\u2605\u2605")
    assert not any(code in wdg.feedback.split() for code in REASONS if "_" in code)  # no reason codes
    if ex.kind == "play":
        assert wdg.game.phase != "play" or wdg.game.position != wdg.game.states[0].position


def test_the_whole_course_collects_every_star() -> None:
    course = CourseWidget()
    total = 0
    while True:
        solve_by_clicks(course.exercise)
        total += 1
        if course.next_button.disabled:
            break
        assert course.next_button.button_style == "success"
        course.next_button.click()
    assert total == len(EXERCISES) >= 80
    assert course.progress.total_stars() == course.progress.max_stars() == 3 * len(EXERCISES)
    data = json.loads(course.export())
    assert data["stars"] == data["max_stars"] == 3 * len(EXERCISES)
    assert set(data["results"]) == set(IDS)
    assert course.export_box.value == course.progress.to_json()
    assert course.status.value.endswith(f"{3 * len(EXERCISES)}/{3 * len(EXERCISES)} in all")


# -- wrong tries get the engine's explanation ---------------------------------------------------
PLAY_TRAPS = [e for e in EXERCISES if e.kind == "play" and e.trap]


@pytest.mark.parametrize("ex", PLAY_TRAPS, ids=[e.id for e in PLAY_TRAPS])
def test_a_refused_step_is_a_wrong_try_with_the_engines_words(ex: Exercise) -> None:
    wdg = ExerciseWidget(ex)
    pos = wdg.game.position
    st = wdg.game.state
    (start, end), = [(a, b) for _t, a, b in proposal_steps(Exercise("t", "spot", ex.position, None, "",
                                                                       proposal=ex.trap), pos)]
    why = explain_step(st.turn_start, st.roll, [], (start, end))
    before = wdg.game.position
    messages = []
    for kind, value in step_clicks(pos, Step(start, end, 1)):
        wdg.board.click(kind, value)
        messages.append(wdg.board.message)
    if why.legal:  # a legal step that leads away from the goal: taken back, and said so
        assert "is legal, but" in wdg.feedback
    else:  # refused when the checker is clicked (it cannot move) or when its destination is
        assert wdg.feedback.startswith("Not allowed: ") and why.message in wdg.feedback
        assert any(why.message in m for m in messages)
    assert wdg.wrong == 1 and wdg.stage == "answer" and wdg.game.position == before
    assert not any(code in wdg.feedback for code in REASONS if "_" in code)
    solve_by_clicks(wdg)
    assert wdg.stars == 2 and wdg.progress.stars(ex.id) == 2


def test_the_m3_trap_says_lower_die_first_and_cites_the_rule() -> None:
    wdg = ExerciseWidget(exercise("m3.1"))
    wdg.board.click("point", 13)
    wdg.board.click("point", 8)  # 13/8 with the 5: refused
    assert "The lower die, 2, must be played first." in wdg.feedback
    assert wdg.board.selected is None and wdg.wrong == 1
    wdg.board.click("point", 24)
    assert wdg.board.selected == 24 and wdg.wrong == 1  # a click on a movable checker selects it
    wdg.board.click("point", 8)  # no checker of 8 can move (6 is full, the 5 must wait): explained
    assert "Point 6 already holds 5 of your checkers" in wdg.feedback and wdg.wrong == 2


def test_m4_trap_is_the_lower_die_move_that_blocks_the_higher() -> None:
    wdg = ExerciseWidget(exercise("m4.1"))
    wdg.board.click("point", 2)
    wdg.board.click("point", 1)
    assert "After this 1 the 6 could not be played, but another 1 lets both dice be played" in wdg.feedback


def test_a_legal_step_away_from_the_goal_is_taken_back() -> None:
    ex = exercise("m10.4")  # play 4-1 without bearing off: 6/5 then 4/off is legal but bears off
    wdg = ExerciseWidget(ex)
    start = wdg.game.position
    for st in (Step(6, 5, 1), Step(4, 0, 4)):
        for kind, value in step_clicks(wdg.game.position, st):
            wdg.board.click(kind, value)
    assert wdg.wrong == 1 and wdg.stage == "answer"
    assert "is legal, but it is not a play that bears nothing off" in wdg.feedback
    assert wdg.game.position == start and wdg.game.phase == "play"


QUESTIONS = [e for e in EXERCISES if e.kind not in ("play",)]


@pytest.mark.parametrize("ex", QUESTIONS, ids=[e.id for e in QUESTIONS])
def test_a_wrong_answer_is_explained_and_costs_a_star(ex: Exercise) -> None:
    wdg = ExerciseWidget(ex)
    ans = wdg.answer_key
    pos = wdg.game.position
    if ex.kind == "land":
        wrong = next(p for p in range(1, pos.variant.points + 1) if p not in ans.accepts)
        wdg.board.click("point", wrong)
        why = explain_step(pos, wdg.game.state.roll, [], Step(ex.start, pos.variant.renumber(wrong, pos.turn), ex.die))
        assert wdg.feedback.startswith("Not ") and f"White's point {wrong}" in wdg.feedback
        if not why.legal and why.code != "backwards":
            assert why.message in wdg.feedback
    else:
        wrong = next(v for v in ans.choices if v not in ans.accepts)
        wdg.choice_buttons[ans.choices.index(wrong)].click()
        if ex.kind == "name":
            k = legal_plays(pos, (wrong, wrong)).length
            assert wdg.feedback.endswith(f"only {k} of the four {wrong}s could be played.")
        elif ex.kind in ("lost", "bearoff"):
            assert ans.reason in wdg.feedback  # the engine's reason
        elif ex.kind == "spot":
            assert ans.labels[wrong] in wdg.feedback and "legal" in wdg.feedback
    assert wdg.wrong == 1 and wdg.stage == "answer"
    if ans.reasons:  # the second stage: a wrong reason, then the right one
        value = sorted(ans.accepts)[0]
        wdg.choice_buttons[ans.choices.index(value)].click()
        assert wdg.stage == "reason"
        bad = next(i for i in range(len(ans.reasons)) if i != ans.reason_index)
        wdg.reason_buttons[bad].click()
        assert wdg.wrong == 2 and ans.reasons[bad] in wdg.feedback
        wdg.reason_buttons[ans.reason_index].click()
        assert wdg.stage == "done" and ans.reason in wdg.feedback
    else:
        solve_by_clicks(wdg)
    assert wdg.stars == 2


def test_spot_reasons_are_the_engines_reasons() -> None:
    for ex in (e for e in EXERCISES if e.kind == "spot"):
        ans = solve(ex)
        phrases = {t[:1].upper() + t[1:] + "." for t in REASONS.values()}
        assert set(ans.reasons) <= phrases
        assert len(ans.reasons) == 3


# -- hints, solutions, stars ----------------------------------------------------------------------
def test_hint_costs_one_star_and_highlights_the_checker() -> None:
    wdg = ExerciseWidget(exercise("m9.1"))
    wdg.hint_button.click()
    assert wdg.hints == 1 and wdg.feedback == "Hint: move the checker on the bar next."
    assert wdg.board.options["highlight"] == []  # the bar is named, not tinted
    solve_by_clicks(wdg)
    assert wdg.stars == 2


def test_a_hint_after_a_step_points_to_a_step_that_still_reaches_the_goal() -> None:
    wdg = ExerciseWidget(exercise("m10.1"))  # bear off with 5-1: the 1 first
    for kind, value in step_clicks(wdg.game.position, Step(6, 5, 1)):
        wdg.board.click(kind, value)
    wdg.hint_button.click()
    assert wdg.feedback == "Hint: move the checker on White's point 5 next." and wdg.hints == 1
    assert wdg.board.options["highlight"] == [5]
    for kind, value in step_clicks(wdg.game.position, Step(5, 0, 5)):
        wdg.board.click(kind, value)
    assert wdg.stage == "done" and wdg.stars == 2


def test_show_solution_plays_it_and_gives_one_star() -> None:
    progress = Progress()
    wdg = ExerciseWidget(exercise("m8.1"), progress=progress)
    wdg.solution_button.click()
    assert wdg.stage == "done" and wdg.stars == 1 and progress.stars("m8.1") == 1
    assert wdg.game.phase == "name"  # the solution was played: a Mexican, doubles to name
    assert wdg.feedback.startswith("Solution: ") and "A Mexican!" in wdg.feedback
    assert wdg.hint_button.disabled and wdg.solution_button.disabled and not wdg.retry_button.disabled
    wdg.retry_button.click()
    assert wdg.stage == "answer" and wdg.game.phase == "play" and progress.stars("m8.1") == 1
    solve_by_clicks(wdg)
    assert progress.stars("m8.1") == 3  # the best attempt is kept


@pytest.mark.parametrize("ex_id", ["m3.3", "m8.2", "g1.2", "m5.1", "s1.3"])
def test_show_solution_for_questions(ex_id: str) -> None:
    wdg = ExerciseWidget(exercise(ex_id))
    wdg.solution_button.click()
    ans = wdg.answer_key
    assert wdg.stage == "done" and wdg.stars == 1 and ans.solution in wdg.feedback


def test_clicks_after_the_end_change_nothing() -> None:
    wdg = ExerciseWidget(exercise("s1.1"))
    solve_by_clicks(wdg)
    pos = wdg.game.position
    wdg.board.click("point", 6)
    assert wdg.game.position == pos and "finished" in wdg.board.message
    assert wdg.choice_buttons == []  # a play exercise has no answer buttons
    with pytest.raises(LessonError):
        wdg.answer(1)


def test_reprs_are_deterministic() -> None:
    wdg = ExerciseWidget(exercise("m3.1"))
    assert repr(wdg) == "<ExerciseWidget m3.1 (play): to do, best 0/3 stars>"
    course = lesson("M3")
    assert repr(course) == "<CourseWidget 1 stage, at M3 exercise 1; 0/12 stars>"


# -- the course runner -------------------------------------------------------------------------------
def test_course_navigation() -> None:
    course = CourseWidget([stage("M3"), stage("M4")])
    assert course.prev_button.disabled and course.stage.id == "M3"
    for _ in range(len(stage("M3"))):
        course.next()
    assert course.stage.id == "M4" and course.index == 0 and course.stage_menu.value == 1
    course.previous()
    assert course.stage.id == "M3" and course.index == len(stage("M3")) - 1
    course.goto("m4", 2)
    assert course.exercise.exercise.id == stage("M4").exercises[2].id
    course.stage_menu.value = 0
    assert course.stage.id == "M3" and course.index == 0
    for bad in ("M99", 5, -1, True):
        with pytest.raises(LessonError):
            course.goto(bad)
    with pytest.raises(LessonError):
        course.goto(0, 17)
    with pytest.raises(LessonError):
        CourseWidget([])


def test_one_exercise_widget_per_exercise_keeps_its_state() -> None:
    course = lesson(["G1", "G2"])
    first = course.exercise
    first.board.click("point", 1)  # a wrong landing point
    course.next()
    course.previous()
    assert course.exercise is first and first.wrong == 1


def test_progress_is_shared_and_exported() -> None:
    progress = Progress()
    course = lesson("M8", progress=progress)
    solve_by_clicks(course.exercise)
    data: dict[str, Any] = json.loads(course.export())
    assert data["results"]["m8.1"] == {"hints": 0, "shown": False, "stars": 3, "wrong": 0}
    assert data["stars"] == 3 and data["max_stars"] == 3 * len(stage("M8"))
    assert Progress.from_json(course.export()).to_json() == course.export()


def test_free_entry_goal_entering_is_legal_but_not_the_goal() -> None:
    wdg = ExerciseWidget(exercise("g4.1"))  # Mini-Gam: play 2-1 without entering
    for kind, value in step_clicks(wdg.game.position, Step(7, 5, 2)):
        wdg.board.click(kind, value)
    assert wdg.wrong == 1 and "bar/5 is legal, but after it no play moves only checkers on the board" in wdg.feedback
    solve_by_clicks(wdg)
    assert wdg.stars == 2 and wdg.game.position.bar[0] == 2


def test_the_show_next_step_key_does_not_answer_for_the_learner() -> None:
    wdg = ExerciseWidget(exercise("m4.1"))
    wdg.board.click("key", "next")
    assert wdg.board.selected is None and "press Hint" in wdg.board.message
    assert wdg.hints == 0 and wdg.wrong == 0
    wdg.board.click("point", 13)
    wdg.board.click("key", "play")  # Enter plays the selected checker's only step: allowed
    assert wdg.game.state.steps and wdg.feedback.startswith("Good: 13/12.")


@pytest.mark.parametrize("ex_id, value", [("m8.2", 7), ("m8.2", "x"), ("s1.3", None), ("m3.3", "yes"),
                                          ("g1.1", 0), ("g1.1", 7), ("g1.1", True), ("g1.1", "5")])
def test_an_answer_that_is_not_offered_is_refused_and_changes_nothing(ex_id: str, value: Any) -> None:
    wdg = ExerciseWidget(exercise(ex_id))
    with pytest.raises(LessonError, match=repr(value).replace("(", r"\(")):
        wdg.answer(value)
    assert wdg.wrong == 0 and wdg.stage == "answer" and wdg.feedback == ""


def test_a_reason_that_is_not_offered_is_refused() -> None:
    wdg = ExerciseWidget(exercise("m3.2"))
    for bad in (3, -1, "0", True):
        with pytest.raises(LessonError, match="no reason"):
            wdg.pick_reason(bad)  # type: ignore[arg-type]
    assert wdg.wrong == 0
    wdg.pick_reason(0)  # before the step is found: a nudge, not a wrong try
    assert wdg.feedback == "First answer the question." and wdg.wrong == 0


def test_an_exercise_widget_needs_an_exercise() -> None:
    with pytest.raises(LessonError, match="not 'm3.1'"):
        ExerciseWidget("m3.1")  # type: ignore[arg-type]


def test_progress_must_be_a_progress() -> None:
    for make in (lambda: ExerciseWidget(exercise("m3.1"), progress={}),  # type: ignore[arg-type]
                 lambda: CourseWidget([stage("M3")], progress="{}")):  # type: ignore[arg-type]
        with pytest.raises(LessonError, match="progress is a Progress"):
            make()


# -- the faults of issue 20 ----------------------------------------------------------------------------
def test_fault_minigam_land_click_on_the_checkers_own_point_says_whose_point() -> None:
    wdg = ExerciseWidget(exercise("g1.2"))  # Black's checker on its point 5 = White's point 2
    wdg.board.click("point", 2)
    assert wdg.feedback == ("Not Black's point 5 (White's point 2): the checker stands there. "
                            "Count 3 from it towards its exit.")
    assert "wrong way" not in wdg.feedback and wdg.wrong == 1
    wdg.board.click("point", 1)  # behind the checker, for Black
    assert wdg.feedback.startswith("Not Black's point 6 (White's point 1): it lies behind the checker, and "
                                   "Black moves towards Black's point 1")
    wdg.board.click("point", 5)
    assert wdg.feedback.startswith("Right: Black's point 2 (White's point 5). From Black's point 5 "
                                   "(White's point 2) a 3 goes to Black's point 2 (White's point 5).")


def test_fault_mexican_play_is_written_in_the_order_played() -> None:
    wdg = ExerciseWidget(exercise("m8.1"))
    for st in (Step(6, 5, 1), Step(13, 11, 2)):
        for kind, value in step_clicks(wdg.game.position, st):
            wdg.board.click(kind, value)
    assert wdg.feedback.startswith("Right: 6/5 13/11. A Mexican! White names any doubles to play.")
    shown = ExerciseWidget(exercise("m8.1"))
    shown.show_solution()
    assert shown.feedback.startswith("Solution: 24/23 24/22.")  # the 1 first, as played


def test_fault_m8_1_success_text_says_each_thing_once() -> None:
    wdg = ExerciseWidget(exercise("m8.1"))
    solve_by_clicks(wdg)
    assert wdg.feedback.count("names any doubles") == 1 and "Both were played" not in wdg.feedback


@pytest.mark.parametrize("ex_id", ["m3.3", "m6.3", "m9.2", "m.r1", "m1.3", "s1.2", "g3.2"])
def test_fault_show_solution_says_each_sentence_once(ex_id: str) -> None:
    import re

    wdg = ExerciseWidget(exercise(ex_id))
    wdg.show_solution()
    text = wdg.feedback.rstrip("\u2605\u2606 ")
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if len(s) > 12]
    assert len(sentences) == len(set(sentences)), text
    assert ".." not in text and text.startswith("Solution: ")


def test_fault_a_click_after_a_refusal_is_not_lost() -> None:
    wdg = ExerciseWidget(exercise("m11.1"))  # 2-1 with checkers on 2 and 1
    wdg.board.click("point", 2)  # refused: the checker on 2 cannot move now
    assert wdg.wrong == 1 and wdg.feedback.startswith("Not allowed: The checker on White's point 2 cannot move now.")
    wdg.board.click("point", 1)  # the learner now picks the checker on 1: selected at once
    assert wdg.board.selected == 1 and wdg.wrong == 1
    wdg.board.click("off", "white")
    assert wdg.feedback == "Good: 1/off. Dice left: 2."
    # a click where the refused checker was meant to go (an empty point) is the same try, not a new one
    other = ExerciseWidget(exercise("m11.1"))
    other.board.click("point", 2)
    other.board.click("off", "white")
    assert other.wrong == 1 and other.board.selected is None


def test_fault_minigam_hint_and_refusal_say_whose_point() -> None:
    wdg = ExerciseWidget(exercise("g1.3"))  # Black to play in Mini-Gam
    assert wdg.answer_key.hint == "Start with the checker on the bar: it can go to Black's point 4 (White's point 3)."
    wdg.board.click("bar", "black")
    wdg.board.click("point", 3)  # bar/4 with the 3: Black's point 4 is White's point 3
    assert wdg.feedback == "Good: bar/4. Dice left: 1."
    wdg.board.click("point", 2)  # the checker on Black's point 5 (White's point 2)
    wdg.board.click("point", 5)  # to Black's point 2 needs a 3: only the 1 is left, refused
    assert wdg.feedback.startswith("Not allowed: ") and wdg.wrong == 1


def test_fault_a_refused_bar_checker_is_named_and_its_rule_quoted_once() -> None:
    wdg = ExerciseWidget(exercise("g5.1"))
    wdg.board.click("bar", "white")
    assert wdg.feedback.startswith("Not allowed: The checker on the bar cannot move now. With the 3: ")
    assert "The bar cannot" not in wdg.feedback
    assert wdg.feedback.count("\u201cA made point is any point") == 1


def test_fault_interpretation_is_shown_with_the_goal_and_after() -> None:
    for ex_id in ("m10.4", "m4.1"):
        wdg = ExerciseWidget(exercise(ex_id))
        assert "An interpretation (rule M" in wdg.title.value
        solve_by_clicks(wdg)
        assert "An interpretation (rule M" in wdg.feedback
    assert "interpretation" not in ExerciseWidget(exercise("m3.1")).title.value


def test_fault_keep_or_reroll_is_the_learners_choice() -> None:
    wdg = ExerciseWidget(exercise("m2.4"))
    assert sorted(b.description for b in wdg.choice_buttons) == ["Keep the dice", "Roll both dice again"]
    assert wdg.board.options["dice"] is not None  # the opening dice are shown
    wrong = wdg.answer_key.choices.index("reroll")
    wdg.choice_buttons[wrong].click()
    assert wdg.wrong == 1 and "White rolls both dice again." in wdg.feedback
    wdg.choice_buttons[1 - wrong].click()
    assert wdg.stage == "done" and wdg.feedback.startswith("Right: Keep the dice: White keeps the opening dice 2-1.")


def test_fault_what_a_win_is_worth() -> None:
    wdg = ExerciseWidget(exercise("m11.4"))
    wdg.choice_buttons[wdg.answer_key.choices.index(3)].click()
    assert wdg.wrong == 1 and wdg.feedback.startswith("Not 3.")
    wdg.choice_buttons[wdg.answer_key.choices.index(1)].click()
    assert "wins 1 point" in wdg.feedback and wdg.stars == 2


def test_fault_exercise_message_is_as_wide_as_the_board() -> None:
    wdg = ExerciseWidget(exercise("m3.1"), size=440)
    assert wdg.feedback_box.layout.max_width == "440px" and wdg.title.layout.max_width == "440px"
    assert wdg.board.layout.width == "440px"


def _wrong_try(wdg: ExerciseWidget) -> None:
    """Make one wrong try, as a learner can: a step the rules refuse (or a numbering slip on entering,
    or a legal step away from the goal) on the board, or a wrong button."""
    from backgammon_lab.lessons.exercises import _target_ok

    ex, ans = wdg.exercise, wdg.answer_key
    if ex.kind == "land":
        wdg.board.click("point", next(p for p in range(1, wdg.game.variant.points + 1) if p not in ans.accepts))
        return
    if ex.kind != "play":
        wdg.choice_buttons[next(i for i, v in enumerate(ans.choices) if v not in ans.accepts)].click()
        return
    st = wdg.game.state
    pos = st.position
    n = pos.variant.points
    assert st.roll is not None
    tries = [Step(s, max(s - d, 0), d) for s in range(n + 1, 0, -1) if pos.count(pos.turn, s) for d in set(st.roll.dice)]
    tries += [Step(n + 1, d, 1) for d in set(st.roll.dice) if pos.count(pos.turn, n + 1)]  # entering on point d
    bad = [t for t in tries if not explain_step(pos, st.roll, [], (t.start, t.end)).legal]
    if not bad:  # a legal first step after which no play reaches the goal
        bad = [s for s in st.next_steps() if not any(
            _target_ok(ex.target, p, pos) for p in st.plays or () if p.steps[0] == s)]
    for kind, value in step_clicks(pos, bad[0]):
        wdg.board.click(kind, value)


def test_fault_a_learner_bot_can_go_wrong_once_in_every_exercise() -> None:
    course = CourseWidget()
    wrong = 0
    while True:
        wdg = course.exercise
        _wrong_try(wdg)
        assert wdg.wrong == 1 and wdg.stage == "answer", (wdg.exercise.id, wdg.feedback)
        assert wdg.feedback and "\u2718" in wdg.feedback_box.value, (wdg.exercise.id, wdg.feedback)  # said wrong
        wrong += wdg.wrong
        if wdg.exercise.kind == "play":  # the wrong try left the board as it was: nothing played
            assert wdg.game.position == wdg.game.state.turn_start and not wdg.game.state.steps
            # (a second click on a movable checker selects it, m11.1: the learner starts afresh)
            wdg.board.clear_selection()
        solve_by_clicks(wdg)
        assert wdg.stage == "done" and wdg.stars == 2, (wdg.exercise.id, wdg.feedback)
        if course.next_button.disabled:
            break
        course.next_button.click()
    assert wrong == len(EXERCISES)
    assert course.progress.total_stars() == 2 * len(EXERCISES)
