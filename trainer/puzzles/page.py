"""What the puzzles notebook opens: the board, with the learner's saved puzzle progress.

Every attempt is written to the learner's store as it happens (``trainer.progress.puzzles``):
the ratings, each puzzle's box and due time, the attempt itself and, for a first try, the graded
decision. A damaged progress file is moved aside and reported in ``board.notice``.
"""

from __future__ import annotations

from ..progress.puzzles import load_progress, save_attempt
from ..store import Store, StoreError, open_store
from .board import PuzzleBoard

__all__ = ["open_board"]


def open_board(store: Store | None = None) -> PuzzleBoard:
    notice = ""
    if store is None:
        store, notice = open_store()

    def keep(attempt, progress) -> None:
        try:
            save_attempt(store, attempt, progress)
        except StoreError as error:  # busy or out of reach: the puzzle goes on, unsaved, and says so
            board.notice = str(error)

    board = PuzzleBoard(progress=load_progress(store), on_attempt=keep)
    board.notice = notice
    board.store = store
    return board
