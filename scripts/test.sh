#!/usr/bin/env bash
# Every test (unit, browser, notebook and docs) with the project's Python (see scripts/env.sh).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh tests/test_cli.py -q`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
need_env
exec "$PY" -m pytest "$@"
