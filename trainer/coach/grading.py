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

A choice that loses only because the best option goes for the moon is a mistake or blunder only
when the moon line keeps that edge against blockers who block at any price
(``Evaluation.strong_blockers``, which ``depth.judge`` adds for such verdicts). Otherwise the
moon is the *greedy line*: the grade is the choice's loss against those strong blockers, and
``Grade.moon_line`` keeps both figures for the coach to say.

A play graded best by policy play-outs late in the hand is checked on deals solved exactly
(``Evaluation.solved_check``, which ``depth.judge_play`` adds): where the choice loses
``REFUTED`` points or more over those deals, the grade does not say best. It is then "between"
best and the solved loss's band (the play-outs' loss and the solved one are its interval's
ends), and ``Grade.solved`` keeps the solved figures for the coach to say.

A grade is *decided* when the whole interval of the loss (``engine.search.evaluator.Z`` standard
errors either side, against every option) lies inside one band; the evaluator keeps sampling
until it is or its budget is spent. An undecided grade names the bands its interval spans:
"between good and inaccuracy".

These follow the shape of chess trainers' bands (lichess, chess.com), scaled to Hearts, where
one hand's points have a standard deviation of about 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.search.evaluator import Evaluation, OptionValue, band_index

__all__ = [
    "BANDS",
    "LIMITS",
    "MAX_TOLERANCE",
    "MOON_LINE",
    "REFUTED",
    "TOLERANCE",
    "Band",
    "Grade",
    "MoonLine",
    "Solved",
    "band_of",
    "grade",
    "moon_dependent",
]

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


REFUTED = 1.0
"""A solved loss from which a policy verdict's "best" is not said (a point: more than "good")."""

MOON_LINE = 0.10
"""How much more often the best option must shoot the moon than the choice for the choice's
loss to count as moon-dependent."""


def band_of(loss: float) -> Band:
    return BANDS[band_index(loss, LIMITS)]


@dataclass(frozen=True)
class MoonLine:
    """A choice that lost only to a moon line, checked against strong blockers."""

    best: OptionValue
    """The moon line, valued with the play-out model's blockers."""
    loss: float
    """The choice's loss against it with the model's blockers."""
    strong_best: OptionValue
    strong_chosen: OptionValue
    """The moon line and the choice valued against blockers at any price."""
    strong_leader: OptionValue | None = None
    """The best option against those blockers, when it is neither the moon line nor the choice
    (the choice's loss there is against it)."""

    @property
    def strong_loss(self) -> float:
        return self.strong_chosen.difference - self.strong_best.difference

    @property
    def holds(self) -> bool:
        """The moon line's edge is a mistake's worth even against strong blockers."""
        return band_of(self.strong_loss) in (Band.MISTAKE, Band.BLUNDER)


@dataclass(frozen=True)
class Solved:
    """A policy "best" that deals solved exactly refute: the choice's loss over them."""

    loss: float
    best: OptionValue
    """The best option over the solved deals."""
    deals: int
    every_deal: bool
    """The deals are every deal the view allows."""


def moon_dependent(evaluation: Evaluation, option: object) -> bool:
    """Would ``option`` be called a mistake or worse only because the best option shoots the moon
    more often? (Then the verdict needs the strong-blocker check.)"""
    chosen = evaluation.value_of(option)
    best = evaluation.best
    return (
        band_of(chosen.loss) in (Band.MISTAKE, Band.BLUNDER)
        and best.moon_for - chosen.moon_for >= MOON_LINE
        and evaluation.method != "exact"  # exact solving blocks perfectly already
    )


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
    moon_line: MoonLine | None = None
    """Set when the loss came from a moon line checked against strong blockers. When its edge
    does not hold there, the band and loss are the choice's against those blockers."""
    measure: str = "playout"
    """What the figures are (``engine.search.evaluator.MEASURES``): the play-outs' over the imagined
    deals, or the forecast of what strong players make of such hands."""
    looked_deeper: bool = False
    """The evaluation spent its budget on settling this choice (``Evaluation.judged``): an
    undecided grade then rests on a deeper look than a fixed one (a puzzle's stored figures)."""
    solved: Solved | None = None
    """Set when deals solved exactly refute the play-outs' "best" (``REFUTED``)."""

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
        return self.band is Band.BEST and self.solved is None


def grade(evaluation: Evaluation, option: object) -> Grade:
    """Grade ``option`` (a card, a set of cards, or their text) against the evaluation. The
    interval is the evaluator's: against every option for the option it judged and the best,
    else against the best option. A moon-dependent loss is graded against strong blockers when
    the evaluation carries that check and the loss is smaller there: a verdict claims no more than
    holds against players who block moons at any price."""
    chosen = evaluation.value_of(option)
    rank = next(i for i, value in enumerate(evaluation.options, start=1) if value.option == chosen.option)
    strong = evaluation.strong_blockers
    graded, line, clock_stopped = chosen, None, evaluation.clock_stopped
    if strong is not None and moon_dependent(evaluation, option):
        line = MoonLine(
            evaluation.best,
            chosen.loss,
            strong.value_of(evaluation.best.option),
            strong.value_of(chosen.option),
            strong.best if strong.best.option not in (evaluation.best.option, chosen.option) else None,
        )
        if line.strong_chosen.loss < chosen.loss:  # graded by the loss against strong blockers
            graded, clock_stopped = line.strong_chosen, clock_stopped or strong.clock_stopped
    high = max(graded.loss_high, graded.loss)
    solved = _refuted(evaluation, option) if band_of(graded.loss) is Band.BEST else None
    if solved is not None:
        high = max(high, solved.loss)
    return Grade(
        band=band_of(graded.loss),
        loss=graded.loss,
        loss_error=graded.loss_error,
        low=min(graded.loss_low, graded.loss),
        high=high,
        chosen=chosen,
        best=evaluation.best,
        rank=rank,
        options=len(evaluation.options),
        clock_stopped=clock_stopped,
        moon_line=line,
        measure=evaluation.measure,
        looked_deeper=evaluation.judged is not None and evaluation.judged == chosen.option,
        solved=solved,
    )


def _refuted(evaluation: Evaluation, option: object) -> Solved | None:
    """The solved deals' figures when they refute ``option``'s "best" (``REFUTED``)."""
    check = evaluation.solved_check
    if check is None:
        return None
    loss = check.value_of(option).loss
    if loss < REFUTED:
        return None
    return Solved(loss, check.best, check.samples, check.every_deal)
