"""The one lesson page: which lesson its address (or command line) asks for, and what it says
when that is no lesson at all."""

from __future__ import annotations

import html

from trainer.site import HOME

from .catalog import LESSONS

__all__ = ["not_found_markdown", "page_title", "requested_lesson"]


def requested_lesson(from_address: object, from_command_line: object) -> str:
    """The lesson key asked for: `?lesson=KEY` in the address, else `--lesson KEY` on the command
    line (`python lessons/lesson.py --lesson KEY`); "" when neither is given."""
    for given in (from_address, from_command_line):
        if isinstance(given, str) and given.strip():
            return given.strip()
    return ""


def not_found_markdown(key: str) -> str:
    if not key:
        what = "This page shows one lesson, but its address names none."
    else:
        what = f"There is no lesson called <code>{html.escape(key)}</code>."  # as typed, not as markdown
    return f"{what} Pick one on the [Hearts Trainer home page]({HOME})."


def page_title(key: str) -> str:
    lesson = LESSONS.get(key)
    if lesson is None:
        return "Hearts Trainer: lesson"
    return f"Hearts Trainer: {lesson.number}. {lesson.title}"
