"""Options ranked and their losses measured by the forecast (``engine.search.forecast_value``)."""

from __future__ import annotations

import statistics

import numpy as np
import pytest
from test_calibration import playing_until

import engine.search.forecast_value as forecast_value
from engine import HandState, Rules
from engine.search.budget import PassBudget, PlayBudget
from engine.search.calibration import Calibration, situation
from engine.search.evaluator import band_index, evaluate_pass, evaluate_play
from engine.search.forecast_value import ForecastValue, Rows


def test_a_forecast_loss_is_the_forecasts_difference_against_the_best():
    state = playing_until(lambda s: len(s.tricks) == 3 and len(s.legal_cards()) > 2)
    view = state.view(state.to_move)
    evaluation = evaluate_play(view, PlayBudget(samples=512, measure="forecast"), seed=3)
    assert evaluation.measure == "forecast"
    best = evaluation.best
    differences = [value.forecast.difference for value in evaluation.options]
    assert differences == sorted(differences)  # ranked by the forecast
    for value in evaluation.options:
        assert value.difference == pytest.approx(value.forecast.difference, abs=1e-6)
        assert value.loss == pytest.approx(value.forecast.difference - best.forecast.difference, abs=1e-6)
        assert value.loss_low <= value.loss <= value.loss_high


def test_the_delta_method_error_is_the_spread_of_the_loss_over_seeds():
    passing = HandState.from_seed(4, Rules(), "left")
    view = passing.view(0)
    pair = ["A♣ K♠ Q♥", "10♣ K♠ A♥"]
    gaps, errors = [], []
    for seed in range(40):
        evaluation = evaluate_pass(view, PassBudget(samples=256, measure="forecast"), seed=seed, only=pair)
        first, second = (evaluation.value_of(option) for option in pair)
        gaps.append(second.difference - first.difference)
        errors.append((second if second.loss else first).loss_error)
    spread, error = statistics.stdev(gaps), statistics.mean(errors)
    assert 0.7 * spread < error < 1.4 * spread, (spread, error)


def test_the_forecast_value_is_the_same_without_numpy(monkeypatch):
    state = playing_until(lambda s: len(s.tricks) == 2 and len(s.legal_cards()) > 2)
    view = state.view(state.to_move)
    value = ForecastValue(Calibration(situation(view, "play")), view.seat, 4)
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 14, size=(300, 4))
    shooters = np.where(rng.random(300) < 0.1, rng.integers(0, 4, size=300), -1)
    scores[shooters >= 0] = 26
    scores[np.nonzero(shooters >= 0)[0], shooters[shooters >= 0]] = 0
    weights = rng.random(300).tolist()
    arrays = Rows(2, 4)
    arrays.add(0, scores[:150], shooters[:150])
    arrays.add(0, scores[150:], shooters[150:])
    arrays.add(1, scores[::-1].copy(), shooters[::-1].copy())
    expected = value.paired(arrays, 0, 1, weights)
    monkeypatch.setattr(forecast_value, "np", None)
    lists = Rows(2, 4)
    lists.add(0, scores.tolist(), shooters.tolist())
    lists.add(1, scores[::-1].tolist(), shooters[::-1].tolist())
    assert value.paired(lists, 0, 1, weights) == pytest.approx(expected, rel=1e-6)
    assert value.single(lists, 0, weights)[0] == pytest.approx(value.of(_means(scores, shooters, weights)))


def _means(scores, shooters, weights) -> list[float]:
    weights = np.asarray(weights)
    moons = np.stack([(shooters == seat) for seat in range(4)], axis=1)
    return ((weights @ scores) / weights.sum()).tolist() + ((weights @ moons) / weights.sum()).tolist()


def test_a_judged_forecast_verdict_stops_inside_one_band():
    state = playing_until(lambda s: len(s.tricks) == 4 and len(s.legal_cards()) > 3)
    view = state.view(state.to_move)
    limits = (0.5, 1.5, 3.0)
    judged = view.legal_cards[-1]
    evaluation = evaluate_play(
        view, PlayBudget(samples=8192, measure="forecast"), seed=2, judge=judged, limits=limits
    )
    value = evaluation.value_of(judged)
    if evaluation.decided:
        assert band_index(value.loss_low, limits) == band_index(value.loss_high, limits)
    else:
        assert evaluation.samples == 8192


def test_the_forecast_measure_applies_only_where_the_forecast_does():
    three = HandState.from_seed(4, Rules(players=3), "left")
    evaluation = evaluate_pass(
        three.view(0), PassBudget(samples=64, stages=((16, 4),), measure="forecast"), seed=1
    )
    assert evaluation.measure == "playout"
    assert evaluation.best.forecast is None
    with pytest.raises(ValueError, match="measure must be one of playout, forecast, not 'odds'"):
        evaluate_pass(three.view(0), PassBudget(samples=64, stages=((16, 4),), measure="odds"), seed=1)


def made_up_deals(tricks: int, seed: int, deals: int):
    """A play position after ``tricks`` tricks, its forecast, and made-up deals' scores and
    shooters (a moon in one deal of twenty)."""
    state = playing_until(lambda s: len(s.tricks) == tricks and len(s.legal_cards()) > 2)
    view = state.view(state.to_move)
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 14, size=(deals, 4))
    shooters = np.where(rng.random(deals) < 0.05, rng.integers(0, 4, size=deals), -1)
    return view, Calibration(situation(view, "play")), rng, scores, shooters


def test_a_forecast_worked_out_once_is_worked_out_again_when_more_deals_come():
    view, calibration, rng, scores, shooters = made_up_deals(2, 9, 400)
    weights = rng.random(400).tolist()
    rows, value = Rows(2, 4), ForecastValue(calibration, view.seat, 4)
    rows.add(0, scores[:200], shooters[:200])
    rows.add(1, scores[200:], shooters[200:])
    value.paired(rows, 0, 1, weights)
    rows.add(0, scores[200:], shooters[200:])
    rows.add(1, scores[:200], shooters[:200])
    fresh = ForecastValue(calibration, view.seat, 4)
    assert value.paired(rows, 0, 1, weights) == fresh.paired(rows, 0, 1, weights)
    assert value.single(rows, 1, weights) == fresh.single(rows, 1, weights)
    other = weights[:200] + [1.0] * 200  # other weights for the same deals: worked out again
    assert value.paired(rows, 0, 1, other) == ForecastValue(calibration, view.seat, 4).paired(
        rows, 0, 1, other
    )


def test_weights_that_grow_with_the_deals_are_read_again():
    """The tally's weights are one list per option that grows as deals come; the forecast keeps
    it as an array and must take in what was added, not the length it first saw."""
    view, calibration, rng, scores, shooters = made_up_deals(3, 4, 600)
    growing = rng.random(300).tolist()
    rows, value = Rows(2, 4), ForecastValue(calibration, view.seat, 4)
    rows.add(0, scores[:300], shooters[:300])
    rows.add(1, scores[300:], shooters[300:])
    first = value.paired(rows, 0, 1, growing)
    growing.extend(rng.random(300).tolist())
    rows.add(0, scores[300:], shooters[300:])
    rows.add(1, scores[:300], shooters[:300])
    again = value.paired(rows, 0, 1, growing)
    assert again != first
    assert again == ForecastValue(calibration, view.seat, 4).paired(rows, 0, 1, list(growing))
    assert value.single(rows, 0, growing) == ForecastValue(calibration, view.seat, 4).single(
        rows, 0, list(growing)
    )


def test_a_forecast_verdict_is_the_same_without_numpy(monkeypatch):
    """Under Pyodide without numpy the forecast's rows are lists: the same judged verdict."""
    state = playing_until(lambda s: len(s.tricks) == 3 and len(s.legal_cards()) > 2)
    view = state.view(state.to_move)
    card = view.legal_cards[0]
    budget = PlayBudget(samples=1024, measure="forecast")
    settings = dict(seed=4, vectorized=False, judge=card, limits=(0.5, 1.0, 2.5, 6.0))
    fast = evaluate_play(view, budget, **settings)
    monkeypatch.setattr("engine.search.evaluator.np", None)
    monkeypatch.setattr(forecast_value, "np", None)
    slow = evaluate_play(view, budget, **settings)
    assert fast.measure == slow.measure == "forecast"
    assert (fast.samples, fast.decided) == (slow.samples, slow.decided)
    for a, b in zip(fast.options, slow.options, strict=True):
        assert a.option == b.option
        assert (a.loss, a.loss_low, a.loss_high) == pytest.approx((b.loss, b.loss_low, b.loss_high), abs=1e-7)
