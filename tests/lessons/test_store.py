"""The progress store: location, migrations, transactions, and a damaged file moved aside."""

from __future__ import annotations

import sqlite3

import pytest

from trainer import store as store_module
from trainer.lessons.progress import LessonProgressStore
from trainer.store import MIGRATIONS, DamagedStoreError, Store, StoreError, default_path, open_store


def test_the_path_follows_hearts_trainer_home(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path / "mine"))
    assert default_path() == tmp_path / "mine" / "progress.sqlite3"
    monkeypatch.delenv("HEARTS_TRAINER_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "hearts-trainer" / "progress.sqlite3"


def test_a_new_store_is_migrated_and_keeps_progress_across_opens(tmp_path) -> None:
    path = tmp_path / "p.sqlite3"
    store = Store(path)
    assert store.version == len(MIGRATIONS)
    progress = LessonProgressStore(store)
    progress.reach("l03_following", 2, 4)
    progress.answer("l03_following", "follow", False)
    progress.answer("l03_following", "follow", True)
    store.close()
    again = LessonProgressStore(Store(path))
    mine = again.of("l03_following")
    assert (mine.step, mine.steps, mine.completed, mine.right) == (2, 4, False, frozenset({"follow"}))
    assert again.attempts("l03_following", "follow") == 2
    again.complete("l03_following", 4)
    assert again.of("l03_following").completed


def test_a_later_migration_is_applied_to_an_old_file(tmp_path, monkeypatch) -> None:
    path = tmp_path / "p.sqlite3"
    Store(path).close()
    monkeypatch.setattr(
        store_module, "MIGRATIONS", [*MIGRATIONS, ("puzzles", "CREATE TABLE puzzle (id TEXT)")]
    )
    store = Store(path)
    assert store.version == len(MIGRATIONS) + 1
    assert store.query("SELECT COUNT(*) FROM puzzle") == [(0,)]


def test_a_failed_migration_changes_nothing(tmp_path, monkeypatch) -> None:
    path = tmp_path / "p.sqlite3"
    Store(path).close()
    broken = [*MIGRATIONS, ("bad", "CREATE TABLE half (id TEXT); CREATE TABLE half (id TEXT)")]
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        Store(path)
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    store = Store(path)
    assert store.version == len(MIGRATIONS)
    assert store.query("SELECT name FROM sqlite_master WHERE name = 'half'") == []


def test_a_transaction_is_all_or_nothing(tmp_path) -> None:
    store = Store(tmp_path / "p.sqlite3")
    with pytest.raises(RuntimeError), store.transaction() as db:
        db.execute("INSERT INTO lesson_progress VALUES ('x', 1, 2, NULL, 'now')")
        raise RuntimeError("stop")
    assert store.query("SELECT COUNT(*) FROM lesson_progress") == [(0,)]


def test_a_damaged_file_is_reported_and_moved_aside_never_replaced(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    garbage = b"this is not a database" * 100
    path.write_bytes(garbage)
    with pytest.raises(DamagedStoreError) as caught:
        Store(path)
    moved = caught.value.moved_to
    assert moved.name.startswith("progress.sqlite3.damaged-")
    assert moved.read_bytes() == garbage  # kept exactly as it was
    assert str(path) in str(caught.value) and str(moved) in str(caught.value)
    assert not path.exists()


def test_open_store_starts_afresh_after_a_damaged_file_and_says_so(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"\x00garbage" * 64)
    store, notice = open_store(path)
    assert "damaged" in notice and "moved to" in notice
    assert store.version == len(MIGRATIONS)
    assert len(list(tmp_path.glob("progress.sqlite3.damaged-*"))) == 1


def test_a_foreign_sqlite_file_is_not_taken_over(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE theirs (x)")
    other.commit()
    other.close()
    with pytest.raises(DamagedStoreError, match="not one of Hearts Trainer's"):
        Store(path)


def test_a_file_from_a_newer_version_is_left_alone(tmp_path) -> None:
    path = tmp_path / "p.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE schema_version SET version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer"):
        Store(path)
    assert path.exists()
