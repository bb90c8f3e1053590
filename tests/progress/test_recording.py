"""Decisions are kept where the learner makes them: puzzles (with their ratings and schedule),
lesson steps judged by the evaluator, and games played to the end at the table."""

from __future__ import annotations

import pytest

from engine import Rules
from tests.review.history import finish_game, play_bot_game
from trainer.lessons.catalog import LESSONS
from trainer.lessons.runner import LessonRunner
from trainer.progress.decisions import load_decisions, phase_of
from trainer.progress.games import game_record, last_game, load_games, save_game
from trainer.progress.puzzles import load_progress, open_board, save_attempt
from trainer.puzzles.trainer import PuzzleTrainer
from trainer.store import Store


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "p.sqlite3")


def test_phases_of_the_hand() -> None:
    assert phase_of("pass", 0) == "pass"
    assert [phase_of("play", t) for t in (1, 4, 5, 9, 10, 13)] == [
        "early", "early", "middle", "middle", "late", "late"
    ]  # fmt: skip


def test_puzzle_attempts_and_ratings_persist_and_first_tries_are_graded_decisions(
    store, some_puzzles
) -> None:
    trainer = PuzzleTrainer(some_puzzles, load_progress(store), lambda a, p: save_attempt(store, a, p))
    puzzle = trainer.next(kind="play")
    solved = trainer.answer(puzzle.answer.best)
    wrong = next(
        v.option.code for v in reversed(puzzle.answer.options) if not puzzle.is_accepted(v.option.code)
    )
    retry = trainer.answer(wrong)  # a second try at the same showing: kept, but not counted
    assert solved.counted and solved.solved and not retry.counted

    again = load_progress(store)
    assert again.learner == trainer.progress.learner and again.learner.rating > 1500
    assert again.attempts == 1
    assert again.records == trainer.progress.records
    record = again.records[puzzle.id]
    assert (record.attempts, record.solved, record.box, record.due) == (1, 1, 1, 1 + 8)
    attempts = store.query("SELECT puzzle, choice, solved, counted, band FROM puzzle_attempts ORDER BY id")
    assert attempts[0][:4] == (puzzle.id, puzzle.answer.best, 1, 1)
    assert attempts[1][:4] == (puzzle.id, wrong, 0, 0) and attempts[1][4] != "best"
    (decision,) = load_decisions(store)
    assert (decision.source, decision.ref, decision.choice, decision.band) == (
        "puzzle", puzzle.id, puzzle.answer.best, "best"
    )  # fmt: skip
    assert decision.themes == puzzle.themes and decision.kind == "play"
    assert decision.phase == phase_of("play", puzzle.state.trick_number + 1)


def test_open_board_resumes_the_saved_progress(store) -> None:
    board = open_board(store)
    board.show_next(kind="pass")
    first = board.trainer.current
    board.trainer.answer(first.answer.best)
    reopened = open_board(store)
    assert reopened.trainer.progress.attempts == 1
    assert reopened.trainer.progress.records[first.id].solved == 1
    assert "1 attempt, 1 solved" in reopened.status_markdown()
    board.widget.close()
    reopened.widget.close()


def test_a_lesson_pass_judged_by_the_evaluator_is_kept_as_a_graded_decision(store, monkeypatch) -> None:
    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    runner = LessonRunner(LESSONS["l02_passing"], store)
    runner.go(1)  # the queen step: judged with the evaluator
    runner.answer(["AH", "KH", "JD"])
    runner.answer(["QS", "AH", "KH"])
    direction = runner._context.state.pass_direction.value
    runner.go(0)  # a rule question: no evaluator, no graded decision
    runner.answer("right") if runner.step.kind == "choice" else None
    kept = load_decisions(store, source="lesson")
    assert [(d.ref, d.kind, d.phase, d.choice) for d in kept] == [
        ("l02_passing/queen", "pass", "pass", "JD KH AH"),
        ("l02_passing/queen", "pass", "pass", "QS KH AH"),
    ]
    assert kept[0].loss > kept[1].loss >= 0 and kept[0].best == kept[1].best
    assert kept[0].pass_direction == direction == "left"
    runner.close()


def test_a_game_played_to_the_end_at_the_table_is_kept_for_review(store) -> None:
    session = play_bot_game(Rules(target=26), 5)
    assert len(session.game_hands) == len(session.score_rows) >= 1
    assert [h.result.scores for h in session.game_hands] == session.score_rows
    game_id = save_game(store, game_record(session.game_hands, 0, session.opponents), session.game_key)
    again = save_game(store, game_record(session.game_hands, 0, session.opponents), session.game_key)
    assert again == game_id and len(load_games(store)) == 1  # the same game is kept once
    game = last_game(store)
    assert game.totals == session.totals and game.score_rows == session.score_rows
    assert game.opponents == {"1": "normal", "2": "normal", "3": "normal"}


def test_the_lesson_table_keeps_a_finished_game_and_not_a_game_set_up_part_way(store, monkeypatch) -> None:
    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    runner = LessonRunner(LESSONS["l09_play"], store)
    session = runner.widget.session
    finish_game(session, "normal", 3)
    assert runner.saved_game is not None
    game = last_game(store)
    assert game.id == runner.saved_game and game.totals == session.totals
    assert game.score_rows == session.score_rows and len(game.hands) == len(session.score_rows) >= 2
    assert max(game.totals) >= 100
    assert game.hands[0].dealt == session.game.hands[0].dealt  # the game's first deal, kept

    last = game.hands[-1]
    fresh = type(last)(last.rules, last.dealt, last.pass_direction)
    session.set_position(fresh, game.score_rows[:-1])  # a game set up part-way...
    finish_game(session, "normal", 3)
    assert session.winners and len(load_games(store)) == 1  # ...is not kept for review
    runner.close()
