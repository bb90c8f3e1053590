"""The learner's career, kept in the progress store: every finished match, and the level they make.

A match is a game against three bots of one level (``engine.bots.ladder``). Each finished match is
one row of ``career_matches``: its level, its target (50 or 100), won or lost, the learner's points
in each hand, when it ended, and the key of the game kept for review (``games.key``). The match in
play is a table game like lesson 9's (``table_games`` at ``PLACE``), kept after every card.

The current level is not a separate value: it is read from the matches (one level above the
highest level won, the master table after level 10), so two careers merged by an import make the
further one, and no row can contradict another.

Ties: a career match plays a tie for the lowest total off, one more hand at a time, as the career's
rules say (``TieRule.PLAY_OFF``), so a match ends with one player alone lowest. Should a kept game
still end shared (not one the career deals), a shared lowest total counts as lost: a win moves
the learner up only when they alone are lowest.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from engine import Rules, TieRule
from engine.bots.ladder import LADDER, MASTER, Level
from engine.excerpt import clip

from ..progress.checks import Bad
from ..progress.decisions import now
from ..progress.schema import SCHEMA, check_row
from ..store import Store

__all__ = [
    "PLACE",
    "TARGETS",
    "CareerProgress",
    "Match",
    "Strength",
    "match_result",
    "match_rules",
    "next_level",
    "rung",
    "rungs",
    "strength",
]

PLACE = "career/match"
"""Where the match in play is kept (``table_games.place``)."""
TARGETS = (50, 100)
"""The game lengths a learner chooses from at the start of a match."""


def rungs() -> tuple[Level, ...]:
    """Every level a match is played at, lowest first, the master table last."""
    return (*LADDER, MASTER)


def rung(number: int) -> Level | None:
    return next((level for level in rungs() if level.number == number), None)


def title(number: int) -> str:
    found = rung(number)
    return found.title if found else f"Level {number}"


def next_level(number: int) -> int:
    """The level a win at ``number`` moves up to: the next rung (the master table after the
    last); a win at the master table stays there."""
    return next((level.number for level in rungs() if level.number > number), MASTER.number)


def match_rules(target: int) -> Rules:
    """A career match: to ``target``, a tie for lowest played off (the career's rules)."""
    return Rules(target=target, ties=TieRule.PLAY_OFF)


def match_result(winners: Sequence[int], seat: int) -> str:
    """``won`` when the learner alone has the lowest total, else ``lost`` (a shared lowest too)."""
    return "won" if tuple(winners) == (seat,) else "lost"


@dataclass(frozen=True)
class Match:
    id: int
    game_key: str
    level: int
    target: int
    result: str
    points: tuple[int, ...]
    """The learner's points in each hand, in order."""
    finished_at: str

    @property
    def won(self) -> bool:
        return self.result == "won"

    @property
    def hands(self) -> int:
        return len(self.points)

    @property
    def total(self) -> int:
        return sum(self.points)


_COLUMNS = ("id", "game_key", "level", "target", "result", "points", "hands", "finished_at")


class CareerProgress:
    """The career in ``store``: its matches, the level they make, and keeping a finished one."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def readable_matches(self) -> tuple[list[Match], list[str]]:
        """Every kept match that passes its checks, oldest first, and one line for each row that
        does not (left in the file as it is, counted nowhere)."""
        matches, problems = [], []
        rows = self.store.query(f"SELECT {', '.join(_COLUMNS)} FROM career_matches ORDER BY finished_at, id")
        for values in rows:
            row = dict(zip(_COLUMNS, values, strict=True))
            try:
                check_row("career_matches", row, SCHEMA["career_matches"])
            except Bad as bad:
                field = bad.field.lstrip(".") or "row"
                problems.append(clip(f"career_matches row {row['id']}, {field}: {bad.reason}", 300))
                continue
            points = tuple(json.loads(row["points"]))
            matches.append(
                Match(row["id"], row["game_key"], row["level"], row["target"], row["result"], points,
                      row["finished_at"])
            )  # fmt: skip
        return matches, problems

    @property
    def matches(self) -> list[Match]:
        return self.readable_matches()[0]

    @property
    def level(self) -> int:
        return level_from(self.matches)

    def recorded(self, game_key: str) -> bool:
        return bool(self.store.query("SELECT 1 FROM career_matches WHERE game_key = ?", (game_key,)))

    def keep(self, game_key: str, level: int, target: int, result: str, points: Sequence[int]) -> bool:
        """Keep a finished match once (a second call for the same game changes nothing); True
        when it was new. The row is checked as an imported one is before it is written."""
        row = {
            "game_key": game_key,
            "level": level,
            "target": target,
            "result": result,
            "points": json.dumps(list(points)),
            "hands": len(points),
            "finished_at": now(),
        }
        try:
            check_row("career_matches", row, SCHEMA["career_matches"])
        except Bad as bad:
            raise ValueError(f"career match {game_key}{bad.field}: {bad.reason}") from None
        with self.store.transaction() as db:
            cursor = db.execute(
                f"INSERT INTO career_matches ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)}) "
                "ON CONFLICT (game_key) DO NOTHING",
                tuple(row.values()),
            )
        return cursor.rowcount == 1


def level_from(matches: Sequence[Match]) -> int:
    """One level above the highest won (the first level when none is)."""
    return max((next_level(match.level) for match in matches if match.won), default=rungs()[0].number)


def record(matches: Sequence[Match], level: int) -> tuple[int, int]:
    """(won, lost) at ``level``."""
    at = [match for match in matches if match.level == level]
    won = sum(match.won for match in at)
    return won, len(at) - won


# Student's t, 97.5th percentile, for 1 to 30 degrees of freedom (beyond: the normal's 1.96).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042)  # fmt: skip


@dataclass(frozen=True)
class Strength:
    """The learner's points a hand over ``hands`` hands, with its 95% half-interval (None from
    fewer than two hands)."""

    hands: int
    mean: float
    half: float | None


def strength(points: Sequence[int]) -> Strength:
    """Mean points a hand and its 95% interval (Student's t over the hands)."""
    count = len(points)
    mean = statistics.fmean(points) if count else math.nan
    if count < 2:
        return Strength(count, mean, None)
    t = _T975[count - 2] if count - 1 <= len(_T975) else 1.96
    return Strength(count, mean, t * statistics.stdev(points) / math.sqrt(count))
