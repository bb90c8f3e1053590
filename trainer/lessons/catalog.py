"""The nine lessons, in order."""

from __future__ import annotations

from trainer.site import LESSON_PAGE

from . import (
    l01_game,
    l02_passing,
    l03_following,
    l04_leading,
    l05_first_trick,
    l06_scoring,
    l07_game,
    l08_strategy,
    l09_play,
)
from .steps import Lesson

__all__ = ["LESSONS", "lesson_address", "next_lesson"]

LESSONS: dict[str, Lesson] = {
    module.LESSON.key: module.LESSON
    for module in (
        l01_game,
        l02_passing,
        l03_following,
        l04_leading,
        l05_first_trick,
        l06_scoring,
        l07_game,
        l08_strategy,
        l09_play,
    )
}


def next_lesson(key: str) -> Lesson | None:
    keys = list(LESSONS)
    index = keys.index(key)
    return LESSONS[keys[index + 1]] if index + 1 < len(keys) else None


def lesson_address(key: str) -> str:
    """The address of lesson ``key`` on the one lesson page (every link to a lesson uses this)."""
    return f"{LESSON_PAGE}?lesson={key}"
