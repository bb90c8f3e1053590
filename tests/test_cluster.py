"""engine.cluster: jobs on real Dask clusters of worker processes, and tournaments played there."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Rules
from engine.cluster import ClusterUnavailable, DaskMissing, run_on_dask
from engine.tournament import main as tournament_main
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def in_process_cluster(workers: int):
    """A local cluster in this process (threads, no dashboard port to fight over)."""
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        processes=False,
        threads_per_worker=1,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    )


def unavailable(scheduler: str, **options) -> str:
    """The one line run_on_dask raises for this address, before any job is sent."""
    with pytest.raises(ClusterUnavailable) as raised:
        list(run_on_dask(square_of, [(len, 1)], scheduler=scheduler, **options))
    message = str(raised.value)
    assert "\n" not in message and len(message) < 400
    return message


def test_a_scheduler_address_nothing_listens_on_is_one_line_saying_what_to_do():
    address = f"tcp://127.0.0.1:{free_port()}"
    message = unavailable(address)
    assert message.startswith(f"No Dask scheduler at {address}: Connection refused")
    assert "`dask scheduler`" in message and "8786" in message
    message = unavailable("tcp://no-such-host.invalid:8786")
    assert "the host 'no-such-host.invalid' is not known" in message
    for wrong in ("garbage", "http://127.0.0.1:8787"):
        assert unavailable(wrong).startswith(f"{wrong!r} is not a Dask scheduler's address (")


def test_a_server_that_is_not_a_dask_scheduler_is_given_up_after_the_connect_timeout():
    """A listening port that never answers (as a dashboard's HTTP port does not answer Dask)
    would keep Dask's own handshake waiting for ever."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        message = unavailable(address, connect_timeout=0.5)
    assert message.startswith(f"No Dask scheduler answered at {address} within 0.5 s: check")
    assert "--connect-timeout" in message


def test_a_cluster_without_workers_is_waited_for_with_word_then_given_up_in_one_line():

    with in_process_cluster(workers=0) as cluster:
        address = cluster.scheduler_address
        said: list[str] = []
        message = unavailable(address, worker_wait=1.5, notice=said.append)
        assert message.startswith(f"No worker joined the Dask scheduler at {address} in 1.5 s")
        assert f"`dask worker {address}`" in message and "--worker-wait" in message
        assert said and all(f"The Dask scheduler at {address} has no worker yet" in line for line in said)

        # A worker that joins while the job waits (started by the first word said) runs it.
        said.clear()
        started = lambda line: said.append(line) or cluster.scale(1)  # noqa: E731
        assert sorted(run_on_dask(abs, [-1, -2], scheduler=address, notice=started)) == [(0, 1), (1, 2)]
        assert len(said) == 1
        # A worker's address is not the scheduler's.
        worker = next(iter(cluster.scheduler.workers))
        assert "is a Dask Worker, not a scheduler" in unavailable(worker)


def test_the_tournament_names_a_scheduler_it_cannot_reach_in_one_line():
    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(SystemExit) as raised:
        tournament_main([*["easy"] * 4, "--deals", "1", "--scheduler", address])
    assert str(raised.value.code).startswith(f"No Dask scheduler at {address}: Connection refused")


def test_a_cluster_that_loses_its_last_worker_mid_job_says_so_then_gives_up_in_one_line(monkeypatch):

    import engine.cluster

    monkeypatch.setattr(engine.cluster, "_NOTICE_EVERY", 0.3)
    with in_process_cluster(workers=1) as cluster:
        address = cluster.scheduler_address
        said: list[str] = []
        results = run_on_dask(nap, range(8), scheduler=address, worker_wait=1.0, notice=said.append)
        with contextlib.closing(results), pytest.raises(ClusterUnavailable) as raised:
            for _ in results:
                cluster.scale(0)  # the worker goes away with jobs still to run
    message = str(raised.value)
    assert message.startswith(f"The Dask scheduler at {address} lost its last worker and none joined in 1 s")
    assert f"`dask worker {address}`" in message and "\n" not in message
    assert said and all(
        line.startswith(f"The Dask scheduler at {address} has no worker left") for line in said
    )


def test_a_worker_on_other_versions_is_one_line_naming_it_before_any_job_runs(monkeypatch):
    # A worker installed with another distributed: its jobs would fail with a traceback from its
    # side; the learner gets one line naming the worker, the package and both versions instead.
    from distributed import Client

    real = Client.get_versions

    def other_worker(self, *args, **kwargs):
        versions = real(self, *args, **kwargs)
        name = sorted(versions["workers"])[0]
        versions["workers"][name]["packages"]["distributed"] = "2001.1.0"
        return versions

    monkeypatch.setattr(Client, "get_versions", other_worker)
    with in_process_cluster(workers=1) as cluster:
        address = cluster.scheduler_address
        message = unavailable(address)
        worker = next(iter(cluster.scheduler.workers))
    import distributed

    here = distributed.__version__
    assert message == (
        f"The Dask cluster at {address} does not match this machine: worker {worker} runs distributed "
        f"2001.1.0, this machine {here}; install the same versions there (pip install hearts-trainer "
        "with the same dask[distributed])"
    )
