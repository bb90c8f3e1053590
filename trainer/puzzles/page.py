"""What the puzzles notebook opens: the board, with the learner's saved puzzle progress."""

from __future__ import annotations

from .board import PuzzleBoard

__all__ = ["open_board"]


def open_board() -> PuzzleBoard:
    return PuzzleBoard()
