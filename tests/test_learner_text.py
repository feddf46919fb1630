"""Learner text in plain words (issue 61, item 6): nothing the courses show a learner names an API
(a function, an option, a keyword argument, a module) or an item's id, and a puzzle states a margin
only when its check shows it.

The texts scanned: every exercise of the rule course (goal, note, the engine's answer, hint,
solution, reasons; the widget's title and its feedback after a hint, each wrong choice and the
solution), the course's menu and status; every drill and puzzle of the strategy course (its
question, the feedback after each wrong choice, a hint and the solution), the stages' titles,
the menu and the status; a learner's mistakes (their words and their feedback); and the notes of
an Anki deck of them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest

from backgammon_lab.analysis.bots import RandomBot
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.options import Options
from backgammon_lab.analysis.strategy import DRILLS, Puzzle, load_puzzles, question, themes
from backgammon_lab.game import Game
from backgammon_lab.lessons import EXERCISES, STAGES, mistakes, solve
from backgammon_lab.lessons.rows import INTERPRETATIONS
from backgammon_lab.widgets.exercise import CourseWidget, ExerciseWidget
from backgammon_lab.widgets.strategy import QuestionWidget, StrategyCourse

#: What an API name looks like in a sentence.
API_LIKE = {
    "a snake_case name": re.compile(r"\b[a-z]+_[a-z0-9_]+\b"),
    "a call": re.compile(r"[A-Za-z_]\((?!\d\))"),  # not a move's count: 2/off(2)
    "a keyword argument": re.compile(r"\w=\w"),
    "code quotes": re.compile(r"`"),
    "a Python constant": re.compile(r"\b(True|False|None)\b"),
    "a dotted name": re.compile(r"\b(?!e\.g\b|i\.e\b)[a-z_]+\.[a-z_]+\b"),
    "a ply count": re.compile(r"\b\d-ply\b"),
}
PUZZLES = load_puzzles()
#: Every item id of both courses, and the stages' ids that are not rule rows.
IDS = sorted({e.id for e in EXERCISES} | {d.id for d in DRILLS} | {p.id for p in PUZZLES}
             | {s.id for s in themes() if "." in s.id} | {s.id for s in STAGES if "-" in s.id}, key=len, reverse=True)
ID_RE = re.compile("|".join(rf"(?<![\w.-]){re.escape(i)}(?![\w-]|\.\w)" for i in IDS))


def problems(text: str) -> list[str]:
    """What in ``text`` is not plain words for a learner."""
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text))
    found = [f"{what}: {m.group(0)!r}" for what, rx in API_LIKE.items() for m in rx.finditer(plain)]
    found += [f"an item id: {m.group(0)!r}" for m in ID_RE.finditer(plain)]
    return found


def test_the_scan_catches_what_it_should() -> None:
    assert problems("the stricter reading is the option bar_first=True")
    assert problems("sp.safe.1 White to play 4-5: which play is better?")
    assert problems("The engine's values (1-ply net (opening_hint)): keep 50%")
    assert problems("see backgammon_lab.analysis.odds")
    assert not problems("White to play 6-1: which play is better? It makes point 7, e.g. a prime.")
    assert not problems("Rule M4, As much of the roll as possible: \u201cplay both dice\u201d (3.5% to win)")


def _widget_texts(wdg: ExerciseWidget | QuestionWidget) -> Iterator[str]:
    yield wdg.title.value
    wdg.hint()
    yield wdg.feedback
    wdg.reset()
    if isinstance(wdg, QuestionWidget):
        q = wdg.question
        for value in q.choices:
            if value not in q.accepts:
                wdg.answer(value)
                yield wdg.feedback
                wdg.reset()
    else:
        ans = wdg.answer_key
        for value in ans.choices:
            if value not in ans.accepts:
                wdg.answer(value)
                yield wdg.feedback
                wdg.reset()
    wdg.show_solution()
    yield wdg.feedback
    yield wdg.stars_label.value


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda e: e.id)
def test_every_exercise_of_the_rule_course_is_in_plain_words(ex) -> None:
    ans = solve(ex)
    texts = [ex.goal, ex.text, ex.note, ans.solution, ans.hint, ans.reason, *ans.labels, *ans.reasons]
    texts += list(_widget_texts(ExerciseWidget(ex, number="1.")))
    assert [(t, p) for t in texts for p in problems(t)] == []


def test_the_rule_course_menu_and_status_are_in_plain_words() -> None:
    c = CourseWidget()
    texts = [label for label, _ in c.stage_menu.options]
    for i in range(len(c.stages)):
        c.goto(i, 0)
        texts.append(c.status.value)
    assert [(t, p) for t in texts for p in problems(t)] == []
    assert all(problems(v) == [] for v in INTERPRETATIONS.values())


@pytest.mark.parametrize("item", [*DRILLS, *PUZZLES], ids=lambda i: i.id)
def test_every_drill_and_puzzle_is_in_plain_words(item) -> None:
    q = question(item)
    texts = [q.goal, q.hint, q.solution, q.reason, *q.labels, *q.values]
    texts += list(_widget_texts(QuestionWidget(item)))
    assert [(t, p) for t in texts for p in problems(t)] == []


def test_the_strategy_course_menu_status_and_stages_are_in_plain_words() -> None:
    c = StrategyCourse(progress_file=False, open_all=True)
    texts = [label for label, _ in c.stage_menu.options] + [c.file_status.value]
    for s in c.stages:
        texts += [s.title, s.about]
        c.goto(s.id, 0)
        texts.append(c.status.value)
    for stage in ("mine", "review"):
        c.goto(stage)
        texts += [c.status.value, *(getattr(ch, "value", "") for ch in c.body.children)]
    assert [(t, p) for t in texts for p in problems(t)] == []


@pytest.mark.parametrize("p", [p for p in PUZZLES if p.kind == "keep"], ids=lambda p: p.id)
def test_a_keep_puzzle_states_only_the_margins_its_checks_show(p: Puzzle) -> None:
    reason = question(p).reason
    other = next(o for o in (p.answer, *p.others) if o != p.answer)
    net = float(p.proof["values"][p.answer]) - float(p.proof["values"][other])
    ro = p.proof["rollout"]
    lead = float(ro["win"][p.answer]) - float(ro["win"][other])
    err = (float(ro["stderr"][p.answer]) ** 2 + float(ro["stderr"][other]) ** 2) ** 0.5
    stated = re.search(r"wins (\d+\.\d) more games in 100 by the net, and (\d+\.\d) \u00b1 (\d+\.\d) more by the "
                       r"rollout: a small edge, but a sure one", reason)
    assert stated is not None, reason
    assert float(stated.group(1)) == round(100 * net, 1) and float(stated.group(2)) == round(100 * lead, 1)
    assert float(stated.group(3)) == round(100 * err, 1) and lead > 2 * err  # "sure": beyond two errors
    assert "at least" not in reason


def test_no_puzzle_claims_a_margin_its_proof_does_not_show() -> None:
    """A margin written as "at least N%" or "by N%" in a puzzle's words is at most its proof's."""
    for p in PUZZLES:
        q = question(p)
        vals = sorted((float(v) for v in p.proof["values"].values()), reverse=True)
        for m in re.finditer(r"(?:at least|by) (\d+(?:\.\d+)?)%", q.reason + " " + q.hint):
            assert float(m.group(1)) / 100 <= vals[0] - vals[1] + 1e-9, (p.id, m.group(0))


def test_a_learners_mistakes_and_their_deck_are_in_plain_words(tmp_path) -> None:
    import sqlite3
    import zipfile

    from backgammon_lab.lessons import export_anki

    bots = {"white": RandomBot(4), "black": NetBot()}
    g = Game("standard", seed=9)
    while not g.is_over:
        if g.is_chance():
            g.roll()
            continue
        g.apply(bots[g.current_player].choose(g))
    found = mistakes(g, Options(ply=0))
    assert found
    texts = []
    for m in found:
        texts.append(m.words)
        texts += list(_widget_texts(QuestionWidget(m)))
    c = StrategyCourse(themes()[:1], progress_file=False, mistakes=found)
    c.goto("mine")
    texts += [label for label, _ in c.stage_menu.options] + [c.status.value]
    deck = export_anki(found, tmp_path / "mine.apkg")
    with zipfile.ZipFile(deck) as z:
        (tmp_path / "c.db").write_bytes(z.read("collection.anki2"))
    con = sqlite3.connect(tmp_path / "c.db")
    try:
        for (flds,) in con.execute("select flds from notes"):
            front, back, _key = flds.split("\x1f")  # the key field is for Anki, never shown on a card
            texts += [front.replace("src='bgl-", "src='"), back.replace("src='bgl-", "src='")]
    finally:
        con.close()
    assert [(t, p) for t in texts for p in problems(t)] == []
