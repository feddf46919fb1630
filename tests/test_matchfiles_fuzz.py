"""The game-file readers on hostile bytes (issue 60): mutated copies of the repository's match files,
deep SGF nesting, giant numbers, other encodings and line ends. Whatever the bytes, ``load_match``
raises only the project's errors (never an internal fault), and whatever it reads, its writer
writes so that the reader reads the same match back.

The suite runs a short run (a few seconds). The long run (docs/files.md) raises the count:
``BACKGAMMON_LAB_FUZZ_EXAMPLES=10000 .venv/bin/python -m pytest tests/test_matchfiles_fuzz.py -q -s``.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon_lab.errors import BackgammonError
from backgammon_lab.matchfiles import Match, MatchFileError, load_match, read_match

DATA = Path(__file__).parent / "data" / "matchfiles"
#: Examples of each fuzz test: a few seconds in the suite; the long run sets more.
EXAMPLES = int(os.environ.get("BACKGAMMON_LAB_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 25, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _one_game_mat() -> bytes:
    """Game 1 of the .mat fixture alone (a quick file to mutate)."""
    text = (DATA / "alice_bob_3pt.mat").read_text()
    return text[: text.index(" Game 2")].encode()


def _seeds() -> list[bytes]:
    seeds = [p.read_bytes() for p in sorted(DATA.iterdir()) if p.suffix in (".mat", ".sgf", ".txt")]
    seeds.append(_one_game_mat())
    seeds.extend(p.read_bytes() for p in sorted((DATA / "lenient").glob("*.mat")))
    return seeds


SEEDS = _seeds()


def key(m: Match) -> Any:
    """What a round trip keeps: players, length, and each game's number, positions, rolls, cube
    actions, result and score."""
    return (m.players, m.length, m.variant.name,
            [(g.number, [s.position for s in g.game.states], [a for a in g.actions if "play" not in a],
              g.cube, g.result, g.score) for g in m.games])


def formats(m: Match) -> list[str]:
    return ["mat", "sgf"] if m.variant.name == "standard" else ["variant"]


def check_bytes(data: bytes) -> Match | None:
    """Load ``data`` as a file: a Match or a project error, never another exception; what reads
    round-trips in each format it can be written in."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "fuzz.mat"
        path.write_bytes(data)
        try:
            m = load_match(path, keep_games=bool(data[:1] == b" "))
        except BackgammonError as e:
            assert "internal fault" not in str(e), str(e)
            assert isinstance(e, MatchFileError), repr(e)
            return None
    if not m.games:
        return m
    for fmt in formats(m):
        try:
            text = m.write(fmt)
        except BackgammonError as e:  # a writer may refuse what it cannot hold, in words
            assert "internal fault" not in str(e), str(e)
            continue
        again = read_match(text, fmt)
        assert key(again) == key(m), (fmt, text[:2000])
    return m


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """One to four random edits of ``data``: bytes flipped, cut, doubled, moved, line ends and tabs,
    a BOM, another encoding, giant numbers, deep nesting."""
    out = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        kind = rnd.randrange(13)
        n = len(out)
        at = rnd.randrange(n + 1) if n else 0
        if kind == 0 and n:  # flip bytes
            for _ in range(rnd.randint(1, 8)):
                out[rnd.randrange(n)] = rnd.randrange(256)
        elif kind == 1:  # truncate
            del out[at:]
        elif kind == 2 and n:  # delete a stretch
            del out[at:at + rnd.randint(1, 200)]
        elif kind == 3 and n:  # repeat a stretch
            j = min(n, at + rnd.randint(1, 400))
            out[at:at] = out[at:j] * rnd.randint(1, 3)
        elif kind == 4:  # insert random bytes
            out[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 30)))
        elif kind == 5:  # line ends
            end = rnd.choice([b"\r\n", b"\r", b"\n\r", b"\x0b", b"\x85"])
            text = bytes(out).split(b"\n")
            out = bytearray(b"".join(t + (end if rnd.random() < 0.5 else b"\n") for t in text))
        elif kind == 6:  # tabs for spaces
            out = bytearray(bytes(out).replace(b"  ", b"\t", rnd.randint(1, 50)))
        elif kind == 7:  # a byte-order mark
            out[0:0] = rnd.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])
        elif kind == 8:  # another encoding
            text = bytes(out).decode("utf-8", "replace")
            enc = rnd.choice(["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252", "utf-8-sig"])
            out = bytearray(text.encode(enc, "replace"))
        elif kind == 9:  # a giant number in place of a digit
            digits = [i for i, c in enumerate(out) if 48 <= c <= 57]
            if digits:
                i = rnd.choice(digits)
                out[i:i + 1] = rnd.choice([b"100000000000000000007", str(2 ** 64).encode(), b"99999", b"1" + b"0" * 4400])
        elif kind == 10:  # deep nesting
            depth = rnd.choice([50, 1000, 100_000])
            out[at:at] = (b"(" * depth + b";") if rnd.random() < 0.7 else b"(;" * depth
        elif kind == 11:  # a swapped line
            lines = bytes(out).split(b"\n")
            if len(lines) > 2:
                i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            out = bytearray(b"\n".join(lines))
        elif kind == 12 and n:  # a word of the format in a random place
            word = rnd.choice([b"Game 2", b"; [Player 1 \"x\"]", b"Wins 3 points", b"Doubles => 2", b"Takes",
                               b"Drops", b"??? ", b"; connection lost", b"(;", b")", b"]", b"\\", b"RE[W+64F]",
                               b"MI[length:99999999999999999999]", b"W[double]", b": ", b" 0 point match"])
            out[at:at] = word
    return bytes(out)


@FUZZ
@given(st.integers(0, len(SEEDS) - 1), st.integers(0, 2 ** 32))
def test_mutated_match_files_raise_only_project_errors_and_round_trip(seed: int, salt: int) -> None:
    check_bytes(mutate(SEEDS[seed], random.Random(salt)))


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes_raise_only_project_errors(data: bytes) -> None:
    check_bytes(data)
    check_bytes(b"(;" + data)
    check_bytes(b" 1 point match\n Game 1\n" + data)


@pytest.mark.parametrize("text", [
    "(" * 100_000 + ";FF[4]GM[6]" + ")" * 100_000,
    "(;" * 50_000,
    "(;FF[4]GM[6]" + "(;W[31fehe]" * 20_000,
    "(;FF[4]GM[6]MI[length:100000000000000000000]PW[a]PB[b];W[31fehe])",
    "(;FF[4]GM[6]MI[length:5][game:" + "9" * 5000 + "];W[31fehe])",
    " 100000000000000000000 point match\n\n Game 1\n a : 0  b : 0\n",
    " 5 point match\n\n Game 100000000000000000001\n a : 0  b : 0\n  1) 31: 8/5 6/5\n",
    " 5 point match\n\n Game 1\n a : 99999999999999999999  b : 0\n  1) 31: 8/5 6/5\n",
    " 0 point match\n\n Game 1\n a : 0    b : 0\n  1) 31: 8/5 6/5\n" + "  2)  Doubles => 2   Takes\n" * 40,
    "; [Player 1 \"" + "x" * 50_000 + "\"]\n 1 point match\n Game 1\n",
    "; [" + " " * 9000 + "a \n 1 point match\n Game 1\n",
    "a" + " " * 9000 + ":1" + " " * 9000 + "\n",
])
def test_hostile_texts_are_refused_in_words(text: str) -> None:
    """Deep nesting, 20-digit and 5,000-digit numbers, long lines: each refused with a MatchFileError
    (or read), never a RecursionError or another fault."""
    try:
        m = read_match(text)
    except MatchFileError as e:
        assert "internal fault" not in str(e)
        return
    for fmt in formats(m):
        assert key(read_match(m.write(fmt), fmt)) == key(m)


def test_deep_sgf_nesting_is_refused_naming_the_place() -> None:
    with pytest.raises(MatchFileError, match=r"ends inside a game tree: 100,000 '\)' missing"):
        read_match("(" * 100_000 + ";FF[4]GM[6]")
    with pytest.raises(MatchFileError, match=r"unexpected '\?' in the SGF text at character 1,008, line 2"):
        read_match("(" * 1000 + "\n;GM[6]?")


def test_a_many_megabyte_file_is_read_or_refused_in_time(tmp_path: Path) -> None:
    """A file of many megabytes of games: read (linear in its size), or refused in words."""
    one = (DATA / "alice_bob_5pt.sgf").read_text()
    path = tmp_path / "big.sgf"
    path.write_text(one * 2000)  # 1.7 MB: game 1 follows game 2 at 0-0, so the score line refuses it
    with pytest.raises(MatchFileError, match="score"):
        load_match(path)
    path.write_bytes(b"\x00\xff" * 3_000_000)
    with pytest.raises(MatchFileError):
        load_match(path)
