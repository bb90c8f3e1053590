"""What the puzzle library covers: counts by table, kind, theme and difficulty band.

    python -m trainer.puzzles.coverage puzzles [--write puzzles/README.md]

prints the coverage table in Markdown (and with ``--write`` replaces the section between the
README's coverage markers).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from engine import Rules

from .entry import rules_label
from .format import Puzzle, load_library

__all__ = ["BANDS", "coverage_markdown", "table_of"]

BANDS = ((0, 1200), (1200, 1400), (1400, 1600), (1600, 1800), (1800, 10_000))
"""Difficulty bands (starting ratings): below Normal's 1400, around it, up to Hard's 1800, above."""
START, END = "<!-- coverage:start -->", "<!-- coverage:end -->"


def table_of(rules: Rules) -> str:
    """The table a puzzle is set at: its rules' preset ("custom" when none is), and the number
    of players when it is not four."""
    label = rules_label(rules)
    if rules.players == 4:
        return label
    return f"{rules.players} players" + ("" if label == "standard" else f", {label}")


def _band(difficulty: int) -> str:
    for low, high in BANDS:
        if low <= difficulty < high:
            return f"<{high}" if low == 0 else (f"≥{low}" if high == 10_000 else f"{low}–{high - 1}")
    return "?"


def coverage_markdown(puzzles: Sequence[Puzzle]) -> str:
    bands = [_band(low) for low, _ in BANDS]
    kinds = Counter(p.kind for p in puzzles)
    tables = Counter((table_of(p.rules), p.kind) for p in puzzles)
    names = sorted({name for name, _ in tables}, key=lambda name: (name != "standard", name))
    lines = [
        f"{len(puzzles)} puzzles: {kinds['pass']} pass, {kinds['play']} play; "
        f"{sum(1 for p in puzzles if table_of(p.rules) != 'standard')} under other tables and rules.",
        "",
        "| table | pass | play |",
        "|---|---:|---:|",
        *(f"| {name} | {tables[name, 'pass']} | {tables[name, 'play']} |" for name in names),
        "",
        "Every theme a puzzle is tagged with, by table, kind and difficulty band (a puzzle counts",
        "once under each of its themes):",
        "",
        "| table | kind | theme | " + " | ".join(bands) + " | all |",
        "|---|---|---|" + "---:|" * (len(bands) + 1),
    ]
    cells: Counter = Counter()
    for puzzle in puzzles:
        for theme in puzzle.themes:
            cells[table_of(puzzle.rules), puzzle.kind, theme, _band(puzzle.difficulty)] += 1
    rows = sorted({key[:3] for key in cells}, key=lambda k: (names.index(k[0]), k[1], k[2]))
    for table, kind, theme in rows:
        counts = [cells[table, kind, theme, band] for band in bands]
        lines.append(
            f"| {table} | {kind} | {theme} | "
            + " | ".join(str(c or "") for c in counts)
            + f" | {sum(counts)} |"
        )
    return "\n".join(lines) + "\n"


def write_into(readme: Path, text: str) -> None:
    """Replace the README's coverage section (between its markers; appended when missing)."""
    current = readme.read_text(encoding="utf-8") if readme.exists() else ""
    block = f"{START}\n{text}{END}"
    if START in current and END in current:
        head, _, rest = current.partition(START)
        _, _, tail = rest.partition(END)
        updated = head + block + tail
    else:
        updated = current.rstrip() + "\n\n## Coverage\n\n" + block + "\n"
    readme.write_text(updated, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=Path("puzzles"))
    parser.add_argument("--write", type=Path, metavar="README", help="replace this file's coverage section")
    args = parser.parse_args(argv)
    puzzles, problems = load_library(args.folder)
    text = coverage_markdown(puzzles)
    for problem in problems:
        print(f"skipped: {problem}")
    if args.write:
        write_into(args.write, text)
    print(text, end="")


if __name__ == "__main__":
    main()
