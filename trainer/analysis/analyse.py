"""The coach on a position: every option ranked by the coach's own evaluation of it.

The evaluation is the coach's, at the coach's depth (``trainer.coach.depth.COACH``, which is
``BROWSER`` under Pyodide), found as the coach's hint finds its choice (``trainer.coach.hint``):
the first look picks a candidate, which is judged as a learner's choice would be
(``depth.judge``: sampled until its band is decided); a candidate not graded best there gives
way to that evaluation's best, judged in turn (``hint.TRIES`` at most). Every option is then
ranked and graded in that one evaluation, and ``Analysis.verdict`` is the coach's verdict on any
option from it (``coach_pass``/``coach_play``: the headline, checked reasons and figures).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from engine import Card, CardSet, PlayerView
from engine.search.evaluator import Evaluation

from ..coach.depth import BROWSER, COACH, SHALLOWER_NOTE, Depth, looked_shallower
from ..coach.explain import Verdict, coach_pass, coach_play
from ..coach.grading import Band, grade
from ..coach.heatmap import pass_heatmap
from ..coach.hint import judged_choice
from ..seats import seat_names
from ..vega import VegaLite
from .errors import PositionError
from .notation import format_cards, parse_cards
from .position import AnalysisPosition

__all__ = ["Analysis", "Row", "analyse"]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: looks finished of the looks planned (the first look, then each
judged look; a look not graded best adds one)."""


@dataclass(frozen=True)
class Row:
    """One option's figures, in the evaluator's unit (points for the hand; lower is better)."""

    option: Card | CardSet
    band: Band
    label: str
    """The band, or "good-inaccuracy" when the evaluation could not place the loss in one."""
    loss: float
    """Points lost against the best option (0 for the best), as graded."""
    loss_low: float
    loss_high: float
    """The loss's interval."""
    points: float
    """Expected points for the learner."""
    others: float
    """Expected points of the other seats, on average."""
    moon_for: float
    """The learner's chance of shooting the moon."""
    moon_against: float
    """The chance that another seat shoots it."""
    moon_by_seat: tuple[float, ...]
    """Every seat's chance (seat 0 is the learner; ``Analysis.seats`` names them)."""
    certain: bool
    """Every deal the view allows was solved: the figures are the outcome itself."""

    @property
    def text(self) -> str:
        """The option as the table writes it: "Q♠" or "Q♠ A♥ K♥"."""
        return format_cards(self.option) if isinstance(self.option, CardSet) else str(self.option)


@dataclass(frozen=True)
class Analysis:
    position: AnalysisPosition
    view: PlayerView
    kind: str
    """"pass" or "play"."""
    rows: tuple[Row, ...]
    """Every option, best first (the evaluation's ranking)."""
    evaluation: Evaluation
    judged: Card | CardSet
    """The coach's choice: the option whose band the evaluation sampled until decided."""
    seed: int
    depth: Depth

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats' names, by number ("You", "Left", ...)."""
        return seat_names(self.view.players)

    def option(self, choice: object) -> Card | CardSet:
        """An option of this position from a card, cards, or their text; else ``PositionError``."""
        if isinstance(choice, str):
            cards = parse_cards(choice, "option")
        elif isinstance(choice, CardSet):
            cards = tuple(choice)
        elif isinstance(choice, Card):
            cards = (choice,)
        else:
            cards = tuple(choice)
        wanted = CardSet(cards) if self.kind == "pass" else (cards[0] if len(cards) == 1 else None)
        for row in self.rows:
            if row.option == wanted:
                return row.option
        what = (
            f"a pass of {self.view.rules.pass_count} of your cards" if self.kind == "pass" else "a legal card"
        )
        raise PositionError("option", f"{format_cards(cards) or 'nothing'} is not {what} here")

    def verdict(self, choice: object) -> Verdict:
        """The coach's verdict on ``choice`` (its headline, checked reasons and figures), from this
        same evaluation."""
        option = self.option(choice)
        coach = coach_pass if self.kind == "pass" else coach_play
        return coach(self.view, option, self.evaluation)

    @cached_property
    def heatmap(self) -> VegaLite | None:
        """For a pass, every pair of cards coloured by the best pass containing both (the pass
        puzzles' map), the coach's choice outlined; None for a play."""
        if self.kind != "pass":
            return None
        return pass_heatmap(self.evaluation, self.view.hand, self.rows[0].option)

    @property
    def shallower_note(self) -> str | None:
        """The note that the browser's shallower depth may differ on a close call, when it applies."""
        if self.depth == BROWSER and looked_shallower(self.evaluation):
            return SHALLOWER_NOTE
        return None


def rows_of(evaluation: Evaluation) -> tuple[Row, ...]:
    """Every option of an evaluation, in its order, graded against it."""
    rows = []
    for value in evaluation.options:
        g = grade(evaluation, value.option)
        rows.append(
            Row(
                option=value.option,
                band=g.band,
                label=g.label,
                loss=g.loss,
                loss_low=g.low,
                loss_high=g.high,
                points=value.points,
                others=value.others,
                moon_for=value.moon_for,
                moon_against=value.moon_against,
                moon_by_seat=tuple(value.moon_by_seat),
                certain=value.certain,
            )
        )
    return tuple(rows)


def analyse(
    pos: AnalysisPosition, depth: Depth | None = None, seed: int = 0, progress: Progress | None = None
) -> Analysis:
    """Every option of the position ranked by the coach (``depth``: ``COACH`` when None).
    ``progress(done, total)`` is called as each look finishes. Raises ``PositionError`` for an
    impossible position."""
    depth = COACH if depth is None else depth
    view = pos.view()
    looks = 0

    def starting(look: int) -> None:
        nonlocal looks
        looks = look + 1
        if progress:
            progress(look, max(2, look + 1))  # at least the first look and one judgement

    candidate, evaluation, _ = judged_choice(view, seed, depth, starting)
    if progress:
        progress(looks, looks)
    return Analysis(pos, view, pos.moment, rows_of(evaluation), evaluation, candidate, seed, depth)
