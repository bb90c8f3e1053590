"""Each lesson's progress, kept in the learner's store (``trainer.store``).

Per lesson: the step reached (where the lesson reopens), how many steps it has, when it was
completed; per step: attempts and when first answered right. A lesson is complete when the
learner finishes it with every checked step answered right.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine import RecordError, hand_from_record, winners_if_over
from engine.records import loads
from trainer.store import Store

__all__ = ["LessonProgress", "LessonProgressStore"]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


@dataclass(frozen=True)
class LessonProgress:
    lesson: str
    step: int
    """0-based index of the step reached."""
    steps: int
    completed: bool
    right: frozenset[str]
    """Keys of the steps answered right."""

    @property
    def started(self) -> bool:
        return self.step > 0 or bool(self.right) or self.completed


class LessonProgressStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def of(self, lesson: str, steps: int = 0) -> LessonProgress:
        rows = self.store.query(
            "SELECT step, steps, completed_at FROM lesson_progress WHERE lesson = ?", (lesson,)
        )
        right = frozenset(
            step
            for (step,) in self.store.query(
                "SELECT step FROM lesson_steps WHERE lesson = ? AND correct_at IS NOT NULL", (lesson,)
            )
        )
        if not rows:
            return LessonProgress(lesson, 0, steps, False, right)
        step, stored_steps, completed = rows[0]
        return LessonProgress(lesson, step, steps or stored_steps, completed is not None, right)

    def reach(self, lesson: str, step: int, steps: int) -> None:
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO lesson_progress (lesson, step, steps, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (lesson) DO UPDATE SET step = excluded.step, steps = excluded.steps, "
                "updated_at = excluded.updated_at",
                (lesson, step, steps, _now()),
            )

    def answer(self, lesson: str, step: str, correct: bool) -> None:
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO lesson_steps (lesson, step, attempts) VALUES (?, ?, 0) "
                "ON CONFLICT (lesson, step) DO NOTHING",
                (lesson, step),
            )
            db.execute(
                "UPDATE lesson_steps SET attempts = attempts + 1, "
                "correct_at = CASE WHEN ? AND correct_at IS NULL THEN ? ELSE correct_at END "
                "WHERE lesson = ? AND step = ?",
                (int(correct), _now(), lesson, step),
            )

    def games_finished(self, lesson: str, legacy: bool = False) -> int:
        """Finished games kept from ``lesson``'s tables (their keys start with the lesson's key);
        with ``legacy``, also those kept before keys named their lesson (no "/" in the key)."""
        (count,) = self.store.query(
            "SELECT COUNT(*) FROM games WHERE substr(key, 1, ?) = ? OR (? AND instr(key, '/') = 0)",
            (len(lesson) + 1, f"{lesson}/", int(legacy)),
        )[0]
        return count

    def game_in_play(self, lesson: str) -> bool:
        """A game kept at one of ``lesson``'s tables that has not ended (a reload resumes it)."""
        rows = self.store.query(
            "SELECT record FROM table_games WHERE substr(place, 1, ?) = ?", (len(lesson) + 1, f"{lesson}/")
        )
        return any(_unfinished(record) for (record,) in rows)

    def attempts(self, lesson: str, step: str) -> int:
        rows = self.store.query(
            "SELECT attempts FROM lesson_steps WHERE lesson = ? AND step = ?", (lesson, step)
        )
        return rows[0][0] if rows else 0

    def complete(self, lesson: str, steps: int) -> None:
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO lesson_progress (lesson, step, steps, completed_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (lesson) DO UPDATE SET "
                "completed_at = COALESCE(lesson_progress.completed_at, excluded.completed_at), "
                "updated_at = excluded.updated_at",
                (lesson, steps - 1, steps, _now(), _now()),
            )


def _unfinished(text: str) -> bool:
    """Whether a kept table record (``TableSession.to_record``) is a game not yet over; one that
    does not read back counts as none (the lesson says so when it opens)."""
    try:
        record = loads(text)
        hands = [hand_from_record(hand) for hand in record["hands"]]
        totals = [sum(row) for row in zip(*record["earlier_scores"], strict=True)] or [0] * hands[0].players
        for hand in hands:
            if hand.is_over:
                totals = [t + p for t, p in zip(totals, hand.result.scores, strict=True)]
        return not (hands[-1].is_over and winners_if_over(hands[-1].rules, tuple(totals)))
    except (RecordError, KeyError, TypeError, ValueError, IndexError, RecursionError):
        return False
