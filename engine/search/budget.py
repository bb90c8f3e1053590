"""What the evaluator may spend on one decision: one frozen value per kind of decision.

``evaluate_play`` takes a ``PlayBudget`` and ``evaluate_pass`` a ``PassBudget``; the question
asked (the option to judge, the band limits, the blockers' model, the seed) stays beside it as
keywords. The coach builds its budgets from its ``Depth`` in one place
(``trainer.coach.depth``), Hard holds its own (``engine.bots.hard``), and a benchmark writes the
one it measures. The defaults are the evaluator's own when nothing is asked.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["PASS_DEFAULTS", "PASS_STAGES", "PLAY_DEFAULTS", "ROUND", "PassBudget", "PlayBudget"]

ROUND = 64
"""Deals added at a time: the stopping rule is checked after each round."""

PASS_STAGES = ((128, 48), (512, 12), (1024, 4))
"""Successive halving for passes: every pass is played on 128 imagined deals, the best 48 on 512
more, the best 12 on 1,024 more; the best 4 are the finalists, valued afresh."""


@dataclass(frozen=True)
class PlayBudget:
    """How far ``evaluate_play`` looks at a play."""

    samples: int = 256
    """Most imagined deals."""
    seconds: float | None = None
    """A safety stop only: a verdict is a function of the deals, not of the machine."""
    min_samples: int = ROUND
    """Deals (effective, when the deals are weighted) before a judged card may be called decided;
    also the first round's size."""
    exact_cards: int | None = None
    """Solve each deal exactly once every seat holds at most this many cards (None: the
    evaluator's ``EXACT_CARDS``; 0: never)."""
    exact_samples: int | None = None
    """Most deals when the position is solved exactly (each costs far more than a play-out)."""
    exact_min_samples: int | None = None
    """``min_samples`` when solved exactly (None: ``min_samples``)."""
    measure: str = "playout"
    """What options are ranked and their losses measured by (the evaluator's ``MEASURES``)."""
    every_deal: bool = False
    """Solved exactly and allowing no more deals than ``samples``: value every deal once (exact)."""

    def split(self, parts: int) -> PlayBudget:
        """One of ``parts`` looks sharing this budget's deals and seconds (Hard's plans)."""
        return replace(
            self,
            samples=self.samples // parts,
            seconds=None if self.seconds is None else self.seconds / parts,
        )


@dataclass(frozen=True)
class PassBudget:
    """How far ``evaluate_pass`` looks at a pass: the screening of every pass (``stages``, rounds
    of (deals, survivors)), then the finalists' fresh deals."""

    samples: int = 320
    """Most fresh deals for the finalists (and the judged or included passes)."""
    stages: tuple[tuple[int, int], ...] = PASS_STAGES
    seconds: float | None = None
    """A safety stop on the fresh deals only."""
    min_samples: int = ROUND
    """Fresh deals before a judged pass may be called decided; also the first round's size."""
    playouts: int | None = None
    """Most play-outs on the fresh deals (deals times the passes still in the race)."""
    measure: str = "playout"
    """What options are screened, ranked and measured by (the evaluator's ``MEASURES``)."""

    def split(self, parts: int) -> PassBudget:
        """One of ``parts`` looks sharing this budget's deals, screening and seconds (Hard's
        plans; the play-out cap too, when there is one)."""
        return replace(
            self,
            samples=self.samples // parts,
            stages=tuple((deals // parts, keep) for deals, keep in self.stages),
            seconds=None if self.seconds is None else self.seconds / parts,
            playouts=None if self.playouts is None else self.playouts // parts,
        )


PLAY_DEFAULTS = PlayBudget()
"""What ``evaluate_play`` spends when given no budget: a quick look, for tools and tests."""

PASS_DEFAULTS = PassBudget()
"""What ``evaluate_pass`` spends when given no budget."""
