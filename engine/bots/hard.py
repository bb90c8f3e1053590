"""Hard: search. It values every option by playing it out in many imagined deals."""

from __future__ import annotations

import random

from ..cards import Card, CardSet
from ..evaluator import evaluate_pass, evaluate_play
from ..scoring import MoonChoice
from ..view import PlayerView
from .normal import choose_moon_by_totals

__all__ = ["HardBot"]


class HardBot:
    """Chooses the option with the best expected score difference to the other players, by
    the evaluator, within a time budget per decision."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        *,
        play_samples: int = 256,
        play_seconds: float = 0.2,
        pass_samples: int = 320,
        pass_seconds: float = 3.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.play_samples = play_samples
        self.play_seconds = play_seconds
        self.pass_samples = pass_samples
        self.pass_seconds = pass_seconds

    def choose_pass(self, view: PlayerView) -> CardSet:
        evaluation = evaluate_pass(
            view, samples=self.pass_samples, seconds=self.pass_seconds, seed=self.rng.getrandbits(32)
        )
        return evaluation.best.option

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal_cards
        if len(legal) == 1:
            return legal[0]
        evaluation = evaluate_play(
            view, samples=self.play_samples, seconds=self.play_seconds, seed=self.rng.getrandbits(32)
        )
        return evaluation.best.option

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return choose_moon_by_totals(view)
