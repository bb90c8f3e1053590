"""How many threads the compiled play-outs may use in this process.

The compiled play-out loop releases the GIL, so a large batch split in parts runs on several cores
at once: a learner's verdict in a lesson takes about half the time on a 2-core machine. Each game is
played alone, so the split changes no answer; a pass's imagined deals are dealt the same way, block
by block (each block its own stream, ``engine.search.pass_worlds``). Processes that already run side by
side (a tournament's or the review's workers) set one thread each, so the cores are not
oversubscribed. By default a thread for each core this process may run on; ``HEARTS_THREADS`` in the
environment overrides that.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = [
    "MIN_ROWS_A_THREAD",
    "block_parts",
    "executor",
    "one_thread",
    "parts",
    "playout_threads",
    "run_parts",
    "set_playout_threads",
]

MIN_ROWS_A_THREAD = 4096
"""Fewer games than this a thread are not worth a thread's start-up."""


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _default() -> int:
    text = os.environ.get("HEARTS_THREADS", "").strip()
    if text:
        try:
            wanted = int(text)
        except ValueError as error:
            raise ValueError(f"HEARTS_THREADS must be a whole number of threads, not {text!r}") from error
        if wanted < 1:
            raise ValueError(f"HEARTS_THREADS must be at least 1, not {wanted}")
        return wanted
    return max(1, _cores())


_threads = _default()
_executor: ThreadPoolExecutor | None = None


def playout_threads() -> int:
    return _threads


def set_playout_threads(count: int) -> None:
    """Use up to ``count`` threads for the compiled play-outs from now on (1: none)."""
    global _threads, _executor
    if count < 1:
        raise ValueError(f"play-out threads must be at least 1, not {count}")
    if count != _threads and _executor is not None:
        _executor.shutdown(wait=False)
        _executor = None
    _threads = count


def one_thread() -> None:
    """A worker process's initializer: its siblings have the other cores."""
    set_playout_threads(1)


def _forget_executor() -> None:
    """In a forked child: the parent's threads are not there, so its executor would take work
    and never do it (a process that forks after a threaded verdict would hang)."""
    global _executor
    _executor = None


if hasattr(os, "register_at_fork"):  # not under Pyodide, which does not fork
    os.register_at_fork(after_in_child=_forget_executor)


def executor() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=_threads, thread_name_prefix="playout")
    return _executor


def parts(rows: int) -> list[tuple[int, int]]:
    """The row ranges a batch of ``rows`` games is split into (one range: no split)."""
    count = max(1, min(_threads, rows // MIN_ROWS_A_THREAD))
    bounds = [rows * k // count for k in range(count + 1)]
    return list(itertools.pairwise(bounds))


def block_parts(rows: int, block: int) -> list[tuple[int, int]]:
    """``parts`` for work that comes in blocks of ``block`` rows (each from its own random
    stream): every part but the last is whole blocks, and a part has at least one."""
    blocks = -(-rows // block)
    count = max(1, min(_threads, blocks))
    bounds = [min(rows, blocks * k // count * block) for k in range(count + 1)]
    bounds[-1] = rows
    return list(itertools.pairwise(bounds))


def run_parts(work: Callable[[tuple[int, int]], None], ranges: list[tuple[int, int]]) -> None:
    """``work`` on each range of ``parts`` or ``block_parts``: in this thread when there is one,
    in the executor's threads otherwise (``work`` must release the GIL to gain from them)."""
    if len(ranges) == 1:
        work(ranges[0])
    else:
        list(executor().map(work, ranges))
