"""What every bot is: it decides from a player view, never from the hidden hands."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..cards import Card, CardSet
from ..scoring import MoonChoice
from ..view import PlayerView

__all__ = ["Bot"]


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
