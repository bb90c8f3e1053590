#!/usr/bin/env bash
# Make .venv with everything the lessons and the tests need. Safe to run again: it only
# reinstalls when pyproject.toml or setup.py has changed.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Hearts Trainer needs Python 3.11 or newer (tried: $python)." >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
stamp=".venv/.installed-$(cat pyproject.toml setup.py | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test]"
    rm -f .venv/.installed-*
    touch "$stamp"
fi
# Compile the numba play-outs into their cache now, not during a learner's first verdict.
.venv/bin/python -m engine.search.warm_up
# The browser tests drive Debian's chromium (Playwright's own browser download cannot work here).
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
    else
        echo "The browser tests need /usr/bin/chromium: sudo apt-get install chromium" >&2
    fi
fi
# Rooms shared by several server processes go through Redis; tests/test_rooms_redis.py starts
# its own Debian redis-server on a free loopback port (one process needs no Redis at all).
if ! command -v redis-server >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server
    else
        echo "The Redis rooms tests need redis-server: sudo apt-get install redis-server" >&2
    fi
fi
# The static site's test (tests/browser/test_static_site_browser.py) and benchmarks/site_speed.py
# build the site offline from a local mirror of Pyodide (the npm package) and the pure-Python wheels
# its pages install (pip), kept in the checkout's .cache/site-build/mirror (ignored by git; made
# once, ~15 s) rather than in the user's cache where an installed `hearts-trainer site build` keeps it.
if ! command -v npm >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm
    else
        echo "The static site's build needs npm: sudo apt-get install npm" >&2
    fi
fi
.venv/bin/python -m trainer.site_build mirror .cache/site-build/mirror >/dev/null
