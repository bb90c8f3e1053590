"""Late play verdicts agree with exact solving: the coach solves from five cards a seat, and a
policy's "best" from six is checked on solved deals before it is said."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import HandState, Rules, parse_cards
from engine.cards import card_mask
from engine.search.budget import PlayBudget
from engine.search.evaluator import evaluate_play
from trainer.coach import coach_play, grade
from trainer.coach.depth import BROWSER, FULL, judge_play
from trainer.coach.grading import REFUTED
from trainer.puzzles.mine import decisions

# Small budgets: the tests check what is said, not how deep the coach looks.
SMALL = replace(
    FULL, play_samples=2048, min_samples=512, exact_samples=256, check_samples=64, play_seconds=None
)


def solved_loss(view, card) -> float:
    """The card's loss over the view's deals, every one (or 512) solved exactly."""
    reference = evaluate_play(
        view,
        PlayBudget(samples=512, exact_cards=13, exact_samples=512, exact_min_samples=512, every_deal=True),
        seed=11,
    )
    return reference.loss_of(card)


def normal_bot_play(seed: int, index: int):
    """The ``index``-th decision of a Normal-bot hand: (view, the bot's card)."""
    for number, (kind, state, seat, card) in enumerate(decisions(Rules(), seed, 1)):
        if number == index:
            assert kind == "play"
            return state.view(seat), card
    raise AssertionError("the hand has fewer decisions")


def issue_position() -> HandState:
    """On lead at trick 9 with 5♣ J♠ Q♠ 2♥ A♥, every other spade played (discarded on the
    learner's diamond and club leads)."""
    hands = [
        card_mask("AC KC QC AD KD QD JD 10D 5C JS QS 2H AH"),
        card_mask("2C 6C 7C 8C 9C 10C JC 4D 5D 6D 7D 8D 9D"),
        card_mask("3C 4C AS KS 10S 9S 8S 4H 5H 6H 7H 8H 9H"),
        card_mask("2D 3D 7S 6S 5S 4S 3S 2S 3H 10H JH QH KH"),
    ]
    state = HandState(Rules(), hands, "hold")
    for card in parse_cards(
        "2C 3C 7S AC AD 4D AS 2D KD 5D KS 3D QD 6D 10S 6S JD 7D 9S 5S KC 6C 4C 4S QC 7C 8S 3S 10D 8D 4H 2S"
    ):
        state.play(card)
    return state


def test_the_coach_solves_every_deal_from_five_cards_a_seat():
    state = issue_position()
    view = state.view(0)
    assert state.to_move == 0 and state.trick_number == 8 and max(view.hand_sizes) == 5
    evaluation = judge_play(view, parse_cards("2H")[0], depth=SMALL)
    assert evaluation.method == "exact"
    # The browser (pure Python, no numba) plays five cards out by the policy.
    assert judge_play(view, parse_cards("2H")[0], depth=replace(BROWSER, play_samples=512)).method == "policy"


def test_on_lead_at_trick_nine_no_card_is_called_best_that_solving_shows_loses_a_point():
    view = issue_position().view(0)
    losing = 0
    for card in view.legal_cards:
        g = grade(judge_play(view, card, depth=SMALL), card)
        if solved_loss(view, card) >= REFUTED:
            losing += 1
            assert not g.correct, card
    assert losing >= 3  # the 2♥, the A♥ and the Q♠ all lose to the 5♣


def test_a_trick_nine_lead_the_policy_called_best_is_not_best():
    # A Normal-bot hand (held out of the benchmarks): on lead with 6♠ A♠ 2♥ 4♥ 8♥ at trick 9,
    # the policy's play-outs called the 6♠ best (loss 0.0); solved, it loses over 3 points.
    view, _ = normal_bot_play(6_200_012, 32)
    six = parse_cards("6S")[0]
    assert not view.current_trick.cards and max(view.hand_sizes) == 5
    assert solved_loss(view, six) >= REFUTED
    policy = grade(judge_play(view, six, depth=replace(SMALL, exact_cards=4, check_cards=0)), six)
    assert policy.correct  # what the coach said before it solved from five cards
    assert not grade(judge_play(view, six, depth=SMALL), six).correct


@pytest.fixture(scope="module")
def refuted():
    # A Normal-bot hand at trick 8 (six cards a seat): on lead with J♣ A♣ 3♠ 9♥ J♥ Q♥, the
    # play-outs make the 3♠ as good as the best; solved, it loses about 3 points.
    view, _ = normal_bot_play(6_300_001, 27)
    card = parse_cards("3S")[0]
    return view, card, judge_play(view, card, seed=3, depth=SMALL)


def test_a_policy_best_at_six_cards_is_checked_on_solved_deals(refuted):
    view, card, evaluation = refuted
    assert max(view.hand_sizes) == 6 and evaluation.method == "policy"
    assert evaluation.solved_check is not None and evaluation.solved_check.method == "exact"
    g = grade(evaluation, card)
    assert g.loss <= 0.5 and g.solved is not None and g.solved.loss >= REFUTED
    assert not g.correct and not g.decided and g.span[0].value == "best"
    assert g.high == pytest.approx(g.solved.loss)


def test_a_refuted_best_says_both_figures_and_praises_nothing(refuted):
    view, card, evaluation = refuted
    verdict = coach_play(view, card, evaluation)
    g = verdict.grade
    assert verdict.headline.startswith(f"Between best and {g.span[1].value}: played out, 3♠ looks")
    assert (
        f"each solved exactly with every hand open, it costs {g.solved.loss:.1f} points" in verdict.headline
    )
    assert verdict.headline_figures and all(figure.check(evaluation) for figure in verdict.headline_figures)
    assert not any(reason.stance.value == "for" for reason in verdict.explained)


def test_a_verdict_before_six_cards_a_seat_is_not_checked():
    view, card = normal_bot_play(6_300_001, 20)
    assert max(view.hand_sizes) > 6
    assert judge_play(view, card, seed=3, depth=SMALL).solved_check is None


def test_a_solved_verdict_is_measured_and_said_in_solved_points():
    view, _ = normal_bot_play(6_200_012, 32)
    six = parse_cards("6S")[0]
    evaluation = judge_play(view, six, depth=SMALL)
    verdict = coach_play(view, six, evaluation)
    assert evaluation.method == "exact" and evaluation.measure == "playout"
    assert "each solved exactly" in verdict.numbers and "played out" not in verdict.numbers
    assert "strong players" not in verdict.numbers
