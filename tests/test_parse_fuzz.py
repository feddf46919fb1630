"""Fuzz tests of every reader (issue 11): hypothesis strategies and mutations of valid inputs.

Every input either reads or is refused with one of the project's own errors (a ``BackgammonError``)
whose message quotes it; nothing raises ``RecursionError``, ``UnicodeDecodeError``, ``TypeError``,
a bare ``ValueError`` or hangs. Each class the issue lists has a strategy that would have found it:
deep nesting (JSON, ``;option=`` values), long digit runs (points, counts, JSON numbers, move text,
dice), Unicode digits, bytes and files, objects of the wrong type, move text asking for too many
steps, and the variant options the JSON form used to drop.

The number of inputs tried is printed at the end of the module (``pytest -s``).
"""

from __future__ import annotations

import gc
import json
import random
import time
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon_lab import (
    BackgammonError,
    Position,
    Roll,
    check_step,
    explain_step,
    find_variant,
    legal_plays,
    legal_steps,
)
from backgammon_lab.moves import coerce_step, parse_steps
from backgammon_lab.rules import apply_steps, explain_play

TRIED = {"inputs": 0}
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                database=None, derandomize=True)



def fuzz(n: int) -> settings:
    """The fuzz settings with ``n`` examples (deterministic: the same inputs every run)."""
    return settings(FUZZ, max_examples=n)


VARIANTS = [find_variant("standard"), find_variant("mexican"), find_variant("minigam"),
            find_variant("minigam", bar_first=True), find_variant("minigam", checkers=3)]


@pytest.fixture(scope="module", autouse=True)
def _report():
    for v in VARIANTS:  # load the compiled move generator first: its first call is not the input's cost
        legal_plays(Position.start(v), (3, 1))
        legal_steps(Position.start(v), (3, 1), [])  # and the step checks' kernel (compiled on first use)
    yield
    print(f"\ntest_parse_fuzz: {TRIED['inputs']} inputs tried")


def _shown(args: Any) -> str:
    """The start of ``args`` for a failure message (an int too long for ``str``, by its type)."""
    try:
        return str(args)[:200]
    except ValueError:
        return f"arguments of types {[type(a).__name__ for a in args]}"


def refused_or_read(fn: Any, *args: Any, quote: str | None = None, limit: float = 1.0) -> Any:
    """Call ``fn``: it returns, or raises a BackgammonError (quoting ``quote``); nothing else, and
    fast: within ``limit`` seconds of this process's CPU (not of the clock, which other work on
    the machine can hold up), the garbage collector paused meanwhile (a full collection in a
    process holding the compiled kernels took 1.6 s once: not the input's cost)."""
    TRIED["inputs"] += 1
    collecting = gc.isenabled()
    gc.disable()
    t0 = time.process_time()
    try:
        return fn(*args)
    except BackgammonError as e:
        assert isinstance(e, ValueError)
        if quote is not None:
            assert repr(quote)[:25] in str(e), (quote[:80], str(e)[:300])
        return e
    finally:
        spent = time.process_time() - t0
        if collecting:
            gc.enable()
        assert spent < limit, (fn, _shown(args))


@cache
def samples() -> list[Position]:
    """Valid positions of every variant (options included): starts and random plays from them."""
    rng = random.Random(7)
    out = []
    for v in VARIANTS:
        pos = Position.start(v)
        for _ in range(40):
            out.append(pos)
            plays = legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6)))
            pos = rng.choice(list(plays)).position.swapped()
            if pos.is_over:
                pos = Position.start(v)
    return out


def texts_of(pos: Position) -> list[str]:
    out = [pos.to_string(), pos.to_json_text()]
    if pos.variant.points == 24:
        out.append(pos.position_id())
    return out


# -- mutations of valid text --------------------------------------------------------------------

PIECES = ["/", ",", "x", ";", "=", "[", "]", "{", "}", '"', ":", "-", "*", "(", ")", " ", "\n", "0", "1",
          "7", "25", "bar", "off", "true", "null", "٣", "٢٤", "²", "①", "３", "\x00", "\udcff", "é",
          "9" * 5000, "1" * 4400, "[" * 3000, "{\"a\":" * 2000, "-1", "1e999", "NaN"]


@st.composite
def mutated(draw: Any, base: list[str] | None = None) -> str:
    """A valid text with a few random edits: pieces inserted, spans deleted, doubled or replaced."""
    text = draw(st.sampled_from(base)) if base else draw(st.sampled_from([t for p in samples() for t in texts_of(p)]))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 8)))
        op = draw(st.sampled_from(["insert", "delete", "double", "replace", "digits"]))
        piece = draw(st.sampled_from(PIECES) | st.text(max_size=3))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "double":
            text = text[:j] + text[i:j] + text[i:]
        elif op == "replace":
            text = text[:i] + piece + text[j:]
        else:  # a run of digits made huge
            text = text[:i] + draw(st.sampled_from(["9" * 5000, "٣" * 40, "0" * 300])) + text[j:]
    return text


def read_every_way(text: str) -> None:
    for fn in (Position.from_string, Position.from_json, Position.parse):
        refused_or_read(fn, text, quote=text)
    refused_or_read(Position.parse, text, "standard", quote=text)
    refused_or_read(Position.from_position_id, text, quote=text)
    refused_or_read(Position.from_json, text.encode("utf-8", "surrogatepass"))


@fuzz(700)
@given(mutated())
def test_mutated_position_texts_read_or_are_refused(text: str) -> None:
    read_every_way(text)


@fuzz(250)
@given(st.text(max_size=60) | st.text(alphabet="/,x;=0123456789bwarof-[]{}\":٣²", max_size=60))
def test_arbitrary_text_reads_or_is_refused(text: str) -> None:
    read_every_way(text)


@fuzz(40)
@given(st.integers(1, 200_000), st.sampled_from(["[", "{\"a\": ", "[{\"b\": "]),
       st.sampled_from(["json", "option"]))
def test_deep_nesting_is_refused(depth: int, opener: str, where: str) -> None:
    nested = opener * depth
    text = nested if where == "json" else f"minigam;bar_first={nested}/w/barx8/barx8"
    err = refused_or_read(Position.from_json if where == "json" else Position.from_string, text, quote=text)
    assert isinstance(err, BackgammonError)


# -- JSON values in every field -------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-10**40, 10**40) | st.floats() | st.text(max_size=8)
    | st.sampled_from([10**4000, -(10**4000), "standard", "minigam", "white", "black"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12)


@fuzz(300)
@given(st.sampled_from(["variant", "points", "bar", "off", "turn", "options", "extra"]), json_values,
       st.integers(0, 10**6))
def test_json_fields_of_any_value_read_or_are_refused(key: str, value: Any, pick: int) -> None:
    base = samples()[pick % len(samples())].to_json()
    data = {**base, key: value}
    refused_or_read(Position.from_json, data)
    try:
        text = json.dumps(data)
    except ValueError:  # NaN and huge numbers: json.dumps handles these; anything else is skipped
        return
    refused_or_read(Position.from_json, text, quote=text)


@fuzz(200)
@given(st.binary(max_size=40) | st.sampled_from([b"\x80", b"\xff\xfe{}", b"{\"variant\": \"\xc3\""]))
def test_bytes_read_or_are_refused(data: bytes) -> None:
    refused_or_read(Position.from_json, data)
    refused_or_read(Position.parse, data)


# -- dice -------------------------------------------------------------------------------------------

dice_text = st.text(alphabet="0123456789-, ²³①٣٦３ab", max_size=8) | st.sampled_from(
    ["²-1", "1" * 5000 + "-1", "٦-٥", "６５", "95", "0-0", "6-6-6"])


@fuzz(250)
@given(dice_text)
def test_dice_text_reads_or_is_refused(text: str) -> None:
    got = refused_or_read(Roll.parse, text, quote=text)
    if isinstance(got, Roll):
        assert 1 <= got.first <= 6 and 1 <= got.second <= 6
        digits = [c for c in text if c.isdecimal()]
        assert [int(c) for c in digits] == [got.first, got.second]
    refused_or_read(legal_plays, Position.start("standard"), text, quote=text)


# -- objects of the wrong type -----------------------------------------------------------------------

objects = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 30) | st.integers(0, 3).map(lambda k: 10 ** (5000 + k))
    | st.sampled_from([2.5, float("nan"), b"8/5",
                                                                       "8/5", "", object(), ...])
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.tuples(inner, inner, inner)
    | st.frozensets(st.integers(1, 6), max_size=3),
    max_leaves=8)


@fuzz(300)
@given(objects, objects)
def test_wrong_types_are_refused(step: Any, dice: Any) -> None:
    start = Position.start("standard")
    for fn, args in ((legal_steps, (start, (3, 1), [step])), (legal_steps, (start, (3, 1), step)),
                     (explain_step, (start, (3, 1), [], step)), (check_step, (start, (3, 1), [], step)),
                     (apply_steps, (start, (3, 1), [step])), (explain_play, (start, (3, 1), [step])),
                     (coerce_step, (start, step)), (legal_plays, (start, dice)), (Roll.parse, (dice,)),
                     (Position, ("standard", step)), (Position, ("standard", [0] * 24, dice)),
                     (Position.from_json, (step,)), (Position.from_string, (step,)), (parse_steps, (step, 24))):
        refused_or_read(fn, *args)


# -- move text ----------------------------------------------------------------------------------------

HANG = Position.from_string("standard/b/24,22x3,21x3,15,14,12,10x2,7,5x2/24,22x2,21,17,14,8x4,6x3,2x2")


@cache
def move_cases() -> list[tuple[Any, list[str]]]:
    """(plays, their texts) for positions of every variant and a few rolls, the hang case first."""
    rng = random.Random(3)
    out = [(legal_plays(HANG, (1, 1)), ["8/7(4)", "8/7(9)", "13/7(9)"])]
    for pos in samples()[::9]:
        plays = legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6)))
        out.append((plays, [str(p) for p in plays][:10]))
    return out


@fuzz(300)
@given(st.integers(0, 10**6), st.data())
def test_mutated_move_text_reads_or_is_refused_quickly(pick: int, data: Any) -> None:
    plays, texts = move_cases()[pick % len(move_cases())]
    text = data.draw(mutated(texts) | st.sampled_from(["8/7(9) 8/7(9)", "8/7 " * 40, "٨/٥", "24/1", "bar/off",
                                                       "6/off(4) 6/off(4)", "no move"]))
    got = refused_or_read(plays.find, text, quote=text, limit=0.5)
    if not isinstance(got, BackgammonError):
        assert got in plays


# -- files -------------------------------------------------------------------------------------------

@fuzz(40)
@given(st.binary(max_size=30) | st.sampled_from([b"SELF", b"\xff\xfe\x80", b"{" * 5000]), st.data())
def test_files_read_or_are_refused(tmp_path_factory: Any, content: bytes, data: Any) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "position.txt"
    if content == b"SELF":  # a file whose content is its own path
        content = str(path).encode()
    elif data.draw(st.booleans()):
        content = data.draw(st.sampled_from([t for p in samples()[:20] for t in texts_of(p)])).encode()
    path.write_bytes(content)
    got = refused_or_read(Position.parse, str(path), quote=str(path))
    if isinstance(got, Position):
        assert got == Position.parse(content.decode())
