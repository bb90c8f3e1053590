"""The nine lessons, in order."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from trainer.site import LESSON_PAGE

from .steps import Lesson

__all__ = ["LESSONS", "lesson_address", "next_lesson"]

LESSON_MODULES = (
    "l01_game",
    "l02_passing",
    "l03_following",
    "l04_leading",
    "l05_first_trick",
    "l06_scoring",
    "l07_game",
    "l08_strategy",
    "l09_play",
)
"""The lessons' modules in trainer.lessons, in order; each one's lesson key is its name."""


class _Lessons(Mapping[str, Lesson]):
    """Key → lesson, each lesson's module imported when it is first asked for: a lesson's page
    builds its own lesson and the next (lesson 8's steps read puzzle files), not all nine."""

    def __getitem__(self, key: str) -> Lesson:
        if not isinstance(key, str) or key not in LESSON_MODULES:
            raise KeyError(key)
        lesson = importlib.import_module(f"{__package__}.{key}").LESSON
        if lesson.key != key:
            raise RuntimeError(f"trainer/lessons/{key}.py: its lesson's key is {lesson.key!r}, not {key!r}")
        return lesson

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in LESSON_MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(LESSON_MODULES)

    def __len__(self) -> int:
        return len(LESSON_MODULES)


LESSONS: Mapping[str, Lesson] = _Lessons()


def next_lesson(key: str) -> Lesson | None:
    keys = list(LESSONS)
    index = keys.index(key)
    return LESSONS[keys[index + 1]] if index + 1 < len(keys) else None


def lesson_address(key: str) -> str:
    """The address of lesson ``key`` on the one lesson page (every link to a lesson uses this)."""
    return f"{LESSON_PAGE}?lesson={key}"
