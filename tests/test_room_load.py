"""The room load benchmark runs end to end: it starts `hearts-trainer host` on a loopback port,
plays rooms of scripted players against it, stops everything and writes its figures (no timing
is asserted: the figures are the benchmark's to report)."""

from __future__ import annotations

import concurrent.futures
import json

from benchmarks import room_load


def test_the_benchmark_plays_rooms_and_writes_its_figures(tmp_path, capsys) -> None:
    out = tmp_path / "room_load.json"
    arguments = ["--rooms", "2", "--seconds", "3", "--think", "0.05", "--json", str(out)]
    # In a thread of its own: a worker that ran a browser test keeps Playwright's loop in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(room_load.main, arguments).result()
    figures = json.loads(out.read_text())
    (run,) = figures["runs"]
    assert run["rooms"] == 2 and run["errors"] == 0
    assert run["plays_measured"] > 0  # cards were played and seen by all 4 players of their room
    times = run["play_to_all_ms"]
    assert 0 < times["p50"] <= times["p95"] <= times["max"]
    assert json.loads(capsys.readouterr().out) == figures
