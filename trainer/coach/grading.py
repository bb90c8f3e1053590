"""Grading a decision: expected points lost against the best option, in named bands.

The unit is the evaluator's: the seat's expected points minus the other seats' average, per
hand (lower is better), so giving 13 points away instead of taking them counts fully.

Bands (expected points lost):

========== ======================================================================
best        at most ``TOLERANCE`` (half a point): as good as the best, counts as
            correct. The tolerance is fixed: it never widens with the error bars
            (a loss the evaluation cannot place is "between" two bands instead)
good        up to 1 point
inaccuracy  up to 2.5 points
mistake     up to 6 points
blunder     more than 6 points (about what letting the Q♠ land on you costs)
========== ======================================================================

A grade is *decided* when the whole interval of the loss (``engine.evaluator.Z`` standard
errors either side, against every option) lies inside one band; the evaluator keeps sampling
until it is or its budget is spent. An undecided grade names the bands its interval spans:
"between good and inaccuracy".

These follow the shape of chess trainers' bands (lichess, chess.com), scaled to Hearts, where
one hand's points have a standard deviation of about 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.evaluator import Evaluation, OptionValue, band_index

__all__ = ["BANDS", "LIMITS", "MAX_TOLERANCE", "TOLERANCE", "Band", "Grade", "band_of", "grade"]

TOLERANCE = 0.5
"""Points a choice may lose and still count as best."""

MAX_TOLERANCE = 0.75
"""The widest "best" may ever be (a promise the tests keep)."""


class Band(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


BANDS = (Band.BEST, Band.GOOD, Band.INACCURACY, Band.MISTAKE, Band.BLUNDER)
LIMITS = (TOLERANCE, 1.0, 2.5, 6.0)
"""Upper limits of the bands but the last, in points lost."""


def band_of(loss: float) -> Band:
    return BANDS[band_index(loss, LIMITS)]


@dataclass(frozen=True)
class Grade:
    band: Band
    """The band of the estimated loss."""
    loss: float
    loss_error: float
    low: float
    high: float
    """The loss's interval."""
    chosen: OptionValue
    best: OptionValue
    rank: int
    """1-based place of the chosen option in the evaluator's ranking."""
    options: int
    clock_stopped: bool = False

    @property
    def tolerance(self) -> float:
        return TOLERANCE

    @property
    def span(self) -> tuple[Band, Band]:
        """The bands the loss's interval reaches, lowest and highest (equal when decided)."""
        return band_of(self.low), band_of(self.high)

    @property
    def decided(self) -> bool:
        low, high = self.span
        return low is high

    @property
    def label(self) -> str:
        """ "good", or "good-inaccuracy" when undecided: what the record keeps."""
        low, high = self.span
        return low.value if low is high else f"{low.value}-{high.value}"

    @property
    def correct(self) -> bool:
        return self.band is Band.BEST


def grade(evaluation: Evaluation, option: object) -> Grade:
    """Grade ``option`` (a card, a set of cards, or their text) against the evaluation. The
    interval is the evaluator's: against every option for the option it judged and the best,
    else against the best option."""
    chosen = evaluation.value_of(option)
    rank = next(i for i, value in enumerate(evaluation.options, start=1) if value.option == chosen.option)
    return Grade(
        band=band_of(chosen.loss),
        loss=chosen.loss,
        loss_error=chosen.loss_error,
        low=min(chosen.loss_low, chosen.loss),
        high=max(chosen.loss_high, chosen.loss),
        chosen=chosen,
        best=evaluation.best,
        rank=rank,
        options=len(evaluation.options),
        clock_stopped=evaluation.clock_stopped,
    )
