"""Attempts, stars and progress across a lesson, kept in the kernel and exported as JSON.

Stars per exercise (like lichess's Learn, where a level's stars depend on how it was solved):

* **3 stars**: solved at the first try, without a hint;
* **2 stars**: solved by the learner after a hint or after one or more wrong tries;
* **1 star**: finished by pressing *Show solution*;
* **0 stars**: not finished yet.

The best result of an exercise is kept: trying again can only add stars.

>>> p = Progress()
>>> p.record("m3.1", wrong=1)
2
>>> p.record("m3.1")
3
>>> p.stars("m3.1"), p.total_stars()
(3, 3)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import whole_number
from .exercises import LessonError

__all__ = ["Attempt", "Progress", "stars_for", "MAX_STARS"]

MAX_STARS = 3


def stars_for(wrong: int, hints: int, shown: bool) -> int:
    """Stars of a finished exercise (see the module docstring)."""
    if shown:
        return 1
    return 3 if wrong == 0 and hints == 0 else 2


@dataclass(frozen=True)
class Attempt:
    """How an exercise was finished: wrong tries, hints taken, whether the solution was shown."""

    exercise: str
    wrong: int = 0
    hints: int = 0
    shown: bool = False

    @property
    def stars(self) -> int:
        """The stars this attempt earns."""
        return stars_for(self.wrong, self.hints, self.shown)


class Progress:
    """The best attempt of each exercise, for a lesson or a whole course.

    ``exercises``: the ids that make up the lesson (for :meth:`max_stars` and :meth:`done`); any
    id may be recorded.
    """

    def __init__(self, exercises: Iterable[str] = ()) -> None:
        self._ids: list[str] = list(dict.fromkeys(exercises))
        self._best: dict[str, Attempt] = {}

    @property
    def exercise_ids(self) -> list[str]:
        """The exercises of the lesson, in order."""
        return list(self._ids)

    def add_exercises(self, ids: Iterable[str]) -> None:
        """Add exercises to the lesson (those already in it are kept once)."""
        for i in ids:
            if i not in self._ids:
                self._ids.append(i)

    def record(self, exercise: str, *, wrong: int = 0, hints: int = 0, shown: bool = False) -> int:
        """Record a finished attempt; returns the exercise's stars now (the best so far)."""
        if not isinstance(exercise, str) or not exercise:
            raise LessonError(f"an exercise id is a non-empty string, not {exercise!r}")
        att = Attempt(exercise, whole_number(wrong, "wrong", 0, error=LessonError),
                      whole_number(hints, "hints", 0, error=LessonError), bool(shown))
        old = self._best.get(exercise)
        if old is None or att.stars > old.stars:
            self._best[exercise] = att
        if exercise not in self._ids:
            self._ids.append(exercise)
        return self.stars(exercise)

    def stars(self, exercise: str) -> int:
        """Stars won on one exercise (0 when not finished)."""
        att = self._best.get(exercise)
        return att.stars if att else 0

    def attempt(self, exercise: str) -> Attempt | None:
        """The best attempt of one exercise, or None."""
        return self._best.get(exercise)

    def total_stars(self, ids: Iterable[str] | None = None) -> int:
        """Stars won (on ``ids``, by default every exercise of the lesson)."""
        return sum(self.stars(i) for i in (self._ids if ids is None else ids))

    def max_stars(self, ids: Iterable[str] | None = None) -> int:
        """Stars that can be won."""
        return MAX_STARS * len(list(self._ids if ids is None else ids))

    def done(self, ids: Iterable[str] | None = None) -> int:
        """How many exercises are finished."""
        return sum(1 for i in (self._ids if ids is None else ids) if i in self._best)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the lesson's exercises and the best attempt of each finished one."""
        return {
            "exercises": list(self._ids),
            "stars": self.total_stars(), "max_stars": self.max_stars(),
            "results": {i: {**{k: v for k, v in asdict(a).items() if k != "exercise"}, "stars": a.stars}
                        for i, a in sorted(self._best.items())},
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (sorted keys: the same progress gives the same text)."""
        return json.dumps(self.to_dict(), sort_keys=True, indent=1)

    @classmethod
    def from_json(cls, text: str | dict[str, Any]) -> Progress:
        """Read what :meth:`to_json` wrote; :class:`LessonError` for anything else."""
        try:
            data = json.loads(text) if isinstance(text, str) else text
            ids = data["exercises"]
            results = data["results"]
            if not isinstance(ids, list) or not isinstance(results, dict):
                raise TypeError
            p = cls(ids)
            for i, r in results.items():
                p.record(i, wrong=r["wrong"], hints=r["hints"], shown=r["shown"])
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            if isinstance(e, LessonError):
                raise
            raise LessonError(f"not a progress record: {str(text)[:80]!r}") from None
        return p

    def __repr__(self) -> str:
        return f"<Progress {self.done()}/{len(self._ids)} done, {self.total_stars()}/{self.max_stars()} stars>"
