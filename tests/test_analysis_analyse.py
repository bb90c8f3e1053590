"""The analysis board's ranking is the coach's own evaluation of the position: the same options in
the same order with the same bands and figures, and the coach's verdict on any of them."""

from __future__ import annotations

import itertools

import pytest

from engine import CardSet, Phase
from tests.analysis_helpers import decisions
from trainer.analysis import PositionError, analyse, from_view
from trainer.coach import coach_pass, coach_play, grade
from trainer.coach.depth import BROWSER, SHALLOWER_NOTE, Depth, judge
from trainer.coach.heatmap import pass_pairs
from trainer.coach.hint import first_look

SMALL = Depth(
    play_samples=512,
    exact_samples=64,
    pass_samples=512,
    pass_stages=((64, 8),),
    min_samples=64,
    pass_min_samples=64,
    play_seconds=None,
    pass_seconds=None,
)
"""A small budget: a test looks at the coach's procedure, not at its depth."""


def positions():
    views = list(decisions("standard", range(2)))
    passing = next(view for view in views if view.phase is Phase.PASSING)
    middle = next(view for view in views if len(view.tricks) == 4 and len(view.legal_cards) >= 3)
    late = next(view for view in views if len(view.tricks) == 10 and len(view.legal_cards) >= 2)
    return [passing, middle, late]


@pytest.fixture(scope="module", params=range(3), ids=["pass", "trick 5", "trick 11"])
def case(request):
    view = positions()[request.param]
    pos = from_view(view)
    steps = []
    analysis = analyse(pos, SMALL, seed=7, progress=lambda done, total: steps.append((done, total)))
    return pos, analysis, steps


def test_the_ranking_is_the_coachs_evaluation_of_the_same_view_and_seed(case):
    pos, analysis, _ = case
    view = pos.view()
    assert analysis.view == view
    expected = judge(view, analysis.judged, 7, SMALL)
    assert [row.option for row in analysis.rows] == [value.option for value in expected.options]
    for row, value in zip(analysis.rows, expected.options, strict=True):
        g = grade(expected, value.option)
        assert (row.band, row.label, row.loss, row.loss_low, row.loss_high) == (
            g.band,
            g.label,
            g.loss,
            g.low,
            g.high,
        )
        assert (row.points, row.others, row.moon_for, row.moon_against) == (
            value.points,
            value.others,
            value.moon_for,
            value.moon_against,
        )
        assert row.moon_by_seat == value.moon_by_seat
    if pos.moment == "pass":
        assert len(analysis.rows) == 286  # every pass of 13 cards
    else:
        assert {row.option for row in analysis.rows} == set(view.legal_cards)
    # the coach's choice: the first look's best, unless the coach's verdict on it does not call it best
    first = first_look(view, 7, SMALL)
    if analysis.judged != first:
        assert not grade(judge(view, first, 7, SMALL), first).correct


def test_each_verdict_is_the_coachs_verdict_from_the_same_evaluation(case):
    pos, analysis, _ = case
    coach = coach_pass if pos.moment == "pass" else coach_play
    for row in (analysis.rows[0], analysis.rows[-1]):
        verdict = analysis.verdict(row.option)
        again = coach(analysis.view, row.option, analysis.evaluation)
        assert (verdict.headline, verdict.reasons, verdict.numbers) == (
            again.headline,
            again.reasons,
            again.numbers,
        )
        assert verdict.grade.band is row.band
        assert analysis.verdict(row.text).headline == verdict.headline  # the option typed as text
    with pytest.raises(PositionError, match=r"^option: "):
        analysis.verdict(
            "2D 3D 4D 5D" if pos.moment == "pass" else str(next(iter(analysis.view.unseen_cards)))
        )


def test_a_pass_has_its_heat_map_and_a_play_none(case):
    pos, analysis, _ = case
    if pos.moment != "pass":
        assert analysis.heatmap is None
        return
    layers = analysis.heatmap.spec["layer"]
    assert layers[0]["data"]["values"] == pass_pairs(analysis.evaluation, analysis.view.hand)
    outlined = {(mark["first"], mark["second"]) for mark in layers[1]["data"]["values"]}
    best = [str(card) for card in CardSet(analysis.rows[0].option)]
    assert outlined == {(a, b) for i, a in enumerate(best) for b in best[i:]}


def test_progress_runs_from_nothing_to_every_look_done(case):
    _, _, steps = case
    assert steps[0][0] == 0 and steps[-1][0] == steps[-1][1] >= 2
    assert all(later[0] > earlier[0] for earlier, later in itertools.pairwise(steps))
    assert len(steps) >= 3


def test_the_installed_depth_has_no_browser_note(case):
    _, analysis, _ = case
    assert analysis.shallower_note is None


def test_at_the_browsers_depth_the_analysis_carries_the_note_that_says_so():
    pos = from_view(positions()[1])
    analysis = analyse(pos, BROWSER, seed=3)
    assert analysis.evaluation.samples <= BROWSER.play_samples
    assert analysis.shallower_note == SHALLOWER_NOTE
