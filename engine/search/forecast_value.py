"""Options valued by their forecast, with errors paired deal by deal (the delta method).

The forecast (``engine.search.calibration``) maps the play-outs' *averages* (every seat's points and moon
chance) onto what strong players make of such positions; it is not a sum over deals, so an
option's forecast difference (its points minus the others' average) has no per-deal value to
pair. Its error comes from the first-order expansion around the averages: each deal counts as
the gradient of the forecast times that deal's points and moons, and two options' gap is paired
on the deals both were played in. The gap itself is the forecasts' difference at the averages.

Each deal is kept as a row of ``2 * players`` numbers: every seat's points, then a 1 for the seat
that shot the moon (numpy float32 blocks where numpy is there, lists of tuples otherwise).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import mul

from .calibration import Calibration

try:
    import numpy as np

    from .forecast_arrays import forecast_differences
except ImportError:  # pragma: no cover - the engine also runs without numpy, more slowly
    np = None

__all__ = ["ForecastValue", "Rows"]

POINT_STEP = 0.01
MOON_STEP = 1e-4
"""Steps of the numerical gradient: points move in whole points, moon chances in fractions."""

SIDES_KEPT = 64
"""Options' forecasts kept worked out (each with a number a deal: a pass's finalists reach a
quarter of a million deals between them, so the oldest go)."""


class Rows:
    """Every deal an option was played in, as (points of every seat, moon of every seat)."""

    def __init__(self, count: int, players: int) -> None:
        self.players = players
        self.blocks: list[list] = [[] for _ in range(count)]
        self.counts = [0] * count
        self._joined: list = [None] * count

    def add(self, index: int, scores: Sequence, shooters: Sequence) -> None:
        """One option's deals: ``scores`` (deals x players) and ``shooters`` (-1 for none)."""
        if np is not None and isinstance(scores, np.ndarray):
            block = np.zeros((len(scores), 2 * self.players), dtype=np.float32)
            block[:, : self.players] = scores
            seats = np.asarray(shooters)
            hit = seats >= 0
            block[np.nonzero(hit)[0], self.players + seats[hit]] = 1.0
        else:
            block = []
            for score, shooter in zip(scores, shooters, strict=True):
                moon = [0.0] * self.players
                if shooter >= 0:
                    moon[shooter] = 1.0
                block.append(tuple(float(s) for s in score) + tuple(moon))
        self.blocks[index].append(block)
        self.counts[index] += len(scores)
        self._joined[index] = None

    def first(self, index: int, count: int):
        """The option's first ``count`` deals (an array, or a list of tuples)."""
        joined = self._joined[index]
        if joined is None:
            blocks = self.blocks[index]
            if np is not None and blocks and isinstance(blocks[0], np.ndarray):
                joined = np.concatenate(blocks) if len(blocks) > 1 else blocks[0]
                self.blocks[index] = [joined]
            else:
                joined = [row for block in blocks for row in block]
            self._joined[index] = joined
        return joined[:count]


class ForecastValue:
    """The deciding seat's forecast difference (its points minus the others' average, both as
    the forecast expects them) as a function of the averages, with its gradient."""

    def __init__(self, calibration: Calibration, seat: int, players: int) -> None:
        self.calibration = calibration
        self.seat = seat
        self.players = players
        # (rows, option, deals, their weight) -> (value, each deal's row times the gradient): an
        # option's forecast on its first deals is paired against every rival, so it is worked
        # out once (rows only grow).
        self._sides: dict[tuple[int, int, int, float], tuple[Rows, float, object]] = {}
        # id of an option's weights (a list that only grows) -> (the list, it as an array so far)
        self._weight_arrays: dict[int, tuple[list[float], object]] = {}

    def of(self, means: Sequence[float]) -> float:
        """``means``: every seat's average points, then every seat's moon chance."""
        players = self.players
        _, points = self.calibration.predict(means[players:], means[:players])
        own = points[self.seat]
        return own - (sum(points) - own) / (players - 1)

    def gradient(self, means: Sequence[float]) -> list[float]:
        means = [float(m) for m in means]
        slopes = []
        for k, (lower, upper) in enumerate(self._around(means)):
            slopes.append((self.of(upper) - self.of(lower)) / (upper[k] - lower[k]))
        return slopes

    def value_and_gradient(self, means: Sequence[float]) -> tuple[float, list[float]]:
        """``of`` and ``gradient`` at ``means``; with numpy, every point in one pass."""
        means = [float(m) for m in means]
        if np is None:
            return self.of(means), self.gradient(means)
        around = self._around(means)
        points = np.array([means] + [row for pair in around for row in pair], dtype=float)
        values = forecast_differences(self.calibration, self.seat, points)
        slopes = [
            (float(values[2 + 2 * k]) - float(values[1 + 2 * k])) / (upper[k] - lower[k])
            for k, (lower, upper) in enumerate(around)
        ]
        return float(values[0]), slopes

    def _around(self, means: list[float]) -> list[tuple[list[float], list[float]]]:
        """The two points either side of ``means`` in each coordinate where the gradient is taken:
        points move in whole points, moon chances in fractions, and neither leaves its range."""
        pairs = []
        for k, mean in enumerate(means):
            step = POINT_STEP if k < self.players else MOON_STEP
            low, high = max(mean - step, 0.0), mean + step
            if k >= self.players:
                high = min(high, 1.0)
            lower, upper = list(means), list(means)
            lower[k], upper[k] = low, high
            pairs.append((lower, upper))
        return pairs

    def paired(self, rows: Rows, option: int, other: int, weights: Sequence[float]) -> tuple[float, float]:
        """Mean and standard error of ``option``'s forecast difference minus ``other``'s on the
        deals both were played in (``weights`` per deal, the same for both)."""
        count = min(rows.counts[option], rows.counts[other])
        return self._gap(rows, option, other, count, weights)

    def single(self, rows: Rows, option: int, weights: Sequence[float]) -> tuple[float, float]:
        """Mean and standard error of one option's forecast difference."""
        return self._gap(rows, option, None, rows.counts[option], weights)

    def _side(self, rows: Rows, option: int, count: int, weights) -> tuple[float, object]:
        """The option's forecast difference on its first ``count`` deals, and each deal's
        gradient-weighted row (what the delta method pairs against every rival's)."""
        deals = rows.first(option, count)
        arrays = np is not None and isinstance(deals, np.ndarray)
        total = float(weights.sum()) if arrays else sum(weights)
        key = (id(rows), option, count, total)
        known = self._sides.get(key)
        if known is not None and known[0] is rows:
            return known[1], known[2]
        if arrays:
            means = ((weights @ deals) / total).tolist()
        else:
            means = [sum(map(mul, weights, column)) / total for column in zip(*deals, strict=True)]
        value, slope = self.value_and_gradient(means)
        if arrays:
            dots = deals @ np.asarray(slope, dtype=float)
        else:
            dots = [sum(map(mul, slope, row)) for row in deals]
        self._sides[key] = (rows, value, dots)
        if len(self._sides) > SIDES_KEPT:
            del self._sides[next(iter(self._sides))]  # the oldest: rows only grow
        return value, dots

    def _weights(self, weights: list[float], count: int, arrays: bool):
        """The first ``count`` weights, as an array on the numpy path: the list only grows, so
        only what was added since the last call is converted."""
        if not arrays:
            return weights[:count]
        known = self._weight_arrays.get(id(weights))
        if known is None or known[0] is not weights:
            array = np.asarray(weights, dtype=float)
        elif len(known[1]) < len(weights):
            array = np.concatenate([known[1], np.asarray(weights[len(known[1]) :], dtype=float)])
        else:
            array = known[1]
        self._weight_arrays[id(weights)] = (weights, array)
        return array[:count]

    def _gap(
        self, rows: Rows, option: int, other: int | None, count: int, weights: list[float]
    ) -> tuple[float, float]:
        arrays = np is not None and isinstance(rows.first(option, count), np.ndarray)
        weights = self._weights(weights, count, arrays)
        gap, values = self._side(rows, option, count, weights)
        if other is not None:
            their_gap, theirs = self._side(rows, other, count, weights)
            gap -= their_gap
            values = values - theirs if arrays else [v - t for v, t in zip(values, theirs, strict=True)]
        if arrays:
            return gap, _error_arrays(values, weights)
        return gap, _error(values, weights)


def _error_arrays(values, weights) -> float:
    """``_error`` with numpy."""
    total = float(weights.sum())
    effective = total * total / float((weights * weights).sum())
    if effective <= 1.0:
        return math.inf
    centre = float(weights @ values) / total
    variance = float(weights @ (values - centre) ** 2) / total
    return math.sqrt(variance / (effective - 1.0))


def _error(values: Sequence[float], weights: Sequence[float]) -> float:
    """Standard error of a weighted mean (Kish's effective number of deals), as the evaluator's."""
    total = sum(weights)
    effective = total * total / sum(w * w for w in weights)
    if effective <= 1.0:
        return math.inf
    centre = sum(w * v for w, v in zip(weights, values, strict=True)) / total
    variance = sum(w * (v - centre) ** 2 for w, v in zip(weights, values, strict=True)) / total
    return math.sqrt(variance / (effective - 1.0))
