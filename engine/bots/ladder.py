"""The career's ladder: ten levels of bots, each stronger than the one below, then the master table.

Each level is a named bot that a table, a room or a tournament can seat by its key
(``make_bot("level-4")``, ``python -m engine.tournament level-5 level-4 level-4 level-4``). What a
level's bots are is one value here (``Level.make``); how much stronger each is than the level below,
measured in duplicate, is ``benchmarks/ladder.py``'s table (README, Benchmarks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import Bot

__all__ = ["LADDER", "MASTER", "Level", "level", "level_keys"]


@dataclass(frozen=True)
class Level:
    number: int
    """1 to 10; the master table is 11."""
    key: str
    """The name a table or a tournament seats these bots by: ``level-N`` or ``master``."""
    title: str
    """What the career page calls the level."""
    words: str
    """Their strength in words, as the career page says it: what these bots do and do not do."""
    make: Callable[[int], Bot]
    """A bot of this level from a seed (``bot`` names it by the key)."""

    def bot(self, seed: int) -> Bot:
        """A bot of this level named by its key, so a saved game seats the same level again."""
        player = self.make(seed)
        player.name = self.key
        return player


def _easy(seed: int) -> Bot:
    from .easy import EasyBot

    return EasyBot(seed)


def _normal(seed: int) -> Bot:
    from .normal import NormalBot

    return NormalBot(seed)


def _hard(seed: int) -> Bot:
    from .hard import HardBot

    return HardBot(seed)


def _master(seed: int) -> Bot:
    from .master import MasterBot

    return MasterBot(seed)


# Provisional rungs from the bots that exist; benchmarks/ladder.py measures and fixes them.
LADDER: tuple[Level, ...] = (
    Level(1, "level-1", "Level 1", "Play any legal card and pass their highest cards.", _easy),
    Level(5, "level-5", "Level 5", "Duck, dump the Q♠ and block moons, as the lessons teach.", _normal),
    Level(10, "level-10", "Level 10", "Think ahead: play each card out in many imagined deals.", _hard),
)

MASTER = Level(
    11,
    "master",
    "The master table",
    "Think ahead in many imagined deals, and note who lets a moon through: shoot against them where it pays.",
    _master,
)


def level_keys() -> tuple[str, ...]:
    """Every level's key, lowest first, the master table last."""
    return (*(rung.key for rung in LADDER), MASTER.key)


def level(key: str) -> Level:
    """The level of that key; ``KeyError`` naming the keys there are."""
    for rung in (*LADDER, MASTER):
        if rung.key == key:
            return rung
    raise KeyError(f"no level {key!r}: the levels are {', '.join(level_keys())}")
