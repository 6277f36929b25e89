#!/usr/bin/env bash
# ctest's browser test (label "browser"): the review page in Debian's chromium through playwright-core.
#   bash tests/browser/run.sh <kessel binary> <build dir>
# Skips (exit 77, which ctest reports as skipped) only when chromium or node is absent;
# scripts/install-deps installs both, and playwright-core with `npm ci` in tests/browser/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kessel="$1"
build="$(cd "$2" && pwd)"
chromium="${KESSEL_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then echo "browser test SKIPPED: no chromium at $chromium (apt-get install chromium, or scripts/install-deps)"; exit 77; fi
if ! command -v node > /dev/null; then echo "browser test SKIPPED: no node (apt-get install nodejs npm, or scripts/install-deps)"; exit 77; fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  echo "browser test: playwright-core is not installed in $here/node_modules: run scripts/install-deps (npm ci there)" >&2
  exit 1
fi
exec node "$here/review.test.mjs" "$kessel" "$(dirname "$(dirname "$here")")" "$build"
