"""The coverage table (``python -m trainer.puzzles coverage``): counts from the library itself,
written by the command into ``puzzles/README.md`` and never by hand."""

from __future__ import annotations

import shutil

from tests.test_puzzle_library import EXPECTED, make_library
from trainer.puzzles.commands import main as puzzles_command
from trainer.puzzles.coverage import MIN_THEME, coverage_markdown, readme_section
from trainer.puzzles.format import PUZZLES_DIR
from trainer.puzzles.library import open_library, write_index


def test_the_shipped_coverage_table_is_the_commands_output(capsys):
    assert puzzles_command(["coverage", str(PUZZLES_DIR), "--check"]) == 0, capsys.readouterr().err
    library = open_library(PUZZLES_DIR)
    assert library.notices == [] and library.problems == []
    assert readme_section(PUZZLES_DIR / "README.md") == coverage_markdown(library.entries)


def test_the_table_counts_each_table_kind_and_theme_and_names_the_short_themes(tmp_path):
    write_index(make_library(tmp_path))
    text = coverage_markdown(open_library(tmp_path).entries)
    assert text.startswith(f"{len(EXPECTED)} puzzles: 1 pass, 6 play; 5 under other tables and rules.")
    assert "| standard | 1 | 1 |" in text and "| 3 players | 0 | 1 |" in text
    assert "| 5 players, black_maria | 0 | 1 |" in text and "| custom | 0 | 1 |" in text
    assert "| leading | 0 | 2 | 2 |" in text and "| high_hearts | 1 | 0 | 1 |" in text
    assert f"({MIN_THEME} wanted of each; short: queen_of_spades, " in text  # every theme here is short
    assert "| 5 players, black_maria | play | endgame |  |  |  | 1 |  | 1 |" in text


def test_the_command_writes_the_table_into_the_readme_and_checks_it(tmp_path, capsys):
    write_index(make_library(tmp_path))
    readme = tmp_path / "README.md"
    readme.write_text("# Puzzles\n\nWords kept as they are.\n", encoding="utf-8")
    assert puzzles_command(["coverage", str(tmp_path), "--check"]) == 1
    assert "run `python -m trainer.puzzles coverage" in capsys.readouterr().err
    assert puzzles_command(["coverage", str(tmp_path), "--write"]) == 0
    assert readme.read_text(encoding="utf-8").startswith("# Puzzles\n\nWords kept as they are.\n")
    assert puzzles_command(["coverage", str(tmp_path), "--check"]) == 0
    # a new puzzle makes the table out of date until the command writes it again
    shutil.copy(tmp_path / "play-a.toml", tmp_path / "play-b.toml")
    text = (tmp_path / "play-b.toml").read_text(encoding="utf-8").replace('id = "play-a"', 'id = "play-b"')
    (tmp_path / "play-b.toml").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert puzzles_command(["coverage", str(tmp_path), "--check"]) == 1
    assert puzzles_command(["coverage", str(tmp_path), "--write"]) == 0
    assert readme_section(readme).startswith(f"{len(EXPECTED) + 1} puzzles: 1 pass, 7 play;")
