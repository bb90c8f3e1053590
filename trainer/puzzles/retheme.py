"""Themes and titles read again from each puzzle file's own figures, after the rules that name
them (``trainer.puzzles.themes``) change: no position is valued again, so a file's answer, figures
and verification stay as they are and only what it is called follows the facts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import PuzzleError
from .format import load_puzzle, save_puzzle
from .library import write_index
from .source import read_toml
from .themes import pass_themes, play_themes, title_of
from .verify import natural_choice

__all__ = ["Retitled", "retheme_folder"]


@dataclass(frozen=True)
class Retitled:
    path: Path
    before: tuple[str, ...]
    after: tuple[str, ...]
    title: str
    """The title the themes give (the file's own may differ only in it)."""


def retheme_folder(folder: Path, write: bool = False) -> tuple[list[Retitled], list[str]]:
    """The files whose themes (or title) the stored figures no longer give, with what they give,
    and the problems of the files that do not load (left as they are); ``write`` rewrites those
    two fields of each (nothing else) and then the folder's index."""
    changed, problems = [], []
    for path in sorted(folder.glob("*.toml")):
        try:
            puzzle = load_puzzle(path)
        except PuzzleError as error:
            problems.append(str(error))
            continue
        view = puzzle.view
        finder = pass_themes if puzzle.kind == "pass" else play_themes
        themes = finder(view, puzzle.evaluation, natural_choice(puzzle.kind, view))
        title = title_of(puzzle.kind, themes)
        if themes == list(puzzle.themes) and title == puzzle.title:
            continue
        changed.append(Retitled(path, tuple(puzzle.themes), tuple(themes), title))
        if write:
            data = read_toml(path)
            data["title"], data["themes"] = title, themes
            save_puzzle(data, path)
    if write and changed:
        write_index(folder)
    return changed, problems
