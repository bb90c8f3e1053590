"""The `hearts-trainer` command: its help lists every tool, and each subcommand runs its tool with
the learner's arguments."""

from __future__ import annotations

import pytest

import trainer.start
from trainer import cli
from trainer.puzzles.board import PUZZLES_DIR


def test_the_help_lists_every_command(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    for name in ("lessons", "serve", "play", "tournament", "mine", "export", "check"):
        assert f"\n    {name}" in shown, name


def test_an_unknown_command_is_an_error_that_names_the_commands(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["lesson"])
    assert done.value.code == 2
    assert "choose from" in capsys.readouterr().err


def test_export_writes_the_record_where_it_is_told(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path / "home"))
    with pytest.raises(SystemExit) as done:
        cli.main(["export", str(tmp_path / "out")])
    assert not done.value.code
    assert any(path.suffix == ".csv" for path in (tmp_path / "out").iterdir())


def test_a_command_prints_its_own_usage_under_its_name(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["tournament", "--help"])
    assert capsys.readouterr().out.startswith("usage: hearts-trainer tournament")


@pytest.mark.parametrize("argv", [[], ["--no-browser", "--port", "2799"]])
def test_no_command_starts_the_lessons_with_the_options_given(argv, monkeypatch) -> None:
    started = []
    monkeypatch.setattr(trainer.start, "main", started.append)
    with pytest.raises(SystemExit):
        cli.main(argv)
    assert started == [argv]


def test_check_runs_the_puzzle_file_check_with_the_files_given(tmp_path, capsys) -> None:
    # Two shipped puzzles (the whole library without arguments: tests/test_puzzle_check.py).
    given = [sorted(PUZZLES_DIR.glob(f"{kind}-*.toml"))[0] for kind in ("pass", "play")]
    with pytest.raises(SystemExit) as done:
        cli.main(["check", *map(str, given)])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("2 puzzle files checked: no problems")
    with pytest.raises(SystemExit) as done:
        cli.main(["check", str(tmp_path)])
    assert done.value.code == 1
    assert f"no puzzle files in {tmp_path}" in capsys.readouterr().err
