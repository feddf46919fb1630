"""The learner's mistakes as puzzles (lessons.mistakes) and puzzles as an Anki deck (lessons.export_anki)."""

from __future__ import annotations

import hashlib
import sqlite3
import zipfile
from pathlib import Path

import genanki
import pytest

from backgammon_lab.analysis.analyse import THRESHOLDS, analyse
from backgammon_lab.analysis.bots import HeuristicBot, PerfectMiniGamBot, RandomBot
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.options import Options
from backgammon_lab.analysis.solve import solve
from backgammon_lab.analysis.strategy import Puzzle, find_play, load_puzzles, question
from backgammon_lab.game import Game
from backgammon_lab.lessons import LessonError, Mistake, export_anki, mistakes
from backgammon_lab.lessons.anki import DECK_ID, item_key
from backgammon_lab.lessons.games import CHECKS, DOUBTFUL, mistakes_from_json, mistakes_to_json
from backgammon_lab.matchfiles import Match
from backgammon_lab.position import Position, Roll
from backgammon_lab.variants import find_variant

FAST = Options(ply=0)


def bot_game(variant, white, black, seed: int, position: Position | None = None) -> Game:
    g = Game(variant, seed=seed, position=position) if position is not None else Game(variant, seed=seed)
    bots = {"white": white, "black": black}
    while not g.is_over:
        if g.is_chance():
            g.roll()
            continue
        g.apply(bots[g.current_player].choose(g))
    return g


@pytest.fixture(scope="module")
def weak_game() -> Game:
    return bot_game("standard", RandomBot(1), NetBot(), seed=2)


@pytest.fixture(scope="module")
def weak_items(weak_game):
    return mistakes(weak_game, FAST)


def test_the_threshold_is_the_analysis_doubtful_mark() -> None:
    assert DOUBTFUL == dict((n, t) for t, n in THRESHOLDS)["doubtful"] == 0.04


def test_a_weak_players_mistakes_are_puzzles_of_the_course(weak_game, weak_items) -> None:
    a = analyse(weak_game, FAST)
    marked = [d for d in a.decisions if not d.forced and d.loss >= DOUBTFUL]
    assert len(weak_items) >= 5 and len(weak_items) <= len(marked)
    keys = {(d.position, d.dice) for d in marked}
    for m in weak_items:
        assert isinstance(m, Puzzle) and isinstance(m, Mistake) and m.theme == "mine"
        assert (m.position, m.dice) in keys and m.loss >= DOUBTFUL
        assert m.others == (m.played,) and m.answer != m.played
        assert m.check in CHECKS and m.proof["how"] == CHECKS[m.check]
        v = m.proof["values"]
        assert m.proof["equities"][m.answer] > m.proof["equities"][m.played]  # the check agrees
        assert set(v) == {m.answer, m.played}
        pos, roll = Position.from_string(m.position), Roll.parse(m.dice)
        find_play(pos, roll, m.answer), find_play(pos, roll, m.played)  # both legal plays of the roll
        q = question(m)
        assert q.accepts == {m.answer} and set(q.choices) == {m.answer, m.played}
        assert m.played in m.words or m.played.replace(" ", "") in m.words.replace(" ", "") or "played" in m.words
        assert "points a game" in m.words and "agrees" in m.words


def test_a_rollout_check_says_its_figures(weak_items) -> None:
    rolled = [m for m in weak_items if m.check == "rollout"]
    assert rolled
    for m in rolled:
        c = m.proof["check"]
        assert c["games"] >= 36 and c["gain"] > 2 * c["stderr"] > 0


def test_keys_are_stable_and_a_mistake_made_twice_is_one_item(weak_game, weak_items) -> None:
    again = mistakes(weak_game, FAST)
    assert [m.id for m in again] == [m.id for m in weak_items] and again == weak_items
    a = analyse(weak_game, FAST)
    twice = mistakes([a, a])
    assert [m.key for m in twice] == [m.key for m in weak_items]
    assert all(m.seen == 2 for m in twice)
    assert len({m.key for m in weak_items}) == len(weak_items)
    assert weak_items[0].key == f"{weak_items[0].position} {weak_items[0].dice}"


def test_every_source_gives_the_same_items(tmp_path: Path, weak_game, weak_items) -> None:
    assert mistakes(analyse(weak_game, FAST)) == weak_items
    assert mistakes(Match.from_games([weak_game]), FAST) == weak_items
    rec = tmp_path / "game.json"
    rec.write_text(weak_game.to_json())
    assert mistakes(rec, FAST) == weak_items
    mat = tmp_path / "game.mat"
    mat.write_text(Match.from_games([weak_game]).to_mat())
    assert [m.key for m in mistakes(str(mat), FAST)] == [m.key for m in weak_items]


def test_one_side_only(weak_game, weak_items) -> None:
    white = mistakes(weak_game, FAST, player="white")
    black = mistakes(weak_game, FAST, player="black")
    assert sorted(m.key for m in white + black) == sorted(m.key for m in weak_items)
    assert all(Position.from_string(m.position).turn == "white" for m in white)


def test_items_go_to_json_and_back(weak_items) -> None:
    back = mistakes_from_json(mistakes_to_json(weak_items))
    assert back == weak_items and [m.words for m in back] == [m.words for m in weak_items]
    with pytest.raises(LessonError, match="not a mistake record"):
        Mistake.from_json({"id": "x"})


def test_minigam_mistakes_are_checked_by_the_exact_table() -> None:
    table = solve(3, progress=False)
    v = find_variant("minigam", checkers=3)
    found = []
    for seed in range(11, 16):
        g = bot_game(v, RandomBot(seed), PerfectMiniGamBot(table), seed=seed)
        found += mistakes(g, Options(evaluator=table))
    assert found and all(m.check == "exact" for m in found)
    for m in found:
        pos = Position.from_string(m.position)
        after = {o: table.value_board_after(_board(find_play(pos, Roll.parse(m.dice), o)), pos.opponent_off)
                 for o in (m.answer, m.played)}
        assert after[m.answer] == pytest.approx(m.proof["values"][m.answer])
        assert after[m.answer] > after[m.played]


def _board(play):
    from backgammon_lab.analysis.nets import play_board

    return play_board(play)


def test_bear_off_mistakes_are_checked_by_the_bear_off_table() -> None:
    start = Position.from_string("standard/w/6x3,5x3,4x3,3x2,2x2,1x2/6x3,5x3,4x3,3x2,2x2,1x2")
    found = []
    for seed in range(1, 6):
        found += mistakes(bot_game("standard", RandomBot(seed), HeuristicBot(), seed=seed, position=start), FAST)
    assert found and {m.check for m in found} == {"bear-off"}


def test_bad_sources_are_refused(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match="not 42"):
        mistakes(42)
    with pytest.raises(LessonError, match="no file"):
        mistakes(str(tmp_path / "missing.mat"))
    junk = tmp_path / "junk.txt"
    junk.write_text("hello")
    with pytest.raises(LessonError, match="junk.txt"):
        mistakes(junk)
    with pytest.raises(LessonError, match="'red'"):
        mistakes(Game("standard"), player="red")


# -- the Anki deck ---------------------------------------------------------------------------------
def read_deck(path: Path, tmp_path: Path) -> tuple[list[tuple[str, str, str]], dict[str, str], zipfile.ZipFile]:
    z = zipfile.ZipFile(path)
    db = tmp_path / "collection.anki2"
    db.write_bytes(z.read("collection.anki2"))
    con = sqlite3.connect(db)
    try:
        notes = con.execute("select guid, flds, tags from notes order by id").fetchall()
        decks = con.execute("select decks from col").fetchone()[0]
    finally:
        con.close()
    import json

    return notes, json.loads(z.read("media")), z if str(DECK_ID) in decks else None  # type: ignore[return-value]


def test_the_deck_holds_one_note_an_item(tmp_path: Path, weak_items) -> None:
    course = [p for p in load_puzzles()][:4]
    items = [*weak_items, *course, weak_items[0]]  # an item given twice is one note
    out = export_anki(items, tmp_path / "deck.apkg")
    notes, media, z = read_deck(out, tmp_path)
    assert z is not None  # the deck with our fixed id
    unique = [*weak_items, *course]
    assert len(notes) == len(unique)
    assert [n[0] for n in notes] == [genanki.guid_for("backgammon_lab", item_key(i)) for i in unique]
    for (_guid, flds, tags), item in zip(notes, unique, strict=True):
        front, back, key = flds.split("\x1f")
        q = question(item)
        assert key == item_key(item).replace("&", "&amp;")
        assert "<img src='bgl-" in front and q.goal in front and all(label in front for label in q.labels)
        assert q.solution in back
        assert all(v.replace("'", "&#x27;") in back for v in q.values)
        assert item.position.split("/")[0] in tags
    assert len(media) == len(set(media.values())) and all(n.endswith(".svg") for n in media.values())
    for i, name in media.items():
        assert z.read(i).startswith(b"<svg") and name.startswith("bgl-")
    # the back draws the better play
    first_back = next(n for n in media.values() if n.endswith("back.svg"))
    assert b"arrow" in z.read(next(i for i, n in media.items() if n == first_back))


def test_the_deck_is_the_same_bytes_for_the_same_items(tmp_path: Path, weak_items) -> None:
    a = export_anki(weak_items, tmp_path / "a.apkg")
    b = export_anki(list(weak_items), tmp_path / "b.apkg")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()


def test_a_deck_of_course_drills_and_bad_input(tmp_path: Path) -> None:
    from backgammon_lab.analysis.strategy import DRILLS

    out = export_anki(DRILLS[:3], tmp_path / "drills.apkg")
    notes, _media, _z = read_deck(out, tmp_path)
    assert len(notes) == 3
    with pytest.raises(LessonError, match="at least one"):
        export_anki([], tmp_path / "x.apkg")
    with pytest.raises(LessonError, match="not 'nope'"):
        export_anki(["nope"], tmp_path / "x.apkg")  # type: ignore[list-item]
    with pytest.raises(LessonError, match="file name"):
        export_anki(DRILLS[:1], tmp_path)


def test_mexican_naming_mistakes_are_puzzles_too() -> None:
    from backgammon_lab.widgets.strategy import QuestionWidget

    g = bot_game("mexican", RandomBot(5), NetBot(), seed=5)
    found = mistakes(g, FAST)
    named = [m for m in found if m.kind == "name"]
    assert named and all(m.check == "rollout" and Roll.parse(m.dice).is_mexican for m in named)
    m = named[0]
    assert m.key == f"{m.position} {m.dice} name"
    assert m.answer in "123456" and m.played in "123456" and m.answer != m.played
    assert f"naming {m.played}-{m.played}" in m.words and f"naming {m.answer}-{m.answer}" in m.words
    wdg = QuestionWidget(m)
    wdg.answer(m.played)
    assert not wdg.solved
    wdg.answer(m.answer)
    assert wdg.solved and wdg.stars == 2 and m.words in wdg.feedback
