#!/usr/bin/env bash
# Set up (first run only) and start Hearts Trainer: the lessons, in your browser.
# `python -m trainer.serve` serves the notebooks in lessons/ with the home page (lessons/index.py)
# at `/`, so marimo's own file gallery is never what a learner lands on.
# (The terminal game is `.venv/bin/python -m trainer.play`.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export MARIMO_SKIP_UPDATE_CHECK=1
# The port of the last start when it is free (remembered in ~/.local/share/hearts-trainer/server-port,
# or $HEARTS_TRAINER_HOME/server-port), so a tab left open works again after a restart; else the
# first free port from ${HEARTS_PORT:-2718} up.
port=$(.venv/bin/python -m trainer.server_port)
url="http://127.0.0.1:$port/"
.venv/bin/python -m trainer.serve --port "$port" "$@" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 150); do
    if .venv/bin/python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/health', timeout=1)" 2>/dev/null; then
        break
    fi
    kill -0 "$server" 2>/dev/null || { echo "The Hearts Trainer server stopped; see the messages above." >&2; exit 1; }
    sleep 0.2
done
echo "Hearts Trainer lessons: $url"
# Open a browser where there is a desktop; a headless server just prints the address.
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = Darwin ]; then
    .venv/bin/python -m webbrowser -t "$url" >/dev/null 2>&1 || true
fi
wait "$server"
