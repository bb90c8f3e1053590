"""Progress as one file, to carry from one Hearts Trainer to another: the static site's
**Download my progress** writes it, ``hearts-trainer import-progress FILE`` reads it into the
installed version's store.

The file is JSON: ``{"format": "hearts-trainer-progress", "version": 1, "schema": N,
"exported_at": ..., "tables": {TABLE: [ROW, ...]}}``, one object per row, keyed by column.
Importing checks the whole file first (every row against its table's checks in
``trainer.progress.schema``, down to the JSON kept in text columns) and refuses it with one line
naming the file and the field, quoting at most an excerpt; then it merges every table in one
transaction, so a file is applied entirely or not at all. Merging keeps the most of both (the
further step of a lesson, the puzzle record with more attempts, every attempt, game, decision and
career match once: those already kept are found in sets read once, so the time grows with the rows, not their
square) and importing the same file twice changes nothing the second time.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sqlite3
import sys
import time
from collections.abc import Iterator
from typing import Any

from engine.excerpt import clip, excerpt

from ..store import MIGRATIONS, Store
from .checks import Bad, name
from .nesting import too_deep
from .schema import SCHEMA, Column, check_row, column_check

__all__ = [
    "FORMAT",
    "ProgressFileError",
    "export_bytes",
    "export_progress",
    "import_progress",
    "read_progress",
    "transfer_markdown",
]

FORMAT = "hearts-trainer-progress"
VERSION = 1
TABLES = (
    "lesson_progress",
    "lesson_steps",
    "puzzle_learner",
    "puzzle_records",
    "puzzle_attempts",
    "games",
    "decisions",
    "table_games",
    "career_matches",
    "practice_items",
    "puzzle_streak",
)
"""Every table of the store that holds the learner's progress, in the order they are merged
(games before the decisions that point at them)."""


class ProgressFileError(ValueError):
    """The file is not progress this Hearts Trainer can import; the message names the field."""


def _columns(store: Store, table: str) -> list[tuple[str, str, bool, bool]]:
    """(name, declared type, required, has default) for each column of TABLE."""
    rows = store.query(f"PRAGMA table_info({table})")
    return [
        (name, kind.upper(), bool(notnull), default is not None or bool(pk))
        for _, name, kind, notnull, default, pk in rows
    ]


def export_progress(store: Store) -> dict[str, Any]:
    """Every progress table of STORE, as the file's document."""
    tables = {}
    for table in TABLES:
        names = [name for name, *_ in _columns(store, table)]
        tables[table] = [
            dict(zip(names, row, strict=True))
            for row in store.query(f"SELECT {', '.join(names)} FROM {table} ORDER BY rowid")
        ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema": store.version,
        "exported_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "tables": tables,
    }


def export_bytes(store: Store) -> bytes:
    """The file's bytes (what the download button hands the browser)."""
    return json.dumps(export_progress(store), indent=1, ensure_ascii=False).encode()


def transfer_markdown() -> str:
    """What the home page says above the download button: in the browser, where the progress
    is and how an installed Hearts Trainer takes it; installed, how another computer takes it."""
    command = "`hearts-trainer import-progress hearts-trainer-progress.json`"
    if sys.platform == "emscripten":
        return (
            "**Your progress, elsewhere.** Your progress is kept in this browser (on this computer "
            "only; clearing the site's data clears it). Download it as a file to carry it to an "
            f"installed Hearts Trainer, which reads it with {command}."
        )
    return (
        "**Your progress, elsewhere.** Your progress is kept in this computer's progress file. "
        "Download it as a file to keep a copy or to carry it to Hearts Trainer on another "
        f"computer, which adds it to its own with {command}."
    )


DEEPEST = 500
"""Levels of nesting named as too deep when the parser gives up (a progress file holds ten)."""


class _Huge:
    """A number of more digits than any field holds, read as a marker that every check refuses
    by the field's name (``int()`` of 4,300 digits or more fails naming no field)."""

    def __init__(self, digits: str) -> None:
        self.digits = len(digits.lstrip("-"))

    def __repr__(self) -> str:
        return f"<a number of {self.digits:,} digits>"


def _number(digits: str) -> int | _Huge:
    return int(digits) if len(digits) <= 30 else _Huge(digits)


def _parse(where: str, raw: bytes) -> object:
    try:
        text = raw.decode("utf-8")
        return json.loads(text, parse_int=_number)
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        reason = f"not UTF-8 text (byte 0x{raw[error.start]:02x} on line {line})"
    except RecursionError:
        if field := too_deep(text, DEEPEST):
            raise ProgressFileError(f"{where}: {field}: nested more than {DEEPEST} deep.") from None
        reason = "nested too deeply"
    except ValueError as error:  # bad syntax
        reason = f"not JSON: {clip(str(error), 120)}"
    raise ProgressFileError(f"{where}: is not a Hearts Trainer progress file ({reason}).")


def read_progress(path: pathlib.Path, store: Store) -> dict[str, list[dict[str, Any]]]:
    """The file's tables, every row checked against its table's schema (``trainer.progress.schema``);
    raises ProgressFileError naming the file and the field at fault."""
    where = _one_line(str(path))
    try:
        raw = pathlib.Path(path).read_bytes()
    except OSError as error:
        raise ProgressFileError(f"{where}: cannot be read ({error.strerror or error}).") from error
    document = _parse(where, raw)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ProgressFileError(
            f"{where}: format: expected {FORMAT!r}; this is not a progress file downloaded from "
            "Hearts Trainer."
        )
    if document.get("version") != VERSION:
        raise ProgressFileError(
            f"{where}: version: {excerpt(document.get('version'))}, this Hearts Trainer reads {VERSION}."
        )
    schema = document.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise ProgressFileError(f"{where}: schema: expected a whole number, not {excerpt(schema)}.")
    if schema > len(MIGRATIONS):
        raise ProgressFileError(
            f"{where}: schema: {excerpt(schema)} was written by a newer Hearts Trainer (this one knows "
            f"{len(MIGRATIONS)}); update Hearts Trainer, then import it again."
        )
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise ProgressFileError(f"{where}: tables: expected an object of tables, not {excerpt(tables)}.")
    unknown = sorted(set(tables) - set(TABLES))
    if unknown:
        raise ProgressFileError(
            f"{where}: tables.{name(unknown[0])}: not a table of Hearts Trainer's progress."
        )
    checked: dict[str, list[dict[str, Any]]] = {}
    for table in TABLES:
        rows = tables.get(table, [])
        if not isinstance(rows, list):
            raise ProgressFileError(f"{where}: tables.{table}: expected a list of rows, not {excerpt(rows)}.")
        columns = _schema(store, table)
        for number, row in enumerate(rows):
            try:
                check_row(table, row, columns)
            except Bad as bad:
                raise ProgressFileError(
                    _one_line(f"{where}: tables.{table}[{number}]{bad.field}: {bad.reason}.")
                ) from None
        checked[table] = rows
    _check_links(where, checked)
    return checked


def _schema(store: Store, table: str) -> dict[str, Column]:
    """TABLE's columns as the store has them, each with its check: ``SCHEMA``'s, or for a column
    it does not know its declared type's (a required one when NOT NULL with no default)."""
    known = SCHEMA[table]
    return {
        name: known.get(name)
        or Column(column_check(kind), required=required and not has_default, nullable=not required)
        for name, kind, required, has_default in _columns(store, table)
    }


def _check_links(where: str, tables: dict[str, list[dict[str, Any]]]) -> None:
    """Each game's id once, and each decision's game among them."""
    games: dict[int, int] = {}
    for number, row in enumerate(tables["games"]):
        if "id" in row:
            if row["id"] in games:
                raise ProgressFileError(
                    f"{where}: tables.games[{number}].id: {row['id']} is also the id of "
                    f"tables.games[{games[row['id']]}]."
                )
            games[row["id"]] = number
    for number, row in enumerate(tables["decisions"]):
        if row.get("game_id") is not None and row["game_id"] not in games:
            raise ProgressFileError(
                f"{where}: tables.decisions[{number}].game_id: {row['game_id']} is not a game in the file."
            )


def _one_line(message: str) -> str:
    """At most a few hundred characters on one line, whatever the path or field held."""
    return clip(" ".join(message.splitlines()), 400)


def import_progress(store: Store, path: pathlib.Path) -> dict[str, int]:
    """Merge the file at PATH into STORE (all or nothing); returns rows added or updated per table."""
    tables = read_progress(path, store)
    changed = dict.fromkeys(TABLES, 0)
    place = ["", 0]  # the table and row being merged, to name if the store refuses it
    try:
        with store.transaction() as db:
            _merge(db, tables, changed, place)
    except (sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.DataError, OverflowError) as error:
        # Every row was checked first; should the store still refuse one, the file is named, not a traceback.
        where = f"{path}: tables.{place[0]}[{place[1]}]"
        message = f"{where}: the progress file refused it ({clip(str(error))})."
        raise ProgressFileError(_one_line(message)) from error
    return changed


_SAME = ("source", "ref", "kind", "choice", "at", "game_id", "position")
"""A decision already kept has all of these the same (its game as numbered in the store)."""


def _fingerprint(values: tuple) -> bytes:
    """The decision's identity in 16 bytes: the set of them holds no position text."""
    text = json.dumps(["" if value is None else value for value in values], ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _merge(db: Any, tables: dict[str, list[dict[str, Any]]], changed: dict[str, int], place: list) -> None:
    def one(sql: str, params: tuple) -> tuple | None:
        return db.execute(sql, params).fetchone()

    def insert(table: str, row: dict[str, Any], skip: tuple[str, ...] = ()) -> int:
        names = [name for name in row if name not in skip]
        cursor = db.execute(
            f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})",
            tuple(row[name] for name in names),
        )
        changed[table] += 1
        return cursor.lastrowid

    def rows(table: str) -> Iterator[dict[str, Any]]:
        for number, row in enumerate(tables[table]):
            place[:] = table, number
            yield row

    for row in rows("lesson_progress"):
        mine = one("SELECT step, steps, completed_at FROM lesson_progress WHERE lesson = ?", (row["lesson"],))
        if mine is None:
            insert("lesson_progress", row)
            continue
        step, steps = max(mine[0], row["step"]), max(mine[1], row["steps"])
        completed = min((c for c in (mine[2], row.get("completed_at")) if c), default=None)
        if (step, steps, completed) != tuple(mine):
            db.execute(
                "UPDATE lesson_progress SET step = ?, steps = ?, completed_at = ?, "
                "updated_at = MAX(updated_at, ?) WHERE lesson = ?",
                (step, steps, completed, row["updated_at"], row["lesson"]),
            )
            changed["lesson_progress"] += 1
    for row in rows("lesson_steps"):
        key = (row["lesson"], row["step"])
        mine = one("SELECT attempts, correct_at FROM lesson_steps WHERE lesson = ? AND step = ?", key)
        if mine is None:
            insert("lesson_steps", row)
            continue
        attempts = max(mine[0], row.get("attempts", 0))
        correct = min((c for c in (mine[1], row.get("correct_at")) if c), default=None)
        if (attempts, correct) != tuple(mine):
            db.execute(
                "UPDATE lesson_steps SET attempts = ?, correct_at = ? WHERE lesson = ? AND step = ?",
                (attempts, correct, *key),
            )
            changed["lesson_steps"] += 1
    # A rating is the sum of its history: the record with more attempts behind it wins whole.
    for table, key in (("puzzle_learner", "id"), ("puzzle_records", "puzzle")):
        for row in rows(table):
            mine = one(f"SELECT attempts, updated_at FROM {table} WHERE {key} = ?", (row[key],))
            if mine is None:
                insert(table, row)
            elif (row["attempts"], row["updated_at"]) > tuple(mine):
                db.execute(f"DELETE FROM {table} WHERE {key} = ?", (row[key],))
                insert(table, row)
    # Attempts and decisions are kept once: each found in a set of what the store holds (read
    # once, not searched row by row: that grew with the square of the rows), and what is added.
    attempts = set(db.execute("SELECT puzzle, choice, at FROM puzzle_attempts").fetchall())
    for row in rows("puzzle_attempts"):
        if (key := (row["puzzle"], row["choice"], row["at"])) not in attempts:
            insert("puzzle_attempts", row, skip=("id",))
            attempts.add(key)
    game_ids: dict[int, int] = {}
    for row in rows("games"):
        mine = one("SELECT id FROM games WHERE key = ?", (row["key"],))
        new_id = mine[0] if mine else insert("games", row, skip=("id",))
        if "id" in row:
            game_ids[row["id"]] = new_id
    kept: set[bytes] = set()
    times: set[tuple[str, str]] = set()  # (source, at) of the store's decisions read into kept
    for row in rows("decisions"):
        row = dict(row)
        if row.get("game_id") is not None:
            row["game_id"] = game_ids[row["game_id"]]  # every one is a game of the file (read_progress)
        if (moment := (row["source"], row["at"])) not in times:  # by the index decisions_by_source
            times.add(moment)
            found = db.execute(
                f"SELECT {', '.join(_SAME)} FROM decisions WHERE source = ? AND at = ?", moment
            )
            kept.update(_fingerprint(existing) for existing in found)
        if (key := _fingerprint(tuple(row.get(name, "") for name in _SAME))) not in kept:
            insert("decisions", row, skip=("id",))
            kept.add(key)
    matches = {key for (key,) in db.execute("SELECT game_key FROM career_matches")}
    for row in rows("career_matches"):  # a match is kept once, by its game's key
        if row["game_key"] not in matches:
            insert("career_matches", row, skip=("id",))
            matches.add(row["game_key"])
    for row in rows("practice_items"):  # as a puzzle's record: more attempts behind it wins whole
        mine = one("SELECT attempts, updated_at FROM practice_items WHERE puzzle = ?", (row["puzzle"],))
        if mine is None:
            insert("practice_items", row)
        elif (row["attempts"], row["updated_at"]) > tuple(mine):
            db.execute("DELETE FROM practice_items WHERE puzzle = ?", (row["puzzle"],))
            insert("practice_items", row)
    for row in rows("puzzle_streak"):  # the best of both; the current run of the later
        mine = one("SELECT current, best, updated_at FROM puzzle_streak WHERE id = 1", ())
        if mine is None:
            insert("puzzle_streak", row)
            continue
        current, at = (
            (row["current"], row["updated_at"]) if row["updated_at"] > mine[2] else (mine[0], mine[2])
        )
        best = max(mine[1], row["best"])
        if (current, best, at) != tuple(mine):
            db.execute(
                "UPDATE puzzle_streak SET current = ?, best = ?, updated_at = ? WHERE id = 1",
                (current, best, at),
            )
            changed["puzzle_streak"] += 1
    for row in rows("table_games"):
        mine = one("SELECT updated_at FROM table_games WHERE place = ?", (row["place"],))
        if mine is None:
            insert("table_games", row)
        elif row["updated_at"] > mine[0]:
            db.execute("DELETE FROM table_games WHERE place = ?", (row["place"],))
            insert("table_games", row)


def main(argv: list[str] | None = None) -> int:
    import argparse

    from ..store import StoreError, default_path

    parser = argparse.ArgumentParser(
        prog="hearts-trainer import-progress",
        description="Import progress downloaded from Hearts Trainer in the browser (the static site) "
        "into this computer's progress file, keeping the most of both.",
    )
    parser.add_argument("file", type=pathlib.Path, help="the file **Download my progress** saved")
    args = parser.parse_args(argv)
    try:
        store = Store()
        changed = import_progress(store, args.file)
    except (ProgressFileError, StoreError) as error:
        print(f"Nothing was imported. {error}", file=sys.stderr)
        return 1
    added = ", ".join(f"{count} {table}" for table, count in changed.items() if count) or "nothing new"
    print(f"Imported {args.file} into {default_path()}: {added}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
