"""The learner's data on disk: one SQLite file per user, with versioned migrations.

Where: ``$HEARTS_TRAINER_HOME/progress.sqlite3`` when that variable is set, else
``$XDG_DATA_HOME/hearts-trainer/`` or ``~/.local/share/hearts-trainer/``.

The schema grows by appending to ``MIGRATIONS`` (never editing one that has shipped): the
``schema_version`` table records how many have been applied, and each runs in its own
transaction. A file that is not a readable SQLite database of ours is never replaced
silently: it is renamed aside (``progress.sqlite3.damaged-<time>``) and reported with a
``DamagedStoreError`` that says where it went.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import sqlite3
import threading
import time
from collections.abc import Iterator

__all__ = [
    "MIGRATIONS",
    "DamagedStoreError",
    "Store",
    "StoreError",
    "data_home",
    "default_path",
    "open_store",
]

FILE_NAME = "progress.sqlite3"

MIGRATIONS: list[tuple[str, str]] = [
    (
        "lesson progress: the step reached in each lesson, and each step answered",
        """
        CREATE TABLE lesson_progress (
            lesson TEXT PRIMARY KEY,
            step INTEGER NOT NULL,
            steps INTEGER NOT NULL,
            completed_at TEXT,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE lesson_steps (
            lesson TEXT NOT NULL,
            step TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            correct_at TEXT,
            PRIMARY KEY (lesson, step)
        );
        """,
    ),
    (
        "puzzles, games and graded decisions: the learner's puzzle rating, each puzzle's record "
        "(rating, Leitner box, when due), every puzzle attempt, finished games against bots, and "
        "every graded decision from a lesson, a puzzle or a game",
        """
        CREATE TABLE puzzle_learner (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            rating REAL NOT NULL,
            deviation REAL NOT NULL,
            volatility REAL NOT NULL,
            attempts INTEGER NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE puzzle_records (
            puzzle TEXT PRIMARY KEY,
            rating REAL NOT NULL,
            deviation REAL NOT NULL,
            volatility REAL NOT NULL,
            attempts INTEGER NOT NULL,
            solved INTEGER NOT NULL,
            box INTEGER NOT NULL,
            due INTEGER,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE puzzle_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            puzzle TEXT NOT NULL,
            choice TEXT NOT NULL,
            solved INTEGER NOT NULL,
            counted INTEGER NOT NULL,
            band TEXT NOT NULL,
            loss REAL NOT NULL,
            learner_rating REAL NOT NULL,
            puzzle_rating REAL NOT NULL,
            at TEXT NOT NULL
        );
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            key TEXT NOT NULL UNIQUE,
            seat INTEGER NOT NULL,
            opponents TEXT NOT NULL,
            record TEXT NOT NULL,
            totals TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            reviewed_at TEXT,
            review TEXT
        );
        CREATE TABLE decisions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            source TEXT NOT NULL CHECK (source IN ('lesson', 'puzzle', 'game')),
            ref TEXT NOT NULL DEFAULT '',
            game_id INTEGER REFERENCES games (id),
            hand_index INTEGER,
            kind TEXT NOT NULL CHECK (kind IN ('pass', 'play')),
            seat INTEGER NOT NULL,
            position TEXT NOT NULL,
            choice TEXT NOT NULL,
            best TEXT NOT NULL,
            loss REAL NOT NULL,
            loss_error REAL NOT NULL,
            band TEXT NOT NULL,
            themes TEXT NOT NULL,
            phase TEXT NOT NULL,
            pass_direction TEXT NOT NULL,
            trick INTEGER NOT NULL,
            at TEXT NOT NULL
        );
        CREATE INDEX decisions_by_source ON decisions (source, at);
        CREATE INDEX decisions_by_game ON decisions (game_id, hand_index)
        """,
    ),
    (
        "games in play: the game a lesson step's table is playing, kept after every card so that a "
        "reload or a restart resumes it where it was",
        """
        CREATE TABLE table_games (
            place TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            record TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
    ),
]
"""(what it does, SQL). Append only: a later feature adds its tables with a new entry."""


class StoreError(RuntimeError):
    """The progress file cannot be used; the message says why and what was done."""


class DamagedStoreError(StoreError):
    """The file was damaged: it has been renamed to ``moved_to`` and a new one may be made."""

    def __init__(self, message: str, moved_to: pathlib.Path) -> None:
        super().__init__(message)
        self.moved_to = moved_to


def data_home() -> pathlib.Path:
    if home := os.environ.get("HEARTS_TRAINER_HOME"):
        return pathlib.Path(home).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or pathlib.Path.home() / ".local" / "share"
    return pathlib.Path(base) / "hearts-trainer"


def default_path() -> pathlib.Path:
    return data_home() / FILE_NAME


class Store:
    """An open progress database. ``path`` defaults to ``default_path()``."""

    def __init__(self, path: pathlib.Path | str | None = None) -> None:
        self.path = pathlib.Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # One connection, shared by the notebook's threads (bots play on timer threads): every
            # use holds ``_lock``. Other processes wait up to ``timeout`` s for a write lock.
            self._lock = threading.RLock()
            self._db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            self._check_readable()
        except sqlite3.DatabaseError as error:
            with contextlib.suppress(Exception):
                self._db.close()
            moved = self._move_aside()
            raise DamagedStoreError(
                f"The progress file {self.path} is damaged ({error}). It has been moved to {moved} "
                "and nothing in it was changed; a new, empty progress file will be used.",
                moved,
            ) from error
        self._migrate()

    # ----- opening -----

    def _check_readable(self) -> None:
        row = self._db.execute("PRAGMA quick_check").fetchone()
        if row is None or row[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {row[0] if row else 'no answer'}")
        tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "schema_version" not in tables:
            raise sqlite3.DatabaseError("it is a SQLite file, but not one of Hearts Trainer's")

    def _move_aside(self) -> pathlib.Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        number = 1
        while target.exists():
            number += 1
            target = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{number}")
        self.path.rename(target)
        for suffix in ("-wal", "-shm", "-journal"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        return target

    def _migrate(self) -> None:
        with self.transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            if db.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 0:
                db.execute("INSERT INTO schema_version (version) VALUES (0)")
        version = self.version
        if version > len(MIGRATIONS):
            self._db.close()
            raise StoreError(
                f"The progress file {self.path} was written by a newer Hearts Trainer (schema "
                f"{version}, this one knows {len(MIGRATIONS)}). Update Hearts Trainer; the file is untouched."
            )
        for number in range(version, len(MIGRATIONS)):
            with self.transaction() as db:
                for statement in _statements(MIGRATIONS[number][1]):
                    db.execute(statement)
                db.execute("UPDATE schema_version SET version = ?", (number + 1,))

    # ----- use -----

    @property
    def version(self) -> int:
        return self._db.execute("SELECT version FROM schema_version").fetchone()[0]

    @contextlib.contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """``with store.transaction() as db: db.execute(...)``: all or nothing. ``BEGIN IMMEDIATE``
        takes the write lock at once, so two notebooks (or processes) writing take turns."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()


class _Tx:
    """The connection inside a transaction (only ``execute``)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, params)


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def open_store(path: pathlib.Path | str | None = None) -> tuple[Store, str]:
    """The store and a notice for the learner ("" when all is well). A damaged file is moved
    aside and reported in the notice, then a fresh store is opened in its place."""
    try:
        return Store(path), ""
    except DamagedStoreError as error:
        return Store(path), str(error)
