"""The lessons home page: every lesson with the learner's progress."""

from __future__ import annotations

from trainer.site import PUZZLES, REVIEW

from .catalog import LESSONS, lesson_address
from .progress import Progress

__all__ = ["home_markdown", "more_markdown", "next_to_do"]


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
        link = f"[{lesson.title}]({lesson_address(lesson.key)})"
        rows.append(f"| {lesson.number} | {link} | {lesson.summary} | {status} |")
    return "\n".join(rows)


def next_to_do(progress: Progress | None) -> str:
    """A link to the first lesson not yet complete."""
    for lesson in LESSONS.values():
        if progress is None or not progress.of(lesson.key, len(lesson.steps)).completed:
            return f"[Continue: {lesson.number}. {lesson.title} →]({lesson_address(lesson.key)})"
    return f"Every lesson is complete. Play a game in [lesson 9]({lesson_address('l09_play')})."


def more_markdown() -> str:
    """Links to the pages beside the lessons: puzzles, and the review of where points go."""
    return (
        f"**More:** [Puzzles]({PUZZLES}): real positions where the natural choice costs points · "
        f"[Your review]({REVIEW}): where your points go, by theme and phase, and a review of "
        "your last game"
    )
