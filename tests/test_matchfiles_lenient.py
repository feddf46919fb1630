"""What real files hold beyond the format (issue 60), read as GNU Backgammon reads it: comment lines
that end a game, money play whose score lines restart, ``???`` moves; and every other fault still
refused naming the game, the move, the text and the rule. The examples are in
tests/data/matchfiles/lenient/ (docs/files.md has a row for each)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from backgammon_lab.engine import Phase
from backgammon_lab.matchfiles import GameResult, Match, MatchFileError, load_match, read_match

LENIENT = Path(__file__).parent / "data" / "matchfiles" / "lenient"
HEAD = '; [Player 1 "alice"]\n; [Player 2 "bob"]\n\n 5 point match\n\n Game 1\n alice : 0                      bob : 0\n'
OPENING = "  1) 31: 8/5 6/5                 64: 24/18 18/14\n"


def test_a_forfeit_line_naming_the_winner_ends_the_game_and_awards_the_match() -> None:
    m = load_match(LENIENT / "forfeit.mat")
    assert m[1].result == GameResult("black", 5, "forfeit")
    assert m.score == (0, 5)


def test_a_lost_connection_takes_the_winner_and_points_from_the_next_score_line() -> None:
    m = load_match(LENIENT / "connection_lost.mat")
    assert m[1].result == GameResult("white", 2, "forfeit")
    assert m[2].score == (2, 0) and m[2].result is None  # the last game: unfinished


def test_an_aborted_game_is_kept_unfinished_and_plays_on_from_there() -> None:
    m = load_match(LENIENT / "aborted.mat")
    g = m.game(1)
    assert m[1].result is None and g.state.phase is Phase.PLAY  # the 4-2 waits for its play
    g.play("8/4 6/4")
    assert g.state.phase is Phase.ROLL and g.position.turn == "black"


def test_money_play_score_lines_may_restart_at_zero() -> None:
    m = load_match(LENIENT / "money_restarts.mat")
    assert [g.score for g in m.games] == [(0, 0), (0, 0)] and m.score == (1, 1)
    text = (LENIENT / "money_restarts.mat").read_text().replace(" 0 point match", " 5 point match")
    with pytest.raises(MatchFileError, match="game 2 .*the score before this game is 0-0, but the games before "
                                             "it make 1-0"):
        read_match(text)


def test_an_unknown_move_after_the_game_ends_is_read_past() -> None:
    m = load_match(LENIENT / "unknown_after_end.mat")
    assert m[1].result == GameResult("white", 1, "drop") and len(m[1].actions) == 4


def test_an_unknown_move_then_wins_is_a_resignation() -> None:
    m = read_match(HEAD + OPENING + "  2) 42: ???\n                                 Wins 1 point\n")
    assert m[1].result == GameResult("black", 1, "resign")


def test_comment_lines_inside_a_game_are_read_past_and_play_after_an_ending_one_goes_on() -> None:
    m = read_match(HEAD + OPENING + " ; connection lost\n ; reconnected\n  2) 42: 8/4 6/4\n")
    assert m[1].result is None and len(m[1].actions) == 6 and m.game(1).state.phase is Phase.ROLL


def test_after_an_ending_comment_wins_may_give_any_points_as_a_forfeit() -> None:
    m = read_match(HEAD + OPENING + " ; alice abandoned the match\n                                 Wins 4 points\n")
    assert m[1].result == GameResult("black", 4, "forfeit")
    m = read_match(HEAD + OPENING + " ; alice resigns\n                                 Wins 2 points\n")
    assert m[1].result == GameResult("black", 2, "resign")


def test_an_ending_comment_that_names_nobody_leaves_the_game_unfinished() -> None:
    m = read_match(HEAD + OPENING + " ; match aborted by tournament server\n")
    assert m[1].result is None and len(m) == 1


def test_other_faults_are_still_refused_with_game_move_text_and_rule() -> None:
    with pytest.raises(MatchFileError) as info:
        read_match(HEAD + OPENING + " ; connection lost\n  2) 42: 8/4 8/4\n")
    e = info.value
    assert (e.game, e.move, e.text) == (1, 2, "42: 8/4 8/4") and "not a legal play of 42" in str(e)
    with pytest.raises(MatchFileError, match="game 1, move 2 '42:': .*written without a move, but it has legal plays"):
        read_match(HEAD + OPENING + "  2) 42:                        31: 8/5 6/5\n")


def test_a_game_that_stops_after_a_roll_without_its_move_is_unfinished_or_ended_by_the_next_score() -> None:
    """As a server's file ends when a player leaves after rolling (FIBS matches exported by Snowie)."""
    m = read_match(HEAD + OPENING + "  2) 42:\n")
    assert m[1].result is None and m.game(1).state.phase is Phase.PLAY
    m = read_match(HEAD + OPENING + "  2) 42:\n\n Game 2\n alice : 0                      bob : 1\n" + OPENING)
    assert m[1].result == GameResult("black", 1, "resign") and m[2].score == (0, 1)


def test_keep_games_keeps_the_games_before_a_fault_after_a_lenient_one() -> None:
    text = (LENIENT / "connection_lost.mat").read_text() + "  2) 66: 8/2(4)\n"
    m = read_match(text, keep_games=True)
    assert len(m) == 1 and m[1].result == GameResult("white", 2, "forfeit")
    assert m.error is not None and m.error.game == 2 and "(the 1 game before it was kept)" in str(m.error)


def test_sgf_forfeits_and_unfinished_games_round_trip() -> None:
    for name in ("forfeit.mat", "aborted.mat", "connection_lost.mat"):
        m = load_match(LENIENT / name)
        for fmt in ("mat", "sgf"):
            back = read_match(m.write(fmt), fmt)
            assert [(g.result, g.score, g.cube, len(g.actions)) for g in back.games] == \
                [(g.result, g.score, g.cube, len(g.actions)) for g in m.games], (name, fmt)
    assert "RE[B+5F]" in load_match(LENIENT / "forfeit.mat").to_sgf()
    assert "????" in load_match(LENIENT / "aborted.mat").to_mat()


def test_encodings_and_line_ends_are_read(tmp_path: Path) -> None:
    text = (LENIENT / "forfeit.mat").read_text().replace("alice", "Aurélie")
    want = Match.from_mat(text)
    for enc, data in [("utf-16", text.encode("utf-16")), ("latin-1", text.encode("latin-1")),
                      ("utf-8-sig", text.encode("utf-8-sig")), ("crlf", text.replace("\n", "\r\n").encode()),
                      ("cr", text.replace("\n", "\r").encode())]:
        path = tmp_path / f"{enc}.mat"
        path.write_bytes(data)
        got = load_match(path)
        assert got.players == want.players == ("Aurélie", "gobetzu") and got[1].result == want[1].result, enc


def test_the_cli_says_which_format_it_took_the_file_for(tmp_path: Path) -> None:
    deep = tmp_path / "deep.sgf"
    deep.write_text("(" * 5000 + ";FF[4]GM[6]")
    bad = tmp_path / "bad.mat"
    bad.write_text(HEAD + "  1) 31: 8/5 6/6\n")
    for path, says in [(deep, "read as GNU Backgammon SGF: the SGF text ends inside a game tree: 5,000 ')' missing"),
                       (bad, "read as Jellyfish .mat text: game 1, move 1 '31: 8/5 6/6': not a legal play")]:
        r = subprocess.run([sys.executable, "-m", "backgammon_lab", "analyse", str(path)], capture_output=True,
                           text=True, check=False)
        assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_losers_line_with_a_move_number_and_wins_on_the_same_line_are_read() -> None:
    """Backgammon Galaxy: ' 24) 43: 21/18 18/14   24)  Losses 1 point    Wins 1 point and the match'."""
    text = HEAD.replace("5 point", "1 point") + "  1) 31: 8/5 6/5              1)  Losses 1 point" + " " * 20 + \
        "Wins 1 point and the match\n"
    m = read_match(text)
    assert m[1].result == GameResult("white", 1, "resign")
