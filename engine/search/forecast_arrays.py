"""The forecast difference (``ForecastValue.of``) at many points at once, with numpy.

A side of a forecast loss (``engine.search.forecast_value``) needs the forecast at its averages and at
two points around each of them (the delta method's gradient): seventeen calls of
``Calibration.predict`` for four players, some 60 microseconds each in Python, and a pass verdict
works out about a thousand sides. Here they are one pass over a (points, 2 * players) array, the
same arithmetic as ``Calibration.predict``, branch for branch (``tests/test_forecast_value.py``
checks that the two agree).
"""

from __future__ import annotations

import numpy as np

from ..moon import NOBODY
from .calibration import FLOOR, MOON_VALUE, QUIET_UNKNOWN, Calibration, _moon_group, _quiet_group
from .calibration import _logit as _logit_of

__all__ = ["forecast_differences"]


def _logit(chance: np.ndarray) -> np.ndarray:
    chance = np.clip(chance, FLOOR, 1.0 - FLOOR)
    return np.log(chance / (1.0 - chance))


def _sigmoid(log_odds: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-log_odds))


def _quiet_shares(calibration: Calibration, moons: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``Calibration.quiet_shares``, a row a point."""
    where = calibration.where
    if where.outstanding <= 0:
        return np.zeros_like(points)
    total = moons.sum(axis=1, keepdims=True)
    unsure = total > 1.0 - 1e-3
    room = np.where(unsure, 1.0, 1.0 - total)
    quiet = np.where(unsure, QUIET_UNKNOWN, (points - MOON_VALUE * (total - moons)) / room)
    return (quiet - np.asarray(where.taken, dtype=float)) / where.outstanding


def _moons(calibration: Calibration, predicted: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """``Calibration._moons``, a row a point."""
    where = calibration.where
    if where.runner >= 0 and where.outstanding == 0:
        return predicted.copy()
    chances = np.zeros_like(predicted)
    for seat in range(predicted.shape[1]):
        if where.runner not in (NOBODY, seat):
            continue  # another seat has taken a moon card: 0
        intercept, slope, per_trick, unseen, per_share = calibration.moon_map[_moon_group(where, seat)]
        chance = predicted[:, seat]
        seen = slope * _logit(chance)
        floor = slope * _logit_of(FLOOR) + unseen  # a moon some deal made: never below
        seen = np.where(chance <= FLOOR, seen + unseen, np.maximum(seen, floor))
        log_odds = intercept + seen + per_trick * where.trick / 13
        log_odds = log_odds + per_share * _logit(shares[:, seat])
        chances[:, seat] = _sigmoid(log_odds)
    total = chances.sum(axis=1, keepdims=True)
    return np.where(total > 1.0, chances / np.where(total > 1.0, total, 1.0), chances)


def forecast_differences(calibration: Calibration, seat: int, means: np.ndarray) -> np.ndarray:
    """``ForecastValue.of`` for each row of ``means`` (every seat's average points, then every
    seat's moon chance): the seat's forecast points minus the others' average."""
    where = calibration.where
    players = means.shape[1] // 2
    points, predicted = means[:, :players], means[:, players:]
    shares = _quiet_shares(calibration, predicted, points)
    calibrated = _moons(calibration, predicted, shares)
    calibrated_total = calibrated.sum(axis=1)
    expected = np.empty_like(points)
    gone = 1.0 - where.outstanding / MOON_VALUE
    mapped = np.zeros_like(points)
    if where.outstanding > 0:
        for other in range(players):
            weights = calibration.quiet_map[_quiet_group(where, other)]
            log_odds = _logit(shares[:, other])
            clean = 1.0 if where.kind == "play" and where.taken[other] == 0 else 0.0
            terms = weights[0] + weights[1] * log_odds + weights[2] * gone + weights[3] * gone * log_odds
            terms = terms + weights[4] * clean
            mapped[:, other] = _sigmoid(terms)
        mapped /= mapped.sum(axis=1, keepdims=True)  # ``Calibration.quiet_mapped``: they add up to 1
    for other in range(players):
        quiet = where.taken[other] + where.outstanding * mapped[:, other]
        others_moons = calibrated_total - calibrated[:, other]
        expected[:, other] = (1.0 - calibrated_total) * quiet + MOON_VALUE * others_moons
    own = expected[:, seat]
    return own - (expected.sum(axis=1) - own) / (players - 1)
