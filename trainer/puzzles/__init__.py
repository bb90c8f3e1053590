"""Puzzles: the file format, the miner, ratings and the puzzle trainer."""

from .format import THEMES, Puzzle, PuzzleError, load_library, load_puzzle, load_puzzles

__all__ = ["THEMES", "Puzzle", "PuzzleError", "load_library", "load_puzzle", "load_puzzles"]
