"""Lessons: exercises the engine checks and explains, in stages, with stars and progress.

* :mod:`.exercises`: an exercise as data (position, dice or a game state, a goal, a short text)
  and :func:`solve`, which asks the engine for the answer;
* :mod:`.catalog`: the course, stage by stage, for standard backgammon, Mexican Backgammon and
  Mini-Gam;
* :mod:`.progress`: attempts, stars (3 at the first try, 2 after a hint or a wrong try, 1 when the
  solution was shown) and a JSON export;
* :mod:`.review`: the review queue (a spaced schedule) and the progress file, saved by itself;
* :mod:`.games`: :func:`mistakes`, the learner's own mistakes of a game as puzzles of the course;
* :mod:`.anki`: :func:`export_anki`, puzzles as an Anki deck;
* :mod:`.notebook`: what the tutorial notebooks show (pictures, the engine's words, glossary, cheat
  sheets), so that no notebook cell carries helper code.

The widgets are in :mod:`backgammon_lab.widgets.exercise` and :mod:`backgammon_lab.widgets.strategy`.
See ``docs/lessons.md``. :func:`mistakes`, :class:`Mistake` and :func:`export_anki` load the
analysis when first used (importing the course's model does not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .catalog import EXERCISES, ROW_TITLES, STAGES, Stage, exercise, stage, stages_of
from .exercises import KINDS, TARGETS, Answer, Exercise, LessonError, check_exercise, solve
from .progress import Attempt, Progress, stars_for

if TYPE_CHECKING:
    from .anki import export_anki
    from .games import Mistake, mistakes

__all__ = ["EXERCISES", "ROW_TITLES", "STAGES", "Stage", "exercise", "stage", "stages_of", "KINDS", "TARGETS",
           "Answer", "Exercise", "LessonError", "check_exercise", "solve", "Attempt", "Progress", "stars_for",
           "mistakes", "Mistake", "export_anki"]


def __getattr__(name: str) -> Any:
    """The names that load the analysis, imported when first asked for."""
    if name in ("mistakes", "Mistake"):
        from . import games

        return getattr(games, name)
    if name == "export_anki":
        from .anki import export_anki

        return export_anki
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
