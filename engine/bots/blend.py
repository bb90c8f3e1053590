"""Blend: a stronger bot's card some of the time, a weaker one's otherwise (the career's rungs
between the bots there are)."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import Card, CardSet
from ..scoring import MoonChoice
from ..view import PlayerView
from .base import Bot
from .random_bot import RandomBot

__all__ = ["BlendBot"]


class BlendBot:
    """Passes as ``strong`` does; each card is ``strong``'s with probability ``skill`` and
    ``weak``'s otherwise (by default a random legal card). The coin has its own seeded generator
    and each bot is asked only when its card is played, so a seed gives the same game."""

    name = "blend"

    def __init__(
        self,
        seed: int = 0,
        *,
        skill: float,
        strong: Callable[[int], Bot],
        weak: Callable[[int], Bot] = RandomBot,
    ) -> None:
        if not 0.0 <= skill <= 1.0:
            raise ValueError(f"skill {skill!r}: a probability from 0 to 1")
        self.coin = random.Random(seed)
        self.skill = skill
        self.strong = strong(seed)
        self.weak = weak(seed + 1)  # its own draws, not the coin's

    def choose_pass(self, view: PlayerView) -> CardSet:
        return self.strong.choose_pass(view)

    def choose_play(self, view: PlayerView) -> Card:
        chosen = self.strong if self.coin.random() < self.skill else self.weak
        return chosen.choose_play(view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self.strong.choose_moon(view)
