#!/usr/bin/env bash
# Set up (first run only) and run the whole test suite: lint, then pytest (whose
# tests/test_puzzle_check.py runs `python -m trainer.puzzles check` on every shipped puzzle).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Both cores: each test file runs whole on one worker (its module fixtures, servers included, stay
# together), the longest files first (tests/conftest.py). TEST_WORKERS=0 runs in this process.
.venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder "$@"
