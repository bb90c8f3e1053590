"""Puzzles: the file format, the library index, the miner, ratings and the puzzle trainer."""

from .format import THEMES, Puzzle, PuzzleError, load_library, load_puzzle, load_puzzles
from .library import PuzzleLibrary, open_library, write_index

__all__ = [
    "THEMES",
    "Puzzle",
    "PuzzleError",
    "PuzzleLibrary",
    "load_library",
    "load_puzzle",
    "load_puzzles",
    "open_library",
    "write_index",
]
