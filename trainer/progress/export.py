"""Export the learner's record as CSV: one file per table, a header row first.

``python -m trainer.progress.export OUT_FOLDER`` writes them all; ``table_csv`` gives one as text
(the review page offers the decisions for download).
"""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

from ..store import Store, StoreError

__all__ = ["TABLES", "export_csv", "table_csv"]

TABLES = (
    "decisions",
    "puzzle_attempts",
    "puzzle_records",
    "puzzle_learner",
    "lesson_progress",
    "lesson_steps",
    "games",
    "career_matches",
)
ORDER = {
    "decisions": "at, id",
    "puzzle_attempts": "at, id",
    "games": "finished_at, id",
    "career_matches": "finished_at, id",
}


def table_csv(store: Store, table: str) -> str:
    """One table as CSV text (the header, then a row per record, oldest first where it matters)."""
    if table not in TABLES:
        raise ValueError(f"{table!r} is not one of {', '.join(TABLES)}")
    columns = [row[1] for row in store.query(f"PRAGMA table_info({table})")]
    rows = store.query(f"SELECT * FROM {table} ORDER BY {ORDER.get(table, 'rowid')}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()


def export_csv(store: Store, folder: str | Path) -> list[Path]:
    """Write every table to ``folder/<table>.csv``; the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for table in TABLES:
        path = folder / f"{table}.csv"
        path.write_text(table_csv(store, table), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Export your Hearts Trainer record as CSV files.")
    parser.add_argument("out", type=Path, help="folder to write the CSV files to")
    args = parser.parse_args(argv)
    try:
        store = Store()
    except StoreError as error:  # busy, damaged (moved aside) or out of reach: nothing to export
        raise SystemExit(str(error)) from error
    for path in export_csv(store, args.out):
        print(path)


if __name__ == "__main__":
    main()
