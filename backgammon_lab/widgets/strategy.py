"""The strategy course in a notebook: drills and puzzles answered by buttons, a review queue and
progress saved to a file.

:class:`QuestionWidget` shows one drill or puzzle (:mod:`backgammon_lab.analysis.strategy`): the
goal, the board (a puzzle draws the play picked as arrows) and a button per answer. A wrong try
says what went wrong without giving the answer away; the right answer gets the engine's words
(for a puzzle: what the better play does, computed from the positions, and the values of every
choice; for one of the learner's own mistakes, what went wrong in the game). **Hint**, **Show
solution** and **Try again** work as in the rule course, and the stars
(:func:`backgammon_lab.lessons.stars_for`) go to a :class:`~backgammon_lab.lessons.Progress`.

:class:`StrategyCourse` strings the themes into stages, adds **My mistakes** (the learner's own
mistakes, :func:`backgammon_lab.lessons.mistakes`, given to :meth:`StrategyCourse.add_mistakes`)
and **Review my mistakes** (what the :class:`~backgammon_lab.lessons.review.ReviewQueue` says is
due). It keeps the progress, the queue and the mistakes by itself in a file (by default in the
learner's data folder, :func:`~backgammon_lab.lessons.review.data_dir`), saved after each answer and
read again when a course opens; **Save** and **Load** copy them to and from a second file.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

import ipywidgets as w

from ..analysis.strategy import Drill, Puzzle, Question, StrategyError, Theme, question, themes, what_it_does
from ..errors import whole_number
from ..lessons.exercises import LessonError, sentence
from ..lessons.games import MISTAKES_THEME, Mistake, mistakes_from_json, mistakes_to_json
from ..lessons.progress import MAX_STARS, Progress, stars_for
from ..lessons.review import COURSE_FILE, ReviewQueue, course_file, load_saved, save_progress
from ..rules import legal_plays
from .board import BoardWidget
from .exercise import AnswerControls, star_text

__all__ = ["QuestionWidget", "StrategyCourse", "strategy_course"]

Item = Drill | Puzzle


class QuestionWidget(AnswerControls, w.VBox):
    """One drill or puzzle to answer with the buttons (see the module docstring)."""

    def __init__(self, item: Item, *, progress: Progress | None = None, size: int = 440, number: str = "") -> None:
        if not isinstance(item, (Drill, Puzzle)):
            raise StrategyError(f"a QuestionWidget shows a Drill or a Puzzle, not {item!r}")
        if progress is not None and not isinstance(progress, Progress):
            raise LessonError(f"progress is a Progress, not {progress!r}")
        self.item = item
        self.question: Question = question(item)
        self.reason = item.words if isinstance(item, Mistake) else self.question.reason
        self.progress = progress if progress is not None else Progress([item.id])
        self.progress.add_exercises([item.id])
        self._done_handlers: list[Callable[[QuestionWidget], None]] = []
        self.wrong = self.hints = self.clicks = 0
        self.shown = self.solved = False
        self._feedback = ""
        q = self.question
        head = f"{number} " if number else ""
        self.title = w.HTML(f"<b>{html.escape(head + q.goal)}</b>")
        opts: dict[str, Any] = {"size": size}
        if q.dice is not None:
            opts["dice"] = q.dice
        if q.highlight:
            opts["highlight"] = list(q.highlight)
        self.board = BoardWidget(q.position, **opts)
        self.board.on_click(self._board_click)
        self.board.layout.width = f"{size}px"
        self.choice_buttons = [self._button(label, partial(self.answer, value))
                               for value, label in zip(q.choices, q.labels, strict=True)]
        self.choices = w.HBox(self.choice_buttons, layout=w.Layout(flex_flow="row wrap", max_width=f"{size}px"))
        controls = self._make_controls(size)
        self.title.layout.max_width = f"{size}px"
        super().__init__([self.title, self.board, self.choices, controls, self.feedback_box])
        self.title.add_class("bgl-exercise-goal")
        self.choices.add_class("bgl-exercise-choices")
        self.add_class("bgl-exercise")
        self._show_stars()

    def _button(self, label: str, handler: Callable[[], None]) -> w.Button:
        b = w.Button(description=label, layout=w.Layout(width="auto"))
        b.on_click(lambda _b: handler())
        return b

    # -- what the learner sees -----------------------------------------------------------------
    @property
    def par(self) -> int:
        """The fewest answer clicks that solve the question (:attr:`Question.par
        <backgammon_lab.analysis.strategy.Question.par>`)."""
        return self.question.par

    @property
    def stars(self) -> int:
        """Stars of this attempt (0 until finished)."""
        return stars_for(self.wrong, self.hints, self.shown) if self.solved else 0

    def _show_stars(self) -> None:
        best = self.progress.stars(self.item.id)
        self.stars_label.value = f"{star_text(best)} {best} of {MAX_STARS} · clicks {self.clicks}, par {self.par}"

    def on_done(self, handler: Callable[[QuestionWidget], None]) -> None:
        """Call ``handler(widget)`` when the question is finished."""
        self._done_handlers.append(handler)

    def _board_click(self, click: dict[str, Any]) -> bool:
        self.board.message = "Answer with the buttons under the board."
        return True

    def _draw(self, value: Any) -> None:
        q = self.question
        if q.arrows:
            self.board.set_options(arrows=list(q.arrows[q.choices.index(value)]))

    # -- answers -------------------------------------------------------------------------------
    def answer(self, value: Any) -> None:
        """Give an answer (what a button does)."""
        q = self.question
        if value not in q.choices:
            raise StrategyError(f"{self.item.id!r}: {value!r} is not one of the answers "
                                f"({', '.join(map(repr, q.choices))})")
        if self.solved:
            self._say("Already answered: press Try again to answer once more.")
            return
        self.clicks += 1
        self._draw(value)
        if value in q.accepts:
            self._finish(f"Right: {q.labels[q.choices.index(value)]}. {self.reason}")
            return
        self.wrong += 1
        self._say(self._wrong_words(value), False)
        self._show_stars()

    def _wrong_words(self, value: Any) -> str:
        q = self.question
        label = q.labels[q.choices.index(value)]
        item = self.item
        if isinstance(item, Puzzle) and item.kind == "play" and q.dice is not None:
            plays = legal_plays(q.position, q.dice.dice)
            picked, best = plays.find(str(value)), plays.find(item.answer)
            does = what_it_does(q.position, picked.position, best.position)
            gain = f"It {', '.join(does)}, but another play is worth more." if does else \
                "Another play is worth more."
            made = " That is the play made in the game." if isinstance(item, Mistake) and value == item.played else ""
            return f"Not the better play: {label}.{made} {gain} Try again."
        if isinstance(item, Puzzle):
            return f"Not the engine's choice: {label}. Try again."
        return f"Not {label}. Count again."

    def hint(self) -> None:
        """Show a hint (it costs the third star)."""
        if self.solved:
            return
        self.hints += 1
        self._say(f"Hint: {self.question.hint}")

    def show_solution(self) -> None:
        """Show the answer (the question then earns one star)."""
        if self.solved:
            return
        q = self.question
        self.shown = True
        (value,) = sorted(q.accepts, key=str)[:1]
        self._draw(value)
        self._finish(f"Solution: {q.solution}. {self.reason}")

    def _finish(self, text: str) -> None:
        self.solved = True
        stars = stars_for(self.wrong, self.hints, self.shown)
        self.progress.record(self.item.id, wrong=self.wrong, hints=self.hints, shown=self.shown)
        par = "" if self.shown else (f" Clicks: {self.clicks}, par {self.par}"
                                      + (": at par." if self.clicks <= self.par else "."))
        self._say(f"{sentence(text)}{par} {star_text(stars)}", None if self.shown else True)
        self.retry_button.disabled = False
        self.hint_button.disabled = self.solution_button.disabled = True
        self._show_stars()
        for handler in list(self._done_handlers):
            handler(self)

    def reset(self) -> None:
        """Answer again (the best stars so far are kept)."""
        self.wrong = self.hints = self.clicks = 0
        self.shown = self.solved = False
        self.board.set_options(arrows=None)
        self.board.message = ""
        self.retry_button.disabled = True
        self.hint_button.disabled = self.solution_button.disabled = False
        self._say("")
        self._show_stars()

    def __repr__(self) -> str:
        return (f"<QuestionWidget {self.item.id}: {'done' if self.solved else 'to do'}, "
                f"best {self.progress.stars(self.item.id)}/{MAX_STARS} stars>")


REVIEW = "review"
#: The stage of the learner's own mistakes.
MINE = MISTAKES_THEME
#: The mark of a locked stage in the menu.
LOCK = "\U0001f512"


class StrategyCourse(w.VBox):
    """The strategy course: a stage menu (the themes, then **My mistakes** and **Review my
    mistakes**), the question shown, **Previous**/**Next**, the stars, and **Save**/**Load** of the
    progress to a second file.

    ``stages``: :class:`~backgammon_lab.analysis.strategy.Theme` values (default: every theme);
    ``progress`` and ``review``: shared by every question (new ones by default); ``mistakes``: the
    learner's mistake puzzles (:func:`backgammon_lab.lessons.mistakes`) to start with.

    ``progress_file``: where the course keeps the progress, the review queue and the mistakes by
    itself: saved after each answer (and when mistakes are added), read when the course opens.
    ``None`` (the default): ``strategy_course.json`` in the learner's data folder
    (:func:`~backgammon_lab.lessons.review.data_dir`); a path: that file; ``False``: nowhere (the
    progress lives in the kernel until saved by hand).

    Stages unlock in order: the first stage of each variant is open, and a stage opens once every
    stage before it of the same variant is finished (each question answered, with any stars);
    the menu marks a locked stage with a lock. **My mistakes** and **Review my mistakes** are
    always open. ``open_all=True`` opens every stage (for a teacher, or to look around).
    """

    def __init__(self, stages: Iterable[Theme] | None = None, *, progress: Progress | None = None,
                 review: ReviewQueue | None = None, size: int = 440, open_all: bool = False,
                 mistakes: Iterable[Mistake] = (), progress_file: str | os.PathLike[str] | None | bool = None) -> None:
        self.open_all = bool(open_all)
        self.stages: tuple[Theme, ...] = tuple(themes() if stages is None else stages)
        if not self.stages or not all(isinstance(s, Theme) for s in self.stages):
            raise StrategyError(f"a course is a non-empty list of themes, not {stages!r}")
        if progress is not None and not isinstance(progress, Progress):
            raise LessonError(f"progress is a Progress, not {progress!r}")
        if review is not None and not isinstance(review, ReviewQueue):
            raise LessonError(f"review is a ReviewQueue, not {review!r}")
        self.progress_file: Path | None = course_file(progress_file, COURSE_FILE)
        self._items: dict[str, Item] = {i.id: i for s in self.stages for i in s.items}
        self.progress = progress if progress is not None else Progress(self._items)
        self.progress.add_exercises(self._items)
        self.review = review if review is not None else ReviewQueue()
        self.mistakes: list[Mistake] = []
        self._size = size
        self._widgets: dict[str, QuestionWidget] = {}
        self.stage_id = self.stages[0].id
        self.index = 0
        self._review_items: list[str] = []
        self.stage_menu = w.Dropdown(options=self._menu(), value=self.stage_id, description="Stage",
                                     layout=w.Layout(width="auto"))
        self.stage_menu.observe(self._menu_pick, names="value")
        self.prev_button = w.Button(description="Previous", icon="arrow-left")
        self.next_button = w.Button(description="Next", icon="arrow-right")
        self.prev_button.on_click(lambda _b: self.previous())
        self.next_button.on_click(lambda _b: self.next())
        self.status = w.Label("")
        self.file_box = w.Text(value="", placeholder="progress file, e.g. my_progress.json", description="File")
        self.save_button = w.Button(description="Save progress", icon="save")
        self.load_button = w.Button(description="Load progress", icon="upload")
        self.save_button.on_click(lambda _b: self._file_action(self.save))
        self.load_button.on_click(lambda _b: self._file_action(self.load))
        self.file_status = w.Label("")
        self.body = w.VBox([])
        super().__init__([self.stage_menu, w.HBox([self.prev_button, self.next_button, self.status]), self.body,
                          w.HBox([self.file_box, self.save_button, self.load_button]), self.file_status])
        self.status.add_class("bgl-course-status")
        self.file_status.add_class("bgl-course-file-status")
        self.add_class("bgl-course")
        self._restore(review is None)
        self._add(mistakes)
        self.goto(self.stage_id, 0)

    # -- the stages ------------------------------------------------------------------------------
    def _menu(self) -> list[tuple[str, str]]:
        k = len(self.review.due())
        return ([(f"{'' if self.is_open(s.id) else LOCK + ' '}{s.title} ({len(s)})", s.id) for s in self.stages]
                + [(f"My mistakes ({len(self.mistakes)})", MINE), (f"Review my mistakes ({k} due)", REVIEW)])

    def _menu_pick(self, change: dict[str, Any]) -> None:
        if change["new"] == self.stage_id:
            return
        try:
            self.goto(change["new"], 0)
        except StrategyError as e:
            self.stage_menu.value = self.stage_id
            self.status.value = str(e)

    def _stage(self, stage: str) -> Theme:
        for s in self.stages:
            if s.id == stage:
                return s
        ids = [s.id for s in self.stages] + [MINE, REVIEW]
        raise StrategyError(f"no stage {stage!r} in this course; stages: {', '.join(ids)}")

    def is_finished(self, stage: str) -> bool:
        """True when every question of ``stage`` (its id) has been answered."""
        ids = [i.id for i in (self.mistakes if stage == MINE else self._stage(stage).items)]
        return self.progress.done(ids) == len(ids)

    def is_open(self, stage: str) -> bool:
        """True when ``stage`` (its id, ``"mine"`` or ``"review"``) may be opened: see the class docstring."""
        if stage in (REVIEW, MINE):
            return True
        s = self._stage(stage)
        if self.open_all:
            return True
        return all(self.is_finished(t.id) for t in self._before(s))

    def _before(self, s: Theme) -> list[Theme]:
        same = [t for t in self.stages if t.variant == s.variant]
        return same[:same.index(s)]

    def _locked_words(self, stage: str) -> str:
        s = self._stage(stage)
        todo = next(t for t in self._before(s) if not self.is_finished(t.id))
        ids = [i.id for i in todo.items]
        return (f"The stage {s.title!r} is locked: finish {todo.title!r} first "
                f"({self.progress.done(ids)} of {len(ids)} answered).")

    def _stage_items(self, stage: str) -> list[Item]:
        if stage == REVIEW:
            return [self._items[i] for i in self._review_items if i in self._items]
        if stage == MINE:
            return list(self.mistakes)
        return list(self._stage(stage).items)

    @property
    def items(self) -> list[Item]:
        """The questions of the stage shown (for the review: those due when it was opened)."""
        return self._stage_items(self.stage_id)

    @property
    def current(self) -> QuestionWidget | None:
        """The question shown (None in an empty stage)."""
        items = self.items
        return self._widget(items[self.index]) if items else None

    def _widget(self, item: Item) -> QuestionWidget:
        if item.id not in self._widgets:
            wdg = QuestionWidget(item, progress=self.progress, size=self._size)
            wdg.on_done(self._done)
            self._widgets[item.id] = wdg
        return self._widgets[item.id]

    def _done(self, wdg: QuestionWidget) -> None:
        self.review.record(wdg.item.id, stars=wdg.stars)
        self._autosave()
        self._update()

    # -- the learner's mistakes --------------------------------------------------------------------
    def _add(self, items: Iterable[Mistake]) -> int:
        items = list(items)
        bad = [i for i in items if not isinstance(i, Mistake)]
        if bad:
            raise LessonError(f"add_mistakes takes mistakes (from lessons.mistakes), not {bad[0]!r:.200}")
        keys = {m.key for m in self.mistakes}
        new = []
        for m in items:
            if m.key not in keys:
                keys.add(m.key)
                new.append(m)
        self.mistakes.extend(new)
        for m in new:
            self._items[m.id] = m
        self.progress.add_exercises(m.id for m in new)
        return len(new)

    def add_mistakes(self, items: Iterable[Mistake]) -> int:
        """Add the learner's mistakes (:func:`backgammon_lab.lessons.mistakes`) to the **My
        mistakes** stage; one already there (the same position and roll) is not added again.
        Returns how many were new; the course saves them by itself."""
        n = self._add(items)
        self._autosave()
        if self.stage_id == MINE:
            self.goto(MINE, min(self.index, max(len(self.mistakes) - 1, 0)))
        else:
            self._update()
        return n

    # -- moving around -------------------------------------------------------------------------------
    def goto(self, stage: str, index: int = 0) -> None:
        """Show question ``index`` of a stage (its id, ``"mine"`` or ``"review"``)."""
        if stage not in (REVIEW, MINE) and not self.is_open(stage):
            raise StrategyError(self._locked_words(stage))
        if stage == REVIEW:
            self._review_items = [i for i in self.review.due() if i in self._items]
            for i in self._review_items:
                wdg = self._widgets.get(i)
                if wdg is not None and wdg.solved:
                    wdg.reset()
        n = len(self._stage_items(stage))
        try:
            index = whole_number(index, "index", 0, max(n, 1) - 1, StrategyError)
        except StrategyError:
            raise StrategyError(f"no question {index!r} in stage {stage} (0..{n - 1})") from None
        self.stage_id, self.index = stage, index
        if self.stage_menu.value != stage:
            self.stage_menu.value = stage
            self.stage_id, self.index = stage, index
        cur = self.current
        empty = ("Nothing to review yet: questions finished with fewer than three stars come back here."
                 if stage == REVIEW else "No mistakes of yours here yet: after a game, its review can send the "
                 "mistakes you made to this stage.")
        self.body.children = (cur,) if cur is not None else (w.HTML(f"<i>{html.escape(empty)}</i>"),)
        self._update()

    def next(self) -> None:
        """The next question (the first of the next stage after a stage's last)."""
        ids = [s.id for s in self.stages] + [MINE, REVIEW]
        if self.index + 1 < len(self.items):
            self.goto(self.stage_id, self.index + 1)
        elif self.stage_id != REVIEW:
            after = ids[ids.index(self.stage_id) + 1]
            if self.is_open(after):
                self.goto(after, 0)
            else:
                self.status.value = self._locked_words(after)

    def previous(self) -> None:
        """The previous question."""
        if self.index > 0:
            self.goto(self.stage_id, self.index - 1)

    def _update(self) -> None:
        items = self.items
        ids = [i.id for i in items]
        got, of = self.progress.total_stars(ids), self.progress.max_stars(ids)
        total, total_of = self.progress.total_stars(list(self._items)), self.progress.max_stars(list(self._items))
        where = f"question {self.index + 1} of {len(items)}" if items else "nothing due"
        self.status.value = f"{where}; stars: {got}/{of} here, {total}/{total_of} in all"
        self.prev_button.disabled = self.index == 0
        self.next_button.disabled = self.stage_id == REVIEW and self.index + 1 >= len(items)
        keep = self.stage_menu.value
        self.stage_menu.options = self._menu()
        self.stage_menu.value = keep

    # -- saved progress --------------------------------------------------------------------------
    def _merge(self, progress: Progress) -> None:
        for i in progress.exercise_ids:
            att = progress.attempt(i)
            if att is not None:
                self.progress.record(i, wrong=att.wrong, hints=att.hints, shown=att.shown)
        for wdg in self._widgets.values():
            wdg._show_stars()

    def _restore(self, take_review: bool) -> None:
        """Read the course's own progress file, when there is one (a bad file is left alone and said)."""
        f = self.progress_file
        if f is None:
            self.file_status.value = "Progress is kept in this notebook's kernel only: press Save progress to keep it."
            return
        if not f.exists():
            self.file_status.value = f"Your progress is saved by itself in {f}."
            return
        try:
            progress, review, records = load_saved(f)
            mine = mistakes_from_json(records)
        except LessonError as e:
            self.progress_file = None  # not written over: the learner may mend it
            self.file_status.value = f"Your saved progress could not be read, so this course starts afresh and " \
                f"saves nothing by itself: {e}"
            return
        self._merge(progress)
        if take_review:
            self.review = review
        self._add(mine)
        n, k = self.progress.done(), self.progress.total_stars()
        self.file_status.value = (f"Welcome back: {n} question{'s' if n != 1 else ''} done, "
                                  f"{k} star{'s' if k != 1 else ''} (saved by itself in {f}).")

    def _autosave(self) -> None:
        """Save to the course's own file, first taking in what another course saved there since
        (two courses open on one file keep each other's answers)."""
        if self.progress_file is None:
            return
        if self.progress_file.exists():
            try:
                progress, review, records = load_saved(self.progress_file)
                mine = mistakes_from_json(records)
            except LessonError:
                pass  # unreadable now: written over with what this course holds
            else:
                self._merge(progress)
                self.review.absorb(review)
                self._add(mine)
        try:
            save_progress(self.progress_file, self.progress, self.review, mistakes_to_json(self.mistakes))
        except LessonError as e:
            self.file_status.value = f"Your progress could not be saved by itself: {e}"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the progress, the review queue and the mistakes to ``path`` (a second file; the
        course's own file is saved by itself)."""
        p = save_progress(path, self.progress, self.review, mistakes_to_json(self.mistakes))
        self.file_status.value = f"Saved to {p}."

    def load(self, path: str | os.PathLike[str]) -> None:
        """Load progress, the review queue and mistakes from ``path`` (what :meth:`save` wrote): the
        stars are added to those won here, the queue is the file's, its mistakes join **My mistakes**."""
        progress, review, records = load_saved(path)
        mine = mistakes_from_json(records)
        self._merge(progress)
        self.review = review
        self._add(mine)
        self._autosave()
        self.file_status.value = f"Loaded {path}: {self.progress.done()} done, {self.progress.total_stars()} stars."
        self._update()

    def _file_action(self, action: Callable[[str], None]) -> None:
        try:
            action(self.file_box.value)
        except LessonError as e:
            self.file_status.value = str(e)

    def __repr__(self) -> str:
        return (f"<StrategyCourse {len(self.stages)} stages, at {self.stage_id} question {self.index + 1}; "
                f"{self.progress.total_stars(list(self._items))}/{self.progress.max_stars(list(self._items))} stars>")


def strategy_course(variant: str | None = None, *, size: int = 440, open_all: bool = False,
                    mistakes: Iterable[Mistake] = (),
                    progress_file: str | os.PathLike[str] | None | bool = None) -> StrategyCourse:
    """The strategy course (the stages of one ``variant``, or all; ``open_all``: every stage
    open, not unlocked in order; ``mistakes`` and ``progress_file``: see :class:`StrategyCourse`)."""
    stages = [s for s in themes() if variant is None or s.variant == variant]
    if not stages:
        raise StrategyError(f"no strategy stages for {variant!r}; variants: standard, mexican, minigam")
    return StrategyCourse(stages, size=size, open_all=open_all, mistakes=mistakes, progress_file=progress_file)
