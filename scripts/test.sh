#!/usr/bin/env bash
# Set up (first run only) and run the whole test suite: lint, the puzzle files check, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/python -m trainer.puzzles check
.venv/bin/python -m pytest "$@"
