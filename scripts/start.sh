#!/usr/bin/env bash
# Set up (first run only) and start Hearts Trainer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m trainer.play "$@"
