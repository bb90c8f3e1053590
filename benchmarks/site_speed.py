"""The static site measured: its size, a cold load to an interactive table, and the Hard bot's
pass and play decisions and the coach's play verdicts timed in the browser (Chromium, Pyodide).

    PYTHONPATH=. .venv/bin/python benchmarks/site_speed.py [--site DIR] [--loads 3] [--decisions 8]
        [--passes 12] [--out benchmarks/results/site.json]

Builds the whole site (``hearts-trainer site build``) unless ``--site`` names a built one, serves it
from localhost with every other address blocked, and writes ``benchmarks/results/site.json``.
Each cold load is a fresh browser context (no cache, no IndexedDB): from navigation to the first
card of lesson 1's table drawn. The decisions and verdicts run in Pyodide loaded from the site's own
``pyodide/`` with the site's wheel (a small page the benchmark adds beside the site's pages), on
positions from seeded hands played by Normal bots: the Hard bot's ``choose_play`` and the coach's
``judge_play`` (at the browser depth, ``trainer.coach.depth.BROWSER``) for the seat to move, where it
has two or more legal cards, from the second trick to the ninth; and Hard's ``choose_pass`` (on
Pyodide's budget, ``engine.bots.hard.BROWSER_PASS``) for every seat of seeded deals that pass.
A bot decides between turns of the page's event loop (``trainer.table.widget``), Hard in parts (a
turn each: ``HardBot.pass_steps``, ``engine.search.evaluator.STEP_PLAYOUTS``), so the longest part
is the longest a learner's click can wait for a bot: ``longest_wait_for_a_bot_ms`` (the parts'
spread ``hard_decision_part_ms``).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from trainer.site_build.build import serve_folder

ROOT = pathlib.Path(__file__).resolve().parents[1]

MIRROR = ROOT / ".cache" / "site-build" / "mirror"  # the checkout's own, made by scripts/setup.sh

TIMING = r"""
import json, time
from engine import HandState, Rules
from engine.hand import Phase
from engine.bots import make_bot
from trainer.coach.depth import COACH, judge_play

def parts(steps):  # a decision's parts (Hard's looks, a turn of the page's event loop each), in ms
    times = []
    while True:
        start = time.perf_counter()
        try:
            next(steps)
        except StopIteration:
            times.append(1000 * (time.perf_counter() - start))
            return times
        times.append(1000 * (time.perf_counter() - start))

rules = Rules()
pass_ms, part_ms = [], []
seed = 100
while len(pass_ms) < PASSES:
    direction = rules.pass_direction(seed)
    if direction.value != "hold":
        state = HandState.from_seed(seed, rules, direction)
        for seat in range(rules.players):
            if len(pass_ms) < PASSES:
                hard = make_bot("hard", seed + seat)
                timed = parts(hard.pass_steps(state.view(seat)))
                pass_ms.append(sum(timed)); part_ms.extend(timed)
    seed += 1
pass_budget = {"samples": hard.passes.samples, "stages": hard.passes.stages, "seconds": hard.passes.seconds}

hard_ms, verdict_ms, samples, stopped = [], [], [], 0
seed = 100
while len(hard_ms) < WANTED:
    state = HandState.from_seed(seed, rules, rules.pass_direction(seed))
    bots = [make_bot("normal", s) for s in range(4)]
    hard = make_bot("hard", seed)
    taken = 0
    while not state.is_over and len(hard_ms) < WANTED:
        seat = state.seats_to_pass[0] if state.phase is Phase.PASSING else state.to_move
        view = state.view(seat)
        if state.phase is Phase.PASSING:
            state.pass_cards(seat, bots[seat].choose_pass(view))
            continue
        if state.phase is Phase.MOON_CHOICE:
            state.choose_moon(bots[seat].choose_moon(view), seat)
            continue
        legal = list(view.legal_cards)
        if len(legal) > 1 and 1 <= len(state.tricks) <= 8 and taken < 2:
            timed = parts(hard.play_steps(view))
            hard_ms.append(sum(timed)); part_ms.extend(timed)
            start = time.perf_counter()
            evaluation = judge_play(view, legal[0], seed)
            verdict_ms.append(1000 * (time.perf_counter() - start))
            samples.append(evaluation.samples); stopped += evaluation.clock_stopped
            taken += 1
        state.play(bots[seat].choose_play(view), seat)
    seed += 1
json.dumps({"pass_ms": pass_ms, "pass_budget": pass_budget, "part_ms": part_ms,
            "hard_ms": hard_ms, "verdict_ms": verdict_ms, "samples": samples, "clock_stopped": stopped,
            "depth": {"play_samples": COACH.play_samples, "play_seconds": COACH.play_seconds}})
"""

PAGE = """<!doctype html><meta charset="utf-8"><title>timing</title>
<script type="module">
const lock = await (await fetch("./lockfile/LOCK")).json();
const { loadPyodide } = await import("./pyodide/pyodide.mjs");
const started = performance.now();
const base = new URL("./pyodide/", location.href).href;
const pyodide = await loadPyodide({
  indexURL: base, packageBaseUrl: base, lockFileContents: JSON.stringify(lock),
});
await pyodide.loadPackage(["hearts-trainer"]);
window.loaded_ms = performance.now() - started;
window.run = async (code) => pyodide.runPythonAsync(code);
window.ready = true;
</script>"""


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "median": round(statistics.median(ordered), 1),
        "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
        "max": round(ordered[-1], 1),
    }


def folder_size(folder: pathlib.Path) -> dict[str, float]:
    sizes: dict[str, int] = {}
    for path in folder.rglob("*"):
        if path.is_file():
            top = path.relative_to(folder).parts[0]
            sizes[top if path.parent != folder else "pages and icons"] = (
                sizes.get(top if path.parent != folder else "pages and icons", 0) + path.stat().st_size
            )
    return {"total_mb": round(sum(sizes.values()) / 1e6, 1)} | {
        f"{name}_mb": round(size / 1e6, 1) for name, size in sorted(sizes.items(), key=lambda kv: -kv[1])
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=pathlib.Path, help="a site already built (default: build one)")
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=8)
    parser.add_argument("--passes", type=int, default=12, help="Hard passes to time")
    parser.add_argument(
        "--out", type=pathlib.Path, default=ROOT / "benchmarks" / "results" / "site.json", help="the report"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    report: dict[str, object] = {
        "command": "PYTHONPATH=. .venv/bin/python benchmarks/site_speed.py " + " ".join(sys.argv[1:]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared with other work)",
        "browser": str(CHROMIUM),
        "load_average_at_start": [round(load, 2) for load in os.getloadavg()],
    }
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = pathlib.Path(scratch) / "site"
            started = time.monotonic()
            subprocess.run(
                [sys.executable, "-m", "trainer.cli", "site", "build", str(site), "--mirror", str(MIRROR)],
                cwd=ROOT,
                check=True,
            )
            report["build_seconds_all_pages"] = round(time.monotonic() - started, 1)
        report["size"] = folder_size(site)
        lock = max((site / "lockfile").glob("*.json"), key=lambda path: "hearts-trainer" in path.read_text())
        (site / "timing.html").write_text(PAGE.replace("LOCK", lock.name))
        try:
            with serve_folder(site) as (url, missing), sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                outside: list[str] = []

                def context():
                    made = browser.new_context(viewport={"width": 1100, "height": 1300})
                    made.route(
                        "**/*",
                        lambda route: (
                            route.continue_()
                            if route.request.url.startswith((url + "/", "data:", "blob:"))
                            else (outside.append(route.request.url), route.abort())
                        ),
                    )
                    return made

                loads = []
                for _ in range(args.loads):
                    made = context()
                    page = made.new_page()
                    started = time.monotonic()
                    page.goto(f"{url}/lesson.html?lesson=l01_game")
                    page.locator('[data-table="lesson"] .ht-hand .card').first.wait_for(timeout=180_000)
                    loads.append(time.monotonic() - started)
                    made.close()
                report["cold_load_to_table_seconds"] = spread(loads)

                made = context()
                page = made.new_page()
                page.goto(f"{url}/timing.html")
                page.wait_for_function("window.ready === true", timeout=180_000)
                report["pyodide_and_wheel_load_ms"] = round(page.evaluate("window.loaded_ms"))
                code = TIMING.replace("WANTED", str(args.decisions)).replace("PASSES", str(args.passes))
                result = json.loads(page.evaluate("code => window.run(code)", code))
                made.close()
                browser.close()
                report["hard_pass_decision_ms"] = spread(result["pass_ms"])
                report["hard_pass_each_ms"] = [round(ms) for ms in result["pass_ms"]]  # in the order timed
                report["hard_pass_budget_in_the_browser"] = result["pass_budget"]
                report["hard_play_decision_ms"] = spread(result["hard_ms"])
                report["longest_bot_decision_ms"] = round(max(result["pass_ms"] + result["hard_ms"]), 1)
                report["hard_decision_part_ms"] = spread(result["part_ms"])
                report["longest_wait_for_a_bot_ms"] = round(max(result["part_ms"]), 1)
                report["play_verdict_ms"] = spread(result["verdict_ms"])
                report["play_verdict_deals"] = spread(result["samples"])
                report["play_verdicts_stopped_by_the_clock"] = result["clock_stopped"]
                report["coach_depth_in_the_browser"] = result["depth"]
                report["requests_outside_localhost"] = len(outside)
                report["files_missing"] = sorted(set(missing))
        finally:
            (site / "timing.html").unlink(missing_ok=True)
        if args.site is None:
            shutil.rmtree(site, ignore_errors=True)
    report["load_average_at_end"] = [round(load, 2) for load in os.getloadavg()]
    out = args.out
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
