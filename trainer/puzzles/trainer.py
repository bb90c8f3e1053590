"""A puzzle-solving session: the next puzzle, the coach's verdict at once, ratings kept.

The verdict comes from the puzzle's stored evaluation (no waiting): the coach grades the
learner's pass or card against it and explains it from the position. Only the first try at a
puzzle each time it is shown counts for the ratings. A hint gives the answer away: asked before
any answer, it counts as the miss at once (ratings and spaced repetition), so moving on to the
next puzzle without answering loses nothing, and the answer after it is not counted again.

The trainer chooses among the library's entries (metadata from the index) and reads only the
chosen puzzle's file (``PuzzleLibrary.load``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine import Card, CardParseError, CardSet, parse_card

from ..coach import Verdict, coach_pass, coach_play
from ..coach.hint import Hint, hint_from
from .entry import Entry
from .format import Puzzle
from .library import PuzzleLibrary
from .schedule import PuzzleProgress, choose_next, record_attempt

__all__ = ["Attempt", "PuzzleTrainer"]


@dataclass(frozen=True)
class Attempt:
    puzzle: Puzzle
    choice: str
    solved: bool
    counted: bool
    """Whether it changed the ratings (the first try at this showing of the puzzle)."""
    verdict: Verdict
    hinted: bool = False
    """A hint was shown first: the answer was given away, so it is not solved."""

    @property
    def accepted(self) -> bool:
        """The choice is one of the puzzle's verified answers (hint or not)."""
        return self.puzzle.is_accepted(self.choice)


class PuzzleTrainer:
    """With no puzzles (every file skipped) ``next`` finds none, so the page still opens.
    ``puzzles`` is a library (``open_library``) or puzzles already loaded."""

    def __init__(
        self,
        puzzles: PuzzleLibrary | Sequence[Puzzle],
        progress: PuzzleProgress | None = None,
        on_attempt: Callable[[Attempt, PuzzleProgress], None] | None = None,
        seed: int = 0,
        on_hinted: Callable[[Puzzle, PuzzleProgress], None] | None = None,
    ) -> None:
        if not isinstance(puzzles, PuzzleLibrary):
            puzzles = PuzzleLibrary.from_puzzles(puzzles)
        self.library = puzzles
        self.progress = progress or PuzzleProgress()
        self.on_attempt = on_attempt
        self.on_hinted = on_hinted
        """Called when a hint before any answer has counted the puzzle as missed."""
        self.rng = random.Random(seed)
        self.current: Puzzle | None = None
        self.shown: list[str] = []
        """The ids shown in this session, in order: none comes again before the others."""
        self._tried = False
        self.hinted = False
        self.queue: list[str] | None = None
        """A practice session's puzzle ids, in order: ``next`` shows each once, then none (the
        filters do not apply)."""

    @property
    def puzzles(self) -> list[Entry]:
        """The listed puzzles (metadata only)."""
        return self.library.entries

    def next(
        self,
        themes: Iterable[str] | None = None,
        difficulty: tuple[int, int] | None = None,
        kind: str | None = None,
        players: int | None = None,
        rules: str | None = None,
    ) -> Puzzle | None:
        """Show the next puzzle matching the filters; ``players`` is a table size and ``rules`` a
        rules label (``trainer.puzzles.entry.rules_label``). None when none matches, and then the
        puzzle shown stays the current one, as it stays on the table."""
        themes = list(themes) if themes else None
        filters = {
            "themes": themes,
            "difficulty": difficulty,
            "kind": kind,
            "players": players,
            "rules": rules,
            "shown": self.shown,
        }
        if self.queue is not None:
            return self._next_queued()
        exclude = self.current.id if self.current else None
        puzzle = None
        # A file changed since the library was opened is listed again and the choice made again.
        for _ in range(len(self.library.entries) + 1):
            entry = choose_next(self.library.entries, self.progress, rng=self.rng, exclude=exclude, **filters)
            if entry is None and exclude:
                entry = choose_next(self.library.entries, self.progress, rng=self.rng, **filters)
            if entry is None or (puzzle := self.library.load(entry)) is not None:
                break
        if puzzle is None:
            return None
        self.current = puzzle
        self.shown.append(puzzle.id)
        self._tried = False
        self.hinted = False
        return puzzle

    def _next_queued(self) -> Puzzle | None:
        entries = {entry.id: entry for entry in self.library.entries}
        for puzzle_id in self.queue or ():
            if puzzle_id not in self.shown and puzzle_id in entries:
                puzzle = self.library.load(entries[puzzle_id])
                self.shown.append(puzzle_id)
                if puzzle is not None:
                    self.current, self._tried, self.hinted = puzzle, False, False
                    return puzzle
        return None

    def hint(self) -> Hint:
        """The current puzzle's verified best answer and why, from its stored evaluation. Once
        shown, this showing of the puzzle counts as not solved (as a miss at once if it was not
        answered yet: ``on_hinted``)."""
        puzzle = self.current
        if puzzle is None:
            raise ValueError("there is no puzzle on the table: ask for the next one")
        self.hinted = True
        if not self._tried:  # the miss is counted now: a learner may move on without answering
            self._tried = True
            record_attempt(self.progress, puzzle, False)
            if self.on_hinted:
                self.on_hinted(puzzle, self.progress)
        return hint_from(puzzle.view, puzzle.evaluation.best.option, puzzle.evaluation)

    def answer(self, choice: str | Card | CardSet | Sequence) -> Attempt:
        """The coach's verdict on the learner's pass or card for the current puzzle."""
        puzzle = self.current
        if puzzle is None:
            raise ValueError("there is no puzzle on the table: ask for the next one")
        view = puzzle.view
        try:
            if puzzle.kind == "pass":
                cards = choice if isinstance(choice, CardSet) else CardSet(choice)
                if refusal := puzzle.state.why_not_pass(puzzle.seat, cards):
                    raise ValueError(refusal.message)
                verdict = coach_pass(view, cards, puzzle.evaluation)
                text = " ".join(cards.codes)
            else:
                card = choice if isinstance(choice, Card) else parse_card(str(choice))
                if refusal := puzzle.state.why_not_play(card, puzzle.seat):
                    raise ValueError(refusal.message)
                verdict = coach_play(view, card, puzzle.evaluation)
                text = card.code
        except CardParseError as error:
            raise ValueError(str(error)) from None
        # The puzzle's verified answers decide; a hint gave the answer away.
        solved = puzzle.is_accepted(text) and not self.hinted
        counted = not self._tried
        if counted:
            record_attempt(self.progress, puzzle, solved)
        self._tried = True
        attempt = Attempt(puzzle, text, solved, counted, verdict, self.hinted)
        if self.on_attempt:
            self.on_attempt(attempt, self.progress)
        return attempt
