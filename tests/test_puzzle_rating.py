"""Glicko-2, checked against the worked example in Glickman's paper."""

import pytest

from trainer.puzzles.rating import Rating, update


def test_glicko2_matches_glickmans_worked_example():
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]
    after = update(player, results)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_solving_raises_the_learner_and_lowers_the_puzzle():
    learner, puzzle = Rating(1500, 200), Rating(1500, 200)
    assert update(learner, [(puzzle, 1)]).rating > 1500
    assert update(puzzle, [(learner, 0)]).rating < 1500
    assert update(learner, [(puzzle, 1)]).deviation < 200


def test_a_period_without_games_widens_the_deviation():
    assert update(Rating(1500, 100), []).deviation > 100
