"""``python -m trainer.puzzles check [FILES]``: puzzle files checked like code.

Every problem is printed on its own line (file: field: reason) and the exit status is 1 if
there is any; otherwise one summary line and 0. A folder stands for its ``*.toml`` files, and
its library index (``index.json``, ``trainer.puzzles.library``) must list them as they are: a
missing or out-of-date index is one more problem line, naming the command that rewrites it. No
argument means every file in ``puzzles/``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from engine.excerpt import clip

from .format import PUZZLES_DIR, load_files
from .library import index_status

__all__ = ["check_files"]


def check_files(named: Sequence[Path] = ()) -> int:
    """Check these files and folders (none: ``puzzles/``); the exit status."""
    named = list(named) or [PUZZLES_DIR]
    paths = _puzzle_files(named)
    if not paths:  # a wrong folder must not pass as a clean one
        print(f"no puzzle files in {', '.join(map(str, named))}", file=sys.stderr)
        return 1
    puzzles, problems = load_files(paths)
    for problem in problems:
        print(clip(" ".join(problem.splitlines()), 400))  # one problem, one short line
    stale = [status for folder in named if folder.is_dir() if (status := index_status(folder, puzzles))]
    for status in stale:
        print(status)
    if problems:
        print(f"{len(problems)} of {len(paths)} puzzle files have problems.", file=sys.stderr)
    if stale:
        print("The puzzle library index is missing or out of date.", file=sys.stderr)
    if problems or stale:
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
