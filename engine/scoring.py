"""Scoring a finished hand: points taken, the moon, and bonuses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .rules import MoonRule, Rules

__all__ = ["HandResult", "MoonChoice", "find_shooter", "hand_total", "score_hand"]


class MoonChoice(StrEnum):
    """What a shooter does with a moon: give everyone else its value, or take it off their own
    score ("new moon")."""

    ADD_TO_OTHERS = "add_to_others"
    SUBTRACT_FROM_SHOOTER = "subtract_from_shooter"


@dataclass(frozen=True)
class HandResult:
    points_taken: tuple[int, ...]
    """Points of the cards each seat took, before any moon."""
    tricks_won: tuple[int, ...]
    shooter: int | None
    """The seat that took every point card, when the rules score moons."""
    moon_choice: MoonChoice | None
    scores: tuple[int, ...]
    """What each seat adds to its game total for this hand."""


def find_shooter(rules: Rules, taken: Sequence[int]) -> int | None:
    if rules.moon is MoonRule.OFF:
        return None
    moon_mask = rules.moon_mask
    for seat, mask in enumerate(taken):
        if mask & moon_mask == moon_mask:
            return seat
    return None


def score_hand(
    rules: Rules,
    taken: Sequence[int],
    tricks_won: Sequence[int],
    moon_choice: MoonChoice | None = None,
) -> HandResult:
    """Score a hand from the cards each seat took. Under the shooter's-choice rule a moon
    needs ``moon_choice``; under the other rules it is implied by the rule."""
    points = tuple(rules.points_in(mask) for mask in taken)
    scores = list(points)
    shooter = find_shooter(rules, taken)
    choice = None
    if shooter is not None:
        if rules.moon is MoonRule.ADD_TO_OTHERS:
            choice = MoonChoice.ADD_TO_OTHERS
        elif rules.moon is MoonRule.SUBTRACT_FROM_SHOOTER:
            choice = MoonChoice.SUBTRACT_FROM_SHOOTER
        elif moon_choice is None:
            raise ValueError("a moon under the shooter's-choice rule needs the shooter's choice")
        else:
            choice = MoonChoice(moon_choice)
        # The penalty cards no longer count against the shooter; a bonus card (J♦) still does.
        scores[shooter] -= rules.moon_value
        if choice is MoonChoice.ADD_TO_OTHERS:
            for seat in range(len(scores)):
                if seat != shooter:
                    scores[seat] += rules.moon_value
        else:
            scores[shooter] -= rules.moon_value
    elif rules.no_tricks_bonus:
        for seat, won in enumerate(tricks_won):
            if won == 0:
                scores[seat] += rules.no_tricks_bonus
    return HandResult(points, tuple(tricks_won), shooter, choice, tuple(scores))


def hand_total(rules: Rules, moon_chance: float, trickless: float = 0.0) -> float:
    """What every seat's points for a hand add up to on average (so any expected figures of a
    hand must: own + (players - 1) x the others' average). ``moon_chance``: that some seat shoots
    (the seats' chances added up); ``trickless``: the expected number of seats that take no trick
    in a hand without a moon (only a no-trick bonus counts it).

    Every hand deals the penalty cards' points and the J♦'s; a moon takes the penalty points off
    the shooter and adds them to each other seat (standard: 26 + 52 x the moon chance with four
    players) or takes them off the shooter once more. The play-outs and the solver score a
    shooter's-choice moon as one that adds to the others."""
    penalty = rules.moon_value
    total = penalty + rules.jack_of_diamonds_points + rules.no_tricks_bonus * trickless
    if rules.moon is MoonRule.OFF:
        return total
    if rules.moon is MoonRule.SUBTRACT_FROM_SHOOTER:
        return total - 2 * penalty * moon_chance
    return total + (rules.players - 2) * penalty * moon_chance
