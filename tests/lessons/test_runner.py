"""The lesson runner: table actions judged as a browser sends them, take-backs, progress, home."""

from __future__ import annotations

import itertools

import pytest

from trainer.lessons.catalog import LESSONS, lesson_address, next_lesson
from trainer.lessons.home import home_markdown, next_to_do
from trainer.lessons.progress import LessonProgressStore
from trainer.lessons.runner import NEW_HAND_NOTE, LessonRunner


def browser_sends(runner: LessonRunner, message: dict) -> None:
    runner.widget.set_state({"intent": {**message, "n": id(message)}})


def test_an_illegal_card_is_refused_by_the_table_and_judged_by_the_lesson(runner_for) -> None:
    runner = runner_for("l03_following")
    news = []
    runner.on_change(lambda: news.append(1))
    before = runner.widget.session.hand.hand(0)
    browser_sends(runner, {"type": "play", "card": "JS"})
    assert runner.verdict.code == "must_follow_suit" and not runner.verdict.correct
    assert runner.widget.error["reason"] == "must_follow_suit"
    assert runner.widget.session.hand.hand(0) == before
    assert news == [1]


def test_a_wrong_legal_play_is_taken_back_and_a_right_one_stands(runner_for) -> None:
    runner = runner_for("l08_strategy")
    start = runner.widget.session.hand.cards_played
    browser_sends(runner, {"type": "play", "card": "AD"})
    assert runner.verdict.code == "won"
    assert runner.widget.session.hand.cards_played == start  # the position is back
    browser_sends(runner, {"type": "play", "card": "8D"})
    assert runner.verdict.correct
    assert runner.widget.session.hand.cards_played > start
    kind, text = runner.feedback(None)
    assert kind == "success" and "ducks" in text


def test_a_pass_on_the_table_is_judged(runner_for) -> None:
    runner = runner_for("l02_passing")
    runner.go(1)
    browser_sends(runner, {"type": "pass", "cards": ["AH", "KH", "JD"]})
    assert runner.verdict.code == "kept_queen"
    assert runner.widget.session.hand.phase.value == "passing"  # taken back: pass again
    browser_sends(runner, {"type": "pass", "cards": ["QS", "AH", "KH"]})
    assert runner.verdict.correct
    assert runner.widget.session.hand.phase.value == "playing"


def test_a_rule_switch_sets_the_same_position_under_the_other_rule(runner_for) -> None:
    runner = runner_for("l05_first_trick")
    assert runner.widget.session.hand.why_not_play("QS", 0) is not None
    runner.set_variant(True)
    assert runner.widget.session.hand.rules.no_points_on_first_trick is False
    assert runner.widget.session.hand.why_not_play("QS", 0) is None
    assert runner.feedback("")[0] == "neutral"


def test_choices_are_recorded_and_the_lesson_resumes_where_it_stopped(runner_for, store) -> None:
    runner = runner_for("l05_first_trick")
    runner.go(1)
    assert runner.feedback("Yes")[0] == "danger"
    assert runner.feedback("No")[0] == "success"
    assert "Almost" in runner.finish()
    assert runner_for("l05_first_trick").index == 1


def test_finishing_with_every_check_right_completes_the_lesson(runner_for, store) -> None:
    runner = runner_for("l04_leading")
    lesson = runner.lesson
    for index, step in enumerate(lesson.steps):
        runner.go(index)
        right = {
            "two_of_clubs": "2C",
            "five_players": "The 3♣",
            "unbroken": "6C",
            "queen_lead": "Yes, at any time",
            "only_hearts": "Any of my hearts",
            "queen_breaks": "7C",
        }[step.key]
        assert runner.answer(right).correct
    assert "complete" in runner.finish()
    assert lesson_address("l05_first_trick") in runner.finished_message
    progress = LessonProgressStore(store)
    assert progress.of("l04_leading").completed
    assert "✓ complete" in home_markdown(progress)
    assert lesson_address("l01_game") in next_to_do(progress)


def test_every_lesson_links_to_the_next() -> None:
    keys = list(LESSONS)
    assert len(keys) == 9
    for key, following in itertools.pairwise(keys):
        assert next_lesson(key).key == following
    assert next_lesson(keys[-1]) is None


def test_lesson_9_sets_the_chosen_bots(runner_for) -> None:
    runner = runner_for("l09_play")
    runner.set_variant("Hard bots")
    assert {bot.name for bot in runner.widget.session.bots.values()} == {"hard"}
    assert runner.widget.table["seats"][1]["bot"] == "hard"
    kind, text = runner.feedback(None)
    assert kind == "neutral" and "Play the game to the end" in text  # a game in play is no wrong answer
    runner.set_variant("Normal bots, game to 50")
    assert {bot.name for bot in runner.widget.session.bots.values()} == {"normal"}
    assert runner.widget.session.rules.target == 50


def _home_row(progress: LessonProgressStore, number: int) -> str:
    (row,) = [r for r in home_markdown(progress).splitlines() if r.startswith(f"| {number} |")]
    return row


def test_the_home_page_shows_lesson_9_games_in_play_and_finished(runner_for, store) -> None:
    from engine import Rules
    from tests.review.history import play_bot_game
    from trainer.progress.games import game_record, save_game

    progress = LessonProgressStore(store)
    assert _home_row(progress, 9).endswith("| not started |")
    runner = runner_for("l09_play")
    runner.widget.act(
        {"type": "pass", "cards": [c.code for c in list(runner.widget.session.hand.hand(0))[:3]]}
    )
    assert "a game in play" in _home_row(progress, 9)  # the game the lesson keeps after every card
    runner.close()
    for key in ("0f3a", "l09_play/game/2b"):  # one kept before keys named their lesson, one after
        session = play_bot_game(Rules(target=26), len(key))
        save_game(store, game_record(session.game_hands, 0, session.opponents), key)
    assert "2 games finished, a game in play" in _home_row(progress, 9)
    assert "game" not in _home_row(progress, 8)  # lesson 8 has a game step too, but kept no game


def test_a_finished_game_answers_the_game_step_and_the_home_page_counts_it(runner_for, store) -> None:
    from tests.lessons.test_game_in_play import learner_moves

    runner = runner_for("l09_play")
    runner.set_variant("Easy bots, game to 50")
    while not runner.widget.session.winners:
        learner_moves(runner, 1)
    progress = LessonProgressStore(store)
    assert progress.of("l09_play").right == {"game"}
    assert "complete" in runner.finish()
    assert _home_row(progress, 9).endswith("| ✓ complete, 1 game finished |")


def test_after_a_new_hand_a_legal_play_stands_and_is_not_judged_as_the_step(runner_for) -> None:
    """New hand in a play step deals another hand: free play. Its cards are not checked against
    the step's position (which once refused them: "You do not hold the 8♣.") nor taken back."""
    runner = runner_for("l03_following")
    step_hand = runner.widget.session.hand
    browser_sends(runner, {"type": "new_hand", "discard": True})
    session = runner.widget.session
    assert session.hand is not step_hand and session.hand.dealt != step_hand.dealt
    if session.hand.phase.value == "passing":  # the step is hand 4, a hold hand: so is its redeal
        browser_sends(
            runner, {"type": "pass", "cards": [card.code for card in list(session.hand.hand(0))[:3]]}
        )
    assert session.hand.to_move == 0
    card = next(iter(session.hand.legal_cards(0))).code
    assert runner.lesson.steps[0].context().state.why_not_play(card, 0) is not None  # the old bug's trigger
    before = session.hand.cards_played
    browser_sends(runner, {"type": "play", "card": card})
    assert runner.verdict is None and runner.widget.error == {}
    assert session.hand.cards_played > before and card not in {c.code for c in session.hand.hand(0)}
    assert runner.feedback(None) == ("neutral", NEW_HAND_NOTE)  # the step's text is not this table's
    runner.reset_table()  # "Set the table up again": the step's own hand, judged again
    browser_sends(runner, {"type": "play", "card": "JS"})
    assert runner.verdict.code == "must_follow_suit"


def test_after_a_new_hand_a_choice_step_still_answers_its_question(runner_for) -> None:
    runner = runner_for("l01_game")
    runner.go(0)
    browser_sends(runner, {"type": "new_hand"})
    kind, text = runner.feedback(None)
    assert kind == "neutral" and runner.step.task in text and NEW_HAND_NOTE in text
    assert runner.feedback("13")[0] == "success"


def test_a_right_play_stays_praised_after_the_learner_deals_on(runner_for) -> None:
    runner = runner_for("l03_following")
    browser_sends(runner, {"type": "play", "card": "3D"})
    assert runner.verdict.correct
    while not runner.widget.session.hand.is_over:  # free play to the end of the hand
        browser_sends(
            runner, {"type": "play", "card": next(iter(runner.widget.session.hand.legal_cards(0))).code}
        )
    browser_sends(runner, {"type": "new_hand"})
    kind, text = runner.feedback(None)
    assert kind == "success" and runner.verdict.message in text and NEW_HAND_NOTE in text


def test_lesson_7_asks_about_hand_4_before_the_table_deals_it(runner_for) -> None:
    """The hold-hand question is asked over hand 3, finished; New hand then deals hand 4, the hold."""
    runner = runner_for("l07_game")
    runner.go(1)
    assert (runner.widget.table["hand_number"], runner.widget.table["pass_direction"]) == (3, "across")
    assert runner.feedback("No passing: play the cards dealt")[0] == "success"
    browser_sends(runner, {"type": "new_hand"})
    assert (runner.widget.table["hand_number"], runner.widget.table["pass_direction"]) == (4, "hold")
    assert runner.feedback("No passing: play the cards dealt")[0] == "success"


def test_a_step_that_asks_for_a_count_hides_the_seats_points_until_answered(runner_for) -> None:
    runner = runner_for("l06_scoring")
    runner.go(next(i for i, step in enumerate(runner.lesson.steps) if "points" in step.conceal))
    for variant in runner.step.variant_names:
        runner.set_variant(variant)
        # The learner's tricks already hold points, but the table must not count them for the learner.
        assert runner.widget.session.hand.points_taken[0] > 0
        assert [seat["points"] for seat in runner.widget.table["seats"]] == [None] * 4
        runner.feedback(runner.step.choices[0])
        assert runner.widget.table["seats"][0]["points"] == runner.widget.session.hand.points_taken[0]
    # Every other step's table shows the seats' points.
    runner.go(0)
    assert all(seat["points"] is not None for seat in runner.widget.table["seats"])


def test_a_step_that_asks_for_the_pass_hides_its_direction_until_answered(runner_for) -> None:
    for key in ("l02_passing",):
        runner = runner_for(key)
        runner.go(next(i for i, step in enumerate(runner.lesson.steps) if "pass" in step.conceal))
        for variant in runner.step.variant_names or [""]:
            if variant:
                runner.set_variant(variant)
            assert runner.widget.table["pass_direction"] is None, (key, variant)
            runner.feedback(runner.step.choices[0])
            shown = runner.widget.table["pass_direction"]
            assert shown == runner.widget.session.hand.pass_direction.value, (key, variant)


def _step_index(runner: LessonRunner, key: str) -> int:
    return [step.key for step in runner.lesson.steps].index(key)


def test_what_the_learner_sees_is_the_checks_own_verdict_and_its_evaluation_is_what_is_kept(
    runner_for, store
) -> None:
    """The runner judges with the evaluation its own context asked for (no cache shared behind
    the checks' backs): the message is the step's verdict in a fresh context, a repeated answer
    gets the same figures without a new evaluation, and a step judged without the evaluator keeps
    no graded decision, even on a position another step evaluated."""
    from trainer.lessons.steps import evaluate
    from trainer.progress.decisions import load_decisions

    runner = runner_for("l03_following")
    runner.go(_step_index(runner, "dump"))
    state = runner._context.state.copy()
    shown = runner.answer("KS")
    fresh = runner.step.judge("KS")
    assert (shown.correct, shown.message, shown.code) == (fresh.correct, fresh.message, fresh.code)
    alone = evaluate(state, 0, choice="KS")  # the evaluator asked directly, with no runner
    seen = runner._context.evaluation
    assert (seen.best.option, seen.loss_of("KS")) == (alone.best.option, alone.loss_of("KS"))
    kept = len(runner._evaluations)
    runner.reset_table()
    again = runner.answer("KS")
    assert again.message == shown.message and len(runner._evaluations) == kept  # judged from the kept one
    runner.go(_step_index(runner, "heart_discard"))  # the same position, a rule question
    assert runner._context.state.history == state.history
    runner.answer("2H")
    decisions = load_decisions(store, source="lesson")
    assert [(d.ref, d.choice) for d in decisions] == [("l03_following/dump", "KS")] * 2
    assert decisions[0].loss == pytest.approx(alone.loss_of("KS"))


def test_the_runners_evaluations_are_bounded() -> None:
    from trainer.lessons.steps import Evaluations

    evaluations = Evaluations(size=2)
    context = LESSONS["l03_following"].step("dump").context("", evaluations)
    for card in ("KS", "QS", "2H"):
        context.evaluate(card)
    assert len(evaluations) == 2
