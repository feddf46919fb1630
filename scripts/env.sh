# Sourced by the scripts in this folder: ROOT (the repository) and PY (the project's Python).
# PY is the active virtual environment's (or a conda environment's other than base), else the
# project virtual environment .venv that scripts/setup.sh creates.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ACTIVE_ENV=""
if [ -n "${VIRTUAL_ENV:-}" ] && [ -x "$VIRTUAL_ENV/bin/python" ]; then
  ACTIVE_ENV="$VIRTUAL_ENV"
elif [ -n "${CONDA_PREFIX:-}" ] && [ "${CONDA_DEFAULT_ENV:-base}" != base ] && [ -x "$CONDA_PREFIX/bin/python" ]; then
  ACTIVE_ENV="$CONDA_PREFIX"
fi
PY="${ACTIVE_ENV:-$ROOT/.venv}/bin/python"
# Why scripts/setup.sh could not install Chromium (absent when it could); scripts/test.sh shows it.
CHROMIUM_NOTE="${CHROMIUM_NOTE:-$ROOT/.setup-no-chromium.txt}"
# Where the browser tests look for Chromium (tests/conftest.py reads the same variable).
CHROMIUM_PATHS="${CHROMIUM_PATHS:-/usr/lib/chromium/chromium /usr/bin/chromium}"

need_env() {  # stop with a clear message when setup.sh has not made the environment yet
  if [ ! -x "$PY" ]; then
    echo "$(basename "$0"): no Python environment at ${PY%/bin/python}: run 'bash scripts/setup.sh' first" >&2
    exit 2
  fi
}
