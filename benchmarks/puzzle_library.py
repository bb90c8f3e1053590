"""How fast the puzzles page is with a big library: the index against loading every file.

Makes a temporary library of ``--passes`` pass and ``--plays`` play puzzle files (copies of the
shipped ones under new ids and file names), then measures: writing its index (every file loaded
fully, as the miner does after mining), opening the library from the index (``--opens`` times),
opening it with ``--stale`` files changed since the index was written, choosing and loading the
next puzzle on the page (``PuzzleBoard.show_next``, ``--draws`` draws, each answered so the
schedule moves on), and, side by side, the old full ``load_library`` of the same folder.
Targets (the issue): loading the library ≤ 1 s, the next puzzle ≤ 0.3 s. ``--shipped`` measures
the shipped library itself instead (a copy of every file in ``puzzles/``, as they are).

    PYTHONPATH=. .venv/bin/python benchmarks/puzzle_library.py [--passes 300] [--plays 300]
        [--shipped] [--draws 50] [--json benchmarks/results/puzzle_library.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import trainer.puzzles.entry as entry_module
from trainer.puzzles.board import PuzzleBoard
from trainer.puzzles.format import PUZZLES_DIR, load_library, load_puzzle
from trainer.puzzles.library import open_library, write_index
from trainer.puzzles.schedule import record_attempt

ID_LINE = re.compile(r'(?m)^id = ".*"$')


def make_library(folder: Path, passes: int, plays: int) -> None:
    """Copies of the shipped puzzles, ``pass-b0001.toml`` with ``id = "pass-b0001"`` and so on."""
    for kind, count in (("pass", passes), ("play", plays)):
        sources = itertools.cycle(sorted(PUZZLES_DIR.glob(f"{kind}-*.toml")))
        for number in range(1, count + 1):
            puzzle_id = f"{kind}-b{number:04d}"
            text = next(sources).read_text("utf-8")
            (folder / f"{puzzle_id}.toml").write_text(
                ID_LINE.sub(f'id = "{puzzle_id}"', text, count=1), "utf-8"
            )


def timed(action) -> tuple[float, object]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def spread(values: list[float]) -> dict:
    return {"count": len(values), "median": round(statistics.median(values), 4), "max": round(max(values), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=300)
    parser.add_argument("--plays", type=int, default=300)
    parser.add_argument("--draws", type=int, default=50)
    parser.add_argument("--opens", type=int, default=5)
    parser.add_argument("--stale", type=int, default=10, help="files changed after the index is written")
    parser.add_argument("--shipped", action="store_true", help="every shipped puzzle file, not copies")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]  # the machine is shared: how busy it was

    with tempfile.TemporaryDirectory(prefix="puzzle-library-") as name:
        folder = Path(name)
        if args.shipped:
            for path in PUZZLES_DIR.glob("*.toml"):
                shutil.copy(path, folder / path.name)
        else:
            make_library(folder, args.passes, args.plays)
        files = sorted(folder.glob("*.toml"))
        args.passes = sum(1 for path in files if path.name.startswith("pass-"))
        args.plays = len(files) - args.passes
        size = sum(path.stat().st_size for path in files)

        index_seconds, problems = timed(lambda: write_index(folder))
        assert not problems, problems
        index_bytes = (folder / "index.json").stat().st_size
        opens = [timed(lambda: open_library(folder))[0] for _ in range(args.opens)]
        library = open_library(folder)
        assert len(library.entries) == len(files) and not library.notices

        reads: list[Path] = []

        def counted(path):
            reads.append(Path(path))
            return load_puzzle(path)

        entry_module.load_puzzle = counted  # count the files each draw reads in full
        board_seconds, board = timed(lambda: PuzzleBoard(folder))
        # As the page goes: answers move the schedule, and puzzles seen before may still be loaded.
        scheduled, scheduled_reads = [], []
        for number in range(args.draws):
            before = len(reads)
            seconds, found = timed(lambda: board.show_next())
            assert found
            scheduled.append(seconds)
            scheduled_reads.append(len(reads) - before)
            record_attempt(board.trainer.progress, board.trainer.current, solved=number % 3 != 0)
        # The worst case: nothing kept loaded, so every draw reads its puzzle's file; pass and play.
        draws: dict[str, list[float]] = {"pass": [], "play": []}
        reads_per_draw = []
        for number in range(args.draws):
            board.trainer.library.forget()
            before = len(reads)
            kind = ("pass", "play")[number % 2]
            seconds, found = timed(lambda kind=kind: board.show_next(kind=kind))
            assert found
            draws[kind].append(seconds)
            reads_per_draw.append(len(reads) - before)
            record_attempt(board.trainer.progress, board.trainer.current, solved=number % 3 != 0)
        board.widget.close()
        entry_module.load_puzzle = load_puzzle

        for path in files[: args.stale]:  # the same bytes plus a comment: a new fingerprint
            path.write_text(path.read_text("utf-8") + "# edited\n", "utf-8")
        stale_seconds, stale = timed(lambda: open_library(folder))
        assert len(stale.entries) == len(files) and stale.notices

        old_seconds, (puzzles, old_problems) = timed(lambda: load_library(folder))
        assert len(puzzles) == len(files) and not old_problems

    every = draws["pass"] + draws["play"]
    report = {
        "library": "shipped" if args.shipped else "copies of the shipped puzzles",
        "files": len(files),
        "passes": args.passes,
        "plays": args.plays,
        "megabytes": round(size / 1e6, 1),
        "index_bytes": index_bytes,
        "machine": f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}",
        "load_average_before": round(load_before, 2),
        "seconds": {
            "write_index": round(index_seconds, 3),
            "open_library": spread(opens),
            "open_library_stale": {"seconds": round(stale_seconds, 4), "files_changed": args.stale},
            "open_board": round(board_seconds, 4),
            "next_puzzle_scheduled": spread(scheduled),
            "next_puzzle": spread(every),
            "next_pass_puzzle": spread(draws["pass"]) if draws["pass"] else None,
            "next_play_puzzle": spread(draws["play"]) if draws["play"] else None,
            "old_load_library": round(old_seconds, 3),
        },
        "files_read_per_draw": {"median": statistics.median(reads_per_draw), "max": max(reads_per_draw)},
        "files_read_per_scheduled_draw": {"total": sum(scheduled_reads), "max": max(scheduled_reads)},
        "targets": {"open_library": 1.0, "next_puzzle": 0.3},
    }
    s = report["seconds"]

    def shown(values: dict | list) -> str:
        values = spread(values) if isinstance(values, list) else values
        return f"median {values['median']:.3f} s, max {values['max']:.3f} s"

    rows = [
        ("write the index (every file loaded)", f"{s['write_index']:.2f} s", "—"),
        (f"open the library from the index ({args.opens}×)", shown(s["open_library"]), "≤ 1 s"),
        (f"open it with {args.stale} files changed", f"{stale_seconds:.3f} s", "—"),
        ("open the puzzles board (library + table)", f"{board_seconds:.3f} s", "—"),
        (f"next puzzle as scheduled, {len(scheduled)} draws", shown(scheduled), "≤ 0.3 s"),
        (
            "  files read",
            f"{sum(scheduled_reads)} in {len(scheduled)} draws, at most {max(scheduled_reads)} a draw",
            "",
        ),
        (f"next puzzle, its file not loaded yet, {len(every)} draws", shown(every), "≤ 0.3 s"),
        *(
            (f"  of which {kind} ({len(values)})", shown(values), "")
            for kind, values in draws.items()
            if values
        ),
        (
            "  files read a draw",
            f"median {statistics.median(reads_per_draw):.0f}, max {max(reads_per_draw)}",
            "1",
        ),
        ("old: load_library of the same folder", f"{old_seconds:.2f} s", "—"),
    ]
    print(
        f"{len(files)} puzzle files ({args.passes} pass, {args.plays} play), {report['megabytes']} MB; "
        f"index {index_bytes / 1000:.0f} kB"
    )
    width = max(len(row[0]) for row in rows)
    for label, figure, target in rows:
        print(f"  {label:<{width}}  {figure:<36} {target}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()
