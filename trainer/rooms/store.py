"""Where rooms are kept: the contract (``RoomStore``), in memory, and one JSON file a room.

A room's record is saved after every action; a file is written whole to a temporary file and
synced to disk, then put in place with ``os.replace``, so a kill or a power cut mid-write leaves
the room as it was before. The hub saves off its event loop (one room waits for its disk, no other).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import tempfile
from typing import Protocol

from ..store import data_home

__all__ = ["FileStore", "MemoryStore", "RoomStore", "default_directory"]

CODE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")  # secrets.token_urlsafe's alphabet: safe as a file name


class RoomStore(Protocol):
    def load(self, code: str) -> dict | None: ...  # the room's record (JSON-able), or None
    def save(self, code: str, record: dict) -> None: ...  # after EVERY action, atomically
    def codes(self) -> list[str]: ...  # every kept room (for restart)
    def delete(self, code: str) -> None: ...  # expired rooms


def default_directory() -> pathlib.Path:
    """``rooms/`` beside the learner's progress file."""
    return data_home() / "rooms"


class MemoryStore:
    def __init__(self) -> None:
        self._records: dict[str, str] = {}

    def load(self, code: str) -> dict | None:
        text = self._records.get(code)
        return None if text is None else json.loads(text)

    def save(self, code: str, record: dict) -> None:
        self._records[code] = json.dumps(record)  # a copy: later changes to the room stay out

    def codes(self) -> list[str]:
        return list(self._records)

    def delete(self, code: str) -> None:
        self._records.pop(code, None)


class FileStore:
    def __init__(self, directory: pathlib.Path | str | None = None) -> None:
        self.directory = pathlib.Path(directory) if directory is not None else default_directory()
        # Made with the first room: serving the lessons alone leaves no empty folder behind.

    def _path(self, code: str) -> pathlib.Path:
        if not CODE.match(code):
            raise ValueError("not a room code")
        return self.directory / f"{code}.json"

    def load(self, code: str) -> dict | None:
        if not CODE.match(code):
            return None
        try:
            return json.loads(self._path(code).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None

    def save(self, code: str, record: dict) -> None:
        path = self._path(code)
        text = json.dumps(record, separators=(",", ":"))  # whole first: json.dump writes in pieces, 3x slower
        self.directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{code}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())  # on disk before it replaces the last record: a power cut too
            os.replace(temporary, path)
            _sync_directory(self.directory)
        except BaseException:
            pathlib.Path(temporary).unlink(missing_ok=True)
            raise

    def codes(self) -> list[str]:
        if not self.directory.is_dir():
            return []
        return sorted(path.stem for path in self.directory.glob("*.json") if CODE.match(path.stem))

    def delete(self, code: str) -> None:
        self._path(code).unlink(missing_ok=True)


def _sync_directory(directory: pathlib.Path) -> None:
    """The rename itself on disk (POSIX; elsewhere the file's own sync is what there is)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    handle = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
