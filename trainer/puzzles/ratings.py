"""Each puzzle's starting rating from how the bots of every career level answer it.

The career's levels (``engine.bots.ladder``) are the scale's fixed points (``level_ratings``):
Level 2 (Easy's bot) sits at 1000, Level 7 (Normal's care, no moon blocking) at 1400 and
Level 10 (Hard) at 1800, as the Easy, Normal and Hard bots did before; the levels between sit
in proportion to their measured margins (``ladder.MARGINS``), Level 1 below on the same slope,
and the master table a step above Hard. Each bot's answer is a game between the bot and the
puzzle, scored by the puzzle's verified answers; the puzzle's rating is the Glicko-2 estimate
after those games (``trainer.puzzles.rating``), from 1500 with the full uncertainty.

The ratings live in their own file, ``ratings.json`` beside the puzzle files, keyed by puzzle
id: re-verifying a puzzle rewrites its figures, never this. The command rates only the puzzles
the file lacks, and keeps the file whole after every puzzle it adds:

    python -m trainer.puzzles.ratings [FOLDER]

Cost (``TRIES``): the levels that play by chance (1 to 7) answer three times each, with
different seeds; the search levels once. The master table answers play puzzles only: a puzzle
has no earlier hands for it to read, so its pass is Level 10's search (Hard's), which takes about
a second a pass puzzle. Learners' results then move each puzzle's rating in their own progress
(``trainer.puzzles.schedule``), starting from this one.
"""

from __future__ import annotations

import argparse
import json
import os
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import CardSet
from engine.bots import make_bot
from engine.bots.ladder import LADDER, MARGINS, MASTER
from engine.excerpt import clip, excerpt

from ..data_files import PUZZLES_DIR
from .format import Puzzle
from .rating import Rating, update
from .themes import phase_of
from .verify import text_of

__all__ = [
    "FORMAT",
    "RATINGS_NAME",
    "TRIES",
    "PuzzleRatings",
    "level_ratings",
    "load_ratings",
    "puzzle_phase",
    "rate_puzzle",
    "write_ratings",
]

RATINGS_NAME = "ratings.json"
FORMAT = "hearts-trainer/puzzle-ratings"
VERSION = 1
ANCHORS = {2: 1000.0, 7: 1400.0, 10: 1800.0}
"""Levels whose rating is fixed: the Easy, Normal and Hard bots' old places on the scale."""
MASTER_STEP = 100.0
"""The master table's rating above Level 10 (no margin between them is measured on a puzzle)."""
ANCHOR_DEVIATION = 50.0
FALLBACK = "each puzzle starts from its difficulty"
TRIES = {**{rung.key: 3 for rung in LADDER[:7]}, **{rung.key: 1 for rung in LADDER[7:]}, MASTER.key: 1}
"""Answers per level: three from each level that plays by chance, one from each search level."""


def level_ratings() -> dict[str, float]:
    """Each level's key to its place on the puzzle scale (see the module's note)."""
    climb = {1: 0.0}
    for number in range(2, len(LADDER) + 1):
        climb[number] = climb[number - 1] + MARGINS.get(number, (0.0, 0.0))[0]
    marks = sorted(ANCHORS)
    out = {}
    for number in climb:
        low, high = (marks[0], marks[1]) if number <= marks[1] else (marks[1], marks[2])
        slope = (ANCHORS[high] - ANCHORS[low]) / (climb[high] - climb[low])
        out[f"level-{number}"] = round(ANCHORS[low] + slope * (climb[number] - climb[low]), 1)
    out[MASTER.key] = out[f"level-{len(LADDER)}"] + MASTER_STEP
    return out


def puzzle_phase(puzzle: Puzzle) -> str:
    """``pass``, or the phase of the trick the play puzzle is at (as graded decisions name it)."""
    trick = 0 if puzzle.kind == "pass" else puzzle.state.trick_number + 1
    return phase_of(puzzle.kind, trick, puzzle.rules.hand_size)


def rate_puzzle(puzzle: Puzzle, tries: Mapping[str, int] = TRIES) -> tuple[Rating, list[int | None]]:
    """The puzzle's Glicko-2 rating after each level's answers (it wins when a bot fails), and
    how many of its tries each level solved, in ``tries``' order (None: not asked). Seeds come
    from the id."""
    scale = level_ratings()
    wanted = {CardSet(text) for text in puzzle.answer.accepted}
    seed = zlib.crc32(puzzle.id.encode())
    games: list[tuple[Rating, float]] = []
    solved: list[int | None] = []
    for key, count in tries.items():
        if key == MASTER.key and puzzle.kind == "pass":
            solved.append(None)  # it passes as Level 10 does (see the module's note)
            continue
        right = 0
        for attempt in range(count):
            bot = make_bot(key, seed + attempt)
            choice = bot.choose_pass(puzzle.view) if puzzle.kind == "pass" else bot.choose_play(puzzle.view)
            win = CardSet(text_of(choice)) in wanted
            right += win
            games.append((Rating(scale[key], ANCHOR_DEVIATION), 0.0 if win else 1.0))
        solved.append(right)
    return update(Rating(), games), solved


@dataclass
class PuzzleRatings:
    """The ratings file as read: each puzzle's evidence rating and phase; ``problem`` is one line
    when the file could not be used (then no puzzle has one, and each starts from its
    difficulty)."""

    ratings: dict[str, Rating]
    phases: dict[str, str]
    problem: str = ""


def _path(folder: str | Path) -> Path:
    return Path(folder) / RATINGS_NAME


def load_ratings(folder: str | Path = PUZZLES_DIR) -> PuzzleRatings:
    """``folder``'s ratings file; an absent one gives none, a bad one none and its problem."""
    path = _path(folder)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return PuzzleRatings({}, {})
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return PuzzleRatings(
            {}, {}, clip(f"{path}: cannot be read ({error}); puzzles start from their difficulty")
        )
    try:
        return _read(document)
    except ValueError as error:
        return PuzzleRatings({}, {}, clip(f"{path}: {error}; {FALLBACK}"))


def _read(document: object) -> PuzzleRatings:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r}")
    if document.get("version") != VERSION:
        raise ValueError(f"version: {excerpt(document.get('version'))}, this Hearts Trainer reads {VERSION}")
    table = document.get("puzzles")
    if not isinstance(table, dict):
        raise ValueError("puzzles: expected an object of puzzle ids")
    ratings, phases = {}, {}
    for puzzle_id, row in table.items():
        where = f"puzzles.{excerpt(puzzle_id)}"
        if not isinstance(row, dict):
            raise ValueError(f"{where}: expected an object")
        rating, deviation = row.get("rating"), row.get("deviation")
        for name, value, low, high in (("rating", rating, 0, 4000), ("deviation", deviation, 1, 350)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise ValueError(
                    f"{where}.{name}: expected a number from {low} to {high}, not {excerpt(value)}"
                )
        if row.get("phase") not in ("pass", "early", "middle", "late"):
            raise ValueError(
                f"{where}.phase: expected pass, early, middle or late, not {excerpt(row.get('phase'))}"
            )
        ratings[puzzle_id] = Rating(float(rating), float(deviation))
        phases[puzzle_id] = row["phase"]
    return PuzzleRatings(ratings, phases)


def _document(rows: dict[str, dict]) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "levels": level_ratings(),
        "tries": dict(TRIES),
        "puzzles": dict(sorted(rows.items())),
    }


def _write(path: Path, rows: dict[str, dict]) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    head = json.dumps({**_document({}), "puzzles": None}, indent=1)
    lines = [
        f"{json.dumps(key)}: {json.dumps(row, separators=(',', ':'))}" for key, row in sorted(rows.items())
    ]
    # one puzzle a line: a diff shows which puzzles a run added
    text = head.replace('"puzzles": null', '"puzzles": {\n' + ",\n".join(lines) + "\n}") + "\n"
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)  # whole or not at all: a stopped run keeps what it rated


def write_ratings(
    puzzles: Sequence[Puzzle], folder: str | Path = PUZZLES_DIR, report=print
) -> tuple[int, float]:
    """Rate the puzzles ``folder``'s ratings file lacks and add each as it is rated (a bad file is
    refused, not replaced); how many were rated, and the processor seconds it took."""
    path = _path(folder)
    rows: dict[str, dict] = {}
    if path.exists():
        kept = load_ratings(folder)
        if kept.problem:
            raise ValueError(kept.problem)
        rows = json.loads(path.read_text(encoding="utf-8"))["puzzles"]
    seconds = 0.0
    todo = [p for p in puzzles if p.id not in rows]
    for number, puzzle in enumerate(todo, start=1):
        started = time.process_time()
        rating, solved = rate_puzzle(puzzle)
        rows[puzzle.id] = {
            "rating": round(rating.rating),
            "deviation": round(rating.deviation, 1),
            "phase": puzzle_phase(puzzle),
            "solved": solved,
        }
        _write(path, rows)
        seconds += time.process_time() - started
        report(f"{number}/{len(todo)} {puzzle.id}: {round(rating.rating)} (±{2 * rating.deviation:.0f})")
    return len(todo), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Rate the puzzles that FOLDER/ratings.json lacks from how every career level's bots "
        "answer them (it keeps the file after each puzzle; a rerun goes on)."
    )
    parser.add_argument("folder", type=Path, nargs="?", default=PUZZLES_DIR)
    args = parser.parse_args(argv)
    from .library import open_library

    library = open_library(args.folder)
    puzzles = [p for p in map(library.load, library.entries) if p is not None]
    try:
        rated, seconds = write_ratings(puzzles, args.folder)
    except ValueError as error:
        print(error)
        return 1
    each = f", {seconds / rated:.2f} s a puzzle" if rated else ""
    print(f"{len(puzzles)} puzzles listed, {rated} rated in {seconds:.0f} processor seconds{each}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
