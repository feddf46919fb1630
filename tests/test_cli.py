"""The command line: ``backgammon-lab plays``/``show`` (issue 2), and every error one line with the
right exit status, batch modes, files, variants, help and progress (issue 11); via ``main()`` and a
subprocess."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from backgammon_lab import Position, legal_plays
from backgammon_lab.cli import build_parser, describe_error, main, plays_json, show_progress

START = "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_plays_prints_distinct_positions_with_turn_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "plays", START, "--dice", "6-5")
    assert rc == 0
    got = json.loads(out)
    want = [p.position.to_json() for p in legal_plays(Position.from_string(START), (6, 5))]
    assert sorted(map(json.dumps, got)) == sorted(map(json.dumps, want))
    assert len({json.dumps(p, sort_keys=True) for p in got}) == len(got)
    assert all(p["turn"] == "white" for p in got)


def test_plays_accepts_json_file_string_and_position_id(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    pos = Position.from_string(START)
    f = tmp_path / "pos.json"
    f.write_text(pos.to_json_text())
    outs = {
        run(capsys, "plays", pos.to_json_text(), "--dice", "3-1")[1],
        run(capsys, "plays", str(f), "--dice", "3-1")[1],
        run(capsys, "plays", START, "--dice", "3-1")[1],
        run(capsys, "plays", "4HPwATDgc/ABMA", "--variant", "standard", "--dice", "3-1")[1],
    }
    assert len(outs) == 1 and len(json.loads(outs.pop())) == 16


def test_mexican_plays_lower_die_first_and_no_reroll(capsys: pytest.CaptureFixture[str]) -> None:
    """Mexican: lower die first, doubles four times; the CLI plays one roll only."""
    rc, out, _ = run(capsys, "plays", "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "--dice", "5-2")
    assert rc == 0 and len(json.loads(out)) == 6
    rc, out, _ = run(capsys, "plays", "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "--dice", "1-1")
    assert all(sum(abs(x) for x in p["points"]) == 30 for p in json.loads(out))


def test_batch_one_array_line_per_input_line_in_order(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import io

    lines = [
        {"position": Position.from_string(START).to_json(), "dice": [6, 5]},
        {"position": Position.start("minigam").to_json(), "dice": [3, 1]},
        {"position": Position.start("mexican", "black").to_json(), "dice": [2, 1]},
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(json.dumps(x) for x in lines) + "\n"))
    rc, out, _ = run(capsys, "plays", "--batch")
    assert rc == 0
    rows = out.splitlines()
    assert [len(json.loads(r)) for r in rows] == [
        len(legal_plays(Position.from_json(x["position"]), tuple(x["dice"]))) for x in lines]


def test_show_prints_the_diagram(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "show", "minigam/b/barx8/barx8")
    assert rc == 0 and out.strip() == str(Position.start("minigam", "black"))


@pytest.mark.parametrize("argv, quoted", [
    (["plays", "standard/w/24x3,13x5,8x3,6x5/-", "--dice", "6-5"], "standard/w/24x3"),
    (["plays", START, "--dice", "7-1"], "7"),
    (["plays", "{not json", "--dice", "6-5"], "{not json"),
    (["show", "4HPwATDgc/ABM!", "--variant", "standard"], "4HPwATDgc/ABM!"),
    (["show", "chess/w/-/-"], "chess"),
])
def test_bad_input_exits_2_with_the_input_quoted(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                 quoted: str) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    assert quoted in err and err.startswith("backgammon-lab: error:")


def test_console_script_and_module_are_the_same_cli() -> None:
    a = subprocess.run([sys.executable, "-m", "backgammon_lab", "plays", START, "--dice", "2-1"],
                       capture_output=True, text=True, check=True).stdout
    from shutil import which

    beside = Path(sys.executable).with_name("backgammon-lab")  # the environment's own, e.g. .venv/bin
    exe = str(beside) if beside.is_file() else which("backgammon-lab")
    if exe is None:
        pytest.skip("console script not installed (pip install -e .)")
    b = subprocess.run([exe, "plays", START, "--dice", "2-1"], capture_output=True, text=True, check=True).stdout
    assert a == b and len(json.loads(a)) == 15


# -- issue 11: the command line as a new user tries it ------------------------------------------
MINI2 = "minigam;checkers=2/w/bar,2/3,off"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty table cache: no solved Mini-Gam table is found unless a test makes one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "backgammon_lab"


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("backgammon-lab") and "error:" in lines[0] and "Traceback" not in err
    return lines[0]


def feed(monkeypatch: pytest.MonkeyPatch, data: str | bytes) -> None:
    """Put ``data`` on stdin; bytes come with a binary buffer like a real stdin."""
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8") if isinstance(data, bytes) else io.StringIO(data)
    monkeypatch.setattr(sys, "stdin", stream)


def test_value_and_hint_defaults_do_not_leak_into_each_other() -> None:
    parser = build_parser()
    assert parser.parse_args(["value", START]).games == 1000
    assert parser.parse_args(["hint", START, "--dice", "3-1"]).games == 200
    assert parser.parse_args(["value", START]).games == 1000  # after hint's parser was used too


def test_value_on_minigam_without_a_table_says_it_is_a_rollout(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "value", "minigam/w/barx8/barx8", "--games", "4", "--json", "--bot", "random")
    assert rc == 0 and json.loads(out)["method"] == "rollout"
    assert "note:" in err and "rollout" in err and "`backgammon-lab solve minigam`" in err
    rc, _, err = run(capsys, "value", "minigam;checkers=6;bar_first=true/w/barx6/barx6", "--games", "2")
    assert rc == 0 and "`backgammon-lab solve minigam --checkers 6 --bar-first`" in err
    rc, _, err = run(capsys, "value", START, "--games", "2", "--bot", "random")
    assert rc == 0 and "note:" not in err  # only Mini-Gam has an exact table


def test_plays_batch_reads_every_form_value_batch_reads(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    pos = Position.from_string(START)
    mini = Position.from_string(MINI2)
    forms = [
        {"position": pos.to_json(), "dice": [3, 1]},
        {"position": START, "dice": "3-1"},
        {"position": pos.position_id(), "variant": "standard", "dice": [3, 1]},
        {"position": pos.position_id(), "dice": [3, 1]},  # --variant below
        {"position": {**mini.to_json(), "options": {"checkers": 2}}, "variant": "minigam", "dice": [3, 1]},
    ]
    feed(monkeypatch, "".join(json.dumps(f) + "\n" for f in forms))
    rc, out, err = run(capsys, "plays", "--batch", "--variant", "standard")
    assert rc == 0 and err == ""
    rows = [json.loads(r) for r in out.splitlines()]
    assert rows[0] == rows[1] == rows[2] == rows[3] == plays_of(pos, (3, 1))
    assert rows[4] == plays_of(mini, (3, 1))
    # a line's own "variant" wins over --variant; a position that names another variant is refused
    feed(monkeypatch, json.dumps({"position": MINI2, "dice": [3, 1]}) + "\n")
    rc, out, err = run(capsys, "plays", "--batch", "--variant", "standard")
    assert rc == 2 and "minigam position, but --variant says 'standard'" in json.loads(out)["error"]


def plays_of(pos: Position, dice: tuple[int, int]) -> list[dict[str, object]]:
    return plays_json(pos, dice)


def test_batch_answers_every_line_in_order_and_goes_on_after_a_bad_one(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.dumps({"position": START, "dice": [6, 5]})
    lines = [good, "{not json", "", '{"position": "' + START + '"}', "[" * 100000, good,
             json.dumps({"position": START, "dice": "²-1"}), json.dumps({"position": "chess/w/-/-", "dice": [1, 2]})]
    feed(monkeypatch, "\n".join(lines) + "\n")
    rc, out, err = run(capsys, "plays", "--batch")
    rows = out.split("\n")[:-1]
    assert len(rows) == len(lines) and rc == 2
    assert json.loads(rows[0]) == json.loads(rows[5]) and isinstance(json.loads(rows[0]), list)
    assert rows[2] == ""  # a blank line is answered by a blank line
    for n in (2, 4, 5, 7, 8):
        obj = json.loads(rows[n - 1])
        assert set(obj) == {"error", "line"} and obj["line"] == n, obj
        assert f"--batch line {n}:" in err
    assert "not JSON" in json.loads(rows[1])["error"]
    assert "nested too deeply" in json.loads(rows[4])["error"]
    assert "²-1" in json.loads(rows[6])["error"] and "chess" in json.loads(rows[7])["error"]
    assert "Traceback" not in err


def test_batch_exit_status_is_0_when_every_line_is_answered(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    feed(monkeypatch, json.dumps({"position": START, "dice": [2, 1]}) + "\n\n")
    rc, out, err = run(capsys, "plays", "--batch")
    assert rc == 0 and err == "" and out.count("\n") == 2


def test_batch_reads_bytes_a_line_at_a_time(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.dumps({"position": START, "dice": [2, 1]}).encode()
    feed(monkeypatch, b"\x80\xff\n" + good + b"\r\n" + good)  # a non-UTF-8 line, a CRLF line, no final newline
    rc, out, _ = run(capsys, "plays", "--batch")
    rows = out.splitlines()
    assert rc == 2 and len(rows) == 3
    assert json.loads(rows[0]) == {"error": json.loads(rows[0])["error"], "line": 1}
    assert "UTF-8" in json.loads(rows[0])["error"]
    assert json.loads(rows[1]) == json.loads(rows[2]) == plays_of(Position.from_string(START), (2, 1))


def test_value_batch_errors_and_bare_position_strings(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab.analysis.solve import solve

    table = solve(2, progress=False).save(cache / "minigam-2.npz")
    assert table.is_file()
    feed(monkeypatch, f"{MINI2}\n[1, 2]\n\"{MINI2}\"\n{{\"position\": \"{MINI2}\"}}\n")
    rc, out, err = run(capsys, "value", "--batch")
    rows = [json.loads(r) for r in out.splitlines()]
    assert rc == 2 and len(rows) == 4
    assert rows[0] == rows[2] == rows[3] and 0 < rows[0]["win"] < 1
    assert rows[1]["line"] == 2 and "[1, 2]" in rows[1]["error"]
    assert one_line_error(err).startswith("backgammon-lab: error: --batch line 2:")


@pytest.mark.parametrize("argv, code, quoted", [
    (["render", "minigam/w/barx8/barx8", "-o", "/nonexistent/dir/b.svg"], 1, "/nonexistent/dir/b.svg"),
    (["render", "minigam/w/barx8/barx8", "-o", "."], 1, "'.'"),
    (["value", "minigam/w/barx8/barx8", "--games", "0"], 2, "'0'"),
    (["value", START, "--games", "-5"], 2, "'-5'"),
    (["hint", START, "--dice", "3-1", "--games", "0"], 2, "'0'"),
    (["hint", START, "--dice", "3-1", "--top", "-1"], 2, "--top"),
    (["hint", START, "--dice", "3-1", "--candidates", "-1"], 2, "--candidates"),
    (["hint", START, "--dice", "3-1", "--candidates", "0"], 2, "--candidates"),
    (["value", START, "--games", "1" * 400], 2, "--games"),
    (["value", START, "--seed", "-1"], 2, "--seed"),
    (["plays", START, "--dice", "²-1"], 2, "²-1"),
    (["plays", START, "--dice", "1" * 5000 + "-1"], 2, "--dice"),
    (["hint", START, "--dice", "²-1"], 2, "²-1"),
    (["solve", "minigam", "--checkers", "9"], 2, "'9'"),
    (["solve", "minigam", "--checkers", "0"], 2, "'0'"),
    (["solve", "minigam", "--tol", "nan"], 2, "'nan'"),
    (["plays", "[" * 100000, "--dice", "3-1"], 2, "["),
    (["show", "standard/w/" + "1" * 5000 + "/-"], 2, "standard/w/111"),
    (["value", "--batch", START], 2, "POSITION"),
    (["plays"], 2, "POSITION"),
    (["frobnicate"], 2, "frobnicate"),
])
def test_every_error_is_one_line_naming_the_input(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                  code: int, quoted: str) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == code and out == ""
    line = one_line_error(err)
    assert quoted in line and len(line) < 800


def test_the_top_level_guard_turns_any_exception_into_one_line(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import backgammon_lab.cli.app as cli

    cases = [
        (FileNotFoundError(2, "No such file or directory", "/nonexistent/x"), 1, "'/nonexistent/x': No such file"),
        (IsADirectoryError(21, "Is a directory", "docs"), 1, "'docs': Is a directory"),
        (PermissionError(13, "Permission denied"), 1, "Permission denied"),
        (RecursionError("maximum recursion depth exceeded"), 2, "nested too deeply"),
        (UnicodeDecodeError("utf-8", b"\x80", 0, 1, "invalid start byte"), 2, "UTF-8"),
        (ValueError("Exceeds the limit (4300 digits)"), 2, "4300 digits"),
        (OverflowError("int too large"), 2, "int too large"),
        (MemoryError(), 1, "out of memory"),
        (RuntimeError("boom\nsecond line"), 1, "internal error (RuntimeError: boom second line)"),
    ]
    for exc, code, text in cases:
        def boom(args: object, exc: BaseException = exc) -> int:
            raise exc
        monkeypatch.setattr(cli, "_cmd_show", boom)
        rc, out, err = run(capsys, "show", START)
        assert (rc, out) == (code, ""), exc
        assert text in one_line_error(err)
        assert describe_error(exc) == (code, one_line_error(err).removeprefix("backgammon-lab: error: "))
    monkeypatch.setenv("BACKGAMMON_LAB_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["show", START])


def test_a_missing_file_is_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    for arg in ("nosuchfile.json", "./nosuch", "/nonexistent/pos.txt", "data/position.json"):
        rc, _, err = run(capsys, "show", arg)
        assert rc == 2 and f"no such file: '{arg}'" in one_line_error(err)


def test_a_position_id_of_the_wrong_length_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "show", "4HPwATDgc/AB", "--variant", "standard")
    assert rc == 2 and "'4HPwATDgc/AB' is not a Position ID: an ID has 14 characters, this one 12" in one_line_error(err)


def test_file_errors_name_the_file_not_its_content(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "binary.json").write_bytes(b"\x80\x81 not text")
    (tmp_path / "bad.json").write_text('{"variant": "standard", "points": "' + "x" * 3000 + '"}')
    selfref = tmp_path / "self.txt"
    selfref.write_text(str(selfref))
    (tmp_path / "nested.json").write_text("[" * 100000)
    (tmp_path / "folder").mkdir()
    for name, says in [("binary.json", "is not UTF-8 text"), ("bad.json", "holds no position"),
                       ("self.txt", "holds a file name, not a position"), ("nested.json", "holds no position"),
                       ("folder", "is a folder")]:
        rc, _, err = run(capsys, "show", str(tmp_path / name))
        line = one_line_error(err)
        assert rc == 2 and f"'{tmp_path / name}'" in line and says in line, line
        assert "x" * 400 not in line  # the content is not quoted whole
    good = tmp_path / "good.json"
    good.write_text(Position.from_string(START).to_json_text())
    assert run(capsys, "show", str(good))[0] == 0


def test_a_variant_that_disagrees_with_the_position_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "show", START, "--variant", "mexican")
    assert rc == 2 and "is a standard position, but --variant says 'mexican'" in one_line_error(err)
    rc, _, err = run(capsys, "plays", Position.start("minigam").to_json_text(), "--dice", "3-1", "--variant", "standard")
    assert rc == 2 and "minigam position" in one_line_error(err)
    rc, _, err = run(capsys, "show", START, "--variant", "chess")
    assert rc == 2 and "chess" in one_line_error(err)
    # agreeing names are fine, options included
    assert run(capsys, "show", START, "--variant", "Standard")[0] == 0
    assert run(capsys, "show", MINI2, "--variant", "minigam")[0] == 0


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    from backgammon_lab import __version__

    rc, out, _ = run(capsys, "--version")
    assert rc == 0 and out.strip() == f"backgammon-lab {__version__}"
    rc, out, _ = run(capsys, "--help")
    assert rc == 0 and "plays" in out and "docs/cli.md" in out


def test_every_positional_argument_has_help() -> None:
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) >= {"plays", "show", "render", "value", "hint", "solve"}
    for name, p in sub.choices.items():
        for action in p._actions:
            if not action.option_strings:
                assert action.help, f"{name} {action.dest} has no help"


def test_progress_bars_follow_the_terminal_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = build_parser()
    for tty in (True, False):
        monkeypatch.setattr(sys.stderr, "isatty", lambda tty=tty: tty)
        for cmd in (["value", START], ["hint", START, "--dice", "3-1"], ["solve", "minigam"], ["plays", "--batch"]):
            assert show_progress(parser.parse_args(cmd)) is tty
            assert show_progress(parser.parse_args([*cmd, "--no-progress"])) is False
            assert show_progress(parser.parse_args([*cmd, "--progress"])) is True


def test_a_closed_pipe_ends_quietly() -> None:
    code = ("import subprocess, sys\n"
            f"p = subprocess.Popen([sys.executable, '-m', 'backgammon_lab', 'plays', {START!r}, '--dice', '1-1'],"
            " stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
            "p.stdout.read(1); p.stdout.close(); err = p.stderr.read().decode(); p.wait()\n"
            "print(repr(err), p.returncode)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONUNBUFFERED": "0"}).stdout
    assert out.strip() in ("'' 0",), out


def test_progress_flag_draws_a_bar_on_stderr(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "value", START, "--games", "3", "--bot", "random", "--json", "--progress")
    assert rc == 0 and json.loads(out)["games"] == 3 and err.strip() != ""
    rc, out, err = run(capsys, "value", START, "--games", "3", "--bot", "random", "--json", "--no-progress")
    assert rc == 0 and err == ""
    feed(monkeypatch, json.dumps({"position": START, "dice": [2, 1]}) + "\n")
    rc, out, err = run(capsys, "plays", "--batch", "--progress")
    assert rc == 0 and out.count("\n") == 1 and "batch" in err


def test_version_is_the_packages() -> None:
    from importlib.metadata import PackageNotFoundError, version

    from backgammon_lab import __version__

    try:
        installed = version("backgammon_lab")
    except PackageNotFoundError:
        pytest.skip("backgammon_lab is not installed (pip install -e .)")
    assert installed == __version__
