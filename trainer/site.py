"""Where each page of Hearts Trainer lives: its address on the server and its notebook in lessons/.

Every link between pages is built from these, and `trainer.serve` mounts the notebooks at them.
In the static site (under Pyodide, `trainer.site_build`) every page is a file in one folder, so
the links are relative to it (`lesson.html?lesson=KEY`): the site works wherever it is hosted.
"""

from __future__ import annotations

import sys

__all__ = ["ANALYSIS", "CAREER", "HOME", "LESSON_PAGE", "PAGES", "PUZZLES", "REVIEW", "ROOMS", "SITE_FILES"]

HOME = "/"
LESSON_PAGE = "/lesson/"
PUZZLES = "/puzzles/"
REVIEW = "/review/"
ANALYSIS = "/analysis/"
"""The analysis board (``trainer.analysis``): a position in its address, ``?p=...``."""
CAREER = "/career/"
"""The career (`trainer.career`); in the static site too, whose review page has a match in its charts only."""
ROOMS = "/rooms/"
"""Play with friends (`trainer.rooms`): not a notebook, and not in the static site (it needs a server)."""

PAGES: dict[str, str] = {
    HOME: "index.py",
    LESSON_PAGE: "lesson.py",
    PUZZLES: "puzzles.py",
    REVIEW: "review.py",
    CAREER: "career.py",
    ANALYSIS: "analysis.py",
}
"""Address → notebook file in lessons/."""

SITE_FILES: dict[str, str] = {
    HOME: "index.html",
    LESSON_PAGE: "lesson.html",
    PUZZLES: "puzzles.html",
    REVIEW: "review.html",
    ANALYSIS: "analysis.html",
    CAREER: "career.html",
}
"""Address on the server → the page's file in the static site (the pages it has)."""

if sys.platform == "emscripten":  # the static site: links relative to its one folder
    HOME, LESSON_PAGE, PUZZLES, REVIEW, ANALYSIS = (
        "./",
        SITE_FILES[LESSON_PAGE],
        SITE_FILES[PUZZLES],
        SITE_FILES[REVIEW],
        SITE_FILES[ANALYSIS],
    )
    CAREER = SITE_FILES[CAREER]
