"""Puzzle ratings from how every career level's bots answer them (issue 55), kept in their own file
so that re-verifying a puzzle never resets its rating; learners' results move it from there."""

from __future__ import annotations

import json
import shutil

from engine.bots.ladder import level_keys
from trainer.puzzles.board import PuzzleBoard
from trainer.puzzles.format import PUZZLES_DIR, load_puzzle, save_puzzle
from trainer.puzzles.library import open_library, write_index
from trainer.puzzles.ratings import FORMAT, RATINGS_NAME, TRIES, level_ratings, load_ratings, write_ratings
from trainer.puzzles.source import read_toml

PLAYS = ("play-003.toml", "play-004.toml")


def test_the_levels_are_the_scale_easy_normal_and_hard_where_they_were() -> None:
    scale = level_ratings()
    assert list(scale) == list(level_keys()) == list(TRIES)
    assert (scale["level-2"], scale["level-7"], scale["level-10"]) == (1000.0, 1400.0, 1800.0)
    values = list(scale.values())
    assert values == sorted(values) and len(set(values)) == len(values)  # each level above the last


def test_the_command_rates_only_the_puzzles_its_file_lacks(tmp_path) -> None:
    for name in PLAYS:
        shutil.copy(PUZZLES_DIR / name, tmp_path / name)
    first, second = (load_puzzle(tmp_path / name) for name in PLAYS)
    lines: list[str] = []
    assert write_ratings([first], tmp_path, lines.append)[0] == 1
    kept = json.loads((tmp_path / RATINGS_NAME).read_text())["puzzles"][first.id]
    lines.clear()
    assert write_ratings([first, second], tmp_path, lines.append)[0] == 1
    assert len(lines) == 1 and lines[0].startswith(f"1/1 {second.id}: ")
    table = json.loads((tmp_path / RATINGS_NAME).read_text())["puzzles"]
    assert table[first.id] == kept and set(table) == {first.id, second.id}
    row = table[second.id]
    assert len(row["solved"]) == len(TRIES)
    assert all(0 <= solved <= tries for solved, tries in zip(row["solved"], TRIES.values(), strict=True))
    ratings = load_ratings(tmp_path)
    assert ratings.problem == "" and ratings.phases[second.id] in ("early", "middle", "late")
    assert round(ratings.ratings[second.id].rating) == row["rating"]


def test_a_re_verified_file_keeps_its_rating_and_learners_move_it_from_there(tmp_path) -> None:
    for name in PLAYS:
        shutil.copy(PUZZLES_DIR / name, tmp_path / name)
    puzzles = [load_puzzle(tmp_path / name) for name in PLAYS]
    write_ratings(puzzles, tmp_path, lambda _line: None)
    rated = load_ratings(tmp_path).ratings[puzzles[0].id]
    data = read_toml(tmp_path / PLAYS[0])  # re-verification rewrites the file's figures and difficulty
    data["difficulty"] = 2900
    save_puzzle(data, tmp_path / PLAYS[0])
    write_index(tmp_path)
    board = PuzzleBoard(tmp_path)
    try:
        puzzle = load_puzzle(tmp_path / PLAYS[0])
        assert board.trainer.progress.record_for(puzzle).rating == rated
        board.trainer.current = puzzle
        board.trainer.answer(puzzle.answer.accepted[0])  # solved: the puzzle was easier than rated
        assert board.trainer.progress.record_for(puzzle).rating.rating < rated.rating
        assert load_ratings(tmp_path).ratings[puzzle.id] == rated  # the shared file is not changed
    finally:
        board.widget.close()


def test_a_bad_ratings_file_is_named_in_one_line_and_refused_not_replaced(tmp_path) -> None:
    shutil.copy(PUZZLES_DIR / PLAYS[0], tmp_path / PLAYS[0])
    write_index(tmp_path)
    bad = json.dumps({"format": FORMAT, "version": 1, "puzzles": {"play-003": {"rating": "high"}}})
    (tmp_path / RATINGS_NAME).write_text(bad)
    ratings = load_ratings(tmp_path)
    assert ratings.ratings == {} and "\n" not in ratings.problem
    line = "ratings.json: puzzles.'play-003'.rating: expected a number from 0 to 4000, not 'high'"
    assert line in ratings.problem
    lines: list[str] = []
    try:
        write_ratings([load_puzzle(tmp_path / PLAYS[0])], tmp_path, lines.append)
    except ValueError as error:
        assert str(error) == ratings.problem
    else:
        raise AssertionError("a bad ratings file was written over")
    assert (tmp_path / RATINGS_NAME).read_text() == bad and lines == []
    board = PuzzleBoard(tmp_path)
    try:
        assert board.library_notices == [ratings.problem]
        puzzle = load_puzzle(tmp_path / PLAYS[0])
        assert board.trainer.progress.record_for(puzzle).rating.rating == puzzle.difficulty
    finally:
        board.widget.close()


def test_every_puzzle_of_the_library_has_its_rating_from_the_levels() -> None:
    library = open_library(PUZZLES_DIR)
    ratings = load_ratings(PUZZLES_DIR)
    assert ratings.problem == ""
    missing = sorted({entry.id for entry in library.entries} - set(ratings.ratings))
    command = "python -m trainer.puzzles.ratings"
    assert not missing, f"{len(missing)} puzzles unrated ({missing[:3]}): run {command}"


def test_the_rating_shown_is_the_one_the_rating_filter_reads() -> None:
    board = PuzzleBoard()
    try:
        ratings = load_ratings(PUZZLES_DIR).ratings
        entries = {entry.id: entry for entry in board.trainer.puzzles}
        # a puzzle whose evidence rating and file difficulty differ by more than the band
        moved = next(
            i for i, r in ratings.items() if i in entries and abs(r.rating - entries[i].difficulty) > 100
        )
        low = high = round(ratings[moved].rating)
        assert board.difficulty_range[0] <= low <= board.difficulty_range[1]
        for _ in range(5):
            assert board.show_next(difficulty=(low, high))
            shown = board.trainer.current
            assert round(ratings[shown.id].rating) == low
            assert board.prompt_markdown().endswith(f"Puzzle {shown.id}, rating {low}.*")
    finally:
        board.widget.close()
