"""Practice over days: a puzzle missed, or a key moment of the learner's own game, comes back on
a due date until it is solved on each one.

A miss makes it due the next day; each solve in a row after it waits longer (``DAYS``: 1, 3, 7,
16 and 35 days); solved on five due dates in a row, it is learnt and comes back no more. A
library puzzle solved at first sight in practice was no mistake: it is learnt at once. A key
moment was a mistake in a game, so even solved at first sight it comes back in three days.

The dates are the learner's calendar days (``today`` is passed in, so a test can move the
clock). The streak (puzzles solved in a row until the first miss) is kept here too: the current
run and the best.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, replace

__all__ = ["DAYS", "SOURCES", "PracticeItem", "Streak", "due_items", "due_markdown", "practised"]

DAYS = (1, 3, 7, 16, 35)
"""Days until a puzzle is due again: after a miss (the first), then after each solve in a row."""
SOURCES = ("library", "moment")
"""Where a practised puzzle comes from: the puzzle library, or a key moment of the learner's game."""


@dataclass(frozen=True)
class PracticeItem:
    puzzle: str
    source: str
    step: int = 0
    """Due dates solved in a row since the last miss; ``len(DAYS)`` once learnt."""
    due: dt.date | None = None
    """The day it is due again; None once learnt."""
    attempts: int = 0
    solved: int = 0

    @property
    def learnt(self) -> bool:
        return self.due is None and self.attempts > 0


def practised(item: PracticeItem, solved: bool, today: dt.date) -> PracticeItem:
    """The item after an attempt on ``today``: due again by ``DAYS``, or learnt."""
    counts = {"attempts": item.attempts + 1, "solved": item.solved + solved}
    if not solved:
        return replace(item, step=0, due=today + dt.timedelta(days=DAYS[0]), **counts)
    step = item.step + 1
    if (item.attempts == 0 and item.source == "library") or step >= len(DAYS):
        return replace(item, step=len(DAYS), due=None, **counts)
    return replace(item, step=step, due=today + dt.timedelta(days=DAYS[step]), **counts)


def due_items(items: Iterable[PracticeItem], today: dt.date) -> list[PracticeItem]:
    """The items due on or before ``today``: the learner's own moments first, then the longest
    overdue."""
    due = [item for item in items if item.due is not None and item.due <= today]
    return sorted(due, key=lambda item: (item.source != "moment", item.due, item.puzzle))


def due_markdown(items: Iterable[PracticeItem], today: dt.date, address: str) -> str:
    """The home page's line: how many puzzles are due today and how many are the learner's own
    mistakes ("" when none is due)."""
    due = due_items(items, today)
    if not due:
        return ""
    own = sum(item.source == "moment" for item in due)
    count = f"{len(due)} puzzle{'' if len(due) == 1 else 's'} due today"
    if own:
        count += f": {own} of your own mistakes"
    return f"**[{count} →]({address})**"


@dataclass(frozen=True)
class Streak:
    current: int = 0
    best: int = 0

    def after(self, solved: bool) -> Streak:
        """The streak after an answer: one longer, or over (the best stays)."""
        current = self.current + 1 if solved else 0
        return Streak(current, max(self.best, current))
