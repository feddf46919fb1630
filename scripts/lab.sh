#!/usr/bin/env bash
# JupyterLab on the tutorial notebooks, with the project's Python (see scripts/env.sh). Extra
# arguments go to JupyterLab (e.g. --no-browser, --ServerApp.port=8899). As root (containers, CI
# machines) JupyterLab needs --allow-root.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
need_env
extra=()
[ "$(id -u)" = 0 ] && extra+=(--allow-root)
exec "$PY" -m jupyterlab --ServerApp.root_dir=notebooks "${extra[@]}" "$@"
