"""The store tells a busy or unreachable progress file from a damaged one: only damage moves it."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from trainer import store as store_module
from trainer.lessons.progress import LessonProgressStore
from trainer.store import MIGRATIONS, DamagedStoreError, Store, StoreBusyError, StoreError, open_store

_HOLD = textwrap.dedent(
    """
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    db.execute("INSERT INTO lesson_progress VALUES ('held', 1, 2, NULL, 'now')")
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
    db.execute("ROLLBACK")
    """
)


def _hold_lock(path, seconds: float) -> subprocess.Popen:
    """A second process that holds the file's exclusive lock (mid-write) for ``seconds``."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout.readline().strip() == "locked"
    return holder


def _saved_store(path) -> bytes:
    store = Store(path)
    LessonProgressStore(store).reach("l03_following", 2, 4)
    store.close()
    return path.read_bytes()


def _lessons_in(path) -> list[tuple]:
    store = Store(path)
    try:
        return store.query("SELECT lesson, step FROM lesson_progress")
    finally:
        store.close()


def test_a_file_locked_by_another_process_is_reported_busy_and_never_moved(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    _saved_store(path)
    already_open = Store(path, busy_wait=0.3)
    holder = _hold_lock(path, 30)
    try:
        started = time.monotonic()
        with pytest.raises(StoreBusyError) as caught:
            Store(path, busy_wait=0.3)
        assert time.monotonic() - started < 5  # bounded by the wait, not SQLite's default
        message = str(caught.value)
        assert str(path) in message and "Another program" in message and "Nothing was changed" in message
        with pytest.raises(StoreBusyError):  # a write from a page opened before the lock
            LessonProgressStore(already_open).reach("l01_game", 1, 4)
        store, notice = open_store(path, busy_wait=0.3)
        assert "Another program" in notice and "saves nothing" in notice
        assert not store.saving
        LessonProgressStore(store).reach("l01_game", 1, 4)  # the page still works, in memory
        assert list(tmp_path.glob("*.damaged-*")) == []
    finally:
        holder.kill()
        holder.wait()
    assert path.exists()
    assert _lessons_in(path) == [("l03_following", 2)]  # intact: neither the held write nor ours


def test_a_lock_released_within_the_wait_is_waited_for(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    _saved_store(path)
    holder = _hold_lock(path, 0.5)
    try:
        store = Store(path, busy_wait=20)
        LessonProgressStore(store).reach("l01_game", 1, 4)
    finally:
        holder.wait()
    store.close()
    assert sorted(_lessons_in(path)) == [("l01_game", 1), ("l03_following", 2)]


def test_the_pages_open_on_a_busy_file_with_a_notice_instead_of_a_crash(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path))
    monkeypatch.setattr(store_module, "BUSY_WAIT", 0.3)
    path = tmp_path / "progress.sqlite3"
    _saved_store(path)
    holder = _hold_lock(path, 60)
    try:
        from trainer.lessons.runner import open_lesson
        from trainer.progress.puzzles import open_board
        from trainer.review.page import open_review

        runner = open_lesson("l01_game")
        assert "Another program" in runner.notice
        runner.go(1)
        runner.close()
        assert "Another program" in open_review().notice
        assert "Another program" in open_board().notice
    finally:
        holder.kill()
        holder.wait()
    assert list(tmp_path.glob("*.damaged-*")) == []
    assert _lessons_in(path) == [("l03_following", 2)]


def test_a_write_the_lesson_cannot_save_is_said_and_the_lesson_goes_on(tmp_path) -> None:
    from trainer.lessons.runner import open_lesson

    path = tmp_path / "progress.sqlite3"
    _saved_store(path)
    runner = open_lesson("l01_game", Store(path, busy_wait=0.3))
    holder = _hold_lock(path, 30)
    try:
        runner.go(1)
        assert "Another program" in runner.notice and "not saved" in runner.notice
        assert runner.index == 1
    finally:
        holder.kill()
        holder.wait()
        runner.close()


def test_a_folder_at_the_files_path_is_refused_and_left_alone(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    path.mkdir()
    (path / "mine.txt").write_text("keep me")
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert not isinstance(caught.value, DamagedStoreError)
    assert str(path) in str(caught.value) and "is a folder" in str(caught.value)
    store, notice = open_store(path)
    assert "is a folder" in notice and not store.saving
    assert (path / "mine.txt").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.sqlite3"]


def test_a_folder_that_cannot_be_made_is_refused_clearly(tmp_path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    path = blocker / "hearts" / "progress.sqlite3"
    with pytest.raises(StoreError) as caught:
        Store(path)
    message = str(caught.value)
    assert str(blocker / "hearts") in message and "HEARTS_TRAINER_HOME" in message
    assert len(message.splitlines()) == 1
    assert blocker.read_text() == "not a folder"
    store, notice = open_store(path)
    assert "cannot be made" in notice and not store.saving


def _read_only(monkeypatch) -> None:
    """Open every store file read-only, as SQLite does in a folder or file the user may not
    write (chmod cannot show it to root, who may write anywhere)."""

    def connect(path: str, timeout: float) -> sqlite3.Connection:
        return sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
        )

    monkeypatch.setattr(store_module, "_connect", connect)


def test_a_read_only_place_with_no_file_yet_is_refused_without_renaming(tmp_path, monkeypatch) -> None:
    _read_only(monkeypatch)
    path = tmp_path / "progress.sqlite3"
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert not isinstance(caught.value, DamagedStoreError)
    assert str(path) in str(caught.value) and "may write" in str(caught.value)
    assert list(tmp_path.iterdir()) == []
    store, notice = open_store(path)
    assert "cannot be opened or written" in notice and not store.saving


def test_a_read_only_file_is_read_and_a_write_is_refused_clearly(tmp_path, monkeypatch) -> None:
    path = tmp_path / "progress.sqlite3"
    before = _saved_store(path)
    _read_only(monkeypatch)
    store = Store(path)
    assert LessonProgressStore(store).of("l03_following").step == 2
    with pytest.raises(StoreError, match="cannot be opened or written"):
        LessonProgressStore(store).reach("l01_game", 1, 4)
    store.close()
    assert path.read_bytes() == before and list(tmp_path.glob("*.damaged-*")) == []


def test_random_bytes_are_still_moved_aside_with_a_notice(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    garbage = random.Random(13).randbytes(8192)
    path.write_bytes(garbage)
    store, notice = open_store(path)
    [moved] = tmp_path.glob("progress.sqlite3.damaged-*")
    assert moved.read_bytes() == garbage
    assert "damaged" in notice and str(moved) in notice
    assert store.saving and store.version == len(MIGRATIONS)


def test_a_damaged_file_that_cannot_be_moved_is_left_and_said(tmp_path, monkeypatch) -> None:
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"not a database at all" * 200)

    def refuse(self, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(path), "rename", refuse)
    with pytest.raises(StoreError, match="could not be moved aside") as caught:
        Store(path)
    assert not isinstance(caught.value, DamagedStoreError)
    assert path.read_bytes() == b"not a database at all" * 200
    assert os.listdir(tmp_path) == ["progress.sqlite3"]
