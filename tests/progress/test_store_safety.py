"""The progress store under stress: an old file migrated, a crash mid-write, two writers at
once, a damaged file, and the CSV export."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.review.history import history_decisions
from trainer.lessons.progress import LessonProgressStore
from trainer.progress.decisions import load_decisions, record_decisions
from trainer.progress.export import TABLES, export_csv, table_csv
from trainer.store import MIGRATIONS, DamagedStoreError, Store, open_store

ROOT = Path(__file__).resolve().parents[2]
FIRST_MIGRATION_SHA256 = "047e9f508d3f75217875c1956adf84191b0bfc6ce9206d754cd403f62ba147c3"


def _python(code: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_file_of_the_first_shipped_schema_is_migrated_keeping_its_progress(tmp_path) -> None:
    # Exactly what the first release wrote: schema version 1 and its two tables.
    path = tmp_path / "progress.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (1)")
    db.executescript(MIGRATIONS[0][1])
    db.execute("INSERT INTO lesson_progress VALUES ('l02_passing', 3, 5, NULL, '2025-01-01T00:00:00')")
    db.execute("INSERT INTO lesson_steps VALUES ('l02_passing', 'queen', 2, '2025-01-01T00:00:00')")
    db.commit()
    db.close()

    store = Store(path)
    assert store.version == len(MIGRATIONS) >= 2
    mine = LessonProgressStore(store).of("l02_passing")
    assert (mine.step, mine.steps, mine.right) == (3, 5, frozenset({"queen"}))
    tables = {name for (name,) in store.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"decisions", "games", "puzzle_learner", "puzzle_records", "puzzle_attempts"} <= tables
    record_decisions(store, history_decisions()[:2])
    assert len(load_decisions(store)) == 2


def test_the_first_migration_is_unchanged_since_it_shipped() -> None:
    # Append only: the first entry's SQL is byte for byte what version 1 files were made with.
    assert hashlib.sha256(MIGRATIONS[0][1].encode()).hexdigest() == FIRST_MIGRATION_SHA256


def test_an_error_inside_a_write_keeps_none_of_it(tmp_path) -> None:
    store = Store(tmp_path / "p.sqlite3")
    good = history_decisions()
    record_decisions(store, good[:3])
    bad = [*good[3:6], good[6].__class__(**{**good[6].__dict__, "source": "nowhere"})]
    with pytest.raises(sqlite3.IntegrityError):
        record_decisions(store, bad)  # the CHECK constraint refuses the last one
    assert [d.ref for d in load_decisions(store)] == ["ref-0", "ref-1", "ref-2"]


def test_a_process_killed_mid_write_loses_nothing_already_saved(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    child = _python(
        """
        import os, signal, sys
        from trainer.store import Store
        from trainer.progress.decisions import record_decisions
        from tests.review.history import history_decisions
        store = Store(sys.argv[1])
        decisions = history_decisions()
        record_decisions(store, decisions[:4])           # saved
        with store.transaction() as db:                   # never finished
            from trainer.progress.decisions import insert
            for decision in decisions[4:]:
                insert(db, decision)
            print("mid-write", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        """,
        str(path),
    )
    out, err = child.communicate(timeout=60)
    assert child.returncode == -9, err
    assert "mid-write" in out
    store, notice = open_store(path)
    assert notice == ""
    assert store.query("PRAGMA integrity_check") == [("ok",)]
    assert [d.ref for d in load_decisions(store)] == ["ref-0", "ref-1", "ref-2", "ref-3"]


def test_two_processes_writing_at_once_keep_every_write(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    Store(path).close()
    code = """
        import sys
        from dataclasses import replace
        from trainer.store import Store
        from trainer.progress.decisions import record_decisions
        from tests.review.history import history_decisions
        store = Store(sys.argv[1])
        template = history_decisions()[0]
        for number in range(40):
            record_decisions(store, [replace(template, ref=f"{sys.argv[2]}-{number}"),
                                     replace(template, ref=f"{sys.argv[2]}-{number}b")])
        print("done")
    """
    writers = [_python(code, str(path), name) for name in ("a", "b")]
    for writer in writers:
        _out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    store = Store(path)
    refs = [d.ref for d in load_decisions(store)]
    assert len(refs) == 160 and len(set(refs)) == 160
    assert store.query("PRAGMA integrity_check") == [("ok",)]


def test_a_store_file_damaged_on_disk_is_set_aside_and_reported(tmp_path) -> None:
    path = tmp_path / "progress.sqlite3"
    store = Store(path)
    record_decisions(store, history_decisions())
    store.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the first page: schema and header overwritten
    path.write_bytes(bytes(data))
    with pytest.raises(DamagedStoreError) as caught:
        Store(path)
    assert caught.value.moved_to.read_bytes() == bytes(data)
    assert "damaged" in str(caught.value) and not path.exists()
    path.write_bytes(bytes(data))  # damaged again: the page opens a fresh store and says why
    fresh, notice = open_store(path)
    assert "moved to" in notice and load_decisions(fresh) == []
    assert len(list(tmp_path.glob("progress.sqlite3.damaged-*"))) == 2


def test_export_writes_every_table_as_csv(tmp_path) -> None:
    store = Store(tmp_path / "p.sqlite3")
    record_decisions(store, history_decisions())
    LessonProgressStore(store).reach("l01_game", 1, 4)
    written = export_csv(store, tmp_path / "out")
    assert [p.name for p in written] == [f"{t}.csv" for t in TABLES]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out" / "decisions.csv").read_text())))
    assert len(rows) == 12
    assert [float(r["loss"]) for r in rows] == [4.0, 0.0, 2.0, 0.0, 7.0, 0.5, 3.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    assert json.loads(rows[2]["themes"]) == ["ducking", "counting"]
    assert rows[0]["phase"] == "pass" and rows[0]["source"] == "lesson"
    assert json.loads(rows[0]["position"])["format"] == "hearts-trainer/hand"
    lessons = list(csv.reader(io.StringIO(table_csv(store, "lesson_progress"))))
    assert lessons[0][:3] == ["lesson", "step", "steps"] and lessons[1][:3] == ["l01_game", "1", "4"]
    with pytest.raises(ValueError):
        table_csv(store, "sqlite_master")
