"""How fast the puzzle miner decides candidates on Dask, with 1 and with 2 worker processes.

The same candidates (a fixed mix of plays and passes from Normal-bot hands) are decided twice in
one run, each time into a fresh folder and journal: on a ``LocalCluster`` of one worker, then of
two. Reported: positions decided a minute, puzzles found, where the rejected ones stopped, the
mean task time, and the ratio of the two throughputs. Also the size of what a task ships each
way (its candidate and its result, pickled), for reasoning about more machines.

    PYTHONPATH=. .venv/bin/python benchmarks/mining_throughput.py [--plays 120] [--passes 6]
        [--json benchmarks/results/mining_throughput.json]
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import tempfile
from dataclasses import asdict
from pathlib import Path

from trainer.puzzles.job import Journal, run_job
from trainer.puzzles.tasks import MiningBudget, candidates


def mix(plays: int, passes: int, seed: int) -> list:
    found = list(candidates("standard", seed, 60))
    return [c for c in found if c.kind == "play"][:plays] + [c for c in found if c.kind == "pass"][:passes]


def measure(jobs: list, workers: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        report = run_job(jobs, out, workers=workers)
        entries = list(Journal(out / ".journal.jsonl").decided.values())
        results_size = [len(pickle.dumps(entry)) for entry in entries]
        puzzle_sizes = [p.stat().st_size for p in out.glob("*.toml")]
    return {
        "workers": workers,
        "decided": report.decided,
        "seconds": round(report.seconds, 1),
        "per_minute": round(report.per_minute, 1),
        "puzzles": len(report.written),
        "rejected_at": report.rejected_at,
        "task_seconds_mean": round(report.task_seconds / max(report.decided, 1), 3),
        "task_seconds_by_kind": {
            kind: round(statistics.mean(e["seconds"] for e in entries if e["kind"] == kind), 3)
            for kind in ("play", "pass")
            if any(e["kind"] == kind for e in entries)
        },
        "result_bytes_median": statistics.median(results_size) if results_size else 0,
        "puzzle_file_bytes_median": statistics.median(puzzle_sizes) if puzzle_sizes else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=120)
    parser.add_argument("--passes", type=int, default=6)
    parser.add_argument("--seed", type=int, default=9001)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    jobs = mix(args.plays, args.passes, args.seed)
    shipped = [len(pickle.dumps((asdict(c), MiningBudget()))) for c in jobs]
    runs = [measure(jobs, workers) for workers in (1, 2)]
    summary = {
        "candidates": len(jobs),
        "plays": args.plays,
        "passes": args.passes,
        "task_bytes_median": statistics.median(shipped),
        "runs": runs,
        "speedup_2_over_1": round(runs[1]["per_minute"] / runs[0]["per_minute"], 2),
    }
    for run in runs:
        print(
            f"{run['workers']} worker(s): {run['decided']} decided in {run['seconds']} s = "
            f"{run['per_minute']} a minute; {run['puzzles']} puzzles; rejected at {run['rejected_at']}; "
            f"mean task {run['task_seconds_mean']} s {run['task_seconds_by_kind']}"
        )
    print(
        f"2 workers / 1 worker: x{summary['speedup_2_over_1']}; "
        f"a task ships {summary['task_bytes_median']} bytes"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
