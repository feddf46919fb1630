#!/usr/bin/env bash
# Everything a fresh machine needs for backgammon_lab:
# - a project virtual environment .venv (unless a virtual or conda environment is active), made
#   with python3 -m venv; on Debian/Ubuntu, where venv is a separate package, python3-venv is
#   installed with apt-get when missing;
# - the package with its test extra, installed into that environment (editable);
# - Debian's Chromium for the browser tests (Playwright never downloads a browser here).
# apt-get runs as root, or through sudo for another user. Run it again at any time: it reuses .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

. scripts/apt.sh  # apt_install, which waits while another apt or dpkg is busy; APT_ERROR says why it failed

if [ -z "$ACTIVE_ENV" ]; then
  host="$(command -v python3 || true)"
  if [ -z "$host" ]; then
    apt_install python3 || { echo "setup: no python3 (Python 3.11 or newer is needed): $APT_ERROR" >&2; exit 1; }
    host="$(command -v python3)"
  fi
  if ! "$host" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "setup: $host is Python $("$host" -c 'import platform; print(platform.python_version())'); 3.11 or newer is needed" >&2
    exit 1
  fi
  if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    if ! "$host" -c 'import ensurepip, venv' >/dev/null 2>&1; then
      echo "setup: installing python3-venv (Debian keeps venv apart from python3)" >&2
      apt_install python3-venv || { echo "setup: $host has no venv module; install python3-venv ($APT_ERROR)" >&2; exit 1; }
    fi
    rm -rf .venv
    "$host" -m venv .venv
    # the pip of a distribution's venv may be old (Debian 12: 23.0): a current one builds every package the same way
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
    echo "setup: made the project virtual environment .venv" >&2
  fi
fi

"$PY" -m pip install --quiet --disable-pip-version-check -e ".[test]"

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/lib/chromium/chromium ]; then
  if apt_install chromium; then
    rm -f "$CHROMIUM_NOTE"
  else
    echo "setup: WARNING: Chromium is not installed, so the browser tests will be SKIPPED: $APT_ERROR" >&2
    echo "setup: run 'bash scripts/setup.sh' again once that is fixed (scripts/test.sh reminds you)" >&2
    echo "$APT_ERROR" > "$CHROMIUM_NOTE"
  fi
else
  rm -f "$CHROMIUM_NOTE"
fi
# the compiled kernels (the move generator, the search, the rollouts): numba compiles each once per
# machine into the user's cache (minutes on a bare machine; seconds afterwards), so that the first
# click, hint or rollout does not wait for it, and the tests' workers do not compile the same twice
echo "setup: compiling the kernels of each variant's shipped net (once per machine)" >&2
"$PY" scripts/precompile.py
echo "setup: done; Python is $PY" >&2
