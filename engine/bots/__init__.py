"""Bots at three levels. Every bot decides from a ``PlayerView`` only."""

from __future__ import annotations

from .base import Bot
from .easy import EasyBot
from .table import bot_action, bot_action_steps, bot_acts, bot_turn, play_hand_with_bots

__all__ = [
    "LEVELS",
    "Bot",
    "EasyBot",
    "bot_action",
    "bot_action_steps",
    "bot_acts",
    "bot_turn",
    "make_bot",
    "play_hand_with_bots",
]

LEVELS = ("easy", "normal", "hard")


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of the given level: ``easy``, ``normal`` or ``hard``, or a career level's key
    (``level-1`` to ``level-10``, ``master``: ``engine.bots.ladder``)."""
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        from .normal import NormalBot

        return NormalBot(seed)
    if level == "hard":
        from .hard import HardBot

        return HardBot(seed)
    from .ladder import level as career_level
    from .ladder import level_keys

    try:
        rung = career_level(level)
    except KeyError:
        names = ", ".join((*LEVELS, *level_keys()))
        raise ValueError(f"unknown bot level {level!r}: choose one of {names}") from None
    return rung.bot(seed)
