"""Words the learner reads agree in number: no "win(s)", "1 points" or "1 attempts"."""

from __future__ import annotations

from engine import winners_if_over
from trainer.lessons.catalog import LESSONS
from trainer.lessons.l07_game import _totals
from trainer.puzzles.board import PuzzleBoard
from trainer.puzzles.schedule import PuzzleProgress


def test_the_game_end_verdict_says_win_or_wins_by_number_never_win_s() -> None:
    step = LESSONS["l07_game"].step("end")
    rules = step.context("Short game: to 50").rules
    winners = winners_if_over(rules, _totals(rules))
    message = step.judge("The lowest total wins now", "Short game: to 50").message
    assert winners and "(s)" not in message
    one_other = len(winners) == 1 and winners != (0,)
    assert message.endswith(" wins.") if one_other else message.endswith(" win."), message


def test_the_puzzle_status_counts_one_attempt_as_one_attempt() -> None:
    board = PuzzleBoard(progress=PuzzleProgress(attempts=1))
    try:
        assert "· 1 attempt, 0 solved" in board.status_markdown()
        board.trainer.progress.attempts = 2
        assert "· 2 attempts, 0 solved" in board.status_markdown()
    finally:
        board.widget.close()
