"""Does a puzzle's answer hold? The acceptance rule, shared by the miner and re-verification.

A puzzle is kept only if, on deals that played no part in finding it (a fresh seed):

- the *accepted* answers are the options within the coach's tolerance of the best (``TOLERANCE``);
- every other option loses at least ``MIN_LOSS`` points **and** at least ``MIN_ERRORS`` standard
  errors of its loss: nothing is left between "right" and "clearly wrong";
- the natural-looking choice (what a careful player, the Normal bot, does) is one of the rejected;
- when the answer shoots the moon more often than the natural choice (``MOON_LINE``), the natural
  choice still loses at least ``MIN_LOSS`` points and ``MIN_ERRORS`` standard errors against
  blockers who block at any price (``engine.moon.STRONG_BLOCKERS``), on the same fresh deals:
  a puzzle does not teach a moon that strong players would stop.

Every option is valued on the same fresh deals (passes: all 286, not only a screened few).

The command that re-verifies a folder with this rule: ``trainer.puzzles.verify_command``
(run as ``python -m trainer.puzzles.verify``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import CardSet, PlayerView
from engine.bots import make_bot
from engine.moon import BLOCKERS, STRONG_BLOCKERS, Blocking
from engine.search.budget import PassBudget, PlayBudget
from engine.search.evaluator import Evaluation, evaluate_pass, evaluate_play

from ..coach.depth import COACH
from ..coach.grading import MOON_LINE, TOLERANCE

__all__ = ["DEALS", "MIN_ERRORS", "MIN_LOSS", "Acceptance", "acceptance", "natural_choice", "verify_position"]

MIN_LOSS = 1.0
MIN_ERRORS = 3.0
DEALS = {"play": 4096, "pass": 8192}
"""Fresh deals a verification values every option on (a late play solved exactly takes 1,024, or
every deal the view allows when there are no more)."""
EXACT_DEALS = 1024
MEASURE = COACH.measure
"""Options are valued as the coach values them (``trainer.coach.depth.Depth.measure``)."""


@dataclass(frozen=True)
class Acceptance:
    evaluation: Evaluation
    accepted: tuple[str, ...]
    natural: str
    holds: bool
    reason: str
    """Why it does not hold ("" when it does)."""
    margin: float
    """Smallest loss / standard error among the rejected options."""


def text_of(option: object) -> str:
    return " ".join(option.codes) if isinstance(option, CardSet) else option.code  # type: ignore[attr-defined]


def natural_choice(kind: str, view: PlayerView) -> object:
    """What a careful player does here: the Normal bot's choice."""
    bot = make_bot("normal", view.seat)
    return bot.choose_pass(view) if kind == "pass" else bot.choose_play(view)


def evaluate_all(
    kind: str,
    view: PlayerView,
    seed: int,
    deals: int | None = None,
    blocking: Blocking = BLOCKERS,
    only: list | None = None,
    exact: int = EXACT_DEALS,
    measure: str = MEASURE,
) -> Evaluation:
    """Every option (or ``only`` these passes) on the same ``deals`` fresh deals (``exact`` of
    them when a late play is solved exactly, or every deal the view allows when there are no
    more than that: then the values are exact)."""
    if kind == "pass":
        budget = PassBudget(samples=deals or DEALS["pass"], stages=(), measure=measure)
        return evaluate_pass(view, budget, seed=seed, only=only, blocking=blocking)
    budget = PlayBudget(samples=deals or DEALS["play"], exact_samples=exact, measure=measure, every_deal=True)
    return evaluate_play(view, budget, seed=seed, blocking=blocking)


def moon_line_check(
    kind: str,
    view: PlayerView,
    seed: int,
    found: Acceptance,
    natural: object,
    deals: int | None = None,
    exact: int = EXACT_DEALS,
) -> Acceptance:
    """When the answer rests on a moon (it shoots more often than the natural choice), the
    natural choice must still be clearly worse against strong blockers."""
    evaluation = found.evaluation
    best, plain = evaluation.best, evaluation.value_of(natural)
    if best.moon_for - plain.moon_for < MOON_LINE or evaluation.method == "exact":
        return found
    strong = evaluate_all(
        kind, view, seed, deals, blocking=STRONG_BLOCKERS, only=[best.option, plain.option], exact=exact
    )
    if strong.best.option != best.option:
        reason = (
            f"the answer rests on a moon that strong blockers stop: against them "
            f"{text_of(strong.best.option)} is better than {text_of(best.option)}"
        )
        return Acceptance(evaluation, found.accepted, found.natural, False, reason, found.margin)
    against = strong.value_of(plain.option)
    if against.loss >= MIN_LOSS and against.loss >= MIN_ERRORS * against.loss_error:
        return found
    reason = (
        f"the answer rests on a moon that strong blockers stop: against them {found.natural} loses "
        f"only {against.loss:.2f} ± {against.loss_error:.2f} points"
    )
    return Acceptance(evaluation, found.accepted, found.natural, False, reason, found.margin)


def acceptance(evaluation: Evaluation, natural: object) -> Acceptance:
    """The acceptance rule applied to an evaluation of every option."""
    accepted = [v for v in evaluation.options if v.loss <= TOLERANCE]
    rejected = [v for v in evaluation.options if v.loss > TOLERANCE]
    natural_text = text_of(natural)
    reason = ""
    unclear = [v for v in rejected if v.loss < MIN_LOSS or v.loss < MIN_ERRORS * v.loss_error]
    if unclear:
        v = min(unclear, key=lambda value: value.loss)
        reason = (
            f"{text_of(v.option)} loses {v.loss:.2f} ± {v.loss_error:.2f} points: neither within "
            f"{TOLERANCE} of the best nor clearly worse (at least {MIN_LOSS} and {MIN_ERRORS:.0f} errors)"
        )
    elif natural_text in {text_of(v.option) for v in accepted}:
        reason = f"the natural-looking {natural_text} is as good as the best"
    margin = min((v.loss / v.loss_error if v.loss_error else float("inf") for v in rejected), default=0.0)
    return Acceptance(
        evaluation,
        tuple(text_of(v.option) for v in accepted),
        natural_text,
        not reason,
        reason,
        margin,
    )


def verify_position(
    kind: str,
    view: PlayerView,
    seed: int,
    natural: object | None = None,
    deals: int | None = None,
    exact: int = EXACT_DEALS,
    measure: str = MEASURE,
) -> Acceptance:
    """Value every option on fresh deals (``seed``; ``deals`` of them, else ``DEALS``) and apply
    the acceptance rule."""
    if natural is None:
        natural = natural_choice(kind, view)
    found = acceptance(evaluate_all(kind, view, seed, deals, exact=exact, measure=measure), natural)
    return moon_line_check(kind, view, seed, found, natural, deals, exact) if found.holds else found


if __name__ == "__main__":  # the documented ``python -m trainer.puzzles.verify``
    from trainer.puzzles.verify_command import main

    main()
