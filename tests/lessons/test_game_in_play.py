"""A game at a lesson's table survives: kept after every card, resumed exactly on reopening,
a finished game shows its result and review link at once, and a hand in progress is thrown
away only when the learner confirms."""

from __future__ import annotations

import pytest

from engine import Rules, hand_to_record
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
    session = runner.widget.session
    assert session.hand_index == 0 and session.game.is_plain  # a new game, from its first hand


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
            if step.kind == "game":  # a game step deals a new game: its first hand, as dealt
                assert shown.hand_index == 0 and shown.game.is_plain and not shown.score_rows, (key, step.key)
                continue
            assert shown.hand.dealt == expected.dealt, (key, step.key)
            assert [repr(a) for a in shown.hand.history[: len(expected.history)]] == [
                repr(a) for a in expected.history
            ], (key, step.key)
            assert shown.score_rows[: len(step.score_rows)] == list(step.score_rows), (key, step.key)


def test_every_new_game_is_a_fresh_deal_also_after_choosing_another_level(runner_for, tmp_path) -> None:
    from trainer.lessons.catalog import LESSONS
    from trainer.store import Store

    first = runner_for("l09_play")
    other = LessonRunner(LESSONS["l09_play"], Store(tmp_path / "other.sqlite3"))  # another learner
    try:
        deals = [first.widget.session.hand.dealt, other.widget.session.hand.dealt]
        first.set_variant("Hard bots")
        deals.append(first.widget.session.hand.dealt)
        first.set_variant("Easy bots, game to 50")
        deals.append(first.widget.session.hand.dealt)
    finally:
        other.close()
    assert len(set(deals)) == len(deals), "a new game repeated a deal"
    session = first.widget.session
    assert session.game.is_plain and session.hand_index == 0  # a whole game follows from its seed


def test_a_deal_seed_makes_the_games_deals_reproducible(store, tmp_path, monkeypatch) -> None:
    from trainer.lessons.catalog import LESSONS
    from trainer.store import Store

    monkeypatch.setenv("HEARTS_BOT_DELAY", "0")
    runners = [
        LessonRunner(LESSONS["l09_play"], Store(tmp_path / f"{n}.sqlite3"), deal_seed=7) for n in range(2)
    ]
    try:
        for runner in runners:
            runner.set_variant("Normal bots")
        assert (
            runners[0].widget.session.to_record()["hands"] == runners[1].widget.session.to_record()["hands"]
        )
        assert runners[0].widget.session.seed == runners[1].widget.session.seed
    finally:
        for runner in runners:
            runner.close()


def test_take_back_after_game_over_is_refused_and_the_kept_game_stays(open_lesson, store) -> None:
    from trainer.progress.games import load_games

    runner = open_lesson()
    widget = runner.widget
    runner.set_variant("Easy bots, game to 50")
    while not widget.session.winners:
        learner_moves(runner, 1)
    (kept,) = load_games(store)
    before = widget.session.to_record()
    with pytest.raises(TableError) as refused:
        widget.act({"type": "take_back"})
    assert refused.value.reason == "game_over" and "kept for review" in refused.value.message
    assert widget.session.to_record() == before and widget.session.winners
    (again,) = load_games(store)
    assert [hand_to_record(h) for h in again.hands] == [hand_to_record(h) for h in kept.hands]


def test_a_game_set_up_part_way_is_not_kept_so_its_last_card_can_be_taken_back(open_lesson, store) -> None:
    from trainer.progress.games import load_games

    runner = open_lesson()
    widget, session = runner.widget, runner.widget.session
    widget.set_position(session.hand.copy(), [(0, 26, 26, 26)] * 4)  # over after this hand
    while not session.hand.is_over:
        learner_moves(runner, 1)
    assert session.winners and not load_games(store)
    widget.act({"type": "take_back"})  # nothing was kept: the learner may try the end again
    assert not session.hand.is_over and not session.winners
