"""A kept row that does not read back is reported and left out, never a crash and never removed;
a puzzle attempt that cannot be saved leaves the page working and says why."""

from __future__ import annotations

from tests.review.history import record_history
from trainer.progress.games import load_game, readable_games
from trainer.progress.puzzles import open_board
from trainer.review.page import open_review
from trainer.store import Store, StoreBusyError


def test_an_unreadable_kept_game_is_named_left_out_and_left_in_the_file(tmp_path) -> None:
    store = Store(tmp_path / "p.sqlite3")
    good = record_history(store, game_seed=5)
    bad = record_history(store, game_seed=6)
    with store.transaction() as db:
        db.execute("UPDATE games SET record = ? WHERE id = ?", ('{"hands": [{"deal": 5}]}', bad))
    games, problems = readable_games(store)
    assert [game.id for game in games] == [good]
    assert len(problems) == 1 and f"games row {bad}, record" in problems[0]
    review = open_review(store)
    assert [game.id for game in review.games] == [good]
    assert "could not be read" in review.notice and f"games row {bad}" in review.notice
    assert store.query("SELECT COUNT(*) FROM games")[0][0] == 2  # nothing removed
    assert load_game(store, good).id == good


def test_a_puzzle_attempt_that_cannot_be_saved_is_said_and_the_puzzle_goes_on(tmp_path, monkeypatch) -> None:
    import trainer.progress.puzzles as page

    def busy(*_args) -> None:
        raise StoreBusyError("Another program is using the progress file; nothing was changed.")

    monkeypatch.setattr(page, "save_attempt", busy)
    board = open_board(Store(tmp_path / "p.sqlite3"))
    puzzle = board.trainer.next()
    attempt = board.trainer.answer(puzzle.answer.best)
    assert attempt.puzzle is puzzle  # graded as ever
    assert "Another program" in board.notice
