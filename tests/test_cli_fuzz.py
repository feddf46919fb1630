"""The project's own fuzz test of the command line (issue 11).

Valid command lines and ``--batch`` lines are mutated (tokens replaced, cut, doubled, swapped or
dropped; characters inserted, deleted or replaced, Unicode digits, NUL and huge numbers among
them; lines as bytes that are not UTF-8) and run in-process through ``main(argv)`` with stdout
and stderr captured. Every run must end with exit status 0, 1 or 2 (never an exception, never a
traceback on stderr), a failure must end with one ``backgammon-lab ...error:`` line, and a batch
run must write exactly one output line per input line, each blank for a blank line or JSON, an
error object naming its line.

Deterministic: the seed is fixed (``BACKGAMMON_LAB_FUZZ_SEED`` changes it and
``BACKGAMMON_LAB_FUZZ_SCALE`` multiplies the counts, for a longer hunt); the counts of inputs
tried are printed (``pytest -s``). About 20-30 s on the project's machines.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backgammon_lab import Position
from backgammon_lab.cli import main

SEED = int(os.environ.get("BACKGAMMON_LAB_FUZZ_SEED", "11"))
SCALE = float(os.environ.get("BACKGAMMON_LAB_FUZZ_SCALE", "1"))
N_ARGV = int(1500 * SCALE)
N_BATCH = int(250 * SCALE)
#: Seconds one input may take before it counts as a hang.
HANG = 20

START = "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
MEX = "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
MINI = "minigam/w/barx8/barx8"
MINI2 = "minigam;checkers=2/w/bar,2/3,off"
MINI3 = "minigam;checkers=3/w/bar,3,off/5x2,off"
PID = "4HPwATDgc/ABMA"

#: Characters a mutation inserts: the notation's own, digits that are not ASCII, controls, quotes.
CHARS = list("0123456789/x,;=-:*()[]{}\"' .bwnaroff") + ["²", "٣", "١", "\u202e", "\x00", "\n", "\t", "é", "𝟙"]
#: Whole tokens a mutation puts in.
TOKENS = [
    "", "-", "--", "0", "-1", "1", "7", "6-5", "1-1", "²-1", "٣-١", "1" * 400, "-" + "9" * 30, "nan", "inf", "1e309",
    "[" * 2000, "{" * 2000, '"' * 3, "{}", "[]", "null", "\x00", "\u202e", "standard", "mexican", "minigam", "chess",
    PID, PID[:-2], PID + "AA", PID + ":black", START, MEX, MINI, MINI2, MINI3, "standard/w/" + "1" * 5000 + "/-",
    "nosuchfile.json", "/nonexistent/dir/b.svg", "./", "pos.json", "bin.json", "self.txt", "nested.json", "folder",
    "--variant", "--dice", "--batch", "--json", "--games", "--top", "--candidates", "--seed", "--table", "--bot",
    "--orientation", "--size", "--theme", "--arrows", "--targets", "--highlight", "--named-double", "--dice-left",
    "-o", "--help", "--version", "--no-progress", "13/7", "8/7(9)", "bar/20", "24/off", "6/off(2)",
]
#: Values ``--games`` may take here: small ones, or ones that are refused (never a long rollout).
GAMES = ["1", "2", "3", "0", "-1", "-5", "²", "", "x", "1" * 400]
GAME_OPTIONS = {"--games"}

SEEDS: list[list[str]] = [
    ["plays", START, "--dice", "6-5"],
    ["plays", MEX, "--dice", "5-2"],
    ["plays", MEX, "--dice", "1-1"],
    ["plays", MINI, "--dice", "3-1"],
    ["plays", PID, "--variant", "standard", "--dice", "3-1"],
    ["plays", "pos.json", "--dice", "4-4"],
    ["show", START],
    ["show", PID, "--variant", "mexican"],
    ["show", MINI3, "--variant", "minigam"],
    ["show", "pos.json"],
    ["render", START, "--dice", "6-5", "--arrows", "13/7 8/7"],
    ["render", MEX, "-o", "out.svg", "--size", "300", "--theme", "dark", "--orientation", "black"],
    ["render", MINI, "--targets", "7,5,0", "--highlight", "4,5", "--selected", "7", "--caption", "x"],
    ["render", START, "--lastmove", "24/18 13/8", "--dice", "3-3", "--dice-left", "3,3", "--no-pips"],
    ["value", MINI2, "--json"],
    ["value", MINI3],
    ["value", START, "--games", "2", "--bot", "random", "--json"],
    ["value", MINI, "--games", "2", "--bot", "random"],
    ["hint", MINI2, "--dice", "3-1", "--top", "1"],
    ["hint", MINI3, "--dice", "4-1", "--json"],
    ["hint", MEX, "--dice", "6-5", "--games", "1", "--candidates", "2", "--bot", "random"],
    ["solve", "minigam", "--checkers", "9"],
    ["solve", "minigam", "--tol", "nan"],
    ["--version"],
    ["plays", "--help"],
]


def _batch_seeds() -> list[str]:
    pos = Position.from_string(START)
    mini = Position.from_string(MINI2)
    return [
        json.dumps({"position": pos.to_json(), "dice": [6, 5]}),
        json.dumps({"position": START, "dice": "3-1"}),
        json.dumps({"position": PID, "variant": "standard", "dice": [2, 1]}),
        json.dumps({"position": MEX, "dice": [5, 2]}),
        json.dumps({"position": {**mini.to_json(), "options": {"checkers": 2}}, "dice": [3, 1]}),
        json.dumps({"position": MINI2, "dice": [4, 4]}),
    ]


def _value_seeds() -> list[str]:
    mini = Position.from_string(MINI3)
    return [MINI2, json.dumps(MINI3), json.dumps({"position": MINI2}),
            json.dumps({**mini.to_json(), "options": {"checkers": 3}}), json.dumps({"position": MINI3, "variant": "minigam"})]


# -- mutations ---------------------------------------------------------------------------------
def mutate_text(rng: random.Random, text: str) -> str:
    """One character-level change of ``text``."""
    op = rng.randrange(7)
    i = rng.randrange(len(text) + 1)
    if op == 0 or not text:
        return text[:i] + rng.choice(CHARS) + text[i:]
    j = rng.randrange(len(text))
    if op == 1:
        return text[:j] + text[j + 1:]
    if op == 2:
        return text[:j] + rng.choice(CHARS) + text[j + 1:]
    if op == 3:
        return text[:i]
    if op == 4:
        return text[:i] + text[i: i + rng.randrange(1, 12)] * rng.randrange(2, 6) + text[i:]
    if op == 5:  # a digit run becomes huge or non-ASCII
        return text[:i] + rng.choice(["9" * rng.randrange(2, 5000), "²", "٣", "-0", "00"]) + text[i:]
    return text[:i] + rng.choice(TOKENS)[:200] + text[i:]


def mutate_argv(rng: random.Random, argv: list[str]) -> list[str]:
    """One to three changes of a command line: mostly of the values (characters changed, or a
    token put in their place), sometimes of its shape (tokens dropped, doubled, swapped, added)."""
    out = list(argv)
    for _ in range(rng.choices((1, 2, 3), weights=(6, 3, 1))[0]):
        op = rng.choices(range(7), weights=(40, 12, 12, 8, 6, 6, 16))[0]
        # the subcommand stays most of the time, so that the changes reach the commands' code
        if not out:
            out.append(rng.choice(TOKENS))
        k = rng.randrange(len(out)) if rng.random() < 0.05 or len(out) < 2 else rng.randrange(1, len(out))
        if out and 0 < k and out[k - 1] in GAME_OPTIONS:  # the rollout size stays small or is refused
            out[k] = rng.choice(GAMES)
        elif op == 0 and out:
            out[k] = mutate_text(rng, out[k])
        elif op == 1 and out:
            out[k] = rng.choice(TOKENS)
        elif op == 2 and out and not out[k].startswith("-"):  # a value for a value
            out[k] = rng.choice([t for t in TOKENS if not t.startswith("--")])
        elif op == 3 and out:
            del out[k]
        elif op == 4 and out:
            out.insert(k, out[k])
        elif op == 5 and len(out) > 2:
            m = rng.randrange(1, len(out))
            out[k], out[m] = out[m], out[k]
        else:  # an option (with a value from the pool) added at the end
            out += [rng.choice([t for t in TOKENS if t.startswith("-") and len(t) > 2]), rng.choice(TOKENS)]
    return out + _keep_small(out)


def _keep_small(argv: list[str]) -> list[str]:
    """Options that keep a command line that parses quick to run: rollouts of a few games, solves
    of small boards (8 checkers take minutes). Abbreviations (``--gam 99999``) and ``--games=N``
    forms are caught too, since the command line is parsed as the program parses it."""
    from backgammon_lab.cli import build_parser

    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = build_parser().parse_args(argv)
        except SystemExit:
            return []
    if getattr(args, "games", 0) > 3:
        return ["--games", "2"]
    if getattr(args, "checkers", 0) > 3:
        return ["--checkers", "2"]
    return []


def mutate_line(rng: random.Random, line: str) -> str:
    """A batch line changed at the JSON level or at the character level."""
    if rng.random() < 0.4:
        try:
            obj = json.loads(line)
        except ValueError:
            return mutate_text(rng, line)
        return json.dumps(_mutate_json(rng, obj), ensure_ascii=rng.random() < 0.5)
    return mutate_text(rng, line)


def _mutate_json(rng: random.Random, obj: Any, depth: int = 0) -> Any:
    if isinstance(obj, dict) and obj and depth < 4:
        key = rng.choice(sorted(obj))
        new = dict(obj)
        r = rng.random()
        if r < 0.2:
            del new[key]
        elif r < 0.3:
            new[rng.choice(["options", "variant", "dice", "position", "extra"])] = rng.choice(_JSON_VALUES)
        else:
            new[key] = _mutate_json(rng, obj[key], depth + 1)
        return new
    if isinstance(obj, list) and obj and depth < 4:
        new_list = list(obj)
        k = rng.randrange(len(new_list))
        r = rng.random()
        if r < 0.2:
            del new_list[k]
        elif r < 0.3:
            new_list.append(rng.choice(_JSON_VALUES))
        else:
            new_list[k] = _mutate_json(rng, obj[k], depth + 1)
        return new_list
    if isinstance(obj, str) and rng.random() < 0.7:
        return mutate_text(rng, obj)
    return rng.choice(_JSON_VALUES)


_JSON_VALUES: list[Any] = [None, True, False, 0, -1, 7, 2**70, 1.5, float("1e300"), "", "²", "white", "black",
                           "standard", "chess", [], {}, [1], [3, 1], [6, 6, 6], {"checkers": 99}, {"checkers": "x"},
                           {"bar_first": 1}, [[[]]], START, MINI2, PID]


# -- running -----------------------------------------------------------------------------------
class Hang(Exception):
    """An input that ran longer than HANG seconds."""


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_main(argv: list[str], stdin: str | bytes | None = None) -> tuple[Any, str, str]:
    """``main(argv)`` in-process: (its result or the exception it raised, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    if isinstance(stdin, bytes):
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    else:
        sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), deadline(HANG):
            try:
                result: Any = main(argv)
            except BaseException as e:  # noqa: BLE001 - what the test is looking for
                if isinstance(e, KeyboardInterrupt):
                    raise
                result = e
    finally:
        sys.stdin = old_in
    return result, out.getvalue(), err.getvalue()


def check_run(argv: list[str], result: Any, out: str, err: str) -> str | None:
    """A description of what is wrong with one run, or None."""
    if not isinstance(result, int) or isinstance(result, bool):
        return f"main raised {type(result).__name__}: {result}"
    if result not in (0, 1, 2):
        return f"exit status {result}"
    if "Traceback" in err:
        return "a traceback on stderr"
    # what stderr says is the program's own lines (errors, notes) and progress bars, nothing else
    said = [ln.split("\r")[-1] for ln in err.split("\n")]
    stray = [ln for ln in said if ln.strip() and not ln.startswith("backgammon-lab")]
    if stray:
        return f"stray output on stderr: {stray[0][:200]!r}"
    if result != 0:
        last = [ln for ln in said if ln.strip()][-1:] or [""]
        if "error:" not in last[0]:
            return f"exit {result} without an error line: {err[-300:]!r}"
    return None


def reader_lines(data: str | bytes) -> list[str | bytes]:
    """The lines of ``data`` as the batch reader sees them: split at "\\n" only ("\\r" alone
    breaks no line), a final newline ends the last line, and nothing after it is a line."""
    parts: list[str | bytes] = list(data.split(b"\n")) if isinstance(data, bytes) else list(data.split("\n"))
    if parts[-1] in ("", b""):
        parts.pop()
    return parts


#: Batch lines checked and how many of them got an error object.
COUNTS = {"lines": 0, "errors": 0}


def check_batch(lines: list[str | bytes], result: Any, out: str, err: str) -> str | None:
    problem = check_run(["--batch"], result, out, err)
    if problem:
        return problem
    rows = out.split("\n")
    if rows[-1] != "":
        return "output does not end with a newline"
    rows = rows[:-1]
    if len(rows) != len(lines):
        return f"{len(lines)} input lines, {len(rows)} output lines"
    failed = False
    for n, (line, row) in enumerate(zip(lines, rows, strict=True), 1):
        COUNTS["lines"] += 1
        blank = (line.strip() if isinstance(line, str) else line.strip()) in ("", b"")
        if blank:
            if row != "":
                return f"line {n} is blank, its answer {row[:100]!r} is not"
            continue
        try:
            obj = json.loads(row)
        except ValueError:
            return f"line {n}: the answer {row[:100]!r} is not JSON"
        if isinstance(obj, dict) and "error" in obj:
            failed = True
            COUNTS["errors"] += 1
            if obj.get("line") != n or not isinstance(obj["error"], str) or set(obj) != {"error", "line"}:
                return f"line {n}: a bad error object {row[:200]!r}"
    if failed != (result != 0):
        return f"exit status {result} but {'some' if failed else 'no'} lines failed"
    return None


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder with the files the seeds name, a table cache with small Mini-Gam tables, as cwd; the
    compiled kernels are the machine's (a fresh cache would compile them inside the commands' deadline)."""
    from backgammon_lab.analysis.solve import solve
    from backgammon_lab.kernels import cache_dir

    d = tmp_path_factory.mktemp("fuzz")
    (d / "pos.json").write_text(Position.from_string(START).to_json_text())
    (d / "bin.json").write_bytes(b"\x80\xfe\xff")
    (d / "self.txt").write_text(str(d / "self.txt"))
    (d / "nested.json").write_text("[" * 100000)
    (d / "folder").mkdir()
    cache = d / "cache" / "backgammon_lab"
    cache.mkdir(parents=True)
    (cache_dir() / "kernels").mkdir(parents=True, exist_ok=True)
    (cache / "kernels").symlink_to(cache_dir() / "kernels", target_is_directory=True)
    for k in (2, 3):
        solve(k, progress=False).save(cache / f"minigam-{k}.npz")
    old_cwd, old_cache = os.getcwd(), os.environ.get("XDG_CACHE_HOME")
    os.chdir(d)
    os.environ["XDG_CACHE_HOME"] = str(d / "cache")
    try:
        yield d
    finally:
        os.chdir(old_cwd)
        if old_cache is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = old_cache


@pytest.fixture
def small_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Default rollout sizes of 2 games, so that a mutation that drops ``--games`` stays quick."""
    from backgammon_lab.cli import analysis as acli

    monkeypatch.setattr(acli, "VALUE_GAMES", 2)
    monkeypatch.setattr(acli, "HINT_GAMES", 2)


def test_seed_command_lines_are_valid(workdir: Path, small_rollouts: None) -> None:
    """The fuzz starts from command lines that work (so its mutations test the refusals)."""
    for argv in SEEDS:
        result, out, err = run_main(argv)
        if argv[0] == "solve":
            assert result == 2, (argv, err)
        else:
            assert result == 0, (argv, err)


def test_mutated_command_lines_fail_cleanly(workdir: Path, small_rollouts: None) -> None:
    rng = random.Random(SEED)
    problems: list[str] = []
    codes = {0: 0, 1: 0, 2: 0}
    for _ in range(N_ARGV):
        argv = mutate_argv(rng, rng.choice(SEEDS))
        try:
            result, out, err = run_main(argv)
        except Hang as e:
            problems.append(f"{argv!r}: {e}")
            continue
        problem = check_run(argv, result, out, err)
        if problem:
            problems.append(f"{[a[:80] for a in argv]!r}: {problem}")
        elif isinstance(result, int):
            codes[result] += 1
    print(f"\ncli fuzz: {N_ARGV} command lines, exit statuses {codes}")
    assert not problems, "\n".join(problems[:20])
    assert codes[0] > N_ARGV // 20 and codes[2] > N_ARGV // 4  # the mutations reach both sides


@pytest.mark.parametrize("command", ["plays", "value"])
def test_mutated_batch_lines_get_one_answer_each(workdir: Path, small_rollouts: None, command: str) -> None:
    rng = random.Random(f"{SEED}-{command}")
    seeds = _batch_seeds() if command == "plays" else _value_seeds()
    problems: list[str] = []
    n_lines = 0
    for _ in range(N_BATCH):
        texts = []
        for _ in range(rng.randrange(1, 7)):
            r = rng.random()
            line = rng.choice(seeds)
            if r < 0.7:
                line = mutate_line(rng, line)
            elif r < 0.8:
                line = rng.choice(["", "   ", "\t", "\r"])
            texts.append(line)
        text = "\n".join(texts) + ("\n" if rng.random() < 0.7 else "")
        data: str | bytes = text
        if rng.random() < 0.3:  # bytes, with a sequence that is not UTF-8 somewhere
            raw = text.encode("utf-8", "surrogatepass")
            k = rng.randrange(len(raw) + 1)
            data = raw[:k] + rng.choice([b"\x80", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80"]) + raw[k:]
        lines = reader_lines(data)
        argv = [command, "--batch"] + (["--variant", "standard"] if rng.random() < 0.2 else [])
        n_lines += len(lines)
        try:
            result, out, err = run_main(argv, data)
        except Hang as e:
            problems.append(f"{data[:200]!r}: {e}")
            continue
        problem = check_batch(lines, result, out, err)
        if problem:
            problems.append(f"{data[:300]!r}: {problem}")
    print(f"\ncli batch fuzz ({command}): {N_BATCH} runs, {n_lines} lines "
          f"(so far {COUNTS['errors']} of {COUNTS['lines']} lines answered with an error object)")
    assert not problems, "\n".join(problems[:20])
