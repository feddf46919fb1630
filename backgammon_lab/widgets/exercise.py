"""The exercise widget and the course runner, built on the board widget through its public API.

:class:`ExerciseWidget` shows one :class:`~backgammon_lab.lessons.Exercise`: its goal, a board
and, for a question, the buttons to answer it. The learner clicks on the board (a checker, then
where it goes; a point; a step of a proposed play) or on an answer. A wrong try gets the engine's
explanation in plain words; a right one finishes the exercise (or, in a play of several steps,
moves on to the next step). **Hint** and **Show solution** help; the stars follow
:func:`backgammon_lab.lessons.stars_for` and are recorded in a
:class:`~backgammon_lab.lessons.Progress` kept in the kernel.

:class:`CourseWidget` strings exercises into stages: a stage menu, the current exercise,
**Previous**/**Next**, the stars so far and **Export progress** (JSON); given a progress file
(the whole course of :func:`backgammon_lab.lessons.notebook.course` keeps one in the learner's data
folder), it saves the stars after each exercise and finds them again when it opens.

Every control is a public attribute, so a test or a notebook cell can press it
(``ex.hint_button.click()``) and click the board (``ex.board.click("point", 13)``) as a learner
does.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import ipywidgets as w

from ..engine import MakeStep, Phase, Played, StepPlayed, advance, play_text
from ..errors import BackgammonError, whole_number
from ..lessons.catalog import ROW_TITLES, STAGES, Stage
from ..lessons.exercises import (
    Answer,
    Exercise,
    LessonError,
    _target_ok,
    build_game,
    point_name,
    proposal_steps,
    rule_note,
    sentence,
    solve,
    target_words,
)
from ..lessons.progress import MAX_STARS, Progress, stars_for
from ..lessons.review import RULE_COURSE_FILE, course_file, load_saved, save_progress
from ..lessons.rows import quote_rule
from ..position import OFF, WHITE, Roll, Step
from ..rules import legal_plays
from .board import BoardWidget

__all__ = ["AnswerControls", "ExerciseWidget", "CourseWidget", "star_text", "lesson"]

_KIND_PROMPT = {
    "play": "Play on the board: click a checker, then where it goes.",
    "spot": "Click the step that breaks a rule (on the board or below).",
    "lost": "Answer below.",
    "count": "Answer below.",
    "moves": "Answer below.",
    "name": "Name doubles below.",
    "bearoff": "Answer below.",
    "land": "Click the point on the board.",
    "choose": "Choose below.",
    "worth": "Answer below.",
}


def _lead(head: str, answer: str, reason: str) -> str:
    """``"Right: No. <reason>"``, said once when the reason starts with the answer itself
    (``"Right: No. After 4/1: ..."``, not ``"Right: No. No. After 4/1: ..."``)."""
    if reason.startswith(answer) and answer:
        return f"{head}: {reason}"
    return f"{sentence(f'{head}: {answer}')} {reason}".strip()


def star_text(stars: int, of: int = MAX_STARS) -> str:
    """Stars as text: ``"★★☆"``."""
    return "\u2605" * stars + "\u2606" * (of - stars)


class AnswerControls:
    """What an exercise shows under its board, shared by the rule exercises and the strategy
    questions: the Hint, Show solution and Try again buttons, the stars, and the feedback line
    with its mark. A widget using it defines :meth:`hint`, :meth:`show_solution` and :meth:`reset`."""

    hint_button: w.Button
    solution_button: w.Button
    retry_button: w.Button
    stars_label: w.Label
    feedback_box: w.HTML
    _feedback: str

    def hint(self) -> None:  # pragma: no cover - every widget using the controls defines it
        """Say a hint (the Hint button)."""
        raise NotImplementedError

    def show_solution(self) -> None:  # pragma: no cover
        """Show the answer (the Show solution button)."""
        raise NotImplementedError

    def reset(self) -> None:  # pragma: no cover
        """Start the exercise again (the Try again button)."""
        raise NotImplementedError

    def _make_controls(self, size: int) -> w.HBox:
        """The buttons (wired to :meth:`hint`, :meth:`show_solution`, :meth:`reset`) and the stars
        in a row; the feedback line (as wide as the board, ``size`` pixels) is :attr:`feedback_box`."""
        self.hint_button = w.Button(description="Hint", icon="lightbulb-o")
        self.solution_button = w.Button(description="Show solution", icon="eye")
        self.retry_button = w.Button(description="Try again", icon="refresh", disabled=True)
        self.hint_button.on_click(lambda _b: self.hint())
        self.solution_button.on_click(lambda _b: self.show_solution())
        self.retry_button.on_click(lambda _b: self.reset())
        self.feedback_box = w.HTML("", layout=w.Layout(max_width=f"{size}px"))
        self.feedback_box.add_class("bgl-exercise-feedback")
        self.stars_label = w.Label("")
        self.stars_label.add_class("bgl-exercise-stars")
        return w.HBox([self.hint_button, self.solution_button, self.retry_button, self.stars_label])

    @property
    def feedback(self) -> str:
        """The last feedback line, as plain text."""
        return self._feedback

    def _say(self, text: str, good: bool | None = None) -> None:
        self._feedback = text
        mark = {True: "\u2714 ", False: "\u2718 ", None: ""}[good]
        colour = {True: "#1b7f3b", False: "#b3261e", None: "inherit"}[good]
        self.feedback_box.value = f'<span style="color:{colour}">{html.escape(mark + text)}</span>'


class ExerciseWidget(AnswerControls, w.VBox):
    """One exercise to solve by clicks (see the module docstring).

    ``progress``: where the stars go (a new :class:`Progress` by default); ``size``: the board's
    width in pixels. ``on_done`` handlers are called with the widget when the exercise is finished.
    """

    def __init__(self, exercise: Exercise, *, progress: Progress | None = None, size: int = 440,
                 number: str = "") -> None:
        if not isinstance(exercise, Exercise):
            raise LessonError(f"an ExerciseWidget shows an Exercise, not {exercise!r}")
        if progress is not None and not isinstance(progress, Progress):
            raise LessonError(f"progress is a Progress, not {progress!r}")
        self.exercise = exercise
        self.answer_key: Answer = solve(exercise)
        self.progress = progress if progress is not None else Progress([exercise.id])
        self.progress.add_exercises([exercise.id])
        self._size = size
        self._done_handlers: list[Callable[[ExerciseWidget], None]] = []
        self.wrong = 0
        self.hints = 0
        self.shown = False
        self.solved = False
        #: ``"answer"``, then ``"reason"`` (a question with a why), then ``"done"``.
        self.stage = "answer"
        self._feedback = ""
        self._refused_at: int | None = None  # a checker just clicked that cannot move

        head = f"{number} " if number else ""
        note = (f"<br><i>{html.escape(exercise.note)}</i>" if exercise.note else "")
        self.title = w.HTML(f"<b>{html.escape(head + exercise.goal)}</b>{note}")
        self.title.add_class("bgl-exercise-goal")
        self.prompt = w.Label(_KIND_PROMPT[exercise.kind])
        self.board = self._make_board()
        self.choice_buttons: list[w.Button] = []
        self.reason_buttons: list[w.Button] = []
        self.choices = w.HBox([])
        self.choices.add_class("bgl-exercise-choices")
        self.reasons = w.VBox([])
        self.reasons.add_class("bgl-exercise-reasons")
        controls = self._make_controls(size)
        # the goal, the board and the message are as wide as the board, not the whole output
        self.title.layout.max_width = f"{size}px"
        self.board.layout.width = f"{size}px"
        self._build_choices()
        super().__init__([self.title, self.prompt, self.board, self.choices, self.reasons, controls,
                          self.feedback_box])
        self.add_class("bgl-exercise")
        self._show_stars()

    # -- what the learner sees -----------------------------------------------------------------

    @property
    def stars(self) -> int:
        """Stars of this attempt (0 until finished)."""
        return stars_for(self.wrong, self.hints, self.shown) if self.stage == "done" else 0

    def _show_stars(self) -> None:
        best = self.progress.stars(self.exercise.id)
        self.stars_label.value = f"{star_text(best)} ({best} of {MAX_STARS})"

    def on_done(self, handler: Callable[[ExerciseWidget], None]) -> None:
        """Call ``handler(widget)`` when the exercise is finished."""
        self._done_handlers.append(handler)

    # -- set-up --------------------------------------------------------------------------------
    def _make_board(self) -> BoardWidget:
        ex = self.exercise
        if ex.kind == "play":
            self.game = build_game(ex)
            self._start_index = self.game.index
            board = BoardWidget(game=self.game, size=self._size)
            board.on_click(self._play_click)
            board.on_move(self._after_step)
            return board
        self.game = build_game(ex, roll=ex.kind not in ("lost", "choose"))
        st = self.game.state
        pos = st.position
        opts: dict[str, Any] = {"size": self._size}
        if ex.kind == "lost" and ex.dice is not None:
            opts["dice"] = Roll.parse(ex.dice)
        elif ex.kind == "choose" and st.roll is not None:
            opts["dice"] = st.roll
        elif st.roll is not None and ex.kind != "name":
            opts["dice"] = st.roll
        elif ex.kind == "name" and st.roll is not None:
            opts["dice"] = st.roll
        if ex.kind == "spot":
            steps = proposal_steps(ex, pos)
            opts["arrows"] = [(a, b) for _, a, b in steps]
            opts["caption"] = f"Proposed: {ex.proposal}"
        if ex.kind == "land":
            opts["highlight"] = [ex.start] if ex.start <= pos.variant.points else []
        board = BoardWidget(pos, **opts)
        board.on_click(self._question_click)
        return board

    def _button(self, label: str, handler: Callable[[], None]) -> w.Button:
        b = w.Button(description=label, layout=w.Layout(width="auto"))
        b.on_click(lambda _b: handler())
        return b

    def _build_choices(self) -> None:
        ans = self.answer_key
        self.choice_buttons = []
        if ans.choices:
            self.choice_buttons = [self._button(label, partial(self.answer, value))
                                   for value, label in zip(ans.choices, ans.labels, strict=True)]
        self.choices.children = tuple(self.choice_buttons)
        self.reason_buttons = [self._button(r, partial(self.pick_reason, i)) for i, r in enumerate(ans.reasons)]
        self.reasons.children = ()

    # -- play exercises: the board's clicks ------------------------------------------------------
    def _mover_target(self, click: dict[str, Any]) -> int | None:
        pos = self.game.position
        v = pos.variant
        kind, value = click["kind"], click["value"]
        if kind == "point":
            return v.renumber(value, pos.turn)
        if kind == "bar":
            return v.bar if value == pos.turn else None
        if kind == "off":
            return OFF if value == pos.turn else None
        return None

    def _play_click(self, click: dict[str, Any]) -> bool:
        """Before the board plays a click: finished exercises take no clicks; a destination the
        rules refuse is a wrong try, explained by the engine."""
        if self.stage == "done":
            self.board.message = "This exercise is finished: press Try again to play it once more."
            return True
        game = self.game
        if game.phase is not Phase.PLAY:
            return False
        if click["kind"] == "key" and click["value"] == "next":
            # the board's "show the next legal step" key would answer for the learner
            self.board.message = "In an exercise the board shows no legal steps: press Hint for help."
            return True
        sel = self.board.selected
        target = self._mover_target(click)
        steps = game.state.next_steps()
        refused, self._refused_at = self._refused_at, None
        movable = target is not None and any(s.start == target for s in steps)
        if refused is not None and target is not None and sel is None and not movable and \
                (refused - target in game.state.dice_left or target == 0):
            return True  # where the refused checker was meant to go: the same try, already explained
        if sel is None and target is not None and 0 < target and not any(s.start == target for s in steps) \
                and game.position.count(game.position.turn, target):
            return self._refused_checker(target)
        if sel is None or target is None or target == sel:
            return False
        if any(s.start == sel and s.end == target for s in steps):
            return False  # legal: the board plays it, then _after_step judges the goal
        st = game.state
        dist = sel - target
        meant = dist in set(st.dice_left) or (dist > 0 and dist == sum(st.dice_left[:2]))
        own = target != 0 and game.position.count(game.position.turn, target) > 0
        if own and not meant:  # another checker of the mover, not a die's distance away
            if any(s.start == target for s in steps):
                return False  # the board selects it
            self.board.clear_selection()
            return self._refused_checker(target)
        try:
            why = st.explain((sel, target))
            text = rule_note(why)
        except BackgammonError as e:  # pragma: no cover - the board only reports points that exist
            text = str(e)
        self.wrong += 1
        self.board.clear_selection()
        self.board.message = why.message
        self._say(f"Not allowed: {text}", False)
        return True

    def _refused_checker(self, start: int) -> bool:
        """A click on one of the mover's checkers that has no legal step: a wrong try, with the
        engine's reason for the first die that cannot move it."""
        st = self.game.state
        parts: list[str] = []
        messages: list[str] = []
        rules: list[str] = []  # each rule quoted once, after the reasons
        dice = list(dict.fromkeys(st.dice_left))
        for die in dice:
            why = st.explain(Step(start, max(start - die, 0), die))
            if not why.legal and why.message not in messages:
                messages.append(why.message)
                parts.append((f"With the {die}: " if len(dice) > 1 else "") + why.message)
                if why.rule is not None and why.rule.id != "Standard" and quote_rule(why.rule) not in rules:
                    rules.append(quote_rule(why.rule))
        if not parts:  # pragma: no cover - a checker with no legal step has a refused die
            return False
        text = " ".join(parts) + "".join(f" ({r})" for r in rules)
        message = " ".join(messages)
        self.wrong += 1
        self._refused_at = start
        self.board.clear_selection()
        self.board.message = message
        if start == st.variant.bar:
            k = st.position.count(st.position.turn, start)
            name = "The checker on the bar" if k == 1 else f"None of the {k} checkers on the bar"
        else:
            name = f"The checker on {point_name(st.position, start)}"
        self._say(f"Not allowed: {name} {'cannot' if not name.startswith('None') else 'can'} move now. {text}",
                  False)
        return True

    def _after_step(self) -> None:
        game = self.game
        ex = self.exercise
        start = game.states[self._start_index].position
        n = start.variant.points
        last = game.entries[-1]
        played = next((e for e in last.events if isinstance(e, Played)), None)
        if played is not None:
            if _target_ok(ex.target, played.play, start):
                self._finish(f"Right: {play_text(played.play, played.roll)}. " + self._after_words(last.events))
                return
            self._wrong_play(f"{play_text(played.play, played.roll)} is legal, but it is not a play that "
                             f"{target_words(ex.target)}.")
            return
        reach = game.state.completions()
        if ex.target in ("only", "any") or any(_target_ok(ex.target, p, start) for p in reach):
            step = game.state.steps[-1]
            left = ", ".join(map(str, game.dice_left))
            self._say(f"Good: {step.text(n)}. Dice left: {left}.", True)
            return
        step = game.state.steps[-1]
        self._wrong_play(f"{step.text(n)} is legal, but after it no play {target_words(ex.target)}.")

    def _after_words(self, events: Sequence[Any]) -> str:
        texts = [e.text for e in events if not isinstance(e, (Played, StepPlayed))]
        return " ".join(texts)

    def _wrong_play(self, text: str) -> None:
        self.wrong += 1
        self.game.goto(self._start_index)
        self.board.clear_selection()
        self.board.redraw()
        self._say(f"{text} Try again from the start.", False)

    # -- question exercises --------------------------------------------------------------------
    def _question_click(self, click: dict[str, Any]) -> bool:
        ex = self.exercise
        if self.stage == "done":
            self.board.message = "This exercise is finished."
            return True
        pos = self.game.position
        kind, value = click["kind"], click["value"]
        if ex.kind == "land" and kind in ("point", "off", "bar"):
            if kind != "point":
                self.answer(-1)
            else:
                self.answer(value)
            return True
        if ex.kind == "spot" and self.stage == "answer" and kind in ("point", "bar"):
            start = pos.variant.bar if kind == "bar" else pos.variant.renumber(value, pos.turn)
            hits = [i for i, (_t, a, _b) in enumerate(proposal_steps(ex, pos)) if a == start]
            if len(hits) == 1:
                self.answer(hits[0])
            elif hits:
                self.board.message = "Several steps start there: pick one with the buttons below."
            else:
                self.board.message = "No step of the proposed play starts there."
            return True
        self.board.message = _KIND_PROMPT[ex.kind]
        return True

    def answer(self, value: Any) -> None:
        """Give an answer (what a choice button or a click on the board does)."""
        ex = self.exercise
        ans = self.answer_key
        if ex.kind == "play":
            raise LessonError(f"exercise {ex.id!r} is a play: it is answered by clicks on the board, not {value!r}")
        if ans.choices and value not in ans.choices:
            raise LessonError(f"exercise {ex.id!r}: {value!r} is not one of the answers "
                              f"({', '.join(map(repr, ans.choices))})")
        n = self.game.variant.points
        if ex.kind == "land":
            try:
                point = whole_number(value, "", -1, n, LessonError)
            except LessonError:
                point = 0
            if point == 0:
                raise LessonError(f"exercise {ex.id!r}: {value!r} is not a point of the {n}-point board")
            value = point
        if self.stage != "answer":
            self._say("Already answered." if self.stage == "done" else "Now say why: pick a reason below.")
            return
        if value in ans.accepts:
            if ans.reasons:
                self.stage = "reason"
                self.reasons.children = tuple(self.reason_buttons)
                first = "Right." if ex.kind != "spot" else f"Right: {ans.labels[value]} is the step."
                self._say(f"{first} Now, why? Pick the reason.", True)
                return
            self._finish(_lead("Right", self._answer_words(value), ans.reason))
            return
        self.wrong += 1
        self._say(self._wrong_words(value), False)

    def _answer_words(self, value: Any) -> str:
        ans = self.answer_key
        if self.exercise.kind == "land":
            pos = self.game.position
            return point_name(pos, pos.variant.renumber(value, pos.turn))
        if self.exercise.kind == "name":
            return f"{value}-{value}"
        if ans.choices and value in ans.choices:
            return ans.labels[ans.choices.index(value)]
        return str(value)

    def _wrong_words(self, value: Any) -> str:
        ex = self.exercise
        ans = self.answer_key
        st = self.game.state
        pos = st.position
        if ex.kind == "land":
            if value == -1:
                return "Click a point of the board."
            assert st.roll is not None
            there = pos.variant.renumber(value, pos.turn)
            name = point_name(pos, there)
            if there == ex.start:
                return f"Not {name}: the checker stands there. Count {ex.die} from it towards its exit."
            assert st.plays is not None
            why = st.plays.explain(Step(ex.start, there, ex.die))
            if why.code == "backwards" and why.rule is not None:  # the engine's words name no numbering
                who = "White" if pos.turn == WHITE else "Black"
                return (f"Not {name}: it lies behind the checker, and {who} moves towards {who}'s point 1 "
                        f"({quote_rule(why.rule)})")
            return f"Not {name}: {rule_note(why)}" if not why.legal else \
                f"Not {name}: the checker on {point_name(pos, ex.start)} reaches it, but not with the {ex.die}."
        if ex.kind == "spot":
            text = ans.labels[value]
            return f"{text} is legal at that moment. Replay the steps in order and look again."
        if ex.kind == "name":
            k = legal_plays(pos, (value, value)).length
            return f"Not {value}-{value}: only {k} of the four {value}s could be played."
        if ex.kind in ("lost", "bearoff", "choose"):
            return f"Not quite. {ans.reason}"
        if ex.kind == "worth":
            return f"Not {value}. Which finishes score more than one point in {self.game.variant.title}?"
        return f"Not {self._answer_words(value)}. Count again."

    def pick_reason(self, index: int) -> None:
        """Pick reason ``index`` (what a reason button does)."""
        ans = self.answer_key
        try:
            index = whole_number(index, "reason", 0, len(ans.reasons) - 1, LessonError)
        except LessonError:
            raise LessonError(f"exercise {self.exercise.id!r}: no reason {index!r} to pick "
                              f"({len(ans.reasons)} reasons)") from None
        if self.stage != "reason":
            self._say("First answer the question." if self.stage == "answer" else "Already answered.")
            return
        if index == ans.reason_index:
            self._finish(f"Right. {ans.reason}")
            return
        self.wrong += 1
        self._say(f"Not that reason: \u201c{ans.reasons[index]}\u201d does not explain it here. Try another.", False)

    # -- help ----------------------------------------------------------------------------------
    def hint(self) -> None:
        """Show a hint (it costs the third star)."""
        if self.stage == "done":
            return
        self.hints += 1
        ans = self.answer_key
        ex = self.exercise
        if ex.kind == "play" and self.game.phase is Phase.PLAY:
            step = self._good_next_step()
            n = self.game.variant.points
            if step is not None:
                self.board.set_options(highlight=[step.start] if step.start <= n else [])
                where = point_name(self.game.position, step.start)
                self._say(f"Hint: move the checker on {where} next.")
                return
        self._say(f"Hint: {ans.hint}")

    def _good_next_step(self) -> Step | None:
        """A step that continues a play reaching the goal, from the steps clicked so far."""
        st = self.game.state
        start = self.game.states[self._start_index].position
        for step in st.next_steps():
            new, events = advance(st, MakeStep(step))
            played = next((e for e in events if isinstance(e, Played)), None)
            if played is not None:
                if _target_ok(self.exercise.target, played.play, start):
                    return step
            elif any(_target_ok(self.exercise.target, p, start) for p in new.completions()):
                return step
        return None

    def show_solution(self) -> None:
        """Show the answer (the exercise then earns one star)."""
        if self.stage == "done":
            return
        ans = self.answer_key
        ex = self.exercise
        self.shown = True
        if ex.kind == "play":
            self.game.goto(self._start_index)
            self.game.play(ans.plays[0])
            self.board.set_options(highlight=None)
            self.board.clear_selection()
            self.board.redraw()
            events = self.game.entries[-1].events
            played = next(e for e in events if isinstance(e, Played))
            self._finish(f"Solution: {play_text(played.play, played.roll)}. {self._after_words(events)}")
            return
        extra = f" {ans.reason}" if ans.reason and ans.reason not in ans.solution else ""
        why = f" Why: {ans.reasons[ans.reason_index]}" if ans.reasons and \
            ans.reasons[ans.reason_index] not in ans.reason else ""
        if ex.kind == "land":
            (step,) = ans.steps
            self.board.set_options(arrows=[(step.start, step.end)])
        self._finish(_lead("Solution", ans.solution, f"{why}{extra}".strip()))

    def _finish(self, text: str) -> None:
        self.stage = "done"
        self.solved = True
        stars = stars_for(self.wrong, self.hints, self.shown)
        self.progress.record(self.exercise.id, wrong=self.wrong, hints=self.hints, shown=self.shown)
        text = sentence(text)
        said = [t for t in (self.exercise.text, self.exercise.note) if t and t not in text]
        lesson = "".join(f" {sentence(t)}" for t in said)
        self._say(f"{text}{lesson} {star_text(stars)}", True if not self.shown else None)
        self.retry_button.disabled = False
        self.hint_button.disabled = True
        self.solution_button.disabled = True
        self.reasons.children = ()
        self._show_stars()
        for handler in list(self._done_handlers):
            handler(self)

    def reset(self) -> None:
        """Start the exercise again (the best stars so far are kept in the progress)."""
        self.wrong = self.hints = 0
        self.shown = self.solved = False
        self.stage = "answer"
        if self.exercise.kind == "play":
            self.game.goto(self._start_index)
            self.board.set_options(highlight=None)
            self.board.clear_selection()
            self.board.redraw()
        elif self.exercise.kind == "land":
            self.board.set_options(arrows=None)
        self.board.message = ""
        self.reasons.children = ()
        self.retry_button.disabled = True
        self.hint_button.disabled = False
        self.solution_button.disabled = False
        self._say("")
        self._show_stars()

    def __repr__(self) -> str:
        state = {"answer": "to do", "reason": "why?", "done": "done"}[self.stage]
        return (f"<ExerciseWidget {self.exercise.id} ({self.exercise.kind}): {state}, "
                f"best {self.progress.stars(self.exercise.id)}/{MAX_STARS} stars>")


class CourseWidget(w.VBox):
    """Exercises strung into stages: pick a stage, solve its exercises one after the other.

    ``stages``: :class:`~backgammon_lab.lessons.Stage` values (default: the whole course);
    ``progress``: shared by every exercise (a new one by default). ``progress_file``: where the
    course keeps the stars by itself, saved after each exercise and read when it opens: a path,
    ``None`` (``rule_course.json`` in the learner's data folder,
    :func:`~backgammon_lab.lessons.review.data_dir`) or ``False`` (the default: nowhere, the stars
    live in the kernel).
    """

    def __init__(self, stages: Iterable[Stage] | None = None, *, progress: Progress | None = None,
                 size: int = 440, title: str = "", progress_file: str | os.PathLike[str] | None | bool = False
                 ) -> None:
        self.stages: tuple[Stage, ...] = tuple(STAGES if stages is None else stages)
        if not self.stages or not all(isinstance(s, Stage) for s in self.stages):
            raise LessonError(f"a course is a non-empty list of stages, not {stages!r}")
        if progress is not None and not isinstance(progress, Progress):
            raise LessonError(f"progress is a Progress, not {progress!r}")
        ids = [e.id for s in self.stages for e in s.exercises]
        self.progress = progress if progress is not None else Progress(ids)
        self.progress.add_exercises(ids)
        self.progress_file = course_file(progress_file, RULE_COURSE_FILE)
        self.file_status = w.Label("")
        self.file_status.add_class("bgl-course-file-status")
        self._restore()
        self._size = size
        self._widgets: dict[str, ExerciseWidget] = {}
        self.stage_index = 0
        self.index = 0
        self.heading = w.HTML(f"<b>{html.escape(title)}</b>" if title else "")
        self.stage_menu = w.Dropdown(options=[(self._stage_label(s), i) for i, s in enumerate(self.stages)],
                                     value=0, description="Stage", layout=w.Layout(width="auto"))
        self.stage_menu.observe(lambda ch: self.goto(ch["new"], 0), names="value")
        self.prev_button = w.Button(description="Previous", icon="arrow-left")
        self.next_button = w.Button(description="Next", icon="arrow-right")
        self.prev_button.on_click(lambda _b: self.previous())
        self.next_button.on_click(lambda _b: self.next())
        self.status = w.Label("")
        self.status.add_class("bgl-course-status")
        self.export_button = w.Button(description="Export progress", icon="download")
        self.export_box = w.Textarea(value="", layout=w.Layout(width="100%", height="6em", display="none"))
        self.export_button.on_click(lambda _b: self.export())
        self.body = w.VBox([])
        super().__init__([self.heading, self.stage_menu, w.HBox([self.prev_button, self.next_button, self.status]),
                          self.body, w.HBox([self.export_button]), self.export_box]
                         + ([self.file_status] if self.progress_file is not None else []))
        self.add_class("bgl-course")
        self.goto(0, 0)

    @staticmethod
    def _stage_label(s: Stage) -> str:
        if s.id in ROW_TITLES:  # a rule row: its name (M4) is the learner's, from the notebooks' headings
            return f"{s.id}: {ROW_TITLES[s.id]} ({len(s)})"
        return f"{s.title} ({len(s)})"

    @property
    def stage(self) -> Stage:
        """The stage shown."""
        return self.stages[self.stage_index]

    @property
    def exercise(self) -> ExerciseWidget:
        """The exercise shown."""
        return self._widget(self.stage_index, self.index)

    def _widget(self, si: int, i: int) -> ExerciseWidget:
        ex = self.stages[si].exercises[i]
        if ex.id not in self._widgets:
            number = f"{i + 1}."  # its place in the stage (no exercise id: a learner reads it)
            wdg = ExerciseWidget(ex, progress=self.progress, size=self._size, number=number)
            wdg.on_done(lambda _w: self._finished())
            self._widgets[ex.id] = wdg
        return self._widgets[ex.id]

    def goto(self, stage: int | str, index: int = 0) -> None:
        """Show exercise ``index`` of a stage (by position or id, e.g. ``"M4"``)."""
        if isinstance(stage, str):
            ids = [s.id.lower() for s in self.stages]
            if stage.lower() not in ids:
                raise LessonError(f"no stage {stage!r} in this course; stages: {', '.join(s.id for s in self.stages)}")
            stage = ids.index(stage.lower())
        try:
            stage = whole_number(stage, "stage", 0, len(self.stages) - 1, LessonError)
        except LessonError:
            raise LessonError(f"no stage {stage!r}: the course has {len(self.stages)}") from None
        n = len(self.stages[stage].exercises)
        try:
            index = whole_number(index, "index", 0, n - 1, LessonError)
        except LessonError:
            raise LessonError(f"no exercise {index!r} in stage {self.stages[stage].id} (0..{n - 1})") from None
        self.stage_index, self.index = stage, index
        if self.stage_menu.value != stage:
            self.stage_menu.value = stage  # calls goto(stage, 0) again: harmless
            self.stage_index, self.index = stage, index
        self.body.children = (self.exercise,)
        self._update()

    def next(self) -> None:
        """The next exercise (the first of the next stage after a stage's last)."""
        if self.index + 1 < len(self.stage.exercises):
            self.goto(self.stage_index, self.index + 1)
        elif self.stage_index + 1 < len(self.stages):
            self.goto(self.stage_index + 1, 0)

    def previous(self) -> None:
        """The previous exercise."""
        if self.index > 0:
            self.goto(self.stage_index, self.index - 1)
        elif self.stage_index > 0:
            self.goto(self.stage_index - 1, len(self.stages[self.stage_index - 1].exercises) - 1)

    def stage_stars(self, stage: int | None = None) -> tuple[int, int]:
        """Stars won and to win in a stage (default: the one shown)."""
        s = self.stages[self.stage_index if stage is None else stage]
        ids = [e.id for e in s.exercises]
        return self.progress.total_stars(ids), self.progress.max_stars(ids)

    def _update(self) -> None:
        got, of = self.stage_stars()
        total, total_of = self.progress.total_stars(), self.progress.max_stars()
        where = f"Stage {self.stage.id}" if self.stage.id in ROW_TITLES else "Mixed review"
        self.status.value = (f"{where}, exercise {self.index + 1} of {len(self.stage)}; "
                             f"stars: {got}/{of} in this stage, {total}/{total_of} in all")
        last = self.stage_index == len(self.stages) - 1 and self.index == len(self.stage) - 1
        self.next_button.disabled = last
        self.prev_button.disabled = self.stage_index == 0 and self.index == 0
        self.next_button.button_style = "success" if self.exercise.solved and not last else ""

    def _finished(self) -> None:
        if self.progress_file is not None:
            try:
                if self.progress_file.exists():  # another course may have saved there since
                    self._take(load_saved(self.progress_file)[0])
                save_progress(self.progress_file, self.progress)
            except LessonError as e:
                self.file_status.value = f"Your progress could not be saved by itself: {e}"
        self._update()

    def _take(self, saved: Progress) -> None:
        for i in saved.exercise_ids:
            att = saved.attempt(i)
            if att is not None:
                self.progress.record(i, wrong=att.wrong, hints=att.hints, shown=att.shown)
        for wdg in getattr(self, "_widgets", {}).values():  # none yet while the course opens
            wdg._show_stars()

    def _restore(self) -> None:
        f = self.progress_file
        if f is None:
            return
        if not f.exists():
            self.file_status.value = f"Your progress is saved by itself in {f}."
            return
        try:
            saved = load_saved(f)[0]
        except LessonError as e:
            self.progress_file = None  # not written over: the learner may mend it
            self.file_status.value = f"Your saved progress could not be read, so this course starts afresh: {e}"
            return
        self._take(saved)
        n, k = self.progress.done(), self.progress.total_stars()
        self.file_status.value = (f"Welcome back: {n} exercise{'s' if n != 1 else ''} done, "
                                  f"{k} star{'s' if k != 1 else ''} (saved by itself in {f}).")

    def export(self) -> str:
        """The progress as JSON (also shown in the text box under the course)."""
        text = self.progress.to_json()
        self.export_box.value = text
        self.export_box.layout.display = ""
        return text

    def __repr__(self) -> str:
        k = len(self.stages)
        return (f"<CourseWidget {k} stage{'s' if k != 1 else ''}, at {self.stage.id} exercise {self.index + 1}; "
                f"{self.progress.total_stars()}/{self.progress.max_stars()} stars>")


def lesson(rows: str | Iterable[str], *, progress: Progress | None = None, size: int = 440) -> CourseWidget:
    """A course of the stages of some rule rows (``"M4"``, or ``["G3", "G4"]``)."""
    from ..lessons.catalog import stage

    ids = [rows] if isinstance(rows, str) else list(rows)
    return CourseWidget([stage(i) for i in ids], progress=progress, size=size)

