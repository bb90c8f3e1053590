"""Practice from the learner's own mistakes (issue 55): a session built from their stored decisions
(weakest themes and phases first) and their reviewed games' key moments, brought back over days
until solved; the streak kept across a reload and in exported progress; bad kept rows named in
one line each, and left as they are."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace

import pytest

from tests.review.history import history_decisions
from tests.review.test_review import BUDGET, learner_hand
from trainer.lessons.home import due_today_markdown
from trainer.progress.decisions import option_text, readable_decisions, record_decisions
from trainer.progress.games import game_record, load_game, readable_games, save_game
from trainer.progress.practice import load_items, load_streak
from trainer.progress.puzzles import open_board
from trainer.progress.transfer import ProgressFileError, export_bytes, import_progress
from trainer.puzzles.practice import DAYS, due_markdown
from trainer.review.game import review_game
from trainer.review.practice import own_moments, practise_markdown, weak_areas
from trainer.review.replay import moment_id
from trainer.review.stored import keep_review, stored_review
from trainer.site import PUZZLES
from trainer.store import Store

DAY = dt.date(2026, 3, 2)


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A one-hand game with a known blunder, reviewed and kept, and the twelve decisions of
    ``tests.review.history`` (queen of spades the costliest theme; the pass, then the middle
    tricks, the costliest phases)."""
    hand, made = learner_hand(blunder=True)
    assert made is not None
    store = Store(tmp_path_factory.mktemp("practice") / "p.sqlite3")
    record = game_record([hand], 0, dict.fromkeys((1, 2, 3), "normal"))
    game_id = save_game(store, record, "l09_play/game/1")
    keep_review(store, review_game(load_game(store, game_id), BUDGET, workers=1))
    record_decisions(store, history_decisions(game_id))
    path = store.path
    store.close()
    return path


@pytest.fixture
def store(history, tmp_path):
    """A fresh copy of the history for each test (practice writes to it)."""
    copy = tmp_path / "p.sqlite3"
    copy.write_bytes(history.read_bytes())
    opened = Store(copy)
    yield opened
    opened.close()


def answer(board, right: bool):
    """Answer the puzzle on the board as the table does: an accepted answer, or one that is not."""
    puzzle = board.trainer.current
    options = [option_text(value.option) for value in puzzle.evaluation.options]
    choice = next(text for text in options if puzzle.is_accepted(text) == right)
    if puzzle.kind == "pass":
        event = {"type": "pass", "cards": choice.split()}
    else:
        event = {"type": "play", "card": choice}
    board._on_event({**event, "seat": puzzle.seat})
    assert board.last is not None and board.last.solved == right, board.error
    return board.last


def session(store, day):
    board = open_board(store, "practice", today=day)
    return board, list(board.trainer.queue)


def test_the_session_puts_own_key_moments_first_then_the_weakest_themes_and_phases(store) -> None:
    areas = weak_areas(readable_decisions(store)[0])
    # the history's costliest theme (4.67 a decision over 3), then what the reviewed game adds
    assert (areas[0].kind, areas[0].name) == ("theme", "queen_of_spades")
    assert [a.mean_loss for a in areas if a.kind == "theme"] == sorted(
        (a.mean_loss for a in areas if a.kind == "theme"), reverse=True
    )
    assert all(a.mean_loss > a.average for a in areas) and {a.kind for a in areas} == {"theme", "phase"}
    board, ids = session(store, DAY)
    assert board.notice == ""
    moments = [i for i in ids if board.sources[i] == "moment"]
    assert moments and ids[: len(moments)] == moments  # own key moments first
    assert all(i.startswith("review-g1-h1-") and "From your game of" in board.whys[i] for i in moments)
    library = [i for i in ids if board.sources[i] == "library"]
    assert len(ids) == 10 and len(set(ids)) == 10 and len(library) >= len(areas)
    for area, puzzle_id in zip(areas, library, strict=False):  # one puzzle an area, weakest first
        entry = next(e for e in board.trainer.library.entries if e.id == puzzle_id)
        if area.kind == "theme":
            assert area.name in entry.themes, (area, entry)
        else:
            assert board.ratings.phases.get(puzzle_id, entry.kind) == area.name, (area, entry)
        assert board.whys[puzzle_id] == area.why
    board.show_next()
    assert board.trainer.current.id == ids[0]
    assert f"Practice: puzzle 1 of 10.** {board.whys[ids[0]]}" in board.prompt_markdown()
    board.widget.close()


def test_a_missed_moment_comes_back_by_days_until_solved_on_each_due_day(store) -> None:
    board, ids = session(store, DAY)
    moment = ids[0]
    board.show_next()
    assert not answer(board, right=False).solved
    assert board.last_item.due == DAY + dt.timedelta(days=1)
    assert "Due again on 2026-03-03 (in 1 day)" in board.status_markdown()
    board.widget.close()

    assert moment not in session(store, DAY)[1]  # not again the same day
    day = DAY + dt.timedelta(days=1)
    items, _ = load_items(store)
    assert due_markdown(items.values(), day, "/p") == "**[1 puzzle due today: 1 of your own mistakes →](/p)**"
    assert due_markdown(items.values(), DAY, "/p") == ""
    for gap in (*DAYS[1:], None):  # solved on every due day: 3, 7, 16, 35 days, then learnt
        board, ids = session(store, day)
        assert ids[0] == moment and "Due today" in board.whys[moment]
        board.show_next()
        assert answer(board, right=True).solved
        board.widget.close()
        if gap is None:
            assert board.last_item.due is None and board.last_item.learnt
            break
        assert board.last_item.due == day + dt.timedelta(days=gap)
        assert moment not in session(store, day + dt.timedelta(days=gap - 1))[1]  # not before it is due
        day += dt.timedelta(days=gap)
    assert moment not in session(store, day + dt.timedelta(days=400))[1]


def test_a_miss_after_solves_starts_the_days_again(store) -> None:
    board, _ids = session(store, DAY)
    board.show_next()
    answer(board, right=True)  # an own moment, solved at first sight: back in 3 days
    assert board.last_item.due == DAY + dt.timedelta(days=DAYS[1])
    board.widget.close()
    board, _ids = session(store, DAY + dt.timedelta(days=3))
    board.show_next()
    answer(board, right=False)
    assert board.last_item.step == 0 and board.last_item.due == DAY + dt.timedelta(days=4)
    board.widget.close()


def test_the_streak_survives_a_reload_and_an_export(store, tmp_path) -> None:
    board = open_board(store, "streak")
    for right in (True, True, True, False):
        board.show_next()
        answer(board, right)
    assert board.streak_markdown() == "**Streak over.** Best **3**: the next puzzle starts a new one."
    board.show_next()
    answer(board, right=True)
    assert (board.streak.current, board.streak.best) == (1, 3)
    board.widget.close()
    again = open_board(store, "streak")  # a reload
    assert (again.streak.current, again.streak.best) == (1, 3)
    again.show_next()
    assert again.streak_markdown() == "Streak: **1** in a row · best **3**"
    again.widget.close()
    (tmp_path / "out.json").write_bytes(export_bytes(store))
    other = Store(tmp_path / "other.sqlite3")
    import_progress(other, tmp_path / "out.json")
    assert load_streak(other) == (load_streak(store)[0], "")
    other.close()


def test_a_hint_ends_the_streak_even_if_the_puzzle_is_then_skipped(store) -> None:
    # The page says "a hint counts as [a miss]": Next after a hint must not keep the streak.
    board = open_board(store, "streak")
    board.show_next()
    answer(board, right=True)
    board.show_next()
    board.widget.act({"type": "hint"})
    assert (board.streak.current, board.streak.best) == (0, 1)
    assert board.streak_markdown().startswith("**Streak over.**")
    board.show_next()  # skipped, unanswered
    board.widget.close()
    again = open_board(store, "streak")  # and so it is kept
    assert (again.streak.current, again.streak.best) == (0, 1)
    again.widget.close()


@pytest.mark.parametrize("mode", ["puzzles", "practice"])
def test_a_hint_then_next_counts_the_puzzle_as_missed_and_keeps_it(store, mode) -> None:
    # A hint gives the answer away: moving on without answering must count the miss (rating and
    # schedule) as answering would, kept across a reload; an answer after it is not counted again.
    board = open_board(store, mode, today=DAY)
    board.show_next()
    puzzle = board.trainer.current
    before = board.trainer.progress.learner.rating
    board.widget.act({"type": "hint"})
    record = board.trainer.progress.records[puzzle.id]
    assert (record.attempts, record.solved, record.box) == (1, 0, 0)
    assert board.trainer.progress.learner.rating < before
    if mode == "practice":
        assert board.last_item.puzzle == puzzle.id and board.last_item.due == DAY + dt.timedelta(days=1)
    board.show_next()  # skipped, unanswered
    board.widget.close()
    again = open_board(store, mode, today=DAY)  # a reload
    kept = again.trainer.progress.records[puzzle.id]
    assert (kept.attempts, kept.solved, kept.box) == (1, 0, 0)
    assert again.trainer.progress.learner.rating == pytest.approx(board.trainer.progress.learner.rating)
    if mode == "practice":
        assert load_items(store)[0][puzzle.id].due == DAY + dt.timedelta(days=1)
    assert store.query("SELECT COUNT(*) FROM puzzle_attempts WHERE puzzle = ?", (puzzle.id,))[0][0] == 0
    again.widget.close()

    board = open_board(store, "puzzles")  # hint, then the answer: one miss, not two
    board.show_next()
    puzzle = board.trainer.current
    board.widget.act({"type": "hint"})
    attempt = answer_hinted(board)
    assert attempt.accepted and not attempt.solved and not attempt.counted
    record = board.trainer.progress.records[puzzle.id]
    assert (record.attempts, record.solved) == (1, 0)
    assert "Right, with a hint" in board.verdict_markdown()
    board.widget.close()


def answer_hinted(board):
    """Play the hint's answer as the table does."""
    puzzle, hinted = board.trainer.current, board.widget.table["hint"]
    pass_event = {"type": "pass", "cards": hinted}
    event = pass_event if puzzle.kind == "pass" else {"type": "play", "card": hinted[0]}
    board._on_event({**event, "seat": puzzle.seat})
    assert board.last is not None, board.error
    return board.last


def test_a_hint_after_a_right_answer_keeps_the_streak(store) -> None:
    board = open_board(store, "streak")
    board.show_next()
    answer(board, right=True)
    board.widget.act({"type": "hint"})  # the answer is in: the hint only shows the best one
    assert (board.streak.current, board.streak.best) == (1, 1)
    assert board.streak_markdown() == "Streak: **1** in a row · best **1**"
    board.widget.close()


def test_bad_kept_rows_give_one_line_each_and_stay_as_they_are(store) -> None:
    with store.transaction() as db:
        db.execute(
            "INSERT INTO practice_items VALUES "
            "('pass-001', 'library', 1, '2026-13-45', 2, 1, '2026-01-01T00:00:00')"
        )
        db.execute("INSERT INTO puzzle_streak VALUES (1, 9, 4, '2026-01-01T00:00:00')")
    before = {table: store.query(f"SELECT * FROM {table}") for table in ("practice_items", "puzzle_streak")}
    board, ids = session(store, DAY)
    line = "practice_items row 'pass-001', due: '2026-13-45' is not a day (YYYY-MM-DD): left out"
    assert board.notice == line
    assert "pass-001" not in ids
    board.show_next()
    answer(board, right=False)
    board.widget.close()
    streak = open_board(store, "streak")
    assert streak.notice == "puzzle_streak: current 9, best 4: not kept counts"
    streak.show_next()
    answer(streak, right=True)
    streak.widget.close()
    assert store.query("SELECT * FROM puzzle_streak") == before["puzzle_streak"]
    assert store.query("SELECT * FROM practice_items WHERE puzzle = 'pass-001'") == before["practice_items"]


def test_with_nothing_kept_practice_says_what_to_do(tmp_path) -> None:
    empty = Store(tmp_path / "p.sqlite3")
    board = open_board(empty, "practice", today=DAY)
    assert not board.show_next()
    assert board.prompt_markdown().startswith("**Nothing to practise yet.**")
    board.widget.close()
    empty.close()


def test_an_exported_practice_schedule_imports_whole(store, tmp_path) -> None:
    board, _ids = session(store, DAY)
    board.show_next()
    answer(board, right=False)
    board.widget.close()
    document = json.loads(export_bytes(store))
    assert [row["puzzle"] for row in document["tables"]["practice_items"]] == [board.last_item.puzzle]
    (tmp_path / "out.json").write_bytes(export_bytes(store))
    other = Store(tmp_path / "other.sqlite3")
    import_progress(other, tmp_path / "out.json")
    assert load_items(other) == load_items(store)
    other.close()


def test_practise_this_says_what_a_session_today_holds(store) -> None:
    decisions, games = readable_decisions(store)[0], readable_games(store)[0]

    def line(day):
        return practise_markdown(decisions, games, load_items(store)[0], day, "/p")

    head = "**[Practise this →](/p)** A session of puzzles of your weakest themes (queen of spades"
    assert line(DAY).startswith(head)
    moments = len(stored_review(games[-1]).moments)
    assert f" and {min(moments, 5)} key moment" in line(DAY)
    board, _ids = session(store, DAY)
    board.show_next()
    answer(board, right=False)  # the first moment, missed: due tomorrow
    board.widget.close()
    fresh = min(moments - 1, 4)
    assert (f" and {fresh} key moment" in line(DAY)) if fresh else ("key moment" not in line(DAY))
    assert f" and {min(moments, 5)} key moment" in line(DAY + dt.timedelta(days=1))


def test_practise_this_with_weak_phases_only_reads_as_a_sentence() -> None:
    # The history's decisions with no theme tagged: the pass and the middle tricks still cost most.
    untagged = [replace(decision, themes=()) for decision in history_decisions(1)]
    line = practise_markdown(untagged, [], {}, DAY, "/p")
    assert line.startswith(
        "**[Practise this →](/p)** A session of puzzles of the phases where you lose most "
        "(the pass and middle tricks). A puzzle you miss"
    ), line


def test_the_home_page_counts_only_the_due_puzzles_the_session_shows(store) -> None:
    board, ids = session(store, DAY)
    board.show_next()
    missed = board.trainer.current.id
    answer(board, right=False)  # the first key moment, missed: due tomorrow
    board.widget.close()
    # Due tomorrow too: a key moment the game's kept review no longer has (a re-review changed
    # it) and a puzzle the library no longer has. The session cannot show either.
    kept = {moment.id for moment in own_moments(readable_games(store)[0])}
    gone = next(moment_id(1, 0, trick) for trick in range(14) if moment_id(1, 0, trick) not in kept)
    with store.transaction() as db:
        for puzzle, source in ((gone, "moment"), ("pass-dropped-1", "library")):
            db.execute(
                "INSERT INTO practice_items VALUES (?, ?, 0, '2026-03-03', 1, 0, '2026-03-02T00:00:00')",
                (puzzle, source),
            )
    day = DAY + dt.timedelta(days=1)
    items = load_items(store)[0]
    assert due_markdown(items.values(), day, "/p").startswith("**[3 puzzles due today")  # every kept row
    board, ids = session(store, day)
    shown_due = [i for i in ids if board.whys[i].startswith("Due today")]
    board.widget.close()
    assert shown_due == [missed]
    link = f"{PUZZLES}?mode=practice"
    assert due_today_markdown(store, day) == f"**[1 puzzle due today: 1 of your own mistakes →]({link})**"


def test_an_imported_file_with_a_bad_practice_row_is_refused_in_one_line(store, tmp_path) -> None:
    document = json.loads(export_bytes(store))
    row = {"puzzle": "pass-001", "source": "library", "step": 1, "due": "2026-02-30", "attempts": 1}
    document["tables"]["practice_items"] = [{**row, "solved": 1, "updated_at": "2026-01-01T00:00:00"}]
    document["tables"]["puzzle_streak"] = []
    (tmp_path / "bad.json").write_text(json.dumps(document))
    other = Store(tmp_path / "other.sqlite3")
    with pytest.raises(ProgressFileError) as refused:
        import_progress(other, tmp_path / "bad.json")
    assert str(refused.value).endswith(
        "bad.json: tables.practice_items[0].due: '2026-02-30' is not a day of the calendar."
    )
    assert other.query("SELECT COUNT(*) FROM practice_items") == [(0,)]
    assert other.query("SELECT COUNT(*) FROM decisions") == [(0,)]  # nothing of the file was merged
    other.close()
