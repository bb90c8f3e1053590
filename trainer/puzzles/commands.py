"""``python -m trainer.puzzles``: check puzzle files; write a folder's index, coverage table or themes.

python -m trainer.puzzles check [FILES]   every problem, one a line (``trainer.puzzles.check``)
python -m trainer.puzzles index [FOLDER]  write FOLDER/index.json (``trainer.puzzles.library``): each
    puzzle's listing and provenance (the miner's decision, the verification's seed, deals, margin)
python -m trainer.puzzles coverage [FOLDER] [--write | --check]  the coverage table of FOLDER/README.md
    (``trainer.puzzles.coverage``), from the index
python -m trainer.puzzles themes [FOLDER] [--write]  themes and titles read again from the files'
    own figures (``trainer.puzzles.retheme``): list the files they change, or rewrite them
python -m trainer.puzzles migrate [FOLDER] [--check]  rewrite version 1 files in version 2
    (``trainer.puzzles.migrate``: each read back the same before it replaces the file), and the index
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .check import check_files
from .coverage import coverage
from .format import PUZZLES_DIR
from .library import index_file, write_index
from .migrate import migrate_folder
from .retheme import retheme_folder

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.puzzles", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="report every problem in puzzle files")
    checking.add_argument(
        "files", nargs="*", type=Path, help=f"puzzle files or folders (default: {PUZZLES_DIR})"
    )
    indexing = commands.add_parser("index", help="write a puzzle folder's library index (index.json)")
    indexing.add_argument("folder", nargs="?", type=Path, default=PUZZLES_DIR, help=f"default: {PUZZLES_DIR}")
    covering = commands.add_parser("coverage", help="print the coverage table (FOLDER/README.md's)")
    covering.add_argument("folder", nargs="?", type=Path, default=PUZZLES_DIR, help=f"default: {PUZZLES_DIR}")
    covering.add_argument("--write", action="store_true", help="replace FOLDER/README.md's coverage section")
    covering.add_argument("--check", action="store_true", help="exit 1 when that section is out of date")
    theming = commands.add_parser("themes", help="read each file's themes and title again from its figures")
    theming.add_argument("folder", nargs="?", type=Path, default=PUZZLES_DIR, help=f"default: {PUZZLES_DIR}")
    theming.add_argument(
        "--write", action="store_true", help="rewrite the files' themes and titles, and the index"
    )
    migrating = commands.add_parser("migrate", help="rewrite version 1 puzzle files in version 2")
    migrating.add_argument(
        "folder", nargs="?", type=Path, default=PUZZLES_DIR, help=f"default: {PUZZLES_DIR}"
    )
    migrating.add_argument(
        "--check", action="store_true", help="only list the files to migrate (exit 1 when there are any)"
    )
    args = parser.parse_args(argv)
    if args.command == "migrate":
        return migrate(args.folder, not args.check)
    if args.command == "check":
        return check_files(args.files)
    if args.command == "themes":
        return themes(args.folder, args.write)
    if args.command == "coverage":
        return coverage(args.folder, args.write, args.check)
    return index(args.folder)


def themes(folder: Path, write: bool) -> int:
    """Each file whose themes or title its figures no longer give (file: before -> after); 0
    when none or when ``write`` rewrote them, else 1 (a check that the files are up to date), and
    1 when a file does not load (printed as ``check`` prints it, and left alone)."""
    if not folder.is_dir() or not any(folder.glob("*.toml")):
        print(f"no puzzle files in {folder}", file=sys.stderr)
        return 1
    changed, problems = retheme_folder(folder, write)
    for problem in problems:
        print(" ".join(problem.splitlines()))
    for file in changed:
        if file.before != file.after:
            print(f"{file.path}: {', '.join(file.before)} -> {', '.join(file.after)}")
        else:
            print(f"{file.path}: title -> {file.title!r}")
    done = "rewritten" if write else "to rewrite (--write)"
    print(
        f"{len(changed)} files' themes or titles {done}"
        if changed
        else "every file's themes and title follow from its figures"
    )
    if problems:
        print(f"{len(problems)} files left out: they do not load (nothing in them was changed)")
    return 1 if problems or (changed and not write) else 0


def index(folder: Path) -> int:
    """Write ``folder``'s index; each file left out is printed (file: field: reason) and the
    status is then 1, though the index is written for the rest."""
    if not folder.is_dir() or not any(folder.glob("*.toml")):
        print(f"no puzzle files in {folder}", file=sys.stderr)
        return 1
    problems = write_index(folder)
    for problem in problems:
        print(" ".join(problem.splitlines()))
    listed = sum(1 for _ in folder.glob("*.toml")) - len(problems)
    print(
        f"{index_file(folder)}: {listed} puzzles listed"
        + (f", {len(problems)} files left out." if problems else ".")
    )
    return 1 if problems else 0


def migrate(folder: Path, write: bool) -> int:
    """Rewrite ``folder``'s version 1 files in version 2, then its index; each file left as it
    was is printed (file: field: reason) and the status is then 1. Without ``write``, the files
    to migrate are listed and the status is 1 when there are any."""
    if not folder.is_dir() or not any(folder.glob("*.toml")):
        print(f"no puzzle files in {folder}", file=sys.stderr)
        return 1
    files = migrate_folder(folder, write)
    problems = [file.problem for file in files if file.problem]
    changed = [file for file in files if file.after != file.before and not file.problem]
    for problem in problems:
        print(" ".join(problem.splitlines()))
    if not write:
        for file in changed:
            print(f"{file.path}: version 1, {file.before:,} bytes -> {file.after:,}")
        print(
            f"{len(changed)} files to migrate (without --check)" if changed else "every file is in version 2"
        )
        return 1 if changed or problems else 0
    before, after = sum(f.before for f in changed), sum(f.after for f in changed)
    if changed:
        write_index(folder)
    print(
        f"{len(changed)} files rewritten in version 2 ({before:,} -> {after:,} bytes), "
        f"{len(files) - len(changed) - len(problems)} already in version 2"
        + (f", {len(problems)} left as they were" if problems else "")
    )
    return 1 if problems else 0
