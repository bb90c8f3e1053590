"""The nine lessons, in order."""

from __future__ import annotations

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

__all__ = ["LESSONS", "next_lesson"]

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
