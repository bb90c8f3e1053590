"""The career's bots timed in the static site (Chromium, Pyodide): every level's passes and plays and
the master table's, and the longest part of a decision, which is the longest a learner's click can
wait for a bot (the table runs one part a turn of the page's event loop, ``trainer.table.widget``).

    PYTHONPATH=. .venv/bin/python benchmarks/site_career_speed.py [--site DIR] [--levels KEY ...]
        [--hands 2] [--out benchmarks/results/site_career.json]

Builds the career page (``hearts-trainer site build --pages career``) unless ``--site`` names a built
site, and runs in Pyodide loaded from the site's own ``pyodide/`` with the site's wheel (the page of
``benchmarks/site_speed.py``). For each level (``engine.bots.ladder``: ``level-1`` to ``level-10``,
``master``) four bots of that level play ``--hands`` hands of one game, each bot kept from hand to
hand as at the career's table (so the master table reads the hands before); every pass, and every
play with two or more legal cards, is timed part by part (``engine.bots.bot_turn``).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks.site_speed import MIRROR, PAGE, ROOT, spread
from engine.bots.ladder import level_keys
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from trainer.site_build.build import serve_folder

TIMING = r"""
import json, time
from engine import HandState, Rules
from engine.bots import bot_turn, make_bot
from engine.hand import Phase

rules = Rules()
bots = [make_bot(KEY, 53000 + seat) for seat in range(rules.players)]
pass_ms, play_ms, part_ms = [], [], []
hands, seed = 0, 53000
while hands < HANDS:
    direction = rules.pass_direction(seed)
    seed += 1
    if direction.value == "hold":
        continue  # hands that pass: a pass is what the site's budget bounds
    state = HandState.from_seed(seed, rules, direction)
    while not state.is_over:
        seat = state.seats_to_pass[0] if state.phase is Phase.PASSING else state.to_move
        kind = state.phase
        choices = len(state.view(seat).legal_cards) if kind is Phase.PLAYING else 2
        turn, parts = bot_turn(state, seat, bots[seat]), []
        while True:
            start = time.perf_counter()
            try:
                next(turn)
            except StopIteration:
                parts.append(1000 * (time.perf_counter() - start))
                break
            parts.append(1000 * (time.perf_counter() - start))
        part_ms.extend(parts)
        if kind is Phase.PASSING:
            pass_ms.append(sum(parts))
        elif kind is Phase.PLAYING and choices > 1:
            play_ms.append(sum(parts))
    hands += 1
json.dumps({"pass_ms": pass_ms, "play_ms": play_ms, "part_ms": part_ms})
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--site", type=pathlib.Path, help="a site already built (default: build the career page)"
    )
    parser.add_argument("--levels", nargs="+", default=list(level_keys()), help="level keys (default: all)")
    parser.add_argument("--hands", type=int, default=2, help="hands of one game a level (each passes)")
    parser.add_argument(
        "--out",
        type=pathlib.Path,
        default=ROOT / "benchmarks" / "results" / "site_career.json",
        help="the report",
    )
    args = parser.parse_args()
    unknown = [key for key in args.levels if key not in level_keys()]
    if unknown:
        parser.error(f"--levels {unknown[0]}: the levels are {', '.join(level_keys())}")
    from playwright.sync_api import sync_playwright

    report: dict[str, object] = {
        "command": "PYTHONPATH=. .venv/bin/python benchmarks/site_career_speed.py " + " ".join(sys.argv[1:]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared with other work)",
        "browser": str(CHROMIUM),
        "load_average_at_start": [round(load, 2) for load in os.getloadavg()],
        "levels": {},
    }
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = pathlib.Path(scratch) / "site"
            build = [sys.executable, "-m", "trainer.cli", "site", "build", str(site), "--pages", "career"]
            subprocess.run([*build, "--mirror", str(MIRROR)], cwd=ROOT, check=True)
        lock = max((site / "lockfile").glob("*.json"), key=lambda path: "hearts-trainer" in path.read_text())
        (site / "timing.html").write_text(PAGE.replace("LOCK", lock.name))
        try:
            with serve_folder(site) as (url, _missing), sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.route(
                    "**/*",
                    lambda route: route.continue_() if route.request.url.startswith(url) else route.abort(),
                )
                page.goto(f"{url}/timing.html")
                page.wait_for_function("window.ready === true", timeout=180_000)
                for key in args.levels:
                    code = TIMING.replace("KEY", repr(key)).replace("HANDS", str(args.hands))
                    started = time.monotonic()
                    result = json.loads(page.evaluate("code => window.run(code)", code))
                    entry = {
                        "pass_ms": spread(result["pass_ms"]),
                        "play_ms": spread(result["play_ms"]),
                        "part_ms": spread(result["part_ms"]),
                        "longest_wait_for_a_bot_ms": round(max(result["part_ms"]), 1),
                        "seconds": round(time.monotonic() - started, 1),
                        "load_average": [round(load, 2) for load in os.getloadavg()],
                    }
                    report["levels"][key] = entry
                    print(key, json.dumps(entry), file=sys.stderr)
                browser.close()
        finally:
            (site / "timing.html").unlink(missing_ok=True)
        if args.site is None:
            shutil.rmtree(site, ignore_errors=True)
    report["load_average_at_end"] = [round(load, 2) for load in os.getloadavg()]
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
