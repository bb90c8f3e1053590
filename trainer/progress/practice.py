"""Practice and streak on disk: each practised puzzle's due date (``practice_items``) and the streak
(``puzzle_streak``), as ``trainer.puzzles.practice`` reckons them.

A row that does not read back (kept by hand or by an older import) is left out, left in the file,
and named in one line each: the page shows the rest.
"""

from __future__ import annotations

import datetime as dt

from engine.excerpt import excerpt

from ..puzzles.practice import SOURCES, PracticeItem, Streak
from ..store import Store
from .decisions import now

__all__ = ["load_items", "load_streak", "save_item", "save_streak"]

_COLUMNS = ("puzzle", "source", "step", "due", "attempts", "solved")


def _item(row: tuple) -> PracticeItem:
    puzzle, source, step, due, attempts, solved = row
    if source not in SOURCES:
        raise ValueError(f"source: {excerpt(source)} is not one of {', '.join(SOURCES)}")
    for name, value in (("step", step), ("attempts", attempts), ("solved", solved)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name}: {excerpt(value)} is not a count")
    if solved > attempts:
        raise ValueError(f"solved: {solved} is more than its {attempts} attempts")
    try:
        day = None if due is None else dt.date.fromisoformat(due)
    except (TypeError, ValueError):
        raise ValueError(f"due: {excerpt(due)} is not a day (YYYY-MM-DD)") from None
    return PracticeItem(puzzle, source, step, day, attempts, solved)


def load_items(store: Store) -> tuple[dict[str, PracticeItem], dict[str, str]]:
    """Every practised puzzle by id, and by id one line for each row that does not read back
    (practice leaves those puzzles alone, so the row stays as it is)."""
    items: dict[str, PracticeItem] = {}
    problems: dict[str, str] = {}
    for row in store.query(f"SELECT {', '.join(_COLUMNS)} FROM practice_items ORDER BY puzzle"):
        try:
            items[row[0]] = _item(row)
        except ValueError as error:
            problems[row[0]] = f"practice_items row {excerpt(row[0])}, {error}: left out"
    return items, problems


def save_item(store: Store, item: PracticeItem) -> None:
    with store.transaction() as db:
        db.execute(
            "INSERT INTO practice_items (puzzle, source, step, due, attempts, solved, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (puzzle) DO UPDATE SET source = excluded.source, "
            "step = excluded.step, due = excluded.due, attempts = excluded.attempts, "
            "solved = excluded.solved, updated_at = excluded.updated_at",
            (
                item.puzzle,
                item.source,
                item.step,
                None if item.due is None else item.due.isoformat(),
                item.attempts,
                item.solved,
                now(),
            ),
        )


def load_streak(store: Store) -> tuple[Streak, str]:
    """The kept streak (none yet: 0 and 0), and a line when the row does not read back."""
    rows = store.query("SELECT current, best FROM puzzle_streak WHERE id = 1")
    if not rows:
        return Streak(), ""
    current, best = rows[0]
    counts = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (current, best))
    if not counts or current > best:
        return Streak(), f"puzzle_streak: current {excerpt(current)}, best {excerpt(best)}: not kept counts"
    return Streak(current, best), ""


def save_streak(store: Store, streak: Streak) -> None:
    with store.transaction() as db:
        db.execute(
            "INSERT INTO puzzle_streak (id, current, best, updated_at) VALUES (1, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET current = excluded.current, best = excluded.best, "
            "updated_at = excluded.updated_at",
            (streak.current, streak.best, now()),
        )
