#!/usr/bin/env bash
# Runs the whole suite (unit, integration, e2e). pytest exit 5 ("no tests collected") is a failure here:
# a green run must have run tests.
set -uo pipefail
cd "$(dirname "$0")/.."
UV=$(command -v uv 2>/dev/null || echo "$HOME/.local/bin/uv")
mkdir -p test-artifacts
"$UV" run --frozen ruff check prefect_autodata tests benchmarks scripts || exit 1
"$UV" run --frozen lint-imports || exit 1  # import contracts: .importlinter
"$UV" run --frozen pytest -q -ra --durations=40 "$@"  # the slowest 40: what to cut when the suite nears its 20-min budget
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
