"""Run many small independent jobs on Dask: a local cluster of processes, or an existing one.

One generic helper, :func:`run_on_dask`, for work that outgrows one machine's process pool: the
tournaments use it (``python -m engine.tournament --dask`` / ``--scheduler``), and it is meant
for mining and verifying puzzles too. It needs nothing from trainer/.

Dask is optional. It is imported only inside :func:`run_on_dask`, so the engine still imports
and runs with the standard library alone (under Pyodide too); without it the call raises
:class:`DaskMissing`, which says to ``pip install "dask[distributed]"``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

__all__ = ["DaskMissing", "run_on_dask"]

Job = TypeVar("Job")
Result = TypeVar("Result")


class DaskMissing(ImportError):
    """Dask (with its ``distributed`` scheduler) is not installed."""


class _Boxed:
    """One job, opaque to Dask: a job that happens to be a tuple starting with a callable must
    reach the function as data, never be read as a task to run (older Dask would)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _call(function: Callable[[Any], Any], boxed: _Boxed) -> Any:
    return function(boxed.value)


def run_on_dask(
    function: Callable[[Job], Result],
    jobs: Iterable[Job],
    *,
    workers: int = 2,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    in_flight: int | None = None,
) -> Iterator[tuple[int, Result]]:
    """Run ``function(job)`` for every job on Dask; yield ``(index, result)`` as each finishes.

    - ``in_flight``: when given, ``jobs`` is read lazily and at most that many jobs are on the
      cluster at once (a new one is sent as each result comes in), so the caller may decide,
      while results arrive, which jobs are still worth sending (the puzzle miner stops sending
      a kind once it has enough), and a stop leaves little work to cancel; ``progress`` then
      gets the jobs sent so far as its total.

    - ``function`` is a top-level function of a module the workers can import (a local
      cluster's workers share this interpreter's ``sys.path``; a remote cluster's workers need
      this package installed), called with one job. Jobs and results are pickled and travel to
      a worker process and back: keep them small and self-contained (seeds and names in, a few
      figures out), never open files, connections or large shared state.
    - ``index`` is the job's position in ``jobs``. Results come in the order they finish, so a
      caller that needs the input order puts them back by it. Every job yields exactly once.
    - ``scheduler=None`` starts a ``distributed.LocalCluster`` of ``workers`` processes with one
      thread each on this machine (its dashboard on any free local port, logs below ERROR
      silenced) when the iteration starts, and stops it at the end. ``scheduler=
      "tcp://HOST:8786"`` connects a client to that running cluster instead (``workers`` is then
      ignored), and leaves the cluster running.
    - ``progress(done, total)``, when given, is called after each result, before it is yielded.
    - The client (and a cluster started here) is closed, and jobs not yet finished cancelled,
      when the iteration ends, when a job raises (its exception propagates to the caller), on
      KeyboardInterrupt, and when the caller stops early and closes the iterator: iterate to
      the end or wrap the call in ``contextlib.closing``.

    Raises :class:`DaskMissing` (an ImportError) at the call, before any cluster starts, when
    ``dask[distributed]`` is not installed; ValueError for fewer than 1 worker.

    Example::

        with contextlib.closing(run_on_dask(solve, seeds, workers=4)) as results:
            for index, result in results:
                answers[index] = result
    """
    try:
        import distributed
    except ImportError as error:
        raise DaskMissing(
            'Running on Dask needs Dask\'s distributed scheduler: pip install "dask[distributed]"'
        ) from error
    if scheduler is None and workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if in_flight is not None:
        if in_flight < 1:
            raise ValueError(f"in_flight must be at least 1, not {in_flight}")
        return _window(distributed, function, iter(jobs), workers, scheduler, progress, in_flight)
    return _stream(distributed, function, list(jobs), workers, scheduler, progress)


def _client(stack: contextlib.ExitStack, distributed: Any, workers: int, scheduler: str | None) -> Any:
    if scheduler is not None:
        return stack.enter_context(distributed.Client(scheduler, set_as_default=False))
    cluster = stack.enter_context(
        distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            # Any free local port: a busy 8787 (another cluster) must not matter or warn.
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
        )
    )
    return stack.enter_context(distributed.Client(cluster, set_as_default=False))


def _window(
    distributed: Any,
    function: Callable[[Any], Any],
    jobs: Iterator[Any],
    workers: int,
    scheduler: str | None,
    progress: Callable[[int, int], None] | None,
    in_flight: int,
) -> Iterator[tuple[int, Any]]:
    """``_stream`` with at most ``in_flight`` jobs on the cluster, read from ``jobs`` as needed."""
    pending: dict[Any, int] = {}
    futures: dict[Any, Any] = {}
    with contextlib.ExitStack() as stack:
        client = _client(stack, distributed, workers, scheduler)
        stack.callback(lambda: futures and client.cancel(list(futures.values())))
        task = functools.partial(_call, function)
        finished = distributed.as_completed(loop=client.loop, with_results=True)
        sent = 0
        # Keys unique to this run: on a shared scheduler another run's "job-0" is another task.
        run = uuid.uuid4().hex[:12]

        def send() -> bool:
            nonlocal sent
            job = next(jobs, _END)
            if job is _END:
                return False
            future = client.submit(
                task, _Boxed(job), key=f"{getattr(function, '__name__', 'job')}-{run}-{sent}", pure=False
            )
            pending[future.key], futures[future.key] = sent, future
            finished.add(future)
            sent += 1
            return True

        while len(pending) < in_flight and send():
            pass
        if not pending:
            return
        for done, (future, result) in enumerate(finished, start=1):
            number = pending.pop(future.key)
            futures.pop(future.key).release()
            if progress:
                progress(done, sent)
            yield number, result
            while len(pending) < in_flight and send():
                pass
            if not pending:
                return


_END = object()


def _stream(
    distributed: Any,
    function: Callable[[Any], Any],
    jobs: list[Any],
    workers: int,
    scheduler: str | None,
    progress: Callable[[int, int], None] | None,
) -> Iterator[tuple[int, Any]]:
    pending: dict[Any, tuple[int, Any]] = {}  # key: (index, future), until its result is in
    with contextlib.ExitStack() as stack:  # unwinds every step, even when one before it fails
        client = _client(stack, distributed, workers, scheduler)
        if not jobs:
            return
        # Whatever stops the iteration early, the jobs still pending do not run on.
        stack.callback(lambda: pending and client.cancel([future for _, future in pending.values()]))
        futures = client.map(
            functools.partial(_call, function),
            [_Boxed(job) for job in jobs],
            key=getattr(function, "__name__", "job"),  # names the tasks on the dashboard
            pure=False,
        )
        pending.update((future.key, (number, future)) for number, future in enumerate(futures))
        finished = distributed.as_completed(futures, loop=client.loop, with_results=True)
        del futures
        for done, (future, result) in enumerate(finished, start=1):
            number, _ = pending.pop(future.key)
            future.release()  # its result is here: the cluster may forget it
            if progress:
                progress(done, len(jobs))
            yield number, result
