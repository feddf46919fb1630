"""The review queue and saved progress of the course.

:class:`ReviewQueue`: exercises and puzzles finished with fewer than 3 stars come back later, on a
simple spaced schedule (a Leitner box). The clock is the number of items finished so far, so the
schedule is the same on every run. An item finished with fewer than three stars goes to the first
box and is due again after :data:`INTERVALS`\\[0] more items; each three-star review moves it up a
box (due after the next interval); after the last box it leaves the queue. A review with fewer than
three stars sends it back to the first box.

>>> q = ReviewQueue()
>>> q.record("sp.points.1", stars=2)
>>> q.due()
[]
>>> for i in range(3):
...     q.record(f"d.pip.{i}", stars=3)
>>> q.due()
['sp.points.1']

:func:`save_progress` / :func:`load_progress`: the progress (stars), the queue and the learner's
own mistake puzzles in one JSON file. The strategy course keeps one such file by itself in the
learner's data folder (:func:`data_dir`: platformdirs' user data folder, or the folder the
environment variable :data:`DATA_ENV` names), saved after each answer and read when the course opens.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import whole_number
from .exercises import LessonError
from .progress import MAX_STARS, Progress

__all__ = ["ReviewQueue", "INTERVALS", "save_progress", "load_progress", "load_saved", "data_dir", "DATA_ENV",
           "COURSE_FILE", "RULE_COURSE_FILE", "course_file"]

#: The environment variable that names the folder the course keeps its progress in (tests set it
#: to a temporary folder); without it, the user data folder of platformdirs.
DATA_ENV = "BACKGAMMON_LAB_DATA"
#: The file name of the strategy course's own progress file in :func:`data_dir`.
COURSE_FILE = "strategy_course.json"
#: The file name of the rule course's own progress file (:func:`backgammon_lab.lessons.notebook.course`).
RULE_COURSE_FILE = "rule_course.json"


def course_file(progress_file: str | os.PathLike[str] | None | bool, name: str) -> Path | None:
    """Where a course keeps its progress by itself: ``None`` the file ``name`` in :func:`data_dir`,
    a path that file, ``False`` nowhere (None); :class:`LessonError` for anything else."""
    if progress_file is False:
        return None
    if progress_file is None:
        return data_dir() / name
    if isinstance(progress_file, (str, os.PathLike)) and str(progress_file).strip():
        return Path(progress_file)
    raise LessonError(f"progress_file is a file name, None (the data folder) or False, not {progress_file!r}")


def data_dir() -> Path:
    """The folder the course keeps the learner's progress in: ``$BACKGAMMON_LAB_DATA`` when set,
    else the user data folder (``platformdirs.user_data_dir("backgammon_lab")``). Not created here."""
    env = os.environ.get(DATA_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("backgammon_lab", appauthor=False))

#: Items finished between two reviews of an item, box by box.
INTERVALS = (3, 6, 12)


class ReviewQueue:
    """Items to review, each in a box with the clock time it is due (see the module docstring)."""

    def __init__(self) -> None:
        self.clock = 0
        self._boxes: dict[str, tuple[int, int]] = {}  # id -> (box, due)

    def record(self, item: str, *, stars: int) -> None:
        """An item was finished with ``stars``: schedule it (or move it up, or let it go)."""
        if not isinstance(item, str) or not item:
            raise LessonError(f"an item id is a non-empty string, not {item!r}")
        try:
            stars = whole_number(stars, "stars", 0, MAX_STARS, LessonError)
        except LessonError:
            raise LessonError(f"stars are a whole number from 0 to {MAX_STARS}, not {stars!r}") from None
        self.clock += 1
        if stars < MAX_STARS:
            self._boxes[item] = (0, self.clock + INTERVALS[0])
        elif item in self._boxes:
            box = self._boxes[item][0] + 1
            if box >= len(INTERVALS):
                del self._boxes[item]
            else:
                self._boxes[item] = (box, self.clock + INTERVALS[box])

    def due(self) -> list[str]:
        """The items due now, the longest overdue first (then by id)."""
        return [i for i, (_b, d) in sorted(self._boxes.items(), key=lambda kv: (kv[1][1], kv[0]))
                if d <= self.clock]

    def waiting(self) -> list[str]:
        """Every item in the queue, due or not, soonest first."""
        return [i for i, _ in sorted(self._boxes.items(), key=lambda kv: (kv[1][1], kv[0]))]

    def box(self, item: str) -> int | None:
        """The box of ``item`` (0 first), or None when it is not in the queue."""
        got = self._boxes.get(item)
        return None if got is None else got[0]

    def absorb(self, other: ReviewQueue) -> None:
        """Take the items of ``other`` that this queue does not hold (with their boxes and due
        times) and the later of the two clocks: two courses saving to one file keep both queues."""
        self.clock = max(self.clock, other.clock)
        for item, slot in other._boxes.items():
            self._boxes.setdefault(item, slot)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"clock": self.clock, "items": {i: list(v) for i, v in sorted(self._boxes.items())}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReviewQueue:
        """Read what :meth:`to_dict` wrote; :class:`LessonError` for anything else."""
        q = cls()
        try:
            q.clock = whole_number(data["clock"], "clock", 0, error=LessonError)
            for i, (box, due) in data["items"].items():
                if not (isinstance(box, int) and 0 <= box < len(INTERVALS) and isinstance(due, int)):
                    raise TypeError
                q._boxes[str(i)] = (box, due)
        except (TypeError, KeyError, ValueError, AttributeError):
            raise LessonError(f"not a review queue: {str(data)[:80]!r}") from None
        return q

    def __repr__(self) -> str:
        return f"<ReviewQueue {len(self._boxes)} waiting, {len(self.due())} due>"


def save_progress(path: str | os.PathLike[str], progress: Progress, review: ReviewQueue | None = None,
                  mistakes: Sequence[dict[str, Any]] = ()) -> Path:
    """Write the progress, the review queue and the records of the learner's mistake puzzles
    (``mistakes``: JSON-ready dicts, :meth:`Mistake.to_json <backgammon_lab.lessons.games.Mistake.to_json>`)
    to ``path`` (JSON; its folder is made when missing; the file is replaced whole, never left
    half written); returns the path."""
    if not isinstance(progress, Progress):
        raise LessonError(f"progress is a Progress, not {progress!r}")
    p = Path(path)
    if not str(path).strip() or p.is_dir():
        raise LessonError(f"a progress file needs a file name, not {str(path)!r}")
    data: dict[str, Any] = {"progress": progress.to_dict(), "review": (review or ReviewQueue()).to_dict()}
    if mistakes:
        data["mistakes"] = list(mistakes)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".part")
        tmp.write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")
        os.replace(tmp, p)
    except OSError as e:
        raise LessonError(f"cannot write the progress file {str(path)!r}: {e.strerror or e}") from None
    return p


def load_progress(path: str | os.PathLike[str]) -> tuple[Progress, ReviewQueue]:
    """Read a file :func:`save_progress` wrote; :class:`LessonError` when it is missing or not one."""
    progress, review, _mistakes = load_saved(path)
    return progress, review


def load_saved(path: str | os.PathLike[str]) -> tuple[Progress, ReviewQueue, list[dict[str, Any]]]:
    """Read a file :func:`save_progress` wrote: the progress, the queue and the mistakes' records;
    :class:`LessonError` when it is missing or not one."""
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except OSError as e:
        raise LessonError(f"cannot read the progress file {str(path)!r}: {e.strerror or e}") from None
    except ValueError as e:
        raise LessonError(f"{str(path)!r} is not a progress file: {e}") from None
    if not isinstance(data, dict) or "progress" not in data:
        raise LessonError(f"{str(path)!r} is not a progress file")
    mistakes = data.get("mistakes", [])
    if not isinstance(mistakes, list) or not all(isinstance(m, dict) for m in mistakes):
        raise LessonError(f"{str(path)!r} is not a progress file: its mistakes are not a list of records")
    return (Progress.from_json(data["progress"]), ReviewQueue.from_dict(data.get("review", {"clock": 0, "items": {}})),
            mistakes)
