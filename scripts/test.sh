#!/usr/bin/env bash
# Set up (first run only) and run the whole test suite: lint, then pytest (whose
# tests/test_puzzle_check.py runs `python -m trainer.puzzles check` on every shipped puzzle).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Three workers on two cores: each test file runs whole on one worker (its module fixtures, servers
# included, stay together), the longest files first (tests/conftest.py). Browser and server tests
# wait much of their time, so two workers kept the cores about 55% busy (9:12 -> 8:42 with three).
# TEST_WORKERS=0 runs in this process. The project's own modules are compiled to bytecode once
# (an environment may say not to write it: then every worker and every server or page the tests
# start compiles engine/ and trainer/ again, tens of processor seconds in all).
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m pytest -n "${TEST_WORKERS:-3}" --dist loadfile --no-loadscope-reorder "$@"
