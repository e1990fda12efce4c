#!/usr/bin/env bash
# The browser client's tests: unit tests of the pure modules, then the end-to-end tests
# in Debian's headless Chromium against the real server binary (DAMKA_BIN, default
# target/debug/damka). Each runner's output ends with node's test summary; the script
# exits non-zero when either fails.
set -euo pipefail
cd "$(dirname "$0")"

# Chromium and the npm packages, if missing (also when this script is run on its own).
../scripts/setup

status=0
echo "== client unit tests"
node --test unit/ || status=1

echo "== end-to-end tests (headless Chromium)"
node --test --test-concurrency=1 tests/ || status=1

exit "$status"
