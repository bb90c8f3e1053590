"""The coach on a position: every option ranked by the coach's own evaluation of it.

The evaluation is the coach's verdict at the coach's depth (``trainer.coach.depth``: ``COACH``,
which is ``BROWSER`` under Pyodide): the coach's first look picks its choice, and that choice is
judged as a learner's would be (sampled until its band is decided). Every row is graded against
that evaluation, and ``Analysis.verdict`` gives the coach's verdict on any option from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import Card, CardSet
from engine.search.evaluator import Evaluation

from ..coach.depth import Depth
from ..coach.explain import Verdict
from ..coach.grading import Band
from .position import AnalysisPosition

__all__ = ["Analysis", "Row", "analyse"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Row:
    """One option's figures, in the evaluator's unit (points for the hand; lower is better)."""

    option: Card | CardSet
    band: Band
    label: str
    """The band, or "good-inaccuracy" when the evaluation could not place the loss in one."""
    loss: float
    """Points lost against the best option (0 for the best)."""
    points: float
    """Expected points for the learner."""
    others: float
    """Expected points of the other seats, on average."""
    moon_for: float
    """The learner's chance of shooting the moon."""
    moon_against: float
    """The chance that another seat shoots it."""
    moon_by_seat: tuple[float, ...]
    """Every seat's chance (seat 0 is the learner)."""


@dataclass(frozen=True)
class Analysis:
    position: AnalysisPosition
    kind: str
    """"pass" or "play"."""
    rows: tuple[Row, ...]
    """Every option, best first."""
    evaluation: Evaluation
    seed: int
    depth: Depth

    def verdict(self, option: object) -> Verdict:
        """The coach's verdict on ``option`` (its headline, checked reasons and figures), from this
        same evaluation."""
        raise NotImplementedError


def analyse(
    pos: AnalysisPosition, depth: Depth | None = None, seed: int = 0, progress: Progress | None = None
) -> Analysis:
    """Every option of the position ranked by the coach (``depth``: ``COACH`` when None).
    ``progress(done, total)`` is called as the evaluator's rounds finish."""
    raise NotImplementedError
