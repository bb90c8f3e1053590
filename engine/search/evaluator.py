"""The evaluator: every option of a pass or play decision, valued in expected points.

For a seat's view it imagines many deals of the hidden cards that fit what the seat knows
(``engine.search.sampling``), plays each option out in every one of them (``engine.search.outcomes``: the
play-out policy, compiled where numba is there, or an exact solution late in the hand) and
reports per option: every seat's expected points for the hand, the seat's own and the other
seats' average, their difference (what wins games, and what makes a moon worth its risk: the
ranking key, lower is better), its standard error, each seat's chance of shooting the moon, and
the expected loss against the best option with its standard error and interval. Every option
is played in the same imagined deals, so the losses are paired comparisons and much tighter
than the values. Beside them, each option's *forecast* (``Forecast``): the moon chances and
points to expect against strong players, the play-outs' mapped by ``engine.search.calibration``.

Options are ranked and their losses measured by the play-outs' own points, or (``measure=
"forecast"``, what the coach uses) by the forecast where it applies and the play is not solved
exactly (solved values are shown as they are, ``MEASURES``): a loss is then the
forecasts' difference, its error paired deal by deal by the delta method
(``engine.search.forecast_value``). The play-outs' own losses overstate what strong players lose on
the true deal (about 1.6 times, ``benchmarks/loss_calibration.py``); the forecasts' do not.

A verdict is a function of the position, the seed and the budget in deals. Asked to *judge*
one option against band ``limits``, the evaluator keeps adding rounds of deals until the
interval of that option's loss (``Z`` standard errors either side, against every other option)
lies inside one band, or the budget is spent (then ``Evaluation.decided`` is False). A time
limit is only a safety stop, and ``Evaluation.clock_stopped`` says when it fired.

Passing has C(13, 3) = 286 choices: all are screened on a few deals and the better ones on more
and more (successive halving, ``budget.PASS_STAGES``); the finalists, and any pass to judge, are then
valued on fresh deals that played no part in choosing them, so the best pass's value is not
flattered by its selection.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import sys
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass

from ..cards import Card, CardSet, iter_mask, to_card
from ..hand import Phase
from ..moon import BLOCKERS, Blocking
from ..view import PlayerView
from .budget import PASS_DEFAULTS, PLAY_DEFAULTS, ROUND, PassBudget, PlayBudget
from .calibration import Calibration, calibration_for
from .forecast_value import ForecastValue, Rows
from .outcomes import HAVE_COMPILED, Outcomes, PlayWorlds, pass_deals, pass_outcomes, play_outcomes

try:
    import numpy as np
except ImportError:  # pragma: no cover - the engine also runs without numpy, more slowly
    np = None

__all__ = [
    "EXACT_CARDS",
    "MEASURES",
    "DealsDone",
    "Evaluation",
    "Forecast",
    "OptionValue",
    "Z",
    "evaluate_pass",
    "evaluate_pass_steps",
    "evaluate_play",
    "evaluate_play_steps",
]

DealsDone = Callable[[int, int], None]
"""Told the deals done so far and the deals planned, after each round."""

Z = 2.5
"""Standard errors either side of a loss: its interval (wide enough to stay true when the
sampling stops at the first round that looks settled)."""

STEP_PLAYOUTS = 1500 if sys.platform == "emscripten" else None
"""Most play-outs in one part of a look in parts (``evaluate_pass_steps``, ``evaluate_play_steps``)
in the browser, where Pyodide plays them out in pure Python, a fifth of a millisecond or more each:
a part ends before a round (or a slice of a pass's screening) would take it past so many. Installed
(None) a look is one part, as before."""


class _Parts:
    """Where a look in parts yields: before play-outs that would take its part past
    ``STEP_PLAYOUTS`` (never installed)."""

    def __init__(self) -> None:
        self.run = 0

    def due(self, playouts: int) -> bool:
        if STEP_PLAYOUTS is None:
            return False
        due = self.run > 0 and self.run + playouts > STEP_PLAYOUTS
        self.run = playouts if due else self.run + playouts
        return due


EXACT_CARDS = 5
"""Solve each imagined deal exactly once every seat holds at most this many cards."""

MEASURES = ("playout", "forecast")
"""What options are ranked and their losses measured by: the play-outs' own points, or the
forecast (``engine.search.calibration``: the points to expect against strong players), where the
forecast applies; elsewhere the play-outs'. A play solved exactly is measured by its solved
values whatever is asked: the map forecasts what strong players make of the policy's play-outs,
and a solved value is no play-out to forecast (with one deal possible the map turned a certain
17 points into 17.6, and a certain loss of 2.67, a mistake, into 2.2, issue 50)."""


@dataclass(frozen=True)
class Forecast:
    """What an option is expected to give against strong players: the play-outs' moon chances and
    points mapped onto what Hard x4 made of such positions (``engine.search.calibration``). The option's
    value and loss stay the play-outs' (paired on the same deals); this is the outcome to expect."""

    moon_by_seat: tuple[float, ...]
    seat_points: tuple[float, ...]
    seat: int

    @property
    def points(self) -> float:
        return self.seat_points[self.seat]

    @property
    def others(self) -> float:
        return (sum(self.seat_points) - self.points) / (len(self.seat_points) - 1)

    @property
    def difference(self) -> float:
        return self.points - self.others

    @property
    def moon_for(self) -> float:
        return self.moon_by_seat[self.seat]

    @property
    def moon_against(self) -> float:
        return sum(self.moon_by_seat) - self.moon_for


@dataclass(frozen=True)
class OptionValue:
    """An option's figures: the play-outs', or under the forecast measure (``MEASURES``) the
    forecast's, so that points, moon chances and losses always tell the same story."""

    option: Card | CardSet
    points: float
    """Expected points for the hand (the seat's own score; lower is better)."""
    others: float
    """Expected average points of the other seats."""
    difference: float
    """The ranking key: ``points - others``, or under the forecast measure the forecast's."""
    standard_error: float
    """Standard error of ``difference``."""
    moon_for: float
    """Chance that this seat shoots the moon."""
    moon_against: float
    """Chance that another seat shoots the moon."""
    loss: float
    """Expected ``difference`` lost against the best option (0 for the best): under the
    forecast measure the forecasts' difference, its error by the delta method."""
    loss_error: float
    """Standard error of ``loss``, from the same deals played both ways."""
    samples: int
    seat_points: tuple[float, ...] = ()
    """Expected points of every seat."""
    moon_by_seat: tuple[float, ...] = ()
    """Every seat's chance of shooting the moon."""
    loss_low: float = 0.0
    loss_high: float = 0.0
    """The interval of ``loss``: ``Z`` standard errors either side of the paired loss against
    each rival, widest. The judged option and the best are compared with every option valued
    on their deals, the others with the best only."""
    forecast: Forecast | None = None
    """The outcome to expect against strong players, where ``engine.search.calibration`` applies."""
    certain: bool = False
    """Every deal the view allows was solved and each gave every seat the same points: the
    figures are the outcome itself (whole points for each seat), not an average."""


@dataclass(frozen=True)
class Evaluation:
    kind: str
    """"play" or "pass"."""
    seat: int
    options: tuple[OptionValue, ...]
    """Every option, best first."""
    seed: int
    samples: int
    """Imagined deals behind the leading options' values."""
    seconds: float
    method: str = "policy"
    """"policy" (play-outs by ``engine.search.policy``) or "exact" (every deal solved exactly)."""
    judged: Card | CardSet | None = None
    """The option the budget was spent on settling, if any."""
    decided: bool = True
    """The judged option's loss interval lies inside one band of the limits asked for."""
    clock_stopped: bool = False
    """The safety time limit ended the evaluation before its budget in deals."""
    measure: str = "playout"
    """What the options are ranked and their losses measured by (``MEASURES``): "forecast" only
    where the forecast applies and the play was not solved exactly (``method``)."""
    strong_blockers: Evaluation | None = None
    """The same position valued again with blockers at any price (``engine.moon.STRONG_BLOCKERS``),
    when a verdict asked for that check (``trainer.coach.depth``); else None."""
    every_deal: bool = False
    """Every deal the view allows was solved once (``samples`` of them, ``evaluate_play``'s
    ``every_deal``): the values are exact, with no sampling error."""
    solved_check: Evaluation | None = None
    """A policy verdict's check: some of the same view's deals solved exactly (measured in the
    solved points), when a verdict asked for it (``trainer.coach.depth``); else None."""

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    def value_of(self, option: Card | CardSet | str | Sequence) -> OptionValue:
        """The value of one option: a card (or its text) for a play, cards for a pass."""
        wanted = _as_option(self.kind, option)
        for value in self.options:
            if value.option == wanted:
                return value
        raise KeyError(f"{option} is not one of the options evaluated")

    def loss_of(self, option: Card | CardSet | str | Sequence) -> float:
        return self.value_of(option).loss


def _as_option(kind: str, option: object) -> Card | CardSet:
    if isinstance(option, (Card, CardSet)):
        return option
    return CardSet(option) if kind == "pass" else to_card(option)


class _Tally:
    """Per option and per imagined deal: the seat's score minus the others' average, and the
    deal's weight (1, unless a moon runner's plays are being read: ``engine.search.inference``); and
    per option, every seat's points and moons, weighted and summed."""

    def __init__(
        self,
        count: int,
        players: int,
        seat: int,
        calibration: Calibration | None = None,
        forecasting: bool = False,
    ) -> None:
        self.players = players
        self.seat = seat
        self.calibration = calibration
        self.differences: list[list[float]] = [[] for _ in range(count)]
        self.weights: list[list[float]] = [[] for _ in range(count)]
        self.points = [[0.0] * players for _ in range(count)]
        self.moons = [[0.0] * players for _ in range(count)]
        # every seat's lowest and highest points over the option's deals: equal, the outcome is one
        self.lowest: list[list[float] | None] = [None] * count
        self.highest: list[list[float] | None] = [None] * count
        self.exhaustive = False
        """Every deal the view allows is in: means are exact, their errors 0."""
        # Ranked by the forecast: every deal's row is kept to pair the forecasts' errors.
        self.forecast = None
        self.rows = None
        if forecasting and calibration is not None:
            self.forecast = ForecastValue(calibration, seat, players)
            self.rows = Rows(count, players)

    def add_rows(
        self, indices: Sequence[int], deals: int, outcomes: Outcomes, weights: Sequence[float] | None = None
    ) -> None:
        """Outcomes of options ``indices`` (option-major rows, ``deals`` per option); ``weights``
        per deal (the same for every option)."""
        scores, shooters = outcomes
        seat, others = self.seat, self.players - 1
        weights = list(weights) if weights is not None else [1.0] * deals
        if np is not None and isinstance(scores, np.ndarray):
            own = scores[:, seat]
            differences = (own - (scores.sum(axis=1) - own) / others).tolist()
            column = np.array(weights)
            for block, index in enumerate(indices):
                rows = slice(block * deals, (block + 1) * deals)
                self.differences[index].extend(differences[block * deals : (block + 1) * deals])
                self.weights[index].extend(weights)
                totals = (scores[rows] * column[:, None]).sum(axis=0).tolist()
                self.points[index] = [a + b for a, b in zip(self.points[index], totals, strict=True)]
                moons = np.bincount(shooters[rows] + 1, column, minlength=self.players + 1)[1:].tolist()
                self.moons[index] = [a + b for a, b in zip(self.moons[index], moons, strict=True)]
                if deals:
                    self._spread(index, scores[rows].min(axis=0).tolist(), scores[rows].max(axis=0).tolist())
                if self.rows is not None:
                    self.rows.add(index, scores[rows], shooters[rows])
            return
        if self.rows is not None:
            for block, index in enumerate(indices):
                rows = slice(block * deals, (block + 1) * deals)
                self.rows.add(index, scores[rows], shooters[rows])
        for row, (score, shooter) in enumerate(zip(scores, shooters, strict=True)):
            index = indices[row // deals]
            weight = weights[row % deals]
            own = score[seat]
            self.differences[index].append(own - (sum(score) - own) / others)
            self.weights[index].append(weight)
            totals = self.points[index]
            for player, points in enumerate(score):
                totals[player] += weight * points
            if shooter >= 0:
                self.moons[index][shooter] += weight
            self._spread(index, list(score), list(score))

    def _spread(self, index: int, low: list[float], high: list[float]) -> None:
        known_low, known_high = self.lowest[index], self.highest[index]
        if known_low is None or known_high is None:
            self.lowest[index], self.highest[index] = low, high
            return
        self.lowest[index] = [min(a, b) for a, b in zip(known_low, low, strict=True)]
        self.highest[index] = [max(a, b) for a, b in zip(known_high, high, strict=True)]

    def certain(self, option: int) -> bool:
        """Every deal the view allows is in and each gave every seat the same points."""
        low, high = self.lowest[option], self.highest[option]
        return self.exhaustive and low is not None and low == high

    def count(self, option: int) -> int:
        return len(self.differences[option])

    def total_weight(self, option: int) -> float:
        return sum(self.weights[option])

    def mean(self, option: int) -> float:
        """The ranking key: the option's mean difference, or its forecast's."""
        if self.forecast is not None:
            weight = self.total_weight(option)
            means = [p / weight for p in self.points[option]] + [m / weight for m in self.moons[option]]
            return self.forecast.of(means)
        return _weighted(self.differences[option], self.weights[option])[0]

    def value(self, option: int) -> tuple[float, float]:
        """The ranking key and its standard error."""
        if self.forecast is not None:
            mean, error = self.forecast.single(self.rows, option, self.weights[option])
        else:
            mean, error = _weighted(self.differences[option], self.weights[option])
        return mean, 0.0 if self.exhaustive else error


_VECTOR_FROM = 256
"""Deals from which the sums below are taken by numpy (when present): a pass's finals reach a
quarter of a million deals, where Python's loops cost a second."""


def _weighted(values: Sequence[float], weights: Sequence[float]) -> tuple[float, float]:
    """Weighted mean and its standard error (from the effective number of deals, Kish's)."""
    if np is not None and len(values) >= _VECTOR_FROM:
        return _weighted_arrays(np.asarray(values, dtype=float), np.asarray(weights, dtype=float))
    total = sum(weights)
    squares = sum(w * w for w in weights)
    mean = sum(w * v for w, v in zip(weights, values, strict=True)) / total
    effective = total * total / squares
    if effective <= 1.0:
        return mean, math.inf
    variance = sum(w * (v - mean) ** 2 for w, v in zip(weights, values, strict=True)) / total
    return mean, math.sqrt(variance / (effective - 1.0))


def _weighted_arrays(values: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    total = float(weights.sum())
    effective = total * total / float((weights * weights).sum())
    mean = float((weights * values).sum()) / total
    if effective <= 1.0:
        return mean, math.inf
    variance = float((weights * (values - mean) ** 2).sum()) / total
    return mean, math.sqrt(variance / (effective - 1.0))


class _Pairs:
    """Running weighted sums of one option's paired differences against each rival, so the
    stopping rule costs the same after the thousandth deal as after the first."""

    def __init__(self, tally: _Tally, option: int, rivals: Sequence[int]) -> None:
        self.tally, self.option = tally, option
        self.rivals = [rival for rival in rivals if rival != option]
        self.sums = [0.0] * len(self.rivals)
        self.squares = [0.0] * len(self.rivals)
        self.weight = self.weight_squares = 0.0
        self.count = 0
        self.intervals: list[tuple[float, float]] = []

    def update(self) -> tuple[float, float]:
        """Take in the deals added since the last call; the loss's interval (low, high)."""
        mine = self.tally.differences[self.option]
        weights = self.tally.weights[self.option]
        start, self.count = self.count, len(mine)
        for index in range(start, self.count):
            self.weight += weights[index]
            self.weight_squares += weights[index] ** 2
        effective = self.effective
        low = high = 0.0
        self.intervals = []
        # The forecast is not a sum over deals, and every deal in has no error: paired again.
        if self.tally.forecast is not None or self.tally.exhaustive:
            for rival in self.rivals:
                mean, error = _paired(self.tally, self.option, rival)
                low = max(low, mean - Z * error)
                high = max(high, mean + Z * error)
                self.intervals.append((mean - Z * error, mean + Z * error))
            return low, high
        vector = np is not None and self.count - start >= _VECTOR_FROM
        if vector:
            new_mine = np.asarray(mine[start:], dtype=float)
            new_weights = np.asarray(weights[start:], dtype=float)
        for k, rival in enumerate(self.rivals):
            theirs = self.tally.differences[rival]
            total, squares = self.sums[k], self.squares[k]
            if vector:
                gaps = new_mine - np.asarray(theirs[start : self.count], dtype=float)
                weighted = new_weights * gaps
                total += float(weighted.sum())
                squares += float((weighted * gaps).sum())
            else:
                for index in range(start, self.count):
                    gap = mine[index] - theirs[index]
                    total += weights[index] * gap
                    squares += weights[index] * gap * gap
            self.sums[k], self.squares[k] = total, squares
            mean = total / self.weight
            variance = max(squares / self.weight - mean * mean, 0.0)
            error = math.sqrt(variance / (effective - 1.0)) if effective > 1.0 else math.inf
            low = max(low, mean - Z * error)
            high = max(high, mean + Z * error)
            self.intervals.append((mean - Z * error, mean + Z * error))
        return low, high

    @property
    def effective(self) -> float:
        """Kish's effective number of deals taken in: read plays can leave a few deals with most
        of the weight, and an interval from a handful of deals that happen to agree is too narrow."""
        return self.weight**2 / self.weight_squares if self.weight_squares else 0.0

    def outclassed(self) -> list[int]:
        """Rivals that no longer bear on the loss: the loss is the option's largest gap to a
        rival, or 0 when it is the best, and these rivals' gaps lie wholly below another rival's
        or below 0 (from the last ``update``)."""
        floor = max([0.0, *(low for low, _ in self.intervals)])
        return [rival for rival, (_, high) in zip(self.rivals, self.intervals, strict=True) if high < floor]

    def drop(self, rivals: Sequence[int]) -> None:
        keep = [k for k, rival in enumerate(self.rivals) if rival not in rivals]
        self.rivals = [self.rivals[k] for k in keep]
        self.sums = [self.sums[k] for k in keep]
        self.squares = [self.squares[k] for k in keep]
        self.intervals = [self.intervals[k] for k in keep]


def _paired(tally: _Tally, option: int, other: int) -> tuple[float, float]:
    """Mean and standard error of ``option``'s difference minus ``other``'s, on the deals both
    were played in (the first ones of each: options share deals in the order they saw them);
    the error is 0 when every deal the view allows is in."""
    if tally.forecast is not None:
        mean, error = tally.forecast.paired(tally.rows, option, other, tally.weights[option])
    else:
        mine, theirs = tally.differences[option], tally.differences[other]
        count = min(len(mine), len(theirs))
        if np is not None and count >= _VECTOR_FROM:
            gaps = np.asarray(mine[:count], dtype=float) - np.asarray(theirs[:count], dtype=float)
            mean, error = _weighted_arrays(gaps, np.asarray(tally.weights[option][:count], dtype=float))
        else:
            gaps = [a - b for a, b in zip(mine[:count], theirs[:count], strict=True)]
            mean, error = _weighted(gaps, tally.weights[option][:count])
    return mean, 0.0 if tally.exhaustive else error


def _ranked(tally: _Tally, options: Sequence[int], anchor: int | None) -> list[int]:
    """``options`` best first. An option that stopped early (racing) is ranked by the anchor's
    mean plus its paired gap to the anchor on the deals it played: its own mean, taken on fewer
    deals, would compare easier deals with harder ones. Options that played every deal keep their
    own means."""
    if anchor is None:
        return sorted(options, key=lambda i: (tally.mean(i), i))
    base = tally.mean(anchor)
    full = tally.count(anchor)

    def value(index: int) -> float:
        if tally.count(index) >= full:
            return tally.mean(index)
        return base + _paired(tally, index, anchor)[0]

    return sorted(options, key=lambda i: (value(i), i))


def loss_interval(tally: _Tally, option: int, rivals: Sequence[int]) -> tuple[float, float, float, float]:
    """(loss, its standard error, low, high) of ``option`` against the best of ``rivals``: the
    largest paired loss, and the interval ``Z`` errors either side of each paired loss, widest."""
    loss, error, low, high = 0.0, 0.0, 0.0, 0.0
    for other in rivals:
        if other == option:
            continue
        mean, se = _paired(tally, option, other)
        if mean > loss:
            loss, error = mean, se
        low = max(low, mean - Z * se)
        high = max(high, mean + Z * se)
    return loss, error, low, high


def band_index(loss: float, limits: Sequence[float]) -> int:
    """Which band of ``limits`` a loss falls in: 0 up to the first limit (inclusive), and so on."""
    return bisect.bisect_left(limits, loss)


def is_settled(low: float, high: float, limits: Sequence[float]) -> bool:
    return band_index(low, limits) == band_index(high, limits)


def _value(
    tally: _Tally,
    index: int,
    option: Card | CardSet,
    loss: tuple[float, float, float, float],
) -> OptionValue:
    count = tally.count(index)
    difference, error = tally.value(index)
    seat = tally.seat
    weight = tally.total_weight(index)
    points = tuple(total / weight for total in tally.points[index])
    moons = tuple(moon / weight for moon in tally.moons[index])
    own = points[seat]
    forecast = None
    if tally.calibration is not None:
        forecast = Forecast(*tally.calibration.predict(moons, points), seat)
    if tally.forecast is not None:  # the forecast measure: every figure is the forecast's
        moons, points = forecast.moon_by_seat, forecast.seat_points
        own = points[seat]
    return OptionValue(
        option=option,
        points=own,
        others=(sum(points) - own) / (len(points) - 1),
        difference=difference,
        standard_error=error,
        moon_for=moons[seat],
        moon_against=sum(moons) - moons[seat],
        loss=loss[0],
        loss_error=loss[1],
        samples=count,
        seat_points=points,
        moon_by_seat=moons,
        loss_low=loss[2],
        loss_high=loss[3],
        forecast=forecast,
        certain=tally.certain(index),
    )


def _calibration(view: PlayerView, kind: str, blocking: Blocking) -> Calibration | None:
    """The map onto Hard x4's outcomes (``engine.search.calibration``) where it was fitted: these rules,
    and play-outs with the standard blockers."""
    return calibration_for(view, kind) if blocking == BLOCKERS else None


def _forecasting(measure: str, calibration: Calibration | None) -> bool:
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")
    return measure == "forecast" and calibration is not None


def _next_round(done: int, budget: int, minimum: int) -> int:
    """Deals in the next round: at least ``ROUND``, up to ``minimum`` at first, then half as
    many again as so far (the rule is checked a few times per doubling, not after every deal)."""
    wanted = minimum - done if done < minimum else max(ROUND, done // 2)
    return max(1, min(wanted, budget - done))


def _how(view: PlayerView, vectorized: bool | None, exact_cards: int | None) -> str:
    if vectorized and not HAVE_COMPILED:
        raise RuntimeError("compiled evaluation needs numpy and numba")
    limit = EXACT_CARDS if exact_cards is None else exact_cards
    if view.phase is Phase.PLAYING and max(view.hand_sizes) <= limit:
        return "exact"
    if vectorized is None:
        return "compiled" if HAVE_COMPILED else "python"
    return "compiled" if vectorized else "python"


class _Clock:
    def __init__(self, seconds: float | None) -> None:
        self.start = time.perf_counter()
        self.seconds = seconds

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @property
    def expired(self) -> bool:
        return self.seconds is not None and self.elapsed >= self.seconds


def at_once(steps: Generator[None, None, Evaluation]) -> Evaluation:
    """Every part of an ``evaluate_*_steps`` look at once: its evaluation."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def evaluate_play(
    view: PlayerView,
    budget: PlayBudget = PLAY_DEFAULTS,
    *,
    seed: int = 0,
    judge: Card | str | None = None,
    limits: Sequence[float] = (),
    blocking: Blocking = BLOCKERS,
    progress: DealsDone | None = None,
    vectorized: bool | None = None,
) -> Evaluation:
    """``evaluate_play_steps``, every part at once."""
    steps = evaluate_play_steps(
        view, budget, seed=seed, judge=judge, limits=limits, blocking=blocking, progress=progress,
        vectorized=vectorized,
    )  # fmt: skip
    return at_once(steps)


def evaluate_play_steps(
    view: PlayerView,
    budget: PlayBudget = PLAY_DEFAULTS,
    *,
    seed: int = 0,
    judge: Card | str | None = None,
    limits: Sequence[float] = (),
    blocking: Blocking = BLOCKERS,
    progress: DealsDone | None = None,
    vectorized: bool | None = None,
) -> Generator[None, None, Evaluation]:
    """``evaluate_play`` in parts: in the browser it yields between its rounds of deals
    (``STEP_PLAYOUTS``), and returns the evaluation, the same as at once.

    Value every legal card for the seat to move on up to ``budget.samples`` imagined deals.

    With ``judge`` (a card) and band ``limits``, stop as soon as that card's loss interval lies
    inside one band (after at least ``budget.min_samples`` deals). ``budget.seconds`` is a safety
    stop. ``vectorized`` forces the compiled (True) or pure-Python (False) play-outs;
    ``budget.exact_cards`` overrides ``EXACT_CARDS`` (0: never solve exactly); ``exact_samples``
    caps the deals when the position is solved exactly (each deal costs far more than a
    play-out), and ``exact_min_samples`` (by default ``min_samples``) is the least deals there.
    The play-outs play the moon by ``blocking`` (``engine.moon``); options are ranked and their
    losses measured by ``budget.measure`` (``MEASURES``; a play solved exactly by its solved
    values). With ``budget.every_deal``, a position solved exactly that allows no more deals than
    the budget is valued on every one of them, each once: its values are then exact (no sampling
    error), so the verdict is decided and no deeper look changes it."""
    if view.phase is not Phase.PLAYING or not view.is_my_turn:
        raise ValueError(f"seat {view.seat} has no card to play now")
    samples, min_samples, measure = budget.samples, budget.min_samples, budget.measure
    how = _how(view, vectorized, budget.exact_cards)
    if how == "exact" and budget.exact_samples is not None:
        samples = min(samples, budget.exact_samples)
    if how == "exact" and budget.exact_min_samples is not None:
        min_samples = budget.exact_min_samples
    min_samples = min(min_samples, samples)  # a budget below the minimum is the minimum
    clock = _Clock(budget.seconds)
    source = PlayWorlds(
        view, seed, "python" if how == "python" else ("compiled" if HAVE_COMPILED else "python")
    )
    deck = source.sampler.every_world(samples) if budget.every_deal and how == "exact" else None
    if deck is not None:
        samples = len(deck)
    options = list(view.legal_cards)
    cards = [int(card) for card in options]
    everyone = range(len(options))
    judged = None if judge is None else options.index(_as_option("play", judge))
    calibration = _calibration(view, "play", blocking)
    # solved values are measured as they are (``MEASURES``); the forecast stays beside them
    forecasting = _forecasting(measure, calibration) and how != "exact"
    tally = _Tally(len(options), view.players, view.seat, calibration, forecasting)
    pairs = None if judged is None else _Pairs(tally, judged, everyone)
    done = 0
    decided = judged is None
    # Racing, as for passes: a card that cannot change the judged card's loss stops being played
    # (an exact solve values every card at once, so there it would save nothing).
    playing = list(everyone)
    parts = _Parts()
    while done < samples:
        chunk = _next_round(done, samples, min_samples)
        if deck is None and parts.due(chunk * len(playing)):
            yield
        if deck is not None:  # all of them, whatever the rounds: a part would be a sample
            chunk = samples - done
            worlds = deck[done:samples]
            weights = source.weights(worlds)
        elif how == "exact":  # a solve costs a few milliseconds: solve only worlds the read keeps
            worlds, weights = source.thinned(chunk)
        else:
            worlds = source.next(chunk)
            weights = source.weights(worlds)
        outcomes = play_outcomes(view, worlds, [cards[i] for i in playing], how, blocking)
        tally.add_rows(playing, chunk, outcomes, weights)
        done += chunk
        tally.exhaustive = deck is not None and done == len(deck)
        if progress:
            progress(done, samples)
        # The intervals are trusted only once the deals' weights make ``min_samples`` effective
        # deals (found: a play whose runner's read gave 37 of 4,096 deals most of the weight was
        # called best on 128 deals in 27 of 60 seeds; 200,000 deals put its loss at 0.90).
        if pairs is not None and (done >= min_samples or tally.exhaustive):
            interval = pairs.update()
            if pairs.effective >= min_samples or tally.exhaustive:
                decided = is_settled(*interval, limits)
                if decided:
                    break
                if how != "exact" and (outclassed := pairs.outclassed()):
                    pairs.drop(outclassed)
                    playing = [index for index in playing if index not in outclassed]
        if clock.expired:
            break
    clock_stopped = done < samples and not (judged is not None and decided)
    order = _ranked(tally, everyone, judged)
    ranked = []
    for index in order:
        rivals = everyone if index in (judged, order[0]) else [order[0]]
        ranked.append(_value(tally, index, options[index], loss_interval(tally, index, rivals)))
    return Evaluation(
        "play",
        view.seat,
        tuple(ranked),
        seed,
        done,
        clock.elapsed,
        how if how == "exact" else "policy",
        None if judged is None else options[judged],
        decided,
        clock_stopped,
        measure="forecast" if tally.forecast is not None else "playout",
        every_deal=tally.exhaustive,
    )


def evaluate_pass(
    view: PlayerView,
    budget: PassBudget = PASS_DEFAULTS,
    *,
    seed: int = 0,
    judge: CardSet | str | Sequence | None = None,
    limits: Sequence[float] = (),
    include: Sequence[CardSet | str] = (),
    only: Sequence[CardSet | str | Sequence] | None = None,
    blocking: Blocking = BLOCKERS,
    progress: DealsDone | None = None,
    vectorized: bool | None = None,
) -> Evaluation:
    """``evaluate_pass_steps``, every part at once."""
    steps = evaluate_pass_steps(
        view, budget, seed=seed, judge=judge, limits=limits, include=include, only=only,
        blocking=blocking, progress=progress, vectorized=vectorized,
    )  # fmt: skip
    return at_once(steps)


def evaluate_pass_steps(
    view: PlayerView,
    budget: PassBudget = PASS_DEFAULTS,
    *,
    seed: int = 0,
    judge: CardSet | str | Sequence | None = None,
    limits: Sequence[float] = (),
    include: Sequence[CardSet | str] = (),
    only: Sequence[CardSet | str | Sequence] | None = None,
    blocking: Blocking = BLOCKERS,
    progress: DealsDone | None = None,
    vectorized: bool | None = None,
) -> Generator[None, None, Evaluation]:
    """``evaluate_pass`` in parts: in the browser it yields between slices of its screening and
    rounds of fresh deals (``STEP_PLAYOUTS``), and returns the evaluation, the same as at once.

    Value every possible pass, or ``only`` these (all on the same fresh deals, no screening;
    a ``judge``d or ``include``d pass must be one of them). ``budget.stages`` screens them in
    rounds of (deals, survivors); the survivors of the last stage (the finalists), the passes in
    ``include`` and the ``judge``d pass are then valued on up to ``budget.samples`` fresh deals.
    With ``judge`` and ``limits`` the fresh deals stop once the judged pass's loss interval lies
    inside one band. Options are ranked: those valued on fresh deals by that value, then the rest
    by the stage they reached (their losses there are paired with the best pass's on the
    screening deals). The play-outs play the moon by ``blocking``; options are screened, ranked
    and their losses measured by ``budget.measure`` (``MEASURES``). ``budget.playouts`` caps the
    fresh deals' play-outs too (deals times the passes still in the race): finals where several
    passes stay close to the best cost that many times a deal, and a verdict's time is its
    play-outs'."""
    if view.phase is not Phase.PASSING or view.passed is not None:
        raise ValueError(f"seat {view.seat} has no pass to choose now")
    samples, stages, min_samples = budget.samples, budget.stages, budget.min_samples
    playouts, measure = budget.playouts, budget.measure
    how = _how(view, vectorized, 0)
    clock = _Clock(budget.seconds)
    rng = random.Random(seed)
    cards = list(iter_mask(view.hand.mask))
    candidates = [
        sum(1 << c for c in combo) for combo in itertools.combinations(cards, view.rules.pass_count)
    ]
    if only is not None:
        candidates = [_as_option("pass", option).mask for option in only]
        stages = ()
    options = [CardSet(mask) for mask in candidates]
    judged = None if judge is None else candidates.index(_as_option("pass", judge).mask)
    forced = {candidates.index(CardSet(option).mask) for option in include}
    if judged is not None:
        forced.add(judged)
    calibration = _calibration(view, "pass", blocking)
    forecasting = _forecasting(measure, calibration)
    screen = _Tally(len(candidates), view.players, view.seat, calibration, forecasting)
    reached = [0] * len(candidates)
    alive = list(range(len(candidates)))
    total = sum(deals for deals, _ in stages) + samples
    done = 0
    parts = _Parts()
    for deals, keep in stages:
        worlds = pass_deals(view, rng.getrandbits(64), deals, how)
        width = len(alive) if STEP_PLAYOUTS is None else max(1, STEP_PLAYOUTS // max(1, deals))
        for start in range(0, len(alive), width):  # each option's rows alone: the same in slices
            part = alive[start : start + width]
            if parts.due(len(part) * deals):
                yield
            screen.add_rows(
                part, deals, pass_outcomes(view, [candidates[i] for i in part], worlds, how, blocking)
            )
        done += deals
        if progress:
            progress(done, total)
        alive = sorted(alive, key=lambda i: (screen.mean(i), i))[:keep]
        for index in alive:
            reached[index] += 1
    finalists = sorted(set(alive) | forced)
    final = _Tally(len(candidates), view.players, view.seat, calibration, forecasting)
    pairs = None if judged is None else _Pairs(final, judged, finalists)
    fresh = 0
    decided = judged is None
    playing = list(finalists)  # racing: a finalist that cannot change the judged loss stops
    played = 0
    clock_stopped = False
    while fresh < samples:
        chunk = _next_round(fresh, samples, min_samples)
        if playouts is not None:
            room = (playouts - played) // len(playing)
            if room <= 0:
                break  # the budget in play-outs is spent, as a budget in deals would be
            chunk = min(chunk, room)
        if parts.due(chunk * len(playing)):
            yield
        worlds = pass_deals(view, rng.getrandbits(64), chunk, how)
        outcomes = pass_outcomes(view, [candidates[i] for i in playing], worlds, how, blocking)
        final.add_rows(playing, chunk, outcomes)
        fresh += chunk
        played += chunk * len(playing)
        if progress:
            progress(done + fresh, total)
        if pairs is not None and fresh >= min_samples:
            interval = pairs.update()
            if pairs.effective >= min_samples:  # unweighted deals: every deal counts whole
                decided = is_settled(*interval, limits)
                if decided:
                    break
                if outclassed := pairs.outclassed():
                    pairs.drop(outclassed)
                    playing = [index for index in playing if index not in outclassed]
        if clock.expired:
            clock_stopped = fresh < samples
            break
    order = _ranked(final, finalists, judged)
    best = order[0]
    ranked = []
    for index in order:
        rivals = finalists if index in (judged, best) else [best]
        ranked.append(_value(final, index, options[index], loss_interval(final, index, rivals)))
    rest = sorted(
        (i for i in range(len(candidates)) if i not in finalists),
        key=lambda i: (-reached[i], screen.mean(i), i),
    )
    for index in rest:
        ranked.append(_value(screen, index, options[index], loss_interval(screen, index, [best])))
    return Evaluation(
        "pass",
        view.seat,
        tuple(ranked),
        seed,
        fresh,
        clock.elapsed,
        "policy",
        None if judged is None else options[judged],
        decided,
        clock_stopped,
        measure="forecast" if forecasting else "playout",
    )
