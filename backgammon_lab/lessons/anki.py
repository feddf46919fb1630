"""Puzzles as an Anki deck: :func:`export_anki` writes an ``.apkg`` file Anki imports.

One note an item (a puzzle of the course, a drill, or a learner's :class:`~.games.Mistake`):

* the front: the board as a picture (the position, the dice), the question and the choices;
* the back: the board with the better play drawn, the answer, the engine's value of each choice
  and the reason (what the better play does, or for a mistake what went wrong).

Each note's GUID comes from the item's key (its position and roll; :func:`item_key`), so importing
a new deck with the same item updates the note instead of adding a second one; the deck's and the
note type's ids are fixed, and the file is the same bytes for the same items (a fixed timestamp,
fixed dates in the zip). The pictures travel as SVG files in the deck's media.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import os
import sqlite3
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..analysis.strategy import Drill, Puzzle, Question, question
from ..svg import board
from .exercises import LessonError
from .games import Mistake, mistake_key

__all__ = ["export_anki", "item_key", "DECK_ID", "MODEL_ID"]

#: The deck's and the note type's ids (fixed: a deck exported again is the same deck in Anki).
DECK_ID = 1_761_061_061
MODEL_ID = 1_761_061_062
#: The time written into the deck (seconds since 1970): the same items give the same file.
TIMESTAMP = 1_700_000_000.0
_ZIP_DATE = (2023, 11, 14, 22, 13, 20)

_CSS = """.card { font-family: sans-serif; font-size: 18px; text-align: center; color: #222; background: #fff; }
.board img { max-width: 100%; }
.choices { text-align: left; display: inline-block; }
.values { text-align: left; display: inline-block; font-size: 16px; }
.reason { margin-top: 8px; font-size: 16px; }
"""


def item_key(item: Drill | Puzzle) -> str:
    """The key of an item: a mistake's own key; a puzzle's position, roll and kind; a drill's kind,
    position and what it asks about. The note's GUID is made from it."""
    if isinstance(item, Mistake):
        return item.key
    if isinstance(item, Puzzle):
        return mistake_key(item.position, item.dice, item.kind)
    if isinstance(item, Drill):
        return " ".join(str(x) for x in (item.kind, item.position, item.dice or "", item.play, item.point, item.side))
    raise LessonError(f"an Anki note is made of a puzzle, a drill or a mistake, not {item!r:.200}")


def _guid(key: str) -> str:
    import genanki

    return str(genanki.guid_for("backgammon_lab", key))


def _name(key: str, side: str) -> str:
    return f"bgl-{hashlib.sha256(key.encode()).hexdigest()[:16]}-{side}.svg"


def _choices_html(q: Question) -> str:
    return "<ul class='choices'>" + "".join(f"<li>{html.escape(label)}</li>" for label in q.labels) + "</ul>"


def _note_parts(item: Drill | Puzzle) -> tuple[str, str, str, dict[str, str]]:
    """The key, the front and back (HTML) and the pictures (file name: SVG text) of an item."""
    key = item_key(item)  # a LessonError for anything but a drill or a puzzle
    q = question(item)
    front_pic, back_pic = _name(key, "front"), _name(key, "back")
    opts: dict[str, Any] = {"size": 480}
    if q.dice is not None:
        opts["dice"] = q.dice
    if q.highlight:
        opts["highlight"] = list(q.highlight)
    pics = {front_pic: str(board(q.position, **opts))}
    answer = sorted(q.accepts, key=str)[0]
    arrows = list(q.arrows[q.choices.index(answer)]) if q.arrows else []
    pics[back_pic] = str(board(q.position, arrows=arrows, **opts)) if arrows else pics[front_pic]
    front = (f"<div class='board'><img src='{front_pic}'></div>"
             f"<p><b>{html.escape(q.goal)}</b></p>{_choices_html(q) if isinstance(item, Puzzle) else ''}")
    reason = item.words if isinstance(item, Mistake) else q.reason
    values = ("<ul class='values'>" + "".join(f"<li>{html.escape(v)}</li>" for v in q.values) + "</ul>"
              if q.values else "")
    back = (f"<div class='board'><img src='{back_pic}'></div>"
            f"<p><b>{html.escape(q.solution)}</b></p>{values}<div class='reason'>{html.escape(reason)}</div>")
    return key, front, back, pics


def export_anki(items: Iterable[Drill | Puzzle], path: str | os.PathLike[str], *,
                title: str = "Backgammon puzzles") -> Path:
    """Write ``items`` (puzzles, drills or mistakes) to ``path`` as an Anki deck (``.apkg``) named
    ``title``, one note an item (an item given twice is one note); returns the path. See the module
    docstring for what a note holds."""
    import genanki

    items = list(items)
    if not items:
        raise LessonError("an Anki deck needs at least one puzzle")
    if not isinstance(title, str) or not title.strip():
        raise LessonError(f"a deck's title is a non-empty text, not {title!r}")
    p = Path(path)
    if not str(path).strip() or p.is_dir():
        raise LessonError(f"an Anki deck needs a file name, not {str(path)!r}")
    model = genanki.Model(
        MODEL_ID, "backgammon_lab puzzle",
        fields=[{"name": "Front"}, {"name": "Back"}, {"name": "Key"}],
        templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                    "afmt": "{{FrontSide}}<hr id='answer'>{{Back}}"}],
        css=_CSS)
    deck = genanki.Deck(DECK_ID, title)
    media: dict[str, str] = {}
    seen: set[str] = set()
    for item in items:
        key, front, back, pics = _note_parts(item)
        if key in seen:
            continue
        seen.add(key)
        media.update(pics)
        deck.add_note(genanki.Note(model=model, fields=[front, back, html.escape(key)], guid=_guid(key),
                                   tags=["backgammon_lab", _variant_of(item)]))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "collection.anki2"
        conn = sqlite3.connect(db)
        try:
            genanki.Package(deck).write_to_db(conn.cursor(), TIMESTAMP, itertools.count(int(TIMESTAMP * 1000)))
            conn.commit()
        finally:
            conn.close()
        data = db.read_bytes()
    names = sorted(media)
    try:
        with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(zipfile.ZipInfo("collection.anki2", _ZIP_DATE), data)
            z.writestr(zipfile.ZipInfo("media", _ZIP_DATE), json.dumps({str(i): n for i, n in enumerate(names)}))
            for i, n in enumerate(names):
                z.writestr(zipfile.ZipInfo(str(i), _ZIP_DATE), media[n].encode())
    except OSError as e:
        raise LessonError(f"cannot write the Anki deck {str(path)!r}: {e.strerror or e}") from None
    return p


def _variant_of(item: Drill | Puzzle) -> str:
    return item.position.split("/", 1)[0]
