"""errors.whole_number: the one check of a whole number given by a caller or on the command line."""

from __future__ import annotations

import argparse
import time

import numpy as np
import pytest

from backgammon_lab.cli import main, positive_int, seed_int
from backgammon_lab.errors import AnalysisError, BackgammonError, whole_number

MINIGAM = "minigam/w/barx8/barx8"


@pytest.mark.parametrize("value, expected", [
    (5, 5), (0, 0), (-3, -3), (np.int64(4), 4), ("7", 7), (" +07 ", 7), ("-12", -12), ("000", 0), (10**40, 10**40),
])
def test_whole_numbers_are_read(value: object, expected: int) -> None:
    got = whole_number(value, "n", text=True)
    assert got == expected and type(got) is int


@pytest.mark.parametrize("value", ["7", " 3 ", "0"])
def test_text_is_read_only_when_asked(value: str) -> None:
    """A caller of the library gives numbers; only the command line gives text."""
    with pytest.raises(BackgammonError) as info:
        whole_number(value, "games", 0)
    assert str(info.value) == f"games: expected a whole number of at least 0, not {value!r}"
    assert whole_number(value, "games", 0, text=True) == int(value)


@pytest.mark.parametrize("value", [True, False, 2.0, float("nan"), None, "", " ", "1.0", "1e3", "0x10", "²", "\u0663",
                                   "1_000", "+-1", "--1", "seven", [1], b"1"])
def test_what_is_no_whole_number_is_refused_naming_it(value: object) -> None:
    with pytest.raises(BackgammonError) as info:
        whole_number(value, "--count", text=True)
    assert str(info.value) == f"--count: expected a whole number, not {value!r}"


def test_the_message_names_the_bound_that_was_broken() -> None:
    cases = [(("0", "--size", 1, 6), "--size: expected a whole number of at least 1, not '0'"),
             (("9", "--size", 1, 6), "--size: '9' is too large: at most 6"),
             (("x", "--size", 1, 6), "--size: expected a whole number from 1 to 6, not 'x'"),
             (("x", "--size", 1, None), "--size: expected a whole number of at least 1, not 'x'"),
             (("x", "--size", None, 100_000), "--size: expected a whole number of at most 100,000, not 'x'"),
             ((-1, "", 0, None), "expected a whole number of at least 0, not -1")]
    for args, message in cases:
        with pytest.raises(BackgammonError) as info:
            whole_number(*args, text=True)
        assert str(info.value) == message
    assert whole_number("6", "--size", 1, 6, text=True) == 6 and whole_number("1", "--size", 1, 6, text=True) == 1


def test_the_error_class_is_the_callers() -> None:
    with pytest.raises(AnalysisError, match="games: expected a whole number of at least 1, not 0"):
        whole_number(0, "games", 1, error=AnalysisError)


def test_long_text_is_refused_without_being_converted() -> None:
    huge = "9" * 1_000_000
    t = time.perf_counter()
    for text, lo, hi, words in ((huge, 1, 10, "is too large: at most 10"),
                                ("-" + huge, 1, 10, "of at least 1"),
                                ("0" * 5000 + "7", 1, 10, None),  # leading zeros are not digits that count
                                ("1" * 5000, None, None, "a number of 5000 digits, too long to read (at most 4300)")):
        if words is None:
            assert whole_number(text, "n", lo, hi, text=True) == 7
            continue
        with pytest.raises(BackgammonError) as info:
            whole_number(text, "n", lo, hi, text=True)
        assert words in str(info.value) and len(str(info.value)) < 400
    assert time.perf_counter() - t < 0.5


def test_just_past_a_bound_of_many_digits_is_still_exact() -> None:
    largest = 2**63 - 1
    assert whole_number(str(largest), "", 0, largest, text=True) == largest
    with pytest.raises(BackgammonError, match="is too large"):
        whole_number(str(largest + 1), "", 0, largest, text=True)
    with pytest.raises(BackgammonError, match="is too large"):
        whole_number("1" + "0" * 19, "", 0, largest, text=True)  # 20 digits: past the bound without converting


def test_the_command_line_types_use_it() -> None:
    assert positive_int("3") == 3 and seed_int("0") == 0 and seed_int(str(2**63 - 1)) == 2**63 - 1
    for parse, text, message in ((positive_int, "0", "expected a whole number of at least 1, not '0'"),
                                 (seed_int, "-1", "expected a whole number of at least 0, not '-1'"),
                                 (seed_int, str(2**63), f"'{2**63}' is too large: at most 9,223,372,036,854,775,807")):
        with pytest.raises(argparse.ArgumentTypeError) as info:
            parse(text)
        assert str(info.value) == message


@pytest.mark.parametrize("argv, message", [
    (["render", MINIGAM, "--size", "0"], "--size: expected a whole number of at least 1, not '0'"),
    (["render", MINIGAM, "--size", "²"], "--size: expected a whole number from 1 to 100,000, not '²'"),
    (["render", MINIGAM, "--dice", "1-2", "--named-double", "7"], "--named-double: '7' is too large: at most 6"),
    (["hint", MINIGAM, "--dice", "2-1", "--top", "0"], "argument --top: expected a whole number of at least 1, not '0'"),
])
def test_the_commands_say_it_in_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
