"""The analysis page's logic without a browser: the picker's requests edit the draft; only a
position the engine accepts becomes the board's position (its address, what it analyses); a
text that is not cards, or an impossible edit, says why in one line and keeps that position."""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import unquote

import pytest

from engine import PassDirection
from trainer.analysis import AnalysisPosition, Trick, from_address, from_puzzle, parse_cards, to_address
from trainer.analysis.board import DEPTH_HOOK, AnalysisBoard, _moon_text, analysis_depth

HAND = "2C 7C KC 3D 9D QD AD 4S QS AS 5H JH KH"


def pass_board() -> AnalysisBoard:
    board = AnalysisBoard()
    board.set_table(4, "standard", "pass", "left", "")
    board.request({"type": "paste", "target": "hand", "text": HAND})
    return board


def test_cards_clicked_or_pasted_make_the_position_and_its_address() -> None:
    board = AnalysisBoard()
    for code in HAND.split():
        board.request({"type": "card", "target": "hand", "card": code})
    expected = AnalysisPosition(4, "standard", "pass", parse_cards(HAND), PassDirection.LEFT)
    assert board.position == expected and board.problem == ""
    assert board.address == to_address(expected)
    assert pass_board().position == expected
    board.request({"type": "card", "target": "hand", "card": "KH"})  # clicked again: taken out
    assert board.hand == HAND.split()[:-1]
    assert board.problem.startswith("hand") and board.picker.message == board.problem
    assert board.position == expected  # the last good position stays


def test_a_text_that_is_not_cards_changes_nothing_and_says_why_in_one_line() -> None:
    board = pass_board()
    before = (board.position, board.address, list(board.hand))
    board.request({"type": "paste", "target": "hand", "text": "AS ZZ"})
    assert (board.position, board.address, list(board.hand)) == before
    message = board.picker.message
    assert message.startswith("hand: ") and "ZZ" in message
    assert "\n" not in message and len(message) <= 300


def test_a_board_opened_from_an_address_holds_that_position_in_its_draft() -> None:
    position = AnalysisPosition(
        4,
        "standard",
        "play",
        parse_cards("3C 8C JC 4D 10D KD 2S 6S JS KS 3H 8H QH"),
        PassDirection.HOLD,
        tricks=(Trick(1, parse_cards("2C 9C QC")),),
    )
    board = AnalysisBoard(to_address(position))
    assert board.notice == "" and board.position == position
    assert board.draft() == position
    assert board.picker.setup["tricks"] == [{"leader": 1, "cards": ["2C", "9C", "QC"]}]


def test_an_address_that_does_not_read_is_named_and_the_board_starts_empty() -> None:
    board = AnalysisBoard("9.nothing")
    assert board.position is None
    assert board.notice.startswith("address") and "\n" not in board.notice


def test_scores_that_do_not_read_change_nothing() -> None:
    board = pass_board()
    board.set_table(scores="26 0 13")
    assert board.scores == () and board.picker.message.startswith("scores: expected 4 whole numbers")
    board.set_table(scores="26, 0, 13, 3")
    assert board.position.scores == (26, 0, 13, 3)


def test_the_play_out_table_shows_the_scores_the_position_was_given() -> None:
    """The page says "Scores before this hand: …": the table's score sheet must say the same, as
    one row "Before" (the hand's number in its game is not known, so no "Hand 1" badge)."""
    board = pass_board()
    board.set_table(scores="26, 0, 13, 3")
    widget = board.play_table(seed=5)
    try:
        table = widget.table
        assert table["score_rows"] == [[26, 0, 13, 3]] and table["totals"] == [26, 0, 13, 3]
        assert table["totals_carried"] and table["hand_number"] is None
    finally:
        widget.close()
    board.set_table(scores="0 0 0 0")  # a game's first hand: nothing carried, Hand 1
    widget = board.play_table(seed=5)
    try:
        assert widget.table["score_rows"] == [] and widget.table["hand_number"] == 1
    finally:
        widget.close()


def test_the_depth_hook_reads_a_number_of_deals(monkeypatch) -> None:
    monkeypatch.setenv(DEPTH_HOOK, "256")
    depth = analysis_depth()
    assert depth.play_samples == depth.pass_samples == 256 and depth.play_seconds is None
    monkeypatch.setenv(DEPTH_HOOK, "lots")
    with pytest.raises(ValueError, match=DEPTH_HOOK):
        analysis_depth()


def test_the_ranking_shown_is_the_analysis_row_by_row(monkeypatch) -> None:
    monkeypatch.setenv(DEPTH_HOOK, "128")
    board = pass_board()
    analysis = board.analyse()
    shown = board.ranking_html()
    assert shown.count("<tr data-option=") == len(analysis.rows) == 286
    first = analysis.rows[0]
    assert f'data-option="{" ".join(card.code for card in first.option)}"' in shown
    assert board.heatmap() is not None
    verdicts = board.verdicts_markdown()
    assert verdicts.count("**") >= 6  # three choices, each with its headline
    assert board.analyse() is analysis  # the same position is not analysed again
    # The moon column names whose moon each chance is, leaving out what would read 0%.
    row = replace(first, moon_by_seat=(0.25, 0.004, 0.012, 0.0))
    assert _moon_text(row, analysis.seats) == "you 25%, Across 1%"
    assert _moon_text(replace(first, moon_by_seat=(0.0, 0.0, 0.0, 0.0)), analysis.seats) == "—"


@pytest.mark.parametrize("kind", ["pass", "play"])
def test_an_answered_puzzle_links_to_its_position_on_the_board(kind) -> None:
    from trainer.puzzles.board import PuzzleBoard

    board = PuzzleBoard()
    assert board.show_next(kind=kind)
    puzzle = board.trainer.current
    assert board.analysis_markdown() == ""  # before an answer it would give the answer away
    board.last = board.trainer.answer(puzzle.answer.best)
    shown = board.analysis_markdown()
    address = unquote(re.search(r"\(/analysis/\?p=([^)]+)\)", shown).group(1))
    position = from_address(address)
    assert position == from_puzzle(puzzle) and position.moment == kind
    assert position.view().hand == puzzle.view.hand
    board.widget.close()
