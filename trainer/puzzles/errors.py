"""The one error a puzzle file that cannot be used raises."""

from __future__ import annotations

__all__ = ["PuzzleError"]


class PuzzleError(ValueError):
    """A puzzle file that cannot be used; the message names the file and the field."""
