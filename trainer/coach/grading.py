"""Grading a decision: expected points lost against the best option, in named bands.

The unit is the evaluator's: the seat's expected points minus the other seats' average, per
hand (lower is better), so giving 13 points away instead of taking them counts fully.

Bands (expected points lost):

========== ======================================================================
best        within tolerance of the best option: counts as correct. Tolerance is
            the larger of 0.5 points and twice the loss's standard error, so an
            option the evaluation cannot tell from the best is never marked wrong.
good        up to 1 point
inaccuracy  up to 2.5 points
mistake     up to 6 points
blunder     more than 6 points (about what letting the Q♠ land on you costs)
========== ======================================================================

These follow the shape of chess trainers' bands (lichess, chess.com), scaled to Hearts, where
one hand's points have a standard deviation of about 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.evaluator import Evaluation, OptionValue

__all__ = ["BAND_LIMITS", "MIN_TOLERANCE", "Band", "Grade", "grade"]

MIN_TOLERANCE = 0.5


class Band(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


BAND_LIMITS = ((Band.GOOD, 1.0), (Band.INACCURACY, 2.5), (Band.MISTAKE, 6.0))


@dataclass(frozen=True)
class Grade:
    band: Band
    loss: float
    loss_error: float
    tolerance: float
    chosen: OptionValue
    best: OptionValue
    rank: int
    """1-based place of the chosen option in the evaluator's ranking."""
    options: int

    @property
    def correct(self) -> bool:
        return self.band is Band.BEST


def tolerance_for(value: OptionValue) -> float:
    return max(MIN_TOLERANCE, 2 * value.loss_error)


def band_for(loss: float, tolerance: float) -> Band:
    if loss <= tolerance:
        return Band.BEST
    for band, limit in BAND_LIMITS:
        if loss <= limit:
            return band
    return Band.BLUNDER


def grade(evaluation: Evaluation, option: object) -> Grade:
    """Grade ``option`` (a card, a set of cards, or their text) against the evaluation."""
    chosen = evaluation.value_of(option)
    tolerance = tolerance_for(chosen)
    rank = next(i for i, value in enumerate(evaluation.options, start=1) if value.option == chosen.option)
    return Grade(
        band=band_for(chosen.loss, tolerance),
        loss=chosen.loss,
        loss_error=chosen.loss_error,
        tolerance=tolerance,
        chosen=chosen,
        best=evaluation.best,
        rank=rank,
        options=len(evaluation.options),
    )
