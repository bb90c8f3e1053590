"""Lesson steps made from puzzle positions: a real hand where the natural choice costs points.

The table shows the puzzle's position; the check is the puzzle's verified answer, and the
message is the coach's verdict from the puzzle's stored evaluation (instant, no waiting).
"""

from __future__ import annotations

from engine import CardParseError, CardSet, parse_card

from ..coach import coach_pass, coach_play
from ..data_files import PUZZLES_DIR
from ..puzzles import load_puzzle
from .steps import Context, Step, StepVerdict

__all__ = ["puzzle_step"]


def _check(puzzle_id: str):
    puzzle = load_puzzle(PUZZLES_DIR / f"{puzzle_id}.toml")

    def check(answer: object, context: Context) -> StepVerdict:
        state = context.state
        try:
            if puzzle.kind == "pass":
                cards = CardSet(answer if isinstance(answer, str) else list(answer))
                refusal = state.why_not_pass(context.seat, cards)
            else:
                cards = parse_card(str(answer))
                refusal = state.why_not_play(cards, context.seat)
        except CardParseError as error:
            return StepVerdict(False, str(error), "bad_card")
        if refusal:
            return StepVerdict(False, refusal.message, refusal.reason.value)
        coach = coach_pass if puzzle.kind == "pass" else coach_play
        verdict = coach(puzzle.view, cards, puzzle.evaluation)
        text = " ".join((verdict.headline, *verdict.reasons))
        correct = puzzle.is_accepted(" ".join(cards.codes) if puzzle.kind == "pass" else cards.code)
        return StepVerdict(correct, text, "right" if correct else verdict.grade.band.value)

    return puzzle, check


def puzzle_step(
    puzzle_id: str, key: str, title: str, text: str, task: str, facts: tuple[str, ...] = ()
) -> Step:
    puzzle, check = _check(puzzle_id)
    return Step(
        key=key,
        title=title,
        text=text,
        kind=puzzle.kind,
        position=lambda rules: puzzle.state.copy(),
        check=check,
        task=task,
        facts=facts,
    )
