"""Where each page of Hearts Trainer lives: its address on the server and its notebook in lessons/.

Every link between pages is built from these, and `trainer.serve` mounts the notebooks at them.
"""

from __future__ import annotations

__all__ = ["HOME", "LESSON_PAGE", "PAGES", "PUZZLES", "REVIEW"]

HOME = "/"
LESSON_PAGE = "/lesson/"
PUZZLES = "/puzzles/"
REVIEW = "/review/"

PAGES: dict[str, str] = {
    HOME: "index.py",
    LESSON_PAGE: "lesson.py",
    PUZZLES: "puzzles.py",
    REVIEW: "review.py",
}
"""Address → notebook file in lessons/."""
