"""What the puzzle library covers: counts by table, kind, theme and difficulty band.

    python -m trainer.puzzles coverage [FOLDER] [--write | --check]

prints the coverage table in Markdown, read from the library's index (``trainer.puzzles.library``:
an entry whose file changed is read from the file), and with ``--write`` replaces the section
between the coverage markers of ``FOLDER/README.md``; ``--check`` exits 1 when that section is
not what the command writes. The table is never edited by hand.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from engine import Rules

from .entry import Entry, rules_label
from .format import PUZZLES_DIR, THEMES

__all__ = ["BANDS", "MIN_THEME", "coverage_markdown", "main", "readme_section", "table_name", "table_of"]

BANDS = ((0, 1200), (1200, 1400), (1400, 1600), (1600, 1800), (1800, 10_000))
"""Difficulty bands (starting ratings): below Normal's 1400, around it, up to Hard's 1800, above."""
MIN_THEME = 30
"""Puzzles each theme should have (issue 55): a theme below it is marked in the table."""
START, END = "<!-- coverage:start -->", "<!-- coverage:end -->"


def table_name(players: int, label: str) -> str:
    """The table a puzzle is set at: its rules' preset ("custom" when none is), and the number
    of players when it is not four."""
    if players == 4:
        return label
    return f"{players} players" + ("" if label == "standard" else f", {label}")


def table_of(rules: Rules) -> str:
    return table_name(rules.players, rules_label(rules))


def _band(difficulty: int) -> str:
    for low, high in BANDS:
        if low <= difficulty < high:
            return f"<{high}" if low == 0 else (f"≥{low}" if high == 10_000 else f"{low}–{high - 1}")
    return "?"


def coverage_markdown(entries: Sequence[Entry]) -> str:
    """The coverage section's text for these index entries (``PuzzleLibrary.entries``)."""
    bands = [_band(low) for low, _ in BANDS]
    kinds = Counter(e.kind for e in entries)
    tables = Counter((table_name(e.players, e.rules), e.kind) for e in entries)
    names = sorted({name for name, _ in tables}, key=lambda name: (name != "standard", name))
    themes = Counter(theme for e in entries for theme in e.themes)
    short = [theme for theme in THEMES if themes[theme] < MIN_THEME]
    lines = [
        f"{len(entries)} puzzles: {kinds['pass']} pass, {kinds['play']} play; "
        f"{sum(1 for e in entries if table_name(e.players, e.rules) != 'standard')} under other tables "
        "and rules.",
        "",
        "| table | pass | play |",
        "|---|---:|---:|",
        *(f"| {name} | {tables[name, 'pass']} | {tables[name, 'play']} |" for name in names),
        "",
        f"Puzzles of each theme, every table and kind together ({MIN_THEME} wanted of each"
        + (f"; short: {', '.join(short)}):" if short else "; none is short):"),
        "",
        "| theme | pass | play | all |",
        "|---|---:|---:|---:|",
    ]
    by_kind = Counter((theme, e.kind) for e in entries for theme in e.themes)
    for theme in THEMES:
        lines.append(f"| {theme} | {by_kind[theme, 'pass']} | {by_kind[theme, 'play']} | {themes[theme]} |")
    lines += [
        "",
        "Every theme a puzzle is tagged with, by table, kind and difficulty band (a puzzle counts",
        "once under each of its themes):",
        "",
        "| table | kind | theme | " + " | ".join(bands) + " | all |",
        "|---|---|---|" + "---:|" * (len(bands) + 1),
    ]
    cells: Counter = Counter()
    for e in entries:
        for theme in e.themes:
            cells[table_name(e.players, e.rules), e.kind, theme, _band(e.difficulty)] += 1
    rows = sorted({key[:3] for key in cells}, key=lambda k: (names.index(k[0]), k[1], k[2]))
    for table, kind, theme in rows:
        counts = [cells[table, kind, theme, band] for band in bands]
        lines.append(
            f"| {table} | {kind} | {theme} | "
            + " | ".join(str(c or "") for c in counts)
            + f" | {sum(counts)} |"
        )
    return "\n".join(lines) + "\n"


def readme_section(readme: Path) -> str | None:
    """The text between the README's coverage markers (None when it has none)."""
    current = readme.read_text(encoding="utf-8") if readme.exists() else ""
    if START not in current or END not in current:
        return None
    return current.partition(START)[2].partition(END)[0].removeprefix("\n")


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


def coverage(folder: Path, write: bool = False, check: bool = False) -> int:
    """``python -m trainer.puzzles coverage``: print (and write, or check) the folder's table."""
    from .library import open_library

    if not folder.is_dir() or not any(folder.glob("*.toml")):
        print(f"no puzzle files in {folder}", file=sys.stderr)
        return 1
    library = open_library(folder)
    for line in [*library.notices, *library.problems]:
        print(line, file=sys.stderr)
    text = coverage_markdown(library.entries)
    readme = folder / "README.md"
    if check:
        if readme_section(readme) != text:
            print(
                f"{readme}: the coverage table is not the library's; run "
                f"`python -m trainer.puzzles coverage {folder} --write`",
                file=sys.stderr,
            )
            return 1
        print(f"{readme}: the coverage table is the library's ({len(library.entries)} puzzles)")
        return 0
    if write:
        write_into(readme, text)
    print(text, end="")
    return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=PUZZLES_DIR)
    parser.add_argument("--write", action="store_true", help="replace FOLDER/README.md's coverage section")
    parser.add_argument("--check", action="store_true", help="exit 1 when that section is out of date")
    args = parser.parse_args(argv)
    sys.exit(coverage(args.folder, args.write, args.check))


if __name__ == "__main__":
    main()
