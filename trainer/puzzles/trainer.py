"""A puzzle-solving session: the next puzzle, the coach's verdict at once, ratings kept.

The verdict comes from the puzzle's stored evaluation (no waiting): the coach grades the
learner's pass or card against it and explains it from the position. Only the first try at a
puzzle each time it is shown counts for the ratings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine import Card, CardParseError, CardSet, parse_card

from ..coach import Verdict, coach_pass, coach_play
from .format import Puzzle
from .schedule import Progress, choose_next, record_attempt

__all__ = ["Attempt", "PuzzleTrainer"]


@dataclass(frozen=True)
class Attempt:
    puzzle: Puzzle
    choice: str
    solved: bool
    counted: bool
    """Whether it changed the ratings (the first try at this showing of the puzzle)."""
    verdict: Verdict


class PuzzleTrainer:
    def __init__(
        self,
        puzzles: Sequence[Puzzle],
        progress: Progress | None = None,
        on_attempt: Callable[[Attempt, Progress], None] | None = None,
        seed: int = 0,
    ) -> None:
        if not puzzles:
            raise ValueError("no puzzles to train with")
        self.puzzles = list(puzzles)
        self.progress = progress or Progress()
        self.on_attempt = on_attempt
        self.rng = random.Random(seed)
        self.current: Puzzle | None = None
        self._tried = False

    def next(
        self,
        themes: Iterable[str] | None = None,
        difficulty: tuple[int, int] | None = None,
        kind: str | None = None,
    ) -> Puzzle | None:
        """Show the next puzzle matching the filters (None when none matches)."""
        exclude = self.current.id if self.current else None
        puzzle = choose_next(self.puzzles, self.progress, themes, difficulty, self.rng, exclude, kind)
        if puzzle is None and exclude:
            puzzle = choose_next(self.puzzles, self.progress, themes, difficulty, self.rng, kind=kind)
        self.current = puzzle
        self._tried = False
        return puzzle

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
        solved = puzzle.is_accepted(text)  # the puzzle's verified answers decide
        counted = not self._tried
        if counted:
            record_attempt(self.progress, puzzle, solved)
        self._tried = True
        attempt = Attempt(puzzle, text, solved, counted, verdict)
        if self.on_attempt:
            self.on_attempt(attempt, self.progress)
        return attempt
