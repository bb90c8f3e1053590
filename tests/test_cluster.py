"""engine.cluster: jobs on real Dask clusters of worker processes, and tournaments played there."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Rules
from engine.cluster import DaskMissing, run_on_dask
from engine.tournament import run_tournament, summarize

LINEUP = ["easy", "normal", "normal", "normal"]


def square_of(job: tuple) -> tuple:
    """A job that is a tuple starting with a callable must arrive as data, not run as a task."""
    function, number = job
    return function.__name__, number * number


def fails_on_three(number: int) -> int:
    if number == 3:
        raise RuntimeError("job three failed")
    return number


def nap(number: int) -> int:
    time.sleep(0.2)
    return number


def figures(summary: dict) -> dict:
    """The summary without the decision times, which no two runs share."""
    bots = {name: {k: v for k, v in row.items() if "_ms_" not in k} for name, row in summary["bots"].items()}
    return {**summary, "bots": bots}


def outcomes(results) -> list[tuple]:
    return [(r.deal, r.rotation, r.seat, r.bot, r.score, r.shot_moon) for r in results]


@pytest.fixture(scope="module")
def scheduler():
    """A running cluster of 2 worker processes, as ``dask scheduler`` and ``dask worker`` give."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address


def test_a_tournament_on_a_local_dask_cluster_gives_the_one_process_figures():
    alone = run_tournament(LINEUP, Rules(), deals=3, seed=5)
    seen = []
    on_dask = run_tournament(
        LINEUP, Rules(), deals=3, seed=5, workers=2, dask=True, progress=lambda *done: seen.append(done)
    )
    assert outcomes(on_dask) == outcomes(alone)  # in deal order, whatever order they finished in
    assert figures(summarize(on_dask)) == figures(summarize(alone))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_a_tournament_on_a_running_cluster_gives_the_process_pool_figures(scheduler):
    pool = run_tournament(LINEUP, Rules(), deals=3, seed=8, workers=2)
    on_dask = run_tournament(LINEUP, Rules(), deals=3, seed=8, scheduler=scheduler)
    assert outcomes(on_dask) == outcomes(pool)
    assert figures(summarize(on_dask)) == figures(summarize(pool))


def test_run_on_dask_yields_every_jobs_result_once_with_its_index(scheduler):
    jobs = [(len, number) for number in range(12)]
    seen = []
    results = list(run_on_dask(square_of, jobs, scheduler=scheduler, progress=lambda *d: seen.append(d)))
    assert sorted(results) == [(number, ("len", number * number)) for number in range(12)]
    assert seen == [(done, 12) for done in range(1, 13)]
    assert list(run_on_dask(square_of, [], scheduler=scheduler)) == []


def test_a_failing_job_raises_its_error_and_the_cluster_still_serves(scheduler):
    with pytest.raises(RuntimeError, match="job three failed"):
        list(run_on_dask(fails_on_three, range(6), scheduler=scheduler))
    assert sorted(run_on_dask(fails_on_three, [1, 2], scheduler=scheduler)) == [(0, 1), (1, 2)]


def test_stopping_early_cancels_the_rest_and_stops_the_local_cluster():
    before = set(multiprocessing.active_children())
    with contextlib.closing(run_on_dask(nap, range(20), workers=2)) as results:
        index, result = next(results)
        assert index == result
    deadline = time.monotonic() + 10
    while set(multiprocessing.active_children()) - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not set(multiprocessing.active_children()) - before  # its worker processes are gone


def test_without_dask_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(DaskMissing, match=r'pip install "dask\[distributed\]"'):
        run_on_dask(square_of, [(len, 1)])


def test_the_engine_imports_and_plays_without_dask():
    """Under Pyodide there is no Dask: the tournament module and engine.cluster import without it."""
    script = """
import sys
sys.modules["dask"] = None
sys.modules["distributed"] = None
from engine import Rules
from engine.tournament import run_tournament
import engine.cluster
print(len(run_tournament(["easy"] * 4, Rules(), deals=1)))
"""
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[1],
    )
    assert result.stdout.split() == ["16"]
