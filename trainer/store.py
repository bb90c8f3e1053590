"""The learner's data on disk: one SQLite file per user, with versioned migrations.

Where: ``$HEARTS_TRAINER_HOME/progress.sqlite3`` when that variable is set, else
``$XDG_DATA_HOME/hearts-trainer/`` or ``~/.local/share/hearts-trainer/``.

The schema grows by appending to ``MIGRATIONS`` (never editing one that has shipped): the
``schema_version`` table records how many have been applied, and each runs in its own
transaction. A file that is not a readable SQLite database of ours is never replaced
silently: it is renamed aside (``progress.sqlite3.damaged-<time>``) and reported with a
``DamagedStoreError`` that says where it went. Only proof of damage moves it (SQLite says "not a
database" or "malformed", the integrity check fails, or the tables are not ours): a file another
program holds locked (``StoreBusyError``), a folder at its path or a folder that cannot be
written is refused with a ``StoreError`` that says what to do, and nothing is renamed.
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
    "AFTER_COMMIT",
    "BUSY_WAIT",
    "MEMORY",
    "MIGRATIONS",
    "DamagedStoreError",
    "Store",
    "StoreBusyError",
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
    (
        "the career: every finished match against a level's bots (its level, game length, result, "
        "the learner's points in each hand, and the kept game's key for its review)",
        """
        CREATE TABLE career_matches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_key TEXT NOT NULL UNIQUE,
            level INTEGER NOT NULL,
            target INTEGER NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('won', 'lost')),
            points TEXT NOT NULL,
            hands INTEGER NOT NULL,
            finished_at TEXT NOT NULL
        )
        """,
    ),
    (
        "practice over days and the streak: each puzzle or own key moment being practised (solves "
        "in a row, the day it is due again, attempts), and the streak of puzzles solved in a row "
        "(the current run and the best)",
        """
        CREATE TABLE practice_items (
            puzzle TEXT PRIMARY KEY,
            source TEXT NOT NULL CHECK (source IN ('library', 'moment')),
            step INTEGER NOT NULL,
            due TEXT,
            attempts INTEGER NOT NULL,
            solved INTEGER NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE puzzle_streak (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            current INTEGER NOT NULL,
            best INTEGER NOT NULL,
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


class StoreBusyError(StoreError):
    """Another program held the file's lock for longer than the wait; nothing was changed."""


BUSY_WAIT = 10.0
"""Seconds to wait for another program's lock on the file before giving up (never moving it)."""

AFTER_COMMIT: list = []
"""Called with the store after every committed transaction of a store that saves: in the browser
``trainer.browser`` saves the progress file to IndexedDB there."""

MEMORY = ":memory:"
"""The path of a store kept in memory only: a page works with it, saving nothing."""

# SQLite's primary result codes (``error.sqlite_errorcode & 0xFF``) that say which trouble it is.
_BUSY_CODES = frozenset({5, 6})  # SQLITE_BUSY, SQLITE_LOCKED
_DAMAGE_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB
_NO_ACCESS_CODES = frozenset({3, 8, 10, 13, 14, 23})  # PERM, READONLY, IOERR, FULL, CANTOPEN, AUTH


class _Damage(Exception):
    """Proof that the file is damaged (or not ours): the only reason to move it aside."""


def _code(error: sqlite3.Error) -> int:
    return (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF


def _is_busy(error: sqlite3.Error) -> bool:
    # Older SQLite builds give no code: the message is the only sign.
    return _code(error) in _BUSY_CODES or "database is locked" in str(error)


def _connect(path: str, timeout: float) -> sqlite3.Connection:
    """One connection, shared by the notebook's threads (bots play on timer threads)."""
    return sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)


def data_home() -> pathlib.Path:
    if home := os.environ.get("HEARTS_TRAINER_HOME"):
        return pathlib.Path(home).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or pathlib.Path.home() / ".local" / "share"
    return pathlib.Path(base) / "hearts-trainer"


def default_path() -> pathlib.Path:
    return data_home() / FILE_NAME


class Store:
    """An open progress database. ``path`` defaults to ``default_path()``; ``MEMORY`` keeps
    nothing on disk. ``busy_wait`` is how long to wait for another program's lock."""

    def __init__(self, path: pathlib.Path | str | None = None, *, busy_wait: float | None = None) -> None:
        self.path = pathlib.Path(path) if path is not None else default_path()
        self.saving = str(path) != MEMORY
        self.busy_wait = busy_wait = BUSY_WAIT if busy_wait is None else busy_wait
        self._lock = threading.RLock()  # every use of the shared connection holds it
        if self.saving:
            self._check_place()
        deadline = time.monotonic() + busy_wait
        while True:
            try:
                self._open()
                return
            except (sqlite3.Error, StoreBusyError) as error:
                with contextlib.suppress(Exception):
                    self._db.close()
                if isinstance(error, sqlite3.Error) and not _is_busy(error):
                    if _code(error) in _NO_ACCESS_CODES:
                        raise self._no_access(error) from error
                    raise  # anything else (a failed migration, say) is a bug to see as it is
                # SQLite may answer "busy" at once (a lock it cannot wait for): try again until the deadline.
                if time.monotonic() >= deadline:
                    if isinstance(error, StoreBusyError):
                        raise
                    raise self._busy(error) from error
                time.sleep(min(0.1, busy_wait / 10))
            except _Damage as damage:
                with contextlib.suppress(Exception):
                    self._db.close()
                raise self._moved_aside(str(damage)) from damage

    # ----- opening -----

    def _check_place(self) -> None:
        """The file's folder exists (made if need be) and nothing but a file sits at the path."""
        where = self.path.parent
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(
                f"The folder {where} for the progress file cannot be made ({error.strerror or error}). "
                "Nothing was changed; make that folder, or set HEARTS_TRAINER_HOME to a folder you can write."
            ) from error
        if self.path.is_dir():
            raise StoreError(
                f"The progress file {self.path} is a folder, not a file. Nothing was changed; move or "
                "rename that folder, or set HEARTS_TRAINER_HOME to another folder."
            )

    def _open(self) -> None:
        if self.saving:
            self._db = _connect(str(self.path), self.busy_wait)
        else:
            self._db = sqlite3.connect(MEMORY, isolation_level=None, check_same_thread=False)
        self._check_readable()
        self._migrate()

    def _check_readable(self) -> None:
        try:
            row = self._db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as error:
            if _code(error) in _DAMAGE_CODES:
                raise _Damage(str(error)) from error
            raise
        if row is None or row[0] != "ok":
            raise _Damage(f"integrity check: {row[0] if row else 'no answer'}")
        tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "schema_version" not in tables:
            raise _Damage("it is a SQLite file, but not one of Hearts Trainer's")

    def _busy(self, error: sqlite3.Error) -> StoreBusyError:
        return StoreBusyError(
            f"Another program is using the progress file {self.path} and kept it locked for "
            f"{self.busy_wait:g} s ({error}). Nothing was changed; close the other Hearts Trainer "
            "page or program, then try again."
        )

    def _no_access(self, error: sqlite3.Error) -> StoreError:
        return StoreError(
            f"The progress file {self.path} cannot be opened or written ({error}). Nothing was "
            f"changed; check that you may write to {self.path.parent} and that the disk has room, "
            "or set HEARTS_TRAINER_HOME to another folder."
        )

    def _moved_aside(self, why: str) -> StoreError:
        try:
            moved = self._move_aside()
        except OSError as error:
            return StoreError(
                f"The progress file {self.path} is damaged ({why}) and could not be moved aside "
                f"({error.strerror or error}). Nothing was changed; move it yourself, then try again."
            )
        return DamagedStoreError(
            f"The progress file {self.path} is damaged ({why}). It has been moved to {moved} "
            "and nothing in it was changed; a new, empty progress file will be used.",
            moved,
        )

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
    def _troubles_reported(self) -> Iterator[None]:
        """A lock held past ``busy_wait`` is a ``StoreBusyError`` and a file that cannot be
        written a ``StoreError``, each saying what to do, not a raw SQLite error."""
        try:
            yield
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise self._busy(error) from error
            if _code(error) in _NO_ACCESS_CODES:
                raise self._no_access(error) from error
            raise

    @contextlib.contextmanager
    def transaction(self) -> Iterator[_Tx]:
        """``with store.transaction() as db: db.execute(...)``: all or nothing. ``BEGIN IMMEDIATE``
        takes the write lock at once, so two notebooks (or processes) writing take turns."""
        with self._lock, self._troubles_reported():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._db)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        if self.saving:
            for hook in list(AFTER_COMMIT):
                hook(self)

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock, self._troubles_reported():
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


def open_store(
    path: pathlib.Path | str | None = None, *, busy_wait: float | None = None
) -> tuple[Store, str]:
    """The store and a notice for the learner ("" when all is well); never raises for the file.

    A damaged file is moved aside and reported, then a fresh store is opened in its place. A
    file that cannot be used now (another program holds it, a folder where it should be, no
    right to write) is left exactly as it is: the page works on a store in memory and says so.
    """
    notice = ""
    try:
        return Store(path, busy_wait=busy_wait), notice
    except DamagedStoreError as error:
        notice = str(error)
    except StoreError as error:
        return Store(MEMORY), f"{error} {UNSAVED}"
    try:
        return Store(path, busy_wait=busy_wait), notice
    except StoreError as error:
        return Store(MEMORY), f"{notice} {error} {UNSAVED}"


UNSAVED = "Until then this page works but saves nothing: reload it once the file can be used."
