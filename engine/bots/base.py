"""What every bot is: it decides from a player view, never from the hidden hands."""

from __future__ import annotations

from collections.abc import Generator
from typing import Protocol, runtime_checkable

from ..cards import Card, CardSet
from ..scoring import MoonChoice
from ..view import PlayerView

__all__ = ["Bot", "Steps", "finish"]

Steps = Generator[None, None, "Card | CardSet"]
"""A decision in parts (a bot's optional ``pass_steps`` or ``play_steps``): each ``next()`` runs
the next part, the last ends with the decision as ``StopIteration.value``. A caller with one
thread (the browser's page) answers others between the parts."""


def finish(steps: Steps) -> Card | CardSet:
    """Every part of a decision at once: the decision."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


@runtime_checkable
class Bot(Protocol):
    """A player. Each method gets only the view of the seat it plays for."""

    name: str

    def choose_pass(self, view: PlayerView) -> CardSet:
        """The cards to pass (``view.rules.pass_count`` of them)."""
        ...

    def choose_play(self, view: PlayerView) -> Card:
        """One of ``view.legal_cards``."""
        ...

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        """Under shooter's choice: what to do with the moon this seat just shot."""
        ...
