"""Random matches through every writer and reader (issue 60): games played with random dice and plays,
doubles taken and dropped, resignations, forfeits, unfinished games (one stopped after its roll),
money play and matches, players named with any unicode. Each is written as .mat and as SGF, put
through the bytes of a file, and read back the same: positions, rolls, cube actions, results,
scores and names (a name the format cannot hold as it is comes back as docs/files.md says).
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_matchfiles_fuzz import EXAMPLES, key

from backgammon_lab.engine import OpeningRoll, Phase, RollDice
from backgammon_lab.game import Game
from backgammon_lab.matchfiles import Match, MatchGame, load_match, read_match
from backgammon_lab.matchfiles.model import GameBuilder, header_lines, line_text, player_names
from backgammon_lab.position import BLACK, WHITE, Roll, other
from backgammon_lab.variants import find_variant

STANDARD = find_variant("standard")
PROPS = settings(max_examples=max(6, EXAMPLES // 4), deadline=None, derandomize=EXAMPLES <= 25, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def random_game(number: int, score: tuple[int, int], length: int, rnd: random.Random) -> MatchGame:
    """One game: random rolls and plays, doubles (taken or dropped), and an end: borne off,
    resigned, forfeited or left unfinished (sometimes after the roll, before its play)."""
    b = GameBuilder(number, STANDARD, score, match_length=length)
    g: Game = b.game
    end = rnd.choice(["bearoff", "bearoff", "resign", "forfeit", "unfinished", "after roll"])
    stop_at = rnd.randint(1, 60)
    turns = 0
    while not g.is_over and b.result is None:
        st_ = g.state
        if st_.phase is Phase.OPENING:
            a, c = rnd.sample(range(1, 7), 2)
            g.roll(OpeningRoll(a, c))
        elif st_.phase is Phase.ROLL:
            turns += 1
            if turns >= stop_at and end != "bearoff":
                break
            player = st_.player
            if rnd.random() < 0.08 and b.owner in (None, player) and b.value < 64:
                b.cube_action(player, "double", None, None, None)
                b.cube_action(other(player), "take" if rnd.random() < 0.7 else "drop", None, None, None)
                continue
            g.roll(RollDice(Roll(rnd.randint(1, 6), rnd.randint(1, 6))))
            if end == "after roll" and turns + 1 >= stop_at and g.state.phase is Phase.PLAY:
                break
        elif st_.phase is Phase.PLAY:
            assert st_.plays is not None
            g.play(st_.plays[rnd.randrange(len(st_.plays))])
    if b.result is None and not g.is_over:
        winner = rnd.choice([WHITE, BLACK])
        if end == "resign" and not b.waiting_for_play:
            b.finish(winner, b.value * rnd.randint(1, 3), None, None)
        elif end == "forfeit":
            b.finish(winner, rnd.randint(1, 9), None, None, forfeit=True)
    return b.build(unfinished=True)


def random_match(rnd: random.Random, names: tuple[str, str], length: int, site: str) -> Match:
    games: list[MatchGame] = []
    score = (0, 0)
    for n in range(1, rnd.randint(1, 4) + 1):
        mg = random_game(n, score, length, rnd)
        games.append(mg)
        if mg.result is not None:
            s = list(score)
            s[0 if mg.result.winner == WHITE else 1] += mg.result.points
            score = (s[0], s[1])
            if length and max(score) >= length:
                break
    return Match(STANDARD, names, length, {"Site": site}, games)


def expect(m: Match, fmt: str) -> Match:
    """The match as the format reads it back: names on one line, an empty name the default."""
    defaults = ("Player 1", "Player 2") if fmt == "mat" else ("White", "Black")
    return Match(m.variant, player_names(m.players, defaults), m.length, m.headers, m.games)


@PROPS
@given(st.integers(0, 2 ** 32), st.text(max_size=40), st.text(max_size=40), st.sampled_from([0, 0, 1, 3, 5, 7, 25]),
       st.text(max_size=30))
def test_random_matches_survive_every_writer_and_reader(tmp_path_factory, salt: int, a: str, b: str, length: int,
                                                        site: str) -> None:
    m = random_match(random.Random(salt), (a, b), length, site)
    path: Path = tmp_path_factory.mktemp("rt") / "m"
    for fmt in ("mat", "sgf"):
        text = m.write(fmt)
        path.write_bytes(text.encode("utf-8"))
        back = load_match(path, fmt)
        assert key(back) == key(expect(m, fmt)), (fmt, text[:3000])
        assert key(read_match(back.write(fmt), fmt)) == key(back)  # and once more, the same
        if fmt == "mat":
            assert back.headers["Site"] == line_text(site)
        else:
            assert back.headers.get("Site", "") == site


@PROPS
@given(st.text(max_size=60))
def test_any_header_value_is_written_on_one_line_and_read_back(value: str) -> None:
    from backgammon_lab.matchfiles.model import header_line

    (line,) = header_lines({"Event": value}, {})
    assert len(line.splitlines()) == 1
    assert header_line(line) == ("Event", line_text(value))


def test_names_a_mat_file_cannot_hold_whole_are_replaced_as_documented() -> None:
    """A line break in a name becomes a space; ' : ', quotes and 'Wins' are kept; an empty name
    is 'Player 1' (SGF: 'White')."""
    games = [Game("standard", seed=4).play_random()]
    m = Match.from_games(games, players=('a : 3 : 2', 'y"]\nz'), length=0)
    back = Match.from_mat(m.to_mat())
    assert back.players == ("a : 3 : 2", 'y"] z')
    assert key(back)[2:] == key(m)[2:]
    m2 = Match.from_games(games, players=("", "Wins 1 point"))
    assert Match.from_mat(m2.to_mat()).players == ("Player 1", "Wins 1 point")
    assert Match.from_sgf(m2.to_sgf()).players == ("White", "Wins 1 point")
    m3 = Match.from_games(games, players=("x]\\", "1) 31: 8/5 6/5"))
    assert Match.from_sgf(m3.to_sgf()).players == m3.players == Match.from_mat(m3.to_mat()).players
