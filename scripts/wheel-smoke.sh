#!/usr/bin/env bash
# CI, after the tests: build the wheel, install it with its dependencies (from PyPI) into a fresh
# venv outside the checkout, and run scripts/wheel_smoke.py with that venv from outside the checkout,
# so only the installed package can answer.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
python=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/hearts-trainer-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$SECONDS

"$python" -m venv "$work/venv"
# Its pip builds the wheel in an isolated build environment, so the venv itself stays fresh.
wheel=$("$work/venv/bin/python" scripts/build_wheel.py "$work/dist")
echo "built $(basename "$wheel") in $((SECONDS - started)) s"
# --no-compile: half the files to write now and to delete after (deleting took over a minute here).
"$work/venv/bin/python" -m pip install --quiet --no-compile "$wheel"
echo "installed into a fresh venv in $((SECONDS - started)) s"

mkdir "$work/elsewhere"
cd "$work/elsewhere"
cp "$checkout/scripts/wheel_smoke.py" .
# -I: no PYTHONPATH, no user site, no script folder on the path: the venv's packages or nothing.
HEARTS_TRAINER_HOME="$work/home" MARIMO_SKIP_UPDATE_CHECK=1 "$work/venv/bin/python" -I wheel_smoke.py
echo "wheel smoke test passed in $((SECONDS - started)) s"
