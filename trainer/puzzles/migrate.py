"""Puzzle files rewritten in the current format version (``python -m trainer.puzzles migrate``).

A version 1 file becomes version 2 (``trainer.puzzles.format``: its options packed), and nothing
else in it changes. A file is replaced only once its new text has been read back and gives the
same puzzle: the same answer and stored evaluation, every figure equal to the last bit, and the
same data in every other field; else the file is left as it is and the reason reported. A file
already in version 2 is left alone, so a second run changes nothing.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import PuzzleError
from .format import VERSION, Puzzle, load_puzzle, puzzle_from_data, puzzle_text
from .source import read_toml

__all__ = ["Migrated", "migrate_file", "migrate_folder"]


@dataclass(frozen=True)
class Migrated:
    path: Path
    before: int
    """The file's bytes before."""
    after: int
    """Its bytes after (``before`` when it was left as it was)."""
    problem: str | None = None
    """Why it was left as it was, when it should have been rewritten (file: field: reason)."""


def migrate_folder(folder: Path, write: bool = True) -> list[Migrated]:
    """Every ``*.toml`` puzzle in ``folder`` migrated (or, without ``write``, only checked)."""
    return [migrate_file(path, write) for path in sorted(folder.glob("*.toml"))]


def migrate_file(path: Path, write: bool = True) -> Migrated:
    before = path.stat().st_size
    try:
        data = read_toml(path)
        if data.get("version") == VERSION:
            return Migrated(path, before, before)
        old = load_puzzle(path)
        text = puzzle_text(data)
        new_data = tomllib.loads(text)
        if new_data.get("version") != VERSION:
            return Migrated(
                path, before, before, f"{path}: answer.options: a figure would not be kept exactly"
            )
        new = puzzle_from_data(new_data, path)
    except PuzzleError as error:
        return Migrated(path, before, before, str(error))
    if lost := _lost(old, new, data, new_data):
        return Migrated(path, before, before, f"{path}: {lost}: would not read back the same; left as it is")
    encoded = text.encode("utf-8")
    if write:
        _replace(path, encoded)
    return Migrated(path, before, len(encoded))


def _lost(old: Puzzle, new: Puzzle, data: dict, new_data: dict) -> str | None:
    """The first field the rewritten file reads differently, if any (repr: floats to the bit)."""
    if repr(old.answer) != repr(new.answer):
        return "answer"
    if repr(old.evaluation) != repr(new.evaluation):
        return "answer.options"
    for key in sorted((set(data) | set(new_data)) - {"answer", "version"}):
        if data.get(key) != new_data.get(key):
            return key
    rest = {k: v for k, v in data["answer"].items() if k not in ("options", "option_columns")}
    if rest != {k: v for k, v in new_data["answer"].items() if k != "options"}:
        return "answer"
    return None


def _replace(path: Path, encoded: bytes) -> None:
    """Write the file whole: a temporary file beside it, then ``os.replace``."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(encoded)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
