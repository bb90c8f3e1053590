"""How hard the coach looks before it gives a verdict: one budget for lessons, puzzles, hints and
the review, so the same decision gets the same verdict wherever the learner meets it.

A verdict is a function of the position, the seed and the budget in deals: the evaluator samples
rounds of imagined deals until the learner's choice's band is decided or ``*_samples`` deals are
spent. The seconds are a safety stop only (a badly overloaded machine); when they end a verdict
early, the verdict says so.

A choice that would be a mistake only because the best option goes for the moon is judged once
more, on the same budget, against blockers who block at any price
(``engine.moon.STRONG_BLOCKERS``); ``grading.grade`` then decides whether the moon line's edge
holds.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine import CardSet, PlayerView
from engine.moon import STRONG_BLOCKERS
from engine.search.budget import ROUND, PassBudget, PlayBudget
from engine.search.evaluator import Evaluation, evaluate_pass, evaluate_play

from .grading import LIMITS, Band, grade, moon_dependent

__all__ = [
    "BROWSER",
    "COACH",
    "FULL",
    "IN_BROWSER",
    "LOOKS",
    "SHALLOWER_NOTE",
    "Depth",
    "judge",
    "judge_pass",
    "judge_play",
    "looked_shallower",
    "measure_for",
    "needs_check",
]


LOOKS = ("verdict", "full", "first", "check")
"""The looks a ``Depth`` budgets: a ``verdict`` (``judge``: until the learner's choice's band is
decided), the ``full`` depth with no choice to judge (the review's look at a decision not yet
made), a hint's ``first`` look (which only picks the option the verdict then judges), and the
``check`` of a play graded best on deals solved exactly (``needs_check``)."""


@dataclass(frozen=True)
class Depth:
    play_samples: int = 131072
    """Most imagined deals for a play verdict. Cards that cannot change the judged card's loss
    leave the race, so an undecided verdict plays two or three cards on most deals. At 81,920
    deals such verdicts took 0.23-0.80 s alone on this machine and 16 of 300 stayed "between"
    (7 of them further from a band's limit than 0.7 of their interval's half-width). 1.6 times
    the deals narrow an interval by a fifth: 11 of the 300 stay "between" (all but one of their
    losses within 0.13 of a limit), and the deepest verdict took 1.04 s alone
    (``benchmarks/DECISIONS.md``, the coach's depth)."""
    exact_samples: int = 2048
    """Most deals when a late play is solved exactly. When the view allows no more deals than
    this, every one is solved once and the verdict is exact (``evaluate_play``'s ``every_deal``).
    The compiled solver makes them cheap: at 512 deals 2 of 40 trick-9 verdicts stayed
    "between" bands the solved deals decide, at 2,048 none (p95 0.68 s on a busy machine)."""
    exact_cards: int = 5
    """Solve each deal exactly once every seat holds at most this many cards, as the evaluator does
    (``engine.search.evaluator.EXACT_CARDS``). With the compiled solver (``engine.search.compiled_solver``) a
    deal of five cards a seat takes p95 1.4 ms at a trick's start (26 ms in pure Python,
    ``solver_speed.json``); on 40 held-out trick-9 plays the verdicts took p95 0.92 s (median 0.05 s) on a
    machine loaded 4.5-7.9 (with four, five cards played out: p95 0.93 s), and their band equals the solved
    deals' in 39 of 40 (played out: 26 of 40, four called best that lose 1.0 points or more;
    ``late_exact.json``)."""
    exact_measure: str = "playout"
    """What a verdict solved exactly is measured in: the solved points themselves. The forecast
    (``measure``) maps play-outs onto what strong players make of them; applied to solutions
    it moved losses across bands (a certain 2.67 read as 2.2). On 40 held-out trick-9 plays
    the band equalled the solved deals' in 32 read through the forecast, 38 in solved points
    at 512 deals and 40 at 2,048 (``benchmarks/DECISIONS.md``)."""
    check_cards: int = 6
    """A play verdict played out by the policy when every seat holds at most this many cards,
    and graded best, is checked on deals solved exactly (``check_samples`` of them): where the
    solved loss is a point or more, the verdict does not say best (``grading.REFUTED``). With
    six cards a seat a deal solves in about 1 ms (p95 15 ms, ``solver_speed.json``): on 40
    held-out trick-8 plays the verdicts took median 0.15 s (0.02 s unchecked) and p95 1.55 s
    (1.61 s), and none of the four "best" that lose a point solved stayed best
    (``late_exact.json``). With seven cards a seat the search grows several times again."""
    check_samples: int = 128
    """Deals solved for that check (every one, when the view allows no more)."""
    pass_samples: int = 524288
    """Most fresh deals on which a pass's finalists and the learner's pass are valued. A pass's
    paired losses spread about 9 points a deal (moons), so at 65,536 deals a loss within 0.09 of
    a band's limit stayed undecided: 13% of pass verdicts; at 262,144 deals 16 of 150 stayed
    undecided, every one within 0.10 of a limit. Twice
    that, paid for by play-outs about 1.6 times faster (``engine.search.compiled``'s bit helpers as
    machine instructions) and deals dealt on both cores, leaves 10 of those 150 undecided
    (``benchmarks/DECISIONS.md``, the coach's depth)."""
    pass_playouts: int | None = 1310720
    """Most play-outs on those fresh deals (deals times the passes still in the race), two and a
    half times the deals' budget. A verdict's time is its play-outs' (alone on this machine under
    1.5 microseconds each, 2.5-3.3 before; the screening's 171,520 come first), and finals where
    three to six passes stay close to the best play each deal that many times: with deals alone
    as the budget 5 of 150 pass verdicts took 3.0-3.9 s (when a play-out took twice as long). At
    two and a half times the deals' budget, of those 150 verdicts one was left undecided that the
    deals alone decided; capping the deals instead left 4 (``benchmarks/DECISIONS.md``). At this
    budget the slowest of 150 took 2.37 s alone."""
    pass_stages: tuple[tuple[int, int], ...] = ((256, 64), (1024, 16), (2048, 5))
    """The screening of all passes that picks the finalists: deeper than Hard's
    (``engine.search.evaluator.PASS_STAGES``), because a pass screened out on 128 deals can be the best
    (a choice's loss is only as true as the best pass it is measured against)."""
    min_samples: int = 2048
    """Deals before a play verdict played out by the policy may be called decided. A play's
    losses have a long tail too (a moon, a caught queen), so a few hundred deals can miss it
    and read the loss low with too narrow an interval: of 85 verdicts decided on fewer than
    2,048 deals in tricks 1-8, 9 missed the deep look's loss by more than their 2.5 standard
    errors, 8 of them low (found: a 2♠ called an inaccuracy, 1.78 on 432 deals, that is a
    mistake, 2.61, at any depth; 1 seed in 24 did that), against 2 of 68 decided on more.
    With this minimum no play verdict of those 300 is wrong (was 1); 2 that were called best
    early (0.44 and 0.48 at the deep look) are now "between best and good"
    (``benchmarks/DECISIONS.md``, the coach's depth)."""
    exact_min_samples: int = 2 * ROUND
    """Deals before a play solved exactly may be called decided (each deal costs milliseconds)."""
    first_look: int = 2 * ROUND
    """Deals of a hint's first look, which only picks the option the verdict then judges."""
    pass_min_samples: int = 16384
    """Fresh deals before a pass verdict may be called decided: a pass's outcomes are
    heavy-tailed (a moon swings 26 points), so an interval from a few thousand deals can be too
    narrow (found: a "blunder" at 432 deals that is a mistake at ten times the deals, an
    "inaccuracy" at 3,072 deals, 1.49 [1.05, 1.93], that is "good" at 0.93, and a "best" at
    8,192 deals, 0.30 [0.10, 0.49], that is "good" at 0.61). A thirty-second of the budget, as
    8,192 was of 262,144; cheap: the finals play a handful of passes."""
    play_seconds: float | None = 10.0
    pass_seconds: float | None = 20.0
    measure: str = "forecast"
    """What a verdict is measured in (``engine.search.evaluator.MEASURES``): the forecast, the points
    to expect against strong players, where it applies. The play-outs' own losses read about
    1.6 times what Hard x4 realise on the true deal; the verdicts' losses in the forecast 1.02
    times it (``benchmarks/DECISIONS.md``; ``benchmarks/loss_calibration.py``)."""

    def for_play(self, view: PlayerView, look: str = "verdict") -> PlayBudget:
        """What ``evaluate_play`` may spend on ``look`` (``LOOKS``) at ``view``: the one place a
        depth becomes the evaluator's budget for a play."""
        if look == "check":
            cards, deals = view.rules.hand_size, self.check_samples
            return PlayBudget(
                samples=deals,
                exact_cards=cards,
                exact_samples=deals,
                exact_min_samples=deals,
                every_deal=True,
            )
        if look == "first":
            deals = self.first_look
            return PlayBudget(
                samples=deals,
                exact_samples=deals,
                exact_cards=self.exact_cards,
                measure=measure_for(view, self),
            )
        full = PlayBudget(
            samples=self.play_samples,
            seconds=self.play_seconds,
            exact_samples=self.exact_samples,
            exact_cards=self.exact_cards,
            measure=measure_for(view, self),
            every_deal=True,  # a late position has one value, whichever way it is asked
        )
        if look == "full":
            return full
        _known(look)
        return replace(full, min_samples=self.min_samples, exact_min_samples=self.exact_min_samples)

    def for_pass(self, look: str = "verdict") -> PassBudget:
        """What ``evaluate_pass`` may spend on ``look`` (``LOOKS``; a pass has no ``check``): the
        one place a depth becomes the evaluator's budget for a pass."""
        if look == "first":
            return PassBudget(samples=self.first_look, stages=self.pass_stages, measure=self.measure)
        full = PassBudget(
            samples=self.pass_samples,
            stages=self.pass_stages,
            seconds=self.pass_seconds,
            playouts=self.pass_playouts,
            measure=self.measure,
        )
        if look == "full":
            return full
        if look == "check":
            raise ValueError("a pass has no check on solved deals (LOOKS)")
        _known(look)
        return replace(full, min_samples=min(self.pass_min_samples, self.pass_samples))

    def deeper(self, factor: int) -> Depth:
        """``factor`` times the deals everywhere (the stability benchmark's reference)."""
        return replace(
            self,
            play_samples=self.play_samples * factor,
            exact_samples=self.exact_samples * factor,
            check_samples=self.check_samples * factor,
            pass_samples=self.pass_samples * factor,
            pass_playouts=None if self.pass_playouts is None else self.pass_playouts * factor,
            pass_stages=tuple((deals * factor, keep) for deals, keep in self.pass_stages),
            min_samples=self.min_samples * factor,
            exact_min_samples=self.exact_min_samples * factor,
            pass_min_samples=self.pass_min_samples * factor,
            play_seconds=None,
            pass_seconds=None,
        )


def _known(look: str) -> None:
    if look not in LOOKS:
        raise ValueError(f"look must be one of {', '.join(LOOKS)}, not {look!r}")


FULL = Depth()
"""The installed version's depth."""

BROWSER = Depth(
    play_samples=2048,
    exact_samples=128,
    pass_samples=4096,
    pass_stages=((128, 32), (512, 8), (1024, 4)),
    min_samples=512,
    pass_min_samples=1024,
    play_seconds=3.0,
    pass_seconds=6.0,
    exact_cards=4,
    check_cards=0,
)
"""The static site's depth (Pyodide: one thread, pure Python without numba, several times slower
than the installed version): 2,048 deals a play and 4,096 a pass (installed: 131,072 and
524,288), so a play verdict takes 1-3 s there (``benchmarks/results/site.json``; at 4,096 deals
it took 4-5 s on a busy 2-core machine and the clock cut half of them short) and the page stays
responsive. Its minimum deals before a verdict may be decided are a quarter of its budget, a
play's as a pass's. Pyodide has no numba, so it solves with the pure-Python solver: solved from
five cards a seat, trick-9 verdicts took p95 2.3 s (max 3.3 s) natively on this machine on 128
deals, more than the play clock in Pyodide, so it solves from four (p95 0.04 s) and plays five
out by the policy; the check of a policy's "best" on solved deals is off there (a deal of six
cards a seat takes p95 0.16 s in pure Python)."""

IN_BROWSER = sys.platform == "emscripten"
COACH = BROWSER if IN_BROWSER else FULL
"""The depth of every verdict the learner sees."""

SHALLOWER_NOTE = (
    f"In the browser the coach looks at up to {BROWSER.play_samples:,} imagined deals a play and "
    f"{BROWSER.pass_samples:,} a pass (the installed version: {FULL.play_samples:,} and "
    f"{FULL.pass_samples:,}), so a close verdict may differ there."
)
"""What a verdict adds when it was given at the browser's shallower depth."""


def looked_shallower(evaluation: Evaluation) -> bool:
    """Whether an evaluation is no deeper than the browser's budget: a verdict judged there, not
    one read from a stored evaluation (a puzzle's, verified on more deals than either depth).
    A look at every deal the view allows is never shallower: no depth changes it."""
    if evaluation.every_deal:
        return False
    if evaluation.method == "exact":
        budget = BROWSER.exact_samples
    else:
        budget = BROWSER.pass_samples if evaluation.kind == "pass" else BROWSER.play_samples
    return evaluation.samples <= budget


def judge_play(view: PlayerView, card: object, seed: int = 0, depth: Depth = COACH) -> Evaluation:
    """Every card valued, sampling until ``card``'s band is decided."""
    budget = depth.for_play(view)
    evaluation = evaluate_play(view, budget, seed=seed, judge=card, limits=LIMITS)
    if moon_dependent(evaluation, card):
        strong = evaluate_play(view, budget, seed=seed, judge=card, limits=LIMITS, blocking=STRONG_BLOCKERS)
        evaluation = replace(evaluation, strong_blockers=strong)
    if needs_check(evaluation, view, card, depth):
        solved = evaluate_play(view, depth.for_play(view, "check"), seed=seed)
        evaluation = replace(evaluation, solved_check=solved)
    return evaluation


def measure_for(view: PlayerView, depth: Depth) -> str:
    """What a play verdict at ``view`` is measured in: solved points where it solves each deal
    exactly (``Depth.exact_measure``), else ``Depth.measure``."""
    if view.phase.value == "playing" and max(view.hand_sizes) <= depth.exact_cards:
        return depth.exact_measure
    return depth.measure


def needs_check(evaluation: Evaluation, view: PlayerView, card: object, depth: Depth) -> bool:
    """Whether a play verdict's "best" must be checked on solved deals: it was played out by the
    policy, late enough to solve (``Depth.check_cards``), and grades the card best."""
    return (
        evaluation.method != "exact"
        and max(view.hand_sizes) <= depth.check_cards
        and grade(evaluation, card).band is Band.BEST
    )


def judge_pass(
    view: PlayerView, cards: object, seed: int = 0, depth: Depth = COACH, include: Sequence = ()
) -> Evaluation:
    """Every pass valued, the finalists and ``cards`` on fresh deals until its band is decided."""
    chosen = cards if isinstance(cards, CardSet) else CardSet(cards)
    budget = depth.for_pass()
    evaluation = evaluate_pass(view, budget, seed=seed, judge=chosen, limits=LIMITS, include=include)
    if not moon_dependent(evaluation, chosen):
        return evaluation
    # Every pass screened again against strong blockers (the best there need not be the model's
    # moon line, nor one of its finalists), the model's finalists kept in the finals beside it.
    strong = evaluate_pass(
        view,
        budget,
        seed=seed,
        judge=chosen,
        limits=LIMITS,
        include=_finalists(evaluation, depth),
        blocking=STRONG_BLOCKERS,
    )
    return replace(evaluation, strong_blockers=strong)


def _finalists(evaluation: Evaluation, depth: Depth) -> list[CardSet]:
    """The passes valued on fresh deals: they lead the ranking, as many as the last stage keeps."""
    keep = depth.pass_stages[-1][1] if depth.pass_stages else len(evaluation.options)
    return [value.option for value in evaluation.options[:keep]]


def judge(view: PlayerView, choice: object, seed: int = 0, depth: Depth = COACH) -> Evaluation:
    """A play or pass verdict's evaluation, whichever the view is deciding."""
    if view.phase.value == "passing":
        return judge_pass(view, choice, seed, depth)
    return judge_play(view, choice, seed, depth)
