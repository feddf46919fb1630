"""Lessons: exercises the engine checks and explains, in stages, with stars and progress.

* :mod:`.exercises`: an exercise as data (position, dice or a game state, a goal, a short text)
  and :func:`solve`, which asks the engine for the answer;
* :mod:`.catalog`: the course, stage by stage, for standard backgammon, Mexican Backgammon and
  Mini-Gam;
* :mod:`.progress`: attempts, stars (3 at the first try, 2 after a hint or a wrong try, 1 when the
  solution was shown) and a JSON export;
* :mod:`.notebook`: what the tutorial notebooks show (pictures, the engine's words, glossary, cheat
  sheets), so that no notebook cell carries helper code.

The widgets are in :mod:`backgammon_lab.widgets.exercise`. See ``docs/lessons.md``.
"""

from __future__ import annotations

from .catalog import EXERCISES, ROW_TITLES, STAGES, Stage, exercise, stage, stages_of
from .exercises import KINDS, TARGETS, Answer, Exercise, LessonError, check_exercise, solve
from .progress import Attempt, Progress, stars_for

__all__ = ["EXERCISES", "ROW_TITLES", "STAGES", "Stage", "exercise", "stage", "stages_of", "KINDS", "TARGETS",
           "Answer", "Exercise", "LessonError", "check_exercise", "solve", "Attempt", "Progress", "stars_for"]
