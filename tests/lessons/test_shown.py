"""The table each step opens with, as the learner sees it (bots done), against what the step says."""

from __future__ import annotations

import pytest

from engine import Rules
from trainer.lessons.catalog import LESSONS
from trainer.lessons.deals import D_TRICK_1, THREE_HANDS, D, deal, game_hand, played_out, rows_to
from trainer.lessons.shown import step_table_problems, undeclared
from trainer.lessons.steps import Lesson, Step, StepVerdict


def _any(answer, context) -> StepVerdict:
    return StepVerdict(True, "", "right")


def _problems(**fields) -> list[str]:
    """The problems the checker finds in a one-step lesson made of ``fields``."""
    step = Step(key="s", title="t", text="", kind="choice", choices=("a", "b"), check=_any, **fields)
    lesson = Lesson(number=1, key="l01_game", title="t", summary="s", steps=(step,))
    return [problem for problems in step_table_problems(lesson).values() for problem in problems]


@pytest.mark.parametrize("key", list(LESSONS))
def test_every_steps_table_is_what_its_text_says(key) -> None:
    """Each step set up on the lesson's own table, bots done, under every variant: its facts hold,
    the table waits for the learner, no 'Game over' answers for them, the pass badge is the hand's."""
    assert step_table_problems(LESSONS[key]) == {}


def test_every_step_declares_what_its_words_say_of_the_table() -> None:
    """A pass direction, a number of players, cards held or Last trick in the text come with a fact."""
    for lesson in LESSONS.values():
        for step in lesson.steps:
            assert undeclared(step) == [], f"{lesson.key}/{step.key}"


def test_a_table_that_moves_on_before_the_learner_is_found() -> None:
    """A hold hand where Right holds the 2♣: the bots lead before the learner answers, so 'Right
    holds 13 cards' is no longer what the table shows (lesson 1 step 1 as it was)."""
    problems = _problems(position=lambda rules: game_hand(rules, 11, 3), facts=("cards: Right 13",))
    assert any("moves on before the learner acts" in p for p in problems)
    assert any("'cards: Right 13'" in p for p in problems)
    still = _problems(position=lambda rules: deal(D, rules, D_TRICK_1 + " 9D KD 10H"), facts=("turn: you",))
    assert still == []


def test_a_game_over_before_the_learner_answers_is_found() -> None:
    """A finished last hand whose totals pass 100 (lesson 1 step 5 as it was)."""
    rows = rows_to((50, 94, 57, 85), 11)  # hand 12, a hold hand; Left's 7 there take Left past 100
    problems = _problems(position=lambda rules: played_out(rules, 21), score_rows=rows)
    assert "the table says 'Game over' before the learner answers" in problems


def test_a_pass_badge_that_is_not_the_hands_is_found() -> None:
    """A hold hand shown as hand 5 of a game, which passes left (lesson 7 steps 1 and 3 as they were)."""
    rows = (*THREE_HANDS, (0, 13, 13, 0))
    problems = _problems(position=lambda rules: played_out(rules, 21), score_rows=rows)
    assert any("'Pass: hold' on hand 5, which passes left" in p for p in problems)
    fine = _problems(
        position=lambda rules: played_out(rules, 21), score_rows=THREE_HANDS, facts=("phase: done",)
    )
    assert fine == []


def test_words_about_the_table_need_their_facts() -> None:
    def step(text: str, *facts: str) -> Step:
        return Step(key="s", title="t", text=text, facts=facts)

    assert undeclared(step("With five players, the 2♦ and 2♣ go.")) == ["players"]
    assert undeclared(step("Press **Last trick** to look back.")) == ["last_trick"]
    assert undeclared(step("This hand passes left.")) == ["pass"]
    assert undeclared(step("How many cards does each player hold?")) == ["cards"]
    assert undeclared(step("When the last trick is gathered, count.")) == []
    assert undeclared(step("With five players.", "players: 5")) == []


def test_a_four_seat_table_for_a_five_player_text_is_found() -> None:
    """The table seats the step's players: a five-player fact fails on a four-seat deal."""
    problems = _problems(position=lambda rules: deal(D, rules), facts=("players: 5",))
    assert any("'players: 5'" in p for p in problems)
    five = _problems(
        rules=Rules(players=5),
        position=lambda rules: game_hand(rules, 1, 0),
        facts=("players: 5", "cards: seat 0 10"),
    )
    assert five == []


def test_last_trick_beats_and_totals_after_facts() -> None:
    from trainer.lessons.facts import fact_problems

    state = played_out(Rules(), 21)
    last = " ".join(card.code for card in state.tricks[-1].cards)
    assert fact_problems(state, (), [f"last_trick: {last}"]) == []
    assert fact_problems(state, (), ["last_trick: 2C 3C 4C 5C"]) != []
    trick = deal(D, Rules(), D_TRICK_1 + " 9D KD 10H")
    assert fact_problems(trick, (), ["beats: you AD"]) == []
    assert fact_problems(trick, (), ["beats: you 8D"]) != []  # under the K♦
    assert fact_problems(trick, (), ["beats: you JH"]) != []  # must follow diamonds
    from trainer.lessons.deals import before_last_card

    end = before_last_card(state)
    totals = " ".join(str(p) for p in state.result.scores)
    assert fact_problems(end, (), [f"totals_after: {totals}", "cards: you 1", "turn: you"]) == []
    assert fact_problems(end, [(1, 2, 3, 20)], [f"result_after: {totals}"]) == []
    assert fact_problems(end, [(1, 2, 3, 20)], [f"totals_after: {totals}"]) != []


def test_a_question_over_a_finished_hands_scores_is_found() -> None:
    """A finished hand under a question shows its score row: the answer to 'what does the hand
    score?' (lesson 6 step 3 as it was). Stopped before the learner's last card, it does not."""
    from trainer.lessons.deals import before_last_card

    problems = _problems(position=lambda rules: played_out(rules, 21))
    assert "the table shows the hand's scores before the learner answers" in problems
    assert _problems(position=lambda rules: played_out(rules, 21), facts=("phase: done",)) == []
    assert _problems(position=lambda rules: before_last_card(played_out(rules, 21))) == []


def test_a_set_up_position_shows_the_hand_number_its_pass_belongs_to() -> None:
    """A set-up hold hand is badged hand 4 of a game (three earlier hands on the score table), a
    hand passing right hand 2: never 'Hand 1 · Pass: hold'."""
    from trainer.lessons.runner import LessonRunner

    runner = LessonRunner(LESSONS["l02_passing"], None, bot_delay=0)
    try:
        seen = {}
        for index, step in enumerate(runner.lesson.steps):
            runner.go(index)
            table = runner.widget.table
            seen[step.key] = (table["hand_number"], table["pass_direction"], len(table["score_rows"]))
        assert seen["queen"] == (1, "left", 0)
        assert seen["void"] == (2, "right", 1)
        runner.go(0)
        runner.set_variant("House rule: no hold hand")
        runner.feedback(runner.step.choices[0])  # the step asks for the pass: it shows once answered
        assert (runner.widget.table["hand_number"], runner.widget.table["pass_direction"]) == (4, "left")
    finally:
        runner.close()
    runner = LessonRunner(LESSONS["l03_following"], None, bot_delay=0)
    try:
        table = runner.widget.table
        assert (table["hand_number"], table["pass_direction"], len(table["score_rows"])) == (4, "hold", 3)
    finally:
        runner.close()
