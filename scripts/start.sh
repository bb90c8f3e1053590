#!/usr/bin/env bash
# Set up (first run only) and start Hearts Trainer: the card table demo, in your browser.
# (The terminal game is `.venv/bin/python -m trainer.play`.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export MARIMO_SKIP_UPDATE_CHECK=1
exec .venv/bin/marimo run lessons/table_demo.py "$@"
