"""Which puzzle next: one near the learner's level, and failed ones again later.

Every attempt updates the learner's and the puzzle's Glicko-2 ratings. Failed puzzles come
back after a few other puzzles (spaced repetition, Leitner boxes): a failure puts a puzzle in
box 0, due again 3 attempts later; each success moves it up a box, with gaps 3, 8, 20 and 50
attempts. Due puzzles come first; otherwise a puzzle near a little above the learner's rating
(never tried before first), then, when those are used up, the closest further away.

Within a session no puzzle comes twice while another matching one has not been shown: the
session passes the ids it has shown (``shown``), and only when every matching puzzle has been
shown does one come again, the one shown longest ago first.

It chooses among listed puzzles: index entries (``trainer.puzzles.entry.Entry``, which the page
uses, so only the chosen puzzle's file is read) or loaded puzzles; either has the ``id``,
``kind``, ``themes`` and ``difficulty`` it reads, and an entry has the ``players`` and ``rules``
label the table-size and rules filters read.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

from .rating import Rating, update

__all__ = [
    "GAPS",
    "NEAR",
    "Listed",
    "PuzzleProgress",
    "PuzzleRecord",
    "choose_next",
    "matches",
    "record_attempt",
]

GAPS = (3, 8, 20, 50)
STRETCH = 50
"""Aim a little above the learner's rating: a puzzle they solve about 43% of the time."""
NEAR = 200
"""Puzzles within this many rating points of the aim are "near": they come before farther ones."""


class Listed(Protocol):
    """What scheduling reads of a puzzle: an index entry or a loaded ``Puzzle``."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def themes(self) -> tuple[str, ...]: ...
    @property
    def difficulty(self) -> int: ...


L = TypeVar("L", bound=Listed)


@dataclass(frozen=True)
class PuzzleRecord:
    rating: Rating
    attempts: int = 0
    solved: int = 0
    box: int = 0
    due: int | None = None
    """The learner's attempt count at which this puzzle is due again; None when not seen."""


@dataclass
class PuzzleProgress:
    learner: Rating = field(default_factory=Rating)
    attempts: int = 0
    records: dict[str, PuzzleRecord] = field(default_factory=dict)
    base: dict[str, Rating] = field(default_factory=dict)
    """Each puzzle's rating from the bots' answers (``trainer.puzzles.ratings``): where a puzzle
    this learner has not tried starts. Their own results then move it in ``records``, per
    learner: the progress stays on their computer, and no server gathers everyone's."""

    def start_for(self, puzzle: Listed) -> Rating:
        """Where the puzzle's rating starts: the bots' evidence, else its file's difficulty. The
        page shows it and the rating filter reads it (a learner's results do not move it)."""
        return self.base.get(puzzle.id) or Rating(puzzle.difficulty, 250.0)

    def record_for(self, puzzle: Listed) -> PuzzleRecord:
        return self.records.get(puzzle.id) or PuzzleRecord(self.start_for(puzzle))


def matches(
    puzzle: Listed,
    themes: Iterable[str] | None = None,
    difficulty: tuple[int, int] | None = None,
    kind: str | None = None,
    players: int | None = None,
    rules: str | None = None,
    rating: float | None = None,
) -> bool:
    """Whether a listed puzzle passes the filters: one of the themes, the difficulty band (both
    ends included), the kind, the table size and the rules label; None (or no themes) lets all
    through. ``players`` and ``rules`` are read only when filtered on (index entries have them).
    ``rating`` is what the band is read against (the puzzle's starting rating; by default its
    difficulty)."""
    if kind and puzzle.kind != kind:
        return False
    if themes and not set(themes) & set(puzzle.themes):
        return False
    rating = puzzle.difficulty if rating is None else rating
    if difficulty and not difficulty[0] <= rating <= difficulty[1]:
        return False
    if players is not None and puzzle.players != players:  # type: ignore[attr-defined]
        return False
    return rules is None or puzzle.rules == rules  # type: ignore[attr-defined]


def choose_next(
    puzzles: Sequence[L],
    progress: PuzzleProgress,
    themes: Iterable[str] | None = None,
    difficulty: tuple[int, int] | None = None,
    rng: random.Random | None = None,
    exclude: str | None = None,
    kind: str | None = None,
    players: int | None = None,
    rules: str | None = None,
    shown: Sequence[str] = (),
) -> L | None:
    """The next puzzle among those matching the filters (None if none match); ``kind`` is
    "pass" or "play", ``players`` a table size and ``rules`` a rules label (None: any);
    ``shown`` the ids shown this session, oldest first (a puzzle may be listed again)."""
    rng = rng or random.Random(progress.attempts)
    themes = list(themes) if themes else None
    pool = [
        p
        for p in puzzles
        if p.id != exclude
        and matches(p, themes, difficulty, kind, players, rules, round(progress.start_for(p).rating))
    ]
    if not pool:
        return None
    last_shown = {puzzle_id: number for number, puzzle_id in enumerate(shown)}
    fresh = [p for p in pool if p.id not in last_shown]
    if not fresh:  # every match has been shown this session: again, the one shown longest ago
        return min(pool, key=lambda p: (last_shown[p.id], p.id))
    pool = fresh
    due = [
        p
        for p in pool
        if (r := progress.records.get(p.id)) and r.due is not None and r.due <= progress.attempts
    ]
    if due:
        return min(due, key=lambda p: (progress.records[p.id].due, progress.records[p.id].box, p.id))
    target = progress.learner.rating + STRETCH
    rng.shuffle(pool)

    def order(puzzle: L) -> tuple[bool, bool, float]:
        distance = abs(progress.record_for(puzzle).rating.rating - target)
        return (distance > NEAR, puzzle.id in progress.records, distance)

    return min(pool, key=order)


def record_attempt(progress: PuzzleProgress, puzzle: Listed, solved: bool) -> PuzzleRecord:
    """Score an attempt: both ratings move, and the puzzle is scheduled again."""
    record = progress.record_for(puzzle)
    learner_before = progress.learner
    progress.learner = update(learner_before, [(record.rating, 1.0 if solved else 0.0)])
    box = min(record.box + 1, len(GAPS) - 1) if solved else 0
    progress.attempts += 1
    updated = replace(
        record,
        rating=update(record.rating, [(learner_before, 0.0 if solved else 1.0)]),
        attempts=record.attempts + 1,
        solved=record.solved + solved,
        box=box,
        due=progress.attempts + GAPS[box],
    )
    progress.records[puzzle.id] = updated
    return updated
