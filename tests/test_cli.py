"""The command line: ``backgammon-lab plays``/``show`` (issue 2), via ``main()`` and a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from backgammon_lab import Position, legal_plays
from backgammon_lab.cli import main

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

    exe = which("backgammon-lab")
    if exe is None:
        pytest.skip("console script not installed (pip install -e .)")
    b = subprocess.run([exe, "plays", START, "--dice", "2-1"], capture_output=True, text=True, check=True).stdout
    assert a == b and len(json.loads(a)) == 15
