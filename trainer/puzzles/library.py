"""The puzzle library's index: ``index.json`` beside the puzzle files, so the page lists and
filters every puzzle without opening the files, and opens only the one it shows.

The index holds one entry a file (``trainer.puzzles.entry``): what the page filters on, and the
file's size and SHA-256. ``write_index`` writes it from the files (each loaded fully); the
puzzle miner calls it after mining, and ``python -m trainer.puzzles index`` runs it.

``open_library`` trusts an entry only while its file's fingerprint matches: a changed file, a
file the index lacks, or a missing or unreadable index means those files are read in full
again, and the library says so in ``notices``. Files that do not load are left out and
reported in ``problems``, each exactly as ``load_library`` reports it (file: field: reason).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.excerpt import clip

from ..data_files import PUZZLES_DIR
from .entry import Entry, entry_from_puzzle, fingerprint, read_entry
from .format import Puzzle

__all__ = [
    "IDS_NAME",
    "INDEX_FORMAT",
    "INDEX_NAME",
    "PuzzleLibrary",
    "build_index",
    "index_file",
    "index_status",
    "library_ids",
    "open_library",
    "write_index",
]

INDEX_NAME = "index.json"
IDS_NAME = "ids.txt"
"""The library's puzzle ids, one a line, where the folder holds only a few of its files: the static
site's pages without the library (``trainer.site_build.wheel``) know from it which puzzles exist."""
INDEX_FORMAT = "hearts-trainer/puzzle-index"
INDEX_VERSION = 1
CACHE_SIZE = 64
"""Puzzles kept loaded (a pass puzzle holds 286 evaluated passes)."""


class PuzzleLibrary:
    """The listed puzzles (``entries``, metadata only) and ``load(entry)`` for one puzzle."""

    def __init__(
        self,
        folder: Path | None,
        listed: Iterable[Entry],
        notices: Sequence[str] = (),
        loaded: dict[str, Puzzle] | None = None,
    ) -> None:
        self.folder = folder
        """None for a library of puzzles already in memory (``from_puzzles``)."""
        self.entries: list[Entry] = []
        """The puzzles that load, in file-name order, one per id."""
        self.problems: list[str] = []
        """One message per file left out, as ``load_library`` words it (file: field: reason)."""
        self.notices: list[str] = list(notices)
        """What was read again because the index was missing or out of date."""
        self._cache: OrderedDict[str, tuple[Entry, Puzzle]] = OrderedDict()
        owners: dict[str, str] = {}
        for entry in listed:
            if entry.problem is not None:
                self.problems.append(f"{self._path(entry)}: {entry.problem}")
            elif entry.id in owners:
                self.problems.append(
                    f"{self._path(entry)}: id: {entry.id!r} is also the id of {owners[entry.id]}"
                )
            else:
                owners[entry.id] = str(self._path(entry))
                self.entries.append(entry)
                if loaded and entry.file in loaded:
                    self._keep(entry, loaded[entry.file])

    @classmethod
    def from_puzzles(cls, puzzles: Iterable[Puzzle]) -> PuzzleLibrary:
        """A library of puzzles already loaded (tests, a single review puzzle)."""
        puzzles = list(puzzles)
        files = [str(puzzle.path) if puzzle.path else puzzle.id for puzzle in puzzles]
        listed = [entry_from_puzzle(puzzle, file) for puzzle, file in zip(puzzles, files, strict=True)]
        library = cls(None, listed)
        library._cache = OrderedDict(
            (entry.file, (entry, p)) for entry, p in zip(listed, puzzles, strict=True)
        )
        return library

    def load(self, entry: Entry) -> Puzzle | None:
        """The entry's puzzle, read from its file with every check of ``load_puzzle`` (kept for
        the next time). None when the file no longer is what the entry says: the entry is then
        read again (or left out, with its problem), and the caller chooses again."""
        kept = self._cache.get(entry.file)
        if self.folder is None:
            return kept[1] if kept else None
        path = self._path(entry)
        if kept and kept[0] == entry and _unchanged(path, entry):
            self._cache.move_to_end(entry.file)
            return kept[1]
        fresh, puzzle = read_entry(path)
        if puzzle is not None and _listing(fresh) == _listing(entry):
            if fresh != entry and (position := self._position(entry)) is not None:
                self.entries[position] = fresh  # new bytes, same listing
            self._keep(fresh, puzzle)
            return puzzle
        self._relist(entry, fresh, puzzle)
        return None

    def forget(self) -> None:
        """Drop the puzzles kept loaded (a library of files reads them again when asked)."""
        if self.folder is not None:
            self._cache.clear()

    def _relist(self, old: Entry, fresh: Entry, puzzle: Puzzle | None) -> None:
        path = self._path(old)
        self.notices.append(f"{path}: changed since the library was opened: read again")
        position = self._position(old)
        others = {entry.id: entry for entry in self.entries if entry.file != old.file}
        if fresh.problem is not None:
            self.problems.append(f"{path}: {fresh.problem}")
        elif fresh.id in others:
            self.problems.append(f"{path}: id: {fresh.id!r} is also the id of {self._path(others[fresh.id])}")
        else:
            if position is None:
                self.entries.append(fresh)
            else:
                self.entries[position] = fresh
            if puzzle is not None:
                self._keep(fresh, puzzle)
            return
        if position is not None:
            del self.entries[position]
        self._cache.pop(old.file, None)

    def _position(self, entry: Entry) -> int | None:
        return next((i for i, listed in enumerate(self.entries) if listed.file == entry.file), None)

    def _keep(self, entry: Entry, puzzle: Puzzle) -> None:
        self._cache[entry.file] = (entry, puzzle)
        self._cache.move_to_end(entry.file)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _path(self, entry: Entry) -> Path:
        return self.folder / entry.file if self.folder is not None else Path(entry.file)


def _listing(entry: Entry) -> tuple:
    """What the page lists and filters on: an entry without its fingerprint."""
    return (
        entry.id,
        entry.kind,
        entry.title,
        entry.themes,
        entry.difficulty,
        entry.players,
        entry.rules,
        entry.source,
        entry.seed,
        entry.deals,
        entry.margin,
        entry.problem,
    )


def _unchanged(path: Path, entry: Entry) -> bool:
    try:
        if path.stat().st_size != entry.size:
            return False
        return fingerprint(path.read_bytes()) == entry.sha256
    except OSError:
        return False


def _puzzle_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.toml"))


def index_file(folder: str | Path) -> Path:
    return Path(folder) / INDEX_NAME


# ----- writing the index -----


def build_index(folder: str | Path = PUZZLES_DIR) -> dict[str, Any]:
    """The index of ``folder``'s puzzle files, each loaded fully (a file that does not load is
    listed with its problem; ``PuzzleLibrary`` reports it as ``load_library`` does)."""
    return _index([read_entry(path)[0] for path in _puzzle_files(Path(folder))])


def _index(entries: Iterable[Entry]) -> dict[str, Any]:
    return {
        "format": INDEX_FORMAT,
        "version": INDEX_VERSION,
        "puzzles": [entry.to_dict() for entry in entries],
    }


def write_index(folder: str | Path = PUZZLES_DIR) -> list[str]:
    """Write ``folder``'s ``index.json`` (atomically: a temporary file, then ``os.replace``).
    Returns the problems of the files left out of the library, as ``load_library`` words them;
    the index is written either way."""
    folder = Path(folder)
    entries = [read_entry(path)[0] for path in _puzzle_files(folder)]
    text = _index_text(_index(entries))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".index-", suffix=".json.tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, index_file(folder))
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return PuzzleLibrary(folder, entries).problems


def _index_text(index: dict[str, Any]) -> str:
    """One line a puzzle, so a change to the library is a readable diff."""
    rows = ",\n".join(f"  {json.dumps(entry, ensure_ascii=False)}" for entry in index["puzzles"])
    head = f'"format": {json.dumps(index["format"])},\n "version": {index["version"]}'
    return f'{{\n {head},\n "puzzles": [\n{rows}\n ]\n}}\n' if rows else f'{{\n {head},\n "puzzles": []\n}}\n'


# ----- reading it -----


def _read_index(folder: Path) -> tuple[dict[str, Entry], list[str], bool]:
    """The stored entries by file name, what is wrong with the index (each "field: reason"),
    and whether it could be read at all."""
    path = index_file(folder)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, ["missing"], False
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        return {}, [f"cannot be read: {clip(str(error), 160)}"], False
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT:
        return {}, [f"format: expected {INDEX_FORMAT!r}"], False
    if data.get("version") != INDEX_VERSION:
        return {}, [f"version: this program reads version {INDEX_VERSION}"], False
    rows = data.get("puzzles")
    if not isinstance(rows, list):
        return {}, ["puzzles: expected a list"], False
    entries, troubles = {}, []
    for number, row in enumerate(rows):
        try:
            entry = Entry.from_dict(row, f"puzzles[{number}]")
        except ValueError as error:
            troubles.append(str(error))
            continue
        entries[entry.file] = entry
    return entries, troubles, True


def _command(folder: Path) -> str:
    try:
        shown = folder.resolve().relative_to(Path.cwd())
    except ValueError:
        shown = folder
    return f"python -m trainer.puzzles index {shown}"


def _named(files: Sequence[str]) -> str:
    return ", ".join(files[:3]) + (", …" if len(files) > 3 else "")


def open_library(folder: str | Path = PUZZLES_DIR) -> PuzzleLibrary:
    """The library of ``folder`` from its index, each entry checked against its file's
    fingerprint; what the index lacks or has wrong is read from the files themselves."""
    folder = Path(folder)
    stored, troubles, readable = _read_index(folder)
    listed: list[Entry] = []
    loaded: dict[str, Puzzle] = {}
    stale: dict[str, list[str]] = {"changed": [], "not listed": []}
    read_again = 0
    for path in _puzzle_files(folder):
        entry = stored.pop(path.name, None)
        if entry is not None and _unchanged(path, entry):
            listed.append(entry)
            continue
        stale["changed" if entry is not None else "not listed"].append(path.name)
        entry, puzzle = read_entry(path)
        read_again += 1
        listed.append(entry)
        if puzzle is not None:
            loaded[path.name] = puzzle
    stale["gone"] = sorted(stored)
    what = _what_is_wrong(troubles, readable, stale)
    notices = []
    if what:
        notices.append(
            f"{index_file(folder)}: {what}: {read_again} puzzle files read in full instead; "
            f"run `{_command(folder)}` to bring it up to date."
        )
    return PuzzleLibrary(folder, listed, notices, loaded)


def _what_is_wrong(troubles: list[str], readable: bool, stale: dict[str, list[str]]) -> str:
    if not readable:
        return troubles[0]
    stale = {what: files for what, files in stale.items() if files}
    wrong = [f"{len(files)} {what} ({_named(files)})" for what, files in stale.items()]
    return "out of date: " + "; ".join([*troubles, *wrong]) if troubles or wrong else ""


def library_ids(folder: str | Path = PUZZLES_DIR) -> frozenset[str]:
    """The ids of the library's puzzles: as ``IDS_NAME`` lists them where the folder has it, else
    as the index lists them when it names every file there and no other (no file is read: the
    home page asks), else as the library reads them (``open_library``)."""
    folder = Path(folder)
    listed = folder / IDS_NAME
    if listed.is_file():
        return frozenset(listed.read_text(encoding="utf-8").split())
    stored, _troubles, readable = _read_index(folder)
    if readable and set(stored) == {path.name for path in _puzzle_files(folder)}:
        return frozenset(entry.id for entry in stored.values())
    return frozenset(entry.id for entry in open_library(folder).entries)


def index_status(folder: str | Path = PUZZLES_DIR, puzzles: Iterable[Puzzle] = ()) -> str | None:
    """One line when ``folder``'s index is missing or does not list every file as it is (None
    when it does): its name, what is wrong and the command that rewrites it. ``puzzles``, already
    loaded from the folder, let it check the listed metadata as well as the fingerprints."""
    folder = Path(folder)
    stored, troubles, readable = _read_index(folder)
    files = _puzzle_files(folder)
    stale = {
        "changed": [p.name for p in files if p.name in stored and not _unchanged(p, stored[p.name])],
        "not listed": [p.name for p in files if p.name not in stored],
        "gone": sorted(set(stored) - {path.name for path in files}),
    }
    here = folder.resolve()
    stale["listed wrong"] = [
        puzzle.path.name
        for puzzle in puzzles
        if puzzle.path is not None
        and puzzle.path.resolve().parent == here
        and (entry := stored.get(puzzle.path.name)) is not None
        and puzzle.path.name not in stale["changed"]
        and _listing(entry) != _listing(entry_from_puzzle(puzzle, entry.file))
    ]
    what = _what_is_wrong(troubles, readable, stale)
    return f"{index_file(folder)}: {what}; run `{_command(folder)}`" if what else None
