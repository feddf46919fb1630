"""The README's two commands: the test command is what CI runs, and the lab command starts
JupyterLab on the notebooks (checked by starting it and asking its API)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = re.findall(r"```bash\n(bash scripts/setup\.sh && [^\n]+)\n```", README)


def test_readme_gives_the_two_commands() -> None:
    assert COMMANDS == ["bash scripts/setup.sh && bash scripts/lab.sh", "bash scripts/setup.sh && bash scripts/test.sh"]


def test_ci_runs_the_readmes_test_command() -> None:
    lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert COMMANDS[1] in lines


SCRIPTS = [ROOT / ".ci" / "run", *sorted((ROOT / "scripts").glob("*.sh"))]
#: A command word `python` or `pip` (Debian 12 has neither; only python3 and the venv's own).
BARE_PYTHON = re.compile(r"(?:^|[;&|(]|\bexec|\bthen|\bdo)\s*(?:python|pip)3?\b", re.M)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_scripts_call_no_bare_python_or_pip(script: Path) -> None:
    code = "\n".join(ln for ln in script.read_text(encoding="utf-8").splitlines() if not ln.lstrip().startswith("#"))
    assert not BARE_PYTHON.findall(code), f"{script.name} calls python/pip off the project environment"


def _env_python(tmp_path: Path, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV")}
    out = subprocess.run(["bash", "-c", f'. "{ROOT}/scripts/env.sh" && printf %s "$PY"'],
                         env={**clean, **env}, capture_output=True, text=True, check=True, cwd=tmp_path)
    return out.stdout


def test_scripts_use_the_project_venv_unless_an_environment_is_active(tmp_path: Path) -> None:
    assert _env_python(tmp_path) == str(ROOT / ".venv" / "bin" / "python")
    (tmp_path / "env" / "bin").mkdir(parents=True)
    fake = tmp_path / "env" / "bin" / "python"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert _env_python(tmp_path, VIRTUAL_ENV=str(tmp_path / "env")) == str(fake)
    assert _env_python(tmp_path, CONDA_PREFIX=str(tmp_path / "env"), CONDA_DEFAULT_ENV="bg") == str(fake)
    # conda's base environment and a stale VIRTUAL_ENV with no Python do not count as active
    assert _env_python(tmp_path, CONDA_PREFIX=str(tmp_path / "env"), CONDA_DEFAULT_ENV="base").endswith(".venv/bin/python")
    assert _env_python(tmp_path, VIRTUAL_ENV=str(tmp_path / "gone")).endswith(".venv/bin/python")


def test_test_script_says_to_run_setup_first_without_an_environment(tmp_path: Path) -> None:
    clean = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV")}
    env = {**clean, "VIRTUAL_ENV": str(tmp_path / "none")}
    # a copy of the scripts in a folder without .venv
    (tmp_path / "scripts").mkdir()
    for name in ("env.sh", "test.sh", "lab.sh"):
        (tmp_path / "scripts" / name).write_text((ROOT / "scripts" / name).read_text(encoding="utf-8"))
    for name in ("test.sh", "lab.sh"):
        r = subprocess.run(["bash", str(tmp_path / "scripts" / name)], env=env, capture_output=True, text=True)
        assert r.returncode == 2 and "run 'bash scripts/setup.sh' first" in r.stderr


def test_venv_is_ignored_by_git() -> None:
    assert ".venv/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()


#: Folders that exist on one machine only; none is named in a tracked file.
MACHINE_PATH = re.compile("/(?:" + "|".join(["ro" + "ot", "wo" + "rk", "ho" + "me", "t" + "mp"]) + r")/")


def test_no_path_of_a_particular_machine_in_the_repository() -> None:
    try:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    found = []
    for name in filter(None, files.decode().split("\0")):
        path = ROOT / name
        if not path.is_file() or path.suffix in (".npz", ".png", ".pdf"):
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        found += [f"{name}: {m.group(0)!r}" for m in MACHINE_PATH.finditer(text)]
    assert not found, found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.browser
def test_lab_script_serves_the_notebooks(tmp_path: Path) -> None:
    pytest.importorskip("jupyterlab")
    port = _free_port()
    env = dict(os.environ)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[var] = str(tmp_path / var.lower())
    proc = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "lab.sh"), "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--ServerApp.token=",
         "--ServerApp.password=", "--LabApp.news_url=None"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents", timeout=2) as r:
                    listing = json.load(r)
                break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    raise AssertionError("JupyterLab did not answer") from None
                time.sleep(0.5)
        names = {item["name"] for item in listing["content"]}
        assert "00_start_here.ipynb" in names
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab", timeout=5) as r:
            assert r.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
