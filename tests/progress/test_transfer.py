"""Progress carried from the browser version to the installed one: the file the home page
downloads is imported whole or not at all, a bad file is refused naming its field, and importing
merges with what is there (keeping the most of both, nothing twice)."""

from __future__ import annotations

import json

import pytest

from tests.review.history import record_history
from trainer import cli
from trainer.lessons.progress import LessonProgressStore
from trainer.progress.games import load_games
from trainer.progress.puzzles import load_progress, save_attempt
from trainer.progress.transfer import ProgressFileError, export_bytes, import_progress
from trainer.puzzles.trainer import PuzzleTrainer
from trainer.store import Store


@pytest.fixture
def browser_store(tmp_path, some_puzzles):
    """A store with a lesson begun, a puzzle solved and a game finished, as the site keeps them."""
    store = Store(tmp_path / "browser.sqlite3")
    progress = LessonProgressStore(store)
    progress.reach("l01_game", 1, 5)
    progress.answer("l01_game", "cards", True)
    trainer = PuzzleTrainer(some_puzzles, load_progress(store), lambda a, p: save_attempt(store, a, p))
    trainer.answer(trainer.next(kind="play").answer.best)
    record_history(store)
    return store


def table_counts(store: Store) -> dict[str, int]:
    tables = ("lesson_progress", "lesson_steps", "puzzle_records", "puzzle_attempts", "games", "decisions")
    return {table: store.query(f"SELECT COUNT(*) FROM {table}")[0][0] for table in tables}


def test_the_downloaded_file_imports_into_an_empty_store_and_twice_adds_nothing(browser_store, tmp_path):
    saved = tmp_path / "hearts-trainer-progress.json"
    saved.write_bytes(export_bytes(browser_store))
    installed = Store(tmp_path / "installed.sqlite3")
    import_progress(installed, saved)
    assert table_counts(installed) == table_counts(browser_store)
    assert LessonProgressStore(installed).of("l01_game").step == 1
    assert load_progress(installed).learner == load_progress(browser_store).learner
    (game,) = load_games(installed)
    assert game.key == load_games(browser_store)[0].key
    # the game's decisions point at the game as numbered in this store
    assert installed.query("SELECT COUNT(*) FROM decisions WHERE game_id = ?", (game.id,))[0][0] > 0

    again = import_progress(installed, saved)
    assert sum(again.values()) == 0
    assert table_counts(installed) == table_counts(browser_store)


def test_importing_keeps_the_further_lesson_step_already_there(browser_store, tmp_path):
    saved = tmp_path / "p.json"
    saved.write_bytes(export_bytes(browser_store))
    installed = Store(tmp_path / "installed.sqlite3")
    LessonProgressStore(installed).reach("l01_game", 3, 5)
    LessonProgressStore(installed).reach("l02_passing", 2, 6)
    import_progress(installed, saved)
    assert LessonProgressStore(installed).of("l01_game").step == 3
    assert LessonProgressStore(installed).of("l02_passing").step == 2
    assert "cards" in LessonProgressStore(installed).of("l01_game").right


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="something else"), "format: expected 'hearts-trainer-progress'"),
        (lambda d: d.update(schema=99), "schema: 99 was written by a newer Hearts Trainer"),
        (lambda d: d["tables"].update(passwords=[]), "tables.passwords: not a table"),
        (lambda d: d["tables"]["lesson_progress"][0].pop("step"), "tables.lesson_progress[0].step: missing"),
        (
            lambda d: d["tables"]["lesson_progress"][0].update(step="two"),
            "lesson_progress[0].step: expected a whole number",
        ),
        (
            lambda d: d["tables"]["games"][0].update(colour="red"),
            "tables.games[0].colour: not a column of games",
        ),
        # the last table checked: a bad row there must leave the earlier tables unapplied too
        (
            lambda d: d["tables"]["table_games"].append({"place": "x"}),
            "tables.table_games[0].variant: missing",
        ),
        (
            lambda d: d["tables"]["decisions"][0].update(game_id=12345),
            "decisions[0].game_id: 12345 is not a game",
        ),
    ],
)
def test_a_bad_file_is_refused_naming_the_field_and_nothing_is_applied(
    browser_store, tmp_path, change, message
):
    document = json.loads(export_bytes(browser_store))
    change(document)
    saved = tmp_path / "bad.json"
    saved.write_text(json.dumps(document))
    installed = Store(tmp_path / "installed.sqlite3")
    before = table_counts(installed)
    with pytest.raises(ProgressFileError) as refused:
        import_progress(installed, saved)
    assert str(saved) in str(refused.value)
    assert message in str(refused.value)
    assert table_counts(installed) == before


def test_the_command_imports_and_refuses_a_file_that_is_not_progress(
    browser_store, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("HEARTS_TRAINER_HOME", str(tmp_path / "home"))
    saved = tmp_path / "p.json"
    saved.write_bytes(export_bytes(browser_store))
    with pytest.raises(SystemExit) as done:
        cli.main(["import-progress", str(saved)])
    assert done.value.code == 0
    assert "Imported" in capsys.readouterr().out
    assert table_counts(Store(tmp_path / "home" / "progress.sqlite3")) == table_counts(browser_store)

    (tmp_path / "notes.txt").write_text("not json")
    with pytest.raises(SystemExit) as done:
        cli.main(["import-progress", str(tmp_path / "notes.txt")])
    assert done.value.code == 1
    error = capsys.readouterr().err
    assert error.startswith("Nothing was imported.") and "notes.txt" in error and "not JSON" in error


def test_a_decision_kept_already_or_twice_in_the_file_is_kept_once_and_one_at_the_same_time_is_added(
    browser_store, tmp_path
):
    document = json.loads(export_bytes(browser_store))
    installed = Store(tmp_path / "installed.sqlite3")
    saved = tmp_path / "p.json"
    saved.write_text(json.dumps(document))
    import_progress(installed, saved)
    kept = table_counts(installed)["decisions"]
    decisions = document["tables"]["decisions"]
    play = next(decision for decision in decisions if decision["kind"] == "play")
    other = dict(play, choice="2C" if play["choice"] != "2C" else "3C")  # the same time, another card
    decisions += [other, dict(other), dict(decisions[1])]
    saved.write_text(json.dumps(document))
    assert import_progress(installed, saved)["decisions"] == 1
    assert table_counts(installed)["decisions"] == kept + 1
