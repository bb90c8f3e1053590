"""A game at a lesson's table survives: kept after every card, resumed exactly on reopening,
a finished game shows its result and review link at once, and a hand in progress is thrown
away only when the learner confirms."""

from __future__ import annotations

import pytest

from engine import Rules
from tests.table_moves import next_move
from trainer.lessons.runner import REVIEW_ADDRESS, LessonRunner
from trainer.progress.tables import load_table, save_table
from trainer.table import TableError, TableSession


@pytest.fixture
def open_lesson(runner_for):
    """Lesson 9 unless another is named (``runner_for`` is in conftest.py)."""

    def make(key: str = "l09_play") -> LessonRunner:
        return runner_for(key)

    return make


def learner_moves(runner: LessonRunner, count: int) -> None:
    """``count`` learner decisions (a pass or a card), as the browser would send them."""
    widget = runner.widget
    for _ in range(count):
        widget.wait_for_bots()
        hand = widget.session.hand
        if hand.is_over:
            widget.act({"type": "new_hand"})
        elif hand.phase.value == "passing":
            widget.act({"type": "pass", "cards": [c.code for c in list(hand.hand(0))[-3:]]})
        else:
            widget.act({"type": "play", "card": hand.legal_cards()[0].code})
    widget.wait_for_bots()


def test_reopening_the_lesson_resumes_the_same_game_card_for_card(open_lesson, store) -> None:
    first = open_lesson()
    first.set_variant("Normal bots")
    learner_moves(first, 7)
    before = first.widget.session
    history = [repr(a) for a in before.hand.history]
    cards = before.hand.hand(0)
    first.close()

    again = open_lesson()  # a reload: a new notebook session on the same progress file
    session = again.widget.session
    assert again.variant == "Normal bots"
    assert [repr(a) for a in session.hand.history] == history
    assert session.hand.hand(0) == cards
    assert session.game_key == before.game_key
    assert {bot.name for bot in session.bots.values()} == {"normal"}
    learner_moves(again, 1)  # and it plays on from there
    assert len(session.hand.history) > len(history)


def test_every_card_is_kept_as_it_is_played(open_lesson, store) -> None:
    runner = open_lesson()
    learner_moves(runner, 3)
    variant, record = load_table(store, "l09_play/game")
    assert record == runner.widget.session.to_record()
    assert variant == runner.variant


def test_a_damaged_saved_game_is_reported_and_a_new_one_dealt(open_lesson, store) -> None:
    save_table(store, "l09_play/game", "Easy bots", {"format": "hearts-trainer/table-session", "version": 1})
    runner = open_lesson()
    assert "cannot be resumed" in runner.notice
    dealt = runner.step.context(runner.variant).state.dealt
    assert runner.widget.session.hand.dealt == dealt  # the step's own deal, from its start


def test_a_finished_game_shows_its_result_and_review_link_at_once(open_lesson) -> None:
    runner = open_lesson()
    session = runner.widget.session
    runner.widget.set_position(session.hand.copy(), [(0, 26, 26, 26)] * 4)  # over after this hand
    while not session.hand.is_over:
        learner_moves(runner, 1)
    table = runner.widget.table
    assert table["winners"] and "Game over" in table["status"]
    assert table["review_href"] is None  # a game set up part-way is not kept for review


def test_a_game_played_from_its_first_hand_links_to_its_review(store) -> None:
    session = TableSession(Rules(target=26), seed=3, hints=None)
    session.review_href = REVIEW_ADDRESS
    while not session.winners:
        next_move(session)
    from trainer.table.snapshot import snapshot

    assert snapshot(session)["review_href"] == REVIEW_ADDRESS


def test_a_new_deal_mid_hand_needs_the_learners_yes() -> None:
    session = TableSession(Rules(), seed=5, hints=None)
    assert not session.hand_in_progress
    session.new_hand()  # nothing played yet: nothing is lost
    session.bot_step()
    session.pass_selected([c.code for c in list(session.hand.hand(0))[:3]])
    assert session.hand_in_progress
    before = session.to_record()
    with pytest.raises(TableError) as refused:
        session.new_hand()
    assert refused.value.reason == "hand_in_progress"
    assert session.to_record() == before  # refused: nothing changed
    session.new_hand(discard=True)
    assert not session.hand.history and session.hand_index == 0


def test_a_record_from_another_seat_or_damaged_changes_nothing() -> None:
    session = TableSession(Rules(), seed=5, hints=None)
    other = TableSession(Rules(), seed=6, seat=1, hints=None)
    before = session.to_record()
    for bad in (other.to_record(), {"format": "x"}, None, {**before, "hands": []}, {**before, "seat": "0"}):
        with pytest.raises(TableError):
            session.resume(bad)
        assert session.to_record() == before


def test_a_record_resumes_every_hand_of_the_game() -> None:
    session = TableSession(Rules(target=40), seed=8, hints=None)
    for _ in range(200):
        if session.winners:
            break
        next_move(session, last_legal=True)
    copy = TableSession(Rules(), seed=0, hints=None)
    copy.resume(session.to_record())
    assert copy.score_rows == session.score_rows and copy.totals == session.totals
    assert copy.winners == session.winners and copy.hand_index == session.hand_index
    assert copy.to_record() == session.to_record()


def test_moving_between_steps_always_sets_the_steps_own_position(open_lesson) -> None:
    for key in ("l01_game", "l06_scoring", "l08_strategy"):
        runner = open_lesson(key)
        order = [*range(len(runner.lesson.steps)), *reversed(range(len(runner.lesson.steps) - 1))]
        for index in order:
            step = runner.go(index)
            runner.widget.wait_for_bots()
            expected = step.context(runner.variant).state
            shown = runner.widget.session
            assert shown.hand.dealt == expected.dealt, (key, step.key)
            assert [repr(a) for a in shown.hand.history[: len(expected.history)]] == [
                repr(a) for a in expected.history
            ], (key, step.key)
            assert shown.score_rows[: len(step.score_rows)] == list(step.score_rows), (key, step.key)
