#!/usr/bin/env bash
# Set up (first run only) and start Hearts Trainer: the lessons, in your browser.
# `python -m trainer.start` (also the `hearts-trainer` command) serves the notebooks in lessons/
# with the home page (lessons/index.py) at `/`, on the port of the last start when it is free
# (else the first free one from ${HEARTS_PORT:-2718} up), and prints the address with your token:
# the server lets in only that address, and only its own pages. Options: --port N, --no-browser.
# (The terminal game is `.venv/bin/python -m trainer.play`.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m trainer.start "$@"
