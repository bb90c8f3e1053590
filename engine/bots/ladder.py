"""The career's ladder: ten levels of bots, each stronger than the one below, then the master table.

Each level is a named bot that a table, a room or a tournament can seat by its key
(``make_bot("level-4")``, ``python -m engine.tournament level-5 level-4 level-4 level-4``). What a
level's bots are is one value here (``Level.make``); how much stronger each is than the level below,
measured in duplicate, is ``benchmarks/ladder.py``'s table (README, Benchmarks).
"""

from __future__ import annotations

import sys
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
    margin: float | None = None
    """Points a hand this level's bot scores below three of the level beneath, in duplicate
    (``benchmarks/ladder.py``); None for level 1, the master table, or not measured."""
    margin_ci: float | None = None
    """The 95% half-interval of ``margin``, paired by deal."""

    def bot(self, seed: int) -> Bot:
        """A bot of this level named by its key, so a saved game seats the same level again."""
        player = self.make(seed)
        player.name = self.key
        return player


def _random(seed: int) -> Bot:
    from .random_bot import RandomBot

    return RandomBot(seed)


def _easy(seed: int) -> Bot:
    from .easy import EasyBot

    return EasyBot(seed)


def _steady(seed: int) -> Bot:
    """Normal that never sees a moon coming (``NormalBot(block_moons=False)``)."""
    from .normal import NormalBot

    return NormalBot(seed, block_moons=False)


def _blend(skill: float) -> Callable[[int], Bot]:
    """Normal (no moon blocking)'s card with probability ``skill``, else a random legal card."""

    def make(seed: int) -> Bot:
        from .blend import BlendBot

        return BlendBot(seed, skill=skill, strong=_steady)

    return make


def _quick(seed: int) -> Bot:
    """Hard on a glance: 16 imagined deals a card and a pass screened on 16; no moon plan."""
    from ..search.budget import PassBudget
    from .hard import HardBot

    return HardBot(seed, play_samples=16, passes=PassBudget(samples=16, stages=((16, 4),)), moon_plan=False)


def _thoughtful(seed: int) -> Bot:
    """Hard on the static site's pass budget and 128 imagined deals a card; no moon plan."""
    from .hard import BROWSER_PASS, HardBot

    return HardBot(seed, play_samples=128, passes=BROWSER_PASS, moon_plan=False)


def _hard(seed: int) -> Bot:
    from .hard import HardBot

    return HardBot(seed)


def _master(seed: int) -> Bot:
    from .master import MasterBot

    return MasterBot(seed)


def _rung(number: int, words: str, make: Callable[[int], Bot]) -> Level:
    in_site = sys.platform == "emscripten"
    level_margin = (SITE_MARGINS.get(number) if in_site else None) or MARGINS.get(number)
    return Level(
        number,
        f"level-{number}",
        f"Level {number}",
        words,
        make,
        margin=None if level_margin is None else level_margin[0],
        margin_ci=None if level_margin is None else level_margin[1],
    )


MARGINS: dict[int, tuple[float, float]] = {
    2: (3.1, 0.18),
    3: (1.47, 0.17),
    4: (1.6, 0.17),
    5: (1.66, 0.17),
    6: (1.04, 0.15),
    7: (0.71, 0.12),
    8: (2.31, 0.76),
    9: (0.98, 0.63),
    10: (0.9, 0.77),
}
"""Level number: (margin, its 95% half-interval), points a hand over the level below, as
``benchmarks/results/ladder.json`` has them (``benchmarks/ladder.py``; a test checks)."""

SITE_MARGINS: dict[int, tuple[float, float]] = {10: (0.21, 0.56)}
"""Where the static site's bots differ from these (level 10 passes on Hard's ``BROWSER_PASS``
there): their margin in the site, which its career page says, as
``benchmarks/results/ladder_site.json`` has it (``benchmarks/ladder.py --site``; a test checks)."""

LADDER: tuple[Level, ...] = (
    _rung(1, "Play any legal card and pass any three cards, at random.", _random),
    _rung(2, "Pass their three highest cards, then play any legal card at random.", _easy),
    _rung(
        3,
        "Pass as the lessons teach, but play a careful card only one time in four; otherwise any legal card.",
        _blend(0.25),
    ),
    _rung(
        4,
        "Pass as the lessons teach and play a careful card half the time; otherwise any legal card.",
        _blend(0.5),
    ),
    _rung(
        5,
        "Pass as the lessons teach and play a careful card three times in four; otherwise any legal card.",
        _blend(0.75),
    ),
    _rung(
        6,
        "Pass as the lessons teach and play carefully nine times in ten; now and then any legal card.",
        _blend(0.9),
    ),
    _rung(
        7,
        "Always careful: duck, dump the Q♠, watch for her and for voids; never see a moon coming.",
        _steady,
    ),
    _rung(
        8,
        "Think ahead a little: try each card and each pass in up to 16 imagined deals;"
        " block a moon once it is plain.",
        _quick,
    ),
    _rung(
        9,
        "Think ahead: try each card in up to 128 imagined deals and each pass in more;"
        " block a moon once it is plain.",
        _thoughtful,
    ),
    _rung(
        10,
        "Think hard: try each card in up to 1,024 imagined deals, weigh shooting the moon from the start,"
        " and block a moon once it is plain.",
        _hard,
    ),
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
