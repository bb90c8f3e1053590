"""Hard: search. It values every option by playing it out in many imagined deals."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Generator
from dataclasses import replace

from ..cards import Card, CardSet
from ..moon import BLOCKERS, NOBODY, Blocking, moon_candidate, moon_cards, moon_threat, taken_masks
from ..scoring import MoonChoice
from ..search.budget import PASS_STAGES, PassBudget, PlayBudget
from ..search.evaluator import Evaluation, evaluate_pass_steps, evaluate_play_steps
from ..search.policy import view_card
from ..view import PlayerView
from .base import Steps, finish
from .normal import choose_moon_by_totals

__all__ = [
    "BROWSER_PASS",
    "FULL_PASS",
    "IN_BROWSER",
    "HardBot",
    "Steps",
    "finish",
    "pass_budget",
]

IN_BROWSER = sys.platform == "emscripten"
"""Pyodide (the static site): one thread, the play-outs in pure Python, several times slower."""


FULL_PASS = PassBudget(samples=1024, stages=PASS_STAGES, seconds=20.0)
"""What Hard spends on a pass installed: the screening of all passes, the finalists' fresh deals,
and a safety clock for those finals; about 77,000 play-outs a pass, a fraction of a second
compiled."""

BROWSER_PASS = PassBudget(samples=128, stages=((16, 12), (64, 4)), seconds=3.0)
"""The static site's, as the coach has its own there (``trainer.coach.depth.BROWSER``): 5,856
play-outs a pass, where the full budget took 20-25 s a pass in Pyodide (three Hard bots passing
froze the page over a minute). Its time there: ``benchmarks/site_speed.py``; what it costs Hard
against the full budget: about half a point a hand (``benchmarks/DECISIONS.md``)."""


def pass_budget() -> PassBudget:
    """The budget of the platform this runs on."""
    return BROWSER_PASS if IN_BROWSER else FULL_PASS


class HardBot:
    """Chooses the option with the best expected score difference to the other players, by
    the evaluator. Its budget is in imagined deals, so a seed gives the same game on any
    machine; the seconds are only a safety stop on a badly overloaded one.

    Against a seat far enough into a moon (``engine.moon``) it blocks by reflex, as the play-out
    policy does (``engine.search.policy``): the evaluator assumes every seat blocks that way later in
    the hand, so a search that put the block off would count on blocks nobody makes.

    It ranks options by the play-outs' own points (``measure``): ranked by the forecast, as the
    coach grades, it did no better against Normal (margin 3.44 +- 0.49 points a hand over 250
    deals, against 3.72 +- 0.47), whose blockers are weaker than the strong players the forecast
    was fitted to.

    It weighs two plans for itself (``moon_plan``): each option is valued on the same imagined
    deals played out as the policy plays (it runs for the moon only once it holds five moon
    cards, or its hand has no losers), and again with this seat going for the moon from now on,
    for as long as it can still make it (``Blocking.shooter``); an option's value is its better
    plan's. The other seats block in both as the policy does. The plans share the budget, so a
    decision costs what one look did. Against Normal this made the margin 4.64 points a hand over
    250 deals (seed 2026; one plan: 4.06), +0.58 +- 0.46 paired on the same deals, and +0.48 +-
    0.41 on 250 others (seed 7): the policy starts running too late to find the moons a strong
    hand makes by running from the start. Its moons there come from blockers who play as the
    policy (and Normal) do; against Hard without the plan, who blocks by search, it is even
    (+0.01 +- 0.50 points a hand head to head, 250 deals).

    It plays every imagined deal out by the policy to the end (``exact_cards`` 0): solving the
    last tricks of each deal exactly, as the coach does, has every seat play with all hands open,
    and against Normal that did worse (margin 3.72 +- 0.47 points a hand over 250 deals, with
    the play-outs to the end 4.06 +- 0.48, the same deals paired: +0.34 +- 0.25). The coach
    solves them because a verdict is a fact about the position; Hard plays real players, who
    do not see the cards."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        *,
        play_samples: int = 1024,
        pass_samples: int | None = None,
        exact_cards: int = 0,
        exact_samples: int = 256,
        play_seconds: float | None = 5.0,
        passes: PassBudget | None = None,
        measure: str = "playout",
        moon_plan: bool = True,
    ) -> None:
        """``passes``: the budget for a pass, by default the platform's (``pass_budget()``);
        ``pass_samples`` overrides its fresh deals, and ``measure`` is a play's and a pass's."""
        budget = passes or pass_budget()
        self.rng = random.Random(seed)
        self.plays = PlayBudget(
            samples=play_samples,
            seconds=play_seconds,
            exact_cards=exact_cards,
            exact_samples=exact_samples,
            measure=measure,
        )
        self.passes = replace(
            budget, samples=budget.samples if pass_samples is None else pass_samples, measure=measure
        )
        self.measure = measure
        self.moon_plan = moon_plan

    def choose_pass(self, view: PlayerView) -> CardSet:
        return finish(self.pass_steps(view))

    def choose_play(self, view: PlayerView) -> Card:
        return finish(self.play_steps(view))

    def pass_steps(self, view: PlayerView) -> Steps:
        """``choose_pass`` in parts: yields between its looks (one a plan), and in the browser
        within a look (``evaluate_pass_steps``), and returns the pass, so a caller with one
        thread (the browser's page) can answer others between them."""
        return self._best_look(evaluate_pass_steps, view, self.passes)

    def play_steps(self, view: PlayerView) -> Steps:
        """``choose_play`` in parts, as ``pass_steps`` (``evaluate_play_steps``)."""
        legal = view.legal_cards
        if len(legal) == 1:
            return legal[0]
        block = moon_block(view)
        if block is not None:
            return block
        return (yield from self._best_look(evaluate_play_steps, view, self.plays))

    def _best_look(
        self,
        evaluate: Callable[..., Generator[None, None, Evaluation]],
        view: PlayerView,
        budget: PlayBudget | PassBudget,
    ) -> Steps:
        """The best option over every plan (``_plans``), each plan's values on the same deals,
        yielding between the plans' looks. The plans share the budget (deals, screening stages,
        seconds), so a decision costs what one look did: in the browser, where the play-outs run
        in pure Python, that is seconds, and each look about half of it."""
        seed = self.rng.getrandbits(32)
        plans = self._plans(view)
        share = budget.split(len(plans))
        looks: list[Evaluation] = []
        for blocking in plans:
            if looks:
                yield
            looks.append((yield from evaluate(view, share, seed=seed, blocking=blocking)))
            if looks[-1].method == "exact":
                break  # solved with every seat playing perfectly: no plan changes the values
        return min((look.best for look in looks), key=lambda value: value.difference).option

    def _plans(self, view: PlayerView) -> list[Blocking]:
        """The play-outs to value options by: as the policy plays them, and (with
        ``moon_plan``, while this seat can still shoot and is not running already) with this seat
        going for the moon from now on. Only the play-outs' own points compare across plans:
        the forecast is fitted to the first alone."""
        if not self.moon_plan or self.measure != "playout":
            return [BLOCKERS]
        runner, cards = moon_candidate(taken_masks(view), moon_cards(view.rules))
        if runner not in (view.seat, NOBODY) or (runner == view.seat and cards >= BLOCKERS.run):
            return [BLOCKERS]
        return [BLOCKERS, Blocking(shooter=view.seat)]

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return choose_moon_by_totals(view)


def moon_block(view: PlayerView) -> Card | None:
    """The policy's blocking card when another seat has taken every moon card so far, enough of
    them that the policy blocks at any price (``MoonThreat.guarded``), and the policy's moon
    rules decide this play (they choose another card than with no runner)."""
    threat = moon_threat(view)
    if threat is None or not threat.guarded:
        return None
    blocking = view_card(view, threat.seat, threat.cards)
    if blocking == view_card(view, moon=False):
        return None
    return Card(blocking)
