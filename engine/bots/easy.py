"""Easy: legal, naive play that a beginner can beat."""

from __future__ import annotations

import random

from ..cards import Card, CardSet
from ..scoring import MoonChoice
from ..view import PlayerView

__all__ = ["EasyBot"]


class EasyBot:
    """Passes its three highest cards whatever they are, and plays a random legal card."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose_pass(self, view: PlayerView) -> CardSet:
        by_rank = sorted(view.hand, key=lambda card: (card.rank, card.suit))
        return CardSet(by_rank[-view.rules.pass_count :])

    def choose_play(self, view: PlayerView) -> Card:
        legal = view.legal_cards
        return legal[self.rng.randrange(len(legal))]

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return MoonChoice.ADD_TO_OTHERS
