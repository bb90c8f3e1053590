"""What rating the puzzles from every career level's bots costs (``trainer.puzzles.ratings``).

Times each level's answer (``make_bot(level).choose_pass`` or ``choose_play``, processor seconds,
so a busy machine inflates it less than the clock) on ``--passes`` pass and ``--plays`` play puzzles
of the library, every level once per puzzle after one warm-up answer (the search levels compile
their kernels on first use). Then the cost of a puzzle as ``ratings.TRIES`` asks (levels 1-7 three
answers, the search levels one, the master table on play puzzles only) and what a library of
``--library`` puzzles with the library's share of pass puzzles takes on one core.

    PYTHONPATH=. .venv/bin/python benchmarks/puzzle_ratings.py [--passes 20] [--plays 20]
        [--library 2000] [--json benchmarks/results/puzzle_ratings.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
import zlib

from engine.bots import make_bot
from engine.bots.ladder import MASTER
from trainer.puzzles.format import PUZZLES_DIR
from trainer.puzzles.library import open_library
from trainer.puzzles.ratings import TRIES


def answer_seconds(puzzle, level: str) -> float:
    bot = make_bot(level, zlib.crc32(puzzle.id.encode()))
    start = time.process_time()
    bot.choose_pass(puzzle.view) if puzzle.kind == "pass" else bot.choose_play(puzzle.view)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--plays", type=int, default=20)
    parser.add_argument("--library", type=int, default=2000)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    library = open_library(PUZZLES_DIR)
    chosen = {"pass": args.passes, "play": args.plays}
    per_answer: dict[str, dict[str, float]] = {}
    for kind, count in chosen.items():
        entries = [entry for entry in library.entries if entry.kind == kind]
        step = max(1, len(entries) // max(count, 1))
        puzzles = [library.load(entry) for entry in entries[::step][:count]]
        for level in TRIES:
            answer_seconds(puzzles[0], level)  # warm-up: kernels compile on first use
            spent = [answer_seconds(puzzle, level) for puzzle in puzzles]
            per_answer.setdefault(kind, {})[level] = round(sum(spent) / len(spent), 4)
    per_puzzle = {
        kind: round(
            sum(
                seconds * TRIES[level]
                for level, seconds in levels.items()
                if kind == "play" or level != MASTER.key
            ),
            3,
        )
        for kind, levels in per_answer.items()
    }
    share = sum(entry.kind == "pass" for entry in library.entries) / len(library.entries)
    library_minutes = args.library * (share * per_puzzle["pass"] + (1 - share) * per_puzzle["play"]) / 60
    result = {
        "passes": args.passes,
        "plays": args.plays,
        "machine": f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}",
        "load_average_before": round(load, 2),
        "processor_seconds_an_answer": per_answer,
        "processor_seconds_a_puzzle": per_puzzle,
        "pass_share": round(share, 3),
        "library": args.library,
        "library_minutes_one_core": round(library_minutes, 1),
    }
    print(json.dumps(result, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
