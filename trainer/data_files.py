"""Where the notebooks (lessons/) and the puzzle files (puzzles/) are.

They sit at the top of a checkout; a wheel carries them inside the package, as
``trainer/notebooks`` and ``trainer/puzzle_files`` (setup.py maps them there).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["LESSONS_DIR", "PUZZLES_DIR"]

PACKAGE = Path(__file__).resolve().parent


def _located(in_package: str, in_checkout: str) -> Path:
    installed = PACKAGE / in_package
    return installed if installed.is_dir() else PACKAGE.parent / in_checkout


LESSONS_DIR = _located("notebooks", "lessons")
PUZZLES_DIR = _located("puzzle_files", "puzzles")
