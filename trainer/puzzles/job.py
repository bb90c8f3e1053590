"""A mining job: candidates decided on a Dask cluster, resumable, written atomically.

The driver (this process) walks the candidates of ``trainer.puzzles.tasks.candidates`` in a
fixed order, skips those its journal says are decided, and keeps a few tasks per worker in
flight (``engine.cluster``): a ``LocalCluster`` on this machine, or any cluster given by its
scheduler's address. Each result is written as it arrives: a puzzle file (temporary file, then
renamed into place) and then one journal line. Stopping the job at any moment loses at most the
tasks in flight; running it again carries on. A puzzle's id and file name come from its
candidate's key, so a task that is decided twice writes the same file.

The puzzles wanted are the job's total, not each run's: a run counts those its journal already
holds for the job's candidates and mines only what is missing. A puzzle verified once the quota
is met (it was in flight) is not written but kept in the journal as *spare*, whole, so a run
with a larger quota writes it without deciding it again.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine.cluster import CONNECT_TIMEOUT, WORKER_WAIT, run_on_dask

from .format import save_puzzle
from .tasks import Candidate, MiningBudget, decide

__all__ = ["JobReport", "Journal", "puzzle_id", "run_job"]


def puzzle_id(kind: str, key: str) -> str:
    """``pass-omnibus-21-007-02`` for the candidate ``omnibus/21/7/2``."""
    table, seed, hand, number = key.split("/")
    return f"{kind}-{table.replace('_', '-')}-{seed}-{int(hand):03d}-{int(number):02d}"


class Journal:
    """One JSON line per decided candidate, and one per run naming its job and what the job was
    given (``{"job": "standard/11", "hands": 40, ...}``: the last such line of a job is what a
    resumed run carries on). A line cut short by a crash (the last one) is ignored, so its
    candidate is decided again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.decided: dict[str, dict] = {}
        self.jobs: dict[str, dict] = {}
        self.torn = 0
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                    if isinstance(entry, dict) and isinstance(entry.get("job"), str):
                        self.jobs[entry["job"]] = {k: v for k, v in entry.items() if k != "job"}
                    else:
                        self.decided[entry["key"]] = entry
                except (json.JSONDecodeError, KeyError, TypeError):
                    self.torn += 1

    def add(self, entry: dict) -> None:
        self._append(entry)
        self.decided[entry["key"]] = entry

    def add_job(self, job: str, settings: dict) -> None:
        """What the job ``job`` was given this run: a later run without them carries on with it."""
        self._append({"job": job, **settings})
        self.jobs[job] = dict(settings)

    def _append(self, entry: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(entry, ensure_ascii=False) + "\n")
            file.flush()
            os.fsync(file.fileno())


@dataclass
class JobReport:
    decided: int = 0
    skipped: int = 0
    """Candidates the journal had already decided."""
    written: list[Path] = field(default_factory=list)
    rejected_at: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    task_seconds: float = 0.0
    before: dict[str, int] = field(default_factory=dict)
    """Puzzles of each kind the journal held for this job's candidates when the run began."""
    found: dict[str, int] = field(default_factory=dict)
    """Puzzles of each kind the job has now, ``before`` included."""
    wanted: dict[str, int] | None = None
    spare: int = 0
    """Verified puzzles past the quota, kept in the journal and not written."""

    @property
    def per_minute(self) -> float:
        return 60.0 * self.decided / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        steps = ", ".join(f"{step} {count}" for step, count in sorted(self.rejected_at.items()))
        totals = ""
        if self.wanted is not None:
            totals = "; the job has " + ", ".join(
                f"{self.found.get(kind, 0)} of {count} {kind} puzzles wanted"
                for kind, count in self.wanted.items()
                if count or self.found.get(kind)
            )
            if any(self.before.values()):
                totals += " (" + ", ".join(f"{n} {k}" for k, n in self.before.items() if n) + " from before)"
        spare = f", {self.spare} spare kept in the journal" if self.spare else ""
        return (
            f"{self.decided} candidates decided in {self.seconds:.0f} s ({self.per_minute:.1f} a minute; "
            f"{self.skipped} already decided): {len(self.written)} puzzles written{spare}; "
            f"rejected at {steps or 'none'}{totals}"
        )


def run_job(
    candidates: Iterable[Candidate],
    out: Path,
    *,
    journal: Path | None = None,
    budget: MiningBudget | None = None,
    workers: int = 2,
    scheduler: str | None = None,
    wanted: dict[str, int] | None = None,
    progress: Callable[[JobReport], None] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    worker_wait: float = WORKER_WAIT,
    notice: Callable[[str], None] | None = None,
    job: tuple[str, dict] | None = None,
) -> JobReport:
    """Decide ``candidates`` not yet in the journal; write every verified puzzle into ``out``.

    ``wanted`` ({"pass": n, "play": m}) is the job's quota: the puzzles of each kind the journal
    holds for these candidates count towards it, candidates of a kind already satisfied are not
    sent, and the job stops once every kind has its count. A verified puzzle past its kind's
    count (one in flight when the count was reached) is kept in the journal as spare, not
    written; a later run wanting more writes it first. Without ``wanted`` every candidate is
    decided and every puzzle written. ``scheduler``, ``connect_timeout``, ``worker_wait`` and
    ``notice`` (default: stderr) are ``engine.cluster.run_on_dask``'s: a cluster that cannot be
    reached or has no worker raises ``ClusterUnavailable``. ``job`` (its name and what it was
    given: ``trainer.puzzles.mine``) goes into the journal when the first candidate is sent, so a
    run that cannot start writes nothing."""
    book = Journal(journal or out / ".journal.jsonl")  # ``out`` is made at the first write
    budget = budget or MiningBudget()
    candidates = list(candidates)  # plain data, a few hundred bytes each: the quota needs them all
    report = JobReport(wanted=dict(wanted) if wanted is not None else None)
    found = {"pass": 0, "play": 0}
    for candidate in candidates:
        if book.decided.get(candidate.key, {}).get("status") == "puzzle":
            found[candidate.kind] += 1
    report.before, report.found = dict(found), found
    start = time.perf_counter()

    def still_wanted(kind: str) -> bool:
        return wanted is None or found[kind] < wanted.get(kind, 0)

    def done() -> bool:
        return wanted is not None and not any(still_wanted(kind) for kind in found)

    def keep(result: dict) -> None:
        """A verified puzzle: written while its kind is wanted, else spare in the journal."""
        if still_wanted(result["kind"]):
            path = _write(out, result)
            report.written.append(path)
            found[result["kind"]] += 1
            book.add(
                {**{k: v for k, v in result.items() if k != "data"}, "status": "puzzle", "file": path.name}
            )
        else:
            report.spare += 1
            book.add({**result, "status": "spare"})

    for candidate in candidates:  # spares of an earlier run first: verified already
        entry = book.decided.get(candidate.key)
        if entry and entry["status"] == "spare" and still_wanted(candidate.kind):
            keep(entry)

    def jobs() -> Iterator[tuple[dict, MiningBudget]]:
        if job is not None:  # the cluster is up: the run has begun
            book.add_job(*job)
        for candidate in candidates:
            if done():
                return
            if candidate.key in book.decided:
                report.skipped += 1
                continue
            if still_wanted(candidate.kind):
                yield asdict(candidate), budget

    if done():  # the quota is met: no cluster to start
        report.skipped = sum(1 for candidate in candidates if candidate.key in book.decided)
        return report
    # A few tasks a worker in flight: enough to keep every core busy, few enough that a kind no
    # longer wanted stops being sent at once.
    window = 4 * max(workers, 1) if scheduler is None else 64
    results = run_on_dask(
        _decide,
        jobs(),
        workers=workers,
        scheduler=scheduler,
        in_flight=window,
        connect_timeout=connect_timeout,
        worker_wait=worker_wait,
        **({"notice": notice} if notice else {}),
    )
    with contextlib.closing(results) as stream:
        for _, result in stream:
            if result["status"] == "puzzle":
                keep(result)
            else:
                report.rejected_at[result["step"]] = report.rejected_at.get(result["step"], 0) + 1
                book.add(result)
            report.decided += 1
            report.task_seconds += result["seconds"]
            report.seconds = time.perf_counter() - start
            if progress:
                progress(report)
            if done():
                break
    report.seconds = time.perf_counter() - start
    return report


def _decide(job: tuple[dict, MiningBudget]) -> dict:
    candidate, budget = job
    return decide(candidate, budget)


def _write(out: Path, result: dict) -> Path:
    """The puzzle file, whole or not at all: written beside its place, then renamed."""
    out.mkdir(parents=True, exist_ok=True)
    identifier = puzzle_id(result["kind"], result["key"])
    data = {"id": identifier, **result["data"]}
    path = out / f"{identifier}.toml"
    temporary = path.with_name(f".{path.name}.tmp")
    save_puzzle(data, temporary)
    os.replace(temporary, path)
    return path


def progress_line(report: JobReport) -> None:
    """The job's progress on one line of the terminal."""
    print(
        f"\r  {report.decided} decided, {len(report.written)} puzzles, {report.per_minute:.1f} a minute  ",
        end="",
        file=sys.stderr,
        flush=True,
    )
