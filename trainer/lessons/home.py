"""The lessons home page: every lesson with the learner's progress."""

from __future__ import annotations

from .catalog import LESSONS
from .progress import Progress

__all__ = ["home_markdown"]


def _status(progress: Progress | None, key: str, steps: int) -> str:
    if progress is None:
        return "not started"
    mine = progress.of(key, steps)
    if mine.completed:
        return "✓ complete"
    if mine.started:
        return f"step {mine.step + 1} of {steps}, {len(mine.right)} answered right"
    return "not started"


def home_markdown(progress: Progress | None) -> str:
    rows = ["| | lesson | what you learn | your progress |", "|---|:---|:---|:---|"]
    for lesson in LESSONS.values():
        status = _status(progress, lesson.key, len(lesson.steps))
        rows.append(
            f"| {lesson.number} | [{lesson.title}](?file={lesson.key}.py) | {lesson.summary} | {status} |"
        )
    return "\n".join(rows)


def next_to_do(progress: Progress | None) -> str:
    """A link to the first lesson not yet complete."""
    for lesson in LESSONS.values():
        if progress is None or not progress.of(lesson.key, len(lesson.steps)).completed:
            return f"[Continue: {lesson.number}. {lesson.title} →](?file={lesson.key}.py)"
    return "Every lesson is complete. Play a game in [lesson 9](?file=l09_play.py)."
