#!/usr/bin/env bash
# Everything a fresh machine needs for backgammon_lab: the package with its test extra, and
# Debian's Chromium for the browser tests (Playwright never downloads a browser here).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -e ".[test]"
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/lib/chromium/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: no chromium and no apt-get; browser tests will be skipped" >&2
  fi
fi
