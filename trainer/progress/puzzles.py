"""Puzzle progress on disk: the learner's Glicko-2 rating, each puzzle's record (its rating, Leitner
box and when it is due) and every attempt; a first try at a puzzle is also kept as a graded
decision (source ``puzzle``), so the charts count it with lessons and games.

``save_attempt`` is what ``PuzzleTrainer``'s ``on_attempt`` hook calls: all of it is written in
one transaction, so an attempt is kept whole or not at all (``save_hinted`` keeps the miss a hint
counts). ``open_board`` is what the puzzles
notebook opens: the board with this progress, every attempt written as it happens; a damaged
progress file is moved aside and reported in ``board.notice``. (It lives here, not in
``trainer.puzzles``, so the puzzles package never imports the progress package back.)
"""

from __future__ import annotations

import datetime as dt

from ..puzzles.board import PuzzleBoard
from ..puzzles.format import Puzzle
from ..puzzles.rating import Rating
from ..puzzles.schedule import PuzzleProgress, PuzzleRecord
from ..puzzles.trainer import Attempt
from ..store import Store, StoreError, open_store
from .decisions import graded_decision, insert, now, readable_decisions
from .games import readable_games
from .practice import load_items, load_streak, save_item, save_streak

__all__ = ["MODES", "load_progress", "open_board", "save_attempt", "save_hinted"]


def load_progress(store: Store) -> PuzzleProgress:
    """The learner's saved puzzle progress (a fresh ``PuzzleProgress`` when there is none)."""
    progress = PuzzleProgress()
    rows = store.query("SELECT rating, deviation, volatility, attempts FROM puzzle_learner WHERE id = 1")
    if rows:
        rating, deviation, volatility, attempts = rows[0]
        progress.learner = Rating(rating, deviation, volatility)
        progress.attempts = attempts
    for puzzle, rating, deviation, volatility, attempts, solved, box, due in store.query(
        "SELECT puzzle, rating, deviation, volatility, attempts, solved, box, due FROM puzzle_records"
    ):
        progress.records[puzzle] = PuzzleRecord(
            Rating(rating, deviation, volatility), attempts, solved, box, due
        )
    return progress


def save_attempt(store: Store, attempt: Attempt, progress: PuzzleProgress) -> None:
    """Keep an attempt and the progress it led to (all or nothing)."""
    puzzle = attempt.puzzle
    record = progress.record_for(puzzle)
    learner = progress.learner
    grade = attempt.verdict.grade
    at = now()
    with store.transaction() as db:
        db.execute(
            "INSERT INTO puzzle_attempts (puzzle, choice, solved, counted, band, loss, learner_rating, "
            "puzzle_rating, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                puzzle.id,
                attempt.choice,
                int(attempt.solved),
                int(attempt.counted),
                grade.band.value,
                grade.loss,
                learner.rating,
                record.rating.rating,
                at,
            ),
        )
        if not attempt.counted:
            return
        _keep_ratings(db, puzzle, progress, at)
        insert(
            db,
            graded_decision(
                puzzle.state,
                puzzle.seat,
                attempt.choice,
                attempt.verdict.evaluation,
                source="puzzle",
                ref=puzzle.id,
                themes=puzzle.themes,
                at=at,
            ),
        )


def save_hinted(store: Store, puzzle: Puzzle, progress: PuzzleProgress) -> None:
    """Keep the ratings a hint moved (asked before any answer, it counts the puzzle as missed);
    no attempt is kept: the learner chose nothing."""
    with store.transaction() as db:
        _keep_ratings(db, puzzle, progress, now())


def _keep_ratings(db, puzzle: Puzzle, progress: PuzzleProgress, at: str) -> None:
    """The learner's rating and the puzzle's record as ``progress`` holds them."""
    record = progress.record_for(puzzle)
    learner = progress.learner
    db.execute(
        "INSERT INTO puzzle_learner (id, rating, deviation, volatility, attempts, updated_at) "
        "VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET rating = excluded.rating, "
        "deviation = excluded.deviation, volatility = excluded.volatility, "
        "attempts = excluded.attempts, updated_at = excluded.updated_at",
        (learner.rating, learner.deviation, learner.volatility, progress.attempts, at),
    )
    db.execute(
        "INSERT INTO puzzle_records (puzzle, rating, deviation, volatility, attempts, solved, box, due, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (puzzle) DO UPDATE SET "
        "rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, "
        "attempts = excluded.attempts, solved = excluded.solved, box = excluded.box, "
        "due = excluded.due, updated_at = excluded.updated_at",
        (
            puzzle.id,
            record.rating.rating,
            record.rating.deviation,
            record.rating.volatility,
            record.attempts,
            record.solved,
            record.box,
            record.due,
            at,
        ),
    )


MODES = ("puzzles", "practice", "streak")


def open_board(
    store: Store | None = None, mode: str | None = None, today: dt.date | None = None
) -> PuzzleBoard:
    """The puzzles page's board in ``mode`` (``MODES``; anything else: ``puzzles``): practice is
    a session from the learner's own mistakes (``trainer.review.practice``) dated ``today``;
    the streak starts from the kept one. Every answer is kept as it happens."""
    notices = []
    if store is None:
        store, notice = open_store()
        notices.append(notice)
    streak_readable = True

    def keep(attempt, progress) -> None:
        try:
            save_attempt(store, attempt, progress)
            if board.mode == "practice" and board.last_item is not None:
                save_item(store, board.last_item)
            if board.mode == "streak" and streak_readable:  # an unreadable kept row stays as it is
                save_streak(store, board.streak)
        except StoreError as error:  # busy or out of reach: the puzzle goes on, unsaved, and says so
            board.notice = str(error)

    def keep_hinted(puzzle, progress) -> None:
        try:
            save_hinted(store, puzzle, progress)
            if board.mode == "practice" and board.last_item is not None:
                save_item(store, board.last_item)
        except StoreError as error:
            board.notice = str(error)

    def keep_streak(streak) -> None:
        if not streak_readable:  # an unreadable kept row stays as it is
            return
        try:
            save_streak(store, streak)
        except StoreError as error:
            board.notice = str(error)

    board = PuzzleBoard(progress=load_progress(store), on_attempt=keep)
    board.on_streak = keep_streak
    board.on_hinted = keep_hinted
    if mode == "streak":
        streak, problem = load_streak(store)
        streak_readable = not problem
        notices.append(problem)
        board.start_streak(streak)
    elif mode == "practice":
        notices += _start_practice(board, store, today or dt.date.today())
    board.notice = " ".join(filter(None, notices))
    board.store = store
    return board


def _start_practice(board: PuzzleBoard, store: Store, today: dt.date) -> list[str]:
    """Build the session and put it on the board; one line for each kept row left out."""
    from ..review.practice import practice_session  # the review reads progress: imported when used

    items, unreadable = load_items(store)
    decisions, unread = readable_decisions(store)
    games, unread_games = readable_games(store)
    picks = practice_session(
        board.trainer.library,
        board.ratings.phases,
        board.trainer.progress,
        items,
        decisions,
        games,
        today,
        leave=frozenset(unreadable),
    )
    board.start_practice(
        [pick.puzzle for pick in picks],
        {pick.puzzle.id: pick.why for pick in picks},
        {pick.puzzle.id: pick.source for pick in picks},
        items,
        today,
    )
    return [*unreadable.values(), *unread[:3], *unread_games[:3]]
