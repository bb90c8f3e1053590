"""Every lesson's checks on right and wrong answers: each wrong answer has its own message."""

from __future__ import annotations

import pytest

from trainer.coach.grading import band_of
from trainer.data_files import PUZZLES_DIR
from trainer.lessons.catalog import LESSONS
from trainer.lessons.steps import evaluate
from trainer.puzzles import load_puzzle


def stored_band(puzzle: str, option: str) -> str:
    """The band a puzzle file's own figures give an option: a lesson step built on a puzzle
    grades by them, and they move when the puzzles are valued again (a new map, a new seed)."""
    loss = load_puzzle(PUZZLES_DIR / f"{puzzle}.toml").evaluation.loss_of(option)
    return band_of(loss).value


Q = "Every heart (1 each) and the Q♠ (13)"
MOON_ROW = ["", "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "", ""]

# (lesson, step, variant ("" = the first), answer, expected code, right?)
CASES = [
    ("l01_game", "cards", "", "13", "right", True),
    ("l01_game", "cards", "", "17", "three_players", False),
    ("l01_game", "cards", "", "26", "points_not_cards", False),
    ("l01_game", "cards", "", "12", "too_few", False),
    ("l01_game", "points", "", Q, "right", True),
    ("l01_game", "points", "", "Only the hearts", "forgot_queen", False),
    ("l01_game", "points", "", "The hearts, the Q♠, the K♠ and the A♠", "black_maria", False),
    ("l01_game", "points", "", "Every card above the 10", "high_cards", False),
    ("l01_game", "total", "", "26", "right", True),
    ("l01_game", "total", "", "14", "queen_as_one", False),
    ("l01_game", "trick", "", "3D", "right", True),
    ("l01_game", "trick", "", "AD", "won_trick", False),
    ("l01_game", "trick", "", "JS", "must_follow_suit", False),
    ("l01_game", "winner", "", "Across, with 58", "right", True),
    ("l01_game", "winner", "", "Left, with 101", "highest", False),
    ("l01_game", "winner", "", "Nobody yet: play another hand", "not_over", False),
    ("l02_passing", "direction", "", "No pass (hold hand)", "right", True),
    ("l02_passing", "direction", "", "Across", "across_is_third", False),
    ("l02_passing", "direction", "House rule: no hold hand", "Left", "right", True),
    ("l02_passing", "direction", "House rule: no hold hand", "No pass (hold hand)", "no_hold_variant", False),
    ("l02_passing", "queen", "", ["QS", "AH", "KH"], "right", True),
    ("l02_passing", "queen", "", ["AH", "KH", "JD"], "kept_queen", False),
    ("l02_passing", "queen", "", ["QS", "2C", "AH"], "passed_low", False),
    ("l02_passing", "queen", "", ["QS", "AH"], "wrong_pass_count", False),
    ("l02_passing", "void", "", ["KD", "QD", "6D"], "right", True),
    ("l02_passing", "void", "", ["KD", "QD", "10C"], "no_void", False),
    ("l02_passing", "void", "", ["KD", "2S", "3S"], "passed_low_spades", False),
    ("l02_passing", "receive", "", "Left holds her", "right", True),
    ("l02_passing", "receive", "", "Anyone might", "forgot_pass", False),
    ("l02_passing", "receive", "", "Right holds her", "wrong_seat", False),
    ("l03_following", "follow", "", "3D", "right", True),
    ("l03_following", "follow", "", "JS", "must_follow_suit", False),
    ("l03_following", "dump", "", "QS", "right", True),
    ("l03_following", "dump", "", "2H", "small_dump", False),
    ("l03_following", "dump", "", "KS", "king_not_queen", False),
    ("l03_following", "dump", "", "3D", "wasted", False),
    ("l03_following", "heart_discard", "", "2H", "right", True),
    ("l03_following", "heart_discard", "", "3D", "not_a_heart", False),
    ("l03_following", "discard_rule", "", "Yes: the rule only stops you leading hearts", "right", True),
    ("l03_following", "discard_rule", "", "No: not until hearts are broken", "lead_rule", False),
    ("l03_following", "discard_rule", "", "Only if you hold nothing but hearts", "only_hearts", False),
    ("l04_leading", "two_of_clubs", "", "2C", "right", True),
    ("l04_leading", "two_of_clubs", "", "6C", "must_lead_lowest_club", False),
    ("l04_leading", "five_players", "", "The 3♣", "right", True),
    ("l04_leading", "five_players", "", "The 2♣", "removed", False),
    ("l04_leading", "five_players", "", "Any club", "any_club", False),
    ("l04_leading", "unbroken", "", "6C", "right", True),
    ("l04_leading", "unbroken", "", "QS", "right_queen", True),
    ("l04_leading", "unbroken", "", "JH", "hearts_not_broken", False),
    ("l04_leading", "queen_lead", "", "Yes, at any time", "right", True),
    ("l04_leading", "queen_lead", "", "Only once hearts are broken", "breaking", False),
    ("l04_leading", "only_hearts", "", "Any of my hearts", "right", True),
    ("l04_leading", "only_hearts", "", "Nothing: I must wait for hearts to be broken", "must_wait", False),
    ("l04_leading", "queen_breaks", "", "JH", "hearts_not_broken", False),
    ("l04_leading", "queen_breaks", "", "7C", "right", True),
    ("l04_leading", "queen_breaks", "Variant: the Q♠ breaks hearts", "JH", "right_heart", True),
    ("l04_leading", "queen_breaks", "Variant: the Q♠ breaks hearts", "7C", "missed_heart", False),
    ("l05_first_trick", "no_points", "", "2H", "no_points_on_first_trick", False),
    ("l05_first_trick", "no_points", "", "QS", "no_points_on_first_trick", False),
    ("l05_first_trick", "no_points", "", "2D", "right", True),
    ("l05_first_trick", "no_points", "Variant: points allowed on the first trick", "QS", "right_queen", True),
    (
        "l05_first_trick",
        "no_points",
        "Variant: points allowed on the first trick",
        "2D",
        "missed_queen",
        False,
    ),
    ("l05_first_trick", "queen_dispute", "", "No", "right_refused", True),
    ("l05_first_trick", "queen_dispute", "", "Yes", "standard_refuses", False),
    (
        "l05_first_trick",
        "queen_dispute",
        "Variant: points allowed on the first trick",
        "Yes",
        "right_allowed",
        True,
    ),
    (
        "l05_first_trick",
        "queen_dispute",
        "Variant: points allowed on the first trick",
        "No",
        "variant_allows",
        False,
    ),
    ("l05_first_trick", "nothing_else", "", "Any of my cards", "right", True),
    ("l05_first_trick", "nothing_else", "", "Only a heart, not the Q♠", "hearts_only", False),
    ("l06_scoring", "totals", "", "17", "right", True),
    ("l06_scoring", "totals", "", "5", "queen_as_one", False),
    ("l06_scoring", "totals", "", "4", "forgot_queen", False),
    ("l06_scoring", "calculator", "", MOON_ROW, "right", True),
    ("l06_scoring", "calculator", "", ["QS", "AH", "", ""], "no_moon", False),
    ("l06_scoring", "calculator", "", [MOON_ROW[1], "", "", ""], "wrong_shooter", False),
    ("l06_scoring", "calculator", "", ["XX", "", "", ""], "bad_input", False),
    ("l06_scoring", "calculator", "", ["QS", "QS", "", ""], "bad_input", False),
    ("l06_scoring", "calculator", "Black Maria (K♠ 10, A♠ 7)", MOON_ROW, "no_moon", False),
    ("l06_scoring", "failed_moon", "", "Left 25, you 1", "right", True),
    ("l06_scoring", "failed_moon", "", "Left 0, everyone else 26", "counted_moon", False),
    ("l06_scoring", "moon_rules", "", "Left scores 0 and everyone else 26", "right", True),
    (
        "l06_scoring",
        "moon_rules",
        "New moon (shooter −26)",
        "Left scores 0 and everyone else 26",
        "standard_moon",
        False,
    ),
    (
        "l06_scoring",
        "moon_rules",
        "New moon (shooter −26)",
        "Left scores −26 and nobody else anything",
        "right",
        True,
    ),
    ("l06_scoring", "moon_rules", "Shooter's choice", "Left chooses one of those two", "right", True),
    ("l06_scoring", "variants", "", "15", "right", True),
    ("l06_scoring", "variants", "", "5", "count_omnibus", False),
    ("l06_scoring", "variants", "Spot Hearts (hearts by rank)", "37", "right", True),
    ("l06_scoring", "variants", "Spot Hearts (hearts by rank)", "25", "count_black", False),
    ("l06_scoring", "variants", "Black Maria (K♠ 10, A♠ 7)", "25", "right", True),
    ("l07_game", "end", "", "The game goes on", "right_goes_on", True),
    ("l07_game", "end", "", "The highest total wins now", "highest", False),
    ("l07_game", "end", "Short game: to 50", "The lowest total wins now", "right_over", True),
    ("l07_game", "end", "Short game: to 50", "The game goes on", "missed_end", False),
    ("l07_game", "hold", "", "No passing: play the cards dealt", "right", True),
    ("l07_game", "hold", "", "Pass left", "wrong_direction", False),
    ("l07_game", "tie", "", "You and Across share the win", "right_shared", True),
    ("l07_game", "tie", "", "Left wins: the game ended on Left's score", "ender", False),
    ("l07_game", "tie", "Ties play on", "Another hand is played to break the tie", "right_play_off", True),
    ("l07_game", "tie", "Ties play on", "You and Across share the win", "shared_not_set", False),
    ("l08_strategy", "duck", "", "8D", "right", True),
    ("l08_strategy", "duck", "", "AD", "won", False),
    ("l08_strategy", "duck", "", "3D", "wasted_low", False),  # 1.25 worse than the 8♦ (4x the deals agree)
    ("l08_strategy", "queen", "", "QS", "right", True),
    ("l08_strategy", "queen", "", "5S", "kept_queen", False),
    ("l08_strategy", "voids", "", "Right", "right", True),
    ("l08_strategy", "voids", "", "Left", "followed", False),
    ("l08_strategy", "voids", "", "Nobody yet", "missed", False),
    ("l08_strategy", "moon", "", "Win a trick with a heart in it, even at a cost", "right", True),
    ("l08_strategy", "moon", "", "Keep ducking: every point I avoid is good", "ducking", False),
    ("l08_strategy", "moon", "", "Let Across have my hearts: they cost me nothing there", "feeding", False),
    ("l08_strategy", "low_spades", "", "7S", "right", True),
    ("l08_strategy", "low_spades", "", "4S", "right", True),
    ("l08_strategy", "low_spades", "", "AD", "high_lead", False),
    ("l08_strategy", "low_spades", "", "8D", "missed_spades", False),
    ("l08_strategy", "low_spades", "", "2H", "hearts_not_broken", False),
    ("l08_strategy", "count", "", "3", "right", True),
    ("l08_strategy", "count", "", "4", "counted_mine", False),
    ("l08_strategy", "count", "", "9", "counted_played", False),
    ("l08_strategy", "count", "", "You cannot tell", "gave_up", False),
    ("l08_strategy", "stop_moon", "", "KH", "right", True),
    ("l08_strategy", "stop_moon", "", "KC", stored_band("play-011", "KC"), False),
    ("l08_strategy", "stop_moon", "", "5D", "not_in_hand", False),
    ("l08_strategy", "shoot", "", "7C 2D 2S", "right", True),
    ("l08_strategy", "shoot", "", "AC KH AH", stored_band("pass-standard-105-156-01", "AC KH AH"), False),
    ("l08_strategy", "shoot", "", "7C 2D", "wrong_pass_count", False),
]


@pytest.mark.parametrize(("lesson", "step", "variant", "answer", "code", "right"), CASES)
def test_check(lesson, step, variant, answer, code, right) -> None:
    verdict = LESSONS[lesson].step(step).judge(answer, variant)
    assert (verdict.code, verdict.correct) == (code, right), verdict.message
    assert verdict.message.strip()


def test_every_checked_step_is_tested_right_and_wrong() -> None:
    for lesson in LESSONS.values():
        for step in lesson.checked_steps:
            outcomes = {
                right for key, name, _v, _a, _c, right in CASES if (key, name) == (lesson.key, step.key)
            }
            assert outcomes == {True, False}, f"{lesson.key}/{step.key} needs a right and a wrong answer"


def test_each_wrong_answer_of_a_question_has_its_own_message() -> None:
    for lesson in LESSONS.values():
        for step in lesson.steps:
            if step.kind != "choice":
                continue
            for variant in step.variant_names or [""]:
                wrong = [v for v in (step.judge(a, variant) for a in step.choices) if not v.correct]
                assert len({v.message for v in wrong}) == len(wrong), (lesson.key, step.key, variant)
                assert sum(step.judge(a, variant).correct for a in step.choices) == 1, (lesson.key, step.key)


@pytest.mark.parametrize(
    ("lesson", "step", "variant", "best"),
    [
        ("l02_passing", "queen", "", {"QS", "AH", "KH"}),
        ("l02_passing", "void", "", {"KD", "QD", "6D"}),
        ("l03_following", "dump", "", {"QS"}),
        ("l05_first_trick", "no_points", "Variant: points allowed on the first trick", {"QS"}),
        ("l08_strategy", "duck", "", {"8D"}),
        ("l08_strategy", "queen", "", {"QS"}),
        ("l08_strategy", "low_spades", "", {"7S"}),
    ],
)
def test_the_evaluator_agrees_with_the_lesson(lesson, step, variant, best) -> None:
    state = LESSONS[lesson].step(step).context(variant).state
    option = evaluate(state, 0).best.option
    codes = set(option.codes) if hasattr(option, "codes") else {option.code}
    assert codes == best


def test_judgements_are_the_coachs_verdicts_within_its_budget_in_deals() -> None:
    """A lesson judges with the coach's own function and depth (how long that takes is measured
    in benchmarks/coach_stability.py, not here)."""
    from trainer.coach.depth import COACH
    from trainer.coach.grading import grade

    context = LESSONS["l08_strategy"].step("duck").context("")
    evaluation = evaluate(context.state, context.seat, choice="3D")
    assert evaluation.judged.code == "3D" and evaluation.decided and not evaluation.clock_stopped
    assert evaluation.samples <= COACH.play_samples
    verdict = LESSONS["l08_strategy"].step("duck").judge("3D")
    assert verdict.correct is grade(evaluation, "3D").correct


def test_the_moon_lessons_text_is_true_of_its_puzzle() -> None:
    """Lesson 8's moon step states facts about its puzzle's hand and evaluation: long hearts
    headed by two high ones (named), and the usual pass throws the moon away."""
    from engine import Suit
    from trainer.lessons.l08_strategy import SHOOT_PUZZLE
    from trainer.puzzles import load_puzzle
    from trainer.puzzles.board import PUZZLES_DIR
    from trainer.puzzles.verify import natural_choice

    puzzle = load_puzzle(PUZZLES_DIR / f"{SHOOT_PUZZLE}.toml")
    hearts = sorted(puzzle.view.hand.of_suit(Suit.HEARTS), reverse=True)
    assert len(hearts) >= 5 and all(card.rank >= 12 for card in hearts[:2])  # the queen or higher
    words = ("five", "six", "seven", "eight", "nine", "ten")[len(hearts) - 5]
    usual = puzzle.evaluation.value_of(natural_choice("pass", puzzle.view))
    best = puzzle.answer.options[0]
    assert best.moon_for >= 0.25 and usual.moon_for < best.moon_for / 2 and usual.loss >= 1.0
    step = LESSONS["l08_strategy"].step("shoot")
    assert f"about {round(100 * best.moon_for)}%" in step.text
    assert f"{words} hearts headed by the {hearts[0]} {hearts[1]}" in step.text


def test_the_moon_stop_verdict_counts_the_trick_on_its_table() -> None:
    """The right answer's cost is the table's: the only heart that stops Across's moon wins the
    Q♥ with it, so the verdict may not say the stop costs one point."""
    step = LESSONS["l08_strategy"].step("moon")
    state = step.context().state
    trick = state.current_trick
    top = max(c.rank for c in trick.cards if c.suit == trick.led_suit)
    (win,) = [c for c in state.legal_cards(0) if c.suit == trick.led_suit and c.rank > top]
    cost = sum(state.rules.card_values[c] for c in (*trick.cards, win))
    assert cost >= 2
    verdict = step.judge("Win a trick with a heart in it, even at a cost")
    assert f"taking this trick with the {win} costs you at least {cost} points" in verdict.message
    assert "1 point for you" not in verdict.message


def test_the_game_steps_say_nothing_the_bots_can_make_stale():
    """The feedback under a game step is drawn when the learner acts, and the bots play on after
    it: it must not name a trick, a hand or a total that the table has moved past."""
    import re

    from engine import Rules
    from tests.table_moves import next_move
    from trainer.lessons import l08_strategy, l09_play
    from trainer.table.session import TableSession

    session = TableSession(Rules(target=26), seed=4, bots={1: "easy", 2: "easy", 3: "easy"}, hints=None)
    while not session.winners:
        hand = session.hand
        for check in (l09_play.check_game, l08_strategy.check_guided):
            message = check(session, None).message
            if not hand.is_over:
                assert not re.search(r"\d", message), message
        next_move(session)
    verdict = l09_play.check_game(session, None)
    assert verdict.correct and "Final totals" in verdict.message


def test_every_step_shows_what_its_text_says():
    """Each step's declared facts (whose turn, the trick, cards held, points, hearts broken, the
    score...) hold on the table the step sets up, under every rule variant it offers."""
    from trainer.lessons.facts import fact_problems

    checked = 0
    for lesson in LESSONS.values():
        for step in lesson.steps:
            for variant in step.variant_names or [""]:
                state = step.context(variant).state
                problems = fact_problems(state, step.score_rows, step.facts_for(variant))
                assert not problems, f"{lesson.key}/{step.key} [{variant}]: {problems}"
                checked += len(step.facts_for(variant))
    assert checked >= 150


def test_a_step_whose_text_tells_a_table_story_declares_it():
    """Words that describe the table ("led", "the table shows", "totals"...) come with facts."""
    import re

    telling = re.compile(
        r"\b(led|leads|the table shows|totals|threw|played the|you hold|your tricks|on the table)\b", re.I
    )
    for lesson in LESSONS.values():
        for step in lesson.steps:
            if telling.search(step.text):
                assert step.facts or step.variant_facts, (
                    f"{lesson.key}/{step.key} tells the table but declares no facts"
                )


def test_a_fact_that_the_table_contradicts_is_found():
    from engine import HandState, Rules
    from trainer.lessons.facts import fact_problems

    state = HandState.from_seed(3, Rules(), "hold")
    held = next(iter(state.hand(0))).code
    assert fact_problems(state, (), [f"holds: you {held}", "tricks: 0", "broken: no"]) == []
    wrong = fact_problems(
        state, [(1, 2, 3, 20)], [f"lacks: you {held}", "tricks: 1", "totals: 0 0 0 0", "moon: Left"]
    )
    assert len(wrong) == 4 and all("'" in w for w in wrong)
