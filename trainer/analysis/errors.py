"""The one error an analysis position that cannot be used raises."""

from __future__ import annotations

from engine.excerpt import clip

__all__ = ["LONGEST", "PositionError"]

LONGEST = 300
"""The longest message a learner reads: one line, whatever the input quoted."""


class PositionError(ValueError):
    """A position that cannot be set up: ``field`` names where ("hand", "trick 3", "passed",
    "address", ...); the message is one line that starts with it and says why."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.reason = " ".join(message.split())  # one line, whatever it quotes
        super().__init__(clip(f"{field}: {self.reason}", LONGEST))
