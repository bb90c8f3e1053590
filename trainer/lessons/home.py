"""The lessons home page: every lesson with the learner's progress."""

from __future__ import annotations

import datetime as dt
import sys

from trainer.site import ANALYSIS, CAREER, PUZZLES, REVIEW, ROOMS

from .catalog import LESSONS, lesson_address
from .progress import LessonProgressStore
from .steps import Lesson

GAMES_LESSON = "l09_play"
"""The lesson whose finished games were kept before a game's key named its lesson: such games
are counted there (the only lesson then that played games to their end)."""

__all__ = [
    "career_markdown",
    "due_today_markdown",
    "friends_markdown",
    "home_markdown",
    "more_markdown",
    "next_to_do",
]


def _games(progress: LessonProgressStore, lesson: Lesson) -> list[str]:
    """What the learner has played at the lesson's game tables: games finished, one in play."""
    if not any(step.kind == "game" for step in lesson.steps):
        return []
    finished = progress.games_finished(lesson.key, legacy=lesson.key == GAMES_LESSON)
    parts = [f"{finished} game{'' if finished == 1 else 's'} finished"] if finished else []
    if progress.game_in_play(lesson.key):
        parts.append("a game in play")
    return parts


def _status(progress: LessonProgressStore | None, lesson: Lesson) -> str:
    if progress is None:
        return "not started"
    steps = len(lesson.steps)
    mine = progress.of(lesson.key, steps)
    games = _games(progress, lesson)
    if mine.completed:
        return ", ".join(["✓ complete", *games])
    if mine.started and steps > 1:
        return ", ".join([f"step {mine.step + 1} of {steps}, {len(mine.right)} answered right", *games])
    if games:
        return ", ".join(games)
    return "started" if mine.started else "not started"


def home_markdown(progress: LessonProgressStore | None) -> str:
    rows = ["| | lesson | what you learn | your progress |", "|---|:---|:---|:---|"]
    for lesson in LESSONS.values():
        status = _status(progress, lesson)
        link = f"[{lesson.title}]({lesson_address(lesson.key)})"
        rows.append(f"| {lesson.number} | {link} | {lesson.summary} | {status} |")
    return "\n".join(rows)


def next_to_do(progress: LessonProgressStore | None) -> str:
    """A link to the first lesson not yet complete."""
    for lesson in LESSONS.values():
        if progress is None or not progress.of(lesson.key, len(lesson.steps)).completed:
            return f"[Continue: {lesson.number}. {lesson.title} →]({lesson_address(lesson.key)})"
    return f"Every lesson is complete. Play a game in [lesson 9]({lesson_address('l09_play')})."


def due_today_markdown(store, today: dt.date | None = None) -> str:
    """How many practice puzzles are due today, and how many are the learner's own mistakes, as a
    link to the practice ("" when none is due): those today's session shows
    (``trainer.review.practice.practice_due``)."""
    from trainer.progress.practice import load_items
    from trainer.puzzles.practice import due_items, due_markdown

    today = today or dt.date.today()
    items, _unreadable = load_items(store)  # a row that does not read back is named on the puzzles page
    if not due_items(items.values(), today):
        return ""  # nothing due: no review or library to read
    from trainer.progress.games import readable_games
    from trainer.puzzles.library import library_ids
    from trainer.review.practice import practice_due

    games, _unread = readable_games(store)
    shown = practice_due(items, games, library_ids(), today)
    return due_markdown(shown, today, f"{PUZZLES}?mode=practice")


def more_markdown(career_level: int | None = None) -> str:
    """Links to the pages beside the lessons: puzzles, the review of where points go, the analysis board."""
    return (
        f"**More:** [Puzzles]({PUZZLES}): real positions where the natural choice costs points · "
        f"[Your review]({REVIEW}): where your points go, by theme and phase, and a review of "
        "your last game · "
        f"[Analysis board]({ANALYSIS}): set up a hand from any game and the coach ranks every choice"
        f"\n\n{career_markdown(career_level)}\n\n{friends_markdown()}"
    )


def career_markdown(level: int | None = None) -> str:
    """The career and, given the learner's level, where they are in it."""
    from trainer.career.progress import MASTER, title

    where = ""
    if level is not None:
        where = "; you are at " + ("the master table" if level == MASTER.number else title(level))
    return (
        f"**[The career]({CAREER})**: a match at a time against three bots of your level; win it "
        f"and you move up, from level 1 to the master table{where}"
    )


def friends_markdown() -> str:
    """Rooms need a server to meet at: the installed app has one, the static site has none."""
    if sys.platform == "emscripten":
        return (
            "**Play with friends** needs the installed app: `hearts-trainer host` makes a room on your "
            "computer and gives the link to send (this browser version has no server to meet at)."
        )
    return f"**[Play with friends]({ROOMS})**: make a room, send the link, bots fill the empty seats"
