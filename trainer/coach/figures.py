"""The figures the coach's sentences quote from the evaluation, each one checkable against it.

A sentence that says "you shoot the moon in 40%" or "it leaves you the fewest points of every
pass" asserts something about the evaluation, not the position: which option, whose moon, which
rank. Such a sentence declares a ``Figure`` next to its position facts (``facts.py``), and the
figure is checked against the evaluation the verdict was given from before the sentence is
shown: a moon chance quoted for the wrong seat or the wrong option, or a rank that is not the
option's, withholds the sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Card, CardSet
from engine.search.evaluator import Evaluation, OptionValue

__all__ = [
    "LEARNER",
    "BestOption",
    "Figure",
    "Loss",
    "Measured",
    "MoonChance",
    "MoonsUnder",
    "Points",
    "SolvedLoss",
    "WithinOf",
]

LEARNER = -1
"""The seat of a figure about the learner's own moon, whichever seat the learner has."""

SHOWN = 0.005
"""Half a percentage point: a chance is quoted to the nearest percent."""


def _value(evaluation: Evaluation, option: object, strong: bool) -> OptionValue | None:
    if strong:
        evaluation = evaluation.strong_blockers
        if evaluation is None:
            return None
    try:
        return evaluation.value_of(option)
    except (KeyError, ValueError, StopIteration):
        return None


@dataclass(frozen=True)
class Figure:
    """One figure from the evaluation. ``strong``: read from the look against blockers who block
    at any price (``Evaluation.strong_blockers``) instead of the verdict's own."""

    def check(self, evaluation: Evaluation | None) -> bool:
        raise NotImplementedError

    @property
    def about_cards(self) -> tuple[Card, ...]:
        options = [getattr(self, name, None) for name in ("option", "against")]
        cards: list[Card] = []
        for option in options:
            if isinstance(option, Card):
                cards.append(option)
            elif isinstance(option, CardSet):
                cards.extend(option)
        return tuple(cards)

    @property
    def about_seats(self) -> tuple[int, ...]:
        seat = getattr(self, "seat", None)
        return () if seat is None or seat == LEARNER else (seat,)


@dataclass(frozen=True)
class MoonChance(Figure):
    """With ``option``, ``seat`` shoots the moon with chance ``chance`` (``LEARNER``: the
    learner, whichever seat; None: any player but the learner, together). Whose moon it is is
    part of the claim: the learner's chance is ``moon_for``, another seat's its
    ``moon_by_seat`` entry."""

    option: Card | CardSet
    seat: int | None
    chance: float
    strong: bool = False

    def check(self, evaluation: Evaluation | None) -> bool:
        if evaluation is None:
            return False
        value = _value(evaluation, self.option, self.strong)
        if value is None:
            return False
        if self.seat is None:
            actual = value.moon_against
        elif self.seat in (LEARNER, evaluation.seat):
            actual = value.moon_for
        elif value.moon_by_seat and 0 <= self.seat < len(value.moon_by_seat):
            actual = value.moon_by_seat[self.seat]
        else:
            return False
        return abs(actual - self.chance) < SHOWN


@dataclass(frozen=True)
class Loss(Figure):
    """``option`` scores about ``points`` worse than ``against`` (expected points minus the
    others' average), to the tenth a sentence shows."""

    option: Card | CardSet
    against: Card | CardSet
    points: float
    strong: bool = False

    def check(self, evaluation: Evaluation | None) -> bool:
        if evaluation is None:
            return False
        mine = _value(evaluation, self.option, self.strong)
        other = _value(evaluation, self.against, self.strong)
        if mine is None or other is None:
            return False
        return abs(mine.difference - other.difference - self.points) < 0.05


@dataclass(frozen=True)
class BestOption(Figure):
    """``option`` is the evaluation's best: no option leaves the learner fewer points against
    the table."""

    option: Card | CardSet

    def check(self, evaluation: Evaluation | None) -> bool:
        return evaluation is not None and evaluation.best.option == self.option


@dataclass(frozen=True)
class WithinOf(Figure):
    """``option`` loses at most ``tolerance`` points against the evaluation's best."""

    option: Card | CardSet
    tolerance: float

    def check(self, evaluation: Evaluation | None) -> bool:
        if evaluation is None:
            return False
        value = _value(evaluation, self.option, False)
        return value is not None and value.loss <= self.tolerance


@dataclass(frozen=True)
class MoonsUnder(Figure):
    """With ``option``, no player, the learner included, shoots the moon in ``limit`` or more."""

    option: Card | CardSet
    limit: float

    def check(self, evaluation: Evaluation | None) -> bool:
        if evaluation is None:
            return False
        value = _value(evaluation, self.option, False)
        if value is None:
            return False
        # each seat's own chance; without them, the others' together bounds each one's
        chances = (value.moon_for, *(value.moon_by_seat or (value.moon_against,)))
        return all(chance < self.limit for chance in chances)


@dataclass(frozen=True)
class Points(Figure):
    """With ``option`` the learner takes ``points`` and the others ``others`` each (to the tenth
    a sentence shows); ``certain``: said as the outcome itself ("you take 17 points"), which only
    an option whose every possible deal was solved to that one outcome is
    (``OptionValue.certain``)."""

    option: Card | CardSet
    points: float
    others: float
    certain: bool = False

    def check(self, evaluation: Evaluation | None) -> bool:
        if evaluation is None:
            return False
        value = _value(evaluation, self.option, False)
        if value is None or (self.certain and not value.certain):
            return False
        return abs(value.points - self.points) < 0.05 and abs(value.others - self.others) < 0.05


@dataclass(frozen=True)
class Measured(Figure):
    """What the figures are, as the sentence labels them: "forecast" (what strong players make of
    such hands, ``engine.search.calibration``), "solved" (each deal solved exactly), "every deal" (every
    deal the view allows solved once) or "played out" (the play-out policy's own)."""

    what: str

    def check(self, evaluation: Evaluation | None) -> bool:
        if evaluation is None:
            return False
        solved = evaluation.method == "exact"
        if self.what == "forecast":  # (a stored puzzle may hold a forecast of solved deals)
            return evaluation.measure == "forecast"
        if self.what == "solved":
            return solved and evaluation.measure != "forecast" and not evaluation.every_deal
        if self.what == "every deal":
            return solved and evaluation.measure != "forecast" and evaluation.every_deal
        return self.what == "played out" and not solved and evaluation.measure != "forecast"


@dataclass(frozen=True)
class SolvedLoss(Figure):
    """Over the deals solved exactly to check a policy verdict (``Evaluation.solved_check``),
    ``option`` scores about ``points`` worse than ``against``, to the tenth a sentence shows."""

    option: Card | CardSet
    against: Card | CardSet
    points: float

    def check(self, evaluation: Evaluation | None) -> bool:
        solved = None if evaluation is None else evaluation.solved_check
        if solved is None:
            return False
        mine, other = _value(solved, self.option, False), _value(solved, self.against, False)
        if mine is None or other is None:
            return False
        return abs(mine.difference - other.difference - self.points) < 0.05
