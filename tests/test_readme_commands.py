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
    assert COMMANDS == ["bash scripts/setup.sh && bash scripts/lab.sh", "bash scripts/setup.sh && python -m pytest"]


def test_ci_runs_the_readmes_test_command() -> None:
    assert COMMANDS[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


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
