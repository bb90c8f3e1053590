"""Random: any legal card, any three cards passed; the floor of the career's ladder."""

from __future__ import annotations

import random

from ..cards import Card, CardSet
from ..scoring import MoonChoice
from ..view import PlayerView

__all__ = ["RandomBot"]


class RandomBot:
    """Passes cards drawn at random from its hand and plays a random legal card."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose_pass(self, view: PlayerView) -> CardSet:
        hand = sorted(view.hand, key=int)  # a fixed order, so the seed alone decides the draw
        return CardSet(self.rng.sample(hand, view.rules.pass_count))

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal_cards
        return legal[self.rng.randrange(len(legal))]

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return MoonChoice.ADD_TO_OTHERS
