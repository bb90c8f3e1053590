"""``python -m trainer.puzzles check [FILES]``: puzzle files checked like code.

Every problem is printed on its own line (file: field: reason) and the exit status is 1 if
there is any; otherwise one summary line and 0. A folder stands for its ``*.toml`` files; no
argument means every file in ``puzzles/``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .format import PUZZLES_DIR, load_files

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.puzzles", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="report every problem in puzzle files")
    check.add_argument(
        "files", nargs="*", type=Path, help=f"puzzle files or folders (default: {PUZZLES_DIR})"
    )
    args = parser.parse_args(argv)
    named = args.files or [PUZZLES_DIR]
    paths = _puzzle_files(named)
    if not paths:  # a wrong folder must not pass as a clean one
        print(f"no puzzle files in {', '.join(map(str, named))}", file=sys.stderr)
        return 1
    puzzles, problems = load_files(paths)
    for problem in problems:
        print(" ".join(problem.splitlines()))  # one problem, one line
    if problems:
        print(f"{len(problems)} of {len(paths)} puzzle files have problems.", file=sys.stderr)
        return 1
    kinds = [puzzle.kind for puzzle in puzzles]
    counts = f"{kinds.count('pass')} pass, {kinds.count('play')} play"
    print(f"{len(paths)} puzzle files checked: no problems ({counts}).")
    return 0


def _puzzle_files(paths: Sequence[Path]) -> list[Path]:
    files = []
    for path in paths:
        files.extend(sorted(path.glob("*.toml")) if path.is_dir() else [path])
    return files
