"""Game files (issue 21): Jellyfish .mat, GNU Backgammon SGF, XGID and the .mat-style text of
Mexican and Mini-Gam, read and written, every move replayed through the engine.

The hand-written fixtures are in tests/data/matchfiles/. Real match files written by other
programs are read from the folder named by BACKGAMMON_LAB_MATCH_FILES (see
tests/data/matchfiles/README.md for where to get them); those tests skip when it is not set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from backgammon_lab import Position
from backgammon_lab.errors import BackgammonError, NotationError
from backgammon_lab.game import Game
from backgammon_lab.matchfiles import (
    CubeAction,
    GameResult,
    Match,
    MatchFileError,
    MatchGame,
    load_match,
    looks_like_match_file,
    read_match,
    read_xgid,
    xgid,
)
from backgammon_lab.variants import find_variant

DATA = Path(__file__).parent / "data" / "matchfiles"
MAT = DATA / "alice_bob_3pt.mat"
SGF = DATA / "alice_bob_5pt.sgf"
MEXICAN = DATA / "mexican_game.txt"


def positions(g: MatchGame) -> list[Position]:
    return [s.position for s in g.game.states]


def same_games(a: Match, b: Match) -> None:
    """Same games: every position, cube action, result and score."""
    assert len(a) == len(b)
    for x, y in zip(a.games, b.games, strict=True):
        assert positions(x) == positions(y), x.number
        assert x.cube == y.cube and x.result == y.result and x.score == y.score, x.number


# -- Jellyfish .mat ----------------------------------------------------------------------------


def test_mat_reads_headers_length_scores_and_players() -> None:
    m = load_match(MAT)
    assert m.players == ("alice", "bob") and m.length == 3
    assert m.headers["Site"] == "backgammon_lab tests" and m.headers["EventDate"] == "2026.12.01"
    assert [g.score for g in m.games] == [(0, 0), (0, 2), (1, 2), (2, 2)]
    assert m.score == (5, 2)
    assert [g.crawford for g in m.games] == [False, True, False, False]


def test_mat_cube_actions_are_kept_and_counted_in_the_points() -> None:
    m = load_match(MAT)
    g1, _, g3, _ = m.games
    assert [(c.player, c.kind, c.value) for c in g1.cube] == [("white", "double", 2), ("black", "take", 2)]
    assert g1.cube_value == 2
    assert g1.result == GameResult("black", 2, "resign")  # a single game resigned with the cube at 2
    assert [(c.player, c.kind) for c in g3.cube] == [("white", "double"), ("black", "drop")]
    assert g3.result == GameResult("white", 1, "drop")
    # the cube actions sit between the game's actions: after the opening, 5 rolls and 5 plays
    assert g1.cube[0].before == g1.cube[1].before == 10
    assert g1.game.record()["actions"][10] == {"roll": [6, 5]}
    items = list(g1.items())
    k = next(i for i, (kind, _) in enumerate(items) if kind == "cube")
    assert items[k - 1][0] == "action" and "play" in items[k - 1][1]


def test_mat_results_bear_off_gammon_and_backgammon_points() -> None:
    m = load_match(MAT)
    assert m.games[1].result == GameResult("white", 1, "bearoff")
    last = m.games[3]
    assert last.game.is_over and last.result == GameResult("white", 3, "bearoff") and last.game.points == 3
    assert "Wins 3 points and the match" in m.to_mat()


def test_mat_move_notations_all_read() -> None:
    """Doubles written four times and with (2) or (3), bar as 25 and as bar, off as 0 and as off,
    a checker's two steps as one (bar/23/18), hits marked *."""
    text = MAT.read_text(encoding="utf-8")
    for written in ("13/9(2) 9/5(2)", "8/3(3)", "13/11 8/6 8/6 6/4", "bar/20", "25/24", "4/off", "3/0",
                    "bar/23/18", "13/12*"):
        assert written in text
    m = read_match(text)
    g1 = m.game(1)
    plays = [a["play"] for a in g1.record()["actions"] if "play" in a]
    assert plays[1] == "13/9(2) 9/5(2)" and plays[2] == "13/8 8/3(3)"
    assert "bar/20 24/20" in plays
    assert m.count_moves() == sum(1 for g in m.games for a in g.actions if "play" in a) > 100


def test_mat_round_trip_same_moves_and_positions() -> None:
    m = load_match(MAT)
    text = m.to_mat()
    again = Match.from_mat(text)
    same_games(m, again)
    assert again.to_mat() == text
    assert again.players == m.players and again.length == m.length


def test_mat_writes_each_player_in_its_column() -> None:
    text = load_match(MAT).to_mat()
    assert "  1)                             54: 8/3 6/2" in text  # Black moves first: the left is empty
    assert "Doubles => 2" in text and "Takes" in text and "Drops" in text
    assert " alice : 0                      bob : 0" in text


# -- SGF ---------------------------------------------------------------------------------------


def test_sgf_reads_games_cube_and_results() -> None:
    m = load_match(SGF)
    assert m.players == ("alice", "bob") and m.length == 5 and m.headers["Event"] == "Test event"
    assert [g.score for g in m.games] == [(0, 0), (0, 2)]
    assert m.games[0].result == GameResult("black", 2, "resign")
    assert m.games[1].result == GameResult("white", 1, "drop")
    assert [c.kind for c in m.games[0].cube] == ["double", "take"]


def test_sgf_and_mat_of_the_same_games_agree() -> None:
    """The SGF fixture holds games 1 and 3 of the .mat fixture, in a 5-point match."""
    sgf, mat = load_match(SGF), load_match(MAT)
    assert positions(sgf.games[0]) == positions(mat.games[0])
    assert positions(sgf.games[1]) == positions(mat.games[2])


def test_sgf_round_trip_and_mat_to_sgf_to_mat() -> None:
    m = load_match(SGF)
    same_games(m, Match.from_sgf(m.to_sgf()))
    mat = load_match(MAT)
    same_games(mat, Match.from_mat(Match.from_sgf(mat.to_sgf()).to_mat()))


def test_sgf_letters_are_each_players_own_numbering() -> None:
    from backgammon_lab.matchfiles.sgf import sgf_move_text

    assert sgf_move_text("lpab", "black") == "13/9 24/23"
    assert sgf_move_text("fehe", "white") == "6/5 8/5"
    assert sgf_move_text("yvhz", "white") == "bar/22 8/off"


def test_sgf_refuses_setup_positions_and_other_games() -> None:
    with pytest.raises(MatchFileError, match="set up from a position"):
        Match.from_sgf("(;FF[4]GM[6]MI[length:1]AB[aa];W[31fehe])")
    with pytest.raises(MatchFileError, match="not backgammon"):
        Match.from_sgf("(;FF[4]GM[1];B[dd])")
    with pytest.raises(MatchFileError, match=r"']' is missing"):
        Match.from_sgf("(;FF[4]GM[6]PW[alice")


# -- errors: the game, the move and the text; nothing imported half ------------------------------

HEAD = ' 3 point match\n\n Game 1\n alice : 0                      bob : 0\n'


def test_an_illegal_move_names_the_game_the_move_and_the_text() -> None:
    text = HEAD + "  1) 31: 8/5 6/5                 64: 24/18 18/14\n  2) 42: 8/4 13/7\n"
    with pytest.raises(MatchFileError) as info:
        Match.from_mat(text)
    e = info.value
    assert (e.game, e.move, e.text) == (1, 2, "42: 8/4 13/7")
    assert "game 1, move 2 '42: 8/4 13/7': not a legal play of 42" in str(e)
    assert isinstance(e, NotationError) and isinstance(e, ValueError)


def test_unreadable_text_is_refused_quoting_it() -> None:
    with pytest.raises(MatchFileError, match=r"game 1, move 1 'banana'"):
        Match.from_mat(HEAD + "  1) 31: 8/5 6/5 banana\n")
    with pytest.raises(MatchFileError, match=r"^'hello there': cannot read this line of the header"):
        Match.from_mat("hello there\n Game 1\n")
    with pytest.raises(MatchFileError, match="no game found"):
        Match.from_mat("; [Player 1 \"a\"]\n 3 point match\n")


@pytest.mark.parametrize(("lines", "message"), [
    ("  1) 31: 8/5 6/5                 Doubles => 4\n", "the cube is at 1, so a double offers 2, not 4"),
    ("  1) 31: 8/5 6/5                 Takes\n", "no double was offered"),
    ("  1) 31: 8/5 6/5                 Doubles => 2\n  2) 42: 8/4 6/4\n", "double is not yet answered"),
    ("  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Takes                      42: 8/4 6/4\n"
     "  3)                             Doubles => 4\n", "only the player to roll"),
    ("  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Takes                      42: 8/4 6/4\n"
     "  3) 31: 8/5 6/5                 Doubles => 4\n", "white owns the cube"),
    ("  1) 33: 8/5(2) 6/3(2)\n", "cannot be doubles"),
    ("  1) 31: 8/5 6/5\n      Wins 4 points\n", "1, 2 or 3 times the cube"),
    ("  1) 31: 8/5 6/5                 42:\n  2) 31: 8/5 6/5\n", "written without a move, but it has legal plays"),
])
def test_cube_and_result_faults_are_refused(lines: str, message: str) -> None:
    with pytest.raises(MatchFileError, match=message):
        Match.from_mat(HEAD + lines)


def test_a_wrong_score_line_and_a_double_in_the_crawford_game_are_refused() -> None:
    text = MAT.read_text(encoding="utf-8")
    with pytest.raises(MatchFileError, match="game 2 'alice : 0 +bob : 1': the score before this game is 0-1, "
                                             "but the games before it make 0-2"):
        Match.from_mat(text.replace(" bob : 2\n", " bob : 1\n", 1))
    crawford = HEAD.replace("alice : 0", "alice : 2") + "  1) 31: 8/5 6/5                 Doubles => 2\n"
    with pytest.raises(MatchFileError, match="Crawford"):
        Match.from_mat('; [Crawford "On"]\n' + crawford)


def test_nothing_is_imported_half_unless_the_earlier_games_are_kept() -> None:
    text = MAT.read_text(encoding="utf-8")
    bad = text.replace("  2) 11: 24/23 8/7* 5/4 4/3", "  2) 11: 24/23 8/7* 5/4 4/2")
    with pytest.raises(MatchFileError, match="game 3, move 2"):
        Match.from_mat(bad)
    kept = Match.from_mat(bad, keep_games=True)
    assert len(kept) == 2 and kept.error is not None
    assert "the 2 games before it were kept" in str(kept.error) and kept.error.game == 3
    assert [g.result for g in kept.games] == [g.result for g in load_match(MAT).games[:2]]
    assert repr(kept).endswith("incomplete>")


def test_load_match_names_the_file() -> None:
    with pytest.raises(MatchFileError, match="cannot read the file 'no/such.mat'"):
        load_match("no/such.mat")
    assert isinstance(MatchFileError("x"), BackgammonError)


def test_a_match_game_that_does_not_exist_is_refused() -> None:
    m = load_match(MAT)
    with pytest.raises(NotationError, match="no game 5 in this match: it has 4 games"):
        m.game(5)
    assert m.game(4) is m.games[3].game


# -- the .mat-style text of Mexican and Mini-Gam ------------------------------------------------


def test_mexican_text_reads_openings_choices_names_and_chains() -> None:
    m = load_match(MEXICAN)
    assert m.variant.name == "mexican" and m.players == ("carla", "dan")
    actions = m.game(1).record()["actions"]
    assert actions[:4] == [{"opening": [4, 4]}, {"opening": [5, 3]}, {"choice": "keep"},
                           {"play": "13/10 13/8", "player": "white"}]
    assert {"name": 6} in actions and {"roll": [4, 3]} in actions
    actions2 = m.game(2).record()["actions"]
    assert actions2 == [{"opening": [2, 6]}, {"choice": "reroll"}, {"roll": [4, 1]},
                        {"play": "24/23 24/20", "player": "black"}, {"roll": [3, 3]},
                        {"play": "24/21(2) 13/10(2)", "player": "white"}, {"roll": [5, 2]},
                        {"play": "13/11 13/8", "player": "white"}]


def test_mexican_text_is_written_so_a_reader_follows_the_turn() -> None:
    m = load_match(MEXICAN)
    text = m.to_mat()
    assert '; [Variation "Mexican Backgammon"]' in text and "Opening roll: White 4, Black 4 (tie)" in text
    assert "53 kept: 13/10 13/8" in text
    assert "21: 24/23 24/22; names 6: 13/7(4); 43: 8/5 8/4" in text
    assert "62 rerolled; 41: 24/23 24/20" in text
    again = Match.from_mat(text)
    for a, b in zip(m.games, again.games, strict=True):
        assert a.game.record() == b.game.record()


@pytest.mark.parametrize("variant", ["mexican", "minigam", "minigam;bar_first=true;checkers=3"])
def test_variant_text_round_trips_with_the_json_record(variant: str) -> None:
    v = Position.from_string(f"{variant}/w/bar/bar").variant
    games = [Game(v, seed=s).play_random() for s in range(8)]
    games.append(Game(v, seed=3))  # not started
    games.append(Game(v, position=Position.start(v, "black"), seed=4).play_random())  # from a set-up position
    m = Match.from_games(games, players=("Ann", "Bob"))
    text = m.to_mat()
    again = read_match(text)
    assert again.variant == v and again.players == ("Ann", "Bob")
    for g, back in zip(games, again.games, strict=True):
        assert back.game.record() == g.record()
    assert again.score == m.score


def test_formats_refuse_the_other_games() -> None:
    mex = Match.from_games([Game("mexican", seed=1).play_random()])
    with pytest.raises(NotationError, match="standard backgammon, not Mexican"):
        mex.write("mat")
    with pytest.raises(NotationError, match="not Mexican"):
        mex.to_sgf()
    with pytest.raises(NotationError, match="written as a Jellyfish .mat file"):
        Match.from_games([Game("standard", seed=1).play_random()]).write("variant")
    with pytest.raises(MatchFileError, match="not standard backgammon"):
        Match.read('; [Variation "Nackgammon"]\n 1 point match\n Game 1\n', "mat")


# -- XGID --------------------------------------------------------------------------------------

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"


def test_xgid_of_the_start_and_its_fields() -> None:
    x = read_xgid(START)
    assert x.position == Position.start("standard") and x.position.position_id() == "4HPwATDgc/ABMA"
    assert (x.cube, x.cube_owner, x.dice, x.score, x.length, x.crawford, x.max_cube) == (1, None, (5, 2), (0, 0), 5,
                                                                                        False, 1024)
    assert x.text() == START
    assert xgid(Position.start("standard"), dice=(5, 2), length=5) == START


def test_xgid_keeps_cube_score_turn_bar_and_off() -> None:
    pos = Position.from_string("standard/b/bar,6x3,5x2,offx9/bar,24,13x3,8x3,6x4,offx3")
    text = xgid(pos, cube=4, cube_owner="white", decision="double", score=(3, 6), length=7, crawford=False,
                max_cube=256)
    x = read_xgid(text)
    assert x.position == pos and x.position.turn == "black"
    assert (x.cube, x.cube_owner, x.decision, x.score, x.length, x.max_cube) == (4, "white", "double", (3, 6), 7, 256)
    assert x.text() == text and text.split(":")[1:5] == ["2", "1", "-1", "D"]
    money = read_xgid(xgid(pos, jacoby=True, beaver=True))
    assert money.jacoby and money.beaver and money.length == 0


@pytest.mark.parametrize(("text", "message"), [
    ("XGID=-b----E-C---eE", "cannot read the XGID 'XGID=-b----E-C---eE'"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:2:52:0:0:0:5:10", "cannot read the XGID"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:5:10", "not two dice from 1 to 6"),
    ("XGID=bb----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10", "gives black 17 checkers"),
    ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10", "Black's bar, but it holds White checkers"),
])
def test_bad_xgids_are_refused_quoting_them(text: str, message: str) -> None:
    with pytest.raises(BackgammonError, match=message):
        read_xgid(text)


def test_the_cli_reads_an_xgid_where_it_reads_a_position() -> None:
    out = subprocess.run([sys.executable, "-m", "backgammon_lab", "show", START], capture_output=True, text=True)
    assert out.returncode == 0 and "white to move" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "backgammon_lab", "show", "XGID=-b--"], capture_output=True, text=True)
    assert bad.returncode == 2 and "cannot read the XGID 'XGID=-b--'" in bad.stderr


# -- notebooks and the analysis ----------------------------------------------------------------


def test_a_match_in_a_notebook_gives_games_to_step_through() -> None:
    m = Match.from_mat(MAT.read_text(encoding="utf-8"))
    g = m.game(3)
    assert isinstance(g, Game) and g.is_over is False and g.index == len(g) - 1
    g.goto(0)
    assert g.phase == "opening"
    rec = m.record()
    assert rec["games"][0]["cube"][0] == {"before": 10, "player": "white", "action": "double", "value": 2}
    assert rec["games"][0]["end"] == {"winner": "black", "points": 2, "how": "resign"}
    assert looks_like_match_file(MAT.read_text(encoding="utf-8")) and not looks_like_match_file('{"variant": 1}')
    assert isinstance(CubeAction(0, "white", "double", 2).to_json(), dict)


def test_analyse_takes_a_match_file_and_a_game_number() -> None:
    run = [sys.executable, "-m", "backgammon_lab", "analyse", str(MAT), "--game", "3", "--json"]
    out = subprocess.run(run, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    analysis = json.loads(out.stdout)
    assert analysis["variant"] == "standard" and len(analysis["decisions"]) == 6
    missing = subprocess.run(run[:-3] + ["--game", "9"], capture_output=True, text=True)
    assert missing.returncode == 2 and "no game 9 in this match: it has 4 games" in missing.stderr


# -- real files nobody here wrote --------------------------------------------------------------

REAL = os.environ.get("BACKGAMMON_LAB_MATCH_FILES")

#: Real files that hold a fault our checks find, with the message part they must raise.
KNOWN_FAULTS = {
    # bgnori/bglib (FIBS matches exported by Snowie)
    "Amirrr-nori-2009Feb151603.txt": "not 100",
    "MONSTER-nori-2009Apr112157.txt": "not 16",
    "Nori-Kenji081229.txt": "'Illegal play (",
    "Wakagashira-nori-2009Feb092110.txt": "without a move, but it has legal plays",
    "Wakagashira-nori-2009Feb092123.txt": "without a move, but it has legal plays",
    "nicksbar-nori-2009Jan302316.txt": "without a move, but it has legal plays",
    # lassehjorthmadsen/bglab (Backgammon Galaxy and Backgammon Studio)
    "Minchy - Llabba 13pt Backgammon Studio 2023_02_24 19_44_27.txt": "not 4016",
    "MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt": "not 4016",
    "match8239468.txt": "wins a gammon with the cube at 1: 2 points, not 1",
    "match8794401.txt": "wins a gammon with the cube at 1: 2 points, not 1",
    "match9665488.txt": "wins a gammon with the cube at 1: 2 points, not 1",
    "match9814649.txt": "wins a gammon with the cube at 1: 2 points, not 1",
}


def _real_files() -> list[Path]:
    if not REAL:
        return []
    root = Path(REAL)
    files = [p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix.lower() in (".mat", ".sgf", ".txt")]
    out = []
    for p in files:
        head = p.read_bytes()[:4000].decode("latin-1")
        if head.lstrip().startswith("(;") or " point match" in head:
            out.append(p)
    return out


@pytest.mark.slow
@pytest.mark.skipif(not REAL, reason="set BACKGAMMON_LAB_MATCH_FILES to a folder of real .mat/SGF files "
                                     "(tests/data/matchfiles/README.md says where to get them)")
def test_real_match_files_import_replay_export_and_reimport() -> None:
    files = _real_files()
    assert files, f"no match files under {REAL!r}"
    counts = {"files": 0, "games": 0, "moves": 0, "refused": 0}
    for path in files:
        if path.name in KNOWN_FAULTS:
            with pytest.raises(MatchFileError, match=None) as info:
                load_match(path)
            assert KNOWN_FAULTS[path.name] in str(info.value), (path.name, str(info.value))
            counts["refused"] += 1
            continue
        m = load_match(path)
        counts["files"] += 1
        counts["games"] += len(m)
        counts["moves"] += m.count_moves()
        for fmt in ("mat", "sgf"):
            same_games(m, Match.read(m.write(fmt), fmt))
    print(f"\nreal files: {counts}")
    assert counts["files"] > 0


@pytest.mark.skipif(not REAL, reason="set BACKGAMMON_LAB_MATCH_FILES (see tests/data/matchfiles/README.md)")
def test_real_gnubg_mat_and_sgf_of_one_match_agree() -> None:
    """GNU Backgammon wrote the same match as .mat and as SGF (kevung/gnubgparser's test data)."""
    root = Path(REAL or ".")
    mats = list(root.rglob("charlot1-charlot2_7p_2025-11-08-2305.mat"))
    sgfs = list(root.rglob("charlot1-charlot2_7p_2025-11-08-2305.sgf"))
    if not mats or not sgfs:
        pytest.skip("kevung/gnubgparser's test files are not in BACKGAMMON_LAB_MATCH_FILES")
    a, b = load_match(mats[0]), load_match(sgfs[0])
    same_games(a, b)
    assert a.players == b.players == ("charlot1", "charlot2") and a.length == b.length == 7


def test_match_from_games_scores_finished_games() -> None:
    games = [Game("standard", seed=s).play_random() for s in (1, 2)]
    m = Match.from_games(games, length=0)
    assert [g.score for g in m.games][0] == (0, 0)
    assert sum(m.score) == sum(g.points for g in games)
    with pytest.raises(NotationError, match="one variant a match"):
        Match.from_games([games[0], Game("mexican", seed=1)])
    assert find_variant("standard") == m.variant


def test_a_beaver_doubles_the_cube_again_and_the_beaverer_owns_it() -> None:
    text = (" 0 point match\n\n Game 1\n alice : 0                      bob : 0\n"
            "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Beavers => 4                42: 8/4 6/4\n"
            "  3)  Doubles => 8\n")
    m = Match.from_mat(text)
    assert [(c.player, c.kind, c.value) for c in m[1].cube] == [("black", "double", 2), ("white", "beaver", 4),
                                                                ("white", "double", 8)]
    same_games(m, Match.from_mat(m.to_mat()))
    same_games(m, Match.from_sgf(m.to_sgf()))
