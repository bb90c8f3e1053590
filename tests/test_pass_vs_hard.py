"""benchmarks/pass_vs_hard.py plays both passes on the same deals, each consistent with the
learner's view, with the same bots: otherwise its realised losses compare different luck."""

import pytest

from benchmarks import pass_vs_hard
from engine import CardSet, Rules
from engine.game import deal_game_hand
from engine.search.budget import PassBudget

TINY = pass_vs_hard.hard_bots(4, PassBudget(samples=8, stages=((4, 2),), seconds=None))


def _view():
    state = deal_game_hand(Rules(), 2026, 1)  # passes right
    return state, state.view(1)


def test_both_passes_are_played_on_the_same_deals_the_view_allows():
    _, view = _view()
    cards = sorted(view.hand, key=int)
    learner, best = CardSet(cards[:3]), CardSet(cards[-3:])
    deals = pass_vs_hard.play_outs(view, [learner, best], 3, 7, TINY)
    assert len(deals) == 3
    hidden = set()
    for deal in deals:
        mine, theirs = deal["outcomes"]
        assert mine["dealt"] == theirs["dealt"]
        assert mine["dealt"][view.seat] == view.hand.mask
        others = [hand for seat, hand in enumerate(mine["dealt"]) if seat != view.seat]
        assert all(hand.bit_count() == 13 for hand in others)
        union = 0
        for hand in others:
            assert union & hand == 0
            union |= hand
        assert union == view.unseen_cards.mask
        hidden.add(tuple(others))
        assert mine["passes"][view.seat] == learner.mask and theirs["passes"][view.seat] == best.mask
        assert [p for s, p in enumerate(mine["passes"]) if s != view.seat] == [
            p for s, p in enumerate(theirs["passes"]) if s != view.seat
        ]
    assert len(hidden) == 3  # the hidden hands are dealt afresh, not the true deal each time


def test_the_same_pass_on_the_same_deal_scores_the_same():
    """The bots of both play-outs are seeded alike: a pass played twice realises no loss."""
    _, view = _view()
    cards = sorted(view.hand, key=int)
    same = CardSet(cards[:3])
    deals = pass_vs_hard.play_outs(view, [same, same], 2, 11, TINY)
    assert all(d["outcomes"][0]["difference"] == d["outcomes"][1]["difference"] for d in deals)


def test_a_verdicts_further_deals_are_pooled_with_its_first():
    """``--block`` adds deals to a verdict: its realised loss and SE are over every block's deals,
    and a hand skipped or another hand's block changes nothing."""
    first = {"hand": 3, "pass": "2♣ 3♣ 4♣", "best": "Q♠ K♠ A♠", "coach_loss": 4.0, "realised": 2.0}
    first |= {"realised_error": 1.0, "losses": [1.0, 3.0]}
    lines = [
        first,
        {"hand": 4, "skipped": "hold"},
        {"hand": 3, "block": 1, "losses": [8.0]},
        {"hand": 5, "block": 1, "losses": [-50.0]},
    ]
    (checked,) = pass_vs_hard.pooled(lines)
    assert checked["deals"] == 3 and checked["realised"] == 4.0
    assert abs(checked["realised_error"] - (13 / 3) ** 0.5) < 1e-9
    report = pass_vs_hard.tally([checked])
    assert report["sign_agrees"] == 1 and report["within_2_se"] == 1


def test_a_rejudged_verdict_keeps_hard_s_play_outs_and_reads_the_coach_against_the_same_best():
    """``--rejudge`` reads the coach's loss between the row's two passes (not against the coach's
    own best of the day) and keeps the realised loss; a pass against itself loses nothing."""
    _, view = _view()
    cards = sorted(view.hand, key=int)
    learner, other = CardSet(cards[:3]), CardSet(cards[3:6])
    args = pass_vs_hard.argparse.Namespace(seed=2026)
    row = {"hand": 1, "source": "normal", "pass": str(learner), "best": str(other), "band": "mistake"}
    row |= {"coach_loss": 9.0, "realised": 1.5, "realised_error": 0.5, "deals": 4}
    (again,) = pass_vs_hard.rejudge([row], args)
    now = pass_vs_hard.coach_loss_between(view, learner, other, pass_vs_hard.SEED + 1)
    assert again["coach_loss"] == now["coach_loss"] and again["coach_loss_before"] == 9.0
    assert again["realised"] == 1.5 and again["realised_error"] == 0.5
    evaluation, graded = pass_vs_hard.verdict(view, learner, pass_vs_hard.SEED + 1)
    direct = evaluation.value_of(learner).loss - evaluation.value_of(other).loss
    if graded.moon_line is None:
        assert abs(now["coach_loss"] - direct) < 3 * max(graded.loss_error, 0.5)
    same = pass_vs_hard.coach_loss_between(view, learner, learner, pass_vs_hard.SEED + 1)
    assert same["coach_loss"] == 0.0


def test_a_row_from_other_games_is_refused_in_one_line_before_anything_is_judged():
    """A verdict re-judged on another seed's games would read another position's figures."""
    _, view = _view()
    row = {
        "hand": 1,
        "source": "normal",
        "hand_cards": str(view.hand),
        "pass": "2♣ 3♣ 4♣",
        "best": "2♣ 3♣ 4♣",
    }
    with pytest.raises(SystemExit, match=r"hand 1: .* is not game seed 2027's"):
        pass_vs_hard.rejudge([row], pass_vs_hard.argparse.Namespace(seed=2027))
