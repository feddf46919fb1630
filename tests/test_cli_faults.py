"""The faults a new user met on the command line and in the scripts (issue 21, "Faults a new user
met"): one test per fault, named after it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from backgammon_lab.analysis.nets import load_net
from backgammon_lab.cli import main
from backgammon_lab.errors import BackgammonError, NotationError

ROOT = Path(__file__).resolve().parent.parent
START = "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
MINIGAM = "minigam/w/barx8/barx8"
NET_FILE = ROOT / "backgammon_lab" / "data" / "nets" / "minigam.npz"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def cli(*argv: str, **kw: Any) -> subprocess.Popen[bytes]:
    """The command in a process of its own (for signals)."""
    return subprocess.Popen([sys.executable, "-m", "backgammon_lab", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=kw.pop("cwd", None), **kw)


def a_record(tmp_path: Path, **change: Any) -> Path:
    """A finished Mini-Gam game record in a file (with ``change`` applied to the record)."""
    import random

    from backgammon_lab.game import Game

    g = Game("minigam", seed=1)
    g.play_random(random.Random(1))
    rec = {**g.record(), **change}
    f = tmp_path / "game.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    return f


# -- scripts -----------------------------------------------------------------------------------
FAKE_APT = """#!/usr/bin/env bash
n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$FAKE_COUNT"
if [ "$n" -le "$FAKE_LOCKED" ]; then
  echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)" >&2
  echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?" >&2
  exit 100
fi
exit 0
"""


def _apt_install(tmp_path: Path, locked: int, wait: int) -> tuple[subprocess.CompletedProcess[str], int]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "apt-get"
    fake.write_text(FAKE_APT)
    fake.chmod(0o755)
    count = tmp_path / "count"
    count.unlink(missing_ok=True)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_COUNT": str(count),
           "FAKE_LOCKED": str(locked), "SUDO": "", "APT_RETRY": "0.1", "APT_WAIT": str(wait)}
    res = subprocess.run(["bash", "-c", '. scripts/apt.sh; apt_install chromium; rc=$?; echo "rc=$rc"; '
                          'echo "why=$APT_ERROR"'], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    return res, int(count.read_text())


def test_setup_waits_while_apt_is_busy_then_says_the_true_reason(tmp_path: Path) -> None:
    """setup.sh with the dpkg lock held: it waits and retries, and when the lock stays held it says
    so (not "no chromium and no apt-get")."""
    res, calls = _apt_install(tmp_path, locked=3, wait=60)  # the lock is freed after three tries
    assert "rc=0" in res.stdout and calls == 5  # 3 refused updates, the update, the install
    assert "apt is busy" in res.stderr and "held by process 4242" in res.stderr
    # held for good; bash's SECONDS counts whole seconds, so a wait of 1 s may end before a second
    # try (it did once, on a loaded machine): 3 s leaves room for at least one more
    res, calls = _apt_install(tmp_path, locked=10**6, wait=3)
    assert "rc=1" in res.stdout and calls >= 2
    why = res.stdout.split("why=", 1)[1]
    assert "still busy" in why and "Could not get lock /var/lib/dpkg/lock-frontend" in why
    assert "no apt-get" not in res.stdout + res.stderr
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    assert "no chromium and no apt-get" not in setup and "$APT_ERROR" in setup


def test_test_sh_says_loudly_when_browser_tests_are_skipped_and_why(tmp_path: Path) -> None:
    note = tmp_path / "why.txt"
    note.write_text("apt-get install chromium failed: apt was still busy after 300 s\n")
    env = {**os.environ, "CHROMIUM_PATHS": str(tmp_path / "no-chromium"), "CHROMIUM_NOTE": str(note)}
    res = subprocess.run(["bash", "scripts/test.sh", "-q", "--collect-only", "-p", "no:randomly",
                          "tests/test_cli_faults.py::test_top_level_help_lists_every_command"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stderr.count("WARNING: the browser tests are SKIPPED") == 2  # before and after the run
    assert "apt was still busy after 300 s" in res.stderr


# -- train -------------------------------------------------------------------------------------
@pytest.mark.parametrize("resume", [True, False], ids=["resume", "fresh"])
def test_train_out_folder_is_refused_before_training_naming_the_path_and_leaving_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, resume: bool) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    rc, out, err = run(capsys, "train", "minigam", "--games", "5", "--out", "adir", *(["--resume"] if resume else []))
    assert rc == 1 and out == ""
    assert "--out 'adir' is a folder" in err and "tmp" not in err and "--resume" not in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["adir"]
    rc, _, err = run(capsys, "train", "minigam", "--games", "5", "--out", "")
    assert rc == 2 and "--out ''" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["adir"]


def _read_stderr(proc: subprocess.Popen[bytes], into: list[bytes]) -> threading.Thread:
    def pump() -> None:
        assert proc.stderr is not None
        for chunk in iter(lambda: proc.stderr.read1(4096), b""):  # type: ignore[union-attr]
            into.append(chunk)

    t = threading.Thread(target=pump, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
def test_train_ctrl_c_saves_a_checkpoint(tmp_path: Path, sig: int, status: int) -> None:
    """Ctrl-C (or SIGTERM) in the middle of training keeps the games played: the checkpoint is
    written with them, and says so."""
    out = tmp_path / "net.npz"
    proc = cli("train", "minigam", "--games", "100000000", "--hidden", "4", "--checkpoint", "100000000",
               "--out", str(out), "--progress")
    err: list[bytes] = []
    pump = _read_stderr(proc, err)
    deadline = time.monotonic() + 120
    while b"train minigam" not in b"".join(err) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    time.sleep(2.0)  # some games
    assert not out.exists()  # no checkpoint is due for 100,000,000 games
    proc.send_signal(sig)
    assert proc.wait(timeout=60) == status
    pump.join(timeout=10)
    text = b"".join(err).decode()
    assert "Traceback" not in text and "saved the net after" in text
    net = load_net(out)
    assert net.games > 0 and f"after {net.games} games" in text
    assert net.meta["history"][-1]["to"] == net.games
    assert [p.name for p in tmp_path.iterdir()] == ["net.npz"]  # no temporary file left


def _children(pid: int) -> list[int]:
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                kids.append(int(d.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_value_workers_sigterm_shuts_the_executor_down(tmp_path: Path) -> None:
    """After SIGTERM, `value --workers 2` ends its worker processes (they do not linger)."""
    proc = cli("value", START, "--games", "10000000", "--workers", "2", "--no-progress")
    workers: list[int] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        workers = [w for c in _children(proc.pid) for w in _children(c)]  # the fork server's children
        if len(workers) >= 2:
            break
        time.sleep(0.2)
    assert len(workers) >= 2, "no worker processes started"
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 143
    assert proc.stderr is not None and b"terminated" in proc.stderr.read()
    deadline = time.monotonic() + 15
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(w) for w in workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_value_workers_sigterm_while_the_workers_start_prints_no_traceback() -> None:
    """SIGTERM in the first second of `value --workers 2`, while the fork server and the workers
    are starting: exit 143 with the one-line message, and no traceback from the program, a worker
    or the interpreter's exit (a worker started during a submit and never recorded printed one once
    the pool's semaphores were gone; the pool's own thread was woken at exit through a closed pipe)."""
    for delay in (0.0, 0.05, 0.1, 0.2, 0.3, 0.5):  # after the program's first child (the fork server) appears
        proc = cli("value", START, "--games", "10000000", "--workers", "2", "--no-progress")
        deadline = time.monotonic() + 60
        while not _children(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.01)
        time.sleep(delay)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
        assert proc.returncode == 143, (delay, err.decode())
        assert b"terminated" in err and b"Traceback" not in err and b"Exception ignored" not in err, (delay, err.decode())


# -- analyse -----------------------------------------------------------------------------------
def test_analyse_missing_file_exits_2_like_show(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nosuch.json")
    rc, _, err = run(capsys, "analyse", missing)
    assert rc == 2 and f"no such file: {missing!r}" in err
    assert run(capsys, "show", missing)[0] == 2


def test_analyse_non_utf8_record_names_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "latin1.json"
    f.write_bytes('{"variant": "minigam", "name": "Jos\u00e9"}'.encode("latin-1"))
    rc, _, err = run(capsys, "analyse", str(f))
    assert rc == 2 and repr(str(f)) in err and "not UTF-8" in err


def test_analyse_svg_path_is_checked_before_the_analysis(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import backgammon_lab.analysis.analyse as analyse_module

    def never(*args: Any, **kw: Any) -> Any:
        raise AssertionError("the analysis ran before the --svg path was checked")

    monkeypatch.setattr(analyse_module, "analyse", never)
    rec = a_record(tmp_path)
    for bad, says in ((str(tmp_path / "no" / "such" / "x.svg"), "there is no folder"), (str(tmp_path), "is a folder")):
        rc, out, err = run(capsys, "analyse", str(rec), "--svg", bad)
        assert rc == 1 and out == "" and says in err and repr(bad) in err


def test_analyse_empty_file_says_so_in_the_users_words(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "empty.json"
    f.write_text("")
    rc, _, err = run(capsys, "analyse", str(f))
    assert rc == 2 and repr(str(f)) in err and "is empty" in err
    assert "analyse takes a Game" not in err


# -- docs and notes ----------------------------------------------------------------------------
def test_docs_say_minigam_hint_without_its_table_uses_the_net() -> None:
    for doc in ("README.md", "docs/cli.md"):
        text = " ".join((ROOT / doc).read_text().split())
        assert "`value` and `hint` on Mini-Gam fall back to a rollout" not in text
        assert "`value` and `hint` on a Mini-Gam position (8 checkers) roll out instead" not in text
    assert "`hint` to the Mini-Gam net" in " ".join((ROOT / "README.md").read_text().split())
    assert "`hint` ranks the plays with the Mini-Gam net" in " ".join((ROOT / "docs/cli.md").read_text().split())


def test_value_of_a_finished_game_is_not_called_a_rollout_estimate(capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import backgammon_lab.analysis.solve as solve

    monkeypatch.setattr(solve, "get_table", lambda *a, **k: None)  # as on a machine with no table cached
    rc, out, err = run(capsys, "value", "minigam/w/-/barx8")
    assert rc == 0 and "the game is over" in out and "rollout" not in err
    rc, out, err = run(capsys, "value", MINIGAM, "--games", "2")
    assert rc == 0 and "rollout estimate" in err  # the note is still given where it is true


# -- impossible input --------------------------------------------------------------------------
def test_both_sides_borne_off_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "value", "standard/w/-/-")
    assert rc == 2 and out == "" and "both players have borne off" in err and "'standard/w/-/-'" in err


def test_record_of_another_version_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, err = run(capsys, "analyse", str(a_record(tmp_path, version=99)))
    assert rc == 2 and out == "" and '"version": 99' in err


def test_record_move_by_the_wrong_player_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = a_record(tmp_path)
    rec = json.loads(f.read_text())
    first = next(a for a in rec["actions"] if "play" in a)
    first["player"] = "white" if first["player"] == "black" else "black"
    f.write_text(json.dumps(rec))
    rc, out, err = run(capsys, "analyse", str(f))
    assert rc == 2 and out == "" and f"the record says {first['player']!r} plays" in err


@pytest.mark.parametrize("argv", [["--dice", "66-"], ["--dice=-66"], ["--dice", "6--5"], ["--dice=-6-5"]])
def test_dice_with_a_sign_or_a_second_dash_are_refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    rc, out, err = run(capsys, "plays", MINIGAM, *argv)
    text = argv[-1].split("=")[-1]
    assert rc == 2 and out == "" and f"{text!r}" in err and "write them like '6-5'" in err


# -- internals in messages ---------------------------------------------------------------------
def test_numbers_too_long_to_read_are_said_in_words(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from backgammon_lab.game import Game

    big = "1" * 5000
    monkeypatch.setattr("sys.stdin", io.StringIO(f"[{big}]\n"))
    rc, out, err = run(capsys, "value", "--batch")
    assert rc == 2 and "a number of 5000 digits, too long to read" in out
    assert "set_int_max_str_digits" not in out + err
    with pytest.raises(NotationError) as info:
        Game.from_record(f'{{"variant": "minigam", "actions": [{{"roll": [{big}, 1]}}]}}')
    assert isinstance(info.value, BackgammonError) and "set_int_max_str_digits" not in str(info.value)


def test_table_file_that_is_not_a_table_says_what_it_is(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = tmp_path / "notes.npz"
    text.write_text("hello\n")
    rc, _, err = run(capsys, "value", MINIGAM, "--table", str(text))
    assert rc == 2 and "not a NumPy .npz archive" in err and "allow_pickle" not in err
    rc, _, err = run(capsys, "value", MINIGAM, "--table", str(NET_FILE))
    assert rc == 2 and "is a net file" in err and "not a file in the archive" not in err


def test_render_dice_left_messages_name_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "render", MINIGAM, "--dice-left", "9")
    assert rc == 2 and "--dice-left '9' needs --dice" in err and "dice_left=" not in err
    rc, _, err = run(capsys, "render", MINIGAM, "--dice", "6-5", "--dice-left", "4")
    assert rc == 2 and "--dice-left '4' is not part of the roll 6-5" in err
    rc, _, err = run(capsys, "render", MINIGAM, "--dice", "6-5", "--named-double", "9")
    assert rc == 2 and "--named-double" in err and "named_double" not in err


# -- numbers, JSON, options that did nothing, paths, help --------------------------------------
@pytest.mark.parametrize("option", ["--games", "--seed"])
def test_too_large_games_or_seed_says_too_large(capsys: pytest.CaptureFixture[str], option: str) -> None:
    rc, _, err = run(capsys, "value", MINIGAM, option, "99999999999999999999999")
    assert rc == 2 and "'99999999999999999999999' is too large" in err and "expected a whole number" not in err


def test_bad_json_line_reports_the_column_of_the_error(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    line = '{"position": "minigam/w/barx8/barx8", "dice": [2, 1]'  # the closing brace is missing
    assert len(line) == 52
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\n"))
    rc, out, _ = run(capsys, "plays", "--batch")
    assert rc == 2 and "at column 53, the end of the line" in json.loads(out)["error"]


def test_value_table_for_a_standard_position_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "value", START, "--table", "nosuch.npz", "--games", "2")
    assert rc == 2 and out == "" and "--table 'nosuch.npz'" in err and "only Mini-Gam" in err


def test_hint_truncate_without_rollout_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "hint", START, "--dice", "3-1", "--truncate", "3")
    assert rc == 2 and out == "" and "--truncate 3" in err and "--rollout" in err


def test_hint_luck_without_rollout_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "hint", START, "--dice", "3-1", "--luck")
    assert rc == 2 and out == "" and "--luck" in err and "--rollout" in err


def test_render_empty_output_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "render", MINIGAM, "-o", "")
    assert rc == 2 and out == "" and "-o ''" in err and "Is a directory" not in err


def test_candidates_filter_is_explained_in_output_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "hint", START, "--dice", "3-1", "--rollout", "1", "--candidates", "16")
    assert rc == 0
    rows = [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    rolled = sum(1 for row in rows if "rollout" in row)
    assert 0 < rolled < 16
    assert f"{rolled} of the 16 plays" in err and "--candidates 16" in err and "0.16" in err
    assert main(["hint", "--help"]) == 0
    assert "0.16" in " ".join(capsys.readouterr().out.split())


def test_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["--help"])
    out = capsys.readouterr().out
    assert rc == 0
    listed = " ".join(out.split()).split("COMMAND ", 2)[2].split(" ('COMMAND --help'")[0]
    for name in ("plays", "show", "render", "value", "hint", "analyse", "solve", "train"):
        assert name in listed
