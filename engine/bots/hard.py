"""Hard: search. It values every option by playing it out in many imagined deals."""

from __future__ import annotations

import random

from ..cards import Card, CardSet
from ..evaluator import evaluate_pass, evaluate_play
from ..moon import moon_threat
from ..policy import view_card
from ..scoring import MoonChoice
from ..view import PlayerView
from .normal import choose_moon_by_totals

__all__ = ["HardBot"]


class HardBot:
    """Chooses the option with the best expected score difference to the other players, by
    the evaluator. Its budget is in imagined deals, so a seed gives the same game on any
    machine; the seconds are only a safety stop on a badly overloaded one.

    Against a seat far enough into a moon (``engine.moon``) it blocks by reflex, as the play-out
    policy does (``engine.policy``): the evaluator assumes every seat blocks that way later in
    the hand, so a search that put the block off would count on blocks nobody makes.

    It ranks options by the play-outs' own points (``measure``): ranked by the forecast, as the
    coach grades, it did no better against Normal (margin 3.44 +- 0.49 points a hand over 250
    deals, against 3.72 +- 0.47), whose blockers are weaker than the strong players the forecast
    was fitted to.

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
        pass_samples: int = 1024,
        exact_cards: int = 0,
        exact_samples: int = 256,
        play_seconds: float | None = 5.0,
        pass_seconds: float | None = 20.0,
        measure: str = "playout",
    ) -> None:
        self.rng = random.Random(seed)
        self.play_samples = play_samples
        self.exact_cards = exact_cards
        self.exact_samples = exact_samples
        self.play_seconds = play_seconds
        self.pass_samples = pass_samples
        self.pass_seconds = pass_seconds
        self.measure = measure

    def choose_pass(self, view: PlayerView) -> CardSet:
        evaluation = evaluate_pass(
            view,
            samples=self.pass_samples,
            seconds=self.pass_seconds,
            seed=self.rng.getrandbits(32),
            measure=self.measure,
        )
        return evaluation.best.option

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal_cards
        if len(legal) == 1:
            return legal[0]
        block = moon_block(view)
        if block is not None:
            return block
        evaluation = evaluate_play(
            view,
            samples=self.play_samples,
            seconds=self.play_seconds,
            seed=self.rng.getrandbits(32),
            exact_cards=self.exact_cards,
            exact_samples=self.exact_samples,
            measure=self.measure,
        )
        return evaluation.best.option

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
