"""Cold loads of lesson 1 on two or more built sites, taken in turn, so each faces the same load of
a shared machine: the wall time to the first card of the table, and the CPU seconds Chromium's
processes spent on it (steadier than the wall time when the machine is busy).

    PYTHONPATH=. .venv/bin/python benchmarks/site_cold_load_pair.py SITE_A SITE_B [--loads 4]

Each load is a fresh Chromium (no cache, no IndexedDB) with every address outside the site's
localhost blocked. ``benchmarks/site_speed.py`` measures one site (its size, loads, bot timings).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import time
from contextlib import ExitStack

import psutil

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from trainer.site_build.build import serve_folder

ROOT = pathlib.Path(__file__).resolve().parents[1]

TABLE = '[data-table="lesson"] .ht-hand .card'


def chromium_seconds() -> float:
    """CPU seconds (user + system) of this process's Chromium descendants so far."""
    total = 0.0
    for process in psutil.Process().children(recursive=True):
        try:
            if "chrom" in process.name():
                times = process.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def cold_load(url: str) -> tuple[float, float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1100, "height": 1300})
        local = (url + "/", "data:", "blob:")
        context.route(
            "**/*", lambda route: route.continue_() if route.request.url.startswith(local) else route.abort()
        )
        page = context.new_page()
        page.goto("about:blank")
        cpu, started = chromium_seconds(), time.monotonic()
        page.goto(f"{url}/lesson.html?lesson=l01_game")
        page.locator(TABLE).first.wait_for(timeout=300_000)
        wall, cpu = time.monotonic() - started, chromium_seconds() - cpu
        browser.close()
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", type=pathlib.Path, nargs="+", help="built sites (hearts-trainer site build)")
    parser.add_argument("--loads", type=int, default=4)
    args = parser.parse_args()
    found: dict[str, dict[str, list[float]]] = {
        str(site): {"wall": [], "cpu": [], "load": []} for site in args.sites
    }
    with ExitStack() as stack:
        served = [(site, stack.enter_context(serve_folder(site))) for site in args.sites]
        for _ in range(args.loads):
            for site, (url, _missing) in served:
                wall, cpu = cold_load(url)
                load = os.getloadavg()[0]
                for key, value in (("wall", wall), ("cpu", cpu), ("load", load)):
                    found[str(site)][key].append(round(value, 1))
                print(f"{site}: {wall:.1f} s, Chromium CPU {cpu:.1f} s, load {load:.1f}", flush=True)
    summary = {
        site: {f"{key}_median": statistics.median(values) for key, values in figures.items()} | figures
        for site, figures in found.items()
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
