"""Run many small independent jobs on Dask: a local cluster of processes, or an existing one.

One generic helper, :func:`run_on_dask`, for work that outgrows one machine's process pool: the
tournaments (``python -m engine.tournament --dask`` / ``--scheduler``), the puzzle miner
(``python -m trainer.puzzles.mine``) and puzzle verification (``python -m
trainer.puzzles.verify --dask`` / ``--scheduler``) use it. It needs nothing from trainer/.

Dask is optional. It is imported only inside :func:`run_on_dask`, so the engine still imports
and runs with the standard library alone (under Pyodide too); without it the call raises
:class:`DaskMissing`, which says to ``pip install "dask[distributed]"``.

A running cluster is checked before any job is sent: a scheduler that cannot be reached within
``connect_timeout``, or that no worker joins within ``worker_wait`` (said every few seconds while
waiting), raises :class:`ClusterUnavailable`, one line naming the address, what failed and what
to do; so does one left without workers that long while jobs wait. :func:`add_cluster_options`
gives a command line the options for both.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import logging
import math
import socket
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = [
    "CONNECT_TIMEOUT",
    "WORKER_WAIT",
    "ClusterUnavailable",
    "DaskMissing",
    "add_cluster_options",
    "run_on_dask",
]

CONNECT_TIMEOUT = 10.0
"""Seconds a scheduler has to answer (Dask's own default, 30 s, is long to wait for a typo)."""
WORKER_WAIT = 60.0
"""Seconds to wait for a first worker to join a running cluster before giving up."""
_NOTICE_EVERY = 10.0

Job = TypeVar("Job")
Result = TypeVar("Result")


class DaskMissing(ImportError):
    """Dask (with its ``distributed`` scheduler) is not installed."""


class ClusterUnavailable(RuntimeError):
    """A running cluster cannot take the jobs: its scheduler does not answer at the address
    given, or no worker joined it in time. The message is one line saying which address, what
    failed and what to do."""


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """``--connect-timeout`` and ``--worker-wait``, for a command with ``--scheduler``; pass
    ``args.connect_timeout`` and ``args.worker_wait`` on to :func:`run_on_dask`."""
    parser.add_argument(
        "--connect-timeout",
        type=_seconds(above=0.0),
        default=CONNECT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long the scheduler has to answer (default {CONNECT_TIMEOUT:.0f})",
    )
    parser.add_argument(
        "--worker-wait",
        type=_seconds(above=None),
        default=WORKER_WAIT,
        metavar="SECONDS",
        help=f"how long to wait for a first worker to join the scheduler (default {WORKER_WAIT:.0f})",
    )


def _seconds(above: float | None) -> Callable[[str], float]:
    """A command line's seconds: a finite number above ``above`` (else at least 0)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not math.isfinite(value) or value < 0 or (above is not None and value <= above):
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a number of seconds above 0"
                if above is not None
                else f"{text!r} is not a number of seconds (0 or more)"
            )
        return value

    return parse


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


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
    connect_timeout: float = CONNECT_TIMEOUT,
    worker_wait: float = WORKER_WAIT,
    notice: Callable[[str], None] = _to_stderr,
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
      ignored), and leaves the cluster running. A scheduler that does not answer within
      ``connect_timeout`` seconds raises :class:`ClusterUnavailable` (a refused connection or an
      unknown host at once); so does a cluster no worker joins within ``worker_wait`` seconds,
      or that is left without workers that long while jobs wait, after ``notice`` (a line to
      stderr by default) has said every few seconds that it waits.
    - ``progress(done, total)``, when given, is called after each result, before it is yielded.
    - The client (and a cluster started here) is closed, and jobs not yet finished cancelled,
      when the iteration ends, when a job raises (its exception propagates to the caller), on
      KeyboardInterrupt, and when the caller stops early and closes the iterator: iterate to
      the end or wrap the call in ``contextlib.closing``.

    Raises :class:`DaskMissing` (an ImportError) at the call, before any cluster starts, when
    ``dask[distributed]`` is not installed; ValueError for fewer than 1 worker or a negative
    timeout.

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
    if not connect_timeout > 0 or not worker_wait >= 0:
        raise ValueError(
            f"timeouts must be above 0 (worker_wait: at least 0): {connect_timeout}, {worker_wait}"
        )
    where = _Where(workers, scheduler, connect_timeout, worker_wait, notice)
    if in_flight is not None:
        if in_flight < 1:
            raise ValueError(f"in_flight must be at least 1, not {in_flight}")
        return _window(distributed, function, iter(jobs), where, progress, in_flight)
    return _stream(distributed, function, list(jobs), where, progress)


@dataclasses.dataclass(frozen=True)
class _Where:
    """Where the jobs run: a local cluster of ``workers``, or the running one at ``scheduler``."""

    workers: int
    scheduler: str | None
    connect_timeout: float
    worker_wait: float
    notice: Callable[[str], None]


def _client(stack: contextlib.ExitStack, distributed: Any, where: _Where) -> Any:
    if where.scheduler is not None:
        address = where.scheduler
        _reach(distributed, address, where.connect_timeout)
        try:
            client = distributed.Client(address, timeout=where.connect_timeout, set_as_default=False)
        except (OSError, ValueError) as error:  # it answered the probe a moment ago
            raise ClusterUnavailable(
                f"Could not connect to the Dask scheduler at {address}: {_reason(error)}"
            ) from error
        stack.enter_context(client)
        _await_workers(client, address, where.worker_wait, where.notice)
        _same_versions(client.get_versions(check=False), address)
        return client
    workers = where.workers
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


def _reach(distributed: Any, address: str, timeout: float) -> None:
    """Raise :class:`ClusterUnavailable` unless a Dask scheduler answers at ``address`` within
    ``timeout`` seconds. A plain TCP connection first, so a refused port or an unknown host is
    told at once (Dask retries those until its timeout); then Dask's own handshake and an
    ``identity`` request, bounded as a whole (a non-Dask server, such as the dashboard's port,
    otherwise keeps the handshake waiting for ever)."""
    try:
        scheme, location = distributed.comm.parse_address(address)
        distributed.comm.registry.get_backend(scheme)  # a known scheme: tcp, tls, ws...
        if scheme == "tcp":
            host, port = distributed.comm.parse_host_port(location)
    except (ValueError, TypeError) as error:
        raise ClusterUnavailable(
            f"{address!r} is not a Dask scheduler's address ({error}): give it as tcp://HOST:8786"
        ) from error
    if scheme == "tcp":
        try:
            with socket.create_connection((host, port), timeout=timeout):
                pass
        except socket.gaierror as error:
            raise ClusterUnavailable(
                f"No Dask scheduler at {address}: the host {host!r} is not known; {_TO_DO}"
            ) from error
        except TimeoutError as error:
            raise ClusterUnavailable(_silent(address, timeout)) from error
        except OSError as error:
            raise ClusterUnavailable(f"No Dask scheduler at {address}: {_reason(error)}; {_TO_DO}") from error
    with ThreadPoolExecutor(1) as thread:  # its own event loop, whatever loop the caller runs
        answer = thread.submit(asyncio.run, _identity(distributed, address, timeout))
        try:
            reply = answer.result()
        except TimeoutError as error:
            raise ClusterUnavailable(_silent(address, timeout)) from error
        except Exception as error:  # a reply Dask cannot read: not a Dask scheduler
            raise ClusterUnavailable(
                f"What answers at {address} is not a Dask scheduler ({_reason(error)}); {_TO_DO}"
            ) from error
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        kind = reply.get("type") if isinstance(reply, dict) else type(reply).__name__
        raise ClusterUnavailable(f"What answers at {address} is a Dask {kind}, not a scheduler; {_TO_DO}")


async def _identity(distributed: Any, address: str, timeout: float) -> Any:
    async def ask() -> Any:
        comm = await distributed.comm.connect(address, timeout=timeout, **_connection_args(distributed))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    return await asyncio.wait_for(ask(), timeout)


def _connection_args(distributed: Any) -> dict:
    """What a ``Client`` would connect with (TLS certificates from Dask's configuration)."""
    return distributed.security.Security().get_connection_args("client")


_TO_DO = (
    "check the address and port (the scheduler's, 8786 unless it was given another, not its dashboard's) "
    "and that `dask scheduler` runs there"
)


def _silent(address: str, timeout: float) -> str:
    return (
        f"No Dask scheduler answered at {address} within {timeout:g} s: {_TO_DO}, "
        "or allow it longer (--connect-timeout)"
    )


def _reason(error: BaseException) -> str:
    """The innermost cause's words, on one line and short ("Connection refused")."""
    while error.__cause__ is not None and error.__cause__ is not error:
        error = error.__cause__
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return " ".join(text.split())[:200]


_MUST_MATCH = ("python", "dask", "distributed", "cloudpickle", "msgpack")
"""What the scheduler and every worker must run as this machine does: jobs and results travel
pickled between them (Python by its minor version, the rest exactly)."""


def _same_versions(versions: dict, address: str) -> None:
    """Raise :class:`ClusterUnavailable`, in one line, when the scheduler or a worker runs another
    version of what ``_MUST_MATCH`` names (``Client.get_versions(check=False)``'s answer): Dask
    would only warn with a table, and the jobs then fail with a traceback from the far side."""

    def key(name: str, version: object) -> object:
        return ".".join(str(version).split(".")[:2]) if name == "python" else version

    here = versions["client"]["packages"]
    there = [("the scheduler", versions["scheduler"]["packages"])]
    there += [(f"worker {name}", info["packages"]) for name, info in sorted(versions["workers"].items())]
    for who, packages in there:
        for name in _MUST_MATCH:
            if key(name, packages.get(name)) != key(name, here.get(name)):
                raise ClusterUnavailable(
                    f"The Dask cluster at {address} does not match this machine: {who} runs {name} "
                    f"{packages.get(name)}, this machine {here.get(name)}; install the same versions "
                    "there (pip install hearts-trainer with the same dask[distributed])"
                )


def _await_workers(client: Any, address: str, wait: float, notice: Callable[[str], None]) -> None:
    """Return once a worker has joined the cluster; say so every few seconds while waiting;
    raise :class:`ClusterUnavailable` when none has joined within ``wait`` seconds."""
    start = time.monotonic()
    step = 1.0  # a first look, then a word every _NOTICE_EVERY seconds
    while True:
        try:
            client.wait_for_workers(1, timeout=max(min(step, wait - (time.monotonic() - start)), 0.01))
            return
        except TimeoutError:
            waited = time.monotonic() - start
            step = _NOTICE_EVERY
        if waited >= wait:
            raise ClusterUnavailable(
                f"No worker joined the Dask scheduler at {address} in {wait:g} s: start one on each "
                f"machine with `dask worker {address}` (Hearts Trainer installed there), or wait longer "
                "(--worker-wait)"
            ) from None
        notice(
            f"The Dask scheduler at {address} has no worker yet: waiting up to {wait:g} s "
            f"({waited:.0f} s so far) for `dask worker {address}` to join"
        )


def _watched(finished: Any, client: Any, where: _Where) -> Iterator[Any]:
    """``finished``'s results as they come. On a running cluster a wait for the next one is
    watched: once the cluster has no worker left it is said every few seconds, and after
    ``worker_wait`` seconds without one :class:`ClusterUnavailable` is raised (the jobs left
    would otherwise wait for ever, in silence)."""
    if where.scheduler is None:  # a local cluster's nannies restart its workers
        yield from finished
        return
    while True:
        look, alone_since = time.monotonic(), None
        while not finished.has_ready():
            if finished.is_empty():
                return
            with finished.thread_condition:  # notified as a result comes in, as its own next() waits
                finished.thread_condition.wait(timeout=0.1)
            now = time.monotonic()
            if now - look < _NOTICE_EVERY:
                continue
            look = now
            if client.nthreads():
                alone_since = None
                continue
            alone_since = alone_since or now
            if now - alone_since >= where.worker_wait:
                raise ClusterUnavailable(
                    f"The Dask scheduler at {where.scheduler} lost its last worker and none joined in "
                    f"{where.worker_wait:g} s: start one with `dask worker {where.scheduler}`, or wait "
                    "longer (--worker-wait)"
                )
            where.notice(
                f"The Dask scheduler at {where.scheduler} has no worker left: waiting up to "
                f"{where.worker_wait:g} s for `dask worker {where.scheduler}` to join"
            )
        yield next(finished)


def _window(
    distributed: Any,
    function: Callable[[Any], Any],
    jobs: Iterator[Any],
    where: _Where,
    progress: Callable[[int, int], None] | None,
    in_flight: int,
) -> Iterator[tuple[int, Any]]:
    """``_stream`` with at most ``in_flight`` jobs on the cluster, read from ``jobs`` as needed."""
    pending: dict[Any, int] = {}
    futures: dict[Any, Any] = {}
    with contextlib.ExitStack() as stack:
        client = _client(stack, distributed, where)
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
        for done, (future, result) in enumerate(_watched(finished, client, where), start=1):
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
    where: _Where,
    progress: Callable[[int, int], None] | None,
) -> Iterator[tuple[int, Any]]:
    pending: dict[Any, tuple[int, Any]] = {}  # key: (index, future), until its result is in
    with contextlib.ExitStack() as stack:  # unwinds every step, even when one before it fails
        client = _client(stack, distributed, where)
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
        for done, (future, result) in enumerate(_watched(finished, client, where), start=1):
            number, _ = pending.pop(future.key)
            future.release()  # its result is here: the cluster may forget it
            if progress:
                progress(done, len(jobs))
            yield number, result
