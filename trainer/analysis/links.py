"""Links that open a position on the analysis board: "Analyse this" from a review's key moment
or a puzzle. Each link holds the position in its address (``trainer.analysis.address``)."""

from __future__ import annotations

from urllib.parse import quote

from ..site import ANALYSIS
from .address import to_address
from .errors import PositionError
from .position import AnalysisPosition, from_puzzle

__all__ = ["analysis_link", "moment_link", "puzzle_link"]


def analysis_link(position: AnalysisPosition) -> str:
    """The board's address opened on ``position``."""
    return f"{ANALYSIS}?p={quote(to_address(position), safe='')}"


def puzzle_link(puzzle: object) -> str | None:
    """The board on a puzzle's position (``trainer.puzzles.format.Puzzle``); None when the board
    cannot show it (rules that are not one of the presets)."""
    try:
        return analysis_link(from_puzzle(puzzle))
    except (PositionError, ValueError):
        return None


def moment_link(moment: object) -> str | None:
    """The board on a review's key moment, fresh (``trainer.review.game.Moment``) or kept
    (``trainer.review.stored.StoredMoment``). Both go through the moment's replay puzzle, so a kept
    review links to the same position as the review it was kept from. None when it cannot."""
    import tomllib

    from ..puzzles.format import puzzle_from_data, puzzle_text
    from ..review.replay import moment_puzzle

    try:
        data = getattr(moment, "puzzle", None) or moment_puzzle(moment, "review")
        # read as its replay file is (``trainer.review.stored`` checks it the same way)
        return puzzle_link(puzzle_from_data(tomllib.loads(puzzle_text(data)), "review"))
    except ValueError:  # a kept moment whose puzzle no longer reads (PuzzleError is one)
        return None
