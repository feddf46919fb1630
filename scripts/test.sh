#!/usr/bin/env bash
# Every test (unit, browser, notebook and docs) with the project's Python (see scripts/env.sh).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh tests/test_cli.py -q`.
# The tests run on every core (pytest-xdist, whole files per worker); PYTEST_WORKERS=1 runs them in
# this one process, PYTEST_WORKERS=N on N workers. The 15 slowest tests are listed at the end (CI time).
# Without Chromium the browser tests are skipped: this says so loudly, with the reason
# scripts/setup.sh recorded, before and after the run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
need_env

browser_warning() {  # prints the warning when no Chromium is where the browser tests look
  local p
  for p in $CHROMIUM_PATHS; do
    [ -x "$p" ] && return 0
  done
  local why="scripts/setup.sh has not installed it"
  [ -s "$CHROMIUM_NOTE" ] && why="$(cat "$CHROMIUM_NOTE")"
  {
    echo "test: ****************************************************************************"
    echo "test: WARNING: the browser tests are SKIPPED: Chromium is not installed (looked at: $CHROMIUM_PATHS)"
    echo "test: why: $why"
    echo "test: fix that, run 'bash scripts/setup.sh' again, then these tests run too"
    echo "test: ****************************************************************************"
  } >&2
}

browser_warning
export CHROMIUM_PATHS
status=0
workers=${PYTEST_WORKERS:-auto}
parallel=()
[ "$workers" != 1 ] && parallel=(-n "$workers" --dist loadfile)
"$PY" -m pytest "${parallel[@]}" --durations=15 "$@" || status=$?
browser_warning
exit "$status"
