"""Re-verify a folder of puzzles on fresh deals with the acceptance rule (``trainer.puzzles.verify``).

    python -m trainer.puzzles.verify puzzles [--seed 5] [--write] [--report puzzles/README.md] \\
        [--reproduce] [--only 'play-*-5502-*'] [--resume] [--workers 2] [--dask | --scheduler tcp://HOST:8786]

A report's figure must come from a seed that took part in no selection of these puzzles
(``trainer.puzzles.seeds``, ``FOLDER/seeds.json``): a seed listed there, or one that gives a puzzle
deals it was verified on, is refused for ``--report`` unless the run is said to be a reproduction
(``--reproduce``, and the report says so). A ``--write`` run adds its seed there: it kept and
dropped puzzles, so it cannot give their figure again.

Each puzzle is one task, run in this process, in ``--workers`` processes, on a local Dask cluster
of ``--workers`` processes (``--dask``) or on a running one (``--scheduler``, as the miner's),
with the same outcomes for the same seed.

The command lives apart from the rule so that the library modules it drives (``reverify``,
``seeds``) never import each other back through it.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from engine.cluster import ClusterUnavailable, DaskMissing, add_cluster_options

from .reverify import reverify_folder
from .seeds import SeedsError, record_seeds, why_used

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m trainer.puzzles.verify", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=5, help="seed of the fresh deals")
    parser.add_argument("--write", action="store_true", help="rewrite kept and fixed puzzles, delete dropped")
    parser.add_argument("--report", type=Path, help="Markdown file whose re-verification section is replaced")
    parser.add_argument(
        "--reproduce",
        action="store_true",
        help="repeat a run with a seed that took part in selecting these puzzles (its report says so)",
    )
    parser.add_argument(
        "--only", metavar="PATTERN", help="only the puzzles whose ids match (play-*-5502-*: a mining run's)"
    )
    parser.add_argument(
        "--resume", action="store_true", help="leave out the puzzles this seed already rewrote (with --write)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes checking puzzles side by side")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--dask", action="store_true", help="on a local Dask cluster of --workers processes")
    where.add_argument(
        "--scheduler", metavar="tcp://HOST:8786", help="on the running Dask cluster at this address"
    )
    add_cluster_options(parser)
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers {args.workers}: give at least 1")
    try:
        used = why_used(args.folder, args.seed)
    except SeedsError as error:
        sys.exit(str(error))
    if used and args.report and not args.reproduce:
        sys.exit(
            f"--seed {args.seed}: {used}; a reported figure needs a seed never used on these puzzles "
            "(or --reproduce to repeat that run: its figure is then not an independent one)"
        )
    try:
        report = reverify_folder(
            args.folder,
            args.seed,
            write=args.write,
            log=lambda m: print(m, flush=True),
            workers=args.workers,
            dask=args.dask,
            scheduler=args.scheduler,
            connect_timeout=args.connect_timeout,
            worker_wait=args.worker_wait,
            only=args.only,
            resume=args.resume,
        )
    except (ClusterUnavailable, DaskMissing) as error:
        sys.exit(str(error))  # one line, not a traceback
    report.used = used
    if args.write:
        today = datetime.datetime.now(datetime.UTC).date().isoformat()
        record_seeds(args.folder, args.seed, f"{today}: {report.summary()}", part=args.resume)
    if args.report:
        report.write_into(args.report)
    print(report.summary(), file=sys.stderr)
