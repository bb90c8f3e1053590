"""One budget value per decision: the coach's depth becomes the evaluator's budget in one place
(``Depth.for_play``/``for_pass``), and Hard's plans share its budget."""

import pytest

from engine import HandState, Rules
from engine.bots.hard import FULL_PASS
from engine.search.budget import PassBudget, PlayBudget
from tests.test_evaluator import late_position
from trainer.coach.depth import BROWSER, COACH, LOOKS, judge_play
from trainer.review.game import ReviewDepth, evaluate_decision


def test_the_reviews_look_and_the_verdict_give_a_late_play_the_same_values():
    """A late position valued on every deal has one value, whether the review looks at it before
    the learner chose (the full look) or the coach judges the learner's card (the verdict)."""
    state = late_position(seed=3, cards_left=3)
    view = state.view(state.to_move)
    card = view.legal_cards[0]
    verdict = judge_play(view, card, seed=5)
    looked = evaluate_decision(state, state.to_move, None, (0,) * state.players, ReviewDepth(), 5)
    assert verdict.every_deal and looked.every_deal
    assert [(v.option, v.difference) for v in verdict.options] == [
        (v.option, v.difference) for v in looked.options
    ]


def test_a_verdict_spends_the_depths_deals_and_clock_and_waits_for_its_minimum():
    view = HandState.from_seed(5, Rules(), "left").view(0)
    verdict = BROWSER.for_pass()
    assert (verdict.samples, verdict.stages, verdict.seconds) == (4096, BROWSER.pass_stages, 6.0)
    assert verdict.min_samples == BROWSER.pass_min_samples
    assert COACH.for_pass("full").min_samples < COACH.for_pass().min_samples  # nothing to wait for
    assert COACH.for_pass("first").samples == COACH.first_look
    playing = HandState.from_seed(5, Rules(), "hold")
    play = BROWSER.for_play(playing.view(playing.to_move))
    assert (play.samples, play.seconds, play.min_samples) == (2048, 3.0, BROWSER.min_samples)
    assert play.exact_cards == BROWSER.exact_cards and play.every_deal
    check = COACH.for_play(playing.view(playing.to_move), "check")
    assert check.exact_cards == view.rules.hand_size and check.samples == COACH.check_samples


def test_a_look_the_depth_does_not_know_is_refused_in_one_line():
    view = HandState.from_seed(5, Rules(), "hold").view(0)
    with pytest.raises(ValueError, match="look must be one of verdict, full, first, check, not 'deep'"):
        COACH.for_play(view, "deep")
    with pytest.raises(ValueError, match="a pass has no check"):
        COACH.for_pass("check")
    assert set(LOOKS) == {"verdict", "full", "first", "check"}


def test_hards_two_plans_share_one_budget():
    """Each of Hard's two looks (its own plan and the moon's) gets half the deals, the screening
    and the clock, so a decision costs what one look did."""
    half = FULL_PASS.split(2)
    assert half.samples == FULL_PASS.samples // 2 and half.seconds == FULL_PASS.seconds / 2
    assert [deals for deals, _ in half.stages] == [deals // 2 for deals, _ in FULL_PASS.stages]
    assert [keep for _, keep in half.stages] == [keep for _, keep in FULL_PASS.stages]
    assert PassBudget(samples=100, playouts=1000).split(4).playouts == 250
    play = PlayBudget(samples=1024, seconds=None, exact_samples=256).split(2)
    assert (play.samples, play.seconds, play.exact_samples) == (512, None, 256)
